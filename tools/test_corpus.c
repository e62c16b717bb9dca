/*
 * dmlconf_test_corpus: keeps the committed case corpus honest.
 *
 *   dmlconf_test_corpus PATH...   (folders or files; cases/doc, cases/conformance, ...)
 *
 * 1. Loads every case file; any diagnostic (error or note) fails the test.
 * 2. Runs the oracle on every valid positive case. Where a case has expected
 *    values (inline or .npy), they must equal the oracle's output bit for bit.
 * 3. Cases tagged "exact" with float data must really be exact by
 *    construction: every summation or multiplication order in float32 gives
 *    the same bits (sums need sum|x| < 2^(q+24) by the oracle's side data;
 *    products need the odd parts of a line's significands to fit in 24 bits
 *    together and every contiguous partial product in the normal range), and
 *    float16 results equal the float32 computation of the same data (so no
 *    rounding happens at all).
 *
 * Prints one line per problem (file:line: case id: what) and a summary;
 * exits 0 when there is none, 1 otherwise, 2 on a usage or memory error.
 */
#include <dmlconf/case.h>
#include <dmlconf/oracle.h>
#include <dmlconf/values.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Counters of one run. */
typedef struct tally
{
    size_t computed;
    size_t compared;
    size_t exact_checked;
    size_t problems;
} tally;

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

static uint64_t buffer_bytes(const dmlconf_tensor_desc *desc)
{
    uint64_t bytes = 0;
    dmlconf_tensor_min_size_bytes(desc, &bytes);
    return desc->total_size_bytes > bytes ? desc->total_size_bytes : bytes;
}

static void report(tally *t, const dmlconf_case *c, const char *format, const char *detail)
{
    fprintf(stderr, "%s:%" PRIu32 ": case %s: %s%s\n", c->file, c->mark.line, c->id, format, detail ? detail : "");
    t->problems++;
}

/* Runs the oracle on `input` (logical order) for `desc` and writes the
 * outputs in logical order to `output`, the side data to `side` (may be
 * NULL). Returns 0, or -1 with a message in err. */
static int run_oracle(const dmlconf_scan_desc *desc, uint64_t n, const unsigned char *input, unsigned char *output,
                      dmlconf_side_data *side, dmlconf_error *err)
{
    size_t element = dmlconf_data_type_bits(desc->input.data_type) / 8;
    uint64_t in_bytes = buffer_bytes(&desc->input), out_bytes = buffer_bytes(&desc->output);
    unsigned char *in = calloc((size_t)in_bytes ? (size_t)in_bytes : 1u, 1);
    unsigned char *out = desc->in_place ? in : calloc((size_t)out_bytes ? (size_t)out_bytes : 1u, 1);
    int status = -1;

    if (!in || !out)
    {
        snprintf(err->message, sizeof(err->message), "out of memory");
        goto done;
    }
    for (uint64_t i = 0; i < n; ++i)
        memcpy(in + storage_offset(&desc->input, i) * element, input + i * element, element);
    if (dmlconf_compute(desc, in, (size_t)in_bytes, out, (size_t)out_bytes, side, err))
        goto done;
    for (uint64_t i = 0; i < n; ++i)
        memcpy(output + i * element, out + storage_offset(&desc->output, i) * element, element);
    status = 0;

done:
    if (out != in)
        free(out);
    free(in);
    return status;
}

static bool has_tag(const dmlconf_case *c, const char *tag)
{
    for (size_t i = 0; i < c->tag_count; ++i)
    {
        if (!strcmp(c->tags[i], tag))
            return true;
    }
    return false;
}

/* Bit width of the odd part of a finite nonzero float's significand (0 for
 * a power of two, whose odd part is 1). */
static unsigned odd_part_bits(dmlconf_data_type type, const unsigned char *element)
{
    uint32_t significand;
    if (type == DMLCONF_DATA_TYPE_FLOAT32)
    {
        uint32_t bits;
        memcpy(&bits, element, 4);
        if ((bits & 0x7f800000u) == 0x7f800000u)
            return 0;
        significand = (bits & 0x7fffffu) | ((bits & 0x7f800000u) ? 0x800000u : 0u);
    }
    else
    {
        uint16_t bits;
        memcpy(&bits, element, 2);
        if ((bits & 0x7c00u) == 0x7c00u)
            return 0;
        significand = (bits & 0x3ffu) | ((bits & 0x7c00u) ? 0x400u : 0u);
    }
    if (significand == 0)
        return 0;
    while (!(significand & 1u))
        significand >>= 1;
    unsigned width = 0;
    for (; significand > 1u; significand >>= 1)
        ++width;
    return width ? width + 1 : 0;
}

