/*
 * The exec backend: the protocol's framing, the handshake's checks, and the
 * backend driving dmlconf_test_adapter in every mode, correct and broken.
 * Each fault must cost exactly the job it hit, say what happened with the
 * adapter's last words, and leave the jobs after it answered.
 */
#define _POSIX_C_SOURCE 200809L

#include "handshake.h"
#include "wire.h"

#include <dmlconf/clock.h>
#include <dmlconf/exec_backend.h>

#include <check.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef DMLCONF_TEST_ADAPTER
#define DMLCONF_TEST_ADAPTER "dmlconf_test_adapter"
#endif

/* ---- jobs ------------------------------------------------------------------- */

/* A job and what the oracle says it must produce. */
typedef struct test_job
{
    dmlconf_scan_desc desc;
    unsigned char *input;
    unsigned char *output;
    unsigned char *expected;
    size_t input_bytes, output_bytes;
} test_job;

static size_t buffer_bytes(const dmlconf_tensor_desc *t)
{
    uint64_t bytes = 0;
    ck_assert(dmlconf_tensor_min_size_bytes(t, &bytes));
    return (size_t)(t->total_size_bytes > bytes ? t->total_size_bytes : bytes);
}

/* A 1-D (or strided 2-D when `padded`) job of `elements` elements of
 * `type`: inputs 1, 2, 3, ... (as bytes of the type), outputs canaried. */
static void make_job(test_job *t, dmlconf_operator op, dmlconf_data_type type, uint32_t elements, bool padded,
                     bool in_place)
{
    memset(t, 0, sizeof(*t));
    t->desc.op = op;
    t->desc.input.data_type = t->desc.output.data_type = type;
    if (padded)
    {
        /* 2 lines of elements/2, each line padded by 3 elements. */
        t->desc.input.dimension_count = 2;
        t->desc.input.sizes[0] = 2;
        t->desc.input.sizes[1] = elements / 2;
        t->desc.input.has_strides = true;
        t->desc.input.strides[0] = elements / 2 + 3;
        t->desc.input.strides[1] = 1;
        t->desc.axis = 1;
    }
    else
    {
        t->desc.input.dimension_count = 1;
        t->desc.input.sizes[0] = elements;
    }
    t->desc.output = t->desc.input;
    t->desc.in_place = in_place;
    t->input_bytes = buffer_bytes(&t->desc.input);
    t->output_bytes = buffer_bytes(&t->desc.output);
    t->input = malloc(t->input_bytes);
    t->output = malloc(t->output_bytes);
    t->expected = malloc(t->output_bytes);
    ck_assert(t->input && t->output && t->expected);
    size_t width = dmlconf_data_type_bits(type) / 8;
    memset(t->input, 0, t->input_bytes);
    for (size_t i = 0; i < t->input_bytes / width; ++i)
    {
        /* Small integers in the type's bits: exact for every operator. */
        uint64_t value = 1 + i % 3;
        if (type == DMLCONF_DATA_TYPE_FLOAT32)
        {
            float f = (float)value;
            memcpy(t->input + i * width, &f, width);
        }
        else if (type == DMLCONF_DATA_TYPE_FLOAT16)
        {
            uint16_t h = dmlconf_half_from_double((double)value);
            memcpy(t->input + i * width, &h, width);
        }
        else
            memcpy(t->input + i * width, &value, width); /* little-endian hosts */
    }
    memset(t->output, 0xff, t->output_bytes);
    if (in_place)
        memcpy(t->output, t->input, t->input_bytes);
    memcpy(t->expected, t->output, t->output_bytes);
    dmlconf_error err;
    ck_assert_int_eq(dmlconf_compute(&t->desc, in_place ? t->expected : t->input, t->input_bytes, t->expected,
                                     t->output_bytes, NULL, &err),
                     0);
}

static void bind_job(test_job *t, dmlconf_job *job)
{
    memset(job, 0, sizeof(*job));
    job->desc = &t->desc;
    job->feature_level = DMLCONF_FEATURE_LEVEL_6_4;
    job->input = t->desc.in_place ? t->output : t->input;
    job->input_bytes = t->input_bytes;
    job->output = t->output;
    job->output_bytes = t->output_bytes;
}

static void free_job(test_job *t)
{
    free(t->input);
    free(t->output);
    free(t->expected);
}

static bool job_right(const test_job *t)
{
    return memcmp(t->output, t->expected, t->output_bytes) == 0;
}

/* ---- the backend over the test adapter ---------------------------------------- */

static int open_adapter(const char *const *extra, dmlconf_backend **backend, char *why, size_t why_size)
{
    const char *arguments[16] = {DMLCONF_TEST_ADAPTER};
    size_t n = 1;
    for (size_t i = 0; extra && extra[i]; ++i)
        arguments[n++] = extra[i];
    arguments[n] = NULL;
    dmlconf_backend_config config = {.arguments = arguments};
    return dmlconf_exec_backend_ops.open(&config, backend, why, why_size);
}

static dmlconf_backend *open_mode(const char *mode)
{
    const char *extra[] = {"--mode", mode, NULL};
    dmlconf_backend *backend = NULL;
    char why[1024];
    ck_assert_msg(open_adapter(extra, &backend, why, sizeof(why)) == 0, "%s", why);
    return backend;
}

enum
{
    BATCH = 4
};

