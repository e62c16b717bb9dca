/*
 * Loading shared libraries at run time.
 */
#if !defined(_WIN32)
#define _GNU_SOURCE /* dlinfo */
#endif

#include <dmlconf/dynlib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <windows.h>

void *dmlconf_dynlib_open(const char *name, char *why, size_t why_size)
{
    HMODULE module = LoadLibraryA(name);
    if (!module)
        snprintf(why, why_size, "%s cannot be loaded (error %lu)", name, (unsigned long)GetLastError());
    return (void *)module;
}

void *dmlconf_dynlib_open_file(const char *path, char *why, size_t why_size)
{
    /* A full path is loaded from there only; a relative one would be looked
     * for along the search path. */
    DWORD needed = GetFullPathNameA(path, 0, NULL, NULL);
    char *full = needed ? malloc(needed) : NULL;
    DWORD written = full ? GetFullPathNameA(path, needed, full, NULL) : 0;
    if (written == 0 || written >= needed)
    {
        snprintf(why, why_size, "%s cannot be loaded: %s", path,
                 needed && !full ? "out of memory" : "its full path cannot be told");
        free(full);
        return NULL;
    }
    HMODULE module = LoadLibraryExA(full, NULL, LOAD_WITH_ALTERED_SEARCH_PATH);
    if (!module)
        snprintf(why, why_size, "%s cannot be loaded (error %lu)", path, (unsigned long)GetLastError());
    free(full);
    return (void *)module;
}

void *dmlconf_dynlib_symbol(void *library, const char *symbol)
{
    if (!library)
        return NULL;
    FARPROC function = GetProcAddress((HMODULE)library, symbol);
    void *address = NULL;
    memcpy(&address, &function, sizeof(address));
    return address;
}

void dmlconf_dynlib_close(void *library)
{
    if (library)
        FreeLibrary((HMODULE)library);
}

void dmlconf_dynlib_path(void *library, char *text, size_t size)
{
    if (!size)
        return;
    text[0] = '\0';
    char path[MAX_PATH];
    if (library && GetModuleFileNameA((HMODULE)library, path, sizeof(path)))
        snprintf(text, size, "%s", path);
}

void dmlconf_dynlib_version(void *library, char *text, size_t size)
{
    char path[MAX_PATH];
    if (!size)
        return;
    text[0] = '\0';
    if (!library || !GetModuleFileNameA((HMODULE)library, path, sizeof(path)))
        return;
    DWORD ignored = 0, bytes = GetFileVersionInfoSizeA(path, &ignored);
    void *block = bytes ? malloc(bytes) : NULL;
    VS_FIXEDFILEINFO *info = NULL;
    UINT info_size = 0;
    if (block && GetFileVersionInfoA(path, 0, bytes, block) &&
        VerQueryValueA(block, "\\", (void **)&info, &info_size) && info && info_size >= sizeof(*info))
    {
        snprintf(text, size, "%lu.%lu.%lu.%lu", (unsigned long)(info->dwFileVersionMS >> 16),
                 (unsigned long)(info->dwFileVersionMS & 0xffffu), (unsigned long)(info->dwFileVersionLS >> 16),
                 (unsigned long)(info->dwFileVersionLS & 0xffffu));
    }
    free(block);
}
#else
#include <dlfcn.h>
#include <link.h>

void *dmlconf_dynlib_open(const char *name, char *why, size_t why_size)
{
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library)
    {
        const char *error = dlerror();
        snprintf(why, why_size, "%s", error ? error : name);
    }
    return library;
}

void *dmlconf_dynlib_open_file(const char *path, char *why, size_t why_size)
{
    /* dlopen searches for a name without a '/'; "./" makes it a path. */
    if (strchr(path, '/'))
        return dmlconf_dynlib_open(path, why, why_size);
    size_t length = strlen(path);
    char *local = malloc(length + 3);
    if (!local)
    {
        snprintf(why, why_size, "%s cannot be loaded: out of memory", path);
        return NULL;
    }
    memcpy(local, "./", 2);
    memcpy(local + 2, path, length + 1);
    void *library = dmlconf_dynlib_open(local, why, why_size);
    free(local);
    return library;
}

void *dmlconf_dynlib_symbol(void *library, const char *symbol)
{
    return library ? dlsym(library, symbol) : NULL;
}

void dmlconf_dynlib_close(void *library)
{
    if (library)
        dlclose(library);
}

void dmlconf_dynlib_version(void *library, char *text, size_t size)
{
    (void)library;
    if (size)
        text[0] = '\0';
}

void dmlconf_dynlib_path(void *library, char *text, size_t size)
{
    if (!size)
        return;
    text[0] = '\0';
    struct link_map *map = NULL;
    if (library && dlinfo(library, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
        snprintf(text, size, "%s", map->l_name);
}
#endif
