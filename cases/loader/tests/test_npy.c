/*
 * Tests of dmlconf/npy.h: write/read round trips for every dtype and rank,
 * NumPy's exact header layout, version 2.0 and 3.0 headers, header syntax
 * variants NumPy and older writers produce, and malformed files built here
 * byte by byte, each with its exact message. Files are created in the
 * current directory (the test's build folder) and removed afterwards.
 */
#include <dmlconf/npy.h>

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---------------------------------------------------------------------- */

static size_t file_size(const char *path)
{
    FILE *file = fopen(path, "rb");
    ck_assert_ptr_nonnull(file);
    size_t size = 0;
    while (fgetc(file) != EOF)
        ++size;
    fclose(file);
    return size;
}

static void read_file(const char *path, unsigned char *buffer, size_t size)
{
    FILE *file = fopen(path, "rb");
    ck_assert_ptr_nonnull(file);
    ck_assert_uint_eq(fread(buffer, 1, size, file), size);
    fclose(file);
}

/* Writes raw bytes. */
static void write_bytes(const char *path, const void *bytes, size_t size)
{
    FILE *file = fopen(path, "wb");
    ck_assert_ptr_nonnull(file);
    if (size)
        ck_assert_uint_eq(fwrite(bytes, 1, size, file), size);
    ck_assert_int_eq(fclose(file), 0);
}

/* Writes a .npy file by hand: magic, version, the header length (2 bytes for
 * major 1, else 4), `header` exactly as given (padding and newline
 * included), then data_bytes bytes of 0x5a. */
static void write_raw(const char *path, unsigned major, unsigned minor, const char *header, size_t data_bytes)
{
    size_t header_length = strlen(header);
    size_t length_bytes = major == 1u ? 2u : 4u;
    size_t total = 8u + length_bytes + header_length + data_bytes;
    unsigned char *bytes = malloc(total);
    ck_assert_ptr_nonnull(bytes);
    memcpy(bytes, "\x93NUMPY", 6);
    bytes[6] = (unsigned char)major;
    bytes[7] = (unsigned char)minor;
    for (size_t i = 0; i < length_bytes; ++i)
        bytes[8 + i] = (unsigned char)(header_length >> (8u * i));
    memcpy(bytes + 8 + length_bytes, header, header_length);
    memset(bytes + 8 + length_bytes + header_length, 0x5a, data_bytes);
    write_bytes(path, bytes, total);
    free(bytes);
}

/* The dict padded NumPy's way (spaces, then '\n', data at a multiple of 64). */
static char *padded(const char *dict, size_t preamble)
{
    size_t length = strlen(dict);
    size_t total = preamble + length + 1u;
    size_t padding = (64u - total % 64u) % 64u;
    char *text = malloc(length + padding + 2u);
    ck_assert_ptr_nonnull(text);
    memcpy(text, dict, length);
    memset(text + length, ' ', padding);
    text[length + padding] = '\n';
    text[length + padding + 1u] = '\0';
    return text;
}

static void write_npy(const char *path, unsigned major, const char *dict, size_t data_bytes)
{
    char *header = padded(dict, major == 1u ? 10u : 12u);
    write_raw(path, major, 0, header, data_bytes);
    free(header);
}

/* Asserts that reading `path` fails, through both entry points, with `why`
 * (read_header's message may differ only where the limit matters). */
static void expect_read_error(const char *path, const char *why)
{
    char message[512];
    dmlconf_npy_header header;
    ck_assert_int_eq(dmlconf_npy_read_header(path, &header, message, sizeof(message)), -1);
    ck_assert_str_eq(message, why);
    dmlconf_npy_array array;
    memset(&array, 0x33, sizeof(array));
    ck_assert_int_eq(dmlconf_npy_read(path, UINT64_C(1) << 30, &array, message, sizeof(message)), -1);
    ck_assert_str_eq(message, why);
    ck_assert_ptr_null(array.data);
    remove(path);
}

/* ---- round trips ------------------------------------------------------------------------ */

