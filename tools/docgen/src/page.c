/*
 * page.c: finding the example blocks of a documentation page.
 *
 * The page is read line by line, whatever surrounds the blocks (Markdown
 * fences, plain text, prose in any language, side-by-side translations):
 *
 * - "InputTensor: (Sizes:{...}, DataType:...)" followed on the next line by
 *   bracketed values is an input; the example blocks below it use it.
 * - A line "Axis: N", "AxisDirection: ...", "HasExclusiveSum: ..." or
 *   "HasExclusiveProduct: ..." (the key, a colon and one word) starts an
 *   example block: more parameter lines and blank lines, then
 *   "OutputTensor: (...)" and its bracketed values.
 *
 * Every problem is reported with its line and column, and parsing goes on
 * with the next block.
 */
#include "docgen_internal.h"

#include <dmlconf/values.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Pages larger than this are refused. */
#define MAX_PAGE_BYTES (UINT64_C(256) << 20)
/* Snippets of longer lines show a window around the caret. */
#define SNIPPET_MAX_BYTES  160u
#define SNIPPET_SIDE_BYTES 60u

/* ---- positions ---------------------------------------------------------------- */

bool page_is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

uint32_t page_line_of(const docgen_page *page, size_t offset)
{
    if (!page->line_count)
        return 1;
    uint32_t low = 0, high = page->line_count;
    while (high - low > 1)
    {
        uint32_t middle = low + (high - low) / 2;
        if (page->line_starts[middle] <= offset)
            low = middle;
        else
            high = middle;
    }
    return low + 1;
}

size_t page_line_start(const docgen_page *page, uint32_t line)
{
    return line >= 1 && line <= page->line_count ? page->line_starts[line - 1] : page->size;
}

size_t page_line_end(const docgen_page *page, uint32_t line)
{
    if (line < 1 || line > page->line_count)
        return page->size;
    size_t start = page->line_starts[line - 1];
    size_t end = page->line_starts[line];
    if (end > start && page->text[end - 1] == '\n')
        --end;
    if (end > start && page->text[end - 1] == '\r')
        --end;
    return end;
}

uint32_t page_column_of(const docgen_page *page, size_t offset)
{
    uint32_t line = page_line_of(page, offset), column = 1;
    size_t end = page_line_end(page, line);
    for (size_t i = page_line_start(page, line); i < offset && i < end; ++i)
        column += ((unsigned char)page->text[i] & 0xc0) != 0x80;
    return column;
}

const char *docgen_page_line(const docgen_page *page, uint32_t line, size_t *length)
{
    if (line < 1 || line > page->line_count)
        return NULL;
    size_t start = page_line_start(page, line);
    *length = page_line_end(page, line) - start;
    return page->text + start;
}

/* ---- errors ------------------------------------------------------------------- */

/* The line that holds `offset` and a caret under it, each ending in '\n'
 * (a window of the line when it is long); NULL for an empty line. */
static char *make_snippet(const docgen_page *page, size_t offset)
{
    uint32_t line = page_line_of(page, offset);
    size_t start = page_line_start(page, line), end = page_line_end(page, line);
    const char *text = page->text;
    if (start >= end)
        return NULL;
    if (offset > end)
        offset = end;
    size_t from = start, to = end;
    if (end - start > SNIPPET_MAX_BYTES)
    {
        from = offset - start > SNIPPET_SIDE_BYTES ? offset - SNIPPET_SIDE_BYTES : start;
        to = end - offset > SNIPPET_SIDE_BYTES ? offset + SNIPPET_SIDE_BYTES : end;
        while (from > start && ((unsigned char)text[from] & 0xc0) == 0x80)
            --from;
        while (to < end && ((unsigned char)text[to] & 0xc0) == 0x80)
            ++to;
    }
    docgen_text snippet = {0};
    docgen_text_puts(&snippet, from > start ? "..." : "");
    for (size_t i = from; i < to; ++i)
    {
        char c = text[i];
        docgen_text_repeat(&snippet, (unsigned char)c < 0x20 && c != '\t' ? '?' : c, 1);
    }
    docgen_text_puts(&snippet, to < end ? "...\n" : "\n");
    docgen_text_puts(&snippet, from > start ? "   " : "");
    for (size_t i = from; i < offset; ++i)
    {
        if (text[i] == '\t')
            docgen_text_repeat(&snippet, '\t', 1);
        else if (((unsigned char)text[i] & 0xc0) != 0x80)
            docgen_text_repeat(&snippet, ' ', 1);
    }
    docgen_text_puts(&snippet, "^\n");
    if (snippet.failed)
    {
        docgen_text_free(&snippet);
        return NULL;
    }
    return snippet.data;
}

