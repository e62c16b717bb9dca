/*
 * Tests of the runner core with fault-injecting backends: a backend that
 * crashes, hangs, computes wrong values, fails once, or accepts invalid descs.
 * The faults are chosen through the adapter string and aimed at cases by
 * their first size, so the tests also show that one bad case costs only
 * itself.
 */
#define _POSIX_C_SOURCE 200809L

#include <dmlconf/runner.h>

#include <check.h>
#include <dmlconf/comparator.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Sizes that trigger faults. */
#define CRASH_SIZE 7u
#define HANG_SIZE  9u

typedef struct fault_backend
{
    dmlconf_backend base;
    char mode[32];
    unsigned calls;
} fault_backend;

/* "slow-open": the log each worker's open appends "begin" and "end" to
 * (the workers are forks of the test, so they all see this path). */
static char opening_log[256];

static void log_opening(const char *what)
{
    FILE *log = fopen(opening_log, "a");
    if (log)
    {
        fprintf(log, "%s\n", what);
        fclose(log);
    }
}

static const dmlconf_backend_ops fault_ops;

static int fault_open(const dmlconf_backend_config *config, dmlconf_backend **out, char *why, size_t why_size)
{
    fault_backend *b = calloc(1, sizeof(*b));
    if (!b)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    if (config->adapter && !strcmp(config->adapter, "unavailable"))
    {
        free(b);
        snprintf(why, why_size, "no such device (test)");
        return -1;
    }
    b->base.ops = &fault_ops;
    snprintf(b->mode, sizeof(b->mode), "%s", config->adapter ? config->adapter : "");
    if (!strcmp(b->mode, "slow-open"))
    {
        /* Opening and running take a while, and the log shows when. */
        log_opening("begin");
        struct timespec pause = {0, 200 * 1000 * 1000};
        nanosleep(&pause, NULL);
        log_opening("end");
    }
    *out = &b->base;
    return 0;
}

static void fault_close(dmlconf_backend *backend)
{
    free(backend);
}

static void fault_info(dmlconf_backend *backend, dmlconf_backend_info *info)
{
    (void)backend;
    memset(info, 0, sizeof(*info));
    snprintf(info->backend, sizeof(info->backend), "fault");
    snprintf(info->adapter, sizeof(info->adapter), "fault injector");
    info->feature_level = DMLCONF_FEATURE_LEVEL_5_0;
    /* Every type but UINT64. */
    info->capabilities = dmlconf_capabilities_all(0xffffffffu & ~DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_UINT64));
    /* "half": float16 data computed in float16, and said so. */
    if (!strcmp(((const fault_backend *)backend)->mode, "half"))
        info->float16_accumulation = DMLCONF_DATA_TYPE_FLOAT16;
}

/* "half" and "half-undeclared": a 1-D sum accumulated one element at a time
 * in float16 arithmetic, every partial sum rounded to float16 (for float32
 * data too: more than half precision allows). Returns false for other
 * jobs. */
static bool sum_in_float16(dmlconf_job *job)
{
    const dmlconf_scan_desc *d = job->desc;
    dmlconf_data_type type = d->output.data_type;
    if (d->op != DMLCONF_OPERATOR_CUMULATIVE_SUMMATION || d->input.dimension_count != 1 || d->exclusive ||
        (type != DMLCONF_DATA_TYPE_FLOAT16 && type != DMLCONF_DATA_TYPE_FLOAT32))
        return false;
    double acc = 0.0;
    for (uint32_t i = 0; i < d->input.sizes[0]; ++i)
    {
        double x = type == DMLCONF_DATA_TYPE_FLOAT16 ? (double)dmlconf_half_to_float(((const uint16_t *)job->input)[i])
                                                     : (double)((const float *)job->input)[i];
        acc = (double)dmlconf_half_to_float(dmlconf_half_from_double(acc + x));
        if (type == DMLCONF_DATA_TYPE_FLOAT16)
            ((uint16_t *)job->output)[i] = dmlconf_half_from_double(acc);
        else
            ((float *)job->output)[i] = (float)acc;
    }
    return true;
}

