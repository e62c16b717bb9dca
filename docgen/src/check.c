/*
 * check.c: an example block against the oracle. The block's own input (the
 * InputTensor above it) and parameters go through the oracle; its output must
 * hold the same values, in the input's shape and type, and its explanatory
 * comments the same arithmetic (comment.c).
 */
#include "docgen_internal.h"

#include <dmlconf/values.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t load_bits(const unsigned char *element, size_t size)
{
    uint64_t bits = 0;
    for (size_t i = 0; i < size; ++i)
        bits |= (uint64_t)element[i] << (8u * i);
    return bits;
}

static bool is_nan(dmlconf_data_type type, const unsigned char *element)
{
    if (type == DMLCONF_DATA_TYPE_FLOAT32)
    {
        uint64_t bits = load_bits(element, 4);
        return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu);
    }
    if (type == DMLCONF_DATA_TYPE_FLOAT16)
    {
        uint64_t bits = load_bits(element, 2);
        return (bits & 0x7c00u) == 0x7c00u && (bits & 0x03ffu);
    }
    return false;
}

bool check_same_value(dmlconf_data_type type, const unsigned char *a, const unsigned char *b)
{
    size_t size = dmlconf_value_size(type);
    return !memcmp(a, b, size) || (is_nan(type, a) && is_nan(type, b));
}

/* "(Sizes:{1,1,3,4}, DataType:FLOAT32)" */
static void header_text(char *buffer, size_t size, dmlconf_data_type type, uint32_t rank, const uint32_t *sizes)
{
    dmlconf_buffer text = {0};
    docgen_format_tensor_shape(&text, type, rank, sizes);
    snprintf(buffer, size, "%s", text.failed ? "?" : text.data);
    dmlconf_buffer_free(&text);
}

/* "[0,0,2,1]" */
static void coordinates_text(char *buffer, size_t size, uint32_t rank, const uint32_t *sizes, uint64_t index)
{
    uint32_t coordinates[DMLCONF_MAX_DIMENSIONS];
    for (uint32_t d = rank; d-- > 0;)
    {
        coordinates[d] = (uint32_t)(index % sizes[d]);
        index /= sizes[d];
    }
    size_t used = (size_t)snprintf(buffer, size, "[");
    for (uint32_t d = 0; d < rank && used < size; ++d)
        used += (size_t)snprintf(buffer + used, size - used, "%s%u", d ? "," : "", coordinates[d]);
    if (used < size)
        snprintf(buffer + used, size - used, "]");
}

/* Compares values; fills the verdict's counts, first difference and summary. */
static void compare(const docgen_page *page, const docgen_example *e, const docgen_tensor *input,
                    const unsigned char *expected, docgen_verdict *verdict)
{
    const docgen_tensor *output = &e->output;
    size_t element = dmlconf_value_size(input->type);
    for (size_t k = 0; k < output->token_count; ++k)
    {
        const unsigned char *page_value = (const unsigned char *)output->values + k * element;
        if (output->value_ok[k] && check_same_value(input->type, page_value, expected + k * element))
            continue;
        if (!verdict->differing++)
        {
            const docgen_token *token = &output->tokens[k];
            char where[96], oracle[DMLCONF_VALUE_TEXT_SIZE];
            coordinates_text(where, sizeof(where), input->rank, input->sizes, k);
            numbers_format(&page->numbers, input->type, expected + k * element, oracle, sizeof(oracle));
            int shown = token->length > 40 ? 40 : (int)token->length;
            snprintf(verdict->summary, sizeof(verdict->summary),
                     "element %s is %.*s on the page, the oracle computes %s", where, shown, page->text + token->offset,
                     oracle);
            verdict->line = token->line;
            verdict->column = token->column;
        }
    }
}

bool check_header_matches(const docgen_tensor *output, const docgen_tensor *input)
{
    return output->type == input->type && output->rank == input->rank &&
           !memcmp(output->sizes, input->sizes, input->rank * sizeof(input->sizes[0]));
}

int docgen_check_example(const docgen_page *page, size_t index, docgen_verdict *verdict, dmlconf_error *err)
{
    memset(verdict, 0, sizeof(*verdict));
    const docgen_example *e = &page->examples[index];
    const docgen_tensor *input = &page->inputs[e->input];
    const docgen_tensor *output = &e->output;

    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = e->op;
    desc.input.data_type = input->type;
    desc.input.dimension_count = input->rank;
    memcpy(desc.input.sizes, input->sizes, sizeof(desc.input.sizes));
    desc.output = desc.input;
    desc.axis = e->axis;
    desc.direction = e->direction;
    desc.exclusive = e->exclusive;
    unsigned char *expected = docgen_compute(&desc, input->values, err);
    if (!expected)
        return -1;
    verdict->value_count = input->token_count;

    bool header_matches = check_header_matches(output, input);
    if (output->values)
        compare(page, e, input, expected, verdict);
    else
    {
        /* The brackets do not have the input's shape: all of it is new. */
        verdict->differing = verdict->value_count;
        verdict->line = output->first_line;
        verdict->column = page_column_of(page, page_line_start(page, output->first_line));
        snprintf(verdict->summary, sizeof(verdict->summary), "the output's values are not in the input's shape");
    }
    if (!header_matches)
    {
        /* The header comes first on the page: it is the first difference. */
        char page_header[160], input_header[160];
        header_text(page_header, sizeof(page_header), output->type, output->rank, output->sizes);
        header_text(input_header, sizeof(input_header), input->type, input->rank, input->sizes);
        verdict->line = output->header_line;
        verdict->column = page_column_of(page, output->header_begin);
        snprintf(verdict->summary, sizeof(verdict->summary), "the OutputTensor is %.100s, the InputTensor %.100s",
                 page_header, input_header);
    }
    /* The explanatory comments, when the numbers are where they belong. */
    if (output->values)
    {
        comment_fixes fixes;
        if (comment_check(page, index, expected, NULL, &fixes))
        {
            if (err)
                snprintf(err->message, sizeof(err->message), "out of memory");
            free(expected);
            return -1;
        }
        verdict->stale_comments = fixes.stale;
        if (fixes.stale && !verdict->differing && header_matches)
        {
            verdict->line = fixes.line;
            verdict->column = fixes.column;
            snprintf(verdict->summary, sizeof(verdict->summary), "%s", fixes.summary);
        }
        comment_fixes_free(&fixes);
    }
    verdict->stale = verdict->differing != 0 || !header_matches || verdict->stale_comments != 0;
    int result = 0;
    if (verdict->stale && docgen_rewrite_output(page, index, expected, verdict))
    {
        if (err)
            snprintf(err->message, sizeof(err->message), "out of memory");
        result = -1;
    }
    free(expected);
    return result;
}

void docgen_verdict_free(docgen_verdict *verdict)
{
    if (!verdict)
        return;
    free(verdict->replacement);
    memset(verdict, 0, sizeof(*verdict));
}
