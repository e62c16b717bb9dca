/*
 * Tests of native plugins: loading (every way a library can fail to be a
 * plugin, each one sentence), the checks at open, the wrapper that keeps a
 * misbehaving plugin's strings, outcomes and reasons from reaching the
 * reports, capabilities that turn cases into skips with what they need, and
 * the example plugin run in and out of process.
 *
 * The libraries: DMLCONF_TEST_EXAMPLE_PLUGIN (examples/plugin),
 * DMLCONF_TEST_FAULTY_PLUGIN (faulty_plugin.c, whose faults
 * DMLCONF_TEST_PLUGIN_FAULT picks) and DMLCONF_TEST_NO_ENTRY_PLUGIN (the same
 * without an entry point).
 */
#define _POSIX_C_SOURCE 200809L

#include "runner.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef DMLCONF_TEST_OUTPUT
#define DMLCONF_TEST_OUTPUT "test_plugin_output"
#endif

static void set_fault(const char *fault)
{
    ck_assert_int_eq(setenv("DMLCONF_TEST_PLUGIN_FAULT", fault, 1), 0);
}

/* "plugin:PATH" in `buf`. */
static const char *plugin_name(const char *path, char *buf, size_t size)
{
    snprintf(buf, size, "plugin:%s", path);
    return buf;
}

/* A file that is not a library, and a folder. */
static void make_not_libraries(char *file, size_t file_size, char *folder, size_t folder_size)
{
    mkdir(DMLCONF_TEST_OUTPUT, 0777);
    snprintf(file, file_size, "%s/not-a-library.so", DMLCONF_TEST_OUTPUT);
    snprintf(folder, folder_size, "%s/a-folder.so", DMLCONF_TEST_OUTPUT);
    mkdir(folder, 0777);
    FILE *out = fopen(file, "w");
    ck_assert_ptr_nonnull(out);
    fputs("this is text, not a shared library\n", out);
    fclose(out);
}

/* ---- loading ------------------------------------------------------------------- */

typedef struct load_failure
{
    const char *which; /* "missing", "text", "folder", "no-entry", "faulty", "empty" */
    const char *fault;
    const char *expected; /* a part of the sentence, after the path where it has one */
} load_failure;

static const load_failure load_failures[] = {
    {"missing", "", ": there is no such file"},
    {"text", "", ": it is not a library this system can load ("},
    {"folder", "", ": it is a folder, not a library"},
    {"no-entry", "", " is not a dmlconf backend plugin: it does not export dmlconf_backend_entry"},
    {"faulty", "null-entry", " gave no backend: its dmlconf_backend_entry returned NULL"},
    {"faulty", "abi-newer", " is built for backend ABI 4; this dmlconf speaks 1 to 3"},
    {"faulty", "null-ops", " gave no backend table (its ops are NULL)"},
    {"faulty", "incomplete", " has an incomplete backend table: it lacks close and execute"},
    {"empty", "", "'plugin:' names no library: write plugin:PATH"},
};

START_TEST(test_load_failures)
{
    const load_failure *f = &load_failures[_i];
    char file[256], folder[256], name[512], why[1024] = "";
    const char *path = "";
    make_not_libraries(file, sizeof(file), folder, sizeof(folder));
    if (!strcmp(f->which, "missing"))
        path = DMLCONF_TEST_OUTPUT "/no-such-plugin.so";
    else if (!strcmp(f->which, "text"))
        path = file;
    else if (!strcmp(f->which, "folder"))
        path = folder;
    else if (!strcmp(f->which, "no-entry"))
        path = DMLCONF_TEST_NO_ENTRY_PLUGIN;
    else if (!strcmp(f->which, "faulty"))
        path = DMLCONF_TEST_FAULTY_PLUGIN;
    set_fault(f->fault);

    runner_backend_choice choice;
    ck_assert_int_eq(runner_backend_choose(plugin_name(path, name, sizeof(name)), &choice, why, sizeof(why)), -1);
    ck_assert_ptr_null(choice.ops);
    ck_assert_ptr_null(choice.plugin);
    ck_assert_msg(strstr(why, f->expected) != NULL, "%s: '%s' lacks '%s'", f->which, why, f->expected);
    if (path[0])
        ck_assert_msg(strstr(why, path) != NULL, "'%s' does not name %s", why, path);
    /* One sentence. */
    ck_assert_ptr_null(strchr(why, '\n'));
}
END_TEST

