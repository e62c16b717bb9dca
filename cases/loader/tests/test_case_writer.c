/*
 * Tests of the case writer (dmlconf/case_writer.h): every case of the corpus
 * (every case file under cases/ but cases/limits) loaded, written, loaded
 * again and compared with the first load field by field and value by value,
 * bit for bit, in both value styles; the exact text of the corpus's layout;
 * notes, tags and paths that need quoting; .npy data; comments; and the
 * cases the writer refuses.
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <dmlconf/case.h>
#include <dmlconf/case_writer.h>
#include <dmlconf/npy.h>
#include <dmlconf/text.h>
#include <dmlconf/values.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef DMLCONF_CASES_DIR
#error "DMLCONF_CASES_DIR must name the cases folder"
#endif

/* ---- comparing two cases ------------------------------------------------------------ */

/* Appends a difference to `why` (the first one is enough to fail). */
#define DIFFER(...)                                                                                                    \
    do                                                                                                                 \
    {                                                                                                                  \
        snprintf(why, why_size, __VA_ARGS__);                                                                          \
        return false;                                                                                                  \
    } while (0)

static bool same_tensor(const char *name, const dmlconf_tensor_desc *a, const dmlconf_tensor_desc *b, char *why,
                        size_t why_size)
{
    if (a->data_type != b->data_type)
        DIFFER("%s data type %d, then %d", name, (int)a->data_type, (int)b->data_type);
    if (a->dimension_count != b->dimension_count)
        DIFFER("%s rank %u, then %u", name, a->dimension_count, b->dimension_count);
    if (a->has_strides != b->has_strides)
        DIFFER("%s has_strides %d, then %d", name, a->has_strides, b->has_strides);
    if (a->total_size_bytes != b->total_size_bytes)
        DIFFER("%s total size %llu, then %llu", name, (unsigned long long)a->total_size_bytes,
               (unsigned long long)b->total_size_bytes);
    for (uint32_t d = 0; d < a->dimension_count && d < DMLCONF_MAX_DIMENSIONS; ++d)
    {
        if (a->sizes[d] != b->sizes[d])
            DIFFER("%s size %u: %u, then %u", name, d, a->sizes[d], b->sizes[d]);
        if (a->has_strides && a->strides[d] != b->strides[d])
            DIFFER("%s stride %u: %u, then %u", name, d, a->strides[d], b->strides[d]);
    }
    return true;
}

static bool same_generator(const dmlconf_datagen_spec *a, const dmlconf_datagen_spec *b)
{
    return a->type == b->type && a->kind == b->kind && a->keys == b->keys && a->seed == b->seed &&
           a->scale == b->scale && a->emin == b->emin && a->emax == b->emax && !memcmp(a->min, b->min, 8) &&
           !memcmp(a->max, b->max, 8) && !memcmp(a->mean, b->mean, 8) && !memcmp(a->stddev, b->stddev, 8) &&
           !memcmp(a->value, b->value, 8) && !memcmp(a->start, b->start, 8) && !memcmp(a->step, b->step, 8);
}

static bool same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool same_data(const char *name, const dmlconf_case *ca, const dmlconf_case_data *a, const dmlconf_case_data *b,
                      char *why, size_t why_size)
{
    if (a->kind != b->kind)
        DIFFER("%s kind %d, then %d", name, (int)a->kind, (int)b->kind);
    switch (a->kind)
    {
    case DMLCONF_CASE_DATA_INLINE:
        if (a->count != b->count)
            DIFFER("%s has %llu values, then %llu", name, (unsigned long long)a->count, (unsigned long long)b->count);
        for (uint64_t i = 0; i < a->count; ++i)
        {
            size_t size = dmlconf_case_element_size(ca);
            const unsigned char *x = (const unsigned char *)a->values + i * size;
            const unsigned char *y = (const unsigned char *)b->values + i * size;
            if (memcmp(x, y, size))
            {
                char tx[DMLCONF_VALUE_TEXT_SIZE], ty[DMLCONF_VALUE_TEXT_SIZE];
                dmlconf_value_format(ca->desc.input.data_type, x, DMLCONF_VALUE_STYLE_BITS, tx, sizeof(tx));
                dmlconf_value_format(ca->desc.input.data_type, y, DMLCONF_VALUE_STYLE_BITS, ty, sizeof(ty));
                DIFFER("%s value %llu: %s, then %s", name, (unsigned long long)i, tx, ty);
            }
        }
        return true;
    case DMLCONF_CASE_DATA_NPY:
        if (!same_text(a->npy_text, b->npy_text) || !same_text(a->npy_path, b->npy_path) ||
            a->npy_data_offset != b->npy_data_offset)
            DIFFER("%s .npy '%s', then '%s'", name, a->npy_text, b->npy_text);
        return true;
    case DMLCONF_CASE_DATA_GENERATOR:
        if (!same_generator(&a->generator, &b->generator))
            DIFFER("%s: another generator", name);
        return true;
    case DMLCONF_CASE_DATA_NONE:
        return true;
    }
    DIFFER("%s: unknown kind", name);
}

