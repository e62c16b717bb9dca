/*
 * Generated cases of `dmlconf explore`: their layouts turned into strides,
 * in-memory dmlconf_case objects that runner_execute judges exactly as it
 * judges loaded ones, and the same cases written as case files (exact
 * values) that the loader reads back unchanged.
 */
#include "explore_internal.h"

#include <dmlconf/text.h>
#include <dmlconf/values.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Strides of one tensor from its layout; false when one does not fit. */
static bool apply_tensor(const explore_tensor_layout *layout, dmlconf_tensor_desc *t)
{
    t->total_size_bytes = 0;
    if (!layout->strided)
    {
        t->has_strides = false;
        memset(t->strides, 0, sizeof(t->strides));
        return true;
    }
    t->has_strides = true;
    uint64_t pitch = 1;
    uint8_t seen = 0;
    for (uint32_t k = 0; k < t->dimension_count; ++k)
    {
        uint32_t d = layout->order[k];
        if (d >= t->dimension_count || (seen & (1u << d)))
            return false;
        seen = (uint8_t)(seen | (1u << d));
        pitch += layout->pad[k];
        bool broadcast = (layout->broadcast & (1u << d)) != 0;
        if (pitch > UINT32_MAX)
            return false;
        t->strides[d] = broadcast ? 0u : (uint32_t)pitch;
        if (!(broadcast && layout->compact))
            pitch *= t->sizes[d];
    }
    uint64_t bytes;
    return dmlconf_tensor_min_size_bytes(t, &bytes) && bytes <= UINT32_MAX;
}

bool explore_layout_apply(const explore_layout *layout, dmlconf_scan_desc *desc)
{
    desc->in_place = layout->in_place;
    if (!apply_tensor(&layout->input, &desc->input))
        return false;
    if (layout->in_place)
    {
        desc->output.has_strides = desc->input.has_strides;
        memcpy(desc->output.strides, desc->input.strides, sizeof(desc->output.strides));
        desc->output.total_size_bytes = desc->input.total_size_bytes;
        return true;
    }
    explore_tensor_layout output = layout->output;
    output.broadcast = 0;
    return apply_tensor(&output, &desc->output);
}

void explore_spec_free(explore_spec *spec)
{
    if (!spec)
        return;
    free(spec->values);
    memset(spec, 0, sizeof(*spec));
}

int explore_spec_copy(const explore_spec *spec, explore_spec *copy)
{
    *copy = *spec;
    copy->values = NULL;
    if (!spec->values)
        return 0;
    size_t bytes = (size_t)spec->count * (dmlconf_data_type_bits(spec->desc.input.data_type) / 8);
    copy->values = malloc(bytes ? bytes : 1);
    if (!copy->values)
    {
        memset(copy, 0, sizeof(*copy));
        return -1;
    }
    memcpy(copy->values, spec->values, bytes);
    return 0;
}

int explore_case_from_spec(const explore_spec *spec, const char *id, const char *file, dmlconf_case *c)
{
    memset(c, 0, sizeof(*c));
    c->id = dmlconf_strdup(id);
    if (!c->id)
        return -1;
    c->file = file;
    c->desc = spec->desc;
    c->min_feature_level = dmlconf_min_feature_level(&spec->desc, NULL);
    if (spec->negative)
    {
        c->expect_error.set = true;
        c->expect_error.reason = spec->reason;
        c->expect_error.feature_level = spec->level;
        return 0;
    }
    c->input.kind = DMLCONF_CASE_DATA_INLINE;
    c->input.values = spec->values;
    c->input.count = spec->count;
    return 0;
}

void explore_case_release(dmlconf_case *c)
{
    free(c->id);
    memset(c, 0, sizeof(*c));
}

static void write_list(FILE *out, const uint32_t *values, uint32_t count)
{
    fputc('[', out);
    for (uint32_t i = 0; i < count; ++i)
        fprintf(out, "%s%lu", i ? ", " : "", (unsigned long)values[i]);
    fputc(']', out);
}

static bool same_sizes(const dmlconf_tensor_desc *a, const dmlconf_tensor_desc *b)
{
    if (a->dimension_count != b->dimension_count)
        return false;
    for (uint32_t d = 0; d < a->dimension_count && d < DMLCONF_MAX_DIMENSIONS; ++d)
    {
        if (a->sizes[d] != b->sizes[d])
            return false;
    }
    return true;
}

/* Writes `text` as a double-quoted YAML scalar. */
static void write_quoted(FILE *out, const char *text)
{
    fputc('"', out);
    for (const char *p = text; *p; ++p)
    {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if ((unsigned char)*p < 0x20)
            fputc(' ', out);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

int explore_write_case(FILE *out, const explore_spec *spec, const char *id, const char *notes)
{
    const dmlconf_scan_desc *desc = &spec->desc;
    uint32_t rank = desc->input.dimension_count <= DMLCONF_MAX_DIMENSIONS ? desc->input.dimension_count : 0;
    uint32_t output_rank = desc->output.dimension_count <= DMLCONF_MAX_DIMENSIONS ? desc->output.dimension_count : 0;
    fprintf(out, "  - id: %s\n    op: %s\n    dtype: %s\n    sizes: ", id, dmlconf_operator_name(desc->op),
            dmlconf_data_type_lower_name(desc->input.data_type));
    write_list(out, desc->input.sizes, rank);
    fprintf(out, "\n    axis: %lu\n    direction: %s\n    exclusive: %s\n", (unsigned long)desc->axis,
            desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING ? "decreasing" : "increasing",
            desc->exclusive ? "true" : "false");
    if (desc->input.has_strides)
    {
        fprintf(out, "    input_strides: ");
        write_list(out, desc->input.strides, rank);
        fputc('\n', out);
    }
    if (desc->output.has_strides)
    {
        fprintf(out, "    output_strides: ");
        write_list(out, desc->output.strides, output_rank);
        fputc('\n', out);
    }
    if (desc->in_place)
        fprintf(out, "    in_place: true\n");
    if (spec->negative)
    {
        if (desc->output.data_type != desc->input.data_type)
        {
            fprintf(out, "    output_dtype: %s\n", dmlconf_data_type_lower_name(desc->output.data_type));
        }
        if (!same_sizes(&desc->input, &desc->output))
        {
            fprintf(out, "    output_sizes: ");
            write_list(out, desc->output.sizes, output_rank);
            fputc('\n', out);
        }
        fprintf(out, "    expect_error: {reason: %s, feature_level: %s}\n", dmlconf_reason_name(spec->reason),
                dmlconf_feature_level_name(spec->level));
    }
    else
    {
        size_t element = dmlconf_data_type_bits(desc->input.data_type) / 8;
        bool is_float = dmlconf_data_type_is_float(desc->input.data_type);
        char text[64];
        fprintf(out, "    input: [");
        for (uint64_t i = 0; i < spec->count; ++i)
        {
            dmlconf_value_format(desc->input.data_type, (const unsigned char *)spec->values + i * element,
                                 is_float ? DMLCONF_VALUE_STYLE_EXACT : DMLCONF_VALUE_STYLE_SHORTEST, text,
                                 sizeof(text));
            fprintf(out, "%s%s", i == 0 ? "" : i % 8 ? ", " : ",\n            ", text);
        }
        fprintf(out, "]\n");
    }
    fprintf(out, "    tags: [explore]\n");
    if (notes)
    {
        fprintf(out, "    notes: ");
        write_quoted(out, notes);
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}
