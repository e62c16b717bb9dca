/*
 * Child processes on POSIX: fork (and exec), pipes, poll.
 */
#if !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* pipe2 */
#endif

#include <dmlconf/process.h>

#include "output_tail.h"

#include <dmlconf/clock.h>
#include <dmlconf/threads.h>
#include <dmlconf/why.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/prctl.h>
#endif

#define DEFAULT_TAIL_BYTES 4096u

struct dmlconf_process
{
    pid_t pid;
    int input;              /* write end of the child's stdin; -1 when closed */
    int output;             /* read end of the child's stdout */
    int error;              /* read end of the child's stderr (CAPTURE), else -1 */
    bool input_nonblocking; /* dmlconf_process_write_some made `input` non-blocking */
    bool killed;
    bool group_ended; /* the rest of its process group was killed */
    bool reaped;
    bool ended; /* dmlconf_process_end has run */
    int wait_status;
    /* CAPTURE: a thread drains stderr into the tail until end of file or
     * until told to stop. */
    output_tail tail;
    dmlconf_thread drain;
    bool draining;
    atomic_bool stop_draining;
    atomic_bool drained; /* the thread has read stderr to its end */
};

static void set_why(char *why, size_t why_size, const char *what, int error)
{
    dmlconf_set_why(why, why_size, "%s: %s", what, strerror(error));
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static int make_pipe(int fds[2])
{
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds))
        return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

/* Writes all bytes to a descriptor; -1 on error (EINTR retried). A
 * non-blocking descriptor that is full is waited on. */
static int write_fully(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size)
    {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        {
            struct pollfd room = {fd, POLLOUT, 0};
            if (poll(&room, 1, -1) < 0 && errno != EINTR)
                return -1;
            continue;
        }
        if (n <= 0)
            return -1;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

static int drain_stderr(void *argument)
{
    dmlconf_process *p = argument;
    char buffer[4096];
    while (!atomic_load(&p->stop_draining))
    {
        struct pollfd fd = {p->error, POLLIN, 0};
        int ready = poll(&fd, 1, 100);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready <= 0)
            continue;
        ssize_t n = read(p->error, buffer, sizeof(buffer));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        output_tail_append(&p->tail, buffer, (size_t)n);
    }
    atomic_store(&p->drained, true);
    return 0;
}

/* In the child, before running anything: end with the parent, and undo
 * what the parent set that a child must not inherit. */
static void prepare_child(pid_t parent, bool exec_follows)
{
#if defined(__linux__)
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent)
        _exit(127); /* the parent is already gone */
    /* A process group of its own: whatever it starts (a wrapper script's
     * program, a helper it forks) is ended with it. */
    setpgid(0, 0);
    if (exec_follows)
    {
        /* Ignored signals stay ignored across exec: give the program the
         * defaults it expects. */
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
    }
}

/* The child's side of an exec: wire the pipes to 0, 1 and 2 and exec. On
 * failure, the errno goes to the parent through `report` (close-on-exec,
 * so a successful exec closes it with nothing written). */
static void exec_child(const dmlconf_process_options *options, int in_read, int out_write, int err_write, int report)
{
    if (dup2(in_read, 0) < 0 || dup2(out_write, 1) < 0 || (err_write >= 0 && dup2(err_write, 2) < 0) ||
        (options->stderr_mode == DMLCONF_CHILD_STDERR_TO_OUTPUT && dup2(out_write, 2) < 0))
    {
        int error = errno;
        (void)write_fully(report, &error, sizeof(error));
        _exit(127);
    }
    execvp(options->argv[0], (char *const *)options->argv);
    int error = errno;
    (void)write_fully(report, &error, sizeof(error));
    _exit(127);
}

