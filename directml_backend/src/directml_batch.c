/*
 * Executing jobs through DirectML, many per command list, on the run's
 * path (directml_path.h):
 *
 *   for every job: CreateOperator on the desc as the case gives it
 *   (DirectML's validation: a refusal is the job's REJECTED outcome, with
 *   the HRESULT); then, for a job with buffers, the operator as the path
 *   runs it (its input owned by DirectML, declared offset alignments, or
 *   a graph's node with an identity beside it), CompileOperator or
 *   CompileGraph with the path's execution flags, an initializer (one per
 *   job, or one for the whole batch), and the binding properties;
 *   one shared DEFAULT buffer holds every job's tensors, canaries and
 *   resources (directml_layout.h); the upload buffer mirrors its layout, so
 *   the input, the output's initial content (the runner's canary, or the
 *   input for an in-place job) and the canaries go up with one copy per
 *   region;
 *   one command list: the copies, every initializer (an owned input bound
 *   there and then written over), a UAV barrier, every operator between a
 *   pair of timestamps, a UAV barrier, the outputs' copies back, the
 *   timestamps resolved. With descriptors-volatile the operators' bindings
 *   point at decoy regions when they are recorded and at the real ones only
 *   afterwards. With repeat, the initializers go in a list of their own,
 *   and the operators' list dispatches each operator twice (its output
 *   reset between) and runs twice.
 *
 * After the device: with canaries, every canary byte and every input byte
 * must be as uploaded; with repeat, every dispatch of every execution must
 * have given the same bytes. Either failing fails the job, saying where.
 *
 * A job too large to share the buffer runs in a batch of its own.
 */
#include "directml_backend_internal.h"

#include "directml_desc.h"
#include "directml_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most jobs in one command list, and most bytes of shared buffer. */
#define BATCH_JOBS  256u
#define BATCH_BYTES (UINT64_C(256) << 20)
/* repeat: dispatches of each operator per command list, and executions of
 * that list. */
#define REPEAT_DISPATCHES 2u
#define REPEAT_EXECUTIONS 2u

typedef struct job_state
{
    dmlconf_job *job;
    directml_desc desc;      /* as the case gives it: DirectML's validation */
    directml_exec_desc exec; /* as it runs on the path */
    IDMLOperator *op;        /* created from desc */
    IDMLOperator *exec_op;   /* the operator that runs: op itself, unless the path changes the desc */
    IDMLOperator *identity;  /* a graph's identity node */
    IDMLCompiledOperator *compiled;
    IDMLOperatorInitializer *initializer; /* NULL with a shared initializer */
    DML_BINDING_PROPERTIES run_properties, init_properties;
    directml_regions regions;
    uint32_t run_descriptors, init_descriptors; /* the first of each in the heap */
    IDMLBindingTable *run_table, *init_table;
    bool runs;     /* compiled and laid out: it executes */
    bool finished; /* executed and read back */
} job_state;

/* One command list's worth of jobs. */
typedef struct batch
{
    job_state **states;
    size_t count;
    uint64_t arena_bytes;
    uint32_t descriptors;
    /* shared-initializer: one initializer for every job's operator. */
    IDMLOperatorInitializer *shared;
    DML_BINDING_PROPERTIES shared_properties;
    uint64_t shared_temporary_offset;
    uint32_t shared_descriptors;
    IDMLBindingTable *shared_table;
} batch;

/* Sets a job's outcome to "<what>: <HRESULT and its name>". A failure for
 * lack of memory (E_OUTOFMEMORY) is the device's, not DirectML's: the job
 * is answered NO_RESOURCES, and its case is not judged. */
static void set_outcome(dmlconf_job *job, dmlconf_job_outcome outcome, const char *what, HRESULT hr)
{
    char text[64];
    job->outcome = outcome == DMLCONF_JOB_FAILED && hr == E_OUTOFMEMORY ? DMLCONF_JOB_NO_RESOURCES : outcome;
    snprintf(job->message, sizeof(job->message), "%s: %s", what, d3d12_hresult_text(hr, text, sizeof(text)));
}

static void release_state(job_state *s)
{
    DML_RELEASE(s->run_table);
    DML_RELEASE(s->init_table);
    DML_RELEASE(s->initializer);
    DML_RELEASE(s->compiled);
    DML_RELEASE(s->identity);
    if (s->exec_op == s->op)
        s->exec_op = NULL;
    DML_RELEASE(s->exec_op);
    DML_RELEASE(s->op);
}

static uint32_t descriptors_of(const DML_BINDING_PROPERTIES *properties)
{
    return properties->RequiredDescriptorCount ? properties->RequiredDescriptorCount : 1u;
}

static directml_layout_options layout_options(const directml_path *path)
{
    directml_layout_options options;
    memset(&options, 0, sizeof(options));
    options.tensor_alignment = directml_path_tensor_alignment(path);
    options.canaries = directml_path_offsets(path);
    options.scrub = (path->binding & DIRECTML_BINDING_OWNED_INPUT) != 0;
    options.decoys = (path->execution_flags & DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE) != 0;
    return options;
}

