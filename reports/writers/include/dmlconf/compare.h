/*
 * dmlconf comparisons: what changed between two runs of one corpus (an
 * older run OLD, a newer one NEW, each read from its results.jsonl), for
 * the CI job that gates a driver or an implementation on "no new
 * failures".
 *
 * Every case is matched by id. The conformance view of a status
 * (dmlconf_status_classify: passed, failed, skipped) decides:
 *   regression     fails in NEW (fail, error, crash, timeout, expected-fail)
 *                  and did not in OLD (it passed or was skipped);
 *   fix            failed in OLD, passes in NEW;
 *   status change  any other change of status (a pass now skipped, a fail
 *                  now a crash), or of what went wrong (result.failure:
 *                  values now unwritten);
 *   added, removed in one run only;
 *   not run        only in OLD, when NEW did not finish (its missing cases
 *                  are the run's incompleteness, not a corpus change), and
 *                  the reverse;
 *   changed case   in both, but not the same case: another operator, data
 *                  type, rank, mode, direction, minimum level, negative or
 *                  not, or (both judged) another number of output elements;
 *   device time    slower or faster beyond the noise: both runs measured
 *                  the case's time on the device (backend_seconds), the
 *                  ratio of the two is at least `time_ratio` and they differ
 *                  by at least `time_min_seconds` (both, so that neither a
 *                  tiny case's jitter nor a long case's few percent count).
 * A case added that fails is listed with its status, never as a regression:
 * there is no earlier result for it to regress from.
 *
 * Before any of that, the runs must have run one corpus: their headers'
 * corpus digests (when both have one), corpus sizes, cases planned and
 * shards must agree, and no case may be in one finished run only or have
 * changed; a comparison of different corpora is refused unless asked for
 * (allow_different_corpus), and says how they differ either way. Scopes
 * (the whole corpus, a subset, the self-check...), backends, adapters,
 * drivers, target levels, seeds and environments may differ; the
 * comparison says each difference, and never compares different scopes
 * without saying so.
 *
 * The comparison's answer and exit status, like a run's (verdict.h):
 *   0  no regressions (both runs complete);
 *   1  regressions;
 *   2  incomplete: a run was interrupted, has no completion record (it
 *      died, or a truncated last line was dropped), is a partial merge,
 *      had case files that did not load or fewer results than it planned,
 *      or the corpora differ (refused); also what the command uses for
 *      results it cannot read;
 *   3  setup error (the command's: a usage error, a report folder that
 *      cannot be written).
 * Nothing here keeps global state.
 */
#ifndef DMLCONF_COMPARE_H
#define DMLCONF_COMPARE_H

#include <dmlconf/reports.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* File names a comparison writes into its folder. */
#define DMLCONF_COMPARISON_MD   "comparison.md"
#define DMLCONF_COMPARISON_HTML "comparison.html"
#define DMLCONF_COMPARISON_JSON "comparison.json"

/* The noise rule's defaults: measured between corpus runs on an H100
 * (reports/gpu/nvidia-h100-2026-11-26*), 99% of the cases' device times
 * agreed within a ratio of 1.3-1.5 and 3-9 microseconds. */
#define DMLCONF_COMPARE_TIME_RATIO       1.5
#define DMLCONF_COMPARE_TIME_MIN_SECONDS 20e-6

/* What a comparison is asked for. */
typedef struct dmlconf_compare_options
{
    bool allow_different_corpus; /* compare runs of different corpora (saying how they differ) */
    double time_ratio;           /* > 1: the ratio of device times that counts as a change */
    double time_min_seconds;     /* >= 0: the difference in device time that counts as a change */
} dmlconf_compare_options;

/* Fills *options with the defaults: different corpora refused, the noise
 * rule's default thresholds. */
void dmlconf_compare_options_default(dmlconf_compare_options *options);

/* What happened to one case between the runs. */
typedef enum dmlconf_change_kind
{
    DMLCONF_CHANGE_REGRESSION,
    DMLCONF_CHANGE_FIX,
    DMLCONF_CHANGE_STATUS,
    DMLCONF_CHANGE_ADDED,
    DMLCONF_CHANGE_REMOVED,
    DMLCONF_CHANGE_NOT_RUN_NEW, /* in OLD; NEW did not finish before it */
    DMLCONF_CHANGE_NOT_RUN_OLD, /* in NEW; OLD did not finish before it */
    DMLCONF_CHANGE_DEFINITION,
    DMLCONF_CHANGE_SLOWER,
    DMLCONF_CHANGE_FASTER,
    DMLCONF_CHANGE_KIND_COUNT
} dmlconf_change_kind;

/* "regressions", "fixes", "status_changes", "added", "removed",
 * "not_run_in_new", "not_run_in_old", "changed_cases", "slower", "faster":
 * the keys of comparison.json; NULL outside the enum. */
const char *dmlconf_change_kind_name(dmlconf_change_kind kind);
/* What each list is called for people: "Regressions: new failures",
 * "Fixes", "Slower on the device (beyond the noise)", ... */
