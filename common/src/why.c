/*
 * Explanations written into callers' buffers (why.h).
 */
#include <dmlconf/why.h>

#include <stdio.h>
#include <string.h>

/* Ends a cut sentence in "...". */
static void mark_cut(char *why, size_t why_size)
{
    if (why_size > 4)
        memcpy(why + why_size - 4, "...", 4);
}

void dmlconf_vset_why(char *why, size_t why_size, const char *format, va_list args)
{
    if (!why || why_size == 0)
        return;
    int written = vsnprintf(why, why_size, format, args);
    if (written < 0)
    {
        static const char unformatted[] = "(the message could not be formatted)";
        snprintf(why, why_size, "%s", unformatted);
        written = (int)sizeof(unformatted) - 1;
    }
    if ((size_t)written >= why_size)
        mark_cut(why, why_size);
}

void dmlconf_set_why(char *why, size_t why_size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    dmlconf_vset_why(why, why_size, format, args);
    va_end(args);
}
