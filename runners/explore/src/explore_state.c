/*
 * The state of a `dmlconf explore` run, saved after every finished round so
 * that a stopped run resumes where that round ended (--resume): the
 * generator's fingerprint and options, how many cases were generated and
 * judged, each cell's counts and tallies, the invalid descs per reason, and
 * the findings with their reproducers. A JSON file, replaced atomically.
 */
#include "explore_internal.h"

#include <dmlconf/file_system.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATE_FORMAT  "dmlconf-explore-state"
#define STATE_VERSION 1

static json_t *tensor_to_json(const dmlconf_tensor_desc *t)
{
    json_t *sizes = json_array(), *strides = json_array();
    uint32_t rank = t->dimension_count <= DMLCONF_MAX_DIMENSIONS ? t->dimension_count : DMLCONF_MAX_DIMENSIONS;
    for (uint32_t d = 0; d < rank; ++d)
    {
        json_array_append_new(sizes, json_integer((json_int_t)t->sizes[d]));
        json_array_append_new(strides, json_integer((json_int_t)t->strides[d]));
    }
    return json_pack("{s:i, s:i, s:o, s:b, s:o}", "type", (int)t->data_type, "rank", (int)t->dimension_count, "sizes",
                     sizes, "has_strides", t->has_strides, "strides", strides);
}

static void tensor_from_json(const json_t *object, dmlconf_tensor_desc *t)
{
    memset(t, 0, sizeof(*t));
    t->data_type = (dmlconf_data_type)json_integer_value(json_object_get(object, "type"));
    t->dimension_count = (uint32_t)json_integer_value(json_object_get(object, "rank"));
    t->has_strides = json_is_true(json_object_get(object, "has_strides"));
    const json_t *sizes = json_object_get(object, "sizes"), *strides = json_object_get(object, "strides");
    for (size_t d = 0; d < DMLCONF_MAX_DIMENSIONS && d < json_array_size(sizes); ++d)
        t->sizes[d] = (uint32_t)json_integer_value(json_array_get(sizes, d));
    for (size_t d = 0; d < DMLCONF_MAX_DIMENSIONS && d < json_array_size(strides); ++d)
        t->strides[d] = (uint32_t)json_integer_value(json_array_get(strides, d));
}

static json_t *counts_to_json(const uint64_t *counts, size_t n)
{
    json_t *array = json_array();
    for (size_t i = 0; i < n; ++i)
        json_array_append_new(array, json_integer((json_int_t)counts[i]));
    return array;
}

static void counts_from_json(const json_t *array, uint64_t *counts, size_t n)
{
    for (size_t i = 0; i < n && i < json_array_size(array); ++i)
        counts[i] = (uint64_t)json_integer_value(json_array_get(array, i));
}

static json_t *finding_to_json(const explore_finding *f)
{
    const explore_spec *first = &f->first;
    json_t *desc =
        json_pack("{s:i, s:o, s:o, s:i, s:i, s:b, s:b, s:b, s:i, s:i, s:I}", "op", (int)first->desc.op, "input",
                  tensor_to_json(&first->desc.input), "output", tensor_to_json(&first->desc.output), "axis",
                  (int)first->desc.axis, "direction", (int)first->desc.direction, "exclusive", first->desc.exclusive,
                  "in_place", first->desc.in_place, "negative", first->negative, "reason", (int)first->reason, "level",
                  (int)first->level, "count", (json_int_t)first->count);
    json_t *object = json_object();
    json_object_set_new(object, "signature", json_string(f->signature));
    json_object_set_new(object, "status", json_integer(f->status));
    json_object_set_new(object, "count", json_integer((json_int_t)f->count));
    json_object_set_new(object, "first_cases", json_integer((json_int_t)f->first_cases));
    json_object_set_new(object, "first_seconds", json_real(f->first_seconds));
    json_object_set_new(object, "first_index", json_integer((json_int_t)first->index));
    json_object_set_new(object, "first_message", json_string(f->first_message));
    json_object_set_new(object, "first_desc", desc);
    json_object_set_new(object, "by_type", counts_to_json(f->by_type, EXPLORE_TYPE_COUNT));
    json_object_set_new(object, "by_product", counts_to_json(f->by_product, 2));
    json_object_set_new(object, "by_layout", counts_to_json(f->by_layout, EXPLORE_LAYOUT_COUNT));
    json_object_set_new(object, "by_rank", counts_to_json(f->by_rank, DMLCONF_MAX_DIMENSIONS + 1));
    json_object_set_new(object, "by_exclusive", counts_to_json(f->by_exclusive, 2));
    json_object_set_new(object, "by_decreasing", counts_to_json(f->by_decreasing, 2));
    json_object_set_new(object, "shrunk", json_boolean(f->shrunk));
    json_object_set_new(object, "repro", json_string(f->repro));
    json_object_set_new(object, "repro_id", json_string(f->repro_id));
    json_object_set_new(object, "summary", json_string(f->summary));
    json_object_set_new(object, "key", json_string(f->key));
    json_object_set_new(object, "also", json_string(f->also));
    json_object_set_new(object, "shrunk_cell",
                        json_integer(f->has_shrunk_cell ? (json_int_t)explore_cell_index(&f->shrunk_cell) : -1));
    return object;
}

