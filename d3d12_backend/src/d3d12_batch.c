/*
 * Executing batches of jobs on the device: one command list per batch that
 * uploads every input, runs every job's passes (jobs side by side, their
 * successive passes separated by UAV barriers), reads every output back and
 * resolves one pair of timestamps per dispatch.
 *
 * Small jobs share one arena buffer laid out as
 *   [parameter blocks | inputs | in-place buffers | outputs | scratch]
 * so that one copy uploads [0, in-place end) and one copy reads back
 * [in-place start, outputs end). A job too large for the arena runs alone in
 * its own batch, in the backend's big-job buffers (possibly windowed).
 */
#include "d3d12_backend_internal.h"

#include <dmlconf/reserve.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Root UAV addresses and regions are aligned to this many bytes. */
#define REGION_ALIGNMENT 256u
/* The most dispatches recorded in one command list. */
#define MAX_BATCH_PASSES 8192u

typedef struct job_state
{
    dmlconf_job *job;
    job_plan plan;
    bool runnable;
    bool big;
    view_buffer *buffer[REGION_COUNT]; /* where each region lives */
    uint64_t offset[REGION_COUNT];     /* byte offset of each region in its buffer */
    uint64_t bytes[REGION_COUNT];
    uint64_t param_offset; /* arena offset of the first pass's parameter block */
    uint64_t readback_offset;
    uint64_t upload_output_offset; /* a job alone: where its output's initial bytes are in the upload buffer */
} job_state;

static uint64_t align_up(uint64_t value, uint64_t alignment)
{
    return (value + alignment - 1) / alignment * alignment;
}

static void job_fail(dmlconf_job *job, dmlconf_job_outcome outcome, const char *message)
{
    job->outcome = outcome;
    job->device_seconds = -1.0;
    snprintf(job->message, sizeof(job->message), "%s", message);
}

/* The bytes a job takes in the arena. */
static uint64_t arena_bytes(const job_state *s)
{
    uint64_t total = align_up(s->plan.count * (uint64_t)SCAN_PARAM_BYTES, REGION_ALIGNMENT);
    if (!s->job->desc->in_place)
        total += align_up(s->bytes[REGION_INPUT], REGION_ALIGNMENT);
    total += align_up(s->bytes[REGION_OUTPUT], REGION_ALIGNMENT);
    total += align_up(s->bytes[REGION_SCRATCH], REGION_ALIGNMENT);
    return total;
}

/* Validates and plans one job. */
static void prepare_job(d3d12_backend *b, job_state *s)
{
    dmlconf_job *job = s->job;
    const dmlconf_scan_desc *desc = job->desc;
    dmlconf_validation validation;
    job->message[0] = '\0';
    job->device_seconds = -1.0;
    job->reason = DMLCONF_REASON_NONE;
    dmlconf_feature_level level = job->feature_level ? job->feature_level : DMLCONF_FEATURE_LEVEL_5_0;
    if (!dmlconf_validate(desc, level, &validation))
    {
        job->outcome = DMLCONF_JOB_REJECTED;
        job->reason = validation.reason;
        snprintf(job->message, sizeof(job->message), "%s", validation.message);
        return;
    }
    kernel_element element;
    if (!plan_element_of(desc->input.data_type, &element))
    {
        job_fail(job, DMLCONF_JOB_UNSUPPORTED, "the D3D12 kernels do not compute this data type");
        return;
    }
    uint64_t in_minimum = 0, out_minimum = 0;
    dmlconf_tensor_min_size_bytes(&desc->input, &in_minimum);
    dmlconf_tensor_min_size_bytes(&desc->output, &out_minimum);
    if (!job->input || !job->output || job->input_bytes < in_minimum || job->output_bytes < out_minimum)
    {
        job_fail(job, DMLCONF_JOB_FAILED, "the job's buffers are missing or smaller than their tensors");
        return;
    }
    s->bytes[REGION_INPUT] = desc->in_place ? 0 : align_up(job->input_bytes, 4);
    s->bytes[REGION_OUTPUT] = align_up(job->output_bytes, 4);
    plan_limits limits = b->limits;
    bool wide = s->bytes[REGION_INPUT] > b->view_bytes || s->bytes[REGION_OUTPUT] > b->view_bytes;
    limits.max_span_bytes = wide ? view_buffer_max_range(b->view_bytes) : UINT64_MAX;
    char why[200];
    if (plan_job(desc, &limits, &s->plan, why, sizeof(why)))
    {
        job_fail(job, DMLCONF_JOB_FAILED, why);
        return;
    }
    s->bytes[REGION_SCRATCH] = align_up(s->plan.scratch_bytes, 8);
    s->big = arena_bytes(s) > b->arena_limit || s->plan.count > MAX_BATCH_PASSES;
    s->runnable = true;
}

