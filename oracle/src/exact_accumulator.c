/*
 * The exact fixed-point accumulator (see exact_accumulator.h). Limb i holds
 * units of 2^(32 i - 149); normalised limbs are in [0, 2^32) except the top
 * one, which is signed, so the normalised limbs read as a 352-bit two's
 * complement number.
 */
#include "exact_accumulator.h"

#include "line_kernels.h"

#include <string.h>

/* Normalise before a limb could leave the int64_t range: an addition counts
 * once per 2^32 it may put into a limb, and from normalised limbs 2^30 such
 * counts stay below 2^62 + 2^32. */
#define EXACT_ACC_NORMALISE_EVERY (UINT32_C(1) << 30)

#define LIMB_MASK  INT64_C(0xffffffff)
#define LIMB_RADIX INT64_C(0x100000000)

static uint32_t f32_bits(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof(bits));
    return bits;
}

static uint64_t f64_bits(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof(bits));
    return bits;
}

static double f64_from_bits(uint64_t bits)
{
    double x;
    memcpy(&x, &bits, sizeof(x));
    return x;
}

/* 2^e as a double, for -1022 <= e <= 1023. */
static double pow2(int e)
{
    return f64_from_bits((uint64_t)(e + 1023) << 52);
}

static int highest_bit32(uint32_t x)
{
#if defined(__GNUC__)
    return 31 - __builtin_clz(x);
#else
    int p = 0;
    while (x >>= 1)
        ++p;
    return p;
#endif
}

static void normalise(exact_acc *acc)
{
    int64_t carry = 0;
    for (int i = 0; i < EXACT_ACC_LIMBS - 1; ++i)
    {
        int64_t v = acc->limb[i] + carry;
        int64_t low = v & LIMB_MASK;
        /* v - low is an exact multiple of 2^32, so the division is exact
         * (and avoids right-shifting a negative value). */
        carry = (v - low) / LIMB_RADIX;
        acc->limb[i] = low;
    }
    acc->limb[EXACT_ACC_LIMBS - 1] += carry;
    acc->adds = 0;
}

static void count_adds(exact_acc *acc, uint32_t count)
{
    acc->adds += count;
    if (acc->adds >= EXACT_ACC_NORMALISE_EVERY)
        normalise(acc);
}

/* Adds the float32 whose magnitude has bits `bits` (the sign bit is
 * ignored) with the sign `negative`. */
static void add_f32_bits(exact_acc *acc, uint32_t bits, bool negative)
{
    uint32_t biased = (bits >> 23) & 0xffu;
    uint32_t mantissa = bits & 0x7fffffu;
    if (biased == 0xffu)
    {
        /* `negative` is the sign of the value added: it decides the Inf. */
        if (mantissa != 0)
            acc->specials |= DMLCONF_SPECIAL_NAN;
        else
            acc->specials |= negative ? DMLCONF_SPECIAL_NEG_INF : DMLCONF_SPECIAL_POS_INF;
        return;
    }
    if (biased != 0)
        mantissa |= 0x800000u;
    /* x = mantissa * 2^(max(biased, 1) - 150): bit position from 2^-149. */
    uint32_t position = biased != 0 ? biased - 1u : 0u;
    uint64_t shifted = (uint64_t)mantissa << (position & 31u);
    int64_t low = (int64_t)(shifted & 0xffffffffu);
    int64_t high = (int64_t)(shifted >> 32);
    uint32_t index = position >> 5;
    if (negative)
    {
        acc->limb[index] -= low;
        acc->limb[index + 1] -= high;
    }
    else
    {
        acc->limb[index] += low;
        acc->limb[index + 1] += high;
    }
    count_adds(acc, 1);
}

/* Sets *acc to exact zero with no specials (see exact_accumulator.h). */
void exact_acc_init(exact_acc *acc)
{
    memset(acc, 0, sizeof(*acc));
}

/* Adds x exactly; a NaN or an infinity is only recorded. */
void exact_acc_add_f32(exact_acc *acc, float x)
{
    uint32_t bits = f32_bits(x);
    add_f32_bits(acc, bits, (bits >> 31) != 0);
}

/* ---- arrays ------------------------------------------------------------------ */

/* Elements of a block that the array addition first tries to sum in one
 * double, and how many exponent fields below the block's largest its
 * elements may be for that: see block_sum. */
#define BLOCK_ELEMENTS 256u
#define BLOCK_FIELDS   21u
/* Elements of the exponent bins between two flushes into the limbs (a bin's
 * double holds the sum of up to 2^29 of its elements exactly). */
#define BINS_ELEMENTS (UINT32_C(1) << 20)

