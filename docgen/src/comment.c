/*
 * comment.c: the explanatory comments of an output, checked against the
 * oracle and rewritten.
 *
 *   [[[[2,  3,  6, 11],     // i.e. [2, 2+1, 2+1+3, 2+1+3+5]
 *      [3, 11, 18, 21],     //      [...                   ]
 *   [[[[ 2,  1,  3,  5],   // i.e. [2,    ...]
 *      [ 5,  9, 10,  8],   //      [2+3,  ...]
 *   [9, 8, 5]              // d.h. 1+3+5
 *
 * A comment is an explanation when, after an optional word or two ("i.e.",
 * "d.h.", "c.-à-d.", "es decir"), it holds nothing but arithmetic: a list in
 * brackets of expressions and "..." placeholders, or expressions separated
 * by commas. An expression is terms joined by + and - (a sum) or by * (a
 * product; negative factors may be parenthesised), optionally with "= N" on
 * either side. Any other comment is prose, and left alone.
 *
 * An explanation speaks of the row of the last dimension on its line: the
 * items of a list (and the expressions of a bare comment) explain the row's
 * elements from its first on; a single bare expression explains the element
 * whose terms it has, or else the one with as many terms. An item is right
 * when its terms are the inputs the oracle combines for that element, in
 * index order or reversed, with the operator of the block (a single number
 * may also be the element's value), and its "= N" is the element's value.
 *
 * A wrong item is rewritten in the layout of docgen_explain_element, in the
 * page's decimal separator. Lists whose closing brackets were aligned (the
 * "[...   ]" placeholders under the first row, the "...]" of a column) stay
 * aligned: the blanks before the closing part are set so that the longest
 * line keeps the group's smallest padding.
 */
#include "docgen_internal.h"

#include <dmlconf/reserve.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Markers of at most this many bytes and words introduce an explanation. */
#define MAX_MARKER_BYTES 32u
#define MAX_MARKER_WORDS 3u

typedef struct term
{
    size_t begin, end; /* the number, sign included */
    bool negate;       /* written after a '-' of a sum */
} term;

typedef struct item
{
    size_t begin, end; /* trimmed */
    bool placeholder;
    size_t expr_begin, expr_end;
    size_t result_begin, result_end; /* result_end 0: no "= N" */
    char kind;                       /* '+', '*', or 0 for a single term */
    size_t first_term, term_count;
} item;

typedef struct explanation
{
    bool list;
    size_t close; /* the list's ']' */
    item *items;
    size_t count, capacity;
    term *terms;
    size_t term_count, term_capacity;
} explanation;

