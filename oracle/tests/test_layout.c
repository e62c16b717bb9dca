/*
 * Tensor layout: element counts, strides, minimum buffer sizes, lines along
 * an axis and self-overlap, checked against hand-computed values and
 * against brute-force walks over every coordinate.
 */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

static dmlconf_tensor_desc make_desc(dmlconf_data_type type, uint32_t rank, const uint32_t *sizes,
                                     const uint32_t *strides)
{
    dmlconf_tensor_desc desc = test_packed_desc(type, rank, sizes);
    if (strides)
    {
        desc.has_strides = true;
        for (uint32_t d = 0; d < rank; ++d)
            desc.strides[d] = strides[d];
    }
    return desc;
}

/* Walks every coordinate of desc in row-major order, storing the element
 * offset that `strides` gives each one (at most max_count of them); returns
 * the element count. */
static uint64_t walk_offsets(const dmlconf_tensor_desc *desc, const uint32_t *strides, uint64_t *offsets,
                             uint64_t max_count)
{
    uint32_t c[DMLCONF_MAX_DIMENSIONS] = {0};
    uint64_t count = 0;
    for (;;)
    {
        uint64_t offset = 0;
        for (uint32_t d = 0; d < desc->dimension_count; ++d)
            offset += (uint64_t)c[d] * strides[d];
        if (count < max_count)
            offsets[count] = offset;
        ++count;
        uint32_t d = desc->dimension_count;
        while (d > 0)
        {
            --d;
            if (++c[d] < desc->sizes[d])
                break;
            c[d] = 0;
            if (d == 0)
                return count;
        }
    }
}

/* ---- element count and strides -------------------------------------------- */

START_TEST(element_count)
{
    const uint32_t doc[] = {1, 1, 3, 4};
    dmlconf_tensor_desc desc = test_packed_desc(DMLCONF_DATA_TYPE_FLOAT32, 4, doc);
    ck_assert_uint_eq(dmlconf_tensor_element_count(&desc), 12);

    const uint32_t rank8[] = {2, 3, 1, 2, 3, 2, 1, 2};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT32, 8, rank8);
    ck_assert_uint_eq(dmlconf_tensor_element_count(&desc), 144);

    const uint32_t one[] = {7};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT32, 1, one);
    ck_assert_uint_eq(dmlconf_tensor_element_count(&desc), 7);

    /* Rank 0, rank 9 and a zero size have no elements. */
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT32, 0, doc);
    ck_assert_uint_eq(dmlconf_tensor_element_count(&desc), 0);
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT32, 8, rank8);
    desc.dimension_count = 9;
    ck_assert_uint_eq(dmlconf_tensor_element_count(&desc), 0);
    const uint32_t zero[] = {3, 0, 4};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT32, 3, zero);
    ck_assert_uint_eq(dmlconf_tensor_element_count(&desc), 0);
    const uint32_t zero_last[] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT32, 4, zero_last);
    ck_assert_uint_eq(dmlconf_tensor_element_count(&desc), 0);

    /* Exact while it fits, saturated beyond. */
    const uint32_t big2[] = {0xffffffffu, 0xffffffffu};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT32, 2, big2);
    ck_assert_uint_eq(dmlconf_tensor_element_count(&desc), UINT64_C(0xfffffffe00000001));
    const uint32_t limit[] = {65535, 65537};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT32, 2, limit);
    ck_assert_uint_eq(dmlconf_tensor_element_count(&desc), DMLCONF_MAX_ELEMENTS);
    const uint32_t big3[] = {0xffffffffu, 0xffffffffu, 2};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT32, 3, big3);
    ck_assert_uint_eq(dmlconf_tensor_element_count(&desc), UINT64_MAX);
    const uint32_t big8[] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
                             0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT32, 8, big8);
    ck_assert_uint_eq(dmlconf_tensor_element_count(&desc), UINT64_MAX);
    /* 2^32 * 2^32 is exactly 2^64: one past the largest count, so it saturates. */
    const uint32_t pow2[] = {65536, 65536, 65536, 65536};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT32, 4, pow2);
    ck_assert_uint_eq(dmlconf_tensor_element_count(&desc), UINT64_MAX);
    const uint32_t pow2_fits[] = {65536, 65536, 65536, 32768};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT32, 4, pow2_fits);
    ck_assert_uint_eq(dmlconf_tensor_element_count(&desc), UINT64_C(1) << 63);
}
END_TEST

