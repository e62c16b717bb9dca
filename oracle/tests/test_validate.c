/*
 * DirectML's validation rules for the cumulative operators, at every feature
 * level from 1_0 to 6_4. The expectations come from the reference pages'
 * tensor-support tables (see the spec README) and are written out here
 * independently of the implementation: summation from 2_1, product from 3_1,
 * exactly 4 dimensions below 4_0 and 1 to 8 from 4_0, FLOAT32 / FLOAT16 /
 * INT32 / UINT32 from the operator's first level, INT64 / UINT64 from 5_0,
 * every other type never.
 */
#include "test_support.h"

#include <stdio.h>
#include <string.h>

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

static const dmlconf_feature_level all_levels[] = {
    DMLCONF_FEATURE_LEVEL_1_0, DMLCONF_FEATURE_LEVEL_2_0, DMLCONF_FEATURE_LEVEL_2_1, DMLCONF_FEATURE_LEVEL_3_0,
    DMLCONF_FEATURE_LEVEL_3_1, DMLCONF_FEATURE_LEVEL_4_0, DMLCONF_FEATURE_LEVEL_4_1, DMLCONF_FEATURE_LEVEL_5_0,
    DMLCONF_FEATURE_LEVEL_5_1, DMLCONF_FEATURE_LEVEL_5_2, DMLCONF_FEATURE_LEVEL_6_0, DMLCONF_FEATURE_LEVEL_6_1,
    DMLCONF_FEATURE_LEVEL_6_2, DMLCONF_FEATURE_LEVEL_6_3, DMLCONF_FEATURE_LEVEL_6_4,
};

static const dmlconf_operator all_ops[] = {DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_OPERATOR_CUMULATIVE_PRODUCT};

static dmlconf_feature_level introduced_at(dmlconf_operator op)
{
    return op == DMLCONF_OPERATOR_CUMULATIVE_SUMMATION ? DMLCONF_FEATURE_LEVEL_2_1 : DMLCONF_FEATURE_LEVEL_3_1;
}

static const char *level_name(dmlconf_feature_level level)
{
    const char *name = dmlconf_feature_level_name(level);
    return name ? name : "?";
}

static const char *reason_name(dmlconf_reason reason)
{
    const char *name = dmlconf_reason_name(reason);
    return name ? name : "?";
}

/* A desc of the given rank with sizes 2, 3, 2, 3, ... (the documented
 * {1,1,3,4} for rank 4) and the last axis. */
static dmlconf_scan_desc make_desc(dmlconf_operator op, dmlconf_data_type type, uint32_t rank)
{
    uint32_t sizes[DMLCONF_MAX_DIMENSIONS];
    for (uint32_t d = 0; d < DMLCONF_MAX_DIMENSIONS; ++d)
        sizes[d] = 2 + d % 2;
    if (rank == 4)
    {
        const uint32_t doc[] = {1, 1, 3, 4};
        memcpy(sizes, doc, sizeof(doc));
    }
    uint32_t stored_rank = rank < DMLCONF_MAX_DIMENSIONS ? rank : DMLCONF_MAX_DIMENSIONS;
    dmlconf_scan_desc desc =
        test_scan_desc(op, type, stored_rank, sizes, rank ? rank - 1 : 0, DMLCONF_AXIS_DIRECTION_INCREASING, false);
    desc.input.dimension_count = rank;
    desc.output.dimension_count = rank;
    return desc;
}

/* Validates and checks the reason, the return value (also without an
 * output struct) and, when valid, the message. */
static dmlconf_validation check_reason(const dmlconf_scan_desc *desc, dmlconf_feature_level level,
                                       dmlconf_reason expected, const char *what)
{
    dmlconf_validation v;
    memset(&v, 0x5a, sizeof(v));
    bool valid = dmlconf_validate(desc, level, &v);
    ck_assert_msg(v.reason == expected, "%s at level %s (0x%x): reason %s, expected %s (message: %s)", what,
                  level_name(level), (unsigned)level, reason_name(v.reason), reason_name(expected),
                  memchr(v.message, '\0', sizeof(v.message)) ? v.message : "(unterminated)");
    ck_assert_msg(valid == (expected == DMLCONF_REASON_NONE), "%s at level %s: returned %d with reason %s", what,
                  level_name(level), valid, reason_name(v.reason));
    ck_assert_msg(dmlconf_validate(desc, level, NULL) == valid, "%s at level %s: a NULL output changes the answer",
                  what, level_name(level));
    ck_assert_msg(memchr(v.message, '\0', sizeof(v.message)) != NULL, "%s: message not terminated", what);
    ck_assert_msg(v.message[0] != '\0', "%s at level %s: empty message", what, level_name(level));
    if (valid)
        ck_assert_msg(strstr(v.message, level_name(level)) != NULL, "%s: message '%s' does not name level %s", what,
                      v.message, level_name(level));
    return v;
}

static void check_mentions(const dmlconf_validation *v, const char *needle, const char *what)
{
    if (needle)
        ck_assert_msg(strstr(v->message, needle) != NULL, "%s: message '%s' does not mention '%s'", what, v->message,
                      needle);
}

/* ---- the support matrix ---------------------------------------------------- */

static bool type_in_tables(dmlconf_data_type type)
{
    switch ((int)type)
    {
    case DMLCONF_DATA_TYPE_FLOAT32:
    case DMLCONF_DATA_TYPE_FLOAT16:
    case DMLCONF_DATA_TYPE_INT32:
    case DMLCONF_DATA_TYPE_UINT32:
    case DMLCONF_DATA_TYPE_INT64:
    case DMLCONF_DATA_TYPE_UINT64:
        return true;
    default:
        return false;
    }
}

static dmlconf_reason expected_support(dmlconf_operator op, dmlconf_feature_level level, dmlconf_data_type type,
                                       uint32_t rank)
{
    if (level < introduced_at(op))
        return DMLCONF_REASON_OPERATOR_UNAVAILABLE;
    if (rank < 1 || rank > 8)
        return DMLCONF_REASON_DIMENSION_COUNT_INVALID;
    if (level < DMLCONF_FEATURE_LEVEL_4_0 && rank != 4)
        return DMLCONF_REASON_DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL;
    if (!type_in_tables(type))
        return DMLCONF_REASON_DATA_TYPE_UNSUPPORTED;
    if ((type == DMLCONF_DATA_TYPE_INT64 || type == DMLCONF_DATA_TYPE_UINT64) && level < DMLCONF_FEATURE_LEVEL_5_0)
        return DMLCONF_REASON_DATA_TYPE_UNSUPPORTED_AT_LEVEL;
    return DMLCONF_REASON_NONE;
}

