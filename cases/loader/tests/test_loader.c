/*
 * Tests of the case loader: a corpus of bad files whose full diagnostic output
 * is compared byte for byte with name.expected, good files with every form of
 * case, chunked reading, bless round trips, the corpus loader and hostile
 * inputs.
 *
 * Set DMLCONF_REGENERATE_EXPECTED=1 to rewrite the .expected files from the
 * loader's current output (then review the diff).
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <dmlconf/case.h>
#include <dmlconf/npy.h>
#include <dmlconf/values.h>

#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef DMLCONF_LOADER_TESTS_DIR
#error "DMLCONF_LOADER_TESTS_DIR must name cases/loader/tests"
#endif
#ifndef DMLCONF_CASES_README
#error "DMLCONF_CASES_README must name cases/README.md"
#endif

/* Every file of tests/bad (name.yaml with name.expected). */
static const char *const bad_files[] = {
    "alias_bomb",
    "alias_only",
    "axis_out_of_range",
    "bad_bits",
    "bad_names",
    "bad_scalars",
    "binary_garbage",
    "broadcast_mismatch",
    "case_not_mapping",
    "cases_not_list",
    "comments_only",
    "control_char",
    "deep_nesting",
    "defaults_after_cases",
    "defaults_axis",
    "defaults_errors",
    "directive",
    "dtype_unsupported",
    "duplicate_id",
    "duplicate_key",
    "empty_file",
    "empty_values",
    "escapes",
    "expect_error_mismatch",
    "expected_in_negative",
    "expected_values",
    "feature_level_names",
    "float_values",
    "generator_errors",
    "in_place_mismatch",
    "int_out_of_range",
    "invalid_desc",
    "invalid_utf8",
    "length_mismatch",
    "list_error_cap",
    "long_id",
    "long_line",
    "many_errors",
    "min_level_too_low",
    "missing_keys",
    "negative_only_keys",
    "nested_mismatch",
    "output_overlap",
    "non_scalar_keys",
    "not_integer",
    "npy_errors",
    "npy_mismatch",
    "overlong_utf8",
    "quoted_and_flow_case",
    "rank",
    "root_not_mapping",
    "strides_count",
    "syntax_bad_indent",
    "syntax_error",
    "tab_indent",
    "tags_errors",
    "tolerance_defaults",
    "tolerance_errors",
    "too_many_elements",
    "top_level_keys",
    "two_documents",
    "unknown_keys",
    "wrong_node_types",
    "zero_size",
};
#define BAD_FILE_COUNT (sizeof(bad_files) / sizeof(bad_files[0]))

/* ---- helpers ---------------------------------------------------------------- */

/* Reads a whole file into a NUL-terminated malloc'ed buffer; NULL if it
 * cannot be read. */
static char *read_file(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    char *data = NULL;
    long length;

    if (!file)
    {
        return NULL;
    }
    if (!fseek(file, 0, SEEK_END) && (length = ftell(file)) >= 0 && !fseek(file, 0, SEEK_SET))
    {
        data = malloc((size_t)length + 1);
        if (data && fread(data, 1, (size_t)length, file) == (size_t)length)
        {
            data[length] = '\0';
            if (size)
            {
                *size = (size_t)length;
            }
        }
        else
        {
            free(data);
            data = NULL;
        }
    }
    fclose(file);
    return data;
}

static void write_file(const char *path, const char *data, size_t size)
{
    FILE *file = fopen(path, "wb");

    ck_assert_msg(file != NULL, "cannot create %s", path);
    ck_assert(fwrite(data, 1, size, file) == size);
    ck_assert(fclose(file) == 0);
}

static void write_text(const char *path, const char *text)
{
    write_file(path, text, strlen(text));
}

/* A fresh folder under the test's working folder; the caller frees the name. */
static char *make_temp_dir(const char *tag)
{
    char *path = malloc(256);

    ck_assert(path != NULL);
    snprintf(path, 256, "loader_%s_XXXXXX", tag);
    ck_assert_msg(mkdtemp(path) != NULL, "mkdtemp failed");
    return path;
}

/* Removes a folder made by make_temp_dir and everything in it. */
static void remove_tree(const char *path)
{
    struct dirent *entry;
    struct stat info;
    char child[1024];
    DIR *dir = opendir(path);

    if (dir)
    {
        while ((entry = readdir(dir)))
        {
            if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
            {
                continue;
            }
            snprintf(child, sizeof(child), "%s/%s", path, entry->d_name);
            if (!lstat(child, &info) && S_ISDIR(info.st_mode))
            {
                remove_tree(child);
            }
            else
            {
                remove(child);
            }
        }
        closedir(dir);
    }
    rmdir(path);
}

static char *join(const char *folder, const char *name)
{
    size_t size = strlen(folder) + strlen(name) + 2;
    char *path = malloc(size);

    ck_assert(path != NULL);
    snprintf(path, size, "%s/%s", folder, name);
    return path;
}

static const dmlconf_case *find_case(const dmlconf_case_file *file, const char *id)
{
    size_t i;

    for (i = 0; i < file->case_count; ++i)
    {
        if (!strcmp(file->cases[i].id, id))
        {
            return &file->cases[i];
        }
    }
    ck_abort_msg("no case '%s' in %s", id, file->path);
    return NULL;
}

/* Loads a file and fails with its diagnostics when it has errors. */
static void load_clean(dmlconf_case_file *file, const char *path)
{
    char *text;

    if (dmlconf_case_file_load(file, path, NULL))
    {
        text = dmlconf_diagnostics_format(&file->diagnostics, NULL);
        ck_abort_msg("%s has errors:\n%s", path, text ? text : "?");
    }
}

/* All logical elements of a case's input or expected, read in one call. */
static void *read_all(const dmlconf_case *c, const dmlconf_case_data *data)
{
    size_t bytes = (size_t)dmlconf_case_element_count(c) * dmlconf_case_element_size(c);
    void *values = malloc(bytes ? bytes : 1);
    char why[256];

    ck_assert(values != NULL);
    ck_assert_msg(!dmlconf_case_data_read(c, data, 0, dmlconf_case_element_count(c), values, why, sizeof(why)),
                  "case %s: %s", c->id, why);
    return values;
}

/* The oracle's result for a case, computed on the packed logical input. */
static void *oracle_expected(const dmlconf_case *c)
{
    size_t bytes = ((size_t)dmlconf_case_element_count(c) * dmlconf_case_element_size(c) + 3) & ~(size_t)3;
    dmlconf_scan_desc desc = c->desc;
    void *packed = read_all(c, &c->input), *input = calloc(1, bytes), *output = calloc(1, bytes);
    dmlconf_error err;

    ck_assert(input != NULL && output != NULL);
    memcpy(input, packed, (size_t)dmlconf_case_element_count(c) * dmlconf_case_element_size(c));
    free(packed);
    desc.input.has_strides = desc.output.has_strides = false;
    desc.input.total_size_bytes = desc.output.total_size_bytes = 0;
    desc.in_place = false;
    ck_assert_msg(!dmlconf_compute(&desc, input, bytes, output, bytes, NULL, &err), "case %s: %s", c->id, err.message);
    free(input);
    return output;
}

