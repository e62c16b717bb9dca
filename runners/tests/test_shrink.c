/*
 * Tests of the one shrinking engine (runner.h, "shrinking"): layouts as
 * recipes and back, each step of the search with callbacks that fail on
 * purpose (one element, a layout, a mode, any case), its budget, and the
 * run's reproducers of a failure that needs its layout, written by the
 * case writer and loaded back.
 */
#define _POSIX_C_SOURCE 200809L

#include <dmlconf/runner.h>

#include <check.h>
#include <dmlconf/oracle_backend.h>
#include <dmlconf/values.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- layouts ---------------------------------------------------------------------------- */

static dmlconf_scan_desc desc_of(uint32_t rank, const uint32_t *sizes, const uint32_t *input_strides,
                                 const uint32_t *output_strides)
{
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    desc.input.data_type = DMLCONF_DATA_TYPE_INT32;
    desc.input.dimension_count = rank;
    memcpy(desc.input.sizes, sizes, rank * sizeof(*sizes));
    desc.output = desc.input;
    if (input_strides)
    {
        desc.input.has_strides = true;
        memcpy(desc.input.strides, input_strides, rank * sizeof(*input_strides));
    }
    if (output_strides)
    {
        desc.output.has_strides = true;
        memcpy(desc.output.strides, output_strides, rank * sizeof(*output_strides));
    }
    return desc;
}

static bool same_strides(const dmlconf_tensor_desc *a, const dmlconf_tensor_desc *b)
{
    if (a->has_strides != b->has_strides)
        return false;
    for (uint32_t d = 0; a->has_strides && d < a->dimension_count; ++d)
    {
        if (a->strides[d] != b->strides[d])
            return false;
    }
    return true;
}

START_TEST(test_layout_recipes)
{
    static const uint32_t sizes[3] = {2, 3, 4};
    static const struct
    {
        const char *what;
        uint32_t input[3], output[3];
        bool has_input, has_output, in_place, expressible;
    } rows[] = {
        {"packed", {0}, {0}, false, false, false, true},
        {"padded", {20, 5, 1}, {12, 4, 1}, true, true, false, true},
        {"permuted", {1, 2, 6}, {12, 1, 3}, true, true, false, true},
        {"broadcast", {0, 4, 1}, {0}, true, false, false, true},
        {"broadcast, padded", {4, 0, 1}, {16, 5, 1}, true, true, false, true},
        {"in place", {16, 5, 1}, {16, 5, 1}, true, true, true, true},
        {"size-1 strides", {12, 4, 1}, {0}, true, false, false, true},
        {"overlapping", {1, 1, 1}, {0}, true, false, false, false},
        {"output broadcast", {0}, {0, 4, 1}, false, true, false, false},
    };
    for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); ++r)
    {
        dmlconf_scan_desc desc =
            desc_of(3, sizes, rows[r].has_input ? rows[r].input : NULL, rows[r].has_output ? rows[r].output : NULL);
        desc.in_place = rows[r].in_place;
        runner_layout layout;
        bool exact = runner_layout_of(&desc, &layout);
        ck_assert_msg(exact == rows[r].expressible, "%s: expressible %d", rows[r].what, exact);
        dmlconf_scan_desc again = desc;
        ck_assert_msg(runner_layout_apply(&layout, &again), "%s: the recipe does not apply", rows[r].what);
        if (exact)
            ck_assert_msg(same_strides(&again.input, &desc.input) && same_strides(&again.output, &desc.output) &&
                              again.in_place == desc.in_place,
                          "%s: the recipe gives other strides", rows[r].what);
        else
            ck_assert_msg(!again.input.has_strides && !again.output.has_strides && !again.in_place, "%s: not packed",
                          rows[r].what);
    }
    /* The recipe keeps a layout's features for other sizes. */
    dmlconf_scan_desc desc = desc_of(3, sizes, (const uint32_t[]){0, 5, 1}, NULL);
    runner_layout layout;
    ck_assert(runner_layout_of(&desc, &layout));
    desc.input.sizes[1] = desc.output.sizes[1] = 7;
    ck_assert(runner_layout_apply(&layout, &desc));
    ck_assert_uint_eq(desc.input.strides[0], 0);
    ck_assert_uint_eq(desc.input.strides[1], 5);
    /* A total size has no recipe. */
    desc = desc_of(3, sizes, NULL, NULL);
    desc.input.total_size_bytes = 1024;
    ck_assert(!runner_layout_of(&desc, &layout));
}
END_TEST

