/*
 * NumPy .npy files: a 6-byte magic "\x93NUMPY", a version (major, minor), a
 * little-endian header length (2 bytes in version 1.0, 4 in 2.0 and 3.0), a
 * header that is a Python dict literal padded with spaces and ending in '\n'
 * (ASCII, UTF-8 in 3.0), then the raw data.
 */
#include <dmlconf/file_system.h>
#include <dmlconf/npy.h>
#include <dmlconf/why.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char npy_magic[6] = {0x93u, 'N', 'U', 'M', 'P', 'Y'};

/* ---- dtypes --------------------------------------------------------------------- */

typedef struct dtype_entry
{
    const char *code; /* kind and size: "f4" */
    dmlconf_data_type type;
    size_t size;
} dtype_entry;

static const dtype_entry dtype_table[] = {
    {"f4", DMLCONF_DATA_TYPE_FLOAT32, 4}, {"f2", DMLCONF_DATA_TYPE_FLOAT16, 2}, {"f8", DMLCONF_DATA_TYPE_FLOAT64, 8},
    {"i8", DMLCONF_DATA_TYPE_INT64, 8},   {"u8", DMLCONF_DATA_TYPE_UINT64, 8},  {"i4", DMLCONF_DATA_TYPE_INT32, 4},
    {"u4", DMLCONF_DATA_TYPE_UINT32, 4},  {"i2", DMLCONF_DATA_TYPE_INT16, 2},   {"u2", DMLCONF_DATA_TYPE_UINT16, 2},
    {"i1", DMLCONF_DATA_TYPE_INT8, 1},    {"u1", DMLCONF_DATA_TYPE_UINT8, 1},
};
#define DTYPE_COUNT (sizeof(dtype_table) / sizeof(dtype_table[0]))
static const char *supported_dtypes = "<f4, <f2, <f8, <i8, <u8, <i4, <u4, <i2, <u2, |i1, |u1";

static const dtype_entry *dtype_by_code(const char *code)
{
    for (size_t i = 0; i < DTYPE_COUNT; ++i)
        if (strcmp(dtype_table[i].code, code) == 0)
            return &dtype_table[i];
    return NULL;
}

static const dtype_entry *dtype_by_type(dmlconf_data_type type)
{
    for (size_t i = 0; i < DTYPE_COUNT; ++i)
        if (dtype_table[i].type == type)
            return &dtype_table[i];
    return NULL;
}

const char *dmlconf_npy_descr(dmlconf_data_type type)
{
    static const char *const descrs[] = {"<f4", "<f2", "<f8", "<i8", "<u8", "<i4", "<u4", "<i2", "<u2", "|i1", "|u1"};
    for (size_t i = 0; i < DTYPE_COUNT; ++i)
        if (dtype_table[i].type == type)
            return descrs[i];
    return NULL;
}

bool dmlconf_npy_type_from_descr(const char *descr, dmlconf_data_type *type)
{
    if (!descr || strlen(descr) != 3u)
        return false;
    char order = descr[0];
    if (order != '<' && order != '>' && order != '|' && order != '=')
        return false;
    const dtype_entry *entry = dtype_by_code(descr + 1);
    if (!entry || (entry->size > 1u && order != '<'))
        return false;
    *type = entry->type;
    return true;
}

/* ---- messages -------------------------------------------------------------------- */

/* Shape as Python prints a tuple: "(3, 4)", "(3,)", "()". */
static void shape_text(const uint64_t *shape, uint32_t ndim, char *text, size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    int written = snprintf(text, size, "(");
    used = written > 0 ? (size_t)written : 0u;
    for (uint32_t i = 0; i < ndim && used < size; ++i)
    {
        written = snprintf(text + used, size - used, "%s%" PRIu64, i ? ", " : "", shape[i]);
        if (written < 0)
            return;
        used += (size_t)written;
    }
    if (used < size)
        snprintf(text + used, size - used, ndim == 1 ? ",)" : ")");
}

/* A string from the file, made printable for a message. */
static void printable(const char *text, size_t length, char *out, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; i < length && n + 4u < size; ++i)
    {
        unsigned char c = (unsigned char)text[i];
        out[n++] = (c >= 0x20u && c < 0x7fu) ? (char)c : '?';
    }
    if (length > 0 && n < length && n + 4u >= size)
    {
        memcpy(out + n, "...", 3);
        n += 3u;
    }
    out[n] = '\0';
}