/* ---- bad files ---------------------------------------------------------------- */

START_TEST(test_bad_file)
{
    const char *name = bad_files[_i];
    char path[512], expected_path[512], *actual, *expected;
    dmlconf_case_file file;

    snprintf(path, sizeof(path), "%s/bad/%s.yaml", DMLCONF_LOADER_TESTS_DIR, name);
    snprintf(expected_path, sizeof(expected_path), "%s/bad/%s.expected", DMLCONF_LOADER_TESTS_DIR, name);
    ck_assert_msg(dmlconf_case_file_load(&file, path, NULL) > 0, "%s loaded without errors", name);
    actual = dmlconf_diagnostics_format(&file.diagnostics, DMLCONF_LOADER_TESTS_DIR);
    ck_assert(actual != NULL);
    if (getenv("DMLCONF_REGENERATE_EXPECTED"))
    {
        write_text(expected_path, actual);
    }
    expected = read_file(expected_path, NULL);
    ck_assert_msg(expected != NULL, "cannot read %s", expected_path);
    ck_assert_msg(!strcmp(actual, expected), "%s: diagnostics differ.\n--- expected\n%s--- actual\n%s", name, expected,
                  actual);
    free(actual);
    free(expected);
    dmlconf_case_file_free(&file);
}
END_TEST

START_TEST(test_bad_folder_listed)
{
    struct dirent *entry;
    DIR *dir;
    size_t length, i, found = 0;
    char path[512];

    snprintf(path, sizeof(path), "%s/bad", DMLCONF_LOADER_TESTS_DIR);
    dir = opendir(path);
    ck_assert(dir != NULL);
    while ((entry = readdir(dir)))
    {
        length = strlen(entry->d_name);
        if (length < 6 || strcmp(entry->d_name + length - 5, ".yaml"))
        {
            continue;
        }
        for (i = 0; i < BAD_FILE_COUNT; ++i)
        {
            if (strlen(bad_files[i]) == length - 5 && !strncmp(bad_files[i], entry->d_name, length - 5))
            {
                break;
            }
        }
        ck_assert_msg(i < BAD_FILE_COUNT, "bad/%s is not listed in test_loader.c", entry->d_name);
        ++found;
    }
    closedir(dir);
    ck_assert_uint_eq(found, BAD_FILE_COUNT);
    ck_assert_uint_ge(found, 40);
}
END_TEST

/* ---- good files ------------------------------------------------------------------ */

START_TEST(test_good_forms)
{
    static const float flat_in[] = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};
    static const float flat_out[] = {2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21};
    static const float nested_out[] = {12, 14, 9, 7, 9, 6, 2, 4, 0, 0, 0, 0};
    static const uint16_t half_bits[] = {0x3c00, 0x8000, 0x3200, 0x7e01, 0x7c00};
    static const int64_t int64s[] = {INT64_MAX, INT64_MIN, INT64_MIN, INT64_MAX};
    static const uint64_t uint64s[] = {UINT64_MAX, UINT64_MAX, 0};
    char path[512];
    dmlconf_case_file file;
    const dmlconf_case *c;
    uint32_t bits[8];
    void *values;
    const dmlconf_tolerance_overrides *over;

    snprintf(path, sizeof(path), "%s/good/forms.yaml", DMLCONF_LOADER_TESTS_DIR);
    load_clean(&file, path);
    ck_assert_uint_eq(file.case_count, 14);
    ck_assert_uint_eq(file.cases_seen, 14);

    c = find_case(&file, "forms.flat");
    ck_assert_int_eq(c->desc.op, DMLCONF_OPERATOR_CUMULATIVE_SUMMATION);
    ck_assert_int_eq(c->desc.input.data_type, DMLCONF_DATA_TYPE_FLOAT32);
    ck_assert_uint_eq(c->desc.input.dimension_count, 4);
    ck_assert_uint_eq(c->desc.axis, 3);
    ck_assert(c->from_defaults[DMLCONF_CASE_FIELD_OP] && !c->from_defaults[DMLCONF_CASE_FIELD_AXIS]);
    ck_assert_int_eq(c->min_feature_level, DMLCONF_FEATURE_LEVEL_2_1);
    ck_assert(!c->min_feature_level_explicit);
    ck_assert_uint_eq(c->marks[DMLCONF_CASE_FIELD_AXIS].line, 10);
    ck_assert_uint_eq(c->marks[DMLCONF_CASE_FIELD_AXIS].column, 11);
    ck_assert_uint_eq(c->mark.line, 8);
    ck_assert_uint_eq(c->mark.column, 5);
    ck_assert_int_eq(c->input.kind, DMLCONF_CASE_DATA_INLINE);
    ck_assert_mem_eq(c->input.values, flat_in, sizeof(flat_in));
    ck_assert_int_eq(c->expected.kind, DMLCONF_CASE_DATA_INLINE);
    ck_assert_mem_eq(c->expected.values, flat_out, sizeof(flat_out));
    ck_assert_uint_eq(c->tag_count, 3);
    ck_assert_str_eq(c->tags[0], "loader");
    ck_assert_str_eq(c->tags[1], "doc");
    ck_assert_str_eq(c->tags[2], "sum");
    ck_assert_str_eq(c->notes, "the documentation's first example");
    ck_assert_str_eq(c->file, path);

    c = find_case(&file, "forms.nested");
    ck_assert_int_eq(c->desc.direction, DMLCONF_AXIS_DIRECTION_DECREASING);
    ck_assert(c->desc.exclusive);
    ck_assert_mem_eq(c->input.values, flat_in, sizeof(flat_in));
    ck_assert_mem_eq(c->expected.values, nested_out, sizeof(nested_out));

    c = find_case(&file, "forms.block.list");
    ck_assert_int_eq(c->desc.input.data_type, DMLCONF_DATA_TYPE_FLOAT16);
    ck_assert_mem_eq(c->input.values, half_bits, sizeof(half_bits));
    ck_assert_int_eq(c->expected.kind, DMLCONF_CASE_DATA_NONE);

    c = find_case(&file, "forms.float32.specials");
    memcpy(bits, c->input.values, sizeof(bits));
    ck_assert_uint_eq(bits[0], 0x7fc00000u);
    ck_assert_uint_eq(bits[1], 0xff800000u);
    ck_assert_uint_eq(bits[2], 0x7f800000u);
    ck_assert_uint_eq(bits[3], 0xff800000u);
    ck_assert_uint_eq(bits[4], 0x7fc00000u);
    ck_assert_uint_eq(bits[5], 0x3a83126fu);
    ck_assert_uint_eq(bits[6], 0x00000001u);
    ck_assert_uint_eq(bits[7], 0x7f7fffffu);
    ck_assert(c->round_inputs);

    c = find_case(&file, "forms.int64.extremes");
    ck_assert_mem_eq(c->input.values, int64s, sizeof(int64s));
    ck_assert_int_eq(c->min_feature_level, DMLCONF_FEATURE_LEVEL_5_0);
    c = find_case(&file, "forms.uint64.extremes");
    ck_assert_mem_eq(c->input.values, uint64s, sizeof(uint64s));

    c = find_case(&file, "forms.strides");
    ck_assert(c->desc.input.has_strides && c->desc.output.has_strides);
    ck_assert_uint_eq(c->desc.input.strides[0], 0);
    ck_assert_uint_eq(c->desc.input.strides[1], 1);
    ck_assert_uint_eq(c->desc.output.strides[0], 4);
    ck_assert_int_eq(c->min_feature_level, DMLCONF_FEATURE_LEVEL_4_0);

    c = find_case(&file, "forms.in.place");
    ck_assert(c->desc.in_place);

    c = find_case(&file, "forms.generator");
    ck_assert_int_eq(c->input.kind, DMLCONF_CASE_DATA_GENERATOR);
    ck_assert_int_eq(c->input.generator.kind, DMLCONF_DATAGEN_UNIFORM);
    over = &c->tolerance.overrides;
    ck_assert(over->set[DMLCONF_TOLERANCE_FIELD_ULP] && over->values.ulp == 2.0);
    ck_assert(over->set[DMLCONF_TOLERANCE_FIELD_ACCUMULATION] &&
              over->values.accumulation == DMLCONF_DATA_TYPE_FLOAT16);
    ck_assert(over->set[DMLCONF_TOLERANCE_FIELD_FTZ] && !over->values.ftz);
    ck_assert(over->set[DMLCONF_TOLERANCE_FIELD_SIGNED_ZERO] && over->values.strict_signed_zero);
    ck_assert(over->set[DMLCONF_TOLERANCE_FIELD_BIT_EXACT] && over->values.bit_exact);
    ck_assert(!over->set[DMLCONF_TOLERANCE_FIELD_ATOL] && !over->set[DMLCONF_TOLERANCE_FIELD_ULP_COUNT]);
    ck_assert_uint_eq(c->tolerance.marks[DMLCONF_TOLERANCE_FIELD_ACCUMULATION].line,
                      c->marks[DMLCONF_CASE_FIELD_TOLERANCE].line);
    ck_assert(c->min_feature_level_explicit);
    ck_assert_int_eq(c->min_feature_level, DMLCONF_FEATURE_LEVEL_5_0);
    values = read_all(c, &c->input);
    free(values);

    c = find_case(&file, "forms.flow.mapping");
    ck_assert(c->flow_style);

    c = find_case(&file, "forms.negative");
    ck_assert(c->expect_error.set);
    ck_assert_int_eq(c->expect_error.reason, DMLCONF_REASON_DATA_TYPE_UNSUPPORTED);
    ck_assert_int_eq(c->expect_error.feature_level, DMLCONF_FEATURE_LEVEL_NONE);
    ck_assert_int_eq(c->min_feature_level, DMLCONF_FEATURE_LEVEL_NONE);
    ck_assert_int_eq(c->input.kind, DMLCONF_CASE_DATA_NONE);

    c = find_case(&file, "forms.negative.level");
    ck_assert_int_eq(c->expect_error.reason, DMLCONF_REASON_DATA_TYPE_UNSUPPORTED_AT_LEVEL);
    ck_assert_int_eq(c->expect_error.feature_level, DMLCONF_FEATURE_LEVEL_4_1);
    ck_assert_int_eq(c->min_feature_level, DMLCONF_FEATURE_LEVEL_5_0);

    c = find_case(&file, "forms.negative.output");
    ck_assert_uint_eq(c->desc.output.sizes[2], 4);
    ck_assert_int_eq(c->min_feature_level, DMLCONF_FEATURE_LEVEL_2_1);
    ck_assert(c->min_feature_level_explicit);
    dmlconf_case_file_free(&file);
}
END_TEST

