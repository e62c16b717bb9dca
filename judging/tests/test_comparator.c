/*
 * Tests of the comparator: the element rule (ULP distance, NaN and Inf,
 * signed zeros, FTZ, range-ambiguous and exact-by-construction elements),
 * the tensor walk (coordinates, strides, direction), and the two properties
 * that matter most to its users:
 * - no false failures: results of legitimate GPU evaluation orders
 *   (sequential, Hillis-Steele, Blelloch, chunked; float32 with
 *   flush-to-zero; float16 accumulated in float32 and converted toward zero
 *   or to nearest) all pass, with the worst tolerance fraction printed;
 * - bugs are caught: dropped, duplicated, shifted or reversed terms, float16
 *   accumulation, wrong zero signs, bad integer wrapping all fail at the
 *   right element.
 */
#include <check.h>
#include <dmlconf/comparator.h>

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- helpers ---------------------------------------------------------------- */

/* splitmix64: the same seed gives the same data everywhere. */
typedef struct rng
{
    uint64_t state;
} rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double rng_unit(rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* Uniform integer in [lo, hi] (small ranges; the modulo bias is irrelevant
 * for test data). */
static int64_t rng_int(rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

static uint32_t f32_bits(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof(bits));
    return bits;
}

static float f32_from_bits(uint32_t bits)
{
    float value;
    memcpy(&value, &bits, sizeof(value));
    return value;
}

static uint16_t half_rne(double value)
{
    return dmlconf_half_from_double(value);
}

/* float32 to float16 as D3D converts: toward zero, out-of-range values to
 * +-max, Inf and NaN kept. Round to nearest is within one step of it. */
static uint16_t half_rtz(float value)
{
    if (isnan(value) || isinf(value))
        return half_rne((double)value);
    uint16_t h = half_rne((double)value);
    if ((h & 0x7fffu) == 0x7c00u)
        return (uint16_t)((h & 0x8000u) | 0x7bffu);
    if ((h & 0x7fffu) != 0 && fabs((double)dmlconf_half_to_float(h)) > fabs((double)value))
        --h; /* rounded away from zero: take the neighbour toward zero */
    return h;
}

static float half_value(uint16_t h)
{
    return dmlconf_half_to_float(h);
}

/* A 1-D desc of n elements. */
static dmlconf_scan_desc line_desc(dmlconf_operator op, dmlconf_data_type type, uint32_t n, bool exclusive)
{
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = op;
    desc.input.data_type = type;
    desc.input.dimension_count = 1;
    desc.input.sizes[0] = n;
    desc.output = desc.input;
    desc.axis = 0;
    desc.direction = DMLCONF_AXIS_DIRECTION_INCREASING;
    desc.exclusive = exclusive;
    return desc;
}

/* Allocates a zeroed buffer big enough for the desc's output tensor. */
static void *output_buffer(const dmlconf_tensor_desc *desc, size_t *bytes)
{
    uint64_t need = 0;
    ck_assert(dmlconf_tensor_min_size_bytes(desc, &need));
    *bytes = (size_t)need;
    void *buffer = calloc(1, (size_t)need);
    ck_assert_ptr_nonnull(buffer);
    return buffer;
}

/* Runs dmlconf_compare on a desc whose actual output is `actual`, packed
 * (copied into a buffer of the tensor's minimum size). */
static void compare_packed(const dmlconf_scan_desc *desc, const void *input, const void *actual,
                           const dmlconf_tolerance *tol, dmlconf_comparison *cmp)
{
    size_t bytes;
    void *buffer = output_buffer(&desc->output, &bytes);
    size_t size = dmlconf_data_type_bits(desc->output.data_type) / 8;
    memcpy(buffer, actual, (size_t)dmlconf_tensor_element_count(&desc->output) * size);
    dmlconf_error err = {{0}};
    int rc = dmlconf_compare(desc, input, NULL, buffer, bytes, tol, cmp, &err);
    free(buffer);
    ck_assert_msg(rc == 0, "dmlconf_compare failed: %s", err.message);
}

static void describe_first(dmlconf_data_type type, const dmlconf_comparison *cmp, char *text, size_t size)
{
    if (cmp->has_first)
        dmlconf_format_mismatch(type, &cmp->first, text, size);
    else
        snprintf(text, size, "(no mismatch)");
}

/* Judges a float scan line element by element (the oracle's values, side
 * data from the input) and returns the worst tolerance fraction among the
 * elements that the error bound judged (rule BOUND), -1 if none. */
static double bound_rule_worst(dmlconf_operator op, dmlconf_data_type type, bool exclusive, size_t n, const void *input,
                               const void *actual, const dmlconf_tolerance *tol)
{
    size_t size = dmlconf_data_type_bits(type) / 8;
    unsigned char *oracle = malloc(n * size);
    dmlconf_side_data *side = malloc(n * sizeof(*side));
    ck_assert(oracle && side);
    dmlconf_error err = {{0}};
    ck_assert_msg(dmlconf_scan_line(op, type, exclusive, n, input, oracle, side, &err) == 0, "%s", err.message);
    dmlconf_judge judge;
    ck_assert(dmlconf_judge_init(&judge, op, type, tol, NULL) == 0);
    double worst = -1.0;
    const unsigned char *got = actual;
    for (size_t i = 0; i < n; ++i)
    {
        uint64_t o = 0, y = 0;
        memcpy(&o, oracle + i * size, size); /* little-endian hosts: zero extended */
        memcpy(&y, got + i * size, size);
        dmlconf_judgement j;
        dmlconf_judge_bits(&judge, o, y, &side[i], &j);
        if ((j.rule == DMLCONF_RULE_BOUND || j.rule == DMLCONF_RULE_BOUND_FLOAT16) && j.tolerance_fraction > worst)
            worst = j.tolerance_fraction;
    }
    free(oracle);
    free(side);
    return worst;
}

/* ---- simulated GPU evaluation orders ---------------------------------------- */

typedef enum order_kind
{
    ORDER_SEQUENTIAL,
    ORDER_HILLIS_STEELE,
    ORDER_BLELLOCH,
    ORDER_CHUNKED,    /* sequential chunk scans, sequential scan of chunk totals, carry added */
    ORDER_CHUNKED_HS, /* Hillis-Steele within chunks (a warp), sequential carries */
} order_kind;

typedef enum conversion
{
    CONVERT_NONE, /* float32 output */
    CONVERT_RTZ,  /* float16 output: toward zero, saturating (D3D) */
    CONVERT_RNE,  /* float16 output: to nearest even (Vulkan) */
} conversion;

typedef struct order
{
    const char *name;
    order_kind kind;
    size_t chunk;
    bool ftz;
    bool exclusive;
    conversion convert;
} order;

typedef struct arith
{
    bool product;
    bool ftz;
} arith;

static float flush(const arith *a, float x)
{
    if (a->ftz && x != 0.0f && fabsf(x) < FLT_MIN)
        return x < 0.0f ? -0.0f : 0.0f;
    return x;
}

static float combine(const arith *a, float left, float right)
{
    float r = a->product ? left * right : left + right;
    return flush(a, r);
}

static float identity(const arith *a)
{
    return a->product ? 1.0f : 0.0f;
}

static void scan_sequential(const arith *a, size_t n, const float *x, float *y)
{
    float acc = 0.0f;
    for (size_t i = 0; i < n; ++i)
    {
        acc = i == 0 ? x[0] : combine(a, acc, x[i]);
        y[i] = acc;
    }
}

static void scan_hillis_steele(const arith *a, size_t n, const float *x, float *y)
{
    float *other = malloc((n ? n : 1) * sizeof(*other));
    ck_assert_ptr_nonnull(other);
    memcpy(y, x, n * sizeof(*y));
    for (size_t d = 1; d < n; d <<= 1)
    {
        for (size_t i = 0; i < n; ++i)
            other[i] = i >= d ? combine(a, y[i - d], y[i]) : y[i];
        memcpy(y, other, n * sizeof(*y));
    }
    free(other);
}

/* Work-efficient tree: up-sweep, down-sweep to the exclusive scan, then the
 * inclusive scan as exclusive (+) x (or the exclusive result itself). */
static void scan_blelloch(const arith *a, size_t n, const float *x, float *y, bool exclusive)
{
    size_t p = 1;
    while (p < n)
        p <<= 1;
    float *t = malloc(p * sizeof(*t));
    ck_assert_ptr_nonnull(t);
    for (size_t i = 0; i < p; ++i)
        t[i] = i < n ? x[i] : identity(a);
    for (size_t d = 1; d < p; d <<= 1)
        for (size_t i = 2 * d - 1; i < p; i += 2 * d)
            t[i] = combine(a, t[i - d], t[i]);
    t[p - 1] = identity(a);
    for (size_t d = p / 2; d >= 1; d >>= 1)
    {
        for (size_t i = 2 * d - 1; i < p; i += 2 * d)
        {
            float left = t[i - d];
            t[i - d] = t[i];
            t[i] = combine(a, t[i], left);
        }
    }
    for (size_t i = 0; i < n; ++i)
        y[i] = exclusive ? t[i] : combine(a, t[i], x[i]);
    free(t);
}

/* Chunks scanned independently, then the scan of the chunk totals (kept
 * aside) added to every later chunk as its carry. */
static void scan_chunked(const arith *a, size_t n, const float *x, float *y, size_t chunk, bool warp_tree)
{
    size_t chunks = (n + chunk - 1) / chunk;
    float *totals = malloc((chunks ? chunks : 1) * sizeof(*totals));
    ck_assert_ptr_nonnull(totals);
    for (size_t c = 0; c < chunks; ++c)
    {
        size_t start = c * chunk, len = n - start < chunk ? n - start : chunk;
        if (warp_tree)
            scan_hillis_steele(a, len, x + start, y + start);
        else
            scan_sequential(a, len, x + start, y + start);
        totals[c] = y[start + len - 1];
    }
    float carry = 0.0f;
    for (size_t c = 1; c < chunks; ++c)
    {
        carry = c == 1 ? totals[0] : combine(a, carry, totals[c - 1]);
        size_t start = c * chunk, len = n - start < chunk ? n - start : chunk;
        for (size_t i = start; i < start + len; ++i)
            y[i] = combine(a, carry, y[i]);
    }
    free(totals);
}

/* Simulates one order on float32 values (inputs flushed first under FTZ).
 * Exclusive scans shift an inclusive scan of the first n - 1 terms (each of
 * its values is a legitimate tree of its terms), except Blelloch's, which
 * is exclusive by nature. */
static void simulate(const order *o, bool product, size_t n, const float *input, float *y)
{
    arith a = {product, o->ftz};
    float *x = malloc((n ? n : 1) * sizeof(*x));
    ck_assert_ptr_nonnull(x);
    for (size_t i = 0; i < n; ++i)
        x[i] = flush(&a, input[i]);
    if (o->exclusive && o->kind == ORDER_BLELLOCH)
    {
        scan_blelloch(&a, n, x, y, true);
        free(x);
        return;
    }
    size_t m = o->exclusive ? (n ? n - 1 : 0) : n;
    float *out = o->exclusive ? y + 1 : y;
    switch (o->kind)
    {
    case ORDER_SEQUENTIAL:
        scan_sequential(&a, m, x, out);
        break;
    case ORDER_HILLIS_STEELE:
        scan_hillis_steele(&a, m, x, out);
        break;
    case ORDER_BLELLOCH:
        scan_blelloch(&a, m, x, out, false);
        break;
    case ORDER_CHUNKED:
        scan_chunked(&a, m, x, out, o->chunk, false);
        break;
    case ORDER_CHUNKED_HS:
        scan_chunked(&a, m, x, out, o->chunk, true);
        break;
    }
    if (o->exclusive && n)
        y[0] = identity(&a);
    free(x);
}

/* ---- data sets -------------------------------------------------------------- */

typedef enum data_kind
{
    DATA_UNIFORM,      /* uniform in [lo, hi] */
    DATA_CONSTANT,     /* lo */
    DATA_TINY32,       /* k 2^-149, |k| <= 2^22: float32 subnormals and tiny normals */
    DATA_TINY16,       /* k 2^-24, |k| <= 1500: float16 subnormals and tiny normals */
    DATA_WIDE,         /* random sign, exponent in [lo, hi], random mantissa */
    DATA_WIDE_POSITIVE /* the same, positive */
} data_kind;

typedef struct dataset
{
    const char *name;
    bool product;
    size_t n;
    data_kind kind;
    double lo;
    double hi;
} dataset;

static double draw(rng *r, const dataset *d)
{
    switch (d->kind)
    {
    case DATA_UNIFORM:
        return d->lo + (d->hi - d->lo) * rng_unit(r);
    case DATA_CONSTANT:
        return d->lo;
    case DATA_TINY32:
        return (double)rng_int(r, -(INT64_C(1) << 22), INT64_C(1) << 22) * 0x1p-149;
    case DATA_TINY16:
        return (double)rng_int(r, -1500, 1500) * 0x1p-24;
    case DATA_WIDE:
    case DATA_WIDE_POSITIVE:
    {
        double sign = d->kind == DATA_WIDE && (rng_next(r) & 1u) ? -1.0 : 1.0;
        int e = (int)rng_int(r, (int64_t)d->lo, (int64_t)d->hi);
        return sign * ldexp(1.0 + rng_unit(r), e);
    }
    }
    return 0.0;
}

static const dataset datasets_f32[] = {
    {"sum random [0,1) n=1000", false, 1000, DATA_UNIFORM, 0.0, 1.0},
    {"sum cancelling [-1,1] n=1e4", false, 10000, DATA_UNIFORM, -1.0, 1.0},
    {"sum long [-1,1] n=1e5", false, 100000, DATA_UNIFORM, -1.0, 1.0},
    {"sum long [0,1) n=1e5", false, 100000, DATA_UNIFORM, 0.0, 1.0},
    {"sum 65536 x 0.1f", false, 65536, DATA_CONSTANT, 0.1, 0.1},
    {"sum tiny (subnormal range) n=2000", false, 2000, DATA_TINY32, 0.0, 0.0},
    {"sum wide exponents [-20,20] n=1000", false, 1000, DATA_WIDE, -20.0, 20.0},
    {"product near 1 (+-2^-6) n=1e4", true, 10000, DATA_UNIFORM, 1.0 - 0x1p-6, 1.0 + 0x1p-6},
    {"product near 1 (+-1/4) n=1000", true, 1000, DATA_UNIFORM, 0.75, 1.25},
    {"product wide [-6,6] n=300", true, 300, DATA_WIDE, -6.0, 6.0},
    {"product wide [-40,40] n=100", true, 100, DATA_WIDE, -40.0, 40.0},
    {"product underflowing [-30,-1] n=40", true, 40, DATA_WIDE_POSITIVE, -30.0, -1.0},
};

static const dataset datasets_f16[] = {
    {"sum random [0,1) n=1000", false, 1000, DATA_UNIFORM, 0.0, 1.0},
    {"sum cancelling [-1,1] n=1e4", false, 10000, DATA_UNIFORM, -1.0, 1.0},
    {"sum long [-1,1] n=1e5", false, 100000, DATA_UNIFORM, -1.0, 1.0},
    {"sum long [0,1) n=1e5", false, 100000, DATA_UNIFORM, 0.0, 1.0},
    {"sum tiny (subnormal range) n=2000", false, 2000, DATA_TINY16, 0.0, 0.0},
    {"sum wide exponents [-8,8] n=1000", false, 1000, DATA_WIDE, -8.0, 8.0},
    {"product near 1 (+-2^-7) n=2000", true, 2000, DATA_UNIFORM, 1.0 - 0x1p-7, 1.0 + 0x1p-7},
    {"product wide [-3,3] n=100", true, 100, DATA_WIDE, -3.0, 3.0},
};

/* ---- (a) no false failures ---------------------------------------------------- */

static const order orders_f32[] = {
    {"sequential", ORDER_SEQUENTIAL, 0, false, false, CONVERT_NONE},
    {"sequential, FTZ", ORDER_SEQUENTIAL, 0, true, false, CONVERT_NONE},
    {"sequential, exclusive", ORDER_SEQUENTIAL, 0, false, true, CONVERT_NONE},
    {"Hillis-Steele", ORDER_HILLIS_STEELE, 0, false, false, CONVERT_NONE},
    {"Hillis-Steele, FTZ", ORDER_HILLIS_STEELE, 0, true, false, CONVERT_NONE},
    {"Blelloch", ORDER_BLELLOCH, 0, false, false, CONVERT_NONE},
    {"Blelloch, FTZ", ORDER_BLELLOCH, 0, true, false, CONVERT_NONE},
    {"Blelloch, exclusive", ORDER_BLELLOCH, 0, false, true, CONVERT_NONE},
    {"chunked 32", ORDER_CHUNKED, 32, false, false, CONVERT_NONE},
    {"chunked 256", ORDER_CHUNKED, 256, false, false, CONVERT_NONE},
    {"chunked 1000, FTZ", ORDER_CHUNKED, 1000, true, false, CONVERT_NONE},
    {"chunked 4096", ORDER_CHUNKED, 4096, false, false, CONVERT_NONE},
    {"warp Hillis-Steele 32 + carries", ORDER_CHUNKED_HS, 32, false, false, CONVERT_NONE},
    {"warp Hillis-Steele 1024 + carries, FTZ", ORDER_CHUNKED_HS, 1024, true, false, CONVERT_NONE},
};

static const order orders_f16[] = {
    {"f16 in f32: sequential, RTZ", ORDER_SEQUENTIAL, 0, false, false, CONVERT_RTZ},
    {"f16 in f32: sequential, RNE", ORDER_SEQUENTIAL, 0, false, false, CONVERT_RNE},
    {"f16 in f32: sequential exclusive, RTZ", ORDER_SEQUENTIAL, 0, false, true, CONVERT_RTZ},
    {"f16 in f32: Hillis-Steele, RTZ", ORDER_HILLIS_STEELE, 0, false, false, CONVERT_RTZ},
    {"f16 in f32: Hillis-Steele, RNE", ORDER_HILLIS_STEELE, 0, false, false, CONVERT_RNE},
    {"f16 in f32: Blelloch, RTZ", ORDER_BLELLOCH, 0, false, false, CONVERT_RTZ},
    {"f16 in f32: Blelloch, RNE", ORDER_BLELLOCH, 0, false, false, CONVERT_RNE},
    {"f16 in f32: chunked 32, RTZ", ORDER_CHUNKED, 32, false, false, CONVERT_RTZ},
    {"f16 in f32: chunked 32, RNE", ORDER_CHUNKED, 32, false, false, CONVERT_RNE},
    {"f16 in f32: chunked 256, RTZ", ORDER_CHUNKED, 256, false, false, CONVERT_RTZ},
    {"f16 in f32: chunked 1000, RNE", ORDER_CHUNKED, 1000, false, false, CONVERT_RNE},
    {"f16 in f32: warp HS 32 + carries, RTZ", ORDER_CHUNKED_HS, 32, false, false, CONVERT_RTZ},
    {"f16 in f32: warp HS 32 + carries, RNE", ORDER_CHUNKED_HS, 32, false, false, CONVERT_RNE},
    {"f16 in f32: sequential, FTZ, RTZ", ORDER_SEQUENTIAL, 0, true, false, CONVERT_RTZ},
};

/* Runs one order over every data set of its type; every result must pass.
 * Prints the worst tolerance fraction: over all judged elements (exact-by-
 * construction elements converted toward zero sit at exactly 1) and over
 * those judged by the error bound, sums and products apart. */
static void run_legitimate(const order *o, dmlconf_data_type type)
{
    bool half = type == DMLCONF_DATA_TYPE_FLOAT16;
    const dataset *sets = half ? datasets_f16 : datasets_f32;
    size_t set_count =
        half ? sizeof(datasets_f16) / sizeof(datasets_f16[0]) : sizeof(datasets_f32) / sizeof(datasets_f32[0]);
    double worst = 0.0, worst_sum = -1.0, worst_product = -1.0;
    uint64_t unjudged = 0, elements = 0;
    const char *worst_set = "";

    for (size_t s = 0; s < set_count; ++s)
    {
        const dataset *d = &sets[s];
        size_t n = d->n;
        rng r = {UINT64_C(0x5eed) + s * 7919u};
        float *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));
        uint16_t *xh = malloc(n * sizeof(*xh)), *yh = malloc(n * sizeof(*yh));
        ck_assert(x && y && xh && yh);
        for (size_t i = 0; i < n; ++i)
        {
            double v = draw(&r, d);
            if (half)
            {
                xh[i] = half_rne(v);
                x[i] = half_value(xh[i]);
            }
            else
            {
                x[i] = (float)v;
            }
        }
        simulate(o, d->product, n, x, y);
        if (half)
            for (size_t i = 0; i < n; ++i)
                yh[i] = o->convert == CONVERT_RTZ ? half_rtz(y[i]) : half_rne((double)y[i]);

        dmlconf_operator op = d->product ? DMLCONF_OPERATOR_CUMULATIVE_PRODUCT : DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
        dmlconf_scan_desc desc = line_desc(op, type, (uint32_t)n, o->exclusive);
        const void *input = half ? (const void *)xh : (const void *)x;
        const void *actual = half ? (const void *)yh : (const void *)y;
        dmlconf_comparison cmp;
        compare_packed(&desc, input, actual, NULL, &cmp);
        char text[512];
        describe_first(type, &cmp, text, sizeof(text));
        ck_assert_msg(cmp.mismatches == 0, "false failure: %s on %s: %" PRIu64 " mismatches, first %s", o->name,
                      d->name, cmp.mismatches, text);
        ck_assert_uint_eq(cmp.elements, n);
        if (cmp.max_tolerance_fraction > worst)
        {
            worst = cmp.max_tolerance_fraction;
            worst_set = d->name;
        }
        double b = bound_rule_worst(op, type, o->exclusive, n, input, actual, NULL);
        double *bound_worst = d->product ? &worst_product : &worst_sum;
        if (b > *bound_worst)
            *bound_worst = b;
        unjudged += cmp.unjudged;
        elements += cmp.elements;
        free(x);
        free(y);
        free(xh);
        free(yh);
    }
    printf("legitimate %-40s worst fraction %.4f (%s); error bound rule: sums %.4f, products %.4f; unjudged "
           "%" PRIu64 "/%" PRIu64 "\n",
           o->name, worst, worst_set, worst_sum, worst_product, unjudged, elements);
    fflush(stdout);
    ck_assert(worst_sum < 1.0 && worst_product < 1.0);
}

