/*
 * Shrinking the failures `dmlconf explore` finds, with the run engine's
 * shrinker (runner_shrink_case): a candidate still fails the same way when
 * runner_execute, judging it exactly as a run judges a case, gives the
 * status and kind of failure of the finding's signature. Then the
 * reproducer: comments that say what failed, how often and how to
 * regenerate it, and the case, written by the case writer.
 */
#define _POSIX_C_SOURCE 200809L

#include "explore_internal.h"

#include <dmlconf/case_writer.h>
#include <dmlconf/comparator.h>
#include <dmlconf/file_system.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How explore judges a candidate. */
typedef struct explore_judge
{
    const explore_shrink_options *options;
    char want[64]; /* "status.kind" of the failure to keep */
} explore_judge;

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

static bool fails_same_way(void *context, const dmlconf_case *candidate, dmlconf_case_result *result)
{
    const explore_judge *judge = context;
    const dmlconf_case *cases[1] = {candidate};
    runner_execute(judge->options->backend, judge->options->config, cases, 1, result);
    explore_spec spec;
    memset(&spec, 0, sizeof(spec));
    spec.desc = candidate->desc;
    char signature[128], head[64];
    explore_signature(&spec, result, signature, sizeof(signature));
    signature_head(signature, head, sizeof(head));
    return !strcmp(head, judge->want);
}

int explore_shrink(const explore_shrink_options *options, const explore_spec *spec, const char *signature,
                   explore_shrunk *out)
{
    memset(out, 0, sizeof(*out));
    explore_judge judge = {options, ""};
    signature_head(signature, judge.want, sizeof(judge.want));
    char id[] = "explore.shrink";
    dmlconf_case model;
    memset(&model, 0, sizeof(model));
    model.id = id;
    model.file = "(explore)";
    runner_shrink_options shrink = {&model,         spec->level, options->max_tries, options->max_seconds,
                                    fails_same_way, &judge};
    runner_candidate start = {spec->desc, spec->layout, spec->values, spec->count};
    runner_shrunk shrunk;
    if (runner_shrink_case(&shrink, &start, &shrunk))
        return -1;
    out->spec = *spec;
    out->spec.desc = shrunk.candidate.desc;
    out->spec.layout = shrunk.candidate.layout;
    out->spec.values = shrunk.candidate.values; /* owned by out->spec now */
    out->spec.count = shrunk.candidate.count;
    out->result = shrunk.result;
    out->tries = shrunk.tries;
    out->reproduced = shrunk.reproduced;
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
    dmlconf_buffer text = {0};
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
    dmlconf_buffer_printf(&text, "cases:\n");
    if (explore_write_case(&text, spec, id, NULL))
    {
        snprintf(why, why_size, "cannot write %s: %s", path, text.failed ? "out of memory" : "not a case file");
        dmlconf_buffer_free(&text);
        return -1;
    }
    FILE *out = fopen(path, "w");
    bool written = out && fwrite(text.data, 1, text.length, out) == text.length;
    dmlconf_buffer_free(&text);
    if (!out || fclose(out) || !written)
    {
        snprintf(why, why_size, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
