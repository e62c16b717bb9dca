/*
 * The tensor comparator's simplest entry point: packed logical input (and
 * expected values) in memory, judged by dmlconf_compare_tensor
 * (compare_tensor.c) on the calling thread.
 */
#include "judging_internal.h"

#include <dmlconf/comparator.h>

#include <stdint.h>
#include <string.h>

int dmlconf_compare(const dmlconf_scan_desc *desc, const void *logical_input, const void *logical_expected,
                    const void *actual, size_t actual_bytes, const dmlconf_tolerance *tol, dmlconf_comparison *out,
                    dmlconf_error *err)
{
    if (out)
        memset(out, 0, sizeof(*out));
    if (!desc || !logical_input || !actual)
    {
        judging_set_error(err, "%s is NULL", !desc ? "the desc" : !logical_input ? "the input" : "the actual output");
        return -1;
    }
    /* The logical tensors are packed: as many bytes as their elements. */
    uint64_t count = dmlconf_tensor_element_count(&desc->input);
    size_t size = dmlconf_data_type_bits(desc->input.data_type) / 8u;
    size_t bytes = count <= SIZE_MAX / (size ? size : 1u) ? (size_t)count * size : SIZE_MAX;
    dmlconf_compare_job job;
    memset(&job, 0, sizeof(job));
    job.desc = desc;
    job.input.buffer = logical_input;
    job.input.bytes = bytes;
    job.expected.buffer = logical_expected;
    job.expected.bytes = logical_expected ? bytes : 0;
    job.actual = actual;
    job.actual_bytes = actual_bytes;
    job.tol = tol;
    job.threads = 1;
    return dmlconf_compare_tensor(&job, out, err);
}