typedef struct dtype_case
{
    dmlconf_data_type type;
    const char *descr;
    size_t size;
} dtype_case;

static const dtype_case dtype_cases[] = {
    {DMLCONF_DATA_TYPE_FLOAT32, "<f4", 4}, {DMLCONF_DATA_TYPE_FLOAT16, "<f2", 2}, {DMLCONF_DATA_TYPE_INT32, "<i4", 4},
    {DMLCONF_DATA_TYPE_UINT32, "<u4", 4},  {DMLCONF_DATA_TYPE_INT64, "<i8", 8},   {DMLCONF_DATA_TYPE_UINT64, "<u8", 8},
    {DMLCONF_DATA_TYPE_FLOAT64, "<f8", 8}, {DMLCONF_DATA_TYPE_INT16, "<i2", 2},   {DMLCONF_DATA_TYPE_UINT16, "<u2", 2},
    {DMLCONF_DATA_TYPE_INT8, "|i1", 1},    {DMLCONF_DATA_TYPE_UINT8, "|u1", 1},
};

START_TEST(test_round_trip_per_dtype)
{
    const dtype_case *c = &dtype_cases[_i];
    const char *path = "test_npy_round_trip.npy";
    for (uint32_t ndim = 1; ndim <= 8u; ++ndim)
    {
        uint64_t shape[8];
        uint64_t count = 1;
        for (uint32_t d = 0; d < ndim; ++d)
        {
            shape[d] = 1u + (d + ndim + (uint32_t)_i) % 3u;
            count *= shape[d];
        }
        size_t bytes = (size_t)count * c->size;
        unsigned char *data = malloc(bytes);
        ck_assert_ptr_nonnull(data);
        for (size_t i = 0; i < bytes; ++i)
            data[i] = (unsigned char)(i * 37u + ndim);
        char why[512];
        ck_assert_msg(dmlconf_npy_write(path, c->type, ndim, shape, data, why, sizeof(why)) == 0, "%s", why);

        dmlconf_npy_header header;
        ck_assert_msg(dmlconf_npy_read_header(path, &header, why, sizeof(why)) == 0, "%s", why);
        ck_assert_uint_eq(header.version_major, 1u);
        ck_assert_uint_eq(header.version_minor, 0u);
        ck_assert_str_eq(header.descr, c->descr);
        ck_assert_int_eq(header.type, c->type);
        ck_assert_uint_eq(header.element_size, c->size);
        ck_assert_uint_eq(header.ndim, ndim);
        for (uint32_t d = 0; d < ndim; ++d)
            ck_assert_uint_eq(header.shape[d], shape[d]);
        ck_assert_uint_eq(header.element_count, count);
        ck_assert_uint_eq(header.data_bytes, bytes);
        ck_assert_uint_eq(header.data_offset % 64u, 0u);
        ck_assert_uint_eq(file_size(path), header.data_offset + bytes);

        dmlconf_npy_array array;
        ck_assert_msg(dmlconf_npy_read(path, bytes, &array, why, sizeof(why)) == 0, "%s", why);
        ck_assert_mem_eq(array.data, data, bytes);
        ck_assert_uint_eq(array.header.data_bytes, bytes);
        dmlconf_npy_free(&array);
        ck_assert_ptr_null(array.data);
        /* One byte less than needed is refused. */
        ck_assert_int_eq(dmlconf_npy_read(path, bytes - 1u, &array, why, sizeof(why)), -1);
        free(data);
    }
    remove(path);
}
END_TEST

