/*
 * Running an exploration (explore_run, dmlconf/explore.h): random differential testing against the oracle. Draws
 * random cases in rounds (explore_generate.c), runs each round on the
 * backend's workers through the scheduler and judges it as `dmlconf run`
 * does, groups failures by signature, shrinks each new one into a
 * reproducer, saves its state after every round (--resume), and ends with
 * the reports of `run` (one result per cell exercised and per finding), the
 * coverage table and the findings.
 *
 * Workers: forked on POSIX, where they see each round's cases in memory;
 * where workers are started as programs (Windows, DMLCONF_WORKERS=spawn)
 * each round is written as a case file that they load.
 */
#define _POSIX_C_SOURCE 200809L

#include "explore_backend.h"
#include "explore_internal.h"

#include <dmlconf/explore.h>

#include <dmlconf/clock.h>
#include <dmlconf/file_system.h>
#include <dmlconf/reports.h>
#include <dmlconf/status_line.h>
#include <dmlconf/system_info.h>
#include <dmlconf/text.h>
#include <dmlconf/threads.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef DMLCONF_VERSION
#define DMLCONF_VERSION "unknown"
#endif

#define STATE_FILE    "explore-state.json"
#define ROUND_FILE    "explore-round.yaml"
#define COVERAGE_TXT  "coverage.txt"
#define COVERAGE_CSV  "coverage.csv"
#define FINDINGS_MD   "findings.md"
#define CASE_FILE     "(explore)"
#define MAX_ROUND     32768u
#define FIRST_ROUND   256u
#define ROUND_SECONDS 1.0
/* The longest --replay draws the cases before the one it writes. */
#define REPLAY_MAX_SECONDS 3600.0
/* The most elements one round's cases hold together (their values stay in
 * memory while the round runs). */
#define ROUND_ELEMENTS (UINT64_C(1) << 25)
/* ... and when workers load them from a case file (about 10 bytes an
 * element there, against a limit of 256 MB). */
#define ROUND_FILE_ELEMENTS (UINT64_C(1) << 22)

/* One round of cases. */
typedef struct explore_round
{
    explore_spec *specs;
    dmlconf_case *cases;
    const dmlconf_case **pointers;
    size_t *cells; /* SIZE_MAX for an invalid desc */
    size_t count;
} explore_round;

typedef struct explore_context
{
    const explore_run_options *o;
    const dmlconf_backend_ops *ops;
    runner_backend_choice choice; /* the named backend, a plugin's library held */
    const char *const *arguments; /* the backend config's: a plugin's path or exec's command */
    explore_backend_probe probe;
    explore_generator generator;
    explore_coverage coverage;
    explore_findings findings;
    explore_findings round_findings;
    explore_round round;
    dmlconf_feature_level level;
    uint64_t next_index;     /* cases generated and judged in finished rounds */
    double previous_seconds; /* spent by the run this one resumes */
    double started;
    bool memory_error;
    char state_path[1024];
    char repro_dir[1024];
    char regenerate_prefix[1024];
    char regenerate_suffix[1024];       /* " -- COMMAND" for exec, else empty */
    const dmlconf_run_verdict *verdict; /* the reports' verdict, once they are written */
    dmlconf_report_set *reports;        /* the report folder, open */
    dmlconf_status_line line;           /* progress, on stderr */
    double rate;                        /* cases a second of the last round */
    size_t round_done;                  /* results of the round in flight */
} explore_context;

/* How fast the rounds went. */
typedef struct round_pace
{
    double rate;          /* cases per second of the last round */
    double previous_rate; /* of the round before it */
    size_t last;          /* cases of the last round */
    unsigned rounds;      /* rounds finished */
} round_pace;

static double elapsed(const explore_context *x)
{
    return x->previous_seconds + (dmlconf_clock_seconds() - x->started);
}

/* ---- the backend ------------------------------------------------------------------ */

/* Probes the backend the command line names ("plugin:PATH" loads the
 * plugin; exec takes the command after "--"). Returns 0, or -1 (said why). */
static int choose_named_backend(explore_context *x)
{
    const explore_run_options *o = x->o;
    char why[512] = "";
    if (runner_backend_choose(o->backend_name, &x->choice, why, sizeof(why)))
    {
        fprintf(stderr, "dmlconf explore: %s\n", why);
        return -1;
    }
    /* parse_options made sure that exec, and only exec, has a command. */
    x->arguments = x->choice.arguments ? x->choice.arguments : o->command;
    dmlconf_backend_config config = {.adapter = o->adapter, .feature_level = o->level, .arguments = x->arguments};
    if (explore_probe_backend(x->choice.ops, &config, &x->probe, why, sizeof(why)))
    {
        fprintf(stderr, "dmlconf explore: %s\n", why);
        return -1;
    }
    x->ops = x->choice.ops;
    return 0;
}

/* Probes the named backend, or the default one: no other stands in for a
 * backend that does not open. Returns 0, or -1 (said why). */
static int choose_backend(explore_context *x)
{
    const explore_run_options *o = x->o;
    if (o->backend_name)
        return choose_named_backend(x);
    const dmlconf_backend_ops *ops = runner_default_backend();
    if (!ops)
    {
        fprintf(stderr, "dmlconf explore: no --backend given, and this dmlconf was built without a GPU backend to "
                        "default to: name the implementation to explore, or --backend oracle\n");
        return -1;
    }
    dmlconf_backend_config config = {.adapter = o->adapter, .feature_level = o->level};
    char why[512] = "";
    if (explore_probe_backend(ops, &config, &x->probe, why, sizeof(why)))
    {
        fprintf(stderr, "dmlconf explore: the %s backend cannot be used: %s\n", ops->name, why);
        return -1;
    }
    x->ops = ops;
    return 0;
}

/* Sets up the generator and the coverage for the backend. Returns 0, or -1
 * (said why). */
