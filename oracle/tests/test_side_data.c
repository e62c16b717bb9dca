/*
 * Side data (dmlconf_side_data) for sums and products on small lines whose
 * values are worked out by hand: terms, specials, q, A (rounded up),
 * significand bits and the Kadane-style log2 partial products, inclusive and
 * exclusive, for float32, float16 and the integer types.
 */
#include "line_kernels.h"
#include "test_support.h"

#include <math.h>
#include <stdio.h>

#define LINE 8

/* INFINITY is a float constant; these are the doubles. */
#define D_INF  ((double)INFINITY)
#define D_NINF (-(double)INFINITY)

/* One expected entry; the fields a kind does not use keep their empty
 * values. */
typedef struct expect
{
    uint32_t specials;
    int32_t q;
    uint32_t bits;
    double abs_sum;
    double log2_max;
    double log2_min;
} expect;

enum
{
    NAN_ = DMLCONF_SPECIAL_NAN,
    PINF = DMLCONF_SPECIAL_POS_INF,
    NINF = DMLCONF_SPECIAL_NEG_INF,
    ZERO = DMLCONF_SPECIAL_ZERO,
};

static bool same_double(double a, double b)
{
    return test_f64_bits(a) == test_f64_bits(b);
}

static void check_entry(const char *what, size_t k, const dmlconf_side_data *got, uint32_t terms, const expect *e)
{
    ck_assert_msg(got->terms == terms, "%s [%zu]: terms %u, expected %u", what, k, got->terms, terms);
    ck_assert_msg(got->specials == e->specials, "%s [%zu]: specials 0x%x, expected 0x%x", what, k, got->specials,
                  e->specials);
    ck_assert_msg(got->min_lsb_exponent == e->q, "%s [%zu]: q %d, expected %d", what, k, got->min_lsb_exponent, e->q);
    ck_assert_msg(got->significand_bits == e->bits, "%s [%zu]: significand bits %u, expected %u", what, k,
                  got->significand_bits, e->bits);
    ck_assert_msg(same_double(got->abs_sum, e->abs_sum), "%s [%zu]: A %a, expected %a", what, k, got->abs_sum,
                  e->abs_sum);
    ck_assert_msg(same_double(got->log2_max_partial, e->log2_max), "%s [%zu]: log2 max %a, expected %a", what, k,
                  got->log2_max_partial, e->log2_max);
    ck_assert_msg(same_double(got->log2_min_partial, e->log2_min), "%s [%zu]: log2 min %a, expected %a", what, k,
                  got->log2_min_partial, e->log2_min);
}

static const expect empty = {0, INT32_MAX, 0, 0.0, D_NINF, D_INF};

/* Checks an inclusive and an exclusive run against the inclusive table. */
static void check_line(const char *what, const dmlconf_side_data *inclusive, const dmlconf_side_data *exclusive,
                       size_t n, const expect *table)
{
    char name[64];
    for (size_t k = 0; k < n; ++k)
    {
        snprintf(name, sizeof(name), "%s inclusive", what);
        check_entry(name, k, &inclusive[k], (uint32_t)(k + 1), &table[k]);
        snprintf(name, sizeof(name), "%s exclusive", what);
        check_entry(name, k, &exclusive[k], (uint32_t)k, k == 0 ? &empty : &table[k - 1]);
    }
}

/* ---- sums ------------------------------------------------------------------------- */

/* 1, -2, 0.5, 2^-60, +Inf, -0, NaN, 3. A is rounded up once 2^-60 joins:
 * 3.5 + 2^-60 becomes 3.5 + 2^-51, and adding 3 (a tie, 6.5 + 2^-51) gives
 * 6.5 + 2^-50. */
static const expect sum_f32_table[LINE] = {
    {0, 0, 0, 1.0, D_NINF, D_INF},
    {0, 0, 0, 3.0, D_NINF, D_INF},
    {0, -1, 0, 3.5, D_NINF, D_INF},
    {0, -60, 0, 3.5 + 0x1p-51, D_NINF, D_INF},
    {PINF, -60, 0, 3.5 + 0x1p-51, D_NINF, D_INF},
    {PINF | ZERO, -60, 0, 3.5 + 0x1p-51, D_NINF, D_INF},
    {PINF | ZERO | NAN_, -60, 0, 3.5 + 0x1p-51, D_NINF, D_INF},
    {PINF | ZERO | NAN_, -60, 0, 6.5 + 0x1p-50, D_NINF, D_INF},
};

