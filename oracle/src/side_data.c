/*
 * Side data for the comparator: per output element, facts about the prefix
 * of terms it combines (see dmlconf_side_data). Every function walks the
 * line once, O(1) per element, and allocates nothing.
 */
#include "line_kernels.h"

#include <math.h>
#include <string.h>

/* INFINITY is a float constant; these are the doubles. */
#define POS_INF ((double)INFINITY)
#define NEG_INF (-(double)INFINITY)

/* One input term, decoded. */
typedef struct term
{
    uint32_t special;     /* DMLCONF_SPECIAL_* of the term itself (0: finite, nonzero) */
    int32_t lsb_exponent; /* exponent of the last significant bit (nonzero finite) */
    uint32_t odd_bits;    /* bit width of the significand's odd part (nonzero finite) */
    double value;         /* the value (finite terms) */
} term;

static int lowest_bit(uint32_t x)
{
#if defined(__GNUC__)
    return __builtin_ctz(x);
#else
    int p = 0;
    while (!(x & 1u))
    {
        x >>= 1;
        ++p;
    }
    return p;
#endif
}

static uint32_t bit_width(uint32_t x)
{
#if defined(__GNUC__)
    return x ? 32u - (uint32_t)__builtin_clz(x) : 0u;
#else
    uint32_t width = 0;
    while (x)
    {
        x >>= 1;
        ++width;
    }
    return width;
#endif
}

/* Decodes an IEEE value given its fields: significand field `mantissa` of
 * `mantissa_bits` bits, biased exponent, all-ones exponent `max_biased` and
 * the exponent of the lsb of a biased-1 value `min_lsb`. */
static term decode(bool negative, uint32_t biased, uint32_t mantissa, uint32_t mantissa_bits, uint32_t max_biased,
                   int32_t min_lsb, double value)
{
    term t;
    t.lsb_exponent = INT32_MAX;
    t.odd_bits = 0;
    t.value = value;
    if (biased == max_biased)
    {
        if (mantissa)
            t.special = DMLCONF_SPECIAL_NAN;
        else
            t.special = negative ? DMLCONF_SPECIAL_NEG_INF : DMLCONF_SPECIAL_POS_INF;
        return t;
    }
    uint32_t significand = biased != 0 ? (mantissa | (UINT32_C(1) << mantissa_bits)) : mantissa;
    if (significand == 0)
    {
        t.special = DMLCONF_SPECIAL_ZERO;
        return t;
    }
    t.special = 0;
    int shift = lowest_bit(significand);
    int32_t scale = biased != 0 ? (int32_t)biased - 1 : 0;
    t.lsb_exponent = min_lsb + scale + shift;
    t.odd_bits = bit_width(significand >> shift);
    return t;
}

static term decode_f32(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof(bits));
    return decode((bits >> 31) != 0, (bits >> 23) & 0xffu, bits & 0x7fffffu, 23, 0xffu, -149, (double)x);
}

static term decode_f16(uint16_t h)
{
    return decode((h >> 15) != 0, (h >> 10) & 0x1fu, h & 0x3ffu, 10, 0x1fu, -24, (double)dmlconf_half_to_float(h));
}

static void side_empty(dmlconf_side_data *side)
{
    side->terms = 0;
    side->specials = 0;
    side->min_lsb_exponent = INT32_MAX;
    side->significand_bits = 0;
    side->abs_sum = 0.0;
    side->log2_max_partial = NEG_INF;
    side->log2_min_partial = POS_INF;
}

/* a + x rounded up, for finite a, x >= 0: the TwoSum remainder says whether
 * the nearest double is below the exact sum, and then the next double up is
 * taken (without a branch: which way it goes is random on random data).
 * Exact whenever the sum is a double. */
static inline double add_round_up(double a, double x)
{
    double sum = a + x;
    double x_part = sum - a;
    double error = (a - (sum - x_part)) + (x - x_part);
    uint64_t bits;
    memcpy(&bits, &sum, sizeof(bits));
    bits += error > 0.0 ? 1u : 0u;
    memcpy(&sum, &bits, sizeof(sum));
    return sum;
}

