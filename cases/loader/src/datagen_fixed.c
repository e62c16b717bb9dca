/*
 * The generators' fast path: the exact values of dmlconf/datagen.h in
 * 128-bit fixed point, rounded once by integer operations.
 *
 * Every float generator computes base + factor * v * 2^-k for a constant
 * base (min, mean, start), a constant factor (max - min, stddev, step), and
 * a per-element integer v (the random word w, the Irwin-Hall offset sum - 6
 * 2^32, the index) or an integer draw k * 2^-scale. With the parameters as
 * signed integers times powers of two, both terms are integers at a common
 * exponent E: base * 2^(e_base - E) and factor * v * 2^(e_factor - k - E).
 * When the spec's parameters let both fit in 127 bits for every v (checked
 * once per fill, from the largest v), their signed sum is the exact value
 * as a sign and a 128-bit magnitude times 2^E, and rounding it is a shift
 * with a round bit and a sticky bit. Otherwise (parameters whose exponents
 * lie far apart, such as uniform between 2^-100 and 2^100), the fill is left
 * to the exact reference in datagen.c.
 *
 * Signed zeros follow the reference's exact arithmetic: when the variable
 * term is 0 the result is the base itself (so a base of -0 stays -0); a sum
 * that cancels to zero is +0; a value that rounds to zero keeps its sign.
 *
 * Before that, float results are first tried in double arithmetic, which
 * decides almost every element without a branch on the data: the exact
 * value V lies within a proven bound err of a double v (a few roundings of
 * relative 2^-53 each, with a margin of 4), and when v - err and v + err
 * round to the same normal element of the type, so does V (rounding is
 * monotone). Otherwise (V near a rounding boundary, about one element in
 * 2^27 for float32, a subnormal, zero or infinite result) the element is
 * rounded from the fixed-point value. This relies on double arithmetic
 * rounded to nearest (FLT_EVAL_METHOD 0 or 1), as the oracle's kernels do;
 * the rounding to float32 or float16 itself of a subnormal result is never
 * taken from the hardware, so a flush-to-zero mode cannot change a result.
 *
 * A uniform float32 fill over [-2^k, 2^k] needs neither: its exact values
 * are min + (max - min) w 2^-64 = (w - 2^63) 2^(k - 63), a signed 64-bit
 * integer times a power of two. Converting the integer to float rounds it
 * once, to nearest like the rest of the fast path, and multiplying by the
 * power of two is then exact while every nonzero result stays normal
 * (k >= -63); a zero is w = 2^63, a sum that cancels: +0.
 *
 * The integer generators that need no rounding (uniform and integers in
 * integer types, wide, constant, specials, integer iota) are already integer
 * operations in the reference and stay there.
 */
#include "datagen_internal.h"

#include <dmlconf/oracle.h>
#include <dmlconf/values.h>

#include <float.h>
#include <math.h>
#include <string.h>

/* The approximation's error bounds assume double operations rounded to
 * double. */
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD < 0 || FLT_EVAL_METHOD > 1
#error "the generators' fast path needs double arithmetic evaluated in double precision"
#endif

/* ---- 128-bit magnitudes ------------------------------------------------------ */

typedef struct u128
{
    uint64_t high;
    uint64_t low;
} u128;

static inline bool u128_is_zero(u128 x)
{
    return (x.high | x.low) == 0;
}

static inline unsigned bit_length64(uint64_t x)
{
#if defined(__GNUC__)
    return x ? 64u - (unsigned)__builtin_clzll(x) : 0u;
#else
    unsigned bits = 0;
    while (x)
    {
        ++bits;
        x >>= 1;
    }
    return bits;
#endif
}

static inline unsigned trailing_zeros64(uint64_t x)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned zeros = 0;
    while (!(x & 1u))
    {
        ++zeros;
        x >>= 1;
    }
    return zeros;
#endif
}

static inline unsigned u128_bit_length(u128 x)
{
    return x.high ? 64u + bit_length64(x.high) : bit_length64(x.low);
}

/* x << shift, for shift < 128 (bits shifted past 2^128 are lost). */
static inline u128 u128_shift_left(u128 x, unsigned shift)
{
    u128 r;
    if (shift == 0)
        return x;
    if (shift >= 64)
    {
        r.high = x.low << (shift - 64);
        r.low = 0;
        return r;
    }
    r.high = (x.high << shift) | (x.low >> (64 - shift));
    r.low = x.low << shift;
    return r;
}