int dmlconf_process_start(const dmlconf_process_options *options, dmlconf_process **out, char *why, size_t why_size)
{
    *out = NULL;
    if (!options->function && (!options->argv || !options->argv[0]))
    {
        snprintf(why, why_size, "no program to start");
        return -1;
    }
    dmlconf_process *p = calloc(1, sizeof(*p));
    if (!p)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    p->pid = -1;
    p->input = p->output = p->error = -1;
    int in[2] = {-1, -1}, outp[2] = {-1, -1}, err[2] = {-1, -1}, report[2] = {-1, -1};
    if (make_pipe(in) || make_pipe(outp) || (!options->function && make_pipe(report)))
    {
        set_why(why, why_size, "cannot create a pipe", errno);
        goto fail;
    }
    if (options->stderr_mode == DMLCONF_CHILD_STDERR_CAPTURE)
    {
        if (make_pipe(err) ||
            output_tail_init(&p->tail, options->stderr_tail_bytes ? options->stderr_tail_bytes : DEFAULT_TAIL_BYTES))
        {
            set_why(why, why_size, "cannot capture the child's standard error", errno ? errno : ENOMEM);
            goto fail;
        }
    }
    else if (options->stderr_mode == DMLCONF_CHILD_STDERR_DISCARD)
    {
        err[1] = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (err[1] < 0)
        {
            set_why(why, why_size, "cannot open /dev/null", errno);
            goto fail;
        }
    }

    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
    {
        set_why(why, why_size, "cannot start a process", errno);
        goto fail;
    }
    if (pid == 0)
    {
        prepare_child(parent, options->function == NULL);
        close(in[1]);
        close(outp[0]);
        if (err[0] >= 0)
            close(err[0]);
        if (options->function)
        {
            if (err[1] >= 0)
                dup2(err[1], 2);
            else if (options->stderr_mode == DMLCONF_CHILD_STDERR_TO_OUTPUT)
                dup2(outp[1], 2);
            _exit(options->function(options->context, in[0], outp[1]));
        }
        close(report[0]);
        exec_child(options, in[0], outp[1], err[1], report[1]);
    }
    p->pid = pid;
    /* Also here, so that the group exists before anything signals it. */
    setpgid(pid, pid);
    close_fd(&in[0]);
    close_fd(&outp[1]);
    close_fd(&err[1]);
    p->input = in[1];
    p->output = outp[0];
    p->error = err[0];
    in[1] = outp[0] = err[0] = -1;
    if (!options->function)
    {
        /* Did exec work? The report pipe closes on success. */
        close_fd(&report[1]);
        int error = 0;
        ssize_t n;
        while ((n = read(report[0], &error, sizeof(error))) < 0 && errno == EINTR)
            ;
        close_fd(&report[0]);
        if (n == (ssize_t)sizeof(error))
        {
            char what[300];
            snprintf(what, sizeof(what), "cannot run %s", options->argv[0]);
            set_why(why, why_size, what, error);
            dmlconf_process_finish(p, 0.0, NULL);
            return -1;
        }
    }
    if (p->error >= 0)
    {
        atomic_init(&p->stop_draining, false);
        atomic_init(&p->drained, false);
        if (dmlconf_thread_start(&p->drain, drain_stderr, p) == 0)
            p->draining = true;
    }
    *out = p;
    return 0;

fail:
    for (int i = 0; i < 2; ++i)
    {
        close_fd(&in[i]);
        close_fd(&outp[i]);
        close_fd(&err[i]);
        close_fd(&report[i]);
    }
    output_tail_free(&p->tail);
    free(p);
    return -1;
}

int dmlconf_process_write(dmlconf_process *process, const void *data, size_t size)
{
    if (process->input < 0)
        return -1;
    return write_fully(process->input, data, size);
}

long dmlconf_process_write_some(dmlconf_process *process, const void *data, size_t size)
{
    if (process->input < 0)
        return -1;
    if (!process->input_nonblocking)
    {
        int flags = fcntl(process->input, F_GETFL);
        if (flags < 0 || fcntl(process->input, F_SETFL, flags | O_NONBLOCK) < 0)
            return -1;
        process->input_nonblocking = true;
    }
    if (size > (size_t)LONG_MAX)
        size = (size_t)LONG_MAX;
    for (;;)
    {
        ssize_t n = write(process->input, data, size);
        if (n >= 0)
            return (long)n;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return 0;
        if (errno != EINTR)
            return -1;
    }
}

void dmlconf_process_close_input(dmlconf_process *process)
{
    close_fd(&process->input);
}

/* Milliseconds for poll(): -1 waits without limit. */
static int poll_milliseconds(double timeout)
{
    if (timeout < 0.0)
        return -1;
    double ms = timeout * 1000.0;
    return ms > (double)INT32_MAX ? INT32_MAX : (int)(ms + 0.999);
}

int dmlconf_process_wait_readable(dmlconf_process *const *processes, size_t count, double timeout, bool *ready)
{
    struct pollfd fixed[64];
    struct pollfd *fds = count <= 64 ? fixed : calloc(count, sizeof(*fds));
    if (!fds)
        return -1;
    for (size_t i = 0; i < count; ++i)
    {
        fds[i].fd = processes[i] ? processes[i]->output : -1;
        fds[i].events = POLLIN;
        fds[i].revents = 0;
        ready[i] = false;
    }
    double deadline = timeout >= 0.0 ? dmlconf_clock_seconds() + timeout : 0.0;
    int result;
    for (;;)
    {
        double left = timeout >= 0.0 ? deadline - dmlconf_clock_seconds() : -1.0;
        result = poll(fds, (nfds_t)count, poll_milliseconds(timeout >= 0.0 && left < 0.0 ? 0.0 : left));
        if (result >= 0 || errno != EINTR)
            break;
    }
    if (result > 0)
    {
        result = 0;
        for (size_t i = 0; i < count; ++i)
        {
            ready[i] = fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL));
            result += ready[i];
        }
    }
    if (fds != fixed)
        free(fds);
    return result;
}

