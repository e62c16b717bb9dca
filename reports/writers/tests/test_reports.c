/*
 * Tests of the report writers: results.jsonl streaming and reading, JSON
 * round trips, the matrix and verdict, failures.txt, escaping in every
 * format, JUnit XML well-formedness (checked by Python's XML parser), and,
 * with --browser, report.html rendered by headless Chromium.
 *
 * Environment (set by CTest): DMLCONF_TEST_OUTPUT, the folder the tests
 * write into; DMLCONF_TEST_PYTHON, a python3; DMLCONF_TEST_CHROMIUM, the
 * chromium binary (browser suite only).
 */
#define _POSIX_C_SOURCE 200809L

#include <dmlconf/comparator.h>
#include <dmlconf/reports.h>

#include <check.h>
#include <jansson.h>

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- helpers -------------------------------------------------------------- */

/* An id with everything that needs escaping somewhere: quotes, markup,
 * a pipe, a backtick, a comma, a control character, non-ASCII text. */
#define WEIRD_ID "weird.\"q\" <script>&amp; 'x' | `t`,\x01 \xc3\xa9\xf0\x9f\x99\x82"

/* The folder for one test's files: $DMLCONF_TEST_OUTPUT/name. */
static void test_dir(const char *name, char *buf, size_t size)
{
    const char *root = getenv("DMLCONF_TEST_OUTPUT");
    snprintf(buf, size, "%s/%s", root && root[0] ? root : "test_reports_output", name);
}

static void join(char *buf, size_t size, const char *dir, const char *name)
{
    snprintf(buf, size, "%s/%s", dir, name);
}

/* Reads a whole file; NULL when it does not exist. The caller frees. */
static char *read_file(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    char *data = NULL;
    size_t used = 0;
    size_t capacity = 0;

    if (!file)
        return NULL;
    for (;;)
    {
        size_t got;
        if (capacity - used < 4096)
        {
            char *bigger;
            capacity = capacity ? capacity * 2 : 65536;
            bigger = realloc(data, capacity + 1);
            ck_assert_ptr_nonnull(bigger);
            data = bigger;
        }
        got = fread(data + used, 1, capacity - used, file);
        used += got;
        if (got == 0)
            break;
    }
    fclose(file);
    data[used] = '\0';
    if (size)
        *size = used;
    return data;
}

static bool file_exists(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0;
}

/* Runs argv[0] (a path) with argv; its stdout is returned in *output (may
 * be NULL), its stderr goes to stderr_path (may be NULL: discarded).
 * Returns the exit status, or -1 when it did not exit normally. */
