/*
 * Stopping a run from outside: SIGINT (Ctrl-C) and SIGTERM (a CI system's
 * timeout) set a flag that the scheduler polls; the run then stops its
 * workers, and its reports say "interrupted" with what finished. A second
 * signal of the same kind, a second or more after the first, ends the
 * process at once (the default action), for a run that does not stop; one
 * that comes with the first (sent to the process and to its group) is the
 * same request.
 *
 * A signal handler can only set a flag of static storage: this is the one
 * piece of global state of the runner, and nothing else reads or writes it.
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include <dmlconf/runner.h>

#include <signal.h>
#include <string.h>
#include <time.h>

#if defined(_WIN32)
#include <windows.h>
#endif

static volatile sig_atomic_t interrupt_signal;

#if defined(_WIN32)
static void on_signal(int number)
{
    interrupt_signal = number;
    /* The next one is not caught. */
    signal(number, SIG_DFL);
}
#else
/* When the first SIGINT (0) and SIGTERM (1) came; seen[k] once one did. */
static volatile sig_atomic_t seen[2];
static struct timespec first_at[2];

/* A signal delivered twice at once is one request: `timeout` and CI
 * runners send it to the process and to its process group. */
#define SAME_REQUEST_SECONDS 1

static void on_signal(int number)
{
    int k = number == SIGINT ? 0 : 1;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (!seen[k])
    {
        seen[k] = 1;
        first_at[k] = now;
        interrupt_signal = number;
        return;
    }
    time_t seconds = now.tv_sec - first_at[k].tv_sec;
    if (seconds < SAME_REQUEST_SECONDS ||
        (seconds == SAME_REQUEST_SECONDS && now.tv_nsec < first_at[k].tv_nsec))
        return;
    /* A second request: the default action, once this handler returns
     * (the signal is blocked while it runs). */
    signal(number, SIG_DFL);
    raise(number);
}
#endif

#if defined(_WIN32)
/* Ctrl-C, Ctrl-Break and the console closing, on Windows. */
static BOOL WINAPI on_console_event(DWORD event)
{
    if (event == CTRL_C_EVENT || event == CTRL_BREAK_EVENT || event == CTRL_CLOSE_EVENT)
    {
        interrupt_signal = event == CTRL_C_EVENT ? SIGINT : SIGTERM;
        return TRUE;
    }
    return FALSE;
}
#endif

void runner_interrupt_install(void)
{
    interrupt_signal = 0;
#if !defined(_WIN32)
    seen[0] = seen[1] = 0;
#endif
#if defined(_WIN32)
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    SetConsoleCtrlHandler(on_console_event, TRUE);
#else
    /* No SA_RESTART: a wait in the scheduler returns, and sees the flag. */
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
#endif
}

void runner_interrupt_restore(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
#if defined(_WIN32)
    SetConsoleCtrlHandler(on_console_event, FALSE);
#endif
}

const volatile sig_atomic_t *runner_interrupt_flag(void)
{
    return &interrupt_signal;
}

const char *runner_interrupt_name(void)
{
    switch (interrupt_signal)
    {
    case 0:
        return NULL;
    case SIGINT:
        return "SIGINT";
    case SIGTERM:
        return "SIGTERM";
    default:
        return "a signal";
    }
}
