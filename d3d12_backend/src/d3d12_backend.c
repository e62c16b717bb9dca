/*
 * The D3D12 backend's function table: open a device on the chosen adapter,
 * describe it, and execute jobs through d3d12_batch.c.
 *
 * Test knobs, read from the environment when the backend opens (each one
 * named in the report's runtime line when set):
 *   DMLCONF_D3D12_FAULT=drop-element|off-by-one-exclusive|f16-accumulate
 *       run a deliberately broken kernel variant (the self-test);
 *   DMLCONF_D3D12_FAULT=chunk-carry|broadcast-in-place
 *       faults at boundaries the corpus does not reach (scan_kernels.h), which
 *       `dmlconf explore` must find;
 *   DMLCONF_D3D12_KERNEL=serial|tile|rake|lookback|chained|lines   use only
 *       that kernel (lookback: wherever lines step by +1 or -1; chained:
 *       the tile kernel, in chained passes wherever lines step by +1 or -1;
 *       lines: wherever short lines are packed; the others serial);
 *   DMLCONF_D3D12_CHUNK=N              cut serial lines, and look-back chunks,
 *                                      into chunks of at most N;
 *   DMLCONF_D3D12_TILE=64x16|32x16|64x8|256x16|64x32   the cooperative kernels' shape;
 *   DMLCONF_D3D12_LOOKBACK=0|1|spans   whether long contiguous lines are
 *                                      scanned in one pass by looking back
 *                                      (default 1 on a GPU; spans: 1, and the
 *                                      chunks publish spans, never inclusive
 *                                      prefixes, past the first, so every
 *                                      look-back jumps);
 *   DMLCONF_D3D12_LOOKBACK_TILES=N     that pass's chunks: 1, the look-back
 *                                      kernel (a tile a chunk); 2 to 64,
 *                                      chained tile-kernel passes of N tiles
 *                                      (default: 3 to 6 by element size);
 *   DMLCONF_D3D12_BUFFER_LIMIT=BYTES   a buffer larger than this fails to be
 *                                      created as one the device has no memory
 *                                      for (E_OUTOFMEMORY): the path a case
 *                                      too large for the device takes;
 *   DMLCONF_D3D12_EPOCHS=N             the one-pass scans' status words are
 *                                      zeroed every N batches, not every 255
 *                                      (1 to 255: 1 zeroes before every
 *                                      batch, 2 also reads the words a
 *                                      batch of the other epoch left);
 *   DMLCONF_D3D12_VIEW_WORDS=N         pretend one buffer view holds N words
 *                                      (at least 32768), to exercise cutting.
 * And, changing no result: DMLCONF_D3D12_TRACE=1 prints each dispatch's
 * kernel, work items and GPU time to stderr.
 */
#include "d3d12_backend_internal.h"

#include <dmlconf/d3d12.h>

#include <dmlconf/dynlib.h>
#include <dmlconf/integer_text.h>

#include <dmlconf/threads.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIB            (UINT64_C(1) << 10)
#define MIB            (UINT64_C(1) << 20)
#define MIN_VIEW_WORDS 32768u

static void append_knob(d3d12_backend *b, const char *name, const char *value)
{
    size_t used = strlen(b->knobs);
    snprintf(b->knobs + used, sizeof(b->knobs) - used, "%s%s=%s", used ? ", " : "", name, value);
}

/* The knobs that take a whole number, each checked against its range. */
typedef enum number_knob
{
    KNOB_LOOKBACK_TILES,
    KNOB_BUILD_AHEAD,
    KNOB_CHUNK,
    KNOB_TILE_GROUPS,
    KNOB_EPOCHS,
    KNOB_VIEW_WORDS,
} number_knob;

static const struct
{
    number_knob knob;
    const char *variable;
    const char *label; /* in the backend's description; NULL: changes no result, not named */
    uint64_t min, max;
    const char *what;
} number_knobs[] = {
    {KNOB_LOOKBACK_TILES, "DMLCONF_D3D12_LOOKBACK_TILES", "lookback tiles", 1, 64, "a number of tiles"},
    {KNOB_BUILD_AHEAD, "DMLCONF_D3D12_BUILD_AHEAD", NULL, 0, SCAN_PIPELINES_MAX_THREADS, "a number of threads"},
    {KNOB_CHUNK, "DMLCONF_D3D12_CHUNK", "chunk", 1, UINT32_MAX, "a chunk length"},
    {KNOB_TILE_GROUPS, "DMLCONF_D3D12_TILE_GROUPS", "tile groups", 1, UINT32_MAX, "a number of thread groups"},
    {KNOB_EPOCHS, "DMLCONF_D3D12_EPOCHS", "epochs", 1, SCAN_EPOCH_MAX, "a number of epochs"},
    {KNOB_VIEW_WORDS, "DMLCONF_D3D12_VIEW_WORDS", "view words", MIN_VIEW_WORDS, UINT64_MAX / 4, "a number of words"},
};

