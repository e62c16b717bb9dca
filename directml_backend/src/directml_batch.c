/*
 * Executing jobs through DirectML, many per command list:
 *
 *   for every job: CreateOperator (DirectML's validation: a refusal is the
 *   job's REJECTED outcome, with the HRESULT), then, for a job with buffers,
 *   CompileOperator, an initializer, and the binding properties;
 *   one shared DEFAULT buffer holds every job's input, output, temporary
 *   and persistent resources (directml_layout_job); the upload buffer
 *   mirrors its layout, so the input and the output's initial content (the
 *   runner's canary, or the input for an in-place job) go up with one copy
 *   per region;
 *   one command list: the copies, every initializer, a UAV barrier, every
 *   operator between a pair of timestamps, a UAV barrier, the outputs'
 *   copies back, the timestamps resolved.
 *
 * A job too large to share the buffer runs in a batch of its own.
 */
#include "directml_backend_internal.h"

#include "directml_desc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most jobs in one command list, and most bytes of shared buffer. */
#define BATCH_JOBS  256u
#define BATCH_BYTES (UINT64_C(256) << 20)

typedef struct job_state
{
    dmlconf_job *job;
    directml_desc desc;
    IDMLOperator *op;
    IDMLCompiledOperator *compiled;
    IDMLOperatorInitializer *initializer;
    DML_BINDING_PROPERTIES run_properties, init_properties;
    directml_regions regions;
    uint32_t run_descriptors, init_descriptors; /* the first of each in the heap */
    IDMLBindingTable *run_table, *init_table;
    bool runs;     /* compiled and laid out: it executes */
    bool finished; /* executed and read back */
} job_state;

/* Sets a job's outcome to "<what>: <HRESULT and its name>". */
static void set_outcome(dmlconf_job *job, dmlconf_job_outcome outcome, const char *what, HRESULT hr)
{
    char text[64];
    job->outcome = outcome;
    snprintf(job->message, sizeof(job->message), "%s: %s", what, d3d12_hresult_text(hr, text, sizeof(text)));
}

static void release_state(job_state *s)
{
    DML_RELEASE(s->run_table);
    DML_RELEASE(s->init_table);
    DML_RELEASE(s->initializer);
    DML_RELEASE(s->compiled);
    DML_RELEASE(s->op);
}

static uint32_t descriptors_of(const DML_BINDING_PROPERTIES *properties)
{
    return properties->RequiredDescriptorCount ? properties->RequiredDescriptorCount : 1u;
}

/* DirectML's verdict on a job's desc, and for a job with buffers its
 * compiled operator and initializer. */
static void prepare_job(directml_backend *b, job_state *s)
{
    dmlconf_job *job = s->job;
    job->outcome = DMLCONF_JOB_FAILED;
    job->reason = DMLCONF_REASON_NONE;
    job->device_seconds = -1.0;
    job->message[0] = '\0';
    directml_desc_build(job->desc, &s->desc);
    HRESULT hr = DML_CALL(b->dml, CreateOperator, &s->desc.op, &dml_iid_operator, (void **)&s->op);
    if (FAILED(hr))
    {
        s->op = NULL;
        set_outcome(job, DMLCONF_JOB_REJECTED, "DirectML's CreateOperator refused the desc", hr);
        return;
    }
    if (!job->input || !job->output)
    {
        /* A validation-only job (a negative case). Whether the output may
         * alias the input is a fact of the binding, which CreateOperator
         * never sees; DirectML checks bindings only in its debug layer,
         * which reports nothing to the caller. So DirectML's verdict on an
         * in-place desc cannot be observed here. */
        if (job->desc->in_place)
        {
            job->outcome = DMLCONF_JOB_UNSUPPORTED;
            snprintf(job->message, sizeof(job->message),
                     "DirectML accepts the operator; whether in-place execution with these descs is refused "
                     "shows only when buffers are bound, where DirectML reports nothing without its debug layer");
            return;
        }
        job->outcome = DMLCONF_JOB_DONE;
        snprintf(job->message, sizeof(job->message), "DirectML's CreateOperator accepted the desc");
        return;
    }
    hr = DML_CALL(b->dml, CompileOperator, s->op, DML_EXECUTION_FLAG_NONE, &dml_iid_compiled_operator,
                  (void **)&s->compiled);
    if (FAILED(hr))
    {
        s->compiled = NULL;
        set_outcome(job, DMLCONF_JOB_FAILED, "DirectML accepted the desc but CompileOperator failed", hr);
        return;
    }
    IDMLCompiledOperator *operators[1] = {s->compiled};
    hr = DML_CALL(b->dml, CreateOperatorInitializer, 1, operators, &dml_iid_operator_initializer,
                  (void **)&s->initializer);
    if (FAILED(hr))
    {
        s->initializer = NULL;
        set_outcome(job, DMLCONF_JOB_FAILED, "CreateOperatorInitializer failed", hr);
        return;
    }
    s->run_properties = dml_binding_properties((IDMLDispatchable *)s->compiled);
    s->init_properties = dml_binding_properties((IDMLDispatchable *)s->initializer);
    uint64_t temporary = s->run_properties.TemporaryResourceSize > s->init_properties.TemporaryResourceSize
                             ? s->run_properties.TemporaryResourceSize
                             : s->init_properties.TemporaryResourceSize;
    if (!directml_layout_job(job->desc, temporary, s->run_properties.PersistentResourceSize, 0, &s->regions))
    {
        job->outcome = DMLCONF_JOB_FAILED;
        snprintf(job->message, sizeof(job->message), "the job's buffers are too large to lay out");
        return;
    }
    if (job->input_bytes < s->regions.input_bytes || job->output_bytes < s->regions.output_bytes)
    {
        job->outcome = DMLCONF_JOB_FAILED;
        snprintf(job->message, sizeof(job->message), "the job's buffers are smaller than their tensors");
        return;
    }
    s->runs = true;
}