/* Four float32 sums in one batch: 5, 7 (the trigger), 9 and 11 elements,
 * the trigger at position `trigger`. */
static void run_four(dmlconf_backend *backend, size_t trigger, test_job *t, dmlconf_job *jobs)
{
    uint32_t sizes[BATCH] = {5, 9, 11, 13};
    size_t other = 0;
    for (size_t i = 0; i < BATCH; ++i)
    {
        make_job(&t[i], DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32,
                 i == trigger ? 7 : sizes[other++], false, false);
        bind_job(&t[i], &jobs[i]);
    }
    backend->ops->execute(backend, jobs, BATCH);
}

/* The jobs other than `failed` are answered right. */
static void assert_others_right(const test_job *t, const dmlconf_job *jobs, size_t failed)
{
    for (size_t i = 0; i < BATCH; ++i)
    {
        if (i == failed)
            continue;
        ck_assert_msg(jobs[i].outcome == DMLCONF_JOB_DONE, "job %zu: outcome %d: %s", i, jobs[i].outcome,
                      jobs[i].message);
        ck_assert_msg(job_right(&t[i]), "job %zu has a wrong output", i);
    }
}

static void assert_contains(const char *text, const char *part)
{
    ck_assert_msg(strstr(text, part) != NULL, "\"%s\" does not contain \"%s\"", text, part);
}

/* A mode that costs the trigger job, at each position of the batch. */
typedef struct fault
{
    const char *mode;
    const char *what;       /* in the job's message */
    const char *last_words; /* in the job's message */
} fault;

static const fault faults[] = {
    {"crash", "the adapter was killed by signal 6", "about to crash on purpose"},
    {"exit", "the adapter exited with status 3 before it answered this job", "giving up with status 3"},
    {"hang", "the adapter gave no answer to this job for 2 s (it was killed)", "stuck for ever"},
    {"stall", "the adapter stopped in the middle of its answer to this job for 2 s", "half an answer is all there is"},
    {"garbage", "the adapter broke the protocol: its answer does not start with \"DMLA\" but with bytes 74 68 69 73",
     "answering in prose"},
    {"short", "its answer has 24 output bytes, fewer than the 28 of the output buffer", "miscounted the output"},
    {"long", "its answer has 32 output bytes, more than the 28 of the output buffer", "miscounted the output"},
    {"truncated", "the adapter exited with status 0 in the middle of its answer to this job",
     "half an answer is all there is"},
};

START_TEST(test_fault_costs_one_job)
{
    const fault *f = &faults[_i / BATCH];
    size_t trigger = (size_t)_i % BATCH;
    setenv(DMLCONF_EXEC_TIMEOUT_VARIABLE, "2", 1);
    dmlconf_backend *backend = open_mode(f->mode);
    test_job t[BATCH];
    dmlconf_job jobs[BATCH];
    double started = dmlconf_clock_seconds();
    run_four(backend, trigger, t, jobs);
    ck_assert_double_lt(dmlconf_clock_seconds() - started, 10.0);
    ck_assert_msg(jobs[trigger].outcome == DMLCONF_JOB_FAILED, "%s: outcome %d", f->mode, jobs[trigger].outcome);
    assert_contains(jobs[trigger].message, f->what);
    assert_contains(jobs[trigger].message, f->last_words);
    assert_others_right(t, jobs, trigger);
    /* The restarted adapter serves the next batch too. */
    test_job again;
    dmlconf_job job;
    make_job(&again, DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_INT64, 6, false, false);
    bind_job(&again, &job);
    ck_assert_int_eq(backend->ops->execute(backend, &job, 1), 0);
    ck_assert_int_eq(job.outcome, DMLCONF_JOB_DONE);
    ck_assert(job_right(&again));
    free_job(&again);
    for (size_t i = 0; i < BATCH; ++i)
        free_job(&t[i]);
    backend->ops->close(backend);
}
END_TEST

/* Stray bytes after an answer take the place of the next answer: the job
 * they land on is the one that fails (the last job of a batch when they
 * follow it). */
START_TEST(test_trailing_bytes)
{
    dmlconf_backend *backend = open_mode("trailing");
    test_job t[BATCH];
    dmlconf_job jobs[BATCH];
    run_four(backend, 1, t, jobs);
    ck_assert_int_eq(jobs[2].outcome, DMLCONF_JOB_FAILED);
    assert_contains(jobs[2].message, "its answer does not start with \"DMLA\" but with bytes 50 53 3a 20");
    assert_contains(jobs[2].message, "one more thing");
    assert_others_right(t, jobs, 2);
    for (size_t i = 0; i < BATCH; ++i)
        free_job(&t[i]);
    run_four(backend, BATCH - 1, t, jobs);
    ck_assert_int_eq(jobs[BATCH - 1].outcome, DMLCONF_JOB_FAILED);
    assert_contains(jobs[BATCH - 1].message, "bytes followed its answer (\"PS: stray bytes!\")");
    assert_others_right(t, jobs, BATCH - 1);
    for (size_t i = 0; i < BATCH; ++i)
        free_job(&t[i]);
    backend->ops->close(backend);
}
END_TEST

