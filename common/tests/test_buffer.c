/*
 * dmlconf_buffer: appends of every kind, NULs kept, hand-over, and the
 * failed state.
 */
#include "test_helpers.h"

#include <dmlconf/buffer.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_buffer_appends)
{
    dmlconf_buffer b = {0};
    ck_assert_ptr_null(b.data);
    dmlconf_buffer_puts(&b, "sum");
    dmlconf_buffer_append(&b, "\0x", 2);
    dmlconf_buffer_repeat(&b, '-', 3);
    dmlconf_buffer_printf(&b, "[%d,%s]", 42, "int32");
    dmlconf_buffer_append(&b, NULL, 0);
    ck_assert(!b.failed);
    ck_assert_uint_eq(b.length, 3 + 2 + 3 + 10);
    ck_assert_mem_eq(b.data, "sum\0x---[42,int32]", b.length + 1);
    ck_assert_uint_ge(b.capacity, b.length + 1);
    dmlconf_buffer_free(&b);
    ck_assert_ptr_null(b.data);
    ck_assert_uint_eq(b.length, 0);
    ck_assert_uint_eq(b.capacity, 0);
    dmlconf_buffer_free(NULL);
}
END_TEST

START_TEST(test_buffer_grows_past_many_pages)
{
    dmlconf_buffer b = {0};
    for (unsigned i = 0; i < 100000; ++i)
        dmlconf_buffer_printf(&b, "%u,", i % 10);
    ck_assert(!b.failed);
    ck_assert_uint_eq(b.length, 200000);
    char *expected = malloc(200001);
    ck_assert_ptr_nonnull(expected);
    for (size_t i = 0; i < 200000; i += 2)
    {
        expected[i] = (char)('0' + (i / 2) % 10);
        expected[i + 1] = ',';
    }
    expected[200000] = '\0';
    ck_assert(memcmp(b.data, expected, 200001) == 0);
    free(expected);
    /* A long formatted piece in one call. */
    dmlconf_buffer_printf(&b, "%5000s|", "x");
    ck_assert_uint_eq(b.length, 205001);
    ck_assert_int_eq(b.data[b.length - 2], 'x');
    dmlconf_buffer_free(&b);
}
END_TEST

START_TEST(test_buffer_take)
{
    dmlconf_buffer b = {0};
    char *empty = dmlconf_buffer_take(&b);
    ck_assert_ptr_nonnull(empty);
    ck_assert_str_eq(empty, "");
    free(empty);

    dmlconf_buffer_puts(&b, "axis 1");
    char *text = dmlconf_buffer_take(&b);
    ck_assert_str_eq(text, "axis 1");
    ck_assert_ptr_null(b.data);
    ck_assert_uint_eq(b.length, 0);
    free(text);
}
END_TEST

START_TEST(test_buffer_failed_stays_failed)
{
    dmlconf_buffer b = {0};
    dmlconf_buffer_puts(&b, "kept");
    /* A size that cannot be had: the buffer fails, keeps its text, and
     * every later append is a no-op. */
    dmlconf_buffer_repeat(&b, ' ', SIZE_MAX - 2);
    ck_assert(b.failed);
    ck_assert_uint_eq(b.length, 4);
    dmlconf_buffer_puts(&b, "more");
    dmlconf_buffer_printf(&b, "%d", 1);
    ck_assert_uint_eq(b.length, 4);
    ck_assert_str_eq(b.data, "kept");
    ck_assert_ptr_null(dmlconf_buffer_take(&b));
    ck_assert_ptr_null(b.data);
    ck_assert(!b.failed);
}
END_TEST

TCase *buffer_tcase(void)
{
    TCase *tcase = tcase_create("buffer");
    tcase_add_test(tcase, test_buffer_appends);
    tcase_add_test(tcase, test_buffer_grows_past_many_pages);
    tcase_add_test(tcase, test_buffer_take);
    tcase_add_test(tcase, test_buffer_failed_stays_failed);
    return tcase;
}
