/*
 * Buffers of gigabytes (a case's tensors): in the system's large pages
 * where it has them (Linux: transparent huge pages, asked for per buffer),
 * so that touching them for the first time costs one page fault per 2 MiB
 * rather than per 4 KiB. Elsewhere, or for small sizes, plain malloc.
 */
#ifndef DMLCONF_LARGE_MEMORY_H
#define DMLCONF_LARGE_MEMORY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Allocates `bytes` bytes (uninitialised; at least 64-byte aligned), or
 * returns NULL when memory runs out or bytes is 0. Free with
 * dmlconf_large_free. */
void *dmlconf_large_alloc(size_t bytes);

/* Frees a buffer of dmlconf_large_alloc (NULL: nothing). */
void dmlconf_large_free(void *buffer);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_LARGE_MEMORY_H */
