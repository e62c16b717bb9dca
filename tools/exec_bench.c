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

/* CPU seconds (user and system) of this process's children that have
 * ended and been waited for, their own waited-for descendants included. */
static double children_cpu_seconds(void)
{
    struct rusage usage;
    getrusage(RUSAGE_CHILDREN, &usage);
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec * 1e-6 + (double)usage.ru_stime.tv_sec +
           (double)usage.ru_stime.tv_usec * 1e-6;
}

/* Runs a command with its output discarded; returns its exit status, its
 * wall time and the CPU time of it and its descendants (workers, adapters). */
static int run(const char *const argv[], double *seconds, double *cpu_seconds)
{
    fflush(NULL);
    double cpu_before = children_cpu_seconds();
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
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    *seconds = dmlconf_clock_seconds() - start;
    *cpu_seconds = children_cpu_seconds() - cpu_before;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Counts the case lines of a results.jsonl. */
static long count_results(const char *dir)
{
    char path[700];
    snprintf(path, sizeof(path), "%s/results.jsonl", dir);
    FILE *file = fopen(path, "r");
    if (!file)
        return -1;
    char *line = NULL;
    size_t capacity = 0;
    long cases = 0;
    while (getline(&line, &capacity, file) > 0)
        cases += strncmp(line, "{\"id\":", 6) == 0;
    free(line);
    fclose(file);
    return cases;
}

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
    double seconds, cpu;
    int status = run(argv, &seconds, &cpu);
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
    m->cases = count_results(dir);
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
