/*
 * Tests of dmlconf_compare_tensor, the chunked and threaded comparison:
 * - against a naive comparator written here (each whole line computed by
 *   dmlconf_scan_line with its side data, each element judged by
 *   dmlconf_judge_bits, the summary kept in the simplest way), over random
 *   descs of every type, rank, axis, direction, mode and output layout,
 *   with the input given packed, through a strided buffer or through a
 *   reader, the expected values given or computed, and 1 to 7 threads; the
 *   results must be identical;
 * - long lines through the pipeline, with mismatches planted in every part
 *   and chunk, the same whatever the threads;
 * - the oracle's exact fallback reading earlier chunks of a strided,
 *   decreasing line through the line's history;
 * - the errors: a reader that fails, a source with no data, a layout of
 *   other sizes, a buffer too small.
 */
#include <check.h>
#include <dmlconf/comparator.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUM  DMLCONF_OPERATOR_CUMULATIVE_SUMMATION
#define PROD DMLCONF_OPERATOR_CUMULATIVE_PRODUCT

/* ---- helpers ------------------------------------------------------------------ */

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t below(uint64_t *state, uint64_t bound)
{
    return next_random(state) % bound;
}

static size_t type_size(dmlconf_data_type type)
{
    return dmlconf_data_type_bits(type) / 8u;
}

static uint64_t load(const void *buffer, size_t size, uint64_t index)
{
    uint64_t value = 0;
    memcpy(&value, (const unsigned char *)buffer + index * size, size); /* little-endian hosts */
    return value;
}

static void store(void *buffer, size_t size, uint64_t index, uint64_t value)
{
    memcpy((unsigned char *)buffer + index * size, &value, size);
}

/* Element offset of logical index `index` in a layout. */
static uint64_t offset_of(const dmlconf_tensor_desc *desc, uint64_t index)
{
    uint64_t offset = 0;
    for (uint32_t d = desc->dimension_count; d-- > 0;)
    {
        offset += (index % desc->sizes[d]) * dmlconf_tensor_stride(desc, d);
        index /= desc->sizes[d];
    }
    return offset;
}

static uint64_t buffer_bytes(const dmlconf_tensor_desc *desc)
{
    uint64_t bytes = 0;
    ck_assert(dmlconf_tensor_min_size_bytes(desc, &bytes));
    return bytes;
}

/* Random element bits: floats mostly near 1 with some of any magnitude, a
 * few zeros and specials; integers of any width. */
static uint64_t random_bits(uint64_t *state, dmlconf_data_type type)
{
    uint64_t r = next_random(state);
    unsigned pick = (unsigned)(r % 64u);
    if (type == DMLCONF_DATA_TYPE_FLOAT32)
    {
        if (pick == 0)
            return 0x7f800000u;
        if (pick == 1)
            return 0;
        uint64_t exponent = pick < 8 ? 1u + (r >> 8) % 253u : 124u + (r >> 8) % 7u;
        return ((r >> 63) << 31) | (exponent << 23) | ((r >> 16) & 0x7fffffu);
    }
    if (type == DMLCONF_DATA_TYPE_FLOAT16)
    {
        if (pick == 0)
            return 0xfc00u;
        uint64_t exponent = 13u + (r >> 8) % 5u;
        return ((r >> 63) << 15) | (exponent << 10) | ((r >> 16) & 0x3ffu);
    }
    return r >> (next_random(state) % 64u);
}

/* ---- the naive comparator ------------------------------------------------------ */

static bool worse(const dmlconf_judgement *j, uint64_t index, const dmlconf_comparison *out)
{
    if (!out->has_worst)
        return true;
    if (j->tolerance_fraction != out->worst.tolerance_fraction)
        return j->tolerance_fraction > out->worst.tolerance_fraction;
    if (j->error_ulps != out->worst.error_ulps)
        return j->error_ulps > out->worst.error_ulps;
    return index < out->worst.logical_index;
}

static void fill_mismatch(dmlconf_mismatch *m, const dmlconf_tensor_desc *desc, uint64_t index, uint64_t expected,
                          uint64_t actual, const dmlconf_judgement *j)
{
    memset(m, 0, sizeof(*m));
    m->logical_index = index;
    m->expected_bits = expected;
    m->actual_bits = actual;
    m->error_ulps = j->error_ulps;
    m->tolerance_fraction = j->tolerance_fraction;
    m->tolerance = j->tolerance;
    m->rule = j->rule;
    m->dimension_count = desc->dimension_count;
    for (uint32_t d = desc->dimension_count; d-- > 0;)
    {
        m->coordinates[d] = (uint32_t)(index % desc->sizes[d]);
        index /= desc->sizes[d];
    }
}

/* The comparison the simple way: every line whole, every element judged,
 * the samples found by sorting every mismatch. */