static int fault_execute(dmlconf_backend *backend, dmlconf_job *jobs, size_t count)
{
    fault_backend *b = (fault_backend *)backend;
    b->calls++;
    if (!strcmp(b->mode, "slow-open"))
    {
        struct timespec pause = {0, 150 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    for (size_t i = 0; i < count; ++i)
    {
        dmlconf_job *job = &jobs[i];
        dmlconf_validation validation;
        if (strcmp(b->mode, "accept-all") && !dmlconf_validate(job->desc, job->feature_level, &validation))
        {
            job->outcome = DMLCONF_JOB_REJECTED;
            job->reason = validation.reason;
            continue;
        }
        if (!job->output)
        {
            job->outcome = DMLCONF_JOB_DONE;
            continue;
        }
        if (!strcmp(b->mode, "nothing"))
        {
            /* Says it ran, writes nothing: only the canary can tell. */
            job->outcome = DMLCONF_JOB_DONE;
            continue;
        }
        uint32_t first_size = job->desc->input.sizes[0];
        if (!strcmp(b->mode, "crash") && first_size == CRASH_SIZE)
            raise(SIGSEGV);
        if (!strncmp(b->mode, "hang", 4) && first_size == HANG_SIZE)
            sleep(100);
        if (!strncmp(b->mode, "half", 4) && sum_in_float16(job))
        {
            job->outcome = DMLCONF_JOB_DONE;
            job->device_seconds = -1.0;
            continue;
        }
        if (!strcmp(b->mode, "hang-slow"))
        {
            /* A microsecond an element: a case's time follows its size. */
            uint64_t micro = dmlconf_tensor_element_count(&job->desc->output);
            struct timespec pause = {(time_t)(micro / 1000000u), (long)(micro % 1000000u) * 1000};
            nanosleep(&pause, NULL);
        }
        dmlconf_error err;
        if (dmlconf_compute(job->desc, job->input, job->input_bytes, job->output, job->output_bytes, NULL, &err))
        {
            job->outcome = DMLCONF_JOB_FAILED;
            snprintf(job->message, sizeof(job->message), "%s", err.message);
            continue;
        }
        /* Wrong: the last element of every output is one too big (an
         * off-by-one that a vendor might ship); flaky: the same, on odd
         * calls only. */
        bool corrupt = !strcmp(b->mode, "wrong") || (!strcmp(b->mode, "flaky") && (b->calls & 1u));
        if (corrupt && job->desc->output.data_type == DMLCONF_DATA_TYPE_INT32)
        {
            uint64_t last = dmlconf_tensor_element_count(&job->desc->output) - 1;
            int32_t *values = job->output;
            values[last] = (int32_t)((uint32_t)values[last] + 1u);
        }
        /* A write just past the output's range, into the runner's guard. */
        if (!strcmp(b->mode, "past-end"))
            ((unsigned char *)job->output)[job->output_bytes] ^= 1u;
        /* A write into the padding between strided elements: slot 2 of
         * c.padded's output (strides 4, 1: elements in slots 0, 1, 4, 5). */
        if (!strcmp(b->mode, "padding") && job->output_bytes == 24)
            memset((unsigned char *)job->output + 8, 0, 4);
        job->outcome = DMLCONF_JOB_DONE;
        job->device_seconds = -1.0;
    }
    return 0;
}

static const dmlconf_backend_ops fault_ops = {
    .name = "fault",
    .description = "fault injector for tests",
    .open = fault_open,
    .close = fault_close,
    .info = fault_info,
    .execute = fault_execute,
};

static const char corpus_text[] =
    "defaults: {op: cumulative_summation, dtype: int32, axis: 0}\n"
    "cases:\n"
    "  - {id: t.a, sizes: [4], input: [1, 2, 3, 4]}\n"
    "  - {id: t.crash, sizes: [7], input: [1, 1, 1, 1, 1, 1, 1]}\n"
    "  - {id: t.b, sizes: [3], input: [5, 6, 7], expected: [5, 11, 18]}\n"
    "  - {id: t.hang, sizes: [9], input: [1, 1, 1, 1, 1, 1, 1, 1, 1]}\n"
    "  - {id: t.c, sizes: [2, 3], axis: 1, direction: decreasing, exclusive: true, input: [1, 2, 3, 4, 5, 6]}\n"
    "  - {id: t.u64, dtype: uint64, sizes: [2], input: [1, 2]}\n"
    "  - {id: t.neg, sizes: [2], axis: 1, input: [1, 2], expect_error: axis_out_of_range}\n"
    "  - {id: t.long, sizes: [64, 5], axis: 0, input: {generate: integers, min: -3, max: 3, seed: 4}}\n";

typedef struct collected
{
    dmlconf_case_result results[16];
    size_t count;
    dmlconf_backend_info info;
    bool have_info;
    bool finished; /* results come with finish_result's encoded form */
} collected;

/* An on_finish that encodes a result as its id and status. */
static char *finish_result(void *context, dmlconf_case_result *result)
{
    (void)context;
    char *text = malloc(512);
    if (text)
        snprintf(text, 512, "%s %s", result->id, dmlconf_status_name(result->status));
    return text;
}

static void on_result(void *context, size_t index, const dmlconf_case_result *result, const char *encoded)
{
    collected *c = context;
    if (c->finished)
    {
        /* The encoded form that came with a result is its own. */
        char expected[512];
        snprintf(expected, sizeof(expected), "%s %s", result->id, dmlconf_status_name(result->status));
        ck_assert_ptr_nonnull(encoded);
        ck_assert_str_eq(encoded, expected);
    }
    else
        ck_assert_ptr_null(encoded);
    ck_assert_uint_lt(index, 16);
    c->results[index] = *result;
    c->count++;
}

static void on_info(void *context, const dmlconf_backend_info *info, dmlconf_feature_level level)
{
    collected *c = context;
    c->info = *info;
    c->have_info = true;
    ck_assert_int_eq(level, DMLCONF_FEATURE_LEVEL_5_0);
}

static dmlconf_case_file file;
static const dmlconf_case *cases[16];
static size_t case_count;

static void load_cases(void)
{
    size_t errors = dmlconf_case_file_load_buffer(&file, "test.yaml", corpus_text, sizeof(corpus_text) - 1, NULL);
    if (errors)
        dmlconf_diagnostics_print(&file.diagnostics, NULL, stderr);
    ck_assert_uint_eq(errors, 0);
    case_count = file.case_count;
    for (size_t i = 0; i < case_count; ++i)
        cases[i] = &file.cases[i];
}

static void free_cases(void)
{
    dmlconf_case_file_free(&file);
}

static const dmlconf_case_result *find(const collected *c, const char *id)
{
    for (size_t i = 0; i < case_count; ++i)
    {
        if (!strcmp(c->results[i].id, id))
            return &c->results[i];
    }
    ck_abort_msg("no result for %s", id);
    return NULL;
}

/* Runs the cases in a fault mode, with `host_threads` threads preparing,
 * judging and (with `finish`) encoding a batch's cases. */
static void run_threads(const char *mode, unsigned jobs, unsigned host_threads, bool finish, collected *out)
{
    memset(out, 0, sizeof(*out));
    out->finished = finish;
    runner_schedule schedule = {
        .backend_ops = &fault_ops,
        .backend_config = {.adapter = mode},
        .config = {.level = DMLCONF_FEATURE_LEVEL_NONE, .rerun_failures = true, .host_threads = host_threads},
        .jobs = jobs,
        .timeout_seconds = 30.0,
        .on_info = on_info,
        .on_finish = finish ? finish_result : NULL,
        .on_result = on_result,
        .context = out,
    };
    dmlconf_backend_info info;
    char why[256];
    ck_assert_int_eq(runner_schedule_run(&schedule, cases, case_count, &info, why, sizeof(why)), 0);
    ck_assert_uint_eq(out->count, case_count);
}

static void run_mode(const char *mode, unsigned jobs, double timeout, const char *repro_dir, collected *out)
{
    memset(out, 0, sizeof(*out));
    runner_schedule schedule = {
        .backend_ops = &fault_ops,
        .backend_config = {.adapter = mode},
        .config = {.level = DMLCONF_FEATURE_LEVEL_NONE,
                   .rerun_failures = true,
                   .shrink = repro_dir != NULL,
                   .repro_dir = repro_dir},
        .jobs = jobs,
        .timeout_seconds = timeout,
        .on_info = on_info,
        .on_result = on_result,
        .context = out,
    };
    dmlconf_backend_info info;
    char why[256];
    ck_assert_int_eq(runner_schedule_run(&schedule, cases, case_count, &info, why, sizeof(why)), 0);
    ck_assert_uint_eq(out->count, case_count);
    ck_assert(out->have_info);
    ck_assert_str_eq(info.backend, "fault");
}

static void assert_status(const collected *c, const char *id, dmlconf_status status)
{
    const dmlconf_case_result *r = find(c, id);
    ck_assert_msg(r->status == status, "%s: status %s, expected %s (%s)", id, dmlconf_status_name(r->status),
                  dmlconf_status_name(status), r->message);
}

START_TEST(test_clean_run_in_and_out_of_process)
{
    for (unsigned jobs = 0; jobs <= 2; ++jobs)
    {
        collected c;
        run_mode("", jobs, 30.0, NULL, &c);
        assert_status(&c, "t.a", DMLCONF_STATUS_PASS);
        assert_status(&c, "t.crash", DMLCONF_STATUS_PASS);
        assert_status(&c, "t.b", DMLCONF_STATUS_PASS);
        assert_status(&c, "t.c", DMLCONF_STATUS_PASS);
        assert_status(&c, "t.long", DMLCONF_STATUS_PASS);
        assert_status(&c, "t.neg", DMLCONF_STATUS_PASS);
        /* The backend does not support uint64: skipped, with the reason. */
        assert_status(&c, "t.u64", DMLCONF_STATUS_SKIP);
        ck_assert_ptr_nonnull(strstr(find(&c, "t.u64")->message, "does not support UINT64"));
        ck_assert_uint_eq(find(&c, "t.long")->comparison.elements, 320);
    }
}
END_TEST

START_TEST(test_crash_costs_only_its_case)
{
    collected c;
    run_mode("crash", 2, 30.0, NULL, &c);
    assert_status(&c, "t.crash", DMLCONF_STATUS_CRASH);
    /* SIGSEGV, or how the sanitizers end a process after reporting it. */
    const char *message = find(&c, "t.crash")->message;
    ck_assert_msg(strstr(message, "was killed by signal") || strstr(message, "exited with status"), "%s", message);
    assert_status(&c, "t.a", DMLCONF_STATUS_PASS);
    assert_status(&c, "t.b", DMLCONF_STATUS_PASS);
    assert_status(&c, "t.c", DMLCONF_STATUS_PASS);
    assert_status(&c, "t.long", DMLCONF_STATUS_PASS);
}
END_TEST

START_TEST(test_hang_times_out)
{
    collected c;
    run_mode("hang", 1, 1.0, NULL, &c);
    assert_status(&c, "t.hang", DMLCONF_STATUS_TIMEOUT);
    assert_status(&c, "t.a", DMLCONF_STATUS_PASS);
    assert_status(&c, "t.long", DMLCONF_STATUS_PASS);
}
END_TEST

START_TEST(test_time_limit_formula)
{
    /* The floor, for small batches and before anything is known. */
    ck_assert(runner_time_limit(120.0, 0, 1e-6) == 120.0);
    ck_assert(runner_time_limit(120.0, 1000, 1e-6) == 120.0);
    /* Above it: the factor times the expected time. 2^32 - 1 elements at
     * 20 ns an element: 10 x 85.9 s. */
    double limit = runner_time_limit(120.0, UINT64_C(4294967295), 20e-9);
    ck_assert_msg(limit > 858.9 && limit < 859.0, "%g", limit);
    ck_assert(runner_time_limit(0.0, 100, 1e-3) == RUNNER_TIMEOUT_FACTOR * 0.1);

    /* The speed: assumed until enough elements have been measured, then
     * the measured seconds over the measured elements. */
    runner_speed speed = {0.0, 0};
    ck_assert(runner_speed_seconds_per_element(&speed) == RUNNER_INITIAL_SECONDS_PER_ELEMENT);
    runner_speed_add(&speed, 0.5, RUNNER_MEASURED_ELEMENTS / 2);
    ck_assert(runner_speed_seconds_per_element(&speed) == RUNNER_INITIAL_SECONDS_PER_ELEMENT);
    runner_speed_add(&speed, 0.0, 1000); /* no time: not counted */
    runner_speed_add(&speed, 1.0, 0);    /* no elements: not counted */
    ck_assert_uint_eq(speed.elements, RUNNER_MEASURED_ELEMENTS / 2);
    runner_speed_add(&speed, 1.5, RUNNER_MEASURED_ELEMENTS * 3 / 2);
    double expected = 2.0 / (double)(RUNNER_MEASURED_ELEMENTS * 2);
    ck_assert_msg(fabs(runner_speed_seconds_per_element(&speed) - expected) < 1e-15, "%g",
                  runner_speed_seconds_per_element(&speed));
}
END_TEST

/* Cases whose time follows their size (a microsecond an element), two of
 * them big, and a small one that hangs. */
static const char sized_corpus_text[] =
    "defaults: {op: cumulative_summation, dtype: int32, axis: 0}\n"
    "cases:\n"
    "  - {id: s.a, sizes: [4], input: [1, 2, 3, 4]}\n"
    "  - {id: s.hang, sizes: [9], input: [1, 1, 1, 1, 1, 1, 1, 1, 1]}\n"
    "  - {id: s.big1, sizes: [1500000], input: {generate: integers, min: -3, max: 3, seed: 1}}\n"
    "  - {id: s.big2, sizes: [1500000], input: {generate: integers, min: -3, max: 3, seed: 2}}\n"
    "  - {id: s.b, sizes: [3], input: [5, 6, 7]}\n";

/* Runs the sized corpus on one worker with a one-second floor, the limit
 * scaling or fixed. */
static void run_sized(bool scales, collected *out, dmlconf_case_file *sized)
{
    size_t errors =
        dmlconf_case_file_load_buffer(sized, "sized.yaml", sized_corpus_text, sizeof(sized_corpus_text) - 1, NULL);
    ck_assert_uint_eq(errors, 0);
    const dmlconf_case *list[8];
    for (size_t i = 0; i < sized->case_count; ++i)
        list[i] = &sized->cases[i];
    memset(out, 0, sizeof(*out));
    runner_schedule schedule = {
        .backend_ops = &fault_ops,
        .backend_config = {.adapter = "hang-slow"},
        .config = {.level = DMLCONF_FEATURE_LEVEL_NONE},
        .jobs = 1,
        .timeout_seconds = 1.0,
        .timeout_scales = scales,
        .on_info = on_info,
        .on_result = on_result,
        .context = out,
    };
    dmlconf_backend_info info;
    char why[256];
    ck_assert_int_eq(runner_schedule_run(&schedule, list, sized->case_count, &info, why, sizeof(why)), 0);
    ck_assert_uint_eq(out->count, sized->case_count);
}

static const dmlconf_case_result *find_in(const collected *c, size_t count, const char *id)
{
    for (size_t i = 0; i < count; ++i)
    {
        if (!strcmp(c->results[i].id, id))
            return &c->results[i];
    }
    ck_abort_msg("no result for %s", id);
    return NULL;
}

START_TEST(test_big_case_gets_time_a_hang_does_not)
{
    /* Scaling: the big cases (1.5 s each, past the 1 s floor) pass, the
     * small case that hangs is still stopped at the floor. */
    dmlconf_case_file sized;
    collected c;
    run_sized(true, &c, &sized);
    ck_assert_int_eq(find_in(&c, 5, "s.big1")->status, DMLCONF_STATUS_PASS);
    ck_assert_int_eq(find_in(&c, 5, "s.big2")->status, DMLCONF_STATUS_PASS);
    ck_assert_int_eq(find_in(&c, 5, "s.a")->status, DMLCONF_STATUS_PASS);
    ck_assert_int_eq(find_in(&c, 5, "s.b")->status, DMLCONF_STATUS_PASS);
    const dmlconf_case_result *hang = find_in(&c, 5, "s.hang");
    ck_assert_int_eq(hang->status, DMLCONF_STATUS_TIMEOUT);
    ck_assert_msg(strstr(hang->message, "did not finish within 1 s, its batch's time limit (the larger of 1 s and 10 "
                                        "x its 9 elements"),
                  "%s", hang->message);
    dmlconf_case_file_free(&sized);

    /* A fixed limit of the same second times the big cases out. */
    run_sized(false, &c, &sized);
    ck_assert_int_eq(find_in(&c, 5, "s.big1")->status, DMLCONF_STATUS_TIMEOUT);
    ck_assert_int_eq(find_in(&c, 5, "s.hang")->status, DMLCONF_STATUS_TIMEOUT);
    ck_assert_str_eq(find_in(&c, 5, "s.hang")->message, "did not finish within 1 s; the worker was killed");
    dmlconf_case_file_free(&sized);
}
END_TEST

START_TEST(test_progress_line)
{
    runner_progress progress;
    runner_progress_start(&progress, 4518, 1000.0);
    char text[256];
    runner_progress_format(&progress, 1000.4, text, sizeof(text));
    ck_assert_str_eq(text, "[0s] 0/4518 done, 0 pass");
    for (int i = 0; i < 1230; ++i)
        runner_progress_count(&progress, DMLCONF_STATUS_PASS);
    runner_progress_count(&progress, DMLCONF_STATUS_FAIL);
    runner_progress_count(&progress, DMLCONF_STATUS_CRASH);
    runner_progress_count(&progress, DMLCONF_STATUS_TIMEOUT);
    runner_progress_count(&progress, DMLCONF_STATUS_TIMEOUT);
    char id[] = "conf.x";
    const dmlconf_case c = {.id = id};
    progress.flight = (runner_flight){&c, 1, 3.14};
    /* 1234 done in 72 s: 3284 more at that pace take 192 s. */
    runner_progress_format(&progress, 1072.0, text, sizeof(text));
    ck_assert_str_eq(text, "[1m12s] 1234/4518 done, 1230 pass, 1 fail, 1 crash, 2 timeout, ETA 3m12s, slowest in "
                           "flight: conf.x (3.1s)");
    /* A batch in flight; a resumed run's cases are not this run's pace. */
    progress.flight = (runner_flight){&c, 32, 75.0};
    progress.earlier = 1000;
    runner_progress_format(&progress, 1072.0, text, sizeof(text));
    ck_assert_str_eq(text, "[1m12s] 1234/4518 done, 1230 pass, 1 fail, 1 crash, 2 timeout, ETA 16m50s, slowest in "
                           "flight: conf.x and 31 more of its batch (1m15s)");
    /* Cut short, it says how long the whole line is. */
    ck_assert_uint_gt(runner_progress_format(&progress, 1072.0, text, 10), 9);
    ck_assert_str_eq(text, "[1m12s] 1");
}
END_TEST

START_TEST(test_wrong_values_fail_and_shrink)
{
    char dir[] = "/tmp/dmlconf-repro-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char repro_dir[64];
    snprintf(repro_dir, sizeof(repro_dir), "%s/repros", dir);
    collected c;
    run_mode("wrong", 1, 30.0, repro_dir, &c);
    const dmlconf_case_result *r = find(&c, "t.long");
    assert_status(&c, "t.long", DMLCONF_STATUS_FAIL);
    ck_assert_uint_eq(r->attempts, 2);
    /* Only the last element (coordinates [63, 4]) is wrong, by one. */
    ck_assert_uint_eq(r->comparison.mismatches, 1);
    ck_assert(r->comparison.has_first);
    ck_assert_uint_eq(r->comparison.first.coordinates[0], 63);
    ck_assert_uint_eq(r->comparison.first.coordinates[1], 4);
    ck_assert_uint_eq(r->comparison.first.expected_bits + 1, r->comparison.first.actual_bits);
    /* A reproducer was written, and it is smaller than the case. */
    ck_assert_msg(r->repro_path[0], "no reproducer: %s", r->message);
    dmlconf_case_file repro;
    size_t errors = dmlconf_case_file_load(&repro, r->repro_path, NULL);
    if (errors)
        dmlconf_diagnostics_print(&repro.diagnostics, NULL, stderr);
    ck_assert_uint_eq(errors, 0);
    ck_assert_uint_eq(repro.case_count, 1);
    ck_assert_uint_lt(dmlconf_case_element_count(&repro.cases[0]), 320);
    ck_assert_uint_le(dmlconf_case_element_count(&repro.cases[0]), 2);
    dmlconf_case_file_free(&repro);
    /* The negative case is judged by rejection, not values. */
    assert_status(&c, "t.neg", DMLCONF_STATUS_PASS);
}
END_TEST

START_TEST(test_flaky_failures_are_flakes)
{
    collected c;
    run_mode("flaky", 0, 30.0, NULL, &c);
    /* The first batch's call corrupts; each failure's rerun passes. */
    const dmlconf_case_result *r = find(&c, "t.a");
    ck_assert_msg(r->status == DMLCONF_STATUS_FLAKE, "t.a: %s", dmlconf_status_name(r->status));
    ck_assert_uint_eq(r->attempts, 2);
}
END_TEST

START_TEST(test_accepting_invalid_desc_fails)
{
    collected c;
    run_mode("accept-all", 1, 30.0, NULL, &c);
    assert_status(&c, "t.neg", DMLCONF_STATUS_FAIL);
    ck_assert_ptr_nonnull(strstr(find(&c, "t.neg")->message, "axis_out_of_range"));
}
END_TEST

START_TEST(test_unavailable_backend)
{
    runner_schedule schedule = {
        .backend_ops = &fault_ops,
        .backend_config = {.adapter = "unavailable"},
        .jobs = (unsigned)_i,
        .on_result = on_result,
    };
    collected c;
    memset(&c, 0, sizeof(c));
    schedule.context = &c;
    dmlconf_backend_info info;
    char why[256];
    ck_assert_int_eq(runner_schedule_run(&schedule, cases, case_count, &info, why, sizeof(why)), -1);
    ck_assert_ptr_nonnull(strstr(why, "no such device"));
    ck_assert_uint_eq(c.count, 0);
}
END_TEST

START_TEST(test_filters_and_shards)
{
    runner_filter filter = {0};
    ck_assert(runner_filter_matches(&filter, "anything"));
    ck_assert_int_eq(runner_filter_add(&filter, "conf.sum.*"), 0);
    ck_assert_int_eq(runner_filter_add(&filter, "!*.r8.*"), 0);
    ck_assert(runner_filter_matches(&filter, "conf.sum.float32.r3.a1"));
    ck_assert(!runner_filter_matches(&filter, "conf.sum.float32.r8.a1"));
    ck_assert(!runner_filter_matches(&filter, "conf.prod.float32.r3.a1"));
    runner_filter_free(&filter);

    uint32_t index, count;
    ck_assert_int_eq(runner_parse_shard("2/5", &index, &count), 0);
    ck_assert_uint_eq(index, 2);
    ck_assert_uint_eq(count, 5);
    ck_assert_int_eq(runner_parse_shard("5/5", &index, &count), -1);
    ck_assert_int_eq(runner_parse_shard("1/0", &index, &count), -1);
    ck_assert_int_eq(runner_parse_shard("1", &index, &count), -1);
    ck_assert_int_eq(runner_parse_shard("a/2", &index, &count), -1);
    ck_assert_int_eq(runner_parse_shard("-1/2", &index, &count), -1);
}
END_TEST

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(test_baseline)
{
    char dir[] = "/tmp/dmlconf-baseline-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file(dir, "failures.txt", "# known failures\nknown.fails,fail\nknown.passes,fail\nknown.crashes,crash\n");
    write_file(dir, "flakes.txt", "flaky.*\n");
    write_file(dir, "skips.txt", "slow.*  # too slow for CI\n");
    runner_baseline baseline;
    char why[256];
    ck_assert_int_eq(runner_baseline_load(&baseline, dir, why, sizeof(why)), 0);
    ck_assert_uint_eq(baseline.failures.count, 3);
    ck_assert(runner_baseline_skips(&baseline, "slow.case"));
    ck_assert(!runner_baseline_skips(&baseline, "fast.case"));

    dmlconf_case_result r;
    memset(&r, 0, sizeof(r));
    snprintf(r.id, sizeof(r.id), "known.fails");
    r.status = DMLCONF_STATUS_FAIL;
    runner_baseline_apply(&baseline, &r);
    ck_assert_int_eq(r.status, DMLCONF_STATUS_EXPECTED_FAIL);
    ck_assert_int_eq(r.known_status, DMLCONF_STATUS_FAIL);

    /* A line matches only the status it records: a known failure that now
     * crashes or times out is a regression, and says what was expected. */
    static const dmlconf_status other[] = {DMLCONF_STATUS_CRASH, DMLCONF_STATUS_TIMEOUT, DMLCONF_STATUS_ERROR};
    for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); ++i)
    {
        memset(&r, 0, sizeof(r));
        snprintf(r.id, sizeof(r.id), "known.fails");
        r.status = other[i];
        runner_baseline_apply(&baseline, &r);
        ck_assert_int_eq(r.status, other[i]);
        ck_assert(dmlconf_status_is_failure(r.status));
        ck_assert_msg(strstr(r.message, "the baseline expects fail") != NULL, "%s", r.message);
    }
    memset(&r, 0, sizeof(r));
    snprintf(r.id, sizeof(r.id), "known.crashes");
    r.status = DMLCONF_STATUS_CRASH;
    runner_baseline_apply(&baseline, &r);
    ck_assert_int_eq(r.status, DMLCONF_STATUS_EXPECTED_FAIL);
    ck_assert_int_eq(r.known_status, DMLCONF_STATUS_CRASH);
    memset(&r, 0, sizeof(r));
    snprintf(r.id, sizeof(r.id), "known.crashes");
    r.status = DMLCONF_STATUS_FAIL;
    runner_baseline_apply(&baseline, &r);
    ck_assert_int_eq(r.status, DMLCONF_STATUS_FAIL);

    snprintf(r.id, sizeof(r.id), "known.passes");
    r.status = DMLCONF_STATUS_PASS;
    runner_baseline_apply(&baseline, &r);
    ck_assert_int_eq(r.status, DMLCONF_STATUS_UNEXPECTED_PASS);
    ck_assert(dmlconf_status_is_failure(r.status));

    snprintf(r.id, sizeof(r.id), "flaky.one");
    r.status = DMLCONF_STATUS_FAIL;
    r.attempts = 2;
    snprintf(r.message, sizeof(r.message), "3 of 4 elements outside tolerance");
    runner_baseline_apply(&baseline, &r);
    /* A known flake that failed every attempt is a failure the baseline
     * accepts, not a pass. */
    ck_assert_int_eq(r.status, DMLCONF_STATUS_EXPECTED_FAIL);
    ck_assert_int_eq(r.known_status, DMLCONF_STATUS_FLAKE);
    ck_assert_msg(strstr(r.message, "fail in 2 of 2 attempts; listed as a known flake (") &&
                      strstr(r.message, "flakes.txt:"),
                  "%s", r.message);

    snprintf(r.id, sizeof(r.id), "new.failure");
    r.status = DMLCONF_STATUS_FAIL;
    runner_baseline_apply(&baseline, &r);
    ck_assert_int_eq(r.status, DMLCONF_STATUS_FAIL);
    runner_baseline_free(&baseline);

    write_file(dir, "failures.txt", "# comment\nbad.line,exploded\n");
    ck_assert_int_eq(runner_baseline_load(&baseline, dir, why, sizeof(why)), -1);
    ck_assert_msg(strstr(why, "failures.txt:2: 'bad.line' has an unknown status 'exploded'"), "%s", why);

    /* The common spellings: "id,fail", "id, fail", an id alone. */
    write_file(dir, "failures.txt", "a.case,fail\nb.case, crash\nc.case\n  d.case ,  error  # note\n");
    ck_assert_int_eq(runner_baseline_load(&baseline, dir, why, sizeof(why)), 0);
    ck_assert_uint_eq(baseline.failures.count, 4);
    ck_assert_str_eq(baseline.failures.entries[1].text, "b.case");
    ck_assert_int_eq(baseline.failures.entries[1].status, DMLCONF_STATUS_CRASH);
    ck_assert_int_eq(baseline.failures.entries[2].status, DMLCONF_STATUS_FAIL);
    ck_assert_str_eq(baseline.failures.entries[3].text, "d.case");
    ck_assert_int_eq(baseline.failures.entries[3].status, DMLCONF_STATUS_ERROR);

    /* Stale lines: ids and globs that match no case. */
    char known_id[] = "a.case";
    dmlconf_case known;
    memset(&known, 0, sizeof(known));
    known.id = known_id;
    const dmlconf_case *known_cases[1] = {&known};
    char **stale = NULL;
    size_t stale_count = 0;
    ck_assert_int_eq(runner_baseline_stale(&baseline, known_cases, 1, &stale, &stale_count), 0);
    ck_assert_uint_eq(stale_count, 5); /* b, c, d, flaky.*, slow.* */
    ck_assert_msg(strstr(stale[0], "failures.txt:2: b.case"), "%s", stale[0]);
    for (size_t i = 0; i < stale_count; ++i)
        free(stale[i]);
    free(stale);
    runner_baseline_free(&baseline);

    /* A line of any length, and a duplicate. */
    char long_id[3000];
    memset(long_id, 'x', sizeof(long_id) - 1);
    long_id[sizeof(long_id) - 1] = '\0';
    char text[6100];
    snprintf(text, sizeof(text), "%s,fail\n%s,fail\n", long_id, long_id);
    write_file(dir, "failures.txt", text);
    char long_why[8000];
    ck_assert_int_eq(runner_baseline_load(&baseline, dir, long_why, sizeof(long_why)), -1);
    ck_assert_msg(strstr(long_why, "is listed twice (also on line 1)"), "%s", long_why);

    /* A folder that is not there is an error, not an empty baseline. */
    ck_assert_int_eq(runner_baseline_load(&baseline, "/nonexistent/baseline", why, sizeof(why)), -1);
    ck_assert_msg(strstr(why, "/nonexistent/baseline does not exist"), "%s", why);
}
END_TEST

