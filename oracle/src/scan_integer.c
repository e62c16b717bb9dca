/*
 * Integer cumulative sums and products. Every type wraps modulo 2^w, and a
 * wrapping sum or product has the same bits whether the type is signed or
 * not, so the arithmetic is done in unsigned types only: no undefined
 * behaviour, and no widening (D3D's iadd and imul keep w bits too). The
 * running value is carried from one piece of a line to the next.
 *
 * Products go by pairs. One multiplication after another, each waiting for
 * the last, a scan runs at one element per multiplication latency (3 cycles
 * on current x86 cores). A pair's own product x[i] x[i+1] does not depend
 * on the running value, so the chain has one multiplication a pair:
 * out[i] = r x[i], out[i+1] = r (x[i] x[i+1]). Multiplication modulo 2^w
 * is associative and commutative, so the bits are the same.
 *
 * With SSE2 (every x86-64), 32-bit products go by fours: the products
 * within the four (x0 x1, x0 x1 x2, x0 x1 x2 x3) come from the vector unit's
 * 32 x 32 -> 64-bit multiplications (whose low 32 bits are the products
 * modulo 2^32), which leaves the scalar multiplier one multiplication an
 * element, and the chain one every four.
 */
#include "line_kernels.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* a * b modulo 2^32. uint32_t * uint32_t promotes to int where int is wider
 * than 32 bits; multiply in uint64_t and truncate instead. */
static inline uint32_t multiply_u32(uint32_t a, uint32_t b)
{
    return (uint32_t)((uint64_t)a * b);
}

void oracle_scan_u32_next(dmlconf_operator op, uint64_t *running_value, size_t n, const uint32_t *in, uint32_t *out)
{
    uint32_t running = (uint32_t)*running_value;
    if (op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT)
    {
        size_t i = 0;
#if defined(__SSE2__)
        for (; n - i >= 4u; i += 4u)
        {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(in + i)); /* x0 x1 x2 x3 */
            /* x0 x1 and x2 x3, each in a 64-bit lane. */
            __m128i pairs = _mm_mul_epu32(x, _mm_srli_epi64(x, 32));
            /* (x0 x1) x2 and (x0 x1)(x2 x3). */
            __m128i prefixes = _mm_mul_epu32(_mm_shuffle_epi32(pairs, 0), _mm_unpackhi_epi64(x, pairs));
            uint32_t p01 = (uint32_t)_mm_cvtsi128_si32(pairs);
            uint32_t p012 = (uint32_t)_mm_cvtsi128_si32(prefixes);
            uint32_t p0123 = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(prefixes, 8));
            out[i] = multiply_u32(running, in[i]);
            out[i + 1u] = multiply_u32(running, p01);
            out[i + 2u] = multiply_u32(running, p012);
            running = multiply_u32(running, p0123);
            out[i + 3u] = running;
        }
#endif
        for (; n - i >= 2u; i += 2u)
        {
            uint32_t pair = multiply_u32(in[i], in[i + 1u]);
            out[i] = multiply_u32(running, in[i]);
            running = multiply_u32(running, pair);
            out[i + 1u] = running;
        }
        if (i < n)
        {
            running = multiply_u32(running, in[i]);
            out[i] = running;
        }
    }
    else
    {
        for (size_t i = 0; i < n; ++i)
        {
            running += in[i];
            out[i] = running;
        }
    }
    *running_value = running;
}

void oracle_scan_u64_next(dmlconf_operator op, uint64_t *running_value, size_t n, const uint64_t *in, uint64_t *out)
{
    uint64_t running = *running_value;
    if (op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT)
    {
        size_t i = 0;
        for (; n - i >= 2u; i += 2u)
        {
            uint64_t pair = in[i] * in[i + 1u];
            out[i] = running * in[i];
            running *= pair;
            out[i + 1u] = running;
        }
        if (i < n)
        {
            running *= in[i];
            out[i] = running;
        }
    }
    else
    {
        for (size_t i = 0; i < n; ++i)
        {
            running += in[i];
            out[i] = running;
        }
    }
    *running_value = running;
}

uint64_t oracle_integer_summary_add(dmlconf_operator op, bool wide, uint64_t running, size_t n, const void *in)
{
    bool product = op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    if (wide)
    {
        const uint64_t *x = in;
        for (size_t i = 0; i < n; ++i)
            running = product ? running * x[i] : running + x[i];
        return running;
    }
    const uint32_t *x = in;
    uint32_t value = (uint32_t)running;
    for (size_t i = 0; i < n; ++i)
        value = product ? multiply_u32(value, x[i]) : value + x[i];
    return value;
}

uint64_t oracle_integer_summary_combine(dmlconf_operator op, bool wide, uint64_t first, uint64_t next)
{
    uint64_t value = op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? first * next : first + next;
    return wide ? value : (uint32_t)value;
}
