/*
 * `dmlconf run`: run cases on a backend, judge them, stream the results and
 * write the reports.
 */
#define _POSIX_C_SOURCE 200809L

#include "runner.h"

#include <dmlconf/clock.h>
#include <dmlconf/comparator.h>
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

static const char run_usage[] =
    "usage: dmlconf run [OPTIONS] [PATH...]\n"
    "\n"
    "Runs conformance cases (YAML files, or folders searched for them; by default the\n"
    "whole corpus) on a backend, compares every output with the exact oracle and writes\n"
    "the reports.\n"
    "\n"
    "options:\n"
    "  -b, --backend NAME        backend to run on (default: the best one available), or\n"
    "                            plugin:PATH, a native plugin (a shared library built\n"
    "                            against dmlconf/backend.h)\n"
    "  -a, --adapter WHICH       adapter index or name fragment (see `dmlconf adapters`)\n"
    "      --directml-dll PATH   the DirectML library the directml backend loads (a file,\n"
    "                            or a folder holding it); sets DMLCONF_DIRECTML_DLL\n"
    "  -l, --feature-level L     target DirectML feature level, e.g. 4_0 (default: the\n"
    "                            backend's); cases above it are skipped\n"
    "  -f, --filter GLOB         run the ids matching GLOB; repeatable; '!GLOB' excludes\n"
    "      --shard I/N           run shard I of N (0-based); also TEST_SHARD_INDEX and\n"
    "                            TEST_TOTAL_SHARDS from the environment\n"
    "  -j, --jobs N              worker processes (default: the number of CPUs; 0 runs in\n"
    "                            this process, without crash isolation)\n"
    "      --baseline DIR        known failures, flakes and skips (failures.txt, flakes.txt,\n"
    "                            skips.txt); a listed failure that passes fails the run\n"
    "  -o, --report-dir DIR      where the reports go (default: dmlconf-results); checked\n"
    "                            and locked before any case runs\n"
    "      --seed N              mix N into every generated input (default 0: the\n"
    "                            corpus' own data)\n"
    "      --timeout SECONDS     per case, and per batch of small cases (default 120; 0:\n"
    "                            none)\n"
    "      --no-rerun            do not rerun failures to tell flakes\n"
    "      --no-repro            do not shrink failures into minimal reproducers\n"
    "  -q, --quiet               no progress and no summary on the console\n"
    "  -h, --help                this help\n"
    "\n"
    "exit status: 0 when every case that ran passed (or matched the baseline; a case the\n"
    "backend does not support is skipped, and the verdict names what such cases left\n"
    "uncovered), 1 when a case failed, errored, crashed or timed out, a baseline failure\n"
    "passed or cases are missing, 2 on a usage error (a plugin that cannot be loaded\n"
    "among them), an invalid case file, or a report folder that cannot be written or\n"
    "that another run is using.\n";

typedef struct run_state
{
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
    size_t used = 0;
    for (int i = 0; i < argc && used < sizeof(info->command_line); ++i)
        used += (size_t)snprintf(info->command_line + used, sizeof(info->command_line) - used, "%s%s", i ? " " : "",
                                 argv[i]);
    dmlconf_clock_format_utc(time(NULL), info->started_utc, sizeof(info->started_utc));
    dmlconf_host_name(info->host, sizeof(info->host));
}

static int parse_u64(const char *text, uint64_t *value)
{
    char *end;
    errno = 0;
    if (!*text || *text == '-')
        return -1;
    unsigned long long v = strtoull(text, &end, 0);
    if (errno || *end)
        return -1;
    *value = v;
    return 0;
}

/* Whether workers are started as programs (`dmlconf __worker`) rather than
 * forked: always on Windows; on POSIX when DMLCONF_WORKERS=spawn (which
 * tests the Windows way on Linux). */
static bool spawn_workers(void)
{
#if defined(_WIN32)
    return true;
#else
    const char *mode = getenv("DMLCONF_WORKERS");
    return mode && !strcmp(mode, "spawn");
#endif
}

/* A `dmlconf __worker` command line for the schedule (cmd_worker.c), in
 * `text` (freed by the caller with free_worker_argv). Returns the
 * NULL-terminated argv, or NULL when memory runs out or this program's
 * path is unknown (why set). */