static void naive_compare(const dmlconf_scan_desc *desc, const void *logical_input, const void *logical_expected,
                          const void *actual, const dmlconf_tolerance *tol, dmlconf_comparison *out)
{
    memset(out, 0, sizeof(*out));
    dmlconf_data_type type = desc->input.data_type;
    size_t size = type_size(type);
    dmlconf_judge judge;
    ck_assert_int_eq(dmlconf_judge_init(&judge, desc->op, type, tol, NULL), 0);
    uint64_t n = desc->input.sizes[desc->axis];
    uint64_t lines = dmlconf_line_count(&desc->input, desc->axis);
    bool reversed = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING;
    unsigned char *line = malloc(n * size), *oracle = malloc(n * size);
    dmlconf_side_data *side = malloc(n * sizeof(*side));
    uint64_t *failures = malloc(dmlconf_tensor_element_count(&desc->input) * sizeof(*failures) * 4);
    size_t failure_count = 0;
    ck_assert(line && oracle && side && failures);
    for (uint64_t l = 0; l < lines; ++l)
    {
        uint64_t first, step, out_first, out_step;
        dmlconf_line_layout(&desc->input, desc->axis, l, NULL, NULL, &first, &step);
        dmlconf_line_layout(&desc->output, desc->axis, l, &out_first, &out_step, NULL, NULL);
        for (uint64_t j = 0; j < n; ++j)
            store(line, size, j, load(logical_input, size, first + (reversed ? n - 1 - j : j) * step));
        ck_assert_int_eq(dmlconf_scan_line(desc->op, type, desc->exclusive, n, line, oracle, side, NULL), 0);
        for (uint64_t j = 0; j < n; ++j)
        {
            uint64_t a = reversed ? n - 1 - j : j;
            uint64_t index = first + a * step;
            uint64_t expected = logical_expected ? load(logical_expected, size, index) : load(oracle, size, j);
            uint64_t got = load(actual, size, out_first + a * out_step);
            dmlconf_judgement jm;
            if (tol && tol->has_canary && got == tol->canary_bits)
            {
                memset(&jm, 0, sizeof(jm));
                jm.rule = DMLCONF_RULE_UNWRITTEN;
                if (got == expected)
                {
                    ++out->canary_ambiguous;
                    jm.verdict = DMLCONF_VERDICT_UNJUDGED;
                }
                else
                {
                    ++out->unwritten;
                    jm.verdict = DMLCONF_VERDICT_FAIL;
                    jm.error_ulps = INFINITY;
                    jm.tolerance_fraction = INFINITY;
                }
            }
            else
            {
                dmlconf_judge_bits(&judge, expected, got, &side[j], &jm);
            }
            ++out->elements;
            if (jm.verdict == DMLCONF_VERDICT_UNJUDGED)
            {
                ++out->unjudged;
                continue;
            }
            unsigned position = (unsigned)(j * DMLCONF_POSITION_BINS / n);
            unsigned ulp_bin = 0;
            if (jm.error_ulps > 0.0)
                for (ulp_bin = 1; ulp_bin + 1 < DMLCONF_ULP_BINS && jm.error_ulps >= ldexp(1.0, (int)ulp_bin);)
                    ++ulp_bin;
            ++out->ulp_histogram[ulp_bin];
            out->position_max_fraction[position] = fmax(out->position_max_fraction[position], jm.tolerance_fraction);
            out->position_max_ulps[position] = fmax(out->position_max_ulps[position], jm.error_ulps);
            out->max_error_ulps = fmax(out->max_error_ulps, jm.error_ulps);
            out->max_tolerance_fraction = fmax(out->max_tolerance_fraction, jm.tolerance_fraction);
            unsigned bin = jm.verdict == DMLCONF_VERDICT_PASS
                               ? (jm.tolerance_fraction * 10.0 >= 9.0 ? 9u : (unsigned)(jm.tolerance_fraction * 10.0))
                               : DMLCONF_HISTOGRAM_BINS - 1u;
            ++out->histogram[bin];
            if (worse(&jm, index, out))
            {
                fill_mismatch(&out->worst, &desc->output, index, expected, got, &jm);
                out->has_worst = true;
            }
            if (jm.verdict == DMLCONF_VERDICT_FAIL)
            {
                ++out->mismatches;
                ++out->position_mismatches[position];
                /* Lines in order: the first line wins among equal positions. */
                if (!out->has_earliest || j < out->earliest_position)
                {
                    out->has_earliest = true;
                    out->earliest_position = j;
                    out->earliest_line = l;
                }
                failures[failure_count * 4 + 0] = index;
                failures[failure_count * 4 + 1] = expected;
                failures[failure_count * 4 + 2] = got;
                failures[failure_count * 4 + 3] = j;
                ++failure_count;
            }
        }
    }
    /* The first mismatches in logical order: a selection, once each. */
    for (uint32_t s = 0; s < DMLCONF_MISMATCH_SAMPLES && s < failure_count; ++s)
    {
        size_t best = SIZE_MAX;
        for (size_t f = 0; f < failure_count; ++f)
        {
            if (failures[f * 4] == UINT64_MAX)
                continue;
            if (best == SIZE_MAX || failures[f * 4] < failures[best * 4])
                best = f;
        }
        out->samples[s].logical_index = failures[best * 4];
        ++out->sample_count;
        failures[best * 4] = UINT64_MAX;
    }
    free(line);
    free(oracle);
    free(side);
    free(failures);
}

/* The fields both comparators fill the same way. The samples are compared
 * by index (the naive one keeps only their indices). */
