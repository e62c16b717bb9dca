/*
 * What the report writers share and nobody else needs: UTF-8 walking, JSON
 * pieces, XML escaping, error messages, selections of results. Each helper
 * lives in the file of the format it belongs to; this header only declares
 * them (and defines the two small inline UTF-8 helpers).
 */
#ifndef DMLCONF_REPORT_INTERNAL_H
#define DMLCONF_REPORT_INTERNAL_H

#include <dmlconf/compiler.h>
#include <dmlconf/reports.h>

#include <jansson.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>


#define DMLCONF_REPLACEMENT_CHARACTER 0xfffdu

/* Decodes the character at `text`. Returns the bytes it takes (1 to 4) and
 * its code point in *cp; an invalid or truncated sequence, an overlong form
 * or a surrogate takes 1 byte and reads as U+FFFD. Returns 0 at the NUL. */
static inline size_t dmlconf_utf8_next(const char *text, uint32_t *cp)
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
static inline size_t dmlconf_utf8_encode(uint32_t cp, char out[4])
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

/* ---- report_set.c ---------------------------------------------------------- */

/* Formats an error message into why (may be NULL or size 0: nothing). */
void dmlconf_set_why(char *why, size_t why_size, const char *format, ...) DMLCONF_PRINTF_LIKE(3, 4);
/* The same into a dmlconf_error (err may be NULL). */
void dmlconf_set_error(dmlconf_error *err, const char *format, ...) DMLCONF_PRINTF_LIKE(2, 3);

/* The status's name, or "unknown" outside the enum. */
const char *dmlconf_status_text(dmlconf_status status);

/* Whether a case still fails for the next baseline (fail, error, crash,
 * timeout, expected-fail). */
bool dmlconf_status_still_fails(dmlconf_status status);

/* A predicate over results, for dmlconf_select_sorted. */
typedef bool (*dmlconf_result_predicate)(const dmlconf_case_result *result);

/* The indices of the results that `select` accepts, sorted by id (then by
 * position). Returns a malloc'ed array of *n indices (NULL with *n = 0 when
 * none is selected), or NULL with *n = SIZE_MAX when memory runs out. */
size_t *dmlconf_select_sorted(const dmlconf_case_result *results, size_t count, dmlconf_result_predicate select,
                              size_t *n);

/* Predicates: a failing status (dmlconf_status_is_failure); a status that
 * neither passed nor failed outright (skip, expected-fail, flake). */
bool dmlconf_result_is_failing(const dmlconf_case_result *result);
bool dmlconf_result_is_noteworthy(const dmlconf_case_result *result);

/* The run info as label/value pairs, in the order every report shows them. */
#define DMLCONF_INFO_FIELD_COUNT 11
typedef struct dmlconf_info_field
{
    const char *key;   /* "backend": for properties and JSON */
    const char *label; /* "Backend": for people */
    char value[1040];
} dmlconf_info_field;
void dmlconf_run_info_fields(const dmlconf_run_info *info, dmlconf_info_field fields[DMLCONF_INFO_FIELD_COUNT]);

/* What the human-readable reports (Markdown, HTML) are built from: the run
 * info as labelled fields, the failing and the noteworthy results (indices,
 * sorted) and the verdict. */
typedef struct dmlconf_report_view
{
    dmlconf_info_field fields[DMLCONF_INFO_FIELD_COUNT];
    size_t *failing;
    size_t failing_count;
    size_t *noteworthy;
    size_t noteworthy_count;
    dmlconf_run_verdict verdict;
} dmlconf_report_view;

/* Fills *view. Returns 0, or -1 with why set when memory runs out; free the
 * view with dmlconf_report_view_free in both cases. */
int dmlconf_report_view_init(dmlconf_report_view *view, const dmlconf_run_info *info,
                             const dmlconf_case_result *results, size_t count, const dmlconf_matrix *matrix, char *why,
                             size_t why_size);
void dmlconf_report_view_free(dmlconf_report_view *view);

/* Length of a fixed buffer's string (stops at size when there is no NUL). */
size_t dmlconf_bounded_length(const char *text, size_t size);

/* ---- results_jsonl.c ------------------------------------------------------- */

/* A JSON string from at most max bytes of text, invalid UTF-8 replaced by
 * U+FFFD. NULL only when memory runs out. */
json_t *dmlconf_json_text(const char *text, size_t max);
/* Sets obj[key] = value (stealing value); clears *ok when value is NULL or
 * the set fails. */
void dmlconf_json_put(json_t *obj, const char *key, json_t *value, bool *ok);
/* A double: a JSON real when finite, else "nan", "inf" or "-inf". */
json_t *dmlconf_json_double(double value);
/* An unsigned count: a JSON integer up to 2^63-1, else a decimal string. */
json_t *dmlconf_json_u64(uint64_t value);
/* A feature level: its name, null for NONE, the integer otherwise. */
json_t *dmlconf_json_level(dmlconf_feature_level level);
/* The run info as a JSON object; NULL when memory runs out. */
json_t *dmlconf_json_run_info(const dmlconf_run_info *info);
/* The header line of results.jsonl (no newline), malloc'ed; NULL when
 * memory runs out. */
char *dmlconf_results_header_line(const dmlconf_run_info *info);

/* ---- junit.c ----------------------------------------------------------------- */

/* Writes text as XML (and HTML) character data, or as an attribute value
 * when `attribute`: & < > " ' become references, tab, newline and carriage
 * return in attributes become character references, other control
 * characters and invalid UTF-8 become U+FFFD. */
void dmlconf_xml_escape(FILE *out, const char *text, bool attribute);
/* The same for a fixed-size buffer's string, which may lack its NUL (a
 * record's field filled to the brim). */
void dmlconf_xml_escape_field(FILE *out, const char *text, size_t size, bool attribute);

/* ---- matrix.c ---------------------------------------------------------------- */

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

#endif /* DMLCONF_REPORT_INTERNAL_H */
