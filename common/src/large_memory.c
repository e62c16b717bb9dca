/*
 * Large buffers (dmlconf/large_memory.h). On Linux a buffer of 4 MiB or
 * more is aligned to 2 MiB and marked MADV_HUGEPAGE, which transparent huge
 * pages in "madvise" mode (a common default) need; the advice is only
 * advice, and a kernel without it gives ordinary pages. Every other system
 * gets malloc.
 */
#if defined(__linux__)
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE */
#endif

#include <dmlconf/large_memory.h>

#include <stdlib.h>

#if defined(__linux__)
#include <sys/mman.h>

#define HUGE_PAGE     ((size_t)2u << 20)
#define HUGE_ENOUGH   ((size_t)4u << 20)
#define SMALL_ALIGNED 64u

void *dmlconf_large_alloc(size_t bytes)
{
    if (bytes == 0)
        return NULL;
    void *buffer = NULL;
    size_t alignment = bytes >= HUGE_ENOUGH ? HUGE_PAGE : SMALL_ALIGNED;
    if (posix_memalign(&buffer, alignment, bytes) != 0)
        return NULL;
#if defined(MADV_HUGEPAGE)
    if (alignment == HUGE_PAGE)
        (void)madvise(buffer, bytes / HUGE_PAGE * HUGE_PAGE, MADV_HUGEPAGE);
#endif
    return buffer;
}

void dmlconf_large_free(void *buffer)
{
    free(buffer);
}

#else

void *dmlconf_large_alloc(size_t bytes)
{
    return bytes ? malloc(bytes) : NULL;
}

void dmlconf_large_free(void *buffer)
{
    free(buffer);
}

#endif