START_TEST(test_legitimate_f32)
{
    run_legitimate(&orders_f32[_i], DMLCONF_DATA_TYPE_FLOAT32);
}
END_TEST

START_TEST(test_legitimate_f16)
{
    run_legitimate(&orders_f16[_i], DMLCONF_DATA_TYPE_FLOAT16);
}
END_TEST

/* ---- ULP distance and ulp ------------------------------------------------------ */

START_TEST(test_ulp_distance)
{
    const dmlconf_data_type f32 = DMLCONF_DATA_TYPE_FLOAT32, f16 = DMLCONF_DATA_TYPE_FLOAT16;
    /* Across zero: the smallest subnormals on either side are 2 apart, +0
     * and -0 are one point. */
    ck_assert_double_eq(dmlconf_ulp_distance(f32, 0x00000001u, 0x80000001u), 2.0);
    ck_assert_double_eq(dmlconf_ulp_distance(f32, 0x00000000u, 0x80000000u), 0.0);
    ck_assert_double_eq(dmlconf_ulp_distance(f32, 0x80000000u, 0x00000001u), 1.0);
    ck_assert_double_eq(dmlconf_ulp_distance(f32, f32_bits(1.0f), f32_bits(-1.0f)), 2.0 * 0x3f800000);
    ck_assert_double_eq(dmlconf_ulp_distance(f32, f32_bits(1.0f), f32_bits(nextafterf(1.0f, 2.0f))), 1.0);
    ck_assert_double_eq(dmlconf_ulp_distance(f32, f32_bits(1.0f), f32_bits(nextafterf(1.0f, 0.0f))), 1.0);
    /* Extremes: Inf is one step past the largest finite value. */
    ck_assert_double_eq(dmlconf_ulp_distance(f32, 0x7f7fffffu, 0x7f800000u), 1.0);
    ck_assert_double_eq(dmlconf_ulp_distance(f32, 0xff800000u, 0x7f800000u), 2.0 * 0x7f800000);
    ck_assert_double_eq(dmlconf_ulp_distance(f32, 0xff7fffffu, 0x7f7fffffu), 2.0 * 0x7f7fffff);
    /* NaNs: any two NaNs are the same; a NaN and a number are unmeasurable. */
    ck_assert_double_eq(dmlconf_ulp_distance(f32, 0x7fc00000u, 0xffc00001u), 0.0);
    ck_assert(isinf(dmlconf_ulp_distance(f32, 0x7fc00000u, 0x3f800000u)));
    /* float16 */
    ck_assert_double_eq(dmlconf_ulp_distance(f16, 0x0001u, 0x8001u), 2.0);
    ck_assert_double_eq(dmlconf_ulp_distance(f16, 0x7bffu, 0x7c00u), 1.0);
    ck_assert_double_eq(dmlconf_ulp_distance(f16, 0xfc00u, 0x7c00u), 2.0 * 0x7c00);
    ck_assert_double_eq(dmlconf_ulp_distance(f16, 0x3c00u, 0x3c01u), 1.0);
    /* Integers: modular distance. */
    ck_assert_double_eq(dmlconf_ulp_distance(DMLCONF_DATA_TYPE_INT32, 0, 0xffffffffu), 1.0);
    ck_assert_double_eq(dmlconf_ulp_distance(DMLCONF_DATA_TYPE_UINT32, 5, 2), 3.0);
    ck_assert_double_eq(dmlconf_ulp_distance(DMLCONF_DATA_TYPE_UINT64, 0, UINT64_MAX), 1.0);
    ck_assert_double_eq(dmlconf_ulp_distance(DMLCONF_DATA_TYPE_INT64, 0, UINT64_C(1) << 63), 0x1p63);
    ck_assert(isinf(dmlconf_ulp_distance(DMLCONF_DATA_TYPE_UINT16, 0, 1)));
}
END_TEST

START_TEST(test_ulp_of)
{
    const dmlconf_data_type f32 = DMLCONF_DATA_TYPE_FLOAT32, f16 = DMLCONF_DATA_TYPE_FLOAT16;
    ck_assert_double_eq(dmlconf_ulp_of(f32, 1.0), 0x1p-23);
    ck_assert_double_eq(dmlconf_ulp_of(f32, -1.5), 0x1p-23);
    ck_assert_double_eq(dmlconf_ulp_of(f32, 0.0), 0x1p-149);
    ck_assert_double_eq(dmlconf_ulp_of(f32, 0x1p-130), 0x1p-149);
    ck_assert_double_eq(dmlconf_ulp_of(f32, 0x1p-126), 0x1p-149);
    ck_assert_double_eq(dmlconf_ulp_of(f32, (double)FLT_MAX), 0x1p104);
    ck_assert_double_eq(dmlconf_ulp_of(f32, 1e300), 0x1p104);
    ck_assert_double_eq(dmlconf_ulp_of(f16, 1.0), 0x1p-10);
    ck_assert_double_eq(dmlconf_ulp_of(f16, 0.0), 0x1p-24);
    ck_assert_double_eq(dmlconf_ulp_of(f16, 65504.0), 32.0);
    ck_assert_double_eq(dmlconf_ulp_of(f16, 2048.0), 2.0);
    ck_assert_double_eq(dmlconf_ulp_of(f16, 2047.0), 1.0);
    ck_assert_double_eq(dmlconf_ulp_of(DMLCONF_DATA_TYPE_INT32, 1.0), 0.0);
}
END_TEST

