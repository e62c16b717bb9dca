/*
 * Tests of dmlconf/datagen.h: golden first values of every generator,
 * chunked fills equal to one-shot fills, ranges and exactness properties,
 * and the errors of set and check.
 *
 * The golden values were produced by the library and, independently, by a
 * small exact reference model of the generators (rational arithmetic); the
 * simplest ones are also derived by hand below from splitmix64's published
 * output for state 0: 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4,
 * 0x06c45d188009454f (w_0 of elements 0, 1, 2 for seed 0).
 *
 * The fast fixed-point path (datagen_fixed.c) is compared bit for bit with
 * the exact reference (datagen_fill_exact) over many random specs, indices
 * and edge parameters.
 */
#include "datagen_internal.h"

#include <dmlconf/datagen.h>
#include <dmlconf/values.h>

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F16 DMLCONF_DATA_TYPE_FLOAT16
#define F32 DMLCONF_DATA_TYPE_FLOAT32
#define I32 DMLCONF_DATA_TYPE_INT32
#define U32 DMLCONF_DATA_TYPE_UINT32
#define I64 DMLCONF_DATA_TYPE_INT64
#define U64 DMLCONF_DATA_TYPE_UINT64

/* Hot-loop assertion (Check's ck_assert_* records a location per call). */
#define CHECK(condition, ...)                                                                                          \
    do                                                                                                                 \
    {                                                                                                                  \
        if (!(condition))                                                                                              \
            ck_abort_msg(__VA_ARGS__);                                                                                 \
    } while (0)

/* Builds a spec from "key=value" pairs; fails the test on any error. */
static dmlconf_datagen_spec make_spec(dmlconf_data_type type, const char *const *pairs)
{
    dmlconf_datagen_spec spec;
    dmlconf_datagen_init(&spec, type);
    char why[512];
    for (size_t i = 0; pairs[i]; ++i)
    {
        char key[32];
        const char *equals = strchr(pairs[i], '=');
        ck_assert_ptr_nonnull(equals);
        size_t length = (size_t)(equals - pairs[i]);
        ck_assert_uint_lt(length, sizeof(key));
        memcpy(key, pairs[i], length);
        key[length] = '\0';
        ck_assert_msg(dmlconf_datagen_set(&spec, key, equals + 1, why, sizeof(why)) == 0, "%s: %s", pairs[i], why);
    }
    ck_assert_msg(dmlconf_datagen_check(&spec, why, sizeof(why)) == 0, "%s", why);
    return spec;
}

static uint64_t element_at(const unsigned char *data, size_t size, uint64_t index)
{
    uint64_t value = 0;
    for (size_t b = 0; b < size; ++b)
        value |= (uint64_t)data[index * size + b] << (8u * b);
    return value;
}

/* ---- golden values ------------------------------------------------------------------ */

typedef struct golden_case
{
    const char *name;
    dmlconf_data_type type;
    const char *pairs[6];
    uint64_t first_index;
    size_t count;
    uint64_t expected[16];
} golden_case;

