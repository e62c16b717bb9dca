/*
 * loader.c: the structure of a case file (one document: a mapping with an
 * optional `defaults` mapping and a `cases` list of mappings), walked event by
 * event, and the entry points that load one file.
 */
#include "loader_internal.h"

#include <stdlib.h>
#include <string.h>

/* Reports an error, with a related place when related_label is not NULL. */
static void loader_verror(loader *L, dmlconf_mark mark, const char *related_label, dmlconf_mark related,
                          const char *format, va_list args)
{
    dmlconf_diagnostics *list = &L->file->diagnostics;
    char *message, *snippet = NULL;

    if (L->stop && L->errors_at_limit_check)
    {
        return;
    }
    message = loader_vformat(format, args);
    if (mark.line)
    {
        snippet = loader_source_snippet(&L->source, mark);
    }
    if (loader_diagnostics_push(list, DMLCONF_SEVERITY_ERROR, L->file->path, mark.line, mark.column, message, snippet))
    {
        L->out_of_memory = true;
        L->stop = true;
        return;
    }
    if (related_label)
    {
        loader_diagnostics_relate(list, related_label, L->file->path, related.line, related.column);
    }
    if (list->error_count >= L->options.max_errors && !L->errors_at_limit_check)
    {
        L->errors_at_limit_check = list->error_count;
        dmlconf_diagnostics_add(list, DMLCONF_SEVERITY_NOTE, L->file->path, 0, 0,
                                "too many errors (%zu); the rest of the file was not checked", list->error_count);
        L->stop = true;
    }
}

void loader_error(loader *L, dmlconf_mark mark, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    loader_verror(L, mark, NULL, mark, format, args);
    va_end(args);
}

void loader_error_related(loader *L, dmlconf_mark mark, const char *related_label, dmlconf_mark related,
                          const char *format, ...)
{
    va_list args;

    va_start(args, format);
    loader_verror(L, mark, related_label, related, format, args);
    va_end(args);
}

void loader_out_of_memory(loader *L)
{
    if (!L->out_of_memory)
    {
        L->out_of_memory = true;
        dmlconf_diagnostics_add(&L->file->diagnostics, DMLCONF_SEVERITY_ERROR, L->file->path, 0, 0,
                                "out of memory while loading the file");
    }
    L->stop = true;
}

/* Reads one mapping of case keys into `draft` (a case, or the defaults).
 * Returns false on stop. */
static bool read_case_mapping(loader *L, loader_draft *draft, bool defaults)
{
    bool seen[DMLCONF_CASE_FIELD_COUNT] = {false};
    dmlconf_mark seen_marks[DMLCONF_CASE_FIELD_COUNT];
    static const char *const restricted = "id, input and expected belong to a case, not to defaults";
    const char *names[DMLCONF_CASE_FIELD_COUNT];
    dmlconf_case_field field;
    dmlconf_mark key_mark, key_end;
    const char *suggestion;
    char name[64];
    size_t i;

    for (i = 0; i < DMLCONF_CASE_FIELD_COUNT; ++i)
    {
        names[i] = dmlconf_case_field_name((dmlconf_case_field)i);
    }
    draft->mark = loader_event_mark(L);
    draft->flow_style = L->event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
    loader_consume(L);
    for (;;)
    {
        if (!loader_peek(L))
        {
            return false;
        }
        if (L->event.type == YAML_MAPPING_END_EVENT)
        {
            loader_consume(L);
            return true;
        }
        key_mark = loader_event_mark(L);
        if (L->event.type != YAML_SCALAR_EVENT)
        {
            loader_error(L, key_mark, "expected a key name, found %s", loader_event_kind(L));
            if (!loader_skip_node(L) || !loader_peek(L) || !loader_skip_node(L))
            {
                return false;
            }
            continue;
        }
        key_end = loader_event_end(L);
        snprintf(name, sizeof(name), "%s", (const char *)L->event.data.scalar.value);
        field = loader_field_from_name((const char *)L->event.data.scalar.value);
        loader_consume(L);
        if (!loader_peek(L))
        {
            return false;
        }
        if (field == DMLCONF_CASE_FIELD_COUNT)
        {
            suggestion = loader_suggest(name, names, DMLCONF_CASE_FIELD_COUNT);
            if (suggestion)
            {
                loader_error(L, key_mark, "unknown key '%s'; did you mean '%s'?", name, suggestion);
            }
            else
            {
                loader_error(L, key_mark, "unknown key '%s' in %s", name, defaults ? "defaults" : "a case");
            }
            if (!loader_skip_node(L))
            {
                return false;
            }
            continue;
        }
        if (defaults && (field == DMLCONF_CASE_FIELD_ID || field == DMLCONF_CASE_FIELD_INPUT ||
                         field == DMLCONF_CASE_FIELD_EXPECTED))
        {
            loader_error(L, key_mark, "'%s' cannot be given in defaults (%s)", name, restricted);
            if (!loader_skip_node(L))
            {
                return false;
            }
            continue;
        }
        if (seen[field])
        {
            loader_error(L, key_mark, "duplicate key '%s' (first given at line %" PRIu32 ")", name,
                         seen_marks[field].line);
            if (!loader_skip_node(L))
            {
                return false;
            }
            continue;
        }
        seen[field] = true;
        seen_marks[field] = key_mark;
        draft->set[field] = true;
        draft->bad[field] = false;
        draft->from_defaults[field] = defaults;
        draft->key_marks[field] = key_mark;
        draft->marks[field] = loader_event_mark(L);
        if (field == DMLCONF_CASE_FIELD_INPUT || field == DMLCONF_CASE_FIELD_EXPECTED)
        {
            loader_data *data = field == DMLCONF_CASE_FIELD_INPUT ? &draft->input : &draft->expected;
            data->key_mark = key_mark;
            data->key_end = key_end;
        }
        if (!loader_read_field(L, draft, field))
        {
            return false;
        }
    }
}

