/*
 * Special values and rounding edges of the float kernels, through
 * dmlconf_scan_line, for FLOAT32 and FLOAT16, sums and products, inclusive
 * and exclusive: NaN and Inf rules, signs of zero, subnormals kept, overflow
 * exactly at the rounding threshold and back under it by cancellation, and
 * the exact prefix rounded once (not step by step).
 *
 * Each case lists the inclusive results; the exclusive results follow from
 * them (element i of an exclusive scan combines the same terms as element
 * i - 1 of the inclusive one; element 0 is +0 or 1).
 */
#include "test_support.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))
#define MAX_N           6

#define S    DMLCONF_OPERATOR_CUMULATIVE_SUMMATION
#define P    DMLCONF_OPERATOR_CUMULATIVE_PRODUCT
#define F32  1u
#define F16  2u
#define BOTH (F32 | F16)
#define I    ((double)INFINITY)
#define NAN_ ((double)NAN)

/* float32 constants, written exactly. */
#define FMAX           0x1.fffffep127 /* FLT_MAX = 2^128 (1 - 2^-24) */
#define FMAX_HALF_ULP  0x1p103        /* FLT_MAX + this is the threshold 2^128 (1 - 2^-25) */
#define BELOW_HALF_ULP 0x1.fffffep102
#define TINY           0x1p-149 /* smallest float32 subnormal */
#define HMAX           65504.0  /* largest float16 */
#define HTINY          0x1p-24  /* smallest float16 subnormal */

