/*
 * Failures grouped by cause, for people: a vendor reads the first groups,
 * so they must be the causes, not the places a cause shows in. A case's
 * cause is what went wrong (its failure kind, its status) and, for wrong
 * values, what the wrong output looks like as a whole: the pattern the
 * diagnosis found (judging's dmlconf_diagnose: an element left out of every
 * scan, the other mode, the other direction, float16 accumulation, only the
 * first element...). One planted bug is then one group, whatever
 * operators, data types, ranks, modes and directions it breaks; the group
 * says which. Values with no pattern fall back on what their worst element
 * shows (NaN or infinity, a wrong sign of zero, integers not exact, floats
 * outside the bound).
 *
 * Groups come largest first (the cause that explains the most cases), then
 * the most severe cause; each names its shortest reproducer: its smallest
 * failing case (fewest elements, then fewest dimensions, then by id), with
 * the minimal reproducer the run wrote for it when there is one.
 */
#include "report_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const cause_texts[DMLCONF_CAUSE_COUNT] = {
    [DMLCONF_CAUSE_CRASH] = "crashed",
    [DMLCONF_CAUSE_TIMEOUT] = "timed out",
    [DMLCONF_CAUSE_ERROR] = "errored",
    [DMLCONF_CAUSE_PAST_END] = "wrote past the end of the output",
    [DMLCONF_CAUSE_UNWRITTEN] = "output left unwritten",
    [DMLCONF_CAUSE_PATTERN] = "wrong values with a pattern",
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
    [DMLCONF_CAUSE_PAST_END] = "past-end",
    [DMLCONF_CAUSE_UNWRITTEN] = "unwritten-output",
    [DMLCONF_CAUSE_PATTERN] = "pattern",
    [DMLCONF_CAUSE_NAN_INF] = "nan-or-inf",
    [DMLCONF_CAUSE_REFUSED_VALID] = "refused-valid-desc",
    [DMLCONF_CAUSE_WRONG_REJECTION] = "wrong-rejection",
    [DMLCONF_CAUSE_WRONG_INTEGER] = "wrong-integer",
    [DMLCONF_CAUSE_OUTSIDE_BOUND] = "outside-bound",
    [DMLCONF_CAUSE_SIGNED_ZERO] = "signed-zero",
    [DMLCONF_CAUSE_UNEXPECTED_PASS] = "unexpected-pass",
    [DMLCONF_CAUSE_OTHER] = "other",
};

const char *report_failure_cause_text(report_failure_cause cause)
{
    return (unsigned)cause < DMLCONF_CAUSE_COUNT ? cause_texts[cause] : "failed";
}

const char *report_failure_cause_token(report_failure_cause cause)
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

/* The cause of wrong values with no pattern, from the worst mismatch. */
static report_failure_cause mismatch_cause(dmlconf_data_type type, const dmlconf_mismatch *m)
{
    float_format f;
    uint64_t expected, actual;

    if (m->rule == DMLCONF_RULE_UNWRITTEN)
        return DMLCONF_CAUSE_UNWRITTEN;
    if (!float_format_of(type, &f))
        return DMLCONF_CAUSE_WRONG_INTEGER;
    expected = m->expected_bits & all_ones(f.width);
    actual = m->actual_bits & all_ones(f.width);
    /* Results of a dmlconf older than the canary's rule: the runner filled
     * outputs with 0xff bytes, a NaN no arithmetic is expected to make. */
    if (m->rule == DMLCONF_RULE_UNKNOWN && actual == all_ones(f.width) && expected != actual)
        return DMLCONF_CAUSE_UNWRITTEN;
    if (is_nan_bits(&f, expected) != is_nan_bits(&f, actual) ||
        ((is_inf_bits(&f, expected) || is_inf_bits(&f, actual)) && expected != actual))
        return DMLCONF_CAUSE_NAN_INF;
    if (is_zero_bits(&f, expected) && is_zero_bits(&f, actual))
        return DMLCONF_CAUSE_SIGNED_ZERO;
    return DMLCONF_CAUSE_OUTSIDE_BOUND;
}