/* x >> shift, for any shift. */
static inline u128 u128_shift_right(u128 x, unsigned shift)
{
    u128 r;
    if (shift == 0)
        return x;
    if (shift >= 128)
    {
        r.high = r.low = 0;
        return r;
    }
    if (shift >= 64)
    {
        r.high = 0;
        r.low = x.high >> (shift - 64);
        return r;
    }
    r.high = x.high >> shift;
    r.low = (x.low >> shift) | (x.high << (64 - shift));
    return r;
}

/* Bit `bit` of x (0 for bit >= 128). */
static inline bool u128_bit(u128 x, unsigned bit)
{
    if (bit >= 128)
        return false;
    return bit >= 64 ? (x.high >> (bit - 64)) & 1u : (x.low >> bit) & 1u;
}

/* Whether any bit of x below `bit` is set. */
static inline bool u128_any_below(u128 x, unsigned bit)
{
    if (bit == 0)
        return false;
    if (bit >= 128)
        return !u128_is_zero(x);
    if (bit > 64)
        return x.low != 0 || (x.high & ((UINT64_C(1) << (bit - 64)) - 1u)) != 0;
    if (bit == 64)
        return x.low != 0;
    return (x.low & ((UINT64_C(1) << bit) - 1u)) != 0;
}

static inline u128 u128_add(u128 a, u128 b)
{
    u128 r;
    r.low = a.low + b.low;
    r.high = a.high + b.high + (r.low < a.low);
    return r;
}

/* a - b, for a >= b. */
static inline u128 u128_sub(u128 a, u128 b)
{
    u128 r;
    r.low = a.low - b.low;
    r.high = a.high - b.high - (a.low < b.low);
    return r;
}

static inline bool u128_less(u128 a, u128 b)
{
    return a.high != b.high ? a.high < b.high : a.low < b.low;
}

static inline u128 u128_from64(uint64_t x)
{
    u128 r = {0, x};
    return r;
}

static inline u128 u128_multiply(uint64_t a, uint64_t b)
{
    u128 r;
    datagen_multiply_64(a, b, &r.high, &r.low);
    return r;
}

/* ---- signed numbers: a sign and a magnitude times 2^exponent --------------- */

typedef struct term
{
    bool negative;
    uint64_t magnitude; /* odd, or 0 */
    int64_t exponent;
} term;

/* s = a + b (a sign and a 128-bit magnitude each); a sum that cancels is
 * +0. */
static inline void signed_add(bool a_negative, u128 a, bool b_negative, u128 b, bool *negative, u128 *sum)
{
    if (a_negative == b_negative)
    {
        *negative = a_negative;
        *sum = u128_add(a, b);
        return;
    }
    if (u128_less(a, b))
    {
        *negative = b_negative;
        *sum = u128_sub(b, a);
        return;
    }
    *sum = u128_sub(a, b);
    *negative = u128_is_zero(*sum) ? false : a_negative;
}

/* ---- the element type -------------------------------------------------------- */

typedef struct fixed_type
{
    dmlconf_data_type type;
    unsigned bytes;
    bool is_float;
    bool is_signed;
    int precision; /* floats: significand bits, hidden bit included */
    int emax;      /* floats: exponent of the largest binade */
    int qmin;      /* floats: exponent of the smallest subnormal */
    uint64_t inf_bits;
    uint64_t sign_bit;
    uint64_t max_positive; /* integers: the largest magnitude of a positive value */
    uint64_t max_negative; /* integers: the largest magnitude of a negative value (0: unsigned) */
} fixed_type;

static bool fixed_type_init(dmlconf_data_type type, fixed_type *t)
{
    memset(t, 0, sizeof(*t));
    t->type = type;
    switch (type)
    {
    case DMLCONF_DATA_TYPE_FLOAT32:
        t->is_float = true;
        t->bytes = 4;
        t->precision = 24;
        t->emax = 127;
        t->qmin = -149;
        break;
    case DMLCONF_DATA_TYPE_FLOAT16:
        t->is_float = true;
        t->bytes = 2;
        t->precision = 11;
        t->emax = 15;
        t->qmin = -24;
        break;
    case DMLCONF_DATA_TYPE_INT32:
        t->is_signed = true;
        t->bytes = 4;
        break;
    case DMLCONF_DATA_TYPE_UINT32:
        t->bytes = 4;
        break;
    case DMLCONF_DATA_TYPE_INT64:
        t->is_signed = true;
        t->bytes = 8;
        break;
    case DMLCONF_DATA_TYPE_UINT64:
        t->bytes = 8;
        break;
    case DMLCONF_DATA_TYPE_UNKNOWN:
    case DMLCONF_DATA_TYPE_UINT16:
    case DMLCONF_DATA_TYPE_UINT8:
    case DMLCONF_DATA_TYPE_INT16:
    case DMLCONF_DATA_TYPE_INT8:
    case DMLCONF_DATA_TYPE_FLOAT64:
    case DMLCONF_DATA_TYPE_UINT4:
    case DMLCONF_DATA_TYPE_INT4:
    default:
        return false;
    }
    unsigned bits = t->bytes * 8u;
    t->sign_bit = UINT64_C(1) << (bits - 1u);
    if (t->is_float)
    {
        unsigned exponent_bits = bits - (unsigned)t->precision;
        t->inf_bits = ((UINT64_C(1) << exponent_bits) - 1u) << (t->precision - 1);
    }
    else
    {
        t->max_positive = t->is_signed ? t->sign_bit - 1u : (bits == 64u ? UINT64_MAX : (UINT64_C(1) << bits) - 1u);
        t->max_negative = t->is_signed ? t->sign_bit : 0u;
    }
    return true;
}

