/*
 * The backend interface: what the runner needs from anything that executes
 * cumulative operators (the oracle itself, a D3D12 GPU, ...). A backend is a
 * table of function pointers plus a struct that each implementation embeds
 * first in its own state. The runner and the comparator never know which
 * backend ran; they see only dmlconf_backend_info and the output buffers.
 */
#ifndef DMLCONF_BACKEND_H
#define DMLCONF_BACKEND_H

#include <dmlconf/oracle.h>

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a backend says about itself and its device. */
typedef struct dmlconf_backend_info
{
    char backend[64];   /* "oracle", "d3d12" */
    char adapter[160];  /* device name, e.g. "NVIDIA H100 80GB HBM3" */
    char driver[160];   /* driver name and version */
    char runtime[160];  /* runtime (e.g. "vkd3d 1.2 on Vulkan 1.3") */
    bool software;      /* a CPU implementation (the oracle, lavapipe) */
    bool exact;         /* results must equal the oracle bit for bit */
    dmlconf_feature_level feature_level; /* the highest level it implements */
} dmlconf_backend_info;

/* How one job ended. */
typedef enum dmlconf_job_outcome
{
    DMLCONF_JOB_DONE,        /* executed; the output buffer holds the result */
    DMLCONF_JOB_REJECTED,    /* refused as invalid before any work (reason set) */
    DMLCONF_JOB_UNSUPPORTED, /* valid, but this backend cannot run it */
    DMLCONF_JOB_FAILED,      /* the backend or device failed (message set) */
} dmlconf_job_outcome;

/* One operator execution. The runner owns every buffer. `input` is laid out
 * by desc->input's strides, `output` by desc->output's; for an in-place desc
 * they are the same buffer, which holds the input on entry. */
typedef struct dmlconf_job
{
    const dmlconf_scan_desc *desc;
    dmlconf_feature_level feature_level; /* validate as a device of this level */
    const void *input;
    size_t input_bytes;
    void *output;
    size_t output_bytes;

    dmlconf_job_outcome outcome; /* filled by the backend */
    dmlconf_reason reason;       /* REJECTED: why (NONE when the backend cannot tell) */
    double device_seconds;       /* time on the device; < 0 when unknown */
    char message[256];
} dmlconf_job;

typedef struct dmlconf_backend dmlconf_backend;

/* Options given to a backend when it opens. */
typedef struct dmlconf_backend_config
{
    const char *adapter; /* an index or a name fragment; NULL: the default */
    /* The run's target feature level (NONE: the backend's highest). A
     * backend whose device is created for a level (DirectML) uses it. */
    dmlconf_feature_level feature_level;
} dmlconf_backend_config;

/* One adapter a backend can run on, as `dmlconf adapters` lists it. */
typedef struct dmlconf_adapter_info
{
    char name[160];    /* device name */
    char details[320]; /* ids, kind, driver and runtime, one line */
    bool software;     /* a CPU implementation */
} dmlconf_adapter_info;

typedef struct dmlconf_backend_ops
{
    const char *name;        /* "oracle" */
    const char *description; /* one line for `dmlconf run --help` */

    /* Opens the backend. Returns 0 with *out set, or -1 with a sentence in
     * `why` when it is unavailable here (no runtime, no adapter). */
    int (*open)(const dmlconf_backend_config *config, dmlconf_backend **out, char *why, size_t why_size);
    /* Releases everything the backend holds. */
    void (*close)(dmlconf_backend *backend);
    /* Describes the backend and its device. */
    void (*info)(dmlconf_backend *backend, dmlconf_backend_info *info);
    /* Whether it executes this data type at all. */
    bool (*supports_type)(dmlconf_backend *backend, dmlconf_data_type type);
    /* Executes `count` jobs, filling each job's outcome; may batch them.
     * Returns 0, or -1 when the device was lost (then every job not DONE
     * says FAILED with a message). */
    int (*execute)(dmlconf_backend *backend, dmlconf_job *jobs, size_t count);
    /* Optional; NULL when the backend has a single adapter (the one `info`
     * describes). Lists the adapters `open` can pick (config->adapter = the
     * position as a decimal index) without opening any: writes up to `max`
     * of them and returns how many exist, or -1 with a sentence in `why`
     * (for example, no runtime installed). */
    int (*list_adapters)(dmlconf_adapter_info *adapters, size_t max, char *why, size_t why_size);
} dmlconf_backend_ops;

/* The part every backend's state starts with. */
struct dmlconf_backend
{
    const dmlconf_backend_ops *ops;
};

/* Every backend compiled in, best first (the default is the first that
 * opens). *count receives how many. */
const dmlconf_backend_ops *const *dmlconf_backends(size_t *count);

/* The backend called `name`, or NULL. */
const dmlconf_backend_ops *dmlconf_backend_find(const char *name);

/* The oracle as a backend: exact, every type, every level. */
extern const dmlconf_backend_ops dmlconf_oracle_backend_ops;

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_BACKEND_H */