/* A flood on stderr neither blocks the adapter nor costs a job. */
START_TEST(test_stderr_flood)
{
    dmlconf_backend *backend = open_mode("flood");
    test_job t[BATCH];
    dmlconf_job jobs[BATCH];
    double started = dmlconf_clock_seconds();
    run_four(backend, 2, t, jobs);
    ck_assert_double_lt(dmlconf_clock_seconds() - started, 30.0);
    assert_others_right(t, jobs, BATCH);
    for (size_t i = 0; i < BATCH; ++i)
        free_job(&t[i]);
    backend->ops->close(backend);
}
END_TEST

/* Answers that are well formed but say no: outcomes, not failures of the
 * adapter; and wrong or missing output is left to the comparator. */
START_TEST(test_answers_that_say_no)
{
    static const struct
    {
        const char *mode;
        dmlconf_job_outcome outcome;
        const char *message;
        bool output_right;
    } expected[] = {
        {"unsupported", DMLCONF_JOB_UNSUPPORTED, "the test adapter does not run this one", false},
        {"early", DMLCONF_JOB_UNSUPPORTED, "answered early", false},
        {"failed", DMLCONF_JOB_FAILED, "the adapter failed: the device fell over", false},
        {"wrong", DMLCONF_JOB_DONE, "", false},
        {"untouched", DMLCONF_JOB_DONE, "", false},
        {"good", DMLCONF_JOB_DONE, "", true},
    };
    for (size_t m = 0; m < sizeof(expected) / sizeof(expected[0]); ++m)
    {
        dmlconf_backend *backend = open_mode(expected[m].mode);
        test_job t[BATCH];
        dmlconf_job jobs[BATCH];
        run_four(backend, 1, t, jobs);
        ck_assert_msg(jobs[1].outcome == expected[m].outcome, "%s: %d", expected[m].mode, jobs[1].outcome);
        ck_assert_str_eq(jobs[1].message, expected[m].message);
        ck_assert(job_right(&t[1]) == expected[m].output_right);
        if (!strcmp(expected[m].mode, "untouched"))
            ck_assert_uint_eq(t[1].output[0], 0xff);
        assert_others_right(t, jobs, 1);
        for (size_t i = 0; i < BATCH; ++i)
            free_job(&t[i]);
        backend->ops->close(backend);
    }
}
END_TEST

/* Every type, strides with padding, in place: the whole output buffer
 * (padding included) comes back as the oracle leaves it. */
START_TEST(test_layouts_and_types)
{
    static const dmlconf_data_type types[] = {DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_FLOAT16,
                                              DMLCONF_DATA_TYPE_INT32,   DMLCONF_DATA_TYPE_UINT32,
                                              DMLCONF_DATA_TYPE_INT64,   DMLCONF_DATA_TYPE_UINT64};
    dmlconf_backend *backend = open_mode("good");
    enum
    {
        COUNT = 6 * 4
    };
    test_job t[COUNT];
    dmlconf_job jobs[COUNT];
    for (size_t i = 0; i < COUNT; ++i)
    {
        make_job(&t[i], i % 2 ? DMLCONF_OPERATOR_CUMULATIVE_PRODUCT : DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
                 types[i / 4], 10, (i / 2) % 2 == 1, i % 3 == 0);
        if (i % 5 == 0)
        {
            t[i].desc.direction = DMLCONF_AXIS_DIRECTION_DECREASING;
            t[i].desc.exclusive = true;
            memcpy(t[i].expected, t[i].output, t[i].output_bytes);
            dmlconf_error err;
            ck_assert_int_eq(dmlconf_compute(&t[i].desc, t[i].desc.in_place ? t[i].expected : t[i].input,
                                             t[i].input_bytes, t[i].expected, t[i].output_bytes, NULL, &err),
                             0);
        }
        bind_job(&t[i], &jobs[i]);
    }
    ck_assert_int_eq(backend->ops->execute(backend, jobs, COUNT), 0);
    for (size_t i = 0; i < COUNT; ++i)
    {
        ck_assert_msg(jobs[i].outcome == DMLCONF_JOB_DONE, "job %zu: %s", i, jobs[i].message);
        ck_assert_msg(job_right(&t[i]), "job %zu", i);
        free_job(&t[i]);
    }
    backend->ops->close(backend);
}
END_TEST

/* Two jobs of 16 MiB each: the adapter answers the first while the second
 * is still being sent; blocking writes would deadlock here. */
START_TEST(test_large_batch_does_not_deadlock)
{
    dmlconf_backend *backend = open_mode("good");
    test_job t[2];
    dmlconf_job jobs[2];
    for (size_t i = 0; i < 2; ++i)
    {
        make_job(&t[i], DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_INT32, 1u << 22, false, false);
        bind_job(&t[i], &jobs[i]);
    }
    ck_assert_int_eq(backend->ops->execute(backend, jobs, 2), 0);
    for (size_t i = 0; i < 2; ++i)
    {
        ck_assert_msg(jobs[i].outcome == DMLCONF_JOB_DONE, "%s", jobs[i].message);
        ck_assert(job_right(&t[i]));
        free_job(&t[i]);
    }
    /* And one answered before its 16 MiB were read. */
    backend->ops->close(backend);
    const char *extra[] = {"--mode", "early", "--trigger-elements", "4194304", NULL};
    char why[512];
    ck_assert_int_eq(open_adapter(extra, &backend, why, sizeof(why)), 0);
    make_job(&t[0], DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_INT32, 1u << 22, false, false);
    bind_job(&t[0], &jobs[0]);
    ck_assert_int_eq(backend->ops->execute(backend, jobs, 1), 0);
    ck_assert_int_eq(jobs[0].outcome, DMLCONF_JOB_UNSUPPORTED);
    free_job(&t[0]);
    backend->ops->close(backend);
}
END_TEST

