/*
 * Internal interface of the docgen library: positions in a page and its
 * diagnostics (page.c), the words of the pages' languages (language.c), how
 * a page writes numbers (numbers.c), finding its blocks (blocks.c), its
 * tensors (tensor.c, literal.c), comparing values (check.c) and the
 * explanatory comments (comment.c).
 */
#ifndef DMLCONF_DOCGEN_INTERNAL_H
#define DMLCONF_DOCGEN_INTERNAL_H

#include <dmlconf/compiler.h>
#include <dmlconf/docgen.h>
#include <dmlconf/values.h>

/* Tokens longer than this are not numbers (the longest exact float32
 * decimal has 112 significant digits; exact float64 ones are refused). */
#define DOCGEN_MAX_TOKEN 256u

/* ---- positions (page.c) ----------------------------------------------------- */

/* The 1-based line that holds byte `offset` (the last line past the end). */
uint32_t page_line_of(const docgen_page *page, size_t offset);

/* The 1-based column, in characters, of byte `offset` on its line. */
uint32_t page_column_of(const docgen_page *page, size_t offset);

/* Byte offsets of the start of 1-based line `line` and of its end (before its
 * line break). The line must exist. */
size_t page_line_start(const docgen_page *page, uint32_t line);
size_t page_line_end(const docgen_page *page, uint32_t line);

/* True for the blanks that may separate things on a line. */
bool page_is_blank(char c);

/* Adds an error at byte `offset` of the page: path:line:column, the message,
 * the line and a caret under the column. Running out of memory still counts
 * the error. */
void page_error(docgen_page *page, size_t offset, const char *format, ...)
    DMLCONF_PRINTF_LIKE(3, 4)
    ;

/* Adds a note (the line after an error that says more) at byte `offset`,
 * formatted like page_error. */
void page_note(docgen_page *page, size_t offset, const char *format, ...)
    DMLCONF_PRINTF_LIKE(3, 4)
    ;

/* ---- the pages' languages (language.c) ----------------------------------------- */

/* What a key of a block sets. */
typedef enum language_role
{
    ROLE_NONE,
    ROLE_INPUT,
    ROLE_OUTPUT,
    ROLE_AXIS,
    ROLE_DIRECTION,
    ROLE_EXCLUSIVE_SUM,
    ROLE_EXCLUSIVE_PRODUCT,
    ROLE_EXCLUSIVE, /* HasExclusiveSum or HasExclusiveProduct: the key does not say which */
} language_role;

/* What the key `key` (length bytes) sets, when it is a word docgen knows
 * (ignoring ASCII case, blanks, '_' and '-'); ROLE_NONE otherwise.
 * *language (may be NULL) receives the tag of the key's language ("de"), or
 * NULL for the desc's own field names, which every language keeps. */
language_role language_key(const char *key, size_t length, const char **language);

/* The desc's field name for a role ("Axis", "HasExclusiveSum"); "" for
 * ROLE_NONE. */
const char *language_role_name(language_role role);

/* 1 for TRUE, 0 for FALSE (in the languages docgen knows: WAHR, FAUX...,
 * ignoring case), -1 for another word. */
int language_boolean(const char *word, size_t length);

/* ROLE_EXCLUSIVE_SUM or ROLE_EXCLUSIVE_PRODUCT when the key holds the stem
 * of one of the words (Summe, somme, suma, Produkt, prodotto...) and not of
 * the other; ROLE_NONE otherwise. */
language_role language_exclusive_stem(const char *key, size_t length);

/* The language tag of the word that introduces an explanatory comment
 * ("i.e.", "d.h.", "c.-à-d.") at the start of text; NULL when there is none.
 * *marker_length receives its length. */
const char *language_marker(const char *text, size_t length, size_t *marker_length);

/* The same for a word that titles an example ("Example", "Beispiel"). */
const char *language_example_word(const char *text, size_t length, size_t *word_length);

/* The English name of the language of a tag ("de-DE": "German"), and in
 * *decimal_comma whether it writes decimal commas (regions count: "es-MX"
 * writes points); NULL for a language docgen does not know. */
const char *language_tag_info(const char *tag, size_t length, bool *decimal_comma);

/* The language a page is in, and what says so. */
typedef struct page_language
{
    const char *name;   /* "German" */
    bool decimal_comma; /* it writes decimal commas */
    bool metadata;      /* the page declares it (ms.contentlocale, locale, lang, language) */
    size_t offset;      /* the text that says so: the tag, or the first word of the language */
    size_t length;
} page_language;

/* Finds the page's language: the one its metadata declares, else the one
 * most of its telling words are in (keys docgen knows, words that introduce
 * comments or title examples). Returns false when nothing tells. */
bool language_of_page(const docgen_page *page, page_language *language);

/* ---- numbers (numbers.c) -------------------------------------------------------- */

/* Decides page->numbers from the page's text (see numbers.c for the rule). */
void numbers_decide(docgen_page *page);

/* True when the comma at text[i] (within [begin, end)) is a decimal comma
 * for this convention: decimal commas, and a digit on both sides. */
bool numbers_is_decimal_comma(const docgen_numbers *numbers, const char *text, size_t begin, size_t end, size_t i);

/* Appends why the page reads numbers as it does ("line 7 writes '2.5' with a
 * decimal point"). */
void numbers_reason(const docgen_page *page, dmlconf_buffer *out);

/* Adds a note at `offset` (a comma between two digits) that says how this
 * page reads such commas, why, and how to write values unambiguously. */
void numbers_note(docgen_page *page, size_t offset);

