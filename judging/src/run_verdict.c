/*
 * The per-feature-level matrix and the verdict. The rule they implement is
 * written at the top of dmlconf/verdict.h.
 */
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
    case DMLCONF_STATUS_EXPECTED_FAIL:
    case DMLCONF_STATUS_FLAKE:
        return DMLCONF_CLASS_PASSED;
    case DMLCONF_STATUS_SKIP:
        return DMLCONF_CLASS_SKIPPED;
    case DMLCONF_STATUS_FAIL:
    case DMLCONF_STATUS_ERROR:
    case DMLCONF_STATUS_CRASH:
    case DMLCONF_STATUS_TIMEOUT:
    case DMLCONF_STATUS_UNEXPECTED_PASS:
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
    if (matrix->row_count == matrix->row_capacity)
    {
        size_t capacity = matrix->row_capacity ? matrix->row_capacity * 2 : 16;
        dmlconf_matrix_row *rows = realloc(matrix->rows, capacity * sizeof(*rows));
        if (!rows)
            return NULL;
        matrix->rows = rows;
        matrix->row_capacity = capacity;
    }
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
    if (matrix->gap_count == matrix->gap_capacity)
    {
        size_t capacity = matrix->gap_capacity ? matrix->gap_capacity * 2 : 8;
        dmlconf_matrix_gap *gaps = realloc(matrix->gaps, capacity * sizeof(*gaps));
        if (!gaps)
            return NULL;
        matrix->gaps = gaps;
        matrix->gap_capacity = capacity;
    }
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
        if (unsupported)
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

/* The conformance verdict of the results as they are, as if they were the
 * whole run. */
static void judge_results(const dmlconf_matrix *matrix, dmlconf_run_verdict *out)
{
    const dmlconf_feature_level target = matrix->target_level;
    const dmlconf_feature_level best = best_supported_level(matrix);
    const uint64_t judged = matrix->required - matrix->unsupported;
    const char *supported = matrix->unsupported ? " it supports" : "";
    /* Some case that the claimed level requires was not covered. */
    const bool partly =
        best != DMLCONF_FEATURE_LEVEL_NONE && matrix->unsupported > 0 && matrix->lowest_unsupported_level <= best;
    char extra[128] = "";
    char gaps[640];
    size_t used = 0;
    int length;

    if (matrix->known_failures > 0)
    {
        used +=
            (size_t)snprintf(extra + used, sizeof(extra) - used, "; %llu known failure%s accepted from the baseline",
                             (unsigned long long)matrix->known_failures, matrix->known_failures == 1 ? "" : "s");
    }
    if (matrix->flakes > 0 && used < sizeof(extra))
    {
        snprintf(extra + used, sizeof(extra) - used, "; %llu flaky case%s counted as passed",
                 (unsigned long long)matrix->flakes, matrix->flakes == 1 ? "" : "s");
    }
    not_covered_clause(matrix, best, gaps, sizeof(gaps));

    out->status = DMLCONF_RUN_NOT_CONFORMANT;
    out->not_covered = matrix->unsupported;
    snprintf(out->text, sizeof(out->text), "not conformant");
    if (matrix->required == 0)
    {
        snprintf(out->detail, sizeof(out->detail),
                 "no verdict can be given: none of the %llu cases applies at or below the target level %s",
                 (unsigned long long)matrix->case_count, level_text(target));
        return;
    }
    if (judged == 0)
    {
        length = snprintf(out->detail, sizeof(out->detail),
                          "no verdict can be given: the backend supports none of the %llu cases at or below the "
                          "target level %s%s",
                          (unsigned long long)matrix->required, level_text(target), gaps);
        if (length >= (int)sizeof(out->detail))
            mark_cut(out->detail, sizeof(out->detail));
        return;
    }

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

    if (!matrix->has_broken)
        length =
            snprintf(out->detail, sizeof(out->detail), "all %llu cases%s at or below the target level %s passed%s%s",
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
    size_t used = 0;

    buf[0] = '\0';
#define ADD_PART(...)                                                                                                  \
    do                                                                                                                 \
    {                                                                                                                  \
        if (used < size)                                                                                               \
            used += (size_t)snprintf(buf + used, size - used, "%s", used ? "; " : "");                                 \
        if (used < size)                                                                                               \
            used += (size_t)snprintf(buf + used, size - used, __VA_ARGS__);                                            \
    } while (0)
    if (matrix->load_errors > 0)
        ADD_PART("%llu error%s in the case files kept cases out (the corpus did not load completely)",
                 (unsigned long long)matrix->load_errors, matrix->load_errors == 1 ? "" : "s");
    if (matrix->end.kind == DMLCONF_END_NONE)
        ADD_PART("the results have no completion record (the run died, or is still running)");
    if (matrix->end.kind == DMLCONF_END_PARTIAL)
        ADD_PART("a partial merge of shards%s%s", matrix->end.reason[0] ? ": " : "", matrix->end.reason);
    if (count_cases && matrix->planned_known && matrix->case_count != matrix->planned)
        ADD_PART("%llu results for %llu cases planned", (unsigned long long)matrix->case_count,
                 (unsigned long long)matrix->planned);
#undef ADD_PART
}

void dmlconf_matrix_verdict(const dmlconf_matrix *matrix, dmlconf_run_verdict *out)
{
    const bool interrupted = matrix->end.kind == DMLCONF_END_INTERRUPTED;
    dmlconf_run_verdict so_far;
    char missing[384];
    char planned[48] = "";

    memset(out, 0, sizeof(*out));
    out->target_level = matrix->target_level;
    judge_results(matrix, out);
    /* An interrupted run has fewer results than planned by nature. */
    missing_parts(matrix, !interrupted, missing, sizeof(missing));
    if (!interrupted && !missing[0])
        return;

    /* No conformance verdict: say why, and what the results say so far. */
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
                     "no conformance verdict: the run was stopped%s%s after %llu cases%s%s%s; the results so far: %s "
                     "(%s)",
                     matrix->end.reason[0] ? " by " : "", matrix->end.reason, (unsigned long long)matrix->case_count,
                     planned, missing[0] ? "; " : "", missing, so_far.text, so_far.detail) >= (int)sizeof(out->detail))
            mark_cut(out->detail, sizeof(out->detail));
        return;
    }
    out->status = DMLCONF_RUN_INCOMPLETE;
    snprintf(out->text, sizeof(out->text), "incomplete");
    if (snprintf(out->detail, sizeof(out->detail), "no conformance verdict: %s; the results so far: %s (%s)", missing,
                 so_far.text, so_far.detail) >= (int)sizeof(out->detail))
        mark_cut(out->detail, sizeof(out->detail));
}

void dmlconf_matrix_free(dmlconf_matrix *matrix)
{
    if (!matrix)
        return;
    free(matrix->rows);
    free(matrix->gaps);
    memset(matrix, 0, sizeof(*matrix));
}

