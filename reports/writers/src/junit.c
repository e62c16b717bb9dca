/*
 * junit.xml for CI systems (GitLab, Jenkins, GitHub test reporters). A gate
 * that reads only this file must not pass a run the other reports fail, so
 * the run itself is a testcase too:
 *   testsuite "dmlconf" (with the run info, the verdict and its scope as
 *     properties, once), testcase "verdict": as the verdict's own exit
 *     status says (dmlconf/verdict.h): it passes only when the run is
 *     conformant at its target level or, for a scope that claims no
 *     conformance (a subset, the user's files, random cases, the
 *     self-check), passed; a <failure> when a case failed (not conformant,
 *     failed); an <error> when the verdict is incomplete, interrupted, or
 *     cases were not covered (type "partly-covered");
 *   testcase "no-regressions" when a baseline was applied: passes when there
 *     are none, a <failure> for regressions, an <error> when the run cannot
 *     answer (incomplete or interrupted);
 *   testsuite "dmlconf.corpus" (only when some did not load): one testcase
 *     per case file with errors, an <error> listing them with their
 *     file:line:column;
 *   then one testsuite per operator and data type, one testcase per case.
 * Also the XML escaping that the HTML report shares.
 *
 * Status mapping: fail and unexpected-pass are <failure>; error, crash,
 * timeout (and an unknown status) are <error>, and so is no-resources (type
 * "no-resources": not judged); skip and expected-fail are <skipped> (of
 * type "unsupported" for a case the backend does not support); pass and
 * flake pass (a flake says so in <system-out>). A case's time is its own
 * wall time.
 */
#include "report_internal.h"

#include <dmlconf/comparator.h>

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Writes `length` bytes to wherever an escaper's output goes. */
typedef void (*xml_emit)(void *context, const char *bytes, size_t length);

/* The escaping itself, for any destination: text up to its NUL. */
static void xml_escape_to(xml_emit emit, void *context, const char *text, bool attribute)
{
    const char *at = text;
    char encoded[4];

    for (;;)
    {
        uint32_t cp;
        size_t length;
        size_t n = report_utf8_next(at, &cp);
        if (n == 0)
            break;
        at += n;
        switch (cp)
        {
        case '&':
            emit(context, "&amp;", 5);
            continue;
        case '<':
            emit(context, "&lt;", 4);
            continue;
        case '>':
            emit(context, "&gt;", 4);
            continue;
        case '"':
            emit(context, "&quot;", 6);
            continue;
        case '\'':
            emit(context, "&#39;", 5);
            continue;
        case '\t':
            emit(context, attribute ? "&#9;" : "\t", attribute ? 4 : 1);
            continue;
        case '\n':
            emit(context, attribute ? "&#10;" : "\n", attribute ? 5 : 1);
            continue;
        case '\r':
            emit(context, "&#13;", 5);
            continue;
        default:
            break;
        }
        /* XML 1.0 allows neither these nor U+FFFE/U+FFFF, even as
         * references. */
        if (cp < 0x20 || cp == 0x7f || cp == 0xfffe || cp == 0xffff)
            cp = DMLCONF_REPLACEMENT_CHARACTER;
        length = report_utf8_encode(cp, encoded);
        emit(context, encoded, length);
    }
}

static void emit_to_file(void *context, const char *bytes, size_t length)
{
    fwrite(bytes, 1, length, (FILE *)context);
}

void report_xml_escape(FILE *out, const char *text, bool attribute)
{
    xml_escape_to(emit_to_file, out, text, attribute);
}

/* A copy of a fixed buffer's string that may lack its NUL; NULL when memory
 * runs out. *copied says whether the caller frees it (else it is `text`). */
static const char *terminated(const char *text, size_t size, bool *copied)
{
    size_t length = dmlconf_bounded_length(text, size);
    char *copy;

    *copied = false;
    if (length < size)
        return text;
    copy = malloc(length + 1);
    if (!copy)
        return NULL;
    memcpy(copy, text, length);
    copy[length] = '\0';
    *copied = true;
    return copy;
}

void report_xml_escape_field(FILE *out, const char *text, size_t size, bool attribute)
{
    bool copied;
    const char *whole = terminated(text, size, &copied);

    if (whole)
        report_xml_escape(out, whole, attribute);
    if (copied)
        free((char *)whole);
}

