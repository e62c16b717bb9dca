/*
 * The report set: a locked report folder, results.jsonl streamed as cases
 * finish and closed by its completion record, the final reports written
 * when the run ends; and what every writer shares (result lists, selections
 * sorted by id, the view of the human-readable reports, failures.txt).
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "report_internal.h"

#include <dmlconf/clock.h>
#include <dmlconf/reserve.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- small shared helpers ----------------------------------------------------- */

const char *report_status_text(dmlconf_status status)
{
    const char *name = dmlconf_status_name(status);
    return name ? name : "unknown";
}

void report_failure_words(const dmlconf_case_result *result, char *out, size_t size)
{
    dmlconf_text text = {out, size, 0};
    if (size)
        out[0] = '\0';
    const char *failure = result->failure != DMLCONF_FAILURE_NONE ? dmlconf_failure_name(result->failure) : NULL;
    if (!failure)
        return;
    const char *pattern =
        result->comparison.pattern != DMLCONF_PATTERN_NONE ? dmlconf_pattern_name(result->comparison.pattern) : NULL;
    dmlconf_text_appendf(&text, "%s%s%s", failure, pattern ? ", " : "", pattern ? pattern : "");
}

bool report_status_still_fails(dmlconf_status status)
{
    return status == DMLCONF_STATUS_FAIL || status == DMLCONF_STATUS_ERROR || status == DMLCONF_STATUS_CRASH ||
           status == DMLCONF_STATUS_TIMEOUT || status == DMLCONF_STATUS_EXPECTED_FAIL;
}

bool report_result_is_failing(const dmlconf_case_result *result)
{
    return (unsigned)result->status >= DMLCONF_STATUS_COUNT || dmlconf_status_is_failure(result->status);
}

bool report_result_is_noteworthy(const dmlconf_case_result *result)
{
    return result->status == DMLCONF_STATUS_SKIP || result->status == DMLCONF_STATUS_EXPECTED_FAIL ||
           result->status == DMLCONF_STATUS_FLAKE;
}

typedef struct sort_key
{
    const char *id;
    size_t index;
} sort_key;

static int compare_keys(const void *a, const void *b)
{
    const sort_key *x = a;
    const sort_key *y = b;
    int order = strncmp(x->id, y->id, sizeof(((dmlconf_case_result *)NULL)->id));

    if (order != 0)
        return order;
    return x->index < y->index ? -1 : x->index > y->index ? 1 : 0;
}

size_t *report_select_sorted(const dmlconf_case_result *results, size_t count, report_result_predicate select,
                             size_t *n)
{
    sort_key *keys;
    size_t *indices;
    size_t selected = 0;

    *n = 0;
    for (size_t i = 0; i < count; ++i)
    {
        if (select(&results[i]))
            ++selected;
    }
    if (selected == 0)
        return NULL;
    keys = malloc(selected * sizeof(*keys));
    indices = malloc(selected * sizeof(*indices));
    if (!keys || !indices)
    {
        free(keys);
        free(indices);
        *n = SIZE_MAX;
        return NULL;
    }
    selected = 0;
    for (size_t i = 0; i < count; ++i)
    {
        if (select(&results[i]))
        {
            keys[selected].id = results[i].id;
            keys[selected].index = i;
            ++selected;
        }
    }
    qsort(keys, selected, sizeof(*keys), compare_keys);
    for (size_t i = 0; i < selected; ++i)
        indices[i] = keys[i].index;
    free(keys);
    *n = selected;
    return indices;
}

const char *report_mode_text(bool exclusive, bool decreasing)
{
    if (exclusive)
        return decreasing ? "exclusive, decreasing" : "exclusive, increasing";
    return decreasing ? "inclusive, decreasing" : "inclusive, increasing";
}

int report_view_init(report_view *view, const dmlconf_report_input *in, char *why, size_t why_size)
{
    memset(view, 0, sizeof(*view));
    view->in = in;
    view->failing = report_select_sorted(in->results, in->count, report_result_is_failing, &view->failing_count);
    view->noteworthy =
        report_select_sorted(in->results, in->count, report_result_is_noteworthy, &view->noteworthy_count);
    if (view->failing_count == SIZE_MAX || view->noteworthy_count == SIZE_MAX ||
        report_failure_groups_build(in->results, in->count, &view->groups) != 0)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    report_run_info_fields(in->info, view->fields);
    dmlconf_matrix_verdict(in->matrix, &view->verdict);
    return 0;
}