/* ---- tolerance ------------------------------------------------------------------ */

START_TEST(test_tolerance_defaults)
{
    dmlconf_tolerance tol;
    ck_assert(dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT32, &tol));
    ck_assert_double_eq(tol.ulp, 1.0);
    ck_assert_int_eq(tol.accumulation, DMLCONF_DATA_TYPE_FLOAT32);
    ck_assert(tol.ftz && !tol.strict_signed_zero && !tol.bit_exact);
    ck_assert(dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT16, &tol));
    ck_assert_double_eq(tol.ulp, 2.0);
    ck_assert_int_eq(tol.accumulation, DMLCONF_DATA_TYPE_FLOAT32);
    ck_assert(!tol.ftz && !tol.strict_signed_zero && !tol.bit_exact);
    ck_assert(dmlconf_tolerance_default(DMLCONF_DATA_TYPE_INT64, &tol));
    ck_assert(tol.bit_exact);
    ck_assert(!dmlconf_tolerance_default(DMLCONF_DATA_TYPE_UINT8, &tol));

    dmlconf_error err = {{0}};
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT32, &tol);
    ck_assert_int_eq(dmlconf_tolerance_check(DMLCONF_DATA_TYPE_FLOAT32, &tol, NULL, &err), 0);
    tol.ulp = -1.0;
    ck_assert_int_eq(dmlconf_tolerance_check(DMLCONF_DATA_TYPE_FLOAT32, &tol, NULL, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.message, "ulp"));
    tol.ulp = (double)NAN;
    ck_assert_int_eq(dmlconf_tolerance_check(DMLCONF_DATA_TYPE_FLOAT32, &tol, NULL, &err), -1);
    tol.ulp = 1.0;
    tol.accumulation = DMLCONF_DATA_TYPE_FLOAT16;
    ck_assert_int_eq(dmlconf_tolerance_check(DMLCONF_DATA_TYPE_FLOAT32, &tol, NULL, &err), -1);
    ck_assert_int_eq(dmlconf_tolerance_check(DMLCONF_DATA_TYPE_FLOAT16, &tol, NULL, &err), 0);
    tol.accumulation = DMLCONF_DATA_TYPE_INT32;
    ck_assert_int_eq(dmlconf_tolerance_check(DMLCONF_DATA_TYPE_FLOAT16, &tol, NULL, &err), -1);
    ck_assert_int_eq(dmlconf_tolerance_check(DMLCONF_DATA_TYPE_UINT16, &tol, NULL, &err), -1);

    dmlconf_judge judge;
    ck_assert_int_eq(dmlconf_judge_init(&judge, (dmlconf_operator)7, DMLCONF_DATA_TYPE_FLOAT32, NULL, &err), -1);
    dmlconf_judgement j;
    ck_assert_int_eq(dmlconf_judge_bits(&judge, 0, 0, NULL, &j), DMLCONF_VERDICT_FAIL);
    ck_assert_int_eq(j.rule, DMLCONF_RULE_INVALID);
    ck_assert_str_eq(dmlconf_rule_name(DMLCONF_RULE_BOUND), "bound");
}
END_TEST

/* Side data of the last element of a float32 line. */
static dmlconf_side_data side_of(dmlconf_operator op, size_t n, const float *x, uint32_t *oracle_bits)
{
    float out[64];
    dmlconf_side_data side[64];
    ck_assert(n <= 64);
    dmlconf_error err = {{0}};
    ck_assert(dmlconf_scan_line(op, DMLCONF_DATA_TYPE_FLOAT32, false, n, x, out, side, &err) == 0);
    if (oracle_bits)
        *oracle_bits = f32_bits(out[n - 1]);
    return side[n - 1];
}

static dmlconf_verdict judge_f32(dmlconf_operator op, size_t n, const float *x, float actual,
                                 const dmlconf_tolerance *tol, dmlconf_judgement *j)
{
    uint32_t o;
    dmlconf_side_data side = side_of(op, n, x, &o);
    return dmlconf_judge_element(op, DMLCONF_DATA_TYPE_FLOAT32, o, f32_bits(actual), &side, tol, j);
}

static const dmlconf_operator SUM = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
static const dmlconf_operator PRODUCT = DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;

START_TEST(test_nan_inf_rules)
{
    dmlconf_judgement j;
    /* NaN expected: any NaN passes, anything else fails. */
    const float with_nan[] = {1.0f, NAN, 2.0f};
    ck_assert_int_eq(judge_f32(SUM, 3, with_nan, f32_from_bits(0xffc00123u), NULL, &j), DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(j.rule, DMLCONF_RULE_NAN);
    ck_assert_int_eq(judge_f32(SUM, 3, with_nan, 3.0f, NULL, &j), DMLCONF_VERDICT_FAIL);
    ck_assert(isinf(j.tolerance_fraction) && isinf(j.error_ulps));
    ck_assert_int_eq(judge_f32(SUM, 3, with_nan, INFINITY, NULL, &j), DMLCONF_VERDICT_FAIL);
    /* +Inf and -Inf meet: NaN. */
    const float both_inf[] = {INFINITY, -INFINITY};
    ck_assert_int_eq(judge_f32(SUM, 2, both_inf, NAN, NULL, &j), DMLCONF_VERDICT_PASS);
    const float zero_inf[] = {0.0f, INFINITY};
    ck_assert_int_eq(judge_f32(PRODUCT, 2, zero_inf, NAN, NULL, &j), DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(judge_f32(PRODUCT, 2, zero_inf, 0.0f, NULL, &j), DMLCONF_VERDICT_FAIL);

    /* Inf from an Inf input: exactly that Inf. */
    const float with_inf[] = {1.0f, INFINITY, 2.0f};
    ck_assert_int_eq(judge_f32(SUM, 3, with_inf, INFINITY, NULL, &j), DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(j.rule, DMLCONF_RULE_INF_INPUT);
    ck_assert_int_eq(judge_f32(SUM, 3, with_inf, -INFINITY, NULL, &j), DMLCONF_VERDICT_FAIL);
    ck_assert_int_eq(judge_f32(SUM, 3, with_inf, FLT_MAX, NULL, &j), DMLCONF_VERDICT_FAIL);
    ck_assert_int_eq(judge_f32(SUM, 3, with_inf, NAN, NULL, &j), DMLCONF_VERDICT_FAIL);
    ck_assert_int_eq(judge_f32(PRODUCT, 3, with_inf, INFINITY, NULL, &j), DMLCONF_VERDICT_PASS);
    const float neg_product[] = {-2.0f, INFINITY};
    ck_assert_int_eq(judge_f32(PRODUCT, 2, neg_product, -INFINITY, NULL, &j), DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(judge_f32(PRODUCT, 2, neg_product, INFINITY, NULL, &j), DMLCONF_VERDICT_FAIL);
    /* ... but a NaN is legitimate where the finite part can overflow to the
     * opposite Inf first: -FLT_MAX - FLT_MAX = -Inf, then +Inf + -Inf. */
    const float overflowing[] = {INFINITY, -FLT_MAX, -FLT_MAX};
    ck_assert_int_eq(judge_f32(SUM, 3, overflowing, NAN, NULL, &j), DMLCONF_VERDICT_UNJUDGED);
    ck_assert_int_eq(judge_f32(SUM, 3, overflowing, INFINITY, NULL, &j), DMLCONF_VERDICT_PASS);
    /* ... or where a product of the finite part can underflow to 0. */
    const float underflowing[] = {INFINITY, 1e-30f, 1e-30f};
    ck_assert_int_eq(judge_f32(PRODUCT, 3, underflowing, NAN, NULL, &j), DMLCONF_VERDICT_UNJUDGED);
    ck_assert_int_eq(judge_f32(PRODUCT, 3, underflowing, INFINITY, NULL, &j), DMLCONF_VERDICT_PASS);

    /* A finite expected value: NaN and Inf fail. */
    const float plain[] = {1.0f, 2.5f, 0.1f};
    ck_assert_int_eq(judge_f32(SUM, 3, plain, NAN, NULL, &j), DMLCONF_VERDICT_FAIL);
    ck_assert(isinf(j.tolerance_fraction));
    ck_assert_int_eq(judge_f32(SUM, 3, plain, INFINITY, NULL, &j), DMLCONF_VERDICT_FAIL);
    ck_assert(j.tolerance_fraction > 1.0 && !isnan(j.tolerance_fraction));
}
END_TEST

START_TEST(test_signed_zero)
{
    dmlconf_judgement j;
    dmlconf_tolerance strict;
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT32, &strict);
    strict.strict_signed_zero = true;
    const float negative_zeros[] = {-0.0f, -0.0f};
    ck_assert_int_eq(judge_f32(SUM, 2, negative_zeros, -0.0f, NULL, &j), DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(judge_f32(SUM, 2, negative_zeros, 0.0f, NULL, &j), DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(judge_f32(SUM, 2, negative_zeros, -0.0f, &strict, &j), DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(judge_f32(SUM, 2, negative_zeros, 0.0f, &strict, &j), DMLCONF_VERDICT_FAIL);
    ck_assert(isinf(j.tolerance_fraction));
    ck_assert_int_eq(j.rule, DMLCONF_RULE_SIGNED_ZERO);
    /* Cancellation gives +0. */
    const float cancel[] = {1.5f, -1.5f};
    ck_assert_int_eq(judge_f32(SUM, 2, cancel, -0.0f, NULL, &j), DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(judge_f32(SUM, 2, cancel, -0.0f, &strict, &j), DMLCONF_VERDICT_FAIL);
    ck_assert_int_eq(judge_f32(SUM, 2, cancel, 0.0f, &strict, &j), DMLCONF_VERDICT_PASS);
    /* Products: the sign of a zero is the XOR of the signs. */
    const float product[] = {-3.0f, 0.0f, 0.1f};
    ck_assert_int_eq(judge_f32(PRODUCT, 3, product, -0.0f, &strict, &j), DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(j.rule, DMLCONF_RULE_ZERO_PRODUCT);
    ck_assert_int_eq(judge_f32(PRODUCT, 3, product, 0.0f, &strict, &j), DMLCONF_VERDICT_FAIL);
    ck_assert_int_eq(j.rule, DMLCONF_RULE_SIGNED_ZERO);
    ck_assert_int_eq(judge_f32(PRODUCT, 3, product, 0.0f, NULL, &j), DMLCONF_VERDICT_PASS);
    /* A zero factor makes the product exactly zero in every order. */
    ck_assert_int_eq(judge_f32(PRODUCT, 3, product, 1e-45f, NULL, &j), DMLCONF_VERDICT_FAIL);
    /* float16 */
    uint16_t zeros_in[2] = {0x8000u, 0x8000u}, out[2];
    dmlconf_side_data side[2];
    ck_assert(dmlconf_scan_line(SUM, DMLCONF_DATA_TYPE_FLOAT16, false, 2, zeros_in, out, side, NULL) == 0);
    ck_assert_uint_eq(out[1], 0x8000u);
    dmlconf_tolerance strict16;
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT16, &strict16);
    strict16.strict_signed_zero = true;
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT16, 0x8000u, 0x0000u, &side[1], NULL, &j),
                     DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT16, 0x8000u, 0x0000u, &side[1], &strict16, &j),
                     DMLCONF_VERDICT_FAIL);
    ck_assert_int_eq(j.rule, DMLCONF_RULE_SIGNED_ZERO);
    /* Bit-exact comparison of zeros follows the signed-zero setting too. */
    strict16.bit_exact = true;
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT16, 0x8000u, 0x0000u, &side[1], &strict16, &j),
                     DMLCONF_VERDICT_FAIL);
    ck_assert_int_eq(j.rule, DMLCONF_RULE_SIGNED_ZERO);
    strict16.strict_signed_zero = false;
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT16, 0x8000u, 0x0000u, &side[1], &strict16, &j),
                     DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(j.rule, DMLCONF_RULE_BIT_EXACT);
}
END_TEST

/* Flush-to-zero: allowed for float32 by default, not for float16. */
START_TEST(test_ftz_allowance)
{
    enum
    {
        N = 1000
    };
    rng r = {42};
    float x[N], flushed[N];
    for (size_t i = 0; i < N; ++i)
        x[i] = (float)((double)rng_int(&r, -(1 << 20), 1 << 20) * 0x1p-149); /* all subnormal */
    order seq_ftz = {"sequential, FTZ", ORDER_SEQUENTIAL, 0, true, false, CONVERT_NONE};
    simulate(&seq_ftz, false, N, x, flushed);
    for (size_t i = 0; i < N; ++i)
        ck_assert(flushed[i] == 0.0f);
    dmlconf_scan_desc desc = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT32, N, false);
    dmlconf_comparison cmp;
    compare_packed(&desc, x, flushed, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    ck_assert(cmp.max_tolerance_fraction <= 1.0);

    dmlconf_tolerance no_ftz;
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT32, &no_ftz);
    no_ftz.ftz = false;
    compare_packed(&desc, x, flushed, &no_ftz, &cmp);
    ck_assert_uint_gt(cmp.mismatches, 0);
    ck_assert_uint_eq(cmp.first.logical_index, 0);

    /* Products: a subnormal factor flushed: 2^-130 x 2^10 = 2^-120, or 0. */
    const float tiny_product[] = {0x1p-130f, 0x1p10f};
    dmlconf_judgement j;
    ck_assert_int_eq(judge_f32(PRODUCT, 2, tiny_product, 0.0f, NULL, &j), DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(judge_f32(PRODUCT, 2, tiny_product, 0.0f, &no_ftz, &j), DMLCONF_VERDICT_FAIL);
    ck_assert_int_eq(judge_f32(PRODUCT, 2, tiny_product, 0x1p-120f, &no_ftz, &j), DMLCONF_VERDICT_PASS);

    /* float16: subnormals must be kept. */
    uint16_t h[N], h_flushed[N];
    for (size_t i = 0; i < N; ++i)
    {
        h[i] = (uint16_t)rng_int(&r, 1, 0x3ff); /* positive subnormals */
        h_flushed[i] = 0;
    }
    dmlconf_scan_desc desc16 = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT16, N, false);
    compare_packed(&desc16, h, h_flushed, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, N);
    ck_assert_uint_eq(cmp.first.logical_index, 0);
}
END_TEST