/* Every tolerance form, the defaults' fields merged or replaced, and what a
 * run judges each case with. */
START_TEST(test_good_tolerances)
{
    char path[512];
    dmlconf_case_file file;
    const dmlconf_case *c;
    dmlconf_tolerance tol;

    snprintf(path, sizeof(path), "%s/good/tolerances.yaml", DMLCONF_LOADER_TESTS_DIR);
    load_clean(&file, path);
    ck_assert_uint_eq(file.case_count, 5);

    c = find_case(&file, "tolerances.defaults");
    ck_assert(c->tolerance.from_defaults[DMLCONF_TOLERANCE_FIELD_ULP]);
    ck_assert_uint_eq(c->tolerance.marks[DMLCONF_TOLERANCE_FIELD_ULP].line, 7);
    dmlconf_case_judging_tolerance(c, false, &tol);
    ck_assert_int_eq(tol.form, DMLCONF_TOLERANCE_FORM_BOUND);
    ck_assert_double_eq(tol.ulp, 3.0);
    ck_assert(tol.strict_signed_zero && !tol.bit_exact);
    /* The oracle backend: no expected values of the case's own, so bit for bit. */
    dmlconf_case_judging_tolerance(c, true, &tol);
    ck_assert(tol.bit_exact && tol.strict_signed_zero);

    c = find_case(&file, "tolerances.absolute.relative");
    ck_assert(!c->tolerance.overrides.set[DMLCONF_TOLERANCE_FIELD_ULP]);
    ck_assert(c->tolerance.overrides.set[DMLCONF_TOLERANCE_FIELD_SIGNED_ZERO]);
    ck_assert(!c->tolerance.from_defaults[DMLCONF_TOLERANCE_FIELD_ATOL]);
    ck_assert_uint_eq(c->tolerance.marks[DMLCONF_TOLERANCE_FIELD_RTOL].line, 18);
    ck_assert_uint_eq(c->tolerance.marks[DMLCONF_TOLERANCE_FIELD_RTOL].column, 35);
    dmlconf_case_judging_tolerance(c, false, &tol);
    ck_assert_int_eq(tol.form, DMLCONF_TOLERANCE_FORM_ABSOLUTE_RELATIVE);
    ck_assert_double_eq(tol.atol, 1e-5);
    ck_assert_double_eq(tol.rtol, 0.001);
    ck_assert(tol.strict_signed_zero);
    /* Its golden values are judged with its tolerance, even on the oracle. */
    dmlconf_case_judging_tolerance(c, true, &tol);
    ck_assert(!tol.bit_exact);
    ck_assert_int_eq(tol.form, DMLCONF_TOLERANCE_FORM_ABSOLUTE_RELATIVE);

    c = find_case(&file, "tolerances.webnn");
    dmlconf_case_judging_tolerance(c, false, &tol);
    ck_assert_int_eq(tol.form, DMLCONF_TOLERANCE_FORM_ULP_COUNT);
    ck_assert(tol.ulp_count_axis_length_minus_1);

    c = find_case(&file, "tolerances.count");
    dmlconf_case_judging_tolerance(c, false, &tol);
    ck_assert_int_eq(tol.form, DMLCONF_TOLERANCE_FORM_ULP_COUNT);
    ck_assert_double_eq(tol.ulp_count, 16.0);
    ck_assert(!tol.ulp_count_axis_length_minus_1);

    c = find_case(&file, "tolerances.integer");
    dmlconf_case_judging_tolerance(c, false, &tol);
    ck_assert(tol.bit_exact);
    dmlconf_case_file_free(&file);
}
END_TEST

