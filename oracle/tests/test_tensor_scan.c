/*
 * dmlconf_compute over whole tensors: every axis of a rank-8 tensor, both
 * directions, both modes, every computable type, packed, padded, broadcast
 * and permuted layouts, in place; against a brute-force reference written
 * here. The data are small integers, so every sum and product is exact in
 * every type and the reference needs no rounding. Then the errors and where
 * side data lands.
 */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

static const dmlconf_data_type types[] = {
    DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_FLOAT16, DMLCONF_DATA_TYPE_INT32,
    DMLCONF_DATA_TYPE_UINT32,  DMLCONF_DATA_TYPE_INT64,   DMLCONF_DATA_TYPE_UINT64,
};

static const uint32_t rank8_sizes[8] = {2, 3, 1, 2, 3, 2, 1, 2};

/* A tensor's storage: its desc and a buffer with `bytes` bytes. */
typedef struct layout
{
    uint32_t rank;
    uint32_t sizes[DMLCONF_MAX_DIMENSIONS];
    const uint32_t *input_strides;  /* NULL: packed */
    const uint32_t *output_strides; /* NULL: packed */
} layout;

typedef struct scan_case
{
    dmlconf_operator op;
    dmlconf_data_type type;
    uint32_t axis;
    dmlconf_axis_direction direction;
    bool exclusive;
    bool in_place;
} scan_case;

static void fill_strides(dmlconf_tensor_desc *desc, const uint32_t *strides)
{
    if (!strides)
        return;
    desc->has_strides = true;
    for (uint32_t d = 0; d < desc->dimension_count; ++d)
        desc->strides[d] = strides[d];
}

static uint64_t element_count(const layout *l)
{
    uint64_t count = 1;
    for (uint32_t d = 0; d < l->rank; ++d)
        count *= l->sizes[d];
    return count;
}

/* Coordinates of logical (row-major) element `index`. */
static void coordinates(const layout *l, uint64_t index, uint32_t *c)
{
    for (uint32_t d = l->rank; d-- > 0;)
    {
        c[d] = (uint32_t)(index % l->sizes[d]);
        index /= l->sizes[d];
    }
}

static uint64_t logical_index(const layout *l, const uint32_t *c)
{
    uint64_t index = 0;
    for (uint32_t d = 0; d < l->rank; ++d)
        index = index * l->sizes[d] + c[d];
    return index;
}

/* Element offset of coordinates c under strides (NULL: packed). */
static uint64_t offset_of(const layout *l, const uint32_t *strides, const uint32_t *c)
{
    if (!strides)
        return logical_index(l, c);
    uint64_t offset = 0;
    for (uint32_t d = 0; d < l->rank; ++d)
        offset += (uint64_t)c[d] * strides[d];
    return offset;
}

/* The reference: element c of the output combines the elements of its line
 * at positions k along the axis with k < c[axis] (increasing) or
 * k > c[axis] (decreasing), plus c[axis] itself unless exclusive. Sums start
 * at +0 and products at 1 and go in scan order, so even the signs of zeros
 * follow IEEE arithmetic; the values are small integers, so every step is
 * exact. */
static double reference(const layout *l, const scan_case *s, const double *logical_input, const uint32_t *c)
{
    uint32_t n = l->sizes[s->axis];
    uint32_t position = c[s->axis];
    bool product = s->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    double tally = product ? 1.0 : 0.0;
    uint32_t k_coords[DMLCONF_MAX_DIMENSIONS];
    memcpy(k_coords, c, sizeof(k_coords));
    for (uint32_t step = 0; step < n; ++step)
    {
        uint32_t k = s->direction == DMLCONF_AXIS_DIRECTION_INCREASING ? step : n - 1 - step;
        bool before = s->direction == DMLCONF_AXIS_DIRECTION_INCREASING ? k < position : k > position;
        if (!before && !(k == position && !s->exclusive))
            continue;
        k_coords[s->axis] = k;
        double x = logical_input[logical_index(l, k_coords)];
        tally = product ? tally * x : tally + x;
    }
    return tally;
}

