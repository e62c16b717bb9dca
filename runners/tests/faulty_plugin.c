/*
 * A backend plugin that misbehaves on demand, for the tests of the plugin
 * loader and of the wrapper dmlconf calls plugins through. The environment
 * variable DMLCONF_TEST_PLUGIN_FAULT, read whenever the entry point is
 * called, says what goes wrong:
 *   (unset or "")  nothing: inclusive, increasing INT32 sums of rank 1 and
 *                  2, declared as exactly that, and no validation
 *   null-entry     the entry point returns NULL
 *   abi-newer      the description says a backend ABI newer than dmlconf's
 *   abi-1          the description says backend ABI 1, with a table whose
 *                  `boundaries` (an ABI 2 op) must never be called
 *   boundaries     the table declares two boundaries, the second's `what`
 *                  filled to its last byte with no NUL
 *   null-ops       the description has no table
 *   incomplete     the table lacks close and execute
 *   open-fails     open fails, saying why
 *   open-null      open succeeds without a backend
 *   bad-level      info claims feature level 0x7777
 *   bad-ranks      info claims ranks 0 to 9
 *   bad-type       info claims data type 31
 *   bad-feature    info claims capability bit 20
 *   long-strings   info fills every string to its last byte, with no NUL
 *   bad-outcome    every job ends with outcome 42
 *   bad-reason     every job is rejected for reason 999
 *   long-message   every job fails with a message that fills its buffer,
 *                  with no NUL, and a device time that is not a number
 *   decline        every job is declined (UNSUPPORTED) when run
 *   lost           execute returns 7 with every job FAILED
 *   abi-2          the description says backend ABI 2 (before
 *                  NO_RESOURCES), and every job ends NO_RESOURCES anyway
 *   no-resources   every job ends NO_RESOURCES (ABI 3): not judged
 *   entry-crash    the entry point crashes (SIGSEGV)
 *   entry-hang     the entry point never returns
 *   open-crash     open crashes (SIGSEGV)
 *   escape-info    info's adapter name holds ESC, BEL and U+202E
 *   escape-message every job fails with a message that holds ESC and BEL
 *   nothing        every job says DONE and writes nothing (the output keeps
 *                  the runner's canary)
 *   overrun        every job is computed, and the 64 bytes after the output
 *                  are overwritten (a write past its end)
 *   hang           execute never returns
 * Built with FAULTY_PLUGIN_NO_ENTRY it exports no entry point at all.
 */
#include <dmlconf/backend.h>

#include <math.h>
#include <signal.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *fault(void)
{
    const char *text = getenv("DMLCONF_TEST_PLUGIN_FAULT");
    return text ? text : "";
}

static bool faulty(const char *name)
{
    return strcmp(fault(), name) == 0;
}

typedef struct faulty_backend
{
    dmlconf_backend base;
} faulty_backend;

static const dmlconf_backend_ops faulty_ops;

/* A crash, as a plugin's own bug would make it. */
static void crash(void)
{
    raise(SIGSEGV);
}

/* Never returns, whatever signal comes (a handler that returns wakes
 * pause, and it pauses again). */
static void hang(void)
{
    for (;;)
        pause();
}

static int faulty_open(const dmlconf_backend_config *config, dmlconf_backend **out, char *why, size_t why_size)
{
    (void)config;
    if (faulty("open-crash"))
        crash();
    if (faulty("open-fails"))
    {
        snprintf(why, why_size, "the test device is switched off");
        return -1;
    }
    if (faulty("open-null"))
    {
        *out = NULL;
        return 0;
    }
    faulty_backend *backend = calloc(1, sizeof(*backend));
    if (!backend)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    backend->base.ops = &faulty_ops;
    *out = &backend->base;
    return 0;
}

static void faulty_close(dmlconf_backend *backend)
{
    free(backend);
}

