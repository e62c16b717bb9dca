/*
 * The oracle's entry point for a whole strided tensor (dmlconf_compute),
 * which walks the tensor line by line, gathering each line into contiguous
 * scan order when its layout, direction or aliasing needs it
 * (dmlconf_scan_line, in scan_walk.c, computes one line).
 */
#include "line_kernels.h"

#include <stdlib.h>
#include <string.h>

/* Bytes a buffer must hold for a tensor: its declared total size or, when
 * that is 0, the minimum size. Precondition: the desc validated. */
static uint64_t required_bytes(const dmlconf_tensor_desc *desc)
{
    uint64_t minimum = 0;
    dmlconf_tensor_min_size_bytes(desc, &minimum);
    return desc->total_size_bytes > minimum ? desc->total_size_bytes : minimum;
}

static bool aligned(const void *p, size_t element)
{
    return (uintptr_t)p % element == 0;
}

static bool ranges_overlap(const void *a, size_t a_bytes, const void *b, size_t b_bytes)
{
    uintptr_t a0 = (uintptr_t)a, b0 = (uintptr_t)b;
    return a_bytes && b_bytes && a0 < b0 + b_bytes && b0 < a0 + a_bytes;
}

static int check_buffers(const dmlconf_scan_desc *desc, const void *input, size_t input_bytes, const void *output,
                         size_t output_bytes, dmlconf_error *err)
{
    dmlconf_validation validation;
    if (!dmlconf_validate(desc, DMLCONF_FEATURE_LEVEL_6_4, &validation))
    {
        oracle_set_error(err, "invalid desc (%s): %s", dmlconf_reason_name(validation.reason), validation.message);
        return -1;
    }
    if (!input || !output)
    {
        oracle_set_error(err, "%s buffer is NULL", input ? "the output" : "the input");
        return -1;
    }
    uint64_t need_in = required_bytes(&desc->input), need_out = required_bytes(&desc->output);
    if (input_bytes < need_in)
    {
        oracle_set_error(err, "the input buffer holds %zu bytes; its tensor needs %llu", input_bytes,
                         (unsigned long long)need_in);
        return -1;
    }
    if (output_bytes < need_out)
    {
        oracle_set_error(err, "the output buffer holds %zu bytes; its tensor needs %llu", output_bytes,
                         (unsigned long long)need_out);
        return -1;
    }
    if (dmlconf_tensor_self_overlaps(&desc->output))
    {
        oracle_set_error(err, "the output's strides map several elements to one location, so its value "
                              "would depend on the write order");
        return -1;
    }
    if (desc->in_place)
    {
        if (input != output)
        {
            oracle_set_error(err, "in_place is set but the output buffer is not the input buffer");
            return -1;
        }
    }
    else if (ranges_overlap(input, (size_t)need_in, output, (size_t)need_out))
    {
        oracle_set_error(err, "the input and output buffers overlap but in_place is not set");
        return -1;
    }
    return 0;
}

uint64_t dmlconf_compute_scratch_bytes(const dmlconf_scan_desc *desc, bool with_side)
{
    const dmlconf_tensor_desc *in_desc = &desc->input, *out_desc = &desc->output;
    if (desc->axis >= in_desc->dimension_count || in_desc->dimension_count > DMLCONF_MAX_DIMENSIONS ||
        dmlconf_line_count(in_desc, desc->axis) == 0)
        return 0;
    uint64_t element = dmlconf_data_type_bits(in_desc->data_type) / 8u;
    uint64_t n = in_desc->sizes[desc->axis];
    if (n <= 1)
        return 0;
    bool reversed = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING;
    /* Every line of a tensor has the same steps: the first one's say. */
    uint64_t in_step = 0, out_step = 0, logical_step = 0;
    dmlconf_line_layout(in_desc, desc->axis, 0, NULL, &in_step, NULL, &logical_step);
    dmlconf_line_layout(out_desc, desc->axis, 0, NULL, &out_step, NULL, NULL);
    /* As dmlconf_compute decides, below. */
    bool read_direct = !reversed && !desc->in_place && in_step == 1;
    bool write_direct = !reversed && out_step == 1;
    bool side_direct = !reversed && logical_step == 1;
    return (read_direct ? 0 : n * element) + (write_direct ? 0 : n * element) +
           (with_side && !side_direct ? n * (uint64_t)sizeof(dmlconf_side_data) : 0);
}

int dmlconf_compute(const dmlconf_scan_desc *desc, const void *input, size_t input_bytes, void *output,
                    size_t output_bytes, dmlconf_side_data *side, dmlconf_error *err)
{
    if (check_buffers(desc, input, input_bytes, output, output_bytes, err))
        return -1;

    const dmlconf_tensor_desc *in_desc = &desc->input, *out_desc = &desc->output;
    size_t element = dmlconf_data_type_bits(in_desc->data_type) / 8;
    size_t n = in_desc->sizes[desc->axis];
    uint64_t lines = dmlconf_line_count(in_desc, desc->axis);
    bool reversed = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING;
    const unsigned char *in_bytes = input;
    unsigned char *out_bytes = output;

    unsigned char *in_line = malloc(n * element), *out_line = malloc(n * element);
    dmlconf_side_data *side_line = side ? malloc(n * sizeof(*side_line)) : NULL;
    int result = -1;
    if (!in_line || !out_line || (side && !side_line))
    {
        oracle_set_error(err, "out of memory for a line of %zu elements", n);
        goto done;
    }

    for (uint64_t line = 0; line < lines; ++line)
    {
        uint64_t in_first, in_step, out_first, out_step, logical_first, logical_step;
        dmlconf_line_layout(in_desc, desc->axis, line, &in_first, &in_step, &logical_first, &logical_step);
        dmlconf_line_layout(out_desc, desc->axis, line, &out_first, &out_step, NULL, NULL);

        /* Contiguous, increasing lines are read and written where they are;
         * others are gathered into scan order. In place, the input is always
         * gathered first, so every input is read before any output of the
         * line is written (the kernels never see overlapping buffers). */
        const unsigned char *source_line = in_bytes + in_first * element;
        unsigned char *target_line = out_bytes + out_first * element;
        dmlconf_side_data *side_target = side ? side + logical_first : NULL;
        bool read_direct = !reversed && !desc->in_place && (in_step == 1 || n == 1) && aligned(source_line, element);
        bool write_direct = !reversed && (out_step == 1 || n == 1) && aligned(target_line, element);
        bool side_direct = !reversed && (logical_step == 1 || n == 1);
        if (!read_direct)
        {
            for (size_t j = 0; j < n; ++j)
            {
                size_t source = reversed ? n - 1 - j : j;
                memcpy(in_line + j * element, in_bytes + (in_first + source * in_step) * element, element);
            }
            source_line = in_line;
        }
        if (dmlconf_scan_line(desc->op, in_desc->data_type, desc->exclusive, n, source_line,
                              write_direct ? target_line : out_line, side && side_direct ? side_target : side_line,
                              err))
            goto done;
        for (size_t j = 0; j < n && !write_direct; ++j)
        {
            size_t target = reversed ? n - 1 - j : j;
            memcpy(out_bytes + (out_first + target * out_step) * element, out_line + j * element, element);
        }
        for (size_t j = 0; side && !side_direct && j < n; ++j)
        {
            size_t target = reversed ? n - 1 - j : j;
            side[logical_first + target * logical_step] = side_line[j];
        }
    }
    result = 0;

done:
    free(in_line);
    free(out_line);
    free(side_line);
    return result;
}
