/*
 * comparison.html: a comparison of two runs on one self-contained page
 * (the reports' inline stylesheet, no script, no external resource): the
 * answer, the runs side by side, how they differ, the verdict per feature
 * level, the counts and each list of changes (cut at LIST_ROWS rows, as
 * comparison.md cuts them).
 */
#include "report_internal.h"

#include <dmlconf/compare.h>

#include <math.h>
#include <string.h>

#define LIST_ROWS 200

static void put_text(FILE *out, const char *text)
{
    report_xml_escape(out, text, false);
}

static void put_field(FILE *out, const char *text, size_t size)
{
    report_xml_escape_field(out, text, size, false);
}

static void status_cell(FILE *out, const dmlconf_case_result *r)
{
    fputs("<td>", out);
    if (!r)
    {
        fputs("-</td>", out);
        return;
    }
    fprintf(out, "<span class=\"status status-%s\">%s</span>", report_status_text(r->status),
            report_status_text(r->status));
    char words[96];
    report_failure_words(r, words, sizeof(words));
    if (words[0])
        fprintf(out, " %s", words);
    fputs("</td>", out);
}

static void time_cell(FILE *out, const dmlconf_case_result *r)
{
    if (r && r->backend_seconds >= 0.0)
        fprintf(out, "<td class=\"num\">%.4f</td>", r->backend_seconds * 1e3);
    else
        fputs("<td class=\"num\">-</td>", out);
}

