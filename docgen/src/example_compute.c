/*
 * example_compute.c: the oracle on a packed copy of an example, as render and check
 * need it.
 */
#include <dmlconf/docgen.h>
#include <dmlconf/values.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *docgen_compute(const dmlconf_scan_desc *desc, const void *input, dmlconf_error *err)
{
    dmlconf_scan_desc packed = *desc;
    packed.input.has_strides = packed.output.has_strides = false;
    packed.input.total_size_bytes = packed.output.total_size_bytes = 0;
    packed.in_place = false;

    uint64_t count = dmlconf_tensor_element_count(&packed.input);
    size_t element = dmlconf_value_size(packed.input.data_type);
    uint64_t bytes = 0;
    if (!count || !element || !dmlconf_tensor_min_size_bytes(&packed.input, &bytes) || bytes > SIZE_MAX)
    {
        dmlconf_validation why;
        if (dmlconf_min_feature_level(&packed, &why) == DMLCONF_FEATURE_LEVEL_NONE && err)
            snprintf(err->message, sizeof(err->message), "%s", why.message);
        else if (err)
            snprintf(err->message, sizeof(err->message), "the tensor has no computable size");
        return NULL;
    }
    /* The oracle wants whole buffers (rounded up to 4 bytes); the input is
     * only count * element bytes long. */
    unsigned char *in = calloc(1, (size_t)bytes);
    unsigned char *out = calloc(1, (size_t)bytes);
    if (!in || !out)
    {
        free(in);
        free(out);
        if (err)
            snprintf(err->message, sizeof(err->message), "out of memory");
        return NULL;
    }
    memcpy(in, input, (size_t)count * element);
    if (dmlconf_compute(&packed, in, (size_t)bytes, out, (size_t)bytes, NULL, err))
    {
        free(in);
        free(out);
        return NULL;
    }
    free(in);
    return out;
}
