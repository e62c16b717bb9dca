/*
 * Scheduling cases over worker processes, as deqp-runner does: each worker
 * opens its own backend and runs batches of cases; the main process streams
 * their results. A worker that dies takes only its batch with it: the
 * batch's unfinished cases are rerun one per batch, so the case that
 * crashes is found and reported as crash, and a fresh worker carries on. A
 * batch that runs past its deadline is killed the same way and its case
 * reported as timeout. A worker killed by a signal from outside (a user,
 * the out-of-memory killer) says so, and its case is run once more before
 * it is called a crash.
 *
 * On POSIX a worker is a fork of this process and sees the cases in
 * memory; on Windows it is this program started again (`dmlconf __worker`,
 * cmd_worker.c), which loads the same case files and is sent each case's
 * position among them. Both speak the same protocol over their pipes:
 *   main -> worker: uint32 count (0: stop), then count uint32 case numbers
 *   worker -> main: one worker_hello, then per case a dmlconf_case_result,
 *                   a uint32 length and that many bytes of its encoded form
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include <dmlconf/runner.h>

#include <dmlconf/clock.h>
#include <dmlconf/process.h>
#include <dmlconf/reserve.h>

#include <dmlconf/threads.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <fcntl.h>
#include <io.h>
#else
#include <unistd.h>
#endif

/* Cases sent to a worker at once. Small batches keep crash retries cheap;
 * big enough that pipe traffic costs nothing next to the work. */
#define BATCH_CASES 32u
/* Cases above this many elements run in a batch of their own. */
#define LARGE_CASE_ELEMENTS (UINT64_C(1) << 20)
/* Seconds a worker may take to open its backend. */
#define OPEN_TIMEOUT 120.0
/* Seconds a worker that was told to stop (or has died) gets to exit. */
#define EXIT_GRACE 5.0

/* ---- the worker's side ------------------------------------------------------- */

/* The first message of a worker. */
typedef struct worker_hello
{
    int ok;
    int finishes_results; /* the worker ran on_finish: encoded forms follow */
    dmlconf_backend_info info;
    char why[256];
} worker_hello;

static long read_fd(int fd, void *data, size_t size)
{
#if defined(_WIN32)
    return _read(fd, data, size > 0x40000000u ? 0x40000000u : (unsigned)size);
#else
    return (long)read(fd, data, size);
#endif
}

static long write_fd(int fd, const void *data, size_t size)
{
#if defined(_WIN32)
    return _write(fd, data, size > 0x40000000u ? 0x40000000u : (unsigned)size);
#else
    return (long)write(fd, data, size);
#endif
}

