/*
 * source_text.c: a case file's bytes in memory. Reading with a size limit, the
 * check that the file is UTF-8 text (so binary garbage is refused with a
 * position, before libyaml sees it), the table of line starts that turns
 * libyaml's marks (line, column in characters) into byte offsets, and the
 * source line with a caret under a column for diagnostics.
 */
#include "loader_internal.h"
#include <dmlconf/file_system.h>
#include <dmlconf/reserve.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Longest source line shown in full in a snippet; longer lines are cut to a
 * window around the column. */
#define SNIPPET_MAX_BYTES    160u
#define SNIPPET_BEFORE_CHARS 80u
#define SNIPPET_AFTER_CHARS  60u

static int source_add_line(loader_source *source, size_t start)
{
    if (!dmlconf_reserve((void **)&source->line_starts, &source->line_capacity, source->line_count + 1,
                         sizeof(*source->line_starts)))
    {
        return -1;
    }
    source->line_starts[source->line_count++] = (uint32_t)start;
    return 0;
}

int loader_source_init(loader_source *source, const char *path, const void *text, size_t size)
{
    memset(source, 0, sizeof(*source));
    source->path = path;
    if (size > UINT32_MAX - 1u)
    {
        return -1;
    }
    source->text = malloc(size + 1);
    if (!source->text)
    {
        return -1;
    }
    if (size)
    {
        memcpy(source->text, text, size);
    }
    source->text[size] = '\0';
    source->size = size;
    return 0;
}

int loader_source_read(loader_source *source, const char *path, uint64_t max_bytes, char *why, size_t why_size)
{
    FILE *file = NULL;
    char *text = NULL;
    uint64_t bytes = 0;
    size_t size;

    memset(source, 0, sizeof(*source));
    source->path = path;
    file = dmlconf_open_regular_file(path, &bytes, why, why_size);
    if (!file)
    {
        goto fail;
    }
    if (bytes > max_bytes || bytes > UINT32_MAX - 1u)
    {
        snprintf(why, why_size, "the file is %" PRIu64 " bytes, larger than the limit of %" PRIu64 " bytes", bytes,
                 max_bytes < UINT32_MAX - 1u ? max_bytes : (uint64_t)UINT32_MAX - 1u);
        goto fail;
    }
    size = (size_t)bytes;
    text = malloc(size + 1);
    if (!text)
    {
        snprintf(why, why_size, "out of memory reading %zu bytes", size);
        goto fail;
    }
    if (size && fread(text, 1, size, file) != size)
    {
        snprintf(why, why_size, "cannot read the file: %s", ferror(file) ? strerror(errno) : "it became shorter");
        goto fail;
    }
    text[size] = '\0';
    fclose(file);
    source->text = text;
    source->size = size;
    return 0;

fail:
    free(text);
    if (file)
    {
        fclose(file);
    }
    return -1;
}

void loader_source_free(loader_source *source)
{
    free(source->text);
    free(source->line_starts);
    memset(source, 0, sizeof(*source));
}

/* Length of the UTF-8 sequence at p (at most `left` bytes), its code point in
 * *code; 0 when the bytes are not valid UTF-8 (overlong forms and surrogates
 * included). */
static size_t utf8_decode(const unsigned char *p, size_t left, uint32_t *code)
{
    size_t length, i;
    uint32_t value;

    if (p[0] < 0x80)
    {
        *code = p[0];
        return 1;
    }
    if (p[0] >= 0xc2 && p[0] <= 0xdf)
    {
        length = 2;
        value = p[0] & 0x1fu;
    }
    else if (p[0] >= 0xe0 && p[0] <= 0xef)
    {
        length = 3;
        value = p[0] & 0x0fu;
    }
    else if (p[0] >= 0xf0 && p[0] <= 0xf4)
    {
        length = 4;
        value = p[0] & 0x07u;
    }
    else
    {
        return 0;
    }
    if (left < length)
    {
        return 0;
    }
    for (i = 1; i < length; ++i)
    {
        if ((p[i] & 0xc0) != 0x80)
        {
            return 0;
        }
        value = (value << 6) | (p[i] & 0x3fu);
    }
    if ((length == 3 && value < 0x800) || (length == 4 && (value < 0x10000 || value > 0x10ffff)) ||
        (value >= 0xd800 && value <= 0xdfff))
    {
        return 0;
    }
    *code = value;
    return length;
}