static void walk_init(dmlconf_side_walk *w)
{
    side_empty(&w->current);
    w->have_finite = false;
    w->ending_max = NEG_INF;
    w->ending_min = POS_INF;
    w->settled = false;
}

static void absorb_common(dmlconf_side_walk *w, const term *t)
{
    ++w->current.terms;
    w->current.specials |= t->special;
    if (t->lsb_exponent < w->current.min_lsb_exponent)
        w->current.min_lsb_exponent = t->lsb_exponent;
}

static void absorb_sum(dmlconf_side_walk *w, const term *t)
{
    absorb_common(w, t);
    if (t->special == 0)
        w->current.abs_sum = add_round_up(w->current.abs_sum, fabs(t->value));
}

/* Kadane's running maximum and minimum over log2|x| of the finite terms
 * (non-finite terms are skipped). log2|0| = -Inf; the running values are
 * finite or -Inf, never +Inf, so no Inf - Inf (NaN) can arise. */
static void absorb_product(dmlconf_side_walk *w, const term *t)
{
    absorb_common(w, t);
    w->current.significand_bits += t->odd_bits;
    if (t->special & (DMLCONF_SPECIAL_NAN | DMLCONF_SPECIAL_POS_INF | DMLCONF_SPECIAL_NEG_INF))
        return;
    double l = t->special == DMLCONF_SPECIAL_ZERO ? NEG_INF : log2(fabs(t->value));
    if (!w->have_finite)
    {
        w->have_finite = true;
        w->ending_max = l;
        w->ending_min = l;
    }
    else
    {
        double extend_max = w->ending_max + l;
        w->ending_max = extend_max > l ? extend_max : l;
        double extend_min = w->ending_min + l;
        w->ending_min = extend_min < l ? extend_min : l;
    }
    if (w->ending_max > w->current.log2_max_partial)
        w->current.log2_max_partial = w->ending_max;
    if (w->ending_min < w->current.log2_min_partial)
        w->current.log2_min_partial = w->ending_min;
}

int dmlconf_side_walk_init(dmlconf_side_walk *walk, dmlconf_operator op, dmlconf_data_type type, bool exclusive,
                           dmlconf_error *err)
{
    if ((op != DMLCONF_OPERATOR_CUMULATIVE_SUMMATION && op != DMLCONF_OPERATOR_CUMULATIVE_PRODUCT) ||
        !dmlconf_data_type_is_computable(type))
    {
        oracle_set_error(err, "no side data for operator %d and data type %d", (int)op, (int)type);
        return -1;
    }
    walk->op = op;
    walk->type = type;
    walk->exclusive = exclusive;
    walk_init(walk);
    return 0;
}

/* A settled walk: terms, specials, lsb exponents and (products)
 * significand bits, as the full walk counts them; the magnitudes' fields
 * stay as they are. */
static void walk_settled(dmlconf_side_walk *w, size_t n, const void *in, dmlconf_side_data *side)
{
    bool product = w->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    bool half = w->type == DMLCONF_DATA_TYPE_FLOAT16;
    const float *f32 = in;
    const uint16_t *f16 = in;
    dmlconf_side_data current = w->current;
    for (size_t i = 0; i < n; ++i)
    {
        if (w->exclusive)
            side[i] = current;
        term t = half ? decode_f16(f16[i]) : decode_f32(f32[i]);
        ++current.terms;
        current.specials |= t.special;
        if (t.lsb_exponent < current.min_lsb_exponent)
            current.min_lsb_exponent = t.lsb_exponent;
        if (product)
            current.significand_bits += t.odd_bits;
        if (!w->exclusive)
            side[i] = current;
    }
    w->current = current;
}

/* float32 sums, the comparator's most common case: the same values as the
 * generic walk below, decoded with fewer branches. */
