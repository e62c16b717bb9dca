/*
 * The per-element pipeline of one large case, stage by stage: fresh
 * buffers, generating the input, the backend (the oracle backend's
 * computation), the oracle's scan in the comparator, judging, and then the
 * whole case end to end through `dmlconf run` with its peak memory.
 * Baselines measured in the same run: copying the tensor once (memory
 * bandwidth), a plain float prefix sum, and the oracle's own time (the
 * oracle backend's computation of the case), against which the end to end
 * time and every stage are also given as multiples.
 *
 * The in-process stages call the same library functions with the same
 * thread counts as the runner (execute.c, oracle_backend.c): buffers from
 * dmlconf_large_alloc, written first with the canary on every CPU; the
 * generator in slices on every CPU for cases of 2^22 elements or more, the
 * oracle backend's computation (dmlconf_oracle_compute_segmented, in segments
 * on every CPU; dmlconf_compute on one thread for comparison), dmlconf_scan_walk in
 * chunks, dmlconf_compare_tensor. Each is the best of 3 (the machine may be
 * shared: the CPU time is printed next to the wall time, and a wall time far
 * above it means other work took the CPUs). The end to end runs come first,
 * before this process holds any tensor; their system CPU time is mostly the
 * kernel zeroing the fresh pages of the two tensors.
 *
 * Usage: dmlconf_pipeline_bench [ELEMENTS [DMLCONF]]   (default 10^8)
 */
#define _DEFAULT_SOURCE

#include "bench_command.h"

#include <dmlconf/canary.h>
#include <dmlconf/clock.h>
#include <dmlconf/comparator.h>
#include <dmlconf/datagen.h>
#include <dmlconf/integer_text.h>
#include <dmlconf/large_memory.h>
#include <dmlconf/oracle.h>
#include <dmlconf/oracle_backend.h>
#include <dmlconf/threads.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef DMLCONF_BINARY
#define DMLCONF_BINARY "dmlconf"
#endif

/* The targets for a 10^8-element float32 case on the 2-core build machine:
 * end to end, end to end against the oracle's own time, peak memory. */
#define TARGET_SECONDS           1.5
#define TARGET_ORACLE_MULTIPLE   6.0
#define TARGET_BYTES_PER_ELEMENT 13.0

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One measured stage: the best wall time of its runs and that run's CPU
 * time, and the first run's wall time. */
typedef struct stage
{
    const char *name;
    double wall;
    double cpu;
    double first;
} stage;

typedef struct bench
{
    uint64_t n;
    unsigned threads;
    dmlconf_datagen_spec spec;
    dmlconf_scan_desc desc;
    float *input;
    float *output;
    float *oracle;
} bench;

/* ---- the stages ---------------------------------------------------------------- */

/* One thread's slice of a buffer written with the canary. */
typedef struct canary_slice
{
    unsigned char *buffer;
    size_t bytes;
    dmlconf_thread thread;
} canary_slice;

static int canary_slice_run(void *argument)
{
    canary_slice *s = argument;
    dmlconf_canary_fill(s->buffer, s->bytes, sizeof(float), dmlconf_canary_bits(DMLCONF_DATA_TYPE_FLOAT32, 0));
    return 0;
}

/* Writes a buffer with the float32 canary in slices on `threads` threads,
 * as the runner fills an output buffer. */
static void canary_fill(void *buffer, size_t bytes, unsigned threads)
{
    canary_slice slices[64];
    bool started[64] = {false};
    threads = threads > 64u ? 64u : threads;
    size_t elements = bytes / sizeof(float);
    for (unsigned t = 0; t < threads; ++t)
    {
        size_t first = elements * t / threads * sizeof(float);
        size_t end = t + 1u == threads ? bytes : elements * (t + 1u) / threads * sizeof(float);
        slices[t].buffer = (unsigned char *)buffer + first;
        slices[t].bytes = end - first;
    }
    for (unsigned t = 1; t < threads; ++t)
        started[t] = dmlconf_thread_start(&slices[t].thread, canary_slice_run, &slices[t]) == 0;
    canary_slice_run(&slices[0]);
    for (unsigned t = 1; t < threads; ++t)
    {
        if (started[t])
            dmlconf_thread_join(&slices[t].thread);
        else
            canary_slice_run(&slices[t]);
    }
}

/* The case's two buffers as the runner takes them: both allocated fresh,
 * their first write (the canary) on the runner's threads, freed. */
