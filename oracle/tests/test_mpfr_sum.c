/*
 * The exact float32 and float16 prefix sums checked bit for bit against
 * MPFR: every prefix is accumulated exactly in a wide MPFR number and
 * rounded once to the target precision, independently of the oracle's
 * methods. Each data mode runs over lines of many lengths (1, 2, 3, ... and
 * long ones), at least 10^6 elements per type and mode, inclusive and
 * exclusive. A failure prints the seed, mode, line, index and both values.
 */
#include "exact_accumulator.h"
#include "line_kernels.h"
#include "test_support.h"

#include <float.h>
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ELEMENTS_PER_MODE 1000000u
#define EXACT_PRECISION   512 /* far more than the 310 bits a float32 sum needs */

typedef enum data_mode
{
    MODE_RANDOM,       /* uniform in [-1, 1], full-precision mantissas */
    MODE_WIDE,         /* every exponent */
    MODE_CANCELLATION, /* x, -x pairs and near-cancelling runs */
    MODE_SUBNORMAL,    /* subnormals and the smallest normals */
    MODE_TIES,         /* prefixes on rounding midpoints, with dust */
    MODE_OVERFLOW,     /* around the overflow threshold, and back */
    MODE_SIGNED_ZERO,  /* +0, -0 and exact cancellation */
    MODE_SPECIAL,      /* NaN and infinities among finite values */
    MODE_COUNT
} data_mode;

static const char *const mode_names[MODE_COUNT] = {
    "random", "wide", "cancellation", "subnormal", "ties", "overflow", "signed_zero", "special",
};

/* ---- line lengths ---------------------------------------------------------- */

/* The length of line number `line` of a mode: 1 .. 48, then a few medium
 * lengths, then long lines until the mode has ELEMENTS_PER_MODE elements.
 * Returns 0 after the last line. */
static size_t line_length(size_t line, size_t done)
{
    static const size_t medium[] = {63, 64, 65, 100, 255, 1000, 4095, 4096, 65536, 262144};
    if (line < 48)
        return line + 1;
    line -= 48;
    if (line < sizeof(medium) / sizeof(medium[0]))
        return medium[line];
    if (done >= ELEMENTS_PER_MODE)
        return 0;
    return 300000;
}

/* ---- float32 data ------------------------------------------------------------ */

static float f32_make(uint32_t sign, uint32_t biased, uint32_t mantissa)
{
    return test_f32_from_bits((sign << 31) | (biased << 23) | (mantissa & 0x7fffffu));
}

static float f32_uniform(test_rng *rng)
{
    uint64_t r = test_rng_next(rng);
    /* Exponent 126 - k with probability 2^-(k+1): uniform in [-1, 1]. */
    uint32_t k = 0;
    while (k < 100 && (test_rng_next(rng) & 1u))
        ++k;
    return f32_make((uint32_t)(r >> 63), 126u - k, (uint32_t)r);
}

static float f32_random_exponent(test_rng *rng, uint32_t low, uint32_t high)
{
    uint64_t r = test_rng_next(rng);
    uint32_t biased = low + (uint32_t)test_rng_below(rng, high - low + 1u);
    return f32_make((uint32_t)(r >> 63), biased, (uint32_t)r);
}

static float f32_pow2(int e, bool negative)
{
    return negative ? -ldexpf(1.0f, e) : ldexpf(1.0f, e);
}

static void f32_fill_random(test_rng *rng, size_t n, float *x)
{
    for (size_t i = 0; i < n; ++i)
        x[i] = f32_uniform(rng);
}

static void f32_fill_wide(test_rng *rng, size_t n, float *x)
{
    for (size_t i = 0; i < n; ++i)
        x[i] = f32_random_exponent(rng, test_rng_below(rng, 8) == 0 ? 0u : 1u, 254u);
}

/* Runs of values followed by their negations in shuffled order, with dust
 * in between; immediate x, -x pairs; big values cancelling around small
 * ones. Prefix sums come back to exact zero and to tiny values often. */
static void f32_fill_cancellation(test_rng *rng, size_t n, float *x)
{
    float run[16];
    size_t i = 0;
    while (i < n)
    {
        uint64_t pattern = test_rng_below(rng, 3);
        if (pattern == 0)
        {
            float v = f32_random_exponent(rng, 1, 254);
            x[i++] = v;
            if (i < n)
                x[i++] = -v;
            continue;
        }
        size_t count = 1 + (size_t)test_rng_below(rng, 16);
        uint32_t low = pattern == 1 ? 100u : 1u, high = pattern == 1 ? 200u : 254u;
        for (size_t k = 0; k < count && i < n; ++k)
        {
            run[k] = f32_random_exponent(rng, low, high);
            x[i++] = run[k];
            if (i < n && test_rng_below(rng, 4) == 0)
                x[i++] = f32_random_exponent(rng, 0, 60);
        }
        for (size_t k = count; k > 1; --k)
        {
            size_t j = (size_t)test_rng_below(rng, k);
            float t = run[j];
            run[j] = run[k - 1];
            run[k - 1] = t;
        }
        for (size_t k = 0; k < count && i < n; ++k)
            x[i++] = -run[k];
    }
}

static void f32_fill_subnormal(test_rng *rng, size_t n, float *x)
{
    for (size_t i = 0; i < n; ++i)
    {
        uint64_t r = test_rng_next(rng);
        uint32_t biased = test_rng_below(rng, 10) < 7 ? 0u : 1u + (uint32_t)test_rng_below(rng, 3);
        /* Short mantissas too, so that exact zeros and small sums occur. */
        uint32_t mantissa = (r & 0x100u) ? (uint32_t)(r >> 20) : (uint32_t)((r >> 20) & 0xffu);
        x[i] = f32_make((uint32_t)(r >> 63), biased, mantissa);
    }
}

