/*
 * Planning a cumulative operator as kernel passes (see scan_plan.h).
 */
#include "scan_plan.h"

#include <dmlconf/reserve.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The folded non-axis dimensions of a block of lines, fastest first. */
typedef struct line_dims
{
    unsigned count;
    uint64_t size[DMLCONF_MAX_DIMENSIONS];
    uint64_t in_stride[DMLCONF_MAX_DIMENSIONS];
    uint64_t out_stride[DMLCONF_MAX_DIMENSIONS];
} line_dims;

/* One scan problem: every line of a block over one segment of the axis. */
typedef struct problem
{
    kernel_element element;
    uint8_t in_region, out_region;
    bool exclusive;
    line_dims dims;
    uint64_t lines;
    uint64_t n;
    int64_t in_first, out_first; /* element offsets of line 0's first element in scan order */
    int64_t in_step, out_step;
    bool carry_in, carry_out;
    uint64_t carry_base; /* scratch accumulator index of line 0's carry */
} problem;

typedef struct plan_context
{
    const plan_limits *limits;
    kernel_operation operation;
    kernel_element job_element;
    job_plan *plan;
    uint64_t scratch_next; /* next free scratch accumulator */
    char *why;
    size_t why_size;
    int failed;
} plan_context;

bool plan_element_of(dmlconf_data_type type, kernel_element *element)
{
    switch (type)
    {
    case DMLCONF_DATA_TYPE_FLOAT32:
        *element = ELEMENT_F32;
        return true;
    case DMLCONF_DATA_TYPE_FLOAT16:
        *element = ELEMENT_F16;
        return true;
    case DMLCONF_DATA_TYPE_INT32:
    case DMLCONF_DATA_TYPE_UINT32:
        *element = ELEMENT_I32;
        return true;
    case DMLCONF_DATA_TYPE_INT64:
    case DMLCONF_DATA_TYPE_UINT64:
        *element = ELEMENT_I64;
        return true;
    default:
        return false;
    }
}

void plan_release(job_plan *plan)
{
    free(plan->passes);
    memset(plan, 0, sizeof(*plan));
}

static void fail(plan_context *ctx, const char *message)
{
    if (!ctx->failed)
    {
        ctx->failed = 1;
        snprintf(ctx->why, ctx->why_size, "%s", message);
    }
}

static plan_pass *add_pass(plan_context *ctx)
{
    job_plan *plan = ctx->plan;
    if (!dmlconf_reserve((void **)&plan->passes, &plan->capacity, plan->count + 1, sizeof(*plan->passes)))
    {
        fail(ctx, "out of memory for the dispatch plan");
        return NULL;
    }
    plan_pass *pass = &plan->passes[plan->count++];
    memset(pass, 0, sizeof(*pass));
    return pass;
}

static uint64_t scratch_alloc(plan_context *ctx, uint64_t count)
{
    uint64_t base = ctx->scratch_next;
    ctx->scratch_next += count;
    return base;
}

/* The element-offset span of the lines (the largest line offset). */
static uint64_t line_span(const line_dims *dims, bool input)
{
    uint64_t span = 0;
    for (unsigned d = 0; d < dims->count; ++d)
        span += (dims->size[d] - 1) * (input ? dims->in_stride[d] : dims->out_stride[d]);
    return span;
}

/* Byte range [lo, hi) touched by n elements from `first` by `step` over
 * every line, in elements of `bytes` bytes; whole 32-bit words. */
static void touched_range(const line_dims *dims, bool input, int64_t first, int64_t step, uint64_t n, unsigned bytes,
                          uint64_t *lo, uint64_t *hi)
{
    int64_t last = first + (int64_t)(n - 1) * step;
    int64_t low = first < last ? first : last;
    int64_t high = (first < last ? last : first) + (int64_t)line_span(dims, input);
    *lo = (uint64_t)low * bytes / 4 * 4;
    *hi = ((uint64_t)high + 1) * bytes;
    *hi = (*hi + 3) / 4 * 4;
}

/* The cooperative kernels' shape for a problem: lines of chunk totals
 * (in scratch) have their own. */
static unsigned problem_shape(const plan_context *ctx, const problem *p)
{
    return p->in_region == REGION_SCRATCH ? ctx->limits->totals_shape : ctx->limits->tile_shape;
}

