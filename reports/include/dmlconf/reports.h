/*
 * dmlconf reports: what a run leaves behind for people and for CI.
 *
 * A report set streams results.jsonl as cases finish (one JSON object per
 * line, flushed after each case, so a crash loses nothing) and, when the run
 * finishes, writes summary.json, junit.xml, summary.md, report.html and
 * failures.txt next to it. results.jsonl files from shards are read back
 * with dmlconf_results_read_jsonl and merged with dmlconf_reports_write_all.
 *
 * The per-feature-level matrix and the verdict
 * --------------------------------------------
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
 * The verdict is "conformant at level X" for the highest level X, among the
 * matrix's column levels that are not above the run's target level and the
 * target level itself, such that every case whose min_feature_level is at or
 * below X passed. These break conformance at the case's level and above:
 * fail, error, crash, timeout, unexpected-pass, and skip (a case at or below
 * the target that was skipped is one the backend does not support, e.g. its
 * data type). expected-fail and flake count as passed: expected-fail exists
 * only when a baseline listed the case as a known failure, and a flake passed
 * when rerun; the verdict says how many of each it accepted. A case above
 * the target level never counts against the verdict, nor does a negative
 * case that the run skipped because its desc is valid at the target level
 * (it checks a rejection at a lower level). With no case at or
 * below the target there is no verdict (not conformant).
 *
 * Strings in the records (ids, messages, file names, run info) are escaped
 * for every format they are written in; invalid UTF-8 becomes U+FFFD.
 * Nothing here keeps global state; a report set is used by one thread.
 */
#ifndef DMLCONF_REPORTS_H
#define DMLCONF_REPORTS_H

#include <dmlconf/result.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* File names inside a report directory. */
#define DMLCONF_REPORT_RESULTS_JSONL "results.jsonl"
#define DMLCONF_REPORT_SUMMARY_JSON  "summary.json"
#define DMLCONF_REPORT_JUNIT_XML     "junit.xml"
#define DMLCONF_REPORT_SUMMARY_MD    "summary.md"
#define DMLCONF_REPORT_HTML          "report.html"
#define DMLCONF_REPORT_FAILURES_TXT  "failures.txt"

/* ---- result lists --------------------------------------------------------- */

/* A growable array of results: (items, count, capacity). Start it zeroed. */
typedef struct dmlconf_result_list
{
    dmlconf_case_result *items;
    size_t count;
    size_t capacity;
} dmlconf_result_list;

/* Appends a copy of *result. Returns 0, or -1 when memory runs out (the list
 * is left as it was). */
int dmlconf_result_list_append(dmlconf_result_list *list, const dmlconf_case_result *result);
/* Frees the items and zeroes the list. NULL is ignored. */
void dmlconf_result_list_free(dmlconf_result_list *list);

/* ---- results.jsonl: one JSON object per line ------------------------------ */

/* Encodes one result as a single line of JSON (no newline). Non-finite
 * doubles are written as the strings "nan", "inf" and "-inf", element bits as
 * hexadecimal strings, counts above 2^63-1 as decimal strings. Returns a
 * string the caller frees with free(), or NULL when memory runs out. */
char *dmlconf_result_to_json(const dmlconf_case_result *result);

/* Decodes one line written by dmlconf_result_to_json (length bytes of text,
 * no NUL needed). Fields that are absent keep the defaults of a zeroed
 * result (backend_seconds and wall_seconds default to -1); id and status are
 * required. Strings longer than their buffers are truncated at a character
 * boundary. Returns 0, or -1 with why set (may be NULL) when the text is not
 * a JSON object or a field has the wrong type or an unknown name. */
int dmlconf_result_from_json(const char *text, size_t length, dmlconf_case_result *out, char *why, size_t why_size);

/* Reads a results.jsonl file: the header line into *info (may be NULL), and
 * each case line appended to *results (call it once per shard to merge
 * shards into one list). A last line that does not end in a newline and is
 * not valid JSON is what a crashed run leaves: it is dropped and counted in
 * *warnings (may be NULL; set to 0 first). Returns 0, or -1 with why set
 * ("path:line: ...") when the file cannot be read, the header is missing or
 * another line is malformed; the results appended before the error stay in
 * the list, which the caller frees in every case. */