static int run_program(char *const argv[], char **output, const char *stderr_path)
{
    int pipe_fds[2];
    pid_t pid;
    int status = 0;
    char *data = NULL;
    size_t used = 0;
    size_t capacity = 0;

    ck_assert_int_eq(pipe(pipe_fds), 0);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
    {
        int err = open(stderr_path ? stderr_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(pipe_fds[1], STDOUT_FILENO);
        if (err >= 0)
            dup2(err, STDERR_FILENO);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(pipe_fds[1]);
    for (;;)
    {
        ssize_t got;
        if (capacity - used < 4096)
        {
            char *bigger;
            capacity = capacity ? capacity * 2 : 65536;
            bigger = realloc(data, capacity + 1);
            ck_assert_ptr_nonnull(bigger);
            data = bigger;
        }
        got = read(pipe_fds[0], data + used, capacity - used);
        if (got <= 0)
            break;
        used += (size_t)got;
    }
    close(pipe_fds[0]);
    data[used] = '\0';
    waitpid(pid, &status, 0);
    if (output)
        *output = data;
    else
        free(data);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The number of results sample_results makes. */
#define SAMPLE_COUNT 13

static dmlconf_run_info sample_info(dmlconf_feature_level target)
{
    dmlconf_run_info info;

    memset(&info, 0, sizeof(info));
    snprintf(info.dmlconf_version, sizeof(info.dmlconf_version), "0.1.0");
    snprintf(info.backend, sizeof(info.backend), "d3d12");
    snprintf(info.adapter, sizeof(info.adapter), "Example GPU \"X\" <rev & 2>");
    snprintf(info.driver, sizeof(info.driver), "31.0.101.5382");
    snprintf(info.runtime, sizeof(info.runtime), "DirectML 1.15.2");
    info.software_adapter = false;
    info.target_level = target;
    info.seed = UINT64_MAX;
    snprintf(info.command_line, sizeof(info.command_line), "dmlconf run --out 'reports dir' --filter 'sum.*'");
    snprintf(info.started_utc, sizeof(info.started_utc), "2024-05-01T12:00:00Z");
    snprintf(info.host, sizeof(info.host), "ci-runner-7");
    snprintf(info.adapter_requested, sizeof(info.adapter_requested), "Example GPU");
    info.shard_index = 0;
    info.shard_count = 1;
    snprintf(info.corpus_digest, sizeof(info.corpus_digest), "0123456789abcdef");
    info.corpus_cases = SAMPLE_COUNT;
    info.planned_cases = SAMPLE_COUNT;
    snprintf(info.scope, sizeof(info.scope), "corpus");
    ck_assert_int_eq(dmlconf_run_info_add_environment(&info, "VKD3D_CONFIG", "no_upload_hvv"), 0);
    ck_assert_int_eq(dmlconf_run_info_add_environment(&info, "DMLCONF_D3D12_KERNEL", "it's odd"), 0);
    return info;
}

/* Writes every report of a finished run into dir. */
static int write_reports(const char *dir, const dmlconf_run_info *info, const dmlconf_case_result *results,
                         size_t count, char *why, size_t why_size)
{
    dmlconf_run_end end = {DMLCONF_END_FINISHED, count, 1.5, ""};
    dmlconf_report_input in = {info, NULL, 0, results, count, &end, NULL, NULL, 0, 0};
    return dmlconf_reports_write_all(dir, DMLCONF_REPORTS_OVERWRITE, &in, why, why_size);
}

static dmlconf_case_result make_result(const char *id, dmlconf_operator op, dmlconf_data_type type,
                                       dmlconf_feature_level level, dmlconf_status status)
{
    dmlconf_case_result result;

    memset(&result, 0, sizeof(result));
    snprintf(result.id, sizeof(result.id), "%s", id);
    snprintf(result.file, sizeof(result.file), "cases/conformance/scan.yaml");
    result.line = 42;
    result.op = op;
    result.data_type = type;
    result.dimension_count = 3;
    result.min_feature_level = level;
    result.status = status;
    result.attempts = 1;
    result.backend_seconds = 0.0005;
    result.wall_seconds = 0.002;
    result.comparison.elements = 24;
    result.comparison.histogram[0] = 20;
    result.comparison.histogram[3] = 4;
    return result;
}

/* Gives a result `count` mismatches (FLOAT16 values near 1.5). */
static void add_mismatches(dmlconf_case_result *result, uint32_t count)
{
    dmlconf_comparison *c = &result->comparison;

    c->mismatches = count;
    c->sample_count = count < DMLCONF_MISMATCH_SAMPLES ? count : DMLCONF_MISMATCH_SAMPLES;
    for (uint32_t i = 0; i < c->sample_count; ++i)
    {
        dmlconf_mismatch *m = &c->samples[i];
        m->logical_index = 5 + i;
        m->dimension_count = 3;
        m->coordinates[0] = 0;
        m->coordinates[1] = 1;
        m->coordinates[2] = 1 + i;
        m->expected_bits = 0x3e00 + i;
        m->actual_bits = 0x3e00 + i + 3;
        m->error_ulps = 3.0;
        m->tolerance_fraction = 1.5 + i;
        m->tolerance = 0.001953125;
        m->rule = i % 2 ? DMLCONF_RULE_BOUND : DMLCONF_RULE_ULP_COUNT;
    }
    c->has_first = count > 0;
    c->first = c->samples[0];
    c->has_worst = count > 0;
    c->worst = c->samples[c->sample_count ? c->sample_count - 1 : 0];
    c->max_error_ulps = 3.0;
    c->max_tolerance_fraction = 1.5 + (c->sample_count ? c->sample_count - 1 : 0);
    c->histogram[0] = 24 - count;
    c->histogram[3] = 0;
    c->histogram[10] = count;
    /* The errors grow along the scan axis: small at first, outside the
     * tolerance in its last quarter. */
    memset(c->ulp_histogram, 0, sizeof(c->ulp_histogram));
    c->ulp_histogram[0] = 24 - count;
    c->ulp_histogram[2] = count;
    for (uint32_t b = 0; b < DMLCONF_POSITION_BINS; ++b)
    {
        c->position_max_fraction[b] = b < 12 ? 0.01 * (b + 1) : 1.5 + (b - 12);
        c->position_max_ulps[b] = b < 12 ? 0.0 : 3.0;
        c->position_mismatches[b] = b < 12 ? 0 : count / 4 + (b == 15 ? count % 4 : 0);
    }
}

/* A run like a real one: passes at every level, one failure at 4_0, a
 * crash, an error, a skip above the target, a known failure, a flake. */
static size_t sample_results(dmlconf_case_result *out)
{
    size_t n = 0;

    out[n++] = make_result("sum.f32.r3.a2.inc", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32,
                           DMLCONF_FEATURE_LEVEL_2_1, DMLCONF_STATUS_PASS);
    out[n++] = make_result("sum.f32.r1.a0.exc", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32,
                           DMLCONF_FEATURE_LEVEL_2_1, DMLCONF_STATUS_PASS);
    out[n++] = make_result("sum.f16.r2.a1.dec", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT16,
                           DMLCONF_FEATURE_LEVEL_2_1, DMLCONF_STATUS_PASS);
    out[n++] = make_result("sum.i32.r4.a3.inc", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_INT32,
                           DMLCONF_FEATURE_LEVEL_3_1, DMLCONF_STATUS_PASS);
    out[n++] = make_result("prod.f32.r3.a0.inc", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT32,
                           DMLCONF_FEATURE_LEVEL_3_1, DMLCONF_STATUS_PASS);
    out[n++] = make_result("sum.f16.r8.a7.inc", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT16,
                           DMLCONF_FEATURE_LEVEL_4_0, DMLCONF_STATUS_FAIL);
    add_mismatches(&out[n - 1], 12);
    snprintf(out[n - 1].message, sizeof(out[n - 1].message), "12 of 24 elements outside tolerance");
    snprintf(out[n - 1].repro_path, sizeof(out[n - 1].repro_path), "repro/sum.f16.r8.a7.inc.yaml");
    out[n - 1].attempts = 2;
    out[n++] = make_result("prod.i64.r2.a1.inc", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_INT64,
                           DMLCONF_FEATURE_LEVEL_5_0, DMLCONF_STATUS_CRASH);
    snprintf(out[n - 1].message, sizeof(out[n - 1].message), "the worker died (signal 11)");
    out[n++] = make_result("prod.u64.r1.a0.inc", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_UINT64,
                           DMLCONF_FEATURE_LEVEL_5_1, DMLCONF_STATUS_SKIP);
    snprintf(out[n - 1].message, sizeof(out[n - 1].message), "above the target level 5_0 | pipe");
    out[n++] = make_result("sum.u32.r2.a0.inc", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_UINT32,
                           DMLCONF_FEATURE_LEVEL_3_1, DMLCONF_STATUS_EXPECTED_FAIL);
    snprintf(out[n - 1].message, sizeof(out[n - 1].message), "known failure (baseline)");
    out[n++] = make_result("sum.f32.r5.a4.dec", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32,
                           DMLCONF_FEATURE_LEVEL_2_1, DMLCONF_STATUS_FLAKE);
    out[n - 1].attempts = 2;
    out[n++] = make_result("neg.axis_out_of_range", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32,
                           DMLCONF_FEATURE_LEVEL_NONE, DMLCONF_STATUS_PASS);
    out[n - 1].negative = true;
    out[n++] = make_result("prod.f16.r3.a2.exc", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT16,
                           DMLCONF_FEATURE_LEVEL_4_0, DMLCONF_STATUS_ERROR);
    snprintf(out[n - 1].message, sizeof(out[n - 1].message), "CreateOperator failed: E_INVALIDARG (0x80070057)");
    out[n++] = make_result(WEIRD_ID, DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32,
                           DMLCONF_FEATURE_LEVEL_4_0, DMLCONF_STATUS_FAIL);
    snprintf(out[n - 1].message, sizeof(out[n - 1].message), "line one\nline two <b>&amp;</b> | \"quoted\"");
    snprintf(out[n - 1].file, sizeof(out[n - 1].file), "cases/edge/a&b <c>.yaml");
    add_mismatches(&out[n - 1], 1);
    out[n - 1].comparison.samples[0].expected_bits = 0x3fc00000;
    out[n - 1].comparison.samples[0].actual_bits = 0x3fa00000;
    out[n - 1].comparison.first = out[n - 1].comparison.samples[0];
    out[n - 1].comparison.worst = out[n - 1].comparison.samples[0];
    return n;
}

#define SAMPLE_MAX 32

static bool same_double(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return memcmp(&a, &b, sizeof(a)) == 0;
}

static void assert_same_mismatch(const dmlconf_mismatch *a, const dmlconf_mismatch *b)
{
    ck_assert_uint_eq(a->logical_index, b->logical_index);
    ck_assert_uint_eq(a->dimension_count, b->dimension_count);
    ck_assert_mem_eq(a->coordinates, b->coordinates, sizeof(a->coordinates));
    ck_assert_uint_eq(a->expected_bits, b->expected_bits);
    ck_assert_uint_eq(a->actual_bits, b->actual_bits);
    ck_assert_msg(same_double(a->error_ulps, b->error_ulps), "error_ulps %g != %g", a->error_ulps, b->error_ulps);
    ck_assert_msg(same_double(a->tolerance_fraction, b->tolerance_fraction), "tolerance_fraction %g != %g",
                  a->tolerance_fraction, b->tolerance_fraction);
    ck_assert_msg(same_double(a->tolerance, b->tolerance), "tolerance %g != %g", a->tolerance, b->tolerance);
    ck_assert_int_eq(a->rule, b->rule);
}

static void assert_same_result(const dmlconf_case_result *a, const dmlconf_case_result *b)
{
    const dmlconf_comparison *x = &a->comparison;
    const dmlconf_comparison *y = &b->comparison;

    ck_assert_str_eq(a->id, b->id);
    ck_assert_str_eq(a->file, b->file);
    ck_assert_uint_eq(a->line, b->line);
    ck_assert_int_eq(a->op, b->op);
    ck_assert_int_eq(a->data_type, b->data_type);
    ck_assert_uint_eq(a->dimension_count, b->dimension_count);
    ck_assert_int_eq(a->min_feature_level, b->min_feature_level);
    ck_assert_int_eq(a->negative, b->negative);
    ck_assert_int_eq(a->status, b->status);
    ck_assert_str_eq(a->message, b->message);
    ck_assert_uint_eq(a->attempts, b->attempts);
    ck_assert(same_double(a->backend_seconds, b->backend_seconds));
    ck_assert(same_double(a->wall_seconds, b->wall_seconds));
    ck_assert_str_eq(a->repro_path, b->repro_path);
    ck_assert_uint_eq(x->elements, y->elements);
    ck_assert_uint_eq(x->mismatches, y->mismatches);
    ck_assert_uint_eq(x->unjudged, y->unjudged);
    ck_assert(same_double(x->max_error_ulps, y->max_error_ulps));
    ck_assert(same_double(x->max_tolerance_fraction, y->max_tolerance_fraction));
    ck_assert_int_eq(x->has_first, y->has_first);
    if (x->has_first)
        assert_same_mismatch(&x->first, &y->first);
    ck_assert_int_eq(x->has_worst, y->has_worst);
    if (x->has_worst)
        assert_same_mismatch(&x->worst, &y->worst);
    ck_assert_uint_eq(x->sample_count, y->sample_count);
    for (uint32_t i = 0; i < x->sample_count; ++i)
        assert_same_mismatch(&x->samples[i], &y->samples[i]);
    ck_assert_mem_eq(x->histogram, y->histogram, sizeof(x->histogram));
    ck_assert_mem_eq(x->ulp_histogram, y->ulp_histogram, sizeof(x->ulp_histogram));
    ck_assert_mem_eq(x->position_mismatches, y->position_mismatches, sizeof(x->position_mismatches));
    for (size_t i = 0; i < DMLCONF_POSITION_BINS; ++i)
    {
        ck_assert(same_double(x->position_max_fraction[i], y->position_max_fraction[i]));
        ck_assert(same_double(x->position_max_ulps[i], y->position_max_ulps[i]));
    }
    ck_assert_uint_eq(x->axis_length, y->axis_length);
    ck_assert_uint_eq(x->lines, y->lines);
    ck_assert_int_eq(x->has_earliest, y->has_earliest);
    if (x->has_earliest)
    {
        ck_assert_uint_eq(x->earliest_position, y->earliest_position);
        ck_assert_uint_eq(x->earliest_line, y->earliest_line);
        ck_assert_uint_eq(x->latest_position, y->latest_position);
    }
    ck_assert_int_eq(x->pattern, y->pattern);
    ck_assert_uint_eq(x->pattern_position, y->pattern_position);
    ck_assert_int_eq(a->exclusive, b->exclusive);
    ck_assert_int_eq(a->decreasing, b->decreasing);
    ck_assert_int_eq(a->unsupported, b->unsupported);
    ck_assert_str_eq(a->needs, b->needs);
}

/* A result with every field set to something that is hard to encode. */
static dmlconf_case_result hard_result(void)
{
    dmlconf_case_result result = make_result("x", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_UINT64,
                                             DMLCONF_FEATURE_LEVEL_5_0, DMLCONF_STATUS_UNEXPECTED_PASS);
    dmlconf_comparison *c = &result.comparison;

    snprintf(result.id, sizeof(result.id), "%s",
             "id \"with\" quotes\\back\tslash \xc3\xa9\xe2\x82\xac\xf0\x9f\x99\x82");
    snprintf(result.file, sizeof(result.file), "dir with space/\xe6\x96\x87\xe4\xbb\xb6.yaml");
    snprintf(result.message, sizeof(result.message), "multi\nline\r\nmessage with \x01 control and \"quotes\"");
    snprintf(result.repro_path, sizeof(result.repro_path), "repro/x.yaml");
    result.line = UINT32_MAX;
    result.negative = true;
    result.attempts = 2;
    result.backend_seconds = -1.0;
    result.wall_seconds = 0.1;
    c->elements = UINT64_C(0xffffffff);
    c->mismatches = UINT64_MAX; /* above 2^63-1: a string */
    c->unjudged = 7;
    c->max_error_ulps = (double)INFINITY;
    c->max_tolerance_fraction = (double)NAN;
    c->has_first = true;
    c->first.logical_index = UINT64_MAX - 1;
    c->first.dimension_count = 8;
    for (uint32_t d = 0; d < 8; ++d)
        c->first.coordinates[d] = UINT32_MAX - d;
    c->first.expected_bits = UINT64_MAX;
    c->first.actual_bits = 0;
    c->first.error_ulps = -(double)INFINITY;
    c->first.tolerance_fraction = (double)INFINITY;
    c->first.tolerance = -0.0;
    c->has_worst = false;
    c->sample_count = DMLCONF_MISMATCH_SAMPLES;
    for (uint32_t i = 0; i < DMLCONF_MISMATCH_SAMPLES; ++i)
    {
        c->samples[i] = c->first;
        c->samples[i].logical_index = i;
        c->samples[i].dimension_count = i % 9;
        for (uint32_t d = c->samples[i].dimension_count; d < DMLCONF_MAX_DIMENSIONS; ++d)
            c->samples[i].coordinates[d] = 0;
        c->samples[i].error_ulps = 0.1 * i;
        c->samples[i].tolerance = 1e-300 * i;
    }
    for (size_t i = 0; i < DMLCONF_HISTOGRAM_BINS; ++i)
        c->histogram[i] = i == 10 ? UINT64_MAX : (uint64_t)i * 1000;
    for (size_t i = 0; i < DMLCONF_ULP_BINS; ++i)
        c->ulp_histogram[i] = i == 3 ? UINT64_MAX : (uint64_t)i;
    for (size_t i = 0; i < DMLCONF_POSITION_BINS; ++i)
    {
        c->position_mismatches[i] = 2 * i;
        c->position_max_fraction[i] = i == 5 ? (double)INFINITY : 0.25 * (double)i;
        c->position_max_ulps[i] = i == 6 ? (double)INFINITY : (double)i;
    }
    c->axis_length = UINT32_MAX;
    c->lines = UINT64_MAX;
    c->has_earliest = true;
    c->earliest_position = 3;
    c->earliest_line = UINT64_MAX - 3;
    c->latest_position = UINT32_MAX - 1;
    c->pattern = DMLCONF_PATTERN_ELEMENT_LEFT_OUT;
    c->pattern_position = UINT64_MAX - 5;
    result.exclusive = true;
    result.decreasing = true;
    result.unsupported = true;
    snprintf(result.needs, sizeof(result.needs), "%s", "needs \"quoted\"\n\xc3\xa9");
    return result;
}

/* ---- values and commands ----------------------------------------------------------- */

START_TEST(test_format_element)
{
    char text[64];

    dmlconf_report_format_value(DMLCONF_DATA_TYPE_FLOAT32, 0x3fc00000, text, sizeof(text));
    ck_assert_str_eq(text, "1.5");
    dmlconf_report_format_value(DMLCONF_DATA_TYPE_FLOAT32, 0x3dcccccd, text, sizeof(text));
    ck_assert_str_eq(text, "0.1");
    dmlconf_report_format_value(DMLCONF_DATA_TYPE_FLOAT32, 0x80000000, text, sizeof(text));
    ck_assert_str_eq(text, "-0");
    dmlconf_report_format_value(DMLCONF_DATA_TYPE_FLOAT32, 0x7fc00001, text, sizeof(text));
    ck_assert_str_eq(text, "nan");
    dmlconf_report_format_value(DMLCONF_DATA_TYPE_FLOAT32, 0xff800000, text, sizeof(text));
    ck_assert_str_eq(text, "-inf");
    dmlconf_report_format_value(DMLCONF_DATA_TYPE_FLOAT32, 0x00000001, text, sizeof(text));
    ck_assert_str_eq(text, "1e-45");
    dmlconf_report_format_value(DMLCONF_DATA_TYPE_FLOAT16, 0x3c00, text, sizeof(text));
    ck_assert_str_eq(text, "1");
    dmlconf_report_format_value(DMLCONF_DATA_TYPE_FLOAT16, 0x7bff, text, sizeof(text));
    ck_assert_str_eq(text, "65504");
    dmlconf_report_format_value(DMLCONF_DATA_TYPE_FLOAT16, 0x2e66, text, sizeof(text));
    ck_assert_str_eq(text, "0.1");
    dmlconf_report_format_value(DMLCONF_DATA_TYPE_INT32, 0xffffffff, text, sizeof(text));
    ck_assert_str_eq(text, "-1");
    dmlconf_report_format_value(DMLCONF_DATA_TYPE_UINT32, 0xffffffff, text, sizeof(text));
    ck_assert_str_eq(text, "4294967295");
    dmlconf_report_format_value(DMLCONF_DATA_TYPE_INT64, UINT64_C(0x8000000000000000), text, sizeof(text));
    ck_assert_str_eq(text, "-9223372036854775808");
    dmlconf_report_format_value(DMLCONF_DATA_TYPE_UINT64, UINT64_MAX, text, sizeof(text));
    ck_assert_str_eq(text, "18446744073709551615");

    dmlconf_report_format_bits(DMLCONF_DATA_TYPE_FLOAT16, 0x3c00, text, sizeof(text));
    ck_assert_str_eq(text, "0x3c00");
    dmlconf_report_format_bits(DMLCONF_DATA_TYPE_INT32, 0x1, text, sizeof(text));
    ck_assert_str_eq(text, "0x00000001");
    dmlconf_report_format_bits(DMLCONF_DATA_TYPE_INT64, UINT64_MAX, text, sizeof(text));
    ck_assert_str_eq(text, "0xffffffffffffffff");

    /* snprintf semantics: the full length comes back, the text is cut. */
    ck_assert_uint_eq(dmlconf_report_format_value(DMLCONF_DATA_TYPE_UINT64, UINT64_MAX, text, 5), 20);
    ck_assert_str_eq(text, "1844");
}
END_TEST

START_TEST(test_format_coordinates_and_repro)
{
    dmlconf_mismatch m;
    char text[512];

    memset(&m, 0, sizeof(m));
    m.dimension_count = 3;
    m.coordinates[1] = 2;
    m.coordinates[2] = 1;
    dmlconf_report_format_coordinates(&m, text, sizeof(text));
    ck_assert_str_eq(text, "[0, 2, 1]");
    m.dimension_count = 0;
    dmlconf_report_format_coordinates(&m, text, sizeof(text));
    ck_assert_str_eq(text, "[]");
}
END_TEST

START_TEST(test_repro_command)
{
    dmlconf_run_info info;
    dmlconf_case_result result = make_result("sum.f32.r1", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
                                             DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_FEATURE_LEVEL_2_1, DMLCONF_STATUS_FAIL);
    char text[1024];
    size_t length;

    /* The backend, the adapter as asked for, the level, the seed, the
     * environment and the case's file: the case runs again as it ran. */
    memset(&info, 0, sizeof(info));
    snprintf(info.backend, sizeof(info.backend), "d3d12");
    snprintf(info.adapter_requested, sizeof(info.adapter_requested), "NVIDIA H200");
    info.target_level = DMLCONF_FEATURE_LEVEL_5_0;
    info.seed = 7;
    ck_assert_int_eq(dmlconf_run_info_add_environment(&info, "VKD3D_CONFIG", "dxr11"), 0);
    ck_assert_int_eq(dmlconf_run_info_add_environment(&info, "DMLCONF_D3D12_KERNEL", "it's"), 0);
    dmlconf_report_format_repro(&info, &result, text, sizeof(text));
    ck_assert_str_eq(text, "VKD3D_CONFIG=dxr11 DMLCONF_D3D12_KERNEL='it'\\''s' dmlconf run --backend d3d12 "
                           "--adapter 'NVIDIA H200' --feature-level 5_0 --seed 7 --filter sum.f32.r1 "
                           "cases/conformance/scan.yaml");

    /* A plain run: no adapter, seed 0 left out; an id that is a glob is
     * escaped so that it matches only itself. */
    memset(&info, 0, sizeof(info));
    snprintf(info.backend, sizeof(info.backend), "oracle");
    info.target_level = DMLCONF_FEATURE_LEVEL_6_4;
    snprintf(result.id, sizeof(result.id), "-odd*[id]'s?");
    result.file[0] = '\0';
    dmlconf_report_format_repro(&info, &result, text, sizeof(text));
    ck_assert_str_eq(text, "dmlconf run --backend oracle --feature-level 6_4 --filter '\\-odd\\*\\[id]'\\''s\\?'");

    /* A plugin is rerun from its library: --backend as it was given, not the
     * backend's name. */
    snprintf(info.backend, sizeof(info.backend), "plugin:mine");
    snprintf(info.backend_requested, sizeof(info.backend_requested), "plugin:./build dir/libmine.so");
    result.file[0] = '\0';
    dmlconf_report_format_repro(&info, &result, text, sizeof(text));
    ck_assert_str_eq(text, "dmlconf run --backend 'plugin:./build dir/libmine.so' --feature-level 6_4 --filter "
                           "'\\-odd\\*\\[id]'\\''s\\?'");
    info.backend_requested[0] = '\0';

    /* An adapter is rerun with its command after "--"; a case file that
     * looks like an option is made relative, as "--" is the command's. */
    const char *command[] = {"/usr/bin/python3", "my adapter.py", "--device", "cuda", NULL};
    snprintf(info.backend, sizeof(info.backend), "exec:numpy");
    snprintf(info.backend_requested, sizeof(info.backend_requested), "exec");
    ck_assert_int_eq(dmlconf_run_info_set_backend_command(&info, command), 0);
    snprintf(result.id, sizeof(result.id), "a.b");
    snprintf(result.file, sizeof(result.file), "-cases.yaml");
    dmlconf_report_format_repro(&info, &result, text, sizeof(text));
    ck_assert_str_eq(text, "dmlconf run --backend exec --feature-level 6_4 --filter a.b ./-cases.yaml -- "
                           "/usr/bin/python3 'my adapter.py' --device cuda");
    /* A command too long to record is said, not cut. */
    char *long_word = malloc(sizeof(info.backend_command) + 1);
    ck_assert_ptr_nonnull(long_word);
    memset(long_word, 'x', sizeof(info.backend_command));
    long_word[sizeof(info.backend_command)] = '\0';
    const char *too_long[] = {"adapter", long_word, NULL};
    ck_assert_int_eq(dmlconf_run_info_set_backend_command(&info, too_long), -1);
    free(long_word);
    ck_assert_str_eq(info.backend_command, "");
    dmlconf_report_format_repro(&info, &result, text, sizeof(text));
    ck_assert_ptr_nonnull(strstr(text, "./-cases.yaml  # the adapter's command was too long to record"));
    info.backend_command_incomplete = false;
    info.backend_requested[0] = '\0';
    snprintf(info.backend, sizeof(info.backend), "oracle");
    snprintf(result.id, sizeof(result.id), "-odd*[id]'s?");
    result.file[0] = '\0';

    /* A variable left out is said, not hidden; snprintf semantics. */
    info.environment_incomplete = true;
    length = dmlconf_report_format_repro(&info, &result, text, 10);
    ck_assert_uint_eq(strlen(text), 9);
    ck_assert_uint_gt(length, 60);
    dmlconf_report_format_repro(&info, &result, text, sizeof(text));
    ck_assert_ptr_nonnull(strstr(text, "# not every environment variable of the run was recorded"));
}
END_TEST

/* The command line is recorded word by word, quoted where a shell needs it;
 * one too long keeps whole words and says how many it left out. */
START_TEST(test_run_info_command_line)
{
    dmlconf_run_info info;
    memset(&info, 0, sizeof(info));
    const char *words[] = {"dmlconf", "run", "-o", "reports dir", "--filter", "sum.*", "it's"};
    ck_assert_int_eq(dmlconf_run_info_set_command_line(&info, words, 7), 0);
    ck_assert_str_eq(info.command_line, "dmlconf run -o 'reports dir' --filter 'sum.*' 'it'\\''s'");
    ck_assert_int_eq(dmlconf_run_info_set_command_line(&info, words, 0), 0);
    ck_assert_str_eq(info.command_line, "");

    /* 300 case files of 9 characters and a space: 3000 characters. */
    enum
    {
        FILES = 300
    };
    static char names[FILES][16];
    const char *many[FILES + 2] = {"dmlconf", "run"};
    for (int i = 0; i < FILES; ++i)
    {
        snprintf(names[i], sizeof(names[i]), "c%03d.yaml", i);
        many[i + 2] = names[i];
    }
    ck_assert_int_eq(dmlconf_run_info_set_command_line(&info, many, FILES + 2), -1);
    size_t length = strlen(info.command_line);
    ck_assert_uint_lt(length, sizeof(info.command_line));
    const char *marker = strstr(info.command_line, " ... (");
    ck_assert_ptr_nonnull(marker);
    /* Every word before the marker whole: it ends one file name. */
    ck_assert(marker - info.command_line >= 9 && !memcmp(marker - 5, ".yaml", 5));
    unsigned kept = 0, left = 0;
    for (const char *w = info.command_line; (w = strstr(w, ".yaml")); w += 5)
        ++kept;
    ck_assert_int_eq(sscanf(marker, " ... (%u more arguments not recorded)", &left), 1);
    ck_assert_uint_eq(kept + left, FILES);
    ck_assert_str_eq(info.command_line + length - strlen("not recorded)"), "not recorded)");
    ck_assert_uint_gt(kept, 90);
}
END_TEST

START_TEST(test_run_info_environment_and_same_run)
{
    dmlconf_run_info a = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    dmlconf_run_info b = a;
    char big[DMLCONF_RUN_ENVIRONMENT_SIZE];
    char why[256] = "";

    ck_assert_str_eq(a.environment, "VKD3D_CONFIG=no_upload_hvv\nDMLCONF_D3D12_KERNEL=it's odd");
    ck_assert(!a.environment_incomplete);
    /* No room, or a line break: left out, and said so. */
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    ck_assert_int_ne(dmlconf_run_info_add_environment(&b, "BIG", big), 0);
    ck_assert(b.environment_incomplete);
    ck_assert_str_eq(b.environment, a.environment);
    b = a;
    ck_assert_int_ne(dmlconf_run_info_add_environment(&b, "TWO", "lines\nhere"), 0);
    ck_assert(b.environment_incomplete);

    /* Shards of one run may differ in host, time, command line and index. */
    b = a;
    snprintf(b.host, sizeof(b.host), "other-host");
    snprintf(b.command_line, sizeof(b.command_line), "dmlconf run --shard 1/2");
    b.shard_index = 1;
    ck_assert_msg(dmlconf_run_info_same_run(&a, &b, why, sizeof(why)), "%s", why);
    b = a;
    snprintf(b.backend, sizeof(b.backend), "oracle");
    ck_assert(!dmlconf_run_info_same_run(&a, &b, why, sizeof(why)));
    ck_assert_str_eq(why, "backend 'd3d12' against 'oracle'");
    b = a;
    b.target_level = DMLCONF_FEATURE_LEVEL_4_0;
    ck_assert(!dmlconf_run_info_same_run(&a, &b, why, sizeof(why)));
    ck_assert_str_eq(why, "target level 5_0 against 4_0");
    b = a;
    snprintf(b.corpus_digest, sizeof(b.corpus_digest), "fedcba9876543210");
    ck_assert(!dmlconf_run_info_same_run(&a, &b, why, sizeof(why)));
    ck_assert_ptr_nonnull(strstr(why, "corpus digest"));
    b = a;
    b.shard_count = 3;
    ck_assert(!dmlconf_run_info_same_run(&a, &b, why, sizeof(why)));
    ck_assert_str_eq(why, "1 shards against 3");
    b = a;
    b.seed = 1;
    ck_assert(!dmlconf_run_info_same_run(&a, &b, why, sizeof(why)));
    b = a;
    ck_assert_int_eq(dmlconf_run_info_add_environment(&b, "VK_ICD_FILENAMES", "/x.json"), 0);
    ck_assert(!dmlconf_run_info_same_run(&a, &b, why, sizeof(why)));
    ck_assert_ptr_nonnull(strstr(why, "environment"));
}
END_TEST

/* ---- JSON ------------------------------------------------------------------------ */

START_TEST(test_json_round_trip)
{
    dmlconf_case_result original = hard_result();
    dmlconf_case_result back;
    char why[256] = "";
    char *line = dmlconf_result_to_json(&original);
    json_error_t error;
    json_t *strict;

    ck_assert_ptr_nonnull(line);
    ck_assert_ptr_null(strchr(line, '\n'));
    /* Plain JSON: a strict parser takes it, and no NaN/Infinity literal. */
    strict = json_loads(line, 0, &error);
    ck_assert_msg(strict != NULL, "invalid JSON: %s in %s", error.text, line);
    json_decref(strict);
    ck_assert_ptr_null(strstr(line, "NaN"));
    ck_assert_ptr_null(strstr(line, "Infinity"));
    ck_assert_ptr_nonnull(strstr(line, "\"max_error_ulps\":\"inf\""));
    ck_assert_ptr_nonnull(strstr(line, "\"max_tolerance_fraction\":\"nan\""));
    ck_assert_ptr_nonnull(strstr(line, "\"mismatches\":\"18446744073709551615\""));
    ck_assert_ptr_nonnull(strstr(line, "\"expected_bits\":\"0xffffffffffffffff\""));
    ck_assert_ptr_nonnull(strstr(line, "\"status\":\"unexpected-pass\""));
    ck_assert_ptr_nonnull(strstr(line, "\"min_feature_level\":\"5_0\""));

    ck_assert_msg(dmlconf_result_from_json(line, strlen(line), &back, why, sizeof(why)) == 0, "%s", why);
    /* The control character survives as itself in JSON (\u0001). */
    assert_same_result(&original, &back);
    free(line);
}
END_TEST

START_TEST(test_json_every_status_and_level)
{
    size_t level_count = 0;
    const dmlconf_feature_level *levels = dmlconf_feature_levels(&level_count);

    for (int s = 0; s < DMLCONF_STATUS_COUNT; ++s)
    {
        for (size_t l = 0; l <= level_count; ++l)
        {
            dmlconf_case_result original =
                make_result("s", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT16,
                            l < level_count ? levels[l] : DMLCONF_FEATURE_LEVEL_NONE, (dmlconf_status)s);
            dmlconf_case_result back;
            char *line = dmlconf_result_to_json(&original);
            ck_assert_ptr_nonnull(line);
            ck_assert_int_eq(dmlconf_result_from_json(line, strlen(line), &back, NULL, 0), 0);
            assert_same_result(&original, &back);
            free(line);
        }
    }
}
END_TEST

START_TEST(test_json_invalid_utf8)
{
    dmlconf_case_result original =
        make_result("bad\xff\xfe utf8 \xc3", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32,
                    DMLCONF_FEATURE_LEVEL_2_1, DMLCONF_STATUS_FAIL);
    dmlconf_case_result back;
    char *line = dmlconf_result_to_json(&original);

    /* A full id buffer without its NUL must not be read past. */
    memset(original.file, 'f', sizeof(original.file));
    free(line);
    line = dmlconf_result_to_json(&original);
    ck_assert_ptr_nonnull(line);
    ck_assert_int_eq(dmlconf_result_from_json(line, strlen(line), &back, NULL, 0), 0);
    ck_assert_str_eq(back.id, "bad\xef\xbf\xbd\xef\xbf\xbd utf8 \xef\xbf\xbd");
    ck_assert_uint_eq(strlen(back.file), sizeof(back.file) - 1);
    free(line);
}
END_TEST

START_TEST(test_json_rejects)
{
    static const char *const bad[] = {
        "",
        "[1,2]",
        "{\"status\":\"pass\"}",
        "{\"id\":\"x\"}",
        "{\"id\":\"x\",\"status\":\"great\"}",
        "{\"id\":\"x\",\"status\":\"pass\",\"line\":-1}",
        "{\"id\":\"x\",\"status\":\"pass\",\"min_feature_level\":\"9_9\"}",
        "{\"id\":\"x\",\"status\":\"pass\",\"wall_seconds\":\"fast\"}",
        "{\"id\":\"x\",\"status\":\"pass\",\"comparison\":{\"histogram\":[1,2]}}",
        "{\"id\":\"x\",\"status\":\"pass\",\"comparison\":{\"first\":{\"expected_bits\":\"0xzz\"}}}",
        "{\"id\":\"x\",\"status\":\"pass\",\"wall_seconds\":NaN}",
        "{\"id\":\"x\",\"status\":\"fail\",\"comparison\":{\"pattern\":\"dropped\"}}",
        "{\"id\":\"x\",\"status\":\"fail\",\"comparison\":{\"earliest_position\":-2}}",
    };

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i)
    {
        dmlconf_case_result result;
        char why[256] = "";
        ck_assert_msg(dmlconf_result_from_json(bad[i], strlen(bad[i]), &result, why, sizeof(why)) != 0, "accepted %s",
                      bad[i]);
        ck_assert_msg(why[0] != '\0', "no reason for %s", bad[i]);
    }
}
END_TEST

/* ---- streaming and reading ---------------------------------------------------------------- */

START_TEST(test_streaming)
{
    char dir[512];
    char path[600];
    char why[512] = "";
    dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = sample_results(results);
    dmlconf_report_set *set = NULL;
    dmlconf_results_file file;
    dmlconf_load_error_list errors = {NULL, 0, 0};

    test_dir("streaming/nested/dir", dir, sizeof(dir));
    /* Reports from an earlier run must not survive into this one, nor go
     * before this one begins: a folder that holds them is refused unless it
     * may be overwritten, and then they go when the run begins. */
    ck_assert_int_eq(write_reports(dir, &info, results, 1, why, sizeof(why)), 0);
    join(path, sizeof(path), dir, DMLCONF_REPORT_SUMMARY_JSON);
    ck_assert(file_exists(path));
    ck_assert_int_ne(dmlconf_reports_open(dir, DMLCONF_REPORTS_NEW, &set, why, sizeof(why)), 0);
    ck_assert_ptr_null(set);
    ck_assert_msg(strstr(why, "holds the reports of an earlier run") != NULL, "%s", why);
    ck_assert(file_exists(path));

    ck_assert_msg(dmlconf_reports_open(dir, DMLCONF_REPORTS_OVERWRITE, &set, why, sizeof(why)) == 0, "%s", why);
    ck_assert(dmlconf_reports_held_earlier_run(set));
    ck_assert(file_exists(path));
    /* A run that cannot start writes nothing over them. */
    ck_assert_int_ne(dmlconf_reports_write_unstarted(set, "setup-error", "setup error", "no backend", 3), 0);
    ck_assert(file_exists(path));
    ck_assert(!dmlconf_reports_begun(set));
    ck_assert_int_ne(dmlconf_reports_add(set, &results[0]), 0); /* not begun */
    ck_assert_int_eq(dmlconf_load_error_list_add(&errors, "cases/bad.yaml", 6, 11, "axis 5 is out of range"), 0);
    ck_assert_msg(dmlconf_reports_begin(set, &info, &errors) == 0, "%s", dmlconf_reports_error(set));
    ck_assert(!file_exists(path));
    join(path, sizeof(path), dir, DMLCONF_REPORT_RESULTS_JSONL);
    ck_assert(dmlconf_reports_begun(set));
    dmlconf_reports_set_fsync(set, true);
    for (size_t i = 0; i < count; ++i)
    {
        ck_assert_msg(dmlconf_reports_add(set, &results[i]) == 0, "%s", dmlconf_reports_error(set));
        /* Readable after every add, without finishing: no completion
         * record yet. */
        ck_assert_msg(dmlconf_results_file_read(path, &file, why, sizeof(why)) == 0, "%s", why);
        ck_assert_uint_eq(file.results.count, i + 1);
        ck_assert_uint_eq(file.dropped_lines, 0);
        ck_assert_int_eq(file.end.kind, DMLCONF_END_NONE);
        assert_same_result(&results[i], &file.results.items[i]);
        ck_assert_mem_eq(&file.info, &info, sizeof(info));
        ck_assert_uint_eq(file.load_errors.count, 1);
        ck_assert_str_eq(file.load_errors.items[0].file, "cases/bad.yaml");
        ck_assert_uint_eq(file.load_errors.items[0].line, 6);
        ck_assert_uint_eq(file.load_errors.items[0].column, 11);
        ck_assert_str_eq(file.load_errors.items[0].message, "axis 5 is out of range");
        dmlconf_results_file_free(&file);
    }
    ck_assert_uint_eq(dmlconf_reports_matrix(set)->case_count, count);
    ck_assert_int_ne(dmlconf_reports_begin(set, &info, NULL), 0); /* once */

    /* Finishing ends the file with its completion record. */
    ck_assert_msg(dmlconf_reports_finish(set) == 0, "%s", dmlconf_reports_error(set));
    ck_assert_int_ne(dmlconf_reports_finish(set), 0); /* once */
    ck_assert_msg(dmlconf_results_file_read(path, &file, why, sizeof(why)) == 0, "%s", why);
    ck_assert_int_eq(file.end.kind, DMLCONF_END_FINISHED);
    ck_assert_uint_eq(file.end.cases, count);
    ck_assert(file.end.elapsed_seconds >= 0.0);
    ck_assert_uint_eq(file.results.count, count);
    dmlconf_results_file_free(&file);
    /* The load error makes the run incomplete, in the set's matrix too. */
    {
        dmlconf_run_verdict verdict;
        dmlconf_matrix_verdict(dmlconf_reports_matrix(set), &verdict);
        ck_assert_int_eq(verdict.status, DMLCONF_RUN_INCOMPLETE);
    }
    dmlconf_reports_close(set);
    dmlconf_load_error_list_free(&errors);
}
END_TEST

START_TEST(test_unusable_folders)
{
    char dir[512];
    char path[600];
    char inside[700];
    char why[512] = "";
    dmlconf_report_set *set = NULL;
    FILE *file;

    test_dir("unusable", dir, sizeof(dir));
    ck_assert_int_eq(dmlconf_reports_open(dir, DMLCONF_REPORTS_OVERWRITE, &set, why, sizeof(why)), 0);
    dmlconf_reports_close(set);

    /* A file where the folder should be, or where a folder in its path
     * should be. */
    join(path, sizeof(path), dir, "not-a-dir");
    file = fopen(path, "wb");
    ck_assert_ptr_nonnull(file);
    fclose(file);
    ck_assert_int_ne(dmlconf_reports_open(path, DMLCONF_REPORTS_OVERWRITE, &set, why, sizeof(why)), 0);
    ck_assert_ptr_null(set);
    ck_assert_ptr_nonnull(strstr(why, "not-a-dir"));
    snprintf(inside, sizeof(inside), "%s/reports", path);
    ck_assert_int_ne(dmlconf_reports_open(inside, DMLCONF_REPORTS_OVERWRITE, &set, why, sizeof(why)), 0);
    ck_assert_ptr_null(set);
    ck_assert_ptr_nonnull(strstr(why, "not-a-dir"));

    /* results.jsonl that cannot be written (here: a folder). */
    join(path, sizeof(path), dir, DMLCONF_REPORT_RESULTS_JSONL);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    ck_assert_int_ne(dmlconf_reports_open(dir, DMLCONF_REPORTS_OVERWRITE, &set, why, sizeof(why)), 0);
    ck_assert_msg(strstr(why, "results.jsonl") && strstr(why, "directory"), "%s", why);
    ck_assert_int_eq(rmdir(path), 0);
}
END_TEST

/* In a child process: tries to open `dir` and exits 0 when that fails
 * saying the folder is in use by `holder`, 1 when it opens, 2 otherwise. */
static int open_from_another_process(const char *dir, pid_t holder)
{
    pid_t pid = fork();
    int status = 0;

    ck_assert_int_ge(pid, 0);
    if (pid == 0)
    {
        dmlconf_report_set *set = NULL;
        char why[512] = "";
        char expected[64];
        if (dmlconf_reports_open(dir, DMLCONF_REPORTS_OVERWRITE, &set, why, sizeof(why)) == 0)
            _exit(1);
        snprintf(expected, sizeof(expected), "in use by another dmlconf (process %ld", (long)holder);
        _exit(strstr(why, expected) && !set ? 0 : 2);
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

START_TEST(test_folder_lock)
{
    char dir[512];
    char path[600];
    char why[512] = "";
    dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    dmlconf_case_result results[SAMPLE_MAX];
    dmlconf_report_set *set = NULL;

    sample_results(results);
    test_dir("lock", dir, sizeof(dir));
    ck_assert_msg(dmlconf_reports_open(dir, DMLCONF_REPORTS_OVERWRITE, &set, why, sizeof(why)) == 0, "%s", why);
    ck_assert_int_eq(dmlconf_reports_begin(set, &info, NULL), 0);
    ck_assert_int_eq(dmlconf_reports_add(set, &results[0]), 0);
    /* A second run into the folder is refused at once, and touches
     * nothing: the first one's results stay. */
    ck_assert_int_eq(open_from_another_process(dir, getpid()), 0);
    join(path, sizeof(path), dir, DMLCONF_REPORT_RESULTS_JSONL);
    ck_assert(file_exists(path));
    ck_assert_int_eq(dmlconf_reports_add(set, &results[1]), 0);
    ck_assert_int_eq(dmlconf_reports_finish(set), 0);
    dmlconf_reports_close(set);
    {
        dmlconf_results_file file;
        ck_assert_msg(dmlconf_results_file_read(path, &file, why, sizeof(why)) == 0, "%s", why);
        ck_assert_uint_eq(file.results.count, 2);
        dmlconf_results_file_free(&file);
    }
    /* Released when the set closes (and when a process dies). */
    ck_assert_int_eq(open_from_another_process(dir, getpid()), 1);
    join(path, sizeof(path), dir, DMLCONF_REPORT_LOCK);
    ck_assert(file_exists(path));
}
END_TEST

START_TEST(test_results_file)
{
    char dir[512];
    char path[600];
    char why[512] = "";
    dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = sample_results(results);
    dmlconf_results_file file;
    size_t size = 0;
    char *data;
    char *cut;
    char *last;
    FILE *out;

    test_dir("results_file", dir, sizeof(dir));
    snprintf(info.backend_requested, sizeof(info.backend_requested), "plugin:/opt/x \"y\".so");
    snprintf(info.backend_command, sizeof(info.backend_command), "node 'a b.js'");
    ck_assert_int_eq(write_reports(dir, &info, results, count, why, sizeof(why)), 0);
    join(path, sizeof(path), dir, DMLCONF_REPORT_RESULTS_JSONL);
    data = read_file(path, &size);
    ck_assert_ptr_nonnull(data);
    ck_assert_msg(dmlconf_results_file_read(path, &file, why, sizeof(why)) == 0, "%s", why);
    ck_assert_str_eq(file.info.backend_requested, "plugin:/opt/x \"y\".so");
    ck_assert_str_eq(file.info.backend_command, "node 'a b.js'");
    ck_assert_int_eq(file.end.kind, DMLCONF_END_FINISHED);
    ck_assert(file.end.elapsed_seconds == 1.5);
    ck_assert_uint_eq(file.results.count, count);
    dmlconf_results_file_free(&file);
    last = data + size - 1;
    while (last > data && last[-1] != '\n')
        --last;
    ck_assert_ptr_nonnull(strstr(last, "{\"record\":\"end\",\"end\":\"finished\",\"cases\":13,"));

    /* Cut in the middle of the completion record: a crash while writing
     * it. The cases are all there; the record is not. */
    out = fopen(path, "wb");
    ck_assert_ptr_nonnull(out);
    fwrite(data, 1, size - 20, out);
    fclose(out);
    ck_assert_msg(dmlconf_results_file_read(path, &file, why, sizeof(why)) == 0, "%s", why);
    ck_assert_uint_eq(file.results.count, count);
    ck_assert_uint_eq(file.dropped_lines, 1);
    ck_assert_int_eq(file.end.kind, DMLCONF_END_NONE);
    dmlconf_results_file_free(&file);

    /* Cut in the middle of the last case line. */
    out = fopen(path, "wb");
    ck_assert_ptr_nonnull(out);
    fwrite(data, 1, (size_t)(last - data) - 40, out);
    fclose(out);
    ck_assert_msg(dmlconf_results_file_read(path, &file, why, sizeof(why)) == 0, "%s", why);
    ck_assert_uint_eq(file.results.count, count - 1);
    ck_assert_uint_eq(file.dropped_lines, 1);
    dmlconf_results_file_free(&file);

    /* A line after the completion record, or a record that miscounts. */
    out = fopen(path, "wb");
    ck_assert_ptr_nonnull(out);
    fwrite(data, 1, size, out);
    fwrite(last, 1, (size_t)(data + size - last), out);
    fclose(out);
    ck_assert_int_ne(dmlconf_results_file_read(path, &file, why, sizeof(why)), 0);
    ck_assert_msg(strstr(why, "results.jsonl:16: a line after the completion record (line 15)") != NULL, "%s", why);
    dmlconf_results_file_free(&file);
    out = fopen(path, "wb");
    ck_assert_ptr_nonnull(out);
    fwrite(data, 1, (size_t)(last - data), out);
    fputs("{\"record\":\"end\",\"end\":\"finished\",\"cases\":12}\n", out);
    fclose(out);
    ck_assert_int_ne(dmlconf_results_file_read(path, &file, why, sizeof(why)), 0);
    ck_assert_msg(strstr(why, "counts 12 cases, the file has 13") != NULL, "%s", why);
    dmlconf_results_file_free(&file);
    out = fopen(path, "wb");
    ck_assert_ptr_nonnull(out);
    fwrite(data, 1, (size_t)(last - data), out);
    fputs("{\"record\":\"end\",\"end\":\"none\",\"cases\":13}\n", out);
    fclose(out);
    ck_assert_int_ne(dmlconf_results_file_read(path, &file, why, sizeof(why)), 0);
    ck_assert_msg(strstr(why, "results.jsonl:15: the completion record") != NULL, "%s", why);
    dmlconf_results_file_free(&file);

    /* A broken line that is not the last is an error with its line. */
    cut = strchr(strchr(data, '\n') + 1, '\n'); /* the end of line 2 */
    cut[-3] = '#';
    out = fopen(path, "wb");
    ck_assert_ptr_nonnull(out);
    fwrite(data, 1, size, out);
    fclose(out);
    ck_assert_int_ne(dmlconf_results_file_read(path, &file, why, sizeof(why)), 0);
    ck_assert_msg(strstr(why, "results.jsonl:2:") != NULL, "%s", why);
    dmlconf_results_file_free(&file);

    /* No header, no file. */
    out = fopen(path, "wb");
    ck_assert_ptr_nonnull(out);
    fclose(out);
    ck_assert_int_ne(dmlconf_results_file_read(path, &file, why, sizeof(why)), 0);
    ck_assert_ptr_nonnull(strstr(why, "header"));
    dmlconf_results_file_free(&file);
    join(path, sizeof(path), dir, "missing.jsonl");
    ck_assert_int_ne(dmlconf_results_file_read(path, &file, why, sizeof(why)), 0);
    ck_assert_ptr_nonnull(strstr(why, "missing.jsonl"));
    dmlconf_results_file_free(&file);
    free(data);
}
END_TEST

/* Writes `text` as the file at `path`. */
static void write_text_file(const char *path, const char *text)
{
    FILE *file = fopen(path, "wb");
    ck_assert_ptr_nonnull(file);
    ck_assert_uint_eq(fwrite(text, 1, strlen(text), file), strlen(text));
    ck_assert_int_eq(fclose(file), 0);
}

/* Replaces every `from` in text (in place; `to` is not longer). */
static void replace_all(char *text, const char *from, const char *to)
{
    size_t from_length = strlen(from), to_length = strlen(to);
    for (char *at = strstr(text, from); at; at = strstr(at + to_length, from))
    {
        memmove(at + to_length, at + from_length, strlen(at + from_length) + 1);
        memcpy(at, to, to_length);
    }
}

/* The rule of each mismatch survives results.jsonl; a file that does not
 * record it reads as "unknown"; a rule name that is not one is an error. */
START_TEST(test_mismatch_rule_in_jsonl)
{
    char dir[512], path[600], why[512] = "";
    dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = sample_results(results), size = 0;

    test_dir("rules", dir, sizeof(dir));
    ck_assert_int_eq(write_reports(dir, &info, results, count, why, sizeof(why)), 0);
    join(path, sizeof(path), dir, DMLCONF_REPORT_RESULTS_JSONL);
    char *data = read_file(path, &size);
    ck_assert_ptr_nonnull(data);
    ck_assert_ptr_nonnull(strstr(data, ",\"rule\":\"ulp_count\""));
    dmlconf_results_file file;

    char *older = strdup(data);
    ck_assert_ptr_nonnull(older);
    replace_all(older, ",\"rule\":\"ulp_count\"", "");
    replace_all(older, ",\"rule\":\"bound\"", "");
    replace_all(older, ",\"rule\":\"invalid\"", "");
    write_text_file(path, older);
    ck_assert_msg(dmlconf_results_file_read(path, &file, why, sizeof(why)) == 0, "%s", why);
    bool any = false;
    for (size_t i = 0; i < file.results.count; ++i)
    {
        const dmlconf_comparison *c = &file.results.items[i].comparison;
        for (uint32_t k = 0; k < c->sample_count; ++k)
        {
            ck_assert_int_eq(c->samples[k].rule, DMLCONF_RULE_UNKNOWN);
            any = true;
        }
    }
    ck_assert(any);
    dmlconf_results_file_free(&file);

    replace_all(data, "\"rule\":\"bound\"", "\"rule\":\"nope\"");
    write_text_file(path, data);
    ck_assert_int_ne(dmlconf_results_file_read(path, &file, why, sizeof(why)), 0);
    ck_assert_msg(strstr(why, "'rule' is not the name of a comparator rule") != NULL, "%s", why);
    dmlconf_results_file_free(&file);
    free(older);
    free(data);
}
END_TEST

/* ---- matrix and verdict ------------------------------------------------------------------ */

/* A matrix of the whole corpus on an implementation under test, the only
 * scope that can be conformant (test_verdict_scopes tries the others). */
static void build_matrix(dmlconf_matrix *matrix, dmlconf_feature_level target, const dmlconf_case_result *results,
                         size_t count)
{
    dmlconf_verdict_scope corpus = {.kind = DMLCONF_SCOPE_CORPUS};
    dmlconf_matrix_init(matrix, target);
    dmlconf_matrix_set_scope(matrix, &corpus);
    for (size_t i = 0; i < count; ++i)
        ck_assert_int_eq(dmlconf_matrix_add(matrix, &results[i]), 0);
}

/* One passing case per level 2_1 .. 5_0 and both operators. */
static size_t passing_ladder(dmlconf_case_result *out)
{
    static const dmlconf_feature_level levels[] = {DMLCONF_FEATURE_LEVEL_2_1, DMLCONF_FEATURE_LEVEL_3_1,
                                                   DMLCONF_FEATURE_LEVEL_4_0, DMLCONF_FEATURE_LEVEL_5_0};
    size_t n = 0;

    for (size_t i = 0; i < 4; ++i)
    {
        char id[32];
        snprintf(id, sizeof(id), "sum.%zu", i);
        out[n++] = make_result(id, DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, levels[i],
                               DMLCONF_STATUS_PASS);
        snprintf(id, sizeof(id), "prod.%zu", i);
        out[n++] = make_result(id, DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_INT32, levels[i],
                               DMLCONF_STATUS_PASS);
    }
    return n;
}

START_TEST(test_matrix_columns)
{
    dmlconf_matrix matrix;
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = passing_ladder(results);
    static const char *const labels[] = {"2_1", "3_1", "4_0", "5_0", "5_1+"};

    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    ck_assert_uint_eq(matrix.column_count, 5);
    for (size_t c = 0; c < 5; ++c)
        ck_assert_str_eq(matrix.columns[c].label, labels[c]);
    ck_assert_int_eq(matrix.columns[4].level, DMLCONF_FEATURE_LEVEL_5_1);
    ck_assert_int_eq(matrix.columns[4].up_to, DMLCONF_FEATURE_LEVEL_6_4);
    ck_assert(!matrix.columns[3].above_target);
    ck_assert(matrix.columns[4].above_target);

    /* Rows sorted by operator then type; a case counts from its level up. */
    ck_assert_uint_eq(matrix.row_count, 2);
    ck_assert_int_eq(matrix.rows[0].op, DMLCONF_OPERATOR_CUMULATIVE_SUMMATION);
    ck_assert_int_eq(matrix.rows[1].op, DMLCONF_OPERATOR_CUMULATIVE_PRODUCT);
    for (size_t c = 0; c < 5; ++c)
    {
        ck_assert_uint_eq(matrix.rows[0].cells[c].passed, c < 4 ? c + 1 : 4);
        ck_assert_uint_eq(matrix.totals[c].passed, 2 * (c < 4 ? c + 1 : 4));
        ck_assert_uint_eq(matrix.rows[0].cells[c].statuses[DMLCONF_STATUS_PASS], c < 4 ? c + 1 : 4);
    }
    ck_assert_uint_eq(matrix.case_count, count);
    ck_assert_uint_eq(matrix.status_counts[DMLCONF_STATUS_PASS], count);
    ck_assert_uint_eq(matrix.histogram[0], 20 * count);
    dmlconf_matrix_free(&matrix);
}
END_TEST

START_TEST(test_verdict_all_pass)
{
    dmlconf_matrix matrix;
    dmlconf_run_verdict verdict;
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = passing_ladder(results);

    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert(verdict.conformant);
    ck_assert(verdict.at_target);
    ck_assert_int_eq(verdict.level, DMLCONF_FEATURE_LEVEL_5_0);
    ck_assert_str_eq(verdict.text, "conformant at level 5_0");
    for (size_t c = 0; c < 4; ++c)
        ck_assert(dmlconf_matrix_column_conformant(&matrix, c));
    ck_assert(!dmlconf_matrix_column_conformant(&matrix, 4)); /* above the target */
    dmlconf_matrix_free(&matrix);

    /* No target given: the highest known level. */
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_NONE, results, count);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert_str_eq(verdict.text, "conformant at level 6_4");
    ck_assert(dmlconf_matrix_column_conformant(&matrix, 4));
    dmlconf_matrix_free(&matrix);
}
END_TEST

START_TEST(test_verdict_fail_at_4_0)
{
    dmlconf_matrix matrix;
    dmlconf_run_verdict verdict;
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = passing_ladder(results);

    results[4].status = DMLCONF_STATUS_FAIL; /* sum at 4_0 */
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert(verdict.conformant);
    ck_assert(!verdict.at_target);
    ck_assert_int_eq(verdict.level, DMLCONF_FEATURE_LEVEL_3_1);
    ck_assert_str_eq(verdict.text, "conformant at level 3_1");
    ck_assert_msg(strstr(verdict.detail, "1 of the 8 cases") && strstr(verdict.detail, "level 4_0"), "%s",
                  verdict.detail);
    ck_assert(dmlconf_matrix_column_conformant(&matrix, 0));
    ck_assert(dmlconf_matrix_column_conformant(&matrix, 1));
    ck_assert(!dmlconf_matrix_column_conformant(&matrix, 2));
    ck_assert(!dmlconf_matrix_column_conformant(&matrix, 3));
    ck_assert_uint_eq(matrix.rows[0].cells[2].failed, 1);
    ck_assert_uint_eq(matrix.rows[0].cells[1].failed, 0);
    dmlconf_matrix_free(&matrix);

    /* Every breaking status does the same; a failure at 2_1 leaves none. A
     * known failure is a failure still (the baseline answers another
     * question); a known failure that passed is a pass; a case not judged
     * for lack of resources leaves no verdict. */
    for (int s = 0; s < DMLCONF_STATUS_COUNT; ++s)
    {
        bool breaks = s == DMLCONF_STATUS_FAIL || s == DMLCONF_STATUS_ERROR || s == DMLCONF_STATUS_CRASH ||
                      s == DMLCONF_STATUS_TIMEOUT || s == DMLCONF_STATUS_EXPECTED_FAIL || s == DMLCONF_STATUS_SKIP;
        bool unjudged = s == DMLCONF_STATUS_NO_RESOURCES;
        count = passing_ladder(results);
        results[0].status = (dmlconf_status)s;
        build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
        dmlconf_matrix_verdict(&matrix, &verdict);
        ck_assert_msg(verdict.conformant == !(breaks || unjudged), "status %d", s);
        if (breaks)
            ck_assert_str_eq(verdict.text, "not conformant");
        if (unjudged)
        {
            ck_assert_str_eq(verdict.text, "incomplete");
            ck_assert_int_eq(verdict.exit_status, DMLCONF_EXIT_INCOMPLETE);
        }
        ck_assert_int_eq(verdict.exit_status, breaks     ? DMLCONF_EXIT_FAILED
                                              : unjudged ? DMLCONF_EXIT_INCOMPLETE
                                                         : DMLCONF_EXIT_PASSED);
        dmlconf_matrix_free(&matrix);
    }
}
END_TEST

START_TEST(test_verdict_skip_unsupported)
{
    dmlconf_matrix matrix;
    dmlconf_run_verdict verdict;
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = passing_ladder(results);

    /* The backend does not support UINT64 products at 5_0: a skip that
     * breaks 5_0. */
    results[count++] = make_result("prod.u64", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_UINT64,
                                   DMLCONF_FEATURE_LEVEL_5_0, DMLCONF_STATUS_SKIP);
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert_str_eq(verdict.text, "conformant at level 4_0");
    ck_assert_uint_eq(matrix.rows[2].cells[3].skipped, 1);
    dmlconf_matrix_free(&matrix);

    /* The same case above a 4_0 target does not count. */
    count = passing_ladder(results);
    count -= 2; /* drop the 5_0 cases: they would be skipped too */
    results[count++] = make_result("prod.u64", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_UINT64,
                                   DMLCONF_FEATURE_LEVEL_5_0, DMLCONF_STATUS_SKIP);
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_4_0, results, count);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert_str_eq(verdict.text, "conformant at level 4_0");
    ck_assert(verdict.at_target);
    ck_assert(matrix.columns[3].above_target);
    dmlconf_matrix_free(&matrix);
}
END_TEST

/* A case skipped because the backend does not support what it needs. */
static dmlconf_case_result unsupported_result(const char *id, dmlconf_data_type type, dmlconf_feature_level level,
                                              const char *needs, bool negative)
{
    dmlconf_case_result result =
        make_result(id, DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, type, level, DMLCONF_STATUS_SKIP);
    result.unsupported = true;
    result.negative = negative;
    snprintf(result.needs, sizeof(result.needs), "%s", needs);
    snprintf(result.message, sizeof(result.message), "the plugin:x backend does not support %s", needs);
    memset(&result.comparison, 0, sizeof(result.comparison));
    return result;
}

/* The passing ladder at 5_0, and cases it does not support: a FLOAT16 sum
 * at 2_1, an INT64 sum at 5_0 and two negative cases (no validation). */
static size_t ladder_with_gaps(dmlconf_case_result *out)
{
    size_t n = passing_ladder(out);

    out[n++] = unsupported_result("sum.f16", DMLCONF_DATA_TYPE_FLOAT16, DMLCONF_FEATURE_LEVEL_2_1, "FLOAT16", false);
    out[n++] = unsupported_result("sum.i64", DMLCONF_DATA_TYPE_INT64, DMLCONF_FEATURE_LEVEL_5_0, "INT64", false);
    out[n++] = unsupported_result("neg.a", DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_FEATURE_LEVEL_NONE, "validation", true);
    out[n++] = unsupported_result("neg.b", DMLCONF_DATA_TYPE_INT32, DMLCONF_FEATURE_LEVEL_NONE, "validation", true);
    return n;
}

START_TEST(test_verdict_not_covered)
{
    dmlconf_matrix matrix;
    dmlconf_run_verdict verdict;
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = ladder_with_gaps(results);
    char text[64];

    /* A negative case skipped because its desc is valid at the target says
     * nothing; one skipped because the backend does not validate is not
     * covered. */
    results[count] = make_result("neg.valid", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_INT64,
                                 DMLCONF_FEATURE_LEVEL_NONE, DMLCONF_STATUS_SKIP);
    results[count++].negative = true;
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert_int_eq(verdict.status, DMLCONF_RUN_PARTLY_COVERED);
    ck_assert_str_eq(dmlconf_run_status_name(verdict.status), "partly-covered");
    ck_assert_str_eq(verdict.text, "conformant at level 5_0 for what it supports");
    ck_assert(!verdict.conformant);
    ck_assert(!verdict.at_target);
    ck_assert_int_eq(verdict.level, DMLCONF_FEATURE_LEVEL_NONE);
    ck_assert_int_eq(verdict.supported_level, DMLCONF_FEATURE_LEVEL_5_0);
    ck_assert_uint_eq(verdict.not_covered, 4);
    ck_assert_str_eq(verdict.detail, "all 8 cases it supports at or below the target level 5_0 passed; not covered, "
                                     "as the backend does not support them: 4 cases (FLOAT16: 1, INT64: 1, "
                                     "validation: 2)");
    ck_assert_uint_eq(matrix.required, 12);
    ck_assert_uint_eq(matrix.breaking, 0);
    ck_assert_uint_eq(matrix.unsupported, 4);
    ck_assert_int_eq(matrix.lowest_unsupported_level, DMLCONF_FEATURE_LEVEL_NONE);
    ck_assert_uint_eq(matrix.gap_count, 3);
    ck_assert_str_eq(matrix.gaps[0].needs, "FLOAT16");
    ck_assert_int_eq(matrix.gaps[0].lowest_level, DMLCONF_FEATURE_LEVEL_2_1);
    ck_assert_str_eq(matrix.gaps[2].needs, "validation");
    ck_assert_uint_eq(matrix.gaps[2].cases, 2);
    ck_assert_uint_eq(matrix.gaps[2].negative, 2);
    /* The negative cases count in every column: each is only partly
     * covered. */
    for (size_t c = 0; c < 4; ++c)
    {
        ck_assert(!dmlconf_matrix_column_conformant(&matrix, c));
        ck_assert(dmlconf_matrix_column_partly_covered(&matrix, c));
        ck_assert_str_eq(dmlconf_matrix_column_word(&matrix, c), "partly");
    }
    ck_assert_str_eq(dmlconf_matrix_column_word(&matrix, 4), "above");
    ck_assert_uint_eq(matrix.totals[0].unsupported, 3);
    ck_assert_uint_eq(matrix.totals[3].unsupported, 4);
    ck_assert_uint_eq(matrix.totals[3].skipped, 4);
    /* The phrase, whole and cut like snprintf. */
    ck_assert_uint_eq(dmlconf_matrix_format_gaps(&matrix, NULL, 0), strlen("4 cases (FLOAT16: 1, INT64: 1, "
                                                                           "validation: 2)"));
    ck_assert_uint_eq(dmlconf_matrix_format_gaps(&matrix, text, 8), 45);
    ck_assert_str_eq(text, "4 cases");
    dmlconf_matrix_free(&matrix);

    /* Without the negative cases, the columns below FLOAT16's level... none:
     * 2_1 is the lowest column, so every column holds the FLOAT16 case. */
    count = ladder_with_gaps(results) - 2;
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert_str_eq(verdict.text, "conformant at level 5_0 for what it supports");
    ck_assert_uint_eq(matrix.totals[0].unsupported, 1);
    dmlconf_matrix_free(&matrix);

    /* Only the INT64 case, at 5_0, is not covered: every column below 5_0
     * is conformant, 5_0 only partly. */
    count = passing_ladder(results);
    results[count++] =
        unsupported_result("sum.i64", DMLCONF_DATA_TYPE_INT64, DMLCONF_FEATURE_LEVEL_5_0, "INT64", false);
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert_str_eq(verdict.text, "conformant at level 5_0 for what it supports");
    for (size_t c = 0; c < 3; ++c)
        ck_assert_str_eq(dmlconf_matrix_column_word(&matrix, c), "yes");
    ck_assert_str_eq(dmlconf_matrix_column_word(&matrix, 3), "partly");
    dmlconf_matrix_free(&matrix);

    /* A results file without `needs` still groups the case. */
    count = passing_ladder(results);
    results[count] = unsupported_result("sum.i64", DMLCONF_DATA_TYPE_INT64, DMLCONF_FEATURE_LEVEL_5_0, "", false);
    results[count++].needs[0] = '\0';
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    ck_assert_uint_eq(matrix.gap_count, 1);
    ck_assert_str_eq(matrix.gaps[0].needs, "a capability the results do not name");
    dmlconf_matrix_free(&matrix);
}
END_TEST

START_TEST(test_verdict_not_covered_and_failures)
{
    dmlconf_matrix matrix;
    dmlconf_run_verdict verdict;
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count;

    /* The 5_0 cases fail and the INT64 case at 5_0 is not supported: every
     * case at or below 4_0 was covered and passed, so 4_0 is claimed in
     * full, and the detail still names what was not covered above it. */
    count = passing_ladder(results);
    results[6].status = DMLCONF_STATUS_FAIL;
    results[count++] =
        unsupported_result("sum.i64", DMLCONF_DATA_TYPE_INT64, DMLCONF_FEATURE_LEVEL_5_0, "INT64", false);
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert_int_eq(verdict.status, DMLCONF_RUN_CONFORMANT);
    ck_assert_str_eq(verdict.text, "conformant at level 4_0");
    ck_assert(verdict.conformant);
    ck_assert(!verdict.at_target);
    ck_assert_int_eq(verdict.level, DMLCONF_FEATURE_LEVEL_4_0);
    ck_assert_int_eq(verdict.supported_level, DMLCONF_FEATURE_LEVEL_4_0);
    ck_assert_msg(strstr(verdict.detail, "1 of the 8 cases it supports at or below it failed") != NULL, "%s",
                  verdict.detail);
    ck_assert_msg(strstr(verdict.detail, "; not covered above level 4_0, as the backend does not support them: 1 "
                                         "case (INT64: 1)") != NULL,
                  "%s", verdict.detail);
    ck_assert_str_eq(dmlconf_matrix_column_word(&matrix, 2), "yes");
    ck_assert_str_eq(dmlconf_matrix_column_word(&matrix, 3), "no");
    dmlconf_matrix_free(&matrix);

    /* The same with a FLOAT16 case at 2_1 not covered: 4_0 only for what it
     * supports. */
    results[count++] =
        unsupported_result("sum.f16", DMLCONF_DATA_TYPE_FLOAT16, DMLCONF_FEATURE_LEVEL_2_1, "FLOAT16", false);
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert_int_eq(verdict.status, DMLCONF_RUN_PARTLY_COVERED);
    ck_assert_str_eq(verdict.text, "conformant at level 4_0 for what it supports");
    ck_assert_int_eq(verdict.supported_level, DMLCONF_FEATURE_LEVEL_4_0);
    ck_assert_str_eq(dmlconf_matrix_column_word(&matrix, 2), "partly");
    dmlconf_matrix_free(&matrix);

    /* A failure at 2_1: not conformant, and the detail still names what was
     * not covered. */
    results[0].status = DMLCONF_STATUS_CRASH;
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert_int_eq(verdict.status, DMLCONF_RUN_NOT_CONFORMANT);
    ck_assert_str_eq(verdict.text, "not conformant");
    ck_assert_int_eq(verdict.supported_level, DMLCONF_FEATURE_LEVEL_NONE);
    ck_assert_msg(strstr(verdict.detail, "; not covered, as the backend does not support them: 2 cases (FLOAT16: 1, "
                                         "INT64: 1)") != NULL,
                  "%s", verdict.detail);
    dmlconf_matrix_free(&matrix);

    /* Nothing supported: no level is claimed. */
    count = 0;
    results[count++] =
        unsupported_result("sum.f16", DMLCONF_DATA_TYPE_FLOAT16, DMLCONF_FEATURE_LEVEL_2_1, "FLOAT16", false);
    results[count++] =
        unsupported_result("neg.a", DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_FEATURE_LEVEL_NONE, "validation", true);
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert_int_eq(verdict.status, DMLCONF_RUN_INCOMPLETE);
    ck_assert_str_eq(verdict.text, "incomplete");
    ck_assert_str_eq(verdict.detail, "nothing was judged: the backend supports none of the 2 cases at or below "
                                     "the target level 5_0; not covered, as the backend does not support them: 2 "
                                     "cases (FLOAT16: 1, validation: 1)");
    ck_assert_int_eq(verdict.exit_status, DMLCONF_EXIT_INCOMPLETE);
    for (size_t c = 0; c < 4; ++c)
        ck_assert_str_eq(dmlconf_matrix_column_word(&matrix, c), "no");
    dmlconf_matrix_free(&matrix);

    /* An incomplete run claims nothing, whatever it covered. */
    count = ladder_with_gaps(results);
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    {
        dmlconf_run_end end = {DMLCONF_END_NONE, 0, -1.0, ""};
        dmlconf_matrix_set_completeness(&matrix, count, 0, &end);
    }
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert_int_eq(verdict.status, DMLCONF_RUN_INCOMPLETE);
    ck_assert_int_eq(verdict.supported_level, DMLCONF_FEATURE_LEVEL_NONE);
    ck_assert_msg(strstr(verdict.detail, "the results so far: conformant at level 5_0 for what it supports (all 8 "
                                         "cases it supports") != NULL,
                  "%s", verdict.detail);
    dmlconf_matrix_free(&matrix);
}
END_TEST

START_TEST(test_verdict_not_covered_console)
{
    dmlconf_matrix matrix;
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = ladder_with_gaps(results);
    char *console;
    size_t size;
    FILE *out;

    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    out = open_memstream(&console, &size);
    dmlconf_matrix_print(out, &matrix, false);
    fclose(out);
    ck_assert_msg(strstr(console, "\nnot covered (cases the backend does not support, by what they need):\n"
                                  "  FLOAT16     1 case, from level 2_1\n"
                                  "  INT64       1 case, from level 5_0\n"
                                  "  validation  2 negative cases\n") != NULL,
                  "%s", console);
    ck_assert_msg(strstr(console, "\nverdict: conformant at level 5_0 for what it supports (all 8 cases it "
                                  "supports") != NULL,
                  "%s", console);
    ck_assert_msg(strstr(console, "partly  partly") != NULL, "%s", console);
    free(console);
    dmlconf_matrix_free(&matrix);
}
END_TEST

/* A baseline never makes a failing run conformant: it answers "no
 * regressions" beside the verdict, with its own exit status. */
START_TEST(test_verdict_baseline_and_empty)
{
    dmlconf_matrix matrix;
    dmlconf_run_verdict verdict;
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = passing_ladder(results);
    dmlconf_verdict_scope scope = {.kind = DMLCONF_SCOPE_CORPUS, .baseline = true};

    /* Every failure known to the baseline: not conformant, no regressions,
     * exit 0 for the baseline's question. */
    results[1].status = DMLCONF_STATUS_EXPECTED_FAIL;
    results[1].known_status = DMLCONF_STATUS_FAIL;
    results[2].status = DMLCONF_STATUS_FLAKE;
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    dmlconf_matrix_set_scope(&matrix, &scope);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert_str_eq(verdict.text, "not conformant");
    ck_assert(!verdict.conformant);
    ck_assert_msg(strstr(verdict.detail, "1 of them known failure of the baseline") != NULL, "%s", verdict.detail);
    ck_assert_msg(strstr(verdict.detail, "1 flaky case") != NULL, "%s", verdict.detail);
    ck_assert_int_eq(verdict.baseline, DMLCONF_BASELINE_NO_REGRESSIONS);
    ck_assert_msg(strstr(verdict.baseline_text, "no regressions against the baseline (1 known failure accepted") !=
                      NULL,
                  "%s", verdict.baseline_text);
    ck_assert_int_eq(verdict.exit_status, DMLCONF_EXIT_PASSED);
    dmlconf_matrix_free(&matrix);

    /* Without the baseline the same results fail. */
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert_int_eq(verdict.baseline, DMLCONF_BASELINE_NONE);
    ck_assert_str_eq(verdict.baseline_text, "");
    ck_assert_int_eq(verdict.exit_status, DMLCONF_EXIT_FAILED);
    dmlconf_matrix_free(&matrix);

    /* A failure the baseline does not expect, a known failure that passed,
     * and a stale line under a strict baseline are each a regression. */
    for (int kind = 0; kind < 3; ++kind)
    {
        count = passing_ladder(results);
        scope.strict_baseline = kind == 2;
        scope.stale_baseline_lines = kind == 2 ? 1 : 0;
        if (kind == 0)
            results[3].status = DMLCONF_STATUS_CRASH;
        if (kind == 1)
            results[3].status = DMLCONF_STATUS_UNEXPECTED_PASS;
        build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
        dmlconf_matrix_set_scope(&matrix, &scope);
        dmlconf_matrix_verdict(&matrix, &verdict);
        ck_assert_int_eq(verdict.baseline, DMLCONF_BASELINE_REGRESSIONS);
        ck_assert_int_eq(verdict.exit_status, DMLCONF_EXIT_FAILED);
        ck_assert_msg(strstr(verdict.baseline_text, kind == 0   ? "1 failure it does not expect"
                                                    : kind == 1 ? "1 known failure passed"
                                                                : "1 stale line under --strict-baseline") != NULL,
                      "%s", verdict.baseline_text);
        dmlconf_matrix_free(&matrix);
    }
    /* A stale line without --strict-baseline is no regression. */
    count = passing_ladder(results);
    scope.strict_baseline = false;
    scope.stale_baseline_lines = 3;
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    dmlconf_matrix_set_scope(&matrix, &scope);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert_int_eq(verdict.baseline, DMLCONF_BASELINE_NO_REGRESSIONS);
    ck_assert_str_eq(verdict.text, "conformant at level 5_0");
    dmlconf_matrix_free(&matrix);

    /* An incomplete run answers neither question. */
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    dmlconf_matrix_set_scope(&matrix, &scope);
    {
        dmlconf_run_end end = {DMLCONF_END_INTERRUPTED, 0, -1.0, "SIGTERM"};
        dmlconf_matrix_set_completeness(&matrix, count + 1, 0, &end);
    }
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert_int_eq(verdict.baseline, DMLCONF_BASELINE_UNANSWERED);
    ck_assert_int_eq(verdict.exit_status, DMLCONF_EXIT_INCOMPLETE);
    dmlconf_matrix_free(&matrix);

    /* Nothing at all: nothing judged, incomplete. */
    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, 0);
    dmlconf_matrix_verdict(&matrix, &verdict);
    ck_assert(!verdict.conformant);
    ck_assert_int_eq(verdict.status, DMLCONF_RUN_INCOMPLETE);
    ck_assert_str_eq(verdict.text, "incomplete");
    ck_assert_msg(strstr(verdict.detail, "nothing was judged") != NULL, "%s", verdict.detail);
    ck_assert_int_eq(verdict.exit_status, DMLCONF_EXIT_INCOMPLETE);
    dmlconf_matrix_free(&matrix);
}
END_TEST

/* Only the whole corpus on an implementation under test is conformant: a
 * subset, files of the user's own, random cases and the self-check pass or
 * fail, and say which they are. */
START_TEST(test_verdict_scopes)
{
    static const struct
    {
        dmlconf_scope_kind kind;
        bool self_check;
        const char *detail;
        const char *passed, *failed, *scope_start;
    } scopes[] = {
        {DMLCONF_SCOPE_CORPUS, false, "", "conformant at level 5_0", "not conformant", "the whole reference corpus"},
        {DMLCONF_SCOPE_SUBSET, false, "filter 'doc.*'", "passed", "failed",
         "a subset of the reference corpus (filter 'doc.*'); no conformance claim"},
        {DMLCONF_SCOPE_FILES, false, "mine.yaml", "passed", "failed",
         "case files that are not the reference corpus (mine.yaml); no conformance claim"},
        {DMLCONF_SCOPE_EXPLORE, false, "seed 1", "passed", "failed", "random cases drawn by explore (seed 1)"},
        {DMLCONF_SCOPE_CORPUS, true, "", "self-check passed", "self-check failed", "the self-check (the oracle"},
    };
    dmlconf_case_result results[SAMPLE_MAX];
    for (size_t i = 0; i < sizeof(scopes) / sizeof(scopes[0]); ++i)
    {
        for (int failing = 0; failing < 2; ++failing)
        {
            dmlconf_matrix matrix;
            dmlconf_run_verdict verdict;
            dmlconf_verdict_scope scope = {.kind = scopes[i].kind, .self_check = scopes[i].self_check};
            snprintf(scope.detail, sizeof(scope.detail), "%s", scopes[i].detail);
            size_t count = passing_ladder(results);
            if (failing)
                results[0].status = DMLCONF_STATUS_FAIL;
            build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
            dmlconf_matrix_set_scope(&matrix, &scope);
            dmlconf_matrix_verdict(&matrix, &verdict);
            ck_assert_str_eq(verdict.text, failing ? scopes[i].failed : scopes[i].passed);
            ck_assert_msg(!strncmp(verdict.scope_text, scopes[i].scope_start, strlen(scopes[i].scope_start)),
                          "%s", verdict.scope_text);
            ck_assert_int_eq(verdict.exit_status, failing ? DMLCONF_EXIT_FAILED : DMLCONF_EXIT_PASSED);
            const bool claims = scopes[i].kind == DMLCONF_SCOPE_CORPUS && !scopes[i].self_check;
            if (!claims)
            {
                ck_assert(!verdict.conformant);
                ck_assert_int_eq(verdict.level, DMLCONF_FEATURE_LEVEL_NONE);
                ck_assert_int_eq(verdict.status, failing ? DMLCONF_RUN_FAILED : DMLCONF_RUN_PASSED);
                ck_assert_ptr_nonnull(strstr(verdict.scope_text, "no conformance claim"));
            }
            dmlconf_matrix_free(&matrix);
        }
    }

    /* A subset with cases not covered passes only for what it supports,
     * and is incomplete for the gate. */
    {
        dmlconf_matrix matrix;
        dmlconf_run_verdict verdict;
        dmlconf_verdict_scope scope = {.kind = DMLCONF_SCOPE_SUBSET};
        size_t count = ladder_with_gaps(results);
        build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
        dmlconf_matrix_set_scope(&matrix, &scope);
        dmlconf_matrix_verdict(&matrix, &verdict);
        ck_assert_str_eq(verdict.text, "passed for what it supports");
        ck_assert_int_eq(verdict.status, DMLCONF_RUN_PARTLY_COVERED);
        ck_assert_int_eq(verdict.exit_status, DMLCONF_EXIT_INCOMPLETE);
        dmlconf_matrix_free(&matrix);
    }

    /* A shard of the corpus is a subset; the merge of every shard (shard 0
     * of 1) is the corpus again; an older results file is nobody's corpus. */
    {
        dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
        dmlconf_verdict_scope scope;
        info.shard_index = 1;
        info.shard_count = 3;
        dmlconf_run_info_scope(&info, &scope);
        ck_assert_int_eq(scope.kind, DMLCONF_SCOPE_SUBSET);
        ck_assert_str_eq(scope.detail, "shard 1/3");
        info.shard_index = 0;
        info.shard_count = 1;
        dmlconf_run_info_scope(&info, &scope);
        ck_assert_int_eq(scope.kind, DMLCONF_SCOPE_CORPUS);
        info.scope[0] = '\0';
        dmlconf_run_info_scope(&info, &scope);
        ck_assert_int_eq(scope.kind, DMLCONF_SCOPE_FILES);
        info.self_check = true;
        snprintf(info.baseline, sizeof(info.baseline), "base");
        dmlconf_run_info_scope(&info, &scope);
        ck_assert(scope.self_check);
        ck_assert(scope.baseline);
    }
}
END_TEST

START_TEST(test_matrix_print)
{
    dmlconf_matrix matrix;
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = sample_results(results);
    char *plain;
    char *colored;
    size_t plain_size;
    size_t colored_size;
    size_t width = 0;
    size_t table_lines = 0;
    FILE *out;

    build_matrix(&matrix, DMLCONF_FEATURE_LEVEL_5_0, results, count);
    out = open_memstream(&plain, &plain_size);
    dmlconf_matrix_print(out, &matrix, false);
    fclose(out);
    out = open_memstream(&colored, &colored_size);
    dmlconf_matrix_print(out, &matrix, true);
    fclose(out);

    ck_assert_ptr_null(strchr(plain, '\033'));
    ck_assert_ptr_nonnull(strstr(colored, "\033[31m"));
    ck_assert_ptr_nonnull(strstr(plain, "verdict: conformant at level 2_1"));
    ck_assert_ptr_nonnull(strstr(plain, "13 cases: 6 pass, 2 fail, 1 skip, 1 error, 1 crash"));

    /* The table's lines (header to "conformant") are equally wide: aligned. */
    for (char *line = plain; *line;)
    {
        char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        if (!strncmp(line, "operator", 8) || !strncmp(line, "cumulative_", 11) || !strncmp(line, "all ", 4) ||
            !strncmp(line, "conformant", 10))
        {
            if (table_lines++ == 0)
                width = length;
            ck_assert_msg(length == width, "misaligned: '%.*s'", (int)length, line);
        }
        line += end ? length + 1 : length;
    }
    ck_assert_uint_eq(table_lines, matrix.row_count + 3);
    free(plain);
    free(colored);
    dmlconf_matrix_free(&matrix);
}
END_TEST

/* ---- the final reports ----------------------------------------------------------------- */

START_TEST(test_failures_txt)
{
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = sample_results(results);
    char *text;
    size_t size;
    FILE *out;

    results[0].status = DMLCONF_STATUS_UNEXPECTED_PASS; /* leaves the baseline */
    results[1].status = DMLCONF_STATUS_TIMEOUT;
    out = open_memstream(&text, &size);
    ck_assert_int_eq(dmlconf_write_failures(out, results, count, NULL, 0), 0);
    fclose(out);
    ck_assert_str_eq(text, "prod.f16.r3.a2.exc,error\n"
                           "prod.i64.r2.a1.inc,crash\n"
                           "sum.f16.r8.a7.inc,fail\n"
                           "sum.f32.r1.a0.exc,timeout\n"
                           "sum.u32.r2.a0.inc,fail\n"
                           "weird.\"q\" <script>&amp; 'x' | `t`,? \xc3\xa9\xf0\x9f\x99\x82,fail\n");
    free(text);
}
END_TEST

START_TEST(test_write_all_and_summary_json)
{
    char dir[512];
    char path[600];
    char why[512] = "";
    dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = sample_results(results);
    static const char *const names[] = {DMLCONF_REPORT_RESULTS_JSONL, DMLCONF_REPORT_SUMMARY_JSON,
                                        DMLCONF_REPORT_JUNIT_XML,     DMLCONF_REPORT_SUMMARY_MD,
                                        DMLCONF_REPORT_HTML,          DMLCONF_REPORT_FAILURES_TXT};
    json_error_t error;
    json_t *root;
    json_t *failing;
    json_t *columns;
    json_t *groups;
    dmlconf_results_file file;

    test_dir("write_all", dir, sizeof(dir));
    ck_assert_msg(write_reports(dir, &info, results, count, why, sizeof(why)) == 0, "%s", why);
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i)
    {
        size_t size = 0;
        char *data;
        join(path, sizeof(path), dir, names[i]);
        data = read_file(path, &size);
        ck_assert_msg(data && size > 0, "%s is missing or empty", names[i]);
        free(data);
    }
    /* Each report replaced its file whole: no temporary file is left. */
    DIR *folder = opendir(dir);
    ck_assert_ptr_nonnull(folder);
    for (struct dirent *entry; (entry = readdir(folder)) != NULL;)
        ck_assert_msg(!strstr(entry->d_name, ".tmp"), "%s/%s left behind", dir, entry->d_name);
    closedir(folder);

    join(path, sizeof(path), dir, DMLCONF_REPORT_RESULTS_JSONL);
    ck_assert_msg(dmlconf_results_file_read(path, &file, why, sizeof(why)) == 0, "%s", why);
    ck_assert_uint_eq(file.results.count, count);
    for (size_t i = 0; i < count; ++i)
        assert_same_result(&results[i], &file.results.items[i]);
    ck_assert_int_eq(file.end.kind, DMLCONF_END_FINISHED);
    dmlconf_results_file_free(&file);

    join(path, sizeof(path), dir, DMLCONF_REPORT_SUMMARY_JSON);
    root = json_load_file(path, 0, &error);
    ck_assert_msg(root != NULL, "summary.json: %s", error.text);
    ck_assert_str_eq(json_string_value(json_object_get(root, "format")), "dmlconf-summary");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(root, "verdict"), "text")),
                     "conformant at level 2_1");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(root, "verdict"), "level")), "2_1");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(root, "verdict"), "lowest_broken_level")),
                     "3_1");
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(root, "counts"), "cases")), (json_int_t)count);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(root, "counts"), "fail")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(root, "counts"), "expected-fail")), 1);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(root, "run"), "seed")), "18446744073709551615");
    failing = json_object_get(root, "failing_ids");
    ck_assert_uint_eq(json_array_size(failing), 4);
    ck_assert_str_eq(json_string_value(json_array_get(failing, 0)), "prod.f16.r3.a2.exc");
    ck_assert_str_eq(json_string_value(json_array_get(failing, 1)), "prod.i64.r2.a1.inc");
    ck_assert_str_eq(json_string_value(json_array_get(failing, 2)), "sum.f16.r8.a7.inc");
    ck_assert_str_eq(json_string_value(json_array_get(failing, 3)), WEIRD_ID);
    columns = json_object_get(json_object_get(root, "matrix"), "columns");
    ck_assert_uint_eq(json_array_size(columns), 5);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(columns, 4), "label")), "5_1+");
    ck_assert(json_is_true(json_object_get(json_array_get(columns, 0), "conformant")));
    ck_assert(json_is_false(json_object_get(json_array_get(columns, 1), "conformant")));
    ck_assert_int_eq(
        json_integer_value(json_array_get(json_object_get(json_object_get(root, "histogram"), "counts"), 10)), 13);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(root, "verdict"), "status")), "conformant");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(root, "completion"), "end")), "finished");
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(root, "completion"), "planned_cases")), 13);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(root, "completion"), "recorded_cases")), 13);
    /* Times are the cases' own, summed: 13 x 2 ms of wall time, 13 x 0.5 ms
     * on the device. */
    ck_assert(fabs(json_real_value(json_object_get(json_object_get(root, "times"), "case_wall_seconds")) - 0.026) <
              1e-12);
    ck_assert(fabs(json_real_value(json_object_get(json_object_get(root, "times"), "case_device_seconds")) - 0.0065) <
              1e-12);
    ck_assert(json_real_value(json_object_get(json_object_get(root, "times"), "elapsed_seconds")) == 1.5);
    ck_assert_uint_eq(json_array_size(json_object_get(json_object_get(root, "ulp_histogram"), "counts")),
                      DMLCONF_ULP_BINS);
    ck_assert_uint_eq(json_array_size(json_object_get(root, "load_errors")), 0);
    /* Failures grouped by cause, across data types: the cause with the
     * most cases first, then the most severe. */
    groups = json_object_get(root, "failure_groups");
    ck_assert_uint_eq(json_array_size(groups), 3);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(groups, 0), "cause")), "outside-bound");
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(groups, 0), "cases")), 2);
    ck_assert_uint_eq(json_array_size(json_object_get(json_array_get(groups, 0), "dtypes")), 2);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(groups, 1), "cause")), "crash");
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(json_array_get(groups, 1), "dtypes"), 0)),
                     "INT64");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(groups, 2), "cause")), "error");
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(json_array_get(groups, 0), "ids"), 0)),
                     "sum.f16.r8.a7.inc");
    json_decref(root);
}
END_TEST