/* Reads the knobs of number_knobs that are set. Returns 0, or -1 with
 * `why` for a value that is not a number in its range. */
static int read_number_knobs(d3d12_backend *b, char *why, size_t why_size)
{
    for (size_t k = 0; k < sizeof(number_knobs) / sizeof(number_knobs[0]); ++k)
    {
        const char *text = getenv(number_knobs[k].variable);
        uint64_t value;
        if (!text || !*text)
            continue;
        if (!dmlconf_parse_u64(text, number_knobs[k].min, number_knobs[k].max, &value))
        {
            snprintf(why, why_size, "%s=%s is not %s from %llu to %llu", number_knobs[k].variable, text,
                     number_knobs[k].what, (unsigned long long)number_knobs[k].min,
                     (unsigned long long)number_knobs[k].max);
            return -1;
        }
        switch (number_knobs[k].knob)
        {
        case KNOB_LOOKBACK_TILES:
            b->limits.lookback_tiles = (uint32_t)value;
            break;
        case KNOB_BUILD_AHEAD:
            b->build_ahead_threads = (unsigned)value;
            break;
        case KNOB_CHUNK:
            b->limits.max_chunk = (uint32_t)value;
            break;
        case KNOB_TILE_GROUPS:
            b->limits.tile_groups = (uint32_t)value;
            break;
        case KNOB_EPOCHS:
            b->epoch_max = (uint32_t)value;
            break;
        case KNOB_VIEW_WORDS:
            /* Smaller views only: the device's own limit stays the most. */
            if (value * 4 < b->view_bytes)
                b->view_bytes = value * 4;
            break;
        }
        if (number_knobs[k].label)
            append_knob(b, number_knobs[k].label, text);
    }
    return 0;
}

