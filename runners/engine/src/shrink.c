/*
 * Minimal reproducers: shrink a failing case while it still fails the same
 * way on the backend (fewer lines, a shorter axis, lower rank, fewer
 * non-identity values, packed strides) and write it as a standalone YAML
 * case with exact values, so a vendor gets the smallest failing case rather
 * than a 10^6-element dump. Every candidate runs as a run runs a case
 * (runner_execute: its output filled with the canary and guarded after its
 * end, judged by the case's verdict), so a backend that writes past its
 * output is caught again, never let loose on unguarded memory, and every
 * kind of failure (wrong values, elements never written, a write past the
 * end, a refused desc) shrinks as itself.
 */
#define _POSIX_C_SOURCE 200809L

#include <dmlconf/runner.h>

#include <dmlconf/clock.h>
#include <dmlconf/comparator.h>
#include <dmlconf/file_system.h>
#include <dmlconf/values.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Backend executions a shrink may spend, and seconds. */
#define SHRINK_MAX_TRIES   300
#define SHRINK_MAX_SECONDS 30.0

/* A candidate: a packed desc and its logical input. */
typedef struct candidate
{
    dmlconf_scan_desc desc;
    void *input;
    uint64_t count;
} candidate;

typedef struct shrinker
{
    runner_backend *backend;
    runner_config config;         /* the run's, without reruns or shrinking */
    const dmlconf_case *original; /* the failing case */
    dmlconf_failure want;         /* the way it fails, which candidates must keep */
    size_t element;
    int tries;
    double deadline;
    dmlconf_case_result last; /* the result of the last candidate that still failed */
} shrinker;

static uint64_t count_of(const dmlconf_scan_desc *desc)
{
    return dmlconf_tensor_element_count(&desc->input);
}

/* Runs a candidate as the original case (its tolerance, its level) with
 * the candidate's desc and values; true when it still fails the same way. */
static bool still_fails(shrinker *s, const candidate *c)
{
    if (s->tries >= SHRINK_MAX_TRIES || dmlconf_clock_seconds() > s->deadline)
        return false;
    /* A smaller desc that is not valid would be refused for that. */
    dmlconf_validation validation;
    if (!dmlconf_validate(&c->desc, s->config.level, &validation))
        return false;
    s->tries++;
    dmlconf_case trial = *s->original;
    trial.desc = c->desc;
    trial.min_feature_level = dmlconf_min_feature_level(&c->desc, NULL);
    memset(&trial.input, 0, sizeof(trial.input));
    trial.input.kind = DMLCONF_CASE_DATA_INLINE;
    trial.input.values = c->input;
    trial.input.count = c->count;
    memset(&trial.expected, 0, sizeof(trial.expected));
    const dmlconf_case *cases[1] = {&trial};
    dmlconf_case_result *result = malloc(sizeof(*result));
    if (!result)
        return false;
    runner_execute(s->backend, &s->config, cases, 1, result);
    bool fails = result->status == DMLCONF_STATUS_FAIL && result->failure == s->want;
    if (fails)
        s->last = *result;
    free(result);
    return fails;
}

/* Copies the sub-tensor [start[d], start[d] + sizes[d]) of `from` into a new
 * candidate with the given sizes. */
static bool slice(const shrinker *s, const candidate *from, const uint32_t *start, const uint32_t *sizes,
                  candidate *out)
{
    out->desc = from->desc;
    uint32_t rank = from->desc.input.dimension_count;
    for (uint32_t d = 0; d < rank; ++d)
        out->desc.input.sizes[d] = out->desc.output.sizes[d] = sizes[d];
    out->count = count_of(&out->desc);
    out->input = malloc((size_t)(out->count * s->element));
    if (!out->input)
        return false;
    uint32_t coordinates[DMLCONF_MAX_DIMENSIONS] = {0};
    const unsigned char *source = from->input;
    unsigned char *target = out->input;
    for (uint64_t i = 0; i < out->count; ++i)
    {
        uint64_t index = 0;
        for (uint32_t d = 0; d < rank; ++d)
            index = index * from->desc.input.sizes[d] + start[d] + coordinates[d];
        memcpy(target + i * s->element, source + index * s->element, s->element);
        for (uint32_t d = rank; d-- > 0;)
        {
            if (++coordinates[d] < sizes[d])
                break;
            coordinates[d] = 0;
        }
    }
    return true;
}

static void accept(candidate *current, candidate *next)
{
    free(current->input);
    *current = *next;
    next->input = NULL;
}

/* Tries sub-ranges of one dimension: the half, the quarter, ... around the
 * first mismatch, and a single index. */
