/*
 * The eight examples of the DirectML reference pages (four for
 * CUMULATIVE_SUMMATION, four for CUMULATIVE_PRODUCT), value by value through
 * dmlconf_compute. The pages print FLOAT32 tensors; the same numbers are
 * exact in every computable type, so each example also runs as FLOAT16,
 * INT32, UINT32, INT64 and UINT64.
 */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

/* The pages' shared input, Sizes {1,1,3,4}. */
static const double doc_input[12] = {
    2, 1, 3, 5, /* */
    3, 8, 7, 3, /* */
    9, 6, 2, 4,
};

/* Outputs as the pages print them. */
static const struct
{
    const char *name;
    dmlconf_operator op;
    uint32_t axis;
    dmlconf_axis_direction direction;
    bool exclusive;
    double output[12];
} examples[] = {
    {"summation example 1: axis 3",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     3,
     DMLCONF_AXIS_DIRECTION_INCREASING,
     false,
     {2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21}},
    {"summation example 2: exclusive sums",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     3,
     DMLCONF_AXIS_DIRECTION_INCREASING,
     true,
     {0, 2, 3, 6, 0, 3, 11, 18, 0, 9, 15, 17}},
    {"summation example 3: axis direction",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     3,
     DMLCONF_AXIS_DIRECTION_DECREASING,
     false,
     {11, 9, 8, 5, 21, 18, 10, 3, 21, 12, 6, 4}},
    {"summation example 4: axis 2",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION,
     2,
     DMLCONF_AXIS_DIRECTION_INCREASING,
     false,
     {2, 1, 3, 5, 5, 9, 10, 8, 14, 15, 12, 12}},
    {"product example 1: axis 3",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     3,
     DMLCONF_AXIS_DIRECTION_INCREASING,
     false,
     {2, 2, 6, 30, 3, 24, 168, 504, 9, 54, 108, 432}},
    {"product example 2: exclusive products",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     3,
     DMLCONF_AXIS_DIRECTION_INCREASING,
     true,
     {1, 2, 2, 6, 1, 3, 24, 168, 1, 9, 54, 108}},
    {"product example 3: axis direction",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     3,
     DMLCONF_AXIS_DIRECTION_DECREASING,
     false,
     {30, 15, 15, 5, 504, 168, 21, 3, 432, 48, 8, 4}},
    {"product example 4: axis 2",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT,
     2,
     DMLCONF_AXIS_DIRECTION_INCREASING,
     false,
     {2, 1, 3, 5, 6, 8, 21, 15, 54, 48, 42, 60}},
};

static const dmlconf_data_type types[] = {
    DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_FLOAT16, DMLCONF_DATA_TYPE_INT32,
    DMLCONF_DATA_TYPE_UINT32,  DMLCONF_DATA_TYPE_INT64,   DMLCONF_DATA_TYPE_UINT64,
};

/* The printed outputs agree with the pages' own explanations: each is the
 * running sum or product of the input along the axis. Checking that here
 * guards the table above against typing slips. */
START_TEST(printed_outputs_are_running_tallies)
{
    bool product = examples[_i].op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    for (int row = 0; row < 3; ++row)
    {
        for (int column = 0; column < 4; ++column)
        {
            const bool along_rows = examples[_i].axis == 2;
            const int length = along_rows ? 3 : 4, position = along_rows ? row : column;
            double tally = product ? 1 : 0;
            for (int k = 0; k < length; ++k)
            {
                /* Element k of this element's line along the axis. */
                int r = along_rows ? k : row, c = along_rows ? column : k;
                bool before = examples[_i].direction == DMLCONF_AXIS_DIRECTION_INCREASING ? k < position : k > position;
                if (before || (k == position && !examples[_i].exclusive))
                    tally = product ? tally * doc_input[r * 4 + c] : tally + doc_input[r * 4 + c];
            }
            ck_assert_msg(tally == examples[_i].output[row * 4 + column], "%s: [%d][%d] printed %g, tally %g",
                          examples[_i].name, row, column, examples[_i].output[row * 4 + column], tally);
        }
    }
}
END_TEST