/* Makes a buffer at least `bytes` long. */
static int reserve_buffer(directml_backend *b, d3d12_buffer *buffer, D3D12_HEAP_TYPE type, uint64_t bytes, char *why,
                          size_t why_size)
{
    if (buffer->resource && buffer->bytes >= bytes)
        return 0;
    d3d12_buffer_release(buffer);
    uint64_t size = bytes < (UINT64_C(1) << 20) ? (UINT64_C(1) << 20) : (bytes + 0xfffffu) & ~UINT64_C(0xfffff);
    return d3d12_buffer_create(&b->device, type, size, buffer, why, why_size);
}

static int reserve_heaps(directml_backend *b, uint32_t descriptors, uint32_t queries, char *why, size_t why_size)
{
    char text[64];
    if (!b->heap || b->heap_capacity < descriptors)
    {
        if (b->heap)
            ID3D12DescriptorHeap_Release(b->heap);
        b->heap = NULL;
        uint32_t capacity = descriptors < 4096u ? 4096u : descriptors;
        D3D12_DESCRIPTOR_HEAP_DESC desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, capacity,
                                           D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
        HRESULT hr =
            ID3D12Device_CreateDescriptorHeap(b->device.device, &desc, &IID_ID3D12DescriptorHeap, (void **)&b->heap);
        if (FAILED(hr))
        {
            b->heap = NULL;
            snprintf(why, why_size, "creating a descriptor heap of %u descriptors failed: %s", capacity,
                     d3d12_hresult_text(hr, text, sizeof(text)));
            return -1;
        }
        b->heap_capacity = capacity;
        b->heap_increment =
            ID3D12Device_GetDescriptorHandleIncrementSize(b->device.device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    }
    if (!b->queries || b->query_capacity < queries)
    {
        if (b->queries)
            ID3D12QueryHeap_Release(b->queries);
        b->queries = NULL;
        uint32_t capacity = queries < 512u ? 512u : queries;
        D3D12_QUERY_HEAP_DESC desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, capacity, 0};
        HRESULT hr = ID3D12Device_CreateQueryHeap(b->device.device, &desc, &IID_ID3D12QueryHeap, (void **)&b->queries);
        if (FAILED(hr))
        {
            b->queries = NULL;
            snprintf(why, why_size, "creating a query heap failed: %s", d3d12_hresult_text(hr, text, sizeof(text)));
            return -1;
        }
        b->query_capacity = capacity;
    }
    return reserve_buffer(b, &b->query_readback, D3D12_HEAP_TYPE_READBACK, (uint64_t)b->query_capacity * 8, why,
                          why_size);
}

