/*
 * Unit tests of the dispatch planner, without a device: random descs
 * (ranks, axes, directions, exclusive scans, padded and broadcast strides,
 * in place) are planned under limits that force chunking, recursion over
 * the totals, and cutting into pieces that fit small views; the passes are
 * then executed by a CPU model of the kernels' contract (scan_params.h) on
 * wrapping integer sums, and every output element is compared with a
 * direct computation. The model also checks that every access stays inside
 * the byte ranges the plan declares for its bindings, and that those
 * ranges fit the view size the plan was given.
 */
#include "scan_plan.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The model's buffers, by region. */
typedef struct model
{
    unsigned char *region[REGION_COUNT];
    size_t bytes[REGION_COUNT];
    char failure[256];
} model;

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static uint64_t read_value(const unsigned char *p, unsigned bytes)
{
    uint64_t value = 0;
    memcpy(&value, p, bytes); /* little-endian host */
    return value;
}

static void write_value(unsigned char *p, unsigned bytes, uint64_t value)
{
    memcpy(p, &value, bytes);
}

static uint64_t mask_of(unsigned bytes)
{
    return bytes >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * bytes)) - 1;
}

/* Checks one access of `bytes` at element `offset` of binding u. */
static bool access_ok(model *m, const plan_pass *pass, unsigned u, uint64_t offset, unsigned bytes)
{
    uint64_t lo = offset * bytes, hi = lo + bytes;
    if (!pass->used[u] || lo < pass->lo[u] || hi > pass->hi[u] || hi > m->bytes[pass->region[u]])
    {
        snprintf(m->failure, sizeof(m->failure), "binding %u reaches bytes [%llu, %llu) outside [%llu, %llu)%s", u,
                 (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)pass->lo[u],
                 (unsigned long long)pass->hi[u], pass->used[u] ? "" : " (unused)");
        return false;
    }
    return true;
}

/* The look-back kernel's contract, and the tile kernel's in a chained
 * pass, for integer sums: every chunk of a line starts from the total of
 * the chunks before it (chunk 0 from the identity or scratch[init base +
 * l]); the pass asks for a status area of two accumulators per chunk and
 * one for the ticket counter (in the status buffer, which the batch places
 * and this model does not hold); the last chunk writes the line's total to
 * scratch[final base + l]. */
static bool run_lookback(model *m, const plan_pass *pass)
{
    const uint32_t *w = pass->params;
    unsigned element = pass->element_bytes[0], acc_bytes = pass->element_bytes[2];
    uint64_t element_mask = mask_of(element), acc_mask = mask_of(acc_bytes);
    uint32_t lines = w[SCAN_P_LINES], chunks = w[SCAN_P_CHUNKS], flags = w[SCAN_P_FLAGS];
    if (!(flags & SCAN_FLAG_BLOCKS) || (w[SCAN_P_IN_STEP] != 1 && w[SCAN_P_IN_STEP] != UINT32_MAX) ||
        w[SCAN_P_IN_STEP] != w[SCAN_P_OUT_STEP] || w[SCAN_P_CHUNK] == 0)
    {
        snprintf(m->failure, sizeof(m->failure), "a look-back pass over lines that do not move in blocks");
        return false;
    }
    if ((uint64_t)pass->status_count < 2 * (uint64_t)lines * chunks + 1 || pass->status_count > PLAN_MAX_STATUS)
    {
        snprintf(m->failure, sizeof(m->failure), "a one-pass scan of %u chunks asks for %u status accumulators",
                 lines * chunks, pass->status_count);
        return false;
    }
    for (uint32_t l = 0; l < lines; ++l)
    {
        uint32_t rest = l, in = w[SCAN_P_IN_FIRST], out = w[SCAN_P_OUT_FIRST];
        for (uint32_t d = 0; d < w[SCAN_P_DIMENSIONS]; ++d)
        {
            const uint32_t *dim = &w[SCAN_P_DIMENSION0 + 4 * d];
            uint32_t c = rest % dim[0];
            rest /= dim[0];
            in += c * dim[1];
            out += c * dim[2];
        }
        uint64_t acc = 0;
        if (flags & SCAN_FLAG_INIT)
        {
            if (!access_ok(m, pass, 2, w[SCAN_P_INIT_BASE] + l, acc_bytes))
                return false;
            acc = read_value(m->region[pass->region[2]] + (size_t)(w[SCAN_P_INIT_BASE] + l) * acc_bytes, acc_bytes);
        }
        for (uint32_t i = 0; i < w[SCAN_P_LENGTH]; ++i)
        {
            if (!access_ok(m, pass, 0, in, element) || !access_ok(m, pass, 1, out, element))
                return false;
            uint64_t x = read_value(m->region[pass->region[0]] + (size_t)in * element, element);
            uint64_t before = acc;
            acc = (acc + x) & acc_mask;
            uint64_t value = (flags & SCAN_FLAG_EXCLUSIVE) ? before : acc;
            write_value(m->region[pass->region[1]] + (size_t)out * element, element, value & element_mask);
            in += w[SCAN_P_IN_STEP];
            out += w[SCAN_P_OUT_STEP];
        }
        if (flags & SCAN_FLAG_FINAL)
        {
            if (!access_ok(m, pass, 2, w[SCAN_P_FINAL_BASE] + l, acc_bytes))
                return false;
            write_value(m->region[pass->region[2]] + (size_t)(w[SCAN_P_FINAL_BASE] + l) * acc_bytes, acc_bytes, acc);
        }
    }
    return true;
}