/* Jobs without buffers ask only whether the desc is refused. */
START_TEST(test_validation_jobs)
{
    const char *extra[] = {"--validates", NULL};
    dmlconf_backend *backend = NULL;
    char why[512];
    ck_assert_int_eq(open_adapter(extra, &backend, why, sizeof(why)), 0);
    dmlconf_backend_info info;
    backend->ops->info(backend, &info);
    ck_assert(info.capabilities.features & DMLCONF_CAN_VALIDATE);
    test_job t[2];
    dmlconf_job jobs[2];
    for (size_t i = 0; i < 2; ++i)
    {
        make_job(&t[i], DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, 4, false, false);
        bind_job(&t[i], &jobs[i]);
        jobs[i].input = jobs[i].output = NULL;
        jobs[i].input_bytes = jobs[i].output_bytes = 0;
    }
    t[0].desc.axis = 3;
    ck_assert_int_eq(backend->ops->execute(backend, jobs, 2), 0);
    ck_assert_int_eq(jobs[0].outcome, DMLCONF_JOB_REJECTED);
    ck_assert_int_eq(jobs[0].reason, DMLCONF_REASON_AXIS_OUT_OF_RANGE);
    ck_assert_int_eq(jobs[1].outcome, DMLCONF_JOB_DONE);
    ck_assert_str_eq(jobs[1].message, "accepted");
    for (size_t i = 0; i < 2; ++i)
        free_job(&t[i]);
    backend->ops->close(backend);
}
END_TEST

/* A restart that fails costs the rest of the batch, each job saying why;
 * so does one whose handshake changed. */
START_TEST(test_restart_failures)
{
    static const struct
    {
        const char *mode;
        const char *why;
    } modes[] = {
        {"restart-fails", "the adapter could not be restarted: the adapter ended its output before its handshake "
                          "(the adapter exited with status 1; its last words: \"test adapter: cannot start again "
                          "after a crash\")"},
        {"restart-differs", "its handshake now declares another implementation or other capabilities than at first "
                            "(\"someone-else\")"},
    };
    for (size_t m = 0; m < 2; ++m)
    {
        char marker[] = "/tmp/dmlconf-exec-marker-XXXXXX";
        int fd = mkstemp(marker);
        ck_assert_int_ge(fd, 0);
        close(fd);
        unlink(marker);
        const char *extra[] = {"--mode", modes[m].mode, "--marker", marker, NULL};
        dmlconf_backend *backend = NULL;
        char why[512];
        ck_assert_int_eq(open_adapter(extra, &backend, why, sizeof(why)), 0);
        test_job t[BATCH];
        dmlconf_job jobs[BATCH];
        run_four(backend, 1, t, jobs);
        ck_assert_int_eq(jobs[0].outcome, DMLCONF_JOB_DONE);
        ck_assert_int_eq(jobs[1].outcome, DMLCONF_JOB_FAILED);
        assert_contains(jobs[1].message, "about to crash on purpose");
        for (size_t i = 2; i < BATCH; ++i)
        {
            ck_assert_int_eq(jobs[i].outcome, DMLCONF_JOB_FAILED);
            assert_contains(jobs[i].message, modes[m].why);
        }
        for (size_t i = 0; i < BATCH; ++i)
            free_job(&t[i]);
        backend->ops->close(backend);
        unlink(marker);
    }
}
END_TEST

/* An adapter that ends, or speaks, between batches costs no job: the next
 * batch goes to a fresh adapter. */
START_TEST(test_between_batches)
{
    static const char *const modes[] = {"exit-after-batch", "late-bytes"};
    for (size_t m = 0; m < 2; ++m)
    {
        dmlconf_backend *backend = open_mode(modes[m]);
        for (int round = 0; round < 3; ++round)
        {
            test_job t[BATCH];
            dmlconf_job jobs[BATCH];
            run_four(backend, 1, t, jobs);
            assert_others_right(t, jobs, BATCH);
            for (size_t i = 0; i < BATCH; ++i)
                free_job(&t[i]);
            /* Time for what the adapter does after a batch to happen. */
            dmlconf_clock_sleep(0.3);
        }
        backend->ops->close(backend);
    }
}
END_TEST

