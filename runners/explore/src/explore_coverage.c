/*
 * The coverage record of `dmlconf explore`: per cell of the desc space,
 * how many cases were generated in it and what they came to; per reason,
 * the invalid descs. Printed as marginal tables (cells exercised over
 * cells allowed, per value of each dimension of the space) and written
 * whole as CSV.
 */
#include "explore_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int explore_coverage_init(explore_coverage *coverage, dmlconf_feature_level level,
                          const dmlconf_backend_capabilities *capabilities, const explore_boundaries *boundaries)
{
    memset(coverage, 0, sizeof(*coverage));
    coverage->cells = calloc(EXPLORE_CELL_COUNT, sizeof(*coverage->cells));
    coverage->allowed = calloc(EXPLORE_CELL_COUNT, sizeof(*coverage->allowed));
    coverage->allowed_list = calloc(EXPLORE_CELL_COUNT, sizeof(*coverage->allowed_list));
    if (!coverage->cells || !coverage->allowed || !coverage->allowed_list)
    {
        explore_coverage_free(coverage);
        return -1;
    }
    for (size_t i = 0; i < EXPLORE_CELL_COUNT; ++i)
    {
        explore_cell cell = explore_cell_at(i);
        coverage->allowed[i] = explore_cell_allowed(&cell, level, capabilities, boundaries);
        if (coverage->allowed[i])
            coverage->allowed_list[coverage->allowed_count++] = (uint32_t)i;
    }
    return 0;
}

void explore_coverage_free(explore_coverage *coverage)
{
    free(coverage->cells);
    free(coverage->allowed);
    free(coverage->allowed_list);
    memset(coverage, 0, sizeof(*coverage));
}

void explore_coverage_record(explore_coverage *coverage, size_t cell, bool negative, dmlconf_reason reason,
                             const dmlconf_case_result *result)
{
    unsigned status = (unsigned)result->status;
    if (status >= DMLCONF_STATUS_COUNT)
        return;
    if (negative)
    {
        if ((unsigned)reason < DMLCONF_REASON_COUNT)
            coverage->negative_statuses[reason][status]++;
        return;
    }
    if (cell >= EXPLORE_CELL_COUNT)
        return;
    explore_tally *tally = &coverage->cells[cell];
    tally->statuses[status]++;
    if (result->wall_seconds > 0.0)
        tally->wall_seconds += result->wall_seconds;
    if (result->backend_seconds > 0.0)
        tally->backend_seconds += result->backend_seconds;
}

/* The dimensions of the space, for the marginal tables. */
enum
{
    AXIS_TYPE,
    AXIS_OPERATOR,
    AXIS_RANK,
    AXIS_POSITION,
    AXIS_DIRECTION,
    AXIS_MODE,
    AXIS_LAYOUT,
    AXIS_SIZE,
    AXIS_COUNT
};

static unsigned value_count(unsigned axis)
{
    static const unsigned counts[AXIS_COUNT] = {
        EXPLORE_TYPE_COUNT,       2, DMLCONF_MAX_DIMENSIONS, EXPLORE_AXIS_POSITION_COUNT, 2, 2, EXPLORE_LAYOUT_COUNT,
        EXPLORE_SIZE_CLASS_COUNT,
    };
    return counts[axis];
}

static unsigned value_of(const explore_cell *cell, unsigned axis)
{
    switch (axis)
    {
    case AXIS_TYPE:
        return cell->type;
    case AXIS_OPERATOR:
        return cell->product;
    case AXIS_RANK:
        return cell->rank - 1u;
    case AXIS_POSITION:
        return cell->axis_position;
    case AXIS_DIRECTION:
        return cell->decreasing;
    case AXIS_MODE:
        return cell->exclusive;
    case AXIS_LAYOUT:
        return cell->layout;
    default:
        return cell->size_class;
    }
}

static void value_name(unsigned axis, unsigned value, char *out, size_t size)
{
    switch (axis)
    {
    case AXIS_TYPE:
        snprintf(out, size, "%s", dmlconf_data_type_lower_name(explore_type_at(value)));
        break;
    case AXIS_OPERATOR:
        snprintf(out, size, "%s", value ? "product" : "sum");
        break;
    case AXIS_RANK:
        snprintf(out, size, "%u", value + 1u);
        break;
    case AXIS_POSITION:
        snprintf(out, size, "%s", explore_axis_position_name((explore_axis_position)value));
        break;
    case AXIS_DIRECTION:
        snprintf(out, size, "%s", value ? "decreasing" : "increasing");
        break;
    case AXIS_MODE:
        snprintf(out, size, "%s", value ? "exclusive" : "inclusive");
        break;
    case AXIS_LAYOUT:
        snprintf(out, size, "%s", explore_layout_name((explore_layout_class)value));
        break;
    default:
        snprintf(out, size, "%s", explore_size_class_name((explore_size_class)value));
        break;
    }
}

/* The cell's cases that were judged: not those skipped (declined when
 * run) or not judged for lack of resources, which exercise nothing. */
static uint64_t judged(const explore_tally *tally)
{
    uint64_t total = 0;
    for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
    {
        if (s != DMLCONF_STATUS_SKIP && s != DMLCONF_STATUS_NO_RESOURCES)
            total += tally->statuses[s];
    }
    return total;
}

static uint64_t failing(const explore_tally *tally)
{
    uint64_t total = 0;
    for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
    {
        if (dmlconf_status_is_failure((dmlconf_status)s) || s == DMLCONF_STATUS_FLAKE)
            total += tally->statuses[s];
    }
    return total;
}

