/*
 * case.c: a loaded case's memory, its sizes, and reading its input or
 * expected values (inline, .npy, generator) in chunks.
 */
#include "loader_internal.h"
#include <dmlconf/file_system.h>

#include <dmlconf/npy.h>
#include <dmlconf/values.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

void loader_case_data_free(dmlconf_case_data *data)
{
    free(data->values);
    free(data->npy_text);
    free(data->npy_path);
    memset(data, 0, sizeof(*data));
}

void loader_case_free(dmlconf_case *c)
{
    size_t i;

    free(c->id);
    loader_case_data_free(&c->input);
    loader_case_data_free(&c->expected);
    for (i = 0; i < c->tag_count; ++i)
    {
        free(c->tags[i]);
    }
    free(c->tags);
    free(c->notes);
    memset(c, 0, sizeof(*c));
}

void dmlconf_case_file_free(dmlconf_case_file *file)
{
    size_t i;

    if (!file)
    {
        return;
    }
    for (i = 0; i < file->case_count; ++i)
    {
        loader_case_free(&file->cases[i]);
    }
    free(file->cases);
    free(file->path);
    dmlconf_diagnostics_free(&file->diagnostics);
    memset(file, 0, sizeof(*file));
}

uint64_t dmlconf_case_element_count(const dmlconf_case *c)
{
    return dmlconf_tensor_element_count(&c->desc.input);
}

size_t dmlconf_case_element_size(const dmlconf_case *c)
{
    if (!dmlconf_data_type_is_computable(c->desc.input.data_type))
    {
        return 0;
    }
    return dmlconf_value_size(c->desc.input.data_type);
}

/* Reads elements [first, first + count) of a checked C-order .npy file. */
static int read_npy(const dmlconf_case_data *data, size_t size, uint64_t first, uint64_t count, void *out, char *why,
                    size_t why_size)
{
    uint64_t offset = data->npy_data_offset + first * size;
    size_t bytes = (size_t)count * size;
    FILE *file;
    int result = 0;

    char opened[160];
    file = dmlconf_open_regular_file(data->npy_path, NULL, opened, sizeof(opened));
    if (!file)
    {
        snprintf(why, why_size, "%s: %s", data->npy_text, opened);
        return -1;
    }
    if (offset > (uint64_t)LONG_MAX || fseek(file, (long)offset, SEEK_SET) || fread(out, 1, bytes, file) != bytes)
    {
        snprintf(why, why_size,
                 "%s: cannot read elements %" PRIu64 " to %" PRIu64 " (the file changed or is "
                 "unreadable)",
                 data->npy_text, first, first + count);
        result = -1;
    }
    fclose(file);
    return result;
}

int dmlconf_case_data_read(const dmlconf_case *c, const dmlconf_case_data *data, uint64_t first, uint64_t count,
                           void *out, char *why, size_t why_size)
{
    uint64_t total = dmlconf_case_element_count(c);
    size_t size = dmlconf_case_element_size(c);

    if (!size || first > total || count > total - first)
    {
        snprintf(why, why_size, "elements %" PRIu64 " to %" PRIu64 " are outside the tensor's %" PRIu64 " elements",
                 first, first + count, total);
        return -1;
    }
    if (!count)
    {
        return 0;
    }
    switch (data->kind)
    {
    case DMLCONF_CASE_DATA_INLINE:
        memcpy(out, (const char *)data->values + first * size, (size_t)count * size);
        return 0;
    case DMLCONF_CASE_DATA_GENERATOR:
        dmlconf_datagen_fill(&data->generator, first, count, out);
        return 0;
    case DMLCONF_CASE_DATA_NPY:
        return read_npy(data, size, first, count, out, why, why_size);
    case DMLCONF_CASE_DATA_NONE:
    default:
        snprintf(why, why_size, "the case has no such values");
        return -1;
    }
}