/* One feature level per iteration: both operators, every data type (and one
 * value outside the enum), ranks 0 to 9. */
START_TEST(support_matrix)
{
    const dmlconf_feature_level level = all_levels[_i];
    int valid_count = 0;
    for (size_t o = 0; o < COUNT_OF(all_ops); ++o)
    {
        for (int t = 0; t <= 14; ++t)
        {
            dmlconf_data_type type = t == 14 ? (dmlconf_data_type)99 : (dmlconf_data_type)t;
            for (uint32_t rank = 0; rank <= 9; ++rank)
            {
                dmlconf_scan_desc desc = make_desc(all_ops[o], type, rank);
                dmlconf_reason expected = expected_support(all_ops[o], level, type, rank);
                char what[128];
                snprintf(what, sizeof(what), "%s %s rank %u", dmlconf_operator_name(all_ops[o]),
                         dmlconf_data_type_name(type) ? dmlconf_data_type_name(type) : "type 99", rank);
                dmlconf_validation v = check_reason(&desc, level, expected, what);
                char number[32];
                switch (expected)
                {
                case DMLCONF_REASON_NONE:
                    ++valid_count;
                    break;
                case DMLCONF_REASON_OPERATOR_UNAVAILABLE:
                    check_mentions(&v, level_name(introduced_at(all_ops[o])), what);
                    check_mentions(&v, level_name(level), what);
                    break;
                case DMLCONF_REASON_DIMENSION_COUNT_INVALID:
                    snprintf(number, sizeof(number), "%u", rank);
                    check_mentions(&v, number, what);
                    break;
                case DMLCONF_REASON_DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL:
                    snprintf(number, sizeof(number), "%u", rank);
                    check_mentions(&v, number, what);
                    check_mentions(&v, "4_0", what);
                    break;
                case DMLCONF_REASON_DATA_TYPE_UNSUPPORTED:
                    check_mentions(&v, dmlconf_data_type_name(type), what);
                    break;
                case DMLCONF_REASON_DATA_TYPE_UNSUPPORTED_AT_LEVEL:
                    check_mentions(&v, dmlconf_data_type_name(type), what);
                    check_mentions(&v, "5_0", what);
                    break;
                case DMLCONF_REASON_UNKNOWN_FEATURE_LEVEL:
                case DMLCONF_REASON_UNKNOWN_OPERATOR:
                case DMLCONF_REASON_UNKNOWN_AXIS_DIRECTION:
                case DMLCONF_REASON_DIMENSION_COUNT_MISMATCH:
                case DMLCONF_REASON_DATA_TYPE_MISMATCH:
                case DMLCONF_REASON_ZERO_SIZE:
                case DMLCONF_REASON_SIZES_MISMATCH:
                case DMLCONF_REASON_TOO_MANY_ELEMENTS:
                case DMLCONF_REASON_AXIS_OUT_OF_RANGE:
                case DMLCONF_REASON_BUFFER_SIZE_OVERFLOW:
                case DMLCONF_REASON_TOTAL_SIZE_TOO_SMALL:
                case DMLCONF_REASON_IN_PLACE_MISMATCH:
                case DMLCONF_REASON_COUNT:
                    ck_abort_msg("unexpected expectation");
                }
            }
        }
    }
    /* Per operator available at this level: 4 types x rank 4 below 4_0,
     * 4 x 8 ranks at 4_x, 6 x 8 from 5_0. */
    int expected_valid = 0;
    for (size_t o = 0; o < COUNT_OF(all_ops); ++o)
    {
        if (level < introduced_at(all_ops[o]))
            continue;
        expected_valid += level < DMLCONF_FEATURE_LEVEL_4_0 ? 4 : level < DMLCONF_FEATURE_LEVEL_5_0 ? 32 : 48;
    }
    ck_assert_int_eq(valid_count, expected_valid);
}
END_TEST

/* ---- one rule at a time ------------------------------------------------------ */

/* Mutations of the valid rank-4 FLOAT32 desc (sizes {1,1,3,4}, axis 3). */
static void set_sizes(dmlconf_tensor_desc *t, uint32_t rank, const uint32_t *sizes)
{
    t->dimension_count = rank;
    for (uint32_t d = 0; d < rank; ++d)
        t->sizes[d] = sizes[d];
}

static void set_strides(dmlconf_tensor_desc *t, const uint32_t *strides)
{
    t->has_strides = true;
    for (uint32_t d = 0; d < t->dimension_count; ++d)
        t->strides[d] = strides[d];
}

static void set_both_sizes(dmlconf_scan_desc *d, uint32_t rank, const uint32_t *sizes, uint32_t axis)
{
    set_sizes(&d->input, rank, sizes);
    set_sizes(&d->output, rank, sizes);
    d->axis = axis;
}

