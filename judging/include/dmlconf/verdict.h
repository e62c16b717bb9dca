/*
 * The verdict of a run: the per-feature-level matrix its results are
 * counted in, the verdict it states, and the exit status that goes with it.
 * Every report, the console and every command's exit status take the
 * verdict from here, so that each says the same, with its scope.
 *
 * The matrix has one column per feature level at which these operators
 * changed (2_1, 3_1, 4_0, 5_0) and a last column for every later level
 * ("5_1+"). A case counts in every column at or above its min_feature_level
 * (DMLCONF_FEATURE_LEVEL_NONE, "no level", counts in every column); each
 * cell holds passed / failed / skipped counts for one operator and data
 * type, by what the implementation did (the conformance view):
 *   passed:  pass, flake (failed, then passed when rerun), unexpected-pass
 *   failed:  fail, error, crash, timeout, expected-fail (a failure the
 *            baseline knows is still a failure)
 *   skipped: skip, no-resources (not judged)
 *
 * The scope (dmlconf_verdict_scope) says what the results are of: the whole
 * reference corpus (the default corpus this dmlconf was built with, every
 * case of it selected), a subset of it (filters, a case list, a shard), case
 * files of the user's own, or random cases (explore); and whether the
 * backend was an implementation under test or the oracle judging itself
 * (the self-check). Only the whole corpus on an implementation under test
 * can be conformant.
 *
 * The verdict (dmlconf_run_status), first match wins:
 *   "interrupted"    the run was stopped before its end (SIGINT, SIGTERM);
 *   "incomplete"     the results do not cover the run: a case file did not
 *                    load (completely), the results file has no completion
 *                    record (the run died), fewer results than the cases it
 *                    set out to run, a partial merge of shards, cases not
 *                    judged for lack of resources (no-resources), or
 *                    nothing judged at all (no case at or below the target,
 *                    or none the backend supports);
 *   the whole corpus on an implementation under test:
 *   "conformant at level X", for the highest level X, among the matrix's
 *                    column levels that are not above the run's target level
 *                    and the target level itself, such that every case whose
 *                    min_feature_level is at or below X passed;
 *   "conformant at level X for what it supports" (token "partly-covered"),
 *                    when every case at or below such an X that the backend
 *                    supports passed, but some of the cases at or below X were
 *                    skipped as unsupported (outside the capabilities the
 *                    backend declares, or declined by it); the detail names
 *                    what those cases need and how many there are;
 *   "not conformant" when there is no such level;
 *   any other scope (a subset, the user's files, random cases, or the
 *   self-check), which never claims conformance:
 *   "passed" (or "self-check passed") when every case at or below the
 *                    target passed; "passed for what it supports" (token
 *                    "partly-covered") when some were unsupported;
 *   "failed" (or "self-check failed") otherwise.
 * An interrupted or incomplete run has no verdict, whatever its results say
 * so far (the detail says that too).
 *
 * These break a level (the case's and above): fail, error, crash, timeout,
 * expected-fail, and a skip for any other reason than being unsupported (a
 * baseline's skips.txt: not tested). A case skipped as unsupported breaks
 * nothing but is not covered. A flake counts as passed, and the verdict says
 * how many there were. A case above the target level never counts, nor does
 * a negative case that the run skipped because its desc is valid at the
 * target level (it checks a rejection at a lower level). A negative case
 * skipped because the backend does not validate is not covered, like any
 * unsupported case.
 *
 * A baseline answers another question, "no regressions", beside the
 * verdict (which it never changes: known failures stay failures): there are
 * none when no case failed in a way the baseline does not expect (a new
 * failure, or a known one that now ends in another status), no known
 * failure passed (the baseline is out of date: unexpected-pass) and, under
 * a strict baseline, no baseline line is stale.
 *
 * The exit status (dmlconf_verdict_exit_status), the same for run, merge
 * and explore:
 *   0  passed: conformant at the target level, passed (a subset, the user's
 *      files, random cases, the self-check), or, with a baseline, no
 *      regressions;
 *   1  failed: a case failed (not conformant, failed), or, with a baseline,
 *      regressions;
 *   2  incomplete: interrupted, cases missing or not judged, nothing
 *      judged, or (without a baseline) cases not covered;
 *   3  setup error: the command could not start (a usage error, a backend,
 *      adapter or plugin that cannot be used, a report folder that cannot
 *      be used); decided before any verdict.
 */
#ifndef DMLCONF_VERDICT_H
#define DMLCONF_VERDICT_H

