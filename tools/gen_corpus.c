/*
 * dmlconf_gen_corpus: writes the generated parts of the case corpus, byte for
 * byte deterministically (integer arithmetic and its own pseudo-random
 * numbers; the oracle computes every inline expected). Cases are written by
 * the case library's writer (dmlconf/case_writer.h), values exact.
 *
 *   dmlconf_gen_corpus OUTDIR              cases/conformance: the sweeps
 *   dmlconf_gen_corpus --edge OUTDIR       cases/edge: boundary cases
 *   dmlconf_gen_corpus --negative OUTDIR   cases/negative: invalid descs
 *
 * OUTDIR must exist; existing files of the same names are overwritten. The
 * spec of the conformance sweeps is the set of tables below ("The spec").
 * tools/corpus.cmake runs it to check or regenerate the committed corpus.
 */
#include <dmlconf/case_writer.h>
#include <dmlconf/compiler.h>
#include <dmlconf/datagen.h>
#include <dmlconf/file_system.h>
#include <dmlconf/oracle.h>
#include <dmlconf/values.h>

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ==== The spec ============================================================ */

/* The six computable types, in the order files and cases are written. */
static const dmlconf_data_type sweep_types[] = {
    DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_FLOAT16, DMLCONF_DATA_TYPE_INT32,
    DMLCONF_DATA_TYPE_UINT32,  DMLCONF_DATA_TYPE_INT64,   DMLCONF_DATA_TYPE_UINT64,
};

/* Base shape of each rank in the sweeps. The scanned axis is stretched to at
 * least 4 + axis % 3 elements so that every scan has something to do; the
 * size-1 dimensions elsewhere exercise degenerate strides. */
static const uint32_t sweep_shapes[8][8] = {
    {37},
    {5, 7},
    {3, 4, 5},
    {2, 3, 2, 5},
    {2, 1, 3, 1, 2},
    {1, 2, 1, 3, 1, 2},
    {2, 1, 1, 3, 1, 2, 1},
    {2, 1, 2, 1, 3, 1, 1, 1},
};

/* Exact-by-construction sums: integers in [-range, range] times 2^-scale. Any
 * summation order is exact while sum(|x|) < 2^(precision - scale), which the
 * sweep shapes satisfy with a wide margin (checked when generating). */
typedef struct sum_recipe
{
    int64_t low, high; /* integer numerators */
    int scale;         /* value = numerator * 2^-scale */
    int64_t big_step;  /* 64-bit types: sometimes add a multiple of this */
} sum_recipe;

/* Exact-by-construction products: every factor is +-3^o * 2^p. The running
 * power of two p stays in [low, high], so every contiguous sub-product lies
 * within 2^(2 * max(|low|, high)) of 1, and at most max_odd factors of 3 keep
 * the odd part within the significand (3^8 < 2^24, 3^4 < 2^11). */
typedef struct product_recipe
{
    int low, high;  /* band of the running power of two */
    int max_up;     /* largest power-of-two step up */
    int max_odd;    /* most factors of 3 in one line */
    bool negatives; /* random signs */
} product_recipe;

typedef struct type_recipe
{
    dmlconf_data_type type;
    sum_recipe sum;
    product_recipe product;
    /* Random data: three generator mappings per operator (without their
     * seed and closing brace), rotated through the sweep. */
    const char *random_sum[3];
    const char *random_product[3];
    /* Values near the type's limits for the wrap-around sweep (integers). */
    const char *wrap_sum[10];
    const char *wrap_product[10];
} type_recipe;

static const type_recipe recipes[] = {
    {DMLCONF_DATA_TYPE_FLOAT32,
     {-40, 40, 3, 0},
     {-8, 8, 1, 8, true},
     {"{generate: uniform, min: -1, max: 1", "{generate: normal, mean: 0, stddev: 1",
      "{generate: wide, emin: -24, emax: 24"},
     {"{generate: uniform, min: -2, max: 2", "{generate: normal, mean: 1, stddev: 0.5",
      "{generate: wide, emin: -3, emax: 3"},
     {NULL},
     {NULL}},
    {DMLCONF_DATA_TYPE_FLOAT16,
     {-12, 12, 2, 0},
     {-2, 2, 1, 4, true},
     {"{generate: uniform, min: -1, max: 1", "{generate: normal, mean: 0, stddev: 1",
      "{generate: wide, emin: -14, emax: 5"},
     {"{generate: uniform, min: 0.75, max: 1.25", "{generate: normal, mean: 1, stddev: 0.25",
      "{generate: wide, emin: -1, emax: 0"},
     {NULL},
     {NULL}},
    {DMLCONF_DATA_TYPE_INT32,
     {-99, 99, 0, 0},
     {0, 12, 1, 6, true},
     {"{generate: uniform, min: -2147483648, max: 2147483647", "{generate: uniform, min: -1000, max: 1000",
      "{generate: integers, min: -1000000, max: 1000000"},
     {"{generate: uniform, min: -2147483648, max: 2147483647", "{generate: uniform, min: -3, max: 3",
      "{generate: integers, min: -100, max: 100"},
     {"2147483647", "2147483646", "-2147483648", "-2147483647", "1073741824", "-1073741824", "1", "-1", "2",
      "123456789"},
     {"2147483647", "-2147483648", "-1", "3", "-3", "65537", "46341", "32767", "-2147483647", "2"}},
    {DMLCONF_DATA_TYPE_UINT32,
     {0, 99, 0, 0},
     {0, 12, 1, 6, false},
     {"{generate: uniform, min: 0, max: 4294967295", "{generate: uniform, min: 0, max: 1000",
      "{generate: integers, min: 0, max: 1000000"},
     {"{generate: uniform, min: 0, max: 4294967295", "{generate: uniform, min: 0, max: 3",
      "{generate: integers, min: 0, max: 100"},
     {"4294967295", "4294967294", "2147483648", "2147483649", "2147483647", "1", "2", "3000000000", "65535",
      "123456789"},
     {"4294967295", "4294967293", "2147483649", "65537", "65535", "3", "2", "1", "3000000001", "2147483648"}},
    {DMLCONF_DATA_TYPE_INT64,
     {-99, 99, 0, INT64_C(4294967296)},
     {0, 44, 8, 10, true},
     {"{generate: uniform, min: -9223372036854775808, max: 9223372036854775807",
      "{generate: uniform, min: -1000000000000, max: 1000000000000", "{generate: integers, min: -1000, max: 1000"},
     {"{generate: uniform, min: -9223372036854775808, max: 9223372036854775807", "{generate: uniform, min: -3, max: 3",
      "{generate: integers, min: -100000, max: 100000"},
     {"9223372036854775807", "9223372036854775806", "-9223372036854775808", "-9223372036854775807",
      "4611686018427387904", "-4611686018427387904", "1", "-1", "4294967296", "-2147483648"},
     {"9223372036854775807", "-9223372036854775808", "-1", "3", "-3", "4294967297", "3037000501", "2147483647",
      "-9223372036854775807", "2"}},
    {DMLCONF_DATA_TYPE_UINT64,
     {0, 99, 0, INT64_C(4294967296)},
     {0, 44, 8, 10, false},
     {"{generate: uniform, min: 0, max: 18446744073709551615", "{generate: uniform, min: 0, max: 1000000000000",
      "{generate: integers, min: 0, max: 1000"},
     {"{generate: uniform, min: 0, max: 18446744073709551615", "{generate: uniform, min: 0, max: 3",
      "{generate: integers, min: 0, max: 100000"},
     {"18446744073709551615", "18446744073709551614", "9223372036854775808", "9223372036854775809",
      "9223372036854775807", "1", "2", "4294967296", "4294967295", "12345678901234567890"},
     {"18446744073709551615", "18446744073709551613", "9223372036854775809", "4294967297", "4294967295", "3", "2", "1",
      "12345678901234567891", "9223372036854775808"}},
};

/* Long axes and many short lines, for every operator and type. */
typedef struct long_shape
{
    const char *name; /* part of the case id */
    uint32_t rank;
    uint32_t sizes[8];
    uint32_t axis;
    bool decreasing;
    bool exclusive;
} long_shape;

static const long_shape long_shapes[] = {
    {"n131072", 1, {131072}, 0, false, false},
    {"n131072.dec.excl", 1, {131072}, 0, true, true},
    {"1x1x1x131072", 4, {1, 1, 1, 131072}, 3, false, true},
    {"2x65536.a1", 2, {2, 65536}, 1, true, false},
    {"65536x2.a0", 2, {65536, 2}, 0, false, true},
    {"4096x3.a1", 2, {4096, 3}, 1, false, false},
    {"3x4096.a0", 2, {3, 4096}, 0, true, true},
    {"1x4096x3x1.a2", 4, {1, 4096, 3, 1}, 2, true, false},
    {"2x3x5x7x11.a2", 5, {2, 3, 5, 7, 11}, 2, false, true},
    {"2x3x5x7x11.a4", 5, {2, 3, 5, 7, 11}, 4, true, false},
};

/* ==== Small utilities ===================================================== */

/* splitmix64: a tiny, portable generator for the inline data. */
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

/* Uniform in [0, n), n >= 1, without modulo bias. */
static uint64_t rng_below(rng *r, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
    {
        x = rng_next(r);
    } while (x >= limit);
    return x % n;
}

/* Uniform in [low, high]. */
static int64_t rng_range(rng *r, int64_t low, int64_t high)
{
    uint64_t span = (uint64_t)high - (uint64_t)low + 1u;
    return (int64_t)((uint64_t)low + rng_below(r, span));
}

/* FNV-1a of a string: the seed of a case is the hash of its id, so seeds are
 * stable when cases are added or removed elsewhere. */
static uint64_t hash_text(const char *text)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (; *text; ++text)
    {
        h ^= (unsigned char)*text;
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

static const char *op_short(dmlconf_operator op)
{
    return op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? "prod" : "sum";
}

static const char *op_long(dmlconf_operator op)
{
    return op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? "product" : "sum";
}

static bool type_is_float(dmlconf_data_type type)
{
    return type == DMLCONF_DATA_TYPE_FLOAT32 || type == DMLCONF_DATA_TYPE_FLOAT16;
}

static size_t type_size(dmlconf_data_type type)
{
    return dmlconf_data_type_bits(type) / 8;
}

/* ==== Exact value formatting ============================================== */

/* Writes one element of `type` so that it parses back to the same bits
 * without rounding: the case library's READABLE style (integers in decimal;
 * floats as the shortest decimal when that is exact, else a hex float;
 * "-0.0", "inf", "nan", "bits:0x..." for other NaNs). */
static void format_element(dmlconf_data_type type, const unsigned char *element, char *out, size_t size)
{
    if (!dmlconf_value_format(type, element, DMLCONF_VALUE_STYLE_READABLE, out, size))
        snprintf(out, size, "?");
}

/* ==== Storing values ====================================================== */

/* Stores a double that must be exactly representable in the float type. */
static bool store_float(dmlconf_data_type type, unsigned char *buffer, size_t index, double value)
{
    if (type == DMLCONF_DATA_TYPE_FLOAT32)
    {
        float f = (float)value;
        if ((double)f != value && !(value != value))
            return false;
        memcpy(buffer + index * 4, &f, 4);
        return true;
    }
    uint16_t h = dmlconf_half_from_double(value);
    if ((double)dmlconf_half_to_float(h) != value && !(value != value))
        return false;
    memcpy(buffer + index * 2, &h, 2);
    return true;
}

/* Stores the low bits of a two's-complement integer. */
static void store_int(dmlconf_data_type type, unsigned char *buffer, size_t index, uint64_t value)
{
    if (type_size(type) == 4)
    {
        uint32_t v = (uint32_t)value;
        memcpy(buffer + index * 4, &v, 4);
    }
    else
    {
        memcpy(buffer + index * 8, &value, 8);
    }
}

/* Parses a decimal integer literal of the spec tables into its two's
 * complement bits (the tables are trusted: digits and an optional sign). */
static uint64_t parse_table_int(const char *s)
{
    bool negative = *s == '-';
    if (negative)
        ++s;
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; ++s)
        v = v * 10u + (uint64_t)(*s - '0');
    return negative ? 0u - v : v;
}

/* ==== Cases =============================================================== */