void report_view_free(report_view *view)
{
    free(view->failing);
    free(view->noteworthy);
    report_failure_groups_free(&view->groups);
    view->failing = view->noteworthy = NULL;
}

/* ---- result lists ----------------------------------------------------------------- */

int dmlconf_result_list_append(dmlconf_result_list *list, const dmlconf_case_result *result)
{
    if (!dmlconf_reserve((void **)&list->items, &list->capacity, list->count + 1, sizeof(*list->items)))
        return -1;
    list->items[list->count++] = *result;
    return 0;
}

void dmlconf_result_list_free(dmlconf_result_list *list)
{
    if (!list)
        return;
    free(list->items);
    list->items = NULL;
    list->count = 0;
    list->capacity = 0;
}

/* ---- failures.txt --------------------------------------------------------------- */

/* A case that still fails and belongs in the next failures.txt: not a
 * known flake that failed every attempt (flakes.txt keeps it). */
static bool still_fails(const dmlconf_case_result *result)
{
    if (result->status == DMLCONF_STATUS_EXPECTED_FAIL && result->known_status == DMLCONF_STATUS_FLAKE)
        return false;
    return report_status_still_fails(result->status);
}

/* The status a failing case is recorded with: an expected failure with the
 * status the baseline expected and it had. */
static dmlconf_status recorded_status(const dmlconf_case_result *result)
{
    if (result->status != DMLCONF_STATUS_EXPECTED_FAIL)
        return result->status;
    return report_status_still_fails(result->known_status) && result->known_status != DMLCONF_STATUS_EXPECTED_FAIL
               ? result->known_status
               : DMLCONF_STATUS_FAIL;
}

int dmlconf_write_failures(FILE *out, const dmlconf_case_result *results, size_t count, char *why, size_t why_size)
{
    size_t n;
    size_t *order = report_select_sorted(results, count, still_fails, &n);

    if (n == SIZE_MAX)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; ++i)
    {
        const dmlconf_case_result *result = &results[order[i]];
        dmlconf_status status = recorded_status(result);
        size_t length = dmlconf_bounded_length(result->id, sizeof(result->id));

        /* Ids never hold control characters; should one, it must not split
         * the line. */
        for (size_t c = 0; c < length; ++c)
        {
            unsigned char ch = (unsigned char)result->id[c];
            fputc(ch < 0x20 || ch == 0x7f ? '?' : ch, out);
        }
        fprintf(out, ",%s\n", report_status_text(status));
    }
    free(order);
    if (ferror(out))
    {
        dmlconf_set_why(why, why_size, "write error");
        return -1;
    }
    return 0;
}

/* ---- the final reports ------------------------------------------------------------ */

typedef enum report_kind
{
    REPORT_SUMMARY_JSON,
    REPORT_JUNIT_XML,
    REPORT_SUMMARY_MD,
    REPORT_HTML,
    REPORT_FAILURES_TXT,
    REPORT_KIND_COUNT
} report_kind;

static const char *const report_names[REPORT_KIND_COUNT] = {
    [REPORT_SUMMARY_JSON] = DMLCONF_REPORT_SUMMARY_JSON, [REPORT_JUNIT_XML] = DMLCONF_REPORT_JUNIT_XML,
    [REPORT_SUMMARY_MD] = DMLCONF_REPORT_SUMMARY_MD,     [REPORT_HTML] = DMLCONF_REPORT_HTML,
    [REPORT_FAILURES_TXT] = DMLCONF_REPORT_FAILURES_TXT,
};

static int run_writer(report_kind kind, FILE *out, const dmlconf_report_input *in, char *why, size_t why_size)
{
    switch (kind)
    {
    case REPORT_SUMMARY_JSON:
        return dmlconf_write_summary_json(out, in, why, why_size);
    case REPORT_JUNIT_XML:
        return dmlconf_write_junit(out, in, why, why_size);
    case REPORT_SUMMARY_MD:
        return dmlconf_write_markdown(out, in, why, why_size);
    case REPORT_HTML:
        return dmlconf_write_html(out, in, why, why_size);
    case REPORT_FAILURES_TXT:
        return dmlconf_write_failures(out, in->results, in->count, why, why_size);
    case REPORT_KIND_COUNT:
        break;
    }
    return -1;
}

