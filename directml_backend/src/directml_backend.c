/*
 * The directml backend's function table: a D3D12 device on the chosen
 * adapter (d3d12_runtime), DirectML loaded at run time and a DirectML
 * device created on it for the run's feature level, what DirectML reports
 * about itself, the path the run takes (directml_path.h), and jobs executed
 * through directml_batch.c.
 */
#include "directml_backend_internal.h"

#include <dmlconf/directml.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The feature levels DirectML is asked about, in order (DirectML rejects a
 * query that names a level it does not know, so only named levels). */
static const dmlconf_feature_level known_levels[] = {
    DMLCONF_FEATURE_LEVEL_1_0, DMLCONF_FEATURE_LEVEL_2_0, DMLCONF_FEATURE_LEVEL_2_1, DMLCONF_FEATURE_LEVEL_3_0,
    DMLCONF_FEATURE_LEVEL_3_1, DMLCONF_FEATURE_LEVEL_4_0, DMLCONF_FEATURE_LEVEL_4_1, DMLCONF_FEATURE_LEVEL_5_0,
    DMLCONF_FEATURE_LEVEL_5_1, DMLCONF_FEATURE_LEVEL_5_2, DMLCONF_FEATURE_LEVEL_6_0, DMLCONF_FEATURE_LEVEL_6_1,
    DMLCONF_FEATURE_LEVEL_6_2, DMLCONF_FEATURE_LEVEL_6_3, DMLCONF_FEATURE_LEVEL_6_4,
};

/* The data types the cumulative operators can take at some level. */
static const dmlconf_data_type operator_types[] = {
    DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_FLOAT16, DMLCONF_DATA_TYPE_INT32,
    DMLCONF_DATA_TYPE_UINT32,  DMLCONF_DATA_TYPE_INT64,   DMLCONF_DATA_TYPE_UINT64,
};

/* Asks DirectML for its highest feature level, one level at a time from
 * the top, so that a newer level this list lacks cannot make the query
 * fail. */
static dmlconf_feature_level query_highest_level(IDMLDevice *dml)
{
    int levels[sizeof(known_levels) / sizeof(known_levels[0])];
    size_t count = sizeof(known_levels) / sizeof(known_levels[0]);
    for (size_t i = 0; i < count; ++i)
        levels[i] = directml_feature_level(known_levels[i]);
    for (size_t n = count; n > 0; --n)
    {
        DML_FEATURE_QUERY_FEATURE_LEVELS query = {(UINT)n, levels};
        DML_FEATURE_DATA_FEATURE_LEVELS data = {0};
        if (SUCCEEDED(DML_CALL(dml, CheckFeatureSupport, DML_FEATURE_FEATURE_LEVELS, (UINT)sizeof(query), &query,
                               (UINT)sizeof(data), &data)))
            return (dmlconf_feature_level)data.MaxSupportedFeatureLevel;
    }
    return DMLCONF_FEATURE_LEVEL_NONE;
}

static void query_types(directml_backend *b)
{
    size_t used = 0;
    b->types[0] = '\0';
    for (size_t i = 0; i < sizeof(operator_types) / sizeof(operator_types[0]); ++i)
    {
        dmlconf_data_type type = operator_types[i];
        DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT query = {(DML_TENSOR_DATA_TYPE)type};
        DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT data = {FALSE};
        bool supported = SUCCEEDED(DML_CALL(b->dml, CheckFeatureSupport, DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT,
                                            (UINT)sizeof(query), &query, (UINT)sizeof(data), &data)) &&
                         data.IsSupported;
        b->type_supported[type] = supported;
        if (supported && used < sizeof(b->types))
            used += (size_t)snprintf(b->types + used, sizeof(b->types) - used, "%s%s", used ? " " : "",
                                     dmlconf_data_type_name(type));
    }
}

