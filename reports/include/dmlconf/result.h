/*
 * The result of running one case: what the runner records, streams to
 * results.jsonl and summarises. A result never says which backend produced
 * the values it judges; the run's device information travels separately
 * (dmlconf_run_info).
 */
#ifndef DMLCONF_RESULT_H
#define DMLCONF_RESULT_H

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
    DMLCONF_STATUS_EXPECTED_FAIL,   /* failed, and the baseline says it fails */
    DMLCONF_STATUS_UNEXPECTED_PASS, /* passed, but the baseline says it fails */
    DMLCONF_STATUS_FLAKE,           /* failed, then passed when rerun (or listed flaky) */
    DMLCONF_STATUS_COUNT
} dmlconf_status;

/* "pass", "fail", "skip", "error", "crash", "timeout", "expected-fail",
 * "unexpected-pass", "flake"; NULL outside the enum. */
const char *dmlconf_status_name(dmlconf_status status);
bool dmlconf_status_from_name(const char *name, dmlconf_status *status);
/* True for the statuses that make a run fail (fail, error, crash, timeout,
 * unexpected-pass). */
bool dmlconf_status_is_failure(dmlconf_status status);

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
    double tolerance;          /* the tolerance used, absolute */
} dmlconf_mismatch;

/* The comparator's findings for one case. */
typedef struct dmlconf_comparison
{
    uint64_t elements;   /* output elements compared */
    uint64_t mismatches; /* elements outside tolerance */
    uint64_t unjudged;   /* range-ambiguous elements accepted without judgement */
    double max_error_ulps;
    double max_tolerance_fraction;
    bool has_first; /* first mismatch in logical order */
    dmlconf_mismatch first;
    bool has_worst; /* largest tolerance fraction (a mismatch if any, else the closest call) */
    dmlconf_mismatch worst;
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
    dmlconf_status status;
    char message[512]; /* why it failed, errored or was skipped */
    dmlconf_comparison comparison;
    uint32_t attempts;      /* 2 when a failure was rerun */
    double backend_seconds; /* the case's own time on the device (GPU timestamps), < 0 if unknown */
    double wall_seconds;    /* the case's own wall time: preparing and judging it, and its share (by
                             * elements) of the backend call that ran its batch; < 0 if unknown */
    char repro_path[256];   /* minimal reproducer written for a failure, or "" */
} dmlconf_case_result;

/* Room for the environment of a run (dmlconf_run_info.environment). */
#define DMLCONF_RUN_ENVIRONMENT_SIZE 2048

/* What every report says about the run: device, backend, versions, the
 * command line, the seed, and what a results file is part of (its shard,
 * the corpus it was cut from, the cases it set out to run), so that shards
 * can be checked before they are merged and a case can be rerun as it ran. */
typedef struct dmlconf_run_info
{
    char dmlconf_version[32];
    char backend[64];
    char adapter[160];
    char driver[160];
    char runtime[160];
    bool software_adapter;
    dmlconf_feature_level target_level;
    uint64_t seed;
    char command_line[1024];
    char started_utc[32]; /* ISO 8601 */
    char host[128];
    char adapter_requested[160]; /* --adapter as given; "" when the backend chose */
    uint32_t shard_index;        /* 0-based */
    uint32_t shard_count;        /* 1 when the run was not sharded (0 reads as 1) */
    char corpus_digest[24];      /* hex digest of the cases selected over every shard; "" when unknown */
    uint64_t corpus_cases;       /* cases selected over every shard */
    uint64_t planned_cases;      /* cases this run (this shard) set out to run */
    /* "NAME=VALUE" lines of the environment variables that affected the run
     * (dmlconf_run_info_add_environment). */
    char environment[DMLCONF_RUN_ENVIRONMENT_SIZE];
    bool environment_incomplete; /* a variable was left out: no room, or a line break in it */
} dmlconf_run_info;

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_RESULT_H */
