/*
 * comparison.md: a comparison of two runs for people reading a merge
 * request or a CI job summary: the answer first, the two runs side by
 * side, how their corpora and settings differ, their verdicts per feature
 * level, the counts of each change, then each list (regressions first,
 * grouped by cause), every list cut at LIST_ROWS rows.
 */
#include "report_internal.h"

#include <dmlconf/compare.h>

#include <math.h>
#include <string.h>

/* Rows of one list; comparison.json lists every change. */
#define LIST_ROWS 200

/* What each list is called, and what it holds. */
static const char *const list_titles[DMLCONF_CHANGE_KIND_COUNT] = {
    [DMLCONF_CHANGE_REGRESSION] = "Regressions: new failures",
    [DMLCONF_CHANGE_FIX] = "Fixes",
    [DMLCONF_CHANGE_STATUS] = "Other status changes",
    [DMLCONF_CHANGE_ADDED] = "Cases added (only in NEW)",
    [DMLCONF_CHANGE_REMOVED] = "Cases removed (only in OLD)",
    [DMLCONF_CHANGE_NOT_RUN_NEW] = "Cases NEW did not run (it did not finish)",
    [DMLCONF_CHANGE_NOT_RUN_OLD] = "Cases OLD did not run (it did not finish)",
    [DMLCONF_CHANGE_DEFINITION] = "Cases changed (the same id, another case)",
    [DMLCONF_CHANGE_SLOWER] = "Slower on the device (beyond the noise)",
    [DMLCONF_CHANGE_FASTER] = "Faster on the device (beyond the noise)",
};

const char *dmlconf_change_kind_title(dmlconf_change_kind kind)
{
    return (unsigned)kind < DMLCONF_CHANGE_KIND_COUNT ? list_titles[kind] : "changes";
}

/* "fail (values, element-left-out)", "pass", "-" (absent). */
static void status_cell(FILE *out, const dmlconf_case_result *r)
{
    if (!r)
    {
        fputs("-", out);
        return;
    }
    fputs(report_status_text(r->status), out);
    char words[96];
    report_failure_words(r, words, sizeof(words));
    if (words[0])
        fprintf(out, " (%s)", words);
}

static void time_cell(FILE *out, const dmlconf_case_result *r)
{
    if (r && r->backend_seconds >= 0.0)
        fprintf(out, "%.4f", r->backend_seconds * 1e3);
    else
        fputs("-", out);
}

static void write_list(FILE *out, const dmlconf_run_comparison *c, dmlconf_change_kind kind)
{
    const dmlconf_change_list *list = &c->changes[kind];
    const bool times = kind == DMLCONF_CHANGE_SLOWER || kind == DMLCONF_CHANGE_FASTER;
    size_t rows = list->count < LIST_ROWS ? list->count : LIST_ROWS;

    if (!list->count)
        return;
    fprintf(out, "## %s (%zu)\n\n", dmlconf_change_kind_title(kind), list->count);
    if (kind == DMLCONF_CHANGE_REGRESSION && c->regression_cause_count)
    {
        fputs("By cause (as summary.md groups failures):\n\n| cause | cases |\n|---|---:|\n", out);
        for (size_t g = 0; g < c->regression_cause_count; ++g)
            fprintf(out, "| %s | %zu |\n", c->regression_causes[g], c->regression_cause_counts[g]);
        fputc('\n', out);
    }
    if (times)
        fputs("| case | OLD ms | NEW ms | NEW / OLD |\n|---|---:|---:|---:|\n", out);
    else if (kind == DMLCONF_CHANGE_DEFINITION)
        fputs("| case | what differs |\n|---|---|\n", out);
    else
        fputs("| case | OLD | NEW | message |\n|---|---|---|---|\n", out);
    for (size_t i = 0; i < rows; ++i)
    {
        const dmlconf_case_change *change = &list->items[i];
        const dmlconf_case_result *r = change->new_result ? change->new_result : change->old_result;
        fputs("| ", out);
        report_md_code(out, r->id, sizeof(r->id), true);
        fputs(" | ", out);
        if (times)
        {
            double ratio = change->old_result->backend_seconds > 0.0
                               ? change->new_result->backend_seconds / change->old_result->backend_seconds
                               : (double)INFINITY;
            time_cell(out, change->old_result);
            fputs(" | ", out);
            time_cell(out, change->new_result);
            fprintf(out, " | %.2f |\n", ratio);
            continue;
        }
        if (kind == DMLCONF_CHANGE_DEFINITION)
        {
            report_md_text(out, change->what, sizeof(change->what));
            fputs(" |\n", out);
            continue;
        }
        status_cell(out, change->old_result);
        fputs(" | ", out);
        status_cell(out, change->new_result);
        fputs(" | ", out);
        report_md_text(out, r->message, sizeof(r->message));
        fputs(" |\n", out);
    }
    if (list->count > rows)
        fprintf(out, "\nand %zu more (comparison.json lists every one).\n", list->count - rows);
    fputc('\n', out);
}

static void write_run_row(FILE *out, const char *label, const char *old_text, size_t old_size, const char *new_text,
                          size_t new_size)
{
    fprintf(out, "| %s | ", label);
    report_md_text(out, old_text, old_size);
    fputs(" | ", out);
    report_md_text(out, new_text, new_size);
    fputs(" |\n", out);
}

