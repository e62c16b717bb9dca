/*
 * The oracle backend's computation on several threads (dmlconf_oracle_compute_segmented).
 *
 * The oracle's scan of a line is exact, so a line cut into segments gives
 * the same bits whichever way it is cut: a walk resumed from the exact
 * summary of everything before its segment (dmlconf_scan_walk_resume) goes
 * on exactly as one walk over the whole line would. A long line is cut into
 * one segment a thread. The first segment's thread walks it at once; the
 * other threads meanwhile summarise the line up to the end of every segment
 * but the last, a segment each; then each of them walks a later segment
 * from the summaries before it. The first segment is longer, by what the
 * others spend summarising, so that the threads end together.
 *
 * Only lines contiguous and increasing in both buffers, out of place, go in
 * segments (a gathered or reversed line, or one computed in place, would
 * need copies or would overwrite input another thread still reads); every
 * other job is dmlconf_compute's.
 */
#include <dmlconf/oracle_backend.h>
#include <dmlconf/threads.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What summarising a segment costs against walking it, about (float32
 * sums: 1 ns against 3 to 4 an element): only the balance between the
 * threads depends on it, never a result. */
#define SUMMARY_COST 0.3
/* At most this many segments a line. */
#define MAX_SEGMENTS 64u

/* A line held in memory, read back by its walks' exact fallbacks. */
typedef struct line_memory
{
    const unsigned char *input;
    size_t element;
} line_memory;

static int read_line_memory(void *context, uint64_t first, size_t count, void *out)
{
    const line_memory *line = context;
    memcpy(out, line->input + first * line->element, count * line->element);
    return 0;
}

/* One thread's part of a line: a summary of [first, end) (for a later
 * segment), or the walk over it. */
typedef struct line_part
{
    const dmlconf_scan_desc *desc;
    const line_memory *line;
    unsigned char *output;
    uint64_t first, end;
    bool resumes;                /* a walk from `prefix`; else from the line's start */
    dmlconf_scan_summary prefix; /* a walk: the line before `first`; a summary: its result */
    int status;
    dmlconf_error err;
    dmlconf_thread thread;
    bool started;
} line_part;

static int summarise_part(void *argument)
{
    line_part *p = argument;
    dmlconf_scan_summary_add(&p->prefix, (size_t)(p->end - p->first), p->line->input + p->first * p->line->element);
    p->status = 0;
    return 0;
}

static int walk_part(void *argument)
{
    line_part *p = argument;
    const dmlconf_scan_desc *desc = p->desc;
    dmlconf_scan_walk walk;
    p->status = p->resumes ? dmlconf_scan_walk_resume(&walk, &p->prefix, desc->exclusive, read_line_memory,
                                                      (void *)p->line, &p->err)
                           : dmlconf_scan_walk_init(&walk, desc->op, desc->input.data_type, desc->exclusive,
                                                    read_line_memory, (void *)p->line, &p->err);
    size_t element = p->line->element;
    if (p->status == 0)
        p->status = dmlconf_scan_walk_next(&walk, (size_t)(p->end - p->first), p->line->input + p->first * element,
                                           p->output + p->first * element, &p->err);
    dmlconf_scan_walk_release(&walk);
    return 0;
}

/* Runs body on parts [0, count): all but the first on threads of their
 * own, the first here, then waits for them (a part whose thread does not
 * start runs here too). */
static void run_parts(line_part *parts, size_t count, int (*body)(void *))
{
    for (size_t k = 1; k < count; ++k)
        parts[k].started = dmlconf_thread_start(&parts[k].thread, body, &parts[k]) == 0;
    if (count)
        body(&parts[0]);
    for (size_t k = 1; k < count; ++k)
    {
        if (parts[k].started)
            dmlconf_thread_join(&parts[k].thread);
        else
            body(&parts[k]);
    }
}

/* One contiguous line of n elements in `count` segments (at least 2; see
 * the file comment). Returns 0, or -1 with err set. */
