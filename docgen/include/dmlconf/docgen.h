/*
 * dmlconf docgen: the example blocks of the DirectML reference pages, kept in
 * step with the oracle.
 *
 * A page shows an operator's behaviour as blocks of text, in any language and
 * with or without Markdown fences around them:
 *
 *   InputTensor: (Sizes:{1,1,3,4}, DataType:FLOAT32)
 *   [[[[2, 1, 3, 5],
 *      [3, 8, 7, 3],
 *      [9, 6, 2, 4]]]]
 *
 *   Axis: 3
 *   AxisDirection: DML_AXIS_DIRECTION_INCREASING
 *   HasExclusiveSum: FALSE
 *
 *   OutputTensor: (Sizes:{1,1,3,4}, DataType:FLOAT32)
 *   [[[[2,  3,  6, 11],     // i.e. [2, 2+1, 2+1+3, 2+1+3+5]
 *      [3, 11, 18, 21],     //      [...                   ]
 *      [9, 15, 17, 21]]]]   //      [...                   ]
 *
 * An example block (the parameter lines, then the OutputTensor) takes the
 * input of the nearest InputTensor above it. HasExclusiveSum makes it a
 * cumulative summation, HasExclusiveProduct a cumulative product. A page
 * translated word by word writes the keys in its language ("Achse: 3",
 * "Eingabe: (Größen:{4}, Datentyp:FLOAT32)"): docgen knows them in German,
 * French, Spanish, Italian and Portuguese, and recognises the blocks of other
 * languages by their structure (language.c, blocks.c). A page may write
 * decimal commas ("[0,5, 1,5]"); docgen reads and writes numbers the page's
 * way (numbers.c).
 *
 * The library parses those blocks (page.c, blocks.c, tensor.c, literal.c),
 * renders new ones from cases (tensor_layout.c, render.c, explain.c),
 * recomputes a page's outputs with the oracle (example_compute.c, check.c), checks
 * the arithmetic of the explanatory comments ("// i.e. [2, 2+1, ...]",
 * comment.c) and rewrites the numbers and comments that are wrong
 * (rewrite.c), showing what changes as a diff (diff.c).
 *
 * The layout rule (tensor_layout.c): one row of the last dimension per line,
 * nested brackets, each column right-aligned to its widest value over the
 * whole tensor, values in their shortest round-trip form. It reproduces every
 * block of the pages but one: summation Example 3 pads its last column
 * (5, 3, 4) to two characters, while product Example 3 leaves the very same
 * column (5, 3, 4) one character wide; no rule that depends on a column's
 * values can give both, so render follows the rule and check and update
 * accept any alignment.
 *
 * Nothing here keeps global state; every function is reentrant. Objects that
 * a function fills own their memory and are released by the matching *_free
 * function.
 */
#ifndef DMLCONF_DOCGEN_H
#define DMLCONF_DOCGEN_H

#include <dmlconf/compiler.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dmlconf/buffer.h>
#include <dmlconf/case.h>
#include <dmlconf/oracle.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the pages' tensor layout (tensor_layout.c) ---------------------------- */

/* Appends "(Sizes:{1,1,3,4}, DataType:FLOAT32)", a tensor header's shape. */
void docgen_format_tensor_shape(dmlconf_buffer *out, dmlconf_data_type type, uint32_t rank, const uint32_t *sizes);

/* Appends "NAME: (Sizes:{1,1,3,4}, DataType:FLOAT32)" and a line break. */
void docgen_format_tensor_header(dmlconf_buffer *out, const char *name, dmlconf_data_type type, uint32_t rank,
                                 const uint32_t *sizes);

/* Appends packed logical elements (row-major, `rank` dimensions of `sizes`,
 * rank 1 to 8, no size 0) in the pages' layout: nested brackets, one row of
 * the last dimension per line, a blank line where a dimension above the last
 * two moves on, each column right-aligned to its widest value over the whole
 * tensor, values in dmlconf_value_format's SHORTEST style (integers without a
 * decimal point). Ends with a line break. */
