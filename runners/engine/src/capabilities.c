/*
 * Whether a backend can execute a case, from the capabilities it declares
 * (backend.h): what is outside them is skipped with the reason and marked
 * unsupported, so the verdict can name what the run did not cover.
 */
#include <dmlconf/runner.h>

#include <stdio.h>

/* True when the tensor's strides are not its packed ones. */
static bool strided(const dmlconf_tensor_desc *t)
{
    if (!t->has_strides)
        return false;
    uint64_t packed = 1;
    for (uint32_t d = t->dimension_count; d-- > 0;)
    {
        if (t->sizes[d] > 1 && t->strides[d] != packed && t->strides[d] != 0)
            return true;
        packed *= t->sizes[d];
    }
    return false;
}

/* True when some dimension of more than one element has stride 0. */
static bool broadcast(const dmlconf_tensor_desc *t)
{
    if (!t->has_strides)
        return false;
    for (uint32_t d = 0; d < t->dimension_count; ++d)
    {
        if (t->sizes[d] > 1 && t->strides[d] == 0)
            return true;
    }
    return false;
}

bool runner_case_unsupported(const dmlconf_backend_info *info, const dmlconf_case *c, char *needs, size_t needs_size,
                             char *why, size_t why_size)
{
    const dmlconf_backend_capabilities *can = &info->capabilities;
    const dmlconf_scan_desc *desc = &c->desc;
    const char *lacks = NULL;
    char text[96], detail[64] = "";
    if (c->expect_error.set)
    {
        if (!(can->features & DMLCONF_CAN_VALIDATE))
            lacks = "validation";
    }
    else if (!(can->features &
               (desc->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? DMLCONF_CAN_PRODUCT : DMLCONF_CAN_SUMMATION)))
        lacks = desc->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? "cumulative products" : "cumulative sums";
    else if ((unsigned)desc->input.data_type >= 32 || !(can->data_types & DMLCONF_TYPE_BIT(desc->input.data_type)))
    {
        const char *name = dmlconf_data_type_name(desc->input.data_type);
        snprintf(text, sizeof(text), "%s", name ? name : "an unknown data type");
        lacks = text;
    }
    else if (desc->input.dimension_count < can->min_rank || desc->input.dimension_count > can->max_rank)
    {
        snprintf(text, sizeof(text), "%u-dimensional tensors", (unsigned)desc->input.dimension_count);
        snprintf(detail, sizeof(detail), " (it takes %u to %u dimensions)", (unsigned)can->min_rank,
                 (unsigned)can->max_rank);
        lacks = text;
    }
    else if (!(can->features & (desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING ? DMLCONF_CAN_DECREASING
                                                                                     : DMLCONF_CAN_INCREASING)))
        lacks = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING ? "the decreasing direction"
                                                                     : "the increasing direction";
    else if (!(can->features & (desc->exclusive ? DMLCONF_CAN_EXCLUSIVE : DMLCONF_CAN_INCLUSIVE)))
        lacks = desc->exclusive ? "exclusive scans" : "inclusive scans";
    else if (desc->in_place && !(can->features & DMLCONF_CAN_IN_PLACE))
        lacks = "in-place execution";
    else if (broadcast(&desc->input) && !(can->features & DMLCONF_CAN_BROADCAST))
        lacks = "broadcast inputs (a stride of 0)";
    else if ((strided(&desc->input) || strided(&desc->output)) && !(can->features & DMLCONF_CAN_STRIDES))
        lacks = "strided tensors";
    if (!lacks)
        return false;
    snprintf(needs, needs_size, "%s", lacks);
    if (c->expect_error.set)
        snprintf(why, why_size,
                 "the %s backend does not support validation: it refuses no desc, so it cannot be asked to refuse "
                 "this one",
                 info->backend);
    else
        snprintf(why, why_size, "the %s backend does not support %s%s", info->backend, lacks, detail);
    return true;
}

dmlconf_feature_level runner_target_level(dmlconf_feature_level asked, const dmlconf_backend_info *info)
{
    size_t count = 0;
    const dmlconf_feature_level *known = dmlconf_feature_levels(&count);
    if (asked != DMLCONF_FEATURE_LEVEL_NONE)
        return asked;
    if (info->feature_level != DMLCONF_FEATURE_LEVEL_NONE)
        return info->feature_level;
    return count ? known[count - 1] : DMLCONF_FEATURE_LEVEL_NONE;
}