/* ---- header dict parsing ----------------------------------------------------------- */

typedef struct header_parser
{
    const char *text;
    size_t length;
    size_t at;
    const char *path;
    char *why;
    size_t why_size;
} header_parser;

static void skip_spaces(header_parser *p)
{
    while (p->at < p->length && (p->text[p->at] == ' ' || p->text[p->at] == '\t'))
        ++p->at;
}

static int parse_error(header_parser *p, const char *expected)
{
    if (p->at >= p->length)
        dmlconf_set_why(p->why, p->why_size, "%s: bad header: expected %s, found the end of the header", p->path,
                        expected);
    else
    {
        char found[8];
        printable(p->text + p->at, 1, found, sizeof(found));
        dmlconf_set_why(p->why, p->why_size, "%s: bad header: expected %s at byte %zu of the header, found '%s'",
                        p->path, expected, p->at, found);
    }
    return -1;
}

/* A quoted string (no escapes). */
static int parse_string(header_parser *p, const char **start, size_t *length)
{
    if (p->at >= p->length || (p->text[p->at] != '\'' && p->text[p->at] != '"'))
        return parse_error(p, "a quoted string");
    char quote = p->text[p->at++];
    size_t begin = p->at;
    while (p->at < p->length && p->text[p->at] != quote)
    {
        if (p->text[p->at] == '\\')
            return parse_error(p, "a string without escape sequences");
        ++p->at;
    }
    if (p->at >= p->length)
        return parse_error(p, "the end of a string");
    *start = p->text + begin;
    *length = p->at - begin;
    ++p->at;
    return 0;
}

static bool word_at(header_parser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->length - p->at < n || memcmp(p->text + p->at, word, n) != 0)
        return false;
    /* Not a prefix of a longer identifier. */
    if (p->at + n < p->length)
    {
        char next = p->text[p->at + n];
        if ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') || (next >= '0' && next <= '9') || next == '_')
            return false;
    }
    p->at += n;
    return true;
}

static int parse_shape(header_parser *p, uint64_t *shape, uint32_t *ndim)
{
    if (p->at >= p->length || p->text[p->at] != '(')
        return parse_error(p, "a shape tuple such as (3, 4)");
    ++p->at;
    uint32_t count = 0;
    bool trailing_comma = false;
    skip_spaces(p);
    while (p->at < p->length && p->text[p->at] != ')')
    {
        if (p->text[p->at] < '0' || p->text[p->at] > '9')
            return parse_error(p, "a dimension (a non-negative integer)");
        uint64_t value = 0;
        while (p->at < p->length && p->text[p->at] >= '0' && p->text[p->at] <= '9')
        {
            uint64_t digit = (uint64_t)(p->text[p->at] - '0');
            if (value > (UINT64_MAX - digit) / 10u)
            {
                dmlconf_set_why(p->why, p->why_size, "%s: bad header: a dimension of the shape does not fit 64 bits",
                                p->path);
                return -1;
            }
            value = value * 10u + digit;
            ++p->at;
        }
        if (p->at < p->length && p->text[p->at] == 'L') /* Python 2 long */
            ++p->at;
        if (count == DMLCONF_NPY_MAX_DIMENSIONS)
        {
            dmlconf_set_why(p->why, p->why_size, "%s: shape has more than %u dimensions", p->path,
                            DMLCONF_NPY_MAX_DIMENSIONS);
            return -1;
        }
        shape[count++] = value;
        skip_spaces(p);
        trailing_comma = false;
        if (p->at < p->length && p->text[p->at] == ',')
        {
            ++p->at;
            trailing_comma = true;
            skip_spaces(p);
        }
        else if (p->at < p->length && p->text[p->at] != ')')
        {
            return parse_error(p, "',' or ')' in the shape");
        }
    }
    if (p->at >= p->length)
        return parse_error(p, "')' closing the shape");
    ++p->at;
    if (count == 1 && !trailing_comma)
    {
        dmlconf_set_why(p->why, p->why_size,
                        "%s: bad header: shape (%" PRIu64 ") is not a tuple (a 1-d shape is (%" PRIu64 ",))", p->path,
                        shape[0], shape[0]);
        return -1;
    }
    *ndim = count;
    return 0;
}

typedef struct header_fields
{
    bool has_descr;
    bool has_fortran;
    bool has_shape;
    char descr[40];
    size_t descr_length;
    bool descr_is_list;
    bool fortran_order;
    uint64_t shape[DMLCONF_NPY_MAX_DIMENSIONS];
    uint32_t ndim;
} header_fields;