/* Whether the limits send some lines through a one-pass scan. */
static bool one_pass_wanted(const plan_limits *limits)
{
    return limits->lookback || (limits->forced && limits->forced_kind == KERNEL_LOOKBACK);
}

/* Whether that scan is the look-back kernel's (else chained tile passes). */
static bool one_pass_by_lookback_kernel(const plan_limits *limits)
{
    return (limits->forced && limits->forced_kind == KERNEL_LOOKBACK) || limits->lookback_tiles == 1;
}

/* Tiles per chunk of a chained pass: the knob's, or what measured best on
 * an H100 (reports/gpu/nvidia-h100-chained.md): chunks of 12-16 KiB, three
 * tiles of 1024 32-bit elements, four of 512 64-bit ones, six of 1024
 * float16 ones. */
static uint64_t chained_tiles(const plan_limits *limits, kernel_element element)
{
    if (limits->lookback_tiles >= 2)
        return limits->lookback_tiles;
    return element == ELEMENT_F16 ? 6u : element == ELEMENT_I64 ? 4u : 3u;
}

static plan_pass *emit_pass(plan_context *ctx, const problem *p, kernel_kind kind, uint64_t chunks, uint64_t chunk,
                            uint32_t flags, uint64_t init_base, uint64_t final_base)
{
    plan_pass *pass = add_pass(ctx);
    if (!pass)
        return NULL;
    bool own_data = p->in_region != REGION_SCRATCH;
    pass->key.kind = kind;
    pass->key.element = p->element;
    pass->key.operation = ctx->operation;
    pass->key.fault = own_data ? ctx->limits->fault : FAULT_NONE;
    /* The chunk-carry fault shows only where lines span two or more
     * folded dimensions. */
    if (pass->key.fault == FAULT_CHUNK_CARRY && p->dims.count < 2)
        pass->key.fault = FAULT_NONE;
    /* The serial and short-line kernels have one shape. */
    if (kind == KERNEL_SERIAL || kind == KERNEL_LINES)
        pass->key.shape = 0;
    else
        pass->key.shape = kind == KERNEL_LOOKBACK ? ctx->limits->tile_shape : problem_shape(ctx, p);
    pass->key.spans = (kind == KERNEL_LOOKBACK || (flags & SCAN_FLAG_CHAINED)) && ctx->limits->lookback_spans;
    if (!kernel_key_exists(&pass->key))
        pass->key.fault = FAULT_NONE;
    if (p->exclusive)
        flags |= SCAN_FLAG_EXCLUSIVE;
    if (kind != KERNEL_SERIAL)
        flags |= SCAN_FLAG_CHUNK_MAJOR;
    if (kind != KERNEL_SERIAL && p->in_step == p->out_step && (p->in_step == 1 || p->in_step == -1))
        flags |= SCAN_FLAG_BLOCKS;

    uint32_t *w = pass->params;
    w[SCAN_P_WORK_ITEMS] = (uint32_t)(p->lines * chunks);
    w[SCAN_P_LINES] = (uint32_t)p->lines;
    w[SCAN_P_CHUNKS] = (uint32_t)chunks;
    w[SCAN_P_CHUNK] = (uint32_t)chunk;
    w[SCAN_P_LENGTH] = (uint32_t)p->n;
    w[SCAN_P_IN_FIRST] = (uint32_t)p->in_first;
    w[SCAN_P_IN_STEP] = (uint32_t)p->in_step;
    w[SCAN_P_OUT_FIRST] = (uint32_t)p->out_first;
    w[SCAN_P_OUT_STEP] = (uint32_t)p->out_step;
    w[SCAN_P_FLAGS] = flags;
    w[SCAN_P_INIT_BASE] = (uint32_t)init_base;
    w[SCAN_P_FINAL_BASE] = (uint32_t)final_base;
    w[SCAN_P_DIMENSIONS] = p->dims.count;
    for (unsigned d = 0; d < p->dims.count; ++d)
    {
        w[SCAN_P_DIMENSION0 + 4 * d] = (uint32_t)p->dims.size[d];
        w[SCAN_P_DIMENSION0 + 4 * d + 1] = (uint32_t)p->dims.in_stride[d];
        w[SCAN_P_DIMENSION0 + 4 * d + 2] = (uint32_t)p->dims.out_stride[d];
    }

    unsigned element_bytes = kernel_element_bytes(p->element);
    unsigned acc_bytes = kernel_accumulator_bytes(ctx->job_element);
    pass->region[0] = p->in_region;
    pass->region[1] = p->out_region;
    pass->region[2] = REGION_SCRATCH;
    pass->element_bytes[0] = element_bytes;
    pass->element_bytes[1] = element_bytes;
    pass->element_bytes[2] = acc_bytes;
    pass->used[0] = true;
    touched_range(&p->dims, true, p->in_first, p->in_step, p->n, element_bytes, &pass->lo[0], &pass->hi[0]);
    pass->used[1] = (flags & SCAN_FLAG_STORE) != 0;
    if (pass->used[1])
        touched_range(&p->dims, false, p->out_first, p->out_step, p->n, element_bytes, &pass->lo[1], &pass->hi[1]);
    uint64_t slots = p->lines * chunks;
    uint64_t lo = UINT64_MAX, hi = 0;
    if (flags & SCAN_FLAG_INIT)
    {
        lo = init_base;
        hi = init_base + slots;
    }
    if (flags & SCAN_FLAG_FINAL)
    {
        lo = final_base < lo ? final_base : lo;
        hi = final_base + slots > hi ? final_base + slots : hi;
    }
    pass->used[2] = hi > 0;
    if (pass->used[2])
    {
        pass->lo[2] = lo * acc_bytes;
        pass->hi[2] = hi * acc_bytes;
    }
    return pass;
}

