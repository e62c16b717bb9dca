/*
 * dmlconf_d3d12_bench: how fast the D3D12 backend's scans run, in one run.
 *
 * - Large scans (10^8 elements by default) of float32 and int32, 1-D and
 *   2-D (along the contiguous axis and along the strided one), timed with
 *   the backend's own per-dispatch GPU timestamps, in GB/s (bytes read plus
 *   bytes written, once each, over the device time), against a plain copy
 *   kernel dispatched through the same D3D12 path; int32 results are checked
 *   against a CPU prefix sum.
 * - torch.cumsum on the same GPU for the same shapes, when python3 and
 *   PyTorch with a GPU are installed (a short Python snippet run here).
 * - Small-case throughput: thousands of small random jobs executed through
 *   the backend's execute in batches of 32 (as `dmlconf run` sends them)
 *   and of 1024, in cases per second of wall time (upload, kernels and
 *   read-back included; the oracle and comparator are not).
 *
 * Usage: dmlconf_d3d12_bench [--adapter WHICH] [--elements N] [--small N] [--repeat N] [--no-torch]
 *                            [--only NAME]   (only the large cases whose name holds NAME)
 * Exit status: 0, or 1 when the backend cannot open or a result is wrong.
 */
#define _POSIX_C_SOURCE 200809L

#include "d3d12_backend_internal.h"
#include "dxbc_container.h"
#include "kernel_asm.h"

#include <dmlconf/clock.h>
#include <dmlconf/d3d12.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct bench_options
{
    const char *adapter;
    const char *only; /* run only the large cases whose name holds this, and no small cases */
    uint64_t elements;
    unsigned small_cases;
    unsigned repeat;
    bool torch;
} bench_options;

/* xorshift64*: reproducible inputs. */
static uint64_t next_random(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * UINT64_C(2685821657736338717);
}

static bool parse_count(const char *text, uint64_t *value)
{
    char *end = NULL;
    errno = 0;
    double parsed = strtod(text, &end); /* accepts 1e8 */
    if (errno || !end || *end || parsed < 1 || parsed > 4e9)
        return false;
    *value = (uint64_t)parsed;
    return true;
}

/* ---- the copy kernel ------------------------------------------------------ */

/* Four 32-bit words per thread, a grid's width apart so that each row of
 * loads is coalesced: with t = id.y * cb0[0].y + id.x and T = cb0[0].z
 * threads (cb0[0].z), thread t < T copies words t, t + T, t + 2T, t + 3T
 * (those below cb0[0].x) from u0 to u1, issuing its four loads before any
 * store. */
#define COPY_WORDS_PER_THREAD 4u

static int build_copy_kernel(void **blob, size_t *size)
{
    dxbc_program p = {0};
    dxbc_program_begin(&p, DXBC_PROGRAM_COMPUTE, 5, 0);
    dxbc_dcl_constant_buffer(&p, 0, 1);
    dxbc_dcl_uav_raw(&p, 0);
    dxbc_dcl_uav_raw(&p, 1);
    dxbc_dcl_input(&p, DXBC_OPERAND_THREAD_ID);
    dxbc_dcl_temps(&p, 4);
    dxbc_dcl_thread_group(&p, 256, 1, 1);
    op4(&p, DXBC_OP_IMAD, D(0, 0), dxbc_input(DXBC_OPERAND_THREAD_ID, 1), dxbc_cb(0, 0, 1),
        dxbc_input(DXBC_OPERAND_THREAD_ID, 0));
    op3(&p, DXBC_OP_UGE, D(0, 1), S(0, 0), dxbc_cb(0, 0, 2));
    emit_if(&p, S(0, 1), true);
    op0(&p, DXBC_OP_RET, 0);
    emit_endif(&p);
    op3(&p, DXBC_OP_IADD, D(0, 1), dxbc_cb(0, 0, 0), I(0xffffffffu)); /* the last word */
    for (unsigned j = 0; j < COPY_WORDS_PER_THREAD; ++j)
    {
        op4(&p, DXBC_OP_IMAD, D(2, j), dxbc_cb(0, 0, 2), I(j), S(0, 0)); /* word index */
        op3(&p, DXBC_OP_UMIN, D(3, 0), S(2, j), S(0, 1));
        op3(&p, DXBC_OP_ISHL, D(3, 0), S(3, 0), I(2));
        op3(&p, DXBC_OP_LD_RAW, D(1, j), S(3, 0), dxbc_uav_src(0, DXBC_SWIZZLE_XXXX));
    }
    for (unsigned j = 0; j < COPY_WORDS_PER_THREAD; ++j)
    {
        op3(&p, DXBC_OP_ULT, D(3, 1), S(2, j), dxbc_cb(0, 0, 0));
        emit_if(&p, S(3, 1), true);
        op3(&p, DXBC_OP_ISHL, D(3, 0), S(2, j), I(2));
        op3(&p, DXBC_OP_STORE_RAW, dxbc_uav_dst(1, DXBC_MASK_X), S(3, 0), S(1, j));
        emit_endif(&p);
    }
    op0(&p, DXBC_OP_RET, 0);
    int failed = dxbc_program_finish(&p) || dxbc_container_build(p.words, p.count, blob, size);
    dxbc_program_release(&p);
    return failed ? -1 : 0;
}