static void descs_for(const layout *l, const scan_case *s, dmlconf_scan_desc *desc)
{
    *desc = test_scan_desc(s->op, s->type, l->rank, l->sizes, s->axis, s->direction, s->exclusive);
    fill_strides(&desc->input, l->input_strides);
    fill_strides(&desc->output, l->output_strides);
    desc->in_place = s->in_place;
}

static const char *describe(const layout *l, const scan_case *s, const char *what, char *buffer, size_t size)
{
    snprintf(buffer, size, "%s: %s %s rank %u axis %u %s %s%s", what, dmlconf_operator_name(s->op),
             dmlconf_data_type_name(s->type), l->rank, s->axis,
             s->direction == DMLCONF_AXIS_DIRECTION_INCREASING ? "increasing" : "decreasing",
             s->exclusive ? "exclusive" : "inclusive", s->in_place ? " in place" : "");
    return buffer;
}

/* Draws a small integer for one storage element: products get factors
 * whose magnitude keeps long lines exact, sums small signed terms. */
static double draw_value(test_rng *rng, const scan_case *s, uint32_t axis_length)
{
    if (s->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT)
    {
        if (axis_length > 8)
        {
            static const double factors[] = {1, -1, 1, -1, 1, 2, -2, 0};
            return factors[test_rng_below(rng, COUNT_OF(factors))];
        }
        return (double)test_rng_below(rng, 7) - 3; /* -3 .. 3 */
    }
    return (double)test_rng_below(rng, 9) - 4; /* -4 .. 4 */
}

/* Runs one case and checks every output element, the output's padding
 * bytes and the input's bytes. */
static void run_case(const layout *l, const scan_case *s, uint64_t seed, const char *what)
{
    char context[256];
    describe(l, s, what, context, sizeof(context));
    dmlconf_scan_desc desc;
    descs_for(l, s, &desc);
    ck_assert_msg(dmlconf_validate(&desc, DMLCONF_FEATURE_LEVEL_6_4, NULL), "%s: the desc is invalid", context);

    const size_t element = test_element_bytes(s->type);
    uint64_t in_bytes = 0, out_bytes = 0;
    ck_assert(dmlconf_tensor_min_size_bytes(&desc.input, &in_bytes));
    ck_assert(dmlconf_tensor_min_size_bytes(&desc.output, &out_bytes));
    const uint64_t count = element_count(l);

    /* Storage values first (a broadcast input reads one value many times),
     * then each logical element's value through its offset. */
    unsigned char *input = malloc(in_bytes), *input_copy = malloc(in_bytes);
    unsigned char *output = malloc(out_bytes), *output_before = malloc(out_bytes);
    double *storage = malloc(in_bytes / element * sizeof(double) + sizeof(double));
    double *logical = malloc(count * sizeof(double));
    ck_assert(input && input_copy && output && output_before && storage && logical);

    test_rng rng;
    test_rng_seed(&rng, seed);
    for (uint64_t i = 0; i < in_bytes / element; ++i)
    {
        storage[i] = draw_value(&rng, s, l->sizes[s->axis]);
        test_store_value(s->type, input, i, storage[i]);
    }
    /* Bytes past the last whole element (rounding to 4) get a pattern. */
    for (uint64_t i = in_bytes / element * element; i < in_bytes; ++i)
        input[i] = 0x5c;
    uint32_t c[DMLCONF_MAX_DIMENSIONS] = {0};
    for (uint64_t i = 0; i < count; ++i)
    {
        coordinates(l, i, c);
        logical[i] = storage[offset_of(l, l->input_strides, c)];
    }
    memcpy(input_copy, input, in_bytes);

    unsigned char *out_buffer = s->in_place ? input : output;
    if (!s->in_place)
    {
        for (uint64_t i = 0; i < out_bytes; ++i)
            output[i] = (unsigned char)(0xa0 + i % 7);
    }
    memcpy(output_before, out_buffer, out_bytes);

    dmlconf_error err;
    memset(&err, 0, sizeof(err));
    int rc = dmlconf_compute(&desc, input, in_bytes, out_buffer, out_bytes, NULL, &err);
    ck_assert_msg(rc == 0, "%s: dmlconf_compute failed: %s", context, err.message);

    /* Every output element, and a map of the bytes they own. */
    unsigned char *owned = calloc(out_bytes, 1);
    ck_assert_ptr_nonnull(owned);
    for (uint64_t i = 0; i < count; ++i)
    {
        coordinates(l, i, c);
        uint64_t offset = offset_of(l, l->output_strides, c);
        memset(owned + offset * element, 1, element);
        double expected_value = reference(l, s, logical, c);
        uint64_t expected = test_value_bits(s->type, expected_value);
        uint64_t got = test_load_bits(s->type, out_buffer, offset);
        if (got != expected)
        {
            char got_text[64], expected_text[64];
            ck_abort_msg("%s: logical element %llu (offset %llu) is %s, expected %s", context, (unsigned long long)i,
                         (unsigned long long)offset, test_format_bits(s->type, got, got_text, sizeof(got_text)),
                         test_format_bits(s->type, expected, expected_text, sizeof(expected_text)));
        }
    }
    /* Plain comparisons in the byte loop: a Check assertion per byte would
     * cost a message to the parent process each. */
    for (uint64_t i = 0; i < out_bytes; ++i)
    {
        if (!owned[i] && out_buffer[i] != output_before[i])
            ck_abort_msg("%s: padding byte %llu of the output changed", context, (unsigned long long)i);
    }
    if (!s->in_place)
        ck_assert_msg(!memcmp(input, input_copy, in_bytes), "%s: the input changed", context);

    free(owned);
    free(logical);
    free(storage);
    free(output_before);
    free(output);
    free(input_copy);
    free(input);
}

