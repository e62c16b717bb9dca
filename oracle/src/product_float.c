/*
 * Exact float32 / float16 prefix products: every output is the exact real
 * product of its prefix rounded once to the output format (to nearest, ties
 * to even, subnormals kept, infinity exactly from the overflow threshold on).
 * Intermediate overflow and underflow are not imitated.
 *
 * Fast path. The magnitude of the running product is held as a double-double
 * significand hi + lo (hi in [1, 2), |lo| <= ulp(hi) / 2) times 2^exponent,
 * with a 64-bit exponent so that lines of any length stay in range. A step
 * multiplies by the term's significand x (in [1, 2), at most 24 bits):
 *   - hi is split into a 29-bit high part and a 24-bit low part, whose
 *     products with x (53 and 48 bits) are exact; a Fast2Sum of the two gives
 *     hi * x exactly as s + e;
 *   - while the product is known exactly ("exact so far") and lo != 0, lo is
 *     split the same way and the remainders of every error-free
 *     transformation are kept: the flag stays set only if they all vanish;
 *   - otherwise lo * x is rounded once and added to e: the relative error of
 *     the step is below 2^-103.
 * While the flag is set the double-double is the exact value and rounding is
 * decided exactly, ties included. Once a step is inexact the product has an
 * odd significand of more than 53 bits, so it can never be a tie or
 * representable again; the rounding is then decided from the double-double
 * when the accumulated error bound (2^-99 per step, far above the real
 * 2^-103) cannot straddle a rounding midpoint.
 *
 * Exact fallback. The rare undecided elements are rounded from an exact
 * integer product (bignum_product.c) that lags behind: it absorbs the terms
 * it has not seen yet, once each, only when an element needs it. A line of n
 * terms therefore costs at most O(n * size) limb operations in the fallback,
 * size being the limb count of the exact product (24 bits per float32 term,
 * 11 per float16 term, at most), and rounding from it is O(1) per element;
 * nothing is ever recomputed from the start. Ordinary data never reaches it:
 * on random data the bound leaves an element undecided with a probability of
 * about 2^-52 + n * 2^-74 (n terms so far). The slow exact path is taken
 * only by products whose odd part has 54 to about 106 bits, which odd
 * factors leave within a few dozen terms; powers of two skip it.
 *
 * Special values: NaN when the prefix holds a NaN, or a zero and an infinity;
 * otherwise an infinity or a zero when it holds one; the sign is the XOR of
 * all the signs. NaN results are the default quiet NaN with the sign clear.
 */
#include "bignum_product.h"
#include "line_kernels.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* The fast path relies on double operations being rounded to double. */
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD < 0 || FLT_EVAL_METHOD > 1
#error "the product kernels need double arithmetic evaluated in double precision"
#endif

#define DOUBLE_MANTISSA_MASK UINT64_C(0x000fffffffffffff)
#define DOUBLE_EXPONENT_ONE  (UINT64_C(1023) << 52)
/* Clearing the low 24 mantissa bits keeps a 29-bit high part. */
#define DOUBLE_SPLIT_MASK (~UINT64_C(0xffffff))

/* Error bound per multiplication step, in units of the value (see above). */
#define STEP_ERROR 0x1p-99

/* state_round's answer when the fast path cannot decide. */
#define ROUND_UNDECIDED UINT32_MAX

/* The output format of a kernel. */
typedef struct product_format
{
    bignum_format big;
    bool half;          /* binary16 bit patterns in and out */
    uint32_t fraction;  /* stored significand bits: 23 or 10 */
    int32_t bias;       /* exponent bias: 127 or 15 */
    double subnormal;   /* the smallest subnormal, 2^-149 or 2^-24 */
    uint32_t sign_bit;  /* 0x80000000 or 0x8000 */
    uint32_t magnitude; /* mask of the bits below the sign */
    uint32_t infinity;  /* 0x7f800000 or 0x7c00 */
    uint32_t nan;       /* default quiet NaN */
    uint32_t one;       /* 1.0, the exclusive scan's first output */
} product_format;