START_TEST(test_choose_names_every_backend)
{
    runner_backend_choice choice;
    char why[1024];
    ck_assert_int_eq(runner_backend_choose("nothing", &choice, why, sizeof(why)), -1);
    ck_assert_msg(strstr(why, "no backend 'nothing'; this dmlconf has") != NULL, "%s", why);
    ck_assert_msg(strstr(why, " oracle,") != NULL, "%s", why);
    ck_assert_msg(strstr(why, "and plugin:PATH for a native plugin") != NULL, "%s", why);

    ck_assert_int_eq(runner_backend_choose("oracle", &choice, why, sizeof(why)), 0);
    ck_assert_ptr_eq(choice.ops, &dmlconf_oracle_backend_ops);
    ck_assert_ptr_null(choice.arguments);
    ck_assert_ptr_null(choice.plugin);
    runner_backend_choice_release(&choice);
    ck_assert_ptr_null(choice.ops);
}
END_TEST

/* ---- opening, and the wrapper ----------------------------------------------------- */

/* Loads the faulty plugin with `fault` and opens it. Returns 0 with the
 * backend, or -1 with why set; *choice is the plugin either way. */
static int open_faulty(const char *fault, runner_backend_choice *choice, dmlconf_backend **backend, char *why,
                       size_t why_size)
{
    char name[512];
    set_fault(fault);
    ck_assert_msg(
        runner_backend_choose(plugin_name(DMLCONF_TEST_FAULTY_PLUGIN, name, sizeof(name)), choice, why, why_size) == 0,
        "%s", why);
    dmlconf_backend_config config = {NULL, DMLCONF_FEATURE_LEVEL_NONE, choice->arguments};
    return choice->ops->open(&config, backend, why, why_size);
}

typedef struct open_failure
{
    const char *fault;
    const char *expected;
} open_failure;

static const open_failure open_failures[] = {
    {"bad-level", "describes itself wrongly: it claims feature level 0x7777, which is not a DirectML feature level"},
    {"bad-ranks", "describes itself wrongly: it declares ranks 0 to 9; ranks go from 1 to 8"},
    {"bad-type", "describes itself wrongly: it declares data type 31, which is not a DirectML data type"},
    {"bad-feature", "describes itself wrongly: it declares capabilities dmlconf does not know (bits 0x100000)"},
    {"open-fails", "the test device is switched off"},
    {"open-null", "opened no backend (its open succeeded with a NULL backend)"},
};

START_TEST(test_open_failures)
{
    const open_failure *f = &open_failures[_i];
    runner_backend_choice choice;
    dmlconf_backend *backend = NULL;
    char why[1024] = "";
    ck_assert_int_eq(open_faulty(f->fault, &choice, &backend, why, sizeof(why)), -1);
    ck_assert_msg(strstr(why, f->expected) != NULL, "%s: '%s'", f->fault, why);
    runner_backend_choice_release(&choice);
}
END_TEST

START_TEST(test_open_without_path)
{
    runner_backend_choice choice;
    dmlconf_backend *backend = NULL;
    char name[512], why[1024];
    set_fault("");
    ck_assert_int_eq(
        runner_backend_choose(plugin_name(DMLCONF_TEST_FAULTY_PLUGIN, name, sizeof(name)), &choice, why, sizeof(why)),
        0);
    dmlconf_backend_config config = {NULL, DMLCONF_FEATURE_LEVEL_NONE, NULL};
    ck_assert_int_eq(choice.ops->open(&config, &backend, why, sizeof(why)), -1);
    ck_assert_str_eq(why, "a plugin backend needs the path of its library (plugin:PATH)");
    runner_backend_choice_release(&choice);
}
END_TEST

