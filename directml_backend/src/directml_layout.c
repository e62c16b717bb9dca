/*
 * A job's regions in a batch's shared buffer, and its canaries.
 */
#include "directml_layout.h"

#include "directml_desc.h"

#include <string.h>

/* Rounds up to a multiple of `alignment` (a power of two); false on
 * overflow. */
static bool align_up(uint64_t value, uint64_t alignment, uint64_t *out)
{
    if (value > UINT64_MAX - (alignment - 1))
        return false;
    *out = (value + alignment - 1) & ~(alignment - 1);
    return true;
}

/* Places `bytes` at the first multiple of `alignment` from *at (with `odd`,
 * the first odd multiple) and moves *at past them. */
static bool place(uint64_t *at, uint64_t bytes, uint64_t alignment, bool odd, uint64_t *offset)
{
    if (!align_up(*at, alignment, offset))
        return false;
    if (odd && ((*offset / alignment) & 1u) == 0)
    {
        if (*offset > UINT64_MAX - alignment)
            return false;
        *offset += alignment;
    }
    if (bytes > UINT64_MAX - *offset)
        return false;
    *at = *offset + bytes;
    return true;
}

/* Moves *at past a canary of DIRECTML_CANARY_BYTES. */
static bool skip_canary(uint64_t *at)
{
    if (*at > UINT64_MAX - DIRECTML_CANARY_BYTES)
        return false;
    *at += DIRECTML_CANARY_BYTES;
    return true;
}

bool directml_layout_job(const dmlconf_scan_desc *desc, uint64_t temporary_bytes, uint64_t persistent_bytes,
                         const directml_layout_options *options, uint64_t start, directml_regions *out)
{
    memset(out, 0, sizeof(*out));
    const uint64_t region = DIRECTML_REGION_ALIGNMENT;
    uint64_t alignment = options->tensor_alignment ? options->tensor_alignment : region;
    bool canaries = options->canaries;
    uint64_t at = 0;
    /* A job starts at a region boundary; with canaries its first canary
     * starts there. */
    if (!align_up(start, region, &at))
        return false;
    out->start = at;
    out->output_bytes = directml_tensor_total_bytes(&desc->output);
    out->input_bytes = directml_tensor_total_bytes(&desc->input);
    if (!desc->in_place)
    {
        if ((canaries && !skip_canary(&at)) || !place(&at, out->input_bytes, alignment, canaries, &out->input_offset))
            return false;
    }
    if ((canaries && !skip_canary(&at)) || !place(&at, out->output_bytes, alignment, canaries, &out->output_offset))
        return false;
    if (desc->in_place)
    {
        out->input_offset = out->output_offset;
        out->input_bytes = out->output_bytes;
    }
    if (canaries && !skip_canary(&at))
        return false;
    out->canary_end = canaries ? at : out->start;
    if (options->scrub)
    {
        out->scrub_bytes = out->input_bytes;
        if (!place(&at, out->scrub_bytes, region, false, &out->scrub_offset))
            return false;
    }
    if (options->decoys)
    {
        if (!place(&at, out->input_bytes, region, false, &out->decoy_input_offset) ||
            !place(&at, out->output_bytes, region, false, &out->decoy_output_offset))
            return false;
    }
    out->temporary_bytes = temporary_bytes;
    if (temporary_bytes && !place(&at, temporary_bytes, region, false, &out->temporary_offset))
        return false;
    out->persistent_bytes = persistent_bytes;
    if (persistent_bytes && !place(&at, persistent_bytes, region, false, &out->persistent_offset))
        return false;
    return align_up(at, region, &out->end);
}

unsigned char directml_canary_byte(uint64_t offset)
{
    /* 0xc3 at offset 0, then a different byte at each of 256 offsets in a
     * row (31 is odd, so offset * 31 runs through every residue). */
    return (unsigned char)(0xc3u ^ (unsigned)((offset * 31u) & 0xffu));
}

static bool inside(uint64_t offset, uint64_t start, uint64_t bytes)
{
    return offset >= start && offset - start < bytes;
}

void directml_fill_canaries(const directml_regions *r, unsigned char *buffer)
{
    for (uint64_t offset = r->start; offset < r->canary_end; ++offset)
    {
        if (inside(offset, r->input_offset, r->input_bytes) || inside(offset, r->output_offset, r->output_bytes))
            continue;
        buffer[offset] = directml_canary_byte(offset);
    }
    for (uint64_t i = 0; i < r->scrub_bytes; ++i)
        buffer[r->scrub_offset + i] = directml_canary_byte(r->scrub_offset + i);
}

/* Where a canary byte lies, in words. */
static const char *canary_place(const directml_regions *r, uint64_t offset)
{
    bool in_place = r->input_offset == r->output_offset;
    if (in_place)
        return offset < r->output_offset ? "before the tensor" : "after the tensor";
    if (offset < r->input_offset)
        return "before the input";
    if (offset < r->output_offset)
        return "between the input and the output";
    return "after the output";
}

bool directml_check_span(const directml_regions *r, const unsigned char *before, const unsigned char *after,
                         bool check_input, directml_span_check *out)
{
    memset(out, 0, sizeof(*out));
    bool in_place = r->input_offset == r->output_offset;
    for (uint64_t offset = r->start; offset < r->canary_end; ++offset)
    {
        if (inside(offset, r->output_offset, r->output_bytes))
            continue;
        bool input = !in_place && inside(offset, r->input_offset, r->input_bytes);
        if (input && !check_input)
            continue;
        if (before[offset] == after[offset])
            continue;
        if (input)
            ++out->input_bytes_changed;
        else
            ++out->canary_bytes_changed;
        if (out->canary_bytes_changed + out->input_bytes_changed == 1)
        {
            out->first_offset = offset;
            out->first_where = input ? "in the input" : canary_place(r, offset);
        }
    }
    return out->canary_bytes_changed == 0 && out->input_bytes_changed == 0;
}