/* ---- where junit.xml goes ------------------------------------------------------ */

/* The stream junit.xml is written to, or nowhere (file NULL) while a part
 * of it is measured; `bytes` counts what went (or would have gone) out. */
typedef struct junit_sink
{
    FILE *file;
    uint64_t bytes;
} junit_sink;

static void sink_write(void *context, const char *bytes, size_t length)
{
    junit_sink *sink = context;
    sink->bytes += length;
    if (sink->file)
        fwrite(bytes, 1, length, sink->file);
}

static void sink_puts(junit_sink *sink, const char *text)
{
    sink_write(sink, text, strlen(text));
}

static void sink_printf(junit_sink *sink, const char *format, ...) DMLCONF_PRINTF_LIKE(2, 3);
static void sink_printf(junit_sink *sink, const char *format, ...)
{
    char text[512];
    va_list args;
    int length;

    va_start(args, format);
    length = vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    if (length <= 0)
        return;
    if ((size_t)length < sizeof(text))
    {
        sink_write(sink, text, (size_t)length);
        return;
    }
    /* Longer than the formats here print: on the heap. */
    char *long_text = malloc((size_t)length + 1);
    if (!long_text)
        return;
    va_start(args, format);
    vsnprintf(long_text, (size_t)length + 1, format, args);
    va_end(args);
    sink_write(sink, long_text, (size_t)length);
    free(long_text);
}

static void sink_escape(junit_sink *sink, const char *text, bool attribute)
{
    xml_escape_to(sink_write, sink, text, attribute);
}

static void sink_escape_field(junit_sink *sink, const char *text, size_t size, bool attribute)
{
    bool copied;
    const char *whole = terminated(text, size, &copied);

    if (whole)
        sink_escape(sink, whole, attribute);
    if (copied)
        free((char *)whole);
}

typedef enum junit_kind
{
    JUNIT_PASS,
    JUNIT_FAILURE,
    JUNIT_ERROR,
    JUNIT_SKIPPED,
} junit_kind;

static junit_kind kind_of(dmlconf_status status)
{
    switch (status)
    {
    case DMLCONF_STATUS_PASS:
    case DMLCONF_STATUS_FLAKE:
        return JUNIT_PASS;
    case DMLCONF_STATUS_FAIL:
    case DMLCONF_STATUS_UNEXPECTED_PASS:
        return JUNIT_FAILURE;
    case DMLCONF_STATUS_SKIP:
    case DMLCONF_STATUS_EXPECTED_FAIL:
        return JUNIT_SKIPPED;
    case DMLCONF_STATUS_ERROR:
    case DMLCONF_STATUS_CRASH:
    case DMLCONF_STATUS_TIMEOUT:
    case DMLCONF_STATUS_NO_RESOURCES:
    case DMLCONF_STATUS_COUNT:
        break;
    }
    return JUNIT_ERROR;
}

static const char *op_text(dmlconf_operator op)
{
    const char *name = dmlconf_operator_name(op);
    return name ? name : "unknown_operator";
}

static const char *type_text(dmlconf_data_type type)
{
    const char *name = dmlconf_data_type_name(type);
    return name ? name : "UNKNOWN";
}

typedef struct suite_key
{
    unsigned op;
    unsigned type;
    size_t index;
} suite_key;

static int compare_suite_keys(const void *a, const void *b)
{
    const suite_key *x = a;
    const suite_key *y = b;

    if (x->op != y->op)
        return x->op < y->op ? -1 : 1;
    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index ? 1 : 0;
}

static double seconds_of(const dmlconf_case_result *result)
{
    return result->wall_seconds > 0.0 ? result->wall_seconds : 0.0;
}

/* The text inside <failure>, <error> or <skipped>: the message, the
 * comparison, where the case lives, its times and how to rerun it. */
