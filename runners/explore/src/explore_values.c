/*
 * The input values of generated cases. A case draws one recipe (small
 * integers, uniform values, wide exponents, special values, cancellation,
 * the type's limits, products near one, raw bits); each stored element's
 * value then depends only on the case's stream and the element's storage
 * offset, so that logical elements sharing storage (broadcast) agree, as a
 * buffer would make them.
 *
 * Floats are built from integers and powers of two, exactly: no libm, the
 * same bits on every platform.
 */
#include "explore_internal.h"

#include <stdlib.h>
#include <string.h>

typedef enum values_recipe
{
    RECIPE_SMALL_INTEGERS, /* -4 .. 4 (products: mostly +-1 and +-2) */
    RECIPE_UNIFORM,        /* sums: [-1, 1); products: [0.5, 2) (integers: -1000 .. 1000) */
    RECIPE_WIDE,           /* any sign, exponent and significand the type has */
    RECIPE_SPECIALS,       /* ordinary values among NaN, infinities, zeros, subnormals, extremes */
    RECIPE_CANCELLATION,   /* large values and their negations around small ones */
    RECIPE_LIMITS,         /* the type's extremes and their neighbours (wrapping) */
    RECIPE_NEAR_ONE,       /* 1 + k 2^-m, -1, 0: products that neither vanish nor overflow at once */
    RECIPE_COUNT
} values_recipe;

/* 2^e as a double, for -1022 <= e <= 1023. */
static double power_of_two(int e)
{
    uint64_t bits = (uint64_t)(e + 1023) << 52;
    double value;
    memcpy(&value, &bits, sizeof(value));
    return value;
}

static uint32_t float32_bits(double value)
{
    float f = (float)value;
    uint32_t bits;
    memcpy(&bits, &f, sizeof(bits));
    return bits;
}

/* A signed integer in [-limit, limit]. */
static int64_t signed_below(explore_random *r, int64_t limit)
{
    return (int64_t)explore_random_below(r, (uint64_t)(2 * limit + 1)) - limit;
}

/* An ordinary value for a float recipe, as a double that the type holds
 * exactly (or nearly: it is rounded once into the type). */
static double ordinary(values_recipe recipe, explore_random *r, bool product, int mantissa_bits)
{
    switch (recipe)
    {
    case RECIPE_UNIFORM:
    {
        int64_t k = (int64_t)explore_random_below(r, UINT64_C(1) << mantissa_bits);
        if (product)
            return 0.5 + (double)k * power_of_two(-mantissa_bits) * 1.5;
        return (double)(k - (int64_t)(UINT64_C(1) << (mantissa_bits - 1))) * power_of_two(1 - mantissa_bits);
    }
    case RECIPE_NEAR_ONE:
    {
        uint64_t pick = explore_random_below(r, 16);
        if (pick == 0)
            return -1.0;
        if (pick == 1)
            return 0.0;
        int m = (int)explore_random_range(r, 1, (uint64_t)mantissa_bits - 1);
        return 1.0 + (double)signed_below(r, 3) * power_of_two(-m);
    }
    default:
        break;
    }
    if (product)
    {
        static const double factors[] = {1.0, 1.0, -1.0, 2.0, -2.0, 0.5, 1.0, 3.0};
        return factors[explore_random_below(r, sizeof(factors) / sizeof(factors[0]))];
    }
    return (double)signed_below(r, 4);
}

/* Float32 bits of one element; `stream` is the case's, `key` the
 * element's position along the axis (for patterns that follow it). */
