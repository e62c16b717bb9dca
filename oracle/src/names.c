/*
 * Names of the oracle's enums: the stable tokens that case files, reports
 * and command lines use, and their parsers.
 */
#include "line_kernels.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct
{
    dmlconf_data_type type;
    const char *name;
    const char *lower_name;
    unsigned bits;
} data_types[] = {
    {DMLCONF_DATA_TYPE_UNKNOWN, "UNKNOWN", "unknown", 0},  {DMLCONF_DATA_TYPE_FLOAT32, "FLOAT32", "float32", 32},
    {DMLCONF_DATA_TYPE_FLOAT16, "FLOAT16", "float16", 16}, {DMLCONF_DATA_TYPE_UINT32, "UINT32", "uint32", 32},
    {DMLCONF_DATA_TYPE_UINT16, "UINT16", "uint16", 16},    {DMLCONF_DATA_TYPE_UINT8, "UINT8", "uint8", 8},
    {DMLCONF_DATA_TYPE_INT32, "INT32", "int32", 32},       {DMLCONF_DATA_TYPE_INT16, "INT16", "int16", 16},
    {DMLCONF_DATA_TYPE_INT8, "INT8", "int8", 8},           {DMLCONF_DATA_TYPE_FLOAT64, "FLOAT64", "float64", 64},
    {DMLCONF_DATA_TYPE_UINT64, "UINT64", "uint64", 64},    {DMLCONF_DATA_TYPE_INT64, "INT64", "int64", 64},
    {DMLCONF_DATA_TYPE_UINT4, "UINT4", "uint4", 4},        {DMLCONF_DATA_TYPE_INT4, "INT4", "int4", 4},
};

static const struct
{
    dmlconf_feature_level level;
    const char *name;
} feature_levels[] = {
    {DMLCONF_FEATURE_LEVEL_1_0, "1_0"}, {DMLCONF_FEATURE_LEVEL_2_0, "2_0"}, {DMLCONF_FEATURE_LEVEL_2_1, "2_1"},
    {DMLCONF_FEATURE_LEVEL_3_0, "3_0"}, {DMLCONF_FEATURE_LEVEL_3_1, "3_1"}, {DMLCONF_FEATURE_LEVEL_4_0, "4_0"},
    {DMLCONF_FEATURE_LEVEL_4_1, "4_1"}, {DMLCONF_FEATURE_LEVEL_5_0, "5_0"}, {DMLCONF_FEATURE_LEVEL_5_1, "5_1"},
    {DMLCONF_FEATURE_LEVEL_5_2, "5_2"}, {DMLCONF_FEATURE_LEVEL_6_0, "6_0"}, {DMLCONF_FEATURE_LEVEL_6_1, "6_1"},
    {DMLCONF_FEATURE_LEVEL_6_2, "6_2"}, {DMLCONF_FEATURE_LEVEL_6_3, "6_3"}, {DMLCONF_FEATURE_LEVEL_6_4, "6_4"},
};

/* Indexed by dmlconf_reason. */
static const char *const reason_names[DMLCONF_REASON_COUNT] = {
    [DMLCONF_REASON_NONE] = "none",
    [DMLCONF_REASON_UNKNOWN_FEATURE_LEVEL] = "unknown_feature_level",
    [DMLCONF_REASON_UNKNOWN_OPERATOR] = "unknown_operator",
    [DMLCONF_REASON_OPERATOR_UNAVAILABLE] = "operator_unavailable",
    [DMLCONF_REASON_UNKNOWN_AXIS_DIRECTION] = "unknown_axis_direction",
    [DMLCONF_REASON_DIMENSION_COUNT_INVALID] = "dimension_count_invalid",
    [DMLCONF_REASON_DIMENSION_COUNT_MISMATCH] = "dimension_count_mismatch",
    [DMLCONF_REASON_DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL] = "dimension_count_unsupported_at_level",
    [DMLCONF_REASON_DATA_TYPE_UNSUPPORTED] = "data_type_unsupported",
    [DMLCONF_REASON_DATA_TYPE_MISMATCH] = "data_type_mismatch",
    [DMLCONF_REASON_DATA_TYPE_UNSUPPORTED_AT_LEVEL] = "data_type_unsupported_at_level",
    [DMLCONF_REASON_ZERO_SIZE] = "zero_size",
    [DMLCONF_REASON_SIZES_MISMATCH] = "sizes_mismatch",
    [DMLCONF_REASON_TOO_MANY_ELEMENTS] = "too_many_elements",
    [DMLCONF_REASON_AXIS_OUT_OF_RANGE] = "axis_out_of_range",
    [DMLCONF_REASON_BUFFER_SIZE_OVERFLOW] = "buffer_size_overflow",
    [DMLCONF_REASON_TOTAL_SIZE_TOO_SMALL] = "total_size_too_small",
    [DMLCONF_REASON_IN_PLACE_MISMATCH] = "in_place_mismatch",
};

/* ASCII case-insensitive equality, independent of the locale. */
static bool equals_ignoring_case(const char *a, const char *b)
{
    for (; *a && *b; ++a, ++b)
    {
        char ca = (*a >= 'A' && *a <= 'Z') ? (char)(*a - 'A' + 'a') : *a;
        char cb = (*b >= 'A' && *b <= 'Z') ? (char)(*b - 'A' + 'a') : *b;
        if (ca != cb)
            return false;
    }
    return *a == *b;
}

const char *dmlconf_data_type_name(dmlconf_data_type type)
{
    for (size_t i = 0; i < sizeof(data_types) / sizeof(data_types[0]); ++i)
    {
        if (data_types[i].type == type)
            return data_types[i].name;
    }
    return NULL;
}