/* acc + x for a pass's class: one wrapping sum, or (the two-lane classes)
 * two 32-bit lanes side by side, x's lanes `lane_bits` wide. */
static uint64_t add_value(const plan_pass *pass, uint64_t acc, uint64_t x, uint64_t acc_mask)
{
    kernel_element e = pass->key.element;
    if (e != ELEMENT_F16X2 && e != ELEMENT_F32X2)
        return (acc + x) & acc_mask;
    unsigned lane_bits = e == ELEMENT_F16X2 ? 16 : 32;
    uint64_t lane_mask = (UINT64_C(1) << lane_bits) - 1;
    uint64_t low = ((acc & 0xffffffffu) + (x & lane_mask)) & 0xffffffffu;
    uint64_t high = ((acc >> 32) + ((x >> lane_bits) & lane_mask)) & 0xffffffffu;
    return low | high << 32;
}

/* The stored form of an accumulator: the two-lane float16 class keeps
 * 16 bits of each lane in one word. */
static uint64_t stored_value(const plan_pass *pass, uint64_t acc, uint64_t element_mask)
{
    if (pass->key.element == ELEMENT_F16X2)
        return (acc & 0xffffu) | ((acc >> 32) & 0xffffu) << 16;
    return acc & element_mask;
}

/* The short-line kernel: every line of the pass scanned alone from its
 * carry (SCAN_P_CHUNK lines a work item); runs as the serial kernel's
 * contract over one chunk, after checking that the lines are packed. */
static bool run_lines(model *m, const plan_pass *pass);

