/*
 * Native plugins: a backend in a shared library, named on the command line
 * as "plugin:PATH".
 *
 * The library exports dmlconf_backend_entry (dmlconf/backend.h), which
 * returns the ABI version it was built for and its table. Loading checks,
 * in this order, that the file is there, that it loads, that it exports
 * the entry, that the entry returns a description, that the description's
 * ABI version is this dmlconf's and that the table has every function a
 * backend must have. Each failure is one sentence that names the file.
 *
 * The runner never calls the plugin's table itself; it calls a wrapper,
 * which
 *   - names the backend "plugin:NAME" and adds the library's path to its
 *     runtime, so a plugin never passes for a built-in backend in the
 *     reports and shards run on different libraries are never merged;
 *   - checks what the plugin says about itself when it opens (a feature
 *     level dmlconf knows, ranks within 1 to 8, capability bits and data
 *     types dmlconf knows), and refuses to open with a sentence otherwise;
 *   - ends every string the plugin fills at its buffer, turns a job
 *     outcome or a rejection reason outside their enums into a FAILED job
 *     that says so, and an unknown device time into "unknown".
 *
 * Each open backend holds its own reference to the library: the wrapper's
 * open loads the file named by config->arguments[0] again (the loader hands
 * back the copy already loaded), so a backend needs nothing of the
 * dmlconf_plugin that loaded the file first. A forked worker inherits the
 * loaded library; a worker started as a program is given "plugin:PATH" and
 * loads it itself.
 */
#include <dmlconf/backend.h>
#include <dmlconf/plugin_backend.h>
#include <dmlconf/dynlib.h>
#include <dmlconf/file_system.h>
#include <dmlconf/process.h>
#include <dmlconf/text.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLUGIN_PREFIX "plugin:"

struct dmlconf_plugin
{
    void *library;
    char *path;
    char *name;               /* "plugin:PATH": what a spawned worker is given */
    const char *arguments[2]; /* {path, NULL}: the backend config's arguments */
    dmlconf_backend_ops ops;  /* the wrapper, with the plugin's description and adapter list */
};

/* A backend opened through the wrapper. */
typedef struct plugin_backend
{
    dmlconf_backend base;
    void *library;                  /* this backend's own reference */
    const dmlconf_backend_ops *ops; /* &table */
    dmlconf_backend_ops table;      /* the plugin's table, as this ABI lays it out */
    dmlconf_backend *inner;         /* what the plugin's open gave */
    dmlconf_backend_info info;      /* checked and renamed once, at open */
    uint32_t abi_version;           /* the ABI the plugin was built for */
} plugin_backend;

static const dmlconf_backend_ops plugin_backend_ops;

/* ---- loading ----------------------------------------------------------------- */

/* The names of the functions a table lacks, into `text` ("" when none). */
static void missing_functions(const dmlconf_backend_ops *ops, char *text, size_t size)
{
    const char *missing[5];
    size_t count = 0, used = 0;
    if (!ops->name || !ops->name[0])
        missing[count++] = "a name";
    if (!ops->open)
        missing[count++] = "open";
    if (!ops->close)
        missing[count++] = "close";
    if (!ops->info)
        missing[count++] = "info";
    if (!ops->execute)
        missing[count++] = "execute";
    text[0] = '\0';
    for (size_t i = 0; i < count && used < size; ++i)
        used += (size_t)snprintf(text + used, size - used, "%s%s",
                                 i == 0           ? ""
                                 : i + 1 == count ? " and "
                                                  : ", ",
                                 missing[i]);
}

/* Loads the plugin library at `path` and finds its table: a new reference
 * to the library in *library, the table in *ops and the ABI version it was
 * built for in *abi_version. Returns 0, or -1 with one sentence in why. */
