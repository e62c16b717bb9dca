/*
 * summary.json: the run in one object for machines: run info, the verdict
 * and how complete the run is, counts per status, the per-feature-level
 * matrix, the error/tolerance and ULP histograms, the times, the case files
 * that did not load, the failure groups and the failing ids.
 */
#include "report_internal.h"

#include <stdlib.h>

#define SUMMARY_FORMAT         "dmlconf-summary"
#define SUMMARY_FORMAT_VERSION 2

static json_t *json_cell(const dmlconf_matrix_cell *cell)
{
    json_t *obj = json_object();
    bool ok = obj != NULL;

    if (!obj)
        return NULL;
    report_json_put(obj, "passed", report_json_u64(cell->passed), &ok);
    report_json_put(obj, "failed", report_json_u64(cell->failed), &ok);
    report_json_put(obj, "skipped", report_json_u64(cell->skipped), &ok);
    report_json_put(obj, "unsupported", report_json_u64(cell->unsupported), &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static json_t *json_matrix(const dmlconf_matrix *matrix)
{
    json_t *obj = json_object();
    json_t *columns = json_array();
    json_t *rows = json_array();
    bool ok = obj && columns && rows;

    if (!ok)
    {
        json_decref(obj);
        json_decref(columns);
        json_decref(rows);
        return NULL;
    }
    for (size_t c = 0; c < matrix->column_count; ++c)
    {
        const dmlconf_matrix_column *column = &matrix->columns[c];
        json_t *entry = json_cell(&matrix->totals[c]);
        if (!entry)
        {
            ok = false;
            continue;
        }
        report_json_put(entry, "label", json_string(column->label), &ok);
        report_json_put(entry, "level", report_json_level(column->level), &ok);
        report_json_put(entry, "up_to", report_json_level(column->up_to), &ok);
        report_json_put(entry, "above_target", json_boolean(column->above_target), &ok);
        report_json_put(entry, "conformant", json_boolean(dmlconf_matrix_column_conformant(matrix, c)), &ok);
        report_json_put(entry, "partly_covered", json_boolean(dmlconf_matrix_column_partly_covered(matrix, c)), &ok);
        if (json_array_append_new(columns, entry) != 0)
            ok = false;
    }
    for (size_t r = 0; r < matrix->row_count; ++r)
    {
        const dmlconf_matrix_row *row = &matrix->rows[r];
        const char *op = dmlconf_operator_name(row->op);
        const char *type = dmlconf_data_type_name(row->data_type);
        json_t *entry = json_object();
        json_t *cells = json_array();
        if (!entry || !cells)
        {
            json_decref(entry);
            json_decref(cells);
            ok = false;
            continue;
        }
        for (size_t c = 0; c < matrix->column_count; ++c)
        {
            if (json_array_append_new(cells, json_cell(&row->cells[c])) != 0)
                ok = false;
        }
        report_json_put(entry, "op", op ? json_string(op) : json_integer((json_int_t)row->op), &ok);
        report_json_put(entry, "dtype", type ? json_string(type) : json_integer((json_int_t)row->data_type), &ok);
        report_json_put(entry, "cells", cells, &ok);
        if (json_array_append_new(rows, entry) != 0)
            ok = false;
    }
    report_json_put(obj, "cell",
                    json_string("passed/failed/skipped of the cases whose min_feature_level is at "
                                "or below the column's up_to level; unsupported: the skipped ones the "
                                "backend does not support"),
                    &ok);
    report_json_put(obj, "columns", columns, &ok);
    report_json_put(obj, "rows", rows, &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

/* What the run did not cover: the cases skipped as unsupported at or below
 * the target, in all and grouped by what they need. */
static json_t *json_not_covered(const dmlconf_matrix *matrix)
{
    json_t *obj = json_object();
    json_t *groups = json_array();
    bool ok = obj && groups;

    if (!ok)
    {
        json_decref(obj);
        json_decref(groups);
        return NULL;
    }
    for (size_t i = 0; i < matrix->gap_count; ++i)
    {
        const dmlconf_matrix_gap *gap = &matrix->gaps[i];
        json_t *entry = json_object();
        if (!entry)
        {
            ok = false;
            continue;
        }
        report_json_put(entry, "needs", report_json_text(gap->needs, sizeof(gap->needs)), &ok);
        report_json_put(entry, "cases", report_json_u64(gap->cases), &ok);
        report_json_put(entry, "negative", report_json_u64(gap->negative), &ok);
        report_json_put(entry, "lowest_level", report_json_level(gap->lowest_level), &ok);
        if (json_array_append_new(groups, entry) != 0)
            ok = false;
    }
    report_json_put(obj, "cases", report_json_u64(matrix->unsupported), &ok);
    report_json_put(obj, "lowest_level",
                    matrix->unsupported ? report_json_level(matrix->lowest_unsupported_level) : json_null(), &ok);
    report_json_put(obj, "reason", json_string("the backend does not support what they need"), &ok);
    report_json_put(obj, "groups", groups, &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

/* What the verdict is of: its scope. */
static json_t *json_scope(const dmlconf_run_verdict *verdict)
{
    json_t *obj = json_object();
    bool ok = obj != NULL;
    const char *kind = dmlconf_scope_kind_name(verdict->scope.kind);

    if (!obj)
        return NULL;
    report_json_put(obj, "kind", json_string(kind ? kind : "files"), &ok);
    report_json_put(obj, "self_check", json_boolean(verdict->scope.self_check), &ok);
    report_json_put(obj, "detail", report_json_text(verdict->scope.detail, sizeof(verdict->scope.detail)), &ok);
    report_json_put(obj, "claims_conformance",
                    json_boolean(verdict->scope.kind == DMLCONF_SCOPE_CORPUS && !verdict->scope.self_check), &ok);
    report_json_put(obj, "text", json_string(verdict->scope_text), &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

/* The baseline's answer ("no regressions"), beside the verdict. */
static json_t *json_baseline(const dmlconf_matrix *matrix, const dmlconf_run_verdict *verdict)
{
    json_t *obj = json_object();
    bool ok = obj != NULL;

    if (!obj)
        return NULL;
    report_json_put(obj, "answer", json_string(dmlconf_baseline_answer_name(verdict->baseline)), &ok);
    report_json_put(obj, "no_regressions", json_boolean(verdict->baseline == DMLCONF_BASELINE_NO_REGRESSIONS), &ok);
    report_json_put(obj, "text", json_string(verdict->baseline_text), &ok);
    report_json_put(obj, "regressions", report_json_u64(matrix->regressions), &ok);
    report_json_put(obj, "unexpected_passes", report_json_u64(matrix->unexpected_passes), &ok);
    report_json_put(obj, "known_failures_accepted",
                    report_json_u64(matrix->status_counts[DMLCONF_STATUS_EXPECTED_FAIL]), &ok);
    report_json_put(obj, "stale_lines", report_json_u64(matrix->scope.stale_baseline_lines), &ok);
    report_json_put(obj, "strict", json_boolean(matrix->scope.strict_baseline), &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static json_t *json_verdict(const dmlconf_matrix *matrix)
{
    dmlconf_run_verdict verdict;
    json_t *obj = json_object();
    bool ok = obj != NULL;

    if (!obj)
        return NULL;
    dmlconf_matrix_verdict(matrix, &verdict);
    report_json_put(obj, "status", json_string(dmlconf_run_status_name(verdict.status)), &ok);
    report_json_put(obj, "conformant", json_boolean(verdict.conformant), &ok);
    report_json_put(obj, "level", report_json_level(verdict.level), &ok);
    report_json_put(obj, "target_level", report_json_level(verdict.target_level), &ok);
    report_json_put(obj, "at_target", json_boolean(verdict.at_target), &ok);
    report_json_put(obj, "supported_level", report_json_level(verdict.supported_level), &ok);
    report_json_put(obj, "text", json_string(verdict.text), &ok);
    report_json_put(obj, "detail", json_string(verdict.detail), &ok);
    report_json_put(obj, "scope", json_scope(&verdict), &ok);
    report_json_put(obj, "baseline", json_baseline(matrix, &verdict), &ok);
    report_json_put(obj, "exit_status", json_integer(verdict.exit_status), &ok);
    report_json_put(obj, "passes", json_boolean(dmlconf_verdict_passes(&verdict)), &ok);
    report_json_put(obj, "required", report_json_u64(matrix->required), &ok);
    report_json_put(obj, "breaking", report_json_u64(matrix->breaking), &ok);
    report_json_put(obj, "lowest_broken_level",
                    matrix->has_broken ? report_json_level(matrix->lowest_broken_level) : json_null(), &ok);
    report_json_put(obj, "known_failures", report_json_u64(matrix->known_failures), &ok);
    report_json_put(obj, "flakes", report_json_u64(matrix->flakes), &ok);
    report_json_put(obj, "baseline_skips", report_json_u64(matrix->baseline_skips), &ok);
    report_json_put(obj, "no_resources", report_json_u64(matrix->no_resources), &ok);
    report_json_put(obj, "not_covered", json_not_covered(matrix), &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static json_t *json_counts(const dmlconf_matrix *matrix)
{
    json_t *obj = json_object();
    bool ok = obj != NULL;

    if (!obj)
        return NULL;
    report_json_put(obj, "cases", report_json_u64(matrix->case_count), &ok);
    for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
        report_json_put(obj, report_status_text((dmlconf_status)s), report_json_u64(matrix->status_counts[s]), &ok);
    report_json_put(obj, "unknown", report_json_u64(matrix->unknown_status_count), &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static json_t *json_histogram(const dmlconf_matrix *matrix)
{
    json_t *obj = json_object();
    json_t *counts = json_array();
    bool ok = obj && counts;

    if (!ok)
    {
        json_decref(obj);
        json_decref(counts);
        return NULL;
    }
    for (size_t i = 0; i < DMLCONF_HISTOGRAM_BINS; ++i)
    {
        if (json_array_append_new(counts, report_json_u64(matrix->histogram[i])) != 0)
            ok = false;
    }
    report_json_put(obj, "bins", json_string("bin i < 10: |error|/tolerance in [i/10, (i+1)/10); bin 10: above 1"),
                    &ok);
    report_json_put(obj, "counts", counts, &ok);
    report_json_put(obj, "elements", report_json_u64(matrix->elements), &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static json_t *json_completion(const dmlconf_report_input *in)
{
    json_t *obj = report_json_run_end(in->end);
    bool ok = obj != NULL;

    if (!obj)
        return NULL;
    report_json_put(obj, "planned_cases", report_json_u64(in->info->planned_cases), &ok);
    report_json_put(obj, "recorded_cases", report_json_u64(in->count), &ok);
    report_json_put(obj, "load_errors", report_json_u64(in->load_error_count), &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static json_t *json_times(const dmlconf_report_input *in)
{
    const dmlconf_matrix *matrix = in->matrix;
    json_t *obj = json_object();
    bool ok = obj != NULL;

    if (!obj)
        return NULL;
    report_json_put(obj, "note",
                    json_string("sums of each case's own times; the workers run in parallel, so the sums may exceed "
                                "the run's elapsed time"),
                    &ok);
    report_json_put(obj, "case_wall_seconds", report_json_double(matrix->wall_seconds), &ok);
    report_json_put(obj, "case_device_seconds", report_json_double(matrix->device_seconds), &ok);
    report_json_put(obj, "cases_with_device_time", report_json_u64(matrix->device_timed), &ok);
    report_json_put(obj, "elapsed_seconds",
                    in->end->elapsed_seconds >= 0.0 ? json_real(in->end->elapsed_seconds) : json_null(), &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static json_t *json_ulp_histogram(const dmlconf_matrix *matrix)
{
    json_t *obj = json_object();
    bool ok = obj != NULL;

    if (!obj)
        return NULL;
    report_json_put(obj, "bins",
                    json_string("bin 0: exact; bin k: [2^(k-1), 2^k) ulps (bin 1 also below 1 ulp); the last bin: "
                                "2^22 ulps or more, or infinite"),
                    &ok);
    report_json_put(obj, "counts", report_json_counts(matrix->ulp_histogram, DMLCONF_ULP_BINS), &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

/* The names of the data types a group shows in. */
static json_t *json_group_types(const report_failure_group *group)
{
    json_t *array = json_array();

    for (unsigned t = 0; array && t < 32; ++t)
    {
        const char *name = dmlconf_data_type_name((dmlconf_data_type)t);
        if ((group->types & (UINT32_C(1) << t)) &&
            json_array_append_new(array, name ? json_string(name) : json_integer((json_int_t)t)) != 0)
        {
            json_decref(array);
            return NULL;
        }
    }
    return array;
}

/* Two of a group's flags as the array of the words that hold. */
static json_t *json_pair(bool first, const char *first_word, bool second, const char *second_word)
{
    json_t *array = json_array();

    if (array && ((first && json_array_append_new(array, json_string(first_word)) != 0) ||
                  (second && json_array_append_new(array, json_string(second_word)) != 0)))
    {
        json_decref(array);
        return NULL;
    }
    return array;
}

/* One failure group: its cause (token and words), what it shows in, its
 * size, its shortest reproducer and its ids (the smallest first). */
static json_t *json_group(const dmlconf_report_input *in, const report_failure_group *group)
{
    const dmlconf_case_result *shortest = &in->results[group->members[0]];
    json_t *obj = json_object();
    json_t *ids = json_array();
    json_t *repro = json_object();
    json_t *ranks = json_array();
    char *command = report_repro_command(in->info, shortest);
    bool ok = obj && ids && repro && ranks && command;

    if (!ok)
    {
        json_decref(obj);
        json_decref(ids);
        json_decref(repro);
        json_decref(ranks);
        free(command);
        return NULL;
    }
    for (size_t i = 0; i < group->count; ++i)
    {
        const dmlconf_case_result *result = &in->results[group->members[i]];
        if (json_array_append_new(ids, report_json_text(result->id, sizeof(result->id))) != 0)
            ok = false;
    }
    if (json_array_append_new(ranks, json_integer(group->lowest_rank)) != 0 ||
        json_array_append_new(ranks, json_integer(group->highest_rank)) != 0)
        ok = false;
    report_json_put(repro, "id", report_json_text(shortest->id, sizeof(shortest->id)), &ok);
    report_json_put(repro, "elements", report_json_u64(shortest->comparison.elements), &ok);
    report_json_put(repro, "dimension_count", json_integer(shortest->dimension_count), &ok);
    report_json_put(repro, "reproduce", report_json_text(command, SIZE_MAX), &ok);
    report_json_put(repro, "repro_path", report_json_text(shortest->repro_path, sizeof(shortest->repro_path)), &ok);
    free(command);
    report_json_put(obj, "cause", json_string(report_failure_group_token(group)), &ok);
    report_json_put(obj, "title", report_json_text(group->title, sizeof(group->title)), &ok);
    report_json_put(obj, "pattern",
                    json_string(dmlconf_pattern_name(group->pattern) ? dmlconf_pattern_name(group->pattern) : ""), &ok);
    report_json_put(obj, "pattern_position", report_json_u64(group->position), &ok);
    report_json_put(obj, "shows_in", report_json_text(group->affects, sizeof(group->affects)), &ok);
    report_json_put(obj, "operators",
                    json_pair(group->sums, "cumulative_summation", group->products, "cumulative_product"), &ok);
    report_json_put(obj, "dtypes", json_group_types(group), &ok);
    report_json_put(obj, "modes", json_pair(group->inclusive, "inclusive", group->exclusive, "exclusive"), &ok);
    report_json_put(obj, "directions", json_pair(group->increasing, "increasing", group->decreasing, "decreasing"),
                    &ok);
    report_json_put(obj, "ranks", ranks, &ok);
    report_json_put(obj, "cases", report_json_u64(group->count), &ok);
    report_json_put(obj, "mismatches", report_json_u64(group->mismatches), &ok);
    report_json_put(obj, "max_error_ulps", report_json_double(group->max_error_ulps), &ok);
    report_json_put(obj, "max_tolerance_fraction", report_json_double(group->max_tolerance_fraction), &ok);
    report_json_put(obj, "shortest_reproducer", repro, &ok);
    report_json_put(obj, "ids", ids, &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static json_t *json_groups(const dmlconf_report_input *in, const report_failure_groups *groups)
{
    json_t *array = json_array();

    for (size_t i = 0; array && i < groups->count; ++i)
    {
        json_t *group = json_group(in, &groups->items[i]);
        if (!group || json_array_append_new(array, group) != 0)
        {
            json_decref(array);
            return NULL;
        }
    }
    return array;
}

int dmlconf_write_summary_json(FILE *out, const dmlconf_report_input *in, char *why, size_t why_size)
{
    const dmlconf_matrix *matrix = in->matrix;
    json_t *root = json_object();
    json_t *failing = json_array();
    bool ok = root && failing;
    size_t n = 0;
    size_t *order = report_select_sorted(in->results, in->count, report_result_is_failing, &n);
    report_failure_groups groups;
    int rc = -1;

    if (report_failure_groups_build(in->results, in->count, &groups) != 0 || !ok || n == SIZE_MAX)
    {
        json_decref(failing);
        dmlconf_set_why(why, why_size, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < n; ++i)
    {
        const dmlconf_case_result *result = &in->results[order[i]];
        if (json_array_append_new(failing, report_json_text(result->id, sizeof(result->id))) != 0)
            ok = false;
    }
    report_json_put(root, "format", json_string(SUMMARY_FORMAT), &ok);
    report_json_put(root, "format_version", json_integer(SUMMARY_FORMAT_VERSION), &ok);
    report_json_put(root, "run", report_json_run_info(in->info), &ok);
    report_json_put(root, "verdict", json_verdict(matrix), &ok);
    report_json_put(root, "completion", json_completion(in), &ok);
    report_json_put(root, "counts", json_counts(matrix), &ok);
    report_json_put(root, "times", json_times(in), &ok);
    report_json_put(root, "matrix", json_matrix(matrix), &ok);
    report_json_put(root, "histogram", json_histogram(matrix), &ok);
    report_json_put(root, "ulp_histogram", json_ulp_histogram(matrix), &ok);
    report_json_put(root, "load_errors", report_json_load_errors(in->load_errors, in->load_error_count), &ok);
    report_json_put(root, "failure_groups", json_groups(in, &groups), &ok);
    report_json_put(root, "failing_ids", failing, &ok);
    json_t *stale = json_array();
    for (size_t i = 0; stale && i < in->stale_baseline_count; ++i)
        ok = ok && json_array_append_new(stale, json_string(in->stale_baseline[i])) == 0;
    report_json_put(root, "stale_baseline", stale, &ok);
    if (!ok)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        goto fail;
    }
    if (json_dumpf(root, out, JSON_INDENT(2)) != 0 || fputc('\n', out) == EOF || ferror(out))
    {
        dmlconf_set_why(why, why_size, "write error");
        goto fail;
    }
    rc = 0;
fail:
    report_failure_groups_free(&groups);
    free(order);
    json_decref(root);
    return rc;
}