#define ID_SIZE 160

typedef enum input_kind
{
    INPUT_NONE,
    INPUT_INLINE,
    INPUT_GENERATOR,
} input_kind;

/* One case to write. `input` (owned) holds the logical row-major values when
 * they are known; input_kind says whether the file shows them inline or as
 * the generator mapping in `generator`. */
typedef struct gen_case
{
    char id[ID_SIZE];
    dmlconf_scan_desc desc;
    char tags[200];
    const char *notes;
    input_kind input_kind;
    unsigned char *input;
    char generator[200];
    bool write_expected;
    bool write_min_level;
    /* Negative cases. */
    bool negative;
    dmlconf_reason reason;
    dmlconf_feature_level reason_level; /* NONE: rejected at every level */
} gen_case;

static void case_init(gen_case *c, dmlconf_operator op, dmlconf_data_type type, uint32_t rank, const uint32_t *sizes,
                      uint32_t axis, bool decreasing, bool exclusive)
{
    memset(c, 0, sizeof(*c));
    c->desc.op = op;
    c->desc.axis = axis;
    c->desc.direction = decreasing ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING;
    c->desc.exclusive = exclusive;
    c->desc.input.data_type = type;
    c->desc.input.dimension_count = rank;
    for (uint32_t d = 0; d < rank && d < DMLCONF_MAX_DIMENSIONS; ++d)
        c->desc.input.sizes[d] = sizes[d];
    c->desc.output = c->desc.input;
    c->write_min_level = true;
}

static void case_free(gen_case *c)
{
    free(c->input);
    c->input = NULL;
}

static uint64_t case_elements(const gen_case *c)
{
    return dmlconf_tensor_element_count(&c->desc.input);
}

/* Allocates the inline input (zeroed). Returns false when out of memory. */
static bool case_alloc_input(gen_case *c)
{
    uint64_t n = case_elements(c);
    c->input = calloc((size_t)n ? (size_t)n : 1u, type_size(c->desc.input.data_type));
    c->input_kind = INPUT_INLINE;
    return c->input != NULL;
}

/* Storage offset (in elements) of logical element `index` of a tensor. */
static uint64_t storage_offset(const dmlconf_tensor_desc *desc, uint64_t index)
{
    uint64_t offset = 0;
    for (uint32_t d = desc->dimension_count; d-- > 0;)
    {
        uint64_t coordinate = index % desc->sizes[d];
        index /= desc->sizes[d];
        offset += coordinate * dmlconf_tensor_stride(desc, d);
    }
    return offset;
}

/* Runs the oracle on the case's inline input. On success *expected receives
 * the outputs in logical order (caller frees). Returns 0 or -1 (message
 * printed). */
static int compute_expected(const gen_case *c, unsigned char **expected)
{
    const dmlconf_scan_desc *desc = &c->desc;
    size_t element = type_size(desc->input.data_type);
    uint64_t n = case_elements(c), in_bytes = 0, out_bytes = 0;
    unsigned char *in = NULL, *out = NULL, *result = NULL;
    dmlconf_error err;
    int status = -1;

    if (!dmlconf_tensor_min_size_bytes(&desc->input, &in_bytes) ||
        !dmlconf_tensor_min_size_bytes(&desc->output, &out_bytes))
    {
        fprintf(stderr, "gen_corpus: %s: no buffer size\n", c->id);
        return -1;
    }
    in = calloc((size_t)in_bytes, 1);
    out = desc->in_place ? in : calloc((size_t)out_bytes, 1);
    result = malloc((size_t)n * element);
    if (!in || !out || !result)
    {
        fprintf(stderr, "gen_corpus: %s: out of memory\n", c->id);
        goto done;
    }
    for (uint64_t i = 0; i < n; ++i)
        memcpy(in + storage_offset(&desc->input, i) * element, c->input + i * element, element);
    if (dmlconf_compute(desc, in, (size_t)in_bytes, out, (size_t)out_bytes, NULL, &err))
    {
        fprintf(stderr, "gen_corpus: %s: the oracle failed: %s\n", c->id, err.message);
        goto done;
    }
    for (uint64_t i = 0; i < n; ++i)
        memcpy(result + i * element, out + storage_offset(&desc->output, i) * element, element);
    *expected = result;
    result = NULL;
    status = 0;

done:
    if (out != in)
        free(out);
    free(in);
    free(result);
    return status;
}

/* ==== Writing YAML ======================================================== */

/* One output file: its text, and the defaults its header declares (cases
 * that match them leave op and dtype out). */
typedef struct yaml_file
{
    const char *name;
    dmlconf_buffer body;
    bool has_op;
    dmlconf_operator op;
    bool has_type;
    dmlconf_data_type type;
    size_t case_count;
    bool failed;
} yaml_file;

/* The corpus's lists end by column 117 (dmlconf_case_write_options.width). */
#define CORPUS_WIDTH 117u

static void file_begin(yaml_file *f, const char *name, const char *description, const char *regenerate, bool has_op,
                       dmlconf_operator op, bool has_type, dmlconf_data_type type)
{
    memset(f, 0, sizeof(*f));
    f->name = name;
    f->has_op = has_op;
    f->op = op;
    f->has_type = has_type;
    f->type = type;
    dmlconf_buffer_printf(
        &f->body, "# Generated by tools/gen_corpus.c (dmlconf_gen_corpus%s): do not edit by hand.\n", regenerate);
    dmlconf_buffer_printf(&f->body, "# Change the generator and rerun it: cmake --build <build> --target "
                                        "dmlconf_regenerate_corpus\n");
    dmlconf_buffer_printf(&f->body, "#\n%s", description);
    if (has_op || has_type)
    {
        dmlconf_case defaults;
        memset(&defaults, 0, sizeof(defaults));
        defaults.desc.op = op;
        defaults.desc.input.data_type = type;
        uint32_t fields =
            (has_op ? 1u << DMLCONF_CASE_FIELD_OP : 0u) | (has_type ? 1u << DMLCONF_CASE_FIELD_DTYPE : 0u);
        dmlconf_buffer_append(&f->body, "\n", 1);
        if (dmlconf_case_write_defaults(&f->body, &defaults, fields, NULL))
            f->failed = true;
    }
    dmlconf_buffer_printf(&f->body, "\ncases:\n");
}

/* Reads a generator mapping of the spec tables ("{generate: uniform, min: -1,
 * max: 1, seed: 7}") into *spec and checks it. Returns 0, or -1 (message
 * printed). */
static int read_generator(const gen_case *c, dmlconf_datagen_spec *spec)
{
    char text[sizeof(c->generator)], why[256];
    snprintf(text, sizeof(text), "%s", c->generator);
    dmlconf_datagen_init(spec, c->desc.input.data_type);
    size_t length = strlen(text);
    if (length < 2 || text[0] != '{' || text[length - 1] != '}')
    {
        fprintf(stderr, "gen_corpus: %s: '%s' is not a generator mapping\n", c->id, c->generator);
        return -1;
    }
    text[length - 1] = '\0';
    for (char *pair = text + 1; pair;)
    {
        char *next = strstr(pair, ", ");
        if (next)
            *next = '\0';
        char *colon = strstr(pair, ": ");
        if (!colon)
        {
            fprintf(stderr, "gen_corpus: %s: '%s' is not a key and its value\n", c->id, pair);
            return -1;
        }
        *colon = '\0';
        if (dmlconf_datagen_set(spec, pair, colon + 2, why, sizeof(why)))
        {
            fprintf(stderr, "gen_corpus: %s: %s\n", c->id, why);
            return -1;
        }
        pair = next ? next + 2 : NULL;
    }
    if (dmlconf_datagen_check(spec, why, sizeof(why)))
    {
        fprintf(stderr, "gen_corpus: %s: %s\n", c->id, why);
        return -1;
    }
    return 0;
}

/* Splits "a, b, c" into at most `most` tags, pointers into `text`. */
static size_t split_tags(char *text, char **tags, size_t most)
{
    size_t count = 0;
    for (char *tag = text; tag && *tag && count < most;)
    {
        char *next = strstr(tag, ", ");
        if (next)
            *next = '\0';
        tags[count++] = tag;
        tag = next ? next + 2 : NULL;
    }
    return count;
}

static int check_negative(const gen_case *c)
{
    dmlconf_validation why;
    if (c->reason_level == DMLCONF_FEATURE_LEVEL_NONE)
    {
        if (dmlconf_min_feature_level(&c->desc, &why) != DMLCONF_FEATURE_LEVEL_NONE || why.reason != c->reason)
        {
            fprintf(stderr, "gen_corpus: %s: expected rejection at every level for %s, got %s\n", c->id,
                    dmlconf_reason_name(c->reason), dmlconf_reason_name(why.reason));
            return -1;
        }
        return 0;
    }
    if (dmlconf_validate(&c->desc, c->reason_level, &why) || why.reason != c->reason)
    {
        fprintf(stderr, "gen_corpus: %s: expected %s at level %s, got %s\n", c->id, dmlconf_reason_name(c->reason),
                dmlconf_feature_level_name(c->reason_level), dmlconf_reason_name(why.reason));
        return -1;
    }
    return 0;
}

/* Appends one case to a file. Computes min_feature_level and, when asked,
 * the expected values with the oracle. Returns 0, or -1 (message printed). */
static int file_add(yaml_file *f, const gen_case *c)
{
    const dmlconf_scan_desc *desc = &c->desc;
    dmlconf_validation why;
    dmlconf_feature_level level = dmlconf_min_feature_level(desc, &why);

    if (c->negative)
    {
        if (check_negative(c))
            return -1;
    }
    else if (level == DMLCONF_FEATURE_LEVEL_NONE)
    {
        fprintf(stderr, "gen_corpus: %s: invalid at every level: %s\n", c->id, why.message);
        return -1;
    }

    char id[ID_SIZE], tag_text[sizeof(c->tags)], notes[512], *tags[8];
    dmlconf_case out;
    memset(&out, 0, sizeof(out));
    snprintf(id, sizeof(id), "%s", c->id);
    snprintf(tag_text, sizeof(tag_text), "%s", c->tags);
    out.id = id;
    out.desc = *desc;
    out.min_feature_level = level;
    out.min_feature_level_explicit = !c->negative && c->write_min_level;
    out.expect_error.set = c->negative;
    out.expect_error.reason = c->reason;
    out.expect_error.feature_level = c->reason_level;
    out.tags = tags;
    out.tag_count = split_tags(tag_text, tags, sizeof(tags) / sizeof(tags[0]));
    if (c->notes)
    {
        snprintf(notes, sizeof(notes), "%s", c->notes);
        out.notes = notes;
    }
    if (c->input_kind == INPUT_GENERATOR)
    {
        out.input.kind = DMLCONF_CASE_DATA_GENERATOR;
        if (read_generator(c, &out.input.generator))
            return -1;
    }
    else if (c->input_kind == INPUT_INLINE)
    {
        out.input.kind = DMLCONF_CASE_DATA_INLINE;
        out.input.values = c->input;
        out.input.count = case_elements(c);
    }
    unsigned char *expected = NULL;
    if (c->write_expected)
    {
        if (!c->input || compute_expected(c, &expected))
            return -1;
        out.expected.kind = DMLCONF_CASE_DATA_INLINE;
        out.expected.values = expected;
        out.expected.count = case_elements(c);
    }
    dmlconf_case_write_options options = {.width = CORPUS_WIDTH};
    if (f->has_op && f->op == desc->op)
        options.omit |= 1u << DMLCONF_CASE_FIELD_OP;
    if (f->has_type && f->type == desc->input.data_type)
        options.omit |= 1u << DMLCONF_CASE_FIELD_DTYPE;
    int status = dmlconf_case_write(&f->body, &out, &options);
    free(expected);
    if (status)
    {
        fprintf(stderr, "gen_corpus: %s: %s\n", c->id, f->body.failed ? "out of memory" : "cannot be written");
        return -1;
    }
    f->case_count++;
    return 0;
}

