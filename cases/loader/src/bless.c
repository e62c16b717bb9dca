/*
 * bless.c: completing a case file with the oracle's results (the golden
 * workflow): an inline `expected:` list (or a sibling .npy) written into the
 * file's text at the positions the loader recorded, every other byte kept;
 * the values as the case writer writes them (dmlconf/case_writer.h).
 */
#include "loader_internal.h"

#include <dmlconf/case_writer.h>
#include <dmlconf/file_system.h>
#include <dmlconf/npy.h>
#include <dmlconf/values.h>

#include <stdlib.h>
#include <string.h>

/* One change to the file: bytes [start, end) replaced by `text`. */
typedef struct bless_edit
{
    uint64_t start;
    uint64_t end;
    char *text;
} bless_edit;

/* The line break the file uses at `offset` (the end of a line). */
static const char *line_break_at(const char *source, size_t size, size_t offset)
{
    if (offset < size && source[offset] == '\r')
    {
        return offset + 1 < size && source[offset + 1] == '\n' ? "\r\n" : "\r";
    }
    return "\n";
}

/* "<folder of beside>/<id>.expected.npy" (just the name when `beside` has no
 * folder); NULL when memory runs out. */
static char *sibling_npy_path(const char *beside, const char *id)
{
    const char *slash = strrchr(beside, '/');
    size_t folder = slash ? (size_t)(slash - beside) + 1 : 0, size = folder + strlen(id) + 16;
    char *path = malloc(size);

    if (path)
    {
        memcpy(path, beside, folder);
        snprintf(path + folder, size - folder, "%s.expected.npy", id);
    }
    return path;
}

/* Where a case's expected .npy goes: beside its input .npy file, or beside
 * the case file for a generated input. text_path is the path as the YAML
 * file writes it, open_path the one to open. Returns 0 or -1 (memory). */
static int expected_npy_paths(const dmlconf_case *c, char **text_path, char **open_path)
{
    bool beside_input = c->input.kind == DMLCONF_CASE_DATA_NPY;

    *text_path = sibling_npy_path(beside_input ? c->input.npy_text : "", c->id);
    *open_path = sibling_npy_path(beside_input ? c->input.npy_path : c->file, c->id);
    if (!*text_path || !*open_path)
    {
        free(*text_path);
        free(*open_path);
        *text_path = *open_path = NULL;
        return -1;
    }
    return 0;
}

/* Whether a case's expected values go to an .npy file rather than inline:
 * an .npy input, or a generated input too large to write out (its generator
 * stays in the file; only the expected values are written). */
static bool expected_in_npy(const dmlconf_case *c)
{
    return c->input.kind == DMLCONF_CASE_DATA_NPY || (c->input.kind == DMLCONF_CASE_DATA_GENERATOR &&
                                                      dmlconf_case_element_count(c) > DMLCONF_BLESS_MAX_INLINE_VALUES);
}

/* Computes the case's expected values (packed). Returns a malloc'ed buffer or
 * NULL with an error in diags. */
static void *compute_expected(const dmlconf_case *c, dmlconf_diagnostics *diags)
{
    uint64_t count = dmlconf_case_element_count(c);
    size_t size = dmlconf_case_element_size(c), bytes;
    dmlconf_scan_desc desc = c->desc;
    dmlconf_error err;
    char why[DMLCONF_MESSAGE_SIZE];
    void *input = NULL, *output = NULL;

    if (!size || count > SIZE_MAX / size / 2)
    {
        dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, c->file, c->mark.line, c->mark.column,
                                "case '%s' is too large to bless in memory", c->id);
        return NULL;
    }
    /* Buffers hold the tensors' minimum sizes: rounded up to 4 bytes. */
    bytes = ((size_t)count * size + 3) & ~(size_t)3;
    input = calloc(1, bytes);
    output = calloc(1, bytes);
    if (!input || !output)
    {
        dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, c->file, c->mark.line, c->mark.column,
                                "out of memory blessing case '%s'", c->id);
        goto fail;
    }
    if (dmlconf_case_data_read(c, &c->input, 0, count, input, why, sizeof(why)))
    {
        dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, c->file, c->input.mark.line, c->input.mark.column,
                                "case '%s': cannot read the input: %s", c->id, why);
        goto fail;
    }
    /* The logical input, packed: strides and aliasing do not change the values. */
    desc.input.has_strides = false;
    desc.output.has_strides = false;
    desc.input.total_size_bytes = 0;
    desc.output.total_size_bytes = 0;
    desc.in_place = false;
    if (dmlconf_compute(&desc, input, bytes, output, bytes, NULL, &err))
    {
        dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, c->file, c->mark.line, c->mark.column,
                                "case '%s': the oracle failed: %s", c->id, err.message);
        goto fail;
    }
    free(input);
    return output;

fail:
    free(input);
    free(output);
    return NULL;
}

