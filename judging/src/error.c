/*
 * Error messages of the judging library (judging_internal.h).
 */
#include "judging_internal.h"

#include <dmlconf/why.h>

#include <stdarg.h>

void judging_set_error(dmlconf_error *err, const char *format, ...)
{
    if (!err)
        return;
    va_list args;
    va_start(args, format);
    dmlconf_vset_why(err->message, sizeof(err->message), format, args);
    va_end(args);
}