static const golden_case golden_cases[] = {
    /* A full-range uint64 draw is the raw word: splitmix64's sequence. */
    {"uniform_u64_raw",
     U64,
     {"generate=uniform", "seed=0", "min=0", "max=18446744073709551615", NULL},
     0,
     3,
     {UINT64_C(0xe220a8397b1dcdaf), UINT64_C(0x6e789e6aa1b965f4), UINT64_C(0x06c45d188009454f)}},
    /* Range 2^32: Lemire's high word of w * 2^32 is w >> 32 (never rejected). */
    {"uniform_u32_full",
     U32,
     {"generate=uniform", "seed=0", "min=0", "max=4294967295", NULL},
     0,
     3,
     {0xe220a839u, 0x6e789e6au, 0x06c45d18u}},
    /* floor(10 * w / 2^64): 0.883 -> 8, 0.432 -> 4, 0.026 -> 0. */
    {"integers_i32_digits", I32, {"generate=integers", "seed=0", "min=0", "max=9", NULL}, 0, 5, {8, 4, 0, 9, 1}},
    /* w / 2^64 rounded to float32: 0xe220a839... keeps 24 bits 0xe220a8 (the
     * next bit, of 0x39, is 0): 0xe220a8 * 2^-24 = 0x3f6220a8. */
    {"uniform_f32_unit",
     F32,
     {"generate=uniform", "seed=0", "min=0", "max=1", NULL},
     0,
     3,
     {0x3f6220a8u, 0x3edcf13du, 0x3cd88ba3u}},
    {"uniform_f32_signed",
     F32,
     {"generate=uniform", "seed=7", "min=-1", "max=1", NULL},
     0,
     4,
     {0xbe61a0f1u, 0xbf776786u, 0x3f4d3081u, 0x3e29d75cu}},
    {"uniform_f16",
     F16,
     {"generate=uniform", "seed=7", "min=-2", "max=2", NULL},
     0,
     4,
     {0xb70du, 0xbfbbu, 0x3e6au, 0x354fu}},
    {"uniform_i32",
     I32,
     {"generate=uniform", "seed=7", "min=-5", "max=5", NULL},
     0,
     6,
     {0xffffffffu, 0xfffffffbu, 4u, 1u, 0xffffffffu, 0xfffffffdu}},
    {"uniform_i64_full",
     I64,
     {"generate=uniform", "seed=3", "min=-9223372036854775808", "max=9223372036854775807", NULL},
     0,
     3,
     {UINT64_C(0x1d0b14e4db018fed), UINT64_C(0xb3466f8a7b81a989), UINT64_C(0x9cebe8a6d050dd01)}},
    {"integers_f16",
     F16,
     {"generate=integers", "seed=11", "min=-2048", "max=2048", NULL},
     0,
     4,
     {0xe1e2u, 0xe39cu, 0x606cu, 0x4cc0u}},
    {"dyadic_f32",
     F32,
     {"generate=dyadic", "seed=5", "min=-1024", "max=1024", "scale=10", NULL},
     0,
     4,
     {0xbe680000u, 0x3f014000u, 0xbf090000u, 0xbf4d4000u}},
    /* k * 2^-24 for k in [0, 3]: float16 subnormals, bits = k. */
    {"dyadic_f16_subnormal",
     F16,
     {"generate=dyadic", "seed=5", "min=0", "max=3", "scale=24", NULL},
     0,
     4,
     {1, 3, 0, 0}},
    {"normal_f32",
     F32,
     {"generate=normal", "seed=1", "mean=10", "stddev=2", NULL},
     0,
     4,
     {0x411ca185u, 0x410df21cu, 0x412ec53fu, 0x413574f1u}},
    {"normal_f16",
     F16,
     {"generate=normal", "seed=1", "mean=0", "stddev=1", NULL},
     0,
     4,
     {0xaebdu, 0xb883u, 0x3763u, 0x395du}},
    {"normal_i32", I32, {"generate=normal", "seed=1", "mean=100", "stddev=15", NULL}, 0, 4, {98, 92, 107, 110}},
    {"wide_f32",
     F32,
     {"generate=wide", "seed=9", "emin=-149", "emax=127", NULL},
     0,
     4,
     {0xd3ac328eu, 0x5cf0f5e2u, 0x19ead900u, 0xe1aea2eau}},
    {"wide_f16",
     F16,
     {"generate=wide", "seed=9", "emin=-24", "emax=15", NULL},
     0,
     4,
     {0xca8eu, 0x55e2u, 0x0500u, 0xdaeau}},
    {"wide_i64",
     I64,
     {"generate=wide", "seed=9", "emin=0", "emax=62", NULL},
     0,
     4,
     {UINT64_C(0xfffff8653dd3cd72), UINT64_C(0xdd969bf0f5e2), UINT64_C(0x1d900), UINT64_C(0xfffcf3a1ce515d16)}},
    {"specials_f32",
     F32,
     {"generate=specials", "seed=2", NULL},
     0,
     8,
     {0x0b5784b4u, 0x7f800000u, 0x4cb781e8u, 0u, 0x00800000u, 0xff800000u, 1u, 0xff800000u}},
    {"specials_f16",
     F16,
     {"generate=specials", "seed=2", NULL},
     0,
     8,
     {0x0cb4u, 0x7c00u, 0x49e8u, 0u, 0x0400u, 0xfc00u, 1u, 0xfc00u}},
    {"specials_i32",
     I32,
     {"generate=specials", "seed=2", NULL},
     0,
     8,
     {0x7ffffffeu, 0u, 0xd93781e8u, 0xffffffffu, 0x7fffffffu, 1u, 0x7ffffffeu, 1u}},
    {"specials_u64",
     U64,
     {"generate=specials", "seed=2", NULL},
     0,
     8,
     {UINT64_C(0x7fffffffffffffff), 1u, UINT64_C(0x831a81f8d93781e8), UINT64_C(0xfffffffffffffffe), UINT64_MAX, 2u,
      UINT64_C(0x7fffffffffffffff), 2u}},
    /* 2040 + i in float16: exact up to 2048, then ties to even. */
    {"iota_f16_ties",
     F16,
     {"generate=iota", "start=2040", "step=1", NULL},
     0,
     16,
     {0x67f8u, 0x67f9u, 0x67fau, 0x67fbu, 0x67fcu, 0x67fdu, 0x67feu, 0x67ffu, 0x6800u, 0x6800u, 0x6801u, 0x6802u,
      0x6802u, 0x6802u, 0x6803u, 0x6804u}},
    {"iota_f32",
     F32,
     {"generate=iota", "start=0.5", "step=0.25", NULL},
     0,
     4,
     {0x3f000000u, 0x3f400000u, 0x3f800000u, 0x3fa00000u}},
    /* 2^40 + 1 rounds to 2^40 (0x53800000); 70000 overflows float16. */
    {"iota_f32_far", F32, {"generate=iota", NULL}, (UINT64_C(1) << 40) + 1u, 1, {0x53800000u}},
    {"iota_f16_overflow", F16, {"generate=iota", NULL}, 70000, 1, {0x7c00u}},
    {"iota_f16_negative_overflow", F16, {"generate=iota", "step=-1", NULL}, 70000, 1, {0xfc00u}},
    /* Integers wrap modulo 2^32. */
    {"iota_u32_wrap",
     U32,
     {"generate=iota", "start=4294967294", "step=1", NULL},
     0,
     4,
     {0xfffffffeu, 0xffffffffu, 0u, 1u}},
    {"iota_i64_step", I64, {"generate=iota", "start=-3", "step=-2", NULL}, 1, 2, {UINT64_C(-5), UINT64_C(-7)}},
    {"constant_f32_nan", F32, {"generate=constant", "value=bits:0x7fc00123", NULL}, 5, 2, {0x7fc00123u, 0x7fc00123u}},
    {"constant_f16_neg_zero", F16, {"generate=constant", "value=-0.0", NULL}, 0, 1, {0x8000u}},
    {"iota_f16_neg_zero_start", F16, {"generate=iota", "start=-0.0", "step=0", NULL}, 3, 1, {0x8000u}},
};

START_TEST(test_golden)
{
    const golden_case *c = &golden_cases[_i];
    dmlconf_datagen_spec spec = make_spec(c->type, c->pairs);
    size_t size = dmlconf_value_size(c->type);
    unsigned char data[16 * 8];
    dmlconf_datagen_fill(&spec, c->first_index, c->count, data);
    for (size_t i = 0; i < c->count; ++i)
        ck_assert_msg(element_at(data, size, i) == c->expected[i], "%s[%zu]: 0x%" PRIx64 ", expected 0x%" PRIx64,
                      c->name, i, element_at(data, size, i), c->expected[i]);
}
END_TEST

/* ---- chunking ---------------------------------------------------------------------- */

START_TEST(test_chunked_equals_one_shot)
{
    const golden_case *c = &golden_cases[_i];
    dmlconf_datagen_spec spec = make_spec(c->type, c->pairs);
    size_t size = dmlconf_value_size(c->type);
    enum
    {
        N = 1000
    };
    unsigned char *whole = malloc(N * size);
    unsigned char *pieces = malloc(N * size);
    unsigned char *backwards = malloc(N * size);
    ck_assert_ptr_nonnull(whole);
    ck_assert_ptr_nonnull(pieces);
    ck_assert_ptr_nonnull(backwards);
    memset(pieces, 0xee, N * size);
    dmlconf_datagen_fill(&spec, 100, N, whole);
    uint64_t done = 0;
    for (uint64_t chunk = 1; done < N; chunk = chunk * 3u + 1u)
    {
        uint64_t count = N - done < chunk ? N - done : chunk;
        dmlconf_datagen_fill(&spec, 100 + done, count, pieces + done * size);
        done += count;
    }
    for (uint64_t i = N; i-- > 0;)
        dmlconf_datagen_fill(&spec, 100 + i, 1, backwards + i * size);
    ck_assert_mem_eq(whole, pieces, N * size);
    ck_assert_mem_eq(whole, backwards, N * size);
    /* The spec is a plain value: a copy generates the same data. */
    dmlconf_datagen_spec copy = spec;
    dmlconf_datagen_fill(&copy, 100, N, pieces);
    ck_assert_mem_eq(whole, pieces, N * size);
    free(whole);
    free(pieces);
    free(backwards);
}
END_TEST