START_TEST(test_range_ambiguous)
{
    const float x[] = {FLT_MAX, FLT_MAX, -FLT_MAX};
    dmlconf_scan_desc desc = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT32, 3, false);
    dmlconf_comparison cmp;
    /* Sequential: FLT_MAX, Inf, Inf. */
    const float sequential[] = {FLT_MAX, INFINITY, INFINITY};
    compare_packed(&desc, x, sequential, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    ck_assert_uint_eq(cmp.unjudged, 2);
    /* Another order: FLT_MAX + (FLT_MAX - FLT_MAX) = FLT_MAX, or NaN. */
    const float other[] = {FLT_MAX, INFINITY, FLT_MAX};
    compare_packed(&desc, x, other, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    ck_assert_uint_eq(cmp.unjudged, 2);
    const float nan_out[] = {FLT_MAX, NAN, -INFINITY};
    compare_packed(&desc, x, nan_out, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    ck_assert_uint_eq(cmp.unjudged, 2);
    /* A finite value outside the tolerance still fails. */
    const float wrong[] = {FLT_MAX, INFINITY, 0.0f};
    compare_packed(&desc, x, wrong, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 1);
    ck_assert_uint_eq(cmp.unjudged, 1);
    ck_assert_uint_eq(cmp.first.logical_index, 2);
    /* Unjudged elements stay out of the histogram. */
    uint64_t histogram_total = 0;
    for (int i = 0; i < DMLCONF_HISTOGRAM_BINS; ++i)
        histogram_total += cmp.histogram[i];
    ck_assert_uint_eq(histogram_total, 2);
    ck_assert_uint_eq(cmp.histogram[DMLCONF_HISTOGRAM_BINS - 1], 1);

    /* Products: 2^100 * 2^100 overflows in float32 whatever the order. */
    const float p[] = {0x1p100f, 0x1p100f, 0x1p-100f};
    const float p_sequential[] = {0x1p100f, INFINITY, INFINITY};
    dmlconf_scan_desc pdesc = line_desc(PRODUCT, DMLCONF_DATA_TYPE_FLOAT32, 3, false);
    compare_packed(&pdesc, p, p_sequential, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    ck_assert_uint_eq(cmp.unjudged, 2);

    /* float16 accumulated in float16 (opt-in): Omega is 65504, and past
     * m = 2049 nothing can be judged. */
    dmlconf_tolerance half_acc;
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT16, &half_acc);
    half_acc.accumulation = DMLCONF_DATA_TYPE_FLOAT16;
    enum
    {
        N = 3000
    };
    uint16_t h[N], h_out[N];
    rng r = {3};
    for (size_t i = 0; i < N; ++i)
        h[i] = half_rne(rng_unit(&r));
    double acc = 0.0;
    for (size_t i = 0; i < N; ++i)
    {
        acc = (double)half_value(half_rne(acc + (double)half_value(h[i])));
        h_out[i] = half_rne(acc);
    }
    dmlconf_scan_desc hdesc = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT16, N, false);
    compare_packed(&hdesc, h, h_out, &half_acc, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    ck_assert_uint_ge(cmp.unjudged, N - 2049);
}
END_TEST

/* Float16 output from float32 accumulation past 65504: RTZ saturates, RNE
 * overflows; both are right. */
/* The half-precision rule (float16 accumulation): a float16 sum computed
 * in float16 arithmetic fails the default rule and passes this one, whose
 * failures name it; a result outside even this bound still fails. */
START_TEST(test_half_precision_rule)
{
    enum
    {
        N = 200
    };
    uint16_t h[N], y[N];
    rng r = {11};
    double acc = 0.0;
    for (size_t i = 0; i < N; ++i)
    {
        h[i] = half_rne(rng_unit(&r) * 3.0);
        acc = (double)half_value(half_rne(acc + (double)half_value(h[i])));
        y[i] = half_rne(acc);
    }
    dmlconf_scan_desc desc = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT16, N, false);
    dmlconf_comparison cmp;
    compare_packed(&desc, h, y, NULL, &cmp);
    ck_assert_uint_gt(cmp.mismatches, 0); /* float16 arithmetic is beyond the default rule */

    dmlconf_tolerance half;
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT16, &half);
    half.accumulation = DMLCONF_DATA_TYPE_FLOAT16;
    compare_packed(&desc, h, y, &half, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    ck_assert_int_eq(cmp.worst.rule, DMLCONF_RULE_BOUND_FLOAT16);
    ck_assert_double_gt(cmp.worst.tolerance_fraction, 0.0);

    /* Twice the last sum is outside even float16 arithmetic's bound: an
     * error of the whole sum S against at most gamma_199(2^-11) S = 0.11 S. */
    y[N - 1] = half_rne(2.0 * (double)half_value(y[N - 1]));
    compare_packed(&desc, h, y, &half, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 1);
    ck_assert_int_eq(cmp.first.rule, DMLCONF_RULE_BOUND_FLOAT16);
    char text[512];
    dmlconf_format_mismatch(DMLCONF_DATA_TYPE_FLOAT16, &cmp.first, text, sizeof(text));
    ck_assert_msg(strstr(text, "rule: half-precision bound (float16 accumulation") != NULL, "message: %s", text);
    ck_assert_str_eq(dmlconf_rule_name(DMLCONF_RULE_BOUND_FLOAT16), "bound_float16");
    dmlconf_rule rule = DMLCONF_RULE_INVALID;
    ck_assert(dmlconf_rule_from_name("bound_float16", &rule));
    ck_assert_int_eq(rule, DMLCONF_RULE_BOUND_FLOAT16);
}
END_TEST

START_TEST(test_half_output_overflow)
{
    dmlconf_scan_desc desc = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT16, 3, false);
    uint16_t x[3] = {half_rne(60000.0), 0x0001u /* 2^-24: not exact by construction */, half_rne(10000.0)};
    uint16_t rne[3] = {half_rne(60000.0), half_rne(60000.0), 0x7c00u};
    uint16_t rtz[3] = {half_rne(60000.0), half_rne(60000.0), 0x7bffu};
    uint16_t wrong[3] = {half_rne(60000.0), half_rne(60000.0), half_rne(60000.0)};
    dmlconf_comparison cmp;
    compare_packed(&desc, x, rne, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    ck_assert_uint_eq(cmp.unjudged, 0);
    compare_packed(&desc, x, rtz, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    compare_packed(&desc, x, wrong, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 1);
    ck_assert_uint_eq(cmp.first.logical_index, 2);
    ck_assert_uint_eq(cmp.first.expected_bits, 0x7c00u);
}
END_TEST

/* Exact by construction: small integers and dyadic fractions are judged
 * bit-exact, so one ulp anywhere fails, even at m = 10^5. */
START_TEST(test_exact_by_construction)
{
    enum
    {
        N = 100000
    };
    float *x = malloc(N * sizeof(*x)), *y = malloc(N * sizeof(*y));
    ck_assert(x && y);
    rng r = {11};
    for (size_t i = 0; i < N; ++i)
        x[i] = (float)rng_int(&r, -16, 16) * 0.25f;
    order seq = {"sequential", ORDER_SEQUENTIAL, 0, true, false, CONVERT_NONE};
    simulate(&seq, false, N, x, y);
    dmlconf_scan_desc desc = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT32, N, false);
    dmlconf_comparison cmp;
    compare_packed(&desc, x, y, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    ck_assert(cmp.max_tolerance_fraction == 0.0);
    const size_t k = 77777;
    y[k] = f32_from_bits(f32_bits(y[k]) + 1u);
    compare_packed(&desc, x, y, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 1);
    ck_assert_uint_eq(cmp.first.logical_index, k);
    ck_assert_uint_eq(cmp.first.coordinates[0], k);
    ck_assert_double_eq(cmp.first.error_ulps, 1.0);
    ck_assert(isinf(cmp.first.tolerance_fraction));
    ck_assert_uint_eq(cmp.histogram[DMLCONF_HISTOGRAM_BINS - 1], 1);
    ck_assert_uint_eq(cmp.histogram[0], N - 1);
    free(x);
    free(y);

    /* Products of short significands: 1.5^k and 0.5 stay exact. */
    float p[12], py[12];
    for (size_t i = 0; i < 12; ++i)
        p[i] = i % 3 == 2 ? -0.5f : 1.5f;
    simulate(&seq, true, 12, p, py);
    dmlconf_scan_desc pdesc = line_desc(PRODUCT, DMLCONF_DATA_TYPE_FLOAT32, 12, false);
    compare_packed(&pdesc, p, py, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    py[9] = nextafterf(py[9], 0.0f);
    compare_packed(&pdesc, p, py, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 1);
    ck_assert_uint_eq(cmp.first.logical_index, 9);

    /* float16 output from exact float32 accumulation: o or its neighbour
     * toward zero (round toward zero), nothing else. 2048 + 1 + 2 = 2051:
     * RNE gives 2052, RTZ 2050. */
    uint16_t h[3] = {half_rne(2048.0), half_rne(1.0), half_rne(2.0)};
    uint16_t out[3];
    dmlconf_side_data side[3];
    ck_assert(dmlconf_scan_line(SUM, DMLCONF_DATA_TYPE_FLOAT16, false, 3, h, out, side, NULL) == 0);
    ck_assert_uint_eq(out[2], half_rne(2052.0));
    dmlconf_judgement j;
    const dmlconf_data_type f16 = DMLCONF_DATA_TYPE_FLOAT16;
    ck_assert_int_eq(dmlconf_judge_element(SUM, f16, out[2], half_rne(2052.0), &side[2], NULL, &j),
                     DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(j.rule, DMLCONF_RULE_EXACT);
    ck_assert_int_eq(dmlconf_judge_element(SUM, f16, out[2], half_rne(2050.0), &side[2], NULL, &j),
                     DMLCONF_VERDICT_PASS);
    ck_assert_double_eq(j.tolerance_fraction, 1.0);
    ck_assert_int_eq(dmlconf_judge_element(SUM, f16, out[2], half_rne(2054.0), &side[2], NULL, &j),
                     DMLCONF_VERDICT_FAIL);
    ck_assert_int_eq(dmlconf_judge_element(SUM, f16, out[2], half_rne(2048.0), &side[2], NULL, &j),
                     DMLCONF_VERDICT_FAIL);
    ck_assert_double_eq(j.tolerance_fraction, 2.0);
    /* 2048 + 2 = 2050 is representable (the terms are multiples of 2):
     * both conversions give 2050 exactly. 2048 + 1 + 1 = 2050 has terms of
     * spacing 1, half the gap: the exact value could be 2049, a tie that
     * rounds to even 2048, not to 2050 (odd), so again no neighbour. */
    uint16_t twos[2] = {half_rne(2048.0), half_rne(2.0)}, ones[3] = {half_rne(2048.0), half_rne(1.0), half_rne(1.0)};
    ck_assert(dmlconf_scan_line(SUM, f16, false, 2, twos, out, side, NULL) == 0);
    ck_assert_int_eq(dmlconf_judge_element(SUM, f16, out[1], half_rne(2048.0), &side[1], NULL, &j),
                     DMLCONF_VERDICT_FAIL);
    ck_assert(dmlconf_scan_line(SUM, f16, false, 3, ones, out, side, NULL) == 0);
    ck_assert_int_eq(dmlconf_judge_element(SUM, f16, out[2], half_rne(2048.0), &side[2], NULL, &j),
                     DMLCONF_VERDICT_FAIL);
    /* Spacing 0.5 < half the gap: 2049.5 rounds to 2050, truncates to 2048. */
    uint16_t halves[3] = {half_rne(2048.0), half_rne(1.5), half_rne(0.5)};
    ck_assert(dmlconf_scan_line(SUM, f16, false, 3, halves, out, side, NULL) == 0);
    ck_assert_int_eq(dmlconf_judge_element(SUM, f16, out[2], half_rne(2048.0), &side[2], NULL, &j),
                     DMLCONF_VERDICT_PASS);
    /* Same format: no neighbour. */
    dmlconf_tolerance half_acc;
    dmlconf_tolerance_default(f16, &half_acc);
    half_acc.accumulation = DMLCONF_DATA_TYPE_FLOAT16;
    uint16_t hx[2] = {half_rne(3.0), half_rne(0.5)}, hout[2];
    ck_assert(dmlconf_scan_line(SUM, f16, false, 2, hx, hout, side, NULL) == 0);
    ck_assert_int_eq(dmlconf_judge_element(SUM, f16, hout[1], hout[1], &side[1], &half_acc, &j), DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(dmlconf_judge_element(SUM, f16, hout[1], (uint16_t)(hout[1] - 1u), &side[1], &half_acc, &j),
                     DMLCONF_VERDICT_FAIL);
}
END_TEST

START_TEST(test_bit_exact_and_expected)
{
    const float x[] = {0.1f, 0.2f, 0.3f};
    float y[3];
    order seq = {"sequential", ORDER_SEQUENTIAL, 0, false, false, CONVERT_NONE};
    simulate(&seq, false, 3, x, y);
    dmlconf_scan_desc desc = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT32, 3, false);
    float oracle[3];
    ck_assert(dmlconf_scan_line(SUM, DMLCONF_DATA_TYPE_FLOAT32, false, 3, x, oracle, NULL, NULL) == 0);
    dmlconf_tolerance exact;
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT32, &exact);
    exact.bit_exact = true;
    dmlconf_comparison cmp;
    compare_packed(&desc, x, oracle, &exact, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    float off[3] = {oracle[0], nextafterf(oracle[1], 1.0f), oracle[2]};
    compare_packed(&desc, x, off, &exact, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 1);
    ck_assert_uint_eq(cmp.first.logical_index, 1);
    compare_packed(&desc, x, off, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);

    /* The case's expected values are the reference when given. */
    float expected[3] = {0.1f, 0.5f, 0.7f};
    dmlconf_error err = {{0}};
    ck_assert_int_eq(dmlconf_compare(&desc, x, expected, oracle, sizeof(oracle), NULL, &cmp, &err), 0);
    ck_assert_uint_eq(cmp.mismatches, 2);
    ck_assert_uint_eq(cmp.first.logical_index, 1);
    ck_assert_uint_eq(cmp.first.expected_bits, f32_bits(0.5f));
}
END_TEST

START_TEST(test_integers)
{
    const int32_t x[] = {INT32_MAX, 1, -7, INT32_MIN};
    int32_t y[4];
    ck_assert(dmlconf_scan_line(SUM, DMLCONF_DATA_TYPE_INT32, false, 4, x, y, NULL, NULL) == 0);
    dmlconf_scan_desc desc = line_desc(SUM, DMLCONF_DATA_TYPE_INT32, 4, false);
    dmlconf_comparison cmp;
    compare_packed(&desc, x, y, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    y[2] = y[2] - 1;
    compare_packed(&desc, x, y, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 1);
    ck_assert_double_eq(cmp.first.error_ulps, 1.0);
    ck_assert(isinf(cmp.first.tolerance_fraction));

    dmlconf_judgement j;
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_UINT64, 0, UINT64_MAX, NULL, NULL, &j),
                     DMLCONF_VERDICT_FAIL);
    ck_assert_double_eq(j.error_ulps, 1.0);
    ck_assert_int_eq(dmlconf_judge_element(PRODUCT, DMLCONF_DATA_TYPE_INT64, 42, 42, NULL, NULL, &j),
                     DMLCONF_VERDICT_PASS);
    /* Only the low 32 bits of a 32-bit element count. */
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_UINT32, 5, UINT64_C(0x100000005), NULL, NULL, &j),
                     DMLCONF_VERDICT_PASS);
}
END_TEST

/* ---- (b) bugs are caught ------------------------------------------------------- */

/* The first mismatch must be at `index` (1-D). */
static void expect_first(const dmlconf_comparison *cmp, dmlconf_data_type type, uint64_t index, const char *what)
{
    char text[512];
    describe_first(type, cmp, text, sizeof(text));
    ck_assert_msg(cmp->mismatches > 0, "%s: not caught", what);
    ck_assert_msg(cmp->has_first && cmp->first.logical_index == index && cmp->first.coordinates[0] == index,
                  "%s: first mismatch expected at %" PRIu64 ", got %s", what, index, text);
    ck_assert_uint_eq(cmp->samples[0].logical_index, index);
    printf("caught %-46s %" PRIu64 " mismatches, first %s\n", what, cmp->mismatches, text);
    fflush(stdout);
}

static void fill_uniform(rng *r, size_t n, float *x, double lo, double hi)
{
    for (size_t i = 0; i < n; ++i)
        x[i] = (float)(lo + (hi - lo) * rng_unit(r));
}

START_TEST(test_bug_dropped_element)
{
    enum
    {
        N = 100000
    };
    float *x = malloc(N * sizeof(*x)), *y = malloc(N * sizeof(*y));
    ck_assert(x && y);
    rng r = {5};
    /* Exact data on a long line: the only way to see one term go missing. */
    for (size_t i = 0; i < N; ++i)
        x[i] = (float)rng_int(&r, 1, 9);
    const size_t k = 61234;
    float acc = 0.0f;
    for (size_t i = 0; i < N; ++i)
    {
        if (i != k)
            acc += x[i];
        y[i] = acc;
    }
    dmlconf_scan_desc desc = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT32, N, false);
    dmlconf_comparison cmp;
    compare_packed(&desc, x, y, NULL, &cmp);
    expect_first(&cmp, DMLCONF_DATA_TYPE_FLOAT32, k, "dropped element (exact data, n=1e5)");
    ck_assert_uint_eq(cmp.mismatches, N - k);
    ck_assert_uint_eq(cmp.sample_count, DMLCONF_MISMATCH_SAMPLES);
    ck_assert_uint_eq(cmp.samples[DMLCONF_MISMATCH_SAMPLES - 1].logical_index, k + DMLCONF_MISMATCH_SAMPLES - 1);

    /* Random data on a short line. */
    fill_uniform(&r, 1000, x, 0.0, 1.0);
    x[500] = 0.75f;
    acc = 0.0f;
    for (size_t i = 0; i < 1000; ++i)
    {
        if (i != 500)
            acc += x[i];
        y[i] = acc;
    }
    dmlconf_scan_desc short_desc = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT32, 1000, false);
    compare_packed(&short_desc, x, y, NULL, &cmp);
    expect_first(&cmp, DMLCONF_DATA_TYPE_FLOAT32, 500, "dropped element (random data, n=1000)");

    /* A product. */
    for (size_t i = 0; i < 100; ++i)
        x[i] = (float)(0.9 + 0.2 * rng_unit(&r));
    x[40] = 1.25f;
    acc = 1.0f;
    for (size_t i = 0; i < 100; ++i)
    {
        if (i != 40)
            acc *= x[i];
        y[i] = acc;
    }
    dmlconf_scan_desc pdesc = line_desc(PRODUCT, DMLCONF_DATA_TYPE_FLOAT32, 100, false);
    compare_packed(&pdesc, x, y, NULL, &cmp);
    expect_first(&cmp, DMLCONF_DATA_TYPE_FLOAT32, 40, "dropped factor (random data, n=100)");
    free(x);
    free(y);
}
END_TEST