static void copy_string(char *out, size_t size, const json_t *value)
{
    snprintf(out, size, "%s", json_is_string(value) ? json_string_value(value) : "");
}

static void finding_from_json(const json_t *object, explore_finding *f)
{
    memset(f, 0, sizeof(*f));
    copy_string(f->signature, sizeof(f->signature), json_object_get(object, "signature"));
    f->status = (dmlconf_status)json_integer_value(json_object_get(object, "status"));
    f->count = (uint64_t)json_integer_value(json_object_get(object, "count"));
    f->first_cases = (uint64_t)json_integer_value(json_object_get(object, "first_cases"));
    f->first_seconds = json_number_value(json_object_get(object, "first_seconds"));
    f->first.index = (uint64_t)json_integer_value(json_object_get(object, "first_index"));
    copy_string(f->first_message, sizeof(f->first_message), json_object_get(object, "first_message"));
    const json_t *desc = json_object_get(object, "first_desc");
    f->first.desc.op = (dmlconf_operator)json_integer_value(json_object_get(desc, "op"));
    tensor_from_json(json_object_get(desc, "input"), &f->first.desc.input);
    tensor_from_json(json_object_get(desc, "output"), &f->first.desc.output);
    f->first.desc.axis = (uint32_t)json_integer_value(json_object_get(desc, "axis"));
    f->first.desc.direction = (dmlconf_axis_direction)json_integer_value(json_object_get(desc, "direction"));
    f->first.desc.exclusive = json_is_true(json_object_get(desc, "exclusive"));
    f->first.desc.in_place = json_is_true(json_object_get(desc, "in_place"));
    f->first.negative = json_is_true(json_object_get(desc, "negative"));
    f->first.reason = (dmlconf_reason)json_integer_value(json_object_get(desc, "reason"));
    f->first.level = (dmlconf_feature_level)json_integer_value(json_object_get(desc, "level"));
    f->first.count = (uint64_t)json_integer_value(json_object_get(desc, "count"));
    counts_from_json(json_object_get(object, "by_type"), f->by_type, EXPLORE_TYPE_COUNT);
    counts_from_json(json_object_get(object, "by_product"), f->by_product, 2);
    counts_from_json(json_object_get(object, "by_layout"), f->by_layout, EXPLORE_LAYOUT_COUNT);
    counts_from_json(json_object_get(object, "by_rank"), f->by_rank, DMLCONF_MAX_DIMENSIONS + 1);
    counts_from_json(json_object_get(object, "by_exclusive"), f->by_exclusive, 2);
    counts_from_json(json_object_get(object, "by_decreasing"), f->by_decreasing, 2);
    f->shrunk = json_is_true(json_object_get(object, "shrunk"));
    copy_string(f->repro, sizeof(f->repro), json_object_get(object, "repro"));
    copy_string(f->repro_id, sizeof(f->repro_id), json_object_get(object, "repro_id"));
    copy_string(f->summary, sizeof(f->summary), json_object_get(object, "summary"));
    copy_string(f->key, sizeof(f->key), json_object_get(object, "key"));
    copy_string(f->also, sizeof(f->also), json_object_get(object, "also"));
    json_int_t cell = json_integer_value(json_object_get(object, "shrunk_cell"));
    f->has_shrunk_cell = cell >= 0 && (size_t)cell < EXPLORE_CELL_COUNT && json_object_get(object, "shrunk_cell");
    if (f->has_shrunk_cell)
        f->shrunk_cell = explore_cell_at((size_t)cell);
    f->corpus_cases = -1;
}

