/*
 * Tests of dmlconf_compare_runs over results made here: each category of
 * change (regression, fix, status change, added, removed, not run, changed
 * case, slower, faster), the noise rule at its edges, the corpus checks
 * and their refusal, scopes that differ, the answer and its exit status
 * for complete, incomplete and refused comparisons, and the three writers.
 */
#include <dmlconf/compare.h>

#include <check.h>
#include <jansson.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A run of `count` cases named case.00 ... case.NN, all passing, finished,
 * of one corpus. */
typedef struct run
{
    dmlconf_results_file file;
} run;

static dmlconf_case_result result(const char *id, dmlconf_status status)
{
    dmlconf_case_result r;
    memset(&r, 0, sizeof(r));
    snprintf(r.id, sizeof(r.id), "%s", id);
    r.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    r.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    r.dimension_count = 2;
    r.min_feature_level = DMLCONF_FEATURE_LEVEL_2_1;
    r.status = status;
    r.attempts = 1;
    r.backend_seconds = -1.0;
    r.wall_seconds = 0.001;
    r.comparison.elements = 12;
    if (dmlconf_status_is_failure(status))
    {
        r.failure = DMLCONF_FAILURE_VALUES;
        r.comparison.mismatches = 3;
        snprintf(r.message, sizeof(r.message), "3 of 12 elements outside tolerance");
    }
    return r;
}

static void run_init(run *r, size_t count)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->file.info.backend, sizeof(r->file.info.backend), "d3d12");
    snprintf(r->file.info.scope, sizeof(r->file.info.scope), "corpus");
    snprintf(r->file.info.corpus_digest, sizeof(r->file.info.corpus_digest), "0123456789abcdef");
    r->file.info.target_level = DMLCONF_FEATURE_LEVEL_5_0;
    r->file.info.shard_count = 1;
    r->file.info.corpus_cases = r->file.info.planned_cases = count;
    for (size_t i = 0; i < count; ++i)
    {
        char id[32];
        snprintf(id, sizeof(id), "case.%02zu", i);
        dmlconf_case_result c = result(id, DMLCONF_STATUS_PASS);
        ck_assert_int_eq(dmlconf_result_list_append(&r->file.results, &c), 0);
    }
    r->file.end.kind = DMLCONF_END_FINISHED;
    r->file.end.cases = count;
    r->file.end.elapsed_seconds = 1.0;
}

static dmlconf_case_result *at(run *r, size_t i)
{
    return &r->file.results.items[i];
}

static void compare(run *a, run *b, const dmlconf_compare_options *options, dmlconf_run_comparison *c)
{
    char why[256] = "";
    ck_assert_msg(dmlconf_compare_runs("old/results.jsonl", &a->file, "new/results.jsonl", &b->file, options, c, why,
                                       sizeof(why)) == 0,
                  "%s", why);
}

static const char *id_of(const dmlconf_run_comparison *c, dmlconf_change_kind kind, size_t i)
{
    const dmlconf_case_change *change = &c->changes[kind].items[i];
    return change->new_result ? change->new_result->id : change->old_result->id;
}

