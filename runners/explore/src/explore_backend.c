/*
 * What `dmlconf explore` asks of a backend outside the scheduler's rounds:
 * its description and boundaries before the first case is drawn, and the
 * shrinking of new findings into reproducers. On POSIX both run in a forked
 * child, so that the main process never opens a device (it forks the
 * rounds' workers, and a crash while shrinking costs only the shrink); on
 * Windows they run in this process.
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include "explore_backend.h"
#include "explore_internal.h"

#include <dmlconf/clock.h>
#include <dmlconf/process.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
#include <unistd.h>
#endif

/* Room for the boundaries a backend declares. */
#define MAX_BOUNDARIES 64u

/* What the probing child sends back. */
typedef struct probe_reply
{
    int ok;
    char why[512];
    dmlconf_backend_info info;
    uint32_t boundary_count;
    dmlconf_boundary boundaries[MAX_BOUNDARIES];
} probe_reply;

typedef struct probe_context
{
    const dmlconf_backend_ops *ops;
    const dmlconf_backend_config *config;
} probe_context;

/* Opens the backend and describes it into *reply. */
static void probe(const probe_context *context, probe_reply *reply)
{
    memset(reply, 0, sizeof(*reply));
    dmlconf_backend *backend = NULL;
    if (context->ops->open(context->config, &backend, reply->why, sizeof(reply->why)))
        return;
    backend->ops->info(backend, &reply->info);
    if (context->ops->boundaries)
    {
        size_t count = context->ops->boundaries(backend, reply->boundaries, MAX_BOUNDARIES);
        reply->boundary_count = (uint32_t)(count < MAX_BOUNDARIES ? count : MAX_BOUNDARIES);
    }
    backend->ops->close(backend);
    reply->ok = 1;
}