static void stage_fresh_buffers(bench *b)
{
    size_t bytes = (size_t)b->n * sizeof(float) + DMLCONF_CANARY_GUARD;
    void *buffers[2] = {dmlconf_large_alloc(bytes), dmlconf_large_alloc(bytes)};
    if (!buffers[0] || !buffers[1])
    {
        fprintf(stderr, "out of memory for two buffers of %zu bytes\n", bytes);
        exit(1);
    }
    for (int k = 0; k < 2; ++k)
        canary_fill(buffers[k], bytes, b->threads);
    dmlconf_large_free(buffers[1]);
    dmlconf_large_free(buffers[0]);
}

/* The same writes into two buffers whose pages are already there. */
static void stage_touched_buffers(bench *b)
{
    size_t bytes = (size_t)b->n * sizeof(float);
    canary_fill(b->output, bytes, b->threads);
    canary_fill(b->oracle, bytes, b->threads);
}

typedef struct fill_slice
{
    const bench *b;
    uint64_t first, count;
    dmlconf_thread thread;
} fill_slice;

static int fill_slice_run(void *argument)
{
    fill_slice *s = argument;
    dmlconf_datagen_fill(&s->b->spec, s->first, s->count, s->b->input + s->first);
    return 0;
}

static void stage_generate(bench *b, unsigned threads)
{
    fill_slice slices[64];
    threads = threads > 64u ? 64u : threads;
    for (unsigned t = 0; t < threads; ++t)
    {
        slices[t].b = b;
        slices[t].first = b->n * t / threads;
        slices[t].count = b->n * (t + 1u) / threads - slices[t].first;
    }
    bool started[64] = {false};
    for (unsigned t = 1; t < threads; ++t)
        started[t] = dmlconf_thread_start(&slices[t].thread, fill_slice_run, &slices[t]) == 0;
    fill_slice_run(&slices[0]);
    for (unsigned t = 1; t < threads; ++t)
    {
        if (started[t])
            dmlconf_thread_join(&slices[t].thread);
        else
            fill_slice_run(&slices[t]);
    }
}

static void stage_generate_one(bench *b)
{
    stage_generate(b, 1);
}

static void stage_generate_all(bench *b)
{
    stage_generate(b, b->threads);
}

static void stage_backend_one(bench *b)
{
    dmlconf_error err;
    size_t bytes = (size_t)b->n * sizeof(float);
    if (dmlconf_compute(&b->desc, b->input, bytes, b->output, bytes, NULL, &err))
    {
        fprintf(stderr, "dmlconf_compute: %s\n", err.message);
        exit(1);
    }
}

/* As the oracle backend computes: lines of 2^22 elements or more in
 * segments on every CPU (at most 32). */
static void stage_backend(bench *b)
{
    dmlconf_error err;
    size_t bytes = (size_t)b->n * sizeof(float);
    unsigned cpus = dmlconf_cpu_count();
    if (dmlconf_oracle_compute_segmented(&b->desc, b->input, bytes, b->output, bytes, cpus > 32u ? 32u : cpus,
                                         UINT64_C(1) << 22, &err))
    {
        fprintf(stderr, "dmlconf_oracle_compute_segmented: %s\n", err.message);
        exit(1);
    }
}

static void stage_oracle(bench *b)
{
    dmlconf_scan_walk walk;
    dmlconf_error err;
    if (dmlconf_scan_walk_init(&walk, b->desc.op, DMLCONF_DATA_TYPE_FLOAT32, false, NULL, NULL, &err))
        exit(1);
    const uint64_t piece = UINT64_C(1) << 16;
    for (uint64_t first = 0; first < b->n; first += piece)
    {
        size_t count = (size_t)(b->n - first < piece ? b->n - first : piece);
        if (dmlconf_scan_walk_next(&walk, count, b->input + first, b->oracle, &err))
        {
            fprintf(stderr, "dmlconf_scan_walk_next: %s\n", err.message);
            exit(1);
        }
    }
    dmlconf_scan_walk_release(&walk);
}

/* dmlconf_compare_tensor as the runner calls it on the oracle backend's
 * output (bit-exact), with or without the oracle's own values. */
