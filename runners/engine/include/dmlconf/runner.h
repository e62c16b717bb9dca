/*
 * The run engine: the backends compiled in and the one a command line
 * names, executing cases on a backend, scheduling them over worker
 * processes, filters, shards, baselines, shrinking, and stopping a run. The
 * one public header of runners/engine, used by explore and the CLI above it
 * (and by the benchmarks).
 */
#ifndef DMLCONF_RUNNER_H
#define DMLCONF_RUNNER_H

#include <dmlconf/backend.h>
#include <dmlconf/canary.h>
#include <dmlconf/case.h>
#include <dmlconf/reports.h>
#include <dmlconf/result.h>

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- the backends compiled in (backend_registry.c) -------------------------- */

/* Every backend compiled in, best first (the default is the first that
 * opens). *count receives how many. */
const dmlconf_backend_ops *const *dmlconf_backends(size_t *count);

/* The backend a run takes when none is named: dmlconf's own kernels on the
 * D3D12 device (an implementation under test: the GPU's driver stack), or
 * NULL when this dmlconf was built without them. Never the oracle: when
 * the default cannot open, that is a setup error, not a self-check in its
 * place. */
const dmlconf_backend_ops *runner_default_backend(void);

/* Whether running on `ops` judges the oracle against itself (the
 * self-check), which is never an implementation under test. */
bool runner_backend_is_self_check(const dmlconf_backend_ops *ops);

/* The backend called `name`, or NULL. */
const dmlconf_backend_ops *dmlconf_backend_find(const char *name);

/* Whether the devices of a backend compiled in are opened one at a time
 * by their drivers, so that its workers had better open them in turn (the
 * d3d12 backend: two workers opening an H100 at once both took 0.3-0.48 s,
 * one alone 0.17-0.25 s). False for plugins and programs, whose opens
 * (loading a framework, say) go faster side by side. */
bool runner_backend_opens_one_at_a_time(const dmlconf_backend_ops *ops);

/* A backend as the command line names it: one compiled in, or a native
 * plugin ("plugin:PATH") loaded for it. */
typedef struct runner_backend_choice
{
    const dmlconf_backend_ops *ops;
    /* What the backend config's `arguments` must be: the plugin's path
     * (NULL-terminated); NULL for a backend compiled in. */
    const char *const *arguments;
    struct dmlconf_plugin *plugin; /* owned; NULL for a backend compiled in */
} runner_backend_choice;

/* Finds the backend `name` names: "oracle", "d3d12", ... or "plugin:PATH",
 * which loads the plugin (dmlconf_plugin_load). Returns 0 with *choice set
 * (release it with runner_backend_choice_release), or -1 with one sentence
 * in `why`: "no backend 'x'; this dmlconf has ...", or why the plugin cannot
 * be used. */
int runner_backend_choose(const char *name, runner_backend_choice *choice, char *why, size_t why_size);
/* Unloads the plugin of a choice, if any, and zeroes it. */
void runner_backend_choice_release(runner_backend_choice *choice);

/* ---- executing cases (execute.c) ------------------------------------------ */

/* How cases are executed and judged. */
typedef struct runner_config
{
    dmlconf_feature_level level; /* the target feature level (NONE: the backend's own) */
    uint64_t seed;               /* mixed into generator seeds; 0 keeps the corpus' data */
    bool rerun_failures;         /* rerun a failing case once to tell a flake */
    bool shrink;                 /* shrink failures into minimal reproducers */
    const char *repro_dir;       /* where reproducers go (NULL: none written) */
    uint64_t batch_elements;     /* most elements executed in one backend call */
    uint64_t memory_limit;       /* bytes one case's buffers may take; 0: no limit */
    unsigned host_threads;       /* a batch's cases prepared and judged at once (0, 1: one at a time) */
} runner_config;

/* An open backend and what it said about itself. */
typedef struct runner_backend
{
    dmlconf_backend *backend;
    dmlconf_backend_info info;
} runner_backend;

/* Executes `count` cases on the backend (in batches of at most
 * config->batch_elements elements) and fills results[i] for cases[i]. Never
 * fails as a whole: every problem becomes a case's status and message. */
void runner_execute(runner_backend *backend, const runner_config *config, const dmlconf_case *const *cases,
                    size_t count, dmlconf_case_result *results);

/* True when the backend's declared capabilities exclude the case, with
 * what the case needs that the backend lacks in `needs` (a short noun
 * phrase the reports group cases by: "INT64", "validation", "strided
 * tensors", "4-dimensional tensors") and a sentence in `why` ("the
 * exec:numpy backend does not support in-place execution"). Negative cases
 * need validation (DMLCONF_CAN_VALIDATE). */
bool runner_case_unsupported(const dmlconf_backend_info *info, const dmlconf_case *c, char *needs, size_t needs_size,
                             char *why, size_t why_size);

