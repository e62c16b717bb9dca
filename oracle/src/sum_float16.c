/*
 * Exact float16 prefix sums. Every finite binary16 value is an integer
 * multiple of 2^-24 below 2^16 in magnitude (below 2^40 units), so the
 * running sum is kept exactly as an integer count of 2^-24 units and each
 * prefix is rounded straight from that integer to binary16 (never through
 * float, which would round twice).
 *
 * An int64_t holds the sum of 2^22 terms with room to spare (below 2^62).
 * Longer lines go in blocks of 2^22 terms: a block starts in int64_t while
 * the sum so far is below 2^62 in magnitude, and otherwise (only a sum far
 * beyond the float16 range gets there) runs on a two-word 128-bit sum.
 * Inside a block, runs of CHUNK finite terms are summed in a serial pass and
 * rounded in a second pass that the compiler can vectorise; a run holding a
 * NaN or an infinity, or starting beyond 2^50 units, goes one element at a
 * time. A leading run of -0 terms gives -0; after it an exact zero is +0.
 */
#include "line_kernels.h"

#include <math.h>
#include <string.h>

#define HALF_BLOCK (UINT64_C(1) << 22)
#define HALF_INF   0x7c00u
#define HALF_NAN   0x7e00u
#define HALF_SIGN  0x8000u
#define FAST_LIMIT (INT64_C(1) << 62)
/* Elements per block of the chunked path, and the bound on the sum at the
 * start of a block that keeps every prefix in it below 2^51 units. */
#define CHUNK       32
#define CHUNK_LIMIT (INT64_C(1) << 50)

/* Decoding a half h: with idx = h >> 10 (sign and exponent field), the
 * value is (mantissa | half_implicit[idx]) * half_scale[idx] units of 2^-24:
 * the implicit bit for normal numbers, and +-2^(exponent - 1) (+-1 for
 * subnormals). Entries 31 and 63 (Inf and NaN) are never used. */
/* clang-format off */
static const int64_t half_scale[64] = {
    1, 1, 2, 4, 8, 16, 32, 64,
    128, 256, 512, 1024, 2048, 4096, 8192, 16384,
    32768, 65536, 131072, 262144, 524288, 1048576, 2097152, 4194304,
    8388608, 16777216, 33554432, 67108864, 134217728, 268435456, 536870912, 1073741824,
    -1, -1, -2, -4, -8, -16, -32, -64,
    -128, -256, -512, -1024, -2048, -4096, -8192, -16384,
    -32768, -65536, -131072, -262144, -524288, -1048576, -2097152, -4194304,
    -8388608, -16777216, -33554432, -67108864, -134217728, -268435456, -536870912, -1073741824,
};
static const uint32_t half_implicit[64] = {
    0, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400,
    0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400,
    0, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400,
    0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400, 0x400,
};
/* clang-format on */

/* The finite half `h` in units of 2^-24 (branch-free: signs and exponents
 * of random data would defeat the branch predictor). */
static inline int64_t half_units(uint16_t h)
{
    uint32_t idx = (uint32_t)h >> 10;
    return (int64_t)((h & 0x3ffu) | half_implicit[idx]) * half_scale[idx];
}

/* The binary16 encoding (without sign) of a * 2^-24 rounded to nearest
 * even, for a = |units| as a double (exact below 2^53; above, the value is
 * far past the half range and stays there).
 *
 * z = a * 2^-1032 is the value scaled by 2^-1008, which moves binary16's
 * exponent range onto the bottom of double's: a normal half's binade becomes
 * a normal double binade with the half's biased exponent, and the subnormal
 * halves (below 2^10 units) become subnormal doubles whose bit patterns are
 * exactly a << 42. Either way the half's encoding is z's bits rounded to
 * nearest even at bit 42, shifted down; a carry out of the fraction steps
 * the exponent as it should. z is clamped to 2^-992 (65536, whose encoding
 * is Inf, 0x7c00) first, and everything from 65520 on rounds up to it. The
 * scaling is two multiplications by 2^-516 because 2^-1032 itself is
 * subnormal, and a subnormal operand on every element is slow on some
 * processors (a subnormal result, for the subnormal halves, is rarer). Plain
 * arithmetic and bit operations, so that the compiler can vectorise it. */
static inline uint16_t encode_magnitude(double a)
{
    double z = (a * 0x1p-516) * 0x1p-516;
    z = z < 0x1p-992 ? z : 0x1p-992;
    uint64_t bits;
    memcpy(&bits, &z, sizeof(bits));
    return (uint16_t)((bits + UINT64_C(0x1ffffffffff) + ((bits >> 42) & 1u)) >> 42);
}

