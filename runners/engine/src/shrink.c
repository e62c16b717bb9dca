/*
 * The one shrinking engine (runner.h, "shrinking"): `dmlconf run` shrinks a
 * failing case of the corpus into a reproducer with it (repro.c), `dmlconf
 * explore` a finding (explore_shrink.c). Each step makes a smaller or
 * simpler candidate and keeps it when the caller's callback says it still
 * fails the same way; the callback runs it on the backend as a run runs a
 * case (runner_execute: its output filled with the canary and guarded after
 * its end), so every kind of failure shrinks as itself and a backend that
 * writes past its output is caught again.
 *
 * The layout is a recipe (runner_layout) rather than strides, so that a
 * candidate with other sizes keeps its padding, permutation and broadcast
 * dimensions, and a layout that makes the difference survives; slicing the
 * logical values keeps elements that share storage equal.
 */
#include <dmlconf/runner.h>

#include <dmlconf/clock.h>
#include <dmlconf/values.h>

#include <stdlib.h>
#include <string.h>

/* ---- layouts ------------------------------------------------------------------ */

/* Strides of one tensor from its layout; false when one does not fit. */
static bool apply_tensor(const runner_tensor_layout *layout, dmlconf_tensor_desc *t)
{
    t->total_size_bytes = 0;
    if (!layout->strided)
    {
        t->has_strides = false;
        memset(t->strides, 0, sizeof(t->strides));
        return true;
    }
    if (t->dimension_count > DMLCONF_MAX_DIMENSIONS)
        return false;
    t->has_strides = true;
    uint64_t pitch = 1;
    uint8_t seen = 0;
    for (uint32_t k = 0; k < t->dimension_count; ++k)
    {
        uint32_t d = layout->order[k];
        if (d >= t->dimension_count || (seen & (1u << d)))
            return false;
        seen = (uint8_t)(seen | (1u << d));
        pitch += layout->pad[k];
        bool broadcast = (layout->broadcast & (1u << d)) != 0;
        if (pitch > UINT32_MAX)
            return false;
        t->strides[d] = broadcast ? 0u : (uint32_t)pitch;
        if (!(broadcast && layout->compact))
            pitch *= t->sizes[d];
    }
    uint64_t bytes;
    return dmlconf_tensor_min_size_bytes(t, &bytes) && bytes <= UINT32_MAX;
}

bool runner_layout_apply(const runner_layout *layout, dmlconf_scan_desc *desc)
{
    desc->in_place = layout->in_place;
    if (!apply_tensor(&layout->input, &desc->input))
        return false;
    if (layout->in_place)
    {
        desc->output.has_strides = desc->input.has_strides;
        memcpy(desc->output.strides, desc->input.strides, sizeof(desc->output.strides));
        desc->output.total_size_bytes = desc->input.total_size_bytes;
        return true;
    }
    runner_tensor_layout output = layout->output;
    output.broadcast = 0;
    return apply_tensor(&output, &desc->output);
}

/* A packed tensor's recipe: row-major order, no padding. */
static void packed_tensor(uint32_t rank, runner_tensor_layout *t)
{
    memset(t, 0, sizeof(*t));
    for (uint32_t k = 0; k < rank && k < DMLCONF_MAX_DIMENSIONS; ++k)
        t->order[k] = (uint8_t)(rank - 1 - k);
}

/* The recipe of one tensor's strides: dimensions by increasing stride (the
 * later dimension first among equal ones), broadcast dimensions (stride 0)
 * taking no room, the pads the gaps. May be wrong (overlaps): the caller
 * checks it by applying it. */
static void tensor_recipe(const dmlconf_tensor_desc *t, runner_tensor_layout *out)
{
    uint32_t rank = t->dimension_count;
    packed_tensor(rank, out);
    if (!t->has_strides)
        return;
    out->strided = true;
    uint32_t kept = 0;
    for (uint32_t d = rank; d-- > 0;)
    {
        if (t->strides[d] == 0)
        {
            out->broadcast = (uint8_t)(out->broadcast | (1u << d));
            out->compact = true;
        }
        else
            out->order[kept++] = (uint8_t)d;
    }
    /* Insertion sort by stride; equal strides keep the later dimension first. */
    for (uint32_t i = 1; i < kept; ++i)
    {
        uint8_t d = out->order[i];
        uint32_t j = i;
        for (; j > 0 && t->strides[out->order[j - 1]] > t->strides[d]; --j)
            out->order[j] = out->order[j - 1];
        out->order[j] = d;
    }
    for (uint32_t d = rank; d-- > 0;)
    {
        if (t->strides[d] == 0)
            out->order[kept++] = (uint8_t)d;
    }
    uint64_t pitch = 1;
    for (uint32_t k = 0; k < rank; ++k)
    {
        uint32_t d = out->order[k];
        if (out->broadcast & (1u << d))
            continue;
        out->pad[k] = t->strides[d] >= pitch ? (uint32_t)(t->strides[d] - pitch) : 0u;
        pitch = (uint64_t)t->strides[d] * t->sizes[d];
    }
}