/* Every status change category at once, and the answer. */
START_TEST(test_changes)
{
    run a, b;
    dmlconf_run_comparison *c = calloc(1, sizeof(*c));

    ck_assert_ptr_nonnull(c);
    run_init(&a, 10);
    run_init(&b, 10);
    at(&b, 1)->status = DMLCONF_STATUS_FAIL; /* pass -> fail: a regression */
    at(&b, 1)->failure = DMLCONF_FAILURE_VALUES;
    at(&a, 2)->status = DMLCONF_STATUS_SKIP; /* skip -> crash: a regression */
    at(&b, 2)->status = DMLCONF_STATUS_CRASH;
    at(&b, 3)->status = DMLCONF_STATUS_EXPECTED_FAIL; /* pass -> a known failure: still a failure */
    at(&b, 3)->known_status = DMLCONF_STATUS_FAIL;
    at(&a, 4)->status = DMLCONF_STATUS_FAIL;  /* fail -> pass: a fix */
    at(&a, 5)->status = DMLCONF_STATUS_ERROR; /* error -> flake: a fix (a flake passed) */
    at(&b, 5)->status = DMLCONF_STATUS_FLAKE;
    at(&b, 6)->status = DMLCONF_STATUS_SKIP; /* pass -> skip: another change */
    at(&a, 7)->status = DMLCONF_STATUS_FAIL; /* fail -> timeout: another change */
    at(&b, 7)->status = DMLCONF_STATUS_TIMEOUT;
    at(&a, 8)->status = DMLCONF_STATUS_FAIL; /* values -> unwritten: another change */
    at(&a, 8)->failure = DMLCONF_FAILURE_VALUES;
    at(&b, 8)->status = DMLCONF_STATUS_FAIL;
    at(&b, 8)->failure = DMLCONF_FAILURE_UNWRITTEN;
    at(&a, 9)->status = DMLCONF_STATUS_FAIL; /* fail -> fail: nothing */
    at(&b, 9)->status = DMLCONF_STATUS_FAIL;
    compare(&a, &b, NULL, c);
    ck_assert_uint_eq(c->changes[DMLCONF_CHANGE_REGRESSION].count, 3);
    ck_assert_str_eq(id_of(c, DMLCONF_CHANGE_REGRESSION, 0), "case.01");
    ck_assert_str_eq(id_of(c, DMLCONF_CHANGE_REGRESSION, 1), "case.02");
    ck_assert_str_eq(id_of(c, DMLCONF_CHANGE_REGRESSION, 2), "case.03");
    ck_assert_uint_eq(c->changes[DMLCONF_CHANGE_FIX].count, 2);
    ck_assert_str_eq(id_of(c, DMLCONF_CHANGE_FIX, 0), "case.04");
    ck_assert_str_eq(id_of(c, DMLCONF_CHANGE_FIX, 1), "case.05");
    ck_assert_uint_eq(c->changes[DMLCONF_CHANGE_STATUS].count, 3);
    ck_assert_str_eq(id_of(c, DMLCONF_CHANGE_STATUS, 0), "case.06");
    ck_assert_str_eq(id_of(c, DMLCONF_CHANGE_STATUS, 2), "case.08");
    ck_assert_uint_eq(c->in_both, 10);
    ck_assert(!c->corpus_differs);
    ck_assert(!c->scope_differs);
    ck_assert_str_eq(c->answer_token, "regressions");
    ck_assert_int_eq(c->exit_status, 1);
    ck_assert_str_eq(c->answer, "3 regressions (2 fixes, 3 other status changes)");
    /* The regressions by cause: the values, the crash and the known
     * failure (its own status: a failure). */
    ck_assert_uint_eq(c->regression_cause_count, 2);
    ck_assert_uint_eq(c->regression_cause_counts[0], 2);
    /* The verdicts before and after, per level. */
    ck_assert_str_eq(c->old_run.verdict.text, "not conformant");
    ck_assert_str_eq(dmlconf_matrix_column_word(&c->new_run.matrix, 0), "no");
    dmlconf_run_comparison_free(c);

    /* Without the regressions: 0. */
    for (size_t i = 1; i <= 3; ++i)
        *at(&b, i) = *at(&a, i);
    compare(&a, &b, NULL, c);
    ck_assert_str_eq(c->answer_token, "no-regressions");
    ck_assert_int_eq(c->exit_status, 0);
    dmlconf_run_comparison_free(c);
    dmlconf_results_file_free(&a.file);
    dmlconf_results_file_free(&b.file);
    free(c);
}
END_TEST

/* The noise rule: both thresholds, at their edges, and only where both
 * runs measured the time. */
