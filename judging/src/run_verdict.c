/*
 * The per-feature-level matrix and the verdict. The rule they implement is
 * written at the top of dmlconf/verdict.h.
 */
#include <dmlconf/reserve.h>
#include <dmlconf/text.h>
#include <dmlconf/verdict.h>

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

/* The feature levels at which DML_OPERATOR_CUMULATIVE_SUMMATION or
 * DML_OPERATOR_CUMULATIVE_PRODUCT changed; each opens a column. Known levels
 * after the last one join its column ("5_1+"). A future level that changes
 * these operators is one more entry here. */
static const dmlconf_feature_level column_levels[] = {
    DMLCONF_FEATURE_LEVEL_2_1, DMLCONF_FEATURE_LEVEL_3_1, DMLCONF_FEATURE_LEVEL_4_0,
    DMLCONF_FEATURE_LEVEL_5_0, DMLCONF_FEATURE_LEVEL_5_1,
};

static bool is_column_level(dmlconf_feature_level level)
{
    for (size_t i = 0; i < sizeof(column_levels) / sizeof(column_levels[0]); ++i)
    {
        if (column_levels[i] == level)
            return true;
    }
    return false;
}

dmlconf_status_class dmlconf_status_classify(dmlconf_status status)
{
    switch (status)
    {
    case DMLCONF_STATUS_PASS:
    case DMLCONF_STATUS_FLAKE:
    case DMLCONF_STATUS_UNEXPECTED_PASS:
        return DMLCONF_CLASS_PASSED;
    case DMLCONF_STATUS_SKIP:
    case DMLCONF_STATUS_NO_RESOURCES:
        return DMLCONF_CLASS_SKIPPED;
    case DMLCONF_STATUS_FAIL:
    case DMLCONF_STATUS_ERROR:
    case DMLCONF_STATUS_CRASH:
    case DMLCONF_STATUS_TIMEOUT:
    case DMLCONF_STATUS_EXPECTED_FAIL:
    case DMLCONF_STATUS_COUNT:
        break;
    }
    return DMLCONF_CLASS_FAILED;
}

bool dmlconf_matrix_cell_empty(const dmlconf_matrix_cell *cell)
{
    return cell->passed == 0 && cell->failed == 0 && cell->skipped == 0;
}

void dmlconf_matrix_init(dmlconf_matrix *matrix, dmlconf_feature_level target)
{
    size_t known_count = 0;
    const dmlconf_feature_level *known = dmlconf_feature_levels(&known_count);

    memset(matrix, 0, sizeof(*matrix));
    if (target == DMLCONF_FEATURE_LEVEL_NONE && known_count > 0)
        target = known[known_count - 1];
    matrix->target_level = target;
    matrix->lowest_broken_level = DMLCONF_FEATURE_LEVEL_NONE;
    matrix->end.kind = DMLCONF_END_FINISHED;
    matrix->end.elapsed_seconds = -1.0;
    matrix->scope.kind = DMLCONF_SCOPE_FILES;

    for (size_t i = 0; i < known_count; ++i)
    {
        dmlconf_matrix_column *column;
        const char *name = dmlconf_feature_level_name(known[i]);

        if (is_column_level(known[i]) && matrix->column_count < DMLCONF_MATRIX_MAX_COLUMNS)
        {
            column = &matrix->columns[matrix->column_count++];
            column->level = known[i];
            column->up_to = known[i];
            column->above_target = known[i] > target;
            snprintf(column->label, sizeof(column->label), "%s", name ? name : "?");
        }
        else if (matrix->column_count > 0 &&
                 known[i] > column_levels[sizeof(column_levels) / sizeof(column_levels[0]) - 1])
        {
            /* A level after the last change: the last column stands for it. */
            column = &matrix->columns[matrix->column_count - 1];
            column->up_to = known[i];
            name = dmlconf_feature_level_name(column->level);
            snprintf(column->label, sizeof(column->label), "%s+", name ? name : "?");
        }
    }
}