static void expect_same(const dmlconf_comparison *a, const dmlconf_comparison *b, const char *what)
{
    ck_assert_msg(a->elements == b->elements, "%s: elements %" PRIu64 " vs %" PRIu64, what, a->elements, b->elements);
    ck_assert_msg(a->mismatches == b->mismatches, "%s: mismatches %" PRIu64 " vs %" PRIu64, what, a->mismatches,
                  b->mismatches);
    ck_assert_msg(a->unjudged == b->unjudged, "%s: unjudged", what);
    ck_assert_msg(a->unwritten == b->unwritten, "%s: unwritten", what);
    ck_assert_msg(a->canary_ambiguous == b->canary_ambiguous, "%s: canary", what);
    ck_assert_msg(a->max_error_ulps == b->max_error_ulps, "%s: max ulps %g vs %g", what, a->max_error_ulps,
                  b->max_error_ulps);
    ck_assert_msg(a->max_tolerance_fraction == b->max_tolerance_fraction, "%s: max fraction", what);
    ck_assert_msg(memcmp(a->histogram, b->histogram, sizeof(a->histogram)) == 0, "%s: histogram", what);
    ck_assert_msg(memcmp(a->ulp_histogram, b->ulp_histogram, sizeof(a->ulp_histogram)) == 0, "%s: ulp histogram", what);
    ck_assert_msg(memcmp(a->position_mismatches, b->position_mismatches, sizeof(a->position_mismatches)) == 0,
                  "%s: position mismatches", what);
    for (unsigned p = 0; p < DMLCONF_POSITION_BINS; ++p)
    {
        ck_assert_msg(a->position_max_fraction[p] == b->position_max_fraction[p], "%s: position fraction %u", what, p);
        ck_assert_msg(a->position_max_ulps[p] == b->position_max_ulps[p], "%s: position ulps %u", what, p);
    }
    ck_assert_msg(a->has_earliest == b->has_earliest, "%s: has earliest", what);
    if (a->has_earliest)
        ck_assert_msg(a->earliest_position == b->earliest_position && a->earliest_line == b->earliest_line,
                      "%s: earliest at position %" PRIu64 " of line %" PRIu64 " vs %" PRIu64 " of %" PRIu64, what,
                      a->earliest_position, a->earliest_line, b->earliest_position, b->earliest_line);
    ck_assert_msg(a->has_worst == b->has_worst, "%s: has worst", what);
    if (a->has_worst)
    {
        ck_assert_msg(a->worst.logical_index == b->worst.logical_index,
                      "%s: worst at %" PRIu64 " vs %" PRIu64 " (fractions %g, %g)", what, a->worst.logical_index,
                      b->worst.logical_index, a->worst.tolerance_fraction, b->worst.tolerance_fraction);
        ck_assert_msg(a->worst.expected_bits == b->worst.expected_bits && a->worst.actual_bits == b->worst.actual_bits,
                      "%s: worst bits", what);
        ck_assert_msg(a->worst.rule == b->worst.rule, "%s: worst rule %d vs %d", what, (int)a->worst.rule,
                      (int)b->worst.rule);
        ck_assert_msg(memcmp(a->worst.coordinates, b->worst.coordinates, sizeof(a->worst.coordinates)) == 0,
                      "%s: worst coordinates", what);
    }
    ck_assert_msg(a->sample_count == b->sample_count, "%s: %u samples vs %u", what, a->sample_count, b->sample_count);
    for (uint32_t s = 0; s < a->sample_count; ++s)
        ck_assert_msg(a->samples[s].logical_index == b->samples[s].logical_index, "%s: sample %u", what, s);
}

/* Every field, exactly: two results of dmlconf_compare_tensor. */
static void expect_identical(const dmlconf_comparison *a, const dmlconf_comparison *b, const char *what)
{
    expect_same(a, b, what);
    ck_assert_msg(a->has_first == (a->mismatches > 0) && b->has_first == a->has_first, "%s: first", what);
    for (uint32_t s = 0; s < a->sample_count; ++s)
        ck_assert_msg(memcmp(&a->samples[s], &b->samples[s], sizeof(a->samples[s])) == 0, "%s: sample %u", what, s);
    if (a->has_first)
        ck_assert_msg(memcmp(&a->first, &b->first, sizeof(a->first)) == 0, "%s: first", what);
}

/* ---- readers ----------------------------------------------------------------------- */

typedef struct packed_reader
{
    const unsigned char *data;
    size_t size;
    uint64_t fail_from;     /* UINT64_MAX: never */
    uint64_t elements_read; /* all calls together */
} packed_reader;

static int read_packed(void *context, uint64_t first, uint64_t count, void *out, char *why, size_t why_size)
{
    packed_reader *r = context;
    r->elements_read += count; /* several threads may count at once: only looked at on one */
    if (first + count > r->fail_from)
    {
        snprintf(why, why_size, "element %" PRIu64 " is not there", r->fail_from);
        return -1;
    }
    memcpy(out, r->data + first * r->size, count * r->size);
    return 0;
}

/* ---- random descs ------------------------------------------------------------------ */

typedef struct random_case
{
    dmlconf_scan_desc desc;
    dmlconf_tensor_desc input_layout; /* a strided buffer holding the same input */
    void *logical;
    void *strided_input;
    uint64_t strided_bytes;
    void *actual;
    uint64_t actual_bytes;
    void *expected; /* a case's expected values (the oracle's, some changed), or NULL */
    dmlconf_tolerance tol;
    bool has_tol;
} random_case;

static void random_strides(uint64_t *state, dmlconf_tensor_desc *desc, bool allow_broadcast)
{
    /* A random dimension order with padding, or packed. */
    if (below(state, 3) == 0)
        return;
    uint32_t order[DMLCONF_MAX_DIMENSIONS];
    for (uint32_t d = 0; d < desc->dimension_count; ++d)
        order[d] = d;
    for (uint32_t d = desc->dimension_count; d-- > 1;)
    {
        uint32_t e = (uint32_t)below(state, d + 1u);
        uint32_t swap = order[d];
        order[d] = order[e];
        order[e] = swap;
    }
    uint64_t stride = 1;
    desc->has_strides = true;
    for (uint32_t k = desc->dimension_count; k-- > 0;)
    {
        uint32_t d = order[k];
        desc->strides[d] = (uint32_t)stride;
        if (allow_broadcast && desc->sizes[d] > 1 && below(state, 6) == 0)
            desc->strides[d] = 0;
        stride *= desc->sizes[d] + below(state, 3);
    }
}

