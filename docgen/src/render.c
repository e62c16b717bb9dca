/*
 * render.c: example blocks in the reference pages' layout.
 *
 *   Axis: 3
 *   AxisDirection: DML_AXIS_DIRECTION_INCREASING
 *   HasExclusiveSum: FALSE
 *
 *   OutputTensor: (Sizes:{1,1,3,4}, DataType:FLOAT32)
 *   [[[[2,  3,  6, 11],     // i.e. [2, 2+1, 2+1+3, 2+1+3+5]
 *      ...
 */
#include <dmlconf/docgen.h>
#include <dmlconf/reserve.h>

#include <stdlib.h>
#include <string.h>

/* Blanks between the widest commented line and the comments. The pages use
 * one to five; three is the most common. */
#define COMMENT_GAP 3

static void fence(dmlconf_buffer *out, const docgen_render_options *options)
{
    if (options && options->markdown)
        dmlconf_buffer_puts(out, "```\n");
}

void docgen_render_input(dmlconf_buffer *out, const dmlconf_tensor_desc *input, const void *values,
                         const docgen_render_options *options)
{
    fence(out, options);
    docgen_format_tensor_header(out, "InputTensor", input->data_type, input->dimension_count, input->sizes);
    docgen_format_tensor(out, input->data_type, input->dimension_count, input->sizes, values);
    fence(out, options);
}

/* Appends the literal `tensor` (lines ending in '\n') with the explanatory
 * comments of its first rows. */
static void append_explained(dmlconf_buffer *out, const dmlconf_buffer *tensor, const dmlconf_scan_desc *desc,
                             const void *input)
{
    /* The commented rows are the first ones, with no blank line among them. */
    size_t commented = 0, capacity = 0, widest = 0;
    dmlconf_buffer *comments = NULL;
    const char *line = tensor->data;
    const char *end = tensor->data + tensor->length;
    while (line < end)
    {
        const char *newline = memchr(line, '\n', (size_t)(end - line));
        size_t length = newline ? (size_t)(newline - line) : (size_t)(end - line);
        dmlconf_buffer comment = {0};
        if (!length || !docgen_explain_row(&comment, desc, input, commented))
        {
            out->failed |= comment.failed;
            dmlconf_buffer_free(&comment);
            break;
        }
        if (!dmlconf_reserve((void **)&comments, &capacity, commented + 1, sizeof(*comments)))
        {
            dmlconf_buffer_free(&comment);
            out->failed = true;
            break;
        }
        comments[commented++] = comment;
        if (length > widest)
            widest = length;
        line += length + 1;
    }

    line = tensor->data;
    for (size_t row = 0; row < commented; ++row)
    {
        const char *newline = memchr(line, '\n', (size_t)(end - line));
        size_t length = (size_t)(newline - line);
        dmlconf_buffer_append(out, line, length);
        dmlconf_buffer_repeat(out, ' ', widest - length + COMMENT_GAP);
        dmlconf_buffer_puts(out, "// ");
        dmlconf_buffer_append(out, comments[row].data, comments[row].length);
        dmlconf_buffer_puts(out, "\n");
        line = newline + 1;
        out->failed |= comments[row].failed;
        dmlconf_buffer_free(&comments[row]);
    }
    free(comments);
    dmlconf_buffer_append(out, line, (size_t)(end - line));
}

int docgen_render_example(dmlconf_buffer *out, const dmlconf_scan_desc *desc, const void *input,
                          const docgen_render_options *options, dmlconf_error *err)
{
    void *output = docgen_compute(desc, input, err);
    if (!output)
        return -1;
    bool product = desc->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    const dmlconf_tensor_desc *t = &desc->output;

    fence(out, options);
    dmlconf_buffer_printf(out, "Axis: %u\nAxisDirection: DML_AXIS_DIRECTION_%s\n%s: %s\n\n", desc->axis,
                          desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING ? "DECREASING" : "INCREASING",
                          product ? "HasExclusiveProduct" : "HasExclusiveSum", desc->exclusive ? "TRUE" : "FALSE");
    docgen_format_tensor_header(out, "OutputTensor", t->data_type, t->dimension_count, t->sizes);
    if (options && options->explain)
    {
        dmlconf_buffer tensor = {0};
        docgen_format_tensor(&tensor, t->data_type, t->dimension_count, t->sizes, output);
        out->failed |= tensor.failed;
        if (!tensor.failed)
            append_explained(out, &tensor, desc, input);
        dmlconf_buffer_free(&tensor);
    }
    else
        docgen_format_tensor(out, t->data_type, t->dimension_count, t->sizes, output);
    fence(out, options);
    free(output);
    return 0;
}