START_TEST(test_header_layout)
{
    const char *path = "test_npy_layout.npy";
    uint64_t shape[2] = {3, 4};
    float data[12] = {0};
    char why[256];
    ck_assert_int_eq(dmlconf_npy_write(path, DMLCONF_DATA_TYPE_FLOAT32, 2, shape, data, why, sizeof(why)), 0);
    /* 10 bytes of preamble + 59 of dict + the newline = 70: padded to 128. */
    unsigned char bytes[128];
    read_file(path, bytes, sizeof(bytes));
    static const char expected_dict[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }";
    ck_assert_mem_eq(bytes, "\x93NUMPY\x01\x00", 8);
    ck_assert_uint_eq(bytes[8] | (bytes[9] << 8), 128u - 10u);
    ck_assert_mem_eq(bytes + 10, expected_dict, strlen(expected_dict));
    for (size_t i = 10 + strlen(expected_dict); i < 127u; ++i)
        ck_assert_uint_eq(bytes[i], ' ');
    ck_assert_uint_eq(bytes[127], '\n');
    ck_assert_uint_eq(file_size(path), 128u + sizeof(data));

    /* A 1-d shape is written as a one-element tuple. */
    uint64_t one[1] = {5};
    ck_assert_int_eq(dmlconf_npy_write(path, DMLCONF_DATA_TYPE_UINT8, 1, one, "abcde", why, sizeof(why)), 0);
    read_file(path, bytes, sizeof(bytes));
    static const char expected_one[] = "{'descr': '|u1', 'fortran_order': False, 'shape': (5,), }";
    ck_assert_mem_eq(bytes + 10, expected_one, strlen(expected_one));
    remove(path);
}
END_TEST

START_TEST(test_empty_array)
{
    const char *path = "test_npy_empty.npy";
    uint64_t shape[2] = {0, 7};
    char why[256];
    ck_assert_int_eq(dmlconf_npy_write(path, DMLCONF_DATA_TYPE_INT32, 2, shape, NULL, why, sizeof(why)), 0);
    dmlconf_npy_array array;
    ck_assert_msg(dmlconf_npy_read(path, 0, &array, why, sizeof(why)) == 0, "%s", why);
    ck_assert_uint_eq(array.header.element_count, 0u);
    ck_assert_uint_eq(array.header.data_bytes, 0u);
    ck_assert_ptr_nonnull(array.data);
    dmlconf_npy_free(&array);
    dmlconf_npy_free(&array);
    dmlconf_npy_free(NULL);
    remove(path);
}
END_TEST

/* ---- headers from other writers -------------------------------------------------------------- */

typedef struct variant_case
{
    unsigned major;
    const char *header; /* exactly as stored; NULL dict means pad `dict` */
    const char *dict;
    uint32_t ndim;
    uint64_t shape0;
    uint64_t count;
    dmlconf_data_type type;
} variant_case;

static const variant_case variant_cases[] = {
    /* version 2.0 and 3.0 (4-byte header length) */
    {2, NULL, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 2, 2, 6, DMLCONF_DATA_TYPE_FLOAT32},
    {3, NULL, "{'descr': '<u8', 'fortran_order': False, 'shape': (4,), }", 1, 4, 4, DMLCONF_DATA_TYPE_UINT64},
    /* keys in another order, no trailing comma, double quotes, extra spaces */
    {1, NULL, "{\"shape\": ( 2 ,3 ) , \"fortran_order\":False,\"descr\":\"<i4\"}", 2, 2, 6, DMLCONF_DATA_TYPE_INT32},
    /* Python 2 longs */
    {1, NULL, "{'descr': '<i8', 'fortran_order': False, 'shape': (3L, 1L), }", 2, 3, 3, DMLCONF_DATA_TYPE_INT64},
    /* an old 16-byte-aligned header: 10 + 54 = 64 anyway; use a short one */
    {1, "{'descr':'<f2','fortran_order':False,'shape':(5,)}     \n", NULL, 1, 5, 5, DMLCONF_DATA_TYPE_FLOAT16},
    /* single-byte types with any byte-order character */
    {1, NULL, "{'descr': '=u1', 'fortran_order': False, 'shape': (3,), }", 1, 3, 3, DMLCONF_DATA_TYPE_UINT8},
    {1, NULL, "{'descr': '>i1', 'fortran_order': False, 'shape': (3,), }", 1, 3, 3, DMLCONF_DATA_TYPE_INT8},
    /* no padding at all, just the newline */
    {1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 2), }\n", NULL, 8, 1, 2,
     DMLCONF_DATA_TYPE_FLOAT32},
};