/* Adapters that never get going: open says why, with their last words. */
START_TEST(test_open_failures)
{
    static const struct
    {
        const char *mode;
        const char *why;
    } modes[] = {
        {"bad-handshake", "the handshake is not JSON: '[' or '{' expected near 'hello' at column 5 (the adapter was "
                          "killed by dmlconf; its last words: \"test adapter: greeting in prose\")"},
        {"wrong-version", "the adapter speaks version 99 of the process protocol; this dmlconf speaks version 1"},
        {"exit-at-once", "the adapter ended its output before its handshake (the adapter exited with status 1; its "
                         "last words: \"test adapter: cannot start: no device here\")"},
        {"no-handshake", "the adapter sent no handshake line within 2 s (the adapter was killed by dmlconf; its last "
                         "words: \"test adapter: thinking about it\")"},
        {"chatty", "the adapter wrote 17 bytes after its handshake line, before any job"},
    };
    setenv(DMLCONF_EXEC_TIMEOUT_VARIABLE, "2", 1);
    for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); ++m)
    {
        const char *extra[] = {"--mode", modes[m].mode, NULL};
        dmlconf_backend *backend = NULL;
        char why[1024];
        ck_assert_int_eq(open_adapter(extra, &backend, why, sizeof(why)), -1);
        assert_contains(why, modes[m].why);
    }
    dmlconf_backend *backend = NULL;
    char why[1024];
    const char *missing[] = {"/nonexistent/adapter", NULL};
    dmlconf_backend_config config = {.arguments = missing};
    ck_assert_int_eq(dmlconf_exec_backend_ops.open(&config, &backend, why, sizeof(why)), -1);
    assert_contains(why, "cannot start the adapter: cannot run /nonexistent/adapter: No such file or directory");
    config.arguments = NULL;
    ck_assert_int_eq(dmlconf_exec_backend_ops.open(&config, &backend, why, sizeof(why)), -1);
    assert_contains(why, "dmlconf run --backend exec -- COMMAND [ARGS...]");
    const char *good[] = {DMLCONF_TEST_ADAPTER, NULL};
    config = (dmlconf_backend_config){.arguments = good, .adapter = "1"};
    ck_assert_int_eq(dmlconf_exec_backend_ops.open(&config, &backend, why, sizeof(why)), -1);
    assert_contains(why, "picks no adapter");
    setenv(DMLCONF_EXEC_TIMEOUT_VARIABLE, "soon", 1);
    config.adapter = NULL;
    ck_assert_int_eq(dmlconf_exec_backend_ops.open(&config, &backend, why, sizeof(why)), -1);
    ck_assert_str_eq(why, "DMLCONF_EXEC_TIMEOUT is \"soon\", not a number of seconds from 0 to 86400");
}
END_TEST

/* What the handshake declares is what the backend says about itself. */
START_TEST(test_info_from_handshake)
{
    const char *extra[] = {"--name", "frugal",       "--sums-only",   "--types",         "float32,int32", "--ranks",
                           "2-4",    "--no-strides", "--no-in-place", "--feature-level", "4_1",           NULL};
    dmlconf_backend *backend = NULL;
    char why[512];
    ck_assert_int_eq(open_adapter(extra, &backend, why, sizeof(why)), 0);
    dmlconf_backend_info info;
    backend->ops->info(backend, &info);
    ck_assert_str_eq(info.backend, "exec:frugal");
    ck_assert_str_eq(info.adapter, "the oracle, over a pipe");
    ck_assert_str_eq(info.driver, "none");
    ck_assert_str_eq(info.runtime, "frugal 1.0 on C (process protocol 1)");
    ck_assert(info.software);
    ck_assert(!info.exact);
    ck_assert_int_eq(info.feature_level, DMLCONF_FEATURE_LEVEL_4_1);
    ck_assert_uint_eq(info.capabilities.features, DMLCONF_CAN_SUMMATION | DMLCONF_CAN_INCREASING |
                                                      DMLCONF_CAN_DECREASING | DMLCONF_CAN_INCLUSIVE |
                                                      DMLCONF_CAN_EXCLUSIVE);
    ck_assert_uint_eq(info.capabilities.data_types,
                      DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_FLOAT32) | DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_INT32));
    ck_assert_uint_eq(info.capabilities.min_rank, 2);
    ck_assert_uint_eq(info.capabilities.max_rank, 4);
    backend->ops->close(backend);
}
END_TEST

/* ---- the handshake parser ------------------------------------------------------ */

#define CAPS                                                                                                           \
    "\"operators\": [\"cumulative_summation\"], \"data_types\": [\"float32\"], \"directions\": [\"increasing\"], "     \
    "\"modes\": [\"inclusive\"], \"ranks\": [1, 8], \"strides\": false, \"broadcast\": false, \"in_place\": false, "   \
    "\"validates\": false"
#define HEAD "\"protocol\": \"dmlconf-exec\", \"version\": 1, \"implementation\": \"x\", "