/* Sorts diagnostics [first, count) by position, stably; those without a
 * position stay after the others. */
static void sort_diagnostics(dmlconf_diagnostics *list, size_t first)
{
    dmlconf_diagnostic item;
    size_t i, j;

    for (i = first + 1; i < list->count; ++i)
    {
        item = list->items[i];
        if (!item.line)
        {
            continue;
        }
        for (j = i; j > first; --j)
        {
            const dmlconf_diagnostic *before = &list->items[j - 1];
            if (before->line &&
                (before->line < item.line || (before->line == item.line && before->column <= item.column)))
            {
                break;
            }
            if (!before->line)
            {
                break;
            }
            list->items[j] = list->items[j - 1];
        }
        list->items[j] = item;
    }
}

/* Reads the `cases` list. Returns false on stop. */
static bool read_cases(loader *L, const loader_draft *defaults)
{
    loader_draft draft;
    size_t errors, first;

    if (!loader_peek(L))
    {
        return false;
    }
    if (L->event.type != YAML_SEQUENCE_START_EVENT)
    {
        return loader_wrong_node(L, "a list of cases");
    }
    loader_consume(L);
    for (;;)
    {
        if (!loader_peek(L))
        {
            return false;
        }
        if (L->event.type == YAML_SEQUENCE_END_EVENT)
        {
            loader_consume(L);
            return true;
        }
        ++L->file->cases_seen;
        if (L->event.type != YAML_MAPPING_START_EVENT)
        {
            if (!loader_wrong_node(L, "a case (a mapping of id, op, dtype, ...)"))
            {
                return false;
            }
            continue;
        }
        errors = L->file->diagnostics.error_count;
        first = L->file->diagnostics.count;
        if (loader_draft_copy_defaults(&draft, defaults))
        {
            loader_out_of_memory(L);
            return false;
        }
        if (!read_case_mapping(L, &draft, false))
        {
            loader_draft_free(&draft);
            return false;
        }
        loader_finish_case(L, &draft, errors);
        loader_draft_free(&draft);
        sort_diagnostics(&L->file->diagnostics, first);
        if (L->stop)
        {
            return false;
        }
    }
}