static void make_random_case(uint64_t *state, random_case *rc)
{
    static const dmlconf_data_type types[] = {DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_FLOAT16,
                                              DMLCONF_DATA_TYPE_INT32,   DMLCONF_DATA_TYPE_UINT32,
                                              DMLCONF_DATA_TYPE_INT64,   DMLCONF_DATA_TYPE_UINT64};
    memset(rc, 0, sizeof(*rc));
    dmlconf_scan_desc *desc = &rc->desc;
    dmlconf_data_type type = types[below(state, 6)];
    size_t size = type_size(type);
    desc->op = below(state, 2) ? SUM : PROD;
    desc->input.data_type = type;
    desc->input.dimension_count = 1u + (uint32_t)below(state, 4);
    for (uint32_t d = 0; d < desc->input.dimension_count; ++d)
        desc->input.sizes[d] = 1u + (uint32_t)below(state, d == 0 ? 40u : 7u);
    if (below(state, 4) == 0)
        desc->input.sizes[0] = 100u + (uint32_t)below(state, 3000); /* longer lines: several chunks of a tile */
    desc->axis = (uint32_t)below(state, desc->input.dimension_count);
    desc->direction = below(state, 2) ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING;
    desc->exclusive = below(state, 2) != 0;
    desc->output = desc->input;
    random_strides(state, &desc->output, false);
    rc->input_layout = desc->input;
    random_strides(state, &rc->input_layout, false);
    ck_assert(dmlconf_validate(desc, DMLCONF_FEATURE_LEVEL_6_4, NULL));

    uint64_t count = dmlconf_tensor_element_count(&desc->input);
    rc->logical = malloc(count * size + 4u); /* the oracle wants DirectML's rounded-up size */
    rc->strided_bytes = buffer_bytes(&rc->input_layout);
    rc->strided_input = calloc(1, rc->strided_bytes);
    rc->actual_bytes = buffer_bytes(&desc->output);
    rc->actual = calloc(1, rc->actual_bytes);
    ck_assert(rc->logical && rc->strided_input && rc->actual);
    for (uint64_t i = 0; i < count; ++i)
    {
        uint64_t bits = random_bits(state, type);
        store(rc->logical, size, i, bits);
        store(rc->strided_input, size, offset_of(&rc->input_layout, i), bits);
    }
    dmlconf_scan_desc packed = *desc;
    packed.input.has_strides = false;
    packed.input.total_size_bytes = 0;
    ck_assert(dmlconf_compute(&packed, rc->logical, count * size + 4u, rc->actual, rc->actual_bytes, NULL, NULL) == 0);
    /* Planted errors: a few elements off by a little or a lot, some never
     * written, at random places. */
    dmlconf_tolerance_default(type, &rc->tol);
    rc->has_tol = below(state, 2) != 0;
    if (rc->has_tol)
    {
        rc->tol.has_canary = true;
        rc->tol.canary_bits = size == 2 ? 0x7dffu : size == 4 ? 0x7fbfffffu : UINT64_C(0xa5a5a5a5a5a5a5a5);
        rc->tol.bit_exact = below(state, 4) == 0;
    }
    uint64_t planted = below(state, 12);
    for (uint64_t p = 0; p < planted; ++p)
    {
        uint64_t i = below(state, count);
        uint64_t offset = offset_of(&desc->output, i);
        uint64_t bits = load(rc->actual, size, offset);
        switch (below(state, 3))
        {
        case 0:
            bits ^= 1u;
            break;
        case 1:
            bits ^= UINT64_C(1) << (size * 8u - 2u);
            break;
        default:
            bits = rc->has_tol ? rc->tol.canary_bits : bits + 2u;
            break;
        }
        store(rc->actual, size, offset, bits);
    }
    if (below(state, 4) == 0)
    {
        /* The case's own expected values: the oracle's with a few changed. */
        rc->expected = malloc(count * size);
        ck_assert_ptr_nonnull(rc->expected);
        for (uint64_t i = 0; i < count; ++i)
            store(rc->expected, size, i, load(rc->actual, size, offset_of(&desc->output, i)));
        for (uint64_t p = below(state, 4); p-- > 0;)
        {
            uint64_t i = below(state, count);
            store(rc->expected, size, i, load(rc->expected, size, i) ^ 2u);
        }
    }
}

static void free_random_case(random_case *rc)
{
    free(rc->logical);
    free(rc->strided_input);
    free(rc->actual);
    free(rc->expected);
}

START_TEST(test_against_naive)
{
    uint64_t state = UINT64_C(0x51ab1e) + (uint64_t)_i * 7919u;
    for (int round = 0; round < 40; ++round)
    {
        random_case rc;
        make_random_case(&state, &rc);
        const dmlconf_tolerance *tol = rc.has_tol ? &rc.tol : NULL;
        size_t size = type_size(rc.desc.input.data_type);
        uint64_t count = dmlconf_tensor_element_count(&rc.desc.input);
        dmlconf_comparison naive, got, first;
        naive_compare(&rc.desc, rc.logical, rc.expected, rc.actual, tol, &naive);

        packed_reader input_reader = {rc.logical, size, UINT64_MAX, 0};
        packed_reader expected_reader = {rc.expected, size, UINT64_MAX, 0};
        for (int source = 0; source < 3; ++source)
        {
            for (unsigned threads = 1; threads <= 7; threads += 3)
            {
                dmlconf_compare_job job;
                memset(&job, 0, sizeof(job));
                job.desc = &rc.desc;
                if (source == 0)
                {
                    job.input.buffer = rc.logical;
                    job.input.bytes = count * size;
                }
                else if (source == 1)
                {
                    job.input.buffer = rc.strided_input;
                    job.input.bytes = rc.strided_bytes;
                    job.input.layout = &rc.input_layout;
                }
                else
                {
                    job.input.read = read_packed;
                    job.input.context = &input_reader;
                }
                if (rc.expected && source == 2)
                {
                    job.expected.read = read_packed;
                    job.expected.context = &expected_reader;
                }
                else if (rc.expected)
                {
                    job.expected.buffer = rc.expected;
                    job.expected.bytes = count * size;
                }
                job.actual = rc.actual;
                job.actual_bytes = rc.actual_bytes;
                job.tol = tol;
                job.threads = threads;
                dmlconf_error err;
                ck_assert_msg(dmlconf_compare_tensor(&job, &got, &err) == 0, "%s", err.message);
                char what[160];
                snprintf(what, sizeof(what), "round %d (%s %s, %u-D, axis %u), source %d, %u threads", round,
                         dmlconf_operator_name(rc.desc.op), dmlconf_data_type_name(rc.desc.input.data_type),
                         rc.desc.input.dimension_count, rc.desc.axis, source, threads);
                expect_same(&naive, &got, what);
                if (source == 0 && threads == 1)
                    first = got;
                else
                    expect_identical(&first, &got, what);
            }
        }
        /* dmlconf_compare is the same comparison. */
        dmlconf_comparison legacy;
        ck_assert_int_eq(
            dmlconf_compare(&rc.desc, rc.logical, rc.expected, rc.actual, rc.actual_bytes, tol, &legacy, NULL), 0);
        expect_identical(&first, &legacy, "dmlconf_compare");
        free_random_case(&rc);
    }
}
END_TEST

