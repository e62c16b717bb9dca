/*
 * What the judging library's files share and nobody else needs.
 */
#ifndef DMLCONF_JUDGING_INTERNAL_H
#define DMLCONF_JUDGING_INTERNAL_H

#include <dmlconf/oracle.h>

#if defined(__MINGW32__)
/* mingw-w64 checks "printf" against the Microsoft runtime's formats, which
 * lack %zu; the project builds with its C99-conforming stdio. */
#define JUDGING_PRINTF_LIKE(format_index, first_arg) __attribute__((format(gnu_printf, format_index, first_arg)))
#elif defined(__GNUC__)
#define JUDGING_PRINTF_LIKE(format_index, first_arg) __attribute__((format(printf, format_index, first_arg)))
#else
#define JUDGING_PRINTF_LIKE(format_index, first_arg)
#endif

/* Formats a message into err->message (err may be NULL: nothing), cut to
 * fit the fixed message buffer with "..." at the end when it is longer. */
void judging_set_error(dmlconf_error *err, const char *format, ...) JUDGING_PRINTF_LIKE(2, 3);

#endif /* DMLCONF_JUDGING_INTERNAL_H */