/* Makes `buffer` (an upload or readback buffer) at least `bytes` long. */
static int reserve_host_buffer(d3d12_backend *b, d3d12_buffer *buffer, D3D12_HEAP_TYPE type, uint64_t bytes, char *why,
                               size_t why_size)
{
    if (buffer->resource && buffer->bytes >= bytes)
        return 0;
    d3d12_buffer_release(buffer);
    uint64_t size = bytes < (UINT64_C(1) << 20) ? (UINT64_C(1) << 20) : align_up(bytes, UINT64_C(1) << 20);
    return d3d12_buffer_create(&b->device, type, size, buffer, why, why_size);
}

static int reserve_arena(d3d12_backend *b, uint64_t bytes, char *why, size_t why_size)
{
    if (b->arena.whole.resource && b->arena.bytes >= bytes)
        return 0;
    view_buffer_release(&b->arena);
    uint64_t size = bytes < (UINT64_C(4) << 20) ? (UINT64_C(4) << 20) : align_up(bytes, UINT64_C(1) << 20);
    if (size > b->arena_limit)
        size = b->arena_limit;
    return view_buffer_create(&b->device, size, b->view_bytes, &b->arena, why, why_size);
}

/* Makes the status buffer at least `bytes` long. A new one holds whatever
 * the memory held, so the epochs start over with a zeroing. */
static int reserve_status(d3d12_backend *b, uint64_t bytes, char *why, size_t why_size)
{
    if (b->status.resource && b->status.bytes >= bytes)
        return 0;
    d3d12_buffer_release(&b->status);
    d3d12_buffer_release(&b->status_zeros);
    b->status_epoch = 0;
    uint64_t size = bytes < (UINT64_C(1) << 20) ? (UINT64_C(1) << 20) : align_up(bytes, UINT64_C(1) << 20);
    if (d3d12_buffer_create(&b->device, D3D12_HEAP_TYPE_DEFAULT, size, &b->status, why, why_size) ||
        d3d12_buffer_create(&b->device, D3D12_HEAP_TYPE_UPLOAD, size, &b->status_zeros, why, why_size))
        return -1;
    memset(b->status_zeros.mapped, 0, size);
    return 0;
}

/* Places the status areas of the batch's one-pass scans one after another
 * in the status buffer (each pass its own: passes of different jobs run
 * side by side, and a job's later pieces must not see its earlier ones'
 * words), and gives them the batch's epoch. Returns the bytes they take. */
static uint64_t place_status_areas(job_state *states, size_t count, uint32_t epoch)
{
    uint64_t at = 0;
    for (size_t i = 0; i < count; ++i)
    {
        for (size_t p = 0; p < states[i].plan.count; ++p)
        {
            plan_pass *pass = &states[i].plan.passes[p];
            if (!pass->status_count)
                continue;
            unsigned acc_bytes = kernel_accumulator_bytes(pass->key.element);
            at = align_up(at, 8);
            pass->params[SCAN_P_STATUS_BASE] = (uint32_t)(at / acc_bytes);
            pass->params[SCAN_P_EPOCH] = epoch;
            at += (uint64_t)pass->status_count * acc_bytes;
        }
    }
    return at;
}

/* Makes the big-job buffer of region `r` at least `bytes` long. Big jobs
 * reuse these buffers: allocating and freeing hundreds of megabytes per job
 * was measured to slow later jobs' kernels down on NVIDIA's driver. */
static int reserve_big(d3d12_backend *b, unsigned r, uint64_t bytes, char *why, size_t why_size)
{
    if (b->big[r].whole.resource && b->big[r].bytes >= bytes)
        return 0;
    view_buffer_release(&b->big[r]);
    return view_buffer_create(&b->device, align_up(bytes, UINT64_C(1) << 20), b->view_bytes, &b->big[r], why, why_size);
}

