/*
 * Child processes on Windows: CreateProcess with anonymous pipes, a job
 * object per child so it dies with this process, and a reader thread per
 * pipe (anonymous pipes cannot be waited on, so each reader thread fills a
 * buffer and sets an event that WaitForMultipleObjects can wait on).
 */
#include <dmlconf/process.h>

#include "output_tail.h"

#include <dmlconf/clock.h>
#include <dmlconf/reserve.h>
#include <dmlconf/threads.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>

#define DEFAULT_TAIL_BYTES 4096u
#define WRITE_CHUNK        65536u
/* The exit status TerminateProcess gives a child this process kills. */
#define KILLED_STATUS 0xdead

/* A thread reading one pipe to its end. For stdout, what it reads waits in
 * `buffer` until taken; for stderr, it goes to a tail. */
typedef struct pipe_reader
{
    HANDLE pipe;
    HANDLE thread;
    HANDLE ready; /* manual-reset: set while data is waiting or at the end */
    CRITICAL_SECTION lock;
    char *buffer;
    size_t used, capacity;
    bool ended;
    output_tail *tail; /* stderr: append here instead */
} pipe_reader;

/* A thread writing to the child's input what dmlconf_process_write_some
 * hands it (anonymous pipes have no non-blocking writes): one chunk at a
 * time, so "taken" means handed over. Started on first use. */
typedef struct pipe_writer
{
    HANDLE thread;
    HANDLE work; /* auto-reset: a chunk is waiting, or the thread must stop */
    HANDLE idle; /* manual-reset: set while no chunk is waiting or being written */
    CRITICAL_SECTION lock;
    HANDLE pipe;
    char *chunk; /* WRITE_CHUNK bytes */
    size_t pending;
    bool failed;
    bool stopping;
} pipe_writer;

struct dmlconf_process
{
    HANDLE process;
    HANDLE job;
    DWORD pid;
    HANDLE input;
    pipe_writer writer; /* thread NULL until write_some is used */
    pipe_reader output;
    pipe_reader error; /* CAPTURE only */
    bool capture;
    output_tail tail;
    bool killed;
    bool ended;      /* dmlconf_process_end has run */
    DWORD exit_code; /* once ended */
};

static DWORD WINAPI read_pipe(LPVOID parameter)
{
    pipe_reader *r = parameter;
    char chunk[4096];
    for (;;)
    {
        DWORD n = 0;
        if (!ReadFile(r->pipe, chunk, sizeof(chunk), &n, NULL) || n == 0)
            break;
        if (r->tail)
        {
            output_tail_append(r->tail, chunk, n);
            continue;
        }
        EnterCriticalSection(&r->lock);
        if (!dmlconf_reserve((void **)&r->buffer, &r->capacity, r->used + n, 1))
        {
            LeaveCriticalSection(&r->lock);
            break;
        }
        memcpy(r->buffer + r->used, chunk, n);
        r->used += n;
        SetEvent(r->ready);
        LeaveCriticalSection(&r->lock);
    }
    EnterCriticalSection(&r->lock);
    r->ended = true;
    SetEvent(r->ready);
    LeaveCriticalSection(&r->lock);
    return 0;
}

static int reader_start(pipe_reader *r, HANDLE pipe, output_tail *tail)
{
    memset(r, 0, sizeof(*r));
    r->pipe = pipe;
    r->tail = tail;
    InitializeCriticalSection(&r->lock);
    r->ready = CreateEventA(NULL, TRUE, FALSE, NULL);
    if (!r->ready)
        return -1;
    r->thread = CreateThread(NULL, 0, read_pipe, r, 0, NULL);
    return r->thread ? 0 : -1;
}

/* Stops a reader once its pipe's writer is gone: waits for the end, then
 * (a grandchild may hold the pipe open) cancels the blocked read. */