START_TEST(test_sum_f32)
{
    const float x[LINE] = {1.0f, -2.0f, 0.5f, 0x1p-60f, INFINITY, -0.0f, NAN, 3.0f};
    dmlconf_side_data inclusive[LINE], exclusive[LINE];
    oracle_side_data_sum_f32(false, LINE, x, inclusive);
    oracle_side_data_sum_f32(true, LINE, x, exclusive);
    check_line("sum f32", inclusive, exclusive, LINE, sum_f32_table);
}
END_TEST

/* 1, -2, 0.5, 2^-24, +Inf, -0, NaN, 3 as halves: every A is exact. */
static const expect sum_f16_table[LINE] = {
    {0, 0, 0, 1.0, D_NINF, D_INF},
    {0, 0, 0, 3.0, D_NINF, D_INF},
    {0, -1, 0, 3.5, D_NINF, D_INF},
    {0, -24, 0, 3.5 + 0x1p-24, D_NINF, D_INF},
    {PINF, -24, 0, 3.5 + 0x1p-24, D_NINF, D_INF},
    {PINF | ZERO, -24, 0, 3.5 + 0x1p-24, D_NINF, D_INF},
    {PINF | ZERO | NAN_, -24, 0, 3.5 + 0x1p-24, D_NINF, D_INF},
    {PINF | ZERO | NAN_, -24, 0, 6.5 + 0x1p-24, D_NINF, D_INF},
};

START_TEST(test_sum_f16)
{
    const uint16_t x[LINE] = {0x3c00u, 0xc000u, 0x3800u, 0x0001u, 0x7c00u, 0x8000u, 0x7e00u, 0x4200u};
    dmlconf_side_data inclusive[LINE], exclusive[LINE];
    oracle_side_data_sum_f16(false, LINE, x, inclusive);
    oracle_side_data_sum_f16(true, LINE, x, exclusive);
    check_line("sum f16", inclusive, exclusive, LINE, sum_f16_table);
}
END_TEST

/* Small integers: A is their exact sum, q is the lowest set bit. */
START_TEST(test_sum_integers_exact)
{
    enum
    {
        N = 1000
    };
    float x[N];
    dmlconf_side_data side[N];
    for (int i = 0; i < N; ++i)
        x[i] = (float)((i % 2 ? -1 : 1) * (2 * i + 2));
    oracle_side_data_sum_f32(false, N, x, side);
    double a = 0.0;
    for (int i = 0; i < N; ++i)
    {
        a += (double)(2 * i + 2);
        ck_assert_msg(side[i].abs_sum == a, "[%d]: A %a, expected %a", i, side[i].abs_sum, a);
        if (side[i].min_lsb_exponent != 1)
            ck_abort_msg("[%d]: q %d, expected 1", i, side[i].min_lsb_exponent);
    }
}
END_TEST

/* A is a rigorous upper bound: many values that do not add exactly. */
START_TEST(test_sum_abs_upper_bound)
{
    enum
    {
        N = 4096
    };
    float x[N];
    dmlconf_side_data side[N];
    test_rng rng;
    test_rng_seed(&rng, 42);
    for (int i = 0; i < N; ++i)
        x[i] = (float)(test_rng_unit(&rng) * 2.0 - 1.0) * ldexpf(1.0f, (int)test_rng_below(&rng, 60) - 30);
    oracle_side_data_sum_f32(false, N, x, side);
    /* Compare with a double-double running sum of |x| (accurate to far
     * below one ulp of A): A must not be below it, nor far above. */
    double hi = 0.0, lo = 0.0;
    for (int i = 0; i < N; ++i)
    {
        double v = fabs((double)x[i]);
        double s = hi + v, bb = s - hi, e = (hi - (s - bb)) + (v - bb);
        lo += e;
        hi = s + lo;
        lo -= hi - s;
        double a = side[i].abs_sum;
        if (a < hi || (a == hi && lo > 0.0) || a > hi * (1.0 + 0x1p-38))
            ck_abort_msg("[%d]: A %a is not a tight upper bound of %a + %a", i, a, hi, lo);
    }
}
END_TEST