/* The bytes of a case's buffers, from its descs alone. */
START_TEST(test_buffer_bytes)
{
    static const char *const text =
        "cases:\n"
        "  - {id: b.strided, op: cumulative_summation, dtype: float16, sizes: [3, 4], axis: 1,\n"
        "     input_strides: [0, 1], output_strides: [8, 1], input: [1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]}\n"
        "  - {id: b.in.place, op: cumulative_product, dtype: int64, sizes: [5], axis: 0, in_place: true,\n"
        "     input: [1, 2, 3, 4, 5], expected: [1, 2, 6, 24, 120]}\n"
        "  - {id: b.negative, op: cumulative_summation, dtype: uint16, sizes: [2], axis: 0,\n"
        "     expect_error: data_type_unsupported}\n";
    dmlconf_case_file file;
    dmlconf_case_buffers buffers;

    ck_assert_uint_eq(dmlconf_case_file_load_buffer(&file, "buffers.yaml", text, strlen(text), NULL), 0);
    ck_assert(dmlconf_case_buffer_bytes(find_case(&file, "b.strided"), &buffers));
    ck_assert_uint_eq(buffers.input, 8);   /* 4 stored elements of 2 bytes */
    ck_assert_uint_eq(buffers.output, 40); /* rows 8 elements apart: 2 * 8 + 4 elements */
    ck_assert_uint_eq(buffers.logical, 24);
    ck_assert_uint_eq(buffers.expected, 0);
    ck_assert(dmlconf_case_buffer_bytes(find_case(&file, "b.in.place"), &buffers));
    ck_assert_uint_eq(buffers.input, 40);
    ck_assert_uint_eq(buffers.output, 0);
    ck_assert_uint_eq(buffers.logical, 40);
    ck_assert_uint_eq(buffers.expected, 40);
    ck_assert(!dmlconf_case_buffer_bytes(find_case(&file, "b.negative"), &buffers));
    ck_assert_uint_eq(buffers.input + buffers.output + buffers.logical + buffers.expected, 0);
    dmlconf_case_file_free(&file);
}
END_TEST

/* Output strides that interleave on a tensor too large to list are refused
 * as the oracle refuses them, with a message that says why no two elements
 * are named. */
START_TEST(test_output_overlap_unlisted)
{
    static const char *const text = "cases:\n"
                                    "  - id: overlap.large\n"
                                    "    op: cumulative_summation\n"
                                    "    dtype: float32\n"
                                    "    sizes: [3, 2, 700000]\n"
                                    "    axis: 2\n"
                                    "    output_strides: [2, 3, 6]\n"
                                    "    input: {generate: constant, value: 1}\n";
    dmlconf_case_file file;
    char *diagnostics;

    ck_assert_uint_eq(dmlconf_case_file_load_buffer(&file, "large.yaml", text, strlen(text), NULL), 1);
    diagnostics = dmlconf_diagnostics_format(&file.diagnostics, NULL);
    ck_assert_str_eq(diagnostics,
                     "large.yaml:7:21: error: output_strides [2, 3, 6] interleave dimensions so that output elements "
                     "may share a place (the tensor is too large to list its elements one by one); each output "
                     "element needs a place of its own\n"
                     "    output_strides: [2, 3, 6]\n"
                     "                    ^\n");
    free(diagnostics);
    dmlconf_case_file_free(&file);
}
END_TEST

/* Chunked reads of generated and inline inputs equal one-shot reads. */
START_TEST(test_chunks_equal_one_shot)
{
    static const char *const ids[] = {"forms.generator", "forms.generator.int", "forms.flat"};
    static const uint64_t chunks[] = {1, 2, 7, 64, 333, 1000};
    char path[512], why[256];
    dmlconf_case_file file;
    const dmlconf_case *c;
    unsigned char *whole, *parts;
    uint64_t count, first, n;
    size_t size, i, k;

    snprintf(path, sizeof(path), "%s/good/forms.yaml", DMLCONF_LOADER_TESTS_DIR);
    load_clean(&file, path);
    for (i = 0; i < sizeof(ids) / sizeof(ids[0]); ++i)
    {
        c = find_case(&file, ids[i]);
        count = dmlconf_case_element_count(c);
        size = dmlconf_case_element_size(c);
        whole = read_all(c, &c->input);
        parts = malloc((size_t)count * size);
        ck_assert(parts != NULL);
        for (k = 0; k < sizeof(chunks) / sizeof(chunks[0]); ++k)
        {
            memset(parts, 0xa5, (size_t)count * size);
            for (first = 0; first < count; first += n)
            {
                n = count - first < chunks[k] ? count - first : chunks[k];
                ck_assert(!dmlconf_case_data_read(c, &c->input, first, n, parts + first * size, why, sizeof(why)));
            }
            ck_assert_msg(!memcmp(whole, parts, (size_t)count * size), "%s: chunks of %llu differ", ids[i],
                          (unsigned long long)chunks[k]);
        }
        ck_assert(dmlconf_case_data_read(c, &c->input, count, 1, parts, why, sizeof(why)) == -1);
        ck_assert(dmlconf_case_data_read(c, &c->expected, 0, 1, parts, why, sizeof(why)) == -1 ||
                  c->expected.kind != DMLCONF_CASE_DATA_NONE);
        free(whole);
        free(parts);
    }
    dmlconf_case_file_free(&file);
}
END_TEST

/* .npy inputs and expected values, read in chunks. */
START_TEST(test_npy_input)
{
    static const uint64_t shape[] = {2, 3};
    static const float input[] = {1, 2, 3, 4, 5, 6};
    static const float expected[] = {1, 3, 6, 4, 9, 15};
    char *dir = make_temp_dir("npy"), *yaml = join(dir, "npy.yaml"), *in = join(dir, "in.npy");
    char *sub = join(dir, "sub"), *out = join(dir, "sub/out.npy"), why[256];
    dmlconf_case_file file;
    const dmlconf_case *c;
    float values[6];
    uint64_t i;

    ck_assert(!mkdir(sub, 0700));
    ck_assert_msg(!dmlconf_npy_write(in, DMLCONF_DATA_TYPE_FLOAT32, 2, shape, input, why, sizeof(why)), "%s", why);
    ck_assert_msg(!dmlconf_npy_write(out, DMLCONF_DATA_TYPE_FLOAT32, 2, shape, expected, why, sizeof(why)), "%s", why);
    write_text(yaml, "cases:\n"
                     "  - id: npy.case\n"
                     "    op: cumulative_summation\n"
                     "    dtype: float32\n"
                     "    sizes: [2, 3]\n"
                     "    axis: 1\n"
                     "    input: {npy: in.npy}\n"
                     "    expected: {npy: sub/out.npy}\n");
    load_clean(&file, yaml);
    c = &file.cases[0];
    ck_assert_int_eq(c->input.kind, DMLCONF_CASE_DATA_NPY);
    ck_assert_str_eq(c->input.npy_text, "in.npy");
    ck_assert_str_eq(c->input.npy_path, in);
    ck_assert_str_eq(c->expected.npy_path, out);
    for (i = 0; i < 6; ++i)
    {
        ck_assert(!dmlconf_case_data_read(c, &c->input, i, 1, &values[i], why, sizeof(why)));
    }
    ck_assert_mem_eq(values, input, sizeof(input));
    ck_assert(!dmlconf_case_data_read(c, &c->expected, 0, 6, values, why, sizeof(why)));
    ck_assert_mem_eq(values, expected, sizeof(expected));
    dmlconf_case_file_free(&file);
    remove_tree(dir);
    free(dir);
    free(yaml);
    free(in);
    free(sub);
    free(out);
}
END_TEST

