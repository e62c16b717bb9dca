/*
 * Loading shared libraries at run time (dlopen, or LoadLibrary on Windows).
 */
#ifndef DMLCONF_DYNLIB_H
#define DMLCONF_DYNLIB_H

#include <stddef.h>
#include <string.h>

/* Loads library `name`. Returns its handle, or NULL with the loader's
 * explanation in `why`. Close it with dynlib_close. */
void *dynlib_open(const char *name, char *why, size_t why_size);
/* The address of `symbol` in `library`, or NULL. */
void *dynlib_symbol(void *library, const char *symbol);
/* Releases a handle from dynlib_open (NULL is ignored). */
void dynlib_close(void *library);

/* Casts a symbol's address to a function pointer type without the
 * object-to-function pointer conversion that ISO C leaves undefined. */
#define DYNLIB_FUNCTION(pointer, library, symbol)                                                                      \
    do                                                                                                                 \
    {                                                                                                                  \
        void *address_ = dynlib_symbol((library), (symbol));                                                           \
        memcpy(&(pointer), &address_, sizeof(address_));                                                               \
    } while (0)

#endif /* DMLCONF_DYNLIB_H */