static void write_details(junit_sink *out, const dmlconf_run_info *info, const dmlconf_case_result *result)
{
    const dmlconf_comparison *comparison = &result->comparison;
    char line[1024];
    char *command;

    sink_escape_field(out, result->message, sizeof(result->message), false);
    sink_puts(out, "\n");
    if (comparison->elements > 0)
    {
        sink_printf(
            out, "mismatches: %llu of %llu elements (unjudged %llu); max error %.4g ulp, max %.4g x tolerance\n",
            (unsigned long long)comparison->mismatches, (unsigned long long)comparison->elements,
            (unsigned long long)comparison->unjudged, comparison->max_error_ulps, comparison->max_tolerance_fraction);
    }
    if (comparison->has_first)
    {
        dmlconf_format_mismatch(result->data_type, &comparison->first, line, sizeof(line));
        sink_puts(out, "first mismatch: ");
        sink_escape(out, line, false);
        sink_puts(out, "\n");
    }
    if (comparison->has_worst)
    {
        dmlconf_format_mismatch(result->data_type, &comparison->worst, line, sizeof(line));
        sink_puts(out, "worst element: ");
        sink_escape(out, line, false);
        sink_puts(out, "\n");
    }
    sink_puts(out, "case: ");
    sink_escape_field(out, result->file, sizeof(result->file), false);
    sink_printf(out, ":%u (%s, %s, %u dimensions, min feature level %s)\n", (unsigned)result->line, op_text(result->op),
                type_text(result->data_type), (unsigned)result->dimension_count,
                dmlconf_feature_level_name(result->min_feature_level)
                    ? dmlconf_feature_level_name(result->min_feature_level)
                    : "none");
    if (result->wall_seconds >= 0.0)
    {
        sink_printf(out, "time: %.6f s wall", result->wall_seconds);
        if (result->backend_seconds >= 0.0)
            sink_printf(out, ", %.6f s on the device", result->backend_seconds);
        sink_puts(out, "\n");
    }
    command = report_repro_command(info, result);
    sink_puts(out, "reproduce: ");
    sink_escape(out, command ? command : "(out of memory)", false);
    sink_puts(out, "\n");
    free(command);
    if (result->repro_path[0])
    {
        sink_puts(out, "reproducer: ");
        sink_escape_field(out, result->repro_path, sizeof(result->repro_path), false);
        sink_puts(out, "\n");
    }
}

static void write_testcase(junit_sink *out, const dmlconf_run_info *info, const dmlconf_case_result *result)
{
    const junit_kind kind = kind_of(result->status);
    const char *message = result->message[0] ? result->message : report_status_text(result->status);

    sink_puts(out, "    <testcase name=\"");
    sink_escape_field(out, result->id, sizeof(result->id), true);
    sink_printf(out, "\" classname=\"dmlconf.%s.%s\" file=\"", op_text(result->op), type_text(result->data_type));
    sink_escape_field(out, result->file, sizeof(result->file), true);
    sink_printf(out, "\" line=\"%u\" time=\"%.6f\"", (unsigned)result->line, seconds_of(result));
    if (kind == JUNIT_PASS && result->status != DMLCONF_STATUS_FLAKE)
    {
        sink_puts(out, "/>\n");
        return;
    }
    sink_puts(out, ">\n");
    if (kind != JUNIT_PASS)
    {
        const char *element = kind == JUNIT_FAILURE ? "failure" : kind == JUNIT_ERROR ? "error" : "skipped";
        /* A skip of what the backend does not support says so: CI can tell
         * the cases a run did not cover from those skipped for a reason. */
        const bool unsupported = result->status == DMLCONF_STATUS_SKIP && result->unsupported;
        sink_printf(out, "      <%s type=\"%s\" message=\"", element,
                    unsupported ? "unsupported" : report_status_text(result->status));
        sink_escape_field(out, message, result->message[0] ? sizeof(result->message) : strlen(message) + 1, true);
        sink_puts(out, "\">");
        write_details(out, info, result);
        sink_printf(out, "</%s>\n", element);
    }
    else
    {
        /* The message says how many attempts failed: a known flake may have
         * failed every one of them. */
        sink_printf(out, "      <system-out>flake (%u attempt%s): ", (unsigned)result->attempts,
                    result->attempts == 1 ? "" : "s");
        sink_escape_field(out, result->message, sizeof(result->message), false);
        sink_puts(out, "</system-out>\n");
    }
    sink_puts(out, "    </testcase>\n");
}