static int set_up_generator(explore_context *x)
{
    const explore_run_options *o = x->o;
    x->level = o->level != DMLCONF_FEATURE_LEVEL_NONE ? o->level : x->probe.info.feature_level;
    if (x->level == DMLCONF_FEATURE_LEVEL_NONE)
        x->level = DMLCONF_FEATURE_LEVEL_6_4;
    explore_generator *g = &x->generator;
    g->options.seed = o->seed;
    g->options.level = x->level;
    g->options.max_elements = o->max_elements;
    g->options.negative_percent = o->negative_percent;
    g->capabilities = x->probe.info.capabilities;
    g->coverage = &x->coverage;
    /* Only the boundaries a tensor within the budget can reach. */
    g->boundaries.items = x->probe.boundaries;
    for (size_t i = 0; i < x->probe.boundary_count; ++i)
    {
        if (x->probe.boundaries[i].value <= o->max_elements + 1)
            x->probe.boundaries[g->boundaries.count++] = x->probe.boundaries[i];
    }
    if (explore_coverage_init(&x->coverage, x->level, &g->capabilities, &g->boundaries))
    {
        fprintf(stderr, "dmlconf explore: out of memory\n");
        return -1;
    }
    if (!x->coverage.allowed_count)
    {
        fprintf(stderr,
                "dmlconf explore: the %s backend can run no cell of the desc space at feature level %s (its data "
                "types, ranks and features)\n",
                x->probe.info.backend, dmlconf_feature_level_name(x->level));
        return -1;
    }
    snprintf(x->regenerate_prefix, sizeof(x->regenerate_prefix),
             "dmlconf explore --backend %s%s%s --seed %llu -l %s --max-elements %llu --negative-rate %u --replay",
             x->ops->name, o->adapter ? " --adapter " : "", o->adapter ? o->adapter : "", (unsigned long long)o->seed,
             dmlconf_feature_level_name(x->level), (unsigned long long)o->max_elements, o->negative_percent);
    size_t used = 0;
    for (size_t i = 0; o->command && o->command[i] && used < sizeof(x->regenerate_suffix); ++i)
        used += (size_t)snprintf(x->regenerate_suffix + used, sizeof(x->regenerate_suffix) - used, "%s %s",
                                 i ? "" : " --", o->command[i]);
    return 0;
}

/* The options a resumed run must share, as text. */
static void options_text(const explore_context *x, char *out, size_t size)
{
    snprintf(out, size, "backend %s, seed %llu, level %s, max elements %llu, negative rate %u%%", x->ops->name,
             (unsigned long long)x->o->seed, dmlconf_feature_level_name(x->level),
             (unsigned long long)x->o->max_elements, x->o->negative_percent);
}

/* ---- rounds -------------------------------------------------------------------------- */

static void free_round(explore_round *round)
{
    for (size_t i = 0; i < round->count; ++i)
    {
        explore_case_release(&round->cases[i]);
        explore_spec_free(&round->specs[i]);
    }
    free(round->specs);
    free(round->cases);
    free(round->pointers);
    free(round->cells);
    memset(round, 0, sizeof(*round));
}

/* Generates the next cases into the round: `count` of them, or fewer when
 * their elements reach ROUND_ELEMENTS. Returns 0, or -1 when memory runs
 * out. */
static int generate_round(explore_context *x, size_t count)
{
    uint64_t elements = 0;
    /* A round its workers load from a case file stays well within a case
     * file's size limit. */
    uint64_t most = runner_spawn_workers() && x->o->jobs > 0 ? ROUND_FILE_ELEMENTS : ROUND_ELEMENTS;
    explore_round *round = &x->round;
    free_round(round);
    round->specs = calloc(count, sizeof(*round->specs));
    round->cases = calloc(count, sizeof(*round->cases));
    round->pointers = calloc(count, sizeof(*round->pointers));
    round->cells = calloc(count, sizeof(*round->cells));
    if (!round->specs || !round->cases || !round->pointers || !round->cells)
        return -1;
    for (size_t i = 0; i < count; ++i)
    {
        explore_spec *spec = &round->specs[i];
        if (explore_generate(&x->generator, x->next_index + i, spec))
            return -1;
        round->count = i + 1;
        if (!explore_spec_cell(&x->generator, spec, &round->cells[i]))
            round->cells[i] = SIZE_MAX;
        char id[48];
        snprintf(id, sizeof(id), "explore.%llu", (unsigned long long)spec->index);
        if (explore_case_from_spec(spec, id, CASE_FILE, &round->cases[i]))
            return -1;
        round->pointers[i] = &round->cases[i];
        elements += spec->count;
        if (elements >= most)
            break;
    }
    return 0;
}

/* Where workers are started as programs: the round as a case file they
 * load, checked to load back whole. Returns the path (static storage of
 * the context), or NULL (said why). */
static const char *write_round_file(explore_context *x, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", x->o->report_dir, ROUND_FILE);
    FILE *out = fopen(path, "w");
    if (!out)
    {
        fprintf(stderr, "dmlconf explore: cannot write %s: %s\n", path, strerror(errno));
        return NULL;
    }
    fprintf(out, "# Round of `dmlconf explore` (cases %llu to %llu), for its workers.\ncases:\n",
            (unsigned long long)x->next_index, (unsigned long long)(x->next_index + x->round.count - 1));
    bool failed = false;
    dmlconf_buffer text = {0};
    for (size_t i = 0; i < x->round.count && !failed; ++i)
    {
        failed = explore_write_case(&text, &x->round.specs[i], x->round.cases[i].id, NULL) != 0 ||
                 fwrite(text.data, 1, text.length, out) != text.length;
        dmlconf_buffer_free(&text);
    }
    if (fclose(out) || failed)
    {
        fprintf(stderr, "dmlconf explore: cannot write %s\n", path);
        return NULL;
    }
    dmlconf_case_corpus corpus;
    char *paths[1] = {path};
    size_t errors = runner_load_corpus_quietly(&corpus, paths, 1);
    size_t loaded = corpus.case_count;
    dmlconf_case_corpus_free(&corpus);
    if (errors || loaded != x->round.count)
    {
        fprintf(stderr, "dmlconf explore: %s does not load back whole (%zu of %zu cases, %zu errors)\n", path, loaded,
                x->round.count, errors);
        return NULL;
    }
    return path;
}