/* Contiguous lines judged bit for bit, where runs of equal elements are
 * checked many at once: one wrong or unwritten (canary) element at every
 * place of a run (its first, second and last element, in the first, a
 * middle and the last run, and in the short tail), increasing and
 * decreasing, 16-, 32- and 64-bit elements: the naive comparator's
 * results, the worst element (the smallest index of a run of equal ones)
 * included. */
START_TEST(test_equal_runs)
{
    static const dmlconf_data_type types[] = {DMLCONF_DATA_TYPE_FLOAT16, DMLCONF_DATA_TYPE_FLOAT32,
                                              DMLCONF_DATA_TYPE_INT32, DMLCONF_DATA_TYPE_UINT64};
    /* Five runs, then with a tail of 17. */
    static const uint32_t lengths[] = {64 * 5, 64 * 5 + 17};
    static const uint32_t places[] = {0, 1, 63, 64, 65, 127, 128, 191, 255, 256, 319, 320, 321, 336};
    dmlconf_data_type type = types[_i % 4];
    size_t size = type_size(type);
    uint64_t state = 77 + (uint64_t)_i;
    dmlconf_tolerance tol;
    dmlconf_tolerance_default(type, &tol);
    tol.bit_exact = true;
    tol.has_canary = true;
    tol.canary_bits = size == 2 ? 0x7dffu : size == 4 ? 0x7fbfffffu : UINT64_C(0xa5a5a5a5a5a5a5a5);
    for (size_t shape = 0; shape < 2; ++shape)
    {
        uint32_t n = lengths[shape];
        dmlconf_scan_desc desc;
        memset(&desc, 0, sizeof(desc));
        desc.op = SUM;
        desc.input.data_type = type;
        desc.input.dimension_count = 2;
        desc.input.sizes[0] = 2;
        desc.input.sizes[1] = n;
        desc.axis = 1;
        desc.output = desc.input;
        size_t bytes = 2u * n * size + 4u;
        unsigned char *input = malloc(bytes), *actual = malloc(bytes);
        ck_assert(input && actual);
        /* Finite sums: floats of magnitude 1 to 2, either sign. */
        for (uint64_t i = 0; i < 2u * n; ++i)
        {
            uint64_t r = next_random(&state);
            store(input, size, i,
                  type == DMLCONF_DATA_TYPE_FLOAT16   ? (r & 0x83ffu) | 0x3c00u
                  : type == DMLCONF_DATA_TYPE_FLOAT32 ? (r & 0x807fffffu) | 0x3f800000u
                                                      : r);
        }
        for (int decreasing = 0; decreasing < 2; ++decreasing)
        {
            desc.direction = decreasing ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING;
            for (size_t p = 0; p < sizeof(places) / sizeof(places[0]) && places[p] < n; ++p)
            {
                for (int kind = 0; kind < 3; ++kind)
                {
                    ck_assert(dmlconf_compute(&desc, input, bytes, actual, bytes, NULL, NULL) == 0);
                    /* In the second line; kind 2: nothing wrong. */
                    uint64_t i = n + places[p];
                    if (kind == 0)
                        store(actual, size, i, load(actual, size, i) ^ 1u);
                    else if (kind == 1)
                        store(actual, size, i, tol.canary_bits);
                    dmlconf_comparison naive, got;
                    naive_compare(&desc, input, NULL, actual, &tol, &naive);
                    dmlconf_compare_job job;
                    memset(&job, 0, sizeof(job));
                    job.desc = &desc;
                    job.input.buffer = input;
                    job.input.bytes = bytes;
                    job.actual = actual;
                    job.actual_bytes = bytes;
                    job.tol = &tol;
                    job.threads = 1;
                    dmlconf_error err;
                    ck_assert_msg(dmlconf_compare_tensor(&job, &got, &err) == 0, "%s", err.message);
                    char what[128];
                    snprintf(what, sizeof(what), "%s, %u long, %s, place %u, kind %d", dmlconf_data_type_name(type), n,
                             decreasing ? "decreasing" : "increasing", places[p], kind);
                    expect_same(&naive, &got, what);
                    ck_assert_msg(got.mismatches == (kind == 2 ? 0u : 1u), "%s: %" PRIu64 " mismatches", what,
                                  got.mismatches);
                }
            }
        }
        free(input);
        free(actual);
    }
}
END_TEST

/* Long lines (the pipeline, with its rounds and judging parts), mismatches
 * planted in many chunks, float32 sums with side data and int64 products
 * without; 1-D and three long lines side by side, both directions. */
START_TEST(test_pipeline_long_lines)
{
    static const uint32_t shapes[][2] = {{1u << 20, 1}, {300001, 3}};
    uint64_t state = 99;
    for (int variant = 0; variant < 4; ++variant)
    {
        bool floats = variant % 2 == 0;
        dmlconf_scan_desc desc;
        memset(&desc, 0, sizeof(desc));
        desc.op = floats ? SUM : PROD;
        desc.input.data_type = floats ? DMLCONF_DATA_TYPE_FLOAT32 : DMLCONF_DATA_TYPE_INT64;
        desc.input.dimension_count = 2;
        desc.input.sizes[0] = shapes[variant / 2][0];
        desc.input.sizes[1] = shapes[variant / 2][1];
        desc.output = desc.input;
        desc.axis = 0;
        desc.direction =
            variant == 1 || variant == 2 ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING;
        desc.exclusive = variant == 3;
        size_t size = type_size(desc.input.data_type);
        uint64_t count = dmlconf_tensor_element_count(&desc.input);
        void *input = malloc(count * size), *actual = malloc(count * size);
        ck_assert(input && actual);
        for (uint64_t i = 0; i < count; ++i)
        {
            uint64_t bits =
                floats ? random_bits(&state, desc.input.data_type) & ~UINT64_C(0x7f800000) : next_random(&state) | 1u;
            if (floats)
                bits |= UINT64_C(0x3c000000); /* finite, near 1 */
            store(input, size, i, bits);
        }
        ck_assert(dmlconf_compute(&desc, input, count * size, actual, count * size, NULL, NULL) == 0);
        for (int p = 0; p < 40; ++p)
        {
            uint64_t i = below(&state, count);
            /* Far off: a high bit of the magnitude. */
            store(actual, size, i, load(actual, size, i) ^ (UINT64_C(1) << (size * 8u - 2u - (unsigned)(p % 3))));
        }
        dmlconf_comparison one, many;
        dmlconf_compare_job job;
        memset(&job, 0, sizeof(job));
        job.desc = &desc;
        job.input.buffer = input;
        job.input.bytes = count * size;
        job.actual = actual;
        job.actual_bytes = count * size;
        job.threads = 1;
        dmlconf_error err;
        ck_assert_msg(dmlconf_compare_tensor(&job, &one, &err) == 0, "%s", err.message);
        ck_assert_uint_eq(one.elements, count);
        ck_assert_uint_ge(one.mismatches, 1);
        for (unsigned threads = 2; threads <= 9; threads += 7)
        {
            job.threads = threads;
            ck_assert_msg(dmlconf_compare_tensor(&job, &many, &err) == 0, "%s", err.message);
            char what[64];
            snprintf(what, sizeof(what), "variant %d, %u threads", variant, threads);
            expect_identical(&one, &many, what);
        }
        free(input);
        free(actual);
    }
}
END_TEST