static void write_properties(junit_sink *out, const report_info_field *fields, const dmlconf_run_verdict *verdict)
{
    sink_puts(out, "    <properties>\n");
    for (size_t i = 0; i < DMLCONF_INFO_FIELD_COUNT; ++i)
    {
        sink_printf(out, "      <property name=\"%s\" value=\"", fields[i].key);
        sink_escape(out, fields[i].value, true);
        sink_puts(out, "\"/>\n");
    }
    sink_printf(out, "      <property name=\"verdict_status\" value=\"%s\"/>\n",
                dmlconf_run_status_name(verdict->status));
    sink_puts(out, "      <property name=\"verdict\" value=\"");
    sink_escape(out, verdict->text, true);
    sink_puts(out, "\"/>\n");
    sink_printf(out, "      <property name=\"verdict_scope\" value=\"%s\"/>\n",
                dmlconf_scope_kind_name(verdict->scope.kind) ? dmlconf_scope_kind_name(verdict->scope.kind) : "files");
    sink_puts(out, "      <property name=\"verdict_scope_text\" value=\"");
    sink_escape(out, verdict->scope_text, true);
    sink_puts(out, "\"/>\n");
    sink_printf(out, "      <property name=\"verdict_not_covered\" value=\"%llu\"/>\n",
                (unsigned long long)verdict->not_covered);
    sink_printf(out, "      <property name=\"baseline\" value=\"%s\"/>\n",
                dmlconf_baseline_answer_name(verdict->baseline));
    sink_printf(out, "      <property name=\"exit_status\" value=\"%d\"/>\n", verdict->exit_status);
    sink_puts(out, "    </properties>\n");
}

/* The opening tag of a testsuite (counts, time, timestamp, host) and, for
 * the run's own suite only (fields not NULL), the properties: once a file,
 * not once a suite. */
static void open_suite(junit_sink *out, const char *name, size_t tests, size_t failures, size_t errors, size_t skipped,
                       double seconds, const dmlconf_report_input *in, const report_info_field *fields,
                       const dmlconf_run_verdict *verdict)
{
    sink_puts(out, "  <testsuite name=\"");
    sink_escape(out, name, true);
    sink_printf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.6f\" timestamp=\"",
                tests, failures, errors, skipped, seconds);
    sink_escape_field(out, in->info->started_utc, sizeof(in->info->started_utc), true);
    sink_puts(out, "\" hostname=\"");
    sink_escape_field(out, in->info->host, sizeof(in->info->host), true);
    sink_puts(out, "\">\n");
    if (fields)
        write_properties(out, fields, verdict);
}

/* Writes one of the run's own testcases: `kind` with `type`, `text` and
 * `detail`. */
static void write_run_testcase(junit_sink *out, const char *name, double elapsed, junit_kind kind, const char *type,
                               const char *text, const char *scope, const char *detail)
{
    sink_printf(out, "    <testcase name=\"%s\" classname=\"dmlconf.run\" time=\"%.6f\">\n", name, elapsed);
    if (kind == JUNIT_PASS)
    {
        sink_puts(out, "      <system-out>");
        sink_escape(out, text, false);
        sink_puts(out, " (");
        sink_escape(out, scope, false);
        sink_puts(out, "): ");
        sink_escape(out, detail, false);
        sink_puts(out, "</system-out>\n");
    }
    else
    {
        const char *element = kind == JUNIT_ERROR ? "error" : "failure";
        sink_printf(out, "      <%s type=\"%s\" message=\"", element, type);
        sink_escape(out, text, true);
        sink_puts(out, " (");
        sink_escape(out, scope, true);
        sink_puts(out, ")\">");
        sink_escape(out, detail, false);
        sink_printf(out, "</%s>\n", element);
    }
    sink_puts(out, "    </testcase>\n");
}

/* The pass/failure/error an exit status stands for. */
static junit_kind kind_of_exit(int exit_status)
{
    return exit_status == DMLCONF_EXIT_PASSED   ? JUNIT_PASS
           : exit_status == DMLCONF_EXIT_FAILED ? JUNIT_FAILURE
                                                : JUNIT_ERROR;
}

/* The verdict testcase's pass/failure/error: the verdict's own exit
 * status, without the baseline's answer. */
static junit_kind verdict_kind(const dmlconf_run_verdict *verdict)
{
    dmlconf_run_verdict alone = *verdict;
    alone.baseline = DMLCONF_BASELINE_NONE;
    return kind_of_exit(dmlconf_verdict_exit_status(&alone));
}

/* The no-regressions testcase's. */
static junit_kind baseline_kind(const dmlconf_run_verdict *verdict)
{
    return verdict->baseline == DMLCONF_BASELINE_NO_REGRESSIONS ? JUNIT_PASS
           : verdict->baseline == DMLCONF_BASELINE_REGRESSIONS  ? JUNIT_FAILURE
                                                                : JUNIT_ERROR;
}

