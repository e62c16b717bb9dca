/*
 * The scan kernels' root signature (root constants and root UAVs, no
 * descriptor heap) and their pipelines, each generated and created on
 * first use.
 */
#ifndef DMLCONF_SCAN_PIPELINES_H
#define DMLCONF_SCAN_PIPELINES_H

#include "d3d12_device.h"
#include "kernels.h"

typedef struct scan_pipelines
{
    ID3D12RootSignature *root_signature;
    ID3D12PipelineState *pipelines[KERNEL_VARIANT_COUNT];
} scan_pipelines;

/* Creates the root signature. Returns 0, or -1 with `why`; `p` is then
 * empty. */
int scan_pipelines_create(scan_pipelines *p, d3d12_device *d, char *why, size_t why_size);

/* Releases the root signature and every pipeline (safe on an empty one). */
void scan_pipelines_release(scan_pipelines *p);

/* The pipeline of a kernel variant, generated and created on first use;
 * owned by `p`. NULL with a sentence in `why` on failure. */
ID3D12PipelineState *scan_pipelines_get(scan_pipelines *p, d3d12_device *d, const kernel_key *key, char *why,
                                        size_t why_size);

/* Binds the root signature on the device's command list (after
 * d3d12_device_begin). */
void scan_pipelines_bind(const scan_pipelines *p, d3d12_device *d);

#endif /* DMLCONF_SCAN_PIPELINES_H */