void explore_coverage_print(FILE *out, const explore_coverage *coverage)
{
    static const char *const axis_names[AXIS_COUNT] = {"data type", "operator", "rank",   "axis",
                                                       "direction", "mode",     "layout", "axis length"};
    uint64_t allowed[AXIS_COUNT][EXPLORE_TYPE_COUNT + DMLCONF_MAX_DIMENSIONS] = {{0}};
    uint64_t exercised[AXIS_COUNT][EXPLORE_TYPE_COUNT + DMLCONF_MAX_DIMENSIONS] = {{0}};
    uint64_t failed[AXIS_COUNT][EXPLORE_TYPE_COUNT + DMLCONF_MAX_DIMENSIONS] = {{0}};
    uint64_t cases = 0, cells_exercised = 0, cells_failed = 0;
    for (size_t k = 0; k < coverage->allowed_count; ++k)
    {
        size_t i = coverage->allowed_list[k];
        explore_cell cell = explore_cell_at(i);
        uint64_t n = judged(&coverage->cells[i]);
        bool bad = failing(&coverage->cells[i]) > 0;
        cases += n;
        cells_exercised += n > 0;
        cells_failed += bad;
        for (unsigned a = 0; a < AXIS_COUNT; ++a)
        {
            unsigned v = value_of(&cell, a);
            allowed[a][v]++;
            exercised[a][v] += n > 0;
            failed[a][v] += bad;
        }
    }
    fprintf(out, "coverage: %llu of the %zu cells allowed here exercised (%.1f%%) by %llu cases",
            (unsigned long long)cells_exercised, coverage->allowed_count,
            coverage->allowed_count ? 100.0 * (double)cells_exercised / (double)coverage->allowed_count : 0.0,
            (unsigned long long)cases);
    if (cells_failed)
        fprintf(out, "; %llu cells with failures", (unsigned long long)cells_failed);
    fprintf(out, "\n  cell = data type x operator x rank x axis position x direction x mode x layout x axis length "
                 "class; each entry: cells exercised/allowed\n");
    for (unsigned a = 0; a < AXIS_COUNT; ++a)
    {
        fprintf(out, "  %-12s", axis_names[a]);
        for (unsigned v = 0; v < value_count(a); ++v)
        {
            if (!allowed[a][v])
                continue;
            char name[32], entry[80];
            value_name(a, v, name, sizeof(name));
            snprintf(entry, sizeof(entry), "%s %llu/%llu%s", name, (unsigned long long)exercised[a][v],
                     (unsigned long long)allowed[a][v], failed[a][v] ? "!" : "");
            fprintf(out, " %-22s", entry);
        }
        fputc('\n', out);
    }
    if (cells_failed)
        fprintf(out, "  (! marks values with failing cells)\n");
    uint64_t negatives = 0;
    for (unsigned r = 0; r < DMLCONF_REASON_COUNT; ++r)
        negatives += coverage->negative_generated[r];
    if (!negatives)
        return;
    fprintf(out, "  invalid descs (each must be refused):");
    for (unsigned r = 0; r < DMLCONF_REASON_COUNT; ++r)
    {
        if (!coverage->negative_generated[r])
            continue;
        uint64_t bad = 0;
        for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
        {
            if (dmlconf_status_is_failure((dmlconf_status)s) || s == DMLCONF_STATUS_FLAKE)
                bad += coverage->negative_statuses[r][s];
        }
        fprintf(out, " %s %llu%s", dmlconf_reason_name((dmlconf_reason)r),
                (unsigned long long)coverage->negative_generated[r], bad ? "!" : "");
    }
    fputc('\n', out);
}

int explore_coverage_write_csv(FILE *out, const explore_coverage *coverage)
{
    fprintf(out, "cell,data_type,operator,rank,axis_position,direction,mode,layout,axis_length,generated");
    for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
        fprintf(out, ",%s", dmlconf_status_name((dmlconf_status)s));
    fputc('\n', out);
    for (size_t k = 0; k < coverage->allowed_count; ++k)
    {
        size_t i = coverage->allowed_list[k];
        explore_cell cell = explore_cell_at(i);
        char name[128];
        explore_cell_name(&cell, name, sizeof(name));
        fprintf(out, "%s", name);
        for (unsigned a = 0; a < AXIS_COUNT; ++a)
        {
            char value[32];
            value_name(a, value_of(&cell, a), value, sizeof(value));
            fprintf(out, ",%s", value);
        }
        fprintf(out, ",%u", coverage->cells[i].generated);
        for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
            fprintf(out, ",%u", coverage->cells[i].statuses[s]);
        fputc('\n', out);
    }
    for (unsigned r = 0; r < DMLCONF_REASON_COUNT; ++r)
    {
        if (!coverage->negative_generated[r])
            continue;
        fprintf(out, "explore.invalid.%s,,,,,,,,,%llu", dmlconf_reason_name((dmlconf_reason)r),
                (unsigned long long)coverage->negative_generated[r]);
        for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
            fprintf(out, ",%llu", (unsigned long long)coverage->negative_statuses[r][s]);
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}

void explore_coverage_of_cases(const dmlconf_case *const *cases, size_t count, const explore_boundaries *boundaries,
                               uint32_t *counts)
{
    for (size_t i = 0; i < count; ++i)
    {
        explore_cell cell;
        if (cases[i]->expect_error.set || !explore_cell_of(&cases[i]->desc, boundaries, &cell))
            continue;
        counts[explore_cell_index(&cell)]++;
    }
}
