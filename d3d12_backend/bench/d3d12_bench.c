/*
 * dmlconf_d3d12_bench: how fast the D3D12 backend's scans run, in one run.
 *
 * - Large scans (10^8 elements by default): every shape the project tracks
 *   (1-D, the two axes of a square 2-D tensor, the middle axis of a 3-D
 *   tensor, many short lines, a few long strided lines, products, the
 *   decreasing direction) and, in 1-D, every data type with both operators
 *   in both directions. Each is timed with the backend's own per-dispatch
 *   GPU timestamps (the best of --repeat runs after a warm-up), checked
 *   element by element against a CPU scan (the inputs are chosen so that
 *   every result is exact), and set against a plain copy kernel moving the
 *   same number of bytes through the same D3D12 path.
 * - torch.cumsum / torch.cumprod on the same GPU for the same shapes, when
 *   python3 with PyTorch and a CUDA device is there (one Python process run
 *   after the scans); otherwise the table says why the column is empty.
 * - Small-case throughput: thousands of small random jobs executed through
 *   the backend's execute in batches of 32 (as `dmlconf run` sends them) and
 *   of 1024, in cases per second of wall time (upload, kernels and read-back
 *   included; the oracle and comparator are not), and what opening the
 *   backend and building the kernels costs.
 *
 * Each large scan runs in a child process of its own with its own device
 * (--same-process runs them one after another in one process instead;
 * --release-between frees the backend's buffers after each, --no-copy
 * skips the copy kernel and its two buffers).
 *
 * GPU clocks: an NVIDIA GPU raises its clocks when a process opens a device
 * and lowers them step by step once it has been nearly idle for a few
 * seconds; scans of a millisecond or less between seconds of host work (the
 * upload, the check) do not raise them again, so in one long-lived process
 * every scan after the first few ran 2-4x slower. A process of its own is
 * no cure: on an H100 a case's process saw the copy kernel at full speed
 * and then all three of its timed scans 4.3x slower than in any later run
 * (reports/gpu/nvidia-h100-2026-11-26-3/), and the SM clock was seen
 * dipping to 900-1140 MHz between runs of one process. --warm-up-ms N keeps
 * the GPU busy with copy kernels for N ms before each run (default 300 on
 * a hardware adapter, 0 on a CPU one).
 *
 * --only TEXT picks the large cases whose name holds TEXT, or, with
 * "=NAME", the case of that name.
 *
 * A large scan's time runs from its first dispatch's start to its last
 * one's end (the barriers between dispatches included, as torch's CUDA
 * events include its launches); a plan of several dispatches also prints
 * the dispatches' own times added up ("= X in dispatches").
 *
 * --dispatch-costs first measures what a plan of several dispatches pays
 * on this stack: the copy kernel over --elements words in one dispatch and
 * cut into 8, 24 and 48, back to back, with UAV barriers between them, and
 * with barriers and timestamps around each.
 *
 * Usage: dmlconf_d3d12_bench [--adapter WHICH] [--elements N] [--small N] [--repeat N]
 *                            [--no-torch] [--no-small] [--only TEXT]... [--list]
 *                            [--same-process] [--release-between] [--no-copy] [--warm-up-ms N]
 *                            [--dispatch-costs]
 * Exit status: 0, or 1 when the backend cannot open or a result is wrong.
 */
#define _POSIX_C_SOURCE 200809L

#include "d3d12_backend_internal.h"
#include "dxbc_container.h"
#include "kernel_asm.h"

#include <dmlconf/clock.h>
#include <dmlconf/d3d12.h>
#include <dmlconf/integer_text.h>
#include <dmlconf/process.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ONLY 16

