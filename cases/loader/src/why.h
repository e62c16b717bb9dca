/*
 * The one way the case library's modules (values, npy, datagen) write an
 * explanation into a caller's buffer.
 */
#ifndef DMLCONF_CASES_WHY_H
#define DMLCONF_CASES_WHY_H

#include <dmlconf/compiler.h>
#include <stddef.h>

/* Formats a message into why (why_size bytes, truncated to fit). A NULL or
 * empty buffer is ignored; a formatting error leaves it empty. */
void cases_set_why(char *why, size_t why_size, const char *format, ...)
    DMLCONF_PRINTF_LIKE(3, 4)
    ;

#endif /* DMLCONF_CASES_WHY_H */