static const struct
{
    const char *name;
    unsigned types;
    dmlconf_operator op;
    size_t n;
    double in[MAX_N];
    double out[MAX_N]; /* inclusive */
} cases[] = {
    /* ---- sums, both types ---- */
    {"sum: NaN propagates", BOTH, S, 4, {1, NAN_, 2, I}, {1, NAN_, NAN_, NAN_}},
    {"sum: NaN first", BOTH, S, 3, {NAN_, -I, I}, {NAN_, NAN_, NAN_}},
    {"sum: +Inf and -Inf together give NaN", BOTH, S, 4, {I, 1, -I, 2}, {I, I, NAN_, NAN_}},
    {"sum: -Inf absorbs finite terms", BOTH, S, 3, {-I, 5, -3}, {-I, -I, -I}},
    {"sum: +Inf after finite terms", BOTH, S, 3, {-7, I, 1}, {-7, I, I}},
    {"sum: all -0 give -0", BOTH, S, 3, {-0.0, -0.0, -0.0}, {-0.0, -0.0, -0.0}},
    {"sum: -0 + +0 gives +0", BOTH, S, 3, {-0.0, 0.0, -0.0}, {-0.0, 0.0, 0.0}},
    {"sum: +0 + -0 gives +0", BOTH, S, 2, {0.0, -0.0}, {0.0, 0.0}},
    {"sum: x + -x gives +0", BOTH, S, 3, {3, -3, -0.0}, {3, 0.0, 0.0}},
    {"sum: -x + x gives +0", BOTH, S, 2, {-2.5, 2.5}, {-2.5, 0.0}},
    {"sum: -0, then a cancelling pair", BOTH, S, 3, {-0.0, 1, -1}, {-0.0, 1, 0.0}},
    {"sum: a negative term then -0", BOTH, S, 2, {-4, -0.0}, {-4, -4}},

    /* ---- products, both types ---- */
    {"product: NaN propagates", BOTH, P, 3, {2, NAN_, 0}, {2, NAN_, NAN_}},
    {"product: 0 * Inf gives NaN", BOTH, P, 2, {0, I}, {0, NAN_}},
    {"product: Inf, then a 0 later", BOTH, P, 4, {I, 2, 0, 5}, {I, I, NAN_, NAN_}},
    {"product: -Inf * -0 gives NaN", BOTH, P, 2, {-I, -0.0}, {-I, NAN_}},
    {"product: -Inf * -1 gives +Inf", BOTH, P, 3, {-I, -1, 3}, {-I, I, I}},
    {"product: sign XOR through a -0", BOTH, P, 3, {-1, -0.0, 2}, {-1, 0.0, 0.0}},
    {"product: -2 * +0 gives -0", BOTH, P, 2, {-2, 0.0}, {-2, -0.0}},
    {"product: -0 * -0 gives +0", BOTH, P, 3, {-0.0, -0.0, -3}, {-0.0, 0.0, -0.0}},
    {"product: 3 * -0 * -5", BOTH, P, 3, {3, -0.0, -5}, {3, -0.0, 0.0}},
    {"product: a single -0", BOTH, P, 1, {-0.0}, {-0.0}},
    {"product: signs of finite values", BOTH, P, 4, {-1.5, -2, -0.5, 4}, {-1.5, 3, -1.5, -6}},

    /* ---- float32 sums ---- */
    {"sum f32: subnormals kept", F32, S, 4, {TINY, TINY, -TINY, -TINY}, {TINY, 2 * TINY, TINY, 0.0}},
    {"sum f32: FLT_MIN minus the smallest subnormal", F32, S, 2, {0x1p-126, -TINY}, {0x1p-126, 0x1.fffffcp-127}},
    {"sum f32: subnormal plus subnormal gives a normal", F32, S, 2, {0x1.8p-127, 0x1p-127}, {0x1.8p-127, 0x1.4p-126}},
    {"sum f32: just below the overflow threshold", F32, S, 2, {FMAX, BELOW_HALF_ULP}, {FMAX, FMAX}},
    {"sum f32: exactly at the overflow threshold", F32, S, 2, {FMAX, FMAX_HALF_ULP}, {FMAX, I}},
    {"sum f32: at the threshold, then back by one subnormal", F32, S, 3, {FMAX, FMAX_HALF_ULP, -TINY}, {FMAX, I, FMAX}},
    {"sum f32: the threshold reached in two steps", F32, S, 3, {FMAX, 0x1p102, 0x1p102}, {FMAX, FMAX, I}},
    {"sum f32: FLT_MAX, FLT_MAX, -FLT_MAX", F32, S, 3, {FMAX, FMAX, -FMAX}, {FMAX, I, FMAX}},
    {"sum f32: negative overflow and back to +0", F32, S, 4, {-FMAX, -FMAX, FMAX, FMAX}, {-FMAX, -I, -FMAX, 0.0}},
    {"sum f32: negative threshold", F32, S, 2, {-FMAX, -FMAX_HALF_ULP}, {-FMAX, -I}},
    {"sum f32: Inf with overflowing finite terms", F32, S, 3, {I, -FMAX, -FMAX}, {I, I, I}},
    {"sum f32: NaN after an overflow", F32, S, 3, {FMAX, FMAX, NAN_}, {FMAX, I, NAN_}},
    {"sum f32: exact prefix, not step by step", F32, S, 3, {1, 0x1p-24, 0x1p-24}, {1, 1, 0x1.000002p0}},
    {"sum f32: tie to even upwards", F32, S, 2, {0x1.000002p0, 0x1p-24}, {0x1.000002p0, 0x1.000004p0}},
    {"sum f32: a small term survives a huge cancellation", F32, S, 3, {0x1p100, 1, -0x1p100}, {0x1p100, 0x1p100, 1}},

    /* ---- float16 sums ---- */
    {"sum f16: just below the overflow threshold", F16, S, 2, {HMAX, 15.9921875}, {HMAX, HMAX}},
    {"sum f16: exactly at the overflow threshold 65520", F16, S, 2, {HMAX, 16}, {HMAX, I}},
    {"sum f16: the threshold reached in two steps", F16, S, 3, {HMAX, 8, 8}, {HMAX, HMAX, I}},
    {"sum f16: 65504, 65504, -65504", F16, S, 3, {HMAX, HMAX, -HMAX}, {HMAX, I, HMAX}},
    {"sum f16: negative threshold", F16, S, 2, {-HMAX, -16}, {-HMAX, -I}},
    {"sum f16: Inf with overflowing finite terms", F16, S, 3, {I, -HMAX, -HMAX}, {I, I, I}},
    {"sum f16: beyond 2048, the exact prefix", F16, S, 3, {2048, 1, 1}, {2048, 2048, 2050}},
    {"sum f16: counting past 2048", F16, S, 5, {2047, 1, 1, 1, 1}, {2047, 2048, 2048, 2050, 2052}},
    {"sum f16: no double rounding", F16, S, 3, {32768, 16, 0x1p-9}, {32768, 32768, 32800}},
    {"sum f16: subnormals kept", F16, S, 4, {HTINY, HTINY, -HTINY, -HTINY}, {HTINY, 2 * HTINY, HTINY, 0.0}},
    {"sum f16: smallest normal minus the smallest subnormal", F16, S, 2, {0x1p-14, -HTINY}, {0x1p-14, 1023 * HTINY}},
    {"sum f16: a subnormal survives a cancellation", F16, S, 3, {1024, HTINY, -1024}, {1024, 1024, HTINY}},

    /* ---- float32 products ---- */
    {"product f32: no intermediate underflow",
     F32,
     P,
     4,
     {0x1p-100, 0x1p-100, 0x1p100, 0x1p100},
     {0x1p-100, 0.0, 0x1p-100, 1}},
    {"product f32: no intermediate overflow", F32, P, 3, {0x1p100, 0x1p100, 0x1p-100}, {0x1p100, I, 0x1p100}},
    {"product f32: exactly at the overflow threshold", F32, P, 2, {18631, 1801 * 0x1p103}, {18631, I}},
    {"product f32: at the threshold, then just below it",
     F32,
     P,
     3,
     {18631, 1801 * 0x1p103, 0x1.fffffep-1},
     {18631, I, FMAX}},
    {"product f32: negative threshold", F32, P, 2, {-18631, 1801 * 0x1p103}, {-18631, -I}},
    {"product f32: the smallest subnormal", F32, P, 2, {0x1p-75, 0x1p-74}, {0x1p-75, TINY}},
    {"product f32: half the smallest subnormal ties to +0", F32, P, 2, {0x1p-75, 0x1p-75}, {0x1p-75, 0.0}},
    {"product f32: ... and to -0", F32, P, 2, {-0x1p-75, 0x1p-75}, {-0x1p-75, -0.0}},
    {"product f32: 0.75 of the smallest subnormal rounds up", F32, P, 2, {0x1p-75, 0x1.8p-75}, {0x1p-75, TINY}},
    {"product f32: a quarter of it rounds to 0", F32, P, 2, {0x1p-76, 0x1p-75}, {0x1p-76, 0.0}},
    {"product f32: a subnormal input", F32, P, 2, {TINY, 0x1p100}, {TINY, 0x1p-49}},
    {"product f32: 1.5 subnormal units tie to even", F32, P, 2, {3 * TINY, 0.5}, {3 * TINY, 2 * TINY}},

    /* ---- float16 products ---- */
    {"product f16: 256 * 256 overflows", F16, P, 2, {256, 256}, {256, I}},
    {"product f16: exactly at the overflow threshold", F16, P, 3, {45, 91, 16}, {45, 4096, I}},
    {"product f16: just below the threshold", F16, P, 3, {45, 91, 15.9921875}, {45, 4096, 65504}},
    {"product f16: the exact prefix, not step by step", F16, P, 3, {3, 683, 3}, {3, 2048, 6148}},
    {"product f16: no intermediate overflow", F16, P, 3, {256, 256, 0x1p-8}, {256, I, 256}},
    {"product f16: no intermediate underflow",
     F16,
     P,
     4,
     {0x1p-14, 0x1p-14, 0x1p14, 0x1p14},
     {0x1p-14, 0.0, 0x1p-14, 1}},
    {"product f16: the smallest subnormal", F16, P, 2, {0x1p-12, 0x1p-12}, {0x1p-12, HTINY}},
    {"product f16: half the smallest subnormal ties to +0", F16, P, 2, {0x1p-12, 0x1p-13}, {0x1p-12, 0.0}},
    {"product f16: ... and to -0", F16, P, 2, {-0x1p-12, 0x1p-13}, {-0x1p-12, -0.0}},
    {"product f16: 0.75 of the smallest subnormal rounds up", F16, P, 2, {0x1p-12, 0x1.8p-13}, {0x1p-12, HTINY}},
};

