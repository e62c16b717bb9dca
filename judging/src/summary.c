/*
 * The comparison summary (dmlconf_comparison): adding one judged element,
 * merging the summaries of parts of a tensor, and finishing it.
 *
 * Every field is a count, a sum, a maximum, the worst element under a total
 * order (larger fraction, then more ulps, then the smaller index) or the
 * elements of smallest logical index; so the summary does not depend on
 * the order in which elements are added, and parts judged apart (lines,
 * chunks of a line, on other threads) merge into exactly the summary one
 * walk over the tensor would give.
 */
#include "judging_internal.h"

#include <math.h>
#include <string.h>

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

/* Keeps the samples sorted by logical index: the first mismatches in
 * logical order, whatever order the elements come in. */
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
static bool is_worse(double fraction, double ulps, uint64_t index, const dmlconf_comparison *out)
{
    if (!out->has_worst)
        return true;
    const dmlconf_mismatch *w = &out->worst;
    if (fraction != w->tolerance_fraction)
        return fraction > w->tolerance_fraction;
    if (ulps != w->error_ulps)
        return ulps > w->error_ulps;
    return index < w->logical_index;
}

/* The ULP histogram's bin of an error (see DMLCONF_ULP_BINS): 0 for no
 * error, else the smallest k >= 1 with error < 2^k, at most the last bin;
 * for an error of at least 1 that is its binary exponent plus 1, read from
 * its bits (an infinity's exponent field is the largest). */
static unsigned ulp_bin(double error_ulps)
{
    if (!(error_ulps > 0.0))
        return 0;
    if (error_ulps < 1.0)
        return 1;
    uint64_t bits;
    memcpy(&bits, &error_ulps, sizeof(bits));
    uint64_t exponent = ((bits >> 52) & 0x7ffu) - 1023u; /* >= 0 here */
    return exponent + 1u < DMLCONF_ULP_BINS - 1u ? (unsigned)exponent + 1u : DMLCONF_ULP_BINS - 1u;
}

void judging_judge_canary(uint64_t expected, uint64_t got, dmlconf_comparison *out, dmlconf_judgement *j)
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

/* Keeps the mismatch earliest along its scan, the smallest index among
 * those at the same scan position, and the latest scan position. */
static void note_earliest(dmlconf_comparison *out, uint64_t scan_position, uint64_t index, uint64_t latest)
{
    if (!out->has_earliest || latest > out->latest_position)
        out->latest_position = latest;
    if (!out->has_earliest || scan_position < out->earliest_position ||
        (scan_position == out->earliest_position && index < out->earliest_line))
    {
        out->has_earliest = true;
        out->earliest_position = scan_position;
        out->earliest_line = index;
    }
}

void judging_tally(dmlconf_comparison *out, uint64_t index, uint64_t expected, uint64_t actual,
                   const dmlconf_judgement *j, unsigned position, uint64_t scan_position)
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

    if (is_worse(j->tolerance_fraction, j->error_ulps, index, out))
    {
        record(&out->worst, index, expected, actual, j);
        out->has_worst = true;
    }
    if (j->verdict == DMLCONF_VERDICT_FAIL)
    {
        ++out->mismatches;
        ++out->position_mismatches[position];
        note_earliest(out, scan_position, index, scan_position);
        if (out->sample_count < DMLCONF_MISMATCH_SAMPLES ||
            index < out->samples[DMLCONF_MISMATCH_SAMPLES - 1].logical_index)
        {
            dmlconf_mismatch m;
            record(&m, index, expected, actual, j);
            add_sample(out, &m);
        }
    }
}

void judging_tally_equal(dmlconf_comparison *out, uint64_t count, uint64_t index, uint64_t bits, dmlconf_rule rule)
{
    out->elements += count;
    out->ulp_histogram[0] += count;
    out->histogram[0] += count;
    /* A pass at fraction 0 and 0 ulps is the worst only when nothing else
     * is, or at a smaller index than the worst so far: the smallest index
     * of the run is the only candidate. */
    if (!out->has_worst ||
        (out->worst.tolerance_fraction == 0.0 && out->worst.error_ulps == 0.0 && index < out->worst.logical_index))
    {
        dmlconf_judgement j = {DMLCONF_VERDICT_PASS, rule, 0.0, 0.0, 0.0};
        record(&out->worst, index, bits, bits, &j);
        out->has_worst = true;
    }
}

void judging_merge(dmlconf_comparison *into, const dmlconf_comparison *part)
{
    into->elements += part->elements;
    into->mismatches += part->mismatches;
    into->unjudged += part->unjudged;
    into->unwritten += part->unwritten;
    into->canary_ambiguous += part->canary_ambiguous;
    if (part->max_error_ulps > into->max_error_ulps)
        into->max_error_ulps = part->max_error_ulps;
    if (part->max_tolerance_fraction > into->max_tolerance_fraction)
        into->max_tolerance_fraction = part->max_tolerance_fraction;
    if (part->has_worst &&
        is_worse(part->worst.tolerance_fraction, part->worst.error_ulps, part->worst.logical_index, into))
    {
        into->worst = part->worst;
        into->has_worst = true;
    }
    if (part->has_earliest)
        note_earliest(into, part->earliest_position, part->earliest_line, part->latest_position);
    for (uint32_t i = 0; i < part->sample_count; ++i)
        add_sample(into, &part->samples[i]);
    for (unsigned b = 0; b < DMLCONF_HISTOGRAM_BINS; ++b)
        into->histogram[b] += part->histogram[b];
    for (unsigned b = 0; b < DMLCONF_ULP_BINS; ++b)
        into->ulp_histogram[b] += part->ulp_histogram[b];
    for (unsigned b = 0; b < DMLCONF_POSITION_BINS; ++b)
    {
        into->position_mismatches[b] += part->position_mismatches[b];
        if (part->position_max_fraction[b] > into->position_max_fraction[b])
            into->position_max_fraction[b] = part->position_max_fraction[b];
        if (part->position_max_ulps[b] > into->position_max_ulps[b])
            into->position_max_ulps[b] = part->position_max_ulps[b];
    }
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

void judging_finish(dmlconf_comparison *out, const dmlconf_tensor_desc *desc, uint32_t axis)
{
    out->axis_length = desc->sizes[axis];
    out->lines = out->axis_length ? dmlconf_tensor_element_count(desc) / out->axis_length : 0;
    if (out->has_earliest)
    {
        /* The index to the line: the coordinates other than the axis, in
         * row-major order. */
        uint64_t inner = 1;
        for (uint32_t d = axis + 1; d < desc->dimension_count; ++d)
            inner *= desc->sizes[d];
        uint64_t index = out->earliest_line;
        out->earliest_line = index / (inner * desc->sizes[axis]) * inner + index % inner;
    }
    out->has_first = out->mismatches > 0;
    if (out->has_first)
        out->first = out->samples[0];
    for (uint32_t i = 0; i < out->sample_count; ++i)
        fill_coordinates(desc, &out->samples[i]);
    if (out->has_first)
        fill_coordinates(desc, &out->first);
    if (out->has_worst)
        fill_coordinates(desc, &out->worst);
}
