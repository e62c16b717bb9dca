/*
 * case_data.c: reading the value node of `input` or `expected`: an inline list
 * (flat or nested, streamed into one text arena without a malloc per element,
 * parsed once the case's dtype is known), {npy: path} or {generate: name,
 * ...}.
 */
#include "loader_internal.h"

#include <dmlconf/reserve.h>
#include <dmlconf/values.h>

#include <stdlib.h>
#include <string.h>

void loader_data_free(loader_data *data)
{
    size_t i;

    free(data->arena);
    free(data->items);
    free(data->values);
    for (i = 0; i < data->inexact_count && i < DMLCONF_CASE_MAX_LIST_ERRORS; ++i)
    {
        free(data->inexact[i].text);
    }
    free(data->npy_text);
    free(data->generator);
    for (i = 0; i < data->param_count; ++i)
    {
        free(data->params[i].key);
        free(data->params[i].value);
    }
    free(data->params);
    memset(data, 0, sizeof(*data));
}

/* Reports an error about one value of a list, at most
 * DMLCONF_CASE_MAX_LIST_ERRORS per list (the others are counted). */
void loader_data_error(loader *L, loader_data *data, dmlconf_mark mark, const char *format, ...)
{
    va_list args;
    char *message;

    data->bad = true;
    if (data->errors++ >= DMLCONF_CASE_MAX_LIST_ERRORS)
    {
        return;
    }
    va_start(args, format);
    message = loader_vformat(format, args);
    va_end(args);
    if (!message)
    {
        loader_out_of_memory(L);
        return;
    }
    loader_error(L, mark, "%s", message);
    free(message);
}

void loader_data_error_summary(loader *L, loader_data *data, const char *what)
{
    size_t hidden = data->errors > DMLCONF_CASE_MAX_LIST_ERRORS ? data->errors - DMLCONF_CASE_MAX_LIST_ERRORS : 0;

    if (hidden > data->errors_summarized)
    {
        /* At the end of the list, so that it reads after the errors shown. */
        loader_error(L, data->end.line ? data->end : data->mark,
                     "%s has %zu more errors like these (only the first %u are shown)", what,
                     hidden - data->errors_summarized, DMLCONF_CASE_MAX_LIST_ERRORS);
        data->errors_summarized = hidden;
    }
}

/* Appends one scalar of a list to the arena. Returns 0 or -1 (reported). */
static int push_item(loader *L, loader_data *data)
{
    size_t length = L->event.data.scalar.length;
    loader_item *items;

    if (data->arena_size + length + 1 > UINT32_MAX)
    {
        loader_error(L, loader_event_mark(L), "the inline list holds more text than the loader accepts (4 GiB)");
        L->stop = true;
        return -1;
    }
    if (!dmlconf_reserve((void **)&data->arena, &data->arena_capacity, data->arena_size + length + 1, 1) ||
        !dmlconf_reserve((void **)&data->items, &data->capacity, data->count + 1, sizeof(*data->items)))
    {
        loader_out_of_memory(L);
        return -1;
    }
    items = &data->items[data->count++];
    items->text = (uint32_t)data->arena_size;
    items->line = (uint32_t)L->event.start_mark.line;
    items->column = (uint32_t)L->event.start_mark.column;
    memcpy(data->arena + data->arena_size, L->event.data.scalar.value, length + 1);
    data->arena_size += length + 1;
    return 0;
}

/* Parses one scalar of a list straight into the packed values (the dtype is
 * known). A value that needs rounding is stored rounded and remembered: the
 * case's round_inputs, which may come later, decides. Returns 0 or -1 (stop). */
static int push_value(loader *L, loader_data *data)
{
    size_t size = dmlconf_value_size(data->direct_type);
    const char *text = (const char *)L->event.data.scalar.value;
    dmlconf_value_status status;
    char why[256];

    if (!dmlconf_reserve((void **)&data->values, &data->values_capacity, data->values_size + size, 1))
    {
        loader_out_of_memory(L);
        return -1;
    }
    status = dmlconf_value_parse(data->direct_type, text, false, data->values + data->values_size, why, sizeof(why));
    if (status == DMLCONF_VALUE_INEXACT && data->is_input &&
        dmlconf_value_parse(data->direct_type, text, true, data->values + data->values_size, NULL, 0) ==
            DMLCONF_VALUE_OK)
    {
        if (data->inexact_count < DMLCONF_CASE_MAX_LIST_ERRORS)
        {
            data->inexact[data->inexact_count].index = data->count;
            data->inexact[data->inexact_count].line = (uint32_t)L->event.start_mark.line;
            data->inexact[data->inexact_count].column = (uint32_t)L->event.start_mark.column;
            data->inexact[data->inexact_count].text = dmlconf_strdup(text);
            if (!data->inexact[data->inexact_count].text)
            {
                loader_out_of_memory(L);
                return -1;
            }
        }
        ++data->inexact_count;
    }
    else if (status != DMLCONF_VALUE_OK)
    {
        if (data->errors >= DMLCONF_CASE_MAX_LIST_ERRORS)
        {
            data->bad = true;
            ++data->errors;
        }
        else
        {
            loader_data_error(L, data, loader_event_mark(L), "%s item %zu: %s", data->is_input ? "input" : "expected",
                              data->count, why);
        }
    }
    data->values_size += size;
    ++data->count;
    return 0;
}