static void write_list(FILE *out, const dmlconf_run_comparison *c, dmlconf_change_kind kind)
{
    const dmlconf_change_list *list = &c->changes[kind];
    const bool times = kind == DMLCONF_CHANGE_SLOWER || kind == DMLCONF_CHANGE_FASTER;
    size_t rows = list->count < LIST_ROWS ? list->count : LIST_ROWS;

    if (!list->count)
        return;
    fprintf(out, "<section id=\"%s\"><h2>%s (%zu)</h2>\n", dmlconf_change_kind_name(kind),
            dmlconf_change_kind_title(kind), list->count);
    if (kind == DMLCONF_CHANGE_REGRESSION && c->regression_cause_count)
    {
        fputs("<p>By cause (as the run&#39;s reports group failures):</p>\n<table class=\"cases groups\"><tr><th>cause"
              "</th><th class=\"num\">cases</th></tr>\n",
              out);
        for (size_t g = 0; g < c->regression_cause_count; ++g)
        {
            fputs("<tr><td class=\"cause\">", out);
            put_text(out, c->regression_causes[g]);
            fprintf(out, "</td><td class=\"num\">%zu</td></tr>\n", c->regression_cause_counts[g]);
        }
        fputs("</table>\n", out);
    }
    if (times)
        fputs("<table class=\"cases\"><tr><th>case</th><th class=\"num\">OLD ms</th><th class=\"num\">NEW ms</th>"
              "<th class=\"num\">NEW / OLD</th></tr>\n",
              out);
    else if (kind == DMLCONF_CHANGE_DEFINITION)
        fputs("<table class=\"cases\"><tr><th>case</th><th>what differs</th></tr>\n", out);
    else
        fputs("<table class=\"cases\"><tr><th>case</th><th>OLD</th><th>NEW</th><th>message</th></tr>\n", out);
    for (size_t i = 0; i < rows; ++i)
    {
        const dmlconf_case_change *change = &list->items[i];
        const dmlconf_case_result *r = change->new_result ? change->new_result : change->old_result;
        fputs("<tr><td class=\"id\">", out);
        put_field(out, r->id, sizeof(r->id));
        fputs("</td>", out);
        if (times)
        {
            double ratio = change->old_result->backend_seconds > 0.0
                               ? change->new_result->backend_seconds / change->old_result->backend_seconds
                               : (double)INFINITY;
            time_cell(out, change->old_result);
            time_cell(out, change->new_result);
            fprintf(out, "<td class=\"num\">%.2f</td></tr>\n", ratio);
            continue;
        }
        if (kind == DMLCONF_CHANGE_DEFINITION)
        {
            fputs("<td>", out);
            put_field(out, change->what, sizeof(change->what));
            fputs("</td></tr>\n", out);
            continue;
        }
        status_cell(out, change->old_result);
        status_cell(out, change->new_result);
        fputs("<td class=\"message\">", out);
        put_field(out, r->message, sizeof(r->message));
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
    if (list->count > rows)
        fprintf(out, "<p>and %zu more (comparison.json lists every one).</p>\n", list->count - rows);
    fputs("</section>\n", out);
}

static void run_row(FILE *out, const char *label, const char *a, size_t a_size, const char *b, size_t b_size)
{
    fprintf(out, "<tr><th>%s</th><td>", label);
    put_field(out, a, a_size);
    fputs("</td><td>", out);
    put_field(out, b, b_size);
    fputs("</td></tr>\n", out);
}

static void write_runs(FILE *out, const dmlconf_run_comparison *c)
{
    const dmlconf_compared_run *runs[2] = {&c->old_run, &c->new_run};
    const dmlconf_run_info *a = &c->old_run.file->info;
    const dmlconf_run_info *b = &c->new_run.file->info;

    fputs("<section id=\"runs\"><h2>The runs</h2>\n<table class=\"info\"><tr><th></th><th>OLD</th><th>NEW</th></tr>\n"
          "<tr><th>results</th><td class=\"mono\">",
          out);
    put_text(out, c->old_run.path);
    fputs("</td><td class=\"mono\">", out);
    put_text(out, c->new_run.path);
    fputs("</td></tr>\n", out);
    run_row(out, "backend", a->backend, sizeof(a->backend), b->backend, sizeof(b->backend));
    run_row(out, "adapter", a->adapter, sizeof(a->adapter), b->adapter, sizeof(b->adapter));
    run_row(out, "driver", a->driver, sizeof(a->driver), b->driver, sizeof(b->driver));
    run_row(out, "started (UTC)", a->started_utc, sizeof(a->started_utc), b->started_utc, sizeof(b->started_utc));
    fputs("<tr><th>cases</th>", out);
    for (int i = 0; i < 2; ++i)
    {
        fprintf(out, "<td>%zu (%s", runs[i]->file->results.count, runs[i]->complete ? "complete" : "incomplete: ");
        if (!runs[i]->complete)
            put_field(out, runs[i]->incomplete_reason, sizeof(runs[i]->incomplete_reason));
        fputs(")</td>", out);
    }
    fputs("</tr>\n", out);
    run_row(out, "verdict", c->old_run.verdict.text, sizeof(c->old_run.verdict.text), c->new_run.verdict.text,
            sizeof(c->new_run.verdict.text));
    run_row(out, "scope", c->old_run.verdict.scope_text, sizeof(c->old_run.verdict.scope_text),
            c->new_run.verdict.scope_text, sizeof(c->new_run.verdict.scope_text));
    fputs("</table></section>\n", out);
}

static void write_sentences(FILE *out, const char *id, const char *heading, char *const *sentences, size_t count)
{
    if (!count)
        return;
    fprintf(out, "<section id=\"%s\"><h2>%s</h2><ul>\n", id, heading);
    for (size_t i = 0; i < count; ++i)
    {
        fputs("<li>", out);
        put_text(out, sentences[i]);
        fputs("</li>\n", out);
    }
    fputs("</ul></section>\n", out);
}

static void write_levels(FILE *out, const dmlconf_run_comparison *c)
{
    const dmlconf_matrix *a = &c->old_run.matrix;
    const dmlconf_matrix *b = &c->new_run.matrix;
    size_t columns = a->column_count < b->column_count ? a->column_count : b->column_count;

    fputs("<section id=\"levels\"><h2>Verdict per feature level</h2>\n<table class=\"matrix\"><tr><th>level</th>"
          "<th>OLD</th><th>NEW</th></tr>\n",
          out);
    for (size_t i = 0; i < columns; ++i)
    {
        const char *x = dmlconf_matrix_column_word(a, i);
        const char *y = dmlconf_matrix_column_word(b, i);
        fprintf(out, "<tr%s><th>%s</th><td class=\"%s\">%s</td><td class=\"%s\">%s</td></tr>\n",
                strcmp(x, y) ? " class=\"worst\"" : "", a->columns[i].label, x, x, y, y);
    }
    fputs("<tr><th>verdict</th><td>", out);
    put_text(out, c->old_run.verdict.text);
    fputs("</td><td>", out);
    put_text(out, c->new_run.verdict.text);
    fputs("</td></tr></table></section>\n", out);
}

static void write_counts(FILE *out, const dmlconf_run_comparison *c)
{
    fprintf(out,
            "<section id=\"counts\"><h2>Changes</h2><p>%llu cases in both runs.</p>\n<table class=\"cases\"><tr><th>"
            "change</th><th class=\"num\">cases</th></tr>\n",
            (unsigned long long)c->in_both);
    for (int k = 0; k < DMLCONF_CHANGE_KIND_COUNT; ++k)
        fprintf(out, "<tr><td>%s</td><td class=\"num\">%zu</td></tr>\n",
                dmlconf_change_kind_title((dmlconf_change_kind)k), c->changes[k].count);
    fprintf(out,
            "</table>\n<p>Device time: the noise rule counts a case slower or faster when both runs measured its "
            "time on the device, the larger time is at least %.3g times the smaller and they differ by at least "
            "%.3g microseconds. %llu cases were timed in both runs: %.3f ms in OLD, %.3f ms in NEW.</p></section>\n",
            c->options.time_ratio, c->options.time_min_seconds * 1e6, (unsigned long long)c->timed_in_both,
            c->old_timed_seconds * 1e3, c->new_timed_seconds * 1e3);
}

int dmlconf_write_comparison_html(FILE *out, const dmlconf_run_comparison *c, char *why, size_t why_size)
{
    static const dmlconf_change_kind order[] = {
        DMLCONF_CHANGE_REGRESSION,  DMLCONF_CHANGE_FIX,   DMLCONF_CHANGE_STATUS,  DMLCONF_CHANGE_NOT_RUN_NEW,
        DMLCONF_CHANGE_NOT_RUN_OLD, DMLCONF_CHANGE_ADDED, DMLCONF_CHANGE_REMOVED, DMLCONF_CHANGE_DEFINITION,
        DMLCONF_CHANGE_SLOWER,      DMLCONF_CHANGE_FASTER};
    const char *tone = c->exit_status == DMLCONF_EXIT_PASSED   ? "ok"
                       : c->exit_status == DMLCONF_EXIT_FAILED ? "bad"
                                                               : "incomplete";

    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>dmlconf comparison: ",
          out);
    put_text(out, c->answer);
    fputs("</title>\n<style>\n", out);
    fputs(report_html_style, out);
    fprintf(out,
            "</style>\n</head>\n<body>\n<header><h1>dmlconf comparison</h1>\n<div class=\"verdict %s\" "
            "id=\"answer\" data-answer=\"%s\"><div class=\"text\">",
            tone, c->answer_token);
    put_text(out, c->answer);
    fprintf(out, "</div><div class=\"detail\">Exit status %d.</div></div></header>\n", c->exit_status);
    write_runs(out, c);
    if (c->corpus_differs)
        write_sentences(out, "corpus",
                        c->options.allow_different_corpus
                            ? "The corpora differ (compared anyway, as --allow-different-corpus asked)"
                            : "The corpora differ, so the runs are not compared",
                        c->corpus_differences, c->corpus_difference_count);
    write_sentences(out, "differences",
                    c->scope_differs ? "The scopes differ, and so may other settings" : "What else differs",
                    c->run_differences, c->run_difference_count);
    write_levels(out, c);
    write_counts(out, c);
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); ++i)
        write_list(out, c, order[i]);
    fputs("<footer>dmlconf compare</footer>\n</body>\n</html>\n", out);
    if (ferror(out))
    {
        dmlconf_set_why(why, why_size, "write error");
        return -1;
    }
    return 0;
}