static const product_format format_float32 = {
    {24u, -149, 127}, false, 23u, 127, 0x1p-149, 0x80000000u, 0x7fffffffu, 0x7f800000u, 0x7fc00000u, 0x3f800000u,
};

static const product_format format_float16 = {
    {11u, -24, 15}, true, 10u, 15, 0x1p-24, 0x8000u, 0x7fffu, 0x7c00u, 0x7e00u, 0x3c00u,
};

/* The magnitude of the running product of the finite nonzero terms, and
 * the lagging exact product used by undecided elements (line_kernels.h). */
typedef product_value product_state;

static double double_from_bits(uint64_t bits)
{
    double value;
    memcpy(&value, &bits, sizeof(value));
    return value;
}

static uint64_t double_bits(double value)
{
    uint64_t bits;
    memcpy(&bits, &value, sizeof(bits));
    return bits;
}

/* 2^e for -1022 <= e <= 1023. */
static double power_of_two(int64_t e)
{
    return double_from_bits((uint64_t)(e + 1023) << 52);
}

/* The high part of a double: its low 24 mantissa bits cleared. */
static double split_high(double value)
{
    return double_from_bits(double_bits(value) & DOUBLE_SPLIT_MASK);
}

static uint32_t load_bits(const product_format *format, const void *in, size_t i)
{
    if (format->half)
        return ((const uint16_t *)in)[i];
    uint32_t bits;
    memcpy(&bits, (const float *)in + i, sizeof(bits));
    return bits;
}

static void store_bits(const product_format *format, void *out, size_t i, uint32_t bits)
{
    if (format->half)
    {
        ((uint16_t *)out)[i] = (uint16_t)bits;
        return;
    }
    float value;
    memcpy(&value, &bits, sizeof(value));
    ((float *)out)[i] = value;
}

/* True for a zero, an infinity or a NaN (magnitude bits given). */
static bool is_special(const product_format *format, uint32_t magnitude)
{
    /* magnitude - 1 wraps for zero. */
    return magnitude - 1u >= format->infinity - 1u;
}

/* A finite nonzero magnitude as significand * 2^exponent, significand in
 * [1, 2) with at most 24 bits. Integer operations only, so that a DAZ mode
 * cannot flush subnormal inputs. */
static double decode_finite(const product_format *format, uint32_t magnitude, int32_t *exponent)
{
    uint32_t field = magnitude >> format->fraction;
    uint64_t fraction = magnitude & ((UINT32_C(1) << format->fraction) - 1u);
    if (field != 0)
    {
        *exponent = (int32_t)field - format->bias;
        return double_from_bits((fraction << (52u - format->fraction)) | DOUBLE_EXPONENT_ONE);
    }
    /* Subnormal: a normal double once converted. */
    uint64_t bits = double_bits((double)magnitude * format->subnormal);
    *exponent = (int32_t)(bits >> 52) - 1023;
    return double_from_bits((bits & DOUBLE_MANTISSA_MASK) | DOUBLE_EXPONENT_ONE);
}

/* A finite nonzero magnitude as an odd integer times 2^exponent. */
static uint32_t decode_odd(const product_format *format, uint32_t magnitude, int32_t *exponent)
{
    uint32_t field = magnitude >> format->fraction;
    uint32_t significand = magnitude & ((UINT32_C(1) << format->fraction) - 1u);
    if (field != 0)
    {
        significand |= UINT32_C(1) << format->fraction;
        *exponent = (int32_t)field - format->bias - (int32_t)format->fraction;
    }
    else
    {
        *exponent = format->big.min_exponent;
    }
    while (!(significand & 1u))
    {
        significand >>= 1;
        ++*exponent;
    }
    return significand;
}

/* hi * x exactly as s + e (x with at most 24 significant bits). */
static void multiply_high(double hi, double x, double *s, double *e)
{
    double hh = split_high(hi);
    double hl = hi - hh;
    double a = hh * x; /* 29 x 24 bits: exact */
    double b = hl * x; /* 24 x 24 bits: exact */
    *s = a + b;
    *e = b - (*s - a); /* Fast2Sum: a + b = s + e, |a| >= |b| */
}

