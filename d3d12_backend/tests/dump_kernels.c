/*
 * Writes every kernel variant the backend generates as NAME.dxbc into a
 * folder, for the test that translates each with vkd3d-compiler and
 * validates the SPIR-V with spirv-val.
 * Usage: dump_kernels FOLDER   (exit 0, or 1 with a message on error)
 */
#include "scan_kernels.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 2)
    {
        fprintf(stderr, "usage: dump_kernels FOLDER\n");
        return 1;
    }
    unsigned written = 0;
    for (size_t i = 0; i < KERNEL_VARIANT_COUNT; ++i)
    {
        kernel_key key = kernel_key_from_index(i);
        if (!kernel_key_exists(&key))
            continue;
        char name[64], why[256], path[4096];
        void *blob;
        size_t size;
        kernel_key_name(&key, name, sizeof(name));
        if (kernel_generate(&key, &blob, &size, why, sizeof(why)))
        {
            fprintf(stderr, "dump_kernels: %s\n", why);
            return 1;
        }
        snprintf(path, sizeof(path), "%s/%s.dxbc", argv[1], name);
        FILE *file = fopen(path, "wb");
        if (!file || fwrite(blob, 1, size, file) != size || fclose(file))
        {
            fprintf(stderr, "dump_kernels: cannot write %s\n", path);
            free(blob);
            return 1;
        }
        free(blob);
        written++;
    }
    printf("%u kernel variants written to %s\n", written, argv[1]);
    return 0;
}