void docgen_format_tensor(dmlconf_buffer *out, dmlconf_data_type type, uint32_t rank, const uint32_t *sizes,
                          const void *values);

/* ---- the explanatory comments (explain.c) ----------------------------------- */

/* Appends how output element j of one line of a scan is made from the line's
 * inputs: "2+1+3" (sum), "2*1*3" (product), "0" or "1" for the empty prefix
 * of an exclusive scan. `values` holds the line's n inputs in index order
 * (packed elements of `type`); `direction` and `exclusive` say which inputs
 * element j combines. Negative terms of a product are parenthesised
 * ("2*(-3)"), those of a sum written as a subtraction ("2-3"). */
void docgen_explain_element(dmlconf_buffer *out, dmlconf_operator op, dmlconf_data_type type, bool exclusive,
                            dmlconf_axis_direction direction, size_t n, const void *values, size_t j);

/* Appends the explanation of output row `row` (rows of the last dimension, in
 * row-major order) of `desc` on `input` (packed, desc->input's sizes and
 * type), without the leading "// ", the way the pages write it:
 *   axis = the last dimension: the first row gets
 *       "i.e. [2, 2+1, 2+1+3, 2+1+3+5]"
 *     and the other rows of the first 2-D slice "     [...                   ]";
 *   axis = the dimension before it: the first column of the first 2-D slice,
 *     one element per row: "i.e. [2,    ...]", "     [2+3,  ...]",
 *     "     [2+3+9 ...]".
 * Returns false, appending nothing, for a row without a comment (and for
 * other axes). */
bool docgen_explain_row(dmlconf_buffer *out, const dmlconf_scan_desc *desc, const void *input, uint64_t row);

/* ---- the oracle on a packed tensor (example_compute.c) --------------------- */

/* Computes desc's output for `input` (packed logical elements of
 * desc->input), ignoring desc's strides and in-place flag. Returns a new
 * buffer of packed output elements that the caller frees with free(), or
 * NULL with err->message set (err may be NULL) when the desc is invalid at
 * every feature level, its type is not computable, or memory runs out. */
void *docgen_compute(const dmlconf_scan_desc *desc, const void *input, dmlconf_error *err);

/* ---- rendering example blocks (render.c) ------------------------------------ */

typedef struct docgen_render_options
{
    bool explain;  /* add the "// i.e. ..." comments (docgen_explain_row) */
    bool markdown; /* wrap each block in a ``` fence */
} docgen_render_options;

/* Appends an input block: the InputTensor header and its values.
 * options may be NULL (no fence). */
void docgen_render_input(dmlconf_buffer *out, const dmlconf_tensor_desc *input, const void *values,
                         const docgen_render_options *options);

/* Appends an example block: the parameter lines (Axis, AxisDirection,
 * HasExclusiveSum or HasExclusiveProduct), a blank line, the OutputTensor
 * header and the oracle's output for `input` (packed, desc->input), with the
 * explanatory comments when options->explain. options may be NULL. Returns 0,
 * or -1 with err set (err may be NULL) when the oracle fails (nothing is
 * appended then). */
int docgen_render_example(dmlconf_buffer *out, const dmlconf_scan_desc *desc, const void *input,
                          const docgen_render_options *options, dmlconf_error *err);

/* ---- parsing pages (page.c, literal.c) -------------------------------------- */

/* One number of a tensor literal, as written on the page. */
typedef struct docgen_token
{
    size_t offset; /* its text is page->text[offset, offset + length) */
    size_t length;
    size_t pad;      /* blanks just before it on its line */
    bool line_first; /* nothing but blanks before it on its line: pad is indentation */
    uint32_t line;   /* 1-based */
    uint32_t column; /* 1-based, in characters */
} docgen_token;

