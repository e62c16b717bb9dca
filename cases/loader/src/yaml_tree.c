/*
 * yaml_tree.c: a small YAML file read whole into a tree (dmlconf/yaml_tree.h),
 * over the case loader's source text (size limit, UTF-8 check, marks,
 * snippets) and libyaml's events, with the same refusals as case files.
 */
#include "loader_internal.h"

#include <dmlconf/yaml_tree.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct dmlconf_yaml_file
{
    loader_source source;
    char *path;
    dmlconf_yaml_limits limits;
    dmlconf_yaml_node *root;
    size_t nodes;
    size_t errors;         /* errors this file reported */
    bool errors_truncated; /* the limit's note was added */
};

/* A collection being read, and a mapping's key waiting for its value. */
typedef struct open_node
{
    dmlconf_yaml_node *node;
    dmlconf_yaml_node *key;
    size_t capacity;
} open_node;

typedef struct tree_reader
{
    dmlconf_yaml_file *file;
    dmlconf_diagnostics *diagnostics;
    yaml_parser_t parser;
    open_node *stack;
    uint32_t depth;
    size_t documents;
    bool failed; /* an error that stops the file */
} tree_reader;

int dmlconf_yaml_file_error(dmlconf_yaml_file *file, dmlconf_diagnostics *diagnostics, dmlconf_mark mark,
                            const char *related_label, dmlconf_mark related, const char *format, ...)
{
    va_list args;
    char *message, *snippet = NULL;

    if (file->errors >= file->limits.max_errors)
    {
        /* Counted, not shown. */
        diagnostics->error_count++;
        if (!file->errors_truncated)
        {
            file->errors_truncated = true;
            dmlconf_diagnostics_add(diagnostics, DMLCONF_SEVERITY_NOTE, file->path, 0, 0,
                                    "too many errors (%zu); the rest are not shown", file->errors);
        }
        return 0;
    }
    file->errors++;
    va_start(args, format);
    message = loader_vformat(format, args);
    va_end(args);
    if (mark.line)
        snippet = loader_source_snippet(&file->source, mark);
    if (loader_diagnostics_push(diagnostics, DMLCONF_SEVERITY_ERROR, file->path, mark.line, mark.column, message,
                                snippet))
        return -1;
    if (related_label &&
        loader_diagnostics_relate(diagnostics, related_label, file->path, related.line, related.column))
        return -1;
    return 0;
}

/* An error of the reader at `mark`, without a related place. */
static void reader_error(tree_reader *R, dmlconf_mark mark, const char *format, ...) DMLCONF_PRINTF_LIKE(3, 4);
static void reader_error(tree_reader *R, dmlconf_mark mark, const char *format, ...)
{
    va_list args;
    char message[512];

    va_start(args, format);
    vsnprintf(message, sizeof(message), format, args);
    va_end(args);
    dmlconf_yaml_file_error(R->file, R->diagnostics, mark, NULL, mark, "%s", message);
}

static void out_of_memory(tree_reader *R)
{
    dmlconf_diagnostics_add(R->diagnostics, DMLCONF_SEVERITY_ERROR, R->file->path, 0, 0,
                            "out of memory while reading the file");
    R->failed = true;
}

static void free_node(dmlconf_yaml_node *node)
{
    if (!node)
        return;
    for (size_t i = 0; i < node->count; ++i)
    {
        free_node(node->items[i]);
        if (node->keys)
            free_node(node->keys[i]);
    }
    free(node->items);
    free(node->keys);
    free((char *)node->text);
    free(node);
}

static dmlconf_mark event_mark(const tree_reader *R, const yaml_event_t *event)
{
    return loader_source_mark_yaml(&R->file->source, &event->start_mark);
}

/* Checks a fresh event for what these files refuse; the anchor, tag or
 * alias first. Returns false (an error reported) to stop. */