/* The row of (op, type), inserted in order when new; NULL when memory runs
 * out. */
static dmlconf_matrix_row *find_row(dmlconf_matrix *matrix, dmlconf_operator op, dmlconf_data_type type)
{
    size_t at = 0;

    while (at < matrix->row_count)
    {
        const dmlconf_matrix_row *row = &matrix->rows[at];
        if (row->op == op && row->data_type == type)
            return &matrix->rows[at];
        if ((unsigned)row->op > (unsigned)op || (row->op == op && (unsigned)row->data_type > (unsigned)type))
            break;
        ++at;
    }
    if (!dmlconf_reserve((void **)&matrix->rows, &matrix->row_capacity, matrix->row_count + 1, sizeof(*matrix->rows)))
        return NULL;
    memmove(&matrix->rows[at + 1], &matrix->rows[at], (matrix->row_count - at) * sizeof(matrix->rows[0]));
    memset(&matrix->rows[at], 0, sizeof(matrix->rows[at]));
    matrix->rows[at].op = op;
    matrix->rows[at].data_type = type;
    ++matrix->row_count;
    return &matrix->rows[at];
}

/* The gap group of `needs` ("" names none: an older results file), inserted
 * in order when new; NULL when memory runs out. */
static dmlconf_matrix_gap *find_gap(dmlconf_matrix *matrix, const char *needs, size_t needs_size)
{
    char key[sizeof(matrix->gaps[0].needs)];
    size_t at = 0;
    int order = 1;

    snprintf(key, sizeof(key), "%.*s", (int)dmlconf_bounded_length(needs, needs_size), needs);
    if (!key[0])
        snprintf(key, sizeof(key), "a capability the results do not name");
    while (at < matrix->gap_count && (order = strcmp(matrix->gaps[at].needs, key)) < 0)
        ++at;
    if (at < matrix->gap_count && order == 0)
        return &matrix->gaps[at];
    if (!dmlconf_reserve((void **)&matrix->gaps, &matrix->gap_capacity, matrix->gap_count + 1, sizeof(*matrix->gaps)))
        return NULL;
    memmove(&matrix->gaps[at + 1], &matrix->gaps[at], (matrix->gap_count - at) * sizeof(matrix->gaps[0]));
    memset(&matrix->gaps[at], 0, sizeof(matrix->gaps[at]));
    memcpy(matrix->gaps[at].needs, key, sizeof(key));
    ++matrix->gap_count;
    return &matrix->gaps[at];
}

static void count_in_cell(dmlconf_matrix_cell *cell, dmlconf_status status, bool unsupported)
{
    cell->unsupported += unsupported;
    switch (dmlconf_status_classify(status))
    {
    case DMLCONF_CLASS_PASSED:
        ++cell->passed;
        break;
    case DMLCONF_CLASS_SKIPPED:
        ++cell->skipped;
        break;
    case DMLCONF_CLASS_FAILED:
        ++cell->failed;
        break;
    }
    if ((unsigned)status < DMLCONF_STATUS_COUNT)
        ++cell->statuses[status];
}

