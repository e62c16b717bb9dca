/*
 * Compiler-specific annotations shared by every dmlconf library.
 */
#ifndef DMLCONF_COMPILER_H
#define DMLCONF_COMPILER_H

#if defined(__MINGW32__)
#include <stdio.h> /* defines __MINGW_PRINTF_FORMAT */
#endif

/* Marks a function whose argument `format_index` is a printf format string
 * consumed by the arguments from `first_argument` on, so the compiler checks
 * every call. On mingw-w64, whose stdio is built with
 * __USE_MINGW_ANSI_STDIO (C99 formats such as %zu and %llu), the format
 * family is the one its headers use. */
#if defined(__MINGW_PRINTF_FORMAT)
#define DMLCONF_PRINTF_LIKE(format_index, first_argument)                                                              \
    __attribute__((format(__MINGW_PRINTF_FORMAT, format_index, first_argument)))
#elif defined(__GNUC__)
#define DMLCONF_PRINTF_LIKE(format_index, first_argument) __attribute__((format(printf, format_index, first_argument)))
#else
#define DMLCONF_PRINTF_LIKE(format_index, first_argument)
#endif

#endif /* DMLCONF_COMPILER_H */