static const char **make_worker_argv(const runner_schedule *schedule, char *const *paths, size_t path_count, char *why,
                                     size_t why_size)
{
    size_t most = 20 + path_count;
    char **argv = calloc(most, sizeof(*argv));
    if (!argv)
    {
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    size_t n = 0;
    char number[32];
    bool failed = !(argv[n++] = dmlconf_process_self_path(why, why_size));
#define ADD(text) failed = failed || !(argv[n++] = dmlconf_strdup(text))
    ADD("__worker");
    ADD("--backend");
    ADD(schedule->backend_ops->name);
    if (schedule->backend_config.adapter)
    {
        ADD("--adapter");
        ADD(schedule->backend_config.adapter);
    }
    if (schedule->config.level != DMLCONF_FEATURE_LEVEL_NONE)
    {
        ADD("--level");
        ADD(dmlconf_feature_level_name(schedule->config.level));
    }
    snprintf(number, sizeof(number), "%llu", (unsigned long long)schedule->config.seed);
    ADD("--seed");
    ADD(number);
    snprintf(number, sizeof(number), "%llu", (unsigned long long)schedule->config.batch_elements);
    ADD("--batch-elements");
    ADD(number);
    if (!schedule->config.rerun_failures)
        ADD("--no-rerun");
    if (!schedule->config.shrink)
        ADD("--no-repro");
    if (schedule->config.repro_dir)
    {
        ADD("--repro-dir");
        ADD(schedule->config.repro_dir);
    }
    ADD("--");
    for (size_t i = 0; i < path_count; ++i)
        ADD(paths[i]);
#undef ADD
    if (failed)
    {
        for (size_t i = 0; i < n; ++i)
            free(argv[i]);
        free(argv);
        if (!why[0])
            snprintf(why, why_size, "out of memory");
        return NULL;
    }
    return (const char **)argv;
}

static void free_worker_argv(const char **argv)
{
    if (!argv)
        return;
    for (size_t i = 0; argv[i]; ++i)
        free((char *)argv[i]);
    free(argv);
}

/* Says why a selection holds no case to run (a usage error: a gate that
 * ran nothing must not look like one that passed). */
static void explain_empty_selection(size_t loaded, size_t load_errors, size_t matched, size_t selected,
                                    uint32_t shard_index, uint32_t shard_count, bool filtered)
{
    if (loaded == 0 && load_errors)
        fprintf(stderr, "dmlconf run: no case to run: the case files hold no valid case (%zu error%s above)\n",
                load_errors, load_errors == 1 ? "" : "s");
    else if (loaded == 0)
        fprintf(stderr, "dmlconf run: no case to run: the paths given hold no case file with a case in it\n");
    else if (matched == 0 && filtered)
        fprintf(stderr, "dmlconf run: no case to run: no id among the %zu cases loaded matches the filters\n", loaded);
    else if (selected == 0)
        fprintf(stderr, "dmlconf run: no case to run: shard %u of %u is empty (%zu cases before sharding)\n",
                shard_index, shard_count, matched);
    else
        fprintf(stderr,
                "dmlconf run: no case to run: the baseline's skips.txt skips every one of the %zu cases selected\n",
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

int command_run(int argc, char **argv)
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
        {"report-dir", required_argument, NULL, 'o'},
        {"seed", required_argument, NULL, 's'},
        {"timeout", required_argument, NULL, 'T'},
        {"no-rerun", no_argument, NULL, 'R'},
        {"no-repro", no_argument, NULL, 'P'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *backend_name = NULL, *adapter = NULL, *baseline_dir = NULL, *shard = NULL;
    dmlconf_feature_level level = DMLCONF_FEATURE_LEVEL_NONE;
    runner_filter filter = {0};
    long jobs = (long)dmlconf_cpu_count();
    uint64_t seed = 0, timeout = 120;
    bool rerun = true, repro = true, quiet = false;
    runner_backend_choice choice = {0};
    run_state state;
    memset(&state, 0, sizeof(state));
    state.report_dir = "dmlconf-results";
    int exit_code = EXIT_USAGE;

    optind = 1;
    int option;
    while ((option = getopt_long(argc, argv, "b:a:l:f:j:o:qh", options, NULL)) != -1)
    {
        uint64_t value;
        switch (option)
        {
        case 'b':
            backend_name = optarg;
            break;
        case 'a':
            adapter = optarg;
            break;
        case 'D':
            /* The workers inherit it. */
            if (dmlconf_set_environment("DMLCONF_DIRECTML_DLL", optarg))
                goto oom;
            break;
        case 'l':
            if (!dmlconf_feature_level_from_name(optarg, &level))
            {
                fprintf(stderr, "dmlconf run: '%s' is not a feature level (1_0 to 6_4)\n", optarg);
                goto done;
            }
            break;
        case 'f':
            if (runner_filter_add(&filter, optarg))
                goto oom;
            break;
        case 'S':
            shard = optarg;
            break;
        case 'j':
            if (parse_u64(optarg, &value) || value > 1024)
            {
                fprintf(stderr, "dmlconf run: --jobs takes 0 to 1024, not '%s'\n", optarg);
                goto done;
            }
            jobs = (long)value;
            break;
        case 'B':
            baseline_dir = optarg;
            break;
        case 'o':
            state.report_dir = optarg;
            break;
        case 's':
            if (parse_u64(optarg, &seed))
            {
                fprintf(stderr, "dmlconf run: --seed takes an unsigned 64-bit integer, not '%s'\n", optarg);
                goto done;
            }
            break;
        case 'T':
            if (parse_u64(optarg, &timeout) || timeout > 86400)
            {
                fprintf(stderr, "dmlconf run: --timeout takes 0 to 86400 seconds, not '%s'\n", optarg);
                goto done;
            }
            break;
        case 'R':
            rerun = false;
            break;
        case 'P':
            repro = false;
            break;
        case 'q':
            quiet = true;
            break;
        case 'h':
            fputs(run_usage, stdout);
            exit_code = EXIT_PASSED;
            goto done;
        default:
            fputs(run_usage, stderr);
            goto done;
        }
    }
    if (jobs < 0)
        jobs = 1;

    uint32_t shard_index = 0, shard_count = 1;
    const char *env_index = getenv("TEST_SHARD_INDEX"), *env_total = getenv("TEST_TOTAL_SHARDS");
    if (shard)
    {
        if (runner_parse_shard(shard, &shard_index, &shard_count))
        {
            fprintf(stderr, "dmlconf run: --shard takes I/N with 0 <= I < N, not '%s'\n", shard);
            goto done;
        }
    }
    else if (env_index && env_total)
    {
        char text[64];
        snprintf(text, sizeof(text), "%s/%s", env_index, env_total);
        if (runner_parse_shard(text, &shard_index, &shard_count))
        {
            fprintf(stderr, "dmlconf run: TEST_SHARD_INDEX=%s and TEST_TOTAL_SHARDS=%s do not name a shard\n",
                    env_index, env_total);
            goto done;
        }
        /* Tell the test launcher that sharding is understood (the GoogleTest
         * convention). */
        const char *status_file = getenv("TEST_SHARD_STATUS_FILE");
        if (status_file && *status_file)
        {
            FILE *touch = fopen(status_file, "a");
            if (touch)
                fclose(touch);
        }
    }

    const dmlconf_backend_ops *const *candidates;
    size_t candidate_count;
    const dmlconf_backend_ops *chosen = NULL;
    if (backend_name)
    {
        char why[1024];
        if (runner_backend_choose(backend_name, &choice, why, sizeof(why)))
        {
            fprintf(stderr, "dmlconf run: %s\n", why);
            goto done;
        }
        chosen = choice.ops;
        candidates = &chosen;
        candidate_count = 1;
    }
    else
    {
        candidates = dmlconf_backends(&candidate_count);
        /* An adapter belongs to one backend: no falling back to another
         * that does not have it (and would be blamed for it). */
        if (adapter)
            candidate_count = 1;
    }

    if (baseline_dir)
    {
        char why[512];
        if (runner_baseline_load(&state.baseline, baseline_dir, why, sizeof(why)))
        {
            fprintf(stderr, "dmlconf run: baseline: %s\n", why);
            goto done;
        }
        state.have_baseline = true;
    }

    /* The report folder is taken before anything runs: a folder that cannot
     * be written, or that another run is writing, stops this run now. */
    {
        char why[512];
        if (dmlconf_reports_open(state.report_dir, &state.reports, why, sizeof(why)))
        {
            fprintf(stderr, "dmlconf run: reports: %s\n", why);
            goto done;
        }
    }

    dmlconf_case_corpus corpus;
    size_t load_errors = runner_load_corpus(&corpus, argv + optind, (size_t)(argc - optind));
    if (runner_corpus_load_errors(&corpus, &state.load_errors))
    {
        dmlconf_case_corpus_free(&corpus);
        goto oom;
    }
    size_t all_count = 0;
    const dmlconf_case **all = runner_corpus_cases(&corpus, &all_count);
    const dmlconf_case **selected = malloc((all_count ? all_count : 1) * sizeof(*selected));
    uint32_t *selected_numbers = malloc((all_count ? all_count : 1) * sizeof(*selected_numbers));
    uint32_t *run_numbers = malloc((all_count ? all_count : 1) * sizeof(*run_numbers));
    if (!all || !selected || !selected_numbers || !run_numbers)
    {
        free(all);
        free(selected);
        free(selected_numbers);
        free(run_numbers);
        dmlconf_case_corpus_free(&corpus);
        goto oom;
    }
    size_t selected_count = 0, matched = 0;
    for (size_t i = 0; i < all_count; ++i)
    {
        if (!runner_filter_matches(&filter, all[i]->id))
            continue;
        if (matched++ % shard_count != shard_index)
            continue;
        selected_numbers[selected_count] = (uint32_t)i;
        selected[selected_count++] = all[i];
    }

    /* Cases the baseline skips are reported without running. */
    const dmlconf_case **to_run = malloc((selected_count ? selected_count : 1) * sizeof(*to_run));
    size_t run_count = 0;
    if (!to_run)
    {
        free(all);
        free(selected);
        free(selected_numbers);
        free(run_numbers);
        dmlconf_case_corpus_free(&corpus);
        goto oom;
    }
    for (size_t i = 0; i < selected_count; ++i)
    {
        if (!state.have_baseline || !runner_baseline_skips(&state.baseline, selected[i]->id))
        {
            run_numbers[run_count] = selected_numbers[i];
            to_run[run_count++] = selected[i];
        }
    }
    if (run_count == 0)
    {
        explain_empty_selection(all_count, load_errors, matched, selected_count, shard_index, shard_count,
                                filter.include_count || filter.exclude_count);
        exit_code = EXIT_USAGE;
        goto finish;
    }

    char digest[24];
    runner_corpus_digest(&corpus, &filter, digest, sizeof(digest));
    run_identity identity = {
        adapter, choice.plugin ? backend_name : NULL, shard_index, shard_count, digest, matched, selected_count};
    fill_run_info(&state, argc + 1, argv - 1, seed, &identity);
    state.seed = seed;
    state.total = selected_count;
    state.progress = !quiet && dmlconf_stream_is_terminal(stderr);

    runner_schedule schedule = {
        .backend_config = {.adapter = adapter, .feature_level = level, .arguments = choice.arguments},
        .config =
            {
                .level = level,
                .seed = seed,
                .rerun_failures = rerun,
                .shrink = repro,
                .repro_dir = NULL,
                .batch_elements = UINT64_C(1) << 22,
            },
        .jobs = (unsigned)jobs,
        .timeout_seconds = (double)timeout,
        .on_info = on_info,
        .on_finish = on_finish,
        .on_result = on_result,
        .context = &state,
    };
    char repro_dir[1024];
    snprintf(repro_dir, sizeof(repro_dir), "%s/repros", state.report_dir);
    if (repro)
        schedule.config.repro_dir = repro_dir;

    dmlconf_backend_info info;
    char why[512] = "";
    int scheduled = -1;
    for (size_t i = 0; i < candidate_count && scheduled != 0; ++i)
    {
        schedule.backend_ops = candidates[i];
        const char **worker_argv = NULL;
        if (spawn_workers() && jobs > 0)
        {
            worker_argv = make_worker_argv(&schedule, argv + optind, (size_t)(argc - optind), why, sizeof(why));
            if (!worker_argv)
                break;
            schedule.worker_argv = worker_argv;
            schedule.worker_case_numbers = run_numbers;
        }
        scheduled = runner_schedule_run(&schedule, to_run, run_count, &info, why, sizeof(why));
        free_worker_argv(worker_argv);
        schedule.worker_argv = NULL;
        if (scheduled && state.done == 0 && !backend_name && i + 1 < candidate_count && !quiet)
            fprintf(stderr, "dmlconf run: %s; trying the %s backend\n", why, candidates[i + 1]->name);
        if (scheduled && state.done > 0)
            break;
    }
    if (scheduled)
    {
        fprintf(stderr, "dmlconf run: %s\n", why);
        exit_code = EXIT_FAILED;
        /* Results already streamed still get their reports, which say the
         * run is incomplete. */
        if (dmlconf_reports_begun(state.reports))
            dmlconf_reports_finish(state.reports);
        goto finish;
    }
    /* Baseline skips, recorded after the run so the stream stays in order of
     * completion. */
    for (size_t i = 0; i < selected_count; ++i)
    {
        if (state.have_baseline && runner_baseline_skips(&state.baseline, selected[i]->id))
        {
            dmlconf_case_result skipped;
            runner_result_init(&skipped, selected[i], DMLCONF_STATUS_SKIP, "skipped by the baseline's skips.txt");
            record(&state, &skipped, NULL);
        }
    }
    if (state.progress)
        print_progress(&state, true);
    if (dmlconf_reports_begun(state.reports) && dmlconf_reports_finish(state.reports) && !state.report_error)
    {
        state.report_error = true;
        snprintf(state.report_why, sizeof(state.report_why), "%s", dmlconf_reports_error(state.reports));
    }

    bool failed = false;
    for (int s = 0; s < DMLCONF_STATUS_COUNT; ++s)
        failed |= state.counts[s] && dmlconf_status_is_failure((dmlconf_status)s);
    bool all_skipped = state.done > 0 && state.counts[DMLCONF_STATUS_SKIP] == state.done;
    if (!quiet)
    {
        bool color = dmlconf_stream_is_terminal(stdout) && !getenv("NO_COLOR");
        printf("dmlconf %s on %s: %s (%s), driver %s, runtime %s; target feature level %s\n", DMLCONF_VERSION,
               state.info.backend, state.info.adapter, state.info.software_adapter ? "software" : "hardware",
               state.info.driver, state.info.runtime, dmlconf_feature_level_name(state.info.target_level));
        printf("%zu case%s selected", selected_count, selected_count == 1 ? "" : "s");
        if (shard_count > 1)
            printf(" (shard %u of %u)", shard_index, shard_count);
        if (load_errors)
            printf("; %zu error%s in the case files (see above)", load_errors, load_errors == 1 ? "" : "s");
        printf("\n\n");
        dmlconf_matrix_print(stdout, dmlconf_reports_matrix(state.reports), color);
        size_t result_count = 0;
        const dmlconf_case_result *results = dmlconf_reports_results(state.reports, &result_count);
        print_failures(&state, results, result_count);
        printf("\nreports: %s/ (results.jsonl, summary.json, junit.xml, summary.md, report.html, failures.txt)\n",
               state.report_dir);
    }
    if (state.report_error)
        fprintf(stderr, "dmlconf run: reports: %s\n", state.report_why);
    if (all_skipped)
        fprintf(stderr,
                "dmlconf run: every one of the %zu cases selected was skipped (see the reasons in %s/): nothing "
                "was judged\n",
                state.done, state.report_dir);
    /* A run whose results do not cover it never passes. */
    dmlconf_run_verdict verdict;
    dmlconf_matrix_verdict(dmlconf_reports_matrix(state.reports), &verdict);
    failed |= verdict.status == DMLCONF_RUN_INCOMPLETE || verdict.status == DMLCONF_RUN_INTERRUPTED;
    exit_code = load_errors || all_skipped ? EXIT_USAGE : failed || state.report_error ? EXIT_FAILED : EXIT_PASSED;

finish:
    free(to_run);
    free(selected);
    free(selected_numbers);
    free(run_numbers);
    free(all);
    dmlconf_case_corpus_free(&corpus);
done:
    dmlconf_reports_close(state.reports);
    runner_backend_choice_release(&choice);
    dmlconf_load_error_list_free(&state.load_errors);
    runner_filter_free(&filter);
    if (state.have_baseline)
        runner_baseline_free(&state.baseline);
    return exit_code;

oom:
    fprintf(stderr, "dmlconf run: out of memory\n");
    exit_code = EXIT_FAILED;
    goto done;
}
