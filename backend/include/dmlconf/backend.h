/*
 * The backend interface, version 3: what dmlconf needs from anything that
 * executes cumulative operators (the oracle itself, a D3D12 GPU, DirectML,
 * an implementation behind the process protocol, a plugin). A backend is a
 * table of function pointers plus a struct that each implementation embeds
 * first in its own state. The runner and the comparator never know which
 * backend ran; they see only dmlconf_backend_info and the output buffers.
 *
 * This header is public and installed (pkg-config: dmlconf-backend): a
 * native plugin is a shared library that exports dmlconf_backend_entry
 * (below) returning its table; `dmlconf run --backend plugin:PATH` loads
 * it (examples/plugin is one). Its ABI is DMLCONF_BACKEND_ABI_VERSION;
 * dmlconf also loads a version 1 plugin (reading its table only up to
 * `boundaries`), a version 2 plugin (whose info ends before
 * `float16_accumulation` and which never answers DMLCONF_JOB_NO_RESOURCES),
 * and refuses any other. Every type it uses comes
 * from dmlconf/oracle.h (descs, data types, feature levels, reasons).
 *
 * dmlconf calls a plugin through a wrapper: after open it reads `info`
 * once and refuses to run a plugin that claims a feature level, ranks,
 * capability bits or data types it does not know; it ends every string a
 * plugin fills at its buffer; a job left with an outcome or a reason
 * outside their enums fails, saying so; the reports name the backend
 * "plugin:NAME".
 *
 * Threading: dmlconf calls one backend object from one thread at a time;
 * each worker process opens its own.
 */
#ifndef DMLCONF_BACKEND_H
#define DMLCONF_BACKEND_H

#include <dmlconf/oracle.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface. It changes whenever a struct's layout or
 * a function's meaning changes. Version 2 added the optional `boundaries`
 * op at the end of dmlconf_backend_ops (and dmlconf_boundary); version 3
 * the job outcome DMLCONF_JOB_NO_RESOURCES and `float16_accumulation` at the
 * end of dmlconf_backend_info. */
#define DMLCONF_BACKEND_ABI_VERSION 3u

/* ---- capabilities ------------------------------------------------------------ */

/* What a backend can execute; a case it cannot is skipped with the reason,
 * and the run's verdict says what was not covered. */
enum
{
    DMLCONF_CAN_SUMMATION = 1u << 0,  /* DML_OPERATOR_CUMULATIVE_SUMMATION */
    DMLCONF_CAN_PRODUCT = 1u << 1,    /* DML_OPERATOR_CUMULATIVE_PRODUCT */
    DMLCONF_CAN_INCREASING = 1u << 2, /* DML_AXIS_DIRECTION_INCREASING */
    DMLCONF_CAN_DECREASING = 1u << 3, /* DML_AXIS_DIRECTION_DECREASING */
    DMLCONF_CAN_INCLUSIVE = 1u << 4,  /* HasExclusiveSum/Product FALSE */
    DMLCONF_CAN_EXCLUSIVE = 1u << 5,  /* HasExclusiveSum/Product TRUE */
    DMLCONF_CAN_STRIDES = 1u << 6,    /* strides other than packed (padding, permutation) */
    DMLCONF_CAN_BROADCAST = 1u << 7,  /* a stride of 0 in the input */
    DMLCONF_CAN_IN_PLACE = 1u << 8,   /* the output bound to the input's buffer */
    /* It refuses invalid descs itself (REJECTED): negative cases are judged
     * on it. Without it they are skipped, with the reason. */
    DMLCONF_CAN_VALIDATE = 1u << 9,
    DMLCONF_CAN_EVERYTHING = (1u << 10) - 1u,
};

typedef struct dmlconf_backend_capabilities
{
    uint32_t features;   /* DMLCONF_CAN_* */
    uint32_t data_types; /* bit (1u << type) for each dmlconf_data_type it executes */
    uint32_t min_rank;   /* dimension counts it executes, 1 to 8 */
    uint32_t max_rank;
} dmlconf_backend_capabilities;