/* Sums a block of BLOCK_ELEMENTS elements into *sum when that is exact in
 * a double, and says whether it was.
 *
 * Let F be the largest exponent field of the block and m the smallest of
 * max(field, 1) over its elements that are not zero. Every element is an
 * integer multiple of u = 2^(m - 150) (a field f >= 1 gives multiples of
 * 2^(f - 150), the subnormals of 2^-149) below 2^(F - 126) in magnitude, so
 * below 2^(24 + F - m) u. When F - m <= BLOCK_FIELDS (21) and there is no NaN
 * or infinity (F < 255), that is 2^45 u, and any sum of at most 256 = 2^8
 * elements, every partial sum in any order included, is an integer multiple
 * of u below 2^53 u: a double, so every addition is exact. Zeros are
 * multiples of everything. The sum is a multiple of 2^-149 below 2^136, as
 * exact_acc_add_f64 needs. The first loop only reads the bit patterns, the
 * second only adds, both over a constant length: plain enough for the
 * compiler to vectorise. */
static bool block_sum(const float *x, double *sum)
{
    /* Over the magnitudes' bit patterns (below 2^31, so signed compares
     * order them): the largest, which has the largest field; and the
     * smallest of the patterns less 1, where a zero's wraps to the largest
     * pattern and so never counts: its field is the smallest nonzero
     * magnitude's, or one less when that magnitude is a power of two (m
     * taken one smaller only makes the test stricter, never wrong); and
     * whether any is a NaN or an infinity. */
    int32_t top = 0, bottom = INT32_MAX, special = 0;
    for (size_t i = 0; i < BLOCK_ELEMENTS; ++i)
    {
        uint32_t bits;
        memcpy(&bits, &x[i], sizeof(bits));
        int32_t magnitude = (int32_t)(bits & 0x7fffffffu);
        int32_t below = (int32_t)((bits - 1u) & 0x7fffffffu);
        special |= magnitude > 0x7f7fffff;
        top = magnitude > top ? magnitude : top;
        bottom = below < bottom ? below : bottom;
    }
    uint32_t top_field = (uint32_t)top >> 23, bottom_field = (uint32_t)bottom >> 23;
    if (bottom == INT32_MAX)
        bottom_field = 0xffu; /* no nonzero element */
    else if (bottom_field < 1u)
        bottom_field = 1u;
    if (special || (top_field > bottom_field && top_field - bottom_field > BLOCK_FIELDS))
        return false;
    /* Eight partial sums in variables, so that they stay in registers
     * (pairs of them in vector registers). */
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, s5 = 0.0, s6 = 0.0, s7 = 0.0;
    for (size_t i = 0; i < BLOCK_ELEMENTS; i += 8u)
    {
        s0 += (double)x[i];
        s1 += (double)x[i + 1u];
        s2 += (double)x[i + 2u];
        s3 += (double)x[i + 3u];
        s4 += (double)x[i + 4u];
        s5 += (double)x[i + 5u];
        s6 += (double)x[i + 6u];
        s7 += (double)x[i + 7u];
    }
    *sum = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    return true;
}

/* Exponent bins for the blocks that block_sum cannot take: every float32
 * with field e is a multiple of 2^(max(e, 1) - 150) below 2^24 such units,
 * so a double holds the sum of up to 2^29 of them exactly. Four sets of
 * bins take turns, so that neighbouring elements of one magnitude do not
 * wait on each other's additions. A NaN or an infinity adds 0 to its bin
 * and is recorded in the accumulator. */
typedef struct exponent_bins
{
    double bins[4][256];
    uint32_t elements; /* added since the last flush (0: the bins are not cleared yet) */
} exponent_bins;

static void bins_flush(exact_acc *acc, exponent_bins *b)
{
    for (int set = 0; set < 4; ++set)
        for (int field = 0; field < 255; ++field)
            if (b->bins[set][field] != 0.0)
                exact_acc_add_f64(acc, b->bins[set][field]);
    b->elements = 0;
}

static void bins_add(exact_acc *acc, exponent_bins *b, size_t count, const float *x)
{
    if (b->elements == 0)
        memset(b->bins, 0, sizeof(b->bins));
    uint32_t special = 0;
    for (size_t i = 0; i < count; ++i)
    {
        float value = x[i];
        uint32_t bits = f32_bits(value);
        uint32_t field = (bits >> 23) & 0xffu;
        uint32_t finite = field != 0xffu;
        special |= finite ^ 1u;
        b->bins[i % 4u][field] += finite ? (double)value : 0.0;
    }
    if (special)
    {
        for (size_t i = 0; i < count; ++i)
        {
            uint32_t bits = f32_bits(x[i]);
            if ((bits & 0x7f800000u) == 0x7f800000u)
                acc->specials |= (bits & 0x7fffffu)  ? DMLCONF_SPECIAL_NAN
                                 : (bits >> 31) != 0 ? DMLCONF_SPECIAL_NEG_INF
                                                     : DMLCONF_SPECIAL_POS_INF;
        }
    }
    b->elements += (uint32_t)count;
    if (b->elements >= BINS_ELEMENTS)
        bins_flush(acc, b);
}

