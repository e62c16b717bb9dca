/*
 * tensor.c: one tensor of a page, its header and its bracketed values.
 *
 *   OutputTensor: (Sizes:{1,1,3,4}, DataType:FLOAT32)
 *   [[[[2,  3,  6, 11],
 *      [3, 11, 18, 21],
 *      [9, 15, 17, 21]]]]
 *
 * The header's shape is "(LABEL:{sizes}, LABEL:TYPE)": the labels are
 * Sizes and DataType on the reference pages and any word on a page that
 * translates them ("(Größen:{4}, Datentyp:FLOAT32)"); the sizes and the data
 * type name are what matters. A rewrite keeps the labels.
 */
#include <dmlconf/compiler.h>
#include "docgen_internal.h"

#include <dmlconf/values.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t skip_blanks(const docgen_page *page, size_t offset, size_t end)
{
    while (offset < end && page_is_blank(page->text[offset]))
        ++offset;
    return offset;
}

/* A label: letters (any script), digits and '_', a letter first. */
static size_t skip_label(const docgen_page *page, size_t offset, size_t end)
{
    const char *text = page->text;
    size_t i = offset;
    while (i < end && (((unsigned char)text[i] >= 0x80) || (text[i] >= 'a' && text[i] <= 'z') ||
                       (text[i] >= 'A' && text[i] <= 'Z') || (i > offset && text[i] >= '0' && text[i] <= '9') ||
                       (i > offset && text[i] == '_')))
        ++i;
    return i;
}

/* Consumes the character `c` at *offset (after blanks). */
static bool expect_char(const docgen_page *page, size_t *offset, size_t end, char c)
{
    size_t i = skip_blanks(page, *offset, end);
    if (i == end || page->text[i] != c)
        return false;
    *offset = i + 1;
    return true;
}

/* Consumes "LABEL:" at *offset (after blanks). */
static bool expect_label(const docgen_page *page, size_t *offset, size_t end)
{
    size_t i = skip_blanks(page, *offset, end), label_end = skip_label(page, i, end);
    if (label_end == i)
        return false;
    *offset = label_end;
    return expect_char(page, offset, end, ':');
}

static int problem(header_problem *p, size_t offset, const char *format, ...)
    DMLCONF_PRINTF_LIKE(3, 4)
    ;

static int problem(header_problem *p, size_t offset, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    p->offset = offset;
    vsnprintf(p->message, sizeof(p->message), format, args);
    va_end(args);
    return -1;
}

/* The sizes "1,1,3,4" from *offset to the '}' (consumed). */
static int parse_sizes(const docgen_page *page, size_t *offset, size_t end, docgen_tensor *tensor, header_problem *p)
{
    const char *text = page->text;
    size_t i = *offset;
    tensor->rank = 0;
    tensor->sizes_begin = i;
    for (;;)
    {
        i = skip_blanks(page, i, end);
        size_t digits = i;
        while (digits < end && text[digits] >= '0' && text[digits] <= '9')
            ++digits;
        char number[16];
        uint64_t size = 0;
        if (digits == i || digits - i >= sizeof(number))
            return problem(p, i, "expected a size (an integer from 1 to 4294967295)");
        memcpy(number, text + i, digits - i);
        number[digits - i] = '\0';
        if (dmlconf_value_parse_u64(number, 1, UINT32_MAX, &size, NULL, 0) != DMLCONF_VALUE_OK)
            return problem(p, i, "size %s is out of range (1 to 4294967295)", number);
        if (tensor->rank == DMLCONF_MAX_DIMENSIONS)
            return problem(p, i, "more than %u sizes", DMLCONF_MAX_DIMENSIONS);
        tensor->sizes[tensor->rank++] = (uint32_t)size;
        i = skip_blanks(page, digits, end);
        if (i < end && text[i] == ',')
            ++i;
        else if (i < end && text[i] == '}')
        {
            tensor->sizes_end = i;
            *offset = i + 1;
            return 0;
        }
        else
            return problem(p, i, "expected ',' or '}' after a size");
    }
}

