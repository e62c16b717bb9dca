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
 * exact backend (info->exact) unless the case gives expected values with a
 * tolerance; for float16 outputs of a backend that may compute float16 in
 * float16 (info->float16_accumulation), the half-precision rule (float16
 * accumulation) unless the case states a tolerance of its own. */
struct dmlconf_tolerance;
void runner_case_tolerance(const dmlconf_case *c, const dmlconf_backend_info *info, struct dmlconf_tolerance *tol);

/* ---- shrinking (shrink.c) and the run's reproducers (repro.c) ------------- */

/* How one tensor is laid out, as a recipe that other sizes can take: its
 * dimensions stored in `order` (fastest first), the pitch of order[k]
 * grown by pad[k] elements, and (the input only) the dimensions in
 * `broadcast` stored once. A shrinker changes the sizes and keeps the
 * recipe, so a smaller candidate keeps its padding, permutation and
 * broadcast dimensions. */
typedef struct runner_tensor_layout
{
    bool strided; /* false: packed, no strides */
    uint8_t order[DMLCONF_MAX_DIMENSIONS];
    uint32_t pad[DMLCONF_MAX_DIMENSIONS]; /* pad[k]: elements added to the pitch of order[k] */
    uint8_t broadcast;                    /* bit d: stride 0 in dimension d */
    bool compact;                         /* broadcast dimensions take no room in the pitches */
} runner_tensor_layout;

typedef struct runner_layout
{
    runner_tensor_layout input, output;
    bool in_place; /* output = input's layout, bound to its buffer */
} runner_layout;

/* Sets the descs' strides (and in_place, and total sizes of 0) from the
 * layout and their sizes. Returns false when a stride or a buffer would not
 * fit 32 bits or the order is not a permutation. */
bool runner_layout_apply(const runner_layout *layout, dmlconf_scan_desc *desc);

/* The recipe of a desc's strides, when one gives back exactly these strides
 * (padded, permuted, broadcast or in-place layouts do; overlapping strides
 * other than broadcasts, or a total size, do not). Returns false (with a
 * packed layout in *layout) when there is none. */
bool runner_layout_of(const dmlconf_scan_desc *desc, runner_layout *layout);

/* A case being shrunk: its desc (strides from `layout`) and its logical
 * input, packed row-major. */
typedef struct runner_candidate
{
    dmlconf_scan_desc desc;
    runner_layout layout;
    void *values; /* owned */
    uint64_t count;
} runner_candidate;

/* Frees the values and zeroes the candidate; NULL is allowed. */
void runner_candidate_free(runner_candidate *candidate);

/* Copies a candidate, values included. Returns 0, or -1 when memory runs
 * out (*copy zeroed). */
int runner_candidate_copy(const runner_candidate *candidate, runner_candidate *copy);

/* Whether a candidate, run as `candidate` on the caller's backend, still
 * fails the same way; *result receives its result (the shrinker keeps the
 * last failing one: where its first mismatch is guides the next step). */
typedef bool (*runner_fails_same_way)(void *context, const dmlconf_case *candidate, dmlconf_case_result *result);

typedef struct runner_shrink_options
{
    /* What every candidate case carries besides its desc, its level and its
     * input: the id, file, tolerance, tags and notes (expected values are
     * dropped: the oracle's are the candidate's). */
    const dmlconf_case *model;
    dmlconf_feature_level level; /* candidates are valid at it; below 4_0 they keep rank 4 */
    int max_tries;               /* backend runs one shrink may spend */
    double max_seconds;          /* and seconds */
    runner_fails_same_way fails_same_way;
    void *context;
} runner_shrink_options;

/* What a shrink came to. */
typedef struct runner_shrunk
{
    runner_candidate candidate; /* the smallest that still fails the same way (owned); the start when
                                 * not reproduced */
    dmlconf_case_result result; /* its result */
    int tries;                  /* backend runs spent */
    bool reproduced;            /* the start failed the same way when run again */
} runner_shrunk;

