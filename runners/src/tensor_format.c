/*
 * Printing tensors the way the DirectML reference pages do:
 *
 *   InputTensor: (Sizes:{1,1,3,4}, DataType:FLOAT32)
 *   [[[[2,  3,  6, 11],
 *      [3, 11, 18, 21],
 *      [9, 15, 17, 21]]]]
 */
#include "runner.h"

#include <dmlconf/values.h>

#include <stdlib.h>
#include <string.h>

#define VALUE_TEXT 64

void runner_print_tensor_header(FILE *out, const char *name, const dmlconf_tensor_desc *desc)
{
    fprintf(out, "%s: (Sizes:{", name);
    for (uint32_t d = 0; d < desc->dimension_count; ++d)
        fprintf(out, "%s%u", d ? "," : "", desc->sizes[d]);
    fprintf(out, "}, DataType:%s)\n", dmlconf_data_type_name(desc->data_type));
}

void runner_print_tensor(FILE *out, dmlconf_data_type type, uint32_t dimension_count, const uint32_t *sizes,
                         const void *values)
{
    size_t element = dmlconf_value_size(type);
    uint64_t count = 1;
    for (uint32_t d = 0; d < dimension_count; ++d)
        count *= sizes[d];
    uint32_t columns = sizes[dimension_count - 1];
    uint64_t rows = count / columns;
    const unsigned char *bytes = values;

    /* Each column's width is its widest value's. */
    size_t *widths = calloc(columns, sizeof(*widths));
    if (!widths)
        return;
    char text[VALUE_TEXT];
    for (uint64_t i = 0; i < count; ++i)
    {
        size_t length = dmlconf_value_format(type, bytes + i * element, DMLCONF_VALUE_STYLE_SHORTEST, text,
                                             sizeof(text));
        if (length > widths[i % columns])
            widths[i % columns] = length;
    }

    uint32_t coordinates[DMLCONF_MAX_DIMENSIONS] = {0}; /* of the leading dimensions */
    uint32_t leading = dimension_count - 1;
    for (uint64_t row = 0; row < rows; ++row)
    {
        /* How many leading dimensions start a new block with this row. */
        uint32_t restarted = 0;
        if (row > 0)
        {
            for (uint32_t d = leading; d-- > 0;)
            {
                if (++coordinates[d] < sizes[d])
                    break;
                coordinates[d] = 0;
                ++restarted;
            }
            for (uint32_t i = 0; i < restarted; ++i)
                fputc(']', out);
            fputs(restarted ? ",\n\n" : ",\n", out);
            for (uint32_t i = 0; i < leading - restarted; ++i)
                fputc(' ', out);
            for (uint32_t i = 0; i <= restarted; ++i)
                fputc('[', out);
        }
        else
        {
            for (uint32_t i = 0; i < dimension_count; ++i)
                fputc('[', out);
        }
        for (uint32_t c = 0; c < columns; ++c)
        {
            uint64_t index = row * columns + c;
            size_t length = dmlconf_value_format(type, bytes + index * element, DMLCONF_VALUE_STYLE_SHORTEST, text,
                                                 sizeof(text));
            fprintf(out, "%s%*s%s", c ? ", " : "", (int)(widths[c] - length), "", text);
        }
        fputc(']', out);
    }
    for (uint32_t i = 0; i < leading; ++i)
        fputc(']', out);
    fputc('\n', out);
    free(widths);
}
