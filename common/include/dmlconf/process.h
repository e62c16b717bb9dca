/*
 * Child processes that talk over pipes: dmlconf's own worker processes and
 * the implementations under test behind the process protocol. The child's
 * standard input and output are pipes to this process; its standard error
 * is inherited, discarded, or captured (only its last bytes are kept, read
 * continuously so that a child flooding it never blocks).
 *
 * POSIX and Windows behave alike, except that only POSIX can start a child
 * that runs a function of this program (fork without exec). A child ends
 * when this process ends, even when this process is killed (Linux: parent
 * death signal; Windows: a job object that kills on close). Writing to a
 * child that has gone returns -1 rather than raising SIGPIPE only when the
 * caller ignores SIGPIPE (the scheduler and the process backend do).
 *
 * A dmlconf_process belongs to the thread that started it.
 */
#ifndef DMLCONF_PROCESS_H
#define DMLCONF_PROCESS_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dmlconf_process dmlconf_process;

typedef enum dmlconf_child_stderr
{
    DMLCONF_CHILD_STDERR_INHERIT,   /* the child writes to this process's stderr */
    DMLCONF_CHILD_STDERR_CAPTURE,   /* kept in memory: the last stderr_tail_bytes */
    DMLCONF_CHILD_STDERR_DISCARD,   /* thrown away */
    DMLCONF_CHILD_STDERR_TO_OUTPUT, /* into the same pipe as its standard output, in the order written */
} dmlconf_child_stderr;

typedef struct dmlconf_process_options
{
    /* The program and its arguments, NULL-terminated; argv[0] is searched
     * in PATH when it names no folder. No shell is involved. */
    const char *const *argv;
    /* POSIX only, instead of argv: run `function(context, input_fd,
     * output_fd)` in a forked copy of this process; its return value is the
     * child's exit status. */
    int (*function)(void *context, int input_fd, int output_fd);
    void *context;
    dmlconf_child_stderr stderr_mode;
    size_t stderr_tail_bytes; /* CAPTURE: bytes kept (0: 4096) */
} dmlconf_process_options;

/* Starts a child. Returns 0 with *out set, or -1 with a sentence in `why`
 * (the program cannot be found or started, no function support on this
 * platform, out of resources). */
int dmlconf_process_start(const dmlconf_process_options *options, dmlconf_process **out, char *why, size_t why_size);

/* Writes all `size` bytes to the child's standard input, blocking until
 * they are taken. Returns 0, or -1 when the child closed it or died. */
int dmlconf_process_write(dmlconf_process *process, const void *data, size_t size);

/* Writes as many of `size` bytes to the child's standard input as it
 * takes at once, without blocking: a conversation with a child that may
 * answer while it is still being sent data (and stops reading until its
 * answer is read) cannot deadlock. Returns the number of bytes taken (0
 * when the input can take none now), or -1 when the child closed its input
 * or died. On Windows the bytes (up to 64 KiB at a time) are handed to a
 * thread that writes them; they count as taken once handed over, and a
 * failure of that write is returned by the next call. After this function,
 * dmlconf_process_write still blocks until all its bytes are taken. */
long dmlconf_process_write_some(dmlconf_process *process, const void *data, size_t size);

/* Closes the child's standard input (it reads end of file). */
void dmlconf_process_close_input(dmlconf_process *process);

/* Waits until at least one of `count` children has output to read (or has
 * closed its output), at most `timeout` seconds (< 0: without limit).
 * ready[i] is set for each such child; NULL entries are skipped. Returns
 * the number ready (0 when the time ran out), or -1 on a system error. */
int dmlconf_process_wait_readable(dmlconf_process *const *processes, size_t count, double timeout, bool *ready);

/* What dmlconf_process_wait_io waits for, and returns. */
enum
{
    DMLCONF_PROCESS_READABLE = 1, /* output to read, or the output closed */
    DMLCONF_PROCESS_WRITABLE = 2, /* the input takes bytes, or is closed (a write then fails) */
};

/* Waits at most `timeout` seconds (< 0: without limit) until one of the
 * `events` asked for (DMLCONF_PROCESS_READABLE, DMLCONF_PROCESS_WRITABLE
 * or both) holds for the child. Returns the events that hold (0 when the
 * time ran out; 0 at once when `events` asks for nothing), or -1 on a
 * system error. */
int dmlconf_process_wait_io(dmlconf_process *process, int events, double timeout);

/* What dmlconf_process_read returns when nothing came in time. */
#define DMLCONF_PROCESS_TIMED_OUT (-2L)