/* Runs both directions, both modes and both operators. */
static void run_all_modes(const layout *l, dmlconf_data_type type, uint32_t axis, bool in_place, const char *what)
{
    for (int op = 0; op < 2; ++op)
    {
        for (int mode = 0; mode < 4; ++mode)
        {
            scan_case s = {
                op ? DMLCONF_OPERATOR_CUMULATIVE_PRODUCT : DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
                type,
                axis,
                (mode & 1) ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING,
                (mode & 2) != 0,
                in_place,
            };
            run_case(l, &s, 0x7e57000 + (uint64_t)(op * 4 + mode) * 131 + axis * 17 + (uint64_t)type, what);
        }
    }
}

/* ---- layouts ---------------------------------------------------------------- */

/* Loop index: axis * type count + type. */
START_TEST(rank8_packed)
{
    const uint32_t axis = (uint32_t)_i / COUNT_OF(types);
    layout l = {8, {0}, NULL, NULL};
    memcpy(l.sizes, rank8_sizes, sizeof(rank8_sizes));
    run_all_modes(&l, types[_i % (int)COUNT_OF(types)], axis, false, "rank 8 packed");
}
END_TEST

START_TEST(rank8_padded)
{
    /* Input and output padded differently (every stride larger than the
     * packed one, and an inner stride of 2). */
    static const uint32_t input_strides[8] = {1000, 300, 97, 40, 12, 3, 5, 1};
    static const uint32_t output_strides[8] = {640, 200, 211, 90, 28, 8, 3, 2};
    const uint32_t axis = (uint32_t)_i / COUNT_OF(types);
    layout l = {8, {0}, input_strides, output_strides};
    memcpy(l.sizes, rank8_sizes, sizeof(rank8_sizes));
    run_all_modes(&l, types[_i % (int)COUNT_OF(types)], axis, false, "rank 8 padded");
}
END_TEST

START_TEST(rank8_broadcast_input)
{
    /* Stride 0 on dimensions 0, 3 and 5 (sizes 2, 2, 2): broadcast along
     * those axes too. The output is column-major (a permuted layout). */
    static const uint32_t input_strides[8] = {0, 6, 6, 0, 2, 0, 1, 1};
    static const uint32_t output_strides[8] = {1, 2, 6, 6, 12, 36, 72, 72};
    const uint32_t axis = (uint32_t)_i / COUNT_OF(types);
    layout l = {8, {0}, input_strides, output_strides};
    memcpy(l.sizes, rank8_sizes, sizeof(rank8_sizes));
    run_all_modes(&l, types[_i % (int)COUNT_OF(types)], axis, false, "rank 8 broadcast input, column-major output");
}
END_TEST

