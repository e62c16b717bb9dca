/*
 * The diagnosis of a wrong output (dmlconf/diagnosis.h), and the names of
 * its patterns.
 *
 * Each hypothesis is the comparator itself run once more on the same
 * output with another expectation: the desc changed (mode, direction,
 * operator), the input changed (one element of every line taken as the
 * identity), the expected values replaced by the input, or the tolerance
 * of float16 accumulation. An implementation whose output passes such a
 * judgement computed that other thing, within the same tolerance a correct
 * one is held to; which is the cause a person fixing it wants to read,
 * whatever the operator, type, rank or mode of the cases it shows in.
 */
#include "judging_internal.h"

#include <dmlconf/diagnosis.h>

#include <stdlib.h>
#include <string.h>

static const char *const pattern_names[DMLCONF_PATTERN_COUNT] = {
    [DMLCONF_PATTERN_NONE] = "",
    [DMLCONF_PATTERN_OTHER_MODE] = "other-mode",
    [DMLCONF_PATTERN_REVERSED] = "reversed",
    [DMLCONF_PATTERN_ELEMENT_LEFT_OUT] = "element-left-out",
    [DMLCONF_PATTERN_OTHER_OPERATOR] = "other-operator",
    [DMLCONF_PATTERN_INPUT_COPIED] = "input-copied",
    [DMLCONF_PATTERN_FLOAT16_ACCUMULATION] = "float16-accumulation",
    [DMLCONF_PATTERN_EVERY_ELEMENT] = "every-element",
    [DMLCONF_PATTERN_FIRST_ONLY] = "first-only",
    [DMLCONF_PATTERN_LAST_ONLY] = "last-only",
    [DMLCONF_PATTERN_FROM_POSITION] = "from-position",
};

const char *dmlconf_pattern_name(dmlconf_pattern pattern)
{
    return (unsigned)pattern < DMLCONF_PATTERN_COUNT ? pattern_names[pattern] : NULL;
}

bool dmlconf_pattern_from_name(const char *name, dmlconf_pattern *pattern)
{
    if (!name)
        return false;
    for (unsigned i = 0; i < DMLCONF_PATTERN_COUNT; ++i)
    {
        if (!strcmp(pattern_names[i], name))
        {
            *pattern = (dmlconf_pattern)i;
            return true;
        }
    }
    return false;
}

/* Whether the output passes `job` (a hypothesis): it was judged, nothing
 * failed, and at least one element was judged at all. */
static bool holds(const dmlconf_compare_job *job)
{
    dmlconf_comparison *check = malloc(sizeof(*check));
    bool passes;

    if (!check)
        return false;
    passes =
        dmlconf_compare_tensor(job, check, NULL) == 0 && check->mismatches == 0 && check->elements > check->unjudged;
    free(check);
    return passes;
}

/* The identity of `op` for `type` as raw bits: 0 for sums, 1 for products. */
static uint64_t identity_bits(dmlconf_operator op, dmlconf_data_type type)
{
    if (op != DMLCONF_OPERATOR_CUMULATIVE_PRODUCT)
        return 0;
    switch (type)
    {
    case DMLCONF_DATA_TYPE_FLOAT32:
        return UINT64_C(0x3f800000);
    case DMLCONF_DATA_TYPE_FLOAT16:
        return UINT64_C(0x3c00);
    case DMLCONF_DATA_TYPE_FLOAT64:
        return UINT64_C(0x3ff0000000000000);
    default:
        return 1;
    }
}

/* The input's logical elements, packed row-major, read from its source:
 * a malloc'ed buffer of `bytes` (at least `count` elements of `size`
 * bytes), or NULL (memory, a buffer too small for its layout, a reader
 * that fails). */
