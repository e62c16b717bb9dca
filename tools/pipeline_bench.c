/*
 * The per-element pipeline of one large case, stage by stage: generating
 * the input, the backend (the oracle backend's computation), the oracle's
 * scan in the comparator, judging, and then the whole case end to end
 * through `dmlconf run` with its peak memory. Baselines measured in the
 * same run: copying the tensor once (memory bandwidth) and a plain float
 * prefix sum.
 *
 * The in-process stages call the same library functions with the same
 * thread counts as the runner (execute.c, oracle_backend.c): the generator
 * in slices on every CPU for cases of 2^22 elements or more, the oracle
 * backend's computation (dmlconf_oracle_compute_segmented, in segments on every CPU;
 * dmlconf_compute on one thread for comparison), dmlconf_scan_walk in
 * chunks, dmlconf_compare_tensor. Each is the best of 3 (the machine may be
 * shared: the CPU time is printed next to the wall time, and a wall time far
 * above it means other work took the CPUs).
 *
 * Usage: dmlconf_pipeline_bench [ELEMENTS [DMLCONF]]   (default 10^8)
 */
#define _DEFAULT_SOURCE

#include <dmlconf/clock.h>
#include <dmlconf/comparator.h>
#include <dmlconf/datagen.h>
#include <dmlconf/integer_text.h>
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

/* The targets for a 10^8-element float32 case on the 2-core build machine. */
#define TARGET_SECONDS           1.5
#define TARGET_BYTES_PER_ELEMENT 13.0

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One measured stage: the best wall time of its runs and that run's CPU
 * time. */