START_TEST(rank8_in_place)
{
    static const uint32_t padded[8] = {512, 160, 150, 50, 16, 5, 3, 2};
    const uint32_t axis = (uint32_t)_i / COUNT_OF(types);
    layout l = {8, {0}, NULL, NULL};
    memcpy(l.sizes, rank8_sizes, sizeof(rank8_sizes));
    run_all_modes(&l, types[_i % (int)COUNT_OF(types)], axis, true, "rank 8 in place, packed");
    l.input_strides = l.output_strides = padded;
    run_all_modes(&l, types[_i % (int)COUNT_OF(types)], axis, true, "rank 8 in place, padded");
}
END_TEST

START_TEST(small_shapes)
{
    const dmlconf_data_type type = types[_i];
    static const uint32_t stride_2[1] = {2};
    static const uint32_t stride_0[1] = {0};
    static const struct
    {
        const char *what;
        layout l;
        uint32_t axis;
    } shapes[] = {
        {"rank 1, one element", {1, {1}, NULL, NULL}, 0},
        {"rank 1, 7 elements", {1, {7}, NULL, NULL}, 0},
        {"rank 1, 50 elements", {1, {50}, NULL, NULL}, 0},
        {"rank 1, 9 elements, stride 2 output", {1, {9}, NULL, stride_2}, 0},
        {"rank 1, 6 elements broadcast", {1, {6}, stride_0, NULL}, 0},
        {"size-1 axis in the middle", {3, {3, 1, 4}, NULL, NULL}, 1},
        {"size-1 axis first", {3, {1, 5, 2}, NULL, NULL}, 0},
        {"size-1 axis last", {2, {6, 1}, NULL, NULL}, 1},
        {"all sizes 1, rank 8", {8, {1, 1, 1, 1, 1, 1, 1, 1}, NULL, NULL}, 5},
        {"long axis 0 of rank 2", {2, {40, 3}, NULL, NULL}, 0},
        {"documented shape, axis 0", {4, {1, 1, 3, 4}, NULL, NULL}, 0},
    };
    for (size_t i = 0; i < COUNT_OF(shapes); ++i)
    {
        run_all_modes(&shapes[i].l, type, shapes[i].axis, false, shapes[i].what);
        if (!shapes[i].l.input_strides && !shapes[i].l.output_strides)
            run_all_modes(&shapes[i].l, type, shapes[i].axis, true, shapes[i].what);
    }
}
END_TEST

/* ---- errors ------------------------------------------------------------------ */

/* Expects dmlconf_compute to fail, mention `needle`, and leave the output
 * buffer as it was. */
static void expect_failure(const dmlconf_scan_desc *desc, const void *input, size_t input_bytes, void *output,
                           size_t output_bytes, const char *needle, const char *what)
{
    unsigned char before[512];
    ck_assert(output_bytes <= sizeof(before));
    if (output)
        memcpy(before, output, output_bytes);
    dmlconf_error err;
    memset(&err, 0, sizeof(err));
    int rc = dmlconf_compute(desc, input, input_bytes, output, output_bytes, NULL, &err);
    ck_assert_msg(rc == -1, "%s: returned %d, expected -1", what, rc);
    ck_assert_msg(err.message[0] != '\0', "%s: no message", what);
    if (needle)
        ck_assert_msg(strstr(err.message, needle) != NULL, "%s: message '%s' does not mention '%s'", what, err.message,
                      needle);
    if (output)
        ck_assert_msg(!memcmp(before, output, output_bytes), "%s: the output was written on an error", what);
    /* A NULL error pointer is allowed and gives the same answer. */
    ck_assert_int_eq(dmlconf_compute(desc, input, input_bytes, output, output_bytes, NULL, NULL), -1);
}