/* Reads the test knobs. Returns 0, or -1 with `why` for a bad value. */
static int read_knobs(d3d12_backend *b, char *why, size_t why_size)
{
    static const char *const faults[] = {"none",           "drop-element", "off-by-one-exclusive",
                                         "f16-accumulate", "chunk-carry",  "broadcast-in-place"};
    const char *fault = getenv("DMLCONF_D3D12_FAULT");
    if (fault && *fault)
    {
        size_t i = 0;
        while (i < FAULT_COUNT && strcmp(fault, faults[i]))
            ++i;
        if (i == FAULT_COUNT)
        {
            snprintf(why, why_size,
                     "DMLCONF_D3D12_FAULT=%s is not drop-element, off-by-one-exclusive, f16-accumulate, chunk-carry "
                     "or broadcast-in-place",
                     fault);
            return -1;
        }
        b->limits.fault = (kernel_fault)i;
        if (i != FAULT_NONE)
            append_knob(b, "fault", fault);
    }
    static const char *const kinds[] = {"serial", "tile", "rake", "lookback", "lines"};
    const char *kernel = getenv("DMLCONF_D3D12_KERNEL");
    if (kernel && !strcmp(kernel, "chained"))
    {
        b->limits.forced = true;
        b->limits.forced_kind = KERNEL_TILE;
        b->limits.lookback = true;
        b->limits.chained_always = true;
        append_knob(b, "kernel", kernel);
    }
    else if (kernel && *kernel)
    {
        size_t i = 0;
        while (i < sizeof(kinds) / sizeof(kinds[0]) && strcmp(kernel, kinds[i]))
            ++i;
        if (i == sizeof(kinds) / sizeof(kinds[0]))
        {
            snprintf(why, why_size, "DMLCONF_D3D12_KERNEL=%s is not serial, tile, rake, lookback, chained or lines",
                     kernel);
            return -1;
        }
        b->limits.forced = true;
        b->limits.forced_kind = (kernel_kind)i;
        append_knob(b, "kernel", kernel);
    }
    const char *shape = getenv("DMLCONF_D3D12_TILE");
    if (shape && *shape)
    {
        if (!kernel_tile_shape_from_name(shape, &b->limits.tile_shape))
        {
            snprintf(why, why_size, "DMLCONF_D3D12_TILE=%s is not 64x16, 32x16, 64x8, 256x16 or 64x32", shape);
            return -1;
        }
        append_knob(b, "tile", shape);
    }
    b->limits.totals_shape = b->limits.tile_shape;
    const char *totals = getenv("DMLCONF_D3D12_TOTALS_TILE");
    if (totals && *totals)
    {
        if (!kernel_tile_shape_from_name(totals, &b->limits.totals_shape))
        {
            snprintf(why, why_size, "DMLCONF_D3D12_TOTALS_TILE=%s is not 64x16, 32x16, 64x8, 256x16 or 64x32", totals);
            return -1;
        }
        append_knob(b, "totals tile", totals);
    }
    const char *lookback = getenv("DMLCONF_D3D12_LOOKBACK");
    if (lookback && *lookback)
    {
        if (strcmp(lookback, "0") && strcmp(lookback, "1") && strcmp(lookback, "spans"))
        {
            snprintf(why, why_size, "DMLCONF_D3D12_LOOKBACK=%s is not 0, 1 or spans", lookback);
            return -1;
        }
        b->limits.lookback = strcmp(lookback, "0") != 0;
        b->limits.lookback_spans = !strcmp(lookback, "spans");
        append_knob(b, "lookback", lookback);
    }
    const char *trace = getenv("DMLCONF_D3D12_TRACE");
    b->trace = trace && *trace && strcmp(trace, "0");
    if (read_number_knobs(b, why, why_size))
        return -1;
    /* The device reads its own knob (DMLCONF_D3D12_BUFFER_LIMIT); the
     * runtime's description names it. */
    if (b->device.buffer_limit)
    {
        char limit[24];
        snprintf(limit, sizeof(limit), "%llu", (unsigned long long)b->device.buffer_limit);
        append_knob(b, "buffer limit", limit);
    }
    return 0;
}

