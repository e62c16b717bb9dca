/*
 * text.c: the growable byte strings that docgen builds its output in.
 */
#include <dmlconf/docgen.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Makes room for `extra` more bytes and the NUL. Returns false (and marks
 * the text failed) when memory runs out. */
static bool text_reserve(docgen_text *text, size_t extra)
{
    if (text->failed)
        return false;
    if (extra > SIZE_MAX / 2 - text->length - 1)
    {
        text->failed = true;
        return false;
    }
    size_t needed = text->length + extra + 1;
    if (needed <= text->capacity)
        return true;
    size_t capacity = text->capacity ? text->capacity : 256;
    while (capacity < needed)
        capacity *= 2;
    char *data = realloc(text->data, capacity);
    if (!data)
    {
        text->failed = true;
        return false;
    }
    text->data = data;
    text->capacity = capacity;
    return true;
}

void docgen_text_append(docgen_text *text, const char *bytes, size_t length)
{
    if (!text_reserve(text, length))
        return;
    if (length)
        memcpy(text->data + text->length, bytes, length);
    text->length += length;
    text->data[text->length] = '\0';
}

void docgen_text_puts(docgen_text *text, const char *string)
{
    docgen_text_append(text, string, strlen(string));
}

void docgen_text_repeat(docgen_text *text, char c, size_t count)
{
    if (!text_reserve(text, count))
        return;
    memset(text->data + text->length, c, count);
    text->length += count;
    text->data[text->length] = '\0';
}

void docgen_text_printf(docgen_text *text, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    va_list copy;
    va_copy(copy, args);
    int length = vsnprintf(NULL, 0, format, copy);
    va_end(copy);
    if (length < 0)
        text->failed = true;
    else if (text_reserve(text, (size_t)length))
    {
        vsnprintf(text->data + text->length, (size_t)length + 1, format, args);
        text->length += (size_t)length;
    }
    va_end(args);
}

void docgen_text_free(docgen_text *text)
{
    if (!text)
        return;
    free(text->data);
    memset(text, 0, sizeof(*text));
}