START_TEST(test_header_variants)
{
    const variant_case *c = &variant_cases[_i];
    const char *path = "test_npy_variant.npy";
    size_t element = c->type == DMLCONF_DATA_TYPE_FLOAT16                                          ? 2u
                     : (c->type == DMLCONF_DATA_TYPE_UINT8 || c->type == DMLCONF_DATA_TYPE_INT8)   ? 1u
                     : (c->type == DMLCONF_DATA_TYPE_UINT64 || c->type == DMLCONF_DATA_TYPE_INT64) ? 8u
                                                                                                   : 4u;
    if (c->header)
        write_raw(path, c->major, 0, c->header, (size_t)c->count * element);
    else
        write_npy(path, c->major, c->dict, (size_t)c->count * element);
    dmlconf_npy_array array;
    char why[512];
    ck_assert_msg(dmlconf_npy_read(path, 1u << 20, &array, why, sizeof(why)) == 0, "%s", why);
    ck_assert_uint_eq(array.header.version_major, c->major);
    ck_assert_int_eq(array.header.type, c->type);
    ck_assert_uint_eq(array.header.ndim, c->ndim);
    ck_assert_uint_eq(array.header.shape[0], c->shape0);
    ck_assert_uint_eq(array.header.element_count, c->count);
    for (size_t i = 0; i < array.header.data_bytes; ++i)
        ck_assert_uint_eq(((unsigned char *)array.data)[i], 0x5au);
    dmlconf_npy_free(&array);
    remove(path);
}
END_TEST

/* ---- malformed files ---------------------------------------------------------------------------- */

START_TEST(test_bad_magic)
{
    write_bytes("bad_magic.npy", "\x93NUMPX\x01\x00\x00\x00", 10);
    expect_read_error("bad_magic.npy", "bad_magic.npy: not a .npy file (bad magic bytes)");
    write_bytes("empty.npy", "", 0);
    expect_read_error("empty.npy", "empty.npy: not a .npy file (bad magic bytes)");
    write_bytes("text.npy", "hello world, this is not numpy", 30);
    expect_read_error("text.npy", "text.npy: not a .npy file (bad magic bytes)");
}
END_TEST