int dmlconf_matrix_add(dmlconf_matrix *matrix, const dmlconf_case_result *result)
{
    dmlconf_status status = result->status;
    dmlconf_feature_level level = result->min_feature_level;
    /* Skipped because the backend does not support what the case needs: not
     * covered. */
    bool unsupported = status == DMLCONF_STATUS_SKIP && result->unsupported;
    /* A negative case skipped by the run for another reason checks a
     * rejection that does not apply at its target level (the desc is valid
     * there): it is counted among the statuses but says nothing about
     * conformance. */
    bool not_applicable = result->negative && status == DMLCONF_STATUS_SKIP && !unsupported;
    bool required = level <= matrix->target_level;
    dmlconf_matrix_gap *gap = NULL;
    dmlconf_matrix_row *row = NULL;

    if (!not_applicable)
    {
        if (unsupported && required && !(gap = find_gap(matrix, result->needs, sizeof(result->needs))))
            return -1;
        if (!(row = find_row(matrix, result->op, result->data_type)))
            return -1;
    }
    ++matrix->case_count;
    if ((unsigned)status < DMLCONF_STATUS_COUNT)
        ++matrix->status_counts[status];
    else
        ++matrix->unknown_status_count;
    /* The baseline's question: a failure it does not accept, or a known
     * failure that passed. */
    matrix->regressions += dmlconf_status_is_failure(status) && status != DMLCONF_STATUS_UNEXPECTED_PASS;
    matrix->unexpected_passes += status == DMLCONF_STATUS_UNEXPECTED_PASS;
    if (not_applicable)
        return 0;
    for (size_t i = 0; i < DMLCONF_HISTOGRAM_BINS; ++i)
        matrix->histogram[i] += result->comparison.histogram[i];
    for (size_t i = 0; i < DMLCONF_ULP_BINS; ++i)
        matrix->ulp_histogram[i] += result->comparison.ulp_histogram[i];
    matrix->elements += result->comparison.elements;
    if (result->wall_seconds > 0.0)
        matrix->wall_seconds += result->wall_seconds;
    if (result->backend_seconds >= 0.0)
    {
        matrix->device_seconds += result->backend_seconds;
        ++matrix->device_timed;
    }

    for (size_t c = 0; c < matrix->column_count; ++c)
    {
        if (level <= matrix->columns[c].up_to)
        {
            count_in_cell(&row->cells[c], status, unsupported);
            count_in_cell(&matrix->totals[c], status, unsupported);
        }
    }

    if (required)
    {
        ++matrix->required;
        if (status == DMLCONF_STATUS_EXPECTED_FAIL)
            ++matrix->known_failures;
        else if (status == DMLCONF_STATUS_FLAKE)
            ++matrix->flakes;
        else if (status == DMLCONF_STATUS_SKIP && !unsupported)
            ++matrix->baseline_skips;
        if (status == DMLCONF_STATUS_NO_RESOURCES)
            ++matrix->no_resources;
        else if (unsupported)
        {
            if (!gap->cases || level < gap->lowest_level)
                gap->lowest_level = level;
            ++gap->cases;
            gap->negative += result->negative;
            if (!matrix->unsupported || level < matrix->lowest_unsupported_level)
                matrix->lowest_unsupported_level = level;
            ++matrix->unsupported;
        }
        else if (dmlconf_status_classify(status) != DMLCONF_CLASS_PASSED)
        {
            ++matrix->breaking;
            if (!matrix->has_broken || level < matrix->lowest_broken_level)
                matrix->lowest_broken_level = level;
            matrix->has_broken = true;
        }
    }
    return 0;
}

/* Whether no breaking case reaches `level`. */
static bool unbroken_at(const dmlconf_matrix *matrix, dmlconf_feature_level level)
{
    return !matrix->has_broken || level < matrix->lowest_broken_level;
}

/* Whether the column holds a case that was judged (not skipped as
 * unsupported). */
static bool column_judged(const dmlconf_matrix *matrix, size_t column)
{
    const dmlconf_matrix_cell *cell = &matrix->totals[column];
    return cell->passed + cell->failed + cell->skipped > cell->unsupported;
}

/* Whether every case of the column that the backend supports passed (and
 * there is one). */
static bool column_passed_as_supported(const dmlconf_matrix *matrix, size_t column)
{
    if (column >= matrix->column_count || matrix->columns[column].above_target)
        return false;
    return column_judged(matrix, column) && unbroken_at(matrix, matrix->columns[column].up_to);
}

bool dmlconf_matrix_column_conformant(const dmlconf_matrix *matrix, size_t column)
{
    return column_passed_as_supported(matrix, column) && matrix->totals[column].unsupported == 0;
}