/* ---- bless ---------------------------------------------------------------------- */

/* A copy of `text` without its "expected: [...]" / "expected: {...}"
 * entries: each removed with the line break and indentation, or the ", ",
 * before it, up to its closing bracket. *count receives how many. */
static char *strip_expected(const char *text, size_t *count)
{
    size_t length = strlen(text), i = 0, out = 0, start, depth;
    char *copy = malloc(length + 1);

    ck_assert(copy != NULL);
    *count = 0;
    while (i < length)
    {
        start = i;
        if (text[i] == '\n')
        {
            ++i;
            while (text[i] == ' ')
            {
                ++i;
            }
        }
        else if (text[i] == ',' && text[i + 1] == ' ')
        {
            i += 2;
        }
        if (i > start && !strncmp(text + i, "expected: ", 10) && (text[i + 10] == '[' || text[i + 10] == '{'))
        {
            i += 10;
            depth = 0;
            do
            {
                depth += text[i] == '[' || text[i] == '{';
                depth -= text[i] == ']' || text[i] == '}';
                ++i;
            } while (depth && i < length);
            ++*count;
            continue;
        }
        i = start;
        copy[out++] = text[i++];
    }
    copy[out] = '\0';
    return copy;
}

/* Checks that `blessed` is `original` with `added` expected entries added and
 * no other byte changed. */
static void assert_only_expected_added(const char *original, const char *blessed, size_t added)
{
    size_t original_count, blessed_count;
    char *a = strip_expected(original, &original_count), *b = strip_expected(blessed, &blessed_count);

    ck_assert_uint_eq(blessed_count, original_count + added);
    if (strcmp(a, b))
    {
        fprintf(stderr, "--- original\n%s--- blessed\n%s", original, blessed);
        ck_abort_msg("bless changed more than the expected entries (both texts are on stderr)");
    }
    free(a);
    free(b);
}

START_TEST(test_bless_round_trip)
{
    char *dir = make_temp_dir("bless"), *path = join(dir, "proto.yaml"), source[512];
    char *original, *blessed, *again;
    dmlconf_bless_options all = {true};
    dmlconf_diagnostics diags = {0};
    dmlconf_case_file file;
    const dmlconf_case *c;
    size_t i, bytes;
    void *values, *expected;
    long count;

    snprintf(source, sizeof(source), "%s/good/bless_prototype.yaml", DMLCONF_LOADER_TESTS_DIR);
    original = read_file(source, NULL);
    ck_assert(original != NULL);
    write_text(path, original);

    load_clean(&file, path);
    count = dmlconf_case_file_bless(&file, NULL, &diags);
    ck_assert_msg(count == 4, "bless returned %ld: %s", count, diags.count ? diags.items[0].message : "");
    dmlconf_case_file_free(&file);
    blessed = read_file(path, NULL);
    ck_assert(blessed != NULL);
    assert_only_expected_added(original, blessed, 4);

    /* Reloaded, every positive case has the oracle's values inline. */
    load_clean(&file, path);
    ck_assert_uint_eq(file.case_count, 6);
    for (i = 0; i < file.case_count; ++i)
    {
        c = &file.cases[i];
        if (c->expect_error.set)
        {
            ck_assert_int_eq(c->expected.kind, DMLCONF_CASE_DATA_NONE);
            continue;
        }
        ck_assert_msg(c->expected.kind == DMLCONF_CASE_DATA_INLINE, "%s has no expected", c->id);
        bytes = (size_t)dmlconf_case_element_count(c) * dmlconf_case_element_size(c);
        values = read_all(c, &c->expected);
        expected = oracle_expected(c);
        ck_assert_msg(!memcmp(values, expected, bytes), "%s: blessed values differ from the oracle's", c->id);
        free(values);
        free(expected);
    }

    /* Nothing left to bless; blessing everything again changes nothing. */
    ck_assert_int_eq(dmlconf_case_file_bless(&file, NULL, &diags), 0);
    ck_assert_int_eq(dmlconf_case_file_bless(&file, &all, &diags), 5);
    dmlconf_case_file_free(&file);
    again = read_file(path, NULL);
    ck_assert(again != NULL);
    if (strcmp(again, blessed))
    {
        fprintf(stderr, "--- blessed\n%s--- blessed again with all\n%s", blessed, again);
        ck_abort_msg("blessing all cases again changed the file (both texts are on stderr)");
    }
    ck_assert_uint_eq(diags.error_count, 0);

    /* A file that changed since it was loaded, or has errors, is refused. */
    load_clean(&file, path);
    write_text(path, original);
    ck_assert_int_eq(dmlconf_case_file_bless(&file, NULL, &diags), -1);
    ck_assert_uint_eq(diags.error_count, 1);
    dmlconf_case_file_free(&file);
    write_text(path, "cases:\n  - id: broken\n");
    dmlconf_case_file_load(&file, path, NULL);
    ck_assert_int_eq(dmlconf_case_file_bless(&file, NULL, &diags), -1);
    ck_assert_uint_eq(diags.error_count, 2);
    dmlconf_case_file_free(&file);

    dmlconf_diagnostics_free(&diags);
    free(original);
    free(blessed);
    free(again);
    free(path);
    remove_tree(dir);
    free(dir);
}
END_TEST

/* A case with .npy input is blessed into a sibling .npy. */
START_TEST(test_bless_npy)
{
    static const uint64_t shape[] = {4};
    static const int32_t input[] = {1, -2, 3, 2147483647};
    char *dir = make_temp_dir("blessnpy"), *path = join(dir, "case.yaml"), *in = join(dir, "data/in.npy");
    char *folder = join(dir, "data"), *result = join(dir, "data/npy.bless.expected.npy"), why[256], *text;
    dmlconf_diagnostics diags = {0};
    dmlconf_case_file file;
    const dmlconf_case *c;
    void *values, *expected;

    ck_assert(!mkdir(folder, 0700));
    ck_assert(!dmlconf_npy_write(in, DMLCONF_DATA_TYPE_INT32, 1, shape, input, why, sizeof(why)));
    write_text(path, "cases:\n"
                     "  - id: npy.bless\n"
                     "    op: cumulative_summation\n"
                     "    dtype: int32\n"
                     "    sizes: [4]\n"
                     "    axis: 0\n"
                     "    input: {npy: data/in.npy}\n");
    load_clean(&file, path);
    ck_assert_int_eq(dmlconf_case_file_bless(&file, NULL, &diags), 1);
    dmlconf_case_file_free(&file);
    text = read_file(path, NULL);
    ck_assert(text != NULL);
    ck_assert_ptr_nonnull(
        strstr(text, "    input: {npy: data/in.npy}\n    expected: {npy: data/npy.bless.expected.npy}\n"));
    load_clean(&file, path);
    c = &file.cases[0];
    ck_assert_int_eq(c->expected.kind, DMLCONF_CASE_DATA_NPY);
    ck_assert_str_eq(c->expected.npy_path, result);
    values = read_all(c, &c->expected);
    expected = oracle_expected(c);
    ck_assert_mem_eq(values, expected, sizeof(input));
    dmlconf_case_file_free(&file);
    dmlconf_diagnostics_free(&diags);
    free(values);
    free(expected);
    free(text);
    remove_tree(dir);
    free(dir);
    free(path);
    free(in);
    free(folder);
    free(result);
}
END_TEST