#if !defined(_WIN32)
static int write_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size)
    {
        ssize_t n = write(fd, p, size);
        if (n <= 0)
            return -1;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

static int probe_child(void *context, int in_fd, int out_fd)
{
    (void)in_fd;
    signal(SIGINT, SIG_IGN);
    probe_reply *reply = malloc(sizeof(*reply));
    if (!reply)
        return 1;
    probe(context, reply);
    int status = write_all(out_fd, reply, sizeof(*reply)) ? 1 : 0;
    free(reply);
    return status;
}

/* Reads exactly `size` bytes from a child, waiting at most `seconds` in
 * all. Returns 0, or -1 when it ended, failed or ran out of time. */
static int read_reply(dmlconf_process *child, void *data, size_t size, double seconds)
{
    char *p = data;
    double deadline = dmlconf_clock_seconds() + seconds;
    while (size)
    {
        double left = deadline - dmlconf_clock_seconds();
        if (left <= 0.0)
            return -1;
        long n = dmlconf_process_read(child, p, size, left);
        if (n <= 0)
            return -1;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}
#endif

int explore_probe_backend(const dmlconf_backend_ops *ops, const dmlconf_backend_config *config,
                          explore_backend_probe *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof(*out));
    probe_context context = {ops, config};
    probe_reply *reply = calloc(1, sizeof(*reply));
    if (!reply)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
#if defined(_WIN32)
    probe(&context, reply);
#else
    dmlconf_process_options options;
    memset(&options, 0, sizeof(options));
    options.function = probe_child;
    options.context = &context;
    options.stderr_mode = DMLCONF_CHILD_STDERR_INHERIT;
    dmlconf_process *child = NULL;
    if (dmlconf_process_start(&options, &child, why, why_size))
    {
        free(reply);
        return -1;
    }
    dmlconf_exit ended;
    int read = read_reply(child, reply, sizeof(*reply), 180.0);
    dmlconf_process_finish(child, 5.0, &ended);
    if (read)
    {
        char how[160];
        dmlconf_exit_describe(&ended, how, sizeof(how));
        snprintf(why, why_size, "the %s backend could not be opened: the process opening it %s", ops->name, how);
        free(reply);
        return -1;
    }
#endif
    if (!reply->ok)
    {
        reply->why[sizeof(reply->why) - 1] = '\0';
        snprintf(why, why_size, "%s", reply->why);
        free(reply);
        return -1;
    }
    out->info = reply->info;
    out->boundary_count = reply->boundary_count;
    if (out->boundary_count)
    {
        out->boundaries = malloc(out->boundary_count * sizeof(*out->boundaries));
        if (!out->boundaries)
        {
            free(reply);
            snprintf(why, why_size, "out of memory");
            return -1;
        }
        memcpy(out->boundaries, reply->boundaries, out->boundary_count * sizeof(*out->boundaries));
        for (size_t i = 0; i < out->boundary_count; ++i)
            out->boundaries[i].what[sizeof(out->boundaries[i].what) - 1] = '\0';
    }
    free(reply);
    return 0;
}

void explore_backend_probe_free(explore_backend_probe *probe_result)
{
    free(probe_result->boundaries);
    memset(probe_result, 0, sizeof(*probe_result));
}

/* ---- reproducers ---------------------------------------------------------------- */

/* What a shrink sends back for one finding. */
typedef struct repro_reply
{
    uint32_t position; /* in job->which */
    int ok;
    int shrunk; /* written shrunk */
    int has_cell;
    uint32_t cell;
    char key[160]; /* explore_shrunk_key, "" when not shrunk */
    char summary[512];
} repro_reply;

/* The reproducer's case id and path of finding f. Returns false when the
 * path would be longer than a case file's path may be. */
static bool repro_names(const explore_repro_job *job, const explore_finding *f, char *id, size_t id_size, char *path,
                        size_t path_size)
{
    snprintf(id, id_size, "explore.%s", f->signature);
    if (strlen(id) > DMLCONF_CASE_MAX_ID_BYTES)
        id[DMLCONF_CASE_MAX_ID_BYTES] = '\0';
    int length = snprintf(path, path_size, "%s/%s.yaml", job->repro_dir, id);
    return length > 0 && (size_t)length <= DMLCONF_CASE_MAX_PATH_BYTES && (size_t)length < path_size;
}

/* Whether a finding's failure can be shrunk: wrong results of a valid
 * desc, or an error the backend reported for one (not a crash or a hang,
 * which would take the shrinking down, nor an invalid desc, which is as
 * small as it gets). */
static bool shrinkable(const explore_finding *f)
{
    return !f->first.negative && f->first.values &&
           (f->status == DMLCONF_STATUS_FAIL || f->status == DMLCONF_STATUS_FLAKE ||
            (f->status == DMLCONF_STATUS_ERROR && !strncmp(f->first_message, "backend error", 13)));
}

/* Writes one finding's reproducer: shrunk on `backend` when it may be
 * (backend NULL: as it was drawn). */
static void write_one(const explore_repro_job *job, runner_backend *backend, uint32_t position, repro_reply *reply)
{
    explore_finding *f = &job->findings->items[job->which[position]];
    memset(reply, 0, sizeof(*reply));
    reply->position = position;
    char id[DMLCONF_CASE_MAX_ID_BYTES + 8], path[1024], regenerate[1024], why[400];
    if (!repro_names(job, f, id, sizeof(id), path, sizeof(path)))
    {
        snprintf(reply->summary, sizeof(reply->summary),
                 "no reproducer: its path in %s would be longer than the %u bytes a case file's path may have",
                 job->repro_dir, DMLCONF_CASE_MAX_PATH_BYTES);
        return;
    }
    snprintf(regenerate, sizeof(regenerate), "%s %llu%s", job->regenerate_prefix, (unsigned long long)f->first.index,
             job->regenerate_suffix ? job->regenerate_suffix : "");
    explore_repro_context context = {f, job->backend_name, regenerate, NULL, 0, job->regenerate_suffix};
    explore_shrunk shrunk;
    memset(&shrunk, 0, sizeof(shrunk));
    bool have_shrunk = false;
    if (backend && shrinkable(f))
    {
        explore_shrink_options options = {backend, &job->run_config, job->boundaries, job->max_tries, job->max_seconds};
        have_shrunk = explore_shrink(&options, &f->first, f->signature, &shrunk) == 0;
    }
    const explore_spec *spec = &f->first;
    if (have_shrunk && shrunk.reproduced)
    {
        spec = &shrunk.spec;
        context.result = &shrunk.result;
        context.tries = shrunk.tries;
        reply->shrunk = 1;
        explore_shrunk_key(spec, &shrunk.result, reply->key, sizeof(reply->key));
        snprintf(reply->summary, sizeof(reply->summary), "shrunk from %llu to %llu elements in %d runs",
                 (unsigned long long)f->first.count, (unsigned long long)spec->count, shrunk.tries);
    }
    else if (have_shrunk)
        snprintf(reply->summary, sizeof(reply->summary),
                 "not shrunk: run again alone, the case did not fail the same way (%d run%s)", shrunk.tries,
                 shrunk.tries == 1 ? "" : "s");
    else if (!shrinkable(f))
        snprintf(reply->summary, sizeof(reply->summary), "not shrunk (%s)",
                 f->first.negative ? "an invalid desc is as small as it is"
                                   : "a crash or a hang is written as it was drawn");
    else
        snprintf(reply->summary, sizeof(reply->summary), "not shrunk: no backend to shrink it on");
    explore_cell cell;
    explore_boundaries none = {NULL, 0};
    if (!spec->negative && explore_cell_of(&spec->desc, job->boundaries ? job->boundaries : &none, &cell))
    {
        reply->has_cell = 1;
        reply->cell = (uint32_t)explore_cell_index(&cell);
    }
    if (explore_write_repro(path, spec, id, &context, why, sizeof(why)))
        snprintf(reply->summary, sizeof(reply->summary), "no reproducer: %s", why);
    else
        reply->ok = 1;
    if (have_shrunk)
        explore_spec_free(&shrunk.spec);
}

/* Takes a reply into its finding. */
static void take_reply(const explore_repro_job *job, const repro_reply *reply)
{
    if (reply->position >= job->count)
        return;
    explore_finding *f = &job->findings->items[job->which[reply->position]];
    char id[DMLCONF_CASE_MAX_ID_BYTES + 8], path[DMLCONF_CASE_MAX_PATH_BYTES + 1];
    bool named = repro_names(job, f, id, sizeof(id), path, sizeof(path));
    snprintf(f->summary, sizeof(f->summary), "%.*s", (int)sizeof(reply->summary) - 1, reply->summary);
    f->shrunk = reply->shrunk != 0;
    snprintf(f->key, sizeof(f->key), "%.*s", (int)sizeof(reply->key) - 1, reply->key);
    f->has_shrunk_cell = reply->has_cell != 0;
    if (f->has_shrunk_cell)
        f->shrunk_cell = explore_cell_at(reply->cell);
    if (reply->ok && named)
    {
        snprintf(f->repro, sizeof(f->repro), "%s", path);
        snprintf(f->repro_id, sizeof(f->repro_id), "%s", id);
    }
}

/* Opens the backend and writes every reproducer, handing each reply to
 * `send`. */
static void write_all_repros(const explore_repro_job *job, void (*send)(void *, const repro_reply *), void *target)
{
    runner_backend backend = {0};
    char why[512];
    bool opened = job->shrink && job->ops->open(&job->config, &backend.backend, why, sizeof(why)) == 0;
    if (opened)
        backend.backend->ops->info(backend.backend, &backend.info);
    for (uint32_t k = 0; k < job->count; ++k)
    {
        repro_reply reply;
        write_one(job, opened ? &backend : NULL, k, &reply);
        send(target, &reply);
    }
    if (opened)
        backend.backend->ops->close(backend.backend);
}

#if defined(_WIN32)
static void take_here(void *target, const repro_reply *reply)
{
    take_reply(target, reply);
}
#else
static void send_to_parent(void *target, const repro_reply *reply)
{
    (void)write_all(*(int *)target, reply, sizeof(*reply));
}

static int repro_child(void *context, int in_fd, int out_fd)
{
    (void)in_fd;
    signal(SIGINT, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    write_all_repros(context, send_to_parent, &out_fd);
    return 0;
}
#endif

void explore_write_repros(const explore_repro_job *job)
{
    if (!job->count)
        return;
#if defined(_WIN32)
    write_all_repros(job, take_here, (void *)job);
#else
    dmlconf_process_options options;
    memset(&options, 0, sizeof(options));
    options.function = repro_child;
    options.context = (void *)job;
    options.stderr_mode = DMLCONF_CHILD_STDERR_INHERIT;
    dmlconf_process *child = NULL;
    char why[256];
    bool *done = calloc(job->count, sizeof(*done));
    if (done && !dmlconf_process_start(&options, &child, why, sizeof(why)))
    {
        /* Each shrink has its budget, and the backend a minute to open. */
        double allowance = job->max_seconds + 60.0;
        for (uint32_t k = 0; k < job->count; ++k)
        {
            repro_reply reply;
            if (read_reply(child, &reply, sizeof(reply), allowance))
                break;
            reply.summary[sizeof(reply.summary) - 1] = '\0';
            reply.key[sizeof(reply.key) - 1] = '\0';
            take_reply(job, &reply);
            if (reply.position < job->count)
                done[reply.position] = true;
        }
        dmlconf_process_finish(child, 5.0, NULL);
    }
    /* What the child did not finish (it crashed, hung, or could not
     * start) is written here as it was drawn. */
    explore_repro_job rest = *job;
    rest.shrink = false;
    for (uint32_t k = 0; k < job->count; ++k)
    {
        if (done && done[k])
            continue;
        repro_reply reply;
        write_one(&rest, NULL, k, &reply);
        char note[512];
        snprintf(note, sizeof(note), "not shrunk: the process shrinking it ended first");
        if (shrinkable(&job->findings->items[job->which[k]]))
            snprintf(reply.summary, sizeof(reply.summary), "%s", note);
        take_reply(job, &reply);
    }
    free(done);
#endif
}