/* Multiplies the state by x * 2^exponent, x in [1, 2) with at most 24
 * significant bits. */
static void state_multiply(product_state *state, double x, int32_t exponent)
{
    double lo = state->lo;
    double s, e, new_hi, new_lo;
    if (!state->exact || lo == 0.0)
    {
        /* lo * x rounded once; exact when lo is 0 (then w = e and the
         * Fast2Sum returns s, e). */
        multiply_high(state->hi, x, &s, &e);
        double w = e + lo * x;
        new_hi = s + w;
        new_lo = w - (new_hi - s);
    }
    else if (x == 1.0)
    {
        /* A power of two: only the exponent moves. */
        state->exponent += exponent;
        return;
    }
    else
    {
        /* Keep every remainder: the product is exact only if they vanish. */
        multiply_high(state->hi, x, &s, &e);
        double lh = split_high(lo);
        double ll = lo - lh;
        double c = lh * x, d = ll * x; /* exact, c + d = lo * x */
        double t = c + d;
        double tv = t - c;
        double t_err = (c - (t - tv)) + (d - tv); /* TwoSum */
        double u = e + t;
        double uv = u - e;
        double u_err = (e - (u - uv)) + (t - uv); /* TwoSum */
        new_hi = s + u;
        double v = u - (new_hi - s); /* Fast2Sum, |s| >= 1 > |u| */
        double z = u_err + t_err;
        double zv = z - u_err;
        double z_err = (u_err - (z - zv)) + (t_err - zv);
        double w = v + z;
        double wv = w - v;
        double w_err = (v - (w - wv)) + (z - wv);
        if (z_err != 0.0 || w_err != 0.0)
            state->exact = false;
        double r = new_hi + w;
        new_lo = w - (r - new_hi); /* Fast2Sum renormalisation, exact */
        new_hi = r;
    }
    /* new_hi is in [1 - 2^-53, 4): bring it back to [1, 2). */
    uint64_t bits = double_bits(new_hi);
    int64_t shift = (int64_t)(bits >> 52) - 1023;
    new_hi = double_from_bits((bits & DOUBLE_MANTISSA_MASK) | DOUBLE_EXPONENT_ONE);
    new_lo *= power_of_two(-shift);
    if (fabs(new_lo) < 0x1p-900 && new_lo != 0.0)
    {
        /* Never seen in practice; keeps every later step clear of double
         * underflow at a cost (2^-900) far inside the step bound. */
        new_lo = 0.0;
        state->exact = false;
    }
    state->hi = new_hi;
    state->lo = new_lo;
    state->exponent += exponent + shift;
    state->error += STEP_ERROR;
}

/* Rounds the state to the format. Returns the magnitude bits, or
 * ROUND_UNDECIDED when the error bound straddles a rounding midpoint. */