START_TEST(packed_and_explicit_strides)
{
    const uint32_t sizes[] = {2, 3, 4, 5};
    dmlconf_tensor_desc desc = test_packed_desc(DMLCONF_DATA_TYPE_FLOAT32, 4, sizes);
    ck_assert_uint_eq(dmlconf_tensor_stride(&desc, 0), 60);
    ck_assert_uint_eq(dmlconf_tensor_stride(&desc, 1), 20);
    ck_assert_uint_eq(dmlconf_tensor_stride(&desc, 2), 5);
    ck_assert_uint_eq(dmlconf_tensor_stride(&desc, 3), 1);

    const uint32_t explicit_strides[] = {0, 7, 100, 3};
    desc = make_desc(DMLCONF_DATA_TYPE_FLOAT32, 4, sizes, explicit_strides);
    for (uint32_t d = 0; d < 4; ++d)
        ck_assert_uint_eq(dmlconf_tensor_stride(&desc, d), explicit_strides[d]);

    /* Packed strides of a rank-8 tensor: products of the later sizes. */
    const uint32_t rank8[] = {2, 3, 1, 2, 3, 2, 1, 2};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT64, 8, rank8);
    const uint64_t expected[] = {72, 24, 24, 12, 4, 2, 2, 1};
    for (uint32_t d = 0; d < 8; ++d)
        ck_assert_msg(dmlconf_tensor_stride(&desc, d) == expected[d], "dimension %u: stride %llu, expected %llu", d,
                      (unsigned long long)dmlconf_tensor_stride(&desc, d), (unsigned long long)expected[d]);

    /* Packed strides of the largest sizes do not wrap. */
    const uint32_t big[] = {2, 0xffffffffu, 0xffffffffu};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT32, 3, big);
    ck_assert_uint_eq(dmlconf_tensor_stride(&desc, 0), UINT64_C(0xfffffffe00000001));
    ck_assert_uint_eq(dmlconf_tensor_stride(&desc, 1), UINT64_C(0xffffffff));
}
END_TEST

/* ---- minimum buffer size -------------------------------------------------- */