static int load_library(const char *path, void **library, dmlconf_backend_ops *ops, uint32_t *abi_version, char *why,
                        size_t why_size)
{
    dmlconf_path_kind kind;
    char detail[512];
    *library = NULL;
    memset(ops, 0, sizeof(*ops));
    if (dmlconf_path_examine(path, &kind, NULL, detail, sizeof(detail)))
    {
        snprintf(why, why_size, "cannot load the plugin %s: %s", path, detail);
        return -1;
    }
    if (kind != DMLCONF_PATH_REGULAR)
    {
        snprintf(why, why_size, "cannot load the plugin %s: %s", path,
                 kind == DMLCONF_PATH_MISSING     ? "there is no such file"
                 : kind == DMLCONF_PATH_DIRECTORY ? "it is a folder, not a library"
                                                  : "it is not a regular file");
        return -1;
    }
    void *loaded = dmlconf_dynlib_open_file(path, detail, sizeof(detail));
    if (!loaded)
    {
        snprintf(why, why_size, "cannot load the plugin %s: it is not a library this system can load (%s)", path,
                 detail);
        return -1;
    }
    dmlconf_backend_entry_fn entry = NULL;
    DMLCONF_DYNLIB_FUNCTION(entry, loaded, DMLCONF_BACKEND_ENTRY_SYMBOL);
    const dmlconf_backend_plugin *plugin = entry ? entry() : NULL;
    if (!entry)
        snprintf(why, why_size, "the library %s is not a dmlconf backend plugin: it does not export %s", path,
                 DMLCONF_BACKEND_ENTRY_SYMBOL);
    else if (!plugin)
        snprintf(why, why_size, "the plugin %s gave no backend: its %s returned NULL", path,
                 DMLCONF_BACKEND_ENTRY_SYMBOL);
    else if (plugin->abi_version < 1 || plugin->abi_version > DMLCONF_BACKEND_ABI_VERSION)
        snprintf(why, why_size, "the plugin %s is built for backend ABI %lu; this dmlconf speaks 1 to %u", path,
                 (unsigned long)plugin->abi_version, DMLCONF_BACKEND_ABI_VERSION);
    else if (!plugin->ops)
        snprintf(why, why_size, "the plugin %s gave no backend table (its ops are NULL)", path);
    else
    {
        missing_functions(plugin->ops, detail, sizeof(detail));
        if (detail[0])
            snprintf(why, why_size, "the plugin %s has an incomplete backend table: it lacks %s", path, detail);
        else
        {
            *library = loaded;
            *abi_version = plugin->abi_version;
            /* A version 1 table ends before `boundaries`: only that much of
             * it is read, and the ops added since stay NULL. */
            memcpy(ops, plugin->ops,
                   plugin->abi_version == 1 ? offsetof(dmlconf_backend_ops, boundaries) : sizeof(*ops));
            return 0;
        }
    }
    dmlconf_dynlib_close(loaded);
    return -1;
}

/* ---- the wrapper ------------------------------------------------------------- */

/* Ends a string the plugin filled at its buffer. */
/* Ends a string a plugin filled at its buffer, whatever it wrote, and
 * makes it safe to show: no control character or invisible reordering one
 * reaches a console or a report. */
static void end_string(char *text, size_t size)
{
    text[size - 1] = '\0';
    dmlconf_text_make_printable(text, false);
}

/* Ends a string of the plugin's description at its buffer, and says which
 * control character it holds (0: none): a description is refused for one,
 * as an adapter's handshake is. */
static uint32_t end_description_string(char *text, size_t size)
{
    text[size - 1] = '\0';
    return dmlconf_text_first_control(text, false);
}

/* Ends a text that snprintf cut at `size` bytes with "...", never in the
 * middle of a UTF-8 sequence, so that nobody takes it for the whole. */
static void mark_cut(char *text, size_t size)
{
    size_t at = size - 4;
    while (at > 0 && ((unsigned char)text[at] & 0xc0) == 0x80)
        --at;
    memcpy(text + at, "...", 4);
}