static void reader_stop(pipe_reader *r)
{
    if (r->thread)
    {
        if (WaitForSingleObject(r->thread, 1000) == WAIT_TIMEOUT)
        {
            CancelSynchronousIo(r->thread);
            if (WaitForSingleObject(r->thread, 1000) == WAIT_TIMEOUT)
            {
                /* Stuck for good: leave the thread and what it uses. */
                return;
            }
        }
        CloseHandle(r->thread);
    }
    if (r->pipe)
        CloseHandle(r->pipe);
    if (r->ready)
        CloseHandle(r->ready);
    DeleteCriticalSection(&r->lock);
    free(r->buffer);
    memset(r, 0, sizeof(*r));
}

/* Appends one argument to a command line the way the C runtime parses it:
 * quotes when needed, backslashes doubled before a quote. */
static bool append_argument(char **line, size_t *used, size_t *capacity, const char *argument)
{
    size_t length = strlen(argument);
    if (!dmlconf_reserve((void **)line, capacity, *used + 2 * length + 4, 1))
        return false;
    char *out = *line + *used;
    if (*used)
        *out++ = ' ';
    bool quote = length == 0 || strpbrk(argument, " \t\n\v\"") != NULL;
    if (!quote)
    {
        memcpy(out, argument, length);
        out += length;
    }
    else
    {
        *out++ = '"';
        size_t backslashes = 0;
        for (const char *c = argument;; ++c)
        {
            if (*c == '\\')
            {
                ++backslashes;
                continue;
            }
            if (*c == '\0' || *c == '"')
            {
                /* Backslashes before a quote (or the closing one) double. */
                size_t count = *c ? backslashes * 2 + 1 : backslashes * 2;
                for (size_t i = 0; i < count; ++i)
                    *out++ = '\\';
                if (!*c)
                    break;
                *out++ = '"';
            }
            else
            {
                for (size_t i = 0; i < backslashes; ++i)
                    *out++ = '\\';
                *out++ = *c;
            }
            backslashes = 0;
        }
        *out++ = '"';
    }
    *out = '\0';
    *used = (size_t)(out - *line);
    return true;
}

static void set_why_error(char *why, size_t why_size, const char *what)
{
    snprintf(why, why_size, "%s (Windows error %lu)", what, (unsigned long)GetLastError());
}

static void close_handle(HANDLE *handle)
{
    if (*handle && *handle != INVALID_HANDLE_VALUE)
        CloseHandle(*handle);
    *handle = NULL;
}

