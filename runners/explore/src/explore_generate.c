/*
 * Generating random cases for `dmlconf explore`.
 *
 * Case i draws from its own random stream (the run's seed and i). It first
 * picks a target cell: the least exercised of a few allowed cells drawn at
 * random, so empty cells are preferred and the whole space fills evenly.
 * It then builds a desc in that cell: the axis length from the cell's size
 * class (1, small, powers of two and their neighbours, or at, below and
 * above a boundary the backend declares and its small multiples), the
 * other dimensions small or at a line-count boundary, within the size
 * budget, and a layout of the cell's class (padding, a permutation of the
 * stored order, broadcast dimensions stored compactly or with zero
 * strides, in-place execution). At the negative rate, the valid desc is
 * then broken in one way the validation rules name.
 */
#include "explore_internal.h"

#include <stdlib.h>
#include <string.h>

/* Changes whenever the sequence a seed gives changes (resume refuses a
 * state written by another generator). */
#define GENERATOR_VERSION 1u

/* Cells drawn per case; the least exercised is the target. */
#define STEERING_CANDIDATES 8u
/* Attempts at a desc that falls into the target cell. */
#define CELL_ATTEMPTS 8u

/* The target cell: the least exercised of a few allowed cells. */
static size_t choose_cell(const explore_generator *g, explore_random *r)
{
    const explore_coverage *coverage = g->coverage;
    size_t best = coverage->allowed_list[explore_random_below(r, coverage->allowed_count)];
    for (unsigned k = 1; k < STEERING_CANDIDATES; ++k)
    {
        size_t candidate = coverage->allowed_list[explore_random_below(r, coverage->allowed_count)];
        if (coverage->cells[candidate].generated < coverage->cells[best].generated)
            best = candidate;
    }
    return best;
}

static bool applies(const dmlconf_boundary *b, dmlconf_data_type type)
{
    return b->data_types == 0 || (b->data_types & DMLCONF_TYPE_BIT(type)) != 0;
}

/* A boundary of `kind` for `type` no larger than `limit`, at random; NULL
 * when there is none. */
static const dmlconf_boundary *pick_boundary(const explore_generator *g, explore_random *r, dmlconf_boundary_kind kind,
                                             dmlconf_data_type type, uint64_t limit)
{
    const dmlconf_boundary *chosen = NULL;
    uint64_t seen = 0;
    for (size_t i = 0; i < g->boundaries.count; ++i)
    {
        const dmlconf_boundary *b = &g->boundaries.items[i];
        if (b->kind != kind || b->value < 2 || !applies(b, type) || b->value > limit)
            continue;
        /* Reservoir sampling: each fitting boundary equally likely. */
        if (explore_random_below(r, ++seen) == 0)
            chosen = b;
    }
    return chosen;
}

/* An exponent k >= 3 with 2^k + 1 <= limit, mostly small: up to 6 for
 * six draws in ten, up to 10 for three, any for one. */
static unsigned pick_exponent(explore_random *r, uint64_t limit)
{
    unsigned most = 3;
    while (most < 30 && (UINT64_C(1) << (most + 1)) + 1 <= limit)
        ++most;
    uint64_t pick = explore_random_below(r, 10);
    unsigned upper = pick < 6 ? 6 : pick < 9 ? 10 : most;
    return (unsigned)explore_random_range(r, 3, upper < most ? upper : most);
}

/* The scanned axis's length for a size class, at most `limit`. */
static uint64_t axis_length(const explore_generator *g, explore_random *r, explore_size_class size_class,
                            dmlconf_data_type type, uint64_t limit)
{
    if (limit < 2)
        return 1;
    switch (size_class)
    {
    case EXPLORE_SIZE_ONE:
        return 1;
    case EXPLORE_SIZE_SMALL:
        return explore_random_range(r, 2, limit < 6 ? limit : 6);
    case EXPLORE_SIZE_POWER:
        if (limit < 8)
            break;
        return UINT64_C(1) << pick_exponent(r, limit);
    case EXPLORE_SIZE_NEAR_POWER:
        if (limit < 9)
            break;
        {
            uint64_t power = UINT64_C(1) << pick_exponent(r, limit);
            return explore_random_percent(r, 50) ? power - 1 : power + 1;
        }
    case EXPLORE_SIZE_BOUNDARY:
    {
        const dmlconf_boundary *b = pick_boundary(g, r, DMLCONF_BOUNDARY_AXIS_LENGTH, type, limit - 1);
        if (!b)
            break;
        uint64_t m = explore_random_range(r, 1, 4);
        while (m > 1 && m * b->value + 1 > limit)
            --m;
        return m * b->value - 1 + explore_random_below(r, 3);
    }
    default:
        break;
    }
    /* Other lengths: mostly up to a few hundred, now and then up to the
     * budget. */
    uint64_t upper = explore_random_percent(r, 90) && limit > 300 ? 300 : limit;
    return explore_random_range(r, upper >= 10 ? 10 : 2, upper);
}

