/*
 * dmlconf npy: reading and writing NumPy .npy files (format versions 1.0, 2.0
 * and 3.0), for tensors too large to write inline in case files.
 *
 * Supported: little-endian numeric dtypes that map to a DirectML data type
 * ("<f4", "<f2", "<f8", "<i8", "<u8", "<i4", "<u4", "<i2", "<u2", and "|i1",
 * "|u1" with any byte-order character), C order, 1 to 8 dimensions. The data
 * bytes are kept as they are in the file: little-endian elements, the layout
 * dmlconf/values.h uses. Big-endian dtypes, Fortran order, 0-d arrays,
 * structured or object dtypes are errors with a message that says so.
 *
 * Every error message starts with the path as given, then says what is wrong:
 * "x.npy: header says shape (3, 4) = 12 elements of <f4 = 48 bytes, file has
 * 40 bytes of data". Nothing here keeps state; every function is reentrant.
 */
#ifndef DMLCONF_NPY_H
#define DMLCONF_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dmlconf/oracle.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DMLCONF_NPY_MAX_DIMENSIONS 8u
/* Headers longer than this are refused (NumPy itself refuses more than
 * 10000 bytes by default). */
#define DMLCONF_NPY_MAX_HEADER_BYTES 65536u

/* What a .npy header says, checked against the file's size. */
typedef struct dmlconf_npy_header
{
    unsigned version_major; /* 1, 2 or 3 */
    unsigned version_minor; /* 0 */
    char descr[8];          /* canonical descr: "<f4", "|u1", ... */
    dmlconf_data_type type;
    size_t element_size; /* bytes */
    uint32_t ndim;       /* 1 .. DMLCONF_NPY_MAX_DIMENSIONS */
    uint64_t shape[DMLCONF_NPY_MAX_DIMENSIONS];
    uint64_t element_count; /* product of the shape (may be 0) */
    uint64_t data_offset;   /* bytes from the start of the file to the data */
    uint64_t data_bytes;    /* element_count * element_size */
} dmlconf_npy_header;

/* A whole array: the header and its data (data_bytes bytes, malloc'ed, never
 * NULL after a successful read, even for 0 bytes). */
typedef struct dmlconf_npy_array
{
    dmlconf_npy_header header;
    void *data;
} dmlconf_npy_array;

/* The descr that dmlconf_npy_write writes for a type ("<f4"); NULL for a type
 * without an npy equivalent (UNKNOWN, UINT4, INT4). */
const char *dmlconf_npy_descr(dmlconf_data_type type);

/* Maps a descr string to a type: "<f4" -> FLOAT32; single-byte types accept
 * any byte-order character ('<', '>', '|', '='). Returns false for anything
 * else (big-endian multi-byte types included) and leaves *type alone. */
bool dmlconf_npy_type_from_descr(const char *descr, dmlconf_data_type *type);

/* Reads and checks the header of the .npy file at `path`: magic, version,
 * header length, the dict (exactly the keys 'descr', 'fortran_order' and
 * 'shape', Python literal syntax, padding of spaces ending in a newline),
 * the dtype, the shape (1 to 8 dimensions, element count and byte size
 * without 64-bit overflow), and that the file holds exactly data_bytes after
 * the header. Returns 0 with *header filled, or -1 with a message in why
 * (why_size bytes; why may be NULL when why_size is 0); *header is
 * unspecified on failure. */
int dmlconf_npy_read_header(const char *path, dmlconf_npy_header *header, char *why, size_t why_size);

/* Reads the whole file: checks as dmlconf_npy_read_header, refuses (before
 * allocating anything) data larger than max_bytes, then reads the data into
 * a new buffer. Returns 0 with *array filled (release it with
 * dmlconf_npy_free), or -1 with a message in why and *array zeroed (nothing
 * to free). */
int dmlconf_npy_read(const char *path, uint64_t max_bytes, dmlconf_npy_array *array, char *why, size_t why_size);

/* Frees the data of an array read by dmlconf_npy_read and zeroes it. NULL
 * and a zeroed array are allowed. */
void dmlconf_npy_free(dmlconf_npy_array *array);

/* Writes `data` (the product of shape[0..ndim) elements of `type`, packed,
 * little-endian) as a C-order .npy file at `path`, replacing any file there.
 * The header is NumPy's: "{'descr': '<f4', 'fortran_order': False, 'shape':
 * (3, 4), }", padded with spaces and a newline so that the data starts at a
 * multiple of 64 bytes; format version 1.0, or 2.0 only if the header would
 * not fit 1.0's 16-bit length. Returns 0, or -1 with a message in why when
 * the type has no npy descr, ndim is 0 or above 8, the size overflows, or the
 * file cannot be written. The file is written whole or not at all (a
 * temporary file beside it is renamed over it); a path that names something
 * other than a regular file (a named pipe, a directory) is not replaced. */
int dmlconf_npy_write(const char *path, dmlconf_data_type type, uint32_t ndim, const uint64_t *shape, const void *data,
                      char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_NPY_H */