static int reserve_queries(d3d12_backend *b, uint32_t count, char *why, size_t why_size)
{
    if (b->queries && b->query_capacity >= count)
        return 0;
    if (b->queries)
        ID3D12QueryHeap_Release(b->queries);
    b->queries = NULL;
    uint32_t capacity = count < 1024 ? 1024 : count;
    D3D12_QUERY_HEAP_DESC desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, capacity, 0};
    HRESULT hr = ID3D12Device_CreateQueryHeap(b->device.device, &desc, &IID_ID3D12QueryHeap, (void **)&b->queries);
    if (FAILED(hr))
    {
        char text[64];
        snprintf(why, why_size, "creating a timestamp query heap failed: %s",
                 d3d12_hresult_text(hr, text, sizeof(text)));
        return -1;
    }
    b->query_capacity = capacity;
    return reserve_host_buffer(b, &b->query_readback, D3D12_HEAP_TYPE_READBACK, (uint64_t)capacity * 8, why, why_size);
}

/* Records one pass: rebases its parameter block onto the views it binds,
 * writes the block to the upload buffer, binds and dispatches between two
 * timestamps. Returns 0, or -1 with `why` when a binding fits no view. */
static int record_pass(d3d12_backend *b, job_state *s, size_t index, uint32_t *query, char *why, size_t why_size)
{
    d3d12_device *d = &b->device;
    const plan_pass *pass = &s->plan.passes[index];
    uint32_t params[SCAN_PARAM_WORDS];
    memcpy(params, pass->params, sizeof(params));
    D3D12_GPU_VIRTUAL_ADDRESS addresses[3];
    for (unsigned u = 0; u < 3; ++u)
    {
        addresses[u] = b->arena.whole.address;
        if (!pass->used[u])
            continue;
        unsigned region = pass->region[u];
        uint64_t offset = s->offset[region];
        uint64_t start;
        if (view_buffer_find(s->buffer[region], offset + pass->lo[u], offset + pass->hi[u], &addresses[u], &start))
        {
            snprintf(why, why_size, "pass %zu reaches bytes %llu to %llu, beyond one buffer view", index,
                     (unsigned long long)(offset + pass->lo[u]), (unsigned long long)(offset + pass->hi[u]));
            return -1;
        }
        uint32_t delta = (uint32_t)(((int64_t)offset - (int64_t)start) / (int64_t)pass->element_bytes[u]);
        if (u == 0)
            params[SCAN_P_IN_FIRST] += delta;
        else if (u == 1)
            params[SCAN_P_OUT_FIRST] += delta;
        else
        {
            params[SCAN_P_INIT_BASE] += delta;
            params[SCAN_P_FINAL_BASE] += delta;
        }
    }
    uint64_t block = s->param_offset + index * (uint64_t)SCAN_PARAM_BYTES;
    memcpy((unsigned char *)b->upload.mapped + block, params, sizeof(params));

    uint32_t items = params[SCAN_P_WORK_ITEMS];
    uint32_t per_group = kernel_items_per_group(pass->key.kind);
    uint32_t groups = (items + per_group - 1) / per_group;
    uint32_t groups_x = groups <= 65535u ? groups : 32768u;
    uint32_t groups_y = (groups + groups_x - 1) / groups_x;
    uint32_t constants[SCAN_ROOT_CONSTANTS] = {0};
    constants[SCAN_ROOT_PARAM_OFFSET] = (uint32_t)block;
    constants[SCAN_ROOT_ROW_ITEMS] = groups_x * per_group;

    ID3D12GraphicsCommandList *list = d->list;
    /* Built before recording began (execute_batch), so this only looks it up. */
    ID3D12PipelineState *pipeline = scan_pipelines_get(&b->pipelines, &pass->key, why, why_size);
    if (!pipeline)
        return -1;
    ID3D12GraphicsCommandList_SetPipelineState(list, pipeline);
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(list, SCAN_ROOT_PARAMETER_CONSTANTS, SCAN_ROOT_CONSTANTS,
                                                           constants, 0);
    for (unsigned u = 0; u < 3; ++u)
        ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, SCAN_ROOT_PARAMETER_UAV0 + u, addresses[u]);
    /* The blocks were copied into the arena with the inputs. */
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, SCAN_ROOT_PARAMETER_UAV0 + SCAN_UAV_PARAMS,
                                                                b->arena.whole.address);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, SCAN_ROOT_PARAMETER_UAV0 + SCAN_UAV_STATUS,
                                                                b->status.address);
    ID3D12GraphicsCommandList_EndQuery(list, b->queries, D3D12_QUERY_TYPE_TIMESTAMP, (*query)++);
    ID3D12GraphicsCommandList_Dispatch(list, groups_x, groups_y, 1);
    ID3D12GraphicsCommandList_EndQuery(list, b->queries, D3D12_QUERY_TYPE_TIMESTAMP, (*query)++);
    return 0;
}

