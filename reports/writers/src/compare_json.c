/*
 * comparison.json: a comparison of two runs for machines. Every change is
 * listed (the human-readable pages cut their lists); keys are those of
 * dmlconf_change_kind_name.
 *   {"format":"dmlconf-comparison","format_version":1,
 *    "answer":{"token":"regressions","text":"...","exit_status":1},
 *    "old":{run}, "new":{run},
 *    "corpus":{"same":false,"allowed":false,"differences":[...]},
 *    "run_differences":[...], "scope_differs":false,
 *    "noise_rule":{...}, "counts":{...}, "regression_causes":[...],
 *    "regressions":[{"id","old":{...},"new":{...}}], ...}
 */
#include "report_internal.h"

#include <dmlconf/compare.h>

#include <stdlib.h>

#define COMPARISON_FORMAT         "dmlconf-comparison"
#define COMPARISON_FORMAT_VERSION 1

static json_t *json_sentences(char *const *sentences, size_t count)
{
    json_t *array = json_array();

    for (size_t i = 0; array && i < count; ++i)
    {
        if (json_array_append_new(array, report_json_text(sentences[i], SIZE_MAX)) != 0)
        {
            json_decref(array);
            return NULL;
        }
    }
    return array;
}

/* The run's verdict per feature level: [{"level":"2_1","conformant":"yes"}]. */
static json_t *json_levels(const dmlconf_matrix *matrix)
{
    json_t *array = json_array();

    for (size_t c = 0; array && c < matrix->column_count; ++c)
    {
        json_t *level = json_object();
        bool ok = level != NULL;
        report_json_put(level, "level", json_string(matrix->columns[c].label), &ok);
        report_json_put(level, "conformant", json_string(dmlconf_matrix_column_word(matrix, c)), &ok);
        if (!ok || json_array_append_new(array, level) != 0)
        {
            json_decref(array);
            return NULL;
        }
    }
    return array;
}