/* Runs one pass as the kernels would, for integer sums. */
static bool run_pass(model *m, const plan_pass *pass)
{
    if (pass->key.kind == KERNEL_LINES)
        return run_lines(m, pass);
    if (pass->key.kind == KERNEL_LOOKBACK || (pass->params[SCAN_P_FLAGS] & SCAN_FLAG_CHAINED))
        return run_lookback(m, pass);
    const uint32_t *w = pass->params;
    unsigned element = pass->element_bytes[0], acc_bytes = pass->element_bytes[2];
    uint64_t element_mask = mask_of(element), acc_mask = mask_of(acc_bytes);
    uint32_t lines = w[SCAN_P_LINES], chunks = w[SCAN_P_CHUNKS], flags = w[SCAN_P_FLAGS];
    for (uint32_t item = 0; item < w[SCAN_P_WORK_ITEMS]; ++item)
    {
        uint32_t k = item / lines, l = item % lines;
        if (flags & SCAN_FLAG_CHUNK_MAJOR)
        {
            k = item % chunks;
            l = item / chunks;
        }
        uint32_t slot = l * chunks + k;
        uint32_t rest = l, in = w[SCAN_P_IN_FIRST], out = w[SCAN_P_OUT_FIRST];
        for (uint32_t d = 0; d < w[SCAN_P_DIMENSIONS]; ++d)
        {
            const uint32_t *dim = &w[SCAN_P_DIMENSION0 + 4 * d];
            uint32_t c = rest % dim[0];
            rest /= dim[0];
            in += c * dim[1];
            out += c * dim[2];
        }
        uint32_t i0 = k * w[SCAN_P_CHUNK];
        uint32_t i1 = i0 + w[SCAN_P_CHUNK] < w[SCAN_P_LENGTH] ? i0 + w[SCAN_P_CHUNK] : w[SCAN_P_LENGTH];
        in += i0 * w[SCAN_P_IN_STEP];
        out += i0 * w[SCAN_P_OUT_STEP];
        uint64_t acc = 0;
        if (flags & SCAN_FLAG_INIT)
        {
            uint32_t at = w[SCAN_P_INIT_BASE] + slot;
            if (!access_ok(m, pass, 2, at, acc_bytes))
                return false;
            acc = read_value(m->region[pass->region[2]] + (size_t)at * acc_bytes, acc_bytes);
        }
        for (uint32_t i = i0; i < i1; ++i)
        {
            if (!access_ok(m, pass, 0, in, element))
                return false;
            uint64_t x = read_value(m->region[pass->region[0]] + (size_t)in * element, element);
            uint64_t before = acc;
            acc = add_value(pass, acc, x, acc_mask);
            if (flags & SCAN_FLAG_STORE)
            {
                if (!access_ok(m, pass, 1, out, element))
                    return false;
                uint64_t value = (flags & SCAN_FLAG_EXCLUSIVE) ? before : acc;
                write_value(m->region[pass->region[1]] + (size_t)out * element, element,
                            stored_value(pass, value, element_mask));
            }
            in += w[SCAN_P_IN_STEP];
            out += w[SCAN_P_OUT_STEP];
        }
        if (flags & SCAN_FLAG_FINAL)
        {
            uint32_t at = w[SCAN_P_FINAL_BASE] + slot;
            if (!access_ok(m, pass, 2, at, acc_bytes))
                return false;
            write_value(m->region[pass->region[2]] + (size_t)at * acc_bytes, acc_bytes, acc);
        }
    }
    return true;
}

static bool run_lines(model *m, const plan_pass *pass)
{
    const uint32_t *w = pass->params;
    uint32_t n = w[SCAN_P_LENGTH], lines = w[SCAN_P_LINES], per_group = w[SCAN_P_CHUNK];
    bool packed = w[SCAN_P_DIMENSIONS] == 1 && w[SCAN_P_DIMENSION0 + 1] == n && w[SCAN_P_DIMENSION0 + 2] == n &&
                  w[SCAN_P_IN_STEP] == w[SCAN_P_OUT_STEP] &&
                  (w[SCAN_P_IN_STEP] == 1 || w[SCAN_P_IN_STEP] == UINT32_MAX);
    if (!packed || !per_group || per_group * n > kernel_lines_block(pass->key.element) ||
        w[SCAN_P_WORK_ITEMS] != (lines + per_group - 1) / per_group)
    {
        snprintf(m->failure, sizeof(m->failure), "a short-line pass over lines that are not short and packed");
        return false;
    }
    plan_pass as_serial = *pass;
    as_serial.key.kind = KERNEL_SERIAL;
    as_serial.params[SCAN_P_WORK_ITEMS] = lines;
    as_serial.params[SCAN_P_CHUNKS] = 1;
    as_serial.params[SCAN_P_CHUNK] = n;
    as_serial.params[SCAN_P_FLAGS] &= ~(uint32_t)SCAN_FLAG_CHUNK_MAJOR;
    return run_pass(m, &as_serial);
}