/* summary.md and report.html show the cases that took longest on the
 * device, most first, with their time an element; cases the backend did
 * not time are left out, and a run without device times has no table. */
START_TEST(test_device_times)
{
    char dir[512];
    char path[600];
    char why[512] = "";
    dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    dmlconf_case_result results[30];
    for (size_t i = 0; i < 30; ++i)
    {
        char id[32];
        snprintf(id, sizeof(id), "timed.%02zu", i);
        results[i] = make_result(id, DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32,
                                 DMLCONF_FEATURE_LEVEL_4_0, DMLCONF_STATUS_PASS);
        results[i].backend_seconds = (double)((i * 7) % 30) * 1e-3; /* 0 to 29 ms, shuffled */
        results[i].comparison.elements = 1000000;
    }
    results[4].backend_seconds = -1.0; /* not timed (7 * 4 % 30 = 28 ms otherwise) */
    test_dir("device_times", dir, sizeof(dir));
    ck_assert_msg(write_reports(dir, &info, results, 30, why, sizeof(why)) == 0, "%s", why);
    join(path, sizeof(path), dir, DMLCONF_REPORT_SUMMARY_MD);
    char *md = read_file(path, NULL);
    ck_assert_ptr_nonnull(md);
    const char *section = strstr(md, "## Time on the device");
    ck_assert_msg(section != NULL, "no device-time section in summary.md");
    ck_assert_msg(strstr(section, "The 20 cases that took longest") != NULL, "%s", section);
    /* The slowest first: 29 ms is case 17 (7 * 17 % 30 = 29), then 27 ms
     * (case 21); case 4 (not timed) is not there. */
    const char *first = strstr(section, "timed.17");
    const char *second = strstr(section, "timed.21");
    ck_assert_msg(first && second && first < second, "order: %s", section);
    ck_assert_msg(strstr(section, "| 29.000 | 29.000 |") != NULL, "29 ms over 10^6 elements is 29 ns an element: %s",
                  section);
    ck_assert_msg(strstr(section, "timed.04") == NULL, "an untimed case is listed");
    free(md);
    join(path, sizeof(path), dir, DMLCONF_REPORT_HTML);
    char *html = read_file(path, NULL);
    ck_assert_ptr_nonnull(html);
    ck_assert_msg(strstr(html, "<section id=\"device\"><h2>Time on the device</h2>") != NULL, "no html section");
    free(html);

    for (size_t i = 0; i < 30; ++i)
        results[i].backend_seconds = -1.0;
    test_dir("device_times_none", dir, sizeof(dir));
    ck_assert_msg(write_reports(dir, &info, results, 30, why, sizeof(why)) == 0, "%s", why);
    join(path, sizeof(path), dir, DMLCONF_REPORT_SUMMARY_MD);
    md = read_file(path, NULL);
    ck_assert_ptr_nonnull(md);
    ck_assert_msg(strstr(md, "Time on the device") == NULL, "a device-time section without device times");
    free(md);
}
END_TEST