/* The heap's CPU and GPU handles of descriptor `index`. */
static void heap_handles(directml_backend *b, uint32_t index, D3D12_CPU_DESCRIPTOR_HANDLE *cpu,
                         D3D12_GPU_DESCRIPTOR_HANDLE *gpu)
{
#if defined(_WIN32)
    b->heap->lpVtbl->GetCPUDescriptorHandleForHeapStart(b->heap, cpu);
    b->heap->lpVtbl->GetGPUDescriptorHandleForHeapStart(b->heap, gpu);
#else
    *cpu = b->heap->lpVtbl->GetCPUDescriptorHandleForHeapStart(b->heap);
    *gpu = b->heap->lpVtbl->GetGPUDescriptorHandleForHeapStart(b->heap);
#endif
    cpu->ptr += (SIZE_T)index * b->heap_increment;
    gpu->ptr += (UINT64)index * b->heap_increment;
}

/* A binding table for `dispatchable` over its descriptors. */
static IDMLBindingTable *create_table(directml_backend *b, IDMLDispatchable *dispatchable, uint32_t first,
                                      uint32_t count, char *why, size_t why_size)
{
    DML_BINDING_TABLE_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.Dispatchable = dispatchable;
    heap_handles(b, first, &desc.CPUDescriptorHandle, &desc.GPUDescriptorHandle);
    desc.SizeInDescriptors = count;
    IDMLBindingTable *table = NULL;
    HRESULT hr = DML_CALL(b->dml, CreateBindingTable, &desc, &dml_iid_binding_table, (void **)&table);
    if (FAILED(hr))
    {
        char text[64];
        snprintf(why, why_size, "CreateBindingTable failed: %s", d3d12_hresult_text(hr, text, sizeof(text)));
        return NULL;
    }
    return table;
}

static DML_BUFFER_BINDING buffer_binding(ID3D12Resource *resource, uint64_t offset, uint64_t bytes)
{
    DML_BUFFER_BINDING binding = {resource, offset, bytes};
    return binding;
}

/* Binds one job's initializer and operator. Returns 0, or -1 with why. */
static int bind_job(directml_backend *b, job_state *s, char *why, size_t why_size)
{
    ID3D12Resource *arena = b->arena.resource;
    const directml_regions *r = &s->regions;
    DML_BUFFER_BINDING temporary = buffer_binding(arena, r->temporary_offset, r->temporary_bytes);
    DML_BUFFER_BINDING persistent = buffer_binding(arena, r->persistent_offset, r->persistent_bytes);
    DML_BINDING_DESC temporary_desc = {DML_BINDING_TYPE_BUFFER, &temporary};
    DML_BINDING_DESC persistent_desc = {DML_BINDING_TYPE_BUFFER, &persistent};

    s->init_table = create_table(b, (IDMLDispatchable *)s->initializer, s->init_descriptors,
                                 descriptors_of(&s->init_properties), why, why_size);
    if (!s->init_table)
        return -1;
    /* The initializer's outputs are the operators' persistent resources;
     * it has no inputs (no tensor is owned by DirectML). */
    if (r->persistent_bytes)
        DML_CALL(s->init_table, BindOutputs, 1, &persistent_desc);
    if (s->init_properties.TemporaryResourceSize)
    {
        DML_BUFFER_BINDING init_temporary =
            buffer_binding(arena, r->temporary_offset, s->init_properties.TemporaryResourceSize);
        DML_BINDING_DESC init_temporary_desc = {DML_BINDING_TYPE_BUFFER, &init_temporary};
        DML_CALL(s->init_table, BindTemporaryResource, &init_temporary_desc);
    }

    s->run_table = create_table(b, (IDMLDispatchable *)s->compiled, s->run_descriptors,
                                descriptors_of(&s->run_properties), why, why_size);
    if (!s->run_table)
        return -1;
    DML_BUFFER_BINDING input = buffer_binding(arena, r->input_offset, r->input_bytes);
    DML_BUFFER_BINDING output = buffer_binding(arena, r->output_offset, r->output_bytes);
    DML_BINDING_DESC input_desc = {DML_BINDING_TYPE_BUFFER, &input};
    DML_BINDING_DESC output_desc = {DML_BINDING_TYPE_BUFFER, &output};
    DML_CALL(s->run_table, BindInputs, 1, &input_desc);
    DML_CALL(s->run_table, BindOutputs, 1, &output_desc);
    if (s->run_properties.TemporaryResourceSize)
        DML_CALL(s->run_table, BindTemporaryResource, &temporary_desc);
    if (r->persistent_bytes)
        DML_CALL(s->run_table, BindPersistentResource, &persistent_desc);
    return 0;
}