int dmlconf_results_read_jsonl(const char *path, dmlconf_run_info *info, dmlconf_result_list *results, size_t *warnings,
                               char *why, size_t why_size);

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
    uint64_t passed;  /* pass, expected-fail, flake */
    uint64_t failed;  /* fail, error, crash, timeout, unexpected-pass (and unknown statuses) */
    uint64_t skipped; /* skip */
    uint64_t statuses[DMLCONF_STATUS_COUNT];
} dmlconf_matrix_cell;

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
} dmlconf_matrix;

/* The verdict of a run; see the rule at the top of this header. */
typedef struct dmlconf_run_verdict
{
    bool conformant;             /* at some level */
    dmlconf_feature_level level; /* the highest conformant level, NONE when not conformant */
    dmlconf_feature_level target_level;
    bool at_target;   /* level == target_level */
    char text[64];    /* "conformant at level 4_0", "not conformant at any level" */
    char detail[384]; /* one sentence: target, what broke, what the baseline excused */
} dmlconf_run_verdict;

/* Starts an empty matrix for a run whose target level is `target`
 * (DMLCONF_FEATURE_LEVEL_NONE: the highest known level). The columns come
 * from dmlconf_feature_levels(). Allocates nothing. */
void dmlconf_matrix_init(dmlconf_matrix *matrix, dmlconf_feature_level target);
/* Counts one result. Returns 0, or -1 when memory for a new row runs out
 * (nothing is counted then). */
int dmlconf_matrix_add(dmlconf_matrix *matrix, const dmlconf_case_result *result);
/* Whether every judged case of the column passed: false for a column above
 * the target level or one that a breaking case reaches. */
bool dmlconf_matrix_column_conformant(const dmlconf_matrix *matrix, size_t column);
/* Computes the verdict from what was added so far. */
void dmlconf_matrix_verdict(const dmlconf_matrix *matrix, dmlconf_run_verdict *out);
/* Frees the rows and zeroes the matrix. NULL is ignored. */
void dmlconf_matrix_free(dmlconf_matrix *matrix);
/* Prints the counts per status, the matrix with aligned columns and the
 * verdict. With color, uses ANSI colours (pass green, failures red, skips
 * yellow); the caller decides (a terminal, and NO_COLOR unset). */
void dmlconf_matrix_print(FILE *out, const dmlconf_matrix *matrix, bool color);

/* ---- formatting shared by the writers (and useful on a console) ----------- */

/* The diffs show decimal and hex in separate columns, hence these; a
 * mismatch on one line is dmlconf_format_mismatch (dmlconf/comparator.h),
 * which the text reports use so that they read like the console.
 *
 * These write at most size bytes including the NUL (buf may be NULL when size
 * is 0) and return the length the full text has, as snprintf does. */

/* An element's value in decimal. Floats: whole numbers in full ("65504"),
 * others as the shortest text that reads back to the same bits ("1.5",
 * "0.1"), and "-0", "nan", "inf", "-inf". Integer types: the integer ("-1"
 * for INT32 0xffffffff). Other types: the hex bits. */
size_t dmlconf_report_format_value(dmlconf_data_type type, uint64_t bits, char *buf, size_t size);
/* The raw bits in hex, as wide as the type: "0x3fc00000", "0x3c00". */
size_t dmlconf_report_format_bits(dmlconf_data_type type, uint64_t bits, char *buf, size_t size);
/* "[0, 2, 1]". */
size_t dmlconf_report_format_coordinates(const dmlconf_mismatch *mismatch, char *buf, size_t size);
/* The command that reruns one case: "dmlconf run --filter 'ID'", the id
 * quoted for a POSIX shell. */
size_t dmlconf_report_format_repro(const char *id, char *buf, size_t size);

/* ---- the individual writers ----------------------------------------------- */

/* Each writes one report to an open stream from a list of results and the
 * matrix built from the same list; the stream stays the caller's. They
 * return 0, or -1 with why set (may be NULL) when memory runs out or the
 * stream reports a write error. */

/* summary.json: run info, counts per status, the matrix, the verdict, the
 * error/tolerance histogram and the failing ids (sorted). */
