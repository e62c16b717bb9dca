/*
 * suite_report.c: the combined reports of a suite of runs
 * (dmlconf/suite_report.h): each run's verdict read back from its own
 * summary.json, and suite.json, suite.md and junit.xml written from them.
 */
#include "report_internal.h"

#include <dmlconf/suite_report.h>

#include <stdlib.h>
#include <string.h>

#define SUITE_FORMAT "dmlconf-suite"
#define SUITE_FORMAT_VERSION 1

/* ---- reading a run's summary.json ---------------------------------------- */

/* Copies obj[key] (a string) into out; leaves "" when it is absent. */
static void copy_string(json_t *obj, const char *key, char *out, size_t size)
{
    json_t *value = json_is_object(obj) ? json_object_get(obj, key) : NULL;
    snprintf(out, size, "%s", json_is_string(value) ? json_string_value(value) : "");
    dmlconf_text_make_printable(out, false);
}

int dmlconf_suite_read_run_summary(const char *run_dir, dmlconf_suite_run_report *run, int *stated_exit, char *why,
                                   size_t why_size)
{
    char *path = report_path(run_dir, DMLCONF_REPORT_SUMMARY_JSON, "");
    if (!path)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    char reason[256];
    /* A named pipe or a folder in its place is refused, never waited on. */
    FILE *in = dmlconf_open_regular_file(path, NULL, reason, sizeof(reason));
    if (!in)
    {
        dmlconf_set_why(why, why_size, "%s", reason);
        free(path);
        return -1;
    }
    json_error_t error;
    json_t *root = json_loadf(in, 0, &error);
    fclose(in);
    json_t *verdict = json_is_object(root) ? json_object_get(root, "verdict") : NULL;
    json_t *exit_status = json_is_object(verdict) ? json_object_get(verdict, "exit_status") : NULL;
    int rc = -1;
    if (!root)
        dmlconf_set_why(why, why_size, "%s:%d:%d: not JSON: %s", path, error.line, error.column, error.text);
    else if (!json_is_object(verdict) || !json_is_string(json_object_get(verdict, "status")) ||
             !json_is_integer(exit_status) || json_integer_value(exit_status) < 0 ||
             json_integer_value(exit_status) > 255)
        dmlconf_set_why(why, why_size, "%s has no verdict (status and exit_status)", path);
    else
    {
        run->has_summary = true;
        copy_string(verdict, "status", run->status, sizeof(run->status));
        copy_string(verdict, "text", run->verdict, sizeof(run->verdict));
        copy_string(verdict, "detail", run->detail, sizeof(run->detail));
        copy_string(json_object_get(verdict, "scope"), "text", run->scope, sizeof(run->scope));
        copy_string(json_object_get(verdict, "baseline"), "text", run->baseline, sizeof(run->baseline));
        *stated_exit = (int)json_integer_value(exit_status);
        rc = 0;
    }
    json_decref(root);
    free(path);
    return rc;
}

/* ---- the suite's status ---------------------------------------------------- */

int dmlconf_suite_exit_status(const dmlconf_suite_report *suite)
{
    int worst = suite->run_count ? 0 : 2;
    for (size_t i = 0; i < suite->run_count; ++i)
    {
        if (suite->runs[i].exit_status > worst)
            worst = suite->runs[i].exit_status;
    }
    if (suite->interrupted_by && worst < 2)
        worst = 2;
    return worst;
}

/* A run's or the suite's status by its exit status (0 to 3). */
static const char *const status_words[4] = {"passed", "failed", "incomplete", "setup error"};

const char *dmlconf_suite_status_text(const dmlconf_suite_report *suite)
{
    int status = dmlconf_suite_exit_status(suite);
    return suite->interrupted_by ? "interrupted" : status_words[status >= 0 && status <= 3 ? status : 3];
}

/* How many runs ended with each exit status (0 to 3, the rest in 3). */
static void count_statuses(const dmlconf_suite_report *suite, size_t counts[4])
{
    memset(counts, 0, 4 * sizeof(*counts));
    for (size_t i = 0; i < suite->run_count; ++i)
    {
        int status = suite->runs[i].exit_status;
        counts[status >= 0 && status <= 3 ? status : 3]++;
    }
}

/* "3 runs: 2 passed, 1 failed" */
static void counts_text(const dmlconf_suite_report *suite, char *out, size_t size)
{
    size_t counts[4];
    count_statuses(suite, counts);
    dmlconf_text text = {out, size, 0};
    if (size)
        out[0] = '\0';
    dmlconf_text_appendf(&text, "%zu run%s", suite->run_count, suite->run_count == 1 ? "" : "s");
    const char *separator = ": ";
    for (int s = 0; s < 4; ++s)
    {
        if (counts[s])
        {
            dmlconf_text_appendf(&text, "%s%zu %s", separator, counts[s], status_words[s]);
            separator = ", ";
        }
    }
}

/* ---- suite.json -------------------------------------------------------------- */

