/*
 * `dmlconf run`: run cases on a backend, judge them, stream the results and
 * write the reports.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "run_options.h"

#include <dmlconf/clock.h>
#include <dmlconf/comparator.h>
#include <dmlconf/exec_backend.h>
#include <dmlconf/integer_text.h>
#include <dmlconf/process.h>
#include <dmlconf/reports.h>
#include <dmlconf/status_line.h>
#include <dmlconf/system_info.h>
#include <dmlconf/text.h>
#include <dmlconf/threads.h>

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
    runner_progress progress; /* what is done, by status, and what runs */
    dmlconf_status_line line; /* where progress is shown (stderr) */
    bool quiet;
    double progress_interval;
    char header[768]; /* the header's lines after the backend's: what runs, where the reports go */
    uint64_t seed;
} run_state;

/* Shows where the run stands, when a line is due (`force`: now). */
static void show_progress(run_state *state, bool force)
{
    double now = dmlconf_clock_seconds();
    if (!force && !dmlconf_status_line_due(&state->line, now))
        return;
    char text[512];
    runner_progress_format(&state->progress, now, text, sizeof(text));
    dmlconf_status_line_show(&state->line, text, now);
}

/* Prints what runs, before any case does (unless quiet), and starts the
 * progress line under it. */
static void print_header(run_state *state)
{
    const dmlconf_run_info *info = &state->info;
    if (!state->quiet)
    {
        printf("dmlconf %s on %s: %s (%s), driver %s, runtime %s; target feature level %s\n%s\n", DMLCONF_VERSION,
               info->backend, info->adapter, info->software_adapter ? "software" : "hardware", info->driver,
               info->runtime, dmlconf_feature_level_name(info->target_level), state->header);
        /* Before the progress on stderr: a log that holds both keeps them
         * in order. */
        fflush(stdout);
    }
    dmlconf_status_line_start(&state->line, stderr, state->quiet, state->progress_interval, dmlconf_clock_seconds());
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
    print_header(state);
    if (dmlconf_reports_begin(state->reports, info, &state->load_errors) && !state->report_error)
    {
        state->report_error = true;
        snprintf(state->report_why, sizeof(state->report_why), "%s", dmlconf_reports_error(state->reports));
    }
    /* A resumed run's report holds what the earlier run finished, first. */
    for (size_t i = 0; state->previous && i < state->previous->results.count; ++i)
        record(state, &state->previous->results.items[i], NULL);
    state->progress.earlier = state->progress.done;
}

