/*
 * Loading shared libraries at run time (dlopen, or LoadLibrary on Windows).
 */
#ifndef DMLCONF_DYNLIB_H
#define DMLCONF_DYNLIB_H

#include <stddef.h>
#include <string.h>

/* Loads library `name`. Returns its handle, or NULL with the loader's
 * explanation in `why`. Close it with dmlconf_dynlib_close. */
void *dmlconf_dynlib_open(const char *name, char *why, size_t why_size);
/* Loads the library in the file at `path`, which is never searched for: a
 * relative path names a file from the current folder, not a name to look
 * up in the loader's search path (on Windows the libraries it depends on
 * are searched beside it first). Returns its handle, or NULL with the
 * loader's explanation in `why`. Close it with dmlconf_dynlib_close. */
void *dmlconf_dynlib_open_file(const char *path, char *why, size_t why_size);
/* The address of `symbol` in `library`, or NULL. */
void *dmlconf_dynlib_symbol(void *library, const char *symbol);
/* Releases a handle from dmlconf_dynlib_open (NULL is ignored). */
void dmlconf_dynlib_close(void *library);

/* The path of the file a loaded library came from, into `text` (size
 * bytes); "" when it cannot be told. */
void dmlconf_dynlib_path(void *library, char *text, size_t size);

/* The file version of a loaded library ("1.15.4.0", from its version
 * resource on Windows); "" when it has none or it cannot be told. */
void dmlconf_dynlib_version(void *library, char *text, size_t size);

/* Casts a symbol's address to a function pointer type without the
 * object-to-function pointer conversion that ISO C leaves undefined. */
#define DMLCONF_DYNLIB_FUNCTION(pointer, library, symbol)                                                              \
    do                                                                                                                 \
    {                                                                                                                  \
        void *address_ = dmlconf_dynlib_symbol((library), (symbol));                                                   \
        memcpy(&(pointer), &address_, sizeof(address_));                                                               \
    } while (0)

#endif /* DMLCONF_DYNLIB_H */
