/*
 * dmlconf_reserve: growth, the elements kept, and the refusals.
 */
#include "test_helpers.h"

#include <dmlconf/reserve.h>

#include <stdint.h>
#include <stdlib.h>

START_TEST(test_reserve_grows_and_keeps)
{
    uint64_t *items = NULL;
    size_t capacity = 0;
    for (size_t count = 0; count < 1000; ++count)
    {
        ck_assert(dmlconf_reserve((void **)&items, &capacity, count + 1, sizeof(*items)));
        ck_assert_uint_ge(capacity, count + 1);
        items[count] = UINT64_C(0x9e3779b97f4a7c15) * count;
    }
    for (size_t i = 0; i < 1000; ++i)
        ck_assert_uint_eq(items[i], UINT64_C(0x9e3779b97f4a7c15) * i);
    /* Doubling: far fewer than 1000 sizes, and never more than twice what
     * was asked for past the first allocation. */
    ck_assert_uint_le(capacity, 2000);
    free(items);
}
END_TEST

START_TEST(test_reserve_first_and_large_steps)
{
    char *bytes = NULL;
    size_t capacity = 0;
    ck_assert(dmlconf_reserve((void **)&bytes, &capacity, 1, 1));
    ck_assert_uint_eq(capacity, 8);
    /* A request past twice the capacity is met exactly. */
    ck_assert(dmlconf_reserve((void **)&bytes, &capacity, 100, 1));
    ck_assert_uint_eq(capacity, 100);
    ck_assert(dmlconf_reserve((void **)&bytes, &capacity, 101, 1));
    ck_assert_uint_eq(capacity, 200);
    /* Enough room already: nothing moves. */
    char *before = bytes;
    ck_assert(dmlconf_reserve((void **)&bytes, &capacity, 150, 1));
    ck_assert_ptr_eq(bytes, before);
    ck_assert_uint_eq(capacity, 200);
    ck_assert(dmlconf_reserve((void **)&bytes, &capacity, 0, 1));
    ck_assert_uint_eq(capacity, 200);
    free(bytes);
}
END_TEST

START_TEST(test_reserve_refuses_overflow)
{
    uint32_t *items = NULL;
    size_t capacity = 0;
    ck_assert(!dmlconf_reserve((void **)&items, &capacity, SIZE_MAX / sizeof(*items) + 1, sizeof(*items)));
    ck_assert_ptr_null(items);
    ck_assert_uint_eq(capacity, 0);
    ck_assert(!dmlconf_reserve((void **)&items, &capacity, 1, 0));
    ck_assert(dmlconf_reserve((void **)&items, &capacity, 3, sizeof(*items)));
    items[0] = 7;
    uint32_t *kept = items;
    size_t kept_capacity = capacity;
    ck_assert(!dmlconf_reserve((void **)&items, &capacity, SIZE_MAX / 2, sizeof(*items)));
    ck_assert_ptr_eq(items, kept);
    ck_assert_uint_eq(capacity, kept_capacity);
    ck_assert_uint_eq(items[0], 7);
    free(items);
}
END_TEST

TCase *reserve_tcase(void)
{
    TCase *tcase = tcase_create("reserve");
    tcase_add_test(tcase, test_reserve_grows_and_keeps);
    tcase_add_test(tcase, test_reserve_first_and_large_steps);
    tcase_add_test(tcase, test_reserve_refuses_overflow);
    return tcase;
}