/* What a junit.xml held to --junit-max-bytes leaves out. */
typedef struct junit_left_out
{
    uint64_t limit;                             /* the limit, in bytes */
    size_t count;                               /* case testcases left out */
    size_t total;                               /* case testcases of the run */
    size_t statuses[DMLCONF_STATUS_COUNT + 1u]; /* left out per status; the last: statuses outside the enum */
} junit_left_out;

/* The run's testcase that stands for the case testcases left out: skipped
 * (it judges nothing: the verdict testcase judges every case), saying how
 * many, of which statuses, and where every one of them is. */
static void write_left_out_testcase(junit_sink *out, const junit_left_out *left)
{
    bool listed = false;

    sink_printf(out,
                "    <testcase name=\"left-out\" classname=\"dmlconf.run\" time=\"0\">\n"
                "      <skipped type=\"left-out\" message=\"%zu of the %zu case testcases left out to keep junit.xml "
                "within %llu bytes (--junit-max-bytes); results.jsonl lists every case\">",
                left->count, left->total, (unsigned long long)left->limit);
    sink_puts(out, "Left out, by status: ");
    for (size_t s = 0; s <= DMLCONF_STATUS_COUNT; ++s)
    {
        if (!left->statuses[s])
            continue;
        sink_printf(out, "%s%s %zu", listed ? ", " : "",
                    s < DMLCONF_STATUS_COUNT ? report_status_text((dmlconf_status)s) : "unknown", left->statuses[s]);
        listed = true;
    }
    sink_puts(out, ".\nFailing cases come first, so a case that failed is left out only when the failures alone do "
                   "not fit. The verdict testcase judges every case, those left out included. results.jsonl (next "
                   "to this file) holds every case with its message and comparison; failures.txt lists every "
                   "failing id.</skipped>\n    </testcase>\n");
}

/* The run's own testsuite: whether the run as a whole passes the gate,
 * with a baseline whether it has regressions, and the testcases left out
 * (left: NULL when none was). */
static void write_verdict_suite(junit_sink *out, const dmlconf_report_input *in, const report_info_field *fields,
                                const dmlconf_run_verdict *verdict, const junit_left_out *left)
{
    double elapsed = in->end->elapsed_seconds > 0.0 ? in->end->elapsed_seconds : 0.0;
    const junit_kind kinds[2] = {verdict_kind(verdict), baseline_kind(verdict)};
    const size_t tests = verdict->baseline != DMLCONF_BASELINE_NONE ? 2 : 1;
    size_t failures = 0, errors = 0;

    for (size_t i = 0; i < tests; ++i)
    {
        failures += kinds[i] == JUNIT_FAILURE;
        errors += kinds[i] == JUNIT_ERROR;
    }
    open_suite(out, "dmlconf", tests + (left ? 1 : 0), failures, errors, left ? 1 : 0, elapsed, in, fields, verdict);
    write_run_testcase(out, "verdict", elapsed, kinds[0], dmlconf_run_status_name(verdict->status), verdict->text,
                       verdict->scope_text, verdict->detail);
    if (tests > 1)
        write_run_testcase(out, "no-regressions", elapsed, kinds[1], dmlconf_baseline_answer_name(verdict->baseline),
                           verdict->baseline_text, verdict->scope_text, verdict->detail);
    if (left)
        write_left_out_testcase(out, left);
    sink_puts(out, "  </testsuite>\n");
}

/* Whether two load errors name the same file (both may have none). */
static bool same_file(const dmlconf_load_error *a, const dmlconf_load_error *b)
{
    if (!a->file || !b->file)
        return !a->file && !b->file;
    return strcmp(a->file, b->file) == 0;
}

/* The number of files (a missing file counting as one) among the load
 * errors; errors of one file need not be next to each other. */
static size_t count_error_files(const dmlconf_load_error *errors, size_t count)
{
    size_t files = 0;

    for (size_t i = 0; i < count; ++i)
    {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; ++j)
            seen = same_file(&errors[j], &errors[i]);
        files += !seen;
    }
    return files;
}