typedef struct bench_options
{
    const char *adapter;
    const char *only[MAX_ONLY]; /* run only the large cases whose name holds one of these ("=NAME": is it) */
    unsigned only_count;
    uint64_t elements;
    unsigned small_cases;
    unsigned repeat;
    bool torch;
    bool small;
    bool list;
    bool same_process;    /* every large case in one process, one after another */
    bool copy;            /* measure the copy kernel for each case */
    unsigned warm_up_ms;  /* keep the GPU busy this long before each run of a large case */
    bool warm_up_given;   /* --warm-up-ms was given (else 300, 0 on a CPU adapter) */
    bool release_between; /* --same-process: free the backend's buffers between cases */
    bool dispatch_costs;  /* measure what cutting a copy into dispatches costs, first */
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

/* Parses a whole number of milliseconds, 0 to 600000. */
static bool parse_milliseconds(const char *text, unsigned *value)
{
    uint64_t parsed;
    if (!dmlconf_parse_u64(text, 0, 600000, &parsed))
        return false;
    *value = (unsigned)parsed;
    return true;
}

/* ---- the cases ------------------------------------------------------------ */

typedef struct large_case
{
    char name[128];
    dmlconf_data_type type;
    dmlconf_operator op;
    uint32_t rank;
    uint32_t sizes[3];
    uint32_t axis;
    bool decreasing;
    bool exclusive;
    /* The tracker's reference on an H100 (ms): dmlconf before this
     * benchmark's kernels and torch; < 0 when the shape is not in it. */
    double tracked_dmlconf_ms, tracked_torch_ms;
} large_case;

typedef struct case_list
{
    large_case items[64];
    size_t count;
} case_list;

static unsigned type_bytes(dmlconf_data_type type)
{
    return dmlconf_data_type_bits(type) / 8;
}

/* Adds a case; the name says the operator, type, shape, axis and mode. */
static void add_case(case_list *list, dmlconf_operator op, dmlconf_data_type type, uint32_t rank, const uint32_t *sizes,
                     uint32_t axis, bool decreasing, bool exclusive, double tracked_dmlconf, double tracked_torch)
{
    if (list->count == sizeof(list->items) / sizeof(list->items[0]))
    {
        fprintf(stderr, "dmlconf_d3d12_bench: more cases than the list holds\n");
        exit(1);
    }
    large_case *c = &list->items[list->count++];
    memset(c, 0, sizeof(*c));
    c->type = type;
    c->op = op;
    c->rank = rank;
    memcpy(c->sizes, sizes, rank * sizeof(sizes[0]));
    c->axis = axis;
    c->decreasing = decreasing;
    c->exclusive = exclusive;
    c->tracked_dmlconf_ms = tracked_dmlconf;
    c->tracked_torch_ms = tracked_torch;
    char shape[64];
    if (rank == 1)
        snprintf(shape, sizeof(shape), "1-D");
    else if (rank == 2)
        snprintf(shape, sizeof(shape), "%ux%u axis %u", sizes[0], sizes[1], axis);
    else
        snprintf(shape, sizeof(shape), "%ux%ux%u axis %u", sizes[0], sizes[1], sizes[2], axis);
    snprintf(c->name, sizeof(c->name), "%s %s %s%s%s", op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? "cumprod" : "cumsum",
             dmlconf_data_type_lower_name(type), shape, decreasing ? " dec" : "", exclusive ? " excl" : "");
}

/* Every case for about `n` elements: the tracked shapes first, then the
 * 1-D matrix of types, operators and directions. */
static void build_cases(case_list *list, uint64_t n)
{
    const dmlconf_operator sum = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, product = DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    const dmlconf_data_type f32 = DMLCONF_DATA_TYPE_FLOAT32, f16 = DMLCONF_DATA_TYPE_FLOAT16,
                            i32 = DMLCONF_DATA_TYPE_INT32, i64 = DMLCONF_DATA_TYPE_INT64;
    uint32_t side = (uint32_t)sqrt((double)n);
    while ((uint64_t)side * side > n)
        side--;
    uint32_t hundredth = (uint32_t)(n / 100 ? n / 100 : 1);
    uint32_t cube_side = (uint32_t)sqrt((double)hundredth);
    while ((uint64_t)cube_side * cube_side > hundredth)
        cube_side--;
    const uint32_t one[1] = {(uint32_t)n}, square[2] = {side, side};
    const uint32_t cube[3] = {100, cube_side, cube_side};
    const uint32_t short_lines[2] = {hundredth, 100}, long_lines[2] = {100, hundredth};
    list->count = 0;
    add_case(list, sum, f32, 1, one, 0, false, false, 0.48, 0.40);
    add_case(list, sum, f32, 2, square, 1, false, false, 0.31, 0.60);
    add_case(list, sum, f32, 2, square, 0, false, false, 0.52, 3.92);
    add_case(list, sum, f16, 1, one, 0, false, false, 4.02, 0.43);
    add_case(list, sum, f16, 2, square, 0, false, false, 4.03, 3.81);
    add_case(list, sum, i64, 1, one, 0, false, false, 3.63, 0.72);
    add_case(list, sum, DMLCONF_DATA_TYPE_UINT64, 2, square, 0, false, false, 2.73, 4.30);
    add_case(list, product, f32, 1, one, 0, false, false, 1.54, 0.40);
    add_case(list, product, i32, 2, square, 1, false, false, 1.13, 0.60);
    add_case(list, sum, f32, 3, cube, 1, false, false, 1.33, 0.55);
    add_case(list, sum, f32, 2, short_lines, 1, false, false, 6.11, 5.57);
    add_case(list, sum, f32, 2, long_lines, 0, false, false, 0.80, 0.34);
    add_case(list, sum, f32, 1, one, 0, true, true, 1.54, 1.02);
    add_case(list, sum, i32, 1, one, 0, false, false, -1, -1);
    add_case(list, sum, i32, 2, square, 1, false, false, -1, -1);
    add_case(list, sum, i32, 2, square, 0, false, false, -1, -1);
    static const dmlconf_data_type types[] = {DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_FLOAT16,
                                              DMLCONF_DATA_TYPE_INT32,   DMLCONF_DATA_TYPE_UINT32,
                                              DMLCONF_DATA_TYPE_INT64,   DMLCONF_DATA_TYPE_UINT64};
    for (int o = 0; o < 2; ++o)
    {
        for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); ++t)
        {
            for (int decreasing = 0; decreasing < 2; ++decreasing)
            {
                dmlconf_operator op = o ? product : sum;
                bool tracked =
                    !decreasing &&
                    ((op == sum && (types[t] == f32 || types[t] == f16 || types[t] == i32 || types[t] == i64)) ||
                     (op == product && types[t] == f32));
                if (!tracked)
                    add_case(list, op, types[t], 1, one, 0, decreasing != 0, false, -1, -1);
            }
        }
    }
}

static bool selected(const bench_options *options, const large_case *c)
{
    if (!options->only_count)
        return true;
    for (unsigned i = 0; i < options->only_count; ++i)
    {
        const char *only = options->only[i];
        if (only[0] == '=' ? !strcmp(c->name, only + 1) : strstr(c->name, only) != NULL)
            return true;
    }
    return false;
}

static void describe_tensor(const large_case *c, dmlconf_scan_desc *desc)
{
    memset(desc, 0, sizeof(*desc));
    desc->op = c->op;
    desc->input.data_type = c->type;
    desc->input.dimension_count = c->rank;
    memcpy(desc->input.sizes, c->sizes, c->rank * sizeof(c->sizes[0]));
    desc->output = desc->input;
    desc->axis = c->axis;
    desc->direction = c->decreasing ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING;
    desc->exclusive = c->exclusive;
}

/* ---- inputs and the CPU reference ---------------------------------------- */

/* Fills the input so that every prefix is exact in the element type: sums
 * of small integers (-3..3 in float32, -1..1 in float16), products of +-1
 * in floating point, full-width random integers (wrapping) for sums and odd
 * ones for products. */
static void fill_input(const large_case *c, unsigned char *data, uint64_t count)
{
    uint64_t state = UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)c->type * 977 ^ (uint64_t)c->op;
    bool product = c->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    for (uint64_t i = 0; i < count; ++i)
    {
        uint64_t r = next_random(&state);
        switch (c->type)
        {
        case DMLCONF_DATA_TYPE_FLOAT32:
        {
            float value = product ? (r >> 63 ? -1.0f : 1.0f) : (float)((int)((r >> 32) % 7) - 3);
            memcpy(data + 4 * i, &value, 4);
            break;
        }
        case DMLCONF_DATA_TYPE_FLOAT16:
        {
            double value = product ? (r >> 63 ? -1.0 : 1.0) : (double)((int)((r >> 32) % 3) - 1);
            uint16_t half = dmlconf_half_from_double(value);
            memcpy(data + 2 * i, &half, 2);
            break;
        }
        case DMLCONF_DATA_TYPE_INT32:
        case DMLCONF_DATA_TYPE_UINT32:
        {
            uint32_t value = (uint32_t)(r >> 32) | (product ? 1u : 0u);
            memcpy(data + 4 * i, &value, 4);
            break;
        }
        default:
        {
            uint64_t value = r | (product ? 1u : 0u);
            memcpy(data + 8 * i, &value, 8);
            break;
        }
        }
    }
}