/* The size of a dimension other than the axis that is wider than one. */
static uint32_t small_size(explore_random *r)
{
    uint64_t pick = explore_random_below(r, 100);
    if (pick < 45)
        return 2;
    if (pick < 70)
        return 3;
    if (pick < 90)
        return (uint32_t)explore_random_range(r, 4, 5);
    return (uint32_t)explore_random_range(r, 6, 9);
}

static uint64_t product_of(const uint32_t *sizes, uint32_t rank)
{
    uint64_t product = 1;
    for (uint32_t d = 0; d < rank; ++d)
        product *= sizes[d];
    return product;
}

/* The dimensions other than the axis: small, or (now and then) as many
 * lines as a line-count boundary, at most `budget` lines. */
static void other_sizes(const explore_generator *g, explore_random *r, dmlconf_tensor_desc *t, uint32_t axis,
                        uint64_t budget)
{
    uint32_t rank = t->dimension_count;
    /* Most dimensions other than the axis are 1; up to three are wider. */
    uint64_t pick = explore_random_below(r, 100);
    uint32_t wide = pick < 25 ? 0 : pick < 60 ? 1 : pick < 85 ? 2 : 3;
    for (uint32_t d = 0; d < rank; ++d)
        t->sizes[d] = d == axis ? t->sizes[d] : 1;
    for (uint32_t k = 0; k < wide && rank > 1; ++k)
    {
        uint32_t d = (uint32_t)explore_random_below(r, rank - 1);
        d += d >= axis;
        t->sizes[d] = small_size(r);
    }
    const dmlconf_boundary *b = NULL;
    if (rank > 1 && explore_random_percent(r, 15))
        b = pick_boundary(g, r, DMLCONF_BOUNDARY_LINE_COUNT, t->data_type, budget - 1);
    if (b)
    {
        uint32_t lines = (uint32_t)(b->value - 1 + explore_random_below(r, 3));
        uint32_t d = (uint32_t)explore_random_below(r, rank - 1);
        d += d >= axis;
        for (uint32_t k = 0; k < rank; ++k)
        {
            if (k != axis)
                t->sizes[k] = k == d ? lines : 1;
        }
    }
    /* Halve the largest other dimension until the lines fit. */
    while (product_of(t->sizes, rank) / t->sizes[axis] > budget)
    {
        uint32_t largest = axis == 0 ? 1 : 0;
        for (uint32_t d = 0; d < rank; ++d)
        {
            if (d != axis && t->sizes[d] > t->sizes[largest])
                largest = d;
        }
        t->sizes[largest] /= 2;
    }
}

/* Dimensions of more than one element. */
static unsigned wide_dimensions(const dmlconf_tensor_desc *t)
{
    unsigned wide = 0;
    for (uint32_t d = 0; d < t->dimension_count; ++d)
        wide += t->sizes[d] > 1;
    return wide;
}

/* Makes at least `wanted` dimensions wider than one (other dimensions
 * first), keeping within the budget where it can. */
static void widen(dmlconf_tensor_desc *t, uint32_t axis, unsigned wanted, uint64_t budget)
{
    for (uint32_t d = 0; d < t->dimension_count && wide_dimensions(t) < wanted; ++d)
    {
        if (d == axis || t->sizes[d] > 1)
            continue;
        if (product_of(t->sizes, t->dimension_count) * 2 > budget && t->sizes[axis] > 2)
            t->sizes[axis] = (t->sizes[axis] + 1) / 2;
        t->sizes[d] = 2;
    }
}

/* The identity order, or a random one. */
static void random_order(explore_random *r, uint32_t rank, bool shuffle, uint8_t *order)
{
    for (uint32_t k = 0; k < rank; ++k)
        order[k] = (uint8_t)(rank - 1u - k); /* fastest first: the last dimension */
    for (uint32_t k = rank; shuffle && k-- > 1;)
    {
        uint32_t j = (uint32_t)explore_random_below(r, k + 1);
        uint8_t swap = order[k];
        order[k] = order[j];
        order[j] = swap;
    }
}