static bool same_layout(const dmlconf_tensor_desc *a, const dmlconf_tensor_desc *b)
{
    if (a->has_strides != b->has_strides || a->total_size_bytes != b->total_size_bytes)
        return false;
    for (uint32_t d = 0; a->has_strides && d < a->dimension_count; ++d)
    {
        if (a->strides[d] != b->strides[d])
            return false;
    }
    return true;
}

bool runner_layout_of(const dmlconf_scan_desc *desc, runner_layout *layout)
{
    memset(layout, 0, sizeof(*layout));
    uint32_t rank = desc->input.dimension_count;
    if (rank == 0 || rank > DMLCONF_MAX_DIMENSIONS || desc->output.dimension_count != rank)
        return false;
    tensor_recipe(&desc->input, &layout->input);
    tensor_recipe(&desc->output, &layout->output);
    layout->in_place = desc->in_place;
    dmlconf_scan_desc again = *desc;
    bool exact = layout->output.broadcast == 0 && runner_layout_apply(layout, &again) &&
                 same_layout(&again.input, &desc->input) && same_layout(&again.output, &desc->output);
    if (!exact)
    {
        memset(layout, 0, sizeof(*layout));
        packed_tensor(rank, &layout->input);
        packed_tensor(rank, &layout->output);
    }
    return exact;
}

/* ---- candidates ---------------------------------------------------------------- */

static size_t element_size(const runner_candidate *c)
{
    return dmlconf_data_type_bits(c->desc.input.data_type) / 8;
}

void runner_candidate_free(runner_candidate *candidate)
{
    if (!candidate)
        return;
    free(candidate->values);
    memset(candidate, 0, sizeof(*candidate));
}

int runner_candidate_copy(const runner_candidate *candidate, runner_candidate *copy)
{
    *copy = *candidate;
    copy->values = NULL;
    size_t bytes = (size_t)candidate->count * element_size(candidate);
    copy->values = malloc(bytes ? bytes : 1);
    if (!copy->values)
    {
        memset(copy, 0, sizeof(*copy));
        return -1;
    }
    if (bytes)
        memcpy(copy->values, candidate->values, bytes);
    return 0;
}

/* ---- the search ------------------------------------------------------------------ */

typedef struct shrinker
{
    const runner_shrink_options *options;
    int tries;
    double deadline;
    bool keep_type;           /* the model's tolerance is its type's */
    dmlconf_case_result last; /* the result of the last candidate that still failed */
} shrinker;

static bool out_of_budget(const shrinker *s)
{
    return s->tries >= s->options->max_tries || dmlconf_clock_seconds() > s->deadline;
}

/* Runs a candidate as a case of the model; true when it still fails the
 * same way. */
static bool still_fails(shrinker *s, const runner_candidate *candidate)
{
    if (out_of_budget(s))
        return false;
    /* A smaller desc that is not valid would be refused for that. */
    dmlconf_validation validation;
    if (!dmlconf_validate(&candidate->desc, s->options->level, &validation))
        return false;
    s->tries++;
    dmlconf_case trial = *s->options->model;
    trial.desc = candidate->desc;
    trial.min_feature_level = dmlconf_min_feature_level(&candidate->desc, NULL);
    memset(&trial.input, 0, sizeof(trial.input));
    trial.input.kind = DMLCONF_CASE_DATA_INLINE;
    trial.input.values = candidate->values;
    trial.input.count = candidate->count;
    memset(&trial.expected, 0, sizeof(trial.expected));
    dmlconf_case_result *result = malloc(sizeof(*result));
    if (!result)
        return false;
    bool fails = s->options->fails_same_way(s->options->context, &trial, result);
    if (fails)
        s->last = *result;
    free(result);
    return fails;
}

