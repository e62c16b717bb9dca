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

#include <stdlib.h>
#include <string.h>

void dmlconf_xml_escape(FILE *out, const char *text, bool attribute)
{
    const char *at = text;
    char encoded[4];

    for (;;)
    {
        uint32_t cp;
        size_t length;
        size_t n = dmlconf_utf8_next(at, &cp);
        if (n == 0)
            break;
        at += n;
        switch (cp)
        {
        case '&':
            fputs("&amp;", out);
            continue;
        case '<':
            fputs("&lt;", out);
            continue;
        case '>':
            fputs("&gt;", out);
            continue;
        case '"':
            fputs("&quot;", out);
            continue;
        case '\'':
            fputs("&#39;", out);
            continue;
        case '\t':
        case '\n':
            if (attribute)
                fprintf(out, "&#%u;", (unsigned)cp);
            else
                fputc((int)cp, out);
            continue;
        case '\r':
            fputs("&#13;", out);
            continue;
        default:
            break;
        }
        /* XML 1.0 allows neither these nor U+FFFE/U+FFFF, even as
         * references. */
        if (cp < 0x20 || cp == 0x7f || cp == 0xfffe || cp == 0xffff)
            cp = DMLCONF_REPLACEMENT_CHARACTER;
        length = dmlconf_utf8_encode(cp, encoded);
        fwrite(encoded, 1, length, out);
    }
}