/* Reads the document's root mapping. */
static void read_root(loader *L)
{
    static const char *const top_keys[] = {"defaults", "cases"};
    loader_draft defaults;
    dmlconf_mark root_mark, key_mark, cases_mark = {0, 0, 0}, defaults_mark = {0, 0, 0};
    const char *name, *suggestion;
    bool seen_cases = false, seen_defaults = false;

    memset(&defaults, 0, sizeof(defaults));
    if (loader_draft_copy_defaults(&defaults, NULL))
    {
        loader_out_of_memory(L);
        return;
    }
    root_mark = loader_event_mark(L);
    if (L->event.type != YAML_MAPPING_START_EVENT)
    {
        loader_wrong_node(L, "a mapping with a 'cases' list (and optional 'defaults')");
        goto done;
    }
    loader_consume(L);
    for (;;)
    {
        if (!loader_peek(L))
        {
            goto done;
        }
        if (L->event.type == YAML_MAPPING_END_EVENT)
        {
            loader_consume(L);
            break;
        }
        key_mark = loader_event_mark(L);
        if (L->event.type != YAML_SCALAR_EVENT)
        {
            loader_error(L, key_mark, "expected 'defaults' or 'cases', found %s", loader_event_kind(L));
            if (!loader_skip_node(L) || !loader_peek(L) || !loader_skip_node(L))
            {
                goto done;
            }
            continue;
        }
        name = (const char *)L->event.data.scalar.value;
        if (!strcmp(name, "defaults"))
        {
            loader_consume(L);
            if (!loader_peek(L))
            {
                goto done;
            }
            if (seen_defaults)
            {
                loader_error(L, key_mark, "duplicate key 'defaults' (first given at line %" PRIu32 ")",
                             defaults_mark.line);
                if (!loader_skip_node(L))
                {
                    goto done;
                }
                continue;
            }
            seen_defaults = true;
            defaults_mark = key_mark;
            if (seen_cases)
            {
                loader_error(L, key_mark, "'defaults' must come before 'cases' (which starts at line %" PRIu32 ")",
                             cases_mark.line);
                if (!loader_skip_node(L))
                {
                    goto done;
                }
                continue;
            }
            if (L->event.type != YAML_MAPPING_START_EVENT)
            {
                if (!loader_wrong_node(L, "a mapping of case keys"))
                {
                    goto done;
                }
                continue;
            }
            if (!read_case_mapping(L, &defaults, true))
            {
                goto done;
            }
        }
        else if (!strcmp(name, "cases"))
        {
            loader_consume(L);
            if (seen_cases)
            {
                loader_error(L, key_mark, "duplicate key 'cases' (first given at line %" PRIu32 ")", cases_mark.line);
                if (!loader_peek(L) || !loader_skip_node(L))
                {
                    goto done;
                }
                continue;
            }
            seen_cases = true;
            cases_mark = key_mark;
            if (!read_cases(L, &defaults))
            {
                goto done;
            }
        }
        else
        {
            suggestion = loader_suggest(name, top_keys, 2);
            if (suggestion)
            {
                loader_error(L, key_mark, "unknown key '%s'; did you mean '%s'?", name, suggestion);
            }
            else
            {
                loader_error(L, key_mark, "unknown key '%s' (a case file holds 'defaults' and 'cases')", name);
            }
            loader_consume(L);
            if (!loader_peek(L) || !loader_skip_node(L))
            {
                goto done;
            }
        }
    }
    if (!seen_cases)
    {
        loader_error(L, root_mark, "missing key 'cases' (the list of cases)");
    }

done:
    loader_draft_free(&defaults);
}

/* Walks the whole event stream. */
static void read_stream(loader *L)
{
    dmlconf_mark mark;

    if (!loader_peek(L))
    {
        return;
    }
    loader_consume(L); /* STREAM-START */
    if (!loader_peek(L))
    {
        return;
    }
    if (L->event.type == YAML_STREAM_END_EVENT)
    {
        loader_error(L, loader_source_mark(&L->source, 0, 0),
                     "the file is empty: expected a mapping with a 'cases' list");
        return;
    }
    loader_consume(L); /* DOCUMENT-START */
    if (!loader_peek(L))
    {
        return;
    }
    read_root(L);
    if (!loader_peek(L))
    {
        return;
    }
    loader_consume(L); /* DOCUMENT-END */
    if (!loader_peek(L))
    {
        return;
    }
    if (L->event.type == YAML_DOCUMENT_START_EVENT)
    {
        mark = loader_event_mark(L);
        loader_error(L, mark, "a case file holds one YAML document; found a second one ('---')");
        L->stop = true;
    }
}

/* Fills in the option defaults. */
static void set_options(loader *L, const dmlconf_load_options *options)
{
    memset(&L->options, 0, sizeof(L->options));
    if (options)
    {
        L->options = *options;
    }
    if (!L->options.max_file_bytes)
    {
        L->options.max_file_bytes = DMLCONF_CASE_MAX_FILE_BYTES;
    }
    if (!L->options.max_depth || L->options.max_depth > DMLCONF_CASE_MAX_DEPTH)
    {
        L->options.max_depth = DMLCONF_CASE_MAX_DEPTH;
    }
    if (!L->options.max_scalar_bytes)
    {
        L->options.max_scalar_bytes = DMLCONF_CASE_MAX_SCALAR_BYTES;
    }
    if (!L->options.max_errors)
    {
        L->options.max_errors = DMLCONF_CASE_MAX_ERRORS;
    }
}

