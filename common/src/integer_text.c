/*
 * Whole numbers from text (integer_text.h).
 */
#include <dmlconf/integer_text.h>

#include <stddef.h>

/* The value of a digit in `base` (10 or 16), or -1. */
static int digit_value(char c, unsigned base)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (base == 16 && c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (base == 16 && c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool dmlconf_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *value)
{
    if (!text)
        return false;
    unsigned base = 10;
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    {
        base = 16;
        text += 2;
    }
    if (!*text)
        return false;
    uint64_t number = 0;
    for (const char *p = text; *p; ++p)
    {
        int digit = digit_value(*p, base);
        if (digit < 0 || number > (UINT64_MAX - (uint64_t)digit) / base)
            return false;
        number = number * base + (uint64_t)digit;
    }
    if (number < min || number > max)
        return false;
    *value = number;
    return true;
}
