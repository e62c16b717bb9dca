/*
 * Names of the oracle's enums: data types, operators, feature levels and
 * validation reasons. Every name round-trips, parsing ignores case where the
 * header says so, and unknown names and values are rejected.
 */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

/* ASCII lower / mixed case copies of a name, for the case-insensitive parsers. */
static void to_lower(const char *name, char *buffer, size_t size)
{
    size_t i = 0;
    for (; name[i] && i + 1 < size; ++i)
        buffer[i] = (name[i] >= 'A' && name[i] <= 'Z') ? (char)(name[i] - 'A' + 'a') : name[i];
    buffer[i] = '\0';
}

static void to_alternating_case(const char *name, char *buffer, size_t size)
{
    size_t i = 0;
    for (; name[i] && i + 1 < size; ++i)
    {
        char c = name[i];
        if (i % 2 == 0 && c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        else if (i % 2 == 1 && c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        buffer[i] = c;
    }
    buffer[i] = '\0';
}

/* ---- data types ----------------------------------------------------------- */

static const struct
{
    dmlconf_data_type type;
    const char *name;
    const char *lower_name;
    unsigned bits;
    bool computable;
    bool is_float;
} data_types[] = {
    {DMLCONF_DATA_TYPE_UNKNOWN, "UNKNOWN", "unknown", 0, false, false},
    {DMLCONF_DATA_TYPE_FLOAT32, "FLOAT32", "float32", 32, true, true},
    {DMLCONF_DATA_TYPE_FLOAT16, "FLOAT16", "float16", 16, true, true},
    {DMLCONF_DATA_TYPE_UINT32, "UINT32", "uint32", 32, true, false},
    {DMLCONF_DATA_TYPE_UINT16, "UINT16", "uint16", 16, false, false},
    {DMLCONF_DATA_TYPE_UINT8, "UINT8", "uint8", 8, false, false},
    {DMLCONF_DATA_TYPE_INT32, "INT32", "int32", 32, true, false},
    {DMLCONF_DATA_TYPE_INT16, "INT16", "int16", 16, false, false},
    {DMLCONF_DATA_TYPE_INT8, "INT8", "int8", 8, false, false},
    {DMLCONF_DATA_TYPE_FLOAT64, "FLOAT64", "float64", 64, false, true},
    {DMLCONF_DATA_TYPE_UINT64, "UINT64", "uint64", 64, true, false},
    {DMLCONF_DATA_TYPE_INT64, "INT64", "int64", 64, true, false},
    {DMLCONF_DATA_TYPE_UINT4, "UINT4", "uint4", 4, false, false},
    {DMLCONF_DATA_TYPE_INT4, "INT4", "int4", 4, false, false},
};

START_TEST(data_type_round_trip)
{
    const char *name = data_types[_i].name;
    dmlconf_data_type type = data_types[_i].type;

    ck_assert_int_eq((int)type, _i); /* the table covers every enum value in order */
    ck_assert_ptr_nonnull(dmlconf_data_type_name(type));
    ck_assert_str_eq(dmlconf_data_type_name(type), name);
    ck_assert_str_eq(dmlconf_data_type_lower_name(type), data_types[_i].lower_name);
    ck_assert_uint_eq(dmlconf_data_type_bits(type), data_types[_i].bits);
    ck_assert_int_eq(dmlconf_data_type_is_computable(type), data_types[_i].computable);
    ck_assert_int_eq(dmlconf_data_type_is_float(type), data_types[_i].is_float);

    const char *lower = data_types[_i].lower_name;
    char mixed[64], prefixed[96];
    to_alternating_case(lower, mixed, sizeof(mixed));
    snprintf(prefixed, sizeof(prefixed), "DML_TENSOR_DATA_TYPE_%s", name);
    const char *spellings[] = {name, lower, mixed, prefixed};
    for (size_t s = 0; s < COUNT_OF(spellings); ++s)
    {
        dmlconf_data_type parsed = (dmlconf_data_type)-1;
        ck_assert_msg(dmlconf_data_type_from_name(spellings[s], &parsed), "'%s' does not parse", spellings[s]);
        ck_assert_msg(parsed == type, "'%s' parses as %d, expected %d", spellings[s], (int)parsed, (int)type);
    }
}
END_TEST

START_TEST(data_type_rejects)
{
    static const char *const bad[] = {
        "",        "FLOAT",   "FLOAT3",  "FLOAT320", " FLOAT32", "FLOAT32 ", "FLOAT_32",    "F32",
        "INT",     "UINT",    "BOOL",    "BFLOAT16", "1",        "6",        "DML_TENSOR_", "DML_TENSOR_DATA_TYPE_",
        "UINT32x", "xUINT32", "INT64\n", "UNKNOWN1",
    };
    for (size_t i = 0; i < COUNT_OF(bad); ++i)
    {
        dmlconf_data_type type = DMLCONF_DATA_TYPE_INT8;
        ck_assert_msg(!dmlconf_data_type_from_name(bad[i], &type), "'%s' should not parse", bad[i]);
        ck_assert_msg(type == DMLCONF_DATA_TYPE_INT8, "'%s' changed the output on failure", bad[i]);
    }
    dmlconf_data_type type = DMLCONF_DATA_TYPE_INT8;
    ck_assert(!dmlconf_data_type_from_name(NULL, &type));
    ck_assert_int_eq(type, DMLCONF_DATA_TYPE_INT8);

    const int out_of_range[] = {-1, 14, 15, 100, 0x7fffffff};
    for (size_t i = 0; i < COUNT_OF(out_of_range); ++i)
    {
        dmlconf_data_type value = (dmlconf_data_type)out_of_range[i];
        ck_assert_msg(dmlconf_data_type_name(value) == NULL, "value %d has a name", out_of_range[i]);
        ck_assert_str_eq(dmlconf_data_type_lower_name(value), "unknown");
        ck_assert_uint_eq(dmlconf_data_type_bits(value), 0);
        ck_assert(!dmlconf_data_type_is_computable(value));
        ck_assert(!dmlconf_data_type_is_float(value));
    }
}
END_TEST

/* ---- operators ------------------------------------------------------------ */

START_TEST(operator_round_trip)
{
    static const struct
    {
        dmlconf_operator op;
        const char *name;
        const char *dml_name;
    } ops[] = {
        {DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, "cumulative_summation", "DML_OPERATOR_CUMULATIVE_SUMMATION"},
        {DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, "cumulative_product", "DML_OPERATOR_CUMULATIVE_PRODUCT"},
    };
    ck_assert_int_eq(DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, 105);
    ck_assert_int_eq(DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, 145);
    for (size_t i = 0; i < COUNT_OF(ops); ++i)
    {
        ck_assert_ptr_nonnull(dmlconf_operator_name(ops[i].op));
        ck_assert_str_eq(dmlconf_operator_name(ops[i].op), ops[i].name);

        char upper[64], mixed[64], lower_dml[64];
        size_t j = 0;
        for (; ops[i].name[j]; ++j)
            upper[j] =
                (char)(ops[i].name[j] >= 'a' && ops[i].name[j] <= 'z' ? ops[i].name[j] - 'a' + 'A' : ops[i].name[j]);
        upper[j] = '\0';
        to_alternating_case(ops[i].name, mixed, sizeof(mixed));
        to_lower(ops[i].dml_name, lower_dml, sizeof(lower_dml));
        const char *spellings[] = {ops[i].name, upper, mixed, ops[i].dml_name, lower_dml};
        for (size_t s = 0; s < COUNT_OF(spellings); ++s)
        {
            dmlconf_operator parsed = (dmlconf_operator)0;
            ck_assert_msg(dmlconf_operator_from_name(spellings[s], &parsed), "'%s' does not parse", spellings[s]);
            ck_assert_msg(parsed == ops[i].op, "'%s' parses as %d", spellings[s], (int)parsed);
        }
    }
}
END_TEST

START_TEST(operator_rejects)
{
    static const char *const bad[] = {
        "",
        "cumulative",
        "cumulative_sum",
        "cumsum",
        "cumprod",
        "summation",
        "product",
        "cumulative_summation ",
        "cumulative_productx",
        "DML_OPERATOR_",
        "DML_OPERATOR_CUMULATIVE",
        "105",
        "145",
        "cumulative-summation",
    };
    for (size_t i = 0; i < COUNT_OF(bad); ++i)
    {
        dmlconf_operator op = (dmlconf_operator)7;
        ck_assert_msg(!dmlconf_operator_from_name(bad[i], &op), "'%s' should not parse", bad[i]);
        ck_assert_msg((int)op == 7, "'%s' changed the output on failure", bad[i]);
    }
    dmlconf_operator op = (dmlconf_operator)7;
    ck_assert(!dmlconf_operator_from_name(NULL, &op));
    ck_assert_int_eq((int)op, 7);

    const int values[] = {0, 1, 104, 106, 144, 146, -105};
    for (size_t i = 0; i < COUNT_OF(values); ++i)
        ck_assert_msg(dmlconf_operator_name((dmlconf_operator)values[i]) == NULL, "operator %d has a name", values[i]);
}
END_TEST

/* ---- feature levels ------------------------------------------------------- */

static const struct
{
    dmlconf_feature_level level;
    unsigned value;
    const char *name;
} feature_levels[] = {
    {DMLCONF_FEATURE_LEVEL_1_0, 0x1000, "1_0"}, {DMLCONF_FEATURE_LEVEL_2_0, 0x2000, "2_0"},
    {DMLCONF_FEATURE_LEVEL_2_1, 0x2100, "2_1"}, {DMLCONF_FEATURE_LEVEL_3_0, 0x3000, "3_0"},
    {DMLCONF_FEATURE_LEVEL_3_1, 0x3100, "3_1"}, {DMLCONF_FEATURE_LEVEL_4_0, 0x4000, "4_0"},
    {DMLCONF_FEATURE_LEVEL_4_1, 0x4100, "4_1"}, {DMLCONF_FEATURE_LEVEL_5_0, 0x5000, "5_0"},
    {DMLCONF_FEATURE_LEVEL_5_1, 0x5100, "5_1"}, {DMLCONF_FEATURE_LEVEL_5_2, 0x5200, "5_2"},
    {DMLCONF_FEATURE_LEVEL_6_0, 0x6000, "6_0"}, {DMLCONF_FEATURE_LEVEL_6_1, 0x6100, "6_1"},
    {DMLCONF_FEATURE_LEVEL_6_2, 0x6200, "6_2"}, {DMLCONF_FEATURE_LEVEL_6_3, 0x6300, "6_3"},
    {DMLCONF_FEATURE_LEVEL_6_4, 0x6400, "6_4"},
};

START_TEST(feature_level_round_trip)
{
    dmlconf_feature_level level = feature_levels[_i].level;
    const char *name = feature_levels[_i].name;

    ck_assert_uint_eq((unsigned)level, feature_levels[_i].value);
    ck_assert_ptr_nonnull(dmlconf_feature_level_name(level));
    ck_assert_str_eq(dmlconf_feature_level_name(level), name);

    char dotted[8], prefixed[64];
    snprintf(dotted, sizeof(dotted), "%c.%c", name[0], name[2]);
    snprintf(prefixed, sizeof(prefixed), "DML_FEATURE_LEVEL_%s", name);
    const char *spellings[] = {name, dotted, prefixed};
    for (size_t s = 0; s < COUNT_OF(spellings); ++s)
    {
        dmlconf_feature_level parsed = DMLCONF_FEATURE_LEVEL_NONE;
        ck_assert_msg(dmlconf_feature_level_from_name(spellings[s], &parsed), "'%s' does not parse", spellings[s]);
        ck_assert_msg(parsed == level, "'%s' parses as 0x%x", spellings[s], (unsigned)parsed);
    }
}
END_TEST

START_TEST(feature_level_list)
{
    size_t count = 0;
    const dmlconf_feature_level *levels = dmlconf_feature_levels(&count);
    ck_assert_ptr_nonnull(levels);
    ck_assert_uint_eq(count, COUNT_OF(feature_levels));
    for (size_t i = 0; i < count; ++i)
    {
        ck_assert_msg(levels[i] == feature_levels[i].level, "level %zu is 0x%x, expected 0x%x", i, (unsigned)levels[i],
                      feature_levels[i].value);
        if (i > 0)
            ck_assert_msg(levels[i - 1] < levels[i], "levels not ascending at %zu", i);
    }
    /* The count pointer may be NULL. */
    ck_assert_ptr_eq(dmlconf_feature_levels(NULL), levels);
}
END_TEST

START_TEST(feature_level_rejects)
{
    static const char *const bad[] = {
        "",
        "5",
        "5_",
        "50",
        "5-0",
        "5 0",
        "5_00",
        "05_0",
        "1_1",
        "2_2",
        "3_2",
        "4_2",
        "5_3",
        "6_5",
        "7_0",
        "0_0",
        "0_9",
        "a_b",
        "5,0",
        " 5_0",
        "5_0 ",
        "DML_FEATURE_LEVEL_",
        "DML_FEATURE_LEVEL_7_0",
        "FEATURE_LEVEL_5_0",
        "NONE",
    };
    for (size_t i = 0; i < COUNT_OF(bad); ++i)
    {
        dmlconf_feature_level level = DMLCONF_FEATURE_LEVEL_3_0;
        ck_assert_msg(!dmlconf_feature_level_from_name(bad[i], &level), "'%s' should not parse", bad[i]);
        ck_assert_msg(level == DMLCONF_FEATURE_LEVEL_3_0, "'%s' changed the output on failure", bad[i]);
    }
    dmlconf_feature_level level = DMLCONF_FEATURE_LEVEL_3_0;
    ck_assert(!dmlconf_feature_level_from_name(NULL, &level));
    ck_assert_uint_eq(level, DMLCONF_FEATURE_LEVEL_3_0);

    const unsigned values[] = {0, 0x1001, 0x1100, 0x2200, 0x3200, 0x4200, 0x5300, 0x6500, 0x7000, 0x100, 0xffffffffu};
    for (size_t i = 0; i < COUNT_OF(values); ++i)
        ck_assert_msg(dmlconf_feature_level_name((dmlconf_feature_level)values[i]) == NULL, "0x%x has a name",
                      values[i]);
}
END_TEST

/* ---- reasons -------------------------------------------------------------- */

static const struct
{
    dmlconf_reason reason;
    const char *name;
} reasons[] = {
    {DMLCONF_REASON_NONE, "none"},
    {DMLCONF_REASON_UNKNOWN_FEATURE_LEVEL, "unknown_feature_level"},
    {DMLCONF_REASON_UNKNOWN_OPERATOR, "unknown_operator"},
    {DMLCONF_REASON_OPERATOR_UNAVAILABLE, "operator_unavailable"},
    {DMLCONF_REASON_UNKNOWN_AXIS_DIRECTION, "unknown_axis_direction"},
    {DMLCONF_REASON_DIMENSION_COUNT_INVALID, "dimension_count_invalid"},
    {DMLCONF_REASON_DIMENSION_COUNT_MISMATCH, "dimension_count_mismatch"},
    {DMLCONF_REASON_DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL, "dimension_count_unsupported_at_level"},
    {DMLCONF_REASON_DATA_TYPE_UNSUPPORTED, "data_type_unsupported"},
    {DMLCONF_REASON_DATA_TYPE_MISMATCH, "data_type_mismatch"},
    {DMLCONF_REASON_DATA_TYPE_UNSUPPORTED_AT_LEVEL, "data_type_unsupported_at_level"},
    {DMLCONF_REASON_ZERO_SIZE, "zero_size"},
    {DMLCONF_REASON_SIZES_MISMATCH, "sizes_mismatch"},
    {DMLCONF_REASON_TOO_MANY_ELEMENTS, "too_many_elements"},
    {DMLCONF_REASON_AXIS_OUT_OF_RANGE, "axis_out_of_range"},
    {DMLCONF_REASON_BUFFER_SIZE_OVERFLOW, "buffer_size_overflow"},
    {DMLCONF_REASON_TOTAL_SIZE_TOO_SMALL, "total_size_too_small"},
    {DMLCONF_REASON_IN_PLACE_MISMATCH, "in_place_mismatch"},
};

START_TEST(reason_round_trip)
{
    dmlconf_reason reason = reasons[_i].reason;
    ck_assert_int_eq((int)reason, _i);
    ck_assert_ptr_nonnull(dmlconf_reason_name(reason));
    ck_assert_str_eq(dmlconf_reason_name(reason), reasons[_i].name);

    dmlconf_reason parsed = DMLCONF_REASON_COUNT;
    ck_assert_msg(dmlconf_reason_from_name(reasons[_i].name, &parsed), "'%s' does not parse", reasons[_i].name);
    ck_assert_int_eq(parsed, reason);

    /* Tokens are distinct. */
    for (size_t j = 0; j < COUNT_OF(reasons); ++j)
    {
        if ((int)j != _i)
            ck_assert_str_ne(dmlconf_reason_name(reason), dmlconf_reason_name(reasons[j].reason));
    }
}
END_TEST

START_TEST(reason_rejects)
{
    ck_assert_uint_eq(COUNT_OF(reasons), DMLCONF_REASON_COUNT);
    ck_assert_ptr_null(dmlconf_reason_name(DMLCONF_REASON_COUNT));
    ck_assert_ptr_null(dmlconf_reason_name((dmlconf_reason)(DMLCONF_REASON_COUNT + 1)));
    ck_assert_ptr_null(dmlconf_reason_name((dmlconf_reason)-1));

    static const char *const bad[] = {"",        "valid", "axis", "axis_out_of_range_", "axis out of range", "zero",
                                      "unknown", "0",     "14"};
    for (size_t i = 0; i < COUNT_OF(bad); ++i)
    {
        dmlconf_reason reason = DMLCONF_REASON_COUNT;
        ck_assert_msg(!dmlconf_reason_from_name(bad[i], &reason), "'%s' should not parse", bad[i]);
        ck_assert_msg(reason == DMLCONF_REASON_COUNT, "'%s' changed the output on failure", bad[i]);
    }
    dmlconf_reason reason = DMLCONF_REASON_COUNT;
    ck_assert(!dmlconf_reason_from_name(NULL, &reason));
    ck_assert_int_eq(reason, DMLCONF_REASON_COUNT);
}
END_TEST

static Suite *names_suite(void)
{
    Suite *suite = suite_create("names");

    TCase *tc = tcase_create("data_types");
    tcase_add_loop_test(tc, data_type_round_trip, 0, (int)COUNT_OF(data_types));
    tcase_add_test(tc, data_type_rejects);
    suite_add_tcase(suite, tc);

    tc = tcase_create("operators");
    tcase_add_test(tc, operator_round_trip);
    tcase_add_test(tc, operator_rejects);
    suite_add_tcase(suite, tc);

    tc = tcase_create("feature_levels");
    tcase_add_loop_test(tc, feature_level_round_trip, 0, (int)COUNT_OF(feature_levels));
    tcase_add_test(tc, feature_level_list);
    tcase_add_test(tc, feature_level_rejects);
    suite_add_tcase(suite, tc);

    tc = tcase_create("reasons");
    tcase_add_loop_test(tc, reason_round_trip, 0, (int)COUNT_OF(reasons));
    tcase_add_test(tc, reason_rejects);
    suite_add_tcase(suite, tc);

    return suite;
}

int main(void)
{
    return test_run_suite(names_suite());
}
