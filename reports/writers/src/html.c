/*
 * report.html: the run on one self-contained page for a vendor's engineer:
 * the verdict, the run info, the matrix, histograms of error/tolerance and
 * of the error in ulps over every judged element, the case files that did
 * not load, the failures grouped by cause, operator, data type and mode with
 * charts of where along the scan axis their errors fall, and each failing
 * case with its diff, its own chart and how to rerun it. The charts are
 * inline SVG (svg_charts.c).
 *
 * The page needs nothing else: CSS and SVG are inline, there is no script,
 * no font, image or link to fetch. It is also well-formed XML (void elements
 * closed, every attribute quoted, all text escaped), so XML tools can check
 * and read it.
 */
#include "report_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Failing cases shown with their diffs; the rest are only listed. */
#define DETAILED_FAILURES 500
/* Rows of the table of other noteworthy cases (skips, known failures). */
#define NOTEWORTHY_ROWS 1000
/* Failure groups charted below their table; the rest are only in it. */
#define CHARTED_GROUPS 50

const char report_html_style[] =
    ":root{--pass:#1a7f37;--fail:#cf222e;--skip:#9a6700;--muted:#57606a;--line:#d0d7de;--soft:#f6f8fa}\n"
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;color:#1f2328;"
    "margin:0 auto;max-width:1280px;padding:1.5em 2em;line-height:1.45}\n"
    "h1{margin:0 0 .4em;font-size:1.7em}h2{margin-top:1.8em;border-bottom:1px solid var(--line);padding-bottom:.2em}\n"
    "h3{margin:.2em 0 .4em;font-size:1.05em}\n"
    "code,.id,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,'Liberation Mono',monospace;"
    "font-size:.9em}\n"
    "table{border-collapse:collapse;margin:.6em 0 1.2em}\n"
    "th,td{border:1px solid var(--line);padding:.28em .65em;text-align:left;vertical-align:baseline}\n"
    "th{background:var(--soft)}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;"
    "white-space:nowrap}\n"
    "table.info th{width:12em}table.info td{word-break:break-all}\n"
    ".verdict{padding:.9em 1.2em;border-radius:8px;margin:.5em 0 1em}\n"
    ".verdict .text{font-size:1.45em;font-weight:700}.verdict .detail{color:#1f2328;margin-top:.2em}\n"
    ".verdict.ok{background:#dafbe1;border:1px solid #4ac26b;color:var(--pass)}\n"
    ".verdict.partial{background:#fff8c5;border:1px solid #d4a72c;color:var(--skip)}\n"
    ".verdict.bad{background:#ffebe9;border:1px solid #ff8182;color:var(--fail)}\n"
    ".status{display:inline-block;min-width:4.5em;text-align:center;padding:.05em .55em;border-radius:1em;"
    "font-size:.82em;font-weight:600;color:#fff;background:var(--muted)}\n"
    ".status-pass{background:var(--pass)}.status-fail,.status-unexpected-pass{background:var(--fail)}\n"
    ".status-skip{background:var(--skip)}.status-error{background:#bc4c00}.status-crash{background:#8250df}\n"
    ".status-timeout{background:#bf3989}.status-expected-fail{background:#6e7781}.status-flake{background:#0969da}\n"
    "td.cell-pass{background:#dafbe1}td.cell-fail{background:#ffebe9;color:var(--fail);font-weight:600}\n"
    "td.cell-skip{background:#fff8c5}td.cell-empty,td.above{color:var(--muted);background:#fff}\n"
    "th.above{color:var(--muted);font-weight:400}\n"
    ".yes{color:var(--pass);font-weight:700}.no{color:var(--fail);font-weight:700}\n"
    ".partly{color:var(--skip);font-weight:700}\n"
    ".case{border:1px solid var(--line);border-left:4px solid var(--fail);border-radius:6px;padding:.6em 1em;"
    "margin:1em 0}\n"
    ".case p{margin:.25em 0}.where{color:var(--muted)}.message{white-space:pre-wrap}\n"
    ".repro code{background:var(--soft);padding:.1em .35em;border-radius:4px}\n"
    "b.diffbit{color:var(--fail)}tr.worst td{background:#fff1e5}\n"
    "svg text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;font-size:12px;"
    "fill:#1f2328}\n"
    "svg .bar{fill:#2f81f7}svg .bar-fail{fill:#cf222e}svg .axis{stroke:#57606a;stroke-width:1}\n"
    "svg .grid{stroke:#d0d7de;stroke-width:1;stroke-dasharray:3 3}\n"
    "svg .threshold{stroke:#cf222e;stroke-width:1;stroke-dasharray:6 3}svg .threshold-label{fill:#cf222e}\n"
    "svg text.tick,svg text.count{font-size:10px}\n"
    ".verdict.incomplete{background:#fff1e5;border:1px solid #fb8f44;color:#bc4c00}\n"
    ".charts{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}.charts figure{margin:0}\n"
    "figcaption{color:var(--muted);font-size:.85em}td.env{white-space:pre-wrap}\n"
    "table.groups td.id{word-break:break-all}table.groups td.cause{min-width:11em}\n"
    "footer{margin-top:3em;color:var(--muted);font-size:.85em}\n";