/* The output canary: a backend that writes nothing fails, even where the
 * expected value happens to be the canary (0xa5a5a5a5 as an int32 is
 * -1515870811: the case runs again with the other canary); a write past
 * the output's range fails; a write into the padding is reported. */
static const char canary_text[] =
    "defaults: {op: cumulative_summation, dtype: int32, axis: 0}\n"
    "cases:\n"
    "  - {id: c.plain, sizes: [3], input: [1, 2, 3]}\n"
    "  - {id: c.is_canary, sizes: [2], input: [-1515870811, 0]}\n"
    "  - {id: c.all_canary, sizes: [1], input: [-1515870811]}\n"
    "  - {id: c.float_nan, dtype: float32, sizes: [2], input: [nan, 1]}\n"
    "  - {id: c.padded, sizes: [2, 2], axis: 1, output_strides: [4, 1], input: [1, 2, 3, 4]}\n";

/* Loads `text` (named `name`) and runs every case of it on the fault
 * backend in `mode`, in this process; every case must have a result. */
static void run_text_in_mode(const char *name, const char *text, size_t length, const char *mode, bool rerun,
                             collected *out)
{
    dmlconf_case_file loaded;
    ck_assert_uint_eq(dmlconf_case_file_load_buffer(&loaded, name, text, length, NULL), 0);
    const dmlconf_case *list[8];
    ck_assert_uint_le(loaded.case_count, sizeof(list) / sizeof(list[0]));
    for (size_t i = 0; i < loaded.case_count; ++i)
        list[i] = &loaded.cases[i];
    memset(out, 0, sizeof(*out));
    runner_schedule schedule = {
        .backend_ops = &fault_ops,
        .backend_config = {.adapter = mode},
        .config = {.level = DMLCONF_FEATURE_LEVEL_NONE, .rerun_failures = rerun},
        .jobs = 0,
        .on_info = on_info,
        .on_result = on_result,
        .context = out,
    };
    dmlconf_backend_info info;
    char why[256];
    ck_assert_int_eq(runner_schedule_run(&schedule, list, loaded.case_count, &info, why, sizeof(why)), 0);
    ck_assert_uint_eq(out->count, loaded.case_count);
    dmlconf_case_file_free(&loaded);
}