report_failure_cause report_failure_cause_of(const dmlconf_case_result *result)
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
    switch (result->failure)
    {
    case DMLCONF_FAILURE_PAST_END:
        return DMLCONF_CAUSE_PAST_END;
    case DMLCONF_FAILURE_UNWRITTEN:
        return DMLCONF_CAUSE_UNWRITTEN;
    case DMLCONF_FAILURE_REFUSED_VALID:
        return DMLCONF_CAUSE_REFUSED_VALID;
    case DMLCONF_FAILURE_ACCEPTED_INVALID:
    case DMLCONF_FAILURE_WRONG_REASON:
        return DMLCONF_CAUSE_WRONG_REJECTION;
    case DMLCONF_FAILURE_VALUES:
        if (comparison->pattern != DMLCONF_PATTERN_NONE && (unsigned)comparison->pattern < DMLCONF_PATTERN_COUNT)
            return DMLCONF_CAUSE_PATTERN;
        break;
    default:
        /* Results of a dmlconf that did not record the kind: read it from
         * the case and its comparison. */
        if (result->negative)
            return DMLCONF_CAUSE_WRONG_REJECTION;
        break;
    }
    if (comparison->mismatches > 0 && comparison->has_worst)
        return mismatch_cause(result->data_type, &comparison->worst);
    if (comparison->mismatches > 0 && comparison->has_first)
        return mismatch_cause(result->data_type, &comparison->first);
    /* A positive case that failed without a comparison was refused. */
    return comparison->elements == 0 ? DMLCONF_CAUSE_REFUSED_VALID : DMLCONF_CAUSE_OTHER;
}

/* ---- grouping ----------------------------------------------------------------- */

/* A failing case and what it is grouped by. */
typedef struct member
{
    const dmlconf_case_result *result;
    size_t index;
    report_failure_cause cause;
    dmlconf_pattern pattern; /* PATTERN and UNWRITTEN causes only; NONE otherwise */
    uint64_t position;       /* the pattern's position, where it has one */
} member;

static bool pattern_has_position(dmlconf_pattern pattern)
{
    return pattern == DMLCONF_PATTERN_ELEMENT_LEFT_OUT || pattern == DMLCONF_PATTERN_FROM_POSITION;
}

static member member_of(const dmlconf_case_result *result, size_t index)
{
    member m = {result, index, report_failure_cause_of(result), DMLCONF_PATTERN_NONE, 0};
    dmlconf_pattern pattern = result->comparison.pattern;

    if ((m.cause == DMLCONF_CAUSE_PATTERN || m.cause == DMLCONF_CAUSE_UNWRITTEN) &&
        (unsigned)pattern < DMLCONF_PATTERN_COUNT)
    {
        m.pattern = pattern;
        m.position = pattern_has_position(pattern) ? result->comparison.pattern_position : 0;
    }
    return m;
}

static int compare_keys(const member *x, const member *y)
{
    if (x->cause != y->cause)
        return x->cause < y->cause ? -1 : 1;
    if (x->pattern != y->pattern)
        return x->pattern < y->pattern ? -1 : 1;
    if (x->position != y->position)
        return x->position < y->position ? -1 : 1;
    return 0;
}

/* Within a group, the smallest case first: the shortest reproducer. */
static int compare_size(const dmlconf_case_result *a, const dmlconf_case_result *b)
{
    if (a->comparison.elements != b->comparison.elements)
        return a->comparison.elements < b->comparison.elements ? -1 : 1;
    if (a->dimension_count != b->dimension_count)
        return a->dimension_count < b->dimension_count ? -1 : 1;
    /* One that has a minimal reproducer beside it first. */
    if (!a->repro_path[0] != !b->repro_path[0])
        return a->repro_path[0] ? -1 : 1;
    return strncmp(a->id, b->id, sizeof(a->id));
}

/* Group key, then the smallest case first, then by id and position. */
static int compare_members(const void *p, const void *q)
{
    const member *x = p;
    const member *y = q;
    int order = compare_keys(x, y);

    if (order != 0)
        return order;
    order = compare_size(x->result, y->result);
    if (order != 0)
        return order;
    return x->index < y->index ? -1 : x->index > y->index ? 1 : 0;
}

/* The cause that explains the most cases first, then the most severe. */
static int compare_groups(const void *p, const void *q)
{
    const report_failure_group *a = p;
    const report_failure_group *b = q;

    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    if (a->cause != b->cause)
        return a->cause < b->cause ? -1 : 1;
    if (a->pattern != b->pattern)
        return a->pattern < b->pattern ? -1 : 1;
    return a->position < b->position ? -1 : a->position > b->position ? 1 : 0;
}

/* Larger is worse; NaN (a value read back from a damaged file) counts as
 * the least bad. */
static bool worse(double a, double b)
{
    if (isnan(a))
        return false;
    return isnan(b) || a > b;
}

static unsigned type_bit(dmlconf_data_type type)
{
    return (unsigned)type < 32u ? (unsigned)type : 0u;
}

static void absorb(report_failure_group *group, const dmlconf_case_result *results, size_t index)
{
    const dmlconf_case_result *result = &results[index];
    const dmlconf_comparison *c = &result->comparison;

    if (group->count == 0 || worse(c->max_tolerance_fraction, results[group->worst].comparison.max_tolerance_fraction))
        group->worst = index;
    ++group->count;
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
    group->sums |= result->op != DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    group->products |= result->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    group->types |= UINT32_C(1) << type_bit(result->data_type);
    group->inclusive |= !result->exclusive;
    group->exclusive |= result->exclusive;
    group->increasing |= !result->decreasing;
    group->decreasing |= result->decreasing;
    if (group->count == 1 || result->dimension_count < group->lowest_rank)
        group->lowest_rank = result->dimension_count;
    if (result->dimension_count > group->highest_rank)
        group->highest_rank = result->dimension_count;
}

