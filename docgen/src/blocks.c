/*
 * blocks.c: finding the example blocks of a page.
 *
 * The page is read line by line, whatever surrounds the blocks (Markdown
 * fences, plain text, prose in any language, side-by-side translations):
 *
 * - A tensor header "KEY: (Sizes:{...}, DataType:...)" followed on the next
 *   line by bracketed values is an input; the example blocks below it use
 *   it. The key is InputTensor, a word for it that docgen knows (Eingabe,
 *   Entrée, Entrada...) or any other word: the header's shape says it is a
 *   tensor.
 * - Parameter lines "KEY: VALUE" start an example block: Axis (a dimension
 *   index), AxisDirection (DML_AXIS_DIRECTION_INCREASING or _DECREASING),
 *   HasExclusiveSum or HasExclusiveProduct (TRUE or FALSE, which also say the
 *   operator). A key docgen knows in English, German, French, Spanish,
 *   Italian or Portuguese says what a line sets; a key it does not know is
 *   read by its value (an index, a direction, a truth value) when the lines
 *   around it hold a known key or a direction, which no prose does. The
 *   operator of a truth value under an unknown key comes from the key's stem
 *   (Summe, Somme, Produkt...) or else from the operator the page names
 *   (DML_CUMULATIVE_SUMMATION_OPERATOR_DESC or ..._PRODUCT_...).
 * - After more parameter lines and blank lines, the next tensor header and
 *   its values are the block's output.
 *
 * Every problem is reported with its line and column, and parsing goes on
 * with the next block. A page without any example block is an error that
 * says what docgen looked for and what it found instead.
 */
#include "docgen_internal.h"

#include <dmlconf/reserve.h>
#include <dmlconf/values.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A key is at most this long, in bytes and in words. */
#define MAX_KEY_BYTES 48u
#define MAX_KEY_WORDS 4u

/* What parsing the page remembers beyond the page itself. */
typedef struct block_finder
{
    docgen_page *page;
    bool names_summation; /* the page names the operators */
    bool names_product;
    /* For the explanation of a page without example blocks: the first line
     * of each kind that comes close (offset + 1; 0: none). */
    size_t unreadable_header;
    header_problem header_why;
    size_t lone_parameter;
    size_t loose_values;
} block_finder;

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

static size_t skip_blanks(const docgen_page *page, size_t offset, size_t end)
{
    while (offset < end && page_is_blank(page->text[offset]))
        ++offset;
    return offset;
}

/* A line "KEY: ...": the key (a few words, a letter first, without the
 * blanks around it) and what follows the colon. */
typedef struct key_line
{
    size_t key, key_end;
    size_t value; /* the first non-blank after the colon, or the line's end */
    size_t end;   /* the line's end */
} key_line;