/* Writes one report through a replacement of NAME: a file there stays whole
 * until the new one is complete. */
static int write_report_file(const char *dir, report_kind kind, const dmlconf_report_input *in, char *why,
                             size_t why_size)
{
    char *path = report_path(dir, report_names[kind], "");
    dmlconf_replacement replacement;
    char reason[256] = "";
    int rc = -1;

    if (!path)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    if (dmlconf_replacement_begin(&replacement, path, reason, sizeof(reason)) != 0)
        dmlconf_set_why(why, why_size, "%s: %s", path, reason);
    else if (run_writer(kind, replacement.file, in, reason, sizeof(reason)) != 0)
    {
        dmlconf_set_why(why, why_size, "%s: %s", path, reason);
        dmlconf_replacement_finish(&replacement, false, false, NULL, 0);
    }
    else if (dmlconf_replacement_finish(&replacement, true, false, reason, sizeof(reason)) != 0)
        dmlconf_set_why(why, why_size, "%s: %s", path, reason);
    else
        rc = 0;
    free(path);
    return rc;
}

/* Writes every final report; keeps going after a failure and reports the
 * first. */
static int write_final_reports(const char *dir, const dmlconf_report_input *in, char *why, size_t why_size)
{
    int rc = 0;

    for (int kind = 0; kind < REPORT_KIND_COUNT; ++kind)
    {
        char reason[512];
        if (write_report_file(dir, (report_kind)kind, in, reason, sizeof(reason)) != 0 && rc == 0)
        {
            dmlconf_set_why(why, why_size, "%s", reason);
            rc = -1;
        }
    }
    return rc;
}

/* Writes one line and a newline. */
static int write_line(FILE *out, const char *line)
{
    if (fputs(line, out) == EOF || fputc('\n', out) == EOF)
        return -1;
    return 0;
}

/* ---- the streaming set ----------------------------------------------------------- */

struct dmlconf_report_set
{
    char *dir;
    dmlconf_file_lock lock;
    dmlconf_run_info info;
    dmlconf_load_error_list load_errors;
    FILE *results_file;
    bool begun;
    bool finished;
    bool fsync_enabled;
    double begun_at;
    dmlconf_result_list results;
    dmlconf_matrix matrix;
    char **stale_baseline;
    size_t stale_baseline_count;
    uint64_t junit_max_bytes;
    dmlconf_reports_mode mode;
    bool held_earlier_run; /* the folder held an earlier run's reports when it was opened */
    char error[640];
};

/* Removes a file of an earlier run (and a temporary one left by a crash);
 * a file that is not there is fine. */
static void remove_stale(const char *dir, const char *name)
{
    char *path = report_path(dir, name, "");
    char *temporary = report_path(dir, name, ".tmp");

    if (path)
        remove(path);
    if (temporary)
        remove(temporary);
    free(path);
    free(temporary);
}

/* Whether the folder holds the results of an earlier run that began (its
 * results.jsonl): what a new run must not replace unasked. Reports of a
 * run that never started (a setup error) hold no result, and are replaced
 * like any stale report. */
static bool holds_earlier_run(const char *dir)
{
    char *path = report_path(dir, DMLCONF_REPORT_RESULTS_JSONL, "");
    dmlconf_path_kind found = DMLCONF_PATH_MISSING;
    bool there = path && dmlconf_path_examine(path, &found, NULL, NULL, 0) == 0 && found != DMLCONF_PATH_MISSING;
    free(path);
    return there;
}

/* Creates, locks and checks the folder. With DMLCONF_REPORTS_NEW, a folder
 * that holds an earlier run's reports is refused; nothing is removed here
 * in any mode (the earlier run's files go when this run begins). */