/* One erroring testcase per case file that did not load (completely). */
static void write_corpus_suite(junit_sink *out, const dmlconf_report_input *in, const dmlconf_run_verdict *verdict)
{
    const dmlconf_load_error *errors = in->load_errors;
    size_t files = count_error_files(errors, in->load_error_count);

    open_suite(out, "dmlconf.corpus", files, 0, files, 0, 0.0, in, NULL, verdict);
    for (size_t i = 0; i < in->load_error_count; ++i)
    {
        const char *name = errors[i].file ? errors[i].file : "(the corpus)";
        size_t in_file = 0;
        bool seen = false;

        for (size_t j = 0; j < i && !seen; ++j)
            seen = same_file(&errors[j], &errors[i]);
        if (seen)
            continue;
        for (size_t j = i; j < in->load_error_count; ++j)
            in_file += same_file(&errors[j], &errors[i]);
        sink_puts(out, "    <testcase name=\"");
        sink_escape(out, name, true);
        sink_puts(out, "\" classname=\"dmlconf.corpus\"");
        if (errors[i].file)
        {
            sink_puts(out, " file=\"");
            sink_escape(out, errors[i].file, true);
            sink_puts(out, "\"");
        }
        sink_printf(out, " time=\"0\">\n      <error type=\"load-error\" message=\"%zu error%s: ", in_file,
                    in_file == 1 ? "" : "s");
        sink_escape(out, errors[i].message, true);
        sink_puts(out, "\">");
        for (size_t j = i; j < in->load_error_count; ++j)
        {
            if (!same_file(&errors[j], &errors[i]))
                continue;
            sink_escape(out, name, false);
            if (errors[j].line)
                sink_printf(out, ":%u:%u", (unsigned)errors[j].line, (unsigned)errors[j].column);
            sink_puts(out, ": error: ");
            sink_escape(out, errors[j].message, false);
            sink_puts(out, "\n");
        }
        sink_puts(out, "The cases of this file did not all run: the run is incomplete.</error>\n    </testcase>\n");
    }
    sink_puts(out, "  </testsuite>\n");
}

typedef struct junit_counts
{
    size_t tests;
    size_t failures;
    size_t errors;
    size_t skipped;
    double seconds;
} junit_counts;

static void count_result(junit_counts *counts, const dmlconf_case_result *result)
{
    ++counts->tests;
    switch (kind_of(result->status))
    {
    case JUNIT_FAILURE:
        ++counts->failures;
        break;
    case JUNIT_ERROR:
        ++counts->errors;
        break;
    case JUNIT_SKIPPED:
        ++counts->skipped;
        break;
    case JUNIT_PASS:
        break;
    }
    counts->seconds += seconds_of(result);
}

/* Everything one junit.xml is written from: the run, its results in suite
 * order (keys), which case testcases it holds (keep[i] for results[i]),
 * and what it leaves out (NULL: nothing). */
typedef struct junit_document
{
    const dmlconf_report_input *in;
    const suite_key *keys;
    const bool *keep;
    const report_info_field *fields;
    const dmlconf_run_verdict *verdict;
    const junit_left_out *left;
} junit_document;

/* The case testsuites from keys[first] on, one operator and data type: the
 * end of that suite, and its counts over the cases kept. */
static size_t suite_end(const junit_document *doc, size_t first, junit_counts *kept, junit_counts *all)
{
    const suite_key *keys = doc->keys;
    size_t end = first;

    memset(kept, 0, sizeof(*kept));
    memset(all, 0, sizeof(*all));
    while (end < doc->in->count && keys[end].op == keys[first].op && keys[end].type == keys[first].type)
    {
        const dmlconf_case_result *result = &doc->in->results[keys[end].index];
        count_result(all, result);
        if (doc->keep[keys[end].index])
            count_result(kept, result);
        ++end;
    }
    return end;
}

static void suite_name(const dmlconf_case_result *head, char *name, size_t size)
{
    snprintf(name, size, "%s.%s", op_text(head->op), type_text(head->data_type));
}