/* A base B with 24 significant bits and unit u = ulp(B), then moves by odd
 * multiples of u/2 (landing on midpoints), whole multiples of u, and dust
 * far below u that is cancelled later (near-midpoints that become exact
 * midpoints again). Bases sit at random places or just below a power of
 * two, where the spacing changes. */
static void f32_fill_ties(test_rng *rng, size_t n, float *x)
{
    float pending[64];
    size_t pending_count = 0;
    size_t i = 0;
    while (i < n)
    {
        int e = -100 + (int)test_rng_below(rng, 180); /* exponent of u */
        uint32_t m = test_rng_below(rng, 2) ? (1u << 24) - 1u - (uint32_t)test_rng_below(rng, 8)
                                            : (1u << 23) + (uint32_t)test_rng_below(rng, 1u << 23);
        x[i++] = ldexpf((float)m, e) * (test_rng_below(rng, 2) ? 1.0f : -1.0f);
        size_t run = 1 + (size_t)test_rng_below(rng, 200);
        for (size_t k = 0; k < run && i < n; ++k)
        {
            uint64_t what = test_rng_below(rng, 20);
            bool negative = test_rng_below(rng, 2) != 0;
            if (what < 8)
            {
                float odd = (float)(2 * test_rng_below(rng, 4) + 1);
                x[i++] = ldexpf(odd, e - 1) * (negative ? -1.0f : 1.0f);
            }
            else if (what < 12)
            {
                x[i++] = ldexpf((float)(1 + test_rng_below(rng, 3)), e) * (negative ? -1.0f : 1.0f);
            }
            else if (what < 16 && pending_count < 64)
            {
                int d = e - 30 - (int)test_rng_below(rng, 120);
                float dust = d >= -126 ? f32_make(negative, (uint32_t)(d + 127), (uint32_t)test_rng_next(rng))
                                       : f32_make(negative, 0, (uint32_t)test_rng_next(rng) | 1u);
                pending[pending_count++] = dust;
                x[i++] = dust;
            }
            else if (pending_count > 0)
            {
                size_t j = (size_t)test_rng_below(rng, pending_count);
                x[i++] = -pending[j];
                pending[j] = pending[--pending_count];
            }
            else
            {
                x[i++] = f32_pow2(e - 1, negative);
            }
        }
        while (pending_count > 0 && i < n)
            x[i++] = -pending[--pending_count];
        pending_count = 0;
    }
}

/* Steps around the overflow threshold 2^128 (1 - 2^-25): FLT_MAX, its half
 * ulp 2^103, big powers of two, big random values and small ones. */
static void f32_fill_overflow(test_rng *rng, size_t n, float *x)
{
    static const float starts[] = {FLT_MAX, FLT_MAX, -FLT_MAX};
    size_t i = 0;
    for (; i < n && i < 3; ++i)
        x[i] = starts[i];
    for (; i < n; ++i)
    {
        bool negative = test_rng_below(rng, 2) != 0;
        switch (test_rng_below(rng, 8))
        {
        case 0:
            x[i] = negative ? -FLT_MAX : FLT_MAX;
            break;
        case 1:
            x[i] = f32_pow2(103, negative);
            break;
        case 2:
            x[i] = f32_pow2(104 + (int)test_rng_below(rng, 24), negative);
            break;
        case 3:
        case 4:
            x[i] = f32_random_exponent(rng, 250, 254);
            break;
        case 5:
            x[i] = f32_random_exponent(rng, 200, 230);
            break;
        default:
            x[i] = f32_uniform(rng);
            break;
        }
    }
}

static void f32_fill_signed_zero(test_rng *rng, size_t n, float *x)
{
    size_t i = 0;
    while (i < n)
    {
        /* A run of zeros, -0 more often, sometimes a value and its negation. */
        size_t run = 1 + (size_t)test_rng_below(rng, 12);
        bool only_negative = test_rng_below(rng, 2) != 0;
        for (size_t k = 0; k < run && i < n; ++k)
            x[i++] = (only_negative || test_rng_below(rng, 3)) ? -0.0f : 0.0f;
        if (i < n && test_rng_below(rng, 2))
        {
            float v = f32_random_exponent(rng, 0, 254);
            x[i++] = v;
            if (i < n)
                x[i++] = -v;
        }
    }
}

static void f32_fill_special(test_rng *rng, size_t n, float *x)
{
    for (size_t i = 0; i < n; ++i)
    {
        uint64_t what = test_rng_below(rng, 4000);
        if (what == 0)
            x[i] = INFINITY;
        else if (what == 1)
            x[i] = -INFINITY;
        else if (what == 2)
            x[i] = test_f32_from_bits(0x7fc00000u | (uint32_t)(test_rng_next(rng) & 0x803fffffu)); /* quiet */
        else if (what == 3)
            x[i] = test_f32_from_bits(0x7f800001u | (uint32_t)(test_rng_next(rng) & 0x801fffffu)); /* signalling */
        else
            x[i] = f32_uniform(rng);
    }
    /* Short lines start with a special now and then. */
    if (n < 50 && n > 0 && test_rng_below(rng, 3) == 0)
        x[0] = test_rng_below(rng, 2) ? INFINITY : test_f32_from_bits(0xffc00001u);
}

