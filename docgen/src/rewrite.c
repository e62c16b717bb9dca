/*
 * rewrite.c: correcting a page's example outputs, and writing the page back.
 *
 * Only the lines of a stale output change. When its brackets have the right
 * shape, only the wrong numbers are replaced (and the header, if it is not the
 * input's): a column with a new number takes the width of its widest new
 * number plus the padding the page gave it beyond its widest numbers (the
 * smallest gap before one of its numbers), its numbers right-aligned;
 * columns without a new number stay as they are; the `//` comments that
 * start in one column move together, by the largest change of their lines,
 * so that aligned comments stay aligned. Lines whose text does not change
 * are kept byte for byte, line breaks and tabs included.
 */
#define _POSIX_C_SOURCE 200809L

#include "docgen_internal.h"

#include <dmlconf/values.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The new text of one number. */
typedef struct new_number
{
    const char *text; /* the page's own text when its value is right, else buffer */
    size_t length;
    bool changed;
    char buffer[DMLCONF_VALUE_TEXT_SIZE];
} new_number;

/* One line of the output being rewritten. */
typedef struct line_parts
{
    dmlconf_buffer code;            /* the new text before the comment, without trailing blanks */
    size_t old_code;                /* the old one's length (from the line's start) */
    size_t gap_begin;               /* offset of the blanks after the old code */
    size_t comment;                 /* offset of the "//", or the line's end */
    size_t end;                     /* offset of the line's end */
    const dmlconf_buffer *new_comment; /* the comment rewritten (comment.c), or NULL: as it is */
} line_parts;

/* The comments that start in one column of the old text, and how far they
 * move. */
typedef struct comment_group
{
    size_t column;
    long long shift;
    bool set;
} comment_group;

/* The offset of the first "//" in [from, end), or end. */
static size_t find_comment(const docgen_page *page, size_t from, size_t end)
{
    for (size_t i = from; i + 1 < end; ++i)
    {
        if (page->text[i] == '/' && page->text[i + 1] == '/')
            return i;
    }
    return end;
}

/* Appends the line break after 1-based line `line` (none after the last). */
static void append_break(dmlconf_buffer *out, const docgen_page *page, uint32_t line)
{
    size_t end = page_line_end(page, line);
    dmlconf_buffer_append(out, page->text + end, page_line_start(page, line + 1) - end);
}

/* Splits a line into its code and its comment; `parts->code` is left empty. */
static void split_line(const docgen_page *page, uint32_t line, size_t from, line_parts *parts)
{
    size_t start = page_line_start(page, line);
    parts->end = page_line_end(page, line);
    parts->comment = find_comment(page, from > start ? from : start, parts->end);
    parts->gap_begin = parts->comment;
    while (parts->gap_begin > start && page_is_blank(page->text[parts->gap_begin - 1]))
        --parts->gap_begin;
    parts->old_code = parts->gap_begin - start;
}

/* Appends a line made of new code and the old line's comment (or its
 * rewrite), moved by `shift` columns but always at least one blank after the
 * code (none when the page had none); a comment after a tab keeps its gap. A
 * line without a comment keeps its trailing blanks. */
static void append_line(dmlconf_buffer *out, const docgen_page *page, uint32_t line, const line_parts *parts,
                        long long shift)
{
    size_t start = page_line_start(page, line);
    dmlconf_buffer_append(out, parts->code.data ? parts->code.data : "", parts->code.length);
    if (parts->comment == parts->end)
    {
        dmlconf_buffer_append(out, page->text + parts->gap_begin, parts->end - parts->gap_begin);
        return;
    }
    long long old_column = (long long)(parts->comment - start);
    long long column = old_column + shift;
    long long least = (long long)parts->code.length + (parts->comment > parts->gap_begin && parts->code.length);
    column = column > least ? column : least;
    /* A gap with a tab is not aligned by columns (tab stops do that): it
     * stays as it is. */
    bool tabbed = memchr(page->text + parts->gap_begin, '\t', parts->comment - parts->gap_begin) != NULL;
    if (tabbed || (column == old_column && parts->code.length == parts->old_code))
        dmlconf_buffer_append(out, page->text + parts->gap_begin, parts->comment - parts->gap_begin);
    else
        dmlconf_buffer_repeat(out, ' ', (size_t)(column - (long long)parts->code.length));
    if (parts->new_comment)
        dmlconf_buffer_append(out, parts->new_comment->data, parts->new_comment->length);
    else
        dmlconf_buffer_append(out, page->text + parts->comment, parts->end - parts->comment);
}