static json_t *json_run(const dmlconf_compared_run *run)
{
    const dmlconf_run_verdict *v = &run->verdict;
    json_t *obj = json_object();
    json_t *verdict = json_object();
    bool ok = obj && verdict;

    if (!ok)
    {
        json_decref(obj);
        json_decref(verdict);
        return NULL;
    }
    report_json_put(verdict, "status", json_string(dmlconf_run_status_name(v->status)), &ok);
    report_json_put(verdict, "text", report_json_text(v->text, sizeof(v->text)), &ok);
    report_json_put(
        verdict, "scope",
        json_string(dmlconf_scope_kind_name(v->scope.kind) ? dmlconf_scope_kind_name(v->scope.kind) : "files"), &ok);
    report_json_put(verdict, "scope_text", report_json_text(v->scope_text, sizeof(v->scope_text)), &ok);
    report_json_put(verdict, "detail", report_json_text(v->detail, sizeof(v->detail)), &ok);
    report_json_put(verdict, "exit_status", json_integer(v->exit_status), &ok);
    report_json_put(verdict, "levels", json_levels(&run->matrix), &ok);
    report_json_put(obj, "results", report_json_text(run->path, SIZE_MAX), &ok);
    report_json_put(obj, "run", report_json_run_info(&run->file->info), &ok);
    report_json_put(obj, "verdict", verdict, &ok);
    report_json_put(obj, "cases", report_json_u64(run->file->results.count), &ok);
    report_json_put(obj, "complete", json_boolean(run->complete), &ok);
    report_json_put(obj, "incomplete_reason", report_json_text(run->incomplete_reason, SIZE_MAX), &ok);
    report_json_put(obj, "dropped_lines", report_json_u64(run->file->dropped_lines), &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

/* One side of a change: status, failure, message and device time. */
static json_t *json_side(const dmlconf_case_result *r)
{
    json_t *obj;
    bool ok;

    if (!r)
        return json_null();
    obj = json_object();
    ok = obj != NULL;
    report_json_put(obj, "status", json_string(report_status_text(r->status)), &ok);
    if (r->failure != DMLCONF_FAILURE_NONE && dmlconf_failure_name(r->failure))
        report_json_put(obj, "failure", json_string(dmlconf_failure_name(r->failure)), &ok);
    if (r->comparison.pattern != DMLCONF_PATTERN_NONE && dmlconf_pattern_name(r->comparison.pattern))
        report_json_put(obj, "pattern", json_string(dmlconf_pattern_name(r->comparison.pattern)), &ok);
    report_json_put(obj, "message", report_json_text(r->message, sizeof(r->message)), &ok);
    report_json_put(obj, "backend_seconds", report_json_double(r->backend_seconds), &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static json_t *json_changes(const dmlconf_change_list *list)
{
    json_t *array = json_array();

    for (size_t i = 0; array && i < list->count; ++i)
    {
        const dmlconf_case_change *change = &list->items[i];
        const dmlconf_case_result *r = change->new_result ? change->new_result : change->old_result;
        json_t *obj = json_object();
        bool ok = obj != NULL;
        report_json_put(obj, "id", report_json_text(r->id, sizeof(r->id)), &ok);
        report_json_put(obj, "old", json_side(change->old_result), &ok);
        report_json_put(obj, "new", json_side(change->new_result), &ok);
        if (change->what[0])
            report_json_put(obj, "what", report_json_text(change->what, sizeof(change->what)), &ok);
        if (change->old_result && change->new_result && change->old_result->backend_seconds > 0.0 &&
            change->new_result->backend_seconds >= 0.0)
            report_json_put(
                obj, "time_ratio",
                report_json_double(change->new_result->backend_seconds / change->old_result->backend_seconds), &ok);
        if (!ok || json_array_append_new(array, obj) != 0)
        {
            if (!ok)
                json_decref(obj);
            json_decref(array);
            return NULL;
        }
    }
    return array;
}

int dmlconf_write_comparison_json(FILE *out, const dmlconf_run_comparison *c, char *why, size_t why_size)
{
    json_t *root = json_object();
    json_t *answer = json_object();
    json_t *corpus = json_object();
    json_t *noise = json_object();
    json_t *counts = json_object();
    json_t *causes = json_array();
    bool ok = root && answer && corpus && noise && counts && causes;
    int rc = -1;

    if (!ok)
    {
        json_decref(answer);
        json_decref(corpus);
        json_decref(noise);
        json_decref(counts);
        json_decref(causes);
        dmlconf_set_why(why, why_size, "out of memory");
        goto done;
    }
    report_json_put(answer, "token", json_string(c->answer_token), &ok);
    report_json_put(answer, "text", report_json_text(c->answer, sizeof(c->answer)), &ok);
    report_json_put(answer, "exit_status", json_integer(c->exit_status), &ok);
    report_json_put(corpus, "same", json_boolean(!c->corpus_differs), &ok);
    report_json_put(corpus, "allowed", json_boolean(c->options.allow_different_corpus), &ok);
    report_json_put(corpus, "differences", json_sentences(c->corpus_differences, c->corpus_difference_count), &ok);
    report_json_put(noise, "ratio", report_json_double(c->options.time_ratio), &ok);
    report_json_put(noise, "min_seconds", report_json_double(c->options.time_min_seconds), &ok);
    report_json_put(noise, "rule",
                    json_string("a case's device time changed when both runs measured it, the larger time is at "
                                "least `ratio` times the smaller and they differ by at least `min_seconds`"),
                    &ok);
    report_json_put(counts, "in_both", report_json_u64(c->in_both), &ok);
    report_json_put(counts, "timed_in_both", report_json_u64(c->timed_in_both), &ok);
    report_json_put(counts, "old_timed_seconds", report_json_double(c->old_timed_seconds), &ok);
    report_json_put(counts, "new_timed_seconds", report_json_double(c->new_timed_seconds), &ok);
    for (int k = 0; k < DMLCONF_CHANGE_KIND_COUNT; ++k)
        report_json_put(counts, dmlconf_change_kind_name((dmlconf_change_kind)k), report_json_u64(c->changes[k].count),
                        &ok);
    for (size_t g = 0; g < c->regression_cause_count; ++g)
    {
        json_t *cause = json_object();
        bool cause_ok = cause != NULL;
        report_json_put(cause, "title", report_json_text(c->regression_causes[g], SIZE_MAX), &cause_ok);
        report_json_put(cause, "cases", report_json_u64(c->regression_cause_counts[g]), &cause_ok);
        if (!cause_ok || json_array_append_new(causes, cause) != 0)
        {
            if (!cause_ok)
                json_decref(cause);
            ok = false;
        }
    }
    report_json_put(root, "format", json_string(COMPARISON_FORMAT), &ok);
    report_json_put(root, "format_version", json_integer(COMPARISON_FORMAT_VERSION), &ok);
    report_json_put(root, "answer", answer, &ok);
    report_json_put(root, "old", json_run(&c->old_run), &ok);
    report_json_put(root, "new", json_run(&c->new_run), &ok);
    report_json_put(root, "corpus", corpus, &ok);
    report_json_put(root, "scope_differs", json_boolean(c->scope_differs), &ok);
    report_json_put(root, "run_differences", json_sentences(c->run_differences, c->run_difference_count), &ok);
    report_json_put(root, "noise_rule", noise, &ok);
    report_json_put(root, "counts", counts, &ok);
    report_json_put(root, "regression_causes", causes, &ok);
    for (int k = 0; k < DMLCONF_CHANGE_KIND_COUNT; ++k)
        report_json_put(root, dmlconf_change_kind_name((dmlconf_change_kind)k), json_changes(&c->changes[k]), &ok);
    if (!ok)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        goto done;
    }
    if (json_dumpf(root, out, JSON_INDENT(2)) != 0 || fputc('\n', out) == EOF || ferror(out))
    {
        dmlconf_set_why(why, why_size, "write error");
        goto done;
    }
    rc = 0;
done:
    json_decref(root);
    return rc;
}
