/*
 * page.c: a documentation page: reading it, its lines and the positions in
 * them, and its diagnostics (path:line:column, the message, the line and a
 * caret under the column). Loading a page decides how it writes numbers
 * (numbers.c) and finds its example blocks (blocks.c).
 */
#include "docgen_internal.h"

#include <dmlconf/file_system.h>

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
    dmlconf_buffer snippet = {0};
    dmlconf_buffer_puts(&snippet, from > start ? "..." : "");
    for (size_t i = from; i < to; ++i)
    {
        char c = text[i];
        dmlconf_buffer_repeat(&snippet, (unsigned char)c < 0x20 && c != '\t' ? '?' : c, 1);
    }
    dmlconf_buffer_puts(&snippet, to < end ? "...\n" : "\n");
    dmlconf_buffer_puts(&snippet, from > start ? "   " : "");
    for (size_t i = from; i < offset; ++i)
    {
        if (text[i] == '\t')
            dmlconf_buffer_repeat(&snippet, '\t', 1);
        else if (((unsigned char)text[i] & 0xc0) != 0x80)
            dmlconf_buffer_repeat(&snippet, ' ', 1);
    }
    dmlconf_buffer_puts(&snippet, "^\n");
    return dmlconf_buffer_take(&snippet);
}

/* Adds a diagnostic at byte `offset`, with its snippet. */
static void report(docgen_page *page, dmlconf_severity severity, size_t offset, const char *format, va_list args)
{
    dmlconf_buffer text = {0};
    dmlconf_buffer_vprintf(&text, format, args);
    char *message = dmlconf_buffer_take(&text);
    dmlconf_diagnostics *list = &page->diagnostics;
    size_t before = list->count;
    dmlconf_diagnostics_add(list, severity, page->path, page_line_of(page, offset), page_column_of(page, offset), "%s",
                            message ? message : "out of memory");
    free(message);
    if (list->count > before)
        list->items[list->count - 1].snippet = make_snippet(page, offset);
}

void page_error(docgen_page *page, size_t offset, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    report(page, DMLCONF_SEVERITY_ERROR, offset, format, args);
    va_end(args);
}

void page_note(docgen_page *page, size_t offset, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    report(page, DMLCONF_SEVERITY_NOTE, offset, format, args);
    va_end(args);
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
    numbers_decide(page);
    blocks_find(page);
    return page->diagnostics.error_count;
}

size_t docgen_page_load(docgen_page *page, const char *path)
{
    dmlconf_buffer text = {0};
    char reason[256];
    /* A named pipe or a device would block or never end: only a regular
     * file is a page. */
    FILE *file = dmlconf_open_regular_file(path, NULL, reason, sizeof(reason));
    if (!file)
    {
        memset(page, 0, sizeof(*page));
        dmlconf_diagnostics_add(&page->diagnostics, DMLCONF_SEVERITY_ERROR, path, 0, 0, "cannot open the page: %s",
                                reason);
        return page->diagnostics.error_count;
    }
    char buffer[65536];
    size_t got;
    while ((got = fread(buffer, 1, sizeof(buffer), file)) > 0 && text.length <= MAX_PAGE_BYTES)
        dmlconf_buffer_append(&text, buffer, got);
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
        dmlconf_buffer_free(&text);
        memset(page, 0, sizeof(*page));
        dmlconf_diagnostics_add(&page->diagnostics, DMLCONF_SEVERITY_ERROR, path, 0, 0, "%s", why);
        return page->diagnostics.error_count;
    }
    size_t errors = docgen_page_load_buffer(page, path, text.data ? text.data : "", text.length);
    dmlconf_buffer_free(&text);
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
