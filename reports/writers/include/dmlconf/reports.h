/*
 * dmlconf reports: what a run leaves behind for people and for CI.
 *
 * A report set locks its folder, then streams results.jsonl as cases finish
 * (a header saying what the run is, one JSON object per case, flushed after
 * each, so a crash loses nothing, and a completion record at the end) and,
 * when the run ends, writes summary.json, junit.xml, summary.md, report.html
 * and failures.txt next to it. results.jsonl files are read back with
 * dmlconf_results_file_read (to merge shards, or to resume a run). The
 * matrix and the verdict they state are judging's (dmlconf/verdict.h).
 *
 * Strings in the records (ids, messages, file names, run info) are escaped
 * for every format they are written in; invalid UTF-8 becomes U+FFFD.
 * Nothing here keeps global state; a report set is used by one thread.
 */
#ifndef DMLCONF_REPORTS_H
#define DMLCONF_REPORTS_H

#include <dmlconf/result.h>
#include <dmlconf/run_info.h>
#include <dmlconf/verdict.h>

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

/* ---- what a run is beyond its results ------------------------------------ */

/* One error in the case files that kept a case (or a whole file) out of the
 * run. Strings are owned (malloc'ed) by the list holding the error. */
typedef struct dmlconf_load_error
{
    char *file; /* the case file, or NULL for the corpus as a whole (an unreadable folder) */
    uint32_t line;
    uint32_t column; /* 1-based; 0: no position */
    char *message;
} dmlconf_load_error;

/* A growable array of load errors: (items, count, capacity). Start it
 * zeroed. */
typedef struct dmlconf_load_error_list
{
    dmlconf_load_error *items;
    size_t count;
    size_t capacity;
} dmlconf_load_error_list;

/* Appends a copy of the error (file may be NULL). Returns 0, or -1 when
 * memory runs out (the list is left as it was). */
int dmlconf_load_error_list_add(dmlconf_load_error_list *list, const char *file, uint32_t line, uint32_t column,
                                const char *message);
/* Frees the items and their strings and zeroes the list. NULL is ignored. */
void dmlconf_load_error_list_free(dmlconf_load_error_list *list);

/* Adds NAME=VALUE to info->environment. Returns 0, or -1 (and sets
 * info->environment_incomplete) when it does not fit or holds a line break:
 * the variable is then left out, and the reports say that one was. */
int dmlconf_run_info_add_environment(dmlconf_run_info *info, const char *name, const char *value);

/* Records the command that started the run (`count` words, the program
 * first) in info->command_line, each word quoted for a POSIX shell where it
 * needs to be, so that the line can be pasted back. A line too long for the
 * field keeps the words that fit and ends with " ... (N more arguments not
 * recorded)", never with a word cut short. Returns 0, or -1 when words
 * were left out. */
int dmlconf_run_info_set_command_line(dmlconf_run_info *info, const char *const *words, size_t count);

/* Records the exec backend's adapter command (`words`, NULL-terminated) in
 * info->backend_command, each word quoted for a POSIX shell where it needs
 * to be. Returns 0, or -1 (and sets info->backend_command_incomplete, the
 * command left empty) when it does not fit or a word holds a line break. */
int dmlconf_run_info_set_backend_command(dmlconf_run_info *info, const char *const *words);

/* The scope of the verdict of a run described by *info (dmlconf/verdict.h):
 * its recorded scope, the self-check and the baseline; a shard of several
 * is a subset ("shard 1 of 3"), and an older results file that records no
 * scope is case files of the user's own, which never claim conformance. */
void dmlconf_run_info_scope(const dmlconf_run_info *info, dmlconf_verdict_scope *scope);

/* Whether two results files come from one run and may be merged (or one
 * resumed into the other): the same dmlconf version, backend, adapter,
 * driver, runtime, target level, seed, environment, corpus digest, corpus
 * size and shard count. The host, the start time, the command line and the
 * shard index may differ. Returns true, or false with why set ("backend
 * 'oracle' against 'd3d12'"). */
bool dmlconf_run_info_same_run(const dmlconf_run_info *a, const dmlconf_run_info *b, char *why, size_t why_size);

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
 * a JSON object or a field has the wrong type. */
int dmlconf_result_from_json(const char *text, size_t length, dmlconf_case_result *out, char *why, size_t why_size);

/* Everything one results.jsonl holds: the header (run info and load
 * errors), the results in file order and the completion record. */
typedef struct dmlconf_results_file
{
    dmlconf_run_info info;
    dmlconf_load_error_list load_errors;
    dmlconf_result_list results;
    dmlconf_run_end end;  /* kind DMLCONF_END_NONE when the file has no completion record */
    size_t dropped_lines; /* a last line cut short by a crash, left out */
} dmlconf_results_file;