bool dmlconf_matrix_column_partly_covered(const dmlconf_matrix *matrix, size_t column)
{
    return column_passed_as_supported(matrix, column) && matrix->totals[column].unsupported > 0;
}

const char *dmlconf_matrix_column_word(const dmlconf_matrix *matrix, size_t column)
{
    if (column < matrix->column_count && matrix->columns[column].above_target)
        return "above";
    if (dmlconf_matrix_column_conformant(matrix, column))
        return "yes";
    return dmlconf_matrix_column_partly_covered(matrix, column) ? "partly" : "no";
}

size_t dmlconf_matrix_format_gaps(const dmlconf_matrix *matrix, char *buf, size_t size)
{
    dmlconf_text text = {buf, size, 0};

    if (size > 0)
        buf[0] = '\0';
    if (matrix->unsupported == 0)
        return 0;
    dmlconf_text_appendf(&text, "%llu case%s (", (unsigned long long)matrix->unsupported,
                         matrix->unsupported == 1 ? "" : "s");
    for (size_t i = 0; i < matrix->gap_count; ++i)
        dmlconf_text_appendf(&text, "%s%s: %llu", i ? ", " : "", matrix->gaps[i].needs,
                             (unsigned long long)matrix->gaps[i].cases);
    dmlconf_text_appendf(&text, ")");
    return text.length;
}

static const char *level_text(dmlconf_feature_level level)
{
    const char *name = dmlconf_feature_level_name(level);
    return name ? name : "none";
}

void dmlconf_matrix_set_completeness(dmlconf_matrix *matrix, uint64_t planned, uint64_t load_errors,
                                     const dmlconf_run_end *end)
{
    matrix->planned_known = true;
    matrix->planned = planned;
    matrix->load_errors = load_errors;
    matrix->end = *end;
}

/* Ends a sentence that did not fit its buffer with "...", so that nobody
 * takes it for the whole. */
static void mark_cut(char *text, size_t size)
{
    size_t at = size - 4;

    /* Not in the middle of a UTF-8 sequence. */
    while (at > 0 && ((unsigned char)text[at] & 0xc0) == 0x80)
        --at;
    memcpy(text + at, "...", 4);
}

/* The highest level at which every case that the backend supports passed,
 * among the target and the column levels below it; NONE when there is
 * none. */
static dmlconf_feature_level best_supported_level(const dmlconf_matrix *matrix)
{
    const dmlconf_feature_level target = matrix->target_level;

    if (matrix->required > matrix->unsupported && unbroken_at(matrix, target))
        return target;
    for (size_t c = matrix->column_count; c-- > 0;)
    {
        const dmlconf_matrix_column *column = &matrix->columns[c];
        if (column->level >= target || !column_judged(matrix, c))
            continue;
        if (unbroken_at(matrix, column->level))
            return column->level;
    }
    return DMLCONF_FEATURE_LEVEL_NONE;
}

/* What the run did not cover, as a clause that starts with "; " ("" when it
 * covered everything). `level` is the level the verdict claims (NONE: none):
 * when no uncovered case reaches it, the clause says so. */
static void not_covered_clause(const dmlconf_matrix *matrix, dmlconf_feature_level level, char *buf, size_t size)
{
    char gaps[512];
    size_t length;

    buf[0] = '\0';
    if (matrix->unsupported == 0)
        return;
    length = dmlconf_matrix_format_gaps(matrix, gaps, sizeof(gaps));
    if (length >= sizeof(gaps))
        mark_cut(gaps, sizeof(gaps));
    if (level != DMLCONF_FEATURE_LEVEL_NONE && matrix->lowest_unsupported_level > level)
        snprintf(buf, size, "; not covered above level %s, as the backend does not support them: %s", level_text(level),
                 gaps);
    else
        snprintf(buf, size, "; not covered, as the backend does not support them: %s", gaps);
}

/* Whether the scope can claim conformance: the whole corpus, on an
 * implementation under test. */