void dmlconf_xml_escape_field(FILE *out, const char *text, size_t size, bool attribute)
{
    size_t length = dmlconf_bounded_length(text, size);
    char *copy;

    if (length < size)
    {
        dmlconf_xml_escape(out, text, attribute);
        return;
    }
    copy = malloc(length + 1);
    if (!copy)
        return;
    memcpy(copy, text, length);
    copy[length] = '\0';
    dmlconf_xml_escape(out, copy, attribute);
    free(copy);
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
static void write_details(FILE *out, const dmlconf_run_info *info, const dmlconf_case_result *result)
{
    const dmlconf_comparison *comparison = &result->comparison;
    char line[1024];
    char *command;

    dmlconf_xml_escape_field(out, result->message, sizeof(result->message), false);
    fputc('\n', out);
    if (comparison->elements > 0)
    {
        fprintf(out, "mismatches: %llu of %llu elements (unjudged %llu); max error %.4g ulp, max %.4g x tolerance\n",
                (unsigned long long)comparison->mismatches, (unsigned long long)comparison->elements,
                (unsigned long long)comparison->unjudged, comparison->max_error_ulps,
                comparison->max_tolerance_fraction);
    }
    if (comparison->has_first)
    {
        dmlconf_format_mismatch(result->data_type, &comparison->first, line, sizeof(line));
        fputs("first mismatch: ", out);
        dmlconf_xml_escape(out, line, false);
        fputc('\n', out);
    }
    if (comparison->has_worst)
    {
        dmlconf_format_mismatch(result->data_type, &comparison->worst, line, sizeof(line));
        fputs("worst element: ", out);
        dmlconf_xml_escape(out, line, false);
        fputc('\n', out);
    }
    fputs("case: ", out);
    dmlconf_xml_escape_field(out, result->file, sizeof(result->file), false);
    fprintf(out, ":%u (%s, %s, %u dimensions, min feature level %s)\n", (unsigned)result->line, op_text(result->op),
            type_text(result->data_type), (unsigned)result->dimension_count,
            dmlconf_feature_level_name(result->min_feature_level)
                ? dmlconf_feature_level_name(result->min_feature_level)
                : "none");
    if (result->wall_seconds >= 0.0)
    {
        fprintf(out, "time: %.6f s wall", result->wall_seconds);
        if (result->backend_seconds >= 0.0)
            fprintf(out, ", %.6f s on the device", result->backend_seconds);
        fputc('\n', out);
    }
    command = dmlconf_report_repro_command(info, result);
    fputs("reproduce: ", out);
    dmlconf_xml_escape(out, command ? command : "(out of memory)", false);
    fputc('\n', out);
    free(command);
    if (result->repro_path[0])
    {
        fputs("reproducer: ", out);
        dmlconf_xml_escape_field(out, result->repro_path, sizeof(result->repro_path), false);
        fputc('\n', out);
    }
}

static void write_testcase(FILE *out, const dmlconf_run_info *info, const dmlconf_case_result *result)
{
    const junit_kind kind = kind_of(result->status);
    const char *message = result->message[0] ? result->message : dmlconf_status_text(result->status);

    fputs("    <testcase name=\"", out);
    dmlconf_xml_escape_field(out, result->id, sizeof(result->id), true);
    fprintf(out, "\" classname=\"dmlconf.%s.%s\" file=\"", op_text(result->op), type_text(result->data_type));
    dmlconf_xml_escape_field(out, result->file, sizeof(result->file), true);
    fprintf(out, "\" line=\"%u\" time=\"%.6f\"", (unsigned)result->line, seconds_of(result));
    if (kind == JUNIT_PASS && result->status != DMLCONF_STATUS_FLAKE)
    {
        fputs("/>\n", out);
        return;
    }
    fputs(">\n", out);
    if (kind != JUNIT_PASS)
    {
        const char *element = kind == JUNIT_FAILURE ? "failure" : kind == JUNIT_ERROR ? "error" : "skipped";
        /* A skip of what the backend does not support says so: CI can tell
         * the cases a run did not cover from those skipped for a reason. */
        const bool unsupported = result->status == DMLCONF_STATUS_SKIP && result->unsupported;
        fprintf(out, "      <%s type=\"%s\" message=\"", element,
                unsupported ? "unsupported" : dmlconf_status_text(result->status));
        dmlconf_xml_escape_field(out, message, result->message[0] ? sizeof(result->message) : strlen(message) + 1,
                                 true);
        fputs("\">", out);
        write_details(out, info, result);
        fprintf(out, "</%s>\n", element);
    }
    else
    {
        /* The message says how many attempts failed: a known flake may have
         * failed every one of them. */
        fprintf(out, "      <system-out>flake (%u attempt%s): ", (unsigned)result->attempts,
                result->attempts == 1 ? "" : "s");
        dmlconf_xml_escape_field(out, result->message, sizeof(result->message), false);
        fputs("</system-out>\n", out);
    }
    fputs("    </testcase>\n", out);
}

static void write_properties(FILE *out, const dmlconf_info_field *fields, const dmlconf_run_verdict *verdict)
{
    fputs("    <properties>\n", out);
    for (size_t i = 0; i < DMLCONF_INFO_FIELD_COUNT; ++i)
    {
        fprintf(out, "      <property name=\"%s\" value=\"", fields[i].key);
        dmlconf_xml_escape(out, fields[i].value, true);
        fputs("\"/>\n", out);
    }
    fprintf(out, "      <property name=\"verdict_status\" value=\"%s\"/>\n", dmlconf_run_status_name(verdict->status));
    fputs("      <property name=\"verdict\" value=\"", out);
    dmlconf_xml_escape(out, verdict->text, true);
    fputs("\"/>\n", out);
    fprintf(out, "      <property name=\"verdict_scope\" value=\"%s\"/>\n",
            dmlconf_scope_kind_name(verdict->scope.kind) ? dmlconf_scope_kind_name(verdict->scope.kind) : "files");
    fputs("      <property name=\"verdict_scope_text\" value=\"", out);
    dmlconf_xml_escape(out, verdict->scope_text, true);
    fputs("\"/>\n", out);
    fprintf(out, "      <property name=\"verdict_not_covered\" value=\"%llu\"/>\n",
            (unsigned long long)verdict->not_covered);
    fprintf(out, "      <property name=\"baseline\" value=\"%s\"/>\n", dmlconf_baseline_answer_name(verdict->baseline));
    fprintf(out, "      <property name=\"exit_status\" value=\"%d\"/>\n", verdict->exit_status);
    fputs("    </properties>\n", out);
}

/* The opening tag of a testsuite (counts, time, timestamp, host) and, for
 * the run's own suite only (fields not NULL), the properties: once a file,
 * not once a suite. */
static void open_suite(FILE *out, const char *name, size_t tests, size_t failures, size_t errors, size_t skipped,
                       double seconds, const dmlconf_report_input *in, const dmlconf_info_field *fields,
                       const dmlconf_run_verdict *verdict)
{
    fputs("  <testsuite name=\"", out);
    dmlconf_xml_escape(out, name, true);
    fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.6f\" timestamp=\"", tests,
            failures, errors, skipped, seconds);
    dmlconf_xml_escape_field(out, in->info->started_utc, sizeof(in->info->started_utc), true);
    fputs("\" hostname=\"", out);
    dmlconf_xml_escape_field(out, in->info->host, sizeof(in->info->host), true);
    fputs("\">\n", out);
    if (fields)
        write_properties(out, fields, verdict);
}

