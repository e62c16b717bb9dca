/*
 * The oracle as a backend. Running the corpus on it is the suite's
 * self-check: every case must pass bit for bit (a case whose expected values
 * were written by hand with a tolerance of their own, such as a peer suite's
 * golden values, within that tolerance), and every negative case must be
 * refused with the oracle's own reason. Long lines are computed on every
 * CPU (oracle_segments.c), with the same bits.
 */
#define _POSIX_C_SOURCE 200809L

#include <dmlconf/backend.h>
#include <dmlconf/oracle_backend.h>
#include <dmlconf/clock.h>
#include <dmlconf/threads.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Lines at least this long are computed on every CPU (at most
 * MAX_THREADS), in segments: the size from which the runner fills and
 * judges a case on every CPU too. */
#define SEGMENT_MIN_LENGTH (UINT64_C(1) << 22)
#define MAX_THREADS        32u

static unsigned oracle_threads(void)
{
    unsigned cpus = dmlconf_cpu_count();
    return cpus > MAX_THREADS ? MAX_THREADS : cpus;
}

typedef struct oracle_backend
{
    dmlconf_backend base;
} oracle_backend;

static int oracle_open(const dmlconf_backend_config *config, dmlconf_backend **out, char *why, size_t why_size)
{
    if (config && config->adapter && strcmp(config->adapter, "0") && strcmp(config->adapter, "oracle"))
    {
        snprintf(why, why_size, "the oracle backend has one adapter (0, \"oracle\"), not \"%s\"", config->adapter);
        return -1;
    }
    oracle_backend *backend = calloc(1, sizeof(*backend));
    if (!backend)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    backend->base.ops = &dmlconf_oracle_backend_ops;
    *out = &backend->base;
    return 0;
}

static void oracle_close(dmlconf_backend *backend)
{
    free(backend);
}

static void oracle_info(dmlconf_backend *backend, dmlconf_backend_info *info)
{
    (void)backend;
    memset(info, 0, sizeof(*info));
    snprintf(info->backend, sizeof(info->backend), "oracle");
    snprintf(info->adapter, sizeof(info->adapter), "dmlconf exact oracle (CPU, scalar)");
    snprintf(info->driver, sizeof(info->driver), "libdmlconf-oracle %d.%d.%d", DMLCONF_ORACLE_VERSION_MAJOR,
             DMLCONF_ORACLE_VERSION_MINOR, DMLCONF_ORACLE_VERSION_PATCH);
    snprintf(info->runtime, sizeof(info->runtime), "none (in process)");
    info->software = true;
    info->exact = true;
    info->feature_level = DMLCONF_FEATURE_LEVEL_6_4;
    uint32_t types = 0;
    for (unsigned type = 0; type < 32; ++type)
        if (dmlconf_data_type_is_computable((dmlconf_data_type)type))
            types |= DMLCONF_TYPE_BIT(type);
    info->capabilities = dmlconf_capabilities_all(types);
}

static int oracle_execute(dmlconf_backend *backend, dmlconf_job *jobs, size_t count)
{
    (void)backend;
    for (size_t i = 0; i < count; ++i)
    {
        dmlconf_job *job = &jobs[i];
        dmlconf_validation validation;
        job->message[0] = '\0';
        job->device_seconds = -1.0;
        if (!dmlconf_validate(job->desc, job->feature_level, &validation))
        {
            job->outcome = DMLCONF_JOB_REJECTED;
            job->reason = validation.reason;
            snprintf(job->message, sizeof(job->message), "%s", validation.message);
            continue;
        }
        dmlconf_error err;
        double start = dmlconf_clock_seconds();
        if (dmlconf_oracle_compute_segmented(job->desc, job->input, job->input_bytes, job->output, job->output_bytes,
                                  oracle_threads(), SEGMENT_MIN_LENGTH, &err))
        {
            job->outcome = DMLCONF_JOB_FAILED;
            snprintf(job->message, sizeof(job->message), "%s", err.message);
            continue;
        }
        job->device_seconds = dmlconf_clock_seconds() - start;
        job->outcome = DMLCONF_JOB_DONE;
        job->reason = DMLCONF_REASON_NONE;
    }
    return 0;
}

const dmlconf_backend_ops dmlconf_oracle_backend_ops = {
    .name = "oracle",
    .description = "the exact oracle itself, on the CPU (self-check: must pass every case bit for bit, or within "
                   "the case's tolerance where it gives expected values with one)",
    .open = oracle_open,
    .close = oracle_close,
    .info = oracle_info,
    .execute = oracle_execute,
};
