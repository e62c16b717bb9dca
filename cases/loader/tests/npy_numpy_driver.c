/*
 * Driver for npy_numpy_check.py: exposes dmlconf_npy_read and
 * dmlconf_npy_write on the command line.
 *
 *   npy_numpy_driver read FILE
 *       prints "ok MAJOR DESCR NDIM D0 D1 ..." and then the data bytes in hex
 *       on one line, or "error MESSAGE"
 *   npy_numpy_driver write FILE DTYPE D0 [D1 ...]
 *       writes an array whose byte i is (i * 37 + 11) mod 256; DTYPE is a
 *       data type name ("float32"); prints "ok" or "error MESSAGE"
 */
#include <dmlconf/npy.h>
#include <dmlconf/values.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int do_read(const char *path)
{
    dmlconf_npy_array array;
    char why[512];
    if (dmlconf_npy_read(path, UINT64_C(1) << 30, &array, why, sizeof(why)) != 0)
    {
        printf("error %s\n", why);
        return 0;
    }
    printf("ok %u %s %" PRIu32, array.header.version_major, array.header.descr, array.header.ndim);
    for (uint32_t d = 0; d < array.header.ndim; ++d)
        printf(" %" PRIu64, array.header.shape[d]);
    printf("\n");
    const unsigned char *bytes = array.data;
    for (uint64_t i = 0; i < array.header.data_bytes; ++i)
        printf("%02x", bytes[i]);
    printf("\n");
    dmlconf_npy_free(&array);
    return 0;
}

static int do_write(const char *path, const char *type_name, int count, char **sizes)
{
    dmlconf_data_type type;
    if (!dmlconf_data_type_from_name(type_name, &type))
    {
        printf("error unknown type %s\n", type_name);
        return 1;
    }
    uint64_t shape[DMLCONF_NPY_MAX_DIMENSIONS];
    uint64_t elements = 1;
    if (count < 1 || count > (int)DMLCONF_NPY_MAX_DIMENSIONS)
    {
        printf("error bad rank\n");
        return 1;
    }
    for (int d = 0; d < count; ++d)
    {
        char why[256];
        if (dmlconf_value_parse_u64(sizes[d], 0, 1000000, &shape[d], why, sizeof(why)) != DMLCONF_VALUE_OK)
        {
            printf("error %s\n", why);
            return 1;
        }
        elements *= shape[d];
    }
    size_t bytes = (size_t)elements * dmlconf_value_size(type);
    unsigned char *data = malloc(bytes ? bytes : 1u);
    if (!data)
        return 1;
    for (size_t i = 0; i < bytes; ++i)
        data[i] = (unsigned char)(i * 37u + 11u);
    char why[512];
    if (dmlconf_npy_write(path, type, (uint32_t)count, shape, data, why, sizeof(why)) != 0)
        printf("error %s\n", why);
    else
        printf("ok\n");
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "read") == 0)
        return do_read(argv[2]);
    if (argc >= 5 && strcmp(argv[1], "write") == 0)
        return do_write(argv[2], argv[3], argc - 4, argv + 4);
    fprintf(stderr, "usage: %s read FILE | write FILE DTYPE D0 [D1 ...]\n", argv[0]);
    return 2;
}
