/*
 * What the generators' two implementations share: the counter-based random
 * streams (dmlconf/datagen.h defines them), and the entry points of each.
 *
 * datagen.c holds the exact reference: every float result is an exact
 * multi-limb binary number rounded once by dmlconf_value_from_dyadic.
 * datagen_fixed.c holds the fast path that dmlconf_datagen_fill uses: the
 * same exact values in 128-bit fixed point, rounded by integer operations,
 * where the spec's parameters let every element fit; it must give the same
 * bits as the reference for every spec and index (test_datagen checks it).
 */
#ifndef DMLCONF_CASES_DATAGEN_INTERNAL_H
#define DMLCONF_CASES_DATAGEN_INTERNAL_H

#include <dmlconf/datagen.h>

#include <stdbool.h>
#include <stdint.h>

#define DATAGEN_GOLDEN_GAMMA UINT64_C(0x9e3779b97f4a7c15)

/* splitmix64's finaliser. */
static inline uint64_t datagen_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A 64-bit two's complement pattern as the signed value it encodes,
 * without the implementation-defined conversion. */
static inline int64_t datagen_as_signed(uint64_t value)
{
    return value <= (uint64_t)INT64_MAX ? (int64_t)value : -(int64_t)(~value) - 1;
}

/* The random word stream of one element. */
typedef struct datagen_stream
{
    uint64_t base; /* w_0 */
    uint64_t next; /* the index of the next word */
} datagen_stream;

static inline void datagen_stream_init(datagen_stream *s, uint64_t seed, uint64_t index)
{
    s->base = datagen_mix64(seed + (index + 1u) * DATAGEN_GOLDEN_GAMMA);
    s->next = 0;
}

static inline uint64_t datagen_stream_word(datagen_stream *s)
{
    uint64_t word = s->next == 0 ? s->base : datagen_mix64(s->base + s->next * DATAGEN_GOLDEN_GAMMA);
    ++s->next;
    return word;
}

/* The 128-bit product of a and b, as its high and low words. */
static inline void datagen_multiply_64(uint64_t a, uint64_t b, uint64_t *high, uint64_t *low)
{
#if defined(__SIZEOF_INT128__)
    __extension__ unsigned __int128 product = (unsigned __int128)a * b;
    *high = (uint64_t)(product >> 64);
    *low = (uint64_t)product;
#else
    uint64_t a0 = (uint32_t)a;
    uint64_t a1 = a >> 32;
    uint64_t b0 = (uint32_t)b;
    uint64_t b1 = b >> 32;
    uint64_t p00 = a0 * b0;
    uint64_t p01 = a0 * b1;
    uint64_t p10 = a1 * b0;
    uint64_t p11 = a1 * b1;
    uint64_t middle = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *low = (middle << 32) | (uint32_t)p00;
    *high = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
#endif
}

/* Uniform in [0, n), n >= 1: Lemire's multiply-shift with rejection. */
static inline uint64_t datagen_stream_below(datagen_stream *s, uint64_t n)
{
    uint64_t high;
    uint64_t low;
    datagen_multiply_64(datagen_stream_word(s), n, &high, &low);
    if (low < n)
    {
        uint64_t threshold = (0u - n) % n; /* 2^64 mod n */
        while (low < threshold)
            datagen_multiply_64(datagen_stream_word(s), n, &high, &low);
    }
    return high;
}

/* Uniform in [low, low + width] (two's complement, modulo 2^64). */
static inline uint64_t datagen_stream_range(datagen_stream *s, uint64_t low, uint64_t width)
{
    if (width == UINT64_MAX)
        return datagen_stream_word(s);
    return low + datagen_stream_below(s, width + 1u);
}

/* The exact reference (datagen.c): dmlconf_datagen_fill's contract, every
 * element computed with exact multi-limb arithmetic. Slow (about 100 ns an
 * element for the float generators); the tests compare the fast path with
 * it, and the fast path hands it the specs it cannot take. */
void datagen_fill_exact(const dmlconf_datagen_spec *spec, uint64_t first_index, uint64_t count, void *out);

/* The fast path (datagen_fixed.c). Precondition: dmlconf_datagen_check(spec)
 * returned 0. Returns false, having written nothing, when the spec's
 * parameters do not fit its fixed-point ranges (the caller then uses the
 * reference); otherwise fills the elements exactly as the reference would. */
bool datagen_fill_fixed(const dmlconf_datagen_spec *spec, uint64_t first_index, uint64_t count, void *out);

#endif /* DMLCONF_CASES_DATAGEN_INTERNAL_H */