/* A decreasing line whose exact sum lands on float32 midpoints, while the
 * oracle's double-word sum is inexact, only now and then, far apart: the
 * oracle's exact fallback then absorbs everything since the last one, from
 * earlier chunks, through the line's history: read from a strided buffer
 * and from a reader (counted), on one thread and in the pipeline. */
START_TEST(test_fallback_reads_history)
{
    enum
    {
        N = 300000
    };
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = SUM;
    desc.input.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    desc.input.dimension_count = 1;
    desc.input.sizes[0] = N;
    desc.output = desc.input;
    desc.direction = DMLCONF_AXIS_DIRECTION_DECREASING;
    dmlconf_tensor_desc layout = desc.input;
    layout.has_strides = true;
    layout.strides[0] = 3;
    float *logical = malloc(N * sizeof(float)), *strided = calloc(3u * N, sizeof(float));
    float *actual = malloc(N * sizeof(float));
    ck_assert(logical && strided && actual);
    /* In scan order (from the end): 2^80, 2^-60, 1, -2^80, -2^-60 leave the
     * sum at 1 with 2^-60 lost in the double-word sum's remainder, so its
     * state is inexact; pairs v, -v (1 + v a float32) keep the sum at 1;
     * 2^-24, -2^-24 put it on the midpoint 1 + 2^-24 and back (the first
     * time, after the first chunk of one thread's walk). The exact fallback
     * makes the state exact again, so a second opener (with -1 after it)
     * comes before the second midpoint (in the pipeline's second chunk). */
    uint64_t state = 5;
    static const float opener[6] = {0x1p80f, 0x1p-60f, 1.0f, -0x1p80f, -0x1p-60f, -1.0f};
    bool negate = false;
    for (size_t j = 0; j < N; ++j)
    {
        float value;
        if (j < 5)
            value = opener[j];
        else if (j >= 270001 && j < 270007)
            value = opener[j - 270001];
        else if (j == 199995 || j == 290001)
            value = 0x1p-24f;
        else if (j == 199996 || j == 290002)
            value = -0x1p-24f;
        else
        {
            value = negate ? -logical[N - j] /* the previous scan position's negation */
                           : 0.5f + (float)(next_random(&state) >> 43) * 0x1p-22f;
            negate = !negate;
        }
        if (j == 199995 || j == 270001 || j == 290001)
            ck_assert(!negate); /* no pair is cut */
        logical[N - 1 - j] = value;
        strided[3 * (N - 1 - j)] = value;
    }
    ck_assert(dmlconf_compute(&desc, logical, N * sizeof(float), actual, N * sizeof(float), NULL, NULL) == 0);
    actual[5] = NAN;
    dmlconf_comparison packed, got;
    ck_assert_int_eq(dmlconf_compare(&desc, logical, NULL, actual, N * sizeof(float), NULL, &packed, NULL), 0);
    ck_assert_uint_eq(packed.mismatches, 1);
    for (unsigned threads = 1; threads <= 3; threads += 2)
    {
        dmlconf_compare_job job;
        memset(&job, 0, sizeof(job));
        job.desc = &desc;
        job.input.buffer = strided;
        job.input.bytes = 3u * N * sizeof(float);
        job.input.layout = &layout;
        job.actual = actual;
        job.actual_bytes = N * sizeof(float);
        job.threads = threads;
        ck_assert_int_eq(dmlconf_compare_tensor(&job, &got, NULL), 0);
        expect_identical(&packed, &got, threads == 1 ? "strided, one thread" : "strided, pipeline");
        packed_reader reader = {(const unsigned char *)logical, sizeof(float), UINT64_MAX, 0};
        memset(&job.input, 0, sizeof(job.input));
        job.input.read = read_packed;
        job.input.context = &reader;
        ck_assert_int_eq(dmlconf_compare_tensor(&job, &got, NULL), 0);
        expect_identical(&packed, &got, threads == 1 ? "reader, one thread" : "reader, pipeline");
        /* The chunks read every element once; the history more. */
        ck_assert_msg(reader.elements_read > N + 1000u, "%" PRIu64 " elements read for %d (%u threads)",
                      reader.elements_read, N, threads);
    }
    free(logical);
    free(strided);
    free(actual);
}
END_TEST

/* float16 data judged with float16 accumulation: the bound is infinite
 * past 2049 terms, so the side walk settles early; the results must be the
 * naive comparator's (whose side data is complete), for sums and products,
 * inclusive and exclusive, on one thread and in the pipeline. */