static const struct
{
    const char *name;
    dmlconf_data_type type;
    uint32_t rank;
    uint32_t sizes[4];
    bool has_strides;
    uint32_t strides[4];
    uint64_t bytes;
} min_size_cases[] = {
    {"doc example float32", DMLCONF_DATA_TYPE_FLOAT32, 4, {1, 1, 3, 4}, false, {0}, 48},
    {"doc example float16", DMLCONF_DATA_TYPE_FLOAT16, 4, {1, 1, 3, 4}, false, {0}, 24},
    {"doc example int64", DMLCONF_DATA_TYPE_INT64, 4, {1, 1, 3, 4}, false, {0}, 96},
    {"one float32", DMLCONF_DATA_TYPE_FLOAT32, 1, {1}, false, {0}, 4},
    {"one float16 rounds up to 4", DMLCONF_DATA_TYPE_FLOAT16, 1, {1}, false, {0}, 4},
    {"two float16", DMLCONF_DATA_TYPE_FLOAT16, 1, {2}, false, {0}, 4},
    {"three float16 rounds 6 up to 8", DMLCONF_DATA_TYPE_FLOAT16, 1, {3}, false, {0}, 8},
    {"five float16 rounds 10 up to 12", DMLCONF_DATA_TYPE_FLOAT16, 2, {5, 1}, false, {0}, 12},
    {"three int64", DMLCONF_DATA_TYPE_INT64, 1, {3}, false, {0}, 24},
    {"five uint8 rounds up", DMLCONF_DATA_TYPE_UINT8, 1, {5}, false, {0}, 8},
    {"three uint4: 12 bits", DMLCONF_DATA_TYPE_UINT4, 1, {3}, false, {0}, 4},
    {"nine int4: 36 bits", DMLCONF_DATA_TYPE_INT4, 1, {9}, false, {0}, 8},
    {"padded rows", DMLCONF_DATA_TYPE_FLOAT32, 2, {2, 3}, true, {8, 1}, 44},
    {"padded rows float16", DMLCONF_DATA_TYPE_FLOAT16, 2, {2, 3}, true, {8, 1}, 24},
    {"padded float16 odd span", DMLCONF_DATA_TYPE_FLOAT16, 2, {2, 3}, true, {7, 2}, 24},
    {"inner stride 2", DMLCONF_DATA_TYPE_FLOAT32, 1, {4}, true, {2}, 28},
    {"broadcast rows", DMLCONF_DATA_TYPE_FLOAT32, 2, {4, 5}, true, {0, 1}, 20},
    {"broadcast everything", DMLCONF_DATA_TYPE_FLOAT32, 3, {4, 5, 6}, true, {0, 0, 0}, 4},
    {"broadcast everything float16", DMLCONF_DATA_TYPE_FLOAT16, 2, {4, 5}, true, {0, 0}, 4},
    {"broadcast everything int64", DMLCONF_DATA_TYPE_INT64, 2, {4, 5}, true, {0, 0}, 8},
    {"transposed", DMLCONF_DATA_TYPE_INT32, 2, {3, 4}, true, {1, 3}, 48},
    {"size-1 dimension with a huge stride", DMLCONF_DATA_TYPE_FLOAT32, 2, {1, 3}, true, {0xffffffffu, 1}, 12},
    {"largest element count", DMLCONF_DATA_TYPE_FLOAT32, 2, {65535, 65537}, false, {0}, UINT64_C(0xffffffff) * 4},
    {"largest span float16: 2^32-1 halves",
     DMLCONF_DATA_TYPE_FLOAT16,
     1,
     {0xffffffffu},
     false,
     {0},
     UINT64_C(0x200000000)},
    {"huge strides that still fit",
     DMLCONF_DATA_TYPE_FLOAT32,
     2,
     {0xffffffffu, 2},
     true,
     {0x3fffffffu, 1},
     UINT64_C(0xfffffffa00000010)},
};

START_TEST(min_size_table)
{
    dmlconf_tensor_desc desc = make_desc(min_size_cases[_i].type, min_size_cases[_i].rank, min_size_cases[_i].sizes,
                                         min_size_cases[_i].has_strides ? min_size_cases[_i].strides : NULL);
    uint64_t bytes = 12345;
    ck_assert_msg(dmlconf_tensor_min_size_bytes(&desc, &bytes), "%s: failed", min_size_cases[_i].name);
    ck_assert_msg(bytes == min_size_cases[_i].bytes, "%s: %llu bytes, expected %llu", min_size_cases[_i].name,
                  (unsigned long long)bytes, (unsigned long long)min_size_cases[_i].bytes);
    ck_assert_msg(bytes % 4 == 0, "%s: %llu is not a multiple of 4", min_size_cases[_i].name,
                  (unsigned long long)bytes);
}
END_TEST