int dmlconf_process_wait_io(dmlconf_process *process, int events, double timeout)
{
    if (!(events & (DMLCONF_PROCESS_READABLE | DMLCONF_PROCESS_WRITABLE)))
        return 0;
    /* A closed end is ready at once: its read or write says so. */
    int ready = 0;
    if ((events & DMLCONF_PROCESS_READABLE) && process->output < 0)
        ready |= DMLCONF_PROCESS_READABLE;
    if ((events & DMLCONF_PROCESS_WRITABLE) && process->input < 0)
        ready |= DMLCONF_PROCESS_WRITABLE;
    if (ready)
        return ready;
    struct pollfd fds[2] = {{-1, POLLIN, 0}, {-1, POLLOUT, 0}};
    if (events & DMLCONF_PROCESS_READABLE)
        fds[0].fd = process->output;
    if (events & DMLCONF_PROCESS_WRITABLE)
        fds[1].fd = process->input;
    double deadline = timeout >= 0.0 ? dmlconf_clock_seconds() + timeout : 0.0;
    int result;
    for (;;)
    {
        double left = timeout >= 0.0 ? deadline - dmlconf_clock_seconds() : -1.0;
        result = poll(fds, 2, poll_milliseconds(timeout >= 0.0 && left < 0.0 ? 0.0 : left));
        if (result >= 0 || errno != EINTR)
            break;
    }
    if (result < 0)
        return -1;
    if (fds[0].fd >= 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)))
        ready |= DMLCONF_PROCESS_READABLE;
    if (fds[1].fd >= 0 && (fds[1].revents & (POLLOUT | POLLHUP | POLLERR | POLLNVAL)))
        ready |= DMLCONF_PROCESS_WRITABLE;
    return ready;
}

long dmlconf_process_read(dmlconf_process *process, void *buffer, size_t size, double timeout)
{
    if (process->output < 0)
        return 0;
    if (timeout >= 0.0)
    {
        bool ready = false;
        int n = dmlconf_process_wait_readable(&process, 1, timeout, &ready);
        if (n < 0)
            return -1;
        if (n == 0)
            return DMLCONF_PROCESS_TIMED_OUT;
    }
    for (;;)
    {
        ssize_t n = read(process->output, buffer, size);
        if (n >= 0)
            return (long)n;
        if (errno != EINTR)
            return -1;
    }
}

void dmlconf_process_kill(dmlconf_process *process)
{
    if (process->pid > 0 && !process->reaped)
    {
        /* The child's whole group: it and everything it started. */
        if (kill(-process->pid, SIGKILL) != 0)
            kill(process->pid, SIGKILL);
        process->killed = true;
    }
}

bool dmlconf_process_request_stop(dmlconf_process *process, dmlconf_stop_request how)
{
    if (process->pid <= 0 || process->reaped)
        return false;
    int number = how == DMLCONF_STOP_INTERRUPT ? SIGINT : SIGTERM;
    /* The group it leads (prepare_child and dmlconf_process_start made
     * it); the child alone when the group is gone. */
    if (kill(-process->pid, number) != 0 && kill(process->pid, number) != 0)
        return false;
    return true;
}

/* Ends what is left of an ended child's process group: programs it started
 * that outlived it (the program a wrapper script ran without exec, a
 * helper it forked) would otherwise keep its pipes and whatever they
 * inherited open. */
static void end_group(dmlconf_process *p)
{
    if (p->pid > 0 && !p->group_ended)
    {
        kill(-p->pid, SIGKILL);
        p->group_ended = true;
    }
}

/* Reaps the child if it has ended (or waits when `block`). True once
 * reaped. */
static bool reap(dmlconf_process *p, bool block)
{
    if (p->reaped || p->pid <= 0)
        return true;
    for (;;)
    {
        pid_t r = waitpid(p->pid, &p->wait_status, block ? 0 : WNOHANG);
        if (r == p->pid)
        {
            p->reaped = true;
            return true;
        }
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
        {
            /* Not our child any more (SIGCHLD ignored elsewhere): count it
             * as gone, with an unknown status. */
            p->reaped = true;
            p->wait_status = -1;
            return true;
        }
        return false;
    }
}