START_TEST(test_device_times)
{
    static const double times[][2] = {
        {100e-6, 150e-6}, /* 1.5x, 50 us: slower (both edges met) */
        {100e-6, 149e-6}, /* 1.49x: noise */
        {10e-6, 29e-6},   /* 2.9x, 19 us: noise */
        {10e-6, 30e-6},   /* 3x, 20 us: slower */
        {300e-6, 100e-6}, /* 3x, 200 us: faster */
        {-1.0, 5e-3},     /* OLD did not measure it */
        {0.0, 40e-6},     /* from nothing: slower */
    };
    const size_t n = sizeof(times) / sizeof(times[0]);
    run a, b;
    dmlconf_run_comparison *c = calloc(1, sizeof(*c));
    dmlconf_compare_options options;

    ck_assert_ptr_nonnull(c);
    run_init(&a, n);
    run_init(&b, n);
    for (size_t i = 0; i < n; ++i)
    {
        at(&a, i)->backend_seconds = times[i][0];
        at(&b, i)->backend_seconds = times[i][1];
    }
    compare(&a, &b, NULL, c);
    ck_assert_uint_eq(c->timed_in_both, n - 1);
    ck_assert_uint_eq(c->changes[DMLCONF_CHANGE_SLOWER].count, 3);
    /* The largest ratio first. */
    ck_assert_str_eq(id_of(c, DMLCONF_CHANGE_SLOWER, 0), "case.06");
    ck_assert_str_eq(id_of(c, DMLCONF_CHANGE_SLOWER, 1), "case.03");
    ck_assert_str_eq(id_of(c, DMLCONF_CHANGE_SLOWER, 2), "case.00");
    ck_assert_uint_eq(c->changes[DMLCONF_CHANGE_FASTER].count, 1);
    ck_assert_str_eq(id_of(c, DMLCONF_CHANGE_FASTER, 0), "case.04");
    ck_assert_int_eq(c->exit_status, 0); /* times never fail a comparison */
    dmlconf_run_comparison_free(c);

    dmlconf_compare_options_default(&options);
    options.time_ratio = 1.4;
    options.time_min_seconds = 0.0;
    compare(&a, &b, &options, c);
    ck_assert_uint_eq(c->changes[DMLCONF_CHANGE_SLOWER].count, 5);
    dmlconf_run_comparison_free(c);
    dmlconf_results_file_free(&a.file);
    dmlconf_results_file_free(&b.file);
    free(c);
}
END_TEST

/* Different corpora: refused with every difference said; allowed, the
 * cases added, removed and changed listed. */
START_TEST(test_corpus_differences)
{
    run a, b;
    dmlconf_run_comparison *c = calloc(1, sizeof(*c));
    dmlconf_compare_options options;
    dmlconf_case_result extra = result("case.extra", DMLCONF_STATUS_FAIL);

    ck_assert_ptr_nonnull(c);
    run_init(&a, 6);
    run_init(&b, 5);
    ck_assert_int_eq(dmlconf_result_list_append(&b.file.results, &extra), 0);
    ++b.file.info.planned_cases;
    ++b.file.info.corpus_cases;
    ++b.file.end.cases;
    snprintf(b.file.info.corpus_digest, sizeof(b.file.info.corpus_digest), "fedcba9876543210");
    at(&b, 2)->data_type = DMLCONF_DATA_TYPE_FLOAT16;
    at(&b, 3)->exclusive = true;
    compare(&a, &b, NULL, c);
    ck_assert(c->corpus_differs);
    ck_assert_str_eq(c->answer_token, "refused");
    ck_assert_int_eq(c->exit_status, 2);
    ck_assert_uint_eq(c->corpus_difference_count, 4);
    ck_assert_str_eq(c->corpus_differences[0], "the corpus digest is 0123456789abcdef in OLD, fedcba9876543210 in NEW");
    ck_assert_str_eq(c->corpus_differences[1], "1 case only in OLD: case.05");
    ck_assert_str_eq(c->corpus_differences[2], "1 case only in NEW: case.extra");
    ck_assert_str_eq(c->corpus_differences[3],
                     "2 cases in both but not the same case: case.02 (dtype FLOAT32, now FLOAT16), case.03 "
                     "(inclusive, increasing, now exclusive, increasing)");
    dmlconf_run_comparison_free(c);

    /* Allowed: compared, the differences still said; an added case that
     * fails is no regression. */
    dmlconf_compare_options_default(&options);
    options.allow_different_corpus = true;
    compare(&a, &b, &options, c);
    ck_assert_str_eq(c->answer_token, "no-regressions");
    ck_assert_uint_eq(c->changes[DMLCONF_CHANGE_ADDED].count, 1);
    ck_assert_uint_eq(c->changes[DMLCONF_CHANGE_REMOVED].count, 1);
    ck_assert_uint_eq(c->changes[DMLCONF_CHANGE_DEFINITION].count, 2);
    ck_assert_uint_eq(c->changes[DMLCONF_CHANGE_REGRESSION].count, 0);
    dmlconf_run_comparison_free(c);

    /* The same ids and shapes under another digest: the case files differ
     * in what the results do not record. */
    dmlconf_results_file_free(&b.file);
    run_init(&b, 6);
    snprintf(b.file.info.corpus_digest, sizeof(b.file.info.corpus_digest), "fedcba9876543210");
    compare(&a, &b, NULL, c);
    ck_assert_uint_eq(c->corpus_difference_count, 2);
    ck_assert_ptr_nonnull(strstr(c->corpus_differences[1], "the case files differ in what the results do not record"));
    dmlconf_run_comparison_free(c);

    /* Other shards of one corpus. */
    dmlconf_results_file_free(&b.file);
    run_init(&b, 6);
    b.file.info.shard_count = 2;
    compare(&a, &b, NULL, c);
    ck_assert(c->corpus_differs);
    ck_assert_str_eq(c->corpus_differences[0], "OLD is the whole run, NEW shard 0 of 2");
    dmlconf_run_comparison_free(c);
    dmlconf_results_file_free(&a.file);
    dmlconf_results_file_free(&b.file);
    free(c);
}
END_TEST