int dmlconf_process_start(const dmlconf_process_options *options, dmlconf_process **out, char *why, size_t why_size)
{
    *out = NULL;
    if (options->function)
    {
        snprintf(why, why_size, "Windows cannot run a function of this program in a child process");
        return -1;
    }
    if (!options->argv || !options->argv[0])
    {
        snprintf(why, why_size, "no program to start");
        return -1;
    }
    char *line = NULL;
    size_t used = 0, capacity = 0;
    for (const char *const *argument = options->argv; *argument; ++argument)
    {
        if (!append_argument(&line, &used, &capacity, *argument))
        {
            free(line);
            snprintf(why, why_size, "out of memory");
            return -1;
        }
    }
    dmlconf_process *p = calloc(1, sizeof(*p));
    if (!p)
    {
        free(line);
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    SECURITY_ATTRIBUTES inherit = {sizeof(inherit), NULL, TRUE};
    HANDLE in_read = NULL, in_write = NULL, out_read = NULL, out_write = NULL, err_read = NULL, err_write = NULL;
    bool ok = CreatePipe(&in_read, &in_write, &inherit, 0) && CreatePipe(&out_read, &out_write, &inherit, 0) &&
              SetHandleInformation(in_write, HANDLE_FLAG_INHERIT, 0) &&
              SetHandleInformation(out_read, HANDLE_FLAG_INHERIT, 0);
    if (ok && options->stderr_mode == DMLCONF_CHILD_STDERR_CAPTURE)
    {
        ok = CreatePipe(&err_read, &err_write, &inherit, 0) && SetHandleInformation(err_read, HANDLE_FLAG_INHERIT, 0) &&
             output_tail_init(&p->tail, options->stderr_tail_bytes ? options->stderr_tail_bytes : DEFAULT_TAIL_BYTES) ==
                 0;
        p->capture = ok;
    }
    else if (ok && options->stderr_mode == DMLCONF_CHILD_STDERR_TO_OUTPUT)
    {
        /* The child's standard error is another handle to the output pipe. */
        ok = DuplicateHandle(GetCurrentProcess(), out_write, GetCurrentProcess(), &err_write, 0, TRUE,
                             DUPLICATE_SAME_ACCESS);
    }
    else if (ok && options->stderr_mode == DMLCONF_CHILD_STDERR_DISCARD)
    {
        err_write =
            CreateFileA("NUL", GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit, OPEN_EXISTING, 0, NULL);
        ok = err_write != INVALID_HANDLE_VALUE;
    }
    else if (ok)
    {
        err_write = GetStdHandle(STD_ERROR_HANDLE);
        /* The child gets its own inheritable copy of this stderr. */
        ok = DuplicateHandle(GetCurrentProcess(), err_write, GetCurrentProcess(), &err_write, 0, TRUE,
                             DUPLICATE_SAME_ACCESS);
    }
    if (!ok)
    {
        set_why_error(why, why_size, "cannot create the pipes to a child process");
        goto fail;
    }

    p->job = CreateJobObjectA(NULL, NULL);
    if (p->job)
    {
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits;
        memset(&limits, 0, sizeof(limits));
        limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        SetInformationJobObject(p->job, JobObjectExtendedLimitInformation, &limits, sizeof(limits));
    }

    STARTUPINFOA startup;
    memset(&startup, 0, sizeof(startup));
    startup.cb = sizeof(startup);
    startup.dwFlags = STARTF_USESTDHANDLES;
    startup.hStdInput = in_read;
    startup.hStdOutput = out_write;
    startup.hStdError = err_write;
    PROCESS_INFORMATION info;
    memset(&info, 0, sizeof(info));
    if (!CreateProcessA(NULL, line, NULL, NULL, TRUE, CREATE_SUSPENDED | CREATE_NO_WINDOW, NULL, NULL, &startup, &info))
    {
        char what[300];
        snprintf(what, sizeof(what), "cannot run %s", options->argv[0]);
        set_why_error(why, why_size, what);
        goto fail;
    }
    if (p->job)
        AssignProcessToJobObject(p->job, info.hProcess);
    ResumeThread(info.hThread);
    CloseHandle(info.hThread);
    p->process = info.hProcess;
    p->pid = info.dwProcessId;
    close_handle(&in_read);
    close_handle(&out_write);
    close_handle(&err_write);
    p->input = in_write;
    if (reader_start(&p->output, out_read, NULL) || (p->capture && reader_start(&p->error, err_read, &p->tail)))
    {
        set_why_error(why, why_size, "cannot start a thread reading the child's output");
        free(line);
        dmlconf_process_kill(p);
        dmlconf_process_finish(p, 0.0, NULL);
        return -1;
    }
    free(line);
    *out = p;
    return 0;

fail:
    close_handle(&in_read);
    close_handle(&in_write);
    close_handle(&out_read);
    close_handle(&out_write);
    close_handle(&err_read);
    close_handle(&err_write);
    close_handle(&p->job);
    output_tail_free(&p->tail);
    free(p);
    free(line);
    return -1;
}

static DWORD WINAPI write_pipe(LPVOID parameter)
{
    pipe_writer *w = parameter;
    for (;;)
    {
        WaitForSingleObject(w->work, INFINITE);
        EnterCriticalSection(&w->lock);
        bool stopping = w->stopping;
        size_t size = w->pending;
        LeaveCriticalSection(&w->lock);
        if (stopping)
            break;
        bool ok = true;
        for (size_t done = 0; ok && done < size;)
        {
            DWORD written = 0;
            ok = WriteFile(w->pipe, w->chunk + done, (DWORD)(size - done), &written, NULL) && written > 0;
            done += written;
        }
        EnterCriticalSection(&w->lock);
        w->pending = 0;
        w->failed = w->failed || !ok;
        SetEvent(w->idle);
        LeaveCriticalSection(&w->lock);
    }
    return 0;
}

static int writer_start(pipe_writer *w, HANDLE pipe)
{
    memset(w, 0, sizeof(*w));
    InitializeCriticalSection(&w->lock);
    w->pipe = pipe;
    w->chunk = malloc(WRITE_CHUNK);
    w->work = CreateEventA(NULL, FALSE, FALSE, NULL);
    w->idle = CreateEventA(NULL, TRUE, TRUE, NULL);
    if (w->chunk && w->work && w->idle)
        w->thread = CreateThread(NULL, 0, write_pipe, w, 0, NULL);
    if (w->thread)
        return 0;
    close_handle(&w->work);
    close_handle(&w->idle);
    free(w->chunk);
    DeleteCriticalSection(&w->lock);
    memset(w, 0, sizeof(*w));
    return -1;
}

/* Stops the writer thread before its pipe is closed: a write the child
 * does not take is cancelled. */
static void writer_stop(pipe_writer *w)
{
    if (!w->thread)
        return;
    EnterCriticalSection(&w->lock);
    w->stopping = true;
    SetEvent(w->work);
    LeaveCriticalSection(&w->lock);
    while (WaitForSingleObject(w->thread, 100) == WAIT_TIMEOUT)
        CancelSynchronousIo(w->thread);
    CloseHandle(w->thread);
    close_handle(&w->work);
    close_handle(&w->idle);
    free(w->chunk);
    DeleteCriticalSection(&w->lock);
    memset(w, 0, sizeof(*w));
}

/* True (and the failure forgotten) when the writer thread's last write
 * failed; waits for it to finish its chunk when `wait`. */
static bool writer_failed(pipe_writer *w, bool wait)
{
    if (!w->thread)
        return false;
    if (wait)
        WaitForSingleObject(w->idle, INFINITE);
    EnterCriticalSection(&w->lock);
    bool failed = w->failed;
    LeaveCriticalSection(&w->lock);
    return failed;
}

long dmlconf_process_write_some(dmlconf_process *process, const void *data, size_t size)
{
    pipe_writer *w = &process->writer;
    if (!process->input)
        return -1;
    if (!w->thread && writer_start(w, process->input))
        return -1;
    EnterCriticalSection(&w->lock);
    long taken = 0;
    if (w->failed)
        taken = -1;
    else if (w->pending == 0 && size > 0)
    {
        size_t n = size < WRITE_CHUNK ? size : WRITE_CHUNK;
        memcpy(w->chunk, data, n);
        w->pending = n;
        ResetEvent(w->idle);
        SetEvent(w->work);
        taken = (long)n;
    }
    LeaveCriticalSection(&w->lock);
    return taken;
}

int dmlconf_process_write(dmlconf_process *process, const void *data, size_t size)
{
    const char *bytes = data;
    if (!process->input || writer_failed(&process->writer, true))
        return -1;
    while (size)
    {
        DWORD chunk = size > 0x40000000u ? 0x40000000u : (DWORD)size;
        DWORD written = 0;
        if (!WriteFile(process->input, bytes, chunk, &written, NULL) || written == 0)
            return -1;
        bytes += written;
        size -= written;
    }
    return 0;
}

void dmlconf_process_close_input(dmlconf_process *process)
{
    writer_stop(&process->writer);
    close_handle(&process->input);
}

static bool reader_has_something(pipe_reader *r)
{
    EnterCriticalSection(&r->lock);
    bool something = r->used > 0 || r->ended;
    LeaveCriticalSection(&r->lock);
    return something;
}

int dmlconf_process_wait_readable(dmlconf_process *const *processes, size_t count, double timeout, bool *ready)
{
    HANDLE events[MAXIMUM_WAIT_OBJECTS];
    size_t event_count = 0;
    int found = 0;
    for (size_t i = 0; i < count; ++i)
    {
        ready[i] = processes[i] && processes[i]->output.ready && reader_has_something(&processes[i]->output);
        found += ready[i];
        if (processes[i] && processes[i]->output.ready && event_count < MAXIMUM_WAIT_OBJECTS)
            events[event_count++] = processes[i]->output.ready;
    }
    if (found || event_count == 0)
        return found;
    DWORD milliseconds = timeout < 0.0 ? INFINITE : (DWORD)(timeout * 1000.0 + 0.999);
    DWORD result = WaitForMultipleObjects((DWORD)event_count, events, FALSE, milliseconds);
    if (result == WAIT_FAILED)
        return -1;
    for (size_t i = 0; i < count; ++i)
    {
        ready[i] = processes[i] && processes[i]->output.ready && reader_has_something(&processes[i]->output);
        found += ready[i];
    }
    return found;
}

static bool writer_idle(pipe_writer *w)
{
    if (!w->thread)
        return true;
    EnterCriticalSection(&w->lock);
    bool idle = w->pending == 0 || w->failed;
    LeaveCriticalSection(&w->lock);
    return idle;
}

int dmlconf_process_wait_io(dmlconf_process *process, int events, double timeout)
{
    bool want_read = (events & DMLCONF_PROCESS_READABLE) != 0, want_write = (events & DMLCONF_PROCESS_WRITABLE) != 0;
    if (!want_read && !want_write)
        return 0;
    HANDLE handles[2];
    DWORD handle_count = 0;
    DWORD milliseconds = timeout < 0.0 ? INFINITE : (DWORD)(timeout * 1000.0 + 0.999);
    for (int round = 0; round < 2; ++round)
    {
        int ready = 0;
        if (want_read && (!process->output.ready || reader_has_something(&process->output)))
            ready |= DMLCONF_PROCESS_READABLE;
        if (want_write && (!process->input || writer_idle(&process->writer)))
            ready |= DMLCONF_PROCESS_WRITABLE;
        if (ready || round == 1)
            return ready;
        handle_count = 0;
        if (want_read)
            handles[handle_count++] = process->output.ready;
        if (want_write)
            handles[handle_count++] = process->writer.idle;
        if (WaitForMultipleObjects(handle_count, handles, FALSE, milliseconds) == WAIT_FAILED)
            return -1;
    }
    return 0;
}

long dmlconf_process_read(dmlconf_process *process, void *buffer, size_t size, double timeout)
{
    pipe_reader *r = &process->output;
    if (!r->ready)
        return 0;
    DWORD milliseconds = timeout < 0.0 ? INFINITE : (DWORD)(timeout * 1000.0 + 0.999);
    if (WaitForSingleObject(r->ready, milliseconds) == WAIT_TIMEOUT)
        return DMLCONF_PROCESS_TIMED_OUT;
    EnterCriticalSection(&r->lock);
    size_t n = r->used < size ? r->used : size;
    if (n > LONG_MAX)
        n = LONG_MAX;
    memcpy(buffer, r->buffer, n);
    memmove(r->buffer, r->buffer + n, r->used - n);
    r->used -= n;
    if (r->used == 0 && !r->ended)
        ResetEvent(r->ready);
    LeaveCriticalSection(&r->lock);
    return (long)n;
}

void dmlconf_process_kill(dmlconf_process *process)
{
    if (process->process && WaitForSingleObject(process->process, 0) == WAIT_TIMEOUT)
    {
        /* The child's whole job: it and everything it started. */
        if (!process->job || !TerminateJobObject(process->job, KILLED_STATUS))
            TerminateProcess(process->process, KILLED_STATUS);
        process->killed = true;
    }
}

bool dmlconf_process_request_stop(dmlconf_process *process, dmlconf_stop_request how)
{
    (void)how;
    /* CREATE_NO_WINDOW: the child has no console a Ctrl-C or Ctrl-Break
     * event could reach. */
    dmlconf_process_kill(process);
    return false;
}

void dmlconf_process_end(dmlconf_process *process, double grace, dmlconf_exit *exit_status)
{
    dmlconf_process *p = process;
    if (!p->ended)
    {
        writer_stop(&p->writer);
        close_handle(&p->input);
        p->exit_code = STILL_ACTIVE;
        if (p->process)
        {
            DWORD milliseconds = grace > 0.0 ? (DWORD)(grace * 1000.0 + 0.999) : 0;
            if (WaitForSingleObject(p->process, milliseconds) == WAIT_TIMEOUT)
            {
                dmlconf_process_kill(p);
                WaitForSingleObject(p->process, INFINITE);
            }
            GetExitCodeProcess(p->process, &p->exit_code);
        }
        /* What the child started and left behind ends with it. */
        if (p->job)
            TerminateJobObject(p->job, KILLED_STATUS);
        reader_stop(&p->output);
        if (p->capture)
            reader_stop(&p->error);
        p->ended = true;
    }
    if (exit_status)
    {
        memset(exit_status, 0, sizeof(*exit_status));
        exit_status->killed_by_us = p->killed;
        exit_status->code = p->exit_code;
        if (!p->process || p->exit_code == STILL_ACTIVE)
            exit_status->kind = DMLCONF_EXIT_RUNNING;
        else if (p->exit_code >= 0xc0000000u || p->exit_code == 0x80000003u)
            exit_status->kind = DMLCONF_EXIT_EXCEPTION;
        else
            exit_status->kind = DMLCONF_EXIT_STATUS;
    }
}

void dmlconf_process_finish(dmlconf_process *process, double grace, dmlconf_exit *exit_status)
{
    if (!process)
        return;
    dmlconf_process *p = process;
    dmlconf_process_end(p, grace, exit_status);
    close_handle(&p->process);
    close_handle(&p->job);
    /* A reader left behind (stuck) still uses the tail: keep it then. */
    if (!p->error.thread)
        output_tail_free(&p->tail);
    if (!p->output.thread && !p->error.thread)
        free(p);
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

static const char *exception_name(unsigned long code)
{
    switch (code)
    {
    case 0xc0000005u:
        return "access violation";
    case 0xc00000fdu:
        return "stack overflow";
    case 0xc0000094u:
        return "integer division by zero";
    case 0xc000001du:
        return "illegal instruction";
    case 0xc0000409u:
        return "fail-fast exception";
    case 0xc0000374u:
        return "heap corruption";
    case 0x80000003u:
        return "breakpoint";
    default:
        return "unhandled exception";
    }
}

void dmlconf_exit_describe(const dmlconf_exit *exit_status, char *text, size_t size)
{
    switch (exit_status->kind)
    {
    case DMLCONF_EXIT_STATUS:
        if (exit_status->killed_by_us)
            snprintf(text, size, "was terminated");
        else
            snprintf(text, size, "exited with status %lu", exit_status->code);
        return;
    case DMLCONF_EXIT_EXCEPTION:
        snprintf(text, size, "ended by exception 0x%08lx (%s)", exit_status->code, exception_name(exit_status->code));
        return;
    case DMLCONF_EXIT_SIGNAL:
    case DMLCONF_EXIT_RUNNING:
        break;
    }
    snprintf(text, size, "ended in a way that could not be determined");
}

bool dmlconf_exit_killed_from_outside(const dmlconf_exit *exit_status)
{
    /* Windows gives no sign of who terminated a process: TerminateProcess
     * from elsewhere looks like any exit status. */
    (void)exit_status;
    return false;
}

char *dmlconf_process_self_path(char *why, size_t why_size)
{
    DWORD size = MAX_PATH;
    for (int attempt = 0; attempt < 8; ++attempt, size *= 2)
    {
        char *path = malloc(size);
        if (!path)
            break;
        DWORD n = GetModuleFileNameA(NULL, path, size);
        if (n > 0 && n < size)
            return path;
        free(path);
        if (n == 0)
        {
            set_why_error(why, why_size, "cannot find this program's path");
            return NULL;
        }
    }
    snprintf(why, why_size, "cannot find this program's path: out of memory");
    return NULL;
}

int dmlconf_process_run_forked(int (*function)(void *context), void *context, double timeout, dmlconf_exit *ended,
                               char *why, size_t why_size)
{
    (void)function;
    (void)context;
    (void)timeout;
    memset(ended, 0, sizeof(*ended));
    snprintf(why, why_size, "Windows cannot run a call in a copy of this process");
    return -1;
}