/* A random valid desc with small sizes and the given type. */
static void random_desc(uint64_t *state, dmlconf_data_type type, dmlconf_scan_desc *desc)
{
    memset(desc, 0, sizeof(*desc));
    desc->op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    desc->input.data_type = desc->output.data_type = type;
    uint32_t rank = 1 + (uint32_t)(next_random(state) % 4);
    desc->input.dimension_count = desc->output.dimension_count = rank;
    for (uint32_t d = 0; d < rank; ++d)
        desc->input.sizes[d] = desc->output.sizes[d] = 1 + (uint32_t)(next_random(state) % (rank == 1 ? 90 : 7));
    desc->axis = (uint32_t)(next_random(state) % rank);
    desc->direction = next_random(state) % 2 ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING;
    desc->exclusive = next_random(state) % 2;
    desc->in_place = next_random(state) % 5 == 0;
    /* Strides: packed, or padded (a gap after some dimensions), or (input
     * only) broadcast dimensions. */
    for (int t = 0; t < 2; ++t)
    {
        dmlconf_tensor_desc *tensor = t ? &desc->output : &desc->input;
        if (next_random(state) % 2)
            continue;
        tensor->has_strides = true;
        uint32_t stride = 1 + (uint32_t)(next_random(state) % 3);
        for (uint32_t d = rank; d-- > 0;)
        {
            bool broadcast = !t && next_random(state) % 4 == 0;
            tensor->strides[d] = broadcast ? 0 : stride;
            stride = stride * tensor->sizes[d] + (uint32_t)(next_random(state) % 3);
        }
    }
    if (desc->in_place)
        desc->output = desc->input = desc->output;
}

static uint64_t buffer_bytes(const dmlconf_tensor_desc *tensor)
{
    uint64_t bytes = 0;
    dmlconf_tensor_min_size_bytes(tensor, &bytes);
    return (bytes + 3) / 4 * 4;
}

/* Whether plan_kernels_in_reach lists `key` under `limits`. */
static bool in_reach(const plan_limits *limits, const kernel_key *key)
{
    kernel_key reach[PLAN_MAX_KERNELS];
    size_t count = plan_kernels_in_reach(limits, reach, PLAN_MAX_KERNELS);
    for (size_t i = 0; i < count; ++i)
    {
        if (kernel_key_index(&reach[i]) == kernel_key_index(key))
            return true;
    }
    return false;
}

/* Plans and models one desc; returns false with a message on a mismatch. */
static bool check_desc(const dmlconf_scan_desc *desc, const plan_limits *limits, uint64_t seed, char *why,
                       size_t why_size)
{
    unsigned element = dmlconf_data_type_bits(desc->input.data_type) / 8;
    uint64_t element_mask = mask_of(element);
    job_plan plan = {0};
    if (plan_job(desc, limits, &plan, why, why_size))
        return false;
    model m = {{NULL}, {0}, ""};
    m.bytes[REGION_INPUT] = desc->in_place ? 0 : (size_t)buffer_bytes(&desc->input);
    m.bytes[REGION_OUTPUT] = (size_t)buffer_bytes(&desc->output);
    m.bytes[REGION_SCRATCH] = (size_t)plan.scratch_bytes;
    for (unsigned r = 0; r < REGION_COUNT; ++r)
        m.region[r] = calloc(1, m.bytes[r] + 8);
    if (desc->in_place)
    {
        free(m.region[REGION_INPUT]);
        m.region[REGION_INPUT] = m.region[REGION_OUTPUT];
        m.bytes[REGION_INPUT] = m.bytes[REGION_OUTPUT];
    }
    uint64_t state = seed | 1;
    unsigned char *in = m.region[desc->in_place ? REGION_OUTPUT : REGION_INPUT];
    for (size_t b = 0; b < m.bytes[desc->in_place ? REGION_OUTPUT : REGION_INPUT]; ++b)
        in[b] = (unsigned char)next_random(&state);
    size_t in_bytes = m.bytes[desc->in_place ? REGION_OUTPUT : REGION_INPUT];
    unsigned char *original = malloc(in_bytes + 8);
    memcpy(original, in, in_bytes);

    bool ok = true;
    for (size_t p = 0; p < plan.count && ok; ++p)
    {
        const plan_pass *pass = &plan.passes[p];
        if (!kernel_key_exists(&pass->key))
        {
            snprintf(why, why_size, "pass %zu asks for a kernel that is never built (kind %d, element %d, fault %d)", p,
                     (int)pass->key.kind, (int)pass->key.element, (int)pass->key.fault);
            ok = false;
            break;
        }
        if (!in_reach(limits, &pass->key))
        {
            char name[64];
            kernel_key_name(&pass->key, name, sizeof(name));
            snprintf(why, why_size, "pass %zu uses %s, which plan_kernels_in_reach does not list", p, name);
            ok = false;
            break;
        }
        for (unsigned u = 0; u < 3; ++u)
        {
            if (pass->used[u] && pass->hi[u] - pass->lo[u] > limits->max_span_bytes)
            {
                snprintf(why, why_size, "pass %zu binding %u spans %llu bytes, more than %llu", p, u,
                         (unsigned long long)(pass->hi[u] - pass->lo[u]), (unsigned long long)limits->max_span_bytes);
                ok = false;
            }
        }
        if (ok && !run_pass(&m, pass))
        {
            snprintf(why, why_size, "pass %zu: %.200s", p, m.failure);
            ok = false;
        }
    }

    /* The expected values, line by line. */
    uint32_t n = desc->input.sizes[desc->axis];
    uint64_t lines = dmlconf_line_count(&desc->input, desc->axis);
    for (uint64_t line = 0; line < lines && ok; ++line)
    {
        uint64_t in_first, in_step, out_first, out_step;
        dmlconf_line_layout(&desc->input, desc->axis, line, &in_first, &in_step, NULL, NULL);
        dmlconf_line_layout(&desc->output, desc->axis, line, &out_first, &out_step, NULL, NULL);
        uint64_t acc = 0;
        for (uint32_t j = 0; j < n && ok; ++j)
        {
            uint32_t position = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING ? n - 1 - j : j;
            uint64_t x = read_value(original + (in_first + position * in_step) * element, element);
            uint64_t before = acc;
            acc = (acc + x) & element_mask;
            uint64_t expected = desc->exclusive ? before : acc;
            uint64_t got = read_value(m.region[REGION_OUTPUT] + (out_first + position * out_step) * element, element);
            if (got != expected)
            {
                snprintf(why, why_size, "line %llu element %u: %llu, expected %llu (%zu passes)",
                         (unsigned long long)line, position, (unsigned long long)got, (unsigned long long)expected,
                         plan.count);
                ok = false;
            }
        }
    }
    free(original);
    if (!desc->in_place)
        free(m.region[REGION_INPUT]);
    free(m.region[REGION_OUTPUT]);
    free(m.region[REGION_SCRATCH]);
    plan_release(&plan);
    return ok;
}