/* Whether the operator that runs differs from the case's desc. */
static bool path_changes_desc(const directml_path *path)
{
    return path->graph == DIRECTML_GRAPH_INPUT_EDGE || path->graph == DIRECTML_GRAPH_OUTPUT_EDGE ||
           (path->binding & DIRECTML_BINDING_OWNED_INPUT) || directml_path_declared_alignment(path);
}

static bool owned_input(const directml_backend *b)
{
    return (b->path.binding & DIRECTML_BINDING_OWNED_INPUT) != 0;
}

static bool shared_initializer(const directml_backend *b)
{
    return (b->path.binding & DIRECTML_BINDING_SHARED_INITIALIZER) != 0;
}

static bool repeat(const directml_backend *b)
{
    return (b->path.binding & DIRECTML_BINDING_REPEAT) != 0;
}

static bool volatile_descriptors(const directml_backend *b)
{
    return (b->path.execution_flags & DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE) != 0;
}

/* The operator and, in a graph with an edge, the identity as the path runs
 * them, compiled. Returns 0, or -1 with the job's outcome set. */
static int compile_job(directml_backend *b, job_state *s)
{
    dmlconf_job *job = s->job;
    directml_exec_desc_build(job->desc, &b->path, &s->exec);
    HRESULT hr;
    if (path_changes_desc(&b->path))
    {
        hr = DML_CALL(b->dml, CreateOperator, &s->exec.node.op, &dml_iid_operator, (void **)&s->exec_op);
        if (FAILED(hr))
        {
            s->exec_op = NULL;
            set_outcome(job, DMLCONF_JOB_FAILED,
                        "DirectML accepted the desc but refused the operator as this path builds it", hr);
            return -1;
        }
    }
    else
        s->exec_op = s->op;
    if (s->exec.has_identity)
    {
        hr = DML_CALL(b->dml, CreateOperator, &s->exec.identity_op, &dml_iid_operator, (void **)&s->identity);
        if (FAILED(hr))
        {
            s->identity = NULL;
            set_outcome(job, DMLCONF_JOB_FAILED, "DirectML refused the graph's identity operator", hr);
            return -1;
        }
    }
    int flags = (int)b->path.execution_flags;
    if (s->exec.graph)
    {
        directml_exec_desc_graph(&s->exec, s->exec_op, s->identity);
        hr = DML_CALL(b->dml1, CompileGraph, &s->exec.graph_desc, flags, &dml_iid_compiled_operator,
                      (void **)&s->compiled);
        if (FAILED(hr))
        {
            s->compiled = NULL;
            set_outcome(job, DMLCONF_JOB_FAILED, "DirectML accepted the desc but CompileGraph failed", hr);
            return -1;
        }
        return 0;
    }
    hr = DML_CALL(b->dml, CompileOperator, s->exec_op, flags, &dml_iid_compiled_operator, (void **)&s->compiled);
    if (FAILED(hr))
    {
        s->compiled = NULL;
        set_outcome(job, DMLCONF_JOB_FAILED, "DirectML accepted the desc but CompileOperator failed", hr);
        return -1;
    }
    return 0;
}

/* DirectML's verdict on a job's desc, and for a job with buffers its
 * compiled operator, its initializer (unless shared) and its layout. */
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
                     "shows only when buffers are bound, where DirectML reads nothing without its debug layer");
            return;
        }
        job->outcome = DMLCONF_JOB_DONE;
        snprintf(job->message, sizeof(job->message), "DirectML's CreateOperator accepted the desc");
        return;
    }
    if (job->desc->in_place && owned_input(b))
    {
        job->outcome = DMLCONF_JOB_UNSUPPORTED;
        snprintf(job->message, sizeof(job->message),
                 "the binding owned-input binds the input only at initialization, so it cannot also be the output "
                 "(in-place execution)");
        return;
    }
    if (compile_job(b, s))
        return;
    if (!shared_initializer(b))
    {
        IDMLCompiledOperator *operators[1] = {s->compiled};
        hr = DML_CALL(b->dml, CreateOperatorInitializer, 1, operators, &dml_iid_operator_initializer,
                      (void **)&s->initializer);
        if (FAILED(hr))
        {
            s->initializer = NULL;
            set_outcome(job, DMLCONF_JOB_FAILED, "CreateOperatorInitializer failed", hr);
            return;
        }
        s->init_properties = dml_binding_properties((IDMLDispatchable *)s->initializer);
    }
    s->run_properties = dml_binding_properties((IDMLDispatchable *)s->compiled);
    uint64_t temporary = s->run_properties.TemporaryResourceSize > s->init_properties.TemporaryResourceSize
                             ? s->run_properties.TemporaryResourceSize
                             : s->init_properties.TemporaryResourceSize;
    directml_layout_options options = layout_options(&b->path);
    if (!directml_layout_job(job->desc, temporary, s->run_properties.PersistentResourceSize, &options, 0, &s->regions))
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

