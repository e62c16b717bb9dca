#include "test_support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_rng_seed(test_rng *rng, uint64_t seed)
{
    rng->state = seed;
}

uint64_t test_rng_next(test_rng *rng)
{
    uint64_t z = (rng->state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

uint64_t test_rng_below(test_rng *rng, uint64_t bound)
{
    /* Rejection sampling keeps the distribution uniform. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t r;
    do
        r = test_rng_next(rng);
    while (r >= limit);
    return r % bound;
}

double test_rng_unit(test_rng *rng)
{
    return (double)(test_rng_next(rng) >> 11) * 0x1p-53;
}

uint32_t test_f32_bits(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof(bits));
    return bits;
}

float test_f32_from_bits(uint32_t bits)
{
    float value;
    memcpy(&value, &bits, sizeof(value));
    return value;
}

uint64_t test_f64_bits(double value)
{
    uint64_t bits;
    memcpy(&bits, &value, sizeof(bits));
    return bits;
}

dmlconf_tensor_desc test_packed_desc(dmlconf_data_type type, uint32_t dimension_count, const uint32_t *sizes)
{
    dmlconf_tensor_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.data_type = type;
    desc.dimension_count = dimension_count;
    for (uint32_t d = 0; d < dimension_count && d < DMLCONF_MAX_DIMENSIONS; ++d)
        desc.sizes[d] = sizes[d];
    return desc;
}

dmlconf_scan_desc test_scan_desc(dmlconf_operator op, dmlconf_data_type type, uint32_t dimension_count,
                                 const uint32_t *sizes, uint32_t axis, dmlconf_axis_direction direction, bool exclusive)
{
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = op;
    desc.input = test_packed_desc(type, dimension_count, sizes);
    desc.output = desc.input;
    desc.axis = axis;
    desc.direction = direction;
    desc.exclusive = exclusive;
    return desc;
}

static void format_context(char *buffer, size_t size, const char *format, va_list args)
{
    vsnprintf(buffer, size, format, args);
}

void test_assert_f32_bits_eq_(const char *file, int line, float actual, float expected, const char *context_format, ...)
{
    uint32_t a = test_f32_bits(actual), e = test_f32_bits(expected);
    if (a == e)
        return;
    char context[256];
    va_list args;
    va_start(args, context_format);
    format_context(context, sizeof(context), context_format, args);
    va_end(args);
    ck_abort_msg("%s:%d: %s: got %.9g (0x%08x, %a), expected %.9g (0x%08x, %a)", file, line, context, (double)actual, a,
                 (double)actual, (double)expected, e, (double)expected);
}

void test_assert_f16_bits_eq_(const char *file, int line, uint16_t actual, uint16_t expected,
                              const char *context_format, ...)
{
    if (actual == expected)
        return;
    char context[256];
    va_list args;
    va_start(args, context_format);
    format_context(context, sizeof(context), context_format, args);
    va_end(args);
    double da = (double)dmlconf_half_to_float(actual), de = (double)dmlconf_half_to_float(expected);
    ck_abort_msg("%s:%d: %s: got %.6g (0x%04x, %a), expected %.6g (0x%04x, %a)", file, line, context, da,
                 (unsigned)actual, da, de, (unsigned)expected, de);
}

int test_run_suite(Suite *suite)
{
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

size_t test_element_bytes(dmlconf_data_type type)
{
    switch ((int)type)
    {
    case DMLCONF_DATA_TYPE_FLOAT32:
    case DMLCONF_DATA_TYPE_INT32:
    case DMLCONF_DATA_TYPE_UINT32:
        return 4;
    case DMLCONF_DATA_TYPE_FLOAT16:
        return 2;
    case DMLCONF_DATA_TYPE_INT64:
    case DMLCONF_DATA_TYPE_UINT64:
        return 8;
    default:
        return 0;
    }
}

uint64_t test_value_bits(dmlconf_data_type type, double value)
{
    switch ((int)type)
    {
    case DMLCONF_DATA_TYPE_FLOAT32:
        return test_f32_bits((float)value);
    case DMLCONF_DATA_TYPE_FLOAT16:
        return dmlconf_half_from_double(value);
    case DMLCONF_DATA_TYPE_INT32:
    case DMLCONF_DATA_TYPE_UINT32:
        return (uint32_t)(uint64_t)(int64_t)value;
    case DMLCONF_DATA_TYPE_INT64:
    case DMLCONF_DATA_TYPE_UINT64:
        return (uint64_t)(int64_t)value;
    default:
        return 0;
    }
}

uint64_t test_load_bits(dmlconf_data_type type, const void *buffer, uint64_t index)
{
    const unsigned char *bytes = buffer;
    size_t size = test_element_bytes(type);
    if (size == 2)
    {
        uint16_t bits;
        memcpy(&bits, bytes + index * 2, 2);
        return bits;
    }
    if (size == 4)
    {
        uint32_t bits;
        memcpy(&bits, bytes + index * 4, 4);
        return bits;
    }
    uint64_t bits = 0;
    if (size == 8)
        memcpy(&bits, bytes + index * 8, 8);
    return bits;
}

void test_store_bits(dmlconf_data_type type, void *buffer, uint64_t index, uint64_t bits)
{
    unsigned char *bytes = buffer;
    size_t size = test_element_bytes(type);
    if (size == 2)
    {
        uint16_t narrow = (uint16_t)bits;
        memcpy(bytes + index * 2, &narrow, 2);
    }
    else if (size == 4)
    {
        uint32_t narrow = (uint32_t)bits;
        memcpy(bytes + index * 4, &narrow, 4);
    }
    else if (size == 8)
    {
        memcpy(bytes + index * 8, &bits, 8);
    }
}

void test_store_value(dmlconf_data_type type, void *buffer, uint64_t index, double value)
{
    test_store_bits(type, buffer, index, test_value_bits(type, value));
}

const char *test_format_bits(dmlconf_data_type type, uint64_t bits, char *buffer, size_t size)
{
    switch ((int)type)
    {
    case DMLCONF_DATA_TYPE_FLOAT32:
        snprintf(buffer, size, "%.9g (0x%08x)", (double)test_f32_from_bits((uint32_t)bits), (unsigned)bits);
        break;
    case DMLCONF_DATA_TYPE_FLOAT16:
        snprintf(buffer, size, "%.6g (0x%04x)", (double)dmlconf_half_to_float((uint16_t)bits), (unsigned)bits);
        break;
    case DMLCONF_DATA_TYPE_INT32:
        snprintf(buffer, size, "%ld (0x%08x)", (long)(int32_t)(uint32_t)bits, (unsigned)bits);
        break;
    case DMLCONF_DATA_TYPE_UINT32:
        snprintf(buffer, size, "%lu (0x%08x)", (unsigned long)(uint32_t)bits, (unsigned)bits);
        break;
    case DMLCONF_DATA_TYPE_INT64:
        snprintf(buffer, size, "%lld (0x%016llx)", (long long)(int64_t)bits, (unsigned long long)bits);
        break;
    default:
        snprintf(buffer, size, "%llu (0x%016llx)", (unsigned long long)bits, (unsigned long long)bits);
        break;
    }
    return buffer;
}