static void f32_fill(data_mode mode, test_rng *rng, size_t n, float *x)
{
    switch (mode)
    {
    case MODE_RANDOM:
        f32_fill_random(rng, n, x);
        break;
    case MODE_WIDE:
        f32_fill_wide(rng, n, x);
        break;
    case MODE_CANCELLATION:
        f32_fill_cancellation(rng, n, x);
        break;
    case MODE_SUBNORMAL:
        f32_fill_subnormal(rng, n, x);
        break;
    case MODE_TIES:
        f32_fill_ties(rng, n, x);
        break;
    case MODE_OVERFLOW:
        f32_fill_overflow(rng, n, x);
        break;
    case MODE_SIGNED_ZERO:
        f32_fill_signed_zero(rng, n, x);
        break;
    case MODE_SPECIAL:
        f32_fill_special(rng, n, x);
        break;
    case MODE_COUNT:
        break;
    }
}

/* ---- float16 data ------------------------------------------------------------ */

static uint16_t f16_make(uint32_t sign, uint32_t biased, uint32_t mantissa)
{
    return (uint16_t)((sign << 15) | (biased << 10) | (mantissa & 0x3ffu));
}

static uint16_t f16_uniform(test_rng *rng)
{
    uint64_t r = test_rng_next(rng);
    uint32_t k = 0;
    while (k < 15 && (test_rng_next(rng) & 1u))
        ++k;
    return f16_make((uint32_t)(r >> 63), k >= 14 ? 0u : 14u - k, (uint32_t)r);
}

static uint16_t f16_random_exponent(test_rng *rng, uint32_t low, uint32_t high)
{
    uint64_t r = test_rng_next(rng);
    uint32_t biased = low + (uint32_t)test_rng_below(rng, high - low + 1u);
    return f16_make((uint32_t)(r >> 63), biased, (uint32_t)r);
}

/* An exactly representable half from a double (|v| <= 65504, a multiple of
 * 2^-24 with at most 11 significant bits). */
static uint16_t f16_exact(double v)
{
    return dmlconf_half_from_double(v);
}

static void f16_fill_cancellation(test_rng *rng, size_t n, uint16_t *x)
{
    uint16_t run[16];
    size_t i = 0;
    while (i < n)
    {
        if (test_rng_below(rng, 3) == 0)
        {
            uint16_t v = f16_random_exponent(rng, 0, 30);
            x[i++] = v;
            if (i < n)
                x[i++] = (uint16_t)(v ^ 0x8000u);
            continue;
        }
        size_t count = 1 + (size_t)test_rng_below(rng, 16);
        for (size_t k = 0; k < count && i < n; ++k)
        {
            run[k] = f16_random_exponent(rng, 10, 30);
            x[i++] = run[k];
            if (i < n && test_rng_below(rng, 4) == 0)
                x[i++] = f16_random_exponent(rng, 0, 5);
        }
        for (size_t k = count; k > 1; --k)
        {
            size_t j = (size_t)test_rng_below(rng, k);
            uint16_t t = run[j];
            run[j] = run[k - 1];
            run[k - 1] = t;
        }
        for (size_t k = 0; k < count && i < n; ++k)
            x[i++] = (uint16_t)(run[k] ^ 0x8000u);
    }
}

static void f16_fill_ties(test_rng *rng, size_t n, uint16_t *x)
{
    uint16_t pending[64];
    size_t pending_count = 0;
    size_t i = 0;
    while (i < n)
    {
        int e = -24 + (int)test_rng_below(rng, 30); /* exponent of u, so B < 2^16 */
        uint32_t m = test_rng_below(rng, 2) ? (1u << 11) - 1u - (uint32_t)test_rng_below(rng, 8)
                                            : (1u << 10) + (uint32_t)test_rng_below(rng, 1u << 10);
        double sign = test_rng_below(rng, 2) ? 1.0 : -1.0;
        x[i++] = f16_exact(sign * ldexp((double)m, e));
        size_t run = 1 + (size_t)test_rng_below(rng, 200);
        for (size_t k = 0; k < run && i < n; ++k)
        {
            uint64_t what = test_rng_below(rng, 20);
            double s = test_rng_below(rng, 2) ? 1.0 : -1.0;
            if (what < 8 && e - 1 >= -24)
            {
                x[i++] = f16_exact(s * ldexp((double)(2 * test_rng_below(rng, 4) + 1), e - 1));
            }
            else if (what < 12)
            {
                x[i++] = f16_exact(s * ldexp((double)(1 + test_rng_below(rng, 3)), e));
            }
            else if (what < 16 && pending_count < 64)
            {
                uint16_t dust = f16_random_exponent(rng, 0, 3);
                pending[pending_count++] = dust;
                x[i++] = dust;
            }
            else if (pending_count > 0)
            {
                size_t j = (size_t)test_rng_below(rng, pending_count);
                x[i++] = (uint16_t)(pending[j] ^ 0x8000u);
                pending[j] = pending[--pending_count];
            }
            else
            {
                x[i++] = f16_exact(s * ldexp(1.0, e));
            }
        }
        while (pending_count > 0 && i < n)
            x[i++] = (uint16_t)(pending[--pending_count] ^ 0x8000u);
        pending_count = 0;
    }
}

