/*
 * Small string helpers shared by every dmlconf library.
 */
#ifndef DMLCONF_TEXT_H
#define DMLCONF_TEXT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A copy of `text` the caller frees, or NULL when memory runs out (or text
 * is NULL). */
char *dmlconf_strdup(const char *text);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_TEXT_H */