static unsigned char *packed_input(const dmlconf_compare_job *job, uint64_t count, size_t size, uint64_t bytes)
{
    const dmlconf_scan_desc *desc = job->desc;
    const dmlconf_tensor_source *source = &job->input;
    unsigned char *packed = calloc(1, (size_t)bytes);
    char why[160];

    if (!packed)
        return NULL;
    if (!source->buffer)
    {
        if (source->read && source->read(source->context, 0, count, packed, why, sizeof(why)) == 0)
            return packed;
        free(packed);
        return NULL;
    }
    if (!source->layout)
    {
        if (source->bytes >= count * size)
        {
            memcpy(packed, source->buffer, (size_t)count * size);
            return packed;
        }
        free(packed);
        return NULL;
    }
    /* Line by line through the layout's strides. */
    const dmlconf_tensor_desc *layout = source->layout;
    const unsigned char *buffer = source->buffer;
    uint64_t lines = dmlconf_line_count(layout, desc->axis);
    uint64_t n = layout->sizes[desc->axis];
    for (uint64_t line = 0; line < lines; ++line)
    {
        uint64_t first, step, logical_first, logical_step;
        dmlconf_line_layout(layout, desc->axis, line, &first, &step, &logical_first, &logical_step);
        for (uint64_t j = 0; j < n; ++j)
        {
            uint64_t at = first + j * step;
            if ((at + 1) * size > source->bytes)
            {
                free(packed);
                return NULL;
            }
            memcpy(packed + (logical_first + j * logical_step) * size, buffer + at * size, size);
        }
    }
    return packed;
}

/* Whether the output is the scan of the input with the element at scan
 * position k of every line taken as the identity. */
static bool element_left_out(const dmlconf_compare_job *job, uint64_t k)
{
    const dmlconf_scan_desc *desc = job->desc;
    const dmlconf_tensor_desc *input = &desc->input;
    uint64_t count = dmlconf_tensor_element_count(input);
    uint64_t n = input->sizes[desc->axis];
    size_t size = dmlconf_data_type_bits(input->data_type) / 8u;
    uint64_t identity = identity_bits(desc->op, input->data_type);
    unsigned char *packed;
    dmlconf_tensor_desc packed_desc = *input;
    dmlconf_compare_job changed = *job;
    bool passes;

    uint64_t bytes = 0;

    packed_desc.has_strides = false;
    packed_desc.total_size_bytes = 0;
    if (size == 0 || size > sizeof(identity) || k >= n || !dmlconf_tensor_min_size_bytes(&packed_desc, &bytes) ||
        bytes < count * size)
        return false;
    packed = packed_input(job, count, size, bytes);
    if (!packed)
        return false;
    uint64_t a = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING ? n - 1u - k : k;
    for (uint64_t line = 0, lines = dmlconf_line_count(&packed_desc, desc->axis); line < lines; ++line)
    {
        uint64_t logical_first, logical_step;
        dmlconf_line_layout(&packed_desc, desc->axis, line, NULL, NULL, &logical_first, &logical_step);
        /* Little-endian bits, as every buffer here holds them. */
        for (size_t b = 0; b < size; ++b)
            packed[(logical_first + a * logical_step) * size + b] = (unsigned char)(identity >> (8u * b));
    }
    changed.expected = (dmlconf_tensor_source){0};
    changed.input.buffer = packed;
    changed.input.bytes = (size_t)bytes;
    changed.input.layout = NULL;
    changed.input.read = NULL;
    changed.input.context = NULL;
    passes = holds(&changed);
    free(packed);
    return passes;
}

/* ---- screening a hypothesis on one element ----------------------------------- */

/* Lines longer than this are not screened (the screen holds a line's scan
 * and side data). */
#define SCREEN_MAX_LINE (UINT64_C(1) << 20)

/* One line of the input, the line through the element `m`, in index order
 * along the axis: what the comparator would read for it. Returns a
 * malloc'ed array of n elements of `size` bytes, or NULL (memory, a reader
 * that fails, a buffer too small). */
static unsigned char *line_input(const dmlconf_compare_job *job, const dmlconf_mismatch *m, size_t size)
{
    const dmlconf_scan_desc *desc = job->desc;
    const dmlconf_tensor_source *source = &job->input;
    const uint32_t axis = desc->axis;
    const uint64_t n = desc->input.sizes[axis];
    dmlconf_tensor_desc packed = desc->input;
    unsigned char *line = malloc((size_t)n * size);
    uint64_t offset = 0, step, packed_first = 0, packed_step;
    char why[160];

    if (!line || m->dimension_count != desc->input.dimension_count)
    {
        free(line);
        return NULL;
    }
    packed.has_strides = false;
    for (uint32_t d = 0; d < desc->input.dimension_count; ++d)
    {
        if (d == axis)
            continue;
        offset += (uint64_t)m->coordinates[d] * dmlconf_tensor_stride(source->layout ? source->layout : &packed, d);
        packed_first += (uint64_t)m->coordinates[d] * dmlconf_tensor_stride(&packed, d);
    }
    step = dmlconf_tensor_stride(source->layout ? source->layout : &packed, axis);
    packed_step = dmlconf_tensor_stride(&packed, axis);
    for (uint64_t a = 0; a < n; ++a)
    {
        if (source->buffer)
        {
            uint64_t at = offset + a * step;
            if ((at + 1) * size > source->bytes)
                goto fail;
            memcpy(line + a * size, (const unsigned char *)source->buffer + at * size, size);
        }
        else if (!source->read)
            goto fail;
        else if (packed_step == 1)
        {
            if (source->read(source->context, packed_first, n, line, why, sizeof(why)))
                goto fail;
            break;
        }
        else if (source->read(source->context, packed_first + a * packed_step, 1, line + a * size, why, sizeof(why)))
            goto fail;
    }
    return line;
fail:
    free(line);
    return NULL;
}

