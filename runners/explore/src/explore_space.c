/*
 * The desc space `dmlconf explore` covers, cut into cells: data type x
 * operator x rank x axis position x direction x mode x layout class x
 * size class of the scanned axis. A desc's cell is computed from the desc
 * alone (and the backend's declared boundaries, for the size class), so the
 * corpus's cases can be placed in the same cells as the generated ones.
 */
#include "explore_internal.h"

#include <stdio.h>
#include <string.h>

static const dmlconf_data_type cell_types[EXPLORE_TYPE_COUNT] = {
    DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_FLOAT16, DMLCONF_DATA_TYPE_INT32,
    DMLCONF_DATA_TYPE_UINT32,  DMLCONF_DATA_TYPE_INT64,   DMLCONF_DATA_TYPE_UINT64,
};

dmlconf_data_type explore_type_at(unsigned index)
{
    return index < EXPLORE_TYPE_COUNT ? cell_types[index] : DMLCONF_DATA_TYPE_UNKNOWN;
}

unsigned explore_type_index(dmlconf_data_type type)
{
    for (unsigned i = 0; i < EXPLORE_TYPE_COUNT; ++i)
    {
        if (cell_types[i] == type)
            return i;
    }
    return EXPLORE_TYPE_COUNT;
}

size_t explore_cell_index(const explore_cell *cell)
{
    size_t index = cell->type;
    index = index * 2u + cell->product;
    index = index * DMLCONF_MAX_DIMENSIONS + (cell->rank - 1u);
    index = index * EXPLORE_AXIS_POSITION_COUNT + cell->axis_position;
    index = index * 2u + cell->decreasing;
    index = index * 2u + cell->exclusive;
    index = index * EXPLORE_LAYOUT_COUNT + cell->layout;
    return index * EXPLORE_SIZE_CLASS_COUNT + cell->size_class;
}

explore_cell explore_cell_at(size_t index)
{
    explore_cell cell;
    cell.size_class = (uint8_t)(index % EXPLORE_SIZE_CLASS_COUNT);
    index /= EXPLORE_SIZE_CLASS_COUNT;
    cell.layout = (uint8_t)(index % EXPLORE_LAYOUT_COUNT);
    index /= EXPLORE_LAYOUT_COUNT;
    cell.exclusive = (uint8_t)(index % 2u);
    index /= 2u;
    cell.decreasing = (uint8_t)(index % 2u);
    index /= 2u;
    cell.axis_position = (uint8_t)(index % EXPLORE_AXIS_POSITION_COUNT);
    index /= EXPLORE_AXIS_POSITION_COUNT;
    cell.rank = (uint8_t)(index % DMLCONF_MAX_DIMENSIONS + 1u);
    index /= DMLCONF_MAX_DIMENSIONS;
    cell.product = (uint8_t)(index % 2u);
    cell.type = (uint8_t)(index / 2u);
    return cell;
}

bool explore_cell_exists(const explore_cell *cell)
{
    if (cell->type >= EXPLORE_TYPE_COUNT || cell->rank < 1 || cell->rank > DMLCONF_MAX_DIMENSIONS)
        return false;
    switch (cell->axis_position)
    {
    case EXPLORE_AXIS_ONLY:
        if (cell->rank != 1)
            return false;
        break;
    case EXPLORE_AXIS_MIDDLE:
        if (cell->rank < 3)
            return false;
        break;
    default:
        if (cell->rank < 2)
            return false;
        break;
    }
    /* Dimensions of more than one element the layout can act on. */
    unsigned wide = (cell->size_class == EXPLORE_SIZE_ONE ? 0u : 1u) + (cell->rank - 1u);
    if (cell->layout == EXPLORE_LAYOUT_PERMUTED && wide < 2)
        return false;
    if ((cell->layout == EXPLORE_LAYOUT_PADDED || cell->layout == EXPLORE_LAYOUT_BROADCAST) && wide < 1)
        return false;
    return true;
}

const char *explore_axis_position_name(explore_axis_position position)
{
    static const char *const names[EXPLORE_AXIS_POSITION_COUNT] = {"only", "first", "middle", "last"};
    return (unsigned)position < EXPLORE_AXIS_POSITION_COUNT ? names[position] : "?";
}

const char *explore_layout_name(explore_layout_class layout)
{
    static const char *const names[EXPLORE_LAYOUT_COUNT] = {"packed", "padded", "permuted", "broadcast", "in-place"};
    return (unsigned)layout < EXPLORE_LAYOUT_COUNT ? names[layout] : "?";
}

