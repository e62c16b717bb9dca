/*
 * One batch over the process protocol. dmlconf writes the batch (its
 * header, then each job's header and buffers, small pieces copied together
 * so that one write carries many jobs) without blocking while it reads the
 * answers as they come, so neither side can fill its pipe and wait for the
 * other: the adapter may answer job 0 while job 31 is still on its way.
 * Answers are read in large pieces into an inbox and taken from there; a
 * large output goes straight into its job's buffer. A job's output is
 * written into its buffer only once all of that job has been sent (the
 * buffer is going out), and whatever comes after the last answer is the
 * adapter's fault.
 */
#include "conversation.h"
#include "wire.h"

#include <dmlconf/clock.h>
#include <dmlconf/why.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most output bytes taken in one read. */
#define READ_PIECE ((size_t)1 << 20)
/* Bytes read ahead of the answer being taken. */
#define INBOX_BYTES ((size_t)64 << 10)
/* Buffers up to this size are copied into one piece with their neighbours. */
#define COPY_LIMIT ((size_t)64 << 10)

/* A piece of the batch to send. */
typedef struct segment
{
    const unsigned char *data;
    size_t size;
} segment;

typedef struct sender
{
    segment *segments;
    size_t count;
    size_t at;       /* the segment being sent */
    size_t offset;   /* bytes of it sent */
    uint64_t sent;   /* bytes of the batch taken by the adapter */
    uint64_t *ends;  /* where each job ends in the batch */
    bool input_gone; /* the adapter's input closed */
} sender;

typedef enum phase
{
    PHASE_HEADER,
    PHASE_MESSAGE,
    PHASE_OUTPUT,
} phase;

typedef struct receiver
{
    size_t job; /* the job whose answer comes next */
    phase phase;
    size_t got; /* bytes of the phase received */
    unsigned char header[EXEC_ANSWER_HEADER_BYTES];
    exec_answer_header answer;
    char message[EXEC_MAX_MESSAGE_BYTES];
    /* Bytes read and not yet taken: one read often brings many answers. */
    unsigned char inbox[INBOX_BYTES];
    size_t inbox_start, inbox_end;
} receiver;

/* Bytes as text: printable ASCII as it is, other bytes as \xNN, cut with
 * "..." when the room runs out. */
static void describe_bytes(const void *bytes, size_t count, char *out, size_t size)
{
    const unsigned char *b = bytes;
    size_t used = 0;
    if (!size)
        return;
    out[0] = '\0';
    for (size_t i = 0; i < count; ++i)
    {
        char piece[8];
        if (b[i] >= 0x20 && b[i] < 0x7f && b[i] != '\\')
            snprintf(piece, sizeof(piece), "%c", b[i]);
        else
            snprintf(piece, sizeof(piece), "\\x%02x", b[i]);
        size_t length = strlen(piece);
        if (used + length + 4 > size)
        {
            snprintf(out + used, size - used, "...");
            return;
        }
        memcpy(out + used, piece, length + 1);
        used += length;
    }
}

/* Fills a job from its complete answer. */
static void take_answer(dmlconf_job *job, const receiver *rx)
{
    const exec_answer_header *a = &rx->answer;
    char said[sizeof(job->message)];
    describe_bytes(rx->message, a->message_bytes, said, sizeof(said));
    job->device_seconds = a->device_seconds;
    job->reason = DMLCONF_REASON_NONE;
    switch (a->status)
    {
    case EXEC_ANSWER_DONE:
        job->outcome = DMLCONF_JOB_DONE;
        dmlconf_set_why(job->message, sizeof(job->message), "%s", said);
        return;
    case EXEC_ANSWER_REJECTED:
        job->outcome = DMLCONF_JOB_REJECTED;
        job->reason = (dmlconf_reason)a->reason;
        dmlconf_set_why(job->message, sizeof(job->message), "%s", said[0] ? said : "the adapter refused the desc");
        return;
    case EXEC_ANSWER_UNSUPPORTED:
        job->outcome = DMLCONF_JOB_UNSUPPORTED;
        dmlconf_set_why(job->message, sizeof(job->message), "%s",
                        said[0] ? said : "the adapter cannot run this job (it gave no reason)");
        return;
    default:
        job->outcome = DMLCONF_JOB_FAILED;
        dmlconf_set_why(job->message, sizeof(job->message), "the adapter failed: %s",
                        said[0] ? said : "(no reason given)");
        return;
    }
}

/* Moves past every phase that is complete (or empty). Returns 1 when the
 * answer is complete, 0 when more bytes are needed, -1 (detail set) when
 * its header is malformed. */