static void put_text(FILE *out, const char *text)
{
    report_xml_escape(out, text, false);
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

static void put_status(FILE *out, dmlconf_status status)
{
    const char *name = report_status_text(status);
    fprintf(out, "<span class=\"status status-%s\">%s</span>", name, name);
}

static void write_verdict(FILE *out, const dmlconf_run_verdict *verdict)
{
    const char *tone = verdict->exit_status == DMLCONF_EXIT_PASSED     ? "ok"
                       : verdict->exit_status == DMLCONF_EXIT_FAILED   ? "bad"
                       : verdict->status == DMLCONF_RUN_PARTLY_COVERED ? "partial"
                                                                       : "incomplete";

    fprintf(out, "<div class=\"verdict %s\" id=\"verdict\" data-status=\"%s\"><div class=\"text\">", tone,
            dmlconf_run_status_name(verdict->status));
    put_text(out, verdict->text);
    fputs("</div><div class=\"detail\" id=\"scope\">Scope: ", out);
    put_text(out, verdict->scope_text);
    fputs("</div><div class=\"detail\">", out);
    put_text(out, verdict->detail);
    fputs("</div>", out);
    if (verdict->baseline != DMLCONF_BASELINE_NONE)
    {
        fprintf(out, "<div class=\"detail\" id=\"baseline\" data-answer=\"%s\">Baseline: ",
                dmlconf_baseline_answer_name(verdict->baseline));
        put_text(out, verdict->baseline_text);
        fputs("</div>", out);
    }
    fprintf(out, "<div class=\"detail\">Exit status %d (%s).</div></div>\n", verdict->exit_status,
            dmlconf_verdict_passes(verdict) ? "passes a gate" : "fails a gate");
}

static void write_run_info(FILE *out, const report_info_field *fields)
{
    fputs("<section id=\"run\"><h2>Run</h2>\n<table class=\"info\">\n", out);
    for (size_t i = 0; i < DMLCONF_INFO_FIELD_COUNT; ++i)
    {
        fprintf(out, "<tr><th>%s</th><td%s>", fields[i].label,
                !strcmp(fields[i].key, "command_line")  ? " class=\"mono\""
                : !strcmp(fields[i].key, "environment") ? " class=\"mono env\""
                                                        : "");
        put_text(out, fields[i].value);
        fputs("</td></tr>\n", out);
    }
    fputs("</table></section>\n", out);
}

static void write_counts(FILE *out, const dmlconf_matrix *matrix, const dmlconf_run_end *end)
{
    fputs("<section id=\"results\"><h2>Results</h2>\n<table class=\"counts\"><tr><th>status</th>"
          "<th class=\"num\">cases</th></tr>\n",
          out);
    for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
    {
        fputs("<tr><td>", out);
        put_status(out, (dmlconf_status)s);
        fprintf(out, "</td><td class=\"num\">%llu</td></tr>\n", (unsigned long long)matrix->status_counts[s]);
    }
    if (matrix->unknown_status_count)
        fprintf(out, "<tr><td>unknown</td><td class=\"num\">%llu</td></tr>\n",
                (unsigned long long)matrix->unknown_status_count);
    fprintf(out, "<tr><th>all</th><th class=\"num\">%llu</th></tr>\n</table>\n",
            (unsigned long long)matrix->case_count);
    fprintf(out, "<p>%llu elements judged. Times are each case&#39;s own: %.3f s of wall time over all cases",
            (unsigned long long)matrix->elements, matrix->wall_seconds);
    if (matrix->device_timed > 0)
        fprintf(out, ", %.3f s on the device over the %llu cases the backend timed", matrix->device_seconds,
                (unsigned long long)matrix->device_timed);
    if (end->elapsed_seconds >= 0.0)
        fprintf(out, "; the run took %.3f s", end->elapsed_seconds);
    fputs(".</p></section>\n", out);
}

static void write_cell(FILE *out, const dmlconf_matrix_cell *cell, bool above_target)
{
    const char *tone = dmlconf_matrix_cell_empty(cell) ? "cell-empty"
                       : cell->failed > 0              ? "cell-fail"
                       : cell->skipped > 0             ? "cell-skip"
                                                       : "cell-pass";

    fprintf(out, "<td class=\"num %s%s\"", tone, above_target ? " above" : "");
    if (dmlconf_matrix_cell_empty(cell))
    {
        fputs(">-</td>", out);
        return;
    }
    fprintf(out, " title=\"%llu passed, %llu failed, %llu skipped\">%llu / %llu / %llu</td>",
            (unsigned long long)cell->passed, (unsigned long long)cell->failed, (unsigned long long)cell->skipped,
            (unsigned long long)cell->passed, (unsigned long long)cell->failed, (unsigned long long)cell->skipped);
}

static void write_matrix(FILE *out, const dmlconf_matrix *matrix)
{
    fputs("<section id=\"matrix\"><h2>Feature-level matrix</h2>\n<p>Passed / failed / skipped per operator and data "
          "type. A case counts in every column at or above its minimum feature level; columns above the target "
          "level are shown greyed and not judged.</p>\n<table class=\"matrix\">\n<tr><th>operator</th><th>type</th>",
          out);
    for (size_t c = 0; c < matrix->column_count; ++c)
    {
        fprintf(out, "<th class=\"num%s\">%s%s</th>", matrix->columns[c].above_target ? " above" : "",
                matrix->columns[c].label, matrix->columns[c].above_target ? " (above target)" : "");
    }
    fputs("</tr>\n", out);
    for (size_t r = 0; r < matrix->row_count; ++r)
    {
        fprintf(out, "<tr><td class=\"mono\">%s</td><td class=\"mono\">%s</td>", op_text(matrix->rows[r].op),
                type_text(matrix->rows[r].data_type));
        for (size_t c = 0; c < matrix->column_count; ++c)
            write_cell(out, &matrix->rows[r].cells[c], matrix->columns[c].above_target);
        fputs("</tr>\n", out);
    }
    fputs("<tr><th>all</th><th></th>", out);
    for (size_t c = 0; c < matrix->column_count; ++c)
        write_cell(out, &matrix->totals[c], matrix->columns[c].above_target);
    fputs("</tr>\n<tr><th>conformant</th><th></th>", out);
    for (size_t c = 0; c < matrix->column_count; ++c)
    {
        if (matrix->columns[c].above_target)
            fputs("<td class=\"num above\">n/a</td>", out);
        else if (dmlconf_matrix_column_conformant(matrix, c))
            fputs("<td class=\"num yes\">yes</td>", out);
        else if (dmlconf_matrix_column_partly_covered(matrix, c))
            fputs("<td class=\"num partly\" title=\"every case the backend supports passed; cases it does not "
                  "support were skipped\">partly</td>",
                  out);
        else
            fputs("<td class=\"num no\">no</td>", out);
    }
    fputs("</tr>\n</table></section>\n", out);
}

/* The cases the run did not cover, by what they need. */
static void write_not_covered(FILE *out, const dmlconf_matrix *matrix)
{
    if (matrix->unsupported == 0)
        return;
    fprintf(out,
            "<section id=\"not-covered\"><h2>Not covered (%llu cases)</h2>\n<p>Cases at or below the target level "
            "that the backend does not support, skipped with the reason; no verdict covers them.</p>\n<table "
            "class=\"gaps\">\n<tr><th>needs</th><th class=\"num\">cases</th><th class=\"num\">of which "
            "negative</th><th>lowest level</th></tr>\n",
            (unsigned long long)matrix->unsupported);
    for (size_t i = 0; i < matrix->gap_count; ++i)
    {
        const dmlconf_matrix_gap *gap = &matrix->gaps[i];
        fputs("<tr><td class=\"mono\">", out);
        report_xml_escape_field(out, gap->needs, sizeof(gap->needs), false);
        fprintf(out, "</td><td class=\"num\">%llu</td><td class=\"num\">%llu</td><td>%s</td></tr>\n",
                (unsigned long long)gap->cases, (unsigned long long)gap->negative,
                gap->lowest_level == DMLCONF_FEATURE_LEVEL_NONE ? "every level" : level_text(gap->lowest_level));
    }
    fputs("</table></section>\n", out);
}

/* The error/tolerance histogram as an SVG bar chart on a log scale. */
static void write_histogram(FILE *out, const dmlconf_matrix *matrix)
{
    char label_text[DMLCONF_HISTOGRAM_BINS][8];
    char range_text[DMLCONF_HISTOGRAM_BINS][24];
    const char *labels[DMLCONF_HISTOGRAM_BINS];
    const char *ranges[DMLCONF_HISTOGRAM_BINS];
    report_count_chart chart;

    for (size_t i = 0; i < DMLCONF_HISTOGRAM_BINS; ++i)
    {
        if (i + 1 < DMLCONF_HISTOGRAM_BINS)
        {
            snprintf(label_text[i], sizeof(label_text[i]), "%zu.%zu", i / 10, i % 10);
            snprintf(range_text[i], sizeof(range_text[i]), "%zu.%zu to %zu.%zu", i / 10, i % 10, (i + 1) / 10,
                     (i + 1) % 10);
        }
        else
        {
            snprintf(label_text[i], sizeof(label_text[i]), "> 1");
            snprintf(range_text[i], sizeof(range_text[i]), "above 1");
        }
        labels[i] = label_text[i];
        ranges[i] = range_text[i];
    }
    memset(&chart, 0, sizeof(chart));
    chart.id = "error-histogram";
    chart.title = "Histogram of |error| / tolerance over all judged elements";
    chart.x_label = "|error| / tolerance (bin start)";
    chart.bins = DMLCONF_HISTOGRAM_BINS;
    chart.counts = matrix->histogram;
    chart.labels = labels;
    chart.ranges = ranges;
    chart.alarm_from = DMLCONF_HISTOGRAM_BINS - 1;
    chart.width = 760.0;
    chart.height = 300.0;

    fputs("<section id=\"histogram\"><h2>Error / tolerance</h2>\n", out);
    fprintf(out,
            "<p>Every judged element of every case (%llu elements), by |error| / tolerance; the red bar is "
            "outside tolerance. Heights are on a log scale.</p>\n",
            (unsigned long long)matrix->elements);
    report_svg_count_chart(out, &chart);
    fputs("</section>\n", out);
    fputs("<section id=\"ulps\"><h2>Error in ulps</h2>\n<p>Every judged element of every case by its error in ulps "
          "of the output type, in bins that double: where the mass sits tells rounding (a few ulps) from "
          "accumulation (many) from broken results (the last bins).</p>\n",
          out);
    report_svg_ulp_chart(out, "ulp-histogram", matrix->ulp_histogram, DMLCONF_CHART_FULL);
    fputs("</section>\n", out);
}

/* Hex bits of actual, with the digits that differ from expected in bold. */
static void put_bits_diff(FILE *out, const char *expected, const char *actual)
{
    size_t n = strlen(actual);
    bool same_width = strlen(expected) == n;

    for (size_t i = 0; i < n; ++i)
    {
        if (same_width && expected[i] != actual[i])
            fprintf(out, "<b class=\"diffbit\">%c</b>", actual[i]);
        else
            fputc(actual[i], out);
    }
}

static void write_mismatch_row(FILE *out, const char *label, bool worst, dmlconf_data_type type,
                               const dmlconf_mismatch *m)
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
    fprintf(out,
            "<tr%s><td>%s</td><td class=\"mono\">%s</td><td class=\"num\">%llu</td><td class=\"num mono\">%s</td>"
            "<td class=\"num mono\">%s</td><td class=\"mono\">%s</td><td class=\"mono\">",
            worst ? " class=\"worst\"" : "", label, coordinates, (unsigned long long)m->logical_index, expected, actual,
            expected_bits);
    put_bits_diff(out, expected_bits, actual_bits);
    fprintf(out, "</td><td class=\"num\">%.4g</td><td class=\"num\">%.4g</td><td class=\"num\">%.4g</td></tr>\n",
            m->error_ulps, m->tolerance_fraction, m->tolerance);
}

