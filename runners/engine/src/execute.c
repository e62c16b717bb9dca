/*
 * Executing cases on a backend and judging the results: lay each case's
 * input out in its buffer by its strides, run a batch of jobs, compare the
 * outputs with the oracle, rerun failures once, shrink confirmed failures.
 *
 * Memory per element is the backend's buffers and nothing else: the input
 * is generated (or read) straight into its buffer in chunks, the comparator
 * reads it back from there (or, in place, where the output has replaced
 * it, from the case's data again) and judges the output in chunks; the
 * case's expected values are read in chunks too. Large cases fill and
 * judge on every CPU.
 */
#define _POSIX_C_SOURCE 200809L

#include <dmlconf/runner.h>

#include <dmlconf/case_verdict.h>
#include <dmlconf/clock.h>
#include <dmlconf/comparator.h>
#include <dmlconf/large_memory.h>
#include <dmlconf/threads.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Bytes of an unwritten output: NaN in every float type, -1 in integers. */
#define CANARY_BYTE 0xff

static void copy_text(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

void runner_result_init(dmlconf_case_result *result, const dmlconf_case *c, dmlconf_status status, const char *message)
{
    memset(result, 0, sizeof(*result));
    copy_text(result->id, sizeof(result->id), c->id);
    copy_text(result->file, sizeof(result->file), c->file);
    result->line = c->mark.line;
    result->op = c->desc.op;
    result->data_type = c->desc.input.data_type;
    result->dimension_count = c->desc.input.dimension_count;
    result->min_feature_level = c->min_feature_level;
    result->negative = c->expect_error.set;
    result->exclusive = c->desc.exclusive;
    result->decreasing = c->desc.direction == DMLCONF_AXIS_DIRECTION_DECREASING;
    result->status = status;
    copy_text(result->message, sizeof(result->message), message);
    result->attempts = 1;
    result->backend_seconds = -1.0;
    result->wall_seconds = -1.0;
}

uint64_t runner_buffer_bytes(const dmlconf_tensor_desc *desc)
{
    uint64_t minimum = 0;
    dmlconf_tensor_min_size_bytes(desc, &minimum);
    return desc->total_size_bytes > minimum ? desc->total_size_bytes : minimum;
}

/* Lays out logical elements [first, first + count) (packed in `logical`)
 * into a buffer by `desc`'s strides. */
static void scatter_range(const dmlconf_tensor_desc *desc, uint64_t first, uint64_t count, const void *logical,
                          void *buffer)
{
    size_t element = dmlconf_data_type_bits(desc->data_type) / 8;
    uint64_t strides[DMLCONF_MAX_DIMENSIONS];
    uint32_t coordinates[DMLCONF_MAX_DIMENSIONS] = {0};
    uint32_t last = desc->dimension_count - 1;
    /* The coordinates and offset of element `first`. */
    uint64_t offset = 0;
    uint64_t index = first;
    for (uint32_t d = desc->dimension_count; d-- > 0;)
    {
        strides[d] = dmlconf_tensor_stride(desc, d);
        coordinates[d] = (uint32_t)(index % desc->sizes[d]);
        index /= desc->sizes[d];
        offset += (uint64_t)coordinates[d] * strides[d];
    }
    const unsigned char *source = logical;
    unsigned char *target = buffer;
    for (uint64_t i = 0; i < count; ++i)
    {
        memcpy(target + offset * element, source + i * element, element);
        /* Odometer over the coordinates, keeping the offset in step. */
        for (uint32_t d = last + 1; d-- > 0;)
        {
            if (++coordinates[d] < desc->sizes[d])
            {
                offset += strides[d];
                break;
            }
            offset -= (uint64_t)(coordinates[d] - 1u) * strides[d];
            coordinates[d] = 0;
        }
    }
}

void runner_scatter(const dmlconf_tensor_desc *desc, const void *logical, void *buffer)
{
    scatter_range(desc, 0, dmlconf_tensor_element_count(desc), logical, buffer);
}

/* splitmix64's finaliser: a different, well-mixed seed per run seed. */
static uint64_t mix_seed(uint64_t seed, uint64_t run_seed)
{
    uint64_t z = seed ^ (run_seed * UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Reads the case's logical input elements [first, first + count) into out,
 * the run's seed applied to generated data. Returns 0, or -1 with why set.
 * Safe on several threads at once. */
static int read_input_range(const dmlconf_case *c, uint64_t seed, uint64_t first, uint64_t count, void *out, char *why,
                            size_t why_size)
{
    if (seed && c->input.kind == DMLCONF_CASE_DATA_GENERATOR)
    {
        dmlconf_datagen_spec spec = c->input.generator;
        spec.seed = mix_seed(spec.seed, seed);
        dmlconf_datagen_fill(&spec, first, count, out);
        return 0;
    }
    return dmlconf_case_data_read(c, &c->input, first, count, out, why, why_size);
}

void *runner_read_input(const dmlconf_case *c, uint64_t seed, char *why, size_t why_size)
{
    uint64_t count = dmlconf_case_element_count(c);
    size_t element = dmlconf_case_element_size(c);
    if (!count || !element || count > SIZE_MAX / element)
    {
        snprintf(why, why_size, "the case has no readable input");
        return NULL;
    }
    void *values = malloc((size_t)(count * element));
    if (!values)
    {
        snprintf(why, why_size, "out of memory for %llu input elements", (unsigned long long)count);
        return NULL;
    }
    if (read_input_range(c, seed, 0, count, values, why, why_size))
    {
        free(values);
        return NULL;
    }
    return values;
}

/* ---- filling an input buffer ----------------------------------------------- */

/* Elements a filling thread reads at a time. */
#define FILL_CHUNK (UINT64_C(1) << 16)
/* Cases with at least this many elements fill and judge on every CPU. */
#define PARALLEL_ELEMENTS (UINT64_C(1) << 22)
#define MAX_CASE_THREADS  32u

/* Threads a case may use to fill its input and judge its output. */
static unsigned case_threads(const dmlconf_case *c)
{
    if (dmlconf_case_element_count(c) < PARALLEL_ELEMENTS)
        return 1;
    unsigned cpus = dmlconf_cpu_count();
    return cpus > MAX_CASE_THREADS ? MAX_CASE_THREADS : cpus;
}

/* One thread's share of filling an output buffer with the canary. */
typedef struct canary_slice
{
    unsigned char *buffer;
    size_t bytes;
    size_t element;
    uint64_t bits;
    dmlconf_thread thread;
} canary_slice;

static int run_canary_slice(void *argument)
{
    canary_slice *slice = argument;
    dmlconf_canary_fill(slice->buffer, slice->bytes, slice->element, slice->bits);
    return 0;
}

/* dmlconf_canary_fill in slices of whole elements on `threads` threads
 * (this one included): for a buffer of gigabytes, the first touch of its
 * pages is shared out too. */
static void fill_canary(void *buffer, size_t bytes, size_t element, uint64_t bits, unsigned threads)
{
    enum
    {
        MAX_SLICES = MAX_CASE_THREADS
    };
    canary_slice slices[MAX_SLICES];
    bool started[MAX_SLICES] = {false};
    threads = threads < 1u ? 1u : threads > MAX_SLICES ? MAX_SLICES : threads;
    size_t elements = bytes / element;
    size_t begin = 0;
    for (unsigned t = 0; t < threads; ++t)
    {
        /* The last slice takes the bytes after the last whole element. */
        size_t end = t + 1u == threads ? bytes : elements * (t + 1u) / threads * element;
        slices[t] = (canary_slice){(unsigned char *)buffer + begin, end - begin, element, bits, {NULL}};
        begin = end;
    }
    for (unsigned t = 1; t < threads; ++t)
        started[t] = dmlconf_thread_start(&slices[t].thread, run_canary_slice, &slices[t]) == 0;
    run_canary_slice(&slices[0]);
    for (unsigned t = 1; t < threads; ++t)
    {
        if (started[t])
            dmlconf_thread_join(&slices[t].thread);
        else
            run_canary_slice(&slices[t]);
    }
}

/* One thread's share of filling an input buffer. */
typedef struct fill_part
{
    const dmlconf_case *c;
    uint64_t seed;
    const dmlconf_tensor_desc *layout;
    unsigned char *buffer;
    uint64_t first, count;
    int status;
    char why[256];
    dmlconf_thread thread;
} fill_part;

static int run_fill_part(void *argument)
{
    fill_part *part = argument;
    const dmlconf_tensor_desc *layout = part->layout;
    size_t element = dmlconf_case_element_size(part->c);
    part->status = 0;
    if (!layout->has_strides)
    {
        /* Packed: the logical elements are the buffer's. */
        part->status = read_input_range(part->c, part->seed, part->first, part->count,
                                        part->buffer + part->first * element, part->why, sizeof(part->why));
        return 0;
    }
    uint64_t chunk = part->count < FILL_CHUNK ? part->count : FILL_CHUNK;
    unsigned char *values = malloc((size_t)chunk * element);
    if (!values)
    {
        snprintf(part->why, sizeof(part->why), "out of memory for the input's chunks");
        part->status = -1;
        return 0;
    }
    for (uint64_t done = 0; done < part->count && part->status == 0; done += chunk)
    {
        uint64_t count = part->count - done < chunk ? part->count - done : chunk;
        part->status =
            read_input_range(part->c, part->seed, part->first + done, count, values, part->why, sizeof(part->why));
        if (part->status == 0)
            scatter_range(layout, part->first + done, count, values, part->buffer);
    }
    free(values);
    return 0;
}

/* Lays the case's logical input out in `buffer` by `layout`, reading it in
 * chunks on `threads` threads (this one included); bytes between elements
 * are left as they are. Returns 0, or -1 with why set. */
static int fill_input(const dmlconf_case *c, uint64_t seed, const dmlconf_tensor_desc *layout, void *buffer,
                      unsigned threads, char *why, size_t why_size)
{
    uint64_t count = dmlconf_case_element_count(c);
    if (threads < 1u)
        threads = 1u;
    fill_part *parts = calloc(threads, sizeof(*parts));
    if (!parts)
    {
        snprintf(why, why_size, "out of memory for filling the input");
        return -1;
    }
    for (unsigned t = 0; t < threads; ++t)
    {
        /* Parts of whole chunks, so that every thread reads full ones. */
        uint64_t chunks = (count + FILL_CHUNK - 1u) / FILL_CHUNK;
        uint64_t begin = chunks * t / threads * FILL_CHUNK, end = chunks * (t + 1u) / threads * FILL_CHUNK;
        begin = begin < count ? begin : count;
        end = end < count ? end : count;
        parts[t] = (fill_part){c, seed, layout, buffer, begin, end - begin, 0, "", {NULL}};
    }
    bool *started = calloc(threads, sizeof(*started));
    for (unsigned t = 1; started && t < threads; ++t)
        started[t] = dmlconf_thread_start(&parts[t].thread, run_fill_part, &parts[t]) == 0;
    run_fill_part(&parts[0]);
    int status = 0;
    for (unsigned t = 0; t < threads; ++t)
    {
        if (t > 0)
        {
            if (started && started[t])
                dmlconf_thread_join(&parts[t].thread);
            else
                run_fill_part(&parts[t]); /* no thread: here */
        }
    }
    for (unsigned t = 0; t < threads && status == 0; ++t)
    {
        if (parts[t].status)
        {
            snprintf(why, why_size, "%s", parts[t].why);
            status = -1;
        }
    }
    free(started);
    free(parts);
    return status;
}

void runner_case_tolerance(const dmlconf_case *c, const dmlconf_backend_info *info, dmlconf_tolerance *tol)
{
    dmlconf_case_judging_tolerance(c, info->exact, tol);
    bool own = false;
    for (unsigned f = 0; f < DMLCONF_TOLERANCE_FIELD_COUNT; ++f)
        own = own || c->tolerance.overrides.set[f];
    if (info->float16_accumulation == DMLCONF_DATA_TYPE_FLOAT16 && !own && !tol->bit_exact &&
        c->desc.output.data_type == DMLCONF_DATA_TYPE_FLOAT16)
    {
        /* docs/half-precision-rule.md: float16 arithmetic, which may flush
         * subnormals as D3D's min-precision arithmetic may. */
        tol->accumulation = DMLCONF_DATA_TYPE_FLOAT16;
        tol->ftz = true;
    }
}

/* One case on its way through a batch. */
typedef struct prepared_case
{
    const dmlconf_case *c;
    uint64_t seed;    /* the run's, mixed into generated data */
    unsigned threads; /* for filling and judging */
    dmlconf_case_result *result;
    bool runs;           /* a job was queued; false: result is final */
    void *input_buffer;  /* laid out by the input desc (the output buffer, in place) */
    void *output_buffer; /* laid out by the output desc */
    uint64_t input_bytes, output_bytes;
    dmlconf_reason expected_reason; /* negative cases: the oracle's reason at the target level */
    unsigned canary_attempt;        /* which canary the output was filled with (dmlconf_canary_bits) */
    uint64_t canary;
    double own_seconds; /* preparing and judging this case (not the batch's backend call) */
} prepared_case;

static void release_case(prepared_case *p)
{
    if (p->input_buffer != p->output_buffer)
        dmlconf_large_free(p->input_buffer);
    dmlconf_large_free(p->output_buffer);
    p->input_buffer = p->output_buffer = NULL;
}

/* Allocates the input and output buffers of a positive case and fills them:
 * the input laid out by its strides, the output with canary bytes (or with
 * the input, in place). Returns 0, or -1 with the result set to error. */
static int fill_buffers(prepared_case *p)
{
    const dmlconf_scan_desc *desc = &p->c->desc;
    uint64_t logical_bytes = dmlconf_case_element_count(p->c) * dmlconf_case_element_size(p->c);
    char why[256];
    p->input_bytes = runner_buffer_bytes(&desc->input);
    p->output_bytes = runner_buffer_bytes(&desc->output);
    if (p->input_bytes > SIZE_MAX || p->output_bytes > SIZE_MAX)
        goto oom;
    if (p->output_bytes > SIZE_MAX - DMLCONF_CANARY_GUARD)
        goto oom;
    /* The output, padding and a guard after it hold the canary. */
    p->output_buffer = dmlconf_large_alloc((size_t)p->output_bytes + DMLCONF_CANARY_GUARD);
    if (!p->output_buffer)
        goto oom;
    size_t element = dmlconf_case_element_size(p->c);
    p->canary = dmlconf_canary_bits(desc->output.data_type, p->canary_attempt);
    fill_canary(p->output_buffer, (size_t)p->output_bytes + DMLCONF_CANARY_GUARD, element ? element : 1, p->canary,
                p->threads);
    if (desc->in_place)
    {
        p->input_buffer = p->output_buffer;
    }
    else
    {
        p->input_buffer = dmlconf_large_alloc((size_t)p->input_bytes);
        if (!p->input_buffer)
            goto oom;
        /* Padding between and after the elements holds a known pattern. */
        if (desc->input.has_strides || p->input_bytes != logical_bytes)
            memset(p->input_buffer, CANARY_BYTE, (size_t)p->input_bytes);
    }
    if (fill_input(p->c, p->seed, &desc->input, p->input_buffer, p->threads, why, sizeof(why)))
    {
        runner_result_init(p->result, p->c, DMLCONF_STATUS_ERROR, why);
        p->result->failure = DMLCONF_FAILURE_JUDGING;
        return -1;
    }
    return 0;

oom:
    /* This machine's memory, not the implementation's doing: not judged. */
    runner_result_init(p->result, p->c, DMLCONF_STATUS_NO_RESOURCES, NULL);
    snprintf(p->result->message, sizeof(p->result->message),
             "not judged: out of memory for the buffers (%llu input and %llu output bytes)",
             (unsigned long long)p->input_bytes, (unsigned long long)p->output_bytes);
    return -1;
}

/* Records a case outside the backend's capabilities: skipped and marked
 * unsupported, with what it needs, so that the verdict names it. */
static void mark_unsupported(dmlconf_case_result *result, const dmlconf_case *c, const char *needs, const char *why)
{
    runner_result_init(result, c, DMLCONF_STATUS_SKIP, NULL);
    dmlconf_case_verdict_unsupported(result, needs, why);
}

/* Writes a byte count for people: "17.2 GB", "512 MB", "96 kB", "100 bytes". */
static void format_bytes(uint64_t bytes, char *text, size_t size)
{
    static const char *const units[] = {"bytes", "kB", "MB", "GB", "TB"};
    double value = (double)bytes;
    unsigned unit = 0;
    while (value >= 1000.0 && unit + 1 < sizeof(units) / sizeof(units[0]))
    {
        value /= 1000.0;
        ++unit;
    }
    if (unit == 0)
        snprintf(text, size, "%llu bytes", (unsigned long long)bytes);
    else
        snprintf(text, size, "%.1f %s", value, units[unit]);
}

/* Whether running the case would take more memory than a case may: its
 * buffers are computed from its descs before anything is allocated. Sets
 * the result (error, with the need and the limit) when it would. */
static bool over_memory_limit(const dmlconf_case *c, uint64_t limit, bool oracle_backend, dmlconf_case_result *result)
{
    dmlconf_case_buffers buffers;
    if (!limit || !dmlconf_case_buffer_bytes(c, &buffers))
        return false;
    /* The oracle as the backend copies the lines it cannot scan where they
     * lie (a decreasing 2^31-element line: two more of its size). */
    uint64_t scratch = oracle_backend ? dmlconf_compute_scratch_bytes(&c->desc, false) : 0;
    /* The input and output buffers (one, in place) with the canary guard,
     * and the comparator's chunks in flight, whatever the tensor's size:
     * on one thread 2^16 elements of about 64 bytes (input, expected value,
     * side data), on several a pipeline of at most 2^22 elements of about
     * 128 bytes. */
    uint64_t count = dmlconf_case_element_count(c);
    uint64_t chunk = case_threads(c) > 1 ? UINT64_C(1) << 22 : UINT64_C(1) << 16;
    uint64_t judging = (count < chunk ? count : chunk) * (case_threads(c) > 1 ? 128u : 64u);
    uint64_t need = buffers.input + buffers.output + DMLCONF_CANARY_GUARD + judging + scratch;
    if (need <= limit)
        return false;
    char need_text[32], limit_text[32], input[32], output[32];
    format_bytes(need, need_text, sizeof(need_text));
    format_bytes(limit, limit_text, sizeof(limit_text));
    format_bytes(buffers.input, input, sizeof(input));
    format_bytes(c->desc.in_place ? 0 : buffers.output, output, sizeof(output));
    char scratch_text[64] = "";
    if (scratch)
    {
        char bytes[32];
        format_bytes(scratch, bytes, sizeof(bytes));
        snprintf(scratch_text, sizeof(scratch_text), ", the oracle's line copies of %s", bytes);
    }
    snprintf(result->message, sizeof(result->message),
             "not run: it needs about %s of memory (an input buffer of %s, an output buffer of %s%s%s and the "
             "comparator's chunks), more than the limit of %s a case (--memory-limit)",
             need_text, input, output, c->desc.in_place ? " (in place: the input's)" : "", scratch_text,
             limit_text);
    return true;
}

/* Decides whether a case runs and prepares its job. */
static void prepare_case(runner_backend *backend, const runner_config *config, prepared_case *p, dmlconf_job *job)
{
    const dmlconf_case *c = p->c;
    char why[256], needs[96];
    p->runs = false;
    memset(job, 0, sizeof(*job));
    job->desc = &c->desc;
    job->feature_level = config->level;
    job->device_seconds = -1.0;

    if (c->expect_error.set)
    {
        dmlconf_validation validation;
        if (dmlconf_validate(&c->desc, config->level, &validation))
        {
            runner_result_init(p->result, c, DMLCONF_STATUS_SKIP, NULL);
            snprintf(p->result->message, sizeof(p->result->message),
                     "valid at the target level %s; the case checks that %s rejects it below",
                     dmlconf_feature_level_name(config->level), "the device");
            return;
        }
        if (runner_case_unsupported(&backend->info, c, needs, sizeof(needs), why, sizeof(why)))
        {
            mark_unsupported(p->result, c, needs, why);
            return;
        }
        p->expected_reason = validation.reason;
        runner_result_init(p->result, c, DMLCONF_STATUS_ERROR, "not run");
        p->runs = true;
        return;
    }
    if (c->min_feature_level > config->level)
    {
        runner_result_init(p->result, c, DMLCONF_STATUS_SKIP, NULL);
        snprintf(p->result->message, sizeof(p->result->message), "needs feature level %s; the target is %s",
                 dmlconf_feature_level_name(c->min_feature_level), dmlconf_feature_level_name(config->level));
        return;
    }
    if (runner_case_unsupported(&backend->info, c, needs, sizeof(needs), why, sizeof(why)))
    {
        mark_unsupported(p->result, c, needs, why);
        return;
    }
    runner_result_init(p->result, c, DMLCONF_STATUS_ERROR, "not run");
    if (over_memory_limit(c, config->memory_limit, runner_backend_is_self_check(backend->backend->ops), p->result))
    {
        /* Over the machine's limit: not judged, which leaves the verdict
         * incomplete rather than failing the implementation. */
        p->result->status = DMLCONF_STATUS_NO_RESOURCES;
        return;
    }
    p->seed = config->seed;
    p->threads = case_threads(c);
    if (fill_buffers(p))
    {
        release_case(p);
        return;
    }
    job->input = p->input_buffer;
    job->input_bytes = (size_t)p->input_bytes;
    job->output = p->output_buffer;
    job->output_bytes = (size_t)p->output_bytes;
    p->runs = true;
}

/* The backend's outcome of a job in the verdict's words. */
static dmlconf_answer answer_of(const dmlconf_job *job)
{
    dmlconf_answer answer = {DMLCONF_ANSWER_FAILED, job->reason, job->feature_level, job->message,
                             job->device_seconds};
    switch (job->outcome)
    {
    case DMLCONF_JOB_DONE:
        answer.kind = DMLCONF_ANSWER_DONE;
        break;
    case DMLCONF_JOB_REJECTED:
        answer.kind = DMLCONF_ANSWER_REJECTED;
        break;
    case DMLCONF_JOB_UNSUPPORTED:
        answer.kind = DMLCONF_ANSWER_DECLINED;
        break;
    case DMLCONF_JOB_NO_RESOURCES:
        answer.kind = DMLCONF_ANSWER_NO_RESOURCES;
        break;
    case DMLCONF_JOB_FAILED:
        break;
    }
    return answer;
}

/* The comparator's readers of a prepared case's input and expected values
 * (dmlconf_tensor_source.read). */
static int read_case_input(void *context, uint64_t first, uint64_t count, void *out, char *why, size_t why_size)
{
    const prepared_case *p = context;
    return read_input_range(p->c, p->seed, first, count, out, why, why_size);
}

static int read_case_expected(void *context, uint64_t first, uint64_t count, void *out, char *why, size_t why_size)
{
    const prepared_case *p = context;
    return dmlconf_case_data_read(p->c, &p->c->expected, first, count, out, why, why_size);
}

/* Judges a positive case's job: compare the output with the oracle (or the
 * case's expected values). */
static void judge_output(const runner_backend *backend, prepared_case *p, const dmlconf_job *job)
{
    const dmlconf_case *c = p->c;
    dmlconf_tolerance tol;
    runner_case_tolerance(c, &backend->info, &tol);
    /* Out of place, an element that still holds the canary was never
     * written; in place, unwritten elements hold their input instead. */
    tol.has_canary = !c->desc.in_place;
    tol.canary_bits = p->canary;
    dmlconf_compare_job compare = {
        .desc = &c->desc,
        .actual = p->output_buffer,
        .actual_bytes = (size_t)p->output_bytes,
        .tol = &tol,
        .threads = p->threads,
    };
    /* The input where it is, by its strides; in place the output has
     * replaced it, so it is read from the case again. */
    if (c->desc.in_place)
    {
        compare.input.read = read_case_input;
        compare.input.context = p;
    }
    else
    {
        compare.input.buffer = p->input_buffer;
        compare.input.bytes = (size_t)p->input_bytes;
        compare.input.layout = &c->desc.input;
    }
    if (c->expected.kind != DMLCONF_CASE_DATA_NONE)
    {
        compare.expected.read = read_case_expected;
        compare.expected.context = p;
    }
    dmlconf_answer answer = answer_of(job);
    dmlconf_case_verdict_output(&answer, &compare, p->canary, p->result);
}

static void judge(const runner_backend *backend, prepared_case *p, const dmlconf_job *job)
{
    if (p->c->expect_error.set)
    {
        dmlconf_answer answer = answer_of(job);
        dmlconf_case_verdict_rejection(&answer, p->expected_reason, p->result);
    }
    else
        judge_output(backend, p, job);
}

/* Runs one prepared case again, alone, with canary `attempt`, and judges
 * it into *again. */
static void rerun_case(runner_backend *backend, const runner_config *config, const dmlconf_case *c, unsigned attempt,
                       dmlconf_case_result *again)
{
    prepared_case p = {.c = c, .result = again, .canary_attempt = attempt};
    dmlconf_job job;
    prepare_case(backend, config, &p, &job);
    if (p.runs)
    {
        backend->backend->ops->execute(backend->backend, &job, 1);
        judge(backend, &p, &job);
    }
    release_case(&p);
}

/* Some expected values were the canary itself, so whether those elements
 * were written could not be seen: the case runs again with the other
 * canary, and that judgement stands (unless the second run fails to run,
 * when the first one's is kept with a note). */
static void rejudge_with_other_canary(runner_backend *backend, const runner_config *config,
                                      const dmlconf_case *c, dmlconf_case_result *result)
{
    dmlconf_case_result *again = malloc(sizeof(*again));
    if (!again)
        return;
    rerun_case(backend, config, c, 1, again);
    if (again->status == DMLCONF_STATUS_PASS || again->status == DMLCONF_STATUS_FAIL)
    {
        again->attempts = result->attempts;
        again->wall_seconds = result->wall_seconds;
        *result = *again;
    }
    else
    {
        size_t used = strlen(result->message);
        snprintf(result->message + used, sizeof(result->message) - used,
                 "%s%llu elements equal to the canary could not be checked: the run with the other canary ended in "
                 "%s",
                 used ? "; " : "", (unsigned long long)result->comparison.canary_ambiguous,
                 dmlconf_status_name(again->status));
    }
    free(again);
}

/* Runs a case again, alone, and judges it as its batch did: with the
 * first canary, then with the other where expected values are the first
 * one, so that an output never written fails every time it runs (and is
 * never taken for a flake). */
static void rerun_judged(runner_backend *backend, const runner_config *config, const dmlconf_case *c,
                         dmlconf_case_result *again)
{
    rerun_case(backend, config, c, 0, again);
    if (again->comparison.canary_ambiguous && !c->expect_error.set)
        rejudge_with_other_canary(backend, config, c, again);
}

/* After a failure: rerun to tell a flake, then shrink a confirmed failure. */
static void follow_up_failure(runner_backend *backend, const runner_config *config, prepared_case *p)
{
    dmlconf_case_result *r = p->result;
    if (config->rerun_failures)
    {
        dmlconf_case_result *again = malloc(sizeof(*again));
        if (again)
        {
            rerun_judged(backend, config, p->c, again);
            r->attempts = 2;
            if (again->status == DMLCONF_STATUS_PASS)
            {
                r->status = DMLCONF_STATUS_FLAKE;
                size_t used = strlen(r->message);
                snprintf(r->message + used, sizeof(r->message) - used, "%sfailed 1 of 2 attempts: passed when rerun",
                         used ? "; " : "");
            }
            free(again);
        }
    }
    if (r->status == DMLCONF_STATUS_FAIL && config->shrink && config->repro_dir && !p->c->expect_error.set)
    {
        /* The shrinker works on the logical input, read here only for a
         * confirmed failure. */
        char why[256];
        void *input = runner_read_input(p->c, config->seed, why, sizeof(why));
        if (!input ||
            runner_shrink(backend, config, p->c, input, r->failure, r->repro_path, sizeof(r->repro_path), why,
                          sizeof(why)))
        {
            size_t used = strlen(r->message);
            snprintf(r->message + used, sizeof(r->message) - used, " (no reproducer: %s)", why);
        }
        free(input);
    }
}

/* Elements a case puts into a batch (at least 1). */
static uint64_t case_weight(const dmlconf_case *c)
{
    uint64_t count = c->expect_error.set ? 1 : dmlconf_case_element_count(c);
    return count ? count : 1;
}

/* A batch's cases between the threads that prepare and judge them. */
typedef struct batch_work
{
    runner_backend *backend;
    const runner_config *config;
    prepared_case *prepared;
    dmlconf_job *case_jobs; /* prepared[i]'s job */
    dmlconf_job *jobs;      /* the jobs that run, in order */
    size_t *job_case;       /* jobs[j] is prepared[job_case[j]]'s */
} batch_work;

static void prepare_one(void *context, size_t i)
{
    batch_work *w = context;
    double preparing = dmlconf_clock_seconds();
    prepare_case(w->backend, w->config, &w->prepared[i], &w->case_jobs[i]);
    w->prepared[i].own_seconds = dmlconf_clock_seconds() - preparing;
}

static void judge_one(void *context, size_t j)
{
    batch_work *w = context;
    prepared_case *p = &w->prepared[w->job_case[j]];
    double judging = dmlconf_clock_seconds();
    judge(w->backend, p, &w->jobs[j]);
    p->own_seconds += dmlconf_clock_seconds() - judging;
}

/* Threads for a batch of cases: one per case up to the configured number,
 * and one for a case large enough to fill and judge on threads of its own. */
static unsigned batch_threads(const runner_config *config, const dmlconf_case *const *cases, size_t count)
{
    for (size_t i = 0; i < count; ++i)
    {
        if (case_threads(cases[i]) > 1)
            return 1;
    }
    unsigned threads = config->host_threads ? config->host_threads : 1u;
    return count < threads ? (unsigned)count : threads;
}

void runner_execute(runner_backend *backend, const runner_config *config, const dmlconf_case *const *cases,
                    size_t count, dmlconf_case_result *results)
{
    uint64_t limit = config->batch_elements ? config->batch_elements : (UINT64_C(1) << 22);
    size_t first = 0;
    while (first < count)
    {
        /* A batch: consecutive cases up to the element limit (at least one). */
        size_t end = first;
        uint64_t weight = 0;
        while (end < count && (end == first || weight + case_weight(cases[end]) <= limit))
            weight += case_weight(cases[end++]);
        size_t n = end - first;

        prepared_case *prepared = calloc(n, sizeof(*prepared));
        dmlconf_job *case_jobs = calloc(n, sizeof(*case_jobs));
        dmlconf_job *jobs = calloc(n, sizeof(*jobs));
        size_t *job_case = calloc(n, sizeof(*job_case));
        if (!prepared || !case_jobs || !jobs || !job_case)
        {
            for (size_t i = first; i < end; ++i)
                runner_result_init(&results[i], cases[i], DMLCONF_STATUS_NO_RESOURCES,
                                   "not judged: out of memory for a batch");
            free(prepared);
            free(case_jobs);
            free(jobs);
            free(job_case);
            first = end;
            continue;
        }
        for (size_t i = 0; i < n; ++i)
        {
            prepared[i].c = cases[first + i];
            prepared[i].result = &results[first + i];
        }
        batch_work work = {backend, config, prepared, case_jobs, jobs, job_case};
        unsigned threads = batch_threads(config, cases + first, n);
        runner_for_each(n, threads, prepare_one, &work);
        size_t job_count = 0;
        uint64_t run_weight = 0; /* of the cases in the backend call */
        for (size_t i = 0; i < n; ++i)
        {
            if (prepared[i].runs)
            {
                job_case[job_count] = i;
                jobs[job_count++] = case_jobs[i];
                run_weight += case_weight(prepared[i].c);
            }
        }
        double started = dmlconf_clock_seconds();
        if (job_count)
            backend->backend->ops->execute(backend->backend, jobs, job_count);
        double batch_seconds = dmlconf_clock_seconds() - started;
        runner_for_each(job_count, threads, judge_one, &work);
        /* What runs the backend again, one case at a time, in order. */
        for (size_t j = 0; j < job_count; ++j)
        {
            prepared_case *p = &prepared[job_case[j]];
            double judging = dmlconf_clock_seconds();
            if (p->result->comparison.canary_ambiguous && !p->c->expect_error.set)
                rejudge_with_other_canary(backend, config, p->c, p->result);
            if (p->result->status == DMLCONF_STATUS_FAIL)
                follow_up_failure(backend, config, p);
            p->own_seconds += dmlconf_clock_seconds() - judging;
        }
        for (size_t i = 0; i < n; ++i)
        {
            /* A case's wall time is its own preparation and judging, and its
             * share by weight of the one backend call that ran the batch
             * (which times no case on its own); the shares add up to the
             * call, so the cases' times add up to the batch's. */
            double share =
                prepared[i].runs ? batch_seconds * (double)case_weight(prepared[i].c) / (double)run_weight : 0.0;
            prepared[i].result->wall_seconds = prepared[i].own_seconds + share;
            release_case(&prepared[i]);
        }
        free(prepared);
        free(case_jobs);
        free(jobs);
        free(job_case);
        first = end;
    }
}
