/*
 * What the benchmarks that time whole commands share (exec_bench,
 * runner_bench, explore_bench, pipeline_bench): one run of a command with
 * its wall time, CPU time and peak memory, and the cases a run's
 * results.jsonl holds. POSIX only, as those benchmarks are.
 */
#ifndef DMLCONF_BENCH_COMMAND_H
#define DMLCONF_BENCH_COMMAND_H

#include <stdbool.h>

/* One run of a command: how it ended and what it took. */
typedef struct bench_command_run
{
    int exit_status;     /* its exit status; 128 + the signal that ended it */
    double wall;         /* seconds */
    double user, system; /* CPU seconds of it and of its descendants it waited for */
    long peak_kib;       /* the largest resident set of it or of any descendant so far, in KiB */
} bench_command_run;

/* Runs argv[0] (a path: no search in PATH) with the NULL-terminated argv,
 * its standard output discarded, and its standard error too when
 * `quiet_stderr`, and waits for it. Returns 0 with *run filled, or -1 when
 * it cannot be started or waited for. The peak covers this process's
 * earlier children too (the system keeps one maximum for them all): a
 * benchmark that compares peaks runs the larger command last. */
int bench_command(const char *const argv[], bool quiet_stderr, bench_command_run *run);

/* The case lines (not its header or completion record) of the results.jsonl
 * in the report folder `dir`; -1 when it cannot be read. */
long bench_count_results(const char *dir);

#endif /* DMLCONF_BENCH_COMMAND_H */