static void write_failing_case(FILE *out, const dmlconf_run_info *info, const dmlconf_case_result *result,
                               size_t anchor)
{
    const dmlconf_comparison *comparison = &result->comparison;
    char *command;

    fprintf(out, "<section class=\"case\" id=\"case-%zu\">\n<h3><span class=\"id\">", anchor);
    report_xml_escape_field(out, result->id, sizeof(result->id), false);
    fputs("</span> ", out);
    put_status(out, result->status);
    fputs("</h3>\n<p class=\"where\"><span class=\"mono\">", out);
    report_xml_escape_field(out, result->file, sizeof(result->file), false);
    fprintf(out, ":%u</span> &#183; %s &#183; %s &#183; %u dimensions &#183; minimum feature level %s",
            (unsigned)result->line, op_text(result->op), type_text(result->data_type),
            (unsigned)result->dimension_count, level_text(result->min_feature_level));
    if (result->attempts > 1)
        fprintf(out, " &#183; %u attempts", (unsigned)result->attempts);
    fputs("</p>\n", out);
    if (result->message[0])
    {
        fputs("<p class=\"message\">", out);
        report_xml_escape_field(out, result->message, sizeof(result->message), false);
        fputs("</p>\n", out);
    }
    if (comparison->elements > 0)
    {
        fprintf(out,
                "<p>%llu of %llu elements outside tolerance (%llu unjudged); max error %.4g ulp, %.4g &#215; "
                "tolerance.</p>\n",
                (unsigned long long)comparison->mismatches, (unsigned long long)comparison->elements,
                (unsigned long long)comparison->unjudged, comparison->max_error_ulps,
                comparison->max_tolerance_fraction);
    }
    if (result->wall_seconds >= 0.0)
    {
        fprintf(out, "<p class=\"where\">Time: %.3f ms", result->wall_seconds * 1e3);
        if (result->backend_seconds >= 0.0)
            fprintf(out, ", %.3f ms on the device", result->backend_seconds * 1e3);
        fputs("</p>\n", out);
    }
    if (comparison->mismatches > 0)
    {
        char id[40];
        snprintf(id, sizeof(id), "case-%zu-positions", anchor);
        fputs("<div class=\"charts\"><figure>", out);
        report_svg_position_chart(out, id, comparison->position_mismatches, comparison->position_max_fraction,
                                  DMLCONF_CHART_SMALL);
        fputs("<figcaption>largest |error| / tolerance along the scan axis (scan order, log scale)</figcaption>"
              "</figure></div>\n",
              out);
    }
    if (comparison->sample_count > 0 || comparison->has_worst)
    {
        uint32_t samples = comparison->sample_count;
        bool worst_shown = false;
        if (samples > DMLCONF_MISMATCH_SAMPLES)
            samples = DMLCONF_MISMATCH_SAMPLES;
        fputs("<table class=\"diff\"><tr><th></th><th>coordinates</th><th class=\"num\">index</th>"
              "<th class=\"num\">expected</th><th class=\"num\">actual</th><th>expected bits</th><th>actual bits</th>"
              "<th class=\"num\">error (ulp)</th><th class=\"num\">error / tolerance</th>"
              "<th class=\"num\">tolerance</th></tr>\n",
              out);
        for (uint32_t i = 0; i < samples; ++i)
        {
            const dmlconf_mismatch *m = &comparison->samples[i];
            const bool worst = comparison->has_worst && m->logical_index == comparison->worst.logical_index;
            char label[24];
            worst_shown = worst_shown || worst;
            snprintf(label, sizeof(label), "%s%u%s", i == 0 ? "first, " : "", (unsigned)(i + 1),
                     worst ? ", worst" : "");
            write_mismatch_row(out, label, worst, result->data_type, m);
        }
        if (comparison->has_worst && !worst_shown)
            write_mismatch_row(out, "worst", true, result->data_type, &comparison->worst);
        fputs("</table>\n", out);
    }
    command = report_repro_command(info, result);
    fputs("<p class=\"repro\">Reproduce: <code>", out);
    put_text(out, command ? command : "(out of memory)");
    free(command);
    fputs("</code>", out);
    if (result->repro_path[0])
    {
        fputs(" &#183; reproducer: <code>", out);
        report_xml_escape_field(out, result->repro_path, sizeof(result->repro_path), false);
        fputs("</code>", out);
    }
    fputs("</p>\n</section>\n", out);
}