/* Rounds units * 2^-24 to binary16 (RNE, subnormals kept, overflow to Inf
 * at 65520); an exact zero gives +0. */
static inline uint16_t round_units(int64_t units)
{
    uint32_t sign = (uint32_t)((uint64_t)units >> 48) & HALF_SIGN;
    return (uint16_t)(sign | encode_magnitude(fabs((double)units)));
}

/* A two-word (128-bit two's complement) sum for blocks that start too far
 * out for int64_t. */
typedef struct wide_sum
{
    uint64_t low;
    uint64_t high;
} wide_sum;

static void wide_add(wide_sum *w, int64_t x)
{
    uint64_t x_low = (uint64_t)x;
    uint64_t x_high = x < 0 ? UINT64_MAX : 0u;
    uint64_t low = w->low + x_low;
    w->high += x_high + (low < w->low ? 1u : 0u);
    w->low = low;
}

/* True (with *out set) when the wide sum fits in (-2^62, 2^62). */
static bool wide_small(const wide_sum *w, int64_t *out)
{
    if (w->high == 0 && w->low < (uint64_t)FAST_LIMIT)
    {
        *out = (int64_t)w->low;
        return true;
    }
    if (w->high == UINT64_MAX && w->low > (uint64_t)0 - (uint64_t)FAST_LIMIT)
    {
        *out = -(int64_t)((uint64_t)0 - w->low);
        return true;
    }
    return false;
}

static void wide_set(wide_sum *w, int64_t x)
{
    w->low = (uint64_t)x;
    w->high = x < 0 ? UINT64_MAX : 0u;
}

static uint16_t round_wide(const wide_sum *w)
{
    int64_t small;
    if (wide_small(w, &small))
        return round_units(small);
    /* At least 2^62 units: far beyond the largest finite half. */
    return (uint16_t)((w->high >> 63) ? (HALF_SIGN | HALF_INF) : HALF_INF);
}

static uint16_t special_sum(uint32_t specials)
{
    bool pos = (specials & DMLCONF_SPECIAL_POS_INF) != 0;
    bool neg = (specials & DMLCONF_SPECIAL_NEG_INF) != 0;
    if ((specials & DMLCONF_SPECIAL_NAN) || (pos && neg))
        return HALF_NAN;
    return (uint16_t)(pos ? HALF_INF : (HALF_SIGN | HALF_INF));
}

static uint32_t special_of(uint16_t h)
{
    if (h & 0x3ffu)
        return DMLCONF_SPECIAL_NAN;
    return (h & HALF_SIGN) ? DMLCONF_SPECIAL_NEG_INF : DMLCONF_SPECIAL_POS_INF;
}

/* Once a special value is in the prefix, only the set of specials matters
 * (walk->specials gathers them). */
static void special_tail(sum_f16_walk *walk, size_t n, const uint16_t *in, uint16_t *out)
{
    uint32_t specials = walk->specials;
    for (size_t i = 0; i < n; ++i)
    {
        if ((in[i] & HALF_INF) == HALF_INF)
            specials |= special_of(in[i]);
        out[i] = special_sum(specials);
    }
    walk->specials = specials;
}

/* True when one of the CHUNK halves is an Inf or a NaN. */
static bool chunk_has_special(const uint16_t *in)
{
    unsigned special = 0;
    for (int k = 0; k < CHUNK; ++k)
        special |= (in[k] & HALF_INF) == HALF_INF;
    return special != 0;
}

/* CHUNK finite halves added to units (|units| < CHUNK_LIMIT): a serial pass
 * keeps the prefix sums, and a second pass, which the compiler can
 * vectorise, rounds them as round_units does. Below 2^51 an int64_t
 * converts to double exactly by adding the bits of 1.5 * 2^52 to it and
 * subtracting 1.5 * 2^52 as doubles, which vectorises where a direct
 * conversion would not. Returns the new sum. */
static int64_t sum_chunk(int64_t units, const uint16_t *in, uint16_t *out)
{
    int64_t prefix[CHUNK];
    for (int k = 0; k < CHUNK; ++k)
    {
        units += half_units(in[k]);
        prefix[k] = units;
    }
    for (int k = 0; k < CHUNK; ++k)
    {
        uint64_t biased = (uint64_t)prefix[k] + UINT64_C(0x4338000000000000);
        double d;
        memcpy(&d, &biased, sizeof(d));
        uint32_t sign = (uint32_t)((uint64_t)prefix[k] >> 48) & HALF_SIGN;
        out[k] = (uint16_t)(sign | encode_magnitude(fabs(d - 0x1.8p52)));
    }
    return units;
}

/* Sums in[0 .. n-1] onto *sum (in int64_t; |*sum| < 2^62 and n <= 2^22, so
 * no overflow) and writes the rounded prefixes. Returns the number of
 * elements done: n, or the index of the first non-finite element. */
