/*
 * literal.c: the bracketed values of a tensor on a page.
 *
 *   [[[[2,  3,  6, 11],     // a comment runs to the end of its line
 *      [3, 11, 18, 21],
 *      [9, 15, 17, 21]]]]
 *
 * The values may spread over any number of lines, blank lines included
 * (tensors above rank 3 separate their blocks with them); nothing may follow
 * the last ']' on its line but blanks and a comment. A page's text around the
 * tensor never matters, so a tensor that is cut short (by a code fence, by
 * prose, by the end of the page) is reported as such.
 *
 * Values are separated by ',' or ';'. On a page that writes decimal commas
 * (numbers.c) a comma between two digits belongs to the number: "[0,5, 1,5]"
 * holds two values. When the values cannot be read and hold a comma between
 * two digits, a note after the error says how the page reads such commas.
 */
#include "docgen_internal.h"

#include <dmlconf/reserve.h>
#include <dmlconf/values.h>

#include <stdlib.h>
#include <string.h>

/* What may come next. */
typedef enum expect
{
    EXPECT_ITEM_OR_CLOSE,  /* after '[' */
    EXPECT_COMMA_OR_CLOSE, /* after a number or ']' */
    EXPECT_ITEM,           /* after ',' */
} expect;

typedef enum list_kind
{
    LIST_EMPTY = 0,
    LIST_NUMBERS,
    LIST_LISTS,
} list_kind;

/* An open list. */
typedef struct open_list
{
    size_t offset; /* its '[' */
    uint32_t count;
    list_kind kind;
} open_list;

/* The first list closed at one depth: every other list there must match it. */
typedef struct level
{
    bool seen;
    size_t offset;
    uint32_t count;
    list_kind kind;
} level;

typedef struct literal_parser
{
    docgen_page *page;
    const docgen_numbers *numbers;
    docgen_tensor *tensor;
    size_t start;
    open_list stack[DMLCONF_MAX_DIMENSIONS];
    uint32_t depth;
    level levels[DMLCONF_MAX_DIMENSIONS];
    size_t token_capacity;
} literal_parser;

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* True for a comma between two digits, with no blank around it. */
static bool is_digit_comma(const char *text, size_t size, size_t i)
{
    return text[i] == ',' && i > 0 && i + 1 < size && is_digit(text[i - 1]) && is_digit(text[i + 1]);
}

static bool is_delimiter(const literal_parser *p, size_t i)
{
    const char *text = p->page->text;
    size_t size = p->page->size;
    char c = text[i];
    if (c == ',')
        return !numbers_is_decimal_comma(p->numbers, text, 0, size, i);
    return page_is_blank(c) || c == '\n' || c == ';' || c == '[' || c == ']' ||
           (c == '/' && i + 1 < size && text[i + 1] == '/');
}

/* "2 ']' missing" */
static void cut_short(literal_parser *p, size_t offset, const char *where)
{
    page_error(p->page, offset, "the tensor that starts at line %u is cut short %s (%u ']' missing)",
               page_line_of(p->page, p->start), where, p->depth);
}

/* True when the text at `offset` opens or closes a Markdown code fence. */
static bool is_fence(const docgen_page *page, size_t offset)
{
    const char *text = page->text;
    return offset + 3 <= page->size && ((text[offset] == '`' && text[offset + 1] == '`' && text[offset + 2] == '`') ||
                                        (text[offset] == '~' && text[offset + 1] == '~' && text[offset + 2] == '~'));
}

static int add_token(literal_parser *p, size_t offset, size_t length)
{
    docgen_tensor *t = p->tensor;
    if (!dmlconf_reserve((void **)&t->tokens, &p->token_capacity, t->token_count + 1, sizeof(*t->tokens)))
    {
        page_error(p->page, offset, "out of memory");
        return -1;
    }
    size_t line_start = page_line_start(p->page, page_line_of(p->page, offset));
    size_t pad = 0;
    while (offset - pad > line_start && page_is_blank(p->page->text[offset - pad - 1]))
        ++pad;
    docgen_token *token = &t->tokens[t->token_count++];
    token->offset = offset;
    token->length = length;
    token->pad = pad;
    token->line_first = offset - pad == line_start;
    token->line = page_line_of(p->page, offset);
    token->column = page_column_of(p->page, offset);
    return 0;
}

