/*
 * dmlconf_parse_u64: what it accepts, what it refuses, and the range.
 */
#include "test_helpers.h"

#include <dmlconf/integer_text.h>

#include <stdint.h>

typedef struct integer_example
{
    const char *text;
    uint64_t min, max;
    bool ok;
    uint64_t value;
} integer_example;

static const integer_example integer_examples[] = {
    {"0", 0, UINT64_MAX, true, 0},
    {"7", 0, UINT64_MAX, true, 7},
    {"010", 0, UINT64_MAX, true, 10}, /* never octal */
    {"18446744073709551615", 0, UINT64_MAX, true, UINT64_MAX},
    {"18446744073709551616", 0, UINT64_MAX, false, 0},
    {"99999999999999999999999", 0, UINT64_MAX, false, 0},
    {"0x10", 0, UINT64_MAX, true, 16},
    {"0XfF", 0, UINT64_MAX, true, 255},
    {"0xffffffffffffffff", 0, UINT64_MAX, true, UINT64_MAX},
    {"0x10000000000000000", 0, UINT64_MAX, false, 0},
    {"0x", 0, UINT64_MAX, false, 0},
    {"0xg", 0, UINT64_MAX, false, 0},
    {"ff", 0, UINT64_MAX, false, 0},
    {"", 0, UINT64_MAX, false, 0},
    {"-1", 0, UINT64_MAX, false, 0},
    {"+1", 0, UINT64_MAX, false, 0},
    {" 1", 0, UINT64_MAX, false, 0},
    {"1 ", 0, UINT64_MAX, false, 0},
    {"1.5", 0, UINT64_MAX, false, 0},
    {"1e3", 0, UINT64_MAX, false, 0},
    {"12abc", 0, UINT64_MAX, false, 0},
    {"1024", 0, 1024, true, 1024},
    {"1025", 0, 1024, false, 0},
    {"0", 1, 64, false, 0},
    {"1", 1, 64, true, 1},
    {"64", 1, 64, true, 64},
    {"65", 1, 64, false, 0},
    {"4294967295", 1, UINT32_MAX, true, UINT32_MAX},
    {"4294967296", 1, UINT32_MAX, false, 0},
};

START_TEST(test_parse_u64_examples)
{
    const integer_example *e = &integer_examples[_i];
    uint64_t value = UINT64_C(0xdeadbeef);
    bool ok = dmlconf_parse_u64(e->text, e->min, e->max, &value);
    ck_assert_msg(ok == e->ok, "\"%s\" in [%llu, %llu]: %s, expected %s", e->text, (unsigned long long)e->min,
                  (unsigned long long)e->max, ok ? "accepted" : "refused", e->ok ? "accepted" : "refused");
    /* A refusal leaves the value as it was. */
    ck_assert_uint_eq(value, e->ok ? e->value : UINT64_C(0xdeadbeef));
}
END_TEST

START_TEST(test_parse_u64_null)
{
    uint64_t value = 3;
    ck_assert(!dmlconf_parse_u64(NULL, 0, UINT64_MAX, &value));
    ck_assert_uint_eq(value, 3);
}
END_TEST

TCase *integer_text_tcase(void)
{
    TCase *tcase = tcase_create("integer_text");
    tcase_add_loop_test(tcase, test_parse_u64_examples, 0,
                        (int)(sizeof(integer_examples) / sizeof(integer_examples[0])));
    tcase_add_test(tcase, test_parse_u64_null);
    return tcase;
}
