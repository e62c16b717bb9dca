/*
 * Internal interface of the oracle: the exact fallback of the float prefix
 * products. A bignum_product holds an exact positive value N * 2^exponent
 * with N an odd integer of any size (trailing zero bits are always moved into
 * the exponent), can be multiplied by small integers and rounded once to
 * float32 or float16.
 *
 * Costs: multiplying by a factor of at most 32 bits is O(size) (size = number
 * of 32-bit limbs of N, which grows by at most one limb per multiplication);
 * rounding is O(1): N being odd, some bit below the round bit is set
 * exactly when the round bit is not bit 0, so no limb needs scanning.
 */
#ifndef DMLCONF_ORACLE_BIGNUM_PRODUCT_H
#define DMLCONF_ORACLE_BIGNUM_PRODUCT_H

#include <dmlconf/oracle.h>

/* An exact positive value limbs * 2^exponent; limbs holds an odd integer,
 * least significant 32-bit limb first, with a nonzero top limb. */
typedef struct bignum_product
{
    uint32_t *limbs;
    size_t count;
    size_t capacity;
    int64_t exponent;
} bignum_product;

/* A binary floating-point format to round to. */
typedef struct bignum_format
{
    uint32_t precision;   /* significand bits, hidden bit included (24, 11) */
    int32_t min_exponent; /* exponent of the smallest subnormal (-149, -24) */
    int32_t max_exponent; /* exponent of the leading bit of the largest finite
                           * value (127, 15) */
} bignum_format;

/* float32 {24, -149, 127} and float16 {11, -24, 15} (constants). */
extern const bignum_format bignum_format_float32;
extern const bignum_format bignum_format_float16;

/* Sets *b to the value 1. Allocates a small limb array that
 * bignum_product_free releases. Returns false, with *b empty but safe to
 * free, when the allocation fails. */
bool bignum_product_init(bignum_product *b);

/* Releases the limbs of *b and leaves it empty; freeing an empty or already
 * freed bignum is harmless. */
void bignum_product_free(bignum_product *b);

/* Multiplies *b by factor * 2^exponent exactly; the factor's trailing zero
 * bits go into the exponent. Returns false, with *b unchanged, when factor is
 * 0 (not a valid factor) or the limb array cannot grow. */
bool bignum_product_mul(bignum_product *b, uint32_t factor, int64_t exponent);

/* The number of significant bits of the odd integer (at least 1). */
uint64_t bignum_product_bit_length(const bignum_product *b);

/* Rounds the value once to `format`, to nearest with ties to even, keeping
 * subnormals (rounded at the fixed position 2^min_exponent) and giving
 * infinity exactly when the value reaches the overflow threshold
 * 2^(max_exponent + 1) * (1 - 2^-(precision + 1)). Returns the magnitude's
 * bit pattern in the format's encoding (sign bit clear; 0x7f800000 or 0x7c00
 * for infinity). Never fails. */
uint32_t bignum_product_round(const bignum_product *b, const bignum_format *format);

/*
 * The float product kernels of line_kernels.h with one extra knob, for tests:
 * besides the elements that really need it, every element whose output index
 * is a multiple of fallback_period (when it is not 0) is decided by the
 * exact fallback instead of the fast path. fallback_period 0 is exactly
 * oracle_product_f32 / oracle_product_f16. Same results and failures as
 * those; forcing the fallback only costs time (see product_float.c).
 */
int oracle_product_f32_tuned(bool exclusive, size_t n, const float *in, float *out, size_t fallback_period,
                             dmlconf_error *err);
int oracle_product_f16_tuned(bool exclusive, size_t n, const uint16_t *in, uint16_t *out, size_t fallback_period,
                             dmlconf_error *err);

#endif /* DMLCONF_ORACLE_BIGNUM_PRODUCT_H */