START_TEST(min_size_failures)
{
    uint64_t bytes = 777;
    /* The span overflows 64 bits. */
    const uint32_t sizes2[] = {0xffffffffu, 0xffffffffu};
    const uint32_t strides2[] = {0xffffffffu, 0xffffffffu};
    dmlconf_tensor_desc desc = make_desc(DMLCONF_DATA_TYPE_FLOAT32, 2, sizes2, strides2);
    ck_assert(!dmlconf_tensor_min_size_bytes(&desc, &bytes));

    /* The span fits (just under 2^64) but span * 32 bits does not. */
    const uint32_t sizes1[] = {0xffffffffu};
    const uint32_t strides1[] = {0xffffffffu};
    desc = make_desc(DMLCONF_DATA_TYPE_FLOAT32, 1, sizes1, strides1);
    ck_assert(!dmlconf_tensor_min_size_bytes(&desc, &bytes));
    /* The same span of bytes, (2^32-2)(2^32-1)+1 = 2^64 - 3*2^32 + 3, fits
     * and rounds up to a multiple of 4. */
    desc.data_type = DMLCONF_DATA_TYPE_UINT8;
    ck_assert(dmlconf_tensor_min_size_bytes(&desc, &bytes));
    ck_assert_uint_eq(bytes, UINT64_C(0xfffffffd00000004));
    /* 2 bytes an element overflow. */
    desc.data_type = DMLCONF_DATA_TYPE_FLOAT16;
    ck_assert(!dmlconf_tensor_min_size_bytes(&desc, &bytes));

    /* The packed span of many large sizes overflows too. */
    const uint32_t big[] = {0xffffffffu, 0xffffffffu, 0xffffffffu};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_FLOAT32, 3, big);
    ck_assert(!dmlconf_tensor_min_size_bytes(&desc, &bytes));

    /* No elements, or no element size. */
    const uint32_t zero[] = {3, 0};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_FLOAT32, 2, zero);
    ck_assert(!dmlconf_tensor_min_size_bytes(&desc, &bytes));
    const uint32_t fine[] = {3, 4};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_UNKNOWN, 2, fine);
    ck_assert(!dmlconf_tensor_min_size_bytes(&desc, &bytes));
    desc = test_packed_desc((dmlconf_data_type)99, 2, fine);
    ck_assert(!dmlconf_tensor_min_size_bytes(&desc, &bytes));
    desc = test_packed_desc(DMLCONF_DATA_TYPE_FLOAT32, 0, fine);
    ck_assert(!dmlconf_tensor_min_size_bytes(&desc, &bytes));
}
END_TEST

/* Random small descs against a brute-force walk: the span is one past the
 * largest offset any element reaches. */
START_TEST(min_size_brute_force)
{
    static const dmlconf_data_type types[] = {DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_FLOAT16,
                                              DMLCONF_DATA_TYPE_INT64, DMLCONF_DATA_TYPE_UINT8, DMLCONF_DATA_TYPE_INT4};
    test_rng rng;
    test_rng_seed(&rng, 0x5eed0001);
    uint64_t *offsets = malloc(4096 * sizeof(*offsets));
    ck_assert_ptr_nonnull(offsets);
    for (int iteration = 0; iteration < 2000; ++iteration)
    {
        uint32_t rank = 1 + (uint32_t)test_rng_below(&rng, 5);
        uint32_t sizes[DMLCONF_MAX_DIMENSIONS], strides[DMLCONF_MAX_DIMENSIONS];
        for (uint32_t d = 0; d < rank; ++d)
        {
            sizes[d] = 1 + (uint32_t)test_rng_below(&rng, 4);
            strides[d] = (uint32_t)test_rng_below(&rng, 9);
        }
        bool packed = test_rng_below(&rng, 4) == 0;
        dmlconf_tensor_desc desc =
            make_desc(types[test_rng_below(&rng, COUNT_OF(types))], rank, sizes, packed ? NULL : strides);
        uint32_t used[DMLCONF_MAX_DIMENSIONS];
        for (uint32_t d = 0; d < rank; ++d)
            used[d] = (uint32_t)dmlconf_tensor_stride(&desc, d);
        uint64_t count = walk_offsets(&desc, used, offsets, 4096);
        uint64_t span = 0;
        for (uint64_t i = 0; i < count; ++i)
            span = offsets[i] + 1 > span ? offsets[i] + 1 : span;
        unsigned bits = dmlconf_data_type_bits(desc.data_type);
        uint64_t expected = (span * bits + 7) / 8;
        expected = (expected + 3) / 4 * 4;
        uint64_t bytes = 0;
        ck_assert(dmlconf_tensor_min_size_bytes(&desc, &bytes));
        ck_assert_msg(bytes == expected, "iteration %d (rank %u, %s, %s): %llu bytes, expected %llu", iteration, rank,
                      dmlconf_data_type_name(desc.data_type), packed ? "packed" : "strided", (unsigned long long)bytes,
                      (unsigned long long)expected);
        if (packed)
            ck_assert_uint_eq(span, count);
    }
    free(offsets);
}
END_TEST