/* Whether the element `m` passes when judged as `desc`'s scan of `line`
 * (its input line in index order), with `tol`: a hypothesis that fails it
 * cannot hold, and is not tried on the whole output. When the element
 * cannot be judged here, it passes (the whole output decides). */
static bool screen(const dmlconf_scan_desc *desc, const dmlconf_tolerance *tol, const unsigned char *line, size_t size,
                   const dmlconf_mismatch *m)
{
    const uint64_t n = desc->input.sizes[desc->axis];
    const bool reversed = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING;
    const uint64_t j = reversed ? n - 1u - m->coordinates[desc->axis] : m->coordinates[desc->axis];
    unsigned char *in = malloc((size_t)n * size);
    unsigned char *out = malloc((size_t)n * size);
    dmlconf_side_data *side = malloc((size_t)n * sizeof(*side));
    dmlconf_judge judge;
    bool passes = true;

    if (in && out && side)
    {
        uint64_t expected = 0;
        for (uint64_t i = 0; i < n; ++i)
            memcpy(in + i * size, line + (reversed ? n - 1u - i : i) * size, size);
        if (dmlconf_scan_line(desc->op, desc->input.data_type, desc->exclusive, (size_t)n, in, out, side, NULL) == 0 &&
            dmlconf_judge_init(&judge, desc->op, desc->output.data_type, tol, NULL) == 0)
        {
            memcpy(&expected, out + j * size, size); /* little-endian hosts */
            passes = dmlconf_judge_bits(&judge, expected, m->actual_bits, &side[j], NULL) != DMLCONF_VERDICT_FAIL;
        }
    }
    free(in);
    free(out);
    free(side);
    return passes;
}

/* The first hypothesis about what the output is that holds; NONE when none
 * does. Each is screened first on the first mismatch (one line's scan),
 * and judged on the whole output only when that element passes it. */
