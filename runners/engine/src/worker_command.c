/*
 * The command line of a worker started as a program (`dmlconf __worker`,
 * cmd_worker.c): Windows always, POSIX when DMLCONF_WORKERS=spawn. It
 * carries everything the worker needs to run the same cases the same way.
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include <dmlconf/runner.h>

#include <dmlconf/process.h>
#include <dmlconf/reserve.h>
#include <dmlconf/text.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool runner_spawn_workers(void)
{
#if defined(_WIN32)
    return true;
#else
    const char *mode = getenv("DMLCONF_WORKERS");
    return mode && !strcmp(mode, "spawn");
#endif
}

/* A growing NULL-terminated argv. */
typedef struct argument_list
{
    char **items;
    size_t count, capacity;
    bool failed;
} argument_list;

static void add(argument_list *list, const char *text)
{
    if (list->failed)
        return;
    if (!dmlconf_reserve((void **)&list->items, &list->capacity, list->count + 2, sizeof(*list->items)))
    {
        list->failed = true;
        return;
    }
    char *copy = dmlconf_strdup(text);
    if (!copy)
    {
        list->failed = true;
        return;
    }
    list->items[list->count++] = copy;
    list->items[list->count] = NULL;
}

static void add_number(argument_list *list, const char *option, uint64_t value)
{
    char number[32];
    snprintf(number, sizeof(number), "%llu", (unsigned long long)value);
    add(list, option);
    add(list, number);
}

const char **runner_worker_command(const runner_schedule *schedule, char *const *paths, size_t path_count, char *why,
                                   size_t why_size)
{
    argument_list list = {0};
    char *self = dmlconf_process_self_path(why, why_size);
    if (!self)
        return NULL;
    add(&list, self);
    free(self);
    add(&list, "__worker");
    add(&list, "--backend");
    add(&list, schedule->backend_ops->name);
    if (schedule->backend_config.adapter)
    {
        add(&list, "--adapter");
        add(&list, schedule->backend_config.adapter);
    }
    for (size_t i = 0; schedule->backend_config.arguments && schedule->backend_config.arguments[i]; ++i)
    {
        add(&list, "--backend-argument");
        add(&list, schedule->backend_config.arguments[i]);
    }
    if (schedule->config.level != DMLCONF_FEATURE_LEVEL_NONE)
    {
        add(&list, "--level");
        add(&list, dmlconf_feature_level_name(schedule->config.level));
    }
    add_number(&list, "--seed", schedule->config.seed);
    add_number(&list, "--batch-elements", schedule->config.batch_elements);
    add_number(&list, "--memory-limit", schedule->config.memory_limit);
    add_number(&list, "--host-threads", schedule->config.host_threads);
    if (!schedule->config.rerun_failures)
        add(&list, "--no-rerun");
    if (!schedule->config.shrink)
        add(&list, "--no-repro");
    if (schedule->config.repro_dir)
    {
        add(&list, "--repro-dir");
        add(&list, schedule->config.repro_dir);
    }
    add(&list, "--");
    for (size_t i = 0; i < path_count; ++i)
        add(&list, paths[i]);
    if (list.failed)
    {
        runner_free_worker_command((const char **)list.items);
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    return (const char **)list.items;
}

void runner_free_worker_command(const char **argv)
{
    if (!argv)
        return;
    for (size_t i = 0; argv[i]; ++i)
        free((char *)argv[i]);
    free(argv);
}
