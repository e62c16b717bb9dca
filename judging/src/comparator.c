/*
 * The tensor comparator: walks the output tensor line by line along the
 * scan axis, computes the oracle's values and side data for one line at a
 * time (so a 10^8-element case needs O(axis length) extra memory), judges
 * every element with the rule in judge.c and summarises the findings.
 */
#include "judging_internal.h"

#include <dmlconf/comparator.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One element's raw bits, zero extended. */
static uint64_t load_bits(const unsigned char *p, size_t size)
{
    switch (size)
    {
    case 2:
    {
        uint16_t v;
        memcpy(&v, p, sizeof(v));
        return v;
    }
    case 4:
    {
        uint32_t v;
        memcpy(&v, p, sizeof(v));
        return v;
    }
    default:
    {
        uint64_t v;
        memcpy(&v, p, sizeof(v));
        return v;
    }
    }
}

/* Side-data entries computed at a time (40 bytes each). */
#define SIDE_CHUNK 1024u

/* Whether consecutive elements along the axis are consecutive in the packed
 * logical order: every dimension after the axis has size 1. */
static bool logical_step_is_one(const dmlconf_scan_desc *desc, uint32_t axis)
{
    for (uint32_t d = axis + 1; d < desc->input.dimension_count; ++d)
    {
        if (desc->input.sizes[d] != 1)
            return false;
    }
    return true;
}

static void copy_element(unsigned char *to, const unsigned char *from, size_t size)
{
    switch (size)
    {
    case 2:
        memcpy(to, from, 2);
        break;
    case 4:
        memcpy(to, from, 4);
        break;
    default:
        memcpy(to, from, 8);
        break;
    }
}

static void record(dmlconf_mismatch *m, uint64_t index, uint64_t expected, uint64_t actual, const dmlconf_judgement *j)
{
    memset(m, 0, sizeof(*m));
    m->logical_index = index;
    m->expected_bits = expected;
    m->actual_bits = actual;
    m->error_ulps = j->error_ulps;
    m->tolerance_fraction = j->tolerance_fraction;
    m->tolerance = j->tolerance;
    m->rule = j->rule;
}

/* Packed row-major index to coordinates. */
static void fill_coordinates(const dmlconf_tensor_desc *desc, dmlconf_mismatch *m)
{
    uint64_t index = m->logical_index;
    m->dimension_count = desc->dimension_count;
    for (uint32_t d = desc->dimension_count; d-- > 0;)
    {
        m->coordinates[d] = (uint32_t)(index % desc->sizes[d]);
        index /= desc->sizes[d];
    }
}

/* Keeps the samples sorted by logical index: the first mismatches in
 * logical order, whatever order the lines are walked in. */
static void add_sample(dmlconf_comparison *out, const dmlconf_mismatch *m)
{
    uint32_t count = out->sample_count;
    if (count == DMLCONF_MISMATCH_SAMPLES && m->logical_index >= out->samples[count - 1].logical_index)
        return;
    uint32_t at = count < DMLCONF_MISMATCH_SAMPLES ? count : DMLCONF_MISMATCH_SAMPLES - 1;
    while (at > 0 && out->samples[at - 1].logical_index > m->logical_index)
    {
        out->samples[at] = out->samples[at - 1];
        --at;
    }
    out->samples[at] = *m;
    if (count < DMLCONF_MISMATCH_SAMPLES)
        out->sample_count = count + 1;
}

/* Orders candidates for "worst": larger fraction, then more ulps, then the
 * earlier element. */
/* An element that still holds the canary: a failure (never written), or,
 * when the expected value is the canary itself, ambiguous: unjudged, and
 * counted so the runner can run the case again with another canary. */
static void judge_canary(uint64_t expected, uint64_t got, dmlconf_comparison *out, dmlconf_judgement *j)
{
    memset(j, 0, sizeof(*j));
    j->rule = DMLCONF_RULE_UNWRITTEN;
    if (expected == got)
    {
        ++out->canary_ambiguous;
        j->verdict = DMLCONF_VERDICT_UNJUDGED;
        return;
    }
    ++out->unwritten;
    j->verdict = DMLCONF_VERDICT_FAIL;
    j->error_ulps = INFINITY;
    j->tolerance_fraction = INFINITY;
}

static bool is_worse(const dmlconf_judgement *j, uint64_t index, const dmlconf_comparison *out)
{
    if (!out->has_worst)
        return true;
    const dmlconf_mismatch *w = &out->worst;
    if (j->tolerance_fraction != w->tolerance_fraction)
        return j->tolerance_fraction > w->tolerance_fraction;
    if (j->error_ulps != w->error_ulps)
        return j->error_ulps > w->error_ulps;
    return index < w->logical_index;
}

