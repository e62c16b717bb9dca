/*
 * Failures grouped for people: by operator, data type, mode (inclusive or
 * exclusive, increasing or decreasing) and cause, the most severe cause
 * first. A cause is read from what the run recorded: the status, whether
 * the case is negative, and the worst mismatching element's bits.
 */
#include "report_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const cause_texts[DMLCONF_CAUSE_COUNT] = {
    [DMLCONF_CAUSE_CRASH] = "crashed",
    [DMLCONF_CAUSE_TIMEOUT] = "timed out",
    [DMLCONF_CAUSE_ERROR] = "errored",
    [DMLCONF_CAUSE_UNWRITTEN] = "output left unwritten",
    [DMLCONF_CAUSE_NAN_INF] = "NaN or infinity mismatch",
    [DMLCONF_CAUSE_REFUSED_VALID] = "refused a valid desc",
    [DMLCONF_CAUSE_WRONG_REJECTION] = "wrong outcome for an invalid desc",
    [DMLCONF_CAUSE_WRONG_INTEGER] = "integer results not exact",
    [DMLCONF_CAUSE_OUTSIDE_BOUND] = "outside the error bound",
    [DMLCONF_CAUSE_SIGNED_ZERO] = "zero of the wrong sign",
    [DMLCONF_CAUSE_UNEXPECTED_PASS] = "passed against the baseline",
    [DMLCONF_CAUSE_OTHER] = "failed",
};

static const char *const cause_tokens[DMLCONF_CAUSE_COUNT] = {
    [DMLCONF_CAUSE_CRASH] = "crash",
    [DMLCONF_CAUSE_TIMEOUT] = "timeout",
    [DMLCONF_CAUSE_ERROR] = "error",
    [DMLCONF_CAUSE_UNWRITTEN] = "unwritten-output",
    [DMLCONF_CAUSE_NAN_INF] = "nan-or-inf",
    [DMLCONF_CAUSE_REFUSED_VALID] = "refused-valid-desc",
    [DMLCONF_CAUSE_WRONG_REJECTION] = "wrong-rejection",
    [DMLCONF_CAUSE_WRONG_INTEGER] = "wrong-integer",
    [DMLCONF_CAUSE_OUTSIDE_BOUND] = "outside-bound",
    [DMLCONF_CAUSE_SIGNED_ZERO] = "signed-zero",
    [DMLCONF_CAUSE_UNEXPECTED_PASS] = "unexpected-pass",
    [DMLCONF_CAUSE_OTHER] = "other",
};

const char *dmlconf_failure_cause_text(dmlconf_failure_cause cause)
{
    return (unsigned)cause < DMLCONF_CAUSE_COUNT ? cause_texts[cause] : "failed";
}

const char *dmlconf_failure_cause_token(dmlconf_failure_cause cause)
{
    return (unsigned)cause < DMLCONF_CAUSE_COUNT ? cause_tokens[cause] : "other";
}

/* ---- reading a float's bits ------------------------------------------------- */

/* The fields of a float format: exponent and mantissa masks, its width. */
typedef struct float_format
{
    unsigned width;
    uint64_t exponent;
    uint64_t mantissa;
} float_format;

static bool float_format_of(dmlconf_data_type type, float_format *format)
{
    switch (type)
    {
    case DMLCONF_DATA_TYPE_FLOAT16:
        *format = (float_format){16, UINT64_C(0x7c00), UINT64_C(0x3ff)};
        return true;
    case DMLCONF_DATA_TYPE_FLOAT32:
        *format = (float_format){32, UINT64_C(0x7f800000), UINT64_C(0x7fffff)};
        return true;
    case DMLCONF_DATA_TYPE_FLOAT64:
        *format = (float_format){64, UINT64_C(0x7ff0000000000000), UINT64_C(0xfffffffffffff)};
        return true;
    default:
        return false;
    }
}