/* Takes `next` as the current candidate. */
static void accept(runner_candidate *current, runner_candidate *next)
{
    runner_candidate_free(current);
    *current = *next;
    memset(next, 0, sizeof(*next));
}

/* Tries `next` (consumed): kept when it still fails. */
static bool try_candidate(shrinker *s, runner_candidate *current, runner_candidate *next)
{
    if (runner_layout_apply(&next->layout, &next->desc) && still_fails(s, next))
    {
        accept(current, next);
        return true;
    }
    runner_candidate_free(next);
    return false;
}

/* A candidate holding the sub-tensor [start[d], start[d] + sizes[d]) of
 * `from`. Returns false when memory runs out. */
static bool slice(const runner_candidate *from, const uint32_t *start, const uint32_t *sizes, runner_candidate *out)
{
    *out = *from;
    out->values = NULL;
    uint32_t rank = from->desc.input.dimension_count;
    for (uint32_t d = 0; d < rank; ++d)
        out->desc.input.sizes[d] = out->desc.output.sizes[d] = sizes[d];
    out->count = dmlconf_tensor_element_count(&out->desc.input);
    size_t element = element_size(from);
    out->values = malloc((size_t)(out->count ? out->count : 1) * element);
    if (!out->values)
        return false;
    uint32_t coordinates[DMLCONF_MAX_DIMENSIONS] = {0};
    const unsigned char *source = from->values;
    unsigned char *target = out->values;
    for (uint64_t i = 0; i < out->count; ++i)
    {
        uint64_t index = 0;
        for (uint32_t d = 0; d < rank; ++d)
            index = index * from->desc.input.sizes[d] + start[d] + coordinates[d];
        memcpy(target + i * element, source + index * element, element);
        for (uint32_t d = rank; d-- > 0;)
        {
            if (++coordinates[d] < sizes[d])
                break;
            coordinates[d] = 0;
        }
    }
    return true;
}

/* The coordinate of the last failure's first mismatch in dimension d. */
static uint32_t focus_of(const shrinker *s, const runner_candidate *current, uint32_t d)
{
    const dmlconf_comparison *c = &s->last.comparison;
    if (!c->has_first || c->first.dimension_count != current->desc.input.dimension_count)
        return 0;
    return c->first.coordinates[d] < current->desc.input.sizes[d] ? c->first.coordinates[d] : 0;
}

/* Shorter ranges of one dimension: along the axis the prefix (in scan
 * order) that ends at the first mismatch, elsewhere the mismatch's single
 * index; then halves, three quarters and the length less one. */
static bool shrink_dimension(shrinker *s, runner_candidate *current, uint32_t d)
{
    bool progress = false;
    for (;;)
    {
        uint32_t size = current->desc.input.sizes[d];
        if (size <= 1 || out_of_budget(s))
            break;
        uint32_t focus = focus_of(s, current, d);
        bool axis = d == current->desc.axis;
        bool reversed = current->desc.direction == DMLCONF_AXIS_DIRECTION_DECREASING;
        uint32_t lengths[4] = {axis ? (reversed ? size - focus : focus + 1) : 1, size / 2, size - size / 4, size - 1};
        bool shrunk = false;
        for (size_t t = 0; t < 4 && !shrunk; ++t)
        {
            uint32_t length = lengths[t];
            if (length == 0 || length >= size)
                continue;
            uint32_t start[DMLCONF_MAX_DIMENSIONS] = {0}, sizes[DMLCONF_MAX_DIMENSIONS];
            memcpy(sizes, current->desc.input.sizes, sizeof(sizes));
            sizes[d] = length;
            if (axis)
                start[d] = reversed ? size - length : 0;
            else
                start[d] = focus + length <= size ? focus : size - length;
            runner_candidate next;
            if (!slice(current, start, sizes, &next))
                return progress;
            shrunk = try_candidate(s, current, &next);
        }
        if (!shrunk)
            break;
        progress = true;
    }
    return progress;
}