static int open_folder(const char *dir, dmlconf_reports_mode mode, dmlconf_report_set **out, char *why, size_t why_size)
{
    dmlconf_report_set *set = NULL;
    size_t length = strlen(dir);

    *out = NULL;
    if (dmlconf_make_folders(dir, why, why_size) != 0)
        return -1;
    set = calloc(1, sizeof(*set));
    if (!set || !(set->dir = malloc(length + 1)))
    {
        free(set);
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    memcpy(set->dir, dir, length + 1);
    set->lock.handle = -1;
    dmlconf_matrix_init(&set->matrix, DMLCONF_FEATURE_LEVEL_NONE);
    if (report_dir_lock_take(dir, &set->lock, why, why_size) != 0 ||
        report_check_writable(dir, DMLCONF_REPORT_RESULTS_JSONL, why, why_size) != 0)
    {
        dmlconf_reports_close(set);
        return -1;
    }
    set->held_earlier_run = holds_earlier_run(dir);
    if (mode == DMLCONF_REPORTS_NEW && set->held_earlier_run)
    {
        dmlconf_set_why(why, why_size,
                       "%s holds the reports of an earlier run, which this one would replace; give another folder, "
                       "or say that they may be replaced",
                       dir);
        dmlconf_reports_close(set);
        return -1;
    }
    set->mode = mode;
    *out = set;
    return 0;
}

int dmlconf_reports_open(const char *dir, dmlconf_reports_mode mode, dmlconf_report_set **out, char *why,
                         size_t why_size)
{
    return open_folder(dir, mode, out, why, why_size);
}

bool dmlconf_reports_held_earlier_run(const dmlconf_report_set *set)
{
    return set->held_earlier_run;
}

/* junit.xml of a run that never judged a case, into `out`. */
static void write_unstarted_junit(FILE *out, const char *status_token, const char *text, const char *why)
{
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"dmlconf\" tests=\"1\" "
                 "failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n  <testsuite name=\"dmlconf\" tests=\"1\" "
                 "failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n    <testcase name=\"verdict\" "
                 "classname=\"dmlconf.run\" time=\"0\">\n      <error type=\"");
    report_xml_escape(out, status_token, true);
    fputs("\" message=\"", out);
    report_xml_escape(out, text, true);
    fputs("\">", out);
    report_xml_escape(out, why, false);
    fputs("</error>\n    </testcase>\n  </testsuite>\n</testsuites>\n", out);
}

/* summary.json of a run that never judged a case. */
static char *unstarted_summary(const char *status_token, const char *text, const char *why, int exit_status)
{
    json_t *root = json_object();
    json_t *verdict = json_object();
    bool ok = root && verdict;
    char *encoded = NULL;
    report_json_put(verdict, "status", json_string(status_token), &ok);
    report_json_put(verdict, "text", report_json_text(text, strlen(text) + 1), &ok);
    report_json_put(verdict, "detail", report_json_text(why, strlen(why) + 1), &ok);
    report_json_put(verdict, "conformant", json_false(), &ok);
    report_json_put(verdict, "passes", json_false(), &ok);
    report_json_put(verdict, "exit_status", json_integer(exit_status), &ok);
    report_json_put(root, "verdict", verdict, &ok);
    report_json_put(root, "started", json_false(), &ok);
    if (ok)
        encoded = json_dumps(root, JSON_INDENT(2));
    json_decref(root);
    return encoded;
}

int dmlconf_reports_write_unstarted(dmlconf_report_set *set, const char *status_token, const char *text,
                                    const char *why, int exit_status)
{
    if (set->held_earlier_run)
    {
        dmlconf_set_why(set->error, sizeof(set->error), "%s holds an earlier run's reports: they are left as they are",
                       set->dir);
        return -1;
    }
    char *summary = unstarted_summary(status_token, text, why, exit_status);
    char *junit_path = report_path(set->dir, DMLCONF_REPORT_JUNIT_XML, "");
    char *summary_path = report_path(set->dir, DMLCONF_REPORT_SUMMARY_JSON, "");
    dmlconf_replacement junit;
    char reason[512];
    int rc = -1;
    if (!summary || !junit_path || !summary_path)
        dmlconf_set_why(set->error, sizeof(set->error), "out of memory");
    else if (dmlconf_replacement_begin(&junit, junit_path, reason, sizeof(reason)) != 0)
        dmlconf_set_why(set->error, sizeof(set->error), "%s: %s", junit_path, reason);
    else
    {
        write_unstarted_junit(junit.file, status_token, text, why);
        if (dmlconf_replacement_finish(&junit, true, false, reason, sizeof(reason)) != 0)
            dmlconf_set_why(set->error, sizeof(set->error), "%s: %s", junit_path, reason);
        else if (dmlconf_write_file_atomically(summary_path, summary, strlen(summary), false, set->error,
                                               sizeof(set->error)) == 0)
            rc = 0;
    }
    free(summary);
    free(junit_path);
    free(summary_path);
    return rc;
}