START_TEST(test_wrapper_names_the_plugin)
{
    runner_backend_choice choice;
    dmlconf_backend *backend = NULL;
    dmlconf_backend_info info;
    char why[1024], expected[1024];
    ck_assert_msg(open_faulty("", &choice, &backend, why, sizeof(why)) == 0, "%s", why);
    snprintf(expected, sizeof(expected), "plugin:%s", DMLCONF_TEST_FAULTY_PLUGIN);
    ck_assert_str_eq(choice.ops->name, expected);
    ck_assert_str_eq(choice.ops->description, "a plugin that misbehaves on demand (tests)");
    ck_assert_str_eq(choice.arguments[0], DMLCONF_TEST_FAULTY_PLUGIN);
    ck_assert_ptr_null(choice.arguments[1]);
    /* The backend keeps its own reference to the library: it outlives the
     * plugin the command line loaded. */
    runner_backend_choice_release(&choice);
    backend->ops->info(backend, &info);
    ck_assert_str_eq(info.backend, "plugin:faulty");
    snprintf(expected, sizeof(expected), "in process; plugin library %s", DMLCONF_TEST_FAULTY_PLUGIN);
    ck_assert_str_eq(info.runtime, expected);
    ck_assert_int_eq(info.feature_level, DMLCONF_FEATURE_LEVEL_5_0);
    ck_assert_uint_eq(info.capabilities.max_rank, 2);
    backend->ops->close(backend);
}
END_TEST

START_TEST(test_wrapper_ends_long_strings)
{
    runner_backend_choice choice;
    dmlconf_backend *backend = NULL;
    dmlconf_backend_info info;
    char why[1024];
    ck_assert_msg(open_faulty("long-strings", &choice, &backend, why, sizeof(why)) == 0, "%s", why);
    backend->ops->info(backend, &info);
    /* Cut at the buffer, and marked as cut where the wrapper added to it. */
    ck_assert_uint_eq(strlen(info.backend), sizeof(info.backend) - 1);
    ck_assert(!strncmp(info.backend, "plugin:bbb", 10));
    ck_assert_str_eq(info.backend + sizeof(info.backend) - 4, "...");
    ck_assert_uint_eq(strlen(info.adapter), sizeof(info.adapter) - 1);
    ck_assert_uint_eq(strlen(info.driver), sizeof(info.driver) - 1);
    ck_assert_uint_eq(strlen(info.runtime), sizeof(info.runtime) - 1);
    ck_assert_str_eq(info.runtime + sizeof(info.runtime) - 4, "...");
    backend->ops->close(backend);
    runner_backend_choice_release(&choice);
}
END_TEST

START_TEST(test_wrapper_reads_a_version_1_table)
{
    runner_backend_choice choice;
    dmlconf_backend *backend = NULL;
    dmlconf_backend_info info;
    dmlconf_boundary boundaries[4];
    char why[1024];
    /* The plugin's table says ABI 1: what lies past its ABI 1 end (here a
     * `boundaries` that aborts) is never read, and the wrapper declares no
     * boundary. */
    ck_assert_msg(open_faulty("abi-1", &choice, &backend, why, sizeof(why)) == 0, "%s", why);
    backend->ops->info(backend, &info);
    ck_assert_str_eq(info.backend, "plugin:faulty");
    ck_assert(backend->ops->boundaries != NULL);
    ck_assert_uint_eq(backend->ops->boundaries(backend, boundaries, 4), 0);
    backend->ops->close(backend);
    runner_backend_choice_release(&choice);
}
END_TEST

START_TEST(test_wrapper_forwards_boundaries)
{
    runner_backend_choice choice;
    dmlconf_backend *backend = NULL;
    dmlconf_boundary boundaries[4];
    char why[1024];
    ck_assert_msg(open_faulty("boundaries", &choice, &backend, why, sizeof(why)) == 0, "%s", why);
    ck_assert_uint_eq(backend->ops->boundaries(backend, boundaries, 4), 2);
    ck_assert_int_eq(boundaries[0].kind, DMLCONF_BOUNDARY_AXIS_LENGTH);
    ck_assert_uint_eq(boundaries[0].value, 1000);
    ck_assert_str_eq(boundaries[0].what, "test chunks");
    ck_assert_uint_eq(boundaries[1].value, 2000);
    ck_assert_uint_eq(strlen(boundaries[1].what), sizeof(boundaries[1].what) - 1);
    /* Never more than asked for. */
    ck_assert_uint_eq(backend->ops->boundaries(backend, boundaries, 1), 1);
    backend->ops->close(backend);
    runner_backend_choice_release(&choice);
}
END_TEST