START_TEST(test_bad_version)
{
    write_npy("bad_version.npy", 4, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", 4);
    expect_read_error("bad_version.npy", "bad_version.npy: unsupported .npy format version 4.0 (expected 1.0, 2.0 "
                                         "or 3.0)");
    write_raw("bad_minor.npy", 1, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }\n", 4);
    expect_read_error("bad_minor.npy", "bad_minor.npy: unsupported .npy format version 1.1 (expected 1.0, 2.0 or "
                                       "3.0)");
}
END_TEST

START_TEST(test_truncated_header)
{
    write_bytes("short_preamble.npy", "\x93NUMPY\x01", 7);
    expect_read_error("short_preamble.npy", "short_preamble.npy: truncated .npy preamble (the file has 7 bytes)");
    write_bytes("no_length.npy", "\x93NUMPY\x02\x00\x10\x00", 10);
    expect_read_error("no_length.npy", "no_length.npy: truncated .npy preamble (the header length is missing)");
    /* The length says 118 bytes; only 50 follow. */
    unsigned char bytes[60];
    memcpy(bytes, "\x93NUMPY\x01\x00\x76\x00", 10);
    memset(bytes + 10, ' ', 50);
    write_bytes("truncated.npy", bytes, sizeof(bytes));
    expect_read_error("truncated.npy", "truncated.npy: truncated header (header length 118, the file has only 50 "
                                       "bytes after the preamble)");
    /* A v2 header length beyond the limit is refused before reading it. */
    write_bytes("huge_header.npy", "\x93NUMPY\x02\x00\x00\x00\x00\x10", 12);
    expect_read_error("huge_header.npy", "huge_header.npy: header length 268435456 is larger than the limit of "
                                         "65536 bytes");
}
END_TEST

typedef struct header_error_case
{
    const char *dict; /* padded with spaces and '\n' unless it ends in '\n' or is "!raw" */
    size_t data_bytes;
    const char *why; /* after "bad_header.npy: " */
} header_error_case;

static const header_error_case header_error_cases[] = {
    {"{'descr': '<f4', 'fortran_order': False, }", 0, "bad header: no 'shape' key"},
    {"{'descr': '<f4', 'shape': (3,), }", 12, "bad header: no 'fortran_order' key"},
    {"{'fortran_order': False, 'shape': (3,), }", 12, "bad header: no 'descr' key"},
    {"{'descr': '<f4', 'fortran_order': True, 'shape': (3, 4), }", 48,
     "fortran_order is True; only C-order arrays are supported (save np.ascontiguousarray(arr))"},
    {"{'descr': '>f4', 'fortran_order': False, 'shape': (3,), }", 12,
     "big-endian dtype '>f4' is not supported; save the array as little-endian (arr.astype('<f4'))"},
    {"{'descr': '>i8', 'fortran_order': False, 'shape': (3,), }", 24,
     "big-endian dtype '>i8' is not supported; save the array as little-endian (arr.astype('<i8'))"},
    {"{'descr': '|f4', 'fortran_order': False, 'shape': (3,), }", 12,
     "dtype '|f4' has no explicit byte order; save it as '<f4'"},
    {"{'descr': '<c8', 'fortran_order': False, 'shape': (3,), }", 24,
     "unsupported dtype '<c8' (supported: <f4, <f2, <f8, <i8, <u8, <i4, <u4, <i2, <u2, |i1, |u1)"},
    {"{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", 3,
     "unsupported dtype '|b1' (supported: <f4, <f2, <f8, <i8, <u8, <i4, <u4, <i2, <u2, |i1, |u1)"},
    {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3,), }", 12,
     "structured dtype (descr is a list) is not supported; save a plain numeric array"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 4,
     "shape () is 0-dimensional; save scalars with shape (1,)"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1, 1), }", 4,
     "shape has more than 8 dimensions"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (3), }", 12,
     "bad header: shape (3) is not a tuple (a 1-d shape is (3,))"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 40,
     "header says shape (3, 4) = 12 elements of <f4 = 48 bytes, file has 40 bytes of data"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 52,
     "header says shape (3, 4) = 12 elements of <f4 = 48 bytes, file has 52 bytes of data"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", 0,
     "shape (4294967296, 4294967296) has too many elements (the byte size overflows 64 bits)"},
    {"{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 536870912), }", 0,
     "shape (4294967296, 536870912) has too many elements (the byte size overflows 64 bits)"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", 0,
     "bad header: a dimension of the shape does not fit 64 bits"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (-3,), }", 0,
     "bad header: expected a dimension (a non-negative integer) at byte 51 of the header, found '-'"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'extra': 1, }", 12,
     "bad header: unexpected key 'extra' (expected 'descr', 'fortran_order' and 'shape')"},
    {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 12,
     "bad header: key 'descr' appears twice"},
    {"{'descr': '<f4', 'fortran_order': Nope, 'shape': (3,), }", 12,
     "bad header: expected True or False for 'fortran_order' at byte 34 of the header, found 'N'"},
    {"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (3,), }", 12,
     "bad header: expected True or False for 'fortran_order' at byte 34 of the header, found 'F'"},
    {"{'descr' '<f4', 'fortran_order': False, 'shape': (3,), }", 12,
     "bad header: expected ':' after a key at byte 9 of the header, found '''"},
    {"['descr', '<f4']", 12, "bad header: expected '{' (a dict) at byte 0 of the header, found '['"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), } x", 12,
     "bad header: expected only spaces after the dict at byte 58 of the header, found 'x'"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,)", 12,
     "bad header: expected ',' or '}', found the end of the header"},
    {"{'descr': '<f\\4', 'fortran_order': False, 'shape': (3,), }", 12,
     "bad header: expected a string without escape sequences at byte 13 of the header, found '\\'"},
    {"{'descr': '<f4, 'fortran_order': False, 'shape': (3,), }", 12,
     "bad header: expected ',' or '}' at byte 17 of the header, found 'f'"},
    {"!raw{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }    ", 12,
     "bad header: it does not end with a newline"},
};