/* The one shrinking engine of `dmlconf run` and `dmlconf explore`: runs the
 * start candidate again and, when it still fails the same way
 * (options->fails_same_way), tries smaller and simpler candidates and keeps
 * each one that still fails, until no step helps or the budget is spent:
 * - a shorter range of each dimension: along the axis the prefix (in scan
 *   order) that ends at the first mismatch, elsewhere the mismatch's index
 *   alone; then the half, three quarters and the length less one;
 * - a lower rank: size-1 dimensions other than the axis dropped one at a
 *   time (rank 4 kept below feature level 4_0);
 * - a simpler layout, one feature at a time: out of place, no broadcast,
 *   no permutation, no padding, packed (a layout that matters is kept);
 * - an increasing scan of the reversed values, an inclusive scan;
 * - a simpler type (int32; float16 as float32) and a sum rather than a
 *   product, unless the model has a tolerance of its own (it is the type's);
 * then fewer non-trivial values (runs of the operator's identity, every
 * element that shares storage with a replaced one replaced with it), and
 * fewer positions along the axis, one at a time (then values again).
 * Each candidate must be valid at options->level. Returns 0 with *out
 * filled (free out->candidate), or -1 when memory runs out. */
int runner_shrink_case(const runner_shrink_options *options, const runner_candidate *start, runner_shrunk *out);

/* Shrinks a failing case of a run into the smallest case that still fails
 * the same way (the same `failure`) on the backend, each candidate run and
 * judged as a run runs a case (runner_execute), and writes it as a
 * standalone case file into config->repro_dir (repro.c): comments that say
 * where it comes from and how it failed, then the case with exact values
 * (hex floats). `input` is the case's logical input. Returns 0 and the path
 * in `path`, or -1 with why set. */
int runner_shrink(runner_backend *backend, const runner_config *config, const dmlconf_case *c, const void *input,
                  dmlconf_failure failure, char *path, size_t path_size, char *why, size_t why_size);

/* ---- case lists (caselist.c) ------------------------------------------------ */

/* One id or glob of a case list, and where it came from. */
typedef struct runner_caselist_entry
{
    char *text;            /* an id, or a glob (dmlconf/glob.h) */
    const char *source;    /* the file it was read from (owned by the list) */
    uint32_t line;         /* its line there; 0 for an earlier run's results */
    bool glob;             /* holds a glob's special characters */
    dmlconf_status status; /* from an earlier run: the status it had there */
    bool matched;          /* set by runner_caselist_mark */
} runner_caselist_entry;

/* The cases a run is asked for by case lists (--caselist FILE, and
 * --rerun-failures DIR): a case is listed when one entry is its id or a
 * glob it matches. Start it zeroed. */
typedef struct runner_caselist
{
    bool given;                     /* a list was given, even an empty one: then only listed cases run */
    runner_caselist_entry *entries; /* in the order read */
    size_t count;
    size_t capacity;
    runner_caselist_entry **exact; /* the entries that are plain ids, sorted by id */
    size_t exact_count;
    size_t glob_count;
    char **sources;
    size_t source_count;
    bool stdin_read;
} runner_caselist;

/* Reads a case list file: one id or glob a line, '#' starting a comment,
 * blanks around the text and blank lines ignored; "-" reads standard
 * input (once). Only a regular file is read. Returns 0, or -1 with why set
 * ("PATH: cannot open: No such file or directory ..."), leaving what was
 * read before. */
int runner_caselist_read(runner_caselist *list, const char *path, char *why, size_t why_size);

/* Adds the ids of the cases that did not pass in the run whose reports are
 * in `report_dir` (its results.jsonl): every status but pass and skip
 * (fail, error, crash, timeout, expected-fail, unexpected-pass, flake,
 * no-resources), each an exact id. *added receives how many. Returns 0, or
 * -1 with why set (the file cannot be read, or is not a results file). */
int runner_caselist_add_failures(runner_caselist *list, const char *report_dir, size_t *added, char *why,
                                 size_t why_size);

/* Whether the id is listed. */
bool runner_caselist_matches(const runner_caselist *list, const char *id);

/* Marks the entries that name or match one of `cases` (entry->matched) and
 * returns how many name none of them. */
size_t runner_caselist_mark(runner_caselist *list, const dmlconf_case *const *cases, size_t count);

/* Frees the entries and zeroes the list. */
void runner_caselist_free(runner_caselist *list);

/* ---- filters and shards (filter.c) ---------------------------------------- */

/* Include and exclude globs on case ids ("!" or "-" before a glob excludes),
 * and the case lists. */
