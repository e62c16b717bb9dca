/*
 * Seeded, counter-based input generators (see dmlconf/datagen.h for the
 * definition of every generator and of the random streams): the spec's keys
 * and checks, and the exact reference fill.
 *
 * In the reference, float results are computed as exact binary numbers (a
 * small signed bignum with a power-of-two exponent) and rounded once by
 * dmlconf_value_from_dyadic, so no result depends on the host's
 * floating-point behaviour. dmlconf_datagen_fill takes the fast path of
 * datagen_fixed.c, which gives the same bits, and falls back on the
 * reference for the specs it cannot take.
 */
#include "datagen_internal.h"
#include "limbs.h"

#include <dmlconf/datagen.h>
#include <dmlconf/values.h>
#include <dmlconf/why.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define PARAMETER_LIMIT 100000

/* ---- names and keys -------------------------------------------------------- */

static const char *const kind_names[] = {NULL,   "uniform",  "integers", "dyadic",  "normal",
                                         "wide", "constant", "iota",     "specials"};
#define KIND_COUNT (sizeof(kind_names) / sizeof(kind_names[0]))

const char *dmlconf_datagen_kind_name(dmlconf_datagen_kind kind)
{
    size_t index = (size_t)kind;
    return index < KIND_COUNT ? kind_names[index] : NULL;
}

typedef struct key_info
{
    const char *name;
    uint32_t bit;
} key_info;

/* In the order of dmlconf_datagen_key. */
static const key_info keys_table[] = {
    {"generate", DMLCONF_DATAGEN_KEY_GENERATE}, {"seed", DMLCONF_DATAGEN_KEY_SEED},
    {"min", DMLCONF_DATAGEN_KEY_MIN},           {"max", DMLCONF_DATAGEN_KEY_MAX},
    {"scale", DMLCONF_DATAGEN_KEY_SCALE},       {"mean", DMLCONF_DATAGEN_KEY_MEAN},
    {"stddev", DMLCONF_DATAGEN_KEY_STDDEV},     {"emin", DMLCONF_DATAGEN_KEY_EMIN},
    {"emax", DMLCONF_DATAGEN_KEY_EMAX},         {"value", DMLCONF_DATAGEN_KEY_VALUE},
    {"start", DMLCONF_DATAGEN_KEY_START},       {"step", DMLCONF_DATAGEN_KEY_STEP},
};
#define KEY_COUNT (sizeof(keys_table) / sizeof(keys_table[0]))
#define ALL_KEYS  UINT32_C(0xfff)

static uint32_t valid_keys(dmlconf_datagen_kind kind)
{
    const uint32_t g = DMLCONF_DATAGEN_KEY_GENERATE;
    const uint32_t seed = DMLCONF_DATAGEN_KEY_SEED;
    const uint32_t bounds = DMLCONF_DATAGEN_KEY_MIN | DMLCONF_DATAGEN_KEY_MAX;
    switch (kind)
    {
    case DMLCONF_DATAGEN_UNIFORM:
    case DMLCONF_DATAGEN_INTEGERS:
        return g | seed | bounds;
    case DMLCONF_DATAGEN_DYADIC:
        return g | seed | bounds | DMLCONF_DATAGEN_KEY_SCALE;
    case DMLCONF_DATAGEN_NORMAL:
        return g | seed | DMLCONF_DATAGEN_KEY_MEAN | DMLCONF_DATAGEN_KEY_STDDEV;
    case DMLCONF_DATAGEN_WIDE:
        return g | seed | DMLCONF_DATAGEN_KEY_EMIN | DMLCONF_DATAGEN_KEY_EMAX;
    case DMLCONF_DATAGEN_CONSTANT:
        return g | DMLCONF_DATAGEN_KEY_VALUE;
    case DMLCONF_DATAGEN_IOTA:
        return g | DMLCONF_DATAGEN_KEY_START | DMLCONF_DATAGEN_KEY_STEP;
    case DMLCONF_DATAGEN_SPECIALS:
        return g | seed;
    case DMLCONF_DATAGEN_NONE:
    default:
        return ALL_KEYS;
    }
}

static uint32_t required_keys(dmlconf_datagen_kind kind)
{
    if (kind == DMLCONF_DATAGEN_IOTA)
        return DMLCONF_DATAGEN_KEY_GENERATE;
    return valid_keys(kind);
}

static const char *key_name(uint32_t bit)
{
    for (size_t i = 0; i < KEY_COUNT; ++i)
        if (keys_table[i].bit == bit)
            return keys_table[i].name;
    return "?";
}

/* "generate, seed, min, max" */
static void key_list(uint32_t keys, char *text, size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < KEY_COUNT; ++i)
    {
        if (!(keys & keys_table[i].bit))
            continue;
        int written = snprintf(text + used, size - used, "%s%s", used ? ", " : "", keys_table[i].name);
        if (written < 0 || (size_t)written >= size - used)
            return;
        used += (size_t)written;
    }
}

/* Where a value parameter lives in the spec; SIZE_MAX for other keys. */
static size_t parameter_offset(uint32_t bit)
{
    switch (bit)
    {
    case DMLCONF_DATAGEN_KEY_MIN:
        return offsetof(dmlconf_datagen_spec, min);
    case DMLCONF_DATAGEN_KEY_MAX:
        return offsetof(dmlconf_datagen_spec, max);
    case DMLCONF_DATAGEN_KEY_MEAN:
        return offsetof(dmlconf_datagen_spec, mean);
    case DMLCONF_DATAGEN_KEY_STDDEV:
        return offsetof(dmlconf_datagen_spec, stddev);
    case DMLCONF_DATAGEN_KEY_VALUE:
        return offsetof(dmlconf_datagen_spec, value);
    case DMLCONF_DATAGEN_KEY_START:
        return offsetof(dmlconf_datagen_spec, start);
    case DMLCONF_DATAGEN_KEY_STEP:
        return offsetof(dmlconf_datagen_spec, step);
    default:
        return SIZE_MAX;
    }
}

