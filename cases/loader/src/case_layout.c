/*
 * case_layout.c: where a case's tensors lie in memory. Logical elements
 * sorted by the place their strides give them (to find elements that share
 * one), the check that no two output elements share a place, and the bytes
 * a case's buffers take.
 */
#include "loader_internal.h"

#include <stdlib.h>
#include <string.h>

static int compare_slots(const void *a, const void *b)
{
    const loader_storage_slot *x = a, *y = b;

    if (x->offset != y->offset)
    {
        return x->offset < y->offset ? -1 : 1;
    }
    return x->index < y->index ? -1 : x->index > y->index;
}

loader_storage_slot *loader_storage_slots(const dmlconf_tensor_desc *tensor)
{
    uint32_t coordinates[DMLCONF_MAX_DIMENSIONS] = {0}, dims = tensor->dimension_count, d;
    uint64_t count = dmlconf_tensor_element_count(tensor), i, offset = 0;
    loader_storage_slot *slots;

    if (!count || count > SIZE_MAX / sizeof(*slots) || !(slots = malloc((size_t)count * sizeof(*slots))))
    {
        return NULL;
    }
    for (i = 0; i < count; ++i)
    {
        slots[i].offset = offset;
        slots[i].index = i;
        for (d = dims; d-- > 0;)
        {
            offset += dmlconf_tensor_stride(tensor, d);
            if (++coordinates[d] < tensor->sizes[d])
            {
                break;
            }
            offset -= dmlconf_tensor_stride(tensor, d) * tensor->sizes[d];
            coordinates[d] = 0;
        }
    }
    qsort(slots, (size_t)count, sizeof(*slots), compare_slots);
    return slots;
}

/* "[0, 2, 1]": the coordinates of a logical (packed row-major) index. */
static const char *coordinates_text(const dmlconf_tensor_desc *tensor, uint64_t index, char *buffer, size_t size)
{
    uint32_t coordinates[DMLCONF_MAX_DIMENSIONS], d;
    size_t used;

    for (d = tensor->dimension_count; d-- > 0;)
    {
        coordinates[d] = (uint32_t)(index % tensor->sizes[d]);
        index /= tensor->sizes[d];
    }
    used = (size_t)snprintf(buffer, size, "[");
    for (d = 0; d < tensor->dimension_count && used < size; ++d)
    {
        used += (size_t)snprintf(buffer + used, size - used, "%s%" PRIu32, d ? ", " : "", coordinates[d]);
    }
    if (used < size)
    {
        snprintf(buffer + used, size - used, "]");
    }
    return buffer;
}

/* "[12, 4, 1]" of a tensor's strides. */
static const char *strides_text(const dmlconf_tensor_desc *tensor, char *buffer, size_t size)
{
    size_t used = (size_t)snprintf(buffer, size, "[");
    uint32_t d;

    for (d = 0; d < tensor->dimension_count && used < size; ++d)
    {
        used +=
            (size_t)snprintf(buffer + used, size - used, "%s%" PRIu64, d ? ", " : "", dmlconf_tensor_stride(tensor, d));
    }
    if (used < size)
    {
        snprintf(buffer + used, size - used, "]");
    }
    return buffer;
}

/* Two logical elements the strides put at one place, if the tensor is small
 * enough to list, or one found without listing (a stride of 0 on a
 * dimension larger than 1). Returns false when none was found. */
static bool find_shared_place(const dmlconf_tensor_desc *tensor, uint64_t *first, uint64_t *second, uint64_t *offset,
                              bool *out_of_memory)
{
    uint64_t count = dmlconf_tensor_element_count(tensor), step = 1, i;
    loader_storage_slot *slots;
    uint32_t d;

    *out_of_memory = false;
    for (d = tensor->dimension_count; d-- > 0;)
    {
        if (tensor->sizes[d] > 1 && dmlconf_tensor_stride(tensor, d) == 0)
        {
            *first = 0;
            *second = step;
            *offset = 0;
            return true;
        }
        step *= tensor->sizes[d];
    }
    if (count > LOADER_MAX_LISTED_LAYOUT)
    {
        return false;
    }
    if (!(slots = loader_storage_slots(tensor)))
    {
        *out_of_memory = true;
        return false;
    }
    for (i = 1; i < count; ++i)
    {
        if (slots[i].offset == slots[i - 1].offset)
        {
            *first = slots[i - 1].index;
            *second = slots[i].index;
            *offset = slots[i].offset;
            free(slots);
            return true;
        }
    }
    free(slots);
    return false;
}

bool loader_output_overlaps(const dmlconf_tensor_desc *output, char *message, size_t size)
{
    char strides[128], a[DMLCONF_MAX_DIMENSIONS * 12 + 4], b[DMLCONF_MAX_DIMENSIONS * 12 + 4];
    uint64_t first, second, offset;
    bool out_of_memory;

    if (!output->has_strides || !dmlconf_tensor_self_overlaps(output))
    {
        return false;
    }
    strides_text(output, strides, sizeof(strides));
    if (find_shared_place(output, &first, &second, &offset, &out_of_memory))
    {
        snprintf(message, size,
                 "output_strides %s put output elements %s and %s in the same place (element offset %" PRIu64
                 "); each output element needs a place of its own",
                 strides, coordinates_text(output, first, a, sizeof(a)), coordinates_text(output, second, b, sizeof(b)),
                 offset);
    }
    else
    {
        snprintf(message, size,
                 "output_strides %s interleave dimensions so that output elements may share a place (%s); each "
                 "output element needs a place of its own",
                 strides,
                 out_of_memory ? "there was no memory to list them"
                               : "the tensor is too large to list its elements one by one");
    }
    return true;
}

/* The bytes of a tensor's buffer: its minimum size, or total_size_bytes
 * when that is larger (as a runner allocates it). */
static bool buffer_bytes(const dmlconf_tensor_desc *tensor, uint64_t *bytes)
{
    uint64_t minimum = 0;

    if (!dmlconf_tensor_min_size_bytes(tensor, &minimum))
    {
        return false;
    }
    *bytes = tensor->total_size_bytes > minimum ? tensor->total_size_bytes : minimum;
    return true;
}

bool dmlconf_case_buffer_bytes(const dmlconf_case *c, dmlconf_case_buffers *out)
{
    uint64_t count = dmlconf_case_element_count(c);
    size_t size = dmlconf_case_element_size(c);

    memset(out, 0, sizeof(*out));
    if (!size || !count || count > UINT64_MAX / size)
    {
        return false;
    }
    out->logical = count * size;
    if (!buffer_bytes(&c->desc.input, &out->input) ||
        (!c->desc.in_place && !buffer_bytes(&c->desc.output, &out->output)))
    {
        memset(out, 0, sizeof(*out));
        return false;
    }
    out->expected = c->expected.kind != DMLCONF_CASE_DATA_NONE ? out->logical : 0;
    return true;
}
