/*
 * Tests of the result statuses' names and classes (status.c).
 */
#include <check.h>
#include <dmlconf/result.h>

#include <stdlib.h>

START_TEST(test_status_names)
{
    for (int s = 0; s < DMLCONF_STATUS_COUNT; ++s)
    {
        const char *name = dmlconf_status_name((dmlconf_status)s);
        ck_assert_ptr_nonnull(name);
        dmlconf_status back;
        ck_assert(dmlconf_status_from_name(name, &back));
        ck_assert_int_eq(back, s);
    }
    ck_assert_str_eq(dmlconf_status_name(DMLCONF_STATUS_EXPECTED_FAIL), "expected-fail");
    ck_assert_ptr_null(dmlconf_status_name(DMLCONF_STATUS_COUNT));
    dmlconf_status s;
    ck_assert(dmlconf_status_from_name("UNEXPECTED-PASS", &s) && s == DMLCONF_STATUS_UNEXPECTED_PASS);
    ck_assert(!dmlconf_status_from_name("passed", &s));
    ck_assert(!dmlconf_status_from_name(NULL, &s));
    ck_assert(dmlconf_status_is_failure(DMLCONF_STATUS_FAIL));
    ck_assert(dmlconf_status_is_failure(DMLCONF_STATUS_UNEXPECTED_PASS));
    ck_assert(dmlconf_status_is_failure(DMLCONF_STATUS_CRASH));
    ck_assert(!dmlconf_status_is_failure(DMLCONF_STATUS_EXPECTED_FAIL));
    ck_assert(!dmlconf_status_is_failure(DMLCONF_STATUS_FLAKE));
    ck_assert(!dmlconf_status_is_failure(DMLCONF_STATUS_SKIP));
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("status");
    TCase *tc = tcase_create("names");
    tcase_add_test(tc, test_status_names);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