static bool is_word_start(char c)
{
    return (unsigned char)c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool split_key_line(const docgen_page *page, uint32_t line, key_line *out)
{
    const char *text = page->text;
    size_t i = first_non_blank(page, line), end = page_line_end(page, line);
    if (i == end || !is_word_start(text[i]))
        return false;
    size_t key = i;
    unsigned words = 1;
    for (; i < end && text[i] != ':'; ++i)
    {
        if (strchr("([{`*|<>\"/=,;", text[i]) || i - key >= MAX_KEY_BYTES)
            return false;
        if (page_is_blank(text[i]) && i + 1 < end && !page_is_blank(text[i + 1]) && text[i + 1] != ':')
            ++words;
    }
    if (i == end || words > MAX_KEY_WORDS)
        return false;
    out->key = key;
    out->key_end = i;
    while (out->key_end > key && page_is_blank(text[out->key_end - 1]))
        --out->key_end;
    out->end = end;
    out->value = skip_blanks(page, i + 1, end);
    return true;
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

/* ---- tensor headers ----------------------------------------------------------- */

typedef enum header_kind
{
    HEADER_NONE,
    HEADER_INPUT,      /* InputTensor, or a word docgen knows for it */
    HEADER_OUTPUT,     /* OutputTensor, or a word docgen knows for it */
    HEADER_UNNAMED,    /* another key, a header's shape and values on the next line */
    HEADER_UNREADABLE, /* another key and a '(', but not a header's shape or no values */
} header_kind;

/* What kind of tensor header the line is; *paren receives the offset of its
 * '(' and, for HEADER_UNREADABLE, *why the reason. */
static header_kind header_line(const docgen_page *page, uint32_t line, size_t *paren, header_problem *why)
{
    key_line k;
    if (!split_key_line(page, line, &k) || k.value == k.end || page->text[k.value] != '(')
        return HEADER_NONE;
    *paren = k.value;
    const char *language = NULL;
    language_role role = language_key(page->text + k.key, k.key_end - k.key, &language);
    /* Words such as "Entrada" or "Output" also start prose ("Salida:
     * (opcional) ..."): they name a tensor when sizes in braces follow. */
    if ((role == ROLE_INPUT || role == ROLE_OUTPUT) && language && !memchr(page->text + k.value, '{', k.end - k.value))
        return HEADER_NONE;
    if (role == ROLE_INPUT)
        return HEADER_INPUT;
    if (role == ROLE_OUTPUT)
        return HEADER_OUTPUT;
    if (role != ROLE_NONE)
        return HEADER_NONE;
    docgen_tensor probe;
    memset(&probe, 0, sizeof(probe));
    if (tensor_parse_header(page, line, k.value, &probe, why))
        return HEADER_UNREADABLE;
    size_t next = line < page->line_count ? first_non_blank(page, line + 1) : page->size;
    if (next >= page->size || page->text[next] != '[')
    {
        why->offset = next < page->size ? next : page_line_end(page, line);
        snprintf(why->message, sizeof(why->message), "no values in brackets on the line after it");
        return HEADER_UNREADABLE;
    }
    return HEADER_UNNAMED;
}

/* ---- parameter lines -------------------------------------------------------------- */

/* Which parameter a line sets. */
typedef struct parameter_line
{
    language_role role; /* ROLE_AXIS, ROLE_DIRECTION, ROLE_EXCLUSIVE_SUM or _PRODUCT, or ROLE_EXCLUSIVE
                         * (a truth value whose operator the key does not say) */
    bool known;         /* the key is a word docgen knows */
    bool strict;        /* "KEY: WORD", then nothing but blanks and a comment */
    key_line k;
    size_t value_end; /* the value's word is [k.value, value_end) */
} parameter_line;

static bool is_direction(const docgen_page *page, size_t begin, size_t end)
{
    return word_is(page, begin, end, "DML_AXIS_DIRECTION_INCREASING") ||
           word_is(page, begin, end, "DML_AXIS_DIRECTION_DECREASING");
}

static bool is_index(const docgen_page *page, size_t begin, size_t end)
{
    if (begin == end || end - begin > 10)
        return false;
    for (size_t i = begin; i < end; ++i)
    {
        if (page->text[i] < '0' || page->text[i] > '9')
            return false;
    }
    return true;
}

static bool read_parameter_line(const docgen_page *page, uint32_t line, parameter_line *p)
{
    memset(p, 0, sizeof(*p));
    if (!split_key_line(page, line, &p->k))
        return false;
    const char *text = page->text;
    size_t word = p->k.value, end = p->k.end;
    while (word < end && !page_is_blank(text[word]) && !(text[word] == '/' && word + 1 < end && text[word + 1] == '/'))
        ++word;
    p->value_end = word;
    p->strict = word > p->k.value && rest_is_empty(page, line, word);
    p->role = language_key(text + p->k.key, p->k.key_end - p->k.key, NULL);
    if (p->role == ROLE_AXIS || p->role == ROLE_DIRECTION || p->role == ROLE_EXCLUSIVE_SUM ||
        p->role == ROLE_EXCLUSIVE_PRODUCT)
    {
        p->known = true;
        return true;
    }
    if (p->role != ROLE_NONE || !p->strict)
        return false;
    /* A key docgen does not know: the value says what it sets. */
    if (is_direction(page, p->k.value, word))
        p->role = ROLE_DIRECTION;
    else if (language_boolean(text + p->k.value, word - p->k.value) >= 0)
    {
        p->role = language_exclusive_stem(text + p->k.key, p->k.key_end - p->k.key);
        if (p->role == ROLE_NONE)
            p->role = ROLE_EXCLUSIVE;
    }
    else if (is_index(page, p->k.value, word))
        p->role = ROLE_AXIS;
    else
        return false;
    return true;
}

/* True when the strict parameter lines from `line` on (without a line of
 * something else between them) hold one with a known key or a direction,
 * which makes them a block's parameters. *after receives the line after
 * them. */
static bool parameter_group(const docgen_page *page, uint32_t line, uint32_t *after)
{
    bool block = false;
    parameter_line p;
    for (; line <= page->line_count && read_parameter_line(page, line, &p) && p.strict; ++line)
        block |= p.known || p.role == ROLE_DIRECTION;
    *after = line;
    return block;
}

/* ---- example blocks ----------------------------------------------------------- */

/* The parameters, as the example block's drafts index them. */
enum
{
    SEEN_AXIS,
    SEEN_DIRECTION,
    SEEN_EXCLUSIVE,
    SEEN_COUNT
};

/* What an example block has read so far. */
typedef struct example_draft
{
    uint32_t seen[SEEN_COUNT]; /* the line of each parameter, 0 when absent */
    size_t axis_value;         /* the offset of the Axis line's value */
    docgen_example example;
} example_draft;

static int push_example(docgen_page *page, docgen_example *example)
{
    if (!dmlconf_reserve((void **)&page->examples, &page->example_capacity, page->example_count + 1,
                         sizeof(*page->examples)))
        return -1;
    page->examples[page->example_count++] = *example;
    return 0;
}

static int push_input(docgen_page *page, docgen_tensor *input)
{
    if (!dmlconf_reserve((void **)&page->inputs, &page->input_capacity, page->input_count + 1, sizeof(*page->inputs)))
        return -1;
    page->inputs[page->input_count++] = *input;
    return 0;
}

/* The operator of a truth value under a key that does not say it: the one
 * the page names. Returns 0, or -1 after an error. */
static int operator_of_page(block_finder *finder, const parameter_line *p, dmlconf_operator *op)
{
    if (finder->names_summation != finder->names_product)
    {
        *op = finder->names_summation ? DMLCONF_OPERATOR_CUMULATIVE_SUMMATION : DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
        return 0;
    }
    int length = (int)(p->k.key_end - p->k.key);
    page_error(finder->page, p->k.key,
               "cannot tell whether '%.*s' makes a cumulative summation or a cumulative product: docgen does not "
               "know this key (HasExclusiveSum or HasExclusiveProduct), and the page names %s",
               length, finder->page->text + p->k.key,
               finder->names_summation ? "both operators"
                                       : "neither DML_CUMULATIVE_SUMMATION_OPERATOR_DESC nor "
                                         "DML_CUMULATIVE_PRODUCT_OPERATOR_DESC");
    return -1;
}

static int read_parameter(block_finder *finder, uint32_t line, const parameter_line *p, example_draft *draft)
{
    docgen_page *page = finder->page;
    size_t value = p->k.value, value_end = p->value_end;
    int length = (int)(value_end - value > 40 ? 40 : value_end - value);
    int key_length = (int)(p->k.key_end - p->k.key);
    const char *key = page->text + p->k.key;
    const char *text = page->text + value;
    if (!p->strict)
    {
        page_error(page, value_end > value ? value_end : value,
                   "expected '%.*s: ' and one value, then nothing but a // comment", key_length, key);
        return -1;
    }
    unsigned which = p->role == ROLE_AXIS ? SEEN_AXIS : p->role == ROLE_DIRECTION ? SEEN_DIRECTION : SEEN_EXCLUSIVE;
    docgen_example *e = &draft->example;
    dmlconf_operator op =
        p->role == ROLE_EXCLUSIVE_PRODUCT ? DMLCONF_OPERATOR_CUMULATIVE_PRODUCT : DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    if (p->role == ROLE_EXCLUSIVE && operator_of_page(finder, p, &op))
        return -1;
    if (draft->seen[which] && which == SEEN_EXCLUSIVE && op != e->op)
    {
        page_error(page, p->k.key,
                   "an example block has HasExclusiveSum or HasExclusiveProduct, not both (%s at line %u)",
                   language_role_name(e->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? ROLE_EXCLUSIVE_PRODUCT
                                                                                   : ROLE_EXCLUSIVE_SUM),
                   draft->seen[which]);
        return -1;
    }
    if (draft->seen[which])
    {
        page_error(page, p->k.key, "%s is given twice in this example block (first at line %u)",
                   language_role_name(
                       which == SEEN_EXCLUSIVE
                           ? (op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? ROLE_EXCLUSIVE_PRODUCT : ROLE_EXCLUSIVE_SUM)
                           : p->role),
                   draft->seen[which]);
        return -1;
    }
    switch (which)
    {
    case SEEN_AXIS:
    {
        char number[24];
        uint64_t axis = 0;
        bool fits = value_end - value < sizeof(number);
        if (fits)
        {
            memcpy(number, text, value_end - value);
            number[value_end - value] = '\0';
        }
        if (!fits || dmlconf_value_parse_u64(number, 0, UINT32_MAX, &axis, NULL, 0) != DMLCONF_VALUE_OK)
        {
            page_error(page, value, "%.*s must be a dimension index (0, 1, ...), not '%.*s'", key_length, key, length,
                       text);
            return -1;
        }
        e->axis = (uint32_t)axis;
        e->axis_line = line;
        draft->axis_value = value;
        break;
    }
    case SEEN_DIRECTION:
        if (word_is(page, value, value_end, "DML_AXIS_DIRECTION_INCREASING"))
            e->direction = DMLCONF_AXIS_DIRECTION_INCREASING;
        else if (word_is(page, value, value_end, "DML_AXIS_DIRECTION_DECREASING"))
            e->direction = DMLCONF_AXIS_DIRECTION_DECREASING;
        else
        {
            page_error(page, value,
                       "%.*s must be DML_AXIS_DIRECTION_INCREASING or DML_AXIS_DIRECTION_DECREASING, not '%.*s'",
                       key_length, key, length, text);
            return -1;
        }
        break;
    default:
    {
        int truth = language_boolean(text, value_end - value);
        if (truth < 0)
        {
            page_error(page, value, "%.*s must be TRUE or FALSE, not '%.*s'", key_length, key, length, text);
            return -1;
        }
        e->exclusive = truth == 1;
        e->op = op;
        break;
    }
    }
    draft->seen[which] = line;
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
    size_t at = first_non_blank(page, e->line);
    if (why.reason == DMLCONF_REASON_AXIS_OUT_OF_RANGE)
        at = draft->axis_value;
    page_error(page, at, "%s (input at line %u)", why.message, input->header_line);
    return -1;
}

/* Ends the example block that starts at line `start` with the output tensor
 * whose header is on `line` (its '(' at `paren`): checks that every
 * parameter was given and that the operator accepts them, reads the output
 * and keeps the example when all is well. Returns the line after it. */
static uint32_t finish_example(docgen_page *page, uint32_t start, uint32_t line, size_t paren, input_state state,
                               example_draft *draft, bool failed)
{
    static const char *const missing[] = {"Axis", "AxisDirection"};
    docgen_example *e = &draft->example;
    const docgen_tensor *input = state == INPUT_OK ? &page->inputs[page->input_count - 1] : NULL;
    size_t at = first_non_blank(page, start);
    for (unsigned p = SEEN_AXIS; p <= SEEN_DIRECTION && !failed; ++p)
    {
        if (!draft->seen[p])
        {
            page_error(page, at, "this example block has no %s line", missing[p]);
            failed = true;
        }
    }
    if (!failed && !draft->seen[SEEN_EXCLUSIVE])
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
    failed |= tensor_parse(page, line, paren, true, input, &e->output) != 0;
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
static uint32_t parse_example(block_finder *finder, uint32_t start, input_state state)
{
    docgen_page *page = finder->page;
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
        parameter_line p;
        if (read_parameter_line(page, line, &p))
        {
            failed |= read_parameter(finder, line, &p, &draft) != 0;
            continue;
        }
        size_t paren = 0;
        header_problem why;
        header_kind kind = header_line(page, line, &paren, &why);
        if (kind == HEADER_OUTPUT || kind == HEADER_UNNAMED)
            return finish_example(page, start, line, paren, state, &draft, failed);

        size_t at = first_non_blank(page, line), end = page_line_end(page, line);
        int shown = (int)(end - at > 30 ? 30 : end - at);
        if (kind == HEADER_INPUT)
            page_error(page, at,
                       "the example block that starts at line %u is cut short: an InputTensor comes before "
                       "its OutputTensor",
                       start);
        else
        {
            page_error(page, at,
                       "the example block that starts at line %u is cut short: expected a parameter line or "
                       "'OutputTensor:', found '%.*s%s'",
                       start, shown, page->text + at, end - at > 30 ? "..." : "");
            if (kind == HEADER_UNREADABLE)
                page_note(page, why.offset, "this line looks like a tensor header, but %s", why.message);
        }
        return line;
    }
}

/* Reads an input tensor whose header is on `line`. Returns the line after
 * it and sets *state. */
static uint32_t parse_input(docgen_page *page, uint32_t line, size_t paren, input_state *state)
{
    docgen_tensor input;
    memset(&input, 0, sizeof(input));
    bool failed = tensor_parse(page, line, paren, false, NULL, &input) != 0;
    if (!failed && push_input(page, &input))
    {
        page_error(page, paren, "out of memory");
        failed = true;
    }
    if (failed)
    {
        tensor_free(&input);
        *state = INPUT_BAD;
        return line + 1;
    }
    *state = INPUT_OK;
    return input.last_line + 1;
}

/* True when the line starts with bracketed numbers ("[[1, ..."). */
static bool is_values_line(const docgen_page *page, uint32_t line)
{
    size_t i = first_non_blank(page, line), end = page_line_end(page, line);
    if (i == end || page->text[i] != '[')
        return false;
    while (i < end && (page->text[i] == '[' || page_is_blank(page->text[i])))
        ++i;
    return i < end && ((page->text[i] >= '0' && page->text[i] <= '9') || page->text[i] == '-');
}

/* True when the page's text holds `word`. */
static bool page_names(const docgen_page *page, const char *word)
{
    size_t length = strlen(word);
    for (size_t i = 0; i + length <= page->size; ++i)
    {
        if (page->text[i] == word[0] && !memcmp(page->text + i, word, length))
            return true;
    }
    return false;
}

/* ---- a page without example blocks ------------------------------------------- */

/* Says what docgen looked for and what came closest. */
static void explain_absence(block_finder *finder)
{
    docgen_page *page = finder->page;
    size_t at = SIZE_MAX; /* the most telling place */
    if (page->input_count)
        at = page->inputs[page->input_count - 1].header_begin;
    else if (finder->unreadable_header)
        at = finder->unreadable_header - 1;
    else if (finder->lone_parameter)
        at = finder->lone_parameter - 1;
    else if (finder->loose_values)
        at = finder->loose_values - 1;
    static const char message[] =
        "no example block found: docgen looks for an input tensor (a line 'InputTensor: (Sizes:{...}, "
        "DataType:...)' and its values in brackets from the next line on), then example blocks (the lines "
        "'Axis: N', 'AxisDirection: DML_AXIS_DIRECTION_...' and 'HasExclusiveSum: TRUE' or 'HasExclusiveProduct: "
        "FALSE', then the output tensor), their keys in English, German, French, Spanish, Italian or Portuguese, "
        "or any key with such a value next to a known one";
    if (at == SIZE_MAX)
    {
        dmlconf_diagnostics_add(&page->diagnostics, DMLCONF_SEVERITY_ERROR, page->path, 0, 0, "%s", message);
        dmlconf_diagnostics_add(&page->diagnostics, DMLCONF_SEVERITY_NOTE, page->path, 0, 0,
                                "this page has no tensor header, no values in brackets and no parameter line");
        return;
    }
    page_error(page, at, "%s", message);
    if (page->input_count)
        page_note(page, page->inputs[page->input_count - 1].header_begin,
                  "an input tensor, but no parameter lines and output tensor after it");
    if (finder->unreadable_header)
        page_note(page, finder->header_why.offset, "this line looks like a tensor header, but %s",
                  finder->header_why.message);
    if (finder->lone_parameter)
        page_note(page, finder->lone_parameter - 1,
                  "this could be a parameter line, but docgen does not know its key, and no line next to it has a "
                  "key it knows or an AxisDirection value (DML_AXIS_DIRECTION_...)");
    if (finder->loose_values)
        page_note(page, finder->loose_values - 1,
                  "values in brackets, but no tensor header ('NAME: (Sizes:{...}, DataType:...)') on the line "
                  "above them");
}

void blocks_find(docgen_page *page)
{
    block_finder finder;
    memset(&finder, 0, sizeof(finder));
    finder.page = page;
    finder.names_summation = page_names(page, "CUMULATIVE_SUMMATION");
    finder.names_product = page_names(page, "CUMULATIVE_PRODUCT");
    size_t errors = page->diagnostics.error_count;
    input_state state = INPUT_NONE;
    uint32_t line = 1;
    while (line <= page->line_count)
    {
        size_t paren = 0;
        header_problem why;
        parameter_line p;
        uint32_t after = line + 1;
        header_kind kind = header_line(page, line, &paren, &why);
        if (kind == HEADER_INPUT || kind == HEADER_UNNAMED)
            line = parse_input(page, line, paren, &state);
        else if (kind == HEADER_OUTPUT)
        {
            page_error(page, first_non_blank(page, line),
                       "an OutputTensor without the parameter lines of its example block (Axis, AxisDirection, "
                       "HasExclusiveSum or HasExclusiveProduct) above it");
            ++line;
        }
        else if (kind == HEADER_UNREADABLE)
        {
            if (!finder.unreadable_header)
            {
                finder.unreadable_header = first_non_blank(page, line) + 1;
                finder.header_why = why;
            }
            ++line;
        }
        else if (read_parameter_line(page, line, &p) && p.strict)
        {
            if (parameter_group(page, line, &after))
                line = parse_example(&finder, line, state);
            else
            {
                if (!finder.lone_parameter)
                    finder.lone_parameter = p.k.key + 1;
                line = after;
            }
        }
        else
        {
            if (!finder.loose_values && is_values_line(page, line))
                finder.loose_values = first_non_blank(page, line) + 1;
            ++line;
        }
    }
    if (!page->example_count && page->diagnostics.error_count == errors)
        explain_absence(&finder);
}