START_TEST(test_seeds_differ)
{
    const char *a[] = {"generate=uniform", "seed=1", "min=0", "max=1", NULL};
    const char *b[] = {"generate=uniform", "seed=2", "min=0", "max=1", NULL};
    dmlconf_datagen_spec spec_a = make_spec(F32, a);
    dmlconf_datagen_spec spec_b = make_spec(F32, b);
    float x[64];
    float y[64];
    dmlconf_datagen_fill(&spec_a, 0, 64, x);
    dmlconf_datagen_fill(&spec_b, 0, 64, y);
    ck_assert(memcmp(x, y, sizeof(x)) != 0);
    /* Keys may come in any order, `generate` last included. */
    const char *c[] = {"max=1", "min=0", "seed=1", "generate=uniform", NULL};
    dmlconf_datagen_spec spec_c = make_spec(F32, c);
    dmlconf_datagen_fill(&spec_c, 0, 64, y);
    ck_assert_mem_eq(x, y, sizeof(x));
}
END_TEST

/* ---- ranges and exactness ------------------------------------------------------------- */

static double element_double(dmlconf_data_type type, uint64_t bits)
{
    if (type == F16)
        return (double)dmlconf_half_to_float((uint16_t)bits);
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, sizeof(f));
    return (double)f;
}

START_TEST(test_uniform_float_range)
{
    static const char *const bounds[][2] = {{"min=-1", "max=1"},         {"min=0.5", "max=0.75"},
                                            {"min=-65504", "max=65504"}, {"min=0x1p-20", "max=0x1.8p-20"},
                                            {"min=3", "max=3"},          {"min=-0x1p-24", "max=0x1p-24"}};
    const dmlconf_data_type types[2] = {F32, F16};
    for (size_t t = 0; t < 2; ++t)
        for (size_t b = 0; b < sizeof(bounds) / sizeof(bounds[0]); ++b)
        {
            dmlconf_datagen_spec spec;
            dmlconf_datagen_init(&spec, types[t]);
            char why[256];
            ck_assert_int_eq(dmlconf_datagen_set(&spec, "generate", "uniform", why, sizeof(why)), 0);
            ck_assert_int_eq(dmlconf_datagen_set(&spec, "seed", "42", why, sizeof(why)), 0);
            ck_assert_msg(dmlconf_datagen_set(&spec, "min", bounds[b][0] + 4, why, sizeof(why)) == 0, "%s", why);
            ck_assert_msg(dmlconf_datagen_set(&spec, "max", bounds[b][1] + 4, why, sizeof(why)) == 0, "%s", why);
            ck_assert_msg(dmlconf_datagen_check(&spec, why, sizeof(why)) == 0, "%s", why);
            size_t size = dmlconf_value_size(types[t]);
            unsigned char data[20000 * 4];
            dmlconf_datagen_fill(&spec, 0, 20000, data);
            double low = element_double(types[t], element_at(spec.min, size, 0));
            double high = element_double(types[t], element_at(spec.max, size, 0));
            double sum = 0;
            for (uint64_t i = 0; i < 20000; ++i)
            {
                double x = element_double(types[t], element_at(data, size, i));
                CHECK(x >= low && x <= high, "type %zu bounds %zu: element %" PRIu64 " = %g outside [%g, %g]", t, b, i,
                      x, low, high);
                sum += x;
            }
            /* The mean is near the middle (a loose statistical sanity check). */
            double middle = (low + high) / 2;
            double width = high - low;
            ck_assert_msg(sum / 20000 >= middle - width * 0.02 && sum / 20000 <= middle + width * 0.02,
                          "mean %g, middle %g", sum / 20000, middle);
        }
}
END_TEST

START_TEST(test_integer_ranges)
{
    const char *pairs[] = {"generate=integers", "seed=8", "min=-3", "max=4", NULL};
    dmlconf_datagen_spec spec = make_spec(I64, pairs);
    int64_t data[8000];
    dmlconf_datagen_fill(&spec, 0, 8000, data);
    unsigned seen = 0;
    for (size_t i = 0; i < 8000; ++i)
    {
        CHECK(data[i] >= -3 && data[i] <= 4, "element %zu = %" PRId64, i, data[i]);
        seen |= 1u << (data[i] + 3);
    }
    ck_assert_uint_eq(seen, 0xffu); /* every value occurs */

    const char *u[] = {"generate=uniform", "seed=8", "min=4294967290", "max=4294967295", NULL};
    spec = make_spec(U32, u);
    uint32_t words[1000];
    dmlconf_datagen_fill(&spec, 0, 1000, words);
    for (size_t i = 0; i < 1000; ++i)
        CHECK(words[i] >= 4294967290u, "element %zu = %" PRIu32, i, words[i]);

    /* Integers in float16 are exact integers within the bounds. */
    const char *f[] = {"generate=integers", "seed=8", "min=-2048", "max=2047", NULL};
    spec = make_spec(F16, f);
    uint16_t halves[5000];
    dmlconf_datagen_fill(&spec, 0, 5000, halves);
    for (size_t i = 0; i < 5000; ++i)
    {
        float x = dmlconf_half_to_float(halves[i]);
        CHECK(x >= -2048.0f && x <= 2047.0f && x == (float)(int)x, "element %zu = %g", i, (double)x);
    }
}
END_TEST