const char *explore_size_class_name(explore_size_class size_class)
{
    static const char *const names[EXPLORE_SIZE_CLASS_COUNT] = {"one",      "small",    "power-of-2",
                                                                "near-2^k", "boundary", "other"};
    return (unsigned)size_class < EXPLORE_SIZE_CLASS_COUNT ? names[size_class] : "?";
}

void explore_cell_name(const explore_cell *cell, char *out, size_t size)
{
    static const char *const size_words[EXPLORE_SIZE_CLASS_COUNT] = {"one",   "small",    "pow2",
                                                                     "pow2n", "boundary", "other"};
    snprintf(out, size, "explore.%s.%s.r%u.%s.%s.%s.%s.%s", dmlconf_data_type_lower_name(explore_type_at(cell->type)),
             cell->product ? "prod" : "sum", (unsigned)cell->rank,
             explore_axis_position_name((explore_axis_position)cell->axis_position), cell->decreasing ? "dec" : "inc",
             cell->exclusive ? "excl" : "incl", explore_layout_name((explore_layout_class)cell->layout),
             cell->size_class < EXPLORE_SIZE_CLASS_COUNT ? size_words[cell->size_class] : "?");
}

/* Whether the boundary applies to `type`. */
static bool applies(const dmlconf_boundary *boundary, dmlconf_data_type type)
{
    return boundary->data_types == 0 || (boundary->data_types & DMLCONF_TYPE_BIT(type)) != 0;
}

bool explore_near_boundary(const explore_boundaries *boundaries, dmlconf_data_type type, uint64_t n)
{
    for (size_t i = 0; boundaries && i < boundaries->count; ++i)
    {
        const dmlconf_boundary *b = &boundaries->items[i];
        if (b->kind != DMLCONF_BOUNDARY_AXIS_LENGTH || b->value < 2 || !applies(b, type))
            continue;
        for (uint64_t m = 1; m <= 4; ++m)
        {
            uint64_t at = m * b->value;
            if (n + 1 >= at && n <= at + 1)
                return true;
        }
    }
    return false;
}

static bool is_power_of_two(uint64_t n)
{
    return n && !(n & (n - 1));
}

explore_size_class explore_size_class_of(const explore_boundaries *boundaries, dmlconf_data_type type, uint64_t n)
{
    if (n == 1)
        return EXPLORE_SIZE_ONE;
    if (explore_near_boundary(boundaries, type, n))
        return EXPLORE_SIZE_BOUNDARY;
    if (n >= 8 && is_power_of_two(n))
        return EXPLORE_SIZE_POWER;
    if (n >= 7 && (is_power_of_two(n + 1) || is_power_of_two(n - 1)))
        return EXPLORE_SIZE_NEAR_POWER;
    if (n <= 6)
        return EXPLORE_SIZE_SMALL;
    return EXPLORE_SIZE_OTHER;
}

/* Whether a dimension of the tensor is stored with a stride of 0. */
static bool has_broadcast(const dmlconf_tensor_desc *t)
{
    for (uint32_t d = 0; t->has_strides && d < t->dimension_count; ++d)
    {
        if (t->sizes[d] > 1 && t->strides[d] == 0)
            return true;
    }
    return false;
}

/* Whether the stored dimensions (more than one element, stride not 0) are
 * not in row-major order: a slower dimension with a smaller stride. */
static bool is_permuted(const dmlconf_tensor_desc *t)
{
    uint64_t previous = UINT64_MAX;
    for (uint32_t d = 0; t->has_strides && d < t->dimension_count; ++d)
    {
        if (t->sizes[d] <= 1 || t->strides[d] == 0)
            continue;
        if (t->strides[d] > previous)
            return true;
        previous = t->strides[d];
    }
    return false;
}

/* Whether a stored dimension's stride differs from its packed one. */
static bool is_padded(const dmlconf_tensor_desc *t)
{
    uint64_t packed = 1;
    for (uint32_t d = t->dimension_count; t->has_strides && d-- > 0;)
    {
        if (t->sizes[d] > 1 && t->strides[d] != 0 && t->strides[d] != packed)
            return true;
        packed *= t->sizes[d];
    }
    return false;
}

explore_layout_class explore_layout_class_of(const dmlconf_scan_desc *desc)
{
    if (desc->in_place)
        return EXPLORE_LAYOUT_IN_PLACE;
    if (has_broadcast(&desc->input))
        return EXPLORE_LAYOUT_BROADCAST;
    if (is_permuted(&desc->input) || is_permuted(&desc->output))
        return EXPLORE_LAYOUT_PERMUTED;
    if (is_padded(&desc->input) || is_padded(&desc->output))
        return EXPLORE_LAYOUT_PADDED;
    return EXPLORE_LAYOUT_PACKED;
}