static int advance(receiver *rx, dmlconf_job *jobs, exec_batch_outcome *outcome)
{
    for (;;)
    {
        switch (rx->phase)
        {
        case PHASE_HEADER:
            if (rx->got < EXEC_ANSWER_HEADER_BYTES)
                return 0;
            if (!exec_decode_answer_header(rx->header, &jobs[rx->job], (uint32_t)rx->job, &rx->answer, outcome->detail,
                                           sizeof(outcome->detail)))
                return -1;
            rx->phase = PHASE_MESSAGE;
            rx->got = 0;
            break;
        case PHASE_MESSAGE:
            if (rx->got < rx->answer.message_bytes)
                return 0;
            rx->phase = PHASE_OUTPUT;
            rx->got = 0;
            break;
        case PHASE_OUTPUT:
            if (rx->got < rx->answer.output_bytes)
                return 0;
            return 1;
        }
    }
}

/* Where the current phase's bytes go, and how many it still wants. */
static unsigned char *phase_target(receiver *rx, dmlconf_job *jobs, size_t *wanted)
{
    switch (rx->phase)
    {
    case PHASE_HEADER:
        *wanted = EXEC_ANSWER_HEADER_BYTES - rx->got;
        return rx->header + rx->got;
    case PHASE_MESSAGE:
        *wanted = rx->answer.message_bytes - rx->got;
        return (unsigned char *)rx->message + rx->got;
    case PHASE_OUTPUT:
        break;
    }
    *wanted = (size_t)rx->answer.output_bytes - rx->got;
    return (unsigned char *)jobs[rx->job].output + rx->got;
}

/* Whether the answer being taken is an output whose job is still being
 * sent (its bytes wait: the output buffer is still going out). */
static bool output_waits(const receiver *rx, const sender *tx)
{
    return rx->phase == PHASE_OUTPUT && tx->sent < tx->ends[rx->job];
}

/* Takes what the inbox holds into the answers, finishing every answer it
 * completes (*finished set then). Returns 0, or -1 (detail set) on a
 * malformed answer header. */
static int take_from_inbox(receiver *rx, dmlconf_job *jobs, size_t count, const sender *tx, exec_batch_outcome *outcome,
                           bool *finished)
{
    while (rx->job < count)
    {
        int complete = advance(rx, jobs, outcome);
        if (complete < 0)
            return -1;
        if (complete)
        {
            take_answer(&jobs[rx->job], rx);
            rx->job++;
            rx->phase = PHASE_HEADER;
            rx->got = 0;
            *finished = true;
            continue;
        }
        size_t available = rx->inbox_end - rx->inbox_start, wanted;
        if (!available || output_waits(rx, tx))
            return 0;
        unsigned char *target = phase_target(rx, jobs, &wanted);
        size_t n = available < wanted ? available : wanted;
        memcpy(target, rx->inbox + rx->inbox_start, n);
        rx->inbox_start += n;
        rx->got += n;
    }
    return 0;
}

static bool inbox_full(const receiver *rx)
{
    return rx->inbox_end - rx->inbox_start == INBOX_BYTES;
}

/* Reads what the adapter has written (it is readable): a large output
 * straight into its buffer, everything else into the inbox. Returns the
 * bytes read, 0 at the end of its output, or -1 on an error. */
static long read_some(dmlconf_process *adapter, receiver *rx, dmlconf_job *jobs, const sender *tx)
{
    if (rx->inbox_start == rx->inbox_end)
        rx->inbox_start = rx->inbox_end = 0;
    if (rx->phase == PHASE_OUTPUT && rx->inbox_start == rx->inbox_end && !output_waits(rx, tx))
    {
        size_t wanted;
        unsigned char *target = phase_target(rx, jobs, &wanted);
        if (wanted >= INBOX_BYTES)
        {
            long n = dmlconf_process_read(adapter, target, wanted < READ_PIECE ? wanted : READ_PIECE, -1.0);
            if (n > 0)
                rx->got += (size_t)n;
            return n;
        }
    }
    if (rx->inbox_end == INBOX_BYTES)
    {
        memmove(rx->inbox, rx->inbox + rx->inbox_start, rx->inbox_end - rx->inbox_start);
        rx->inbox_end -= rx->inbox_start;
        rx->inbox_start = 0;
    }
    long n = dmlconf_process_read(adapter, rx->inbox + rx->inbox_end, INBOX_BYTES - rx->inbox_end, -1.0);
    if (n > 0)
        rx->inbox_end += (size_t)n;
    return n;
}