static int32_t *integer_slot(dmlconf_datagen_spec *spec, uint32_t bit)
{
    switch (bit)
    {
    case DMLCONF_DATAGEN_KEY_SCALE:
        return &spec->scale;
    case DMLCONF_DATAGEN_KEY_EMIN:
        return &spec->emin;
    case DMLCONF_DATAGEN_KEY_EMAX:
        return &spec->emax;
    default:
        return NULL;
    }
}

/* ---- types ------------------------------------------------------------------ */

typedef struct float_info
{
    unsigned bits;
    int precision;
    int emin;
    int emax;
    int qmin;
} float_info;

static const float_info float16_info = {16, 11, -14, 15, -24};
static const float_info float32_info = {32, 24, -126, 127, -149};

typedef struct type_desc
{
    dmlconf_data_type type;
    unsigned bytes;
    unsigned bits;
    const float_info *f; /* NULL for integers */
    bool is_signed;
} type_desc;

/* Describes one of the six computable types; false for any other. */
static bool describe_type(dmlconf_data_type type, type_desc *t)
{
    memset(t, 0, sizeof(*t));
    t->type = type;
    switch (type)
    {
    case DMLCONF_DATA_TYPE_FLOAT16:
        t->f = &float16_info;
        t->bits = 16;
        break;
    case DMLCONF_DATA_TYPE_FLOAT32:
        t->f = &float32_info;
        t->bits = 32;
        break;
    case DMLCONF_DATA_TYPE_INT32:
        t->is_signed = true;
        t->bits = 32;
        break;
    case DMLCONF_DATA_TYPE_UINT32:
        t->bits = 32;
        break;
    case DMLCONF_DATA_TYPE_INT64:
        t->is_signed = true;
        t->bits = 64;
        break;
    case DMLCONF_DATA_TYPE_UINT64:
        t->bits = 64;
        break;
    case DMLCONF_DATA_TYPE_UNKNOWN:
    case DMLCONF_DATA_TYPE_UINT16:
    case DMLCONF_DATA_TYPE_UINT8:
    case DMLCONF_DATA_TYPE_INT16:
    case DMLCONF_DATA_TYPE_INT8:
    case DMLCONF_DATA_TYPE_FLOAT64:
    case DMLCONF_DATA_TYPE_UINT4:
    case DMLCONF_DATA_TYPE_INT4:
    default:
        return false;
    }
    t->bytes = t->bits / 8u;
    return true;
}

static void store_le(unsigned char *out, uint64_t value, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; ++i)
        out[i] = (unsigned char)(value >> (8u * i));
}

static uint64_t load_le(const unsigned char *in, unsigned bytes)
{
    uint64_t value = 0;
    for (unsigned i = 0; i < bytes; ++i)
        value |= (uint64_t)in[i] << (8u * i);
    return value;
}

/* An integer element as a 64-bit two's complement value (sign-extended for
 * signed types). */
static uint64_t load_integer(const type_desc *t, const unsigned char *element)
{
    uint64_t raw = load_le(element, t->bytes);
    if (t->is_signed && t->bits < 64u && (raw >> (t->bits - 1u)) & 1u)
        raw |= ~((UINT64_C(1) << t->bits) - 1u);
    return raw;
}

static bool integer_less(const type_desc *t, uint64_t a, uint64_t b)
{
    return t->is_signed ? datagen_as_signed(a) < datagen_as_signed(b) : a < b;
}

static uint64_t float_inf_bits(const float_info *f)
{
    unsigned exponent_bits = f->bits - (unsigned)f->precision;
    return ((UINT64_C(1) << exponent_bits) - 1u) << (f->precision - 1);
}

/* ---- exact signed binary numbers ------------------------------------------------ */

/* 24 limbs = 768 bits: float32 values span 2^-149 .. 2^128 (277 bits), times a
 * 64-bit factor, plus alignment: well within. Operations that would exceed
 * it set `overflow` (never expected for the computable types). */
#define DYADIC_LIMBS 24u

typedef struct dyadic
{
    bool negative;
    bool overflow;
    uint32_t limb[DYADIC_LIMBS];
    size_t n;
    int64_t exponent; /* value = (-1)^negative * limbs * 2^exponent */
} dyadic;

static void dyadic_trim(dyadic *d)
{
    d->n = limbs_trim(d->limb, d->n);
}

static void dyadic_set(dyadic *d, bool negative, uint64_t magnitude, int64_t exponent)
{
    memset(d, 0, sizeof(*d));
    d->negative = negative;
    d->limb[0] = (uint32_t)magnitude;
    d->limb[1] = (uint32_t)(magnitude >> 32);
    d->n = 2;
    d->exponent = exponent;
    dyadic_trim(d);
}

/* A finite float or any integer element as a dyadic. */
static void dyadic_from_element(dyadic *d, const type_desc *t, const unsigned char *element)
{
    if (!t->f)
    {
        uint64_t raw = load_integer(t, element);
        if (t->is_signed && datagen_as_signed(raw) < 0)
            dyadic_set(d, true, (~raw) + 1u, 0);
        else
            dyadic_set(d, false, raw, 0);
        return;
    }
    const float_info *f = t->f;
    uint64_t bits = load_le(element, t->bytes);
    bool negative = (bits >> (f->bits - 1u)) & 1u;
    uint64_t fraction_mask = (UINT64_C(1) << (f->precision - 1)) - 1u;
    uint64_t field = (bits >> (f->precision - 1)) & ((UINT64_C(1) << (f->bits - (unsigned)f->precision)) - 1u);
    if (field == 0)
        dyadic_set(d, negative, bits & fraction_mask, f->qmin);
    else
        dyadic_set(d, negative, (bits & fraction_mask) | (fraction_mask + 1u), (int64_t)field - 1 + f->qmin);
}

