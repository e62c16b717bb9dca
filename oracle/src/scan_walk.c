/*
 * Scans piece by piece (dmlconf_scan_walk) over the resumable kernels, and
 * the whole-line entry points built on them (dmlconf_scan_line and the
 * kernels' whole-line wrappers of line_kernels.h).
 *
 * The kernels compute inclusive results. An exclusive scan shifts them by
 * one: a piece's first output is the inclusive result of everything before
 * the piece (carried in walk->last, the identity at first), its other
 * outputs the inclusive results of its elements but the last, whose
 * inclusive result is carried to the next piece.
 */
#include "line_kernels.h"

#include <string.h>

/* Which kernel a walk runs. */
typedef enum walk_kernel
{
    KERNEL_U32,
    KERNEL_U64,
    KERNEL_SUM_F16,
    KERNEL_SUM_F32,
    KERNEL_PRODUCT_F16,
    KERNEL_PRODUCT_F32,
} walk_kernel;

/* The private state behind dmlconf_scan_walk.state. */
typedef struct walk_state
{
    walk_kernel kernel;
    size_t element; /* bytes of one element */
    union
    {
        uint64_t running;
        sum_f16_walk sum_f16;
        sum_f32_walk sum_f32;
        product_walk product;
    } u;
} walk_state;

/* The public struct's storage must hold the private state. */
typedef char walk_state_fits[sizeof(walk_state) <= sizeof(((dmlconf_scan_walk *)0)->state) ? 1 : -1];

static walk_state *state_of(dmlconf_scan_walk *walk)
{
    return (walk_state *)(void *)&walk->state;
}

int oracle_history_read(const oracle_history *history, uint64_t first, size_t count, void *out, dmlconf_error *err)
{
    if (!history->read)
    {
        oracle_set_error(err, "the scan needs elements %llu to %llu of its line again and has no reader for them",
                         (unsigned long long)first, (unsigned long long)(first + count - 1u));
        return -1;
    }
    if (history->read(history->context, first, count, out))
    {
        oracle_set_error(err, "the line's reader could not read elements %llu to %llu again", (unsigned long long)first,
                         (unsigned long long)(first + count - 1u));
        return -1;
    }
    return 0;
}

/* The identity's bits: the first output of an exclusive scan. */
static uint64_t identity_bits(dmlconf_operator op, dmlconf_data_type type)
{
    if (op == DMLCONF_OPERATOR_CUMULATIVE_SUMMATION)
        return 0; /* +0 */
    switch (type)
    {
    case DMLCONF_DATA_TYPE_FLOAT32:
        return 0x3f800000u;
    case DMLCONF_DATA_TYPE_FLOAT16:
        return 0x3c00u;
    case DMLCONF_DATA_TYPE_UNKNOWN:
    case DMLCONF_DATA_TYPE_UINT32:
    case DMLCONF_DATA_TYPE_UINT16:
    case DMLCONF_DATA_TYPE_UINT8:
    case DMLCONF_DATA_TYPE_INT32:
    case DMLCONF_DATA_TYPE_INT16:
    case DMLCONF_DATA_TYPE_INT8:
    case DMLCONF_DATA_TYPE_FLOAT64:
    case DMLCONF_DATA_TYPE_UINT64:
    case DMLCONF_DATA_TYPE_INT64:
    case DMLCONF_DATA_TYPE_UINT4:
    case DMLCONF_DATA_TYPE_INT4:
    default:
        return 1;
    }
}