/* Every operator, direction, mode and layout, ranks 1 to 8, and the types
 * of `data_types`. */
static inline dmlconf_backend_capabilities dmlconf_capabilities_all(uint32_t data_types)
{
    dmlconf_backend_capabilities capabilities = {DMLCONF_CAN_EVERYTHING, data_types, 1u, DMLCONF_MAX_DIMENSIONS};
    return capabilities;
}

/* The data_types bit of a type. */
#define DMLCONF_TYPE_BIT(type) (1u << (unsigned)(type))

/* ---- what a backend says about itself ----------------------------------------------- */

typedef struct dmlconf_backend_info
{
    char backend[64];  /* "oracle", "d3d12", "exec:numpy" */
    char adapter[256]; /* device name, e.g. "NVIDIA H100 80GB HBM3" */
    char driver[256];  /* driver name and version */
    char runtime[512]; /* runtime and implementation (e.g. "vkd3d 1.2 on Vulkan 1.3") */
    bool software;     /* a CPU implementation (the oracle, lavapipe) */
    bool exact;        /* results must equal the oracle bit for bit */
    /* The highest feature level it implements, the default target of a
     * run; NONE when it claims none (the run then targets 6_4 and the
     * verdict says what was covered). */
    dmlconf_feature_level feature_level;
    dmlconf_backend_capabilities capabilities;
    /* Version 3. The narrowest format float16 data may be computed in:
     * DMLCONF_DATA_TYPE_FLOAT16 when the implementation may accumulate
     * float16 data in float16 arithmetic (DirectML with
     * DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION); then float16
     * outputs are judged by the half-precision rule (the tolerance's
     * accumulation float16, docs/half-precision-rule.md) unless a case states
     * a tolerance of its own. DMLCONF_DATA_TYPE_UNKNOWN (0, what a zeroed
     * info and every older plugin says) or FLOAT32: float32 accumulation,
     * the default rule. Any other value keeps a plugin from opening. */
    dmlconf_data_type float16_accumulation;
} dmlconf_backend_info;

/* ---- boundaries ------------------------------------------------------------------ */

/* Where a backend's execution changes shape: the axis length from which a
 * line is cut into chunks or tiles, the line count that fills the device,
 * the span one buffer view reaches. Off-by-one errors live there, so a
 * generator of random cases (`dmlconf explore`) draws sizes at, just below
 * and just above each boundary a backend declares, and at small multiples
 * of it. */
typedef enum dmlconf_boundary_kind
{
    DMLCONF_BOUNDARY_AXIS_LENGTH = 1, /* elements along the scanned axis */
    DMLCONF_BOUNDARY_LINE_COUNT = 2,  /* lines scanned side by side (elements / axis length) */
    DMLCONF_BOUNDARY_ELEMENTS = 3,    /* elements one buffer spans (its tensor's extent) */
} dmlconf_boundary_kind;

typedef struct dmlconf_boundary
{
    dmlconf_boundary_kind kind;
    uint32_t data_types; /* DMLCONF_TYPE_BIT of each type it applies to; 0: every type */
    uint64_t value;      /* the first size handled the other way */
    char what[64];       /* for people: "serial kernel chunks", "float32 tile" */
} dmlconf_boundary;

/* ---- jobs ---------------------------------------------------------------------------- */

/* How one job ended. */
typedef enum dmlconf_job_outcome
{
    DMLCONF_JOB_DONE,        /* executed; the output buffer holds the result (or, with no buffers, accepted) */
    DMLCONF_JOB_REJECTED,    /* refused as invalid before any work (reason set when known) */
    DMLCONF_JOB_UNSUPPORTED, /* valid, but this backend cannot run it (message says why) */
    DMLCONF_JOB_FAILED,      /* the backend or device failed (message set) */
    /* Version 3: the memory (or another resource) the job needs could not
     * be had, as a device's E_OUTOFMEMORY for a buffer (message says what):
     * the case is not judged, and the run's verdict is incomplete; it is
     * never counted as the implementation's failure. */
    DMLCONF_JOB_NO_RESOURCES,
} dmlconf_job_outcome;