static uint64_t draw_float32(values_recipe recipe, explore_random *r, bool product, uint64_t stream, uint64_t key)
{
    static const uint32_t specials[] = {0x7fc00000u, 0x7f800001u, 0xffc00123u, 0x7f800000u, 0xff800000u,
                                        0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00800000u,
                                        0x7f7fffffu, 0xff7fffffu, 0x3f800000u, 0xbf800000u};
    switch (recipe)
    {
    case RECIPE_WIDE:
    {
        uint32_t exponent = (uint32_t)explore_random_below(r, 255);
        return (explore_random_next(r) & 0x807fffffu) | (exponent << 23);
    }
    case RECIPE_SPECIALS:
        if (explore_random_percent(r, 30))
            return specials[explore_random_below(r, sizeof(specials) / sizeof(specials[0]))];
        return float32_bits(ordinary(RECIPE_SMALL_INTEGERS, r, product, 24));
    case RECIPE_CANCELLATION:
    {
        /* Along the axis: +B, small, -B with the same B for each triple. */
        explore_random triple;
        explore_random_seed(&triple, stream, key / 3);
        int e = (int)explore_random_range(&triple, 8, 100);
        double big =
            (double)(explore_random_below(&triple, UINT64_C(1) << 24) | (UINT64_C(1) << 23)) * power_of_two(e - 23);
        switch (key % 3)
        {
        case 0:
            return float32_bits(big);
        case 1:
            return float32_bits(ordinary(RECIPE_UNIFORM, r, false, 24));
        default:
            return float32_bits(-big);
        }
    }
    case RECIPE_LIMITS:
        return specials[10 + explore_random_below(r, 4)] ^ (explore_random_percent(r, 10) ? 1u : 0u);
    default:
        return float32_bits(ordinary(recipe, r, product, 24));
    }
}

/* Float16 bits of one element. */
static uint64_t draw_float16(values_recipe recipe, explore_random *r, bool product, uint64_t stream, uint64_t key)
{
    static const uint16_t specials[] = {0x7e00u, 0x7c01u, 0xfe42u, 0x7c00u, 0xfc00u, 0x0000u, 0x8000u,
                                        0x0001u, 0x83ffu, 0x0400u, 0x7bffu, 0xfbffu, 0x3c00u, 0xbc00u};
    switch (recipe)
    {
    case RECIPE_WIDE:
    {
        uint32_t exponent = (uint32_t)explore_random_below(r, 31);
        return (explore_random_next(r) & 0x83ffu) | (exponent << 10);
    }
    case RECIPE_SPECIALS:
        if (explore_random_percent(r, 30))
            return specials[explore_random_below(r, sizeof(specials) / sizeof(specials[0]))];
        return dmlconf_half_from_double(ordinary(RECIPE_SMALL_INTEGERS, r, product, 11));
    case RECIPE_CANCELLATION:
    {
        explore_random triple;
        explore_random_seed(&triple, stream, key / 3);
        int e = (int)explore_random_range(&triple, 4, 15);
        double big =
            (double)(explore_random_below(&triple, UINT64_C(1) << 11) | (UINT64_C(1) << 10)) * power_of_two(e - 10);
        switch (key % 3)
        {
        case 0:
            return dmlconf_half_from_double(big);
        case 1:
            return dmlconf_half_from_double(ordinary(RECIPE_UNIFORM, r, false, 11));
        default:
            return dmlconf_half_from_double(-big);
        }
    }
    case RECIPE_LIMITS:
        return specials[10 + explore_random_below(r, 4)] ^ (explore_random_percent(r, 10) ? 1u : 0u);
    default:
        return dmlconf_half_from_double(ordinary(recipe, r, product, 11));
    }
}

