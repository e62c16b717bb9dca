/*
 * A suite file: several runs of `dmlconf run` named in one YAML file, run
 * by `dmlconf suite` (cmd_suite.c). suite_file.c reads it into the command
 * line of each run; every problem is a diagnostic at its file:line:column.
 *
 *   defaults:            # optional: keys every run takes unless it sets them
 *     backend: d3d12
 *   runs:                # required: one or more
 *     - name: level-5_0  # required: [A-Za-z0-9._-], at most 64, unique
 *       feature_level: 5_0
 *       baseline: baselines/lavapipe
 *
 * A run's keys, each the `dmlconf run` option of its name: backend,
 * adapter, feature_level, filters (a list, or one glob), caselists (a list,
 * or one file), rerun_failures, baseline, strict_baseline, flakes, paths (case
 * files and folders), command (exec's adapter program and its arguments),
 * jobs, timeout, seed, memory_limit, junit_max_bytes, rerun (false:
 * --no-rerun), repro (false: --no-repro), directml_dll, directml_flags,
 * directml_graph, directml_binding. Relative paths (baseline, caselists,
 * rerun_failures, flakes, paths, directml_dll, and a command's program when it
 * names a folder) are taken from the folder the suite file lies in.
 */
#ifndef DMLCONF_SUITE_FILE_H
#define DMLCONF_SUITE_FILE_H

#include <dmlconf/case.h>

#include <stddef.h>

/* The longest run name (a folder's name under the suite's report folder). */
#define SUITE_NAME_MAX 64

/* One run: its name and the arguments of `dmlconf run` after "run", up to
 * (not including) "-o": the options, the case paths, and "--" and the
 * command when it has one. */
typedef struct suite_run
{
    char name[SUITE_NAME_MAX + 1];
    char **arguments; /* `argument_count` words, each owned */
    size_t argument_count;
    dmlconf_mark mark; /* where the run starts in the file */
} suite_run;

typedef struct suite_file
{
    char *path;
    suite_run *runs;
    size_t run_count;
} suite_file;

/* Reads the suite file at `path`. Every problem (YAML that cannot be read,
 * an unknown key, a value of the wrong kind or out of range, a missing or
 * repeated name, no runs) is added to `diagnostics` as an error at its
 * place, all of them, not only the first. Returns 0 with *suite filled
 * (free it with suite_file_free), or -1 with errors added and *suite
 * empty; running out of memory is an error too. */
int suite_file_read(const char *path, suite_file *suite, dmlconf_diagnostics *diagnostics);

/* Frees what suite_file_read filled and leaves it zeroed. */
void suite_file_free(suite_file *suite);

#endif /* DMLCONF_SUITE_FILE_H */