/* Writes the file into outdir and frees its text. */
static int file_end(yaml_file *f, const char *outdir)
{
    char path[4096];
    int status = -1;
    snprintf(path, sizeof(path), "%s/%s", outdir, f->name);
    if (f->body.failed || f->failed)
    {
        fprintf(stderr, "gen_corpus: %s: not written (an earlier error)\n", path);
        dmlconf_buffer_free(&f->body);
        return -1;
    }
    char why[1024];
    if (dmlconf_write_file_atomically(path, f->body.data, f->body.length, false, why, sizeof(why)) == 0)
        status = 0;
    else
        fprintf(stderr, "gen_corpus: cannot write %s\n", why);
    printf("%s: %zu cases, %zu bytes\n", path, f->case_count, f->body.length);
    dmlconf_buffer_free(&f->body);
    return status;
}

/* ==== The conformance sweeps ============================================== */

/* Writes a generator mapping: `prefix` (without its closing brace), then the
 * seed. */
static void seeded(char *out, size_t size, const char *prefix, uint64_t seed)
{
    snprintf(out, size, "%s, seed: %" PRIu64 "}", prefix, seed);
}

static const type_recipe *recipe_for(dmlconf_data_type type)
{
    for (size_t i = 0; i < sizeof(recipes) / sizeof(recipes[0]); ++i)
    {
        if (recipes[i].type == type)
            return &recipes[i];
    }
    return NULL;
}

static void set_tags(gen_case *c, const char *set, const char *kind)
{
    const char *token = dmlconf_data_type_lower_name(c->desc.input.data_type);
    snprintf(c->tags, sizeof(c->tags), "%s, %s, %s, r%" PRIu32 ", %s", set, op_long(c->desc.op), token,
             c->desc.input.dimension_count, kind);
}

/* Fills one line (n elements at positions first + j * step) with exact sum
 * data. */
static bool fill_sum_line(const gen_case *c, const sum_recipe *r, rng *g, uint64_t first, uint64_t step, uint64_t n)
{
    dmlconf_data_type type = c->desc.input.data_type;
    for (uint64_t j = 0; j < n; ++j)
    {
        int64_t k = rng_range(g, r->low, r->high);
        size_t index = (size_t)(first + j * step);
        if (type_is_float(type))
        {
            if (!store_float(type, c->input, index, (double)k / (double)(1u << r->scale)))
                return false;
        }
        else
        {
            if (r->big_step && rng_below(g, 3) == 0)
                k += rng_range(g, r->low < 0 ? -3 : 1, 3) * r->big_step;
            store_int(type, c->input, index, (uint64_t)k);
        }
    }
    return true;
}

/* Fills one line with exact product data: factors +-3^o * 2^p on a bounded
 * walk of the running power of two. */
static bool fill_product_line(const gen_case *c, const product_recipe *r, rng *g, uint64_t first, uint64_t step,
                              uint64_t n)
{
    dmlconf_data_type type = c->desc.input.data_type;
    int power = 0, odd_count = 0;
    int low_step = r->low < 0 ? -1 : 0;
    for (uint64_t j = 0; j < n; ++j)
    {
        int p = (int)rng_range(g, low_step, r->max_up);
        if (power + p < r->low || power + p > r->high)
            p = 0;
        power += p;
        uint64_t odd = 1;
        if (odd_count < r->max_odd && rng_below(g, 4) == 0)
        {
            odd = 3;
            ++odd_count;
        }
        bool negative = r->negatives && rng_below(g, 2) == 0;
        size_t index = (size_t)(first + j * step);
        if (type_is_float(type))
        {
            double v = (double)odd;
            v = p >= 0 ? v * (double)(UINT64_C(1) << p) : v / (double)(UINT64_C(1) << -p);
            if (!store_float(type, c->input, index, negative ? -v : v))
                return false;
        }
        else
        {
            uint64_t v = odd << p;
            store_int(type, c->input, index, negative ? 0u - v : v);
        }
    }
    return true;
}

/* Fills the case's inline input line by line along its axis, seeded by its
 * id. kind: "exact" or "wrap". */
static int fill_sweep_input(gen_case *c, const type_recipe *recipe, bool wrap)
{
    rng g = {hash_text(c->id)};
    dmlconf_tensor_desc packed = c->desc.input;
    packed.has_strides = false;
    uint64_t lines = dmlconf_line_count(&packed, c->desc.axis), n = packed.sizes[c->desc.axis];
    bool product = c->desc.op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;

    if (!case_alloc_input(c))
        return -1;
    for (uint64_t line = 0; line < lines; ++line)
    {
        uint64_t first, step;
        dmlconf_line_layout(&packed, c->desc.axis, line, &first, &step, NULL, NULL);
        bool ok = true;
        if (wrap)
        {
            const char *const *palette = product ? recipe->wrap_product : recipe->wrap_sum;
            for (uint64_t j = 0; j < n; ++j)
                store_int(c->desc.input.data_type, c->input, (size_t)(first + j * step),
                          parse_table_int(palette[rng_below(&g, 10)]));
        }
        else if (product)
        {
            ok = fill_product_line(c, &recipe->product, &g, first, step, n);
        }
        else
        {
            ok = fill_sum_line(c, &recipe->sum, &g, first, step, n);
        }
        if (!ok)
        {
            fprintf(stderr, "gen_corpus: %s: a value is not exact in its type\n", c->id);
            return -1;
        }
    }
    return 0;
}

/* Exact-by-construction check for sums: sum(|x|) over each whole line must
 * stay below 2^(precision - scale) (so every partial sum in any order is a
 * representable multiple of 2^-scale). */
static int check_sum_margin(const gen_case *c, const sum_recipe *r)
{
    dmlconf_data_type type = c->desc.input.data_type;
    if (!type_is_float(type))
        return 0;
    int precision = type == DMLCONF_DATA_TYPE_FLOAT32 ? 24 : 11;
    uint64_t n = c->desc.input.sizes[c->desc.axis];
    uint64_t bound = n * (uint64_t)(r->high > -r->low ? r->high : -r->low);
    if (bound >= (UINT64_C(1) << precision))
    {
        fprintf(stderr, "gen_corpus: %s: line too long for exact sums\n", c->id);
        return -1;
    }
    return 0;
}

static void sweep_sizes(uint32_t rank, uint32_t axis, bool small, uint32_t *sizes)
{
    for (uint32_t d = 0; d < rank; ++d)
        sizes[d] = sweep_shapes[rank - 1][d];
    uint32_t minimum = 4 + axis % 3;
    if (sizes[axis] < minimum)
        sizes[axis] = minimum;
    if (!small)
        return;
    /* Wrap cases: the axis (5 to 7 long) and at most two other dimensions
     * of size 2. */
    uint32_t kept = 0;
    for (uint32_t d = 0; d < rank; ++d)
    {
        if (d == axis)
            sizes[d] = 5 + axis % 3;
        else if (sizes[d] >= 2 && kept < 2)
        {
            sizes[d] = 2;
            ++kept;
        }
        else
            sizes[d] = 1;
    }
}

static int write_sweep_file(dmlconf_operator op, const type_recipe *recipe, const char *outdir)
{
    const char *token;
    char name[64], description[512];
    yaml_file f;
    int status = 0;
    bool integer = !type_is_float(recipe->type);

    token = dmlconf_data_type_lower_name(recipe->type);
    snprintf(name, sizeof(name), "%s_%s.yaml", op_long(op), token);
    snprintf(description, sizeof(description),
             "# The %s sweep for %s: every rank (1 to 8), axis, direction and exclusive flag, with\n"
             "# - exact: inline data exact by construction (every summation or multiplication order gives\n"
             "#   the same bits) and the oracle's results inline;\n"
             "# - random: seeded generators, judged with the comparator's tolerance (expected computed by\n"
             "#   the oracle when the case runs)%s",
             op_long(op), token,
             integer ? ";\n# - wrap (one case per rank and axis): inline values near the type's limits, so results\n"
                       "#   wrap modulo 2^w.\n"
                     : ".\n");
    file_begin(&f, name, description, "", true, op, true, recipe->type);

    for (uint32_t rank = 1; rank <= 8 && !status; ++rank)
    {
        for (uint32_t axis = 0; axis < rank && !status; ++axis)
        {
            for (int variant = 0; variant < 4 && !status; ++variant)
            {
                bool decreasing = variant & 1, exclusive = variant & 2;
                const char *shape_id =
                    decreasing ? (exclusive ? "dec.excl" : "dec.incl") : (exclusive ? "inc.excl" : "inc.incl");
                uint32_t sizes[8];
                gen_case c;

                /* exact */
                sweep_sizes(rank, axis, false, sizes);
                case_init(&c, op, recipe->type, rank, sizes, axis, decreasing, exclusive);
                snprintf(c.id, sizeof(c.id), "conf.%s.%s.r%" PRIu32 ".a%" PRIu32 ".%s.exact", op_short(op), token, rank,
                         axis, shape_id);
                set_tags(&c, "conformance", "exact");
                c.write_expected = true;
                status = fill_sweep_input(&c, recipe, false);
                if (!status && op == DMLCONF_OPERATOR_CUMULATIVE_SUMMATION)
                    status = check_sum_margin(&c, &recipe->sum);
                if (!status)
                    status = file_add(&f, &c);
                case_free(&c);

                /* random */
                if (!status)
                {
                    case_init(&c, op, recipe->type, rank, sizes, axis, decreasing, exclusive);
                    snprintf(c.id, sizeof(c.id), "conf.%s.%s.r%" PRIu32 ".a%" PRIu32 ".%s.random", op_short(op), token,
                             rank, axis, shape_id);
                    set_tags(&c, "conformance", "random");
                    const char *const *family =
                        op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? recipe->random_product : recipe->random_sum;
                    c.input_kind = INPUT_GENERATOR;
                    seeded(c.generator, sizeof(c.generator), family[(rank + axis + (uint32_t)variant) % 3],
                           hash_text(c.id));
                    status = file_add(&f, &c);
                    case_free(&c);
                }

                /* wrap: one case per rank and axis, the direction and
                 * exclusive flag rotating through the sweep */
                if (!status && integer && (uint32_t)variant == (rank + axis) % 4)
                {
                    sweep_sizes(rank, axis, true, sizes);
                    case_init(&c, op, recipe->type, rank, sizes, axis, decreasing, exclusive);
                    snprintf(c.id, sizeof(c.id), "conf.%s.%s.r%" PRIu32 ".a%" PRIu32 ".%s.wrap", op_short(op), token,
                             rank, axis, shape_id);
                    set_tags(&c, "conformance", "wrap");
                    c.write_expected = true;
                    status = fill_sweep_input(&c, recipe, true);
                    if (!status)
                        status = file_add(&f, &c);
                    case_free(&c);
                }
            }
        }
    }
    if (status)
        f.failed = true;
    return file_end(&f, outdir) || status ? -1 : 0;
}

/* The generator mapping of a long case: exact data where the line length
 * allows it, else data judged with the tolerance (floats) or wrapping
 * (integers). *kind receives the case's kind tag. */