START_TEST(test_bug_duplicated_element)
{
    enum
    {
        N = 100000
    };
    float *x = malloc(N * sizeof(*x)), *y = malloc(N * sizeof(*y));
    ck_assert(x && y);
    rng r = {6};
    for (size_t i = 0; i < N; ++i)
        x[i] = (float)rng_int(&r, -64, 64) * 0x1p-6f;
    x[90001] = 0.5f;
    float acc = 0.0f;
    for (size_t i = 0; i < N; ++i)
    {
        acc += x[i];
        if (i == 90001)
            acc += x[i];
        y[i] = acc;
    }
    dmlconf_scan_desc desc = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT32, N, false);
    dmlconf_comparison cmp;
    compare_packed(&desc, x, y, NULL, &cmp);
    expect_first(&cmp, DMLCONF_DATA_TYPE_FLOAT32, 90001, "duplicated element (dyadic data, n=1e5)");

    /* float16 data, float32 accumulation, RTZ conversion. */
    uint16_t h[2000], hy[2000];
    float hx[2000];
    for (size_t i = 0; i < 2000; ++i)
    {
        h[i] = half_rne(rng_unit(&r));
        hx[i] = half_value(h[i]);
    }
    /* Past 617 a float16 ulp is 0.5 and U = 2: a duplicate must exceed
     * about one unit to be visible at all. */
    h[1234] = half_rne(4.0);
    hx[1234] = 4.0f;
    acc = 0.0f;
    for (size_t i = 0; i < 2000; ++i)
    {
        acc += hx[i];
        if (i == 1234)
            acc += hx[i];
        hy[i] = half_rtz(acc);
    }
    dmlconf_scan_desc hdesc = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT16, 2000, false);
    compare_packed(&hdesc, h, hy, NULL, &cmp);
    expect_first(&cmp, DMLCONF_DATA_TYPE_FLOAT16, 1234, "duplicated element (float16, n=2000)");
    free(x);
    free(y);
}
END_TEST

START_TEST(test_bug_exclusive_off_by_one)
{
    enum
    {
        N = 1000
    };
    float x[N], inclusive[N], exclusive[N];
    rng r = {7};
    fill_uniform(&r, N, x, 0.5, 1.0);
    order seq = {"sequential", ORDER_SEQUENTIAL, 0, false, false, CONVERT_NONE};
    order seq_ex = {"sequential", ORDER_SEQUENTIAL, 0, false, true, CONVERT_NONE};
    simulate(&seq, false, N, x, inclusive);
    simulate(&seq_ex, false, N, x, exclusive);
    dmlconf_comparison cmp;
    dmlconf_scan_desc desc_ex = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT32, N, true);
    compare_packed(&desc_ex, x, exclusive, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    compare_packed(&desc_ex, x, inclusive, NULL, &cmp);
    expect_first(&cmp, DMLCONF_DATA_TYPE_FLOAT32, 0, "inclusive result for an exclusive scan");
    ck_assert_uint_eq(cmp.mismatches, N);
    dmlconf_scan_desc desc_in = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT32, N, false);
    compare_packed(&desc_in, x, exclusive, NULL, &cmp);
    expect_first(&cmp, DMLCONF_DATA_TYPE_FLOAT32, 0, "exclusive result for an inclusive scan");
    /* An exclusive scan shifted by one too many. */
    float shifted[N];
    shifted[0] = 0.0f;
    shifted[1] = 0.0f;
    memcpy(shifted + 2, exclusive + 1, (N - 2) * sizeof(float));
    compare_packed(&desc_ex, x, shifted, NULL, &cmp);
    expect_first(&cmp, DMLCONF_DATA_TYPE_FLOAT32, 1, "exclusive scan shifted twice");
    /* Products: exclusive starts at 1. */
    float p_ex[N];
    simulate(&seq_ex, true, 50, x, p_ex);
    dmlconf_scan_desc pdesc = line_desc(PRODUCT, DMLCONF_DATA_TYPE_FLOAT32, 50, true);
    compare_packed(&pdesc, x, p_ex, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    p_ex[0] = 0.0f;
    compare_packed(&pdesc, x, p_ex, NULL, &cmp);
    expect_first(&cmp, DMLCONF_DATA_TYPE_FLOAT32, 0, "exclusive product starting at 0");
}
END_TEST

START_TEST(test_bug_reversed_direction)
{
    /* sizes [3, 50], axis 1, decreasing; the buggy result scans increasing. */
    enum
    {
        ROWS = 3,
        COLS = 50
    };
    float x[ROWS * COLS], y[ROWS * COLS];
    rng r = {8};
    fill_uniform(&r, ROWS * COLS, x, 0.0, 1.0);
    order seq = {"sequential", ORDER_SEQUENTIAL, 0, false, false, CONVERT_NONE};
    for (size_t row = 0; row < ROWS; ++row)
        simulate(&seq, false, COLS, x + row * COLS, y + row * COLS);
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = SUM;
    desc.input.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    desc.input.dimension_count = 2;
    desc.input.sizes[0] = ROWS;
    desc.input.sizes[1] = COLS;
    desc.output = desc.input;
    desc.axis = 1;
    desc.direction = DMLCONF_AXIS_DIRECTION_INCREASING;
    dmlconf_comparison cmp;
    compare_packed(&desc, x, y, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    desc.direction = DMLCONF_AXIS_DIRECTION_DECREASING;
    compare_packed(&desc, x, y, NULL, &cmp);
    expect_first(&cmp, DMLCONF_DATA_TYPE_FLOAT32, 0, "reversed direction");
    ck_assert_uint_eq(cmp.first.dimension_count, 2);
    ck_assert_uint_eq(cmp.first.coordinates[0], 0);
    ck_assert_uint_eq(cmp.first.coordinates[1], 0);
    /* Every element but the middle... all except where both directions
     * agree by chance; at least the whole first half of each row. */
    ck_assert_uint_ge(cmp.mismatches, ROWS * (COLS / 2));
}
END_TEST

START_TEST(test_bug_half_accumulation)
{
    enum
    {
        N = 10000
    };
    uint16_t h[N], y[N];
    for (size_t i = 0; i < N; ++i)
        h[i] = half_rne(1.0);
    /* Accumulating in float16: 2048 + 1 rounds back to 2048 and stays. */
    double acc = 0.0;
    for (size_t i = 0; i < N; ++i)
    {
        acc = (double)half_value(half_rne(acc + 1.0));
        y[i] = half_rne(acc);
    }
    dmlconf_scan_desc desc = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT16, N, false);
    dmlconf_comparison cmp;
    compare_packed(&desc, h, y, NULL, &cmp);
    /* Element 2048 is 2049 exactly, which rounds to 2048 anyway. */
    expect_first(&cmp, DMLCONF_DATA_TYPE_FLOAT16, 2049, "float16 accumulation of ones (n=1e4)");

    /* Random data: the float32-accumulation tolerance catches it. */
    rng r = {9};
    for (size_t i = 0; i < N; ++i)
        h[i] = half_rne(rng_unit(&r));
    acc = 0.0;
    for (size_t i = 0; i < N; ++i)
    {
        acc = (double)half_value(half_rne(acc + (double)half_value(h[i])));
        y[i] = half_rne(acc);
    }
    compare_packed(&desc, h, y, NULL, &cmp);
    ck_assert_msg(cmp.mismatches > N / 2, "float16 accumulation of random data: only %" PRIu64 " mismatches",
                  cmp.mismatches);
    /* The first mismatch is the first element the rule rejects. */
    uint16_t oracle[N];
    dmlconf_side_data *side = malloc(N * sizeof(*side));
    ck_assert_ptr_nonnull(side);
    ck_assert(dmlconf_scan_line(SUM, DMLCONF_DATA_TYPE_FLOAT16, false, N, h, oracle, side, NULL) == 0);
    size_t first = N;
    for (size_t i = 0; i < N && first == N; ++i)
        if (dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT16, oracle[i], y[i], &side[i], NULL, NULL) ==
            DMLCONF_VERDICT_FAIL)
            first = i;
    free(side);
    expect_first(&cmp, DMLCONF_DATA_TYPE_FLOAT16, first, "float16 accumulation of random data (n=1e4)");
    ck_assert_uint_lt(first, 4096);

    /* With the float16-accumulation tolerance the same result passes. */
    dmlconf_tolerance half_acc;
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT16, &half_acc);
    half_acc.accumulation = DMLCONF_DATA_TYPE_FLOAT16;
    compare_packed(&desc, h, y, &half_acc, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
}
END_TEST

