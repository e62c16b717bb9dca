/*
 * From a case's desc to DirectML's: the buffer tensor descs (sizes,
 * strides, total sizes), the cumulative operator's desc, and where each
 * job's tensors and resources live in a batch's buffers. Pure C with no
 * device, so it is tested on every platform.
 */
#ifndef DMLCONF_DIRECTML_DESC_H
#define DMLCONF_DIRECTML_DESC_H

#include "directml_api.h"

#include <dmlconf/oracle.h>

#include <stdbool.h>
#include <stdint.h>

/* DML_CUMULATIVE_{SUMMATION,PRODUCT}_OPERATOR_DESC with everything it
 * points to. The pointers inside point into the struct itself: do not copy
 * it after directml_desc_build (build it where it stays). */
typedef struct directml_desc
{
    UINT input_sizes[DMLCONF_MAX_DIMENSIONS];
    UINT input_strides[DMLCONF_MAX_DIMENSIONS];
    UINT output_sizes[DMLCONF_MAX_DIMENSIONS];
    UINT output_strides[DMLCONF_MAX_DIMENSIONS];
    DML_BUFFER_TENSOR_DESC input_buffer;
    DML_BUFFER_TENSOR_DESC output_buffer;
    DML_TENSOR_DESC input;
    DML_TENSOR_DESC output;
    DML_CUMULATIVE_OPERATOR_DESC cumulative;
    DML_OPERATOR_DESC op;
} directml_desc;

/* Fills `out` from `desc` exactly as the case gives it, valid or not (a
 * negative case's desc goes to DirectML as written, so that DirectML's own
 * validation judges it): data type, dimension count and sizes; strides
 * only when the case gives them (NULL otherwise: packed); the total size
 * the case gives, or else the minimum size DMLCalcBufferTensorSize
 * computes; the axis, the direction and the exclusive flag. */
void directml_desc_build(const dmlconf_scan_desc *desc, directml_desc *out);

/* TotalTensorSizeInBytes for a tensor: its own total size when it has one,
 * else its minimum size (0 when that cannot be computed). */
uint64_t directml_tensor_total_bytes(const dmlconf_tensor_desc *tensor);

/* Where one job's resources live in a batch's shared device buffer, and its
 * descriptors in the batch's descriptor heap. Offsets are multiples of
 * DIRECTML_REGION_ALIGNMENT. */
#define DIRECTML_REGION_ALIGNMENT 256u

typedef struct directml_regions
{
    uint64_t input_offset, input_bytes;   /* in place: the output's region */
    uint64_t output_offset, output_bytes; /* bound size: the output tensor's total size */
    uint64_t temporary_offset, temporary_bytes;
    uint64_t persistent_offset, persistent_bytes;
    uint64_t end; /* the first byte after the job's regions */
} directml_regions;

/* Lays out one job after `start` (rounded up to the alignment): the input
 * (unless in place), the output, then the larger of the operator's and its
 * initializer's temporary sizes, then the persistent resource. Returns
 * false when a size overflows. */
bool directml_layout_job(const dmlconf_scan_desc *desc, uint64_t temporary_bytes, uint64_t persistent_bytes,
                         uint64_t start, directml_regions *out);

#endif /* DMLCONF_DIRECTML_DESC_H */