static void long_generator(const gen_case *c, bool exact, size_t shape_index, char *out, size_t size, const char **kind)
{
    dmlconf_data_type type = c->desc.input.data_type;
    bool product = c->desc.op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    bool is_signed = type != DMLCONF_DATA_TYPE_UINT32 && type != DMLCONF_DATA_TYPE_UINT64;
    uint32_t n = c->desc.input.sizes[c->desc.axis];
    uint64_t seed = hash_text(c->id);
    const type_recipe *recipe = recipe_for(type);

    *kind = exact ? "exact" : "random";
    if (!product)
    {
        if (!exact)
        {
            if (type_is_float(type))
                seeded(out, size, "{generate: uniform, min: -1, max: 1", seed);
            else
            {
                *kind = "wrap";
                seeded(out, size, recipe->random_sum[0], seed);
            }
        }
        else if (type == DMLCONF_DATA_TYPE_FLOAT16)
        {
            /* A walk of steps in {-1, 0, 1} (times 2^-3) spreads about
             * sqrt(n) = 362 units: far below the 2048 that float16 holds
             * exactly. */
            seeded(out, size,
                   shape_index % 2 ? "{generate: dyadic, min: -1, max: 1, scale: 3"
                                   : "{generate: integers, min: -1, max: 1",
                   seed);
        }
        else if (type == DMLCONF_DATA_TYPE_FLOAT32 && shape_index % 2)
            seeded(out, size, "{generate: dyadic, min: -3, max: 3, scale: 4", seed);
        else
            seeded(out, size,
                   is_signed ? "{generate: integers, min: -3, max: 3" : "{generate: integers, min: 0, max: 7", seed);
        return;
    }
    if (!exact)
    {
        if (!type_is_float(type))
        {
            *kind = "wrap";
            seeded(out, size, recipe->random_product[0], seed);
        }
        else if (n <= 16)
            seeded(out, size, "{generate: uniform, min: -2, max: 2", seed);
        else /* 1 -+ 2^-10: long products wander slowly around 1 */
            seeded(out, size, "{generate: uniform, min: 0.9990234375, max: 1.0009765625", seed);
        return;
    }
    if (!type_is_float(type))
    {
        if (n <= 12)
            seeded(out, size,
                   is_signed ? "{generate: integers, min: -3, max: 3" : "{generate: integers, min: 0, max: 3", seed);
        else
        {
            /* Odd factors: the product wraps but never collapses to 0, so a
             * dropped or repeated element shows. */
            *kind = "wrap";
            snprintf(out, size, "{generate: iota, start: 1, step: 2}");
        }
        return;
    }
    /* Floats: small integers while 3^n stays within the significand (3^6 <
     * 2^11, 3^15 < 2^24), else -1, whose products alternate in sign. */
    if (n <= (type == DMLCONF_DATA_TYPE_FLOAT16 ? 6u : 15u))
        seeded(out, size, "{generate: integers, min: -3, max: 3", seed);
    else
        snprintf(out, size, "{generate: constant, value: -1}");
}

static int write_long_file(const char *outdir)
{
    yaml_file f;
    int status = 0;
    file_begin(&f, "long.yaml",
               "# Long axes (131072 elements, every type) and many short lines, for both operators. Inputs\n"
               "# come from generators; expected values are computed by the oracle when a case runs.\n"
               "# - exact: data exact by construction: small integers or dyadic fractions for sums (the\n"
               "#   float16 walks stay far below 2048), -1 or small integers for products; a dropped or\n"
               "#   repeated element changes the result;\n"
               "# - random: judged with the comparator's tolerance;\n"
               "# - wrap: integer data whose sums and products wrap modulo 2^w (bit exact).\n",
               "", false, DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, false, DMLCONF_DATA_TYPE_UNKNOWN);
    for (int o = 0; o < 2 && !status; ++o)
    {
        dmlconf_operator op = o ? DMLCONF_OPERATOR_CUMULATIVE_PRODUCT : DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
        for (size_t t = 0; t < sizeof(sweep_types) / sizeof(sweep_types[0]) && !status; ++t)
        {
            const char *token = dmlconf_data_type_lower_name(sweep_types[t]);
            for (size_t s = 0; s < sizeof(long_shapes) / sizeof(long_shapes[0]) && !status; ++s)
            {
                const long_shape *shape = &long_shapes[s];
                for (int exact = 1; exact >= 0 && !status; --exact)
                {
                    gen_case c;
                    const char *kind;
                    case_init(&c, op, sweep_types[t], shape->rank, shape->sizes, shape->axis, shape->decreasing,
                              shape->exclusive);
                    snprintf(c.id, sizeof(c.id), "conf.long.%s.%s.%s.%s", op_short(op), token, shape->name,
                             exact ? "exact" : "random");
                    c.input_kind = INPUT_GENERATOR;
                    long_generator(&c, exact, s, c.generator, sizeof(c.generator), &kind);
                    char long_kind[32];
                    snprintf(long_kind, sizeof(long_kind), "long, %s", kind);
                    set_tags(&c, "conformance", long_kind);
                    status = file_add(&f, &c);
                    case_free(&c);
                }
            }
        }
    }
    if (status)
        f.failed = true;
    return file_end(&f, outdir) || status ? -1 : 0;
}

static int write_conformance(const char *outdir)
{
    int status = 0;
    for (int o = 0; o < 2; ++o)
    {
        dmlconf_operator op = o ? DMLCONF_OPERATOR_CUMULATIVE_PRODUCT : DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
        for (size_t t = 0; t < sizeof(sweep_types) / sizeof(sweep_types[0]); ++t)
        {
            if (write_sweep_file(op, recipe_for(sweep_types[t]), outdir))
                status = -1;
        }
    }
    if (write_long_file(outdir))
        status = -1;
    return status;
}

/* ==== Edge cases (--edge) ================================================= */

/* Type masks of the edge tables. */
enum
{
    T_F32 = 1u << 0,
    T_F16 = 1u << 1,
    T_I32 = 1u << 2,
    T_U32 = 1u << 3,
    T_I64 = 1u << 4,
    T_U64 = 1u << 5,
    T_FLOAT = T_F32 | T_F16,
    T_SIGNED = T_I32 | T_I64,
    T_INT = T_I32 | T_U32 | T_I64 | T_U64,
    T_ALL = T_FLOAT | T_INT,
};

/* Operator masks. */
enum
{
    O_SUM = 1u << 0,
    O_PROD = 1u << 1,
    O_BOTH = O_SUM | O_PROD,
};

/* Which (direction, exclusive) combinations a row expands to. */
enum
{
    V_INC = 1u << 0,      /* increasing, inclusive */
    V_DEC = 1u << 1,      /* decreasing, inclusive */
    V_EXCL = 1u << 2,     /* increasing, exclusive */
    V_DEC_EXCL = 1u << 3, /* decreasing, exclusive */
    V_ALL = V_INC | V_DEC | V_EXCL | V_DEC_EXCL,
};

/* One row of an edge table: a tensor (1-D of the values' count unless
 * `rank` is set) whose values are written as space-separated tokens in
 * logical order. Tokens are numbers (decimal or C99 hex) or names: for floats
 * nan, -nan, snan (signalling), nanpay (a quiet NaN with a payload), inf,
 * -inf, max, -max (largest finite), min, -min (smallest normal), tiny, -tiny
 * (smallest subnormal), maxsub (largest subnormal); for integers max and min
 * (the type's limits). With `repeat`, the single token is repeated that many
 * times and the input is written as a constant generator. */
typedef struct edge_row
{
    const char *name;
    unsigned ops, types, variants;
    const char *values;
    uint32_t repeat;
    uint32_t rank;
    uint32_t sizes[8];
    uint32_t axis;
    bool has_input_strides;
    uint32_t input_strides[8];
    bool has_output_strides;
    uint32_t output_strides[8];
    bool in_place;
    const char *notes;
} edge_row;

static unsigned type_bit(dmlconf_data_type type)
{
    switch (type)
    {
    case DMLCONF_DATA_TYPE_FLOAT32:
        return T_F32;
    case DMLCONF_DATA_TYPE_FLOAT16:
        return T_F16;
    case DMLCONF_DATA_TYPE_INT32:
        return T_I32;
    case DMLCONF_DATA_TYPE_UINT32:
        return T_U32;
    case DMLCONF_DATA_TYPE_INT64:
        return T_I64;
    case DMLCONF_DATA_TYPE_UINT64:
        return T_U64;
    case DMLCONF_DATA_TYPE_UNKNOWN:
    case DMLCONF_DATA_TYPE_UINT16:
    case DMLCONF_DATA_TYPE_UINT8:
    case DMLCONF_DATA_TYPE_INT16:
    case DMLCONF_DATA_TYPE_INT8:
    case DMLCONF_DATA_TYPE_FLOAT64:
    case DMLCONF_DATA_TYPE_UINT4:
    case DMLCONF_DATA_TYPE_INT4:
        break;
    }
    return 0;
}

/* A named float constant: its float32 and float16 encodings. */
typedef struct float_name
{
    const char *name;
    uint32_t f32;
    uint16_t f16;
} float_name;

static const float_name float_names[] = {
    {"nan", 0x7fc00000u, 0x7e00u},    {"-nan", 0xffc00000u, 0xfe00u}, {"snan", 0x7f800001u, 0x7c01u},
    {"nanpay", 0x7fc12345u, 0x7e55u}, {"inf", 0x7f800000u, 0x7c00u},  {"-inf", 0xff800000u, 0xfc00u},
    {"max", 0x7f7fffffu, 0x7bffu},    {"-max", 0xff7fffffu, 0xfbffu}, {"min", 0x00800000u, 0x0400u},
    {"-min", 0x80800000u, 0x8400u},   {"tiny", 0x00000001u, 0x0001u}, {"-tiny", 0x80000001u, 0x8001u},
    {"maxsub", 0x007fffffu, 0x03ffu}, {"-0.0", 0x80000000u, 0x8000u}, {"-0", 0x80000000u, 0x8000u},
};

/* Parses one table token into element `index` of `buffer`. Returns false
 * for a token the type cannot hold exactly. */
static bool parse_token(dmlconf_data_type type, const char *token, unsigned char *buffer, size_t index)
{
    if (type_is_float(type))
    {
        for (size_t i = 0; i < sizeof(float_names) / sizeof(float_names[0]); ++i)
        {
            if (!strcmp(token, float_names[i].name))
            {
                if (type == DMLCONF_DATA_TYPE_FLOAT32)
                    memcpy(buffer + index * 4, &float_names[i].f32, 4);
                else
                    memcpy(buffer + index * 2, &float_names[i].f16, 2);
                return true;
            }
        }
        char *end = NULL;
        double value = strtod(token, &end);
        if (!end || *end || end == token)
            return false;
        return store_float(type, buffer, index, value);
    }
    bool is_signed = type == DMLCONF_DATA_TYPE_INT32 || type == DMLCONF_DATA_TYPE_INT64;
    bool wide = type_size(type) == 8;
    uint64_t value;
    if (!strcmp(token, "max"))
        value = is_signed ? (wide ? (uint64_t)INT64_MAX : (uint64_t)INT32_MAX) : (wide ? UINT64_MAX : UINT32_MAX);
    else if (!strcmp(token, "min"))
        value = is_signed ? (wide ? UINT64_C(1) << 63 : UINT64_C(0xffffffff80000000)) : 0u;
    else
    {
        const char *digits = token[0] == '-' ? token + 1 : token;
        if (!*digits || (token[0] == '-' && !is_signed))
            return false;
        for (const char *p = digits; *p; ++p)
        {
            if (*p < '0' || *p > '9')
                return false;
        }
        value = parse_table_int(token);
    }
    store_int(type, buffer, index, value);
    return true;
}

/* Splits a row's value string into the case's inline input. Returns the
 * number of tokens, or 0 on a bad token (message printed). With `buffer`
 * NULL only counts. */
static uint64_t row_tokens(const edge_row *row, dmlconf_data_type type, unsigned char *buffer, const char *id)
{
    uint64_t count = 0;
    const char *p = row->values;
    while (*p)
    {
        while (*p == ' ')
            ++p;
        if (!*p)
            break;
        char token[64];
        size_t length = 0;
        while (p[length] && p[length] != ' ')
            ++length;
        if (length >= sizeof(token))
            length = sizeof(token) - 1;
        memcpy(token, p, length);
        token[length] = '\0';
        p += length;
        if (buffer && !parse_token(type, token, buffer, (size_t)count))
        {
            fprintf(stderr, "gen_corpus: %s: '%s' is not an exact %s value\n", id, token, dmlconf_data_type_name(type));
            return 0;
        }
        ++count;
    }
    return count;
}

/* Checks that logical values agree wherever strides make elements share
 * storage (a broadcast input must be self-consistent). */
static int check_broadcast(const gen_case *c)
{
    const dmlconf_tensor_desc *desc = &c->desc.input;
    size_t element = type_size(desc->data_type);
    uint64_t n = case_elements(c), bytes = 0;
    if (!desc->has_strides)
        return 0;
    dmlconf_tensor_min_size_bytes(desc, &bytes);
    unsigned char *storage = calloc((size_t)bytes, 1);
    int status = 0;
    if (!storage)
        return -1;
    for (uint64_t i = 0; i < n; ++i)
        memcpy(storage + storage_offset(desc, i) * element, c->input + i * element, element);
    for (uint64_t i = 0; i < n && !status; ++i)
    {
        if (memcmp(storage + storage_offset(desc, i) * element, c->input + i * element, element))
        {
            fprintf(stderr,
                    "gen_corpus: %s: logical element %" PRIu64 " disagrees with the element it shares "
                    "storage with\n",
                    c->id, i);
            status = -1;
        }
    }
    free(storage);
    return status;
}