static void dyadic_shift_left(dyadic *d, uint64_t bits)
{
    if (d->n == 0 || bits == 0)
        return;
    if (!limbs_shift_left(d->limb, &d->n, DYADIC_LIMBS, bits))
    {
        d->overflow = true;
        return;
    }
    d->exponent -= (int64_t)bits;
}

/* d = d * factor. */
static void dyadic_mul_u64(dyadic *d, uint64_t factor)
{
    uint32_t result[DYADIC_LIMBS + 2u];
    memset(result, 0, sizeof(result));
    uint32_t f[2] = {(uint32_t)factor, (uint32_t)(factor >> 32)};
    for (size_t j = 0; j < 2u; ++j)
    {
        uint64_t carry = 0;
        for (size_t i = 0; i < d->n; ++i)
        {
            uint64_t product = (uint64_t)d->limb[i] * f[j] + result[i + j] + carry;
            result[i + j] = (uint32_t)product;
            carry = product >> 32;
        }
        result[d->n + j] = (uint32_t)carry;
    }
    size_t n = d->n + 2u;
    while (n && result[n - 1u] == 0)
        --n;
    if (n > DYADIC_LIMBS)
    {
        d->overflow = true;
        return;
    }
    memcpy(d->limb, result, n * sizeof(uint32_t));
    d->n = n;
}

static int magnitude_compare(const dyadic *a, const dyadic *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (size_t i = a->n; i-- > 0;)
        if (a->limb[i] != b->limb[i])
            return a->limb[i] < b->limb[i] ? -1 : 1;
    return 0;
}

/* out = a + b (exact). */
static void dyadic_add(const dyadic *a_in, const dyadic *b_in, dyadic *out)
{
    /* x + 0 is x itself (a signed zero stays as it is), 0 + y is y. */
    if (b_in->n == 0)
    {
        *out = *a_in;
        return;
    }
    if (a_in->n == 0)
    {
        *out = *b_in;
        return;
    }
    dyadic a = *a_in;
    dyadic b = *b_in;
    /* Align on the smaller exponent. */
    if (a.exponent > b.exponent)
        dyadic_shift_left(&a, (uint64_t)(a.exponent - b.exponent));
    else if (b.exponent > a.exponent)
        dyadic_shift_left(&b, (uint64_t)(b.exponent - a.exponent));
    memset(out, 0, sizeof(*out));
    out->overflow = a.overflow || b.overflow;
    if (out->overflow)
        return;
    out->exponent = a.exponent;
    const dyadic *large = &a;
    const dyadic *small = &b;
    if (a.negative != b.negative && magnitude_compare(&a, &b) < 0)
    {
        large = &b;
        small = &a;
    }
    out->negative = large->negative;
    size_t n = large->n > small->n ? large->n : small->n;
    if (a.negative == b.negative)
    {
        uint64_t carry = 0;
        for (size_t i = 0; i < n; ++i)
        {
            uint64_t sum = carry + (i < a.n ? a.limb[i] : 0u) + (i < b.n ? b.limb[i] : 0u);
            out->limb[i] = (uint32_t)sum;
            carry = sum >> 32;
        }
        if (carry)
        {
            if (n == DYADIC_LIMBS)
            {
                out->overflow = true;
                return;
            }
            out->limb[n++] = (uint32_t)carry;
        }
    }
    else
    {
        int64_t borrow = 0;
        for (size_t i = 0; i < n; ++i)
        {
            int64_t difference =
                (int64_t)(i < large->n ? large->limb[i] : 0u) - (int64_t)(i < small->n ? small->limb[i] : 0u) - borrow;
            borrow = difference < 0;
            out->limb[i] = (uint32_t)(difference + (borrow ? INT64_C(0x100000000) : 0));
        }
    }
    out->n = n;
    dyadic_trim(out);
    if (out->n == 0)
        out->negative = false;
}

/* Rounds d to an element of the type (to nearest even). Returns the status
 * of dmlconf_value_from_dyadic. */
static dmlconf_value_status dyadic_store(const dyadic *d, const type_desc *t, bool allow_rounding, unsigned char *out)
{
    if (d->overflow)
        return DMLCONF_VALUE_OUT_OF_RANGE;
    return dmlconf_value_from_dyadic(t->type, d->negative, d->limb, d->n, d->exponent, allow_rounding, out, NULL, 0);
}

/* ---- init, set ------------------------------------------------------------------ */

void dmlconf_datagen_init(dmlconf_datagen_spec *spec, dmlconf_data_type type)
{
    memset(spec, 0, sizeof(*spec));
    spec->type = type;
    spec->kind = DMLCONF_DATAGEN_NONE;
}

static const char *generator_list = "uniform, integers, dyadic, normal, wide, constant, iota, specials";