/* Random padding of a tensor's pitches: mostly none, a few elements, now
 * and then many. */
static void random_pads(explore_random *r, uint32_t rank, bool wanted, uint32_t *pad)
{
    memset(pad, 0, DMLCONF_MAX_DIMENSIONS * sizeof(*pad));
    if (!wanted)
        return;
    for (uint32_t k = 0; k < rank; ++k)
    {
        if (explore_random_percent(r, 40))
            pad[k] = explore_random_percent(r, 90) ? (uint32_t)explore_random_range(r, 1, 3)
                                                   : (uint32_t)explore_random_range(r, 4, 64);
    }
    if (explore_random_percent(r, 50))
        pad[explore_random_below(r, rank)] += 1;
}

/* A layout of the cell's class for the sizes in `desc`. */
static void random_layout(const explore_generator *g, explore_random *r, explore_layout_class layout_class,
                          const dmlconf_scan_desc *desc, runner_layout *out)
{
    uint32_t rank = desc->input.dimension_count;
    bool strides = (g->capabilities.features & DMLCONF_CAN_STRIDES) != 0;
    memset(out, 0, sizeof(*out));
    random_order(r, rank, false, out->input.order);
    random_order(r, rank, false, out->output.order);
    switch (layout_class)
    {
    case EXPLORE_LAYOUT_PACKED:
        break;
    case EXPLORE_LAYOUT_PADDED:
    case EXPLORE_LAYOUT_PERMUTED:
    {
        /* The input, the output, or both. */
        uint64_t which = explore_random_below(r, 3);
        bool permuted = layout_class == EXPLORE_LAYOUT_PERMUTED;
        runner_tensor_layout *tensors[2] = {&out->input, &out->output};
        for (unsigned t = 0; t < 2; ++t)
        {
            if (which != 2 && which != t)
                continue;
            tensors[t]->strided = true;
            random_order(r, rank, permuted, tensors[t]->order);
            random_pads(r, rank, !permuted || explore_random_percent(r, 30), tensors[t]->pad);
            if (!permuted && !tensors[t]->pad[0] && explore_random_percent(r, 50))
                tensors[t]->pad[explore_random_below(r, rank)] += 1;
        }
        break;
    }
    case EXPLORE_LAYOUT_BROADCAST:
    {
        out->input.strided = true;
        /* A random non-empty set of wide dimensions stored once. */
        uint8_t wide = 0;
        for (uint32_t d = 0; d < rank; ++d)
            wide = (uint8_t)(wide | (desc->input.sizes[d] > 1 ? 1u << d : 0u));
        while (wide && !out->input.broadcast)
        {
            for (uint32_t d = 0; d < rank; ++d)
            {
                if ((wide & (1u << d)) && explore_random_percent(r, 40))
                    out->input.broadcast = (uint8_t)(out->input.broadcast | (1u << d));
            }
        }
        if (strides)
        {
            out->input.compact = explore_random_percent(r, 50);
            random_order(r, rank, explore_random_percent(r, 20), out->input.order);
            random_pads(r, rank, explore_random_percent(r, 30), out->input.pad);
            uint64_t output = explore_random_below(r, 4);
            if (output >= 2)
            {
                out->output.strided = true;
                random_order(r, rank, output == 3, out->output.order);
                random_pads(r, rank, output == 2 || explore_random_percent(r, 30), out->output.pad);
            }
        }
        break;
    }
    case EXPLORE_LAYOUT_IN_PLACE:
    {
        out->in_place = true;
        uint64_t kind = strides ? explore_random_below(r, 3) : 0;
        if (kind)
        {
            out->input.strided = true;
            random_order(r, rank, kind == 2, out->input.order);
            random_pads(r, rank, kind == 1 || explore_random_percent(r, 30), out->input.pad);
        }
        out->output = out->input;
        break;
    }
    default:
        break;
    }
}

/* A desc in the target cell (or close to it, when the budget or the
 * backend keeps it out). */