int tensor_parse_header(const docgen_page *page, uint32_t line, size_t offset, docgen_tensor *tensor, header_problem *p)
{
    size_t end = page_line_end(page, line), i = offset + 1;
    const char *text = page->text;
    tensor->header_line = line;
    tensor->header_begin = offset;
    if (!expect_label(page, &i, end) || !expect_char(page, &i, end, '{'))
        return problem(p, skip_blanks(page, i, end), "expected 'Sizes:{' in the tensor's header");
    if (parse_sizes(page, &i, end, tensor, p))
        return -1;
    if (!expect_char(page, &i, end, ',') || !expect_label(page, &i, end))
        return problem(p, skip_blanks(page, i, end), "expected ', DataType:' after the sizes");
    i = skip_blanks(page, i, end);
    size_t name_end = i;
    while (name_end < end &&
           (text[name_end] == '_' || (text[name_end] >= '0' && text[name_end] <= '9') ||
            (text[name_end] >= 'A' && text[name_end] <= 'Z') || (text[name_end] >= 'a' && text[name_end] <= 'z')))
        ++name_end;
    char name[32];
    if (name_end == i || name_end - i >= sizeof(name))
        return problem(p, i, "expected a data type name (FLOAT32, FLOAT16, INT32, UINT32, INT64, UINT64)");
    memcpy(name, text + i, name_end - i);
    name[name_end - i] = '\0';
    if (!dmlconf_data_type_from_name(name, &tensor->type))
        return problem(p, i, "unknown data type '%s'", name);
    tensor->type_begin = i;
    tensor->type_end = name_end;
    i = name_end;
    if (!expect_char(page, &i, end, ')'))
        return problem(p, skip_blanks(page, i, end), "expected ')' after the data type");
    tensor->header_end = i;
    i = skip_blanks(page, i, end);
    if (i < end && !(text[i] == '/' && i + 1 < end && text[i + 1] == '/'))
        return problem(p, i, "unexpected text after the tensor's header");
    return 0;
}

/* Reads the tokens as values of `type` into tensor->values. For an input,
 * a token that is not such a value is an error; for an output it is only
 * marked in value_ok. */
static int read_values(docgen_page *page, docgen_tensor *tensor, dmlconf_data_type type, bool output)
{
    size_t element = dmlconf_value_size(type);
    size_t count = tensor->token_count;
    tensor->values = calloc(count ? count : 1, element);
    if (output)
        tensor->value_ok = calloc(count ? count : 1, sizeof(bool));
    if (!tensor->values || (output && !tensor->value_ok))
    {
        page_error(page, tensor->tokens ? tensor->tokens[0].offset : 0, "out of memory");
        return -1;
    }
    for (size_t k = 0; k < count; ++k)
    {
        const docgen_token *token = &tensor->tokens[k];
        char why[DMLCONF_MESSAGE_SIZE];
        dmlconf_value_status status = numbers_parse(&page->numbers, type, page->text + token->offset, token->length,
                                                    (unsigned char *)tensor->values + k * element, why, sizeof(why));
        if (output)
            tensor->value_ok[k] = status == DMLCONF_VALUE_OK;
        else if (status != DMLCONF_VALUE_OK)
        {
            page_error(page, token->offset, "%s", why);
            return -1;
        }
    }
    return 0;
}

/* When the brackets disagree with `sizes`, the offset of the first list at
 * the first depth where they differ; SIZE_MAX when they agree. */