static bool shrink_dimension(shrinker *s, candidate *current, uint32_t d)
{
    bool progress = false;
    for (;;)
    {
        uint32_t size = current->desc.input.sizes[d];
        if (size <= 1)
            break;
        uint32_t focus = s->last.comparison.has_first ? s->last.comparison.first.coordinates[d] : 0;
        bool axis = d == current->desc.axis;
        bool reversed = current->desc.direction == DMLCONF_AXIS_DIRECTION_DECREASING;
        bool shrunk = false;
        /* Along the axis only a prefix (in scan order) ending at the mismatch
         * matters; elsewhere any window holding the mismatch line does. */
        uint32_t lengths[3] = {axis ? (reversed ? size - focus : focus + 1) : 1, size / 2, size - size / 4};
        for (size_t t = 0; t < 3 && !shrunk; ++t)
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
            candidate next;
            if (!slice(s, current, start, sizes, &next))
                return progress;
            if (still_fails(s, &next))
            {
                accept(current, &next);
                progress = shrunk = true;
            }
            free(next.input);
        }
        if (!shrunk)
            break;
    }
    return progress;
}

/* Drops size-1 dimensions (the result keeps rank 4 below feature level 4_0,
 * where only 4-D tensors exist). */
static bool shrink_rank(shrinker *s, candidate *current)
{
    uint32_t rank = current->desc.input.dimension_count;
    uint32_t minimum_rank = s->config.level < DMLCONF_FEATURE_LEVEL_4_0 ? 4 : 1;
    if (rank <= minimum_rank)
        return false;
    candidate next = *current;
    uint32_t kept = 0, axis = 0;
    for (uint32_t d = 0; d < rank; ++d)
    {
        if (current->desc.input.sizes[d] == 1 && d != current->desc.axis && rank - (d - kept) > minimum_rank)
            continue;
        if (d == current->desc.axis)
            axis = kept;
        next.desc.input.sizes[kept] = next.desc.output.sizes[kept] = current->desc.input.sizes[d];
        ++kept;
    }
    if (kept == rank || kept < minimum_rank)
        return false;
    next.desc.input.dimension_count = next.desc.output.dimension_count = kept;
    next.desc.axis = axis;
    next.input = malloc((size_t)(next.count * s->element));
    if (!next.input)
        return false;
    memcpy(next.input, current->input, (size_t)(next.count * s->element));
    bool fails = still_fails(s, &next);
    if (fails)
        accept(current, &next);
    free(next.input);
    return fails;
}

/* Replaces runs of values by the operator's identity (0 or 1) while the case
 * still fails: fewer non-trivial values. */
static bool shrink_values(shrinker *s, candidate *current)
{
    dmlconf_data_type type = current->desc.input.data_type;
    bool product = current->desc.op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    unsigned char identity[8] = {0};
    if (product)
    {
        if (dmlconf_value_parse(type, "1", false, identity, NULL, 0) != DMLCONF_VALUE_OK)
            return false;
    }
    bool progress = false;
    for (uint64_t chunk = current->count / 2; chunk >= 1; chunk /= 2)
    {
        for (uint64_t first = 0; first < current->count; first += chunk)
        {
            uint64_t n = first + chunk <= current->count ? chunk : current->count - first;
            bool trivial = true;
            for (uint64_t i = first; i < first + n && trivial; ++i)
                trivial = !memcmp((unsigned char *)current->input + i * s->element, identity, s->element);
            if (trivial)
                continue;
            candidate next = *current;
            next.input = malloc((size_t)(current->count * s->element));
            if (!next.input)
                return progress;
            memcpy(next.input, current->input, (size_t)(current->count * s->element));
            for (uint64_t i = first; i < first + n; ++i)
                memcpy((unsigned char *)next.input + i * s->element, identity, s->element);
            if (still_fails(s, &next))
            {
                accept(current, &next);
                progress = true;
            }
            free(next.input);
            if (s->tries >= SHRINK_MAX_TRIES)
                return progress;
        }
        if (chunk == 1)
            break;
    }
    return progress;
}

/* A file-name-safe copy of an id. */
static void safe_name(const char *id, char *out, size_t size)
{
    size_t n = 0;
    for (; *id && n + 1 < size; ++id)
        out[n++] = (*id >= 'a' && *id <= 'z') || (*id >= 'A' && *id <= 'Z') || (*id >= '0' && *id <= '9') ||
                           *id == '.' || *id == '-' || *id == '_'
                       ? *id
                       : '_';
    out[n] = '\0';
}

static void write_values(FILE *out, dmlconf_data_type type, const void *values, uint64_t count, size_t element)
{
    char text[64];
    fputc('[', out);
    for (uint64_t i = 0; i < count; ++i)
    {
        dmlconf_value_format(type, (const unsigned char *)values + i * element,
                             dmlconf_data_type_is_float(type) ? DMLCONF_VALUE_STYLE_EXACT
                                                              : DMLCONF_VALUE_STYLE_SHORTEST,
                             text, sizeof(text));
        fprintf(out, "%s%s", i ? (i % 8 ? ", " : ",\n            ") : "", text);
    }
    fputc(']', out);
}