/* Integer bits (two's complement, `bits` wide) of one element. */
static uint64_t draw_integer(values_recipe recipe, explore_random *r, bool product, unsigned bits, bool is_signed,
                             uint64_t stream, uint64_t key)
{
    uint64_t mask = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1u;
    uint64_t top = UINT64_C(1) << (bits - 1);
    switch (recipe)
    {
    case RECIPE_UNIFORM:
        return (uint64_t)(is_signed ? signed_below(r, 1000) : (int64_t)explore_random_below(r, 1001)) & mask;
    case RECIPE_WIDE:
    {
        unsigned e = (unsigned)explore_random_below(r, bits);
        uint64_t value = (UINT64_C(1) << e) | (explore_random_next(r) & ((UINT64_C(1) << e) - 1u));
        if (is_signed && explore_random_percent(r, 50))
            value = 0u - value;
        return value & mask;
    }
    case RECIPE_SPECIALS:
        return explore_random_next(r) & mask;
    case RECIPE_CANCELLATION:
    {
        explore_random triple;
        explore_random_seed(&triple, stream, key / 3);
        uint64_t big = (explore_random_next(&triple) & (mask >> 2)) | (top >> 2);
        switch (key % 3)
        {
        case 0:
            return big & mask;
        case 1:
            return (uint64_t)signed_below(r, 4) & mask;
        default:
            return (0u - big) & mask;
        }
    }
    case RECIPE_LIMITS:
    {
        /* min, max, min + 1, max - 1, -1 (or all ones), 0, 1 */
        uint64_t low = is_signed ? top : 0u, high = is_signed ? top - 1u : mask;
        const uint64_t choices[] = {low, high, low + 1u, high - 1u, mask, 0u, 1u};
        return choices[explore_random_below(r, sizeof(choices) / sizeof(choices[0]))] & mask;
    }
    case RECIPE_NEAR_ONE:
    {
        static const int64_t factors[] = {1, 1, 1, -1, 2, 3, 0, -2};
        return (uint64_t)factors[explore_random_below(r, sizeof(factors) / sizeof(factors[0]))] & mask;
    }
    default:
        break;
    }
    if (product)
        return (uint64_t)(is_signed ? signed_below(r, 2) : (int64_t)explore_random_below(r, 3)) & mask;
    return (uint64_t)(is_signed ? signed_below(r, 4) : (int64_t)explore_random_below(r, 9)) & mask;
}

int explore_fill_values(explore_spec *spec, explore_random *random)
{
    const dmlconf_tensor_desc *in = &spec->desc.input;
    dmlconf_data_type type = in->data_type;
    size_t element = dmlconf_data_type_bits(type) / 8;
    uint64_t count = dmlconf_tensor_element_count(in);
    free(spec->values);
    spec->values = malloc((size_t)(count ? count : 1) * element);
    if (!spec->values)
        return -1;
    spec->count = count;
    bool product = spec->desc.op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    values_recipe recipe = (values_recipe)explore_random_below(random, RECIPE_COUNT);
    uint64_t stream = explore_random_next(random);
    uint64_t axis_stride = dmlconf_tensor_stride(in, spec->desc.axis);
    bool is_signed = type == DMLCONF_DATA_TYPE_INT32 || type == DMLCONF_DATA_TYPE_INT64;

    /* Odometer over the logical elements, keeping the storage offset. */
    uint64_t strides[DMLCONF_MAX_DIMENSIONS];
    uint32_t coordinates[DMLCONF_MAX_DIMENSIONS] = {0};
    for (uint32_t d = 0; d < in->dimension_count; ++d)
        strides[d] = dmlconf_tensor_stride(in, d);
    unsigned char *out = spec->values;
    uint64_t offset = 0;
    for (uint64_t i = 0; i < count; ++i)
    {
        explore_random r;
        explore_random_seed(&r, stream, offset);
        /* Position along the axis, for the patterns that follow it. */
        uint64_t key = axis_stride ? offset / axis_stride : offset;
        uint64_t bits;
        if (type == DMLCONF_DATA_TYPE_FLOAT32)
            bits = draw_float32(recipe, &r, product, stream, key);
        else if (type == DMLCONF_DATA_TYPE_FLOAT16)
            bits = draw_float16(recipe, &r, product, stream, key);
        else
            bits = draw_integer(recipe, &r, product, (unsigned)element * 8u, is_signed, stream, key);
        for (size_t b = 0; b < element; ++b)
            out[i * element + b] = (unsigned char)(bits >> (8 * b));
        for (uint32_t d = in->dimension_count; d-- > 0;)
        {
            if (++coordinates[d] < in->sizes[d])
            {
                offset += strides[d];
                break;
            }
            offset -= (uint64_t)(coordinates[d] - 1u) * strides[d];
            coordinates[d] = 0;
        }
    }
    return 0;
}