/* The input as an initializer binds it: the tensor's range when the path
 * owns it (nothing with the fault owned-unbound), no buffer otherwise. */
static DML_BUFFER_BINDING initializer_input(directml_backend *b, const job_state *s)
{
    if (!owned_input(b) || b->path.fault == DIRECTML_FAULT_OWNED_UNBOUND)
        return buffer_binding(NULL, 0, 0);
    return buffer_binding(b->arena.resource, s->regions.input_offset, s->regions.input_bytes);
}

/* Binds one job's own initializer. Returns 0, or -1 with why. */
static int bind_initializer(directml_backend *b, job_state *s, char *why, size_t why_size)
{
    ID3D12Resource *arena = b->arena.resource;
    const directml_regions *r = &s->regions;
    s->init_table = create_table(b, (IDMLDispatchable *)s->initializer, s->init_descriptors,
                                 descriptors_of(&s->init_properties), why, why_size);
    if (!s->init_table)
        return -1;
    /* The initializer's inputs are the operator's owned inputs, one array
     * for the one operator; its outputs are the operator's persistent
     * resource. */
    if (owned_input(b))
    {
        DML_BUFFER_BINDING input = initializer_input(b, s);
        DML_BUFFER_ARRAY_BINDING array = {1, &input};
        DML_BINDING_DESC desc = {DML_BINDING_TYPE_BUFFER_ARRAY, &array};
        DML_CALL(s->init_table, BindInputs, 1, &desc);
    }
    if (r->persistent_bytes)
    {
        DML_BUFFER_BINDING persistent = buffer_binding(arena, r->persistent_offset, r->persistent_bytes);
        DML_BINDING_DESC persistent_desc = {DML_BINDING_TYPE_BUFFER, &persistent};
        DML_CALL(s->init_table, BindOutputs, 1, &persistent_desc);
    }
    if (s->init_properties.TemporaryResourceSize)
    {
        DML_BUFFER_BINDING temporary =
            buffer_binding(arena, r->temporary_offset, s->init_properties.TemporaryResourceSize);
        DML_BINDING_DESC temporary_desc = {DML_BINDING_TYPE_BUFFER, &temporary};
        DML_CALL(s->init_table, BindTemporaryResource, &temporary_desc);
    }
    return 0;
}

/* Binds the batch's shared initializer: one input array and one persistent
 * resource per operator, in the order it was created with. */
static int bind_shared_initializer(directml_backend *b, batch *t, char *why, size_t why_size)
{
    int result = -1;
    DML_BUFFER_BINDING *inputs = calloc(t->count, sizeof(*inputs));
    DML_BUFFER_ARRAY_BINDING *arrays = calloc(t->count, sizeof(*arrays));
    DML_BUFFER_BINDING *persistent = calloc(t->count, sizeof(*persistent));
    DML_BINDING_DESC *input_descs = calloc(t->count, sizeof(*input_descs));
    DML_BINDING_DESC *output_descs = calloc(t->count, sizeof(*output_descs));
    if (!inputs || !arrays || !persistent || !input_descs || !output_descs)
    {
        snprintf(why, why_size, "out of memory for a shared initializer's bindings");
        goto fail;
    }
    t->shared_table = create_table(b, (IDMLDispatchable *)t->shared, t->shared_descriptors,
                                   descriptors_of(&t->shared_properties), why, why_size);
    if (!t->shared_table)
        goto fail;
    bool any_persistent = false;
    for (size_t i = 0; i < t->count; ++i)
    {
        const directml_regions *r = &t->states[i]->regions;
        inputs[i] = initializer_input(b, t->states[i]);
        arrays[i].BindingCount = 1;
        arrays[i].Bindings = &inputs[i];
        input_descs[i].Type = DML_BINDING_TYPE_BUFFER_ARRAY;
        input_descs[i].Desc = &arrays[i];
        persistent[i] = buffer_binding(b->arena.resource, r->persistent_offset, r->persistent_bytes);
        output_descs[i].Type = r->persistent_bytes ? DML_BINDING_TYPE_BUFFER : DML_BINDING_TYPE_NONE;
        output_descs[i].Desc = r->persistent_bytes ? &persistent[i] : NULL;
        any_persistent = any_persistent || r->persistent_bytes;
    }
    if (owned_input(b))
        DML_CALL(t->shared_table, BindInputs, (UINT)t->count, input_descs);
    if (any_persistent)
        DML_CALL(t->shared_table, BindOutputs, (UINT)t->count, output_descs);
    if (t->shared_properties.TemporaryResourceSize)
    {
        DML_BUFFER_BINDING temporary =
            buffer_binding(b->arena.resource, t->shared_temporary_offset, t->shared_properties.TemporaryResourceSize);
        DML_BINDING_DESC temporary_desc = {DML_BINDING_TYPE_BUFFER, &temporary};
        DML_CALL(t->shared_table, BindTemporaryResource, &temporary_desc);
    }
    result = 0;
fail:
    free(inputs);
    free(arrays);
    free(persistent);
    free(input_descs);
    free(output_descs);
    return result;
}