static void run_canary_mode_with(const char *mode, bool rerun, collected *out)
{
    run_text_in_mode("canary.yaml", canary_text, sizeof(canary_text) - 1, mode, rerun, out);
}

static void run_canary_mode(const char *mode, collected *out)
{
    run_canary_mode_with(mode, false, out);
}

START_TEST(test_canary)
{
    collected c;
    run_canary_mode("", &c);
    assert_status(&c, "c.plain", DMLCONF_STATUS_PASS);
    assert_status(&c, "c.is_canary", DMLCONF_STATUS_PASS);
    assert_status(&c, "c.all_canary", DMLCONF_STATUS_PASS);
    assert_status(&c, "c.float_nan", DMLCONF_STATUS_PASS);
    assert_status(&c, "c.padded", DMLCONF_STATUS_PASS);
    ck_assert_uint_eq(find(&c, "c.is_canary")->comparison.canary_ambiguous, 0); /* judged on the rerun */

    /* Writing nothing fails every case, also where every expected value
     * is the first canary, and also when failures are rerun to tell a
     * flake: the rerun judges with both canaries too, so that it never
     * passes for the first one and makes the failure a flake. */
    for (int rerun = 0; rerun < 2; ++rerun)
    {
        run_canary_mode_with("nothing", rerun, &c);
        const char *ids[] = {"c.plain", "c.is_canary", "c.all_canary", "c.float_nan", "c.padded"};
        for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); ++i)
        {
            assert_status(&c, ids[i], DMLCONF_STATUS_FAIL);
            const dmlconf_case_result *r = find(&c, ids[i]);
            ck_assert_msg(strstr(r->message, "(never written)"), "%s: %s", ids[i], r->message);
            ck_assert_msg(strstr(r->message, "rule: never written"), "%s: %s", ids[i], r->message);
            ck_assert_uint_eq(r->comparison.unwritten, r->comparison.elements);
            ck_assert_uint_eq(r->attempts, rerun ? 2u : 1u);
        }
    }

    run_canary_mode("past-end", &c);
    assert_status(&c, "c.plain", DMLCONF_STATUS_FAIL);
    ck_assert_msg(strstr(find(&c, "c.plain")->message, "wrote past the end of its output buffer"), "%s",
                  find(&c, "c.plain")->message);

    run_canary_mode("padding", &c);
    assert_status(&c, "c.padded", DMLCONF_STATUS_PASS);
    ck_assert_msg(strstr(find(&c, "c.padded")->message, "wrote 4 padding bytes between output elements"), "%s",
                  find(&c, "c.padded")->message);
}
END_TEST

