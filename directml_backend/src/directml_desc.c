/*
 * From a case's desc to DirectML's, and a batch's layout.
 */
#include "directml_desc.h"

#include <string.h>

uint64_t directml_tensor_total_bytes(const dmlconf_tensor_desc *tensor)
{
    if (tensor->total_size_bytes)
        return tensor->total_size_bytes;
    uint64_t minimum = 0;
    return dmlconf_tensor_min_size_bytes(tensor, &minimum) ? minimum : 0;
}

static void build_tensor(const dmlconf_tensor_desc *tensor, UINT *sizes, UINT *strides, DML_BUFFER_TENSOR_DESC *buffer,
                         DML_TENSOR_DESC *out)
{
    uint32_t count =
        tensor->dimension_count <= DMLCONF_MAX_DIMENSIONS ? tensor->dimension_count : DMLCONF_MAX_DIMENSIONS;
    for (uint32_t d = 0; d < count; ++d)
    {
        sizes[d] = tensor->sizes[d];
        strides[d] = tensor->strides[d];
    }
    memset(buffer, 0, sizeof(*buffer));
    buffer->DataType = (DML_TENSOR_DATA_TYPE)tensor->data_type;
    buffer->Flags = DML_TENSOR_FLAG_NONE;
    buffer->DimensionCount = tensor->dimension_count;
    buffer->Sizes = sizes;
    buffer->Strides = tensor->has_strides ? strides : NULL;
    buffer->TotalTensorSizeInBytes = directml_tensor_total_bytes(tensor);
    /* No promise about the binding offsets (they are 256-aligned, but a
     * promise would let DirectML pick kernels that other callers never
     * meet). */
    buffer->GuaranteedBaseOffsetAlignment = 0;
    out->Type = DML_TENSOR_TYPE_BUFFER;
    out->Desc = buffer;
}

void directml_desc_build(const dmlconf_scan_desc *desc, directml_desc *out)
{
    memset(out, 0, sizeof(*out));
    build_tensor(&desc->input, out->input_sizes, out->input_strides, &out->input_buffer, &out->input);
    build_tensor(&desc->output, out->output_sizes, out->output_strides, &out->output_buffer, &out->output);
    out->cumulative.InputTensor = &out->input;
    out->cumulative.OutputTensor = &out->output;
    out->cumulative.Axis = desc->axis;
    out->cumulative.AxisDirection = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING
                                        ? DML_AXIS_DIRECTION_DECREASING
                                        : DML_AXIS_DIRECTION_INCREASING;
    out->cumulative.HasExclusive = desc->exclusive ? TRUE : FALSE;
    out->op.Type = desc->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? DML_OPERATOR_CUMULATIVE_PRODUCT
                                                                   : DML_OPERATOR_CUMULATIVE_SUMMATION;
    out->op.Desc = &out->cumulative;
}

/* Rounds up to the region alignment; false on overflow. */
static bool align(uint64_t value, uint64_t *out)
{
    if (value > UINT64_MAX - (DIRECTML_REGION_ALIGNMENT - 1))
        return false;
    *out = (value + DIRECTML_REGION_ALIGNMENT - 1) / DIRECTML_REGION_ALIGNMENT * DIRECTML_REGION_ALIGNMENT;
    return true;
}

/* Places `bytes` at *at (aligned) and moves *at past them. */
static bool place(uint64_t *at, uint64_t bytes, uint64_t *offset)
{
    uint64_t rounded;
    if (!align(*at, offset) || !align(bytes, &rounded) || rounded > UINT64_MAX - *offset)
        return false;
    *at = *offset + rounded;
    return true;
}

bool directml_layout_job(const dmlconf_scan_desc *desc, uint64_t temporary_bytes, uint64_t persistent_bytes,
                         uint64_t start, directml_regions *out)
{
    memset(out, 0, sizeof(*out));
    uint64_t at = start;
    out->output_bytes = directml_tensor_total_bytes(&desc->output);
    out->input_bytes = directml_tensor_total_bytes(&desc->input);
    if (!desc->in_place && !place(&at, out->input_bytes, &out->input_offset))
        return false;
    if (!place(&at, out->output_bytes, &out->output_offset))
        return false;
    if (desc->in_place)
    {
        out->input_offset = out->output_offset;
        out->input_bytes = out->output_bytes;
    }
    out->temporary_bytes = temporary_bytes;
    if (temporary_bytes && !place(&at, temporary_bytes, &out->temporary_offset))
        return false;
    out->persistent_bytes = persistent_bytes;
    if (persistent_bytes && !place(&at, persistent_bytes, &out->persistent_offset))
        return false;
    out->end = at;
    return true;
}