static void write_case_row(FILE *out, const dmlconf_case_result *result, const char *link)
{
    fputs("<tr><td class=\"id\">", out);
    if (link)
        fprintf(out, "<a href=\"#%s\">", link);
    report_xml_escape_field(out, result->id, sizeof(result->id), false);
    if (link)
        fputs("</a>", out);
    fputs("</td><td>", out);
    put_status(out, result->status);
    fprintf(out, "</td><td class=\"mono\">%s %s</td><td>%s</td><td>", op_text(result->op), type_text(result->data_type),
            level_text(result->min_feature_level));
    report_xml_escape_field(out, result->message, sizeof(result->message), false);
    fputs("</td></tr>\n", out);
}

static void write_failing(FILE *out, const dmlconf_run_info *info, const dmlconf_case_result *results,
                          const size_t *order, size_t n)
{
    fprintf(out, "<section id=\"failing\"><h2>Failing cases (%zu)</h2>\n", n);
    if (n == 0)
    {
        fputs("<p>None.</p></section>\n", out);
        return;
    }
    fputs("<table class=\"cases\"><tr><th>case</th><th>status</th><th>operator, type</th><th>level</th>"
          "<th>message</th></tr>\n",
          out);
    for (size_t i = 0; i < n; ++i)
    {
        char link[32];
        snprintf(link, sizeof(link), "case-%zu", i);
        write_case_row(out, &results[order[i]], i < DETAILED_FAILURES ? link : NULL);
    }
    fputs("</table>\n", out);
    for (size_t i = 0; i < n && i < DETAILED_FAILURES; ++i)
        write_failing_case(out, info, &results[order[i]], i);
    if (n > DETAILED_FAILURES)
        fprintf(out, "<p>%zu more failing cases are listed above without details; results.jsonl has them all.</p>\n",
                n - DETAILED_FAILURES);
    fputs("</section>\n", out);
}

