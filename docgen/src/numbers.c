/*
 * numbers.c: how a page writes its numbers, decimal points or decimal
 * commas, and reading and writing numbers its way.
 *
 * The rule, decided once per page before its blocks are read, first match
 * wins (the values speak louder than the words around them):
 *
 *   1. a tensor's value written with a decimal point ("2.5"): decimal points;
 *   2. a tensor that separates its values with ';' ("[0,5; 1,5]"): commas;
 *   3. a tensor that writes a comma between two digits ("0,5") and also a
 *      comma and a blank after a digit ("0,5, 1,5"): decimal commas;
 *   4. the language the page's metadata declares (ms.contentlocale, locale,
 *      lang, language: "de-DE"), or else the language of its words (keys
 *      such as "Achse", comment words such as "d.h.", titles such as
 *      "Beispiel"): decimal commas for German, French, Spanish, Italian,
 *      Portuguese and the other languages that write them;
 *   5. otherwise decimal points.
 *
 * On a page with decimal commas a comma between two digits, with no blank
 * on either side, belongs to the number ("0,5" is 0.5); every other comma,
 * and every ';', separates values. So "[0,5, 1,5]" and "[0,5; 1,5]" hold two
 * values, and "[1,2,3]" cannot be read: it is an error that says so. On a
 * page with decimal points every comma separates values.
 *
 * The tensors looked at for rules 1 to 3 are the lines that start with '['
 * and hold nothing but numbers, brackets, separators and // comments up to
 * the ']' that closes the first one.
 */
#include "docgen_internal.h"

#include <dmlconf/values.h>

#include <stdio.h>
#include <string.h>

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool numbers_is_decimal_comma(const docgen_numbers *numbers, const char *text, size_t begin, size_t end, size_t i)
{
    return numbers->decimal_comma && text[i] == ',' && i > begin && i + 1 < end && is_digit(text[i - 1]) &&
           is_digit(text[i + 1]);
}

/* What one tensor shows about the page's decimal separator. */
typedef struct clue
{
    size_t point;       /* a '.' between two digits, + 1; 0: none */
    size_t semicolon;   /* a ';', + 1 */
    size_t digit_comma; /* a ',' between two digits, + 1 */
    bool spaced_comma;  /* a ',' after a digit and before a blank */
} clue;

/* Reads the values that start with the '[' at `offset` for clues. Returns
 * the offset just after them, or 0 when the text is not a tensor's values
 * (prose that starts with '[', a Markdown link). */
static size_t read_clues(const docgen_page *page, size_t offset, clue *found)
{
    const char *text = page->text;
    size_t size = page->size, i = offset;
    unsigned depth = 0;
    memset(found, 0, sizeof(*found));
    while (i < size)
    {
        char c = text[i];
        if (c == '/' && i + 1 < size && text[i + 1] == '/')
        {
            while (i < size && text[i] != '\n')
                ++i;
            continue;
        }
        if (c == '[')
            ++depth;
        else if (c == ']')
        {
            if (!depth)
                return 0;
            if (!--depth)
                break;
        }
        else if (c == ',' || c == ';' || c == '.')
        {
            bool between = i > offset && i + 1 < size && is_digit(text[i - 1]) && is_digit(text[i + 1]);
            if (c == ';' && !found->semicolon)
                found->semicolon = i + 1;
            else if (c == '.' && between && !found->point)
                found->point = i + 1;
            else if (c == ',' && between && !found->digit_comma)
                found->digit_comma = i + 1;
            else if (c == ',' && i > offset && is_digit(text[i - 1]) && i + 1 < size &&
                     (text[i + 1] == ' ' || text[i + 1] == '\t'))
                found->spaced_comma = true;
        }
        else if (!(is_digit(c) || is_letter(c) || page_is_blank(c) || c == '\n' || c == '+' || c == '-' || c == ':'))
            return 0;
        ++i;
    }
    if (i >= size)
        return 0;
    /* After the last ']': blanks and a comment only. */
    size_t after = ++i;
    while (i < size && page_is_blank(text[i]))
        ++i;
    if (i < size && text[i] != '\n' && !(text[i] == '/' && i + 1 < size && text[i + 1] == '/'))
        return 0;
    return after;
}

/* The number around the separator at `offset`: its digits on both sides. */
static void number_around(const docgen_page *page, size_t offset, docgen_numbers *numbers)
{
    size_t begin = offset, end = offset + 1;
    while (begin > 0 && (is_digit(page->text[begin - 1]) || page->text[begin - 1] == '-'))
        --begin;
    while (end < page->size && is_digit(page->text[end]))
        ++end;
    numbers->evidence_offset = begin;
    numbers->evidence_length = end - begin;
}

