/*
 * Process backend benchmark: small cases per second through `dmlconf run
 * --backend exec` with the NumPy adapter, end to end (loading, running,
 * judging, reporting), against `--backend oracle` on the same cases in the
 * same run. Both run the corpus without its long axes with --jobs 2, best
 * of 3 rounds taken in turns; both without reruns and reproducers, which
 * would otherwise spend their time on NumPy's float16 failures. Also the
 * fixed cost of a run (the 8 documentation cases): the adapters' start.
 *
 * Usage: dmlconf_exec_bench [DMLCONF [CASES_DIR [PYTHON [ADAPTER]]]]
 */
#define _DEFAULT_SOURCE

#include "bench_command.h"

#include <dmlconf/clock.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef DMLCONF_BINARY
#define DMLCONF_BINARY "dmlconf"
#endif
#ifndef DMLCONF_SOURCE_CASES
#define DMLCONF_SOURCE_CASES "cases"
#endif
#ifndef DMLCONF_PYTHON
#define DMLCONF_PYTHON "python3"
#endif
#ifndef DMLCONF_NUMPY_ADAPTER
#define DMLCONF_NUMPY_ADAPTER "implementations/numpy/adapter.py"
#endif

/* The case throughput this benchmark is held to (the tracker's). */
#define TARGET_CASES_PER_SECOND 5000.0

/* A fresh report folder name for one run. */
static void report_dir(char *out, size_t size, const char *work, const char *name, int round)
{
    snprintf(out, size, "%s/%s-%d", work, name, round);
}

typedef struct measure
{
    double best;
    double cpu; /* of the best run */
    long cases;
} measure;

/* Runs `dmlconf run` on the backend over `paths` (with `filter`) and keeps
 * the best time. Returns 0, or -1 when the run failed (not a case: the run). */
static int measure_run(const char *dmlconf, const char *work, const char *name, int round, const char *backend,
                       const char *filter, const char *const *paths, const char *python, const char *adapter,
                       measure *m)
{
    char dir[600];
    report_dir(dir, sizeof(dir), work, name, round);
    const char *argv[32];
    size_t n = 0;
    argv[n++] = dmlconf;
    argv[n++] = "run";
    argv[n++] = "-q";
    argv[n++] = "-j";
    argv[n++] = "2";
    argv[n++] = "--no-rerun";
    argv[n++] = "--no-repro";
    argv[n++] = "--backend";
    argv[n++] = backend;
    argv[n++] = "-o";
    argv[n++] = dir;
    if (filter)
    {
        argv[n++] = "-f";
        argv[n++] = filter;
    }
    for (size_t i = 0; paths[i]; ++i)
        argv[n++] = paths[i];
    if (!strcmp(backend, "exec"))
    {
        argv[n++] = "--";
        argv[n++] = python;
        argv[n++] = adapter;
    }
    argv[n] = NULL;
    bench_command_run r;
    int status = bench_command(argv, false, &r) ? -1 : r.exit_status;
    double seconds = r.wall, cpu = r.user + r.system;
    /* 1: cases failed (NumPy's float16), which is the run working. */
    if (status != 0 && status != 1)
    {
        fprintf(stderr, "dmlconf run --backend %s failed with exit status %d (reports: %s)\n", backend, status, dir);
        return -1;
    }
    if (round == 0 || seconds < m->best)
    {
        m->best = seconds;
        m->cpu = cpu;
    }
    m->cases = bench_count_results(dir);
    return 0;
}

int main(int argc, char **argv)
{
    const char *dmlconf = argc > 1 ? argv[1] : DMLCONF_BINARY;
    const char *cases = argc > 2 ? argv[2] : DMLCONF_SOURCE_CASES;
    const char *python = argc > 3 ? argv[3] : DMLCONF_PYTHON;
    const char *adapter = argc > 4 ? argv[4] : DMLCONF_NUMPY_ADAPTER;
    char work[] = "/tmp/dmlconf-exec-bench-XXXXXX";
    if (!mkdtemp(work))
    {
        perror("mkdtemp");
        return 1;
    }
    char doc[600], conformance[600], edge[600], negative[600];
    snprintf(doc, sizeof(doc), "%s/doc", cases);
    snprintf(conformance, sizeof(conformance), "%s/conformance", cases);
    snprintf(edge, sizeof(edge), "%s/edge", cases);
    snprintf(negative, sizeof(negative), "%s/negative", cases);
    const char *small[] = {doc, conformance, edge, negative, NULL};
    const char *tiny[] = {doc, NULL};

    printf("dmlconf process backend benchmark (%s; adapter: %s %s)\n\n", dmlconf, python, adapter);
    measure exec_small = {0}, oracle_small = {0}, exec_tiny = {0}, oracle_tiny = {0};
    for (int round = 0; round < 3; ++round)
    {
        if (measure_run(dmlconf, work, "exec", round, "exec", "!*long*", small, python, adapter, &exec_small) ||
            measure_run(dmlconf, work, "oracle", round, "oracle", "!*long*", small, python, adapter, &oracle_small) ||
            measure_run(dmlconf, work, "exec-doc", round, "exec", NULL, tiny, python, adapter, &exec_tiny) ||
            measure_run(dmlconf, work, "oracle-doc", round, "oracle", NULL, tiny, python, adapter, &oracle_tiny))
            return 1;
    }
    double exec_rate = (double)exec_small.cases / exec_small.best;
    double oracle_rate = (double)oracle_small.cases / oracle_small.best;
    printf("small cases (corpus without long axes), --jobs 2 --no-rerun --no-repro, best of 3, end to end:\n");
    printf("  --backend exec (NumPy)   %ld cases in %.3f s: %6.0f cases/s (CPU %.3f s, adapters included)\n",
           exec_small.cases, exec_small.best, exec_rate, exec_small.cpu);
    printf("  --backend oracle         %ld cases in %.3f s: %6.0f cases/s (CPU %.3f s)\n", oracle_small.cases,
           oracle_small.best, oracle_rate, oracle_small.cpu);
    printf("  exec takes %.2fx the oracle's time; target: at least %.0f cases/s: %s\n",
           exec_small.best / oracle_small.best, TARGET_CASES_PER_SECOND,
           exec_rate >= TARGET_CASES_PER_SECOND ? "met" : "NOT MET");
    printf("fixed cost of a run (the %ld documentation cases), best of 3:\n", exec_tiny.cases);
    printf("  --backend exec %.3f s, --backend oracle %.3f s: the adapters' start costs %.3f s\n", exec_tiny.best,
           oracle_tiny.best, exec_tiny.best - oracle_tiny.best);
    double load[3];
    if (getloadavg(load, 3) == 3)
        printf("load average now %.2f %.2f %.2f on %ld CPUs: other processes' load slows both backends\n", load[0],
               load[1], load[2], sysconf(_SC_NPROCESSORS_ONLN));
    printf("\n(reports under %s)\n", work);
    return 0;
}
