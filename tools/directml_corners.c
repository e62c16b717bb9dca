/*
 * dmlconf_directml_corners: what DirectML gives for the corners the
 * reference pages leave open, on every path of the directml backend, next
 * to the exact oracle and the default rule's verdict:
 *
 *   the sign of a sum of negative zeros (inclusive, exclusive, decreasing);
 *   NaN payloads (quiet, signalling, negative) through sums and products;
 *   subnormal inputs, and subnormal outputs of normal inputs (sums and
 *   products), float32 and float16.
 *
 * Each probe is one small tensor run through the backend exactly as
 * `dmlconf run --backend directml` runs a case (the same ops table, the
 * output filled with a canary first); the output's raw bits are printed, so
 * that a payload or a sign the comparator would accept either way is still
 * seen. Prints a Markdown table on standard output: one row per probe and
 * path, the outputs' bits, and whether the default rule passes them.
 *
 * Usage: dmlconf_directml_corners [--adapter WHICH]
 * Exit status: 0 when every path opened and ran every probe, 1 otherwise
 * (a path that does not open is a row saying why).
 */
#include <dmlconf/comparator.h>
#include <dmlconf/directml.h>
#include <dmlconf/system_info.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ELEMENTS 4

typedef struct probe
{
    const char *name;
    dmlconf_operator op;
    dmlconf_data_type type;
    bool exclusive;
    bool decreasing;
    uint32_t count;
    uint32_t bits[MAX_ELEMENTS]; /* the input's raw elements (float16 in the low 16 bits) */
} probe;

#define SUM  DMLCONF_OPERATOR_CUMULATIVE_SUMMATION
#define PROD DMLCONF_OPERATOR_CUMULATIVE_PRODUCT
#define F32  DMLCONF_DATA_TYPE_FLOAT32
#define F16  DMLCONF_DATA_TYPE_FLOAT16

static const probe probes[] = {
    {"negative zeros, inclusive sum", SUM, F32, false, false, 3, {0x80000000u, 0x80000000u, 0x80000000u}},
    {"negative zeros, exclusive sum", SUM, F32, true, false, 3, {0x80000000u, 0x80000000u, 0x80000000u}},
    {"negative zeros, decreasing inclusive sum", SUM, F32, false, true, 3, {0x80000000u, 0x80000000u, 0x80000000u}},
    {"negative zeros, inclusive sum", SUM, F16, false, false, 3, {0x8000u, 0x8000u, 0x8000u}},
    {"negative zeros, exclusive sum", SUM, F16, true, false, 3, {0x8000u, 0x8000u, 0x8000u}},
    {"-0 then +0, inclusive sum", SUM, F32, false, false, 2, {0x80000000u, 0x00000000u}},
    {"quiet NaN, payload 0x1234, in a sum", SUM, F32, false, false, 3, {0x3f800000u, 0x7fc01234u, 0x40000000u}},
    {"signalling NaN, payload 0x123, in a sum", SUM, F32, false, false, 3, {0x3f800000u, 0x7f800123u, 0x40000000u}},
    {"negative quiet NaN, payload 1, in a sum", SUM, F32, false, false, 3, {0x3f800000u, 0xffc00001u, 0x40000000u}},
    {"quiet NaN, payload 0x1234, in a product", PROD, F32, false, false, 3, {0x40000000u, 0x7fc01234u, 0x40400000u}},
    {"quiet NaN, payload 0x12, in a sum", SUM, F16, false, false, 3, {0x3c00u, 0x7e12u, 0x4000u}},
    {"signalling NaN, payload 0x12, in a sum", SUM, F16, false, false, 3, {0x3c00u, 0x7c12u, 0x4000u}},
    {"subnormal inputs (2^-149 each), sum", SUM, F32, false, false, 3, {0x00000001u, 0x00000001u, 0x00000001u}},
    {"subnormal output of normal inputs (1.5 2^-126 - 2^-126), sum",
     SUM,
     F32,
     false,
     false,
     2,
     {0x00c00000u, 0x80800000u}},
    {"subnormal output of a product (2^-70 2^-70)", PROD, F32, false, false, 2, {0x1c800000u, 0x1c800000u}},
    {"subnormal inputs (2^-24 each), sum", SUM, F16, false, false, 3, {0x0001u, 0x0001u, 0x0001u}},
    {"subnormal output of normal inputs (1.5 2^-14 - 2^-14), sum", SUM, F16, false, false, 2, {0x0600u, 0x8400u}},
    {"subnormal output of a product (2^-12 2^-12)", PROD, F16, false, false, 2, {0x0c00u, 0x0c00u}},
};

