/*
 * DirectML's validation rules for the cumulative operators, per feature
 * level, as the reference pages' tensor-support tables state them.
 *
 * Rules are checked in the order of dmlconf_reason, so every desc gets one
 * deterministic reason: the first rule it breaks.
 */
#include <dmlconf/compiler.h>
#include "line_kernels.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool fail(dmlconf_validation *out, dmlconf_reason reason, const char *format, ...)
    DMLCONF_PRINTF_LIKE(3, 4)
    ;

static bool fail(dmlconf_validation *out, dmlconf_reason reason, const char *format, ...)
{
    if (out)
    {
        out->reason = reason;
        va_list args;
        va_start(args, format);
        vsnprintf(out->message, sizeof(out->message), format, args);
        va_end(args);
    }
    return false;
}

static dmlconf_feature_level operator_introduced_at(dmlconf_operator op)
{
    return op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? DMLCONF_FEATURE_LEVEL_3_1 : DMLCONF_FEATURE_LEVEL_2_1;
}

/* The data types either operator accepts at some level. */
static bool type_ever_supported(dmlconf_data_type type)
{
    return dmlconf_data_type_is_computable(type);
}

static bool type_is_64_bit(dmlconf_data_type type)
{
    return type == DMLCONF_DATA_TYPE_INT64 || type == DMLCONF_DATA_TYPE_UINT64;
}

static const char *type_name(dmlconf_data_type type)
{
    const char *name = dmlconf_data_type_name(type);
    return name ? name : "an unknown data type";
}

static void format_sizes(const dmlconf_tensor_desc *desc, char *buffer, size_t size)
{
    size_t used = 0;
    buffer[0] = '\0';
    used += (size_t)snprintf(buffer, size, "{");
    for (uint32_t d = 0; d < desc->dimension_count && d < DMLCONF_MAX_DIMENSIONS && used < size; ++d)
        used += (size_t)snprintf(buffer + used, size - used, "%s%u", d ? "," : "", desc->sizes[d]);
    if (used < size)
        snprintf(buffer + used, size - used, "}");
}

static bool same_layout(const dmlconf_tensor_desc *a, const dmlconf_tensor_desc *b)
{
    uint64_t size_a = a->total_size_bytes, size_b = b->total_size_bytes;
    if (!size_a)
        dmlconf_tensor_min_size_bytes(a, &size_a);
    if (!size_b)
        dmlconf_tensor_min_size_bytes(b, &size_b);
    if (size_a != size_b)
        return false;
    for (uint32_t d = 0; d < a->dimension_count; ++d)
    {
        if (dmlconf_tensor_stride(a, d) != dmlconf_tensor_stride(b, d))
            return false;
    }
    return true;
}

static bool check_tensor_size(const dmlconf_tensor_desc *desc, const char *which, dmlconf_validation *out)
{
    uint64_t minimum;
    if (!dmlconf_tensor_min_size_bytes(desc, &minimum))
        return fail(out, DMLCONF_REASON_BUFFER_SIZE_OVERFLOW,
                    "%s's strides make its minimum buffer size overflow 64 bits", which);
    if (desc->total_size_bytes && desc->total_size_bytes < minimum)
        return fail(out, DMLCONF_REASON_TOTAL_SIZE_TOO_SMALL,
                    "%s's TotalTensorSizeInBytes is %llu but its sizes and strides need at least %llu bytes", which,
                    (unsigned long long)desc->total_size_bytes, (unsigned long long)minimum);
    return true;
}