/* Characters that YAML allows in a stream (tab, line breaks, printable). */
static bool yaml_printable(uint32_t code)
{
    return code == 0x09 || code == 0x0a || code == 0x0d || (code >= 0x20 && code <= 0x7e) || code == 0x85 ||
           (code >= 0xa0 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd && code != 0xfeff) ||
           (code >= 0x10000 && code <= 0x10ffff);
}

/* True when the 8 bytes at p are all in 0x20..0x7e. */
static bool printable_ascii_word(const unsigned char *p)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
    uint64_t word, below, del;

    memcpy(&word, p, 8);
    /* A byte below 0x20, a byte with its high bit set, or a 0x7f byte. */
    below = (word - ones * 0x20) & ~word & highs;
    del = ((word ^ (ones * 0x7f)) - ones) & ~(word ^ (ones * 0x7f)) & highs;
    return !(below | (word & highs) | del);
}

int loader_source_scan(loader_source *source, uint32_t *bad_line, uint32_t *bad_column, char *why, size_t why_size)
{
    const unsigned char *text = (const unsigned char *)source->text;
    size_t size = source->size, i = 0, length;
    uint32_t code, line = 0, column = 0;

    source->line_count = 0;
    source->ascii = true;
    source->bom = 0;
    if (size >= 3 && text[0] == 0xef && text[1] == 0xbb && text[2] == 0xbf)
    {
        i = 3;
        source->bom = 3;
    }
    if (source_add_line(source, i))
    {
        snprintf(why, why_size, "out of memory");
        *bad_line = *bad_column = 0;
        return -1;
    }
    while (i < size)
    {
        /* Eight printable ASCII characters at a time (most of a file). */
        while (i + 8 <= size && printable_ascii_word(text + i))
        {
            i += 8;
            column += 8;
        }
        if (i >= size)
        {
            break;
        }
        if (text[i] == '\n' || text[i] == '\r')
        {
            i += (text[i] == '\r' && i + 1 < size && text[i + 1] == '\n') ? 2 : 1;
        }
        else if (text[i] >= 0x20 && text[i] < 0x7f)
        {
            ++i;
            ++column;
            continue;
        }
        else
        {
            source->ascii = source->ascii && text[i] < 0x80;
            length = utf8_decode(text + i, size - i, &code);
            if (!length && memchr(text, 0, size < 8192 ? size : 8192))
            {
                snprintf(why, why_size, "the file is binary, not YAML text");
                goto bad;
            }
            if (!length)
            {
                snprintf(why, why_size, "the file is not UTF-8 text: invalid byte 0x%02x", text[i]);
                goto bad;
            }
            if (!yaml_printable(code))
            {
                if (code == 0 || memchr(text, 0, size < 8192 ? size : 8192))
                {
                    snprintf(why, why_size, "the file is binary, not YAML text");
                }
                else
                {
                    snprintf(why, why_size,
                             "the file holds the control character U+%04" PRIX32 ", which YAML does not allow", code);
                }
                goto bad;
            }
            i += length;
            ++column;
            if (code != 0x85 && code != 0x2028 && code != 0x2029)
            {
                continue;
            }
        }
        ++line;
        column = 0;
        if (source_add_line(source, i))
        {
            snprintf(why, why_size, "out of memory");
            goto bad;
        }
    }
    return 0;

bad:
    *bad_line = line + 1;
    *bad_column = column + 1;
    return -1;
}

/* Byte offset of the start of 0-based line `line` (the end of the text past the
 * last line). */
static size_t line_start(const loader_source *source, uint32_t line)
{
    if (line < source->line_count)
    {
        return source->line_starts[line];
    }
    return source->size;
}

/* Byte offset after `chars` characters from `start`, stopping at a line break
 * or the end of the text. */
static size_t advance_chars(const loader_source *source, size_t start, uint32_t chars)
{
    const unsigned char *text = (const unsigned char *)source->text;
    size_t i = start;

    while (chars && i < source->size && text[i] != '\n' && text[i] != '\r')
    {
        ++i;
        while (i < source->size && (text[i] & 0xc0) == 0x80)
        {
            ++i;
        }
        --chars;
    }
    return i;
}

dmlconf_mark loader_source_mark(const loader_source *source, size_t line, size_t column)
{
    dmlconf_mark mark;

    mark.line = (uint32_t)(line + 1);
    mark.column = (uint32_t)(column + 1);
    mark.offset = advance_chars(source, line_start(source, (uint32_t)line), (uint32_t)column);
    return mark;
}

