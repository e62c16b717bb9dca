/*
 * case_values.c: the tensor values of a case once its desc is known: inline
 * lists parsed exactly into packed elements and matched against the sizes,
 * .npy headers checked against the case, generators checked, and inputs
 * whose strides make logical elements share storage checked for agreement.
 */
#include "loader_internal.h"

#include <dmlconf/npy.h>
#include <dmlconf/values.h>

#include <stdlib.h>
#include <string.h>

/* "[1, 2, 3]" of a tensor's sizes or strides. */
static const char *format_dims(const uint32_t *values, uint32_t count, char *buffer, size_t size)
{
    size_t used;
    uint32_t i;

    used = (size_t)snprintf(buffer, size, "[");
    for (i = 0; i < count && used < size; ++i)
    {
        used += (size_t)snprintf(buffer + used, size - used, "%s%" PRIu32, i ? ", " : "", values[i]);
    }
    if (used < size)
    {
        snprintf(buffer + used, size - used, "]");
    }
    return buffer;
}

static dmlconf_mark item_mark(const loader *L, const loader_data *data, uint64_t index)
{
    /* Values parsed as they were read keep no position of their own. */
    if (data->kind == DMLCONF_CASE_DATA_INLINE && data->items && index < data->count)
    {
        return loader_source_mark(&L->source, data->items[index].line, data->items[index].column);
    }
    return data->mark;
}

/* The end of a message about an inexact value: round_inputs is the way out
 * for an input list, and for nothing else (expected values, generator
 * parameters). */
static const char *rounding_hint(bool is_input, dmlconf_value_status status)
{
    return is_input && status == DMLCONF_VALUE_INEXACT ? " or set round_inputs: true" : "";
}

/* Checks that logical input elements stored at the same place (strides with
 * 0 or overlapping entries) have the same bits. */
static void check_shared_storage(loader *L, loader_data *data, const dmlconf_scan_desc *desc, const void *values,
                                 uint64_t count)
{
    const dmlconf_tensor_desc *tensor = &desc->input;
    size_t size = dmlconf_value_size(tensor->data_type), first;
    char a[DMLCONF_VALUE_TEXT_SIZE], b[DMLCONF_VALUE_TEXT_SIZE], strides[128];
    loader_storage_slot *slots;
    uint64_t i;

    if (!tensor->has_strides || !dmlconf_tensor_self_overlaps(tensor))
    {
        return;
    }
    if (!(slots = loader_storage_slots(tensor)))
    {
        loader_out_of_memory(L);
        return;
    }
    format_dims(tensor->strides, tensor->dimension_count, strides, sizeof(strides));
    for (i = 1, first = 0; i < count; ++i)
    {
        if (slots[i].offset != slots[first].offset)
        {
            first = (size_t)i;
            continue;
        }
        if (memcmp((const char *)values + slots[first].index * size, (const char *)values + slots[i].index * size,
                   size))
        {
            if (data->errors >= DMLCONF_CASE_MAX_LIST_ERRORS)
            {
                ++data->errors;
                continue;
            }
            dmlconf_value_format(tensor->data_type, (const char *)values + slots[first].index * size,
                                 DMLCONF_VALUE_STYLE_SHORTEST, a, sizeof(a));
            dmlconf_value_format(tensor->data_type, (const char *)values + slots[i].index * size,
                                 DMLCONF_VALUE_STYLE_SHORTEST, b, sizeof(b));
            loader_data_error(L, data, item_mark(L, data, slots[i].index),
                              "input items %" PRIu64 " and %" PRIu64 " share storage through input_strides %s but "
                              "differ (%s and %s)",
                              slots[first].index, slots[i].index, strides, a, b);
        }
    }
    free(slots);
    loader_data_error_summary(L, data, "input");
}