/* The ULP histogram's bin of an error (see DMLCONF_ULP_BINS). */
static unsigned ulp_bin(double error_ulps)
{
    unsigned bin = 1;

    if (!(error_ulps > 0.0))
        return 0;
    while (bin + 1 < DMLCONF_ULP_BINS && error_ulps >= ldexp(1.0, (int)bin))
        ++bin;
    return bin;
}

/* Adds one judged element to the summary; `position` is its position bin
 * along the scan axis. */
static void tally(dmlconf_comparison *out, uint64_t index, uint64_t expected, uint64_t actual,
                  const dmlconf_judgement *j, unsigned position)
{
    ++out->elements;
    if (j->verdict == DMLCONF_VERDICT_UNJUDGED)
    {
        ++out->unjudged;
        return;
    }
    ++out->ulp_histogram[ulp_bin(j->error_ulps)];
    if (j->tolerance_fraction > out->position_max_fraction[position])
        out->position_max_fraction[position] = j->tolerance_fraction;
    if (j->error_ulps > out->position_max_ulps[position])
        out->position_max_ulps[position] = j->error_ulps;
    if (j->error_ulps > out->max_error_ulps)
        out->max_error_ulps = j->error_ulps;
    if (j->tolerance_fraction > out->max_tolerance_fraction)
        out->max_tolerance_fraction = j->tolerance_fraction;

    unsigned bin = DMLCONF_HISTOGRAM_BINS - 1;
    if (j->verdict == DMLCONF_VERDICT_PASS)
    {
        double scaled = j->tolerance_fraction * 10.0; /* in [0, 10] for a pass */
        bin = scaled >= 9.0 ? 9u : (unsigned)scaled;
    }
    ++out->histogram[bin];

    if (is_worse(j, index, out))
    {
        record(&out->worst, index, expected, actual, j);
        out->has_worst = true;
    }
    if (j->verdict == DMLCONF_VERDICT_FAIL)
    {
        ++out->mismatches;
        ++out->position_mismatches[position];
        if (out->sample_count < DMLCONF_MISMATCH_SAMPLES ||
            index < out->samples[DMLCONF_MISMATCH_SAMPLES - 1].logical_index)
        {
            dmlconf_mismatch m;
            record(&m, index, expected, actual, j);
            add_sample(out, &m);
        }
    }
}