START_TEST(test_escaping_in_reports)
{
    char dir[512];
    char path[600];
    char why[512] = "";
    dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = sample_results(results);
    char *html;
    char *markdown;
    char *junit;

    test_dir("escaping", dir, sizeof(dir));
    ck_assert_msg(write_reports(dir, &info, results, count, why, sizeof(why)) == 0, "%s", why);
    join(path, sizeof(path), dir, DMLCONF_REPORT_HTML);
    html = read_file(path, NULL);
    join(path, sizeof(path), dir, DMLCONF_REPORT_SUMMARY_MD);
    markdown = read_file(path, NULL);
    join(path, sizeof(path), dir, DMLCONF_REPORT_JUNIT_XML);
    junit = read_file(path, NULL);
    ck_assert(html && markdown && junit);

    /* HTML: the id's markup is text, the page fetches and runs nothing. */
    ck_assert_ptr_null(strstr(html, "<script"));
    ck_assert_ptr_nonnull(strstr(html, "weird.&quot;q&quot; &lt;script&gt;&amp;amp; &#39;x&#39; | `t`,\xef\xbf\xbd "
                                       "\xc3\xa9\xf0\x9f\x99\x82"));
    ck_assert_ptr_nonnull(strstr(html, "line one\nline two &lt;b&gt;&amp;amp;&lt;/b&gt;"));
    ck_assert_ptr_nonnull(strstr(html, "Example GPU &quot;X&quot; &lt;rev &amp; 2&gt;"));
    ck_assert_ptr_null(strstr(html, "http:"));
    ck_assert_ptr_null(strstr(html, "https:"));
    ck_assert_ptr_null(strstr(html, "src="));
    ck_assert_ptr_null(strstr(html, "<link"));
    ck_assert_ptr_null(strstr(html, "url("));
    ck_assert_ptr_nonnull(strstr(html, "<svg id=\"error-histogram\""));
    ck_assert_ptr_nonnull(strstr(html, "VKD3D_CONFIG=no_upload_hvv DMLCONF_D3D12_KERNEL=&#39;it&#39;\\&#39;&#39;s "
                                       "odd&#39; dmlconf run --backend d3d12 --adapter &#39;Example GPU&#39; "
                                       "--feature-level 5_0 --seed 18446744073709551615 --filter sum.f16.r8.a7.inc "
                                       "cases/conformance/scan.yaml"));
    ck_assert_ptr_nonnull(strstr(html, "repro/sum.f16.r8.a7.inc.yaml"));
    ck_assert_ptr_nonnull(strstr(html, "0x3e0<b class=\"diffbit\">3</b>")); /* actual bits, differing digit */

    /* Markdown: code spans fenced past the backtick, pipes escaped in
     * tables, markup in messages escaped, line breaks flattened. */
    ck_assert_ptr_nonnull(strstr(markdown, "- ``weird.\"q\" <script>&amp; 'x' | `t`,\xef\xbf\xbd "
                                           "\xc3\xa9\xf0\x9f\x99\x82`` (fail, "));
    ck_assert_ptr_nonnull(strstr(markdown, "| `prod.u64.r1.a0.inc` | skip | above the target level 5\\_0 \\| pipe |"));
    ck_assert_ptr_nonnull(strstr(markdown, "line one line two \\<b\\>\\&amp;\\</b\\> \\| \"quoted\""));
    ck_assert_ptr_nonnull(strstr(markdown, "**Verdict: conformant at level 2_1**"));
    ck_assert_ptr_nonnull(strstr(markdown, "reproduce: `VKD3D_CONFIG=no_upload_hvv DMLCONF_D3D12_KERNEL='it'\\''s odd' "
                                           "dmlconf run --backend d3d12 --adapter 'Example GPU' --feature-level 5_0 "
                                           "--seed 18446744073709551615 --filter sum.f16.r8.a7.inc "
                                           "cases/conformance/scan.yaml`"));
    ck_assert_ptr_nonnull(strstr(markdown, "| cumulative_summation | FLOAT16 | 1 / 0 / 0 | 1 / 0 / 0 | 1 / 1 / 0 |"));

    /* JUnit: attributes keep their line breaks as references. */
    ck_assert_ptr_nonnull(strstr(junit, "message=\"line one&#10;line two &lt;b&gt;&amp;amp;&lt;/b&gt; | "
                                        "&quot;quoted&quot;\""));
    ck_assert_ptr_nonnull(strstr(junit, "<property name=\"adapter\" value=\"Example GPU &quot;X&quot; &lt;rev &amp; "
                                        "2&gt;\"/>"));
    free(html);
    free(markdown);
    free(junit);
}
END_TEST