static bool same_double(double a, double b)
{
    return !memcmp(&a, &b, sizeof(a));
}

static bool same_tolerance(const dmlconf_tolerance *a, const dmlconf_tolerance *b)
{
    return same_double(a->ulp, b->ulp) && a->accumulation == b->accumulation && a->ftz == b->ftz &&
           a->strict_signed_zero == b->strict_signed_zero && a->bit_exact == b->bit_exact && a->form == b->form &&
           same_double(a->atol, b->atol) && same_double(a->rtol, b->rtol) && same_double(a->ulp_count, b->ulp_count) &&
           a->ulp_count_axis_length_minus_1 == b->ulp_count_axis_length_minus_1 && a->has_canary == b->has_canary &&
           a->canary_bits == b->canary_bits;
}

/* Whether a tolerance can mean anything in the case (the writer writes it
 * only then; the loader keeps a default one everywhere). */
static bool tolerance_applies(const dmlconf_case *c)
{
    dmlconf_data_type type = c->desc.input.data_type;
    return !c->expect_error.set && (type == DMLCONF_DATA_TYPE_FLOAT32 || type == DMLCONF_DATA_TYPE_FLOAT16);
}

/* Compares every field of the case model, bit for bit; the marks (where
 * the text was) and flow_style (how it was written) are not compared. */
