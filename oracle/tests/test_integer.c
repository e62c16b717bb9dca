/*
 * Integer scans wrap modulo 2^w in their own type (two's complement): no
 * widening, no saturation. Hand-computed cases at the limits of INT32,
 * UINT32, INT64 and UINT64, then long random lines against a reference
 * computed here by a different method (exact wide sums reduced at the end,
 * schoolbook products over half-words), all in unsigned arithmetic.
 */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

#define I32_MIN UINT64_C(0x80000000)
#define I32_MAX UINT64_C(0x7fffffff)
#define U32_MAX UINT64_C(0xffffffff)
#define I32(v)  ((uint64_t)(uint32_t)(int32_t)(v)) /* the 32-bit pattern of a small signed value */
#define I64_MIN UINT64_C(0x8000000000000000)
#define I64_MAX UINT64_C(0x7fffffffffffffff)
#define U64_MAX UINT64_MAX
#define I64(v)  ((uint64_t)(int64_t)(v))

static const dmlconf_operator SUM = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
static const dmlconf_operator PRODUCT = DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;

/* Values and results are bit patterns, zero-extended to 64 bits. */
static const struct
{
    const char *name;
    dmlconf_operator op;
    dmlconf_data_type type;
    bool exclusive;
    size_t n;
    uint64_t in[4];
    uint64_t out[4];
} cases[] = {
    /* INT32 sums */
    {"int32 max + 1 wraps to min, and back",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     DMLCONF_DATA_TYPE_INT32,
     false,
     4,
     {I32_MAX, 1, 1, I32(-2)},
     {I32_MAX, I32_MIN, I32_MIN + 1, I32_MAX}},
    {"int32 exclusive starts at 0, total not written",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     DMLCONF_DATA_TYPE_INT32,
     true,
     4,
     {I32_MAX, 1, 1, I32(-2)},
     {0, I32_MAX, I32_MIN, I32_MIN + 1}},
    {"int32 min + min = 0",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     DMLCONF_DATA_TYPE_INT32,
     false,
     2,
     {I32_MIN, I32_MIN},
     {I32_MIN, 0}},
    {"int32 min - 1 wraps to max",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     DMLCONF_DATA_TYPE_INT32,
     false,
     3,
     {I32_MIN, I32(-1), 1},
     {I32_MIN, I32_MAX, I32_MIN}},
    /* UINT32 sums */
    {"uint32 max + 1 wraps to 0",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     DMLCONF_DATA_TYPE_UINT32,
     false,
     4,
     {U32_MAX, 1, U32_MAX, 2},
     {U32_MAX, 0, U32_MAX, 1}},
    {"uint32 exclusive",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     DMLCONF_DATA_TYPE_UINT32,
     true,
     3,
     {U32_MAX, 1, 5},
     {0, U32_MAX, 0}},
    {"uint32 max + max",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     DMLCONF_DATA_TYPE_UINT32,
     false,
     2,
     {U32_MAX, U32_MAX},
     {U32_MAX, U32_MAX - 1}},
    /* INT64 sums */
    {"int64 max + 1 wraps to min; min + min = 0",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     DMLCONF_DATA_TYPE_INT64,
     false,
     3,
     {I64_MAX, 1, I64_MIN},
     {I64_MAX, I64_MIN, 0}},
    {"int64 min - 1 wraps to max",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     DMLCONF_DATA_TYPE_INT64,
     false,
     2,
     {I64_MIN, I64(-1)},
     {I64_MIN, I64_MAX}},
    {"int64 exclusive",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     DMLCONF_DATA_TYPE_INT64,
     true,
     3,
     {I64_MAX, I64_MAX, 9},
     {0, I64_MAX, I64(-2)}},
    /* UINT64 sums */
    {"uint64 max + 2 wraps to 1",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     DMLCONF_DATA_TYPE_UINT64,
     false,
     3,
     {U64_MAX, 2, U64_MAX},
     {U64_MAX, 1, 0}},
    {"uint64 exclusive",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     DMLCONF_DATA_TYPE_UINT64,
     true,
     3,
     {U64_MAX, U64_MAX, 7},
     {0, U64_MAX, U64_MAX - 1}},
    /* 32-bit products */
    {"int32 min * -1 wraps to min",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_INT32,
     false,
     2,
     {I32_MIN, I32(-1)},
     {I32_MIN, I32_MIN}},
    {"int32 -1 * min * -1",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_INT32,
     false,
     3,
     {I32(-1), I32_MIN, I32(-1)},
     {I32(-1), I32_MIN, I32_MIN}},
    {"int32 2^16 * 2^16 wraps to 0",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_INT32,
     false,
     3,
     {65536, 65536, 7},
     {65536, 0, 0}},
    {"uint32 2^16 * 2^16 wraps to 0",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_UINT32,
     false,
     2,
     {65536, 65536},
     {65536, 0}},
    {"uint32 max * max = 1",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_UINT32,
     false,
     2,
     {U32_MAX, U32_MAX},
     {U32_MAX, 1}},
    {"int32 max * 2 = -2",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_INT32,
     false,
     2,
     {I32_MAX, 2},
     {I32_MAX, I32(-2)}},
    {"int32 max * max = 1",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_INT32,
     false,
     2,
     {I32_MAX, I32_MAX},
     {I32_MAX, 1}},
    {"int32 46341^2 wraps negative",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_INT32,
     false,
     2,
     {46341, 46341},
     {46341, I32(-2147479015)}},
    {"uint32 3 * 0x55555556 = 2",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_UINT32,
     false,
     2,
     {3, 0x55555556},
     {3, 2}},
    {"int32 exclusive product starts at 1",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_INT32,
     true,
     3,
     {I32_MIN, I32(-1), 3},
     {1, I32_MIN, I32_MIN}},
    {"uint32 exclusive product of one",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_UINT32,
     true,
     1,
     {0},
     {1}},
    /* 64-bit products */
    {"int64 min * -1 wraps to min",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_INT64,
     false,
     2,
     {I64_MIN, I64(-1)},
     {I64_MIN, I64_MIN}},
    {"int64 2^32 * 2^32 wraps to 0",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_INT64,
     false,
     3,
     {UINT64_C(1) << 32, UINT64_C(1) << 32, 3},
     {UINT64_C(1) << 32, 0, 0}},
    {"int64 2^32 * 2^31 = min",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_INT64,
     false,
     2,
     {UINT64_C(1) << 32, UINT64_C(1) << 31},
     {UINT64_C(1) << 32, I64_MIN}},
    {"uint64 max * max = 1",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_UINT64,
     false,
     2,
     {U64_MAX, U64_MAX},
     {U64_MAX, 1}},
    {"int64 max * 2 = -2",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_INT64,
     false,
     2,
     {I64_MAX, 2},
     {I64_MAX, I64(-2)}},
    {"uint64 3 * 0x5555555555555556 = 2",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_UINT64,
     false,
     2,
     {3, UINT64_C(0x5555555555555556)},
     {3, 2}},
    {"uint64 exclusive product",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_UINT64,
     true,
     3,
     {0, 5, 6},
     {1, 0, 0}},
    {"int64 exclusive product of one",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_INT64,
     true,
     1,
     {I64_MIN},
     {1}},
    {"int64 exclusive sum of one",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     DMLCONF_DATA_TYPE_INT64,
     true,
     1,
     {I64_MIN},
     {0}},
    /* Values that only 32 bits wrap and 64 bits do not. */
    {"int64 2^31 * 2^31 stays exact",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     DMLCONF_DATA_TYPE_INT64,
     false,
     2,
     {UINT64_C(1) << 31, UINT64_C(1) << 31},
     {UINT64_C(1) << 31, UINT64_C(1) << 62}},
    {"uint64 sum past 2^32 stays exact",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     DMLCONF_DATA_TYPE_UINT64,
     false,
     2,
     {U32_MAX, U32_MAX},
     {U32_MAX, UINT64_C(0x1fffffffe)}},
};