/* The half-precision rule: float16 sums computed in float16 pass on a
 * backend that says it may compute float16 in float16, and fail, by the
 * default rule, on one that does not say so; its failures name it; a case
 * with a tolerance of its own keeps it; float32 data computed at half
 * precision fails either way (the rule covers float16 data only). */
static const char half_text[] =
    "defaults: {op: cumulative_summation, axis: 0}\n"
    "cases:\n"
    "  - {id: h.f16, dtype: float16, sizes: [300], input: {generate: uniform, min: 0, max: 3, seed: 5}}\n"
    "  - {id: h.f16.own, dtype: float16, sizes: [300], tolerance: {ulp: 2},\n"
    "     input: {generate: uniform, min: 0, max: 3, seed: 5}}\n"
    "  - {id: h.f32, dtype: float32, sizes: [300], input: {generate: uniform, min: 0, max: 3, seed: 5}}\n";

static void run_half_mode(const char *mode, collected *out)
{
    run_text_in_mode("half.yaml", half_text, sizeof(half_text) - 1, mode, false, out);
}

START_TEST(test_half_precision_rule)
{
    collected c;
    run_half_mode("half", &c);
    assert_status(&c, "h.f16", DMLCONF_STATUS_PASS);
    ck_assert_int_eq(find(&c, "h.f16")->comparison.worst.rule, DMLCONF_RULE_BOUND_FLOAT16);
    assert_status(&c, "h.f16.own", DMLCONF_STATUS_FAIL);
    ck_assert_msg(!strstr(find(&c, "h.f16.own")->message, "half-precision"), "%s", find(&c, "h.f16.own")->message);
    assert_status(&c, "h.f32", DMLCONF_STATUS_FAIL);

    run_half_mode("half-undeclared", &c);
    assert_status(&c, "h.f16", DMLCONF_STATUS_FAIL);
    ck_assert_msg(!strstr(find(&c, "h.f16")->message, "half-precision"), "%s", find(&c, "h.f16")->message);
    assert_status(&c, "h.f32", DMLCONF_STATUS_FAIL);
}
END_TEST