/* The feature level a run targets: `asked` (--feature-level) when given,
 * else the backend's highest, else (a backend that claims none) the highest
 * level dmlconf knows. */
dmlconf_feature_level runner_target_level(dmlconf_feature_level asked, const dmlconf_backend_info *info);

/* ---- independent calls on a few threads (crew.c) -------------------------- */

/* Calls body(context, i) once for every i from 0 to count - 1, on up to
 * `threads` threads (this one included), each taking the next index when
 * it is done with one; returns when every call has returned. The calls must
 * be independent. When threads cannot be started (or `threads` is 0 or 1),
 * the threads there are take every index: none is ever skipped. */
void runner_for_each(size_t count, unsigned threads, void (*body)(void *context, size_t index), void *context);

/* Fills the identity part of a result (id, file, op, type, levels) and sets
 * the status and message. */
void runner_result_init(dmlconf_case_result *result, const dmlconf_case *c, dmlconf_status status, const char *message);

/* Reads the whole logical input of a case into a new buffer (freed by the
 * caller), applying the run's seed to generated data. Returns NULL with why
 * set on failure. */
void *runner_read_input(const dmlconf_case *c, uint64_t seed, char *why, size_t why_size);

/* Lays out packed logical elements into a buffer by `desc`'s strides. */
void runner_scatter(const dmlconf_tensor_desc *desc, const void *logical, void *buffer);

/* Bytes a buffer needs for the tensor: max(total size, minimum size). */
uint64_t runner_buffer_bytes(const dmlconf_tensor_desc *desc);

/* The comparator's tolerance for a case (dmlconf_case_judging_tolerance):
 * the output type's defaults, the case's overrides, and bit-exactness for an
 * exact backend unless the case gives expected values with a tolerance. */
struct dmlconf_tolerance;
void runner_case_tolerance(const dmlconf_case *c, bool exact, struct dmlconf_tolerance *tol);

/* Shrinks a failing case into the smallest case that still fails the same
 * way (`failure`) on the backend, each candidate run and judged as a run
 * runs a case, and writes it as a standalone YAML file into
 * config->repro_dir (shrink.c). `input` is the case's logical input.
 * Returns 0 and the path in `path`, or -1 with why set. */
int runner_shrink(runner_backend *backend, const runner_config *config, const dmlconf_case *c, const void *input,
                  dmlconf_failure failure, char *path, size_t path_size, char *why, size_t why_size);

/* ---- filters and shards (filter.c) ---------------------------------------- */

/* Include and exclude globs on case ids ("!" or "-" before a glob excludes). */
typedef struct runner_filter
{
    const char **include;
    size_t include_count, include_capacity;
    const char **exclude;
    size_t exclude_count, exclude_capacity;
} runner_filter;

/* Adds one --filter argument. Returns 0, or -1 when memory runs out. */
int runner_filter_add(runner_filter *filter, const char *pattern);
/* True when the id passes: it matches an include glob (or there are none) and
 * no exclude glob. */
bool runner_filter_matches(const runner_filter *filter, const char *id);
void runner_filter_free(runner_filter *filter);

/* Parses "I/N" (0 <= I < N). Returns 0, or -1 when malformed. */
int runner_parse_shard(const char *text, uint32_t *index, uint32_t *count);

/* ---- baselines (baseline.c) ----------------------------------------------- */

/* A baseline folder, as deqp-runner has it:
 *   failures.txt  known failures, one "id,status" per line (as a run's
 *                 failures.txt writes them; "id, status" and a bare id
 *                 too); '#' starts a comment
 *   flakes.txt    globs of ids known to be flaky, one per line
 *   skips.txt     globs of ids not to run, one per line
 * Missing files are empty; a missing folder is an error. */
typedef struct runner_baseline_entry
{
    char *text;            /* the id (failures.txt) or the glob */
    uint32_t line;         /* its line in its file */
    dmlconf_status status; /* failures.txt: the status it is known to have */
} runner_baseline_entry;

typedef struct runner_baseline_list
{
    char *path; /* dir/failures.txt, ... */
    runner_baseline_entry *entries;
    size_t count;
    size_t capacity;
} runner_baseline_list;

typedef struct runner_baseline
{
    runner_baseline_list failures; /* sorted by id */
    runner_baseline_list flakes;
    runner_baseline_list skips;
} runner_baseline;

/* Loads a baseline folder. Returns 0, or -1 with why set for a folder that
 * does not exist, an unreadable file or a malformed line
 * ("path:line: ..."). */
int runner_baseline_load(runner_baseline *baseline, const char *dir, char *why, size_t why_size);
bool runner_baseline_skips(const runner_baseline *baseline, const char *id);
/* Rewrites a result's status by the baseline: a listed failure that ends in
 * the very status its line records is expected-fail (known_status that
 * status); one that fails otherwise keeps its status (a regression) and
 * says what the baseline expected; one that passes is unexpected-pass; a
 * flaky id that failed every attempt is expected-fail with known_status
 * flake, its message saying so. */