/* Reads or writes exactly `size` bytes; -1 on error or end of file. */
static int read_all(int fd, void *data, size_t size)
{
    char *p = data;
    while (size)
    {
        long n = read_fd(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

static int write_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size)
    {
        long n = write_fd(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

/* A batch's results being finished on several threads. */
typedef struct finishing
{
    const runner_worker *spec;
    dmlconf_case_result *results;
    char **encoded;
} finishing;

static void finish_one(void *context, size_t i)
{
    finishing *f = context;
    f->encoded[i] = f->spec->on_finish(f->spec->context, &f->results[i]);
}

/* Writes a batch's results and their encoded forms (NULL: none) to the
 * main process, in one write where memory allows. Returns 0, or -1 when the
 * pipe is gone. */
static int send_results(int out_fd, const dmlconf_case_result *results, char *const *encoded, uint32_t count)
{
    size_t total = 0;
    for (uint32_t i = 0; i < count; ++i)
        total += sizeof(results[i]) + sizeof(uint32_t) + (encoded[i] ? strlen(encoded[i]) : 0);
    char *message = malloc(total);
    size_t at = 0;
    for (uint32_t i = 0; i < count; ++i)
    {
        uint32_t length = encoded[i] ? (uint32_t)strlen(encoded[i]) : 0;
        if (!message)
        {
            if (write_all(out_fd, &results[i], sizeof(results[i])) || write_all(out_fd, &length, sizeof(length)) ||
                write_all(out_fd, encoded[i] ? encoded[i] : "", length))
                return -1;
            continue;
        }
        memcpy(message + at, &results[i], sizeof(results[i]));
        memcpy(message + at + sizeof(results[i]), &length, sizeof(length));
        if (length)
            memcpy(message + at + sizeof(results[i]) + sizeof(length), encoded[i], length);
        at += sizeof(results[i]) + sizeof(length) + length;
    }
    int lost = message ? write_all(out_fd, message, total) : 0;
    free(message);
    return lost;
}

int runner_worker_serve(const runner_worker *spec, int in_fd, int out_fd)
{
    worker_hello hello;
    memset(&hello, 0, sizeof(hello));
    hello.finishes_results = spec->on_finish != NULL;
    runner_backend backend = {0};
    if (spec->backend_ops->open(&spec->backend_config, &backend.backend, hello.why, sizeof(hello.why)) == 0)
    {
        backend.backend->ops->info(backend.backend, &backend.info);
        hello.ok = 1;
        hello.info = backend.info;
    }
    if (write_all(out_fd, &hello, sizeof(hello)) || !hello.ok)
        return hello.ok ? 1 : 0;

    runner_config config = spec->config;
    config.level = runner_target_level(config.level, &backend.info);
    /* A CPU implementation gets a worker per CPU already. */
    if (backend.info.software)
        config.host_threads = 1;
    uint32_t numbers[BATCH_CASES];
    const dmlconf_case *batch[BATCH_CASES];
    dmlconf_case_result *results = malloc(BATCH_CASES * sizeof(*results));
    char **encoded = calloc(BATCH_CASES, sizeof(*encoded));
    int status = results && encoded ? 0 : 1;
    for (;;)
    {
        uint32_t count;
        if (status || read_all(in_fd, &count, sizeof(count)) || count == 0 || count > BATCH_CASES ||
            read_all(in_fd, numbers, count * sizeof(numbers[0])))
            break;
        bool bad_number = false;
        for (uint32_t i = 0; i < count; ++i)
        {
            bad_number |= numbers[i] >= spec->case_count;
            batch[i] = bad_number ? NULL : spec->cases[numbers[i]];
        }
        if (bad_number)
        {
            status = 1;
            break;
        }
        runner_execute(&backend, &config, batch, count, results);
        if (spec->on_finish)
        {
            finishing f = {spec, results, encoded};
            runner_for_each(count, config.host_threads, finish_one, &f);
        }
        bool lost = send_results(out_fd, results, encoded, count);
        for (uint32_t i = 0; i < count; ++i)
        {
            free(encoded[i]);
            encoded[i] = NULL;
        }
        if (lost)
            break;
    }
    free(encoded);
    free(results);
    backend.backend->ops->close(backend.backend);
    return status;
}

#if !defined(_WIN32)
/* A forked worker: the main process handles Ctrl-C for the whole run and
 * stops the workers itself, so the terminal's SIGINT must not end a case
 * half-way and pass for a crash. */
static int forked_worker_main(void *context, int in_fd, int out_fd)
{
    signal(SIGINT, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    return runner_worker_serve(context, in_fd, out_fd);
}
#endif

/* ---- the main process's side -------------------------------------------------- */

/* A batch's time limit and what it was made of, for the message of a
 * case that ran past it. */
typedef struct batch_limit
{
    double seconds; /* 0: none */
    double seconds_per_element;
    bool measured; /* the speed was measured, not assumed */
} batch_limit;

/* The time limit of a batch of `elements`: the schedule's, or scaled by
 * the speed measured so far (runner_time_limit). */
static batch_limit limit_batch(const runner_schedule *schedule, const runner_speed *speed, uint64_t elements)
{
    batch_limit limit = {schedule->timeout_seconds, runner_speed_seconds_per_element(speed),
                         speed->elements >= RUNNER_MEASURED_ELEMENTS};
    if (schedule->timeout_scales)
        limit.seconds = runner_time_limit(schedule->timeout_seconds, elements, limit.seconds_per_element);
    return limit;
}

/* How a scaled limit came about, for the message of a case that ran past
 * it (", its batch's time limit (the larger of ...)"); "" for a fixed
 * limit. */
static void explain_limit(const runner_schedule *schedule, const batch_limit *limit, uint64_t elements, char *text,
                          size_t size)
{
    if (!schedule->timeout_scales)
    {
        snprintf(text, size, "%s", "");
        return;
    }
    snprintf(text, size,
             ", its batch's time limit (the larger of %.0f s and %g x its %llu elements x %.3g s an element, %s)",
             schedule->timeout_seconds, RUNNER_TIMEOUT_FACTOR, (unsigned long long)elements, limit->seconds_per_element,
             limit->measured ? "the backend's speed in this run" : "assumed until more cases have run");
}

typedef struct worker
{
    dmlconf_process *process; /* NULL when not running */
    bool ready;               /* said hello */
    bool finishes_results;    /* sends encoded forms */
    uint32_t batch[BATCH_CASES];
    uint32_t batch_count; /* cases in flight (0: idle) */
    uint32_t received;    /* results of the batch read so far */
    double deadline;      /* when the batch (or the hello) is late */
    double sent_at;       /* when the batch was sent */
    uint64_t batch_elements;
    batch_limit limit; /* the batch's time limit, and how it came about */
    bool told_to_stop; /* sent the stop message (count 0) */
    /* Bytes received and not yet delivered, read in large pieces. */
    char *inbox;
    size_t inbox_used;
    size_t inbox_capacity;
} worker;

typedef struct scheduler
{
    const runner_schedule *schedule;
    const dmlconf_case *const *cases;
    size_t count;
    uint32_t *queue; /* case indices not yet sent */
    size_t queue_head, queue_tail;
    bool *single;        /* the case must run in a batch of its own */
    bool *killed_before; /* its worker was killed from outside once already */
    size_t done;
    runner_speed speed; /* of the batches that finished */
    worker *workers;
    unsigned worker_count;
    unsigned hardware_limit; /* workers on a hardware adapter */
    unsigned started;        /* worker slots started so far (the others wait for the first hello) */
    dmlconf_backend_info info;
    bool have_info;
    char open_error[512];
    unsigned open_failures;
    runner_worker spec; /* what a forked worker serves */
} scheduler;

static void reset_worker(worker *w)
{
    free(w->inbox);
    memset(w, 0, sizeof(*w));
}

static int start_worker(scheduler *s, worker *w, char *why, size_t why_size)
{
    reset_worker(w);
    dmlconf_process_options options;
    memset(&options, 0, sizeof(options));
    options.stderr_mode = DMLCONF_CHILD_STDERR_INHERIT;
    if (s->schedule->worker_argv)
        options.argv = s->schedule->worker_argv;
    else
    {
        options.function =
#if defined(_WIN32)
            NULL;
#else
            forked_worker_main;
#endif
        options.context = &s->spec;
    }
    if (dmlconf_process_start(&options, &w->process, why, why_size))
        return -1;
    w->deadline = dmlconf_clock_seconds() + OPEN_TIMEOUT;
    return 0;
}

/* Sends a worker the message to close its backend and exit. */
static void tell_to_stop(worker *w)
{
    uint32_t zero = 0;
    (void)dmlconf_process_write(w->process, &zero, sizeof(zero));
    w->told_to_stop = true;
}

/* Stops a worker: kill_it ends it at once, else it is told to stop and
 * given time to close its backend. */
static void stop_worker(worker *w, bool kill_it, dmlconf_exit *ended)
{
    if (!w->process)
        return;
    if (kill_it)
        dmlconf_process_kill(w->process);
    else if (!w->told_to_stop)
        tell_to_stop(w);
    dmlconf_process_finish(w->process, EXIT_GRACE, ended);
    w->process = NULL;
    w->told_to_stop = false;
    free(w->inbox);
    w->inbox = NULL;
    w->inbox_used = w->inbox_capacity = 0;
}

static void deliver(scheduler *s, uint32_t index, const dmlconf_case_result *result, const char *encoded)
{
    s->done++;
    s->schedule->on_result(s->schedule->context, index, result, encoded);
}

/* A result made or finished in this process: apply on_finish here. */
static void deliver_local(scheduler *s, uint32_t index, dmlconf_case_result *result)
{
    char *encoded = s->schedule->on_finish ? s->schedule->on_finish(s->schedule->context, result) : NULL;
    deliver(s, index, result, encoded);
    free(encoded);
}

/* Sends the next batch to an idle, ready worker. Returns false when the
 * queue is empty. */
static bool send_batch(scheduler *s, worker *w)
{
    if (s->queue_head == s->queue_tail)
        return false;
    uint32_t count = 0;
    uint32_t numbers[BATCH_CASES];
    while (s->queue_head != s->queue_tail && count < BATCH_CASES)
    {
        uint32_t index = s->queue[s->queue_head % s->count];
        if (count > 0 && s->single[index])
            break;
        s->queue_head++;
        numbers[count] = s->schedule->worker_case_numbers ? s->schedule->worker_case_numbers[index] : index;
        w->batch[count++] = index;
        if (s->single[index])
            break;
    }
    w->batch_count = count;
    w->received = 0;
    w->batch_elements = 0;
    for (uint32_t i = 0; i < count; ++i)
        w->batch_elements += dmlconf_case_element_count(s->cases[w->batch[i]]);
    w->limit = limit_batch(s->schedule, &s->speed, w->batch_elements);
    w->sent_at = dmlconf_clock_seconds();
    w->deadline = w->limit.seconds > 0.0 ? w->sent_at + w->limit.seconds : 0.0;
    if (dmlconf_process_write(w->process, &count, sizeof(count)) ||
        dmlconf_process_write(w->process, numbers, count * sizeof(uint32_t)))
        w->deadline = dmlconf_clock_seconds(); /* treat as lost at the next check */
    return true;
}

/* A worker died or ran late with a batch in flight: report or requeue its
 * unfinished cases, and replace it. */
static void lose_worker(scheduler *s, worker *w, bool timed_out)
{
    dmlconf_exit ended;
    stop_worker(w, timed_out, &ended);
    bool from_outside = !timed_out && dmlconf_exit_killed_from_outside(&ended);
    char how[160];
    dmlconf_exit_describe(&ended, how, sizeof(how));

    uint32_t unfinished = w->batch_count - w->received;
    for (uint32_t i = w->received; i < w->batch_count; ++i)
    {
        uint32_t index = w->batch[i];
        bool alone = s->single[index] || w->batch_count == 1;
        if (unfinished > 1 || !alone)
        {
            /* Not yet known which case did it: run each alone. */
            s->single[index] = true;
            s->queue[s->queue_tail++ % s->count] = index;
            continue;
        }
        if (from_outside && !s->killed_before[index])
        {
            /* Not the case's doing, as far as anyone can tell: once more. */
            s->killed_before[index] = true;
            s->queue[s->queue_tail++ % s->count] = index;
            continue;
        }
        dmlconf_case_result result;
        char message[400];
        if (timed_out)
        {
            char why[240];
            explain_limit(s->schedule, &w->limit, w->batch_elements, why, sizeof(why));
            snprintf(message, sizeof(message), "did not finish within %.0f s%s; the worker was killed",
                     w->limit.seconds, why);
        }
        else if (from_outside || s->killed_before[index])
            snprintf(message, sizeof(message),
                     "the worker running the case %s%s; the first time it was killed by a signal from outside "
                     "dmlconf (a user or the out-of-memory killer), so the case was run again",
                     how, from_outside ? ", from outside again" : "");
        else
            snprintf(message, sizeof(message), "the worker running the case %s", how);
        runner_result_init(&result, s->cases[index], timed_out ? DMLCONF_STATUS_TIMEOUT : DMLCONF_STATUS_CRASH,
                           message);
        result.failure = timed_out ? DMLCONF_FAILURE_TIMEOUT : DMLCONF_FAILURE_CRASH;
        deliver_local(s, index, &result);
    }
    w->batch_count = 0;
    char why[256];
    if (start_worker(s, w, why, sizeof(why)))
    {
        snprintf(s->open_error, sizeof(s->open_error), "cannot start a worker process: %s", why);
        w->process = NULL;
    }
}

/* Makes room for at least `more` bytes in the inbox. */
static int grow_inbox(worker *w, size_t more)
{
    return dmlconf_reserve((void **)&w->inbox, &w->inbox_capacity, w->inbox_used + more, 1) ? 0 : -1;
}

/* Takes the hello from the inbox. Returns 1 when taken, 0 when it has not
 * all arrived, -1 when the backend did not open. */
static int take_hello(scheduler *s, worker *w)
{
    worker_hello hello;
    if (w->inbox_used < sizeof(hello))
        return 0;
    memcpy(&hello, w->inbox, sizeof(hello));
    memmove(w->inbox, w->inbox + sizeof(hello), w->inbox_used - sizeof(hello));
    w->inbox_used -= sizeof(hello);
    if (!hello.ok)
    {
        hello.why[sizeof(hello.why) - 1] = '\0';
        snprintf(s->open_error, sizeof(s->open_error), "%s", hello.why);
        s->open_failures++;
        return -1;
    }
    w->ready = true;
    w->finishes_results = hello.finishes_results != 0;
    if (!s->have_info)
    {
        s->info = hello.info;
        s->have_info = true;
        /* A CPU implementation gets every worker; a hardware adapter keeps
         * the few started before the hello. */
        while (hello.info.software && s->started < s->worker_count)
        {
            char reason[256];
            if (start_worker(s, &s->workers[s->started], reason, sizeof(reason)))
                snprintf(s->open_error, sizeof(s->open_error), "cannot start a worker process: %s", reason);
            s->started++;
        }
        if (s->schedule->on_info)
            s->schedule->on_info(s->schedule->context, &hello.info,
                                 runner_target_level(s->schedule->config.level, &hello.info));
    }
    return 1;
}

/* Reads what a worker has sent and delivers every complete result. Returns
 * 0, 1 when its backend did not open, or -1 when the worker is gone. */
static int read_from_worker(scheduler *s, worker *w)
{
    if (grow_inbox(w, 65536))
        return -1;
    long n = dmlconf_process_read(w->process, w->inbox + w->inbox_used, w->inbox_capacity - w->inbox_used, 0.0);
    if (n == DMLCONF_PROCESS_TIMED_OUT)
        return 0;
    if (n <= 0)
        return -1;
    w->inbox_used += (size_t)n;
    if (!w->ready)
    {
        int hello = take_hello(s, w);
        if (hello <= 0)
            return hello < 0 ? 1 : 0;
    }

    size_t at = 0;
    const size_t header = sizeof(dmlconf_case_result) + sizeof(uint32_t);
    while (w->inbox_used - at >= header && w->received < w->batch_count)
    {
        uint32_t length;
        memcpy(&length, w->inbox + at + sizeof(dmlconf_case_result), sizeof(length));
        if (w->inbox_used - at - header < length)
            break;
        dmlconf_case_result result;
        memcpy(&result, w->inbox + at, sizeof(result));
        uint32_t index = w->batch[w->received++];
        if (!w->finishes_results)
            deliver_local(s, index, &result);
        else
        {
            char *text = NULL;
            if (length)
            {
                text = malloc((size_t)length + 1);
                if (!text)
                    return -1;
                memcpy(text, w->inbox + at + header, length);
                text[length] = '\0';
            }
            deliver(s, index, &result, text);
            free(text);
        }
        at += header + length;
    }
    memmove(w->inbox, w->inbox + at, w->inbox_used - at);
    w->inbox_used -= at;
    if (w->batch_count && w->received == w->batch_count)
    {
        runner_speed_add(&s->speed, dmlconf_clock_seconds() - w->sent_at, w->batch_elements);
        w->batch_count = 0;
    }
    return 0;
}

static bool interrupted(const runner_schedule *schedule)
{
    return schedule->interrupted && *schedule->interrupted;
}

static bool past_deadline(const runner_schedule *schedule)
{
    return schedule->deadline > 0.0 && dmlconf_clock_seconds() >= schedule->deadline;
}

/* What a run that stopped early returns: 1 interrupted, 2 at its deadline,
 * 0 otherwise. */
static int stopped_early(const runner_schedule *schedule)
{
    return interrupted(schedule) ? 1 : past_deadline(schedule) ? 2 : 0;
}

/* The watchdog of a run in this process: no worker to kill, so a backend
 * call that does not return (past the timeout, or after an interrupt) ends
 * the process, once the run's reports say so. */
typedef struct watchdog
{
    const runner_schedule *schedule;
    dmlconf_mutex lock;
    bool busy;                 /* a batch's backend work is in flight */
    double busy_since;         /* since when */
    batch_limit limit;         /* its time limit */
    uint64_t elements;         /* its elements */
    const dmlconf_case *first; /* its first case */
    size_t count;              /* its cases */
    double interrupted_at;     /* when the interrupt was first seen during it; 0: not yet */
    bool stop;
    dmlconf_thread thread;
} watchdog;

/* How long a call may go on after an interrupt before the run ends without
 * it. */
#define ABANDON_GRACE_SECONDS 2.0

static void abandon(watchdog *w, const char *reason)
{
    fprintf(stderr, "dmlconf: %s\n", reason);
    if (w->schedule->on_abandon)
        w->schedule->on_abandon(w->schedule->context, reason);
    fflush(NULL);
    _Exit(EXIT_INCOMPLETE);
}

static int watch(void *argument)
{
    watchdog *w = argument;
    char reason[512];
    for (;;)
    {
        dmlconf_mutex_lock(&w->lock);
        if (w->stop)
        {
            dmlconf_mutex_unlock(&w->lock);
            return 0;
        }
        double now = dmlconf_clock_seconds();
        double timeout = w->limit.seconds;
        if (w->busy && interrupted(w->schedule) && w->interrupted_at == 0.0)
            w->interrupted_at = now;
        if (w->busy && timeout > 0.0 && now - w->busy_since > timeout)
        {
            char why[240];
            explain_limit(w->schedule, &w->limit, w->elements, why, sizeof(why));
            snprintf(reason, sizeof(reason),
                     "the backend did not return within %.0f s%s (--jobs 0 runs it in this process, with no worker "
                     "to stop): the run ends without it",
                     timeout, why);
            abandon(w, reason); /* never returns: the lock stays taken */
        }
        if (w->busy && w->interrupted_at > 0.0 && now - w->interrupted_at > ABANDON_GRACE_SECONDS)
        {
            snprintf(reason, sizeof(reason),
                     "%s, and the backend did not return within %.0f s (--jobs 0 runs it in this process, with no "
                     "worker to stop): the run ends without it",
                     runner_interrupt_name() ? runner_interrupt_name() : "interrupted", ABANDON_GRACE_SECONDS);
            abandon(w, reason);
        }
        if (w->busy && w->schedule->on_tick)
        {
            /* The main thread is in the backend's call until it takes the
             * lock again. */
            runner_flight flight = {w->first, w->count, now - w->busy_since};
            w->schedule->on_tick(w->schedule->context, &flight);
        }
        dmlconf_mutex_unlock(&w->lock);
        dmlconf_clock_sleep(0.05);
    }
}

static void watchdog_busy(watchdog *w, bool busy, const batch_limit *limit, const dmlconf_case *const *cases,
                          size_t count, uint64_t elements)
{
    dmlconf_mutex_lock(&w->lock);
    w->busy = busy;
    w->limit = *limit;
    w->elements = elements;
    w->first = cases[0];
    w->count = count;
    w->busy_since = dmlconf_clock_seconds();
    w->interrupted_at = 0.0;
    dmlconf_mutex_unlock(&w->lock);
}

static int run_in_process(const runner_schedule *schedule, const dmlconf_case *const *cases, size_t count,
                          dmlconf_backend_info *info, char *why, size_t why_size)
{
    runner_backend backend = {0};
    if (schedule->backend_ops->open(&schedule->backend_config, &backend.backend, why, why_size))
        return -1;
    backend.backend->ops->info(backend.backend, &backend.info);
    *info = backend.info;
    runner_config config = schedule->config;
    config.level = runner_target_level(config.level, &backend.info);
    if (schedule->on_info)
        schedule->on_info(schedule->context, &backend.info, config.level);
    dmlconf_case_result *results = malloc(BATCH_CASES * sizeof(*results));
    watchdog *dog = calloc(1, sizeof(*dog));
    if (!results || !dog || dmlconf_mutex_init(&dog->lock))
    {
        free(results);
        free(dog);
        backend.backend->ops->close(backend.backend);
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    dog->schedule = schedule;
    runner_speed speed = {0.0, 0};
    bool watching = dmlconf_thread_start(&dog->thread, watch, dog) == 0;
    for (size_t first = 0; first < count && !stopped_early(schedule); first += BATCH_CASES)
    {
        size_t n = count - first < BATCH_CASES ? count - first : BATCH_CASES;
        uint64_t elements = 0;
        for (size_t i = 0; i < n; ++i)
            elements += dmlconf_case_element_count(cases[first + i]);
        batch_limit limit = limit_batch(schedule, &speed, elements);
        double started = dmlconf_clock_seconds();
        watchdog_busy(dog, true, &limit, cases + first, n, elements);
        runner_execute(&backend, &config, cases + first, n, results);
        watchdog_busy(dog, false, &limit, cases + first, n, elements);
        runner_speed_add(&speed, dmlconf_clock_seconds() - started, elements);
        for (size_t i = 0; i < n; ++i)
        {
            char *encoded = schedule->on_finish ? schedule->on_finish(schedule->context, &results[i]) : NULL;
            schedule->on_result(schedule->context, first + i, &results[i], encoded);
            free(encoded);
        }
        if (schedule->on_tick)
        {
            runner_flight idle = {NULL, 0, 0.0};
            schedule->on_tick(schedule->context, &idle);
        }
    }
    if (watching)
    {
        dmlconf_mutex_lock(&dog->lock);
        dog->stop = true;
        dmlconf_mutex_unlock(&dog->lock);
        dmlconf_thread_join(&dog->thread);
    }
    dmlconf_mutex_destroy(&dog->lock);
    free(dog);
    free(results);
    backend.backend->ops->close(backend.backend);
    return stopped_early(schedule);
}

/* Opening one at a time: starts the next worker slot once no worker is
 * opening its backend, up to the workers the backend gets (a worker whose
 * open failed is followed by the next, as if they had opened together). */
static void start_in_turn(scheduler *s)
{
    unsigned limit = s->have_info && s->info.software ? s->worker_count : s->hardware_limit;
    if (!s->schedule->open_one_at_a_time || s->started >= limit)
        return;
    for (unsigned i = 0; i < s->started; ++i)
    {
        if (s->workers[i].process && !s->workers[i].ready)
            return;
    }
    char reason[256];
    if (start_worker(s, &s->workers[s->started], reason, sizeof(reason)))
        snprintf(s->open_error, sizeof(s->open_error), "cannot start a worker process: %s", reason);
    s->started++;
}

/* Tells the schedule's on_tick what is in flight: the batch sent longest
 * ago. */
static void tick(const scheduler *s)
{
    if (!s->schedule->on_tick)
        return;
    runner_flight flight = {NULL, 0, 0.0};
    double now = dmlconf_clock_seconds();
    const worker *oldest = NULL;
    for (unsigned i = 0; i < s->worker_count; ++i)
    {
        const worker *w = &s->workers[i];
        if (w->process && w->batch_count > w->received && (!oldest || w->sent_at < oldest->sent_at))
            oldest = w;
    }
    if (oldest)
    {
        flight.oldest = s->cases[oldest->batch[oldest->received]];
        flight.batch = oldest->batch_count - oldest->received;
        flight.seconds = now - oldest->sent_at;
    }
    s->schedule->on_tick(s->schedule->context, &flight);
}

/* One round of the main loop: feed idle workers, wait for output, read it,
 * and handle workers that died or ran late. Returns 0 to go on, 1 when
 * done, -1 with why set when the backend cannot run at all. */
static int schedule_round(scheduler *s, dmlconf_process **processes, bool *ready, char *why, size_t why_size)
{
    const runner_schedule *schedule = s->schedule;
    start_in_turn(s);
    unsigned live = 0;
    for (unsigned i = 0; i < s->worker_count; ++i)
    {
        worker *w = &s->workers[i];
        if (w->process && w->ready && w->batch_count == 0)
            send_batch(s, w);
        processes[i] = w->process;
        live += w->process != NULL;
    }
    if (!live || (s->open_failures >= s->worker_count && !s->have_info))
    {
        snprintf(why, why_size, "the %s backend is unavailable: %s", schedule->backend_ops->name,
                 s->open_error[0] ? s->open_error : "its workers could not start");
        return -1;
    }
    if (s->done >= s->count && s->have_info)
        return 1;
    if (dmlconf_process_wait_readable(processes, s->worker_count, 0.2, ready) < 0 && errno != EINTR)
    {
        snprintf(why, why_size, "waiting for the workers failed: %s", strerror(errno));
        return -1;
    }
    if (stopped_early(schedule))
        return 1;
    double now = dmlconf_clock_seconds();
    for (unsigned i = 0; i < s->worker_count; ++i)
    {
        worker *w = &s->workers[i];
        if (!w->process)
            continue;
        if (ready[i])
        {
            int read = read_from_worker(s, w);
            if (read == 1 || (read < 0 && !w->ready))
            {
                stop_worker(w, true, NULL); /* could not open its backend */
                if (read < 0)
                {
                    snprintf(s->open_error, sizeof(s->open_error), "its worker ended before opening it");
                    s->open_failures++;
                }
                continue;
            }
            if (read < 0)
            {
                lose_worker(s, w, false);
                continue;
            }
        }
        bool busy = !w->ready || w->batch_count > 0;
        if (busy && w->deadline > 0.0 && now > w->deadline)
        {
            if (!w->ready)
            {
                snprintf(s->open_error, sizeof(s->open_error), "opening it took longer than %.0f s", OPEN_TIMEOUT);
                s->open_failures++;
                stop_worker(w, true, NULL);
                continue;
            }
            lose_worker(s, w, true);
        }
    }
    return 0;
}

int runner_schedule_run(const runner_schedule *schedule, const dmlconf_case *const *cases, size_t count,
                        dmlconf_backend_info *info, char *why, size_t why_size)
{
    if (schedule->jobs == 0)
        return run_in_process(schedule, cases, count, info, why, why_size);

    scheduler s;
    memset(&s, 0, sizeof(s));
    s.schedule = schedule;
    s.cases = cases;
    s.count = count;
    s.spec = (runner_worker){
        .backend_ops = schedule->backend_ops,
        .backend_config = schedule->backend_config,
        .config = schedule->config,
        .cases = cases,
        .case_count = count,
        .on_finish = schedule->on_finish,
        .context = schedule->context,
    };
    s.worker_count = schedule->jobs;
    if (count && s.worker_count > count)
        s.worker_count = (unsigned)count;
    if (s.worker_count == 0)
        s.worker_count = 1;
    size_t slots = count ? count : 1;
    s.queue = malloc(slots * sizeof(*s.queue));
    s.single = calloc(slots, sizeof(*s.single));
    s.killed_before = calloc(slots, sizeof(*s.killed_before));
    s.workers = calloc(s.worker_count, sizeof(*s.workers));
    dmlconf_process **processes = calloc(s.worker_count, sizeof(*processes));
    bool *ready = calloc(s.worker_count, sizeof(*ready));
    int result = -1;
    if (!s.queue || !s.single || !s.killed_before || !s.workers || !processes || !ready)
    {
        snprintf(why, why_size, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < count; ++i)
    {
        s.queue[i] = (uint32_t)i;
        /* A large case runs alone, so every batch gets one case's timeout:
         * a batch of small cases that hangs is caught within it. */
        s.single[i] = dmlconf_case_element_count(cases[i]) > LARGE_CASE_ELEMENTS;
    }
    s.queue_tail = count;

#if !defined(_WIN32)
    struct sigaction ignore = {.sa_handler = SIG_IGN};
    struct sigaction old_pipe;
    sigaction(SIGPIPE, &ignore, &old_pipe);
#endif

    s.hardware_limit =
        schedule->hardware_jobs && schedule->hardware_jobs < s.worker_count ? schedule->hardware_jobs : s.worker_count;
    s.started = schedule->open_one_at_a_time ? 1u : s.hardware_limit;
    for (unsigned i = 0; i < s.started; ++i)
    {
        char reason[256];
        if (start_worker(&s, &s.workers[i], reason, sizeof(reason)))
        {
            snprintf(why, why_size, "cannot start a worker process: %s", reason);
            goto stop;
        }
    }
    int round;
    while ((round = schedule_round(&s, processes, ready, why, why_size)) == 0)
        tick(&s);
    if (round > 0)
    {
        *info = s.info;
        result = stopped_early(schedule);
    }

stop:
    /* Every worker is told first, so that they close their backends (tens
     * of milliseconds for a GPU device) at the same time. */
    for (unsigned i = 0; i < s.worker_count; ++i)
    {
        worker *w = &s.workers[i];
        if (w->process && !(w->batch_count > 0 || stopped_early(schedule)))
            tell_to_stop(w);
    }
    for (unsigned i = 0; i < s.worker_count; ++i)
    {
        worker *w = &s.workers[i];
        stop_worker(w, w->batch_count > 0 || stopped_early(schedule), NULL);
        reset_worker(w);
    }
#if !defined(_WIN32)
    sigaction(SIGPIPE, &old_pipe, NULL);
#endif
done:
    free(ready);
    free(processes);
    free(s.workers);
    free(s.killed_before);
    free(s.single);
    free(s.queue);
    return result;
}