int dmlconf_compare(const dmlconf_scan_desc *desc, const void *logical_input, const void *logical_expected,
                    const void *actual, size_t actual_bytes, const dmlconf_tolerance *tol, dmlconf_comparison *out,
                    dmlconf_error *err)
{
    if (!out)
    {
        judging_set_error(err, "no comparison record given");
        return -1;
    }
    memset(out, 0, sizeof(*out));
    if (!desc || !logical_input || !actual)
    {
        judging_set_error(err, "%s is NULL", !desc ? "the desc" : !logical_input ? "the input" : "the actual output");
        return -1;
    }
    dmlconf_validation validation;
    if (!dmlconf_validate(desc, DMLCONF_FEATURE_LEVEL_6_4, &validation))
    {
        judging_set_error(err, "invalid desc (%s): %s", dmlconf_reason_name(validation.reason), validation.message);
        return -1;
    }
    dmlconf_data_type type = desc->output.data_type;
    if (!dmlconf_data_type_is_computable(type) || desc->input.data_type != type)
    {
        const char *name = dmlconf_data_type_name(type);
        judging_set_error(err, "data type %s cannot be compared", name ? name : "(unknown)");
        return -1;
    }
    uint64_t need = 0;
    if (!dmlconf_tensor_min_size_bytes(&desc->output, &need) || actual_bytes < need)
    {
        judging_set_error(err, "the output buffer holds %zu bytes; its tensor needs %" PRIu64, actual_bytes, need);
        return -1;
    }
    /* A count of "the axis length minus 1" ulps becomes a number here,
     * where the axis is known. */
    dmlconf_tolerance resolved;
    if (tol && tol->form == DMLCONF_TOLERANCE_FORM_ULP_COUNT && tol->ulp_count_axis_length_minus_1)
    {
        resolved = *tol;
        resolved.ulp_count = (double)desc->input.sizes[desc->axis] - 1.0;
        resolved.ulp_count_axis_length_minus_1 = false;
        tol = &resolved;
    }
    dmlconf_judge judge;
    if (dmlconf_judge_init(&judge, desc->op, type, tol, err))
        return -1;

    size_t size = dmlconf_data_type_bits(type) / 8;
    uint32_t axis = desc->axis;
    size_t n = desc->input.sizes[axis];
    uint64_t lines = dmlconf_line_count(&desc->input, axis);
    bool reversed = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING;
    /* Only the accumulation bound needs the input's side data. */
    bool want_side = judge.is_float && judge.tol.form == DMLCONF_TOLERANCE_FORM_BOUND;
    const unsigned char *input_bytes = logical_input, *expected_bytes = logical_expected, *actual_data = actual;

    /* Memory is O(line) and side data O(chunk): the oracle's values of one
     * line, its input in scan order when it is not already contiguous, and
     * the side data of SIDE_CHUNK elements at a time, so a 10^8-element line
     * needs its values but never 10^8 side-data entries. */
    unsigned char *gathered = NULL, *oracle_line = NULL;
    dmlconf_side_data side_chunk[SIDE_CHUNK];
    int result = -1;
    bool contiguous = logical_step_is_one(desc, axis) && !reversed;
    gathered = contiguous ? NULL : malloc(n * size);
    oracle_line = expected_bytes ? NULL : malloc(n * size);
    if ((!contiguous && !gathered) || (!expected_bytes && !oracle_line))
    {
        judging_set_error(err, "out of memory for a line of %zu elements", n);
        goto done;
    }

    for (uint64_t line = 0; line < lines; ++line)
    {
        uint64_t logical_first, logical_step, out_first, out_step;
        dmlconf_line_layout(&desc->input, axis, line, NULL, NULL, &logical_first, &logical_step);
        dmlconf_line_layout(&desc->output, axis, line, &out_first, &out_step, NULL, NULL);

        /* The line in scan order: element j of the scan is index `source`
         * along the axis. */
        const unsigned char *in_line = input_bytes + logical_first * size;
        if (!contiguous)
        {
            for (size_t j = 0; j < n; ++j)
            {
                size_t source = reversed ? n - 1 - j : j;
                copy_element(gathered + j * size, input_bytes + (logical_first + source * logical_step) * size, size);
            }
            in_line = gathered;
        }
        if (oracle_line && dmlconf_scan_line(desc->op, type, desc->exclusive, n, in_line, oracle_line, NULL, err))
            goto done;

        dmlconf_side_walk walk;
        if (want_side && dmlconf_side_walk_init(&walk, desc->op, type, desc->exclusive, err))
            goto done;
        for (size_t chunk = 0; chunk < n; chunk += SIDE_CHUNK)
        {
            size_t count = n - chunk < SIDE_CHUNK ? n - chunk : SIDE_CHUNK;
            if (want_side)
                dmlconf_side_walk_next(&walk, count, in_line + chunk * size, side_chunk);
            for (size_t k = 0; k < count; ++k)
            {
                size_t j = chunk + k;
                size_t source = reversed ? n - 1 - j : j;
                uint64_t index = logical_first + source * logical_step;
                uint64_t expected = expected_bytes ? load_bits(expected_bytes + index * size, size)
                                                   : load_bits(oracle_line + j * size, size);
                uint64_t got = load_bits(actual_data + (out_first + source * out_step) * size, size);
                dmlconf_judgement judgement;
                if (tol && tol->has_canary && got == tol->canary_bits)
                    judge_canary(expected, got, out, &judgement);
                else
                    dmlconf_judge_bits(&judge, expected, got, want_side ? &side_chunk[k] : NULL, &judgement);
                uint64_t mismatches = out->mismatches;
                tally(out, index, expected, got, &judgement,
                      (unsigned)((uint64_t)j * DMLCONF_POSITION_BINS / (uint64_t)n));
                if (out->mismatches > mismatches && (!out->has_earliest || j < out->earliest_position))
                {
                    out->has_earliest = true;
                    out->earliest_position = j;
                    out->earliest_line = line;
                }
            }
        }
    }

    out->has_first = out->mismatches > 0;
    if (out->has_first)
        out->first = out->samples[0];
    for (uint32_t i = 0; i < out->sample_count; ++i)
        fill_coordinates(&desc->output, &out->samples[i]);
    if (out->has_first)
        fill_coordinates(&desc->output, &out->first);
    if (out->has_worst)
        fill_coordinates(&desc->output, &out->worst);
    result = 0;

done:
    if (result)
        memset(out, 0, sizeof(*out));
    free(gathered);
    free(oracle_line);
    return result;
}
