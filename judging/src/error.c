/*
 * Error messages of the judging library (judging_internal.h).
 */
#include "judging_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void judging_set_error(dmlconf_error *err, const char *format, ...)
{
    if (!err)
        return;
    va_list args;
    va_start(args, format);
    int written = vsnprintf(err->message, sizeof(err->message), format, args);
    va_end(args);
    if (written < 0)
        snprintf(err->message, sizeof(err->message), "(the message could not be formatted)");
    else if ((size_t)written >= sizeof(err->message))
        memcpy(err->message + sizeof(err->message) - 4, "...", 4); /* cut, visibly */
}