/* Binds a job's operator: to its tensors, or with `decoy` to the decoy
 * regions (descriptors-volatile, before the dispatch is recorded). */
static void bind_operator(directml_backend *b, job_state *s, bool decoy)
{
    ID3D12Resource *arena = b->arena.resource;
    const directml_regions *r = &s->regions;
    uint64_t input_offset = decoy ? r->decoy_input_offset : r->input_offset;
    uint64_t output_offset = decoy ? r->decoy_output_offset : r->output_offset;
    if (b->path.fault == DIRECTML_FAULT_IGNORE_OFFSET)
        input_offset = output_offset = 0;
    DML_BUFFER_BINDING input = buffer_binding(arena, input_offset, r->input_bytes);
    DML_BUFFER_BINDING output = buffer_binding(arena, output_offset, r->output_bytes);
    /* An owned input was bound at initialization and is not bound again. */
    DML_BINDING_DESC input_desc = {owned_input(b) ? DML_BINDING_TYPE_NONE : DML_BINDING_TYPE_BUFFER,
                                   owned_input(b) ? NULL : &input};
    DML_BINDING_DESC output_desc = {DML_BINDING_TYPE_BUFFER, &output};
    DML_CALL(s->run_table, BindInputs, 1, &input_desc);
    DML_CALL(s->run_table, BindOutputs, 1, &output_desc);
    if (s->run_properties.TemporaryResourceSize)
    {
        DML_BUFFER_BINDING temporary = buffer_binding(arena, r->temporary_offset, r->temporary_bytes);
        DML_BINDING_DESC temporary_desc = {DML_BINDING_TYPE_BUFFER, &temporary};
        DML_CALL(s->run_table, BindTemporaryResource, &temporary_desc);
    }
    if (r->persistent_bytes)
    {
        DML_BUFFER_BINDING persistent = buffer_binding(arena, r->persistent_offset, r->persistent_bytes);
        DML_BINDING_DESC persistent_desc = {DML_BINDING_TYPE_BUFFER, &persistent};
        DML_CALL(s->run_table, BindPersistentResource, &persistent_desc);
    }
}

/* The upload mirror: inputs, the outputs' initial bytes, canaries. */
static void fill_upload(directml_backend *b, const batch *t)
{
    unsigned char *upload = b->upload.mapped;
    for (size_t i = 0; i < t->count; ++i)
    {
        const job_state *s = t->states[i];
        const dmlconf_job *job = s->job;
        directml_fill_canaries(&s->regions, upload);
        if (!job->desc->in_place)
            memcpy(upload + s->regions.input_offset, job->input, (size_t)s->regions.input_bytes);
        /* The output's initial bytes: the canary, or the input in place. */
        memcpy(upload + s->regions.output_offset, job->output, (size_t)s->regions.output_bytes);
    }
}

static void copy_region(directml_backend *b, ID3D12Resource *to, uint64_t to_offset, ID3D12Resource *from,
                        uint64_t from_offset, uint64_t bytes)
{
    if (bytes)
        ID3D12GraphicsCommandList_CopyBufferRegion(b->device.list, to, to_offset, from, from_offset, bytes);
}

/* Copies the uploaded jobs into the shared buffer (in COPY_DEST): with
 * canaries each job's whole span at once. */
static void record_uploads(directml_backend *b, const batch *t)
{
    for (size_t i = 0; i < t->count; ++i)
    {
        const directml_regions *r = &t->states[i]->regions;
        if (r->canary_end > r->start)
        {
            copy_region(b, b->arena.resource, r->start, b->upload.resource, r->start, r->canary_end - r->start);
            continue;
        }
        if (!t->states[i]->job->desc->in_place)
            copy_region(b, b->arena.resource, r->input_offset, b->upload.resource, r->input_offset, r->input_bytes);
        copy_region(b, b->arena.resource, r->output_offset, b->upload.resource, r->output_offset, r->output_bytes);
    }
}

/* Records the initializers (the shared buffer in UNORDERED_ACCESS), then,
 * for an owned input, writes the scrub bytes over the input: from here on
 * only DirectML's own copy may hold it. Returns 0, or -1 with why. */