static void write_document(junit_sink *out, const junit_document *doc)
{
    const dmlconf_report_input *in = doc->in;
    const dmlconf_run_verdict *verdict = doc->verdict;
    junit_counts all = {0, 0, 0, 0, 0.0};
    const junit_kind run_kinds[2] = {verdict_kind(verdict), baseline_kind(verdict)};
    const size_t run_tests = verdict->baseline != DMLCONF_BASELINE_NONE ? 2 : 1;
    size_t run_failures = 0, run_errors = 0;
    size_t error_files = count_error_files(in->load_errors, in->load_error_count);

    for (size_t i = 0; i < run_tests; ++i)
    {
        run_failures += run_kinds[i] == JUNIT_FAILURE;
        run_errors += run_kinds[i] == JUNIT_ERROR;
    }
    for (size_t i = 0; i < in->count; ++i)
    {
        if (doc->keep[i])
            count_result(&all, &in->results[i]);
    }
    sink_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sink_printf(out,
                "<testsuites name=\"dmlconf\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" "
                "time=\"%.6f\">\n",
                all.tests + run_tests + error_files + (doc->left ? 1 : 0), all.failures + run_failures,
                all.errors + run_errors + error_files, all.skipped + (doc->left ? 1 : 0), all.seconds);
    write_verdict_suite(out, in, doc->fields, verdict, doc->left);
    if (in->load_error_count > 0)
        write_corpus_suite(out, in, verdict);
    for (size_t first = 0; first < in->count;)
    {
        junit_counts kept, suite;
        size_t end = suite_end(doc, first, &kept, &suite);
        char name[96];

        if (kept.tests > 0)
        {
            suite_name(&in->results[doc->keys[first].index], name, sizeof(name));
            open_suite(out, name, kept.tests, kept.failures, kept.errors, kept.skipped, kept.seconds, in, NULL,
                       verdict);
            for (size_t i = first; i < end; ++i)
            {
                if (doc->keep[doc->keys[i].index])
                    write_testcase(out, in->info, &in->results[doc->keys[i].index]);
            }
            sink_puts(out, "  </testsuite>\n");
        }
        first = end;
    }
    sink_puts(out, "</testsuites>\n");
}

/* Which testcases a limited junit.xml keeps first: failures and errors,
 * then flakes, then skips, then passes. */
static unsigned keep_rank(const dmlconf_case_result *result)
{
    switch (kind_of(result->status))
    {
    case JUNIT_FAILURE:
    case JUNIT_ERROR:
        return 0;
    case JUNIT_PASS:
        return result->status == DMLCONF_STATUS_FLAKE ? 1 : 3;
    case JUNIT_SKIPPED:
        break;
    }
    return 2;
}

typedef struct ranked_case
{
    unsigned rank;
    size_t position; /* in suite order */
} ranked_case;

static int compare_ranked(const void *a, const void *b)
{
    const ranked_case *x = a;
    const ranked_case *y = b;

    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return x->position < y->position ? -1 : x->position > y->position ? 1 : 0;
}

/* Room for the digits by which the <testsuites> tag of the document as
 * measured (with no case kept) may fall short of the one written: five
 * numbers of up to 20 digits. */
#define JUNIT_TAG_SLACK 128u

/* Decides which case testcases a junit.xml of at most in->junit_max_bytes
 * holds (keep[], all true on entry) and fills *left. The measure is exact
 * for each testcase and an upper bound for the tags that count them, so
 * the file fits unless the run's own testsuite alone does not. Returns 0,
 * or -1 when memory runs out. */