/* Reads a results.jsonl file into *out (overwritten; free it with
 * dmlconf_results_file_free whatever the result). A last line that does not
 * end in a newline and is not valid JSON is what a crashed run leaves: it is
 * dropped and counted in out->dropped_lines. Returns 0, or -1 with why set
 * ("path:line: ...") when the file cannot be read, the header is missing,
 * another line is malformed, a line follows the completion record or the
 * record's count disagrees with the case lines. Reading is how a resumed run
 * finds the cases already done (out->results[i].id) and how merge checks the
 * shards. */
int dmlconf_results_file_read(const char *path, dmlconf_results_file *out, char *why, size_t why_size);
/* Frees what the file holds and zeroes it. NULL is ignored. */
void dmlconf_results_file_free(dmlconf_results_file *file);

/* Why a results file does not cover the cases its run (or shard) set out
 * to run: "it has no completion record (the run died, or is still
 * running)", "it was interrupted by SIGINT", "it is itself a partial
 * merge", "3 errors in its case files kept cases out", "it has 10 results
 * for 12 cases planned"; NULL when it does. A sentence that needs numbers
 * is written into buf (size bytes) and returned. */
const char *dmlconf_results_file_shortfall(const dmlconf_results_file *file, char *buf, size_t size);

/* The results.jsonl a command's argument names: the argument itself when
 * it ends in ".jsonl", else the results.jsonl in the report folder it
 * names. Malloc'ed (the caller frees it), or NULL when memory runs out. */
char *dmlconf_results_path(const char *argument);

/* ---- the console ---------------------------------------------------------- */

/* Prints the counts per status, the matrix with aligned columns and the
 * verdict. With color, uses ANSI colours (pass green, failures red, skips
 * yellow); the caller decides (a terminal, and NO_COLOR unset). */
void dmlconf_matrix_print(FILE *out, const dmlconf_matrix *matrix, bool color);

/* Prints the verdict's lines, as dmlconf_matrix_print ends: "verdict: TEXT
 * (DETAIL)", "scope: ..." and, with a baseline, "baseline: ...". All that
 * `-q` leaves on the console. */
void dmlconf_verdict_print(FILE *out, const dmlconf_run_verdict *verdict, bool color);

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
/* The command that reruns one case as the run ran it, for a POSIX shell:
 * the environment variables the run recorded, then "dmlconf run" with its
 * backend (as it was asked for when the run recorded that: a plugin's
 * "plugin:PATH"), the adapter as it was asked for, the target level, the seed (when
 * not 0), "--filter 'ID'" and the case's file, every word quoted where it
 * needs to be. When the run left an environment variable out, a last
 * comment says so. */
size_t dmlconf_report_format_repro(const dmlconf_run_info *info, const dmlconf_case_result *result, char *buf,
                                   size_t size);

/* ---- the individual writers ----------------------------------------------- */

/* What every report is written from: the run, its load errors, its results,
 * how it ended, and the matrix built from all of them (with its
 * completeness set). Nothing here is owned by the struct. */
typedef struct dmlconf_report_input
{
    const dmlconf_run_info *info;
    const dmlconf_load_error *load_errors;
    size_t load_error_count;
    const dmlconf_case_result *results;
    size_t count;
    const dmlconf_run_end *end;
    const dmlconf_matrix *matrix;
    /* The baseline's stale lines ("path:line: text": ids and globs that
     * match no case), listed in summary.json and summary.md; may be NULL. */
    const char *const *stale_baseline;
    size_t stale_baseline_count;
    /* The most bytes junit.xml may take (0: no limit): the case testcases
     * that do not fit are left out, and one testcase says how many
     * (dmlconf_write_junit). */
    uint64_t junit_max_bytes;
} dmlconf_report_input;

/* The verdict of a run's records, as every report written from them says
 * it: the matrix of in->results with the scope of in->info and the
 * completeness of in->end and the load errors (in->matrix is not used). A
 * matrix that runs out of memory makes the verdict incomplete. */
void dmlconf_report_input_verdict(const dmlconf_report_input *in, dmlconf_run_verdict *out);
/* The matrix that verdict is computed from (in->matrix is not used), with
 * its scope and completeness set; free it with dmlconf_matrix_free. */
void dmlconf_report_input_matrix(const dmlconf_report_input *in, dmlconf_matrix *matrix);

/* Each writes one report to an open stream; the stream stays the caller's.
 * They return 0, or -1 with why set (may be NULL) when memory runs out or
 * the stream reports a write error. */