/* Checks what a plugin said about itself. Returns 0, or -1 with why set. */
static int check_info(const dmlconf_backend_info *info, char *why, size_t why_size)
{
    const dmlconf_backend_capabilities *can = &info->capabilities;
    if (info->feature_level != DMLCONF_FEATURE_LEVEL_NONE && !dmlconf_feature_level_name(info->feature_level))
    {
        snprintf(why, why_size, "it claims feature level 0x%x, which is not a DirectML feature level",
                 (unsigned)info->feature_level);
        return -1;
    }
    if (can->features & ~(uint32_t)DMLCONF_CAN_EVERYTHING)
    {
        snprintf(why, why_size, "it declares capabilities dmlconf does not know (bits 0x%lx)",
                 (unsigned long)(can->features & ~(uint32_t)DMLCONF_CAN_EVERYTHING));
        return -1;
    }
    if (info->float16_accumulation != DMLCONF_DATA_TYPE_UNKNOWN &&
        info->float16_accumulation != DMLCONF_DATA_TYPE_FLOAT32 &&
        info->float16_accumulation != DMLCONF_DATA_TYPE_FLOAT16)
    {
        snprintf(why, why_size,
                 "it says float16 data may be computed in data type %d; only float16 and float32 are "
                 "known",
                 (int)info->float16_accumulation);
        return -1;
    }
    for (unsigned type = 0; type < 32; ++type)
    {
        if ((can->data_types & DMLCONF_TYPE_BIT(type)) &&
            (type == DMLCONF_DATA_TYPE_UNKNOWN || !dmlconf_data_type_name((dmlconf_data_type)type)))
        {
            snprintf(why, why_size, "it declares data type %u, which is not a DirectML data type", type);
            return -1;
        }
    }
    if (can->min_rank < 1 || can->max_rank > DMLCONF_MAX_DIMENSIONS || can->min_rank > can->max_rank)
    {
        snprintf(why, why_size, "it declares ranks %lu to %lu; ranks go from 1 to %u", (unsigned long)can->min_rank,
                 (unsigned long)can->max_rank, (unsigned)DMLCONF_MAX_DIMENSIONS);
        return -1;
    }
    return 0;
}

/* Names the backend "plugin:NAME" and its runtime after the library. */
static void rename_info(dmlconf_backend_info *info, const char *fallback_name, const char *path)
{
    char name[sizeof(info->backend)];
    char runtime[sizeof(info->runtime)];
    if (snprintf(name, sizeof(name), PLUGIN_PREFIX "%s", info->backend[0] ? info->backend : fallback_name) >=
        (int)sizeof(name))
        mark_cut(name, sizeof(name));
    if (snprintf(runtime, sizeof(runtime), "%s%splugin library %s", info->runtime, info->runtime[0] ? "; " : "",
                 path) >= (int)sizeof(runtime))
        mark_cut(runtime, sizeof(runtime));
    memcpy(info->backend, name, sizeof(name));
    memcpy(info->runtime, runtime, sizeof(runtime));
}

static int wrapper_open(const dmlconf_backend_config *config, dmlconf_backend **out, char *why, size_t why_size)
{
    const char *path = config && config->arguments ? config->arguments[0] : NULL;
    char detail[512] = "";
    *out = NULL;
    if (!path || !path[0])
    {
        snprintf(why, why_size, "a plugin backend needs the path of its library (plugin:PATH)");
        return -1;
    }
    plugin_backend *backend = calloc(1, sizeof(*backend));
    if (!backend)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    backend->base.ops = &plugin_backend_ops;
    backend->ops = &backend->table;
    if (load_library(path, &backend->library, &backend->table, &backend->abi_version, why, why_size))
        goto fail;
    if (backend->ops->open(config, &backend->inner, detail, sizeof(detail)))
    {
        end_string(detail, sizeof(detail));
        snprintf(why, why_size, "%s", detail[0] ? detail : "the plugin's open failed and did not say why");
        backend->inner = NULL;
        goto fail;
    }
    if (!backend->inner)
    {
        snprintf(why, why_size, "the plugin %s opened no backend (its open succeeded with a NULL backend)", path);
        goto fail;
    }
    backend->ops->info(backend->inner, &backend->info);
    {
        struct
        {
            char *text;
            size_t size;
            const char *what;
        } strings[] = {
            {backend->info.backend, sizeof(backend->info.backend), "name"},
            {backend->info.adapter, sizeof(backend->info.adapter), "adapter"},
            {backend->info.driver, sizeof(backend->info.driver), "driver"},
            {backend->info.runtime, sizeof(backend->info.runtime), "runtime"},
        };
        for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); ++i)
        {
            uint32_t code = end_description_string(strings[i].text, strings[i].size);
            if (code)
            {
                snprintf(why, why_size,
                         "the plugin %s describes itself wrongly: its %s holds %s U+%04X, which would act on a "
                         "console or hide the text after it",
                         path, strings[i].what,
                         code == 0xfffd ? "bytes that are not UTF-8 (read as)" : "the control character",
                         (unsigned)code);
                goto fail;
            }
        }
    }
    if (check_info(&backend->info, detail, sizeof(detail)))
    {
        snprintf(why, why_size, "the plugin %s describes itself wrongly: %s", path, detail);
        goto fail;
    }
    rename_info(&backend->info, backend->ops->name, path);
    *out = &backend->base;
    return 0;

