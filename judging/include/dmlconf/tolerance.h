/*
 * dmlconf tolerance: how far a float result may legitimately be from the
 * exact one, in the three forms a case can state it:
 *
 * - the accumulation bound (the default): U ulps of the output at the
 *   exact value, plus the error every legitimate evaluation order may
 *   accumulate (Higham's bound over the prefix; see comparator.h);
 * - an absolute and a relative tolerance, as ONNX's tests state it:
 *   |actual - expected| <= atol + rtol |expected|;
 * - a plain count of ulps between actual and expected, with no accumulation
 *   allowance, as WebNN's tests state it (a fixed count, or the axis length
 *   minus 1).
 *
 * The same check decides whether a tolerance is usable, for the case
 * loader (which reports it at the field's position) and for the comparator
 * (which refuses to judge with it), so a case that loads never fails to be
 * judged. Integer outputs are always compared bit for bit.
 *
 * Every function is reentrant and keeps no global state.
 */
#ifndef DMLCONF_TOLERANCE_H
#define DMLCONF_TOLERANCE_H

#include <dmlconf/oracle.h>

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which rule a float element is judged by. */
typedef enum dmlconf_tolerance_form
{
    DMLCONF_TOLERANCE_FORM_BOUND,             /* U ulp(expected) + the accumulation allowance */
    DMLCONF_TOLERANCE_FORM_ABSOLUTE_RELATIVE, /* |actual - expected| <= atol + rtol |expected| */
    DMLCONF_TOLERANCE_FORM_ULP_COUNT,         /* at most ulp_count ulps apart */
    DMLCONF_TOLERANCE_FORM_COUNT
} dmlconf_tolerance_form;

/* How a float result may differ from the expected one. Start from
 * dmlconf_tolerance_default; a case file may override any field. */
typedef struct dmlconf_tolerance
{
    double ulp;                     /* BOUND: U, rounding slack in ulps of the output format (>= 0) */
    dmlconf_data_type accumulation; /* BOUND: FLOAT32 (default) or FLOAT16 (float16 data computed in
                                     * float16; opt-in, unjudgeable past m = 2049) */
    bool ftz;                       /* BOUND: the accumulator may flush subnormal operands and results */
    bool strict_signed_zero;        /* false: +0 equals -0 (every form) */
    bool bit_exact;                 /* compare bits (any NaN matches any NaN; zeros by the
                                     * signed-zero setting), whatever the form */
    dmlconf_tolerance_form form;
    double atol;                        /* ABSOLUTE_RELATIVE: the absolute part (>= 0) */
    double rtol;                        /* ABSOLUTE_RELATIVE: the relative part (>= 0) */
    double ulp_count;                   /* ULP_COUNT: the steps allowed (a whole number >= 0) */
    bool ulp_count_axis_length_minus_1; /* ULP_COUNT: the count is the scanned axis's length
                                         * minus 1 (dmlconf_compare fills ulp_count in) */
    /* Not a tolerance but how the comparator knows an unwritten element:
     * the bits the runner filled the output with before execution. An
     * element that still holds them fails (rule UNWRITTEN) unless the
     * expected value has the same bits (then it is counted as ambiguous
     * and left unjudged). */
    bool has_canary;
    uint64_t canary_bits;
} dmlconf_tolerance;

/* The fields of a tolerance, as case files name them. */
typedef enum dmlconf_tolerance_field
{
    DMLCONF_TOLERANCE_FIELD_ULP,
    DMLCONF_TOLERANCE_FIELD_ACCUMULATION,
    DMLCONF_TOLERANCE_FIELD_FTZ,
    DMLCONF_TOLERANCE_FIELD_SIGNED_ZERO,
    DMLCONF_TOLERANCE_FIELD_BIT_EXACT,
    DMLCONF_TOLERANCE_FIELD_ATOL,
    DMLCONF_TOLERANCE_FIELD_RTOL,
    DMLCONF_TOLERANCE_FIELD_ULP_COUNT,
    DMLCONF_TOLERANCE_FIELD_COUNT,
    DMLCONF_TOLERANCE_FIELD_NONE = DMLCONF_TOLERANCE_FIELD_COUNT /* no field is at fault */
} dmlconf_tolerance_field;