static void compare(bench *b, bool with_oracle, bool exact)
{
    size_t bytes = (size_t)b->n * sizeof(float);
    dmlconf_tolerance tol;
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT32, &tol);
    tol.bit_exact = exact;
    dmlconf_compare_job job;
    memset(&job, 0, sizeof(job));
    job.desc = &b->desc;
    job.input.buffer = b->input;
    job.input.bytes = bytes;
    if (!with_oracle)
    {
        job.expected.buffer = b->output;
        job.expected.bytes = bytes;
    }
    job.actual = b->output;
    job.actual_bytes = bytes;
    job.tol = &tol;
    job.threads = b->threads;
    dmlconf_comparison result;
    dmlconf_error err;
    if (dmlconf_compare_tensor(&job, &result, &err) || result.mismatches)
    {
        fprintf(stderr, "dmlconf_compare_tensor: %s (%" PRIu64 " mismatches)\n", err.message, result.mismatches);
        exit(1);
    }
}

static void stage_judge(bench *b)
{
    compare(b, false, true);
}

static void stage_compare(bench *b)
{
    compare(b, true, true);
}

static void stage_compare_bound(bench *b)
{
    compare(b, true, false);
}

static void baseline_copy(bench *b)
{
    memcpy(b->oracle, b->input, (size_t)b->n * sizeof(float));
}

static void baseline_naive(bench *b)
{
    float sum = 0.0f;
    for (uint64_t i = 0; i < b->n; ++i)
    {
        sum += b->input[i];
        b->oracle[i] = sum;
    }
}

static stage measure(const char *name, bench *b, void (*run)(bench *))
{
    stage best = {name, 0.0, 0.0, 0.0};
    for (int attempt = 0; attempt < 3; ++attempt)
    {
        double wall = dmlconf_clock_seconds(), cpu = cpu_seconds();
        run(b);
        wall = dmlconf_clock_seconds() - wall;
        cpu = cpu_seconds() - cpu;
        if (attempt == 0)
            best.first = wall;
        if (attempt == 0 || wall < best.wall)
        {
            best.wall = wall;
            best.cpu = cpu;
        }
    }
    return best;
}

static void print_stage(const bench *b, const stage *s, const char *note)
{
    printf("  %-34s %9.1f ms  %6.2f ns/element  (CPU %6.2f ns/element)%s%s\n", s->name, s->wall * 1e3,
           s->wall / (double)b->n * 1e9, s->cpu / (double)b->n * 1e9, note[0] ? "  " : "", note);
}

/* ---- end to end --------------------------------------------------------------------- */

/* The case end to end through the command, 3 runs one after the other:
 * the first and the best (by wall time), and the peak resident memory of
 * the worst run in KiB. Returns 0, or -1. Run first, before this process
 * holds any tensor: a forked child starts with its parent's memory in its
 * peak. */
static int end_to_end(const char *dmlconf, uint64_t n, bench_command_run *first, bench_command_run *best, long *worst_peak)
{
    char work[] = "/tmp/dmlconf-pipeline-XXXXXX";
    if (!mkdtemp(work))
    {
        perror("mkdtemp");
        return -1;
    }
    char yaml_path[600], report[600];
    snprintf(yaml_path, sizeof(yaml_path), "%s/case.yaml", work);
    snprintf(report, sizeof(report), "%s/report", work);
    FILE *yaml = fopen(yaml_path, "w");
    if (!yaml)
    {
        perror(yaml_path);
        return -1;
    }
    fprintf(yaml,
            "cases:\n  - id: bench.pipeline.float32\n    op: cumulative_summation\n    dtype: float32\n"
            "    sizes: [%" PRIu64 "]\n    axis: 0\n    input: {generate: uniform, min: -1, max: 1, seed: 1}\n",
            n);
    fclose(yaml);
    int result = 0;
    *worst_peak = 0;
    for (int attempt = 0; attempt < 3 && result == 0; ++attempt)
    {
        char remove_report[700];
        snprintf(remove_report, sizeof(remove_report), "rm -rf '%s'", report);
        if (system(remove_report) != 0)
            result = -1;
        const char *command[] = {dmlconf, "run",        "-q", "--backend", "oracle",  "-j",
                                 "1",     "--no-repro", "-o", report,      yaml_path, NULL};
        bench_command_run run = {0};
        int status = bench_command(command, false, &run) ? -1 : run.exit_status;
        if (status != 0)
        {
            fprintf(stderr, "%s run exited with status %d\n", dmlconf, status);
            result = -1;
        }
        if (attempt == 0)
            *first = run;
        if (attempt == 0 || run.wall < best->wall)
            *best = run;
        if (run.peak_kib > *worst_peak)
            *worst_peak = run.peak_kib;
    }
    char remove_work[700];
    snprintf(remove_work, sizeof(remove_work), "rm -rf '%s'", work);
    if (system(remove_work) != 0)
        fprintf(stderr, "could not remove %s\n", work);
    return result;
}