int dmlconf_write_summary_json(FILE *out, const dmlconf_run_info *info, const dmlconf_case_result *results,
                               size_t count, const dmlconf_matrix *matrix, char *why, size_t why_size);
/* junit.xml: one testsuite per operator and data type, one testcase per
 * case; the run info as properties. */
int dmlconf_write_junit(FILE *out, const dmlconf_run_info *info, const dmlconf_case_result *results, size_t count,
                        char *why, size_t why_size);
/* summary.md: run info, verdict, matrix, histogram and failing cases. */
int dmlconf_write_markdown(FILE *out, const dmlconf_run_info *info, const dmlconf_case_result *results, size_t count,
                           const dmlconf_matrix *matrix, char *why, size_t why_size);
/* report.html: one self-contained page (inline CSS and SVG, no script, no
 * external resource). */
int dmlconf_write_html(FILE *out, const dmlconf_run_info *info, const dmlconf_case_result *results, size_t count,
                       const dmlconf_matrix *matrix, char *why, size_t why_size);
/* failures.txt: "id,status" for every case that still fails (fail, error,
 * crash, timeout; expected-fail is written as "fail"), sorted by id, ready
 * to be committed as the next baseline's known failures. Unexpected passes
 * are left out, so the baseline loses them. */
int dmlconf_write_failures(FILE *out, const dmlconf_case_result *results, size_t count, char *why, size_t why_size);

/* ---- the streaming report set --------------------------------------------- */

typedef struct dmlconf_report_set dmlconf_report_set;

/* Creates `dir` (and its parents) if needed, removes the final reports of an
 * earlier run there, and starts results.jsonl with a header line holding
 * *info (copied). Returns 0 with *out set, or -1 with why set (may be NULL)
 * and *out NULL. Close the set with dmlconf_reports_close. */
int dmlconf_reports_open(const char *dir, const dmlconf_run_info *info, dmlconf_report_set **out, char *why,
                         size_t why_size);
/* With enabled, every line is also fsync'ed to the disk (off by default: a
 * flushed line survives a crash of the process, an fsync'ed one a crash of
 * the machine). */
void dmlconf_reports_set_fsync(dmlconf_report_set *set, bool enabled);
/* Appends one result to results.jsonl and flushes it, and keeps a copy for
 * the final reports. Returns 0, or -1 (dmlconf_reports_error says why) when
 * the line cannot be written or memory runs out. */
int dmlconf_reports_add(dmlconf_report_set *set, const dmlconf_case_result *result);
/* Like dmlconf_reports_add, with the result already encoded by
 * dmlconf_result_to_json (`encoded`, one line without its newline), so that
 * the encoding can happen elsewhere (in the worker that ran the case).
 * A NULL `encoded` encodes here. */
int dmlconf_reports_add_encoded(dmlconf_report_set *set, const dmlconf_case_result *result, const char *encoded);
/* Writes summary.json, junit.xml, summary.md, report.html and failures.txt
 * (each to a temporary name, then renamed into place). Returns 0, or -1
 * (dmlconf_reports_error says why) when one cannot be written; the others
 * are still attempted. */
int dmlconf_reports_finish(dmlconf_report_set *set);
/* The last error of the set, or "" when there was none. */
const char *dmlconf_reports_error(const dmlconf_report_set *set);
/* The matrix of the results added so far (for dmlconf_matrix_print); owned
 * by the set. */
const dmlconf_matrix *dmlconf_reports_matrix(const dmlconf_report_set *set);
/* The results added so far; owned by the set. */
const dmlconf_case_result *dmlconf_reports_results(const dmlconf_report_set *set, size_t *count);
/* Closes results.jsonl and frees the set (finished or not). NULL is
 * ignored. */
void dmlconf_reports_close(dmlconf_report_set *set);

/* Writes every report, results.jsonl included, into `dir` (created if
 * needed) from a list of results, e.g. one merged from shards. Returns 0, or
 * -1 with why set (may be NULL). */
int dmlconf_reports_write_all(const char *dir, const dmlconf_run_info *info, const dmlconf_case_result *results,
                              size_t count, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_REPORTS_H */