START_TEST(test_settled_side_data)
{
    enum
    {
        N = 300000
    };
    uint64_t state = 11;
    for (int variant = 0; variant < 4; ++variant)
    {
        dmlconf_scan_desc desc;
        memset(&desc, 0, sizeof(desc));
        desc.op = variant < 2 ? SUM : PROD;
        desc.input.data_type = DMLCONF_DATA_TYPE_FLOAT16;
        desc.input.dimension_count = 1;
        desc.input.sizes[0] = variant % 2 ? 3000 : N;
        desc.output = desc.input;
        desc.exclusive = variant % 2 != 0;
        uint64_t count = desc.input.sizes[0];
        uint16_t *input = malloc(count * 2 + 4), *actual = malloc(count * 2 + 4);
        ck_assert(input && actual);
        for (uint64_t i = 0; i < count; ++i)
            input[i] = (uint16_t)random_bits(&state, DMLCONF_DATA_TYPE_FLOAT16);
        ck_assert(dmlconf_compute(&desc, input, count * 2 + 4, actual, count * 2 + 4, NULL, NULL) == 0);
        for (int p = 0; p < 20; ++p)
            actual[below(&state, count)] ^= (uint16_t)(1u << (p % 12));
        actual[count - 1] = 0x7e00; /* a NaN at the very end */
        dmlconf_tolerance tol;
        dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT16, &tol);
        tol.accumulation = DMLCONF_DATA_TYPE_FLOAT16;
        dmlconf_comparison naive, got;
        naive_compare(&desc, input, NULL, actual, &tol, &naive);
        ck_assert_uint_gt(naive.unjudged, 0);
        for (unsigned threads = 1; threads <= 3; threads += 2)
        {
            dmlconf_compare_job job;
            memset(&job, 0, sizeof(job));
            job.desc = &desc;
            job.input.buffer = input;
            job.input.bytes = count * 2;
            job.actual = actual;
            job.actual_bytes = count * 2 + 4;
            job.tol = &tol;
            job.threads = threads;
            ck_assert_int_eq(dmlconf_compare_tensor(&job, &got, NULL), 0);
            char what[64];
            snprintf(what, sizeof(what), "variant %d, %u threads", variant, threads);
            expect_same(&naive, &got, what);
        }
        free(input);
        free(actual);
    }
}
END_TEST

/* Lines long enough to be judged in segments (after the pipeline has
 * walked them to where their side data settles, or from the start when the
 * rule needs none): the same results on one thread and on 2, 3 and 8, with
 * mismatches in every segment, for every type, both operators, both
 * directions, inclusive and exclusive, with and without side data, and
 * with the case's own expected values (nothing summarised). A wrong carry
 * into a segment would change every element of it. */
START_TEST(test_segmented_long_lines)
{
    enum
    {
        N = (1 << 22) + 12345
    };
    static const struct
    {
        dmlconf_operator op;
        dmlconf_data_type type;
        bool exclusive, decreasing, half_accumulation, bit_exact, expected;
    } variants[] = {
        {SUM, DMLCONF_DATA_TYPE_INT32, false, false, false, false, false},
        {PROD, DMLCONF_DATA_TYPE_INT64, true, true, false, false, false},
        {SUM, DMLCONF_DATA_TYPE_FLOAT16, true, false, true, false, false},
        {PROD, DMLCONF_DATA_TYPE_FLOAT16, false, true, true, false, false},
        {SUM, DMLCONF_DATA_TYPE_FLOAT32, true, true, false, true, false},
        {PROD, DMLCONF_DATA_TYPE_FLOAT32, false, false, false, true, false},
        {SUM, DMLCONF_DATA_TYPE_FLOAT32, false, false, false, true, false},
        {SUM, DMLCONF_DATA_TYPE_FLOAT32, false, true, false, false, false},
        {SUM, DMLCONF_DATA_TYPE_UINT64, true, false, false, false, false},
        {PROD, DMLCONF_DATA_TYPE_UINT32, false, true, false, false, false},
        {SUM, DMLCONF_DATA_TYPE_FLOAT16, false, true, false, true, false},
        {SUM, DMLCONF_DATA_TYPE_FLOAT32, false, false, false, true, true},
        {SUM, DMLCONF_DATA_TYPE_FLOAT32, true, false, false, false, true},
    };
    uint64_t state = 21 + (uint64_t)_i;
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = variants[_i].op;
    desc.input.data_type = variants[_i].type;
    desc.input.dimension_count = 1;
    desc.input.sizes[0] = N;
    desc.output = desc.input;
    desc.exclusive = variants[_i].exclusive;
    desc.direction = variants[_i].decreasing ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING;
    size_t size = type_size(desc.input.data_type);
    void *input = malloc(N * size + 8), *actual = malloc(N * size + 8);
    ck_assert(input && actual);
    /* Data whose prefixes stay finite and not zero to the end, so that
     * every carry matters: integers (odd for products, which never become
     * 0), float sums of magnitude about 1 with random signs, float products
     * of +-1 with now and then a factor 1 +- 2^-7. The float16 lines
     * judged with float16 accumulation (whose bound is infinite past 2049
     * terms) take any values, specials included. */
    bool is_float =
        desc.input.data_type == DMLCONF_DATA_TYPE_FLOAT32 || desc.input.data_type == DMLCONF_DATA_TYPE_FLOAT16;
    bool half = desc.input.data_type == DMLCONF_DATA_TYPE_FLOAT16;
    for (uint64_t i = 0; i < N; ++i)
    {
        uint64_t r = next_random(&state);
        uint64_t bits = r >> (r % 16u);
        if (!is_float && desc.op == PROD)
            bits |= 1u;
        if (is_float && desc.op == SUM)
            bits = half ? (r & 0x83ffu) | ((13u + (r >> 20) % 5u) << 10)
                        : (r & 0x807fffffu) | ((124u + (uint32_t)((r >> 40) % 7u)) << 23);
        if (is_float && desc.op == PROD)
        {
            unsigned pick = (unsigned)((r >> 8) % 64u);
            bits = half ? (pick == 0   ? 0x3c08u
                           : pick == 1 ? 0x3bf0u
                                       : 0x3c00u) |
                              (r & 0x8000u)
                        : (pick == 0   ? 0x3f810000u
                           : pick == 1 ? 0x3f7e0000u
                                       : 0x3f800000u) |
                              (r & 0x80000000u);
        }
        if (variants[_i].half_accumulation)
            bits = random_bits(&state, desc.input.data_type);
        store(input, size, i, bits);
    }
    ck_assert(dmlconf_compute(&desc, input, N * size + 8, actual, N * size + 8, NULL, NULL) == 0);
    /* The case's own expected values: the oracle's, a few changed. */
    void *expected = NULL;
    if (variants[_i].expected)
    {
        expected = malloc(N * size);
        ck_assert_ptr_nonnull(expected);
        memcpy(expected, actual, N * size);
        for (int p = 0; p < 10; ++p)
            store(expected, size, below(&state, N), load(expected, size, below(&state, N)));
    }
    for (int p = 0; p < 30; ++p)
    {
        uint64_t i = below(&state, N);
        store(actual, size, i, load(actual, size, i) ^ (UINT64_C(1) << (size * 8u - 2u - (unsigned)(p % 3))));
    }
    dmlconf_tolerance tol;
    dmlconf_tolerance_default(desc.input.data_type, &tol);
    if (variants[_i].half_accumulation)
        tol.accumulation = DMLCONF_DATA_TYPE_FLOAT16;
    tol.bit_exact = variants[_i].bit_exact;
    dmlconf_comparison one, many;
    dmlconf_compare_job job;
    memset(&job, 0, sizeof(job));
    job.desc = &desc;
    job.input.buffer = input;
    job.input.bytes = N * size;
    job.expected.buffer = expected;
    job.expected.bytes = expected ? N * size : 0;
    job.actual = actual;
    job.actual_bytes = N * size + 8;
    job.tol = &tol;
    job.threads = 1;
    dmlconf_error err;
    ck_assert_msg(dmlconf_compare_tensor(&job, &one, &err) == 0, "%s", err.message);
    ck_assert_uint_eq(one.elements, N);
    ck_assert_uint_ge(one.mismatches, 1);
    static const unsigned thread_counts[] = {2, 3, 8};
    for (size_t k = 0; k < 3; ++k)
    {
        unsigned threads = thread_counts[k];
        job.threads = threads;
        ck_assert_msg(dmlconf_compare_tensor(&job, &many, &err) == 0, "%s", err.message);
        char what[64];
        snprintf(what, sizeof(what), "variant %d, %u threads", _i, threads);
        expect_identical(&one, &many, what);
    }
    free(input);
    free(actual);
    free(expected);
}
END_TEST

