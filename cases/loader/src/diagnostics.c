/*
 * diagnostics.c: the list of messages a load produces, and their netplan-style
 * text (path:line:column: error: message, then the source line and a caret).
 */
#include "loader_internal.h"

#include <dmlconf/buffer.h>
#include <dmlconf/reserve.h>
#include <dmlconf/text.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

char *loader_vformat(const char *format, va_list args)
{
    dmlconf_buffer text = {0};

    dmlconf_buffer_vprintf(&text, format, args);
    return dmlconf_buffer_take(&text);
}

int loader_diagnostics_push(dmlconf_diagnostics *list, dmlconf_severity severity, const char *file, uint32_t line,
                            uint32_t column, char *message, char *snippet)
{
    dmlconf_diagnostic *item;
    char *file_copy = NULL;

    if (severity == DMLCONF_SEVERITY_ERROR)
    {
        ++list->error_count;
    }
    if (!message || !dmlconf_reserve((void **)&list->items, &list->capacity, list->count + 1, sizeof(*list->items)))
    {
        goto fail;
    }
    if (file && !(file_copy = dmlconf_strdup(file)))
    {
        goto fail;
    }
    item = &list->items[list->count++];
    item->severity = severity;
    item->file = file_copy;
    item->line = line;
    item->column = column;
    item->message = message;
    item->snippet = snippet;
    item->related_label = NULL;
    item->related_file = NULL;
    item->related_line = item->related_column = 0;
    return 0;

fail:
    free(file_copy);
    free(message);
    free(snippet);
    return -1;
}

int loader_diagnostics_relate(dmlconf_diagnostics *list, const char *label, const char *file, uint32_t line,
                              uint32_t column)
{
    dmlconf_diagnostic *item;

    if (!list->count)
    {
        return -1;
    }
    item = &list->items[list->count - 1];
    item->related_label = dmlconf_strdup(label);
    item->related_file = dmlconf_strdup(file);
    if (!item->related_label || !item->related_file)
    {
        free(item->related_label);
        free(item->related_file);
        item->related_label = item->related_file = NULL;
        return -1;
    }
    item->related_line = line;
    item->related_column = column;
    return 0;
}

int dmlconf_diagnostics_add(dmlconf_diagnostics *list, dmlconf_severity severity, const char *file, uint32_t line,
                            uint32_t column, const char *format, ...)
{
    va_list args;
    char *message;

    va_start(args, format);
    message = loader_vformat(format, args);
    va_end(args);
    return loader_diagnostics_push(list, severity, file, line, column, message, NULL);
}

uint32_t loader_control_character(const char *text, bool allow_tab_and_newline)
{
    return dmlconf_text_first_control(text, allow_tab_and_newline);
}

/* Appends text with every control character escaped, so that nothing from a
 * case file (a YAML escape such as "\e]0;title\a" in a scalar, a file name)
 * acts on the terminal: \n, \r and \t as such, other C0 controls, DEL and
 * bytes that are not UTF-8 as \xNN, C1 and invisible format controls as
 * \uNNNN. Printable text, UTF-8 included, is kept. */
static void text_append_escaped(dmlconf_buffer *buffer, const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    char escape[16];
    uint32_t code;
    size_t run, length;

    while (*p)
    {
        for (run = 0; p[run] >= 0x20 && p[run] < 0x7f; ++run)
        {
        }
        dmlconf_buffer_append(buffer, (const char *)p, run);
        p += run;
        if (!*p)
        {
            break;
        }
        if (*p < 0x80)
        {
            if (*p == '\n' || *p == '\r' || *p == '\t')
            {
                snprintf(escape, sizeof(escape), "\\%c", *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't');
            }
            else
            {
                snprintf(escape, sizeof(escape), "\\x%02x", (unsigned)*p);
            }
            dmlconf_buffer_puts(buffer, escape);
            ++p;
            continue;
        }
        length = dmlconf_utf8_decode((const char *)p, &code);
        if (!length)
        {
            snprintf(escape, sizeof(escape), "\\x%02x", (unsigned)*p);
            dmlconf_buffer_puts(buffer, escape);
            ++p;
        }
        else if (dmlconf_text_is_control(code, false))
        {
            snprintf(escape, sizeof(escape), "\\u%04" PRIx32, code);
            dmlconf_buffer_puts(buffer, escape);
            p += length;
        }
        else
        {
            dmlconf_buffer_append(buffer, (const char *)p, length);
            p += length;
        }
    }
}

/* The path as printed: without base_dir and its '/' when it starts with them. */
static const char *display_path(const char *path, const char *base_dir)
{
    size_t length;

    if (!base_dir || !*base_dir)
    {
        return path;
    }
    length = strlen(base_dir);
    while (length > 1 && base_dir[length - 1] == '/')
    {
        --length;
    }
    if (!strncmp(path, base_dir, length) && path[length] == '/')
    {
        return path + length + 1;
    }
    return path;
}

static void format_one(dmlconf_buffer *buffer, const dmlconf_diagnostic *item, const char *base_dir)
{
    char position[64];

    if (item->file)
    {
        text_append_escaped(buffer, display_path(item->file, base_dir));
        if (item->line)
        {
            snprintf(position, sizeof(position), ":%" PRIu32 ":%" PRIu32, item->line, item->column);
            dmlconf_buffer_puts(buffer, position);
        }
        dmlconf_buffer_puts(buffer, ": ");
    }
    dmlconf_buffer_puts(buffer, item->severity == DMLCONF_SEVERITY_ERROR ? "error: " : "note: ");
    text_append_escaped(buffer, item->message);
    if (item->related_label)
    {
        dmlconf_buffer_puts(buffer, " (");
        text_append_escaped(buffer, item->related_label);
        dmlconf_buffer_puts(buffer, " ");
        text_append_escaped(buffer, item->related_file ? display_path(item->related_file, base_dir) : "?");
        snprintf(position, sizeof(position), ":%" PRIu32 ":%" PRIu32 ")", item->related_line, item->related_column);
        dmlconf_buffer_puts(buffer, position);
    }
    dmlconf_buffer_puts(buffer, "\n");
    if (item->snippet)
    {
        dmlconf_buffer_puts(buffer, item->snippet);
    }
}

char *dmlconf_diagnostics_format(const dmlconf_diagnostics *list, const char *base_dir)
{
    dmlconf_buffer buffer = {0};
    size_t i;

    for (i = 0; i < list->count; ++i)
    {
        format_one(&buffer, &list->items[i], base_dir);
    }
    return dmlconf_buffer_take(&buffer);
}

int dmlconf_diagnostics_print(const dmlconf_diagnostics *list, const char *base_dir, FILE *out)
{
    char *text;
    size_t length;
    int result = 0;

    text = dmlconf_diagnostics_format(list, base_dir);
    if (!text)
    {
        return -1;
    }
    length = strlen(text);
    if (length && fwrite(text, 1, length, out) != length)
    {
        result = -1;
    }
    free(text);
    return result;
}

void dmlconf_diagnostics_free(dmlconf_diagnostics *list)
{
    size_t i;

    if (!list)
    {
        return;
    }
    for (i = 0; i < list->count; ++i)
    {
        free(list->items[i].file);
        free(list->items[i].message);
        free(list->items[i].snippet);
        free(list->items[i].related_label);
        free(list->items[i].related_file);
    }
    free(list->items);
    memset(list, 0, sizeof(*list));
}