/* Unfinished runs make the comparison incomplete; the cases they did not
 * run are not taken for a corpus change. */
START_TEST(test_incomplete)
{
    run a, b;
    dmlconf_run_comparison *c = calloc(1, sizeof(*c));

    ck_assert_ptr_nonnull(c);
    run_init(&a, 6);
    run_init(&b, 6);
    b.file.results.count = 4; /* it died after four cases */
    b.file.end.kind = DMLCONF_END_NONE;
    at(&b, 0)->status = DMLCONF_STATUS_FAIL;
    compare(&a, &b, NULL, c);
    ck_assert(!c->corpus_differs);
    ck_assert_str_eq(c->answer_token, "incomplete");
    ck_assert_int_eq(c->exit_status, 2);
    ck_assert_uint_eq(c->changes[DMLCONF_CHANGE_NOT_RUN_NEW].count, 2);
    ck_assert_uint_eq(c->changes[DMLCONF_CHANGE_REMOVED].count, 0);
    ck_assert_uint_eq(c->changes[DMLCONF_CHANGE_REGRESSION].count, 1);
    ck_assert_str_eq(c->answer, "incomplete: NEW: it has no completion record (the run died, or is still running) (1 "
                                "regression among the cases both ran)");
    dmlconf_run_comparison_free(c);

    /* An interrupted OLD. */
    b.file.results.count = 6;
    b.file.end.kind = DMLCONF_END_FINISHED;
    a.file.end.kind = DMLCONF_END_INTERRUPTED;
    snprintf(a.file.end.reason, sizeof(a.file.end.reason), "SIGINT");
    compare(&a, &b, NULL, c);
    ck_assert_str_eq(c->answer_token, "incomplete");
    ck_assert_ptr_nonnull(strstr(c->answer, "OLD: it was interrupted by SIGINT"));
    dmlconf_run_comparison_free(c);

    /* Cases not judged for lack of resources: the run's verdict is
     * incomplete, and so is the comparison. */
    a.file.end.kind = DMLCONF_END_FINISHED;
    at(&b, 0)->status = DMLCONF_STATUS_NO_RESOURCES;
    compare(&a, &b, NULL, c);
    ck_assert_str_eq(c->answer_token, "incomplete");
    ck_assert_ptr_nonnull(strstr(c->answer, "NEW: its verdict is incomplete"));
    dmlconf_run_comparison_free(c);
    dmlconf_results_file_free(&a.file);
    dmlconf_results_file_free(&b.file);
    free(c);
}
END_TEST

/* Scopes and settings that differ are said, never refused. */
START_TEST(test_scopes)
{
    run a, b;
    dmlconf_run_comparison *c = calloc(1, sizeof(*c));

    ck_assert_ptr_nonnull(c);
    run_init(&a, 3);
    run_init(&b, 3);
    a.file.info.self_check = true;
    snprintf(a.file.info.backend, sizeof(a.file.info.backend), "oracle");
    ck_assert_int_eq(dmlconf_run_info_add_environment(&b.file.info, "DMLCONF_D3D12_FAULT", "drop-element"), 0);
    b.file.info.seed = 7;
    compare(&a, &b, NULL, c);
    ck_assert(c->scope_differs);
    ck_assert_str_eq(c->answer_token, "no-regressions");
    ck_assert_uint_eq(c->run_difference_count, 4);
    ck_assert_ptr_nonnull(strstr(c->run_differences[0], "the scope: OLD is the self-check"));
    ck_assert_str_eq(c->run_differences[1], "the backend: 'oracle' in OLD, 'd3d12' in NEW");
    ck_assert_str_eq(c->run_differences[2], "the seed: 0 in OLD, 7 in NEW (the generated inputs differ)");
    ck_assert_str_eq(c->run_differences[3], "the environment: DMLCONF_D3D12_FAULT=drop-element only in NEW");
    dmlconf_run_comparison_free(c);
    dmlconf_results_file_free(&a.file);
    dmlconf_results_file_free(&b.file);
    free(c);
}
END_TEST