/* Builds the edit of one case. Returns 0 (edit filled), or -1 (reported). */
static int bless_case(const dmlconf_case *c, const char *source, size_t size, dmlconf_diagnostics *diags,
                      bless_edit *edit)
{
    dmlconf_buffer text = {0};
    const char *newline = "\n";
    char *text_path = NULL, *open_path = NULL, why[256];
    uint64_t shape[DMLCONF_MAX_DIMENSIONS];
    size_t column, indent, line_end, i;
    bool replace = c->expected.kind != DMLCONF_CASE_DATA_NONE;
    dmlconf_case_data expected;
    void *values;

    memset(&expected, 0, sizeof(expected));
    values = compute_expected(c, diags);
    if (!values)
    {
        return -1;
    }
    /* Continuation lines of a wrapped list are indented past the key (or, in
     * a flow mapping, past the case's first key). */
    indent = c->flow_style ? c->mark.column - 1 : c->input.key_mark.column - 1;
    if (replace)
    {
        edit->start = c->expected.key_end.offset;
        edit->end = c->expected.end.offset;
        column = c->expected.key_end.column - 1 + 2;
        dmlconf_buffer_append(&text, ": ", 2);
    }
    else if (c->flow_style)
    {
        edit->start = edit->end = c->input.end.offset;
        column = c->input.end.column - 1 + 12;
        dmlconf_buffer_printf(&text, ", %s: ", dmlconf_case_field_name(DMLCONF_CASE_FIELD_EXPECTED));
    }
    else
    {
        line_end = (size_t)c->input.end.offset;
        while (line_end < size && source[line_end] != '\n' && source[line_end] != '\r')
        {
            ++line_end;
        }
        newline = line_break_at(source, size, line_end);
        edit->start = edit->end = line_end;
        dmlconf_buffer_printf(&text, "%s%*s%s: ", newline, (int)indent, "",
                                  dmlconf_case_field_name(DMLCONF_CASE_FIELD_EXPECTED));
        column = indent + 10;
    }
    if (expected_in_npy(c))
    {
        if (expected_npy_paths(c, &text_path, &open_path))
        {
            dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, c->file, 0, 0, "out of memory");
            goto fail;
        }
        for (i = 0; i < c->desc.input.dimension_count; ++i)
        {
            shape[i] = c->desc.input.sizes[i];
        }
        if (dmlconf_npy_write(open_path, c->desc.input.data_type, c->desc.input.dimension_count, shape, values, why,
                              sizeof(why)))
        {
            dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, open_path, 0, 0, "cannot write: %s", why);
            goto fail;
        }
        expected.kind = DMLCONF_CASE_DATA_NPY;
        expected.npy_text = text_path;
    }
    else
    {
        expected.kind = DMLCONF_CASE_DATA_INLINE;
        expected.values = values;
        expected.count = dmlconf_case_element_count(c);
    }
    if (dmlconf_case_write_data(&text, c->desc.input.data_type, &expected, column, indent + 2, newline, NULL))
    {
        dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, c->file, 0, 0, "out of memory");
        goto fail;
    }
    edit->text = text.data;
    free(values);
    free(text_path);
    free(open_path);
    return 0;

fail:
    dmlconf_buffer_free(&text);
    free(values);
    free(text_path);
    free(open_path);
    return -1;
}

long dmlconf_case_file_bless(const dmlconf_case_file *file, const dmlconf_bless_options *options,
                             dmlconf_diagnostics *diags)
{
    bool all = options && options->all;
    loader_source source;
    bless_edit *edits = NULL;
    dmlconf_buffer out = {0};
    size_t count = 0, i;
    uint64_t position = 0;
    char why[256];
    long result = -1;

    memset(&source, 0, sizeof(source));
    if (file->diagnostics.error_count || file->stopped)
    {
        dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, file->path, 0, 0,
                                "the file has errors; fix them before blessing it");
        return -1;
    }
    if (loader_source_read(&source, file->path, UINT64_MAX, why, sizeof(why)))
    {
        dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, file->path, 0, 0, "%s", why);
        return -1;
    }
    if (source.size != file->source_bytes || loader_source_hash(source.text, source.size) != file->source_hash)
    {
        dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, file->path, 0, 0,
                                "the file changed since it was loaded; load it again before blessing");
        goto done;
    }
    edits = calloc(file->case_count ? file->case_count : 1, sizeof(*edits));
    if (!edits)
    {
        dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, file->path, 0, 0, "out of memory");
        goto done;
    }
    for (i = 0; i < file->case_count; ++i)
    {
        const dmlconf_case *c = &file->cases[i];
        if (c->expect_error.set || (c->expected.kind != DMLCONF_CASE_DATA_NONE && !all))
        {
            continue;
        }
        if (bless_case(c, source.text, source.size, diags, &edits[count]))
        {
            goto done;
        }
        ++count;
    }
    if (!count)
    {
        result = 0;
        goto done;
    }
    for (i = 0; i < count; ++i)
    {
        dmlconf_buffer_append(&out, source.text + position, (size_t)(edits[i].start - position));
        dmlconf_buffer_append(&out, edits[i].text, strlen(edits[i].text));
        position = edits[i].end;
    }
    dmlconf_buffer_append(&out, source.text + position, (size_t)(source.size - position));
    if (out.failed)
    {
        dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, file->path, 0, 0, "out of memory");
        goto done;
    }
    dmlconf_replacement replacement;
    if (dmlconf_replacement_begin(&replacement, file->path, why, sizeof(why)) ||
        dmlconf_replacement_finish(&replacement,
                                   !out.length || fwrite(out.data, 1, out.length, replacement.file) == out.length,
                                   false, why, sizeof(why)))
    {
        dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, file->path, 0, 0, "%s", why);
        goto done;
    }
    result = (long)count;

done:
    for (i = 0; i < count; ++i)
    {
        free(edits[i].text);
    }
    free(edits);
    free(out.data);
    loader_source_free(&source);
    return result;
}