/* ---- the verdict everywhere ------------------------------------------------------------ */

/* The reports of one folder, read back. */
typedef struct written_reports
{
    json_t *summary;
    char *markdown;
    char *junit;
    char *html;
} written_reports;

static void read_reports(const char *dir, written_reports *out)
{
    char path[600];
    json_error_t error;

    join(path, sizeof(path), dir, DMLCONF_REPORT_SUMMARY_JSON);
    out->summary = json_load_file(path, 0, &error);
    ck_assert_msg(out->summary != NULL, "%s: %s", path, error.text);
    join(path, sizeof(path), dir, DMLCONF_REPORT_SUMMARY_MD);
    out->markdown = read_file(path, NULL);
    join(path, sizeof(path), dir, DMLCONF_REPORT_JUNIT_XML);
    out->junit = read_file(path, NULL);
    join(path, sizeof(path), dir, DMLCONF_REPORT_HTML);
    out->html = read_file(path, NULL);
    ck_assert(out->markdown && out->junit && out->html);
}

static void free_reports(written_reports *reports)
{
    json_decref(reports->summary);
    free(reports->markdown);
    free(reports->junit);
    free(reports->html);
}

/* Every report states the verdict `status` ("incomplete"), with `text` as
 * the words people read; the JUnit verdict testcase is `element`. */