START_TEST(test_bug_signed_zero)
{
    float x[10], y[10];
    for (size_t i = 0; i < 10; ++i)
    {
        x[i] = -0.0f;
        y[i] = 0.0f; /* the buggy scan starts from +0 and adds */
    }
    dmlconf_tolerance strict;
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT32, &strict);
    strict.strict_signed_zero = true;
    dmlconf_scan_desc desc = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT32, 10, false);
    dmlconf_comparison cmp;
    compare_packed(&desc, x, y, NULL, &cmp);
    ck_assert_uint_eq(cmp.mismatches, 0);
    compare_packed(&desc, x, y, &strict, &cmp);
    expect_first(&cmp, DMLCONF_DATA_TYPE_FLOAT32, 0, "+0 for a sum of -0 (strict)");
    ck_assert_uint_eq(cmp.mismatches, 10);

    /* Products: -1 x 0 = -0; the bug drops the sign. */
    const float p[] = {2.0f, -1.0f, 0.0f, 3.0f};
    const float py[] = {2.0f, -2.0f, 0.0f, 0.0f};
    dmlconf_scan_desc pdesc = line_desc(PRODUCT, DMLCONF_DATA_TYPE_FLOAT32, 4, false);
    compare_packed(&pdesc, p, py, &strict, &cmp);
    expect_first(&cmp, DMLCONF_DATA_TYPE_FLOAT32, 2, "+0 for -2 x 0 (strict)");
}
END_TEST

START_TEST(test_bug_integer_wrap)
{
    /* int32 sum computed in 64 bits, then saturated instead of wrapped. */
    const int32_t x[] = {1 << 30, 1 << 30, 1 << 30, -5, 7, INT32_MIN};
    int32_t y[6];
    int64_t wide = 0;
    for (size_t i = 0; i < 6; ++i)
    {
        wide += x[i];
        y[i] = wide > INT32_MAX ? INT32_MAX : wide < INT32_MIN ? INT32_MIN : (int32_t)wide;
    }
    dmlconf_scan_desc desc = line_desc(SUM, DMLCONF_DATA_TYPE_INT32, 6, false);
    dmlconf_comparison cmp;
    compare_packed(&desc, x, y, NULL, &cmp);
    expect_first(&cmp, DMLCONF_DATA_TYPE_INT32, 1, "int32 sum saturated instead of wrapped");

    /* uint64 product computed through double: low bits lost past 2^53. */
    uint64_t u[40], uy[40];
    double d = 1.0;
    for (size_t i = 0; i < 40; ++i)
    {
        u[i] = 3;
        d *= 3.0;
        uy[i] = (uint64_t)d;
    }
    dmlconf_scan_desc udesc = line_desc(PRODUCT, DMLCONF_DATA_TYPE_UINT64, 40, false);
    compare_packed(&udesc, u, uy, NULL, &cmp);
    expect_first(&cmp, DMLCONF_DATA_TYPE_UINT64, 33, "uint64 product through double (3^34)");

    /* int64 sum truncated to 32 bits and sign-extended back. */
    int64_t s[4] = {INT64_C(3000000000), 1, -2, 5}, sy[4];
    uint64_t acc = 0;
    for (size_t i = 0; i < 4; ++i)
    {
        acc += (uint64_t)s[i];
        uint32_t low = (uint32_t)acc;
        sy[i] = (low & 0x80000000u) ? -(int64_t)(UINT32_MAX - low) - 1 : (int64_t)low;
    }
    dmlconf_scan_desc sdesc = line_desc(SUM, DMLCONF_DATA_TYPE_INT64, 4, false);
    compare_packed(&sdesc, s, sy, NULL, &cmp);
    expect_first(&cmp, DMLCONF_DATA_TYPE_INT64, 0, "int64 sum truncated to 32 bits");
}
END_TEST

/* ---- strided, decreasing, 4-D --------------------------------------------------- */

START_TEST(test_strided_decreasing_4d)
{
    const uint32_t sizes[4] = {2, 3, 4, 5};
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = SUM;
    desc.input.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    desc.input.dimension_count = 4;
    memcpy(desc.input.sizes, sizes, sizeof(sizes));
    desc.output = desc.input;
    desc.output.has_strides = true;
    /* Padded, and not row-major: dimension 3 is the slowest. */
    const uint32_t strides[4] = {3, 1, 7, 31};
    memcpy(desc.output.strides, strides, sizeof(strides));
    desc.axis = 2;
    desc.direction = DMLCONF_AXIS_DIRECTION_DECREASING;

    enum
    {
        COUNT = 2 * 3 * 4 * 5
    };
    float x[COUNT];
    rng r = {12};
    for (size_t i = 0; i < COUNT; ++i)
        x[i] = (float)rng_int(&r, -20, 20) * 0.5f;
    size_t bytes;
    float *out = output_buffer(&desc.output, &bytes);
    dmlconf_error err = {{0}};
    dmlconf_scan_desc packed_in = desc;
    ck_assert_msg(dmlconf_validate(&desc, DMLCONF_FEATURE_LEVEL_6_4, NULL), "the test's desc is invalid");
    /* The oracle computes the strided output from the packed input. */
    ck_assert_msg(dmlconf_compute(&packed_in, x, sizeof(x), out, bytes, NULL, &err) == 0, "%s", err.message);
    dmlconf_comparison cmp;
    ck_assert_int_eq(dmlconf_compare(&desc, x, NULL, out, bytes, NULL, &cmp, &err), 0);
    ck_assert_uint_eq(cmp.elements, COUNT);
    ck_assert_uint_eq(cmp.mismatches, 0);

    /* Corrupt [0,0,3,1] (line 1, walked first) and [0,0,0,4] (line 4, but
     * earlier in logical order: index 4 < 16). */
    const uint32_t a[4] = {0, 0, 3, 1}, b[4] = {0, 0, 0, 4};
    size_t offset_a = 0, offset_b = 0;
    for (size_t d = 0; d < 4; ++d)
    {
        offset_a += a[d] * strides[d];
        offset_b += b[d] * strides[d];
    }
    out[offset_a] += 1.0f;
    out[offset_b] -= 0.5f;
    ck_assert_int_eq(dmlconf_compare(&desc, x, NULL, out, bytes, NULL, &cmp, &err), 0);
    ck_assert_uint_eq(cmp.mismatches, 2);
    ck_assert_uint_eq(cmp.first.logical_index, 4);
    ck_assert_uint_eq(cmp.first.dimension_count, 4);
    for (size_t d = 0; d < 4; ++d)
    {
        ck_assert_uint_eq(cmp.first.coordinates[d], b[d]);
        ck_assert_uint_eq(cmp.samples[1].coordinates[d], a[d]);
    }
    ck_assert_uint_eq(cmp.samples[1].logical_index, 3 * 5 + 1);
    char text[512];
    dmlconf_format_mismatch(DMLCONF_DATA_TYPE_FLOAT32, &cmp.first, text, sizeof(text));
    ck_assert_msg(strstr(text, "element [0, 0, 0, 4] (index 4)") != NULL, "%s", text);

    /* The decreasing scan at [0,0,0,4] sums x[0,0,0..3,4]: check the
     * expected value the comparator reports. */
    float expect = 0.0f;
    for (size_t k = 0; k < 4; ++k)
        expect += x[k * 5 + 4];
    ck_assert_uint_eq(cmp.first.expected_bits, f32_bits(expect));
    free(out);
}
END_TEST

/* ---- argument errors ------------------------------------------------------------- */

START_TEST(test_compare_errors)
{
    float x[4] = {1, 2, 3, 4}, y[4] = {1, 3, 6, 10};
    dmlconf_scan_desc desc = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT32, 4, false);
    dmlconf_comparison cmp;
    dmlconf_error err = {{0}};
    ck_assert_int_eq(dmlconf_compare(&desc, x, NULL, y, sizeof(y), NULL, &cmp, &err), 0);
    ck_assert_uint_eq(cmp.mismatches, 0);
    ck_assert_int_eq(dmlconf_compare(&desc, x, NULL, y, sizeof(y) - 4, NULL, &cmp, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.message, "bytes"));
    ck_assert_int_eq(dmlconf_compare(&desc, NULL, NULL, y, sizeof(y), NULL, &cmp, &err), -1);
    ck_assert_int_eq(dmlconf_compare(&desc, x, NULL, y, sizeof(y), NULL, NULL, &err), -1);
    dmlconf_scan_desc bad = desc;
    bad.axis = 3;
    ck_assert_int_eq(dmlconf_compare(&bad, x, NULL, y, sizeof(y), NULL, &cmp, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.message, "axis"));
    dmlconf_tolerance tol;
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT32, &tol);
    tol.ulp = -2.0;
    ck_assert_int_eq(dmlconf_compare(&desc, x, NULL, y, sizeof(y), &tol, &cmp, &err), -1);
    ck_assert_uint_eq(cmp.elements, 0);
}
END_TEST

/* ---- printing and statuses -------------------------------------------------------- */

START_TEST(test_format)
{
    char text[DMLCONF_ELEMENT_TEXT_SIZE];
    ck_assert_str_eq(dmlconf_format_element(DMLCONF_DATA_TYPE_FLOAT32, f32_bits(1.5f), text, sizeof(text)),
                     "1.5 (0x3fc00000)");
    ck_assert_str_eq(dmlconf_format_element(DMLCONF_DATA_TYPE_FLOAT32, f32_bits(0.1f), text, sizeof(text)),
                     "0.100000001 (0x3dcccccd)");
    ck_assert_str_eq(dmlconf_format_element(DMLCONF_DATA_TYPE_FLOAT32, 0x80000000u, text, sizeof(text)),
                     "-0 (0x80000000)");
    ck_assert_str_eq(dmlconf_format_element(DMLCONF_DATA_TYPE_FLOAT32, 0xffc00001u, text, sizeof(text)),
                     "nan (0xffc00001)");
    ck_assert_str_eq(dmlconf_format_element(DMLCONF_DATA_TYPE_FLOAT32, 0xff800000u, text, sizeof(text)),
                     "-inf (0xff800000)");
    ck_assert_str_eq(dmlconf_format_element(DMLCONF_DATA_TYPE_FLOAT32, 0x80800000u, text, sizeof(text)),
                     "-1.17549435e-38 (0x80800000)");
    ck_assert_str_eq(dmlconf_format_element(DMLCONF_DATA_TYPE_FLOAT16, 0x3e00u, text, sizeof(text)), "1.5 (0x3e00)");
    ck_assert_str_eq(dmlconf_format_element(DMLCONF_DATA_TYPE_FLOAT16, 0x7bffu, text, sizeof(text)), "65504 (0x7bff)");
    ck_assert_str_eq(dmlconf_format_element(DMLCONF_DATA_TYPE_INT32, 0xfffffffdu, text, sizeof(text)),
                     "-3 (0xfffffffd)");
    ck_assert_str_eq(dmlconf_format_element(DMLCONF_DATA_TYPE_INT32, 0x80000000u, text, sizeof(text)),
                     "-2147483648 (0x80000000)");
    ck_assert_str_eq(dmlconf_format_element(DMLCONF_DATA_TYPE_UINT32, 0xfffffffdu, text, sizeof(text)),
                     "4294967293 (0xfffffffd)");
    ck_assert_str_eq(dmlconf_format_element(DMLCONF_DATA_TYPE_INT64, UINT64_C(1) << 63, text, sizeof(text)),
                     "-9223372036854775808 (0x8000000000000000)");
    ck_assert_str_eq(dmlconf_format_element(DMLCONF_DATA_TYPE_UINT64, UINT64_MAX, text, sizeof(text)),
                     "18446744073709551615 (0xffffffffffffffff)");
    char small[6];
    ck_assert_str_eq(dmlconf_format_element(DMLCONF_DATA_TYPE_FLOAT32, f32_bits(1.5f), small, sizeof(small)), "1.5 (");
}
END_TEST

/* ---- tolerances of other forms ------------------------------------------------- */

/* A tolerance with some fields overridden. */
static dmlconf_tolerance_overrides overrides_of(void)
{
    dmlconf_tolerance_overrides o;
    memset(&o, 0, sizeof(o));
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT32, &o.values);
    return o;
}

