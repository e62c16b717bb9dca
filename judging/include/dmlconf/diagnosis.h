/*
 * The diagnosis of a wrong output: what it looks like as a whole, so that
 * failures can be grouped by their cause rather than by the cases they
 * happen in (a dropped element shows in every operator, type, rank and
 * mode). It tells nothing the comparator did not judge: the case has
 * failed already; the diagnosis only names the pattern (comparison.h,
 * dmlconf_pattern).
 */
#ifndef DMLCONF_DIAGNOSIS_H
#define DMLCONF_DIAGNOSIS_H

#include <dmlconf/comparator.h>

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Outputs above this many elements are diagnosed by the positions of their
 * wrong elements only (each hypothesis below judges the whole output once
 * more). */
#define DMLCONF_DIAGNOSIS_MAX_ELEMENTS (UINT64_C(1) << 22)

/* Diagnoses the output of `job`, which the comparator judged into
 * *comparison with mismatches: sets comparison->pattern and
 * pattern_position (NONE when nothing fits, or when there is no mismatch).
 * First, unless every mismatch is an unwritten element or the output has
 * more than DMLCONF_DIAGNOSIS_MAX_ELEMENTS elements, what the output is:
 * the same output judged, with the same tolerance, against
 *   the scan of the other mode (OTHER_MODE),
 *   the scan in the other direction (REVERSED),
 *   the scan of the input with the element at scan position k of every
 *     line taken as the identity, k the earliest mismatch's scan position
 *     (one before it for an exclusive scan) (ELEMENT_LEFT_OUT, k),
 *   the other operator's scan (OTHER_OPERATOR),
 *   the input, bit for bit (INPUT_COPIED),
 *   for float16 outputs judged by the default bound, the bound of float16
 *     accumulation (FLOAT16_ACCUMULATION);
 * the first of these that passes, with at least one element judged, is the
 * pattern. Then where the wrong elements are, from the comparison alone:
 * every element (EVERY_ELEMENT), only the first scan position
 * (FIRST_ONLY), only the last (LAST_ONLY), every element from scan position
 * k on in every line and none before (FROM_POSITION, k). A hypothesis that
 * cannot be judged (memory, a reader that fails) is taken not to hold.
 * Never fails; takes the memory of one more comparison, and for
 * ELEMENT_LEFT_OUT a copy of the input. */
void dmlconf_diagnose(const dmlconf_compare_job *job, dmlconf_comparison *comparison);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_DIAGNOSIS_H */