static dmlconf_pattern what_it_is(const dmlconf_compare_job *job, const dmlconf_comparison *comparison,
                                  uint64_t *position)
{
    const dmlconf_scan_desc *desc = job->desc;
    const size_t size = dmlconf_data_type_bits(desc->input.data_type) / 8u;
    const dmlconf_mismatch *m = &comparison->first;
    dmlconf_scan_desc other = *desc;
    dmlconf_compare_job changed = *job;
    dmlconf_tolerance tol;
    dmlconf_pattern pattern = DMLCONF_PATTERN_NONE;
    unsigned char *line = NULL;

    if (job->tol)
        tol = *job->tol;
    else
        dmlconf_tolerance_default(desc->output.data_type, &tol);
    if (comparison->has_first && size > 0 && size <= sizeof(uint64_t) &&
        desc->input.sizes[desc->axis] <= SCREEN_MAX_LINE)
        line = line_input(job, m, size);
#define SCREENED(d, t) (!line || screen((d), (t), line, size, m))
    /* The oracle's values of each other scan, never the case's own
     * expected values (those are of the scan the case asks for). */
    changed.expected = (dmlconf_tensor_source){0};
    changed.desc = &other;
    other.exclusive = !desc->exclusive;
    if (SCREENED(&other, &tol) && holds(&changed))
    {
        pattern = DMLCONF_PATTERN_OTHER_MODE;
        goto done;
    }
    other = *desc;
    other.direction = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING ? DMLCONF_AXIS_DIRECTION_INCREASING
                                                                           : DMLCONF_AXIS_DIRECTION_DECREASING;
    if (SCREENED(&other, &tol) && holds(&changed))
    {
        pattern = DMLCONF_PATTERN_REVERSED;
        goto done;
    }
    if (comparison->has_earliest && (!desc->exclusive || comparison->earliest_position > 0))
    {
        uint64_t k = comparison->earliest_position - (desc->exclusive ? 1u : 0u);
        uint64_t n = desc->input.sizes[desc->axis];
        bool screened = true;
        if (line && k < n)
        {
            uint64_t a = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING ? n - 1u - k : k;
            uint64_t identity = identity_bits(desc->op, desc->input.data_type);
            unsigned char kept[sizeof(uint64_t)];
            memcpy(kept, line + a * size, size);
            memcpy(line + a * size, &identity, size); /* little-endian hosts */
            screened = screen(desc, &tol, line, size, m);
            memcpy(line + a * size, kept, size);
        }
        if (screened && element_left_out(job, k))
        {
            *position = k;
            pattern = DMLCONF_PATTERN_ELEMENT_LEFT_OUT;
            goto done;
        }
    }
    other = *desc;
    other.op = desc->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? DMLCONF_OPERATOR_CUMULATIVE_SUMMATION
                                                               : DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    if (SCREENED(&other, &tol) && holds(&changed))
    {
        pattern = DMLCONF_PATTERN_OTHER_OPERATOR;
        goto done;
    }
    /* The input, bit for bit. */
    changed = *job;
    changed.expected = job->input;
    changed.tol = &tol;
    tol.bit_exact = true;
    if ((!line || !memcmp(line + (size_t)m->coordinates[desc->axis] * size, &m->actual_bits, size)) && holds(&changed))
    {
        pattern = DMLCONF_PATTERN_INPUT_COPIED;
        goto done;
    }
    /* float16 accumulated in float16, against the case's own expected
     * values when it has them. */
    tol.bit_exact = job->tol ? job->tol->bit_exact : false;
    if (desc->output.data_type == DMLCONF_DATA_TYPE_FLOAT16 && tol.form == DMLCONF_TOLERANCE_FORM_BOUND &&
        !tol.bit_exact && tol.accumulation == DMLCONF_DATA_TYPE_FLOAT32)
    {
        changed = *job;
        tol.accumulation = DMLCONF_DATA_TYPE_FLOAT16;
        changed.tol = &tol;
        if (SCREENED(desc, &tol) && holds(&changed))
            pattern = DMLCONF_PATTERN_FLOAT16_ACCUMULATION;
    }
#undef SCREENED
done:
    free(line);
    return pattern;
}

/* Where the wrong elements are along the axis, from the comparison. */
static dmlconf_pattern where_it_is(const dmlconf_comparison *c, uint64_t *position)
{
    uint64_t n = c->axis_length;

    if (!c->has_earliest || n == 0)
        return DMLCONF_PATTERN_NONE;
    if (c->mismatches == c->elements && c->elements > 1)
        return DMLCONF_PATTERN_EVERY_ELEMENT;
    if (n > 1 && c->latest_position == 0)
        return DMLCONF_PATTERN_FIRST_ONLY;
    if (n > 1 && c->earliest_position == n - 1u)
        return DMLCONF_PATTERN_LAST_ONLY;
    if (c->earliest_position > 0 && c->earliest_position < n && c->lines > 0 &&
        c->mismatches == c->lines * (n - c->earliest_position))
    {
        *position = c->earliest_position;
        return DMLCONF_PATTERN_FROM_POSITION;
    }
    return DMLCONF_PATTERN_NONE;
}

void dmlconf_diagnose(const dmlconf_compare_job *job, dmlconf_comparison *comparison)
{
    uint64_t position = 0;
    dmlconf_pattern pattern = DMLCONF_PATTERN_NONE;

    comparison->pattern = DMLCONF_PATTERN_NONE;
    comparison->pattern_position = 0;
    if (comparison->mismatches == 0)
        return;
    if (comparison->unwritten < comparison->mismatches && comparison->elements <= DMLCONF_DIAGNOSIS_MAX_ELEMENTS)
        pattern = what_it_is(job, comparison, &position);
    if (pattern == DMLCONF_PATTERN_NONE)
        pattern = where_it_is(comparison, &position);
    comparison->pattern = pattern;
    comparison->pattern_position = position;
}