/* Parses an inline list into packed elements. */
static void finish_inline(loader *L, const loader_draft *d, const dmlconf_scan_desc *desc, loader_data *data,
                          bool is_input, dmlconf_case_data *out)
{
    const char *what = is_input ? "input" : "expected";
    const dmlconf_tensor_desc *tensor = &desc->input;
    dmlconf_data_type type = tensor->data_type;
    size_t size = dmlconf_value_size(type), i;
    uint64_t count = dmlconf_tensor_element_count(tensor);
    char why[256], sizes[128];
    unsigned char *values;
    uint32_t k;

    format_dims(tensor->sizes, tensor->dimension_count, sizes, sizeof(sizes));
    if (data->depth > 1)
    {
        if (data->depth != tensor->dimension_count)
        {
            loader_error(L, data->mark,
                         "%s is nested %" PRIu32 " levels deep but sizes %s has %" PRIu32
                         " dimensions (give a flat list, or one level per dimension)",
                         what, data->depth, sizes, tensor->dimension_count);
            return;
        }
        for (k = 0; k < data->depth; ++k)
        {
            if (data->lengths[k] != tensor->sizes[k])
            {
                loader_error(L, data->length_marks[k],
                             "nested %s lists do not match sizes %s: lists at depth %" PRIu32 " have %" PRIu64
                             " items but sizes[%" PRIu32 "] is %" PRIu32,
                             what, sizes, k + 1, data->lengths[k], k, tensor->sizes[k]);
                return;
            }
        }
    }
    if (data->count != count)
    {
        loader_error(L, data->mark, "%s has %zu values but sizes %s hold %" PRIu64 " elements", what, data->count,
                     sizes, count);
        return;
    }
    if (data->direct && data->direct_type != type)
    {
        /* Parsed with a dtype that a later key replaced: cannot happen (a
         * second dtype key is a duplicate), but never use such values. */
        loader_error(L, data->mark, "%s was read with another dtype", what);
        return;
    }
    if (data->direct)
    {
        if (is_input)
            loader_report_inexact(L, d, data);
        if (data->errors)
        {
            return;
        }
        values = data->values;
        data->values = NULL;
        data->values_size = data->values_capacity = 0;
        if (is_input)
        {
            check_shared_storage(L, data, desc, values, count);
        }
        if (data->errors)
        {
            free(values);
            return;
        }
        out->values = values;
        out->count = count;
        return;
    }
    values = malloc(data->count ? data->count * size : 1);
    if (!values)
    {
        loader_out_of_memory(L);
        return;
    }
    for (i = 0; i < data->count; ++i)
    {
        dmlconf_value_status status = dmlconf_value_parse(
            type, data->arena + data->items[i].text, is_input && d->round_inputs, values + i * size, why, sizeof(why));
        if (status != DMLCONF_VALUE_OK)
        {
            if (data->errors >= DMLCONF_CASE_MAX_LIST_ERRORS)
            {
                ++data->errors; /* only counted: finding its mark would cost a walk of the line */
                continue;
            }
            loader_data_error(L, data, item_mark(L, data, i), "%s item %zu: %s%s", what, i, why,
                              rounding_hint(is_input, status));
        }
    }
    loader_data_error_summary(L, data, what);
    if (!data->errors && is_input)
    {
        check_shared_storage(L, data, desc, values, count);
    }
    if (data->errors)
    {
        free(values);
        return;
    }
    out->values = values;
    out->count = count;
}

/* Checks a .npy file's header against the case. */
static void finish_npy(loader *L, const dmlconf_scan_desc *desc, loader_data *data, bool is_input,
                       dmlconf_case_data *out)
{
    const char *what = is_input ? "input" : "expected";
    const dmlconf_tensor_desc *tensor = &desc->input;
    dmlconf_npy_header header;
    char why[512], sizes[128], shape[160];
    const char *message;
    size_t folder = strlen(L->folder), length = strlen(data->npy_text), used;
    bool same;
    uint32_t k;

    if (!length)
    {
        loader_error(L, data->npy_mark, "%s: the npy path is empty", what);
        return;
    }
    uint32_t code = loader_control_character(data->npy_text, false);
    if (code)
    {
        loader_error(L, data->npy_mark,
                     "%s: the npy path holds the control character U+%04" PRIX32 "; a path must be printable text",
                     what, code);
        return;
    }
    out->npy_text = dmlconf_strdup(data->npy_text);
    out->npy_path = malloc(folder + length + 1);
    if (!out->npy_text || !out->npy_path)
    {
        loader_out_of_memory(L);
        return;
    }
    if (data->npy_text[0] == '/')
    {
        folder = 0;
    }
    memcpy(out->npy_path, L->folder, folder);
    memcpy(out->npy_path + folder, data->npy_text, length + 1);
    out->npy_mark = data->npy_mark;
    if (dmlconf_npy_read_header(out->npy_path, &header, why, sizeof(why)))
    {
        /* The message starts with the path as opened; name it as written. */
        message = why;
        if (!strncmp(message, out->npy_path, strlen(out->npy_path)) && message[strlen(out->npy_path)] == ':')
        {
            message += strlen(out->npy_path) + 1;
            while (*message == ' ')
            {
                ++message;
            }
        }
        loader_error(L, data->npy_mark, "%s: %s: %s", what, data->npy_text, message);
        return;
    }
    if (header.type != tensor->data_type)
    {
        loader_error(L, data->npy_mark, "%s: %s holds %s values but the case's dtype is %s", what, data->npy_text,
                     header.descr, dmlconf_data_type_lower_name(tensor->data_type));
        return;
    }
    same = header.ndim == tensor->dimension_count;
    for (k = 0; same && k < header.ndim; ++k)
    {
        same = header.shape[k] == tensor->sizes[k];
    }
    if (!same)
    {
        used = (size_t)snprintf(shape, sizeof(shape), "(");
        for (k = 0; k < header.ndim && used < sizeof(shape); ++k)
        {
            used += (size_t)snprintf(shape + used, sizeof(shape) - used, "%s%" PRIu64, k ? ", " : "", header.shape[k]);
        }
        if (used < sizeof(shape))
        {
            snprintf(shape + used, sizeof(shape) - used, "%s)", header.ndim == 1 ? "," : "");
        }
        format_dims(tensor->sizes, tensor->dimension_count, sizes, sizeof(sizes));
        loader_error(L, data->npy_mark, "%s: %s has shape %s but the case's sizes are %s", what, data->npy_text, shape,
                     sizes);
        return;
    }
    out->npy_data_offset = header.data_offset;
}

