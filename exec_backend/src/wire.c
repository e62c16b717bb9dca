/*
 * The process protocol's binary framing: encoding the batch and job headers,
 * decoding and checking answer headers. docs/process-protocol.md gives
 * every offset; the functions below follow its tables line by line.
 */
#include "wire.h"

#include <dmlconf/why.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static void put_u32(unsigned char *out, uint32_t value)
{
    for (unsigned i = 0; i < 4; ++i)
        out[i] = (unsigned char)(value >> (8 * i));
}

static void put_u64(unsigned char *out, uint64_t value)
{
    for (unsigned i = 0; i < 8; ++i)
        out[i] = (unsigned char)(value >> (8 * i));
}

static uint32_t get_u32(const unsigned char *in)
{
    uint32_t value = 0;
    for (unsigned i = 0; i < 4; ++i)
        value |= (uint32_t)in[i] << (8 * i);
    return value;
}

static uint64_t get_u64(const unsigned char *in)
{
    uint64_t value = 0;
    for (unsigned i = 0; i < 8; ++i)
        value |= (uint64_t)in[i] << (8 * i);
    return value;
}

void exec_encode_batch_header(uint32_t job_count, unsigned char *out)
{
    memcpy(out, "DMLB", 4);
    put_u32(out + 4, EXEC_PROTOCOL_VERSION);
    put_u32(out + 8, job_count);
    put_u32(out + 12, 0);
}

size_t exec_job_input_bytes(const dmlconf_job *job)
{
    return job->input && !job->desc->in_place ? job->input_bytes : 0;
}

size_t exec_job_output_bytes(const dmlconf_job *job)
{
    return job->output ? job->output_bytes : 0;
}

/* One tensor: its type, sizes, strides (the desc's, or the packed ones,
 * saturated at 2^32 - 1 for a desc too large to be valid), whether the
 * desc gave strides, its declared total size and its buffer's bytes. */
static void encode_tensor(const dmlconf_tensor_desc *tensor, uint64_t buffer_bytes, unsigned char *out)
{
    memset(out, 0, EXEC_TENSOR_BYTES);
    put_u32(out, (uint32_t)tensor->data_type);
    put_u32(out + 4, tensor->dimension_count);
    uint32_t dimensions =
        tensor->dimension_count < DMLCONF_MAX_DIMENSIONS ? tensor->dimension_count : DMLCONF_MAX_DIMENSIONS;
    uint64_t packed = 1;
    uint64_t strides[DMLCONF_MAX_DIMENSIONS] = {0};
    for (uint32_t d = dimensions; d-- > 0;)
    {
        strides[d] = tensor->has_strides ? tensor->strides[d] : packed;
        uint64_t size = tensor->sizes[d];
        packed = size && packed > UINT64_MAX / size ? UINT64_MAX : packed * size;
    }
    for (uint32_t d = 0; d < dimensions; ++d)
    {
        put_u32(out + 8 + 4 * d, tensor->sizes[d]);
        put_u32(out + 40 + 4 * d, strides[d] > UINT32_MAX ? UINT32_MAX : (uint32_t)strides[d]);
    }
    put_u32(out + 72, tensor->has_strides ? EXEC_TENSOR_STRIDES_GIVEN : 0u);
    put_u64(out + 80, tensor->total_size_bytes);
    put_u64(out + 88, buffer_bytes);
}

void exec_encode_job_header(const dmlconf_job *job, uint32_t index, unsigned char *out)
{
    const dmlconf_scan_desc *desc = job->desc;
    uint32_t flags = (desc->exclusive ? EXEC_JOB_EXCLUSIVE : 0u) | (desc->in_place ? EXEC_JOB_IN_PLACE : 0u) |
                     (job->output ? 0u : EXEC_JOB_VALIDATE_ONLY);
    memcpy(out, "DMLJ", 4);
    put_u32(out + 4, EXEC_JOB_HEADER_BYTES);
    put_u32(out + 8, index);
    put_u32(out + 12, (uint32_t)desc->op);
    put_u32(out + 16, desc->axis);
    put_u32(out + 20, (uint32_t)desc->direction);
    put_u32(out + 24, flags);
    put_u32(out + 28, (uint32_t)job->feature_level);
    encode_tensor(&desc->input, exec_job_input_bytes(job), out + 32);
    encode_tensor(&desc->output, exec_job_output_bytes(job), out + 32 + EXEC_TENSOR_BYTES);
}

static const char *status_name(uint32_t status)
{
    static const char *const names[] = {"done", "rejected", "unsupported", "failed"};
    return status < 4 ? names[status] : "?";
}

bool exec_decode_answer_header(const unsigned char *bytes, const dmlconf_job *job, uint32_t index,
                               exec_answer_header *out, char *why, size_t why_size)
{
    if (memcmp(bytes, "DMLA", 4) != 0)
    {
        dmlconf_set_why(why, why_size, "its answer does not start with \"DMLA\" but with bytes %02x %02x %02x %02x",
                        bytes[0], bytes[1], bytes[2], bytes[3]);
        return false;
    }
    out->index = get_u32(bytes + 4);
    out->status = get_u32(bytes + 8);
    out->reason = get_u32(bytes + 12);
    uint64_t seconds_bits = get_u64(bytes + 16);
    memcpy(&out->device_seconds, &seconds_bits, sizeof(out->device_seconds));
    if (!isfinite(out->device_seconds) || out->device_seconds < 0.0)
        out->device_seconds = -1.0;
    out->output_bytes = get_u64(bytes + 24);
    out->message_bytes = get_u32(bytes + 32);
    if (out->index != index)
    {
        dmlconf_set_why(why, why_size, "its answer is numbered %lu, not %lu", (unsigned long)out->index,
                        (unsigned long)index);
        return false;
    }
    if (out->status > EXEC_ANSWER_FAILED)
    {
        dmlconf_set_why(why, why_size, "its answer has status %lu (0 to 3 exist)", (unsigned long)out->status);
        return false;
    }
    if (out->reason >= DMLCONF_REASON_COUNT || (out->reason && out->status != EXEC_ANSWER_REJECTED))
    {
        dmlconf_set_why(why, why_size, "its answer (%s) has reason code %lu", status_name(out->status),
                        (unsigned long)out->reason);
        return false;
    }
    if (out->message_bytes > EXEC_MAX_MESSAGE_BYTES)
    {
        dmlconf_set_why(why, why_size, "its answer's message has %lu bytes (at most %u)",
                        (unsigned long)out->message_bytes, EXEC_MAX_MESSAGE_BYTES);
        return false;
    }
    uint64_t expected = out->status == EXEC_ANSWER_DONE ? exec_job_output_bytes(job) : 0;
    if (out->output_bytes != expected)
    {
        if (out->status == EXEC_ANSWER_DONE)
            dmlconf_set_why(why, why_size, "its answer has %llu output bytes, %s than the %llu of the output buffer",
                            (unsigned long long)out->output_bytes, out->output_bytes < expected ? "fewer" : "more",
                            (unsigned long long)expected);
        else
            dmlconf_set_why(why, why_size, "its answer (%s) has %llu output bytes (it may have none)",
                            status_name(out->status), (unsigned long long)out->output_bytes);
        return false;
    }
    return true;
}