static void write_runs(FILE *out, const dmlconf_run_comparison *c)
{
    const dmlconf_compared_run *runs[2] = {&c->old_run, &c->new_run};
    const dmlconf_run_info *a = &c->old_run.file->info;
    const dmlconf_run_info *b = &c->new_run.file->info;

    fputs("| | OLD | NEW |\n|---|---|---|\n| results | ", out);
    report_md_code(out, c->old_run.path, SIZE_MAX, true);
    fputs(" | ", out);
    report_md_code(out, c->new_run.path, SIZE_MAX, true);
    fputs(" |\n", out);
    write_run_row(out, "backend", a->backend, sizeof(a->backend), b->backend, sizeof(b->backend));
    write_run_row(out, "adapter", a->adapter, sizeof(a->adapter), b->adapter, sizeof(b->adapter));
    write_run_row(out, "driver", a->driver, sizeof(a->driver), b->driver, sizeof(b->driver));
    write_run_row(out, "started (UTC)", a->started_utc, sizeof(a->started_utc), b->started_utc, sizeof(b->started_utc));
    fputs("| cases |", out);
    for (int i = 0; i < 2; ++i)
    {
        fprintf(out, " %zu (%s", runs[i]->file->results.count, runs[i]->complete ? "complete" : "incomplete: ");
        if (!runs[i]->complete)
            report_md_text(out, runs[i]->incomplete_reason, sizeof(runs[i]->incomplete_reason));
        fputs(") |", out);
    }
    fputc('\n', out);
    write_run_row(out, "verdict", c->old_run.verdict.text, sizeof(c->old_run.verdict.text), c->new_run.verdict.text,
                  sizeof(c->new_run.verdict.text));
    write_run_row(out, "scope", c->old_run.verdict.scope_text, sizeof(c->old_run.verdict.scope_text),
                  c->new_run.verdict.scope_text, sizeof(c->new_run.verdict.scope_text));
    fputc('\n', out);
}

static void write_sentences(FILE *out, const char *heading, char *const *sentences, size_t count)
{
    if (!count)
        return;
    fprintf(out, "%s\n\n", heading);
    for (size_t i = 0; i < count; ++i)
    {
        fputs("- ", out);
        report_md_text(out, sentences[i], SIZE_MAX);
        fputc('\n', out);
    }
    fputc('\n', out);
}

/* The verdict per feature level, one row a level, both runs side by side;
 * the levels are the matrix's columns (the same in both). */
static void write_levels(FILE *out, const dmlconf_run_comparison *c)
{
    const dmlconf_matrix *a = &c->old_run.matrix;
    const dmlconf_matrix *b = &c->new_run.matrix;
    size_t columns = a->column_count < b->column_count ? a->column_count : b->column_count;

    fputs("## Verdict per feature level\n\nWhether every case required at each level passed (\"partly\": every case "
          "the backend supports passed, some were not covered; \"above\": above the run's target).\n\n"
          "| level | OLD | NEW | |\n|---|---|---|---|\n",
          out);
    for (size_t i = 0; i < columns; ++i)
    {
        const char *x = dmlconf_matrix_column_word(a, i);
        const char *y = dmlconf_matrix_column_word(b, i);
        fprintf(out, "| %s | %s | %s | %s |\n", a->columns[i].label, x, y, strcmp(x, y) ? "changed" : "");
    }
    fprintf(out, "| verdict | %s | %s | %s |\n\n", c->old_run.verdict.text, c->new_run.verdict.text,
            strcmp(c->old_run.verdict.text, c->new_run.verdict.text) ? "changed" : "");
}

static void write_counts(FILE *out, const dmlconf_run_comparison *c)
{
    fprintf(out, "## Changes\n\n%llu cases in both runs.\n\n| change | cases |\n|---|---:|\n",
            (unsigned long long)c->in_both);
    for (int k = 0; k < DMLCONF_CHANGE_KIND_COUNT; ++k)
        fprintf(out, "| %s | %zu |\n", dmlconf_change_kind_title((dmlconf_change_kind)k), c->changes[k].count);
    fprintf(out,
            "\nDevice time: the noise rule counts a case slower or faster when both runs measured its time on the "
            "device, the larger time is at least %.3g times the smaller and they differ by at least %.3g "
            "microseconds. %llu cases were timed in both runs: %.3f ms in OLD, %.3f ms in NEW.\n\n",
            c->options.time_ratio, c->options.time_min_seconds * 1e6, (unsigned long long)c->timed_in_both,
            c->old_timed_seconds * 1e3, c->new_timed_seconds * 1e3);
}

int dmlconf_write_comparison_markdown(FILE *out, const dmlconf_run_comparison *c, char *why, size_t why_size)
{
    static const dmlconf_change_kind order[] = {
        DMLCONF_CHANGE_REGRESSION,  DMLCONF_CHANGE_FIX,   DMLCONF_CHANGE_STATUS,  DMLCONF_CHANGE_NOT_RUN_NEW,
        DMLCONF_CHANGE_NOT_RUN_OLD, DMLCONF_CHANGE_ADDED, DMLCONF_CHANGE_REMOVED, DMLCONF_CHANGE_DEFINITION,
        DMLCONF_CHANGE_SLOWER,      DMLCONF_CHANGE_FASTER};

    fputs("# dmlconf comparison\n\n**Result: ", out);
    report_md_text(out, c->answer, sizeof(c->answer));
    fprintf(out, "** (exit status %d)\n\n", c->exit_status);
    write_runs(out, c);
    if (c->corpus_differs)
        write_sentences(out,
                        c->options.allow_different_corpus
                            ? "**The corpora differ** (compared anyway, as --allow-different-corpus asked):"
                            : "**The corpora differ**, so the runs are not compared:",
                        c->corpus_differences, c->corpus_difference_count);
    write_sentences(out,
                    c->scope_differs ? "**The scopes differ**, and so may other settings:" : "**What else differs:**",
                    c->run_differences, c->run_difference_count);
    write_levels(out, c);
    write_counts(out, c);
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); ++i)
        write_list(out, c, order[i]);
    if (ferror(out))
    {
        dmlconf_set_why(why, why_size, "write error");
        return -1;
    }
    return 0;
}
