/*
 * A growable byte buffer, kept NUL-terminated: the text a program builds
 * before it writes it (a page, a report, a case file, a message). Beside it,
 * text.h's dmlconf_text fills a fixed buffer and never allocates.
 */
#ifndef DMLCONF_BUFFER_H
#define DMLCONF_BUFFER_H

#include <dmlconf/compiler.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Start from {0} (data NULL until the first append). data[length] is '\0'
 * once anything was appended; the bytes may hold NULs of their own. The
 * buffer owns data. A failed allocation sets `failed` and turns every later
 * append into a no-op, so a caller checks once, at the end. */
typedef struct dmlconf_buffer
{
    char *data;
    size_t length;
    size_t capacity;
    bool failed;
} dmlconf_buffer;

/* Appends `length` bytes (which may hold NUL bytes; bytes may be NULL when
 * length is 0). */
void dmlconf_buffer_append(dmlconf_buffer *buffer, const void *bytes, size_t length);

/* Appends a NUL-terminated string, without its NUL. */
void dmlconf_buffer_puts(dmlconf_buffer *buffer, const char *string);

/* Appends `count` copies of the byte `c`. */
void dmlconf_buffer_repeat(dmlconf_buffer *buffer, char c, size_t count);

/* Appends printf-formatted text; a format the C library cannot format
 * (vsnprintf fails) marks the buffer failed. */
void dmlconf_buffer_printf(dmlconf_buffer *buffer, const char *format, ...) DMLCONF_PRINTF_LIKE(2, 3);
void dmlconf_buffer_vprintf(dmlconf_buffer *buffer, const char *format, va_list args) DMLCONF_PRINTF_LIKE(2, 0);

/* Hands the text over: returns data, NUL-terminated ("" when nothing was
 * appended), which the caller frees; or NULL, freeing what there was, when
 * the buffer failed or memory runs out. The buffer is left as {0}. */
char *dmlconf_buffer_take(dmlconf_buffer *buffer);

/* Frees the data and leaves the buffer as {0}. NULL is allowed. */
void dmlconf_buffer_free(dmlconf_buffer *buffer);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_BUFFER_H */