static void build_desc(const explore_generator *g, explore_random *r, const explore_cell *cell, explore_spec *out)
{
    dmlconf_scan_desc *desc = &out->desc;
    memset(desc, 0, sizeof(*desc));
    dmlconf_data_type type = explore_type_at(cell->type);
    uint32_t rank = cell->rank;
    desc->op = cell->product ? DMLCONF_OPERATOR_CUMULATIVE_PRODUCT : DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    desc->direction = cell->decreasing ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING;
    desc->exclusive = cell->exclusive;
    switch (cell->axis_position)
    {
    case EXPLORE_AXIS_FIRST:
        desc->axis = 0;
        break;
    case EXPLORE_AXIS_MIDDLE:
        desc->axis = (uint32_t)explore_random_range(r, 1, rank - 2);
        break;
    case EXPLORE_AXIS_LAST:
        desc->axis = rank - 1;
        break;
    default:
        desc->axis = 0;
        break;
    }
    dmlconf_tensor_desc *in = &desc->input;
    in->data_type = type;
    in->dimension_count = rank;
    uint64_t budget = g->options.max_elements;
    in->sizes[desc->axis] = (uint32_t)axis_length(g, r, (explore_size_class)cell->size_class, type, budget);
    other_sizes(g, r, in, desc->axis, budget / in->sizes[desc->axis] ? budget / in->sizes[desc->axis] : 1);
    switch (cell->layout)
    {
    case EXPLORE_LAYOUT_PERMUTED:
        widen(in, desc->axis, 2, budget);
        break;
    case EXPLORE_LAYOUT_PADDED:
    case EXPLORE_LAYOUT_BROADCAST:
        widen(in, desc->axis, 1, budget);
        break;
    default:
        break;
    }
    desc->output = *in;
    random_layout(g, r, (explore_layout_class)cell->layout, desc, &out->layout);
    if (!runner_layout_apply(&out->layout, desc))
    {
        memset(&out->layout, 0, sizeof(out->layout));
        runner_layout_apply(&out->layout, desc);
    }
}

/* Breaks a valid desc in one of the ways the validation rules name. Returns
 * true with spec->reason set when the desc is now invalid at the level. */
static bool break_desc(const explore_generator *g, explore_random *r, explore_spec *spec)
{
    dmlconf_scan_desc *desc = &spec->desc;
    dmlconf_tensor_desc *in = &desc->input, *out = &desc->output;
    dmlconf_feature_level level = g->options.level;
    static const dmlconf_data_type unsupported[] = {DMLCONF_DATA_TYPE_UINT16, DMLCONF_DATA_TYPE_INT16,
                                                    DMLCONF_DATA_TYPE_UINT8, DMLCONF_DATA_TYPE_INT8,
                                                    DMLCONF_DATA_TYPE_FLOAT64};
    uint32_t rank = in->dimension_count;
    uint32_t d = (uint32_t)explore_random_below(r, rank);
    switch (explore_random_below(r, 13))
    {
    case 0:
        desc->axis = rank + (uint32_t)explore_random_below(r, 3);
        break;
    case 1:
        out->dimension_count =
            rank < DMLCONF_MAX_DIMENSIONS && (rank == 1 || explore_random_percent(r, 50)) ? rank + 1 : rank - 1;
        out->sizes[rank < DMLCONF_MAX_DIMENSIONS ? rank : 0] = 1;
        break;
    case 2:
        out->sizes[d] += 1;
        break;
    case 3:
        out->data_type = explore_type_at(
            (explore_type_index(in->data_type) + 1 + (unsigned)explore_random_below(r, EXPLORE_TYPE_COUNT - 1)) %
            EXPLORE_TYPE_COUNT);
        break;
    case 4:
        in->data_type = out->data_type = unsupported[explore_random_below(r, 5)];
        break;
    case 5:
        (explore_random_percent(r, 50) ? in : out)->sizes[d] = 0;
        break;
    case 6:
        /* More than 2^32 - 1 elements (one dimension cannot hold them). */
        if (rank < 2)
            return false;
        in->sizes[d] = out->sizes[d] = 65536;
        in->sizes[(d + 1) % rank] = out->sizes[(d + 1) % rank] = 65536;
        in->has_strides = out->has_strides = false;
        desc->in_place = false;
        break;
    case 7:
    {
        /* A stride that makes the minimum buffer size overflow 64 bits. */
        dmlconf_tensor_desc *t = explore_random_percent(r, 50) ? in : out;
        for (uint32_t k = 0; k < rank; ++k)
            in->sizes[k] = out->sizes[k] = 1;
        in->sizes[d] = out->sizes[d] = UINT32_MAX;
        in->has_strides = out->has_strides = false;
        desc->in_place = false;
        t->has_strides = true;
        memset(t->strides, 0, sizeof(t->strides));
        t->strides[d] = UINT32_MAX;
        break;
    }
    case 8:
    {
        /* In place, with an output laid out differently. */
        desc->in_place = true;
        runner_tensor_layout padded = spec->layout.input;
        padded.strided = true;
        padded.broadcast = 0;
        random_order(r, rank, false, padded.order);
        random_pads(r, rank, true, padded.pad);
        padded.pad[rank - 1] += 1;
        runner_layout layout = {.input = spec->layout.input, .output = padded};
        layout.input.broadcast = 0;
        dmlconf_scan_desc apart = *desc;
        if (!runner_layout_apply(&layout, &apart))
            return false;
        *desc = apart;
        desc->in_place = true;
        break;
    }
    case 9:
        if (level >= DMLCONF_FEATURE_LEVEL_4_0)
            return false;
        in->dimension_count = out->dimension_count = rank == 4 ? 3 : rank;
        break;
    case 10:
        if (level >= DMLCONF_FEATURE_LEVEL_5_0)
            return false;
        in->data_type = out->data_type =
            explore_random_percent(r, 50) ? DMLCONF_DATA_TYPE_INT64 : DMLCONF_DATA_TYPE_UINT64;
        break;
    case 11:
        if (level >= DMLCONF_FEATURE_LEVEL_3_1)
            return false;
        desc->op = DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
        break;
    default:
        in->dimension_count = out->dimension_count = 0;
        break;
    }
    dmlconf_validation validation;
    if (dmlconf_validate(desc, level, &validation))
        return false;
    spec->negative = true;
    spec->reason = validation.reason;
    return true;
}