/* A number, or the word that shows the tensor was cut short. */
static int parse_token(literal_parser *p, size_t offset, size_t length, expect state)
{
    const char *text = p->page->text + offset;
    size_t line_start = page_line_start(p->page, page_line_of(p->page, offset));
    bool line_first = true;
    for (size_t i = line_start; i < offset && line_first; ++i)
        line_first = page_is_blank(p->page->text[i]);

    unsigned char ignored[8];
    dmlconf_value_status status = numbers_parse(p->numbers, DMLCONF_DATA_TYPE_FLOAT64, text, length, ignored, NULL, 0);
    bool number = status == DMLCONF_VALUE_OK || status == DMLCONF_VALUE_OUT_OF_RANGE;
    const char *comma = memchr(text, ',', length);
    if (comma && !p->tensor->digit_comma)
        p->tensor->digit_comma = (size_t)(comma - p->page->text) + 1;
    int shown = length > 24 ? 24 : (int)length;
    const char *more = length > 24 ? "..." : "";
    if (!number && line_first)
    {
        /* Prose, or the next block: the brackets were never closed. */
        cut_short(p, offset, "here");
        return -1;
    }
    if (!number)
    {
        page_error(p->page, offset, "'%.*s%s' is not a number", shown, text, more);
        return -1;
    }
    if (state == EXPECT_COMMA_OR_CLOSE)
    {
        page_error(p->page, offset, "expected ',' or ']' before '%.*s%s'", shown, text, more);
        return -1;
    }
    open_list *top = &p->stack[p->depth - 1];
    if (top->kind == LIST_LISTS)
    {
        page_error(p->page, offset, "a list holds both lists and numbers");
        return -1;
    }
    top->kind = LIST_NUMBERS;
    ++top->count;
    return add_token(p, offset, length);
}

static int open_bracket(literal_parser *p, size_t offset, expect state)
{
    if (state == EXPECT_COMMA_OR_CLOSE)
    {
        page_error(p->page, offset, "expected ',' or ']' before '['");
        return -1;
    }
    if (p->depth == DMLCONF_MAX_DIMENSIONS)
    {
        page_error(p->page, offset, "lists nested deeper than %u (the most dimensions a tensor has)",
                   DMLCONF_MAX_DIMENSIONS);
        return -1;
    }
    if (p->depth)
    {
        open_list *top = &p->stack[p->depth - 1];
        if (top->kind == LIST_NUMBERS)
        {
            page_error(p->page, offset, "a list holds both numbers and lists");
            return -1;
        }
        top->kind = LIST_LISTS;
        ++top->count;
    }
    open_list *list = &p->stack[p->depth++];
    list->offset = offset;
    list->count = 0;
    list->kind = LIST_EMPTY;
    return 0;
}

static int close_bracket(literal_parser *p, size_t offset, expect state)
{
    if (state == EXPECT_ITEM)
    {
        page_error(p->page, offset, "expected a value after ','");
        return -1;
    }
    open_list *list = &p->stack[p->depth - 1];
    if (!list->count)
    {
        page_error(p->page, list->offset, "an empty list (every size of a tensor is at least 1)");
        return -1;
    }
    level *first = &p->levels[p->depth - 1];
    if (!first->seen)
    {
        first->seen = true;
        first->offset = list->offset;
        first->count = list->count;
        first->kind = list->kind;
    }
    else if (first->kind != list->kind)
    {
        page_error(p->page, list->offset, "this list holds %s, but the first list at its depth (line %u) holds %s",
                   list->kind == LIST_NUMBERS ? "numbers" : "lists", page_line_of(p->page, first->offset),
                   first->kind == LIST_NUMBERS ? "numbers" : "lists");
        return -1;
    }
    else if (first->count != list->count)
    {
        page_error(p->page, list->offset, "this list has %u item%s, but the first list at its depth (line %u) has %u",
                   list->count, list->count == 1 ? "" : "s", page_line_of(p->page, first->offset), first->count);
        return -1;
    }
    --p->depth;
    return 0;
}