/* Reads a stream written by a writer into a string. */
static char *written(int (*writer)(FILE *, const dmlconf_run_comparison *, char *, size_t),
                     const dmlconf_run_comparison *c)
{
    char *text = NULL;
    size_t size = 0;
    char why[128] = "";
    FILE *out = open_memstream(&text, &size);
    ck_assert_ptr_nonnull(out);
    ck_assert_msg(writer(out, c, why, sizeof(why)) == 0, "%s", why);
    fclose(out);
    return text;
}

/* The three writers say the same. */
START_TEST(test_writers)
{
    run a, b;
    dmlconf_run_comparison *c = calloc(1, sizeof(*c));
    json_error_t error;

    ck_assert_ptr_nonnull(c);
    run_init(&a, 300);
    run_init(&b, 300);
    for (size_t i = 0; i < 250; ++i)
    {
        at(&b, i)->status = DMLCONF_STATUS_FAIL;
        at(&b, i)->failure = DMLCONF_FAILURE_VALUES;
        at(&b, i)->comparison.pattern = DMLCONF_PATTERN_OTHER_MODE;
        at(&b, i)->exclusive = at(&a, i)->exclusive = true;
        snprintf(at(&b, i)->message, sizeof(at(&b, i)->message), "a <b>message</b> with | a pipe");
    }
    compare(&a, &b, NULL, c);
    char *json = written(dmlconf_write_comparison_json, c);
    char *md = written(dmlconf_write_comparison_markdown, c);
    char *html = written(dmlconf_write_comparison_html, c);
    json_t *root = json_loads(json, 0, &error);
    ck_assert_msg(root != NULL, "%s", error.text);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(root, "answer"), "token")), "regressions");
    ck_assert_uint_eq(json_array_size(json_object_get(root, "regressions")), 250);
    ck_assert_str_eq(json_string_value(json_object_get(
                         json_object_get(json_array_get(json_object_get(root, "regressions"), 0), "new"), "pattern")),
                     "other-mode");
    ck_assert_str_eq(
        json_string_value(json_object_get(json_array_get(json_object_get(root, "regression_causes"), 0), "title")),
        "exclusive scans return the inclusive result (the exclusive flag is ignored)");
    ck_assert_ptr_nonnull(strstr(md, "**Result: 250 regressions (0 fixes, 0 other status changes)** (exit status 1)"));
    ck_assert_ptr_nonnull(strstr(md, "| exclusive scans return the inclusive result (the exclusive flag is ignored) "
                                     "| 250 |"));
    ck_assert_ptr_nonnull(strstr(md, "| `case.00` | pass | fail (values, other-mode) | a \\<b\\>message\\</b\\> with "
                                     "\\| a pipe |"));
    ck_assert_ptr_nonnull(strstr(md, "and 50 more (comparison.json lists every one)."));
    ck_assert_ptr_nonnull(strstr(html, "id=\"answer\" data-answer=\"regressions\""));
    ck_assert_ptr_nonnull(strstr(html, "a &lt;b&gt;message&lt;/b&gt; with | a pipe"));
    ck_assert_ptr_null(strstr(html, "<script"));
    json_decref(root);
    free(json);
    free(md);
    free(html);
    dmlconf_run_comparison_free(c);
    dmlconf_results_file_free(&a.file);
    dmlconf_results_file_free(&b.file);
    free(c);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("compare");
    TCase *tc = tcase_create("compare");
    tcase_add_test(tc, test_changes);
    tcase_add_test(tc, test_device_times);
    tcase_add_test(tc, test_corpus_differences);
    tcase_add_test(tc, test_incomplete);
    tcase_add_test(tc, test_scopes);
    tcase_add_test(tc, test_writers);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
