/*
 * load_cases: a harness of your own over dmlconf's corpus, through the
 * installed case library (dmlconf/case.h) and oracle (dmlconf/oracle.h).
 *
 * It loads the case files under its arguments (files or folders), prints
 * every diagnostic, and for each positive case laid out packed (no strides,
 * not in place) with expected values that must match bit for bit, reads the
 * input, computes it with "the implementation under test" (here the oracle
 * stands in for yours: replace compute_under_test) and compares the output
 * with the case's expected values. Every other case is counted and left to
 * `dmlconf run`, which judges all of them (tolerances, strides, in-place
 * execution, negative cases).
 *
 *   load_cases "$(pkg-config --variable=casesdir dmlconf-cases)"
 *
 * Built with CMake against an installed dmlconf (CMakeLists.txt), it loads
 * the corpus installed with it when given no path.
 *
 * Exit status: 0 every checked case matched, 1 a mismatch, 2 a case file did
 * not load or nothing was checked.
 */
#include <dmlconf/case.h>
#include <dmlconf/oracle.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cases larger than this are left to dmlconf run (it reads them in chunks). */
#define MAX_ELEMENTS (UINT64_C(1) << 20)

/* The implementation under test: computes c's operator over the packed
 * `input` into the packed `output`. Returns 0, or -1 with a message in
 * `why`. */
static int compute_under_test(const dmlconf_case *c, const void *input, size_t input_bytes, void *output,
                              size_t output_bytes, char *why, size_t why_size)
{
    dmlconf_error err;
    if (dmlconf_compute(&c->desc, input, input_bytes, output, output_bytes, NULL, &err))
    {
        snprintf(why, why_size, "%s", err.message);
        return -1;
    }
    return 0;
}

/* Whether two elements of `type` are the same value for a bit-exact check:
 * the same bits, two NaNs, or (unless strict_zero) +0 and -0. */
static bool same_value(dmlconf_data_type type, const unsigned char *a, const unsigned char *b, size_t size,
                       bool strict_zero)
{
    if (!memcmp(a, b, size))
        return true;
    uint32_t x = 0, y = 0, exponent_mask, magnitude_mask;
    if (type == DMLCONF_DATA_TYPE_FLOAT32)
    {
        x = (uint32_t)a[0] | (uint32_t)a[1] << 8 | (uint32_t)a[2] << 16 | (uint32_t)a[3] << 24;
        y = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        exponent_mask = 0x7f800000u;
        magnitude_mask = 0x7fffffffu;
    }
    else if (type == DMLCONF_DATA_TYPE_FLOAT16)
    {
        x = (uint32_t)a[0] | (uint32_t)a[1] << 8;
        y = (uint32_t)b[0] | (uint32_t)b[1] << 8;
        exponent_mask = 0x7c00u;
        magnitude_mask = 0x7fffu;
    }
    else
        return false; /* integers: bits only */
    bool x_nan = (x & magnitude_mask) > exponent_mask, y_nan = (y & magnitude_mask) > exponent_mask;
    if (x_nan && y_nan)
        return true;
    return !strict_zero && (x & magnitude_mask) == 0 && (y & magnitude_mask) == 0;
}

typedef enum outcome
{
    OUTCOME_LEFT,     /* not checked here: left to dmlconf run */
    OUTCOME_MATCHED,  /* every element matched */
    OUTCOME_MISMATCH, /* an element differed, or the run failed */
} outcome;

/* Checks one case, printing why it failed. */
static outcome check_case(const dmlconf_case *c)
{
    const dmlconf_scan_desc *desc = &c->desc;
    if (c->expect_error.set || desc->input.has_strides || desc->output.has_strides || desc->in_place ||
        c->expected.kind == DMLCONF_CASE_DATA_NONE || desc->output.data_type != desc->input.data_type)
        return OUTCOME_LEFT;
    dmlconf_tolerance tolerance;
    dmlconf_case_judging_tolerance(c, true, &tolerance);
    uint64_t count = dmlconf_case_element_count(c);
    size_t size = dmlconf_case_element_size(c);
    if (!tolerance.bit_exact || count == 0 || count > MAX_ELEMENTS || size == 0)
        return OUTCOME_LEFT;

    outcome result = OUTCOME_MISMATCH;
    /* A buffer holds its tensor's minimum size: the packed elements rounded
     * up to 4 bytes, as DirectML requires. */
    uint64_t input_bytes = 0, output_bytes = 0;
    if (!dmlconf_tensor_min_size_bytes(&desc->input, &input_bytes) ||
        !dmlconf_tensor_min_size_bytes(&desc->output, &output_bytes))
        return OUTCOME_LEFT;
    unsigned char *input = calloc(1, (size_t)input_bytes), *output = calloc(1, (size_t)output_bytes);
    unsigned char *expected = malloc((size_t)count * size);
    char why[512];
    if (!input || !output || !expected)
    {
        fprintf(stderr, "%s: out of memory\n", c->id);
        goto done;
    }
    if (dmlconf_case_data_read(c, &c->input, 0, count, input, why, sizeof(why)) ||
        dmlconf_case_data_read(c, &c->expected, 0, count, expected, why, sizeof(why)) ||
        compute_under_test(c, input, (size_t)input_bytes, output, (size_t)output_bytes, why, sizeof(why)))
    {
        fprintf(stderr, "%s:%u: %s: %s\n", c->file, (unsigned)c->mark.line, c->id, why);
        goto done;
    }
    for (uint64_t i = 0; i < count; ++i)
    {
        if (!same_value(desc->output.data_type, output + i * size, expected + i * size, size,
                        tolerance.strict_signed_zero))
        {
            fprintf(stderr, "%s:%u: %s: element %llu differs from the expected value\n", c->file,
                    (unsigned)c->mark.line, c->id, (unsigned long long)i);
            goto done;
        }
    }
    result = OUTCOME_MATCHED;
done:
    free(input);
    free(output);
    free(expected);
    return result;
}

int main(int argc, char **argv)
{
    const char *const *paths = (const char *const *)(argv + 1);
    size_t path_count = (size_t)(argc - 1);
#ifdef DMLCONF_CASES_DIR
    /* Built with CMake against an installed dmlconf: its corpus by default. */
    static const char *const installed[] = {DMLCONF_CASES_DIR};
    if (path_count == 0)
    {
        paths = installed;
        path_count = 1;
    }
#endif
    if (path_count == 0)
    {
        fprintf(stderr, "usage: load_cases PATH...  (case files, or folders searched for *.yaml)\n");
        return 2;
    }
    dmlconf_case_corpus corpus;
    size_t errors = dmlconf_case_corpus_load(&corpus, paths, path_count, NULL);
    dmlconf_case_corpus_print(&corpus, NULL, stderr);

    size_t counts[3] = {0, 0, 0};
    for (size_t f = 0; f < corpus.file_count; ++f)
        for (size_t i = 0; i < corpus.files[f].case_count; ++i)
            counts[check_case(&corpus.files[f].cases[i])]++;

    printf("load_cases: %zu cases in %zu files, %zu load errors; %zu checked bit for bit (%zu matched, %zu did "
           "not); %zu left to dmlconf run\n",
           corpus.case_count, corpus.file_count, errors, counts[OUTCOME_MATCHED] + counts[OUTCOME_MISMATCH],
           counts[OUTCOME_MATCHED], counts[OUTCOME_MISMATCH], counts[OUTCOME_LEFT]);
    dmlconf_case_corpus_free(&corpus);
    if (counts[OUTCOME_MISMATCH])
        return 1;
    return errors || counts[OUTCOME_MATCHED] == 0 ? 2 : 0;
}