/* summary.json: run info, the verdict and the run's completeness, counts per
 * status, the matrix, the error/tolerance and ULP histograms, the times,
 * the load errors, the failure groups and the failing ids (sorted). */
int dmlconf_write_summary_json(FILE *out, const dmlconf_report_input *in, char *why, size_t why_size);
/* junit.xml: a "dmlconf" testsuite (the run info and the verdict as its
 * properties, the only properties in the file) whose "verdict" testcase
 * fails when the run is not conformant at its target and errors when it is
 * incomplete or interrupted; a "dmlconf.corpus" testsuite with one erroring
 * testcase per case file that did not load; then one testsuite per
 * operator and data type, one testcase per case. With in->junit_max_bytes
 * set, the file keeps the run's testsuites and as many case testcases as
 * fit in that many bytes (failures and errors first, then flakes, skips,
 * passes), and a skipped "left-out" testcase of the "dmlconf" testsuite says
 * how many were left out, by status, and that results.jsonl holds every
 * case; the file exceeds the limit only when the run's own testsuites
 * alone do. */
int dmlconf_write_junit(FILE *out, const dmlconf_report_input *in, char *why, size_t why_size);
/* summary.md: verdict, run info, matrix, histograms, the case files that did
 * not load, and the failures grouped by operator, data type, mode and cause,
 * most severe first, with a few examples per group. */
int dmlconf_write_markdown(FILE *out, const dmlconf_report_input *in, char *why, size_t why_size);
/* report.html: one self-contained page (inline CSS and SVG, no script, no
 * external resource), with charts of where the errors fall along the scan
 * axis and of their size in ulps. */
int dmlconf_write_html(FILE *out, const dmlconf_report_input *in, char *why, size_t why_size);
/* failures.txt: "id,status" for every case that still fails (fail, error,
 * crash, timeout; expected-fail with the status the baseline expected and
 * it had), sorted by id, ready to be committed as the next baseline's known
 * failures. Unexpected passes are left out, so the baseline loses them, and
 * so are known flakes that failed every attempt (flakes.txt keeps them). */
int dmlconf_write_failures(FILE *out, const dmlconf_case_result *results, size_t count, char *why, size_t why_size);

/* ---- the streaming report set --------------------------------------------- */

/* The lock file that keeps a second run out of a report folder. */
#define DMLCONF_REPORT_LOCK ".dmlconf.lock"

typedef struct dmlconf_report_set dmlconf_report_set;

/* What may be in a report folder before a run. */
typedef enum dmlconf_reports_mode
{
    DMLCONF_REPORTS_NEW,       /* a folder that holds an earlier run's reports is refused */
    DMLCONF_REPORTS_OVERWRITE, /* an earlier run's reports are replaced, once this run begins */
    DMLCONF_REPORTS_RESUME,    /* the run in the folder goes on (dmlconf_reports_open_resume) */
} dmlconf_reports_mode;

/* Opens a report folder for a new run, before any case runs: creates `dir`
 * (and its parents) if needed, locks it against other dmlconf processes
 * (DMLCONF_REPORT_LOCK; the lock belongs to the process and goes with it,
 * even when it is killed; a process is trusted not to open one folder
 * twice) and checks that files can be written there. A folder that holds
 * an earlier run's results (its results.jsonl) is refused
 * (DMLCONF_REPORTS_NEW), or kept until dmlconf_reports_begin replaces it and
 * its reports (OVERWRITE): a run that is refused or cannot start never
 * removes them. Returns 0 with *out set,
 * or -1 with why set (may be NULL) and *out NULL: "DIR is in use by another
 * dmlconf (process N)", "DIR holds the reports of an earlier run ...", or
 * why DIR cannot be written. Close the set with dmlconf_reports_close. */
int dmlconf_reports_open(const char *dir, dmlconf_reports_mode mode, dmlconf_report_set **out, char *why,
                         size_t why_size);
/* Whether the folder held an earlier run's reports when it was opened (a
 * run that cannot start then leaves them as they are, and writes none of
 * its own). */
bool dmlconf_reports_held_earlier_run(const dmlconf_report_set *set);
/* Writes junit.xml and summary.json for a run that could not start (a
 * setup error, exit status 3) or that had nothing to judge: a "verdict"
 * testcase that errors with `why`, type "setup-error" or "incomplete" as
 * `status_token` says, so that a CI job reading only those files sees why.
 * Writes nothing into a folder that held an earlier run. Returns 0, or -1
 * (dmlconf_reports_error says why). */
int dmlconf_reports_write_unstarted(dmlconf_report_set *set, const char *status_token, const char *text,
                                    const char *why, int exit_status);