/* Products: the odd parts of every line's terms, multiplied, fit in float32's
 * 24 significand bits (an upper bound: the sum of their widths), so every
 * sub-product of the line is exact. Returns false with *where at the line's
 * first logical element otherwise. */
static bool product_odd_parts_fit(const dmlconf_case *c, const unsigned char *input, uint64_t *where)
{
    dmlconf_tensor_desc packed = c->desc.input;
    size_t element = dmlconf_data_type_bits(packed.data_type) / 8;
    packed.has_strides = false;
    uint64_t lines = dmlconf_line_count(&packed, c->desc.axis), n = packed.sizes[c->desc.axis];
    for (uint64_t line = 0; line < lines; ++line)
    {
        uint64_t first, step, bits = 0;
        dmlconf_line_layout(&packed, c->desc.axis, line, &first, &step, NULL, NULL);
        for (uint64_t j = 0; j < n; ++j)
            bits += odd_part_bits(packed.data_type, input + (first + j * step) * element);
        if (bits > 24)
        {
            *where = first;
            return false;
        }
    }
    return true;
}

/* The side-data half of the exactness check (float32 accumulation): sums
 * need sum|x| < 2^(q + 24); products need every contiguous partial product
 * in float32's normal range (or a zero term). */
static bool side_says_exact(const dmlconf_case *c, const dmlconf_side_data *side, uint64_t n, uint64_t *where)
{
    bool product = c->desc.op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    for (uint64_t i = 0; i < n; ++i)
    {
        const dmlconf_side_data *s = &side[i];
        if (s->terms == 0 || s->specials & ~(uint32_t)DMLCONF_SPECIAL_ZERO)
            continue;
        bool ok;
        if (product)
            ok = (s->specials & DMLCONF_SPECIAL_ZERO) || (s->log2_min_partial >= -126.0 && s->log2_max_partial < 128.0);
        else
            ok = s->min_lsb_exponent == INT32_MAX || s->abs_sum < ldexp(1.0, s->min_lsb_exponent + 24);
        if (!ok)
        {
            *where = i;
            return false;
        }
    }
    return true;
}

/* The float16 half: the float16 results equal the float32 computation of
 * the widened data. */
static int float16_matches_float32(const dmlconf_case *c, uint64_t n, const unsigned char *input,
                                   const unsigned char *output, uint64_t *where, dmlconf_error *err)
{
    dmlconf_scan_desc wide = c->desc;
    wide.input.data_type = wide.output.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    wide.input.total_size_bytes = wide.output.total_size_bytes = 0;
    float *in = malloc((size_t)n * sizeof(float)), *out = malloc((size_t)n * sizeof(float));
    int status = -1;
    if (!in || !out)
    {
        snprintf(err->message, sizeof(err->message), "out of memory");
        goto done;
    }
    for (uint64_t i = 0; i < n; ++i)
    {
        uint16_t h;
        memcpy(&h, input + i * 2, 2);
        in[i] = dmlconf_half_to_float(h);
    }
    if (run_oracle(&wide, n, (const unsigned char *)in, (unsigned char *)out, NULL, err))
        goto done;
    status = 0;
    for (uint64_t i = 0; i < n; ++i)
    {
        uint16_t h;
        memcpy(&h, output + i * 2, 2);
        float narrow = dmlconf_half_to_float(h);
        if (memcmp(&narrow, &out[i], sizeof(float)) != 0)
        {
            *where = i;
            status = 1;
            break;
        }
    }

done:
    free(in);
    free(out);
    return status;
}

