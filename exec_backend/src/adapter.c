/*
 * Starting an adapter and reading its handshake; ending it with its last
 * words. The handshake is read in pieces up to its newline; anything after
 * the newline, before dmlconf has sent a job, breaks the protocol.
 */
#include "adapter.h"

#include <dmlconf/clock.h>
#include <dmlconf/why.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Seconds an adapter whose output ended gets to exit before it is killed. */
#define EXIT_GRACE 2.0

void exec_last_words(dmlconf_process *adapter, char *out, size_t size)
{
    char *tail = dmlconf_process_stderr_tail(adapter);
    if (!tail)
    {
        dmlconf_set_why(out, size, "its last words are unknown (out of memory)");
        return;
    }
    /* One line: trailing white space dropped, line breaks as " | ". */
    size_t length = strlen(tail);
    while (length && (tail[length - 1] == '\n' || tail[length - 1] == '\r' || tail[length - 1] == ' '))
        tail[--length] = '\0';
    if (!length)
    {
        dmlconf_set_why(out, size, "it wrote nothing to its standard error");
        free(tail);
        return;
    }
    char *line = malloc(3 * length + 1);
    if (!line)
    {
        free(tail);
        dmlconf_set_why(out, size, "its last words are unknown (out of memory)");
        return;
    }
    size_t used = 0;
    for (size_t i = 0; i < length; ++i)
    {
        if (tail[i] == '\r')
            continue;
        if (tail[i] == '\n')
        {
            memcpy(line + used, " | ", 3);
            used += 3;
        }
        else
            line[used++] = tail[i];
    }
    line[used] = '\0';
    const char *prefix = "its last words: \"", *suffix = "\"";
    size_t room = size > strlen(prefix) + strlen(suffix) + 4 ? size - strlen(prefix) - strlen(suffix) - 4 : 0;
    const char *start = line;
    bool cut = used > room;
    if (cut)
    {
        start = line + (used - room);
        /* Not in the middle of a \xNN escape: past it. */
        for (size_t back = 1; back <= 3 && back <= used - room; ++back)
        {
            if (start[-(ptrdiff_t)back] == '\\' && 4 - back <= room)
            {
                start += 4 - back;
                break;
            }
        }
    }
    dmlconf_set_why(out, size, "%s%s%s%s", prefix, cut ? "..." : "", start, suffix);
    free(line);
    free(tail);
}

void exec_adapter_end(dmlconf_process *adapter, bool kill_it, char *how, size_t how_size, char *words,
                      size_t words_size)
{
    if (kill_it)
        dmlconf_process_kill(adapter);
    dmlconf_exit ended;
    dmlconf_process_end(adapter, EXIT_GRACE, &ended);
    if (ended.killed_by_us)
        dmlconf_set_why(how, how_size, "was killed by dmlconf");
    else
        dmlconf_exit_describe(&ended, how, how_size);
    exec_last_words(adapter, words, words_size);
    dmlconf_process_finish(adapter, 0.0, NULL);
}

/* Ends a half-started adapter and says why, with its last words. */
static int refuse(dmlconf_process *adapter, bool kill_it, const char *what, char *why, size_t why_size)
{
    char how[128], words[300];
    exec_adapter_end(adapter, kill_it, how, sizeof(how), words, sizeof(words));
    dmlconf_set_why(why, why_size, "%s (the adapter %s; %s)", what, how, words);
    return -1;
}

int exec_adapter_start(const char *const *argv, double timeout, dmlconf_process **out, exec_handshake *handshake,
                       char *why, size_t why_size)
{
    *out = NULL;
    dmlconf_process_options options;
    memset(&options, 0, sizeof(options));
    options.argv = argv;
    options.stderr_mode = DMLCONF_CHILD_STDERR_CAPTURE;
    options.stderr_tail_bytes = EXEC_STDERR_TAIL_BYTES;
    dmlconf_process *adapter;
    char reason[400];
    if (dmlconf_process_start(&options, &adapter, reason, sizeof(reason)))
    {
        dmlconf_set_why(why, why_size, "cannot start the adapter: %s", reason);
        return -1;
    }
    char *line = malloc(EXEC_MAX_HANDSHAKE_BYTES);
    if (!line)
        return refuse(adapter, true, "out of memory for its handshake", why, why_size);
    size_t used = 0;
    char *newline = NULL;
    double deadline = dmlconf_clock_seconds() + timeout;
    while (!newline)
    {
        double left = timeout > 0.0 ? deadline - dmlconf_clock_seconds() : -1.0;
        if (timeout > 0.0 && left <= 0.0)
            left = 0.0;
        long n = used < EXEC_MAX_HANDSHAKE_BYTES
                     ? dmlconf_process_read(adapter, line + used, EXEC_MAX_HANDSHAKE_BYTES - used, left)
                     : -3;
        if (n == DMLCONF_PROCESS_TIMED_OUT)
        {
            dmlconf_set_why(reason, sizeof(reason), "the adapter sent no handshake line within %g s", timeout);
            free(line);
            return refuse(adapter, true, reason, why, why_size);
        }
        if (n == -3 || n <= 0)
        {
            dmlconf_set_why(reason, sizeof(reason), "%s",
                            n == -3  ? "the adapter's handshake line is longer than 65536 bytes"
                            : n == 0 ? (used ? "the adapter's output ended in the middle of its handshake line"
                                             : "the adapter ended its output before its handshake")
                                     : "reading the adapter's handshake failed");
            free(line);
            return refuse(adapter, n != 0, reason, why, why_size);
        }
        newline = memchr(line + used, '\n', (size_t)n);
        used += (size_t)n;
    }
    size_t length = (size_t)(newline - line);
    if (length + 1 < used)
    {
        dmlconf_set_why(reason, sizeof(reason), "the adapter wrote %zu bytes after its handshake line, before any job",
                        used - length - 1);
        free(line);
        return refuse(adapter, true, reason, why, why_size);
    }
    if (length && line[length - 1] == '\r')
        --length;
    int parsed = exec_parse_handshake(line, length, handshake, reason, sizeof(reason));
    free(line);
    if (parsed)
        return refuse(adapter, true, reason, why, why_size);
    *out = adapter;
    return 0;
}
