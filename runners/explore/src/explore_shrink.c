/*
 * Shrinking the failures `dmlconf explore` finds, keeping the layout where
 * it matters: each step is a smaller or simpler candidate (a shorter axis,
 * smaller other dimensions, a lower rank, no padding, no permutation, no
 * broadcast, out of place, increasing, inclusive, identity values), kept
 * when it still fails the same way on the backend, judged by
 * runner_execute exactly as a run judges it. The layout is a recipe
 * (explore_layout) rather than strides, so that a candidate with other
 * sizes keeps its padding, permutation and broadcast dimensions; slicing
 * the logical values keeps elements that share storage equal. Reproducers
 * are written by the case writer.
 */
#define _POSIX_C_SOURCE 200809L

#include "explore_internal.h"

#include <dmlconf/case_writer.h>
#include <dmlconf/clock.h>
#include <dmlconf/comparator.h>
#include <dmlconf/file_system.h>
#include <dmlconf/values.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct shrinker
{
    const explore_shrink_options *options;
    char want[64]; /* "status.kind" of the failure to keep */
    int tries;
    double deadline;
    dmlconf_case_result last; /* the result of the last candidate that still failed */
} shrinker;

/* The first two words of a signature: the status and what failed. */
static void signature_head(const char *signature, char *out, size_t size)
{
    snprintf(out, size, "%s", signature);
    char *dot = strchr(out, '.');
    if (dot)
        dot = strchr(dot + 1, '.');
    if (dot)
        *dot = '\0';
}

static bool out_of_budget(const shrinker *s)
{
    return s->tries >= s->options->max_tries || dmlconf_clock_seconds() > s->deadline;
}

/* Runs a candidate; true when it still fails the same way. */
static bool still_fails(shrinker *s, const explore_spec *candidate)
{
    if (out_of_budget(s))
        return false;
    dmlconf_validation validation;
    if (!dmlconf_validate(&candidate->desc, candidate->level, &validation))
        return false;
    s->tries++;
    dmlconf_case c;
    if (explore_case_from_spec(candidate, "explore.shrink", "(explore)", &c))
        return false;
    const dmlconf_case *cases[1] = {&c};
    dmlconf_case_result *result = malloc(sizeof(*result));
    bool fails = false;
    if (result)
    {
        runner_execute(s->options->backend, s->options->config, cases, 1, result);
        char signature[128], head[64];
        explore_signature(candidate, result, signature, sizeof(signature));
        signature_head(signature, head, sizeof(head));
        fails = !strcmp(head, s->want);
        if (fails)
            s->last = *result;
        free(result);
    }
    explore_case_release(&c);
    return fails;
}

static size_t element_size(const explore_spec *spec)
{
    return dmlconf_data_type_bits(spec->desc.input.data_type) / 8;
}

/* Takes `next` as the current candidate. */
static void accept(explore_spec *current, explore_spec *next)
{
    explore_spec_free(current);
    *current = *next;
    memset(next, 0, sizeof(*next));
}

/* Tries `next` (consumed): kept when it still fails. */
static bool try_candidate(shrinker *s, explore_spec *current, explore_spec *next)
{
    if (explore_layout_apply(&next->layout, &next->desc) && still_fails(s, next))
    {
        accept(current, next);
        return true;
    }
    explore_spec_free(next);
    return false;
}

/* A candidate holding the sub-tensor [start[d], start[d] + sizes[d]) of
 * `from`. Returns false when memory runs out. */