/* Overrides of the defaults: each field of `values` counts only where
 * set[field] is true (ulp_count_axis_length_minus_1 goes with ulp_count,
 * strict_signed_zero with SIGNED_ZERO; `values.form` is ignored: the form
 * follows from the fields set). */
typedef struct dmlconf_tolerance_overrides
{
    bool set[DMLCONF_TOLERANCE_FIELD_COUNT];
    dmlconf_tolerance values;
} dmlconf_tolerance_overrides;

/* "ulp", "accumulation", "ftz", "signed_zero", "bit_exact", "atol", "rtol",
 * "ulp_count"; NULL outside the enum. */
const char *dmlconf_tolerance_field_name(dmlconf_tolerance_field field);

/* The form a field belongs to: BOUND for ulp, accumulation and ftz,
 * ABSOLUTE_RELATIVE for atol and rtol, ULP_COUNT for ulp_count;
 * DMLCONF_TOLERANCE_FORM_COUNT for the fields of every form (signed_zero,
 * bit_exact) and outside the enum. */
dmlconf_tolerance_form dmlconf_tolerance_field_form(dmlconf_tolerance_field field);

/* "bound", "absolute_relative", "ulp_count"; NULL outside the enum. */
const char *dmlconf_tolerance_form_name(dmlconf_tolerance_form form);

/* Fills *tol with the defaults for an output of `type`: the BOUND form;
 * FLOAT32: U = 1, float32 accumulation, FTZ allowed; FLOAT16: U = 2,
 * float32 accumulation, no FTZ; integers: bit-exact. Signed zeros are
 * loose; atol, rtol and ulp_count are 0. Returns false (with the FLOAT32
 * defaults in *tol) when `type` is not computable. */
bool dmlconf_tolerance_default(dmlconf_data_type type, dmlconf_tolerance *tol);

/* Checks that *tol makes sense for an output of `type`: a known form; for
 * BOUND, U finite and >= 0, accumulation FLOAT32 or FLOAT16, FLOAT16
 * accumulation only for FLOAT16 data; for ABSOLUTE_RELATIVE, atol and rtol
 * finite and >= 0; for ULP_COUNT, a count that is a whole number, finite and
 * >= 0. Integer types pass whatever the float settings say (they are
 * compared bit for bit). Returns 0, or -1 with err->message set (err may be
 * NULL) and *field (may be NULL) naming the field at fault
 * (DMLCONF_TOLERANCE_FIELD_NONE when the type or the form is). */
int dmlconf_tolerance_check(dmlconf_data_type type, const dmlconf_tolerance *tol, dmlconf_tolerance_field *field,
                            dmlconf_error *err);

/* The tolerance for an output of `type`: the defaults, then every field set
 * in *overrides (NULL: none). Setting atol or rtol selects the
 * ABSOLUTE_RELATIVE form (the other of the two stays 0 unless set), setting
 * ulp_count the ULP_COUNT form. Fields of different forms cannot be
 * combined: ulp, accumulation or ftz with atol, rtol or ulp_count, or atol
 * or rtol with ulp_count; that is an error at the field that changes the
 * form (atol, rtol or ulp_count). The result is then checked with
 * dmlconf_tolerance_check. Returns 0 with *tol filled, or -1 with *tol
 * holding the defaults, err->message set (err may be NULL) and *field (may
 * be NULL) naming the field at fault. */
int dmlconf_tolerance_resolve(dmlconf_data_type type, const dmlconf_tolerance_overrides *overrides,
                              dmlconf_tolerance *tol, dmlconf_tolerance_field *field, dmlconf_error *err);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_TOLERANCE_H */