/* Keeps the GPU time of each pass of a job that ran alone (its queries
 * are in pass order). Nothing is kept when memory runs out. */
static void record_pass_times(d3d12_backend *b, const job_state *s, const uint64_t *ticks)
{
    b->last_pass_count = 0;
    if (!b->device.timestamp_frequency)
        return;
    if (!dmlconf_reserve((void **)&b->last_passes, &b->last_pass_capacity, s->plan.count, sizeof(*b->last_passes)))
        return;
    for (size_t p = 0; p < s->plan.count; ++p)
    {
        d3d12_pass_time *t = &b->last_passes[p];
        t->key = s->plan.passes[p].key;
        plan_pass_name(&s->plan.passes[p], t->name, sizeof(t->name));
        t->work_items = s->plan.passes[p].params[SCAN_P_WORK_ITEMS];
        t->start = (double)(ticks[2 * p] - ticks[0]) / (double)b->device.timestamp_frequency;
        t->seconds = (double)(ticks[2 * p + 1] - ticks[2 * p]) / (double)b->device.timestamp_frequency;
    }
    b->last_pass_count = s->plan.count;
}

/* Where a batch's regions lie: the parameter blocks, inputs, outputs and
 * scratch in the arena (or a big job's own buffers), and what the upload
 * and readback buffers hold. */
typedef struct batch_layout
{
    bool big;                /* one job, in buffers of its own */
    uint64_t arena_bytes;    /* the arena's bytes in use */
    uint32_t passes;         /* dispatches of the batch (two timestamps each) */
    size_t steps;            /* the most passes of one job */
    uint64_t readback_start; /* the outputs' first byte in the arena */
    uint64_t upload_end;     /* the arena's bytes that come from the upload buffer */
    uint64_t upload_bytes;
    uint64_t readback_bytes;
} batch_layout;

/* Lays the batch out in the arena: parameter blocks, then the inputs, the
 * in-place buffers and the outputs (the span read back), then scratch. The
 * outputs go up too: their initial bytes are the runner's canary
 * (backend.h), so that a kernel that writes nothing is seen. A big job gets
 * buffers of its own, reserved here. Returns 0, or -1 with `why`. */