START_TEST(limits)
{
    const dmlconf_data_type type = cases[_i].type;
    unsigned char in[32], out[40];
    memset(in, 0, sizeof(in));
    memset(out, 0xcd, sizeof(out));
    for (size_t i = 0; i < cases[_i].n; ++i)
        test_store_bits(type, in, i, cases[_i].in[i]);
    dmlconf_side_data side[4];
    dmlconf_error err;
    memset(&err, 0, sizeof(err));
    int rc = dmlconf_scan_line(cases[_i].op, type, cases[_i].exclusive, cases[_i].n, in, out, side, &err);
    ck_assert_msg(rc == 0, "%s: %s", cases[_i].name, err.message);
    for (size_t i = 0; i < cases[_i].n; ++i)
    {
        uint64_t got = test_load_bits(type, out, i), expected = cases[_i].out[i];
        char got_text[64], expected_text[64];
        ck_assert_msg(got == expected, "%s: element %zu is %s, expected %s", cases[_i].name, i,
                      test_format_bits(type, got, got_text, sizeof(got_text)),
                      test_format_bits(type, expected, expected_text, sizeof(expected_text)));
        ck_assert_uint_eq(side[i].terms, cases[_i].exclusive ? i : i + 1);
    }
    /* Nothing written past n elements. */
    for (size_t i = cases[_i].n * test_element_bytes(type); i < sizeof(out); ++i)
        ck_assert_msg(out[i] == 0xcd, "%s: byte %zu past the line changed", cases[_i].name, i);

    /* The same line as a tensor through dmlconf_compute, both directions:
     * the decreasing scan of the reversed line is the reversed result. */
    const uint32_t sizes[] = {(uint32_t)cases[_i].n};
    for (int reversed = 0; reversed < 2; ++reversed)
    {
        dmlconf_scan_desc desc = test_scan_desc(
            cases[_i].op, type, 1, sizes, 0,
            reversed ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING, cases[_i].exclusive);
        unsigned char tensor_in[32] = {0}, tensor_out[32];
        for (size_t i = 0; i < cases[_i].n; ++i)
            test_store_bits(type, tensor_in, reversed ? cases[_i].n - 1 - i : i, cases[_i].in[i]);
        size_t bytes = (cases[_i].n * test_element_bytes(type) + 3) / 4 * 4;
        rc = dmlconf_compute(&desc, tensor_in, bytes, tensor_out, bytes, NULL, &err);
        ck_assert_msg(rc == 0, "%s: %s", cases[_i].name, err.message);
        for (size_t i = 0; i < cases[_i].n; ++i)
        {
            uint64_t got = test_load_bits(type, tensor_out, reversed ? cases[_i].n - 1 - i : i);
            ck_assert_msg(got == cases[_i].out[i], "%s (%s tensor): element %zu is 0x%llx, expected 0x%llx",
                          cases[_i].name, reversed ? "decreasing" : "increasing", i, (unsigned long long)got,
                          (unsigned long long)cases[_i].out[i]);
        }
    }
}
END_TEST