START_TEST(test_dyadic_exact)
{
    const char *pairs[] = {"generate=dyadic", "seed=13", "min=-16777216", "max=16777216", "scale=149", NULL};
    dmlconf_datagen_spec spec = make_spec(F32, pairs);
    float data[10000];
    dmlconf_datagen_fill(&spec, 0, 10000, data);
    for (size_t i = 0; i < 10000; ++i)
    {
        /* k * 2^-149: every value is a multiple of the smallest subnormal
         * with |k| <= 2^24, i.e. |x| <= 2^-125. Exactness: scaling up is
         * exact, and the result is an integer. */
        double k = (double)data[i] * 0x1p149;
        CHECK(k == (double)(int64_t)k && k >= -16777216.0 && k <= 16777216.0, "element %zu: %a", i, (double)data[i]);
    }
    const char *ints[] = {"generate=dyadic", "seed=13", "min=-5", "max=5", "scale=-3", NULL};
    spec = make_spec(I32, ints);
    int32_t values[1000];
    dmlconf_datagen_fill(&spec, 0, 1000, values);
    for (size_t i = 0; i < 1000; ++i)
        CHECK(values[i] % 8 == 0 && values[i] >= -40 && values[i] <= 40, "element %zu = %" PRId32, i, values[i]);
}
END_TEST

START_TEST(test_normal_and_wide_ranges)
{
    const char *normal[] = {"generate=normal", "seed=4", "mean=-3", "stddev=0.5", NULL};
    dmlconf_datagen_spec spec = make_spec(F32, normal);
    float data[20000];
    dmlconf_datagen_fill(&spec, 0, 20000, data);
    double sum = 0;
    double squares = 0;
    for (size_t i = 0; i < 20000; ++i)
    {
        CHECK(data[i] >= -6.0f && data[i] <= 0.0f, "element %zu = %g", i, (double)data[i]);
        sum += (double)data[i];
        squares += (double)data[i] * (double)data[i];
    }
    double mean = sum / 20000;
    double variance = squares / 20000 - mean * mean;
    ck_assert_msg(mean > -3.02 && mean < -2.98, "mean %g", mean);
    ck_assert_msg(variance > 0.23 && variance < 0.27, "variance %g", variance);

    const char *wide[] = {"generate=wide", "seed=4", "emin=-20", "emax=3", NULL};
    spec = make_spec(F16, wide);
    uint16_t halves[20000];
    dmlconf_datagen_fill(&spec, 0, 20000, halves);
    bool negative = false;
    bool positive = false;
    for (size_t i = 0; i < 20000; ++i)
    {
        double x = (double)dmlconf_half_to_float(halves[i]);
        double magnitude = x < 0 ? -x : x;
        CHECK(magnitude >= 0x1p-20 && magnitude < 0x1p4, "element %zu = %a", i, x);
        negative = negative || x < 0;
        positive = positive || x > 0;
    }
    ck_assert(negative && positive);

    const char *wide_u[] = {"generate=wide", "seed=4", "emin=5", "emax=31", NULL};
    spec = make_spec(U32, wide_u);
    uint32_t words[5000];
    dmlconf_datagen_fill(&spec, 0, 5000, words);
    for (size_t i = 0; i < 5000; ++i)
        CHECK(words[i] >= 32u, "element %zu = %" PRIu32, i, words[i]);
}
END_TEST

START_TEST(test_specials_cover)
{
    const char *pairs[] = {"generate=specials", "seed=6", NULL};
    dmlconf_datagen_spec spec = make_spec(F32, pairs);
    uint32_t data[4000];
    dmlconf_datagen_fill(&spec, 0, 4000, data);
    bool nan = false, pos_inf = false, neg_inf = false, pos_zero = false, neg_zero = false, subnormal = false,
         max = false;
    for (size_t i = 0; i < 4000; ++i)
    {
        uint32_t b = data[i];
        nan = nan || (b & 0x7fffffffu) > 0x7f800000u;
        pos_inf = pos_inf || b == 0x7f800000u;
        neg_inf = neg_inf || b == 0xff800000u;
        pos_zero = pos_zero || b == 0u;
        neg_zero = neg_zero || b == 0x80000000u;
        subnormal = subnormal || ((b & 0x7f800000u) == 0 && (b & 0x7fffffu) != 0);
        max = max || (b & 0x7fffffffu) == 0x7f7fffffu;
    }
    ck_assert(nan && pos_inf && neg_inf && pos_zero && neg_zero && subnormal && max);
}
END_TEST

/* ---- errors --------------------------------------------------------------------------- */

typedef struct set_error_case
{
    dmlconf_data_type type;
    const char *pairs[4]; /* set first, all must succeed */
    const char *key;
    const char *value;
    const char *why;
} set_error_case;

static const set_error_case set_error_cases[] = {
    {F32,
     {NULL},
     "colour",
     "red",
     "unknown generator key 'colour' (valid keys: generate, seed, min, max, scale, mean, stddev, emin, emax, value, "
     "start, step)"},
    {F32,
     {"generate=uniform", NULL},
     "mean",
     "1",
     "unknown key 'mean' for generator uniform (valid keys: generate, seed, min, max)"},
    {F32,
     {"generate=constant", NULL},
     "seed",
     "1",
     "unknown key 'seed' for generator constant (valid keys: generate, value)"},
    {F32,
     {NULL},
     "generate",
     "gaussian",
     "unknown generator 'gaussian' (expected one of uniform, integers, dyadic, normal, wide, constant, iota, "
     "specials)"},
    {F32, {"seed=1", NULL}, "seed", "2", "key 'seed' given twice"},
    {F32, {"generate=uniform", NULL}, "generate", "uniform", "key 'generate' given twice"},
    {F32,
     {NULL},
     "min",
     "0.1",
     "min: 0.1 is not exactly representable in float32; nearest values are 0.0999999940395355224609375 "
     "(0x1.999998p-4) and 0.100000001490116119384765625 (0x1.99999ap-4); write one of them"},
    {U32, {NULL}, "max", "-1", "max: -1 is out of range for uint32: expected an integer from 0 to 4294967295"},
    {F16,
     {NULL},
     "value",
     "70000",
     "value: 70000 is out of range for float16 (largest finite value 65504 (0x1.ffcp+15))"},
    {F32, {NULL}, "seed", "-1", "seed: -1 is out of range: expected an integer from 0 to 18446744073709551615"},
    {F32,
     {NULL},
     "seed",
     "1.5",
     "seed: expected an integer from 0 to 18446744073709551615 (decimal or 0x hex, no point "
     "or exponent), got 1.5"},
    {F32, {NULL}, "scale", "100001", "scale: 100001 is out of range: expected an integer from -100000 to 100000"},
    {DMLCONF_DATA_TYPE_UINT4, {NULL}, "min", "1", "min: values of type UINT4 are not supported"},
};

