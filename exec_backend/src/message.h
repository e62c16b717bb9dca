/*
 * Sentences for fixed-size message fields (a job's message, a why buffer):
 * written whole when they fit, and visibly cut ("...") when they do not.
 */
#ifndef DMLCONF_EXEC_MESSAGE_H
#define DMLCONF_EXEC_MESSAGE_H

#include <dmlconf/compiler.h>

#include <stddef.h>

/* printf into out[size]; a sentence that does not fit ends in "...".
 * Nothing is written when size is 0. */
void exec_message(char *out, size_t size, const char *format, ...) DMLCONF_PRINTF_LIKE(3, 4);

#endif /* DMLCONF_EXEC_MESSAGE_H */