static int d3d12_open(const dmlconf_backend_config *config, dmlconf_backend **out, char *why, size_t why_size)
{
    d3d12_backend *b = calloc(1, sizeof(*b));
    if (!b)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    b->base.ops = &dmlconf_d3d12_backend_ops;
    if (d3d12_device_open(&b->device, config ? config->adapter : NULL, why, why_size))
    {
        free(b);
        return -1;
    }
    if (scan_pipelines_create(&b->pipelines, &b->device, why, why_size))
    {
        d3d12_device_close(&b->device);
        free(b);
        return -1;
    }
    b->view_bytes = b->device.view_bytes;
    bool software = gpu_adapter_is_software(&b->device.adapter);
    /* A GPU wants a few hundred thousand threads in flight; lavapipe runs a
     * group per CPU thread, and its barriers are costly, so on it the tile
     * kernel runs only when forced (DMLCONF_D3D12_KERNEL=tile). */
    b->limits.parallel_items = software ? 256u : 262144u;
    b->limits.min_chunk = software ? 64u : 128u;
    /* Float16 line pairs (one word, two lanes, a thread) fill the device
     * with fewer threads walking longer chunks: on an H100, 10^4 x 10^4
     * along axis 0 (5000 pairs) ran at 48.9% of the copy kernel in 53
     * chunks a line (262144 threads), 49.8% in 14, 52.5% in 11, 53.0-53.5%
     * in 10 (49152 threads), 52.2% in 9, 51.1% in 8. */
    b->limits.lane_items = software ? 0u : 49152u;
    /* From 4096 elements: the chunk totals of a 10^8-element 1-D scan
     * (8139) are then scanned by one thread group in one dispatch. */
    b->limits.tile_min_length = software ? UINT32_MAX : 4096u;
    /* Tile-kernel chunks: enough 64-thread groups for about two rounds of
     * the GPU's resident groups, at least 8 tiles each; on lavapipe chunks
     * of 2 tiles, so that the forced-tile tests walk tiles and chunk. */
    b->limits.tile_groups = software ? 4u : 8192u;
    b->limits.tile_min_tiles = software ? 2u : 8u;
    /* A line of chunk totals up to 8192 long (a 10^8-element line's) is
     * scanned by one group in one pass: for 64-bit elements, whose tiles
     * hold half as many, two chunks cost two more dispatches, each behind
     * a barrier (0.05 ms of 0.31 per piece of an int64 scan on an H200). */
    b->limits.tile_one_chunk = software ? 0u : 8192u;
    b->limits.group_kind = KERNEL_TILE;
    /* Lines of several tile-kernel chunks are scanned in one pass: chained
     * tile-kernel passes, each chunk of a few tiles reduced, its prefix
     * found by looking back, and scanned again from the cache. On an H100
     * that took a 10^8-element int32 scan from 0.469 to 0.371 ms (int64
     * 0.972 -> 0.823, float16 0.289 -> 0.241; reports/gpu/
     * nvidia-h100-chained.md); the look-back kernel, a tile a chunk, was
     * slower than two passes (reports/gpu/nvidia-h200-lookback.md). Not on
     * lavapipe, where the tile kernel runs only when forced. */
    b->limits.lookback = !software;
    b->limits.short_lines = !software;
    /* From this many lines a thread each keep a GPU's memory busy: no
     * chunks, so the data is read once (16 loads in flight a thread). */
    b->limits.single_pass_lines = software ? 0u : 65536u;
    unsigned cpus = dmlconf_cpu_count();
    /* Build threads on every CPU but the one that runs the jobs, in each
     * of `dmlconf run`'s two workers on a GPU: they open their devices in
     * turn, so the first builds alone for a while, and later the driver's
     * compilations share the CPUs. With 16 CPUs, 15 threads a worker made
     * the corpus's cold run 1.62-1.71 s against 1.71-1.83 s with 7
     * (reports/gpu/nvidia-h100-2026-11-26-5/build-threads.txt). */
    unsigned spare = cpus > 1u ? cpus - 1u : 1u;
    b->epoch_max = SCAN_EPOCH_MAX;
    b->build_ahead_threads = software ? 0u : spare < SCAN_PIPELINES_MAX_THREADS ? spare : SCAN_PIPELINES_MAX_THREADS;
    if (read_knobs(b, why, why_size))
    {
        scan_pipelines_release(&b->pipelines);
        d3d12_device_close(&b->device);
        free(b);
        return -1;
    }
    b->pipelines.trace = b->trace;
    if (b->trace)
        fprintf(stderr, "d3d12: device on adapter %u of %zu (%s), adapters listed %s\n", b->device.adapter.index,
                b->device.adapter_count, b->device.adapter.name,
                b->device.listed_by_device ? "from the device's Vulkan instance" : "by an instance of their own");
    b->view_bytes = b->view_bytes / (128 * KIB) * (128 * KIB);
    b->arena_limit = b->view_bytes < 256 * MIB ? b->view_bytes : 256 * MIB;
    *out = &b->base;
    return 0;
}

static void d3d12_close(dmlconf_backend *backend)
{
    d3d12_backend *b = (d3d12_backend *)backend;
    d3d12_backend_release_buffers(b);
    scan_pipelines_release(&b->pipelines);
    d3d12_device_close(&b->device);
    free(b);
}

/* Copies text into a fixed field, cutting it at the field's end. */
static void copy_field(char *field, size_t size, const char *text)
{
    size_t length = strlen(text);
    if (length >= size)
        length = size - 1;
    memcpy(field, text, length);
    field[length] = '\0';
}

static void d3d12_info(dmlconf_backend *backend, dmlconf_backend_info *info)
{
    char text[512];
    const d3d12_backend *b = (const d3d12_backend *)backend;
    const gpu_adapter *a = &b->device.adapter;
    memset(info, 0, sizeof(*info));
    snprintf(info->backend, sizeof(info->backend), "d3d12");
    snprintf(text, sizeof(text), "%s (PCI %04x:%04x, %s, adapter %u of %zu)", a->name, (unsigned)a->vendor_id,
             (unsigned)a->device_id, gpu_adapter_type_name(a), a->index, b->device.adapter_count);
    copy_field(info->adapter, sizeof(info->adapter), text);
    copy_field(info->driver, sizeof(info->driver), a->driver);
    unsigned model = b->device.shader_model;
    snprintf(text, sizeof(text), "%s, shader model %u.%u, kernels cs_5_0%s%s%s", b->device.runtime, model >> 4,
             model & 15u, b->knobs[0] ? " [test knobs: " : "", b->knobs, b->knobs[0] ? "]" : "");
    copy_field(info->runtime, sizeof(info->runtime), text);
    info->software = gpu_adapter_is_software(a);
    info->exact = false;
    info->feature_level = DMLCONF_FEATURE_LEVEL_5_0;
    uint32_t types = 0;
    kernel_element element;
    for (unsigned type = 0; type < 32; ++type)
        if (plan_element_of((dmlconf_data_type)type, &element))
            types |= DMLCONF_TYPE_BIT(type);
    info->capabilities = dmlconf_capabilities_all(types);
}