/* Reads what the child has written to its standard output, up to `size`
 * bytes, waiting at most `timeout` seconds (< 0: without limit) for the
 * first byte. Returns the number of bytes read, 0 at end of output (the
 * child closed it or died), DMLCONF_PROCESS_TIMED_OUT, or -1 on error. */
long dmlconf_process_read(dmlconf_process *process, void *buffer, size_t size, double timeout);

/* How a child ended. */
typedef enum dmlconf_exit_kind
{
    DMLCONF_EXIT_RUNNING,   /* not ended (yet) */
    DMLCONF_EXIT_STATUS,    /* exited with a status */
    DMLCONF_EXIT_SIGNAL,    /* POSIX: ended by a signal */
    DMLCONF_EXIT_EXCEPTION, /* Windows: ended by an unhandled exception (a status of 0xC0000000 or above) */
} dmlconf_exit_kind;

typedef struct dmlconf_exit
{
    dmlconf_exit_kind kind;
    unsigned long code; /* the status, the signal or the exception code */
    bool killed_by_us;  /* dmlconf_process_kill ended it */
} dmlconf_exit;

/* Describes an exit in words: "exited with status 3", "was killed by
 * signal 9 (Killed)", "ended by exception 0xc0000005 (access violation)".
 * Writes into text (size bytes). */
void dmlconf_exit_describe(const dmlconf_exit *exit_status, char *text, size_t size);

/* True for an end that came from outside the child's own code: killed by
 * SIGKILL, SIGTERM, SIGINT or SIGHUP that this process did not send. */
bool dmlconf_exit_killed_from_outside(const dmlconf_exit *exit_status);

/* Ends the child at once (SIGKILL; TerminateProcess). */
void dmlconf_process_kill(dmlconf_process *process);

/* How dmlconf_process_request_stop asks a child to stop. */
typedef enum dmlconf_stop_request
{
    DMLCONF_STOP_INTERRUPT, /* as Ctrl-C does: SIGINT */
    DMLCONF_STOP_TERMINATE, /* as a CI system's timeout does: SIGTERM */
} dmlconf_stop_request;

/* Asks the child and everything in its process group to stop, as a signal
 * from outside would (SIGINT or SIGTERM to the group), and returns at once:
 * a child that catches it can finish what it writes, and
 * dmlconf_process_finish's grace bounds how long it is waited for. Returns
 * true when the child was asked; false when it has been reaped already, or
 * on Windows, where a child started without a console receives no console
 * event: there it is ended at once, as dmlconf_process_kill does. */
bool dmlconf_process_request_stop(dmlconf_process *process, dmlconf_stop_request how);

/* Closes the child's input, waits up to `grace` seconds for it to exit
 * (then kills it), collects how it ended into *exit_status (may be NULL),
 * and frees everything. NULL is ignored. */
void dmlconf_process_finish(dmlconf_process *process, double grace, dmlconf_exit *exit_status);

/* Ends the child as dmlconf_process_finish does (closes its input, waits up
 * to `grace` seconds, then kills it) and reads its standard error to the
 * end, but frees nothing: afterwards dmlconf_process_stderr_tail holds all
 * the child's last words, and dmlconf_process_finish frees the process
 * (its exit_status then says the same). *exit_status may be NULL. */
void dmlconf_process_end(dmlconf_process *process, double grace, dmlconf_exit *exit_status);

/* The captured end of the child's standard error (CAPTURE mode; "" in the
 * others), as a new string the caller frees, or NULL when memory runs out.
 * Bytes that are not printable text are shown as \xNN. */
char *dmlconf_process_stderr_tail(dmlconf_process *process);

/* Runs function(context) in a forked copy of this process and waits up to
 * `timeout` seconds for it (then kills it): a call into code dmlconf does
 * not trust (a plugin's entry point, its open) that crashes or never
 * returns costs only the copy. Returns 0 with how the copy ended in *ended
 * (the function's return value as its exit status), or -1 with why when no
 * copy could be started, and always on Windows, which cannot fork (the
 * caller then decides whether to run the call itself). */
int dmlconf_process_run_forked(int (*function)(void *context), void *context, double timeout, dmlconf_exit *ended,
                               char *why, size_t why_size);

/* The child's process id. */
unsigned long dmlconf_process_id(const dmlconf_process *process);

/* The path of this program's executable, as a new string the caller frees,
 * or NULL (why set) when the system cannot tell. */
char *dmlconf_process_self_path(char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_PROCESS_H */
