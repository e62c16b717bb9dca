/*
 * `dmlconf run`: run cases on a backend, judge them, stream the results and
 * write the reports.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <dmlconf/clock.h>
#include <dmlconf/comparator.h>
#include <dmlconf/exec_backend.h>
#include <dmlconf/integer_text.h>
#include <dmlconf/process.h>
#include <dmlconf/reports.h>
#include <dmlconf/system_info.h>
#include <dmlconf/text.h>
#include <dmlconf/threads.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef DMLCONF_VERSION
#define DMLCONF_VERSION "unknown"
#endif

/* Workers on a hardware adapter when -j is not given: a GPU driver opens
 * devices one at a time (16 workers opening an H100 took 5.7 s before any
 * could start), and a few workers keep one GPU busy. Two: on an H100 with 16
 * CPUs the corpus took 1.70-1.92 s with the driver's shader cache cold (two
 * workers each building pipelines on 7 threads) against 2.04-2.12 s with
 * three (4 threads each), and 1.29 s against 1.12-1.15 s warm
 * (reports/gpu/nvidia-h100-2026-11-26/workers.txt). */
#define HARDWARE_WORKERS 2u

static const char run_usage[] =
    "usage: dmlconf run [OPTIONS] [PATH...] [-- COMMAND [ARGS...]]\n"
    "\n"
    "Runs conformance cases (YAML files, or folders searched for them; by default the\n"
    "whole corpus) on a backend, compares every output with the exact oracle and writes\n"
    "the reports.\n"
    "\n"
    "options:\n"
    "  -b, --backend NAME        backend to run on (default: the best one available);\n"
    "                            `exec` runs an implementation's adapter program, the\n"
    "                            COMMAND after -- (no shell), over the process protocol\n"
    "                            (docs/process-protocol.md); plugin:PATH loads a native\n"
    "                            plugin (a shared library built against dmlconf/backend.h)\n"
    "  -a, --adapter WHICH       adapter index or name fragment (see `dmlconf adapters`)\n"
    "      --directml-dll PATH   the DirectML library the directml backend loads (a file,\n"
    "                            or a folder holding it); sets DMLCONF_DIRECTML_DLL\n"
    "  -l, --feature-level L     target DirectML feature level, e.g. 4_0 (default: the\n"
    "                            backend's); cases above it are skipped\n"
    "  -f, --filter GLOB         run the ids matching GLOB; repeatable; '!GLOB' excludes\n"
    "      --shard I/N           run shard I of N (0-based); also TEST_SHARD_INDEX and\n"
    "                            TEST_TOTAL_SHARDS from the environment\n"
    "  -j, --jobs N              worker processes (default: the number of CPUs, at most 2\n"
    "                            on a hardware adapter; 0 runs in this process, without\n"
    "                            crash isolation)\n"
    "      --baseline DIR        known failures, flakes and skips (failures.txt, flakes.txt,\n"
    "                            skips.txt); a listed failure that passes fails the run\n"
    "      --strict-baseline     a baseline line that matches no case (stale) fails the run\n"
    "  -o, --report-dir DIR      where the reports go (default: dmlconf-results); checked\n"
    "                            and locked before any case runs; a folder that holds an\n"
    "                            earlier run's reports is refused\n"
    "      --overwrite           replace an earlier run's reports in the folder (once this\n"
    "                            run begins: a run that cannot start leaves them)\n"
    "      --resume              go on with the interrupted or crashed run in the report\n"
    "                            folder (same options): cases it finished do not run again\n"
    "      --memory-limit BYTES  most memory one case may take (suffixes k, M, G; default:\n"
    "                            3/4 of the machine's memory shared by the workers); a case\n"
    "                            that needs more is an error, not run\n"
    "      --seed N              mix N into every generated input (default 0: the\n"
    "                            corpus' own data)\n"
    "      --timeout SECONDS     per case, and per batch of small cases (default 120; 0:\n"
    "                            none)\n"
    "      --no-rerun            do not rerun failures to tell flakes\n"
    "      --no-repro            do not shrink failures into minimal reproducers\n"
    "  -q, --quiet               no progress and no summary on the console\n"
    "  -h, --help                this help\n"
    "\n"
    "The verdict states its scope: only the whole reference corpus on an implementation\n"
    "under test can be conformant; a subset (filters, a shard), case files of your own and\n"
    "the self-check (--backend oracle) pass or fail without a conformance claim. With\n"
    "--baseline the run also answers \"no regressions\", and the exit status follows that\n"
    "answer.\n"
    "\n"
    "exit status: 0 passed (conformant at the target level; passed, for a scope that\n"
    "claims no conformance; with --baseline: no regressions), 1 failed (a case failed;\n"
    "with --baseline: regressions), 2 incomplete (interrupted, a case file did not load,\n"
    "cases missing or not judged for lack of resources, nothing to run, or cases the\n"
    "backend does not support left uncovered), 3 setup error (a usage error, a backend,\n"
    "adapter or plugin that cannot be used, a report folder that cannot be used).\n";

typedef struct run_state
{
    const dmlconf_results_file *previous; /* --resume: what the interrupted run finished */
    const char *report_dir;
    runner_baseline baseline;
    bool have_baseline;
    dmlconf_report_set *reports;
    dmlconf_run_info info;
    dmlconf_load_error_list load_errors;
    bool report_error;
    char report_why[256];
    size_t total, done;
    uint64_t counts[DMLCONF_STATUS_COUNT];
    bool progress;
    double last_progress;
    const char *command_line;
    uint64_t seed;
} run_state;

static void print_progress(run_state *state, bool final)
{
    double now = dmlconf_clock_seconds();
    if (!final && now - state->last_progress < 0.1)
        return;
    state->last_progress = now;
    fprintf(stderr, "\r[%6zu/%6zu] pass %llu, fail %llu, skip %llu, error %llu, crash %llu%s", state->done,
            state->total, (unsigned long long)state->counts[DMLCONF_STATUS_PASS],
            (unsigned long long)(state->counts[DMLCONF_STATUS_FAIL] + state->counts[DMLCONF_STATUS_UNEXPECTED_PASS]),
            (unsigned long long)state->counts[DMLCONF_STATUS_SKIP],
            (unsigned long long)state->counts[DMLCONF_STATUS_ERROR],
            (unsigned long long)(state->counts[DMLCONF_STATUS_CRASH] + state->counts[DMLCONF_STATUS_TIMEOUT]),
            final ? "\n" : "");
    fflush(stderr);
}