/* ---- the search, with callbacks -------------------------------------------------------- */

/* The start: a product of float16 values, decreasing and exclusive, with a
 * broadcast input (dimension 0 stored once) and a padded output, all
 * values 2 but one 7 (its place `seven`, in every broadcast copy). */
static void start_candidate(runner_candidate *c, uint32_t seven_row, uint32_t seven_column)
{
    static const uint32_t sizes[3] = {3, 6, 5};
    memset(c, 0, sizeof(*c));
    c->desc = desc_of(3, sizes, (const uint32_t[]){0, 5, 1}, (const uint32_t[]){40, 6, 1});
    c->desc.op = DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    c->desc.input.data_type = c->desc.output.data_type = DMLCONF_DATA_TYPE_FLOAT16;
    c->desc.axis = 1;
    c->desc.direction = DMLCONF_AXIS_DIRECTION_DECREASING;
    c->desc.exclusive = true;
    ck_assert(runner_layout_of(&c->desc, &c->layout));
    c->count = 3 * 6 * 5;
    uint16_t *values = malloc(c->count * sizeof(*values));
    ck_assert_ptr_nonnull(values);
    for (uint64_t i = 0; i < c->count; ++i)
    {
        uint32_t row = (uint32_t)(i / 5 % 6), column = (uint32_t)(i % 5);
        values[i] = dmlconf_half_from_double(row == seven_row && column == seven_column ? 7.0 : 2.0);
    }
    c->values = values;
}

/* What the callbacks fail on. */
typedef enum failing_on
{
    FAIL_ON_SEVEN,          /* an input element that is 7, in any type */
    FAIL_ON_BROADCAST_EXCL, /* a broadcast input in an exclusive scan */
    FAIL_ALWAYS,            /* every candidate */
    FAIL_NEVER,             /* none (a flake) */
} failing_on;

typedef struct judge
{
    failing_on on;
    int calls;
    dmlconf_feature_level level; /* every candidate must be valid at it */
} judge;

static bool fails(void *context, const dmlconf_case *candidate, dmlconf_case_result *result)
{
    judge *j = context;
    j->calls++;
    memset(result, 0, sizeof(*result));
    const dmlconf_scan_desc *desc = &candidate->desc;
    dmlconf_validation validation;
    ck_assert_msg(dmlconf_validate(desc, j->level, &validation), "an invalid candidate: %s", validation.message);
    ck_assert_int_eq(candidate->input.kind, DMLCONF_CASE_DATA_INLINE);
    ck_assert_uint_eq(candidate->input.count, dmlconf_tensor_element_count(&desc->input));
    ck_assert_int_eq(candidate->expected.kind, DMLCONF_CASE_DATA_NONE);
    result->status = DMLCONF_STATUS_FAIL;
    switch (j->on)
    {
    case FAIL_ON_SEVEN:
    {
        unsigned char seven[8] = {0};
        ck_assert_int_eq(dmlconf_value_parse(desc->input.data_type, "7", false, seven, NULL, 0), DMLCONF_VALUE_OK);
        size_t size = dmlconf_value_size(desc->input.data_type);
        for (uint64_t i = 0; i < candidate->input.count; ++i)
        {
            if (memcmp((const unsigned char *)candidate->input.values + i * size, seven, size))
                continue;
            /* Where the comparator would see it first. */
            result->comparison.has_first = true;
            result->comparison.first.dimension_count = desc->input.dimension_count;
            uint64_t rest = i;
            for (uint32_t d = desc->input.dimension_count; d-- > 0;)
            {
                result->comparison.first.coordinates[d] = (uint32_t)(rest % desc->input.sizes[d]);
                rest /= desc->input.sizes[d];
            }
            return true;
        }
        return false;
    }
    case FAIL_ON_BROADCAST_EXCL:
        for (uint32_t d = 0; desc->input.has_strides && d < desc->input.dimension_count; ++d)
        {
            if (desc->input.sizes[d] > 1 && desc->input.strides[d] == 0)
                return desc->exclusive;
        }
        return false;
    case FAIL_ALWAYS:
        return true;
    case FAIL_NEVER:
        return false;
    }
    return false;
}