static void on_result(void *context, size_t index, const dmlconf_case_result *result, const char *encoded)
{
    (void)encoded;
    explore_context *x = context;
    if (index >= x->round.count)
        return;
    x->round_done++;
    const explore_spec *spec = &x->round.specs[index];
    explore_coverage_record(&x->coverage, x->round.cells[index], spec->negative, spec->reason, result);
    if (dmlconf_status_is_failure(result->status) || result->status == DMLCONF_STATUS_FLAKE)
    {
        if (explore_findings_add(&x->round_findings, spec, result, elapsed(x)) < 0)
            x->memory_error = true;
    }
}

/* Runs the round on the backend's workers. Returns the scheduler's answer
 * (0, 1 when interrupted, -1 when the backend failed, said why). */
/* A backend call in this process (--jobs 0) that never returned: the
 * round in flight is lost, the state of the last finished round stays for
 * --resume, and junit.xml and summary.json say the run was interrupted
 * (where the folder holds no earlier exploration's reports). */
static void on_abandon(void *context, const char *reason)
{
    explore_context *x = context;
    if (x->reports)
        dmlconf_reports_write_unstarted(x->reports, "interrupted", "interrupted", reason, EXIT_INCOMPLETE);
}

static void on_tick(void *context, const runner_flight *flight);

static int run_round(explore_context *x)
{
    const explore_run_options *o = x->o;
    x->round_done = 0;
    runner_schedule schedule = {
        .backend_ops = x->ops,
        .backend_config = {.adapter = o->adapter, .feature_level = x->level, .arguments = x->arguments},
        .config =
            {
                .level = x->level,
                .rerun_failures = o->rerun,
                .shrink = false,
                .batch_elements = UINT64_C(1) << 22,
                .memory_limit = 0,
            },
        .jobs = o->jobs,
        .timeout_seconds = (double)o->timeout,
        .timeout_scales = !o->timeout_given,
        .on_result = on_result,
        .on_tick = on_tick,
        .on_abandon = on_abandon,
        .context = x,
        .interrupted = runner_interrupt_flag(),
        /* The time budget bounds a round too: a backend that hangs cannot
         * keep the run past it. */
        .deadline = o->seconds > 0.0 ? x->started + (o->seconds - x->previous_seconds) : 0.0,
    };
    const char **worker_argv = NULL;
    uint32_t *numbers = NULL;
    char why[512] = "";
    if (runner_spawn_workers() && o->jobs > 0)
    {
        char path[1024];
        char *round_path = (char *)write_round_file(x, path, sizeof(path));
        numbers = malloc(x->round.count * sizeof(*numbers));
        if (!round_path || !numbers)
        {
            free(numbers);
            return -1;
        }
        for (size_t i = 0; i < x->round.count; ++i)
            numbers[i] = (uint32_t)i;
        worker_argv = runner_worker_command(&schedule, &round_path, 1, why, sizeof(why));
        if (!worker_argv)
        {
            free(numbers);
            fprintf(stderr, "dmlconf explore: %s\n", why);
            return -1;
        }
        schedule.worker_argv = worker_argv;
        schedule.worker_case_numbers = numbers;
    }
    dmlconf_backend_info info;
    int scheduled = runner_schedule_run(&schedule, x->round.pointers, x->round.count, &info, why, sizeof(why));
    if (worker_argv)
    {
        /* The round file served its round. */
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", o->report_dir, ROUND_FILE);
        remove(path);
    }
    runner_free_worker_command(worker_argv);
    free(numbers);
    if (scheduled < 0)
        fprintf(stderr, "dmlconf explore: %s\n", why);
    return scheduled;
}

/* Findings whose first cases shrank to the same key have one cause: each
 * new one merges into the earliest finding with its key, and its
 * reproducer goes (the earliest's stays). `added` holds the new findings'
 * positions, in increasing order. */
static void merge_same_cause(explore_context *x, const size_t *added, size_t count)
{
    for (size_t k = count; k-- > 0;)
    {
        size_t from = added[k];
        explore_finding *f = &x->findings.items[from];
        if (!f->key[0])
            continue;
        size_t into = 0;
        while (into < from && strcmp(x->findings.items[into].key, f->key))
            ++into;
        if (into == from)
            continue;
        if (f->repro[0])
            remove(f->repro);
        explore_findings_absorb(&x->findings, into, from);
    }
}

/* Writes the reproducers of the findings at positions `added`. */
static void write_reproducers(explore_context *x, const size_t *added, size_t count)
{
    explore_repro_job job = {
        .ops = x->ops,
        .config = {.adapter = x->o->adapter, .feature_level = x->level, .arguments = x->arguments},
        .run_config = {.level = x->level, .batch_elements = UINT64_C(1) << 22},
        .boundaries = &x->generator.boundaries,
        .findings = &x->findings,
        .which = added,
        .count = (uint32_t)count,
        .repro_dir = x->repro_dir,
        .backend_name = x->ops->name,
        .regenerate_prefix = x->regenerate_prefix,
        .regenerate_suffix = x->regenerate_suffix,
        .shrink = x->o->shrink,
        .max_tries = 400,
        .max_seconds = x->o->shrink_seconds,
    };
    explore_write_repros(&job);
    /* The first cases' values are not needed any more. */
    for (size_t i = 0; i < count; ++i)
    {
        explore_spec *first = &x->findings.items[added[i]].first;
        free(first->values);
        first->values = NULL;
    }
    merge_same_cause(x, added, count);
}

static int save_state(explore_context *x)
{
    explore_state state = {0};
    state.fingerprint = explore_generator_fingerprint(&x->generator);
    options_text(x, state.options_text, sizeof(state.options_text));
    state.next_index = x->next_index;
    state.seconds = elapsed(x);
    state.coverage = &x->coverage;
    state.findings = &x->findings;
    char why[512];
    if (explore_state_save(x->state_path, &state, why, sizeof(why)))
    {
        fprintf(stderr, "dmlconf explore: %s\n", why);
        return -1;
    }
    return 0;
}