static const dmlconf_data_type types[] = {DMLCONF_DATA_TYPE_INT32, DMLCONF_DATA_TYPE_UINT64, DMLCONF_DATA_TYPE_FLOAT16};

/* Loop index: which limits. */
static plan_limits limits_for(int which)
{
    plan_limits limits;
    memset(&limits, 0, sizeof(limits));
    limits.parallel_items = 1u << 18;
    limits.min_chunk = 1;
    limits.tile_min_length = 16;
    limits.group_kind = KERNEL_TILE;
    limits.max_span_bytes = UINT64_MAX;
    switch (which)
    {
    case 0: /* a GPU's defaults, in miniature */
        limits.min_chunk = 4;
        limits.tile_groups = 4;
        limits.tile_min_tiles = 2;
        limits.tile_one_chunk = 20;
        limits.lookback = true;
        limits.short_lines = true;
        limits.single_pass_lines = 64;
        limits.lane_items = 1u << 10;
        break;
    case 1: /* chunks of 2: deep recursion over the totals */
        limits.forced = true;
        limits.forced_kind = KERNEL_SERIAL;
        limits.max_chunk = 2;
        break;
    case 2: /* tiles everywhere, in another shape */
        limits.forced = true;
        limits.forced_kind = KERNEL_TILE;
        limits.tile_shape = 3;
        limits.tile_groups = 2;
        limits.tile_min_tiles = 3;
        break;
    case 3: /* views of 256 bytes: pieces of lines and segments with carries */
        limits.max_span_bytes = 256;
        limits.max_chunk = 3;
        break;
    case 4: /* views of 384 bytes, no chunking: only the pieces; short packed lines in blocks */
        limits.short_lines = true;
        limits.max_span_bytes = 384;
        limits.parallel_items = 1;
        break;
    case 5: /* the look-back kernel wherever lines move in blocks, chunks of 3, in pieces of 512 bytes */
        limits.forced = true;
        limits.forced_kind = KERNEL_LOOKBACK;
        limits.max_chunk = 3;
        limits.max_span_bytes = 512;
        break;
    default: /* chained tile passes wherever lines move in blocks, 3 tiles of 64x8 a chunk, pieces of 4 KiB */
        limits.forced = true;
        limits.forced_kind = KERNEL_TILE;
        limits.lookback = true;
        limits.chained_always = true;
        limits.lookback_tiles = 3;
        limits.tile_shape = 2;
        limits.tile_groups = 4;
        limits.tile_min_tiles = 2;
        limits.max_span_bytes = 4096;
        break;
    }
    return limits;
}