static runner_shrunk shrink(failing_on on, const dmlconf_case *model, dmlconf_feature_level level, int max_tries,
                            const runner_candidate *start, judge *j)
{
    memset(j, 0, sizeof(*j));
    j->on = on;
    j->level = level;
    runner_shrink_options options = {model, level, max_tries, 60.0, fails, j};
    runner_shrunk shrunk;
    ck_assert_int_eq(runner_shrink_case(&options, start, &shrunk), 0);
    ck_assert_int_le(shrunk.tries, max_tries);
    ck_assert_int_eq(shrunk.tries, j->calls);
    return shrunk;
}

static dmlconf_case plain_model(void)
{
    static char id[] = "t.shrink";
    dmlconf_case model;
    memset(&model, 0, sizeof(model));
    model.id = id;
    model.file = "t.yaml";
    return model;
}

START_TEST(test_shrinks_to_the_element)
{
    /* Only the 7 matters: one element of a packed int32 sum remains,
     * increasing and inclusive, whatever corner it sat in. */
    static const uint32_t places[][2] = {{0, 0}, {5, 4}, {2, 3}};
    for (size_t p = 0; p < sizeof(places) / sizeof(places[0]); ++p)
    {
        runner_candidate start;
        start_candidate(&start, places[p][0], places[p][1]);
        dmlconf_case model = plain_model();
        judge j;
        runner_shrunk shrunk = shrink(FAIL_ON_SEVEN, &model, DMLCONF_FEATURE_LEVEL_5_0, 1000, &start, &j);
        ck_assert(shrunk.reproduced);
        const dmlconf_scan_desc *desc = &shrunk.candidate.desc;
        ck_assert_uint_eq(shrunk.candidate.count, 1);
        ck_assert_uint_eq(desc->input.dimension_count, 1);
        ck_assert_int_eq(desc->input.data_type, DMLCONF_DATA_TYPE_INT32);
        ck_assert_int_eq(desc->op, DMLCONF_OPERATOR_CUMULATIVE_SUMMATION);
        ck_assert_int_eq(desc->direction, DMLCONF_AXIS_DIRECTION_INCREASING);
        ck_assert(!desc->exclusive);
        ck_assert(!desc->input.has_strides && !desc->output.has_strides && !desc->in_place);
        ck_assert_int_eq(*(const int32_t *)shrunk.candidate.values, 7);
        ck_assert(shrunk.result.comparison.has_first);
        runner_candidate_free(&shrunk.candidate);
        runner_candidate_free(&start);
    }
}
END_TEST

