/*
 * Growable arrays: a (pointer, count, capacity) triple kept by the caller,
 * and the one helper that makes room in it.
 */
#ifndef DMLCONF_RESERVE_H
#define DMLCONF_RESERVE_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Makes the array *items, which has room for *capacity elements of
 * item_size bytes, hold at least `needed` elements: it grows to twice its
 * capacity, or to `needed` when that is more (to at least 8 elements the
 * first time), with realloc, so the elements already there move with it
 * and the new ones are uninitialised. Pass the address of the array's
 * pointer, (void **)&list->items; it may be NULL with *capacity 0. The
 * caller owns the array and frees it with free().
 *
 * Returns true when the array holds `needed` elements (without touching it
 * when it already did); false, leaving *items and *capacity as they were,
 * when item_size is 0, when needed elements would not fit in a size_t, or
 * when memory runs out. */
bool dmlconf_reserve(void **items, size_t *capacity, size_t needed, size_t item_size);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_RESERVE_H */