#ifdef _WIN32
static char **process_environment(void)
{
    return _environ;
}
#else
extern char **environ;
static char **process_environment(void)
{
    return environ;
}
#endif

/* Whether an environment variable can change what a run on `backend` does:
 * dmlconf's own (not the test harness's), and those of the layers under the
 * backend. A backend that reads others adds its prefixes here. */
static bool affects_run(const char *entry, const char *backend)
{
    static const char *const d3d12_prefixes[] = {"VKD3D_", "VK_", "MESA_", "LP_", "RADV_", "__GL"};
    if (!strncmp(entry, "DMLCONF_", 8))
        return strncmp(entry, "DMLCONF_TEST_", 13) != 0;
    if (strcmp(backend, "d3d12") != 0)
        return false;
    for (size_t i = 0; i < sizeof(d3d12_prefixes) / sizeof(d3d12_prefixes[0]); ++i)
    {
        if (!strncmp(entry, d3d12_prefixes[i], strlen(d3d12_prefixes[i])))
            return true;
    }
    return false;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Records the environment variables that affect the run, sorted by name (so
 * that shards of one run record the same). */
static void record_environment(dmlconf_run_info *info)
{
    char **environment = process_environment();
    size_t count = 0;
    for (size_t i = 0; environment && environment[i]; ++i)
        count += affects_run(environment[i], info->backend);
    if (!count)
        return;
    const char **chosen = malloc(count * sizeof(*chosen));
    if (!chosen)
    {
        info->environment_incomplete = true;
        return;
    }
    count = 0;
    for (size_t i = 0; environment[i]; ++i)
    {
        if (affects_run(environment[i], info->backend))
            chosen[count++] = environment[i];
    }
    qsort(chosen, count, sizeof(*chosen), compare_strings);
    for (size_t i = 0; i < count; ++i)
    {
        const char *equals = strchr(chosen[i], '=');
        char name[256];
        if (!equals || (size_t)(equals - chosen[i]) >= sizeof(name))
        {
            info->environment_incomplete = true;
            continue;
        }
        memcpy(name, chosen[i], (size_t)(equals - chosen[i]));
        name[equals - chosen[i]] = '\0';
        dmlconf_run_info_add_environment(info, name, equals + 1);
    }
    free(chosen);
}

static void record(run_state *state, const dmlconf_case_result *result, const char *encoded);

static void on_info(void *context, const dmlconf_backend_info *backend, dmlconf_feature_level level)
{
    run_state *state = context;
    dmlconf_run_info *info = &state->info;
    snprintf(info->backend, sizeof(info->backend), "%s", backend->backend);
    snprintf(info->adapter, sizeof(info->adapter), "%s", backend->adapter);
    snprintf(info->driver, sizeof(info->driver), "%s", backend->driver);
    snprintf(info->runtime, sizeof(info->runtime), "%s", backend->runtime);
    info->software_adapter = backend->software;
    info->target_level = level;
    record_environment(info);
    if (dmlconf_reports_begin(state->reports, info, &state->load_errors) && !state->report_error)
    {
        state->report_error = true;
        snprintf(state->report_why, sizeof(state->report_why), "%s", dmlconf_reports_error(state->reports));
    }
    /* A resumed run's report holds what the earlier run finished, first. */
    for (size_t i = 0; state->previous && i < state->previous->results.count; ++i)
        record(state, &state->previous->results.items[i], NULL);
}

/* Where a case ran: the baseline's say on its status, and its line for
 * results.jsonl. */
static char *on_finish(void *context, dmlconf_case_result *result)
{
    run_state *state = context;
    if (state->have_baseline)
        runner_baseline_apply(&state->baseline, result);
    return dmlconf_result_to_json(result);
}

/* Records one finished result: stream it and count it. */
static void record(run_state *state, const dmlconf_case_result *result, const char *encoded)
{
    if (dmlconf_reports_add_encoded(state->reports, result, encoded) && !state->report_error)
    {
        state->report_error = true;
        snprintf(state->report_why, sizeof(state->report_why), "%s", dmlconf_reports_error(state->reports));
    }
    if ((unsigned)result->status < DMLCONF_STATUS_COUNT)
        state->counts[result->status]++;
    state->done++;
    if (state->progress)
        print_progress(state, false);
}

static void on_result(void *context, size_t case_index, const dmlconf_case_result *result, const char *encoded)
{
    (void)case_index;
    record(context, result, encoded);
}

/* A backend call in this process (--jobs 0) that never returned: the
 * reports say the run was interrupted, with what finished, before the
 * process ends (the scheduler's watchdog calls this from its thread while
 * the stuck call holds the run's). */
static void on_abandon(void *context, const char *reason)
{
    run_state *state = context;
    if (state->reports && dmlconf_reports_begun(state->reports))
    {
        if (dmlconf_reports_finish_interrupted(state->reports, reason))
            fprintf(stderr, "dmlconf run: reports: %s\n", dmlconf_reports_error(state->reports));
    }
    else if (state->reports)
        dmlconf_reports_write_unstarted(state->reports, "interrupted", "interrupted", reason, EXIT_INCOMPLETE);
}

/* What the run is, before the backend says what it runs on. */
typedef struct run_identity
{
    const char *adapter_requested; /* NULL: the backend chose */
    const char *backend_requested; /* --backend when it names more than the backend's name (a plugin's path) */
    uint32_t shard_index, shard_count;
    const char *corpus_digest;
    uint64_t corpus_cases, planned_cases;
} run_identity;

static void fill_run_info(run_state *state, int argc, char **argv, uint64_t seed, const run_identity *identity)
{
    dmlconf_run_info *info = &state->info;
    memset(info, 0, sizeof(*info));
    snprintf(info->dmlconf_version, sizeof(info->dmlconf_version), "%s", DMLCONF_VERSION);
    info->seed = seed;
    snprintf(info->adapter_requested, sizeof(info->adapter_requested), "%s",
             identity->adapter_requested ? identity->adapter_requested : "");
    /* Left out when it does not fit: a cut path would name another file. */
    if (identity->backend_requested && strlen(identity->backend_requested) < sizeof(info->backend_requested))
        snprintf(info->backend_requested, sizeof(info->backend_requested), "%s", identity->backend_requested);
    info->shard_index = identity->shard_index;
    info->shard_count = identity->shard_count;
    snprintf(info->corpus_digest, sizeof(info->corpus_digest), "%s", identity->corpus_digest);
    info->corpus_cases = identity->corpus_cases;
    info->planned_cases = identity->planned_cases;
    dmlconf_run_info_set_command_line(info, (const char *const *)argv, argc > 0 ? (size_t)argc : 0);
    dmlconf_clock_format_utc(time(NULL), info->started_utc, sizeof(info->started_utc));
    dmlconf_host_name(info->host, sizeof(info->host));
}

/* Says why a selection holds no case to run (a usage error: a gate that
 * ran nothing must not look like one that passed). */
static void explain_empty_selection(size_t loaded, size_t load_errors, size_t matched, size_t selected,
                                    uint32_t shard_index, uint32_t shard_count, bool filtered, char *why,
                                    size_t why_size)
{
    if (loaded == 0 && load_errors)
        snprintf(why, why_size, "no case to run: the case files hold no valid case (%zu error%s above)", load_errors,
                 load_errors == 1 ? "" : "s");
    else if (loaded == 0)
        snprintf(why, why_size, "no case to run: the paths given hold no case file with a case in it");
    else if (matched == 0 && filtered)
        snprintf(why, why_size, "no case to run: no id among the %zu cases loaded matches the filters", loaded);
    else if (selected == 0)
        snprintf(why, why_size, "no case to run: shard %u of %u is empty (%zu cases before sharding)", shard_index,
                 shard_count, matched);
    else
        snprintf(why, why_size, "no case to run: the baseline's skips.txt skips every one of the %zu cases selected",
                 selected);
}

/* The failing cases, listed on the console after the matrix. */
static void print_failures(const run_state *state, const dmlconf_case_result *results, size_t count)
{
    size_t shown = 0, failing = 0;
    for (size_t i = 0; i < count; ++i)
        failing += dmlconf_status_is_failure(results[i].status);
    if (!failing)
        return;
    printf("\n%zu failing case%s:\n", failing, failing == 1 ? "" : "s");
    for (size_t i = 0; i < count && shown < 20; ++i)
    {
        if (!dmlconf_status_is_failure(results[i].status))
            continue;
        printf("  %s: %s: %s\n", results[i].id, dmlconf_status_name(results[i].status), results[i].message);
        if (results[i].repro_path[0])
            printf("    reproducer: %s\n", results[i].repro_path);
        ++shown;
    }
    if (failing > shown)
        printf("  ... and %zu more (see %s/%s)\n", failing - shown, state->report_dir, DMLCONF_REPORT_FAILURES_TXT);
}

/* Where the "--" that ends the options stands in argv (argc when there is
 * none), found by a first pass of getopt that keeps the arguments in order:
 * an option's own argument that happens to be "--" is not taken for it. */
static int find_separator(int argc, char **argv, const char *short_options, const struct option *options)
{
    char in_order[64];
    snprintf(in_order, sizeof(in_order), "-%s", short_options);
    int saved_opterr = opterr;
    opterr = 0;
    optind = 0;
    int before = 1;
    for (;;)
    {
        before = optind > 0 ? optind : 1;
        if (getopt_long(argc, argv, in_order, options, NULL) == -1)
            break;
    }
    int separator = optind == before + 1 && before < argc && !strcmp(argv[before], "--") ? before : argc;
    opterr = saved_opterr;
    optind = 0;
    return separator;
}

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

/* Splits the operands for `backend`. Returns 0, or -1 (message printed)
 * when the command is missing or misplaced, or memory runs out. */
static int split_operands(char **argv, int argc, int separator, int first, const dmlconf_backend_ops *backend,
                          run_operands *out)
{
    memset(out, 0, sizeof(*out));
    out->paths = argv + first;
    out->path_count = (size_t)(separator - first);
    bool takes_command = backend && !strcmp(backend->name, "exec");
    size_t after = separator < argc ? (size_t)(argc - separator - 1) : 0;
    if (takes_command)
    {
        if (!after)
        {
            fprintf(stderr, "dmlconf run: --backend exec runs the adapter program given after --: dmlconf run "
                            "--backend exec [OPTIONS] [PATH...] -- COMMAND [ARGS...]\n");
            return -1;
        }
        out->command = (const char *const *)(argv + separator + 1);
        out->command_count = after;
        return 0;
    }
    if (!after)
        return 0;
    /* Case files after "--", as before any backend took a command. */
    out->combined = malloc((out->path_count + after) * sizeof(*out->combined));
    if (!out->combined)
    {
        fprintf(stderr, "dmlconf run: out of memory\n");
        return -1;
    }
    memcpy(out->combined, out->paths, out->path_count * sizeof(*out->combined));
    memcpy(out->combined + out->path_count, argv + separator + 1, after * sizeof(*out->combined));
    out->paths = out->combined;
    out->path_count += after;
    return 0;
}

/* The exec backend's time limit for its adapter (DMLCONF_EXEC_TIMEOUT),
 * unless set: half the run's, so that a hung adapter is caught, with its
 * last words, before the scheduler's deadline for the batch. */
static int set_exec_timeout(uint64_t run_timeout)
{
    if (getenv(DMLCONF_EXEC_TIMEOUT_VARIABLE))
        return 0;
    char text[32];
    snprintf(text, sizeof(text), "%g", (double)run_timeout / 2.0);
    return dmlconf_set_environment(DMLCONF_EXEC_TIMEOUT_VARIABLE, text);
}

/* Everything `dmlconf run` was told. */
typedef struct run_options
{
    const char *backend_name, *adapter, *baseline_dir, *report_dir;
    const char *const *backend_arguments; /* the backend config's: a plugin's path or exec's command */
    dmlconf_feature_level level;
    runner_filter filter;
    unsigned jobs;
    bool jobs_given; /* -j: exactly that many workers, whatever the adapter */
    uint64_t seed, timeout, memory_limit;
    bool rerun, repro, quiet, resume, strict_baseline, overwrite;
    uint32_t shard_index, shard_count;
    char *const *paths; /* case files and folders (none: the default corpus) */
    size_t path_count;
    int argc; /* the whole command line, for the reports */
    char **argv;
    int separator;         /* where "--" stands (argc: nowhere) */
    int first_operand;     /* the first argument after the options */
    run_operands operands; /* split once the backend is known */
} run_options;

/* "4G", "512M", "100000": bytes. Returns 0, or -1 when malformed. */
static int parse_bytes(const char *text, uint64_t *bytes)
{
    char *end = NULL;
    if (!*text || *text == '-')
        return -1;
    errno = 0;
    double value = strtod(text, &end);
    if (errno || end == text || value < 0.0)
        return -1;
    double scale = 1.0;
    if (*end == 'k' || *end == 'K')
        scale = 1e3, ++end;
    else if (*end == 'M')
        scale = 1e6, ++end;
    else if (*end == 'G')
        scale = 1e9, ++end;
    else if (*end == 'T')
        scale = 1e12, ++end;
    if (*end == 'B')
        ++end;
    if (*end || value * scale >= 1.8e19)
        return -1;
    *bytes = (uint64_t)(value * scale);
    return 0;
}

/* Reads the shard from --shard or the GoogleTest convention's variables. */
static int parse_shard(const char *shard, run_options *o)
{
    o->shard_index = 0;
    o->shard_count = 1;
    const char *env_index = getenv("TEST_SHARD_INDEX"), *env_total = getenv("TEST_TOTAL_SHARDS");
    if (shard)
    {
        if (runner_parse_shard(shard, &o->shard_index, &o->shard_count))
        {
            fprintf(stderr, "dmlconf run: --shard takes I/N with 0 <= I < N, not '%s'\n", shard);
            return -1;
        }
        return 0;
    }
    if (!env_index && !env_total)
        return 0;
    if (!env_index || !env_total)
    {
        /* Half a shard is no shard: running the whole corpus instead would
         * run it once per shard. */
        fprintf(stderr, "dmlconf run: %s is set but %s is not; set both (or neither)\n",
                env_index ? "TEST_SHARD_INDEX" : "TEST_TOTAL_SHARDS", env_index ? "TEST_TOTAL_SHARDS" : "TEST_SHARD_INDEX");
        return -1;
    }
    char text[64];
    snprintf(text, sizeof(text), "%s/%s", env_index, env_total);
    if (runner_parse_shard(text, &o->shard_index, &o->shard_count))
    {
        fprintf(stderr, "dmlconf run: TEST_SHARD_INDEX=%s and TEST_TOTAL_SHARDS=%s do not name a shard\n", env_index,
                env_total);
        return -1;
    }
    /* Tell the test launcher that sharding is understood. */
    const char *status_file = getenv("TEST_SHARD_STATUS_FILE");
    if (status_file && *status_file)
    {
        FILE *touch = fopen(status_file, "a");
        if (touch)
            fclose(touch);
    }
    return 0;
}

/* Parses the options. Returns -1 to go on, or the exit status to end with
 * (help, a usage error). */
static int parse_run_options(int argc, char **argv, run_options *o)
{
    static const struct option options[] = {
        {"backend", required_argument, NULL, 'b'},
        {"adapter", required_argument, NULL, 'a'},
        {"directml-dll", required_argument, NULL, 'D'},
        {"feature-level", required_argument, NULL, 'l'},
        {"filter", required_argument, NULL, 'f'},
        {"shard", required_argument, NULL, 'S'},
        {"jobs", required_argument, NULL, 'j'},
        {"baseline", required_argument, NULL, 'B'},
        {"strict-baseline", no_argument, NULL, 'X'},
        {"report-dir", required_argument, NULL, 'o'},
        {"resume", no_argument, NULL, 'U'},
        {"overwrite", no_argument, NULL, 'W'},
        {"memory-limit", required_argument, NULL, 'M'},
        {"seed", required_argument, NULL, 's'},
        {"timeout", required_argument, NULL, 'T'},
        {"no-rerun", no_argument, NULL, 'R'},
        {"no-repro", no_argument, NULL, 'P'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof(*o));
    o->report_dir = "dmlconf-results";
    o->jobs = dmlconf_cpu_count();
    o->timeout = 120;
    o->rerun = o->repro = true;
    o->argc = argc;
    o->argv = argv;
    const char *shard = NULL;
    bool memory_given = false;
    static const char short_options[] = "b:a:l:f:j:o:qh";
    /* The options end at "--"; what follows is for the backend (or more
     * case files). */
    o->separator = find_separator(argc, argv, short_options, options);
    int option;
    while ((option = getopt_long(o->separator, argv, short_options, options, NULL)) != -1)
    {
        uint64_t value;
        switch (option)
        {
        case 'b':
            o->backend_name = optarg;
            break;
        case 'a':
            o->adapter = optarg;
            break;
        case 'D':
            /* The workers inherit it. */
            if (dmlconf_set_environment("DMLCONF_DIRECTML_DLL", optarg))
            {
                fprintf(stderr, "dmlconf run: out of memory\n");
                return EXIT_SETUP;
            }
            break;
        case 'l':
            if (!dmlconf_feature_level_from_name(optarg, &o->level))
            {
                fprintf(stderr, "dmlconf run: '%s' is not a feature level (1_0 to 6_4)\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'f':
            if (runner_filter_add(&o->filter, optarg))
            {
                fprintf(stderr, "dmlconf run: out of memory\n");
                return EXIT_SETUP;
            }
            break;
        case 'S':
            shard = optarg;
            break;
        case 'j':
            if (!dmlconf_parse_u64(optarg, 0, 1024, &value))
            {
                fprintf(stderr, "dmlconf run: --jobs takes 0 to 1024, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            o->jobs = (unsigned)value;
            o->jobs_given = true;
            break;
        case 'B':
            o->baseline_dir = optarg;
            break;
        case 'X':
            o->strict_baseline = true;
            break;
        case 'o':
            o->report_dir = optarg;
            break;
        case 'U':
            o->resume = true;
            break;
        case 'W':
            o->overwrite = true;
            break;
        case 'M':
            if (parse_bytes(optarg, &o->memory_limit) || o->memory_limit == 0)
            {
                fprintf(stderr, "dmlconf run: --memory-limit takes a number of bytes (4G, 512M), not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            memory_given = true;
            break;
        case 's':
            if (!dmlconf_parse_u64(optarg, 0, UINT64_MAX, &o->seed))
            {
                fprintf(stderr, "dmlconf run: --seed takes an unsigned 64-bit integer, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'T':
            if (!dmlconf_parse_u64(optarg, 0, 86400, &o->timeout))
            {
                fprintf(stderr, "dmlconf run: --timeout takes 0 to 86400 seconds, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'R':
            o->rerun = false;
            break;
        case 'P':
            o->repro = false;
            break;
        case 'q':
            o->quiet = true;
            break;
        case 'h':
            fputs(run_usage, stdout);
            return EXIT_PASSED;
        default:
            fputs(run_usage, stderr);
            return EXIT_USAGE;
        }
    }
    if (o->strict_baseline && !o->baseline_dir)
    {
        fprintf(stderr, "dmlconf run: --strict-baseline needs --baseline DIR\n");
        return EXIT_USAGE;
    }
    if (o->resume && o->overwrite)
    {
        fprintf(stderr, "dmlconf run: --resume goes on with the run in the folder, --overwrite replaces it: give "
                        "one\n");
        return EXIT_USAGE;
    }
    if (!memory_given)
    {
        /* Each worker may hold one large case: three quarters of the
         * machine's memory, shared by the workers. */
        uint64_t memory = dmlconf_physical_memory_bytes();
        o->memory_limit = memory ? memory / 4 * 3 / (o->jobs ? o->jobs : 1) : 0;
    }
    o->first_operand = optind;
    return parse_shard(shard, o) ? EXIT_USAGE : -1;
}

/* The backend to run on: the one named (a plugin loaded into *choice), or
 * the default. Returns it, or NULL (said why in `why`) for a name no
 * backend has, a plugin that cannot be loaded, or no default. */
static const dmlconf_backend_ops *choose_backend(const run_options *o, runner_backend_choice *choice, char *why,
                                                 size_t why_size)
{
    if (o->backend_name)
        return runner_backend_choose(o->backend_name, choice, why, why_size) ? NULL : choice->ops;
    const dmlconf_backend_ops *ops = runner_default_backend();
    if (!ops)
        snprintf(why, why_size,
                 "no --backend given, and this dmlconf was built without a GPU backend to default to: name the "
                 "implementation to test (--backend exec -- COMMAND, --backend plugin:PATH, ...), or --backend "
                 "oracle for the self-check");
    return ops;
}

/* The cases a run selected: every valid case loaded, those the filters and
 * the shard keep, and of those the ones to run (not skipped by the
 * baseline, not finished by the run being resumed), with the numbers a
 * spawned worker knows them by. */
typedef struct run_selection
{
    dmlconf_case_corpus corpus;
    size_t load_errors;
    const dmlconf_case **all;
    size_t all_count;
    const dmlconf_case **selected;
    size_t selected_count, matched;
    const dmlconf_case **to_run;
    uint32_t *run_numbers;
    size_t run_count;
    const dmlconf_case **baseline_skipped; /* reported without running */
    size_t baseline_skipped_count;
    size_t resumed; /* selected cases the resumed run had finished */
} run_selection;

static void free_selection(run_selection *s)
{
    free(s->to_run);
    free(s->run_numbers);
    free(s->baseline_skipped);
    free(s->selected);
    free(s->all);
    dmlconf_case_corpus_free(&s->corpus);
    memset(s, 0, sizeof(*s));
}

static int compare_ids(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether `id` is among the sorted ids. */
static bool among(const char *const *ids, size_t count, const char *id)
{
    return count && bsearch(&id, ids, count, sizeof(*ids), compare_ids) != NULL;
}

/* Loads the corpus and selects the cases. Returns 0, or -1 when memory ran
 * out (said so). */
static int select_cases(const run_options *o, const run_state *state, run_selection *s)
{
    memset(s, 0, sizeof(*s));
    s->load_errors = runner_load_corpus(&s->corpus, o->paths, o->path_count);
    s->all = runner_corpus_cases(&s->corpus, &s->all_count);
    size_t slots = s->all_count ? s->all_count : 1;
    s->selected = malloc(slots * sizeof(*s->selected));
    uint32_t *selected_numbers = malloc(slots * sizeof(*selected_numbers));
    s->to_run = malloc(slots * sizeof(*s->to_run));
    s->run_numbers = malloc(slots * sizeof(*s->run_numbers));
    s->baseline_skipped = malloc(slots * sizeof(*s->baseline_skipped));
    /* The ids the resumed run finished, sorted for searching. */
    size_t done_count = state->previous ? state->previous->results.count : 0;
    const char **done = malloc((done_count ? done_count : 1) * sizeof(*done));
    if (!s->all || !s->selected || !selected_numbers || !s->to_run || !s->run_numbers || !s->baseline_skipped || !done)
    {
        free(selected_numbers);
        free(done);
        fprintf(stderr, "dmlconf run: out of memory\n");
        return -1;
    }
    for (size_t i = 0; i < done_count; ++i)
        done[i] = state->previous->results.items[i].id;
    qsort(done, done_count, sizeof(*done), compare_ids);
    for (size_t i = 0; i < s->all_count; ++i)
    {
        if (!runner_filter_matches(&o->filter, s->all[i]->id))
            continue;
        if (s->matched++ % o->shard_count != o->shard_index)
            continue;
        selected_numbers[s->selected_count] = (uint32_t)i;
        s->selected[s->selected_count++] = s->all[i];
    }
    for (size_t i = 0; i < s->selected_count; ++i)
    {
        const char *id = s->selected[i]->id;
        if (among(done, done_count, id))
            s->resumed++;
        else if (state->have_baseline && runner_baseline_skips(&state->baseline, id))
            s->baseline_skipped[s->baseline_skipped_count++] = s->selected[i];
        else
        {
            s->run_numbers[s->run_count] = selected_numbers[i];
            s->to_run[s->run_count++] = s->selected[i];
        }
    }
    free(selected_numbers);
    free(done);
    return 0;
}

/* Lists the baseline's stale lines on the console (even when quiet: a
 * warning) and in the reports. Returns how many there are. */
static size_t report_stale_baseline(run_state *state, const run_selection *s)
{
    char **stale = NULL;
    size_t count = 0;
    if (!state->have_baseline ||
        runner_baseline_stale(&state->baseline, (const dmlconf_case *const *)s->all, s->all_count, &stale, &count))
        return 0;
    if (count)
    {
        fprintf(stderr, "dmlconf run: %zu stale baseline line%s (matching no case):\n", count, count == 1 ? "" : "s");
        for (size_t i = 0; i < count && i < 20; ++i)
            fprintf(stderr, "  %s\n", stale[i]);
        if (count > 20)
            fprintf(stderr, "  ... and %zu more (summary.json lists them all)\n", count - 20);
    }
    dmlconf_reports_set_stale_baseline(state->reports, (const char *const *)stale, count);
    for (size_t i = 0; i < count; ++i)
        free(stale[i]);
    free(stale);
    return count;
}

/* Opens the backend in this process to learn what a resumed run runs on,
 * and checks that it is the run the report folder holds. Returns 0, or -1
 * (said why). */
static int check_resumed_run(const run_options *o, run_state *state, const dmlconf_backend_ops *ops)
{
    dmlconf_backend_config config = {
        .adapter = o->adapter, .feature_level = o->level, .arguments = o->backend_arguments};
    dmlconf_backend *backend = NULL;
    char why[512];
    if (ops->open(&config, &backend, why, sizeof(why)))
    {
        fprintf(stderr, "dmlconf run: %s\n", why);
        return -1;
    }
    dmlconf_backend_info backend_info;
    backend->ops->info(backend, &backend_info);
    backend->ops->close(backend);
    dmlconf_run_info info = state->info;
    snprintf(info.backend, sizeof(info.backend), "%s", backend_info.backend);
    snprintf(info.adapter, sizeof(info.adapter), "%s", backend_info.adapter);
    snprintf(info.driver, sizeof(info.driver), "%s", backend_info.driver);
    snprintf(info.runtime, sizeof(info.runtime), "%s", backend_info.runtime);
    info.software_adapter = backend_info.software;
    info.target_level = runner_target_level(o->level, &backend_info);
    record_environment(&info);
    if (!dmlconf_run_info_same_run(&state->previous->info, &info, why, sizeof(why)))
    {
        fprintf(stderr,
                "dmlconf run: --resume: %s/ holds another run (%s); give the same options, or start over "
                "without --resume\n",
                o->report_dir, why);
        return -1;
    }
    return 0;
}

/* Threads that prepare and judge a batch's cases in each worker on a
 * hardware adapter: the CPUs shared out between the workers (a CPU
 * implementation's workers take one each). With two workers on an H100 of
 * 16 CPUs, the cases' inputs and judging took 0.35-0.45 s of each worker's
 * 0.7 s of cases on one thread. */
static unsigned host_threads(const run_options *o)
{
    unsigned cpus = dmlconf_cpu_count();
    unsigned workers = o->jobs_given || o->jobs < HARDWARE_WORKERS ? o->jobs : HARDWARE_WORKERS;
    unsigned threads = workers ? cpus / workers : cpus;
    return threads ? threads : 1u;
}

/* Runs the selected cases on the backend. Returns the scheduler's answer
 * (0, 1 when interrupted, -1 when the backend could not run them, with why
 * in `why`). */
static int run_on_backend(const run_options *o, run_state *state, const run_selection *s,
                          const dmlconf_backend_ops *ops, char *why, size_t why_size)
{
    char repro_dir[1024];
    snprintf(repro_dir, sizeof(repro_dir), "%s/repros", o->report_dir);
    runner_schedule schedule = {
        .backend_config = {.adapter = o->adapter, .feature_level = o->level, .arguments = o->backend_arguments},
        .config =
            {
                .level = o->level,
                .seed = o->seed,
                .rerun_failures = o->rerun,
                .shrink = o->repro,
                .repro_dir = o->repro ? repro_dir : NULL,
                .batch_elements = UINT64_C(1) << 22,
                .memory_limit = o->memory_limit,
                .host_threads = host_threads(o),
            },
        .jobs = o->jobs,
        .hardware_jobs = o->jobs_given ? 0 : HARDWARE_WORKERS,
        .timeout_seconds = (double)o->timeout,
        .on_info = on_info,
        .on_finish = on_finish,
        .on_result = on_result,
        .on_abandon = on_abandon,
        .context = state,
        .interrupted = runner_interrupt_flag(),
    };
    dmlconf_backend_info info;
    schedule.backend_ops = ops;
    schedule.open_one_at_a_time = runner_backend_opens_one_at_a_time(ops);
    const char **worker_argv = NULL;
    if (runner_spawn_workers() && o->jobs > 0)
    {
        worker_argv = runner_worker_command(&schedule, o->paths, o->path_count, why, why_size);
        if (!worker_argv)
            return -1;
        schedule.worker_argv = worker_argv;
        schedule.worker_case_numbers = s->run_numbers;
    }
    int scheduled = runner_schedule_run(&schedule, s->to_run, s->run_count, &info, why, why_size);
    runner_free_worker_command(worker_argv);
    return scheduled;
}

/* Prints the run's summary on the console. */
static void print_summary(const run_options *o, const run_state *state, const run_selection *s)
{
    bool color = dmlconf_stream_is_terminal(stdout) && !getenv("NO_COLOR");
    printf("dmlconf %s on %s: %s (%s), driver %s, runtime %s; target feature level %s\n", DMLCONF_VERSION,
           state->info.backend, state->info.adapter, state->info.software_adapter ? "software" : "hardware",
           state->info.driver, state->info.runtime, dmlconf_feature_level_name(state->info.target_level));
    printf("%zu case%s selected", s->selected_count, s->selected_count == 1 ? "" : "s");
    if (o->shard_count > 1)
        printf(" (shard %u of %u)", o->shard_index, o->shard_count);
    if (s->resumed)
        printf("; %zu finished by the run resumed", s->resumed);
    if (s->load_errors)
        printf("; %zu error%s in the case files (see above)", s->load_errors, s->load_errors == 1 ? "" : "s");
    printf("\n\n");
    dmlconf_matrix_print(stdout, dmlconf_reports_matrix(state->reports), color);
    size_t result_count = 0;
    const dmlconf_case_result *results = dmlconf_reports_results(state->reports, &result_count);
    print_failures(state, results, result_count);
    printf("\nreports: %s/ (results.jsonl, summary.json, junit.xml, summary.md, report.html, failures.txt)\n",
           o->report_dir);
}

/* Opens (or, resuming, reopens) the report folder before anything runs: a
 * folder that cannot be written, that another run is writing, or that
 * holds an earlier run's reports (without --overwrite or --resume) stops
 * this run now, and nothing in it is touched. Returns 0, or the exit
 * status. */
static int open_reports(const run_options *o, run_state *state, dmlconf_results_file *previous)
{
    char why[640];
    if (!o->resume)
    {
        if (dmlconf_reports_open(o->report_dir, o->overwrite ? DMLCONF_REPORTS_OVERWRITE : DMLCONF_REPORTS_NEW,
                                 &state->reports, why, sizeof(why)))
        {
            fprintf(stderr, "dmlconf run: reports: %s%s\n", why,
                    o->overwrite ? "" : " (--overwrite replaces them; --resume goes on with an unfinished run)");
            return EXIT_SETUP;
        }
        return 0;
    }
    if (dmlconf_reports_open_resume(o->report_dir, previous, &state->reports, why, sizeof(why)))
    {
        fprintf(stderr, "dmlconf run: --resume: %s\n", why);
        return EXIT_SETUP;
    }
    if (previous->end.kind == DMLCONF_END_FINISHED)
    {
        fprintf(stderr,
                "dmlconf run: --resume: the run in %s/ finished; there is nothing to resume (its reports are left as "
                "they are)\n",
                o->report_dir);
        return EXIT_SETUP;
    }
    state->previous = previous;
    return 0;
}

/* Ends a run that could not start, or had nothing to judge: says why, and
 * writes junit.xml and summary.json saying it into the report folder (when
 * it held no earlier run). Returns the exit status. */
static int end_unstarted(run_state *state, int exit_status, const char *why)
{
    const bool setup = exit_status == EXIT_SETUP;
    fprintf(stderr, "dmlconf run: %s\n", why);
    if (state->reports && dmlconf_reports_write_unstarted(state->reports, setup ? "setup-error" : "incomplete",
                                                          setup ? "setup error: the run could not start"
                                                                : "incomplete: nothing was judged",
                                                          why, exit_status))
        fprintf(stderr, "dmlconf run: reports: %s\n", dmlconf_reports_error(state->reports));
    return exit_status;
}

/* Describes what the selected cases are (the verdict's scope) into the run
 * info: the whole reference corpus, a subset of it, or files of the user's
 * own. */
static void describe_scope(const run_options *o, const run_selection *s, const char *selected_digest,
                           dmlconf_run_info *info)
{
    const bool filtered = o->filter.include_count || o->filter.exclude_count;
    const char *cases_variable = getenv("DMLCONF_CASES");
    bool reference = o->path_count == 0 && !(cases_variable && *cases_variable);
    if (!reference)
    {
        /* Paths (or $DMLCONF_CASES) that hold the reference corpus itself
         * count as it: the same cases in the same files. */
        char whole[24], digest[24];
        runner_filter everything = {0};
        runner_reference_corpus_digest(digest, sizeof(digest));
        runner_corpus_digest(&s->corpus, &everything, whole, sizeof(whole));
        reference = digest[0] && !strcmp(digest, whole);
    }
    (void)selected_digest;
    dmlconf_text detail = {info->scope_detail, sizeof(info->scope_detail), 0};
    if (!reference)
    {
        snprintf(info->scope, sizeof(info->scope), "%s", "files");
        if (o->path_count == 0)
            dmlconf_text_appendf(&detail, "DMLCONF_CASES=%s", cases_variable);
        for (size_t i = 0; i < o->path_count; ++i)
            dmlconf_text_appendf(&detail, "%s%s", i ? " " : "", o->paths[i]);
    }
    else
        snprintf(info->scope, sizeof(info->scope), "%s", filtered ? "subset" : "corpus");
    if (filtered)
    {
        dmlconf_text_appendf(&detail, "%sfilter", detail.length ? "; " : "");
        for (size_t i = 0; i < o->filter.include_count; ++i)
            dmlconf_text_appendf(&detail, " '%s'", o->filter.include[i]);
        for (size_t i = 0; i < o->filter.exclude_count; ++i)
            dmlconf_text_appendf(&detail, " '!%s'", o->filter.exclude[i]);
    }
    if (filtered || !reference)
        dmlconf_text_appendf(&detail, ": %zu of %zu cases loaded", s->matched, s->all_count);
    if (detail.length >= sizeof(info->scope_detail))
        memcpy(info->scope_detail + sizeof(info->scope_detail) - 4, "...", 4);
}

int command_run(int argc, char **argv)
{
    run_options o;
    run_state state;
    run_selection s;
    dmlconf_results_file previous;
    memset(&state, 0, sizeof(state));
    memset(&s, 0, sizeof(s));
    memset(&previous, 0, sizeof(previous));
    int exit_code = parse_run_options(argc, argv, &o);
    runner_backend_choice choice = {0};
    char why[1024] = "";
    if (exit_code >= 0)
        goto done;
    state.report_dir = o.report_dir;
    /* The folder first: every later reason not to start is written there. */
    if ((exit_code = open_reports(&o, &state, &previous)) != 0)
        goto done;
    const dmlconf_backend_ops *ops = choose_backend(&o, &choice, why, sizeof(why));
    if (!ops)
    {
        exit_code = end_unstarted(&state, EXIT_SETUP, why);
        goto done;
    }
    if (split_operands(argv, argc, o.separator, o.first_operand, ops, &o.operands))
    {
        exit_code = end_unstarted(&state, EXIT_SETUP, "the command line's operands do not fit the backend (above)");
        goto done;
    }
    o.paths = o.operands.paths;
    o.path_count = o.operands.path_count;
    /* The backend config's arguments: a plugin's path, or exec's command. */
    o.backend_arguments = choice.arguments ? choice.arguments : o.operands.command;
    if (o.operands.command && set_exec_timeout(o.timeout))
    {
        exit_code = end_unstarted(&state, EXIT_SETUP, "out of memory");
        goto done;
    }
    if (o.baseline_dir)
    {
        char reason[512];
        if (runner_baseline_load(&state.baseline, o.baseline_dir, reason, sizeof(reason)))
        {
            snprintf(why, sizeof(why), "baseline: %s", reason);
            exit_code = end_unstarted(&state, EXIT_SETUP, why);
            goto done;
        }
        state.have_baseline = true;
    }

    if (select_cases(&o, &state, &s) || runner_corpus_load_errors(&s.corpus, &state.load_errors))
    {
        exit_code = end_unstarted(&state, EXIT_SETUP, "out of memory");
        goto done;
    }
    if (s.run_count == 0 && !s.resumed)
    {
        explain_empty_selection(s.all_count, s.load_errors, s.matched, s.selected_count, o.shard_index, o.shard_count,
                                o.filter.include_count || o.filter.exclude_count, why, sizeof(why));
        exit_code = end_unstarted(&state, EXIT_INCOMPLETE, why);
        goto done;
    }
    size_t stale = report_stale_baseline(&state, &s);

    char digest[24];
    runner_corpus_digest(&s.corpus, &o.filter, digest, sizeof(digest));
    /* What a reproduce command must name beyond the backend's own name: a
     * plugin's path, or exec with its adapter's command. */
    const char *backend_requested = choice.plugin ? o.backend_name : o.operands.command ? "exec" : NULL;
    run_identity identity = {o.adapter, backend_requested, o.shard_index,   o.shard_count,
                             digest,    s.matched,         s.selected_count};
    fill_run_info(&state, argc + 1, argv - 1, o.seed, &identity);
    describe_scope(&o, &s, digest, &state.info);
    state.info.self_check = runner_backend_is_self_check(ops);
    if (o.baseline_dir)
    {
        snprintf(state.info.baseline, sizeof(state.info.baseline), "%s", o.baseline_dir);
        state.info.strict_baseline = o.strict_baseline;
        state.info.baseline_stale_lines = stale;
    }
    if (o.operands.command)
        dmlconf_run_info_set_backend_command(&state.info, o.operands.command);
    state.seed = o.seed;
    state.total = s.selected_count;
    state.progress = !o.quiet && dmlconf_stream_is_terminal(stderr);
    if (state.previous && check_resumed_run(&o, &state, ops))
    {
        exit_code = EXIT_SETUP;
        goto done;
    }

    runner_interrupt_install();
    int scheduled = run_on_backend(&o, &state, &s, ops, why, sizeof(why));
    runner_interrupt_restore();
    const char *signal_name = runner_interrupt_name();
    if (scheduled < 0 && !dmlconf_reports_begun(state.reports))
    {
        /* The backend, asked for or the default, did not open: no other
         * stands in for it (`why` names it). */
        exit_code = end_unstarted(&state, EXIT_SETUP, why);
        goto done;
    }
    if (scheduled < 0)
        fprintf(stderr, "dmlconf run: %s\n", why);
    if (scheduled == 0)
    {
        /* Baseline skips, recorded after the run so the stream stays in
         * order of completion. */
        for (size_t i = 0; i < s.baseline_skipped_count; ++i)
        {
            dmlconf_case_result skipped;
            runner_result_init(&skipped, s.baseline_skipped[i], DMLCONF_STATUS_SKIP,
                               "skipped by the baseline's skips.txt");
            record(&state, &skipped, NULL);
        }
    }
    if (state.progress)
        print_progress(&state, true);
    /* Results already streamed get their reports even when the run did not
     * finish: they say it is incomplete or interrupted. A run whose backend
     * stopped serving it (-1 after it began) has no completion record. */
    int finished = signal_name     ? dmlconf_reports_finish_interrupted(state.reports, signal_name)
                   : scheduled < 0 ? dmlconf_reports_finish_unended(state.reports)
                                   : dmlconf_reports_finish(state.reports);
    if (finished && !state.report_error)
    {
        state.report_error = true;
        snprintf(state.report_why, sizeof(state.report_why), "%s", dmlconf_reports_error(state.reports));
    }

    bool all_skipped = state.done > 0 && state.counts[DMLCONF_STATUS_SKIP] == state.done;
    if (!o.quiet)
        print_summary(&o, &state, &s);
    if (state.report_error)
        fprintf(stderr, "dmlconf run: reports: %s\n", state.report_why);
    if (signal_name)
        fprintf(stderr,
                "dmlconf run: interrupted by %s after %zu of %zu cases; the reports say so, and `dmlconf run "
                "--resume` with the same options goes on from there\n",
                signal_name, state.done, state.total);
    if (all_skipped)
        fprintf(stderr,
                "dmlconf run: every one of the %zu cases selected was skipped (see the reasons in %s/): nothing "
                "was judged\n",
                state.done, o.report_dir);
    if (stale && o.strict_baseline)
        fprintf(stderr, "dmlconf run: --strict-baseline: the baseline has %zu stale line%s\n", stale,
                stale == 1 ? "" : "s");
    /* The exit status is the verdict's, as every report says it. */
    dmlconf_run_verdict verdict;
    dmlconf_matrix_verdict(dmlconf_reports_matrix(state.reports), &verdict);
    exit_code = verdict.exit_status;
    if (state.report_error && exit_code < EXIT_INCOMPLETE)
        exit_code = EXIT_INCOMPLETE; /* the reports do not hold the whole run */

done:
    dmlconf_reports_close(state.reports);
    runner_backend_choice_release(&choice);
    dmlconf_results_file_free(&previous);
    free_selection(&s);
    dmlconf_load_error_list_free(&state.load_errors);
    runner_filter_free(&o.filter);
    free(o.operands.combined);
    if (state.have_baseline)
        runner_baseline_free(&state.baseline);
    return exit_code;
}