static void f16_fill_overflow(test_rng *rng, size_t n, uint16_t *x)
{
    static const uint16_t starts[] = {0x7bffu, 0x7bffu, 0xfbffu}; /* 65504, 65504, -65504 */
    size_t i = 0;
    for (; i < n && i < 3; ++i)
        x[i] = starts[i];
    for (; i < n; ++i)
    {
        uint32_t sign = (uint32_t)test_rng_below(rng, 2) << 15;
        switch (test_rng_below(rng, 8))
        {
        case 0:
            x[i] = (uint16_t)(sign | 0x7bffu);
            break;
        case 1:
            x[i] = (uint16_t)(sign | 0x4c00u); /* 16, half the ulp of 65504 */
            break;
        case 2:
            x[i] = (uint16_t)(sign | ((uint32_t)(20 + test_rng_below(rng, 11)) << 10));
            break;
        case 3:
        case 4:
            x[i] = f16_random_exponent(rng, 27, 30);
            break;
        case 5:
            x[i] = f16_random_exponent(rng, 15, 25);
            break;
        default:
            x[i] = f16_uniform(rng);
            break;
        }
    }
}

static void f16_fill(data_mode mode, test_rng *rng, size_t n, uint16_t *x)
{
    switch (mode)
    {
    case MODE_RANDOM:
        for (size_t i = 0; i < n; ++i)
            x[i] = f16_uniform(rng);
        break;
    case MODE_WIDE:
        for (size_t i = 0; i < n; ++i)
            x[i] = f16_random_exponent(rng, 0, 30);
        break;
    case MODE_CANCELLATION:
        f16_fill_cancellation(rng, n, x);
        break;
    case MODE_SUBNORMAL:
        for (size_t i = 0; i < n; ++i)
        {
            uint64_t r = test_rng_next(rng);
            uint32_t biased = test_rng_below(rng, 10) < 7 ? 0u : 1u + (uint32_t)test_rng_below(rng, 2);
            x[i] =
                f16_make((uint32_t)(r >> 63), biased, (r & 0x100u) ? (uint32_t)(r >> 20) : (uint32_t)(r >> 20) & 0xfu);
        }
        break;
    case MODE_TIES:
        f16_fill_ties(rng, n, x);
        break;
    case MODE_OVERFLOW:
        f16_fill_overflow(rng, n, x);
        break;
    case MODE_SIGNED_ZERO:
    {
        size_t i = 0;
        while (i < n)
        {
            size_t run = 1 + (size_t)test_rng_below(rng, 12);
            bool only_negative = test_rng_below(rng, 2) != 0;
            for (size_t k = 0; k < run && i < n; ++k)
                x[i++] = (only_negative || test_rng_below(rng, 3)) ? 0x8000u : 0u;
            if (i < n && test_rng_below(rng, 2))
            {
                uint16_t v = f16_random_exponent(rng, 0, 30);
                x[i++] = v;
                if (i < n)
                    x[i++] = (uint16_t)(v ^ 0x8000u);
            }
        }
        break;
    }
    case MODE_SPECIAL:
        for (size_t i = 0; i < n; ++i)
        {
            uint64_t what = test_rng_below(rng, 4000);
            if (what == 0)
                x[i] = 0x7c00u;
            else if (what == 1)
                x[i] = 0xfc00u;
            else if (what == 2)
                x[i] = (uint16_t)(0x7e00u | (test_rng_next(rng) & 0x81ffu));
            else if (what == 3)
                x[i] = (uint16_t)(0x7c01u | (test_rng_next(rng) & 0x80ffu));
            else
                x[i] = f16_uniform(rng);
        }
        if (n < 50 && n > 0 && test_rng_below(rng, 3) == 0)
            x[0] = test_rng_below(rng, 2) ? 0xfc00u : 0xfe01u;
        break;
    case MODE_COUNT:
        break;
    }
}

/* ---- the MPFR reference -------------------------------------------------------- */

/* |x| >= 2^e, for a finite x. */
static bool abs_at_least_pow2(mpfr_t x, int e)
{
    return !mpfr_zero_p(x) && mpfr_get_exp(x) - 1 >= e;
}

/* Exact prefix state: the finite terms' sum in MPFR, the specials, and
 * whether every term so far is -0. */
typedef struct reference
{
    mpfr_t sum;
    mpfr_t rounded;
    bool nan, pos_inf, neg_inf, all_negative_zero;
} reference;

static void reference_init(reference *ref, mpfr_prec_t target_precision)
{
    mpfr_init2(ref->sum, EXACT_PRECISION);
    mpfr_init2(ref->rounded, target_precision);
    mpfr_set_zero(ref->sum, 1);
    ref->nan = ref->pos_inf = ref->neg_inf = false;
    ref->all_negative_zero = true;
}

static void reference_clear(reference *ref)
{
    mpfr_clear(ref->sum);
    mpfr_clear(ref->rounded);
}

static void reference_reset(reference *ref)
{
    mpfr_set_zero(ref->sum, 1);
    ref->nan = ref->pos_inf = ref->neg_inf = false;
    ref->all_negative_zero = true;
}

static void reference_add(reference *ref, double x)
{
    if (isnan(x))
        ref->nan = true;
    else if (isinf(x))
        *(x > 0 ? &ref->pos_inf : &ref->neg_inf) = true;
    else
    {
        /* Exact: the precision covers every sum of float32 values. */
        if (mpfr_add_d(ref->sum, ref->sum, x, MPFR_RNDN) != 0)
            ck_abort_msg("reference sum inexact");
    }
    if (!(x == 0.0 && signbit(x)))
        ref->all_negative_zero = false;
}

/* The expected result as a double (NaN, +-Inf, or the rounded value, which
 * is exactly representable in the target format). `overflow_exponent` is
 * 128 for float32 and 16 for float16. */
