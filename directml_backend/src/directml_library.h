/*
 * Finding and loading DirectML: DirectML.dll on Windows (and Wine),
 * libdirectml.so under WSL.
 */
#ifndef DMLCONF_DIRECTML_LIBRARY_H
#define DMLCONF_DIRECTML_LIBRARY_H

#include "directml_api.h"

#include <stddef.h>

typedef struct directml_library
{
    void *handle;
    dml_create_device1_fn create_device1;
    char path[512];   /* the file loaded */
    char version[64]; /* its file version ("1.15.4.0"); "" when unknown */
} directml_library;

/* Where DirectML is looked for, first found first:
 *   1. $DMLCONF_DIRECTML_DLL: the library file, or a folder holding it;
 *   2. beside this program;
 *   3. the copy tools/install-deps.sh installs (onnxruntime-node's
 *      redistributable DirectML.dll in tools/npm/node_modules), by the
 *      path this build was made with;
 *   4. the system's search (Windows' own DirectML.dll in System32).
 * Nothing is downloaded. Returns 0, or -1 with one sentence in `why` that
 * names every place tried and how to point dmlconf at a copy. */
int directml_library_open(directml_library *library, char *why, size_t why_size);

/* Unloads it (safe on a zeroed one). */
void directml_library_close(directml_library *library);

#endif /* DMLCONF_DIRECTML_LIBRARY_H */