/* A four-element INT32 sum and its job. */
typedef struct one_job
{
    dmlconf_scan_desc desc;
    int32_t input[4];
    int32_t output[4];
    dmlconf_job job;
} one_job;

static void make_job(one_job *j)
{
    memset(j, 0, sizeof(*j));
    j->desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    j->desc.input.data_type = DMLCONF_DATA_TYPE_INT32;
    j->desc.input.dimension_count = 1;
    j->desc.input.sizes[0] = 4;
    j->desc.output = j->desc.input;
    for (int i = 0; i < 4; ++i)
        j->input[i] = i + 1;
    j->job.desc = &j->desc;
    j->job.feature_level = DMLCONF_FEATURE_LEVEL_5_0;
    j->job.input = j->input;
    j->job.input_bytes = sizeof(j->input);
    j->job.output = j->output;
    j->job.output_bytes = sizeof(j->output);
}

typedef struct job_fault
{
    const char *fault;
    int status;
    dmlconf_job_outcome outcome;
    const char *message; /* the start of the job's message */
} job_fault;

static const job_fault job_faults[] = {
    {"", 0, DMLCONF_JOB_DONE, ""},
    {"bad-outcome", 0, DMLCONF_JOB_FAILED,
     "the plugin ended the job with outcome 42, which is not one of dmlconf_job_outcome's"},
    {"bad-reason", 0, DMLCONF_JOB_FAILED,
     "the plugin rejected the desc for reason 999, which is not one of dmlconf_reason's"},
    {"long-message", 0, DMLCONF_JOB_FAILED, "mmmm"},
    {"decline", 0, DMLCONF_JOB_UNSUPPORTED, "declined by the test"},
    {"lost", -1, DMLCONF_JOB_FAILED, "mmmm"},
};

START_TEST(test_wrapper_checks_jobs)
{
    const job_fault *f = &job_faults[_i];
    runner_backend_choice choice;
    dmlconf_backend *backend = NULL;
    char why[1024];
    one_job j;
    ck_assert_msg(open_faulty(f->fault, &choice, &backend, why, sizeof(why)) == 0, "%s", why);
    make_job(&j);
    ck_assert_int_eq(backend->ops->execute(backend, &j.job, 1), f->status);
    ck_assert_int_eq(j.job.outcome, f->outcome);
    ck_assert_msg(!strncmp(j.job.message, f->message, strlen(f->message)), "%s: '%s'", f->fault, j.job.message);
    ck_assert_uint_lt(strlen(j.job.message), sizeof(j.job.message));
    /* A time that is not a number is unknown. */
    ck_assert(j.job.device_seconds == -1.0 || j.job.device_seconds == 0.001);
    if (!strcmp(f->fault, "long-message"))
        ck_assert(j.job.device_seconds == -1.0);
    if (f->outcome == DMLCONF_JOB_DONE)
    {
        static const int32_t expected[4] = {1, 3, 6, 10};
        ck_assert_mem_eq(j.output, expected, sizeof(expected));
    }
    backend->ops->close(backend);
    runner_backend_choice_release(&choice);
}
END_TEST

/* ---- running cases on plugins ------------------------------------------------------- */

static const char corpus_text[] =
    "defaults: {op: cumulative_summation, dtype: int32, axis: 0}\n"
    "cases:\n"
    "  - {id: p.sum, sizes: [4], input: [1, 2, 3, 4]}\n"
    "  - {id: p.f32, dtype: float32, sizes: [2, 3], axis: 1, input: [0.5, 1, 2, 4, 8, 16]}\n"
    "  - {id: p.prod, op: cumulative_product, dtype: uint32, sizes: [3], direction: decreasing, exclusive: true,\n"
    "     input: [2, 3, 4]}\n"
    "  - {id: p.rank3, sizes: [2, 1, 2], axis: 2, input: [1, 2, 3, 4]}\n"
    "  - {id: p.strided, sizes: [2, 2], axis: 1, input: [1, 2, 3, 4], input_strides: [1, 2], output_strides: [3, 1]}\n"
    "  - {id: p.f16, dtype: float16, sizes: [2], input: [1, 2]}\n"
    "  - {id: p.i64, dtype: int64, sizes: [2], input: [1, 2]}\n"
    "  - {id: p.neg, sizes: [2], axis: 1, input: [1, 2], expect_error: axis_out_of_range}\n";