/* One operator execution. The runner owns every buffer. `input` is laid out
 * by desc->input's strides, `output` by desc->output's; for an in-place desc
 * they are the same buffer, which holds the input on entry.
 *
 * On entry every byte of `output` that is not an input element (all of it
 * out of place; the padding in place) holds a canary the runner checks
 * afterwards: a backend must give the implementation an output buffer with
 * exactly these initial bytes (upload them), so that an implementation
 * that writes nothing, or writes outside its elements, is seen.
 *
 * A negative case's job has no buffers (input and output NULL): it asks
 * only whether the implementation refuses the desc (REJECTED) or accepts
 * it (DONE). */
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
    char message[512];
} dmlconf_job;

typedef struct dmlconf_backend dmlconf_backend;

/* Options given to a backend when it opens. */
typedef struct dmlconf_backend_config
{
    const char *adapter; /* an index or a name fragment; NULL: the default */
    /* The run's target feature level (NONE: the backend's highest). A
     * backend whose device is created for a level (DirectML) uses it. */
    dmlconf_feature_level feature_level;
    /* What the backend was named with after its kind: the command of
     * "exec -- CMD ARGS", the path of "plugin:PATH" (NULL-terminated; NULL
     * for built-in backends). */
    const char *const *arguments;
} dmlconf_backend_config;

/* One adapter a backend can run on, as `dmlconf adapters` lists it. */
typedef struct dmlconf_adapter_info
{
    char name[256];     /* device name */
    char details[1024]; /* ids, kind, driver and runtime, one line */
    bool software;      /* a CPU implementation */
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
    /* Describes the backend, its device and its capabilities. */
    void (*info)(dmlconf_backend *backend, dmlconf_backend_info *info);
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
    /* Optional (version 2); NULL when the backend declares no boundary.
     * Writes up to `max` of the open backend's boundaries (as its device
     * and test knobs set them) into `out` and returns how many it has. */
    size_t (*boundaries)(dmlconf_backend *backend, dmlconf_boundary *out, size_t max);
} dmlconf_backend_ops;

/* The part every backend's state starts with. */
struct dmlconf_backend
{
    const dmlconf_backend_ops *ops;
};

/* ---- native plugins ------------------------------------------------------------------ */

/* What a plugin's entry point returns. */
typedef struct dmlconf_backend_plugin
{
    uint32_t abi_version; /* DMLCONF_BACKEND_ABI_VERSION of the header it was built with */
    const dmlconf_backend_ops *ops;
} dmlconf_backend_plugin;

#if defined(_WIN32)
#define DMLCONF_BACKEND_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#define DMLCONF_BACKEND_EXPORT __attribute__((visibility("default")))
#else
#define DMLCONF_BACKEND_EXPORT
#endif

/* The one symbol a plugin exports ("dmlconf_backend_entry"), with C
 * linkage. It returns a plugin description that lives as long as the
 * library is loaded; dmlconf checks its abi_version before anything else
 * and refuses a plugin whose table lacks name, open, close, info or
 * execute. A plugin defines it as
 *
 *     DMLCONF_BACKEND_EXPORT const dmlconf_backend_plugin *dmlconf_backend_entry(void)
 *     {
 *         static const dmlconf_backend_plugin plugin = {DMLCONF_BACKEND_ABI_VERSION, &my_ops};
 *         return &plugin;
 *     }
 */
DMLCONF_BACKEND_EXPORT const dmlconf_backend_plugin *dmlconf_backend_entry(void);
typedef const dmlconf_backend_plugin *(*dmlconf_backend_entry_fn)(void);
#define DMLCONF_BACKEND_ENTRY_SYMBOL "dmlconf_backend_entry"

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_BACKEND_H */