static void walk_sum_f32(dmlconf_side_walk *w, size_t n, const float *in, dmlconf_side_data *side)
{
    dmlconf_side_data current = w->current;
    bool exclusive = w->exclusive;
    for (size_t i = 0; i < n; ++i)
    {
        if (exclusive)
            side[i] = current;
        uint32_t bits;
        memcpy(&bits, &in[i], sizeof(bits));
        uint32_t field = (bits >> 23) & 0xffu;
        uint32_t significand = field ? (bits & 0x7fffffu) | 0x800000u : bits & 0x7fffffu;
        ++current.terms;
        if (field == 0xffu)
        {
            current.specials |= (bits & 0x7fffffu) ? DMLCONF_SPECIAL_NAN
                                : (bits >> 31)     ? DMLCONF_SPECIAL_NEG_INF
                                                   : DMLCONF_SPECIAL_POS_INF;
        }
        else if (significand == 0)
        {
            current.specials |= DMLCONF_SPECIAL_ZERO;
        }
        else
        {
            int32_t lsb = -149 + (int32_t)(field ? field - 1u : 0u) + lowest_bit(significand);
            current.min_lsb_exponent = lsb < current.min_lsb_exponent ? lsb : current.min_lsb_exponent;
            current.abs_sum = add_round_up(current.abs_sum, fabs((double)in[i]));
        }
        if (!exclusive)
            side[i] = current;
    }
    w->current = current;
}

void dmlconf_side_walk_next(dmlconf_side_walk *w, size_t n, const void *in, dmlconf_side_data *side)
{
    bool product = w->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    bool exclusive = w->exclusive;
    if (!dmlconf_data_type_is_float(w->type))
    {
        /* Integers: only the term count means anything. */
        for (size_t i = 0; i < n; ++i)
        {
            side[i] = w->current;
            side[i].terms += exclusive ? 0u : 1u;
            ++w->current.terms;
        }
        return;
    }
    if (w->settled)
    {
        walk_settled(w, n, in, side);
        return;
    }
    const float *f32 = in;
    const uint16_t *f16 = in;
    bool half = w->type == DMLCONF_DATA_TYPE_FLOAT16;
    if (!product && !half)
    {
        walk_sum_f32(w, n, f32, side);
        return;
    }
    for (size_t i = 0; i < n; ++i)
    {
        if (exclusive)
            side[i] = w->current;
        term t = half ? decode_f16(f16[i]) : decode_f32(f32[i]);
        if (product)
            absorb_product(w, &t);
        else
            absorb_sum(w, &t);
        if (!exclusive)
            side[i] = w->current;
    }
}

/* The whole-line entry points of line_kernels.h, as one walk each. */
static void walk_line(dmlconf_operator op, dmlconf_data_type type, bool exclusive, size_t n, const void *in,
                      dmlconf_side_data *side)
{
    dmlconf_side_walk w;
    if (dmlconf_side_walk_init(&w, op, type, exclusive, NULL) == 0)
        dmlconf_side_walk_next(&w, n, in, side);
}

void oracle_side_data_integer(bool exclusive, size_t n, dmlconf_side_data *side)
{
    walk_line(DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_UINT32, exclusive, n, NULL, side);
}

void oracle_side_data_sum_f32(bool exclusive, size_t n, const float *in, dmlconf_side_data *side)
{
    walk_line(DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, exclusive, n, in, side);
}

void oracle_side_data_sum_f16(bool exclusive, size_t n, const uint16_t *in, dmlconf_side_data *side)
{
    walk_line(DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT16, exclusive, n, in, side);
}

void oracle_side_data_product_f32(bool exclusive, size_t n, const float *in, dmlconf_side_data *side)
{
    walk_line(DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT32, exclusive, n, in, side);
}

void oracle_side_data_product_f16(bool exclusive, size_t n, const uint16_t *in, dmlconf_side_data *side)
{
    walk_line(DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT16, exclusive, n, in, side);
}