/* Appends one boundary when there is room; counts it either way. */
static void declare(dmlconf_boundary *out, size_t max, size_t *count, dmlconf_boundary_kind kind, uint32_t data_types,
                    uint64_t value, const char *what)
{
    if (*count < max)
    {
        out[*count].kind = kind;
        out[*count].data_types = data_types;
        out[*count].value = value;
        copy_field(out[*count].what, sizeof(out[*count].what), what);
    }
    ++*count;
}

/* The sizes at which the plan changes shape (scan_plan.c): where a line is
 * cut into chunks, where lines fill the device, where the serial kernel's
 * unrolled loop and thread groups end, the cooperative kernels' tiles, and
 * the elements of one buffer view (a larger buffer's job is cut into
 * pieces). */
static size_t d3d12_boundaries(dmlconf_backend *backend, dmlconf_boundary *out, size_t max)
{
    const d3d12_backend *b = (const d3d12_backend *)backend;
    const plan_limits *limits = &b->limits;
    size_t count = 0;
    declare(out, max, &count, DMLCONF_BOUNDARY_AXIS_LENGTH, 0, 8,
            "serial and short-line kernels' unrolled loops (8 elements a round)");
    declare(out, max, &count, DMLCONF_BOUNDARY_AXIS_LENGTH, 0, limits->min_chunk, "serial kernel's shortest chunk");
    declare(out, max, &count, DMLCONF_BOUNDARY_AXIS_LENGTH, 0, 2 * (uint64_t)limits->min_chunk,
            "lines cut into chunks (fewer lines than fill the device)");
    if (limits->max_chunk)
        declare(out, max, &count, DMLCONF_BOUNDARY_AXIS_LENGTH, 0, limits->max_chunk,
                "longest serial chunk (DMLCONF_D3D12_CHUNK)");
    declare(out, max, &count, DMLCONF_BOUNDARY_LINE_COUNT, 0, SCAN_SERIAL_GROUP, "serial kernel's thread group");
    declare(out, max, &count, DMLCONF_BOUNDARY_LINE_COUNT, 0, limits->parallel_items, "lines that fill the device");
    if (limits->lane_items)
        declare(out, max, &count, DMLCONF_BOUNDARY_LINE_COUNT, DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_FLOAT16),
                2 * (uint64_t)limits->lane_items, "float16 lines that fill the device as pairs");
    bool cooperative = limits->forced ? limits->forced_kind != KERNEL_SERIAL : limits->tile_min_length != UINT32_MAX;
    if (!limits->forced && cooperative)
        declare(out, max, &count, DMLCONF_BOUNDARY_AXIS_LENGTH, 0, limits->tile_min_length,
                "contiguous lines scanned by thread groups");
    if (limits->single_pass_lines)
        declare(out, max, &count, DMLCONF_BOUNDARY_LINE_COUNT, 0, limits->single_pass_lines,
                "lines the serial kernel scans whole, never cut");
    /* The four classes a job's data type maps to (the two-lane classes are
     * float16 and float32 pairs of the same data). */
    enum
    {
        DATA_CLASSES = ELEMENT_I64 + 1
    };
    static const uint32_t class_types[DATA_CLASSES] = {
        DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_FLOAT32),
        DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_FLOAT16),
        DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_INT32) | DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_UINT32),
        DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_INT64) | DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_UINT64),
    };
    for (unsigned e = 0; cooperative && e < DATA_CLASSES; ++e)
    {
        declare(out, max, &count, DMLCONF_BOUNDARY_AXIS_LENGTH, class_types[e],
                kernel_tile_elements((kernel_element)e, limits->tile_shape), "tile of the cooperative kernels");
        uint64_t chunk = plan_one_pass_chunk(limits, (kernel_element)e);
        if (chunk)
            declare(out, max, &count, DMLCONF_BOUNDARY_AXIS_LENGTH, class_types[e], chunk,
                    "chunk of the one-pass scans (look-back)");
    }
    if (!limits->forced && cooperative && limits->lookback && limits->tile_one_chunk)
        declare(out, max, &count, DMLCONF_BOUNDARY_AXIS_LENGTH, 0, (uint64_t)limits->tile_one_chunk + 1,
                "contiguous lines long enough to be scanned in one pass by looking back");
    for (unsigned e = 0; e < DATA_CLASSES; ++e)
    {
        if (limits->short_lines)
            declare(out, max, &count, DMLCONF_BOUNDARY_AXIS_LENGTH, class_types[e],
                    kernel_lines_block((kernel_element)e) / 2 + 1, "packed lines too long for the short-line kernel");
        declare(out, max, &count, DMLCONF_BOUNDARY_ELEMENTS, class_types[e],
                b->view_bytes / kernel_element_bytes((kernel_element)e), "one buffer view (larger jobs are cut)");
    }
    return count;
}

