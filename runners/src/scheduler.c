/*
 * Scheduling cases over worker processes, as deqp-runner does: each worker
 * opens its own backend and runs batches of cases; the main process streams
 * their results. A worker that dies takes only its batch with it: the batch's
 * unfinished cases are rerun one per batch, so the case that crashes is found
 * and reported as crash, and a fresh worker carries on. A batch that runs
 * past its deadline is killed the same way and its case reported as timeout.
 */
#define _POSIX_C_SOURCE 200809L

#include "runner.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Cases sent to a worker at once. Small batches keep crash retries cheap;
 * big enough that pipe traffic costs nothing next to the work. */
#define BATCH_CASES 32u
/* Cases above this many elements run in a batch of their own. */
#define LARGE_CASE_ELEMENTS (UINT64_C(1) << 20)
/* Seconds a worker may take to open its backend. */
#define OPEN_TIMEOUT 120.0

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Writes or reads exactly `size` bytes; -1 on error or end of file. */
static int write_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size)
    {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

static int read_all(int fd, void *data, size_t size)
{
    char *p = data;
    while (size)
    {
        ssize_t n = read(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

/* The first message of a worker. */
typedef struct worker_hello
{
    int ok;
    dmlconf_backend_info info;
    char why[256];
} worker_hello;

/* A worker's side: open the backend, then run batches until told to stop.
 * Never returns. */
static void worker_main(const runner_schedule *schedule, const dmlconf_case *const *cases, int in_fd, int out_fd)
{
    worker_hello hello;
    memset(&hello, 0, sizeof(hello));
    runner_backend backend = {0};
    if (schedule->backend_ops->open(&schedule->backend_config, &backend.backend, hello.why, sizeof(hello.why)) == 0)
    {
        backend.backend->ops->info(backend.backend, &backend.info);
        hello.ok = 1;
        hello.info = backend.info;
    }
    if (write_all(out_fd, &hello, sizeof(hello)) || !hello.ok)
        _exit(hello.ok ? 1 : 0);

    runner_config config = schedule->config;
    if (config.level == DMLCONF_FEATURE_LEVEL_NONE)
        config.level = backend.info.feature_level;
    uint32_t indices[BATCH_CASES];
    const dmlconf_case *batch[BATCH_CASES];
    dmlconf_case_result *results = malloc(BATCH_CASES * sizeof(*results));
    for (;;)
    {
        uint32_t count;
        if (read_all(in_fd, &count, sizeof(count)) || count == 0 || count > BATCH_CASES ||
            read_all(in_fd, indices, count * sizeof(indices[0])) || !results)
            break;
        for (uint32_t i = 0; i < count; ++i)
            batch[i] = cases[indices[i]];
        runner_execute(&backend, &config, batch, count, results);
        bool lost = false;
        for (uint32_t i = 0; i < count && !lost; ++i)
        {
            char *encoded = schedule->on_finish ? schedule->on_finish(schedule->context, &results[i]) : NULL;
            uint32_t length = encoded ? (uint32_t)strlen(encoded) : 0;
            lost = write_all(out_fd, &results[i], sizeof(results[i])) || write_all(out_fd, &length, sizeof(length)) ||
                   write_all(out_fd, encoded ? encoded : "", length);
            free(encoded);
        }
        if (lost)
            break;
    }
    free(results);
    backend.backend->ops->close(backend.backend);
    _exit(0);
}

typedef struct worker
{
    pid_t pid;
    int to_worker, from_worker;
    bool ready; /* said hello */
    uint32_t batch[BATCH_CASES];
    uint32_t batch_count; /* cases in flight (0: idle) */
    uint32_t received;    /* results of the batch read so far */
    double deadline;      /* when the batch (or the hello) is late */
    /* Bytes received and not yet delivered: messages of a result, the
     * length of its encoded form and that text, read in large pieces. */
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
    bool *single; /* the case must run in a batch of its own */
    size_t done;
    worker *workers;
    unsigned worker_count;
    dmlconf_backend_info info;
    bool have_info;
    char open_error[256];
    unsigned open_failures;
} scheduler;

static int start_worker(scheduler *s, worker *w)
{
    int down[2], up[2];
    memset(w, 0, sizeof(*w));
    w->pid = -1;
    if (pipe(down))
        return -1;
    if (pipe(up))
    {
        close(down[0]);
        close(down[1]);
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
    {
        close(down[0]);
        close(down[1]);
        close(up[0]);
        close(up[1]);
        return -1;
    }
    if (pid == 0)
    {
        close(down[1]);
        close(up[0]);
        for (unsigned i = 0; i < s->worker_count; ++i)
        {
            if (s->workers[i].pid > 0)
            {
                close(s->workers[i].to_worker);
                close(s->workers[i].from_worker);
            }
        }
        worker_main(s->schedule, s->cases, down[0], up[1]);
    }
    close(down[0]);
    close(up[1]);
    w->pid = pid;
    w->to_worker = down[1];
    w->from_worker = up[0];
    w->deadline = seconds_now() + OPEN_TIMEOUT;
    return 0;
}

static void stop_worker(worker *w, bool kill_it)
{
    if (w->pid <= 0)
        return;
    if (kill_it)
        kill(w->pid, SIGKILL);
    close(w->to_worker);
    close(w->from_worker);
    int status;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    w->pid = -1;
    free(w->inbox);
    w->inbox = NULL;
}

static void deliver(scheduler *s, uint32_t index, dmlconf_case_result *result, const char *encoded)
{
    s->done++;
    s->schedule->on_result(s->schedule->context, index, result, encoded);
}

/* A result made in this process (crash, timeout): finish it here. */
static void deliver_local(scheduler *s, uint32_t index, dmlconf_case_result *result)
{
    char *encoded = s->schedule->on_finish ? s->schedule->on_finish(s->schedule->context, result) : NULL;
    deliver(s, index, result, encoded);
    free(encoded);
}

/* Sends the next batch to an idle, ready worker. Returns false when the queue
 * is empty. */
static bool send_batch(scheduler *s, worker *w)
{
    if (s->queue_head == s->queue_tail)
        return false;
    uint32_t count = 0;
    while (s->queue_head != s->queue_tail && count < BATCH_CASES)
    {
        uint32_t index = s->queue[s->queue_head % s->count];
        if (count > 0 && s->single[index])
            break;
        s->queue_head++;
        w->batch[count++] = index;
        if (s->single[index])
            break;
    }
    w->batch_count = count;
    w->received = 0;
    double timeout = s->schedule->timeout_seconds;
    w->deadline = timeout > 0.0 ? seconds_now() + timeout : 0.0;
    if (write_all(w->to_worker, &count, sizeof(count)) || write_all(w->to_worker, w->batch, count * sizeof(uint32_t)))
        w->deadline = seconds_now(); /* treat as lost at the next check */
    return true;
}

/* A worker died or ran late with a batch in flight: report or requeue its
 * unfinished cases, and replace it. */
static void lose_worker(scheduler *s, worker *w, bool timed_out)
{
    int status = 0;
    pid_t pid = w->pid;
    if (timed_out)
        kill(pid, SIGKILL);
    close(w->to_worker);
    close(w->from_worker);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    w->pid = -1;

    uint32_t unfinished = w->batch_count - w->received;
    for (uint32_t i = w->received; i < w->batch_count; ++i)
    {
        uint32_t index = w->batch[i];
        if (unfinished > 1 || (!s->single[index] && w->batch_count > 1))
        {
            /* Not yet known which case did it: run each alone. */
            s->single[index] = true;
            s->queue[s->queue_tail++ % s->count] = index;
            continue;
        }
        dmlconf_case_result result;
        char message[160];
        if (timed_out)
            snprintf(message, sizeof(message), "did not finish within %.0f s; the worker was killed",
                     s->schedule->timeout_seconds);
        else if (WIFSIGNALED(status))
            snprintf(message, sizeof(message), "the worker died from signal %d (%s)", WTERMSIG(status),
                     strsignal(WTERMSIG(status)));
        else
            snprintf(message, sizeof(message), "the worker exited with status %d while running the case",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        runner_result_init(&result, s->cases[index], timed_out ? DMLCONF_STATUS_TIMEOUT : DMLCONF_STATUS_CRASH,
                           message);
        deliver_local(s, index, &result);
    }
    w->batch_count = 0;
    free(w->inbox);
    w->inbox = NULL;
    if (start_worker(s, w))
        w->pid = -1;
}

/* Reads what a worker has sent. Returns -1 when the worker is gone. */
static int read_from_worker(scheduler *s, worker *w)
{
    if (!w->ready)
    {
        worker_hello hello;
        if (read_all(w->from_worker, &hello, sizeof(hello)))
            return -1;
        if (!hello.ok)
        {
            snprintf(s->open_error, sizeof(s->open_error), "%s", hello.why);
            s->open_failures++;
            return -1;
        }
        w->ready = true;
        if (!s->have_info)
        {
            s->info = hello.info;
            s->have_info = true;
            dmlconf_feature_level level = s->schedule->config.level;
            if (s->schedule->on_info)
                s->schedule->on_info(s->schedule->context, &hello.info,
                                     level != DMLCONF_FEATURE_LEVEL_NONE ? level : hello.info.feature_level);
        }
        return 0;
    }
    /* Read whatever has arrived (poll() said something has), then deliver
     * every complete message: one system call for many results. */
    if (w->inbox_capacity - w->inbox_used < 65536)
    {
        size_t capacity = w->inbox_capacity ? w->inbox_capacity * 2 : 4 * 65536;
        char *grown = realloc(w->inbox, capacity);
        if (!grown)
            return -1;
        w->inbox = grown;
        w->inbox_capacity = capacity;
    }
    ssize_t n = read(w->from_worker, w->inbox + w->inbox_used, w->inbox_capacity - w->inbox_used);
    if (n < 0 && errno == EINTR)
        return 0;
    if (n <= 0)
        return -1;
    w->inbox_used += (size_t)n;

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
        char *text = NULL;
        if (length)
        {
            text = malloc((size_t)length + 1);
            if (!text)
                return -1;
            memcpy(text, w->inbox + at + header, length);
            text[length] = '\0';
        }
        uint32_t index = w->batch[w->received++];
        deliver(s, index, &result, text);
        free(text);
        at += header + length;
    }
    memmove(w->inbox, w->inbox + at, w->inbox_used - at);
    w->inbox_used -= at;
    if (w->received == w->batch_count)
        w->batch_count = 0;
    return 0;
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
    if (config.level == DMLCONF_FEATURE_LEVEL_NONE)
        config.level = backend.info.feature_level;
    if (schedule->on_info)
        schedule->on_info(schedule->context, &backend.info, config.level);
    dmlconf_case_result *results = malloc(BATCH_CASES * sizeof(*results));
    if (!results)
    {
        backend.backend->ops->close(backend.backend);
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    for (size_t first = 0; first < count; first += BATCH_CASES)
    {
        size_t n = count - first < BATCH_CASES ? count - first : BATCH_CASES;
        runner_execute(&backend, &config, cases + first, n, results);
        for (size_t i = 0; i < n; ++i)
        {
            char *encoded = schedule->on_finish ? schedule->on_finish(schedule->context, &results[i]) : NULL;
            schedule->on_result(schedule->context, first + i, &results[i], encoded);
            free(encoded);
        }
    }
    free(results);
    backend.backend->ops->close(backend.backend);
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
    s.worker_count = schedule->jobs;
    if (count && s.worker_count > count)
        s.worker_count = (unsigned)count;
    if (s.worker_count == 0)
        s.worker_count = 1;
    s.queue = malloc((count ? count : 1) * sizeof(*s.queue));
    s.single = calloc(count ? count : 1, sizeof(*s.single));
    s.workers = calloc(s.worker_count, sizeof(*s.workers));
    struct pollfd *fds = calloc(s.worker_count, sizeof(*fds));
    int result = -1;
    if (!s.queue || !s.single || !s.workers || !fds)
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

    struct sigaction ignore = {.sa_handler = SIG_IGN};
    struct sigaction old_pipe;
    sigaction(SIGPIPE, &ignore, &old_pipe);

    for (unsigned i = 0; i < s.worker_count; ++i)
    {
        s.workers[i].pid = -1;
        if (start_worker(&s, &s.workers[i]))
        {
            snprintf(why, why_size, "cannot start a worker process: %s", strerror(errno));
            goto stop;
        }
    }

    while (s.done < count || !s.have_info)
    {
        unsigned live = 0;
        for (unsigned i = 0; i < s.worker_count; ++i)
        {
            worker *w = &s.workers[i];
            if (w->pid > 0 && w->ready && w->batch_count == 0)
                send_batch(&s, w);
            fds[i].fd = w->pid > 0 ? w->from_worker : -1;
            fds[i].events = POLLIN;
            fds[i].revents = 0;
            live += w->pid > 0;
        }
        if (!live)
        {
            snprintf(why, why_size, "the %s backend is unavailable: %s", schedule->backend_ops->name,
                     s.open_error[0] ? s.open_error : "its workers could not start");
            goto stop;
        }
        if (s.open_failures >= s.worker_count && !s.have_info)
        {
            snprintf(why, why_size, "the %s backend is unavailable: %s", schedule->backend_ops->name, s.open_error);
            goto stop;
        }
        if (s.done >= count && s.have_info)
            break;
        int ready = poll(fds, s.worker_count, 200);
        if (ready < 0 && errno != EINTR)
        {
            snprintf(why, why_size, "poll: %s", strerror(errno));
            goto stop;
        }
        double now = seconds_now();
        for (unsigned i = 0; i < s.worker_count; ++i)
        {
            worker *w = &s.workers[i];
            if (w->pid <= 0)
                continue;
            if (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
            {
                if (read_from_worker(&s, w))
                {
                    if (!w->ready)
                    {
                        stop_worker(w, true); /* could not open its backend */
                        continue;
                    }
                    lose_worker(&s, w, false);
                    continue;
                }
            }
            bool busy = !w->ready || w->batch_count > 0;
            if (busy && w->deadline > 0.0 && now > w->deadline)
            {
                if (!w->ready)
                {
                    snprintf(s.open_error, sizeof(s.open_error), "opening it took longer than %.0f s", OPEN_TIMEOUT);
                    s.open_failures++;
                    stop_worker(w, true);
                    continue;
                }
                lose_worker(&s, w, true);
            }
        }
    }
    *info = s.info;
    result = 0;

stop:
    for (unsigned i = 0; i < s.worker_count; ++i)
    {
        worker *w = &s.workers[i];
        if (w->pid > 0)
        {
            uint32_t zero = 0;
            write_all(w->to_worker, &zero, sizeof(zero));
            stop_worker(w, w->batch_count > 0);
        }
    }
    sigaction(SIGPIPE, &old_pipe, NULL);
done:
    free(fds);
    free(s.workers);
    free(s.single);
    free(s.queue);
    return result;
}