static json_t *json_run(const dmlconf_suite_run_report *run)
{
    json_t *obj = json_object();
    bool ok = obj != NULL;
    if (!obj)
        return NULL;
    report_json_put(obj, "name", report_json_text(run->name, sizeof(run->name)), &ok);
    report_json_put(obj, "folder", report_json_text(run->name, sizeof(run->name)), &ok);
    report_json_put(obj, "ran", json_boolean(run->ran), &ok);
    report_json_put(obj, "exit_status", json_integer(run->exit_status), &ok);
    report_json_put(obj, "status", report_json_text(run->status, sizeof(run->status)), &ok);
    report_json_put(obj, "verdict", report_json_text(run->verdict, sizeof(run->verdict)), &ok);
    report_json_put(obj, "scope", report_json_text(run->scope, sizeof(run->scope)), &ok);
    report_json_put(obj, "detail", report_json_text(run->detail, sizeof(run->detail)), &ok);
    report_json_put(obj, "baseline", report_json_text(run->baseline, sizeof(run->baseline)), &ok);
    report_json_put(obj, "note", report_json_text(run->note, sizeof(run->note)), &ok);
    report_json_put(obj, "seconds", report_json_double(run->seconds), &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static char *suite_json(const dmlconf_suite_report *suite)
{
    json_t *root = json_object();
    json_t *runs = json_array();
    bool ok = root && runs;
    char counts[160];
    counts_text(suite, counts, sizeof(counts));
    for (size_t i = 0; ok && i < suite->run_count; ++i)
    {
        json_t *run = json_run(&suite->runs[i]);
        ok = run && json_array_append_new(runs, run) == 0;
    }
    report_json_put(root, "format", json_string(SUITE_FORMAT), &ok);
    report_json_put(root, "format_version", json_integer(SUITE_FORMAT_VERSION), &ok);
    report_json_put(root, "suite", report_json_text(suite->suite_path, strlen(suite->suite_path) + 1), &ok);
    report_json_put(root, "status", json_string(dmlconf_suite_status_text(suite)), &ok);
    report_json_put(root, "exit_status", json_integer(dmlconf_suite_exit_status(suite)), &ok);
    report_json_put(root, "counts", json_string(counts), &ok);
    report_json_put(root, "interrupted_by", suite->interrupted_by ? json_string(suite->interrupted_by) : json_null(),
                    &ok);
    report_json_put(root, "seconds", report_json_double(suite->seconds), &ok);
    report_json_put(root, "runs", runs, &ok);
    char *encoded = ok ? json_dumps(root, JSON_INDENT(2)) : NULL;
    json_decref(root);
    return encoded;
}

/* ---- suite.md ---------------------------------------------------------------- */

static void write_markdown(FILE *out, const dmlconf_suite_report *suite)
{
    char counts[160];
    counts_text(suite, counts, sizeof(counts));
    fputs("# dmlconf suite\n\n", out);
    fputs("Suite file: ", out);
    report_md_code(out, suite->suite_path, strlen(suite->suite_path), false);
    fprintf(out, "\n\n**Suite: %s** (%s; exit status %d)", dmlconf_suite_status_text(suite), counts,
            dmlconf_suite_exit_status(suite));
    if (suite->interrupted_by)
        fprintf(out, ", interrupted by %s: runs not run are incomplete", suite->interrupted_by);
    fputs(".\n\nEach run's verdict keeps its own scope; its folder holds its full reports.\n\n", out);
    fputs("| Run | Exit | Verdict | Scope |\n|---|---|---|---|\n", out);
    for (size_t i = 0; i < suite->run_count; ++i)
    {
        const dmlconf_suite_run_report *run = &suite->runs[i];
        fputs("| ", out);
        report_md_code(out, run->name, strlen(run->name), true);
        fprintf(out, " | %d | ", run->exit_status);
        report_md_text(out, run->verdict[0] ? run->verdict : run->status, sizeof(run->verdict));
        fputs(" | ", out);
        report_md_text(out, run->scope, sizeof(run->scope));
        fputs(" |\n", out);
    }
    for (size_t i = 0; i < suite->run_count; ++i)
    {
        const dmlconf_suite_run_report *run = &suite->runs[i];
        fputs("\n## ", out);
        report_md_text(out, run->name, sizeof(run->name));
        fprintf(out, "\n\n- Exit status: %d (%.1f s)\n- Verdict: ", run->exit_status, run->seconds);
        report_md_text(out, run->verdict[0] ? run->verdict : run->status, sizeof(run->verdict));
        const struct
        {
            const char *label, *text;
            size_t size;
        } lines[] = {
            {"Detail", run->detail, sizeof(run->detail)},
            {"Scope", run->scope, sizeof(run->scope)},
            {"Baseline", run->baseline, sizeof(run->baseline)},
            {"Note", run->note, sizeof(run->note)},
        };
        for (size_t l = 0; l < sizeof(lines) / sizeof(lines[0]); ++l)
        {
            if (!lines[l].text[0])
                continue;
            fprintf(out, "\n- %s: ", lines[l].label);
            report_md_text(out, lines[l].text, lines[l].size);
        }
        fputs("\n- Reports: ", out);
        report_md_code(out, run->name, strlen(run->name), false);
        fputs("/\n", out);
    }
}

/* ---- junit.xml --------------------------------------------------------------- */

static void write_junit(FILE *out, const dmlconf_suite_report *suite)
{
    size_t counts[4];
    count_statuses(suite, counts);
    size_t errors = counts[2] + counts[3];
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"dmlconf-suite\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n"
            "  <testsuite name=\"dmlconf-suite\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\" "
            "time=\"%.3f\">\n",
            suite->run_count, counts[1], errors, suite->seconds, suite->run_count, counts[1], errors, suite->seconds);
    for (size_t i = 0; i < suite->run_count; ++i)
    {
        const dmlconf_suite_run_report *run = &suite->runs[i];
        fputs("    <testcase name=\"", out);
        report_xml_escape(out, run->name, true);
        fprintf(out, "\" classname=\"dmlconf.suite\" time=\"%.3f\">\n", run->seconds);
        if (run->exit_status != 0)
        {
            const char *element = run->exit_status == 1 ? "failure" : "error";
            fprintf(out, "      <%s type=\"", element);
            report_xml_escape(out, run->status, true);
            fputs("\" message=\"", out);
            report_xml_escape(out, run->verdict[0] ? run->verdict : run->status, true);
            fputs("\">", out);
            report_xml_escape(out, run->detail, false);
            if (run->note[0])
            {
                fputs("\n", out);
                report_xml_escape(out, run->note, false);
            }
            fprintf(out, "</%s>\n", element);
        }
        fputs("      <system-out>exit status ", out);
        fprintf(out, "%d; verdict: ", run->exit_status);
        report_xml_escape(out, run->verdict[0] ? run->verdict : run->status, false);
        if (run->scope[0])
        {
            fputs("\nscope: ", out);
            report_xml_escape(out, run->scope, false);
        }
        if (run->baseline[0])
        {
            fputs("\nbaseline: ", out);
            report_xml_escape(out, run->baseline, false);
        }
        fputs("\nreports: ", out);
        report_xml_escape(out, run->name, false);
        fputs("/</system-out>\n    </testcase>\n", out);
    }
    fputs("  </testsuite>\n</testsuites>\n", out);
}

/* ---- writing ---------------------------------------------------------------- */

/* Writes one file of the suite's with `write`. */
static int write_one(const char *dir, const char *name, void (*write)(FILE *, const dmlconf_suite_report *),
                     const dmlconf_suite_report *suite, char *why, size_t why_size)
{
    char *path = dmlconf_path_join(dir, name);
    dmlconf_replacement replacement;
    char reason[256];
    int rc = -1;
    if (!path)
        dmlconf_set_why(why, why_size, "out of memory");
    else if (dmlconf_replacement_begin(&replacement, path, reason, sizeof(reason)) != 0)
        dmlconf_set_why(why, why_size, "%s: %s", path, reason);
    else
    {
        write(replacement.file, suite);
        if (dmlconf_replacement_finish(&replacement, true, false, reason, sizeof(reason)) != 0)
            dmlconf_set_why(why, why_size, "%s: %s", path, reason);
        else
            rc = 0;
    }
    free(path);
    return rc;
}

int dmlconf_suite_reports_write(const char *dir, const dmlconf_suite_report *suite, char *why, size_t why_size)
{
    char *json = suite_json(suite);
    char *path = dmlconf_path_join(dir, "suite.json");
    int rc = -1;
    if (!json || !path)
        dmlconf_set_why(why, why_size, "out of memory");
    else if (dmlconf_write_file_atomically(path, json, strlen(json), false, why, why_size) == 0 &&
             write_one(dir, "suite.md", write_markdown, suite, why, why_size) == 0 &&
             write_one(dir, DMLCONF_REPORT_JUNIT_XML, write_junit, suite, why, why_size) == 0)
        rc = 0;
    free(json);
    free(path);
    return rc;
}

/* ---- the console ------------------------------------------------------------- */

void dmlconf_suite_print(FILE *out, const dmlconf_suite_report *suite)
{
    size_t width = 3;
    for (size_t i = 0; i < suite->run_count; ++i)
    {
        size_t length = strlen(suite->runs[i].name);
        if (length > width)
            width = length;
    }
    fprintf(out, "%-*s  exit  verdict\n", (int)width, "run");
    for (size_t i = 0; i < suite->run_count; ++i)
    {
        const dmlconf_suite_run_report *run = &suite->runs[i];
        fprintf(out, "%-*s  %4d  %s%s%s\n", (int)width, run->name, run->exit_status,
                run->verdict[0] ? run->verdict : run->status, run->note[0] ? ": " : "", run->note);
    }
    char counts[160];
    counts_text(suite, counts, sizeof(counts));
    fprintf(out, "suite: %s (%s)\n", dmlconf_suite_status_text(suite), counts);
}
