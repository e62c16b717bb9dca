/*
 * The last bytes of a stream, kept while a thread reads the stream to its
 * end (a child's standard error: read continuously, so the child never
 * blocks on it, and only its end is kept). Private to process*.c.
 */
#ifndef DMLCONF_OUTPUT_TAIL_H
#define DMLCONF_OUTPUT_TAIL_H

#include <dmlconf/threads.h>

#include <stdbool.h>
#include <stddef.h>

typedef struct output_tail
{
    dmlconf_mutex lock;
    char *ring;        /* capacity bytes */
    size_t capacity;
    size_t used;       /* bytes in the ring, at most capacity */
    size_t next;       /* where the next byte goes */
    unsigned long long total; /* bytes seen, kept or not */
} output_tail;

/* Returns 0, or -1 when memory runs out. */
int output_tail_init(output_tail *tail, size_t capacity);
/* Appends bytes, dropping the oldest beyond the capacity (thread-safe). */
void output_tail_append(output_tail *tail, const void *data, size_t size);
/* The kept bytes as printable text (other bytes as \xNN), prefixed by
 * "[... N earlier bytes]" when some were dropped; a new string, or NULL
 * when memory runs out (thread-safe). */
char *output_tail_text(output_tail *tail);
void output_tail_free(output_tail *tail);

#endif /* DMLCONF_OUTPUT_TAIL_H */
