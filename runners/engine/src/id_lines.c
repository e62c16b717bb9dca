/*
 * Files of ids and globs, one a line (id_lines.h).
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include "id_lines.h"

#include <dmlconf/text.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

char *runner_id_line_trim(char *line)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    while (*line == ' ' || *line == '\t')
        ++line;
    size_t n = strlen(line);
    while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
        line[--n] = '\0';
    return line;
}

int runner_read_id_lines(FILE *file, const char *path, runner_id_line_callback add, void *context, char *why,
                         size_t why_size)
{
    char *line = NULL;
    size_t capacity = 0;
    uint32_t number = 0;
    int got, result = 0;
    while (result == 0 && (got = dmlconf_read_line(file, &line, &capacity)) > 0)
    {
        ++number;
        const char *text = runner_id_line_trim(line);
        if (*text && add(context, text, number))
        {
            snprintf(why, why_size, "out of memory reading %s", path);
            result = -1;
        }
    }
    if (result == 0 && got < 0)
    {
        snprintf(why, why_size, "%s: cannot read it: %s", path, ferror(file) ? strerror(errno) : "out of memory");
        result = -1;
    }
    free(line);
    return result;
}