bool explore_cell_of(const dmlconf_scan_desc *desc, const explore_boundaries *boundaries, explore_cell *out)
{
    unsigned type = explore_type_index(desc->input.data_type);
    uint32_t rank = desc->input.dimension_count;
    if (type >= EXPLORE_TYPE_COUNT || rank < 1 || rank > DMLCONF_MAX_DIMENSIONS || desc->axis >= rank ||
        (desc->op != DMLCONF_OPERATOR_CUMULATIVE_SUMMATION && desc->op != DMLCONF_OPERATOR_CUMULATIVE_PRODUCT))
        return false;
    memset(out, 0, sizeof(*out));
    out->type = (uint8_t)type;
    out->product = desc->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    out->rank = (uint8_t)rank;
    out->axis_position = rank == 1                 ? EXPLORE_AXIS_ONLY
                         : desc->axis == 0         ? EXPLORE_AXIS_FIRST
                         : desc->axis + 1u == rank ? EXPLORE_AXIS_LAST
                                                   : EXPLORE_AXIS_MIDDLE;
    out->decreasing = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING;
    out->exclusive = desc->exclusive;
    out->layout = (uint8_t)explore_layout_class_of(desc);
    out->size_class = (uint8_t)explore_size_class_of(boundaries, desc->input.data_type, desc->input.sizes[desc->axis]);
    return true;
}

dmlconf_feature_level explore_cell_min_level(const explore_cell *cell)
{
    dmlconf_feature_level level = cell->product ? DMLCONF_FEATURE_LEVEL_3_1 : DMLCONF_FEATURE_LEVEL_2_1;
    if (cell->rank != 4 && level < DMLCONF_FEATURE_LEVEL_4_0)
        level = DMLCONF_FEATURE_LEVEL_4_0;
    dmlconf_data_type type = explore_type_at(cell->type);
    if ((type == DMLCONF_DATA_TYPE_INT64 || type == DMLCONF_DATA_TYPE_UINT64) && level < DMLCONF_FEATURE_LEVEL_5_0)
        level = DMLCONF_FEATURE_LEVEL_5_0;
    return level;
}

/* Whether any axis-length boundary applies to `type`. */
static bool has_axis_boundary(const explore_boundaries *boundaries, dmlconf_data_type type)
{
    for (size_t i = 0; boundaries && i < boundaries->count; ++i)
    {
        const dmlconf_boundary *b = &boundaries->items[i];
        if (b->kind == DMLCONF_BOUNDARY_AXIS_LENGTH && b->value >= 2 && applies(b, type))
            return true;
    }
    return false;
}

bool explore_cell_allowed(const explore_cell *cell, dmlconf_feature_level level,
                          const dmlconf_backend_capabilities *capabilities, const explore_boundaries *boundaries)
{
    if (!explore_cell_exists(cell) || explore_cell_min_level(cell) > level)
        return false;
    dmlconf_data_type type = explore_type_at(cell->type);
    uint32_t features = capabilities->features;
    if (!(capabilities->data_types & DMLCONF_TYPE_BIT(type)) || cell->rank < capabilities->min_rank ||
        cell->rank > capabilities->max_rank)
        return false;
    if (!(features & (cell->product ? DMLCONF_CAN_PRODUCT : DMLCONF_CAN_SUMMATION)) ||
        !(features & (cell->decreasing ? DMLCONF_CAN_DECREASING : DMLCONF_CAN_INCREASING)) ||
        !(features & (cell->exclusive ? DMLCONF_CAN_EXCLUSIVE : DMLCONF_CAN_INCLUSIVE)))
        return false;
    switch (cell->layout)
    {
    case EXPLORE_LAYOUT_PADDED:
    case EXPLORE_LAYOUT_PERMUTED:
        if (!(features & DMLCONF_CAN_STRIDES))
            return false;
        break;
    case EXPLORE_LAYOUT_BROADCAST:
        if (!(features & DMLCONF_CAN_BROADCAST))
            return false;
        break;
    case EXPLORE_LAYOUT_IN_PLACE:
        if (!(features & DMLCONF_CAN_IN_PLACE))
            return false;
        break;
    default:
        break;
    }
    return cell->size_class != EXPLORE_SIZE_BOUNDARY || has_axis_boundary(boundaries, type);
}