/* Expands the rows of one edge table into a file. */
static int write_edge_rows(yaml_file *f, const char *group, const edge_row *rows, size_t row_count)
{
    for (size_t r = 0; r < row_count; ++r)
    {
        const edge_row *row = &rows[r];
        for (int o = 0; o < 2; ++o)
        {
            dmlconf_operator op = o ? DMLCONF_OPERATOR_CUMULATIVE_PRODUCT : DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
            if (!(row->ops & (o ? O_PROD : O_SUM)))
                continue;
            for (size_t t = 0; t < sizeof(sweep_types) / sizeof(sweep_types[0]); ++t)
            {
                dmlconf_data_type type = sweep_types[t];
                if (!(row->types & type_bit(type)))
                    continue;
                for (int v = 0; v < 4; ++v)
                {
                    if (!(row->variants & (1u << v)))
                        continue;
                    static const char *const suffixes[4] = {"", ".dec", ".excl", ".dec.excl"};
                    bool decreasing = v == 1 || v == 3, exclusive = v >= 2;
                    const char *token;
                    gen_case c;
                    uint32_t sizes[8] = {0};
                    uint32_t rank = row->rank;
                    uint64_t count = row_tokens(row, type, NULL, row->name);

                    if (row->repeat)
                        count = row->repeat;
                    if (rank)
                        memcpy(sizes, row->sizes, sizeof(sizes));
                    else
                    {
                        rank = 1;
                        sizes[0] = (uint32_t)count;
                    }
                    case_init(&c, op, type, rank, sizes, rank == 1 && !row->rank ? 0 : row->axis, decreasing,
                              exclusive);
                    token = dmlconf_data_type_lower_name(type);
                    snprintf(c.id, sizeof(c.id), "edge.%s.%s.%s.%s%s", group, op_short(op), token, row->name,
                             suffixes[v]);
                    set_tags(&c, "edge", group);
                    c.notes = row->notes;
                    c.write_expected = true;
                    c.desc.input.has_strides = row->has_input_strides;
                    memcpy(c.desc.input.strides, row->input_strides, sizeof(c.desc.input.strides));
                    c.desc.output.has_strides = row->has_output_strides;
                    memcpy(c.desc.output.strides, row->output_strides, sizeof(c.desc.output.strides));
                    c.desc.in_place = row->in_place;
                    if (case_elements(&c) != count)
                    {
                        fprintf(stderr, "gen_corpus: %s: %" PRIu64 " values for %" PRIu64 " elements\n", c.id, count,
                                case_elements(&c));
                        return -1;
                    }
                    if (!case_alloc_input(&c))
                        return -1;
                    int status = 0;
                    if (row->repeat)
                    {
                        char item[64];
                        if (!row_tokens(row, type, c.input, c.id))
                            status = -1;
                        for (uint64_t i = 1; i < count && !status; ++i)
                            memcpy(c.input + i * type_size(type), c.input, type_size(type));
                        format_element(type, c.input, item, sizeof(item));
                        c.input_kind = INPUT_GENERATOR;
                        snprintf(c.generator, sizeof(c.generator), "{generate: constant, value: %s}", item);
                    }
                    else if (!row_tokens(row, type, c.input, c.id))
                        status = -1;
                    if (!status)
                        status = check_broadcast(&c);
                    if (!status)
                        status = file_add(f, &c);
                    case_free(&c);
                    if (status)
                        return -1;
                }
            }
        }
    }
    return 0;
}

static const edge_row size_one_rows[] = {
    {.name = "n1",
     .ops = O_BOTH,
     .types = T_ALL,
     .variants = V_ALL,
     .values = "7",
     .notes = "A single element: the inclusive scan copies it, the exclusive scan writes only the identity."},
    {.name = "3x1x4.a1",
     .ops = O_BOTH,
     .types = T_F32 | T_F16 | T_I32 | T_U64,
     .variants = V_INC | V_EXCL | V_DEC_EXCL,
     .values = "1 2 3 1 2 1 3 2 1 1 2 3",
     .rank = 3,
     .sizes = {3, 1, 4},
     .axis = 1,
     .notes = "Every line along the size-1 axis has one element."},
    {.name = "1x1x1x1.a2",
     .ops = O_BOTH,
     .types = T_F32 | T_F16 | T_I32 | T_U32,
     .variants = V_INC | V_EXCL,
     .values = "3",
     .rank = 4,
     .sizes = {1, 1, 1, 1},
     .axis = 2,
     .notes = "A 4-D tensor of one element (valid at the operators' first feature levels)."},
    {.name = "1x5x1.a0",
     .ops = O_BOTH,
     .types = T_F32 | T_I64,
     .variants = V_INC | V_DEC_EXCL,
     .values = "1 2 3 2 1",
     .rank = 3,
     .sizes = {1, 5, 1},
     .axis = 0,
     .notes = "Scanning a size-1 axis next to a long one."},
    {.name = "1x5x1.a1",
     .ops = O_BOTH,
     .types = T_F32 | T_I64,
     .variants = V_INC | V_DEC_EXCL,
     .values = "1 2 3 2 1",
     .rank = 3,
     .sizes = {1, 5, 1},
     .axis = 1,
     .notes = "The long axis between two size-1 axes."},
    {.name = "1x5x1.a2",
     .ops = O_BOTH,
     .types = T_F32 | T_I64,
     .variants = V_INC | V_DEC_EXCL,
     .values = "1 2 3 2 1",
     .rank = 3,
     .sizes = {1, 5, 1},
     .axis = 2,
     .notes = "Scanning the trailing size-1 axis."},
    {.name = "r8.ones.a7",
     .ops = O_BOTH,
     .types = T_F16 | T_U32,
     .variants = V_INC | V_EXCL,
     .values = "5 2",
     .rank = 8,
     .sizes = {1, 1, 1, 1, 1, 1, 1, 2},
     .axis = 7,
     .notes = "Eight dimensions, seven of size 1."},
};

static const edge_row float_special_rows[] = {
    /* sums */
    {.name = "nan",
     .ops = O_SUM,
     .types = T_FLOAT,
     .variants = V_ALL,
     .values = "1 2 nan 3 4",
     .notes = "A NaN makes every later running sum NaN (earlier ones in a decreasing scan)."},
    {.name = "nan_payloads",
     .ops = O_SUM,
     .types = T_FLOAT,
     .variants = V_INC | V_DEC,
     .values = "1 snan 2 nanpay -nan",
     .notes = "Signalling, payload and negative NaNs in: the result is NaN; payloads need not be kept."},
    {.name = "inf",
     .ops = O_SUM,
     .types = T_FLOAT,
     .variants = V_ALL,
     .values = "1 inf 2 -3",
     .notes = "+Inf absorbs every finite term."},
    {.name = "neg_inf", .ops = O_SUM, .types = T_FLOAT, .variants = V_INC | V_DEC_EXCL, .values = "-inf 1 2"},
    {.name = "inf_minus_inf",
     .ops = O_SUM,
     .types = T_FLOAT,
     .variants = V_INC | V_DEC | V_EXCL,
     .values = "inf 1 -inf 2",
     .notes = "+Inf and -Inf in one prefix give NaN."},
    {.name = "nan_and_inf", .ops = O_SUM, .types = T_FLOAT, .variants = V_INC, .values = "inf nan -inf"},
    {.name = "neg_zero",
     .ops = O_SUM,
     .types = T_FLOAT,
     .variants = V_ALL,
     .values = "-0.0 -0.0 -0.0 -0.0",
     .notes = "A sum of -0 terms only is -0; the exclusive scan starts at +0."},
    {.name = "mixed_zero",
     .ops = O_SUM,
     .types = T_FLOAT,
     .variants = V_INC | V_DEC,
     .values = "-0.0 0 -0.0 -0.0",
     .notes = "Once a +0 term joins, the exact zero sum is +0."},
    {.name = "cancel_to_zero",
     .ops = O_SUM,
     .types = T_FLOAT,
     .variants = V_INC | V_DEC,
     .values = "1.5 -1.5 -0.0 2",
     .notes = "An exact cancellation gives +0 (round to nearest)."},
    {.name = "subnormals",
     .ops = O_SUM,
     .types = T_FLOAT,
     .variants = V_INC | V_DEC_EXCL,
     .values = "tiny tiny tiny -tiny maxsub",
     .notes = "Subnormal sums are exact; an implementation that flushes them to zero is judged by the tolerance."},
    {.name = "subnormal_to_normal",
     .ops = O_SUM,
     .types = T_FLOAT,
     .variants = V_INC | V_DEC,
     .values = "maxsub tiny -min",
     .notes = "The largest subnormal plus the smallest subnormal is the smallest normal."},
    {.name = "max",
     .ops = O_SUM,
     .types = T_FLOAT,
     .variants = V_INC | V_DEC,
     .values = "max max -max -max",
     .notes = "In index order, the exact prefix overflows at the second element and comes back at the third."},
    {.name = "neg_max", .ops = O_SUM, .types = T_FLOAT, .variants = V_INC, .values = "-max -max"},
    {.name = "min_max",
     .ops = O_SUM,
     .types = T_FLOAT,
     .variants = V_INC | V_DEC,
     .values = "min max -max -min",
     .notes = "The smallest normal is lost in max + min but comes back exactly once max cancels."},
    {.name = "max_plus_half_ulp",
     .ops = O_SUM,
     .types = T_F32,
     .variants = V_INC | V_DEC,
     .values = "max 0x1p103",
     .notes = "FLT_MAX + 2^103 is the overflow threshold 2^128 (1 - 2^-25): it rounds to +Inf."},
    {.name = "max_plus_quarter_ulp",
     .ops = O_SUM,
     .types = T_F32,
     .variants = V_INC,
     .values = "max 0x1p102",
     .notes = "FLT_MAX + 2^102 stays below the threshold: FLT_MAX."},
    /* products */
    {.name = "nan", .ops = O_PROD, .types = T_FLOAT, .variants = V_ALL, .values = "2 nan 3"},
    {.name = "nan_payloads", .ops = O_PROD, .types = T_FLOAT, .variants = V_INC, .values = "snan 2 nanpay"},
    {.name = "zero_times_inf",
     .ops = O_PROD,
     .types = T_FLOAT,
     .variants = V_INC | V_DEC | V_EXCL,
     .values = "0 2 inf 3",
     .notes = "0 x Inf in a prefix gives NaN."},
    {.name = "inf_signs",
     .ops = O_PROD,
     .types = T_FLOAT,
     .variants = V_ALL,
     .values = "-2 inf 3 -1",
     .notes = "The sign of an infinite product is the XOR of the signs."},
    {.name = "neg_zero",
     .ops = O_PROD,
     .types = T_FLOAT,
     .variants = V_INC | V_DEC | V_EXCL,
     .values = "-0.0 5 -1 -0.0",
     .notes = "Zero products keep the XOR of the signs."},
    {.name = "overflow",
     .ops = O_PROD,
     .types = T_FLOAT,
     .variants = V_INC | V_DEC,
     .values = "max 2 0.5",
     .notes = "In index order, the exact prefix max * 2 overflows; max * 2 * 0.5 is max again."},
    {.name = "subnormal",
     .ops = O_PROD,
     .types = T_FLOAT,
     .variants = V_INC | V_DEC_EXCL,
     .values = "min 0.5 0.5 4",
     .notes = "Halving the smallest normal gives exact subnormals."},
    {.name = "tiny_half",
     .ops = O_PROD,
     .types = T_FLOAT,
     .variants = V_INC,
     .values = "tiny 0.5 4",
     .notes = "tiny * 0.5 is a tie between 0 and tiny: round to even gives +0; times 4 the exact prefix is 2 tiny."},
    {.name = "max_min", .ops = O_PROD, .types = T_FLOAT, .variants = V_INC, .values = "max min tiny"},
    {.name = "intermediate_underflow",
     .ops = O_PROD,
     .types = T_F32,
     .variants = V_INC | V_DEC,
     .values = "0x1p-100 0x1p-100 0x1p100 0x1p100",
     .notes = "The exact prefix is 1 at the end although a sequential product underflows to 0 at the second "
              "element; the comparator allows for that."},
    {.name = "intermediate_underflow",
     .ops = O_PROD,
     .types = T_F16,
     .variants = V_INC | V_DEC,
     .values = "0x1p-14 0x1p-14 0x1p14 0x1p14",
     .notes = "The exact prefix is 1 at the end although a sequential float16 product underflows to 0."},
};