static uint32_t state_round(const product_state *state, const product_format *format)
{
    const int64_t p = format->big.precision;
    const int64_t min_exponent = format->big.min_exponent;
    int64_t e = state->exponent;
    /* The magnitude is within a factor 1 +- 2^-52 of [2^e, 2^(e+1)). */
    if (e > format->big.max_exponent)
        return format->infinity;
    if (e < min_exponent - 2)
    {
        /* Below 2^(min_exponent - 1), half the smallest subnormal. */
        return 0;
    }
    int64_t q = e - (p - 1); /* exponent of the last kept bit */
    if (q < min_exponent)
        q = min_exponent;
    double scale = power_of_two(e - q); /* e - q in [-2, p - 1] */
    double h = state->hi * scale;       /* exact; the value is h + l units */
    double l = state->lo * scale;
    double k = (h + 0x1p52) - 0x1p52; /* h rounded to an integer, ties to even */
    double fh = h - k;                /* exact, |fh| <= 1/2 */
    double f = fh + l;
    int32_t adjust = 0;
    if (state->exact)
    {
        /* fh + l = f + f_err exactly. */
        double fv = f - fh;
        double f_err = (fh - (f - fv)) + (l - fv);
        double af = fabs(f);
        if (af > 0.5 || (af == 0.5 && (f > 0.0) == (f_err > 0.0) && f_err != 0.0))
            adjust = f > 0.0 ? 1 : -1;
        else if (af == 0.5 && f_err == 0.0 && ((uint32_t)k & 1u))
            adjust = f > 0.0 ? 1 : -1; /* a tie, k is odd */
    }
    else
    {
        /* |exact - (k + f)| <= error * h + 2^-53 (the last term covers f's
         * own rounding, at most 2^-54). Comparisons of rounded sums are safe:
         * rounding is monotonic and 0.5 is representable. */
        double bound = state->error * h + 0x1p-53;
        double af = fabs(f);
        if (af + bound < 0.5)
            adjust = 0;
        else if (af - bound > 0.5)
            adjust = f > 0.0 ? 1 : -1;
        else
            return ROUND_UNDECIDED;
    }
    uint32_t units = (uint32_t)((int32_t)k + adjust);
    return ((uint32_t)(q - min_exponent) << (p - 1)) + units;
}

/* Rounds the exact product of the line's elements [0, end) (all finite and
 * nonzero) after absorbing those the fallback has not seen: the elements
 * before the piece, which starts at `position`, come from the history, the
 * others from `in`. Returns 0, or -1 with err set when memory runs out or
 * the history cannot give them. */
static int fallback_round(product_fallback *fallback, const product_format *format, uint64_t position, const void *in,
                          uint64_t end, const oracle_history *history, uint32_t *bits, dmlconf_error *err)
{
    if (!fallback->started)
    {
        if (!bignum_product_init(&fallback->big))
        {
            oracle_set_error(err, "cumulative product: out of memory in the exact fallback");
            return -1;
        }
        fallback->started = true;
        fallback->absorbed = 0;
    }
    /* Odd factors are batched while their product fits in 32 bits. */
    uint64_t batch = 1;
    int64_t batch_exponent = 0;
    uint32_t earlier[256];
    size_t earlier_count = 0, earlier_next = 0;
    for (uint64_t i = fallback->absorbed; i < end; ++i)
    {
        uint32_t bits_i;
        if (i < position)
        {
            if (earlier_next == earlier_count)
            {
                uint64_t stop = position < end ? position : end;
                earlier_count = stop - i < 256u ? (size_t)(stop - i) : 256u;
                earlier_next = 0;
                if (format->half)
                {
                    uint16_t halves[256];
                    if (oracle_history_read(history, i, earlier_count, halves, err))
                        return -1;
                    for (size_t k = 0; k < earlier_count; ++k)
                        earlier[k] = halves[k];
                }
                else if (oracle_history_read(history, i, earlier_count, earlier, err))
                {
                    return -1;
                }
            }
            bits_i = earlier[earlier_next++];
        }
        else
        {
            bits_i = load_bits(format, in, (size_t)(i - position));
        }
        uint32_t magnitude = bits_i & format->magnitude;
        if (is_special(format, magnitude))
            continue; /* never in a prefix the fast path rounds */
        int32_t exponent;
        uint32_t factor = decode_odd(format, magnitude, &exponent);
        if (batch * factor > UINT32_MAX)
        {
            if (!bignum_product_mul(&fallback->big, (uint32_t)batch, batch_exponent))
                goto out_of_memory;
            batch = 1;
            batch_exponent = 0;
        }
        batch *= factor;
        batch_exponent += exponent;
    }
    if (!bignum_product_mul(&fallback->big, (uint32_t)batch, batch_exponent))
        goto out_of_memory;
    fallback->absorbed = end;
    *bits = bignum_product_round(&fallback->big, &format->big);
    return 0;

out_of_memory:
    oracle_set_error(err, "cumulative product: out of memory in the exact fallback at element %llu",
                     (unsigned long long)end - 1u);
    return -1;
}