/* A tensor of a page: its header and its bracketed values. */
typedef struct docgen_tensor
{
    uint32_t header_line; /* the "InputTensor:"/"OutputTensor:" line */
    size_t header_begin;  /* the "(Sizes:...)" part: offsets of '(' and just after ')' */
    size_t header_end;
    size_t sizes_begin; /* the sizes between the braces, "1,1,3,4" */
    size_t sizes_end;
    size_t type_begin; /* the data type's name */
    size_t type_end;
    dmlconf_data_type type; /* as the header says */
    uint32_t rank;          /* as the header says */
    uint32_t sizes[DMLCONF_MAX_DIMENSIONS];
    uint32_t first_line; /* the lines of the bracketed values */
    uint32_t last_line;
    uint32_t literal_rank; /* the shape the brackets have */
    uint32_t literal_sizes[DMLCONF_MAX_DIMENSIONS];
    docgen_token *tokens; /* the numbers in page order */
    size_t token_count;
    void *values;       /* token_count packed elements: an input's, of its type; an output's,
                         * of its input's type, only when the brackets have the input's shape
                         * (else NULL) */
    bool *value_ok;     /* outputs: per token, whether it is a value of that type (else NULL) */
    size_t digit_comma; /* a comma between two digits in the values (a decimal comma, or a separator
                         * without a blank), + 1; 0 when none */
} docgen_tensor;

/* One example block: its parameters and its output. */
typedef struct docgen_example
{
    uint32_t line; /* its first parameter line */
    uint32_t axis_line;
    dmlconf_operator op;
    uint32_t axis;
    dmlconf_axis_direction direction;
    bool exclusive;
    size_t input; /* index into page->inputs */
    docgen_tensor output;
} docgen_example;

/* What decided how a page writes numbers. */
typedef enum docgen_number_evidence
{
    DOCGEN_NUMBERS_DEFAULT,       /* nothing: decimal points */
    DOCGEN_NUMBERS_DECIMAL_POINT, /* a tensor's value written with a decimal point ("2.5") */
    DOCGEN_NUMBERS_SEMICOLONS,    /* a tensor that separates its values with ';' */
    DOCGEN_NUMBERS_DECIMAL_COMMA, /* a tensor that writes "0,5" among values separated by ", " */
    DOCGEN_NUMBERS_METADATA,      /* the language the page declares (ms.contentlocale: de-DE) */
    DOCGEN_NUMBERS_WORDS,         /* the language of the page's keys and words ("Achse", "d.h.") */
} docgen_number_evidence;

/* How a page writes numbers: with decimal points or decimal commas. On a
 * page with decimal commas a comma between two digits belongs to the number
 * ("0,5"); values are separated by ", " (a comma and a blank) or ';'. docgen
 * reads the page's numbers and writes new ones its way. */
typedef struct docgen_numbers
{
    bool decimal_comma;
    char separator; /* between the values of a tensor written anew: ',' or ';' */
    docgen_number_evidence evidence;
    size_t evidence_offset; /* the text that decided ("2.5", "de-DE", "Achse") */
    size_t evidence_length;
    const char *language; /* for METADATA and WORDS: the language's English name */
} docgen_numbers;

/* A parsed page. The text is the page's bytes, unchanged (NUL-terminated for
 * convenience; the page itself may hold NUL bytes). */
typedef struct docgen_page
{
    char *path;
    char *text;
    size_t size;
    docgen_numbers numbers;
    size_t *line_starts; /* line_count + 1 offsets; the last one is size */
    uint32_t line_count;
    docgen_tensor *inputs;
    size_t input_count;
    size_t input_capacity;
    docgen_example *examples;
    size_t example_count;
    size_t example_capacity;
    dmlconf_diagnostics diagnostics; /* path:line:column: error: ..., with the line and a caret */
} docgen_page;

/* Reads and parses the page at `path`. `page` is overwritten (not freed
 * first) and must be released with docgen_page_free whatever the result.
 * Returns the number of errors (page->diagnostics holds them, with notes that
 * say more; an unreadable file is one error without a position). A block
 * with an error is left out of page->examples (an input with an error leaves
 * out the examples that use it); every other block is still parsed and kept.
 * A page without any example block is an error that says what was looked for
 * and what came closest. */
size_t docgen_page_load(docgen_page *page, const char *path);