static uint64_t divide_up(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

static bool magnitude_at_most_one(int64_t step)
{
    return step >= -1 && step <= 1;
}

/* Whether the problem's lines move in memory-order blocks: steps of +1 or
 * -1, the same in both tensors (SCAN_FLAG_BLOCKS). */
static bool moves_in_blocks(const problem *p)
{
    return p->in_step == p->out_step && (p->in_step == 1 || p->in_step == -1);
}

/* Whether the problem's lines are short and packed one after another in
 * both tensors (the short-line kernel's case). */
static bool short_and_packed(const problem *p)
{
    return moves_in_blocks(p) && p->dims.count == 1 && p->dims.in_stride[0] == p->n && p->dims.out_stride[0] == p->n &&
           p->n >= 2 && p->n <= kernel_lines_block(p->element) / 2;
}

/* Plans a problem of short packed lines as one pass of the short-line
 * kernel: a thread group per block of lines. */
static void plan_lines(plan_context *ctx, const problem *p)
{
    uint64_t per_group = kernel_lines_block(p->element) / p->n;
    uint32_t flags = SCAN_FLAG_STORE | (p->carry_in ? SCAN_FLAG_INIT : 0u) | (p->carry_out ? SCAN_FLAG_FINAL : 0u);
    plan_pass *pass = emit_pass(ctx, p, KERNEL_LINES, 1, p->n, flags, p->carry_base, p->carry_base);
    if (!pass)
        return;
    pass->params[SCAN_P_WORK_ITEMS] = (uint32_t)divide_up(p->lines, per_group);
    pass->params[SCAN_P_CHUNK] = (uint32_t)per_group;
}

/* The one-pass scan's chunk length for a problem: the look-back kernel's
 * tile, or a chained pass's few tiles. */
static uint64_t lookback_chunk(const plan_context *ctx, const problem *p)
{
    uint64_t chunk = kernel_tile_elements(p->element, ctx->limits->tile_shape);
    if (!one_pass_by_lookback_kernel(ctx->limits))
        chunk = kernel_tile_elements(p->element, problem_shape(ctx, p)) * chained_tiles(ctx->limits, p->element);
    if (ctx->limits->max_chunk && ctx->limits->max_chunk < chunk)
        chunk = ctx->limits->max_chunk;
    return chunk;
}

uint64_t plan_one_pass_chunk(const plan_limits *limits, kernel_element element)
{
    if (!one_pass_wanted(limits))
        return 0;
    uint64_t chunk = kernel_tile_elements(element, limits->tile_shape);
    if (!one_pass_by_lookback_kernel(limits))
        chunk *= chained_tiles(limits, element);
    return limits->max_chunk && limits->max_chunk < chunk ? limits->max_chunk : chunk;
}

/* Whether a one-pass scan can scan the problem: its lines move in blocks,
 * and its chunks' statuses fit in PLAN_MAX_STATUS accumulators. */
static bool lookback_fits(const plan_context *ctx, const problem *p)
{
    uint64_t chunks = divide_up(p->n, lookback_chunk(ctx, p));
    return moves_in_blocks(p) && 2 * p->lines * chunks + 1 <= PLAN_MAX_STATUS;
}

/* Plans a problem whose lines move in blocks as one pass, of the look-back
 * kernel or a chained pass of the tile kernel (lookback_chunk, or
 * DMLCONF_D3D12_CHUNK elements, per chunk), its statuses in the status
 * buffer (placed by the caller). */
static void plan_lookback(plan_context *ctx, const problem *p)
{
    uint64_t chunk = lookback_chunk(ctx, p);
    uint64_t chunks = divide_up(p->n, chunk);
    uint64_t count = 2 * p->lines * chunks + 1;
    uint32_t flags = SCAN_FLAG_STORE | (p->carry_in ? SCAN_FLAG_INIT : 0u) | (p->carry_out ? SCAN_FLAG_FINAL : 0u);
    bool lookback_kernel = one_pass_by_lookback_kernel(ctx->limits);
    if (!lookback_kernel)
        flags |= SCAN_FLAG_CHAINED;
    plan_pass *pass = emit_pass(ctx, p, lookback_kernel ? KERNEL_LOOKBACK : KERNEL_TILE, chunks, chunk, flags,
                                p->carry_base, p->carry_base);
    if (!pass)
        return;
    pass->params[SCAN_P_STATUS_BASE] = 0;
    pass->status_count = (uint32_t)count;
    /* The carries are one per line (chunk 0 reads, the last chunk writes). */
    unsigned acc_bytes = kernel_accumulator_bytes(ctx->job_element);
    pass->used[2] = p->carry_in || p->carry_out;
    pass->lo[2] = pass->used[2] ? p->carry_base * acc_bytes : 0;
    pass->hi[2] = pass->used[2] ? (p->carry_base + p->lines) * acc_bytes : 0;
}

/* Plans one problem: a single scan pass, or reduce / scan the totals /
 * rescan from the offsets. */
static void plan_problem(plan_context *ctx, const problem *p)
{
    if (ctx->failed)
        return;
    const plan_limits *limits = ctx->limits;
    bool contiguous = magnitude_at_most_one(p->in_step) && magnitude_at_most_one(p->out_step);
    kernel_kind kind = limits->forced                                  ? limits->forced_kind
                       : contiguous && p->n >= limits->tile_min_length ? limits->group_kind
                                                                       : KERNEL_SERIAL;
    bool lanes = p->element == ELEMENT_F16X2 || p->element == ELEMENT_F32X2;
    if (lanes)
        kind = KERNEL_SERIAL; /* the two-lane classes exist only there */
    bool lines_wanted =
        !lanes && (limits->forced ? limits->forced_kind == KERNEL_LINES : kind == KERNEL_SERIAL && limits->short_lines);
    if (lines_wanted && short_and_packed(p))
    {
        plan_lines(ctx, p);
        return;
    }
    if (kind == KERNEL_LINES)
        kind = KERNEL_SERIAL;
    if (kind == KERNEL_LOOKBACK)
    {
        if (lookback_fits(ctx, p))
        {
            plan_lookback(ctx, p);
            return;
        }
        kind = KERNEL_SERIAL;
    }
    bool tile = kind != KERNEL_SERIAL;
    uint64_t chunk, chunks;
    if (tile)
    {
        /* Whole tiles (the kernels' fast path) and one partial tile. The
         * tile kernel walks several tiles per chunk: as few chunks as fill
         * the device, each at least `tile_min_tiles` long, so that fewer
         * totals are left to scan (a line that short is scanned in one
         * pass, reading its data once). */
        chunk = kernel_tile_elements(p->element, problem_shape(ctx, p));
        uint64_t tiles = divide_up(p->n, chunk);
        if (kind == KERNEL_TILE && limits->tile_groups)
        {
            uint64_t per_line = p->lines >= limits->tile_groups ? 1 : divide_up(limits->tile_groups, p->lines);
            uint64_t walk = divide_up(tiles, per_line);
            uint64_t least = limits->tile_min_tiles < tiles ? limits->tile_min_tiles : tiles;
            if (p->n <= limits->tile_one_chunk)
                least = tiles;
            chunk *= walk > least ? walk : least;
        }
        chunks = divide_up(p->n, chunk);
        /* Lines that need several chunks are scanned in one pass where
         * they move in blocks. */
        if (kind == KERNEL_TILE && (!limits->forced || limits->chained_always) && limits->lookback &&
            (chunks > 1 || limits->chained_always) && lookback_fits(ctx, p))
        {
            plan_lookback(ctx, p);
            return;
        }
    }
    else
    {
        /* A chunk holds at least two elements, so that every level of
         * totals is shorter than the level it sums. */
        chunk = p->n;
        uint64_t min_chunk = limits->min_chunk > 2 ? limits->min_chunk : 2;
        /* Two-lane threads fill the device with fewer, longer chunks. */
        uint32_t fill = lanes && limits->lane_items ? limits->lane_items : limits->parallel_items;
        if (limits->max_chunk && p->n > limits->max_chunk)
            chunk = limits->max_chunk > 2 ? limits->max_chunk : 2;
        else if (p->lines < fill && p->n >= 2 * min_chunk &&
                 !(limits->single_pass_lines && p->lines >= limits->single_pass_lines))
        {
            uint64_t wanted = divide_up(fill, p->lines);
            uint64_t by_length = divide_up(p->n, wanted);
            chunk = by_length > min_chunk ? by_length : min_chunk;
        }
        chunks = divide_up(p->n, chunk);
        chunk = divide_up(p->n, chunks);
    }
    uint32_t carry_flags = (p->carry_in ? SCAN_FLAG_INIT : 0u) | (p->carry_out ? SCAN_FLAG_FINAL : 0u);
    if (chunks == 1)
    {
        emit_pass(ctx, p, kind, 1, chunk, SCAN_FLAG_STORE | carry_flags, p->carry_base, p->carry_base);
        return;
    }
    uint64_t totals = scratch_alloc(ctx, p->lines * chunks);
    emit_pass(ctx, p, kind, chunks, chunk, SCAN_FLAG_FINAL, 0, totals);

    problem sub;
    memset(&sub, 0, sizeof(sub));
    sub.element = kernel_accumulator_element(p->element);
    sub.in_region = sub.out_region = REGION_SCRATCH;
    sub.exclusive = true;
    sub.lines = p->lines;
    if (p->lines > 1)
    {
        sub.dims.count = 1;
        sub.dims.size[0] = p->lines;
        sub.dims.in_stride[0] = sub.dims.out_stride[0] = chunks;
    }
    sub.n = chunks;
    sub.in_first = sub.out_first = (int64_t)totals;
    sub.in_step = sub.out_step = 1;
    sub.carry_in = p->carry_in;
    sub.carry_out = p->carry_out;
    sub.carry_base = p->carry_base;
    plan_problem(ctx, &sub);

    emit_pass(ctx, p, kind, chunks, chunk, SCAN_FLAG_INIT | SCAN_FLAG_STORE, totals, 0);
}

/* A block of lines (the whole tensor, or a piece of it) before the axis is
 * cut into segments. Offsets are of element 0 of the axis (index order). */
typedef struct block
{
    line_dims dims;
    uint64_t in_base, out_base;
    uint64_t n;
    uint64_t in_axis, out_axis; /* axis strides */
} block;

static uint64_t block_lines(const block *b)
{
    uint64_t lines = 1;
    for (unsigned d = 0; d < b->dims.count; ++d)
        lines *= b->dims.size[d];
    return lines;
}

/* Plans a block's axis in segments of at most `segment` elements, carrying
 * running totals from one segment to the next in scan order. */
static void plan_segments(plan_context *ctx, const problem *base, const block *b, bool decreasing, uint64_t segment)
{
    uint64_t lines = block_lines(b);
    uint64_t segments = divide_up(b->n, segment);
    uint64_t carry = segments > 1 ? scratch_alloc(ctx, lines) : 0;
    int64_t in_step = decreasing ? -(int64_t)b->in_axis : (int64_t)b->in_axis;
    int64_t out_step = decreasing ? -(int64_t)b->out_axis : (int64_t)b->out_axis;
    int64_t in_first = (int64_t)b->in_base + (decreasing ? (int64_t)((b->n - 1) * b->in_axis) : 0);
    int64_t out_first = (int64_t)b->out_base + (decreasing ? (int64_t)((b->n - 1) * b->out_axis) : 0);
    for (uint64_t s = 0; s < segments && !ctx->failed; ++s)
    {
        uint64_t start = s * segment;
        uint64_t end = start + segment < b->n ? start + segment : b->n;
        problem p = *base;
        p.dims = b->dims;
        p.lines = lines;
        p.n = end - start;
        p.in_first = in_first + (int64_t)start * in_step;
        p.out_first = out_first + (int64_t)start * out_step;
        p.in_step = in_step;
        p.out_step = out_step;
        p.carry_in = s > 0;
        p.carry_out = s + 1 < segments;
        p.carry_base = carry;
        plan_problem(ctx, &p);
    }
}

/* Cuts a block until each pass's bindings fit in `span_elements` elements
 * of the input and the output: lines first (halving the dimension that
 * spreads furthest) until a block's lines span at most half of it, then
 * the axis into segments. */
static void plan_block(plan_context *ctx, const problem *base, const block *b, bool decreasing, uint64_t span_elements)
{
    if (ctx->failed)
        return;
    uint64_t in_lines = line_span(&b->dims, true), out_lines = line_span(&b->dims, false);
    uint64_t widest = in_lines > out_lines ? in_lines : out_lines;
    if (widest > span_elements / 2)
    {
        unsigned pick = 0;
        uint64_t pick_span = 0;
        for (unsigned d = 0; d < b->dims.count; ++d)
        {
            uint64_t stride =
                b->dims.in_stride[d] > b->dims.out_stride[d] ? b->dims.in_stride[d] : b->dims.out_stride[d];
            uint64_t spread = (b->dims.size[d] - 1) * stride;
            if (b->dims.size[d] > 1 && spread >= pick_span)
            {
                pick = d;
                pick_span = spread;
            }
        }
        block first = *b, second = *b;
        uint64_t half = b->dims.size[pick] / 2;
        first.dims.size[pick] = half;
        second.dims.size[pick] = b->dims.size[pick] - half;
        second.in_base += half * b->dims.in_stride[pick];
        second.out_base += half * b->dims.out_stride[pick];
        plan_block(ctx, base, &first, decreasing, span_elements);
        plan_block(ctx, base, &second, decreasing, span_elements);
        return;
    }
    uint64_t segment = b->n;
    if (b->in_axis && (b->n - 1) * b->in_axis + in_lines >= span_elements)
    {
        uint64_t fit = (span_elements - 1 - in_lines) / b->in_axis + 1;
        segment = fit < segment ? fit : segment;
    }
    if (b->out_axis && (b->n - 1) * b->out_axis + out_lines >= span_elements)
    {
        uint64_t fit = (span_elements - 1 - out_lines) / b->out_axis + 1;
        segment = fit < segment ? fit : segment;
    }
    plan_segments(ctx, base, b, decreasing, segment ? segment : 1);
}

/* Whether float16 lines pair up: the fastest line dimension steps by one
 * element in both tensors and has an even size, and every other stride
 * (the axis' too) is even, so that lines 2m and 2m + 1 always share one
 * 32-bit word, line 2m in its low half. */
static bool lines_pair(const block *b)
{
    if (!b->dims.count || b->dims.in_stride[0] != 1 || b->dims.out_stride[0] != 1 || b->dims.size[0] % 2 ||
        b->in_axis % 2 || b->out_axis % 2)
        return false;
    for (unsigned d = 1; d < b->dims.count; ++d)
        if (b->dims.in_stride[d] % 2 || b->dims.out_stride[d] % 2)
            return false;
    return true;
}

/* The block in 32-bit words of line pairs (see lines_pair). */
static void pair_lines(block *b)
{
    b->dims.size[0] /= 2;
    for (unsigned d = 1; d < b->dims.count; ++d)
    {
        b->dims.in_stride[d] /= 2;
        b->dims.out_stride[d] /= 2;
    }
    b->in_axis /= 2;
    b->out_axis /= 2;
}

/* Folds the non-axis dimensions of `desc` into `dims`, fastest first. */
static void fold_dimensions(const dmlconf_scan_desc *desc, line_dims *dims)
{
    memset(dims, 0, sizeof(*dims));
    for (uint32_t i = desc->input.dimension_count; i-- > 0;)
    {
        if (i == desc->axis || desc->input.sizes[i] == 1)
            continue;
        uint64_t size = desc->input.sizes[i];
        uint64_t in_stride = dmlconf_tensor_stride(&desc->input, i);
        uint64_t out_stride = dmlconf_tensor_stride(&desc->output, i);
        if (dims->count)
        {
            unsigned last = dims->count - 1;
            if (in_stride == dims->in_stride[last] * dims->size[last] &&
                out_stride == dims->out_stride[last] * dims->size[last])
            {
                dims->size[last] *= size;
                continue;
            }
        }
        dims->size[dims->count] = size;
        dims->in_stride[dims->count] = in_stride;
        dims->out_stride[dims->count] = out_stride;
        dims->count++;
    }
}

/* Whether the input is broadcast in a middle dimension: a stride of 0 in a
 * dimension (of more than one element, not the axis) inside a slower one
 * that is not broadcast. */
static bool broadcast_in_middle(const dmlconf_scan_desc *desc)
{
    const dmlconf_tensor_desc *in = &desc->input;
    bool outer_stored = false;
    for (uint32_t d = 0; d < in->dimension_count; ++d)
    {
        if (d == desc->axis || in->sizes[d] == 1)
            continue;
        if (dmlconf_tensor_stride(in, d) != 0)
            outer_stored = true;
        else if (outer_stored)
            return true;
    }
    return false;
}

/* The broadcast fault's second, in-place scan: the input's layout read
 * from the output region, where the first scan left its results (only
 * where the input's extent fits inside the output's). */
static void plan_broadcast_fault(plan_context *ctx, const dmlconf_scan_desc *desc, const problem *base,
                                 const block *whole)
{
    uint64_t in_bytes = 0, out_bytes = 0;
    if (!broadcast_in_middle(desc) || !dmlconf_tensor_min_size_bytes(&desc->input, &in_bytes) ||
        !dmlconf_tensor_min_size_bytes(&desc->output, &out_bytes) || in_bytes > out_bytes)
        return;
    problem again = *base;
    again.in_region = REGION_OUTPUT;
    plan_segments(ctx, &again, whole, desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING, whole->n);
}

int plan_job(const dmlconf_scan_desc *desc, const plan_limits *limits, job_plan *plan, char *why, size_t why_size)
{
    kernel_element element;
    if (!plan_element_of(desc->input.data_type, &element))
    {
        snprintf(why, why_size, "the kernels do not compute %s", dmlconf_data_type_name(desc->input.data_type));
        return -1;
    }
    plan_context ctx;
    memset(&ctx, 0, sizeof(ctx));
    ctx.limits = limits;
    ctx.operation = desc->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? OPERATION_PRODUCT : OPERATION_SUM;
    ctx.job_element = element;
    ctx.plan = plan;
    ctx.why = why;
    ctx.why_size = why_size;
    block whole;
    memset(&whole, 0, sizeof(whole));
    fold_dimensions(desc, &whole.dims);
    whole.n = desc->input.sizes[desc->axis];
    whole.in_axis = dmlconf_tensor_stride(&desc->input, desc->axis);
    whole.out_axis = dmlconf_tensor_stride(&desc->output, desc->axis);
    /* float16 lines side by side are scanned two at a time, a word each
     * (one load and one plain store for two elements). */
    if (element == ELEMENT_F16 && lines_pair(&whole))
    {
        pair_lines(&whole);
        element = ELEMENT_F16X2;
        ctx.job_element = element;
    }

    problem base;
    memset(&base, 0, sizeof(base));
    base.element = element;
    base.in_region = desc->in_place ? REGION_OUTPUT : REGION_INPUT;
    base.out_region = REGION_OUTPUT;
    base.exclusive = desc->exclusive;

    /* The widest span a binding may take, in elements. */
    unsigned bytes = kernel_element_bytes(element);
    uint64_t span_elements = limits->max_span_bytes / bytes;
    if (span_elements < 16)
    {
        snprintf(why, why_size, "one buffer view holds only %llu bytes", (unsigned long long)limits->max_span_bytes);
        return -1;
    }
    uint64_t in_total = line_span(&whole.dims, true) + (whole.n - 1) * whole.in_axis + 1;
    uint64_t out_total = line_span(&whole.dims, false) + (whole.n - 1) * whole.out_axis + 1;
    if (in_total <= span_elements && out_total <= span_elements)
    {
        plan_segments(&ctx, &base, &whole, desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING, whole.n);
        if (limits->fault == FAULT_BROADCAST_IN_PLACE && !desc->in_place)
            plan_broadcast_fault(&ctx, desc, &base, &whole);
    }
    else
        plan_block(&ctx, &base, &whole, desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING, span_elements);
    if (ctx.failed)
    {
        plan_release(plan);
        return -1;
    }
    plan->scratch_bytes = ctx.scratch_next * kernel_accumulator_bytes(element);
    return 0;
}

/* Appends a key when it exists and is not listed yet. */
static void add_reachable(kernel_key key, kernel_key *out, size_t max, size_t *count)
{
    if (!kernel_key_exists(&key))
        return;
    for (size_t i = 0; i < *count; ++i)
    {
        if (kernel_key_index(&out[i]) == kernel_key_index(&key))
            return;
    }
    if (*count < max)
        out[(*count)++] = key;
}

size_t plan_kernels_in_reach(const plan_limits *limits, kernel_key *out, size_t max)
{
    static const kernel_element elements[] = {ELEMENT_F32, ELEMENT_I32,   ELEMENT_F16,
                                              ELEMENT_I64, ELEMENT_F16X2, ELEMENT_F32X2};
    /* The cooperative kernels first: a driver takes several times longer
     * to build them than the serial kernel (0.2-0.6 s against 0.05-0.1 s
     * on an H200), which a run's first jobs can afford to build on use. */
    kernel_kind kinds[5];
    size_t kind_count = 0;
    bool forced = limits->forced;
    if (forced ? limits->forced_kind == KERNEL_TILE || limits->forced_kind == KERNEL_RAKE
               : limits->tile_min_length != UINT32_MAX)
        kinds[kind_count++] = forced ? limits->forced_kind : limits->group_kind;
    if (one_pass_wanted(limits) && one_pass_by_lookback_kernel(limits))
        kinds[kind_count++] = KERNEL_LOOKBACK;
    if (forced ? limits->forced_kind == KERNEL_LINES : limits->short_lines)
        kinds[kind_count++] = KERNEL_LINES;
    kinds[kind_count++] = KERNEL_SERIAL;
    size_t count = 0;
    for (size_t k = 0; k < kind_count; ++k)
    {
        for (size_t e = 0; e < sizeof(elements) / sizeof(elements[0]); ++e)
        {
            for (unsigned o = 0; o < OPERATION_COUNT; ++o)
            {
                kernel_key key = {.kind = kinds[k], .element = elements[e], .operation = (kernel_operation)o};
                key.shape = kinds[k] == KERNEL_SERIAL || kinds[k] == KERNEL_LINES ? 0 : limits->tile_shape;
                key.spans = kinds[k] == KERNEL_LOOKBACK && limits->lookback_spans;
                /* Passes over scratch (the totals) never carry the fault. */
                if (limits->fault != FAULT_NONE)
                {
                    kernel_key faulty = key;
                    faulty.fault = limits->fault;
                    add_reachable(faulty, out, max, &count);
                }
                add_reachable(key, out, max, &count);
                /* The chained passes' test variant. */
                if (kinds[k] == KERNEL_TILE && one_pass_wanted(limits) && !one_pass_by_lookback_kernel(limits) &&
                    limits->lookback_spans)
                {
                    kernel_key spans = key;
                    spans.spans = true;
                    add_reachable(spans, out, max, &count);
                }
                /* Lines of chunk totals (accumulators, without the fault). */
                if ((kinds[k] == KERNEL_TILE || kinds[k] == KERNEL_RAKE) && limits->totals_shape != limits->tile_shape)
                {
                    kernel_key totals = key;
                    totals.shape = limits->totals_shape;
                    if (totals.element != ELEMENT_F16)
                        add_reachable(totals, out, max, &count);
                }
            }
        }
    }
    return count;
}

void plan_pass_name(const plan_pass *pass, char *out, size_t size)
{
    char name[64];
    kernel_key_name(&pass->key, name, sizeof(name));
    snprintf(out, size, "%s%s", name, (pass->params[SCAN_P_FLAGS] & SCAN_FLAG_CHAINED) ? " chained" : "");
}