/* The comment fixes' new text for line `i` of the output, or NULL. */
static const dmlconf_buffer *new_comment(const comment_fixes *fixes, size_t i)
{
    return i < fixes->line_count && fixes->comments[i].data ? &fixes->comments[i] : NULL;
}

/* The blank that separates a number from the ',' or ';' before it (counted
 * in its pad, but not in its field). */
static size_t separator(const docgen_page *page, const docgen_token *token)
{
    char before = token->pad && !token->line_first ? page->text[token->offset - token->pad - 1] : '\0';
    return before == ',' || before == ';' ? 1 : 0;
}

/* Each number of the output as it will stand: the page's own text where
 * its value is right, else the expected value formatted in the page's
 * style (changed). */
static void choose_numbers(const docgen_page *page, const docgen_tensor *t, dmlconf_data_type type,
                           const unsigned char *expected, new_number *numbers)
{
    size_t element = dmlconf_value_size(type);
    for (size_t k = 0; k < t->token_count; ++k)
    {
        const docgen_token *token = &t->tokens[k];
        new_number *n = &numbers[k];
        const unsigned char *value = expected + k * element;
        if (t->value_ok[k] && check_same_value(type, (const unsigned char *)t->values + k * element, value))
        {
            n->text = page->text + token->offset;
            n->length = token->length;
        }
        else
        {
            n->length = numbers_format(&page->numbers, type, value, n->buffer, sizeof(n->buffer));
            n->text = n->buffer;
            n->changed = true;
        }
    }
}

/* A column with a new number gets the width of its widest new number plus
 * the padding the page gave it beyond its widest numbers: the smallest gap
 * before a number of the column (one space after a comma is the separator,
 * not padding). A page aligned by the rule has none; a page that pads a
 * column wider keeps that; a row that was edited by hand without realigning
 * its column does not widen the others. field[c] 0: keep column c as it is. */
static void column_fields(const docgen_page *page, const docgen_tensor *t, const new_number *numbers, size_t columns,
                          size_t *field)
{
    for (size_t c = 0; c < columns; ++c)
    {
        size_t new_widest = 0, least_gap = SIZE_MAX;
        bool changed = false;
        for (size_t k = c; k < t->token_count; k += columns)
        {
            const docgen_token *token = &t->tokens[k];
            new_widest = numbers[k].length > new_widest ? numbers[k].length : new_widest;
            changed |= numbers[k].changed;
            size_t gap = token->pad - separator(page, token);
            if (!token->line_first && gap < least_gap)
                least_gap = gap;
        }
        if (changed && least_gap != SIZE_MAX)
            field[c] = new_widest + least_gap;
    }
}

/* Rebuilds each line's code with its numbers and their fields, and finds
 * its comment (and the fix for it). Returns 0, or -1 when memory runs out. */
static int rebuild_lines(const docgen_page *page, const docgen_tensor *t, const new_number *numbers,
                         const size_t *field, size_t columns, const comment_fixes *fixes, line_parts *parts)
{
    uint32_t lines = t->last_line - t->first_line + 1;
    size_t k = 0;
    for (uint32_t i = 0; i < lines; ++i)
    {
        uint32_t line = t->first_line + i;
        size_t cursor = page_line_start(page, line);
        line_parts *p = &parts[i];
        for (; k < t->token_count && t->tokens[k].line == line; ++k)
        {
            const docgen_token *token = &t->tokens[k];
            size_t pad_begin = token->offset - token->pad, width = field[k % columns];
            size_t sep = separator(page, token);
            dmlconf_buffer_append(&p->code, page->text + cursor, pad_begin - cursor);
            if (token->line_first || !width || token->pad == sep + width - numbers[k].length)
                dmlconf_buffer_append(&p->code, page->text + pad_begin, token->pad);
            else
                dmlconf_buffer_repeat(&p->code, ' ', sep + width - numbers[k].length);
            dmlconf_buffer_append(&p->code, numbers[k].text, numbers[k].length);
            cursor = token->offset + token->length;
        }
        split_line(page, line, cursor, p);
        p->new_comment = new_comment(fixes, i);
        if (p->gap_begin > cursor)
            dmlconf_buffer_append(&p->code, page->text + cursor, p->gap_begin - cursor);
        if (p->code.failed)
            return -1;
    }
    return 0;
}