static int layout_batch(d3d12_backend *b, job_state *states, size_t count, batch_layout *layout, char *why,
                        size_t why_size)
{
    memset(layout, 0, sizeof(*layout));
    bool big = layout->big = count == 1 && states[0].big;
    uint64_t at = 0;
    for (size_t i = 0; i < count; ++i)
    {
        states[i].param_offset = at;
        at += states[i].plan.count * (uint64_t)SCAN_PARAM_BYTES;
        layout->passes += (uint32_t)states[i].plan.count;
        if (states[i].plan.count > layout->steps)
            layout->steps = states[i].plan.count;
    }
    at = align_up(at, REGION_ALIGNMENT);
    for (size_t i = 0; i < count && !big; ++i)
    {
        if (!states[i].job->desc->in_place)
        {
            states[i].offset[REGION_INPUT] = at;
            at += align_up(states[i].bytes[REGION_INPUT], REGION_ALIGNMENT);
        }
    }
    layout->readback_start = at;
    for (size_t i = 0; i < count && !big; ++i)
    {
        if (states[i].job->desc->in_place)
        {
            states[i].offset[REGION_OUTPUT] = states[i].offset[REGION_INPUT] = at;
            at += align_up(states[i].bytes[REGION_OUTPUT], REGION_ALIGNMENT);
        }
    }
    layout->upload_end = at;
    for (size_t i = 0; i < count && !big; ++i)
    {
        if (!states[i].job->desc->in_place)
        {
            states[i].offset[REGION_OUTPUT] = at;
            at += align_up(states[i].bytes[REGION_OUTPUT], REGION_ALIGNMENT);
        }
    }
    uint64_t readback_end = at;
    if (!big)
        layout->upload_end = readback_end;
    for (size_t i = 0; i < count && !big; ++i)
    {
        states[i].offset[REGION_SCRATCH] = at;
        at += align_up(states[i].bytes[REGION_SCRATCH], REGION_ALIGNMENT);
        for (unsigned r = 0; r < REGION_COUNT; ++r)
            states[i].buffer[r] = &b->arena;
        states[i].readback_offset = states[i].offset[REGION_OUTPUT] - layout->readback_start;
    }
    layout->arena_bytes = at;
    layout->upload_bytes = layout->upload_end;
    layout->readback_bytes = readback_end - layout->readback_start;
    if (!big)
        return 0;

    /* The job's own buffers; its input (or the in-place buffer), then the
     * output's initial bytes, follow the parameter blocks in the upload
     * buffer. */
    job_state *lone = &states[0];
    bool in_place = lone->job->desc->in_place;
    for (unsigned r = 0; r < REGION_COUNT; ++r)
    {
        lone->offset[r] = 0;
        if (r == REGION_INPUT && in_place)
            continue;
        uint64_t bytes = lone->bytes[r] ? lone->bytes[r] : REGION_ALIGNMENT;
        if (reserve_big(b, r, bytes, why, why_size))
            return -1;
        lone->buffer[r] = &b->big[r];
    }
    if (in_place)
        lone->buffer[REGION_INPUT] = lone->buffer[REGION_OUTPUT];
    lone->upload_output_offset =
        in_place ? 0 : layout->upload_end + align_up(lone->bytes[REGION_INPUT], REGION_ALIGNMENT);
    layout->upload_bytes = in_place ? layout->upload_end + lone->bytes[REGION_OUTPUT]
                                    : lone->upload_output_offset + lone->bytes[REGION_OUTPUT];
    layout->readback_bytes = lone->bytes[REGION_OUTPUT];
    lone->readback_offset = 0;
    return 0;
}

/* Places the one-pass scans' statuses for a new epoch, or for zeroed words
 * when the epochs wrap (*zero_status), and reserves their buffer. Returns 0,
 * or -1 with `why`. */
static int prepare_statuses(d3d12_backend *b, job_state *states, size_t count, uint32_t *epoch, bool *zero_status,
                            char *why, size_t why_size)
{
    *epoch = b->status_epoch + 1;
    uint64_t status_bytes = place_status_areas(states, count, *epoch);
    if (status_bytes > b->view_bytes)
    {
        snprintf(why, why_size, "the batch's chunk statuses take %llu bytes, more than one buffer view",
                 (unsigned long long)status_bytes);
        return -1;
    }
    if (reserve_status(b, status_bytes ? status_bytes : REGION_ALIGNMENT, why, why_size))
        return -1;
    *zero_status = b->status_epoch == 0 || *epoch > b->epoch_max;
    if (*zero_status && *epoch != 1)
    {
        *epoch = 1;
        place_status_areas(states, count, *epoch);
    }
    return 0;
}

/* Reserves the arena, the upload and readback buffers and the queries, then
 * gets every pipeline, so that a kernel that fails to build fails its job
 * before anything is recorded. Returns 0, or -1 with `why`. */
static int reserve_batch(d3d12_backend *b, const job_state *states, size_t count, const batch_layout *layout, char *why,
                         size_t why_size)
{
    if (reserve_arena(b, layout->arena_bytes ? layout->arena_bytes : REGION_ALIGNMENT, why, why_size) ||
        reserve_host_buffer(b, &b->upload, D3D12_HEAP_TYPE_UPLOAD, layout->upload_bytes, why, why_size) ||
        reserve_host_buffer(b, &b->readback, D3D12_HEAP_TYPE_READBACK,
                            layout->readback_bytes ? layout->readback_bytes : 4, why, why_size) ||
        reserve_queries(b, 2 * layout->passes, why, why_size))
        return -1;
    for (size_t i = 0; i < count; ++i)
    {
        for (size_t p = 0; p < states[i].plan.count; ++p)
        {
            if (!scan_pipelines_get(&b->pipelines, &states[i].plan.passes[p].key, why, why_size))
                return -1;
        }
    }
    return 0;
}

