/*
 * The comparator: judges a backend's output against the oracle, element by
 * element, with the tolerance rule of the project's oracle notes ("The
 * comparator rule") or the tolerance a case states in another form
 * (tolerance.h). It never knows which backend produced the values.
 *
 * Float outputs are judged against a bound that every legitimate evaluation
 * order meets (sequential, Hillis-Steele, Blelloch, chunked, decoupled
 * look-back; float32 accumulation with flush-to-zero; float16 data
 * accumulated in float32 and converted with round-toward-zero or
 * round-to-nearest). Integer outputs are bit-exact.
 *
 * Every function is reentrant and keeps no global state.
 */
#ifndef DMLCONF_COMPARATOR_H
#define DMLCONF_COMPARATOR_H

#include <dmlconf/comparison.h>
#include <dmlconf/oracle.h>
#include <dmlconf/tolerance.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The verdict on one element. */
typedef enum dmlconf_verdict
{
    DMLCONF_VERDICT_PASS,
    DMLCONF_VERDICT_FAIL,
    DMLCONF_VERDICT_UNJUDGED, /* accepted without judgement: some legitimate order may
                               * overflow, or the bound is infinite */
} dmlconf_verdict;

/* The judgement of one element. Every field is a number, never NaN.
 * error_ulps is +INFINITY when exactly one of the two values is a NaN;
 * tolerance_fraction is +INFINITY when the difference cannot be measured
 * against the tolerance (a NaN where a number was due, a wrong sign of zero
 * under strict_signed_zero, any difference where the tolerance is 0). For
 * PASS, tolerance_fraction <= 1; for FAIL, tolerance_fraction > 1; for
 * UNJUDGED it is informative only (0 when the tolerance is infinite). */
typedef struct dmlconf_judgement
{
    dmlconf_verdict verdict;
    dmlconf_rule rule;         /* the rule that decided (comparison.h) */
    double error_ulps;         /* distance in ulps of the output format (floats: steps
                                * between the two values, +0 and -0 one value; integers:
                                * modular distance min(d, 2^w - d)) */
    double tolerance;          /* the absolute tolerance used; 0 for exact checks, except
                                * after a narrowing conversion: the gap to the expected
                                * value's neighbour toward zero, which may be taken (the
                                * fraction is then exactly 1) */
    double tolerance_fraction; /* |actual - expected| / tolerance; 0 when both are 0 */
} dmlconf_judgement;

/* A judge prepared for one operator, output type and tolerance, so that
 * judging an element costs no set-up. Fill it with dmlconf_judge_init; the
 * derived fields are read-only. */
typedef struct dmlconf_judge
{
    dmlconf_operator op;
    dmlconf_data_type type;
    dmlconf_tolerance tol;
    bool valid; /* false: set-up failed, every element fails (rule INVALID) */
    /* Derived: the output format (floats only). */
    bool is_float;
    unsigned out_bits;        /* 16 or 32 (floats), 32 or 64 (integers) */
    int out_precision;        /* significand bits, hidden bit included */
    double out_max;           /* largest finite value */
    double out_threshold;     /* exact values from here round to Inf: 2^(emax+1) (1 - 2^-(p+1)) */
    double out_top_ulp;       /* ulp of the largest binade */
    bool narrowing;           /* the accumulator is wider than the output (float16 output
                               * from float32 accumulation) */
    double conversion_factor; /* 1 + 2^-p_out when narrowing, else 1 */
    /* Derived: the accumulator. */
    int acc_precision;        /* p_acc: 24 or 11 */
    int acc_emin;             /* -126 or -14 */
    int acc_emax;             /* 127 or 15 */
    double acc_unit_roundoff; /* u_acc: 2^-24 or 2^-11 */
    double acc_omega;         /* Omega: FLT_MAX or 65504 */
    double acc_threshold;     /* the accumulator's overflow threshold */
    double acc_log2_omega;    /* log2(Omega) */
    double acc_min_normal;    /* 2^acc_emin: what one flush to zero may lose */
    double acc_tau;           /* products' underflow error per operation: 2^acc_emin with FTZ,
                               * half the smallest subnormal without */
    double acc_zero_log2;     /* log2 of the magnitude below which a product may become 0 */
} dmlconf_judge;

