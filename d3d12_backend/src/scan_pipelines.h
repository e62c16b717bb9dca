/*
 * The scan kernels' root signature (root constants and root UAVs, no
 * descriptor heap) and their pipelines, each generated and created on
 * first use, or ahead of use by background threads (a driver compiles each
 * pipeline for tens of milliseconds; a conformance run needs a few dozen).
 */
#ifndef DMLCONF_SCAN_PIPELINES_H
#define DMLCONF_SCAN_PIPELINES_H

#include "d3d12_device.h"
#include "scan_kernels.h"

#include <dmlconf/threads.h>

#include <stdbool.h>

/* Background threads building pipelines ahead of use, at most. */
#define SCAN_PIPELINES_MAX_THREADS 16u
/* Kernels wanted by batches and not yet taken by a thread, at most (more
 * are built by the batch's own thread on use). */
#define SCAN_PIPELINES_MAX_WANTED 64u

typedef enum pipeline_state
{
    PIPELINE_ABSENT,   /* not built (or its build failed) */
    PIPELINE_BUILDING, /* a thread is building it */
    PIPELINE_READY
} pipeline_state;

typedef struct scan_pipelines
{
    ID3D12RootSignature *root_signature;
    d3d12_device *device;
    ID3D12PipelineState *pipelines[KERNEL_VARIANT_COUNT];
    unsigned char state[KERNEL_VARIANT_COUNT]; /* pipeline_state, under `lock` */
    dmlconf_mutex lock;
    dmlconf_condition built; /* broadcast whenever a build ends */
    dmlconf_condition work;  /* broadcast when keys are added, and at release */

    /* Building ahead: the keys, the next one to take, the threads (which
     * wait for more keys until release). The keys a batch is about to wait
     * for (`wanted`) are taken first. */
    kernel_key *ahead;
    size_t ahead_count, ahead_capacity, ahead_next;
    kernel_key wanted[SCAN_PIPELINES_MAX_WANTED];
    size_t wanted_count, wanted_next;
    bool stopping;
    dmlconf_thread threads[SCAN_PIPELINES_MAX_THREADS];
    unsigned thread_count;
    size_t built_ahead; /* pipelines the threads built (a test's evidence) */
    bool trace;         /* each build's time to stderr (DMLCONF_D3D12_TRACE) */
} scan_pipelines;

/* Creates the root signature for pipelines on `d` (which must outlive
 * `p`). Returns 0, or -1 with `why`; `p` is then empty. */
int scan_pipelines_create(scan_pipelines *p, d3d12_device *d, char *why, size_t why_size);

/* Adds the pipelines of `keys` to those built ahead of use by background
 * threads, after the keys added before (the keys are copied), and starts
 * threads until `threads` (at most SCAN_PIPELINES_MAX_THREADS) are
 * running. The threads then wait for more keys until scan_pipelines_release
 * stops them. A build that fails is left for scan_pipelines_get to try
 * again and report. Returns the number of threads running (0 when none
 * could start or `threads` is 0: pipelines are then built on first use, as
 * without it). Keys that find no memory are left to be built on use. */
unsigned scan_pipelines_build_ahead(scan_pipelines *p, const kernel_key *keys, size_t count, unsigned threads);

/* Puts the variants of `keys` that are neither built nor being built
 * ahead of the rest for the background threads, in order (also before the
 * threads start), so that a batch about to wait for several kernels gets
 * them built at once. The caller then gets each with scan_pipelines_get,
 * which builds one that no thread has taken yet itself. At most
 * SCAN_PIPELINES_MAX_WANTED wait to be taken; the others are left to be
 * built on use. */
void scan_pipelines_want(scan_pipelines *p, const kernel_key *keys, size_t count);

/* Stops the background threads (each finishes the build it is in), then
 * releases every pipeline and the root signature (safe on an empty one). */
void scan_pipelines_release(scan_pipelines *p);

/* The pipeline of a kernel variant, owned by `p`: built already, waited for
 * when a background thread is building it, or generated and built now.
 * NULL with a sentence in `why` on failure. */
ID3D12PipelineState *scan_pipelines_get(scan_pipelines *p, const kernel_key *key, char *why, size_t why_size);

/* Binds the root signature on the device's command list (after
 * d3d12_device_begin). */
void scan_pipelines_bind(const scan_pipelines *p, d3d12_device *d);

#endif /* DMLCONF_SCAN_PIPELINES_H */