/* The number of cases the next round takes: about ROUND_SECONDS of work
 * at the rate seen; and, while growing rounds pays (a round starts its
 * workers and their backends afresh, which where it is slow, as DirectML
 * under Wine is, makes larger rounds faster per case), twice the last
 * round, else never fewer than it; within what the budget leaves. */
static size_t next_round_size(const explore_context *x, const round_pace *pace)
{
    double size = pace->rate > 0.0 ? pace->rate * ROUND_SECONDS : FIRST_ROUND;
    if (pace->last)
    {
        bool growing = pace->rounds < 2 || pace->rate > 1.1 * pace->previous_rate;
        double least = growing ? 2.0 * (double)pace->last : (double)pace->last;
        if (size < least)
            size = least;
    }
    if (x->o->seconds > 0.0)
    {
        double left = x->o->seconds - elapsed(x);
        if (pace->rate > 0.0 && pace->rate * left < size)
            size = pace->rate * left;
    }
    if (size < 16.0)
        size = 16.0;
    if (size > MAX_ROUND)
        size = MAX_ROUND;
    uint64_t count = (uint64_t)size;
    if (x->o->cases && x->o->cases - x->next_index < count)
        count = x->o->cases - x->next_index;
    return (size_t)count;
}

static bool budget_left(const explore_context *x)
{
    if (x->o->cases && x->next_index >= x->o->cases)
        return false;
    return !(x->o->seconds > 0.0 && elapsed(x) >= x->o->seconds);
}

/* Shows where the exploration stands when a line is due (`force`: now):
 * "[1m05s] 4130 cases (1092/s), 3914 of 24768 cells, 0 findings", and the
 * round in flight. */
static void show_progress(explore_context *x, bool in_round, bool force)
{
    double now = dmlconf_clock_seconds();
    if (!force && !dmlconf_status_line_due(&x->line, now))
        return;
    size_t exercised = 0;
    for (size_t k = 0; k < x->coverage.allowed_count; ++k)
        exercised += x->coverage.cells[x->coverage.allowed_list[k]].generated > 0;
    double seconds = elapsed(x);
    char text[320];
    dmlconf_text line = {text, sizeof(text), 0};
    unsigned long long whole = (unsigned long long)(seconds + 0.5);
    if (whole < 60)
        dmlconf_text_appendf(&line, "[%llus]", whole);
    else
        dmlconf_text_appendf(&line, "[%llum%02llus]", whole / 60, whole % 60);
    dmlconf_text_appendf(&line, " %llu cases (%.0f/s), %zu of %zu cells, %zu finding%s",
                         (unsigned long long)x->next_index, x->rate, exercised, x->coverage.allowed_count,
                         x->findings.count, x->findings.count == 1 ? "" : "s");
    if (in_round)
        dmlconf_text_appendf(&line, "; a round of %zu in flight, %zu done", x->round.count, x->round_done);
    dmlconf_status_line_show(&x->line, text, now);
}

/* The scheduler's tick during a round. */
static void on_tick(void *context, const runner_flight *flight)
{
    (void)flight;
    show_progress(context, true, false);
}

/* Runs rounds until the budget is spent (a round still running when the
 * time is up is stopped and dropped) or the run is stopped. Returns 0, 1
 * when interrupted, or -1 (said why). */
static int explore_loop(explore_context *x)
{
    round_pace pace = {0.0, 0.0, 0, 0};
    explore_tally *snapshot = malloc(EXPLORE_CELL_COUNT * sizeof(*snapshot));
    uint64_t(*negatives)[DMLCONF_STATUS_COUNT] = malloc(sizeof(x->coverage.negative_statuses));
    size_t *added = NULL;
    int result = -1;
    if (!snapshot || !negatives)
        goto done;
    const volatile sig_atomic_t *stop = runner_interrupt_flag();
    while (budget_left(x))
    {
        if (*stop)
        {
            result = 1;
            goto done;
        }
        size_t count = next_round_size(x, &pace);
        /* What the round changes is undone when it does not finish. */
        memcpy(snapshot, x->coverage.cells, EXPLORE_CELL_COUNT * sizeof(*snapshot));
        memcpy(negatives, x->coverage.negative_statuses, sizeof(x->coverage.negative_statuses));
        uint64_t generated[DMLCONF_REASON_COUNT];
        memcpy(generated, x->coverage.negative_generated, sizeof(generated));
        double started = dmlconf_clock_seconds();
        if (generate_round(x, count))
            goto done;
        int scheduled = run_round(x);
        if (scheduled != 0 || x->memory_error)
        {
            memcpy(x->coverage.cells, snapshot, EXPLORE_CELL_COUNT * sizeof(*snapshot));
            memcpy(x->coverage.negative_statuses, negatives, sizeof(x->coverage.negative_statuses));
            memcpy(x->coverage.negative_generated, generated, sizeof(generated));
            explore_findings_free(&x->round_findings);
            /* At the deadline the budget is spent: the round in flight is
             * dropped, as an interrupted one is, and the run ends. */
            result = x->memory_error ? -1 : scheduled == 2 ? 0 : scheduled;
            goto done;
        }
        count = x->round.count;
        double seconds = dmlconf_clock_seconds() - started;
        pace.previous_rate = pace.rate;
        pace.rate = seconds > 0.0 ? (double)count / seconds : 0.0;
        pace.last = count;
        pace.rounds++;
        x->next_index += count;
        free(added);
        added = malloc((x->round_findings.count ? x->round_findings.count : 1) * sizeof(*added));
        long fresh = added ? explore_findings_merge(&x->findings, &x->round_findings, added) : -1;
        if (fresh < 0)
            goto done;
        free_round(&x->round);
        if (fresh > 0)
            write_reproducers(x, added, (size_t)fresh);
        if (save_state(x))
            goto done;
        x->rate = pace.rate;
        show_progress(x, false, x->line.mode == DMLCONF_STATUS_LINE_TERMINAL);
    }
    result = 0;

done:
    dmlconf_status_line_end(&x->line);
    free_round(&x->round);
    free(added);
    free(snapshot);
    free(negatives);
    return result;
}

/* ---- resuming ------------------------------------------------------------------------- */