/* Room for one element printed by dmlconf_format_element, terminator
 * included ("-1.17549435e-38 (0x80800000)", "-9223372036854775808
 * (0x8000000000000000)"). */
#define DMLCONF_ELEMENT_TEXT_SIZE 48u

/* ---- one element ---------------------------------------------------------- */

/* Steps between two elements of a float type (FLOAT32 or FLOAT16 bits, zero
 * extended): the bits are mapped to an ordered integer (sign-magnitude to
 * two's complement, +0 and -0 to the same point, Inf one step past the
 * largest finite value), so the distance is right across zero. Returns
 * +INFINITY when exactly one of them is a NaN, 0 when both are. For integer
 * types returns the modular distance min(d, 2^w - d). Returns +INFINITY for
 * a type that is not computable. */
double dmlconf_ulp_distance(dmlconf_data_type type, uint64_t a_bits, uint64_t b_bits);

/* The spacing of the float format `type` (FLOAT32 or FLOAT16) at |value|:
 * the smallest subnormal below the smallest normal (so ulp(0) is the
 * smallest subnormal), the spacing of the largest binade for values beyond
 * the largest finite one. Returns 0 for other types and NaN values. */
double dmlconf_ulp_of(dmlconf_data_type type, double value);

/* Prepares *judge for `op`, an output of `type` and *tol (NULL for the
 * defaults of `type`). Returns 0, or -1 with err->message set (err may be
 * NULL) when the operator is not a cumulative one, the type is not
 * computable or the tolerance is invalid (dmlconf_tolerance_check); *judge
 * then judges every element as a failure (rule INVALID). */
int dmlconf_judge_init(dmlconf_judge *judge, dmlconf_operator op, dmlconf_data_type type, const dmlconf_tolerance *tol,
                       dmlconf_error *err);

/* Judges one output element: `expected_bits` is the oracle's value (or the
 * case's expected value), `actual_bits` the implementation's, both as raw
 * bits of the output type zero extended; `side` describes the element's
 * prefix (dmlconf_scan_line over the input; unused for integers, may then
 * be NULL). The rule, in order:
 *   integers: bit-exact;
 *   bit_exact: bits equal (any NaN matches any NaN);
 *   expected NaN: actual must be a NaN;
 *   expected +-Inf from an Inf input: actual must be the same Inf (a NaN is
 *     accepted, unjudged, where a legitimate order can turn the finite part
 *     into an opposite Inf or a product into 0 x Inf);
 *   exact by construction (every order computes the exact value): bit-exact
 *     up to the output conversion (float16 output from float32 accumulation:
 *     the expected value, or its neighbour toward zero where the exact value
 *     may lie between the two);
 *   range-ambiguous (some order may overflow) or an infinite bound: +-Inf,
 *     NaN or an in-tolerance value, unjudged;
 *   a product with a zero factor (and no overflow possible): exactly zero;
 *   otherwise: finite and |actual - expected| <= tol, where Inf stands for
 *     the output format's overflow threshold.
 * +0 equals -0 unless tol.strict_signed_zero; when it is set, zeros of
 * opposite signs fail first (rule SIGNED_ZERO). A tolerance of another form
 * replaces everything after "expected NaN": ABSOLUTE_RELATIVE needs the same
 * Inf for an infinite expected value and otherwise a finite actual within
 * atol + rtol |expected|; ULP_COUNT needs at most ulp_count steps
 * (dmlconf_ulp_distance) between the two, Inf one step past the largest
 * finite value. Neither uses `side`. dmlconf_judge_init takes ulp_count as
 * it stands (dmlconf_compare first replaces it by the axis length minus 1
 * when ulp_count_axis_length_minus_1 is set). Writes the judgement to *out
 * (may be NULL) and returns the verdict. */