/* Removes dimension d (of size 1, not the axis) from a tensor layout. */
static void drop_from_layout(runner_tensor_layout *t, uint32_t rank, uint32_t d)
{
    uint32_t kept = 0;
    uint32_t pad_carry = 0;
    for (uint32_t k = 0; k < rank; ++k)
    {
        if (t->order[k] == d)
        {
            pad_carry = t->pad[k];
            continue;
        }
        t->order[kept] = (uint8_t)(t->order[k] > d ? t->order[k] - 1 : t->order[k]);
        t->pad[kept] = t->pad[k] + pad_carry;
        pad_carry = 0;
        ++kept;
    }
    t->pad[rank - 1] = 0;
    uint8_t low = (uint8_t)(t->broadcast & ((1u << d) - 1u));
    uint8_t high = (uint8_t)((t->broadcast >> (d + 1)) << d);
    t->broadcast = (uint8_t)(low | high);
}

/* Drops one size-1 dimension at a time (keeping rank 4 below feature level
 * 4_0, where only 4-D tensors exist). */
static bool shrink_rank(shrinker *s, runner_candidate *current)
{
    bool progress = false;
    uint32_t minimum = s->options->level < DMLCONF_FEATURE_LEVEL_4_0 ? 4 : 1;
    for (uint32_t d = current->desc.input.dimension_count; d-- > 0;)
    {
        uint32_t rank = current->desc.input.dimension_count;
        if (rank <= minimum || d >= rank || d == current->desc.axis || current->desc.input.sizes[d] != 1 ||
            out_of_budget(s))
            continue;
        runner_candidate next;
        if (runner_candidate_copy(current, &next))
            return progress;
        for (uint32_t k = d; k + 1 < rank; ++k)
            next.desc.input.sizes[k] = next.desc.output.sizes[k] = next.desc.input.sizes[k + 1];
        next.desc.input.dimension_count = next.desc.output.dimension_count = rank - 1;
        if (next.desc.axis > d)
            next.desc.axis--;
        drop_from_layout(&next.layout.input, rank, d);
        drop_from_layout(&next.layout.output, rank, d);
        progress |= try_candidate(s, current, &next);
    }
    return progress;
}

/* Simpler layouts, one feature at a time: out of place, no broadcast, no
 * permutation, no padding, packed. */
static bool shrink_layout(shrinker *s, runner_candidate *current)
{
    bool progress = false;
    for (unsigned step = 0; step < 9 && !out_of_budget(s); ++step)
    {
        runner_candidate next;
        if (runner_candidate_copy(current, &next))
            return progress;
        runner_layout *l = &next.layout;
        runner_tensor_layout *t = step % 2 ? &l->output : &l->input;
        uint32_t rank = next.desc.input.dimension_count;
        bool changed = false;
        switch (step)
        {
        case 0:
            changed = l->in_place;
            l->in_place = false;
            break;
        case 1:
        case 2:
            changed = l->input.broadcast != 0 || l->input.compact;
            l->input.broadcast = 0;
            l->input.compact = false;
            break;
        case 3:
        case 4:
            for (uint32_t k = 0; k < rank; ++k)
                changed |= t->order[k] != rank - 1 - k;
            for (uint32_t k = 0; k < rank; ++k)
                t->order[k] = (uint8_t)(rank - 1 - k);
            break;
        case 5:
        case 6:
            for (uint32_t k = 0; k < rank; ++k)
                changed |= t->pad[k] != 0;
            memset(t->pad, 0, sizeof(t->pad));
            break;
        default:
            changed = t->strided && !t->broadcast;
            if (!t->broadcast)
                t->strided = false;
            break;
        }
        if (l->in_place)
            l->output = l->input;
        if (changed)
            progress |= try_candidate(s, current, &next);
        else
            runner_candidate_free(&next);
    }
    return progress;
}

/* An increasing scan of the reversed values, and an inclusive scan. */
static bool shrink_mode(shrinker *s, runner_candidate *current)
{
    bool progress = false;
    if (current->desc.direction == DMLCONF_AXIS_DIRECTION_DECREASING && !out_of_budget(s))
    {
        runner_candidate next;
        uint32_t rank = current->desc.input.dimension_count, axis = current->desc.axis;
        if (runner_candidate_copy(current, &next))
            return progress;
        next.desc.direction = DMLCONF_AXIS_DIRECTION_INCREASING;
        size_t element = element_size(current);
        uint64_t inner = 1;
        for (uint32_t d = axis + 1; d < rank; ++d)
            inner *= current->desc.input.sizes[d];
        uint64_t n = current->desc.input.sizes[axis];
        for (uint64_t i = 0; i < current->count; ++i)
        {
            uint64_t j = (i / inner) % n;
            uint64_t mirror = i + ((n - 1 - j) - j) * inner;
            memcpy((unsigned char *)next.values + i * element,
                   (const unsigned char *)current->values + mirror * element, element);
        }
        progress |= try_candidate(s, current, &next);
    }
    if (current->desc.exclusive && !out_of_budget(s))
    {
        runner_candidate next;
        if (runner_candidate_copy(current, &next))
            return progress;
        next.desc.exclusive = false;
        progress |= try_candidate(s, current, &next);
    }
    return progress;
}

