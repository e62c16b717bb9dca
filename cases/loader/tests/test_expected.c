/*
 * Tests of the check of the expected values a case gives against the
 * oracle: a wrong value is an error at its own line:column (flow, block and
 * nested lists, lists whose text does not parse on its own, non-ASCII text
 * before them), with the given and the oracle's values and the rule; the
 * case's own tolerance accepts what it allows and nothing more; without one the values must be the oracle's bits (1 ulp
 * off, a zero of the wrong sign); NaN and infinities; .npy files (read in
 * slabs); which cases each expected_check option takes.
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <dmlconf/case.h>
#include <dmlconf/npy.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- helpers ---------------------------------------------------------------- */

/* Loads `text` as the case file "check.yaml" with the given check. Returns
 * the error count; the caller frees the file. */
static size_t load_text(dmlconf_case_file *file, const char *text, dmlconf_expected_check check)
{
    dmlconf_load_options options = {.expected_check = check};

    return dmlconf_case_file_load_buffer(file, "check.yaml", text, strlen(text), &options);
}

/* Fails with every diagnostic of the file unless it has exactly `errors`
 * errors and `cases` valid cases. */
static void assert_counts(const dmlconf_case_file *file, size_t errors, size_t cases)
{
    char *text = dmlconf_diagnostics_format(&file->diagnostics, NULL);

    ck_assert_msg(file->diagnostics.error_count == errors && file->case_count == cases,
                  "%zu errors and %zu cases, expected %zu and %zu:\n%s", file->diagnostics.error_count,
                  file->case_count, errors, cases, text ? text : "?");
    free(text);
}

/* Asserts that diagnostic `index` is an error at line:column whose message
 * holds every string of `parts` (NULL-terminated). */
static void assert_error(const dmlconf_case_file *file, size_t index, uint32_t line, uint32_t column,
                         const char *const *parts)
{
    const dmlconf_diagnostic *d;
    size_t i;

    ck_assert_msg(index < file->diagnostics.count, "no diagnostic %zu (%zu in all)", index, file->diagnostics.count);
    d = &file->diagnostics.items[index];
    ck_assert_int_eq(d->severity, DMLCONF_SEVERITY_ERROR);
    ck_assert_msg(d->line == line && d->column == column, "error at %u:%u, expected %u:%u: %s", (unsigned)d->line,
                  (unsigned)d->column, (unsigned)line, (unsigned)column, d->message);
    for (i = 0; parts[i]; ++i)
    {
        ck_assert_msg(strstr(d->message, parts[i]) != NULL, "'%s' is not in: %s", parts[i], d->message);
    }
}

/* A fresh folder under the test's working folder; the caller frees the name. */
static char *make_temp_dir(void)
{
    char *path = malloc(64);

    ck_assert(path != NULL);
    snprintf(path, 64, "expected_XXXXXX");
    ck_assert_msg(mkdtemp(path) != NULL, "mkdtemp failed");
    return path;
}

/* Removes a folder made by make_temp_dir and the files in it. */
static void remove_folder(const char *path)
{
    struct dirent *entry;
    char child[512];
    DIR *dir = opendir(path);

    if (dir)
    {
        while ((entry = readdir(dir)))
        {
            if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, ".."))
            {
                snprintf(child, sizeof(child), "%s/%s", path, entry->d_name);
                remove(child);
            }
        }
        closedir(dir);
    }
    rmdir(path);
}

static void write_text(const char *path, const char *text)
{
    FILE *file = fopen(path, "wb");

    ck_assert_msg(file != NULL, "cannot create %s", path);
    ck_assert(fwrite(text, 1, strlen(text), file) == strlen(text));
    ck_assert(fclose(file) == 0);
}

/* The head of a float32 summation case of 4 elements, input [1, 2, 3, 4]
 * (the oracle's result: 1, 3, 6, 10), its expected line next. */