/* Reads the state of the run being resumed. Returns 0, or -1 (said why). */
static int resume_state(explore_context *x)
{
    explore_state state = {0};
    state.coverage = &x->coverage;
    state.findings = &x->findings;
    char why[512];
    if (explore_state_load(x->state_path, &state, why, sizeof(why)))
    {
        fprintf(stderr, "dmlconf explore: --resume: %s\n", why);
        return -1;
    }
    char mine[512];
    options_text(x, mine, sizeof(mine));
    if (state.fingerprint != explore_generator_fingerprint(&x->generator))
    {
        fprintf(stderr,
                "dmlconf explore: --resume: %s holds another run (%s); this one is %s (or its backend declares "
                "other capabilities or boundaries); give the same options, or start over without --resume\n",
                x->state_path, state.options_text, mine);
        return -1;
    }
    x->next_index = state.next_index;
    x->previous_seconds = state.seconds;
    return 0;
}

/* ---- the end: corpus, reports, console --------------------------------------------------- */

/* Counts, for each finding, the corpus's cases in its reproducer's cell. */
static void compare_with_corpus(explore_context *x)
{
    if (x->o->no_corpus || !x->findings.count)
        return;
    dmlconf_case_corpus corpus;
    runner_load_corpus_quietly(&corpus, x->o->corpus_paths, x->o->corpus_count);
    size_t count = 0;
    const dmlconf_case **cases = runner_corpus_cases(&corpus, &count);
    uint32_t *counts = calloc(EXPLORE_CELL_COUNT, sizeof(*counts));
    if (cases && counts && count)
    {
        explore_coverage_of_cases(cases, count, &x->generator.boundaries, counts);
        for (size_t i = 0; i < x->findings.count; ++i)
        {
            explore_finding *f = &x->findings.items[i];
            if (f->has_shrunk_cell)
                f->corpus_cases = counts[explore_cell_index(&f->shrunk_cell)];
        }
    }
    free(counts);
    free(cases);
    dmlconf_case_corpus_free(&corpus);
}

static dmlconf_status worst_status(const uint32_t *statuses)
{
    static const dmlconf_status order[] = {
        DMLCONF_STATUS_CRASH, DMLCONF_STATUS_TIMEOUT, DMLCONF_STATUS_ERROR,         DMLCONF_STATUS_FAIL,
        DMLCONF_STATUS_FLAKE, DMLCONF_STATUS_PASS,    DMLCONF_STATUS_EXPECTED_FAIL, DMLCONF_STATUS_NO_RESOURCES,
    };
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); ++i)
    {
        if (statuses[order[i]])
            return order[i];
    }
    return DMLCONF_STATUS_SKIP;
}

/* The result of one exercised cell. */
static void cell_result(size_t index, const explore_tally *t, dmlconf_case_result *r)
{
    explore_cell cell = explore_cell_at(index);
    memset(r, 0, sizeof(*r));
    explore_cell_name(&cell, r->id, sizeof(r->id));
    r->op = cell.product ? DMLCONF_OPERATOR_CUMULATIVE_PRODUCT : DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    r->data_type = explore_type_at(cell.type);
    r->dimension_count = cell.rank;
    r->min_feature_level = explore_cell_min_level(&cell);
    r->exclusive = cell.exclusive;
    r->decreasing = cell.decreasing;
    r->status = worst_status(t->statuses);
    r->attempts = 1;
    r->wall_seconds = t->wall_seconds;
    r->backend_seconds = t->backend_seconds > 0.0 ? t->backend_seconds : -1.0;
    uint64_t total = 0;
    for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
        total += t->statuses[s];
    size_t used = (size_t)snprintf(r->message, sizeof(r->message), "%llu random case%s:", (unsigned long long)total,
                                   total == 1 ? "" : "s");
    for (unsigned s = 0; s < DMLCONF_STATUS_COUNT && used < sizeof(r->message); ++s)
    {
        if (t->statuses[s])
            used += (size_t)snprintf(r->message + used, sizeof(r->message) - used, " %u %s", t->statuses[s],
                                     dmlconf_status_name((dmlconf_status)s));
    }
    if (r->status != DMLCONF_STATUS_PASS && r->status != DMLCONF_STATUS_SKIP && used < sizeof(r->message))
        snprintf(r->message + used, sizeof(r->message) - used, " (%s lists the findings)", FINDINGS_MD);
    if (r->status == DMLCONF_STATUS_SKIP)
    {
        /* Every case of the cell was declined when run: not covered, and
         * never counted as judged. */
        r->unsupported = true;
        snprintf(r->needs, sizeof(r->needs), "declined when run");
    }
}

/* The result of one finding. */
static void finding_result(const explore_finding *f, dmlconf_case_result *r)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->id, sizeof(r->id), "%s", f->repro_id[0] ? f->repro_id : f->signature);
    /* A reproducer's path fits (explore_backend.c keeps it within a case
     * file path's limit). */
    snprintf(r->file, sizeof(r->file), "%.*s", (int)sizeof(r->file) - 1, f->repro);
    const dmlconf_scan_desc *desc = &f->first.desc;
    r->op = desc->op;
    r->data_type = desc->input.data_type;
    r->dimension_count = desc->input.dimension_count;
    r->min_feature_level = f->first.negative ? DMLCONF_FEATURE_LEVEL_NONE : dmlconf_min_feature_level(desc, NULL);
    r->negative = f->first.negative;
    r->exclusive = desc->exclusive;
    r->decreasing = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING;
    r->status = f->status;
    r->comparison = f->first_comparison;
    r->attempts = 1;
    r->wall_seconds = r->backend_seconds = -1.0;
    snprintf(r->repro_path, sizeof(r->repro_path), "%.*s", (int)sizeof(r->repro_path) - 1, f->repro);
    snprintf(r->message, sizeof(r->message), "%llu random case%s hit it, the first at case %llu (%.1f s in): %.900s",
             (unsigned long long)f->count, f->count == 1 ? "" : "s", (unsigned long long)f->first_cases,
             f->first_seconds, f->first_message);
}