/* What runs now, from the scheduler: shown when a line is due. */
static void on_tick(void *context, const runner_flight *flight)
{
    run_state *state = context;
    state->progress.flight = *flight;
    show_progress(state, false);
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
    /* Shown at the scheduler's next tick, with what then runs. */
    runner_progress_count(&state->progress, result->status);
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
        snprintf(why, why_size, "no case to run: no id among the %zu cases loaded matches the filters and case lists",
                 loaded);
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
        .timeout_scales = !o->timeout_given,
        .on_info = on_info,
        .on_finish = on_finish,
        .on_result = on_result,
        .on_tick = on_tick,
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

/* Writes the header's lines after the backend's: the cases selected, the
 * time limit and where the reports go. */
static void describe_selection(const run_options *o, const run_selection *s, char *buf, size_t size)
{
    dmlconf_text text = {buf, size, 0};
    dmlconf_text_appendf(&text, "%zu case%s selected", s->selected_count, s->selected_count == 1 ? "" : "s");
    if (o->shard_count > 1)
        dmlconf_text_appendf(&text, " (shard %u of %u)", o->shard_index, o->shard_count);
    if (s->resumed)
        dmlconf_text_appendf(&text, "; %zu finished by the run resumed", s->resumed);
    if (s->load_errors)
        dmlconf_text_appendf(&text, "; %zu error%s in the case files (see above)", s->load_errors,
                             s->load_errors == 1 ? "" : "s");
    if (!o->timeout_given)
        dmlconf_text_appendf(
            &text, "; time limit: %g x a batch's elements x the seconds an element took so far, at least %llu s",
            RUNNER_TIMEOUT_FACTOR, (unsigned long long)o->timeout);
    else if (o->timeout)
        dmlconf_text_appendf(&text, "; time limit: %llu s", (unsigned long long)o->timeout);
    else
        dmlconf_text_appendf(&text, "; no time limit");
    dmlconf_text_appendf(&text, "\nreports: %s/", o->report_dir);
}

/* Prints the run's summary on the console, under its header and progress. */
static void print_summary(const run_options *o, const run_state *state)
{
    bool color = dmlconf_stream_is_terminal(stdout) && !getenv("NO_COLOR");
    printf("\n");
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
        dmlconf_reports_set_junit_max_bytes(state->reports, o->junit_max_bytes);
        return 0;
    }
    if (dmlconf_reports_open_resume(o->report_dir, previous, &state->reports, why, sizeof(why)))
    {
        fprintf(stderr, "dmlconf run: --resume: %s\n", why);
        return EXIT_SETUP;
    }
    dmlconf_reports_set_junit_max_bytes(state->reports, o->junit_max_bytes);
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
 * info: the whole reference corpus (every case of it selected), a subset of
 * it, or files of the user's own. */
static void describe_scope(const run_options *o, const run_selection *s, dmlconf_run_info *info)
{
    const runner_filter *filter = &o->filter;
    const bool filtered = runner_filter_selects(filter);
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
    {
        /* Filters and case lists that keep every case select the corpus;
         * any that leave one out, a subset, which never claims
         * conformance. */
        snprintf(info->scope, sizeof(info->scope), "%s", s->matched < s->all_count ? "subset" : "corpus");
    }
    if (filter->include_count || filter->exclude_count)
    {
        dmlconf_text_appendf(&detail, "%sfilter", detail.length ? "; " : "");
        for (size_t i = 0; i < filter->include_count; ++i)
            dmlconf_text_appendf(&detail, " '%s'", filter->include[i]);
        for (size_t i = 0; i < filter->exclude_count; ++i)
            dmlconf_text_appendf(&detail, " '!%s'", filter->exclude[i]);
    }
    if (o->caselist_count)
    {
        dmlconf_text_appendf(&detail, "%scase list%s", detail.length ? "; " : "", o->caselist_count == 1 ? "" : "s");
        for (size_t i = 0; i < o->caselist_count; ++i)
            dmlconf_text_appendf(&detail, " %s", strcmp(o->caselists[i], "-") ? o->caselists[i] : "(standard input)");
    }
    if (o->rerun_dir)
        dmlconf_text_appendf(&detail, "%sthe cases that did not pass in %s", detail.length ? "; " : "", o->rerun_dir);
    if (filtered || !reference)
        dmlconf_text_appendf(&detail, ": %zu of %zu cases loaded", s->matched, s->all_count);
    if (detail.length >= sizeof(info->scope_detail))
        memcpy(info->scope_detail + sizeof(info->scope_detail) - 4, "...", 4);
}

/* One `dmlconf run`, from its options to its exit status. */
typedef struct run_command
{
    run_options o;
    run_state state;
    run_selection s;
    dmlconf_results_file previous; /* --resume: the run in the folder */
    runner_backend_choice choice;
    const dmlconf_backend_ops *ops;
    runner_caselist caselist; /* --caselist, -f @FILE, --rerun-failures */
    size_t rerun_added;       /* the cases --rerun-failures listed */
    size_t stale;             /* the baseline's stale lines */
    int scheduled;            /* the scheduler's answer */
    const char *signal;       /* the signal that stopped the run, or NULL */
    char why[1024];
} run_command;

/* Chooses the backend, splits the operands for it and loads the baseline.
 * Returns 0, or the exit status (said why, and written into the reports). */
static int prepare_backend(run_command *r, char **argv, int argc)
{
    run_options *o = &r->o;
    r->ops = choose_backend(o, &r->choice, r->why, sizeof(r->why));
    if (!r->ops)
        return end_unstarted(&r->state, EXIT_SETUP, r->why);
    if (run_split_operands(argv, argc, o->separator, o->first_operand, r->ops, &o->operands))
        return end_unstarted(&r->state, EXIT_SETUP, "the command line's operands do not fit the backend (above)");
    o->paths = o->operands.paths;
    o->path_count = o->operands.path_count;
    /* The backend config's arguments: a plugin's path, or exec's command. */
    o->backend_arguments = r->choice.arguments ? r->choice.arguments : o->operands.command;
    if (o->operands.command && set_exec_timeout(o->timeout))
        return end_unstarted(&r->state, EXIT_SETUP, "out of memory");
    if (o->baseline_dir)
    {
        char reason[512];
        if (runner_baseline_load(&r->state.baseline, o->baseline_dir, reason, sizeof(reason)))
        {
            snprintf(r->why, sizeof(r->why), "baseline: %s", reason);
            return end_unstarted(&r->state, EXIT_SETUP, r->why);
        }
        r->state.have_baseline = true;
    }
    if (o->flakes_file)
    {
        char reason[512];
        if (runner_baseline_load_flakes(&r->state.baseline, o->flakes_file, reason, sizeof(reason)))
        {
            snprintf(r->why, sizeof(r->why), "--flakes: %s", reason);
            return end_unstarted(&r->state, EXIT_SETUP, r->why);
        }
        r->state.have_baseline = true;
    }
    return 0;
}

/* Reads the case lists the options name into r->caselist, for the filter.
 * Returns 0, or the exit status of a list that cannot be read (a setup
 * error, said why). */
static int read_caselists(run_command *r)
{
    run_options *o = &r->o;
    char reason[768];
    for (size_t i = 0; i < o->caselist_count; ++i)
    {
        if (runner_caselist_read(&r->caselist, o->caselists[i], reason, sizeof(reason)))
        {
            snprintf(r->why, sizeof(r->why), "case list: %s", reason);
            return end_unstarted(&r->state, EXIT_SETUP, r->why);
        }
    }
    if (o->rerun_dir &&
        runner_caselist_add_failures(&r->caselist, o->rerun_dir, &r->rerun_added, reason, sizeof(reason)))
    {
        snprintf(r->why, sizeof(r->why), "--rerun-failures: %s", reason);
        return end_unstarted(&r->state, EXIT_SETUP, r->why);
    }
    o->filter.caselist = &r->caselist;
    return 0;
}

/* Says which lines of the case lists name no case loaded, on the console
 * (even when quiet: a warning) and as errors in the reports: what a list
 * asked for did not run, so the run is incomplete. Returns 0, or -1 when
 * memory runs out. */
static int report_unlisted(run_command *r)
{
    runner_caselist *list = &r->caselist;
    if (!list->given || runner_caselist_mark(list, r->s.all, r->s.all_count) == 0)
        return 0;
    for (size_t i = 0; i < list->count; ++i)
    {
        const runner_caselist_entry *e = &list->entries[i];
        if (e->matched)
            continue;
        char message[512];
        if (e->line)
            snprintf(message, sizeof(message), "the case list names no case loaded: '%s'", e->text);
        else
            snprintf(message, sizeof(message), "case '%s' (%s in that run) is not among the cases loaded", e->text,
                     dmlconf_status_name(e->status));
        fprintf(stderr, "dmlconf run: %s", e->source);
        if (e->line)
            fprintf(stderr, ":%u", (unsigned)e->line);
        fprintf(stderr, ": warning: %s; the run will be incomplete\n", message);
        if (dmlconf_load_error_list_add(&r->state.load_errors, e->source, e->line, e->line ? 1 : 0, message))
            return -1;
    }
    return 0;
}

/* Loads the corpus and selects the cases to run. Returns 0, or the exit
 * status of a run with nothing to run (said why). */
static int prepare_cases(run_command *r)
{
    run_options *o = &r->o;
    run_selection *s = &r->s;
    int status = read_caselists(r);
    if (status)
        return status;
    if (select_cases(o, &r->state, s) || runner_corpus_load_errors(&s->corpus, &r->state.load_errors) ||
        report_unlisted(r))
        return end_unstarted(&r->state, EXIT_SETUP, "out of memory");
    if (s->run_count == 0 && !s->resumed && o->rerun_dir && !r->rerun_added && !o->caselist_count)
    {
        snprintf(r->why, sizeof(r->why),
                 "no case to run: every case of the run in %s/ passed or was skipped (--rerun-failures runs those "
                 "that did not)",
                 o->rerun_dir);
        return end_unstarted(&r->state, EXIT_INCOMPLETE, r->why);
    }
    if (s->run_count == 0 && !s->resumed)
    {
        explain_empty_selection(s->all_count, s->load_errors, s->matched, s->selected_count, o->shard_index,
                                o->shard_count, runner_filter_selects(&o->filter), r->why, sizeof(r->why));
        return end_unstarted(&r->state, EXIT_INCOMPLETE, r->why);
    }
    r->stale = report_stale_baseline(&r->state, s);
    return 0;
}

/* Describes the run in the run info (what it is, its scope, its baseline)
 * and, resuming, checks that it is the run the folder holds. Returns 0, or
 * the exit status. */
static int describe_run(run_command *r, int argc, char **argv)
{
    run_options *o = &r->o;
    run_state *state = &r->state;
    char digest[24];
    runner_corpus_digest(&r->s.corpus, &o->filter, digest, sizeof(digest));
    /* What a reproduce command must name beyond the backend's own name: a
     * plugin's path, or exec with its adapter's command. */
    const char *backend_requested = r->choice.plugin ? o->backend_name : o->operands.command ? "exec" : NULL;
    run_identity identity = {o->adapter, backend_requested, o->shard_index,     o->shard_count,
                             digest,     r->s.matched,      r->s.selected_count};
    fill_run_info(state, argc + 1, argv - 1, o->seed, &identity);
    describe_scope(o, &r->s, &state->info);
    state->info.self_check = runner_backend_is_self_check(r->ops);
    if (o->baseline_dir || o->flakes_file)
    {
        /* Known flakes are a baseline too: the run answers "no
         * regressions" beside its verdict. */
        dmlconf_text baseline = {state->info.baseline, sizeof(state->info.baseline), 0};
        if (o->baseline_dir)
            dmlconf_text_appendf(&baseline, "%s", o->baseline_dir);
        if (o->flakes_file)
            dmlconf_text_appendf(&baseline, "%sflakes %s", o->baseline_dir ? ", " : "", o->flakes_file);
        state->info.strict_baseline = o->strict_baseline;
        state->info.baseline_stale_lines = r->stale;
    }
    if (o->operands.command)
        dmlconf_run_info_set_backend_command(&state->info, o->operands.command);
    state->seed = o->seed;
    state->quiet = o->quiet;
    state->progress_interval = o->progress_interval;
    runner_progress_start(&state->progress, r->s.selected_count, dmlconf_clock_seconds());
    describe_selection(o, &r->s, state->header, sizeof(state->header));
    if (state->previous && check_resumed_run(o, state, r->ops))
        return EXIT_SETUP;
    return 0;
}

/* Runs the cases and finishes the reports with what ran. Returns 0, or the
 * exit status of a backend that did not open (said why). */
static int run_cases(run_command *r)
{
    run_state *state = &r->state;
    runner_interrupt_install();
    r->scheduled = run_on_backend(&r->o, state, &r->s, r->ops, r->why, sizeof(r->why));
    runner_interrupt_restore();
    r->signal = runner_interrupt_name();
    if (r->scheduled < 0 && !dmlconf_reports_begun(state->reports))
    {
        /* The backend, asked for or the default, did not open: no other
         * stands in for it (`why` names it). */
        return end_unstarted(state, EXIT_SETUP, r->why);
    }
    if (r->scheduled < 0)
        fprintf(stderr, "dmlconf run: %s\n", r->why);
    if (r->scheduled == 0)
    {
        /* Baseline skips, recorded after the run so the stream stays in
         * order of completion. */
        for (size_t i = 0; i < r->s.baseline_skipped_count; ++i)
        {
            dmlconf_case_result skipped;
            runner_result_init(&skipped, r->s.baseline_skipped[i], DMLCONF_STATUS_SKIP,
                               "skipped by the baseline's skips.txt");
            record(state, &skipped, NULL);
        }
    }
    /* The last state, and the line ended for what follows. */
    memset(&state->progress.flight, 0, sizeof(state->progress.flight));
    if (state->line.mode == DMLCONF_STATUS_LINE_TERMINAL && state->line.drawn)
        show_progress(state, true);
    dmlconf_status_line_end(&state->line);
    /* Results already streamed get their reports even when the run did not
     * finish: they say it is incomplete or interrupted. A run whose backend
     * stopped serving it (-1 after it began) has no completion record. */
    int finished = r->signal          ? dmlconf_reports_finish_interrupted(state->reports, r->signal)
                   : r->scheduled < 0 ? dmlconf_reports_finish_unended(state->reports)
                                      : dmlconf_reports_finish(state->reports);
    if (finished && !state->report_error)
    {
        state->report_error = true;
        snprintf(state->report_why, sizeof(state->report_why), "%s", dmlconf_reports_error(state->reports));
    }
    return 0;
}

/* Says how the run ended on the console and returns its exit status: the
 * verdict's, as every report says it. */
static int conclude(run_command *r)
{
    const run_options *o = &r->o;
    const run_state *state = &r->state;
    const runner_progress *progress = &state->progress;
    bool all_skipped = progress->done > 0 && progress->counts[DMLCONF_STATUS_SKIP] == progress->done;
    dmlconf_run_verdict verdict;
    dmlconf_matrix_verdict(dmlconf_reports_matrix(state->reports), &verdict);
    if (!o->quiet)
        print_summary(o, state);
    else
        dmlconf_verdict_print(stdout, &verdict, dmlconf_stream_is_terminal(stdout) && !getenv("NO_COLOR"));
    if (state->report_error)
        fprintf(stderr, "dmlconf run: reports: %s\n", state->report_why);
    if (r->signal)
        fprintf(stderr,
                "dmlconf run: interrupted by %s after %zu of %zu cases; the reports say so, and `dmlconf run "
                "--resume` with the same options goes on from there\n",
                r->signal, progress->done, progress->total);
    if (all_skipped)
        fprintf(stderr,
                "dmlconf run: every one of the %zu cases selected was skipped (see the reasons in %s/): nothing "
                "was judged\n",
                progress->done, o->report_dir);
    if (r->stale && o->strict_baseline)
        fprintf(stderr, "dmlconf run: --strict-baseline: the baseline has %zu stale line%s\n", r->stale,
                r->stale == 1 ? "" : "s");
    int exit_code = verdict.exit_status;
    if (state->report_error && exit_code < EXIT_INCOMPLETE)
        exit_code = EXIT_INCOMPLETE; /* the reports do not hold the whole run */
    return exit_code;
}

static void free_run_command(run_command *r)
{
    dmlconf_reports_close(r->state.reports);
    runner_backend_choice_release(&r->choice);
    dmlconf_results_file_free(&r->previous);
    free_selection(&r->s);
    dmlconf_load_error_list_free(&r->state.load_errors);
    runner_filter_free(&r->o.filter);
    runner_caselist_free(&r->caselist);
    free(r->o.caselists);
    free(r->o.operands.combined);
    if (r->state.have_baseline)
        runner_baseline_free(&r->state.baseline);
    free(r);
}

int command_run(int argc, char **argv)
{
    run_command *r = calloc(1, sizeof(*r));
    if (!r)
    {
        fprintf(stderr, "dmlconf run: out of memory\n");
        return EXIT_SETUP;
    }
    int exit_code = run_parse_options(argc, argv, &r->o);
    r->state.report_dir = r->o.report_dir;
    /* The folder first: every later reason not to start is written there;
     * then the backend and the cases, what the run is, and the run. */
    if (exit_code < 0 && (exit_code = open_reports(&r->o, &r->state, &r->previous)) == 0 &&
        (exit_code = prepare_backend(r, argv, argc)) == 0 && (exit_code = prepare_cases(r)) == 0 &&
        (exit_code = describe_run(r, argc, argv)) == 0 && (exit_code = run_cases(r)) == 0)
        exit_code = conclude(r);
    free_run_command(r);
    return exit_code;
}
