/*
 * Threads and locks, on POSIX (C11 <threads.h>) and on Windows.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <dmlconf/threads.h>

#include <stdlib.h>

#if defined(_WIN32)
#include <windows.h>

typedef struct thread_start
{
    int (*body)(void *);
    void *argument;
} thread_start;

static DWORD WINAPI thread_entry(LPVOID parameter)
{
    thread_start start = *(thread_start *)parameter;
    free(parameter);
    return (DWORD)start.body(start.argument);
}

int dmlconf_thread_start(dmlconf_thread *thread, int (*body)(void *argument), void *argument)
{
    thread_start *start = malloc(sizeof(*start));
    if (!start)
        return -1;
    start->body = body;
    start->argument = argument;
    HANDLE handle = CreateThread(NULL, 0, thread_entry, start, 0, NULL);
    if (!handle)
    {
        free(start);
        return -1;
    }
    thread->handle = handle;
    return 0;
}

void dmlconf_thread_join(dmlconf_thread *thread)
{
    if (!thread->handle)
        return;
    WaitForSingleObject((HANDLE)thread->handle, INFINITE);
    CloseHandle((HANDLE)thread->handle);
    thread->handle = NULL;
}

int dmlconf_mutex_init(dmlconf_mutex *mutex)
{
    CRITICAL_SECTION *section = malloc(sizeof(*section));
    if (!section)
        return -1;
    InitializeCriticalSection(section);
    mutex->handle = section;
    return 0;
}

void dmlconf_mutex_lock(dmlconf_mutex *mutex)
{
    EnterCriticalSection((CRITICAL_SECTION *)mutex->handle);
}

void dmlconf_mutex_unlock(dmlconf_mutex *mutex)
{
    LeaveCriticalSection((CRITICAL_SECTION *)mutex->handle);
}

void dmlconf_mutex_destroy(dmlconf_mutex *mutex)
{
    if (!mutex->handle)
        return;
    DeleteCriticalSection((CRITICAL_SECTION *)mutex->handle);
    free(mutex->handle);
    mutex->handle = NULL;
}

int dmlconf_condition_init(dmlconf_condition *condition)
{
    CONDITION_VARIABLE *variable = malloc(sizeof(*variable));
    if (!variable)
        return -1;
    InitializeConditionVariable(variable);
    condition->handle = variable;
    return 0;
}

void dmlconf_condition_wait(dmlconf_condition *condition, dmlconf_mutex *mutex)
{
    SleepConditionVariableCS((CONDITION_VARIABLE *)condition->handle, (CRITICAL_SECTION *)mutex->handle, INFINITE);
}

void dmlconf_condition_broadcast(dmlconf_condition *condition)
{
    WakeAllConditionVariable((CONDITION_VARIABLE *)condition->handle);
}

void dmlconf_condition_destroy(dmlconf_condition *condition)
{
    free(condition->handle); /* a Windows condition variable holds no other resources */
    condition->handle = NULL;
}

unsigned dmlconf_cpu_count(void)
{
    DWORD_PTR process_mask = 0, system_mask = 0;
    unsigned count = 0;
    if (GetProcessAffinityMask(GetCurrentProcess(), &process_mask, &system_mask))
        for (; process_mask; process_mask &= process_mask - 1)
            ++count;
    if (!count)
    {
        SYSTEM_INFO info;
        GetSystemInfo(&info);
        count = (unsigned)info.dwNumberOfProcessors;
    }
    return count ? count : 1;
}
#else
#include <threads.h>
#include <unistd.h>

int dmlconf_thread_start(dmlconf_thread *thread, int (*body)(void *argument), void *argument)
{
    thrd_t *handle = malloc(sizeof(*handle));
    if (!handle)
        return -1;
    if (thrd_create(handle, body, argument) != thrd_success)
    {
        free(handle);
        return -1;
    }
    thread->handle = handle;
    return 0;
}

void dmlconf_thread_join(dmlconf_thread *thread)
{
    if (!thread->handle)
        return;
    thrd_join(*(thrd_t *)thread->handle, NULL);
    free(thread->handle);
    thread->handle = NULL;
}

int dmlconf_mutex_init(dmlconf_mutex *mutex)
{
    mtx_t *handle = malloc(sizeof(*handle));
    if (!handle)
        return -1;
    if (mtx_init(handle, mtx_plain) != thrd_success)
    {
        free(handle);
        return -1;
    }
    mutex->handle = handle;
    return 0;
}

void dmlconf_mutex_lock(dmlconf_mutex *mutex)
{
    mtx_lock((mtx_t *)mutex->handle);
}

void dmlconf_mutex_unlock(dmlconf_mutex *mutex)
{
    mtx_unlock((mtx_t *)mutex->handle);
}

void dmlconf_mutex_destroy(dmlconf_mutex *mutex)
{
    if (!mutex->handle)
        return;
    mtx_destroy((mtx_t *)mutex->handle);
    free(mutex->handle);
    mutex->handle = NULL;
}

int dmlconf_condition_init(dmlconf_condition *condition)
{
    cnd_t *handle = malloc(sizeof(*handle));
    if (!handle)
        return -1;
    if (cnd_init(handle) != thrd_success)
    {
        free(handle);
        return -1;
    }
    condition->handle = handle;
    return 0;
}

void dmlconf_condition_wait(dmlconf_condition *condition, dmlconf_mutex *mutex)
{
    cnd_wait((cnd_t *)condition->handle, (mtx_t *)mutex->handle);
}

void dmlconf_condition_broadcast(dmlconf_condition *condition)
{
    cnd_broadcast((cnd_t *)condition->handle);
}

void dmlconf_condition_destroy(dmlconf_condition *condition)
{
    if (!condition->handle)
        return;
    cnd_destroy((cnd_t *)condition->handle);
    free(condition->handle);
    condition->handle = NULL;
}

unsigned dmlconf_cpu_count(void)
{
    long count = sysconf(_SC_NPROCESSORS_ONLN);
    return count > 0 ? (unsigned)count : 1u;
}
#endif