START_TEST(test_errors)
{
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8] = {1, 3, 6, 10, 15, 21, 28, 36};
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = SUM;
    desc.input.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    desc.input.dimension_count = 1;
    desc.input.sizes[0] = 8;
    desc.output = desc.input;
    dmlconf_compare_job job;
    memset(&job, 0, sizeof(job));
    job.desc = &desc;
    job.actual = y;
    job.actual_bytes = sizeof(y);
    dmlconf_comparison cmp;
    dmlconf_error err;

    ck_assert_int_eq(dmlconf_compare_tensor(&job, &cmp, &err), -1);
    ck_assert_msg(strstr(err.message, "neither a buffer nor a reader") != NULL, "%s", err.message);

    packed_reader failing = {(const unsigned char *)x, 4, 5, 0};
    job.input.read = read_packed;
    job.input.context = &failing;
    ck_assert_int_eq(dmlconf_compare_tensor(&job, &cmp, &err), -1);
    ck_assert_msg(strstr(err.message, "cannot read the input: element 5 is not there") != NULL, "%s", err.message);
    ck_assert_uint_eq(cmp.elements, 0);
    failing.fail_from = UINT64_MAX;
    ck_assert_int_eq(dmlconf_compare_tensor(&job, &cmp, &err), 0);
    ck_assert_uint_eq(cmp.elements, 8);
    ck_assert_uint_eq(cmp.mismatches, 0);
    packed_reader failing_expected = {(const unsigned char *)y, 4, 0, 0};
    job.expected.read = read_packed;
    job.expected.context = &failing_expected;
    ck_assert_int_eq(dmlconf_compare_tensor(&job, &cmp, &err), -1);
    ck_assert_msg(strstr(err.message, "cannot read the expected values") != NULL, "%s", err.message);
    memset(&job.expected, 0, sizeof(job.expected));

    job.input.read = NULL;
    job.input.buffer = x;
    job.input.bytes = sizeof(x) - 4;
    ck_assert_int_eq(dmlconf_compare_tensor(&job, &cmp, &err), -1);
    ck_assert_msg(strstr(err.message, "the input buffer holds 28 bytes; its layout needs 32") != NULL, "%s",
                  err.message);
    job.input.bytes = sizeof(x);
    dmlconf_tensor_desc other = desc.input;
    other.sizes[0] = 4;
    job.input.layout = &other;
    ck_assert_int_eq(dmlconf_compare_tensor(&job, &cmp, &err), -1);
    ck_assert_msg(strstr(err.message, "other sizes") != NULL, "%s", err.message);
    job.input.layout = NULL;
    ck_assert_int_eq(dmlconf_compare_tensor(NULL, &cmp, &err), -1);
    ck_assert_int_eq(dmlconf_compare_tensor(&job, NULL, &err), -1);
    ck_assert_int_eq(dmlconf_compare_tensor(&job, &cmp, NULL), 0);
}
END_TEST

static Suite *compare_tensor_suite(void)
{
    Suite *suite = suite_create("compare_tensor");
    TCase *tc = tcase_create("naive");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_against_naive, 0, 8);
    tcase_add_loop_test(tc, test_equal_runs, 0, 4);
    suite_add_tcase(suite, tc);
    tc = tcase_create("long lines");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_pipeline_long_lines);
    tcase_add_test(tc, test_fallback_reads_history);
    tcase_add_test(tc, test_settled_side_data);
    tcase_add_loop_test(tc, test_segmented_long_lines, 0, 13);
    suite_add_tcase(suite, tc);
    tc = tcase_create("errors");
    tcase_add_test(tc, test_errors);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(compare_tensor_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