#include <dmlconf/result.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How a run ended: the completion record that closes results.jsonl. */
typedef enum dmlconf_run_end_kind
{
    DMLCONF_END_NONE,        /* no completion record: the run died, or is still running */
    DMLCONF_END_FINISHED,    /* it ran to its end */
    DMLCONF_END_INTERRUPTED, /* it was stopped early (SIGINT, SIGTERM) */
    DMLCONF_END_PARTIAL,     /* a merge of shards that accepted missing, unfinished or repeated ones */
    DMLCONF_END_KIND_COUNT
} dmlconf_run_end_kind;

typedef struct dmlconf_run_end
{
    dmlconf_run_end_kind kind;
    uint64_t cases;         /* the case lines before the record */
    double elapsed_seconds; /* from the header to the record; < 0 when unknown */
    char reason[256];       /* interrupted: by what; partial: what was missing; else "" */
} dmlconf_run_end;

/* "none", "finished", "interrupted", "partial"; NULL outside the enum. */
const char *dmlconf_run_end_name(dmlconf_run_end_kind kind);
bool dmlconf_run_end_from_name(const char *name, dmlconf_run_end_kind *kind);

/* ---- the per-feature-level matrix ----------------------------------------- */

#define DMLCONF_MATRIX_MAX_COLUMNS 16

/* One column: the cases with min_feature_level <= up_to count in it. */
typedef struct dmlconf_matrix_column
{
    dmlconf_feature_level level; /* the level the column is named after */
    dmlconf_feature_level up_to; /* level, or the highest known level for the last column */
    char label[16];              /* "2_1", ..., "5_1+" */
    bool above_target;           /* level > the run's target: shown, never judged */
} dmlconf_matrix_column;

/* Counts of one operator and data type in one column. */
typedef struct dmlconf_matrix_cell
{
    uint64_t passed;      /* pass, expected-fail, flake */
    uint64_t failed;      /* fail, error, crash, timeout, unexpected-pass (and unknown statuses) */
    uint64_t skipped;     /* skip */
    uint64_t unsupported; /* of the skipped, those the backend does not support */
    uint64_t statuses[DMLCONF_STATUS_COUNT];
} dmlconf_matrix_cell;

/* Cases at or below the target that the run did not cover because the
 * backend does not support what they need: one group per need. */
typedef struct dmlconf_matrix_gap
{
    char needs[96];                     /* result.needs: "INT64", "validation", ... */
    uint64_t cases;                     /* how many */
    uint64_t negative;                  /* ... of which negative cases */
    dmlconf_feature_level lowest_level; /* the lowest min_feature_level among them */
} dmlconf_matrix_gap;

typedef struct dmlconf_matrix_row
{
    dmlconf_operator op;
    dmlconf_data_type data_type;
    dmlconf_matrix_cell cells[DMLCONF_MATRIX_MAX_COLUMNS];
} dmlconf_matrix_row;

/* The matrix and everything the summaries count. Fill it with
 * dmlconf_matrix_init and dmlconf_matrix_add; free it with
 * dmlconf_matrix_free. Rows are kept sorted by operator, then data type. */
/* What a run's results are of. */
typedef enum dmlconf_scope_kind
{
    DMLCONF_SCOPE_CORPUS,  /* the whole reference corpus: every case of it selected */
    DMLCONF_SCOPE_SUBSET,  /* part of it: filters, a case list, a shard */
    DMLCONF_SCOPE_FILES,   /* case files of the user's own (or a results file that does not say) */
    DMLCONF_SCOPE_EXPLORE, /* random cases drawn by dmlconf explore */
    DMLCONF_SCOPE_KIND_COUNT
} dmlconf_scope_kind;

/* "corpus", "subset", "files", "explore"; NULL outside the enum. */
const char *dmlconf_scope_kind_name(dmlconf_scope_kind kind);
bool dmlconf_scope_kind_from_name(const char *name, dmlconf_scope_kind *kind);

/* The scope of a verdict: what was tested, on what, and which questions
 * the run asks. */
typedef struct dmlconf_verdict_scope
{
    dmlconf_scope_kind kind;
    /* The oracle judged against itself: dmlconf's self-check, never an
     * implementation under test. */
    bool self_check;
    /* A baseline was applied: the run also answers "no regressions". */
    bool baseline;
    /* Under --strict-baseline, the baseline's lines that match no case
     * (stale) count against "no regressions". */
    bool strict_baseline;
    uint64_t stale_baseline_lines;
    /* For people: which part, which files ("filter 'doc.*'", "shard 1 of 3",
     * "cases/mine.yaml"); "" for the whole corpus. */
    char detail[256];
} dmlconf_verdict_scope;