static double reference_value(reference *ref, int overflow_exponent)
{
    if (ref->nan || (ref->pos_inf && ref->neg_inf))
        return (double)NAN;
    if (ref->pos_inf)
        return (double)INFINITY;
    if (ref->neg_inf)
        return -(double)INFINITY;
    if (mpfr_zero_p(ref->sum))
        return ref->all_negative_zero ? -0.0 : 0.0;
    /* Every finite sum is a multiple of the format's smallest subnormal, so
     * below the normal range it is exact and rounding to the precision is
     * the whole story; above, the overflow threshold is where the rounded
     * value reaches 2^emax. */
    mpfr_set(ref->rounded, ref->sum, MPFR_RNDN);
    if (abs_at_least_pow2(ref->rounded, overflow_exponent))
        return mpfr_sgn(ref->rounded) > 0 ? (double)INFINITY : -(double)INFINITY;
    return mpfr_get_d(ref->rounded, MPFR_RNDN);
}

static float expected_f32(reference *ref)
{
    double v = reference_value(ref, 128);
    if (isnan(v))
        return test_f32_from_bits(0x7fc00000u);
    return (float)v; /* exact */
}

static uint16_t expected_f16(reference *ref)
{
    double v = reference_value(ref, 16);
    if (isnan(v))
        return 0x7e00u;
    return f16_exact(v);
}

/* ---- checking lines ------------------------------------------------------------ */

static uint64_t mode_seed(data_mode mode, bool half)
{
    return UINT64_C(0x5eed000000000000) + (uint64_t)mode * 2u + (half ? 1u : 0u);
}

static void check_f32_line(reference *ref, const char *mode, uint64_t seed, size_t line, size_t n, const float *x,
                           float *expected, float *out)
{
    reference_reset(ref);
    for (size_t i = 0; i < n; ++i)
    {
        reference_add(ref, (double)x[i]);
        expected[i] = expected_f32(ref);
    }
    oracle_sum_f32(false, n, x, out);
    for (size_t i = 0; i < n; ++i)
        test_assert_f32_bits_eq(out[i], expected[i], "seed 0x%llx mode %s line %zu (n %zu) inclusive index %zu",
                                (unsigned long long)seed, mode, line, n, i);
    oracle_sum_f32(true, n, x, out);
    for (size_t i = 0; i < n; ++i)
        test_assert_f32_bits_eq(out[i], i == 0 ? 0.0f : expected[i - 1],
                                "seed 0x%llx mode %s line %zu (n %zu) exclusive index %zu", (unsigned long long)seed,
                                mode, line, n, i);
}

static void check_f16_line(reference *ref, const char *mode, uint64_t seed, size_t line, size_t n, const uint16_t *x,
                           uint16_t *expected, uint16_t *out)
{
    reference_reset(ref);
    for (size_t i = 0; i < n; ++i)
    {
        reference_add(ref, (double)dmlconf_half_to_float(x[i]));
        expected[i] = expected_f16(ref);
    }
    oracle_sum_f16(false, n, x, out);
    for (size_t i = 0; i < n; ++i)
        test_assert_f16_bits_eq(out[i], expected[i], "seed 0x%llx mode %s line %zu (n %zu) inclusive index %zu",
                                (unsigned long long)seed, mode, line, n, i);
    oracle_sum_f16(true, n, x, out);
    for (size_t i = 0; i < n; ++i)
        test_assert_f16_bits_eq(out[i], i == 0 ? 0u : expected[i - 1],
                                "seed 0x%llx mode %s line %zu (n %zu) exclusive index %zu", (unsigned long long)seed,
                                mode, line, n, i);
}

START_TEST(test_f32_mode)
{
    data_mode mode = (data_mode)_i;
    uint64_t seed = mode_seed(mode, false);
    test_rng rng;
    test_rng_seed(&rng, seed);
    size_t capacity = 300000;
    float *x = malloc(capacity * sizeof(*x));
    float *expected = malloc(capacity * sizeof(*expected));
    float *out = malloc(capacity * sizeof(*out));
    ck_assert_ptr_nonnull(x);
    ck_assert_ptr_nonnull(expected);
    ck_assert_ptr_nonnull(out);
    reference ref;
    reference_init(&ref, 24);
    size_t done = 0, n;
    for (size_t line = 0; (n = line_length(line, done)) != 0; ++line)
    {
        f32_fill(mode, &rng, n, x);
        check_f32_line(&ref, mode_names[mode], seed, line, n, x, expected, out);
        done += n;
    }
    ck_assert_uint_ge(done, ELEMENTS_PER_MODE);
    reference_clear(&ref);
    free(x);
    free(expected);
    free(out);
}
END_TEST

START_TEST(test_f16_mode)
{
    data_mode mode = (data_mode)_i;
    uint64_t seed = mode_seed(mode, true);
    test_rng rng;
    test_rng_seed(&rng, seed);
    size_t capacity = 300000;
    uint16_t *x = malloc(capacity * sizeof(*x));
    uint16_t *expected = malloc(capacity * sizeof(*expected));
    uint16_t *out = malloc(capacity * sizeof(*out));
    ck_assert_ptr_nonnull(x);
    ck_assert_ptr_nonnull(expected);
    ck_assert_ptr_nonnull(out);
    reference ref;
    reference_init(&ref, 11);
    size_t done = 0, n;
    for (size_t line = 0; (n = line_length(line, done)) != 0; ++line)
    {
        f16_fill(mode, &rng, n, x);
        check_f16_line(&ref, mode_names[mode], seed, line, n, x, expected, out);
        done += n;
    }
    ck_assert_uint_ge(done, ELEMENTS_PER_MODE);
    reference_clear(&ref);
    free(x);
    free(expected);
    free(out);
}
END_TEST