START_TEST(test_set_errors)
{
    const set_error_case *c = &set_error_cases[_i];
    dmlconf_datagen_spec spec;
    dmlconf_datagen_init(&spec, c->type);
    char why[512];
    for (size_t i = 0; c->pairs[i]; ++i)
    {
        char key[32];
        const char *equals = strchr(c->pairs[i], '=');
        memcpy(key, c->pairs[i], (size_t)(equals - c->pairs[i]));
        key[equals - c->pairs[i]] = '\0';
        ck_assert_int_eq(dmlconf_datagen_set(&spec, key, equals + 1, why, sizeof(why)), 0);
    }
    dmlconf_datagen_spec before = spec;
    ck_assert_int_eq(dmlconf_datagen_set(&spec, c->key, c->value, why, sizeof(why)), -1);
    ck_assert_str_eq(why, c->why);
    ck_assert_mem_eq(&before, &spec, sizeof(spec));
}
END_TEST

typedef struct check_error_case
{
    dmlconf_data_type type;
    const char *pairs[6];
    const char *why;
} check_error_case;

static const check_error_case check_error_cases[] = {
    {F32,
     {"seed=1", NULL},
     "missing 'generate' key (one of uniform, integers, dyadic, normal, wide, constant, iota, specials)"},
    {F32, {"generate=uniform", "min=0", "max=1", NULL}, "generator uniform needs key 'seed'"},
    {F32, {"generate=uniform", "seed=0", "min=0", NULL}, "generator uniform needs key 'max'"},
    {F32, {"generate=constant", NULL}, "generator constant needs key 'value'"},
    {F32,
     {"min=0", "max=1", "scale=3", "generate=uniform", "seed=1", NULL},
     "key 'scale' does not apply to generator uniform (valid keys: generate, seed, min, max)"},
    {F32, {"generate=uniform", "seed=0", "min=2", "max=1", NULL}, "uniform: min (2) is greater than max (1)"},
    {F32,
     {"generate=uniform", "seed=0", "min=-inf", "max=1", NULL},
     "uniform: min and max must be finite (min -inf, max 1)"},
    {I64, {"generate=uniform", "seed=0", "min=5", "max=-5", NULL}, "uniform: min (5) is greater than max (-5)"},
    {F16,
     {"generate=integers", "seed=0", "min=0", "max=4096", NULL},
     "integers: max (4096) must be an integer from -2048 to 2048 (the integers that float16 holds exactly)"},
    {F32,
     {"generate=integers", "seed=0", "min=0.5", "max=4", NULL},
     "integers: min (0.5) must be an integer from -16777216 to 16777216 (the integers that float32 holds exactly)"},
    {F32,
     {"generate=dyadic", "seed=0", "min=0", "max=4", "scale=150", NULL},
     "dyadic: scale 150 is too large for float32 (at most 149)"},
    {F16,
     {"generate=dyadic", "seed=0", "min=-2048", "max=2048", "scale=-5", NULL},
     "dyadic: min (-2048) * 2^5 is out of range for float16"},
    {I32,
     {"generate=dyadic", "seed=0", "min=0", "max=4", "scale=1", NULL},
     "dyadic: scale 1 is too large for int32 (at most 0)"},
    {I32,
     {"generate=dyadic", "seed=0", "min=0", "max=4", "scale=-30", NULL},
     "dyadic: max (4) * 2^30 is out of range for int32"},
    {F32, {"generate=normal", "seed=0", "mean=0", "stddev=-1", NULL}, "normal: stddev (-1) must not be negative"},
    {F16,
     {"generate=normal", "seed=0", "mean=60000", "stddev=1000", NULL},
     "normal: mean + 6 * stddev (mean 60000, stddev 1000) is out of range for float16"},
    {U32,
     {"generate=normal", "seed=0", "mean=5", "stddev=1", NULL},
     "normal: mean - 6 * stddev (mean 5, stddev 1) is out of range for uint32"},
    {F32,
     {"generate=normal", "seed=0", "mean=nan", "stddev=1", NULL},
     "normal: mean and stddev must be finite (mean nan, stddev 1)"},
    {F32, {"generate=wide", "seed=0", "emin=3", "emax=2", NULL}, "wide: emin (3) is greater than emax (2)"},
    {F32,
     {"generate=wide", "seed=0", "emin=-150", "emax=2", NULL},
     "wide: exponents must lie from -149 to 127 for float32 (emin -150, emax 2)"},
    {I32,
     {"generate=wide", "seed=0", "emin=0", "emax=31", NULL},
     "wide: exponents must lie from 0 to 30 for int32 (emin 0, emax 31)"},
    {F32, {"generate=iota", "start=inf", NULL}, "iota: start and step must be finite"},
    {DMLCONF_DATA_TYPE_UINT16,
     {"generate=constant", "value=1", NULL},
     "generator constant needs a computable dtype (float32, float16, int32, uint32, int64, uint64), not uint16"},
};

START_TEST(test_check_errors)
{
    const check_error_case *c = &check_error_cases[_i];
    dmlconf_datagen_spec spec;
    dmlconf_datagen_init(&spec, c->type);
    char why[512];
    for (size_t i = 0; c->pairs[i]; ++i)
    {
        char key[32];
        const char *equals = strchr(c->pairs[i], '=');
        memcpy(key, c->pairs[i], (size_t)(equals - c->pairs[i]));
        key[equals - c->pairs[i]] = '\0';
        ck_assert_msg(dmlconf_datagen_set(&spec, key, equals + 1, why, sizeof(why)) == 0, "%s: %s", c->pairs[i], why);
    }
    ck_assert_int_eq(dmlconf_datagen_check(&spec, why, sizeof(why)), -1);
    ck_assert_str_eq(why, c->why);
    /* An invalid spec fills zeros. */
    unsigned char data[16];
    memset(data, 0x77, sizeof(data));
    dmlconf_datagen_fill(&spec, 0, 2, data);
    size_t size = dmlconf_value_size(c->type);
    for (size_t i = 0; i < 2 * size; ++i)
        ck_assert_uint_eq(data[i], 0u);
}
END_TEST