int dmlconf_scan_walk_init(dmlconf_scan_walk *walk, dmlconf_operator op, dmlconf_data_type type, bool exclusive,
                           dmlconf_line_reader reader, void *reader_context, dmlconf_error *err)
{
    /* Field by field: a comparator starts a walk per line, and lines may be
     * three elements long. */
    walk->position = 0;
    walk_state *state = state_of(walk);
    state->kernel = KERNEL_U32; /* releasing a walk that failed to start frees nothing */
    bool product = op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    if (!product && op != DMLCONF_OPERATOR_CUMULATIVE_SUMMATION)
    {
        oracle_set_error(err, "operator %d is not a cumulative operator", (int)op);
        return -1;
    }
    switch (type)
    {
    case DMLCONF_DATA_TYPE_FLOAT32:
        state->kernel = product ? KERNEL_PRODUCT_F32 : KERNEL_SUM_F32;
        break;
    case DMLCONF_DATA_TYPE_FLOAT16:
        state->kernel = product ? KERNEL_PRODUCT_F16 : KERNEL_SUM_F16;
        break;
    case DMLCONF_DATA_TYPE_INT32:
    case DMLCONF_DATA_TYPE_UINT32:
        state->kernel = KERNEL_U32;
        break;
    case DMLCONF_DATA_TYPE_INT64:
    case DMLCONF_DATA_TYPE_UINT64:
        state->kernel = KERNEL_U64;
        break;
    case DMLCONF_DATA_TYPE_UNKNOWN:
    case DMLCONF_DATA_TYPE_UINT16:
    case DMLCONF_DATA_TYPE_UINT8:
    case DMLCONF_DATA_TYPE_INT16:
    case DMLCONF_DATA_TYPE_INT8:
    case DMLCONF_DATA_TYPE_FLOAT64:
    case DMLCONF_DATA_TYPE_UINT4:
    case DMLCONF_DATA_TYPE_INT4:
    default:
    {
        const char *name = dmlconf_data_type_name(type);
        oracle_set_error(err, "data type %s is not computable by %s", name ? name : "(unknown)",
                         dmlconf_operator_name(op));
        return -1;
    }
    }
    state->element = dmlconf_data_type_bits(type) / 8u;
    walk->op = op;
    walk->type = type;
    walk->exclusive = exclusive;
    walk->reader = reader;
    walk->reader_context = reader_context;
    walk->last = identity_bits(op, type);
    switch (state->kernel)
    {
    case KERNEL_U32:
    case KERNEL_U64:
        state->u.running = product ? 1u : 0u;
        break;
    case KERNEL_SUM_F16:
        oracle_sum_f16_init(&state->u.sum_f16);
        break;
    case KERNEL_SUM_F32:
        oracle_sum_f32_init(&state->u.sum_f32);
        break;
    case KERNEL_PRODUCT_F16:
    case KERNEL_PRODUCT_F32:
        oracle_product_init(&state->u.product);
        state->u.product.output_offset = exclusive ? 1u : 0u;
        break;
    }
    return 0;
}

/* The inclusive results of n elements starting at `position`. */
static int kernel_next(dmlconf_scan_walk *walk, uint64_t position, size_t n, const void *in, void *out,
                       dmlconf_error *err)
{
    walk_state *state = state_of(walk);
    oracle_history history = {walk->reader, walk->reader_context};
    switch (state->kernel)
    {
    case KERNEL_U32:
        oracle_scan_u32_next(walk->op, &state->u.running, n, in, out);
        return 0;
    case KERNEL_U64:
        oracle_scan_u64_next(walk->op, &state->u.running, n, in, out);
        return 0;
    case KERNEL_SUM_F16:
        oracle_sum_f16_next(&state->u.sum_f16, n, in, out);
        return 0;
    case KERNEL_SUM_F32:
        return oracle_sum_f32_next(&state->u.sum_f32, position, n, in, out, &history, err);
    case KERNEL_PRODUCT_F16:
        return oracle_product_f16_next(&state->u.product, position, n, in, out, &history, err);
    case KERNEL_PRODUCT_F32:
        return oracle_product_f32_next(&state->u.product, position, n, in, out, &history, err);
    }
    return 0;
}

static uint64_t load_element(const void *p, size_t size)
{
    uint64_t v = 0;
    switch (size)
    {
    case 2:
    {
        uint16_t x;
        memcpy(&x, p, sizeof(x));
        v = x;
        break;
    }
    case 4:
    {
        uint32_t x;
        memcpy(&x, p, sizeof(x));
        v = x;
        break;
    }
    default:
        memcpy(&v, p, sizeof(v));
        break;
    }
    return v;
}

static void store_element(void *p, uint64_t v, size_t size)
{
    switch (size)
    {
    case 2:
    {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, sizeof(x));
        break;
    }
    case 4:
    {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, sizeof(x));
        break;
    }
    default:
        memcpy(p, &v, sizeof(v));
        break;
    }
}

int dmlconf_scan_walk_next(dmlconf_scan_walk *walk, size_t n, const void *in, void *out, dmlconf_error *err)
{
    if (n == 0)
        return 0;
    size_t size = state_of(walk)->element;
    const unsigned char *in_bytes = in;
    unsigned char *out_bytes = out;
    uint64_t position = walk->position;
    if (!walk->exclusive)
    {
        if (kernel_next(walk, position, n, in, out, err))
            return -1;
        walk->last = load_element(out_bytes + (n - 1u) * size, size);
    }
    else
    {
        /* out[0] is what came before; out[j] for j >= 1 the inclusive
         * result of in[j - 1]; in[n - 1]'s is carried. */
        unsigned char last[8];
        store_element(out_bytes, walk->last, size);
        if (kernel_next(walk, position, n - 1u, in, out_bytes + size, err) ||
            kernel_next(walk, position + n - 1u, 1, in_bytes + (n - 1u) * size, last, err))
            return -1;
        walk->last = load_element(last, size);
    }
    walk->position = position + n;
    return 0;
}