/* One loop iteration per (case, type, mode); cases of one type skip the
 * other. */
#define ITERATIONS ((int)COUNT_OF(cases) * 4)

static uint64_t bits_of(dmlconf_data_type type, double value)
{
    return test_value_bits(type, value);
}

static bool bits_are_nan(dmlconf_data_type type, uint64_t bits)
{
    if (type == DMLCONF_DATA_TYPE_FLOAT32)
        return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0;
    return (bits & 0x7c00u) == 0x7c00u && (bits & 0x03ffu) != 0;
}

START_TEST(special_case)
{
    const int c = _i / 4;
    const dmlconf_data_type type = (_i / 2) % 2 ? DMLCONF_DATA_TYPE_FLOAT16 : DMLCONF_DATA_TYPE_FLOAT32;
    const bool exclusive = _i % 2 != 0;
    if (!(cases[c].types & (type == DMLCONF_DATA_TYPE_FLOAT32 ? F32 : F16)))
        return;
    const size_t n = cases[c].n;
    const char *mode = exclusive ? "exclusive" : "inclusive";

    /* The table's values must be exact in the type. */
    for (size_t i = 0; i < n; ++i)
    {
        double values[2] = {cases[c].in[i], cases[c].out[i]};
        for (int v = 0; v < 2; ++v)
        {
            if (isnan(values[v]))
                continue;
            double back = type == DMLCONF_DATA_TYPE_FLOAT32
                              ? (double)test_f32_from_bits((uint32_t)bits_of(type, values[v]))
                              : (double)dmlconf_half_to_float((uint16_t)bits_of(type, values[v]));
            ck_assert_msg(back == values[v] && signbit(back) == signbit(values[v]),
                          "%s: table value %a is not exact in %s", cases[c].name, values[v],
                          dmlconf_data_type_name(type));
        }
    }

    unsigned char in[MAX_N * 4] = {0}, out[MAX_N * 4 + 8];
    memset(out, 0xcd, sizeof(out));
    for (size_t i = 0; i < n; ++i)
        test_store_bits(type, in, i, bits_of(type, cases[c].in[i]));
    dmlconf_error err;
    memset(&err, 0, sizeof(err));
    int rc = dmlconf_scan_line(cases[c].op, type, exclusive, n, in, out, NULL, &err);
    ck_assert_msg(rc == 0, "%s (%s %s): %s", cases[c].name, dmlconf_data_type_name(type), mode, err.message);

    for (size_t i = 0; i < n; ++i)
    {
        double expected_value;
        if (!exclusive)
            expected_value = cases[c].out[i];
        else if (i == 0)
            expected_value = cases[c].op == S ? 0.0 : 1.0;
        else
            expected_value = cases[c].out[i - 1];
        uint64_t got = test_load_bits(type, out, i), expected = bits_of(type, expected_value);
        bool ok = isnan(expected_value) ? bits_are_nan(type, got) : got == expected;
        if (!ok)
        {
            char got_text[64], expected_text[64];
            ck_abort_msg("%s (%s %s): element %zu is %s, expected %s", cases[c].name, dmlconf_data_type_name(type),
                         mode, i, test_format_bits(type, got, got_text, sizeof(got_text)),
                         test_format_bits(type, expected, expected_text, sizeof(expected_text)));
        }
    }
    for (size_t i = n * test_element_bytes(type); i < sizeof(out); ++i)
        ck_assert_msg(out[i] == 0xcd, "%s: byte %zu past the line changed", cases[c].name, i);
}
END_TEST