START_TEST(test_keeps_what_matters)
{
    /* A broadcast input in an exclusive scan: both stay, the rest goes
     * (two elements: a broadcast dimension of 2 and one position). */
    runner_candidate start;
    start_candidate(&start, 1, 1);
    dmlconf_case model = plain_model();
    judge j;
    runner_shrunk shrunk = shrink(FAIL_ON_BROADCAST_EXCL, &model, DMLCONF_FEATURE_LEVEL_5_0, 1000, &start, &j);
    ck_assert(shrunk.reproduced);
    const dmlconf_scan_desc *desc = &shrunk.candidate.desc;
    ck_assert(desc->exclusive);
    ck_assert(desc->input.has_strides);
    bool broadcast = false;
    for (uint32_t d = 0; d < desc->input.dimension_count; ++d)
        broadcast |= desc->input.sizes[d] > 1 && desc->input.strides[d] == 0;
    ck_assert(broadcast);
    ck_assert(!desc->output.has_strides);
    ck_assert_int_eq(desc->direction, DMLCONF_AXIS_DIRECTION_INCREASING);
    ck_assert_uint_eq(shrunk.candidate.count, 2);
    /* Elements that share storage stay equal: the values are the
     * operator's identity now (a sum of int32: 0). */
    for (uint64_t i = 0; i < shrunk.candidate.count; ++i)
        ck_assert_int_eq(((const int32_t *)shrunk.candidate.values)[i], 0);
    runner_candidate_free(&shrunk.candidate);
    runner_candidate_free(&start);
}
END_TEST

START_TEST(test_tolerance_keeps_the_type)
{
    /* A case judged with a tolerance of its own keeps its type and its
     * operator: the tolerance is theirs. */
    runner_candidate start;
    start_candidate(&start, 0, 0);
    dmlconf_case model = plain_model();
    model.tolerance.overrides.set[DMLCONF_TOLERANCE_FIELD_ULP] = true;
    model.tolerance.overrides.values.ulp = 4;
    judge j;
    runner_shrunk shrunk = shrink(FAIL_ALWAYS, &model, DMLCONF_FEATURE_LEVEL_5_0, 1000, &start, &j);
    ck_assert_int_eq(shrunk.candidate.desc.input.data_type, DMLCONF_DATA_TYPE_FLOAT16);
    ck_assert_int_eq(shrunk.candidate.desc.op, DMLCONF_OPERATOR_CUMULATIVE_PRODUCT);
    ck_assert_uint_eq(shrunk.candidate.count, 1);
    runner_candidate_free(&shrunk.candidate);
    runner_candidate_free(&start);
}
END_TEST

START_TEST(test_rank_four_below_4_0)
{
    /* Below feature level 4_0 only 4-D tensors exist: every candidate is
     * valid at 3_1 (the callback checks), and rank 4 stays. */
    static const uint32_t sizes[4] = {2, 1, 3, 4};
    runner_candidate start;
    memset(&start, 0, sizeof(start));
    start.desc = desc_of(4, sizes, NULL, NULL);
    start.desc.input.data_type = start.desc.output.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    start.desc.axis = 3;
    ck_assert(runner_layout_of(&start.desc, &start.layout));
    start.count = 24;
    start.values = calloc(24, 4);
    ck_assert_ptr_nonnull(start.values);
    dmlconf_case model = plain_model();
    judge j;
    runner_shrunk shrunk = shrink(FAIL_ALWAYS, &model, DMLCONF_FEATURE_LEVEL_3_1, 1000, &start, &j);
    ck_assert_uint_eq(shrunk.candidate.desc.input.dimension_count, 4);
    ck_assert_uint_eq(shrunk.candidate.count, 1);
    runner_candidate_free(&shrunk.candidate);
    runner_candidate_free(&start);
}
END_TEST

START_TEST(test_budget_and_flakes)
{
    runner_candidate start;
    start_candidate(&start, 2, 2);
    dmlconf_case model = plain_model();
    judge j;
    /* At most max_tries runs. */
    runner_shrunk shrunk = shrink(FAIL_ALWAYS, &model, DMLCONF_FEATURE_LEVEL_5_0, 5, &start, &j);
    ck_assert(shrunk.reproduced);
    ck_assert_int_eq(shrunk.tries, 5);
    runner_candidate_free(&shrunk.candidate);
    /* A failure that does not come back: one run, the start unchanged. */
    shrunk = shrink(FAIL_NEVER, &model, DMLCONF_FEATURE_LEVEL_5_0, 100, &start, &j);
    ck_assert(!shrunk.reproduced);
    ck_assert_int_eq(shrunk.tries, 1);
    ck_assert_uint_eq(shrunk.candidate.count, start.count);
    ck_assert(!memcmp(shrunk.candidate.values, start.values, start.count * 2));
    ck_assert(!memcmp(&shrunk.candidate.desc, &start.desc, sizeof(start.desc)));
    runner_candidate_free(&shrunk.candidate);
    runner_candidate_free(&start);
}
END_TEST