/* ---- long random lines ------------------------------------------------------ */

/* The reference, by methods other than a wrapping running total. */
typedef struct reference_state
{
    uint64_t wide_lo, wide_hi; /* sums: exact sums of low and high 32-bit halves */
    int64_t signed_sum;        /* INT32 sums: the exact sum */
    uint64_t product;          /* products: the running product modulo 2^w */
} reference_state;

static void reference_reset(reference_state *r, dmlconf_operator op)
{
    memset(r, 0, sizeof(*r));
    r->product = op == PRODUCT ? 1 : 0;
}

/* a * b mod 2^32 from 16-bit half-words: the a1 * b1 term is a multiple of
 * 2^32 and drops out. */
static uint32_t mul_mod_2_32(uint32_t a, uint32_t b)
{
    uint32_t a0 = a & 0xffffu, a1 = a >> 16, b0 = b & 0xffffu, b1 = b >> 16;
    uint64_t low = (uint64_t)a0 * b0;
    uint64_t cross = ((uint64_t)a1 * b0 + (uint64_t)a0 * b1) & 0xffffu;
    return (uint32_t)((low + (cross << 16)) & UINT64_C(0xffffffff));
}

/* a * b mod 2^64 from 32-bit half-words. */
static uint64_t mul_mod_2_64(uint64_t a, uint64_t b)
{
    uint64_t a0 = a & UINT64_C(0xffffffff), a1 = a >> 32, b0 = b & UINT64_C(0xffffffff), b1 = b >> 32;
    uint64_t low = a0 * b0;
    uint64_t cross = (a1 * b0 + a0 * b1) & UINT64_C(0xffffffff);
    return low + (cross << 32);
}