/* A piece of the batch: small ones are copied together into the staging
 * buffer (one write carries many jobs, and the adapter wakes once for
 * them), large ones are sent from the job's own buffer. */
static void add_piece(sender *tx, unsigned char *staging, size_t *staged, const void *data, size_t size)
{
    if (size > COPY_LIMIT)
    {
        tx->segments[tx->count++] = (segment){data, size};
        return;
    }
    unsigned char *at = staging + *staged;
    memcpy(at, data, size);
    *staged += size;
    segment *last = tx->count ? &tx->segments[tx->count - 1] : NULL;
    if (last && last->data + last->size == at)
        last->size += size;
    else
        tx->segments[tx->count++] = (segment){at, size};
}

/* Lays out the batch: its header, then each job's header, input and
 * output. Returns 0, or -1 when memory runs out. */
static int plan_batch(const dmlconf_job *jobs, size_t count, sender *tx, unsigned char **staging)
{
    size_t staging_bytes = EXEC_BATCH_HEADER_BYTES + count * EXEC_JOB_HEADER_BYTES;
    for (size_t i = 0; i < count; ++i)
    {
        size_t input_bytes = exec_job_input_bytes(&jobs[i]), output_bytes = exec_job_output_bytes(&jobs[i]);
        staging_bytes +=
            (input_bytes <= COPY_LIMIT ? input_bytes : 0) + (output_bytes <= COPY_LIMIT ? output_bytes : 0);
    }
    tx->segments = malloc((1 + 3 * count) * sizeof(*tx->segments));
    tx->ends = malloc(count * sizeof(*tx->ends));
    *staging = malloc(staging_bytes);
    if (!tx->segments || !tx->ends || !*staging)
        return -1;
    size_t staged = 0;
    unsigned char header[EXEC_JOB_HEADER_BYTES];
    exec_encode_batch_header((uint32_t)count, header);
    add_piece(tx, *staging, &staged, header, EXEC_BATCH_HEADER_BYTES);
    uint64_t end = EXEC_BATCH_HEADER_BYTES;
    for (size_t i = 0; i < count; ++i)
    {
        size_t input_bytes = exec_job_input_bytes(&jobs[i]), output_bytes = exec_job_output_bytes(&jobs[i]);
        exec_encode_job_header(&jobs[i], (uint32_t)i, header);
        add_piece(tx, *staging, &staged, header, EXEC_JOB_HEADER_BYTES);
        if (input_bytes)
            add_piece(tx, *staging, &staged, jobs[i].input, input_bytes);
        if (output_bytes)
            add_piece(tx, *staging, &staged, jobs[i].output, output_bytes);
        end += EXEC_JOB_HEADER_BYTES + input_bytes + output_bytes;
        tx->ends[i] = end;
    }
    return 0;
}

/* Sends what the adapter takes now. Returns true when it took something. */
static bool send_some(dmlconf_process *adapter, sender *tx)
{
    const segment *s = &tx->segments[tx->at];
    long n = dmlconf_process_write_some(adapter, s->data + tx->offset, s->size - tx->offset);
    if (n < 0)
    {
        tx->input_gone = true;
        return false;
    }
    tx->offset += (size_t)n;
    tx->sent += (uint64_t)n;
    while (tx->at < tx->count && tx->offset == tx->segments[tx->at].size)
    {
        tx->at++;
        tx->offset = 0;
    }
    return n > 0;
}

/* After the last answer nothing may follow: neither bytes read with it
 * nor bytes already waiting. */
static void check_nothing_follows(dmlconf_process *adapter, receiver *rx, size_t count, exec_batch_outcome *outcome)
{
    unsigned char extra[24];
    size_t n = rx->inbox_end - rx->inbox_start;
    if (n)
        memcpy(extra, rx->inbox + rx->inbox_start, n < sizeof(extra) ? n : sizeof(extra));
    else if (dmlconf_process_wait_io(adapter, DMLCONF_PROCESS_READABLE, 0.0) & DMLCONF_PROCESS_READABLE)
    {
        long got = dmlconf_process_read(adapter, extra, sizeof(extra), 0.0);
        n = got > 0 ? (size_t)got : 0; /* 0: it ended after its last answer; the next batch starts another */
    }
    if (!n)
        return;
    char text[128];
    describe_bytes(extra, n < sizeof(extra) ? n : sizeof(extra), text, sizeof(text));
    outcome->stop = EXEC_STOP_GARBAGE;
    outcome->answered = count - 1;
    dmlconf_set_why(outcome->detail, sizeof(outcome->detail), "bytes followed its answer (\"%s%s\")", text,
                    n >= sizeof(extra) ? "..." : "");
}

