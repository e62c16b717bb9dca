/*
 * Tensor layout: element counts, strides, minimum buffer sizes and where
 * each line along an axis lives in memory.
 */
#include "line_kernels.h"

#include <stdlib.h>

static bool dimension_count_ok(const dmlconf_tensor_desc *desc)
{
    return desc->dimension_count >= 1 && desc->dimension_count <= DMLCONF_MAX_DIMENSIONS;
}

uint64_t dmlconf_tensor_element_count(const dmlconf_tensor_desc *desc)
{
    if (!dimension_count_ok(desc))
        return 0;
    uint64_t count = 1;
    for (uint32_t d = 0; d < desc->dimension_count; ++d)
    {
        if (desc->sizes[d] == 0)
            return 0;
        if (count > UINT64_MAX / desc->sizes[d])
            count = UINT64_MAX;
        else
            count *= desc->sizes[d];
    }
    return count;
}

uint64_t dmlconf_tensor_stride(const dmlconf_tensor_desc *desc, uint32_t d)
{
    if (desc->has_strides)
        return desc->strides[d];
    uint64_t stride = 1;
    for (uint32_t i = d + 1; i < desc->dimension_count && i < DMLCONF_MAX_DIMENSIONS; ++i)
    {
        if (stride > UINT64_MAX / (desc->sizes[i] ? desc->sizes[i] : 1))
            return UINT64_MAX;
        stride *= desc->sizes[i];
    }
    return stride;
}

bool dmlconf_tensor_min_size_bytes(const dmlconf_tensor_desc *desc, uint64_t *bytes)
{
    unsigned bits = dmlconf_data_type_bits(desc->data_type);
    if (!bits || dmlconf_tensor_element_count(desc) == 0)
        return false;
    /* span = 1 + sum((size - 1) * stride), every step checked. */
    uint64_t span = 1;
    for (uint32_t d = 0; d < desc->dimension_count; ++d)
    {
        uint64_t stride = dmlconf_tensor_stride(desc, d);
        uint64_t extent = desc->sizes[d] - 1u;
        if (extent && stride > UINT64_MAX / extent)
            return false;
        if (span > UINT64_MAX - extent * stride)
            return false;
        span += extent * stride;
    }
    /* ceil(span * bits / 8) without forming span * bits, which can overflow
     * when the size in bytes does not. */
    if (span / 8 > UINT64_MAX / bits)
        return false;
    uint64_t whole = span / 8 * bits, rest = (span % 8 * bits + 7) / 8;
    if (whole > UINT64_MAX - rest)
        return false;
    uint64_t size = whole + rest;
    if (size > UINT64_MAX - 3)
        return false;
    *bytes = (size + 3) & ~UINT64_C(3);
    return true;
}

uint64_t dmlconf_line_count(const dmlconf_tensor_desc *desc, uint32_t axis)
{
    uint64_t count = dmlconf_tensor_element_count(desc);
    if (!count || axis >= desc->dimension_count)
        return 0;
    return count / desc->sizes[axis];
}

void dmlconf_line_layout(const dmlconf_tensor_desc *desc, uint32_t axis, uint64_t line, uint64_t *first, uint64_t *step,
                         uint64_t *logical_first, uint64_t *logical_step)
{
    /* Peel the line number into coordinates of the other dimensions, last
     * dimension fastest. */
    uint64_t offset = 0, logical = 0, logical_stride = 1;
    for (uint32_t i = desc->dimension_count; i-- > 0;)
    {
        if (i != axis)
        {
            uint64_t coordinate = line % desc->sizes[i];
            line /= desc->sizes[i];
            offset += coordinate * dmlconf_tensor_stride(desc, i);
            logical += coordinate * logical_stride;
        }
        else if (logical_step)
        {
            *logical_step = logical_stride;
        }
        logical_stride *= desc->sizes[i];
    }
    if (first)
        *first = offset;
    if (step)
        *step = dmlconf_tensor_stride(desc, axis);
    if (logical_first)
        *logical_first = logical;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Exact check by listing every offset; only for small tensors. Returns
 * true when two elements share an offset (or memory runs out, which is the
 * safe answer). */
static bool offsets_collide(const dmlconf_tensor_desc *desc, uint64_t count)
{
    uint64_t *offsets = malloc(count * sizeof(*offsets));
    if (!offsets)
        return true;
    uint32_t coordinates[DMLCONF_MAX_DIMENSIONS] = {0};
    for (uint64_t i = 0; i < count; ++i)
    {
        uint64_t offset = 0;
        for (uint32_t d = 0; d < desc->dimension_count; ++d)
            offset += coordinates[d] * dmlconf_tensor_stride(desc, d);
        offsets[i] = offset;
        for (uint32_t d = desc->dimension_count; d-- > 0;)
        {
            if (++coordinates[d] < desc->sizes[d])
                break;
            coordinates[d] = 0;
        }
    }
    qsort(offsets, count, sizeof(*offsets), compare_u64);
    bool collide = false;
    for (uint64_t i = 1; i < count && !collide; ++i)
        collide = offsets[i] == offsets[i - 1];
    free(offsets);
    return collide;
}

bool dmlconf_tensor_self_overlaps(const dmlconf_tensor_desc *desc)
{
    if (!desc->has_strides)
        return false;
    /* Sufficient condition for no overlap: sorted by stride, each stride
     * reaches past everything the smaller strides can address. */
    uint32_t order[DMLCONF_MAX_DIMENSIONS];
    uint32_t used = 0;
    for (uint32_t d = 0; d < desc->dimension_count; ++d)
    {
        if (desc->sizes[d] > 1)
        {
            if (desc->strides[d] == 0)
                return true;
            uint32_t at = used++;
            while (at > 0 && desc->strides[order[at - 1]] > desc->strides[d])
            {
                order[at] = order[at - 1];
                --at;
            }
            order[at] = d;
        }
    }
    uint64_t reach = 0; /* largest offset addressable by the dims so far */
    bool nested = true;
    for (uint32_t i = 0; i < used && nested; ++i)
    {
        uint32_t d = order[i];
        if (desc->strides[d] <= reach)
            nested = false;
        reach += (uint64_t)(desc->sizes[d] - 1u) * desc->strides[d];
    }
    if (nested)
        return false;
    /* Interleaved layouts (e.g. sizes {3,2}, strides {2,3}) may still be
     * disjoint: decide exactly when the tensor is small enough. */
    uint64_t count = dmlconf_tensor_element_count(desc);
    if (count <= (UINT64_C(1) << 22))
        return offsets_collide(desc, count);
    return true;
}