/* ---- lines ---------------------------------------------------------------- */

START_TEST(line_count)
{
    const uint32_t sizes[] = {2, 3, 4};
    dmlconf_tensor_desc desc = test_packed_desc(DMLCONF_DATA_TYPE_FLOAT32, 3, sizes);
    ck_assert_uint_eq(dmlconf_line_count(&desc, 0), 12);
    ck_assert_uint_eq(dmlconf_line_count(&desc, 1), 8);
    ck_assert_uint_eq(dmlconf_line_count(&desc, 2), 6);
    ck_assert_uint_eq(dmlconf_line_count(&desc, 3), 0);
    ck_assert_uint_eq(dmlconf_line_count(&desc, 100), 0);

    const uint32_t one[] = {5};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_FLOAT32, 1, one);
    ck_assert_uint_eq(dmlconf_line_count(&desc, 0), 1);

    const uint32_t zero[] = {2, 0, 4};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_FLOAT32, 3, zero);
    ck_assert_uint_eq(dmlconf_line_count(&desc, 0), 0);
}
END_TEST

/* Every line of every axis of a rank-8 tensor, packed and strided, against a
 * walk over all coordinates: the line with index L holds the elements whose
 * coordinates other than the axis, read in row-major order, are the L-th
 * combination. */
static void check_line_layout(const dmlconf_tensor_desc *desc, const char *what)
{
    const uint32_t rank = desc->dimension_count;
    uint64_t packed[DMLCONF_MAX_DIMENSIONS];
    packed[rank - 1] = 1;
    for (uint32_t d = rank - 1; d-- > 0;)
        packed[d] = packed[d + 1] * desc->sizes[d + 1];

    for (uint32_t axis = 0; axis < rank; ++axis)
    {
        uint64_t lines = dmlconf_line_count(desc, axis);
        ck_assert_uint_eq(lines, dmlconf_tensor_element_count(desc) / desc->sizes[axis]);
        uint32_t c[DMLCONF_MAX_DIMENSIONS] = {0};
        for (uint64_t line = 0; line < lines; ++line)
        {
            uint64_t expected_first = 0, expected_logical = 0;
            for (uint32_t d = 0; d < rank; ++d)
            {
                expected_first += c[d] * (desc->has_strides ? (uint64_t)desc->strides[d] : packed[d]);
                expected_logical += c[d] * packed[d];
            }
            uint64_t first = 1u << 30, step = 1u << 30, logical_first = 1u << 30, logical_step = 1u << 30;
            dmlconf_line_layout(desc, axis, line, &first, &step, &logical_first, &logical_step);
            ck_assert_msg(first == expected_first, "%s axis %u line %llu: first %llu, expected %llu", what, axis,
                          (unsigned long long)line, (unsigned long long)first, (unsigned long long)expected_first);
            uint64_t expected_step = desc->has_strides ? desc->strides[axis] : packed[axis];
            ck_assert_msg(step == expected_step, "%s axis %u: step %llu, expected %llu", what, axis,
                          (unsigned long long)step, (unsigned long long)expected_step);
            ck_assert_msg(logical_first == expected_logical, "%s axis %u line %llu: logical %llu, expected %llu", what,
                          axis, (unsigned long long)line, (unsigned long long)logical_first,
                          (unsigned long long)expected_logical);
            ck_assert_msg(logical_step == packed[axis], "%s axis %u: logical step %llu, expected %llu", what, axis,
                          (unsigned long long)logical_step, (unsigned long long)packed[axis]);

            /* NULL outputs are allowed and do not change the others. */
            uint64_t only_first = 0;
            dmlconf_line_layout(desc, axis, line, &only_first, NULL, NULL, NULL);
            ck_assert_uint_eq(only_first, expected_first);
            uint64_t only_logical = 0;
            dmlconf_line_layout(desc, axis, line, NULL, NULL, &only_logical, NULL);
            ck_assert_uint_eq(only_logical, expected_logical);

            /* Next combination of the other coordinates, last fastest. */
            for (uint32_t d = rank; d-- > 0;)
            {
                if (d == axis)
                    continue;
                if (++c[d] < desc->sizes[d])
                    break;
                c[d] = 0;
            }
        }
        for (uint32_t d = 0; d < rank; ++d)
            ck_assert_msg(c[d] == 0, "%s axis %u: line count does not cover every combination", what, axis);
    }
}

