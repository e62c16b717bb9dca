/*
 * What `dmlconf run` is told: its help, its options and their checks, and
 * the operands that follow them (run_options.c).
 */
#ifndef DMLCONF_RUN_OPTIONS_H
#define DMLCONF_RUN_OPTIONS_H

#include <dmlconf/runner.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What follows the options: the case files, and after "--" the command of
 * a backend that runs one (exec), or more case files for the others. */
typedef struct run_operands
{
    char **paths;
    size_t path_count;
    char **combined;            /* paths before and after "--" (freed) */
    const char *const *command; /* NULL-terminated; NULL without "--" */
    size_t command_count;
} run_operands;

/* Everything `dmlconf run` was told. */
typedef struct run_options
{
    const char *backend_name, *adapter, *baseline_dir, *report_dir;
    const char *flakes_file; /* --flakes FILE */
    const char *const *backend_arguments; /* the backend config's: a plugin's path or exec's command */
    dmlconf_feature_level level;
    runner_filter filter;
    const char **caselists; /* --caselist FILE and -f @FILE, in order */
    size_t caselist_count;
    const char *rerun_dir; /* --rerun-failures DIR */
    unsigned jobs;
    bool jobs_given; /* -j: exactly that many workers, whatever the adapter */
    uint64_t seed, timeout, memory_limit, junit_max_bytes;
    bool memory_given;        /* --memory-limit */
    bool timeout_given;       /* --timeout: a fixed limit; else it scales, `timeout` its floor */
    double progress_interval; /* seconds between status lines in a log */
    bool rerun, repro, quiet, resume, strict_baseline, overwrite;
    const char *shard; /* --shard I/N, or NULL */
    uint32_t shard_index, shard_count;
    char *const *paths; /* case files and folders (none: the default corpus) */
    size_t path_count;
    int argc; /* the whole command line, for the reports */
    char **argv;
    int separator;         /* where "--" stands (argc: nowhere) */
    int first_operand;     /* the first argument after the options */
    run_operands operands; /* split once the backend is known */
} run_options;

/* Parses the options into *o (zeroed first; strings point into argv). Returns
 * -1 to go on, or the exit status to end with (help, a usage error: said
 * why). The caller frees o->filter (runner_filter_free) and o->caselists. */
int run_parse_options(int argc, char **argv, run_options *o);

/* Splits the operands for `backend`: case files, and after "--" exec's
 * command (or more case files for the others). Returns 0, or -1 (message
 * printed) when the command is missing or misplaced, or memory runs out;
 * out->combined is the caller's to free. */
int run_split_operands(char **argv, int argc, int separator, int first, const dmlconf_backend_ops *backend,
                       run_operands *out);

#endif /* DMLCONF_RUN_OPTIONS_H */