/* The statuses of a run of many cases. */
typedef struct collected_many
{
    dmlconf_status status[512];
    size_t count;
} collected_many;

static void on_many_result(void *context, size_t index, const dmlconf_case_result *result, const char *encoded)
{
    (void)encoded;
    collected_many *c = context;
    ck_assert_uint_lt(index, 512);
    c->status[index] = result->status;
    c->count++;
}

/* Runs `sums` sums and `products` products (4 int32 elements each) in
 * fault mode `mode` on `jobs` workers (opening in turn or not), into *out
 * (a status per case, in order). */
static void run_operators(const char *mode, unsigned sums, unsigned products, unsigned jobs, bool in_turn,
                          collected_many *out)
{
    size_t size = 128 + (size_t)(sums + products) * 96;
    char *text = malloc(size);
    ck_assert_ptr_nonnull(text);
    size_t used = (size_t)snprintf(text, size, "defaults: {dtype: int32, axis: 0}\ncases:\n");
    for (unsigned i = 0; i < sums + products; ++i)
        used += (size_t)snprintf(text + used, size - used, "  - {id: op.%u, op: %s, sizes: [4], input: [1, 2, 3, 4]}\n",
                                 i, i < sums ? "cumulative_summation" : "cumulative_product");
    dmlconf_case_file many;
    ck_assert_uint_eq(dmlconf_case_file_load_buffer(&many, "operators.yaml", text, used, NULL), 0);
    const dmlconf_case **list = calloc(many.case_count, sizeof(*list));
    ck_assert_ptr_nonnull(list);
    for (size_t i = 0; i < many.case_count; ++i)
        list[i] = &many.cases[i];
    memset(out, 0, sizeof(*out));
    runner_schedule schedule = {
        .backend_ops = &fault_ops,
        .backend_config = {.adapter = mode},
        .config = {.level = DMLCONF_FEATURE_LEVEL_NONE},
        .jobs = jobs,
        .open_one_at_a_time = in_turn,
        .timeout_seconds = 30.0,
        .on_result = on_many_result,
        .context = out,
    };
    dmlconf_backend_info info;
    char why[256];
    ck_assert_int_eq(runner_schedule_run(&schedule, list, many.case_count, &info, why, sizeof(why)), 0);
    ck_assert_uint_eq(out->count, many.case_count);
    free(list);
    dmlconf_case_file_free(&many);
    free(text);
}

