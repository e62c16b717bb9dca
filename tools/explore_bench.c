/*
 * Explore benchmark: random cases generated, run and judged per second by
 * `dmlconf explore` on the oracle backend (small tensors, the machine's
 * CPUs as workers), against two baselines measured in the same run: the
 * generator alone (`--replay` of a late case generates every case before
 * it) and `dmlconf run` over the corpus on the same backend.
 *
 * Usage: dmlconf_explore_bench [SECONDS [MAX_ELEMENTS]]   (default 10, 256)
 */
#define _DEFAULT_SOURCE

#include "bench_command.h"

#include <dmlconf/clock.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef DMLCONF_BINARY
#define DMLCONF_BINARY "dmlconf"
#endif
#ifndef DMLCONF_SOURCE_CASES
#define DMLCONF_SOURCE_CASES "cases"
#endif

/* What the tracker asks of explore on the oracle with small tensors. */
#define TARGET_CASES_PER_SECOND 10000.0

/* A number after "key": in a JSON file (a plain scan). */
static double json_number(const char *path, const char *key)
{
    FILE *file = fopen(path, "r");
    if (!file)
        return -1.0;
    static char text[1 << 20];
    size_t size = fread(text, 1, sizeof(text) - 1, file);
    fclose(file);
    text[size] = '\0';
    char pattern[64];
    snprintf(pattern, sizeof(pattern), "\"%s\":", key);
    const char *at = strstr(text, pattern);
    return at ? strtod(at + strlen(pattern), NULL) : -1.0;
}

int main(int argc, char **argv)
{
    const char *seconds_text = argc > 1 ? argv[1] : "10";
    const char *max_text = argc > 2 ? argv[2] : "256";
    char work[] = "/tmp/dmlconf-explore-bench-XXXXXX";
    if (!mkdtemp(work))
    {
        perror("mkdtemp");
        return 1;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    char jobs[32], explore_dir[600], run_dir[600], state[700];
    snprintf(jobs, sizeof(jobs), "%ld", cpus > 0 ? cpus : 1);
    snprintf(explore_dir, sizeof(explore_dir), "%s/explore", work);
    snprintf(run_dir, sizeof(run_dir), "%s/run", work);
    snprintf(state, sizeof(state), "%s/explore-state.json", explore_dir);

    /* The generator alone: --replay of case N generates cases 0 to N. */
    const uint64_t replayed = 200000;
    char replay_index[32];
    snprintf(replay_index, sizeof(replay_index), "%llu", (unsigned long long)(replayed - 1));
    const char *replay[] = {DMLCONF_BINARY, "explore",  "--backend",  "oracle", "--max-elements",
                            max_text,       "--replay", replay_index, NULL};
    bench_command_run r = {0};
    double replay_seconds = 0.0;
    int status = bench_command(replay, true, &r) ? -1 : r.exit_status;
    replay_seconds = r.wall;
    if (status)
    {
        fprintf(stderr, "explore --replay exited with %d\n", status);
        return 1;
    }

    const char *explore[] = {DMLCONF_BINARY,
                             "explore",
                             "--backend",
                             "oracle",
                             "--seconds",
                             seconds_text,
                             "--max-elements",
                             max_text,
                             "-j",
                             jobs,
                             "--no-corpus",
                             "-q",
                             "-o",
                             explore_dir,
                             NULL};
    double explore_wall = 0.0;
    status = bench_command(explore, true, &r) ? -1 : r.exit_status;
    explore_wall = r.wall;
    double cases = json_number(state, "next_index"), seconds = json_number(state, "seconds");
    if (status || cases <= 0.0 || seconds <= 0.0)
    {
        fprintf(stderr, "explore exited with %d (state: %.0f cases, %.1f s)\n", status, cases, seconds);
        return 1;
    }

    const char *corpus[] = {DMLCONF_BINARY,
                            "run",
                            "--backend",
                            "oracle",
                            "-j",
                            jobs,
                            "-q",
                            "-o",
                            run_dir,
                            DMLCONF_SOURCE_CASES "/doc",
                            DMLCONF_SOURCE_CASES "/conformance",
                            DMLCONF_SOURCE_CASES "/edge",
                            DMLCONF_SOURCE_CASES "/negative",
                            NULL};
    double run_seconds = 0.0;
    status = bench_command(corpus, true, &r) ? -1 : r.exit_status;
    run_seconds = r.wall;
    long corpus_cases = bench_count_results(run_dir);

    double rate = cases / seconds;
    printf("dmlconf explore on the oracle, tensors of at most %s elements, %s workers, %s s:\n", max_text, jobs,
           seconds_text);
    printf("  generated, run and judged: %.0f cases in %.2f s = %.0f cases/s (target %.0f: %s)\n", cases, seconds, rate,
           TARGET_CASES_PER_SECOND, rate >= TARGET_CASES_PER_SECOND ? "met" : "NOT met");
    printf("  the whole command, reports and coverage included: %.2f s\n", explore_wall);
    printf("  baseline, the generator alone: %llu cases in %.2f s = %.0f cases/s\n", (unsigned long long)replayed,
           replay_seconds, (double)replayed / replay_seconds);
    if (status == 0 && corpus_cases > 0)
        printf("  baseline, dmlconf run over the corpus (doc, conformance, edge, negative): %ld cases in %.2f s "
               "= %.0f cases/s\n",
               corpus_cases, run_seconds, (double)corpus_cases / run_seconds);
    else
        printf("  baseline, dmlconf run over the corpus: exited with %d\n", status);
    char command[700];
    snprintf(command, sizeof(command), "rm -rf '%s'", work);
    if (system(command) != 0)
        fprintf(stderr, "could not remove %s\n", work);
    return 0;
}