START_TEST(line_layout_rank8)
{
    const uint32_t sizes[] = {2, 3, 1, 2, 3, 2, 1, 2};
    dmlconf_tensor_desc desc = test_packed_desc(DMLCONF_DATA_TYPE_FLOAT32, 8, sizes);
    check_line_layout(&desc, "packed");

    /* Padded strides: each stride exceeds what the inner dimensions need. */
    const uint32_t padded[] = {1000, 300, 97, 40, 12, 3, 5, 1};
    desc = make_desc(DMLCONF_DATA_TYPE_FLOAT32, 8, sizes, padded);
    check_line_layout(&desc, "padded");

    /* A permuted (column-major) layout and a broadcast one. */
    const uint32_t permuted[] = {1, 2, 6, 6, 12, 36, 72, 72};
    desc = make_desc(DMLCONF_DATA_TYPE_FLOAT16, 8, sizes, permuted);
    check_line_layout(&desc, "column-major");
    const uint32_t broadcast[] = {0, 2, 9, 0, 1, 0, 4, 7};
    desc = make_desc(DMLCONF_DATA_TYPE_INT64, 8, sizes, broadcast);
    check_line_layout(&desc, "broadcast");

    const uint32_t wide[] = {4, 1, 5, 3, 1, 2, 3, 2};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT32, 8, wide);
    check_line_layout(&desc, "wide packed");

    const uint32_t one[] = {6};
    desc = test_packed_desc(DMLCONF_DATA_TYPE_INT32, 1, one);
    check_line_layout(&desc, "rank 1");
}
END_TEST

/* ---- self-overlap --------------------------------------------------------- */

static const struct
{
    const char *name;
    uint32_t rank;
    uint32_t sizes[4];
    bool has_strides;
    uint32_t strides[4];
    bool overlaps;
} overlap_cases[] = {
    {"packed", 3, {2, 3, 4}, false, {0}, false},
    {"explicit packed strides", 3, {2, 3, 4}, true, {12, 4, 1}, false},
    {"padded", 2, {4, 3}, true, {5, 1}, false},
    {"inner stride 2", 1, {5}, true, {2}, false},
    {"broadcast", 2, {4, 3}, true, {0, 1}, true},
    {"broadcast inner", 2, {4, 3}, true, {3, 0}, true},
    {"stride 0 on a size-1 dimension", 2, {1, 3}, true, {0, 1}, false},
    {"all size 1", 3, {1, 1, 1}, true, {0, 0, 0}, false},
    {"equal strides", 2, {2, 2}, true, {1, 1}, true},
    {"rows overlap by one", 2, {2, 3}, true, {2, 1}, true},
    {"interleaved disjoint {3,2} {2,3}", 2, {3, 2}, true, {2, 3}, false},
    {"interleaved colliding {3,2} {1,2}", 2, {3, 2}, true, {1, 2}, true},
    {"interleaved disjoint {2,2} {3,2}", 2, {2, 2}, true, {3, 2}, false},
    {"interleaved disjoint {3,3} {2,3}", 2, {3, 3}, true, {2, 3}, false},
    {"interleaved colliding {4,3} {2,3}", 2, {4, 3}, true, {2, 3}, true},
    {"column-major", 3, {2, 3, 4}, true, {1, 2, 6}, false},
    {"transposed with padding", 2, {3, 4}, true, {1, 4}, false},
    {"stride equal to the extent", 2, {3, 4}, true, {3, 1}, true},
    {"huge strides", 2, {2, 2}, true, {0xffffffffu, 0x7fffffffu}, false},
};

