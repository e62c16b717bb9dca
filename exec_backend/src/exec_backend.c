/*
 * The exec backend: jobs sent to an adapter program by the process
 * protocol. This file holds the backend's table and what it does when an
 * adapter misbehaves; the adapter's life is in adapter.c, one batch's
 * traffic in conversation.c.
 *
 * An adapter answers a batch's jobs in order. When it stops short, the
 * jobs it answered keep their answers, the job it was answering is FAILED
 * with what happened and the adapter's last words, and a fresh adapter
 * takes the jobs after it. An adapter whose output simply ended (it exited
 * or crashed) with several jobs unanswered may have read ahead: those jobs
 * are then sent one at a time, so the job that ends it is the one blamed.
 * A hung adapter is blamed on its first unanswered job at once (a second
 * wait could outlast the scheduler's own deadline).
 */
#include <dmlconf/exec_backend.h>

#include "adapter.h"
#include "conversation.h"
#include "handshake.h"
#include "wire.h"

#include <dmlconf/text.h>
#include <dmlconf/why.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
#include <signal.h>
#endif

typedef struct exec_backend
{
    dmlconf_backend base;
    char **argv;              /* the adapter's command (copies), NULL-terminated */
    double timeout;           /* seconds without progress; 0: none */
    dmlconf_process *adapter; /* NULL when none runs */
    exec_handshake handshake; /* what the first adapter said */
} exec_backend;

/* Writing to an adapter that has gone must fail, not end dmlconf. */
static void ignore_broken_pipes(void)
{
#if !defined(_WIN32)
    signal(SIGPIPE, SIG_IGN);
#endif
}

static void free_argv(char **argv)
{
    for (size_t i = 0; argv && argv[i]; ++i)
        free(argv[i]);
    free(argv);
}

static char **copy_argv(const char *const *arguments)
{
    size_t count = 0;
    while (arguments[count])
        ++count;
    char **argv = calloc(count + 1, sizeof(*argv));
    for (size_t i = 0; argv && i < count; ++i)
    {
        if (!(argv[i] = dmlconf_strdup(arguments[i])))
        {
            free_argv(argv);
            return NULL;
        }
    }
    return argv;
}

/* DMLCONF_EXEC_TIMEOUT, or the default. Returns 0, or -1 with why set. */
static int read_timeout(double *timeout, char *why, size_t why_size)
{
    const char *text = getenv(DMLCONF_EXEC_TIMEOUT_VARIABLE);
    *timeout = DMLCONF_EXEC_DEFAULT_TIMEOUT;
    if (!text || !*text)
        return 0;
    char *end = NULL;
    double value = strtod(text, &end);
    if (!end || *end || !isfinite(value) || value < 0.0 || value > 86400.0)
    {
        dmlconf_set_why(why, why_size, "%s is \"%.40s\", not a number of seconds from 0 to 86400",
                        DMLCONF_EXEC_TIMEOUT_VARIABLE, text);
        return -1;
    }
    *timeout = value;
    return 0;
}