START_TEST(test_describe)
{
    const char *pairs[] = {"seed=7", "generate=uniform", "min=-1", "max=0.5", NULL};
    dmlconf_datagen_spec spec = make_spec(F32, pairs);
    char text[128];
    ck_assert_uint_eq(dmlconf_datagen_describe(&spec, text, sizeof(text)),
                      strlen("uniform float32 min=-1 max=0.5 seed=7"));
    ck_assert_str_eq(text, "uniform float32 min=-1 max=0.5 seed=7");
    const char *w[] = {"generate=wide", "seed=1", "emin=-3", "emax=4", NULL};
    spec = make_spec(F16, w);
    dmlconf_datagen_describe(&spec, text, sizeof(text));
    ck_assert_str_eq(text, "wide float16 emin=-3 emax=4 seed=1");
    const char *i[] = {"generate=iota", NULL};
    spec = make_spec(U64, i);
    dmlconf_datagen_describe(&spec, text, sizeof(text));
    ck_assert_str_eq(text, "iota uint64");
    ck_assert_uint_eq(dmlconf_datagen_describe(&spec, text, 5), 11u);
    ck_assert_str_eq(text, "iota");
    ck_assert_uint_eq(dmlconf_datagen_describe(&spec, NULL, 0), 11u);
    dmlconf_datagen_init(&spec, I32);
    dmlconf_datagen_describe(&spec, text, sizeof(text));
    ck_assert_str_eq(text, "no generator int32");
    ck_assert_str_eq(dmlconf_datagen_kind_name(DMLCONF_DATAGEN_SPECIALS), "specials");
    ck_assert_ptr_null(dmlconf_datagen_kind_name(DMLCONF_DATAGEN_NONE));
    ck_assert_ptr_null(dmlconf_datagen_kind_name((dmlconf_datagen_kind)99));
}
END_TEST

/* ---- the fast path against the exact reference --------------------------------------- */

/* xorshift64*: the test's own parameter stream. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * UINT64_C(0x2545f4914f6cdd1d);
}

static void put_element(unsigned char *element, uint64_t bits)
{
    for (int b = 0; b < 8; ++b)
        element[b] = (unsigned char)(bits >> (8 * b));
}

/* A random element of `type`: floats finite, with exponents from a narrow
 * band around 1 (half the time), the whole range, subnormals and zeros;
 * integers of every magnitude. */
static uint64_t random_element(dmlconf_data_type type, uint64_t *state)
{
    uint64_t r = next_random(state);
    uint64_t pick = next_random(state) % 8u;
    if (type == F32 || type == F16)
    {
        unsigned precision = type == F32 ? 24u : 11u;
        unsigned exponent_bits = type == F32 ? 8u : 5u;
        uint64_t fraction = r & ((UINT64_C(1) << (precision - 1)) - 1u);
        uint64_t max_field = (UINT64_C(1) << exponent_bits) - 2u;
        uint64_t bias = (UINT64_C(1) << (exponent_bits - 1)) - 1u;
        uint64_t field;
        if (pick < 4)
            field = bias - 3u + (r >> 40) % 7u; /* around 1 */
        else if (pick < 6)
            field = 1u + (r >> 40) % max_field;
        else if (pick == 6)
            field = 0; /* subnormal or zero */
        else
            return (r >> 63) ? (UINT64_C(1) << (precision + exponent_bits - 1)) : 0u; /* -0 or +0 */
        if (pick < 4 && (r >> 20) % 4u == 0)
            fraction &= ~((UINT64_C(1) << (precision - 4)) - 1u); /* few significant bits */
        uint64_t sign = (r >> 63) << (precision + exponent_bits - 1);
        return sign | (field << (precision - 1)) | fraction;
    }
    unsigned bits = dmlconf_value_size(type) * 8u;
    unsigned width = 1u + (unsigned)(next_random(state) % bits);
    uint64_t value = width == 64 ? r : r & ((UINT64_C(1) << width) - 1u);
    if ((type == I32 || type == I64) && pick < 3)
        value = 0u - (value >> 1);
    return bits == 64 ? value : value & ((UINT64_C(1) << bits) - 1u);
}

/* How many fills took the fixed-point path (the rest went to the reference). */
static size_t fixed_fills;

/* Fills `count` elements from `first` with both paths and compares them. */
static void expect_paths_agree(const dmlconf_datagen_spec *spec, uint64_t first, size_t count, const char *what)
{
    size_t size = dmlconf_value_size(spec->type);
    unsigned char fast[64 * 8];
    unsigned char exact[64 * 8];
    ck_assert_uint_le(count, 64);
    memset(fast, 0x5a, sizeof(fast));
    memset(exact, 0x5a, sizeof(exact));
    if (datagen_fill_fixed(spec, first, count, fast))
        ++fixed_fills;
    dmlconf_datagen_fill(spec, first, count, fast);
    datagen_fill_exact(spec, first, count, exact);
    for (size_t i = 0; i < count; ++i)
    {
        if (memcmp(fast + i * size, exact + i * size, size) != 0)
        {
            char description[256];
            dmlconf_datagen_describe(spec, description, sizeof(description));
            ck_abort_msg("%s: %s, element %" PRIu64 ": fast 0x%" PRIx64 ", exact 0x%" PRIx64, what, description,
                         first + i, element_at(fast, size, i), element_at(exact, size, i));
        }
    }
}

/* A random spec of `kind` for `type` that passes dmlconf_datagen_check
 * (false when the drawn parameters do not). */