int dmlconf_reports_open_resume(const char *dir, dmlconf_results_file *previous, dmlconf_report_set **out, char *why,
                                size_t why_size)
{
    char *path = NULL;

    memset(previous, 0, sizeof(*previous));
    if (open_folder(dir, DMLCONF_REPORTS_RESUME, out, why, why_size) != 0)
        return -1;
    path = report_path(dir, DMLCONF_REPORT_RESULTS_JSONL, "");
    if (!path)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        goto fail;
    }
    if (dmlconf_results_file_read(path, previous, why, why_size) != 0)
        goto fail;
    free(path);
    return 0;
fail:
    free(path);
    dmlconf_reports_close(*out);
    *out = NULL;
    return -1;
}

/* Starts results.jsonl with its header. */
static int begin(dmlconf_report_set *set, const dmlconf_run_info *info, const dmlconf_load_error *errors, size_t count)
{
    char *path = NULL;
    char *header = NULL;
    int rc = -1;

    if (set->begun)
    {
        dmlconf_set_why(set->error, sizeof(set->error), "results.jsonl has begun already");
        return -1;
    }
    set->info = *info;
    /* The run begins: the earlier run's reports go now (a resumed run's
     * results.jsonl is read already and written again below), so that none
     * would pass for this run's if this one dies before finishing. */
    for (int kind = 0; kind < REPORT_KIND_COUNT; ++kind)
        remove_stale(set->dir, report_names[kind]);
    remove_stale(set->dir, DMLCONF_REPORT_RESULTS_JSONL);
    for (size_t i = 0; i < count; ++i)
    {
        if (dmlconf_load_error_list_add(&set->load_errors, errors[i].file, errors[i].line, errors[i].column,
                                        errors[i].message) != 0)
        {
            dmlconf_set_why(set->error, sizeof(set->error), "out of memory");
            return -1;
        }
    }
    dmlconf_matrix_free(&set->matrix);
    dmlconf_matrix_init(&set->matrix, info->target_level);
    {
        dmlconf_verdict_scope scope;
        dmlconf_run_info_scope(info, &scope);
        dmlconf_matrix_set_scope(&set->matrix, &scope);
    }
    path = report_path(set->dir, DMLCONF_REPORT_RESULTS_JSONL, "");
    header = report_results_header_line(info, errors, count);
    if (!path || !header)
    {
        dmlconf_set_why(set->error, sizeof(set->error), "out of memory");
        goto done;
    }
    set->results_file = fopen(path, "wb");
    if (!set->results_file)
    {
        dmlconf_set_why(set->error, sizeof(set->error), "cannot create %s: %s", path, strerror(errno));
        goto done;
    }
    if (write_line(set->results_file, header) != 0 || fflush(set->results_file) != 0)
    {
        dmlconf_set_why(set->error, sizeof(set->error), "cannot write %s: %s", path, strerror(errno));
        goto done;
    }
    set->begun = true;
    set->begun_at = dmlconf_clock_seconds();
    rc = 0;
done:
    free(path);
    free(header);
    return rc;
}

int dmlconf_reports_begin(dmlconf_report_set *set, const dmlconf_run_info *info,
                          const dmlconf_load_error_list *load_errors)
{
    return begin(set, info, load_errors ? load_errors->items : NULL, load_errors ? load_errors->count : 0);
}

bool dmlconf_reports_begun(const dmlconf_report_set *set)
{
    return set->begun;
}

void dmlconf_reports_set_fsync(dmlconf_report_set *set, bool enabled)
{
    set->fsync_enabled = enabled;
}

int dmlconf_reports_add(dmlconf_report_set *set, const dmlconf_case_result *result)
{
    return dmlconf_reports_add_encoded(set, result, NULL);
}