static size_t sum_block_fast(size_t n, const uint16_t *in, uint16_t *out, int64_t *sum)
{
    int64_t units = *sum;
    size_t i = 0;
    while (i < n)
    {
        size_t end = n - i >= CHUNK ? i + CHUNK : n;
        if (end - i == CHUNK && units < CHUNK_LIMIT && units > -CHUNK_LIMIT && !chunk_has_special(in + i))
        {
            units = sum_chunk(units, in + i, out + i);
            i = end;
            continue;
        }
        for (; i < end; ++i)
        {
            uint16_t h = in[i];
            if ((h & HALF_INF) == HALF_INF)
            {
                *sum = units;
                return i;
            }
            units += half_units(h);
            out[i] = round_units(units);
        }
    }
    *sum = units;
    return n;
}

static size_t sum_block_wide(size_t n, const uint16_t *in, uint16_t *out, wide_sum *sum)
{
    size_t i = 0;
    for (; i < n; ++i)
    {
        uint16_t h = in[i];
        if ((h & HALF_INF) == HALF_INF)
            break;
        wide_add(sum, half_units(h));
        out[i] = round_wide(sum);
    }
    return i;
}

void oracle_sum_f16_init(sum_f16_walk *walk)
{
    walk->low = 0;
    walk->high = 0;
    walk->leading_zero = true;
    walk->special = false;
    walk->specials = 0;
}

/* The next n elements of the line (see the file comment; line_kernels.h for the
 * contract). Never fails, allocates nothing. */
void oracle_sum_f16_next(sum_f16_walk *walk, size_t n, const uint16_t *in, uint16_t *out)
{
    if (walk->special)
    {
        special_tail(walk, n, in, out);
        return;
    }
    /* A leading run of -0 terms sums to -0; after it a zero sum is +0. */
    size_t i = 0;
    if (walk->leading_zero)
    {
        while (i < n && in[i] == HALF_SIGN)
            out[i++] = HALF_SIGN;
        if (i < n)
            walk->leading_zero = false;
    }

    wide_sum total = {walk->low, walk->high};
    while (i < n)
    {
        size_t block = n - i < HALF_BLOCK ? n - i : (size_t)HALF_BLOCK;
        size_t done;
        int64_t small;
        if (wide_small(&total, &small))
        {
            done = sum_block_fast(block, in + i, out + i, &small);
            wide_set(&total, small);
        }
        else
        {
            done = sum_block_wide(block, in + i, out + i, &total);
        }
        i += done;
        if (done < block)
        {
            walk->special = true;
            walk->specials = special_of(in[i]);
            out[i] = special_sum(walk->specials);
            special_tail(walk, n - i - 1, in + i + 1, out + i + 1);
            break;
        }
    }
    walk->low = total.low;
    walk->high = total.high;
}

/* ---- segment summaries ------------------------------------------------------ */

void oracle_sum_f16_summary_init(sum_f16_summary *s)
{
    s->low = 0;
    s->high = 0;
    s->all_negative_zero = true;
    s->specials = 0;
}

void oracle_sum_f16_summary_add(sum_f16_summary *s, size_t n, const uint16_t *in)
{
    wide_sum total = {s->low, s->high};
    for (size_t i = 0; i < n; ++i)
    {
        uint16_t h = in[i];
        s->all_negative_zero = s->all_negative_zero && h == HALF_SIGN;
        if ((h & HALF_INF) == HALF_INF)
            s->specials |= special_of(h);
        else
            wide_add(&total, half_units(h));
    }
    s->low = total.low;
    s->high = total.high;
}

void oracle_sum_f16_summary_combine(sum_f16_summary *into, const sum_f16_summary *next)
{
    uint64_t low = into->low + next->low;
    into->high += next->high + (low < into->low ? 1u : 0u);
    into->low = low;
    into->all_negative_zero = into->all_negative_zero && next->all_negative_zero;
    into->specials |= next->specials;
}

uint16_t oracle_sum_f16_resume(sum_f16_walk *walk, const sum_f16_summary *prefix, bool empty)
{
    oracle_sum_f16_init(walk);
    if (empty)
        return 0; /* the identity: +0 */
    walk->low = prefix->low;
    walk->high = prefix->high;
    walk->leading_zero = prefix->all_negative_zero;
    walk->special = prefix->specials != 0;
    walk->specials = prefix->specials;
    if (walk->special)
        return special_sum(prefix->specials);
    if (prefix->all_negative_zero)
        return HALF_SIGN;
    wide_sum total = {prefix->low, prefix->high};
    return round_wide(&total);
}
