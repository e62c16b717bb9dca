/*
 * Internal interface of the oracle: the per-line kernels that
 * dmlconf_scan_walk (and through it dmlconf_scan_line and dmlconf_compute)
 * dispatches to. Every kernel reads n contiguous input elements in scan
 * order and writes n contiguous outputs; `in` and `out` never overlap (the
 * caller gathers lines into scratch memory when they would). The kernels
 * are resumable: a line may come in pieces, the state carried from one to
 * the next.
 */
#ifndef DMLCONF_ORACLE_KERNELS_H
#define DMLCONF_ORACLE_KERNELS_H

#include "bignum_product.h"
#include "exact_accumulator.h"

#include <dmlconf/compiler.h>
#include <dmlconf/oracle.h>

/* ---- resumable kernels ------------------------------------------------------ */

/* Where a resumable kernel reads the elements of earlier pieces of its line
 * (its exact fallback absorbs them lazily). read NULL: nowhere; the kernel
 * then keeps its exact state current at the end of every piece. */
typedef struct oracle_history
{
    dmlconf_line_reader read;
    void *context;
} oracle_history;

/* Every kernel below absorbs a piece of n elements that starts at element
 * `position` of its line and writes their n inclusive results; pieces come
 * in order, each starting where the last one ended. Results do not depend
 * on how the line is cut into pieces. The states are plain data except the
 * products' (see product_walk_release). */

/* Integer scans, wrapping modulo 2^32 / 2^64 (signedness does not change the
 * bits of a wrapping sum or product): *running is the inclusive result so
 * far (0 or 1 at first). Never fail. */
void oracle_scan_u32_next(dmlconf_operator op, uint64_t *running, size_t n, const uint32_t *in, uint32_t *out);
void oracle_scan_u64_next(dmlconf_operator op, uint64_t *running, size_t n, const uint64_t *in, uint64_t *out);

/* Exact float16 prefix sums (binary16 bit patterns). */
typedef struct sum_f16_walk
{
    uint64_t low, high; /* the sum so far in units of 2^-24, 128-bit two's complement */
    bool leading_zero;  /* every term so far is -0 */
    bool special;       /* the prefix holds a NaN or an infinity */
    uint32_t specials;  /* which, once special */
} sum_f16_walk;
void oracle_sum_f16_init(sum_f16_walk *walk);
void oracle_sum_f16_next(sum_f16_walk *walk, size_t n, const uint16_t *in, uint16_t *out);

/* Exact float32 prefix sums. Returns 0, or -1 with err set when the exact
 * fallback needs elements of earlier pieces and the history cannot give
 * them. */
typedef struct sum_f32_walk
{
    double s, t, b; /* the double-word sum and its error bound (sum_float32.c) */
    exact_acc acc;  /* the lagging exact sum of the line's elements [0, absorbed) */
    uint64_t absorbed;
    bool special;      /* the prefix holds a NaN or an infinity */
    uint32_t specials; /* which, once special */
} sum_f32_walk;
void oracle_sum_f32_init(sum_f32_walk *walk);
int oracle_sum_f32_next(sum_f32_walk *walk, uint64_t position, size_t n, const float *in, float *out,
                        const oracle_history *history, dmlconf_error *err);

/* Exact float32 / float16 prefix products (float16 as bit patterns). Return
 * 0, or -1 with err set when the exact fallback cannot allocate its memory or
 * read the earlier pieces it needs. Release with product_walk_release. */
typedef struct product_value
{
    double hi;        /* in [1, 2) */
    double lo;        /* |lo| <= ulp(hi) / 2 */
    int64_t exponent; /* magnitude ~ (hi + lo) * 2^exponent */
    double error;     /* relative error bound: STEP_ERROR per step */
    bool exact;       /* hi + lo is exactly the product's significand */
} product_value;
typedef struct product_fallback
{
    bignum_product big; /* the exact product of the line's elements [0, absorbed) */
    bool started;       /* big is allocated */
    uint64_t absorbed;
} product_fallback;
typedef struct product_walk
{
    product_value value;       /* the running magnitude of the finite nonzero terms (product_float.c) */
    product_fallback fallback; /* the lagging exact product */
    uint32_t sign;             /* the sign bit of the product so far */
    bool special;              /* a zero, an infinity or a NaN was seen */
    bool nan, zero, infinity;
    uint64_t fallback_period; /* tests: decide every output index that is a multiple of it exactly (0: none) */
    uint64_t output_offset;   /* tests: the output index of element 0's result (1 for an exclusive scan) */
} product_walk;
void oracle_product_init(product_walk *walk);
int oracle_product_f32_next(product_walk *walk, uint64_t position, size_t n, const float *in, float *out,
                            const oracle_history *history, dmlconf_error *err);
int oracle_product_f16_next(product_walk *walk, uint64_t position, size_t n, const uint16_t *in, uint16_t *out,
                            const oracle_history *history, dmlconf_error *err);