/* Comments aligned in one column stay aligned: the column moves by the
 * largest change of the lines whose comments are in it. Fills groups (one
 * per column of comments) and group_of (each line's). */
static void group_comments(const docgen_page *page, const docgen_tensor *t, const line_parts *parts,
                           comment_group *groups, size_t *group_of)
{
    uint32_t lines = t->last_line - t->first_line + 1;
    size_t group_count = 0;
    for (uint32_t i = 0; i < lines; ++i)
    {
        const line_parts *p = &parts[i];
        size_t column = p->comment - page_line_start(page, t->first_line + i);
        if (p->comment == p->end)
            continue;
        size_t g = 0;
        while (g < group_count && groups[g].column != column)
            ++g;
        if (g == group_count)
        {
            groups[group_count].column = column;
            groups[group_count].set = false;
            groups[group_count++].shift = 0;
        }
        group_of[i] = g;
        long long change = (long long)p->code.length - (long long)p->old_code;
        if (p->old_code && (!groups[g].set || change > groups[g].shift))
        {
            groups[g].shift = change;
            groups[g].set = true;
        }
    }
}

/* Appends the output's lines: a line left as it was byte for byte, the
 * others rebuilt with their comments moved with their column. */
static void write_lines(dmlconf_buffer *out, const docgen_page *page, const docgen_tensor *t,
                        const line_parts *parts, const comment_group *groups, const size_t *group_of)
{
    uint32_t lines = t->last_line - t->first_line + 1;
    for (uint32_t i = 0; i < lines; ++i)
    {
        uint32_t line = t->first_line + i;
        size_t start = page_line_start(page, line);
        const line_parts *p = &parts[i];
        long long shift = p->comment < p->end ? groups[group_of[i]].shift : 0;
        if (!shift && !p->new_comment && p->code.length == p->old_code &&
            !memcmp(p->code.data ? p->code.data : "", page->text + start, p->old_code))
            dmlconf_buffer_append(out, page->text + start, p->end - start);
        else
            append_line(out, page, line, p, shift);
        if (i + 1 < lines)
            append_break(out, page, line);
    }
}

/* The brackets have the input's shape: replace the wrong numbers (and the
 * wrong explanatory comments) in place. */
static int rewrite_numbers(const docgen_page *page, size_t index, const unsigned char *expected, dmlconf_buffer *out)
{
    const docgen_example *e = &page->examples[index];
    const docgen_tensor *t = &e->output;
    const docgen_tensor *input = &page->inputs[e->input];
    size_t columns = input->sizes[input->rank - 1];
    uint32_t lines = t->last_line - t->first_line + 1;
    new_number *numbers = calloc(t->token_count, sizeof(*numbers));
    size_t *field = calloc(columns, sizeof(*field));
    line_parts *parts = calloc(lines, sizeof(*parts));
    comment_group *groups = calloc(lines, sizeof(*groups));
    size_t *group_of = calloc(lines, sizeof(*group_of));
    comment_fixes fixes = {0};
    int result = -1;
    if (numbers && field && parts && groups && group_of && !comment_check(page, index, expected, NULL, &fixes))
    {
        choose_numbers(page, t, input->type, expected, numbers);
        column_fields(page, t, numbers, columns, field);
        if (rebuild_lines(page, t, numbers, field, columns, &fixes, parts) == 0)
        {
            group_comments(page, t, parts, groups, group_of);
            write_lines(out, page, t, parts, groups, group_of);
            result = out->failed ? -1 : 0;
        }
    }
    for (uint32_t i = 0; parts && i < lines; ++i)
        dmlconf_buffer_free(&parts[i].code);
    comment_fixes_free(&fixes);
    free(group_of);
    free(groups);
    free(parts);
    free(field);
    free(numbers);
    return result;
}