static void m_op_0(dmlconf_scan_desc *d)
{
    d->op = (dmlconf_operator)0;
}
static void m_op_106(dmlconf_scan_desc *d)
{
    d->op = (dmlconf_operator)106;
}
static void m_op_144(dmlconf_scan_desc *d)
{
    d->op = (dmlconf_operator)144;
}
static void m_direction_7(dmlconf_scan_desc *d)
{
    d->direction = (dmlconf_axis_direction)7;
}
static void m_direction_minus_1(dmlconf_scan_desc *d)
{
    d->direction = (dmlconf_axis_direction)-1;
}
static void m_input_rank_0(dmlconf_scan_desc *d)
{
    d->input.dimension_count = 0;
}
static void m_input_rank_9(dmlconf_scan_desc *d)
{
    d->input.dimension_count = 9;
}
static void m_output_rank_0(dmlconf_scan_desc *d)
{
    d->output.dimension_count = 0;
}
static void m_output_rank_9(dmlconf_scan_desc *d)
{
    d->output.dimension_count = 9;
}
static void m_both_rank_9(dmlconf_scan_desc *d)
{
    d->input.dimension_count = 9;
    d->output.dimension_count = 9;
    d->axis = 0;
}
static void m_both_rank_100(dmlconf_scan_desc *d)
{
    d->input.dimension_count = 100;
    d->output.dimension_count = 100;
}
static void m_rank_4_vs_3(dmlconf_scan_desc *d)
{
    d->output.dimension_count = 3;
}
static void m_rank_3_vs_4(dmlconf_scan_desc *d)
{
    d->input.dimension_count = 3;
    d->axis = 2;
}
static void m_rank_8_vs_1(dmlconf_scan_desc *d)
{
    const uint32_t sizes[] = {1, 1, 1, 1, 1, 1, 1, 4};
    set_sizes(&d->input, 8, sizes);
    set_sizes(&d->output, 1, sizes + 7);
    d->axis = 0;
}
static void m_rank_1(dmlconf_scan_desc *d)
{
    const uint32_t sizes[] = {5};
    set_both_sizes(d, 1, sizes, 0);
}
static void m_rank_2(dmlconf_scan_desc *d)
{
    const uint32_t sizes[] = {3, 4};
    set_both_sizes(d, 2, sizes, 1);
}
static void m_rank_3(dmlconf_scan_desc *d)
{
    const uint32_t sizes[] = {2, 3, 4};
    set_both_sizes(d, 3, sizes, 0);
}
static void m_rank_5(dmlconf_scan_desc *d)
{
    const uint32_t sizes[] = {1, 2, 1, 3, 4};
    set_both_sizes(d, 5, sizes, 3);
}
static void m_rank_8(dmlconf_scan_desc *d)
{
    const uint32_t sizes[] = {2, 3, 1, 2, 3, 2, 1, 2};
    set_both_sizes(d, 8, sizes, 7);
}
static void m_type_uint16(dmlconf_scan_desc *d)
{
    d->input.data_type = d->output.data_type = DMLCONF_DATA_TYPE_UINT16;
}
static void m_type_uint8(dmlconf_scan_desc *d)
{
    d->input.data_type = d->output.data_type = DMLCONF_DATA_TYPE_UINT8;
}
static void m_type_int16(dmlconf_scan_desc *d)
{
    d->input.data_type = d->output.data_type = DMLCONF_DATA_TYPE_INT16;
}
static void m_type_int8(dmlconf_scan_desc *d)
{
    d->input.data_type = d->output.data_type = DMLCONF_DATA_TYPE_INT8;
}
static void m_type_float64(dmlconf_scan_desc *d)
{
    d->input.data_type = d->output.data_type = DMLCONF_DATA_TYPE_FLOAT64;
}
static void m_type_uint4(dmlconf_scan_desc *d)
{
    d->input.data_type = d->output.data_type = DMLCONF_DATA_TYPE_UINT4;
}
static void m_type_int4(dmlconf_scan_desc *d)
{
    d->input.data_type = d->output.data_type = DMLCONF_DATA_TYPE_INT4;
}
static void m_type_unknown(dmlconf_scan_desc *d)
{
    d->input.data_type = d->output.data_type = DMLCONF_DATA_TYPE_UNKNOWN;
}
static void m_type_99(dmlconf_scan_desc *d)
{
    d->input.data_type = d->output.data_type = (dmlconf_data_type)99;
}
static void m_output_uint16(dmlconf_scan_desc *d)
{
    d->output.data_type = DMLCONF_DATA_TYPE_UINT16;
}
static void m_input_uint16(dmlconf_scan_desc *d)
{
    d->input.data_type = DMLCONF_DATA_TYPE_UINT16;
}
static void m_float32_vs_float16(dmlconf_scan_desc *d)
{
    d->output.data_type = DMLCONF_DATA_TYPE_FLOAT16;
}
static void m_int32_vs_uint32(dmlconf_scan_desc *d)
{
    d->input.data_type = DMLCONF_DATA_TYPE_INT32;
    d->output.data_type = DMLCONF_DATA_TYPE_UINT32;
}
static void m_int64_vs_uint64(dmlconf_scan_desc *d)
{
    d->input.data_type = DMLCONF_DATA_TYPE_INT64;
    d->output.data_type = DMLCONF_DATA_TYPE_UINT64;
}
static void m_float32_vs_int64(dmlconf_scan_desc *d)
{
    d->output.data_type = DMLCONF_DATA_TYPE_INT64;
}
static void m_type_int64(dmlconf_scan_desc *d)
{
    d->input.data_type = d->output.data_type = DMLCONF_DATA_TYPE_INT64;
}
static void m_type_uint64(dmlconf_scan_desc *d)
{
    d->input.data_type = d->output.data_type = DMLCONF_DATA_TYPE_UINT64;
}
static void m_type_int64_rank_3(dmlconf_scan_desc *d)
{
    m_type_int64(d);
    m_rank_3(d);
}
static void m_type_float16(dmlconf_scan_desc *d)
{
    d->input.data_type = d->output.data_type = DMLCONF_DATA_TYPE_FLOAT16;
}
static void m_type_int32(dmlconf_scan_desc *d)
{
    d->input.data_type = d->output.data_type = DMLCONF_DATA_TYPE_INT32;
}
static void m_type_uint32(dmlconf_scan_desc *d)
{
    d->input.data_type = d->output.data_type = DMLCONF_DATA_TYPE_UINT32;
}
static void m_input_zero_size(dmlconf_scan_desc *d)
{
    d->input.sizes[2] = 0;
}
static void m_output_zero_size(dmlconf_scan_desc *d)
{
    d->output.sizes[0] = 0;
}
static void m_zero_size_and_mismatch(dmlconf_scan_desc *d)
{
    d->input.sizes[3] = 0;
    d->output.sizes[2] = 7;
}
static void m_sizes_mismatch(dmlconf_scan_desc *d)
{
    const uint32_t sizes[] = {1, 1, 4, 3};
    set_sizes(&d->output, 4, sizes);
}
static void m_sizes_mismatch_first(dmlconf_scan_desc *d)
{
    d->output.sizes[0] = 2;
}
static void m_elements_2_32(dmlconf_scan_desc *d)
{
    const uint32_t sizes[] = {65536, 65536, 1, 1};
    set_both_sizes(d, 4, sizes, 3);
}
static void m_elements_2_32_minus_1(dmlconf_scan_desc *d)
{
    const uint32_t sizes[] = {65535, 65537, 1, 1};
    set_both_sizes(d, 4, sizes, 1);
}
static void m_elements_saturated(dmlconf_scan_desc *d)
{
    const uint32_t sizes[] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu};
    set_both_sizes(d, 4, sizes, 3);
}
static void m_elements_2_32_rank_8(dmlconf_scan_desc *d)
{
    const uint32_t sizes[] = {16, 16, 16, 16, 16, 16, 16, 16};
    set_both_sizes(d, 8, sizes, 7);
}
static void m_elements_and_axis(dmlconf_scan_desc *d)
{
    m_elements_2_32(d);
    d->axis = 4;
}
static void m_axis_4(dmlconf_scan_desc *d)
{
    d->axis = 4;
}
static void m_axis_5(dmlconf_scan_desc *d)
{
    d->axis = 5;
}
static void m_axis_max(dmlconf_scan_desc *d)
{
    d->axis = UINT32_MAX;
}
static void m_axis_rank_1(dmlconf_scan_desc *d)
{
    m_rank_1(d);
    d->axis = 1;
}
static void m_axis_rank_8(dmlconf_scan_desc *d)
{
    m_rank_8(d);
    d->axis = 8;
}
static void m_axis_0(dmlconf_scan_desc *d)
{
    d->axis = 0;
}
static void m_decreasing_exclusive(dmlconf_scan_desc *d)
{
    d->direction = DMLCONF_AXIS_DIRECTION_DECREASING;
    d->exclusive = true;
}
static void m_input_size_overflow(dmlconf_scan_desc *d)
{
    const uint32_t sizes[] = {1, 1, 1, 0xffffffffu};
    const uint32_t strides[] = {1, 1, 1, 0xffffffffu};
    set_both_sizes(d, 4, sizes, 3);
    set_strides(&d->input, strides);
}
static void m_output_size_overflow(dmlconf_scan_desc *d)
{
    const uint32_t sizes[] = {1, 1, 1, 0xffffffffu};
    const uint32_t strides[] = {1, 1, 1, 0x40000001u};
    set_both_sizes(d, 4, sizes, 3);
    set_strides(&d->output, strides);
}
static void m_largest_stride_that_fits(dmlconf_scan_desc *d)
{
    /* (2^32 - 2) * 2^30 + 1 elements of 4 bytes: 2^64 - 2^33 + 4 bytes. */
    const uint32_t sizes[] = {1, 1, 1, 0xffffffffu};
    const uint32_t strides[] = {1, 1, 1, 0x40000000u};
    set_both_sizes(d, 4, sizes, 3);
    set_strides(&d->output, strides);
}
static void m_input_total_44(dmlconf_scan_desc *d)
{
    d->input.total_size_bytes = 44;
}
static void m_output_total_47(dmlconf_scan_desc *d)
{
    d->output.total_size_bytes = 47;
}
static void m_total_48(dmlconf_scan_desc *d)
{
    d->input.total_size_bytes = 48;
    d->output.total_size_bytes = 48;
}
static void m_total_large(dmlconf_scan_desc *d)
{
    d->input.total_size_bytes = 4096;
    d->output.total_size_bytes = 52;
}
static void m_float16_total_18(dmlconf_scan_desc *d)
{
    /* 9 halves are 18 bytes, rounded up to 20. */
    const uint32_t sizes[] = {1, 1, 3, 3};
    set_both_sizes(d, 4, sizes, 2);
    d->input.data_type = d->output.data_type = DMLCONF_DATA_TYPE_FLOAT16;
    d->input.total_size_bytes = 18;
}
static void m_float16_total_20(dmlconf_scan_desc *d)
{
    m_float16_total_18(d);
    d->input.total_size_bytes = 20;
}
static void m_padded_total_52(dmlconf_scan_desc *d)
{
    /* Span 2*5 + 3*1 + 1 = 14 elements: 56 bytes. */
    const uint32_t strides[] = {100, 100, 5, 1};
    set_strides(&d->input, strides);
    d->input.total_size_bytes = 52;
}
static void m_padded_total_56(dmlconf_scan_desc *d)
{
    m_padded_total_52(d);
    d->input.total_size_bytes = 56;
}
static void m_in_place_padded_output(dmlconf_scan_desc *d)
{
    const uint32_t strides[] = {100, 100, 5, 1};
    set_strides(&d->output, strides);
    d->in_place = true;
}
static void m_in_place_total(dmlconf_scan_desc *d)
{
    d->output.total_size_bytes = 64;
    d->in_place = true;
}
static void m_in_place_transposed(dmlconf_scan_desc *d)
{
    const uint32_t strides[] = {12, 12, 1, 3};
    set_strides(&d->output, strides);
    d->in_place = true;
}
static void m_in_place_identical_padded(dmlconf_scan_desc *d)
{
    const uint32_t strides[] = {100, 100, 5, 1};
    set_strides(&d->input, strides);
    set_strides(&d->output, strides);
    d->in_place = true;
}
static void m_in_place_explicit_packed(dmlconf_scan_desc *d)
{
    const uint32_t strides[] = {12, 12, 4, 1};
    set_strides(&d->output, strides);
    d->output.total_size_bytes = 48;
    d->in_place = true;
}
static void m_not_in_place_different_strides(dmlconf_scan_desc *d)
{
    const uint32_t strides[] = {12, 12, 1, 3};
    set_strides(&d->output, strides);
    d->input.total_size_bytes = 100;
}
static void m_many_errors_type_first(dmlconf_scan_desc *d)
{
    d->input.data_type = d->output.data_type = DMLCONF_DATA_TYPE_UINT16;
    d->input.sizes[1] = 0;
    d->axis = 9;
    d->input.total_size_bytes = 1;
}
static void m_many_errors_direction_first(dmlconf_scan_desc *d)
{
    d->direction = (dmlconf_axis_direction)5;
    d->input.dimension_count = 0;
    d->output.data_type = DMLCONF_DATA_TYPE_INT8;
}
static void m_many_errors_operator_first(dmlconf_scan_desc *d)
{
    d->op = (dmlconf_operator)3;
    d->direction = (dmlconf_axis_direction)5;
    d->input.dimension_count = 12;
}
static void m_many_errors_axis_before_size(dmlconf_scan_desc *d)
{
    d->axis = 6;
    d->output.total_size_bytes = 4;
    d->in_place = true;
}
static void m_many_errors_size_before_in_place(dmlconf_scan_desc *d)
{
    d->output.total_size_bytes = 4;
    d->in_place = true;
}