static uint64_t load_le(const unsigned char *in, unsigned bytes)
{
    uint64_t value = 0;
    for (unsigned i = 0; i < bytes; ++i)
        value |= (uint64_t)in[i] << (8u * i);
    return value;
}

static inline void store_le(unsigned char *out, uint64_t value, unsigned bytes)
{
    switch (bytes)
    {
    case 2:
        out[0] = (unsigned char)value;
        out[1] = (unsigned char)(value >> 8);
        break;
    case 4:
        out[0] = (unsigned char)value;
        out[1] = (unsigned char)(value >> 8);
        out[2] = (unsigned char)(value >> 16);
        out[3] = (unsigned char)(value >> 24);
        break;
    default:
        for (unsigned i = 0; i < 8u; ++i)
            out[i] = (unsigned char)(value >> (8u * i));
        break;
    }
}

/* A term with its magnitude's trailing zero bits moved into the exponent. */
static term term_make(bool negative, uint64_t magnitude, int64_t exponent)
{
    term x = {negative, magnitude, magnitude ? exponent : 0};
    if (magnitude)
    {
        unsigned zeros = trailing_zeros64(magnitude);
        x.magnitude >>= zeros;
        x.exponent += zeros;
    }
    return x;
}

/* A finite float element or any integer element as a term. */
static term term_from_element(const fixed_type *t, const unsigned char *element)
{
    uint64_t raw = load_le(element, t->bytes);
    if (!t->is_float)
    {
        bool negative = t->is_signed && (raw & t->sign_bit);
        uint64_t value = negative ? (t->bytes == 8 ? (~raw) + 1u : ((~raw) + 1u) & (t->sign_bit * 2u - 1u)) : raw;
        return term_make(negative, value, 0);
    }
    bool negative = (raw & t->sign_bit) != 0;
    uint64_t hidden = UINT64_C(1) << (t->precision - 1);
    uint64_t field = (raw & ~t->sign_bit) >> (t->precision - 1);
    uint64_t fraction = raw & (hidden - 1u);
    if (field == 0)
        return term_make(negative, fraction, t->qmin);
    return term_make(negative, fraction | hidden, (int64_t)field - 1 + t->qmin);
}

/* ---- rounding ---------------------------------------------------------------------- */

/* Rounds (-1)^negative * m * 2^exponent to an element of t: floats to
 * nearest, ties to even, with subnormals (a zero keeps its sign: the
 * caller decides the sign of an exact zero); integers to the nearest
 * integer, ties to even. Returns false, leaving *bits alone, when the value
 * is out of the type's range (a float that would be infinite). */
static inline bool round_fixed(const fixed_type *t, bool negative, u128 m, int64_t exponent, uint64_t *bits)
{
    unsigned length = u128_bit_length(m);
    if (t->is_float)
    {
        uint64_t sign = negative ? t->sign_bit : 0u;
        if (length == 0)
        {
            *bits = sign;
            return true;
        }
        int64_t e = (int64_t)length - 1 + exponent;
        if (e > t->emax)
            return false;
        if (e <= t->qmin - 2)
        {
            *bits = sign; /* at most a quarter of the smallest subnormal */
            return true;
        }
        int64_t q = e - (t->precision - 1);
        if (q < t->qmin)
            q = t->qmin;
        int64_t drop = q - exponent;
        uint64_t kept;
        bool up = false;
        if (drop <= 0)
        {
            kept = u128_shift_left(m, (unsigned)-drop).low; /* exact: fewer than precision bits */
        }
        else
        {
            kept = u128_shift_right(m, (unsigned)drop).low;
            bool half = u128_bit(m, (unsigned)drop - 1u);
            up = half && (u128_any_below(m, (unsigned)drop - 1u) || (kept & 1u));
        }
        uint64_t result = ((uint64_t)(q - t->qmin) << (t->precision - 1)) + kept + (up ? 1u : 0u);
        if (result >= t->inf_bits)
            return false;
        *bits = result | sign;
        return true;
    }
    uint64_t value = 0;
    if (length != 0)
    {
        if ((int64_t)length - 1 + exponent >= 64)
            return false;
        if (exponent >= 0)
        {
            value = m.low << exponent;
        }
        else
        {
            unsigned drop = exponent < -200 ? 200u : (unsigned)-exponent;
            value = u128_shift_right(m, drop).low;
            bool half = u128_bit(m, drop - 1u);
            if (half && (u128_any_below(m, drop - 1u) || (value & 1u)))
            {
                if (value == UINT64_MAX)
                    return false;
                ++value;
            }
        }
    }
    if (value == 0)
        negative = false;
    if (negative ? value > t->max_negative : value > t->max_positive)
        return false;
    uint64_t encoded = negative ? (~value) + 1u : value;
    *bits = t->bytes == 8 ? encoded : encoded & (t->sign_bit * 2u - 1u);
    return true;
}

