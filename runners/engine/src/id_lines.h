/*
 * Files of ids and globs, one a line, as baselines and case lists keep
 * them: a '#' starts a comment, blanks around the text and blank lines do
 * not count, and every line keeps its number so that what it says can be
 * named by file and line. Internal to the run engine.
 */
#ifndef DMLCONF_ID_LINES_H
#define DMLCONF_ID_LINES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Cuts a '#' comment and the blanks (and a '\r') around what is left, in
 * place. Returns the text, which may be "". */
char *runner_id_line_trim(char *line);

/* Called with each line that holds something after trimming, and its
 * 1-based number. Returns 0, or -1 to stop (out of memory). */
typedef int (*runner_id_line_callback)(void *context, const char *text, uint32_t line);

/* Reads `file` to its end (named `path` in messages) and calls add for each
 * line that holds something. Returns 0, or -1 with why set when the file
 * cannot be read ("path: cannot read it: ...") or add stops
 * ("out of memory reading path"). The file stays the caller's. */
int runner_read_id_lines(FILE *file, const char *path, runner_id_line_callback add, void *context, char *why,
                         size_t why_size);

#endif /* DMLCONF_ID_LINES_H */