int dmlconf_datagen_set(dmlconf_datagen_spec *spec, const char *key, const char *value_text, char *why, size_t why_size)
{
    if (why && why_size)
        why[0] = '\0';
    if (!key || !value_text)
    {
        dmlconf_set_why(why, why_size, "generator key or value missing");
        return -1;
    }
    uint32_t bit = 0;
    for (size_t i = 0; i < KEY_COUNT; ++i)
        if (strcmp(key, keys_table[i].name) == 0)
            bit = keys_table[i].bit;
    uint32_t allowed = valid_keys(spec->kind);
    if (!bit || !(allowed & bit))
    {
        char list[160];
        key_list(allowed, list, sizeof(list));
        if (spec->kind == DMLCONF_DATAGEN_NONE)
            dmlconf_set_why(why, why_size, "unknown generator key '%s' (valid keys: %s)", key, list);
        else
            dmlconf_set_why(why, why_size, "unknown key '%s' for generator %s (valid keys: %s)", key,
                            dmlconf_datagen_kind_name(spec->kind), list);
        return -1;
    }
    if (spec->keys & bit)
    {
        dmlconf_set_why(why, why_size, "key '%s' given twice", key);
        return -1;
    }
    char detail[512];
    if (bit == DMLCONF_DATAGEN_KEY_GENERATE)
    {
        for (size_t k = 1; k < KIND_COUNT; ++k)
        {
            if (strcmp(value_text, kind_names[k]) == 0)
            {
                spec->kind = (dmlconf_datagen_kind)k;
                spec->keys |= bit;
                return 0;
            }
        }
        dmlconf_set_why(why, why_size, "unknown generator '%.40s' (expected one of %s)", value_text, generator_list);
        return -1;
    }
    if (bit == DMLCONF_DATAGEN_KEY_SEED)
    {
        uint64_t seed;
        if (dmlconf_value_parse_u64(value_text, 0, UINT64_MAX, &seed, detail, sizeof(detail)) != DMLCONF_VALUE_OK)
        {
            dmlconf_set_why(why, why_size, "seed: %s", detail);
            return -1;
        }
        spec->seed = seed;
        spec->keys |= bit;
        return 0;
    }
    int32_t *integer = integer_slot(spec, bit);
    if (integer)
    {
        int64_t value;
        if (dmlconf_value_parse_i64(value_text, -PARAMETER_LIMIT, PARAMETER_LIMIT, &value, detail, sizeof(detail)) !=
            DMLCONF_VALUE_OK)
        {
            dmlconf_set_why(why, why_size, "%s: %s", key, detail);
            return -1;
        }
        *integer = (int32_t)value;
        spec->keys |= bit;
        return 0;
    }
    unsigned char element[8] = {0};
    if (dmlconf_value_parse(spec->type, value_text, false, element, detail, sizeof(detail)) != DMLCONF_VALUE_OK)
    {
        dmlconf_set_why(why, why_size, "%s: %s", key, detail);
        return -1;
    }
    memcpy((unsigned char *)spec + parameter_offset(bit), element, sizeof(element));
    spec->keys |= bit;
    return 0;
}

/* ---- check ---------------------------------------------------------------------- */

static bool float_is_finite(const type_desc *t, const unsigned char *element)
{
    uint64_t bits = load_le(element, t->bytes);
    uint64_t inf = float_inf_bits(t->f);
    return (bits & inf) != inf;
}

/* Formats a parameter for messages. */
static const char *parameter_text(const type_desc *t, const unsigned char *element, char *text, size_t size)
{
    dmlconf_value_format(t->type, element, DMLCONF_VALUE_STYLE_SHORTEST, text, size);
    return text;
}

/* Compares two finite elements: -1, 0 or 1 (+0 equals -0). */
static int element_compare(const type_desc *t, const unsigned char *a, const unsigned char *b)
{
    if (!t->f)
    {
        uint64_t x = load_integer(t, a);
        uint64_t y = load_integer(t, b);
        return integer_less(t, x, y) ? -1 : x == y ? 0 : 1;
    }
    dyadic x;
    dyadic y;
    dyadic_from_element(&x, t, a);
    dyadic_from_element(&y, t, b);
    y.negative = !y.negative;
    dyadic difference;
    dyadic_add(&x, &y, &difference);
    if (difference.n == 0)
        return 0;
    return difference.negative ? -1 : 1;
}

/* For integers drawn in a float type: the element as an int64 when it is an
 * integer of magnitude at most 2^p. */
static bool float_small_integer(const type_desc *t, const unsigned char *element, int64_t *out)
{
    dyadic d;
    dyadic_from_element(&d, t, element);
    unsigned char scratch[8];
    /* Integral exactly when rounding to int64 needs no rounding. */
    if (dmlconf_value_from_dyadic(DMLCONF_DATA_TYPE_INT64, d.negative, d.limb, d.n, d.exponent, false, scratch, NULL,
                                  0) != DMLCONF_VALUE_OK)
        return false;
    int64_t value = datagen_as_signed(load_le(scratch, 8));
    int64_t limit = INT64_C(1) << t->f->precision;
    if (value > limit || value < -limit)
        return false;
    *out = value;
    return true;
}

static int check_bounds(const dmlconf_datagen_spec *spec, const type_desc *t, const char *name, char *why,
                        size_t why_size)
{
    char low[DMLCONF_VALUE_TEXT_SIZE];
    char high[DMLCONF_VALUE_TEXT_SIZE];
    parameter_text(t, spec->min, low, sizeof(low));
    parameter_text(t, spec->max, high, sizeof(high));
    if (t->f && (!float_is_finite(t, spec->min) || !float_is_finite(t, spec->max)))
    {
        dmlconf_set_why(why, why_size, "%s: min and max must be finite (min %s, max %s)", name, low, high);
        return -1;
    }
    if (element_compare(t, spec->min, spec->max) > 0)
    {
        dmlconf_set_why(why, why_size, "%s: min (%s) is greater than max (%s)", name, low, high);
        return -1;
    }
    if (t->f && spec->kind != DMLCONF_DATAGEN_UNIFORM)
    {
        int64_t k;
        const unsigned char *bound[2] = {spec->min, spec->max};
        const char *label[2] = {"min", "max"};
        for (int i = 0; i < 2; ++i)
        {
            if (!float_small_integer(t, bound[i], &k))
            {
                dmlconf_set_why(why, why_size,
                                "%s: %s (%s) must be an integer from -%" PRId64 " to %" PRId64
                                " (the integers that %s holds exactly)",
                                name, label[i], i ? high : low, INT64_C(1) << t->f->precision,
                                INT64_C(1) << t->f->precision, dmlconf_data_type_lower_name(t->type));
                return -1;
            }
        }
    }
    return 0;
}