/* ---- the run's reproducers ----------------------------------------------------------- */

/* A backend wrong only for broadcast inputs: the last output element of
 * such a case has a bit flipped. */
static int broadcast_open(const dmlconf_backend_config *config, dmlconf_backend **out, char *why, size_t why_size);

static void broadcast_close(dmlconf_backend *backend)
{
    free(backend);
}

static void broadcast_info(dmlconf_backend *backend, dmlconf_backend_info *info)
{
    (void)backend;
    memset(info, 0, sizeof(*info));
    snprintf(info->backend, sizeof(info->backend), "broadcast-wrong");
    info->feature_level = DMLCONF_FEATURE_LEVEL_5_0;
    info->capabilities = dmlconf_capabilities_all(0xffffffffu);
}

static int broadcast_execute(dmlconf_backend *backend, dmlconf_job *jobs, size_t count)
{
    (void)backend;
    for (size_t i = 0; i < count; ++i)
    {
        dmlconf_job *job = &jobs[i];
        const dmlconf_scan_desc *desc = job->desc;
        job->device_seconds = -1.0;
        dmlconf_validation validation;
        if (!dmlconf_validate(desc, job->feature_level, &validation))
        {
            job->outcome = DMLCONF_JOB_REJECTED;
            job->reason = validation.reason;
            continue;
        }
        dmlconf_error err;
        ck_assert_int_eq(
            dmlconf_compute(desc, job->input, job->input_bytes, job->output, job->output_bytes, NULL, &err), 0);
        bool broadcast = false;
        for (uint32_t d = 0; desc->input.has_strides && d < desc->input.dimension_count; ++d)
            broadcast |= desc->input.sizes[d] > 1 && desc->input.strides[d] == 0;
        if (broadcast)
        {
            uint64_t last = 0;
            for (uint32_t d = 0; d < desc->output.dimension_count; ++d)
                last += (uint64_t)(desc->output.sizes[d] - 1) * dmlconf_tensor_stride(&desc->output, d);
            size_t element = dmlconf_data_type_bits(desc->output.data_type) / 8;
            ((unsigned char *)job->output)[last * element] ^= 1u;
        }
        job->outcome = DMLCONF_JOB_DONE;
    }
    return 0;
}

static const dmlconf_backend_ops broadcast_ops = {
    .name = "broadcast-wrong",
    .description = "wrong for broadcast inputs, for tests",
    .open = broadcast_open,
    .close = broadcast_close,
    .info = broadcast_info,
    .execute = broadcast_execute,
};

static int broadcast_open(const dmlconf_backend_config *config, dmlconf_backend **out, char *why, size_t why_size)
{
    (void)config;
    (void)why;
    (void)why_size;
    dmlconf_backend *b = calloc(1, sizeof(*b));
    ck_assert_ptr_nonnull(b);
    b->ops = &broadcast_ops;
    *out = b;
    return 0;
}