static int parse_dict(header_parser *p, header_fields *fields)
{
    memset(fields, 0, sizeof(*fields));
    skip_spaces(p);
    if (p->at >= p->length || p->text[p->at] != '{')
        return parse_error(p, "'{' (a dict)");
    ++p->at;
    for (;;)
    {
        skip_spaces(p);
        if (p->at < p->length && p->text[p->at] == '}')
            break;
        const char *key;
        size_t key_length;
        if (parse_string(p, &key, &key_length))
            return -1;
        skip_spaces(p);
        if (p->at >= p->length || p->text[p->at] != ':')
            return parse_error(p, "':' after a key");
        ++p->at;
        skip_spaces(p);
        bool *seen = NULL;
        const char *name = NULL;
        if (key_length == 5u && memcmp(key, "descr", 5) == 0)
        {
            seen = &fields->has_descr;
            name = "descr";
        }
        else if (key_length == 13u && memcmp(key, "fortran_order", 13) == 0)
        {
            seen = &fields->has_fortran;
            name = "fortran_order";
        }
        else if (key_length == 5u && memcmp(key, "shape", 5) == 0)
        {
            seen = &fields->has_shape;
            name = "shape";
        }
        else
        {
            char text[40];
            printable(key, key_length, text, sizeof(text));
            dmlconf_set_why(p->why, p->why_size,
                            "%s: bad header: unexpected key '%s' (expected 'descr', 'fortran_order' "
                            "and 'shape')",
                            p->path, text);
            return -1;
        }
        if (*seen)
        {
            dmlconf_set_why(p->why, p->why_size, "%s: bad header: key '%s' appears twice", p->path, name);
            return -1;
        }
        *seen = true;
        if (seen == &fields->has_descr)
        {
            if (p->at < p->length && p->text[p->at] == '[')
            {
                fields->descr_is_list = true;
                dmlconf_set_why(p->why, p->why_size,
                                "%s: structured dtype (descr is a list) is not supported; save a plain numeric array",
                                p->path);
                return -1;
            }
            const char *value;
            size_t value_length;
            if (parse_string(p, &value, &value_length))
                return -1;
            printable(value, value_length, fields->descr, sizeof(fields->descr));
            fields->descr_length = value_length;
        }
        else if (seen == &fields->has_fortran)
        {
            if (word_at(p, "True"))
                fields->fortran_order = true;
            else if (word_at(p, "False"))
                fields->fortran_order = false;
            else
                return parse_error(p, "True or False for 'fortran_order'");
        }
        else if (parse_shape(p, fields->shape, &fields->ndim))
        {
            return -1;
        }
        skip_spaces(p);
        if (p->at < p->length && p->text[p->at] == ',')
        {
            ++p->at;
            continue;
        }
        if (p->at < p->length && p->text[p->at] == '}')
            break;
        return parse_error(p, "',' or '}'");
    }
    ++p->at; /* the '}' */
    /* Padding: spaces only (the final newline was removed by the caller). */
    while (p->at < p->length && p->text[p->at] == ' ')
        ++p->at;
    if (p->at != p->length)
        return parse_error(p, "only spaces after the dict");
    const char *missing = !fields->has_descr     ? "descr"
                          : !fields->has_fortran ? "fortran_order"
                          : !fields->has_shape   ? "shape"
                                                 : NULL;
    if (missing)
    {
        dmlconf_set_why(p->why, p->why_size, "%s: bad header: no '%s' key", p->path, missing);
        return -1;
    }
    return 0;
}

