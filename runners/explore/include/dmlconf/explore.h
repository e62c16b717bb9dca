/*
 * The explore room's interface: random differential testing against the
 * oracle. explore_run draws random cases in rounds, runs each round on the
 * backend's workers through the run engine's scheduler and judges it as
 * `dmlconf run` does, groups failures by signature, shrinks each new one into
 * a reproducer, saves its state after every round (resume), and ends with the
 * reports of `run` (one result per cell exercised and per finding), the
 * coverage table and the findings. The command line that fills the options
 * is the CLI's (runners/cli/src/cmd_explore.c).
 */
#ifndef DMLCONF_EXPLORE_H
#define DMLCONF_EXPLORE_H

#include <dmlconf/oracle.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What one exploration is asked to do (the command line's options). Strings
 * and arrays belong to the caller and must outlive explore_run. */
typedef struct explore_run_options
{
    const char *backend_name, *adapter, *report_dir;
    dmlconf_feature_level level;
    double seconds; /* 0: no time budget */
    uint64_t cases; /* 0: no case budget */
    uint64_t seed, max_elements, timeout, replay_index;
    bool timeout_given; /* --timeout: a fixed limit per batch; else it scales, `timeout` its floor */
    unsigned negative_percent, jobs;
    double shrink_seconds;
    double progress_interval; /* seconds between status lines when stderr is not a terminal (0: none) */
    bool shrink, rerun, quiet, resume, overwrite, replay, no_corpus;
    char **corpus_paths;
    size_t corpus_count, corpus_capacity;
    const char *const *command; /* after "--": the exec backend's adapter (NULL-terminated) */
    int argc;
    char **argv;
} explore_run_options;

/* Runs the exploration the options describe (or, with replay, writes one
 * case of the sequence on standard output and runs nothing). Everything it
 * finds goes to the report folder and the console; nothing is kept after it
 * returns. Returns the command's exit status (the run engine's EXIT_*
 * values). */
int explore_run(const explore_run_options *options);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_EXPLORE_H */