/* Removes single positions of the axis, one at a time (after the values
 * have been simplified, the elements that do not matter go). */
static bool shrink_positions(shrinker *s, runner_candidate *current)
{
    bool progress = false;
    uint32_t axis = current->desc.axis;
    for (uint32_t j = current->desc.input.sizes[axis]; j-- > 0 && !out_of_budget(s);)
    {
        uint32_t n = current->desc.input.sizes[axis];
        if (n <= 1 || j >= n)
            continue;
        /* The tensor without position j: the part before it, then after. */
        uint32_t rank = current->desc.input.dimension_count;
        uint64_t inner = 1, outer = 1;
        for (uint32_t d = axis + 1; d < rank; ++d)
            inner *= current->desc.input.sizes[d];
        for (uint32_t d = 0; d < axis; ++d)
            outer *= current->desc.input.sizes[d];
        runner_candidate next;
        if (runner_candidate_copy(current, &next))
            return progress;
        size_t element = element_size(current);
        unsigned char *to = next.values;
        const unsigned char *from = current->values;
        for (uint64_t o = 0; o < outer; ++o)
        {
            for (uint32_t k = 0; k < n; ++k)
            {
                if (k == j)
                    continue;
                memcpy(to, from + ((o * n + k) * inner) * element, (size_t)(inner * element));
                to += inner * element;
            }
        }
        next.desc.input.sizes[axis] = next.desc.output.sizes[axis] = n - 1;
        next.count = current->count / n * (n - 1);
        progress |= try_candidate(s, current, &next);
    }
    return progress;
}

/* One element of `type` as int32 bits: floats truncated toward zero (NaN,
 * infinities and values out of range as 0), 64-bit integers their low 32
 * bits. */
static uint32_t int32_bits(dmlconf_data_type type, const unsigned char *p)
{
    float value;
    if (type == DMLCONF_DATA_TYPE_FLOAT16)
        value = dmlconf_half_to_float((uint16_t)(p[0] | p[1] << 8));
    else if (type == DMLCONF_DATA_TYPE_FLOAT32)
        memcpy(&value, p, 4);
    else
        return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return value == value && value < 2147483648.0f && value > -2147483648.0f ? (uint32_t)(int32_t)value : 0u;
}

/* The case in a simpler type (int32; float16 as float32) and as a sum
 * rather than a product, where it still fails: failures of any type or
 * operator shrink to the same form, those of one type or operator keep
 * theirs. */
static bool shrink_type(shrinker *s, runner_candidate *current)
{
    bool progress = false;
    dmlconf_data_type type = current->desc.input.data_type;
    for (unsigned step = 0; step < 3 && !out_of_budget(s); ++step)
    {
        dmlconf_data_type to = step == 1 ? DMLCONF_DATA_TYPE_FLOAT32 : DMLCONF_DATA_TYPE_INT32;
        if (step == 2)
        {
            if (current->desc.op != DMLCONF_OPERATOR_CUMULATIVE_PRODUCT)
                continue;
        }
        else if (type == to || (step == 1 && type != DMLCONF_DATA_TYPE_FLOAT16))
            continue;
        runner_candidate next = *current;
        next.values = NULL;
        if (step == 2)
        {
            if (runner_candidate_copy(current, &next))
                return progress;
            next.desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
            progress |= try_candidate(s, current, &next);
            continue;
        }
        next.desc.input.data_type = next.desc.output.data_type = to;
        next.values = malloc((size_t)(current->count ? current->count : 1) * 4u);
        if (!next.values)
            return progress;
        size_t element = element_size(current);
        for (uint64_t i = 0; i < current->count; ++i)
        {
            const unsigned char *p = (const unsigned char *)current->values + i * element;
            uint32_t bits;
            if (to == DMLCONF_DATA_TYPE_FLOAT32)
            {
                float value = dmlconf_half_to_float((uint16_t)(p[0] | p[1] << 8));
                memcpy(&bits, &value, 4);
            }
            else
                bits = int32_bits(type, p);
            memcpy((unsigned char *)next.values + i * 4u, &bits, 4);
        }
        if (try_candidate(s, current, &next))
        {
            progress = true;
            type = current->desc.input.data_type;
        }
    }
    return progress;
}