/* Checks the parsed fields and fills the header (all but data_offset). */
static int header_from_fields(const char *path, const header_fields *fields, dmlconf_npy_header *header, char *why,
                              size_t why_size)
{
    const char *descr = fields->descr;
    dmlconf_data_type type;
    if (fields->descr_length != strlen(descr) || !dmlconf_npy_type_from_descr(descr, &type))
    {
        const dtype_entry *entry = fields->descr_length == 3u ? dtype_by_code(descr + 1) : NULL;
        if (entry && descr[0] == '>')
            dmlconf_set_why(why, why_size,
                            "%s: big-endian dtype '%s' is not supported; save the array as little-endian "
                            "(arr.astype('<%s'))",
                            path, descr, entry->code);
        else if (entry)
            dmlconf_set_why(why, why_size, "%s: dtype '%s' has no explicit byte order; save it as '<%s'", path, descr,
                            entry->code);
        else
            dmlconf_set_why(why, why_size, "%s: unsupported dtype '%s' (supported: %s)", path, descr, supported_dtypes);
        return -1;
    }
    if (fields->fortran_order)
    {
        dmlconf_set_why(why, why_size,
                        "%s: fortran_order is True; only C-order arrays are supported (save np.ascontiguousarray(arr))",
                        path);
        return -1;
    }
    if (fields->ndim == 0)
    {
        dmlconf_set_why(why, why_size, "%s: shape () is 0-dimensional; save scalars with shape (1,)", path);
        return -1;
    }
    const dtype_entry *entry = dtype_by_type(type);
    char shape[256];
    shape_text(fields->shape, fields->ndim, shape, sizeof(shape));
    uint64_t count = 1;
    bool overflow = false;
    for (uint32_t i = 0; i < fields->ndim; ++i)
    {
        uint64_t size = fields->shape[i];
        if (size && count > UINT64_MAX / size)
            overflow = true;
        count = overflow ? count : count * size;
    }
    for (uint32_t i = 0; i < fields->ndim; ++i)
        if (fields->shape[i] == 0)
        {
            count = 0;
            overflow = false;
        }
    if (overflow || count > UINT64_MAX / entry->size)
    {
        dmlconf_set_why(why, why_size, "%s: shape %s has too many elements (the byte size overflows 64 bits)", path,
                        shape);
        return -1;
    }
    memset(header, 0, sizeof(*header));
    snprintf(header->descr, sizeof(header->descr), "%s", descr);
    if (entry->size == 1u)
        header->descr[0] = '|';
    header->type = type;
    header->element_size = entry->size;
    header->ndim = fields->ndim;
    memcpy(header->shape, fields->shape, sizeof(header->shape));
    header->element_count = count;
    header->data_bytes = count * entry->size;
    return 0;
}

/* ---- reading ------------------------------------------------------------------------ */

/* Bytes from the current position to the end of the file. */
static int bytes_remaining(FILE *file, uint64_t *remaining)
{
#if defined(_WIN32)
    __int64 here = _ftelli64(file);
    if (here < 0 || _fseeki64(file, 0, SEEK_END) != 0)
        return -1;
    __int64 end = _ftelli64(file);
    if (end < here || _fseeki64(file, here, SEEK_SET) != 0)
        return -1;
#else
    long here = ftell(file);
    if (here < 0 || fseek(file, 0, SEEK_END) != 0)
        return -1;
    long end = ftell(file);
    if (end < here || fseek(file, here, SEEK_SET) != 0)
        return -1;
#endif
    *remaining = (uint64_t)(end - here);
    return 0;
}

static size_t read_bytes(FILE *file, void *buffer, size_t size)
{
    return size ? fread(buffer, 1, size, file) : 0u;
}

/* Opens the file and checks everything up to the data; leaves the file
 * positioned at the data and *data_available set. */