START_TEST(test_run_repro_keeps_its_layout)
{
    /* A failure that needs a broadcast input: the run's reproducer keeps
     * the broadcast (a packed copy would pass), is smaller than the case,
     * loads back, fails on the backend and passes on the oracle. */
    char source[2048] = "cases:\n"
                        "  - id: r.broadcast\n"
                        "    op: cumulative_summation\n"
                        "    dtype: float32\n"
                        "    sizes: [4, 6, 3]\n"
                        "    axis: 1\n"
                        "    direction: decreasing\n"
                        "    input_strides: [0, 3, 1]\n"
                        "    tolerance: {ulp: 3}\n"
                        "    input: [";
    /* Every row of dimension 0 is the one stored row. */
    for (int i = 0; i < 72; ++i)
    {
        size_t used = strlen(source);
        snprintf(source + used, sizeof(source) - used, "%s%d", i ? ", " : "", (i % 18) % 7 - 3);
    }
    strcat(source, "]\n");
    dmlconf_case_file file;
    ck_assert_uint_eq(dmlconf_case_file_load_buffer(&file, "r.yaml", source, strlen(source), NULL), 0);
    const dmlconf_case *c = &file.cases[0];
    char folder[] = "/tmp/dmlconf-shrink-XXXXXX", repros[64], why[256], path[256];
    ck_assert_ptr_nonnull(mkdtemp(folder));
    snprintf(repros, sizeof(repros), "%s/repros", folder);
    runner_config config = {.level = DMLCONF_FEATURE_LEVEL_5_0, .shrink = true, .repro_dir = repros};
    runner_backend backend = {0};
    ck_assert_int_eq(broadcast_ops.open(NULL, &backend.backend, why, sizeof(why)), 0);
    backend.backend->ops->info(backend.backend, &backend.info);
    dmlconf_case_result *result = malloc(sizeof(*result));
    ck_assert_ptr_nonnull(result);
    runner_execute(&backend, &config, &c, 1, result);
    ck_assert_int_eq(result->status, DMLCONF_STATUS_FAIL);
    void *input = runner_read_input(c, 0, why, sizeof(why));
    ck_assert_ptr_nonnull(input);
    ck_assert_msg(runner_shrink(&backend, &config, c, input, result->failure, path, sizeof(path), why, sizeof(why)) ==
                      0,
                  "%s", why);
    free(input);

    dmlconf_case_file repro;
    ck_assert_uint_eq(dmlconf_case_file_load(&repro, path, NULL), 0);
    ck_assert_uint_eq(repro.case_count, 1);
    const dmlconf_case *r = &repro.cases[0];
    ck_assert_str_eq(r->id, "r.broadcast.repro");
    ck_assert_uint_lt(dmlconf_case_element_count(r), dmlconf_case_element_count(c));
    ck_assert(r->desc.input.has_strides);
    ck_assert(r->tolerance.overrides.set[DMLCONF_TOLERANCE_FIELD_ULP]); /* judged as the case was */
    runner_execute(&backend, &config, &r, 1, result);
    ck_assert_int_eq(result->status, DMLCONF_STATUS_FAIL);
    runner_backend oracle = {0};
    ck_assert_int_eq(dmlconf_oracle_backend_ops.open(NULL, &oracle.backend, why, sizeof(why)), 0);
    oracle.backend->ops->info(oracle.backend, &oracle.info);
    runner_execute(&oracle, &config, &r, 1, result);
    ck_assert_int_eq(result->status, DMLCONF_STATUS_PASS);
    oracle.backend->ops->close(oracle.backend);
    backend.backend->ops->close(backend.backend);
    dmlconf_case_file_free(&repro);
    dmlconf_case_file_free(&file);
    free(result);
    remove(path);
    rmdir(repros);
    rmdir(folder);
}
END_TEST

static Suite *shrink_suite(void)
{
    Suite *suite = suite_create("shrink");
    TCase *tc = tcase_create("layouts");
    tcase_add_test(tc, test_layout_recipes);
    suite_add_tcase(suite, tc);
    tc = tcase_create("search");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_shrinks_to_the_element);
    tcase_add_test(tc, test_keeps_what_matters);
    tcase_add_test(tc, test_tolerance_keeps_the_type);
    tcase_add_test(tc, test_rank_four_below_4_0);
    tcase_add_test(tc, test_budget_and_flakes);
    suite_add_tcase(suite, tc);
    tc = tcase_create("repro");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_run_repro_keeps_its_layout);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(shrink_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