static int exec_open(const dmlconf_backend_config *config, dmlconf_backend **out, char *why, size_t why_size)
{
    if (!config || !config->arguments || !config->arguments[0] || !config->arguments[0][0])
    {
        dmlconf_set_why(
            why, why_size,
            "the exec backend runs an implementation's adapter program: dmlconf run --backend exec -- COMMAND "
            "[ARGS...]");
        return -1;
    }
    if (config->adapter)
    {
        dmlconf_set_why(
            why, why_size,
            "the exec backend picks no adapter (\"%.64s\"): give the adapter program its own options after --",
            config->adapter);
        return -1;
    }
    exec_backend *b = calloc(1, sizeof(*b));
    if (!b || !(b->argv = copy_argv(config->arguments)))
    {
        free(b);
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    b->base.ops = &dmlconf_exec_backend_ops;
    ignore_broken_pipes();
    if (read_timeout(&b->timeout, why, why_size) ||
        exec_adapter_start((const char *const *)b->argv, b->timeout, &b->adapter, &b->handshake, why, why_size))
    {
        free_argv(b->argv);
        free(b);
        return -1;
    }
    *out = &b->base;
    return 0;
}

static void exec_close(dmlconf_backend *backend)
{
    exec_backend *b = (exec_backend *)backend;
    if (b->adapter)
    {
        char how[128], words[64];
        exec_adapter_end(b->adapter, false, how, sizeof(how), words, sizeof(words));
    }
    free_argv(b->argv);
    free(b);
}

static void exec_info(dmlconf_backend *backend, dmlconf_backend_info *info)
{
    const exec_handshake *h = &((exec_backend *)backend)->handshake;
    memset(info, 0, sizeof(*info));
    snprintf(info->backend, sizeof(info->backend), "exec:%s", h->implementation);
    snprintf(info->adapter, sizeof(info->adapter), "%s", h->device[0] ? h->device : "(the adapter names no device)");
    snprintf(info->driver, sizeof(info->driver), "%s", h->driver[0] ? h->driver : "(none named)");
    snprintf(info->runtime, sizeof(info->runtime), "%s%s%s%s%s (process protocol %u)", h->implementation,
             h->implementation_version[0] ? " " : "", h->implementation_version, h->runtime[0] ? " on " : "",
             h->runtime, EXEC_PROTOCOL_VERSION);
    info->software = h->software;
    info->exact = false;
    info->feature_level = h->feature_level;
    info->capabilities = h->capabilities;
}

/* A fresh adapter when none runs, or when the one running said something
 * between batches or has ended. Returns 0, or -1 with why set. */
static int ensure_adapter(exec_backend *b, char *why, size_t why_size)
{
    if (b->adapter)
    {
        char what[200];
        int silent = exec_check_silent(b->adapter, what, sizeof(what));
        if (silent == 0)
            return 0;
        char how[128], words[300];
        exec_adapter_end(b->adapter, silent == 2, how, sizeof(how), words, sizeof(words));
        b->adapter = NULL;
        /* Between batches no case is to blame: say it where it is seen. */
        if (silent == 2)
            fprintf(stderr,
                    "dmlconf: the exec:%s adapter broke the protocol between batches: %s; %s; starting another\n",
                    b->handshake.implementation, what, words);
        else
            fprintf(stderr, "dmlconf: the exec:%s adapter %s between batches; %s; starting another\n",
                    b->handshake.implementation, how, words);
    }
    exec_handshake again;
    char reason[600];
    if (exec_adapter_start((const char *const *)b->argv, b->timeout, &b->adapter, &again, reason, sizeof(reason)))
    {
        dmlconf_set_why(why, why_size, "the adapter could not be restarted: %s", reason);
        return -1;
    }
    if (!exec_handshakes_agree(&b->handshake, &again))
    {
        char how[128], words[300];
        exec_adapter_end(b->adapter, true, how, sizeof(how), words, sizeof(words));
        b->adapter = NULL;
        dmlconf_set_why(why, why_size,
                        "the adapter was restarted, but its handshake now declares another implementation or other "
                        "capabilities than at first (\"%s\")",
                        again.implementation);
        return -1;
    }
    return 0;
}

/* What went wrong with the job being answered, in words, the adapter ended
 * and its last words appended. */
static void blame(exec_backend *b, const exec_batch_outcome *outcome, dmlconf_job *job)
{
    char how[128], words[320], what[200];
    bool ended = outcome->stop == EXEC_STOP_ENDED;
    exec_adapter_end(b->adapter, !ended, how, sizeof(how), words, sizeof(words));
    b->adapter = NULL;
    switch (outcome->stop)
    {
    case EXEC_STOP_ENDED:
        dmlconf_set_why(what, sizeof(what), "the adapter %s %s", how,
                        outcome->answer_begun ? "in the middle of its answer to this job"
                                              : "before it answered this job");
        break;
    case EXEC_STOP_TIMED_OUT:
        dmlconf_set_why(what, sizeof(what), "the adapter %s for %g s (it was killed)",
                        outcome->answer_begun ? "stopped in the middle of its answer to this job"
                                              : "gave no answer to this job",
                        b->timeout);
        break;
    case EXEC_STOP_GARBAGE:
        dmlconf_set_why(what, sizeof(what), "the adapter broke the protocol: %s (it was killed)", outcome->detail);
        break;
    default:
        dmlconf_set_why(what, sizeof(what), "dmlconf lost the adapter: %s", outcome->detail);
        break;
    }
    job->outcome = DMLCONF_JOB_FAILED;
    job->reason = DMLCONF_REASON_NONE;
    job->device_seconds = -1.0;
    dmlconf_set_why(job->message, sizeof(job->message), "%s; %s", what, words);
}

static int exec_execute(dmlconf_backend *backend, dmlconf_job *jobs, size_t count)
{
    exec_backend *b = (exec_backend *)backend;
    for (size_t i = 0; i < count; ++i)
    {
        jobs[i].outcome = DMLCONF_JOB_FAILED;
        jobs[i].reason = DMLCONF_REASON_NONE;
        jobs[i].device_seconds = -1.0;
        dmlconf_set_why(jobs[i].message, sizeof(jobs[i].message), "not answered");
    }
    size_t next = 0;
    bool one_at_a_time = false;
    /* When the adapter ended with several jobs unanswered, the first of
     * them is suspected until it is answered alone. */
    size_t suspect = SIZE_MAX;
    char suspicion[sizeof(jobs[0].message)] = "";
    while (next < count)
    {
        char why[sizeof(jobs[0].message)];
        if (ensure_adapter(b, why, sizeof(why)))
        {
            for (size_t i = next; i < count; ++i)
            {
                if (i == suspect)
                    dmlconf_set_why(jobs[i].message, sizeof(jobs[i].message), "%s; then %s", suspicion, why);
                else
                    dmlconf_set_why(jobs[i].message, sizeof(jobs[i].message), "%s", why);
            }
            return -1;
        }
        size_t n = one_at_a_time ? 1 : count - next;
        exec_batch_outcome outcome;
        exec_run_batch(b->adapter, jobs + next, n, b->timeout, &outcome);
        next += outcome.answered;
        if (outcome.stop == EXEC_STOP_NONE)
            continue;
        if (outcome.stop == EXEC_STOP_ENDED && !outcome.answer_begun && n - outcome.answered > 1)
        {
            /* Which of the unanswered jobs ended it? One at a time. */
            char how[128], words[320];
            exec_adapter_end(b->adapter, false, how, sizeof(how), words, sizeof(words));
            b->adapter = NULL;
            suspect = next;
            dmlconf_set_why(suspicion, sizeof(suspicion),
                            "the adapter %s before it answered this job or a later one of its batch; %s", how, words);
            one_at_a_time = true;
            continue;
        }
        blame(b, &outcome, &jobs[next]);
        ++next;
    }
    return 0;
}

const dmlconf_backend_ops dmlconf_exec_backend_ops = {
    .name = "exec",
    .description = "an implementation's adapter program over the process protocol: --backend exec -- COMMAND [ARGS...] "
                   "(docs/process-protocol.md)",
    .open = exec_open,
    .close = exec_close,
    .info = exec_info,
    .execute = exec_execute,
};