dmlconf_verdict dmlconf_judge_bits(const dmlconf_judge *judge, uint64_t expected_bits, uint64_t actual_bits,
                                   const dmlconf_side_data *side, dmlconf_judgement *out);

/* dmlconf_judge_init followed by dmlconf_judge_bits, for one element: the
 * same arguments and result (FAIL with rule INVALID when the set-up fails). */
dmlconf_verdict dmlconf_judge_element(dmlconf_operator op, dmlconf_data_type type, uint64_t expected_bits,
                                      uint64_t actual_bits, const dmlconf_side_data *side, const dmlconf_tolerance *tol,
                                      dmlconf_judgement *out);

/* ---- a whole tensor ------------------------------------------------------- */

/* Compares a backend's output tensor with the oracle.
 *   logical_input: the input tensor's logical elements, packed row-major;
 *   logical_expected: the case's expected values, packed row-major, or NULL
 *     to judge against the oracle's values (side data always comes from the
 *     input);
 *   actual, actual_bytes: the backend's output buffer, laid out by
 *     desc->output's strides from element offset 0;
 *   tol: NULL for dmlconf_tolerance_default(desc->output.data_type); a
 *     ULP_COUNT tolerance of the axis length minus 1 counts the length of
 *     desc's axis.
 * Walks the tensor line by line, computing the oracle and its side data one
 * line at a time (O(axis length) extra memory), and fills *out (zeroed
 * first): counts, maxima over judged elements, the first mismatches in
 * logical order (first, samples), the worst element (the largest tolerance
 * fraction: a mismatch if there is one, else the closest call) and the
 * histogram of judged elements. Every recorded element carries the rule
 * that judged it.
 * Returns 0 when the comparison ran (whatever it found). Returns -1 with
 * err->message set (err may be NULL; *out is left zeroed) when the desc is
 * invalid (checked at the highest feature level), a pointer is NULL, actual_bytes is smaller
 * than the output tensor's minimum size, the tolerance is invalid, or
 * scratch memory cannot be allocated. */
int dmlconf_compare(const dmlconf_scan_desc *desc, const void *logical_input, const void *logical_expected,
                    const void *actual, size_t actual_bytes, const dmlconf_tolerance *tol, dmlconf_comparison *out,
                    dmlconf_error *err);

/* Where the comparator reads a tensor's elements: a buffer laid out by a
 * tensor desc, or a function that reads packed logical elements. */
typedef struct dmlconf_tensor_source
{
    /* A buffer of `bytes` bytes laid out by `layout` (the compared tensor's
     * sizes, with its own strides; NULL: packed row-major) from element
     * offset 0. */
    const void *buffer;
    size_t bytes;
    const dmlconf_tensor_desc *layout;
    /* Or, when buffer is NULL: reads logical elements [first, first +
     * count) (packed row-major indices) into out, and returns 0, or -1 with
     * a sentence in why. It may be called from several threads at once. */
    int (*read)(void *context, uint64_t first, uint64_t count, void *out, char *why, size_t why_size);
    void *context;
} dmlconf_tensor_source;

/* One comparison: what dmlconf_compare takes, with the input and the
 * expected values read from any source, and threads to spend. */
typedef struct dmlconf_compare_job
{
    const dmlconf_scan_desc *desc;
    dmlconf_tensor_source input;    /* the input's logical elements (required) */
    dmlconf_tensor_source expected; /* the case's expected values; neither a buffer nor a reader:
                                     * the oracle's values */
    const void *actual;             /* the backend's output buffer, laid out by desc->output */
    size_t actual_bytes;
    const dmlconf_tolerance *tol; /* NULL: the output type's defaults */
    unsigned threads;             /* threads to use, the caller's included (0 or 1: the caller's only) */
} dmlconf_compare_job;