typedef struct runner_filter
{
    const char **include;
    size_t include_count, include_capacity;
    const char **exclude;
    size_t exclude_count, exclude_capacity;
    const runner_caselist *caselist; /* NULL, or one not `given`: every case is listed */
} runner_filter;

/* Adds one --filter argument. Returns 0, or -1 when memory runs out. */
int runner_filter_add(runner_filter *filter, const char *pattern);
/* True when the id passes: the case lists list it (when one was given), it
 * matches an include glob (or there are none), and no exclude glob. */
bool runner_filter_matches(const runner_filter *filter, const char *id);
/* Whether the filter keeps out any case at all: globs, or case lists. */
bool runner_filter_selects(const runner_filter *filter);
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
    runner_baseline_list flakes_file; /* run --flakes FILE: more globs of flaky ids */
} runner_baseline;

/* Loads a baseline folder. Returns 0, or -1 with why set for a folder that
 * does not exist, an unreadable file or a malformed line
 * ("path:line: ..."). */
int runner_baseline_load(runner_baseline *baseline, const char *dir, char *why, size_t why_size);
/* Adds the globs of a file of known flakes (as flakes.txt, one a line,
 * '#' comments) to *baseline, which is a loaded baseline or a zeroed one (a
 * run given --flakes without --baseline). Returns 0, or -1 with why set for
 * a file that does not exist or cannot be read (the baseline left as it
 * was). */
int runner_baseline_load_flakes(runner_baseline *baseline, const char *path, char *why, size_t why_size);
bool runner_baseline_skips(const runner_baseline *baseline, const char *id);
/* Rewrites a result's status by the baseline: a listed failure that ends in
 * the very status its line records is expected-fail (known_status that
 * status); one that fails otherwise keeps its status (a regression) and
 * says what the baseline expected; one that passes is unexpected-pass; a
 * flaky id that failed every attempt is expected-fail with known_status
 * flake, its message saying so. */
void runner_baseline_apply(const runner_baseline *baseline, dmlconf_case_result *result);
/* The baseline's stale lines: failures.txt ids that name none of `cases`
 * and flakes.txt, --flakes or skips.txt globs that match none of them, as
 * "path:line: text" strings in a new array (*lines, *stale of them; free
 * each and the array). Returns 0, or -1 when memory runs out. */
int runner_baseline_stale(const runner_baseline *baseline, const dmlconf_case *const *cases, size_t count,
                          char ***lines, size_t *stale);
void runner_baseline_free(runner_baseline *baseline);

/* ---- time limits (time_limit.c) ------------------------------------------- */

/* A batch's time limit, when it scales (runner_schedule.timeout_scales):
 *     max(floor, RUNNER_TIMEOUT_FACTOR x elements x seconds an element)
 * where the seconds an element are this backend's in this run
 * (runner_speed), or RUNNER_INITIAL_SECONDS_PER_ELEMENT until batches of
 * RUNNER_MEASURED_ELEMENTS elements have finished. */
#define RUNNER_TIMEOUT_FACTOR              10.0
#define RUNNER_INITIAL_SECONDS_PER_ELEMENT 1e-6
#define RUNNER_MEASURED_ELEMENTS           (UINT64_C(1) << 20)

/* The wall time of the batches that finished and their elements. Start it
 * zeroed. */
typedef struct runner_speed
{
    double seconds;
    uint64_t elements;
} runner_speed;

/* Counts a batch of `elements` that took `seconds` (a batch that took no
 * time or had no elements counts nothing). */
void runner_speed_add(runner_speed *speed, double seconds, uint64_t elements);
/* The seconds an element took, or RUNNER_INITIAL_SECONDS_PER_ELEMENT while
 * fewer than RUNNER_MEASURED_ELEMENTS were measured. */
double runner_speed_seconds_per_element(const runner_speed *speed);
/* max(floor_seconds, RUNNER_TIMEOUT_FACTOR x elements x
 * seconds_per_element). */
double runner_time_limit(double floor_seconds, uint64_t elements, double seconds_per_element);

/* ---- progress (progress.c) ------------------------------------------------- */

/* What runs now, for progress: the batch in flight longest. */
typedef struct runner_flight
{
    const dmlconf_case *oldest; /* its first unfinished case; NULL: nothing in flight */
    size_t batch;               /* that batch's unfinished cases, `oldest` among them */
    double seconds;             /* how long the batch has run */
} runner_flight;