/* Fills what every report says about the run. */
static void fill_run_info(const explore_context *x, uint64_t planned, dmlconf_run_info *info)
{
    memset(info, 0, sizeof(*info));
    snprintf(info->dmlconf_version, sizeof(info->dmlconf_version), "%s", DMLCONF_VERSION);
    const dmlconf_backend_info *b = &x->probe.info;
    snprintf(info->backend, sizeof(info->backend), "%s", b->backend);
    snprintf(info->adapter, sizeof(info->adapter), "%s", b->adapter);
    snprintf(info->driver, sizeof(info->driver), "%s", b->driver);
    snprintf(info->runtime, sizeof(info->runtime), "%s", b->runtime);
    info->software_adapter = b->software;
    info->target_level = x->level;
    info->seed = x->o->seed;
    snprintf(info->adapter_requested, sizeof(info->adapter_requested), "%s", x->o->adapter ? x->o->adapter : "");
    info->shard_count = 1;
    snprintf(info->corpus_digest, sizeof(info->corpus_digest), "%016llx",
             (unsigned long long)explore_generator_fingerprint(&x->generator));
    info->corpus_cases = x->next_index;
    info->planned_cases = planned;
    snprintf(info->scope, sizeof(info->scope), "%s", "explore");
    snprintf(info->scope_detail, sizeof(info->scope_detail), "seed %llu, %llu random cases",
             (unsigned long long)x->o->seed, (unsigned long long)x->next_index);
    info->self_check = runner_backend_is_self_check(x->ops);
    size_t words = x->o->argc > 0 ? (size_t)x->o->argc + 1 : 1;
    const char **line = malloc(words * sizeof(*line));
    if (line)
    {
        line[0] = "dmlconf";
        for (size_t i = 1; i < words; ++i)
            line[i] = x->o->argv[i - 1];
        dmlconf_run_info_set_command_line(info, line, words);
        free(line);
    }
    else
        snprintf(info->command_line, sizeof(info->command_line), "dmlconf explore (out of memory for the rest)");
    if (x->o->command)
        dmlconf_run_info_set_backend_command(info, x->o->command);
    dmlconf_clock_format_utc(time(NULL), info->started_utc, sizeof(info->started_utc));
    dmlconf_host_name(info->host, sizeof(info->host));
    /* The knobs that change what a backend does. */
    static const char *const names[] = {
        "DMLCONF_D3D12_FAULT",      "DMLCONF_D3D12_KERNEL",   "DMLCONF_D3D12_CHUNK",    "DMLCONF_D3D12_TILE",
        "DMLCONF_D3D12_VIEW_WORDS", "DMLCONF_DIRECTML_DLL",   "DMLCONF_DIRECTML_FLAGS", "DMLCONF_DIRECTML_GRAPH",
        "DMLCONF_DIRECTML_BINDING", "DMLCONF_DIRECTML_FAULT", "DMLCONF_WORKERS"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i)
    {
        const char *value = getenv(names[i]);
        if (value && *value)
            dmlconf_run_info_add_environment(info, names[i], value);
    }
}

/* Writes the results (one per cell exercised, one per finding) and the
 * reports. Returns 0, or -1 (said why). */
static int write_reports(explore_context *x, dmlconf_report_set *reports, const char *interrupted_by, bool broke_off)
{
    size_t cells = 0;
    for (size_t k = 0; k < x->coverage.allowed_count; ++k)
    {
        const explore_tally *t = &x->coverage.cells[x->coverage.allowed_list[k]];
        uint64_t total = 0;
        for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
            total += t->statuses[s];
        cells += total > 0;
    }
    dmlconf_run_info info;
    fill_run_info(x, cells + x->findings.count, &info);
    dmlconf_case_result *r = malloc(sizeof(*r));
    int failed = !r || dmlconf_reports_begin(reports, &info, NULL);
    for (size_t k = 0; !failed && k < x->coverage.allowed_count; ++k)
    {
        size_t index = x->coverage.allowed_list[k];
        const explore_tally *t = &x->coverage.cells[index];
        if (worst_status(t->statuses) == DMLCONF_STATUS_SKIP && !t->statuses[DMLCONF_STATUS_SKIP])
            continue;
        cell_result(index, t, r);
        failed = dmlconf_reports_add(reports, r);
    }
    for (size_t i = 0; !failed && i < x->findings.count; ++i)
    {
        finding_result(&x->findings.items[i], r);
        failed = dmlconf_reports_add(reports, r);
    }
    free(r);
    if (!failed)
        failed = interrupted_by ? dmlconf_reports_finish_interrupted(reports, interrupted_by)
                 : broke_off    ? dmlconf_reports_finish_unended(reports)
                                : dmlconf_reports_finish(reports);
    if (failed)
    {
        fprintf(stderr, "dmlconf explore: reports: %s\n", dmlconf_reports_error(reports));
        return -1;
    }
    return 0;
}

/* How many of the cases hit each value, for the findings' tables. */
static void print_spread(FILE *out, const explore_finding *f)
{
    fprintf(out, "data types:");
    for (unsigned t = 0; t < EXPLORE_TYPE_COUNT; ++t)
    {
        if (f->by_type[t])
            fprintf(out, " %s %llu", dmlconf_data_type_name(explore_type_at(t)), (unsigned long long)f->by_type[t]);
    }
    fprintf(out, "; sum %llu, product %llu; layouts:", (unsigned long long)f->by_product[0],
            (unsigned long long)f->by_product[1]);
    for (unsigned l = 0; l < EXPLORE_LAYOUT_COUNT; ++l)
    {
        if (f->by_layout[l])
            fprintf(out, " %s %llu", explore_layout_name((explore_layout_class)l), (unsigned long long)f->by_layout[l]);
    }
    fprintf(out, "; ranks:");
    for (unsigned k = 1; k <= DMLCONF_MAX_DIMENSIONS; ++k)
    {
        if (f->by_rank[k])
            fprintf(out, " %u:%llu", k, (unsigned long long)f->by_rank[k]);
    }
    fprintf(out, "; exclusive %llu, decreasing %llu", (unsigned long long)f->by_exclusive[1],
            (unsigned long long)f->by_decreasing[1]);
}

