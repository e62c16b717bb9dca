/*
 * dmlconf_set_why: whole sentences, visibly cut ones, and the buffers it
 * must leave alone.
 */
#include "test_helpers.h"

#include <dmlconf/why.h>

#include <string.h>

START_TEST(test_why_fits)
{
    char why[64];
    dmlconf_set_why(why, sizeof(why), "%s:%u:%u: %s", "sum.yaml", 3u, 7u, "axis 4 is out of range");
    ck_assert_str_eq(why, "sum.yaml:3:7: axis 4 is out of range");
    /* Exactly full: 15 characters and the NUL in 16 bytes, not cut. */
    char full[16];
    dmlconf_set_why(full, sizeof(full), "%s", "123456789012345");
    ck_assert_str_eq(full, "123456789012345");
}
END_TEST

START_TEST(test_why_cut_visibly)
{
    char why[16];
    dmlconf_set_why(why, sizeof(why), "cannot open %s", "/a/very/long/path/to/a/case/file.yaml");
    ck_assert_uint_eq(strlen(why), sizeof(why) - 1);
    ck_assert_str_eq(why, "cannot open ...");
    char one_more[16];
    dmlconf_set_why(one_more, sizeof(one_more), "%s", "1234567890123456");
    ck_assert_str_eq(one_more, "123456789012...");
    /* Too small to say "...": cut plainly, still terminated. */
    char tiny[4];
    dmlconf_set_why(tiny, sizeof(tiny), "%s", "abcdef");
    ck_assert_str_eq(tiny, "abc");
    char one[1];
    dmlconf_set_why(one, sizeof(one), "%s", "abcdef");
    ck_assert_int_eq(one[0], '\0');
}
END_TEST

START_TEST(test_why_leaves_no_buffer_alone)
{
    dmlconf_set_why(NULL, 0, "%s", "nothing");
    dmlconf_set_why(NULL, 16, "%s", "nothing");
    char untouched[8] = "keep";
    dmlconf_set_why(untouched, 0, "%s", "nothing");
    ck_assert_str_eq(untouched, "keep");
}
END_TEST

TCase *why_tcase(void)
{
    TCase *tcase = tcase_create("why");
    tcase_add_test(tcase, test_why_fits);
    tcase_add_test(tcase, test_why_cut_visibly);
    tcase_add_test(tcase, test_why_leaves_no_buffer_alone);
    return tcase;
}