static bool slice(const explore_spec *from, const uint32_t *start, const uint32_t *sizes, explore_spec *out)
{
    *out = *from;
    out->values = NULL;
    uint32_t rank = from->desc.input.dimension_count;
    for (uint32_t d = 0; d < rank; ++d)
        out->desc.input.sizes[d] = out->desc.output.sizes[d] = sizes[d];
    out->count = dmlconf_tensor_element_count(&out->desc.input);
    size_t element = element_size(from);
    out->values = malloc((size_t)out->count * element);
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
static uint32_t focus_of(const shrinker *s, const explore_spec *current, uint32_t d)
{
    const dmlconf_comparison *c = &s->last.comparison;
    if (!c->has_first || c->first.dimension_count != current->desc.input.dimension_count)
        return 0;
    return c->first.coordinates[d] < current->desc.input.sizes[d] ? c->first.coordinates[d] : 0;
}

/* Shorter ranges of one dimension: along the axis the prefix (in scan
 * order) that ends at the first mismatch, elsewhere the mismatch's single
 * index; then halves and the length less one. */
static bool shrink_dimension(shrinker *s, explore_spec *current, uint32_t d)
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
            explore_spec next;
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
static void drop_from_layout(explore_tensor_layout *t, uint32_t rank, uint32_t d)
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
static bool shrink_rank(shrinker *s, explore_spec *current)
{
    bool progress = false;
    uint32_t minimum = current->level < DMLCONF_FEATURE_LEVEL_4_0 ? 4 : 1;
    for (uint32_t d = current->desc.input.dimension_count; d-- > 0;)
    {
        uint32_t rank = current->desc.input.dimension_count;
        if (rank <= minimum || d >= rank || d == current->desc.axis || current->desc.input.sizes[d] != 1 ||
            out_of_budget(s))
            continue;
        explore_spec next;
        if (explore_spec_copy(current, &next))
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
static bool shrink_layout(shrinker *s, explore_spec *current)
{
    bool progress = false;
    for (unsigned step = 0; step < 9 && !out_of_budget(s); ++step)
    {
        explore_spec next;
        if (explore_spec_copy(current, &next))
            return progress;
        explore_layout *l = &next.layout;
        explore_tensor_layout *t = step % 2 ? &l->output : &l->input;
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
            explore_spec_free(&next);
    }
    return progress;
}

/* An increasing scan of the reversed values, and an inclusive scan. */
static bool shrink_mode(shrinker *s, explore_spec *current)
{
    bool progress = false;
    if (current->desc.direction == DMLCONF_AXIS_DIRECTION_DECREASING && !out_of_budget(s))
    {
        explore_spec next;
        uint32_t rank = current->desc.input.dimension_count, axis = current->desc.axis;
        if (explore_spec_copy(current, &next))
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
        explore_spec next;
        if (explore_spec_copy(current, &next))
            return progress;
        next.desc.exclusive = false;
        progress |= try_candidate(s, current, &next);
    }
    return progress;
}

/* Removes single positions of the axis, one at a time (after the values
 * have been simplified, the elements that do not matter go). */
static bool shrink_positions(shrinker *s, explore_spec *current)
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
        explore_spec next;
        if (explore_spec_copy(current, &next))
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

/* The case in a simpler type (int32; float16 as float32) and as a sum
 * rather than a product, where it still fails: failures of any type or
 * operator shrink to the same form, those of one type or operator keep
 * theirs. Floats become int32 by truncation toward zero (NaN and
 * infinities as 0); 64-bit integers keep their low 32 bits. */
static bool shrink_type(shrinker *s, explore_spec *current)
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
        explore_spec next = *current;
        next.values = NULL;
        if (step == 2)
        {
            if (explore_spec_copy(current, &next))
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
            uint32_t bits = 0;
            if (type == DMLCONF_DATA_TYPE_FLOAT16)
            {
                float value = dmlconf_half_to_float((uint16_t)(p[0] | p[1] << 8));
                if (to == DMLCONF_DATA_TYPE_FLOAT32)
                    memcpy(&bits, &value, 4);
                else
                    bits = value == value && value < 2147483648.0f && value > -2147483648.0f ? (uint32_t)(int32_t)value
                                                                                             : 0u;
            }
            else if (type == DMLCONF_DATA_TYPE_FLOAT32)
            {
                float value;
                memcpy(&value, p, 4);
                bits =
                    value == value && value < 2147483648.0f && value > -2147483648.0f ? (uint32_t)(int32_t)value : 0u;
            }
            else
                bits = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
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
static void shrink_values(shrinker *s, explore_spec *current)
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
            explore_spec next;
            if (explore_spec_copy(current, &next))
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

int explore_shrink(const explore_shrink_options *options, const explore_spec *spec, const char *signature,
                   explore_shrunk *out)
{
    shrinker s;
    memset(&s, 0, sizeof(s));
    memset(out, 0, sizeof(*out));
    s.options = options;
    s.deadline = dmlconf_clock_seconds() + options->max_seconds;
    signature_head(signature, s.want, sizeof(s.want));
    explore_spec current;
    if (explore_spec_copy(spec, &current))
        return -1;
    if (!still_fails(&s, &current))
    {
        /* Not reproduced (a flake, or a failure of the batch it ran in). */
        out->spec = current;
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
        progress |= shrink_type(&s, &current);
    }
    shrink_values(&s, &current);
    if (shrink_positions(&s, &current))
        shrink_values(&s, &current);
    out->spec = current;
    out->result = s.last;
    out->tries = s.tries;
    return 0;
}

void explore_shrunk_key(const explore_spec *spec, const dmlconf_case_result *result, char *out, size_t size)
{
    char signature[128];
    explore_signature(spec, result, signature, sizeof(signature));
    /* The status and what failed, then the shape. */
    char *dot = strchr(signature, '.');
    if (dot)
        dot = strchr(dot + 1, '.');
    if (dot)
        *dot = '\0';
    const dmlconf_scan_desc *desc = &spec->desc;
    char type[16];
    snprintf(type, sizeof(type), "%s", dmlconf_data_type_name(desc->input.data_type));
    int used = snprintf(out, size, "%s %s %s r%u n%u axis%u %s %s %s", signature, type,
                        desc->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? "product" : "sum",
                        (unsigned)desc->input.dimension_count, (unsigned)desc->input.sizes[desc->axis],
                        (unsigned)desc->axis, explore_layout_name(explore_layout_class_of(desc)),
                        desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING ? "decreasing" : "increasing",
                        desc->exclusive ? "exclusive" : "inclusive");
    (void)used;
}

int explore_write_repro(const char *path, const explore_spec *spec, const char *id,
                        const explore_repro_context *context, char *why, size_t why_size)
{
    const explore_finding *finding = context->finding;
    char folder[1024];
    snprintf(folder, sizeof(folder), "%s", path);
    char *slash = strrchr(folder, '/');
    if (slash)
    {
        *slash = '\0';
        if (dmlconf_make_folders(folder, why, why_size))
            return -1;
    }
    char cell_name[128] = "none (an invalid desc)";
    explore_cell cell;
    explore_boundaries none = {NULL, 0};
    if (!finding->first.negative && explore_cell_of(&finding->first.desc, &none, &cell))
        explore_cell_name(&cell, cell_name, sizeof(cell_name));
    dmlconf_case_text text = {0};
    dmlconf_case_write_comment(&text, "A finding of `dmlconf explore` on the %s backend: %s", context->backend,
                               finding->signature);
    dmlconf_case_write_comment(&text,
                               "First hit by case %llu of the run (index %llu, %.1f s in), in %s; %llu random case%s "
                               "of its round hit it (findings.md counts the whole run).",
                               (unsigned long long)finding->first_cases, (unsigned long long)finding->first.index,
                               finding->first_seconds, cell_name, (unsigned long long)finding->count,
                               finding->count == 1 ? "" : "s");
    dmlconf_case_write_comment(&text, "It said: %s", finding->first_message);
    dmlconf_case_write_comment(&text, "Regenerate that case, as it was drawn, with:");
    dmlconf_case_write_comment(&text, "  %s", context->regenerate);
    if (context->tries > 0)
        dmlconf_case_write_comment(
            &text, "Shrunk from %llu to %llu elements in %d runs on the backend; it still fails:",
            (unsigned long long)finding->first.count, (unsigned long long)spec->count, context->tries);
    else
        dmlconf_case_write_comment(&text, "Not shrunk (the case as it was drawn):");
    const dmlconf_case_result *result = context->result;
    dmlconf_case_write_comment(&text, "  %s", result ? result->message : finding->first_message);
    const dmlconf_comparison *comparison = result ? &result->comparison : &finding->first_comparison;
    for (uint32_t i = 0; i < comparison->sample_count && i < 4; ++i)
    {
        char mismatch[DMLCONF_MISMATCH_TEXT_SIZE];
        dmlconf_format_mismatch(spec->desc.output.data_type, &comparison->samples[i], mismatch, sizeof(mismatch));
        dmlconf_case_write_comment(&text, "  mismatch: %s", mismatch);
    }
    dmlconf_case_write_comment(&text, "Run it with: dmlconf run --backend %s %s%s", context->backend, path,
                               context->command ? context->command : "");
    dmlconf_case_text_appendf(&text, "cases:\n");
    if (explore_write_case(&text, spec, id, NULL))
    {
        snprintf(why, why_size, "cannot write %s: %s", path, text.failed ? "out of memory" : "not a case file");
        dmlconf_case_text_free(&text);
        return -1;
    }
    FILE *out = fopen(path, "w");
    bool written = out && fwrite(text.data, 1, text.length, out) == text.length;
    dmlconf_case_text_free(&text);
    if (!out || fclose(out) || !written)
    {
        snprintf(why, why_size, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