START_TEST(test_random_plans)
{
    plan_limits limits = limits_for(_i);
    uint64_t state = UINT64_C(0x2545f4914f6cdd1d) + (uint64_t)_i;
    for (unsigned trial = 0; trial < 1500; ++trial)
    {
        dmlconf_scan_desc desc;
        random_desc(&state, types[trial % 3], &desc);
        ck_assert_msg(dmlconf_validate(&desc, DMLCONF_FEATURE_LEVEL_5_0, NULL), "trial %u made an invalid desc", trial);
        char why[256];
        bool ok = check_desc(&desc, &limits, next_random(&state), why, sizeof(why));
        ck_assert_msg(ok, "limits %d, trial %u (%s, rank %u, axis %u, %s%s%s): %s", _i, trial,
                      dmlconf_data_type_name(desc.input.data_type), desc.input.dimension_count, desc.axis,
                      desc.direction ? "decreasing" : "increasing", desc.exclusive ? ", exclusive" : "",
                      desc.in_place ? ", in place" : "", why);
    }
}
END_TEST

/* With a fault knob (whose kernels the model does not run), every kernel
 * a plan uses is still among those plan_kernels_in_reach lists, so that
 * building ahead covers the self-test runs too; and the list holds only
 * variants that exist, each once. */
START_TEST(test_kernels_in_reach_with_faults)
{
    for (int which = 0; which < 7; ++which)
    {
        for (unsigned fault = FAULT_NONE; fault < FAULT_COUNT; ++fault)
        {
            plan_limits limits = limits_for(which);
            limits.fault = (kernel_fault)fault;
            limits.lookback_spans = which >= 5 && fault == FAULT_NONE;
            if (which == 4)
                limits.tile_shape = 1; /* short lines under a tile shape other than the default */
            kernel_key reach[PLAN_MAX_KERNELS];
            size_t count = plan_kernels_in_reach(&limits, reach, PLAN_MAX_KERNELS);
            ck_assert_uint_gt(count, 0);
            ck_assert_uint_lt(count, PLAN_MAX_KERNELS);
            for (size_t i = 0; i < count; ++i)
            {
                ck_assert(kernel_key_exists(&reach[i]));
                for (size_t j = 0; j < i; ++j)
                    ck_assert_uint_ne(kernel_key_index(&reach[i]), kernel_key_index(&reach[j]));
            }
            uint64_t state = UINT64_C(0x9e3779b97f4a7c15) + (uint64_t)(which * 16 + (int)fault);
            for (unsigned trial = 0; trial < 300; ++trial)
            {
                dmlconf_scan_desc desc;
                random_desc(&state, types[trial % 3], &desc);
                job_plan plan = {0};
                char why[256];
                ck_assert_msg(!plan_job(&desc, &limits, &plan, why, sizeof(why)), "%s", why);
                for (size_t p = 0; p < plan.count; ++p)
                {
                    char name[64];
                    kernel_key_name(&plan.passes[p].key, name, sizeof(name));
                    ck_assert_msg(kernel_key_exists(&plan.passes[p].key),
                                  "limits %d, fault %u, trial %u: pass %zu "
                                  "asks for a kernel that is never built",
                                  which, fault, trial, p);
                    ck_assert_msg(in_reach(&limits, &plan.passes[p].key),
                                  "limits %d, fault %u, trial %u: %s is not in reach", which, fault, trial, name);
                }
                plan_release(&plan);
            }
        }
    }
}
END_TEST

/* The benchmark's shapes in miniature under a GPU's defaults: a float16
 * matrix along axis 0 is scanned in neighbouring pairs of lines, whose
 * chunk totals are short packed lines the short-line kernel does not take. */