/* Whether the opening log shows the opens one after another ("begin",
 * "end", "begin", ...), and how many began. */
static bool opens_in_turn(unsigned *opens)
{
    FILE *log = fopen(opening_log, "r");
    ck_assert_ptr_nonnull(log);
    char line[32];
    bool in_turn = true;
    unsigned count = 0;
    for (unsigned n = 0; fgets(line, sizeof(line), log); ++n)
    {
        bool begin = !strcmp(line, "begin\n");
        in_turn = in_turn && begin == (n % 2 == 0);
        count += begin;
    }
    fclose(log);
    remove(opening_log);
    *opens = count;
    return in_turn;
}

/* Workers of a backend whose devices open one at a time open in turn, and
 * the next starts while the first runs cases; started together, their
 * opens overlap (which the log would show if turns were not kept). */
START_TEST(test_workers_open_in_turn)
{
    snprintf(opening_log, sizeof(opening_log), "%s/dmlconf-test-opening-%ld",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid());
    remove(opening_log);
    collected_many c;
    run_operators("slow-open", 128, 0, 3, true, &c);
    unsigned opens;
    ck_assert(opens_in_turn(&opens));
    ck_assert_uint_ge(opens, 2);
    for (size_t i = 0; i < c.count; ++i)
        ck_assert_uint_eq(c.status[i], DMLCONF_STATUS_PASS);
    run_operators("slow-open", 128, 0, 3, false, &c);
    ck_assert(!opens_in_turn(&opens));
    ck_assert_uint_eq(opens, 3);
}
END_TEST

static void count_call(void *context, size_t index)
{
    unsigned *calls = context;
    calls[index]++;
}