void oracle_product_init(product_walk *walk)
{
    memset(walk, 0, sizeof(*walk));
    walk->value.hi = 1.0;
    walk->value.lo = 0.0;
    walk->value.exponent = 0;
    walk->value.error = 0.0;
    walk->value.exact = true;
}

void oracle_product_release(product_walk *walk)
{
    if (walk->fallback.started)
        bignum_product_free(&walk->fallback.big);
    walk->fallback.started = false;
}

/* The shared kernel: the next n elements of the line, from element
 * `position` on. */
static int product_next(const product_format *format, product_walk *walk, uint64_t position, size_t n, const void *in,
                        void *out, const oracle_history *history, dmlconf_error *err)
{
    uint32_t sign = walk->sign;
    size_t i = 0;

    /* Finite nonzero terms only. */
    for (; i < n && !walk->special; ++i)
    {
        uint32_t bits = load_bits(format, in, i);
        uint32_t magnitude = bits & format->magnitude;
        if (is_special(format, magnitude))
        {
            walk->special = true;
            break;
        }
        sign ^= bits & format->sign_bit;
        int32_t exponent;
        double x = decode_finite(format, magnitude, &exponent);
        state_multiply(&walk->value, x, exponent);
        uint32_t result = state_round(&walk->value, format);
        uint64_t output_index = walk->output_offset + position + i;
        if (result == ROUND_UNDECIDED || (walk->fallback_period != 0 && output_index % walk->fallback_period == 0))
        {
            if (fallback_round(&walk->fallback, format, position, in, position + i + 1, history, &result, err))
                return -1;
        }
        store_bits(format, out, i, result | sign);
    }

    /* From the first zero, infinity or NaN on, only the specials and the
     * sign matter. */
    for (; i < n; ++i)
    {
        uint32_t bits = load_bits(format, in, i);
        uint32_t magnitude = bits & format->magnitude;
        sign ^= bits & format->sign_bit;
        if (magnitude > format->infinity)
            walk->nan = true;
        else if (magnitude == format->infinity)
            walk->infinity = true;
        else if (magnitude == 0)
            walk->zero = true;
        uint32_t result;
        if (walk->nan || (walk->zero && walk->infinity))
            result = format->nan;
        else if (walk->infinity)
            result = sign | format->infinity;
        else
            result = sign;
        store_bits(format, out, i, result);
    }
    walk->sign = sign;

    /* Without a history, this piece's finite terms must be in the exact
     * product before the piece is gone (costly: see oracle.h). */
    if (!history->read && !walk->special && n > 0)
    {
        uint32_t ignored;
        if (fallback_round(&walk->fallback, format, position, in, position + n, history, &ignored, err))
            return -1;
    }
    return 0;
}

int oracle_product_f32_next(product_walk *walk, uint64_t position, size_t n, const float *in, float *out,
                            const oracle_history *history, dmlconf_error *err)
{
    return product_next(&format_float32, walk, position, n, in, out, history, err);
}

int oracle_product_f16_next(product_walk *walk, uint64_t position, size_t n, const uint16_t *in, uint16_t *out,
                            const oracle_history *history, dmlconf_error *err)
{
    return product_next(&format_float16, walk, position, n, in, out, history, err);
}

/* ---- segment summaries ------------------------------------------------------ */

void oracle_product_summary_init(product_summary *s)
{
    memset(s, 0, sizeof(*s));
    s->value.hi = 1.0;
    s->value.exact = true;
}

static void summary_add(const product_format *format, product_summary *s, size_t n, const void *in)
{
    for (size_t i = 0; i < n; ++i)
    {
        uint32_t bits = load_bits(format, in, i);
        uint32_t magnitude = bits & format->magnitude;
        s->sign ^= bits & format->sign_bit;
        if (!s->special && !is_special(format, magnitude))
        {
            int32_t exponent;
            double x = decode_finite(format, magnitude, &exponent);
            state_multiply(&s->value, x, exponent);
            continue;
        }
        s->special = true;
        if (magnitude > format->infinity)
            s->nan = true;
        else if (magnitude == format->infinity)
            s->infinity = true;
        else if (magnitude == 0)
            s->zero = true;
    }
}