static uint64_t all_ones(unsigned width)
{
    return width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

static bool is_nan_bits(const float_format *f, uint64_t bits)
{
    return (bits & f->exponent) == f->exponent && (bits & f->mantissa) != 0;
}

static bool is_inf_bits(const float_format *f, uint64_t bits)
{
    return (bits & f->exponent) == f->exponent && (bits & f->mantissa) == 0;
}

static bool is_zero_bits(const float_format *f, uint64_t bits)
{
    return (bits & (f->exponent | f->mantissa)) == 0;
}

/* The cause of a failing comparison, from its worst mismatch. */
static dmlconf_failure_cause mismatch_cause(dmlconf_data_type type, const dmlconf_mismatch *m)
{
    float_format f;
    uint64_t expected, actual;

    if (!float_format_of(type, &f))
        return DMLCONF_CAUSE_WRONG_INTEGER;
    expected = m->expected_bits & all_ones(f.width);
    actual = m->actual_bits & all_ones(f.width);
    /* The runner fills outputs with 0xff bytes before the backend runs: a
     * float of all ones is a NaN no arithmetic is expected to produce. */
    if (actual == all_ones(f.width) && expected != actual)
        return DMLCONF_CAUSE_UNWRITTEN;
    if (is_nan_bits(&f, expected) != is_nan_bits(&f, actual) ||
        ((is_inf_bits(&f, expected) || is_inf_bits(&f, actual)) && expected != actual))
        return DMLCONF_CAUSE_NAN_INF;
    if (is_zero_bits(&f, expected) && is_zero_bits(&f, actual))
        return DMLCONF_CAUSE_SIGNED_ZERO;
    return DMLCONF_CAUSE_OUTSIDE_BOUND;
}

dmlconf_failure_cause dmlconf_failure_cause_of(const dmlconf_case_result *result)
{
    const dmlconf_comparison *comparison = &result->comparison;

    switch (result->status)
    {
    case DMLCONF_STATUS_CRASH:
        return DMLCONF_CAUSE_CRASH;
    case DMLCONF_STATUS_TIMEOUT:
        return DMLCONF_CAUSE_TIMEOUT;
    case DMLCONF_STATUS_ERROR:
        return DMLCONF_CAUSE_ERROR;
    case DMLCONF_STATUS_UNEXPECTED_PASS:
        return DMLCONF_CAUSE_UNEXPECTED_PASS;
    case DMLCONF_STATUS_FAIL:
        break;
    default:
        return DMLCONF_CAUSE_OTHER;
    }
    if (result->negative)
        return DMLCONF_CAUSE_WRONG_REJECTION;
    if (comparison->mismatches > 0 && comparison->has_worst)
        return mismatch_cause(result->data_type, &comparison->worst);
    if (comparison->mismatches > 0 && comparison->has_first)
        return mismatch_cause(result->data_type, &comparison->first);
    /* A positive case that failed without a comparison was refused. */
    return comparison->elements == 0 ? DMLCONF_CAUSE_REFUSED_VALID : DMLCONF_CAUSE_OTHER;
}

/* ---- grouping ----------------------------------------------------------------- */

typedef struct member
{
    const dmlconf_case_result *result;
    size_t index;
    dmlconf_failure_cause cause;
} member;

/* Larger is worse; NaN (a value read back from a damaged file) counts as
 * the least bad. */
static int compare_badness(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) == isnan(b) ? 0 : isnan(a) ? 1 : -1;
    return a > b ? -1 : a < b ? 1 : 0;
}

static int compare_keys(const member *x, const member *y)
{
    const dmlconf_case_result *a = x->result;
    const dmlconf_case_result *b = y->result;

    if (x->cause != y->cause)
        return x->cause < y->cause ? -1 : 1;
    if (a->op != b->op)
        return (unsigned)a->op < (unsigned)b->op ? -1 : 1;
    if (a->data_type != b->data_type)
        return (unsigned)a->data_type < (unsigned)b->data_type ? -1 : 1;
    if (a->exclusive != b->exclusive)
        return a->exclusive ? 1 : -1;
    if (a->decreasing != b->decreasing)
        return a->decreasing ? 1 : -1;
    return 0;
}