START_TEST(test_tolerance_resolve)
{
    dmlconf_tolerance tol;
    dmlconf_tolerance_field field;
    dmlconf_error err = {{0}};

    /* No overrides: the defaults, for every computable type. */
    ck_assert_int_eq(dmlconf_tolerance_resolve(DMLCONF_DATA_TYPE_FLOAT16, NULL, &tol, &field, &err), 0);
    ck_assert_double_eq(tol.ulp, 2.0);
    ck_assert_int_eq(tol.form, DMLCONF_TOLERANCE_FORM_BOUND);
    ck_assert_int_eq(field, DMLCONF_TOLERANCE_FIELD_NONE);

    /* atol and rtol select the absolute/relative form. */
    dmlconf_tolerance_overrides o = overrides_of();
    o.set[DMLCONF_TOLERANCE_FIELD_ATOL] = true;
    o.values.atol = 1e-5;
    o.set[DMLCONF_TOLERANCE_FIELD_SIGNED_ZERO] = true;
    o.values.strict_signed_zero = true;
    ck_assert_int_eq(dmlconf_tolerance_resolve(DMLCONF_DATA_TYPE_FLOAT32, &o, &tol, &field, &err), 0);
    ck_assert_int_eq(tol.form, DMLCONF_TOLERANCE_FORM_ABSOLUTE_RELATIVE);
    ck_assert_double_eq(tol.atol, 1e-5);
    ck_assert_double_eq(tol.rtol, 0.0);
    ck_assert(tol.strict_signed_zero);

    /* ulp_count selects the plain count. */
    o = overrides_of();
    o.set[DMLCONF_TOLERANCE_FIELD_ULP_COUNT] = true;
    o.values.ulp_count_axis_length_minus_1 = true;
    ck_assert_int_eq(dmlconf_tolerance_resolve(DMLCONF_DATA_TYPE_FLOAT16, &o, &tol, &field, &err), 0);
    ck_assert_int_eq(tol.form, DMLCONF_TOLERANCE_FORM_ULP_COUNT);
    ck_assert(tol.ulp_count_axis_length_minus_1);

    /* Fields of two forms: the error is at the field that changes the form. */
    o = overrides_of();
    o.set[DMLCONF_TOLERANCE_FIELD_ULP] = true;
    o.set[DMLCONF_TOLERANCE_FIELD_RTOL] = true;
    ck_assert_int_eq(dmlconf_tolerance_resolve(DMLCONF_DATA_TYPE_FLOAT32, &o, &tol, &field, &err), -1);
    ck_assert_int_eq(field, DMLCONF_TOLERANCE_FIELD_RTOL);
    ck_assert_str_eq(err.message, "rtol cannot be combined with ulp: a tolerance is either the accumulation bound "
                                  "(ulp, accumulation, ftz), an absolute and relative tolerance (atol, rtol) or a "
                                  "plain ulp count (ulp_count)");
    ck_assert_int_eq(tol.form, DMLCONF_TOLERANCE_FORM_BOUND); /* the defaults */
    o = overrides_of();
    o.set[DMLCONF_TOLERANCE_FIELD_ATOL] = true;
    o.set[DMLCONF_TOLERANCE_FIELD_ULP_COUNT] = true;
    ck_assert_int_eq(dmlconf_tolerance_resolve(DMLCONF_DATA_TYPE_FLOAT32, &o, &tol, &field, &err), -1);
    ck_assert_int_eq(field, DMLCONF_TOLERANCE_FIELD_ULP_COUNT);
    /* The same conflict in an integer case's overrides is still one. */
    ck_assert_int_eq(dmlconf_tolerance_resolve(DMLCONF_DATA_TYPE_INT32, &o, &tol, &field, &err), -1);

    /* The comparator's own checks, with the field at fault. */
    o = overrides_of();
    o.set[DMLCONF_TOLERANCE_FIELD_ACCUMULATION] = true;
    o.values.accumulation = DMLCONF_DATA_TYPE_FLOAT16;
    ck_assert_int_eq(dmlconf_tolerance_resolve(DMLCONF_DATA_TYPE_FLOAT32, &o, &tol, &field, &err), -1);
    ck_assert_int_eq(field, DMLCONF_TOLERANCE_FIELD_ACCUMULATION);
    ck_assert_str_eq(err.message, "accumulation float16 applies to float16 data only, not to float32");
    ck_assert_int_eq(dmlconf_tolerance_resolve(DMLCONF_DATA_TYPE_FLOAT16, &o, &tol, &field, &err), 0);
    ck_assert_int_eq(dmlconf_tolerance_resolve(DMLCONF_DATA_TYPE_UINT64, &o, &tol, &field, &err), 0);
    ck_assert(tol.bit_exact);
    o = overrides_of();
    o.set[DMLCONF_TOLERANCE_FIELD_RTOL] = true;
    o.values.rtol = -1e-3;
    ck_assert_int_eq(dmlconf_tolerance_resolve(DMLCONF_DATA_TYPE_FLOAT32, &o, &tol, &field, &err), -1);
    ck_assert_int_eq(field, DMLCONF_TOLERANCE_FIELD_RTOL);
    o.values.rtol = (double)INFINITY;
    ck_assert_int_eq(dmlconf_tolerance_resolve(DMLCONF_DATA_TYPE_FLOAT32, &o, &tol, &field, &err), -1);
    o = overrides_of();
    o.set[DMLCONF_TOLERANCE_FIELD_ULP_COUNT] = true;
    o.values.ulp_count = 2.5;
    ck_assert_int_eq(dmlconf_tolerance_resolve(DMLCONF_DATA_TYPE_FLOAT32, &o, &tol, &field, &err), -1);
    ck_assert_int_eq(field, DMLCONF_TOLERANCE_FIELD_ULP_COUNT);
    /* A type with no tolerance at all: no field is at fault. */
    ck_assert_int_eq(dmlconf_tolerance_resolve(DMLCONF_DATA_TYPE_UINT8, NULL, &tol, &field, &err), -1);
    ck_assert_int_eq(field, DMLCONF_TOLERANCE_FIELD_NONE);

    /* And the judge refuses what the check refuses. */
    dmlconf_tolerance bad;
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT32, &bad);
    bad.form = DMLCONF_TOLERANCE_FORM_ULP_COUNT;
    bad.ulp_count = -1.0;
    dmlconf_judge judge;
    ck_assert_int_eq(dmlconf_judge_init(&judge, SUM, DMLCONF_DATA_TYPE_FLOAT32, &bad, &err), -1);
    ck_assert(!judge.valid);

    for (int f = 0; f < DMLCONF_TOLERANCE_FIELD_COUNT; ++f)
        ck_assert_ptr_nonnull(dmlconf_tolerance_field_name((dmlconf_tolerance_field)f));
    ck_assert_ptr_null(dmlconf_tolerance_field_name(DMLCONF_TOLERANCE_FIELD_COUNT));
    ck_assert_str_eq(dmlconf_tolerance_form_name(DMLCONF_TOLERANCE_FORM_ABSOLUTE_RELATIVE), "absolute_relative");
    ck_assert_int_eq(dmlconf_tolerance_field_form(DMLCONF_TOLERANCE_FIELD_FTZ), DMLCONF_TOLERANCE_FORM_BOUND);
    ck_assert_int_eq(dmlconf_tolerance_field_form(DMLCONF_TOLERANCE_FIELD_RTOL),
                     DMLCONF_TOLERANCE_FORM_ABSOLUTE_RELATIVE);
    ck_assert_int_eq(dmlconf_tolerance_field_form(DMLCONF_TOLERANCE_FIELD_ULP_COUNT), DMLCONF_TOLERANCE_FORM_ULP_COUNT);
    ck_assert_int_eq(dmlconf_tolerance_field_form(DMLCONF_TOLERANCE_FIELD_BIT_EXACT), DMLCONF_TOLERANCE_FORM_COUNT);
    ck_assert_ptr_null(dmlconf_tolerance_form_name(DMLCONF_TOLERANCE_FORM_COUNT));
}
END_TEST

START_TEST(test_absolute_relative)
{
    dmlconf_tolerance tol;
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT32, &tol);
    tol.form = DMLCONF_TOLERANCE_FORM_ABSOLUTE_RELATIVE;
    tol.atol = 0x1p-10;
    tol.rtol = 0x1p-8;
    dmlconf_judgement j;
    /* |y - o| <= 2^-10 + 2^-8 * 4 = 2^-10 + 2^-6 exactly at the edge. */
    uint32_t o = f32_bits(4.0f);
    float edge = 4.0f + 0x1p-10f + 0x1p-6f;
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT32, o, f32_bits(edge), NULL, &tol, &j),
                     DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(j.rule, DMLCONF_RULE_ABSOLUTE_RELATIVE);
    ck_assert_double_eq(j.tolerance, 0x1p-10 + 0x1p-6);
    ck_assert_double_eq(j.tolerance_fraction, 1.0);
    ck_assert_int_eq(
        dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT32, o, f32_bits(nextafterf(edge, 8.0f)), NULL, &tol, &j),
        DMLCONF_VERDICT_FAIL);
    ck_assert(j.tolerance_fraction > 1.0 && !isinf(j.tolerance_fraction));
    /* Below the expected value too. */
    ck_assert_int_eq(
        dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT32, o, f32_bits(4.0f - 0x1p-10f - 0x1p-6f), NULL, &tol, &j),
        DMLCONF_VERDICT_PASS);
    /* No accumulation allowance: a sequential sum's rounding is not
     * excused, where the accumulation bound allows it. */
    float tenths[60], sequential = 0.0f;
    for (size_t i = 0; i < 60; ++i)
    {
        tenths[i] = 0.1f;
        sequential += tenths[i];
    }
    uint32_t exact_bits;
    side_of(SUM, 60, tenths, &exact_bits);
    ck_assert_msg(exact_bits != f32_bits(sequential), "the sequential sum happens to be exact");
    dmlconf_tolerance tight = tol;
    tight.atol = 0.0;
    tight.rtol = 0x1p-24;
    ck_assert_int_eq(judge_f32(SUM, 60, tenths, sequential, &tight, &j), DMLCONF_VERDICT_FAIL);
    ck_assert_int_eq(j.rule, DMLCONF_RULE_ABSOLUTE_RELATIVE);
    ck_assert_int_eq(judge_f32(SUM, 60, tenths, sequential, NULL, &j), DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(j.rule, DMLCONF_RULE_BOUND);
    /* NaN and infinities. */
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT32, o, 0x7fc00000u, NULL, &tol, &j),
                     DMLCONF_VERDICT_FAIL);
    ck_assert(isinf(j.tolerance_fraction));
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT32, o, 0x7f800000u, NULL, &tol, &j),
                     DMLCONF_VERDICT_FAIL);
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT32, 0x7f800000u, 0x7f800000u, NULL, &tol, &j),
                     DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT32, 0x7f800000u, 0x7f7fffffu, NULL, &tol, &j),
                     DMLCONF_VERDICT_FAIL);
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT32, 0x7fc00000u, 0x7fc00001u, NULL, &tol, &j),
                     DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(j.rule, DMLCONF_RULE_NAN);
    /* A zero bound passes only equal values. */
    tol.atol = tol.rtol = 0.0;
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT32, o, o, NULL, &tol, &j), DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT32, o, o + 1u, NULL, &tol, &j),
                     DMLCONF_VERDICT_FAIL);
    /* Loose zeros are equal; strict ones are not. */
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT32, 0u, 0x80000000u, NULL, &tol, &j),
                     DMLCONF_VERDICT_PASS);
    tol.strict_signed_zero = true;
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT32, 0u, 0x80000000u, NULL, &tol, &j),
                     DMLCONF_VERDICT_FAIL);
    ck_assert_int_eq(j.rule, DMLCONF_RULE_SIGNED_ZERO);
}
END_TEST

START_TEST(test_ulp_count)
{
    dmlconf_tolerance tol;
    dmlconf_tolerance_default(DMLCONF_DATA_TYPE_FLOAT16, &tol);
    tol.form = DMLCONF_TOLERANCE_FORM_ULP_COUNT;
    tol.ulp_count = 3.0;
    dmlconf_judgement j;
    const uint64_t one = 0x3c00u; /* 1.0 in float16; its ulp is 2^-10 */
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT16, one, one + 3u, NULL, &tol, &j),
                     DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(j.rule, DMLCONF_RULE_ULP_COUNT);
    ck_assert_double_eq(j.tolerance, 3.0 * 0x1p-10);
    ck_assert_double_eq(j.tolerance_fraction, 1.0);
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT16, one, one + 4u, NULL, &tol, &j),
                     DMLCONF_VERDICT_FAIL);
    ck_assert_double_eq(j.error_ulps, 4.0);
    /* Steps below 1.0 are half as large: 3 steps down is still 3 ulps. */
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT16, one, one - 3u, NULL, &tol, &j),
                     DMLCONF_VERDICT_PASS);
    /* Across zero, and the largest finite value next to Inf. */
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT16, 0x0001u, 0x8002u, NULL, &tol, &j),
                     DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT16, 0x7bffu, 0x7c00u, NULL, &tol, &j),
                     DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT16, one, 0x7e00u, NULL, &tol, &j),
                     DMLCONF_VERDICT_FAIL);
    ck_assert(isinf(j.tolerance_fraction));
    tol.ulp_count = 0.0;
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT16, one, one, NULL, &tol, &j),
                     DMLCONF_VERDICT_PASS);
    ck_assert_int_eq(dmlconf_judge_element(SUM, DMLCONF_DATA_TYPE_FLOAT16, one, one + 1u, NULL, &tol, &j),
                     DMLCONF_VERDICT_FAIL);
    ck_assert(isinf(j.tolerance_fraction));

    /* "The axis length minus 1": along an axis of 5, 4 ulps pass and 5 fail. */
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = SUM;
    desc.axis = 1;
    desc.direction = DMLCONF_AXIS_DIRECTION_INCREASING;
    desc.input.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    desc.input.dimension_count = 2;
    desc.input.sizes[0] = 2;
    desc.input.sizes[1] = 5;
    desc.output = desc.input;
    const float x[10] = {1, 1, 1, 1, 1, 2, 2, 2, 2, 2};
    float y[10] = {1, 2, 3, 4, 5, 2, 4, 6, 8, 10};
    uint32_t bits = f32_bits(y[4]) + 4u;
    memcpy(&y[4], &bits, sizeof(bits));
    tol.ulp_count = 0.0;
    tol.ulp_count_axis_length_minus_1 = true;
    dmlconf_comparison cmp;
    dmlconf_error err = {{0}};
    ck_assert_int_eq(dmlconf_compare(&desc, x, NULL, y, sizeof(y), &tol, &cmp, &err), 0);
    ck_assert_uint_eq(cmp.mismatches, 0);
    ck_assert_int_eq(cmp.worst.rule, DMLCONF_RULE_ULP_COUNT);
    ck_assert_double_eq(cmp.worst.tolerance_fraction, 1.0);
    bits += 1u;
    memcpy(&y[4], &bits, sizeof(bits));
    ck_assert_int_eq(dmlconf_compare(&desc, x, NULL, y, sizeof(y), &tol, &cmp, &err), 0);
    ck_assert_uint_eq(cmp.mismatches, 1);
    ck_assert_int_eq(cmp.first.rule, DMLCONF_RULE_ULP_COUNT);
    ck_assert_uint_eq(cmp.first.logical_index, 4);
}
END_TEST