/* ---- products ------------------------------------------------------------------------ */

/* 2, -0.5, 8, 3, 0, 0.25, +Inf, 4 (the same values in both types).
 * log2|x| = 1, -1, 3, log2 3, -Inf, -2, (skipped), 2. Kadane: the best
 * sub-range products are 2 (1), still 2, 2 * -0.5 * 8 or 8 (3), then with 3
 * (3 + log2 3); the smallest are 2 (1), -0.5 (-1), then 0 (-Inf). */
static expect product_table[LINE];

static void fill_product_table(void)
{
    const double l3 = 3.0 + log2(3.0); /* as the kernel computes it: 3 + log2 3 */
    const expect table[LINE] = {
        {0, 1, 1, 0.0, 1.0, 1.0},
        {0, -1, 2, 0.0, 1.0, -1.0},
        {0, -1, 3, 0.0, 3.0, -1.0},
        {0, -1, 5, 0.0, l3, -1.0},
        {ZERO, -1, 5, 0.0, l3, D_NINF},
        {ZERO, -2, 6, 0.0, l3, D_NINF},
        {ZERO | PINF, -2, 6, 0.0, l3, D_NINF},
        {ZERO | PINF, -2, 7, 0.0, l3, D_NINF},
    };
    for (int k = 0; k < LINE; ++k)
        product_table[k] = table[k];
}

START_TEST(test_product_f32)
{
    const float x[LINE] = {2.0f, -0.5f, 8.0f, 3.0f, 0.0f, 0.25f, INFINITY, 4.0f};
    dmlconf_side_data inclusive[LINE], exclusive[LINE];
    fill_product_table();
    oracle_side_data_product_f32(false, LINE, x, inclusive);
    oracle_side_data_product_f32(true, LINE, x, exclusive);
    check_line("product f32", inclusive, exclusive, LINE, product_table);
}
END_TEST

START_TEST(test_product_f16)
{
    const uint16_t x[LINE] = {0x4000u, 0xb800u, 0x4800u, 0x4200u, 0x0000u, 0x3400u, 0x7c00u, 0x4400u};
    dmlconf_side_data inclusive[LINE], exclusive[LINE];
    fill_product_table();
    oracle_side_data_product_f16(false, LINE, x, inclusive);
    oracle_side_data_product_f16(true, LINE, x, exclusive);
    check_line("product f16", inclusive, exclusive, LINE, product_table);
}
END_TEST

/* Significand widths and q at the edges of the formats. */
START_TEST(test_product_significands)
{
    /* 0.1f = 0xcccccd * 2^-27 (24 bits, odd); 2^-149 (1 bit); FLT_MAX =
     * 0xffffff * 2^104; 1.5 = 3 * 2^-1. */
    const float x[4] = {0.1f, 0x1p-149f, 0x1.fffffep127f, 1.5f};
    dmlconf_side_data side[4];
    oracle_side_data_product_f32(false, 4, x, side);
    ck_assert_uint_eq(side[0].significand_bits, 24);
    ck_assert_int_eq(side[0].min_lsb_exponent, -27);
    ck_assert_uint_eq(side[1].significand_bits, 25);
    ck_assert_int_eq(side[1].min_lsb_exponent, -149);
    ck_assert_uint_eq(side[2].significand_bits, 49);
    ck_assert_int_eq(side[3].min_lsb_exponent, -149);
    ck_assert_uint_eq(side[3].significand_bits, 51);
    /* Largest partial: FLT_MAX * 1.5 (log2 about 128.58); smallest:
     * 0.1f * 2^-149, as the running minimum adds it up. */
    ck_assert(side[3].log2_max_partial > 128.5 && side[3].log2_max_partial < 128.6);
    ck_assert(same_double(side[3].log2_min_partial, log2((double)0.1f) + -149.0));

    /* Halves: 3 * 2^-24 (subnormal, 2 bits), 65504 = 0x7ff * 2^5 (11 bits). */
    const uint16_t h[2] = {0x0003u, 0x7bffu};
    oracle_side_data_product_f16(false, 2, h, side);
    ck_assert_uint_eq(side[0].significand_bits, 2);
    ck_assert_int_eq(side[0].min_lsb_exponent, -24);
    ck_assert_uint_eq(side[1].significand_bits, 13);
    ck_assert_int_eq(side[1].min_lsb_exponent, -24);
}
END_TEST