static bool claims_conformance(const dmlconf_verdict_scope *scope)
{
    return scope->kind == DMLCONF_SCOPE_CORPUS && !scope->self_check;
}

/* The scope as a phrase for people. */
static void scope_phrase(const dmlconf_verdict_scope *scope, char *buf, size_t size)
{
    dmlconf_text text = {buf, size, 0};
    const char *detail = scope->detail;
    if (scope->self_check)
        dmlconf_text_appendf(&text, "the self-check (the oracle judged against itself, not an implementation under "
                                    "test): ");
    switch (scope->kind)
    {
    case DMLCONF_SCOPE_CORPUS:
        dmlconf_text_appendf(&text, "the whole reference corpus");
        break;
    case DMLCONF_SCOPE_SUBSET:
        dmlconf_text_appendf(&text, "a subset of the reference corpus%s%s%s", detail[0] ? " (" : "", detail,
                             detail[0] ? ")" : "");
        break;
    case DMLCONF_SCOPE_EXPLORE:
        dmlconf_text_appendf(&text, "random cases drawn by explore%s%s%s", detail[0] ? " (" : "", detail,
                             detail[0] ? ")" : "");
        break;
    case DMLCONF_SCOPE_FILES:
    case DMLCONF_SCOPE_KIND_COUNT:
        dmlconf_text_appendf(&text, "case files that are not the reference corpus%s%s%s", detail[0] ? " (" : "",
                             detail, detail[0] ? ")" : "");
        break;
    }
    if (!claims_conformance(scope))
        dmlconf_text_appendf(&text, "; no conformance claim");
    if (text.length >= size)
        mark_cut(buf, size);
}

/* The accepted and flaky cases, as clauses that start with "; ". */
static void accepted_clauses(const dmlconf_matrix *matrix, char *buf, size_t size)
{
    dmlconf_text text = {buf, size, 0};
    buf[0] = '\0';
    if (matrix->known_failures > 0)
        dmlconf_text_appendf(&text, "; %llu of them known failure%s of the baseline",
                             (unsigned long long)matrix->known_failures, matrix->known_failures == 1 ? "" : "s");
    if (matrix->baseline_skips > 0)
        dmlconf_text_appendf(&text, "; %llu skipped by the baseline (not tested)",
                             (unsigned long long)matrix->baseline_skips);
    if (matrix->flakes > 0)
        dmlconf_text_appendf(&text, "; %llu flaky case%s (failed, then passed when rerun) counted as passed",
                             (unsigned long long)matrix->flakes, matrix->flakes == 1 ? "" : "s");
    if (text.length >= size)
        mark_cut(buf, size);
}