START_TEST(test_for_each_calls_every_index_once)
{
    static const size_t counts[] = {0, 1, 3, 64, 257};
    for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); ++k)
    {
        for (unsigned threads = 0; threads <= 9; ++threads)
        {
            unsigned calls[257] = {0};
            runner_for_each(counts[k], threads, count_call, calls);
            for (size_t i = 0; i < 257; ++i)
                ck_assert_msg(calls[i] == (i < counts[k] ? 1u : 0u), "%zu of %zu indices on %u threads: %u calls", i,
                              counts[k], threads, calls[i]);
        }
    }
}
END_TEST

/* A batch's cases prepared, judged and encoded on several threads give the
 * results that one thread gives, whatever the backend does wrong, in this
 * process and in a worker. */
START_TEST(test_host_threads_change_no_result)
{
    static const char *const modes[] = {"", "wrong", "flaky", "nothing", "accept-all", "past-end"};
    for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); ++m)
    {
        for (unsigned jobs = 0; jobs <= 1; ++jobs)
        {
            collected one, many;
            run_threads(modes[m], jobs, 1, jobs > 0, &one);
            run_threads(modes[m], jobs, 4, jobs > 0, &many);
            for (size_t i = 0; i < case_count; ++i)
            {
                const dmlconf_case_result *a = &one.results[i], *b = &many.results[i];
                ck_assert_str_eq(a->id, b->id);
                ck_assert_msg(a->status == b->status, "%s %s: %s on one thread, %s on four", modes[m], a->id,
                              dmlconf_status_name(a->status), dmlconf_status_name(b->status));
                ck_assert_str_eq(a->message, b->message);
                ck_assert_uint_eq(a->comparison.elements, b->comparison.elements);
                ck_assert_uint_eq(a->comparison.mismatches, b->comparison.mismatches);
                ck_assert_uint_eq(a->attempts, b->attempts);
            }
        }
    }
    /* The modes do reach the judging: wrong values fail on four threads. */
    collected c;
    run_threads("wrong", 1, 4, true, &c);
    assert_status(&c, "t.a", DMLCONF_STATUS_FAIL);
    assert_status(&c, "t.long", DMLCONF_STATUS_FAIL);
}
END_TEST

START_TEST(test_caselist)
{
    char dir[] = "/tmp/dmlconf-caselist-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file(dir, "list.txt", "# the list\nt.b\n\n  t.c   # trailing comment\nt.l*\nt.none\nt.a\n");
    char path[256];
    snprintf(path, sizeof(path), "%s/list.txt", dir);
    runner_caselist list = {0};
    char why[512];
    ck_assert_int_eq(runner_caselist_read(&list, path, why, sizeof(why)), 0);
    ck_assert(list.given);
    ck_assert_uint_eq(list.count, 5);
    ck_assert_str_eq(list.entries[1].text, "t.c");
    ck_assert_uint_eq(list.entries[1].line, 4);
    ck_assert(list.entries[2].glob);
    ck_assert(runner_caselist_matches(&list, "t.a"));
    ck_assert(runner_caselist_matches(&list, "t.long"));
    ck_assert(!runner_caselist_matches(&list, "t.crash"));

    /* The filter: listed, then narrowed by the globs. */
    runner_filter filter = {0};
    filter.caselist = &list;
    ck_assert(runner_filter_selects(&filter));
    ck_assert(runner_filter_matches(&filter, "t.b"));
    ck_assert(!runner_filter_matches(&filter, "t.hang"));
    ck_assert_int_eq(runner_filter_add(&filter, "!t.b"), 0);
    ck_assert(!runner_filter_matches(&filter, "t.b"));
    ck_assert(runner_filter_matches(&filter, "t.c"));
    runner_filter_free(&filter);

    /* Only t.none names no case. */
    ck_assert_uint_eq(runner_caselist_mark(&list, cases, case_count), 1);
    ck_assert(!list.entries[3].matched);
    ck_assert_str_eq(list.entries[3].text, "t.none");
    ck_assert_uint_eq(list.entries[3].line, 6);

    /* An empty list lists nothing; a missing one says which. */
    write_file(dir, "empty.txt", "# nothing\n\n");
    runner_caselist empty = {0};
    snprintf(path, sizeof(path), "%s/empty.txt", dir);
    ck_assert_int_eq(runner_caselist_read(&empty, path, why, sizeof(why)), 0);
    ck_assert(empty.given);
    runner_filter only_empty = {.caselist = &empty};
    ck_assert(!runner_filter_matches(&only_empty, "t.a"));
    snprintf(path, sizeof(path), "%s/missing.txt", dir);
    ck_assert_int_eq(runner_caselist_read(&empty, path, why, sizeof(why)), -1);
    ck_assert_ptr_nonnull(strstr(why, "missing.txt: cannot open"));
    runner_caselist_free(&empty);
    runner_caselist_free(&list);
}
END_TEST

static Suite *runner_suite(void)
{
    Suite *suite = suite_create("runner");
    TCase *scheduling = tcase_create("scheduling");
    tcase_add_checked_fixture(scheduling, load_cases, free_cases);
    tcase_set_timeout(scheduling, 120);
    tcase_add_test(scheduling, test_clean_run_in_and_out_of_process);
    tcase_add_test(scheduling, test_crash_costs_only_its_case);
    tcase_add_test(scheduling, test_hang_times_out);
    tcase_add_test(scheduling, test_big_case_gets_time_a_hang_does_not);
    tcase_add_test(scheduling, test_wrong_values_fail_and_shrink);
    tcase_add_test(scheduling, test_flaky_failures_are_flakes);
    tcase_add_test(scheduling, test_accepting_invalid_desc_fails);
    tcase_add_test(scheduling, test_canary);
    tcase_add_test(scheduling, test_half_precision_rule);
    tcase_add_loop_test(scheduling, test_unavailable_backend, 0, 2);
    tcase_add_test(scheduling, test_host_threads_change_no_result);
    tcase_add_test(scheduling, test_for_each_calls_every_index_once);
    tcase_add_test(scheduling, test_workers_open_in_turn);
    suite_add_tcase(suite, scheduling);
    TCase *selection = tcase_create("selection");
    tcase_add_test(selection, test_filters_and_shards);
    tcase_add_test(selection, test_time_limit_formula);
    tcase_add_test(selection, test_progress_line);
    tcase_add_test(selection, test_baseline);
    tcase_add_checked_fixture(selection, load_cases, free_cases);
    tcase_add_test(selection, test_caselist);
    suite_add_tcase(suite, selection);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(runner_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
