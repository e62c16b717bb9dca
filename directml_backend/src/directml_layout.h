/*
 * Where a job's tensors and DirectML's resources live in a batch's shared
 * buffer, and the canary bytes between and around the tensors that show a
 * write outside the bound ranges or into the input. Pure C with no device,
 * tested on every platform.
 *
 * A job's span, in the default binding: [input][output][temporary]
 * [persistent], each at a multiple of 256 bytes. With canaries (the
 * offset bindings):
 *
 *   [canary][input][canary][output][canary]  [scrub] [decoys] [temporary] [persistent]
 *   ^start                                   ^canary_end
 *
 * where each tensor sits at an odd multiple of the tensor alignment (so at
 * that alignment and at no larger power of two), at least
 * DIRECTML_CANARY_BYTES after the byte before it, and the last canary is
 * DIRECTML_CANARY_BYTES long. The scrub region (owned-input: the bytes
 * written over the input once DirectML owns it) and the decoys
 * (descriptors-volatile: where the bindings point when the dispatch is
 * recorded) follow, then the resources at multiples of 256.
 */
#ifndef DMLCONF_DIRECTML_LAYOUT_H
#define DMLCONF_DIRECTML_LAYOUT_H

#include <dmlconf/oracle.h>

#include <stdbool.h>
#include <stdint.h>

/* The alignment of the default binding's regions and of DirectML's
 * temporary and persistent resources. */
#define DIRECTML_REGION_ALIGNMENT 256u
/* The least canary before, between and after a job's tensors. */
#define DIRECTML_CANARY_BYTES 256u

/* How a job is laid out. */
typedef struct directml_layout_options
{
    uint32_t tensor_alignment; /* a power of two: 256 by default, 64 or 16 for the offset bindings */
    bool canaries;             /* tensors at odd multiples of the alignment, with canaries around them */
    bool scrub;                /* a region as large as the input, to write over it after initialization */
    bool decoys;               /* regions as large as the input and the output, bound first */
} directml_layout_options;

typedef struct directml_regions
{
    uint64_t start;                       /* the job's first byte (its first canary, with canaries) */
    uint64_t input_offset, input_bytes;   /* in place: the output's region */
    uint64_t output_offset, output_bytes; /* bound size: the output tensor's total size */
    uint64_t canary_end;                  /* with canaries: the end of the last canary */
    uint64_t scrub_offset, scrub_bytes;   /* scrub: as long as the input; 0 bytes without */
    uint64_t decoy_input_offset, decoy_output_offset;
    uint64_t temporary_offset, temporary_bytes;
    uint64_t persistent_offset, persistent_bytes;
    uint64_t end; /* the first byte after the job's regions */
} directml_regions;

/* Lays out one job from `start`: the input (unless in place) and the
 * output as `options` say, then the scrub region and the decoys when
 * asked for, then `temporary_bytes` (the larger of the operator's and its
 * initializer's) and `persistent_bytes`, each at a multiple of 256. Returns
 * false when a size overflows. */
bool directml_layout_job(const dmlconf_scan_desc *desc, uint64_t temporary_bytes, uint64_t persistent_bytes,
                         const directml_layout_options *options, uint64_t start, directml_regions *out);

/* The byte a canary holds at buffer offset `offset` (a pattern that
 * changes from byte to byte, so that no constant write matches it). */
unsigned char directml_canary_byte(uint64_t offset);

/* Fills the canary bytes of a laid-out job (with canaries) in `buffer`,
 * a mirror of the shared buffer from offset 0; the tensors' bytes are left
 * alone. The scrub region is filled too. */
void directml_fill_canaries(const directml_regions *regions, unsigned char *buffer);

/* What directml_check_span found. */
typedef struct directml_span_check
{
    uint64_t canary_bytes_changed; /* canary bytes that no longer hold the canary */
    uint64_t input_bytes_changed;  /* input bytes that differ from what was uploaded */
    uint64_t first_offset;         /* the first changed byte, as an offset in the shared buffer */
    const char *first_where;       /* "before the input", "between the input and the output", ... */
} directml_span_check;

/* Compares a job's span [start, canary_end) after the dispatch (`after`, a
 * mirror of the shared buffer from offset 0) with what was uploaded
 * (`before`, the same): every canary byte must be unchanged, and the input
 * too when `check_input` (an out-of-place job whose input stayed bound).
 * The output's range is not compared (DirectML may write anywhere in it).
 * Returns true when nothing changed; fills *out either way. */
bool directml_check_span(const directml_regions *regions, const unsigned char *before, const unsigned char *after,
                         bool check_input, directml_span_check *out);

#endif /* DMLCONF_DIRECTML_LAYOUT_H */