/* ---- the plan of one fill ------------------------------------------------------------ */

/* Every element is base + (-1)^s factor * v * 2^(factor_exponent) with v
 * from the element's stream, both terms aligned at `exponent`. */
typedef struct fixed_plan
{
    fixed_type t;
    const dmlconf_datagen_spec *spec;
    unsigned char base_element[8]; /* the base's own encoding: the result when the variable term is 0 */
    bool base_negative;
    u128 base;             /* the base, times 2^-exponent */
    uint64_t factor;       /* odd, or 0 */
    bool factor_negative;  /* iota: the step's sign */
    unsigned factor_shift; /* factor * v times 2^factor_shift is the variable term, times 2^-exponent */
    int64_t exponent;      /* E */
    uint64_t low, width;   /* integer draws: [low, low + width] (two's complement) */
    int64_t draw_exponent; /* integer draws: k * 2^draw_exponent */
    /* The double approximation (float types; `approximate` false: none):
     * v = base_double + factor_double * x, with x the variable as an exact
     * double, and |V - v| <= (slack + |factor_double * x| + |v|) 2^-53. */
    bool approximate;
    double base_double;
    double factor_double;
    double slack;
    double draw_scale; /* integer draws: 2^draw_exponent */
    /* Uniform float32 over [-2^k, 2^k]: every element is (w - 2^63) times
     * `scale` = 2^(k - 63) (scaled false: not such a fill). */
    bool scaled;
    float scale;
} fixed_plan;

/* 2^e as a double, for -1022 <= e <= 1023. */
static double power_of_two(int64_t e)
{
    uint64_t bits = (uint64_t)(e + 1023) << 52;
    double value;
    memcpy(&value, &bits, sizeof(value));
    return value;
}

/* The term as an exact double with its exponent moved by `shift`. Returns
 * false when it is not one (more than 53 bits, or beyond the normal
 * range). */
static bool term_double(term x, int64_t shift, double *out)
{
    if (x.magnitude == 0)
    {
        *out = x.negative ? -0.0 : 0.0;
        return true;
    }
    int64_t e = x.exponent + shift;
    if (bit_length64(x.magnitude) > 53 || e < -1000 || e + 64 > 1000)
        return false;
    double value = (double)x.magnitude * power_of_two(e);
    *out = x.negative ? -value : value;
    return true;
}

/* Sets up the double approximation of base + factor * v * 2^factor_shift
 * for floats (v an exact double below 2^53). */
static void plan_approximation(fixed_plan *plan, term base, term factor, int64_t factor_shift)
{
    plan->approximate = plan->t.is_float && term_double(base, 0, &plan->base_double) &&
                        term_double(factor, factor_shift, &plan->factor_double);
}

/* Largest bit length of an aligned term: two of them and a carry stay
 * below 2^128. */
#define TERM_BITS_LIMIT 126

/* Lays out base + factor * v * 2^factor_exponent with v < 2^variable_bits:
 * picks E, checks that both terms fit. Returns false when they do not. */
