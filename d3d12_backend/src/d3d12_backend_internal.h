/*
 * The D3D12 backend's state, shared by its ops (d3d12_backend.c) and its
 * batch executor (d3d12_batch.c).
 */
#ifndef DMLCONF_D3D12_BACKEND_INTERNAL_H
#define DMLCONF_D3D12_BACKEND_INTERNAL_H

#include "d3d12_device.h"
#include "scan_pipelines.h"
#include "scan_plan.h"
#include "view_buffer.h"

#include <dmlconf/backend.h>

/* One dispatch of a job that ran alone in its batch (the benchmark's
 * per-pass breakdown). */
typedef struct d3d12_pass_time
{
    kernel_key key;
    char name[64]; /* plan_pass_name */
    uint32_t work_items;
    double start;   /* from the start of the job's first dispatch (its timestamp) to this one's */
    double seconds; /* the dispatch's own, between its two timestamps */
} d3d12_pass_time;

typedef struct d3d12_backend
{
    dmlconf_backend base;
    d3d12_device device;
    scan_pipelines pipelines;
    plan_limits limits;
    uint64_t view_bytes;          /* one view, a multiple of 128 KiB (lowered by DMLCONF_D3D12_VIEW_WORDS) */
    uint64_t arena_limit;         /* the shared arena's largest size (at most one view) */
    char knobs[120];              /* test knobs in effect, for the report; "" when none */
    bool trace;                   /* DMLCONF_D3D12_TRACE: each dispatch's time to stderr */
    unsigned build_ahead_threads; /* threads building pipelines ahead of use (DMLCONF_D3D12_BUILD_AHEAD) */
    bool built_ahead_started;     /* the first jobs started them */

    /* Reused from batch to batch, grown on demand. */
    view_buffer arena;             /* parameter blocks and the regions of small jobs */
    view_buffer big[REGION_COUNT]; /* the regions of a job too big for the arena */
    d3d12_buffer upload;
    d3d12_buffer readback;
    d3d12_buffer query_readback;
    /* The one-pass scans' chunk statuses and ticket counters (scan_params.h),
     * kept from batch to batch: each batch's passes take areas from offset 0
     * and a new epoch, so the words an earlier batch left read as nothing. */
    d3d12_buffer status;
    d3d12_buffer status_zeros; /* as long, zeroed: copied over `status` when the epochs wrap */
    uint32_t status_epoch;     /* the last submitted batch's epoch; 0: `status` must be zeroed first */
    uint32_t epoch_max;        /* epochs wrap after this one (SCAN_EPOCH_MAX; DMLCONF_D3D12_EPOCHS) */
    ID3D12QueryHeap *queries;
    uint32_t query_capacity;

    /* The dispatches of the last batch that held a single job, with their
     * GPU times (none when the device has no timestamps). */
    d3d12_pass_time *last_passes;
    size_t last_pass_count, last_pass_capacity;
} d3d12_backend;

/* Executes jobs in batches (see backend.h's execute). Returns 0, or -1 when
 * the device was lost (every job not DONE is then FAILED). */
int d3d12_backend_execute_jobs(d3d12_backend *backend, dmlconf_job *jobs, size_t count);

/* Starts the background threads that build every kernel in reach, once
 * (from the first jobs; a no-op after). */
void d3d12_backend_build_ahead(d3d12_backend *backend);

/* Releases the reusable buffers. */
void d3d12_backend_release_buffers(d3d12_backend *backend);

#endif /* DMLCONF_D3D12_BACKEND_INTERNAL_H */