/* Starts a load: the file's path and the folder of relative .npy paths. */
static int begin(loader *L, dmlconf_case_file *file, const char *path, const dmlconf_load_options *options)
{
    const char *slash;

    memset(L, 0, sizeof(*L));
    memset(file, 0, sizeof(*file));
    L->file = file;
    set_options(L, options);
    file->path = dmlconf_strdup(path);
    if (!file->path)
    {
        return -1;
    }
    slash = strrchr(path, '/');
    if (slash)
    {
        L->folder_storage = malloc((size_t)(slash - path) + 2);
        if (!L->folder_storage)
        {
            return -1;
        }
        memcpy(L->folder_storage, path, (size_t)(slash - path) + 1);
        L->folder_storage[slash - path + 1] = '\0';
        L->folder = L->folder_storage;
    }
    else
    {
        L->folder = "";
    }
    return 0;
}

/* Checks the text, then parses it. */
static void load_source(loader *L)
{
    uint32_t line, column;
    char why[160];
    dmlconf_mark mark;

    L->file->source_bytes = L->source.size;
    L->file->source_hash = loader_source_hash(L->source.text, L->source.size);
    if (loader_source_scan(&L->source, &line, &column, why, sizeof(why)))
    {
        mark.line = line;
        mark.column = column;
        mark.offset = 0;
        if (line)
        {
            mark = loader_source_mark(&L->source, line - 1, column - 1);
        }
        loader_error(L, mark, "%s", why);
        L->file->stopped = true;
        return;
    }
    if (!yaml_parser_initialize(&L->parser))
    {
        loader_out_of_memory(L);
        return;
    }
    L->parser_ready = true;
    yaml_parser_set_encoding(&L->parser, YAML_UTF8_ENCODING);
    yaml_parser_set_input_string(&L->parser, (const unsigned char *)L->source.text, L->source.size);
    read_stream(L);
}

/* Releases the loader's own memory (not the file). Returns the error count. */
static size_t end(loader *L)
{
    loader_consume(L);
    if (L->parser_ready)
    {
        yaml_parser_delete(&L->parser);
    }
    if (L->stop)
    {
        L->file->stopped = true;
    }
    loader_source_free(&L->source);
    free(L->folder_storage);
    free(L->id_slots);
    return L->file->diagnostics.error_count;
}

/* Refuses a path that the reports and terminals could not show as it is.
 * Returns true when the file may be read. */
static bool path_fits(loader *L, const char *path)
{
    uint32_t code = loader_control_character(path, false);

    if (code)
    {
        dmlconf_diagnostics_add(
            &L->file->diagnostics, DMLCONF_SEVERITY_ERROR, path, 0, 0,
            "the file's path holds the control character U+%04" PRIX32 "; name case files with printable text", code);
        L->file->stopped = true;
        return false;
    }
    if (strlen(path) > DMLCONF_CASE_MAX_PATH_BYTES)
    {
        dmlconf_diagnostics_add(&L->file->diagnostics, DMLCONF_SEVERITY_ERROR, path, 0, 0,
                                "the file's path is %zu bytes long; a case file's path has at most %u, so that every "
                                "report carries it whole",
                                strlen(path), DMLCONF_CASE_MAX_PATH_BYTES);
        L->file->stopped = true;
        return false;
    }
    return true;
}

size_t dmlconf_case_file_load(dmlconf_case_file *file, const char *path, const dmlconf_load_options *options)
{
    loader L;
    char why[200];

    if (begin(&L, file, path, options))
    {
        loader_out_of_memory(&L);
        return end(&L);
    }
    if (!path_fits(&L, path))
    {
        return end(&L);
    }
    if (loader_source_read(&L.source, path, L.options.max_file_bytes, why, sizeof(why)))
    {
        dmlconf_diagnostics_add(&file->diagnostics, DMLCONF_SEVERITY_ERROR, path, 0, 0, "%s", why);
        file->stopped = true;
        return end(&L);
    }
    L.source.path = file->path;
    load_source(&L);
    return end(&L);
}

size_t dmlconf_case_file_load_buffer(dmlconf_case_file *file, const char *path, const void *text, size_t size,
                                     const dmlconf_load_options *options)
{
    loader L;

    if (begin(&L, file, path, options))
    {
        loader_out_of_memory(&L);
        return end(&L);
    }
    if (!path_fits(&L, path))
    {
        return end(&L);
    }
    if (size > L.options.max_file_bytes)
    {
        dmlconf_diagnostics_add(&file->diagnostics, DMLCONF_SEVERITY_ERROR, path, 0, 0,
                                "the file is %zu bytes, larger than the limit of %" PRIu64 " bytes", size,
                                L.options.max_file_bytes);
        file->stopped = true;
        return end(&L);
    }
    if (loader_source_init(&L.source, file->path, text, size))
    {
        loader_out_of_memory(&L);
        return end(&L);
    }
    load_source(&L);
    return end(&L);
}
