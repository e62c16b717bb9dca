/*
 * Explanations written into callers' buffers (why.h).
 */
#include "why.h"

#include <stdarg.h>
#include <stdio.h>

void cases_set_why(char *why, size_t why_size, const char *format, ...)
{
    if (!why || why_size == 0)
        return;
    va_list args;
    va_start(args, format);
    int written = vsnprintf(why, why_size, format, args);
    va_end(args);
    if (written < 0)
        why[0] = '\0';
}