static bool same_case(const dmlconf_case *a, const dmlconf_case *b, char *why, size_t why_size)
{
    if (!same_text(a->id, b->id))
        DIFFER("id '%s', then '%s'", a->id, b->id);
    if (!same_text(a->file, b->file))
        DIFFER("file '%s', then '%s'", a->file, b->file);
    const dmlconf_scan_desc *x = &a->desc, *y = &b->desc;
    if (x->op != y->op || x->axis != y->axis || x->direction != y->direction || x->exclusive != y->exclusive ||
        x->in_place != y->in_place)
        DIFFER("op, axis, direction, exclusive or in_place differ");
    if (!same_tensor("input", &x->input, &y->input, why, why_size) ||
        !same_tensor("output", &x->output, &y->output, why, why_size))
        return false;
    if (a->min_feature_level != b->min_feature_level || a->min_feature_level_explicit != b->min_feature_level_explicit)
        DIFFER("min_feature_level %d (explicit %d), then %d (explicit %d)", (int)a->min_feature_level,
               a->min_feature_level_explicit, (int)b->min_feature_level, b->min_feature_level_explicit);
    if (!same_data("input", a, &a->input, &b->input, why, why_size) ||
        !same_data("expected", a, &a->expected, &b->expected, why, why_size))
        return false;
    if (a->round_inputs != b->round_inputs)
        DIFFER("round_inputs %d, then %d", a->round_inputs, b->round_inputs);
    if (a->expect_error.set != b->expect_error.set || a->expect_error.reason != b->expect_error.reason ||
        a->expect_error.feature_level != b->expect_error.feature_level)
        DIFFER("expect_error differs");
    if (a->tag_count != b->tag_count)
        DIFFER("%zu tags, then %zu", a->tag_count, b->tag_count);
    for (size_t i = 0; i < a->tag_count; ++i)
    {
        if (!same_text(a->tags[i], b->tags[i]))
            DIFFER("tag %zu '%s', then '%s'", i, a->tags[i], b->tags[i]);
    }
    if (!same_text(a->notes, b->notes))
        DIFFER("notes differ");
    /* A tolerance means nothing in an integer case (compared bit for bit)
     * or a negative one (nothing is compared): the loader keeps one that
     * the defaults give there, the writer leaves it out. Elsewhere: the
     * tolerance the case is judged by on any backend, and its overrides
     * field by field. */
    if (!tolerance_applies(a))
    {
        for (unsigned f = 0; f < DMLCONF_TOLERANCE_FIELD_COUNT; ++f)
        {
            if (b->tolerance.overrides.set[f])
                DIFFER("a tolerance written where none applies");
        }
        return true;
    }
    for (int exact = 0; exact < 2; ++exact)
    {
        dmlconf_tolerance ta, tb;
        dmlconf_case_judging_tolerance(a, exact, &ta);
        dmlconf_case_judging_tolerance(b, exact, &tb);
        if (!same_tolerance(&ta, &tb))
            DIFFER("judged by another tolerance (exact backend: %d)", exact);
    }
    for (unsigned f = 0; f < DMLCONF_TOLERANCE_FIELD_COUNT; ++f)
    {
        if (a->tolerance.overrides.set[f] != b->tolerance.overrides.set[f])
            DIFFER("tolerance %s set %d, then %d", dmlconf_tolerance_field_name((dmlconf_tolerance_field)f),
                   a->tolerance.overrides.set[f], b->tolerance.overrides.set[f]);
    }
    const dmlconf_tolerance *va = &a->tolerance.overrides.values, *vb = &b->tolerance.overrides.values;
    const bool *set = a->tolerance.overrides.set;
    bool same = (!set[DMLCONF_TOLERANCE_FIELD_ULP] || same_double(va->ulp, vb->ulp)) &&
                (!set[DMLCONF_TOLERANCE_FIELD_ACCUMULATION] || va->accumulation == vb->accumulation) &&
                (!set[DMLCONF_TOLERANCE_FIELD_FTZ] || va->ftz == vb->ftz) &&
                (!set[DMLCONF_TOLERANCE_FIELD_SIGNED_ZERO] || va->strict_signed_zero == vb->strict_signed_zero) &&
                (!set[DMLCONF_TOLERANCE_FIELD_BIT_EXACT] || va->bit_exact == vb->bit_exact) &&
                (!set[DMLCONF_TOLERANCE_FIELD_ATOL] || same_double(va->atol, vb->atol)) &&
                (!set[DMLCONF_TOLERANCE_FIELD_RTOL] || same_double(va->rtol, vb->rtol)) &&
                (!set[DMLCONF_TOLERANCE_FIELD_ULP_COUNT] ||
                 (same_double(va->ulp_count, vb->ulp_count) &&
                  va->ulp_count_axis_length_minus_1 == vb->ulp_count_axis_length_minus_1));
    if (!same)
        DIFFER("tolerance values differ");
    return true;
}

/* ---- the corpus round trip ------------------------------------------------------------ */

/* Writes every case of `file`, loads the text back as the same path and
 * compares each case with its original. Returns the cases compared. */
static size_t round_trip_file(const dmlconf_case_file *file, const dmlconf_case_write_options *options)
{
    dmlconf_buffer text = {0};
    dmlconf_buffer_append(&text, "cases:\n", 7);
    for (size_t i = 0; i < file->case_count; ++i)
        ck_assert_msg(dmlconf_case_write(&text, &file->cases[i], options) == 0, "%s: case '%s' was not written",
                      file->path, file->cases[i].id);
    ck_assert(!text.failed);
    dmlconf_case_file again;
    size_t errors = dmlconf_case_file_load_buffer(&again, file->path, text.data, text.length, NULL);
    if (errors)
    {
        dmlconf_diagnostics_print(&again.diagnostics, NULL, stderr);
        ck_abort_msg("%s written does not load back: %zu errors", file->path, errors);
    }
    ck_assert_uint_eq(again.case_count, file->case_count);
    for (size_t i = 0; i < file->case_count; ++i)
    {
        char why[256];
        ck_assert_msg(same_case(&file->cases[i], &again.cases[i], why, sizeof(why)), "%s: case '%s': %s", file->path,
                      file->cases[i].id, why);
    }
    dmlconf_case_file_free(&again);
    dmlconf_buffer_free(&text);
    return file->case_count;
}

