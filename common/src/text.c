/*
 * Small string helpers.
 */
#include <dmlconf/reserve.h>
#include <dmlconf/text.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

char *dmlconf_strdup(const char *text)
{
    if (!text)
        return NULL;
    size_t size = strlen(text) + 1;
    char *copy = malloc(size);
    if (copy)
        memcpy(copy, text, size);
    return copy;
}

int dmlconf_read_line(FILE *file, char **line, size_t *capacity)
{
    size_t used = 0;
    int c;
    while ((c = fgetc(file)) != EOF)
    {
        if (!dmlconf_reserve((void **)line, capacity, used + 2, 1))
            return -1;
        if (c == '\n')
            break;
        (*line)[used++] = (char)c;
    }
    if (c == EOF && (ferror(file) || used == 0))
        return ferror(file) ? -1 : 0;
    if (used && (*line)[used - 1] == '\r')
        --used;
    if (!*line)
    {
        *line = malloc(1);
        if (!*line)
            return -1;
        *capacity = 1;
    }
    (*line)[used] = '\0';
    return 1;
}

size_t dmlconf_bounded_length(const char *text, size_t size)
{
    size_t length = 0;
    while (length < size && text[length] != '\0')
        ++length;
    return length;
}

void dmlconf_text_appendf(dmlconf_text *text, const char *format, ...)
{
    va_list args;
    size_t at = text->length < text->size ? text->length : text->size;
    va_start(args, format);
    int n = vsnprintf(text->size > at ? text->buf + at : NULL, text->size > at ? text->size - at : 0, format, args);
    va_end(args);
    if (n > 0)
        text->length += (size_t)n;
}

size_t dmlconf_utf8_decode(const char *text, uint32_t *code)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t length;
    uint32_t value, min;
    if (p[0] >= 0xc2 && p[0] <= 0xdf)
    {
        length = 2;
        value = p[0] & 0x1fu;
        min = 0x80;
    }
    else if (p[0] >= 0xe0 && p[0] <= 0xef)
    {
        length = 3;
        value = p[0] & 0x0fu;
        min = 0x800;
    }
    else if (p[0] >= 0xf0 && p[0] <= 0xf4)
    {
        length = 4;
        value = p[0] & 0x07u;
        min = 0x10000;
    }
    else
        return 0;
    for (size_t i = 1; i < length; ++i)
    {
        if ((p[i] & 0xc0) != 0x80) /* the NUL terminator stops here too */
            return 0;
        value = (value << 6) | (p[i] & 0x3fu);
    }
    if (value < min || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff))
        return 0;
    *code = value;
    return length;
}

bool dmlconf_text_is_control(uint32_t code, bool allow_tab_and_newline)
{
    if (code < 0x20 || code == 0x7f)
        return !(allow_tab_and_newline && (code == '\t' || code == '\n'));
    return (code >= 0x80 && code <= 0x9f) || code == 0x061c || code == 0x200e || code == 0x200f ||
           (code >= 0x2028 && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

/* The code point at p and its length in bytes (1 for a byte that is not
 * UTF-8, reported as U+FFFD). */
static size_t next_code(const char *p, uint32_t *code)
{
    if ((unsigned char)*p < 0x80)
    {
        *code = (unsigned char)*p;
        return 1;
    }
    size_t length = dmlconf_utf8_decode(p, code);
    if (!length)
    {
        *code = 0xfffd;
        return 1;
    }
    return length;
}

uint32_t dmlconf_text_first_control(const char *text, bool allow_tab_and_newline)
{
    uint32_t code;
    for (const char *p = text; *p;)
    {
        size_t length = next_code(p, &code);
        if ((length == 1 && code == 0xfffd) || dmlconf_text_is_control(code, allow_tab_and_newline))
            return code;
        p += length;
    }
    return 0;
}

void dmlconf_text_make_printable(char *text, bool allow_tab_and_newline)
{
    if (!text)
        return;
    char *out = text;
    uint32_t code;
    for (const char *p = text; *p;)
    {
        size_t length = next_code(p, &code);
        if ((length == 1 && code == 0xfffd) || dmlconf_text_is_control(code, allow_tab_and_newline))
            *out++ = '?';
        else
        {
            memmove(out, p, length);
            out += length;
        }
        p += length;
    }
    *out = '\0';
}

bool dmlconf_text_shell_safe(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != '\0' && strchr("_./:,+@%-", c) != NULL);
}

void dmlconf_text_append_shell_word(dmlconf_text *text, const char *word, size_t length)
{
    bool safe = length > 0;

    for (size_t i = 0; i < length && safe; ++i)
        safe = dmlconf_text_shell_safe((unsigned char)word[i]);
    if (safe)
    {
        dmlconf_text_appendf(text, "%.*s", (int)length, word);
        return;
    }
    dmlconf_text_appendf(text, "'");
    for (size_t i = 0; i < length; ++i)
    {
        if (word[i] == '\'')
            dmlconf_text_appendf(text, "'\\''");
        else
            dmlconf_text_appendf(text, "%c", word[i]);
    }
    dmlconf_text_appendf(text, "'");
}