/* Writes one of the run's own testcases: `kind` with `type`, `text` and
 * `detail`. */
static void write_run_testcase(FILE *out, const char *name, double elapsed, junit_kind kind, const char *type,
                               const char *text, const char *scope, const char *detail)
{
    fprintf(out, "    <testcase name=\"%s\" classname=\"dmlconf.run\" time=\"%.6f\">\n", name, elapsed);
    if (kind == JUNIT_PASS)
    {
        fputs("      <system-out>", out);
        dmlconf_xml_escape(out, text, false);
        fputs(" (", out);
        dmlconf_xml_escape(out, scope, false);
        fputs("): ", out);
        dmlconf_xml_escape(out, detail, false);
        fputs("</system-out>\n", out);
    }
    else
    {
        const char *element = kind == JUNIT_ERROR ? "error" : "failure";
        fprintf(out, "      <%s type=\"%s\" message=\"", element, type);
        dmlconf_xml_escape(out, text, true);
        fputs(" (", out);
        dmlconf_xml_escape(out, scope, true);
        fputs(")\">", out);
        dmlconf_xml_escape(out, detail, false);
        fprintf(out, "</%s>\n", element);
    }
    fputs("    </testcase>\n", out);
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

/* The run's own testsuite: whether the run as a whole passes the gate, and
 * with a baseline whether it has regressions. */
static void write_verdict_suite(FILE *out, const dmlconf_report_input *in, const dmlconf_info_field *fields,
                                const dmlconf_run_verdict *verdict)
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
    open_suite(out, "dmlconf", tests, failures, errors, 0, elapsed, in, fields, verdict);
    write_run_testcase(out, "verdict", elapsed, kinds[0], dmlconf_run_status_name(verdict->status), verdict->text,
                       verdict->scope_text, verdict->detail);
    if (tests > 1)
        write_run_testcase(out, "no-regressions", elapsed, kinds[1], dmlconf_baseline_answer_name(verdict->baseline),
                           verdict->baseline_text, verdict->scope_text, verdict->detail);
    fputs("  </testsuite>\n", out);
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
static void write_corpus_suite(FILE *out, const dmlconf_report_input *in, const dmlconf_info_field *fields,
                               const dmlconf_run_verdict *verdict)
{
    const dmlconf_load_error *errors = in->load_errors;
    size_t files = count_error_files(errors, in->load_error_count);

    (void)fields;
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
        fputs("    <testcase name=\"", out);
        dmlconf_xml_escape(out, name, true);
        fputs("\" classname=\"dmlconf.corpus\"", out);
        if (errors[i].file)
        {
            fputs(" file=\"", out);
            dmlconf_xml_escape(out, errors[i].file, true);
            fputc('"', out);
        }
        fprintf(out, " time=\"0\">\n      <error type=\"load-error\" message=\"%zu error%s: ", in_file,
                in_file == 1 ? "" : "s");
        dmlconf_xml_escape(out, errors[i].message, true);
        fputs("\">", out);
        for (size_t j = i; j < in->load_error_count; ++j)
        {
            if (!same_file(&errors[j], &errors[i]))
                continue;
            dmlconf_xml_escape(out, name, false);
            if (errors[j].line)
                fprintf(out, ":%u:%u", (unsigned)errors[j].line, (unsigned)errors[j].column);
            fputs(": error: ", out);
            dmlconf_xml_escape(out, errors[j].message, false);
            fputc('\n', out);
        }
        fputs("The cases of this file did not all run: the run is incomplete.</error>\n    </testcase>\n", out);
    }
    fputs("  </testsuite>\n", out);
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

int dmlconf_write_junit(FILE *out, const dmlconf_report_input *in, char *why, size_t why_size)
{
    const dmlconf_case_result *results = in->results;
    const size_t count = in->count;
    suite_key *keys = count ? malloc(count * sizeof(*keys)) : NULL;
    dmlconf_info_field *fields = malloc(DMLCONF_INFO_FIELD_COUNT * sizeof(*fields));
    junit_counts all = {0, 0, 0, 0, 0.0};
    dmlconf_run_verdict verdict;
    junit_kind run_kinds[2];
    size_t run_tests, run_failures = 0, run_errors = 0;
    size_t error_files = count_error_files(in->load_errors, in->load_error_count);

    if ((count && !keys) || !fields)
    {
        free(keys);
        free(fields);
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    dmlconf_run_info_fields(in->info, fields);
    dmlconf_matrix_verdict(in->matrix, &verdict);
    run_kinds[0] = verdict_kind(&verdict);
    run_kinds[1] = baseline_kind(&verdict);
    run_tests = verdict.baseline != DMLCONF_BASELINE_NONE ? 2 : 1;
    for (size_t i = 0; i < run_tests; ++i)
    {
        run_failures += run_kinds[i] == JUNIT_FAILURE;
        run_errors += run_kinds[i] == JUNIT_ERROR;
    }
    for (size_t i = 0; i < count; ++i)
    {
        keys[i].op = (unsigned)results[i].op;
        keys[i].type = (unsigned)results[i].data_type;
        keys[i].index = i;
        count_result(&all, &results[i]);
    }
    if (count)
        qsort(keys, count, sizeof(*keys), compare_suite_keys);

    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    fprintf(out,
            "<testsuites name=\"dmlconf\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" "
            "time=\"%.6f\">\n",
            all.tests + run_tests + error_files, all.failures + run_failures, all.errors + run_errors + error_files,
            all.skipped, all.seconds);
    write_verdict_suite(out, in, fields, &verdict);
    if (in->load_error_count > 0)
        write_corpus_suite(out, in, fields, &verdict);
    for (size_t first = 0; first < count;)
    {
        const dmlconf_case_result *head = &results[keys[first].index];
        junit_counts suite = {0, 0, 0, 0, 0.0};
        char name[96];
        size_t end = first;

        while (end < count && keys[end].op == keys[first].op && keys[end].type == keys[first].type)
            count_result(&suite, &results[keys[end++].index]);
        snprintf(name, sizeof(name), "%s.%s", op_text(head->op), type_text(head->data_type));
        open_suite(out, name, suite.tests, suite.failures, suite.errors, suite.skipped, suite.seconds, in, NULL,
                   &verdict);
        for (size_t i = first; i < end; ++i)
            write_testcase(out, in->info, &results[keys[i].index]);
        fputs("  </testsuite>\n", out);
        first = end;
    }
    fputs("</testsuites>\n", out);
    free(keys);
    free(fields);
    if (ferror(out))
    {
        dmlconf_set_why(why, why_size, "write error");
        return -1;
    }
    return 0;
}