static bool plan_terms(fixed_plan *plan, term base, term factor, int64_t factor_exponent, unsigned variable_bits)
{
    plan->base_negative = base.negative;
    plan->factor = factor.magnitude;
    plan->factor_negative = factor.negative;
    int64_t variable_exponent = factor.exponent + factor_exponent;
    int64_t e = variable_exponent;
    if (base.magnitude && base.exponent < e)
        e = base.exponent;
    plan->exponent = e;
    int64_t factor_shift = variable_exponent - e;
    int64_t base_shift = base.magnitude ? base.exponent - e : 0;
    if (factor_shift > TERM_BITS_LIMIT || base_shift > TERM_BITS_LIMIT)
        return false;
    if (bit_length64(factor.magnitude) + variable_bits + (unsigned)factor_shift > TERM_BITS_LIMIT)
        return false;
    if (bit_length64(base.magnitude) + (unsigned)base_shift > TERM_BITS_LIMIT)
        return false;
    plan->factor_shift = (unsigned)factor_shift;
    plan->base = u128_shift_left(u128_from64(base.magnitude), (unsigned)base_shift);
    return true;
}

/* The float uniform plan: base min, factor max - min (exact), v = w_0,
 * times 2^-64. */
static bool plan_uniform_float(fixed_plan *plan)
{
    const fixed_type *t = &plan->t;
    term low = term_from_element(t, plan->spec->min);
    term high = term_from_element(t, plan->spec->max);
    /* max - min, exactly, aligned at the smaller exponent. */
    int64_t e = high.exponent;
    if (low.magnitude && (!high.magnitude || low.exponent < e))
        e = low.exponent;
    int64_t low_shift = low.magnitude ? low.exponent - e : 0;
    int64_t high_shift = high.magnitude ? high.exponent - e : 0;
    if (low_shift > 64 || high_shift > 64)
        return false;
    u128 a = u128_shift_left(u128_from64(low.magnitude), (unsigned)low_shift);
    u128 b = u128_shift_left(u128_from64(high.magnitude), (unsigned)high_shift);
    bool negative;
    u128 range;
    signed_add(high.negative, b, !low.negative, a, &negative, &range);
    if (negative && !u128_is_zero(range))
        return false; /* min > max: never after dmlconf_datagen_check */
    /* The range as an odd 64-bit factor times a power of two. */
    int64_t range_exponent = e;
    while (!u128_is_zero(range) && !(range.low & 1u))
    {
        range = u128_shift_right(range, 1);
        ++range_exponent;
    }
    if (range.high)
        return false;
    term factor = term_make(false, range.low, range_exponent);
    /* max - min = 2^(k + 1) and min = -2^k: the elements are integers
     * times 2^(k - 63), a normal float32 power of two for k >= -63. */
    if (t->bytes == 4u && factor.magnitude == 1u && low.negative && low.magnitude == 1u &&
        low.exponent == factor.exponent - 1 && factor.exponent - 64 >= -126)
    {
        uint32_t scale_bits = (uint32_t)(factor.exponent - 64 + 127) << 23;
        memcpy(&plan->scale, &scale_bits, sizeof(plan->scale));
        plan->scaled = true;
    }
    /* x = w >> 11 (53 bits): the 11 bits dropped cost less than
     * (max - min) 2^-53, the slack. */
    plan_approximation(plan, low, factor, -53);
    plan->slack = fabs(plan->factor_double) * 0x1p53;
    return plan_terms(plan, low, factor, -64, 64);
}