static void faulty_info(dmlconf_backend *backend, dmlconf_backend_info *info)
{
    (void)backend;
    memset(info, 0, sizeof(*info));
    snprintf(info->backend, sizeof(info->backend), "faulty");
    snprintf(info->adapter, sizeof(info->adapter), "a test plugin");
    snprintf(info->driver, sizeof(info->driver), "none");
    snprintf(info->runtime, sizeof(info->runtime), "in process");
    info->software = true;
    info->feature_level = DMLCONF_FEATURE_LEVEL_5_0;
    info->capabilities.features = DMLCONF_CAN_SUMMATION | DMLCONF_CAN_INCREASING | DMLCONF_CAN_INCLUSIVE;
    info->capabilities.data_types = DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_INT32);
    info->capabilities.min_rank = 1;
    info->capabilities.max_rank = 2;
    if (faulty("bad-level"))
        info->feature_level = (dmlconf_feature_level)0x7777;
    else if (faulty("bad-ranks"))
    {
        info->capabilities.min_rank = 0;
        info->capabilities.max_rank = 9;
    }
    else if (faulty("bad-type"))
        info->capabilities.data_types |= 1u << 31;
    else if (faulty("bad-feature"))
        info->capabilities.features |= 1u << 20;
    else if (faulty("escape-info"))
        snprintf(info->adapter, sizeof(info->adapter), "a \033]0;pwned\007 test \xe2\x80\xae plugin");
    else if (faulty("long-strings"))
    {
        memset(info->backend, 'b', sizeof(info->backend));
        memset(info->adapter, 'a', sizeof(info->adapter));
        memset(info->driver, 'd', sizeof(info->driver));
        memset(info->runtime, 'r', sizeof(info->runtime));
    }
}

/* Inclusive increasing INT32 sums along the axis of a packed tensor. */
static void sum(dmlconf_job *job)
{
    const dmlconf_tensor_desc *t = &job->desc->input;
    uint32_t inner = 1;
    for (uint32_t d = job->desc->axis + 1; d < t->dimension_count; ++d)
        inner *= t->sizes[d];
    uint32_t length = t->sizes[job->desc->axis];
    uint32_t outer = 1;
    for (uint32_t d = 0; d < job->desc->axis; ++d)
        outer *= t->sizes[d];
    const uint32_t *in = job->input;
    uint32_t *out = job->output;
    for (uint32_t o = 0; o < outer; ++o)
    {
        for (uint32_t i = 0; i < inner; ++i)
        {
            uint32_t total = 0;
            for (uint32_t k = 0; k < length; ++k)
            {
                size_t at = ((size_t)o * length + k) * inner + i;
                total += in[at];
                out[at] = total;
            }
        }
    }
}

static int faulty_execute(dmlconf_backend *backend, dmlconf_job *jobs, size_t count)
{
    (void)backend;
    for (size_t i = 0; i < count; ++i)
    {
        dmlconf_job *job = &jobs[i];
        job->message[0] = '\0';
        job->reason = DMLCONF_REASON_NONE;
        job->device_seconds = 0.001;
        if (faulty("bad-outcome"))
            job->outcome = (dmlconf_job_outcome)42;
        else if (faulty("bad-reason"))
        {
            job->outcome = DMLCONF_JOB_REJECTED;
            job->reason = (dmlconf_reason)999;
        }
        else if (faulty("long-message") || faulty("lost"))
        {
            job->outcome = DMLCONF_JOB_FAILED;
            memset(job->message, 'm', sizeof(job->message));
            job->device_seconds = faulty("long-message") ? (double)NAN : -1.0;
        }
        else if (faulty("decline"))
        {
            job->outcome = DMLCONF_JOB_UNSUPPORTED;
            snprintf(job->message, sizeof(job->message), "declined by the test");
        }
        else if (faulty("abi-2") || faulty("no-resources"))
        {
            job->outcome = DMLCONF_JOB_NO_RESOURCES;
            snprintf(job->message, sizeof(job->message), "E_OUTOFMEMORY for a test buffer");
        }
        else if (faulty("escape-message"))
        {
            job->outcome = DMLCONF_JOB_FAILED;
            snprintf(job->message, sizeof(job->message), "bad \033[31mred\033[0m \007 news");
        }
        else if (faulty("hang"))
            hang();
        else if (!job->input || faulty("nothing"))
            job->outcome = DMLCONF_JOB_DONE;
        else
        {
            sum(job);
            if (faulty("overrun"))
                memset((unsigned char *)job->output + job->output_bytes, 0x17, 64);
            job->outcome = DMLCONF_JOB_DONE;
        }
    }
    return faulty("lost") ? 7 : 0;
}