/* The verdict's line, all that -q leaves on the console. */
static void print_verdict(FILE *out, const dmlconf_run_verdict *verdict)
{
    fprintf(out, "verdict: %s (%s); scope: %s\n", verdict->text, verdict->detail, verdict->scope_text);
}

/* The findings, for people (console and findings.md). */
static void print_findings(FILE *out, const explore_context *x, bool markdown)
{
    const explore_findings *findings = &x->findings;
    if (markdown)
        fprintf(out,
                "# Findings of dmlconf explore on the %s backend\n\n%s; %llu cases in %.1f s; seed %llu, "
                "feature level %s.\n\n",
                x->probe.info.backend, x->probe.info.adapter, (unsigned long long)x->next_index, elapsed(x),
                (unsigned long long)x->o->seed, dmlconf_feature_level_name(x->level));
    if (x->verdict)
    {
        fputs(markdown ? "" : "\n", out);
        print_verdict(out, x->verdict);
    }
    if (!findings->count)
    {
        const bool judged = x->verdict && (x->verdict->status == DMLCONF_RUN_PASSED ||
                                           x->verdict->status == DMLCONF_RUN_PARTLY_COVERED);
        fprintf(out, "%sno finding%s\n", markdown ? "\n" : "",
                judged ? ": every case judged passed" : ", but nothing can be said of the cases not judged");
        return;
    }
    fprintf(out, "%s%zu distinct finding%s:\n", markdown ? "" : "\n", findings->count, findings->count == 1 ? "" : "s");
    for (size_t i = 0; i < findings->count; ++i)
    {
        const explore_finding *f = &findings->items[i];
        char cell[128] = "";
        if (f->has_shrunk_cell)
            explore_cell_name(&f->shrunk_cell, cell, sizeof(cell));
        fprintf(out, "%s%s: %llu case%s; first at case %llu, %.1f s into the run\n", markdown ? "\n## " : "  ",
                f->signature, (unsigned long long)f->count, f->count == 1 ? "" : "s",
                (unsigned long long)f->first_cases, f->first_seconds);
        fprintf(out, "%s", markdown ? "\n- " : "    ");
        print_spread(out, f);
        fprintf(out, "\n%sfirst case said: %s\n", markdown ? "- " : "    ", f->first_message);
        fprintf(out, "%sreproducer: %s (%s)\n", markdown ? "- " : "    ", f->repro[0] ? f->repro : "none", f->summary);
        if (f->key[0])
            fprintf(out, "%sshrunk to: %s\n", markdown ? "- " : "    ", f->key);
        if (f->also[0])
            fprintf(out, "%salso seen as (the same shrunk case): %s\n", markdown ? "- " : "    ", f->also);
        if (f->corpus_cases >= 0)
            fprintf(out, "%sthe corpus has %lld case%s in the reproducer's cell (%s)\n", markdown ? "- " : "    ",
                    (long long)f->corpus_cases, f->corpus_cases == 1 ? "" : "s", cell);
    }
}