void runner_baseline_apply(const runner_baseline *baseline, dmlconf_case_result *result);
/* The baseline's stale lines: failures.txt ids that name none of `cases`
 * and flakes.txt or skips.txt globs that match none of them, as
 * "path:line: text" strings in a new array (*lines, *stale of them; free
 * each and the array). Returns 0, or -1 when memory runs out. */
int runner_baseline_stale(const runner_baseline *baseline, const dmlconf_case *const *cases, size_t count,
                          char ***lines, size_t *stale);
void runner_baseline_free(runner_baseline *baseline);

/* ---- scheduling (scheduler.c) --------------------------------------------- */

/* Called where a case ran (a worker process, or this one) as soon as its
 * result is known: may rewrite the result (a baseline's statuses) and
 * returns its encoded form for the reports (a string the scheduler frees, or
 * NULL). Doing this in the workers spreads the encoding over them; a worker
 * calls it for a batch's results on several threads at once (one result
 * each), so it must only read what it shares. */
typedef char *(*runner_finish_callback)(void *context, dmlconf_case_result *result);

/* Called in the main process for each finished case, in completion order,
 * with what the finish callback returned (NULL without one). */
typedef void (*runner_result_callback)(void *context, size_t case_index, const dmlconf_case_result *result,
                                       const char *encoded);

/* Called in the main process once the backend has opened, before any
 * result, with its description and the target level in force. */
typedef void (*runner_info_callback)(void *context, const dmlconf_backend_info *info, dmlconf_feature_level level);

typedef struct runner_schedule
{
    const dmlconf_backend_ops *backend_ops;
    dmlconf_backend_config backend_config;
    runner_config config;
    unsigned jobs; /* worker processes; 0 runs in this process */
    /* At most this many workers once the first one reports a hardware
     * adapter (info.software false): each opens its own device, and a
     * GPU's driver opens devices one at a time, so more workers only wait
     * longer. 0: always `jobs`. */
    unsigned hardware_jobs;
    /* Start one worker, and each next one once none is opening its backend
     * (on a CPU implementation, all the others at its hello): for a backend
     * whose driver opens devices one at a time, so that the first starts
     * its cases as soon as it can (runner_backend_opens_one_at_a_time). */
    bool open_one_at_a_time;
    double timeout_seconds; /* per batch: a case above 2^20 elements runs alone and has
                             * it whole; a batch of smaller cases must finish within it
                             * too; 0: none */
    runner_info_callback on_info;
    runner_finish_callback on_finish; /* may be NULL */
    runner_result_callback on_result;
    void *context;
    /* Set (by a signal handler) to stop the run: workers are stopped at
     * once and the results so far stand. NULL: never. */
    const volatile sig_atomic_t *interrupted;
    /* With jobs 0 (the backend in this process, which no one can stop), a
     * watchdog thread calls this when a batch's backend call has not
     * returned within timeout_seconds, or two seconds after the run was
     * interrupted: the callee writes what it can (the reports, saying the
     * run was interrupted by `reason`), from that thread, while the stuck
     * call holds the run's own; then the process ends with exit status
     * EXIT_INCOMPLETE. NULL: it only says why, and ends. */
    void (*on_abandon)(void *context, const char *reason);
    /* When (dmlconf_clock_seconds) the run stops, its workers stopped at
     * once whatever they are doing, the results so far standing: a time
     * budget that a hanging backend cannot stretch. 0: none. */
    double deadline;
    /* Workers started as programs rather than forked (Windows; and on
     * POSIX when asked): the command that starts one (NULL-terminated; a
     * `dmlconf __worker` command line, see cmd_worker.c), and for each
     * case the number the worker knows it by (its position among the
     * valid cases of the case files the worker loads). NULL: fork. A
     * started worker runs on_finish itself only if it can; otherwise this
     * process does. */
    const char *const *worker_argv;
    const uint32_t *worker_case_numbers;
} runner_schedule;

/* Runs `count` cases on worker processes (each opens its own backend), with
 * crash and timeout isolation: a case whose worker dies is reported as
 * crash, one that runs too long as timeout, and the worker is restarted for
 * the remaining cases. `info` receives the backend's description. Returns
 * 0, 2 when it stopped at its deadline, 1 when the run was interrupted
 * (in both, the results delivered so far are all
 * there is), or -1 with why set when the backend cannot be opened at all. */
int runner_schedule_run(const runner_schedule *schedule, const dmlconf_case *const *cases, size_t count,
                        dmlconf_backend_info *info, char *why, size_t why_size);