static bool plan_prepare(fixed_plan *plan)
{
    const dmlconf_datagen_spec *spec = plan->spec;
    const fixed_type *t = &plan->t;
    switch (spec->kind)
    {
    case DMLCONF_DATAGEN_UNIFORM:
        if (!t->is_float)
            return false;
        memcpy(plan->base_element, spec->min, t->bytes);
        return plan_uniform_float(plan);
    case DMLCONF_DATAGEN_INTEGERS:
    case DMLCONF_DATAGEN_DYADIC:
    {
        if (!t->is_float && spec->kind == DMLCONF_DATAGEN_INTEGERS)
            return false;
        /* The bounds are integers: the element itself for integer types,
         * the integer a float bound holds (checked) for float types. */
        term low = term_from_element(t, spec->min);
        term high = term_from_element(t, spec->max);
        if (low.exponent < 0 || high.exponent < 0 || bit_length64(low.magnitude) + (unsigned)low.exponent > 63 ||
            bit_length64(high.magnitude) + (unsigned)high.exponent > 63)
        {
            if (t->is_float)
                return false; /* not integral: dmlconf_datagen_check refuses it */
        }
        if (t->is_float)
        {
            uint64_t l = low.magnitude << low.exponent;
            uint64_t h = high.magnitude << high.exponent;
            plan->low = low.negative ? (~l) + 1u : l;
            plan->width = (high.negative ? (~h) + 1u : h) - plan->low;
        }
        else
        {
            plan->low = load_le(spec->min, t->bytes);
            if (t->is_signed && t->bytes == 4 && (plan->low & t->sign_bit))
                plan->low |= ~UINT64_C(0xffffffff);
            uint64_t max = load_le(spec->max, t->bytes);
            if (t->is_signed && t->bytes == 4 && (max & t->sign_bit))
                max |= ~UINT64_C(0xffffffff);
            plan->width = max - plan->low;
        }
        plan->draw_exponent = spec->kind == DMLCONF_DATAGEN_DYADIC ? -(int64_t)spec->scale : 0;
        /* k (at most 2^24 in magnitude) times a power of two is an exact
         * double. */
        plan->approximate = t->is_float && plan->draw_exponent >= -1000 && plan->draw_exponent <= 1000;
        if (plan->approximate)
            plan->draw_scale = power_of_two(plan->draw_exponent);
        return true;
    }
    case DMLCONF_DATAGEN_NORMAL:
    {
        memcpy(plan->base_element, spec->mean, t->bytes);
        term mean = term_from_element(t, spec->mean);
        term stddev = term_from_element(t, spec->stddev);
        stddev.negative = false; /* -0 at most (checked) */
        plan_approximation(plan, mean, stddev, -32);
        /* v = |sum - 6 * 2^32| <= 6 * 2^32 < 2^35, times 2^-32. */
        return plan_terms(plan, mean, stddev, -32, 35);
    }
    case DMLCONF_DATAGEN_IOTA:
    {
        if (!t->is_float)
            return false;
        unsigned char start[8] = {0};
        unsigned char step[8] = {0};
        if (spec->keys & DMLCONF_DATAGEN_KEY_START)
            memcpy(start, spec->start, sizeof(start));
        if (spec->keys & DMLCONF_DATAGEN_KEY_STEP)
            memcpy(step, spec->step, sizeof(step));
        else
            store_le(step, (uint64_t)(2 - t->qmin - t->precision) << (t->precision - 1), t->bytes); /* 1.0 */
        memcpy(plan->base_element, start, t->bytes);
        plan_approximation(plan, term_from_element(t, start), term_from_element(t, step), 0);
        return plan_terms(plan, term_from_element(t, start), term_from_element(t, step), 0, 64);
    }
    case DMLCONF_DATAGEN_WIDE:
    case DMLCONF_DATAGEN_CONSTANT:
    case DMLCONF_DATAGEN_SPECIALS:
    case DMLCONF_DATAGEN_NONE:
    default:
        return false;
    }
}

/* ---- elements ----------------------------------------------------------------------- */

/* The element that every value in [low, high] rounds to, when it is the
 * same normal, finite element for both ends; false otherwise. */
static inline bool decide(const fixed_type *t, double low, double high, unsigned char *out)
{
    if (t->bytes == 4)
    {
        float a = (float)low;
        float b = (float)high;
        uint32_t a_bits;
        uint32_t b_bits;
        memcpy(&a_bits, &a, sizeof(a_bits));
        memcpy(&b_bits, &b, sizeof(b_bits));
        uint32_t field = b_bits & 0x7f800000u;
        if (a_bits != b_bits || field == 0 || field == 0x7f800000u)
            return false;
        memcpy(out, &b_bits, sizeof(b_bits)); /* the host is little-endian, as the loader requires */
        return true;
    }
    uint16_t a_bits = dmlconf_half_from_double(low);
    uint16_t b_bits = dmlconf_half_from_double(high);
    uint16_t field = b_bits & 0x7c00u;
    if (a_bits != b_bits || field == 0 || field == 0x7c00u)
        return false;
    store_le(out, b_bits, 2);
    return true;
}

/* The double approximation of base + (-1)^negative factor * x: decides the
 * element into out, or returns false. */
static inline bool approximate_affine(const fixed_plan *plan, double x, unsigned char *out)
{
    double p = plan->factor_double * x;
    double v = plan->base_double + p;
    double err = (plan->slack + fabs(p) + fabs(v)) * 0x1p-51;
    return decide(&plan->t, v - err, v + err, out);
}

/* base + (-1)^negative factor * v (aligned), rounded into out. Returns false
 * when the result is out of range. */
static inline bool store_affine(const fixed_plan *plan, uint64_t v, bool v_negative, unsigned char *out)
{
    u128 product = u128_multiply(plan->factor, v);
    if (u128_is_zero(product))
    {
        memcpy(out, plan->base_element, plan->t.bytes);
        return true;
    }
    product = u128_shift_left(product, plan->factor_shift);
    bool negative;
    u128 sum;
    signed_add(plan->base_negative, plan->base, v_negative != plan->factor_negative, product, &negative, &sum);
    uint64_t bits;
    if (!round_fixed(&plan->t, negative, sum, plan->exponent, &bits))
        return false;
    store_le(out, bits, plan->t.bytes);
    return true;
}