/* ---- fixed lines ------------------------------------------------------------------ */

typedef struct f32_case
{
    size_t n;
    float x[4];
    float y[4]; /* inclusive results, written out by hand */
} f32_case;

static const f32_case f32_cases[] = {
    {2, {1.0f, 0x1p-24f}, {1.0f, 1.0f}},                                  /* tie to even, down */
    {2, {1.0f + 0x1p-23f, 0x1p-24f}, {1.0f + 0x1p-23f, 1.0f + 0x1p-22f}}, /* tie to even, up */
    {3, {1.0f, 0x1p-24f, 0x1p-60f}, {1.0f, 1.0f, 1.0f + 0x1p-23f}},       /* double rounding trap */
    {3, {1.0f, 0x1p-24f, -0x1p-60f}, {1.0f, 1.0f, 1.0f}},                 /* just below the midpoint */
    {3, {FLT_MAX, FLT_MAX, -FLT_MAX}, {FLT_MAX, INFINITY, FLT_MAX}},      /* overflow and back */
    {3, {FLT_MAX, 0x1p103f, -0x1p-149f}, {FLT_MAX, INFINITY, FLT_MAX}},   /* the threshold itself */
    {2, {-FLT_MAX, -0x1p103f}, {-FLT_MAX, -INFINITY}},
    {3, {-0.0f, -0.0f, 0.0f}, {-0.0f, -0.0f, 0.0f}}, /* signed zeros */
    {2, {1.0f, -1.0f}, {1.0f, 0.0f}},
    {2, {0x1p-149f, 0x1p-149f}, {0x1p-149f, 0x1p-148f}}, /* subnormals */
    {3, {0x1p-126f, -0x1p-149f, 0x1p-149f}, {0x1p-126f, 0x1p-126f - 0x1p-149f, 0x1p-126f}},
    {4, {INFINITY, 1.0f, -INFINITY, 1.0f}, {INFINITY, INFINITY, NAN, NAN}}, /* specials */
    {2, {-INFINITY, FLT_MAX}, {-INFINITY, -INFINITY}},
    {3, {1.0f, NAN, -INFINITY}, {1.0f, NAN, NAN}},
    {3, {0x1p100f, 0x1p-100f, -0x1p100f}, {0x1p100f, 0x1p100f, 0x1p-100f}}, /* far apart */
};

START_TEST(test_f32_fixed)
{
    const f32_case *c = &f32_cases[_i];
    float out[4], expected[4];
    oracle_sum_f32(false, c->n, c->x, out);
    for (size_t i = 0; i < c->n; ++i)
    {
        float y = isnan(c->y[i]) ? test_f32_from_bits(0x7fc00000u) : c->y[i];
        test_assert_f32_bits_eq(out[i], y, "case %d index %zu", _i, i);
    }
    /* The same line through the MPFR reference, both scan kinds. */
    reference ref;
    reference_init(&ref, 24);
    check_f32_line(&ref, "fixed", 0, (size_t)_i, c->n, c->x, expected, out);
    reference_clear(&ref);
}
END_TEST

typedef struct f16_case
{
    size_t n;
    uint16_t x[4];
    uint16_t y[4];
} f16_case;

static const f16_case f16_cases[] = {
    {3, {0x7800u, 0x4c00u, 0x1800u}, {0x7800u, 0x7800u, 0x7801u}}, /* 2^15 + 2^4 + 2^-9: no double rounding */
    {2, {0x7bffu, 0x4c00u}, {0x7bffu, 0x7c00u}},                   /* 65504 + 16 = 65520: Inf */
    {3, {0x7bffu, 0x4bffu, 0x1fffu}, {0x7bffu, 0x7bffu, 0x7bffu}}, /* 65520 - 2^-7, then just below 65520 */
    {3, {0x7bffu, 0x4bffu, 0x2000u}, {0x7bffu, 0x7bffu, 0x7c00u}}, /* 65520 - 2^-7, then 65520 */
    {3, {0x7bffu, 0x7bffu, 0xfbffu}, {0x7bffu, 0x7c00u, 0x7bffu}}, /* overflow and back */
    {3, {0x8000u, 0x8000u, 0x0000u}, {0x8000u, 0x8000u, 0x0000u}}, /* signed zeros */
    {2, {0x3c00u, 0xbc00u}, {0x3c00u, 0x0000u}},
    {2, {0x0001u, 0x03ffu}, {0x0001u, 0x0400u}}, /* subnormal to normal */
    {2, {0x6400u, 0x0001u}, {0x6400u, 0x6400u}}, /* 1024 + 2^-24 */
    {4, {0x7c00u, 0x3c00u, 0xfc00u, 0x3c00u}, {0x7c00u, 0x7c00u, 0x7e00u, 0x7e00u}},
    {2, {0xfc00u, 0x7bffu}, {0xfc00u, 0xfc00u}},
    {2, {0x3c00u, 0xfd01u}, {0x3c00u, 0x7e00u}},
};

START_TEST(test_f16_fixed)
{
    const f16_case *c = &f16_cases[_i];
    uint16_t out[4], expected[4];
    oracle_sum_f16(false, c->n, c->x, out);
    for (size_t i = 0; i < c->n; ++i)
        test_assert_f16_bits_eq(out[i], c->y[i], "case %d index %zu", _i, i);
    reference ref;
    reference_init(&ref, 11);
    check_f16_line(&ref, "fixed", 0, (size_t)_i, c->n, c->x, expected, out);
    reference_clear(&ref);
}
END_TEST

