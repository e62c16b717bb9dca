/*
 * The directml backend's state, shared by its ops (directml_backend.c) and
 * its batch executor (directml_batch.c).
 */
#ifndef DMLCONF_DIRECTML_BACKEND_INTERNAL_H
#define DMLCONF_DIRECTML_BACKEND_INTERNAL_H

#include "d3d12_device.h"
#include "directml_api.h"
#include "directml_library.h"
#include "directml_path.h"

#include <dmlconf/backend.h>

#include <stdbool.h>

typedef struct directml_backend
{
    dmlconf_backend base;
    d3d12_device device;
    directml_library library;
    IDMLDevice *dml;
    IDMLDevice1 *dml1; /* for CompileGraph; NULL unless the path compiles graphs */
    IDMLCommandRecorder *recorder;
    directml_path path;                  /* flags, graph and binding (directml_path.h) */
    dmlconf_feature_level created_level; /* the minimum level DMLCreateDevice1 was asked for */
    dmlconf_feature_level highest_level; /* the highest level DirectML reports */
    bool type_supported[16];             /* CheckFeatureSupport(TENSOR_DATA_TYPE_SUPPORT), by data type */
    char types[160];                     /* the supported types, for the report */

    /* Reused from batch to batch, grown on demand. */
    d3d12_buffer arena; /* the jobs' tensors and DirectML's resources (DEFAULT heap) */
    d3d12_buffer upload;
    d3d12_buffer readback; /* repeat: one copy of the shared buffer per dispatch */
    d3d12_buffer query_readback;
    ID3D12DescriptorHeap *heap;
    uint32_t heap_capacity;
    uint32_t heap_increment;
    ID3D12QueryHeap *queries;
    uint32_t query_capacity;
} directml_backend;

/* Executes jobs in batches (backend.h's execute). Returns 0, or -1 when the
 * device was lost (every job not DONE is then FAILED). */
int directml_execute_jobs(directml_backend *backend, dmlconf_job *jobs, size_t count);

/* Releases the reusable resources. */
void directml_release_resources(directml_backend *backend);

/* DirectML's feature level values from dmlconf's (the same numbers). */
static inline int directml_feature_level(dmlconf_feature_level level)
{
    return (int)level;
}

#endif /* DMLCONF_DIRECTML_BACKEND_INTERNAL_H */