typedef struct path
{
    const char *name; /* as the report names it */
    const char *flags, *graph, *binding;
} path;

static const path paths[] = {
    {"operator", "none", "none", "default"},
    {"half-precision", "half-precision", "none", "default"},
    {"disable-meta-commands", "disable-meta-commands", "none", "default"},
    {"descriptors-volatile", "descriptors-volatile", "none", "default"},
    {"graph alone", "none", "alone", "default"},
    {"graph input-edge", "none", "input-edge", "default"},
    {"graph output-edge", "none", "output-edge", "default"},
    {"offset-minimum", "none", "none", "offset-minimum"},
    {"owned-input", "none", "none", "owned-input"},
    {"repeat+shared-initializer", "none", "none", "repeat+shared-initializer"},
};

static size_t element_size(dmlconf_data_type type)
{
    return type == F16 ? 2u : 4u;
}

static uint32_t element_bits(dmlconf_data_type type, const unsigned char *buffer, uint32_t i)
{
    if (type == F16)
    {
        uint16_t value;
        memcpy(&value, buffer + 2 * i, 2);
        return value;
    }
    uint32_t value;
    memcpy(&value, buffer + 4 * i, 4);
    return value;
}

static void put_bits(dmlconf_data_type type, unsigned char *buffer, uint32_t i, uint32_t bits)
{
    if (type == F16)
    {
        uint16_t value = (uint16_t)bits;
        memcpy(buffer + 2 * i, &value, 2);
    }
    else
        memcpy(buffer + 4 * i, &bits, 4);
}

static dmlconf_scan_desc probe_desc(const probe *p)
{
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = p->op;
    desc.input.data_type = desc.output.data_type = p->type;
    desc.input.dimension_count = desc.output.dimension_count = 1;
    desc.input.sizes[0] = desc.output.sizes[0] = p->count;
    desc.axis = 0;
    desc.direction = p->decreasing ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING;
    desc.exclusive = p->exclusive;
    return desc;
}

/* "0x80000000 0x80000000" for the elements of a buffer. */
static void format_bits(const probe *p, const unsigned char *buffer, char *text, size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    for (uint32_t i = 0; i < p->count && used < size; ++i)
    {
        int written = snprintf(text + used, size - used, "%s0x%0*x", i ? " " : "", p->type == F16 ? 4 : 8,
                               (unsigned)element_bits(p->type, buffer, i));
        if (written < 0)
            break;
        used += (size_t)written;
    }
}

/* Runs every probe on an open backend; prints one row per probe. Returns
 * the number of probes that did not run. */