static bool in_limits(const char *path)
{
    return strstr(path, "/cases/limits/") != NULL;
}

START_TEST(test_corpus_round_trip)
{
    const char *paths[1] = {DMLCONF_CASES_DIR};
    dmlconf_case_corpus corpus;
    dmlconf_case_corpus_load(&corpus, paths, 1, NULL);
    dmlconf_case_write_options options = {.exact_floats = _i == 1};
    size_t files = 0, cases = 0, inline_values = 0, generators = 0, negatives = 0, tolerances = 0;
    for (size_t f = 0; f < corpus.file_count; ++f)
    {
        const dmlconf_case_file *file = &corpus.files[f];
        if (in_limits(file->path) || !file->case_count)
            continue;
        /* Files that load cleanly are the corpus; the loader's bad files
         * give their valid cases. */
        cases += round_trip_file(file, &options);
        files++;
        for (size_t i = 0; i < file->case_count; ++i)
        {
            const dmlconf_case *c = &file->cases[i];
            inline_values += c->input.kind == DMLCONF_CASE_DATA_INLINE;
            generators += c->input.kind == DMLCONF_CASE_DATA_GENERATOR;
            negatives += c->expect_error.set;
            for (unsigned t = 0; t < DMLCONF_TOLERANCE_FIELD_COUNT; ++t)
                tolerances += tolerance_applies(c) && c->tolerance.overrides.set[t];
        }
    }
    /* The whole corpus, every kind of case. */
    ck_assert_uint_ge(files, 40);
    ck_assert_uint_ge(cases, 4500);
    ck_assert_uint_ge(inline_values, 1000);
    ck_assert_uint_ge(generators, 1000);
    ck_assert_uint_ge(negatives, 50);
    ck_assert_uint_ge(tolerances, 5);
    dmlconf_case_corpus_free(&corpus);
}
END_TEST

/* ---- the layout ------------------------------------------------------------------------ */

static dmlconf_case load_one(dmlconf_case_file *file, const char *yaml)
{
    size_t errors = dmlconf_case_file_load_buffer(file, "t.yaml", yaml, strlen(yaml), NULL);
    if (errors)
        dmlconf_diagnostics_print(&file->diagnostics, NULL, stderr);
    ck_assert_uint_eq(errors, 0);
    ck_assert_uint_eq(file->case_count, 1);
    return file->cases[0];
}

START_TEST(test_layout)
{
    /* Keys in the corpus's order whatever the source's, values last, lists
     * wrapped before the width with continuation lines under the key. The
     * input is broadcast (a stride of 0 in dimension 0): its rows agree. */
    static const char source[] = "cases:\n"
                                 "  - input: [1, 0.1, -0.0, 1, 0.1, -0.0, 1, 0.1, -0.0]\n"
                                 "    round_inputs: true\n"
                                 "    tags: [t, .dot]\n"
                                 "    notes: \"a \\\"note\\\"\\nover\\ttwo lines\"\n"
                                 "    tolerance: {atol: 1e-5, signed_zero: strict}\n"
                                 "    id: layout.one\n"
                                 "    sizes: [3, 3]\n"
                                 "    axis: 1\n"
                                 "    input_strides: [0, 1]\n"
                                 "    output_strides: [4, 1]\n"
                                 "    dtype: float32\n"
                                 "    op: cumulative_summation\n"
                                 "    min_feature_level: 4_1\n";
    dmlconf_case_file file;
    dmlconf_case c = load_one(&file, source);
    dmlconf_buffer text = {0};
    ck_assert_int_eq(dmlconf_case_write(&text, &c, NULL), 0);
    ck_assert_str_eq(text.data,
                     "  - id: layout.one\n"
                     "    op: cumulative_summation\n"
                     "    dtype: float32\n"
                     "    sizes: [3, 3]\n"
                     "    axis: 1\n"
                     "    direction: increasing\n"
                     "    exclusive: false\n"
                     "    input_strides: [0, 1]\n"
                     "    output_strides: [4, 1]\n"
                     "    min_feature_level: 4_1\n"
                     "    round_inputs: true\n"
                     "    tolerance: {signed_zero: strict, atol: 0.00001}\n"
                     "    tags: [t, \".dot\"]\n"
                     "    notes: \"a \\\"note\\\"\\nover\\ttwo lines\"\n"
                     "    input: [1, 0x1.99999ap-4, -0.0, 1, 0x1.99999ap-4, -0.0, 1, 0x1.99999ap-4, -0.0]\n");
    dmlconf_buffer_free(&text);
    /* Reproducers: hex floats; here a narrow width. */
    dmlconf_case_write_options exact = {.exact_floats = true, .width = 40};
    ck_assert_int_eq(dmlconf_case_write(&text, &c, &exact), 0);
    const char *values = strstr(text.data, "    input: ");
    ck_assert_ptr_nonnull(values);
    ck_assert_str_eq(values, "    input: [0x1p+0, 0x1.99999ap-4,\n"
                             "      -0x0p+0, 0x1p+0, 0x1.99999ap-4,\n"
                             "      -0x0p+0, 0x1p+0, 0x1.99999ap-4,\n"
                             "      -0x0p+0]\n");
    dmlconf_buffer_free(&text);
    dmlconf_case_file_free(&file);
}
END_TEST

