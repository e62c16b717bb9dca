/*
 * The exact float prefix products (oracle_product_f32 / oracle_product_f16)
 * against MPFR, bit for bit, inclusive and exclusive, on random, wide-range,
 * tie, near-tie, subnormal, special-value and small-integer data; plus unit
 * tests of the exact fallback (bignum_product) and runs that force every
 * element, or every few elements, through it.
 *
 * Reference: each prefix product is computed exactly with MPFR (the
 * precision grows by the terms' significand widths) and rounded once to the
 * output format by MPFR itself, at the format's fixed subnormal position and
 * with the format's overflow threshold. Long lines use a rigorous interval
 * instead (lower and upper bounds at 256 bits, rounded down and up); when the
 * two bounds do not round to the same value, that prefix is recomputed
 * exactly.
 *
 * A failure prints the format, data mode, seed, line, index and both values
 * in decimal and hex bits. Set DMLCONF_TEST_SEED to replay with another seed.
 */
#include "test_support.h"

#include "bignum_product.h"
#include "line_kernels.h"

#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An assertion for hot loops: Check's ck_assert_* macros report every
 * passing check to the parent process, which costs a system call each. */
#define REQUIRE(expr)                                                                                                  \
    do                                                                                                                 \
    {                                                                                                                  \
        if (!(expr))                                                                                                   \
            ck_abort_msg("%s:%d: failed: %s", __FILE__, __LINE__, #expr);                                              \
    } while (0)

/* Elements per float type and data mode in the MPFR comparisons. */
#define ELEMENTS_PER_MODE 1000000u
/* Lines up to this length get the exact-precision reference. */
#define EXACT_REFERENCE_MAX 400u
/* Precision of the interval reference. */
#define INTERVAL_PRECISION 256

/* ---- formats -------------------------------------------------------------- */

typedef struct test_format
{
    const char *name;
    bool half;
    int precision;    /* significand bits */
    int min_exponent; /* exponent of the smallest subnormal */
    int max_exponent; /* exponent of the largest finite value's leading bit */
    uint32_t sign_bit;
    uint32_t infinity;
    uint32_t magnitude;
    uint32_t nan; /* the kernels' NaN */
    uint32_t one;
} test_format;

static const test_format format_f32 = {
    .name = "float32",
    .half = false,
    .precision = 24,
    .min_exponent = -149,
    .max_exponent = 127,
    .sign_bit = 0x80000000u,
    .infinity = 0x7f800000u,
    .magnitude = 0x7fffffffu,
    .nan = 0x7fc00000u,
    .one = 0x3f800000u,
};
static const test_format format_f16 = {
    .name = "float16",
    .half = true,
    .precision = 11,
    .min_exponent = -24,
    .max_exponent = 15,
    .sign_bit = 0x8000u,
    .infinity = 0x7c00u,
    .magnitude = 0x7fffu,
    .nan = 0x7e00u,
    .one = 0x3c00u,
};

static const test_format *test_formats[2] = {&format_f32, &format_f16};

static double format_value(const test_format *f, uint32_t bits)
{
    return f->half ? (double)dmlconf_half_to_float((uint16_t)bits) : (double)test_f32_from_bits(bits);
}

/* Rounds a double to the format (generators only). */
static uint32_t format_encode(const test_format *f, double value)
{
    return f->half ? dmlconf_half_from_double(value) : test_f32_bits((float)value);
}

/* Runs the kernel under test on a line of bit patterns. */
static int run_kernel(const test_format *f, bool exclusive, size_t n, const uint32_t *in, uint32_t *out,
                      size_t fallback_period)
{
    dmlconf_error err;
    memset(&err, 0, sizeof(err));
    int status;
    if (f->half)
    {
        uint16_t *hin = malloc((n ? n : 1) * sizeof(*hin));
        uint16_t *hout = malloc((n ? n : 1) * sizeof(*hout));
        REQUIRE(hin != NULL);
        REQUIRE(hout != NULL);
        for (size_t i = 0; i < n; ++i)
            hin[i] = (uint16_t)in[i];
        status = fallback_period ? oracle_product_f16_tuned(exclusive, n, hin, hout, fallback_period, &err)
                                 : oracle_product_f16(exclusive, n, hin, hout, &err);
        for (size_t i = 0; i < n; ++i)
            out[i] = hout[i];
        free(hin);
        free(hout);
    }
    else
    {
        float *fin = malloc((n ? n : 1) * sizeof(*fin));
        float *fout = malloc((n ? n : 1) * sizeof(*fout));
        REQUIRE(fin != NULL);
        REQUIRE(fout != NULL);
        for (size_t i = 0; i < n; ++i)
            fin[i] = test_f32_from_bits(in[i]);
        status = fallback_period ? oracle_product_f32_tuned(exclusive, n, fin, fout, fallback_period, &err)
                                 : oracle_product_f32(exclusive, n, fin, fout, &err);
        for (size_t i = 0; i < n; ++i)
            out[i] = test_f32_bits(fout[i]);
        free(fin);
        free(fout);
    }
    if (status != 0)
        ck_abort_msg("kernel failed: %s", err.message);
    return status;
}

/* ---- MPFR reference -------------------------------------------------------- */

typedef struct reference
{
    mpfr_t exact, low, high, term, rounded;
} reference;

static void reference_init(reference *r)
{
    mpfr_inits2(INTERVAL_PRECISION, r->exact, r->low, r->high, (mpfr_ptr)NULL);
    mpfr_init2(r->term, 24);
    mpfr_init2(r->rounded, 24);
}

static void reference_clear(reference *r)
{
    mpfr_clears(r->exact, r->low, r->high, r->term, r->rounded, (mpfr_ptr)NULL);
}

/* Sets r->term to |value of bits| (finite nonzero). */
static void reference_term(reference *r, const test_format *f, uint32_t bits)
{
    int inexact = mpfr_set_d(r->term, fabs(format_value(f, bits)), MPFR_RNDN);
    REQUIRE(inexact == 0);
}

/* Rounds v > 0 once to the format; returns the magnitude's bits. */
static uint32_t reference_round(reference *r, const test_format *f, mpfr_srcptr v)
{
    long top = (long)mpfr_get_exp(v) - 1; /* v in [2^top, 2^(top+1)) */
    if (top > f->max_exponent)
        return f->infinity;
    if (top < f->min_exponent - 1)
        return 0;
    if (top == f->min_exponent - 1)
    {
        /* Between half the smallest subnormal and it: a tie goes to 0. */
        return mpfr_cmp_ui_2exp(v, 1, f->min_exponent - 1) > 0 ? 1u : 0u;
    }
    long bits = top - f->min_exponent + 1;
    if (bits > f->precision)
        bits = f->precision;
    mpfr_set_prec(r->rounded, (mpfr_prec_t)bits);
    mpfr_set(r->rounded, v, MPFR_RNDN);
    double value = mpfr_get_d(r->rounded, MPFR_RNDN); /* exact */
    if (value >= ldexp(1.0, f->max_exponent + 1))
        return f->infinity;
    return format_encode(f, value);
}

/* Exact product of the finite nonzero terms in[0..end) into r->exact. */
static void reference_exact_prefix(reference *r, const test_format *f, const uint32_t *in, size_t end)
{
    mpfr_set_prec(r->exact, 32);
    mpfr_set_ui(r->exact, 1, MPFR_RNDN);
    for (size_t j = 0; j < end; ++j)
    {
        uint32_t mag = in[j] & f->magnitude;
        if (mag == 0 || mag >= f->infinity)
            continue;
        reference_term(r, f, in[j]);
        mpfr_prec_round(r->exact, mpfr_get_prec(r->exact) + f->precision, MPFR_RNDN);
        REQUIRE(mpfr_mul(r->exact, r->exact, r->term, MPFR_RNDN) == 0);
    }
}

/* Expected inclusive outputs of a line. */
static void reference_line(reference *r, const test_format *f, const uint32_t *in, size_t n, uint32_t *expected)
{
    bool exact_mode = n <= EXACT_REFERENCE_MAX;
    bool nan = false, zero = false, infinity = false;
    uint32_t sign = 0;
    mpfr_set_prec(r->exact, 32);
    mpfr_set_ui(r->exact, 1, MPFR_RNDN);
    mpfr_set_ui(r->low, 1, MPFR_RNDN);
    mpfr_set_ui(r->high, 1, MPFR_RNDN);
    for (size_t i = 0; i < n; ++i)
    {
        uint32_t mag = in[i] & f->magnitude;
        sign ^= in[i] & f->sign_bit;
        if (mag > f->infinity)
            nan = true;
        else if (mag == f->infinity)
            infinity = true;
        else if (mag == 0)
            zero = true;
        if (nan || (zero && infinity))
        {
            expected[i] = f->nan;
            continue;
        }
        if (infinity)
        {
            expected[i] = sign | f->infinity;
            continue;
        }
        if (zero)
        {
            expected[i] = sign;
            continue;
        }
        reference_term(r, f, in[i]);
        if (exact_mode)
        {
            mpfr_prec_round(r->exact, mpfr_get_prec(r->exact) + f->precision, MPFR_RNDN);
            REQUIRE(mpfr_mul(r->exact, r->exact, r->term, MPFR_RNDN) == 0);
            expected[i] = sign | reference_round(r, f, r->exact);
            continue;
        }
        mpfr_mul(r->low, r->low, r->term, MPFR_RNDD);
        mpfr_mul(r->high, r->high, r->term, MPFR_RNDU);
        uint32_t low = reference_round(r, f, r->low);
        uint32_t high = reference_round(r, f, r->high);
        if (low != high)
        {
            reference_exact_prefix(r, f, in, i + 1);
            low = reference_round(r, f, r->exact);
        }
        expected[i] = sign | low;
    }
}

/* ---- data ------------------------------------------------------------------ */

typedef enum data_mode
{
    MODE_NEAR_ONE,
    MODE_WIDE,
    MODE_TIES,
    MODE_NEAR_TIES,
    MODE_SUBNORMAL,
    MODE_SPECIALS,
    MODE_SMALL_INTEGERS,
    MODE_COUNT
} data_mode;

static const char *const mode_names[MODE_COUNT] = {
    "near_one", "wide", "ties", "near_ties", "subnormal", "specials", "small_integers",
};

/* A line being generated: terms are appended until it is full. */
typedef struct line_gen
{
    test_rng *rng;
    const test_format *f;
    uint32_t *out;
    size_t n, count;
    double log2_product; /* of the finite nonzero terms so far */
    bool track;          /* odd_part and exponent are exact */
    uint64_t odd_part;   /* odd part of the product while it is small */
    int64_t exponent;    /* product = odd_part * 2^exponent (when tracked) */
} line_gen;

static bool gen_full(const line_gen *g)
{
    return g->count >= g->n;
}

static bool gen_coin(line_gen *g, unsigned percent)
{
    return test_rng_below(g->rng, 100) < percent;
}

static int64_t gen_int(line_gen *g, int64_t low, int64_t high)
{
    return low + (int64_t)test_rng_below(g->rng, (uint64_t)(high - low + 1));
}

static void gen_push(line_gen *g, uint32_t bits)
{
    if (gen_full(g))
        return;
    g->out[g->count++] = bits;
    uint32_t mag = bits & g->f->magnitude;
    if (mag != 0 && mag < g->f->infinity)
        g->log2_product += log2(fabs(format_value(g->f, bits)));
}

static uint32_t gen_sign(line_gen *g)
{
    return (test_rng_next(g->rng) & 1u) ? g->f->sign_bit : 0u;
}

/* Appends odd * 2^shift (exactly representable), with a random sign. */
static void gen_push_exact(line_gen *g, uint64_t odd, int64_t shift)
{
    gen_push(g, format_encode(g->f, ldexp((double)odd, (int)shift)) | gen_sign(g));
    if (g->track)
    {
        g->odd_part *= odd;
        g->exponent += shift;
    }
}

static int bit_length(uint64_t value)
{
    int bits = 0;
    while (value)
    {
        ++bits;
        value >>= 1;
    }
    return bits;
}

/* Appends powers of two multiplying the product by 2^d. */
static void gen_push_power(line_gen *g, int64_t d)
{
    const int64_t lowest = g->f->min_exponent, highest = g->f->max_exponent;
    do
    {
        int64_t step = d < lowest ? lowest : d > highest ? highest : d;
        gen_push_exact(g, 1, step);
        d -= step;
    } while (d != 0 && !gen_full(g));
}

/* A random significand of the format, as a value in [1, 2). */
static double gen_significand(line_gen *g)
{
    uint64_t bits = test_rng_below(g->rng, UINT64_C(1) << (g->f->precision - 1));
    return 1.0 + ldexp((double)bits, 1 - g->f->precision);
}

/* A finite value of the format with random significand and the given binade,
 * clamped into the format's range. */
static uint32_t gen_binade(line_gen *g, int64_t binade)
{
    if (binade > g->f->max_exponent)
        binade = g->f->max_exponent;
    if (binade < g->f->min_exponent)
        binade = g->f->min_exponent;
    uint32_t bits = format_encode(g->f, ldexp(gen_significand(g), (int)binade));
    if ((bits & g->f->magnitude) == 0)
        bits = 1; /* the smallest subnormal */
    if ((bits & g->f->magnitude) >= g->f->infinity)
        bits = g->f->infinity - 1u;
    return bits | gen_sign(g);
}

/* Products of small odd integers equal to 2^k + sign, used as near-one
 * factors (1 + sign 2^-k). The factors fit an 11-bit significand in the
 * float16 table and a 24-bit one in the float32 table. */
typedef struct near_one
{
    int k;
    int sign;
    uint32_t factors[16];
} near_one;

static const near_one near_one_f32[] = {
    {32, 1, {641, 6700417}},
    {32, -1, {3, 5, 17, 257, 65537}},
    {36, 1, {17, 241, 433, 38737}},
    {46, 1, {5, 277, 1013, 1657, 30269}},
    {64, -1, {3, 5, 17, 257, 641, 65537, 6700417}},
    {72, -1, {3, 3, 3, 5, 7, 13, 17, 19, 37, 73, 109, 241, 433, 38737}},
    {84, -1, {3, 3, 5, 7, 7, 13, 29, 43, 113, 127, 337, 1429, 5419, 14449}},
    {100, -1, {3, 5, 5, 5, 11, 31, 41, 101, 251, 601, 1801, 4051, 8101, 268501}},
    {105, 1, {3, 3, 11, 43, 211, 281, 331, 5419, 86171, 664441, 1564921}},
    {105, -1, {7, 7, 31, 71, 127, 151, 337, 29191, 106681, 122921, 152041}},
    {108, -1, {3, 3, 3, 3, 5, 7, 13, 19, 37, 73, 109, 87211, 246241, 262657, 279073}},
};

static const near_one near_one_f16[] = {
    {10, 1, {5, 5, 41}},
    {10, -1, {3, 11, 31}},
    {12, 1, {17, 241}},
    {12, -1, {3, 3, 5, 7, 13}},
    {14, 1, {5, 29, 113}},
    {18, 1, {5, 13, 37, 109}},
    {24, 1, {97, 257, 673}},
    {24, -1, {3, 3, 5, 7, 13, 17, 241}},
    {26, 1, {5, 53, 157, 1613}},
    {30, 1, {5, 5, 13, 41, 61, 1321}},
    {30, -1, {3, 3, 7, 11, 31, 151, 331}},
    {36, -1, {3, 3, 3, 5, 7, 13, 19, 37, 73, 109}},
    {48, -1, {3, 3, 5, 7, 13, 17, 97, 241, 257, 673}},
    {60, -1, {3, 3, 5, 5, 7, 11, 13, 31, 41, 61, 151, 331, 1321}},
};

/* Appends terms whose product is exactly 1 + sign 2^-k: the factors grouped
 * into significands, each scaled into [1, 2), then a power of two. */
static void gen_push_near_one(line_gen *g, const near_one *entry)
{
    g->track = false;
    int64_t shift_total = 0;
    uint64_t chunk = 1;
    const uint64_t limit = UINT64_C(1) << g->f->precision;
    for (size_t j = 0; j < 16 && entry->factors[j]; ++j)
    {
        if (chunk * entry->factors[j] >= limit)
        {
            int64_t shift = 1 - bit_length(chunk);
            gen_push_exact(g, chunk, shift);
            shift_total += shift;
            chunk = 1;
        }
        chunk *= entry->factors[j];
    }
    int64_t shift = 1 - bit_length(chunk);
    gen_push_exact(g, chunk, shift);
    shift_total += shift;
    gen_push_power(g, -entry->k - shift_total);
}

/* Appends a random near-one factor; sometimes also its partner of the
 * other sign, (1 + 2^-k)(1 - 2^-k) = 1 - 2^-2k, which lands far closer to
 * a midpoint than the double-double can resolve. */
static void gen_push_random_near_one(line_gen *g)
{
    const near_one *table = g->f->half ? near_one_f16 : near_one_f32;
    size_t count =
        g->f->half ? sizeof(near_one_f16) / sizeof(near_one_f16[0]) : sizeof(near_one_f32) / sizeof(near_one_f32[0]);
    const near_one *entry = &table[test_rng_below(g->rng, count)];
    gen_push_near_one(g, entry);
    if (!gen_coin(g, 40))
        return;
    for (size_t i = 0; i < count; ++i)
    {
        if (table[i].k == entry->k && table[i].sign != entry->sign)
        {
            gen_push_near_one(g, &table[i]);
            return;
        }
    }
}

/* A target exponent for a tied product odd_part * 2^x: the normal range when
 * the odd part has precision + 1 bits, else the subnormal tie position. */
static int64_t gen_tie_exponent(line_gen *g)
{
    const test_format *f = g->f;
    int length = bit_length(g->odd_part);
    if (length == f->precision + 1)
    {
        /* Leading bit from the smallest normal up to the largest binade;
         * at the top the tie may round up to infinity. */
        int64_t low = f->min_exponent + f->precision - 1 - (length - 1);
        int64_t high = f->max_exponent - (length - 1);
        return gen_int(g, low, high);
    }
    return f->min_exponent - 1; /* odd * 2^(min - 1): a subnormal tie */
}

/* Appends two odd factors whose product has precision + 1 bits (when the
 * odd part is tracked and 1): a midpoint once scaled into range. */
static void gen_push_tie_pair(line_gen *g)
{
    const int p = g->f->precision;
    uint64_t a = 2 * (uint64_t)gen_int(g, 1, (INT64_C(1) << (p / 2)) / 2) + 1;
    uint64_t b_low = ((UINT64_C(1) << p) + a - 1) / a;
    uint64_t b_high = ((UINT64_C(1) << (p + 1)) - 1) / a;
    uint64_t b = (uint64_t)gen_int(g, (int64_t)b_low, (int64_t)b_high) | 1u;
    if (b > b_high)
        b -= 2;
    gen_push_exact(g, a, 1 - bit_length(a));
    gen_push_exact(g, b, 1 - bit_length(b));
}

/* Ties: small odd factors and powers of two that put the product exactly on
 * rounding midpoints (normal and subnormal), with near-one factors in
 * MODE_NEAR_TIES. */
static void gen_tie_line(line_gen *g, bool near)
{
    const test_format *f = g->f;
    g->track = true;
    g->odd_part = 1;
    g->exponent = 0;
    if (gen_coin(g, 60))
        gen_push_tie_pair(g);
    while (!gen_full(g))
    {
        uint64_t r = test_rng_below(g->rng, 100);
        if (near && r < 12)
        {
            gen_push_random_near_one(g);
        }
        else if (g->track && r < 40 && bit_length(g->odd_part) <= f->precision)
        {
            /* A small odd factor, usually keeping a tie possible. */
            uint64_t c = 2 * (uint64_t)gen_int(g, 1, 60) + 1;
            if (bit_length(g->odd_part * c) > f->precision + 1 && gen_coin(g, 80))
                continue;
            if (bit_length(g->odd_part * c) > f->precision + 1)
                g->track = false;
            gen_push_exact(g, c, 1 - bit_length(c) + gen_int(g, -3, 3));
        }
        else if (r < 80)
        {
            /* Move the product onto a tie position, or near the range. */
            int64_t target;
            if (g->track && gen_coin(g, 75))
                target = gen_tie_exponent(g) - g->exponent;
            else
                target = gen_int(g, f->min_exponent - 4, f->max_exponent + 2) - (int64_t)floor(g->log2_product);
            gen_push_power(g, target);
        }
        else if (r < 90)
        {
            gen_push_exact(g, 1, gen_int(g, -2, 2)); /* +-1, +-2, +-0.5 ... */
        }
        else
        {
            /* Back to a product near 1 (powers of two only). */
            gen_push_power(g, -(int64_t)floor(g->log2_product));
        }
    }
}

/* Steers log2|product| back into [low, high]: a binade for the next term. */
static int64_t gen_steer(line_gen *g, int64_t low, int64_t high, int64_t spread)
{
    int64_t target = gen_int(g, low, high);
    int64_t d = target - (int64_t)floor(g->log2_product);
    if (d > spread)
        d = spread;
    if (d < -spread)
        d = -spread;
    return d + gen_int(g, -spread / 2, spread / 2);
}

static void gen_line(line_gen *g, data_mode mode)
{
    const test_format *f = g->f;
    g->count = 0;
    g->log2_product = 0.0;
    g->track = false;
    switch (mode)
    {
    case MODE_NEAR_ONE:
        while (!gen_full(g))
        {
            /* In [0.75, 1) or [1, 1.25), towards a product near 1. */
            double u = gen_significand(g) - 1.0;
            double v = g->log2_product > 0.0 ? 1.0 - 0.25 * u : 1.0 + 0.25 * u;
            if (gen_coin(g, 10))
                v = g->log2_product > 0.0 ? 0.5 + 0.5 * u : 1.0 + u;
            gen_push(g, format_encode(f, v) | gen_sign(g));
        }
        break;
    case MODE_WIDE:
        while (!gen_full(g))
        {
            if (gen_coin(g, 3))
            {
                /* Tiny, tiny, huge, huge: out of range and back. */
                double tiny = f->half ? 1e-4 : 1e-30, huge = f->half ? 1e4 : 1e30;
                gen_push(g, format_encode(f, tiny));
                gen_push(g, format_encode(f, tiny) | gen_sign(g));
                gen_push(g, format_encode(f, huge));
                gen_push(g, format_encode(f, huge) | gen_sign(g));
                continue;
            }
            int64_t range = f->max_exponent - f->min_exponent;
            int64_t binade = gen_steer(g, f->min_exponent - range / 4, f->max_exponent + range / 4, range / 2);
            gen_push(g, gen_binade(g, binade));
        }
        break;
    case MODE_TIES:
        gen_tie_line(g, false);
        break;
    case MODE_NEAR_TIES:
        gen_tie_line(g, true);
        break;
    case MODE_SUBNORMAL:
        while (!gen_full(g))
        {
            if (gen_coin(g, 55))
            {
                uint32_t mantissa = (uint32_t)gen_int(g, 1, (INT64_C(1) << (f->precision - 1)) - 1);
                if (gen_coin(g, 30))
                    mantissa = (uint32_t)1u << gen_int(g, 0, f->precision - 2); /* powers of two */
                gen_push(g, mantissa | gen_sign(g));
            }
            else
            {
                int64_t binade = gen_steer(g, f->min_exponent - 8, f->max_exponent / 2, f->max_exponent);
                gen_push(g, gen_binade(g, binade));
            }
        }
        break;
    case MODE_SPECIALS:
    {
        size_t first_special = (size_t)test_rng_below(g->rng, g->n + 1);
        while (!gen_full(g))
        {
            if (g->count < first_special || gen_coin(g, 50))
            {
                gen_push(g, gen_binade(g, gen_steer(g, -8, 8, 4)));
                continue;
            }
            switch (test_rng_below(g->rng, 4))
            {
            case 0:
                gen_push(g, gen_sign(g)); /* +-0 */
                break;
            case 1:
                gen_push(g, f->infinity | gen_sign(g));
                break;
            case 2:
            {
                /* Quiet or signalling NaN with a random payload. */
                uint32_t payload = (uint32_t)gen_int(g, 1, (INT64_C(1) << (f->precision - 1)) - 1);
                gen_push(g, f->infinity | payload | gen_sign(g));
                break;
            }
            default:
                gen_push(g, format_encode(f, gen_coin(g, 50) ? 1.0 : 2.0) | gen_sign(g));
                break;
            }
        }
        break;
    }
    case MODE_SMALL_INTEGERS:
        while (!gen_full(g))
        {
            /* k / 2^j: integers, dyadic fractions, products staying near 1
             * in magnitude on average. */
            int64_t k = gen_int(g, 1, 64);
            int64_t j = 0;
            if (gen_coin(g, 50))
                j = (int64_t)floor(g->log2_product) + bit_length((uint64_t)k) - 1 + gen_int(g, -2, 2);
            gen_push(g, format_encode(f, ldexp((double)k, (int)-j)) | gen_sign(g));
        }
        break;
    case MODE_COUNT:
        break;
    }
}

/* ---- comparison ------------------------------------------------------------ */

typedef struct compare_context
{
    const test_format *f;
    const char *mode;
    uint64_t seed; /* the base seed: every line derives from it */
    size_t line;
} compare_context;

static void assert_bits(const compare_context *c, uint32_t got, uint32_t expected, size_t n, size_t index,
                        const char *kind)
{
    if (got == expected)
        return;
    if (c->f->half)
        test_assert_f16_bits_eq((uint16_t)got, (uint16_t)expected,
                                "%s %s DMLCONF_TEST_SEED=%llu line %zu (n %zu) index %zu %s", c->f->name, c->mode,
                                (unsigned long long)c->seed, c->line, n, index, kind);
    else
        test_assert_f32_bits_eq(test_f32_from_bits(got), test_f32_from_bits(expected),
                                "%s %s DMLCONF_TEST_SEED=%llu line %zu (n %zu) index %zu %s", c->f->name, c->mode,
                                (unsigned long long)c->seed, c->line, n, index, kind);
}

/* Checks a line inclusive and exclusive against its reference. */
static void check_line(const compare_context *c, const uint32_t *in, size_t n, const uint32_t *expected, uint32_t *got,
                       size_t fallback_period)
{
    run_kernel(c->f, false, n, in, got, fallback_period);
    for (size_t i = 0; i < n; ++i)
        assert_bits(c, got[i], expected[i], n, i, "inclusive");
    run_kernel(c->f, true, n, in, got, fallback_period);
    for (size_t i = 0; i < n; ++i)
        assert_bits(c, got[i], i == 0 ? c->f->one : expected[i - 1], n, i, "exclusive");
}

static uint64_t base_seed(void)
{
    const char *text = getenv("DMLCONF_TEST_SEED");
    return text ? strtoull(text, NULL, 0) : UINT64_C(20240611);
}

/* Line lengths: 1 .. 64 first, then mostly up to EXACT_REFERENCE_MAX, with a
 * few long lines for the modes whose products stay in range. */
static size_t next_length(test_rng *rng, size_t line, data_mode mode, size_t remaining)
{
    size_t n;
    if (line < 64)
        n = line + 1;
    else if ((line % 97) == 0 && (mode == MODE_NEAR_ONE || mode == MODE_WIDE || mode == MODE_SUBNORMAL))
        n = 20000 + (size_t)test_rng_below(rng, 60000);
    else
        n = 1 + (size_t)test_rng_below(rng, EXACT_REFERENCE_MAX);
    return n < remaining ? n : remaining;
}

/* Generates, references and checks `total` elements of one mode. */
static void run_mode(const test_format *f, data_mode mode, size_t total, size_t max_length, size_t fallback_period)
{
    uint64_t seed = base_seed() * 1000003u + (uint64_t)mode * 17u + (f->half ? 1u : 0u) + fallback_period * 131u;
    test_rng rng;
    test_rng_seed(&rng, seed);
    size_t capacity = 80000;
    uint32_t *in = malloc(capacity * sizeof(*in));
    uint32_t *expected = malloc(capacity * sizeof(*expected));
    uint32_t *got = malloc(capacity * sizeof(*got));
    REQUIRE(in != NULL);
    REQUIRE(expected != NULL);
    REQUIRE(got != NULL);
    reference ref;
    reference_init(&ref);
    compare_context context = {f, mode_names[mode], base_seed(), 0};
    size_t done = 0;
    for (size_t line = 0; done < total; ++line)
    {
        size_t n = next_length(&rng, line, mode, total - done);
        if (n > max_length)
            n = max_length;
        line_gen g = {&rng, f, in, n, 0, 0.0, false, 1, 0};
        gen_line(&g, mode);
        reference_line(&ref, f, in, n, expected);
        context.line = line;
        check_line(&context, in, n, expected, got, fallback_period);
        done += n;
    }
    reference_clear(&ref);
    free(in);
    free(expected);
    free(got);
}

START_TEST(test_mpfr_float32)
{
    run_mode(&format_f32, (data_mode)_i, ELEMENTS_PER_MODE, SIZE_MAX, 0);
}
END_TEST

START_TEST(test_mpfr_float16)
{
    run_mode(&format_f16, (data_mode)_i, ELEMENTS_PER_MODE, SIZE_MAX, 0);
}
END_TEST

/* Every element (period 1) or every few (lagging catch-up) through the exact
 * fallback, on shorter lines: its cost grows with the product's size. */
START_TEST(test_forced_fallback)
{
    const test_format *f = test_formats[_i % 2];
    data_mode mode = (data_mode)((_i / 2) % MODE_COUNT);
    size_t period = _i < 2 * MODE_COUNT ? 1u : 5u;
    run_mode(f, mode, 60000, 2000, period);
}
END_TEST

/* Midpoints times (1 + 2^-k) and (1 - 2^-k), in either order, at random
 * tie positions: the product, midpoint * (1 - 2^-2k), is closer to the
 * midpoint than a double-double resolves for float32's k = 105. */
START_TEST(test_deep_near_ties)
{
    const test_format *f = test_formats[_i];
    const near_one *table = f->half ? near_one_f16 : near_one_f32;
    size_t count =
        f->half ? sizeof(near_one_f16) / sizeof(near_one_f16[0]) : sizeof(near_one_f32) / sizeof(near_one_f32[0]);
    uint64_t seed = base_seed() + 991u + (uint64_t)_i;
    test_rng rng;
    test_rng_seed(&rng, seed);
    uint32_t in[128], expected[128], got[128];
    reference ref;
    reference_init(&ref);
    compare_context context = {f, "deep_near_ties", base_seed(), 0};
    for (size_t trial = 0; trial < 3000; ++trial)
    {
        const near_one *entry = &table[test_rng_below(&rng, count)];
        const near_one *partner = NULL;
        for (size_t i = 0; i < count; ++i)
        {
            if (table[i].k == entry->k && table[i].sign != entry->sign)
                partner = &table[i];
        }
        if (!partner)
        {
            --trial;
            continue;
        }
        line_gen g = {&rng, f, in, 128, 0, 0.0, true, 1, 0};
        gen_push_tie_pair(&g);
        gen_push_power(&g, gen_tie_exponent(&g) - g.exponent);
        bool swap = gen_coin(&g, 50);
        gen_push_near_one(&g, swap ? partner : entry);
        gen_push_near_one(&g, swap ? entry : partner);
        if (gen_coin(&g, 50))
            gen_push_power(&g, gen_int(&g, -3, 3));
        reference_line(&ref, f, in, g.count, expected);
        context.line = trial;
        check_line(&context, in, g.count, expected, got, 0);
        check_line(&context, in, g.count, expected, got, 3);
    }
    reference_clear(&ref);
}
END_TEST

/* ---- explicit cases ---------------------------------------------------------- */

static void check_f32_case(const float *in, size_t n, bool exclusive, const uint32_t *expected)
{
    float out[16];
    ck_assert_int_eq(oracle_product_f32(exclusive, n, in, out, NULL), 0);
    for (size_t i = 0; i < n; ++i)
        test_assert_f32_bits_eq(out[i], test_f32_from_bits(expected[i]), "case index %zu", i);
}

static void check_f16_case(const double *values, size_t n, bool exclusive, const uint16_t *expected)
{
    uint16_t in[16], out[16];
    for (size_t i = 0; i < n; ++i)
        in[i] = dmlconf_half_from_double(values[i]);
    ck_assert_int_eq(oracle_product_f16(exclusive, n, in, out, NULL), 0);
    for (size_t i = 0; i < n; ++i)
        test_assert_f16_bits_eq(out[i], expected[i], "case index %zu", i);
}

START_TEST(test_examples_float32)
{
    /* No intermediate underflow: the last product is 1 within 2^-40. */
    const float a[] = {1e-30f, 1e-30f, 1e30f, 1e30f};
    float out[4];
    ck_assert_int_eq(oracle_product_f32(false, 4, a, out, NULL), 0);
    test_assert_f32_bits_eq(out[1], 0.0f, "1e-60 underflows");
    test_assert_f32_bits_eq(out[3], 1.0f, "1e-30 * 1e-30 * 1e30 * 1e30");
    ck_assert_msg(fabs((double)out[2] / 1e-30 - 1.0) < 1e-6, "1e-30 * 1e-30 * 1e30 is %a", (double)out[2]);

    /* Exclusive: 1 first, never the total. */
    const float b[] = {2.0f, 3.0f, -4.0f};
    const uint32_t b_exclusive[] = {0x3f800000u, 0x40000000u, 0x40c00000u};
    check_f32_case(b, 3, true, b_exclusive);
    const uint32_t one[] = {0x3f800000u};
    check_f32_case(b, 1, true, one);

    /* 97 * 257 * 673 = 2^24 + 1, a tie: to 2^24. (2^25 - 1) * 2^103 is the
     * overflow threshold: infinity; one unit of 2^102 below is FLT_MAX. */
    const float c[] = {97.0f, 257.0f, 673.0f, -0x1p-24f};
    const uint32_t c_expected[] = {0x42c20000u, 0x46c2c200u, 0x4b800000u, 0xbf800000u};
    check_f32_case(c, 4, false, c_expected);
    const float d[] = {31.0f, 601.0f, 1801.0f, 0x1p103f, -1.0f};
    const uint32_t d_expected[] = {0x41f80000u, 0x46918e00u, 0x4c000000u, 0x7f800000u, 0xff800000u};
    check_f32_case(d, 5, false, d_expected);
    const float e[] = {16777215.0f, 0x1p104f}; /* (2^24 - 1) * 2^104 = FLT_MAX */
    const uint32_t e_expected[] = {0x4b7fffffu, 0x7f7fffffu};
    check_f32_case(e, 2, false, e_expected);

    /* Subnormal ties: 3 * 2^-150 goes to 2^-148, 2^-150 to 0. */
    const float s[] = {3.0f, 0x1p-75f, 0x1p-75f, 0x1p-1f, 0x1p1f};
    const uint32_t s_expected[] = {0x40400000u, 0x1ac00000u, 0x00000002u, 0x00000001u, 0x00000002u};
    check_f32_case(s, 5, false, s_expected);
    const float s2[] = {0x1p-75f, 0x1p-75f, 3.0f};
    const uint32_t s2_expected[] = {0x1a000000u, 0x00000000u, 0x00000002u};
    check_f32_case(s2, 3, false, s2_expected);

    /* Special values. */
    const float nan = test_f32_from_bits(0x7fa00001u); /* signalling payload */
    const float x1[] = {2.0f, 0.0f, INFINITY, 3.0f};
    const uint32_t x1_expected[] = {0x40000000u, 0x00000000u, 0x7fc00000u, 0x7fc00000u};
    check_f32_case(x1, 4, false, x1_expected);
    const float x2[] = {-0.0f, 5.0f, -1.0f};
    const uint32_t x2_expected[] = {0x80000000u, 0x80000000u, 0x00000000u};
    check_f32_case(x2, 3, false, x2_expected);
    const float x3[] = {INFINITY, -2.0f, 1e-45f, nan, 1.0f};
    const uint32_t x3_expected[] = {0x7f800000u, 0xff800000u, 0xff800000u, 0x7fc00000u, 0x7fc00000u};
    check_f32_case(x3, 5, false, x3_expected);
    const float x4[] = {-INFINITY, 0.0f};
    const uint32_t x4_expected[] = {0xff800000u, 0x7fc00000u};
    check_f32_case(x4, 2, false, x4_expected);
}
END_TEST

START_TEST(test_examples_float16)
{
    /* 3 * 683 = 2049 = 2048 (1 + 2^-11): a tie, to 2048; the exact 3 * 683 *
     * 3 = 6147 (not 3 * 2048) rounds to 6148, and 6147 * 2^-20 to
     * 1537 * 2^-18. */
    const double a[] = {3.0, 683.0, 3.0, 0x1p-20};
    const uint16_t a_expected[] = {0x4200u, 0x6800u, 0x6e01u, 0x1e01u};
    check_f16_case(a, 4, false, a_expected);
    /* 63 * 65 = 4095, a tie, to 4096; * 16 = 65520, the overflow threshold;
     * * -0.5 = -32760, a tie, to -32768. */
    const double b[] = {63.0, 65.0, 16.0, -1.0, 0.5};
    const uint16_t b_expected[] = {0x53e0u, 0x6c00u, 0x7c00u, 0xfc00u, 0xf800u};
    check_f16_case(b, 5, false, b_expected);
    /* Subnormals: 3 * 2^-25 is a tie, to 2^-23; 2^-25 to 0. */
    const double c[] = {0x1p-12, 0x1p-13, 3.0, 0.5};
    const uint16_t c_expected[] = {0x0c00u, 0x0000u, 0x0002u, 0x0001u};
    check_f16_case(c, 4, false, c_expected);
    const uint16_t one[] = {0x3c00u, 0x4200u};
    check_f16_case(a, 2, true, one);
    const double x[] = {-0.0, INFINITY, 2.0};
    const uint16_t x_expected[] = {0x8000u, 0x7e00u, 0x7e00u};
    check_f16_case(x, 3, false, x_expected);
}
END_TEST

/* The near-one tables really are 2^k +- 1 (checked with MPFR). */
START_TEST(test_near_one_tables)
{
    mpfr_t product, expected;
    mpfr_inits2(256, product, expected, (mpfr_ptr)NULL);
    for (int t = 0; t < 2; ++t)
    {
        const near_one *table = t ? near_one_f16 : near_one_f32;
        size_t count =
            t ? sizeof(near_one_f16) / sizeof(near_one_f16[0]) : sizeof(near_one_f32) / sizeof(near_one_f32[0]);
        uint32_t limit = t ? 2048u : 16777216u;
        for (size_t i = 0; i < count; ++i)
        {
            mpfr_set_ui(product, 1, MPFR_RNDN);
            for (size_t j = 0; j < 16 && table[i].factors[j]; ++j)
            {
                ck_assert_uint_lt(table[i].factors[j], limit);
                ck_assert_int_eq(mpfr_mul_ui(product, product, table[i].factors[j], MPFR_RNDN), 0);
            }
            mpfr_set_ui_2exp(expected, 1, table[i].k, MPFR_RNDN);
            if (table[i].sign > 0)
                mpfr_add_ui(expected, expected, 1, MPFR_RNDN);
            else
                mpfr_sub_ui(expected, expected, 1, MPFR_RNDN);
            ck_assert_msg(mpfr_equal_p(product, expected), "table %d entry k=%d", t, table[i].k);
        }
    }
    mpfr_clears(product, expected, (mpfr_ptr)NULL);
}
END_TEST

/* ---- bignum_product ----------------------------------------------------------- */

static const bignum_format *const big_f32 = &bignum_format_float32;
static const bignum_format *const big_f16 = &bignum_format_float16;

/* A bignum set to the product of factors[] times 2^exponent. */
static void big_from(bignum_product *b, const uint32_t *factors, size_t count, int64_t exponent)
{
    REQUIRE(bignum_product_init(b));
    for (size_t i = 0; i < count; ++i)
        REQUIRE(bignum_product_mul(b, factors[i], 0));
    REQUIRE(bignum_product_mul(b, 1, exponent));
}

typedef struct big_case
{
    uint32_t factors[4];
    int64_t exponent;
    uint32_t f32;
    uint32_t f16;
} big_case;

static const big_case big_cases[] = {
    {{1}, 0, 0x3f800000u, 0x3c00u},
    {{12}, 0, 0x41400000u, 0x4a00u},                         /* 12 = 3 * 2^2 */
    {{97, 257, 673}, 0, 0x4b800000u, 0x7c00u},               /* 2^24 + 1: tie to even */
    {{16777219u}, 0, 0x4b800002u, 0x7c00u},                  /* 2^24 + 3: tie, up */
    {{16777219u}, -40, 0x37800002u, 0x0100u},                /* about 2^-16 */
    {{3, 683}, 0, 0x45001000u, 0x6800u},                     /* 2049: f16 tie, down */
    {{2051}, 0, 0x45003000u, 0x6802u},                       /* 2051: f16 tie, up */
    {{63, 65}, 4, 0x477ff000u, 0x7c00u},                     /* 65520: f16 threshold */
    {{65519}, 0, 0x477fef00u, 0x7bffu},                      /* below it: 65504 */
    {{1}, -150, 0x00000000u, 0x0000u},                       /* half the min subnormal */
    {{3}, -150, 0x00000002u, 0x0000u},                       /* 1.5 units: to 2 */
    {{5}, -151, 0x00000001u, 0x0000u},                       /* 1.25 units: to 1 */
    {{1}, -149, 0x00000001u, 0x0000u},                       /* min subnormal */
    {{1}, -151, 0x00000000u, 0x0000u},                       /* a quarter */
    {{3}, -25, 0x33c00000u, 0x0002u},                        /* f16: 1.5 units */
    {{1}, -25, 0x33000000u, 0x0000u},                        /* f16: half unit, to 0 */
    {{1}, -24, 0x33800000u, 0x0001u},                        /* f16: min subnormal */
    {{31, 601, 1801}, 103, 0x7f800000u, 0x7c00u},            /* f32 threshold */
    {{33554429u}, 103, 0x7f7ffffeu, 0x7c00u},                /* (2^25 - 3) 2^103 */
    {{16777215u}, 104, 0x7f7fffffu, 0x7c00u},                /* FLT_MAX */
    {{1}, 128, 0x7f800000u, 0x7c00u},                        /* 2^128 */
    {{641, 6700417}, -32, 0x3f800000u, 0x3c00u},             /* 1 + 2^-32 */
    {{8388609u, 8388607u}, -46, 0x3f800000u, 0x3c00u},       /* 1 - 2^-46 */
    {{16777213u, 3}, 0, 0x4c3ffffeu, 0x7c00u},               /* 3 * (2^24 - 3) */
    {{0xffffffffu, 0xffffffffu}, -64, 0x3f800000u, 0x3c00u}, /* (1 - 2^-32)^2 */
};

START_TEST(test_bignum_cases)
{
    const big_case *c = &big_cases[_i];
    size_t count = 0;
    while (count < 4 && c->factors[count])
        ++count;
    bignum_product b;
    big_from(&b, c->factors, count, c->exponent);
    ck_assert_msg(b.limbs[0] & 1u, "the integer must be odd");
    uint32_t got32 = bignum_product_round(&b, big_f32);
    uint32_t got16 = bignum_product_round(&b, big_f16);
    bignum_product_free(&b);
    test_assert_f32_bits_eq(test_f32_from_bits(got32), test_f32_from_bits(c->f32), "bignum case %d float32", _i);
    test_assert_f16_bits_eq((uint16_t)got16, (uint16_t)c->f16, "bignum case %d float16", _i);
}
END_TEST

START_TEST(test_bignum_basics)
{
    bignum_product b;
    ck_assert(bignum_product_init(&b));
    ck_assert_uint_eq(bignum_product_bit_length(&b), 1);
    ck_assert(!bignum_product_mul(&b, 0, 0));
    ck_assert(bignum_product_mul(&b, 40, -3)); /* 5 */
    ck_assert_uint_eq(b.limbs[0], 5);
    ck_assert_int_eq(b.exponent, 0);
    ck_assert(bignum_product_mul(&b, 0x80000000u, 0)); /* 5 * 2^31 */
    ck_assert_uint_eq(b.count, 1);
    ck_assert_int_eq(b.exponent, 31);
    for (int i = 0; i < 40; ++i)
        ck_assert(bignum_product_mul(&b, 0xffffffffu, 0));
    ck_assert_uint_eq(b.count, 41);
    ck_assert_uint_eq(bignum_product_bit_length(&b), 3 + 40 * 32);
    bignum_product_free(&b);
    bignum_product_free(&b); /* harmless */
}
END_TEST

/* Random products of many factors, rounded by the bignum and by MPFR. */
START_TEST(test_bignum_random)
{
    test_rng rng;
    test_rng_seed(&rng, base_seed() + 77u);
    reference ref;
    reference_init(&ref);
    for (int trial = 0; trial < 3000; ++trial)
    {
        bignum_product b;
        REQUIRE(bignum_product_init(&b));
        mpfr_set_prec(ref.exact, 64);
        mpfr_set_ui(ref.exact, 1, MPFR_RNDN);
        size_t count = 1 + (size_t)test_rng_below(&rng, trial % 10 == 0 ? 300 : 8);
        uint32_t bits_limit = trial % 3 == 0 ? 32u : trial % 3 == 1 ? 24u : 6u;
        for (size_t i = 0; i < count; ++i)
        {
            uint32_t factor = (uint32_t)(test_rng_next(&rng) >> (64u - bits_limit));
            if (factor == 0)
                factor = 1;
            int64_t exponent = (int64_t)test_rng_below(&rng, 61) - 30;
            REQUIRE(bignum_product_mul(&b, factor, exponent));
            mpfr_prec_round(ref.exact, mpfr_get_prec(ref.exact) + 32, MPFR_RNDN);
            REQUIRE(mpfr_mul_ui(ref.exact, ref.exact, factor, MPFR_RNDN) == 0);
            REQUIRE(mpfr_mul_2si(ref.exact, ref.exact, (long)exponent, MPFR_RNDN) == 0);
        }
        /* Move the value to a random place of both formats' ranges. */
        long top = (long)mpfr_get_exp(ref.exact) - 1;
        const test_format *f = test_formats[trial % 2];
        long target =
            (long)test_rng_below(&rng, (uint64_t)(f->max_exponent - f->min_exponent + 8)) + f->min_exponent - 4;
        REQUIRE(bignum_product_mul(&b, 1, target - top));
        REQUIRE(mpfr_mul_2si(ref.exact, ref.exact, target - top, MPFR_RNDN) == 0);
        const bignum_format *bf = f->half ? big_f16 : big_f32;
        uint32_t got = bignum_product_round(&b, bf);
        uint32_t expected = reference_round(&ref, f, ref.exact);
        if (got != expected)
            ck_abort_msg("%s trial %d: got 0x%x, expected 0x%x", f->name, trial, (unsigned)got, (unsigned)expected);
        bignum_product_free(&b);
    }
    reference_clear(&ref);
}
END_TEST

static Suite *product_suite(void)
{
    Suite *suite = suite_create("mpfr_product");

    TCase *bignum = tcase_create("bignum");
    tcase_add_test(bignum, test_bignum_basics);
    tcase_add_loop_test(bignum, test_bignum_cases, 0, (int)(sizeof(big_cases) / sizeof(big_cases[0])));
    tcase_add_test(bignum, test_bignum_random);
    suite_add_tcase(suite, bignum);

    TCase *examples = tcase_create("examples");
    tcase_add_test(examples, test_examples_float32);
    tcase_add_test(examples, test_examples_float16);
    tcase_add_test(examples, test_near_one_tables);
    tcase_add_loop_test(examples, test_deep_near_ties, 0, 2);
    suite_add_tcase(suite, examples);

    TCase *f32 = tcase_create("mpfr_float32");
    tcase_set_timeout(f32, 1200);
    tcase_add_loop_test(f32, test_mpfr_float32, 0, MODE_COUNT);
    suite_add_tcase(suite, f32);

    TCase *f16 = tcase_create("mpfr_float16");
    tcase_set_timeout(f16, 1200);
    tcase_add_loop_test(f16, test_mpfr_float16, 0, MODE_COUNT);
    suite_add_tcase(suite, f16);

    TCase *forced = tcase_create("forced_fallback");
    tcase_set_timeout(forced, 1200);
    tcase_add_loop_test(forced, test_forced_fallback, 0, 4 * MODE_COUNT);
    suite_add_tcase(suite, forced);
    return suite;
}

int main(void)
{
    return test_run_suite(product_suite());
}
