/*
 * summary.md: the run for people reading a merge request or a CI job
 * summary (GitHub's $GITHUB_STEP_SUMMARY takes it as is): run info,
 * verdict, the matrix, the error/tolerance histogram, the failing cases with
 * their mismatches and how to rerun them.
 *
 * Text from the records is escaped for CommonMark/GFM: ASCII punctuation
 * that could start markup is backslash-escaped, line breaks become spaces,
 * and ids and paths go in code spans whose fence is longer than any run of
 * backticks inside them.
 */
#include "report_internal.h"

#include <stdlib.h>
#include <string.h>

/* Failing cases shown in full; the rest are listed by id. */
#define DETAILED_FAILURES 200
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
    length = dmlconf_utf8_encode(cp, encoded);
    fwrite(encoded, 1, length, out);
}

/* Text outside code: the characters that can start inline markup (and |,
 * which splits table cells) are backslash-escaped. Text never starts a line
 * here, so block markup (#, -, 1.) cannot arise. */
static void md_text(FILE *out, const char *text, size_t size)
{
    size_t length = dmlconf_bounded_length(text, size);
    size_t at = 0;

    while (at < length)
    {
        uint32_t cp;
        size_t n = dmlconf_utf8_next(text + at, &cp);
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
static void md_code(FILE *out, const char *text, size_t size, bool in_table)
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
        size_t n = dmlconf_utf8_next(text + at, &cp);
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
        const char *word = matrix->columns[c].above_target               ? "n/a"
                           : dmlconf_matrix_column_conformant(matrix, c) ? "yes"
                                                                         : "**no**";
        fprintf(out, " %s |", word);
    }
    fputs("\n\n", out);
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

static void write_failing_case(FILE *out, const dmlconf_case_result *result)
{
    const dmlconf_comparison *comparison = &result->comparison;
    char command[512];

    fputs("### ", out);
    md_code(out, result->id, sizeof(result->id), false);
    fprintf(out, ": %s\n\n", dmlconf_status_text(result->status));
    fputs("- case: ", out);
    md_code(out, result->file, sizeof(result->file), false);
    fprintf(out, " line %u; %s, %s, %u dimensions, minimum feature level %s", (unsigned)result->line,
            op_text(result->op), type_text(result->data_type), (unsigned)result->dimension_count,
            level_text(result->min_feature_level));
    if (result->attempts > 1)
        fprintf(out, ", %u attempts", (unsigned)result->attempts);
    fputc('\n', out);
    if (result->message[0])
    {
        fputs("- message: ", out);
        md_text(out, result->message, sizeof(result->message));
        fputc('\n', out);
    }
    if (comparison->elements > 0)
    {
        fprintf(
            out, "- %llu of %llu elements outside tolerance (%llu unjudged); max error %.4g ulp, %.4g x tolerance\n",
            (unsigned long long)comparison->mismatches, (unsigned long long)comparison->elements,
            (unsigned long long)comparison->unjudged, comparison->max_error_ulps, comparison->max_tolerance_fraction);
    }
    dmlconf_report_format_repro(result->id, command, sizeof(command));
    fputs("- reproduce: ", out);
    md_code(out, command, sizeof(command), false);
    if (result->repro_path[0])
    {
        fputs("; reproducer: ", out);
        md_code(out, result->repro_path, sizeof(result->repro_path), false);
    }
    fputs("\n\n", out);

    if (comparison->sample_count > 0 || comparison->has_worst)
    {
        bool worst_shown = false;
        uint32_t samples = comparison->sample_count;
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
}

int dmlconf_write_markdown(FILE *out, const dmlconf_run_info *info, const dmlconf_case_result *results, size_t count,
                           const dmlconf_matrix *matrix, char *why, size_t why_size)
{
    dmlconf_report_view view;
    int rc = -1;

    if (dmlconf_report_view_init(&view, info, results, count, matrix, why, why_size))
        goto fail;
    const dmlconf_info_field *fields = view.fields;
    const size_t *failing = view.failing, *noteworthy = view.noteworthy;
    size_t failing_count = view.failing_count, noteworthy_count = view.noteworthy_count;
    const dmlconf_run_verdict verdict = view.verdict;

    fputs("# dmlconf conformance report\n\n", out);
    fprintf(out, "**Verdict: %s**%s\n\n", verdict.text,
            verdict.conformant && !verdict.at_target ? " (below the target level)" : "");
    fputs("> ", out);
    md_text(out, verdict.detail, sizeof(verdict.detail));
    fputs("\n\n", out);

    fputs("| run | |\n|---|---|\n", out);
    for (size_t i = 0; i < DMLCONF_INFO_FIELD_COUNT; ++i)
    {
        fprintf(out, "| %s | ", fields[i].label);
        if (!strcmp(fields[i].key, "command_line") && fields[i].value[0])
            md_code(out, fields[i].value, sizeof(fields[i].value), true);
        else
            md_text(out, fields[i].value, sizeof(fields[i].value));
        fputs(" |\n", out);
    }
    fputc('\n', out);

    fputs("## Results\n\n| status | cases |\n|---|---:|\n", out);
    for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
        fprintf(out, "| %s | %llu |\n", dmlconf_status_text((dmlconf_status)s),
                (unsigned long long)matrix->status_counts[s]);
    if (matrix->unknown_status_count)
        fprintf(out, "| unknown | %llu |\n", (unsigned long long)matrix->unknown_status_count);
    fprintf(out, "| **all** | %llu |\n\n", (unsigned long long)matrix->case_count);

    write_matrix(out, matrix);
    write_histogram(out, matrix);

    fprintf(out, "## Failing cases (%zu)\n\n", failing_count);
    if (failing_count == 0)
        fputs("None.\n\n", out);
    for (size_t i = 0; i < failing_count && i < DETAILED_FAILURES; ++i)
        write_failing_case(out, &results[failing[i]]);
    if (failing_count > DETAILED_FAILURES)
    {
        fprintf(out, "%zu more failing cases (see failures.txt and results.jsonl):\n\n",
                failing_count - DETAILED_FAILURES);
        for (size_t i = DETAILED_FAILURES; i < failing_count; ++i)
        {
            const dmlconf_case_result *result = &results[failing[i]];
            fputs("- ", out);
            md_code(out, result->id, sizeof(result->id), false);
            fprintf(out, ": %s\n", dmlconf_status_text(result->status));
        }
        fputc('\n', out);
    }

    if (noteworthy_count > 0)
    {
        fprintf(out, "## Skipped, known-failing and flaky cases (%zu)\n\n| case | status | message |\n|---|---|---|\n",
                noteworthy_count);
        for (size_t i = 0; i < noteworthy_count && i < NOTEWORTHY_ROWS; ++i)
        {
            const dmlconf_case_result *result = &results[noteworthy[i]];
            fputs("| ", out);
            md_code(out, result->id, sizeof(result->id), true);
            fprintf(out, " | %s | ", dmlconf_status_text(result->status));
            md_text(out, result->message, sizeof(result->message));
            fputs(" |\n", out);
        }
        if (noteworthy_count > NOTEWORTHY_ROWS)
            fprintf(out, "\n%zu more in results.jsonl.\n", noteworthy_count - NOTEWORTHY_ROWS);
        fputc('\n', out);
    }

    if (ferror(out))
    {
        dmlconf_set_why(why, why_size, "write error");
        goto fail;
    }
    rc = 0;
fail:
    dmlconf_report_view_free(&view);
    return rc;
}