/* A run's progress: what is done, by status, and what runs. Start it with
 * runner_progress_start. */
typedef struct runner_progress
{
    size_t total;   /* cases the run reports */
    size_t done;    /* ... reported so far */
    size_t earlier; /* ... of those, finished by an earlier run (resumed): not in the ETA */
    uint64_t counts[DMLCONF_STATUS_COUNT];
    double started; /* dmlconf_clock_seconds() */
    runner_flight flight;
} runner_progress;

/* Starts the progress of a run of `total` cases at `now`. */
void runner_progress_start(runner_progress *progress, size_t total, double now);
/* Counts one result of `status`. */
void runner_progress_count(runner_progress *progress, dmlconf_status status);
/* Writes one line (no newline) saying where the run stands at `now`, as
 * snprintf does (returns the length of the whole line):
 *   "[1m12s] 1234/4518 done, 1230 pass, 2 fail, 2 timeout, 3 skip, ETA 40s,
 *    slowest in flight: conf.x (3.1s)"
 * Each status is counted as itself (a timeout is a timeout, never a crash);
 * pass is always shown, the others when there are any. The ETA (from this
 * run's pace, without an earlier run's cases) comes once a case is done;
 * the slowest in flight names the first unfinished case of the batch in
 * flight longest ("conf.x and 31 more of its batch"). */
size_t runner_progress_format(const runner_progress *progress, double now, char *buf, size_t size);

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

/* Called in the main process while cases run, at least every 0.2 s and
 * after results come, with what is in flight. With jobs 0 it is also
 * called, from the watchdog's thread, while a batch's backend call runs
 * (about every 0.05 s); never at the same time as another callback. */
typedef void (*runner_tick_callback)(void *context, const runner_flight *flight);

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
    /* The limit scales with the batch's elements and the backend's speed
     * measured in this run, timeout_seconds being its floor
     * (runner_time_limit); false: timeout_seconds is the limit. */
    bool timeout_scales;
    runner_info_callback on_info;
    runner_finish_callback on_finish; /* may be NULL */
    runner_result_callback on_result;
    runner_tick_callback on_tick; /* may be NULL */
    void *context;
    /* Set (by a signal handler) to stop the run: workers are stopped at
     * once and the results so far stand. NULL: never. */
    const volatile sig_atomic_t *interrupted;
    /* With jobs 0 (the backend in this process, which no one can stop), a
     * watchdog thread calls this when a batch's backend call has not
     * returned within its time limit, or two seconds after the run was
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
 * second of a kind ends the process (on POSIX, when it comes a second or
 * more after the first: one sent to the process and to its group at once
 * is one request). */
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
 * conformance, edge, negative and explore folders of the corpus this dmlconf
 * was built with (the copy installed beside the program, else its source
 * tree's). Prints every diagnostic to stderr. Returns the number of errors;
 * `corpus` must be freed with dmlconf_case_corpus_free. */
size_t runner_load_corpus(dmlconf_case_corpus *corpus, char *const *paths, size_t path_count);

/* The same with the loader's options (NULL: its defaults), such as which
 * cases' expected values are checked against the oracle. */
size_t runner_load_corpus_with(dmlconf_case_corpus *corpus, char *const *paths, size_t path_count,
                               const dmlconf_load_options *options);

/* runner_load_corpus, printing nothing (a worker loading what the main
 * process has already loaded and reported). */
size_t runner_load_corpus_quietly(dmlconf_case_corpus *corpus, char *const *paths, size_t path_count);

/* Every valid case of the corpus in load order, as a new array (freed by the
 * caller) of `*count` pointers into the corpus; NULL when memory runs out. */
const dmlconf_case **runner_corpus_cases(const dmlconf_case_corpus *corpus, size_t *count);

/* A digest (16 hex digits) of the cases the filter selects, before any
 * sharding: their ids and the contents of their files. Shards of one run
 * have the same; merge refuses shards whose digests differ. */
void runner_corpus_digest(const dmlconf_case_corpus *corpus, const runner_filter *filter, char *out, size_t size);

/* The digest (runner_corpus_digest, no filter) of the reference corpus: the
 * default corpus this dmlconf was built with (the copy installed beside the
 * program, else its source tree's), whatever $DMLCONF_CASES says. A run
 * whose selection has this digest, unfiltered and unsharded, ran the whole
 * corpus. Writes ""
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