static const struct
{
    const char *line;
    const char *error; /* NULL: accepted */
} handshakes[] = {
    {"{" HEAD CAPS "}", NULL},
    {"{" HEAD CAPS ", \"feature_level\": null, \"later\": [1, 2]}", NULL},
    {"{" HEAD CAPS ", \"feature_level\": \"DML_FEATURE_LEVEL_5_0\"}", NULL},
    {"not json", "the handshake is not JSON"},
    {"[1, 2]", "the handshake is not a JSON object"},
    {"{\"protocol\": \"other\", \"version\": 1}", "the handshake's \"protocol\" is not \"dmlconf-exec\""},
    {"{\"protocol\": \"dmlconf-exec\", \"version\": \"1\"}", "the handshake's \"version\" is not an integer"},
    {"{\"protocol\": \"dmlconf-exec\", \"version\": 2, \"whatever\": 0}",
     "the adapter speaks version 2 of the process protocol; this dmlconf speaks version 1"},
    {"{\"protocol\": \"dmlconf-exec\", \"version\": 1, " CAPS "}", "the handshake has no \"implementation\""},
    {"{\"protocol\": \"dmlconf-exec\", \"version\": 1, \"implementation\": \"num py\", " CAPS "}",
     "the handshake's \"implementation\" is not 1 to 40 of the characters"},
    {"{" HEAD CAPS ", \"implementation\": \"y\"}", "the handshake is not JSON: duplicate object key"},
    {"{" HEAD CAPS ", \"device\": \"a\\nb\"}", "the handshake's \"device\" holds the control character U+000A"},
    /* Nothing that would act on a console or hide the text after it: ESC,
     * BEL, a C1 control, a right-to-left override. */
    {"{" HEAD CAPS ", \"device\": \"a\\u001b[2Jb\"}", "the handshake's \"device\" holds the control character U+001B"},
    {"{" HEAD CAPS ", \"device\": \"a\\u0007\"}", "the handshake's \"device\" holds the control character U+0007"},
    {"{" HEAD CAPS ", \"driver\": \"a\\u009bb\"}", "the handshake's \"driver\" holds the control character U+009B"},
    {"{" HEAD CAPS ", \"device\": \"GPU \\u202eredro\"}",
     "the handshake's \"device\" holds the control character U+202E"},
    {"{" HEAD CAPS ", \"device\": 3}", "the handshake's \"device\" is not a string"},
    {"{" HEAD CAPS ", \"software\": \"yes\"}", "the handshake's \"software\" is not true or false"},
    {"{" HEAD CAPS ", \"feature_level\": \"9_9\"}", "the handshake's \"feature_level\" is not a feature level"},
    {"{" HEAD "\"operators\": [\"cumulative_sum\"], \"data_types\": [\"float32\"]}",
     "the handshake's \"operators\" holds \"cumulative_sum\", which is not one of cumulative_summation, "
     "cumulative_product"},
    {"{" HEAD "\"operators\": [], \"data_types\": [\"float32\"]}",
     "the handshake's \"operators\" is not a list of at least one name"},
    {"{" HEAD "\"operators\": [\"cumulative_product\"], \"data_types\": [\"flaot32\"]}",
     "the handshake's \"data_types\" holds \"flaot32\", which is not a DirectML data type"},
    {"{" HEAD "\"operators\": [\"cumulative_product\"], \"data_types\": [\"float32\"], \"directions\": [3]}",
     "the handshake's \"directions\" holds a value that is not a string"},
    {"{" HEAD "\"operators\": [\"cumulative_product\"], \"data_types\": [\"float32\"], \"directions\": "
     "[\"increasing\"], \"modes\": [\"inclusive\"], \"ranks\": [0, 8]}",
     "the handshake's \"ranks\" is not [lowest, highest] with 1 <= lowest <= highest <= 8"},
    {"{" HEAD "\"operators\": [\"cumulative_product\"], \"data_types\": [\"float32\"], \"directions\": "
     "[\"increasing\"], \"modes\": [\"inclusive\"], \"ranks\": [3, 2]}",
     "the handshake's \"ranks\" is not [lowest, highest]"},
    {"{" HEAD "\"operators\": [\"cumulative_product\"], \"data_types\": [\"float32\"], \"directions\": "
     "[\"increasing\"], \"modes\": [\"inclusive\"], \"ranks\": [1, 8], \"strides\": true, \"broadcast\": true, "
     "\"in_place\": true}",
     "the handshake has no \"validates\" (true or false)"},
};

START_TEST(test_handshake_lines)
{
    exec_handshake h;
    char why[512] = "";
    const char *line = handshakes[_i].line;
    int result = exec_parse_handshake(line, strlen(line), &h, why, sizeof(why));
    if (!handshakes[_i].error)
        ck_assert_msg(result == 0, "%s: %s", line, why);
    else
    {
        ck_assert_msg(result == -1, "%s was accepted", line);
        assert_contains(why, handshakes[_i].error);
    }
}
END_TEST

START_TEST(test_handshake_long_string)
{
    char line[2048];
    char device[300];
    memset(device, 'd', sizeof(device) - 1);
    device[sizeof(device) - 1] = '\0';
    snprintf(line, sizeof(line), "{" HEAD CAPS ", \"device\": \"%s\"}", device);
    exec_handshake h;
    char why[512];
    ck_assert_int_eq(exec_parse_handshake(line, strlen(line), &h, why, sizeof(why)), -1);
    ck_assert_str_eq(why, "the handshake's \"device\" has 299 bytes (at most 255)");
    /* A line need not end in a NUL: only `length` bytes count. */
    snprintf(line, sizeof(line), "{" HEAD CAPS "}garbage");
    ck_assert_int_eq(exec_parse_handshake(line, strlen(line) - 7, &h, why, sizeof(why)), 0);
    ck_assert_str_eq(h.implementation, "x");
    ck_assert_int_eq(h.feature_level, DMLCONF_FEATURE_LEVEL_NONE);
}
END_TEST

/* ---- the framing ------------------------------------------------------------------- */

static uint32_t u32_at(const unsigned char *b, size_t offset)
{
    return (uint32_t)b[offset] | (uint32_t)b[offset + 1] << 8 | (uint32_t)b[offset + 2] << 16 |
           (uint32_t)b[offset + 3] << 24;
}