/* A bound of an integer draw as a dyadic: the element itself for integer
 * types, the integer it holds for float types. */
static void draw_bound(const type_desc *t, const unsigned char *element, dyadic *d)
{
    if (!t->f)
    {
        dyadic_from_element(d, t, element);
        return;
    }
    int64_t k = 0;
    float_small_integer(t, element, &k);
    dyadic_set(d, k < 0, k < 0 ? (uint64_t)(-k) : (uint64_t)k, 0);
}

static int check_dyadic(const dmlconf_datagen_spec *spec, const type_desc *t, char *why, size_t why_size)
{
    if (t->f ? spec->scale > -t->f->qmin : spec->scale > 0)
    {
        dmlconf_set_why(why, why_size, "dyadic: scale %" PRId32 " is too large for %s (at most %d)", spec->scale,
                        dmlconf_data_type_lower_name(t->type), t->f ? -t->f->qmin : 0);
        return -1;
    }
    const unsigned char *bound[2] = {spec->min, spec->max};
    for (int i = 0; i < 2; ++i)
    {
        dyadic d;
        draw_bound(t, bound[i], &d);
        d.exponent -= spec->scale;
        unsigned char scratch[8];
        if (d.n && dyadic_store(&d, t, false, scratch) != DMLCONF_VALUE_OK)
        {
            char text[DMLCONF_VALUE_TEXT_SIZE];
            dmlconf_set_why(why, why_size, "dyadic: %s (%s) * 2^%" PRId64 " is out of range for %s", i ? "max" : "min",
                            parameter_text(t, bound[i], text, sizeof(text)), -(int64_t)spec->scale,
                            dmlconf_data_type_lower_name(t->type));
            return -1;
        }
    }
    return 0;
}

static int check_normal(const dmlconf_datagen_spec *spec, const type_desc *t, char *why, size_t why_size)
{
    char mean_text[DMLCONF_VALUE_TEXT_SIZE];
    char stddev_text[DMLCONF_VALUE_TEXT_SIZE];
    parameter_text(t, spec->mean, mean_text, sizeof(mean_text));
    parameter_text(t, spec->stddev, stddev_text, sizeof(stddev_text));
    if (t->f && (!float_is_finite(t, spec->mean) || !float_is_finite(t, spec->stddev)))
    {
        dmlconf_set_why(why, why_size, "normal: mean and stddev must be finite (mean %s, stddev %s)", mean_text,
                        stddev_text);
        return -1;
    }
    dyadic mean;
    dyadic stddev;
    dyadic_from_element(&mean, t, spec->mean);
    dyadic_from_element(&stddev, t, spec->stddev);
    if (stddev.negative && stddev.n)
    {
        dmlconf_set_why(why, why_size, "normal: stddev (%s) must not be negative", stddev_text);
        return -1;
    }
    /* The results lie between mean - 6 stddev and mean + 6 stddev. */
    for (int sign = 0; sign < 2; ++sign)
    {
        dyadic spread = stddev;
        spread.negative = sign != 0;
        dyadic_mul_u64(&spread, 6);
        dyadic end;
        dyadic_add(&mean, &spread, &end);
        unsigned char scratch[8];
        if (dyadic_store(&end, t, true, scratch) != DMLCONF_VALUE_OK)
        {
            dmlconf_set_why(why, why_size, "normal: mean %s 6 * stddev (mean %s, stddev %s) is out of range for %s",
                            sign ? "-" : "+", mean_text, stddev_text, dmlconf_data_type_lower_name(t->type));
            return -1;
        }
    }
    return 0;
}

static int check_wide(const dmlconf_datagen_spec *spec, const type_desc *t, char *why, size_t why_size)
{
    int low = t->f ? t->f->qmin : 0;
    int high = t->f ? t->f->emax : (int)t->bits - 1 - (t->is_signed ? 1 : 0);
    if (spec->emin > spec->emax)
    {
        dmlconf_set_why(why, why_size, "wide: emin (%" PRId32 ") is greater than emax (%" PRId32 ")", spec->emin,
                        spec->emax);
        return -1;
    }
    if (spec->emin < low || spec->emax > high)
    {
        dmlconf_set_why(why, why_size,
                        "wide: exponents must lie from %d to %d for %s (emin %" PRId32 ", emax %" PRId32 ")", low, high,
                        dmlconf_data_type_lower_name(t->type), spec->emin, spec->emax);
        return -1;
    }
    return 0;
}