/* ---- an exact product reference for general float32 values ---------------- */

__extension__ typedef unsigned __int128 u128;

/* The exact product of finite nonzero float32 values, rounded once to
 * float32 (nearest even, subnormals kept, overflow to Inf). The product of
 * up to five 24-bit significands fits in 128 bits. */
static float exact_product_f32(const float *x, size_t n)
{
    u128 m = 1;
    int e = 0;
    bool negative = false;
    for (size_t i = 0; i < n; ++i)
    {
        int exponent;
        float fraction = frexpf(fabsf(x[i]), &exponent); /* in [0.5, 1) */
        m *= (uint32_t)ldexpf(fraction, 24);
        e += exponent - 24;
        negative ^= signbit(x[i]) != 0;
    }
    int bits = 0;
    for (u128 t = m; t; t >>= 1)
        ++bits;
    /* The value lies in [2^top, 2^(top+1)); float32 keeps 24 bits down to
     * 2^-149. */
    int top = e + bits - 1;
    int lsb = top - 23 < -149 ? -149 : top - 23;
    int shift = lsb - e;
    double magnitude;
    if (shift <= 0)
    {
        magnitude = ldexp((double)(uint64_t)m, e); /* exact: at most 24 bits */
    }
    else if (shift > bits)
    {
        magnitude = 0; /* below half of 2^lsb */
    }
    else
    {
        u128 kept = m >> shift, rest = m & (((u128)1 << shift) - 1), half = (u128)1 << (shift - 1);
        if (rest > half || (rest == half && (kept & 1)))
            ++kept;
        magnitude = ldexp((double)(uint64_t)kept, lsb); /* at most 2^24 units: exact */
    }
    float result = magnitude >= 0x1p128 ? INFINITY : (float)magnitude; /* otherwise exact */
    return negative ? -result : result;
}

