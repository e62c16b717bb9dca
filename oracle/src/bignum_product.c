/*
 * Exact products of float significands as arbitrary-precision integers: the
 * fallback that decides the rare prefix products whose fast double-double
 * approximation cannot be rounded with certainty.
 *
 * The value is N * 2^exponent with N odd, stored as 32-bit limbs (least
 * significant first) and multiplied through 64-bit intermediates, so the
 * code is portable C11 with no wider integer type. Because every factor is
 * made odd before it is multiplied in, N stays odd: the bits of N below a
 * rounding position are all zero exactly when the position is at bit 0,
 * which makes rounding O(1) whatever the size of N.
 */
#include "bignum_product.h"

#include <stdlib.h>

/* Limbs allocated by bignum_product_init. */
#define BIGNUM_INITIAL_CAPACITY 8u

const bignum_format bignum_format_float32 = {24u, -149, 127};
const bignum_format bignum_format_float16 = {11u, -24, 15};

/* Sets *b to 1 with a small allocation; false (and *b empty) on failure. */
bool bignum_product_init(bignum_product *b)
{
    b->count = 0;
    b->capacity = 0;
    b->exponent = 0;
    b->limbs = malloc(BIGNUM_INITIAL_CAPACITY * sizeof(*b->limbs));
    if (!b->limbs)
        return false;
    b->limbs[0] = 1;
    b->count = 1;
    b->capacity = BIGNUM_INITIAL_CAPACITY;
    return true;
}

/* Releases the limbs; *b is left empty, and freeing it again is harmless. */
void bignum_product_free(bignum_product *b)
{
    free(b->limbs);
    b->limbs = NULL;
    b->count = 0;
    b->capacity = 0;
    b->exponent = 0;
}

/* Makes room for `count` limbs, doubling the capacity. Returns false, with
 * the bignum untouched, when the size overflows or realloc fails. */
static bool bignum_reserve(bignum_product *b, size_t count)
{
    if (count <= b->capacity)
        return true;
    size_t capacity = b->capacity ? b->capacity : BIGNUM_INITIAL_CAPACITY;
    while (capacity < count)
    {
        if (capacity > SIZE_MAX / 2u / sizeof(*b->limbs))
            return false;
        capacity *= 2u;
    }
    uint32_t *limbs = realloc(b->limbs, capacity * sizeof(*limbs));
    if (!limbs)
        return false;
    b->limbs = limbs;
    b->capacity = capacity;
    return true;
}

/* *b *= factor * 2^exponent, exactly; false, *b unchanged, when factor is 0
 * or memory runs out. O(limbs). */
bool bignum_product_mul(bignum_product *b, uint32_t factor, int64_t exponent)
{
    if (factor == 0)
        return false;
    while (!(factor & 1u))
    {
        factor >>= 1;
        ++exponent;
    }
    b->exponent += exponent;
    if (factor == 1u)
        return true;
    if (!bignum_reserve(b, b->count + 1u))
    {
        b->exponent -= exponent;
        return false;
    }
    /* limb * factor + carry <= (2^32 - 1)^2 + 2^32 - 1 < 2^64. */
    uint64_t carry = 0;
    for (size_t i = 0; i < b->count; ++i)
    {
        uint64_t t = (uint64_t)b->limbs[i] * factor + carry;
        b->limbs[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry)
        b->limbs[b->count++] = (uint32_t)carry;
    return true;
}

/* Significant bits of the odd integer. */
uint64_t bignum_product_bit_length(const bignum_product *b)
{
    uint32_t top = b->limbs[b->count - 1u];
    uint64_t bits = (uint64_t)(b->count - 1u) * 32u;
    while (top)
    {
        ++bits;
        top >>= 1;
    }
    return bits;
}

/* Bits [position, position + width) of N, width <= 32. Bits above N's top
 * are zero. */
static uint32_t bignum_bits(const bignum_product *b, uint64_t position, uint32_t width)
{
    uint64_t index = position / 32u;
    uint32_t offset = (uint32_t)(position % 32u);
    uint64_t window = 0;
    if (index < b->count)
        window = b->limbs[index];
    if (index + 1u < b->count)
        window |= (uint64_t)b->limbs[index + 1u] << 32;
    window >>= offset;
    uint64_t mask = (UINT64_C(1) << width) - 1u;
    return (uint32_t)(window & mask);
}

/* The value rounded once to `format` (nearest even, subnormals, overflow to
 * infinity from the threshold on): the magnitude's bits. O(1). */
uint32_t bignum_product_round(const bignum_product *b, const bignum_format *format)
{
    const uint32_t p = format->precision;
    const int64_t min_exponent = format->min_exponent;
    const int64_t max_exponent = format->max_exponent;
    /* The encoding of k units of 2^q, with the binade's leading unit counted
     * in the exponent field: ((q - min_exponent) << (p - 1)) + k. Infinity is
     * 2^(max_exponent + 1) written that way. */
    const uint32_t infinity =
        ((uint32_t)(max_exponent + 1 - (int64_t)(p - 1u) - min_exponent) << (p - 1u)) + (UINT32_C(1) << (p - 1u));

    uint64_t length = bignum_product_bit_length(b);
    int64_t top = b->exponent + (int64_t)length - 1; /* exponent of the leading bit */
    if (top > max_exponent)
        return infinity; /* at least 2^(max_exponent + 1) */
    if (top < min_exponent - 1)
        return 0; /* below half the smallest subnormal */

    int64_t q = top - (int64_t)(p - 1u); /* exponent of the last kept bit */
    if (q < min_exponent)
        q = min_exponent;
    int64_t dropped = q - b->exponent; /* low bits of N below 2^q */
    uint32_t units;
    if (dropped <= 0)
    {
        /* Exact: N has at most p - (-dropped) bits, so it is one limb. */
        units = b->limbs[0] << (uint32_t)(-dropped);
    }
    else
    {
        uint64_t d = (uint64_t)dropped;
        units = bignum_bits(b, d, p);
        uint32_t round = bignum_bits(b, d - 1u, 1u);
        /* N is odd: something below the round bit is nonzero exactly when
         * the round bit is not bit 0. */
        bool sticky = d > 1u;
        if (round && (sticky || (units & 1u)))
            ++units;
    }
    uint32_t bits = ((uint32_t)(q - min_exponent) << (p - 1u)) + units;
    return bits > infinity ? infinity : bits;
}