static void assert_verdict_everywhere(const written_reports *r, const char *status, const char *text,
                                      const char *element)
{
    char expected[256];
    const json_t *verdict = json_object_get(r->summary, "verdict");

    ck_assert_str_eq(json_string_value(json_object_get(verdict, "status")), status);
    ck_assert_str_eq(json_string_value(json_object_get(verdict, "text")), text);
    snprintf(expected, sizeof(expected), "**Verdict: %s**", text);
    ck_assert_msg(strstr(r->markdown, expected) != NULL, "summary.md lacks %s", expected);
    snprintf(expected, sizeof(expected), "<property name=\"verdict_status\" value=\"%s\"/>", status);
    ck_assert_msg(strstr(r->junit, expected) != NULL, "junit.xml lacks %s", expected);
    {
        /* The verdict testcase, whatever its time. */
        const char *at = strstr(r->junit, "<testcase name=\"verdict\" classname=\"dmlconf.run\"");
        char tail[160];
        ck_assert_ptr_nonnull(at);
        if (element)
            snprintf(tail, sizeof(tail), "<%s type=\"%s\" message=\"%s (", element, status, text);
        else
            snprintf(tail, sizeof(tail), "<system-out>%s (", text);
        at = strchr(at, '\n');
        ck_assert_ptr_nonnull(at);
        ck_assert_msg(!strncmp(at + 1 + 6, tail, strlen(tail)), "junit.xml's verdict testcase: %.200s", at + 1);
    }
    snprintf(expected, sizeof(expected), "id=\"verdict\" data-status=\"%s\"><div class=\"text\">%s</div>", status,
             text);
    ck_assert_msg(strstr(r->html, expected) != NULL, "report.html lacks %s", expected);
}

START_TEST(test_verdict_incomplete_load_errors)
{
    char dir[512];
    char why[512] = "";
    dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = passing_ladder(results);
    dmlconf_load_error_list errors = {NULL, 0, 0};
    dmlconf_run_end end = {DMLCONF_END_FINISHED, 0, 0.25, ""};
    dmlconf_report_input in = {&info, NULL, 0, results, count, &end, NULL, NULL, 0, 0};
    written_reports r;

    /* Every case that loaded passed, but a file did not load: no verdict. */
    info.planned_cases = count;
    ck_assert_int_eq(dmlconf_load_error_list_add(&errors, "cases/bad <1>.yaml", 6, 11, "axis 5 is out of range"), 0);
    ck_assert_int_eq(dmlconf_load_error_list_add(&errors, "cases/bad <1>.yaml", 9, 3, "unknown key 'sizez'"), 0);
    ck_assert_int_eq(dmlconf_load_error_list_add(&errors, "cases/worse.yaml", 1, 1, "not YAML"), 0);
    ck_assert_int_eq(dmlconf_load_error_list_add(&errors, NULL, 0, 0, "cannot read folder cases/x"), 0);
    in.load_errors = errors.items;
    in.load_error_count = errors.count;
    test_dir("incomplete_load", dir, sizeof(dir));
    ck_assert_msg(dmlconf_reports_write_all(dir, DMLCONF_REPORTS_OVERWRITE, &in, why, sizeof(why)) == 0, "%s", why);
    read_reports(dir, &r);
    assert_verdict_everywhere(&r, "incomplete", "incomplete", "error");
    ck_assert_msg(strstr(json_string_value(json_object_get(json_object_get(r.summary, "verdict"), "detail")),
                         "4 errors in the case files or case lists kept cases out") != NULL,
                  "%s", json_string_value(json_object_get(json_object_get(r.summary, "verdict"), "detail")));
    ck_assert(json_is_false(json_object_get(json_object_get(r.summary, "verdict"), "conformant")));
    ck_assert_uint_eq(json_array_size(json_object_get(r.summary, "load_errors")), 4);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(r.summary, "completion"), "load_errors")), 4);
    /* JUnit: one erroring testcase per file (and one for the corpus), each
     * error with its place. */
    ck_assert_ptr_nonnull(
        strstr(r.junit, "<testsuite name=\"dmlconf.corpus\" tests=\"3\" failures=\"0\" errors=\"3\""));
    ck_assert_ptr_nonnull(strstr(r.junit, "<testcase name=\"cases/bad &lt;1&gt;.yaml\" classname=\"dmlconf.corpus\" "
                                          "file=\"cases/bad &lt;1&gt;.yaml\" time=\"0\">\n      <error "
                                          "type=\"load-error\" message=\"2 errors: axis 5 is out of range\">"));
    ck_assert_ptr_nonnull(strstr(r.junit, "cases/bad &lt;1&gt;.yaml:9:3: error: unknown key &#39;sizez&#39;\n"));
    ck_assert_ptr_nonnull(strstr(r.junit, "<testcase name=\"cases/worse.yaml\""));
    ck_assert_ptr_nonnull(strstr(r.junit, "<testcase name=\"(the corpus)\" classname=\"dmlconf.corpus\" time=\"0\">"));
    ck_assert_ptr_nonnull(strstr(r.junit, "<testsuites name=\"dmlconf\" tests=\"12\" failures=\"0\" errors=\"4\""));
    ck_assert_ptr_nonnull(strstr(r.markdown, "## Case files that did not load (4 errors)"));
    ck_assert_ptr_nonnull(strstr(r.markdown, "- `cases/bad <1>.yaml:6:11`: axis 5 is out of range\n"));
    ck_assert_ptr_nonnull(strstr(r.html, "<section id=\"load-errors\">"));
    ck_assert_ptr_nonnull(strstr(r.html, "cases/bad &lt;1&gt;.yaml:6:11"));
    free_reports(&r);
    dmlconf_load_error_list_free(&errors);
}
END_TEST

START_TEST(test_verdict_interrupted)
{
    char dir[512];
    char why[512] = "";
    dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = passing_ladder(results);
    dmlconf_report_set *set = NULL;
    dmlconf_results_file file;
    char path[600];
    written_reports r;
    const char *detail;

    /* Three of eight cases ran, all passed, then the run was stopped. */
    info.planned_cases = count;
    test_dir("interrupted", dir, sizeof(dir));
    ck_assert_msg(dmlconf_reports_open(dir, DMLCONF_REPORTS_OVERWRITE, &set, why, sizeof(why)) == 0, "%s", why);
    ck_assert_int_eq(dmlconf_reports_begin(set, &info, NULL), 0);
    for (size_t i = 0; i < 3; ++i)
        ck_assert_int_eq(dmlconf_reports_add(set, &results[i]), 0);
    ck_assert_msg(dmlconf_reports_finish_interrupted(set, "SIGINT") == 0, "%s", dmlconf_reports_error(set));
    {
        char *console;
        size_t size;
        FILE *out = open_memstream(&console, &size);
        dmlconf_matrix_print(out, dmlconf_reports_matrix(set), false);
        fclose(out);
        ck_assert_msg(strstr(console,
                             "\nverdict: interrupted (no verdict: the run was stopped by SIGINT "
                             "after 3 cases of 8 planned; the results so far: conformant at level 5_0") != NULL,
                      "%s", console);
        free(console);
    }
    dmlconf_reports_close(set);

    read_reports(dir, &r);
    assert_verdict_everywhere(&r, "interrupted", "interrupted", "error");
    detail = json_string_value(json_object_get(json_object_get(r.summary, "verdict"), "detail"));
    ck_assert_msg(strstr(detail, "stopped by SIGINT after 3 cases of 8 planned") != NULL, "%s", detail);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(r.summary, "completion"), "end")),
                     "interrupted");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(r.summary, "completion"), "reason")), "SIGINT");
    free_reports(&r);

    /* results.jsonl reads back for a resume: the cases done, and how the
     * run ended. */
    join(path, sizeof(path), dir, DMLCONF_REPORT_RESULTS_JSONL);
    ck_assert_msg(dmlconf_results_file_read(path, &file, why, sizeof(why)) == 0, "%s", why);
    ck_assert_uint_eq(file.results.count, 3);
    ck_assert_str_eq(file.results.items[2].id, results[2].id);
    ck_assert_int_eq(file.end.kind, DMLCONF_END_INTERRUPTED);
    ck_assert_str_eq(file.end.reason, "SIGINT");
    ck_assert_msg(dmlconf_run_info_same_run(&file.info, &info, why, sizeof(why)), "%s", why);
    dmlconf_results_file_free(&file);

    /* Resuming: the folder reopens with what was done, and the run goes on
     * to a verdict. */
    ck_assert_msg(dmlconf_reports_open_resume(dir, &file, &set, why, sizeof(why)) == 0, "%s", why);
    ck_assert_uint_eq(file.results.count, 3);
    ck_assert_int_eq(dmlconf_reports_begin(set, &file.info, &file.load_errors), 0);
    for (size_t i = 0; i < file.results.count; ++i)
        ck_assert_int_eq(dmlconf_reports_add(set, &file.results.items[i]), 0);
    for (size_t i = 3; i < count; ++i)
        ck_assert_int_eq(dmlconf_reports_add(set, &results[i]), 0);
    ck_assert_int_eq(dmlconf_reports_finish(set), 0);
    dmlconf_reports_close(set);
    dmlconf_results_file_free(&file);
    read_reports(dir, &r);
    assert_verdict_everywhere(&r, "conformant", "conformant at level 5_0", NULL);
    free_reports(&r);
}
END_TEST

START_TEST(test_verdict_not_covered_everywhere)
{
    char dir[512];
    char path[600];
    char why[512] = "";
    dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = ladder_with_gaps(results);
    written_reports r;
    char *jsonl;

    info.planned_cases = count;
    test_dir("not_covered", dir, sizeof(dir));
    ck_assert_msg(write_reports(dir, &info, results, count, why, sizeof(why)) == 0, "%s", why);
    read_reports(dir, &r);
    /* The JUnit verdict testcase fails: the run did not cover its target. */
    assert_verdict_everywhere(&r, "partly-covered", "conformant at level 5_0 for what it supports", "error");

    const json_t *verdict = json_object_get(r.summary, "verdict");
    const json_t *not_covered = json_object_get(verdict, "not_covered");
    const json_t *groups = json_object_get(not_covered, "groups");
    ck_assert(json_is_false(json_object_get(verdict, "conformant")));
    ck_assert(json_is_false(json_object_get(verdict, "at_target")));
    ck_assert(json_is_null(json_object_get(verdict, "level")));
    ck_assert_str_eq(json_string_value(json_object_get(verdict, "supported_level")), "5_0");
    ck_assert_int_eq(json_integer_value(json_object_get(not_covered, "cases")), 4);
    ck_assert(json_is_null(json_object_get(not_covered, "lowest_level")));
    ck_assert_uint_eq(json_array_size(groups), 3);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(groups, 0), "needs")), "FLOAT16");
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(groups, 0), "cases")), 1);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(groups, 0), "lowest_level")), "2_1");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(groups, 2), "needs")), "validation");
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(groups, 2), "negative")), 2);
    ck_assert(json_is_null(json_object_get(json_array_get(groups, 2), "lowest_level")));
    {
        const json_t *column = json_array_get(json_object_get(json_object_get(r.summary, "matrix"), "columns"), 0);
        ck_assert(json_is_false(json_object_get(column, "conformant")));
        ck_assert(json_is_true(json_object_get(column, "partly_covered")));
        ck_assert_int_eq(json_integer_value(json_object_get(column, "unsupported")), 3);
    }

    ck_assert_ptr_nonnull(strstr(r.markdown, "| **conformant** | | partly | partly | partly | partly | n/a |"));
    ck_assert_ptr_nonnull(strstr(r.markdown, "## Not covered (4 cases)\n"));
    ck_assert_ptr_nonnull(strstr(r.markdown, "| FLOAT16 | 1 | 0 | 2_1 |\n"));
    ck_assert_ptr_nonnull(strstr(r.markdown, "| validation | 2 | 2 | every level |\n"));
    ck_assert_ptr_nonnull(strstr(r.junit, "<property name=\"verdict_not_covered\" value=\"4\"/>"));
    ck_assert_ptr_nonnull(
        strstr(r.junit, "<skipped type=\"unsupported\" message=\"the plugin:x backend does not support INT64\""));
    ck_assert_ptr_nonnull(strstr(r.html, "<section id=\"not-covered\"><h2>Not covered (4 cases)</h2>"));
    ck_assert_ptr_nonnull(strstr(r.html, "<td class=\"mono\">validation</td><td class=\"num\">2</td>"));
    ck_assert_ptr_nonnull(strstr(r.html, "<td class=\"num partly\""));
    ck_assert_ptr_nonnull(strstr(r.html, "<div class=\"verdict partial\""));
    free_reports(&r);

    /* results.jsonl keeps what each case needs, for merge and resume. */
    join(path, sizeof(path), dir, DMLCONF_REPORT_RESULTS_JSONL);
    jsonl = read_file(path, NULL);
    ck_assert_ptr_nonnull(jsonl);
    ck_assert_ptr_nonnull(strstr(jsonl, "\"unsupported\":true,\"needs\":\"validation\""));
    free(jsonl);

    /* A run that covered everything has no such section. */
    count = passing_ladder(results);
    info.planned_cases = count;
    test_dir("all_covered", dir, sizeof(dir));
    ck_assert_msg(write_reports(dir, &info, results, count, why, sizeof(why)) == 0, "%s", why);
    read_reports(dir, &r);
    assert_verdict_everywhere(&r, "conformant", "conformant at level 5_0", NULL);
    ck_assert_ptr_null(strstr(r.markdown, "Not covered"));
    ck_assert_ptr_null(strstr(r.html, "not-covered"));
    ck_assert_int_eq(json_integer_value(json_object_get(
                         json_object_get(json_object_get(r.summary, "verdict"), "not_covered"), "cases")),
                     0);
    free_reports(&r);
}
END_TEST