typedef struct collected
{
    dmlconf_case_result results[16];
    size_t count;
    dmlconf_feature_level level;
} collected;

static void on_result(void *context, size_t index, const dmlconf_case_result *result, const char *encoded)
{
    collected *c = context;
    (void)encoded;
    ck_assert_uint_lt(index, 16);
    c->results[index] = *result;
    c->count++;
}

static void on_info(void *context, const dmlconf_backend_info *info, dmlconf_feature_level level)
{
    collected *c = context;
    (void)info;
    c->level = level;
}

static dmlconf_case_file file;

static void load_cases(void)
{
    size_t errors = dmlconf_case_file_load_buffer(&file, "plugin.yaml", corpus_text, sizeof(corpus_text) - 1, NULL);
    if (errors)
        dmlconf_diagnostics_print(&file.diagnostics, NULL, stderr);
    ck_assert_uint_eq(errors, 0);
}

static void free_cases(void)
{
    dmlconf_case_file_free(&file);
}

/* Runs the corpus on a plugin with `jobs` workers. */
static void run_plugin(const char *path, unsigned jobs, collected *out)
{
    const dmlconf_case *cases[16];
    runner_backend_choice choice;
    dmlconf_backend_info info;
    char name[512], why[1024];
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < file.case_count; ++i)
        cases[i] = &file.cases[i];
    ck_assert_msg(runner_backend_choose(plugin_name(path, name, sizeof(name)), &choice, why, sizeof(why)) == 0, "%s",
                  why);
    runner_schedule schedule = {
        .backend_ops = choice.ops,
        .backend_config = {.arguments = choice.arguments},
        .config = {.level = DMLCONF_FEATURE_LEVEL_NONE, .rerun_failures = true, .batch_elements = 1u << 20},
        .jobs = jobs,
        .timeout_seconds = 30.0,
        .on_info = on_info,
        .on_result = on_result,
        .context = out,
    };
    ck_assert_msg(runner_schedule_run(&schedule, cases, file.case_count, &info, why, sizeof(why)) == 0, "%s", why);
    ck_assert_uint_eq(out->count, file.case_count);
    runner_backend_choice_release(&choice);
}

static const dmlconf_case_result *find(const collected *c, const char *id)
{
    for (size_t i = 0; i < c->count; ++i)
    {
        if (!strcmp(c->results[i].id, id))
            return &c->results[i];
    }
    ck_abort_msg("no result for %s", id);
    return NULL;
}

/* The case passed, or was skipped as unsupported needing `needs`. */
static void assert_outcome(const collected *c, const char *id, const char *needs)
{
    const dmlconf_case_result *r = find(c, id);
    if (!needs)
    {
        ck_assert_msg(r->status == DMLCONF_STATUS_PASS && !r->unsupported, "%s: %s (%s)", id,
                      dmlconf_status_name(r->status), r->message);
        return;
    }
    ck_assert_msg(r->status == DMLCONF_STATUS_SKIP && r->unsupported, "%s: %s (%s)", id, dmlconf_status_name(r->status),
                  r->message);
    ck_assert_str_eq(r->needs, needs);
}

START_TEST(test_example_plugin_runs_what_it_supports)
{
    for (unsigned jobs = 0; jobs <= 2; jobs += 2)
    {
        collected c;
        run_plugin(DMLCONF_TEST_EXAMPLE_PLUGIN, jobs, &c);
        /* It claims no level: the run targets the highest known. */
        ck_assert_int_eq(c.level, DMLCONF_FEATURE_LEVEL_6_4);
        assert_outcome(&c, "p.sum", NULL);
        assert_outcome(&c, "p.f32", NULL);
        assert_outcome(&c, "p.prod", NULL);
        assert_outcome(&c, "p.rank3", NULL);
        assert_outcome(&c, "p.strided", NULL);
        assert_outcome(&c, "p.f16", "FLOAT16");
        assert_outcome(&c, "p.i64", "INT64");
        assert_outcome(&c, "p.neg", "validation");
        ck_assert_str_eq(find(&c, "p.i64")->message, "the plugin:example backend does not support INT64");
        ck_assert_str_eq(find(&c, "p.neg")->message, "the plugin:example backend does not support validation: it "
                                                     "refuses no desc, so it cannot be asked to refuse this one");
    }
}
END_TEST