/* Appends the output's header line with the input's sizes and data type in
 * place of its own (its labels and spacing kept), and its line break. */
static void append_header(dmlconf_buffer *out, const docgen_page *page, const docgen_tensor *t,
                          const docgen_tensor *input)
{
    size_t start = page_line_start(page, t->header_line);
    dmlconf_buffer_append(out, page->text + start, t->sizes_begin - start);
    for (uint32_t d = 0; d < input->rank; ++d)
        dmlconf_buffer_printf(out, "%s%u", d ? "," : "", input->sizes[d]);
    dmlconf_buffer_append(out, page->text + t->sizes_end, t->type_begin - t->sizes_end);
    dmlconf_buffer_puts(out, dmlconf_data_type_name(input->type));
    dmlconf_buffer_append(out, page->text + t->type_end, page_line_end(page, t->header_line) - t->type_end);
    append_break(out, page, t->header_line);
}

/* The rows of the new values' lines, for their comments: line i of the
 * literal (one row per line, blank lines between blocks). */
static size_t *rows_of_lines(const dmlconf_buffer *literal, size_t line_count)
{
    size_t *rows = malloc((line_count ? line_count : 1) * sizeof(*rows));
    if (!rows)
        return NULL;
    size_t row = 0, i = 0;
    for (const char *line = literal->data, *end = literal->data + literal->length; line < end && i < line_count; ++i)
    {
        size_t length = (size_t)((const char *)memchr(line, '\n', (size_t)(end - line)) - line);
        rows[i] = length ? row++ : SIZE_MAX;
        line += length + 1;
    }
    for (; i < line_count; ++i)
        rows[i] = SIZE_MAX;
    return rows;
}

/* The header or the shape is wrong: write the header and the values anew,
 * each line keeping its old comment (an explanation rewritten for the row
 * now on its line). */
static int rewrite_tensor(const docgen_page *page, size_t index, const unsigned char *expected, dmlconf_buffer *out)
{
    const docgen_example *e = &page->examples[index];
    const docgen_tensor *t = &e->output;
    const docgen_tensor *input = &page->inputs[e->input];
    uint32_t old_lines = t->last_line - t->first_line + 1;
    int result = -1;
    dmlconf_buffer literal = {0};
    comment_fixes fixes = {0};
    size_t *rows = NULL;
    line_parts *parts = calloc(old_lines, sizeof(*parts));
    if (!parts)
        return -1;

    append_header(out, page, t, input);

    /* The old lines' code and comments. */
    size_t old_widest = 0;
    for (uint32_t i = 0; i < old_lines; ++i)
    {
        split_line(page, t->first_line + i, 0, &parts[i]);
        old_widest = parts[i].old_code > old_widest ? parts[i].old_code : old_widest;
    }
    size_t first = page_line_start(page, t->first_line), indent = 0;
    while (page_is_blank(page->text[first + indent]))
        ++indent;

    /* The new lines, indented as the old first line was. */
    layout_format_tensor(&literal, &page->numbers, input->type, input->rank, input->sizes, expected);
    if (literal.failed || !(rows = rows_of_lines(&literal, old_lines)) ||
        comment_check(page, index, expected, rows, &fixes))
        goto done;
    for (uint32_t i = 0; i < old_lines; ++i)
        parts[i].new_comment = new_comment(&fixes, i);
    size_t new_lines = 0, new_widest = 0;
    for (const char *line = literal.data, *end = literal.data + literal.length; line < end; ++new_lines)
    {
        size_t length = (size_t)((const char *)memchr(line, '\n', (size_t)(end - line)) - line);
        size_t width = length ? length + indent : 0;
        new_widest = width > new_widest ? width : new_widest;
        line += length + 1;
    }
    long long shift = (long long)new_widest - (long long)old_widest;

    const char *line = literal.data;
    size_t total = new_lines > old_lines ? new_lines : old_lines;
    bool first_line = true;
    for (size_t i = 0; i < total; ++i)
    {
        bool has_comment = i < old_lines && parts[i].comment < parts[i].end;
        line_parts p = {0};
        if (has_comment)
            p = parts[i]; /* the old line's comment and where it was */
        if (i < new_lines)
        {
            size_t length =
                (size_t)((const char *)memchr(line, '\n', literal.length - (size_t)(line - literal.data)) - line);
            if (length)
                dmlconf_buffer_append(&p.code, page->text + first, indent);
            dmlconf_buffer_append(&p.code, line, length);
            line += length + 1;
        }
        else if (!has_comment)
            continue;
        if (!first_line)
            append_break(out, page, t->header_line);
        first_line = false;
        if (has_comment)
            append_line(out, page, t->first_line + (uint32_t)i, &p, shift);
        else
            dmlconf_buffer_append(out, p.code.data ? p.code.data : "", p.code.length);
        out->failed |= p.code.failed;
        dmlconf_buffer_free(&p.code);
    }
    result = out->failed ? -1 : 0;

done:
    comment_fixes_free(&fixes);
    free(rows);
    dmlconf_buffer_free(&literal);
    free(parts);
    return result;
}

