/*
 * Internal interface of the docgen library: positions in a page and the
 * parser's error reporting (page.c), the tensor literal parser (literal.c).
 */
#ifndef DMLCONF_DOCGEN_INTERNAL_H
#define DMLCONF_DOCGEN_INTERNAL_H

#include <dmlconf/compiler.h>
#include <dmlconf/docgen.h>

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

/* ---- tensor literals (literal.c) -------------------------------------------- */

/* Parses the bracketed values that start with the '[' at byte `offset` and
 * end with its matching ']', which must be followed on its line by nothing
 * but blanks and a `//` comment. Fills tensor's first_line, last_line,
 * literal_rank, literal_sizes and tokens (owned by the tensor; freed by the
 * caller even on failure). The lists must be regular (every list at one depth
 * has the same length and holds either numbers or lists) and every token
 * must read as a number of some kind. Returns 0, or -1 after reporting the
 * first problem with page_error. */
int literal_parse(docgen_page *page, size_t offset, docgen_tensor *tensor);

/* ---- comparing values (check.c) ---------------------------------------------- */

/* True when two elements of `type` are the same value: the same bits, or two
 * NaNs (whatever their payloads). */
bool check_same_value(dmlconf_data_type type, const unsigned char *a, const unsigned char *b);

/* True when an output's header has its input's data type and sizes. */
bool check_header_matches(const docgen_tensor *output, const docgen_tensor *input);

#endif /* DMLCONF_DOCGEN_INTERNAL_H */