void dmlconf_process_end(dmlconf_process *process, double grace, dmlconf_exit *exit_status)
{
    dmlconf_process *p = process;
    if (!p->ended)
    {
        close_fd(&p->input);
        double deadline = dmlconf_clock_seconds() + (grace > 0.0 ? grace : 0.0);
        while (!reap(p, false))
        {
            if (dmlconf_clock_seconds() >= deadline)
            {
                dmlconf_process_kill(p);
                reap(p, true);
                break;
            }
            dmlconf_clock_sleep(0.002);
        }
        end_group(p);
        close_fd(&p->output);
        if (p->draining)
        {
            /* The child is gone; what it wrote is in the pipe, and the
             * thread reads it to the end of file, unless a grandchild keeps
             * the pipe open (then it is stopped after a second). */
            double until = dmlconf_clock_seconds() + 1.0;
            while (!atomic_load(&p->drained) && dmlconf_clock_seconds() < until)
                dmlconf_clock_sleep(0.002);
            atomic_store(&p->stop_draining, true);
            dmlconf_thread_join(&p->drain);
            p->draining = false;
        }
        close_fd(&p->error);
        p->ended = true;
    }
    if (exit_status)
    {
        memset(exit_status, 0, sizeof(*exit_status));
        exit_status->killed_by_us = p->killed;
        if (p->wait_status == -1)
            exit_status->kind = DMLCONF_EXIT_RUNNING;
        else if (WIFSIGNALED(p->wait_status))
        {
            exit_status->kind = DMLCONF_EXIT_SIGNAL;
            exit_status->code = (unsigned long)WTERMSIG(p->wait_status);
        }
        else
        {
            exit_status->kind = DMLCONF_EXIT_STATUS;
            exit_status->code = (unsigned long)WEXITSTATUS(p->wait_status);
        }
    }
}

void dmlconf_process_finish(dmlconf_process *process, double grace, dmlconf_exit *exit_status)
{
    if (!process)
        return;
    dmlconf_process_end(process, grace, exit_status);
    output_tail_free(&process->tail);
    free(process);
}

char *dmlconf_process_stderr_tail(dmlconf_process *process)
{
    if (!process->tail.ring)
    {
        char *empty = malloc(1);
        if (empty)
            empty[0] = '\0';
        return empty;
    }
    return output_tail_text(&process->tail);
}

unsigned long dmlconf_process_id(const dmlconf_process *process)
{
    return (unsigned long)process->pid;
}

void dmlconf_exit_describe(const dmlconf_exit *exit_status, char *text, size_t size)
{
    switch (exit_status->kind)
    {
    case DMLCONF_EXIT_STATUS:
        snprintf(text, size, "exited with status %lu", exit_status->code);
        return;
    case DMLCONF_EXIT_SIGNAL:
        snprintf(text, size, "was killed by signal %lu (%s)", exit_status->code, strsignal((int)exit_status->code));
        return;
    case DMLCONF_EXIT_EXCEPTION:
        snprintf(text, size, "ended by exception 0x%08lx", exit_status->code);
        return;
    case DMLCONF_EXIT_RUNNING:
        break;
    }
    snprintf(text, size, "ended in a way that could not be determined");
}

bool dmlconf_exit_killed_from_outside(const dmlconf_exit *exit_status)
{
    if (exit_status->killed_by_us || exit_status->kind != DMLCONF_EXIT_SIGNAL)
        return false;
    int signal_number = (int)exit_status->code;
    return signal_number == SIGKILL || signal_number == SIGTERM || signal_number == SIGINT || signal_number == SIGHUP;
}

char *dmlconf_process_self_path(char *why, size_t why_size)
{
    size_t size = 256;
    for (;;)
    {
        char *path = malloc(size);
        if (!path)
        {
            snprintf(why, why_size, "out of memory");
            return NULL;
        }
        ssize_t n = readlink("/proc/self/exe", path, size);
        if (n < 0)
        {
            set_why(why, why_size, "cannot read /proc/self/exe", errno);
            free(path);
            return NULL;
        }
        if ((size_t)n < size)
        {
            path[n] = '\0';
            return path;
        }
        free(path);
        size *= 2;
    }
}

typedef struct forked_call
{
    int (*function)(void *context);
    void *context;
} forked_call;

static int run_forked_call(void *context, int input_fd, int output_fd)
{
    (void)input_fd;
    (void)output_fd;
    const forked_call *call = context;
    /* The copy exists to show how the call ends: a fault ends it with its
     * own signal, not through a handler this process installed (a
     * sanitizer's would turn every crash into an abort). */
    static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); ++i)
        signal(faults[i], SIG_DFL);
    return call->function(call->context);
}

int dmlconf_process_run_forked(int (*function)(void *context), void *context, double timeout, dmlconf_exit *ended,
                               char *why, size_t why_size)
{
    forked_call call = {function, context};
    dmlconf_process_options options = {
        .function = run_forked_call,
        .context = &call,
        .stderr_mode = DMLCONF_CHILD_STDERR_INHERIT,
    };
    dmlconf_process *process = NULL;
    if (dmlconf_process_start(&options, &process, why, why_size))
        return -1;
    /* Its input closes at once: the copy reads nothing, and ends when its
     * call returns. */
    dmlconf_process_finish(process, timeout, ended);
    return 0;
}
