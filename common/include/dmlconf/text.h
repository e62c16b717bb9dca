/*
 * Small string helpers shared by every dmlconf library.
 */
#ifndef DMLCONF_TEXT_H
#define DMLCONF_TEXT_H

#include <dmlconf/compiler.h>

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A copy of `text` the caller frees, or NULL when memory runs out (or text
 * is NULL). */
char *dmlconf_strdup(const char *text);

/* Reads one line of any length from `file` into *line (grown as needed,
 * the caller frees it; *capacity tracks its size), without its '\n' or
 * "\r\n". Returns 1 with a line, 0 at the end of the file, or -1 on a
 * read error or when memory runs out. */
int dmlconf_read_line(FILE *file, char **line, size_t *capacity);

/* Length of a fixed buffer's string: stops at `size` when there is no NUL. */
size_t dmlconf_bounded_length(const char *text, size_t size);

/* A bounded text buffer that keeps counting past its end, as snprintf does:
 * `length` is the length the full text has, so a caller can tell that it
 * was cut (length >= size). Start it as {buf, size, 0}; buf may be NULL
 * when size is 0. It never allocates. */
typedef struct dmlconf_text
{
    char *buf;
    size_t size;
    size_t length;
} dmlconf_text;

/* Appends the formatted text, as much of it as fits (always NUL-terminated
 * when size > 0), and counts all of it in text->length. */
void dmlconf_text_appendf(dmlconf_text *text, const char *format, ...) DMLCONF_PRINTF_LIKE(2, 3);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_TEXT_H */
