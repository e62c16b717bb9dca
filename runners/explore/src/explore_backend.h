/*
 * `dmlconf explore`'s own use of a backend outside the rounds
 * (explore_backend.c): probing it, and shrinking findings on it.
 */
#ifndef DMLCONF_EXPLORE_BACKEND_H
#define DMLCONF_EXPLORE_BACKEND_H

#include "explore_internal.h"

/* What a backend said about itself when it was opened. */
typedef struct explore_backend_probe
{
    dmlconf_backend_info info;
    dmlconf_boundary *boundaries; /* owned */
    size_t boundary_count;
} explore_backend_probe;

/* Opens the backend (in a child process on POSIX), describes it and reads
 * its boundaries into *out (free it with explore_backend_probe_free).
 * Returns 0, or -1 with why set when it does not open here. */
int explore_probe_backend(const dmlconf_backend_ops *ops, const dmlconf_backend_config *config,
                          explore_backend_probe *out, char *why, size_t why_size);
void explore_backend_probe_free(explore_backend_probe *probe_result);

/* The reproducers to write for new findings. */
typedef struct explore_repro_job
{
    const dmlconf_backend_ops *ops;
    dmlconf_backend_config config;
    runner_config run_config; /* how candidates are judged (no rerun, no shrink) */
    const explore_boundaries *boundaries;
    explore_findings *findings;
    const size_t *which; /* positions in findings->items */
    uint32_t count;
    const char *repro_dir;
    const char *backend_name;
    const char *regenerate_prefix; /* the command that, with an index after it, regenerates a case */
    const char *regenerate_suffix; /* what follows the index, and the case file in `dmlconf run`: "" or
                                    * " -- COMMAND" */
    bool shrink;                   /* false: every reproducer as it was drawn */
    int max_tries;
    double max_seconds;
} explore_repro_job;

/* Writes the reproducer of each finding job->which names into
 * job->repro_dir (<case id>.yaml) and records its path, case id and how it
 * was shrunk in the finding: shrunk on the backend (in a child process on
 * POSIX, which may take max_seconds per finding; what it does not finish,
 * or a failure that is a crash, a hang or an error, is written as it was
 * drawn). Never fails as a whole: a reproducer that cannot be written says
 * why in its finding's summary. */
void explore_write_repros(const explore_repro_job *job);

#endif /* DMLCONF_EXPLORE_BACKEND_H */
