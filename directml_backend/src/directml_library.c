/*
 * Finding and loading DirectML.
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include "directml_library.h"

#include <dmlconf/dynlib.h>
#include <dmlconf/file_system.h>
#include <dmlconf/process.h>
#include <dmlconf/system_info.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#define LIBRARY_NAME "DirectML.dll"
#else
#define LIBRARY_NAME "libdirectml.so"
#endif

/* Tries one candidate. Returns 0 when it loaded and has DMLCreateDevice1;
 * appends what happened to `tried`. */
static int try_load(directml_library *library, const char *path, char *tried, size_t tried_size)
{
    char error[300];
    size_t used = strlen(tried);
    void *handle = dmlconf_dynlib_open(path, error, sizeof(error));
    if (!handle)
    {
        snprintf(tried + used, tried_size - used, "%s%s (%s)", used ? "; " : "", path, error);
        return -1;
    }
    dml_create_device1_fn create = NULL;
    DMLCONF_DYNLIB_FUNCTION(create, handle, "DMLCreateDevice1");
    if (!create)
    {
        snprintf(tried + used, tried_size - used, "%s%s (no DMLCreateDevice1: older than DirectML 1.1)",
                 used ? "; " : "", path);
        dmlconf_dynlib_close(handle);
        return -1;
    }
    library->handle = handle;
    library->create_device1 = create;
    dmlconf_dynlib_path(handle, library->path, sizeof(library->path));
    if (!library->path[0])
        snprintf(library->path, sizeof(library->path), "%s", path);
    dmlconf_dynlib_version(handle, library->version, sizeof(library->version));
    return 0;
}

/* Tries `path` as a file, or as a folder holding the library. */
static int try_file_or_folder(directml_library *library, const char *path, char *tried, size_t tried_size)
{
    dmlconf_path_kind kind = DMLCONF_PATH_MISSING;
    if (dmlconf_path_examine(path, &kind, NULL, NULL, 0) == 0 && kind == DMLCONF_PATH_DIRECTORY)
    {
        char *inside = dmlconf_path_join(path, LIBRARY_NAME);
        int result = inside ? try_load(library, inside, tried, tried_size) : -1;
        free(inside);
        return result;
    }
    if (kind == DMLCONF_PATH_MISSING)
    {
        size_t used = strlen(tried);
        snprintf(tried + used, tried_size - used, "%s%s (no such file)", used ? "; " : "", path);
        return -1;
    }
    return try_load(library, path, tried, tried_size);
}

/* The folder this program is in, or NULL. */
static char *program_folder(void)
{
    char *self = dmlconf_process_self_path(NULL, 0);
    if (!self)
        return NULL;
    char *slash = strrchr(self, '/');
#if defined(_WIN32)
    char *backslash = strrchr(self, '\\');
    if (!slash || (backslash && backslash > slash))
        slash = backslash;
#endif
    if (!slash)
    {
        free(self);
        return NULL;
    }
    *slash = '\0';
    return self;
}

int directml_library_open(directml_library *library, char *why, size_t why_size)
{
    char tried[2048] = "";
    memset(library, 0, sizeof(*library));

    const char *chosen = getenv("DMLCONF_DIRECTML_DLL");
    if (chosen && *chosen)
    {
        if (try_file_or_folder(library, chosen, tried, sizeof(tried)) == 0)
            return 0;
        snprintf(why, why_size, "DirectML cannot be loaded from DMLCONF_DIRECTML_DLL=%s: %s", chosen, tried);
        return -1;
    }
    char *folder = program_folder();
    if (folder)
    {
        char *beside = dmlconf_path_join(folder, LIBRARY_NAME);
        dmlconf_path_kind kind = DMLCONF_PATH_MISSING;
        int found = beside && dmlconf_path_examine(beside, &kind, NULL, NULL, 0) == 0 && kind == DMLCONF_PATH_REGULAR &&
                    try_load(library, beside, tried, sizeof(tried)) == 0;
        free(beside);
        free(folder);
        if (found)
            return 0;
    }
#if defined(DMLCONF_DIRECTML_INSTALLED_COPY)
    {
        const char *copy = DMLCONF_DIRECTML_INSTALLED_COPY;
        dmlconf_path_kind kind = DMLCONF_PATH_MISSING;
        if (dmlconf_path_examine(copy, &kind, NULL, NULL, 0) == 0 && kind == DMLCONF_PATH_REGULAR &&
            try_load(library, copy, tried, sizeof(tried)) == 0)
            return 0;
#if defined(_WIN32)
        /* A Linux path given to Wine: its Z: drive is the Unix root. */
        char unix_root[1024];
        if (dmlconf_wine_version() && copy[0] == '/')
        {
            snprintf(unix_root, sizeof(unix_root), "Z:%s", copy);
            if (dmlconf_path_examine(unix_root, &kind, NULL, NULL, 0) == 0 && kind == DMLCONF_PATH_REGULAR &&
                try_load(library, unix_root, tried, sizeof(tried)) == 0)
                return 0;
        }
#endif
    }
#endif
    if (try_load(library, LIBRARY_NAME, tried, sizeof(tried)) == 0)
        return 0;
    snprintf(why, why_size,
             "DirectML is not installed here (%s not found: %s); point DMLCONF_DIRECTML_DLL (or `dmlconf run "
             "--directml-dll`) at a copy, or run tools/install-deps.sh, which installs the one in the npm package "
             "onnxruntime-node",
             LIBRARY_NAME, tried);
    return -1;
}

void directml_library_close(directml_library *library)
{
    dmlconf_dynlib_close(library->handle);
    memset(library, 0, sizeof(*library));
}
