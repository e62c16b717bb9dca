/*
 * What several subcommands' options share.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>

int cli_parse_bytes(const char *text, uint64_t *bytes)
{
    char *end = NULL;
    if (!*text || *text == '-')
        return -1;
    errno = 0;
    double value = strtod(text, &end);
    if (errno || end == text || value < 0.0)
        return -1;
    double scale = 1.0;
    if (*end == 'k' || *end == 'K')
        scale = 1e3, ++end;
    else if (*end == 'M')
        scale = 1e6, ++end;
    else if (*end == 'G')
        scale = 1e9, ++end;
    else if (*end == 'T')
        scale = 1e12, ++end;
    if (*end == 'B')
        ++end;
    if (*end || value * scale >= 1.8e19)
        return -1;
    *bytes = (uint64_t)(value * scale);
    return 0;
}
