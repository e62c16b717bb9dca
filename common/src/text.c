/*
 * Small string helpers.
 */
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
        if (used + 2 > *capacity)
        {
            size_t grown_capacity = *capacity ? *capacity * 2 : 256;
            char *grown = realloc(*line, grown_capacity);
            if (!grown)
                return -1;
            *line = grown;
            *capacity = grown_capacity;
        }
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
