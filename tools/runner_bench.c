/*
 * Runner benchmark: throughput of the whole corpus on the oracle backend
 * (loading, executing, comparing and reporting included) against loading
 * alone, measured in the same run; and the peak memory of one
 * 10^8-element float32 case against the memory its two tensors need.
 *
 * Usage: dmlconf_runner_bench [DMLCONF [CASES_DIR]]
 */
#define _DEFAULT_SOURCE

#include "bench_command.h"

#include <dmlconf/clock.h>
#include <errno.h>
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
#ifndef DMLCONF_SOURCE_CASES
#define DMLCONF_SOURCE_CASES "cases"
#endif

/* Sums the "elements" of every result (a plain scan of the JSON lines). */
static double count_elements(const char *dir)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/results.jsonl", dir);
    FILE *file = fopen(path, "r");
    if (!file)
        return -1.0;
    static char line[1 << 16];
    double total = 0.0;
    while (fgets(line, sizeof(line), file))
    {
        const char *at = strstr(line, "\"elements\":");
        if (at)
            total += strtod(at + 11, NULL);
    }
    fclose(file);
    return total;
}

int main(int argc, char **argv)
{
    const char *dmlconf = argc > 1 ? argv[1] : DMLCONF_BINARY;
    const char *cases = argc > 2 ? argv[2] : DMLCONF_SOURCE_CASES;
    char work[] = "/tmp/dmlconf-bench-XXXXXX";
    if (!mkdtemp(work))
    {
        perror("mkdtemp");
        return 1;
    }
    char report[600], big_yaml[600], big_report[600];
    char doc[600], conformance[600], edge[600], negative[600];
    snprintf(report, sizeof(report), "%s/corpus", work);
    snprintf(big_yaml, sizeof(big_yaml), "%s/big.yaml", work);
    snprintf(big_report, sizeof(big_report), "%s/big", work);
    snprintf(doc, sizeof(doc), "%s/doc", cases);
    snprintf(conformance, sizeof(conformance), "%s/conformance", cases);
    snprintf(edge, sizeof(edge), "%s/edge", cases);
    snprintf(negative, sizeof(negative), "%s/negative", cases);

    printf("dmlconf runner benchmark (%s)\n\n", dmlconf);

    /* 1. Small cases: the corpus without its long axes, --jobs 2, best of 3;
     *    baseline: loading the same files (dmlconf validate). */
    double load_best = 0.0, run_best = 0.0;
    long peak;
    bench_command_run r;
    for (int i = 0; i < 3; ++i)
    {
        double seconds;
        const char *validate[] = {dmlconf, "validate", doc, conformance, edge, negative, NULL};
        if (bench_command(validate, false, &r) || r.exit_status != 0)
        {
            fprintf(stderr, "dmlconf validate failed\n");
            return 1;
        }
        seconds = r.wall;
        if (i == 0 || seconds < load_best)
            load_best = seconds;
        const char *small[] = {dmlconf,   "run", "-q",   "--backend", "oracle",    "-j", "2",      "-f",
                               "!*long*", "-o",  report, doc,         conformance, edge, negative, NULL};
        if (bench_command(small, false, &r) || r.exit_status != 0)
        {
            fprintf(stderr, "dmlconf run failed on the small cases\n");
            return 1;
        }
        seconds = r.wall;
        if (i == 0 || seconds < run_best)
            run_best = seconds;
    }
    long small_cases = bench_count_results(report);
    double small_elements = count_elements(report);
    printf("small cases (corpus without long axes), --backend oracle --jobs 2, best of 3:\n");
    printf("  %ld cases in %.3f s: %.0f cases/s, %.3g elements/s (loading alone: %.3f s, %.0f%% of the run)\n",
           small_cases, run_best, (double)small_cases / run_best, small_elements / run_best, load_best,
           100.0 * load_best / run_best);
    printf("  target >= 20000 cases/s: %.2fx the target, %s\n\n", (double)small_cases / run_best / 20000.0,
           (double)small_cases / run_best >= 20000.0 ? "met" : "MISSED");

    /* 2. The whole corpus, long axes included. */
    double whole;
    const char *all[] = {dmlconf, "run",  "-q", "--backend", "oracle", "-j",     "2",
                         "-o",    report, doc,  conformance, edge,     negative, NULL};
    if (bench_command(all, false, &r) || r.exit_status != 0)
    {
        fprintf(stderr, "dmlconf run failed on the corpus\n");
        return 1;
    }
    whole = r.wall;
    long all_cases = bench_count_results(report);
    double all_elements = count_elements(report);
    printf("whole corpus, --backend oracle --jobs 2:\n  %ld cases, %.3g elements in %.3f s: %.0f cases/s, "
           "%.3g elements/s\n\n",
           all_cases, all_elements, whole, (double)all_cases / whole, all_elements / whole);

    /* 3. Memory: one 10^8-element float32 line. */
    FILE *yaml = fopen(big_yaml, "w");
    if (!yaml)
    {
        perror(big_yaml);
        return 1;
    }
    fputs("cases:\n  - id: bench.big.float32\n    op: cumulative_summation\n    dtype: float32\n"
          "    sizes: [100000000]\n    axis: 0\n    input: {generate: uniform, min: -1, max: 1, seed: 1}\n",
          yaml);
    fclose(yaml);
    double big_seconds;
    const char *big[] = {dmlconf, "run",        "-q", "--backend", "oracle", "-j",
                         "1",     "--no-repro", "-o", big_report,  big_yaml, NULL};
    int status = bench_command(big, false, &r) ? -1 : r.exit_status;
    big_seconds = r.wall;
    peak = r.peak_kib;
    double tensors_mib = 2.0 * 4e8 / 1048576.0;
    printf("one 10^8-element float32 case (its input and output buffers: %.0f MiB), --jobs 1:\n", tensors_mib);
    printf("  %s in %.1f s; peak RSS %.0f MiB = %.2fx the tensors; target < 2048 MiB: %s\n",
           status == 0 ? "passed" : "FAILED", big_seconds, (double)peak / 1024.0, (double)peak / 1024.0 / tensors_mib,
           peak < 2048L * 1024L && status == 0 ? "met" : "MISSED");

    char command[700];
    snprintf(command, sizeof(command), "rm -rf '%s'", work);
    if (system(command) != 0)
        fprintf(stderr, "could not remove %s\n", work);
    return 0;
}