static bool random_spec(dmlconf_datagen_kind kind, dmlconf_data_type type, uint64_t *state, dmlconf_datagen_spec *spec)
{
    dmlconf_datagen_init(spec, type);
    spec->kind = kind;
    spec->keys = DMLCONF_DATAGEN_KEY_GENERATE;
    spec->seed = next_random(state);
    bool is_float = type == F32 || type == F16;
    int qmin = type == F32 ? -149 : -24;
    switch (kind)
    {
    case DMLCONF_DATAGEN_UNIFORM:
    case DMLCONF_DATAGEN_INTEGERS:
    case DMLCONF_DATAGEN_DYADIC:
    {
        uint64_t a, b;
        if (is_float && kind != DMLCONF_DATAGEN_UNIFORM)
        {
            /* Integral bounds of magnitude at most 2^p, as elements. */
            int64_t limit = type == F32 ? (INT64_C(1) << 24) : 2048;
            int64_t x = (int64_t)(next_random(state) % (uint64_t)(2 * limit + 1)) - limit;
            int64_t y = (int64_t)(next_random(state) % (uint64_t)(2 * limit + 1)) - limit;
            if (next_random(state) % 4u == 0)
                y = x + (int64_t)(next_random(state) % 3u);
            char text[32];
            unsigned char element[8] = {0};
            snprintf(text, sizeof(text), "%" PRId64, x < y ? x : y);
            if (dmlconf_value_parse(type, text, false, element, NULL, 0) != DMLCONF_VALUE_OK)
                return false;
            a = element_at(element, 8, 0);
            snprintf(text, sizeof(text), "%" PRId64, x < y ? y : x);
            if (dmlconf_value_parse(type, text, false, element, NULL, 0) != DMLCONF_VALUE_OK)
                return false;
            b = element_at(element, 8, 0);
        }
        else
        {
            a = random_element(type, state);
            b = next_random(state) % 4u == 0 ? a : random_element(type, state);
        }
        put_element(spec->min, a);
        put_element(spec->max, b);
        spec->keys |= DMLCONF_DATAGEN_KEY_SEED | DMLCONF_DATAGEN_KEY_MIN | DMLCONF_DATAGEN_KEY_MAX;
        if (kind == DMLCONF_DATAGEN_DYADIC)
        {
            spec->keys |= DMLCONF_DATAGEN_KEY_SCALE;
            spec->scale = is_float ? (int32_t)(next_random(state) % (uint64_t)(-qmin + 40)) - 30
                                   : -(int32_t)(next_random(state) % 40u);
        }
        if (dmlconf_datagen_check(spec, NULL, 0) != 0)
        {
            /* Bounds out of order: swap them. */
            put_element(spec->min, b);
            put_element(spec->max, a);
        }
        break;
    }
    case DMLCONF_DATAGEN_NORMAL:
        put_element(spec->mean, random_element(type, state));
        put_element(spec->stddev, random_element(type, state));
        if (is_float && next_random(state) % 2u)
            put_element(spec->stddev, element_at(spec->stddev, 8, 0) & ~(type == F32 ? UINT64_C(0x80000000) : 0x8000u));
        spec->keys |= DMLCONF_DATAGEN_KEY_SEED | DMLCONF_DATAGEN_KEY_MEAN | DMLCONF_DATAGEN_KEY_STDDEV;
        break;
    case DMLCONF_DATAGEN_IOTA:
        if (next_random(state) % 4u)
        {
            put_element(spec->start, random_element(type, state));
            spec->keys |= DMLCONF_DATAGEN_KEY_START;
        }
        if (next_random(state) % 4u)
        {
            put_element(spec->step, random_element(type, state));
            spec->keys |= DMLCONF_DATAGEN_KEY_STEP;
        }
        break;
    default:
        return false;
    }
    return dmlconf_datagen_check(spec, NULL, 0) == 0;
}

START_TEST(test_fast_path_matches_exact)
{
    static const dmlconf_datagen_kind kinds[] = {DMLCONF_DATAGEN_UNIFORM, DMLCONF_DATAGEN_INTEGERS,
                                                 DMLCONF_DATAGEN_DYADIC, DMLCONF_DATAGEN_NORMAL, DMLCONF_DATAGEN_IOTA};
    /* Floats twice as often: most of the fast path is theirs. */
    static const dmlconf_data_type types[] = {F32, F16, F32, F16, I32, U32, I64, U64};
    uint64_t state = UINT64_C(0x9d2c5680a3b1f4e7) + (uint64_t)_i;
    dmlconf_datagen_kind kind = kinds[_i % 5];
    size_t accepted = 0;
    fixed_fills = 0;
    for (int attempt = 0; attempt < 3000; ++attempt)
    {
        dmlconf_datagen_spec spec;
        dmlconf_data_type type = types[next_random(&state) % 8u];
        if (!random_spec(kind, type, &state, &spec))
            continue;
        ++accepted;
        uint64_t first = next_random(&state);
        switch (next_random(&state) % 4u)
        {
        case 0:
            first = 0;
            break;
        case 1:
            first %= 100000u;
            break;
        case 2:
            first %= UINT64_C(1) << 33; /* past 2^32 elements */
            break;
        default:
            break; /* anywhere: iota's largest indices */
        }
        /* Whole blocks of the float32 fill, and parts of one. */
        size_t count = next_random(&state) % 2u ? 64u : 1u + (size_t)(next_random(&state) % 64u);
        expect_paths_agree(&spec, first, count, "random spec");
    }
    ck_assert_msg(accepted > 300, "only %zu of the random specs passed the checks", accepted);
    /* A good share of them exercise the fast path itself (the rest are
     * integer generators the reference keeps, or parameters too far
     * apart). */
    ck_assert_msg(fixed_fills * 4 > accepted, "only %zu of %zu fills took the fast path", fixed_fills, accepted);
}
END_TEST

/* Parameters at the edges: signed zeros, equal bounds, subnormal bounds,
 * the widest ranges, parameters whose exponents lie far apart (the fast
 * path hands those to the reference), iota running into infinity. */