static bool refuse(tree_reader *R, const yaml_event_t *event)
{
    const yaml_char_t *anchor = NULL, *tag = NULL;
    dmlconf_mark mark = event_mark(R, event);

    switch (event->type)
    {
    case YAML_ALIAS_EVENT:
        reader_error(R, mark, "aliases are not supported (alias '*%s')", (const char *)event->data.alias.anchor);
        return false;
    case YAML_SCALAR_EVENT:
        anchor = event->data.scalar.anchor;
        tag = event->data.scalar.tag;
        if (event->data.scalar.length > R->file->limits.max_scalar_bytes)
        {
            reader_error(R, mark, "a scalar of %zu bytes is longer than the limit of %" PRIu32 " bytes",
                         event->data.scalar.length, R->file->limits.max_scalar_bytes);
            return false;
        }
        break;
    case YAML_SEQUENCE_START_EVENT:
        anchor = event->data.sequence_start.anchor;
        tag = event->data.sequence_start.tag;
        break;
    case YAML_MAPPING_START_EVENT:
        anchor = event->data.mapping_start.anchor;
        tag = event->data.mapping_start.tag;
        break;
    case YAML_DOCUMENT_START_EVENT:
        if (event->data.document_start.version_directive || event->data.document_start.tag_directives.start)
        {
            reader_error(R, mark, "directives (%%YAML, %%TAG) are not supported");
            return false;
        }
        if (++R->documents > 1)
        {
            reader_error(R, mark, "the file holds more than one YAML document (a second one starts here)");
            return false;
        }
        break;
    case YAML_NO_EVENT:
    case YAML_STREAM_START_EVENT:
    case YAML_STREAM_END_EVENT:
    case YAML_DOCUMENT_END_EVENT:
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
    default:
        break;
    }
    if (anchor)
    {
        reader_error(R, mark, "anchors and aliases are not supported (anchor '&%s')", (const char *)anchor);
        return false;
    }
    if (tag)
    {
        reader_error(R, mark, "tags are not supported (tag '%s'): quote a value to make it text", (const char *)tag);
        return false;
    }
    return true;
}

/* A new node for the event, or NULL (out of memory, or over the limit:
 * reported). */
static dmlconf_yaml_node *new_node(tree_reader *R, const yaml_event_t *event, dmlconf_yaml_kind kind)
{
    if (R->file->nodes >= R->file->limits.max_nodes)
    {
        reader_error(R, event_mark(R, event), "the file has more than %" PRIu32 " nodes", R->file->limits.max_nodes);
        R->failed = true;
        return NULL;
    }
    dmlconf_yaml_node *node = calloc(1, sizeof(*node));
    if (!node)
    {
        out_of_memory(R);
        return NULL;
    }
    R->file->nodes++;
    node->kind = kind;
    node->mark = event_mark(R, event);
    if (kind == DMLCONF_YAML_SCALAR)
    {
        size_t length = event->data.scalar.length;
        char *text = malloc(length + 1);
        if (!text)
        {
            free(node);
            out_of_memory(R);
            return NULL;
        }
        memcpy(text, event->data.scalar.value, length);
        text[length] = '\0';
        node->text = text;
        node->length = length;
        node->plain = event->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    }
    return node;
}

/* Hangs a finished node on the collection being read (or makes it the
 * root). Takes the node: frees it on failure. Returns false to stop. */
static bool attach(tree_reader *R, dmlconf_yaml_node *node)
{
    if (!R->depth)
    {
        R->file->root = node;
        return true;
    }
    open_node *open = &R->stack[R->depth - 1];
    dmlconf_yaml_node *parent = open->node;
    if (parent->kind == DMLCONF_YAML_MAPPING && !open->key)
    {
        if (node->kind != DMLCONF_YAML_SCALAR)
        {
            reader_error(R, node->mark, "a mapping's key must be a scalar (text), not %s",
                         dmlconf_yaml_node_kind_name(node));
            free_node(node);
            R->failed = true;
            return false;
        }
        open->key = node;
        return true;
    }
    if (parent->count == open->capacity)
    {
        size_t capacity = open->capacity ? open->capacity * 2 : 8;
        dmlconf_yaml_node **items = realloc(parent->items, capacity * sizeof(*items));
        if (items)
            parent->items = items;
        if (items && parent->kind == DMLCONF_YAML_MAPPING)
        {
            dmlconf_yaml_node **keys = realloc(parent->keys, capacity * sizeof(*keys));
            if (keys)
                parent->keys = keys;
            items = keys ? items : NULL;
        }
        if (!items)
        {
            free_node(node);
            out_of_memory(R);
            return false;
        }
        open->capacity = capacity;
    }
    if (parent->kind == DMLCONF_YAML_MAPPING)
    {
        parent->keys[parent->count] = open->key;
        open->key = NULL;
    }
    parent->items[parent->count++] = node;
    return true;
}

static int compare_keys(const void *a, const void *b)
{
    const dmlconf_yaml_node *x = *(const dmlconf_yaml_node *const *)a, *y = *(const dmlconf_yaml_node *const *)b;
    size_t shorter = x->length < y->length ? x->length : y->length;
    int order = memcmp(x->text, y->text, shorter);
    if (order)
        return order;
    if (x->length != y->length)
        return x->length < y->length ? -1 : 1;
    /* Equal keys in the order written. */
    return x->mark.offset < y->mark.offset ? -1 : x->mark.offset > y->mark.offset;
}