/* Reads an inline list, flat or nested; the current event is its start. */
static bool read_list(loader *L, loader_data *data)
{
    uint64_t counts[LOADER_MAX_NEST + 1] = {0};
    bool known[LOADER_MAX_NEST + 1] = {false};
    dmlconf_mark starts[LOADER_MAX_NEST + 1];
    uint32_t depth = 1, leaf = 0;
    dmlconf_mark mark;

    data->kind = DMLCONF_CASE_DATA_INLINE;
    starts[1] = loader_event_mark(L);
    loader_consume(L);
    for (;;)
    {
        if (!loader_peek(L))
        {
            return false;
        }
        switch (L->event.type)
        {
        case YAML_SCALAR_EVENT:
            if (!leaf)
            {
                leaf = depth;
            }
            if (depth != leaf)
            {
                loader_data_error(L, data, loader_event_mark(L),
                                  "a value at nesting depth %" PRIu32 " where the values before are at depth %" PRIu32
                                  " (nested lists must all have the same depth)",
                                  depth, leaf);
            }
            ++counts[depth];
            if (data->direct ? push_value(L, data) : push_item(L, data))
            {
                return false;
            }
            loader_consume(L);
            break;
        case YAML_SEQUENCE_START_EVENT:
            mark = loader_event_mark(L);
            ++counts[depth];
            if (depth == LOADER_MAX_NEST || (leaf && depth + 1 > leaf))
            {
                if (depth == LOADER_MAX_NEST)
                {
                    loader_data_error(L, data, mark,
                                      "lists nested deeper than %u levels (a tensor has at most %u "
                                      "dimensions)",
                                      LOADER_MAX_NEST, DMLCONF_MAX_DIMENSIONS);
                }
                else
                {
                    loader_data_error(L, data, mark,
                                      "a list at nesting depth %" PRIu32
                                      " where the values before are at depth %" PRIu32
                                      " (nested lists must all have the same depth)",
                                      depth + 1, leaf);
                }
                if (!loader_skip_node(L))
                {
                    return false;
                }
                break;
            }
            ++depth;
            counts[depth] = 0;
            starts[depth] = mark;
            loader_consume(L);
            break;
        case YAML_SEQUENCE_END_EVENT:
            if (!known[depth])
            {
                known[depth] = true;
                data->lengths[depth - 1] = counts[depth];
                data->length_marks[depth - 1] = starts[depth];
                if (depth > data->depth)
                {
                    data->depth = depth;
                }
            }
            else if (data->lengths[depth - 1] != counts[depth])
            {
                loader_data_error(L, data, starts[depth],
                                  "this list has %" PRIu64 " item%s but the first list at the same depth (line %" PRIu32
                                  ") has %" PRIu64 " (nested lists must match the sizes)",
                                  counts[depth], counts[depth] == 1 ? "" : "s", data->length_marks[depth - 1].line,
                                  data->lengths[depth - 1]);
            }
            loader_consume(L);
            if (--depth == 0)
            {
                data->end = loader_last_end(L);
                loader_data_error_summary(L, data, data->is_input ? "input" : "expected");
                return true;
            }
            break;
        case YAML_MAPPING_START_EVENT:
            loader_data_error(L, data, loader_event_mark(L), "expected a value, found a mapping");
            if (!loader_skip_node(L))
            {
                return false;
            }
            break;
        case YAML_NO_EVENT:
        case YAML_STREAM_START_EVENT:
        case YAML_STREAM_END_EVENT:
        case YAML_DOCUMENT_START_EVENT:
        case YAML_DOCUMENT_END_EVENT:
        case YAML_ALIAS_EVENT:
        case YAML_MAPPING_END_EVENT:
        default:
            loader_consume(L);
            break;
        }
    }
}

static int add_param(loader *L, loader_data *data, const char *key, dmlconf_mark key_mark)
{
    loader_param *param;

    if (!dmlconf_reserve((void **)&data->params, &data->param_capacity, data->param_count + 1, sizeof(*data->params)))
    {
        loader_out_of_memory(L);
        return -1;
    }
    param = &data->params[data->param_count];
    param->key = dmlconf_strdup(key);
    param->value = dmlconf_strdup((const char *)L->event.data.scalar.value);
    param->key_mark = key_mark;
    param->value_mark = loader_event_mark(L);
    if (!param->key || !param->value)
    {
        free(param->key);
        free(param->value);
        loader_out_of_memory(L);
        return -1;
    }
    ++data->param_count;
    return 0;
}