dmlconf_mark loader_source_mark_yaml(const loader_source *source, const yaml_mark_t *mark)
{
    dmlconf_mark result;

    if (!source->ascii)
    {
        return loader_source_mark(source, mark->line, mark->column);
    }
    result.line = (uint32_t)(mark->line + 1);
    result.column = (uint32_t)(mark->column + 1);
    result.offset = source->bom + mark->index;
    return result;
}

uint64_t loader_source_hash(const char *text, size_t size)
{
    uint64_t hash = UINT64_C(0x6a09e667f3bcc908) ^ size, word;
    size_t i;

    for (i = 0; i + 8 <= size; i += 8)
    {
        memcpy(&word, text + i, 8);
        hash = (hash ^ word) * UINT64_C(0x9e3779b97f4a7c15);
        hash ^= hash >> 29;
    }
    word = 0;
    memcpy(&word, text + i, size - i);
    hash = (hash ^ word) * UINT64_C(0x9e3779b97f4a7c15);
    return hash ^ (hash >> 32);
}

dmlconf_mark loader_source_mark_at_offset(const loader_source *source, size_t offset)
{
    const unsigned char *text = (const unsigned char *)source->text;
    dmlconf_mark mark;
    size_t low = 0, high = source->line_count, middle, i;
    uint32_t column = 0;

    if (offset > source->size)
    {
        offset = source->size;
    }
    while (high - low > 1)
    {
        middle = low + (high - low) / 2;
        if (source->line_starts[middle] <= offset)
        {
            low = middle;
        }
        else
        {
            high = middle;
        }
    }
    for (i = source->line_count ? source->line_starts[low] : 0; i < offset; ++i)
    {
        column += (text[i] & 0xc0) != 0x80;
    }
    mark.line = (uint32_t)low + 1;
    mark.column = column + 1;
    mark.offset = offset;
    return mark;
}

char *loader_source_snippet(const loader_source *source, dmlconf_mark mark)
{
    const unsigned char *text = (const unsigned char *)source->text;
    size_t start, end, caret, from, to, i, out = 0, length;
    uint32_t chars, code;
    bool cut_left = false, cut_right = false;
    char *snippet;

    if (!mark.line || !source->text || mark.line > source->line_count)
    {
        return NULL;
    }
    start = line_start(source, mark.line - 1);
    end = start;
    while (end < source->size && text[end] != '\n' && text[end] != '\r')
    {
        ++end;
    }
    if (end == start)
    {
        return NULL; /* an empty line (the end of the file): nothing to show */
    }
    caret = advance_chars(source, start, mark.column - 1);
    from = start;
    to = end;
    if (end - start > SNIPPET_MAX_BYTES)
    {
        /* Cut a window of whole characters around the caret. */
        from = start;
        chars = mark.column - 1;
        if (chars > SNIPPET_BEFORE_CHARS)
        {
            from = advance_chars(source, start, chars - SNIPPET_BEFORE_CHARS);
            cut_left = true;
        }
        to = advance_chars(source, caret, SNIPPET_AFTER_CHARS);
        cut_right = to < end;
    }
    snippet = malloc((to - from) * 2 + 16);
    if (!snippet)
    {
        return NULL;
    }
    if (cut_left)
    {
        memcpy(snippet + out, "...", 3);
        out += 3;
    }
    /* Bytes that are not printable UTF-8, and invisible characters that
     * reorder or break the line, are shown as '?'. */
    for (i = from; i < to;)
    {
        length = utf8_decode(text + i, to - i, &code);
        if (!length || (code < 0x20 && code != '\t') || code == 0x7f || (code >= 0x80 && code < 0xa0) ||
            code == 0x200e || code == 0x200f || (code >= 0x2028 && code <= 0x202e) ||
            (code >= 0x2066 && code <= 0x2069))
        {
            snippet[out++] = '?';
            ++i;
            while (!length && i < to && (text[i] & 0xc0) == 0x80)
            {
                snippet[out++] = '?';
                ++i;
            }
            continue;
        }
        memcpy(snippet + out, text + i, length);
        out += length;
        i += length;
    }
    if (cut_right)
    {
        memcpy(snippet + out, "...", 3);
        out += 3;
    }
    snippet[out++] = '\n';
    if (cut_left)
    {
        memcpy(snippet + out, "   ", 3);
        out += 3;
    }
    for (i = from; i < caret && i < to; ++i)
    {
        if ((text[i] & 0xc0) == 0x80)
        {
            continue;
        }
        snippet[out++] = text[i] == '\t' ? '\t' : ' ';
    }
    snippet[out++] = '^';
    snippet[out++] = '\n';
    snippet[out] = '\0';
    return snippet;
}