/* A float16 line of more than 2^24 terms: 2^23 + 4096 times 65504 (about
 * 2^40 units of 2^-24 each) take the sum past 2^62 units, so that the third
 * and fourth blocks of 2^22 terms run on the two-word sum; as many -65504
 * bring it back to exactly zero, and small values follow. */
START_TEST(test_f16_long_line)
{
    size_t up = (UINT64_C(1) << 23) + 4096, n = 2 * up + 5000;
    uint16_t *x = malloc(n * sizeof(*x));
    uint16_t *expected = malloc(n * sizeof(*expected));
    uint16_t *out = malloc(n * sizeof(*out));
    ck_assert_ptr_nonnull(x);
    ck_assert_ptr_nonnull(expected);
    ck_assert_ptr_nonnull(out);
    test_rng rng;
    uint64_t seed = UINT64_C(0x5eed10a6);
    test_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; ++i)
        x[i] = i < up ? 0x7bffu : i < 2 * up ? 0xfbffu : f16_uniform(&rng);
    /* The exact sums are multiples of 65504 below 2^39, then small: exact in
     * double, so the reference here is a double and one rounding. */
    reference ref;
    reference_init(&ref, 11);
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i)
    {
        sum += (double)dmlconf_half_to_float(x[i]);
        if (i < 2 * up && fabs(sum) >= 65520.0)
        {
            expected[i] = sum > 0 ? 0x7c00u : 0xfc00u;
            continue;
        }
        mpfr_set_d(ref.sum, sum, MPFR_RNDN);
        ref.all_negative_zero = false;
        expected[i] = expected_f16(&ref);
    }
    oracle_sum_f16(false, n, x, out);
    for (size_t i = 0; i < n; ++i)
        test_assert_f16_bits_eq(out[i], expected[i], "seed 0x%llx long line index %zu", (unsigned long long)seed, i);
    reference_clear(&ref);
    free(x);
    free(expected);
    free(out);
}
END_TEST

/* ---- the exact accumulator on its own ------------------------------------------------ */

/* Rounds an MPFR value the way a binary16 does below its normal range:
 * multiples of 2^-24, ties to even. */
static double mpfr_round_f16(mpfr_t exact, mpfr_t scratch)
{
    if (mpfr_zero_p(exact))
        return 0.0;
    if (!abs_at_least_pow2(exact, -14))
    {
        mpfr_mul_2si(scratch, exact, 24, MPFR_RNDN); /* exact: scratch is wide */
        mpfr_rint(scratch, scratch, MPFR_RNDN);      /* ties to even */
        return ldexp(mpfr_get_d(scratch, MPFR_RNDN), -24);
    }
    mpfr_t rounded;
    mpfr_init2(rounded, 11);
    mpfr_set(rounded, exact, MPFR_RNDN);
    double v = mpfr_get_d(rounded, MPFR_RNDN);
    if (abs_at_least_pow2(rounded, 16))
        v = v > 0 ? (double)INFINITY : -(double)INFINITY;
    mpfr_clear(rounded);
    return v;
}

START_TEST(test_accumulator)
{
    uint64_t seed = UINT64_C(0x5eedacc0) + (uint64_t)_i;
    test_rng rng;
    test_rng_seed(&rng, seed);
    mpfr_t exact, scratch, rounded53;
    mpfr_init2(exact, EXACT_PRECISION);
    mpfr_init2(scratch, EXACT_PRECISION);
    mpfr_init2(rounded53, 53);
    for (int run = 0; run < 200; ++run)
    {
        exact_acc acc;
        exact_acc_init(&acc);
        mpfr_set_zero(exact, 1);
        /* Each run draws from one magnitude range, so that sums cancel and
         * land in the subnormal and float16 ranges as well as far out. */
        uint32_t low = (uint32_t)test_rng_below(&rng, 250), high = low + (uint32_t)test_rng_below(&rng, 255 - low);
        for (int step = 0; step < 500; ++step)
        {
            uint64_t what = test_rng_below(&rng, 10);
            if (what < 7)
            {
                float x = f32_random_exponent(&rng, low, high);
                if (what < 4)
                {
                    exact_acc_add_f32(&acc, x);
                    mpfr_add_d(exact, exact, (double)x, MPFR_RNDN);
                }
                else
                {
                    exact_acc_sub_f32(&acc, x);
                    mpfr_sub_d(exact, exact, (double)x, MPFR_RNDN);
                }
            }
            else
            {
                /* A double that is a multiple of 2^-149 below 2^160. */
                int e = -149 + (int)test_rng_below(&rng, 257);
                double x = ldexp((double)(test_rng_next(&rng) >> 11), e);
                if (test_rng_below(&rng, 2))
                    x = -x;
                exact_acc_add_f64(&acc, x);
                mpfr_add_d(exact, exact, x, MPFR_RNDN);
            }
            char where[96];
            snprintf(where, sizeof(where), "seed 0x%llx run %d step %d", (unsigned long long)seed, run, step);

            /* float32 */
            reference ref;
            ref.nan = ref.pos_inf = ref.neg_inf = ref.all_negative_zero = false;
            mpfr_init2(ref.sum, EXACT_PRECISION);
            mpfr_init2(ref.rounded, 24);
            mpfr_set(ref.sum, exact, MPFR_RNDN);
            test_assert_f32_bits_eq(exact_acc_round_f32(&acc), expected_f32(&ref), "%s: f32", where);
            reference_clear(&ref);

            /* double, with the inexact flag */
            bool inexact = false;
            double d = exact_acc_round(&acc, 53, -1074, 1024, &inexact);
            int ternary = mpfr_set(rounded53, exact, MPFR_RNDN);
            double expected_d = mpfr_get_d(rounded53, MPFR_RNDN);
            /* (Check's ck_assert_* report every pass to the parent process:
             * plain ifs keep this loop fast.) */
            if (test_f64_bits(d) != test_f64_bits(expected_d) && !(d == 0.0 && expected_d == 0.0))
                ck_abort_msg("%s: f64 got %a expected %a", where, d, expected_d);
            if (inexact != (ternary != 0))
                ck_abort_msg("%s: inexact flag %d, MPFR %d", where, inexact, ternary);

            /* float16, with its subnormal floor */
            uint16_t h = exact_acc_round_f16(&acc);
            double expected_h = mpfr_round_f16(exact, scratch);
            test_assert_f16_bits_eq(h, dmlconf_half_from_double(expected_h), "%s: f16", where);

            if (exact_acc_is_zero(&acc) != (mpfr_zero_p(exact) != 0))
                ck_abort_msg("%s: is_zero", where);
        }
    }
    mpfr_clear(exact);
    mpfr_clear(scratch);
    mpfr_clear(rounded53);
}
END_TEST