fail:
    if (backend->inner)
        backend->ops->close(backend->inner);
    dmlconf_dynlib_close(backend->library);
    free(backend);
    return -1;
}

static void wrapper_close(dmlconf_backend *base)
{
    plugin_backend *backend = (plugin_backend *)base;
    backend->ops->close(backend->inner);
    dmlconf_dynlib_close(backend->library);
    free(backend);
}

static void wrapper_info(dmlconf_backend *base, dmlconf_backend_info *info)
{
    *info = ((plugin_backend *)base)->info;
}

/* Makes one job the plugin has run safe to judge: an outcome the plugin's
 * ABI does not have (NO_RESOURCES came with version 3) fails. */
static void check_job(dmlconf_job *job, uint32_t abi_version)
{
    dmlconf_job_outcome last = abi_version >= 3 ? DMLCONF_JOB_NO_RESOURCES : DMLCONF_JOB_FAILED;
    end_string(job->message, sizeof(job->message));
    if ((unsigned)job->outcome > (unsigned)last)
    {
        unsigned outcome = (unsigned)job->outcome;
        job->outcome = DMLCONF_JOB_FAILED;
        snprintf(job->message, sizeof(job->message), "the plugin ended the job with outcome %u, which is not one of %s",
                 outcome, "dmlconf_job_outcome's");
    }
    else if (job->outcome == DMLCONF_JOB_REJECTED && !dmlconf_reason_name(job->reason))
    {
        unsigned reason = (unsigned)job->reason;
        job->outcome = DMLCONF_JOB_FAILED;
        snprintf(job->message, sizeof(job->message),
                 "the plugin rejected the desc for reason %u, which is not one of %s", reason, "dmlconf_reason's");
    }
    if (!isfinite(job->device_seconds) || job->device_seconds < 0.0)
        job->device_seconds = -1.0;
}

static int wrapper_execute(dmlconf_backend *base, dmlconf_job *jobs, size_t count)
{
    plugin_backend *backend = (plugin_backend *)base;
    int status = backend->ops->execute(backend->inner, jobs, count);
    for (size_t i = 0; i < count; ++i)
        check_job(&jobs[i], backend->abi_version);
    return status == 0 ? 0 : -1;
}

static size_t wrapper_boundaries(dmlconf_backend *base, dmlconf_boundary *out, size_t max)
{
    plugin_backend *backend = (plugin_backend *)base;
    if (!backend->ops->boundaries)
        return 0;
    size_t count = backend->ops->boundaries(backend->inner, out, max);
    if (count > max)
        count = max;
    for (size_t i = 0; i < count; ++i)
        end_string(out[i].what, sizeof(out[i].what));
    return count;
}

/* The table of every backend opened through the wrapper. */
static const dmlconf_backend_ops plugin_backend_ops = {
    .name = "plugin",
    .description = "a native plugin",
    .open = wrapper_open,
    .close = wrapper_close,
    .info = wrapper_info,
    .execute = wrapper_execute,
    .boundaries = wrapper_boundaries,
};