/* Compares the output with a scan on the CPU (exact for the inputs above).
 * Returns 0, or -1 after printing the first difference. */
static int verify(const large_case *c, const dmlconf_scan_desc *desc, const unsigned char *in, const unsigned char *out)
{
    uint64_t lines = dmlconf_line_count(&desc->input, desc->axis), n = desc->input.sizes[desc->axis];
    unsigned bytes = type_bytes(c->type);
    bool product = c->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    for (uint64_t l = 0; l < lines; ++l)
    {
        uint64_t first, step;
        dmlconf_line_layout(&desc->input, desc->axis, l, &first, &step, NULL, NULL);
        double fsum = product ? 1.0 : 0.0;
        uint64_t isum = product ? 1 : 0;
        for (uint64_t j = 0; j < n; ++j)
        {
            uint64_t at = first + (c->decreasing ? n - 1 - j : j) * step;
            uint64_t got = 0, expected = 0, x = 0;
            memcpy(&got, out + at * bytes, bytes);
            memcpy(&x, in + at * bytes, bytes);
            uint64_t before = isum;
            double fbefore = fsum;
            if (c->type == DMLCONF_DATA_TYPE_FLOAT32 || c->type == DMLCONF_DATA_TYPE_FLOAT16)
            {
                float value;
                if (c->type == DMLCONF_DATA_TYPE_FLOAT32)
                    memcpy(&value, &x, 4);
                else
                    value = dmlconf_half_to_float((uint16_t)x);
                fsum = product ? fsum * (double)value : fsum + (double)value;
                double result = c->exclusive ? fbefore : fsum;
                if (c->type == DMLCONF_DATA_TYPE_FLOAT32)
                {
                    float f = (float)result;
                    memcpy(&expected, &f, 4);
                }
                else
                    expected = dmlconf_half_from_double(result);
            }
            else
            {
                isum = product ? isum * x : isum + x;
                expected = c->exclusive ? before : isum;
                if (bytes == 4)
                    expected &= 0xffffffffu;
            }
            if (got != expected)
            {
                printf("%s: WRONG: line %llu element %llu (offset %llu) holds 0x%llx, expected 0x%llx\n", c->name,
                       (unsigned long long)l, (unsigned long long)j, (unsigned long long)at, (unsigned long long)got,
                       (unsigned long long)expected);
                return -1;
            }
        }
    }
    return 0;
}

/* ---- the copy kernel ------------------------------------------------------ */

/* Four 32-bit words per thread, a grid's width apart so that each row of
 * loads is coalesced: with t = id.y * cb0[0].y + id.x and T = cb0[0].z
 * threads, thread t < T copies words t, t + T, t + 2T, t + 3T (those below
 * cb0[0].x) from u0 to u1, issuing its four loads before any store.
 * `offset`: the words copied are those cb0[0].w further on in both views
 * (for a copy cut into dispatches inside one view). */
#define COPY_WORDS_PER_THREAD 4u

static int build_copy_kernel(bool offset, void **blob, size_t *size)
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
        if (offset)
            op3(&p, DXBC_OP_IADD, D(3, 0), S(3, 0), dxbc_cb(0, 0, 3));
        op3(&p, DXBC_OP_ISHL, D(3, 0), S(3, 0), I(2));
        op3(&p, DXBC_OP_LD_RAW, D(1, j), S(3, 0), dxbc_uav_src(0, DXBC_SWIZZLE_XXXX));
    }
    for (unsigned j = 0; j < COPY_WORDS_PER_THREAD; ++j)
    {
        op3(&p, DXBC_OP_ULT, D(3, 1), S(2, j), dxbc_cb(0, 0, 0));
        emit_if(&p, S(3, 1), true);
        if (offset)
        {
            op3(&p, DXBC_OP_IADD, D(3, 0), S(2, j), dxbc_cb(0, 0, 3));
            op3(&p, DXBC_OP_ISHL, D(3, 0), S(3, 0), I(2));
        }
        else
            op3(&p, DXBC_OP_ISHL, D(3, 0), S(2, j), I(2));
        op3(&p, DXBC_OP_STORE_RAW, dxbc_uav_dst(1, DXBC_MASK_X), S(3, 0), S(1, j));
        emit_endif(&p);
    }
    op0(&p, DXBC_OP_RET, 0);
    int failed = dxbc_program_finish(&p) || dxbc_container_build(p.words, p.count, blob, size);
    dxbc_program_release(&p);
    return failed ? -1 : 0;
}

/* How time_copy cuts the copy: into `dispatches` dispatches (0: one per
 * window of a buffer larger than a view, else one), back to back, or with
 * a UAV barrier between them, and also a pair of timestamps around each
 * (as the backend records a job's passes). */
typedef enum copy_mode
{
    COPY_BACK_TO_BACK,
    COPY_BARRIERS,
    COPY_BARRIERS_AND_STAMPS,
} copy_mode;

/* Times a copy of `bytes` (rounded up to words) between two device buffers,
 * cut as `mode` and `dispatches` say, all between one pair of timestamps:
 * the best of `repeat`, in seconds; < 0 (said why) on failure. */