static void converse(dmlconf_process *adapter, dmlconf_job *jobs, size_t count, double timeout, sender *tx,
                     receiver *rx, exec_batch_outcome *outcome)
{
    double last_progress = dmlconf_clock_seconds();
    for (;;)
    {
        bool finished = false;
        if (take_from_inbox(rx, jobs, count, tx, outcome, &finished))
        {
            outcome->stop = EXEC_STOP_GARBAGE;
            return;
        }
        if (finished)
            last_progress = dmlconf_clock_seconds();
        if (rx->job == count)
            break;
        bool begun = rx->phase != PHASE_HEADER || rx->got > 0 || rx->inbox_end > rx->inbox_start;
        int wanted = (!tx->input_gone && tx->at < tx->count ? DMLCONF_PROCESS_WRITABLE : 0) |
                     (inbox_full(rx) ? 0 : DMLCONF_PROCESS_READABLE);
        if (!wanted)
        {
            outcome->stop = EXEC_STOP_GARBAGE;
            dmlconf_set_why(
                outcome->detail, sizeof(outcome->detail),
                "it answered with more than %zu bytes before it was sent the whole job, and stopped reading",
                INBOX_BYTES);
            return;
        }
        double left = -1.0;
        if (timeout > 0.0)
        {
            left = last_progress + timeout - dmlconf_clock_seconds();
            if (left <= 0.0)
            {
                outcome->stop = EXEC_STOP_TIMED_OUT;
                outcome->answer_begun = begun;
                return;
            }
        }
        int ready = dmlconf_process_wait_io(adapter, wanted, left);
        if (ready < 0)
        {
            outcome->stop = EXEC_STOP_SYSTEM;
            dmlconf_set_why(outcome->detail, sizeof(outcome->detail), "waiting for the adapter failed: %s",
                            strerror(errno));
            return;
        }
        if ((ready & DMLCONF_PROCESS_WRITABLE) && send_some(adapter, tx))
            last_progress = dmlconf_clock_seconds();
        if (!(ready & DMLCONF_PROCESS_READABLE))
            continue;
        long n = read_some(adapter, rx, jobs, tx);
        if (n == 0)
        {
            outcome->stop = EXEC_STOP_ENDED;
            outcome->answer_begun = begun;
            return;
        }
        if (n < 0)
        {
            outcome->stop = EXEC_STOP_SYSTEM;
            dmlconf_set_why(outcome->detail, sizeof(outcome->detail), "reading the adapter's output failed: %s",
                            strerror(errno));
            return;
        }
    }
    check_nothing_follows(adapter, rx, count, outcome);
}

void exec_run_batch(dmlconf_process *adapter, dmlconf_job *jobs, size_t count, double timeout,
                    exec_batch_outcome *outcome)
{
    memset(outcome, 0, sizeof(*outcome));
    if (!count)
        return;
    sender tx;
    memset(&tx, 0, sizeof(tx));
    unsigned char *staging = NULL;
    receiver *rx = calloc(1, sizeof(*rx));
    if (!rx || plan_batch(jobs, count, &tx, &staging))
    {
        outcome->stop = EXEC_STOP_SYSTEM;
        dmlconf_set_why(outcome->detail, sizeof(outcome->detail), "out of memory for a batch of %zu jobs", count);
    }
    else
    {
        /* Every answer taken counts, unless what followed the last one
         * takes it back. */
        outcome->answered = SIZE_MAX;
        converse(adapter, jobs, count, timeout, &tx, rx, outcome);
        if (outcome->answered == SIZE_MAX)
            outcome->answered = rx->job;
    }
    free(rx);
    free(staging);
    free(tx.segments);
    free(tx.ends);
}

int exec_check_silent(dmlconf_process *adapter, char *why, size_t why_size)
{
    if (!(dmlconf_process_wait_io(adapter, DMLCONF_PROCESS_READABLE, 0.0) & DMLCONF_PROCESS_READABLE))
        return 0;
    unsigned char extra[24];
    long n = dmlconf_process_read(adapter, extra, sizeof(extra), 0.0);
    if (n == 0)
        return 1;
    if (n < 0)
        return 0;
    char text[128];
    describe_bytes(extra, (size_t)n, text, sizeof(text));
    dmlconf_set_why(why, why_size, "it wrote bytes that answer no job (\"%s%s\")", text,
                    n == (long)sizeof(extra) ? "..." : "");
    return 2;
}