/* ---- the plugin as the runner sees it ------------------------------------------ */

bool dmlconf_plugin_named(const char *name)
{
    return !strncmp(name, PLUGIN_PREFIX, strlen(PLUGIN_PREFIX));
}

/* How long a plugin's entry point may take in the copy that tries it. */
#define ENTRY_PROBE_SECONDS 60.0

/* The call a forked copy makes: load the library and call its entry point
 * (0 when the plugin can be used, 1 when it is refused; either way the
 * library stays loaded in the copy only). */
static int try_entry(void *context)
{
    const char *path = context;
    void *library = NULL;
    dmlconf_backend_ops table;
    uint32_t abi_version;
    char why[64];
    int refused = load_library(path, &library, &table, &abi_version, why, sizeof(why));
    return refused ? 1 : 0;
}

int dmlconf_plugin_try(int (*call)(void *context), void *context, const char *path, const char *doing, char *why,
                       size_t why_size)
{
    dmlconf_exit ended;
    char reason[256];
    if (dmlconf_process_run_forked(call, context, ENTRY_PROBE_SECONDS, &ended, reason, sizeof(reason)))
        return 0; /* no copy to try it in (Windows): the call runs in this process */
    if (ended.kind == DMLCONF_EXIT_STATUS)
        return 0;
    char how[160];
    dmlconf_exit_describe(&ended, how, sizeof(how));
    if (ended.killed_by_us)
        snprintf(why, why_size, "the plugin %s did not return from %s within %.0f s", path, doing,
                 ENTRY_PROBE_SECONDS);
    else
        snprintf(why, why_size, "the plugin %s crashed in %s: the process trying it %s", path, doing, how);
    return -1;
}

int dmlconf_plugin_load(const char *name, dmlconf_plugin **out, char *why, size_t why_size)
{
    const char *path = name + (dmlconf_plugin_named(name) ? strlen(PLUGIN_PREFIX) : 0);
    *out = NULL;
    if (!path[0])
    {
        snprintf(why, why_size, "'%s' names no library: write plugin:PATH", name);
        return -1;
    }
    dmlconf_plugin *plugin = calloc(1, sizeof(*plugin));
    if (!plugin)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    dmlconf_backend_ops table;
    const dmlconf_backend_ops *ops = &table;
    plugin->path = dmlconf_strdup(path);
    size_t name_size = strlen(PLUGIN_PREFIX) + strlen(path) + 1;
    plugin->name = malloc(name_size);
    if (!plugin->path || !plugin->name)
    {
        snprintf(why, why_size, "out of memory");
        dmlconf_plugin_unload(plugin);
        return -1;
    }
    snprintf(plugin->name, name_size, PLUGIN_PREFIX "%s", path);
    uint32_t abi_version;
    /* Its entry point runs first in a copy of this process: one that
     * crashes or hangs there costs the copy, not dmlconf. */
    if (dmlconf_plugin_try(try_entry, plugin->path, plugin->path, "its entry point", why, why_size) ||
        load_library(plugin->path, &plugin->library, &table, &abi_version, why, why_size))
    {
        dmlconf_plugin_unload(plugin);
        return -1;
    }
    plugin->arguments[0] = plugin->path;
    plugin->arguments[1] = NULL;
    plugin->ops = plugin_backend_ops;
    plugin->ops.name = plugin->name;
    plugin->ops.description = ops->description ? ops->description : ops->name;
    plugin->ops.list_adapters = ops->list_adapters;
    *out = plugin;
    return 0;
}

const dmlconf_backend_ops *dmlconf_plugin_ops(const dmlconf_plugin *plugin)
{
    return &plugin->ops;
}

const char *const *dmlconf_plugin_arguments(const dmlconf_plugin *plugin)
{
    return plugin->arguments;
}

void dmlconf_plugin_unload(dmlconf_plugin *plugin)
{
    if (!plugin)
        return;
    dmlconf_dynlib_close(plugin->library);
    free(plugin->path);
    free(plugin->name);
    free(plugin);
}