/* k * 2^draw_exponent (exact by the checks). */
static inline bool store_draw(const fixed_plan *plan, uint64_t k, unsigned char *out)
{
    const fixed_type *t = &plan->t;
    if (!t->is_float && plan->draw_exponent == 0)
    {
        store_le(out, k, t->bytes);
        return true;
    }
    bool negative = (t->is_float || t->is_signed) && (k & UINT64_C(0x8000000000000000));
    uint64_t bits;
    if (!round_fixed(t, negative, u128_from64(negative ? (~k) + 1u : k), plan->draw_exponent, &bits))
        return false;
    store_le(out, bits, t->bytes);
    return true;
}

static inline bool fill_uniform(const fixed_plan *plan, uint64_t index, unsigned char *out)
{
    datagen_stream s;
    datagen_stream_init(&s, plan->spec->seed, index);
    if (plan->approximate && approximate_affine(plan, (double)(int64_t)(s.base >> 11), out))
        return true;
    return store_affine(plan, s.base, false, out);
}

static inline bool fill_normal(const fixed_plan *plan, uint64_t index, unsigned char *out)
{
    datagen_stream s;
    datagen_stream_init(&s, plan->spec->seed, index);
    uint64_t sum = 0;
    for (int i = 0; i < 6; ++i)
    {
        uint64_t word = datagen_stream_word(&s);
        sum += (word & UINT64_C(0xffffffff)) + (word >> 32);
    }
    uint64_t six = UINT64_C(6) << 32;
    bool below = sum < six;
    uint64_t offset = below ? six - sum : sum - six;
    if (plan->approximate && approximate_affine(plan, below ? -(double)offset : (double)offset, out))
        return true;
    return store_affine(plan, offset, below, out);
}

static inline bool fill_draw(const fixed_plan *plan, uint64_t index, unsigned char *out)
{
    datagen_stream s;
    datagen_stream_init(&s, plan->spec->seed, index);
    uint64_t k = datagen_stream_range(&s, plan->low, plan->width);
    if (plan->approximate)
    {
        /* Exact: low and high are the same value. */
        double value = (double)datagen_as_signed(k) * plan->draw_scale;
        if (decide(&plan->t, value, value, out))
            return true;
    }
    return store_draw(plan, k, out);
}

static inline void fill_iota(const fixed_plan *plan, uint64_t index, unsigned char *out)
{
    if (plan->approximate && index < (UINT64_C(1) << 53) && approximate_affine(plan, (double)index, out))
        return;
    if (store_affine(plan, index, false, out))
        return;
    /* Beyond the largest finite value: the infinity of the sum's sign. */
    u128 product = u128_shift_left(u128_multiply(plan->factor, index), plan->factor_shift);
    bool negative;
    u128 sum;
    signed_add(plan->base_negative, plan->base, plan->factor_negative, product, &negative, &sum);
    store_le(out, plan->t.inf_bits | (negative ? plan->t.sign_bit : 0u), plan->t.bytes);
}

/* Elements of a float32 fill decided together in double arithmetic. */
#define BLOCK_ELEMENTS 64u

/* Decides count <= BLOCK_ELEMENTS float32 elements from their variables
 * x[k] (BLOCK_ELEMENTS of them, those past count ignored) as
 * approximate_affine and decide would, one by one: writes every element's
 * candidate bits to out and sets decided[k]; returns whether all
 * BLOCK_ELEMENTS were (false leaves the first count to look at). The same
 * double and float operations in the same order, element by
 * element, so the same bits; written as float comparisons over a block so
 * that the compiler vectorises them: equal floats whose magnitude lies in
 * [FLT_MIN, FLT_MAX] are equal normal values, the same bits (decide's equal
 * bits with a field neither 0 nor 255). */
static bool approximate_affine_f32_block(const fixed_plan *plan, const double *x, size_t count, unsigned char *out,
                                         int32_t *decided)
{
    float high[BLOCK_ELEMENTS];
    double base = plan->base_double, factor = plan->factor_double, slack = plan->slack;
    int32_t all = 1;
    /* Over the whole block (x beyond count is ignored), a constant length. */
    for (size_t k = 0; k < BLOCK_ELEMENTS; ++k)
    {
        double p = factor * x[k];
        double v = base + p;
        double err = (slack + fabs(p) + fabs(v)) * 0x1p-51;
        float a = (float)(v - err);
        float b = (float)(v + err);
        float magnitude = fabsf(b);
        decided[k] = (int32_t)(a == b) & (int32_t)(magnitude >= FLT_MIN) & (int32_t)(magnitude <= FLT_MAX);
        all &= decided[k];
        high[k] = b;
    }
    memcpy(out, high, count * sizeof(*high)); /* the host is little-endian, as the loader requires */
    return all != 0;
}