static void write_noteworthy(FILE *out, const dmlconf_case_result *results, const size_t *order, size_t n)
{
    if (n == 0)
        return;
    fprintf(out, "<section id=\"other\"><h2>Skipped, known-failing and flaky cases (%zu)</h2>\n", n);
    fputs("<table class=\"cases\"><tr><th>case</th><th>status</th><th>operator, type</th><th>level</th>"
          "<th>message</th></tr>\n",
          out);
    for (size_t i = 0; i < n && i < NOTEWORTHY_ROWS; ++i)
        write_case_row(out, &results[order[i]], NULL);
    fputs("</table>\n", out);
    if (n > NOTEWORTHY_ROWS)
        fprintf(out, "<p>%zu more in results.jsonl.</p>\n", n - NOTEWORTHY_ROWS);
    fputs("</section>\n", out);
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
            "<section id=\"device\"><h2>Time on the device</h2>\n<p>The %zu cases that took longest on the device "
            "(results.jsonl has every case&#39;s backend_seconds).</p>\n",
            n);
    fputs("<table class=\"cases\"><tr><th>case</th><th>operator, type</th><th class=\"num\">elements</th>"
          "<th class=\"num\">device ms</th><th class=\"num\">device ns/element</th><th class=\"num\">wall ms</th>"
          "</tr>\n",
          out);
    for (size_t i = 0; i < n; ++i)
    {
        const dmlconf_case_result *r = &in->results[order[i]];
        fputs("<tr><td class=\"id\">", out);
        report_xml_escape_field(out, r->id, sizeof(r->id), false);
        fprintf(out, "</td><td class=\"mono\">%s %s</td><td class=\"num\">%llu</td><td class=\"num\">%.3f</td>",
                op_text(r->op), type_text(r->data_type), (unsigned long long)r->comparison.elements,
                r->backend_seconds * 1e3);
        if (r->comparison.elements > 0)
            fprintf(out, "<td class=\"num\">%.3f</td>", r->backend_seconds * 1e9 / (double)r->comparison.elements);
        else
            fputs("<td class=\"num\">-</td>", out);
        if (r->wall_seconds >= 0.0)
            fprintf(out, "<td class=\"num\">%.3f</td></tr>\n", r->wall_seconds * 1e3);
        else
            fputs("<td class=\"num\">-</td></tr>\n", out);
    }
    fputs("</table></section>\n", out);
}