/* Group key, then the worst case first, then by id. */
static int compare_members(const void *p, const void *q)
{
    const member *x = p;
    const member *y = q;
    int order = compare_keys(x, y);

    if (order != 0)
        return order;
    order = compare_badness(x->result->comparison.max_tolerance_fraction, y->result->comparison.max_tolerance_fraction);
    if (order != 0)
        return order;
    if (x->result->comparison.mismatches != y->result->comparison.mismatches)
        return x->result->comparison.mismatches > y->result->comparison.mismatches ? -1 : 1;
    order = strncmp(x->result->id, y->result->id, sizeof(x->result->id));
    if (order != 0)
        return order;
    return x->index < y->index ? -1 : x->index > y->index ? 1 : 0;
}

/* The most severe cause first, then more cases, then the key's order. */
static int compare_groups(const void *p, const void *q)
{
    const dmlconf_failure_group *a = p;
    const dmlconf_failure_group *b = q;

    if (a->cause != b->cause)
        return a->cause < b->cause ? -1 : 1;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return a->members[0] < b->members[0] ? -1 : a->members[0] > b->members[0] ? 1 : 0;
}

static void absorb(dmlconf_failure_group *group, const dmlconf_case_result *result)
{
    const dmlconf_comparison *c = &result->comparison;

    group->mismatches += c->mismatches;
    group->elements += c->elements;
    if (c->max_error_ulps > group->max_error_ulps)
        group->max_error_ulps = c->max_error_ulps;
    if (c->max_tolerance_fraction > group->max_tolerance_fraction)
        group->max_tolerance_fraction = c->max_tolerance_fraction;
    for (size_t i = 0; i < DMLCONF_ULP_BINS; ++i)
        group->ulp_histogram[i] += c->ulp_histogram[i];
    for (size_t i = 0; i < DMLCONF_POSITION_BINS; ++i)
    {
        group->position_mismatches[i] += c->position_mismatches[i];
        if (c->position_max_fraction[i] > group->position_max_fraction[i])
            group->position_max_fraction[i] = c->position_max_fraction[i];
    }
}

int dmlconf_failure_groups_build(const dmlconf_case_result *results, size_t count, dmlconf_failure_groups *out)
{
    member *members = NULL;
    size_t failing = 0;
    size_t group_count = 0;

    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < count; ++i)
        failing += dmlconf_result_is_failing(&results[i]);
    if (failing == 0)
        return 0;
    members = malloc(failing * sizeof(*members));
    out->storage = malloc(failing * sizeof(*out->storage));
    if (!members || !out->storage)
        goto oom;
    failing = 0;
    for (size_t i = 0; i < count; ++i)
    {
        if (!dmlconf_result_is_failing(&results[i]))
            continue;
        members[failing].result = &results[i];
        members[failing].index = i;
        members[failing].cause = dmlconf_failure_cause_of(&results[i]);
        ++failing;
    }
    qsort(members, failing, sizeof(*members), compare_members);
    for (size_t i = 0; i < failing; ++i)
    {
        out->storage[i] = members[i].index;
        group_count += i == 0 || compare_keys(&members[i - 1], &members[i]) != 0;
    }
    out->items = calloc(group_count, sizeof(*out->items));
    if (!out->items)
        goto oom;
    for (size_t i = 0; i < failing; ++i)
    {
        dmlconf_failure_group *group;
        if (i == 0 || compare_keys(&members[i - 1], &members[i]) != 0)
        {
            group = &out->items[out->count++];
            group->cause = members[i].cause;
            group->op = members[i].result->op;
            group->data_type = members[i].result->data_type;
            group->exclusive = members[i].result->exclusive;
            group->decreasing = members[i].result->decreasing;
            group->members = &out->storage[i];
        }
        group = &out->items[out->count - 1];
        ++group->count;
        absorb(group, members[i].result);
    }
    qsort(out->items, out->count, sizeof(*out->items), compare_groups);
    out->failing = failing;
    free(members);
    return 0;
oom:
    free(members);
    dmlconf_failure_groups_free(out);
    return -1;
}

void dmlconf_failure_groups_free(dmlconf_failure_groups *groups)
{
    if (!groups)
        return;
    free(groups->items);
    free(groups->storage);
    memset(groups, 0, sizeof(*groups));
}