START_TEST(test_verdict_incomplete_runs)
{
    char dir[512];
    char why[512] = "";
    dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = passing_ladder(results);
    dmlconf_run_end end = {DMLCONF_END_FINISHED, 0, -1.0, ""};
    dmlconf_report_input in = {&info, NULL, 0, results, count, &end, NULL, NULL, 0, 0};
    written_reports r;
    const char *detail;

    /* Fewer results than planned: incomplete, even though all passed. */
    info.planned_cases = count + 2;
    test_dir("incomplete_short", dir, sizeof(dir));
    ck_assert_msg(dmlconf_reports_write_all(dir, DMLCONF_REPORTS_OVERWRITE, &in, why, sizeof(why)) == 0, "%s", why);
    read_reports(dir, &r);
    assert_verdict_everywhere(&r, "incomplete", "incomplete", "error");
    detail = json_string_value(json_object_get(json_object_get(r.summary, "verdict"), "detail"));
    ck_assert_msg(strstr(detail, "8 results for 10 cases planned") != NULL, "%s", detail);
    ck_assert_msg(strstr(detail, "the results so far: conformant at level 5_0") != NULL, "%s", detail);
    free_reports(&r);

    /* A partial merge. */
    info.planned_cases = count;
    end.kind = DMLCONF_END_PARTIAL;
    snprintf(end.reason, sizeof(end.reason), "shard 2 missing");
    test_dir("incomplete_partial", dir, sizeof(dir));
    ck_assert_msg(dmlconf_reports_write_all(dir, DMLCONF_REPORTS_OVERWRITE, &in, why, sizeof(why)) == 0, "%s", why);
    read_reports(dir, &r);
    assert_verdict_everywhere(&r, "incomplete", "incomplete", "error");
    detail = json_string_value(json_object_get(json_object_get(r.summary, "verdict"), "detail"));
    ck_assert_msg(strstr(detail, "a partial merge of shards: shard 2 missing") != NULL, "%s", detail);
    free_reports(&r);

    /* No completion record: a run that died (or reports of one still
     * running). */
    end.kind = DMLCONF_END_NONE;
    end.reason[0] = '\0';
    test_dir("incomplete_unfinished", dir, sizeof(dir));
    ck_assert_msg(dmlconf_reports_write_all(dir, DMLCONF_REPORTS_OVERWRITE, &in, why, sizeof(why)) == 0, "%s", why);
    read_reports(dir, &r);
    assert_verdict_everywhere(&r, "incomplete", "incomplete", "error");
    detail = json_string_value(json_object_get(json_object_get(r.summary, "verdict"), "detail"));
    ck_assert_msg(strstr(detail, "no completion record") != NULL, "%s", detail);
    free_reports(&r);
    {
        char path[600];
        dmlconf_results_file file;
        join(path, sizeof(path), dir, DMLCONF_REPORT_RESULTS_JSONL);
        ck_assert_msg(dmlconf_results_file_read(path, &file, why, sizeof(why)) == 0, "%s", why);
        ck_assert_int_eq(file.end.kind, DMLCONF_END_NONE);
        ck_assert_uint_eq(file.results.count, count);
        dmlconf_results_file_free(&file);
    }

    /* Not conformant, complete: a failure in the JUnit verdict testcase. */
    end.kind = DMLCONF_END_FINISHED;
    results[0].status = DMLCONF_STATUS_FAIL;
    test_dir("not_conformant", dir, sizeof(dir));
    ck_assert_msg(dmlconf_reports_write_all(dir, DMLCONF_REPORTS_OVERWRITE, &in, why, sizeof(why)) == 0, "%s", why);
    read_reports(dir, &r);
    assert_verdict_everywhere(&r, "not-conformant", "not conformant", "failure");
    free_reports(&r);

    /* Conformant at the target: the verdict testcase passes. */
    results[0].status = DMLCONF_STATUS_PASS;
    test_dir("conformant", dir, sizeof(dir));
    ck_assert_msg(dmlconf_reports_write_all(dir, DMLCONF_REPORTS_OVERWRITE, &in, why, sizeof(why)) == 0, "%s", why);
    read_reports(dir, &r);
    assert_verdict_everywhere(&r, "conformant", "conformant at level 5_0", NULL);
    ck_assert_ptr_nonnull(strstr(r.junit, "<testsuites name=\"dmlconf\" tests=\"9\" failures=\"0\" errors=\"0\""));
    free_reports(&r);
}
END_TEST

/* ---- failure groups -------------------------------------------------------------------- */

/* A failing FLOAT32 sum whose worst element expected `expected` and got
 * `actual`. */
static dmlconf_case_result float_failure(const char *id, uint64_t expected, uint64_t actual)
{
    dmlconf_case_result result = make_result(id, DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32,
                                             DMLCONF_FEATURE_LEVEL_2_1, DMLCONF_STATUS_FAIL);
    add_mismatches(&result, 1);
    result.comparison.worst.expected_bits = expected;
    result.comparison.worst.actual_bits = actual;
    return result;
}

/* A failure whose wrong values the diagnosis found a pattern in. */
static dmlconf_case_result pattern_failure(const char *id, int variant, dmlconf_pattern pattern, uint64_t position)
{
    static const dmlconf_data_type types[] = {DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_FLOAT16,
                                              DMLCONF_DATA_TYPE_INT32,   DMLCONF_DATA_TYPE_UINT32,
                                              DMLCONF_DATA_TYPE_INT64,   DMLCONF_DATA_TYPE_UINT64};
    dmlconf_case_result result =
        make_result(id, variant % 2 ? DMLCONF_OPERATOR_CUMULATIVE_PRODUCT : DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
                    types[(variant / 2) % 6], DMLCONF_FEATURE_LEVEL_2_1, DMLCONF_STATUS_FAIL);
    add_mismatches(&result, 3);
    result.failure = DMLCONF_FAILURE_VALUES;
    result.exclusive = (variant / 12) % 2;
    result.decreasing = (variant / 24) % 2;
    result.dimension_count = 1 + (uint32_t)(variant % 8);
    result.comparison.elements = 100 + (uint64_t)variant;
    result.comparison.pattern = pattern;
    result.comparison.pattern_position = position;
    return result;
}

/* Failures grouped by cause: one planted bug is one group whatever the
 * operators, types, ranks, modes and directions it shows in, named for
 * what is wrong; the cause with the most cases first; each group's
 * shortest reproducer its smallest case. */
START_TEST(test_failure_causes_and_groups)
{
    char dir[512];
    char why[512] = "";
    dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    dmlconf_case_result *results = calloc(300, sizeof(*results));
    size_t count = 0;
    written_reports r;
    const json_t *groups;
    const json_t *first;
    static const char *const causes[] = {
        "element-left-out", "other-mode", "float16-accumulation", "outside-bound",   "unwritten-output", "crash",
        "past-end",         "nan-or-inf", "refused-valid-desc",   "wrong-rejection", "wrong-integer",    "signed-zero",
        "unexpected-pass"};
    static const char *const titles[] = {
        "the second element of each scan is left out (taken as the identity): every result from there on lacks it",
        "exclusive scans return the inclusive result (the exclusive flag is ignored)",
        "float16 results carry the error of float16 accumulation (accumulated in float16, not float32)",
        "wrong values, no pattern: float results outside the error bound",
        "only the last element of each scan is never written",
        "the process running the case crashed",
    };
    size_t lines = 0;

    ck_assert_ptr_nonnull(results);
    /* A dropped element in every operator, type, mode, direction and rank:
     * one group, its smallest case (variant 0 has the fewest elements, but
     * variant 37 fewer still) its shortest reproducer. */
    for (int i = 0; i < 150; ++i)
    {
        char id[48];
        snprintf(id, sizeof(id), "conf.dropped.%03d", i);
        results[count++] = pattern_failure(id, i, DMLCONF_PATTERN_ELEMENT_LEFT_OUT, 1);
    }
    results[37].comparison.elements = 7;
    /* The same pattern at another position is another cause. */
    results[count++] = pattern_failure("conf.dropped.third", 3, DMLCONF_PATTERN_ELEMENT_LEFT_OUT, 2);
    for (int i = 0; i < 40; ++i)
    {
        char id[48];
        snprintf(id, sizeof(id), "conf.excl.%03d", i);
        results[count] = pattern_failure(id, i, DMLCONF_PATTERN_OTHER_MODE, 0);
        results[count++].exclusive = true;
    }
    for (int i = 0; i < 20; ++i)
    {
        char id[48];
        snprintf(id, sizeof(id), "conf.f16.%03d", i);
        results[count] = pattern_failure(id, 2, DMLCONF_PATTERN_FLOAT16_ACCUMULATION, 0);
        results[count++].data_type = DMLCONF_DATA_TYPE_FLOAT16;
    }
    /* Values with no pattern (and results of a dmlconf that did not record
     * the failure kind): grouped by what their worst element shows, across
     * data types and modes. */
    for (int i = 0; i < 10; ++i)
    {
        char id[32];
        snprintf(id, sizeof(id), "conf.bound.%03d", i);
        results[count] = float_failure(id, 0x3f800000, 0x3f800100);
        results[count].exclusive = i % 2;
        results[count++].data_type = i % 3 ? DMLCONF_DATA_TYPE_FLOAT32 : DMLCONF_DATA_TYPE_FLOAT16;
    }
    for (int i = 0; i < 5; ++i)
    {
        char id[32];
        snprintf(id, sizeof(id), "conf.unwritten.%d", i);
        results[count] = pattern_failure(id, i, DMLCONF_PATTERN_LAST_ONLY, 0);
        results[count++].failure = DMLCONF_FAILURE_UNWRITTEN;
    }
    for (int i = 0; i < 3; ++i)
    {
        char id[32];
        snprintf(id, sizeof(id), "conf.crash.%d", i);
        results[count] = make_result(id, DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_INT64,
                                     DMLCONF_FEATURE_LEVEL_5_0, DMLCONF_STATUS_CRASH);
        results[count++].failure = DMLCONF_FAILURE_CRASH;
    }
    results[count] = float_failure("past.end", 0x3f800000, 0x3f800000);
    results[count++].failure = DMLCONF_FAILURE_PAST_END;
    results[count++] = float_failure("nan", 0x3f800000, 0x7fc00000);
    results[count] = make_result("refused", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT32,
                                 DMLCONF_FEATURE_LEVEL_2_1, DMLCONF_STATUS_FAIL);
    results[count++].comparison.elements = 0;
    results[count] = make_result("accepted", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT32,
                                 DMLCONF_FEATURE_LEVEL_NONE, DMLCONF_STATUS_FAIL);
    results[count].failure = DMLCONF_FAILURE_ACCEPTED_INVALID;
    results[count++].negative = true;
    results[count] = float_failure("int", 5, 6);
    results[count++].data_type = DMLCONF_DATA_TYPE_INT32;
    results[count++] = float_failure("zero", 0x00000000, 0x80000000);
    results[count++] = make_result("unexpected", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT32,
                                   DMLCONF_FEATURE_LEVEL_2_1, DMLCONF_STATUS_UNEXPECTED_PASS);
    info.planned_cases = count;

    test_dir("groups", dir, sizeof(dir));
    ck_assert_msg(write_reports(dir, &info, results, count, why, sizeof(why)) == 0, "%s", why);
    read_reports(dir, &r);
    groups = json_object_get(r.summary, "failure_groups");
    /* The dropped element at position 2 is a group of its own (one case),
     * sorted among the one-case groups by severity. */
    ck_assert_uint_eq(json_array_size(groups), sizeof(causes) / sizeof(causes[0]) + 1);
    for (size_t g = 0, c = 0; g < json_array_size(groups); ++g)
    {
        const char *cause = json_string_value(json_object_get(json_array_get(groups, g), "cause"));
        if (!strcmp(cause, "element-left-out") && g > 0)
        {
            ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(groups, g), "pattern_position")), 2);
            continue;
        }
        ck_assert_msg(!strcmp(cause, causes[c]), "group %zu: %s, expected %s", g, cause, causes[c]);
        if (c < sizeof(titles) / sizeof(titles[0]))
            ck_assert_str_eq(json_string_value(json_object_get(json_array_get(groups, g), "title")), titles[c]);
        ++c;
    }
    first = json_array_get(groups, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(first, "cases")), 150);
    ck_assert_str_eq(json_string_value(json_object_get(first, "pattern")), "element-left-out");
    ck_assert_int_eq(json_integer_value(json_object_get(first, "pattern_position")), 1);
    ck_assert_uint_eq(json_array_size(json_object_get(first, "operators")), 2);
    ck_assert_uint_eq(json_array_size(json_object_get(first, "dtypes")), 6);
    ck_assert_uint_eq(json_array_size(json_object_get(first, "modes")), 2);
    ck_assert_uint_eq(json_array_size(json_object_get(first, "directions")), 2);
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(first, "ranks"), 0)), 1);
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(first, "ranks"), 1)), 8);
    ck_assert_str_eq(json_string_value(json_object_get(first, "shows_in")),
                     "sums and products; FLOAT32, FLOAT16, UINT32, INT32, UINT64, INT64; inclusive and exclusive; "
                     "increasing and decreasing; ranks 1 to 8");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(first, "shortest_reproducer"), "id")),
                     "conf.dropped.037");
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(first, "ids"), 0)), "conf.dropped.037");
    ck_assert_ptr_nonnull(
        strstr(json_string_value(json_object_get(json_object_get(first, "shortest_reproducer"), "reproduce")),
               "--filter conf.dropped.037"));
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(groups, 1), "shows_in")),
                     "sums and products; FLOAT32, FLOAT16, UINT32, INT32, UINT64, INT64; exclusive only; increasing "
                     "and decreasing; ranks 1 to 8");

    /* summary.md stays short: the groups, a few examples each. */
    for (const char *c = r.markdown; *c; ++c)
        lines += *c == '\n';
    ck_assert_msg(lines < 500, "summary.md has %zu lines for %zu failures", lines, count);
    ck_assert_ptr_nonnull(strstr(r.markdown, "## Failing cases (236)"));
    ck_assert_ptr_nonnull(strstr(r.markdown, "| 1 | the second element of each scan is left out (taken as the "
                                             "identity): every result from there on lacks it | 150 | sums and "
                                             "products; "));
    ck_assert_ptr_nonnull(strstr(r.markdown, "### 1. the second element of each scan is left out (taken as the "
                                             "identity): every result from there on lacks it (150 cases)\n\nShows "
                                             "in: sums and products; "));
    ck_assert_ptr_nonnull(strstr(r.markdown, "Shortest reproducer: `conf.dropped.037` (7 elements, 6 dimensions): "));
    ck_assert_ptr_nonnull(strstr(r.markdown, "- and 147 more: `conf.dropped.002`"));
    ck_assert_ptr_nonnull(strstr(r.html, "<h3>1. the second element of each scan is left out"));
    ck_assert_ptr_nonnull(strstr(r.html, "<svg id=\"group-1-positions\""));
    ck_assert_ptr_nonnull(strstr(r.html, "<svg id=\"group-2-ulps\""));
    free_reports(&r);
    free(results);
}
END_TEST

/* ---- where the errors fall ------------------------------------------------------------- */

START_TEST(test_comparison_charts)
{
    enum
    {
        N = 64
    };
    float input[N];
    float actual[N];
    dmlconf_scan_desc desc;
    dmlconf_tolerance tol;
    dmlconf_comparison cmp;
    dmlconf_error err;
    uint64_t total = 0;
    uint64_t mismatches = 0;

    memset(&desc, 0, sizeof(desc));
    desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    desc.input.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    desc.input.dimension_count = 1;
    desc.input.sizes[0] = N;
    desc.output = desc.input;
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT32, &tol);

    /* Exact sums of ones, wrong (doubled) from index 48 on: the last
     * quarter of the scan. */
    for (int d = 0; d < 2; ++d)
    {
        desc.direction = d ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING;
        for (int i = 0; i < N; ++i)
        {
            /* Element i is the (j+1)-th summed, j its place in scan order. */
            int j = d ? N - 1 - i : i;
            input[i] = 1.0f;
            actual[i] = (float)(j + 1) * (j >= 48 ? 2.0f : 1.0f);
        }
        ck_assert_msg(dmlconf_compare(&desc, input, NULL, actual, sizeof(actual), &tol, &cmp, &err) == 0, "%s",
                      err.message);
        ck_assert_uint_eq(cmp.mismatches, 16);
        total = mismatches = 0;
        for (size_t b = 0; b < DMLCONF_POSITION_BINS; ++b)
        {
            /* 64 elements in 16 bins: bins 12 to 15 hold the scan's last
             * quarter, whichever the direction. */
            ck_assert_uint_eq(cmp.position_mismatches[b], b >= 12 ? 4 : 0);
            ck_assert_msg(b >= 12 ? cmp.position_max_fraction[b] > 1.0 : cmp.position_max_fraction[b] == 0.0,
                          "bin %zu: %g", b, cmp.position_max_fraction[b]);
            ck_assert(b >= 12 ? cmp.position_max_ulps[b] > 1.0 : cmp.position_max_ulps[b] == 0.0);
            mismatches += cmp.position_mismatches[b];
        }
        ck_assert_uint_eq(mismatches, cmp.mismatches);
        for (size_t b = 0; b < DMLCONF_ULP_BINS; ++b)
            total += cmp.ulp_histogram[b];
        ck_assert_uint_eq(total, cmp.elements - cmp.unjudged);
        ck_assert_uint_eq(cmp.ulp_histogram[0], 48);
        /* Doubling 49 to 64 in float32 is 2^23 steps and more: the last bin. */
        ck_assert_uint_eq(cmp.ulp_histogram[DMLCONF_ULP_BINS - 1], 16);
    }

    /* One ulp off at the very first element: bin 1 of the ULP histogram,
     * position bin 0. */
    desc.direction = DMLCONF_AXIS_DIRECTION_INCREASING;
    for (int i = 0; i < N; ++i)
        actual[i] = (float)(i + 1);
    actual[0] = nextafterf(1.0f, 2.0f);
    ck_assert(dmlconf_compare(&desc, input, NULL, actual, sizeof(actual), &tol, &cmp, &err) == 0);
    ck_assert_uint_eq(cmp.ulp_histogram[1], 1);
    ck_assert(cmp.position_max_ulps[0] == 1.0);
}
END_TEST

/* Python's XML parser reads junit.xml and report.html (which is also
 * well-formed XML); the script prints what it found. */
static const char xml_check_script[] =
    "import sys, xml.etree.ElementTree as ET\n"
    "root = ET.parse(sys.argv[1]).getroot()\n"
    "assert root.tag == 'testsuites', root.tag\n"
    "cases = root.findall('./testsuite/testcase')\n"
    "print('tests', root.get('tests'), len(cases), 'failures', root.get('failures'),\n"
    "      len(root.findall('./testsuite/testcase/failure')), 'errors', root.get('errors'),\n"
    "      len(root.findall('./testsuite/testcase/error')), 'skipped', root.get('skipped'),\n"
    "      len(root.findall('./testsuite/testcase/skipped')), 'suites', len(root.findall('testsuite')))\n"
    "for case in cases:\n"
    "    if case.get('name').startswith('weird'):\n"
    "        print('weird', case.get('name').encode('utf-8').hex())\n"
    "        print('message', case.find('failure').get('message').encode('utf-8').hex())\n"
    "props = root.find('./testsuite/properties')\n"
    "print('seed', [p.get('value') for p in props if p.get('name') == 'seed'][0])\n"
    "html = ET.parse(sys.argv[2]).getroot()\n"
    "ids = [e.get('id') or '' for e in html.iter() if e.tag == 'svg']\n"
    "print('html', html.tag, 'error-histogram' in ids, 'ulp-histogram' in ids,\n"
    "      any(i.startswith('group-') and i.endswith('-positions') for i in ids))\n";