int dmlconf_reports_add_encoded(dmlconf_report_set *set, const dmlconf_case_result *result, const char *encoded)
{
    char *line = NULL;

    if (!set->begun || !set->results_file)
    {
        dmlconf_set_why(set->error, sizeof(set->error), "results.jsonl is not open");
        return -1;
    }
    if (!encoded)
    {
        line = dmlconf_result_to_json(result);
        if (!line)
        {
            dmlconf_set_why(set->error, sizeof(set->error), "out of memory encoding case %s", result->id);
            return -1;
        }
        encoded = line;
    }
    if (write_line(set->results_file, encoded) != 0 || fflush(set->results_file) != 0 ||
        (set->fsync_enabled && dmlconf_sync_file(set->results_file) != 0))
    {
        dmlconf_set_why(set->error, sizeof(set->error), "cannot write %s/%s: %s", set->dir, DMLCONF_REPORT_RESULTS_JSONL,
                       strerror(errno));
        free(line);
        return -1;
    }
    free(line);
    if (dmlconf_result_list_append(&set->results, result) != 0 || dmlconf_matrix_add(&set->matrix, result) != 0)
    {
        dmlconf_set_why(set->error, sizeof(set->error), "out of memory keeping case %s", result->id);
        return -1;
    }
    return 0;
}

static void free_stale_baseline(dmlconf_report_set *set)
{
    for (size_t i = 0; i < set->stale_baseline_count; ++i)
        free(set->stale_baseline[i]);
    free(set->stale_baseline);
    set->stale_baseline = NULL;
    set->stale_baseline_count = 0;
}

int dmlconf_reports_set_stale_baseline(dmlconf_report_set *set, const char *const *lines, size_t count)
{
    free_stale_baseline(set);
    if (!count)
        return 0;
    set->stale_baseline = calloc(count, sizeof(*set->stale_baseline));
    if (!set->stale_baseline)
        return -1;
    for (size_t i = 0; i < count; ++i)
    {
        size_t length = strlen(lines[i]) + 1;
        set->stale_baseline[i] = malloc(length);
        if (!set->stale_baseline[i])
        {
            set->stale_baseline_count = i;
            free_stale_baseline(set);
            return -1;
        }
        memcpy(set->stale_baseline[i], lines[i], length);
    }
    set->stale_baseline_count = count;
    return 0;
}

void dmlconf_reports_set_junit_max_bytes(dmlconf_report_set *set, uint64_t bytes)
{
    set->junit_max_bytes = bytes;
}

/* Ends results.jsonl with the completion record and writes the final
 * reports. */
static int finish_with(dmlconf_report_set *set, const dmlconf_run_end *end)
{
    dmlconf_report_input in = {&set->info,
                               set->load_errors.items,
                               set->load_errors.count,
                               set->results.items,
                               set->results.count,
                               end,
                               &set->matrix,
                               (const char *const *)set->stale_baseline,
                               set->stale_baseline_count,
                               set->junit_max_bytes};
    char *line = NULL;
    int rc = 0;

    if (!set->begun || set->finished)
    {
        dmlconf_set_why(set->error, sizeof(set->error), "%s",
                       set->finished ? "the reports are finished already" : "the run never began: nothing to report");
        return -1;
    }
    set->finished = true;
    /* A run said to have no end (DMLCONF_END_NONE: reports written while it
     * goes on) gets no completion record. */
    line = end->kind == DMLCONF_END_NONE ? NULL : report_results_end_line(end);
    if (!line && end->kind != DMLCONF_END_NONE)
    {
        dmlconf_set_why(set->error, sizeof(set->error), "out of memory");
        rc = -1;
    }
    else if (line && (write_line(set->results_file, line) != 0 || fflush(set->results_file) != 0 ||
                      (set->fsync_enabled && dmlconf_sync_file(set->results_file) != 0)))
    {
        dmlconf_set_why(set->error, sizeof(set->error), "cannot write %s/%s: %s", set->dir, DMLCONF_REPORT_RESULTS_JSONL,
                       strerror(errno));
        rc = -1;
    }
    free(line);
    if (fclose(set->results_file) != 0 && rc == 0)
    {
        dmlconf_set_why(set->error, sizeof(set->error), "cannot close %s/%s: %s", set->dir, DMLCONF_REPORT_RESULTS_JSONL,
                       strerror(errno));
        rc = -1;
    }
    set->results_file = NULL;
    dmlconf_matrix_set_completeness(&set->matrix, set->info.planned_cases, set->load_errors.count, end);
    if (write_final_reports(set->dir, &in, rc == 0 ? set->error : NULL, sizeof(set->error)) != 0)
        rc = -1;
    return rc;
}