static int choose_kept(junit_document *doc, bool *keep, junit_left_out *left)
{
    const dmlconf_report_input *in = doc->in;
    const uint64_t limit = in->junit_max_bytes;
    junit_sink measure = {NULL, 0};
    ranked_case *order = malloc(in->count * sizeof(*order));
    uint64_t *case_bytes = malloc(in->count * sizeof(*case_bytes));
    uint64_t *suite_bytes = malloc(in->count * sizeof(*suite_bytes)); /* by the suite's first position */
    size_t *suite_of = malloc(in->count * sizeof(*suite_of));         /* a position's suite's first position */
    bool *suite_open = calloc(in->count, sizeof(*suite_open));
    uint64_t fixed, used;
    unsigned last_rank = UINT_MAX; /* the rank of the first testcase left out */
    int rc = -1;

    memset(left, 0, sizeof(*left));
    left->limit = limit;
    left->total = in->count;
    if (!order || !case_bytes || !suite_bytes || !suite_of || !suite_open)
        goto done;
    doc->left = NULL;
    write_document(&measure, doc);
    if (measure.bytes <= limit)
    {
        rc = 0;
        goto done;
    }
    /* What the file holds whatever it keeps: the run's own testsuites, the
     * left-out testcase with every number at its largest. */
    for (size_t s = 0; s <= DMLCONF_STATUS_COUNT; ++s)
        left->statuses[s] = in->count;
    left->count = in->count;
    for (size_t i = 0; i < in->count; ++i)
        keep[i] = false;
    doc->left = left;
    measure.bytes = 0;
    write_document(&measure, doc);
    fixed = measure.bytes + JUNIT_TAG_SLACK;
    /* Each case testcase, and each case testsuite's tags. */
    for (size_t first = 0; first < in->count;)
    {
        junit_counts kept, suite;
        size_t end;
        char name[96];

        end = suite_end(doc, first, &kept, &suite);
        suite_name(&in->results[doc->keys[first].index], name, sizeof(name));
        measure.bytes = 0;
        open_suite(&measure, name, suite.tests, suite.failures, suite.errors, suite.skipped, suite.seconds, in, NULL,
                   doc->verdict);
        sink_puts(&measure, "  </testsuite>\n");
        suite_bytes[first] = measure.bytes;
        for (size_t i = first; i < end; ++i)
        {
            const dmlconf_case_result *result = &in->results[doc->keys[i].index];
            measure.bytes = 0;
            write_testcase(&measure, in->info, result);
            case_bytes[i] = measure.bytes;
            suite_of[i] = first;
            order[i] = (ranked_case){keep_rank(result), i};
        }
        first = end;
    }
    qsort(order, in->count, sizeof(*order), compare_ranked);
    /* As many as fit, the most telling first: once a testcase does not
     * fit, none of a less telling rank is kept (a pass never stands where
     * a failure was left out). */
    used = fixed;
    memset(left->statuses, 0, sizeof(left->statuses));
    left->count = 0;
    for (size_t k = 0; k < in->count; ++k)
    {
        size_t i = order[k].position;
        size_t suite = suite_of[i];
        uint64_t cost = case_bytes[i] + (suite_open[suite] ? 0 : suite_bytes[suite]);
        const dmlconf_case_result *result = &in->results[doc->keys[i].index];
        if (order[k].rank <= last_rank && used <= limit && cost <= limit - used)
        {
            used += cost;
            suite_open[suite] = true;
            keep[doc->keys[i].index] = true;
            continue;
        }
        if (order[k].rank < last_rank)
            last_rank = order[k].rank;
        ++left->count;
        ++left->statuses[(unsigned)result->status < DMLCONF_STATUS_COUNT ? (size_t)result->status
                                                                         : (size_t)DMLCONF_STATUS_COUNT];
    }
    rc = 0;
done:
    free(order);
    free(case_bytes);
    free(suite_bytes);
    free(suite_of);
    free(suite_open);
    return rc;
}

int dmlconf_write_junit(FILE *out, const dmlconf_report_input *in, char *why, size_t why_size)
{
    const dmlconf_case_result *results = in->results;
    const size_t count = in->count;
    suite_key *keys = count ? malloc(count * sizeof(*keys)) : NULL;
    bool *keep = count ? malloc(count * sizeof(*keep)) : NULL;
    report_info_field *fields = malloc(DMLCONF_INFO_FIELD_COUNT * sizeof(*fields));
    dmlconf_run_verdict verdict;
    junit_left_out left;
    junit_document doc = {in, keys, keep, fields, &verdict, NULL};
    junit_sink sink = {out, 0};
    int rc = -1;

    if ((count && (!keys || !keep)) || !fields)
        goto oom;
    report_run_info_fields(in->info, fields);
    dmlconf_matrix_verdict(in->matrix, &verdict);
    for (size_t i = 0; i < count; ++i)
    {
        keys[i].op = (unsigned)results[i].op;
        keys[i].type = (unsigned)results[i].data_type;
        keys[i].index = i;
        keep[i] = true;
    }
    if (count)
        qsort(keys, count, sizeof(*keys), compare_suite_keys);
    if (in->junit_max_bytes > 0 && count > 0)
    {
        if (choose_kept(&doc, keep, &left) != 0)
            goto oom;
        doc.left = left.count > 0 ? &left : NULL;
    }
    write_document(&sink, &doc);
    if (ferror(out))
    {
        dmlconf_set_why(why, why_size, "write error");
        goto done;
    }
    rc = 0;
    goto done;
oom:
    dmlconf_set_why(why, why_size, "out of memory");
done:
    free(keys);
    free(keep);
    free(fields);
    return rc;
}
