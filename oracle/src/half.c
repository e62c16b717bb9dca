/*
 * IEEE binary16 conversions. No hardware half support is assumed: the
 * conversions work on bit patterns so that they are exact and portable.
 */
#include "line_kernels.h"

#include <string.h>

float dmlconf_half_to_float(uint16_t bits)
{
    uint32_t sign = (uint32_t)(bits & 0x8000u) << 16;
    uint32_t exponent = (bits >> 10) & 0x1fu;
    uint32_t mantissa = bits & 0x3ffu;
    uint32_t out;

    if (exponent == 0x1fu)
    {
        /* Inf, or NaN with its payload in the high mantissa bits. */
        out = sign | 0x7f800000u | (mantissa << 13);
    }
    else if (exponent != 0)
    {
        out = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    }
    else if (mantissa == 0)
    {
        out = sign;
    }
    else
    {
        /* Subnormal half: normalise into a float32 normal. */
        uint32_t shift = 0;
        while (!(mantissa & 0x400u))
        {
            mantissa <<= 1;
            ++shift;
        }
        out = sign | ((113u - shift) << 23) | ((mantissa & 0x3ffu) << 13);
    }
    float value;
    memcpy(&value, &out, sizeof(value));
    return value;
}

uint16_t dmlconf_half_from_double(double value)
{
    uint64_t bits;
    memcpy(&bits, &value, sizeof(bits));
    uint16_t sign = (uint16_t)((bits >> 48) & 0x8000u);
    int exponent = (int)((bits >> 52) & 0x7ffu);
    uint64_t mantissa = bits & UINT64_C(0xfffffffffffff);

    if (exponent == 0x7ff)
        return (uint16_t)(sign | (mantissa ? 0x7e00u : 0x7c00u));

    /* value = significand * 2^(e - 52) with the hidden bit made explicit. */
    uint64_t significand = exponent ? (mantissa | (UINT64_C(1) << 52)) : mantissa;
    int e = exponent ? exponent - 1023 : -1022;
    if (significand == 0)
        return sign;

    /* The half's last kept bit has exponent max(e - 10, -24) for a value in
     * binade e (normal halves keep 11 bits, subnormals stop at 2^-24). */
    while (!(significand & (UINT64_C(1) << 52)))
    {
        significand <<= 1;
        --e;
    }
    if (e > 15)
        return (uint16_t)(sign | 0x7c00u);
    int lsb_exponent = e - 10 < -24 ? -24 : e - 10;
    int shift = lsb_exponent - (e - 52); /* bits dropped from significand */
    if (shift > 53)
        return sign; /* below a quarter of the smallest subnormal */
    uint64_t kept = significand >> shift;
    uint64_t remainder = significand & ((UINT64_C(1) << shift) - 1);
    uint64_t half = UINT64_C(1) << (shift - 1);
    if (remainder > half || (remainder == half && (kept & 1u)))
        ++kept;
    /* kept counts units of 2^lsb_exponent; rebuild the half's bits. */
    if (lsb_exponent == -24)
    {
        /* Subnormal (or rounded up into the smallest normal: kept == 1024
         * encodes exponent field 1 naturally). */
        return (uint16_t)(sign | kept);
    }
    int biased = e + 15;
    if (kept == (UINT64_C(1) << 11))
    {
        kept >>= 1;
        ++biased;
    }
    if (biased >= 31)
        return (uint16_t)(sign | 0x7c00u);
    return (uint16_t)(sign | ((uint16_t)biased << 10) | (uint16_t)(kept & 0x3ffu));
}