/* Reads {npy: path} or {generate: name, key: value, ...}. */
static bool read_source_mapping(loader *L, loader_data *data, bool is_input)
{
    const char *what = is_input ? "input" : "expected";
    dmlconf_mark key_mark, first_other = {0, 0, 0};
    char key[64];
    size_t i;

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
            break;
        }
        key_mark = loader_event_mark(L);
        if (L->event.type != YAML_SCALAR_EVENT)
        {
            loader_data_error(L, data, key_mark, "expected a key name, found %s", loader_event_kind(L));
            if (!loader_skip_node(L) || !loader_peek(L) || !loader_skip_node(L))
            {
                return false;
            }
            continue;
        }
        snprintf(key, sizeof(key), "%s", (const char *)L->event.data.scalar.value);
        loader_consume(L);
        if (!loader_peek(L))
        {
            return false;
        }
        if (L->event.type != YAML_SCALAR_EVENT)
        {
            loader_data_error(L, data, loader_event_mark(L), "%s: '%s' must be a single value, found %s", what, key,
                              loader_event_kind(L));
            if (!loader_skip_node(L))
            {
                return false;
            }
            continue;
        }
        for (i = 0; i < data->param_count && strcmp(data->params[i].key, key); ++i)
        {
        }
        if (i < data->param_count || (!strcmp(key, "npy") && data->npy_text) ||
            (!strcmp(key, "generate") && data->generator))
        {
            loader_data_error(L, data, key_mark, "duplicate key '%s'", key);
        }
        else if (!strcmp(key, "npy"))
        {
            data->npy_text = dmlconf_strdup((const char *)L->event.data.scalar.value);
            data->npy_mark = loader_event_mark(L);
            if (!data->npy_text)
            {
                loader_out_of_memory(L);
                return false;
            }
        }
        else if (!strcmp(key, "generate"))
        {
            data->generator = dmlconf_strdup((const char *)L->event.data.scalar.value);
            data->generator_mark = loader_event_mark(L);
            if (!data->generator)
            {
                loader_out_of_memory(L);
                return false;
            }
        }
        else
        {
            if (!first_other.line)
            {
                first_other = key_mark;
            }
            if (add_param(L, data, key, key_mark))
            {
                return false;
            }
        }
        loader_consume(L);
    }
    data->end = loader_last_end(L);
    if (data->npy_text && data->generator)
    {
        loader_data_error(L, data, data->mark, "%s has both 'npy' and 'generate'; give one of them", what);
    }
    else if (data->npy_text)
    {
        data->kind = DMLCONF_CASE_DATA_NPY;
        if (data->param_count)
        {
            loader_data_error(L, data, data->params[0].key_mark,
                              "unknown key '%s' next to 'npy' (expected {npy: "
                              "file.npy} alone)",
                              data->params[0].key);
        }
    }
    else if (data->generator)
    {
        data->kind = DMLCONF_CASE_DATA_GENERATOR;
        if (!is_input)
        {
            loader_data_error(L, data, data->mark,
                              "expected cannot come from a generator; give values or {npy: file.npy}, or leave "
                              "expected out so the oracle computes it");
        }
    }
    else if (!data->bad)
    {
        loader_data_error(L, data, first_other.line ? first_other : data->mark,
                          "%s needs 'npy' ({npy: file.npy}) or 'generate' ({generate: uniform, ...})", what);
    }
    return true;
}

bool loader_read_data(loader *L, loader_data *data, bool is_input, dmlconf_data_type known_type)
{
    dmlconf_mark key_mark = data->key_mark, key_end = data->key_end;

    loader_data_free(data);
    data->key_mark = key_mark;
    data->key_end = key_end;
    data->is_input = is_input;
    data->direct = known_type != DMLCONF_DATA_TYPE_UNKNOWN && dmlconf_value_size(known_type);
    data->direct_type = known_type;
    data->mark = loader_event_mark(L);
    switch (L->event.type)
    {
    case YAML_SEQUENCE_START_EVENT:
        return read_list(L, data);
    case YAML_MAPPING_START_EVENT:
        return read_source_mapping(L, data, is_input);
    case YAML_SCALAR_EVENT:
    case YAML_NO_EVENT:
    case YAML_STREAM_START_EVENT:
    case YAML_STREAM_END_EVENT:
    case YAML_DOCUMENT_START_EVENT:
    case YAML_DOCUMENT_END_EVENT:
    case YAML_ALIAS_EVENT:
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
    default:
        data->bad = true;
        return loader_wrong_node(L, is_input ? "a list of values, {npy: file.npy} or {generate: ...}"
                                             : "a list of values or {npy: file.npy}");
    }
}