void exact_acc_add_f32_array(exact_acc *acc, size_t n, const float *x)
{
    /* Block by block: one exact double sum where the block's magnitudes
     * are close enough (almost always, for data of one scale), the
     * exponent bins otherwise (and element by element when the array is
     * too short to be worth clearing the bins for). A handful of elements
     * go one by one. */
    if (n < 16u)
    {
        for (size_t i = 0; i < n; ++i)
            exact_acc_add_f32(acc, x[i]);
        return;
    }
    exponent_bins bins;
    bins.elements = 0;
    for (size_t first = 0; first < n; first += BLOCK_ELEMENTS)
    {
        size_t count = n - first < BLOCK_ELEMENTS ? n - first : BLOCK_ELEMENTS;
        /* A short last block is padded with zeros. */
        const float *block = x + first;
        float padded[BLOCK_ELEMENTS];
        if (count < BLOCK_ELEMENTS)
        {
            memset(padded, 0, sizeof(padded));
            memcpy(padded, block, count * sizeof(*block));
            block = padded;
        }
        double sum;
        if (block_sum(block, &sum))
        {
            if (sum != 0.0)
                exact_acc_add_f64(acc, sum);
        }
        else if (n < 64u)
        {
            for (size_t i = 0; i < count; ++i)
                exact_acc_add_f32(acc, x[first + i]);
        }
        else
        {
            bins_add(acc, &bins, count, x + first);
        }
    }
    if (bins.elements)
        bins_flush(acc, &bins);
}

void exact_acc_add_acc(exact_acc *acc, const exact_acc *other)
{
    exact_acc addend = *other;
    normalise(&addend);
    normalise(acc);
    /* Normalised limbs are below 2^32 (the top one signed): the sums are
     * below 2^33, as two additions would leave them. */
    for (int i = 0; i < EXACT_ACC_LIMBS; ++i)
        acc->limb[i] += addend.limb[i];
    acc->specials |= addend.specials;
    count_adds(acc, 2);
}

/* Subtracts x exactly; the negation of an infinity is recorded. */
void exact_acc_sub_f32(exact_acc *acc, float x)
{
    uint32_t bits = f32_bits(x);
    add_f32_bits(acc, bits, (bits >> 31) == 0);
}

/* Adds x exactly. Precondition: x finite, a multiple of 2^-149, |x| < 2^192. */
void exact_acc_add_f64(exact_acc *acc, double x)
{
    uint64_t bits = f64_bits(x);
    int biased = (int)((bits >> 52) & 0x7ffu);
    uint64_t mantissa = bits & UINT64_C(0xfffffffffffff);
    if (biased == 0)
        return; /* zero (no multiple of 2^-149 is subnormal in double) */
    mantissa |= UINT64_C(1) << 52;
    /* x = mantissa * 2^(biased - 1075); drop trailing zeros so that the
     * position from 2^-149 is not negative. */
    int position = biased - 1075 - EXACT_ACC_MIN_EXPONENT;
    while (position < 0)
    {
        mantissa >>= 1;
        ++position;
    }
    int index = position >> 5;
    int shift = position & 31;
    uint64_t part_low = (mantissa & 0xffffffffu) << shift; /* < 2^63 */
    uint64_t part_high = (mantissa >> 32) << shift;        /* < 2^52 */
    int64_t add[3];
    add[0] = (int64_t)(part_low & 0xffffffffu);
    add[1] = (int64_t)(part_low >> 32) + (int64_t)(part_high & 0xffffffffu);
    add[2] = (int64_t)(part_high >> 32);
    bool negative = (bits >> 63) != 0;
    /* Below 2^192 the parts that are not zero stay inside the limbs. */
    for (int k = 0; k < 3 && index + k < EXACT_ACC_LIMBS; ++k)
    {
        if (add[k] == 0)
            continue;
        acc->limb[index + k] += negative ? -add[k] : add[k];
    }
    count_adds(acc, 2);
}

/* True when the finite value is exactly zero; normalises the limbs. */
bool exact_acc_is_zero(exact_acc *acc)
{
    if (acc->adds != 0)
        normalise(acc);
    for (int i = 0; i < EXACT_ACC_LIMBS; ++i)
    {
        if (acc->limb[i] != 0)
            return false;
    }
    return true;
}