#define SUM4                                                                                                           \
    "cases:\n"                                                                                                         \
    "  - id: sum4\n"                                                                                                   \
    "    op: cumulative_summation\n"                                                                                   \
    "    dtype: float32\n"                                                                                             \
    "    sizes: [4]\n"                                                                                                 \
    "    axis: 0\n"                                                                                                    \
    "    input: [1, 2, 3, 4]\n"

/* ---- positions ------------------------------------------------------------------ */

START_TEST(test_flow_list_position)
{
    static const char *const parts[] = {"expected item 2: 7 (0x40e00000) given, but the oracle computes 6 (0x40c00000)",
                                        "; rule: bit-exact", "; 1 of the 4 values disagrees with the oracle",
                                        "must be the oracle's own bits", NULL};
    dmlconf_case_file file;

    /* Line 8: "    expected: [1, 3, 7, 10]", the 7 at column 22. */
    ck_assert_uint_eq(load_text(&file, SUM4 "    expected: [1, 3, 7, 10]\n", DMLCONF_EXPECTED_CHECK_BOUNDED), 1);
    assert_counts(&file, 1, 0);
    assert_error(&file, 0, 8, 22, parts);
    ck_assert_ptr_nonnull(file.diagnostics.items[0].snippet);
    ck_assert_str_eq(file.diagnostics.items[0].snippet, "    expected: [1, 3, 7, 10]\n                     ^\n");
    dmlconf_case_file_free(&file);

    /* The right values load. */
    ck_assert_uint_eq(load_text(&file, SUM4 "    expected: [1, 3, 6, 10]\n", DMLCONF_EXPECTED_CHECK_BOUNDED), 0);
    assert_counts(&file, 0, 1);
    dmlconf_case_file_free(&file);
}
END_TEST

