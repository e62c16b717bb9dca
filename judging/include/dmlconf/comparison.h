/*
 * dmlconf comparison: what the comparator found in one output tensor, and
 * the rule each element was judged by. The comparator (comparator.h) fills
 * it; results (result.h) carry it into the reports.
 */
#ifndef DMLCONF_COMPARISON_H
#define DMLCONF_COMPARISON_H

#include <dmlconf/oracle.h>

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which part of the rule decided an element. */
typedef enum dmlconf_rule
{
    DMLCONF_RULE_INVALID,           /* the judge was not usable (unknown type or operator) */
    DMLCONF_RULE_INTEGER,           /* integer output: bit-exact */
    DMLCONF_RULE_BIT_EXACT,         /* the tolerance's bit_exact */
    DMLCONF_RULE_NAN,               /* expected NaN: any NaN */
    DMLCONF_RULE_INF_INPUT,         /* expected +-Inf from an Inf input: the same Inf */
    DMLCONF_RULE_EXACT,             /* exact by construction: bit-exact up to the output conversion */
    DMLCONF_RULE_AMBIGUOUS,         /* range-ambiguous or unbounded: unjudged unless out of tolerance */
    DMLCONF_RULE_ZERO_PRODUCT,      /* a product with a zero factor: exactly zero */
    DMLCONF_RULE_BOUND,             /* the tolerance bound |actual - expected| <= U ulp + accumulation */
    DMLCONF_RULE_SIGNED_ZERO,       /* strict signed zeros: +0 and -0 differ */
    DMLCONF_RULE_ABSOLUTE_RELATIVE, /* |actual - expected| <= atol + rtol |expected| */
    DMLCONF_RULE_ULP_COUNT,         /* at most the tolerance's count of ulps apart */
    DMLCONF_RULE_UNKNOWN,           /* not recorded (a result read from a file that does not say) */
    DMLCONF_RULE_UNWRITTEN,         /* the element still holds the canary the runner filled it with */
    DMLCONF_RULE_BOUND_FLOAT16,     /* the half-precision rule: the bound with float16 accumulation */
    DMLCONF_RULE_COUNT
} dmlconf_rule;

/* "invalid", "integer", "bit_exact", "nan", "inf_input", "exact",
 * "ambiguous", "zero_product", "bound", "signed_zero", "absolute_relative",
 * "ulp_count", "unknown", "unwritten", "bound_float16"; NULL outside the
 * enum. */
const char *dmlconf_rule_name(dmlconf_rule rule);

/* The rule named `name` (as dmlconf_rule_name writes it). Returns false,
 * leaving *rule alone, for any other text (NULL included). */
bool dmlconf_rule_from_name(const char *name, dmlconf_rule *rule);

/* Bins of the error/tolerance histogram: bin i < 10 counts judged elements
 * whose |error| / tolerance lies in [i/10, (i+1)/10); bin 10 counts those
 * above 1 (failures). Exact matches count in bin 0. */
#define DMLCONF_HISTOGRAM_BINS 11
/* Mismatches kept per case for the reports' diffs. */
#define DMLCONF_MISMATCH_SAMPLES 8
/* Bins of the ULP-error histogram: bin 0 counts judged elements with no
 * error; bin k (1 <= k < DMLCONF_ULP_BINS - 1) those whose error in ulps lies
 * in [2^(k-1), 2^k), bin 1 also taking errors below 1 ulp; the last bin
 * those of 2^(DMLCONF_ULP_BINS - 2) ulps or more, infinite ones included. */
#define DMLCONF_ULP_BINS 24
/* Bins of position along the scan axis: element j of a scan of n elements
 * (j counted in scan order, so 0 is the first element summed whichever the
 * direction) falls in bin floor(j * DMLCONF_POSITION_BINS / n). */
#define DMLCONF_POSITION_BINS 16

/* What a wrong output looks like as a whole: the cause a failure points at,
 * as the diagnosis (dmlconf/diagnosis.h) found it. The first ones say what
 * the output is (it passes when judged as that); the others say where the
 * wrong elements are along the scan axis. */