/* One iteration per (example, type). */
START_TEST(example_through_compute)
{
    const int e = _i / (int)COUNT_OF(types);
    const dmlconf_data_type type = types[_i % (int)COUNT_OF(types)];
    const uint32_t sizes[] = {1, 1, 3, 4};
    const size_t bytes = 12 * test_element_bytes(type);

    dmlconf_scan_desc desc =
        test_scan_desc(examples[e].op, type, 4, sizes, examples[e].axis, examples[e].direction, examples[e].exclusive);
    unsigned char input[96], output[96], before[96];
    for (int i = 0; i < 12; ++i)
        test_store_value(type, input, (uint64_t)i, doc_input[i]);
    memcpy(before, input, bytes);
    memset(output, 0xa5, sizeof(output));

    dmlconf_error err;
    memset(&err, 0, sizeof(err));
    int rc = dmlconf_compute(&desc, input, bytes, output, bytes, NULL, &err);
    ck_assert_msg(rc == 0, "%s (%s): dmlconf_compute failed: %s", examples[e].name, dmlconf_data_type_name(type),
                  err.message);
    ck_assert_msg(!memcmp(input, before, bytes), "%s (%s): the input changed", examples[e].name,
                  dmlconf_data_type_name(type));
    for (int i = 0; i < 12; ++i)
    {
        uint64_t got = test_load_bits(type, output, (uint64_t)i);
        uint64_t expected = test_value_bits(type, examples[e].output[i]);
        char got_text[64], expected_text[64];
        ck_assert_msg(got == expected, "%s (%s): element [0][0][%d][%d] is %s, the page says %s", examples[e].name,
                      dmlconf_data_type_name(type), i / 4, i % 4, test_format_bits(type, got, got_text, 64),
                      test_format_bits(type, expected, expected_text, 64));
    }
    /* Nothing written past the tensor. */
    for (size_t i = bytes; i < sizeof(output); ++i)
        ck_assert_msg(output[i] == 0xa5, "%s (%s): byte %zu past the output changed", examples[e].name,
                      dmlconf_data_type_name(type), i);

    /* The example is valid from the operator's first level (5_0 for the
     * 64-bit types), as the pages' tables say. */
    dmlconf_feature_level expected_level =
        (type == DMLCONF_DATA_TYPE_INT64 || type == DMLCONF_DATA_TYPE_UINT64) ? DMLCONF_FEATURE_LEVEL_5_0
        : examples[e].op == DMLCONF_OPERATOR_CUMULATIVE_SUMMATION             ? DMLCONF_FEATURE_LEVEL_2_1
                                                                              : DMLCONF_FEATURE_LEVEL_3_1;
    ck_assert_uint_eq(dmlconf_min_feature_level(&desc, NULL), expected_level);
}
END_TEST

/* The same examples in place: the output buffer is the input buffer. */
START_TEST(example_in_place)
{
    const int e = _i / (int)COUNT_OF(types);
    const dmlconf_data_type type = types[_i % (int)COUNT_OF(types)];
    const uint32_t sizes[] = {1, 1, 3, 4};
    const size_t bytes = 12 * test_element_bytes(type);

    dmlconf_scan_desc desc =
        test_scan_desc(examples[e].op, type, 4, sizes, examples[e].axis, examples[e].direction, examples[e].exclusive);
    desc.in_place = true;
    unsigned char buffer[96];
    for (int i = 0; i < 12; ++i)
        test_store_value(type, buffer, (uint64_t)i, doc_input[i]);
    dmlconf_error err;
    memset(&err, 0, sizeof(err));
    ck_assert_msg(dmlconf_compute(&desc, buffer, bytes, buffer, bytes, NULL, &err) == 0, "%s (%s): %s",
                  examples[e].name, dmlconf_data_type_name(type), err.message);
    for (int i = 0; i < 12; ++i)
    {
        uint64_t got = test_load_bits(type, buffer, (uint64_t)i);
        uint64_t expected = test_value_bits(type, examples[e].output[i]);
        char got_text[64], expected_text[64];
        ck_assert_msg(got == expected, "%s (%s, in place): element %d is %s, the page says %s", examples[e].name,
                      dmlconf_data_type_name(type), i, test_format_bits(type, got, got_text, 64),
                      test_format_bits(type, expected, expected_text, 64));
    }
}
END_TEST

static Suite *doc_examples_suite(void)
{
    Suite *suite = suite_create("doc_examples");

    TCase *tc = tcase_create("printed_tables");
    tcase_add_loop_test(tc, printed_outputs_are_running_tallies, 0, (int)COUNT_OF(examples));
    suite_add_tcase(suite, tc);

    tc = tcase_create("compute");
    tcase_add_loop_test(tc, example_through_compute, 0, (int)(COUNT_OF(examples) * COUNT_OF(types)));
    suite_add_tcase(suite, tc);

    tc = tcase_create("in_place");
    tcase_add_loop_test(tc, example_in_place, 0, (int)(COUNT_OF(examples) * COUNT_OF(types)));
    suite_add_tcase(suite, tc);

    return suite;
}

int main(void)
{
    return test_run_suite(doc_examples_suite());
}