static void close_backend(directml_backend *b)
{
    directml_release_resources(b);
    DML_RELEASE(b->recorder);
    DML_RELEASE(b->dml1);
    DML_RELEASE(b->dml);
    d3d12_device_close(&b->device);
    directml_library_close(&b->library);
    free(b);
}

/* Whether this build can reach DirectML at all: Windows (and Wine) and WSL
 * can; a Linux build on vkd3d cannot (DirectML exists for neither). */
static bool build_reaches_directml(void)
{
#if defined(_WIN32) || defined(DMLCONF_D3D12_SYSV_ABI)
    return true;
#else
    return false;
#endif
}

/* Opens everything for `config`; on failure returns NULL with `why`. */
static directml_backend *open_backend(const dmlconf_backend_config *config, char *why, size_t why_size)
{
    if (!build_reaches_directml())
    {
        snprintf(why, why_size,
                 "DirectML runs on Windows and in WSL; this Linux build drives vkd3d, which DirectML cannot use "
                 "(build for WSL with -DDMLCONF_D3D12_SYSV_ABI=ON, or use dmlconf.exe under Windows or Wine)");
        return NULL;
    }
    directml_backend *b = calloc(1, sizeof(*b));
    if (!b)
    {
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    b->base.ops = &dmlconf_directml_backend_ops;
    if (directml_path_from_environment(&b->path, why, why_size))
    {
        free(b);
        return NULL;
    }
    if (directml_library_open(&b->library, why, why_size))
    {
        free(b);
        return NULL;
    }
    if (d3d12_device_open(&b->device, config ? config->adapter : NULL, why, why_size))
    {
        directml_library_close(&b->library);
        free(b);
        return NULL;
    }
    dmlconf_feature_level level = config && config->feature_level ? config->feature_level : DMLCONF_FEATURE_LEVEL_1_0;
    b->created_level = level;
    char text[64];
    HRESULT hr = b->library.create_device1(b->device.device, DML_CREATE_DEVICE_FLAG_NONE, directml_feature_level(level),
                                           &dml_iid_device, (void **)&b->dml);
    if (FAILED(hr) || !b->dml)
    {
        snprintf(why, why_size, "DMLCreateDevice1 failed for feature level %s on %s: %s%s",
                 dmlconf_feature_level_name(level), b->device.adapter.name, d3d12_hresult_text(hr, text, sizeof(text)),
                 (uint32_t)hr == 0x887a0004u ? " (this DirectML does not reach that level on this device)" : "");
        b->dml = NULL;
        close_backend(b);
        return NULL;
    }
    hr = DML_CALL(b->dml, CreateCommandRecorder, &dml_iid_command_recorder, (void **)&b->recorder);
    if (FAILED(hr))
    {
        snprintf(why, why_size, "CreateCommandRecorder failed: %s", d3d12_hresult_text(hr, text, sizeof(text)));
        b->recorder = NULL;
        close_backend(b);
        return NULL;
    }
    if (b->path.graph != DIRECTML_GRAPH_NONE)
    {
        hr = DML_CALL(b->dml, QueryInterface, &dml_iid_device1, (void **)&b->dml1);
        if (FAILED(hr) || !b->dml1)
        {
            snprintf(why, why_size, "this DirectML has no IDMLDevice1 (CompileGraph) for the graph paths: %s",
                     d3d12_hresult_text(hr, text, sizeof(text)));
            b->dml1 = NULL;
            close_backend(b);
            return NULL;
        }
    }
    b->highest_level = query_highest_level(b->dml);
    query_types(b);
    return b;
}

static int directml_open(const dmlconf_backend_config *config, dmlconf_backend **out, char *why, size_t why_size)
{
    directml_backend *b = open_backend(config, why, why_size);
    if (!b)
        return -1;
    *out = &b->base;
    return 0;
}

static void directml_close(dmlconf_backend *backend)
{
    close_backend((directml_backend *)backend);
}

/* Copies text into a fixed field, cutting it at the field's end. */
static void copy_field(char *field, size_t size, const char *text)
{
    snprintf(field, size, "%.*s", (int)(size - 1), text);
}

static void directml_info(dmlconf_backend *backend, dmlconf_backend_info *info)
{
    const directml_backend *b = (const directml_backend *)backend;
    const gpu_adapter *a = &b->device.adapter;
    char text[2048], path[256];
    memset(info, 0, sizeof(*info));
    snprintf(info->backend, sizeof(info->backend), "directml");
    snprintf(text, sizeof(text), "%s (PCI %04x:%04x, %s, adapter %u of %zu)", a->name, (unsigned)a->vendor_id,
             (unsigned)a->device_id, gpu_adapter_type_name(a), a->index, b->device.adapter_count);
    copy_field(info->adapter, sizeof(info->adapter), text);
    copy_field(info->driver, sizeof(info->driver), a->driver);
    snprintf(text, sizeof(text), "DirectML %s (up to FL %s) on %s; path: %s",
             b->library.version[0] ? b->library.version : "?", dmlconf_feature_level_name(b->highest_level),
             b->device.runtime, directml_path_describe(&b->path, path, sizeof(path)));
    copy_field(info->runtime, sizeof(info->runtime), text);
    info->software = gpu_adapter_is_software(a);
    info->exact = false;
    info->feature_level = b->highest_level ? b->highest_level : b->created_level;
    uint32_t types = 0;
    for (unsigned type = 0; type < sizeof(b->type_supported) / sizeof(b->type_supported[0]); ++type)
        if (b->type_supported[type])
            types |= DMLCONF_TYPE_BIT(type);
    info->capabilities = dmlconf_capabilities_all(types);
    /* Half-precision computation allows float16 data to be computed in
     * float16 (docs/half-precision-rule.md). */
    info->float16_accumulation = (b->path.execution_flags & DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION)
                                     ? DMLCONF_DATA_TYPE_FLOAT16
                                     : DMLCONF_DATA_TYPE_FLOAT32;
}

static int directml_execute(dmlconf_backend *backend, dmlconf_job *jobs, size_t count)
{
    return directml_execute_jobs((directml_backend *)backend, jobs, count);
}

static int directml_list_adapters(dmlconf_adapter_info *adapters, size_t max, char *why, size_t why_size)
{
    directml_library library;
    if (directml_library_open(&library, why, why_size))
        return -1;
    directml_library_close(&library);
    gpu_adapter *list = NULL;
    size_t count = 0;
    if (gpu_list_adapters(&list, &count, why, why_size))
        return -1;
    for (size_t i = 0; i < count && i < max; ++i)
    {
        const gpu_adapter *a = &list[i];
        char which[32], reason[512], text[2048];
        snprintf(which, sizeof(which), "%zu", i);
        copy_field(adapters[i].name, sizeof(adapters[i].name), a->name);
        adapters[i].software = gpu_adapter_is_software(a);
        dmlconf_backend_config config = {which, DMLCONF_FEATURE_LEVEL_NONE, NULL};
        directml_backend *b = open_backend(&config, reason, sizeof(reason));
        if (b)
        {
            snprintf(text, sizeof(text), "%s; DirectML %s (%s), feature levels up to %s, data types %s", a->api,
                     b->library.version[0] ? b->library.version : "of unknown version", b->library.path,
                     dmlconf_feature_level_name(b->highest_level), b->types);
            close_backend(b);
        }
        else
            snprintf(text, sizeof(text), "%s; DirectML does not open on it: %s", a->api, reason);
        copy_field(adapters[i].details, sizeof(adapters[i].details), text);
    }
    free(list);
    return (int)count;
}

const dmlconf_backend_ops dmlconf_directml_backend_ops = {
    .name = "directml",
    .description = "DirectML's own cumulative operators (DirectML.dll) on a D3D12 device",
    .open = directml_open,
    .close = directml_close,
    .info = directml_info,
    .execute = directml_execute,
    .list_adapters = directml_list_adapters,
};
