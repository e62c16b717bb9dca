/*
 * explain.c: the comments that say how an example's first outputs are made,
 * the way the reference pages write them:
 *
 *   [[[[2,  3,  6, 11],     // i.e. [2, 2+1, 2+1+3, 2+1+3+5]
 *      [3, 11, 18, 21],     //      [...                   ]
 *
 *   [[[[ 2,  1,  3,  5],   // i.e. [2,    ...]
 *      [ 5,  9, 10,  8],   //      [2+3,  ...]
 *      [14, 15, 12, 12]]]] //      [2+3+9 ...]
 */
#include "docgen_internal.h"

#include <stdlib.h>
#include <string.h>

void docgen_explain_element(dmlconf_buffer *out, dmlconf_operator op, dmlconf_data_type type, bool exclusive,
                            dmlconf_axis_direction direction, size_t n, const void *values, size_t j)
{
    docgen_numbers points = {.separator = ','};
    layout_explain_element(out, &points, op, type, exclusive, direction, n, values, j);
}

void layout_explain_element(dmlconf_buffer *out, const docgen_numbers *numbers, dmlconf_operator op,
                            dmlconf_data_type type, bool exclusive, dmlconf_axis_direction direction, size_t n,
                            const void *values, size_t j)
{
    bool product = op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    size_t element = dmlconf_value_size(type);
    const unsigned char *bytes = values;

    /* The terms are [first, last) in index order. */
    size_t first, last;
    if (direction == DMLCONF_AXIS_DIRECTION_DECREASING)
    {
        first = exclusive ? j + 1 : j;
        last = n;
    }
    else
    {
        first = 0;
        last = exclusive ? j : j + 1;
    }
    if (first >= last)
    {
        dmlconf_buffer_puts(out, product ? "1" : "0");
        return;
    }
    char text[DMLCONF_VALUE_TEXT_SIZE];
    for (size_t i = first; i < last; ++i)
    {
        numbers_format(numbers, type, bytes + i * element, text, sizeof(text));
        bool negative = text[0] == '-';
        if (i == first)
            dmlconf_buffer_puts(out, text);
        else if (!product)
        {
            /* 2+1, 2-3 */
            dmlconf_buffer_puts(out, negative ? "" : "+");
            dmlconf_buffer_puts(out, text);
        }
        else
            dmlconf_buffer_printf(out, negative ? "*(%s)" : "*%s", text);
    }
}

/* "i.e. [2, 2+1, 2+1+3, 2+1+3+5]" for row 0, "     [...                   ]"
 * for the other rows of the first 2-D slice. */
static bool explain_along_rows(dmlconf_buffer *out, const dmlconf_scan_desc *desc, const void *input, uint64_t row)
{
    const dmlconf_tensor_desc *t = &desc->input;
    uint64_t slice_rows = t->dimension_count >= 2 ? t->sizes[t->dimension_count - 2] : 1;
    if (row >= slice_rows)
        return false;
    size_t n = t->sizes[t->dimension_count - 1];
    dmlconf_buffer expression = {0};
    for (size_t j = 0; j < n; ++j)
    {
        if (j)
            dmlconf_buffer_puts(&expression, ", ");
        docgen_explain_element(&expression, desc->op, t->data_type, desc->exclusive, desc->direction, n, input, j);
    }
    if (expression.failed)
    {
        out->failed = true;
        return false;
    }
    if (row == 0)
        dmlconf_buffer_printf(out, "i.e. [%s]", expression.data);
    else
    {
        dmlconf_buffer_puts(out, "     [...");
        dmlconf_buffer_repeat(out, ' ', expression.length > 3 ? expression.length - 3 : 0);
        dmlconf_buffer_puts(out, "]");
    }
    dmlconf_buffer_free(&expression);
    return true;
}

/* "i.e. [2,    ...]", "     [2+3,  ...]", "     [2+3+9 ...]": the first
 * element of each row of the first 2-D slice, when the scan runs down the
 * rows. */
static bool explain_down_columns(dmlconf_buffer *out, const dmlconf_scan_desc *desc, const void *input, uint64_t row)
{
    const dmlconf_tensor_desc *t = &desc->input;
    size_t n = t->sizes[desc->axis];
    size_t columns = t->sizes[t->dimension_count - 1];
    if (row >= n)
        return false;
    size_t element = dmlconf_value_size(t->data_type);
    unsigned char *line = malloc(n * element);
    if (!line)
    {
        out->failed = true;
        return false;
    }
    for (size_t r = 0; r < n; ++r)
        memcpy(line + r * element, (const unsigned char *)input + r * columns * element, element);

    /* Every row's expression is padded to the widest one's, plus the comma. */
    size_t widest = 0;
    bool failed = false;
    dmlconf_buffer expression = {0};
    for (size_t r = 0; r < n; ++r)
    {
        dmlconf_buffer other = {0};
        docgen_explain_element(&other, desc->op, t->data_type, desc->exclusive, desc->direction, n, line, r);
        failed |= other.failed;
        if (other.length > widest)
            widest = other.length;
        if (r == row)
            expression = other;
        else
            dmlconf_buffer_free(&other);
    }
    free(line);
    if (failed)
    {
        dmlconf_buffer_free(&expression);
        out->failed = true;
        return false;
    }
    bool last = row + 1 == n;
    dmlconf_buffer_puts(out, row == 0 ? "i.e. [" : "     [");
    dmlconf_buffer_puts(out, expression.data);
    dmlconf_buffer_puts(out, last ? "" : ",");
    dmlconf_buffer_repeat(out, ' ', widest + 1 - expression.length - (last ? 0 : 1));
    dmlconf_buffer_puts(out, "...]");
    dmlconf_buffer_free(&expression);
    return true;
}

bool docgen_explain_row(dmlconf_buffer *out, const dmlconf_scan_desc *desc, const void *input, uint64_t row)
{
    uint32_t rank = desc->input.dimension_count;
    if (rank == 0 || rank > DMLCONF_MAX_DIMENSIONS || desc->axis >= rank)
        return false;
    if (desc->axis == rank - 1)
        return explain_along_rows(out, desc, input, row);
    if (desc->axis == rank - 2)
        return explain_down_columns(out, desc, input, row);
    return false;
}