/* A generated input stays a generator: a large one's expected values go to
 * an .npy file beside the case file, a small one's inline. A named pipe
 * where the .npy file goes is not written through (nor waited on). */
START_TEST(test_bless_generator)
{
    static const char *const text = "defaults: {op: cumulative_summation, dtype: float32, axis: 1}\n"
                                    "cases:\n"
                                    "  - id: gen.large\n"
                                    "    sizes: [70, 3000]\n"
                                    "    input: {generate: dyadic, min: -64, max: 64, scale: 4, seed: 5}\n"
                                    "  - id: gen.small\n"
                                    "    sizes: [2, 4]\n"
                                    "    input: {generate: integers, min: -3, max: 3, seed: 6}\n";
    char *dir = make_temp_dir("blessgen"), *path = join(dir, "gen.yaml"), *npy = join(dir, "gen.large.expected.npy");
    char *blessed;
    dmlconf_diagnostics diags = {0};
    dmlconf_case_file file;
    size_t size = 0, i;
    void *values, *expected;

    /* First with a named pipe in the way: refused, the file left alone. */
    write_text(path, text);
    ck_assert(!mkfifo(npy, 0600));
    load_clean(&file, path);
    ck_assert_int_eq(dmlconf_case_file_bless(&file, NULL, &diags), -1);
    dmlconf_case_file_free(&file);
    ck_assert_uint_eq(diags.count, 1);
    ck_assert_ptr_nonnull(strstr(diags.items[0].message, "is a named pipe (FIFO), not a regular file; it is not "
                                                         "replaced"));
    dmlconf_diagnostics_free(&diags);
    blessed = read_file(path, NULL);
    ck_assert_str_eq(blessed, text);
    free(blessed);
    ck_assert(!remove(npy));

    load_clean(&file, path);
    ck_assert_int_eq(dmlconf_case_file_bless(&file, NULL, &diags), 2);
    dmlconf_case_file_free(&file);
    blessed = read_file(path, &size);
    ck_assert_ptr_nonnull(strstr(blessed, "    input: {generate: dyadic, min: -64, max: 64, scale: 4, seed: 5}\n"
                                          "    expected: {npy: gen.large.expected.npy}\n"));
    ck_assert_ptr_nonnull(strstr(blessed, "    input: {generate: integers, min: -3, max: 3, seed: 6}\n"
                                          "    expected: ["));
    ck_assert_uint_lt(size, strlen(text) + 200); /* no 210,000 values written out */
    free(blessed);

    load_clean(&file, path);
    for (i = 0; i < file.case_count; ++i)
    {
        const dmlconf_case *c = &file.cases[i];
        ck_assert_int_eq(c->input.kind, DMLCONF_CASE_DATA_GENERATOR);
        ck_assert_int_eq(c->expected.kind, i == 0 ? DMLCONF_CASE_DATA_NPY : DMLCONF_CASE_DATA_INLINE);
        values = read_all(c, &c->expected);
        expected = oracle_expected(c);
        ck_assert_mem_eq(values, expected, (size_t)dmlconf_case_element_count(c) * 4);
        free(values);
        free(expected);
    }
    ck_assert_str_eq(file.cases[0].expected.npy_path, npy);
    dmlconf_case_file_free(&file);
    remove_tree(dir);
    free(dir);
    free(path);
    free(npy);
}
END_TEST

/* ---- the corpus ----------------------------------------------------------------- */

START_TEST(test_corpus)
{
    static const char *const expected_text =
        "b.yaml:3:1: error: YAML syntax error: found unexpected end of stream while scanning a quoted scalar (which "
        "started at line 2, column 9)\n"
        "sub/c.yaml:2:9: error: duplicate id 'shared.id' (first defined at a.yaml:2:9)\n"
        "  - id: shared.id\n"
        "        ^\n";
    static const char *const good = "cases:\n"
                                    "  - id: shared.id\n"
                                    "    op: cumulative_summation\n"
                                    "    dtype: float32\n"
                                    "    sizes: [2]\n"
                                    "    axis: 0\n"
                                    "    input: [1, 2]\n";
    char *dir = make_temp_dir("corpus"), *sub = join(dir, "sub"), *a = join(dir, "a.yaml"), *b = join(dir, "b.yaml");
    char *c = join(dir, "sub/c.yaml"), *hidden = join(dir, ".hidden.yaml"), *other = join(dir, "notes.txt");
    const char *paths[2];
    dmlconf_case_corpus corpus;
    char *text;

    ck_assert(!mkdir(sub, 0700));
    write_text(a, good);
    write_text(b, "cases:\n  - id: \"x\n");
    write_text(c, good);
    write_text(hidden, "not: [loaded\n");
    write_text(other, "not a case file\n");
    paths[0] = dir;
    paths[1] = a; /* named twice: loaded once */
    ck_assert_uint_eq(dmlconf_case_corpus_load(&corpus, paths, 2, NULL), 2);
    ck_assert_uint_eq(corpus.file_count, 3);
    ck_assert_uint_eq(corpus.case_count, 2);
    ck_assert_str_eq(corpus.files[0].path, a);
    ck_assert_str_eq(corpus.files[2].path, c);
    ck_assert(corpus.files[1].stopped);
    text = NULL;
    {
        /* Print into a string through a temporary file. */
        FILE *out = tmpfile();
        size_t size;
        ck_assert(out != NULL);
        ck_assert(!dmlconf_case_corpus_print(&corpus, dir, out));
        size = (size_t)ftell(out);
        rewind(out);
        text = calloc(size + 1, 1);
        ck_assert(text != NULL);
        ck_assert(fread(text, 1, size, out) == size);
        fclose(out);
    }
    if (strcmp(text, expected_text))
    {
        fprintf(stderr, "corpus output:\n%s", text);
        ck_abort_msg("the corpus output differs (it is on stderr)");
    }
    dmlconf_case_corpus_free(&corpus);
    free(text);
    remove_tree(dir);
    free(dir);
    free(sub);
    free(a);
    free(b);
    free(c);
    free(hidden);
    free(other);
}
END_TEST

/* ---- hostile inputs ------------------------------------------------------------- */