typedef enum dmlconf_pattern
{
    DMLCONF_PATTERN_NONE,                 /* not diagnosed, or none of these */
    DMLCONF_PATTERN_OTHER_MODE,           /* the scan of the other mode: inclusive for exclusive, or the reverse */
    DMLCONF_PATTERN_REVERSED,             /* the scan in the other direction along the axis */
    DMLCONF_PATTERN_ELEMENT_LEFT_OUT,     /* the scan with the element at scan position pattern_position of
                                           * every line left out (taken as the identity) */
    DMLCONF_PATTERN_OTHER_OPERATOR,       /* the other operator's scan (a sum for a product, or the reverse) */
    DMLCONF_PATTERN_INPUT_COPIED,         /* the input, bit for bit: nothing was computed */
    DMLCONF_PATTERN_FLOAT16_ACCUMULATION, /* float16 results within the bound of float16 accumulation,
                                           * outside float32's */
    DMLCONF_PATTERN_EVERY_ELEMENT,        /* every element wrong */
    DMLCONF_PATTERN_FIRST_ONLY,           /* only elements at the first scan position */
    DMLCONF_PATTERN_LAST_ONLY,            /* only elements at the last scan position */
    DMLCONF_PATTERN_FROM_POSITION,        /* every element from scan position pattern_position on, in every
                                           * line, and none before */
    DMLCONF_PATTERN_COUNT
} dmlconf_pattern;

/* "other-mode", "reversed", "element-left-out", "other-operator",
 * "input-copied", "float16-accumulation", "every-element", "first-only",
 * "last-only", "from-position"; "" for none; NULL outside the enum. */
const char *dmlconf_pattern_name(dmlconf_pattern pattern);
/* The pattern named `name` (as dmlconf_pattern_name writes it, "" for
 * none). Returns false, leaving *pattern alone, for any other text. */
bool dmlconf_pattern_from_name(const char *name, dmlconf_pattern *pattern);

/* One mismatching (or worst) element. Bits hold the raw element (zero
 * extended), so every type prints exactly. */
typedef struct dmlconf_mismatch
{
    uint64_t logical_index; /* packed row-major index */
    uint32_t coordinates[DMLCONF_MAX_DIMENSIONS];
    uint32_t dimension_count;
    uint64_t expected_bits;
    uint64_t actual_bits;
    double error_ulps;         /* |actual - expected| in ulps of expected's format; 0 for integers equal */
    double tolerance_fraction; /* |actual - expected| / tolerance; +inf when the tolerance is 0 */
    double tolerance;          /* the tolerance used, absolute (for the ULP_COUNT rule: the count
                                * times ulp(expected)) */
    dmlconf_rule rule;         /* the rule the element was judged by */
} dmlconf_mismatch;

/* The comparator's findings for one case. */
typedef struct dmlconf_comparison
{
    uint64_t elements;   /* output elements compared */
    uint64_t mismatches; /* elements outside tolerance */
    uint64_t unjudged;   /* range-ambiguous elements accepted without judgement */
    /* Elements that still hold the runner's canary (tolerance has_canary):
     * `unwritten` of them failed (rule UNWRITTEN); `canary_ambiguous` were
     * left unjudged because the expected value is the canary itself (the
     * runner then runs the case again with another canary). */
    uint64_t unwritten;
    uint64_t canary_ambiguous;
    double max_error_ulps;
    double max_tolerance_fraction;
    bool has_first; /* first mismatch in logical order */
    dmlconf_mismatch first;
    bool has_worst; /* largest tolerance fraction (a mismatch if any, else the closest call) */
    dmlconf_mismatch worst;
    /* The mismatch earliest along its scan: the smallest scan position
     * (element j of a scan of n, counted in the scan's direction) of any
     * mismatch, and the first line (in row-major order of the coordinates
     * other than the axis) where one falls there. A fault that corrupts
     * the second element of every scan shows as position 1, whatever the
     * direction. */
    bool has_earliest;
    uint64_t earliest_position;
    uint64_t earliest_line;
    /* With has_earliest, the largest scan position of any mismatch. */
    uint64_t latest_position;
    /* The scan's shape: the axis length and the number of lines along it
     * (0 when nothing was compared). */
    uint64_t axis_length;
    uint64_t lines;
    /* What the wrong elements have in common (not set by the comparator:
     * dmlconf_diagnose fills them in); pattern_position is the scan
     * position of ELEMENT_LEFT_OUT and FROM_POSITION, else 0. */
    dmlconf_pattern pattern;
    uint64_t pattern_position;
    uint32_t sample_count; /* the first mismatches in logical order, for diffs */
    dmlconf_mismatch samples[DMLCONF_MISMATCH_SAMPLES];
    uint64_t histogram[DMLCONF_HISTOGRAM_BINS];
    /* Where the errors fall, for the reports' charts. Judged elements only
     * (unjudged ones are left out of all three). */
    uint64_t ulp_histogram[DMLCONF_ULP_BINS];
    uint64_t position_mismatches[DMLCONF_POSITION_BINS]; /* elements outside tolerance per position bin */
    double position_max_fraction[DMLCONF_POSITION_BINS]; /* the largest |error| / tolerance per position bin */
    double position_max_ulps[DMLCONF_POSITION_BINS];     /* the largest error in ulps per position bin */
} dmlconf_comparison;

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_COMPARISON_H */