START_TEST(test_gpu_shapes)
{
    static const struct
    {
        dmlconf_data_type type;
        uint32_t rows, columns, axis;
    } shapes[] = {
        {DMLCONF_DATA_TYPE_FLOAT16, 400, 64, 0},  {DMLCONF_DATA_TYPE_FLOAT16, 64, 400, 1},
        {DMLCONF_DATA_TYPE_UINT64, 400, 64, 0},   {DMLCONF_DATA_TYPE_INT32, 400, 64, 0},
        {DMLCONF_DATA_TYPE_INT32, 4000, 3, 1},    {DMLCONF_DATA_TYPE_FLOAT16, 4000, 3, 1},
        {DMLCONF_DATA_TYPE_FLOAT16, 1, 20000, 1}, {DMLCONF_DATA_TYPE_UINT64, 1, 20000, 1},
    };
    plan_limits limits = limits_for(0);
    for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); ++s)
    {
        for (unsigned variant = 0; variant < 4; ++variant)
        {
            dmlconf_scan_desc desc;
            memset(&desc, 0, sizeof(desc));
            desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
            desc.input.data_type = shapes[s].type;
            desc.input.dimension_count = 2;
            desc.input.sizes[0] = shapes[s].rows;
            desc.input.sizes[1] = shapes[s].columns;
            desc.output = desc.input;
            desc.axis = shapes[s].axis;
            desc.direction = (variant & 1) ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING;
            desc.exclusive = (variant & 2) != 0;
            char why[256];
            ck_assert_msg(check_desc(&desc, &limits, 7 + s, why, sizeof(why)), "%s [%u, %u] axis %u, variant %u: %s",
                          dmlconf_data_type_name(shapes[s].type), shapes[s].rows, shapes[s].columns, shapes[s].axis,
                          variant, why);
        }
    }
}
END_TEST

/* A GPU's limits for the serial kernel's chunks and the tile kernel's
 * lines, with views as large as wanted; the rest off. */
static plan_limits gpu_serial_limits(void)
{
    plan_limits limits;
    memset(&limits, 0, sizeof(limits));
    limits.parallel_items = 262144;
    limits.min_chunk = 128;
    limits.tile_min_length = 4096;
    limits.group_kind = KERNEL_TILE;
    limits.max_span_bytes = UINT64_MAX;
    return limits;
}

/* A 10^8-element 1-D scan under an H200's limits without the one-pass
 * scan: reduce, the chunk totals and the rescan, three passes for 32- and
 * 64-bit elements alike (a 64-bit tile holds half as many elements, so
 * without tile_one_chunk its 8192 totals took two chunks and two more
 * passes). With it (the default): one chained pass of the tile kernel in
 * chunks of 3 tiles (32-bit), 4 (64-bit) or 6 (float16). */
START_TEST(test_long_line_passes)
{
    static const dmlconf_data_type line_types[] = {DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_UINT64,
                                                   DMLCONF_DATA_TYPE_FLOAT16};
    for (size_t t = 0; t < sizeof(line_types) / sizeof(line_types[0]); ++t)
    {
        for (int rule = 0; rule < 3; ++rule)
        {
            plan_limits limits = gpu_serial_limits();
            limits.tile_groups = 8192;
            limits.tile_min_tiles = 8;
            limits.tile_one_chunk = rule ? 8192 : 0;
            limits.lookback = rule == 2;
            dmlconf_scan_desc desc;
            memset(&desc, 0, sizeof(desc));
            desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
            desc.input.data_type = line_types[t];
            desc.input.dimension_count = 1;
            desc.input.sizes[0] = 100000000u;
            desc.output = desc.input;
            job_plan plan = {0};
            char why[256];
            ck_assert_msg(!plan_job(&desc, &limits, &plan, why, sizeof(why)), "%s", why);
            size_t expected = rule == 2 ? 1 : rule || line_types[t] != DMLCONF_DATA_TYPE_UINT64 ? 3 : 5;
            ck_assert_msg(plan.count == expected, "%s, rule %d: %zu passes, expected %zu",
                          dmlconf_data_type_name(line_types[t]), rule, plan.count, expected);
            for (size_t p = 0; p < plan.count && rule == 1; ++p)
                ck_assert_int_eq(plan.passes[p].key.kind, KERNEL_TILE);
            if (rule == 2)
            {
                static const uint32_t chunks[] = {3 * 1024, 4 * 512, 6 * 1024};
                ck_assert_int_eq(plan.passes[0].key.kind, KERNEL_TILE);
                ck_assert(plan.passes[0].params[SCAN_P_FLAGS] & SCAN_FLAG_CHAINED);
                ck_assert_uint_eq(plan.passes[0].params[SCAN_P_CHUNK], chunks[t]);
                uint32_t chunk_count = (100000000u + chunks[t] - 1) / chunks[t];
                ck_assert_uint_eq(plan.passes[0].status_count, 2 * chunk_count + 1);
            }
            plan_release(&plan);
        }
    }
}
END_TEST