void page_error(docgen_page *page, size_t offset, const char *format, ...)
{
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof(message), format, args);
    va_end(args);
    dmlconf_diagnostics *list = &page->diagnostics;
    size_t before = list->count;
    dmlconf_diagnostics_add(list, DMLCONF_SEVERITY_ERROR, page->path, page_line_of(page, offset),
                            page_column_of(page, offset), "%s", message);
    if (list->count > before)
        list->items[list->count - 1].snippet = make_snippet(page, offset);
}

/* ---- lines -------------------------------------------------------------------- */

/* Offset of the first non-blank byte of the line (its end when none). */
static size_t first_non_blank(const docgen_page *page, uint32_t line)
{
    size_t i = page_line_start(page, line), end = page_line_end(page, line);
    while (i < end && page_is_blank(page->text[i]))
        ++i;
    return i;
}

static bool is_blank_line(const docgen_page *page, uint32_t line)
{
    return first_non_blank(page, line) == page_line_end(page, line);
}

/* True when the line holds only blanks and maybe a comment from `offset` on. */
static bool rest_is_empty(const docgen_page *page, uint32_t line, size_t offset)
{
    size_t end = page_line_end(page, line);
    while (offset < end && page_is_blank(page->text[offset]))
        ++offset;
    return offset == end || (offset + 1 < end && page->text[offset] == '/' && page->text[offset + 1] == '/');
}

/* When the line is "KEY:" (after blanks), the offset just after the colon;
 * else 0. */
static size_t after_key(const docgen_page *page, uint32_t line, const char *key)
{
    size_t i = first_non_blank(page, line), end = page_line_end(page, line), length = strlen(key);
    if (end - i <= length || memcmp(page->text + i, key, length) || page->text[i + length] != ':')
        return 0;
    return i + length + 1;
}

static size_t skip_blanks(const docgen_page *page, size_t offset, size_t end)
{
    while (offset < end && page_is_blank(page->text[offset]))
        ++offset;
    return offset;
}

/* When the line is a tensor header "NAME: (", the offset of the '('. */
static size_t header_paren(const docgen_page *page, uint32_t line, const char *name)
{
    size_t i = after_key(page, line, name);
    if (!i)
        return 0;
    i = skip_blanks(page, i, page_line_end(page, line));
    return i < page->size && page->text[i] == '(' ? i : 0;
}

/* Consumes `word` at *offset (after blanks). */
static bool expect_word(const docgen_page *page, size_t *offset, size_t end, const char *word)
{
    size_t i = skip_blanks(page, *offset, end), length = strlen(word);
    if (end - i < length || memcmp(page->text + i, word, length))
        return false;
    *offset = i + length;
    return true;
}

/* ---- tensors ------------------------------------------------------------------ */