static void reference_add(reference_state *r, dmlconf_operator op, dmlconf_data_type type, uint64_t x)
{
    if (op == PRODUCT)
    {
        r->product = test_element_bytes(type) == 4 ? mul_mod_2_32((uint32_t)r->product, (uint32_t)x)
                                                   : mul_mod_2_64(r->product, x);
        return;
    }
    if (type == DMLCONF_DATA_TYPE_INT32)
        r->signed_sum += (int32_t)(uint32_t)x; /* at most 2^20 terms: exact */
    r->wide_lo += x & UINT64_C(0xffffffff);
    r->wide_hi += x >> 32;
}

static uint64_t reference_value(const reference_state *r, dmlconf_operator op, dmlconf_data_type type)
{
    if (op == PRODUCT)
        return r->product;
    switch ((int)type)
    {
    case DMLCONF_DATA_TYPE_INT32:
        return (uint32_t)(uint64_t)r->signed_sum; /* reduction modulo 2^32 */
    case DMLCONF_DATA_TYPE_UINT32:
        return r->wide_lo & UINT64_C(0xffffffff);
    default:
        return ((r->wide_hi + (r->wide_lo >> 32)) << 32) | (r->wide_lo & UINT64_C(0xffffffff));
    }
}

/* Full-range values with the limits mixed in. Products get odd factors
 * (which never reach 0) unless `collapse` allows even ones, zeros and the
 * minimum, after which a product soon stays 0. */
static uint64_t draw(test_rng *rng, dmlconf_operator op, dmlconf_data_type type, bool collapse)
{
    const bool narrow = test_element_bytes(type) == 4;
    const uint64_t mask = narrow ? UINT64_C(0xffffffff) : UINT64_MAX;
    const uint64_t min = narrow ? I32_MIN : I64_MIN;
    const bool odd_only = op == PRODUCT && !collapse;
    switch (test_rng_below(rng, 16))
    {
    case 0:
        return odd_only ? 1 : min;
    case 1:
        return min - 1; /* max of the signed type */
    case 2:
        return mask; /* -1, or the unsigned max */
    case 3:
        return odd_only ? 3 : test_rng_below(rng, 3);
    default:
        break;
    }
    uint64_t x = test_rng_next(rng) & mask;
    if (odd_only || (op == PRODUCT && test_rng_below(rng, 8) != 0))
        x |= 1;
    return x;
}