typedef struct dmlconf_matrix
{
    dmlconf_feature_level target_level; /* the highest known level when the run gave none */
    size_t column_count;
    dmlconf_matrix_column columns[DMLCONF_MATRIX_MAX_COLUMNS];
    size_t row_count;
    size_t row_capacity;
    dmlconf_matrix_row *rows;
    dmlconf_matrix_cell totals[DMLCONF_MATRIX_MAX_COLUMNS]; /* every row of a column */
    uint64_t case_count;
    uint64_t status_counts[DMLCONF_STATUS_COUNT];
    uint64_t unknown_status_count;              /* statuses outside the enum */
    uint64_t histogram[DMLCONF_HISTOGRAM_BINS]; /* sum of the comparisons' histograms */
    uint64_t elements;                          /* sum of comparison.elements */
    double wall_seconds;                        /* sum of wall_seconds >= 0 */
    /* Verdict inputs, over the cases at or below the target level. */
    uint64_t required;       /* cases at or below the target */
    uint64_t breaking;       /* ... that break a level (failed, or skipped but not as unsupported) */
    uint64_t known_failures; /* ... that are expected-fail (failures the baseline accepts) */
    uint64_t flakes;         /* ... that are flake */
    uint64_t baseline_skips; /* ... skipped for another reason than being unsupported (skips.txt) */
    bool has_broken;
    dmlconf_feature_level lowest_broken_level; /* lowest min_feature_level of a breaking case */
    uint64_t unsupported;                      /* ... that were skipped as unsupported: not covered, not breaking */
    dmlconf_feature_level lowest_unsupported_level; /* lowest min_feature_level of those (when any) */
    dmlconf_matrix_gap *gaps;                       /* those, grouped by what they need, sorted by it */
    size_t gap_count;
    size_t gap_capacity;
    uint64_t no_resources; /* ... not judged for lack of resources: the verdict is incomplete */
    /* The baseline's question, over every case: failures it does not
     * accept (new ones, or known ones that ended in another status) and
     * known failures that passed. */
    uint64_t regressions;
    uint64_t unexpected_passes;
    uint64_t ulp_histogram[DMLCONF_ULP_BINS]; /* sum of the comparisons' ULP histograms */
    double device_seconds;                    /* sum of backend_seconds >= 0 */
    uint64_t device_timed;                    /* cases with a backend time */
    /* Completeness (dmlconf_matrix_set_completeness); a new matrix has none
     * of it and judges its results as a whole run. */
    bool planned_known;
    uint64_t planned;     /* cases the run set out to run */
    uint64_t load_errors; /* errors in case files (or case lists) that kept cases out */
    dmlconf_run_end end;
    /* What the results are of (dmlconf_matrix_set_scope); a new matrix's
     * is case files of the user's own, which never claim conformance. */
    dmlconf_verdict_scope scope;
} dmlconf_matrix;

/* The verdicts of a run; see the rule at the top of this header. */
typedef enum dmlconf_run_status
{
    DMLCONF_RUN_CONFORMANT,
    DMLCONF_RUN_NOT_CONFORMANT,
    DMLCONF_RUN_INCOMPLETE,
    DMLCONF_RUN_INTERRUPTED,
    DMLCONF_RUN_PARTLY_COVERED, /* everything it supports passed; cases it does not support are not covered */
    DMLCONF_RUN_PASSED,         /* a scope that claims no conformance: every case passed */
    DMLCONF_RUN_FAILED,         /* a scope that claims no conformance: a case failed */
    DMLCONF_RUN_STATUS_COUNT
} dmlconf_run_status;

/* The stable token of a verdict for machines: "conformant",
 * "not-conformant", "incomplete", "interrupted", "partly-covered",
 * "passed", "failed"; NULL outside the enum. */
const char *dmlconf_run_status_name(dmlconf_run_status status);

/* The baseline's answer. */
typedef enum dmlconf_baseline_answer
{
    DMLCONF_BASELINE_NONE,           /* no baseline was applied */
    DMLCONF_BASELINE_NO_REGRESSIONS, /* every failure as the baseline expects, no known failure passed */
    DMLCONF_BASELINE_REGRESSIONS,    /* a failure it does not expect, a known failure that passed, or a
                                      * stale line under a strict baseline */
    DMLCONF_BASELINE_UNANSWERED,     /* the run is incomplete or interrupted: no answer */
} dmlconf_baseline_answer;

/* "none", "no-regressions", "regressions", "unanswered"; NULL outside. */
const char *dmlconf_baseline_answer_name(dmlconf_baseline_answer answer);