#define N       DMLCONF_REASON_NONE
#define R(name) DMLCONF_REASON_##name

static const struct
{
    const char *name;
    void (*mutate)(dmlconf_scan_desc *desc);
    bool ignores_operator_level; /* the rule comes before operator availability */
    /* Expected reason at the operator's own levels below 4_0, at 4_0 and
     * 4_1, and from 5_0. */
    dmlconf_reason low, middle, high;
    /* What the message must mention wherever the reason is `main`. */
    dmlconf_reason main;
    const char *needles[3];
} rules[] = {
    {"valid base desc", NULL, false, N, N, N, N, {NULL}},
    {"valid: axis 0", m_axis_0, false, N, N, N, N, {NULL}},
    {"valid: decreasing exclusive", m_decreasing_exclusive, false, N, N, N, N, {NULL}},
    {"valid: float16", m_type_float16, false, N, N, N, N, {NULL}},
    {"valid: int32", m_type_int32, false, N, N, N, N, {NULL}},
    {"valid: uint32", m_type_uint32, false, N, N, N, N, {NULL}},

    {"operator 0",
     m_op_0,
     true,
     R(UNKNOWN_OPERATOR),
     R(UNKNOWN_OPERATOR),
     R(UNKNOWN_OPERATOR),
     R(UNKNOWN_OPERATOR),
     {"0"}},
    {"operator 106",
     m_op_106,
     true,
     R(UNKNOWN_OPERATOR),
     R(UNKNOWN_OPERATOR),
     R(UNKNOWN_OPERATOR),
     R(UNKNOWN_OPERATOR),
     {"106"}},
    {"operator 144",
     m_op_144,
     true,
     R(UNKNOWN_OPERATOR),
     R(UNKNOWN_OPERATOR),
     R(UNKNOWN_OPERATOR),
     R(UNKNOWN_OPERATOR),
     {"144"}},

    {"direction 7",
     m_direction_7,
     false,
     R(UNKNOWN_AXIS_DIRECTION),
     R(UNKNOWN_AXIS_DIRECTION),
     R(UNKNOWN_AXIS_DIRECTION),
     R(UNKNOWN_AXIS_DIRECTION),
     {"7"}},
    {"direction -1",
     m_direction_minus_1,
     false,
     R(UNKNOWN_AXIS_DIRECTION),
     R(UNKNOWN_AXIS_DIRECTION),
     R(UNKNOWN_AXIS_DIRECTION),
     R(UNKNOWN_AXIS_DIRECTION),
     {"-1"}},

    {"input rank 0",
     m_input_rank_0,
     false,
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     {"InputTensor", "0"}},
    {"input rank 9",
     m_input_rank_9,
     false,
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     {"InputTensor", "9"}},
    {"output rank 0",
     m_output_rank_0,
     false,
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     {"OutputTensor", "0"}},
    {"output rank 9",
     m_output_rank_9,
     false,
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     {"OutputTensor", "9"}},
    {"both rank 9",
     m_both_rank_9,
     false,
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     {"9"}},
    {"both rank 100",
     m_both_rank_100,
     false,
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     R(DIMENSION_COUNT_INVALID),
     {"100"}},

    {"rank 4 vs 3",
     m_rank_4_vs_3,
     false,
     R(DIMENSION_COUNT_MISMATCH),
     R(DIMENSION_COUNT_MISMATCH),
     R(DIMENSION_COUNT_MISMATCH),
     R(DIMENSION_COUNT_MISMATCH),
     {"4", "3"}},
    {"rank 3 vs 4",
     m_rank_3_vs_4,
     false,
     R(DIMENSION_COUNT_MISMATCH),
     R(DIMENSION_COUNT_MISMATCH),
     R(DIMENSION_COUNT_MISMATCH),
     R(DIMENSION_COUNT_MISMATCH),
     {"3", "4"}},
    {"rank 8 vs 1",
     m_rank_8_vs_1,
     false,
     R(DIMENSION_COUNT_MISMATCH),
     R(DIMENSION_COUNT_MISMATCH),
     R(DIMENSION_COUNT_MISMATCH),
     R(DIMENSION_COUNT_MISMATCH),
     {"8", "1"}},

    {"rank 1",
     m_rank_1,
     false,
     R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL),
     N,
     N,
     R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL),
     {"1", "4_0"}},
    {"rank 2",
     m_rank_2,
     false,
     R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL),
     N,
     N,
     R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL),
     {"2", "4_0"}},
    {"rank 3",
     m_rank_3,
     false,
     R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL),
     N,
     N,
     R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL),
     {"3", "4_0"}},
    {"rank 5",
     m_rank_5,
     false,
     R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL),
     N,
     N,
     R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL),
     {"5", "4_0"}},
    {"rank 8",
     m_rank_8,
     false,
     R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL),
     N,
     N,
     R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL),
     {"8", "4_0"}},

    {"UINT16 (the old pages' erratum)",
     m_type_uint16,
     false,
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     {"UINT16"}},
    {"UINT8",
     m_type_uint8,
     false,
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     {"UINT8"}},
    {"INT16",
     m_type_int16,
     false,
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     {"INT16"}},
    {"INT8",
     m_type_int8,
     false,
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     {"INT8"}},
    {"FLOAT64",
     m_type_float64,
     false,
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     {"FLOAT64"}},
    {"UINT4",
     m_type_uint4,
     false,
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     {"UINT4"}},
    {"INT4",
     m_type_int4,
     false,
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     {"INT4"}},
    {"UNKNOWN",
     m_type_unknown,
     false,
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     {"UNKNOWN"}},
    {"type 99",
     m_type_99,
     false,
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     {"InputTensor"}},
    {"output UINT16",
     m_output_uint16,
     false,
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     {"OutputTensor", "UINT16"}},
    {"input UINT16",
     m_input_uint16,
     false,
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     {"InputTensor", "UINT16"}},

    {"FLOAT32 vs FLOAT16",
     m_float32_vs_float16,
     false,
     R(DATA_TYPE_MISMATCH),
     R(DATA_TYPE_MISMATCH),
     R(DATA_TYPE_MISMATCH),
     R(DATA_TYPE_MISMATCH),
     {"FLOAT32", "FLOAT16"}},
    {"INT32 vs UINT32",
     m_int32_vs_uint32,
     false,
     R(DATA_TYPE_MISMATCH),
     R(DATA_TYPE_MISMATCH),
     R(DATA_TYPE_MISMATCH),
     R(DATA_TYPE_MISMATCH),
     {"INT32", "UINT32"}},
    {"INT64 vs UINT64",
     m_int64_vs_uint64,
     false,
     R(DATA_TYPE_MISMATCH),
     R(DATA_TYPE_MISMATCH),
     R(DATA_TYPE_MISMATCH),
     R(DATA_TYPE_MISMATCH),
     {"INT64", "UINT64"}},
    {"FLOAT32 vs INT64",
     m_float32_vs_int64,
     false,
     R(DATA_TYPE_MISMATCH),
     R(DATA_TYPE_MISMATCH),
     R(DATA_TYPE_MISMATCH),
     R(DATA_TYPE_MISMATCH),
     {"FLOAT32", "INT64"}},

    {"INT64",
     m_type_int64,
     false,
     R(DATA_TYPE_UNSUPPORTED_AT_LEVEL),
     R(DATA_TYPE_UNSUPPORTED_AT_LEVEL),
     N,
     R(DATA_TYPE_UNSUPPORTED_AT_LEVEL),
     {"INT64", "5_0"}},
    {"UINT64",
     m_type_uint64,
     false,
     R(DATA_TYPE_UNSUPPORTED_AT_LEVEL),
     R(DATA_TYPE_UNSUPPORTED_AT_LEVEL),
     N,
     R(DATA_TYPE_UNSUPPORTED_AT_LEVEL),
     {"UINT64", "5_0"}},
    {"INT64 rank 3",
     m_type_int64_rank_3,
     false,
     R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL),
     R(DATA_TYPE_UNSUPPORTED_AT_LEVEL),
     N,
     R(DATA_TYPE_UNSUPPORTED_AT_LEVEL),
     {"INT64", "5_0"}},

    {"input size 0",
     m_input_zero_size,
     false,
     R(ZERO_SIZE),
     R(ZERO_SIZE),
     R(ZERO_SIZE),
     R(ZERO_SIZE),
     {"InputTensor", "dimension 2"}},
    {"output size 0",
     m_output_zero_size,
     false,
     R(ZERO_SIZE),
     R(ZERO_SIZE),
     R(ZERO_SIZE),
     R(ZERO_SIZE),
     {"OutputTensor", "dimension 0"}},
    {"size 0 before sizes mismatch",
     m_zero_size_and_mismatch,
     false,
     R(ZERO_SIZE),
     R(ZERO_SIZE),
     R(ZERO_SIZE),
     R(ZERO_SIZE),
     {"dimension 3"}},

    {"sizes {1,1,3,4} vs {1,1,4,3}",
     m_sizes_mismatch,
     false,
     R(SIZES_MISMATCH),
     R(SIZES_MISMATCH),
     R(SIZES_MISMATCH),
     R(SIZES_MISMATCH),
     {"{1,1,3,4}", "{1,1,4,3}"}},
    {"sizes {1,1,3,4} vs {2,1,3,4}",
     m_sizes_mismatch_first,
     false,
     R(SIZES_MISMATCH),
     R(SIZES_MISMATCH),
     R(SIZES_MISMATCH),
     R(SIZES_MISMATCH),
     {"{1,1,3,4}", "{2,1,3,4}"}},

    {"2^32 elements",
     m_elements_2_32,
     false,
     R(TOO_MANY_ELEMENTS),
     R(TOO_MANY_ELEMENTS),
     R(TOO_MANY_ELEMENTS),
     R(TOO_MANY_ELEMENTS),
     {"4294967296", "4294967295"}},
    {"2^32 - 1 elements", m_elements_2_32_minus_1, false, N, N, N, N, {NULL}},
    {"saturated element count",
     m_elements_saturated,
     false,
     R(TOO_MANY_ELEMENTS),
     R(TOO_MANY_ELEMENTS),
     R(TOO_MANY_ELEMENTS),
     R(TOO_MANY_ELEMENTS),
     {"4294967295"}},
    {"2^32 elements, rank 8",
     m_elements_2_32_rank_8,
     false,
     R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL),
     R(TOO_MANY_ELEMENTS),
     R(TOO_MANY_ELEMENTS),
     R(TOO_MANY_ELEMENTS),
     {"4294967296"}},
    {"too many elements before axis",
     m_elements_and_axis,
     false,
     R(TOO_MANY_ELEMENTS),
     R(TOO_MANY_ELEMENTS),
     R(TOO_MANY_ELEMENTS),
     R(TOO_MANY_ELEMENTS),
     {"4294967296"}},

    {"axis 4 of 4",
     m_axis_4,
     false,
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     {"Axis 4", "4-D"}},
    {"axis 5 of 4",
     m_axis_5,
     false,
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     {"5", "4"}},
    {"axis 2^32-1",
     m_axis_max,
     false,
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     {"4294967295"}},
    {"axis 1 of 1",
     m_axis_rank_1,
     false,
     R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL),
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     {"1-D"}},
    {"axis 8 of 8",
     m_axis_rank_8,
     false,
     R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL),
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     {"Axis 8", "8-D"}},

    {"input strides overflow the size",
     m_input_size_overflow,
     false,
     R(BUFFER_SIZE_OVERFLOW),
     R(BUFFER_SIZE_OVERFLOW),
     R(BUFFER_SIZE_OVERFLOW),
     R(BUFFER_SIZE_OVERFLOW),
     {"InputTensor"}},
    {"output strides overflow the size",
     m_output_size_overflow,
     false,
     R(BUFFER_SIZE_OVERFLOW),
     R(BUFFER_SIZE_OVERFLOW),
     R(BUFFER_SIZE_OVERFLOW),
     R(BUFFER_SIZE_OVERFLOW),
     {"OutputTensor"}},
    {"largest strides that fit", m_largest_stride_that_fits, false, N, N, N, N, {NULL}},

    {"input total 44 of 48",
     m_input_total_44,
     false,
     R(TOTAL_SIZE_TOO_SMALL),
     R(TOTAL_SIZE_TOO_SMALL),
     R(TOTAL_SIZE_TOO_SMALL),
     R(TOTAL_SIZE_TOO_SMALL),
     {"InputTensor", "44", "48"}},
    {"output total 47 of 48",
     m_output_total_47,
     false,
     R(TOTAL_SIZE_TOO_SMALL),
     R(TOTAL_SIZE_TOO_SMALL),
     R(TOTAL_SIZE_TOO_SMALL),
     R(TOTAL_SIZE_TOO_SMALL),
     {"OutputTensor", "47", "48"}},
    {"total 48 of 48", m_total_48, false, N, N, N, N, {NULL}},
    {"totals above the minimum", m_total_large, false, N, N, N, N, {NULL}},
    {"float16 total 18 of 20",
     m_float16_total_18,
     false,
     R(TOTAL_SIZE_TOO_SMALL),
     R(TOTAL_SIZE_TOO_SMALL),
     R(TOTAL_SIZE_TOO_SMALL),
     R(TOTAL_SIZE_TOO_SMALL),
     {"18", "20"}},
    {"float16 total 20 of 20", m_float16_total_20, false, N, N, N, N, {NULL}},
    {"padded total 52 of 56",
     m_padded_total_52,
     false,
     R(TOTAL_SIZE_TOO_SMALL),
     R(TOTAL_SIZE_TOO_SMALL),
     R(TOTAL_SIZE_TOO_SMALL),
     R(TOTAL_SIZE_TOO_SMALL),
     {"52", "56"}},
    {"padded total 56 of 56", m_padded_total_56, false, N, N, N, N, {NULL}},

    {"in place, padded output",
     m_in_place_padded_output,
     false,
     R(IN_PLACE_MISMATCH),
     R(IN_PLACE_MISMATCH),
     R(IN_PLACE_MISMATCH),
     R(IN_PLACE_MISMATCH),
     {NULL}},
    {"in place, larger output total",
     m_in_place_total,
     false,
     R(IN_PLACE_MISMATCH),
     R(IN_PLACE_MISMATCH),
     R(IN_PLACE_MISMATCH),
     R(IN_PLACE_MISMATCH),
     {NULL}},
    {"in place, transposed output",
     m_in_place_transposed,
     false,
     R(IN_PLACE_MISMATCH),
     R(IN_PLACE_MISMATCH),
     R(IN_PLACE_MISMATCH),
     R(IN_PLACE_MISMATCH),
     {NULL}},
    {"in place, identical padded descs", m_in_place_identical_padded, false, N, N, N, N, {NULL}},
    {"in place, packed vs explicit packed", m_in_place_explicit_packed, false, N, N, N, N, {NULL}},
    {"not in place, different layouts", m_not_in_place_different_strides, false, N, N, N, N, {NULL}},

    {"several errors: type first",
     m_many_errors_type_first,
     false,
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     R(DATA_TYPE_UNSUPPORTED),
     {"UINT16"}},
    {"several errors: direction first",
     m_many_errors_direction_first,
     false,
     R(UNKNOWN_AXIS_DIRECTION),
     R(UNKNOWN_AXIS_DIRECTION),
     R(UNKNOWN_AXIS_DIRECTION),
     R(UNKNOWN_AXIS_DIRECTION),
     {"5"}},
    {"several errors: operator first",
     m_many_errors_operator_first,
     true,
     R(UNKNOWN_OPERATOR),
     R(UNKNOWN_OPERATOR),
     R(UNKNOWN_OPERATOR),
     R(UNKNOWN_OPERATOR),
     {"3"}},
    {"several errors: axis before size",
     m_many_errors_axis_before_size,
     false,
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     R(AXIS_OUT_OF_RANGE),
     {"6"}},
    {"several errors: size before in place",
     m_many_errors_size_before_in_place,
     false,
     R(TOTAL_SIZE_TOO_SMALL),
     R(TOTAL_SIZE_TOO_SMALL),
     R(TOTAL_SIZE_TOO_SMALL),
     R(TOTAL_SIZE_TOO_SMALL),
     {"4", "48"}},
};