static int record_initialization(directml_backend *b, batch *t, char *why, size_t why_size)
{
    ID3D12GraphicsCommandList *list = b->device.list;
    if (t->shared)
    {
        if (bind_shared_initializer(b, t, why, why_size))
            return -1;
        DML_CALL(b->recorder, RecordDispatch, (ID3D12CommandList *)list, (IDMLDispatchable *)t->shared,
                 t->shared_table);
    }
    else
    {
        for (size_t i = 0; i < t->count; ++i)
        {
            if (bind_initializer(b, t->states[i], why, why_size))
                return -1;
            DML_CALL(b->recorder, RecordDispatch, (ID3D12CommandList *)list,
                     (IDMLDispatchable *)t->states[i]->initializer, t->states[i]->init_table);
        }
    }
    d3d12_uav_barrier(&b->device);
    if (owned_input(b))
    {
        d3d12_transition(&b->device, b->arena.resource, D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
                         D3D12_RESOURCE_STATE_COPY_DEST);
        for (size_t i = 0; i < t->count; ++i)
        {
            const directml_regions *r = &t->states[i]->regions;
            copy_region(b, b->arena.resource, r->input_offset, b->upload.resource, r->scrub_offset, r->scrub_bytes);
        }
        d3d12_transition(&b->device, b->arena.resource, D3D12_RESOURCE_STATE_COPY_DEST,
                         D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    }
    return 0;
}

/* Records every job's operator once (the shared buffer in UNORDERED_ACCESS),
 * each between a pair of timestamps when `timed`; the binding tables are
 * created (bound to the decoys with descriptors-volatile) on first use. */
static int record_dispatches(directml_backend *b, batch *t, bool timed, char *why, size_t why_size)
{
    ID3D12GraphicsCommandList *list = b->device.list;
    for (size_t i = 0; i < t->count; ++i)
    {
        job_state *s = t->states[i];
        if (!s->run_table)
        {
            s->run_table = create_table(b, (IDMLDispatchable *)s->compiled, s->run_descriptors,
                                        descriptors_of(&s->run_properties), why, why_size);
            if (!s->run_table)
                return -1;
            bind_operator(b, s, volatile_descriptors(b));
        }
        if (timed)
            ID3D12GraphicsCommandList_EndQuery(list, b->queries, D3D12_QUERY_TYPE_TIMESTAMP, (UINT)(2 * i));
        DML_CALL(b->recorder, RecordDispatch, (ID3D12CommandList *)list, (IDMLDispatchable *)s->compiled, s->run_table);
        if (timed)
            ID3D12GraphicsCommandList_EndQuery(list, b->queries, D3D12_QUERY_TYPE_TIMESTAMP, (UINT)(2 * i + 1));
    }
    d3d12_uav_barrier(&b->device);
    return 0;
}

/* descriptors-volatile: the bindings the recorded dispatches will use, made
 * only now (the fault late-binding-skipped leaves the decoys bound). */
static void bind_late(directml_backend *b, batch *t)
{
    if (!volatile_descriptors(b) || b->path.fault == DIRECTML_FAULT_LATE_BINDING_SKIPPED)
        return;
    for (size_t i = 0; i < t->count; ++i)
        bind_operator(b, t->states[i], false);
}

/* From UNORDERED_ACCESS: copies every job's output (with canaries, its
 * whole span) into the readback buffer at `base`, ending in COPY_DEST. The
 * fault stray-write first writes one byte into the canary after each
 * output, as an operator writing past its range would. */
static void record_readback(directml_backend *b, const batch *t, uint64_t base)
{
    d3d12_device *d = &b->device;
    ID3D12Resource *arena = b->arena.resource;
    if (b->path.fault == DIRECTML_FAULT_STRAY_WRITE)
    {
        d3d12_transition(d, arena, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_DEST);
        for (size_t i = 0; i < t->count; ++i)
        {
            const directml_regions *r = &t->states[i]->regions;
            /* The upload holds the output's first byte at output_offset:
             * a byte that differs from the canary's. */
            uint64_t after = r->output_offset + r->output_bytes + 3;
            if (((const unsigned char *)b->upload.mapped)[r->output_offset] != directml_canary_byte(after))
                copy_region(b, arena, after, b->upload.resource, r->output_offset, 1);
            else
                copy_region(b, arena, after, b->upload.resource, r->output_offset + 1, 1);
        }
        d3d12_transition(d, arena, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
    }
    else
        d3d12_transition(d, arena, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    for (size_t i = 0; i < t->count; ++i)
    {
        const directml_regions *r = &t->states[i]->regions;
        if (r->canary_end > r->start)
            copy_region(b, b->readback.resource, base + r->start, arena, r->start, r->canary_end - r->start);
        else
            copy_region(b, b->readback.resource, base + r->output_offset, arena, r->output_offset, r->output_bytes);
    }
    d3d12_transition(d, arena, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COPY_DEST);
}

/* repeat: puts every output's initial bytes back (from COPY_DEST, ending in
 * UNORDERED_ACCESS), and with the fault repeat-changed-input the input too. */
static void record_output_resets(directml_backend *b, const batch *t)
{
    for (size_t i = 0; i < t->count; ++i)
    {
        const directml_regions *r = &t->states[i]->regions;
        copy_region(b, b->arena.resource, r->output_offset, b->upload.resource, r->output_offset, r->output_bytes);
        if (b->path.fault == DIRECTML_FAULT_REPEAT_CHANGED_INPUT && !t->states[i]->job->desc->in_place)
            copy_region(b, b->arena.resource, r->input_offset, b->upload.resource, r->input_offset, r->input_bytes);
    }
    d3d12_transition(&b->device, b->arena.resource, D3D12_RESOURCE_STATE_COPY_DEST,
                     D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
}

/* Closes a list that failed half-way (the shared buffer in `state`),
 * executing nothing wanted. */
static void abandon_list(directml_backend *b, D3D12_RESOURCE_STATES state)
{
    char ignored[64];
    if (state != D3D12_RESOURCE_STATE_COPY_DEST)
        d3d12_transition(&b->device, b->arena.resource, state, D3D12_RESOURCE_STATE_COPY_DEST);
    d3d12_device_submit(&b->device, ignored, sizeof(ignored));
}

/* After the device: the canaries and the input of each job (with canaries),
 * read back at `base`. Fails the job, saying where, when one changed. */
static bool check_job_span(directml_backend *b, job_state *s, uint64_t base)
{
    const directml_regions *r = &s->regions;
    if (r->canary_end <= r->start)
        return true;
    const unsigned char *after = (const unsigned char *)b->readback.mapped + base;
    bool check_input = !s->job->desc->in_place && !owned_input(b);
    directml_span_check found;
    if (directml_check_span(r, b->upload.mapped, after, check_input, &found))
        return true;
    dmlconf_job *job = s->job;
    job->outcome = DMLCONF_JOB_FAILED;
    snprintf(job->message, sizeof(job->message),
             "after the dispatch %llu canary byte(s) around the tensors and %llu input byte(s) had changed; the "
             "first at byte %llu of the shared buffer, %s (input bound at %llu, %llu bytes; output at %llu, %llu "
             "bytes)",
             (unsigned long long)found.canary_bytes_changed, (unsigned long long)found.input_bytes_changed,
             (unsigned long long)found.first_offset, found.first_where, (unsigned long long)r->input_offset,
             (unsigned long long)r->input_bytes, (unsigned long long)r->output_offset,
             (unsigned long long)r->output_bytes);
    return false;
}

/* The first byte where two copies of an output differ, or -1. */
static long long first_difference(const unsigned char *a, const unsigned char *b, uint64_t bytes)
{
    for (uint64_t i = 0; i < bytes; ++i)
        if (a[i] != b[i])
            return (long long)i;
    return -1;
}

/* Reads each job's results from the readback buffer at `base`: its output,
 * its canaries, its time. */
static void read_results(directml_backend *b, batch *t, uint64_t base)
{
    const unsigned char *readback = (const unsigned char *)b->readback.mapped + base;
    const uint64_t *ticks = b->query_readback.mapped;
    const d3d12_device *d = &b->device;
    for (size_t i = 0; i < t->count; ++i)
    {
        job_state *s = t->states[i];
        dmlconf_job *job = s->job;
        s->finished = true;
        if (job->outcome == DMLCONF_JOB_FAILED && job->message[0])
            continue; /* a repeat that disagreed with itself */
        if (!check_job_span(b, s, base))
            continue;
        memcpy(job->output, readback + s->regions.output_offset, (size_t)s->regions.output_bytes);
        job->outcome = DMLCONF_JOB_DONE;
        job->message[0] = '\0';
        if (d->timestamp_frequency && ticks[2 * i + 1] >= ticks[2 * i])
            job->device_seconds = (double)(ticks[2 * i + 1] - ticks[2 * i]) / (double)d->timestamp_frequency;
    }
}

/* repeat: compares each job's outputs of every dispatch so far (the
 * readback buffer's slots, one per dispatch, `slot_bytes` apart) with
 * `reference` (the first dispatch's, kept in `kept`); a job whose outputs
 * differ fails, saying which dispatch of which execution. */
static void compare_repeats(directml_backend *b, batch *t, uint64_t slot_bytes, const unsigned char *kept,
                            unsigned execution)
{
    size_t at = 0;
    for (size_t i = 0; i < t->count; ++i)
    {
        job_state *s = t->states[i];
        const directml_regions *r = &s->regions;
        for (unsigned k = 0; k < REPEAT_DISPATCHES; ++k)
        {
            const unsigned char *copy = (const unsigned char *)b->readback.mapped + k * slot_bytes + r->output_offset;
            long long where = first_difference(kept + at, copy, r->output_bytes);
            if (where >= 0 && !(s->job->outcome == DMLCONF_JOB_FAILED && s->job->message[0]))
            {
                s->job->outcome = DMLCONF_JOB_FAILED;
                snprintf(s->job->message, sizeof(s->job->message),
                         "the same operator on the same input gave different outputs: dispatch %u of execution %u "
                         "of the command list differs from dispatch 1 of execution 1 at output byte %lld",
                         k + 1, execution, where);
            }
        }
        at += (size_t)r->output_bytes;
    }
}

/* The shared initializer of a batch, its properties and its place. Returns
 * 0, or -1 with why (the batch's jobs then fail with it). */
static int create_shared_initializer(directml_backend *b, batch *t, char *why, size_t why_size)
{
    IDMLCompiledOperator **operators = calloc(t->count, sizeof(*operators));
    if (!operators)
    {
        snprintf(why, why_size, "out of memory for a shared initializer");
        return -1;
    }
    for (size_t i = 0; i < t->count; ++i)
        operators[i] = t->states[i]->compiled;
    HRESULT hr = DML_CALL(b->dml, CreateOperatorInitializer, (UINT)t->count, operators, &dml_iid_operator_initializer,
                          (void **)&t->shared);
    free(operators);
    if (FAILED(hr))
    {
        char text[64];
        t->shared = NULL;
        snprintf(why, why_size, "CreateOperatorInitializer for the batch's %zu operators failed: %s", t->count,
                 d3d12_hresult_text(hr, text, sizeof(text)));
        return -1;
    }
    t->shared_properties = dml_binding_properties((IDMLDispatchable *)t->shared);
    t->shared_temporary_offset = t->arena_bytes;
    uint64_t temporary = t->shared_properties.TemporaryResourceSize;
    t->arena_bytes +=
        (temporary + DIRECTML_REGION_ALIGNMENT - 1) / DIRECTML_REGION_ALIGNMENT * DIRECTML_REGION_ALIGNMENT;
    t->shared_descriptors = t->descriptors;
    t->descriptors += descriptors_of(&t->shared_properties);
    return 0;
}

/* Runs one batch whose states are prepared and laid out. Returns 0, or -1
 * when the device failed (why set). */
static int run_batch(directml_backend *b, batch *t, char *why, size_t why_size)
{
    d3d12_device *d = &b->device;
    unsigned dispatches = repeat(b) ? REPEAT_DISPATCHES : 1u;
    if (reserve_buffer(b, &b->arena, D3D12_HEAP_TYPE_DEFAULT, t->arena_bytes, why, why_size) ||
        reserve_buffer(b, &b->upload, D3D12_HEAP_TYPE_UPLOAD, t->arena_bytes, why, why_size) ||
        reserve_buffer(b, &b->readback, D3D12_HEAP_TYPE_READBACK, dispatches * t->arena_bytes, why, why_size) ||
        reserve_heaps(b, t->descriptors, (uint32_t)(2 * t->count), why, why_size))
        return -1;
    fill_upload(b, t);

    /* The uploads and the initializers; with repeat, a list of its own. */
    if (d3d12_device_begin(d, why, why_size))
        return -1;
    ID3D12GraphicsCommandList_SetDescriptorHeaps(d->list, 1, &b->heap);
    record_uploads(b, t);
    d3d12_transition(d, b->arena.resource, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    if (record_initialization(b, t, why, why_size))
    {
        abandon_list(b, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        return -1;
    }
    if (repeat(b))
    {
        d3d12_transition(d, b->arena.resource, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_DEST);
        if (d3d12_device_submit(d, why, why_size) || d3d12_device_begin(d, why, why_size))
            return -1;
        ID3D12GraphicsCommandList_SetDescriptorHeaps(d->list, 1, &b->heap);
    }

    /* The operators: once, or with repeat twice per execution, each time
     * from the output's initial bytes, copied back into a slot of its own. */
    for (unsigned k = 0; k < dispatches; ++k)
    {
        if (repeat(b))
            record_output_resets(b, t);
        if (record_dispatches(b, t, k + 1 == dispatches, why, why_size))
        {
            abandon_list(b, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
            return -1;
        }
        record_readback(b, t, (uint64_t)k * t->arena_bytes);
    }
    ID3D12GraphicsCommandList_ResolveQueryData(d->list, b->queries, D3D12_QUERY_TYPE_TIMESTAMP, 0, (UINT)(2 * t->count),
                                               b->query_readback.resource, 0);
    bind_late(b, t);
    if (d3d12_device_submit(d, why, why_size))
        return -1;

    if (repeat(b))
    {
        /* Keep the first dispatch's outputs, compare the rest with them,
         * and run the list again. */
        size_t kept_bytes = 0;
        for (size_t i = 0; i < t->count; ++i)
            kept_bytes += (size_t)t->states[i]->regions.output_bytes;
        unsigned char *kept = malloc(kept_bytes ? kept_bytes : 1);
        if (!kept)
        {
            snprintf(why, why_size, "out of memory for the repeated dispatches' outputs");
            return -1;
        }
        size_t at = 0;
        for (size_t i = 0; i < t->count; ++i)
        {
            const directml_regions *r = &t->states[i]->regions;
            memcpy(kept + at, (const unsigned char *)b->readback.mapped + r->output_offset, (size_t)r->output_bytes);
            at += (size_t)r->output_bytes;
        }
        compare_repeats(b, t, t->arena_bytes, kept, 1);
        if (b->path.fault == DIRECTML_FAULT_REPEAT_CHANGED_INPUT)
        {
            /* The second execution gets other input bytes (in place, the
             * output's initial bytes are the input). */
            unsigned char *upload = b->upload.mapped;
            for (size_t i = 0; i < t->count; ++i)
            {
                const directml_regions *r = &t->states[i]->regions;
                uint64_t offset = t->states[i]->job->desc->in_place ? r->output_offset : r->input_offset;
                for (uint64_t j = 0; j < r->input_bytes; ++j)
                    upload[offset + j] ^= 0x41u;
            }
        }
        int again = d3d12_device_execute_again(d, why, why_size);
        if (again == 0)
            compare_repeats(b, t, t->arena_bytes, kept, 2);
        free(kept);
        if (again)
            return -1;
    }
    HRESULT removed = DML_CALL0(b->dml, GetDeviceRemovedReason);
    if (FAILED(removed))
    {
        char text[64];
        snprintf(why, why_size, "DirectML's device was removed: %s", d3d12_hresult_text(removed, text, sizeof(text)));
        return -1;
    }
    read_results(b, t, (uint64_t)(dispatches - 1) * t->arena_bytes);
    return 0;
}

/* Fails every job of a batch that did not finish, with `why`: as
 * NO_RESOURCES when `no_resources` (a buffer the device had no memory
 * for), else FAILED. */
static void fail_unfinished(batch *t, bool no_resources, const char *why)
{
    for (size_t i = 0; i < t->count; ++i)
    {
        job_state *s = t->states[i];
        if (s->finished)
            continue;
        s->job->outcome = no_resources ? DMLCONF_JOB_NO_RESOURCES : DMLCONF_JOB_FAILED;
        snprintf(s->job->message, sizeof(s->job->message), "%s", why);
    }
}

int directml_execute_jobs(directml_backend *b, dmlconf_job *jobs, size_t count)
{
    job_state *states = calloc(count ? count : 1, sizeof(*states));
    job_state **members = calloc(count ? count : 1, sizeof(*members));
    if (!states || !members)
    {
        free(states);
        free(members);
        for (size_t i = 0; i < count; ++i)
        {
            jobs[i].outcome = DMLCONF_JOB_NO_RESOURCES;
            snprintf(jobs[i].message, sizeof(jobs[i].message), "out of memory for a batch");
        }
        return 0;
    }
    for (size_t i = 0; i < count; ++i)
    {
        states[i].job = &jobs[i];
        prepare_job(b, &states[i]);
    }

    directml_layout_options options = layout_options(&b->path);
    int result = 0;
    size_t next = 0;
    while (next < count && result == 0)
    {
        /* A batch: the next runnable jobs that fit (at least one). */
        batch t;
        memset(&t, 0, sizeof(t));
        t.states = members;
        uint64_t end = 0;
        for (; next < count && t.count < BATCH_JOBS; ++next)
        {
            job_state *s = &states[next];
            if (!s->runs)
                continue;
            directml_regions placed;
            if (!directml_layout_job(s->job->desc, s->regions.temporary_bytes, s->regions.persistent_bytes, &options,
                                     end, &placed) ||
                (t.count > 0 && placed.end > BATCH_BYTES))
                break;
            s->regions = placed;
            if (!shared_initializer(b))
            {
                s->init_descriptors = t.descriptors;
                t.descriptors += descriptors_of(&s->init_properties);
            }
            s->run_descriptors = t.descriptors;
            t.descriptors += descriptors_of(&s->run_properties);
            end = placed.end;
            members[t.count++] = s;
        }
        if (t.count == 0)
            break;
        t.arena_bytes = end;
        char why[256];
        b->device.out_of_memory = false;
        if (shared_initializer(b) && create_shared_initializer(b, &t, why, sizeof(why)))
            fail_unfinished(&t, b->device.out_of_memory, why); /* the batch cannot run; the device is fine */
        else if (run_batch(b, &t, why, sizeof(why)))
        {
            if (b->device.out_of_memory && !b->device.recording)
                fail_unfinished(&t, true, why); /* a buffer it had no memory for; the device is fine */
            else
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
        }
        for (size_t i = 0; i < t.count; ++i)
        {
            DML_RELEASE(t.states[i]->run_table);
            DML_RELEASE(t.states[i]->init_table);
        }
        DML_RELEASE(t.shared_table);
        DML_RELEASE(t.shared);
    }
    for (size_t i = 0; i < count; ++i)
        release_state(&states[i]);
    free(members);
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