const char *dmlconf_change_kind_title(dmlconf_change_kind kind);

/* One case's change. The results belong to the runs compared. */
typedef struct dmlconf_case_change
{
    const dmlconf_case_result *old_result; /* NULL when only in NEW */
    const dmlconf_case_result *new_result; /* NULL when only in OLD */
    char what[160];                        /* a changed case: what differs ("dtype FLOAT32, now FLOAT16") */
} dmlconf_case_change;

/* The changes of one kind, sorted by id: (items, count, capacity). */
typedef struct dmlconf_change_list
{
    dmlconf_case_change *items;
    size_t count;
    size_t capacity;
} dmlconf_change_list;

/* One of the two runs, as the comparison sees it. */
typedef struct dmlconf_compared_run
{
    const char *path;                 /* its results.jsonl (not owned) */
    const dmlconf_results_file *file; /* not owned */
    dmlconf_run_verdict verdict;      /* as its own reports state it */
    dmlconf_matrix matrix;            /* for the verdict per feature level */
    bool complete;                    /* it ran every case it planned, to its end */
    char incomplete_reason[256];      /* why not, or "" */
    uint64_t device_timed;            /* cases with a device time */
} dmlconf_compared_run;

/* A comparison of two runs. Fill it with dmlconf_compare_runs; free it
 * with dmlconf_run_comparison_free. A large struct: allocate it. */
typedef struct dmlconf_run_comparison
{
    dmlconf_compare_options options;
    dmlconf_compared_run old_run;
    dmlconf_compared_run new_run;
    /* The corpora: whether they differ, and how (one sentence each). */
    bool corpus_differs;
    char **corpus_differences;
    size_t corpus_difference_count;
    /* Anything else that differs between the runs (the scope first, when it
     * does), one sentence each. */
    bool scope_differs;
    char **run_differences;
    size_t run_difference_count;
    dmlconf_change_list changes[DMLCONF_CHANGE_KIND_COUNT];
    uint64_t in_both;         /* cases in both runs */
    uint64_t timed_in_both;   /* ... of which both runs measured the device time */
    double old_timed_seconds; /* the device time of those, summed, in OLD */
    double new_timed_seconds; /* ... and in NEW */
    /* The regressions grouped by cause (as summary.md groups failures):
     * one title and count per group, the largest first. */
    char (*regression_causes)[192];
    size_t *regression_cause_counts;
    size_t regression_cause_count;
    /* The answer: "no regressions", "regressions", "incomplete: ...", and
     * the exit status that goes with it. */
    char answer[320];
    const char *answer_token; /* "no-regressions", "regressions", "incomplete", "refused" */
    int exit_status;
} dmlconf_run_comparison;

/* Compares two runs read from results.jsonl files (old_path and new_path
 * name them in every output; the files and paths must outlive *out).
 * Fills *out (overwritten). Different corpora not allowed by the options
 * give answer_token "refused" and exit status 2 (corpus_differences says
 * how they differ; the change lists are filled all the same, for a caller
 * that shows them). Returns 0, or -1 with why set when memory runs out;
 * free *out with dmlconf_run_comparison_free in both cases. */
int dmlconf_compare_runs(const char *old_path, const dmlconf_results_file *old_file, const char *new_path,
                         const dmlconf_results_file *new_file, const dmlconf_compare_options *options,
                         dmlconf_run_comparison *out, char *why, size_t why_size);

/* Frees what *comparison holds and zeroes it. NULL is ignored. */
void dmlconf_run_comparison_free(dmlconf_run_comparison *comparison);

/* Each writes one report of a comparison to an open stream (the stream
 * stays the caller's) and returns 0, or -1 with why set when the stream
 * reports a write error or memory runs out. */

/* comparison.json: both runs (their run info, verdicts, verdicts per
 * feature level, completeness), the corpus and run differences, the noise
 * rule, the counts, every change with its statuses, the answer and the
 * exit status. */
int dmlconf_write_comparison_json(FILE *out, const dmlconf_run_comparison *comparison, char *why, size_t why_size);
/* comparison.md: the same for people, each list cut at a few hundred rows
 * (comparison.json has them all). */
int dmlconf_write_comparison_markdown(FILE *out, const dmlconf_run_comparison *comparison, char *why, size_t why_size);
/* comparison.html: the same on one self-contained page (inline CSS, no
 * script, no external resource). */
int dmlconf_write_comparison_html(FILE *out, const dmlconf_run_comparison *comparison, char *why, size_t why_size);

/* Writes comparison.md, comparison.html and comparison.json into `dir`
 * (created if needed; each file written to a temporary name and renamed
 * into place). Returns 0, or -1 with why set; the other files are still
 * attempted. */
int dmlconf_run_comparison_write_all(const char *dir, const dmlconf_run_comparison *comparison, char *why,
                                     size_t why_size);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_COMPARE_H */