START_TEST(rule_at_every_level)
{
    for (size_t o = 0; o < COUNT_OF(all_ops); ++o)
    {
        const dmlconf_operator op = all_ops[o];
        for (size_t l = 0; l < COUNT_OF(all_levels); ++l)
        {
            const dmlconf_feature_level level = all_levels[l];
            dmlconf_scan_desc desc = make_desc(op, DMLCONF_DATA_TYPE_FLOAT32, 4);
            if (rules[_i].mutate)
                rules[_i].mutate(&desc);
            dmlconf_reason expected;
            if (!rules[_i].ignores_operator_level && level < introduced_at(op))
                expected = DMLCONF_REASON_OPERATOR_UNAVAILABLE;
            else if (level < DMLCONF_FEATURE_LEVEL_4_0)
                expected = rules[_i].low;
            else if (level < DMLCONF_FEATURE_LEVEL_5_0)
                expected = rules[_i].middle;
            else
                expected = rules[_i].high;
            char what[160];
            snprintf(what, sizeof(what), "%s (%s)", rules[_i].name, dmlconf_operator_name(op));
            dmlconf_validation v = check_reason(&desc, level, expected, what);
            if (expected == rules[_i].main && expected != DMLCONF_REASON_NONE)
            {
                for (size_t n = 0; n < COUNT_OF(rules[_i].needles); ++n)
                    check_mentions(&v, rules[_i].needles[n], what);
            }
        }
    }
}
END_TEST