/* Times the copy of `words` words on the device: the best of `repeat`
 * dispatches, in seconds; < 0 on failure. */
static double time_copy(d3d12_backend *b, uint64_t words, unsigned repeat)
{
    d3d12_device *d = &b->device;
    char why[256];
    double best = -1.0;
    void *blob = NULL;
    size_t size = 0;
    ID3D12PipelineState *pipeline = NULL;
    ID3D12QueryHeap *queries = NULL;
    d3d12_buffer in = {0}, out = {0}, stamps = {0};
    if (words * 4 > b->view_bytes)
    {
        printf("copy kernel: %llu words exceed one buffer view; not measured\n", (unsigned long long)words);
        return -1.0;
    }
    if (build_copy_kernel(&blob, &size) ||
        d3d12_device_create_pipeline(d, b->pipelines.root_signature, blob, size, &pipeline, why, sizeof(why)) ||
        d3d12_buffer_create(d, D3D12_HEAP_TYPE_DEFAULT, words * 4, &in, why, sizeof(why)) ||
        d3d12_buffer_create(d, D3D12_HEAP_TYPE_DEFAULT, words * 4, &out, why, sizeof(why)) ||
        d3d12_buffer_create(d, D3D12_HEAP_TYPE_READBACK, 16 * (uint64_t)repeat, &stamps, why, sizeof(why)))
    {
        printf("copy kernel: %s\n", why);
        goto done;
    }
    D3D12_QUERY_HEAP_DESC query_desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, 2 * repeat, 0};
    if (FAILED(ID3D12Device_CreateQueryHeap(d->device, &query_desc, &IID_ID3D12QueryHeap, (void **)&queries)) ||
        d3d12_device_begin(d, why, sizeof(why)))
    {
        printf("copy kernel: cannot record\n");
        goto done;
    }
    scan_pipelines_bind(&b->pipelines, d);
    ID3D12GraphicsCommandList *list = d->list;
    d3d12_transition(d, in.resource, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    d3d12_transition(d, out.resource, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    uint64_t threads = (words + COPY_WORDS_PER_THREAD - 1) / COPY_WORDS_PER_THREAD;
    uint32_t groups = (uint32_t)((threads + 255) / 256);
    uint32_t groups_x = groups <= 65535u ? groups : 32768u;
    uint32_t groups_y = (groups + groups_x - 1) / groups_x;
    /* The grid's width T: every thread of the grid, so the last rows of
     * words are covered even when the grid has spare threads. */
    uint32_t constants[SCAN_ROOT_CONSTANTS] = {(uint32_t)words, groups_x * 256u, (uint32_t)threads, 0};
    ID3D12GraphicsCommandList_SetPipelineState(list, pipeline);
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(list, SCAN_ROOT_PARAMETER_CONSTANTS, SCAN_ROOT_CONSTANTS,
                                                           constants, 0);
    for (unsigned u = 0; u < SCAN_UAV_COUNT; ++u)
        ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, SCAN_ROOT_PARAMETER_UAV0 + u,
                                                                    u == 1 ? out.address : in.address);
    for (unsigned r = 0; r < repeat; ++r)
    {
        if (r)
            d3d12_uav_barrier(d);
        ID3D12GraphicsCommandList_EndQuery(list, queries, D3D12_QUERY_TYPE_TIMESTAMP, 2 * r);
        ID3D12GraphicsCommandList_Dispatch(list, groups_x, groups_y, 1);
        ID3D12GraphicsCommandList_EndQuery(list, queries, D3D12_QUERY_TYPE_TIMESTAMP, 2 * r + 1);
    }
    ID3D12GraphicsCommandList_ResolveQueryData(list, queries, D3D12_QUERY_TYPE_TIMESTAMP, 0, 2 * repeat,
                                               stamps.resource, 0);
    if (d3d12_device_submit(d, why, sizeof(why)))
    {
        printf("copy kernel: %s\n", why);
        goto done;
    }
    const uint64_t *ticks = stamps.mapped;
    for (unsigned r = 0; r < repeat && d->timestamp_frequency; ++r)
    {
        double seconds = (double)(ticks[2 * r + 1] - ticks[2 * r]) / (double)d->timestamp_frequency;
        if (best < 0 || seconds < best)
            best = seconds;
    }

done:
    free(blob);
    if (pipeline)
        ID3D12PipelineState_Release(pipeline);
    if (queries)
        ID3D12QueryHeap_Release(queries);
    d3d12_buffer_release(&in);
    d3d12_buffer_release(&out);
    d3d12_buffer_release(&stamps);
    return best;
}

