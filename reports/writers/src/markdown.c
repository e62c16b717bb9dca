/*
 * summary.md: the run for people reading a merge request or a CI job
 * summary (GitHub's $GITHUB_STEP_SUMMARY takes it as is): the verdict, run
 * info, the matrix, the error histograms, the case files that did not load,
 * and the failures grouped by cause (failure_groups.c), the cause that
 * explains the most cases first, each group with its count, which cases it
 * shows in, its shortest reproducer, a few examples (the worst one with its
 * mismatches) and how to rerun them. Every failing id is in
 * failures.txt and summary.json; this page stays short enough to read.
 *
 * Text from the records is escaped for CommonMark/GFM: ASCII punctuation
 * that could start markup is backslash-escaped, line breaks become spaces,
 * and ids and paths go in code spans whose fence is longer than any run of
 * backticks inside them.
 */
#include "report_internal.h"

#include <stdlib.h>
#include <string.h>

/* Failure groups described below their table; the rest are only in it. */
#define DETAILED_GROUPS 25
/* Examples shown per group, with their message and reproduce command. */
#define GROUP_EXAMPLES 3
/* Further ids of a group listed by name. */
#define GROUP_MORE_IDS 12
/* Load errors listed; summary.json has them all. */
#define LOAD_ERRORS_SHOWN 50
/* Rows of the table of other noteworthy cases (skips, known failures). */
#define NOTEWORTHY_ROWS 200

/* Writes one character of text from the records on one line: line breaks
 * become spaces, other control characters U+FFFD. */
static void put_char(FILE *out, uint32_t cp)
{
    char encoded[4];
    size_t length;

    if (cp == '\n' || cp == '\r' || cp == '\t')
        cp = ' ';
    else if (cp < 0x20 || cp == 0x7f)
        cp = DMLCONF_REPLACEMENT_CHARACTER;
    length = report_utf8_encode(cp, encoded);
    fwrite(encoded, 1, length, out);
}

/* Text outside code: the characters that can start inline markup (and |,
 * which splits table cells) are backslash-escaped. Text never starts a line
 * here, so block markup (#, -, 1.) cannot arise. */
void report_md_text(FILE *out, const char *text, size_t size)
{
    size_t length = dmlconf_bounded_length(text, size);
    size_t at = 0;

    while (at < length)
    {
        uint32_t cp;
        size_t n = report_utf8_next(text + at, &cp);
        if (n == 0 || at + n > length)
        {
            cp = DMLCONF_REPLACEMENT_CHARACTER;
            n = 1;
        }
        at += n;
        if (cp < 0x80 && strchr("\\`*_[]<>|~&", (int)cp))
        {
            fputc('\\', out);
            fputc((int)cp, out);
            continue;
        }
        put_char(out, cp);
    }
}

/* A code span. In a table, | is escaped even inside it (GFM splits cells
 * first). */