/* What a worker process serves: a backend and the cases it may be sent. */
typedef struct runner_worker
{
    const dmlconf_backend_ops *backend_ops;
    dmlconf_backend_config backend_config;
    runner_config config;
    const dmlconf_case *const *cases;
    size_t case_count;
    runner_finish_callback on_finish; /* NULL: results go back unfinished */
    void *context;
} runner_worker;

/* Whether workers are started as programs (`dmlconf __worker`) rather than
 * forked: always on Windows; on POSIX when DMLCONF_WORKERS=spawn (which
 * tests the Windows way on Linux). */
bool runner_spawn_workers(void);

/* The `dmlconf __worker` command line (cmd_worker.c) that starts a worker
 * for `schedule` over the case files `paths` (none: the default corpus).
 * Returns a NULL-terminated argv to free with runner_free_worker_command,
 * or NULL with why set (this program's path unknown, out of memory). */
const char **runner_worker_command(const runner_schedule *schedule, char *const *paths, size_t path_count, char *why,
                                   size_t why_size);
void runner_free_worker_command(const char **argv);

/* The worker's side of the scheduler's protocol over two descriptors:
 * opens the backend, says hello, then runs each batch of case numbers it
 * reads until told to stop or its input ends. Returns the process's exit
 * status (0 when it stopped as told). */
int runner_worker_serve(const runner_worker *worker, int in_fd, int out_fd);

/* ---- stopping a run (interrupt.c) ------------------------------------------- */

/* Catches SIGINT and SIGTERM (Ctrl-C, Ctrl-Break and closing the console on
 * Windows): the first sets the flag runner_interrupt_flag points to, the
 * second of a kind ends the process. */
void runner_interrupt_install(void);
/* Puts the default actions back. */
void runner_interrupt_restore(void);
/* The flag: 0 until a signal came, then its number. */
const volatile sig_atomic_t *runner_interrupt_flag(void);
/* "SIGINT", "SIGTERM", or NULL when none came. */
const char *runner_interrupt_name(void);

/* ---- the corpus (run_corpus.c) -------------------------------------------------- */

/* Loads the case files under `paths` (files or folders), or the default
 * corpus when path_count is 0: $DMLCONF_CASES if set, else the doc,
 * conformance, edge, negative and explore folders of the corpus this dmlconf was
 * built with (its source tree's, or the installed copy). Prints every diagnostic to stderr. Returns the number of
 * errors; `corpus` must be freed with dmlconf_case_corpus_free. */
size_t runner_load_corpus(dmlconf_case_corpus *corpus, char *const *paths, size_t path_count);

/* The same, printing nothing (a worker loading what the main process has
 * already loaded and reported). */
size_t runner_load_corpus_quietly(dmlconf_case_corpus *corpus, char *const *paths, size_t path_count);

/* Every valid case of the corpus in load order, as a new array (freed by the
 * caller) of `*count` pointers into the corpus; NULL when memory runs out. */
const dmlconf_case **runner_corpus_cases(const dmlconf_case_corpus *corpus, size_t *count);

/* A digest (16 hex digits) of the cases the filter selects, before any
 * sharding: their ids and the contents of their files. Shards of one run
 * have the same; merge refuses shards whose digests differ. */
void runner_corpus_digest(const dmlconf_case_corpus *corpus, const runner_filter *filter, char *out, size_t size);

/* The digest (runner_corpus_digest, no filter) of the reference corpus: the
 * default corpus this dmlconf was built with (its source tree's, or the
 * installed copy), whatever $DMLCONF_CASES says. A run whose selection has
 * this digest, unfiltered and unsharded, ran the whole corpus. Writes ""
 * when the reference corpus cannot be found or loads with errors. */
void runner_reference_corpus_digest(char *out, size_t size);

/* Appends the corpus's errors (not its notes) to `errors`, for the reports.
 * Returns 0, or -1 when memory runs out. */
int runner_corpus_load_errors(const dmlconf_case_corpus *corpus, dmlconf_load_error_list *errors);

/* Exit statuses of every subcommand: the table at the top of
 * dmlconf/verdict.h (run, merge and explore take theirs from the verdict).
 * A usage error is a setup error: the command could not start. */
enum
{
    EXIT_PASSED = DMLCONF_EXIT_PASSED,
    EXIT_FAILED = DMLCONF_EXIT_FAILED,
    EXIT_INCOMPLETE = DMLCONF_EXIT_INCOMPLETE,
    EXIT_SETUP = DMLCONF_EXIT_SETUP,
    EXIT_USAGE = DMLCONF_EXIT_SETUP,
    /* validate, list, show, bless and docgen: case files or pages that do
     * not load (as a run's are, which leave it incomplete). */
    EXIT_INVALID_INPUT = DMLCONF_EXIT_INCOMPLETE,
};

#endif /* DMLCONF_RUNNER_H */