void d3d12_backend_build_ahead(d3d12_backend *b)
{
    /* The kernels a run may use are built ahead on spare CPUs, while the
     * first jobs run: a GPU driver compiles each for tens of milliseconds
     * (on an H200, two thirds of a cold corpus run), lavapipe for long
     * enough that on a machine of few CPUs it stays off. They start with
     * the first jobs, not at open: a process that only describes the
     * backend (`dmlconf adapters`, a resumed run's check) closes it without
     * waiting for builds it never needed. */
    if (b->built_ahead_started)
        return;
    b->built_ahead_started = true;
    kernel_key reach[PLAN_MAX_KERNELS];
    size_t reach_count = plan_kernels_in_reach(&b->limits, reach, PLAN_MAX_KERNELS);
    scan_pipelines_build_ahead(&b->pipelines, reach, reach_count, b->build_ahead_threads);
}

static int d3d12_execute(dmlconf_backend *backend, dmlconf_job *jobs, size_t count)
{
    return d3d12_backend_execute_jobs((d3d12_backend *)backend, jobs, count);
}

static int d3d12_list_adapters(dmlconf_adapter_info *adapters, size_t max, char *why, size_t why_size)
{
    char error[256];
    void *runtime = dmlconf_dynlib_open(DMLCONF_D3D12_RUNTIME_LIBRARY, error, sizeof(error));
    if (!runtime)
    {
        snprintf(why, why_size, "the D3D12 runtime is not installed: %s cannot be loaded: %s",
                 DMLCONF_D3D12_RUNTIME_LIBRARY, error);
        return -1;
    }
    dmlconf_dynlib_close(runtime);
    gpu_adapter *list = NULL;
    size_t count = 0;
    if (gpu_list_adapters(&list, &count, why, why_size))
        return -1;
    for (size_t i = 0; i < count && i < max; ++i)
    {
        const gpu_adapter *a = &list[i];
        char text[640];
        copy_field(adapters[i].name, sizeof(adapters[i].name), a->name);
        snprintf(text, sizeof(text), "PCI %04x:%04x, %s, driver %s, %s", (unsigned)a->vendor_id, (unsigned)a->device_id,
                 gpu_adapter_type_name(a), a->driver, a->api);
        if (a->max_texel_buffer_elements)
        {
            size_t used = strlen(text);
            snprintf(text + used, sizeof(text) - used, ", one view %llu MiB",
                     (unsigned long long)a->max_texel_buffer_elements * 4 / MIB);
        }
        copy_field(adapters[i].details, sizeof(adapters[i].details), text);
        adapters[i].software = gpu_adapter_is_software(a);
    }
    free(list);
    return (int)count;
}

const dmlconf_backend_ops dmlconf_d3d12_backend_ops = {
    .name = "d3d12",
    .description = "D3D12 compute through vkd3d on Vulkan (a GPU, or lavapipe on the CPU); DXBC scan kernels",
    .open = d3d12_open,
    .close = d3d12_close,
    .info = d3d12_info,
    .execute = d3d12_execute,
    .list_adapters = d3d12_list_adapters,
    .boundaries = d3d12_boundaries,
};