void numbers_decide(docgen_page *page)
{
    docgen_numbers *numbers = &page->numbers;
    memset(numbers, 0, sizeof(*numbers));
    numbers->separator = ',';
    clue first = {0};
    for (uint32_t line = 1; line <= page->line_count; ++line)
    {
        size_t i = page_line_start(page, line), end = page_line_end(page, line);
        while (i < end && page_is_blank(page->text[i]))
            ++i;
        if (i == end || page->text[i] != '[')
            continue;
        clue found;
        size_t after = read_clues(page, i, &found);
        if (!after)
            continue;
        if (!first.point)
            first.point = found.point;
        if (!first.semicolon)
            first.semicolon = found.semicolon;
        if (!first.digit_comma && found.spaced_comma)
            first.digit_comma = found.digit_comma;
        line = page_line_of(page, after - 1);
    }
    if (first.point)
    {
        numbers->evidence = DOCGEN_NUMBERS_DECIMAL_POINT;
        number_around(page, first.point - 1, numbers);
        return;
    }
    if (first.semicolon)
    {
        numbers->decimal_comma = true;
        numbers->separator = ';';
        numbers->evidence = DOCGEN_NUMBERS_SEMICOLONS;
        numbers->evidence_offset = first.semicolon - 1;
        numbers->evidence_length = 1;
        return;
    }
    if (first.digit_comma)
    {
        numbers->decimal_comma = true;
        numbers->evidence = DOCGEN_NUMBERS_DECIMAL_COMMA;
        number_around(page, first.digit_comma - 1, numbers);
        return;
    }
    page_language language;
    if (language_of_page(page, &language))
    {
        numbers->decimal_comma = language.decimal_comma;
        numbers->language = language.name;
        numbers->evidence = language.metadata ? DOCGEN_NUMBERS_METADATA : DOCGEN_NUMBERS_WORDS;
        numbers->evidence_offset = language.offset;
        numbers->evidence_length = language.length;
    }
}

void numbers_reason(const docgen_page *page, dmlconf_buffer *out)
{
    const docgen_numbers *n = &page->numbers;
    int length = (int)(n->evidence_length > 40 ? 40 : n->evidence_length);
    const char *text = page->text + n->evidence_offset;
    uint32_t line = page_line_of(page, n->evidence_offset);
    switch (n->evidence)
    {
    case DOCGEN_NUMBERS_DECIMAL_POINT:
        dmlconf_buffer_printf(out, "line %u writes '%.*s' with a decimal point", line, length, text);
        break;
    case DOCGEN_NUMBERS_SEMICOLONS:
        dmlconf_buffer_printf(out, "line %u separates values with ';'", line);
        break;
    case DOCGEN_NUMBERS_DECIMAL_COMMA:
        dmlconf_buffer_printf(out, "line %u writes '%.*s' among values separated by ', '", line, length, text);
        break;
    case DOCGEN_NUMBERS_METADATA:
        dmlconf_buffer_printf(out, "its metadata says it is in %s: '%.*s' at line %u", n->language, length, text, line);
        break;
    case DOCGEN_NUMBERS_WORDS:
        dmlconf_buffer_printf(out, "it is written in %s: '%.*s' at line %u", n->language, length, text, line);
        break;
    default:
        dmlconf_buffer_puts(out, "no value has a decimal separator, and nothing shows a language that writes decimal "
                                 "commas");
        break;
    }
}

void numbers_note(docgen_page *page, size_t offset)
{
    dmlconf_buffer note = {0};
    if (page->numbers.decimal_comma)
    {
        dmlconf_buffer_puts(&note, "this page writes decimal commas (");
        numbers_reason(page, &note);
        dmlconf_buffer_printf(&note, "): a comma between two digits belongs to the number, so values must be "
                                     "separated by ', ' (a comma and a blank) or ';'");
    }
    else
    {
        dmlconf_buffer_puts(&note, "this page writes decimal points (");
        numbers_reason(page, &note);
        dmlconf_buffer_puts(&note, "): every comma separates values, even between two digits; ");
        if (page->numbers.evidence == DOCGEN_NUMBERS_DECIMAL_POINT)
            dmlconf_buffer_puts(&note, "a page writes all its numbers one way");
        else
            dmlconf_buffer_puts(&note, "docgen reads decimal commas on a page that separates its values by ', ' (a "
                                       "comma and a blank) or ';', or that declares its language (ms.contentlocale: "
                                       "de-DE)");
    }
    if (note.failed)
        page_note(page, offset, "%s", "out of memory");
    else
        page_note(page, offset, "%s", note.data);
    dmlconf_buffer_free(&note);
}

dmlconf_value_status numbers_parse(const docgen_numbers *numbers, dmlconf_data_type type, const char *text,
                                   size_t length, void *element, char *why, size_t why_size)
{
    char buffer[DOCGEN_MAX_TOKEN + 1];
    if (length > DOCGEN_MAX_TOKEN || memchr(text, '\0', length))
    {
        if (why && why_size)
            snprintf(why, why_size, "'%.24s...' is not a number", text);
        return DMLCONF_VALUE_SYNTAX;
    }
    memcpy(buffer, text, length);
    buffer[length] = '\0';
    char *comma = numbers->decimal_comma ? strchr(buffer, ',') : NULL;
    if (comma && !strchr(comma + 1, ','))
        *comma = '.';
    else
        comma = NULL;
    dmlconf_value_status status = dmlconf_value_parse(type, buffer, true, element, why, why_size);
    /* The message quotes the number as the page writes it. */
    char *quoted = status != DMLCONF_VALUE_OK && comma && why ? strstr(why, buffer) : NULL;
    if (quoted)
        quoted[comma - buffer] = ',';
    return status;
}

size_t numbers_format(const docgen_numbers *numbers, dmlconf_data_type type, const void *element, char *buffer,
                      size_t size)
{
    size_t length = dmlconf_value_format(type, element, DMLCONF_VALUE_STYLE_SHORTEST, buffer, size);
    if (numbers->decimal_comma)
    {
        char *point = memchr(buffer, '.', length);
        if (point)
            *point = ',';
    }
    return length;
}