static size_t shape_mismatch(const docgen_page *page, const docgen_tensor *tensor, uint32_t rank, const uint32_t *sizes)
{
    bool same = tensor->literal_rank == rank;
    uint32_t depth = rank < tensor->literal_rank ? rank : tensor->literal_rank - 1;
    for (uint32_t d = 0; d < rank && d < tensor->literal_rank; ++d)
    {
        if (tensor->literal_sizes[d] != sizes[d])
        {
            same = false;
            depth = d;
            break;
        }
    }
    if (same)
        return SIZE_MAX;
    /* The first list at depth d is opened by the (d+1)-th '[' of the text. */
    size_t i = page_line_start(page, tensor->first_line);
    uint32_t opened = 0;
    for (; i < page->size; ++i)
    {
        if (page->text[i] == '/' && i + 1 < page->size && page->text[i + 1] == '/')
        {
            while (i + 1 < page->size && page->text[i + 1] != '\n')
                ++i;
        }
        else if (page->text[i] == '[' && opened++ == depth)
            break;
    }
    return i;
}

static void shape_text(char *buffer, size_t size, uint32_t rank, const uint32_t *sizes)
{
    size_t used = 0;
    buffer[0] = '\0';
    for (uint32_t d = 0; d < rank && used < size; ++d)
        used += (size_t)snprintf(buffer + used, size - used, "%s%u", d ? "," : "", sizes[d]);
}

/* Reports that the brackets do not have the shape {sizes}, with a note on
 * the page's decimal separator when the values write a comma between two
 * digits. */
static void report_shape(docgen_page *page, const docgen_tensor *tensor, size_t at, uint32_t rank,
                         const uint32_t *sizes, const char *whose, uint32_t line)
{
    char header[96], literal[96];
    shape_text(header, sizeof(header), rank, sizes);
    shape_text(literal, sizeof(literal), tensor->literal_rank, tensor->literal_sizes);
    page_error(page, at, "the values have the shape {%s}, but %s at line %u says {%s}", literal, whose, line, header);
    if (tensor->digit_comma)
        numbers_note(page, tensor->digit_comma - 1);
}

int tensor_parse(docgen_page *page, uint32_t line, size_t paren, bool output, const docgen_tensor *expected,
                 docgen_tensor *tensor)
{
    header_problem p;
    if (tensor_parse_header(page, line, paren, tensor, &p))
    {
        page_error(page, p.offset, "%s", p.message);
        return -1;
    }
    if (!output && !dmlconf_data_type_is_computable(tensor->type))
    {
        page_error(page, paren,
                   "DataType %s: the cumulative operators take FLOAT32, FLOAT16, INT32, UINT32, INT64 or UINT64",
                   dmlconf_data_type_name(tensor->type));
        return -1;
    }
    size_t start = page->size;
    if (line < page->line_count)
        start = skip_blanks(page, page_line_start(page, line + 1), page_line_end(page, line + 1));
    if (start >= page->size || page->text[start] != '[')
    {
        page_error(page, start, "expected the tensor's values ('[' ...) on the line after its header (line %u)", line);
        return -1;
    }
    if (literal_parse(page, start, tensor))
        return -1;
    if (!output)
    {
        size_t mismatch = shape_mismatch(page, tensor, tensor->rank, tensor->sizes);
        if (mismatch != SIZE_MAX)
        {
            report_shape(page, tensor, mismatch, tensor->rank, tensor->sizes, "the header", line);
            return -1;
        }
        return read_values(page, tensor, tensor->type, false);
    }
    if (!expected)
        return 0;
    size_t mismatch = shape_mismatch(page, tensor, expected->rank, expected->sizes);
    if (mismatch == SIZE_MAX)
        return read_values(page, tensor, expected->type, true);
    /* Another shape is an output to write anew, unless the page reads commas
     * as separators and one sits between two digits: then the shape may come
     * from a decimal comma read as a separator. */
    if (tensor->digit_comma && !page->numbers.decimal_comma)
    {
        report_shape(page, tensor, mismatch, expected->rank, expected->sizes, "the InputTensor", expected->header_line);
        return -1;
    }
    return 0;
}

void tensor_free(docgen_tensor *tensor)
{
    free(tensor->tokens);
    free(tensor->values);
    free(tensor->value_ok);
    memset(tensor, 0, sizeof(*tensor));
}