bool explore_spec_cell(const explore_generator *g, const explore_spec *spec, size_t *cell)
{
    explore_cell c;
    if (spec->negative || !explore_cell_of(&spec->desc, &g->boundaries, &c))
        return false;
    *cell = explore_cell_index(&c);
    return true;
}

int explore_generate(explore_generator *g, uint64_t index, explore_spec *out)
{
    explore_random r;
    explore_random_seed(&r, g->options.seed, index);
    memset(out, 0, sizeof(*out));
    out->index = index;
    out->level = g->options.level;
    explore_coverage *coverage = g->coverage;
    bool negative = (g->capabilities.features & DMLCONF_CAN_VALIDATE) && g->options.negative_percent &&
                    explore_random_percent(&r, g->options.negative_percent);
    size_t target = choose_cell(g, &r);
    explore_cell cell = explore_cell_at(target);
    size_t got = target;
    for (unsigned attempt = 0; attempt < CELL_ATTEMPTS; ++attempt)
    {
        build_desc(g, &r, &cell, out);
        if (explore_spec_cell(g, out, &got) && got == target)
            break;
    }
    if (negative)
    {
        explore_spec valid = *out;
        for (unsigned attempt = 0; attempt < 4 && !out->negative; ++attempt)
        {
            *out = valid;
            break_desc(g, &r, out);
        }
        if (out->negative)
        {
            memset(&out->layout, 0, sizeof(out->layout));
            coverage->negative_generated[out->reason]++;
            return 0;
        }
        *out = valid;
    }
    if (explore_fill_values(out, &r))
        return -1;
    if (got < EXPLORE_CELL_COUNT && explore_spec_cell(g, out, &got))
        coverage->cells[got].generated++;
    return 0;
}

/* FNV-1a over a value's bytes. */
static uint64_t hash_bytes(uint64_t hash, const void *data, size_t size)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < size; ++i)
        hash = (hash ^ p[i]) * UINT64_C(0x100000001b3);
    return hash;
}

static uint64_t hash_number(uint64_t hash, uint64_t value)
{
    unsigned char bytes[8];
    for (unsigned i = 0; i < 8; ++i)
        bytes[i] = (unsigned char)(value >> (8 * i));
    return hash_bytes(hash, bytes, sizeof(bytes));
}

uint64_t explore_generator_fingerprint(const explore_generator *g)
{
    uint64_t hash = UINT64_C(0xcbf29ce484222325);
    hash = hash_number(hash, GENERATOR_VERSION);
    hash = hash_number(hash, g->options.seed);
    hash = hash_number(hash, (uint64_t)g->options.level);
    hash = hash_number(hash, g->options.max_elements);
    hash = hash_number(hash, g->options.negative_percent);
    hash = hash_number(hash, g->capabilities.features);
    hash = hash_number(hash, g->capabilities.data_types);
    hash = hash_number(hash, g->capabilities.min_rank);
    hash = hash_number(hash, g->capabilities.max_rank);
    for (size_t i = 0; i < g->boundaries.count; ++i)
    {
        hash = hash_number(hash, (uint64_t)g->boundaries.items[i].kind);
        hash = hash_number(hash, g->boundaries.items[i].data_types);
        hash = hash_number(hash, g->boundaries.items[i].value);
    }
    return hash;
}