/* After the last ']': blanks and a comment only, to the end of the line. */
static int check_rest_of_line(literal_parser *p, size_t offset)
{
    const char *text = p->page->text;
    while (offset < p->page->size && page_is_blank(text[offset]))
        ++offset;
    if (offset >= p->page->size || text[offset] == '\n')
        return 0;
    if (text[offset] == '/' && offset + 1 < p->page->size && text[offset + 1] == '/')
        return 0;
    if (text[offset] == ']')
        page_error(p->page, offset, "one ']' too many: the tensor that starts at line %u is already closed",
                   page_line_of(p->page, p->start));
    else
        page_error(p->page, offset, "unexpected '%c' after the tensor's closing ']' (only a // comment may follow)",
                   text[offset]);
    return -1;
}

/* The offset of the first comma between two digits in [from, to), outside
 * comments, + 1; 0 when none. */
static size_t find_digit_comma(const docgen_page *page, size_t from, size_t to)
{
    for (size_t i = from; i < to; ++i)
    {
        if (page->text[i] == '/' && i + 1 < to && page->text[i + 1] == '/')
        {
            while (i < to && page->text[i] != '\n')
                ++i;
        }
        else if (is_digit_comma(page->text, page->size, i))
            return i + 1;
    }
    return 0;
}

/* Reads the values; returns 0, or -1 after reporting the first problem, with
 * *stop the offset where reading stopped. */
static int read_literal(literal_parser *p, size_t *stop)
{
    docgen_page *page = p->page;
    docgen_tensor *tensor = p->tensor;
    const char *text = page->text;
    size_t size = page->size;
    expect state = EXPECT_ITEM;
    size_t i = p->start;
    int result = -1;

    for (;;)
    {
        if (i >= size)
        {
            cut_short(p, size, "by the end of the page");
            goto done;
        }
        char c = text[i];
        if (c == '\n')
        {
            ++i;
            size_t first = i;
            while (first < size && page_is_blank(text[first]))
                ++first;
            if (is_fence(page, first))
            {
                cut_short(p, first, "by a code fence");
                goto done;
            }
        }
        else if (page_is_blank(c))
            ++i;
        else if (c == '/' && i + 1 < size && text[i + 1] == '/')
        {
            while (i < size && text[i] != '\n')
                ++i;
        }
        else if (c == '[')
        {
            if (open_bracket(p, i, state))
                goto done;
            state = EXPECT_ITEM_OR_CLOSE;
            ++i;
        }
        else if (c == ']')
        {
            if (close_bracket(p, i, state))
                goto done;
            state = EXPECT_COMMA_OR_CLOSE;
            ++i;
            if (!p->depth)
                break;
        }
        else if (c == ',' || c == ';')
        {
            if (state != EXPECT_COMMA_OR_CLOSE)
            {
                page_error(page, i, "unexpected '%c'", c);
                goto done;
            }
            if (is_digit_comma(text, size, i) && !tensor->digit_comma)
                tensor->digit_comma = i + 1;
            state = EXPECT_ITEM;
            ++i;
        }
        else
        {
            size_t length = 1;
            while (i + length < size && !is_delimiter(p, i + length))
                ++length;
            if (parse_token(p, i, length, state))
                goto done;
            state = EXPECT_COMMA_OR_CLOSE;
            i += length;
        }
    }
    tensor->last_line = page_line_of(page, i - 1);
    result = check_rest_of_line(p, i);

done:
    *stop = i < size ? i : size;
    return result;
}

int literal_parse(docgen_page *page, size_t offset, docgen_tensor *tensor)
{
    literal_parser p = {.page = page, .numbers = &page->numbers, .tensor = tensor, .start = offset};
    tensor->first_line = page_line_of(page, offset);
    size_t stop;
    if (read_literal(&p, &stop))
    {
        /* A comma between two digits up to the end of the line where reading
         * stopped may be a decimal separator read otherwise: say how this
         * page reads them. */
        size_t comma = tensor->digit_comma;
        if (!comma)
            comma = find_digit_comma(page, offset, page_line_end(page, page_line_of(page, stop)));
        if (comma)
            numbers_note(page, comma - 1);
        return -1;
    }
    tensor->literal_rank = 0;
    while (tensor->literal_rank < DMLCONF_MAX_DIMENSIONS && p.levels[tensor->literal_rank].seen)
    {
        tensor->literal_sizes[tensor->literal_rank] = p.levels[tensor->literal_rank].count;
        ++tensor->literal_rank;
    }
    return 0;
}