/* Copies the inputs and the outputs' initial bytes into the upload buffer. */
static void upload_jobs(d3d12_backend *b, const job_state *states, size_t count, const batch_layout *layout)
{
    unsigned char *upload = b->upload.mapped;
    for (size_t i = 0; i < count; ++i)
    {
        const dmlconf_job *job = states[i].job;
        bool in_place = job->desc->in_place;
        const void *source = in_place ? job->output : job->input;
        size_t bytes = in_place ? job->output_bytes : job->input_bytes;
        uint64_t target = layout->big ? layout->upload_end : states[i].offset[in_place ? REGION_OUTPUT : REGION_INPUT];
        memcpy(upload + target, source, bytes);
        if (!in_place)
            memcpy(upload + (layout->big ? states[i].upload_output_offset : states[i].offset[REGION_OUTPUT]),
                   job->output, job->output_bytes);
    }
}

/* The device buffers a batch uses, for the transitions around its passes. */
enum
{
    BATCH_BUFFERS = 5
};

static void transition_all(d3d12_device *d, ID3D12Resource *const buffers[BATCH_BUFFERS], D3D12_RESOURCE_STATES before,
                           D3D12_RESOURCE_STATES after)
{
    for (unsigned i = 0; i < BATCH_BUFFERS; ++i)
    {
        if (buffers[i])
            d3d12_transition(d, buffers[i], before, after);
    }
}

/* Records the batch: the uploads into the device's buffers (and the
 * statuses' zeros), step k running pass k of every job that has one, the
 * outputs' readback and the timestamps' resolve; *query counts the
 * timestamps. Returns 0, or -1 with `why` (the list is closed then). */