/* The completion record of a run that ends now. */
static void end_now(const dmlconf_report_set *set, dmlconf_run_end_kind kind, const char *reason, dmlconf_run_end *end)
{
    double now = dmlconf_clock_seconds();

    memset(end, 0, sizeof(*end));
    end->kind = kind;
    end->cases = set->results.count;
    end->elapsed_seconds = now >= 0.0 && set->begun_at >= 0.0 && now >= set->begun_at ? now - set->begun_at : -1.0;
    snprintf(end->reason, sizeof(end->reason), "%s", reason ? reason : "");
}

int dmlconf_reports_finish(dmlconf_report_set *set)
{
    dmlconf_run_end end;

    end_now(set, DMLCONF_END_FINISHED, NULL, &end);
    return finish_with(set, &end);
}

int dmlconf_reports_finish_interrupted(dmlconf_report_set *set, const char *reason)
{
    dmlconf_run_end end;

    end_now(set, DMLCONF_END_INTERRUPTED, reason, &end);
    return finish_with(set, &end);
}

int dmlconf_reports_finish_unended(dmlconf_report_set *set)
{
    dmlconf_run_end end;

    end_now(set, DMLCONF_END_NONE, NULL, &end);
    return finish_with(set, &end);
}

const char *dmlconf_reports_error(const dmlconf_report_set *set)
{
    return set->error;
}

const dmlconf_matrix *dmlconf_reports_matrix(const dmlconf_report_set *set)
{
    return &set->matrix;
}

const dmlconf_case_result *dmlconf_reports_results(const dmlconf_report_set *set, size_t *count)
{
    *count = set->results.count;
    return set->results.items;
}

void dmlconf_reports_close(dmlconf_report_set *set)
{
    if (!set)
        return;
    if (set->results_file)
        fclose(set->results_file);
    dmlconf_file_lock_release(&set->lock);
    dmlconf_result_list_free(&set->results);
    dmlconf_load_error_list_free(&set->load_errors);
    dmlconf_matrix_free(&set->matrix);
    free_stale_baseline(set);
    free(set->dir);
    free(set);
}

void dmlconf_report_input_matrix(const dmlconf_report_input *in, dmlconf_matrix *matrix)
{
    dmlconf_verdict_scope scope;
    dmlconf_run_end end;
    dmlconf_matrix_init(matrix, in->info->target_level);
    dmlconf_run_info_scope(in->info, &scope);
    dmlconf_matrix_set_scope(matrix, &scope);
    bool counted = true;
    for (size_t i = 0; i < in->count; ++i)
        counted &= dmlconf_matrix_add(matrix, &in->results[i]) == 0;
    if (in->end)
        end = *in->end;
    else
    {
        memset(&end, 0, sizeof(end));
        end.kind = DMLCONF_END_FINISHED;
        end.elapsed_seconds = -1.0;
    }
    if (!counted)
    {
        /* Results the matrix could not hold are missing from it. */
        end.kind = DMLCONF_END_NONE;
    }
    dmlconf_matrix_set_completeness(matrix, in->info->planned_cases, in->load_error_count, &end);
}

void dmlconf_report_input_verdict(const dmlconf_report_input *in, dmlconf_run_verdict *out)
{
    dmlconf_matrix matrix;
    dmlconf_report_input_matrix(in, &matrix);
    dmlconf_matrix_verdict(&matrix, out);
    dmlconf_matrix_free(&matrix);
}

int dmlconf_reports_write_all(const char *dir, dmlconf_reports_mode mode, const dmlconf_report_input *in, char *why,
                              size_t why_size)
{
    dmlconf_report_set *set = NULL;
    dmlconf_run_end end;
    int rc = -1;

    if (in->end)
        end = *in->end;
    else
    {
        memset(&end, 0, sizeof(end));
        end.kind = DMLCONF_END_FINISHED;
        end.elapsed_seconds = -1.0;
    }
    end.cases = in->count;
    if (dmlconf_reports_open(dir, mode, &set, why, why_size) != 0)
        return -1;
    dmlconf_reports_set_junit_max_bytes(set, in->junit_max_bytes);
    if (begin(set, in->info, in->load_errors, in->load_error_count) != 0)
        goto fail;
    for (size_t i = 0; i < in->count; ++i)
    {
        if (dmlconf_reports_add(set, &in->results[i]) != 0)
            goto fail;
    }
    if (finish_with(set, &end) != 0)
        goto fail;
    rc = 0;
    goto done;
fail:
    dmlconf_set_why(why, why_size, "%s", set->error);
done:
    dmlconf_reports_close(set);
    return rc;
}