void oracle_product_f32_summary_add(product_summary *s, size_t n, const float *in)
{
    summary_add(&format_float32, s, n, in);
}

void oracle_product_f16_summary_add(product_summary *s, size_t n, const uint16_t *in)
{
    summary_add(&format_float16, s, n, in);
}

static bool is_identity(const product_value *v)
{
    return v->exact && v->hi == 1.0 && v->lo == 0.0 && v->exponent == 0;
}

/* a * b exactly as p + e (Dekker's product: no fused multiply-add needed;
 * a and b in [1, 2)). */
static void two_product(double a, double b, double *p, double *e)
{
    const double split = 134217729.0; /* 2^27 + 1 */
    double ta = split * a, tb = split * b;
    double a_hi = ta - (ta - a), a_lo = a - a_hi;
    double b_hi = tb - (tb - b), b_lo = b - b_hi;
    *p = a * b;
    *e = ((a_hi * b_hi - *p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo;
}

/* into = into * next: the significands' product to within a relative
 * 2^-104 (the exact product of the high parts, the rest rounded), so the
 * error bounds add, with a step's allowance for this one. */
static void value_multiply(product_value *into, const product_value *next)
{
    if (is_identity(next))
        return;
    if (is_identity(into))
    {
        *into = *next;
        return;
    }
    double p, e;
    two_product(into->hi, next->hi, &p, &e);
    double cross = into->hi * next->lo + into->lo * next->hi + into->lo * next->lo;
    double w = e + cross;
    double new_hi = p + w;
    double new_lo = w - (new_hi - p); /* Fast2Sum, |p| >= 1 > |w| */
    /* new_hi is in [1, 4): bring it back to [1, 2). */
    uint64_t bits = double_bits(new_hi);
    int64_t shift = (int64_t)(bits >> 52) - 1023;
    new_hi = double_from_bits((bits & DOUBLE_MANTISSA_MASK) | DOUBLE_EXPONENT_ONE);
    new_lo *= power_of_two(-shift);
    if (fabs(new_lo) < 0x1p-900)
        new_lo = 0.0;
    into->error = into->error + next->error + into->error * next->error + STEP_ERROR;
    into->hi = new_hi;
    into->lo = new_lo;
    into->exponent += next->exponent + shift;
    into->exact = false;
}

void oracle_product_summary_combine(product_summary *into, const product_summary *next)
{
    if (!into->special)
    {
        value_multiply(&into->value, &next->value);
        into->special = next->special;
    }
    into->sign ^= next->sign;
    into->nan |= next->nan;
    into->zero |= next->zero;
    into->infinity |= next->infinity;
}

int oracle_product_resume(product_walk *walk, const product_summary *prefix, bool half, uint64_t position,
                          const oracle_history *history, uint32_t *last, dmlconf_error *err)
{
    const product_format *format = half ? &format_float16 : &format_float32;
    oracle_product_init(walk);
    if (position == 0)
    {
        *last = format->one;
        return 0;
    }
    walk->value = prefix->value;
    walk->sign = prefix->sign;
    walk->special = prefix->special;
    walk->nan = prefix->nan;
    walk->zero = prefix->zero;
    walk->infinity = prefix->infinity;
    if (walk->special)
    {
        *last = walk->nan || (walk->zero && walk->infinity) ? format->nan
                : walk->infinity                            ? walk->sign | format->infinity
                                                            : walk->sign;
        return 0;
    }
    uint32_t result = state_round(&walk->value, format);
    if (result == ROUND_UNDECIDED &&
        fallback_round(&walk->fallback, format, position, NULL, position, history, &result, err))
        return -1;
    *last = result | walk->sign;
    return 0;
}