START_TEST(test_file_too_large)
{
    char *dir = make_temp_dir("large"), *path = join(dir, "huge.yaml"), *text;
    dmlconf_case_file file;
    FILE *out = fopen(path, "wb");

    /* A sparse file just over the limit: refused before anything is read. */
    ck_assert(out != NULL);
    ck_assert(!fseek(out, (long)DMLCONF_CASE_MAX_FILE_BYTES, SEEK_SET));
    ck_assert(fputc('\n', out) != EOF);
    ck_assert(!fclose(out));
    ck_assert_uint_eq(dmlconf_case_file_load(&file, path, NULL), 1);
    text = dmlconf_diagnostics_format(&file.diagnostics, dir);
    ck_assert_str_eq(text, "huge.yaml: error: the file is 268435457 bytes, larger than the limit of 268435456 bytes\n");
    free(text);
    dmlconf_case_file_free(&file);
    remove(path);
    free(path);
    remove_tree(dir);
    free(dir);
}
END_TEST

/* The diagnostics of a load, relative to `dir`, as one string (freed by
 * the caller). */
static char *load_diagnostics(const char *path, const char *dir, size_t *errors)
{
    dmlconf_case_file file;
    char *text;

    *errors = dmlconf_case_file_load(&file, path, NULL);
    text = dmlconf_diagnostics_format(&file.diagnostics, dir);
    ck_assert(text != NULL);
    dmlconf_case_file_free(&file);
    return text;
}

/* A named pipe, a device or a directory where a case file or a .npy file
 * belongs is refused with what it is, without blocking (the test case's
 * timeout fails a hang). */
START_TEST(test_not_regular_files)
{
    static const char *const npy_case = "cases:\n"
                                        "  - id: npy.fifo\n"
                                        "    op: cumulative_summation\n"
                                        "    dtype: float32\n"
                                        "    sizes: [4]\n"
                                        "    axis: 0\n"
                                        "    input: {npy: pipe.npy}\n"
                                        "  - id: npy.folder\n"
                                        "    op: cumulative_summation\n"
                                        "    dtype: float32\n"
                                        "    sizes: [4]\n"
                                        "    axis: 0\n"
                                        "    input: {npy: folder.npy}\n"
                                        "  - id: npy.device\n"
                                        "    op: cumulative_summation\n"
                                        "    dtype: float32\n"
                                        "    sizes: [4]\n"
                                        "    axis: 0\n"
                                        "    input: {npy: /dev/null}\n";
    char *dir = make_temp_dir("special"), *fifo = join(dir, "fifo.yaml"), *folder = join(dir, "folder.yaml");
    char *pipe_npy = join(dir, "pipe.npy"), *folder_npy = join(dir, "folder.npy"), *cases = join(dir, "npy.yaml");
    char *text;
    size_t errors;

    ck_assert(!mkfifo(fifo, 0600));
    ck_assert(!mkfifo(pipe_npy, 0600));
    ck_assert(!mkdir(folder, 0700));
    ck_assert(!mkdir(folder_npy, 0700));
    write_text(cases, npy_case);

    text = load_diagnostics(fifo, dir, &errors);
    ck_assert_uint_eq(errors, 1);
    ck_assert_str_eq(text, "fifo.yaml: error: is a named pipe (FIFO), not a regular file\n");
    free(text);
    text = load_diagnostics(folder, dir, &errors);
    ck_assert_str_eq(text, "folder.yaml: error: is a directory, not a regular file\n");
    free(text);
    text = load_diagnostics("/dev/null", NULL, &errors);
    ck_assert_str_eq(text, "/dev/null: error: is a character device, not a regular file\n");
    free(text);

    text = load_diagnostics(cases, dir, &errors);
    ck_assert_uint_eq(errors, 3);
    ck_assert_str_eq(text, "npy.yaml:7:18: error: input: pipe.npy: is a named pipe (FIFO), not a regular file\n"
                           "    input: {npy: pipe.npy}\n"
                           "                 ^\n"
                           "npy.yaml:13:18: error: input: folder.npy: is a directory, not a regular file\n"
                           "    input: {npy: folder.npy}\n"
                           "                 ^\n"
                           "npy.yaml:19:18: error: input: /dev/null: is a character device, not a regular file\n"
                           "    input: {npy: /dev/null}\n"
                           "                 ^\n");
    free(text);

    /* A folder of the corpus: the pipe named like a case file is reported,
     * not skipped and not waited on; the folder named like one is searched. */
    dmlconf_case_corpus corpus;
    const char *paths[] = {dir};
    ck_assert_uint_eq(dmlconf_case_corpus_load(&corpus, paths, 1, NULL), 4);
    ck_assert_uint_eq(corpus.file_count, 2);
    ck_assert_str_eq(corpus.files[0].path, fifo);
    ck_assert_str_eq(corpus.files[0].diagnostics.items[0].message, "is a named pipe (FIFO), not a regular file");
    dmlconf_case_corpus_free(&corpus);

    remove_tree(dir);
    free(dir);
    free(fifo);
    free(folder);
    free(pipe_npy);
    free(folder_npy);
    free(cases);
}
END_TEST

/* Nothing from a case file acts on the terminal: diagnostics escape control
 * characters in messages and paths; a path with one is not loaded. */
START_TEST(test_control_characters_escaped)
{
    dmlconf_diagnostics list = {0};
    dmlconf_case_file file;
    char *text;

    dmlconf_diagnostics_add(&list, DMLCONF_SEVERITY_ERROR, "dir\x1b[2J/a.yaml", 3, 4,
                            "C0 \x01\x1b\x7f, C1 \xc2\x9b, bidi \xe2\x80\xae and \xe2\x81\xa6, not UTF-8 \xff\xc3, "
                            "text \xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82, breaks \t\r\n, line separator \xe2\x80\xa8");
    text = dmlconf_diagnostics_format(&list, NULL);
    ck_assert_str_eq(text, "dir\\x1b[2J/a.yaml:3:4: error: C0 \\x01\\x1b\\x7f, C1 \\u009b, bidi \\u202e and "
                           "\\u2066, not UTF-8 \\xff\\xc3, text \xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82, breaks "
                           "\\t\\r\\n, line separator \\u2028\n");
    free(text);
    dmlconf_diagnostics_free(&list);

    ck_assert_uint_eq(dmlconf_case_file_load_buffer(&file, "evil\x1b]0;title\a.yaml", "cases: []\n", 10, NULL), 1);
    ck_assert(file.stopped);
    text = dmlconf_diagnostics_format(&file.diagnostics, NULL);
    ck_assert_str_eq(text, "evil\\x1b]0;title\\x07.yaml: error: the file's path holds the control character U+001B; "
                           "name case files with printable text\n");
    free(text);
    dmlconf_case_file_free(&file);
}
END_TEST

/* A case file's path is at most DMLCONF_CASE_MAX_PATH_BYTES long. */
START_TEST(test_long_path)
{
    static const char *const text = "cases: []\n";
    char path[DMLCONF_CASE_MAX_PATH_BYTES + 2], *diagnostics;
    dmlconf_case_file file;

    memset(path, 'p', sizeof(path) - 1);
    path[sizeof(path) - 1] = '\0';
    memcpy(path + sizeof(path) - 6, ".yaml", 5);
    ck_assert_uint_eq(strlen(path), DMLCONF_CASE_MAX_PATH_BYTES + 1);
    ck_assert_uint_eq(dmlconf_case_file_load_buffer(&file, path, text, strlen(text), NULL), 1);
    diagnostics = dmlconf_diagnostics_format(&file.diagnostics, NULL);
    ck_assert_ptr_nonnull(strstr(diagnostics, ".yaml: error: the file's path is 256 bytes long; a case file's path "
                                              "has at most 255, so that every report carries it whole\n"));
    free(diagnostics);
    dmlconf_case_file_free(&file);
    /* The longest path that fits. */
    memmove(path + 1, path + 2, sizeof(path) - 2);
    ck_assert_uint_eq(strlen(path), DMLCONF_CASE_MAX_PATH_BYTES);
    ck_assert_uint_eq(dmlconf_case_file_load_buffer(&file, path, text, strlen(text), NULL), 0);
    dmlconf_case_file_free(&file);
}
END_TEST