/* Compares a backend's output tensor with the oracle (or the case's expected
 * values), as dmlconf_compare does, in bounded memory: lines are judged in
 * chunks, the oracle's scan carried from chunk to chunk (dmlconf_scan_walk),
 * so no line's input, expected values or side data is ever held whole;
 * lines along an outer axis are walked a block of lines at a time, reading
 * each row of the block once. With threads > 1, blocks of lines go to
 * threads of their own, and a few long lines are judged by a pipeline (the
 * oracle's scan of one chunk, the side data of the one before and the
 * judging of the one before that, at once). The result is the same whatever
 * the thread count, and the same as dmlconf_compare's on the same values.
 * Memory: about 50 bytes per element of the chunks in flight (a few
 * million elements at most), nothing per element of the tensor.
 * Returns 0 when the comparison ran, or -1 with err set (err may be NULL;
 * *out left zeroed) for dmlconf_compare's errors, a source that has neither
 * a buffer nor a reader (the input), a buffer smaller than its layout needs,
 * a reader that fails (its sentence), threads that cannot start, or memory
 * that runs out. */
int dmlconf_compare_tensor(const dmlconf_compare_job *job, dmlconf_comparison *out, dmlconf_error *err);

/* ---- printing ------------------------------------------------------------- */

/* Prints an element of `type` given as raw bits (zero extended) in decimal
 * and hex: "1.5 (0x3fc00000)", "-0 (0x8000)", "nan (0x7fc00000)", "-3
 * (0xfffffffd)". Floats print with enough digits to round-trip. Writes at
 * most `size` bytes, always terminated when size > 0, and returns `buffer`.
 * An unknown type prints just the hex bits. */
char *dmlconf_format_element(dmlconf_data_type type, uint64_t bits, char *buffer, size_t size);

/* Room for the rule's clause of dmlconf_format_rule, terminator included. */
#define DMLCONF_RULE_TEXT_SIZE 256u

/* Prints the rule that judged one element and how the element stands
 * against it, the clause that ends dmlconf_format_mismatch's line: "rule:
 * tolerance bound (U ulp + accumulation allowance) 1.19e-07; error 2.38e-07
 * (2 ulp) = 2x the bound", "rule: integers are bit-exact; 3 apart". The
 * mismatch's expected_bits are the reference's value, actual_bits the value
 * judged. Writes at most `size` bytes (DMLCONF_RULE_TEXT_SIZE is always
 * enough), always terminated when size > 0, and returns `buffer`. */
char *dmlconf_format_rule(dmlconf_data_type type, const dmlconf_mismatch *mismatch, char *buffer, size_t size);

/* Room for one line of dmlconf_format_mismatch, terminator included: the
 * longest line (8 coordinates, a 64-bit index, two 64-bit elements, the
 * longest rule clause) fits. */
#define DMLCONF_MISMATCH_TEXT_SIZE 384u

/* Prints one judged element as a line for messages and reports, naming the
 * rule that judged it, such as "element [0, 2, 1] (index 9): expected 1.5
 * (0x3fc00000), actual 1.50000024 (0x3fc00002); rule: tolerance bound (U ulp
 * + accumulation allowance) 1.19e-07; error 2.38e-07 (2 ulp) = 2x the bound",
 * "...; rule: bit-exact by construction (every order gives the exact value);
 * 1 ulp apart", "...; rule: NaN expected, any NaN passes", "...; rule: signed
 * zero (signed_zero: strict), so +0 and -0 differ". Writes at most `size`
 * bytes (DMLCONF_MISMATCH_TEXT_SIZE is always enough), always terminated
 * when size > 0, and returns `buffer`. */
char *dmlconf_format_mismatch(dmlconf_data_type type, const dmlconf_mismatch *mismatch, char *buffer, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_COMPARATOR_H */