static int segmented_line(const dmlconf_scan_desc *desc, const unsigned char *input, unsigned char *output, size_t n,
                          size_t count, dmlconf_error *err)
{
    line_memory line = {input, dmlconf_data_type_bits(desc->input.data_type) / 8u};
    line_part *walks = calloc(count, sizeof(*walks)), *summaries = calloc(count - 1u, sizeof(*summaries));
    if (!walks || !summaries)
    {
        free(walks);
        free(summaries);
        if (err)
            snprintf(err->message, sizeof(err->message), "out of memory for the oracle's segments");
        return -1;
    }
    /* Segment lengths: the first L, the others L (1 - c) each, where c is
     * the summary's relative cost. */
    double others = (double)(count - 1u);
    double first_length = (double)n / (1.0 + others * (1.0 - SUMMARY_COST));
    uint64_t second = first_length < (double)n ? (uint64_t)first_length : n;
    int status = 0;
    for (size_t k = 0; k < count; ++k)
    {
        line_part *w = &walks[k];
        w->desc = desc;
        w->line = &line;
        w->output = output;
        w->first = k == 0 ? 0 : second + (n - second) * (k - 1u) / (count - 1u);
        w->end = k == 0 ? second : second + (n - second) * k / (count - 1u);
        w->resumes = k > 0;
        if (k + 1u < count)
        {
            summaries[k] = *w;
            status =
                status ? status : dmlconf_scan_summary_init(&summaries[k].prefix, desc->op, desc->input.data_type, err);
        }
    }
    if (status == 0)
    {
        walks[0].started = dmlconf_thread_start(&walks[0].thread, walk_part, &walks[0]) == 0;
        run_parts(summaries, count - 1u, summarise_part);
        /* The prefixes, in order. */
        dmlconf_scan_summary prefix = summaries[0].prefix;
        for (size_t k = 1; k < count; ++k)
        {
            if (k > 1u)
                dmlconf_scan_summary_combine(&prefix, &summaries[k - 1u].prefix);
            walks[k].prefix = prefix;
        }
        run_parts(walks + 1, count - 1u, walk_part);
        if (walks[0].started)
            dmlconf_thread_join(&walks[0].thread);
        else
            walk_part(&walks[0]);
        /* The first error in line order. */
        for (size_t k = 0; k < count && status == 0; ++k)
        {
            if (walks[k].status)
            {
                status = -1;
                if (err)
                    *err = walks[k].err;
            }
        }
    }
    free(walks);
    free(summaries);
    return status;
}

/* The bytes a buffer must hold for a tensor, as dmlconf_compute wants them:
 * its declared total size or, when that is 0 or less, the minimum size. */
static bool required_bytes(const dmlconf_tensor_desc *desc, uint64_t *bytes)
{
    uint64_t minimum = 0;
    if (!dmlconf_tensor_min_size_bytes(desc, &minimum))
        return false;
    *bytes = desc->total_size_bytes > minimum ? desc->total_size_bytes : minimum;
    return true;
}

/* Whether the job can go in segments: valid, out of place, lines at least
 * min_length long, contiguous and increasing in both buffers, which hold
 * their tensors and do not overlap, and aligned elements. */
static bool segments_apply(const dmlconf_scan_desc *desc, const void *input, size_t input_bytes, const void *output,
                           size_t output_bytes, uint64_t min_length)
{
    if (desc->in_place || desc->direction != DMLCONF_AXIS_DIRECTION_INCREASING || !input || !output ||
        !dmlconf_validate(desc, DMLCONF_FEATURE_LEVEL_6_4, NULL) || desc->input.sizes[desc->axis] < min_length ||
        dmlconf_tensor_self_overlaps(&desc->output))
        return false;
    uint64_t need_in = 0, need_out = 0;
    if (!required_bytes(&desc->input, &need_in) || !required_bytes(&desc->output, &need_out) || input_bytes < need_in ||
        output_bytes < need_out)
        return false;
    uintptr_t in0 = (uintptr_t)input, out0 = (uintptr_t)output;
    if (in0 < out0 + need_out && out0 < in0 + need_in)
        return false;
    size_t element = dmlconf_data_type_bits(desc->input.data_type) / 8u;
    if (in0 % element || out0 % element)
        return false;
    uint64_t lines = dmlconf_line_count(&desc->input, desc->axis);
    for (uint64_t line = 0; line < lines; ++line)
    {
        uint64_t in_step = 0, out_step = 0;
        dmlconf_line_layout(&desc->input, desc->axis, line, NULL, &in_step, NULL, NULL);
        dmlconf_line_layout(&desc->output, desc->axis, line, NULL, &out_step, NULL, NULL);
        if (in_step != 1 || out_step != 1)
            return false;
    }
    return true;
}

int dmlconf_oracle_compute_segmented(const dmlconf_scan_desc *desc, const void *input, size_t input_bytes, void *output,
                          size_t output_bytes, unsigned threads, uint64_t min_length, dmlconf_error *err)
{
    if (threads < 2u || !desc || !segments_apply(desc, input, input_bytes, output, output_bytes, min_length))
        return dmlconf_compute(desc, input, input_bytes, output, output_bytes, NULL, err);
    size_t element = dmlconf_data_type_bits(desc->input.data_type) / 8u;
    size_t n = desc->input.sizes[desc->axis];
    size_t count = threads < MAX_SEGMENTS ? threads : MAX_SEGMENTS;
    uint64_t lines = dmlconf_line_count(&desc->input, desc->axis);
    for (uint64_t line = 0; line < lines; ++line)
    {
        uint64_t in_first = 0, out_first = 0;
        dmlconf_line_layout(&desc->input, desc->axis, line, &in_first, NULL, NULL, NULL);
        dmlconf_line_layout(&desc->output, desc->axis, line, &out_first, NULL, NULL, NULL);
        if (segmented_line(desc, (const unsigned char *)input + in_first * element,
                           (unsigned char *)output + out_first * element, n, count, err))
            return -1;
    }
    return 0;
}