int dmlconf_datagen_check(const dmlconf_datagen_spec *spec, char *why, size_t why_size)
{
    if (why && why_size)
        why[0] = '\0';
    if (spec->kind == DMLCONF_DATAGEN_NONE || !dmlconf_datagen_kind_name(spec->kind))
    {
        dmlconf_set_why(why, why_size, "missing 'generate' key (one of %s)", generator_list);
        return -1;
    }
    const char *name = dmlconf_datagen_kind_name(spec->kind);
    type_desc t;
    if (!describe_type(spec->type, &t))
    {
        dmlconf_set_why(
            why, why_size,
            "generator %s needs a computable dtype (float32, float16, int32, uint32, int64, uint64), not %s", name,
            dmlconf_data_type_lower_name(spec->type));
        return -1;
    }
    char list[160];
    uint32_t valid = valid_keys(spec->kind);
    uint32_t extra = spec->keys & ~valid;
    if (extra)
    {
        key_list(valid, list, sizeof(list));
        dmlconf_set_why(why, why_size, "key '%s' does not apply to generator %s (valid keys: %s)",
                        key_name(extra & (0u - extra)), name, list);
        return -1;
    }
    uint32_t missing = required_keys(spec->kind) & ~spec->keys;
    if (missing)
    {
        dmlconf_set_why(why, why_size, "generator %s needs key '%s'", name, key_name(missing & (0u - missing)));
        return -1;
    }
    switch (spec->kind)
    {
    case DMLCONF_DATAGEN_UNIFORM:
    case DMLCONF_DATAGEN_INTEGERS:
        return check_bounds(spec, &t, name, why, why_size);
    case DMLCONF_DATAGEN_DYADIC:
        if (check_bounds(spec, &t, name, why, why_size))
            return -1;
        return check_dyadic(spec, &t, why, why_size);
    case DMLCONF_DATAGEN_NORMAL:
        return check_normal(spec, &t, why, why_size);
    case DMLCONF_DATAGEN_WIDE:
        return check_wide(spec, &t, why, why_size);
    case DMLCONF_DATAGEN_IOTA:
        if (t.f && (((spec->keys & DMLCONF_DATAGEN_KEY_START) && !float_is_finite(&t, spec->start)) ||
                    ((spec->keys & DMLCONF_DATAGEN_KEY_STEP) && !float_is_finite(&t, spec->step))))
        {
            dmlconf_set_why(why, why_size, "iota: start and step must be finite");
            return -1;
        }
        return 0;
    case DMLCONF_DATAGEN_CONSTANT:
    case DMLCONF_DATAGEN_SPECIALS:
    case DMLCONF_DATAGEN_NONE:
    default:
        return 0;
    }
}

/* ---- fill ------------------------------------------------------------------------- */

/* What every element of one fill needs, computed once. */
typedef struct fill_context
{
    const dmlconf_datagen_spec *spec;
    type_desc t;
    dyadic min;     /* uniform floats: min; iota: start; normal: mean */
    dyadic range;   /* uniform floats: max - min; iota: step; normal: stddev */
    uint64_t low;   /* integer draws: the lowest value (two's complement) */
    uint64_t width; /* integer draws: high - low */
} fill_context;

static void fill_prepare(fill_context *c)
{
    const dmlconf_datagen_spec *spec = c->spec;
    const type_desc *t = &c->t;
    switch (spec->kind)
    {
    case DMLCONF_DATAGEN_UNIFORM:
        if (t->f)
        {
            dyadic negative_min;
            dyadic max;
            dyadic_from_element(&c->min, t, spec->min);
            dyadic_from_element(&max, t, spec->max);
            negative_min = c->min;
            negative_min.negative = !negative_min.negative;
            dyadic_add(&max, &negative_min, &c->range);
            break;
        }
        c->low = load_integer(t, spec->min);
        c->width = load_integer(t, spec->max) - c->low;
        break;
    case DMLCONF_DATAGEN_INTEGERS:
    case DMLCONF_DATAGEN_DYADIC:
        if (t->f)
        {
            int64_t low = 0;
            int64_t high = 0;
            float_small_integer(t, spec->min, &low);
            float_small_integer(t, spec->max, &high);
            c->low = (uint64_t)low;
            c->width = (uint64_t)high - (uint64_t)low;
            break;
        }
        c->low = load_integer(t, spec->min);
        c->width = load_integer(t, spec->max) - c->low;
        break;
    case DMLCONF_DATAGEN_NORMAL:
        dyadic_from_element(&c->min, t, spec->mean);
        dyadic_from_element(&c->range, t, spec->stddev);
        break;
    case DMLCONF_DATAGEN_WIDE:
        c->low = (uint64_t)(int64_t)spec->emin;
        c->width = (uint64_t)((int64_t)spec->emax - (int64_t)spec->emin);
        break;
    case DMLCONF_DATAGEN_IOTA:
    {
        unsigned char zero[8] = {0};
        unsigned char one[8] = {0};
        if (t->f)
            store_le(one, (uint64_t)(1 - t->f->emin) << (t->f->precision - 1), t->bytes); /* 1.0 */
        else
            one[0] = 1;
        const unsigned char *start = (spec->keys & DMLCONF_DATAGEN_KEY_START) ? spec->start : zero;
        const unsigned char *step = (spec->keys & DMLCONF_DATAGEN_KEY_STEP) ? spec->step : one;
        if (t->f)
        {
            dyadic_from_element(&c->min, t, start);
            dyadic_from_element(&c->range, t, step);
        }
        else
        {
            c->low = load_integer(t, start);
            c->width = load_integer(t, step);
        }
        break;
    }
    case DMLCONF_DATAGEN_CONSTANT:
    case DMLCONF_DATAGEN_SPECIALS:
    case DMLCONF_DATAGEN_NONE:
    default:
        break;
    }
}

/* k * 2^exponent as an element (exact by the checks). */
static void store_integer_draw(const fill_context *c, uint64_t k, int64_t exponent, unsigned char *out)
{
    bool negative = (c->t.f || c->t.is_signed) && datagen_as_signed(k) < 0;
    dyadic d;
    dyadic_set(&d, negative, negative ? (~k) + 1u : k, exponent);
    dyadic_store(&d, &c->t, false, out);
}