static double time_copy_cut(d3d12_backend *b, uint64_t bytes, unsigned repeat, unsigned dispatches, copy_mode mode)
{
    d3d12_device *d = &b->device;
    char why[256];
    double best = -1.0;
    void *blob = NULL;
    size_t size = 0;
    ID3D12PipelineState *pipeline = NULL;
    ID3D12QueryHeap *queries = NULL;
    view_buffer in = {0}, out = {0};
    d3d12_buffer stamps = {0};
    uint64_t words = (bytes + 3) / 4, piece_words = words;
    /* The run's two, and (with stamps) two around each dispatch: there are
     * at most `dispatches` of them. */
    if (mode == COPY_BARRIERS_AND_STAMPS && !dispatches)
    {
        printf("copy kernel: timestamps around each dispatch need a number of dispatches\n");
        return -1.0;
    }
    uint32_t stamps_per_run = 2 + (mode == COPY_BARRIERS_AND_STAMPS ? 2 * dispatches : 0);
    if (build_copy_kernel(dispatches != 0, &blob, &size) ||
        d3d12_device_create_pipeline(d, b->pipelines.root_signature, blob, size, &pipeline, why, sizeof(why)) ||
        view_buffer_create(d, words * 4, b->view_bytes, &in, why, sizeof(why)) ||
        view_buffer_create(d, words * 4, b->view_bytes, &out, why, sizeof(why)) ||
        d3d12_buffer_create(d, D3D12_HEAP_TYPE_READBACK, 8 * (uint64_t)stamps_per_run * repeat, &stamps, why,
                            sizeof(why)))
    {
        printf("copy kernel: %s\n", why);
        goto done;
    }
    /* A buffer larger than a view is copied a window's stride at a time. */
    if (in.window_count)
        piece_words = in.stride / 4;
    if (dispatches)
    {
        piece_words = (words + dispatches - 1) / dispatches;
        if (in.window_count && piece_words > in.stride / 4)
        {
            printf("copy kernel: %u dispatches of a buffer larger than a view\n", dispatches);
            goto done;
        }
    }
    D3D12_QUERY_HEAP_DESC query_desc = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, stamps_per_run * repeat, 0};
    if (FAILED(ID3D12Device_CreateQueryHeap(d->device, &query_desc, &IID_ID3D12QueryHeap, (void **)&queries)) ||
        d3d12_device_begin(d, why, sizeof(why)))
    {
        printf("copy kernel: cannot record\n");
        goto done;
    }
    scan_pipelines_bind(&b->pipelines, d);
    ID3D12GraphicsCommandList *list = d->list;
    d3d12_transition(d, in.whole.resource, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    d3d12_transition(d, out.whole.resource, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    ID3D12GraphicsCommandList_SetPipelineState(list, pipeline);
    for (unsigned r = 0; r < repeat; ++r)
    {
        if (r)
            d3d12_uav_barrier(d);
        uint32_t query = stamps_per_run * r;
        ID3D12GraphicsCommandList_EndQuery(list, queries, D3D12_QUERY_TYPE_TIMESTAMP, query++);
        for (uint64_t first = 0; first < words; first += piece_words)
        {
            if (first && mode != COPY_BACK_TO_BACK)
                d3d12_uav_barrier(d);
            uint64_t count = words - first < piece_words ? words - first : piece_words;
            D3D12_GPU_VIRTUAL_ADDRESS from, to;
            uint64_t start;
            if (view_buffer_find(&in, first * 4, (first + count) * 4, &from, &start) ||
                view_buffer_find(&out, first * 4, (first + count) * 4, &to, &start) ||
                (!dispatches && start != first * 4))
            {
                printf("copy kernel: no view holds words %llu to %llu\n", (unsigned long long)first,
                       (unsigned long long)(first + count));
                ID3D12GraphicsCommandList_Close(list);
                d->recording = false;
                goto done;
            }
            uint64_t threads = (count + COPY_WORDS_PER_THREAD - 1) / COPY_WORDS_PER_THREAD;
            uint32_t groups = (uint32_t)((threads + 255) / 256);
            uint32_t groups_x = groups <= 65535u ? groups : 32768u;
            uint32_t groups_y = (groups + groups_x - 1) / groups_x;
            /* The grid's width T: every thread of the grid, so the last rows
             * of words are covered even when the grid has spare threads. */
            uint32_t constants[SCAN_ROOT_CONSTANTS] = {(uint32_t)count, groups_x * 256u, (uint32_t)threads,
                                                       (uint32_t)(first - start / 4)};
            ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(list, SCAN_ROOT_PARAMETER_CONSTANTS,
                                                                   SCAN_ROOT_CONSTANTS, constants, 0);
            for (unsigned u = 0; u < SCAN_UAV_COUNT; ++u)
                ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(list, SCAN_ROOT_PARAMETER_UAV0 + u,
                                                                            u == 1 ? to : from);
            if (mode == COPY_BARRIERS_AND_STAMPS)
                ID3D12GraphicsCommandList_EndQuery(list, queries, D3D12_QUERY_TYPE_TIMESTAMP, query++);
            ID3D12GraphicsCommandList_Dispatch(list, groups_x, groups_y, 1);
            if (mode == COPY_BARRIERS_AND_STAMPS)
                ID3D12GraphicsCommandList_EndQuery(list, queries, D3D12_QUERY_TYPE_TIMESTAMP, query++);
        }
        ID3D12GraphicsCommandList_EndQuery(list, queries, D3D12_QUERY_TYPE_TIMESTAMP,
                                           stamps_per_run * r + stamps_per_run - 1);
    }
    ID3D12GraphicsCommandList_ResolveQueryData(list, queries, D3D12_QUERY_TYPE_TIMESTAMP, 0, stamps_per_run * repeat,
                                               stamps.resource, 0);
    if (d3d12_device_submit(d, why, sizeof(why)))
    {
        printf("copy kernel: %s\n", why);
        goto done;
    }
    const uint64_t *ticks = stamps.mapped;
    for (unsigned r = 0; r < repeat && d->timestamp_frequency; ++r)
    {
        const uint64_t *run = ticks + (size_t)stamps_per_run * r;
        double seconds = (double)(run[stamps_per_run - 1] - run[0]) / (double)d->timestamp_frequency;
        if (best < 0 || seconds < best)
            best = seconds;
    }

done:
    free(blob);
    if (pipeline)
        ID3D12PipelineState_Release(pipeline);
    if (queries)
        ID3D12QueryHeap_Release(queries);
    view_buffer_release(&in);
    view_buffer_release(&out);
    d3d12_buffer_release(&stamps);
    return best;
}

/* A copy of `bytes` as the copy kernel's baseline: one dispatch, or one
 * per window of a buffer larger than a view. */
static double time_copy(d3d12_backend *b, uint64_t bytes, unsigned repeat)
{
    return time_copy_cut(b, bytes, repeat, 0, COPY_BACK_TO_BACK);
}

/* ---- one large scan ------------------------------------------------------- */

/* What a large case measured (sent from its process to the parent). */
typedef struct case_result
{
    int status;              /* 0: ran and verified; -1: failed or wrong */
    double seconds;          /* best GPU time: from the first dispatch's start to the last one's end */
    double dispatch_seconds; /* in that run, the dispatches' own times added up (barriers left out) */
    double copy_seconds;     /* the copy kernel on the same bytes; < 0 unknown */
    char passes[240];        /* the best run's dispatches: "tile.f32.sum 0.121 + ..." */
} case_result;

/* Appends text to a bounded field, marking a cut with "...". */
static void append_text(char *field, size_t size, const char *text)
{
    size_t used = strlen(field), length = strlen(text);
    if (used + length + 1 <= size)
    {
        memcpy(field + used, text, length + 1);
        return;
    }
    if (size >= 4)
        memcpy(field + size - 4, "...", 4);
}

/* Runs one large case `repeat` times after a warm-up and verifies its last
 * output; prints one line. */
/* Keeps the GPU busy with copy kernels over 64 MiB for at least `ms`
 * milliseconds of wall time, so that its clocks are up when the next job
 * runs (a GPU idle for seconds slows its clocks down, and sub-millisecond
 * jobs do not bring them back). */
static void keep_busy(d3d12_backend *b, unsigned ms)
{
    double end = dmlconf_clock_seconds() + ms / 1e3;
    while (dmlconf_clock_seconds() < end)
        if (time_copy(b, UINT64_C(64) << 20, 100) < 0)
            return;
}

static case_result run_large(d3d12_backend *b, const large_case *c, unsigned repeat, bool copy, unsigned warm_up_ms)
{
    dmlconf_backend *backend = &b->base;
    case_result result;
    memset(&result, 0, sizeof(result));
    result.status = -1;
    result.copy_seconds = -1.0;
    dmlconf_scan_desc desc;
    describe_tensor(c, &desc);
    uint64_t count = dmlconf_tensor_element_count(&desc.input), bytes = 0;
    dmlconf_tensor_min_size_bytes(&desc.input, &bytes);
    unsigned char *input = malloc((size_t)bytes), *output = malloc((size_t)bytes);
    if (!input || !output)
    {
        printf("%-44s out of memory\n", c->name);
        free(input);
        free(output);
        return result;
    }
    fill_input(c, input, count);
    memset(output, 0, (size_t)bytes);
    if (copy)
    {
        if (warm_up_ms)
            keep_busy(b, warm_up_ms);
        result.copy_seconds = time_copy(b, count * type_bytes(c->type), repeat);
    }
    dmlconf_job job;
    double best = -1.0;
    for (unsigned r = 0; r <= repeat; ++r)
    {
        memset(&job, 0, sizeof(job));
        job.desc = &desc;
        job.feature_level = DMLCONF_FEATURE_LEVEL_5_0;
        job.input = input;
        job.input_bytes = (size_t)bytes;
        job.output = output;
        job.output_bytes = (size_t)bytes;
        if (warm_up_ms)
            keep_busy(b, warm_up_ms);
        backend->ops->execute(backend, &job, 1);
        if (job.outcome != DMLCONF_JOB_DONE)
        {
            printf("%-44s failed: %s\n", c->name, job.message);
            free(input);
            free(output);
            return result;
        }
        /* Run 0 warms up (pipelines, buffers, clocks) and is not timed. A
         * run's time is its span, the barriers between its dispatches
         * included, as torch's events time its launches. */
        double span = job.device_seconds;
        if (b->last_pass_count)
            span = b->last_passes[b->last_pass_count - 1].start + b->last_passes[b->last_pass_count - 1].seconds;
        if (r && span > 0 && (best < 0 || span < best))
        {
            best = span;
            result.dispatch_seconds = job.device_seconds;
            result.passes[0] = '\0';
            for (size_t p = 0; p < b->last_pass_count; ++p)
            {
                char text[96];
                snprintf(text, sizeof(text), "%s%s %.3f", p ? " + " : "", b->last_passes[p].name,
                         b->last_passes[p].seconds * 1e3);
                append_text(result.passes, sizeof(result.passes), text);
            }
        }
    }
    result.seconds = best;
    result.status = verify(c, &desc, input, output);
    double traffic = 2.0 * (double)count * type_bytes(c->type);
    char alone[48] = "";
    if (b->last_pass_count > 1)
        snprintf(alone, sizeof(alone), " = %.3f in dispatches", result.dispatch_seconds * 1e3);
    printf("%-44s %6.3f ms %7.1f GB/s %5.1f%% of copy%s  [%s%s]\n", c->name, best * 1e3,
           best > 0 ? traffic / best / 1e9 : 0,
           best > 0 && result.copy_seconds > 0 ? 100.0 * result.copy_seconds / best : 0.0,
           result.status ? "  WRONG" : "  verified", result.passes, alone);
    fflush(stdout);
    free(input);
    free(output);
    return result;
}

/* ---- processes ------------------------------------------------------------ */

typedef struct child_work
{
    const bench_options *options;
    const case_list *cases;
    const bool *chosen; /* which cases this child runs, in order */
} child_work;

/* A child: opens the backend, runs its cases, sends one case_result per
 * case over `output_fd`. */
static int child_main(void *context, int input_fd, int output_fd)
{
    (void)input_fd;
    const child_work *work = context;
    dmlconf_backend_config config = {.adapter = work->options->adapter};
    dmlconf_backend *backend = NULL;
    char why[512];
    if (dmlconf_d3d12_backend_ops.open(&config, &backend, why, sizeof(why)))
    {
        printf("the D3D12 backend is unavailable: %s\n", why);
        fflush(stdout);
        return 1;
    }
    d3d12_backend *b = (d3d12_backend *)backend;
    int status = 0;
    for (size_t i = 0; i < work->cases->count; ++i)
    {
        if (!work->chosen[i])
            continue;
        case_result result =
            run_large(b, &work->cases->items[i], work->options->repeat, work->options->copy, work->options->warm_up_ms);
        status |= result.status != 0;
        const char *p = (const char *)&result;
        size_t left = sizeof(result);
        while (left)
        {
            long n = (long)write(output_fd, p, left);
            if (n <= 0)
            {
                backend->ops->close(backend);
                return 1;
            }
            p += n;
            left -= (size_t)n;
        }
        if (work->options->release_between)
            d3d12_backend_release_buffers(b);
    }
    backend->ops->close(backend);
    return status;
}

/* Runs the chosen cases in one child; fills results[i] for each. Returns 0
 * when the child ran them all. */
static int run_child(const bench_options *options, const case_list *cases, const bool *chosen, case_result *results)
{
    child_work work = {options, cases, chosen};
    dmlconf_process_options spawn = {.function = child_main, .context = &work};
    dmlconf_process *child = NULL;
    char why[256];
    fflush(stdout);
    if (dmlconf_process_start(&spawn, &child, why, sizeof(why)))
    {
        printf("cannot start a process: %s\n", why);
        return -1;
    }
    int status = 0;
    for (size_t i = 0; i < cases->count && !status; ++i)
    {
        if (!chosen[i])
            continue;
        size_t got = 0;
        while (got < sizeof(results[i]))
        {
            long n = dmlconf_process_read(child, (char *)&results[i] + got, sizeof(results[i]) - got, -1.0);
            if (n <= 0)
            {
                status = -1;
                break;
            }
            got += (size_t)n;
        }
    }
    dmlconf_exit end;
    dmlconf_process_finish(child, 30.0, &end);
    if (end.kind != DMLCONF_EXIT_STATUS || end.code != 0)
    {
        char text[128];
        dmlconf_exit_describe(&end, text, sizeof(text));
        if (status || end.kind != DMLCONF_EXIT_STATUS)
            printf("the benchmark's process %s\n", text);
        status = -1;
    }
    return status;
}

/* ---- torch ---------------------------------------------------------------- */

/* Times each case given as "index:dtype:op:size,size:dim:flip" with CUDA
 * events (the best of 10 after a warm-up) and prints "case INDEX MS", or
 * "case INDEX unsupported REASON"; the first line names torch and the GPU,
 * or says why torch cannot run. */
static const char torch_snippet[] =
    "import sys\n"
    "try:\n"
    "    import torch\n"
    "except Exception as e:\n"
    "    print('torch: unavailable (%s)' % e); sys.exit(0)\n"
    "if not torch.cuda.is_available():\n"
    "    print('torch: no CUDA device'); sys.exit(0)\n"
    "print('torch %s on %s (CUDA %s)' % (torch.__version__, torch.cuda.get_device_name(0), torch.version.cuda))\n"
    "sys.stdout.flush()\n"
    "types = {'float32': torch.float32, 'float16': torch.float16, 'int32': torch.int32,\n"
    "         'uint32': torch.int32, 'int64': torch.int64, 'uint64': torch.int64}\n"
    "def timed(f, reps=10):\n"
    "    f(); torch.cuda.synchronize(); best = 1e9\n"
    "    for _ in range(reps):\n"
    "        a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)\n"
    "        a.record(); f(); b.record(); torch.cuda.synchronize(); best = min(best, a.elapsed_time(b))\n"
    "    return best\n"
    "for spec in sys.argv[1:]:\n"
    "    index, dtype, op, sizes, dim, flip = spec.split(':')\n"
    "    shape = tuple(int(s) for s in sizes.split(',')); dim = int(dim); dt = types[dtype]\n"
    "    try:\n"
    "        if op == 'sum':\n"
    "            x = torch.randint(-3, 4, shape, device='cuda').to(dt)\n"
    "        else:\n"
    "            x = (torch.randint(0, 2, shape, device='cuda') * 2 - 1).to(dt)\n"
    "        y = torch.empty_like(x)\n"
    "        scan = torch.cumsum if op == 'sum' else torch.cumprod\n"
    "        if flip == '1':\n"
    "            f = lambda: torch.flip(scan(torch.flip(x, [dim]), dim), [dim])\n"
    "        else:\n"
    "            f = lambda: scan(x, dim, out=y)\n"
    "        print('case %s %.4f' % (index, timed(f)))\n"
    "        del x, y\n"
    "        torch.cuda.empty_cache()\n"
    "    except Exception as e:\n"
    "        print('case %s unsupported %s' % (index, str(e).splitlines()[0] if str(e) else type(e).__name__))\n"
    "    sys.stdout.flush()\n";

/* Runs the snippet over the chosen cases; fills torch_ms (< 0: none) and
 * `about` (its first line, or why there is no torch column). */
static void run_torch(const case_list *cases, const bool *chosen, double *torch_ms, char *about, size_t about_size)
{
    char(*specs)[96] = calloc(cases->count, sizeof(*specs));
    const char **argv = calloc(cases->count + 4, sizeof(*argv));
    snprintf(about, about_size, "torch: not run");
    for (size_t i = 0; i < cases->count; ++i)
        torch_ms[i] = -1.0;
    if (!specs || !argv)
    {
        free(specs);
        free(argv);
        return;
    }
    size_t argc = 0;
    argv[argc++] = "python3";
    argv[argc++] = "-c";
    argv[argc++] = torch_snippet;
    for (size_t i = 0; i < cases->count; ++i)
    {
        if (!chosen[i])
            continue;
        const large_case *c = &cases->items[i];
        char sizes[40] = "";
        for (uint32_t d = 0; d < c->rank; ++d)
        {
            char one[16];
            snprintf(one, sizeof(one), "%s%u", d ? "," : "", c->sizes[d]);
            append_text(sizes, sizeof(sizes), one);
        }
        snprintf(specs[i], sizeof(specs[i]), "%zu:%s:%s:%s:%u:%d", i, dmlconf_data_type_lower_name(c->type),
                 c->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? "product" : "sum", sizes, c->axis,
                 c->decreasing ? 1 : 0);
        argv[argc++] = specs[i];
    }
    argv[argc] = NULL;
    dmlconf_process_options spawn = {.argv = argv, .stderr_mode = DMLCONF_CHILD_STDERR_CAPTURE};
    dmlconf_process *python = NULL;
    char why[160];
    if (dmlconf_process_start(&spawn, &python, why, sizeof(why)))
    {
        snprintf(about, about_size, "torch: python3 cannot run (%s)", why);
        free(specs);
        free(argv);
        return;
    }
    char buffer[65536];
    size_t used = 0;
    bool first = true;
    for (;;)
    {
        long n = dmlconf_process_read(python, buffer + used, sizeof(buffer) - 1 - used, -1.0);
        if (n <= 0)
            break;
        used += (size_t)n;
        buffer[used] = '\0';
        char *line = buffer, *end;
        while ((end = strchr(line, '\n')))
        {
            *end = '\0';
            size_t index;
            double ms;
            char word[16];
            if (first)
            {
                snprintf(about, about_size, "%s", line);
                first = false;
            }
            else if (sscanf(line, "case %zu %15s", &index, word) == 2 && index < cases->count)
            {
                char *after = NULL;
                ms = strtod(word, &after);
                if (after && !*after)
                    torch_ms[index] = ms;
                else
                    printf("torch, %s: %s\n", cases->items[index].name, line);
            }
            line = end + 1;
        }
        used = strlen(line);
        memmove(buffer, line, used + 1);
        if (used == sizeof(buffer) - 1)
            used = 0; /* a line longer than the buffer: dropped */
    }
    dmlconf_exit end;
    dmlconf_process_end(python, 5.0, &end);
    if (end.kind != DMLCONF_EXIT_STATUS || end.code != 0)
    {
        char text[128], *tail = dmlconf_process_stderr_tail(python);
        dmlconf_exit_describe(&end, text, sizeof(text));
        printf("torch: python3 %s%s%s\n", text, tail && *tail ? ": " : "", tail ? tail : "");
        free(tail);
    }
    dmlconf_process_finish(python, 0.0, NULL);
    free(specs);
    free(argv);
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

/* Runs the set in batches; returns the wall time in seconds. */
static double run_small(dmlconf_backend *backend, small_set *set, size_t batch, bool quiet)
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
    if (!quiet)
        printf("small cases, batches of %-5zu %8zu cases in %6.2f s: %9.0f cases/s  (mean device time %.1f us per "
               "case)%s\n",
               batch, done, wall, (double)done / wall, done ? device / (double)done * 1e6 : 0.0,
               failed ? "  SOME FAILED" : "");
    return wall;
}

/* Opening the backend, the first batches (kernels built on first use) and
 * the small-case throughput, in this process. Returns 0, or 1 when the
 * backend does not open. */
static int run_small_cases(const bench_options *options)
{
    dmlconf_backend_config config = {.adapter = options->adapter};
    dmlconf_backend *backend = NULL;
    char why[512];
    double start = dmlconf_clock_seconds();
    if (dmlconf_d3d12_backend_ops.open(&config, &backend, why, sizeof(why)))
    {
        printf("the D3D12 backend is unavailable: %s\n", why);
        return 1;
    }
    double opened = dmlconf_clock_seconds() - start;
    small_set set;
    if (build_small(&set, options->small_cases))
    {
        printf("small cases: out of memory\n");
        release_small(&set);
        backend->ops->close(backend);
        return 1;
    }
    /* The first pass over the set builds every kernel variant it needs. */
    double first = run_small(backend, &set, 32, true);
    printf("opening the backend: %.3f s; the first %zu small cases (building their kernels): %.3f s\n", opened,
           set.count, first);
    run_small(backend, &set, 32, false);
    run_small(backend, &set, 1024, false);
    release_small(&set);
    backend->ops->close(backend);
    return 0;
}

/* ---- dispatch costs -------------------------------------------------------- */

/* What a plan of several dispatches pays on this stack: the copy kernel
 * over `words` 32-bit words in one dispatch, and cut into 8, 24 and 48
 * dispatches back to back, with a UAV barrier between them, and with
 * barriers and a pair of timestamps around each (as the backend records a
 * job); each the best of `repeat` after the GPU is kept busy. Returns 0, or
 * 1 when the backend does not open or a copy fails. */
static int run_dispatch_costs(const bench_options *options, uint64_t words)
{
    static const unsigned counts[] = {1, 8, 24, 48};
    static const char *const modes[] = {"back to back", "UAV barriers", "barriers, stamps"};
    dmlconf_backend_config config = {.adapter = options->adapter};
    dmlconf_backend *backend = NULL;
    char why[512];
    if (dmlconf_d3d12_backend_ops.open(&config, &backend, why, sizeof(why)))
    {
        printf("the D3D12 backend is unavailable: %s\n", why);
        return 1;
    }
    d3d12_backend *b = (d3d12_backend *)backend;
    printf("dispatch costs: the copy kernel over %.0f MB, cut into dispatches (best of %u, ms; in brackets, each "
           "dispatch past the first, us)\n",
           (double)words * 4 / 1e6, options->repeat);
    printf("%-12s %26s %26s %26s\n", "dispatches", modes[0], modes[1], modes[2]);
    double one = -1.0;
    int status = 0;
    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]) && !status; ++i)
    {
        printf("%-12u", counts[i]);
        for (unsigned mode = 0; mode < 3; ++mode)
        {
            if (options->warm_up_ms)
                keep_busy(b, options->warm_up_ms);
            double seconds = time_copy_cut(b, words * 4, options->repeat, counts[i], (copy_mode)mode);
            if (seconds < 0)
            {
                status = 1;
                break;
            }
            if (counts[i] == 1 && mode == COPY_BACK_TO_BACK)
                one = seconds;
            char extra[32] = "";
            if (counts[i] > 1 && one > 0)
                snprintf(extra, sizeof(extra), " (%+.2f)", (seconds - one) / (counts[i] - 1) * 1e6);
            printf(" %15.4f%-11s", seconds * 1e3, extra);
        }
        printf("\n");
    }
    fflush(stdout);
    backend->ops->close(backend);
    return status;
}

