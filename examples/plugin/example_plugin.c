/*
 * An example dmlconf backend plugin: cumulative sums and products of
 * FLOAT32, INT32 and UINT32 tensors, computed in plain C one element after
 * another along the axis.
 *
 * It declares exactly what it does (every operator, direction and mode,
 * ranks 1 to 8, strided, broadcast and in-place tensors, three data types)
 * and that it does not validate descs: dmlconf skips, with the reason,
 * every case outside that, and a run's verdict names what those cases left
 * uncovered. Build it against the installed header:
 *
 *     cc -std=c11 -shared -fPIC $(pkg-config --cflags dmlconf-backend) \
 *         -o libdmlconf-example-plugin.so example_plugin.c
 *     dmlconf run --backend plugin:./libdmlconf-example-plugin.so
 *
 * Integer sums and products wrap around (they are computed in uint32_t,
 * whose arithmetic is modulo 2^32, as two's complement INT32 results are).
 * Float sums and products round after every step, as DirectML's sequential
 * definition does.
 */
#include <dmlconf/backend.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct example_backend
{
    dmlconf_backend base;
} example_backend;

static const dmlconf_backend_ops example_ops;

static int example_open(const dmlconf_backend_config *config, dmlconf_backend **out, char *why, size_t why_size)
{
    if (config && config->adapter && strcmp(config->adapter, "0") != 0)
    {
        snprintf(why, why_size, "the example plugin has one adapter (0), not \"%s\"", config->adapter);
        return -1;
    }
    example_backend *backend = calloc(1, sizeof(*backend));
    if (!backend)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    backend->base.ops = &example_ops;
    *out = &backend->base;
    return 0;
}

static void example_close(dmlconf_backend *backend)
{
    free(backend);
}

static void example_info(dmlconf_backend *backend, dmlconf_backend_info *info)
{
    (void)backend;
    memset(info, 0, sizeof(*info));
    snprintf(info->backend, sizeof(info->backend), "example");
    snprintf(info->adapter, sizeof(info->adapter), "sequential C loops (CPU)");
    snprintf(info->driver, sizeof(info->driver), "dmlconf example plugin 1.0");
    snprintf(info->runtime, sizeof(info->runtime), "in process");
    info->software = true;
    info->exact = false;
    /* It implements no feature level's validation rules: the run targets
     * the highest level, and cases it cannot run are skipped. */
    info->feature_level = DMLCONF_FEATURE_LEVEL_NONE;
    info->capabilities.features = DMLCONF_CAN_SUMMATION | DMLCONF_CAN_PRODUCT | DMLCONF_CAN_INCREASING |
                                  DMLCONF_CAN_DECREASING | DMLCONF_CAN_INCLUSIVE | DMLCONF_CAN_EXCLUSIVE |
                                  DMLCONF_CAN_STRIDES | DMLCONF_CAN_BROADCAST | DMLCONF_CAN_IN_PLACE;
    info->capabilities.data_types = DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_FLOAT32) |
                                    DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_INT32) |
                                    DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_UINT32);
    info->capabilities.min_rank = 1;
    info->capabilities.max_rank = DMLCONF_MAX_DIMENSIONS;
}

/* The stride of every dimension, in elements: the desc's, or packed. */
static void tensor_strides(const dmlconf_tensor_desc *tensor, uint64_t *strides)
{
    uint64_t packed = 1;
    for (uint32_t d = tensor->dimension_count; d-- > 0;)
    {
        strides[d] = tensor->has_strides ? tensor->strides[d] : packed;
        packed *= tensor->sizes[d];
    }
}

/* The element offset one past the furthest element of a tensor. */
static uint64_t tensor_extent(const dmlconf_tensor_desc *tensor, const uint64_t *strides)
{
    uint64_t last = 0;
    for (uint32_t d = 0; d < tensor->dimension_count; ++d)
        last += (uint64_t)(tensor->sizes[d] - 1) * strides[d];
    return last + 1;
}

/* One step of the scan on 32-bit elements held as bits. */
static uint32_t combine(const dmlconf_scan_desc *desc, uint32_t accumulated, uint32_t term)
{
    const bool product = desc->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    if (desc->input.data_type == DMLCONF_DATA_TYPE_FLOAT32)
    {
        float a, b;
        memcpy(&a, &accumulated, sizeof(a));
        memcpy(&b, &term, sizeof(b));
        a = product ? a * b : a + b;
        memcpy(&accumulated, &a, sizeof(a));
        return accumulated;
    }
    return product ? accumulated * term : accumulated + term;
}