static const edge_row integer_limit_rows[] = {
    /* sums */
    {.name = "max_plus_one",
     .ops = O_SUM,
     .types = T_INT,
     .variants = V_INC | V_DEC | V_EXCL,
     .values = "max 1 1",
     .notes = "The sum wraps modulo 2^w: max + 1 is min (signed) or 0 (unsigned)."},
    {.name = "min_minus_one", .ops = O_SUM, .types = T_SIGNED, .variants = V_INC | V_DEC_EXCL, .values = "min -1 -1"},
    {.name = "max_repeated", .ops = O_SUM, .types = T_INT, .variants = V_INC | V_DEC, .values = "max max max max max"},
    {.name = "min_repeated", .ops = O_SUM, .types = T_SIGNED, .variants = V_INC, .values = "min min min"},
    {.name = "max_back_and_forth",
     .ops = O_SUM,
     .types = T_SIGNED,
     .variants = V_INC | V_EXCL,
     .values = "max 1 -1 min -1 max",
     .notes = "Wrapping forward and back is exact in two's complement."},
    /* products */
    {.name = "min_times_minus_one",
     .ops = O_PROD,
     .types = T_SIGNED,
     .variants = V_ALL,
     .values = "min -1 -1",
     .notes = "min * -1 wraps to min."},
    {.name = "max_squared",
     .ops = O_PROD,
     .types = T_INT,
     .variants = V_INC | V_DEC | V_EXCL,
     .values = "max max max",
     .notes = "max * max is 1 modulo 2^w (for both 2^w - 1 and 2^(w-1) - 1)."},
    {.name = "half_word_squared",
     .ops = O_PROD,
     .types = T_I32 | T_U32,
     .variants = V_INC | V_DEC,
     .values = "65536 65536 3",
     .notes = "2^16 * 2^16 = 2^32 wraps to 0."},
    {.name = "half_word_squared",
     .ops = O_PROD,
     .types = T_I64 | T_U64,
     .variants = V_INC | V_DEC,
     .values = "4294967296 4294967296 3",
     .notes = "2^32 * 2^32 = 2^64 wraps to 0."},
    {.name = "inverse_of_three",
     .ops = O_PROD,
     .types = T_U32,
     .variants = V_INC,
     .values = "3 2863311531 5",
     .notes = "0xaaaaaaab is the inverse of 3 modulo 2^32."},
    {.name = "inverse_of_three",
     .ops = O_PROD,
     .types = T_I32,
     .variants = V_INC,
     .values = "3 -1431655765 5",
     .notes = "0xaaaaaaab (as int32) is the inverse of 3 modulo 2^32."},
    {.name = "inverse_of_three",
     .ops = O_PROD,
     .types = T_U64,
     .variants = V_INC,
     .values = "3 12297829382473034411 5",
     .notes = "0xaaaaaaaaaaaaaaab is the inverse of 3 modulo 2^64."},
    {.name = "inverse_of_three",
     .ops = O_PROD,
     .types = T_I64,
     .variants = V_INC,
     .values = "3 -6148914691236517205 5",
     .notes = "0xaaaaaaaaaaaaaaab (as int64) is the inverse of 3 modulo 2^64."},
    {.name = "square_root_boundary",
     .ops = O_PROD,
     .types = T_I32,
     .variants = V_INC,
     .values = "46340 46340 1 46341 46341",
     .notes = "46340^2 fits in int32; 46341^2 wraps."},
    {.name = "square_root_boundary",
     .ops = O_PROD,
     .types = T_I64,
     .variants = V_INC,
     .values = "3037000499 3037000499 1 3037000500 3037000500",
     .notes = "3037000499^2 fits in int64; 3037000500^2 wraps."},
    {.name = "doubling",
     .ops = O_PROD,
     .types = T_I32 | T_U32,
     .variants = V_INC | V_DEC_EXCL,
     .values = "2",
     .repeat = 34,
     .notes = "2^31 is min for int32; 2^32 wraps to 0."},
    {.name = "doubling",
     .ops = O_PROD,
     .types = T_I64 | T_U64,
     .variants = V_INC | V_DEC_EXCL,
     .values = "2",
     .repeat = 66,
     .notes = "2^63 is min for int64; 2^64 wraps to 0."},
};

static const edge_row range_rows[] = {
    {.name = "beyond_2048",
     .ops = O_SUM,
     .types = T_F16,
     .variants = V_INC | V_DEC_EXCL,
     .values = "1",
     .repeat = 3000,
     .notes = "Past 2048 float16 holds only even integers: the exact sums round (2049 to 2048, 2051 to 2052), while "
              "a float16 accumulator would stall at 2048."},
    {.name = "tenths",
     .ops = O_SUM,
     .types = T_F16,
     .variants = V_INC,
     .values = "0.0999755859375",
     .repeat = 4096,
     .notes = "float16(0.1) added 4096 times: every output is the exact sum rounded once."},
    {.name = "to_infinity",
     .ops = O_SUM,
     .types = T_F16,
     .variants = V_INC | V_DEC,
     .values = "32",
     .repeat = 2100,
     .notes = "32 * 2047 = 65504 is the largest float16; 32 * 2048 = 65536 is past the threshold 65520: +Inf."},
    {.name = "threshold",
     .ops = O_SUM,
     .types = T_F16,
     .variants = V_INC,
     .values = "65504 8 8 -65504",
     .notes = "65512 rounds down to 65504; 65520 is the overflow threshold (a tie, rounded to +Inf); the exact "
              "prefix then comes back to 16."},
    {.name = "neg_threshold", .ops = O_SUM, .types = T_F16, .variants = V_INC, .values = "-65504 -16"},
    {.name = "beyond_2p24",
     .ops = O_SUM,
     .types = T_F32,
     .variants = V_INC | V_DEC,
     .values = "16777216 1 1 1",
     .notes = "Past 2^24 float32 holds only even integers: 2^24 + 1 ties to 2^24, 2^24 + 3 to 2^24 + 4."},
    {.name = "doubling",
     .ops = O_PROD,
     .types = T_F16,
     .variants = V_INC | V_DEC | V_EXCL,
     .values = "2",
     .repeat = 20,
     .notes = "2^15 is the last finite power of two in float16; 2^16 overflows to +Inf."},
    {.name = "square_256",
     .ops = O_PROD,
     .types = T_F16,
     .variants = V_INC | V_DEC,
     .values = "256 256 0.25",
     .notes = "In index order, 256 * 256 overflows; the exact prefix times 0.25 is 16384 again."},
    {.name = "just_above_max",
     .ops = O_PROD,
     .types = T_F16,
     .variants = V_INC,
     .values = "255 257",
     .notes = "65535 is past the threshold 65520: +Inf."},
    {.name = "just_below_max",
     .ops = O_PROD,
     .types = T_F16,
     .variants = V_INC,
     .values = "255 256",
     .notes = "65280 is a float16."},
    {.name = "neg_overflow", .ops = O_PROD, .types = T_F16, .variants = V_INC | V_DEC_EXCL, .values = "-256 256 -1"},
    {.name = "underflow_ladder",
     .ops = O_PROD,
     .types = T_F16,
     .variants = V_INC,
     .values = "0x1p-8 0x1p-8 0x1p-8 0x1p-8",
     .notes = "2^-16 and 2^-24 are float16 subnormals; 2^-32 rounds to +0."},
    {.name = "doubling",
     .ops = O_PROD,
     .types = T_F32,
     .variants = V_INC | V_DEC_EXCL,
     .values = "2",
     .repeat = 130,
     .notes = "2^127 is the last finite power of two in float32; 2^128 overflows to +Inf."},
};

static const edge_row cancellation_rows[] = {
    {.name = "1e8",
     .ops = O_SUM,
     .types = T_F32,
     .variants = V_INC | V_DEC | V_EXCL,
     .values = "100000000 1 -100000000",
     .notes = "In index order, 1e8 + 1 rounds to 1e8, but the exact prefix 1e8 + 1 - 1e8 is 1."},
    {.name = "max_cancel",
     .ops = O_SUM,
     .types = T_FLOAT,
     .variants = V_INC | V_DEC,
     .values = "max max -max",
     .notes =
         "In index order, the exact prefix max + max - max is max again: the oracle says max at the third element."},
    {.name = "2p24", .ops = O_SUM, .types = T_F32, .variants = V_INC | V_DEC, .values = "16777216 1 -16777216"},
    {.name = "2p24_twice", .ops = O_SUM, .types = T_F32, .variants = V_INC, .values = "16777216 1 1 -16777216"},
    {.name = "one_plus_half_ulp",
     .ops = O_SUM,
     .types = T_F32,
     .variants = V_INC | V_DEC,
     .values = "1 0x1p-24 -1",
     .notes = "In index order, 1 + 2^-24 ties to 1; the exact prefix then leaves 2^-24."},
    {.name = "big_small_big",
     .ops = O_SUM,
     .types = T_F32,
     .variants = V_INC | V_DEC,
     .values = "0x1p100 1 -0x1p100 1"},
    {.name = "2048",
     .ops = O_SUM,
     .types = T_F16,
     .variants = V_INC | V_DEC,
     .values = "2048 1 -2048",
     .notes = "In index order, 2048 + 1 ties to 2048 in float16; the exact prefix then leaves 1."},
    {.name = "tiny_cancel",
     .ops = O_SUM,
     .types = T_FLOAT,
     .variants = V_INC | V_DEC,
     .values = "1 tiny -1",
     .notes = "The smallest subnormal survives the exact cancellation of 1."},
    {.name = "alternating",
     .ops = O_SUM,
     .types = T_F32,
     .variants = V_INC | V_EXCL,
     .values = "0x1p60 3 -0x1p60 0x1p60 5 -0x1p60 7"},
};