/* Builds and checks a generator. */
static void finish_generator(loader *L, const dmlconf_scan_desc *desc, loader_data *data, dmlconf_case_data *out)
{
    dmlconf_datagen_spec spec;
    char why[256];
    size_t i, key_length;
    uint64_t count;
    void *values;

    dmlconf_datagen_init(&spec, desc->input.data_type);
    if (dmlconf_datagen_set(&spec, "generate", data->generator, why, sizeof(why)))
    {
        loader_data_error(L, data, data->generator_mark, "input: %s", why);
    }
    for (i = 0; i < data->param_count; ++i)
    {
        const loader_param *param = &data->params[i];
        if (dmlconf_datagen_set(&spec, param->key, param->value, why, sizeof(why)))
        {
            key_length = strlen(param->key);
            loader_data_error(L, data,
                              !strncmp(why, param->key, key_length) && why[key_length] == ':' ? param->value_mark
                                                                                              : param->key_mark,
                              "input: %s", why);
        }
    }
    if (data->errors)
    {
        return;
    }
    if (dmlconf_datagen_check(&spec, why, sizeof(why)))
    {
        loader_data_error(L, data, data->mark, "input: %s", why);
        return;
    }
    out->generator = spec;
    if (spec.kind != DMLCONF_DATAGEN_CONSTANT && desc->input.has_strides && dmlconf_tensor_self_overlaps(&desc->input))
    {
        count = dmlconf_tensor_element_count(&desc->input);
        values = count <= SIZE_MAX / 8 ? malloc((size_t)count * dmlconf_value_size(spec.type)) : NULL;
        if (!values)
        {
            loader_out_of_memory(L);
            return;
        }
        dmlconf_datagen_fill(&spec, 0, count, values);
        check_shared_storage(L, data, desc, values, count);
        free(values);
    }
}

void loader_report_inexact(loader *L, const loader_draft *d, loader_data *data)
{
    unsigned char element[8];
    char why[256];
    if (!data->direct || d->round_inputs)
        return;
    for (size_t i = 0; i < data->inexact_count; ++i)
    {
        if (i >= DMLCONF_CASE_MAX_LIST_ERRORS || data->errors >= DMLCONF_CASE_MAX_LIST_ERRORS)
        {
            data->errors += data->inexact_count - i;
            data->bad = true;
            break;
        }
        dmlconf_value_status status =
            dmlconf_value_parse(data->direct_type, data->inexact[i].text, false, element, why, sizeof(why));
        loader_data_error(L, data, loader_source_mark(&L->source, data->inexact[i].line, data->inexact[i].column),
                          "input item %" PRIu64 ": %s%s", data->inexact[i].index, why, rounding_hint(true, status));
    }
    loader_data_error_summary(L, data, "input");
}

void loader_finish_data(loader *L, const loader_draft *d, const dmlconf_scan_desc *desc, loader_data *data,
                        bool is_input, dmlconf_case_data *out)
{
    uint64_t count = dmlconf_tensor_element_count(&desc->input);

    memset(out, 0, sizeof(*out));
    out->kind = data->kind;
    out->key_mark = data->key_mark;
    out->key_end = data->key_end;
    out->mark = data->mark;
    out->end = data->end;
    if (!dmlconf_data_type_is_computable(desc->input.data_type) || !count || count > DMLCONF_MAX_ELEMENTS ||
        desc->input.dimension_count > DMLCONF_MAX_DIMENSIONS)
    {
        loader_error(L, data->key_mark,
                     "%s cannot be given for this negative case: its dtype and sizes describe no tensor of values",
                     is_input ? "input" : "expected");
        return;
    }
    switch (data->kind)
    {
    case DMLCONF_CASE_DATA_INLINE:
        finish_inline(L, d, desc, data, is_input, out);
        break;
    case DMLCONF_CASE_DATA_NPY:
        finish_npy(L, desc, data, is_input, out);
        break;
    case DMLCONF_CASE_DATA_GENERATOR:
        finish_generator(L, desc, data, out);
        break;
    case DMLCONF_CASE_DATA_NONE:
    default:
        break;
    }
}