typedef struct stage
{
    const char *name;
    double wall;
    double cpu;
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
    if (dmlconf_oracle_compute_segmented(&b->desc, b->input, bytes, b->output, bytes, cpus > 32u ? 32u : cpus, UINT64_C(1) << 22,
                              &err))
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
    stage best = {name, 0.0, 0.0};
    for (int attempt = 0; attempt < 3; ++attempt)
    {
        double wall = dmlconf_clock_seconds(), cpu = cpu_seconds();
        run(b);
        wall = dmlconf_clock_seconds() - wall;
        cpu = cpu_seconds() - cpu;
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

/* Runs a command with its output discarded; returns its exit status, wall
 * seconds and the peak resident set size of it and its descendants in
 * KiB. */
static double rusage_seconds(const struct rusage *u)
{
    return (double)u->ru_utime.tv_sec + (double)u->ru_utime.tv_usec * 1e-6 + (double)u->ru_stime.tv_sec +
           (double)u->ru_stime.tv_usec * 1e-6;
}

static int run_command(const char *const argv[], long *peak_kib, double *seconds, double *cpu)
{
    fflush(NULL);
    struct rusage before;
    getrusage(RUSAGE_CHILDREN, &before);
    double start = dmlconf_clock_seconds();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
    {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0)
        return -1;
    *seconds = dmlconf_clock_seconds() - start;
    struct rusage children;
    getrusage(RUSAGE_CHILDREN, &children);
    *peak_kib = children.ru_maxrss > usage.ru_maxrss ? children.ru_maxrss : usage.ru_maxrss;
    *cpu = rusage_seconds(&children) - rusage_seconds(&before);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The case end to end through the command (best of 3): wall seconds, CPU
 * seconds (the command and its worker, user and system) and the peak
 * resident memory of the worst run in KiB. Returns 0, or -1. Run first,
 * before this process holds any tensor: a forked child starts with its
 * parent's memory in its peak. */
static int end_to_end(const char *dmlconf, uint64_t n, double *best_seconds, double *best_cpu, long *best_peak)
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
    *best_peak = 0;
    for (int attempt = 0; attempt < 3 && result == 0; ++attempt)
    {
        char remove_report[700];
        snprintf(remove_report, sizeof(remove_report), "rm -rf '%s'", report);
        if (system(remove_report) != 0)
            result = -1;
        const char *command[] = {dmlconf, "run",        "-q", "--backend", "oracle",  "-j",
                                 "1",     "--no-repro", "-o", report,      yaml_path, NULL};
        double seconds = 0.0, cpu = 0.0;
        long peak = 0;
        int status = run_command(command, &peak, &seconds, &cpu);
        if (status != 0)
        {
            fprintf(stderr, "%s run exited with status %d\n", dmlconf, status);
            result = -1;
        }
        if (attempt == 0 || seconds < *best_seconds)
        {
            *best_seconds = seconds;
            *best_cpu = cpu;
        }
        if (peak > *best_peak)
            *best_peak = peak;
    }
    char remove_work[700];
    snprintf(remove_work, sizeof(remove_work), "rm -rf '%s'", work);
    if (system(remove_work) != 0)
        fprintf(stderr, "could not remove %s\n", work);
    return result;
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
    double best_seconds = 0.0, best_cpu = 0.0;
    long best_peak = 0;
    if (end_to_end(dmlconf, b.n, &best_seconds, &best_cpu, &best_peak))
        return 1;

    size_t bytes = (size_t)b.n * sizeof(float) + 4u;
    b.input = malloc(bytes);
    b.output = malloc(bytes);
    b.oracle = malloc(bytes);
    if (!b.input || !b.output || !b.oracle)
    {
        fprintf(stderr, "out of memory for three tensors of %" PRIu64 " elements\n", b.n);
        return 1;
    }
    /* Touch every page first: the stages measure work, not page faults. */
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
    stage generate_one = measure("generate (1 thread)", &b, stage_generate_one);
    print_stage(&b, &generate_one, "");
    stage generate = measure("generate (the runner's threads)", &b, stage_generate_all);
    print_stage(&b, &generate, "");
    stage backend_one = measure("backend (dmlconf_compute)", &b, stage_backend_one);
    print_stage(&b, &backend_one, "");
    stage backend = measure("backend (oracle backend, threads)", &b, stage_backend);
    print_stage(&b, &backend, "");
    stage oracle = measure("oracle (scan walk in chunks)", &b, stage_oracle);
    print_stage(&b, &oracle, "");
    stage judge = measure("judge (bit-exact, no oracle)", &b, stage_judge);
    print_stage(&b, &judge, "");
    stage compared = measure("compare = oracle + judge", &b, stage_compare);
    print_stage(&b, &compared, "what the runner does for the oracle backend");
    stage bound = measure("compare with the bound rule", &b, stage_compare_bound);
    print_stage(&b, &bound, "what it does for a GPU backend (side data too)");
    free(b.oracle);
    free(b.output);
    free(b.input);

    double in_process = generate.wall + backend.wall + compared.wall;
    double bytes_per_element = (double)best_peak * 1024.0 / (double)b.n;
    printf("\nend to end, dmlconf run --backend oracle -j 1 (a worker process), best of 3 (run first):\n");
    printf("  %-34s %9.1f ms  %6.2f ns/element  (CPU %6.2f ns/element, user and system)\n",
           "the case, start to reports", best_seconds * 1e3, best_seconds / (double)b.n * 1e9,
           best_cpu / (double)b.n * 1e9);
    printf("  %-34s %9.1f ms  (process start, loading, buffers and canary, reports)\n",
           "rest (end to end - generate, backend, compare)", (best_seconds - in_process) * 1e3);
    printf("  %-34s %9.0f MiB  %6.2f bytes/element (the two float32 tensors: 8)\n", "peak resident memory",
           (double)best_peak / 1024.0, bytes_per_element);
    if (b.n == UINT64_C(100000000))
    {
        printf("\ntargets for 10^8 elements: at most %.1f s end to end: %s (%.2f s); at most %.0f bytes/element: %s\n",
               TARGET_SECONDS, best_seconds <= TARGET_SECONDS ? "met" : "MISSED", best_seconds,
               TARGET_BYTES_PER_ELEMENT, bytes_per_element <= TARGET_BYTES_PER_ELEMENT ? "met" : "MISSED");
    }
    return 0;
}