/* Loop index: type * 4 + op * 2 + exclusive. */
START_TEST(random_lines)
{
    static const dmlconf_data_type types[] = {DMLCONF_DATA_TYPE_INT32, DMLCONF_DATA_TYPE_UINT32,
                                              DMLCONF_DATA_TYPE_INT64, DMLCONF_DATA_TYPE_UINT64};
    const dmlconf_data_type type = types[_i / 4];
    const dmlconf_operator op = (_i / 2) % 2 ? PRODUCT : SUM;
    const bool exclusive = _i % 2 != 0;
    const size_t lengths[] = {1, 2, 3, 17, 1000, 100000};
    const size_t element = test_element_bytes(type);

    test_rng rng;
    test_rng_seed(&rng, 0x1e7e6e70 + (uint64_t)_i);
    for (size_t l = 0; l < COUNT_OF(lengths); ++l)
    {
        const size_t n = lengths[l];
        unsigned char *in = malloc(n * element), *out = malloc(n * element);
        uint64_t *values = malloc(n * sizeof(*values));
        ck_assert(in && out && values);
        for (size_t i = 0; i < n; ++i)
        {
            values[i] = draw(&rng, op, type, n <= 1000);
            test_store_bits(type, in, i, values[i]);
        }
        dmlconf_error err;
        int rc = dmlconf_scan_line(op, type, exclusive, n, in, out, NULL, &err);
        ck_assert_msg(rc == 0, "%s", err.message);

        reference_state r;
        reference_reset(&r, op);
        size_t nonzero = 0;
        for (size_t i = 0; i < n; ++i)
        {
            if (!exclusive)
                reference_add(&r, op, type, values[i]);
            uint64_t expected = reference_value(&r, op, type), got = test_load_bits(type, out, i);
            nonzero += expected != 0;
            if (got != expected)
            {
                char got_text[64], expected_text[64];
                ck_abort_msg("%s %s %s, line of %zu: element %zu is %s, expected %s", dmlconf_data_type_name(type),
                             dmlconf_operator_name(op), exclusive ? "exclusive" : "inclusive", n, i,
                             test_format_bits(type, got, got_text, sizeof(got_text)),
                             test_format_bits(type, expected, expected_text, sizeof(expected_text)));
            }
            if (exclusive)
                reference_add(&r, op, type, values[i]);
        }
        /* The data exercise more than zeros. */
        if (n > 1000)
            ck_assert_msg(nonzero > n / 10, "%s %s: only %zu of %zu results are nonzero", dmlconf_data_type_name(type),
                          dmlconf_operator_name(op), nonzero, n);
        free(values);
        free(out);
        free(in);
    }
}
END_TEST

/* The reference's half-word products agree with plain wrapping products on
 * values where the latter are easy to check by hand. */
START_TEST(reference_self_check)
{
    ck_assert_uint_eq(mul_mod_2_32(0xffffffffu, 0xffffffffu), 1);
    ck_assert_uint_eq(mul_mod_2_32(65536, 65536), 0);
    ck_assert_uint_eq(mul_mod_2_32(0x80000000u, 0xffffffffu), 0x80000000u);
    ck_assert_uint_eq(mul_mod_2_32(46341, 46341), (uint32_t)(46341u * 46341u));
    ck_assert_uint_eq(mul_mod_2_64(UINT64_MAX, UINT64_MAX), 1);
    ck_assert_uint_eq(mul_mod_2_64(UINT64_C(1) << 32, UINT64_C(1) << 32), 0);
    ck_assert_uint_eq(mul_mod_2_64(UINT64_C(0x100000001), UINT64_C(0x100000001)), UINT64_C(0x200000001));
    ck_assert_uint_eq(mul_mod_2_64(3, UINT64_C(0x5555555555555556)), 2);
}
END_TEST

static Suite *integer_suite(void)
{
    Suite *suite = suite_create("integer");

    TCase *tc = tcase_create("limits");
    tcase_add_loop_test(tc, limits, 0, (int)COUNT_OF(cases));
    suite_add_tcase(suite, tc);

    tc = tcase_create("random_lines");
    tcase_add_test(tc, reference_self_check);
    tcase_add_loop_test(tc, random_lines, 0, 16);
    suite_add_tcase(suite, tc);

    return suite;
}

int main(void)
{
    return test_run_suite(integer_suite());
}
