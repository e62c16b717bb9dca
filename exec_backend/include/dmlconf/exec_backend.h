/*
 * The exec backend: an implementation under test run as a separate
 * program, its adapter, which dmlconf starts and talks to over its
 * standard input and output by the process protocol
 * (docs/process-protocol.md). `dmlconf run --backend exec -- COMMAND
 * [ARGS...]` runs one adapter per worker process; the adapter's handshake
 * names the implementation ("exec:NAME") and declares what it supports.
 *
 * An adapter that crashes, hangs, answers garbage or too many or too few
 * bytes costs the job it was answering (FAILED, with the adapter's last
 * words from its standard error); the adapter is restarted for the jobs
 * after it.
 */
#ifndef DMLCONF_EXEC_BACKEND_H
#define DMLCONF_EXEC_BACKEND_H

#include <dmlconf/backend.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The backend's table. config->arguments is the adapter's command
 * (NULL-terminated, argv[0] searched in PATH; no shell). */
extern const dmlconf_backend_ops dmlconf_exec_backend_ops;

/* The environment variable that bounds, in seconds, how long the backend
 * waits for the adapter to make progress (its handshake, taking a job's
 * bytes, finishing an answer); 0 waits without limit. */
#define DMLCONF_EXEC_TIMEOUT_VARIABLE "DMLCONF_EXEC_TIMEOUT"
/* Its value when it is not set. */
#define DMLCONF_EXEC_DEFAULT_TIMEOUT 60.0

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_EXEC_BACKEND_H */