START_TEST(test_defaults_and_generators)
{
    static const char source[] = "defaults:\n"
                                 "  op: cumulative_product\n"
                                 "  dtype: float16\n"
                                 "cases:\n"
                                 "  - id: gen.one\n"
                                 "    sizes: [8]\n"
                                 "    axis: 0\n"
                                 "    input: {seed: 3, generate: uniform, max: 0.75, min: -0.5}\n";
    dmlconf_case_file file;
    dmlconf_case c = load_one(&file, source);
    dmlconf_buffer text = {0};
    uint32_t fields = 1u << DMLCONF_CASE_FIELD_OP | 1u << DMLCONF_CASE_FIELD_DTYPE;
    dmlconf_case_write_options options = {.omit = fields};
    ck_assert_int_eq(dmlconf_case_write_defaults(&text, &c, fields, &options), 0);
    dmlconf_buffer_append(&text, "cases:\n", 7);
    ck_assert_int_eq(dmlconf_case_write(&text, &c, &options), 0);
    ck_assert_str_eq(text.data, "defaults:\n"
                                "  op: cumulative_product\n"
                                "  dtype: float16\n"
                                "cases:\n"
                                "  - id: gen.one\n"
                                "    sizes: [8]\n"
                                "    axis: 0\n"
                                "    direction: increasing\n"
                                "    exclusive: false\n"
                                "    input: {generate: uniform, min: -0.5, max: 0.75, seed: 3}\n");
    /* Only op and dtype are defaults the writer writes. */
    ck_assert_int_eq(dmlconf_case_write_defaults(&text, &c, 1u << DMLCONF_CASE_FIELD_INPUT, NULL), -1);
    dmlconf_buffer_free(&text);
    dmlconf_case_file_free(&file);
}
END_TEST

START_TEST(test_npy_round_trip)
{
    char folder[] = "/tmp/dmlconf-writer-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(folder));
    char npy[256], yaml[256], why[256];
    snprintf(npy, sizeof(npy), "%s/in put.npy", folder);
    float values[4] = {1.0f, -2.5f, 0.125f, 3.0f};
    uint64_t shape[1] = {4};
    ck_assert_int_eq(dmlconf_npy_write(npy, DMLCONF_DATA_TYPE_FLOAT32, 1, shape, values, why, sizeof(why)), 0);
    snprintf(yaml, sizeof(yaml), "%s/c.yaml", folder);
    static const char source[] = "cases:\n  - id: npy.one\n    op: cumulative_summation\n    dtype: float32\n"
                                 "    sizes: [4]\n    axis: 0\n    input: {npy: \"in put.npy\"}\n";
    dmlconf_case_file file;
    ck_assert_uint_eq(dmlconf_case_file_load_buffer(&file, yaml, source, strlen(source), NULL), 0);
    dmlconf_buffer text = {0};
    dmlconf_buffer_append(&text, "cases:\n", 7);
    ck_assert_int_eq(dmlconf_case_write(&text, &file.cases[0], NULL), 0);
    ck_assert_ptr_nonnull(strstr(text.data, "    input: {npy: \"in put.npy\"}\n"));
    dmlconf_case_file again;
    ck_assert_uint_eq(dmlconf_case_file_load_buffer(&again, yaml, text.data, text.length, NULL), 0);
    ck_assert(same_case(&file.cases[0], &again.cases[0], why, sizeof(why)));
    dmlconf_case_file_free(&again);
    dmlconf_case_file_free(&file);
    dmlconf_buffer_free(&text);
    remove(npy);
    rmdir(folder);
}
END_TEST

