/*
 * The verdict of one case: how an implementation's answer to a case's job
 * becomes the case's status and message. The engine runs the job and says
 * what came back (dmlconf_answer); everything that decides is here: the
 * comparator over the output, the canary after its end and between its
 * elements, the rejection of an invalid desc, a job declined or failed, and
 * resources that ran out. The verdict never knows which backend answered.
 */
#ifndef DMLCONF_CASE_VERDICT_H
#define DMLCONF_CASE_VERDICT_H

#include <dmlconf/comparator.h>
#include <dmlconf/result.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How an implementation answered one job. */
typedef enum dmlconf_answer_kind
{
    DMLCONF_ANSWER_DONE,         /* it ran; the output buffer holds its result (negative case: it accepted the desc) */
    DMLCONF_ANSWER_REJECTED,     /* it refused the desc as invalid */
    DMLCONF_ANSWER_DECLINED,     /* it said it cannot run this valid case (unsupported) */
    DMLCONF_ANSWER_FAILED,       /* the implementation or its device failed */
    DMLCONF_ANSWER_NO_RESOURCES, /* it could not get the memory or other resources the case needs */
} dmlconf_answer_kind;

typedef struct dmlconf_answer
{
    dmlconf_answer_kind kind;
    dmlconf_reason reason;               /* REJECTED: why (NONE when it cannot tell) */
    dmlconf_feature_level feature_level; /* the level it was asked to validate at */
    const char *message;                 /* its own words; may be NULL */
    double device_seconds;               /* its time on the device; < 0 when unknown */
} dmlconf_answer;

/* Judges a negative case: the implementation must refuse the desc, for the
 * oracle's `expected` reason when it names one. Sets r->status and
 * r->message (the rest of *r is left as it is): pass when refused for that
 * reason (or none named), fail when accepted or refused for another,
 * skip (unsupported) when declined, error when failed, no-resources when
 * resources ran out. */
void dmlconf_case_verdict_rejection(const dmlconf_answer *answer, dmlconf_reason expected, dmlconf_case_result *r);

/* Judges a positive case's output: the answer must be DONE, nothing may
 * have been written past the output's end (its DMLCONF_CANARY_GUARD bytes
 * of `canary_bits` after compare->actual_bytes, which the buffer must
 * hold), and every element must pass the comparator (compare->tol names
 * the canary the output was filled with when unwritten elements would
 * still hold it). Bytes written between strided elements are reported in
 * the message, never failed (DirectML may write an output's whole range).
 * Sets r->status, r->message, r->comparison and r->backend_seconds. A
 * comparator that cannot run (a reader that fails, memory) makes the case
 * an error with its sentence. */
void dmlconf_case_verdict_output(const dmlconf_answer *answer, const dmlconf_compare_job *compare,
                                 uint64_t canary_bits, dmlconf_case_result *r);

/* Marks a case the implementation does not support: skipped, unsupported,
 * with what it needs ("INT64", "validation", "declined when run"), the
 * key the verdict groups such cases by, and why. */
void dmlconf_case_verdict_unsupported(dmlconf_case_result *r, const char *needs, const char *why);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_CASE_VERDICT_H */