/* ---- large scans ---------------------------------------------------------- */

typedef struct large_case
{
    const char *name;
    unsigned dims;
    unsigned axis;
    dmlconf_data_type type;
} large_case;

/* Runs one large scan `repeat` times; prints its best device time and GB/s
 * and its fraction of the copy kernel's. Returns 0, or -1 when it fails or
 * (int32) its result is wrong. */
static int run_large(dmlconf_backend *backend, const large_case *lc, uint64_t elements, unsigned repeat,
                     double copy_gbps)
{
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    desc.input.data_type = desc.output.data_type = lc->type;
    if (lc->dims == 1)
    {
        desc.input.dimension_count = 1;
        desc.input.sizes[0] = (uint32_t)elements;
    }
    else
    {
        uint32_t side = 1;
        while ((uint64_t)(side + 1) * (side + 1) <= elements)
            side++;
        desc.input.dimension_count = 2;
        desc.input.sizes[0] = desc.input.sizes[1] = side;
    }
    desc.output = desc.input;
    desc.axis = lc->axis;
    uint64_t count = dmlconf_tensor_element_count(&desc.input);
    size_t bytes = (size_t)count * 4;
    uint32_t *input = malloc(bytes), *output = malloc(bytes);
    if (!input || !output)
    {
        printf("%-28s out of memory\n", lc->name);
        free(input);
        free(output);
        return -1;
    }
    uint64_t state = UINT64_C(0x9e3779b97f4a7c15);
    for (uint64_t i = 0; i < count; ++i)
    {
        uint64_t r = next_random(&state);
        if (lc->type == DMLCONF_DATA_TYPE_FLOAT32)
        {
            float value = (float)(r >> 40) * 0x1p-24f; /* [0, 1), exact */
            memcpy(&input[i], &value, 4);
        }
        else
            input[i] = (uint32_t)(r >> 61); /* 0..7 */
    }
    dmlconf_job job;
    double best = -1.0, wall = 0.0;
    /* Run 0 warms the device up (pipelines, buffers, clocks) and is not timed. */
    for (unsigned r = 0; r <= repeat; ++r)
    {
        memset(&job, 0, sizeof(job));
        job.desc = &desc;
        job.feature_level = DMLCONF_FEATURE_LEVEL_5_0;
        job.input = input;
        job.input_bytes = bytes;
        job.output = output;
        job.output_bytes = bytes;
        double start = dmlconf_clock_seconds();
        backend->ops->execute(backend, &job, 1);
        wall = dmlconf_clock_seconds() - start;
        if (job.outcome != DMLCONF_JOB_DONE)
        {
            printf("%-28s failed: %s\n", lc->name, job.message);
            free(input);
            free(output);
            return -1;
        }
        if (r && job.device_seconds > 0 && (best < 0 || job.device_seconds < best))
            best = job.device_seconds;
    }
    int status = 0;
    if (lc->type == DMLCONF_DATA_TYPE_INT32)
    {
        /* Wrapping prefix sums along the axis. */
        uint64_t rows = lc->dims == 1 ? 1 : desc.input.sizes[0], columns = lc->dims == 1 ? count : desc.input.sizes[1];
        uint64_t lines = lc->axis == lc->dims - 1 ? rows : columns, n = lc->axis == lc->dims - 1 ? columns : rows;
        uint64_t step = lc->axis == lc->dims - 1 ? 1 : columns, line_step = lc->axis == lc->dims - 1 ? columns : 1;
        for (uint64_t l = 0; l < lines && !status; ++l)
        {
            uint32_t sum = 0;
            for (uint64_t j = 0; j < n; ++j)
            {
                uint64_t at = l * line_step + j * step;
                sum += input[at];
                if (output[at] != sum)
                {
                    printf("%-28s WRONG at element %llu: %u, expected %u\n", lc->name, (unsigned long long)at,
                           output[at], sum);
                    status = -1;
                    break;
                }
            }
        }
    }
    double gbps = best > 0 ? 2.0 * (double)bytes / best / 1e9 : 0.0;
    printf("%-28s %10llu elements  %9.3f ms  %8.1f GB/s  %5.1f%% of copy  (wall %.2f s with transfers)%s\n", lc->name,
           (unsigned long long)count, best * 1e3, gbps, copy_gbps > 0 ? 100.0 * gbps / copy_gbps : 0.0, wall,
           status ? "" : (lc->type == DMLCONF_DATA_TYPE_INT32 ? "  verified" : ""));
    free(input);
    free(output);
    return status;
}