/* The verdict of the results as they are, as if they were the whole run. */
static void judge_results(const dmlconf_matrix *matrix, dmlconf_run_verdict *out)
{
    const dmlconf_feature_level target = matrix->target_level;
    const dmlconf_feature_level best = best_supported_level(matrix);
    const uint64_t judged = matrix->required - matrix->unsupported;
    const char *supported = matrix->unsupported ? " it supports" : "";
    const bool conformance = claims_conformance(&matrix->scope);
    const char *self = matrix->scope.self_check ? "self-check " : "";
    /* Some case that the claimed level requires was not covered. */
    const bool partly =
        best != DMLCONF_FEATURE_LEVEL_NONE && matrix->unsupported > 0 && matrix->lowest_unsupported_level <= best;
    char extra[384];
    char gaps[640];
    int length;

    accepted_clauses(matrix, extra, sizeof(extra));
    not_covered_clause(matrix, conformance ? best : DMLCONF_FEATURE_LEVEL_NONE, gaps, sizeof(gaps));
    out->not_covered = matrix->unsupported;
    out->breaking = matrix->breaking;
    if (matrix->required == 0 || judged == 0)
    {
        out->status = DMLCONF_RUN_INCOMPLETE;
        snprintf(out->text, sizeof(out->text), "incomplete");
        if (matrix->required == 0)
            length = snprintf(out->detail, sizeof(out->detail),
                              "nothing was judged: none of the %llu cases applies at or below the target level %s",
                              (unsigned long long)matrix->case_count, level_text(target));
        else
            length = snprintf(out->detail, sizeof(out->detail),
                              "nothing was judged: the backend supports none of the %llu cases at or below the "
                              "target level %s%s",
                              (unsigned long long)matrix->required, level_text(target), gaps);
        if (length >= (int)sizeof(out->detail))
            mark_cut(out->detail, sizeof(out->detail));
        return;
    }

    if (conformance)
    {
        out->supported_level = best;
        out->conformant = best != DMLCONF_FEATURE_LEVEL_NONE && !partly;
        out->status = out->conformant ? DMLCONF_RUN_CONFORMANT
                      : partly        ? DMLCONF_RUN_PARTLY_COVERED
                                      : DMLCONF_RUN_NOT_CONFORMANT;
        out->level = out->conformant ? best : DMLCONF_FEATURE_LEVEL_NONE;
        out->at_target = out->conformant && best == target;
        if (out->conformant)
            snprintf(out->text, sizeof(out->text), "conformant at level %s", level_text(best));
        else if (partly)
            snprintf(out->text, sizeof(out->text), "conformant at level %s for what it supports", level_text(best));
        else
            snprintf(out->text, sizeof(out->text), "not conformant");
    }
    else
    {
        /* Every required case, not a level: a subset proves no level. */
        out->status = matrix->has_broken    ? DMLCONF_RUN_FAILED
                      : matrix->unsupported ? DMLCONF_RUN_PARTLY_COVERED
                                            : DMLCONF_RUN_PASSED;
        snprintf(out->text, sizeof(out->text), "%s%s", self,
                 out->status == DMLCONF_RUN_FAILED   ? "failed"
                 : out->status == DMLCONF_RUN_PASSED ? "passed"
                                                     : "passed for what it supports");
    }

    if (!matrix->has_broken)
        length = snprintf(out->detail, sizeof(out->detail), "all %llu cases%s at or below the target level %s passed%s%s",
                          (unsigned long long)judged, supported, level_text(target), extra, gaps);
    else
        length = snprintf(
            out->detail, sizeof(out->detail),
            "target level %s: %llu of the %llu cases%s at or below it failed, errored, crashed, timed "
            "out, passed unexpectedly or were skipped, the lowest at level %s%s%s",
            level_text(target), (unsigned long long)matrix->breaking, (unsigned long long)judged, supported,
            matrix->lowest_broken_level == DMLCONF_FEATURE_LEVEL_NONE ? "none (every level)"
                                                                      : level_text(matrix->lowest_broken_level),
            extra, gaps);
    if (length >= (int)sizeof(out->detail))
        mark_cut(out->detail, sizeof(out->detail));
}

/* What keeps the results from describing the whole run, as one phrase per
 * reason ("" when nothing does). */
static void missing_parts(const dmlconf_matrix *matrix, bool count_cases, char *buf, size_t size)
{
    dmlconf_text text = {buf, size, 0};
    const char *separator = "";

    buf[0] = '\0';
#define ADD_PART(...)                                                                                                  \
    do                                                                                                                 \
    {                                                                                                                  \
        dmlconf_text_appendf(&text, "%s", separator);                                                                  \
        dmlconf_text_appendf(&text, __VA_ARGS__);                                                                      \
        separator = "; ";                                                                                              \
    } while (0)
    if (matrix->load_errors > 0)
        ADD_PART("%llu error%s in the case files or case lists kept cases out (a case file did not load "
                 "completely, or a case list names cases not loaded)",
                 (unsigned long long)matrix->load_errors, matrix->load_errors == 1 ? "" : "s");
    if (matrix->end.kind == DMLCONF_END_NONE)
        ADD_PART("the results have no completion record (the run died, or is still running)");
    if (matrix->end.kind == DMLCONF_END_PARTIAL)
        ADD_PART("a partial merge of shards%s%s", matrix->end.reason[0] ? ": " : "", matrix->end.reason);
    if (count_cases && matrix->planned_known && matrix->case_count != matrix->planned)
        ADD_PART("%llu results for %llu cases planned", (unsigned long long)matrix->case_count,
                 (unsigned long long)matrix->planned);
    if (matrix->no_resources > 0)
        ADD_PART("%llu case%s at or below the target could not be judged for lack of resources (no-resources)",
                 (unsigned long long)matrix->no_resources, matrix->no_resources == 1 ? "" : "s");
#undef ADD_PART
    if (text.length >= size)
        mark_cut(buf, size);
}