START_TEST(test_capabilities_name_what_cases_need)
{
    collected c;
    set_fault("");
    run_plugin(DMLCONF_TEST_FAULTY_PLUGIN, 0, &c);
    ck_assert_int_eq(c.level, DMLCONF_FEATURE_LEVEL_5_0);
    assert_outcome(&c, "p.sum", NULL);
    assert_outcome(&c, "p.f32", "FLOAT32");
    assert_outcome(&c, "p.prod", "cumulative products");
    assert_outcome(&c, "p.rank3", "3-dimensional tensors");
    ck_assert_str_eq(find(&c, "p.rank3")->message,
                     "the plugin:faulty backend does not support 3-dimensional tensors (it takes 1 to 2 dimensions)");
    assert_outcome(&c, "p.strided", "strided tensors");
    assert_outcome(&c, "p.neg", "validation");
}
END_TEST

START_TEST(test_declined_jobs_are_not_covered)
{
    collected c;
    set_fault("decline");
    run_plugin(DMLCONF_TEST_FAULTY_PLUGIN, 2, &c);
    assert_outcome(&c, "p.sum", "declined when run");
    ck_assert_str_eq(find(&c, "p.sum")->message, "backend: declined by the test");
}
END_TEST

START_TEST(test_target_level)
{
    dmlconf_backend_info info;
    memset(&info, 0, sizeof(info));
    ck_assert_int_eq(runner_target_level(DMLCONF_FEATURE_LEVEL_4_0, &info), DMLCONF_FEATURE_LEVEL_4_0);
    ck_assert_int_eq(runner_target_level(DMLCONF_FEATURE_LEVEL_NONE, &info), DMLCONF_FEATURE_LEVEL_6_4);
    info.feature_level = DMLCONF_FEATURE_LEVEL_5_0;
    ck_assert_int_eq(runner_target_level(DMLCONF_FEATURE_LEVEL_NONE, &info), DMLCONF_FEATURE_LEVEL_5_0);
    ck_assert_int_eq(runner_target_level(DMLCONF_FEATURE_LEVEL_3_1, &info), DMLCONF_FEATURE_LEVEL_3_1);
}
END_TEST

static Suite *plugin_suite(void)
{
    Suite *suite = suite_create("plugin");
    TCase *loading = tcase_create("loading");
    tcase_add_loop_test(loading, test_load_failures, 0, (int)(sizeof(load_failures) / sizeof(load_failures[0])));
    tcase_add_test(loading, test_choose_names_every_backend);
    suite_add_tcase(suite, loading);

    TCase *wrapper = tcase_create("wrapper");
    tcase_add_loop_test(wrapper, test_open_failures, 0, (int)(sizeof(open_failures) / sizeof(open_failures[0])));
    tcase_add_test(wrapper, test_open_without_path);
    tcase_add_test(wrapper, test_wrapper_names_the_plugin);
    tcase_add_test(wrapper, test_wrapper_ends_long_strings);
    tcase_add_test(wrapper, test_wrapper_reads_a_version_1_table);
    tcase_add_test(wrapper, test_wrapper_forwards_boundaries);
    tcase_add_loop_test(wrapper, test_wrapper_checks_jobs, 0, (int)(sizeof(job_faults) / sizeof(job_faults[0])));
    suite_add_tcase(suite, wrapper);

    TCase *running = tcase_create("running");
    tcase_add_checked_fixture(running, load_cases, free_cases);
    tcase_set_timeout(running, 60);
    tcase_add_test(running, test_example_plugin_runs_what_it_supports);
    tcase_add_test(running, test_capabilities_name_what_cases_need);
    tcase_add_test(running, test_declined_jobs_are_not_covered);
    tcase_add_test(running, test_target_level);
    suite_add_tcase(suite, running);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(plugin_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