START_TEST(test_accumulator_specials)
{
    exact_acc acc;
    exact_acc_init(&acc);
    exact_acc_add_f32(&acc, 1.0f);
    exact_acc_add_f32(&acc, INFINITY);
    test_assert_f32_bits_eq(exact_acc_round_f32(&acc), INFINITY, "+Inf");
    ck_assert_uint_eq(exact_acc_round_f16(&acc), 0x7c00u);
    exact_acc_sub_f32(&acc, INFINITY); /* records -Inf */
    test_assert_f32_bits_eq(exact_acc_round_f32(&acc), test_f32_from_bits(0x7fc00000u), "+Inf - Inf");
    ck_assert_uint_eq(exact_acc_round_f16(&acc), 0x7e00u);

    exact_acc_init(&acc);
    exact_acc_sub_f32(&acc, INFINITY);
    test_assert_f32_bits_eq(exact_acc_round_f32(&acc), -INFINITY, "-Inf");
    exact_acc_add_f32(&acc, test_f32_from_bits(0xff800001u));
    test_assert_f32_bits_eq(exact_acc_round_f32(&acc), test_f32_from_bits(0x7fc00000u), "NaN");

    /* Cancelling to zero exactly; the zero is +0 (the caller owns the sign). */
    exact_acc_init(&acc);
    exact_acc_add_f32(&acc, FLT_MAX);
    exact_acc_add_f32(&acc, 0x1p-149f);
    exact_acc_sub_f32(&acc, FLT_MAX);
    exact_acc_sub_f32(&acc, 0x1p-149f);
    ck_assert(exact_acc_is_zero(&acc));
    test_assert_f32_bits_eq(exact_acc_round_f32(&acc), 0.0f, "zero");
    ck_assert_uint_eq(exact_acc_round_f16(&acc), 0u);

    /* An infinity or a NaN in a block of the array addition whose finite
     * values all lie in the top exponents (within the fields a block may
     * span): recorded, never summed. */
    static const uint32_t specials[] = {0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u};
    static const uint32_t recorded[] = {DMLCONF_SPECIAL_POS_INF, DMLCONF_SPECIAL_NEG_INF, DMLCONF_SPECIAL_NAN,
                                        DMLCONF_SPECIAL_NAN};
    for (size_t k = 0; k < sizeof(specials) / sizeof(specials[0]); ++k)
    {
        float block[256];
        for (size_t i = 0; i < 256; ++i)
            block[i] = i % 2u ? 0x1p120f : -0x1p121f;
        block[77] = test_f32_from_bits(specials[k]);
        exact_acc_init(&acc);
        exact_acc_add_f32_array(&acc, 256, block);
        ck_assert_msg(acc.specials == recorded[k], "special 0x%08x: recorded 0x%x", specials[k], acc.specials);
        exact_acc acc_finite;
        exact_acc_init(&acc_finite);
        for (size_t i = 0; i < 256; ++i)
            if (i != 77)
                exact_acc_add_f32(&acc_finite, block[i]);
        acc.specials = 0;
        test_assert_f32_bits_eq(exact_acc_round_f32(&acc), exact_acc_round_f32(&acc_finite), "finite part");
    }
}
END_TEST

static Suite *mpfr_sum_suite(void)
{
    Suite *suite = suite_create("mpfr_sum");

    TCase *f32 = tcase_create("float32");
    tcase_set_timeout(f32, 600);
    tcase_add_loop_test(f32, test_f32_mode, 0, MODE_COUNT);
    tcase_add_loop_test(f32, test_f32_fixed, 0, (int)(sizeof(f32_cases) / sizeof(f32_cases[0])));
    suite_add_tcase(suite, f32);

    TCase *f16 = tcase_create("float16");
    tcase_set_timeout(f16, 600);
    tcase_add_loop_test(f16, test_f16_mode, 0, MODE_COUNT);
    tcase_add_loop_test(f16, test_f16_fixed, 0, (int)(sizeof(f16_cases) / sizeof(f16_cases[0])));
    tcase_add_test(f16, test_f16_long_line);
    suite_add_tcase(suite, f16);

    TCase *acc = tcase_create("accumulator");
    tcase_set_timeout(acc, 600);
    tcase_add_loop_test(acc, test_accumulator, 0, 2);
    tcase_add_test(acc, test_accumulator_specials);
    suite_add_tcase(suite, acc);
    return suite;
}

int main(void)
{
    return test_run_suite(mpfr_sum_suite());
}