void oracle_product_release(product_walk *walk);

/* ---- segment summaries ------------------------------------------------------------ */

/* What a run of elements contributes to every later element of its line
 * (dmlconf_scan_summary): the kernels' state after absorbing them, in a
 * form that combines with the summary of the run that follows, and from
 * which a walk resumes. */

/* Integers: the wrapping sum or product of the run (0 or 1 when empty). */
uint64_t oracle_integer_summary_add(dmlconf_operator op, bool wide, uint64_t running, size_t n, const void *in);
uint64_t oracle_integer_summary_combine(dmlconf_operator op, bool wide, uint64_t first, uint64_t next);

typedef struct sum_f16_summary
{
    uint64_t low, high;     /* the finite terms' sum in units of 2^-24, 128-bit two's complement */
    bool all_negative_zero; /* every term is -0 (true when empty) */
    uint32_t specials;
} sum_f16_summary;
void oracle_sum_f16_summary_init(sum_f16_summary *s);
void oracle_sum_f16_summary_add(sum_f16_summary *s, size_t n, const uint16_t *in);
void oracle_sum_f16_summary_combine(sum_f16_summary *into, const sum_f16_summary *next);
/* A walk from after the summarised prefix; returns the prefix's inclusive
 * result (the next exclusive output). */
uint16_t oracle_sum_f16_resume(sum_f16_walk *walk, const sum_f16_summary *prefix, bool empty);

typedef struct sum_f32_summary
{
    exact_acc acc;          /* the exact sum, specials recorded */
    bool all_negative_zero; /* every term is -0 (true when empty) */
} sum_f32_summary;
void oracle_sum_f32_summary_init(sum_f32_summary *s);
void oracle_sum_f32_summary_add(sum_f32_summary *s, size_t n, const float *in);
void oracle_sum_f32_summary_combine(sum_f32_summary *into, const sum_f32_summary *next);
float oracle_sum_f32_resume(sum_f32_walk *walk, const sum_f32_summary *prefix, uint64_t position, bool empty);

typedef struct product_summary
{
    product_value value; /* the finite nonzero terms before the first special one */
    uint32_t sign;       /* the XOR of every term's sign bit */
    bool special;        /* a zero, an infinity or a NaN was seen */
    bool nan, zero, infinity;
} product_summary;
void oracle_product_summary_init(product_summary *s);
void oracle_product_f32_summary_add(product_summary *s, size_t n, const float *in);
void oracle_product_f16_summary_add(product_summary *s, size_t n, const uint16_t *in);
void oracle_product_summary_combine(product_summary *into, const product_summary *next);
/* The walk from element `position` (the prefix's length) of a float32 or
 * float16 line, and the prefix's inclusive result in *last (rounded from
 * the exact product of the prefix, read through the history, when the
 * summary cannot decide it). Returns 0, or -1 with err set. */
int oracle_product_resume(product_walk *walk, const product_summary *prefix, bool half, uint64_t position,
                          const oracle_history *history, uint32_t *last, dmlconf_error *err);

/* ---- whole lines ----------------------------------------------------------------- */

/* The kernels over one whole line (one piece whose history is the line
 * itself). An exclusive scan writes the identity (0 or 1) first and never
 * the total. */
void oracle_sum_f16(bool exclusive, size_t n, const uint16_t *in, uint16_t *out);
void oracle_sum_f32(bool exclusive, size_t n, const float *in, float *out);
int oracle_product_f32(bool exclusive, size_t n, const float *in, float *out, dmlconf_error *err);
int oracle_product_f16(bool exclusive, size_t n, const uint16_t *in, uint16_t *out, dmlconf_error *err);

/* Side data for one line, same conventions as the kernels. */
void oracle_side_data_integer(bool exclusive, size_t n, dmlconf_side_data *side);
void oracle_side_data_sum_f32(bool exclusive, size_t n, const float *in, dmlconf_side_data *side);
void oracle_side_data_sum_f16(bool exclusive, size_t n, const uint16_t *in, dmlconf_side_data *side);
void oracle_side_data_product_f32(bool exclusive, size_t n, const float *in, dmlconf_side_data *side);
void oracle_side_data_product_f16(bool exclusive, size_t n, const uint16_t *in, dmlconf_side_data *side);

/* Reads elements [first, first + count) of the line from the history into
 * out. Returns 0, or -1 with err set when there is no history or it
 * fails. */
int oracle_history_read(const oracle_history *history, uint64_t first, size_t count, void *out, dmlconf_error *err);

/* Formats a message into err (when not NULL). */
void oracle_set_error(dmlconf_error *err, const char *format, ...)
    DMLCONF_PRINTF_LIKE(2, 3)
    ;

#endif /* DMLCONF_ORACLE_KERNELS_H */