/* Reports every key of a finished mapping that an earlier one repeats
 * (sorted copies: a hostile mapping of many keys costs n log n). */
static void check_duplicate_keys(tree_reader *R, const dmlconf_yaml_node *mapping)
{
    if (mapping->count < 2)
        return;
    dmlconf_yaml_node **sorted = malloc(mapping->count * sizeof(*sorted));
    if (!sorted)
    {
        out_of_memory(R);
        return;
    }
    memcpy(sorted, mapping->keys, mapping->count * sizeof(*sorted));
    qsort(sorted, mapping->count, sizeof(*sorted), compare_keys);
    size_t first = 0;
    for (size_t i = 1; i < mapping->count; ++i)
    {
        const dmlconf_yaml_node *a = sorted[first], *b = sorted[i];
        if (a->length == b->length && !memcmp(a->text, b->text, a->length))
            dmlconf_yaml_file_error(R->file, R->diagnostics, b->mark, "first given at", a->mark,
                                    "the key '%s' is given twice in this mapping", b->text);
        else
            first = i;
    }
    free(sorted);
}

/* Reads the events into the tree. Returns false when the file has an error. */
static bool read_events(tree_reader *R)
{
    bool done = false;
    while (!done && !R->failed)
    {
        yaml_event_t event;
        if (!yaml_parser_parse(&R->parser, &event))
        {
            dmlconf_mark mark;
            char message[512];
            if (!loader_yaml_problem(&R->file->source, &R->parser, &mark, message, sizeof(message)))
                out_of_memory(R);
            else
                reader_error(R, mark, "%s", message);
            return false;
        }
        if (!refuse(R, &event))
        {
            yaml_event_delete(&event);
            return false;
        }
        dmlconf_yaml_node *node = NULL;
        switch (event.type)
        {
        case YAML_SCALAR_EVENT:
            node = new_node(R, &event, DMLCONF_YAML_SCALAR);
            if (node)
                attach(R, node);
            break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (R->depth >= R->file->limits.max_depth)
            {
                reader_error(R, event_mark(R, &event), "nesting is deeper than the limit of %" PRIu32 " levels",
                             R->file->limits.max_depth);
                R->failed = true;
                break;
            }
            node = new_node(R, &event,
                            event.type == YAML_SEQUENCE_START_EVENT ? DMLCONF_YAML_SEQUENCE : DMLCONF_YAML_MAPPING);
            if (node)
                R->stack[R->depth++] = (open_node){node, NULL, 0};
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            node = R->stack[--R->depth].node;
            if (node->kind == DMLCONF_YAML_MAPPING)
                check_duplicate_keys(R, node);
            attach(R, node);
            break;
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        case YAML_NO_EVENT:
        case YAML_STREAM_START_EVENT:
        case YAML_DOCUMENT_START_EVENT:
        case YAML_DOCUMENT_END_EVENT:
        case YAML_ALIAS_EVENT:
        default:
            break;
        }
        yaml_event_delete(&event);
    }
    return !R->failed;
}

static void set_limits(dmlconf_yaml_limits *limits, const dmlconf_yaml_limits *given)
{
    if (given)
        *limits = *given;
    else
        memset(limits, 0, sizeof(*limits));
    if (!limits->max_file_bytes)
        limits->max_file_bytes = DMLCONF_YAML_MAX_FILE_BYTES;
    if (!limits->max_depth)
        limits->max_depth = DMLCONF_YAML_MAX_DEPTH;
    if (!limits->max_scalar_bytes)
        limits->max_scalar_bytes = DMLCONF_YAML_MAX_SCALAR_BYTES;
    if (!limits->max_nodes)
        limits->max_nodes = DMLCONF_YAML_MAX_NODES;
    if (!limits->max_errors)
        limits->max_errors = DMLCONF_YAML_MAX_ERRORS;
}