START_TEST(test_fast_path_edges)
{
    static const struct
    {
        dmlconf_data_type type;
        const char *pairs[6];
    } edges[] = {
        {F32, {"generate=uniform", "seed=1", "min=-0.0", "max=-0.0", NULL}},
        {F32, {"generate=uniform", "seed=1", "min=-0.0", "max=1", NULL}},
        {F32, {"generate=uniform", "seed=2", "min=-1", "max=-0.0", NULL}},
        {F32, {"generate=uniform", "seed=3", "min=bits:0x00000001", "max=bits:0x00000003", NULL}},
        {F32, {"generate=uniform", "seed=4", "min=-0x1.fffffep+127", "max=0x1.fffffep+127", NULL}},
        {F32, {"generate=uniform", "seed=5", "min=0x1p-100", "max=0x1p100", NULL}},
        {F32, {"generate=uniform", "seed=6", "min=-0x1p-149", "max=0x1p127", NULL}},
        {F32, {"generate=uniform", "seed=7", "min=0x1.fffffcp-127", "max=0x1p-126", NULL}},
        {F16, {"generate=uniform", "seed=8", "min=-65504", "max=65504", NULL}},
        {F16, {"generate=uniform", "seed=9", "min=0x1p-24", "max=0x1p-14", NULL}},
        {F32, {"generate=normal", "seed=10", "mean=-0.0", "stddev=0", NULL}},
        {F32, {"generate=normal", "seed=11", "mean=0", "stddev=0x1p-149", NULL}},
        {F32, {"generate=normal", "seed=12", "mean=0x1p100", "stddev=0x1p-100", NULL}},
        {F32, {"generate=normal", "seed=13", "mean=0x1.93e594p+99", "stddev=0x1p96", NULL}},
        {F16, {"generate=normal", "seed=14", "mean=0", "stddev=10000", NULL}},
        {I64, {"generate=normal", "seed=15", "mean=-9223372036854775000", "stddev=100", NULL}},
        {U64, {"generate=normal", "seed=16", "mean=9223372036854775808", "stddev=1000000000000000000", NULL}},
        {I32, {"generate=normal", "seed=17", "mean=0", "stddev=1", NULL}},
        {F32, {"generate=iota", "start=-0.0", "step=-0.0", NULL}},
        {F32, {"generate=iota", "start=0x1.fffffep+127", "step=0x1p103", NULL}},
        {F32, {"generate=iota", "start=-1", "step=0x1p-149", NULL}},
        {F32, {"generate=iota", "start=0x1p-149", "step=-0x1p-149", NULL}},
        {F32, {"generate=iota", "start=0x1p120", "step=0x1p-120", NULL}},
        {F16, {"generate=iota", "start=65504", "step=-1", NULL}},
        {F32, {"generate=dyadic", "seed=18", "min=-16777216", "max=16777216", "scale=149", NULL}},
        {F32, {"generate=dyadic", "seed=19", "min=-3", "max=3", "scale=-100", NULL}},
        {F16, {"generate=integers", "seed=20", "min=-2048", "max=-2048", NULL}},
        {I64, {"generate=dyadic", "seed=21", "min=-4", "max=4", "scale=-60", NULL}},
        {U32, {"generate=dyadic", "seed=22", "min=0", "max=255", "scale=-24", NULL}},
    };
    size_t count = sizeof(edges) / sizeof(edges[0]);
    static const uint64_t firsts[] = {
        0, 1000, UINT64_C(1) << 31, UINT64_C(0xffffffff) - 63, UINT64_C(1) << 62, UINT64_MAX - 63};
    for (size_t e = 0; e < count; ++e)
    {
        dmlconf_datagen_spec spec = make_spec(edges[e].type, edges[e].pairs);
        for (size_t f = 0; f < sizeof(firsts) / sizeof(firsts[0]); ++f)
            expect_paths_agree(&spec, firsts[f], 64, edges[e].pairs[0]);
    }
}
END_TEST

/* Uniform float32 over [-2^k, 2^k], whose fast path converts an integer
 * and scales it: every k it takes (down to -63, where the smallest nonzero
 * result is the smallest normal, up to 127), the k just outside, and
 * ranges that only look like it (another minimum, an unsymmetric range, a
 * signed zero, float16), against the exact reference over many indices. */
START_TEST(test_fast_path_power_of_two_ranges)
{
    static const struct
    {
        dmlconf_data_type type;
        const char *min;
        const char *max;
    } ranges[] = {
        {F32, "-1", "1"},
        {F32, "-2", "2"},
        {F32, "-0.5", "0.5"},
        {F32, "-0x1p-63", "0x1p-63"},
        {F32, "-0x1p-64", "0x1p-64"},
        {F32, "-0x1p100", "0x1p100"},
        {F32, "-0x1p127", "0x1p127"},
        {F32, "-1", "2"},
        {F32, "-1", "0x1.fffffep-1"},
        {F32, "-0x1.000002p0", "0x1.000002p0"},
        {F32, "-3", "3"},
        {F32, "0", "1"},
        {F32, "-0.0", "2"},
        {F16, "-1", "1"},
    };
    char seed_text[32];
    snprintf(seed_text, sizeof(seed_text), "seed=%d", 100 + _i);
    const char *pairs[6] = {"generate=uniform", seed_text, NULL, NULL, NULL, NULL};
    char min_text[48], max_text[48];
    snprintf(min_text, sizeof(min_text), "min=%s", ranges[_i].min);
    snprintf(max_text, sizeof(max_text), "max=%s", ranges[_i].max);
    pairs[2] = min_text;
    pairs[3] = max_text;
    dmlconf_datagen_spec spec = make_spec(ranges[_i].type, pairs);
    uint64_t state = UINT64_C(0x51a7e5) + (uint64_t)_i;
    for (int block = 0; block < 2000; ++block)
    {
        uint64_t first = block < 1000 ? (uint64_t)block * 64u : next_random(&state);
        expect_paths_agree(&spec, first, 64, min_text);
    }
}
END_TEST

static Suite *datagen_suite(void)
{
    Suite *suite = suite_create("datagen");
    TCase *tc = tcase_create("golden");
    int golden_count = (int)(sizeof(golden_cases) / sizeof(golden_cases[0]));
    tcase_add_loop_test(tc, test_golden, 0, golden_count);
    tcase_add_loop_test(tc, test_chunked_equals_one_shot, 0, golden_count);
    tcase_add_test(tc, test_seeds_differ);
    suite_add_tcase(suite, tc);

    tc = tcase_create("properties");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_uniform_float_range);
    tcase_add_test(tc, test_integer_ranges);
    tcase_add_test(tc, test_dyadic_exact);
    tcase_add_test(tc, test_normal_and_wide_ranges);
    tcase_add_test(tc, test_specials_cover);
    suite_add_tcase(suite, tc);

    tc = tcase_create("fast path");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_fast_path_matches_exact, 0, 20);
    tcase_add_test(tc, test_fast_path_edges);
    tcase_add_loop_test(tc, test_fast_path_power_of_two_ranges, 0, 14);
    suite_add_tcase(suite, tc);

    tc = tcase_create("errors");
    tcase_add_loop_test(tc, test_set_errors, 0, (int)(sizeof(set_error_cases) / sizeof(set_error_cases[0])));
    tcase_add_loop_test(tc, test_check_errors, 0, (int)(sizeof(check_error_cases) / sizeof(check_error_cases[0])));
    tcase_add_test(tc, test_describe);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(datagen_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