/* One large scan in this (child) process: opens the backend, measures the
 * copy kernel, runs the scan; with `first`, prints the adapter and the copy
 * kernel's line too. Returns the exit status. */
static int run_large_process(const bench_options *options, const large_case *lc, bool first)
{
    dmlconf_backend_config config = {.adapter = options->adapter};
    dmlconf_backend *backend = NULL;
    char why[512];
    if (dmlconf_d3d12_backend_ops.open(&config, &backend, why, sizeof(why)))
    {
        printf("the D3D12 backend is unavailable: %s\n", why);
        fflush(stdout);
        return 1;
    }
    if (first)
    {
        dmlconf_backend_info info;
        backend->ops->info(backend, &info);
        printf("adapter: %s\ndriver:  %s\nruntime: %s\n\n", info.adapter, info.driver, info.runtime);
    }
    double copy = time_copy((d3d12_backend *)backend, options->elements, options->repeat);
    double copy_gbps = copy > 0 ? 2.0 * 4.0 * (double)options->elements / copy / 1e9 : 0.0;
    if (first && copy > 0)
        printf("%-28s %10llu words     %9.3f ms  %8.1f GB/s   (each scan below: its own process, its own copy "
               "measurement)\n",
               "copy kernel (D3D12)", (unsigned long long)options->elements, copy * 1e3, copy_gbps);
    int status = run_large(backend, lc, options->elements, options->repeat, copy_gbps) ? 1 : 0;
    backend->ops->close(backend);
    fflush(stdout);
    return status;
}

/* ---- torch ---------------------------------------------------------------- */

static const char torch_snippet[] =
    "import sys, time\n"
    "try:\n"
    "    import torch\n"
    "except Exception as e:\n"
    "    print('torch: unavailable (%s)' % e); sys.exit(0)\n"
    "if not torch.cuda.is_available():\n"
    "    print('torch: no CUDA device'); sys.exit(0)\n"
    "n = int(sys.argv[1]); side = int(n ** 0.5)\n"
    "while (side + 1) * (side + 1) <= n: side += 1\n"
    "while side * side > n: side -= 1\n"
    "print('torch %s on %s (CUDA %s)' % (torch.__version__, torch.cuda.get_device_name(0), torch.version.cuda))\n"
    "def timed(f, reps=10):\n"
    "    f(); torch.cuda.synchronize(); best = 1e9\n"
    "    for _ in range(reps):\n"
    "        a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)\n"
    "        a.record(); f(); b.record(); torch.cuda.synchronize(); best = min(best, a.elapsed_time(b) / 1e3)\n"
    "    return best\n"
    "for dt, name in ((torch.float32, 'float32'), (torch.int32, 'int32')):\n"
    "    for shape, dim, label in (((n,), 0, '1-D'), ((side, side), 1, '2-D axis 1'), ((side, side), 0, '2-D axis "
    "0')):\n"
    "        x = (torch.rand(shape, device='cuda') * 8).to(dt); y = torch.empty_like(x)\n"
    "        t = timed(lambda: torch.cumsum(x, dim, dtype=dt, out=y))\n"
    "        c = timed(lambda: y.copy_(x))\n"
    "        nb = 2 * x.numel() * x.element_size()\n"
    "        print('torch.cumsum %-7s %-11s %9.3f ms %8.1f GB/s   (torch copy_ %8.1f GB/s)' % (name, label, t * 1e3,\n"
    "              nb / t / 1e9, nb / c / 1e9))\n"
    "        del x, y\n";