const char *dmlconf_data_type_lower_name(dmlconf_data_type type)
{
    for (size_t i = 0; i < sizeof(data_types) / sizeof(data_types[0]); ++i)
    {
        if (data_types[i].type == type)
            return data_types[i].lower_name;
    }
    return "unknown";
}

bool dmlconf_data_type_from_name(const char *name, dmlconf_data_type *type)
{
    if (!name)
        return false;
    if (!strncmp(name, "DML_TENSOR_DATA_TYPE_", 21))
        name += 21;
    for (size_t i = 0; i < sizeof(data_types) / sizeof(data_types[0]); ++i)
    {
        if (equals_ignoring_case(name, data_types[i].name))
        {
            *type = data_types[i].type;
            return true;
        }
    }
    return false;
}

unsigned dmlconf_data_type_bits(dmlconf_data_type type)
{
    for (size_t i = 0; i < sizeof(data_types) / sizeof(data_types[0]); ++i)
    {
        if (data_types[i].type == type)
            return data_types[i].bits;
    }
    return 0;
}

bool dmlconf_data_type_is_computable(dmlconf_data_type type)
{
    return type == DMLCONF_DATA_TYPE_FLOAT32 || type == DMLCONF_DATA_TYPE_FLOAT16 || type == DMLCONF_DATA_TYPE_UINT32 ||
           type == DMLCONF_DATA_TYPE_INT32 || type == DMLCONF_DATA_TYPE_UINT64 || type == DMLCONF_DATA_TYPE_INT64;
}

bool dmlconf_data_type_is_float(dmlconf_data_type type)
{
    return type == DMLCONF_DATA_TYPE_FLOAT32 || type == DMLCONF_DATA_TYPE_FLOAT16 || type == DMLCONF_DATA_TYPE_FLOAT64;
}

const char *dmlconf_operator_name(dmlconf_operator op)
{
    switch (op)
    {
    case DMLCONF_OPERATOR_CUMULATIVE_SUMMATION:
        return "cumulative_summation";
    case DMLCONF_OPERATOR_CUMULATIVE_PRODUCT:
        return "cumulative_product";
    }
    return NULL;
}

bool dmlconf_operator_from_name(const char *name, dmlconf_operator *op)
{
    if (!name)
        return false;
    if (equals_ignoring_case(name, "cumulative_summation") ||
        equals_ignoring_case(name, "DML_OPERATOR_CUMULATIVE_SUMMATION"))
    {
        *op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
        return true;
    }
    if (equals_ignoring_case(name, "cumulative_product") ||
        equals_ignoring_case(name, "DML_OPERATOR_CUMULATIVE_PRODUCT"))
    {
        *op = DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
        return true;
    }
    return false;
}

const char *dmlconf_feature_level_name(dmlconf_feature_level level)
{
    for (size_t i = 0; i < sizeof(feature_levels) / sizeof(feature_levels[0]); ++i)
    {
        if (feature_levels[i].level == level)
            return feature_levels[i].name;
    }
    return NULL;
}

bool dmlconf_feature_level_from_name(const char *name, dmlconf_feature_level *level)
{
    if (!name)
        return false;
    if (!strncmp(name, "DML_FEATURE_LEVEL_", 18))
        name += 18;
    /* Accept "5_0" and "5.0": one digit, a separator, one digit. */
    if (strlen(name) != 3 || (name[1] != '_' && name[1] != '.'))
        return false;
    for (size_t i = 0; i < sizeof(feature_levels) / sizeof(feature_levels[0]); ++i)
    {
        const char *known = feature_levels[i].name;
        if (known[0] == name[0] && known[2] == name[2])
        {
            *level = feature_levels[i].level;
            return true;
        }
    }
    return false;
}

const dmlconf_feature_level *dmlconf_feature_levels(size_t *count)
{
    static const dmlconf_feature_level levels[] = {
        DMLCONF_FEATURE_LEVEL_1_0, DMLCONF_FEATURE_LEVEL_2_0, DMLCONF_FEATURE_LEVEL_2_1, DMLCONF_FEATURE_LEVEL_3_0,
        DMLCONF_FEATURE_LEVEL_3_1, DMLCONF_FEATURE_LEVEL_4_0, DMLCONF_FEATURE_LEVEL_4_1, DMLCONF_FEATURE_LEVEL_5_0,
        DMLCONF_FEATURE_LEVEL_5_1, DMLCONF_FEATURE_LEVEL_5_2, DMLCONF_FEATURE_LEVEL_6_0, DMLCONF_FEATURE_LEVEL_6_1,
        DMLCONF_FEATURE_LEVEL_6_2, DMLCONF_FEATURE_LEVEL_6_3, DMLCONF_FEATURE_LEVEL_6_4,
    };
    if (count)
        *count = sizeof(levels) / sizeof(levels[0]);
    return levels;
}

const char *dmlconf_reason_name(dmlconf_reason reason)
{
    if ((unsigned)reason >= DMLCONF_REASON_COUNT)
        return NULL;
    return reason_names[reason];
}

bool dmlconf_reason_from_name(const char *name, dmlconf_reason *reason)
{
    if (!name)
        return false;
    for (unsigned i = 0; i < DMLCONF_REASON_COUNT; ++i)
    {
        if (!strcmp(name, reason_names[i]))
        {
            *reason = (dmlconf_reason)i;
            return true;
        }
    }
    return false;
}

void oracle_set_error(dmlconf_error *err, const char *format, ...)
{
    if (!err)
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(err->message, sizeof(err->message), format, args);
    va_end(args);
}