START_TEST(unknown_feature_level)
{
    const unsigned levels[] = {0, 0x100, 0x1100, 0x2200, 0x3200, 0x4200, 0x5300, 0x6500, 0x7000, 0xffffffffu};
    for (size_t i = 0; i < COUNT_OF(levels); ++i)
    {
        dmlconf_feature_level level = (dmlconf_feature_level)levels[i];
        char hex[32];
        snprintf(hex, sizeof(hex), "0x%x", levels[i]);
        for (size_t o = 0; o < COUNT_OF(all_ops); ++o)
        {
            /* A valid desc, and one that breaks every later rule too. */
            dmlconf_scan_desc desc = make_desc(all_ops[o], DMLCONF_DATA_TYPE_FLOAT32, 4);
            dmlconf_validation v = check_reason(&desc, level, DMLCONF_REASON_UNKNOWN_FEATURE_LEVEL, hex);
            check_mentions(&v, hex, hex);
            desc.op = (dmlconf_operator)1;
            desc.direction = (dmlconf_axis_direction)3;
            desc.input.dimension_count = 0;
            check_reason(&desc, level, DMLCONF_REASON_UNKNOWN_FEATURE_LEVEL, hex);
        }
    }
}
END_TEST

/* ---- the lowest level ------------------------------------------------------ */

