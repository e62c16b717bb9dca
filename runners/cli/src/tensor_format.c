/*
 * Printing tensors the way the DirectML reference pages do:
 *
 *   InputTensor: (Sizes:{1,1,3,4}, DataType:FLOAT32)
 *   [[[[2,  3,  6, 11],
 *      [3, 11, 18, 21],
 *      [9, 15, 17, 21]]]]
 *
 * The layout itself belongs to docgen (dmlconf/docgen.h), which renders and
 * checks the pages' example blocks; `show` prints through it.
 */
#include "cli.h"

#include <dmlconf/docgen.h>

/* Writes the text, or says that memory ran out. */
static void print_text(FILE *out, dmlconf_buffer *text)
{
    if (text->failed)
        fputs("(out of memory)\n", out);
    else if (text->length)
        fwrite(text->data, 1, text->length, out);
    dmlconf_buffer_free(text);
}

void cli_print_tensor_header(FILE *out, const char *name, const dmlconf_tensor_desc *desc)
{
    dmlconf_buffer text = {0};
    docgen_format_tensor_header(&text, name, desc->data_type, desc->dimension_count, desc->sizes);
    print_text(out, &text);
}

void cli_print_tensor(FILE *out, dmlconf_data_type type, uint32_t dimension_count, const uint32_t *sizes,
                         const void *values)
{
    dmlconf_buffer text = {0};
    docgen_format_tensor(&text, type, dimension_count, sizes, values);
    print_text(out, &text);
}