START_TEST(self_overlap_table)
{
    dmlconf_tensor_desc desc = make_desc(DMLCONF_DATA_TYPE_FLOAT32, overlap_cases[_i].rank, overlap_cases[_i].sizes,
                                         overlap_cases[_i].has_strides ? overlap_cases[_i].strides : NULL);
    ck_assert_msg(dmlconf_tensor_self_overlaps(&desc) == overlap_cases[_i].overlaps, "%s: expected %s",
                  overlap_cases[_i].name, overlap_cases[_i].overlaps ? "an overlap" : "no overlap");
}
END_TEST

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Random small strided descs: overlap exactly when two coordinates map to
 * the same offset. */
START_TEST(self_overlap_brute_force)
{
    test_rng rng;
    test_rng_seed(&rng, 0x5eed0002);
    uint64_t *offsets = malloc(4096 * sizeof(*offsets));
    ck_assert_ptr_nonnull(offsets);
    int overlapping = 0, disjoint = 0;
    for (int iteration = 0; iteration < 5000; ++iteration)
    {
        uint32_t rank = 1 + (uint32_t)test_rng_below(&rng, 4);
        uint32_t sizes[DMLCONF_MAX_DIMENSIONS], strides[DMLCONF_MAX_DIMENSIONS];
        for (uint32_t d = 0; d < rank; ++d)
        {
            sizes[d] = 1 + (uint32_t)test_rng_below(&rng, 4);
            strides[d] = (uint32_t)test_rng_below(&rng, 13);
        }
        dmlconf_tensor_desc desc = make_desc(DMLCONF_DATA_TYPE_INT32, rank, sizes, strides);
        uint64_t count = walk_offsets(&desc, strides, offsets, 4096);
        qsort(offsets, count, sizeof(*offsets), compare_u64);
        bool collide = false;
        for (uint64_t i = 1; i < count; ++i)
            collide = collide || offsets[i] == offsets[i - 1];
        collide ? ++overlapping : ++disjoint;
        ck_assert_msg(dmlconf_tensor_self_overlaps(&desc) == collide,
                      "iteration %d: sizes {%u,%u,%u,%u} strides {%u,%u,%u,%u} (rank %u): expected %s", iteration,
                      sizes[0], rank > 1 ? sizes[1] : 0, rank > 2 ? sizes[2] : 0, rank > 3 ? sizes[3] : 0, strides[0],
                      rank > 1 ? strides[1] : 0, rank > 2 ? strides[2] : 0, rank > 3 ? strides[3] : 0, rank,
                      collide ? "an overlap" : "no overlap");
    }
    /* The random descs exercise both answers. */
    ck_assert_int_gt(overlapping, 500);
    ck_assert_int_gt(disjoint, 500);
    free(offsets);
}
END_TEST

static Suite *layout_suite(void)
{
    Suite *suite = suite_create("layout");

    TCase *tc = tcase_create("counts_and_strides");
    tcase_add_test(tc, element_count);
    tcase_add_test(tc, packed_and_explicit_strides);
    suite_add_tcase(suite, tc);

    tc = tcase_create("min_size");
    tcase_add_loop_test(tc, min_size_table, 0, (int)COUNT_OF(min_size_cases));
    tcase_add_test(tc, min_size_failures);
    tcase_add_test(tc, min_size_brute_force);
    suite_add_tcase(suite, tc);

    tc = tcase_create("lines");
    tcase_add_test(tc, line_count);
    tcase_add_test(tc, line_layout_rank8);
    suite_add_tcase(suite, tc);

    tc = tcase_create("self_overlap");
    tcase_add_loop_test(tc, self_overlap_table, 0, (int)COUNT_OF(overlap_cases));
    tcase_add_test(tc, self_overlap_brute_force);
    suite_add_tcase(suite, tc);

    return suite;
}

int main(void)
{
    return test_run_suite(layout_suite());
}