static const dmlconf_backend_ops faulty_ops = {
    .name = "faulty",
    .description = "a plugin that misbehaves on demand (tests)",
    .open = faulty_open,
    .close = faulty_close,
    .info = faulty_info,
    .execute = faulty_execute,
};

/* Never called: a loader that reads an ABI 1 table past its end would. */
static size_t trap_boundaries(dmlconf_backend *backend, dmlconf_boundary *out, size_t max)
{
    (void)backend;
    (void)out;
    (void)max;
    abort();
}

static size_t faulty_boundaries(dmlconf_backend *backend, dmlconf_boundary *out, size_t max)
{
    (void)backend;
    static const size_t count = 2;
    for (size_t i = 0; i < count && i < max; ++i)
    {
        memset(&out[i], 0, sizeof(out[i]));
        out[i].kind = DMLCONF_BOUNDARY_AXIS_LENGTH;
        out[i].value = 1000 * (i + 1);
    }
    if (max > 0)
        snprintf(out[0].what, sizeof(out[0].what), "test chunks");
    if (max > 1)
        memset(out[1].what, 'w', sizeof(out[1].what));
    return count;
}

static const dmlconf_backend_ops version_1_ops = {
    .name = "faulty",
    .description = "a plugin that misbehaves on demand (tests)",
    .open = faulty_open,
    .close = faulty_close,
    .info = faulty_info,
    .execute = faulty_execute,
    .boundaries = trap_boundaries,
};

static const dmlconf_backend_ops bounded_ops = {
    .name = "faulty",
    .description = "a plugin that misbehaves on demand (tests)",
    .open = faulty_open,
    .close = faulty_close,
    .info = faulty_info,
    .execute = faulty_execute,
    .boundaries = faulty_boundaries,
};

static const dmlconf_backend_ops incomplete_ops = {
    .name = "incomplete",
    .open = faulty_open,
    .info = faulty_info,
};

#if !defined(FAULTY_PLUGIN_NO_ENTRY)
DMLCONF_BACKEND_EXPORT const dmlconf_backend_plugin *dmlconf_backend_entry(void)
{
    static const dmlconf_backend_plugin good = {DMLCONF_BACKEND_ABI_VERSION, &faulty_ops};
    static const dmlconf_backend_plugin newer = {DMLCONF_BACKEND_ABI_VERSION + 1, &faulty_ops};
    static const dmlconf_backend_plugin no_ops = {DMLCONF_BACKEND_ABI_VERSION, NULL};
    static const dmlconf_backend_plugin incomplete = {DMLCONF_BACKEND_ABI_VERSION, &incomplete_ops};
    static const dmlconf_backend_plugin version_1 = {1, &version_1_ops};
    static const dmlconf_backend_plugin bounded = {DMLCONF_BACKEND_ABI_VERSION, &bounded_ops};
    static const dmlconf_backend_plugin version_2 = {2, &faulty_ops};
    if (faulty("null-entry"))
        return NULL;
    if (faulty("entry-crash"))
        crash();
    if (faulty("entry-hang"))
        hang();
    if (faulty("abi-2"))
        return &version_2;
    if (faulty("abi-newer"))
        return &newer;
    if (faulty("abi-1"))
        return &version_1;
    if (faulty("boundaries"))
        return &bounded;
    if (faulty("null-ops"))
        return &no_ops;
    if (faulty("incomplete"))
        return &incomplete;
    return &good;
}
#else
/* Something else, so that the library is not empty. */
DMLCONF_BACKEND_EXPORT int dmlconf_not_an_entry(void);
DMLCONF_BACKEND_EXPORT int dmlconf_not_an_entry(void)
{
    return (int)sizeof(incomplete_ops) + (int)sizeof(faulty_ops) + (int)sizeof(version_1_ops) +
           (int)sizeof(bounded_ops);
}
#endif