/* The baseline's answer, in out->baseline and out->baseline_text. */
static void answer_baseline(const dmlconf_matrix *matrix, dmlconf_run_verdict *out)
{
    const dmlconf_verdict_scope *scope = &matrix->scope;
    dmlconf_text text = {out->baseline_text, sizeof(out->baseline_text), 0};
    uint64_t stale = scope->strict_baseline ? scope->stale_baseline_lines : 0;
    const char *separator = " (";

    out->baseline = DMLCONF_BASELINE_NONE;
    if (!scope->baseline)
        return;
    if (out->status == DMLCONF_RUN_INCOMPLETE || out->status == DMLCONF_RUN_INTERRUPTED)
    {
        out->baseline = DMLCONF_BASELINE_UNANSWERED;
        dmlconf_text_appendf(&text, "no answer against the baseline: the run is %s", out->text);
        return;
    }
    if (matrix->regressions || matrix->unexpected_passes || stale)
    {
        out->baseline = DMLCONF_BASELINE_REGRESSIONS;
        dmlconf_text_appendf(&text, "regressions against the baseline");
        if (matrix->regressions)
        {
            dmlconf_text_appendf(&text, "%s%llu failure%s it does not expect", separator,
                                 (unsigned long long)matrix->regressions, matrix->regressions == 1 ? "" : "s");
            separator = "; ";
        }
        if (matrix->unexpected_passes)
        {
            dmlconf_text_appendf(&text, "%s%llu known failure%s passed: the baseline is out of date", separator,
                                 (unsigned long long)matrix->unexpected_passes,
                                 matrix->unexpected_passes == 1 ? "" : "s");
            separator = "; ";
        }
        if (stale)
            dmlconf_text_appendf(&text, "%s%llu stale line%s under --strict-baseline", separator,
                                 (unsigned long long)stale, stale == 1 ? "" : "s");
        dmlconf_text_appendf(&text, ")");
    }
    else
    {
        out->baseline = DMLCONF_BASELINE_NO_REGRESSIONS;
        dmlconf_text_appendf(&text, "no regressions against the baseline (%llu known failure%s accepted, %llu "
                                    "skipped by it)",
                             (unsigned long long)matrix->status_counts[DMLCONF_STATUS_EXPECTED_FAIL],
                             matrix->status_counts[DMLCONF_STATUS_EXPECTED_FAIL] == 1 ? "" : "s",
                             (unsigned long long)matrix->baseline_skips);
    }
    if (text.length >= sizeof(out->baseline_text))
        mark_cut(out->baseline_text, sizeof(out->baseline_text));
}

