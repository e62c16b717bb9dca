/*
 * The one-sentence explanations that a failing function writes into its
 * caller's buffer (the `char *why, size_t why_size` pair every room uses,
 * and the message of a dmlconf_error).
 */
#ifndef DMLCONF_WHY_H
#define DMLCONF_WHY_H

#include <dmlconf/compiler.h>

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the printf-formatted sentence into why (why_size bytes, always
 * NUL-terminated). A sentence too long for the buffer is cut visibly: it
 * ends in "..." (when why_size is more than 4), so a reader never takes a
 * cut path or number for a whole one. A format the C library cannot format
 * leaves "(the message could not be formatted)", cut the same way. Nothing
 * is written when why is NULL or why_size is 0. Never allocates. */
void dmlconf_set_why(char *why, size_t why_size, const char *format, ...) DMLCONF_PRINTF_LIKE(3, 4);
void dmlconf_vset_why(char *why, size_t why_size, const char *format, va_list args) DMLCONF_PRINTF_LIKE(3, 0);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_WHY_H */
