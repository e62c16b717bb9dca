/*
 * An exact fixed-point accumulator for sums of float32 values (and of
 * anything else that is a multiple of 2^-149 below 2^160: float16 values,
 * doubles rounded from such sums).
 *
 * The value is sum(limb[i] * 2^(32 i - 149)). Every limb is an int64_t, but
 * an addition only puts fewer than 2^32 into each limb it touches, so adds
 * never propagate carries; the limbs are brought back to 32 bits each (with a
 * signed top limb) by a normalisation that runs before rounding and, to keep
 * the limbs far from overflow, after every 2^30 additions. Eleven limbs cover
 * 352 bits: 2^-149 up to 2^128 times 2^32 terms and more, with the sign.
 *
 * Non-finite inputs are not added; they are recorded in `specials`, and the
 * rounding functions then return the special result of the prefix (NaN if a
 * NaN, or both infinities, occurred; otherwise the infinity that occurred).
 *
 * The state is a plain struct: no allocation, no global state; copying the
 * struct copies the accumulator.
 */
#ifndef DMLCONF_ORACLE_EXACT_ACCUMULATOR_H
#define DMLCONF_ORACLE_EXACT_ACCUMULATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXACT_ACC_LIMBS 11
/* Exponent of the unit of limb 0. */
#define EXACT_ACC_MIN_EXPONENT (-149)

typedef struct exact_acc
{
    int64_t limb[EXACT_ACC_LIMBS];
    uint32_t adds;     /* additions since the last normalisation */
    uint32_t specials; /* DMLCONF_SPECIAL_NAN / _POS_INF / _NEG_INF seen */
} exact_acc;

/* Sets the accumulator to exactly zero with no specials. */
void exact_acc_init(exact_acc *acc);

/* Adds a float32 exactly (a NaN or infinity is only recorded). */
void exact_acc_add_f32(exact_acc *acc, float x);

/* Adds n float32 values exactly, as n calls of exact_acc_add_f32 would
 * (the same value and specials), many times faster: a block of 256 whose
 * exponents lie within 21 of each other is summed exactly in one double,
 * any other block goes into double bins by exponent (exact for up to 2^29
 * elements a bin), and those doubles go into the limbs. */
void exact_acc_add_f32_array(exact_acc *acc, size_t n, const float *x);

/* Adds another accumulator's value exactly (and its specials). */
void exact_acc_add_acc(exact_acc *acc, const exact_acc *other);

/* Subtracts a float32 exactly (the negation of a NaN or infinity is
 * recorded: subtracting +Inf records -Inf). */
void exact_acc_sub_f32(exact_acc *acc, float x);

/* Adds a double exactly. Precondition: x is finite and a multiple of 2^-149
 * with |x| < 2^192 (every double that rounds a sum of float32 or float16
 * values qualifies). */
void exact_acc_add_f64(exact_acc *acc, double x);

/* True when the accumulated finite value is exactly zero (specials are not
 * looked at). Normalises the limbs; the value is unchanged. */
bool exact_acc_is_zero(exact_acc *acc);

/* Rounds the accumulated value once to `precision` significant bits (1 to
 * 53), round to nearest even, with no bit below 2^min_lsb_exponent (the
 * subnormal floor of the target format; pass EXACT_ACC_MIN_EXPONENT or less
 * for none) and overflow to +-Inf when the rounded magnitude reaches
 * 2^overflow_exponent (at most 1024). The result is a double that holds the
 * rounded value exactly, so converting it to the target format is exact.
 * Specials take precedence (NaN or +-Inf, see above). An exact zero gives +0:
 * the caller decides the sign of a zero sum (a value that is not zero but
 * rounds to zero below the floor keeps its sign). *inexact (may be NULL) says
 * whether the finite value was changed by rounding. Normalises the limbs. */
double exact_acc_round(exact_acc *acc, int precision, int min_lsb_exponent, int overflow_exponent, bool *inexact);

/* The accumulated value rounded once to float32 (RNE, subnormals kept,
 * overflow to +-Inf at 2^128 (1 - 2^-25)); specials as above; an exact zero
 * gives +0. NaN results are the default quiet NaN. */
float exact_acc_round_f32(exact_acc *acc);

/* The accumulated value rounded once to binary16, returned as its bit
 * pattern (RNE, subnormals kept, overflow to +-Inf at 65520); specials as
 * above (NaN is 0x7e00); an exact zero gives +0. */
uint16_t exact_acc_round_f16(exact_acc *acc);

#endif /* DMLCONF_ORACLE_EXACT_ACCUMULATOR_H */