static void fill_specials_float(const type_desc *t, datagen_stream *s, unsigned char *out)
{
    const float_info *f = t->f;
    uint64_t word = datagen_stream_word(s);
    uint64_t random = datagen_stream_word(s);
    unsigned category = (unsigned)(word & 15u);
    uint64_t sign = ((word >> 4) & 1u) << (f->bits - 1u);
    uint64_t hidden = UINT64_C(1) << (f->precision - 1);
    uint64_t fraction_mask = hidden - 1u;
    uint64_t inf = float_inf_bits(f);
    uint64_t quiet = hidden >> 1;
    uint64_t bits = 0;
    switch (category)
    {
    case 0: /* the canonical quiet NaN */
        bits = inf | quiet;
        break;
    case 1: /* a quiet NaN with a random payload and sign */
        bits = sign | inf | quiet | (random & (quiet - 1u));
        break;
    case 2:
        bits = inf;
        break;
    case 3:
        bits = (UINT64_C(1) << (f->bits - 1u)) | inf;
        break;
    case 4:
        bits = 0;
        break;
    case 5:
        bits = UINT64_C(1) << (f->bits - 1u);
        break;
    case 6: /* smallest subnormal */
        bits = sign | 1u;
        break;
    case 7: /* largest subnormal */
        bits = sign | fraction_mask;
        break;
    case 8: /* a random subnormal */
        bits = sign | ((random & fraction_mask) ? (random & fraction_mask) : 1u);
        break;
    case 9: /* smallest normal */
        bits = sign | hidden;
        break;
    case 10: /* largest finite */
        bits = sign | (inf - 1u);
        break;
    case 11: /* +-1 */
        bits = sign | ((uint64_t)(1 - f->emin) << (f->precision - 1));
        break;
    default: /* a random normal number */
    {
        uint64_t fields = (inf >> (f->precision - 1)) - 1u; /* exponent fields 1 .. all ones - 1 */
        uint64_t field = 1u + datagen_stream_below(s, fields);
        bits = sign | (field << (f->precision - 1)) | (random & fraction_mask);
        break;
    }
    }
    store_le(out, bits, t->bytes);
}

static void fill_specials_integer(const type_desc *t, datagen_stream *s, unsigned char *out)
{
    uint64_t word = datagen_stream_word(s);
    uint64_t random = datagen_stream_word(s);
    uint64_t top = UINT64_C(1) << (t->bits - 1u);
    uint64_t all = t->bits == 64u ? UINT64_MAX : (UINT64_C(1) << t->bits) - 1u;
    uint64_t value = 0;
    switch (word & 7u)
    {
    case 0:
        value = t->is_signed ? top : 0u; /* min */
        break;
    case 1:
        value = t->is_signed ? top - 1u : all; /* max */
        break;
    case 2:
        value = t->is_signed ? 0u : 1u;
        break;
    case 3:
        value = t->is_signed ? 1u : 2u;
        break;
    case 4:
        value = t->is_signed ? all : all - 1u; /* -1, or max - 1 */
        break;
    case 5:
        value = t->is_signed ? top + 1u : top; /* min + 1, or the top bit alone */
        break;
    case 6:
        value = top - 2u + (t->is_signed ? 0u : 1u); /* max - 1, or top - 1 */
        break;
    default:
        value = random;
        break;
    }
    store_le(out, value & all, t->bytes);
}

static void fill_one(const fill_context *c, uint64_t index, unsigned char *out)
{
    const dmlconf_datagen_spec *spec = c->spec;
    const type_desc *t = &c->t;
    datagen_stream s;
    datagen_stream_init(&s, spec->seed, index);
    switch (spec->kind)
    {
    case DMLCONF_DATAGEN_UNIFORM:
        if (t->f)
        {
            /* min + (max - min) * w / 2^64, rounded once. */
            dyadic offset = c->range;
            dyadic_mul_u64(&offset, datagen_stream_word(&s));
            offset.exponent -= 64;
            dyadic sum;
            dyadic_add(&c->min, &offset, &sum);
            dyadic_store(&sum, t, true, out);
            return;
        }
        store_le(out, datagen_stream_range(&s, c->low, c->width), t->bytes);
        return;
    case DMLCONF_DATAGEN_INTEGERS:
        if (t->f)
            store_integer_draw(c, datagen_stream_range(&s, c->low, c->width), 0, out);
        else
            store_le(out, datagen_stream_range(&s, c->low, c->width), t->bytes);
        return;
    case DMLCONF_DATAGEN_DYADIC:
        store_integer_draw(c, datagen_stream_range(&s, c->low, c->width), -(int64_t)spec->scale, out);
        return;
    case DMLCONF_DATAGEN_NORMAL:
    {
        uint64_t sum = 0;
        for (int i = 0; i < 6; ++i)
        {
            uint64_t word = datagen_stream_word(&s);
            sum += (word & UINT64_C(0xffffffff)) + (word >> 32);
        }
        /* z = sum / 2^32 - 6; x = mean + stddev * z. */
        uint64_t six = UINT64_C(6) << 32;
        bool below = sum < six;
        dyadic offset = c->range;
        dyadic_mul_u64(&offset, below ? six - sum : sum - six);
        offset.exponent -= 32;
        if (below)
            offset.negative = !offset.negative;
        if (offset.n == 0)
            offset.negative = false;
        dyadic result;
        dyadic_add(&c->min, &offset, &result);
        dyadic_store(&result, t, true, out);
        return;
    }
    case DMLCONF_DATAGEN_WIDE:
    {
        int64_t e = datagen_as_signed(datagen_stream_range(&s, c->low, c->width));
        uint64_t word = datagen_stream_word(&s);
        bool negative = (word >> 63) != 0;
        if (t->f)
        {
            const float_info *f = t->f;
            uint64_t bits;
            if (e >= f->emin)
            {
                uint64_t fraction = word & ((UINT64_C(1) << (f->precision - 1)) - 1u);
                bits = ((uint64_t)(e - f->emin + 1) << (f->precision - 1)) | fraction;
            }
            else
            {
                unsigned lead = (unsigned)(e - f->qmin);
                bits = (UINT64_C(1) << lead) | (word & ((UINT64_C(1) << lead) - 1u));
            }
            if (negative)
                bits |= UINT64_C(1) << (f->bits - 1u);
            store_le(out, bits, t->bytes);
            return;
        }
        unsigned lead = (unsigned)e;
        uint64_t value = (UINT64_C(1) << lead) | (word & ((UINT64_C(1) << lead) - 1u));
        if (t->is_signed && negative)
            value = (~value) + 1u;
        store_le(out, value, t->bytes);
        return;
    }
    case DMLCONF_DATAGEN_CONSTANT:
        memcpy(out, spec->value, t->bytes);
        return;
    case DMLCONF_DATAGEN_IOTA:
        if (t->f)
        {
            dyadic offset = c->range;
            dyadic_mul_u64(&offset, index);
            dyadic value;
            dyadic_add(&c->min, &offset, &value); /* start itself when the offset is 0 */
            if (dyadic_store(&value, t, true, out) != DMLCONF_VALUE_OK)
                store_le(out, float_inf_bits(t->f) | (value.negative ? UINT64_C(1) << (t->bits - 1u) : 0u), t->bytes);
            return;
        }
        store_le(out, c->low + index * c->width, t->bytes);
        return;
    case DMLCONF_DATAGEN_SPECIALS:
        if (t->f)
            fill_specials_float(t, &s, out);
        else
            fill_specials_integer(t, &s, out);
        return;
    case DMLCONF_DATAGEN_NONE:
    default:
        memset(out, 0, t->bytes);
        return;
    }
}