START_TEST(test_built_case)
{
    /* A case built in memory, as the generator and the shrinkers build
     * them: written, it loads back as itself. */
    int32_t input[6] = {1, -2, 3, 2147483647, -2147483647 - 1, 0};
    char tag[] = "built", *tags[1] = {tag};
    char notes[] = "odd text: \\ \" \x1b \xe2\x80\xae end";
    dmlconf_case c;
    memset(&c, 0, sizeof(c));
    char id[] = "built.one";
    c.id = id;
    c.file = "built.yaml";
    c.desc.op = DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    c.desc.input.data_type = DMLCONF_DATA_TYPE_INT32;
    c.desc.input.dimension_count = 2;
    c.desc.input.sizes[0] = 2;
    c.desc.input.sizes[1] = 3;
    c.desc.output = c.desc.input;
    c.desc.axis = 0;
    c.desc.direction = DMLCONF_AXIS_DIRECTION_DECREASING;
    c.desc.exclusive = true;
    c.desc.in_place = true;
    c.min_feature_level = dmlconf_min_feature_level(&c.desc, NULL);
    c.input.kind = DMLCONF_CASE_DATA_INLINE;
    c.input.values = input;
    c.input.count = 6;
    c.tags = tags;
    c.tag_count = 1;
    dmlconf_buffer text = {0};
    dmlconf_buffer_append(&text, "cases:\n", 7);
    ck_assert_int_eq(dmlconf_case_write(&text, &c, NULL), 0);
    dmlconf_case_file file;
    ck_assert_uint_eq(dmlconf_case_file_load_buffer(&file, "built.yaml", text.data, text.length, NULL), 0);
    char why[256];
    ck_assert_msg(same_case(&c, &file.cases[0], why, sizeof(why)), "%s", why);
    dmlconf_case_file_free(&file);

    /* Notes with characters a terminal acts on are escaped: the file stays
     * printable (the loader then refuses such notes, at their line). */
    c.notes = notes;
    dmlconf_buffer_free(&text);
    ck_assert_int_eq(dmlconf_case_write(&text, &c, NULL), 0);
    ck_assert_ptr_nonnull(strstr(text.data, "    notes: \"odd text: \\\\ \\\" \\x1b \\u202e end\"\n"));
    ck_assert_uint_eq(dmlconf_text_first_control(text.data, true), 0);
    dmlconf_buffer_free(&text);

    /* What the format cannot hold is refused. */
    c.notes = NULL;
    c.desc.input.total_size_bytes = 64;
    ck_assert_int_eq(dmlconf_case_write(&text, &c, NULL), -1);
    c.desc.input.total_size_bytes = 0;
    c.desc.input.dimension_count = 9;
    ck_assert_int_eq(dmlconf_case_write(&text, &c, NULL), -1);
    dmlconf_buffer_free(&text);
}
END_TEST

START_TEST(test_comments)
{
    dmlconf_buffer text = {0};
    dmlconf_case_write_comment(&text, "It said: %s", "two\nlines\tand \x1b[31mred\xe2\x80\xae \xff.");
    dmlconf_case_write_comment(&text, "%s", "");
    ck_assert_str_eq(text.data, "# It said: two lines and  [31mred   .\n#\n");
    dmlconf_buffer_free(&text);
}
END_TEST

static Suite *writer_suite(void)
{
    Suite *suite = suite_create("case_writer");
    TCase *tc = tcase_create("corpus");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_corpus_round_trip, 0, 2);
    suite_add_tcase(suite, tc);
    tc = tcase_create("format");
    tcase_add_test(tc, test_layout);
    tcase_add_test(tc, test_defaults_and_generators);
    tcase_add_test(tc, test_npy_round_trip);
    tcase_add_test(tc, test_built_case);
    tcase_add_test(tc, test_comments);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(writer_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