/* ---- the group's words -------------------------------------------------------- */

/* "first", "second", ... for scan positions people count by word; NULL
 * past them. */
static const char *ordinal(uint64_t position)
{
    static const char *const words[] = {"first", "second", "third", "fourth", "fifth"};
    return position < sizeof(words) / sizeof(words[0]) ? words[position] : NULL;
}

/* "the second element of each scan", "the element at scan position 7 of
 * each scan". */
static void element_words(uint64_t position, char *buf, size_t size)
{
    if (ordinal(position))
        snprintf(buf, size, "the %s element of each scan", ordinal(position));
    else
        snprintf(buf, size, "the element at scan position %llu of each scan", (unsigned long long)position);
}

/* The cause in words, for the group's title. */
static void title_of(const report_failure_group *g, char *buf, size_t size)
{
    char element[96];

    if (g->cause == DMLCONF_CAUSE_PATTERN || (g->cause == DMLCONF_CAUSE_UNWRITTEN && g->pattern))
    {
        const char *wrong = g->cause == DMLCONF_CAUSE_UNWRITTEN ? "never written" : "wrong";
        switch (g->pattern)
        {
        case DMLCONF_PATTERN_OTHER_MODE:
            snprintf(buf, size, "%s",
                     !g->inclusive   ? "exclusive scans return the inclusive result (the exclusive flag is ignored)"
                     : !g->exclusive ? "inclusive scans return the exclusive result"
                                     : "each scan returns the other mode's result (exclusive and inclusive swapped)");
            return;
        case DMLCONF_PATTERN_REVERSED:
            snprintf(buf, size, "%s",
                     !g->increasing   ? "decreasing scans run increasing (the direction is ignored)"
                     : !g->decreasing ? "increasing scans run decreasing"
                                      : "scans run in the other direction along the axis (direction swapped)");
            return;
        case DMLCONF_PATTERN_ELEMENT_LEFT_OUT:
            element_words(g->position, element, sizeof(element));
            snprintf(buf, size, "%s is left out (taken as %s): every result from there on lacks it", element,
                     !g->sums       ? "1"
                     : !g->products ? "0"
                                    : "the identity");
            return;
        case DMLCONF_PATTERN_OTHER_OPERATOR:
            snprintf(buf, size, "%s",
                     !g->sums       ? "products are computed as sums"
                     : !g->products ? "sums are computed as products"
                                    : "each operator computes the other (sums and products swapped)");
            return;
        case DMLCONF_PATTERN_INPUT_COPIED:
            snprintf(buf, size, "the output holds the input unchanged: nothing was computed");
            return;
        case DMLCONF_PATTERN_FLOAT16_ACCUMULATION:
            snprintf(buf, size,
                     "float16 results carry the error of float16 accumulation (accumulated in float16, not float32)");
            return;
        case DMLCONF_PATTERN_EVERY_ELEMENT:
            snprintf(buf, size, "every element %s, with no simpler pattern", wrong);
            return;
        case DMLCONF_PATTERN_FIRST_ONLY:
            snprintf(buf, size, "only the first element of each scan is %s", wrong);
            return;
        case DMLCONF_PATTERN_LAST_ONLY:
            snprintf(buf, size, "only the last element of each scan is %s", wrong);
            return;
        case DMLCONF_PATTERN_FROM_POSITION:
            element_words(g->position, element, sizeof(element));
            snprintf(buf, size, "every element from %s on is %s, none before", element, wrong);
            return;
        case DMLCONF_PATTERN_NONE:
        case DMLCONF_PATTERN_COUNT:
            break;
        }
    }
    switch (g->cause)
    {
    case DMLCONF_CAUSE_CRASH:
        snprintf(buf, size, "the process running the case crashed");
        return;
    case DMLCONF_CAUSE_TIMEOUT:
        snprintf(buf, size, "the case did not finish in time");
        return;
    case DMLCONF_CAUSE_ERROR:
        snprintf(buf, size, "the backend or its device reported an error (or the case could not be judged)");
        return;
    case DMLCONF_CAUSE_PAST_END:
        snprintf(buf, size, "writes past the end of the output buffer");
        return;
    case DMLCONF_CAUSE_UNWRITTEN:
        snprintf(buf, size, "output elements left unwritten (they still hold the canary)");
        return;
    case DMLCONF_CAUSE_NAN_INF:
        snprintf(buf, size, "wrong values, no pattern: NaN or infinity where the oracle has none, or the reverse");
        return;
    case DMLCONF_CAUSE_REFUSED_VALID:
        snprintf(buf, size, "refuses descs that are valid at the target level");
        return;
    case DMLCONF_CAUSE_WRONG_REJECTION:
        snprintf(buf, size, "accepts an invalid desc, or refuses it for another reason");
        return;
    case DMLCONF_CAUSE_WRONG_INTEGER:
        snprintf(buf, size, "wrong values, no pattern: integer results not exact");
        return;
    case DMLCONF_CAUSE_OUTSIDE_BOUND:
        snprintf(buf, size, "wrong values, no pattern: float results outside the error bound");
        return;
    case DMLCONF_CAUSE_SIGNED_ZERO:
        snprintf(buf, size, "zeros of the wrong sign (strict signed zeros)");
        return;
    case DMLCONF_CAUSE_UNEXPECTED_PASS:
        snprintf(buf, size, "passes although the baseline lists it as failing (the baseline is out of date)");
        return;
    case DMLCONF_CAUSE_PATTERN:
    case DMLCONF_CAUSE_OTHER:
    case DMLCONF_CAUSE_COUNT:
        break;
    }
    snprintf(buf, size, "failed");
}

