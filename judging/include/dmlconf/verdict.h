/*
 * The verdict of a run: the per-feature-level matrix its results are
 * counted in, and the verdict it states. Every report and every command's
 * exit status take the verdict from here, so that each says the same.
 *
 * The matrix has one column per feature level at which these operators
 * changed (2_1, 3_1, 4_0, 5_0) and a last column for every later level
 * ("5_1+"). A case counts in every column at or above its min_feature_level
 * (DMLCONF_FEATURE_LEVEL_NONE, "no level", counts in every column); each
 * cell holds passed / failed / skipped counts for one operator and data
 * type:
 *   passed:  pass, expected-fail, flake
 *   failed:  fail, error, crash, timeout, unexpected-pass
 *   skipped: skip
 *
 * The verdict of a run is one of five (dmlconf_run_status):
 *   "interrupted"  the run was stopped before its end (SIGINT, SIGTERM);
 *   "incomplete"   otherwise, when the results do not cover the run: a case
 *                  file did not load (completely), the results file has no
 *                  completion record (the run died), fewer results than the
 *                  cases it set out to run, or a partial merge of shards;
 *   "conformant at level X", for the highest level X, among the matrix's
 *                  column levels that are not above the run's target level
 *                  and the target level itself, such that every case whose
 *                  min_feature_level is at or below X passed;
 *   "conformant at level X for what it supports" (token "partly-covered"),
 *                  when every case at or below such an X that the backend
 *                  supports passed, but some of the cases at or below X were
 *                  skipped as unsupported (result.unsupported: outside the
 *                  capabilities the backend declares, or declined by it);
 *                  the detail names what those cases need and how many
 *                  there are (the matrix's `gaps`), and so does every
 *                  report;
 *   "not conformant" when there is no such level, no case at or below the
 *                  target at all, or none that the backend supports.
 * An interrupted or incomplete run has no conformance verdict, whatever its
 * results say so far (the detail says that too).
 *
 * These break conformance at the case's level and above: fail, error,
 * crash, timeout, unexpected-pass, and a skip for any other reason than
 * being unsupported (a baseline's skips.txt). A case skipped as unsupported
 * breaks nothing but is not covered: a run never says "conformant at level
 * X" while such a case is required at X; it says what it covered and what
 * it did not (and the junit verdict testcase fails: only "conformant at
 * the target level" passes a gate).
 * expected-fail and flake count as passed: expected-fail exists only when a
 * baseline listed the case as a known failure, and a flake passed when
 * rerun; the verdict says how many of each it accepted. A case above the
 * target level never counts against the verdict, nor does a negative case
 * that the run skipped because its desc is valid at the target level (it
 * checks a rejection at a lower level). A negative case skipped because the
 * backend does not validate is not covered, like any unsupported case.
 *
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
    uint64_t breaking;       /* ... that break conformance */
    uint64_t known_failures; /* ... that are expected-fail */
    uint64_t flakes;         /* ... that are flake */
    bool has_broken;
    dmlconf_feature_level lowest_broken_level; /* lowest min_feature_level of a breaking case */
    uint64_t unsupported;                      /* ... that were skipped as unsupported: not covered, not breaking */
    dmlconf_feature_level lowest_unsupported_level; /* lowest min_feature_level of those (when any) */
    dmlconf_matrix_gap *gaps;                       /* those, grouped by what they need, sorted by it */
    size_t gap_count;
    size_t gap_capacity;
    uint64_t ulp_histogram[DMLCONF_ULP_BINS]; /* sum of the comparisons' ULP histograms */
    double device_seconds;                    /* sum of backend_seconds >= 0 */
    uint64_t device_timed;                    /* cases with a backend time */
    /* Completeness (dmlconf_matrix_set_completeness); a new matrix has none
     * of it and judges its results as a whole run. */
    bool planned_known;
    uint64_t planned;     /* cases the run set out to run */
    uint64_t load_errors; /* errors in case files that kept cases out */
    dmlconf_run_end end;
} dmlconf_matrix;

/* The five verdicts of a run; see the rule at the top of this header. */
typedef enum dmlconf_run_status
{
    DMLCONF_RUN_CONFORMANT,
    DMLCONF_RUN_NOT_CONFORMANT,
    DMLCONF_RUN_INCOMPLETE,
    DMLCONF_RUN_INTERRUPTED,
    DMLCONF_RUN_PARTLY_COVERED, /* conformant for what it supports; cases it does not support are not covered */
    DMLCONF_RUN_STATUS_COUNT
} dmlconf_run_status;

/* The stable token of a verdict for machines: "conformant",
 * "not-conformant", "incomplete", "interrupted", "partly-covered"; NULL
 * outside the enum. */
const char *dmlconf_run_status_name(dmlconf_run_status status);

/* The verdict of a run. */
typedef struct dmlconf_run_verdict
{
    dmlconf_run_status status;
    bool conformant;             /* status is DMLCONF_RUN_CONFORMANT (at some level) */
    dmlconf_feature_level level; /* the highest conformant level, NONE when not conformant */
    dmlconf_feature_level target_level;
    bool at_target; /* conformant, and level == target_level: the only verdict a gate passes */
    /* The highest level at which every case the backend supports passed:
     * `level` when conformant, the X of "conformant at level X for what it
     * supports", NONE otherwise. */
    dmlconf_feature_level supported_level;
    uint64_t not_covered; /* cases at or below the target skipped as unsupported (matrix->gaps says which) */
    char text[64];        /* "conformant at level 4_0", "conformant at level 6_4 for what it supports",
                           * "not conformant", "incomplete", "interrupted" */
    char detail[1024];    /* one sentence: target, what broke, what the baseline excused, what was not
                           * covered, what is missing */
} dmlconf_run_verdict;

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
/* Computes the verdict from what was added so far. */
void dmlconf_matrix_verdict(const dmlconf_matrix *matrix, dmlconf_run_verdict *out);
/* Frees the rows and zeroes the matrix. NULL is ignored. */
void dmlconf_matrix_free(dmlconf_matrix *matrix);
/* The three-way class of a status for the matrix. */
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