START_TEST(test_header_errors)
{
    const header_error_case *c = &header_error_cases[_i];
    const char *path = "bad_header.npy";
    if (strncmp(c->dict, "!raw", 4) == 0)
        write_raw(path, 1, 0, c->dict + 4, c->data_bytes);
    else
        write_npy(path, 1, c->dict, c->data_bytes);
    char expected[512];
    snprintf(expected, sizeof(expected), "%s: %s", path, c->why);
    expect_read_error(path, expected);
}
END_TEST

START_TEST(test_huge_shape)
{
    /* 10^15 elements: read refuses before allocating; the header alone is
     * refused for its data length. */
    const char *path = "huge_shape.npy";
    write_npy(path, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000, 1000000000), }", 16);
    char why[512];
    dmlconf_npy_array array;
    ck_assert_int_eq(dmlconf_npy_read(path, UINT64_C(1) << 30, &array, why, sizeof(why)), -1);
    ck_assert_str_eq(why, "huge_shape.npy: shape (1000000, 1000000000) = 1000000000000000 elements of <f4 = "
                          "4000000000000000 bytes is more than the limit of 1073741824 bytes");
    ck_assert_ptr_null(array.data);
    dmlconf_npy_header header;
    ck_assert_int_eq(dmlconf_npy_read_header(path, &header, why, sizeof(why)), -1);
    ck_assert_str_eq(why, "huge_shape.npy: header says shape (1000000, 1000000000) = 1000000000000000 elements of "
                          "<f4 = 4000000000000000 bytes, file has 16 bytes of data");
    /* Even with no limit, the data length is checked before allocating. */
    ck_assert_int_eq(dmlconf_npy_read(path, UINT64_MAX, &array, why, sizeof(why)), -1);
    remove(path);
}
END_TEST

START_TEST(test_missing_file)
{
    char why[512];
    dmlconf_npy_header header;
    ck_assert_int_eq(dmlconf_npy_read_header("no/such/file.npy", &header, why, sizeof(why)), -1);
    ck_assert_str_eq(why, "no/such/file.npy: cannot open: No such file or directory");
    ck_assert_int_eq(dmlconf_npy_read_header("no/such/file.npy", &header, NULL, 0), -1);
    /* What is not a regular file is named for what it is, never read. */
    ck_assert_int_eq(dmlconf_npy_read_header(".", &header, why, sizeof(why)), -1);
    ck_assert_str_eq(why, ".: is a directory, not a regular file");
    ck_assert_int_eq(dmlconf_npy_read_header("/dev/null", &header, why, sizeof(why)), -1);
    ck_assert_str_eq(why, "/dev/null: is a character device, not a regular file");
    dmlconf_npy_array array;
    ck_assert_int_eq(dmlconf_npy_read("/dev/zero", UINT64_MAX, &array, why, sizeof(why)), -1);
    ck_assert_str_eq(why, "/dev/zero: is a character device, not a regular file");
}
END_TEST