void dmlconf_scan_walk_release(dmlconf_scan_walk *walk)
{
    walk_state *state = state_of(walk);
    if (state->kernel == KERNEL_PRODUCT_F16 || state->kernel == KERNEL_PRODUCT_F32)
        oracle_product_release(&state->u.product);
}

/* ---- segment summaries ------------------------------------------------------- */

/* The private state behind dmlconf_scan_summary.state. */
typedef struct summary_state
{
    walk_kernel kernel;
    union
    {
        uint64_t running;
        sum_f16_summary sum_f16;
        sum_f32_summary sum_f32;
        product_summary product;
    } u;
} summary_state;

typedef char summary_state_fits[sizeof(summary_state) <= sizeof(((dmlconf_scan_summary *)0)->state) ? 1 : -1];

static summary_state *summary_of(dmlconf_scan_summary *summary)
{
    return (summary_state *)(void *)&summary->state;
}

static const summary_state *const_summary_of(const dmlconf_scan_summary *summary)
{
    return (const summary_state *)(const void *)&summary->state;
}

int dmlconf_scan_summary_init(dmlconf_scan_summary *summary, dmlconf_operator op, dmlconf_data_type type,
                              dmlconf_error *err)
{
    /* The walk's checks and kernel choice. */
    dmlconf_scan_walk probe;
    if (dmlconf_scan_walk_init(&probe, op, type, false, NULL, NULL, err))
        return -1;
    summary->op = op;
    summary->type = type;
    summary->count = 0;
    summary_state *state = summary_of(summary);
    state->kernel = state_of(&probe)->kernel;
    switch (state->kernel)
    {
    case KERNEL_U32:
    case KERNEL_U64:
        state->u.running = op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? 1u : 0u;
        break;
    case KERNEL_SUM_F16:
        oracle_sum_f16_summary_init(&state->u.sum_f16);
        break;
    case KERNEL_SUM_F32:
        oracle_sum_f32_summary_init(&state->u.sum_f32);
        break;
    case KERNEL_PRODUCT_F16:
    case KERNEL_PRODUCT_F32:
        oracle_product_summary_init(&state->u.product);
        break;
    }
    return 0;
}

void dmlconf_scan_summary_add(dmlconf_scan_summary *summary, size_t n, const void *in)
{
    summary_state *state = summary_of(summary);
    switch (state->kernel)
    {
    case KERNEL_U32:
    case KERNEL_U64:
        state->u.running =
            oracle_integer_summary_add(summary->op, state->kernel == KERNEL_U64, state->u.running, n, in);
        break;
    case KERNEL_SUM_F16:
        oracle_sum_f16_summary_add(&state->u.sum_f16, n, in);
        break;
    case KERNEL_SUM_F32:
        oracle_sum_f32_summary_add(&state->u.sum_f32, n, in);
        break;
    case KERNEL_PRODUCT_F16:
        oracle_product_f16_summary_add(&state->u.product, n, in);
        break;
    case KERNEL_PRODUCT_F32:
        oracle_product_f32_summary_add(&state->u.product, n, in);
        break;
    }
    summary->count += n;
}

void dmlconf_scan_summary_combine(dmlconf_scan_summary *into, const dmlconf_scan_summary *next)
{
    summary_state *state = summary_of(into);
    const summary_state *other = const_summary_of(next);
    switch (state->kernel)
    {
    case KERNEL_U32:
    case KERNEL_U64:
        state->u.running =
            oracle_integer_summary_combine(into->op, state->kernel == KERNEL_U64, state->u.running, other->u.running);
        break;
    case KERNEL_SUM_F16:
        oracle_sum_f16_summary_combine(&state->u.sum_f16, &other->u.sum_f16);
        break;
    case KERNEL_SUM_F32:
        oracle_sum_f32_summary_combine(&state->u.sum_f32, &other->u.sum_f32);
        break;
    case KERNEL_PRODUCT_F16:
    case KERNEL_PRODUCT_F32:
        oracle_product_summary_combine(&state->u.product, &other->u.product);
        break;
    }
    into->count += next->count;
}