void datagen_fill_exact(const dmlconf_datagen_spec *spec, uint64_t first_index, uint64_t count, void *out)
{
    unsigned char *bytes = out;
    fill_context c;
    memset(&c, 0, sizeof(c));
    c.spec = spec;
    size_t size = dmlconf_value_size(spec->type);
    if (dmlconf_datagen_check(spec, NULL, 0) != 0 || !describe_type(spec->type, &c.t))
    {
        if (size)
            for (uint64_t i = 0; i < count; ++i)
                memset(bytes + i * size, 0, size);
        return;
    }
    fill_prepare(&c);
    for (uint64_t i = 0; i < count; ++i)
        fill_one(&c, first_index + i, bytes + i * c.t.bytes);
}

void dmlconf_datagen_fill(const dmlconf_datagen_spec *spec, uint64_t first_index, uint64_t count, void *out)
{
    if (dmlconf_datagen_check(spec, NULL, 0) == 0 && datagen_fill_fixed(spec, first_index, count, out))
        return;
    datagen_fill_exact(spec, first_index, count, out);
}

/* ---- describe ------------------------------------------------------------------- */

const char *dmlconf_datagen_key_name(dmlconf_datagen_key key)
{
    for (size_t i = 0; i < KEY_COUNT; ++i)
    {
        if (keys_table[i].bit == (uint32_t)key)
            return keys_table[i].name;
    }
    return NULL;
}

size_t dmlconf_datagen_format_key(const dmlconf_datagen_spec *spec, dmlconf_datagen_key key, dmlconf_value_style style,
                                  char *buffer, size_t size)
{
    uint32_t bit = (uint32_t)key;
    size_t offset = parameter_offset(bit);
    int written;
    if (bit == DMLCONF_DATAGEN_KEY_GENERATE)
    {
        const char *name = dmlconf_datagen_kind_name(spec->kind);
        written = snprintf(buffer, size, "%s", name ? name : "");
    }
    else if (bit == DMLCONF_DATAGEN_KEY_SEED)
        written = snprintf(buffer, size, "%" PRIu64, spec->seed);
    else if (offset != SIZE_MAX)
        return dmlconf_value_format(spec->type, (const unsigned char *)spec + offset, style, buffer, size);
    else if (bit == DMLCONF_DATAGEN_KEY_SCALE || bit == DMLCONF_DATAGEN_KEY_EMIN || bit == DMLCONF_DATAGEN_KEY_EMAX)
    {
        int32_t integer = bit == DMLCONF_DATAGEN_KEY_SCALE  ? spec->scale
                          : bit == DMLCONF_DATAGEN_KEY_EMIN ? spec->emin
                                                            : spec->emax;
        written = snprintf(buffer, size, "%" PRId32, integer);
    }
    else
        written = snprintf(buffer, size, "%s", "");
    return written > 0 ? (size_t)written : 0u;
}

size_t dmlconf_datagen_describe(const dmlconf_datagen_spec *spec, char *buffer, size_t size)
{
    char text[512];
    size_t used = 0;
    const char *name = dmlconf_datagen_kind_name(spec->kind);
    int written =
        snprintf(text, sizeof(text), "%s %s", name ? name : "no generator", dmlconf_data_type_lower_name(spec->type));
    used = written > 0 ? (size_t)written : 0u;
    /* Parameters in key order, seed last. */
    for (size_t k = 2; k < KEY_COUNT + 1u && used < sizeof(text); ++k)
    {
        size_t index = k < KEY_COUNT ? k : 1u; /* seed (index 1) last */
        uint32_t bit = keys_table[index].bit;
        if (!(spec->keys & bit))
            continue;
        char value[DMLCONF_VALUE_TEXT_SIZE];
        dmlconf_datagen_format_key(spec, (dmlconf_datagen_key)bit, DMLCONF_VALUE_STYLE_SHORTEST, value, sizeof(value));
        written = snprintf(text + used, sizeof(text) - used, " %s=%s", keys_table[index].name, value);
        if (written < 0)
            break;
        used += (size_t)written;
    }
    if (used >= sizeof(text))
        used = sizeof(text) - 1u;
    if (buffer && size)
    {
        size_t copy = used < size ? used : size - 1u;
        memcpy(buffer, text, copy);
        buffer[copy] = '\0';
    }
    return used;
}