static void run_torch(uint64_t elements)
{
    char path[] = "/tmp/dmlconf_torch_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
    {
        printf("torch: cannot write the snippet\n");
        return;
    }
    FILE *file = fdopen(fd, "w");
    if (!file || fputs(torch_snippet, file) < 0 || fclose(file))
    {
        printf("torch: cannot write the snippet\n");
        remove(path);
        return;
    }
    char command[256];
    snprintf(command, sizeof(command), "python3 %s %llu 2>&1", path, (unsigned long long)elements);
    FILE *pipe = popen(command, "r");
    if (!pipe)
    {
        printf("torch: cannot run python3\n");
        remove(path);
        return;
    }
    char line[512];
    while (fgets(line, sizeof(line), pipe))
        fputs(line, stdout);
    int status = pclose(pipe);
    if (status)
        printf("torch: python3 exited with status %d\n", status);
    remove(path);
}

/* ---- small cases ---------------------------------------------------------- */

typedef struct small_set
{
    dmlconf_scan_desc *descs;
    dmlconf_job *jobs;
    unsigned char *memory;
    size_t count;
} small_set;

/* Builds `count` random valid small jobs: 1 to 4 dimensions of 1 to 8, any
 * axis, both operators, the six types, both directions, inclusive and
 * exclusive, some in place. */
static int build_small(small_set *set, size_t count)
{
    static const dmlconf_data_type types[] = {DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_FLOAT16,
                                              DMLCONF_DATA_TYPE_INT32,   DMLCONF_DATA_TYPE_UINT32,
                                              DMLCONF_DATA_TYPE_INT64,   DMLCONF_DATA_TYPE_UINT64};
    set->count = count;
    set->descs = calloc(count, sizeof(*set->descs));
    set->jobs = calloc(count, sizeof(*set->jobs));
    set->memory = calloc(count, 2 * 4096 * 8);
    if (!set->descs || !set->jobs || !set->memory)
        return -1;
    uint64_t state = 12345;
    for (size_t i = 0; i < count; ++i)
    {
        dmlconf_scan_desc *desc = &set->descs[i];
        uint64_t r = next_random(&state);
        desc->op = r & 1 ? DMLCONF_OPERATOR_CUMULATIVE_PRODUCT : DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
        desc->input.data_type = types[(r >> 1) % 6];
        desc->input.dimension_count = 1 + (uint32_t)((r >> 4) % 4);
        for (uint32_t d = 0; d < desc->input.dimension_count; ++d)
            desc->input.sizes[d] = 1 + (uint32_t)((r >> (8 + 3 * d)) % 8);
        desc->output = desc->input;
        desc->axis = (uint32_t)((r >> 24) % desc->input.dimension_count);
        desc->direction = (r >> 28) & 1 ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING;
        desc->exclusive = (r >> 29) & 1;
        desc->in_place = (r >> 30) % 4 == 0;
        uint64_t bytes = 0;
        dmlconf_tensor_min_size_bytes(&desc->input, &bytes);
        unsigned char *in = set->memory + i * 2 * 4096 * 8, *out = in + 4096 * 8;
        for (uint64_t k = 0; k < bytes; ++k)
            in[k] = (unsigned char)(next_random(&state) & 0x3f); /* small positive values in every type */
        dmlconf_job *job = &set->jobs[i];
        job->desc = desc;
        job->feature_level = DMLCONF_FEATURE_LEVEL_5_0;
        job->input = desc->in_place ? out : in;
        job->input_bytes = (size_t)bytes;
        job->output = out;
        job->output_bytes = (size_t)bytes;
        if (desc->in_place)
            memcpy(out, in, (size_t)bytes);
    }
    return 0;
}

static void release_small(small_set *set)
{
    free(set->descs);
    free(set->jobs);
    free(set->memory);
}

