/*
 * bench_command.c: one timed run of a command, and a run's case count
 * (bench_command.h).
 */
#define _DEFAULT_SOURCE

#include "bench_command.h"

#include <dmlconf/clock.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static double timeval_seconds(const struct timeval *t)
{
    return (double)t->tv_sec + (double)t->tv_usec * 1e-6;
}

int bench_command(const char *const argv[], bool quiet_stderr, bench_command_run *run)
{
    fflush(NULL);
    struct rusage before;
    getrusage(RUSAGE_CHILDREN, &before);
    double start = dmlconf_clock_seconds();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
    {
        if (!freopen("/dev/null", "w", stdout) || (quiet_stderr && !freopen("/dev/null", "w", stderr)))
            _exit(127);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0)
        return -1;
    run->wall = dmlconf_clock_seconds() - start;
    /* A command's workers are its children, waited for by it: once it has
     * exited, RUSAGE_CHILDREN of this process covers them too. */
    struct rusage children;
    getrusage(RUSAGE_CHILDREN, &children);
    run->peak_kib = children.ru_maxrss > usage.ru_maxrss ? children.ru_maxrss : usage.ru_maxrss;
    run->user = timeval_seconds(&children.ru_utime) - timeval_seconds(&before.ru_utime);
    run->system = timeval_seconds(&children.ru_stime) - timeval_seconds(&before.ru_stime);
    run->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return 0;
}

long bench_count_results(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/results.jsonl", dir);
    FILE *file = fopen(path, "r");
    if (!file)
        return -1;
    char *line = NULL;
    size_t capacity = 0;
    long cases = 0;
    while (getline(&line, &capacity, file) > 0)
        cases += strncmp(line, "{\"id\":", 6) == 0;
    free(line);
    fclose(file);
    return cases;
}
