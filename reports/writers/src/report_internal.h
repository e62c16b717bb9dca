/*
 * What the report writers share and nobody else needs: UTF-8 walking, JSON
 * pieces, XML escaping, error messages, selections of results. Each helper
 * lives in the file of the format it belongs to; this header only declares
 * them (and defines the two small inline UTF-8 helpers).
 */
#ifndef DMLCONF_REPORT_INTERNAL_H
#define DMLCONF_REPORT_INTERNAL_H

#include <dmlconf/compiler.h>
#include <dmlconf/file_system.h>
#include <dmlconf/reports.h>
#include <dmlconf/text.h>
#include <dmlconf/why.h>

#include <jansson.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define DMLCONF_REPLACEMENT_CHARACTER 0xfffdu

/* Decodes the character at `text`. Returns the bytes it takes (1 to 4) and
 * its code point in *cp; an invalid or truncated sequence, an overlong form
 * or a surrogate takes 1 byte and reads as U+FFFD. Returns 0 at the NUL. */
static inline size_t report_utf8_next(const char *text, uint32_t *cp)
{
    const unsigned char *s = (const unsigned char *)text;
    uint32_t c = s[0];
    uint32_t min;
    size_t n;

    if (c == 0)
    {
        *cp = 0;
        return 0;
    }
    if (c < 0x80)
    {
        *cp = c;
        return 1;
    }
    if (c >= 0xc2 && c <= 0xdf)
    {
        n = 2;
        c &= 0x1f;
        min = 0x80;
    }
    else if (c >= 0xe0 && c <= 0xef)
    {
        n = 3;
        c &= 0x0f;
        min = 0x800;
    }
    else if (c >= 0xf0 && c <= 0xf4)
    {
        n = 4;
        c &= 0x07;
        min = 0x10000;
    }
    else
    {
        *cp = DMLCONF_REPLACEMENT_CHARACTER;
        return 1;
    }
    for (size_t i = 1; i < n; ++i)
    {
        if ((s[i] & 0xc0) != 0x80)
        {
            *cp = DMLCONF_REPLACEMENT_CHARACTER;
            return 1;
        }
        c = (c << 6) | (s[i] & 0x3fu);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
    {
        *cp = DMLCONF_REPLACEMENT_CHARACTER;
        return 1;
    }
    *cp = c;
    return n;
}

/* Encodes a code point (at most U+10FFFF, not a surrogate) as UTF-8 into
 * out[0..3]; returns the number of bytes. */
static inline size_t report_utf8_encode(uint32_t cp, char out[4])
{
    if (cp < 0x80)
    {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800)
    {
        out[0] = (char)(0xc0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000)
    {
        out[0] = (char)(0xe0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* ---- report_format.c ------------------------------------------------------- */

/* dmlconf_report_format_repro into a malloc'ed string; NULL when memory
 * runs out. */
char *report_repro_command(const dmlconf_run_info *info, const dmlconf_case_result *result);

/* ---- report_set.c ---------------------------------------------------------- */

/* The status's name, or "unknown" outside the enum. */
const char *report_status_text(dmlconf_status status);

/* What went wrong in a result, in words: its failure kind and, with one,
 * the pattern of its wrong values ("values", "values, staircase"); "" when
 * it records none. Written into out (size bytes). */
void report_failure_words(const dmlconf_case_result *result, char *out, size_t size);

/* Whether a case still fails for the next baseline (fail, error, crash,
 * timeout, expected-fail). */
bool report_status_still_fails(dmlconf_status status);

/* A predicate over results, for report_select_sorted. */
typedef bool (*report_result_predicate)(const dmlconf_case_result *result);

/* The indices of the results that `select` accepts, sorted by id (then by
 * position). Returns a malloc'ed array of *n indices (NULL with *n = 0 when
 * none is selected), or NULL with *n = SIZE_MAX when memory runs out. */
size_t *report_select_sorted(const dmlconf_case_result *results, size_t count, report_result_predicate select,
                             size_t *n);

/* Predicates: a failing status (dmlconf_status_is_failure); a status that
 * neither passed nor failed outright (skip, expected-fail, flake). */
bool report_result_is_failing(const dmlconf_case_result *result);
bool report_result_is_noteworthy(const dmlconf_case_result *result);

/* A scan's mode: "inclusive, increasing", "exclusive, decreasing". */
const char *report_mode_text(bool exclusive, bool decreasing);

/* ---- markdown.c ------------------------------------------------------------ */

/* Text from the records outside code, on one line: line breaks become
 * spaces, the ASCII punctuation that could start inline markup (and |) is
 * backslash-escaped. At most `size` bytes of text (it may lack its NUL). */
void report_md_text(FILE *out, const char *text, size_t size);
/* A code span of at most `size` bytes of text, its fence longer than any
 * run of backticks inside; in a table (in_table), | is escaped too. */
void report_md_code(FILE *out, const char *text, size_t size, bool in_table);

/* ---- html.c ----------------------------------------------------------------- */

/* The stylesheet every HTML page of dmlconf inlines. */
extern const char report_html_style[];

/* ---- run_info.c ------------------------------------------------------------ */

/* The run info as label/value pairs, in the order every report shows them. */
#define DMLCONF_INFO_FIELD_COUNT 18
typedef struct report_info_field
{
    const char *key;   /* "backend": for properties and JSON */
    const char *label; /* "Backend": for people */
    char value[DMLCONF_RUN_ENVIRONMENT_SIZE + 64];
} report_info_field;
void report_run_info_fields(const dmlconf_run_info *info, report_info_field fields[DMLCONF_INFO_FIELD_COUNT]);

/* ---- failure_groups.c ------------------------------------------------------ */

/* Why a case failed, for grouping failures. The order is the severity (the
 * most severe first), which breaks ties between groups of one size. */
typedef enum report_failure_cause
{
    DMLCONF_CAUSE_CRASH,
    DMLCONF_CAUSE_TIMEOUT,
    DMLCONF_CAUSE_ERROR,
    DMLCONF_CAUSE_PAST_END,        /* wrote past the end of its output buffer */
    DMLCONF_CAUSE_UNWRITTEN,       /* outputs still holding the canary */
    DMLCONF_CAUSE_PATTERN,         /* wrong values with a pattern (comparison.pattern) */
    DMLCONF_CAUSE_NAN_INF,         /* a NaN or an infinity where the other value is not one */
    DMLCONF_CAUSE_REFUSED_VALID,   /* a valid desc refused */
    DMLCONF_CAUSE_WRONG_REJECTION, /* an invalid desc accepted, or rejected for another reason */
    DMLCONF_CAUSE_WRONG_INTEGER,   /* integer outputs not bit-exact */
    DMLCONF_CAUSE_OUTSIDE_BOUND,   /* float outputs outside the error bound */
    DMLCONF_CAUSE_SIGNED_ZERO,     /* zero of the wrong sign under strict signed zeros */
    DMLCONF_CAUSE_UNEXPECTED_PASS, /* passed, but the baseline lists it as failing */
    DMLCONF_CAUSE_OTHER,           /* a failing status without the detail to tell more */
    DMLCONF_CAUSE_COUNT
} report_failure_cause;

/* The cause of a failing result: its status, its failure kind, the pattern
 * of its wrong values, or else its worst mismatch. */
report_failure_cause report_failure_cause_of(const dmlconf_case_result *result);
/* "crashed", "outside the error bound", ...: for people. */
const char *report_failure_cause_text(report_failure_cause cause);
/* "crash", "outside-bound", ...: stable tokens for summary.json. */
const char *report_failure_cause_token(report_failure_cause cause);

/* The failing cases of one cause (and, for wrong values with a pattern or
 * unwritten outputs, one pattern and its position), with what their
 * comparisons say together and which cases the cause shows in. */
typedef struct report_failure_group
{
    report_failure_cause cause;
    dmlconf_pattern pattern; /* PATTERN and UNWRITTEN causes; NONE otherwise */
    uint64_t position;       /* the pattern's scan position, where it has one */
    char title[192];         /* the cause in words: "the second element of each scan is left out ..." */
    char affects[256];       /* "sums and products; FLOAT16, FLOAT32; inclusive and exclusive; ..." */
    const size_t *members;   /* indices into the results, the smallest case (the shortest reproducer) first */
    size_t count;
    size_t worst; /* index into the results of the case with the largest error / tolerance */
    uint64_t mismatches;
    uint64_t elements;
    double max_error_ulps;
    double max_tolerance_fraction;
    uint64_t ulp_histogram[DMLCONF_ULP_BINS];
    uint64_t position_mismatches[DMLCONF_POSITION_BINS];
    double position_max_fraction[DMLCONF_POSITION_BINS];
    /* Which cases it shows in. */
    bool sums, products, inclusive, exclusive, increasing, decreasing;
    uint32_t types; /* bit t: data type t */
    uint32_t lowest_rank, highest_rank;
} report_failure_group;

/* The stable token of a group's cause for summary.json: the pattern's name
 * for wrong values with a pattern ("element-left-out"), else the cause's
 * token. */
const char *report_failure_group_token(const report_failure_group *group);

/* Every group, the cause that explains the most cases first (then the
 * most severe). */
typedef struct report_failure_groups
{
    report_failure_group *items;
    size_t count;
    size_t *storage; /* the members of every group */
    size_t failing;  /* failing cases over all groups */
} report_failure_groups;

/* Groups the failing results (report_result_is_failing). Returns 0, or -1
 * when memory runs out; free *out with report_failure_groups_free in both
 * cases. */
int report_failure_groups_build(const dmlconf_case_result *results, size_t count, report_failure_groups *out);
void report_failure_groups_free(report_failure_groups *groups);

/* ---- the view the human-readable reports share (report_set.c) -------------- */

/* What the human-readable reports (Markdown, HTML) are built from: the run
 * info as labelled fields, the failing and the noteworthy results (indices,
 * sorted), the failure groups and the verdict. */
typedef struct report_view
{
    const dmlconf_report_input *in;
    report_info_field fields[DMLCONF_INFO_FIELD_COUNT];
    size_t *failing;
    size_t failing_count;
    size_t *noteworthy;
    size_t noteworthy_count;
    report_failure_groups groups;
    dmlconf_run_verdict verdict;
} report_view;

/* Fills *view (a large struct: allocate it, do not put it on the stack).
 * Returns 0, or -1 with why set when memory runs out; free the view with
 * report_view_free in both cases. */
int report_view_init(report_view *view, const dmlconf_report_input *in, char *why, size_t why_size);
void report_view_free(report_view *view);

/* ---- report_dir.c ------------------------------------------------------------- */

/* "dir/namesuffix", malloc'ed; NULL when memory runs out. */
char *report_path(const char *dir, const char *name, const char *suffix);

/* Takes the lock of report folder `dir` (DMLCONF_REPORT_LOCK inside it),
 * without waiting. Returns 0, or -1 with why set: held by another process
 * (named when the system can tell), or the lock file cannot be created (an
 * unwritable folder). Release it with dmlconf_file_lock_release. */
int report_dir_lock_take(const char *dir, dmlconf_file_lock *lock, char *why, size_t why_size);
/* Checks that a file can be created in `dir` and that `name` there, if it
 * exists, can be written. Returns 0, or -1 with why set. */
int report_check_writable(const char *dir, const char *name, char *why, size_t why_size);

/* ---- svg_charts.c ----------------------------------------------------------- */

/* A bar chart of counts on a log scale, as an inline SVG. */
typedef struct report_count_chart
{
    const char *id;      /* the svg element's id; NULL: none */
    const char *title;   /* its accessible title */
    const char *x_label; /* under the axis */
    size_t bins;
    const uint64_t *counts;    /* bins counts */
    const char *const *labels; /* bins short labels under the bars */
    const char *const *ranges; /* bins longer labels for the bars' tooltips */
    size_t alarm_from;         /* bins from this one on are drawn in red (bins: none) */
    double width;
    double height;
} report_count_chart;

void report_svg_count_chart(FILE *out, const report_count_chart *chart);

/* Chart sizes: a full row, half a row (two side by side), and a small one
 * without axis labels (for one case). */
typedef enum report_chart_size
{
    DMLCONF_CHART_FULL,
    DMLCONF_CHART_HALF,
    DMLCONF_CHART_SMALL,
} report_chart_size;

/* The ULP histogram (DMLCONF_ULP_BINS counts) as a count chart. */
void report_svg_ulp_chart(FILE *out, const char *id, const uint64_t counts[DMLCONF_ULP_BINS], report_chart_size size);

/* Where errors fall along the scan axis: per position bin, the largest
 * |error| / tolerance on a log scale, red above 1 (with the bin's number of
 * mismatches over it), a dashed line at the tolerance. */
void report_svg_position_chart(FILE *out, const char *id, const uint64_t mismatches[DMLCONF_POSITION_BINS],
                               const double max_fraction[DMLCONF_POSITION_BINS], report_chart_size size);

/* ---- results_jsonl.c ------------------------------------------------------- */

/* A JSON string from at most max bytes of text, invalid UTF-8 replaced by
 * U+FFFD. NULL only when memory runs out. */
json_t *report_json_text(const char *text, size_t max);
/* Sets obj[key] = value (stealing value); clears *ok when value is NULL or
 * the set fails. */
void report_json_put(json_t *obj, const char *key, json_t *value, bool *ok);
/* A double: a JSON real when finite, else "nan", "inf" or "-inf". */
json_t *report_json_double(double value);
/* An unsigned count: a JSON integer up to 2^63-1, else a decimal string. */
json_t *report_json_u64(uint64_t value);
/* A feature level: its name, null for NONE, the integer otherwise. */
json_t *report_json_level(dmlconf_feature_level level);
/* An array of n counts or of n doubles; NULL when memory runs out. */
json_t *report_json_counts(const uint64_t *counts, size_t n);
json_t *report_json_doubles(const double *values, size_t n);
/* The run info as a JSON object; NULL when memory runs out. */
json_t *report_json_run_info(const dmlconf_run_info *info);
/* Load errors as an array of {file, line, column, message}; NULL when
 * memory runs out. */
json_t *report_json_load_errors(const dmlconf_load_error *errors, size_t count);
/* The completion record's fields as an object; NULL when memory runs out. */
json_t *report_json_run_end(const dmlconf_run_end *end);
/* The header line of results.jsonl (no newline), malloc'ed; NULL when
 * memory runs out. */
char *report_results_header_line(const dmlconf_run_info *info, const dmlconf_load_error *errors, size_t count);
/* The completion record's line (no newline), malloc'ed; NULL when memory
 * runs out. */
char *report_results_end_line(const dmlconf_run_end *end);

/* ---- junit.c ----------------------------------------------------------------- */

/* Writes text as XML (and HTML) character data, or as an attribute value
 * when `attribute`: & < > " ' become references, tab, newline and carriage
 * return in attributes become character references, other control
 * characters and invalid UTF-8 become U+FFFD. */
void report_xml_escape(FILE *out, const char *text, bool attribute);
/* The same for a fixed-size buffer's string, which may lack its NUL (a
 * record's field filled to the brim). */
void report_xml_escape_field(FILE *out, const char *text, size_t size, bool attribute);

/* ---- device_times.c ----------------------------------------------------------- */

/* Cases listed in the reports' "time on the device" tables. */
#define DMLCONF_DEVICE_TIME_ROWS 20u

/* The (up to) `max` cases that took longest on the device (backend_seconds;
 * cases the backend did not time are left out), most first: their indices
 * in in->results go to order[]. Returns how many. */
size_t report_device_slowest(const dmlconf_report_input *in, size_t *order, size_t max);

#endif /* DMLCONF_REPORT_INTERNAL_H */
