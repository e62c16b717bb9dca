/*
 * Oracle speed benchmark: ns/element of every dtype and operator on one
 * line of 10^7 elements, against two baselines measured in the same run on
 * the same data: a naive float loop (what numpy's cumsum does) and a memcpy
 * of the same bytes. Prints the ratios next to the targets.
 *
 * Each row times its baseline and the oracle in turn, baseline then oracle,
 * REPEATS times, and compares the best of each: on a machine shared with
 * other work, a baseline timed once at the start would be compared with
 * rows timed under another load.
 *
 * Usage: dmlconf_oracle_bench [ELEMENTS] [REPEATS]
 */
#define _POSIX_C_SOURCE 200809L

#include <dmlconf/integer_text.h>
#include <dmlconf/oracle.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct bench_rng
{
    uint64_t state;
} bench_rng;

static uint64_t rng_next(bench_rng *rng)
{
    uint64_t z = (rng->state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Uniform double in [0, 1) with full 53-bit resolution. */
static double rng_unit(bench_rng *rng)
{
    return (double)(rng_next(rng) >> 11) * 0x1p-53;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The data sets, all of n elements. */
typedef struct bench_data
{
    size_t n;
    float *f32_sum;     /* uniform in [-1, 1], full-precision mantissas */
    float *f32_product; /* 1 + uniform(-2^-9, 2^-9): stays in range */
    uint16_t *f16_sum;  /* uniform in [-1, 1] rounded to float16 */
    uint16_t *f16_product;
    uint32_t *u32; /* uniform 32-bit patterns */
    uint64_t *u64;
    void *output; /* n * 8 bytes */
} bench_data;

static bool make_data(bench_data *data, size_t n)
{
    bench_rng rng = {UINT64_C(0x5eed)};
    data->n = n;
    data->f32_sum = malloc(n * sizeof(float));
    data->f32_product = malloc(n * sizeof(float));
    data->f16_sum = malloc(n * sizeof(uint16_t));
    data->f16_product = malloc(n * sizeof(uint16_t));
    data->u32 = malloc(n * sizeof(uint32_t));
    data->u64 = malloc(n * sizeof(uint64_t));
    data->output = malloc(n * sizeof(uint64_t));
    if (!data->f32_sum || !data->f32_product || !data->f16_sum || !data->f16_product || !data->u32 || !data->u64 ||
        !data->output)
        return false;
    for (size_t i = 0; i < n; ++i)
    {
        double u = rng_unit(&rng) * 2.0 - 1.0;
        double p = 1.0 + (rng_unit(&rng) * 2.0 - 1.0) * 0x1p-9;
        data->f32_sum[i] = (float)u;
        data->f32_product[i] = (float)p;
        data->f16_sum[i] = dmlconf_half_from_double(u);
        data->f16_product[i] = dmlconf_half_from_double(1.0 + (rng_unit(&rng) * 2.0 - 1.0) * 0x1p-6);
        data->u64[i] = rng_next(&rng);
        data->u32[i] = (uint32_t)data->u64[i];
    }
    return true;
}

static void free_data(bench_data *data)
{
    free(data->f32_sum);
    free(data->f32_product);
    free(data->f16_sum);
    free(data->f16_product);
    free(data->u32);
    free(data->u64);
    free(data->output);
}

/* What a benchmark entry runs: either the oracle on one op and dtype, or a
 * baseline. */
typedef enum bench_kind
{
    BENCH_ORACLE,
    BENCH_NAIVE_SUM,
    BENCH_NAIVE_PRODUCT,
    BENCH_MEMCPY,
} bench_kind;

typedef struct bench_entry
{
    bench_kind kind;
    dmlconf_operator op;
    dmlconf_data_type type;
    const void *input;
    size_t element_bytes;
} bench_entry;

/* Keeps the baselines' results observable so no loop is optimised away. */
static volatile float bench_sink;

static void naive_sum(size_t n, const float *in, float *out)
{
    float s = 0.0f;
    for (size_t i = 0; i < n; ++i)
    {
        s += in[i];
        out[i] = s;
    }
    bench_sink = out[n - 1];
}

static void naive_product(size_t n, const float *in, float *out)
{
    float p = 1.0f;
    for (size_t i = 0; i < n; ++i)
    {
        p *= in[i];
        out[i] = p;
    }
    bench_sink = out[n - 1];
}

/* One run of an entry in ns per element, or a negative value when the
 * oracle reports an error. */
static double run_entry(const bench_entry *entry, const bench_data *data)
{
    double start = now_seconds();
    switch (entry->kind)
    {
    case BENCH_ORACLE:
    {
        dmlconf_error err;
        if (dmlconf_scan_line(entry->op, entry->type, false, data->n, entry->input, data->output, NULL, &err))
        {
            fprintf(stderr, "oracle error: %s\n", err.message);
            return -1.0;
        }
        break;
    }
    case BENCH_NAIVE_SUM:
        naive_sum(data->n, entry->input, data->output);
        break;
    case BENCH_NAIVE_PRODUCT:
        naive_product(data->n, entry->input, data->output);
        break;
    case BENCH_MEMCPY:
        memcpy(data->output, entry->input, data->n * entry->element_bytes);
        bench_sink = (float)((const unsigned char *)data->output)[data->n - 1];
        break;
    }
    return (now_seconds() - start) * 1e9 / (double)data->n;
}

/* The best of `repeats` runs of an entry and of each of its `count`
 * baselines, run in turn (the baselines, the entry, the baselines, the
 * entry, ...), in ns per element. Returns false when the oracle reports an
 * error. */
static bool time_with_baselines(const bench_entry *entry, const bench_entry *baselines, size_t count,
                                const bench_data *data, int repeats, double *best, double *best_baselines)
{
    *best = -1.0;
    for (size_t b = 0; b < count; ++b)
        best_baselines[b] = -1.0;
    for (int r = 0; r < repeats; ++r)
    {
        for (size_t b = 0; b < count; ++b)
        {
            double base = run_entry(&baselines[b], data);
            if (best_baselines[b] < 0.0 || base < best_baselines[b])
                best_baselines[b] = base;
        }
        double ns = run_entry(entry, data);
        if (ns < 0.0)
            return false;
        if (*best < 0.0 || ns < *best)
            *best = ns;
    }
    return true;
}

int main(int argc, char **argv)
{
    size_t n = 10000000;
    int repeats = 5;
    uint64_t value;
    if (argc > 1)
    {
        if (!dmlconf_parse_u64(argv[1], 1, UINT64_C(1) << 32, &value))
        {
            fprintf(stderr, "usage: %s [ELEMENTS (1 to 2^32)] [REPEATS]\n", argv[0]);
            return 2;
        }
        n = (size_t)value;
    }
    if (argc > 2)
    {
        if (!dmlconf_parse_u64(argv[2], 1, 1000, &value))
        {
            fprintf(stderr, "usage: %s [ELEMENTS] [REPEATS (1 to 1000)]\n", argv[0]);
            return 2;
        }
        repeats = (int)value;
    }

    bench_data data;
    memset(&data, 0, sizeof(data));
    if (!make_data(&data, n))
    {
        fprintf(stderr, "out of memory for %zu elements\n", n);
        free_data(&data);
        return 1;
    }

    const bench_entry naive_sum_entry = {BENCH_NAIVE_SUM, 0, 0, data.f32_sum, 4};
    const bench_entry naive_product_entry = {BENCH_NAIVE_PRODUCT, 0, 0, data.f32_product, 4};

    printf("dmlconf oracle benchmark: %zu elements per line, best of %d runs, one thread; each row's baseline\n"
           "is timed in turn with it (a naive float32 loop for floats, a memcpy of the same bytes for integers)\n\n",
           n, repeats);
    printf("%-22s %-8s %-46s %10s %10s %10s  %-27s %s\n", "operator", "dtype", "data", "ns/elem", "baseline", "ratio",
           "baseline", "target");

    static const struct
    {
        dmlconf_operator op;
        dmlconf_data_type type;
        const char *data_name;
    } rows[] = {
        {DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT32, "uniform [-1,1], full-precision mantissas"},
        {DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_FLOAT16, "uniform [-1,1] rounded to float16"},
        {DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_INT32, "uniform 32-bit patterns"},
        {DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_UINT32, "uniform 32-bit patterns"},
        {DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_INT64, "uniform 64-bit patterns"},
        {DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, DMLCONF_DATA_TYPE_UINT64, "uniform 64-bit patterns"},
        {DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT32, "1 + uniform(-2^-9, 2^-9)"},
        {DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_FLOAT16, "1 + uniform(-2^-6, 2^-6) in float16"},
        {DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_INT32, "uniform 32-bit patterns"},
        {DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_UINT32, "uniform 32-bit patterns"},
        {DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_INT64, "uniform 64-bit patterns"},
        {DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, DMLCONF_DATA_TYPE_UINT64, "uniform 64-bit patterns"},
    };
    int missed = 0;
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i)
    {
        bool product = rows[i].op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
        bool is_float = dmlconf_data_type_is_float(rows[i].type);
        size_t bytes = dmlconf_data_type_bits(rows[i].type) / 8;
        const void *input;
        switch (rows[i].type)
        {
        case DMLCONF_DATA_TYPE_FLOAT32:
            input = product ? data.f32_product : data.f32_sum;
            break;
        case DMLCONF_DATA_TYPE_FLOAT16:
            input = product ? (const void *)data.f16_product : (const void *)data.f16_sum;
            break;
        default:
            input = bytes == 4 ? (const void *)data.u32 : (const void *)data.u64;
            break;
        }
        const bench_entry entry = {BENCH_ORACLE, rows[i].op, rows[i].type, input, bytes};
        /* The row's own baseline first; an integer product is both an
         * integer scan and a product, so it is timed against the products'
         * baseline as well. */
        bench_entry baselines[2];
        size_t baseline_count = 1;
        double limit;
        char baseline_name[48];
        if (is_float)
        {
            baselines[0] = product ? naive_product_entry : naive_sum_entry;
            limit = product ? 20.0 : 3.0;
            snprintf(baseline_name, sizeof(baseline_name), "naive float32 %s loop", product ? "product" : "sum");
        }
        else
        {
            baselines[0] = (bench_entry){BENCH_MEMCPY, 0, 0, input, bytes};
            limit = 1.5;
            snprintf(baseline_name, sizeof(baseline_name), "memcpy of %zu-byte elements", bytes);
            if (product)
                baselines[baseline_count++] = naive_product_entry;
        }
        double ns, baseline_ns[2];
        if (!time_with_baselines(&entry, baselines, baseline_count, &data, repeats, &ns, baseline_ns))
            return 1;
        double ratio = ns / baseline_ns[0];
        bool met = ratio <= limit;
        missed += !met;
        printf("%-22s %-8s %-46s %10.3f %10.3f %9.2fx  %-27s <= %.1fx %s\n", dmlconf_operator_name(rows[i].op),
               dmlconf_data_type_name(rows[i].type), rows[i].data_name, ns, baseline_ns[0], ratio, baseline_name, limit,
               met ? "met" : "MISSED");
        if (baseline_count > 1)
            printf("%-77s %10s %10.3f %9.2fx  %-27s <= 20.0x %s\n", "", "", baseline_ns[1], ns / baseline_ns[1],
                   "naive float32 product loop", ns / baseline_ns[1] <= 20.0 ? "met" : "MISSED");
    }
    printf("\n%d of %zu targets missed\n", missed, sizeof(rows) / sizeof(rows[0]));
    free_data(&data);
    return 0;
}