START_TEST(test_long_scalar)
{
    size_t length = DMLCONF_CASE_MAX_SCALAR_BYTES + 10, prefix;
    char *text = malloc(length + 64), *diags;
    dmlconf_case_file file;

    ck_assert(text != NULL);
    prefix = (size_t)snprintf(text, 64, "cases:\n  - id: x\n    notes: ");
    memset(text + prefix, 'a', length);
    memcpy(text + prefix + length, "\n", 2);
    ck_assert_uint_eq(dmlconf_case_file_load_buffer(&file, "long.yaml", text, strlen(text), NULL), 1);
    diags = dmlconf_diagnostics_format(&file.diagnostics, NULL);
    ck_assert_ptr_nonnull(strstr(diags, "long.yaml:3:12: error: a scalar of 1048586 bytes is longer than the limit of "
                                        "1048576 bytes\n"));
    free(diags);
    free(text);
    dmlconf_case_file_free(&file);
}
END_TEST

/* A huge inline list loads (bounded by the element checks, no per-element
 * allocation); far more elements than sizes hold is one error. */
START_TEST(test_huge_inline_list)
{
#if defined(__SANITIZE_ADDRESS__)
    const uint32_t count = 1000000;
#else
    const uint32_t count = 10000000;
#endif
    size_t capacity = (size_t)count * 3 + 256, used;
    char *text = malloc(capacity), *diags, *sizes;
    ptrdiff_t digits;
    dmlconf_case_file file;
    clock_t start;
    uint32_t i;

    ck_assert(text != NULL);
    used = (size_t)snprintf(text, capacity,
                            "cases:\n  - id: huge\n    op: cumulative_summation\n    dtype: int32\n"
                            "    sizes: [%u]\n    axis: 0\n    input: [",
                            (unsigned)count);
    for (i = 0; i < count; ++i)
    {
        text[used++] = (char)('0' + i % 10);
        text[used++] = ',';
        text[used++] = ' ';
    }
    memcpy(text + used - 2, "]\n", 3);
    start = clock();
    ck_assert_uint_eq(dmlconf_case_file_load_buffer(&file, "huge.yaml", text, used, NULL), 0);
    ck_assert_uint_eq(file.case_count, 1);
    ck_assert_uint_eq(dmlconf_case_element_count(&file.cases[0]), count);
    ck_assert_int_eq(((const int32_t *)file.cases[0].input.values)[count - 1], (int32_t)((count - 1) % 10));
    fprintf(stderr, "loaded %u inline elements (%zu bytes) in %.2f s\n", (unsigned)count, used,
            (double)(clock() - start) / CLOCKS_PER_SEC);
    dmlconf_case_file_free(&file);

    /* The same list for a 4-element tensor: one error, not ten million. */
    sizes = strstr(text, "sizes: [") + 8;
    digits = strchr(sizes, ']') - sizes;
    memset(sizes, ' ', (size_t)digits + 1);
    memcpy(sizes, "4]", 2);
    ck_assert_uint_eq(dmlconf_case_file_load_buffer(&file, "huge.yaml", text, used, NULL), 1);
    diags = dmlconf_diagnostics_format(&file.diagnostics, NULL);
    ck_assert_ptr_nonnull(strstr(diags, "values but sizes [4] hold 4 elements"));
    free(diags);
    dmlconf_case_file_free(&file);
    free(text);
}
END_TEST

/* ---- the user documentation ----------------------------------------------------- */

/* Every ```yaml block of cases/README.md that holds `cases:` loads without
 * errors (blocks that use .npy files are skipped: the files are not there;
 * so is the reference block that shows every key at once). */
START_TEST(test_readme_examples)
{
    char *readme = read_file(DMLCONF_CASES_README, NULL), *block, *end, *text;
    dmlconf_case_file file;
    size_t checked = 0;

    ck_assert_msg(readme != NULL, "cannot read %s", DMLCONF_CASES_README);
    for (block = strstr(readme, "```yaml\n"); block; block = strstr(end, "```yaml\n"))
    {
        block += 8;
        end = strstr(block, "```");
        ck_assert(end != NULL);
        *end = '\0';
        if (strstr(block, "cases:") && !strstr(block, "npy:") && !strstr(block, "not a loadable file"))
        {
            dmlconf_case_file_load_buffer(&file, "README.md", block, strlen(block), NULL);
            text = dmlconf_diagnostics_format(&file.diagnostics, NULL);
            ck_assert_msg(file.diagnostics.error_count == 0, "a README example has errors:\n%s\n%s", text, block);
            free(text);
            dmlconf_case_file_free(&file);
            ++checked;
        }
        *end = '`';
        end += 3;
    }
    ck_assert_uint_ge(checked, 3);
    free(readme);
}
END_TEST

static Suite *loader_suite(void)
{
    Suite *suite = suite_create("loader");
    TCase *tc;

    tc = tcase_create("bad_files");
    tcase_add_loop_test(tc, test_bad_file, 0, (int)BAD_FILE_COUNT);
    tcase_add_test(tc, test_bad_folder_listed);
    suite_add_tcase(suite, tc);

    tc = tcase_create("good_files");
    tcase_add_test(tc, test_good_forms);
    tcase_add_test(tc, test_good_tolerances);
    tcase_add_test(tc, test_buffer_bytes);
    tcase_add_test(tc, test_output_overlap_unlisted);
    tcase_add_test(tc, test_chunks_equal_one_shot);
    tcase_add_test(tc, test_npy_input);
    suite_add_tcase(suite, tc);

    tc = tcase_create("bless");
    tcase_add_test(tc, test_bless_round_trip);
    tcase_add_test(tc, test_bless_npy);
    tcase_add_test(tc, test_bless_generator);
    suite_add_tcase(suite, tc);

    tc = tcase_create("corpus");
    tcase_add_test(tc, test_corpus);
    suite_add_tcase(suite, tc);

    tc = tcase_create("special_files");
    tcase_set_timeout(tc, 10); /* a load that waits on a named pipe fails here */
    tcase_add_test(tc, test_not_regular_files);
    suite_add_tcase(suite, tc);

    tc = tcase_create("hostile");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_file_too_large);
    tcase_add_test(tc, test_long_scalar);
    tcase_add_test(tc, test_long_path);
    tcase_add_test(tc, test_control_characters_escaped);
    tcase_add_test(tc, test_huge_inline_list);
    suite_add_tcase(suite, tc);

    tc = tcase_create("documentation");
    tcase_add_test(tc, test_readme_examples);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(loader_suite());
    int failed;

    srunner_run_all(runner, CK_NORMAL);
    failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