static void run_small(dmlconf_backend *backend, small_set *set, size_t batch)
{
    double start = dmlconf_clock_seconds();
    size_t done = 0, failed = 0;
    double device = 0.0;
    for (size_t i = 0; i < set->count; i += batch)
    {
        size_t n = set->count - i < batch ? set->count - i : batch;
        backend->ops->execute(backend, set->jobs + i, n);
        for (size_t k = 0; k < n; ++k)
        {
            if (set->jobs[i + k].outcome == DMLCONF_JOB_DONE)
            {
                done++;
                device += set->jobs[i + k].device_seconds > 0 ? set->jobs[i + k].device_seconds : 0.0;
            }
            else
                failed++;
        }
    }
    double wall = dmlconf_clock_seconds() - start;
    printf(
        "small cases, batches of %-5zu %8zu cases in %6.2f s: %9.0f cases/s  (mean device time %.1f us per case)%s\n",
        batch, done, wall, (double)done / wall, done ? device / (double)done * 1e6 : 0.0,
        failed ? "  SOME FAILED" : "");
}

/* ---- main ----------------------------------------------------------------- */

int main(int argc, char **argv)
{
    bench_options options = {NULL, NULL, 100000000u, 20000u, 10u, true};
    for (int i = 1; i < argc; ++i)
    {
        uint64_t value;
        if (!strcmp(argv[i], "--adapter") && i + 1 < argc)
            options.adapter = argv[++i];
        else if (!strcmp(argv[i], "--elements") && i + 1 < argc && parse_count(argv[i + 1], &value))
        {
            options.elements = value;
            ++i;
        }
        else if (!strcmp(argv[i], "--small") && i + 1 < argc && parse_count(argv[i + 1], &value))
        {
            options.small_cases = (unsigned)value;
            ++i;
        }
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc && parse_count(argv[i + 1], &value))
        {
            options.repeat = (unsigned)value;
            ++i;
        }
        else if (!strcmp(argv[i], "--no-torch"))
            options.torch = false;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
        {
            options.only = argv[++i];
            options.torch = false;
        }
        else
        {
            fprintf(stderr,
                    "usage: %s [--adapter WHICH] [--elements N] [--small N] [--repeat N] [--no-torch] [--only NAME]\n",
                    argv[0]);
            return 2;
        }
    }

    dmlconf_backend_config config = {.adapter = options.adapter};
    dmlconf_backend *backend = NULL;
    char why[512];
    static const large_case cases[] = {
        {"cumsum float32 1-D", 1, 0, DMLCONF_DATA_TYPE_FLOAT32},
        {"cumsum float32 2-D axis 1", 2, 1, DMLCONF_DATA_TYPE_FLOAT32},
        {"cumsum float32 2-D axis 0", 2, 0, DMLCONF_DATA_TYPE_FLOAT32},
        {"cumsum int32 1-D", 1, 0, DMLCONF_DATA_TYPE_INT32},
        {"cumsum int32 2-D axis 1", 2, 1, DMLCONF_DATA_TYPE_INT32},
        {"cumsum int32 2-D axis 0", 2, 0, DMLCONF_DATA_TYPE_INT32},
    };
    /* Each large scan runs in a child process of its own, with its own
     * device: in one long-lived process, later large jobs were measured
     * running slower on NVIDIA's driver than the same jobs in a fresh one. */
    int status = 0;
    bool first = true;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i)
    {
        if (options.only && !strstr(cases[i].name, options.only))
            continue;
        fflush(stdout);
        pid_t child = fork();
        if (child < 0)
        {
            printf("cannot fork: %s\n", strerror(errno));
            return 1;
        }
        if (child == 0)
            _exit(run_large_process(&options, &cases[i], first));
        int child_status = 0;
        if (waitpid(child, &child_status, 0) < 0 || !WIFEXITED(child_status) || WEXITSTATUS(child_status))
            status = 1;
        first = false;
    }
    if (dmlconf_d3d12_backend_ops.open(&config, &backend, why, sizeof(why)))
    {
        printf("the D3D12 backend is unavailable: %s\n", why);
        return 1;
    }
    if (options.torch)
    {
        printf("\n");
        fflush(stdout);
        run_torch(options.elements);
    }
    if (options.only)
    {
        backend->ops->close(backend);
        return status;
    }
    printf("\n");
    small_set set;
    if (build_small(&set, options.small_cases))
    {
        printf("small cases: out of memory\n");
        status = 1;
    }
    else
    {
        run_small(backend, &set, 32);
        run_small(backend, &set, 1024);
    }
    release_small(&set);
    backend->ops->close(backend);
    return status;
}