static FILE *open_and_check(const char *path, dmlconf_npy_header *header, uint64_t *data_available, char *why,
                            size_t why_size)
{
    char opened[160];
    FILE *file = dmlconf_open_regular_file(path, NULL, opened, sizeof(opened));
    char *text = NULL;
    if (!file)
    {
        dmlconf_set_why(why, why_size, "%s: %s", path, opened);
        return NULL;
    }
    unsigned char preamble[12];
    size_t got = read_bytes(file, preamble, 8);
    if (got < 6u || memcmp(preamble, npy_magic, 6) != 0)
    {
        dmlconf_set_why(why, why_size, "%s: not a .npy file (bad magic bytes)", path);
        goto fail;
    }
    if (got < 8u)
    {
        dmlconf_set_why(why, why_size, "%s: truncated .npy preamble (the file has %zu bytes)", path, got);
        goto fail;
    }
    unsigned major = preamble[6];
    unsigned minor = preamble[7];
    if ((major != 1u && major != 2u && major != 3u) || minor != 0u)
    {
        dmlconf_set_why(why, why_size, "%s: unsupported .npy format version %u.%u (expected 1.0, 2.0 or 3.0)", path,
                        major, minor);
        goto fail;
    }
    size_t length_bytes = major == 1u ? 2u : 4u;
    if (read_bytes(file, preamble + 8, length_bytes) != length_bytes)
    {
        dmlconf_set_why(why, why_size, "%s: truncated .npy preamble (the header length is missing)", path);
        goto fail;
    }
    uint64_t header_length = (uint64_t)preamble[8] | (uint64_t)preamble[9] << 8;
    if (length_bytes == 4u)
        header_length |= (uint64_t)preamble[10] << 16 | (uint64_t)preamble[11] << 24;
    if (header_length > DMLCONF_NPY_MAX_HEADER_BYTES)
    {
        dmlconf_set_why(why, why_size, "%s: header length %" PRIu64 " is larger than the limit of %u bytes", path,
                        header_length, DMLCONF_NPY_MAX_HEADER_BYTES);
        goto fail;
    }
    text = malloc((size_t)header_length + 1u);
    if (!text)
    {
        dmlconf_set_why(why, why_size, "%s: out of memory reading the header", path);
        goto fail;
    }
    got = read_bytes(file, text, (size_t)header_length);
    if (got != header_length)
    {
        dmlconf_set_why(why, why_size,
                        "%s: truncated header (header length %" PRIu64 ", the file has only %zu bytes after "
                        "the preamble)",
                        path, header_length, got);
        goto fail;
    }
    if (header_length == 0 || text[header_length - 1u] != '\n')
    {
        dmlconf_set_why(why, why_size, "%s: bad header: it does not end with a newline", path);
        goto fail;
    }
    header_parser parser = {text, (size_t)header_length - 1u, 0, path, why, why_size};
    header_fields fields;
    if (parse_dict(&parser, &fields) || header_from_fields(path, &fields, header, why, why_size))
        goto fail;
    header->version_major = major;
    header->version_minor = minor;
    header->data_offset = 8u + length_bytes + header_length;
    if (bytes_remaining(file, data_available))
    {
        dmlconf_set_why(why, why_size, "%s: cannot determine the file's size", path);
        goto fail;
    }
    free(text);
    return file;

fail:
    free(text);
    fclose(file);
    return NULL;
}

static int check_data_length(const char *path, const dmlconf_npy_header *header, uint64_t available, char *why,
                             size_t why_size)
{
    if (available == header->data_bytes)
        return 0;
    char shape[256];
    shape_text(header->shape, header->ndim, shape, sizeof(shape));
    dmlconf_set_why(why, why_size,
                    "%s: header says shape %s = %" PRIu64 " elements of %s = %" PRIu64 " bytes, file has %" PRIu64
                    " bytes of data",
                    path, shape, header->element_count, header->descr, header->data_bytes, available);
    return -1;
}

int dmlconf_npy_read_header(const char *path, dmlconf_npy_header *header, char *why, size_t why_size)
{
    if (why && why_size)
        why[0] = '\0';
    uint64_t available = 0;
    FILE *file = open_and_check(path, header, &available, why, why_size);
    if (!file)
        return -1;
    fclose(file);
    return check_data_length(path, header, available, why, why_size);
}

int dmlconf_npy_read(const char *path, uint64_t max_bytes, dmlconf_npy_array *array, char *why, size_t why_size)
{
    if (why && why_size)
        why[0] = '\0';
    memset(array, 0, sizeof(*array));
    dmlconf_npy_header header;
    uint64_t available = 0;
    FILE *file = open_and_check(path, &header, &available, why, why_size);
    if (!file)
        return -1;
    void *data = NULL;
    if (header.data_bytes > max_bytes || header.data_bytes > (uint64_t)SIZE_MAX - 1u)
    {
        char shape[256];
        shape_text(header.shape, header.ndim, shape, sizeof(shape));
        dmlconf_set_why(why, why_size,
                        "%s: shape %s = %" PRIu64 " elements of %s = %" PRIu64
                        " bytes is more than the limit of %" PRIu64 " bytes",
                        path, shape, header.element_count, header.descr, header.data_bytes, max_bytes);
        goto fail;
    }
    if (check_data_length(path, &header, available, why, why_size))
        goto fail;
    data = malloc(header.data_bytes ? (size_t)header.data_bytes : 1u);
    if (!data)
    {
        dmlconf_set_why(why, why_size, "%s: out of memory (%" PRIu64 " bytes of data)", path, header.data_bytes);
        goto fail;
    }
    size_t got = read_bytes(file, data, (size_t)header.data_bytes);
    if (got != header.data_bytes || fgetc(file) != EOF)
    {
        dmlconf_set_why(why, why_size, "%s: the file changed while it was read", path);
        goto fail;
    }
    fclose(file);
    array->header = header;
    array->data = data;
    return 0;

fail:
    free(data);
    fclose(file);
    return -1;
}