static const edge_row stride_rows[] = {
    {.name = "broadcast_rows",
     .ops = O_BOTH,
     .types = T_F32 | T_F16 | T_I32 | T_I64,
     .variants = V_INC | V_DEC_EXCL,
     .values = "1 2 -1 3 1 2 -1 3 1 2 -1 3",
     .rank = 2,
     .sizes = {3, 4},
     .axis = 0,
     .has_input_strides = true,
     .input_strides = {0, 1},
     .notes = "Input stride 0: the three rows read the same four stored elements."},
    {.name = "broadcast_columns",
     .ops = O_BOTH,
     .types = T_F32 | T_U32,
     .variants = V_INC | V_EXCL,
     .values = "2 2 2 2 3 3 3 3 1 1 1 1",
     .rank = 2,
     .sizes = {3, 4},
     .axis = 1,
     .has_input_strides = true,
     .input_strides = {1, 0},
     .notes = "Input stride 0 along the scanned axis: each line repeats one element."},
    {.name = "broadcast_scalar",
     .ops = O_BOTH,
     .types = T_F32 | T_F16 | T_I64,
     .variants = V_INC | V_DEC,
     .values = "3 3 3 3 3 3 3 3 3 3",
     .rank = 2,
     .sizes = {2, 5},
     .axis = 1,
     .has_input_strides = true,
     .input_strides = {0, 0},
     .notes = "Every logical element reads the same stored element."},
    {.name = "padded_input",
     .ops = O_BOTH,
     .types = T_F32 | T_I32,
     .variants = V_INC | V_DEC,
     .values = "1 2 -1 3 2 1 1 -2 3 1 2 1",
     .rank = 2,
     .sizes = {3, 4},
     .axis = 1,
     .has_input_strides = true,
     .input_strides = {6, 1},
     .notes = "Two elements of padding after each input row."},
    {.name = "padded_output",
     .ops = O_BOTH,
     .types = T_F32 | T_F16,
     .variants = V_INC | V_EXCL,
     .values = "1 2 -1 3 2 1 1 -2 3 1 2 1",
     .rank = 2,
     .sizes = {3, 4},
     .axis = 0,
     .has_output_strides = true,
     .output_strides = {8, 2},
     .notes = "Output elements two apart, rows eight apart: padding must be skipped."},
    {.name = "padded_both_r4",
     .ops = O_BOTH,
     .types = T_F32 | T_I32,
     .variants = V_INC | V_DEC_EXCL,
     .values = "1 2 -1 3 2 1 1 -2 3 1 2 1 -1 1 2 1 3 -1 1 2 1 1 -2 3",
     .rank = 4,
     .sizes = {1, 2, 3, 4},
     .axis = 2,
     .has_input_strides = true,
     .input_strides = {48, 24, 8, 2},
     .has_output_strides = true,
     .output_strides = {40, 20, 5, 1},
     .notes = "Different padding for input and output (4-D, so valid at the operators' first feature levels)."},
    {.name = "transposed_input",
     .ops = O_BOTH,
     .types = T_F32 | T_U64,
     .variants = V_INC | V_DEC,
     .values = "1 2 1 3 2 1 1 2 3 1 2 1",
     .rank = 2,
     .sizes = {3, 4},
     .axis = 1,
     .has_input_strides = true,
     .input_strides = {1, 3},
     .notes = "Column-major input: the scanned axis has stride 3."},
    {.name = "transposed_output",
     .ops = O_BOTH,
     .types = T_F32 | T_I32,
     .variants = V_INC | V_EXCL,
     .values = "1 2 -1 3 2 1 1 -2 3 1 2 1",
     .rank = 2,
     .sizes = {3, 4},
     .axis = 0,
     .has_output_strides = true,
     .output_strides = {1, 3},
     .notes = "Column-major output."},
    {.name = "size_one_stride",
     .ops = O_SUM,
     .types = T_F32 | T_I32,
     .variants = V_INC,
     .values = "1 2 3 4 5 6 7 8",
     .rank = 3,
     .sizes = {2, 1, 4},
     .axis = 2,
     .has_input_strides = true,
     .input_strides = {4, 1000, 1},
     .notes = "The stride of a size-1 dimension is never used."},
    {.name = "in_place",
     .ops = O_BOTH,
     .types = T_F32 | T_F16 | T_I32 | T_U64,
     .variants = V_DEC | V_EXCL,
     .values = "1 2 1 3 2 1 1 2 3 1 2 1",
     .rank = 2,
     .sizes = {2, 6},
     .axis = 1,
     .in_place = true,
     .notes = "The output is bound to the input's buffer."},
    {.name = "in_place_padded",
     .ops = O_BOTH,
     .types = T_F32 | T_I64,
     .variants = V_INC | V_DEC_EXCL,
     .values = "1 2 -1 3 2 1 1 -2 3 1 2 1",
     .rank = 2,
     .sizes = {3, 4},
     .axis = 0,
     .has_input_strides = true,
     .input_strides = {5, 1},
     .has_output_strides = true,
     .output_strides = {5, 1},
     .in_place = true,
     .notes = "In place with padded strides (identical for input and output)."},
    {.name = "in_place_r8",
     .ops = O_SUM,
     .types = T_F32 | T_U32,
     .variants = V_INC | V_DEC_EXCL,
     .values = "1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1",
     .rank = 8,
     .sizes = {2, 1, 2, 1, 2, 1, 2, 1},
     .axis = 6,
     .in_place = true},
    {.name = "broadcast_r8",
     .ops = O_BOTH,
     .types = T_F32 | T_I32,
     .variants = V_INC,
     .values = "1 2 -1 3 1 2 -1 3 1 2 -1 3 1 2 -1 3",
     .rank = 8,
     .sizes = {2, 1, 2, 1, 2, 1, 2, 1},
     .axis = 4,
     .has_input_strides = true,
     .input_strides = {0, 9, 0, 9, 2, 9, 1, 9}},
};

/* An edge file: its name, group token (part of ids and tags) and table. */
typedef struct edge_file
{
    const char *file;
    const char *group;
    const char *description;
    const edge_row *rows;
    size_t row_count;
} edge_file;

#define ROWS(table) table, sizeof(table) / sizeof(table[0])

static const edge_file edge_files[] = {
    {"size_one.yaml", "size-one", "# Size-1 axes and one-element tensors.\n", ROWS(size_one_rows)},
    {"float_specials.yaml", "specials",
     "# NaN (payloads included), +-Inf, signed zeros, subnormals and the largest and smallest finite\n"
     "# values, for float32 and float16 sums and products.\n",
     ROWS(float_special_rows)},
    {"integer_limits.yaml", "limits",
     "# Integer sums and products at the type limits: results wrap modulo 2^w in the input type.\n",
     ROWS(integer_limit_rows)},
    {"float_range.yaml", "range",
     "# Float sums and products growing past the exactly representable integers and past the largest\n"
     "# finite value (float16 above all: 2048 and 65504).\n",
     ROWS(range_rows)},
    {"cancellation.yaml", "cancellation",
     "# Cancellation: the oracle rounds the exact prefix once, so large terms that cancel leave the\n"
     "# small ones exactly.\n",
     ROWS(cancellation_rows)},
    {"strides.yaml", "strides",
     "# Strided tensors: broadcast inputs (stride 0; the logical input lists every element, equal where\n"
     "# they share storage), padded and transposed layouts, in-place execution.\n",
     ROWS(stride_rows)},
};

static int write_edge(const char *outdir)
{
    int status = 0;
    for (size_t i = 0; i < sizeof(edge_files) / sizeof(edge_files[0]); ++i)
    {
        const edge_file *e = &edge_files[i];
        yaml_file f;
        char description[1024];
        snprintf(description, sizeof(description),
                 "%s# Expected values are the oracle's (the exact prefix rounded once; NaN results are the canonical\n"
                 "# quiet NaN).\n",
                 e->description);
        file_begin(&f, e->file, description, " --edge", false, DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, false,
                   DMLCONF_DATA_TYPE_UNKNOWN);
        if (write_edge_rows(&f, e->group, e->rows, e->row_count))
        {
            f.failed = true;
            status = -1;
        }
        if (file_end(&f, outdir))
            status = -1;
    }
    return status;
}

/* ==== Negative cases (--negative) ========================================= */

/* One invalid desc and the reason DirectML must reject it with: at `level`,
 * or at every level when level is NONE. The dtype is a name, so that types
 * the operators never accept (uint16) can be written. */
typedef struct negative_row
{
    const char *name;
    dmlconf_operator op;
    const char *dtype;
    const char *output_dtype; /* NULL: the input's */
    uint32_t rank;
    uint32_t sizes[8];
    bool has_output_sizes;
    uint32_t output_rank;
    uint32_t output_sizes[8];
    uint32_t axis;
    bool has_input_strides;
    uint32_t input_strides[8];
    bool has_output_strides;
    uint32_t output_strides[8];
    bool in_place;
    dmlconf_reason reason;
    dmlconf_feature_level level;
    const char *notes;
} negative_row;

#define SUM   DMLCONF_OPERATOR_CUMULATIVE_SUMMATION
#define PROD  DMLCONF_OPERATOR_CUMULATIVE_PRODUCT
#define FL(x) DMLCONF_FEATURE_LEVEL_##x
#define R(x)  DMLCONF_REASON_##x

static const negative_row axis_rows[] = {
    {"sum.r4.axis4", SUM, "float32", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 4, .reason = R(AXIS_OUT_OF_RANGE),
     .notes = "Axis must be less than the dimension count: 4 is one past the last axis of a 4-D tensor."},
    {"prod.r4.axis4", PROD, "float32", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 4, .reason = R(AXIS_OUT_OF_RANGE)},
    {"sum.r1.axis1", SUM, "int32", .rank = 1, .sizes = {5}, .axis = 1, .reason = R(AXIS_OUT_OF_RANGE)},
    {"prod.r8.axis8", PROD, "float16", .rank = 8, .sizes = {1, 2, 1, 2, 1, 2, 1, 2}, .axis = 8,
     .reason = R(AXIS_OUT_OF_RANGE)},
    {"sum.r3.axis7", SUM, "uint32", .rank = 3, .sizes = {2, 3, 4}, .axis = 7, .reason = R(AXIS_OUT_OF_RANGE),
     .notes = "An axis well beyond the dimension count."},
    {"sum.r4.axis_max", SUM, "float32", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 4294967295u,
     .reason = R(AXIS_OUT_OF_RANGE), .notes = "UINT_MAX as the axis (a negative axis cast to UINT)."},
    {"prod.r2.axis2.int64", PROD, "int64", .rank = 2, .sizes = {2, 3}, .axis = 2, .reason = R(AXIS_OUT_OF_RANGE)},
};

static const negative_row data_type_rows[] = {
    {"sum.uint16", SUM, "uint16", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 3, .reason = R(DATA_TYPE_UNSUPPORTED),
     .notes = "The 2020/2021 reference pages list UINT16 for 4-D tensors; newer pages replace it by INT32. The "
              "operators reject UINT16 at every level."},
    {"sum.uint16.fl2_1", SUM, "uint16", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 3, .reason = R(DATA_TYPE_UNSUPPORTED),
     .level = FL(2_1), .notes = "UINT16 at the level of the old summation page's table (an erratum of that page)."},
    {"prod.uint16", PROD, "uint16", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 3, .reason = R(DATA_TYPE_UNSUPPORTED),
     .notes = "The 2021 product page lists UINT16 (an erratum); the operator rejects it at every level."},
    {"prod.uint16.fl3_1", PROD, "uint16", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 3,
     .reason = R(DATA_TYPE_UNSUPPORTED), .level = FL(3_1)},
    {"sum.uint16.r2", SUM, "uint16", .rank = 2, .sizes = {3, 4}, .axis = 1, .reason = R(DATA_TYPE_UNSUPPORTED)},
    {"sum.int16", SUM, "int16", .rank = 2, .sizes = {3, 4}, .axis = 0, .reason = R(DATA_TYPE_UNSUPPORTED)},
    {"sum.uint8", SUM, "uint8", .rank = 2, .sizes = {3, 4}, .axis = 0, .reason = R(DATA_TYPE_UNSUPPORTED)},
    {"prod.int8", PROD, "int8", .rank = 2, .sizes = {3, 4}, .axis = 1, .reason = R(DATA_TYPE_UNSUPPORTED)},
    {"sum.float64", SUM, "float64", .rank = 1, .sizes = {8}, .axis = 0, .reason = R(DATA_TYPE_UNSUPPORTED)},
    {"sum.output_float16", SUM, "float32", "float16", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 3,
     .reason = R(DATA_TYPE_MISMATCH), .notes = "The output must have the input's data type."},
    {"prod.output_float32", PROD, "float16", "float32", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 3,
     .reason = R(DATA_TYPE_MISMATCH)},
    {"sum.output_uint32", SUM, "int32", "uint32", .rank = 2, .sizes = {3, 4}, .axis = 1,
     .reason = R(DATA_TYPE_MISMATCH)},
    {"prod.output_int64", PROD, "int32", "int64", .rank = 2, .sizes = {3, 4}, .axis = 1,
     .reason = R(DATA_TYPE_MISMATCH), .notes = "No widening: the output keeps the input's type."},
    {"sum.output_uint64", SUM, "int64", "uint64", .rank = 2, .sizes = {3, 4}, .axis = 1,
     .reason = R(DATA_TYPE_MISMATCH)},
    {"sum.output_uint16", SUM, "float32", "uint16", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 3,
     .reason = R(DATA_TYPE_UNSUPPORTED), .notes = "An output type the operator never accepts."},
    {"sum.int64.fl4_1", SUM, "int64", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 3,
     .reason = R(DATA_TYPE_UNSUPPORTED_AT_LEVEL), .level = FL(4_1), .notes = "64-bit integers need feature level 5_0."},
    {"sum.int64.fl2_1", SUM, "int64", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 3,
     .reason = R(DATA_TYPE_UNSUPPORTED_AT_LEVEL), .level = FL(2_1)},
    {"sum.uint64.r3.fl4_0", SUM, "uint64", .rank = 3, .sizes = {2, 3, 4}, .axis = 2,
     .reason = R(DATA_TYPE_UNSUPPORTED_AT_LEVEL), .level = FL(4_0)},
    {"prod.uint64.fl4_0", PROD, "uint64", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 3,
     .reason = R(DATA_TYPE_UNSUPPORTED_AT_LEVEL), .level = FL(4_0)},
    {"prod.int64.fl3_1", PROD, "int64", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 3,
     .reason = R(DATA_TYPE_UNSUPPORTED_AT_LEVEL), .level = FL(3_1)},
    {"prod.int64.r1.fl4_1", PROD, "int64", .rank = 1, .sizes = {16}, .axis = 0,
     .reason = R(DATA_TYPE_UNSUPPORTED_AT_LEVEL), .level = FL(4_1)},
};

