/*
 * The result of running one case: what the runner records, streams to
 * results.jsonl and summarises. A result never says which backend produced
 * the values it judges; the run's device information travels separately
 * (dmlconf_run_info, in the reports).
 */
#ifndef DMLCONF_RESULT_H
#define DMLCONF_RESULT_H

#include <dmlconf/comparison.h>
#include <dmlconf/oracle.h>

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Statuses, as deqp-runner has them. */
typedef enum dmlconf_status
{
    DMLCONF_STATUS_PASS,
    DMLCONF_STATUS_FAIL,
    DMLCONF_STATUS_SKIP,  /* not supported at the target level or by the backend */
    DMLCONF_STATUS_ERROR, /* invalid case, or the backend reported an error */
    DMLCONF_STATUS_CRASH, /* the process running the case died */
    DMLCONF_STATUS_TIMEOUT,
    DMLCONF_STATUS_EXPECTED_FAIL,   /* failed as the baseline expects (known_status), or a known flake failed
                                     * every attempt: a failure the baseline accepts */
    DMLCONF_STATUS_UNEXPECTED_PASS, /* passed, but the baseline says it fails */
    DMLCONF_STATUS_FLAKE,           /* failed, then passed when rerun */
    /* Not judged: the memory or other resources the case needs could not
     * be had (the backend's device, or this machine's --memory-limit). The
     * verdict is then incomplete; it is never a conformance failure. */
    DMLCONF_STATUS_NO_RESOURCES,
    DMLCONF_STATUS_COUNT
} dmlconf_status;

/* "pass", "fail", "skip", "error", "crash", "timeout", "expected-fail",
 * "unexpected-pass", "flake", "no-resources"; NULL outside the enum. */
const char *dmlconf_status_name(dmlconf_status status);
bool dmlconf_status_from_name(const char *name, dmlconf_status *status);
/* True for the statuses that make a run fail (fail, error, crash, timeout,
 * unexpected-pass). */
bool dmlconf_status_is_failure(dmlconf_status status);

/* What went wrong with a case that did not pass, as its verdict decided it
 * (so that nobody has to read it back out of the message). */
typedef enum dmlconf_failure
{
    DMLCONF_FAILURE_NONE,
    DMLCONF_FAILURE_VALUES,           /* elements outside tolerance */
    DMLCONF_FAILURE_UNWRITTEN,        /* every element outside tolerance was never written */
    DMLCONF_FAILURE_PAST_END,         /* it wrote past the end of its output buffer */
    DMLCONF_FAILURE_REFUSED_VALID,    /* it refused a desc valid at the target level */
    DMLCONF_FAILURE_ACCEPTED_INVALID, /* it accepted a desc it must refuse */
    DMLCONF_FAILURE_WRONG_REASON,     /* it refused an invalid desc for another reason */
    DMLCONF_FAILURE_BACKEND_ERROR,    /* the backend or its device reported an error */
    DMLCONF_FAILURE_JUDGING,          /* dmlconf could not run or judge it (its data, memory, the comparator) */
    DMLCONF_FAILURE_CRASH,            /* the process running it died */
    DMLCONF_FAILURE_TIMEOUT,          /* it did not finish in time */
    DMLCONF_FAILURE_COUNT
} dmlconf_failure;

/* "values", "unwritten", "past-end", "refused-valid", "accepted-invalid",
 * "wrong-reason", "backend-error", "judging", "crash", "timeout"; "" for
 * none; NULL outside the enum. */
const char *dmlconf_failure_name(dmlconf_failure failure);
bool dmlconf_failure_from_name(const char *name, dmlconf_failure *failure);

/* Everything recorded for one case. Strings are owned by the struct (fixed
 * buffers, truncated if longer). */
typedef struct dmlconf_case_result
{
    char id[160];
    char file[256];
    uint32_t line;
    dmlconf_operator op;
    dmlconf_data_type data_type;
    uint32_t dimension_count;
    dmlconf_feature_level min_feature_level;
    bool negative;   /* an expect_error case */
    bool exclusive;  /* the scan's mode: exclusive (or inclusive) ... */
    bool decreasing; /* ... along a decreasing (or increasing) direction */
    /* Skipped because the backend cannot execute what the case needs (its
     * capabilities): a gap in what the run covered, which the verdict
     * names. */
    bool unsupported;
    /* With unsupported: what the case needs that the backend lacks, the key
     * the verdict groups such cases by ("INT64", "validation", "strided
     * tensors"; "declined when run" for a job the backend itself said it
     * cannot run). "" otherwise. */
    char needs[96];
    dmlconf_status status;
    /* expected-fail: the failure the baseline expects, which the case had
     * (fail, error, crash or timeout); unset (pass) otherwise. */
    dmlconf_status known_status;
    dmlconf_failure failure; /* what went wrong, when it did */
    char message[1024];      /* why it failed, errored or was skipped */
    dmlconf_comparison comparison;
    uint32_t attempts;      /* 2 when a failure was rerun */
    double backend_seconds; /* the case's own time on the device (GPU timestamps), < 0 if unknown */
    double wall_seconds;    /* the case's own wall time: preparing and judging it, and its share (by
                             * elements) of the backend call that ran its batch; < 0 if unknown */
    char repro_path[256];   /* minimal reproducer written for a failure, or "" */
} dmlconf_case_result;

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_RESULT_H */