int dmlconf_scan_walk_resume(dmlconf_scan_walk *walk, const dmlconf_scan_summary *prefix, bool exclusive,
                             dmlconf_line_reader reader, void *reader_context, dmlconf_error *err)
{
    if (dmlconf_scan_walk_init(walk, prefix->op, prefix->type, exclusive, reader, reader_context, err))
        return -1;
    walk_state *state = state_of(walk);
    const summary_state *from = const_summary_of(prefix);
    uint64_t position = prefix->count;
    bool empty = position == 0;
    walk->position = position;
    switch (state->kernel)
    {
    case KERNEL_U32:
    case KERNEL_U64:
        state->u.running = from->u.running;
        walk->last = from->u.running;
        return 0;
    case KERNEL_SUM_F16:
        walk->last = oracle_sum_f16_resume(&state->u.sum_f16, &from->u.sum_f16, empty);
        return 0;
    case KERNEL_SUM_F32:
    {
        float last = oracle_sum_f32_resume(&state->u.sum_f32, &from->u.sum_f32, position, empty);
        uint32_t bits;
        memcpy(&bits, &last, sizeof(bits));
        walk->last = bits;
        return 0;
    }
    case KERNEL_PRODUCT_F16:
    case KERNEL_PRODUCT_F32:
    {
        oracle_history history = {reader, reader_context};
        uint32_t last = 0;
        int status = oracle_product_resume(&state->u.product, &from->u.product, state->kernel == KERNEL_PRODUCT_F16,
                                           position, &history, &last, err);
        state->u.product.output_offset = exclusive ? 1u : 0u;
        walk->last = last;
        return status;
    }
    }
    return 0;
}

/* ---- whole lines ------------------------------------------------------------- */

/* A line held in memory, as its own history. */
typedef struct line_in_memory
{
    const unsigned char *data;
    size_t element;
} line_in_memory;

static int read_line_in_memory(void *context, uint64_t first, size_t count, void *out)
{
    const line_in_memory *line = context;
    memcpy(out, line->data + first * line->element, count * line->element);
    return 0;
}

/* The whole line `in` as one piece; products with every fallback_period-th
 * output decided exactly (0: none). */
static int scan_whole_line(dmlconf_operator op, dmlconf_data_type type, bool exclusive, size_t n, const void *in,
                           void *out, uint64_t fallback_period, dmlconf_error *err)
{
    line_in_memory line = {in, dmlconf_data_type_bits(type) / 8u};
    dmlconf_scan_walk walk;
    if (dmlconf_scan_walk_init(&walk, op, type, exclusive, read_line_in_memory, &line, err))
        return -1;
    walk_state *state = state_of(&walk);
    if (state->kernel == KERNEL_PRODUCT_F16 || state->kernel == KERNEL_PRODUCT_F32)
        state->u.product.fallback_period = fallback_period;
    int status = dmlconf_scan_walk_next(&walk, n, in, out, err);
    dmlconf_scan_walk_release(&walk);
    return status;
}

void oracle_sum_f16(bool exclusive, size_t n, const uint16_t *in, uint16_t *out)
{
    scan_whole_line(DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT16, exclusive, n, in, out, 0, NULL);
}

void oracle_sum_f32(bool exclusive, size_t n, const float *in, float *out)
{
    scan_whole_line(DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, exclusive, n, in, out, 0, NULL);
}

int oracle_product_f32(bool exclusive, size_t n, const float *in, float *out, dmlconf_error *err)
{
    return scan_whole_line(DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT32, exclusive, n, in, out, 0,
                           err);
}

int oracle_product_f16(bool exclusive, size_t n, const uint16_t *in, uint16_t *out, dmlconf_error *err)
{
    return scan_whole_line(DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT16, exclusive, n, in, out, 0,
                           err);
}

int oracle_product_f32_tuned(bool exclusive, size_t n, const float *in, float *out, size_t fallback_period,
                             dmlconf_error *err)
{
    return scan_whole_line(DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT32, exclusive, n, in, out,
                           fallback_period, err);
}

int oracle_product_f16_tuned(bool exclusive, size_t n, const uint16_t *in, uint16_t *out, size_t fallback_period,
                             dmlconf_error *err)
{
    return scan_whole_line(DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT16, exclusive, n, in, out,
                           fallback_period, err);
}

int dmlconf_scan_line(dmlconf_operator op, dmlconf_data_type type, bool exclusive, size_t n, const void *in, void *out,
                      dmlconf_side_data *side, dmlconf_error *err)
{
    if (scan_whole_line(op, type, exclusive, n, in, out, 0, err))
        return -1;
    if (side)
    {
        dmlconf_side_walk walk;
        if (dmlconf_side_walk_init(&walk, op, type, exclusive, err))
            return -1;
        dmlconf_side_walk_next(&walk, n, in, side);
    }
    return 0;
}
