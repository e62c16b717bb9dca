/*
 * The process protocol's binary framing (docs/process-protocol.md): the
 * batch and job headers dmlconf writes, the answer header it reads. Every
 * field is little-endian; encoding and decoding go byte by byte, so the
 * host's byte order and struct layout never matter.
 */
#ifndef DMLCONF_EXEC_WIRE_H
#define DMLCONF_EXEC_WIRE_H

#include <dmlconf/backend.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The protocol version this dmlconf speaks. */
#define EXEC_PROTOCOL_VERSION 1u

#define EXEC_BATCH_HEADER_BYTES  16u
#define EXEC_JOB_HEADER_BYTES    224u
#define EXEC_TENSOR_BYTES        96u
#define EXEC_ANSWER_HEADER_BYTES 40u
/* The longest message an answer may carry. */
#define EXEC_MAX_MESSAGE_BYTES 4096u

/* Job flags. */
enum
{
    EXEC_JOB_EXCLUSIVE = 1u << 0,
    EXEC_JOB_IN_PLACE = 1u << 1,
    EXEC_JOB_VALIDATE_ONLY = 1u << 2, /* no buffers follow: accept or refuse the desc */
};

/* Tensor flags. */
enum
{
    EXEC_TENSOR_STRIDES_GIVEN = 1u << 0, /* the desc has strides (else the packed ones are sent) */
};

/* Answer statuses. */
enum
{
    EXEC_ANSWER_DONE = 0,
    EXEC_ANSWER_REJECTED = 1,
    EXEC_ANSWER_UNSUPPORTED = 2,
    EXEC_ANSWER_FAILED = 3,
};

/* Writes the batch header for `job_count` jobs into out[16]. */
void exec_encode_batch_header(uint32_t job_count, unsigned char *out);

/* Writes the header of `job`, the index-th of its batch, into out[224]:
 * its desc, the level to validate at, and the sizes of the buffers that
 * follow (none for a job without buffers; no input buffer in place). */
void exec_encode_job_header(const dmlconf_job *job, uint32_t index, unsigned char *out);

/* Bytes of the job's buffers that follow its header: the input (none in
 * place or without buffers), then the output. */
size_t exec_job_input_bytes(const dmlconf_job *job);
size_t exec_job_output_bytes(const dmlconf_job *job);

/* An answer's header, decoded. */
typedef struct exec_answer_header
{
    uint32_t index;
    uint32_t status;
    uint32_t reason;
    double device_seconds;
    uint64_t output_bytes;
    uint32_t message_bytes;
} exec_answer_header;

/* Decodes the answer header in `bytes` (40 bytes) that must answer the
 * index-th job of its batch, `job`. Returns true when it is well formed
 * for that job: the magic, the index, a known status, a reason within
 * dmlconf's, a message of at most EXEC_MAX_MESSAGE_BYTES, and output
 * bytes that are the job's whole output buffer for DONE with buffers and 0
 * otherwise. Otherwise returns false with a sentence in `why`. */
bool exec_decode_answer_header(const unsigned char *bytes, const dmlconf_job *job, uint32_t index,
                               exec_answer_header *out, char *why, size_t why_size);

#endif /* DMLCONF_EXEC_WIRE_H */
