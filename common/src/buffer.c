/*
 * The growable byte buffer (buffer.h).
 */
#include <dmlconf/buffer.h>
#include <dmlconf/reserve.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Makes room for `extra` more bytes and the NUL. Returns false, marking the
 * buffer failed, when the size does not fit or memory runs out. */
static bool make_room(dmlconf_buffer *buffer, size_t extra)
{
    if (buffer->failed)
        return false;
    if (extra > SIZE_MAX - buffer->length - 1 ||
        !dmlconf_reserve((void **)&buffer->data, &buffer->capacity, buffer->length + extra + 1, 1))
    {
        buffer->failed = true;
        return false;
    }
    return true;
}

void dmlconf_buffer_append(dmlconf_buffer *buffer, const void *bytes, size_t length)
{
    if (!make_room(buffer, length))
        return;
    if (length)
        memcpy(buffer->data + buffer->length, bytes, length);
    buffer->length += length;
    buffer->data[buffer->length] = '\0';
}

void dmlconf_buffer_puts(dmlconf_buffer *buffer, const char *string)
{
    dmlconf_buffer_append(buffer, string, strlen(string));
}

void dmlconf_buffer_repeat(dmlconf_buffer *buffer, char c, size_t count)
{
    if (!make_room(buffer, count))
        return;
    memset(buffer->data + buffer->length, c, count);
    buffer->length += count;
    buffer->data[buffer->length] = '\0';
}

void dmlconf_buffer_vprintf(dmlconf_buffer *buffer, const char *format, va_list args)
{
    va_list copy;
    va_copy(copy, args);
    int length = vsnprintf(NULL, 0, format, copy);
    va_end(copy);
    if (length < 0)
        buffer->failed = true;
    else if (make_room(buffer, (size_t)length))
    {
        vsnprintf(buffer->data + buffer->length, (size_t)length + 1, format, args);
        buffer->length += (size_t)length;
    }
}

void dmlconf_buffer_printf(dmlconf_buffer *buffer, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    dmlconf_buffer_vprintf(buffer, format, args);
    va_end(args);
}

char *dmlconf_buffer_take(dmlconf_buffer *buffer)
{
    make_room(buffer, 0);
    char *data = buffer->failed ? NULL : buffer->data;
    if (data)
        data[buffer->length] = '\0';
    else
        free(buffer->data);
    memset(buffer, 0, sizeof(*buffer));
    return data;
}

void dmlconf_buffer_free(dmlconf_buffer *buffer)
{
    if (!buffer)
        return;
    free(buffer->data);
    memset(buffer, 0, sizeof(*buffer));
}
