/*
 * Exact unsigned integers of any size up to a fixed capacity: 32-bit limbs,
 * least significant first, in an array the caller owns with the count of
 * limbs in use beside it. The one bignum of the case library: the value
 * parser's magnitudes (values.c: 170 limbs, every float64 literal) and the
 * generators' dyadic numbers (datagen.c: 24 limbs, a float32 times a 64-bit
 * factor) are both made of it.
 *
 * Static inline: both run these in their inner loops. An operation that
 * would exceed the capacity says so and leaves the number unchanged; none
 * allocates.
 */
#ifndef DMLCONF_CASES_LIMBS_H
#define DMLCONF_CASES_LIMBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The count of limbs without the zero limbs at the top. */
static inline size_t limbs_trim(const uint32_t *limb, size_t n)
{
    while (n && limb[n - 1u] == 0)
        --n;
    return n;
}

/* Multiplies limb[0..*n) by 2^bits. Returns false, changing nothing, when
 * the result would need more than `capacity` limbs (one more than the
 * shifted count is required, for the bits carried out of the top). */
static inline bool limbs_shift_left(uint32_t *limb, size_t *n, size_t capacity, uint64_t bits)
{
    if (*n == 0 || bits == 0)
        return true;
    uint64_t limbs = bits / 32u;
    unsigned rest = (unsigned)(bits % 32u);
    if (limbs + *n + 1u > capacity)
        return false;
    size_t shift = (size_t)limbs;
    limb[*n + shift] = 0;
    for (size_t i = *n; i-- > 0;)
    {
        uint32_t value = limb[i];
        if (rest)
        {
            limb[i + shift + 1u] |= value >> (32u - rest);
            limb[i + shift] = value << rest;
        }
        else
        {
            limb[i + shift] = value;
        }
    }
    for (size_t i = 0; i < shift; ++i)
        limb[i] = 0;
    *n = limbs_trim(limb, *n + shift + 1u);
    return true;
}

/* The number of significant bits (0 for zero). */
static inline uint64_t limbs_bit_length(const uint32_t *limb, size_t n)
{
    n = limbs_trim(limb, n);
    if (n == 0)
        return 0;
    uint32_t top = limb[n - 1u];
    unsigned bits = 0;
    while (top)
    {
        ++bits;
        top >>= 1;
    }
    return (uint64_t)(n - 1u) * 32u + bits;
}

/* Bit `bit` (0 past the top). */
static inline bool limbs_bit(const uint32_t *limb, size_t n, uint64_t bit)
{
    uint64_t index = bit / 32u;
    return index < n && ((limb[index] >> (bit % 32u)) & 1u);
}

/* True when any bit below `bit` is set. */
static inline bool limbs_any_below(const uint32_t *limb, size_t n, uint64_t bit)
{
    uint64_t full = bit / 32u;
    for (uint64_t i = 0; i < full && i < n; ++i)
        if (limb[i])
            return true;
    unsigned rest = (unsigned)(bit % 32u);
    if (rest && full < n && (limb[full] & ((UINT32_C(1) << rest) - 1u)))
        return true;
    return false;
}

/* The 64 bits of the number starting at bit `shift`. */
static inline uint64_t limbs_extract(const uint32_t *limb, size_t n, uint64_t shift)
{
    uint64_t index = shift / 32u;
    unsigned rest = (unsigned)(shift % 32u);
    uint64_t word[3];
    for (unsigned k = 0; k < 3u; ++k)
        word[k] = index + k < n ? limb[index + k] : 0u;
    uint64_t low = word[0] | (word[1] << 32);
    return rest ? (low >> rest) | (word[2] << (64u - rest)) : low;
}

#endif /* DMLCONF_CASES_LIMBS_H */