/* Writes a file with `write`. Returns 0, or -1 (said why). */
static int write_text_file(const explore_context *x, const char *name, void (*write)(FILE *, const explore_context *))
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", x->o->report_dir, name);
    FILE *out = fopen(path, "w");
    if (!out)
    {
        fprintf(stderr, "dmlconf explore: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    write(out, x);
    if (fclose(out))
    {
        fprintf(stderr, "dmlconf explore: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static void write_coverage_text(FILE *out, const explore_context *x)
{
    explore_coverage_print(out, &x->coverage);
}

static void write_coverage_csv(FILE *out, const explore_context *x)
{
    explore_coverage_write_csv(out, &x->coverage);
}

static void write_findings_markdown(FILE *out, const explore_context *x)
{
    print_findings(out, x, true);
}

/* ---- the command ------------------------------------------------------------------------ */

/* Writes case `index` of the sequence on standard output. */
static int replay(explore_context *x)
{
    uint64_t index = x->o->replay_index;
    explore_spec spec;
    double started = dmlconf_clock_seconds(), last_said = started;
    bool estimated = false;
    for (uint64_t i = 0; i <= index; ++i)
    {
        if (explore_generate(&x->generator, i, &spec))
        {
            fprintf(stderr, "dmlconf explore: out of memory\n");
            return EXIT_SETUP;
        }
        if (i < index)
            explore_spec_free(&spec);
        if ((i & 1023u) != 1023u)
            continue;
        /* Case i depends on every case before it: say how long that takes,
         * and refuse what would take more than an hour. */
        double now = dmlconf_clock_seconds();
        double rate = (double)(i + 1) / (now - started > 1e-9 ? now - started : 1e-9);
        double left = (double)(index - i) / rate;
        if (!estimated && now - started >= 0.5)
        {
            estimated = true;
            if (left > REPLAY_MAX_SECONDS)
            {
                fprintf(stderr,
                        "dmlconf explore: --replay %llu draws the %llu cases before it first, about %.1f hours at "
                        "this machine's %.0f cases/s (more than the %.0f allowed); a finding's reproducer holds its "
                        "case already\n",
                        (unsigned long long)index, (unsigned long long)index, left / 3600.0, rate,
                        REPLAY_MAX_SECONDS / 3600.0);
                return EXIT_SETUP;
            }
        }
        if (now - last_said >= 5.0)
        {
            last_said = now;
            fprintf(stderr, "dmlconf explore: --replay %llu: %llu cases drawn, about %.0f s left\n",
                    (unsigned long long)index, (unsigned long long)(i + 1), left);
        }
    }
    char id[48], notes[256];
    snprintf(id, sizeof(id), "explore.%llu", (unsigned long long)index);
    snprintf(notes, sizeof(notes), "case %llu of dmlconf explore's sequence for seed %llu on the %s backend",
             (unsigned long long)index, (unsigned long long)x->o->seed, x->ops->name);
    dmlconf_buffer text = {0};
    dmlconf_case_write_comment(&text, "Regenerated by: %s %llu", x->regenerate_prefix, (unsigned long long)index);
    dmlconf_buffer_printf(&text, "cases:\n");
    int failed = explore_write_case(&text, &spec, id, notes) ||
                 fwrite(text.data, 1, text.length, stdout) != text.length || fflush(stdout);
    dmlconf_buffer_free(&text);
    explore_spec_free(&spec);
    return failed ? EXIT_SETUP : EXIT_PASSED;
}

/* Opens (locks) the report folder and sets the paths in it: a folder that
 * holds an earlier exploration (its reports or its state) is refused unless
 * the run resumes it or may overwrite it, and nothing in it is removed
 * here. Returns 0, or the exit status. */
static int open_report_folder(explore_context *x, dmlconf_report_set **reports)
{
    const explore_run_options *o = x->o;
    char why[640];
    dmlconf_reports_mode mode = o->resume      ? DMLCONF_REPORTS_RESUME
                                : o->overwrite ? DMLCONF_REPORTS_OVERWRITE
                                               : DMLCONF_REPORTS_NEW;
    if (dmlconf_reports_open(o->report_dir, mode, reports, why, sizeof(why)))
    {
        fprintf(stderr, "dmlconf explore: reports: %s%s\n", why,
                mode == DMLCONF_REPORTS_NEW ? " (--overwrite replaces them; --resume goes on with the exploration)"
                                            : "");
        return EXIT_SETUP;
    }
    snprintf(x->state_path, sizeof(x->state_path), "%s/%s", o->report_dir, STATE_FILE);
    snprintf(x->repro_dir, sizeof(x->repro_dir), "%s/repros", o->report_dir);
    dmlconf_path_kind kind = DMLCONF_PATH_MISSING;
    if (mode == DMLCONF_REPORTS_NEW && dmlconf_path_examine(x->state_path, &kind, NULL, NULL, 0) == 0 &&
        kind != DMLCONF_PATH_MISSING)
    {
        fprintf(stderr,
                "dmlconf explore: reports: %s holds an earlier exploration (%s); give another folder, --resume to go "
                "on with it, or --overwrite to replace it\n",
                o->report_dir, STATE_FILE);
        return EXIT_SETUP;
    }
    return 0;
}

/* What explores, before it does (unless quiet), and the progress line
 * under it. */
static void print_header(explore_context *x)
{
    const explore_run_options *o = x->o;
    if (!o->quiet)
    {
        printf("dmlconf %s explore on %s: %s; feature level %s; seed %llu\n", DMLCONF_VERSION, x->probe.info.backend,
               x->probe.info.adapter, dmlconf_feature_level_name(x->level), (unsigned long long)o->seed);
        if (o->seconds > 0.0)
            printf("budget: %.0f s%s", o->seconds, o->cases ? ", " : "");
        else
            printf("budget: ");
        if (o->cases)
            printf("%llu cases", (unsigned long long)o->cases);
        printf("; reports: %s/\n", o->report_dir);
        fflush(stdout); /* before the progress on stderr */
    }
    dmlconf_status_line_start(&x->line, stderr, o->quiet, o->progress_interval, dmlconf_clock_seconds());
}

static void print_summary(const explore_context *x)
{
    printf("\n%llu cases in %.1f s (%.0f cases/s)\n", (unsigned long long)x->next_index, elapsed(x),
           elapsed(x) > 0.0 ? (double)x->next_index / elapsed(x) : 0.0);
    explore_coverage_print(stdout, &x->coverage);
    print_findings(stdout, x, false);
    printf("\nreports: %s/ (results.jsonl, summary.json, junit.xml, summary.md, report.html, %s, %s, %s, "
           "repros/)\n",
           x->o->report_dir, COVERAGE_TXT, COVERAGE_CSV, FINDINGS_MD);
}

static void free_context(explore_context *x)
{
    free_round(&x->round);
    explore_findings_free(&x->findings);
    explore_findings_free(&x->round_findings);
    explore_coverage_free(&x->coverage);
    explore_backend_probe_free(&x->probe);
    runner_backend_choice_release(&x->choice);
}

int explore_run(const explore_run_options *options)
{
    const explore_run_options o = *options;
    explore_context x;
    memset(&x, 0, sizeof(x));
    dmlconf_report_set *reports = NULL;
    x.o = &o;
    int exit_code = EXIT_SETUP;
    if (!o.replay && (exit_code = open_report_folder(&x, &reports)) != 0)
        goto done;
    x.reports = reports;
    exit_code = EXIT_SETUP;
    if (choose_backend(&x) || set_up_generator(&x))
        goto done;
    if (o.replay)
    {
        exit_code = replay(&x);
        goto done;
    }
    if (o.resume ? resume_state(&x) : save_state(&x))
        goto done; /* said why; nothing in the folder was touched */
    x.started = dmlconf_clock_seconds();
    print_header(&x);
    runner_interrupt_install();
    int looped = explore_loop(&x);
    runner_interrupt_restore();
    const char *signal_name = runner_interrupt_name();
    compare_with_corpus(&x);
    int reported = write_reports(&x, reports, signal_name, looped < 0);
    dmlconf_run_verdict verdict;
    dmlconf_matrix_verdict(dmlconf_reports_matrix(reports), &verdict);
    x.verdict = &verdict;
    reported |= write_text_file(&x, COVERAGE_TXT, write_coverage_text);
    reported |= write_text_file(&x, COVERAGE_CSV, write_coverage_csv);
    reported |= write_text_file(&x, FINDINGS_MD, write_findings_markdown);
    if (!o.quiet)
        print_summary(&x);
    else
        print_verdict(stdout, &verdict);
    if (signal_name)
        fprintf(stderr,
                "dmlconf explore: interrupted by %s after %llu cases; the round in flight is not counted, and "
                "`dmlconf explore --resume` with the same options goes on from there\n",
                signal_name, (unsigned long long)x.next_index);
    /* The exit status is the verdict's, as every report says it. */
    exit_code = verdict.exit_status;
    if (reported && exit_code < EXIT_INCOMPLETE)
        exit_code = EXIT_INCOMPLETE;

done:
    dmlconf_reports_close(reports);
    free_context(&x);
    return exit_code;
}