/* Like dmlconf_reports_open for a run that goes on where an earlier one
 * stopped: results.jsonl is read into *previous (overwritten; free it with
 * dmlconf_results_file_free in every case); it and the final reports are
 * replaced when the run begins. The caller checks that the earlier run is
 * the same run (dmlconf_run_info_same_run) and not finished, then calls
 * dmlconf_reports_begin and adds previous->results back before the new
 * ones. */
int dmlconf_reports_open_resume(const char *dir, dmlconf_results_file *previous, dmlconf_report_set **out, char *why,
                                size_t why_size);
/* Starts results.jsonl with its header: *info and the load errors (copied;
 * load_errors may be NULL), after removing the reports of the run the folder
 * held (overwritten or resumed). Call it once, when the backend is known.
 * Returns 0, or -1 (dmlconf_reports_error says why). */
int dmlconf_reports_begin(dmlconf_report_set *set, const dmlconf_run_info *info,
                          const dmlconf_load_error_list *load_errors);
/* Whether dmlconf_reports_begin succeeded. */
bool dmlconf_reports_begun(const dmlconf_report_set *set);
/* With enabled, every line is also fsync'ed to the disk (off by default: a
 * flushed line survives a crash of the process, an fsync'ed one a crash of
 * the machine). */
void dmlconf_reports_set_fsync(dmlconf_report_set *set, bool enabled);
/* Appends one result to results.jsonl and flushes it, and keeps a copy for
 * the final reports. Returns 0, or -1 (dmlconf_reports_error says why) when
 * the set has not begun, the line cannot be written or memory runs out. */
int dmlconf_reports_add(dmlconf_report_set *set, const dmlconf_case_result *result);
/* Like dmlconf_reports_add, with the result already encoded by
 * dmlconf_result_to_json (`encoded`, one line without its newline), so that
 * the encoding can happen elsewhere (in the worker that ran the case).
 * A NULL `encoded` encodes here. */
int dmlconf_reports_add_encoded(dmlconf_report_set *set, const dmlconf_case_result *result, const char *encoded);
/* Ends results.jsonl with the completion record ("finished") and writes
 * summary.json, junit.xml, summary.md, report.html and failures.txt (each to
 * a temporary name, then renamed into place). Returns 0, or -1
 * (dmlconf_reports_error says why) when the set has not begun or a file
 * cannot be written; the other files are still attempted. */
int dmlconf_reports_finish(dmlconf_report_set *set);
/* The same for a run stopped early (by a signal: call it after the run has
 * stopped, not from the handler): the completion record says "interrupted"
 * with `reason` (e.g. "SIGINT"; may be NULL), and every report says
 * "interrupted", with the results written so far. */
int dmlconf_reports_finish_interrupted(dmlconf_report_set *set, const char *reason);
/* The same for a run that did not come to its end (its backend stopped
 * serving it): results.jsonl gets no completion record, and every report
 * says "incomplete", with the results written so far. */
int dmlconf_reports_finish_unended(dmlconf_report_set *set);
/* The most bytes the final junit.xml may take (0, the default: no limit;
 * dmlconf_report_input.junit_max_bytes says what a limit does). */
void dmlconf_reports_set_junit_max_bytes(dmlconf_report_set *set, uint64_t bytes);
/* Records the baseline's stale lines (copied) for the final reports.
 * Returns 0, or -1 when memory runs out. */
int dmlconf_reports_set_stale_baseline(dmlconf_report_set *set, const char *const *lines, size_t count);
/* The last error of the set, or "" when there was none. */
const char *dmlconf_reports_error(const dmlconf_report_set *set);
/* The matrix of the results added so far (for dmlconf_matrix_print); owned
 * by the set. After a finish its completeness is set. */
const dmlconf_matrix *dmlconf_reports_matrix(const dmlconf_report_set *set);
/* The results added so far; owned by the set. */
const dmlconf_case_result *dmlconf_reports_results(const dmlconf_report_set *set, size_t *count);
/* Closes results.jsonl, releases the folder's lock and frees the set
 * (finished or not). NULL is ignored. */
void dmlconf_reports_close(dmlconf_report_set *set);

/* Writes every report, results.jsonl included, into `dir` (created if
 * needed, locked while it is written, and opened in `mode`: a folder that
 * holds an earlier run's reports is refused unless it may be overwritten)
 * from a run's records, e.g. shards
 * merged into one: in->matrix is not used (the matrix is built here),
 * in->end says how the run ended and in->junit_max_bytes limits junit.xml. Returns 0, or -1 with why set (may be
 * NULL). */
int dmlconf_reports_write_all(const char *dir, dmlconf_reports_mode mode, const dmlconf_report_input *in, char *why,
                              size_t why_size);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_REPORTS_H */