static void write_load_errors(FILE *out, const dmlconf_report_input *in)
{
    if (in->load_error_count == 0)
        return;
    fprintf(out,
            "<section id=\"load-errors\"><h2>Case files that did not load (%zu error%s)</h2>\n<p>The cases these "
            "errors kept out did not run, so the run has no conformance verdict.</p>\n<table class=\"cases\">"
            "<tr><th>where</th><th>error</th></tr>\n",
            in->load_error_count, in->load_error_count == 1 ? "" : "s");
    for (size_t i = 0; i < in->load_error_count; ++i)
    {
        const dmlconf_load_error *error = &in->load_errors[i];
        fputs("<tr><td class=\"mono\">", out);
        put_text(out, error->file ? error->file : "(the corpus)");
        if (error->line)
            fprintf(out, ":%u:%u", (unsigned)error->line, (unsigned)error->column);
        fputs("</td><td>", out);
        put_text(out, error->message);
        fputs("</td></tr>\n", out);
    }
    fputs("</table></section>\n", out);
}

/* The failure groups: a table, then per group its shortest reproducer and
 * where its errors fall. */
static void write_groups(FILE *out, const dmlconf_report_input *in, const report_failure_groups *groups)
{
    if (groups->count == 0)
        return;
    fprintf(out,
            "<section id=\"groups\"><h2>Failures by cause (%zu cases in %zu groups)</h2>\n<p>One group per cause: "
            "what went wrong and, for wrong values, what the output looks like as a whole, whatever operators, "
            "types, ranks and modes it shows in; the cause that explains the most cases first. The charts add up "
            "the group&#39;s cases: the largest |error| / tolerance per stretch of the scan axis (in scan order, so "
            "0 is the first element summed), and the errors in ulps.</p>\n<table class=\"cases groups\"><tr><th>#</th>"
            "<th>cause</th><th class=\"num\">cases</th><th>shows in</th><th>shortest reproducer</th>"
            "<th class=\"num\">max error (ulp)</th><th class=\"num\">max error / tolerance</th></tr>\n",
            groups->failing, groups->count);
    for (size_t g = 0; g < groups->count; ++g)
    {
        const report_failure_group *group = &groups->items[g];
        const dmlconf_case_result *shortest = &in->results[group->members[0]];
        if (g < CHARTED_GROUPS)
            fprintf(out, "<tr><td class=\"num\"><a href=\"#group-%zu\">%zu</a></td>", g + 1, g + 1);
        else
            fprintf(out, "<tr><td class=\"num\">%zu</td>", g + 1);
        fputs("<td class=\"cause\">", out);
        put_text(out, group->title);
        fprintf(out, "</td><td class=\"num\">%zu</td><td>", group->count);
        put_text(out, group->affects);
        fputs("</td><td class=\"id\">", out);
        report_xml_escape_field(out, shortest->id, sizeof(shortest->id), false);
        fputs("</td>", out);
        if (group->elements > 0)
            fprintf(out, "<td class=\"num\">%.4g</td><td class=\"num\">%.4g</td>", group->max_error_ulps,
                    group->max_tolerance_fraction);
        else
            fputs("<td class=\"num\">-</td><td class=\"num\">-</td>", out);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
    for (size_t g = 0; g < groups->count && g < CHARTED_GROUPS; ++g)
    {
        const report_failure_group *group = &groups->items[g];
        const dmlconf_case_result *shortest = &in->results[group->members[0]];
        char *command = report_repro_command(in->info, shortest);
        char id[40];
        fprintf(out, "<section class=\"group\" id=\"group-%zu\"><h3>%zu. ", g + 1, g + 1);
        put_text(out, group->title);
        fprintf(out, " (%zu case%s)</h3>\n<p>Shows in: ", group->count, group->count == 1 ? "" : "s");
        put_text(out, group->affects);
        fputs(".</p>\n<p>Shortest reproducer: <code>", out);
        report_xml_escape_field(out, shortest->id, sizeof(shortest->id), false);
        fputs("</code>", out);
        if (shortest->comparison.elements > 0)
            fprintf(out, " (%llu elements, %u dimensions)", (unsigned long long)shortest->comparison.elements,
                    (unsigned)shortest->dimension_count);
        fputs(": <code>", out);
        put_text(out, command ? command : "(out of memory)");
        fputs("</code>", out);
        if (shortest->repro_path[0])
        {
            fputs("; minimal reproducer <code>", out);
            report_xml_escape_field(out, shortest->repro_path, sizeof(shortest->repro_path), false);
            fputs("</code>", out);
        }
        fputs(".</p>\n", out);
        free(command);
        if (group->mismatches == 0)
        {
            fputs("<p>No element was outside its tolerance: nothing to chart.</p></section>\n", out);
            continue;
        }
        fprintf(out, "<p>%llu mismatching element%s of %llu.</p>\n<div class=\"charts\"><figure>",
                (unsigned long long)group->mismatches, group->mismatches == 1 ? "" : "s",
                (unsigned long long)group->elements);
        snprintf(id, sizeof(id), "group-%zu-positions", g + 1);
        report_svg_position_chart(out, id, group->position_mismatches, group->position_max_fraction,
                                  DMLCONF_CHART_HALF);
        fputs("</figure><figure>", out);
        snprintf(id, sizeof(id), "group-%zu-ulps", g + 1);
        report_svg_ulp_chart(out, id, group->ulp_histogram, DMLCONF_CHART_HALF);
        fputs("</figure></div></section>\n", out);
    }
    if (groups->count > CHARTED_GROUPS)
        fprintf(out, "<p>%zu more groups are only in the table above.</p>\n", groups->count - CHARTED_GROUPS);
    fputs("</section>\n", out);
}

int dmlconf_write_html(FILE *out, const dmlconf_report_input *in, char *why, size_t why_size)
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

    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>dmlconf: ",
          out);
    put_text(out, view->verdict.text);
    fputs("</title>\n<style>\n", out);
    fputs(report_html_style, out);
    fputs("</style>\n</head>\n<body>\n<header><h1>dmlconf conformance report</h1>\n", out);
    write_verdict(out, &view->verdict);
    fputs("</header>\n", out);
    write_run_info(out, view->fields);
    write_counts(out, matrix, in->end);
    write_load_errors(out, in);
    write_matrix(out, matrix);
    write_not_covered(out, matrix);
    write_histogram(out, matrix);
    write_device_times(out, in);
    write_groups(out, in, &view->groups);
    write_failing(out, in->info, in->results, view->failing, view->failing_count);
    write_noteworthy(out, in->results, view->noteworthy, view->noteworthy_count);
    fputs("<footer>dmlconf ", out);
    report_xml_escape_field(out, in->info->dmlconf_version, sizeof(in->info->dmlconf_version), false);
    fputs(" &#183; DirectML cumulative summation and product conformance</footer>\n</body>\n</html>\n", out);

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