/* Like docgen_page_load, for a page already in memory (`size` bytes, need not
 * be NUL-terminated; copied). `path` names it in messages. */
size_t docgen_page_load_buffer(docgen_page *page, const char *path, const char *text, size_t size);

/* Frees everything the page owns and zeroes it. NULL is allowed. */
void docgen_page_free(docgen_page *page);

/* The text of 1-based line `line` without its line break (\n or \r\n);
 * *length receives its length in bytes. Returns NULL for a line outside the
 * page. */
const char *docgen_page_line(const docgen_page *page, uint32_t line, size_t *length);

/* ---- checking and updating (check.c, rewrite.c, diff.c) --------------------- */

/* What check says about one example block. */
typedef struct docgen_verdict
{
    bool stale;            /* the page's numbers are not the oracle's */
    size_t differing;      /* output values that differ (all of them when the shape or header does) */
    size_t stale_comments; /* explanatory comments whose arithmetic is not the oracle's */
    size_t value_count;    /* output values the block should have */
    uint32_t line;         /* the first difference: a value, or the header, or the brackets */
    uint32_t column;
    char summary[DMLCONF_MESSAGE_SIZE]; /* "element [0,0,0,3] is 12 on the page, the oracle computes 11" */
    /* The rewrite: lines first_line .. first_line + old_line_count - 1 become
     * `replacement` (without the last line's line break). NULL when not stale. */
    uint32_t first_line;
    uint32_t old_line_count;
    char *replacement;
    size_t replacement_length;
} docgen_verdict;

/* Recomputes example `index` of the page with the oracle (from the input and
 * parameters the page gives it) and compares the page's output with it. Equal
 * values are equal bits, except that a NaN matches any NaN. The explanatory
 * comments of the output must show the arithmetic the oracle does (the
 * inputs it combines, "= N" its value). A stale verdict carries the rewrite
 * that update makes (docgen_rewrite_output). `verdict` is
 * overwritten; release it with docgen_verdict_free. Returns 0, or -1 with err
 * set (err may be NULL) when the oracle fails or memory runs out. */
int docgen_check_example(const docgen_page *page, size_t index, docgen_verdict *verdict, dmlconf_error *err);

/* Frees the verdict's replacement and zeroes it. NULL is allowed. */
void docgen_verdict_free(docgen_verdict *verdict);

/* Fills verdict's rewrite fields (first_line, old_line_count, replacement)
 * with the corrected text of example `index`'s output, given the oracle's
 * packed values `expected`. When the output's brackets have the input's
 * shape, only the wrong numbers change (and the header, when it is not the
 * input's): a column with a new number takes the width of its widest new
 * number plus the padding the page gives the column beyond its widest
 * numbers (the smallest gap before one of them), numbers right-aligned;
 * columns without a new number stay as they are; the `//` comments that
 * start in one column move together, by the largest change of their lines,
 * so that aligned comments stay aligned. Otherwise the header and the values
 * are written anew in the layout of docgen_format_tensor, each line keeping
 * its old comment. Numbers are written in the page's decimal separator. In
 * both cases a wrong explanatory comment is rewritten in place (its wrong
 * expressions only), and the closing brackets of comments that were aligned
 * stay aligned. Returns 0, or -1 when memory runs out. */
int docgen_rewrite_output(const docgen_page *page, size_t index, const void *expected, docgen_verdict *verdict);

/* Appends the page's text with every stale verdict's rewrite applied
 * (verdicts in any order; those not stale are skipped). Returns 0, or -1 when
 * two rewrites overlap or memory runs out. */
int docgen_page_apply(const docgen_page *page, const docgen_verdict *verdicts, size_t count, dmlconf_buffer *out);

/* Appends a unified diff of a stale verdict's rewrite ("--- PATH",
 * "+++ PATH (oracle)", "@@ -a,n +a,m @@" hunks over the lines that change).
 * Appends nothing for a verdict that is not stale. */
void docgen_format_diff(dmlconf_buffer *out, const docgen_page *page, const docgen_verdict *verdict);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_DOCGEN_H */