/* ---- the summary ---------------------------------------------------------- */

static void print_summary(const case_list *cases, const bool *chosen, const case_result *results,
                          const double *torch_ms, const char *torch_about)
{
    printf("\n%s\n", torch_about);
    printf("\n%-44s %9s %9s %8s %10s %8s %10s %10s\n", "case", "ms", "GB/s", "% copy", "torch ms", "vs torch",
           "tracked", "tracked");
    printf("%-44s %9s %9s %8s %10s %8s %10s %10s\n", "", "", "", "", "", "", "dmlconf ms", "torch ms");
    for (size_t i = 0; i < cases->count; ++i)
    {
        if (!chosen[i])
            continue;
        const large_case *c = &cases->items[i];
        const case_result *r = &results[i];
        char ms[16] = "-", gbps[16] = "-", copy[16] = "-", torch[16] = "-", ratio[16] = "-", tracked[2][16];
        if (r->status == 0 && r->seconds > 0)
        {
            uint64_t count = 1;
            for (uint32_t d = 0; d < c->rank; ++d)
                count *= c->sizes[d];
            snprintf(ms, sizeof(ms), "%.3f", r->seconds * 1e3);
            snprintf(gbps, sizeof(gbps), "%.0f", 2.0 * (double)count * type_bytes(c->type) / r->seconds / 1e9);
            if (r->copy_seconds > 0)
                snprintf(copy, sizeof(copy), "%.1f", 100.0 * r->copy_seconds / r->seconds);
            if (torch_ms[i] > 0)
            {
                snprintf(torch, sizeof(torch), "%.3f", torch_ms[i]);
                snprintf(ratio, sizeof(ratio), "%.2fx", torch_ms[i] / (r->seconds * 1e3));
            }
        }
        else if (r->status)
            snprintf(ms, sizeof(ms), "FAILED");
        snprintf(tracked[0], sizeof(tracked[0]), c->tracked_dmlconf_ms > 0 ? "%.2f" : "-", c->tracked_dmlconf_ms);
        snprintf(tracked[1], sizeof(tracked[1]), c->tracked_torch_ms > 0 ? "%.2f" : "-", c->tracked_torch_ms);
        printf("%-44s %9s %9s %8s %10s %8s %10s %10s\n", c->name, ms, gbps, copy, torch, ratio, tracked[0], tracked[1]);
    }
    printf("\n%% copy: the copy kernel's time for the same bytes over the scan's time. vs torch: torch's time over\n"
           "ours (above 1x: dmlconf is faster). torch runs uint32 as int32 and uint64 as int64, and a decreasing scan\n"
           "as flip, scan, flip (without the exclusive shift). tracked: the tracker's H100 numbers before this\n"
           "benchmark's kernels.\n");
}

