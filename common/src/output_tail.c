/*
 * The last bytes of a stream.
 */
#include "output_tail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int output_tail_init(output_tail *tail, size_t capacity)
{
    memset(tail, 0, sizeof(*tail));
    tail->ring = malloc(capacity ? capacity : 1);
    if (!tail->ring)
        return -1;
    if (dmlconf_mutex_init(&tail->lock))
    {
        free(tail->ring);
        tail->ring = NULL;
        return -1;
    }
    tail->capacity = capacity ? capacity : 1;
    return 0;
}

void output_tail_append(output_tail *tail, const void *data, size_t size)
{
    const char *bytes = data;
    dmlconf_mutex_lock(&tail->lock);
    tail->total += size;
    if (size > tail->capacity)
    {
        bytes += size - tail->capacity;
        size = tail->capacity;
    }
    for (size_t i = 0; i < size; ++i)
    {
        tail->ring[tail->next] = bytes[i];
        tail->next = (tail->next + 1) % tail->capacity;
    }
    tail->used = tail->used + size > tail->capacity ? tail->capacity : tail->used + size;
    dmlconf_mutex_unlock(&tail->lock);
}

char *output_tail_text(output_tail *tail)
{
    dmlconf_mutex_lock(&tail->lock);
    /* Each byte takes at most 4 characters (\xNN), plus the prefix. */
    size_t size = tail->used * 4 + 64;
    char *text = malloc(size);
    if (text)
    {
        size_t at = 0;
        unsigned long long dropped = tail->total - tail->used;
        if (dropped)
            at += (size_t)snprintf(text, size, "[... %llu earlier bytes] ", dropped);
        size_t first = (tail->next + tail->capacity - tail->used) % tail->capacity;
        for (size_t i = 0; i < tail->used; ++i)
        {
            unsigned char c = (unsigned char)tail->ring[(first + i) % tail->capacity];
            if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f) || c >= 0x80)
                text[at++] = (char)c;
            else if (c != '\r')
                at += (size_t)snprintf(text + at, size - at, "\\x%02x", c);
        }
        text[at] = '\0';
    }
    dmlconf_mutex_unlock(&tail->lock);
    return text;
}

void output_tail_free(output_tail *tail)
{
    if (!tail->ring)
        return;
    dmlconf_mutex_destroy(&tail->lock);
    free(tail->ring);
    memset(tail, 0, sizeof(*tail));
}