/* Float16 lines that pair up fill the device with `lane_items` threads,
 * 32-bit lines with `parallel_items`: 10^4 x 10^4 along axis 0 under a
 * GPU's limits is reduced in 10 chunks a line pair (5000 pairs, 49152
 * threads wanted), float32 in 27 (10^4 lines, 262144). */
START_TEST(test_pair_chunks)
{
    static const dmlconf_data_type pair_types[] = {DMLCONF_DATA_TYPE_FLOAT16, DMLCONF_DATA_TYPE_FLOAT32};
    static const uint32_t expected_chunk[] = {1000, 371};
    for (size_t t = 0; t < 2; ++t)
    {
        plan_limits limits = gpu_serial_limits();
        limits.lane_items = 49152;
        dmlconf_scan_desc desc;
        memset(&desc, 0, sizeof(desc));
        desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
        desc.input.data_type = pair_types[t];
        desc.input.dimension_count = 2;
        desc.input.sizes[0] = 10000;
        desc.input.sizes[1] = 10000;
        desc.output = desc.input;
        desc.axis = 0;
        job_plan plan = {0};
        char why[256];
        ck_assert_msg(!plan_job(&desc, &limits, &plan, why, sizeof(why)), "%s", why);
        ck_assert_uint_eq(plan.count, 3);
        ck_assert_int_eq(plan.passes[0].key.kind, KERNEL_SERIAL);
        ck_assert_int_eq(plan.passes[0].key.element, t == 0 ? ELEMENT_F16X2 : ELEMENT_F32);
        ck_assert_uint_eq(plan.passes[0].params[SCAN_P_CHUNK], expected_chunk[t]);
        plan_release(&plan);
    }
}
END_TEST

START_TEST(test_folding)
{
    /* A packed [2, 3, 4, 5] scanned along axis 1: the two outer-inner
     * groups do not merge (the axis sits between them), the dimensions
     * after the axis merge into one. */
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    desc.input.data_type = desc.output.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    desc.input.dimension_count = desc.output.dimension_count = 4;
    uint32_t sizes[4] = {2, 3, 4, 5};
    memcpy(desc.input.sizes, sizes, sizeof(sizes));
    memcpy(desc.output.sizes, sizes, sizeof(sizes));
    desc.axis = 1;
    plan_limits limits = limits_for(0);
    job_plan plan = {0};
    char why[128];
    ck_assert_int_eq(plan_job(&desc, &limits, &plan, why, sizeof(why)), 0);
    ck_assert_uint_eq(plan.count, 1);
    const uint32_t *w = plan.passes[0].params;
    ck_assert_uint_eq(w[SCAN_P_LINES], 40);
    ck_assert_uint_eq(w[SCAN_P_DIMENSIONS], 2);
    ck_assert_uint_eq(w[SCAN_P_DIMENSION0], 20); /* 4 x 5 merged, stride 1 */
    ck_assert_uint_eq(w[SCAN_P_DIMENSION0 + 1], 1);
    ck_assert_uint_eq(w[SCAN_P_DIMENSION0 + 4], 2); /* the outermost, stride 60 */
    ck_assert_uint_eq(w[SCAN_P_DIMENSION0 + 5], 60);
    ck_assert_uint_eq(w[SCAN_P_LENGTH], 3);
    ck_assert_uint_eq(w[SCAN_P_IN_STEP], 20);
    plan_release(&plan);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("plan");
    TCase *random = tcase_create("random");
    tcase_set_timeout(random, 120);
    tcase_add_loop_test(random, test_random_plans, 0, 7);
    tcase_add_test(random, test_gpu_shapes);
    tcase_add_test(random, test_kernels_in_reach_with_faults);
    tcase_add_test(random, test_long_line_passes);
    tcase_add_test(random, test_pair_chunks);
    suite_add_tcase(suite, random);
    TCase *folding = tcase_create("folding");
    tcase_add_test(folding, test_folding);
    suite_add_tcase(suite, folding);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