START_TEST(test_block_and_wrapped_lists)
{
    static const char *const third[] = {"expected item 3: 11 (0x41300000) given", NULL};
    static const char *const second[] = {"expected item 1: 4 (0x40800000) given", NULL};
    dmlconf_case_file file;

    /* A block list, comments between its items: the 11 on line 12, column 9. */
    ck_assert_uint_eq(load_text(&file,
                                SUM4 "    expected:\n"
                                     "      - 1   # one\n"
                                     "      # a comment line\n"
                                     "      - 3\n"
                                     "      - 6\n"
                                     "      - 11\n"
                                     "    tags: [x]\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      1);
    assert_error(&file, 0, 13, 9, third);
    dmlconf_case_file_free(&file);

    /* A block list at its key's indentation. */
    ck_assert_uint_eq(load_text(&file,
                                SUM4 "    expected:\n"
                                     "    - 1\n"
                                     "    - 3\n"
                                     "    - 6\n"
                                     "    - 11\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      1);
    assert_error(&file, 0, 12, 7, third);
    dmlconf_case_file_free(&file);

    /* A flow list wrapped over lines, as bless writes long ones. */
    ck_assert_uint_eq(load_text(&file,
                                SUM4 "    expected: [1,\n"
                                     "      4, 6,\n"
                                     "      10]\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      1);
    assert_error(&file, 0, 9, 7, second);
    dmlconf_case_file_free(&file);
}
END_TEST

START_TEST(test_nested_list_position)
{
    static const char *const parts[] = {"expected item 5 [1, 2]: 16 (0x41800000) given, but the oracle computes 15",
                                        "1 of the 6 values disagrees", NULL};
    dmlconf_case_file file;

    ck_assert_uint_eq(load_text(&file,
                                "cases:\n"
                                "  - id: nested\n"
                                "    op: cumulative_summation\n"
                                "    dtype: float32\n"
                                "    sizes: [2, 3]\n"
                                "    axis: 1\n"
                                "    input: [[1, 2, 3], [4, 5, 6]]\n"
                                "    expected: [[1, 3, 6],\n"
                                "               [4, 9, 16]]\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      1);
    assert_error(&file, 0, 9, 23, parts);
    dmlconf_case_file_free(&file);
}
END_TEST

/* A list whose text does not parse on its own (the value of a complex key,
 * after ": " on its line) is found by reading the file from its start; a
 * list in a flow mapping after non-ASCII text has its columns counted in
 * characters. */
START_TEST(test_positions_elsewhere)
{
    static const char *const third[] = {"expected item 3: 11 (0x41300000) given", NULL};
    static const char *const first[] = {"expected item 0: 2 (0x00000002) given", NULL};
    dmlconf_case_file file;

    ck_assert_uint_eq(load_text(&file,
                                SUM4 "    ? expected\n"
                                     "    : - 1\n"
                                     "      - 3\n"
                                     "      - 6\n"
                                     "      - 11\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      1);
    assert_error(&file, 0, 12, 9, third);
    dmlconf_case_file_free(&file);

    /* "é" and "→" are one character each: the 2 is at column 113. */
    ck_assert_uint_eq(load_text(&file,
                                "cases:\n"
                                "  - {notes: \"\xc3\xa9\xe2\x86\x92\", id: a, op: cumulative_summation, dtype: int32, "
                                "sizes: [2], axis: 0, input: [1, 1], expected: [2, 2]}\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      1);
    assert_error(&file, 0, 2, 113, first);
    dmlconf_case_file_free(&file);
}
END_TEST

/* The dtype after the values (kept as text until the dtype is known) and
 * the file's defaults change nothing. */
START_TEST(test_dtype_after_values)
{
    static const char *const parts[] = {"expected item 1: 4 (0x00000004) given, but the oracle computes 3 (0x00000003)",
                                        "; rule: integers are bit-exact; 1 apart",
                                        "; 1 of the 3 values disagrees with the oracle", NULL};
    dmlconf_case_file file;

    ck_assert_uint_eq(load_text(&file,
                                "defaults: {op: cumulative_summation, axis: 0}\n"
                                "cases:\n"
                                "  - id: late\n"
                                "    input: [1, 2, 3]\n"
                                "    expected: [1, 4, 6]\n"
                                "    sizes: [3]\n"
                                "    dtype: int32\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      1);
    assert_error(&file, 0, 5, 19, parts);
    /* Integers: no word about tolerances or signed zeros. */
    ck_assert_ptr_null(strstr(file.diagnostics.items[0].message, "signed zeros"));
    ck_assert_ptr_null(strstr(file.diagnostics.items[0].message, "tolerance"));
    dmlconf_case_file_free(&file);
}
END_TEST

/* The first eight wrong values are shown at their places, the rest counted
 * at the end of the list, and the other cases of the file still load. */
START_TEST(test_many_wrong_values)
{
    static const char *const first[] = {"expected item 0: 2 (0x00000002) given, but the oracle computes 1",
                                        "; 12 of the 12 values disagree with the oracle", NULL};
    static const char *const eighth[] = {"expected item 7: 9 (0x00000009) given", NULL};
    static const char *const summary[] = {"expected has 4 more errors like these (only the first 8 are shown)", NULL};
    dmlconf_case_file file;
    size_t i;

    ck_assert_uint_eq(load_text(&file,
                                "defaults: {op: cumulative_summation, dtype: uint32, axis: 0}\n"
                                "cases:\n"
                                "  - id: ones\n"
                                "    sizes: [12]\n"
                                "    input: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
                                "    expected: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]\n"
                                "  - id: fine\n"
                                "    sizes: [2]\n"
                                "    input: [1, 1]\n"
                                "    expected: [1, 2]\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      9);
    assert_counts(&file, 9, 1);
    ck_assert_str_eq(file.cases[0].id, "fine");
    assert_error(&file, 0, 6, 16, first);
    for (i = 1; i < 8; ++i)
    {
        ck_assert_ptr_null(strstr(file.diagnostics.items[i].message, "values disagree"));
        ck_assert_uint_eq(file.diagnostics.items[i].line, 6);
    }
    assert_error(&file, 7, 6, 37, eighth);
    assert_error(&file, 8, 6, 55, summary);
    dmlconf_case_file_free(&file);
}
END_TEST

/* ---- tolerances ----------------------------------------------------------------- */

/* Without a tolerance the values must be the oracle's bits: 1 ulp off is an
 * error, so is a zero of the other sign. */
START_TEST(test_bit_for_bit_without_tolerance)
{
    static const char *const ulp[] = {"expected item 3: 10.000001 (0x41200001) given, but the oracle computes 10 "
                                      "(0x41200000); rule: bit-exact",
                                      "1 ulp apart", NULL};
    static const char *const zero[] = {"expected item 1: 0 (0x00000000) given, but the oracle computes -0 (0x80000000)",
                                       "rule: signed zero", "signed zeros included", NULL};
    dmlconf_case_file file;

    ck_assert_uint_eq(load_text(&file, SUM4 "    expected: [1, 3, 6, 0x1.400002p+3]\n", DMLCONF_EXPECTED_CHECK_BOUNDED),
                      1);
    assert_error(&file, 0, 8, 25, ulp);
    dmlconf_case_file_free(&file);

    ck_assert_uint_eq(load_text(&file,
                                "cases:\n"
                                "  - {id: zeros, op: cumulative_summation, dtype: float32, sizes: [2], axis: 0,\n"
                                "     input: [-0.0, -0.0], expected: [-0.0, 0]}\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      1);
    assert_error(&file, 0, 3, 44, zero);
    dmlconf_case_file_free(&file);

    /* A tolerance of the loose kind accepts either zero. */
    ck_assert_uint_eq(load_text(&file,
                                "cases:\n"
                                "  - {id: zeros, op: cumulative_summation, dtype: float32, sizes: [2], axis: 0,\n"
                                "     input: [-0.0, -0.0], expected: [-0.0, 0], tolerance: {atol: 0}}\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      0);
    dmlconf_case_file_free(&file);
}
END_TEST

START_TEST(test_case_tolerance)
{
    static const char *const atol[] = {"expected item 3: 10.000001 (0x41200001) given",
                                       "rule: atol + rtol |expected| = 1e-07",
                                       "1 of the 4 values disagrees with the oracle under the case's tolerance", NULL};
    static const char *const ulps[] = {"expected item 3: 10.0000029 (0x41200003) given",
                                       "rule: at most 2 ulp apart, no accumulation allowance; error 3 ulp", NULL};
    dmlconf_case_file file;

    /* A peer suite's golden value 1 ulp off, within atol + rtol. */
    ck_assert_uint_eq(load_text(&file,
                                SUM4 "    expected: [1, 3, 6, 0x1.400002p+3]\n"
                                     "    tolerance: {atol: 1e-5, rtol: 1e-3}\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      0);
    assert_counts(&file, 0, 1);
    dmlconf_case_file_free(&file);

    /* The same value outside a tighter one. */
    ck_assert_uint_eq(load_text(&file,
                                SUM4 "    expected: [1, 3, 6, 0x1.400002p+3]\n"
                                     "    tolerance: {atol: 1e-7}\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      1);
    assert_error(&file, 0, 8, 25, atol);
    dmlconf_case_file_free(&file);

    /* A count of ulps from the file's defaults: 2 ulps pass, 3 do not. */
    ck_assert_uint_eq(load_text(&file,
                                "defaults: {op: cumulative_summation, dtype: float32, sizes: [4], axis: 0, "
                                "tolerance: {ulp_count: 2}}\n"
                                "cases:\n"
                                "  - {id: two, input: [1, 2, 3, 4], expected: [1, 3, 6, 0x1.400004p+3]}\n"
                                "  - {id: three, input: [1, 2, 3, 4], expected: [1, 3, 6, 0x1.400006p+3]}\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      1);
    assert_counts(&file, 1, 1);
    ck_assert_str_eq(file.cases[0].id, "two");
    assert_error(&file, 0, 4, 58, ulps);
    dmlconf_case_file_free(&file);
}
END_TEST

START_TEST(test_nan_and_infinity)
{
    static const char *const number[] = {"expected item 2: 3 (0x40400000) given, but the oracle computes nan", NULL};
    static const char *const finite[] = {"expected item 2: 3.40282347e+38 (0x7f7fffff) given, but the oracle "
                                         "computes inf (0x7f800000)",
                                         "rule: atol + rtol |expected|, where an infinity must match exactly", NULL};
    static const char *const sign[] = {"expected item 1: -inf (0xff800000) given, but the oracle computes inf", NULL};
    dmlconf_case_file file;

    /* Any NaN where the oracle's is a NaN, whatever its payload. */
    ck_assert_uint_eq(load_text(&file,
                                "defaults: {op: cumulative_summation, dtype: float32, sizes: [3], axis: 0}\n"
                                "cases:\n"
                                "  - {id: nan.payload, input: [1, nan, 2], expected: [1, bits:0x7fc00001, "
                                "bits:0xffffffff]}\n"
                                "  - {id: nan.number, input: [1, nan, 2], expected: [1, nan, 3]}\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      1);
    assert_counts(&file, 1, 1);
    assert_error(&file, 0, 4, 61, number);
    dmlconf_case_file_free(&file);

    /* An infinity must be that infinity, even under a generous tolerance. */
    ck_assert_uint_eq(load_text(&file,
                                "defaults: {op: cumulative_summation, dtype: float32, sizes: [3], axis: 0}\n"
                                "cases:\n"
                                "  - {id: inf.right, input: [1, inf, 2], expected: [1, inf, inf]}\n"
                                "  - {id: inf.finite, input: [1, inf, 2], expected: [1, inf, 0x1.fffffep+127], "
                                "tolerance: {atol: 1e38, rtol: 1}}\n"
                                "  - {id: inf.sign, input: [1, inf, 2], expected: [1, -inf, inf]}\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      2);
    assert_counts(&file, 2, 1);
    assert_error(&file, 0, 4, 61, finite);
    assert_error(&file, 1, 5, 54, sign);
    dmlconf_case_file_free(&file);
}
END_TEST

/* float16 values (an odd count: the tensor's buffer is rounded up to 4
 * bytes), a strided in-place case and a product: judged on the logical
 * values. */
START_TEST(test_types_and_layouts)
{
    static const char *const half[] = {"expected item 2: 6.0039 (0x4601) given, but the oracle computes 6 (0x4600)",
                                       NULL};
    dmlconf_case_file file;

    ck_assert_uint_eq(load_text(&file,
                                "defaults: {op: cumulative_summation, dtype: float16, sizes: [3], axis: 0}\n"
                                "cases:\n"
                                "  - {id: half.right, input: [1, 2, 3], expected: [1, 3, 6]}\n"
                                "  - {id: half.wrong, input: [1, 2, 3], expected: [1, 3, bits:0x4601]}\n"
                                "  - {id: strided, op: cumulative_product, dtype: int64, sizes: [2, 2], axis: 0,\n"
                                "     input_strides: [1, 2], output_strides: [1, 2], in_place: true,\n"
                                "     direction: decreasing, exclusive: true,\n"
                                "     input: [[2, 3], [4, 5]], expected: [[4, 5], [1, 1]]}\n",
                                DMLCONF_EXPECTED_CHECK_BOUNDED),
                      1);
    assert_counts(&file, 1, 2);
    assert_error(&file, 0, 4, 57, half);
    dmlconf_case_file_free(&file);
}
END_TEST

/* ---- .npy files and the options ------------------------------------------------- */

START_TEST(test_npy_expected)
{
    static const char *const parts[] = {"expected: out.npy: element 5 [1, 2]: 16 (0x00000010) given, but the oracle "
                                        "computes 15 (0x0000000f); rule: integers are bit-exact",
                                        "1 of the 6 values disagrees", NULL};
    static const int32_t right[] = {1, 3, 6, 4, 9, 15};
    static const int32_t wrong[] = {1, 3, 6, 4, 9, 16};
    static const uint64_t shape[] = {2, 3};
    char *folder = make_temp_dir(), path[256], npy[256], why[256];
    dmlconf_case_file file;

    snprintf(path, sizeof(path), "%s/npy.yaml", folder);
    snprintf(npy, sizeof(npy), "%s/out.npy", folder);
    write_text(path, "cases:\n"
                     "  - id: npy\n"
                     "    op: cumulative_summation\n"
                     "    dtype: int32\n"
                     "    sizes: [2, 3]\n"
                     "    axis: 1\n"
                     "    input: [[1, 2, 3], [4, 5, 6]]\n"
                     "    expected: {npy: out.npy}\n");
    ck_assert_msg(!dmlconf_npy_write(npy, DMLCONF_DATA_TYPE_INT32, 2, shape, right, why, sizeof(why)), "%s", why);
    ck_assert_uint_eq(dmlconf_case_file_load(&file, path, NULL), 0);
    dmlconf_case_file_free(&file);
    ck_assert_msg(!dmlconf_npy_write(npy, DMLCONF_DATA_TYPE_INT32, 2, shape, wrong, why, sizeof(why)), "%s", why);
    ck_assert_uint_eq(dmlconf_case_file_load(&file, path, NULL), 1);
    assert_error(&file, 0, 8, 21, parts);
    dmlconf_case_file_free(&file);
    remove_folder(folder);
    free(folder);
}
END_TEST

/* A .npy file of 5 x 2^20 values, read in slabs of whole lines: two wrong
 * values, one in each slab, named by their index and coordinates in the
 * whole tensor. The case is above DMLCONF_CASE_CHECK_EXPECTED_MAX_ELEMENTS:
 * only DMLCONF_EXPECTED_CHECK_ALL checks it. */
START_TEST(test_npy_slabs_and_options)
{
    static const char *const first[] = {"expected: big.npy: element 3145745 [3, 17]: 7 (0x00000007) given, but the "
                                        "oracle computes 1048558 (0x000fffee)",
                                        "; 2 of the 5242880 values disagree with the oracle", NULL};
    static const char *const second[] = {"expected: big.npy: element 4194304 [4, 0]: 0 (0x00000000) given, but the "
                                         "oracle computes 1048575 (0x000fffff)",
                                         NULL};
    const uint32_t n = 1u << 20, lines = 5;
    const uint64_t shape[] = {lines, n};
    char *folder = make_temp_dir(), path[256], npy[256], why[256];
    int32_t *values = malloc((size_t)lines * n * sizeof(*values));
    dmlconf_load_options all = {.expected_check = DMLCONF_EXPECTED_CHECK_ALL};
    dmlconf_case_file file;
    uint32_t line, j;

    ck_assert(values != NULL);
    ck_assert_uint_gt((uint64_t)lines * n, DMLCONF_CASE_CHECK_EXPECTED_MAX_ELEMENTS);
    /* Ones summed decreasing and exclusive: element j is n - 1 - j. */
    for (line = 0; line < lines; ++line)
    {
        for (j = 0; j < n; ++j)
        {
            values[(size_t)line * n + j] = (int32_t)(n - 1u - j);
        }
    }
    snprintf(path, sizeof(path), "%s/big.yaml", folder);
    snprintf(npy, sizeof(npy), "%s/big.npy", folder);
    write_text(path, "cases:\n"
                     "  - id: big\n"
                     "    op: cumulative_summation\n"
                     "    dtype: int32\n"
                     "    sizes: [5, 1048576]\n"
                     "    axis: 1\n"
                     "    direction: decreasing\n"
                     "    exclusive: true\n"
                     "    input: {generate: constant, value: 1}\n"
                     "    expected: {npy: big.npy}\n");
    ck_assert_msg(!dmlconf_npy_write(npy, DMLCONF_DATA_TYPE_INT32, 2, shape, values, why, sizeof(why)), "%s", why);
    ck_assert_uint_eq(dmlconf_case_file_load(&file, path, &all), 0);
    dmlconf_case_file_free(&file);

    values[(size_t)3 * n + 17] = 7;
    values[(size_t)4 * n] = 0;
    ck_assert_msg(!dmlconf_npy_write(npy, DMLCONF_DATA_TYPE_INT32, 2, shape, values, why, sizeof(why)), "%s", why);
    ck_assert_uint_eq(dmlconf_case_file_load(&file, path, &all), 2);
    assert_counts(&file, 2, 0);
    assert_error(&file, 0, 10, 21, first);
    assert_error(&file, 1, 10, 21, second);
    dmlconf_case_file_free(&file);

    /* Every load but validate's leaves a case this large unchecked. */
    ck_assert_uint_eq(dmlconf_case_file_load(&file, path, NULL), 0);
    assert_counts(&file, 0, 1);
    dmlconf_case_file_free(&file);
    free(values);
    remove_folder(folder);
    free(folder);
}
END_TEST

START_TEST(test_options)
{
    static const char *const text = SUM4 "    expected: [1, 3, 7, 10]\n";
    dmlconf_case_file file;

    ck_assert_uint_eq(load_text(&file, text, DMLCONF_EXPECTED_CHECK_BOUNDED), 1);
    dmlconf_case_file_free(&file);
    ck_assert_uint_eq(load_text(&file, text, DMLCONF_EXPECTED_CHECK_ALL), 1);
    dmlconf_case_file_free(&file);
    /* NONE: values about to be replaced (bless --all) are not judged. */
    ck_assert_uint_eq(load_text(&file, text, DMLCONF_EXPECTED_CHECK_NONE), 0);
    assert_counts(&file, 0, 1);
    dmlconf_case_file_free(&file);

    /* A negative case has no output to check; it loads as before. */
    ck_assert_uint_eq(load_text(&file,
                                "cases:\n"
                                "  - {id: neg, op: cumulative_summation, dtype: float32, sizes: [4], axis: 1, "
                                "expect_error: axis_out_of_range}\n",
                                DMLCONF_EXPECTED_CHECK_ALL),
                      0);
    dmlconf_case_file_free(&file);
}
END_TEST

static Suite *expected_suite(void)
{
    Suite *suite = suite_create("expected");
    TCase *tc = tcase_create("positions");

    tcase_add_test(tc, test_flow_list_position);
    tcase_add_test(tc, test_block_and_wrapped_lists);
    tcase_add_test(tc, test_nested_list_position);
    tcase_add_test(tc, test_positions_elsewhere);
    tcase_add_test(tc, test_dtype_after_values);
    tcase_add_test(tc, test_many_wrong_values);
    suite_add_tcase(suite, tc);
    tc = tcase_create("tolerances");
    tcase_add_test(tc, test_bit_for_bit_without_tolerance);
    tcase_add_test(tc, test_case_tolerance);
    tcase_add_test(tc, test_nan_and_infinity);
    tcase_add_test(tc, test_types_and_layouts);
    suite_add_tcase(suite, tc);
    tc = tcase_create("npy_and_options");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_npy_expected);
    tcase_add_test(tc, test_npy_slabs_and_options);
    tcase_add_test(tc, test_options);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(expected_suite());
    int failed;

    srunner_run_all(runner, CK_NORMAL);
    failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