/* Parses file->source (read already) into the tree. */
static int parse(dmlconf_yaml_file *file, dmlconf_diagnostics *diagnostics, dmlconf_yaml_file **out)
{
    tree_reader R;
    uint32_t line = 0, column = 0;
    char why[256];
    size_t errors_before = diagnostics->error_count;

    memset(&R, 0, sizeof(R));
    R.file = file;
    R.diagnostics = diagnostics;
    if (loader_source_scan(&file->source, &line, &column, why, sizeof(why)))
    {
        dmlconf_mark mark = {0, 0, 0};
        if (line)
            mark = loader_source_mark(&file->source, line - 1, column - 1);
        reader_error(&R, mark, "%s", why);
        goto fail;
    }
    R.stack = calloc(file->limits.max_depth + 1, sizeof(*R.stack));
    if (!R.stack || !yaml_parser_initialize(&R.parser))
    {
        free(R.stack);
        out_of_memory(&R);
        goto fail;
    }
    yaml_parser_set_encoding(&R.parser, YAML_UTF8_ENCODING);
    yaml_parser_set_input_string(&R.parser, (const unsigned char *)file->source.text, file->source.size);
    bool read = read_events(&R);
    /* What an error left open. */
    while (R.depth)
    {
        --R.depth;
        free_node(R.stack[R.depth].key);
        free_node(R.stack[R.depth].node);
    }
    yaml_parser_delete(&R.parser);
    free(R.stack);
    if (!read || diagnostics->error_count > errors_before)
        goto fail;
    *out = file;
    return 0;

fail:
    dmlconf_yaml_file_free(file);
    return -1;
}

/* A new file with its path and limits, or NULL (said). */
static dmlconf_yaml_file *new_file(const char *path, const dmlconf_yaml_limits *limits,
                                   dmlconf_diagnostics *diagnostics)
{
    dmlconf_yaml_file *file = calloc(1, sizeof(*file));
    if (file)
        file->path = dmlconf_strdup(path);
    if (!file || !file->path)
    {
        free(file);
        dmlconf_diagnostics_add(diagnostics, DMLCONF_SEVERITY_ERROR, path, 0, 0,
                                "out of memory while reading the file");
        return NULL;
    }
    set_limits(&file->limits, limits);
    return file;
}

int dmlconf_yaml_file_read(const char *path, const dmlconf_yaml_limits *limits, dmlconf_diagnostics *diagnostics,
                           dmlconf_yaml_file **out)
{
    char why[512];

    *out = NULL;
    dmlconf_yaml_file *file = new_file(path, limits, diagnostics);
    if (!file)
        return -1;
    if (loader_source_read(&file->source, path, file->limits.max_file_bytes, why, sizeof(why)))
    {
        dmlconf_diagnostics_add(diagnostics, DMLCONF_SEVERITY_ERROR, path, 0, 0, "%s", why);
        dmlconf_yaml_file_free(file);
        return -1;
    }
    file->source.path = file->path;
    return parse(file, diagnostics, out);
}

int dmlconf_yaml_file_read_buffer(const char *path, const void *text, size_t size, const dmlconf_yaml_limits *limits,
                                  dmlconf_diagnostics *diagnostics, dmlconf_yaml_file **out)
{
    *out = NULL;
    dmlconf_yaml_file *file = new_file(path, limits, diagnostics);
    if (!file)
        return -1;
    if (size > file->limits.max_file_bytes)
    {
        dmlconf_diagnostics_add(diagnostics, DMLCONF_SEVERITY_ERROR, path, 0, 0,
                                "the file is %zu bytes, larger than the limit of %" PRIu64 " bytes", size,
                                file->limits.max_file_bytes);
        dmlconf_yaml_file_free(file);
        return -1;
    }
    if (loader_source_init(&file->source, file->path, text, size))
    {
        dmlconf_diagnostics_add(diagnostics, DMLCONF_SEVERITY_ERROR, path, 0, 0,
                                "out of memory while reading the file");
        dmlconf_yaml_file_free(file);
        return -1;
    }
    return parse(file, diagnostics, out);
}

const dmlconf_yaml_node *dmlconf_yaml_file_root(const dmlconf_yaml_file *file)
{
    return file->root;
}

const char *dmlconf_yaml_file_path(const dmlconf_yaml_file *file)
{
    return file->path;
}

bool dmlconf_yaml_node_is_null(const dmlconf_yaml_node *node)
{
    if (!node || node->kind != DMLCONF_YAML_SCALAR || !node->plain)
        return false;
    return !node->length || !strcmp(node->text, "~") || !strcmp(node->text, "null") || !strcmp(node->text, "Null") ||
           !strcmp(node->text, "NULL");
}

const char *dmlconf_yaml_node_kind_name(const dmlconf_yaml_node *node)
{
    switch (node->kind)
    {
    case DMLCONF_YAML_SEQUENCE:
        return "a list";
    case DMLCONF_YAML_MAPPING:
        return "a mapping";
    case DMLCONF_YAML_SCALAR:
    default:
        return node->length ? "a scalar" : "an empty value";
    }
}

void dmlconf_yaml_file_free(dmlconf_yaml_file *file)
{
    if (!file)
        return;
    free_node(file->root);
    loader_source_free(&file->source);
    free(file->path);
    free(file);
}