/* ---- main ----------------------------------------------------------------- */

static int usage(const char *program)
{
    fprintf(stderr,
            "usage: %s [--adapter WHICH] [--elements N] [--small N] [--repeat N] [--no-torch] [--no-small]\n"
            "          [--only TEXT]... [--list] [--same-process] [--release-between] [--no-copy] [--warm-up-ms N]\n"
            "          [--dispatch-costs]\n",
            program);
    return 2;
}

int main(int argc, char **argv)
{
    bench_options options = {
        .elements = 100000000u, .small_cases = 20000u, .repeat = 5u, .torch = true, .small = true, .copy = true};
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
        else if (!strcmp(argv[i], "--no-small"))
            options.small = false;
        else if (!strcmp(argv[i], "--list"))
            options.list = true;
        else if (!strcmp(argv[i], "--same-process"))
            options.same_process = true;
        else if (!strcmp(argv[i], "--release-between"))
            options.release_between = true;
        else if (!strcmp(argv[i], "--warm-up-ms") && i + 1 < argc &&
                 parse_milliseconds(argv[i + 1], &options.warm_up_ms))
        {
            options.warm_up_given = true;
            ++i;
        }
        else if (!strcmp(argv[i], "--no-copy"))
            options.copy = false;
        else if (!strcmp(argv[i], "--dispatch-costs"))
            options.dispatch_costs = true;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc && options.only_count < MAX_ONLY)
            options.only[options.only_count++] = argv[++i];
        else
            return usage(argv[0]);
    }

    static case_list cases;
    build_cases(&cases, options.elements);
    bool chosen[sizeof(cases.items) / sizeof(cases.items[0])] = {false};
    size_t chosen_count = 0;
    for (size_t i = 0; i < cases.count; ++i)
    {
        chosen[i] = selected(&options, &cases.items[i]);
        chosen_count += chosen[i];
        if (options.list && chosen[i])
            printf("%s\n", cases.items[i].name);
    }
    if (options.list)
        return 0;

    /* The adapter first, from a process of its own. */
    {
        dmlconf_backend_config config = {.adapter = options.adapter};
        dmlconf_backend *backend = NULL;
        char why[512];
        if (dmlconf_d3d12_backend_ops.open(&config, &backend, why, sizeof(why)))
        {
            printf("the D3D12 backend is unavailable: %s\n", why);
            return 1;
        }
        dmlconf_backend_info info;
        backend->ops->info(backend, &info);
        printf("adapter: %s\ndriver:  %s\nruntime: %s\n\n", info.adapter, info.driver, info.runtime);
        /* A CPU device has no clocks to raise, and its copies are slow. */
        if (!options.warm_up_given)
            options.warm_up_ms = info.software ? 0u : 300u;
        backend->ops->close(backend);
    }

    int status = 0;
    if (options.dispatch_costs)
    {
        status |= run_dispatch_costs(&options, options.elements);
        printf("\n");
    }
    case_result *results = calloc(cases.count, sizeof(*results));
    double *torch_ms = calloc(cases.count, sizeof(*torch_ms));
    if (!results || !torch_ms)
    {
        printf("out of memory\n");
        free(results);
        free(torch_ms);
        return 1;
    }
    for (size_t i = 0; i < cases.count; ++i)
        results[i].status = -1;
    if (chosen_count)
    {
        printf("large scans: %s, the GPU kept busy %u ms before each run\n",
               options.same_process ? "one after another in one process" : "each in a process of its own",
               options.warm_up_ms);
        printf("%-44s %9s %12s %14s  [%s]\n", "large scans (best GPU time)", "", "", "", "each pass: kernel ms");
        if (options.same_process)
            status |= run_child(&options, &cases, chosen, results) != 0;
        else
        {
            for (size_t i = 0; i < cases.count; ++i)
            {
                if (!chosen[i])
                    continue;
                bool one[sizeof(cases.items) / sizeof(cases.items[0])] = {false};
                one[i] = true;
                status |= run_child(&options, &cases, one, results) != 0;
            }
        }
        for (size_t i = 0; i < cases.count; ++i)
            status |= chosen[i] && results[i].status != 0;
        char about[256];
        snprintf(about, sizeof(about), "torch: not run (--no-torch)");
        for (size_t i = 0; i < cases.count; ++i)
            torch_ms[i] = -1.0;
        if (options.torch)
            run_torch(&cases, chosen, torch_ms, about, sizeof(about));
        print_summary(&cases, chosen, results, torch_ms, about);
    }
    free(results);
    free(torch_ms);
    if (options.small)
    {
        printf("\n");
        status |= run_small_cases(&options);
    }
    return status;
}