static int record_batch(d3d12_backend *b, job_state *states, size_t count, const batch_layout *layout, bool zero_status,
                        uint32_t *query, char *why, size_t why_size)
{
    d3d12_device *d = &b->device;
    if (d3d12_device_begin(d, why, why_size))
        return -1;
    scan_pipelines_bind(&b->pipelines, d);
    ID3D12GraphicsCommandList *list = d->list;
    ID3D12Resource *arena = b->arena.whole.resource;
    ID3D12Resource *big_in = NULL, *big_out = NULL, *big_scratch = NULL;
    ID3D12GraphicsCommandList_CopyBufferRegion(list, arena, 0, b->upload.resource, 0, layout->upload_end);
    if (layout->big)
    {
        const job_state *lone = &states[0];
        big_in = lone->buffer[REGION_INPUT]->whole.resource;
        big_out = b->big[REGION_OUTPUT].whole.resource;
        big_scratch = b->big[REGION_SCRATCH].whole.resource;
        bool in_place = lone->job->desc->in_place;
        ID3D12GraphicsCommandList_CopyBufferRegion(list, big_in, 0, b->upload.resource, layout->upload_end,
                                                   in_place ? lone->bytes[REGION_OUTPUT] : lone->bytes[REGION_INPUT]);
        if (!in_place)
            ID3D12GraphicsCommandList_CopyBufferRegion(list, big_out, 0, b->upload.resource, lone->upload_output_offset,
                                                       lone->bytes[REGION_OUTPUT]);
    }
    if (zero_status)
        ID3D12GraphicsCommandList_CopyBufferRegion(list, b->status.resource, 0, b->status_zeros.resource, 0,
                                                   b->status.bytes);
    ID3D12Resource *const buffers[BATCH_BUFFERS] = {
        arena, big_out, big_scratch, layout->big && big_in != big_out ? big_in : NULL, b->status.resource};
    transition_all(d, buffers, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);

    for (size_t step = 0; step < layout->steps; ++step)
    {
        if (step)
            d3d12_uav_barrier(d);
        for (size_t i = 0; i < count; ++i)
        {
            if (step < states[i].plan.count && record_pass(b, &states[i], step, query, why, why_size))
            {
                ID3D12GraphicsCommandList_Close(list);
                d->recording = false;
                return -1;
            }
        }
    }

    transition_all(d, buffers, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    if (layout->big)
        ID3D12GraphicsCommandList_CopyBufferRegion(list, b->readback.resource, 0, big_out, 0, layout->readback_bytes);
    else if (layout->readback_bytes)
        ID3D12GraphicsCommandList_CopyBufferRegion(list, b->readback.resource, 0, arena, layout->readback_start,
                                                   layout->readback_bytes);
    transition_all(d, buffers, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12GraphicsCommandList_ResolveQueryData(list, b->queries, D3D12_QUERY_TYPE_TIMESTAMP, 0, *query,
                                               b->query_readback.resource, 0);
    return 0;
}

/* Copies each job's output from the readback buffer and sums its passes'
 * device time. Queries were issued step by step, two per dispatch, in the
 * order the passes were recorded. */
static void read_back_jobs(d3d12_backend *b, job_state *states, size_t count, const batch_layout *layout)
{
    const d3d12_device *d = &b->device;
    const unsigned char *readback = b->readback.mapped;
    const uint64_t *ticks = b->query_readback.mapped;
    for (size_t i = 0; i < count; ++i)
    {
        dmlconf_job *job = states[i].job;
        memcpy(job->output, readback + states[i].readback_offset, job->output_bytes);
        job->outcome = DMLCONF_JOB_DONE;
        job->device_seconds = -1.0;
        if (!d->timestamp_frequency)
            continue;
        uint64_t total = 0;
        uint32_t position = 0;
        for (size_t step = 0; step < layout->steps; ++step)
        {
            for (size_t j = 0; j < count; ++j)
            {
                if (step >= states[j].plan.count)
                    continue;
                if (j == i)
                {
                    uint64_t elapsed = ticks[position + 1] - ticks[position];
                    total += elapsed;
                    if (b->trace)
                    {
                        const plan_pass *pass = &states[j].plan.passes[step];
                        char name[64];
                        plan_pass_name(pass, name, sizeof(name));
                        fprintf(stderr, "d3d12: pass %zu %s, %u work items: %.3f ms\n", step, name,
                                pass->params[SCAN_P_WORK_ITEMS],
                                (double)elapsed / (double)d->timestamp_frequency * 1e3);
                    }
                }
                position += 2;
            }
        }
        job->device_seconds = (double)total / (double)d->timestamp_frequency;
    }
}

/* Lays out, records, submits and reads back one batch. Returns 0, 1 when
 * the batch failed before submission (its jobs are FAILED), or -1 when the
 * device was lost. */
static int run_batch(d3d12_backend *b, job_state *states, size_t count)
{
    d3d12_device *d = &b->device;
    char why[256] = "";
    d->out_of_memory = false;
    batch_layout layout;
    uint32_t epoch = 0, query = 0;
    bool zero_status = false;
    if (layout_batch(b, states, count, &layout, why, sizeof(why)) ||
        prepare_statuses(b, states, count, &epoch, &zero_status, why, sizeof(why)) ||
        reserve_batch(b, states, count, &layout, why, sizeof(why)))
        goto fail;
    upload_jobs(b, states, count, &layout);
    if (record_batch(b, states, count, &layout, zero_status, &query, why, sizeof(why)))
        goto fail;
    if (d3d12_device_submit(d, why, sizeof(why)))
    {
        for (size_t i = 0; i < count; ++i)
            job_fail(states[i].job, DMLCONF_JOB_FAILED, why);
        return -1;
    }
    /* Only now: a batch that never ran zeroed nothing. */
    b->status_epoch = epoch;
    if (count == 1)
        record_pass_times(b, &states[0], b->query_readback.mapped);
    read_back_jobs(b, states, count, &layout);
    return 0;

fail:
    /* A buffer the device had no memory for is not the implementation's
     * failure: the cases are not judged. */
    for (size_t i = 0; i < count; ++i)
        job_fail(states[i].job, d->out_of_memory ? DMLCONF_JOB_NO_RESOURCES : DMLCONF_JOB_FAILED, why);
    return 1;
}

/* Tells the pipeline builders which kernels these jobs need, before the
 * first batch waits for them: with the driver's shader cache cold, the
 * background threads then build them at once, instead of the batch's
 * thread one after another while the threads build kernels ahead. */
static void want_kernels(d3d12_backend *b, const job_state *states, size_t count)
{
    kernel_key keys[SCAN_PIPELINES_MAX_WANTED];
    size_t wanted = 0;
    for (size_t i = 0; i < count; ++i)
    {
        for (size_t p = 0; states[i].runnable && p < states[i].plan.count; ++p)
        {
            const kernel_key *key = &states[i].plan.passes[p].key;
            size_t index = kernel_key_index(key), k = 0;
            while (k < wanted && kernel_key_index(&keys[k]) != index)
                ++k;
            if (k == wanted && wanted < SCAN_PIPELINES_MAX_WANTED)
                keys[wanted++] = *key;
        }
    }
    scan_pipelines_want(&b->pipelines, keys, wanted);
}

int d3d12_backend_execute_jobs(d3d12_backend *b, dmlconf_job *jobs, size_t count)
{
    job_state *states = calloc(count ? count : 1, sizeof(*states));
    if (!states)
    {
        for (size_t i = 0; i < count; ++i)
            job_fail(&jobs[i], DMLCONF_JOB_NO_RESOURCES, "out of memory for the batch");
        return 0;
    }
    for (size_t i = 0; i < count; ++i)
    {
        states[i].job = &jobs[i];
        prepare_job(b, &states[i]);
    }
    want_kernels(b, states, count);
    d3d12_backend_build_ahead(b);
    int lost = 0;
    size_t i = 0;
    while (i < count && !lost)
    {
        if (!states[i].runnable)
        {
            ++i;
            continue;
        }
        /* Gather consecutive runnable small jobs up to the arena's size. */
        job_state *batch = calloc(count - i, sizeof(*batch));
        size_t *origin = calloc(count - i, sizeof(*origin));
        if (!batch || !origin)
        {
            free(batch);
            free(origin);
            job_fail(states[i].job, DMLCONF_JOB_NO_RESOURCES, "out of memory for the batch");
            plan_release(&states[i].plan);
            ++i;
            continue;
        }
        size_t n = 0;
        uint64_t used = 0;
        size_t passes = 0;
        if (states[i].big)
        {
            origin[n] = i;
            batch[n++] = states[i++];
        }
        else
        {
            while (i < count)
            {
                if (!states[i].runnable)
                {
                    ++i;
                    continue;
                }
                if (states[i].big || (n && (used + arena_bytes(&states[i]) > b->arena_limit ||
                                            passes + states[i].plan.count > MAX_BATCH_PASSES)))
                    break;
                used += arena_bytes(&states[i]);
                passes += states[i].plan.count;
                origin[n] = i;
                batch[n++] = states[i++];
            }
        }
        if (run_batch(b, batch, n) < 0)
            lost = 1;
        for (size_t k = 0; k < n; ++k)
        {
            plan_release(&batch[k].plan);
            states[origin[k]].runnable = false;
        }
        free(batch);
        free(origin);
    }
    for (size_t k = 0; k < count; ++k)
    {
        if (states[k].runnable)
        {
            if (lost)
                job_fail(states[k].job, DMLCONF_JOB_FAILED, "the device was lost earlier in this batch");
            plan_release(&states[k].plan);
        }
    }
    free(states);
    return lost ? -1 : 0;
}

void d3d12_backend_release_buffers(d3d12_backend *b)
{
    view_buffer_release(&b->arena);
    for (unsigned r = 0; r < REGION_COUNT; ++r)
        view_buffer_release(&b->big[r]);
    d3d12_buffer_release(&b->upload);
    d3d12_buffer_release(&b->readback);
    d3d12_buffer_release(&b->query_readback);
    d3d12_buffer_release(&b->status);
    d3d12_buffer_release(&b->status_zeros);
    b->status_epoch = 0;
    free(b->last_passes);
    b->last_passes = NULL;
    b->last_pass_count = b->last_pass_capacity = 0;
    if (b->queries)
        ID3D12QueryHeap_Release(b->queries);
    b->queries = NULL;
    b->query_capacity = 0;
}
