/*
 * Small string helpers shared by every dmlconf library.
 */
#ifndef DMLCONF_TEXT_H
#define DMLCONF_TEXT_H

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

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_TEXT_H */
