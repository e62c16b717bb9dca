/*
 * The scan kernels: which variants exist and how each is generated as a
 * DXBC compute shader (shader model 5.0). See scan_params.h for what every
 * kernel reads and writes.
 */
#ifndef DMLCONF_D3D12_KERNELS_H
#define DMLCONF_D3D12_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

/* How a kernel spreads work. */
typedef enum kernel_kind
{
    KERNEL_SERIAL,   /* one thread per (line, chunk), elements in sequence */
    KERNEL_TILE,     /* one thread group per (line, chunk): a cooperative
                      * scan of a tile through groupshared memory */
    KERNEL_RAKE,     /* the same groups and tiles, each thread's run of
                      * elements kept in registers */
    KERNEL_LOOKBACK, /* one thread group per chunk of a contiguous line, in
                      * one pass: each chunk's prefix from its predecessors'
                      * published values (decoupled look-back) */
    KERNEL_LINES,    /* one thread group per block of short lines packed in
                      * memory, staged through groupshared memory */
    KERNEL_KIND_COUNT
} kernel_kind;

/* Element storage and arithmetic. */
typedef enum kernel_element
{
    ELEMENT_F32, /* float32, accumulated in float32 */
    ELEMENT_F16, /* float16 storage, accumulated in float32 */
    ELEMENT_I32, /* int32 and uint32: wrapping 32-bit arithmetic */
    ELEMENT_I64, /* int64 and uint64: wrapping, in 32-bit halves */
    /* Two neighbouring lines of float16 at once: one 32-bit word holds an
     * element of each (low half: the even line), accumulated as two
     * float32 (the serial kernel only; see scan_plan.c). */
    ELEMENT_F16X2,
    ELEMENT_F32X2, /* their accumulators: two float32 lanes, 8 bytes */
    ELEMENT_COUNT
} kernel_element;

typedef enum kernel_operation
{
    OPERATION_SUM,
    OPERATION_PRODUCT,
    OPERATION_COUNT
} kernel_operation;

/* Deliberately broken variants, for the self-test that proves the
 * comparator catches a wrong kernel, and for `dmlconf explore`'s proof that
 * random cases find faults at boundaries the corpus does not reach. */
typedef enum kernel_fault
{
    FAULT_NONE,
    FAULT_DROP_ELEMENT,         /* the second element of each line is not combined */
    FAULT_OFF_BY_ONE_EXCLUSIVE, /* exclusive scans store the inclusive value */
    FAULT_F16_ACCUMULATE,       /* float16 data accumulated in float16 */
    /* The serial kernel's rescan of a chunked line starts the third and
     * later chunks from the previous chunk's offset (a carry index one
     * slot short); the planner asks for it only where the lines span two
     * or more folded dimensions (an axis between others). */
    FAULT_CHUNK_CARRY,
    /* Not a kernel: the planner runs a job whose input is broadcast in a
     * middle dimension a second time in place over its output, as an
     * expand-then-scan-in-place path that does not wait for the expansion
     * would: lines read other lines' results as their input. */
    FAULT_BROADCAST_IN_PLACE,
    FAULT_COUNT
} kernel_fault;

/* The tile and rake kernels' shapes: threads per group and elements per
 * thread (half as many for 64-bit elements). Shape 0 is the default. */
#define TILE_SHAPE_COUNT 5u

typedef struct kernel_key
{
    kernel_kind kind;
    kernel_element element;
    kernel_operation operation;
    kernel_fault fault;
    unsigned shape; /* tile, rake and look-back kernels: 0 .. TILE_SHAPE_COUNT-1; others: 0 */
    bool spans;     /* look-back and tile kernels only (the tile kernel's chained passes): chunks
                     * past the first publish spans, never inclusive
                     * prefixes, so every look-back jumps (a test of the jumps) */
} kernel_key;

/* A dense index for a key (0 .. KERNEL_VARIANT_COUNT-1), for caches. */
#define KERNEL_VARIANT_COUNT                                                                                           \
    ((size_t)KERNEL_KIND_COUNT * ELEMENT_COUNT * OPERATION_COUNT * FAULT_COUNT * TILE_SHAPE_COUNT * 2)
size_t kernel_key_index(const kernel_key *key);
/* The key of a dense index (the inverse of kernel_key_index). */
kernel_key kernel_key_from_index(size_t index);

/* Whether a variant is generated at all (the float16-accumulation fault
 * exists only for float16 kernels, float16 pairs included; the chunk-carry
 * fault only for the serial kernel; the broadcast fault for none: it is the
 * planner's; the two-lane classes only for the serial kernel; the
 * short-line kernel has one shape). */
bool kernel_key_exists(const kernel_key *key);

/* A stable name such as "tile.f32.sum", "serial.f16.sum.f16-accumulate" or,
 * for a tile shape other than the default, "tile128x16.f32.sum". */
void kernel_key_name(const kernel_key *key, char *out, size_t size);

/* Work items per thread group of a kind: SCAN_SERIAL_GROUP for the kinds
 * whose work item is a thread (serial, clear), 1 for the others. */
unsigned kernel_items_per_group(kernel_kind kind);

/* The short-line kernel's block: the elements one thread group stages
 * (lines of at most half of it are worth the kernel). */
unsigned kernel_lines_block(kernel_element element);

/* Bytes of one element in storage and in the scratch (accumulator) buffer. */
unsigned kernel_element_bytes(kernel_element element);
unsigned kernel_accumulator_bytes(kernel_element element);
/* The element class that scans a buffer of this class's accumulators
 * (float16 totals are float32). */
kernel_element kernel_accumulator_element(kernel_element element);
/* A tile shape's threads per group, and its elements per tile for this
 * class (tile and rake kernels). */
unsigned kernel_tile_group(unsigned shape);
unsigned kernel_tile_elements(kernel_element element, unsigned shape);
/* Parses a shape's name ("256x16": group x elements per 32-bit thread);
 * false when there is no such shape. */
bool kernel_tile_shape_from_name(const char *name, unsigned *shape);

/* Generates the variant as a DXBC container. Returns 0 with *blob
 * (malloc'ed; the caller frees it) and *size, or -1 with a sentence in
 * `why` (out of memory, or an emitter error). */
int kernel_generate(const kernel_key *key, void **blob, size_t *size, char *why, size_t why_size);

#endif /* DMLCONF_D3D12_KERNELS_H */