static const struct
{
    const char *name;
    dmlconf_operator op;
    dmlconf_data_type type;
    uint32_t rank;
    void (*mutate)(dmlconf_scan_desc *desc);
    dmlconf_feature_level level;
    dmlconf_reason why_not;
} min_levels[] = {
    {"sum float32 4-D", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, 4, NULL,
     DMLCONF_FEATURE_LEVEL_2_1, N},
    {"sum float16 4-D", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT16, 4, NULL,
     DMLCONF_FEATURE_LEVEL_2_1, N},
    {"sum uint32 4-D", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_UINT32, 4, NULL,
     DMLCONF_FEATURE_LEVEL_2_1, N},
    {"product int32 4-D", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_INT32, 4, NULL,
     DMLCONF_FEATURE_LEVEL_3_1, N},
    {"product float16 4-D", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT16, 4, NULL,
     DMLCONF_FEATURE_LEVEL_3_1, N},
    {"sum float32 1-D", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, 1, NULL,
     DMLCONF_FEATURE_LEVEL_4_0, N},
    {"sum int32 8-D", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_INT32, 8, NULL,
     DMLCONF_FEATURE_LEVEL_4_0, N},
    {"product float32 3-D", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT32, 3, NULL,
     DMLCONF_FEATURE_LEVEL_4_0, N},
    {"sum int64 4-D", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_INT64, 4, NULL,
     DMLCONF_FEATURE_LEVEL_5_0, N},
    {"product uint64 8-D", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_UINT64, 8, NULL,
     DMLCONF_FEATURE_LEVEL_5_0, N},
    {"sum uint64 1-D", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_UINT64, 1, NULL,
     DMLCONF_FEATURE_LEVEL_5_0, N},
    {"sum float32 4-D in place", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, 4,
     m_in_place_identical_padded, DMLCONF_FEATURE_LEVEL_2_1, N},
    {"sum uint16", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_UINT16, 4, NULL, DMLCONF_FEATURE_LEVEL_NONE,
     R(DATA_TYPE_UNSUPPORTED)},
    {"product float64", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT64, 2, NULL,
     DMLCONF_FEATURE_LEVEL_NONE, R(DATA_TYPE_UNSUPPORTED)},
    {"rank 9", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, 9, NULL, DMLCONF_FEATURE_LEVEL_NONE,
     R(DIMENSION_COUNT_INVALID)},
    {"axis out of range", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_INT32, 4, m_axis_4,
     DMLCONF_FEATURE_LEVEL_NONE, R(AXIS_OUT_OF_RANGE)},
    {"unknown operator", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, 4, m_op_106,
     DMLCONF_FEATURE_LEVEL_NONE, R(UNKNOWN_OPERATOR)},
    {"unknown direction", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, 4, m_direction_7,
     DMLCONF_FEATURE_LEVEL_NONE, R(UNKNOWN_AXIS_DIRECTION)},
    {"type mismatch", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, 4, m_float32_vs_float16,
     DMLCONF_FEATURE_LEVEL_NONE, R(DATA_TYPE_MISMATCH)},
    {"sizes mismatch", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT32, 4, m_sizes_mismatch,
     DMLCONF_FEATURE_LEVEL_NONE, R(SIZES_MISMATCH)},
    {"too many elements", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, 4, m_elements_2_32,
     DMLCONF_FEATURE_LEVEL_NONE, R(TOO_MANY_ELEMENTS)},
    {"size overflow", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, 4, m_input_size_overflow,
     DMLCONF_FEATURE_LEVEL_NONE, R(BUFFER_SIZE_OVERFLOW)},
    {"total too small", DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT32, 4, m_input_total_44,
     DMLCONF_FEATURE_LEVEL_NONE, R(TOTAL_SIZE_TOO_SMALL)},
    {"in place mismatch", DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, 4, m_in_place_padded_output,
     DMLCONF_FEATURE_LEVEL_NONE, R(IN_PLACE_MISMATCH)},
};