START_TEST(buffer_errors)
{
    const uint32_t sizes[] = {1, 1, 3, 4};
    dmlconf_scan_desc desc = test_scan_desc(DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, 4, sizes,
                                            3, DMLCONF_AXIS_DIRECTION_INCREASING, false);
    float input[12], output[12], big[64];
    for (int i = 0; i < 12; ++i)
        input[i] = (float)i;
    for (int i = 0; i < 64; ++i)
        big[i] = (float)(i % 5);
    memset(output, 0x7b, sizeof(output));

    /* The baseline works. */
    dmlconf_error err;
    ck_assert_int_eq(dmlconf_compute(&desc, input, sizeof(input), output, sizeof(output), NULL, &err), 0);
    memset(output, 0x7b, sizeof(output));

    expect_failure(&desc, input, 44, output, sizeof(output), "44", "input buffer too small");
    expect_failure(&desc, input, sizeof(input), output, 47, "47", "output buffer too small");
    expect_failure(&desc, input, 0, output, sizeof(output), "input", "empty input buffer");
    expect_failure(&desc, NULL, sizeof(input), output, sizeof(output), "input", "NULL input");
    expect_failure(&desc, input, sizeof(input), NULL, sizeof(output), "output", "NULL output");

    /* A declared total size larger than the minimum is what the buffer
     * must hold. */
    dmlconf_scan_desc total = desc;
    total.input.total_size_bytes = 64;
    expect_failure(&total, big, 60, output, sizeof(output), "64", "input smaller than its total size");
    ck_assert_int_eq(dmlconf_compute(&total, big, 64, output, sizeof(output), NULL, &err), 0);
    memset(output, 0x7b, sizeof(output));

    /* Overlapping buffers without in_place: the same pointer, and shifted
     * by one element inside one allocation. */
    expect_failure(&desc, big, 48, big, 48, "overlap", "same buffer without in_place");
    expect_failure(&desc, big, 48, big + 1, 48, "overlap", "output one element after the input");
    expect_failure(&desc, big + 11, 48, big, 48, "overlap", "output one element before the input's end");
    /* Adjacent but disjoint is fine. */
    ck_assert_int_eq(dmlconf_compute(&desc, big, 48, big + 12, 48, NULL, &err), 0);

    /* In place needs the very same pointer. */
    dmlconf_scan_desc in_place = desc;
    in_place.in_place = true;
    expect_failure(&in_place, input, sizeof(input), output, sizeof(output), "in_place", "in_place with another buffer");
    expect_failure(&in_place, big, 48, big + 1, 48, "in_place", "in_place with a shifted pointer");

    /* A self-overlapping output. */
    dmlconf_scan_desc broadcast_out = desc;
    broadcast_out.output.has_strides = true;
    const uint32_t strides[] = {0, 0, 0, 1};
    memcpy(broadcast_out.output.strides, strides, sizeof(strides));
    expect_failure(&broadcast_out, input, sizeof(input), output, sizeof(output), "output",
                   "output rows on top of each other");
    /* ... while a broadcast input is fine. */
    dmlconf_scan_desc broadcast_in = desc;
    broadcast_in.input.has_strides = true;
    memcpy(broadcast_in.input.strides, strides, sizeof(strides));
    ck_assert_int_eq(dmlconf_compute(&broadcast_in, input, 16, output, sizeof(output), NULL, &err), 0);
}
END_TEST

