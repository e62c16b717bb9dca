/*
 * Integer cumulative sums and products. Every type wraps modulo 2^w, and a
 * wrapping sum or product has the same bits whether the type is signed or
 * not, so the arithmetic is done in unsigned types only: no undefined
 * behaviour, and no widening (D3D's iadd and imul keep w bits too).
 */
#include "kernels.h"

void oracle_scan_u32(dmlconf_operator op, bool exclusive, size_t n, const uint32_t *in, uint32_t *out)
{
    if (op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT)
    {
        uint32_t running = 1;
        for (size_t i = 0; i < n; ++i)
        {
            uint32_t x = in[i];
            if (exclusive)
                out[i] = running;
            /* uint32_t * uint32_t promotes to int where int is wider than
             * 32 bits; multiply in uint64_t and truncate instead. */
            running = (uint32_t)((uint64_t)running * x);
            if (!exclusive)
                out[i] = running;
        }
        return;
    }
    uint32_t running = 0;
    if (exclusive)
    {
        for (size_t i = 0; i < n; ++i)
        {
            uint32_t x = in[i];
            out[i] = running;
            running += x;
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
}

void oracle_scan_u64(dmlconf_operator op, bool exclusive, size_t n, const uint64_t *in, uint64_t *out)
{
    if (op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT)
    {
        uint64_t running = 1;
        for (size_t i = 0; i < n; ++i)
        {
            uint64_t x = in[i];
            if (exclusive)
                out[i] = running;
            running *= x;
            if (!exclusive)
                out[i] = running;
        }
        return;
    }
    uint64_t running = 0;
    if (exclusive)
    {
        for (size_t i = 0; i < n; ++i)
        {
            uint64_t x = in[i];
            out[i] = running;
            running += x;
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
}
