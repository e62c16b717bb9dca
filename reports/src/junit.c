/*
 * junit.xml for CI systems (GitLab, Jenkins, GitHub test reporters): one
 * testsuite per operator and data type, one testcase per case, the run info
 * as properties. Also the XML escaping that the HTML report shares.
 *
 * Status mapping: fail and unexpected-pass are <failure>; error, crash,
 * timeout (and an unknown status) are <error>; skip and expected-fail are
 * <skipped>; pass and flake pass (a flake says so in <system-out>).
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
 * comparison, where the case lives and how to rerun it. */
static void write_details(FILE *out, const dmlconf_case_result *result)
{
    const dmlconf_comparison *comparison = &result->comparison;
    char line[1024];

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
    dmlconf_report_format_repro(result->id, line, sizeof(line));
    fputs("reproduce: ", out);
    dmlconf_xml_escape(out, line, false);
    fputc('\n', out);
    if (result->repro_path[0])
    {
        fputs("reproducer: ", out);
        dmlconf_xml_escape_field(out, result->repro_path, sizeof(result->repro_path), false);
        fputc('\n', out);
    }
}

static void write_testcase(FILE *out, const dmlconf_case_result *result)
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
        fprintf(out, "      <%s type=\"%s\" message=\"", element, dmlconf_status_text(result->status));
        dmlconf_xml_escape_field(out, message, result->message[0] ? sizeof(result->message) : strlen(message) + 1,
                                 true);
        fputs("\">", out);
        write_details(out, result);
        fprintf(out, "</%s>\n", element);
    }
    else
    {
        fprintf(out, "      <system-out>flaky: passed after %u attempts; ", (unsigned)result->attempts);
        dmlconf_xml_escape_field(out, result->message, sizeof(result->message), false);
        fputs("</system-out>\n", out);
    }
    fputs("    </testcase>\n", out);
}

static void write_properties(FILE *out, const dmlconf_info_field *fields)
{
    fputs("    <properties>\n", out);
    for (size_t i = 0; i < DMLCONF_INFO_FIELD_COUNT; ++i)
    {
        fprintf(out, "      <property name=\"%s\" value=\"", fields[i].key);
        dmlconf_xml_escape(out, fields[i].value, true);
        fputs("\"/>\n", out);
    }
    fputs("    </properties>\n", out);
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

int dmlconf_write_junit(FILE *out, const dmlconf_run_info *info, const dmlconf_case_result *results, size_t count,
                        char *why, size_t why_size)
{
    suite_key *keys = count ? malloc(count * sizeof(*keys)) : NULL;
    dmlconf_info_field *fields = malloc(DMLCONF_INFO_FIELD_COUNT * sizeof(*fields));
    junit_counts all = {0, 0, 0, 0, 0.0};

    if ((count && !keys) || !fields)
    {
        free(keys);
        free(fields);
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    dmlconf_run_info_fields(info, fields);
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
            all.tests, all.failures, all.errors, all.skipped, all.seconds);
    for (size_t first = 0; first < count;)
    {
        const dmlconf_case_result *head = &results[keys[first].index];
        junit_counts suite = {0, 0, 0, 0, 0.0};
        size_t end = first;

        while (end < count && keys[end].op == keys[first].op && keys[end].type == keys[first].type)
            count_result(&suite, &results[keys[end++].index]);

        fprintf(out,
                "  <testsuite name=\"%s.%s\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" "
                "time=\"%.6f\" timestamp=\"",
                op_text(head->op), type_text(head->data_type), suite.tests, suite.failures, suite.errors, suite.skipped,
                suite.seconds);
        dmlconf_xml_escape_field(out, info->started_utc, sizeof(info->started_utc), true);
        fputs("\" hostname=\"", out);
        dmlconf_xml_escape_field(out, info->host, sizeof(info->host), true);
        fputs("\">\n", out);
        write_properties(out, fields);
        for (size_t i = first; i < end; ++i)
            write_testcase(out, &results[keys[i].index]);
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
