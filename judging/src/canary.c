/*
 * The output canary (dmlconf/canary.h): its patterns, filling a buffer
 * with it and finding the bytes that changed.
 */
#include <dmlconf/canary.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

uint64_t dmlconf_canary_bits(dmlconf_data_type type, unsigned attempt)
{
    bool second = attempt & 1u;
    switch (type)
    {
    case DMLCONF_DATA_TYPE_FLOAT32:
        /* Exponent all ones, quiet bit clear, payload not zero. */
        return second ? 0x7f85a5a5u : 0x7fa5a5a5u;
    case DMLCONF_DATA_TYPE_FLOAT16:
        return second ? 0x7c5au : 0x7d5au;
    case DMLCONF_DATA_TYPE_INT64:
    case DMLCONF_DATA_TYPE_UINT64:
        return second ? UINT64_C(0x5a5a5a5a5a5a5a5a) : UINT64_C(0xa5a5a5a5a5a5a5a5);
    default:
        break;
    }
    uint64_t bits = second ? UINT64_C(0x5a5a5a5a5a5a5a5a) : UINT64_C(0xa5a5a5a5a5a5a5a5);
    unsigned width = dmlconf_data_type_bits(type);
    return width && width < 64 ? bits & ((UINT64_C(1) << width) - 1u) : bits;
}

/* The canary's byte at `offset` of a buffer filled element by element
 * (little-endian). */
static unsigned char canary_byte(uint64_t bits, size_t element, size_t offset)
{
    return (unsigned char)(bits >> (8u * (offset % element)));
}

void dmlconf_canary_fill(void *buffer, size_t bytes, size_t element, uint64_t bits)
{
    unsigned char *out = buffer;
    unsigned char pattern[8];
    for (size_t i = 0; i < element; ++i)
        pattern[i] = canary_byte(bits, element, i);
    size_t filled = bytes < element ? bytes : element;
    memcpy(out, pattern, filled);
    /* Doubling copies: the pattern repeats at the element size. */
    while (filled < bytes)
    {
        size_t chunk = filled < bytes - filled ? filled : bytes - filled;
        memcpy(out + filled, out, chunk);
        filled += chunk;
    }
}

size_t dmlconf_canary_changed(const void *buffer, size_t from, size_t to, size_t element, uint64_t bits)
{
    const unsigned char *bytes = buffer;
    size_t changed = 0;
    for (size_t i = from; i < to; ++i)
        changed += bytes[i] != canary_byte(bits, element, i);
    return changed;
}

uint64_t dmlconf_canary_padding_written(const dmlconf_tensor_desc *desc, const void *buffer, size_t bytes, uint64_t bits)
{
    size_t element = dmlconf_data_type_bits(desc->data_type) / 8;
    uint64_t count = dmlconf_tensor_element_count(desc);
    if (!element || !count)
        return 0;
    size_t slots = bytes / element;
    if (!desc->has_strides || count == slots)
        return dmlconf_canary_changed(buffer, slots * element, bytes, element, bits);
    /* Mark the slots the elements occupy; the rest is padding. */
    unsigned char *used = calloc((slots + 7) / 8, 1);
    if (!used)
        return UINT64_MAX;
    uint64_t strides[DMLCONF_MAX_DIMENSIONS];
    uint32_t coordinates[DMLCONF_MAX_DIMENSIONS] = {0};
    uint32_t last = desc->dimension_count - 1;
    for (uint32_t d = 0; d < desc->dimension_count; ++d)
        strides[d] = dmlconf_tensor_stride(desc, d);
    uint64_t offset = 0;
    for (uint64_t i = 0; i < count; ++i)
    {
        if (offset < slots)
            used[offset / 8] |= (unsigned char)(1u << (offset % 8));
        for (uint32_t d = last + 1; d-- > 0;)
        {
            if (++coordinates[d] < desc->sizes[d])
            {
                offset += strides[d];
                break;
            }
            offset -= (uint64_t)(coordinates[d] - 1u) * strides[d];
            coordinates[d] = 0;
        }
    }
    uint64_t changed = 0;
    for (size_t slot = 0; slot < slots; ++slot)
    {
        if (!(used[slot / 8] & (1u << (slot % 8))))
            changed += dmlconf_canary_changed(buffer, slot * element, (slot + 1) * element, element, bits);
    }
    changed += dmlconf_canary_changed(buffer, slots * element, bytes, element, bits);
    free(used);
    return changed;
}