START_TEST(desc_errors)
{
    const uint32_t sizes[] = {1, 1, 3, 4};
    dmlconf_scan_desc base = test_scan_desc(DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_INT32, 4, sizes, 3,
                                            DMLCONF_AXIS_DIRECTION_DECREASING, true);
    int32_t input[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, output[12];
    memset(output, 0x3c, sizeof(output));

    dmlconf_scan_desc desc = base;
    desc.axis = 4;
    expect_failure(&desc, input, sizeof(input), output, sizeof(output), "axis_out_of_range", "axis 4");

    desc = base;
    desc.input.data_type = desc.output.data_type = DMLCONF_DATA_TYPE_UINT16;
    expect_failure(&desc, input, sizeof(input), output, sizeof(output), "data_type_unsupported", "UINT16");

    desc = base;
    desc.output.sizes[2] = 4;
    expect_failure(&desc, input, sizeof(input), output, sizeof(output), "sizes_mismatch", "sizes mismatch");

    desc = base;
    desc.op = (dmlconf_operator)99;
    expect_failure(&desc, input, sizeof(input), output, sizeof(output), "unknown_operator", "operator 99");

    desc = base;
    desc.in_place = true;
    desc.output.total_size_bytes = 64;
    expect_failure(&desc, input, sizeof(input), input, sizeof(input), "in_place_mismatch", "in-place mismatch");

    /* A desc valid only above its own feature level's rules is computed:
     * dmlconf_compute accepts what any level accepts. */
    desc = base;
    desc.input.dimension_count = desc.output.dimension_count = 2;
    desc.input.sizes[0] = desc.output.sizes[0] = 3;
    desc.input.sizes[1] = desc.output.sizes[1] = 4;
    desc.axis = 1;
    ck_assert_int_eq(dmlconf_compute(&desc, input, sizeof(input), output, sizeof(output), NULL, NULL), 0);
    /* Exclusive decreasing product of {1,2,3,4}: {24, 12, 4, 1}. */
    ck_assert_int_eq(output[0], 24);
    ck_assert_int_eq(output[1], 12);
    ck_assert_int_eq(output[2], 4);
    ck_assert_int_eq(output[3], 1);
    ck_assert_int_eq(output[8], 12 * 11 * 10);
}
END_TEST

/* ---- side data ---------------------------------------------------------------- */

/* Side data is indexed by logical (row-major) element, whatever the
 * strides and direction. Sizes {3,4}, padded strides, both axes. */
START_TEST(side_data_logical_order)
{
    static const uint32_t in_strides[2] = {7, 1}, out_strides[2] = {1, 5};
    const dmlconf_data_type type = _i == 0 ? DMLCONF_DATA_TYPE_FLOAT32 : DMLCONF_DATA_TYPE_INT32;
    for (uint32_t axis = 0; axis < 2; ++axis)
    {
        for (int mode = 0; mode < 4; ++mode)
        {
            const bool decreasing = (mode & 1) != 0, exclusive = (mode & 2) != 0;
            layout l = {2, {3, 4}, in_strides, out_strides};
            scan_case s = {DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
                           type,
                           axis,
                           decreasing ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING,
                           exclusive,
                           false};
            dmlconf_scan_desc desc;
            descs_for(&l, &s, &desc);

            /* Input element [r][c] = (r * 4 + c + 1) * (odd c ? -1 : 1),
             * stored at r * 7 + c. */
            unsigned char input[4 * 32], output[4 * 32];
            double values[12];
            memset(input, 0, sizeof(input));
            for (uint32_t r = 0; r < 3; ++r)
            {
                for (uint32_t col = 0; col < 4; ++col)
                {
                    values[r * 4 + col] = (double)(r * 4 + col + 1) * (col % 2 ? -1.0 : 1.0);
                    test_store_value(type, input, r * 7 + col, values[r * 4 + col]);
                }
            }
            dmlconf_side_data side[12];
            memset(side, 0xee, sizeof(side));
            uint64_t in_bytes = 0, out_bytes = 0;
            ck_assert(dmlconf_tensor_min_size_bytes(&desc.input, &in_bytes));
            ck_assert(dmlconf_tensor_min_size_bytes(&desc.output, &out_bytes));
            dmlconf_error err;
            int rc = dmlconf_compute(&desc, input, in_bytes, output, out_bytes, side, &err);
            ck_assert_msg(rc == 0, "%s", err.message);

            for (uint32_t r = 0; r < 3; ++r)
            {
                for (uint32_t col = 0; col < 4; ++col)
                {
                    const uint32_t n = axis == 0 ? 3 : 4, position = axis == 0 ? r : col;
                    uint32_t terms = decreasing ? n - position : position + 1;
                    if (exclusive)
                        --terms;
                    double abs_sum = 0;
                    for (uint32_t k = 0; k < n; ++k)
                    {
                        bool in_prefix = decreasing ? k > position : k < position;
                        if (in_prefix || (k == position && !exclusive))
                        {
                            double v = axis == 0 ? values[k * 4 + col] : values[r * 4 + k];
                            abs_sum += v < 0 ? -v : v;
                        }
                    }
                    const dmlconf_side_data *entry = &side[r * 4 + col];
                    ck_assert_msg(entry->terms == terms, "%s axis %u %s %s: side[%u][%u].terms = %u, expected %u",
                                  dmlconf_data_type_name(type), axis, decreasing ? "decreasing" : "increasing",
                                  exclusive ? "exclusive" : "inclusive", r, col, entry->terms, terms);
                    if (type == DMLCONF_DATA_TYPE_FLOAT32)
                        ck_assert_msg(entry->abs_sum == abs_sum,
                                      "axis %u %s %s: side[%u][%u].abs_sum = %g, expected %g", axis,
                                      decreasing ? "decreasing" : "increasing", exclusive ? "exclusive" : "inclusive",
                                      r, col, entry->abs_sum, abs_sum);
                }
            }
        }
    }
}
END_TEST

/* What dmlconf_compute copies beside the buffers: nothing for lines read
 * and written where they lie, a line's length of elements for each side it
 * cannot (reversed, strided, in place), side data where its order is not
 * the line's. */
START_TEST(scratch_bytes)
{
    static const uint32_t out_strides[2] = {1, 5};
    const layout packed = {2, {3, 4}, NULL, NULL}, strided_out = {2, {3, 4}, NULL, out_strides};
    const uint64_t side = sizeof(dmlconf_side_data);
    struct
    {
        const layout *l;
        uint32_t axis;
        bool decreasing, in_place, with_side;
        uint64_t expected;
    } checks[] = {
        {&packed, 1, false, false, false, 0},
        {&packed, 1, false, false, true, 0},
        {&packed, 1, true, false, false, 2 * 4 * 4},
        {&packed, 1, true, false, true, 2 * 4 * 4 + 4 * side},
        {&packed, 1, false, true, false, 4 * 4},
        {&strided_out, 1, false, false, true, 4 * 4},
        {&packed, 0, false, false, false, 2 * 3 * 4},
        {&packed, 0, false, false, true, 2 * 3 * 4 + 3 * side},
    };
    for (size_t i = 0; i < COUNT_OF(checks); ++i)
    {
        scan_case s = {DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
                       DMLCONF_DATA_TYPE_INT32,
                       checks[i].axis,
                       checks[i].decreasing ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING,
                       false,
                       checks[i].in_place};
        dmlconf_scan_desc desc;
        descs_for(checks[i].l, &s, &desc);
        ck_assert_msg(dmlconf_compute_scratch_bytes(&desc, checks[i].with_side) == checks[i].expected,
                      "check %zu: %llu bytes, expected %llu", i,
                      (unsigned long long)dmlconf_compute_scratch_bytes(&desc, checks[i].with_side),
                      (unsigned long long)checks[i].expected);
    }
}
END_TEST

static Suite *tensor_scan_suite(void)
{
    Suite *suite = suite_create("tensor_scan");
    const int rank8_iterations = (int)(8 * COUNT_OF(types));

    TCase *tc = tcase_create("rank8_packed");
    tcase_add_loop_test(tc, rank8_packed, 0, rank8_iterations);
    suite_add_tcase(suite, tc);

    tc = tcase_create("rank8_padded");
    tcase_add_loop_test(tc, rank8_padded, 0, rank8_iterations);
    suite_add_tcase(suite, tc);

    tc = tcase_create("rank8_broadcast");
    tcase_add_loop_test(tc, rank8_broadcast_input, 0, rank8_iterations);
    suite_add_tcase(suite, tc);

    tc = tcase_create("rank8_in_place");
    tcase_add_loop_test(tc, rank8_in_place, 0, rank8_iterations);
    suite_add_tcase(suite, tc);

    tc = tcase_create("small_shapes");
    tcase_add_loop_test(tc, small_shapes, 0, (int)COUNT_OF(types));
    suite_add_tcase(suite, tc);

    tc = tcase_create("errors");
    tcase_add_test(tc, buffer_errors);
    tcase_add_test(tc, desc_errors);
    suite_add_tcase(suite, tc);

    tc = tcase_create("side_data");
    tcase_add_loop_test(tc, side_data_logical_order, 0, 2);
    suite_add_tcase(suite, tc);

    tc = tcase_create("scratch");
    tcase_add_test(tc, scratch_bytes);
    suite_add_tcase(suite, tc);

    return suite;
}

int main(void)
{
    return test_run_suite(tensor_scan_suite());
}