void report_md_code(FILE *out, const char *text, size_t size, bool in_table)
{
    size_t length = dmlconf_bounded_length(text, size);
    size_t longest = 0;
    size_t run = 0;
    size_t at = 0;
    bool pad;

    for (size_t i = 0; i < length; ++i)
    {
        run = text[i] == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    pad = length == 0 || text[0] == '`' || text[length - 1] == '`' || text[0] == ' ';
    for (size_t i = 0; i <= longest; ++i)
        fputc('`', out);
    if (pad)
        fputc(' ', out);
    while (at < length)
    {
        uint32_t cp;
        size_t n = report_utf8_next(text + at, &cp);
        if (n == 0 || at + n > length)
        {
            cp = DMLCONF_REPLACEMENT_CHARACTER;
            n = 1;
        }
        at += n;
        if (cp == '|' && in_table)
            fputs("\\|", out);
        else
            put_char(out, cp);
    }
    if (pad)
        fputc(' ', out);
    for (size_t i = 0; i <= longest; ++i)
        fputc('`', out);
}

/* Each line of text as its own code span in a table cell (an environment
 * variable per span, so that values with spaces stay readable). */
static void md_lines_as_code(FILE *out, const char *text)
{
    for (const char *line = text; *line;)
    {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        if (line != text)
            fputc(' ', out);
        report_md_code(out, line, length, true);
        line += end ? length + 1 : length;
    }
}

static const char *level_text(dmlconf_feature_level level)
{
    const char *name = dmlconf_feature_level_name(level);
    return name ? name : "none";
}

static const char *op_text(dmlconf_operator op)
{
    const char *name = dmlconf_operator_name(op);
    return name ? name : "unknown operator";
}

static const char *type_text(dmlconf_data_type type)
{
    const char *name = dmlconf_data_type_name(type);
    return name ? name : "UNKNOWN";
}

static void write_cell(FILE *out, const dmlconf_matrix_cell *cell)
{
    if (dmlconf_matrix_cell_empty(cell))
        fputs(" - |", out);
    else
        fprintf(out, " %llu / %llu / %llu |", (unsigned long long)cell->passed, (unsigned long long)cell->failed,
                (unsigned long long)cell->skipped);
}

static void write_matrix(FILE *out, const dmlconf_matrix *matrix)
{
    fputs("## Feature-level matrix\n\n", out);
    fputs("Passed / failed / skipped per operator and data type. A case counts in every column at or above its "
          "minimum feature level; columns above the target level are shown but not judged.\n\n",
          out);
    fputs("| operator | type |", out);
    for (size_t c = 0; c < matrix->column_count; ++c)
        fprintf(out, " %s%s |", matrix->columns[c].label, matrix->columns[c].above_target ? " (above target)" : "");
    fputs("\n|---|---|", out);
    for (size_t c = 0; c < matrix->column_count; ++c)
        fputs("---:|", out);
    fputc('\n', out);
    for (size_t r = 0; r < matrix->row_count; ++r)
    {
        fprintf(out, "| %s | %s |", op_text(matrix->rows[r].op), type_text(matrix->rows[r].data_type));
        for (size_t c = 0; c < matrix->column_count; ++c)
            write_cell(out, &matrix->rows[r].cells[c]);
        fputc('\n', out);
    }
    fputs("| **all** | |", out);
    for (size_t c = 0; c < matrix->column_count; ++c)
        write_cell(out, &matrix->totals[c]);
    fputs("\n| **conformant** | |", out);
    for (size_t c = 0; c < matrix->column_count; ++c)
    {
        const char *word = matrix->columns[c].above_target                   ? "n/a"
                           : dmlconf_matrix_column_conformant(matrix, c)     ? "yes"
                           : dmlconf_matrix_column_partly_covered(matrix, c) ? "partly"
                                                                             : "**no**";
        fprintf(out, " %s |", word);
    }
    fputs("\n\n", out);
    if (matrix->unsupported > 0)
        fputs("*partly*: every case the backend supports passed, but cases it does not support were skipped "
              "(see *Not covered*).\n\n",
              out);
}

/* The cases the run did not cover, by what they need. */
static void write_not_covered(FILE *out, const dmlconf_matrix *matrix)
{
    if (matrix->unsupported == 0)
        return;
    fprintf(out,
            "## Not covered (%llu cases)\n\nCases at or below the target level that the backend does not support, "
            "skipped with the reason; no verdict covers them.\n\n| needs | cases | of which negative | lowest "
            "level |\n|---|---:|---:|---|\n",
            (unsigned long long)matrix->unsupported);
    for (size_t i = 0; i < matrix->gap_count; ++i)
    {
        const dmlconf_matrix_gap *gap = &matrix->gaps[i];
        fputs("| ", out);
        report_md_text(out, gap->needs, sizeof(gap->needs));
        fprintf(out, " | %llu | %llu | %s |\n", (unsigned long long)gap->cases, (unsigned long long)gap->negative,
                gap->lowest_level == DMLCONF_FEATURE_LEVEL_NONE ? "every level" : level_text(gap->lowest_level));
    }
    fputc('\n', out);
}

static void write_histogram(FILE *out, const dmlconf_matrix *matrix)
{
    fputs("## Error / tolerance\n\n", out);
    fprintf(out, "Every judged element of every case (%llu elements), by |error| / tolerance.\n\n",
            (unsigned long long)matrix->elements);
    fputs("| error / tolerance | elements |\n|---|---:|\n", out);
    for (int i = 0; i < DMLCONF_HISTOGRAM_BINS; ++i)
    {
        if (i < DMLCONF_HISTOGRAM_BINS - 1)
            fprintf(out, "| %d.%d to %d.%d | %llu |\n", i / 10, i % 10, (i + 1) / 10, (i + 1) % 10,
                    (unsigned long long)matrix->histogram[i]);
        else
            fprintf(out, "| above 1 (outside tolerance) | %llu |\n", (unsigned long long)matrix->histogram[i]);
    }
    fputc('\n', out);
}

/* The ULP histogram in one table row per non-empty bin. */
static void write_ulp_histogram(FILE *out, const dmlconf_matrix *matrix)
{
    bool any = false;

    for (size_t i = 0; i < DMLCONF_ULP_BINS; ++i)
        any = any || matrix->ulp_histogram[i] > 0;
    if (!any)
        return;
    fputs("## Error in ulps\n\nEvery judged element by its error in ulps of the output type (empty bins left "
          "out).\n\n| error (ulp) | elements |\n|---|---:|\n",
          out);
    for (size_t i = 0; i < DMLCONF_ULP_BINS; ++i)
    {
        if (matrix->ulp_histogram[i] == 0)
            continue;
        if (i == 0)
            fputs("| 0 (exact) |", out);
        else if (i + 1 < DMLCONF_ULP_BINS)
            fprintf(out, "| %s%llu to %llu |", i == 1 ? "above 0, " : "", (unsigned long long)(UINT64_C(1) << (i - 1)),
                    (unsigned long long)((UINT64_C(1) << i) - 1));
        else
            fprintf(out, "| %llu or more, or infinite |", (unsigned long long)(UINT64_C(1) << (i - 1)));
        fprintf(out, " %llu |\n", (unsigned long long)matrix->ulp_histogram[i]);
    }
    fputc('\n', out);
}

static void write_mismatch_row(FILE *out, const char *label, dmlconf_data_type type, const dmlconf_mismatch *m)
{
    char coordinates[128];
    char expected[48];
    char actual[48];
    char expected_bits[24];
    char actual_bits[24];

    dmlconf_report_format_coordinates(m, coordinates, sizeof(coordinates));
    dmlconf_report_format_value(type, m->expected_bits, expected, sizeof(expected));
    dmlconf_report_format_value(type, m->actual_bits, actual, sizeof(actual));
    dmlconf_report_format_bits(type, m->expected_bits, expected_bits, sizeof(expected_bits));
    dmlconf_report_format_bits(type, m->actual_bits, actual_bits, sizeof(actual_bits));
    fprintf(out, "| %s | `%s` | %llu | %s | %s | `%s` | `%s` | %.4g | %.4g |\n", label, coordinates,
            (unsigned long long)m->logical_index, expected, actual, expected_bits, actual_bits, m->error_ulps,
            m->tolerance_fraction);
}

/* The mismatch table of one case: its first mismatches and its worst. */
static void write_mismatch_table(FILE *out, const dmlconf_case_result *result)
{
    const dmlconf_comparison *comparison = &result->comparison;
    bool worst_shown = false;
    uint32_t samples = comparison->sample_count;

    if (comparison->sample_count == 0 && !comparison->has_worst)
        return;
    if (samples > DMLCONF_MISMATCH_SAMPLES)
        samples = DMLCONF_MISMATCH_SAMPLES;
    fputs("| | coordinates | index | expected | actual | expected bits | actual bits | ulp | error / tolerance "
          "|\n|---|---|---:|---:|---:|---|---|---:|---:|\n",
          out);
    for (uint32_t i = 0; i < samples; ++i)
    {
        const dmlconf_mismatch *m = &comparison->samples[i];
        bool worst = comparison->has_worst && m->logical_index == comparison->worst.logical_index;
        char label[16];
        worst_shown = worst_shown || worst;
        snprintf(label, sizeof(label), "%u%s", (unsigned)(i + 1), worst ? " (worst)" : "");
        write_mismatch_row(out, label, result->data_type, m);
    }
    if (comparison->has_worst && !worst_shown)
        write_mismatch_row(out, "worst", result->data_type, &comparison->worst);
    fputc('\n', out);
}

/* One example of a group: id, status, message, size of the damage, times
 * and how to rerun it. */
static void write_example(FILE *out, const dmlconf_run_info *info, const dmlconf_case_result *result)
{
    const dmlconf_comparison *comparison = &result->comparison;
    char *command = report_repro_command(info, result);

    fputs("- ", out);
    report_md_code(out, result->id, sizeof(result->id), false);
    fprintf(out, " (%s", report_status_text(result->status));
    if (result->attempts > 1)
        fprintf(out, ", %u attempts", (unsigned)result->attempts);
    fputs(", ", out);
    report_md_code(out, result->file, sizeof(result->file), false);
    fprintf(out, " line %u, %u dimensions, minimum feature level %s)", (unsigned)result->line,
            (unsigned)result->dimension_count, level_text(result->min_feature_level));
    if (result->message[0])
    {
        fputs(": ", out);
        report_md_text(out, result->message, sizeof(result->message));
    }
    fputc('\n', out);
    if (comparison->elements > 0)
        fprintf(
            out, "  - %llu of %llu elements outside tolerance (%llu unjudged); max error %.4g ulp, %.4g x tolerance\n",
            (unsigned long long)comparison->mismatches, (unsigned long long)comparison->elements,
            (unsigned long long)comparison->unjudged, comparison->max_error_ulps, comparison->max_tolerance_fraction);
    if (result->wall_seconds >= 0.0)
    {
        fprintf(out, "  - time: %.3f ms", result->wall_seconds * 1e3);
        if (result->backend_seconds >= 0.0)
            fprintf(out, ", %.3f ms on the device", result->backend_seconds * 1e3);
        fputc('\n', out);
    }
    fputs("  - reproduce: ", out);
    report_md_code(out, command ? command : "(out of memory)", SIZE_MAX, false);
    if (result->repro_path[0])
    {
        fputs("; reproducer: ", out);
        report_md_code(out, result->repro_path, sizeof(result->repro_path), false);
    }
    fputc('\n', out);
    free(command);
}

static void write_group_table(FILE *out, const dmlconf_report_input *in, const report_failure_groups *groups)
{
    fputs("| # | cause | cases | shows in | shortest reproducer | max error (ulp) | max error / tolerance |\n"
          "|---:|---|---:|---|---|---:|---:|\n",
          out);
    for (size_t g = 0; g < groups->count; ++g)
    {
        const report_failure_group *group = &groups->items[g];
        const dmlconf_case_result *shortest = &in->results[group->members[0]];
        fprintf(out, "| %zu | %s | %zu | %s | ", g + 1, group->title, group->count, group->affects);
        report_md_code(out, shortest->id, sizeof(shortest->id), false);
        if (group->elements > 0)
            fprintf(out, " | %.4g | %.4g |\n", group->max_error_ulps, group->max_tolerance_fraction);
        else
            fputs(" | - | - |\n", out);
    }
    fputc('\n', out);
}

/* The group's shortest reproducer: its smallest case, how to rerun it, and
 * the minimal reproducer the run wrote for it. */
static void write_shortest(FILE *out, const dmlconf_run_info *info, const dmlconf_case_result *result)
{
    char *command = report_repro_command(info, result);

    fputs("Shortest reproducer: ", out);
    report_md_code(out, result->id, sizeof(result->id), false);
    if (result->comparison.elements > 0)
        fprintf(out, " (%llu elements, %u dimensions)", (unsigned long long)result->comparison.elements,
                (unsigned)result->dimension_count);
    fputs(": ", out);
    report_md_code(out, command ? command : "(out of memory)", SIZE_MAX, false);
    if (result->repro_path[0])
    {
        fputs("; minimal reproducer ", out);
        report_md_code(out, result->repro_path, sizeof(result->repro_path), false);
    }
    fputs(".\n\n", out);
    free(command);
}

static void write_group(FILE *out, const dmlconf_report_input *in, const report_failure_group *group, size_t number)
{
    const dmlconf_case_result *worst = &in->results[group->worst];
    size_t examples = group->count < GROUP_EXAMPLES ? group->count : GROUP_EXAMPLES;

    fprintf(out, "### %zu. %s (%zu case%s)\n\nShows in: %s.\n\n", number, group->title, group->count,
            group->count == 1 ? "" : "s", group->affects);
    write_shortest(out, in->info, &in->results[group->members[0]]);
    if (group->mismatches > 0)
    {
        uint64_t first_half = 0, second_half = 0;
        for (size_t i = 0; i < DMLCONF_POSITION_BINS; ++i)
        {
            if (i < DMLCONF_POSITION_BINS / 2)
                first_half += group->position_mismatches[i];
            else
                second_half += group->position_mismatches[i];
        }
        fprintf(out, "%llu mismatching element%s of %llu", (unsigned long long)group->mismatches,
                group->mismatches == 1 ? "" : "s", (unsigned long long)group->elements);
        /* Where along the scan axis, when the results say (report.html
         * charts it). */
        if (first_half + second_half > 0)
            fprintf(out, "; in scan order, %llu in the first half of the axis and %llu in the second",
                    (unsigned long long)first_half, (unsigned long long)second_half);
        fputs(".\n\n", out);
    }
    for (size_t i = 0; i < examples; ++i)
        write_example(out, in->info, &in->results[group->members[i]]);
    if (group->count > examples)
    {
        size_t listed = group->count - examples < GROUP_MORE_IDS ? group->count - examples : GROUP_MORE_IDS;
        fprintf(out, "- and %zu more:", group->count - examples);
        for (size_t i = examples; i < examples + listed; ++i)
        {
            const dmlconf_case_result *result = &in->results[group->members[i]];
            fputs(i > examples ? ", " : " ", out);
            report_md_code(out, result->id, sizeof(result->id), false);
        }
        if (group->count - examples > listed)
            fputs(", ... (failures.txt lists every one)", out);
        fputc('\n', out);
    }
    fputc('\n', out);
    if (worst->comparison.sample_count > 0 || worst->comparison.has_worst)
    {
        fputs("The worst case, ", out);
        report_md_code(out, worst->id, sizeof(worst->id), false);
        fputs(":\n\n", out);
        write_mismatch_table(out, worst);
    }
}

static void write_failures(FILE *out, const report_view *view)
{
    const report_failure_groups *groups = &view->groups;

    fprintf(out, "## Failing cases (%zu)\n\n", view->failing_count);
    if (view->failing_count == 0)
    {
        fputs("None.\n\n", out);
        return;
    }
    fprintf(out,
            "%zu failing case%s in %zu group%s by cause: what went wrong and, for wrong values, what the output looks "
            "like as a whole (whatever operators, types, ranks and modes it shows in), the cause that explains the "
            "most cases first. failures.txt and summary.json list every failing id.\n\n",
            groups->failing, groups->failing == 1 ? "" : "s", groups->count, groups->count == 1 ? "" : "s");
    write_group_table(out, view->in, groups);
    for (size_t g = 0; g < groups->count && g < DETAILED_GROUPS; ++g)
        write_group(out, view->in, &groups->items[g], g + 1);
    if (groups->count > DETAILED_GROUPS)
        fprintf(out, "%zu more groups are only in the table above.\n\n", groups->count - DETAILED_GROUPS);
}

/* The cases that took longest on the device, with the operator's time an
 * element. */
static void write_device_times(FILE *out, const dmlconf_report_input *in)
{
    size_t order[DMLCONF_DEVICE_TIME_ROWS];
    size_t n = report_device_slowest(in, order, DMLCONF_DEVICE_TIME_ROWS);
    if (n == 0)
        return;
    fprintf(out,
            "## Time on the device\n\nThe %zu cases that took longest on the device (results.jsonl has every "
            "case's `backend_seconds`):\n\n",
            n);
    fputs("| case | operator, type | elements | device ms | device ns/element | wall ms |\n"
          "|---|---|---:|---:|---:|---:|\n",
          out);
    for (size_t i = 0; i < n; ++i)
    {
        const dmlconf_case_result *r = &in->results[order[i]];
        fputs("| ", out);
        report_md_code(out, r->id, sizeof(r->id), true);
        fprintf(out, " | %s %s | %llu | %.3f | ", op_text(r->op), type_text(r->data_type),
                (unsigned long long)r->comparison.elements, r->backend_seconds * 1e3);
        if (r->comparison.elements > 0)
            fprintf(out, "%.3f", r->backend_seconds * 1e9 / (double)r->comparison.elements);
        else
            fputs("-", out);
        if (r->wall_seconds >= 0.0)
            fprintf(out, " | %.3f |\n", r->wall_seconds * 1e3);
        else
            fputs(" | - |\n", out);
    }
    fputc('\n', out);
}

static void write_load_errors(FILE *out, const dmlconf_report_input *in)
{
    if (in->load_error_count == 0)
        return;
    fprintf(out,
            "## Case files that did not load (%zu error%s)\n\nThe cases these errors kept out did not run, so "
            "the run has no conformance verdict.\n\n",
            in->load_error_count, in->load_error_count == 1 ? "" : "s");
    for (size_t i = 0; i < in->load_error_count && i < LOAD_ERRORS_SHOWN; ++i)
    {
        const dmlconf_load_error *error = &in->load_errors[i];
        char where[64] = "";
        fputs("- ", out);
        if (error->line)
            snprintf(where, sizeof(where), ":%u:%u", (unsigned)error->line, (unsigned)error->column);
        if (error->file)
        {
            size_t length = strlen(error->file);
            char *located = malloc(length + sizeof(where));
            if (located)
            {
                snprintf(located, length + sizeof(where), "%s%s", error->file, where);
                report_md_code(out, located, SIZE_MAX, false);
                free(located);
            }
            fputs(": ", out);
        }
        report_md_text(out, error->message, SIZE_MAX);
        fputc('\n', out);
    }
    if (in->load_error_count > LOAD_ERRORS_SHOWN)
        fprintf(out, "- and %zu more (summary.json lists them all)\n", in->load_error_count - LOAD_ERRORS_SHOWN);
    fputc('\n', out);
}

/* The baseline lines that match no case: a baseline that no longer says
 * anything about the corpus (summary.json lists them all). */
static void write_stale_baseline(FILE *out, const dmlconf_report_input *in)
{
    if (in->stale_baseline_count == 0)
        return;
    fprintf(out,
            "## Stale baseline lines (%zu)\n\nThese lines of the baseline match no case of the corpus: remove "
            "them (`--strict-baseline` fails a run that has any).\n\n",
            in->stale_baseline_count);
    for (size_t i = 0; i < in->stale_baseline_count && i < LOAD_ERRORS_SHOWN; ++i)
    {
        fputs("- ", out);
        report_md_code(out, in->stale_baseline[i], SIZE_MAX, false);
        fputc('\n', out);
    }
    if (in->stale_baseline_count > LOAD_ERRORS_SHOWN)
        fprintf(out, "- and %zu more (summary.json lists them all)\n", in->stale_baseline_count - LOAD_ERRORS_SHOWN);
    fputc('\n', out);
}

int dmlconf_write_markdown(FILE *out, const dmlconf_report_input *in, char *why, size_t why_size)
{
    const dmlconf_matrix *matrix = in->matrix;
    report_view *view = malloc(sizeof(*view));
    int rc = -1;

    if (!view)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    if (report_view_init(view, in, why, why_size))
        goto fail;
    const report_info_field *fields = view->fields;
    const dmlconf_run_verdict *verdict = &view->verdict;

    fputs("# dmlconf conformance report\n\n", out);
    fprintf(out, "**Verdict: %s**%s\n\n", verdict->text,
            verdict->conformant && !verdict->at_target ? " (below the target level)" : "");
    fputs("> Scope: ", out);
    report_md_text(out, verdict->scope_text, sizeof(verdict->scope_text));
    fputs("\n>\n> ", out);
    report_md_text(out, verdict->detail, sizeof(verdict->detail));
    fputs("\n", out);
    if (verdict->baseline != DMLCONF_BASELINE_NONE)
    {
        fputs(">\n> Baseline: **", out);
        report_md_text(out, verdict->baseline_text, sizeof(verdict->baseline_text));
        fputs("**\n", out);
    }
    fprintf(out, ">\n> Exit status %d (%s).\n\n", verdict->exit_status,
            dmlconf_verdict_passes(verdict) ? "passes a gate" : "fails a gate");

    fputs("| run | |\n|---|---|\n", out);
    for (size_t i = 0; i < DMLCONF_INFO_FIELD_COUNT; ++i)
    {
        fprintf(out, "| %s | ", fields[i].label);
        if (!strcmp(fields[i].key, "environment"))
            md_lines_as_code(out, fields[i].value);
        else if (!strcmp(fields[i].key, "command_line") && fields[i].value[0])
            report_md_code(out, fields[i].value, sizeof(fields[i].value), true);
        else
            report_md_text(out, fields[i].value, sizeof(fields[i].value));
        fputs(" |\n", out);
    }
    fputc('\n', out);

    fputs("## Results\n\n| status | cases |\n|---|---:|\n", out);
    for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
        fprintf(out, "| %s | %llu |\n", report_status_text((dmlconf_status)s),
                (unsigned long long)matrix->status_counts[s]);
    if (matrix->unknown_status_count)
        fprintf(out, "| unknown | %llu |\n", (unsigned long long)matrix->unknown_status_count);
    fprintf(out, "| **all** | %llu |\n\n", (unsigned long long)matrix->case_count);
    fprintf(out, "Times are each case's own: %.3f s of wall time over all cases", matrix->wall_seconds);
    if (matrix->device_timed > 0)
        fprintf(out, ", %.3f s on the device over the %llu cases the backend timed", matrix->device_seconds,
                (unsigned long long)matrix->device_timed);
    if (in->end->elapsed_seconds >= 0.0)
        fprintf(out, "; the run took %.3f s", in->end->elapsed_seconds);
    fputs(".\n\n", out);

    write_load_errors(out, in);
    write_stale_baseline(out, in);
    write_matrix(out, matrix);
    write_not_covered(out, matrix);
    write_histogram(out, matrix);
    write_ulp_histogram(out, matrix);
    write_device_times(out, in);
    write_failures(out, view);

    if (view->noteworthy_count > 0)
    {
        fprintf(out, "## Skipped, known-failing and flaky cases (%zu)\n\n| case | status | message |\n|---|---|---|\n",
                view->noteworthy_count);
        for (size_t i = 0; i < view->noteworthy_count && i < NOTEWORTHY_ROWS; ++i)
        {
            const dmlconf_case_result *result = &in->results[view->noteworthy[i]];
            fputs("| ", out);
            report_md_code(out, result->id, sizeof(result->id), true);
            fprintf(out, " | %s | ", report_status_text(result->status));
            report_md_text(out, result->message, sizeof(result->message));
            fputs(" |\n", out);
        }
        if (view->noteworthy_count > NOTEWORTHY_ROWS)
            fprintf(out, "\n%zu more in results.jsonl.\n", view->noteworthy_count - NOTEWORTHY_ROWS);
        fputc('\n', out);
    }

    if (ferror(out))
    {
        dmlconf_set_why(why, why_size, "write error");
        goto fail;
    }
    rc = 0;
fail:
    report_view_free(view);
    free(view);
    return rc;
}