int explore_state_save(const char *path, const explore_state *state, char *why, size_t why_size)
{
    char fingerprint[24];
    snprintf(fingerprint, sizeof(fingerprint), "%016llx", (unsigned long long)state->fingerprint);
    json_t *root = json_object();
    json_object_set_new(root, "format", json_string(STATE_FORMAT));
    json_object_set_new(root, "version", json_integer(STATE_VERSION));
    json_object_set_new(root, "fingerprint", json_string(fingerprint));
    json_object_set_new(root, "options", json_string(state->options_text));
    json_object_set_new(root, "next_index", json_integer((json_int_t)state->next_index));
    json_object_set_new(root, "seconds", json_real(state->seconds));
    const explore_coverage *coverage = state->coverage;
    json_t *cells = json_array();
    for (size_t i = 0; i < EXPLORE_CELL_COUNT; ++i)
    {
        const explore_tally *t = &coverage->cells[i];
        if (!t->generated)
            continue;
        json_t *row = json_array();
        json_array_append_new(row, json_integer((json_int_t)i));
        json_array_append_new(row, json_integer(t->generated));
        for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
            json_array_append_new(row, json_integer(t->statuses[s]));
        json_array_append_new(row, json_real(t->wall_seconds));
        json_array_append_new(row, json_real(t->backend_seconds));
        json_array_append_new(cells, row);
    }
    json_object_set_new(root, "cells", cells);
    json_t *negatives = json_array();
    for (unsigned r = 0; r < DMLCONF_REASON_COUNT; ++r)
    {
        if (!coverage->negative_generated[r])
            continue;
        json_t *row = json_array();
        json_array_append_new(row, json_integer((json_int_t)r));
        json_array_append_new(row, json_integer((json_int_t)coverage->negative_generated[r]));
        for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
            json_array_append_new(row, json_integer((json_int_t)coverage->negative_statuses[r][s]));
        json_array_append_new(negatives, row);
    }
    json_object_set_new(root, "negatives", negatives);
    json_t *findings = json_array();
    for (size_t i = 0; i < state->findings->count; ++i)
        json_array_append_new(findings, finding_to_json(&state->findings->items[i]));
    json_object_set_new(root, "findings", findings);
    char *text = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    if (!text)
    {
        snprintf(why, why_size, "out of memory writing %s", path);
        return -1;
    }
    int result = dmlconf_write_file_atomically(path, text, strlen(text), false, why, why_size);
    free(text);
    return result;
}

int explore_state_load(const char *path, explore_state *state, char *why, size_t why_size)
{
    json_error_t error;
    json_t *root = json_load_file(path, 0, &error);
    if (!root)
    {
        snprintf(why, why_size, "%s: %s (line %d)", path, error.text, error.line);
        return -1;
    }
    int result = -1;
    const json_t *format = json_object_get(root, "format");
    if (!json_is_string(format) || strcmp(json_string_value(format), STATE_FORMAT) ||
        json_integer_value(json_object_get(root, "version")) != STATE_VERSION)
    {
        snprintf(why, why_size, "%s is not a state that this dmlconf explore writes", path);
        goto done;
    }
    const char *fingerprint = json_string_value(json_object_get(root, "fingerprint"));
    state->fingerprint = fingerprint ? strtoull(fingerprint, NULL, 16) : 0;
    copy_string(state->options_text, sizeof(state->options_text), json_object_get(root, "options"));
    state->next_index = (uint64_t)json_integer_value(json_object_get(root, "next_index"));
    state->seconds = json_number_value(json_object_get(root, "seconds"));
    explore_coverage *coverage = state->coverage;
    const json_t *cells = json_object_get(root, "cells");
    for (size_t i = 0; i < json_array_size(cells); ++i)
    {
        const json_t *row = json_array_get(cells, i);
        json_int_t index = json_integer_value(json_array_get(row, 0));
        if (index < 0 || (size_t)index >= EXPLORE_CELL_COUNT || json_array_size(row) != 4 + DMLCONF_STATUS_COUNT)
            continue;
        explore_tally *t = &coverage->cells[index];
        t->generated = (uint32_t)json_integer_value(json_array_get(row, 1));
        for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
            t->statuses[s] = (uint32_t)json_integer_value(json_array_get(row, 2 + s));
        t->wall_seconds = json_number_value(json_array_get(row, 2 + DMLCONF_STATUS_COUNT));
        t->backend_seconds = json_number_value(json_array_get(row, 3 + DMLCONF_STATUS_COUNT));
    }
    const json_t *negatives = json_object_get(root, "negatives");
    for (size_t i = 0; i < json_array_size(negatives); ++i)
    {
        const json_t *row = json_array_get(negatives, i);
        json_int_t reason = json_integer_value(json_array_get(row, 0));
        if (reason < 0 || reason >= DMLCONF_REASON_COUNT || json_array_size(row) != 2 + DMLCONF_STATUS_COUNT)
            continue;
        coverage->negative_generated[reason] = (uint64_t)json_integer_value(json_array_get(row, 1));
        for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
            coverage->negative_statuses[reason][s] = (uint64_t)json_integer_value(json_array_get(row, 2 + s));
    }
    const json_t *findings = json_object_get(root, "findings");
    explore_findings *list = state->findings;
    size_t count = json_array_size(findings);
    if (count)
    {
        list->items = calloc(count, sizeof(*list->items));
        if (!list->items)
        {
            snprintf(why, why_size, "out of memory reading %s", path);
            goto done;
        }
        list->capacity = count;
        for (size_t i = 0; i < count; ++i)
            finding_from_json(json_array_get(findings, i), &list->items[list->count++]);
    }
    result = 0;

done:
    json_decref(root);
    return result;
}