/* Every recorded element names its rule. */
START_TEST(test_rule_recorded)
{
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = SUM;
    desc.direction = DMLCONF_AXIS_DIRECTION_INCREASING;
    desc.input.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    desc.input.dimension_count = 1;
    desc.input.sizes[0] = 4;
    desc.output = desc.input;
    const float x[4] = {1, 2, 0.1f, (float)NAN};
    float y[4] = {1, 4, 3.1f, 0};
    dmlconf_comparison cmp;
    dmlconf_error err = {{0}};
    ck_assert_int_eq(dmlconf_compare(&desc, x, NULL, y, sizeof(y), NULL, &cmp, &err), 0);
    ck_assert_uint_eq(cmp.mismatches, 2);
    ck_assert_int_eq(cmp.samples[0].rule, DMLCONF_RULE_EXACT); /* 1 + 2 is exact in every order */
    ck_assert_int_eq(cmp.samples[1].rule, DMLCONF_RULE_NAN);
    ck_assert_int_eq(cmp.worst.rule, DMLCONF_RULE_NAN); /* infinitely far: the worst */

    for (int r = 0; r < DMLCONF_RULE_COUNT; ++r)
    {
        const char *name = dmlconf_rule_name((dmlconf_rule)r);
        dmlconf_rule back = DMLCONF_RULE_COUNT;
        ck_assert_ptr_nonnull(name);
        ck_assert(dmlconf_rule_from_name(name, &back));
        ck_assert_int_eq(back, r);
    }
    dmlconf_rule rule = DMLCONF_RULE_BOUND;
    ck_assert(!dmlconf_rule_from_name("Bound", &rule));
    ck_assert(!dmlconf_rule_from_name(NULL, &rule));
    ck_assert_int_eq(rule, DMLCONF_RULE_BOUND);
    ck_assert_ptr_null(dmlconf_rule_name(DMLCONF_RULE_COUNT));
}
END_TEST

/* One mismatch line per rule, with the exact text. */
typedef struct mismatch_text_case
{
    dmlconf_data_type type;
    dmlconf_mismatch mismatch;
    const char *text;
} mismatch_text_case;

static const mismatch_text_case mismatch_texts[] = {
    {DMLCONF_DATA_TYPE_FLOAT32,
     {.logical_index = 9,
      .coordinates = {0, 2, 1},
      .dimension_count = 3,
      .expected_bits = 0x3fc00000u,
      .actual_bits = 0x3fc00002u,
      .error_ulps = 2,
      .tolerance_fraction = 2,
      .tolerance = 0x1p-23,
      .rule = DMLCONF_RULE_BOUND},
     "element [0, 2, 1] (index 9): expected 1.5 (0x3fc00000), actual 1.50000024 (0x3fc00002); rule: tolerance bound "
     "(U ulp + accumulation allowance) 1.19e-07; error 2.38e-07 (2 ulp) = 2x the bound"},
    {DMLCONF_DATA_TYPE_FLOAT16,
     {.logical_index = 3,
      .coordinates = {3},
      .dimension_count = 1,
      .expected_bits = 0x3c00u,
      .actual_bits = 0x3c01u,
      .error_ulps = 1,
      .tolerance_fraction = (double)INFINITY,
      .tolerance = 0,
      .rule = DMLCONF_RULE_EXACT},
     "element [3] (index 3): expected 1 (0x3c00), actual 1.001 (0x3c01); rule: bit-exact by construction (every "
     "order gives the exact value); 1 ulp apart"},
    {DMLCONF_DATA_TYPE_FLOAT32,
     {.logical_index = 0,
      .coordinates = {0},
      .dimension_count = 1,
      .expected_bits = 0x7fc00000u,
      .actual_bits = 0x3f800000u,
      .error_ulps = (double)INFINITY,
      .tolerance_fraction = (double)INFINITY,
      .rule = DMLCONF_RULE_NAN},
     "element [0] (index 0): expected nan (0x7fc00000), actual 1 (0x3f800000); rule: NaN expected, any NaN passes"},
    {DMLCONF_DATA_TYPE_FLOAT32,
     {.logical_index = 1,
      .coordinates = {1},
      .dimension_count = 1,
      .expected_bits = 0x80000000u,
      .actual_bits = 0,
      .error_ulps = 0,
      .tolerance_fraction = (double)INFINITY,
      .rule = DMLCONF_RULE_SIGNED_ZERO},
     "element [1] (index 1): expected -0 (0x80000000), actual 0 (0x00000000); rule: signed zero (signed_zero: "
     "strict), so +0 and -0 differ"},
    {DMLCONF_DATA_TYPE_FLOAT32,
     {.logical_index = 1,
      .coordinates = {1},
      .dimension_count = 1,
      .expected_bits = 0x40800000u,
      .actual_bits = 0x7fc00000u,
      .error_ulps = (double)INFINITY,
      .tolerance_fraction = (double)INFINITY,
      .tolerance = 0.5,
      .rule = DMLCONF_RULE_ABSOLUTE_RELATIVE},
     "element [1] (index 1): expected 4 (0x40800000), actual nan (0x7fc00000); rule: atol + rtol |expected| = 0.5; "
     "error: a NaN where a number is due"},
    {DMLCONF_DATA_TYPE_FLOAT16,
     {.logical_index = 2,
      .coordinates = {2},
      .dimension_count = 1,
      .expected_bits = 0x3c00u,
      .actual_bits = 0x3c04u,
      .error_ulps = 4,
      .tolerance_fraction = 4.0 / 3.0,
      .tolerance = 3 * 0x1p-10,
      .rule = DMLCONF_RULE_ULP_COUNT},
     "element [2] (index 2): expected 1 (0x3c00), actual 1.0039 (0x3c04); rule: at most 3 ulp apart, no "
     "accumulation allowance; error 4 ulp = 1.33x the bound"},
    {DMLCONF_DATA_TYPE_INT32,
     {.logical_index = 0,
      .coordinates = {0},
      .dimension_count = 1,
      .expected_bits = 5,
      .actual_bits = 8,
      .error_ulps = 3,
      .tolerance_fraction = (double)INFINITY,
      .rule = DMLCONF_RULE_INTEGER},
     "element [0] (index 0): expected 5 (0x00000005), actual 8 (0x00000008); rule: integers are bit-exact; 3 apart"},
    {DMLCONF_DATA_TYPE_FLOAT32,
     {.logical_index = 0,
      .coordinates = {0},
      .dimension_count = 1,
      .expected_bits = 0x3f800000u,
      .actual_bits = 0x3f800001u,
      .error_ulps = 1,
      .tolerance_fraction = (double)INFINITY,
      .tolerance = 0.00391,
      .rule = DMLCONF_RULE_UNKNOWN},
     "element [0] (index 0): expected 1 (0x3f800000), actual 1.00000012 (0x3f800001); rule not recorded; 1 ulp "
     "apart"},
};

START_TEST(test_mismatch_text)
{
    const mismatch_text_case *c = &mismatch_texts[_i];
    char text[DMLCONF_MISMATCH_TEXT_SIZE];
    dmlconf_format_mismatch(c->type, &c->mismatch, text, sizeof(text));
    ck_assert_str_eq(text, c->text);
    ck_assert_ptr_null(strstr(text, "inf x"));
    /* The line ends with the rule's clause, as dmlconf_format_rule prints it. */
    char rule[DMLCONF_RULE_TEXT_SIZE];
    dmlconf_format_rule(c->type, &c->mismatch, rule, sizeof(rule));
    ck_assert_uint_gt(strlen(rule), 0);
    ck_assert_uint_ge(strlen(text), strlen(rule) + 2);
    ck_assert_str_eq(text + strlen(text) - strlen(rule), rule);
    ck_assert(!strncmp(text + strlen(text) - strlen(rule) - 2, "; ", 2));
}
END_TEST

/* The longest lines still fit DMLCONF_MISMATCH_TEXT_SIZE, whatever the rule. */
START_TEST(test_mismatch_text_fits)
{
    dmlconf_mismatch m;
    memset(&m, 0, sizeof(m));
    m.logical_index = UINT64_MAX;
    m.dimension_count = DMLCONF_MAX_DIMENSIONS;
    for (uint32_t d = 0; d < DMLCONF_MAX_DIMENSIONS; ++d)
        m.coordinates[d] = UINT32_MAX;
    const dmlconf_data_type types[] = {DMLCONF_DATA_TYPE_INT64, DMLCONF_DATA_TYPE_FLOAT32};
    for (size_t t = 0; t < 2; ++t)
    {
        bool is_float = types[t] == DMLCONF_DATA_TYPE_FLOAT32;
        /* The longest element texts: "-9223372036854775808 (0x8000000000000000)",
         * "-1.17549449e-38 (0x80800001)". */
        m.expected_bits = m.actual_bits = is_float ? 0x80800001u : UINT64_C(1) << 63;
        for (int r = 0; r < DMLCONF_RULE_COUNT; ++r)
        {
            /* Integers are judged by the integer rule only (or none). */
            if (!is_float && r != DMLCONF_RULE_INTEGER && r != DMLCONF_RULE_INVALID && r != DMLCONF_RULE_UNKNOWN)
                continue;
            const double fractions[] = {(double)INFINITY, 1.2345678e-300, 9.87654321e300};
            for (size_t f = 0; f < 3; ++f)
            {
                char text[DMLCONF_MISMATCH_TEXT_SIZE + 64];
                m.rule = (dmlconf_rule)r;
                m.error_ulps = 18446744073709551615.0; /* the largest distance of 64-bit elements */
                m.tolerance_fraction = fractions[f];
                m.tolerance = 1.2345678e-300;
                dmlconf_format_mismatch(types[t], &m, text, sizeof(text));
                ck_assert_msg(strlen(text) < DMLCONF_MISMATCH_TEXT_SIZE - 1, "%zu bytes: %s", strlen(text), text);
                char rule[DMLCONF_RULE_TEXT_SIZE + 64];
                dmlconf_format_rule(types[t], &m, rule, sizeof(rule));
                ck_assert_msg(strlen(rule) < DMLCONF_RULE_TEXT_SIZE - 1, "%zu bytes: %s", strlen(rule), rule);
                ck_assert_msg(strstr(text, "rule") != NULL, "%s", text);
            }
        }
    }
}
END_TEST

/* ---- speed ------------------------------------------------------------------------ */

START_TEST(test_speed)
{
    enum
    {
        N = 1000000
    };
    float *x = malloc(N * sizeof(*x)), *y = malloc(N * sizeof(*y));
    ck_assert(x && y);
    rng r = {13};
    fill_uniform(&r, N, x, -1.0, 1.0);
    order chunked = {"chunked", ORDER_CHUNKED, 1024, false, false, CONVERT_NONE};
    simulate(&chunked, false, N, x, y);
    /* 1000 lines of 1000. */
    dmlconf_scan_desc desc = line_desc(SUM, DMLCONF_DATA_TYPE_FLOAT32, 1000, false);
    desc.input.dimension_count = 2;
    desc.input.sizes[0] = 1000;
    desc.input.sizes[1] = 1000;
    desc.output = desc.input;
    desc.axis = 1;
    for (size_t row = 0; row < 1000; ++row)
        simulate(&chunked, false, 1000, x + row * 1000, y + row * 1000);
    dmlconf_comparison cmp;
    clock_t start = clock();
    dmlconf_error err = {{0}};
    ck_assert_int_eq(dmlconf_compare(&desc, x, NULL, y, N * sizeof(float), NULL, &cmp, &err), 0);
    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    ck_assert_uint_eq(cmp.mismatches, 0);
    printf("speed: compared %d float32 sums in %.3f s (%.1f ns/element, oracle included)\n", N, seconds,
           seconds * 1e9 / N);
    free(x);
    free(y);
}
END_TEST

static Suite *comparator_suite(void)
{
    Suite *s = suite_create("comparator");
    TCase *tc;

    tc = tcase_create("ulp");
    tcase_add_test(tc, test_ulp_distance);
    tcase_add_test(tc, test_ulp_of);
    suite_add_tcase(s, tc);

    tc = tcase_create("element_rule");
    tcase_add_test(tc, test_tolerance_defaults);
    tcase_add_test(tc, test_nan_inf_rules);
    tcase_add_test(tc, test_signed_zero);
    tcase_add_test(tc, test_ftz_allowance);
    tcase_add_test(tc, test_range_ambiguous);
    tcase_add_test(tc, test_half_output_overflow);
    tcase_add_test(tc, test_half_precision_rule);
    tcase_add_test(tc, test_exact_by_construction);
    tcase_add_test(tc, test_bit_exact_and_expected);
    tcase_add_test(tc, test_integers);
    suite_add_tcase(s, tc);

    tc = tcase_create("tolerance_forms");
    tcase_add_test(tc, test_tolerance_resolve);
    tcase_add_test(tc, test_absolute_relative);
    tcase_add_test(tc, test_ulp_count);
    tcase_add_test(tc, test_rule_recorded);
    suite_add_tcase(s, tc);

    tc = tcase_create("no_false_failures");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_legitimate_f32, 0, (int)(sizeof(orders_f32) / sizeof(orders_f32[0])));
    tcase_add_loop_test(tc, test_legitimate_f16, 0, (int)(sizeof(orders_f16) / sizeof(orders_f16[0])));
    suite_add_tcase(s, tc);

    tc = tcase_create("bugs_caught");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_bug_dropped_element);
    tcase_add_test(tc, test_bug_duplicated_element);
    tcase_add_test(tc, test_bug_exclusive_off_by_one);
    tcase_add_test(tc, test_bug_reversed_direction);
    tcase_add_test(tc, test_bug_half_accumulation);
    tcase_add_test(tc, test_bug_signed_zero);
    tcase_add_test(tc, test_bug_integer_wrap);
    suite_add_tcase(s, tc);

    tc = tcase_create("tensor");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_strided_decreasing_4d);
    tcase_add_test(tc, test_compare_errors);
    tcase_add_test(tc, test_speed);
    suite_add_tcase(s, tc);

    tc = tcase_create("printing");
    tcase_add_test(tc, test_format);
    tcase_add_loop_test(tc, test_mismatch_text, 0, (int)(sizeof(mismatch_texts) / sizeof(mismatch_texts[0])));
    tcase_add_test(tc, test_mismatch_text_fits);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(comparator_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