static int compare_offsets(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Replaces runs of values by the operator's identity while the case still
 * fails; every logical element that shares storage with a replaced one is
 * replaced with it. */
static void shrink_values(shrinker *s, runner_candidate *current)
{
    dmlconf_data_type type = current->desc.input.data_type;
    size_t element = element_size(current);
    unsigned char identity[8] = {0};
    if (current->desc.op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT &&
        dmlconf_value_parse(type, "1", false, identity, NULL, 0) != DMLCONF_VALUE_OK)
        return;
    uint64_t count = current->count;
    /* Storage offset of each logical element, for the sharing rule, and
     * the sorted offsets of the run being replaced. */
    uint64_t *offsets = malloc((size_t)(count ? count : 1) * sizeof(*offsets));
    uint64_t *run = malloc((size_t)(count ? count : 1) * sizeof(*run));
    if (!offsets || !run)
    {
        free(offsets);
        free(run);
        return;
    }
    const dmlconf_tensor_desc *in = &current->desc.input;
    for (uint64_t i = 0; i < count; ++i)
    {
        uint64_t rest = i, offset = 0;
        for (uint32_t d = in->dimension_count; d-- > 0;)
        {
            offset += (rest % in->sizes[d]) * dmlconf_tensor_stride(in, d);
            rest /= in->sizes[d];
        }
        offsets[i] = offset;
    }
    for (uint64_t chunk = count / 2 ? count / 2 : 1; chunk >= 1 && !out_of_budget(s); chunk /= 2)
    {
        for (uint64_t first = 0; first < count && !out_of_budget(s); first += chunk)
        {
            uint64_t end = first + chunk < count ? first + chunk : count;
            bool trivial = true;
            for (uint64_t i = first; i < end && trivial; ++i)
                trivial = !memcmp((unsigned char *)current->values + i * element, identity, element);
            if (trivial)
                continue;
            runner_candidate next;
            if (runner_candidate_copy(current, &next))
                break;
            memcpy(run, offsets + first, (size_t)(end - first) * sizeof(*run));
            qsort(run, (size_t)(end - first), sizeof(*run), compare_offsets);
            for (uint64_t i = 0; i < count; ++i)
            {
                if (bsearch(&offsets[i], run, (size_t)(end - first), sizeof(*run), compare_offsets))
                    memcpy((unsigned char *)next.values + i * element, identity, element);
            }
            try_candidate(s, current, &next);
        }
        if (chunk == 1)
            break;
    }
    free(run);
    free(offsets);
}

static bool has_own_tolerance(const dmlconf_case *model)
{
    for (unsigned f = 0; f < DMLCONF_TOLERANCE_FIELD_COUNT; ++f)
    {
        if (model->tolerance.overrides.set[f])
            return true;
    }
    return false;
}

int runner_shrink_case(const runner_shrink_options *options, const runner_candidate *start, runner_shrunk *out)
{
    shrinker s;
    memset(&s, 0, sizeof(s));
    memset(out, 0, sizeof(*out));
    s.options = options;
    s.deadline = dmlconf_clock_seconds() + options->max_seconds;
    s.keep_type = has_own_tolerance(options->model);
    runner_candidate current;
    if (runner_candidate_copy(start, &current))
        return -1;
    if (!still_fails(&s, &current))
    {
        /* Not reproduced (a flake, a failure of the batch it ran in, or of
         * what the candidate leaves out: its expected values). */
        out->candidate = current;
        out->tries = s.tries;
        return 0;
    }
    out->reproduced = true;
    bool progress = true;
    while (progress && !out_of_budget(&s))
    {
        progress = false;
        for (uint32_t d = 0; d < current.desc.input.dimension_count; ++d)
            progress |= shrink_dimension(&s, &current, d);
        progress |= shrink_rank(&s, &current);
        progress |= shrink_layout(&s, &current);
        progress |= shrink_mode(&s, &current);
        if (!s.keep_type)
            progress |= shrink_type(&s, &current);
    }
    shrink_values(&s, &current);
    if (shrink_positions(&s, &current))
        shrink_values(&s, &current);
    out->candidate = current;
    out->result = s.last;
    out->tries = s.tries;
    return 0;
}
