/*
 * The set of kernel variants: keys, names, sizes, and generating a variant
 * as a DXBC container.
 */
#include "dxbc_container.h"
#include "kernel_asm.h"
#include "scan_params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct
{
    unsigned group;
    unsigned items32;
    const char *name;
} tile_shapes[TILE_SHAPE_COUNT] = {
    {64, 16, "64x16"}, {32, 16, "32x16"}, {64, 8, "64x8"}, {256, 16, "256x16"}, {64, 32, "64x32"}};

size_t kernel_key_index(const kernel_key *key)
{
    return (((((size_t)key->kind * ELEMENT_COUNT + key->element) * OPERATION_COUNT + key->operation) * FAULT_COUNT +
             key->fault) *
                TILE_SHAPE_COUNT +
            key->shape) *
               2 +
           key->spans;
}

kernel_key kernel_key_from_index(size_t index)
{
    kernel_key key;
    key.spans = index % 2;
    index /= 2;
    key.shape = (unsigned)(index % TILE_SHAPE_COUNT);
    index /= TILE_SHAPE_COUNT;
    key.fault = (kernel_fault)(index % FAULT_COUNT);
    index /= FAULT_COUNT;
    key.operation = (kernel_operation)(index % OPERATION_COUNT);
    index /= OPERATION_COUNT;
    key.element = (kernel_element)(index % ELEMENT_COUNT);
    index /= ELEMENT_COUNT;
    key.kind = (kernel_kind)index;
    return key;
}

bool kernel_key_exists(const kernel_key *key)
{
    if (key->kind >= KERNEL_KIND_COUNT || key->element >= ELEMENT_COUNT || key->operation >= OPERATION_COUNT ||
        key->fault >= FAULT_COUNT || key->shape >= TILE_SHAPE_COUNT || (key->kind == KERNEL_SERIAL && key->shape) ||
        (key->spans && ((key->kind != KERNEL_LOOKBACK && key->kind != KERNEL_TILE) || key->fault != FAULT_NONE)))
        return false;
    bool lanes = key->element == ELEMENT_F16X2 || key->element == ELEMENT_F32X2;
    if (lanes && key->kind != KERNEL_SERIAL)
        return false;
    if (key->kind == KERNEL_LINES && key->shape)
        return false;
    if (key->fault == FAULT_F16_ACCUMULATE)
        return key->element == ELEMENT_F16 || key->element == ELEMENT_F16X2;
    if (key->fault == FAULT_CHUNK_CARRY)
        return key->kind == KERNEL_SERIAL;
    return key->fault != FAULT_BROADCAST_IN_PLACE;
}

void kernel_key_name(const kernel_key *key, char *out, size_t size)
{
    static const char *const kinds[] = {"serial", "tile", "rake", "lookback", "lines"};
    static const char *const elements[] = {"f32", "f16", "i32", "i64", "f16x2", "f32x2"};
    static const char *const operations[] = {"sum", "product"};
    static const char *const faults[] = {
        "", ".drop-element", ".off-by-one-exclusive", ".f16-accumulate", ".chunk-carry", ""};
    if (!kernel_key_exists(key))
    {
        snprintf(out, size, "invalid");
        return;
    }
    snprintf(out, size, "%s%s.%s.%s%s%s", kinds[key->kind], key->shape ? tile_shapes[key->shape].name : "",
             elements[key->element], operations[key->operation], faults[key->fault], key->spans ? ".spans" : "");
}

unsigned kernel_items_per_group(kernel_kind kind)
{
    return kind == KERNEL_SERIAL ? SCAN_SERIAL_GROUP : 1u;
}

unsigned kernel_element_bytes(kernel_element element)
{
    switch (element)
    {
    case ELEMENT_F16:
        return 2;
    case ELEMENT_I64:
    case ELEMENT_F32X2:
        return 8;
    case ELEMENT_F32:
    case ELEMENT_I32:
    case ELEMENT_F16X2:
    case ELEMENT_COUNT:
        break;
    }
    return 4;
}

unsigned kernel_accumulator_bytes(kernel_element element)
{
    return element == ELEMENT_I64 || element == ELEMENT_F16X2 || element == ELEMENT_F32X2 ? 8 : 4;
}

kernel_element kernel_accumulator_element(kernel_element element)
{
    switch (element)
    {
    case ELEMENT_F16:
        return ELEMENT_F32;
    case ELEMENT_F16X2:
        return ELEMENT_F32X2;
    default:
        return element;
    }
}

unsigned kernel_tile_group(unsigned shape)
{
    return tile_shapes[shape < TILE_SHAPE_COUNT ? shape : 0].group;
}

unsigned kernel_tile_elements(kernel_element element, unsigned shape)
{
    unsigned s = shape < TILE_SHAPE_COUNT ? shape : 0;
    return tile_shapes[s].group * (element == ELEMENT_I64 ? tile_shapes[s].items32 / 2 : tile_shapes[s].items32);
}

bool kernel_tile_shape_from_name(const char *name, unsigned *shape)
{
    for (unsigned s = 0; s < TILE_SHAPE_COUNT; ++s)
    {
        if (!strcmp(name, tile_shapes[s].name))
        {
            *shape = s;
            return true;
        }
    }
    return false;
}

int kernel_generate(const kernel_key *key, void **blob, size_t *size, char *why, size_t why_size)
{
    char name[64];
    kernel_key_name(key, name, sizeof(name));
    if (!kernel_key_exists(key))
    {
        snprintf(why, why_size, "no such kernel variant");
        return -1;
    }
    dxbc_program program = {0};
    switch (key->kind)
    {
    case KERNEL_TILE:
        generate_tile_kernel(&program, key);
        break;
    case KERNEL_RAKE:
        generate_rake_kernel(&program, key);
        break;
    case KERNEL_LOOKBACK:
        generate_lookback_kernel(&program, key);
        break;
    case KERNEL_LINES:
        generate_lines_kernel(&program, key);
        break;
    default:
        generate_serial_kernel(&program, key);
        break;
    }
    if (program.failed)
    {
        snprintf(why, why_size, "kernel %s: %s", name, program.error);
        dxbc_program_release(&program);
        return -1;
    }
    int failed = dxbc_container_build(program.words, program.count, blob, size);
    dxbc_program_release(&program);
    if (failed)
    {
        snprintf(why, why_size, "kernel %s: out of memory for the container", name);
        return -1;
    }
    return 0;
}