/* Parses `length` bytes of text (a number as the page writes it) as a value
 * of `type`, rounding decimals to the type. Returns the status; `why` (may
 * be NULL) receives a message that quotes the text as written. */
dmlconf_value_status numbers_parse(const docgen_numbers *numbers, dmlconf_data_type type, const char *text,
                                   size_t length, void *element, char *why, size_t why_size);

/* Formats an element in dmlconf_value_format's SHORTEST style, with the
 * convention's decimal separator. Returns the length. */
size_t numbers_format(const docgen_numbers *numbers, dmlconf_data_type type, const void *element, char *buffer,
                      size_t size);

/* ---- the pages' layout (tensor_layout.c, explain.c) ------------------------------ */

/* docgen_format_tensor with the numbers written in the page's convention,
 * values separated by its separator and a blank. */
void layout_format_tensor(dmlconf_buffer *out, const docgen_numbers *numbers, dmlconf_data_type type, uint32_t rank,
                          const uint32_t *sizes, const void *values);

/* docgen_explain_element with the numbers written in the page's
 * convention. */
void layout_explain_element(dmlconf_buffer *out, const docgen_numbers *numbers, dmlconf_operator op,
                            dmlconf_data_type type, bool exclusive, dmlconf_axis_direction direction, size_t n,
                            const void *values, size_t j);

/* ---- finding the blocks (blocks.c) ---------------------------------------------- */

/* Finds every input and example block of the page (page->numbers decided),
 * reporting each problem; a page without any example block is an error. */
void blocks_find(docgen_page *page);

/* ---- tensors (tensor.c) ----------------------------------------------------------- */

/* Why a tensor header cannot be read. */
typedef struct header_problem
{
    size_t offset;
    char message[160]; /* the longest message quotes 31 bytes of the page */
} header_problem;

/* Reads the header "(Sizes:{1,1,3,4}, DataType:FLOAT32)" (any labels) from
 * the '(' at `offset` of `line` into tensor's header fields. Returns 0, or
 * -1 with *problem filled; reports nothing. */
int tensor_parse_header(const docgen_page *page, uint32_t line, size_t offset, docgen_tensor *tensor,
                        header_problem *problem);

/* Parses a tensor: the header on `line` (its '(' at `paren`), the values from
 * the next line on, reporting every problem. An input's shape must match its
 * header and every value must be one of its type. An output's values are
 * read (as values of `expected`'s type) only when its brackets have
 * `expected`'s shape, the input's (whatever its own header says); another
 * shape is an error only when a comma between two digits may have caused it
 * on a page that reads commas as separators. `expected` is NULL when the
 * example has no usable input. Returns 0, or -1 after an error. */
int tensor_parse(docgen_page *page, uint32_t line, size_t paren, bool output, const docgen_tensor *expected,
                 docgen_tensor *tensor);

/* Frees what the tensor owns and zeroes it. */
void tensor_free(docgen_tensor *tensor);

/* ---- tensor literals (literal.c) -------------------------------------------- */

/* Parses the bracketed values that start with the '[' at byte `offset` and
 * end with its matching ']', which must be followed on its line by nothing
 * but blanks and a `//` comment. Values are separated by ',' or ';' (on a
 * page with decimal commas, a comma between two digits belongs to the
 * number). Fills tensor's first_line, last_line, literal_rank,
 * literal_sizes, tokens and digit_comma (owned by the tensor; freed by the
 * caller even on failure). The lists must be regular (every list at one
 * depth has the same length and holds either numbers or lists) and every
 * token must read as a number of some kind. Returns 0, or -1 after
 * reporting the first problem with page_error (and, when the values write a
 * comma between two digits, a note on how the page reads it). */
int literal_parse(docgen_page *page, size_t offset, docgen_tensor *tensor);

/* ---- comparing values (check.c) ---------------------------------------------- */

/* True when two elements of `type` are the same value: the same bits, or two
 * NaNs (whatever their payloads). */
bool check_same_value(dmlconf_data_type type, const unsigned char *a, const unsigned char *b);

/* True when an output's header has its input's data type and sizes. */
bool check_header_matches(const docgen_tensor *output, const docgen_tensor *input);

/* ---- explanatory comments (comment.c) ------------------------------------------ */

/* The explanatory comments of an output, as the oracle would write them. */
typedef struct comment_fixes
{
    uint32_t first_line;   /* the output's first line of values */
    size_t line_count;     /* its lines */
    dmlconf_buffer *comments; /* per line: the new text from its "//" to its end; {0} when it stays */
    size_t stale;          /* comment lines with a wrong expression or result */
    uint32_t line;         /* the first wrong one */
    uint32_t column;
    char summary[DMLCONF_MESSAGE_SIZE]; /* "the comment explains element [0,3] as 2+1+3+5, ..." */
} comment_fixes;

/* Checks the explanatory comments of example `index`'s output against the
 * oracle's values `expected` (packed, the input's shape and type) and the
 * page's input, and builds the lines' new comments. `rows` gives, per line
 * of the output, the row of the last dimension that the line's comment
 * explains (SIZE_MAX: none); NULL takes the row of the numbers on the line.
 * `fixes` is overwritten; release it with comment_fixes_free. Returns 0, or
 * -1 when memory runs out. */
int comment_check(const docgen_page *page, size_t index, const void *expected, const size_t *rows,
                  comment_fixes *fixes);

/* Frees the new comments and zeroes the fixes. */
void comment_fixes_free(comment_fixes *fixes);

#endif /* DMLCONF_DOCGEN_INTERNAL_H */