START_TEST(product_range_decimal)
{
    /* 1e-30f and 1e30f are not exact reciprocals, so the prefixes are
     * rounded once from their exact values; the second underflows, the last
     * is within an ulp of 1, and nothing on the way is lost. */
    const float in[4] = {1e-30f, 1e-30f, 1e30f, 1e30f};
    float out[4], expected[4];
    for (size_t k = 0; k < 4; ++k)
        expected[k] = exact_product_f32(in, k + 1);
    ck_assert_msg(expected[1] == 0.0f && !signbit(expected[1]), "reference: 1e-60 should underflow to +0");
    ck_assert_msg(fabsf(expected[3] - 1.0f) <= 0x1p-23f, "reference: the full product should be 1 within an ulp");
    test_assert_f32_bits_eq(expected[0], in[0], "reference of one factor");

    dmlconf_error err;
    ck_assert_int_eq(dmlconf_scan_line(P, DMLCONF_DATA_TYPE_FLOAT32, false, 4, in, out, NULL, &err), 0);
    for (size_t k = 0; k < 4; ++k)
        test_assert_f32_bits_eq(out[k], expected[k], "1e-30, 1e-30, 1e30, 1e30: element %zu", k);
    ck_assert_int_eq(dmlconf_scan_line(P, DMLCONF_DATA_TYPE_FLOAT32, true, 4, in, out, NULL, &err), 0);
    test_assert_f32_bits_eq(out[0], 1.0f, "exclusive element 0");
    for (size_t k = 1; k < 4; ++k)
        test_assert_f32_bits_eq(out[k], expected[k - 1], "exclusive 1e-30, 1e-30, 1e30, 1e30: element %zu", k);
}
END_TEST

/* Random short products of wide-ranging float32 values against the exact
 * reference: intermediate overflow and underflow must not matter. */
START_TEST(product_random_exact)
{
    test_rng rng;
    test_rng_seed(&rng, 0xf10a7001);
    for (int iteration = 0; iteration < 20000; ++iteration)
    {
        const size_t n = 1 + (size_t)test_rng_below(&rng, 5);
        float in[5], out[5];
        for (size_t i = 0; i < n; ++i)
        {
            uint32_t mantissa = (uint32_t)test_rng_next(&rng) & 0x7fffffu;
            /* Exponents over the whole normal range, and subnormals. */
            uint32_t exponent = (uint32_t)test_rng_below(&rng, 255);
            uint32_t sign = (uint32_t)test_rng_below(&rng, 2) << 31;
            if (mantissa == 0 && exponent == 0)
                mantissa = 1;
            in[i] = test_f32_from_bits(sign | exponent << 23 | mantissa);
        }
        dmlconf_error err;
        if (dmlconf_scan_line(P, DMLCONF_DATA_TYPE_FLOAT32, false, n, in, out, NULL, &err))
            ck_abort_msg("iteration %d: %s", iteration, err.message);
        for (size_t k = 0; k < n; ++k)
            test_assert_f32_bits_eq(out[k], exact_product_f32(in, k + 1),
                                    "iteration %d, prefix %zu of %zu (inputs %a %a %a %a %a)", iteration, k + 1, n,
                                    (double)in[0], n > 1 ? (double)in[1] : 0.0, n > 2 ? (double)in[2] : 0.0,
                                    n > 3 ? (double)in[3] : 0.0, n > 4 ? (double)in[4] : 0.0);
    }
}
END_TEST

static Suite *special_values_suite(void)
{
    Suite *suite = suite_create("special_values");

    TCase *tc = tcase_create("cases");
    tcase_add_loop_test(tc, special_case, 0, ITERATIONS);
    suite_add_tcase(suite, tc);

    tc = tcase_create("product_range");
    tcase_add_test(tc, product_range_decimal);
    tcase_add_test(tc, product_random_exact);
    suite_add_tcase(suite, tc);

    return suite;
}

int main(void)
{
    return test_run_suite(special_values_suite());
}