static void hex_of(const char *text, char *out, size_t size)
{
    size_t used = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c && used + 3 < size; ++c)
        used += (size_t)snprintf(out + used, size - used, "%02x", *c);
    out[used] = '\0';
}

START_TEST(test_junit_xml_well_formed)
{
    char dir[512];
    char junit_path[600];
    char html_path[600];
    char why[512] = "";
    char expected[1024];
    char hex[512];
    const char *python = getenv("DMLCONF_TEST_PYTHON");
    dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = sample_results(results);
    char *output = NULL;
    int status;

    if (!python || !python[0])
        python = "/usr/bin/python3";
    ck_assert_msg(access(python, X_OK) == 0, "python3 not found at %s (install python3: tools/install-deps.sh)",
                  python);
    test_dir("junit", dir, sizeof(dir));
    ck_assert_msg(write_reports(dir, &info, results, count, why, sizeof(why)) == 0, "%s", why);
    join(junit_path, sizeof(junit_path), dir, DMLCONF_REPORT_JUNIT_XML);
    join(html_path, sizeof(html_path), dir, DMLCONF_REPORT_HTML);
    {
        char *argv[] = {(char *)python, (char *)"-c", (char *)xml_check_script, junit_path, html_path, NULL};
        status = run_program(argv, &output, NULL);
    }
    ck_assert_msg(status == 0, "python's XML parser rejected the reports (exit %d): %s", status, output);
    /* 13 cases: 2 failures (fail x2), 2 errors (crash, error), 2 skipped
     * (skip, expected-fail); 8 suites (op x type). */
    /* One more: the run's own "verdict" testcase, a failure here (the run
     * is conformant at 3_1, below its target 5_0). */
    ck_assert_msg(strstr(output, "tests 14 14 failures 3 3 errors 2 2 skipped 2 2 suites 9\n") != NULL, "%s", output);
    /* The control character in the id became U+FFFD; the rest is intact. */
    hex_of("weird.\"q\" <script>&amp; 'x' | `t`,\xef\xbf\xbd \xc3\xa9\xf0\x9f\x99\x82", hex, sizeof(hex));
    snprintf(expected, sizeof(expected), "weird %s\n", hex);
    ck_assert_msg(strstr(output, expected) != NULL, "%s", output);
    hex_of("line one\nline two <b>&amp;</b> | \"quoted\"", hex, sizeof(hex));
    snprintf(expected, sizeof(expected), "message %s\n", hex);
    ck_assert_msg(strstr(output, expected) != NULL, "%s", output);
    ck_assert_msg(strstr(output, "seed 18446744073709551615\n") != NULL, "%s", output);
    ck_assert_msg(strstr(output, "html html True True True\n") != NULL, "%s", output);
    free(output);
}
END_TEST

/* The text of one testcase of junit.xml (from its tag to its end), or
 * NULL; the caller frees. */
static char *junit_testcase(const char *junit, const char *name)
{
    char start[160];
    const char *at;
    const char *end;
    char *copy;

    snprintf(start, sizeof(start), "<testcase name=\"%s\"", name);
    at = strstr(junit, start);
    if (!at)
        return NULL;
    end = strstr(at, "</testcase>");
    end = end ? end + strlen("</testcase>") : at + strlen(at);
    copy = malloc((size_t)(end - at) + 1);
    ck_assert_ptr_nonnull(copy);
    memcpy(copy, at, (size_t)(end - at));
    copy[end - at] = '\0';
    return copy;
}

static size_t count_text(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *at = strstr(text, what); at; at = strstr(at + 1, what))
        ++n;
    return n;
}

/* Writes the reports of `results` into $DMLCONF_TEST_OUTPUT/name with
 * junit.xml held to `limit` bytes (0: none); returns junit.xml's text and
 * its size. */
static char *junit_with_limit(const char *name, const dmlconf_run_info *info, const dmlconf_case_result *results,
                              size_t count, uint64_t limit, size_t *size)
{
    char dir[512];
    char path[600];
    char why[512] = "";
    dmlconf_run_end end = {DMLCONF_END_FINISHED, count, 1.5, ""};
    dmlconf_report_input in = {info, NULL, 0, results, count, &end, NULL, NULL, 0, limit};

    test_dir(name, dir, sizeof(dir));
    ck_assert_msg(dmlconf_reports_write_all(dir, DMLCONF_REPORTS_OVERWRITE, &in, why, sizeof(why)) == 0, "%s", why);
    join(path, sizeof(path), dir, DMLCONF_REPORT_JUNIT_XML);
    return read_file(path, size);
}

/* junit.xml's run properties appear once (in the "dmlconf" testsuite), and
 * --junit-max-bytes keeps the file within its limit: the verdict testcase
 * as it is without a limit, failures before passes, and one testcase that
 * says how many were left out and where they all are. */
START_TEST(test_junit_size_limit)
{
    enum
    {
        FAILING = 60,
        PASSING = 400
    };
    static dmlconf_case_result results[FAILING + PASSING];
    dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    size_t whole_size = 0, limited_size = 0, same_size = 0;
    char *whole, *limited, *same, *verdict_whole, *verdict_limited, *left;
    char expected[256];
    size_t kept_failures, kept_passes, failing = 0;
    const char *python = getenv("DMLCONF_TEST_PYTHON");

    for (size_t i = 0; i < FAILING + PASSING; ++i)
    {
        char id[64];
        bool fails = i % 8 == 3 && i / 8 < FAILING;
        snprintf(id, sizeof(id), "sum.f16.case%03zu", i);
        results[i] =
            make_result(id, i % 2 ? DMLCONF_OPERATOR_CUMULATIVE_PRODUCT : DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
                        i % 3 ? DMLCONF_DATA_TYPE_FLOAT16 : DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_FEATURE_LEVEL_2_1,
                        fails ? DMLCONF_STATUS_FAIL : DMLCONF_STATUS_PASS);
        if (fails)
        {
            add_mismatches(&results[i], 5);
            snprintf(results[i].message, sizeof(results[i].message), "5 of 24 elements outside tolerance");
        }
    }
    /* The last cases fail too, so that failures lie in every suite. */
    for (size_t i = FAILING + PASSING - 10; i < FAILING + PASSING; ++i)
    {
        results[i].status = DMLCONF_STATUS_FAIL;
        add_mismatches(&results[i], 2);
    }
    for (size_t i = 0; i < FAILING + PASSING; ++i)
        failing += results[i].status == DMLCONF_STATUS_FAIL;
    info.corpus_cases = info.planned_cases = FAILING + PASSING;
    whole = junit_with_limit("junit_whole", &info, results, FAILING + PASSING, 0, &whole_size);
    ck_assert_ptr_nonnull(whole);
    ck_assert_uint_eq(count_text(whole, "<properties>"), 1);
    ck_assert_ptr_null(strstr(whole, "name=\"left-out\""));
    ck_assert_uint_eq(count_text(whole, "<testcase "), FAILING + PASSING + 1);

    /* A limit the whole file fits in changes nothing. */
    same = junit_with_limit("junit_same", &info, results, FAILING + PASSING, whole_size, &same_size);
    ck_assert_uint_eq(same_size, whole_size);
    ck_assert_mem_eq(same, whole, whole_size);

    /* A quarter of it: the verdict testcase as it was, the run's properties
     * once, the file within the limit. */
    limited = junit_with_limit("junit_limited", &info, results, FAILING + PASSING, whole_size / 4, &limited_size);
    ck_assert_ptr_nonnull(limited);
    ck_assert_msg(limited_size <= whole_size / 4, "junit.xml takes %zu bytes, above the limit %zu", limited_size,
                  whole_size / 4);
    ck_assert_uint_eq(count_text(limited, "<properties>"), 1);
    verdict_whole = junit_testcase(whole, "verdict");
    verdict_limited = junit_testcase(limited, "verdict");
    ck_assert_ptr_nonnull(verdict_whole);
    ck_assert_ptr_nonnull(verdict_limited);
    ck_assert_str_eq(verdict_limited, verdict_whole);
    ck_assert_ptr_nonnull(strstr(verdict_limited, "<failure type=\"not-conformant\""));
    /* Failures first: every kept case fails, or every failure is kept. */
    kept_failures = count_text(limited, "<failure type=\"fail\"");
    kept_passes = count_text(limited, "<testcase name=\"sum.f16.case") - kept_failures;
    ck_assert_uint_gt(kept_failures, 0);
    ck_assert_msg(kept_passes == 0 || kept_failures == failing, "%zu passes kept, %zu of %zu failures", kept_passes,
                  kept_failures, failing);
    ck_assert_uint_lt(kept_failures + kept_passes, FAILING + PASSING);
    left = junit_testcase(limited, "left-out");
    ck_assert_ptr_nonnull(left);
    snprintf(expected, sizeof(expected),
             "<skipped type=\"left-out\" message=\"%zu of the %d case testcases left out to keep junit.xml within %zu "
             "bytes (--junit-max-bytes); results.jsonl lists every case\">",
             (size_t)(FAILING + PASSING) - kept_failures - kept_passes, FAILING + PASSING, whole_size / 4);
    ck_assert_msg(strstr(left, expected) != NULL, "%s", left);
    ck_assert_ptr_nonnull(strstr(left, "Left out, by status: pass "));
    /* Python's XML parser agrees with the counts. */
    if (!python || !python[0])
        python = "/usr/bin/python3";
    {
        char dir[512], path[600];
        char *output = NULL;
        static const char script[] =
            "import sys, xml.etree.ElementTree as ET\n"
            "root = ET.parse(sys.argv[1]).getroot()\n"
            "cases = root.findall('./testsuite/testcase')\n"
            "assert int(root.get('tests')) == len(cases), (root.get('tests'), len(cases))\n"
            "assert int(root.get('failures')) == len(root.findall('./testsuite/testcase/failure'))\n"
            "assert int(root.get('skipped')) == len(root.findall('./testsuite/testcase/skipped'))\n"
            "for suite in root.findall('testsuite'):\n"
            "    assert int(suite.get('tests')) == len(suite.findall('testcase')), suite.get('name')\n"
            "print('ok', len(cases), len(root.findall('.//properties')))\n";
        test_dir("junit_limited", dir, sizeof(dir));
        join(path, sizeof(path), dir, DMLCONF_REPORT_JUNIT_XML);
        char *argv[] = {(char *)python, (char *)"-c", (char *)script, path, NULL};
        int status = run_program(argv, &output, NULL);
        ck_assert_msg(status == 0, "python's XML parser: exit %d: %s", status, output);
        snprintf(expected, sizeof(expected), "ok %zu 1\n", kept_failures + kept_passes + 2);
        ck_assert_msg(strstr(output, expected) != NULL, "%s", output);
        free(output);
    }
    free(whole);
    free(same);
    free(limited);
    free(verdict_whole);
    free(verdict_limited);
    free(left);
}
END_TEST

/* ---- the browser --------------------------------------------------------------------- */

/* Runs headless Chromium on a file with `mode_arg` (--dump-dom or
 * --screenshot=...); returns its stdout. */
static char *run_chromium(const char *chromium, const char *mode_arg, const char *url, const char *log_path)
{
    char profile[] = "/tmp/dmlconf-chromium-XXXXXX";
    char profile_arg[64];
    char *output = NULL;
    int status;

    ck_assert_ptr_nonnull(mkdtemp(profile));
    snprintf(profile_arg, sizeof(profile_arg), "--user-data-dir=%s", profile);
    {
        char *argv[] = {(char *)chromium,
                        (char *)"--headless",
                        (char *)"--no-sandbox",
                        (char *)"--disable-gpu",
                        (char *)"--disable-quic",
                        (char *)"--no-first-run",
                        (char *)"--disable-background-networking",
                        (char *)"--disable-component-update",
                        (char *)"--disable-sync",
                        (char *)"--disable-dev-shm-usage",
                        (char *)"--hide-scrollbars",
                        (char *)"--window-size=1280,2400",
                        profile_arg,
                        (char *)mode_arg,
                        (char *)url,
                        NULL};
        status = run_program(argv, &output, log_path);
    }
    {
        char *argv[] = {(char *)"/bin/rm", (char *)"-rf", profile, NULL};
        run_program(argv, NULL, NULL);
    }
    ck_assert_msg(status == 0, "chromium exited with %d (log: %s)", status, log_path);
    return output;
}

/* The chromium that CMake found, else the Debian one (installed after the
 * build was configured). Fails the test, loudly, when there is none. */
static const char *find_chromium(void)
{
    static const char *const fallbacks[] = {"/usr/bin/chromium", "/usr/bin/chromium-browser"};
    const char *chromium = getenv("DMLCONF_TEST_CHROMIUM");

    if (chromium && chromium[0] && !strstr(chromium, "NOTFOUND") && access(chromium, X_OK) == 0)
        return chromium;
    for (size_t i = 0; i < sizeof(fallbacks) / sizeof(fallbacks[0]); ++i)
    {
        if (access(fallbacks[i], X_OK) == 0)
            return fallbacks[i];
    }
    ck_abort_msg("chromium not found (DMLCONF_TEST_CHROMIUM=%s): install the Debian package 'chromium' "
                 "(tools/install-deps.sh does)",
                 chromium ? chromium : "(unset)");
    return NULL;
}

START_TEST(test_html_in_chromium)
{
    const char *chromium = find_chromium();
    char dir[512];
    char path[600];
    char url[1200];
    char log_path[600];
    char screenshot_arg[700];
    char why[512] = "";
    dmlconf_run_info info = sample_info(DMLCONF_FEATURE_LEVEL_5_0);
    dmlconf_case_result results[SAMPLE_MAX];
    size_t count = sample_results(results);
    char *dom;
    char *png;
    size_t png_size = 0;
    char cwd[512];

    test_dir("browser", dir, sizeof(dir));
    ck_assert_msg(write_reports(dir, &info, results, count, why, sizeof(why)) == 0, "%s", why);
    join(path, sizeof(path), dir, DMLCONF_REPORT_HTML);
    if (path[0] != '/')
    {
        ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
        snprintf(url, sizeof(url), "file://%s/%s", cwd, path);
    }
    else
        snprintf(url, sizeof(url), "file://%s", path);
    join(log_path, sizeof(log_path), dir, "chromium.log");

    dom = run_chromium(chromium, "--dump-dom", url, log_path);
    ck_assert_msg(strstr(dom, "conformant at level 2_1") != NULL, "verdict missing from the DOM");
    ck_assert_msg(strstr(dom, "sum.f16.r8.a7.inc") != NULL, "failing case missing from the DOM");
    ck_assert_msg(strstr(dom, "<svg id=\"error-histogram\"") != NULL, "histogram missing from the DOM");
    ck_assert_msg(strstr(dom, "<rect class=\"bar-fail\"") != NULL, "histogram bars missing from the DOM");
    ck_assert_msg(strstr(dom, "<svg id=\"ulp-histogram\"") != NULL, "ULP histogram missing from the DOM");
    ck_assert_msg(strstr(dom, "<svg id=\"group-1-positions\"") != NULL, "a group's position chart missing");
    ck_assert_msg(strstr(dom, "<svg id=\"group-1-ulps\"") != NULL, "a group's ULP chart missing");
    ck_assert_msg(strstr(dom, "<svg id=\"case-2-positions\"") != NULL, "a case's position chart missing");
    ck_assert_msg(strstr(dom, "<line class=\"threshold\"") != NULL, "the tolerance line missing");
    ck_assert_msg(strstr(dom, "data-status=\"conformant\"") != NULL, "the verdict's status missing");
    ck_assert_msg(strstr(dom, "<script") == NULL, "a script element in the DOM");
    free(dom);

    join(path, sizeof(path), dir, "report.png");
    remove(path);
    snprintf(screenshot_arg, sizeof(screenshot_arg), "--screenshot=%s", path);
    free(run_chromium(chromium, screenshot_arg, url, log_path));
    png = read_file(path, &png_size);
    ck_assert_msg(png != NULL, "no screenshot at %s", path);
    ck_assert_msg(png_size > 50 * 1024, "screenshot of only %zu bytes: a blank page?", png_size);
    ck_assert_mem_eq(png, "\x89PNG\r\n\x1a\n", 8);
    free(png);
}
END_TEST

static Suite *reports_suite(void)
{
    Suite *suite = suite_create("reports");
    TCase *tc;

    tc = tcase_create("format");
    tcase_add_test(tc, test_format_element);
    tcase_add_test(tc, test_run_info_command_line);
    tcase_add_test(tc, test_format_coordinates_and_repro);
    suite_add_tcase(suite, tc);

    tc = tcase_create("json");
    tcase_add_test(tc, test_json_round_trip);
    tcase_add_test(tc, test_json_every_status_and_level);
    tcase_add_test(tc, test_json_invalid_utf8);
    tcase_add_test(tc, test_json_rejects);
    suite_add_tcase(suite, tc);

    tc = tcase_create("streaming");
    tcase_add_test(tc, test_streaming);
    tcase_add_test(tc, test_results_file);
    tcase_add_test(tc, test_unusable_folders);
    tcase_add_test(tc, test_folder_lock);
    tcase_add_test(tc, test_mismatch_rule_in_jsonl);
    suite_add_tcase(suite, tc);

    tc = tcase_create("run");
    tcase_add_test(tc, test_repro_command);
    tcase_add_test(tc, test_run_info_environment_and_same_run);
    suite_add_tcase(suite, tc);

    tc = tcase_create("verdict");
    tcase_add_test(tc, test_verdict_incomplete_load_errors);
    tcase_add_test(tc, test_verdict_interrupted);
    tcase_add_test(tc, test_verdict_incomplete_runs);
    tcase_add_test(tc, test_verdict_not_covered_everywhere);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(suite, tc);

    tc = tcase_create("groups");
    tcase_add_test(tc, test_failure_causes_and_groups);
    tcase_add_test(tc, test_comparison_charts);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(suite, tc);

    tc = tcase_create("matrix");
    tcase_add_test(tc, test_matrix_columns);
    tcase_add_test(tc, test_verdict_all_pass);
    tcase_add_test(tc, test_verdict_fail_at_4_0);
    tcase_add_test(tc, test_verdict_skip_unsupported);
    tcase_add_test(tc, test_verdict_not_covered);
    tcase_add_test(tc, test_verdict_not_covered_and_failures);
    tcase_add_test(tc, test_verdict_not_covered_console);
    tcase_add_test(tc, test_verdict_baseline_and_empty);
    tcase_add_test(tc, test_verdict_scopes);
    tcase_add_test(tc, test_matrix_print);
    suite_add_tcase(suite, tc);

    tc = tcase_create("reports");
    tcase_add_test(tc, test_failures_txt);
    tcase_add_test(tc, test_write_all_and_summary_json);
    tcase_add_test(tc, test_device_times);
    tcase_add_test(tc, test_escaping_in_reports);
    tcase_add_test(tc, test_junit_xml_well_formed);
    tcase_add_test(tc, test_junit_size_limit);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(suite, tc);
    return suite;
}

static Suite *browser_suite(void)
{
    Suite *suite = suite_create("reports_browser");
    TCase *tc = tcase_create("chromium");

    tcase_add_test(tc, test_html_in_chromium);
    tcase_set_timeout(tc, 240);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(int argc, char **argv)
{
    const bool browser = argc > 1 && !strcmp(argv[1], "--browser");
    SRunner *runner = srunner_create(browser ? browser_suite() : reports_suite());
    int failed;

    srunner_run_all(runner, CK_NORMAL);
    failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
