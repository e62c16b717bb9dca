/*
 * The run's reproducers: a failing case of the corpus shrunk (shrink.c)
 * while it still fails the same way on the backend, and written as a
 * standalone case file with exact values (the case writer, hex floats), so
 * that a vendor gets the smallest failing case rather than a 10^6-element
 * dump. Every candidate runs as a run runs a case (runner_execute) and must
 * end with the same status (fail) and the same failure kind.
 */
#define _POSIX_C_SOURCE 200809L

#include <dmlconf/runner.h>

#include <dmlconf/case_writer.h>
#include <dmlconf/comparator.h>
#include <dmlconf/file_system.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Backend executions a shrink may spend, and seconds. */
#define SHRINK_MAX_TRIES   300
#define SHRINK_MAX_SECONDS 30.0

/* How a run judges a candidate. */
typedef struct run_judge
{
    runner_backend *backend;
    runner_config config; /* the run's, without reruns or shrinking */
    dmlconf_failure want; /* the way the case fails, which candidates must keep */
} run_judge;

static bool fails_same_way(void *context, const dmlconf_case *candidate, dmlconf_case_result *result)
{
    run_judge *judge = context;
    const dmlconf_case *cases[1] = {candidate};
    runner_execute(judge->backend, &judge->config, cases, 1, result);
    return result->status == DMLCONF_STATUS_FAIL && result->failure == judge->want;
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

/* The reproducer's text: where it comes from and how it failed, then the
 * shrunk case as a case of the original (its tolerance) named <id>.repro. */
static int repro_text(const dmlconf_case *original, const runner_shrunk *shrunk, const char *path,
                      dmlconf_buffer *text)
{
    const runner_candidate *c = &shrunk->candidate;
    const dmlconf_case_result *last = &shrunk->result;
    dmlconf_case_write_comment(text, "Minimal reproducer of %s (%s:%u), shrunk from %llu to %llu elements in %d runs.",
                               original->id, original->file, original->mark.line,
                               (unsigned long long)dmlconf_case_element_count(original), (unsigned long long)c->count,
                               shrunk->tries);
    /* What the backend did, one comment line (the message may hold a
     * mismatch with its coordinates). */
    dmlconf_case_write_comment(text, "It failed on the backend (%s): %s", dmlconf_failure_name(last->failure),
                               last->message);
    if (last->comparison.has_worst)
    {
        char worst[DMLCONF_MISMATCH_TEXT_SIZE];
        dmlconf_format_mismatch(c->desc.output.data_type, &last->comparison.worst, worst, sizeof(worst));
        dmlconf_case_write_comment(text, "Worst: %s", worst);
    }
    dmlconf_case_write_comment(text, "Run it with: dmlconf run %s", path);
    dmlconf_buffer_printf(text, "cases:\n");

    char id[DMLCONF_CASE_MAX_ID_BYTES + 8], tag[] = "repro", *tags[1] = {tag};
    snprintf(id, sizeof(id), "%s.repro", original->id);
    dmlconf_case repro;
    memset(&repro, 0, sizeof(repro));
    repro.id = id;
    repro.desc = c->desc;
    repro.min_feature_level = dmlconf_min_feature_level(&c->desc, NULL);
    repro.min_feature_level_explicit = repro.min_feature_level != DMLCONF_FEATURE_LEVEL_NONE;
    repro.input.kind = DMLCONF_CASE_DATA_INLINE;
    repro.input.values = c->values;
    repro.input.count = c->count;
    repro.tolerance = original->tolerance; /* judged as the case was */
    repro.tags = tags;
    repro.tag_count = 1;
    dmlconf_case_write_options options = {.exact_floats = true};
    return dmlconf_case_write(text, &repro, &options);
}

static int write_repro(const runner_config *config, const dmlconf_case *original, const runner_shrunk *shrunk,
                       char *path, size_t path_size, char *why, size_t why_size)
{
    const char *dir = config->repro_dir;
    if (dmlconf_make_folders(dir, why, why_size))
        return -1;
    char name[200];
    safe_name(original->id, name, sizeof(name));
    snprintf(path, path_size, "%s/%s.yaml", dir, name);
    dmlconf_buffer text = {0};
    if (repro_text(original, shrunk, path, &text))
    {
        snprintf(why, why_size, "cannot write %s: %s", path, text.failed ? "out of memory" : "not a case file");
        dmlconf_buffer_free(&text);
        return -1;
    }
    FILE *out = fopen(path, "w");
    if (!out)
    {
        snprintf(why, why_size, "cannot write %s: %s", path, strerror(errno));
        dmlconf_buffer_free(&text);
        return -1;
    }
    bool written = fwrite(text.data, 1, text.length, out) == text.length;
    dmlconf_buffer_free(&text);
    if (fclose(out) || !written)
    {
        snprintf(why, why_size, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int runner_shrink(runner_backend *backend, const runner_config *config, const dmlconf_case *c, const void *input,
                  dmlconf_failure failure, char *path, size_t path_size, char *why, size_t why_size)
{
    run_judge judge = {backend, *config, failure};
    judge.config.rerun_failures = false;
    judge.config.shrink = false;
    judge.config.host_threads = 1;

    /* The case as it ran, its layout a recipe when one gives its strides;
     * otherwise packed and out of place. */
    runner_candidate start;
    memset(&start, 0, sizeof(start));
    start.desc = c->desc;
    bool own_layout = runner_layout_of(&c->desc, &start.layout);
    if (!runner_layout_apply(&start.layout, &start.desc))
    {
        snprintf(why, why_size, "the case's layout has no smaller form");
        return -1;
    }
    start.count = dmlconf_tensor_element_count(&c->desc.input);
    size_t bytes = (size_t)(start.count * dmlconf_case_element_size(c));
    start.values = malloc(bytes ? bytes : 1);
    if (!start.values)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    memcpy(start.values, input, bytes);

    runner_shrink_options options = {c, config->level, SHRINK_MAX_TRIES, SHRINK_MAX_SECONDS, fails_same_way, &judge};
    runner_shrunk shrunk;
    int status = runner_shrink_case(&options, &start, &shrunk);
    runner_candidate_free(&start);
    if (status)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    if (!shrunk.reproduced)
    {
        /* Strides, in-place execution or the expected values made the
         * difference: the case run again without them (the oracle's
         * expected values) passes, or fails otherwise. Say so rather than
         * shrink. */
        snprintf(why, why_size,
                 own_layout
                     ? "run again alone (its input inline, the oracle's expected values), the case does not fail "
                       "the same way"
                     : "the packed, out-of-place version of the case does not fail the same way (the layout "
                       "matters)");
        runner_candidate_free(&shrunk.candidate);
        return -1;
    }
    status = write_repro(config, c, &shrunk, path, path_size, why, why_size);
    runner_candidate_free(&shrunk.candidate);
    return status;
}