#undef N
#undef R

START_TEST(min_feature_level)
{
    dmlconf_scan_desc desc = make_desc(min_levels[_i].op, min_levels[_i].type, min_levels[_i].rank);
    if (min_levels[_i].mutate)
        min_levels[_i].mutate(&desc);
    /* The mutations keep the base's type; reapply it. */
    if (min_levels[_i].mutate != m_float32_vs_float16)
        desc.input.data_type = desc.output.data_type = min_levels[_i].type;

    dmlconf_validation why;
    memset(&why, 0, sizeof(why));
    why.reason = DMLCONF_REASON_COUNT;
    dmlconf_feature_level level = dmlconf_min_feature_level(&desc, &why);
    ck_assert_msg(level == min_levels[_i].level, "%s: lowest level 0x%x, expected 0x%x", min_levels[_i].name,
                  (unsigned)level, (unsigned)min_levels[_i].level);
    ck_assert_msg(dmlconf_min_feature_level(&desc, NULL) == level, "%s: a NULL why_not changes the answer",
                  min_levels[_i].name);
    if (level == DMLCONF_FEATURE_LEVEL_NONE)
    {
        ck_assert_msg(why.reason == min_levels[_i].why_not, "%s: why_not %s, expected %s", min_levels[_i].name,
                      reason_name(why.reason), reason_name(min_levels[_i].why_not));
        ck_assert_msg(why.message[0] != '\0', "%s: empty why_not message", min_levels[_i].name);
        /* Invalid at every level, the highest included. */
        for (size_t l = 0; l < COUNT_OF(all_levels); ++l)
            ck_assert(!dmlconf_validate(&desc, all_levels[l], NULL));
        return;
    }
    /* Valid at the level found and every level above it, at none below. */
    for (size_t l = 0; l < COUNT_OF(all_levels); ++l)
        ck_assert_msg(dmlconf_validate(&desc, all_levels[l], NULL) == (all_levels[l] >= level),
                      "%s: validity at %s disagrees with the lowest level %s", min_levels[_i].name,
                      level_name(all_levels[l]), level_name(level));
}
END_TEST

static Suite *validate_suite(void)
{
    Suite *suite = suite_create("validate");

    TCase *tc = tcase_create("support_matrix");
    tcase_add_loop_test(tc, support_matrix, 0, (int)COUNT_OF(all_levels));
    suite_add_tcase(suite, tc);

    tc = tcase_create("rules");
    tcase_add_loop_test(tc, rule_at_every_level, 0, (int)COUNT_OF(rules));
    tcase_add_test(tc, unknown_feature_level);
    suite_add_tcase(suite, tc);

    tc = tcase_create("min_feature_level");
    tcase_add_loop_test(tc, min_feature_level, 0, (int)COUNT_OF(min_levels));
    suite_add_tcase(suite, tc);

    return suite;
}

int main(void)
{
    return test_run_suite(validate_suite());
}