START_TEST(test_job_header_layout)
{
    test_job t;
    make_job(&t, DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT16, 8, true, false);
    t.desc.direction = DMLCONF_AXIS_DIRECTION_DECREASING;
    t.desc.exclusive = true;
    t.desc.output.has_strides = false;
    t.desc.output.total_size_bytes = 64;
    dmlconf_job job;
    bind_job(&t, &job);
    job.feature_level = DMLCONF_FEATURE_LEVEL_5_1;
    unsigned char h[EXEC_JOB_HEADER_BYTES];
    exec_encode_job_header(&job, 3, h);
    ck_assert(!memcmp(h, "DMLJ", 4));
    ck_assert_uint_eq(u32_at(h, 4), 224);
    ck_assert_uint_eq(u32_at(h, 8), 3);
    ck_assert_uint_eq(u32_at(h, 12), 145);
    ck_assert_uint_eq(u32_at(h, 16), 1);      /* axis */
    ck_assert_uint_eq(u32_at(h, 20), 1);      /* decreasing */
    ck_assert_uint_eq(u32_at(h, 24), 1);      /* exclusive, out of place, with buffers */
    ck_assert_uint_eq(u32_at(h, 28), 0x5100); /* feature level */
    /* Input: FLOAT16, 2 dimensions [2, 4], strides [7, 1] given. */
    ck_assert_uint_eq(u32_at(h, 32), 2);
    ck_assert_uint_eq(u32_at(h, 36), 2);
    ck_assert_uint_eq(u32_at(h, 40), 2);
    ck_assert_uint_eq(u32_at(h, 44), 4);
    ck_assert_uint_eq(u32_at(h, 48), 0);
    ck_assert_uint_eq(u32_at(h, 72), 7);
    ck_assert_uint_eq(u32_at(h, 76), 1);
    ck_assert_uint_eq(u32_at(h, 104), 1); /* strides given */
    ck_assert_uint_eq(u32_at(h, 112), 0); /* total size: the minimum */
    ck_assert_uint_eq(u32_at(h, 120), (uint32_t)t.input_bytes);
    /* Output: packed strides [4, 1] sent, not given; total size 64. */
    ck_assert_uint_eq(u32_at(h, 128 + 40), 4);
    ck_assert_uint_eq(u32_at(h, 128 + 44), 1);
    ck_assert_uint_eq(u32_at(h, 128 + 72), 0);
    ck_assert_uint_eq(u32_at(h, 128 + 80), 64);
    ck_assert_uint_eq(u32_at(h, 128 + 88), (uint32_t)t.output_bytes);
    /* In place: no input buffer; without buffers: validate only. */
    t.desc.in_place = true;
    exec_encode_job_header(&job, 0, h);
    ck_assert_uint_eq(u32_at(h, 24), 3);
    ck_assert_uint_eq(u32_at(h, 120), 0);
    job.input = job.output = NULL;
    exec_encode_job_header(&job, 0, h);
    ck_assert_uint_eq(u32_at(h, 24), 7);
    ck_assert_uint_eq(u32_at(h, 128 + 88), 0);
    unsigned char batch[EXEC_BATCH_HEADER_BYTES];
    exec_encode_batch_header(17, batch);
    ck_assert(!memcmp(batch, "DMLB", 4));
    ck_assert_uint_eq(u32_at(batch, 4), 1);
    ck_assert_uint_eq(u32_at(batch, 8), 17);
    free_job(&t);
}
END_TEST

static void put32(unsigned char *b, size_t offset, uint32_t value)
{
    for (unsigned i = 0; i < 4; ++i)
        b[offset + i] = (unsigned char)(value >> (8 * i));
}

START_TEST(test_answer_header_checks)
{
    test_job t;
    make_job(&t, DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_INT32, 5, false, false);
    dmlconf_job job;
    bind_job(&t, &job);
    static const struct
    {
        uint32_t index, status, reason, output_bytes, message_bytes;
        const char *error; /* NULL: well formed */
    } cases[] = {
        {2, 0, 0, 20, 0, NULL},
        {2, 1, 14, 0, 10, NULL},
        {2, 2, 0, 0, 4096, NULL},
        {3, 0, 0, 20, 0, "its answer is numbered 3, not 2"},
        {2, 4, 0, 20, 0, "its answer has status 4 (0 to 3 exist)"},
        {2, 0, 14, 20, 0, "its answer (done) has reason code 14"},
        {2, 1, 99, 0, 0, "its answer (rejected) has reason code 99"},
        {2, 2, 0, 0, 4097, "its answer's message has 4097 bytes (at most 4096)"},
        {2, 0, 0, 16, 0, "its answer has 16 output bytes, fewer than the 20 of the output buffer"},
        {2, 0, 0, 24, 0, "its answer has 24 output bytes, more than the 20 of the output buffer"},
        {2, 3, 0, 20, 0, "its answer (failed) has 20 output bytes (it may have none)"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i)
    {
        unsigned char h[EXEC_ANSWER_HEADER_BYTES] = {'D', 'M', 'L', 'A'};
        put32(h, 4, cases[i].index);
        put32(h, 8, cases[i].status);
        put32(h, 12, cases[i].reason);
        put32(h, 24, cases[i].output_bytes);
        put32(h, 32, cases[i].message_bytes);
        exec_answer_header a;
        char why[256] = "";
        bool ok = exec_decode_answer_header(h, &job, 2, &a, why, sizeof(why));
        ck_assert_msg(ok == !cases[i].error, "case %zu: %s", i, why);
        if (cases[i].error)
            ck_assert_str_eq(why, cases[i].error);
    }
    /* The device time: a finite time of at least 0, else unknown (-1). */
    static const double times[][2] = {{0.25, 0.25}, {0.0, 0.0}, {-3.0, -1.0}, {INFINITY, -1.0}, {NAN, -1.0}};
    for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); ++i)
    {
        unsigned char h[EXEC_ANSWER_HEADER_BYTES] = {'D', 'M', 'L', 'A'};
        put32(h, 24, 20);
        uint64_t bits;
        memcpy(&bits, &times[i][0], sizeof(bits));
        put32(h, 16, (uint32_t)bits);
        put32(h, 20, (uint32_t)(bits >> 32));
        exec_answer_header a;
        char why[256];
        ck_assert(exec_decode_answer_header(h, &job, 0, &a, why, sizeof(why)));
        ck_assert_double_eq(a.device_seconds, times[i][1]);
    }
    unsigned char h[EXEC_ANSWER_HEADER_BYTES] = {'D', 'M', 'L', '?'};
    exec_answer_header a;
    char why[256];
    ck_assert(!exec_decode_answer_header(h, &job, 0, &a, why, sizeof(why)));
    ck_assert_str_eq(why, "its answer does not start with \"DMLA\" but with bytes 44 4d 4c 3f");
    free_job(&t);
}
END_TEST