START_TEST(test_write_errors)
{
    char why[512];
    uint64_t shape[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    int32_t data = 0;
    ck_assert_int_eq(dmlconf_npy_write("w.npy", DMLCONF_DATA_TYPE_UINT4, 1, shape, &data, why, sizeof(why)), -1);
    ck_assert_str_eq(why, "w.npy: data type UINT4 has no .npy dtype");
    ck_assert_int_eq(dmlconf_npy_write("w.npy", DMLCONF_DATA_TYPE_INT32, 0, shape, &data, why, sizeof(why)), -1);
    ck_assert_str_eq(why, "w.npy: cannot write 0 dimensions (1 to 8)");
    ck_assert_int_eq(dmlconf_npy_write("w.npy", DMLCONF_DATA_TYPE_INT32, 9, shape, &data, why, sizeof(why)), -1);
    ck_assert_int_eq(dmlconf_npy_write("w.npy", DMLCONF_DATA_TYPE_INT32, 1, shape, NULL, why, sizeof(why)), -1);
    ck_assert_str_eq(why, "w.npy: no data to write");
    uint64_t huge[2] = {UINT64_C(1) << 32, UINT64_C(1) << 32};
    ck_assert_int_eq(dmlconf_npy_write("w.npy", DMLCONF_DATA_TYPE_INT32, 2, huge, &data, why, sizeof(why)), -1);
    ck_assert_str_eq(why, "w.npy: the array's size overflows");
    ck_assert_int_eq(dmlconf_npy_write("no/such/dir/w.npy", DMLCONF_DATA_TYPE_INT32, 1, shape, &data, why, sizeof(why)),
                     -1);
    ck_assert_str_eq(why, "no/such/dir/w.npy: cannot create a temporary file beside it: No such file or directory");
    FILE *file = fopen("w.npy", "rb");
    ck_assert_ptr_null(file);
}
END_TEST

START_TEST(test_descr_mapping)
{
    dmlconf_data_type type = DMLCONF_DATA_TYPE_UNKNOWN;
    for (size_t i = 0; i < sizeof(dtype_cases) / sizeof(dtype_cases[0]); ++i)
    {
        ck_assert_str_eq(dmlconf_npy_descr(dtype_cases[i].type), dtype_cases[i].descr);
        ck_assert(dmlconf_npy_type_from_descr(dtype_cases[i].descr, &type));
        ck_assert_int_eq(type, dtype_cases[i].type);
    }
    ck_assert_ptr_null(dmlconf_npy_descr(DMLCONF_DATA_TYPE_UNKNOWN));
    ck_assert_ptr_null(dmlconf_npy_descr(DMLCONF_DATA_TYPE_INT4));
    type = DMLCONF_DATA_TYPE_UNKNOWN;
    ck_assert(!dmlconf_npy_type_from_descr(">f4", &type));
    ck_assert(!dmlconf_npy_type_from_descr("=f4", &type));
    ck_assert(!dmlconf_npy_type_from_descr("<f4 ", &type));
    ck_assert(!dmlconf_npy_type_from_descr("f4", &type));
    ck_assert(!dmlconf_npy_type_from_descr(NULL, &type));
    ck_assert_int_eq(type, DMLCONF_DATA_TYPE_UNKNOWN);
    ck_assert(dmlconf_npy_type_from_descr("<u1", &type));
    ck_assert_int_eq(type, DMLCONF_DATA_TYPE_UINT8);
}
END_TEST

static Suite *npy_suite(void)
{
    Suite *suite = suite_create("npy");
    TCase *tc = tcase_create("round_trip");
    tcase_add_loop_test(tc, test_round_trip_per_dtype, 0, (int)(sizeof(dtype_cases) / sizeof(dtype_cases[0])));
    tcase_add_test(tc, test_header_layout);
    tcase_add_test(tc, test_empty_array);
    tcase_add_loop_test(tc, test_header_variants, 0, (int)(sizeof(variant_cases) / sizeof(variant_cases[0])));
    tcase_add_test(tc, test_descr_mapping);
    suite_add_tcase(suite, tc);

    tc = tcase_create("malformed");
    tcase_add_test(tc, test_bad_magic);
    tcase_add_test(tc, test_bad_version);
    tcase_add_test(tc, test_truncated_header);
    tcase_add_loop_test(tc, test_header_errors, 0, (int)(sizeof(header_error_cases) / sizeof(header_error_cases[0])));
    tcase_add_test(tc, test_huge_shape);
    tcase_add_test(tc, test_missing_file);
    tcase_add_test(tc, test_write_errors);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(npy_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