static int write_repro(const shrinker *s, const dmlconf_case *original, const candidate *c, char *path,
                       size_t path_size, char *why, size_t why_size)
{
    const char *dir = s->config.repro_dir;
    if (dmlconf_make_folders(dir, why, why_size))
        return -1;
    char name[200];
    safe_name(original->id, name, sizeof(name));
    snprintf(path, path_size, "%s/%s.yaml", dir, name);
    FILE *out = fopen(path, "w");
    if (!out)
    {
        snprintf(why, why_size, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    const dmlconf_scan_desc *desc = &c->desc;
    dmlconf_feature_level level = dmlconf_min_feature_level(desc, NULL);
    fprintf(out, "# Minimal reproducer of %s (%s:%u), shrunk from %llu to %llu elements in %d runs.\n", original->id,
            original->file, original->mark.line, (unsigned long long)dmlconf_case_element_count(original),
            (unsigned long long)c->count, s->tries);
    /* What the backend did, one comment line (the message may hold a
     * mismatch with its coordinates). */
    fputs("# It failed on the backend (", out);
    fputs(dmlconf_failure_name(s->last.failure), out);
    fputs("): ", out);
    for (const char *m = s->last.message; *m; ++m)
        fputc(*m == '\n' || *m == '\r' ? ' ' : *m, out);
    fputc('\n', out);
    if (s->last.comparison.has_worst)
    {
        char worst[DMLCONF_MISMATCH_TEXT_SIZE];
        dmlconf_format_mismatch(desc->output.data_type, &s->last.comparison.worst, worst, sizeof(worst));
        fprintf(out, "# Worst: %s\n", worst);
    }
    fprintf(out, "# Run it with: dmlconf run %s\ncases:\n", path);
    fprintf(out, "  - id: %s.repro\n    op: %s\n    dtype: %s\n    sizes: [", original->id,
            dmlconf_operator_name(desc->op), dmlconf_data_type_lower_name(desc->input.data_type));
    for (uint32_t d = 0; d < desc->input.dimension_count; ++d)
        fprintf(out, "%s%u", d ? ", " : "", desc->input.sizes[d]);
    fprintf(out, "]\n    axis: %u\n    direction: %s\n    exclusive: %s\n", desc->axis,
            desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING ? "decreasing" : "increasing",
            desc->exclusive ? "true" : "false");
    if (level != DMLCONF_FEATURE_LEVEL_NONE)
        fprintf(out, "    min_feature_level: %s\n", dmlconf_feature_level_name(level));
    fprintf(out, "    input: ");
    write_values(out, desc->input.data_type, c->input, c->count, s->element);
    fprintf(out, "\n    tags: [repro]\n");
    if (fclose(out))
    {
        snprintf(why, why_size, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int runner_shrink(runner_backend *backend, const runner_config *config, const dmlconf_case *c, const void *input,
                  dmlconf_failure failure, char *path, size_t path_size, char *why, size_t why_size)
{
    shrinker s;
    memset(&s, 0, sizeof(s));
    s.backend = backend;
    s.config = *config;
    s.config.rerun_failures = false;
    s.config.shrink = false;
    s.config.host_threads = 1;
    s.original = c;
    s.want = failure;
    s.element = dmlconf_case_element_size(c);
    s.deadline = dmlconf_clock_seconds() + SHRINK_MAX_SECONDS;

    candidate current;
    current.desc = c->desc;
    current.desc.input.has_strides = current.desc.output.has_strides = false;
    current.desc.input.total_size_bytes = current.desc.output.total_size_bytes = 0;
    current.desc.in_place = false;
    current.count = count_of(&current.desc);
    current.input = malloc((size_t)(current.count * s.element));
    if (!current.input)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    memcpy(current.input, input, (size_t)(current.count * s.element));
    if (!still_fails(&s, &current))
    {
        /* Strides, in-place execution or the expected values made the
         * difference: a packed copy passes (or fails otherwise). Say so
         * rather than shrink. */
        free(current.input);
        snprintf(why, why_size,
                 "the packed, out-of-place version of the case does not fail the same way (the layout matters)");
        return -1;
    }
    bool progress = true;
    while (progress && s.tries < SHRINK_MAX_TRIES && dmlconf_clock_seconds() < s.deadline)
    {
        progress = false;
        for (uint32_t d = 0; d < current.desc.input.dimension_count; ++d)
            progress |= shrink_dimension(&s, &current, d);
        progress |= shrink_rank(&s, &current);
    }
    shrink_values(&s, &current);
    int result = write_repro(&s, c, &current, path, path_size, why, why_size);
    free(current.input);
    return result;
}
