/*
 * diff.c: what update would change in a stale block, as a unified diff.
 */
#include "docgen_internal.h"

#include <stdlib.h>
#include <string.h>

/* A line of text: pointer and length, without its line break. */
typedef struct text_line
{
    const char *text;
    size_t length;
} text_line;

/* Splits the replacement into lines (dropping the \r of \r\n). Returns a new
 * array of *count lines, or NULL when memory runs out. */
static text_line *split_lines(const char *text, size_t length, size_t *count)
{
    size_t lines = 1;
    for (size_t i = 0; i < length; ++i)
        lines += text[i] == '\n';
    text_line *result = malloc(lines * sizeof(*result));
    if (!result)
        return NULL;
    const char *line = text, *end = text + length;
    for (size_t i = 0; i < lines; ++i)
    {
        const char *newline = memchr(line, '\n', (size_t)(end - line));
        size_t size = newline ? (size_t)(newline - line) : (size_t)(end - line);
        result[i].text = line;
        result[i].length = size && line[size - 1] == '\r' ? size - 1 : size;
        line += size + 1;
    }
    *count = lines;
    return result;
}

static bool same_line(const text_line *a, const text_line *b)
{
    return a->length == b->length && !memcmp(a->text, b->text, a->length);
}

/* "@@ -a,n +b,m @@", then the old lines with '-' and the new with '+'. */
static void append_hunk(dmlconf_buffer *out, uint32_t old_first, const text_line *old_lines, size_t old_count,
                        const text_line *new_lines, size_t new_count)
{
    dmlconf_buffer_printf(out, "@@ -%u,%zu +%u,%zu @@\n", old_first, old_count, old_first, new_count);
    for (size_t i = 0; i < old_count; ++i)
    {
        dmlconf_buffer_puts(out, "-");
        dmlconf_buffer_append(out, old_lines[i].text, old_lines[i].length);
        dmlconf_buffer_puts(out, "\n");
    }
    for (size_t i = 0; i < new_count; ++i)
    {
        dmlconf_buffer_puts(out, "+");
        dmlconf_buffer_append(out, new_lines[i].text, new_lines[i].length);
        dmlconf_buffer_puts(out, "\n");
    }
}

void docgen_format_diff(dmlconf_buffer *out, const docgen_page *page, const docgen_verdict *verdict)
{
    if (!verdict->stale || !verdict->replacement)
        return;
    size_t new_count = 0, old_count = verdict->old_line_count;
    text_line *new_lines = split_lines(verdict->replacement, verdict->replacement_length, &new_count);
    text_line *old_lines = malloc((old_count ? old_count : 1) * sizeof(*old_lines));
    if (!new_lines || !old_lines)
    {
        free(new_lines);
        free(old_lines);
        out->failed = true;
        return;
    }
    for (size_t i = 0; i < old_count; ++i)
        old_lines[i].text = docgen_page_line(page, verdict->first_line + (uint32_t)i, &old_lines[i].length);

    dmlconf_buffer_printf(out, "--- %s\n+++ %s (oracle)\n", page->path, page->path);
    if (old_count == new_count)
    {
        /* Line for line: one hunk per run of changed lines. */
        for (size_t i = 0; i < old_count;)
        {
            if (same_line(&old_lines[i], &new_lines[i]))
            {
                ++i;
                continue;
            }
            size_t run = i;
            while (run < old_count && !same_line(&old_lines[run], &new_lines[run]))
                ++run;
            append_hunk(out, verdict->first_line + (uint32_t)i, old_lines + i, run - i, new_lines + i, run - i);
            i = run;
        }
    }
    else
    {
        /* One hunk between the lines both sides share at the ends. */
        size_t head = 0, tail = 0;
        while (head < old_count && head < new_count && same_line(&old_lines[head], &new_lines[head]))
            ++head;
        while (tail < old_count - head && tail < new_count - head &&
               same_line(&old_lines[old_count - 1 - tail], &new_lines[new_count - 1 - tail]))
            ++tail;
        append_hunk(out, verdict->first_line + (uint32_t)head, old_lines + head, old_count - head - tail,
                    new_lines + head, new_count - head - tail);
    }
    free(old_lines);
    free(new_lines);
}