/* The example of docs/process-protocol.md, byte for byte. */
START_TEST(test_documented_example)
{
    static const unsigned char documented[264 - 24] = {
        0x44, 0x4d, 0x4c, 0x42, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x44, 0x4d,
        0x4c, 0x4a, 0xe0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x69, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x64, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00,
        0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    };
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    desc.input.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    desc.input.dimension_count = 1;
    desc.input.sizes[0] = 3;
    desc.output = desc.input;
    float input[3] = {1.0f, 2.0f, 3.0f};
    unsigned char output[12];
    memset(output, 0xff, sizeof(output));
    dmlconf_job job = {.desc = &desc,
                       .feature_level = DMLCONF_FEATURE_LEVEL_6_4,
                       .input = input,
                       .input_bytes = sizeof(input),
                       .output = output,
                       .output_bytes = sizeof(output)};
    unsigned char sent[EXEC_BATCH_HEADER_BYTES + EXEC_JOB_HEADER_BYTES];
    exec_encode_batch_header(1, sent);
    exec_encode_job_header(&job, 0, sent + EXEC_BATCH_HEADER_BYTES);
    ck_assert_uint_eq(sizeof(sent), sizeof(documented));
    for (size_t i = 0; i < sizeof(sent); ++i)
        ck_assert_msg(sent[i] == documented[i], "byte 0x%zx: %02x, documented %02x", i, sent[i], documented[i]);
}
END_TEST

/* The reason codes on the wire are dmlconf_reason's values, as the
 * protocol's table lists them. */
START_TEST(test_reason_codes)
{
    static const char *const table[] = {"none",
                                        "unknown_feature_level",
                                        "unknown_operator",
                                        "operator_unavailable",
                                        "unknown_axis_direction",
                                        "dimension_count_invalid",
                                        "dimension_count_mismatch",
                                        "dimension_count_unsupported_at_level",
                                        "data_type_unsupported",
                                        "data_type_mismatch",
                                        "data_type_unsupported_at_level",
                                        "zero_size",
                                        "sizes_mismatch",
                                        "too_many_elements",
                                        "axis_out_of_range",
                                        "buffer_size_overflow",
                                        "total_size_too_small",
                                        "in_place_mismatch"};
    ck_assert_uint_eq(sizeof(table) / sizeof(table[0]), DMLCONF_REASON_COUNT);
    for (unsigned code = 0; code < DMLCONF_REASON_COUNT; ++code)
        ck_assert_str_eq(dmlconf_reason_name((dmlconf_reason)code), table[code]);
}
END_TEST

static Suite *exec_suite(void)
{
    Suite *suite = suite_create("exec_backend");
    TCase *framing = tcase_create("framing");
    tcase_add_test(framing, test_job_header_layout);
    tcase_add_test(framing, test_answer_header_checks);
    tcase_add_test(framing, test_documented_example);
    tcase_add_test(framing, test_reason_codes);
    suite_add_tcase(suite, framing);
    TCase *handshake = tcase_create("handshake");
    tcase_add_loop_test(handshake, test_handshake_lines, 0, (int)(sizeof(handshakes) / sizeof(handshakes[0])));
    tcase_add_test(handshake, test_handshake_long_string);
    suite_add_tcase(suite, handshake);
    TCase *adapter = tcase_create("adapter");
    tcase_set_timeout(adapter, 120);
    tcase_add_test(adapter, test_layouts_and_types);
    tcase_add_test(adapter, test_large_batch_does_not_deadlock);
    tcase_add_test(adapter, test_validation_jobs);
    tcase_add_test(adapter, test_info_from_handshake);
    tcase_add_test(adapter, test_answers_that_say_no);
    tcase_add_test(adapter, test_open_failures);
    suite_add_tcase(suite, adapter);
    TCase *faults_case = tcase_create("faults");
    tcase_set_timeout(faults_case, 120);
    tcase_add_loop_test(faults_case, test_fault_costs_one_job, 0, (int)(sizeof(faults) / sizeof(faults[0])) * BATCH);
    tcase_add_test(faults_case, test_trailing_bytes);
    tcase_add_test(faults_case, test_stderr_flood);
    tcase_add_test(faults_case, test_restart_failures);
    tcase_add_test(faults_case, test_between_batches);
    suite_add_tcase(suite, faults_case);
    return suite;
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    SRunner *runner = srunner_create(exec_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