/* The bits the scan starts from: 0 for sums, 1 (or 1.0f) for products. */
static uint32_t identity(const dmlconf_scan_desc *desc)
{
    if (desc->op != DMLCONF_OPERATOR_CUMULATIVE_PRODUCT)
        return 0;
    if (desc->input.data_type == DMLCONF_DATA_TYPE_FLOAT32)
    {
        const float one = 1.0f;
        uint32_t bits;
        memcpy(&bits, &one, sizeof(bits));
        return bits;
    }
    return 1;
}

/* Runs one job. Returns 0, or -1 with the job's message set. */
static int scan(dmlconf_job *job)
{
    const dmlconf_scan_desc *desc = job->desc;
    const dmlconf_tensor_desc *in = &desc->input, *out = &desc->output;
    uint64_t in_strides[DMLCONF_MAX_DIMENSIONS], out_strides[DMLCONF_MAX_DIMENSIONS];
    uint32_t index[DMLCONF_MAX_DIMENSIONS] = {0};
    const uint32_t rank = in->dimension_count, axis = desc->axis;

    if (rank < 1 || rank > DMLCONF_MAX_DIMENSIONS || out->dimension_count != rank || axis >= rank)
    {
        snprintf(job->message, sizeof(job->message), "a rank of %u with axis %u is not a tensor it can scan",
                 (unsigned)rank, (unsigned)axis);
        return -1;
    }
    if (in->data_type != out->data_type ||
        (in->data_type != DMLCONF_DATA_TYPE_FLOAT32 && in->data_type != DMLCONF_DATA_TYPE_INT32 &&
         in->data_type != DMLCONF_DATA_TYPE_UINT32))
    {
        snprintf(job->message, sizeof(job->message), "it scans FLOAT32, INT32 and UINT32 tensors only");
        return -1;
    }
    tensor_strides(in, in_strides);
    tensor_strides(out, out_strides);
    if (tensor_extent(in, in_strides) > job->input_bytes / 4 || tensor_extent(out, out_strides) > job->output_bytes / 4)
    {
        snprintf(job->message, sizeof(job->message), "the buffers (%zu and %zu bytes) are smaller than the tensors",
                 job->input_bytes, job->output_bytes);
        return -1;
    }
    const unsigned char *input = job->input;
    unsigned char *output = job->output;
    const uint32_t length = in->sizes[axis];
    for (;;)
    {
        /* One line along the axis, from the coordinates of the others. */
        uint64_t in_base = 0, out_base = 0;
        for (uint32_t d = 0; d < rank; ++d)
        {
            in_base += index[d] * in_strides[d];
            out_base += index[d] * out_strides[d];
        }
        uint32_t accumulated = identity(desc);
        for (uint32_t step = 0; step < length; ++step)
        {
            const uint64_t i = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING ? length - 1 - step : step;
            uint32_t term;
            /* Read before writing: in place, they are the same element. */
            memcpy(&term, input + 4 * (in_base + i * in_strides[axis]), 4);
            if (!desc->exclusive)
                accumulated = combine(desc, accumulated, term);
            memcpy(output + 4 * (out_base + i * out_strides[axis]), &accumulated, 4);
            if (desc->exclusive)
                accumulated = combine(desc, accumulated, term);
        }
        /* The next line: count over every dimension but the axis. */
        uint32_t d = rank;
        while (d-- > 0)
        {
            if (d == axis)
                continue;
            if (++index[d] < in->sizes[d])
                break;
            index[d] = 0;
        }
        if (d == UINT32_MAX)
            return 0;
    }
}

static int example_execute(dmlconf_backend *backend, dmlconf_job *jobs, size_t count)
{
    (void)backend;
    for (size_t i = 0; i < count; ++i)
    {
        dmlconf_job *job = &jobs[i];
        job->message[0] = '\0';
        job->reason = DMLCONF_REASON_NONE;
        job->device_seconds = -1.0;
        if (!job->input || !job->output)
        {
            /* A desc to validate: this plugin never refuses one, and says
             * so in its capabilities (no DMLCONF_CAN_VALIDATE). */
            job->outcome = DMLCONF_JOB_UNSUPPORTED;
            snprintf(job->message, sizeof(job->message), "the example plugin does not validate descs");
            continue;
        }
        job->outcome = scan(job) ? DMLCONF_JOB_FAILED : DMLCONF_JOB_DONE;
    }
    return 0;
}

static const dmlconf_backend_ops example_ops = {
    .name = "example",
    .description = "an example plugin: sequential sums and products of FLOAT32, INT32 and UINT32 in plain C",
    .open = example_open,
    .close = example_close,
    .info = example_info,
    .execute = example_execute,
    .list_adapters = NULL,
};

DMLCONF_BACKEND_EXPORT const dmlconf_backend_plugin *dmlconf_backend_entry(void)
{
    static const dmlconf_backend_plugin plugin = {DMLCONF_BACKEND_ABI_VERSION, &example_ops};
    return &plugin;
}