static const negative_row level_rows[] = {
    {"sum.r3.fl2_1", SUM, "float32", .rank = 3, .sizes = {1, 3, 4}, .axis = 2,
     .reason = R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL), .level = FL(2_1),
     .notes = "Below feature level 4_0 the operators take exactly 4 dimensions."},
    {"sum.r1.fl3_1", SUM, "float32", .rank = 1, .sizes = {12}, .axis = 0,
     .reason = R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL), .level = FL(3_1)},
    {"sum.r8.fl3_0", SUM, "int32", .rank = 8, .sizes = {1, 1, 1, 1, 1, 1, 3, 4}, .axis = 7,
     .reason = R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL), .level = FL(3_0)},
    {"sum.r5.float16.fl2_1", SUM, "float16", .rank = 5, .sizes = {1, 1, 1, 3, 4}, .axis = 4,
     .reason = R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL), .level = FL(2_1)},
    {"prod.r5.fl3_1", PROD, "float32", .rank = 5, .sizes = {1, 1, 1, 3, 4}, .axis = 3,
     .reason = R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL), .level = FL(3_1)},
    {"prod.r2.fl3_1", PROD, "uint32", .rank = 2, .sizes = {3, 4}, .axis = 1,
     .reason = R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL), .level = FL(3_1)},
    {"prod.r3.fl3_1", PROD, "float16", .rank = 3, .sizes = {2, 3, 4}, .axis = 0,
     .reason = R(DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL), .level = FL(3_1)},
    {"prod.fl3_0", PROD, "float32", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 3, .reason = R(OPERATOR_UNAVAILABLE),
     .level = FL(3_0), .notes = "CUMULATIVE_PRODUCT was introduced at feature level 3_1."},
    {"prod.fl2_1", PROD, "float32", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 3, .reason = R(OPERATOR_UNAVAILABLE),
     .level = FL(2_1)},
    {"prod.fl1_0", PROD, "int32", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 2, .reason = R(OPERATOR_UNAVAILABLE),
     .level = FL(1_0)},
    {"sum.fl2_0", SUM, "float32", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 3, .reason = R(OPERATOR_UNAVAILABLE),
     .level = FL(2_0), .notes = "CUMULATIVE_SUMMATION was introduced at feature level 2_1."},
    {"sum.fl1_0", SUM, "float16", .rank = 4, .sizes = {1, 1, 3, 4}, .axis = 3, .reason = R(OPERATOR_UNAVAILABLE),
     .level = FL(1_0)},
};

static const negative_row shape_rows[] = {
    {"sum.output_sizes", SUM, "float32", .rank = 4, .sizes = {1, 1, 3, 4}, .has_output_sizes = true, .output_rank = 4,
     .output_sizes = {1, 1, 4, 3}, .axis = 3, .reason = R(SIZES_MISMATCH),
     .notes = "The output must have the input's sizes."},
    {"prod.output_sizes", PROD, "int32", .rank = 2, .sizes = {2, 3}, .has_output_sizes = true, .output_rank = 2,
     .output_sizes = {2, 4}, .axis = 1, .reason = R(SIZES_MISMATCH)},
    {"sum.output_sizes.axis", SUM, "float16", .rank = 3, .sizes = {2, 3, 4}, .has_output_sizes = true, .output_rank = 3,
     .output_sizes = {2, 2, 4}, .axis = 1, .reason = R(SIZES_MISMATCH),
     .notes = "An output one element shorter along the axis (the total written nowhere) is still invalid."},
    {"sum.output_rank", SUM, "float32", .rank = 4, .sizes = {1, 1, 3, 4}, .has_output_sizes = true, .output_rank = 3,
     .output_sizes = {1, 3, 4}, .axis = 3, .reason = R(DIMENSION_COUNT_MISMATCH),
     .notes = "The output must have the input's dimension count."},
    {"sum.zero_size", SUM, "float32", .rank = 4, .sizes = {1, 0, 3, 4}, .axis = 3, .reason = R(ZERO_SIZE),
     .notes = "Every size must be at least 1."},
    {"prod.zero_size.axis", PROD, "float32", .rank = 1, .sizes = {0}, .axis = 0, .reason = R(ZERO_SIZE)},
    {"sum.zero_output_size", SUM, "int32", .rank = 2, .sizes = {2, 3}, .has_output_sizes = true, .output_rank = 2,
     .output_sizes = {2, 0}, .axis = 1, .reason = R(ZERO_SIZE)},
    {"sum.no_dimensions", SUM, "float32", .rank = 0, .axis = 0, .reason = R(DIMENSION_COUNT_INVALID),
     .notes = "A tensor has 1 to 8 dimensions."},
    {"sum.too_many_elements", SUM, "float32", .rank = 2, .sizes = {65536, 65536}, .axis = 1,
     .reason = R(TOO_MANY_ELEMENTS), .notes = "2^32 elements: one more than a tensor may hold."},
    {"prod.too_many_elements.r4", PROD, "float16", .rank = 4, .sizes = {256, 256, 256, 256}, .axis = 3,
     .reason = R(TOO_MANY_ELEMENTS)},
    {"sum.too_many_elements.r8", SUM, "uint32", .rank = 8, .sizes = {16, 16, 16, 16, 16, 16, 16, 17}, .axis = 0,
     .reason = R(TOO_MANY_ELEMENTS)},
    {"sum.too_many_elements.max", SUM, "int64", .rank = 2, .sizes = {4294967295u, 4294967295u}, .axis = 0,
     .reason = R(TOO_MANY_ELEMENTS)},
};

static const negative_row stride_rows_negative[] = {
    {"sum.input_size_overflow", SUM, "float32", .rank = 1, .sizes = {4294967295u}, .axis = 0, .has_input_strides = true,
     .input_strides = {4294967295u}, .reason = R(BUFFER_SIZE_OVERFLOW),
     .notes = "(2^32 - 2) * (2^32 - 1) + 1 elements of 4 bytes: the minimum buffer size overflows 64 bits."},
    {"prod.output_size_overflow", PROD, "int64", .rank = 1, .sizes = {4294967295u}, .axis = 0,
     .has_output_strides = true, .output_strides = {4294967295u}, .reason = R(BUFFER_SIZE_OVERFLOW)},
    {"sum.in_place.strides", SUM, "float32", .rank = 2, .sizes = {3, 4}, .axis = 1, .has_input_strides = true,
     .input_strides = {4, 1}, .has_output_strides = true, .output_strides = {8, 1}, .in_place = true,
     .reason = R(IN_PLACE_MISMATCH),
     .notes = "In-place execution needs identical input and output descs (strides and total size)."},
    {"prod.in_place.padded_input", PROD, "int32", .rank = 2, .sizes = {3, 4}, .axis = 0, .has_input_strides = true,
     .input_strides = {5, 1}, .in_place = true, .reason = R(IN_PLACE_MISMATCH)},
    {"sum.in_place.transposed_output", SUM, "float16", .rank = 2, .sizes = {3, 4}, .axis = 1,
     .has_output_strides = true, .output_strides = {1, 3}, .in_place = true, .reason = R(IN_PLACE_MISMATCH),
     .notes = "Same buffer size, different element order."},
};

typedef struct negative_file
{
    const char *file;
    const char *group;
    const char *description;
    const negative_row *rows;
    size_t row_count;
} negative_file;

static const negative_file negative_files[] = {
    {"axis.yaml", "axis", "# Axis values at and beyond the dimension count.\n", ROWS(axis_rows)},
    {"data_types.yaml", "data-type",
     "# Data types: never supported (UINT16, the old pages' erratum, and others), different output\n"
     "# types, and 64-bit integers below feature level 5_0.\n",
     ROWS(data_type_rows)},
    {"feature_levels.yaml", "feature-level",
     "# What older feature levels reject: dimension counts other than 4 below 4_0, the operators\n"
     "# below the levels that introduced them.\n",
     ROWS(level_rows)},
    {"shapes.yaml", "shape",
     "# Sizes: output sizes or rank different from the input's, zero sizes, too many elements.\n", ROWS(shape_rows)},
    {"strides.yaml", "strides",
     "# Strides whose minimum buffer size overflows, and in-place execution with different layouts.\n",
     ROWS(stride_rows_negative)},
};

static int write_negative_row(yaml_file *f, const char *group, const negative_row *row)
{
    gen_case c;
    dmlconf_data_type type, output_type;
    if (!dmlconf_data_type_from_name(row->dtype, &type) ||
        (row->output_dtype && !dmlconf_data_type_from_name(row->output_dtype, &output_type)))
    {
        fprintf(stderr, "gen_corpus: %s: unknown data type\n", row->name);
        return -1;
    }
    case_init(&c, row->op, type, row->rank, row->sizes, row->axis, false, false);
    snprintf(c.id, sizeof(c.id), "neg.%s.%s", group, row->name);
    snprintf(c.tags, sizeof(c.tags), "negative, %s, %s", op_long(row->op), group);
    c.notes = row->notes;
    c.negative = true;
    c.write_min_level = false;
    c.reason = row->reason;
    c.reason_level = row->level;
    if (row->output_dtype)
        c.desc.output.data_type = output_type;
    if (row->has_output_sizes)
    {
        c.desc.output.dimension_count = row->output_rank;
        memcpy(c.desc.output.sizes, row->output_sizes, sizeof(c.desc.output.sizes));
    }
    c.desc.input.has_strides = row->has_input_strides;
    memcpy(c.desc.input.strides, row->input_strides, sizeof(c.desc.input.strides));
    c.desc.output.has_strides = row->has_output_strides;
    memcpy(c.desc.output.strides, row->output_strides, sizeof(c.desc.output.strides));
    c.desc.in_place = row->in_place;
    int status = file_add(f, &c);
    case_free(&c);
    return status;
}

static int write_negative(const char *outdir)
{
    int status = 0;
    for (size_t i = 0; i < sizeof(negative_files) / sizeof(negative_files[0]); ++i)
    {
        const negative_file *n = &negative_files[i];
        yaml_file f;
        char description[1024];
        snprintf(description, sizeof(description),
                 "%s# Each case names the reason (the oracle's dmlconf_reason_name) that DirectML must reject it\n"
                 "# with: at every feature level, or at the one given. They have no data: nothing runs.\n",
                 n->description);
        file_begin(&f, n->file, description, " --negative", false, SUM, false, DMLCONF_DATA_TYPE_UNKNOWN);
        for (size_t r = 0; r < n->row_count; ++r)
        {
            if (write_negative_row(&f, n->group, &n->rows[r]))
            {
                f.failed = true;
                status = -1;
            }
        }
        if (file_end(&f, outdir))
            status = -1;
    }
    return status;
}

/* ==== main ================================================================ */

/* Writes one part of the corpus into an existing folder (see the file
 * comment). Exits 0 on success, 1 when a case cannot be generated or a file
 * cannot be written (messages on stderr), 2 on a usage error. */
int main(int argc, char **argv)
{
    const char *mode = "conformance", *outdir = NULL;
    if (argc == 2)
        outdir = argv[1];
    else if (argc == 3 && (!strcmp(argv[1], "--edge") || !strcmp(argv[1], "--negative")))
    {
        mode = argv[1] + 2;
        outdir = argv[2];
    }
    if (!outdir || outdir[0] == '-')
    {
        fprintf(stderr, "usage: dmlconf_gen_corpus [--edge | --negative] OUTDIR\n"
                        "  writes cases/conformance (default), cases/edge or cases/negative into OUTDIR\n");
        return 2;
    }
    int status = 0;
    if (!strcmp(mode, "conformance"))
        status = write_conformance(outdir);
    else if (!strcmp(mode, "edge"))
        status = write_edge(outdir);
    else
        status = write_negative(outdir);
    return status ? 1 : 0;
}
