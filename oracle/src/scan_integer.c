/*
 * Integer cumulative sums and products. Every type wraps modulo 2^w, and a
 * wrapping sum or product has the same bits whether the type is signed or
 * not, so the arithmetic is done in unsigned types only: no undefined
 * behaviour, and no widening (D3D's iadd and imul keep w bits too). The
 * running value is carried from one piece of a line to the next.
 */
#include "line_kernels.h"

void oracle_scan_u32_next(dmlconf_operator op, uint64_t *running_value, size_t n, const uint32_t *in, uint32_t *out)
{
    uint32_t running = (uint32_t)*running_value;
    if (op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT)
    {
        for (size_t i = 0; i < n; ++i)
        {
            /* uint32_t * uint32_t promotes to int where int is wider than
             * 32 bits; multiply in uint64_t and truncate instead. */
            running = (uint32_t)((uint64_t)running * in[i]);
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
        for (size_t i = 0; i < n; ++i)
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
        value = product ? (uint32_t)((uint64_t)value * x[i]) : value + x[i];
    return value;
}

uint64_t oracle_integer_summary_combine(dmlconf_operator op, bool wide, uint64_t first, uint64_t next)
{
    uint64_t value = op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? first * next : first + next;
    return wide ? value : (uint32_t)value;
}
