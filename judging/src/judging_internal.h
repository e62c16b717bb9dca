/*
 * What the judging library's files share and nobody else needs.
 */
#ifndef DMLCONF_JUDGING_INTERNAL_H
#define DMLCONF_JUDGING_INTERNAL_H

#include <dmlconf/compiler.h>
#include <dmlconf/oracle.h>

#include <dmlconf/comparator.h>

/* ---- the rule (judge.c) ------------------------------------------------------ */

/* True when no later element of a line whose side data has reached
 * `current` can be judged differently whatever its side data's magnitude
 * fields (abs_sum, log2_max_partial, log2_min_partial): the accumulation
 * bound is infinite from here on (the rule calls every such element
 * range-ambiguous) and the exactness test can no longer pass. The
 * comparator then lets the side walk settle (dmlconf_side_walk.settled). */
bool judging_side_settled(const dmlconf_judge *judge, const dmlconf_side_data *current, bool exclusive);

/* ---- the comparison summary (summary.c) ------------------------------------ */

/* An element that still holds the canary: a failure (never written), or,
 * when the expected value is the canary itself, ambiguous: unjudged, and
 * counted so that the runner can run the case again with another canary.
 * Counts it in *out and writes its judgement to *j. */
void judging_judge_canary(uint64_t expected, uint64_t got, dmlconf_comparison *out, dmlconf_judgement *j);

/* Adds one judged element to the summary; `position` is its position bin
 * along the scan axis and `scan_position` its place in the scan (element j
 * of n, in the scan's direction). Until judging_finish, earliest_line holds
 * the logical index of the earliest mismatch (for one scan position, index
 * order is line order). */
void judging_tally(dmlconf_comparison *out, uint64_t index, uint64_t expected, uint64_t actual,
                   const dmlconf_judgement *j, unsigned position, uint64_t scan_position);

/* judging_tally for `count` elements whose actual bits equal the expected
 * ones under a rule that passes them with no error (integers, bit_exact);
 * `index` is the smallest of their indices and `bits` that element's. */
void judging_tally_equal(dmlconf_comparison *out, uint64_t count, uint64_t index, uint64_t bits, dmlconf_rule rule);

/* Adds the summary of another part of the tensor to *into (the parts must
 * not share elements). */
void judging_merge(dmlconf_comparison *into, const dmlconf_comparison *part);

/* Sets the first mismatch, every recorded element's coordinates, the
 * earliest mismatch's line and the scan's shape (axis length, lines), for
 * the scan along `axis` of `desc`. */
void judging_finish(dmlconf_comparison *out, const dmlconf_tensor_desc *desc, uint32_t axis);

/* Formats a message into err->message (err may be NULL: nothing) with
 * dmlconf_set_why: cut to fit with "..." at the end when it is longer. */
void judging_set_error(dmlconf_error *err, const char *format, ...) DMLCONF_PRINTF_LIKE(2, 3);

#endif /* DMLCONF_JUDGING_INTERNAL_H */