static void check_case(const dmlconf_case *c, tally *t)
{
    uint64_t n = dmlconf_case_element_count(c);
    size_t element = dmlconf_case_element_size(c);
    dmlconf_data_type type = c->desc.input.data_type;
    bool exact = has_tag(c, "exact") && dmlconf_data_type_is_float(type);
    unsigned char *input = malloc((size_t)n * element), *output = malloc((size_t)n * element);
    unsigned char *expected = NULL;
    dmlconf_side_data *side = exact ? malloc((size_t)n * sizeof(*side)) : NULL;
    char why[256], text[2 * DMLCONF_VALUE_TEXT_SIZE + 96];
    dmlconf_error err;
    uint64_t where = 0;

    if (!input || !output || (exact && !side))
    {
        report(t, c, "out of memory", NULL);
        goto done;
    }
    if (dmlconf_case_data_read(c, &c->input, 0, n, input, why, sizeof(why)))
    {
        report(t, c, "cannot read the input: ", why);
        goto done;
    }
    if (run_oracle(&c->desc, n, input, output, side, &err))
    {
        report(t, c, "the oracle fails: ", err.message);
        goto done;
    }
    t->computed++;

    if (c->expected.kind != DMLCONF_CASE_DATA_NONE)
    {
        expected = malloc((size_t)n * element);
        if (!expected)
        {
            report(t, c, "out of memory", NULL);
            goto done;
        }
        if (dmlconf_case_data_read(c, &c->expected, 0, n, expected, why, sizeof(why)))
        {
            report(t, c, "cannot read the expected values: ", why);
            goto done;
        }
        t->compared++;
        for (uint64_t i = 0; i < n; ++i)
        {
            if (memcmp(expected + i * element, output + i * element, element) != 0)
            {
                char want[DMLCONF_VALUE_TEXT_SIZE], got[DMLCONF_VALUE_TEXT_SIZE];
                dmlconf_value_format(type, expected + i * element, DMLCONF_VALUE_STYLE_READABLE, want, sizeof(want));
                dmlconf_value_format(type, output + i * element, DMLCONF_VALUE_STYLE_READABLE, got, sizeof(got));
                snprintf(text, sizeof(text), "element %" PRIu64 " is %s in the file but %s from the oracle", i, want,
                         got);
                report(t, c, "expected values differ from the oracle: ", text);
                break;
            }
        }
    }

    if (exact)
    {
        t->exact_checked++;
        if (!side_says_exact(c, side, n, &where) ||
            (c->desc.op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT && !product_odd_parts_fit(c, input, &where)))
        {
            snprintf(text, sizeof(text), "element %" PRIu64, where);
            report(t, c, "tagged exact, but some order of operations may round at ", text);
        }
        else if (type == DMLCONF_DATA_TYPE_FLOAT16)
        {
            int status = float16_matches_float32(c, n, input, output, &where, &err);
            if (status < 0)
                report(t, c, "the float32 check fails: ", err.message);
            else if (status > 0)
            {
                snprintf(text, sizeof(text), "element %" PRIu64 " rounds in float16", where);
                report(t, c, "tagged exact, but ", text);
            }
        }
    }

done:
    free(input);
    free(output);
    free(expected);
    free(side);
}

static size_t diagnostic_count(const dmlconf_case_corpus *corpus)
{
    size_t count = corpus->diagnostics.count;
    for (size_t i = 0; i < corpus->file_count; ++i)
        count += corpus->files[i].diagnostics.count;
    return count;
}

/* Loads the paths given on the command line and checks every case. */
int main(int argc, char **argv)
{
    if (argc < 2)
    {
        fprintf(stderr, "usage: dmlconf_test_corpus PATH...\n");
        return 2;
    }
    dmlconf_case_corpus corpus;
    tally t = {0, 0, 0, 0};
    size_t negative = 0;

    dmlconf_case_corpus_load(&corpus, (const char *const *)(argv + 1), (size_t)(argc - 1), NULL);
    size_t diagnostics = diagnostic_count(&corpus);
    if (diagnostics)
    {
        dmlconf_case_corpus_print(&corpus, NULL, stderr);
        fprintf(stderr, "%zu diagnostics while loading the corpus\n", diagnostics);
        t.problems += diagnostics;
    }
    if (corpus.case_count == 0)
    {
        fprintf(stderr, "no cases loaded\n");
        t.problems++;
    }

    for (size_t f = 0; f < corpus.file_count; ++f)
    {
        const dmlconf_case_file *file = &corpus.files[f];
        for (size_t i = 0; i < file->case_count; ++i)
        {
            if (file->cases[i].expect_error.set)
                negative++;
            else
                check_case(&file->cases[i], &t);
        }
    }

    printf("%zu files, %zu cases (%zu negative); oracle run on %zu, expected values compared on %zu, exactness "
           "checked on %zu; %zu problems\n",
           corpus.file_count, corpus.case_count, negative, t.computed, t.compared, t.exact_checked, t.problems);
    dmlconf_case_corpus_free(&corpus);
    return t.problems ? 1 : 0;
}
