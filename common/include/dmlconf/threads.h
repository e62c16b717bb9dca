/*
 * Threads: just enough to run independent work on every CPU (C11 threads on
 * POSIX, Win32 threads on Windows, where mingw-w64 has no <threads.h>).
 */
#ifndef DMLCONF_THREADS_H
#define DMLCONF_THREADS_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A started thread; the fields are private. */
typedef struct dmlconf_thread
{
    void *handle;
} dmlconf_thread;

/* Starts `body(argument)` on a new thread. Returns 0, or -1 when the system
 * cannot start one (thread is then untouched). */
int dmlconf_thread_start(dmlconf_thread *thread, int (*body)(void *argument), void *argument);

/* Waits for a started thread to end and releases it. */
void dmlconf_thread_join(dmlconf_thread *thread);

/* A mutual-exclusion lock; initialise with dmlconf_mutex_init and destroy
 * with dmlconf_mutex_destroy. The fields are private. */
typedef struct dmlconf_mutex
{
    void *handle;
} dmlconf_mutex;

/* Returns 0, or -1 when the system is out of resources. */
int dmlconf_mutex_init(dmlconf_mutex *mutex);
void dmlconf_mutex_lock(dmlconf_mutex *mutex);
void dmlconf_mutex_unlock(dmlconf_mutex *mutex);
void dmlconf_mutex_destroy(dmlconf_mutex *mutex);

/* A condition variable, used with a dmlconf_mutex; initialise with
 * dmlconf_condition_init and destroy with dmlconf_condition_destroy. The
 * fields are private. */
typedef struct dmlconf_condition
{
    void *handle;
} dmlconf_condition;

/* Returns 0, or -1 when the system is out of resources. */
int dmlconf_condition_init(dmlconf_condition *condition);
/* Releases `mutex` (held by the caller), waits until the condition is
 * signalled (or spuriously wakes) and takes `mutex` again: callers wait in a
 * loop over their predicate. */
void dmlconf_condition_wait(dmlconf_condition *condition, dmlconf_mutex *mutex);
/* Wakes every thread waiting on the condition. */
void dmlconf_condition_broadcast(dmlconf_condition *condition);
void dmlconf_condition_destroy(dmlconf_condition *condition);

/* The number of CPUs this process may run on (at least 1). */
unsigned dmlconf_cpu_count(void);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_THREADS_H */