static void print_run(const bench *b, const char *name, const bench_command_run *run)
{
    double n = (double)b->n;
    printf("  %-34s %9.1f ms  %6.2f ns/element  (CPU %6.2f ns/element: user %.2f, system %.2f)\n", name,
           run->wall * 1e3, run->wall / n * 1e9, (run->user + run->system) / n * 1e9, run->user / n * 1e9,
           run->system / n * 1e9);
}

/* A stage's line in the breakdown of the end to end time: its wall time,
 * its share of the end to end time and its multiple of the oracle's own
 * time. */
static void print_share(const char *name, double seconds, double end_to_end_seconds, double oracle_seconds,
                        const char *note)
{
    printf("  %-44s %9.1f ms  %5.1f%%  %5.2fx the oracle%s%s\n", name, seconds * 1e3,
           seconds / end_to_end_seconds * 100.0, seconds / oracle_seconds, note[0] ? "  " : "", note);
}

int main(int argc, char **argv)
{
    bench b;
    memset(&b, 0, sizeof(b));
    b.n = UINT64_C(100000000);
    const char *dmlconf = argc > 2 ? argv[2] : DMLCONF_BINARY;
    if (argc > 1 && !dmlconf_parse_u64(argv[1], 1, UINT32_MAX, &b.n))
    {
        fprintf(stderr, "usage: dmlconf_pipeline_bench [ELEMENTS (1 to 4294967295) [DMLCONF]]\n");
        return 2;
    }
    unsigned cpus = dmlconf_cpu_count();
    b.threads = b.n >= (UINT64_C(1) << 22) ? (cpus > 32u ? 32u : cpus) : 1u;
    dmlconf_datagen_init(&b.spec, DMLCONF_DATA_TYPE_FLOAT32);
    const char *keys[][2] = {{"generate", "uniform"}, {"min", "-1"}, {"max", "1"}, {"seed", "1"}};
    for (size_t k = 0; k < 4; ++k)
        dmlconf_datagen_set(&b.spec, keys[k][0], keys[k][1], NULL, 0);
    b.desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    b.desc.input.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    b.desc.input.dimension_count = 1;
    b.desc.input.sizes[0] = (uint32_t)b.n;
    b.desc.output = b.desc.input;
    bench_command_run first_run, best_run;
    long worst_peak = 0;
    if (end_to_end(dmlconf, b.n, &first_run, &best_run, &worst_peak))
        return 1;

    /* The tensors in the buffers the runner uses (huge pages where the
     * system gives them), every page touched first: the stages measure
     * work, not page faults (the fresh-buffer stage measures those). */
    size_t bytes = (size_t)b.n * sizeof(float) + 4u;
    b.input = dmlconf_large_alloc(bytes);
    b.output = dmlconf_large_alloc(bytes);
    b.oracle = dmlconf_large_alloc(bytes);
    if (!b.input || !b.output || !b.oracle)
    {
        fprintf(stderr, "out of memory for three tensors of %" PRIu64 " elements\n", b.n);
        return 1;
    }
    memset(b.input, 0, bytes);
    memset(b.output, 0, bytes);
    memset(b.oracle, 0, bytes);

    printf("dmlconf pipeline benchmark: one float32 cumulative sum of %" PRIu64
           " elements, uniform [-1, 1] input, %u CPUs (%u threads for a case this size)\n\n",
           b.n, cpus, b.threads);
    printf("baselines (same run):\n");
    stage copy = measure("copy the tensor once (memcpy)", &b, baseline_copy);
    print_stage(&b, &copy, "");
    stage naive = measure("plain float prefix sum", &b, baseline_naive);
    print_stage(&b, &naive, "");

    printf("\nstages, in-process, best of 3:\n");
    stage fresh = measure("fresh buffers (alloc, canary, free)", &b, stage_fresh_buffers);
    char fresh_note[96];
    snprintf(fresh_note, sizeof(fresh_note), "the two tensors' buffers; the first of 3: %.1f ms", fresh.first * 1e3);
    print_stage(&b, &fresh, fresh_note);
    stage touched = measure("the same writes, pages touched", &b, stage_touched_buffers);
    print_stage(&b, &touched, "");
    stage generate_one = measure("generate (1 thread)", &b, stage_generate_one);
    print_stage(&b, &generate_one, "");
    stage generate = measure("generate (the runner's threads)", &b, stage_generate_all);
    print_stage(&b, &generate, "");
    stage backend_one = measure("backend (dmlconf_compute)", &b, stage_backend_one);
    print_stage(&b, &backend_one, "");
    stage backend = measure("backend (oracle backend, threads)", &b, stage_backend);
    print_stage(&b, &backend, "the oracle's own time");
    stage oracle = measure("oracle (scan walk in chunks)", &b, stage_oracle);
    print_stage(&b, &oracle, "");
    stage judge = measure("judge (bit-exact, no oracle)", &b, stage_judge);
    print_stage(&b, &judge, "");
    stage compared = measure("compare = oracle + judge", &b, stage_compare);
    print_stage(&b, &compared, "what the runner does for the oracle backend");
    stage bound = measure("compare with the bound rule", &b, stage_compare_bound);
    print_stage(&b, &bound, "what it does for a GPU backend (side data too)");
    dmlconf_large_free(b.oracle);
    dmlconf_large_free(b.output);
    dmlconf_large_free(b.input);

    double bytes_per_element = (double)worst_peak * 1024.0 / (double)b.n;
    printf("\nend to end, dmlconf run --backend oracle -j 1 (a worker process), 3 runs one after the other "
           "(run first):\n");
    print_run(&b, "the first run", &first_run);
    print_run(&b, "the best run", &best_run);
    printf("  %-34s %9.0f MiB  %6.2f bytes/element (the two float32 tensors: 8)\n", "peak resident memory",
           (double)worst_peak / 1024.0, bytes_per_element);

    /* Where the best run's time goes, by the in-process stages that make
     * it up, each as a share of it and as a multiple of the oracle's own
     * time: the two tensors' fresh pages (the fresh buffers' writes less
     * the same writes into touched pages), the output's canary (half those
     * writes; the input's first write is the generator's), generating,
     * the backend, comparing, and what none of them measures. */
    double e2e = best_run.wall, own = backend.wall;
    double pages = fresh.wall - touched.wall > 0.0 ? fresh.wall - touched.wall : 0.0;
    double canary = touched.wall / 2.0;
    double rest = e2e - pages - canary - generate.wall - backend.wall - compared.wall;
    printf("\nthe best run's time by stage (share of it, multiple of the oracle's own time):\n");
    print_share("fresh pages of the two tensors", pages, e2e, own, "fresh buffers - the same writes, touched");
    print_share("the output's canary", canary, e2e, own, "");
    print_share("generate the input", generate.wall, e2e, own, "");
    print_share("backend (the oracle's own time)", backend.wall, e2e, own, "");
    print_share("compare (the oracle again, and judging)", compared.wall, e2e, own, "");
    print_share("rest", rest, e2e, own, "process start, loading, reports, and the stages' noise");
    print_share("end to end", e2e, e2e, own, "");

    if (b.n == UINT64_C(100000000))
    {
        double multiple = e2e / own;
        printf("\ntargets for 10^8 elements (the best run):\n");
        printf("  at most %.1f s end to end: %s (%.2f s)\n", TARGET_SECONDS, e2e <= TARGET_SECONDS ? "met" : "MISSED",
               e2e);
        printf("  at most %.0fx the oracle's own time (the oracle backend's computation, same run): %s (%.2fx)\n",
               TARGET_ORACLE_MULTIPLE, multiple <= TARGET_ORACLE_MULTIPLE ? "met" : "MISSED", multiple);
        printf("  at most %.0f bytes/element of peak memory: %s (%.2f)\n", TARGET_BYTES_PER_ELEMENT,
               bytes_per_element <= TARGET_BYTES_PER_ELEMENT ? "met" : "MISSED", bytes_per_element);
        printf("the first run, for comparison: %.2f s, %.2fx the oracle's own time, with %.2f s of system CPU time "
               "(mostly the fresh pages' zeroing)\n",
               first_run.wall, first_run.wall / own, first_run.system);
    }
    return 0;
}