/* A uniform float32 fill with the double approximation, a block at a time:
 * the random words and their variables, the block decided at once, and
 * every element it left undecided rounded from the fixed-point value. */
static void fill_uniform_f32(const fixed_plan *plan, uint64_t first_index, uint64_t count, unsigned char *bytes)
{
    double x[BLOCK_ELEMENTS];
    int32_t decided[BLOCK_ELEMENTS];
    for (uint64_t first = 0; first < count; first += BLOCK_ELEMENTS)
    {
        size_t block = count - first < BLOCK_ELEMENTS ? (size_t)(count - first) : BLOCK_ELEMENTS;
        if (block < BLOCK_ELEMENTS)
            memset(x, 0, sizeof(x));
        for (size_t k = 0; k < block; ++k)
        {
            datagen_stream s;
            datagen_stream_init(&s, plan->spec->seed, first_index + first + k);
            x[k] = (double)(int64_t)(s.base >> 11);
        }
        unsigned char *out = bytes + first * 4u;
        if (approximate_affine_f32_block(plan, x, block, out, decided))
            continue;
        for (size_t k = 0; k < block; ++k)
        {
            if (decided[k])
                continue;
            uint64_t index = first_index + first + k;
            datagen_stream s;
            datagen_stream_init(&s, plan->spec->seed, index);
            if (!store_affine(plan, s.base, false, out + k * 4u))
                datagen_fill_exact(plan->spec, index, 1, out + k * 4u); /* never after the checks */
        }
    }
}

/* A uniform float32 fill over [-2^k, 2^k] (plan->scaled): each element
 * (w - 2^63) 2^(k - 63), the integer rounded once by the conversion and
 * scaled exactly. */
static void fill_uniform_f32_scaled(const fixed_plan *plan, uint64_t first_index, uint64_t count, unsigned char *bytes)
{
    const float scale = plan->scale;
    const uint64_t seed = plan->spec->seed;
    for (uint64_t i = 0; i < count; ++i)
    {
        datagen_stream s;
        datagen_stream_init(&s, seed, first_index + i);
        float value = (float)datagen_as_signed(s.base ^ (UINT64_C(1) << 63)) * scale;
        memcpy(bytes + i * 4u, &value, sizeof(value)); /* the host is little-endian, as the loader requires */
    }
}

bool datagen_fill_fixed(const dmlconf_datagen_spec *spec, uint64_t first_index, uint64_t count, void *out)
{
    fixed_plan plan;
    memset(&plan, 0, sizeof(plan));
    plan.spec = spec;
    if (!fixed_type_init(spec->type, &plan.t) || !plan_prepare(&plan))
        return false;
    unsigned char *bytes = out;
    unsigned size = plan.t.bytes;
    /* One loop per generator, so that each inlines its own element. */
    switch (spec->kind)
    {
    case DMLCONF_DATAGEN_UNIFORM:
        if (plan.scaled)
        {
            fill_uniform_f32_scaled(&plan, first_index, count, bytes);
            return true;
        }
        if (plan.approximate && size == 4u)
        {
            fill_uniform_f32(&plan, first_index, count, bytes);
            return true;
        }
        for (uint64_t i = 0; i < count; ++i)
            if (!fill_uniform(&plan, first_index + i, bytes + i * size))
                datagen_fill_exact(spec, first_index + i, 1, bytes + i * size); /* never after the checks */
        return true;
    case DMLCONF_DATAGEN_NORMAL:
        for (uint64_t i = 0; i < count; ++i)
            if (!fill_normal(&plan, first_index + i, bytes + i * size))
                datagen_fill_exact(spec, first_index + i, 1, bytes + i * size);
        return true;
    case DMLCONF_DATAGEN_INTEGERS:
    case DMLCONF_DATAGEN_DYADIC:
        for (uint64_t i = 0; i < count; ++i)
            if (!fill_draw(&plan, first_index + i, bytes + i * size))
                datagen_fill_exact(spec, first_index + i, 1, bytes + i * size);
        return true;
    case DMLCONF_DATAGEN_IOTA:
        for (uint64_t i = 0; i < count; ++i)
            fill_iota(&plan, first_index + i, bytes + i * size);
        return true;
    case DMLCONF_DATAGEN_WIDE:
    case DMLCONF_DATAGEN_CONSTANT:
    case DMLCONF_DATAGEN_SPECIALS:
    case DMLCONF_DATAGEN_NONE:
    default:
        return false;
    }
}
