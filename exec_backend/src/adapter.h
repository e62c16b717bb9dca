/*
 * An adapter's life: starting the program, reading its handshake within
 * the time limit, and ending it with how it ended and its last words (the
 * end of its standard error) in words for a report.
 */
#ifndef DMLCONF_EXEC_ADAPTER_H
#define DMLCONF_EXEC_ADAPTER_H

#include "handshake.h"

#include <dmlconf/process.h>

#include <stdbool.h>
#include <stddef.h>

/* Bytes of the adapter's standard error kept (its last words). */
#define EXEC_STDERR_TAIL_BYTES 4096u

/* Starts the adapter `argv` (NULL-terminated; no shell) with its standard
 * error captured, and reads its handshake line, waiting at most `timeout`
 * seconds for it (<= 0: without limit). Returns 0 with *out running and
 * *handshake filled; or -1 with a sentence in `why` (the program cannot
 * start, it ended or said nothing in time, its line is not a valid
 * handshake, it wrote more than the line), followed by its last words,
 * the adapter ended and freed. */
int exec_adapter_start(const char *const *argv, double timeout, dmlconf_process **out, exec_handshake *handshake,
                       char *why, size_t why_size);

/* Ends an adapter (kill_it: at once; otherwise it gets a moment to exit
 * after its input closes), writes how it ended into `how` ("exited with
 * status 3", "was killed by signal 11 (Segmentation fault)", "was killed by
 * dmlconf") and its last words into `words` (see exec_last_words), and
 * frees it. */
void exec_adapter_end(dmlconf_process *adapter, bool kill_it, char *how, size_t how_size, char *words,
                      size_t words_size);

/* The end of what the adapter wrote to its standard error, as one line:
 * "its last words: \"...\"" (lines joined by " | ", cut at the front to
 * fit `size`), or "it wrote nothing to its standard error". */
void exec_last_words(dmlconf_process *adapter, char *out, size_t size);

#endif /* DMLCONF_EXEC_ADAPTER_H */
