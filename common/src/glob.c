/*
 * Shell-style patterns. The matcher keeps only the position of the last
 * '*': on a mismatch it lets that star swallow one more character and
 * tries again, which is enough for globs (no backtracking past a star is
 * ever needed) and bounds the work.
 */
#include <dmlconf/glob.h>

#include <stddef.h>

/* Matches one set "[...]" at `pattern` (just after '[') against c. Returns
 * the pattern position after the set and *matched, or NULL when the set is
 * malformed (no closing bracket). */
static const char *match_set(const char *pattern, char c, bool *matched)
{
    bool negate = *pattern == '!' || *pattern == '^';
    if (negate)
        ++pattern;
    bool found = false;
    bool first = true;
    while (*pattern && (first || *pattern != ']'))
    {
        char low = *pattern;
        if (low == '\\' && pattern[1])
            low = *++pattern;
        char high = low;
        if (pattern[1] == '-' && pattern[2] && pattern[2] != ']')
        {
            pattern += 2;
            high = *pattern;
            if (high == '\\' && pattern[1])
                high = *++pattern;
        }
        if ((unsigned char)c >= (unsigned char)low && (unsigned char)c <= (unsigned char)high)
            found = true;
        ++pattern;
        first = false;
    }
    if (*pattern != ']')
        return NULL;
    *matched = found != negate;
    return pattern + 1;
}

bool dmlconf_glob_match(const char *pattern, const char *text)
{
    const char *star_pattern = NULL, *star_text = NULL;
    while (*text)
    {
        const char *next = NULL;
        bool advance = false;
        switch (*pattern)
        {
        case '*':
            while (*pattern == '*')
                ++pattern;
            if (!*pattern)
                return true;
            star_pattern = pattern;
            star_text = text;
            continue;
        case '?':
            next = pattern + 1;
            advance = true;
            break;
        case '[':
        {
            bool matched = false;
            next = match_set(pattern + 1, *text, &matched);
            if (next)
            {
                advance = matched;
                break;
            }
            /* Malformed: a literal '['. */
            next = pattern + 1;
            advance = *text == '[';
            break;
        }
        case '\\':
            if (pattern[1])
            {
                next = pattern + 2;
                advance = pattern[1] == *text;
                break;
            }
            next = pattern + 1;
            advance = *text == '\\';
            break;
        case '\0':
            break;
        default:
            next = pattern + 1;
            advance = *pattern == *text;
            break;
        }
        if (advance)
        {
            pattern = next;
            ++text;
            continue;
        }
        if (!star_pattern)
            return false;
        pattern = star_pattern;
        text = ++star_text;
    }
    while (*pattern == '*')
        ++pattern;
    return *pattern == '\0';
}