/* Only non-finite terms: no finite sub-range, so the empty values stay and
 * nothing becomes NaN. */
START_TEST(test_product_only_specials)
{
    const float x[3] = {INFINITY, -INFINITY, NAN};
    dmlconf_side_data side[3];
    oracle_side_data_product_f32(false, 3, x, side);
    for (int k = 0; k < 3; ++k)
    {
        ck_assert(same_double(side[k].log2_max_partial, D_NINF));
        ck_assert(same_double(side[k].log2_min_partial, D_INF));
        ck_assert_int_eq(side[k].min_lsb_exponent, INT32_MAX);
        ck_assert_uint_eq(side[k].significand_bits, 0);
    }
    ck_assert_uint_eq(side[2].specials, PINF | NINF | NAN_);

    /* Zeros only: the smallest is -Inf, the largest -Inf too (every
     * sub-range holds a zero); never NaN. */
    const float z[2] = {0.0f, -0.0f};
    oracle_side_data_product_f32(false, 2, z, side);
    for (int k = 0; k < 2; ++k)
    {
        ck_assert(same_double(side[k].log2_max_partial, D_NINF));
        ck_assert(same_double(side[k].log2_min_partial, D_NINF));
        ck_assert_uint_eq(side[k].specials, ZERO);
    }
}
END_TEST

/* ---- integers ------------------------------------------------------------------------ */

START_TEST(test_integer)
{
    dmlconf_side_data inclusive[5], exclusive[5];
    oracle_side_data_integer(false, 5, inclusive);
    oracle_side_data_integer(true, 5, exclusive);
    for (size_t k = 0; k < 5; ++k)
    {
        check_entry("integer inclusive", k, &inclusive[k], (uint32_t)(k + 1), &empty);
        check_entry("integer exclusive", k, &exclusive[k], (uint32_t)k, &empty);
    }
}
END_TEST

/* n = 0 writes nothing; an exclusive line of one holds only the empty prefix. */
START_TEST(test_edges)
{
    dmlconf_side_data side[2];
    side[0].terms = 77;
    oracle_side_data_sum_f32(false, 0, NULL, side);
    ck_assert_uint_eq(side[0].terms, 77);
    const float one = 1.0f;
    oracle_side_data_sum_f32(true, 1, &one, side);
    check_entry("exclusive of one", 0, &side[0], 0, &empty);
    oracle_side_data_product_f32(true, 1, &one, side);
    check_entry("exclusive of one", 0, &side[0], 0, &empty);
}
END_TEST

static Suite *side_data_suite(void)
{
    Suite *suite = suite_create("side_data");
    TCase *sums = tcase_create("sums");
    tcase_add_test(sums, test_sum_f32);
    tcase_add_test(sums, test_sum_f16);
    tcase_add_test(sums, test_sum_integers_exact);
    tcase_add_test(sums, test_sum_abs_upper_bound);
    suite_add_tcase(suite, sums);
    TCase *products = tcase_create("products");
    tcase_add_test(products, test_product_f32);
    tcase_add_test(products, test_product_f16);
    tcase_add_test(products, test_product_significands);
    tcase_add_test(products, test_product_only_specials);
    suite_add_tcase(suite, products);
    TCase *other = tcase_create("other");
    tcase_add_test(other, test_integer);
    tcase_add_test(other, test_edges);
    suite_add_tcase(suite, other);
    return suite;
}

int main(void)
{
    return test_run_suite(side_data_suite());
}
