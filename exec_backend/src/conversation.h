/*
 * One batch over the process protocol: sending the jobs to a running
 * adapter while reading its answers, so that an adapter that answers while
 * it is still being sent a batch never deadlocks against dmlconf, and an
 * adapter that stops making progress is noticed within the time limit.
 */
#ifndef DMLCONF_EXEC_CONVERSATION_H
#define DMLCONF_EXEC_CONVERSATION_H

#include <dmlconf/backend.h>
#include <dmlconf/process.h>

#include <stdbool.h>
#include <stddef.h>

/* Why a batch stopped before every job was answered. */
typedef enum exec_stop
{
    EXEC_STOP_NONE,      /* every job was answered */
    EXEC_STOP_ENDED,     /* the adapter's output ended: it exited, crashed or closed it */
    EXEC_STOP_TIMED_OUT, /* no progress (bytes taken, an answer finished) within the time limit */
    EXEC_STOP_GARBAGE,   /* an answer was malformed, or bytes followed the last answer */
    EXEC_STOP_SYSTEM,    /* waiting, reading or memory failed here */
} exec_stop;

typedef struct exec_batch_outcome
{
    size_t answered; /* the first `answered` jobs have their outcome */
    exec_stop stop;
    /* ENDED, TIMED_OUT: the answer to job `answered` had begun. */
    bool answer_begun;
    char detail[256]; /* GARBAGE, SYSTEM: what was wrong */
} exec_batch_outcome;

/* Sends jobs[0..count) to the adapter as one batch and reads their answers
 * in order, filling each answered job's outcome, reason, device time and
 * message, and a DONE job's output buffer. `timeout` (seconds; <= 0: none)
 * bounds each wait for progress. Never blocks beyond it; never fails as a
 * whole: *outcome says how far it came and why it stopped. After any stop
 * but NONE the adapter is in an unknown state and must be ended. */
void exec_run_batch(dmlconf_process *adapter, dmlconf_job *jobs, size_t count, double timeout,
                    exec_batch_outcome *outcome);

/* Between batches an adapter says nothing. Returns 0 when it has nothing
 * to read, 1 when its output has ended (it exited), 2 when it wrote bytes
 * no job asked for (described in `why`). */
int exec_check_silent(dmlconf_process *adapter, char *why, size_t why_size);

#endif /* DMLCONF_EXEC_CONVERSATION_H */
