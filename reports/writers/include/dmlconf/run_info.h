/*
 * What a run is beyond its results: device, backend, versions, the command
 * line, the seed, the shard and the corpus it was cut from. Every report
 * says it; results.jsonl's header records it.
 */
#ifndef DMLCONF_RUN_INFO_H
#define DMLCONF_RUN_INFO_H

#include <dmlconf/oracle.h>
#include <dmlconf/verdict.h>

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for the environment of a run (dmlconf_run_info.environment). */
#define DMLCONF_RUN_ENVIRONMENT_SIZE 2048

/* What every report says about the run: device, backend, versions, the
 * command line, the seed, and what a results file is part of (its shard,
 * the corpus it was cut from, the cases it set out to run), so that shards
 * can be checked before they are merged and a case can be rerun as it ran. */
typedef struct dmlconf_run_info
{
    char dmlconf_version[32];
    char backend[64];
    char adapter[256];
    char driver[256];
    char runtime[512];
    bool software_adapter;
    dmlconf_feature_level target_level;
    uint64_t seed;
    char command_line[1024];
    char started_utc[32]; /* ISO 8601 */
    char host[128];
    char adapter_requested[160]; /* --adapter as given; "" when the backend chose */
    uint32_t shard_index;        /* 0-based */
    uint32_t shard_count;        /* 1 when the run was not sharded (0 reads as 1) */
    char corpus_digest[24];      /* hex digest of the cases selected over every shard; "" when unknown */
    uint64_t corpus_cases;       /* cases selected over every shard */
    uint64_t planned_cases;      /* cases this run (this shard) set out to run */
    /* "NAME=VALUE" lines of the environment variables that affected the run
     * (dmlconf_run_info_add_environment). */
    char environment[DMLCONF_RUN_ENVIRONMENT_SIZE];
    bool environment_incomplete; /* a variable was left out: no room, or a line break in it */
    /* --backend as given when it says more than `backend` does, as a native
     * plugin's "plugin:PATH" does ("" otherwise, or when it does not fit):
     * what a reproduce command names. */
    char backend_requested[1024];
    /* The exec backend's adapter command (what followed "--"), as shell
     * words a reproduce command can append; "" for the other backends, or
     * when it does not fit (backend_command_incomplete). */
    char backend_command[2048];
    bool backend_command_incomplete;
    /* What the cases are, before any sharding: "corpus" (every case of the
     * reference corpus this dmlconf was built with), "subset" (part of it:
     * filters, a case list), "files" (case files of the user's own), or
     * "explore" (random cases); "" in a results file older than the field,
     * read as "files". scope_detail says which part or files, for people. */
    char scope[16];
    char scope_detail[256];
    /* The oracle judged against itself (the self-check). */
    bool self_check;
    /* The baseline folder the run applied ("" for none), whether it was
     * strict, and how many of its lines matched no case (stale). */
    char baseline[512];
    bool strict_baseline;
    uint64_t baseline_stale_lines;
} dmlconf_run_info;

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_RUN_INFO_H */