int docgen_rewrite_output(const docgen_page *page, size_t index, const void *expected, docgen_verdict *verdict)
{
    const docgen_example *e = &page->examples[index];
    const docgen_tensor *t = &e->output;
    dmlconf_buffer text = {0};
    int result;
    if (t->values)
    {
        /* The header too, when it is not the input's. */
        bool header = !check_header_matches(t, &page->inputs[e->input]);
        verdict->first_line = header ? t->header_line : t->first_line;
        if (header)
            append_header(&text, page, t, &page->inputs[e->input]);
        result = rewrite_numbers(page, index, expected, &text);
    }
    else
    {
        verdict->first_line = t->header_line;
        result = rewrite_tensor(page, index, expected, &text);
    }
    if (result || text.failed)
    {
        dmlconf_buffer_free(&text);
        return -1;
    }
    verdict->old_line_count = t->last_line - verdict->first_line + 1;
    free(verdict->replacement);
    verdict->replacement = text.data ? text.data : calloc(1, 1);
    verdict->replacement_length = text.length;
    return verdict->replacement ? 0 : -1;
}

/* ---- applying rewrites ------------------------------------------------------------ */

static int compare_first_lines(const void *a, const void *b)
{
    const docgen_verdict *x = *(const docgen_verdict *const *)a, *y = *(const docgen_verdict *const *)b;
    return x->first_line < y->first_line ? -1 : x->first_line > y->first_line;
}

int docgen_page_apply(const docgen_page *page, const docgen_verdict *verdicts, size_t count, dmlconf_buffer *out)
{
    const docgen_verdict **stale = malloc((count ? count : 1) * sizeof(*stale));
    if (!stale)
        return -1;
    size_t stale_count = 0;
    for (size_t i = 0; i < count; ++i)
    {
        if (verdicts[i].stale && verdicts[i].replacement)
            stale[stale_count++] = &verdicts[i];
    }
    qsort(stale, stale_count, sizeof(*stale), compare_first_lines);

    int result = 0;
    size_t copied = 0; /* bytes of the page already handled */
    uint32_t next_line = 1;
    for (size_t i = 0; i < stale_count && !result; ++i)
    {
        const docgen_verdict *v = stale[i];
        if (v->first_line < next_line)
        {
            result = -1; /* two rewrites of the same lines */
            break;
        }
        dmlconf_buffer_append(out, page->text + copied, page_line_start(page, v->first_line) - copied);
        dmlconf_buffer_append(out, v->replacement, v->replacement_length);
        next_line = v->first_line + v->old_line_count;
        copied = page_line_end(page, next_line - 1);
    }
    dmlconf_buffer_append(out, page->text + copied, page->size - copied);
    free(stale);
    return result || out->failed ? -1 : 0;
}