static int run_probes(dmlconf_backend *backend, const path *where)
{
    int missing = 0;
    size_t count = sizeof(probes) / sizeof(probes[0]);
    for (size_t k = 0; k < count; ++k)
    {
        const probe *p = &probes[k];
        dmlconf_scan_desc desc = probe_desc(p);
        unsigned char input[4 * MAX_ELEMENTS], output[4 * MAX_ELEMENTS + 16], expected[4 * MAX_ELEMENTS];
        memset(input, 0, sizeof(input));
        for (uint32_t i = 0; i < p->count; ++i)
            put_bits(p->type, input, i, p->bits[i]);
        /* The output filled with a canary DirectML must overwrite. */
        memset(output, 0xa5, sizeof(output));
        size_t bytes = ((size_t)p->count * element_size(p->type) + 3u) / 4u * 4u;
        dmlconf_job job;
        memset(&job, 0, sizeof(job));
        job.desc = &desc;
        job.feature_level = DMLCONF_FEATURE_LEVEL_6_4;
        job.input = input;
        job.input_bytes = bytes;
        job.output = output;
        job.output_bytes = bytes;
        int status = backend->ops->execute(backend, &job, 1);
        dmlconf_error err;
        dmlconf_side_data side[MAX_ELEMENTS];
        memset(expected, 0, sizeof(expected));
        if (dmlconf_compute(&desc, input, bytes, expected, bytes, side, &err))
        {
            fprintf(stderr, "dmlconf_directml_corners: the oracle refused probe '%s': %s\n", p->name, err.message);
            return (int)count;
        }
        char inputs[96], oracle[96], actual[96];
        format_bits(p, input, inputs, sizeof(inputs));
        format_bits(p, expected, oracle, sizeof(oracle));
        const char *verdict = "";
        if (status != 0 || job.outcome != DMLCONF_JOB_DONE)
        {
            snprintf(actual, sizeof(actual), "not run: %.80s", job.message);
            verdict = "-";
            ++missing;
        }
        else
        {
            format_bits(p, output, actual, sizeof(actual));
            bool pass = true, bitwise = true;
            for (uint32_t i = 0; i < p->count; ++i)
            {
                uint32_t o = element_bits(p->type, expected, i), y = element_bits(p->type, output, i);
                bitwise = bitwise && o == y;
                if (dmlconf_judge_element(p->op, p->type, o, y, &side[i], NULL, NULL) != DMLCONF_VERDICT_PASS)
                    pass = false;
            }
            verdict = bitwise ? "pass (bit for bit)" : pass ? "pass (not bit for bit)" : "FAIL";
        }
        printf("| %s | %s | %s | `%s` | `%s` | `%s` | %s |\n", p->name, p->type == F16 ? "float16" : "float32",
               where->name, inputs, oracle, actual, verdict);
    }
    return missing;
}

int main(int argc, char **argv)
{
    const char *adapter = NULL;
    for (int i = 1; i < argc; ++i)
    {
        if (!strcmp(argv[i], "--adapter") && i + 1 < argc)
            adapter = argv[++i];
        else
        {
            fprintf(stderr, "usage: dmlconf_directml_corners [--adapter WHICH]\n");
            return 2;
        }
    }
    printf("| probe | type | path | input | oracle (exact) | DirectML | default rule |\n");
    printf("|---|---|---|---|---|---|---|\n");
    int failures = 0;
    for (size_t k = 0; k < sizeof(paths) / sizeof(paths[0]); ++k)
    {
        const path *where = &paths[k];
        if (dmlconf_set_environment("DMLCONF_DIRECTML_FLAGS", where->flags) ||
            dmlconf_set_environment("DMLCONF_DIRECTML_GRAPH", where->graph) ||
            dmlconf_set_environment("DMLCONF_DIRECTML_BINDING", where->binding))
        {
            fprintf(stderr, "dmlconf_directml_corners: out of memory\n");
            return 1;
        }
        dmlconf_backend_config config = {adapter, DMLCONF_FEATURE_LEVEL_NONE, NULL};
        dmlconf_backend *backend = NULL;
        char why[1024];
        if (dmlconf_directml_backend_ops.open(&config, &backend, why, sizeof(why)))
        {
            printf("| every probe | - | %s | - | - | does not open: %s | - |\n", where->name, why);
            ++failures;
            continue;
        }
        if (k == 0)
        {
            dmlconf_backend_info info;
            dmlconf_directml_backend_ops.info(backend, &info);
            fprintf(stderr, "dmlconf_directml_corners: %s on %s\n", info.runtime, info.adapter);
        }
        failures += run_probes(backend, where);
        dmlconf_directml_backend_ops.close(backend);
    }
    return failures ? 1 : 0;
}
