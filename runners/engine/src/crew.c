/*
 * Independent calls spread over a few threads (runner_for_each): a batch's
 * cases are prepared and judged side by side, each on whichever thread is
 * free next. Each call writes only its own index's state, so the results do
 * not depend on the number of threads or on which thread ran what.
 */
#include <dmlconf/runner.h>

#include <dmlconf/threads.h>

#include <stdlib.h>

/* The threads' shared position in the indices. */
typedef struct crew
{
    dmlconf_mutex lock;
    size_t next;
    size_t count;
    void (*body)(void *context, size_t index);
    void *context;
} crew;

/* Takes the next index until none is left. */
static int crew_member(void *argument)
{
    crew *c = argument;
    for (;;)
    {
        dmlconf_mutex_lock(&c->lock);
        size_t index = c->next < c->count ? c->next++ : c->count;
        dmlconf_mutex_unlock(&c->lock);
        if (index == c->count)
            return 0;
        c->body(c->context, index);
    }
}

void runner_for_each(size_t count, unsigned threads, void (*body)(void *context, size_t index), void *context)
{
    if (threads > count)
        threads = (unsigned)count;
    crew c = {.next = 0, .count = count, .body = body, .context = context};
    dmlconf_thread *members = threads > 1 ? calloc(threads - 1u, sizeof(*members)) : NULL;
    if (!members || dmlconf_mutex_init(&c.lock))
    {
        /* No helpers: every call here, in order. */
        free(members);
        for (size_t i = 0; i < count; ++i)
            body(context, i);
        return;
    }
    unsigned started = 0;
    while (started + 1u < threads && dmlconf_thread_start(&members[started], crew_member, &c) == 0)
        ++started;
    crew_member(&c);
    for (unsigned t = 0; t < started; ++t)
        dmlconf_thread_join(&members[t]);
    dmlconf_mutex_destroy(&c.lock);
    free(members);
}