/* Parses "(Sizes:{1,1,3,4}, DataType:FLOAT32)" from the '(' at `offset`. */
static int parse_header(docgen_page *page, uint32_t line, size_t offset, docgen_tensor *tensor)
{
    size_t end = page_line_end(page, line), i = offset + 1;
    const char *text = page->text;
    tensor->header_line = line;
    tensor->header_begin = offset;
    if (!expect_word(page, &i, end, "Sizes") || !expect_word(page, &i, end, ":") || !expect_word(page, &i, end, "{"))
    {
        page_error(page, skip_blanks(page, i, end), "expected 'Sizes:{' in the tensor's header");
        return -1;
    }
    tensor->rank = 0;
    for (;;)
    {
        i = skip_blanks(page, i, end);
        size_t digits = i;
        while (digits < end && text[digits] >= '0' && text[digits] <= '9')
            ++digits;
        char number[16];
        uint64_t size = 0;
        if (digits == i || digits - i >= sizeof(number))
        {
            page_error(page, i, "expected a size (an integer from 1 to 4294967295)");
            return -1;
        }
        memcpy(number, text + i, digits - i);
        number[digits - i] = '\0';
        if (dmlconf_value_parse_u64(number, 1, UINT32_MAX, &size, NULL, 0) != DMLCONF_VALUE_OK)
        {
            page_error(page, i, "size %s is out of range (1 to 4294967295)", number);
            return -1;
        }
        if (tensor->rank == DMLCONF_MAX_DIMENSIONS)
        {
            page_error(page, i, "more than %u sizes", DMLCONF_MAX_DIMENSIONS);
            return -1;
        }
        tensor->sizes[tensor->rank++] = (uint32_t)size;
        i = skip_blanks(page, digits, end);
        if (i < end && text[i] == ',')
            ++i;
        else if (i < end && text[i] == '}')
        {
            ++i;
            break;
        }
        else
        {
            page_error(page, i, "expected ',' or '}' after a size");
            return -1;
        }
    }
    if (!expect_word(page, &i, end, ",") || !expect_word(page, &i, end, "DataType") || !expect_word(page, &i, end, ":"))
    {
        page_error(page, skip_blanks(page, i, end), "expected ', DataType:' after the sizes");
        return -1;
    }
    i = skip_blanks(page, i, end);
    size_t name_end = i;
    while (name_end < end &&
           (text[name_end] == '_' || (text[name_end] >= '0' && text[name_end] <= '9') ||
            (text[name_end] >= 'A' && text[name_end] <= 'Z') || (text[name_end] >= 'a' && text[name_end] <= 'z')))
        ++name_end;
    char name[32];
    if (name_end == i || name_end - i >= sizeof(name))
    {
        page_error(page, i, "expected a data type name (FLOAT32, FLOAT16, INT32, UINT32, INT64, UINT64)");
        return -1;
    }
    memcpy(name, text + i, name_end - i);
    name[name_end - i] = '\0';
    if (!dmlconf_data_type_from_name(name, &tensor->type))
    {
        page_error(page, i, "unknown data type '%s'", name);
        return -1;
    }
    i = name_end;
    if (!expect_word(page, &i, end, ")"))
    {
        page_error(page, skip_blanks(page, i, end), "expected ')' after the data type");
        return -1;
    }
    tensor->header_end = i;
    if (!rest_is_empty(page, line, i))
    {
        page_error(page, skip_blanks(page, i, end), "unexpected text after the tensor's header");
        return -1;
    }
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
        char text[DOCGEN_MAX_TOKEN + 1];
        char why[DMLCONF_MESSAGE_SIZE];
        memcpy(text, page->text + token->offset, token->length);
        text[token->length] = '\0';
        dmlconf_value_status status =
            dmlconf_value_parse(type, text, true, (unsigned char *)tensor->values + k * element, why, sizeof(why));
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

/* When the brackets disagree with the header's shape, the offset of the
 * first list at the first depth where they differ; SIZE_MAX when they agree. */
static size_t shape_mismatch(const docgen_page *page, const docgen_tensor *tensor)
{
    bool same = tensor->literal_rank == tensor->rank;
    uint32_t depth = tensor->rank < tensor->literal_rank ? tensor->rank : tensor->literal_rank - 1;
    for (uint32_t d = 0; d < tensor->rank && d < tensor->literal_rank; ++d)
    {
        if (tensor->literal_sizes[d] != tensor->sizes[d])
        {
            same = false;
            depth = d;
            break;
        }
    }
    if (same)
        return SIZE_MAX;
    /* The first list at depth d is opened by the (d+1)-th '[' of the text. */
    size_t i = first_non_blank(page, tensor->first_line);
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

/* Parses a tensor: the header on `line` (its '(' at `paren`), the values from
 * the next line on. An input's shape must match its header and every value
 * must be one of its type. An output's values are read (as values of
 * `expected`'s type) only when its brackets have `expected`'s shape, the
 * input's (whatever its own header says); `expected` is NULL when the example
 * has no usable input. Returns 0, or -1 after an error. */
static int parse_tensor(docgen_page *page, uint32_t line, size_t paren, bool output, const docgen_tensor *expected,
                        docgen_tensor *tensor)
{
    if (parse_header(page, line, paren, tensor))
        return -1;
    if (!output && !dmlconf_data_type_is_computable(tensor->type))
    {
        page_error(page, paren,
                   "DataType %s: the cumulative operators take FLOAT32, FLOAT16, INT32, UINT32, INT64 or UINT64",
                   dmlconf_data_type_name(tensor->type));
        return -1;
    }
    size_t start = line < page->line_count ? first_non_blank(page, line + 1) : page->size;
    if (start >= page->size || page->text[start] != '[')
    {
        page_error(page, start, "expected the tensor's values ('[' ...) on the line after its header (line %u)", line);
        return -1;
    }
    if (literal_parse(page, start, tensor))
        return -1;
    if (!output)
    {
        size_t mismatch = shape_mismatch(page, tensor);
        if (mismatch != SIZE_MAX)
        {
            char header[96], literal[96];
            shape_text(header, sizeof(header), tensor->rank, tensor->sizes);
            shape_text(literal, sizeof(literal), tensor->literal_rank, tensor->literal_sizes);
            page_error(page, mismatch, "the values have the shape {%s}, but the header at line %u says {%s}", literal,
                       line, header);
            return -1;
        }
        return read_values(page, tensor, tensor->type, false);
    }
    if (expected && tensor->literal_rank == expected->rank &&
        !memcmp(tensor->literal_sizes, expected->sizes, expected->rank * sizeof(expected->sizes[0])))
        return read_values(page, tensor, expected->type, true);
    return 0;
}

static void tensor_free(docgen_tensor *tensor)
{
    free(tensor->tokens);
    free(tensor->values);
    free(tensor->value_ok);
    memset(tensor, 0, sizeof(*tensor));
}

/* ---- example blocks ----------------------------------------------------------- */

typedef enum parameter
{
    PARAMETER_NONE,
    PARAMETER_AXIS,
    PARAMETER_DIRECTION,
    PARAMETER_EXCLUSIVE_SUM,
    PARAMETER_EXCLUSIVE_PRODUCT,
} parameter;

static const char *const parameter_names[] = {"", "Axis", "AxisDirection", "HasExclusiveSum", "HasExclusiveProduct"};

/* Which parameter the line sets, with its value's word in [*value, *value_end)
 * and whether the line is strictly "KEY: WORD" (plus blanks and a comment). */
static parameter parameter_line(const docgen_page *page, uint32_t line, size_t *value, size_t *value_end, bool *strict)
{
    for (parameter p = PARAMETER_AXIS; p <= PARAMETER_EXCLUSIVE_PRODUCT; ++p)
    {
        size_t i = after_key(page, line, parameter_names[p]);
        if (!i)
            continue;
        size_t end = page_line_end(page, line);
        i = skip_blanks(page, i, end);
        size_t word = i;
        while (word < end && !page_is_blank(page->text[word]) &&
               !(page->text[word] == '/' && word + 1 < end && page->text[word + 1] == '/'))
            ++word;
        *value = i;
        *value_end = word;
        *strict = word > i && rest_is_empty(page, line, word);
        return p;
    }
    return PARAMETER_NONE;
}

/* True when [begin, end) of the page is `word`, ignoring case. */
static bool word_is(const docgen_page *page, size_t begin, size_t end, const char *word)
{
    size_t length = strlen(word);
    if (end - begin != length)
        return false;
    for (size_t i = 0; i < length; ++i)
    {
        char c = page->text[begin + i];
        if (c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        if (c != word[i])
            return false;
    }
    return true;
}

/* What an example block has read so far. */
typedef struct example_draft
{
    uint32_t seen[5]; /* the line of each parameter, 0 when absent */
    docgen_example example;
} example_draft;

static int read_parameter(docgen_page *page, uint32_t line, parameter which, size_t value, size_t value_end,
                          bool strict, example_draft *draft)
{
    int length = (int)(value_end - value > 40 ? 40 : value_end - value);
    const char *text = page->text + value;
    if (!strict)
    {
        page_error(page, value_end > value ? value_end : value,
                   "expected '%s: ' and one value, then nothing but a // comment", parameter_names[which]);
        return -1;
    }
    if (draft->seen[which])
    {
        page_error(page, first_non_blank(page, line), "%s is given twice in this example block (first at line %u)",
                   parameter_names[which], draft->seen[which]);
        return -1;
    }
    uint32_t other = which == PARAMETER_EXCLUSIVE_SUM       ? PARAMETER_EXCLUSIVE_PRODUCT
                     : which == PARAMETER_EXCLUSIVE_PRODUCT ? PARAMETER_EXCLUSIVE_SUM
                                                            : PARAMETER_NONE;
    if (other != PARAMETER_NONE && draft->seen[other])
    {
        page_error(page, first_non_blank(page, line),
                   "an example block has HasExclusiveSum or HasExclusiveProduct, not both (%s at line %u)",
                   parameter_names[other], draft->seen[other]);
        return -1;
    }
    docgen_example *e = &draft->example;
    switch (which)
    {
    case PARAMETER_AXIS:
    {
        char number[24];
        uint64_t axis = 0;
        if ((size_t)length >= sizeof(number))
            length = (int)sizeof(number) - 1;
        memcpy(number, text, (size_t)length);
        number[length] = '\0';
        if (value_end - value >= sizeof(number) ||
            dmlconf_value_parse_u64(number, 0, UINT32_MAX, &axis, NULL, 0) != DMLCONF_VALUE_OK)
        {
            page_error(page, value, "Axis must be a dimension index (0, 1, ...), not '%.*s'", length, text);
            return -1;
        }
        e->axis = (uint32_t)axis;
        e->axis_line = line;
        break;
    }
    case PARAMETER_DIRECTION:
        if (word_is(page, value, value_end, "DML_AXIS_DIRECTION_INCREASING"))
            e->direction = DMLCONF_AXIS_DIRECTION_INCREASING;
        else if (word_is(page, value, value_end, "DML_AXIS_DIRECTION_DECREASING"))
            e->direction = DMLCONF_AXIS_DIRECTION_DECREASING;
        else
        {
            page_error(
                page, value,
                "AxisDirection must be DML_AXIS_DIRECTION_INCREASING or DML_AXIS_DIRECTION_DECREASING, not '%.*s'",
                length, text);
            return -1;
        }
        break;
    default:
        if (word_is(page, value, value_end, "TRUE"))
            e->exclusive = true;
        else if (word_is(page, value, value_end, "FALSE"))
            e->exclusive = false;
        else
        {
            page_error(page, value, "%s must be TRUE or FALSE, not '%.*s'", parameter_names[which], length, text);
            return -1;
        }
        e->op = which == PARAMETER_EXCLUSIVE_SUM ? DMLCONF_OPERATOR_CUMULATIVE_SUMMATION
                                                 : DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
        break;
    }
    draft->seen[which] = line;
    return 0;
}

static int push_example(docgen_page *page, docgen_example *example)
{
    if (page->example_count == page->example_capacity)
    {
        size_t capacity = page->example_capacity ? page->example_capacity * 2 : 8;
        docgen_example *examples = realloc(page->examples, capacity * sizeof(*examples));
        if (!examples)
            return -1;
        page->examples = examples;
        page->example_capacity = capacity;
    }
    page->examples[page->example_count++] = *example;
    return 0;
}

static int push_input(docgen_page *page, docgen_tensor *input)
{
    if (page->input_count == page->input_capacity)
    {
        size_t capacity = page->input_capacity ? page->input_capacity * 2 : 4;
        docgen_tensor *inputs = realloc(page->inputs, capacity * sizeof(*inputs));
        if (!inputs)
            return -1;
        page->inputs = inputs;
        page->input_capacity = capacity;
    }
    page->inputs[page->input_count++] = *input;
    return 0;
}

/* The input that example blocks use. */
typedef enum input_state
{
    INPUT_NONE,
    INPUT_BAD, /* the last one had an error: its examples are skipped quietly */
    INPUT_OK,
} input_state;

/* Checks the finished block against the operator's rules, as DirectML would
 * at its highest feature level. */
static int validate_example(docgen_page *page, const docgen_tensor *input, const example_draft *draft)
{
    const docgen_example *e = &draft->example;
    dmlconf_scan_desc desc = {0};
    desc.op = e->op;
    desc.input.data_type = input->type;
    desc.input.dimension_count = input->rank;
    memcpy(desc.input.sizes, input->sizes, sizeof(desc.input.sizes));
    desc.output = desc.input;
    desc.axis = e->axis;
    desc.direction = e->direction;
    desc.exclusive = e->exclusive;
    dmlconf_validation why;
    if (dmlconf_min_feature_level(&desc, &why) != DMLCONF_FEATURE_LEVEL_NONE)
        return 0;
    uint32_t line = why.reason == DMLCONF_REASON_AXIS_OUT_OF_RANGE ? e->axis_line : e->line;
    size_t at = first_non_blank(page, line);
    if (why.reason == DMLCONF_REASON_AXIS_OUT_OF_RANGE)
        at = skip_blanks(page, after_key(page, line, "Axis"), page_line_end(page, line));
    page_error(page, at, "%s (input at line %u)", why.message, input->header_line);
    return -1;
}

/* Ends the example block that starts at line `start` with the OutputTensor
 * whose header is on `line` (its '(' at `paren`): checks that every
 * parameter was given and that the operator accepts them, reads the output
 * and keeps the example when all is well. Returns the line after it. */
static uint32_t finish_example(docgen_page *page, uint32_t start, uint32_t line, size_t paren, input_state state,
                               example_draft *draft, bool failed)
{
    docgen_example *e = &draft->example;
    const docgen_tensor *input = state == INPUT_OK ? &page->inputs[page->input_count - 1] : NULL;
    size_t at = first_non_blank(page, start);
    for (parameter p = PARAMETER_AXIS; p <= PARAMETER_DIRECTION && !failed; ++p)
    {
        if (!draft->seen[p])
        {
            page_error(page, at, "this example block has no %s line", parameter_names[p]);
            failed = true;
        }
    }
    if (!failed && !draft->seen[PARAMETER_EXCLUSIVE_SUM] && !draft->seen[PARAMETER_EXCLUSIVE_PRODUCT])
    {
        page_error(page, at,
                   "this example block has no HasExclusiveSum or HasExclusiveProduct line (which says the "
                   "operator)");
        failed = true;
    }
    if (!failed && state == INPUT_NONE)
    {
        page_error(page, at, "this example block has no InputTensor above it");
        failed = true;
    }
    if (!failed && input && validate_example(page, input, draft))
        failed = true;
    /* The output is read even so, to report its own errors. */
    failed |= parse_tensor(page, line, paren, true, input, &e->output) != 0;
    uint32_t next = e->output.last_line ? e->output.last_line + 1 : line + 1;
    e->input = page->input_count - 1;
    if (failed || !input)
        tensor_free(&e->output);
    else if (push_example(page, e))
    {
        page_error(page, at, "out of memory");
        tensor_free(&e->output);
    }
    return next;
}

/* Parses the example block whose first parameter line is `start`. Returns
 * the line after the block (or the line where it was cut short). */
static uint32_t parse_example(docgen_page *page, uint32_t start, input_state state)
{
    example_draft draft;
    memset(&draft, 0, sizeof(draft));
    draft.example.line = start;
    bool failed = false;
    for (uint32_t line = start;; ++line)
    {
        if (line > page->line_count)
        {
            page_error(page, page->size,
                       "the example block that starts at line %u is cut short by the end of the page (no OutputTensor)",
                       start);
            return line;
        }
        if (is_blank_line(page, line))
            continue;
        size_t value = 0, value_end = 0, paren;
        bool strict = false;
        parameter which = parameter_line(page, line, &value, &value_end, &strict);
        if (which != PARAMETER_NONE)
        {
            failed |= read_parameter(page, line, which, value, value_end, strict, &draft) != 0;
            continue;
        }
        if ((paren = header_paren(page, line, "OutputTensor")) != 0)
            return finish_example(page, start, line, paren, state, &draft, failed);

        size_t at = first_non_blank(page, line), end = page_line_end(page, line);
        int shown = (int)(end - at > 30 ? 30 : end - at);
        if (header_paren(page, line, "InputTensor"))
            page_error(page, at,
                       "the example block that starts at line %u is cut short: an InputTensor comes before "
                       "its OutputTensor",
                       start);
        else
            page_error(page, at,
                       "the example block that starts at line %u is cut short: expected a parameter line or "
                       "'OutputTensor:', found '%.*s%s'",
                       start, shown, page->text + at, end - at > 30 ? "..." : "");
        return line;
    }
}

/* Finds every block of the page. */
static void parse_page(docgen_page *page)
{
    input_state state = INPUT_NONE;
    uint32_t line = 1;
    while (line <= page->line_count)
    {
        size_t value, value_end, paren;
        bool strict = false;
        if ((paren = header_paren(page, line, "InputTensor")) != 0)
        {
            docgen_tensor input;
            memset(&input, 0, sizeof(input));
            bool failed = parse_tensor(page, line, paren, false, NULL, &input) != 0;
            if (!failed && push_input(page, &input))
            {
                page_error(page, paren, "out of memory");
                failed = true;
            }
            if (failed)
            {
                tensor_free(&input);
                state = INPUT_BAD;
                ++line;
                continue;
            }
            state = INPUT_OK;
            line = input.last_line + 1;
        }
        else if (parameter_line(page, line, &value, &value_end, &strict) != PARAMETER_NONE && strict)
            line = parse_example(page, line, state);
        else if ((paren = header_paren(page, line, "OutputTensor")) != 0)
        {
            page_error(page, first_non_blank(page, line),
                       "an OutputTensor without the parameter lines of its example block (Axis, AxisDirection, "
                       "HasExclusiveSum or HasExclusiveProduct) above it");
            ++line;
        }
        else
            ++line;
    }
}

/* ---- loading ------------------------------------------------------------------ */

static int index_lines(docgen_page *page)
{
    size_t count = 0;
    for (size_t i = 0; i < page->size; ++i)
        count += page->text[i] == '\n';
    if (page->size && page->text[page->size - 1] != '\n')
        ++count;
    if (count >= UINT32_MAX)
        return -1;
    page->line_starts = malloc((count + 1) * sizeof(*page->line_starts));
    if (!page->line_starts)
        return -1;
    size_t line = 0;
    if (page->size)
        page->line_starts[line++] = 0;
    for (size_t i = 0; i < page->size; ++i)
    {
        if (page->text[i] == '\n' && i + 1 < page->size)
            page->line_starts[line++] = i + 1;
    }
    page->line_starts[count] = page->size;
    page->line_count = (uint32_t)count;
    return 0;
}

size_t docgen_page_load_buffer(docgen_page *page, const char *path, const char *text, size_t size)
{
    memset(page, 0, sizeof(*page));
    page->path = malloc(strlen(path) + 1);
    page->text = malloc(size + 1);
    if (!page->path || !page->text)
    {
        dmlconf_diagnostics_add(&page->diagnostics, DMLCONF_SEVERITY_ERROR, path, 0, 0, "out of memory");
        return page->diagnostics.error_count;
    }
    memcpy(page->path, path, strlen(path) + 1);
    if (size)
        memcpy(page->text, text, size);
    page->text[size] = '\0';
    page->size = size;
    if (index_lines(page))
    {
        dmlconf_diagnostics_add(&page->diagnostics, DMLCONF_SEVERITY_ERROR, path, 0, 0, "out of memory");
        return page->diagnostics.error_count;
    }
    parse_page(page);
    return page->diagnostics.error_count;
}

size_t docgen_page_load(docgen_page *page, const char *path)
{
    docgen_text text = {0};
    FILE *file = fopen(path, "rb");
    if (!file)
    {
        memset(page, 0, sizeof(*page));
        dmlconf_diagnostics_add(&page->diagnostics, DMLCONF_SEVERITY_ERROR, path, 0, 0, "cannot open the page");
        return page->diagnostics.error_count;
    }
    char buffer[65536];
    size_t got;
    while ((got = fread(buffer, 1, sizeof(buffer), file)) > 0 && text.length <= MAX_PAGE_BYTES)
        docgen_text_append(&text, buffer, got);
    bool failed = ferror(file) != 0;
    fclose(file);
    const char *why = NULL;
    if (failed)
        why = "cannot read the page";
    else if (text.failed)
        why = "out of memory";
    else if (text.length > MAX_PAGE_BYTES)
        why = "the page is larger than 256 MiB";
    if (why)
    {
        docgen_text_free(&text);
        memset(page, 0, sizeof(*page));
        dmlconf_diagnostics_add(&page->diagnostics, DMLCONF_SEVERITY_ERROR, path, 0, 0, "%s", why);
        return page->diagnostics.error_count;
    }
    size_t errors = docgen_page_load_buffer(page, path, text.data ? text.data : "", text.length);
    docgen_text_free(&text);
    return errors;
}

void docgen_page_free(docgen_page *page)
{
    if (!page)
        return;
    for (size_t i = 0; i < page->input_count; ++i)
        tensor_free(&page->inputs[i]);
    for (size_t i = 0; i < page->example_count; ++i)
        tensor_free(&page->examples[i].output);
    free(page->inputs);
    free(page->examples);
    free(page->line_starts);
    free(page->text);
    free(page->path);
    dmlconf_diagnostics_free(&page->diagnostics);
    memset(page, 0, sizeof(*page));
}