static void explanation_free(explanation *x)
{
    free(x->items);
    free(x->terms);
    memset(x, 0, sizeof(*x));
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static size_t skip_blanks(const char *text, size_t i, size_t end)
{
    while (i < end && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'))
        ++i;
    return i;
}

/* ---- parsing ------------------------------------------------------------------ */

/* A number at i (sign included): digits with a decimal separator and an
 * exponent, or inf/nan. Returns its end, or i when there is none. */
static size_t scan_number(const docgen_page *page, size_t i, size_t end)
{
    const char *text = page->text;
    size_t j = i;
    if (j < end && (text[j] == '-' || text[j] == '+'))
        ++j;
    if (j < end && is_letter(text[j]))
    {
        size_t k = j;
        while (k < end && is_letter(text[k]))
            ++k;
        bool special = (k - j == 3 && (!strncmp(text + j, "inf", 3) || !strncmp(text + j, "nan", 3) ||
                                       !strncmp(text + j, "INF", 3) || !strncmp(text + j, "NaN", 3)));
        return special ? k : i;
    }
    size_t digits = j;
    while (j < end && is_digit(text[j]))
        ++j;
    if (j == digits)
        return i;
    if (j + 1 < end && is_digit(text[j + 1]) &&
        (text[j] == '.' || numbers_is_decimal_comma(&page->numbers, text, 0, end, j)))
    {
        j += 2;
        while (j < end && is_digit(text[j]))
            ++j;
    }
    if (j + 1 < end && (text[j] == 'e' || text[j] == 'E'))
    {
        size_t k = j + 1;
        if (k < end && (text[k] == '-' || text[k] == '+'))
            ++k;
        if (k < end && is_digit(text[k]))
        {
            while (k < end && is_digit(text[k]))
                ++k;
            j = k;
        }
    }
    return j;
}

/* An operator at i: '+', '-', '*', or the multiplication signs × and ·.
 * Returns its length (0: none) and its kind in *kind. */
static size_t scan_operator(const char *text, size_t i, size_t end, char *kind, bool *negate)
{
    *negate = false;
    if (i < end && (text[i] == '+' || text[i] == '-'))
    {
        *kind = '+';
        *negate = text[i] == '-';
        return 1;
    }
    if (i < end && text[i] == '*')
    {
        *kind = '*';
        return 1;
    }
    if (i + 1 < end && ((text[i] == '\xc3' && text[i + 1] == '\x97') || (text[i] == '\xc2' && text[i + 1] == '\xb7')))
    {
        *kind = '*';
        return 2;
    }
    return 0;
}

static bool push_term(explanation *x, size_t begin, size_t end, bool negate)
{
    if (!dmlconf_reserve((void **)&x->terms, &x->term_capacity, x->term_count + 1, sizeof(*x->terms)))
        return false;
    x->terms[x->term_count++] = (term){begin, end, negate};
    return true;
}

/* Parses the terms of [i, end) as one expression into `it`. Returns false
 * when it is not one (or memory runs out: `failed`). */
static bool parse_expression(const docgen_page *page, size_t i, size_t end, explanation *x, item *it, bool *failed)
{
    const char *text = page->text;
    it->expr_begin = i;
    it->first_term = x->term_count;
    it->kind = 0;
    bool negate = false;
    for (;;)
    {
        i = skip_blanks(text, i, end);
        bool parenthesised = i < end && text[i] == '(';
        size_t number = parenthesised ? skip_blanks(text, i + 1, end) : i;
        size_t number_end = scan_number(page, number, end);
        if (number_end == number)
            return false;
        if (!push_term(x, number, number_end, negate))
        {
            *failed = true;
            return false;
        }
        i = skip_blanks(text, number_end, end);
        if (parenthesised)
        {
            if (i == end || text[i] != ')')
                return false;
            i = skip_blanks(text, i + 1, end);
        }
        it->expr_end = i;
        while (it->expr_end > it->expr_begin && (text[it->expr_end - 1] == ' ' || text[it->expr_end - 1] == '\t'))
            --it->expr_end;
        if (i == end)
            break;
        char kind;
        size_t length = scan_operator(text, i, end, &kind, &negate);
        if (!length || (it->kind && it->kind != kind))
            return false;
        it->kind = kind;
        i += length;
    }
    it->term_count = x->term_count - it->first_term;
    if (it->term_count == 1)
        it->kind = 0;
    return true;
}

/* Parses one item [begin, end) (trimmed): "...", or an expression with an
 * optional "= N" on either side. */
static bool parse_item(const docgen_page *page, size_t begin, size_t end, explanation *x, item *it, bool *failed)
{
    const char *text = page->text;
    memset(it, 0, sizeof(*it));
    it->begin = begin;
    it->end = end;
    if ((end - begin == 3 && !memcmp(text + begin, "...", 3)) ||
        (end - begin == 3 && !memcmp(text + begin, "\xe2\x80\xa6", 3)))
    {
        it->placeholder = true;
        return true;
    }
    const char *equals = memchr(text + begin, '=', end - begin);
    if (!equals)
        return parse_expression(page, begin, end, x, it, failed);
    size_t at = (size_t)(equals - text);
    size_t left_end = at, right = skip_blanks(text, at + 1, end);
    while (left_end > begin && (text[left_end - 1] == ' ' || text[left_end - 1] == '\t'))
        --left_end;
    /* "N = expression" or "expression = N": the side that is one number is
     * the result. */
    size_t left_number = scan_number(page, begin, left_end);
    size_t right_number = scan_number(page, right, end);
    if (right_number == end && right_number > right)
    {
        it->result_begin = right;
        it->result_end = end;
        return parse_expression(page, begin, left_end, x, it, failed);
    }
    if (left_number == left_end && left_number > begin)
    {
        it->result_begin = begin;
        it->result_end = left_end;
        return parse_expression(page, right, end, x, it, failed);
    }
    return false;
}

/* True when the comma or semicolon at i separates items. */
static bool is_separator(const docgen_page *page, size_t i, size_t end)
{
    char c = page->text[i];
    return c == ';' || (c == ',' && !numbers_is_decimal_comma(&page->numbers, page->text, 0, end, i));
}

/* Appends a "..." item at [begin, end). */
static bool push_placeholder(explanation *x, size_t begin, size_t end, bool *failed)
{
    if (!dmlconf_reserve((void **)&x->items, &x->capacity, x->count + 1, sizeof(*x->items)))
    {
        *failed = true;
        return false;
    }
    item *it = &x->items[x->count++];
    memset(it, 0, sizeof(*it));
    it->begin = begin;
    it->end = end;
    it->placeholder = true;
    return true;
}

/* Splits [begin, end) into items at separators outside parentheses.
 * Returns false when an item is not one. */
static bool parse_items(const docgen_page *page, size_t begin, size_t end, explanation *x, bool *failed)
{
    const char *text = page->text;
    size_t i = begin;
    for (;;)
    {
        size_t start = skip_blanks(text, i, end), stop = start;
        unsigned depth = 0;
        while (stop < end && (depth || !is_separator(page, stop, end)))
        {
            depth += text[stop] == '(';
            depth -= depth && text[stop] == ')';
            ++stop;
        }
        size_t trimmed = stop;
        while (trimmed > start && (text[trimmed - 1] == ' ' || text[trimmed - 1] == '\t'))
            --trimmed;
        if (trimmed == start)
            return false;
        if (!dmlconf_reserve((void **)&x->items, &x->capacity, x->count + 1, sizeof(*x->items)))
        {
            *failed = true;
            return false;
        }
        /* "2+3+9 ...": the last row of a column's explanation writes its
         * placeholder after a blank, without a separator. */
        size_t placeholder = trimmed;
        if (trimmed - start > 4 && !memcmp(text + trimmed - 3, "...", 3) &&
            (text[trimmed - 4] == ' ' || text[trimmed - 4] == '\t'))
            placeholder = trimmed - 3;
        size_t expression_end = placeholder;
        while (expression_end > start && (text[expression_end - 1] == ' ' || text[expression_end - 1] == '\t'))
            --expression_end;
        if (!parse_item(page, start, expression_end, x, &x->items[x->count], failed))
            return false;
        ++x->count;
        if (placeholder < trimmed && !push_placeholder(x, placeholder, trimmed, failed))
            return false;
        if (stop == end)
            return true;
        i = stop + 1;
    }
}

/* Reads the comment that starts with "//" at `comment` and ends at `end`.
 * Returns 1 for an explanation, 0 for prose, -1 when memory runs out. */
static int parse_explanation(const docgen_page *page, size_t comment, size_t end, explanation *x)
{
    const char *text = page->text;
    memset(x, 0, sizeof(*x));
    size_t body = skip_blanks(text, comment + 2, end), i = body;
    unsigned words = 1;
    while (i < end && text[i] != '[' && text[i] != '(' && !is_digit(text[i]) &&
           !((text[i] == '-' || text[i] == '+') && i + 1 < end && (is_digit(text[i + 1]) || text[i + 1] == '(') &&
             (i == body || text[i - 1] == ' ')))
    {
        if (text[i] == ' ' && i + 1 < end && text[i + 1] != ' ')
            ++words;
        ++i;
    }
    if (i == end || i - body > MAX_MARKER_BYTES || (i > body && words > MAX_MARKER_WORDS))
        return 0;
    while (end > i && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\r'))
        --end;
    bool failed = false, ok;
    if (text[i] == '[')
    {
        if (text[end - 1] != ']' || end - 1 == i)
            return 0;
        x->list = true;
        x->close = end - 1;
        ok = parse_items(page, i + 1, end - 1, x, &failed);
    }
    else
    {
        /* Arithmetic without brackets is an explanation when a word such as
         * "i.e." or "d.h." introduces it, or when it says "= N"; else it may
         * be prose ("see pages 3-4"). */
        size_t marker_length = 0;
        bool marked = i > body && language_marker(text + body, i - body, &marker_length) != NULL;
        ok = parse_items(page, i, end, x, &failed);
        bool arithmetic = false;
        for (size_t k = 0; ok && k < x->count; ++k)
            arithmetic |= (marked && x->items[k].kind) || x->items[k].result_end;
        ok &= arithmetic;
    }
    if (failed)
    {
        explanation_free(x);
        return -1;
    }
    if (!ok)
        explanation_free(x);
    return ok ? 1 : 0;
}

/* ---- the oracle's explanation of one element ----------------------------------- */

/* What the oracle says of one element: its terms and its value. */
typedef struct element_truth
{
    size_t flat;  /* the element's index in the output */
    size_t first; /* its terms are line[first, last) */
    size_t last;
    unsigned char *line; /* the inputs along the axis through it (packed) */
    size_t n;
    size_t j; /* its place on that line */
} element_truth;

typedef struct comment_context
{
    const docgen_page *page;
    const docgen_example *example;
    const docgen_tensor *input;
    const unsigned char *expected;
    size_t element_size;
    unsigned char *line; /* room for one line of inputs along the axis */
} comment_context;

static void element_of(comment_context *c, size_t flat, element_truth *truth)
{
    const docgen_tensor *input = c->input;
    const docgen_example *e = c->example;
    size_t stride = 1;
    for (uint32_t d = e->axis + 1; d < input->rank; ++d)
        stride *= input->sizes[d];
    size_t n = input->sizes[e->axis];
    size_t j = (flat / stride) % n, base = flat - j * stride;
    for (size_t i = 0; i < n; ++i)
        memcpy(c->line + i * c->element_size,
               (const unsigned char *)input->values + (base + i * stride) * c->element_size, c->element_size);
    truth->flat = flat;
    truth->line = c->line;
    truth->n = n;
    truth->j = j;
    if (e->direction == DMLCONF_AXIS_DIRECTION_DECREASING)
    {
        truth->first = e->exclusive ? j + 1 : j;
        truth->last = n;
    }
    else
    {
        truth->first = 0;
        truth->last = e->exclusive ? j : j + 1;
    }
    if (truth->first > truth->last)
        truth->first = truth->last;
}

/* Reads the term as a value of the input's type (negated after a '-' of a
 * sum). */
static bool term_value(const comment_context *c, const term *t, unsigned char *value)
{
    const char *text = c->page->text + t->begin;
    size_t length = t->end - t->begin;
    char buffer[DOCGEN_MAX_TOKEN + 2];
    if (length > DOCGEN_MAX_TOKEN)
        return false;
    size_t used = 0;
    bool negative = t->negate;
    if (length && (text[0] == '-' || text[0] == '+'))
    {
        negative ^= text[0] == '-';
        ++text;
        --length;
    }
    if (negative)
        buffer[used++] = '-';
    memcpy(buffer + used, text, length);
    used += length;
    return numbers_parse(&c->page->numbers, c->input->type, buffer, used, value, NULL, 0) == DMLCONF_VALUE_OK;
}

/* True when the item's terms are the element's, in index order or reversed,
 * and its operator is the block's (or it is the element's value alone). */
static bool terms_match(const comment_context *c, const explanation *x, const item *it, const element_truth *truth)
{
    bool product = c->example->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    unsigned char value[8];
    if (it->kind && (it->kind == '*') != product)
        return false;
    if (it->term_count == 1 && term_value(c, &x->terms[it->first_term], value) &&
        check_same_value(c->input->type, value, c->expected + truth->flat * c->element_size))
        return true;
    size_t count = truth->last - truth->first;
    if (it->term_count != count)
        return false;
    bool forward = true, backward = true;
    for (size_t k = 0; k < count && (forward || backward); ++k)
    {
        if (!term_value(c, &x->terms[it->first_term + k], value))
            return false;
        forward &= check_same_value(c->input->type, value, truth->line + (truth->first + k) * c->element_size);
        backward &= check_same_value(c->input->type, value, truth->line + (truth->last - 1 - k) * c->element_size);
    }
    return forward || backward;
}

static bool result_matches(const comment_context *c, const item *it, const element_truth *truth)
{
    if (!it->result_end)
        return true;
    unsigned char value[8];
    return numbers_parse(&c->page->numbers, c->input->type, c->page->text + it->result_begin,
                         it->result_end - it->result_begin, value, NULL, 0) == DMLCONF_VALUE_OK &&
           check_same_value(c->input->type, value, c->expected + truth->flat * c->element_size);
}

/* The oracle's expression for the element, in the page's numbers. */
static void truth_text(const comment_context *c, const element_truth *truth, dmlconf_buffer *out)
{
    const docgen_example *e = c->example;
    layout_explain_element(out, &c->page->numbers, e->op, c->input->type, e->exclusive, e->direction, truth->n,
                           truth->line, truth->j);
}

/* ---- one comment line ----------------------------------------------------------- */

/* A comment line being rewritten. */
typedef struct comment_line
{
    bool explained;      /* an explanation in a list: its closing part can be aligned */
    bool stale;          /* an item is wrong */
    bool changed;        /* the text changes */
    size_t comment;      /* the "//" */
    size_t end;          /* the line's end */
    size_t column;       /* the "//"'s column on the page */
    size_t tail;         /* the list's closing part: "]" or "...]" */
    size_t tail_column;  /* its column on the page */
    size_t pad;          /* blanks before it, on the page */
    dmlconf_buffer prefix; /* the new text from "//" to the padding */
    size_t prefix_width; /* in characters */
} comment_line;

static size_t width_of(const char *text, size_t length)
{
    size_t width = 0;
    for (size_t i = 0; i < length; ++i)
        width += ((unsigned char)text[i] & 0xc0) != 0x80;
    return width;
}

/* "element [0,3]" of the output. */
static void element_name(const docgen_tensor *input, size_t flat, char *buffer, size_t size)
{
    uint32_t coordinates[DMLCONF_MAX_DIMENSIONS];
    for (uint32_t d = input->rank; d-- > 0;)
    {
        coordinates[d] = (uint32_t)(flat % input->sizes[d]);
        flat /= input->sizes[d];
    }
    size_t used = (size_t)snprintf(buffer, size, "[");
    for (uint32_t d = 0; d < input->rank && used < size; ++d)
        used += (size_t)snprintf(buffer + used, size - used, "%s%u", d ? "," : "", coordinates[d]);
    if (used < size)
        snprintf(buffer + used, size - used, "]");
}

/* Counts a comment line with a wrong item, and describes the first one of
 * the output. */
static void note_stale(comment_fixes *fixes, const comment_context *c, size_t at, size_t flat, const char *what,
                       size_t what_length, const char *truth, size_t truth_length, bool result)
{
    if (fixes->stale++)
        return;
    char element[96];
    element_name(c->input, flat, element, sizeof(element));
    fixes->line = page_line_of(c->page, at);
    fixes->column = page_column_of(c->page, at);
    int shown = (int)(what_length > 60 ? 60 : what_length), truth_shown = (int)(truth_length > 60 ? 60 : truth_length);
    if (result)
        snprintf(fixes->summary, sizeof(fixes->summary),
                 "the comment gives element %s as %.*s%s, the oracle computes %.*s%s", element, shown, what,
                 what_length > 60 ? "..." : "", truth_shown, truth, truth_length > 60 ? "..." : "");
    else
        snprintf(fixes->summary, sizeof(fixes->summary),
                 "the comment explains element %s as %.*s%s, the oracle's terms are %.*s%s", element, shown, what,
                 what_length > 60 ? "..." : "", truth_shown, truth, truth_length > 60 ? "..." : "");
}

/* The element a single bare expression explains: the first of the row
 * whose terms it has, else the first with as many terms, else the one with
 * the nearest count. */
static size_t bare_element(comment_context *c, const explanation *x, const item *it, size_t row, size_t columns)
{
    size_t best = row * columns, best_distance = SIZE_MAX;
    for (size_t col = 0; col < columns; ++col)
    {
        element_truth truth;
        element_of(c, row * columns + col, &truth);
        if (terms_match(c, x, it, &truth) && result_matches(c, it, &truth))
            return truth.flat;
        size_t count = truth.last - truth.first;
        size_t distance = count > it->term_count ? count - it->term_count : it->term_count - count;
        if (distance < best_distance)
        {
            best = truth.flat;
            best_distance = distance;
        }
    }
    return best;
}

/* Checks and rewrites the explanation x of one line whose row is `row`:
 * fills line->prefix (and tail and pad for a list). Returns 0, or -1 when
 * memory runs out. */
static int fix_line(comment_context *c, const explanation *x, size_t row, comment_line *line, comment_fixes *fixes)
{
    const docgen_page *page = c->page;
    const docgen_tensor *input = c->input;
    size_t columns = input->sizes[input->rank - 1];
    const char *text = page->text;
    size_t cursor = line->comment;
    dmlconf_buffer *out = &line->prefix;
    for (size_t k = 0; k < x->count; ++k)
    {
        const item *it = &x->items[k];
        if (it->placeholder)
            continue; /* written with the text around it */
        if (k >= columns)
        {
            if (!x->list)
                break; /* a bare comment's extra expressions are left alone */
            /* More items than the row has elements: dropped, with the
             * separator before them. */
            static const char beyond[] = "nothing: the row has fewer elements";
            if (!line->stale)
                note_stale(fixes, c, it->begin, row * columns + columns - 1, text + it->begin, it->end - it->begin,
                           beyond, sizeof(beyond) - 1, false);
            line->stale = line->changed = true;
            size_t kept = x->items[k - 1].end;
            if (kept > cursor)
                dmlconf_buffer_append(out, text + cursor, kept - cursor);
            cursor = it->end;
            continue;
        }
        element_truth truth;
        size_t flat = x->list || x->count > 1 ? row * columns + k : bare_element(c, x, it, row, columns);
        element_of(c, flat, &truth);
        bool terms_ok = terms_match(c, x, it, &truth), result_ok = result_matches(c, it, &truth);
        if (terms_ok && result_ok)
            continue;
        /* The parts before, between and after the expression and the result
         * stay as they are. */
        bool result_first = it->result_end && it->result_begin < it->expr_begin;
        for (int part = 0; part < 2; ++part)
        {
            bool is_result = (part == 0) == result_first;
            if (is_result && !it->result_end)
                continue;
            size_t begin = is_result ? it->result_begin : it->expr_begin;
            size_t end = is_result ? it->result_end : it->expr_end;
            bool right = is_result ? result_ok : terms_ok;
            dmlconf_buffer_append(out, text + cursor, begin - cursor);
            cursor = end;
            if (right)
            {
                dmlconf_buffer_append(out, text + begin, end - begin);
                continue;
            }
            dmlconf_buffer truth_expression = {0};
            if (is_result)
            {
                char value[DMLCONF_VALUE_TEXT_SIZE];
                size_t length = numbers_format(&page->numbers, input->type, c->expected + flat * c->element_size, value,
                                               sizeof(value));
                dmlconf_buffer_append(&truth_expression, value, length);
            }
            else
                truth_text(c, &truth, &truth_expression);
            if (!line->stale)
                note_stale(fixes, c, begin, flat, text + begin, end - begin,
                           truth_expression.data ? truth_expression.data : "", truth_expression.length, is_result);
            line->stale = true;
            dmlconf_buffer_append(out, truth_expression.data ? truth_expression.data : "", truth_expression.length);
            out->failed |= truth_expression.failed;
            dmlconf_buffer_free(&truth_expression);
        }
        line->stale = line->changed = true;
    }
    if (x->list)
    {
        /* The closing part: "]" after blanks, or "...]" after blanks, or "]". */
        size_t tail = x->close, pad = 0;
        while (tail - pad > cursor && (text[tail - pad - 1] == ' ' || text[tail - pad - 1] == '\t'))
            ++pad;
        const item *last = x->count ? &x->items[x->count - 1] : NULL;
        if (!pad && last && last->placeholder && last->end == x->close)
        {
            tail = last->begin;
            while (tail - pad > cursor && (text[tail - pad - 1] == ' ' || text[tail - pad - 1] == '\t'))
                ++pad;
        }
        if (tail - pad > cursor)
            dmlconf_buffer_append(out, text + cursor, tail - pad - cursor);
        line->tail = tail;
        line->pad = pad;
        line->explained = true;
    }
    else
    {
        dmlconf_buffer_append(out, text + cursor, line->end - cursor);
        line->tail = line->end;
    }
    line->prefix_width = width_of(out->data ? out->data : "", out->length);
    return out->failed ? -1 : 0;
}

/* ---- every comment of an output -------------------------------------------------- */

/* Fills rows[i] with the row of the output whose numbers are on its line
 * first_line + i, or SIZE_MAX (no number on it, or numbers of two rows). */
static void rows_of_lines(const docgen_tensor *output, size_t columns, size_t *rows, size_t line_count)
{
    for (size_t i = 0; i < line_count; ++i)
        rows[i] = SIZE_MAX - 1; /* no number yet */
    for (size_t k = 0; k < output->token_count; ++k)
    {
        size_t i = output->tokens[k].line - output->first_line, row = k / columns;
        if (rows[i] == SIZE_MAX - 1)
            rows[i] = row;
        else if (rows[i] != row)
            rows[i] = SIZE_MAX;
    }
    for (size_t i = 0; i < line_count; ++i)
        rows[i] = rows[i] == SIZE_MAX - 1 ? SIZE_MAX : rows[i];
}

/* The offset of the first "//" of the line, or its end. */
static size_t comment_start(const docgen_page *page, uint32_t line)
{
    size_t end = page_line_end(page, line);
    for (size_t i = page_line_start(page, line); i + 1 < end; ++i)
    {
        if (page->text[i] == '/' && page->text[i + 1] == '/')
            return i;
    }
    return end;
}

/* Orders explained lines by the column of their "//", then of their
 * closing part, then by line. */
static int compare_tails(const void *a, const void *b)
{
    const comment_line *x = *(const comment_line *const *)a, *y = *(const comment_line *const *)b;
    if (x->column != y->column)
        return x->column < y->column ? -1 : 1;
    if (x->tail_column != y->tail_column)
        return x->tail_column < y->tail_column ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Finishes the lines of one group (same columns): when one of them changed,
 * the blanks before each one's closing part are set so that the widest keeps
 * the group's smallest padding. */
static void align_group(const docgen_page *page, comment_line **group, size_t count)
{
    bool changed = false;
    size_t least = SIZE_MAX, target = 0;
    for (size_t k = 0; k < count; ++k)
    {
        changed |= group[k]->changed;
        least = group[k]->pad < least ? group[k]->pad : least;
    }
    for (size_t k = 0; k < count; ++k)
        target = group[k]->prefix_width + least > target ? group[k]->prefix_width + least : target;
    for (size_t k = 0; k < count; ++k)
    {
        comment_line *m = group[k];
        size_t pad = changed ? target - m->prefix_width : m->pad;
        if (pad == m->pad && !m->changed)
            dmlconf_buffer_append(&m->prefix, page->text + m->tail - m->pad, m->pad);
        else
            dmlconf_buffer_repeat(&m->prefix, ' ', pad);
        dmlconf_buffer_append(&m->prefix, page->text + m->tail, m->end - m->tail);
        m->changed |= pad != m->pad;
    }
}

/* Lines whose closing brackets were in one column stay so. Returns 0, or -1
 * when memory runs out. */
static int align_groups(const docgen_page *page, comment_line *lines, size_t count)
{
    size_t explained = 0;
    for (size_t i = 0; i < count; ++i)
        explained += lines[i].explained;
    if (!explained)
        return 0;
    comment_line **order = malloc(explained * sizeof(*order));
    if (!order)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < count; ++i)
    {
        if (!lines[i].explained)
            continue;
        lines[i].tail_column =
            lines[i].column + width_of(page->text + lines[i].comment, lines[i].tail - lines[i].comment);
        order[n++] = &lines[i];
    }
    qsort(order, n, sizeof(*order), compare_tails);
    for (size_t first = 0, last; first < n; first = last)
    {
        for (last = first + 1; last < n && order[last]->column == order[first]->column &&
                               order[last]->tail_column == order[first]->tail_column;
             ++last)
            ;
        align_group(page, order + first, last - first);
    }
    free(order);
    return 0;
}

int comment_check(const docgen_page *page, size_t index, const void *expected, const size_t *rows, comment_fixes *fixes)
{
    const docgen_example *e = &page->examples[index];
    const docgen_tensor *output = &e->output;
    const docgen_tensor *input = &page->inputs[e->input];
    size_t columns = input->sizes[input->rank - 1];
    memset(fixes, 0, sizeof(*fixes));
    fixes->first_line = output->first_line;
    fixes->line_count = output->last_line - output->first_line + 1;
    comment_context c = {.page = page,
                         .example = e,
                         .input = input,
                         .expected = expected,
                         .element_size = dmlconf_value_size(input->type)};
    c.line = malloc(input->sizes[e->axis] * c.element_size);
    comment_line *lines = calloc(fixes->line_count, sizeof(*lines));
    size_t *own_rows = rows ? NULL : malloc(fixes->line_count * sizeof(*own_rows));
    fixes->comments = calloc(fixes->line_count, sizeof(*fixes->comments));
    int result = -1;
    if (!c.line || !lines || (!rows && !own_rows) || !fixes->comments)
        goto done;
    if (!rows)
    {
        rows_of_lines(output, columns, own_rows, fixes->line_count);
        rows = own_rows;
    }
    for (size_t i = 0; i < fixes->line_count; ++i)
    {
        uint32_t line = output->first_line + (uint32_t)i;
        comment_line *l = &lines[i];
        l->comment = comment_start(page, line);
        l->end = page_line_end(page, line);
        l->column = page_column_of(page, l->comment);
        size_t row = rows[i];
        if (l->comment == l->end || row == SIZE_MAX || row >= input->token_count / columns)
            continue;
        explanation x;
        int kind = parse_explanation(page, l->comment, l->end, &x);
        if (kind < 0)
            goto done;
        if (kind == 0)
            continue;
        int fixed = fix_line(&c, &x, row, l, fixes);
        explanation_free(&x);
        if (fixed)
            goto done;
    }
    if (align_groups(page, lines, fixes->line_count))
        goto done;
    for (size_t i = 0; i < fixes->line_count; ++i)
    {
        if (!lines[i].changed)
            continue;
        if (lines[i].prefix.failed)
            goto done;
        fixes->comments[i] = lines[i].prefix;
        memset(&lines[i].prefix, 0, sizeof(lines[i].prefix));
    }
    result = 0;

done:
    for (size_t i = 0; lines && i < fixes->line_count; ++i)
        dmlconf_buffer_free(&lines[i].prefix);
    free(lines);
    free(own_rows);
    free(c.line);
    if (result)
        comment_fixes_free(fixes);
    return result;
}

void comment_fixes_free(comment_fixes *fixes)
{
    for (size_t i = 0; fixes->comments && i < fixes->line_count; ++i)
        dmlconf_buffer_free(&fixes->comments[i]);
    free(fixes->comments);
    memset(fixes, 0, sizeof(*fixes));
}