void dmlconf_npy_free(dmlconf_npy_array *array)
{
    if (!array)
        return;
    free(array->data);
    memset(array, 0, sizeof(*array));
}

/* ---- writing -------------------------------------------------------------------------- */

int dmlconf_npy_write(const char *path, dmlconf_data_type type, uint32_t ndim, const uint64_t *shape, const void *data,
                      char *why, size_t why_size)
{
    if (why && why_size)
        why[0] = '\0';
    const char *descr = dmlconf_npy_descr(type);
    const dtype_entry *entry = dtype_by_type(type);
    if (!descr || !entry)
    {
        const char *name = dmlconf_data_type_name(type);
        dmlconf_set_why(why, why_size, "%s: data type %s has no .npy dtype", path, name ? name : "(unknown)");
        return -1;
    }
    if (ndim == 0 || ndim > DMLCONF_NPY_MAX_DIMENSIONS || !shape)
    {
        dmlconf_set_why(why, why_size, "%s: cannot write %" PRIu32 " dimensions (1 to %u)", path, ndim,
                        DMLCONF_NPY_MAX_DIMENSIONS);
        return -1;
    }
    size_t element_size = entry->size;
    uint64_t count = 1;
    bool overflow = false;
    bool empty = false;
    for (uint32_t i = 0; i < ndim; ++i)
    {
        if (shape[i] == 0)
            empty = true;
        else if (count > UINT64_MAX / shape[i])
            overflow = true;
        else
            count *= shape[i];
    }
    if (empty)
    {
        count = 0;
        overflow = false;
    }
    if (overflow || count > ((uint64_t)SIZE_MAX) / element_size)
    {
        dmlconf_set_why(why, why_size, "%s: the array's size overflows", path);
        return -1;
    }
    size_t data_bytes = (size_t)count * element_size;
    if (data_bytes && !data)
    {
        dmlconf_set_why(why, why_size, "%s: no data to write", path);
        return -1;
    }

    char dict[384];
    char shape_string[256];
    shape_text(shape, ndim, shape_string, sizeof(shape_string));
    int written =
        snprintf(dict, sizeof(dict), "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape_string);
    if (written < 0 || (size_t)written >= sizeof(dict))
    {
        dmlconf_set_why(why, why_size, "%s: header too long", path);
        return -1;
    }
    size_t dict_length = (size_t)written;
    /* Version 1.0 unless the padded header needs more than 16 bits. */
    size_t preamble = 10u;
    size_t padding = (64u - (preamble + dict_length + 1u) % 64u) % 64u;
    unsigned major = 1u;
    if (dict_length + padding + 1u > 0xffffu)
    {
        preamble = 12u;
        padding = (64u - (preamble + dict_length + 1u) % 64u) % 64u;
        major = 2u;
    }
    size_t header_length = dict_length + padding + 1u;

    dmlconf_replacement replacement;
    char reason[160];
    if (dmlconf_replacement_begin(&replacement, path, reason, sizeof(reason)))
    {
        dmlconf_set_why(why, why_size, "%s: %s", path, reason);
        return -1;
    }
    FILE *file = replacement.file;
    unsigned char head[12];
    memcpy(head, npy_magic, 6);
    head[6] = (unsigned char)major;
    head[7] = 0;
    head[8] = (unsigned char)(header_length & 0xffu);
    head[9] = (unsigned char)((header_length >> 8) & 0xffu);
    head[10] = (unsigned char)((header_length >> 16) & 0xffu);
    head[11] = (unsigned char)((header_length >> 24) & 0xffu);
    bool ok = fwrite(head, 1, preamble, file) == preamble && fwrite(dict, 1, dict_length, file) == dict_length;
    for (size_t i = 0; ok && i < padding; ++i)
        ok = fputc(' ', file) != EOF;
    ok = ok && fputc('\n', file) != EOF;
    if (ok && data_bytes)
        ok = fwrite(data, 1, data_bytes, file) == data_bytes;
    if (dmlconf_replacement_finish(&replacement, ok, false, reason, sizeof(reason)))
    {
        dmlconf_set_why(why, why_size, "%s: %s", path, reason);
        return -1;
    }
    return 0;
}