/* The verdict of a run. */
typedef struct dmlconf_run_verdict
{
    dmlconf_run_status status;
    bool conformant;             /* status is DMLCONF_RUN_CONFORMANT (at some level) */
    dmlconf_feature_level level; /* the highest conformant level, NONE when not conformant */
    dmlconf_feature_level target_level;
    bool at_target; /* conformant, and level == target_level: the only conformance a gate passes */
    /* The highest level at which every case the backend supports passed:
     * `level` when conformant, the X of "conformant at level X for what it
     * supports", NONE otherwise (and for scopes that claim no level). */
    dmlconf_feature_level supported_level;
    uint64_t not_covered; /* cases at or below the target skipped as unsupported (matrix->gaps says which) */
    uint64_t breaking;    /* cases at or below the target that failed or were skipped (not as unsupported) */
    dmlconf_verdict_scope scope;
    char text[64];         /* "conformant at level 4_0", "conformant at level 6_4 for what it supports",
                            * "not conformant", "passed", "self-check failed", "incomplete", "interrupted" */
    char scope_text[384];  /* "the whole corpus on an implementation under test", "a subset of the corpus
                            * (filter 'doc.*'): no conformance claim", ... */
    char detail[1024];     /* one sentence: target, what broke, what the baseline accepted, flakes, what was
                            * not covered, what is missing */
    dmlconf_baseline_answer baseline;
    char baseline_text[256]; /* "no regressions against the baseline (8 known failures accepted)"; "" without */
    int exit_status;         /* dmlconf_verdict_exit_status */
} dmlconf_run_verdict;

/* The exit statuses (the table at the top of this header). */
enum
{
    DMLCONF_EXIT_PASSED = 0,
    DMLCONF_EXIT_FAILED = 1,
    DMLCONF_EXIT_INCOMPLETE = 2,
    DMLCONF_EXIT_SETUP = 3,
};

/* Starts an empty matrix for a run whose target level is `target`
 * (DMLCONF_FEATURE_LEVEL_NONE: the highest known level). The columns come
 * from dmlconf_feature_levels(). Allocates nothing. */
void dmlconf_matrix_init(dmlconf_matrix *matrix, dmlconf_feature_level target);
/* Counts one result. Returns 0, or -1 when memory for a new row runs out
 * (nothing is counted then). */
int dmlconf_matrix_add(dmlconf_matrix *matrix, const dmlconf_case_result *result);
/* Whether every case of the column passed, all of them covered: false for
 * a column above the target level, one that a breaking case reaches, and
 * one with a case skipped as unsupported. */
bool dmlconf_matrix_column_conformant(const dmlconf_matrix *matrix, size_t column);
/* Whether every case of the column that the backend supports passed while
 * some were skipped as unsupported (the column's "partly"). */
bool dmlconf_matrix_column_partly_covered(const dmlconf_matrix *matrix, size_t column);
/* The word for a column's "conformant" row in every report: "above" (the
 * target), "yes", "partly" or "no". */
const char *dmlconf_matrix_column_word(const dmlconf_matrix *matrix, size_t column);
/* Writes the verdict's not-covered groups as one phrase ("2238 cases
 * (FLOAT16: 733, INT64: 743, UINT64: 723, validation: 39)"), at most size
 * bytes with the NUL, and returns the length the whole phrase has, as
 * snprintf does; "" when the run covered every case. */
size_t dmlconf_matrix_format_gaps(const dmlconf_matrix *matrix, char *buf, size_t size);
/* Tells the matrix how complete its results are: the cases the run set out
 * to run, the errors in case files that kept cases out, and how the run
 * ended (end->cases is not used: the matrix counts its own). */
void dmlconf_matrix_set_completeness(dmlconf_matrix *matrix, uint64_t planned, uint64_t load_errors,
                                     const dmlconf_run_end *end);
/* Tells the matrix what its results are of (copied). */
void dmlconf_matrix_set_scope(dmlconf_matrix *matrix, const dmlconf_verdict_scope *scope);
/* Computes the verdict, its scope, the baseline's answer and the exit
 * status from what was added so far. */
void dmlconf_matrix_verdict(const dmlconf_matrix *matrix, dmlconf_run_verdict *out);
/* The exit status of a command whose run ended in `verdict`. */
int dmlconf_verdict_exit_status(const dmlconf_run_verdict *verdict);
/* Whether the verdict passes a gate: exit status 0. */
bool dmlconf_verdict_passes(const dmlconf_run_verdict *verdict);
/* Frees the rows and zeroes the matrix. NULL is ignored. */
void dmlconf_matrix_free(dmlconf_matrix *matrix);

/* The three-way class of a status for the matrix (the conformance view at
 * the top of this header). */
typedef enum dmlconf_status_class
{
    DMLCONF_CLASS_PASSED,
    DMLCONF_CLASS_FAILED,
    DMLCONF_CLASS_SKIPPED,
} dmlconf_status_class;
dmlconf_status_class dmlconf_status_classify(dmlconf_status status);

/* Whether a matrix cell holds any case. */
bool dmlconf_matrix_cell_empty(const dmlconf_matrix_cell *cell);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_VERDICT_H */