bool dmlconf_validate(const dmlconf_scan_desc *desc, dmlconf_feature_level level, dmlconf_validation *out)
{
    const dmlconf_tensor_desc *in = &desc->input, *outt = &desc->output;
    char sizes_in[96], sizes_out[96];

    if (!dmlconf_feature_level_name(level))
        return fail(out, DMLCONF_REASON_UNKNOWN_FEATURE_LEVEL, "0x%x is not a DirectML feature level", (unsigned)level);
    const char *op_name = dmlconf_operator_name(desc->op);
    if (!op_name)
        return fail(out, DMLCONF_REASON_UNKNOWN_OPERATOR, "operator %d is not a cumulative operator", (int)desc->op);
    if (level < operator_introduced_at(desc->op))
        return fail(out, DMLCONF_REASON_OPERATOR_UNAVAILABLE, "%s was introduced at feature level %s, above %s",
                    op_name, dmlconf_feature_level_name(operator_introduced_at(desc->op)),
                    dmlconf_feature_level_name(level));
    if (desc->direction != DMLCONF_AXIS_DIRECTION_INCREASING && desc->direction != DMLCONF_AXIS_DIRECTION_DECREASING)
        return fail(out, DMLCONF_REASON_UNKNOWN_AXIS_DIRECTION,
                    "AxisDirection %d is neither INCREASING (0) nor "
                    "DECREASING (1)",
                    (int)desc->direction);

    if (in->dimension_count < 1 || in->dimension_count > DMLCONF_MAX_DIMENSIONS)
        return fail(out, DMLCONF_REASON_DIMENSION_COUNT_INVALID,
                    "InputTensor has %u dimensions; these operators take 1 to 8", in->dimension_count);
    if (outt->dimension_count < 1 || outt->dimension_count > DMLCONF_MAX_DIMENSIONS)
        return fail(out, DMLCONF_REASON_DIMENSION_COUNT_INVALID,
                    "OutputTensor has %u dimensions; these operators take 1 to 8", outt->dimension_count);
    if (in->dimension_count != outt->dimension_count)
        return fail(out, DMLCONF_REASON_DIMENSION_COUNT_MISMATCH,
                    "InputTensor has %u dimensions but OutputTensor has %u", in->dimension_count,
                    outt->dimension_count);
    if (level < DMLCONF_FEATURE_LEVEL_4_0 && in->dimension_count != 4)
        return fail(out, DMLCONF_REASON_DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL,
                    "%u-D tensors need feature level 4_0; below it %s takes exactly 4 dimensions", in->dimension_count,
                    op_name);

    if (!type_ever_supported(in->data_type))
        return fail(out, DMLCONF_REASON_DATA_TYPE_UNSUPPORTED,
                    "InputTensor's data type %s is not supported by %s at any feature level", type_name(in->data_type),
                    op_name);
    if (!type_ever_supported(outt->data_type))
        return fail(out, DMLCONF_REASON_DATA_TYPE_UNSUPPORTED,
                    "OutputTensor's data type %s is not supported by %s at any feature level",
                    type_name(outt->data_type), op_name);
    if (in->data_type != outt->data_type)
        return fail(out, DMLCONF_REASON_DATA_TYPE_MISMATCH, "InputTensor is %s but OutputTensor is %s",
                    type_name(in->data_type), type_name(outt->data_type));
    if (level < DMLCONF_FEATURE_LEVEL_5_0 && type_is_64_bit(in->data_type))
        return fail(out, DMLCONF_REASON_DATA_TYPE_UNSUPPORTED_AT_LEVEL,
                    "%s needs feature level 5_0; %s supports FLOAT32, FLOAT16, INT32 and UINT32 at %s",
                    type_name(in->data_type), op_name, dmlconf_feature_level_name(level));

    for (uint32_t d = 0; d < in->dimension_count; ++d)
    {
        if (in->sizes[d] == 0)
            return fail(out, DMLCONF_REASON_ZERO_SIZE,
                        "InputTensor's size in dimension %u is 0; sizes must be "
                        "at least 1",
                        d);
        if (outt->sizes[d] == 0)
            return fail(out, DMLCONF_REASON_ZERO_SIZE,
                        "OutputTensor's size in dimension %u is 0; sizes must be "
                        "at least 1",
                        d);
    }
    for (uint32_t d = 0; d < in->dimension_count; ++d)
    {
        if (in->sizes[d] != outt->sizes[d])
        {
            format_sizes(in, sizes_in, sizeof(sizes_in));
            format_sizes(outt, sizes_out, sizeof(sizes_out));
            return fail(out, DMLCONF_REASON_SIZES_MISMATCH, "InputTensor's sizes %s differ from OutputTensor's %s",
                        sizes_in, sizes_out);
        }
    }
    uint64_t count = dmlconf_tensor_element_count(in);
    if (count > DMLCONF_MAX_ELEMENTS)
    {
        format_sizes(in, sizes_in, sizeof(sizes_in));
        return fail(out, DMLCONF_REASON_TOO_MANY_ELEMENTS,
                    "sizes %s hold %llu elements; a tensor holds at most 4294967295", sizes_in,
                    (unsigned long long)count);
    }
    if (desc->axis >= in->dimension_count)
        return fail(out, DMLCONF_REASON_AXIS_OUT_OF_RANGE, "Axis %u is out of range for a %u-D tensor (0 to %u)",
                    desc->axis, in->dimension_count, in->dimension_count - 1);

    if (!check_tensor_size(in, "InputTensor", out) || !check_tensor_size(outt, "OutputTensor", out))
        return false;
    if (desc->in_place && !same_layout(in, outt))
        return fail(out, DMLCONF_REASON_IN_PLACE_MISMATCH,
                    "in-place execution binds the output to the input's buffer, so both tensors need the same "
                    "strides and total size");

    if (out)
    {
        out->reason = DMLCONF_REASON_NONE;
        snprintf(out->message, sizeof(out->message), "valid at feature level %s", dmlconf_feature_level_name(level));
    }
    return true;
}

dmlconf_feature_level dmlconf_min_feature_level(const dmlconf_scan_desc *desc, dmlconf_validation *why_not)
{
    size_t count;
    const dmlconf_feature_level *levels = dmlconf_feature_levels(&count);
    for (size_t i = 0; i < count; ++i)
    {
        if (dmlconf_validate(desc, levels[i], NULL))
            return levels[i];
    }
    dmlconf_validate(desc, levels[count - 1], why_not);
    return DMLCONF_FEATURE_LEVEL_NONE;
}