int dmlconf_verdict_exit_status(const dmlconf_run_verdict *verdict)
{
    switch (verdict->status)
    {
    case DMLCONF_RUN_INCOMPLETE:
    case DMLCONF_RUN_INTERRUPTED:
    case DMLCONF_RUN_STATUS_COUNT:
        return DMLCONF_EXIT_INCOMPLETE;
    case DMLCONF_RUN_CONFORMANT:
    case DMLCONF_RUN_NOT_CONFORMANT:
    case DMLCONF_RUN_PARTLY_COVERED:
    case DMLCONF_RUN_PASSED:
    case DMLCONF_RUN_FAILED:
        break;
    }
    if (verdict->baseline == DMLCONF_BASELINE_NO_REGRESSIONS)
        return DMLCONF_EXIT_PASSED;
    if (verdict->baseline == DMLCONF_BASELINE_REGRESSIONS)
        return DMLCONF_EXIT_FAILED;
    switch (verdict->status)
    {
    case DMLCONF_RUN_CONFORMANT:
        return verdict->at_target ? DMLCONF_EXIT_PASSED : DMLCONF_EXIT_FAILED;
    case DMLCONF_RUN_PASSED:
        return DMLCONF_EXIT_PASSED;
    case DMLCONF_RUN_PARTLY_COVERED:
        /* Everything it supports passed up to the level it claims: a case
         * above that failed, or else the rest was not covered. */
        return verdict->breaking ? DMLCONF_EXIT_FAILED : DMLCONF_EXIT_INCOMPLETE;
    default:
        return DMLCONF_EXIT_FAILED;
    }
}

bool dmlconf_verdict_passes(const dmlconf_run_verdict *verdict)
{
    return dmlconf_verdict_exit_status(verdict) == DMLCONF_EXIT_PASSED;
}

void dmlconf_matrix_set_scope(dmlconf_matrix *matrix, const dmlconf_verdict_scope *scope)
{
    matrix->scope = *scope;
}

void dmlconf_matrix_verdict(const dmlconf_matrix *matrix, dmlconf_run_verdict *out)
{
    const bool interrupted = matrix->end.kind == DMLCONF_END_INTERRUPTED;
    dmlconf_run_verdict so_far;
    char missing[512];
    char planned[48] = "";

    memset(out, 0, sizeof(*out));
    out->target_level = matrix->target_level;
    out->scope = matrix->scope;
    scope_phrase(&matrix->scope, out->scope_text, sizeof(out->scope_text));
    judge_results(matrix, out);
    /* An interrupted run has fewer results than planned by nature. */
    missing_parts(matrix, !interrupted, missing, sizeof(missing));
    if (interrupted || missing[0])
    {
        /* No verdict: say why, and what the results say so far. */
        so_far = *out;
        out->conformant = false;
        out->at_target = false;
        out->level = DMLCONF_FEATURE_LEVEL_NONE;
        out->supported_level = DMLCONF_FEATURE_LEVEL_NONE;
        if (interrupted)
        {
            if (matrix->planned_known)
                snprintf(planned, sizeof(planned), " of %llu planned", (unsigned long long)matrix->planned);
            out->status = DMLCONF_RUN_INTERRUPTED;
            snprintf(out->text, sizeof(out->text), "interrupted");
            if (snprintf(out->detail, sizeof(out->detail),
                         "no verdict: the run was stopped%s%s after %llu cases%s%s%s; the results so far: %s (%s)",
                         matrix->end.reason[0] ? " by " : "", matrix->end.reason,
                         (unsigned long long)matrix->case_count, planned, missing[0] ? "; " : "", missing, so_far.text,
                         so_far.detail) >= (int)sizeof(out->detail))
                mark_cut(out->detail, sizeof(out->detail));
        }
        else
        {
            out->status = DMLCONF_RUN_INCOMPLETE;
            snprintf(out->text, sizeof(out->text), "incomplete");
            if (snprintf(out->detail, sizeof(out->detail), "no verdict: %s; the results so far: %s (%s)", missing,
                         so_far.text, so_far.detail) >= (int)sizeof(out->detail))
                mark_cut(out->detail, sizeof(out->detail));
        }
    }
    answer_baseline(matrix, out);
    out->exit_status = dmlconf_verdict_exit_status(out);
}

void dmlconf_matrix_free(dmlconf_matrix *matrix)
{
    if (!matrix)
        return;
    free(matrix->rows);
    free(matrix->gaps);
    memset(matrix, 0, sizeof(*matrix));
}

