/*
 * Loading shared libraries at run time.
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include "dynlib.h"

#include <stdio.h>

#if defined(_WIN32)
#include <windows.h>

void *dynlib_open(const char *name, char *why, size_t why_size)
{
    HMODULE module = LoadLibraryA(name);
    if (!module)
        snprintf(why, why_size, "%s cannot be loaded (error %lu)", name, (unsigned long)GetLastError());
    return (void *)module;
}

void *dynlib_symbol(void *library, const char *symbol)
{
    return library ? (void *)GetProcAddress((HMODULE)library, symbol) : NULL;
}

void dynlib_close(void *library)
{
    if (library)
        FreeLibrary((HMODULE)library);
}
#else
#include <dlfcn.h>

void *dynlib_open(const char *name, char *why, size_t why_size)
{
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library)
    {
        const char *error = dlerror();
        snprintf(why, why_size, "%s", error ? error : name);
    }
    return library;
}

void *dynlib_symbol(void *library, const char *symbol)
{
    return library ? dlsym(library, symbol) : NULL;
}

void dynlib_close(void *library)
{
    if (library)
        dlclose(library);
}
#endif
