/*
 * Sentences for fixed-size message fields, cut visibly.
 */
#include "message.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void exec_message(char *out, size_t size, const char *format, ...)
{
    if (!size)
        return;
    va_list arguments;
    va_start(arguments, format);
    int length = vsnprintf(out, size, format, arguments);
    va_end(arguments);
    if (length < 0)
        out[0] = '\0';
    else if ((size_t)length >= size && size > 4)
        memcpy(out + size - 4, "...", 4);
}