/* Which cases the cause shows in: "sums and products; FLOAT32, FLOAT16;
 * inclusive and exclusive; increasing; ranks 1 to 8". */
static void affects_of(const report_failure_group *g, char *buf, size_t size)
{
    dmlconf_text text = {buf, size, 0};
    bool first = true;

    dmlconf_text_appendf(&text, "%s; ",
                         g->sums && g->products ? "sums and products"
                         : g->products          ? "products only"
                                                : "sums only");
    for (unsigned t = 0; t < 32; ++t)
    {
        const char *name = dmlconf_data_type_name((dmlconf_data_type)t);
        if (!(g->types & (UINT32_C(1) << t)))
            continue;
        dmlconf_text_appendf(&text, "%s%s", first ? "" : ", ", name ? name : "an unknown type");
        first = false;
    }
    dmlconf_text_appendf(&text, "; %s; %s; ",
                         g->inclusive && g->exclusive ? "inclusive and exclusive"
                         : g->exclusive               ? "exclusive only"
                                                      : "inclusive only",
                         g->increasing && g->decreasing ? "increasing and decreasing"
                         : g->decreasing                ? "decreasing only"
                                                        : "increasing only");
    if (g->lowest_rank == g->highest_rank)
        dmlconf_text_appendf(&text, "rank %u", (unsigned)g->lowest_rank);
    else
        dmlconf_text_appendf(&text, "ranks %u to %u", (unsigned)g->lowest_rank, (unsigned)g->highest_rank);
}

const char *report_failure_group_token(const report_failure_group *group)
{
    if (group->cause == DMLCONF_CAUSE_PATTERN && dmlconf_pattern_name(group->pattern))
        return dmlconf_pattern_name(group->pattern);
    return report_failure_cause_token(group->cause);
}

int report_failure_groups_build(const dmlconf_case_result *results, size_t count, report_failure_groups *out)
{
    member *members = NULL;
    size_t failing = 0;
    size_t group_count = 0;

    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < count; ++i)
        failing += report_result_is_failing(&results[i]);
    if (failing == 0)
        return 0;
    members = malloc(failing * sizeof(*members));
    out->storage = malloc(failing * sizeof(*out->storage));
    if (!members || !out->storage)
        goto oom;
    failing = 0;
    for (size_t i = 0; i < count; ++i)
    {
        if (report_result_is_failing(&results[i]))
            members[failing++] = member_of(&results[i], i);
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
        report_failure_group *group;
        if (i == 0 || compare_keys(&members[i - 1], &members[i]) != 0)
        {
            group = &out->items[out->count++];
            group->cause = members[i].cause;
            group->pattern = members[i].pattern;
            group->position = members[i].position;
            group->members = &out->storage[i];
        }
        group = &out->items[out->count - 1];
        absorb(group, results, members[i].index);
    }
    for (size_t g = 0; g < out->count; ++g)
    {
        title_of(&out->items[g], out->items[g].title, sizeof(out->items[g].title));
        affects_of(&out->items[g], out->items[g].affects, sizeof(out->items[g].affects));
    }
    qsort(out->items, out->count, sizeof(*out->items), compare_groups);
    out->failing = failing;
    free(members);
    return 0;
oom:
    free(members);
    report_failure_groups_free(out);
    return -1;
}

void report_failure_groups_free(report_failure_groups *groups)
{
    if (!groups)
        return;
    free(groups->items);
    free(groups->storage);
    memset(groups, 0, sizeof(*groups));
}
