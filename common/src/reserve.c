/*
 * The growth of every growable array (reserve.h).
 */
#include <dmlconf/reserve.h>

#include <stdint.h>
#include <stdlib.h>

/* The capacity an array starts with, in elements. */
#define FIRST_CAPACITY 8u

bool dmlconf_reserve(void **items, size_t *capacity, size_t needed, size_t item_size)
{
    if (needed <= *capacity)
        return true;
    if (item_size == 0)
        return false;
    size_t most = SIZE_MAX / item_size;
    if (needed > most)
        return false;
    size_t grown = *capacity > most / 2 ? most : *capacity * 2;
    if (grown < FIRST_CAPACITY)
        grown = FIRST_CAPACITY < most ? FIRST_CAPACITY : most;
    if (grown < needed)
        grown = needed;
    void *moved = realloc(*items, grown * item_size);
    if (!moved)
        return false;
    *items = moved;
    *capacity = grown;
    return true;
}