static void uav_barrier(directml_backend *b)
{
    d3d12_uav_barrier(&b->device);
}

/* Runs the jobs of one batch whose states are prepared and laid out
 * (offsets relative to 0, total `arena_bytes`). Returns 0, or -1 when the
 * device failed (why set). */
static int run_batch(directml_backend *b, job_state *const *states, size_t count, uint64_t arena_bytes,
                     uint32_t descriptors, char *why, size_t why_size)
{
    d3d12_device *d = &b->device;
    if (reserve_buffer(b, &b->arena, D3D12_HEAP_TYPE_DEFAULT, arena_bytes, why, why_size) ||
        reserve_buffer(b, &b->upload, D3D12_HEAP_TYPE_UPLOAD, arena_bytes, why, why_size) ||
        reserve_buffer(b, &b->readback, D3D12_HEAP_TYPE_READBACK, arena_bytes, why, why_size) ||
        reserve_heaps(b, descriptors, (uint32_t)(2 * count), why, why_size))
        return -1;

    unsigned char *upload = b->upload.mapped;
    for (size_t i = 0; i < count; ++i)
    {
        const job_state *s = states[i];
        const dmlconf_job *job = s->job;
        if (!job->desc->in_place)
            memcpy(upload + s->regions.input_offset, job->input, (size_t)s->regions.input_bytes);
        /* The output's initial bytes: the canary, or the input in place. */
        memcpy(upload + s->regions.output_offset, job->output, (size_t)s->regions.output_bytes);
    }

    if (d3d12_device_begin(d, why, why_size))
        return -1;
    ID3D12GraphicsCommandList *list = d->list;
    ID3D12Resource *arena = b->arena.resource;
    ID3D12GraphicsCommandList_SetDescriptorHeaps(list, 1, &b->heap);
    for (size_t i = 0; i < count; ++i)
    {
        const directml_regions *r = &states[i]->regions;
        if (!states[i]->job->desc->in_place)
            ID3D12GraphicsCommandList_CopyBufferRegion(list, arena, r->input_offset, b->upload.resource,
                                                       r->input_offset, r->input_bytes);
        ID3D12GraphicsCommandList_CopyBufferRegion(list, arena, r->output_offset, b->upload.resource, r->output_offset,
                                                   r->output_bytes);
    }
    d3d12_transition(d, arena, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    for (size_t i = 0; i < count; ++i)
    {
        if (bind_job(b, states[i], why, why_size))
        {
            /* Close the list cleanly; nothing of it is wanted. */
            char ignored[64];
            d3d12_transition(d, arena, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_DEST);
            d3d12_device_submit(d, ignored, sizeof(ignored));
            return -1;
        }
        DML_CALL(b->recorder, RecordDispatch, (ID3D12CommandList *)list, (IDMLDispatchable *)states[i]->initializer,
                 states[i]->init_table);
    }
    uav_barrier(b);
    for (size_t i = 0; i < count; ++i)
    {
        ID3D12GraphicsCommandList_EndQuery(list, b->queries, D3D12_QUERY_TYPE_TIMESTAMP, (UINT)(2 * i));
        DML_CALL(b->recorder, RecordDispatch, (ID3D12CommandList *)list, (IDMLDispatchable *)states[i]->compiled,
                 states[i]->run_table);
        ID3D12GraphicsCommandList_EndQuery(list, b->queries, D3D12_QUERY_TYPE_TIMESTAMP, (UINT)(2 * i + 1));
    }
    uav_barrier(b);
    d3d12_transition(d, arena, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    for (size_t i = 0; i < count; ++i)
    {
        const directml_regions *r = &states[i]->regions;
        ID3D12GraphicsCommandList_CopyBufferRegion(list, b->readback.resource, r->output_offset, arena,
                                                   r->output_offset, r->output_bytes);
    }
    ID3D12GraphicsCommandList_ResolveQueryData(list, b->queries, D3D12_QUERY_TYPE_TIMESTAMP, 0, (UINT)(2 * count),
                                               b->query_readback.resource, 0);
    d3d12_transition(d, arena, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COPY_DEST);
    if (d3d12_device_submit(d, why, why_size))
        return -1;
    HRESULT removed = DML_CALL0(b->dml, GetDeviceRemovedReason);
    if (FAILED(removed))
    {
        char text[64];
        snprintf(why, why_size, "DirectML's device was removed: %s", d3d12_hresult_text(removed, text, sizeof(text)));
        return -1;
    }

    const unsigned char *readback = b->readback.mapped;
    const uint64_t *ticks = b->query_readback.mapped;
    for (size_t i = 0; i < count; ++i)
    {
        job_state *s = states[i];
        dmlconf_job *job = s->job;
        memcpy(job->output, readback + s->regions.output_offset, (size_t)s->regions.output_bytes);
        job->outcome = DMLCONF_JOB_DONE;
        job->message[0] = '\0';
        if (d->timestamp_frequency && ticks[2 * i + 1] >= ticks[2 * i])
            job->device_seconds = (double)(ticks[2 * i + 1] - ticks[2 * i]) / (double)d->timestamp_frequency;
        s->finished = true;
    }
    return 0;
}

int directml_execute_jobs(directml_backend *b, dmlconf_job *jobs, size_t count)
{
    job_state *states = calloc(count ? count : 1, sizeof(*states));
    job_state **batch = calloc(count ? count : 1, sizeof(*batch));
    if (!states || !batch)
    {
        free(states);
        free(batch);
        for (size_t i = 0; i < count; ++i)
        {
            jobs[i].outcome = DMLCONF_JOB_FAILED;
            snprintf(jobs[i].message, sizeof(jobs[i].message), "out of memory for a batch");
        }
        return 0;
    }
    for (size_t i = 0; i < count; ++i)
    {
        states[i].job = &jobs[i];
        prepare_job(b, &states[i]);
    }

    int result = 0;
    size_t next = 0;
    while (next < count && result == 0)
    {
        /* A batch: the next runnable jobs that fit (at least one). */
        size_t n = 0;
        uint64_t end = 0;
        uint32_t descriptors = 0;
        for (; next < count && n < BATCH_JOBS; ++next)
        {
            job_state *s = &states[next];
            if (!s->runs)
                continue;
            directml_regions placed;
            if (!directml_layout_job(s->job->desc, s->regions.temporary_bytes, s->regions.persistent_bytes, end,
                                     &placed) ||
                (n > 0 && placed.end > BATCH_BYTES))
                break;
            s->regions = placed;
            s->init_descriptors = descriptors;
            descriptors += descriptors_of(&s->init_properties);
            s->run_descriptors = descriptors;
            descriptors += descriptors_of(&s->run_properties);
            end = placed.end;
            batch[n++] = s;
        }
        if (n == 0)
            break;
        char why[256];
        if (run_batch(b, batch, n, end, descriptors, why, sizeof(why)))
        {
            /* The device failed: no job still to run ran. */
            result = -1;
            for (size_t i = 0; i < count; ++i)
            {
                if (states[i].runs && !states[i].finished)
                {
                    jobs[i].outcome = DMLCONF_JOB_FAILED;
                    snprintf(jobs[i].message, sizeof(jobs[i].message), "%s", why);
                }
            }
        }
        for (size_t i = 0; i < n; ++i)
        {
            DML_RELEASE(batch[i]->run_table);
            DML_RELEASE(batch[i]->init_table);
        }
    }
    for (size_t i = 0; i < count; ++i)
        release_state(&states[i]);
    free(batch);
    free(states);
    return result;
}

void directml_release_resources(directml_backend *b)
{
    d3d12_buffer_release(&b->arena);
    d3d12_buffer_release(&b->upload);
    d3d12_buffer_release(&b->readback);
    d3d12_buffer_release(&b->query_readback);
    if (b->heap)
        ID3D12DescriptorHeap_Release(b->heap);
    b->heap = NULL;
    b->heap_capacity = 0;
    if (b->queries)
        ID3D12QueryHeap_Release(b->queries);
    b->queries = NULL;
    b->query_capacity = 0;
}
