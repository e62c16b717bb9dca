/*
 * tensor_layout.c: tensors in the layout of the DirectML reference pages.
 *
 *   OutputTensor: (Sizes:{1,1,3,4}, DataType:FLOAT32)
 *   [[[[2,  3,  6, 11],
 *      [3, 11, 18, 21],
 *      [9, 15, 17, 21]]]]
 *
 * One row of the last dimension per line; each column is right-aligned to
 * its widest value over the whole tensor (the rule that reproduces the pages'
 * blocks: see docgen.h for the one block that pads wider than it). A page
 * that writes decimal commas gets them, and its own separator (", " or "; ").
 */
#include "docgen_internal.h"

#include <stdlib.h>

void docgen_format_tensor_shape(dmlconf_buffer *out, dmlconf_data_type type, uint32_t rank, const uint32_t *sizes)
{
    const char *type_name = dmlconf_data_type_name(type);
    dmlconf_buffer_puts(out, "(Sizes:{");
    for (uint32_t d = 0; d < rank; ++d)
        dmlconf_buffer_printf(out, "%s%u", d ? "," : "", sizes[d]);
    dmlconf_buffer_printf(out, "}, DataType:%s)", type_name ? type_name : "UNKNOWN");
}

void docgen_format_tensor_header(dmlconf_buffer *out, const char *name, dmlconf_data_type type, uint32_t rank,
                                 const uint32_t *sizes)
{
    dmlconf_buffer_printf(out, "%s: ", name);
    docgen_format_tensor_shape(out, type, rank, sizes);
    dmlconf_buffer_puts(out, "\n");
}

void docgen_format_tensor(dmlconf_buffer *out, dmlconf_data_type type, uint32_t rank, const uint32_t *sizes,
                          const void *values)
{
    docgen_numbers points = {.separator = ','};
    layout_format_tensor(out, &points, type, rank, sizes, values);
}

void layout_format_tensor(dmlconf_buffer *out, const docgen_numbers *numbers, dmlconf_data_type type, uint32_t rank,
                          const uint32_t *sizes, const void *values)
{
    size_t element = dmlconf_value_size(type);
    uint64_t count = 1;
    for (uint32_t d = 0; d < rank; ++d)
        count *= sizes[d];
    uint32_t columns = sizes[rank - 1];
    uint64_t rows = count / columns;
    const unsigned char *bytes = values;
    char text[DMLCONF_VALUE_TEXT_SIZE];

    size_t *widths = calloc(columns, sizeof(*widths));
    if (!widths)
    {
        out->failed = true;
        return;
    }
    for (uint64_t i = 0; i < count; ++i)
    {
        size_t length = numbers_format(numbers, type, bytes + i * element, text, sizeof(text));
        if (length > widths[i % columns])
            widths[i % columns] = length;
    }

    uint32_t coordinates[DMLCONF_MAX_DIMENSIONS] = {0}; /* of the leading dimensions */
    uint32_t leading = rank - 1;
    for (uint64_t row = 0; row < rows; ++row)
    {
        if (row == 0)
            dmlconf_buffer_repeat(out, '[', rank);
        else
        {
            /* How many leading dimensions move on with this row: they close
             * and reopen, and a blank line separates blocks above the rows. */
            uint32_t restarted = 0;
            for (uint32_t d = leading; d-- > 0;)
            {
                if (++coordinates[d] < sizes[d])
                    break;
                coordinates[d] = 0;
                ++restarted;
            }
            dmlconf_buffer_repeat(out, ']', restarted);
            dmlconf_buffer_puts(out, restarted ? ",\n\n" : ",\n");
            dmlconf_buffer_repeat(out, ' ', leading - restarted);
            dmlconf_buffer_repeat(out, '[', restarted + 1);
        }
        for (uint32_t c = 0; c < columns; ++c)
        {
            size_t length = numbers_format(numbers, type, bytes + (row * columns + c) * element, text, sizeof(text));
            if (c)
            {
                dmlconf_buffer_repeat(out, numbers->separator, 1);
                dmlconf_buffer_repeat(out, ' ', 1);
            }
            dmlconf_buffer_repeat(out, ' ', widths[c] - length);
            dmlconf_buffer_puts(out, text);
        }
        dmlconf_buffer_repeat(out, ']', 1);
    }
    dmlconf_buffer_repeat(out, ']', leading);
    dmlconf_buffer_repeat(out, '\n', 1);
    free(widths);
}