/* Bits [low, low + count) of the magnitude words (count <= 64, low >= 0). */
static uint64_t extract_bits(const uint32_t *mag, int low, int count)
{
    if (count <= 0)
        return 0;
    int j = low >> 5;
    int shift = low & 31;
    uint64_t w0 = j < EXACT_ACC_LIMBS ? mag[j] : 0;
    uint64_t w1 = j + 1 < EXACT_ACC_LIMBS ? mag[j + 1] : 0;
    uint64_t w2 = j + 2 < EXACT_ACC_LIMBS ? mag[j + 2] : 0;
    uint64_t value = (w0 | (w1 << 32)) >> shift;
    if (shift != 0)
        value |= w2 << (64 - shift);
    if (count < 64)
        value &= (UINT64_C(1) << count) - 1u;
    return value;
}

/* True when a bit below position `position` is set. */
static bool any_bits_below(const uint32_t *mag, int position)
{
    if (position <= 0)
        return false;
    int j = position >> 5;
    for (int i = 0; i < j && i < EXACT_ACC_LIMBS; ++i)
    {
        if (mag[i] != 0)
            return true;
    }
    if (j >= EXACT_ACC_LIMBS)
        return false;
    return (mag[j] & ((UINT32_C(1) << (position & 31)) - 1u)) != 0;
}

static double special_result(uint32_t specials)
{
    bool pos = (specials & DMLCONF_SPECIAL_POS_INF) != 0;
    bool neg = (specials & DMLCONF_SPECIAL_NEG_INF) != 0;
    if ((specials & DMLCONF_SPECIAL_NAN) || (pos && neg))
        return f64_from_bits(UINT64_C(0x7ff8000000000000));
    return f64_from_bits(pos ? UINT64_C(0x7ff0000000000000) : UINT64_C(0xfff0000000000000));
}

/* Rounds once to `precision` bits with a subnormal floor and an overflow
 * exponent; the result is exact in a double (see exact_accumulator.h). */
double exact_acc_round(exact_acc *acc, int precision, int min_lsb_exponent, int overflow_exponent, bool *inexact)
{
    if (inexact)
        *inexact = false;
    if (acc->specials)
        return special_result(acc->specials);

    if (acc->adds != 0)
        normalise(acc);
    bool negative = acc->limb[EXACT_ACC_LIMBS - 1] < 0;
    uint32_t mag[EXACT_ACC_LIMBS];
    uint32_t carry = negative ? 1u : 0u;
    for (int i = 0; i < EXACT_ACC_LIMBS; ++i)
    {
        /* Two's complement negation word by word: invert and add one. */
        uint32_t word = (uint32_t)((uint64_t)acc->limb[i] & 0xffffffffu);
        if (negative)
        {
            uint64_t sum = (uint64_t)(~word) + carry;
            word = (uint32_t)sum;
            carry = (uint32_t)(sum >> 32);
        }
        mag[i] = word;
    }

    int top = EXACT_ACC_LIMBS - 1;
    while (top >= 0 && mag[top] == 0)
        --top;
    if (top < 0)
        return 0.0;
    int p = 32 * top + highest_bit32(mag[top]); /* highest set bit */

    int floor_position = min_lsb_exponent - EXACT_ACC_MIN_EXPONENT;
    int lsb = p - precision + 1;
    if (lsb < floor_position)
        lsb = floor_position;
    uint64_t kept;
    bool round_bit = false, sticky = false;
    if (lsb <= 0)
    {
        lsb = 0;
        kept = extract_bits(mag, 0, p + 1);
    }
    else
    {
        kept = extract_bits(mag, lsb, p - lsb + 1);
        round_bit = extract_bits(mag, lsb - 1, 1) != 0;
        sticky = any_bits_below(mag, lsb - 1);
        if (round_bit && (sticky || (kept & 1u)))
            ++kept;
    }
    if (inexact)
        *inexact = round_bit || sticky;

    /* kept <= 2^53 converts exactly; the scale is a power of two in the
     * normal double range, so the product is exact. */
    double value = (double)kept * pow2(lsb + EXACT_ACC_MIN_EXPONENT);
    if (overflow_exponent <= 1023 && value >= pow2(overflow_exponent))
        value = f64_from_bits(UINT64_C(0x7ff0000000000000));
    return negative ? -value : value;
}

/* Rounds once to float32; NaN results are 0x7fc00000, a zero is +0. */
float exact_acc_round_f32(exact_acc *acc)
{
    double value = exact_acc_round(acc, 24, -149, 128, NULL);
    if (value != value)
    {
        uint32_t nan_bits = 0x7fc00000u;
        float nan;
        memcpy(&nan, &nan_bits, sizeof(nan));
        return nan;
    }
    return (float)value;
}

/* Rounds once to binary16 bits; NaN results are 0x7e00, a zero is +0. */
uint16_t exact_acc_round_f16(exact_acc *acc)
{
    double value = exact_acc_round(acc, 11, -24, 16, NULL);
    if (value != value)
        return 0x7e00u;
    /* The value is a binary16 value (or +-Inf): the conversion is exact. */
    return dmlconf_half_from_double(value);
}
