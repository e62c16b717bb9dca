/*
 * Exact parsing and formatting of scalar values.
 *
 * Every conversion between text and a float goes through exact integer
 * arithmetic (a small fixed-capacity bignum), never through a double or the C
 * library's strtod/printf, so the results are the same on every platform and
 * the exactness test is rigorous.
 *
 * The core idea: for a float format with smallest subnormal 2^qmin, let
 * s = 1 - qmin. For a value v > 0, X = floor(v * 2^s) together with a sticky
 * flag (v * 2^s is not an integer) holds everything that rounding to the
 * format needs: bit 0 of X is the rounding bit of the smallest subnormal, and
 * bits below it only matter through the sticky flag. Decimal and hex literals
 * are turned into (X, sticky), then rounded by one routine.
 */
#include "limbs.h"

#include <dmlconf/values.h>
#include <dmlconf/why.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- type descriptions ---------------------------------------------------- */

typedef struct float_format
{
    const char *name;
    unsigned bytes;
    int precision;  /* p: significand bits, hidden bit included */
    int emin;       /* exponent of the smallest normal */
    int emax;       /* exponent of the largest finite */
    int qmin;       /* exponent of the smallest subnormal: emin - p + 1 */
    int scale;      /* s = 1 - qmin */
    int a_overflow; /* a decimal whose first digit has weight 10^a, a >= a_overflow, rounds to infinity */
    int a_zero;     /* ... and one with a <= a_zero rounds to zero */
    uint64_t canonical_nan;
} float_format;

static const float_format float16_format = {"float16", 2, 11, -14, 15, -24, 25, 5, -9, UINT64_C(0x7e00)};
static const float_format float32_format = {"float32", 4, 24, -126, 127, -149, 150, 39, -47, UINT64_C(0x7fc00000)};
static const float_format float64_format = {"float64", 8,    53,  -1022, 1023,
                                            -1074,     1075, 309, -325,  UINT64_C(0x7ff8000000000000)};

typedef struct type_info
{
    const char *name;
    unsigned bytes;
    const float_format *float_format; /* NULL for integer types */
    bool is_signed;
    uint64_t max_positive; /* integer types: largest value */
    uint64_t max_negative; /* integer types: magnitude of the smallest value (0 when unsigned) */
} type_info;

static bool type_lookup(dmlconf_data_type type, type_info *info)
{
    memset(info, 0, sizeof(*info));
    switch (type)
    {
    case DMLCONF_DATA_TYPE_FLOAT16:
        info->float_format = &float16_format;
        break;
    case DMLCONF_DATA_TYPE_FLOAT32:
        info->float_format = &float32_format;
        break;
    case DMLCONF_DATA_TYPE_FLOAT64:
        info->float_format = &float64_format;
        break;
    case DMLCONF_DATA_TYPE_UINT8:
        info->name = "uint8";
        info->bytes = 1;
        break;
    case DMLCONF_DATA_TYPE_INT8:
        info->name = "int8";
        info->bytes = 1;
        info->is_signed = true;
        break;
    case DMLCONF_DATA_TYPE_UINT16:
        info->name = "uint16";
        info->bytes = 2;
        break;
    case DMLCONF_DATA_TYPE_INT16:
        info->name = "int16";
        info->bytes = 2;
        info->is_signed = true;
        break;
    case DMLCONF_DATA_TYPE_UINT32:
        info->name = "uint32";
        info->bytes = 4;
        break;
    case DMLCONF_DATA_TYPE_INT32:
        info->name = "int32";
        info->bytes = 4;
        info->is_signed = true;
        break;
    case DMLCONF_DATA_TYPE_UINT64:
        info->name = "uint64";
        info->bytes = 8;
        break;
    case DMLCONF_DATA_TYPE_INT64:
        info->name = "int64";
        info->bytes = 8;
        info->is_signed = true;
        break;
    case DMLCONF_DATA_TYPE_UNKNOWN:
    case DMLCONF_DATA_TYPE_UINT4:
    case DMLCONF_DATA_TYPE_INT4:
    default:
        return false;
    }
    if (info->float_format)
    {
        info->name = info->float_format->name;
        info->bytes = info->float_format->bytes;
        return true;
    }
    unsigned bits = info->bytes * 8u;
    if (info->is_signed)
    {
        info->max_positive = (UINT64_C(1) << (bits - 1u)) - 1u;
        info->max_negative = UINT64_C(1) << (bits - 1u);
    }
    else
    {
        info->max_positive = bits == 64u ? UINT64_MAX : (UINT64_C(1) << bits) - 1u;
    }
    return true;
}

size_t dmlconf_value_size(dmlconf_data_type type)
{
    type_info info;
    return type_lookup(type, &info) ? info.bytes : 0u;
}

const char *dmlconf_value_status_name(dmlconf_value_status status)
{
    switch (status)
    {
    case DMLCONF_VALUE_OK:
        return "ok";
    case DMLCONF_VALUE_SYNTAX:
        return "syntax";
    case DMLCONF_VALUE_NOT_INTEGER:
        return "not_integer";
    case DMLCONF_VALUE_OUT_OF_RANGE:
        return "out_of_range";
    case DMLCONF_VALUE_INEXACT:
        return "inexact";
    case DMLCONF_VALUE_BAD_BITS:
        return "bad_bits";
    case DMLCONF_VALUE_UNSUPPORTED_TYPE:
        return "unsupported_type";
    default:
        return NULL;
    }
}

/* ---- little-endian elements ------------------------------------------------ */

static void store_le(void *out, uint64_t value, unsigned bytes)
{
    unsigned char *p = out;
    for (unsigned i = 0; i < bytes; ++i)
        p[i] = (unsigned char)(value >> (8u * i));
}

static uint64_t load_le(const void *in, unsigned bytes)
{
    const unsigned char *p = in;
    uint64_t value = 0;
    for (unsigned i = 0; i < bytes; ++i)
        value |= (uint64_t)p[i] << (8u * i);
    return value;
}

/* ---- messages -------------------------------------------------------------- */

#define QUOTE_SIZE 48u

/* The text as it appears in messages: cut to 40 characters with "..." when
 * longer, control characters replaced by '?'. */
static const char *shorten(const char *text, char *buffer)
{
    size_t length = strlen(text);
    size_t keep = length > 40u ? 37u : length;
    for (size_t i = 0; i < keep; ++i)
    {
        unsigned char c = (unsigned char)text[i];
        buffer[i] = (c < 0x20u || c == 0x7fu) ? '?' : (char)c;
    }
    if (length > 40u)
    {
        memcpy(buffer + keep, "...", 3);
        keep += 3u;
    }
    buffer[keep] = '\0';
    return buffer;
}

/* ---- a small fixed-capacity unsigned bignum ---------------------------------- */

/* 170 limbs = 5440 bits: enough for every intermediate of float64 (at most
 * about 4600 bits, see round_decimal). Every operation that would exceed the
 * capacity sets `overflow` instead of writing out of bounds. */
#define BIG_LIMBS 170u

typedef struct big
{
    uint32_t limb[BIG_LIMBS];
    size_t n; /* limbs in use; limb[n - 1] != 0 unless n == 0 */
    bool overflow;
} big;

static void big_set_u64(big *b, uint64_t value)
{
    b->overflow = false;
    b->n = 0;
    while (value)
    {
        b->limb[b->n++] = (uint32_t)value;
        value >>= 32;
    }
}

static void big_trim(big *b)
{
    b->n = limbs_trim(b->limb, b->n);
}

/* b = b * factor + addend. */
static void big_mul_add(big *b, uint32_t factor, uint32_t addend)
{
    uint64_t carry = addend;
    for (size_t i = 0; i < b->n; ++i)
    {
        uint64_t product = (uint64_t)b->limb[i] * factor + carry;
        b->limb[i] = (uint32_t)product;
        carry = product >> 32;
    }
    if (carry)
    {
        if (b->n == BIG_LIMBS)
        {
            b->overflow = true;
            return;
        }
        b->limb[b->n++] = (uint32_t)carry;
    }
}

/* b = floor(b / divisor); returns the remainder. */
static uint32_t big_div_small(big *b, uint32_t divisor)
{
    uint64_t remainder = 0;
    for (size_t i = b->n; i-- > 0;)
    {
        uint64_t current = (remainder << 32) | b->limb[i];
        b->limb[i] = (uint32_t)(current / divisor);
        remainder = current % divisor;
    }
    big_trim(b);
    return (uint32_t)remainder;
}

static void big_shift_left(big *b, uint64_t bits)
{
    if (!limbs_shift_left(b->limb, &b->n, BIG_LIMBS, bits))
        b->overflow = true;
}

static void big_set_bit(big *b, uint64_t bit)
{
    uint64_t index = bit / 32u;
    if (index >= BIG_LIMBS)
    {
        b->overflow = true;
        return;
    }
    while (b->n <= index)
        b->limb[b->n++] = 0;
    b->limb[index] |= UINT32_C(1) << (bit % 32u);
}

/* x = floor(M * 2^shift) where M = limb[0..n); *sticky |= the bits shifted
 * out were not all zero. */
static void big_from_shifted(big *x, const uint32_t *limb, size_t n, int64_t shift, bool *sticky)
{
    x->overflow = false;
    x->n = 0;
    while (n && limb[n - 1u] == 0)
        --n;
    if (shift >= 0)
    {
        if (n > BIG_LIMBS)
        {
            x->overflow = true;
            return;
        }
        memcpy(x->limb, limb, n * sizeof(uint32_t));
        x->n = n;
        big_shift_left(x, (uint64_t)shift);
        return;
    }
    uint64_t drop = (uint64_t)(-(shift + 1)) + 1u;
    if (limbs_any_below(limb, n, drop))
        *sticky = true;
    uint64_t first_limb = drop / 32u;
    unsigned rest = (unsigned)(drop % 32u);
    for (uint64_t i = first_limb; i < n; ++i)
    {
        uint32_t value = limb[i] >> rest;
        if (rest && i + 1u < n)
            value |= limb[i + 1u] << (32u - rest);
        if (x->n == BIG_LIMBS)
        {
            if (value)
                x->overflow = true;
            break;
        }
        x->limb[x->n++] = value;
    }
    big_trim(x);
}

/* ---- rounding to a float format ------------------------------------------- */

typedef struct rounding
{
    uint64_t bits;  /* the rounded magnitude's encoding; the infinity encoding on overflow */
    uint64_t below; /* the magnitude rounded toward zero, at most the largest finite */
    bool inexact;
    bool overflow;
    bool failed; /* capacity exceeded (never expected; reported as a syntax error) */
} rounding;

static uint64_t float_inf_bits(const float_format *f)
{
    unsigned exponent_bits = f->bytes * 8u - (unsigned)f->precision;
    return ((UINT64_C(1) << exponent_bits) - 1u) << (f->precision - 1);
}

static void rounding_overflow(const float_format *f, rounding *r)
{
    memset(r, 0, sizeof(*r));
    r->bits = float_inf_bits(f);
    r->below = r->bits - 1u;
    r->inexact = true;
    r->overflow = true;
}

static void rounding_zero(rounding *r, bool inexact)
{
    memset(r, 0, sizeof(*r));
    r->bits = 0;
    r->below = 0;
    r->inexact = inexact;
    r->overflow = false;
}

/* Rounds v to f, to nearest even, given X = floor(v * 2^s) and sticky. */
static void round_scaled(const float_format *f, const big *x, bool sticky, rounding *r)
{
    memset(r, 0, sizeof(*r));
    if (x->overflow)
    {
        r->failed = true;
        return;
    }
    uint64_t length = limbs_bit_length(x->limb, x->n);
    if (length == 0)
    {
        /* v < 2^(qmin - 1): half the smallest subnormal or less. */
        rounding_zero(r, sticky);
        return;
    }
    uint64_t precision = (uint64_t)f->precision;
    uint64_t shift = length > precision + 1u ? length - precision : 1u;
    /* The kept significand's last bit has exponent q = qmin - 1 + shift. */
    uint64_t steps = shift - 1u; /* q - qmin */
    if (steps > (uint64_t)(f->emax - f->qmin + 1))
    {
        rounding_overflow(f, r);
        return;
    }
    uint64_t kept = limbs_extract(x->limb, x->n, shift);
    bool half = limbs_bit(x->limb, x->n, shift - 1u);
    bool lower = sticky || limbs_any_below(x->limb, x->n, shift - 1u);
    uint64_t truncated = (steps << (f->precision - 1)) + kept;
    uint64_t inf_bits = float_inf_bits(f);
    r->inexact = half || lower;
    bool up = half && (lower || (kept & 1u));
    r->bits = truncated + (up ? 1u : 0u);
    r->below = truncated < inf_bits ? truncated : inf_bits - 1u;
    if (r->bits >= inf_bits)
    {
        r->bits = inf_bits;
        r->overflow = true;
    }
}

static const uint32_t pow10_table[10] = {1u,      10u,      100u,      1000u,      10000u,
                                         100000u, 1000000u, 10000000u, 100000000u, 1000000000u};
static const uint32_t pow5_13 = 1220703125u; /* 5^13, the largest power of 5 below 2^32 */

/* Multiplies b by 5^count. */
static void big_mul_pow5(big *b, uint64_t count)
{
    while (count && !b->overflow)
    {
        unsigned step = count > 13u ? 13u : (unsigned)count;
        uint32_t factor = 1;
        for (unsigned i = 0; i < step; ++i)
            factor *= 5u;
        big_mul_add(b, factor, 0);
        count -= step;
    }
}

/* Rounds the decimal 0.d1 d2 ... dn * 10^(a + 1) (digit[0] != '0'; more_nonzero:
 * nonzero digits follow that were not stored) to f. */
static void round_decimal(const float_format *f, const char *digit, size_t n, bool more_nonzero, int64_t a, rounding *r)
{
    memset(r, 0, sizeof(*r));
    if (a >= f->a_overflow)
    {
        rounding_overflow(f, r);
        return;
    }
    if (a <= f->a_zero)
    {
        rounding_zero(r, true);
        return;
    }
    /* Digits of weight below 2^-s cannot change floor(v * 2^s): a multiple
     * of 2^-s has at most s decimals, so truncating v after its s-th decimal
     * keeps it on the same side of every such multiple. Keep the digits with
     * weight 10^(a - j) >= 10^-s. */
    uint64_t keep_limit = (uint64_t)(a + f->scale + 1);
    size_t kept = n < keep_limit ? n : (size_t)keep_limit;
    bool sticky = more_nonzero;
    for (size_t j = kept; j < n && !sticky; ++j)
        sticky = digit[j] != '0';
    int64_t exponent = a - (int64_t)kept + 1; /* v' = N * 10^exponent, exponent >= -s */

    big x;
    big_set_u64(&x, 0);
    size_t j = 0;
    while (j < kept)
    {
        unsigned chunk = kept - j > 9u ? 9u : (unsigned)(kept - j);
        uint32_t value = 0;
        for (unsigned k = 0; k < chunk; ++k)
            value = value * 10u + (uint32_t)(digit[j + k] - '0');
        big_mul_add(&x, pow10_table[chunk], value);
        j += chunk;
    }
    if (exponent >= 0)
    {
        for (int64_t e = exponent; e > 0; e -= 9)
            big_mul_add(&x, pow10_table[e > 9 ? 9 : e], 0);
        big_shift_left(&x, (uint64_t)f->scale);
    }
    else
    {
        /* N * 10^exponent * 2^s = N * 2^(s + exponent) / 5^-exponent. */
        big_shift_left(&x, (uint64_t)(f->scale + exponent));
        uint64_t divisions = (uint64_t)(-exponent);
        while (divisions)
        {
            uint32_t divisor = pow5_13;
            unsigned step = 13u;
            if (divisions < 13u)
            {
                step = (unsigned)divisions;
                divisor = 1;
                for (unsigned k = 0; k < step; ++k)
                    divisor *= 5u;
            }
            if (big_div_small(&x, divisor))
                sticky = true;
            divisions -= step;
        }
    }
    round_scaled(f, &x, sticky, r);
}

/* ---- scanning literals ------------------------------------------------------ */

/* Exponents are clamped to this magnitude: any literal with a larger one is
 * far outside every format, so the clamp never changes a result. */
#define EXPONENT_CLAMP INT64_C(1000000000000000)
/* Decimal digits kept by the scanner; round_decimal never needs more than
 * a_overflow + s + 1 = 1385 of them (float64). */
#define DIGIT_CAP 1400u

typedef enum number_kind
{
    NUMBER_SYNTAX,
    NUMBER_DECIMAL,
    NUMBER_HEX,
    NUMBER_NAN,
    NUMBER_INF,
    NUMBER_BITS,
} number_kind;

typedef struct number_text
{
    number_kind kind;
    bool negative;
    bool integer_form;      /* DECIMAL or HEX without point or exponent */
    const char *digits;     /* the mantissa: digits and at most one '.' */
    const char *digits_end; /* one past the mantissa */
    int64_t exponent;       /* e (decimal) or p (hex) exponent, clamped */
    size_t bits_digits;     /* BITS: how many hex digits */
    uint64_t bits_value;    /* BITS: their value when there are at most 16 */
} number_text;

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* text equals the lower-case word, ignoring case. */
static bool equals_word(const char *text, const char *word)
{
    for (; *word; ++text, ++word)
    {
        char c = *text;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != *word)
            return false;
    }
    return *text == '\0';
}

static void scan_number(const char *text, number_text *out)
{
    memset(out, 0, sizeof(*out));
    out->kind = NUMBER_SYNTAX;
    const char *p = text;
    if (strncmp(p, "bits:", 5) == 0)
    {
        p += 5;
        if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
            return;
        p += 2;
        size_t count = 0;
        uint64_t value = 0;
        for (; *p; ++p)
        {
            int digit = hex_value(*p);
            if (digit < 0)
                return;
            if (count < 16u)
                value = (value << 4) | (uint64_t)digit;
            ++count;
        }
        if (count == 0)
            return;
        out->kind = NUMBER_BITS;
        out->bits_digits = count;
        out->bits_value = value;
        return;
    }
    if (*p == '+' || *p == '-')
    {
        out->negative = *p == '-';
        ++p;
    }
    const char *word = *p == '.' ? p + 1 : p;
    if (equals_word(word, "nan"))
    {
        out->kind = NUMBER_NAN;
        return;
    }
    if (equals_word(word, "inf") || equals_word(word, "infinity"))
    {
        out->kind = NUMBER_INF;
        return;
    }
    bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    if (hex)
        p += 2;
    out->digits = p;
    size_t count = 0;
    bool point = false;
    for (;; ++p)
    {
        if (hex ? hex_value(*p) >= 0 : is_digit(*p))
            ++count;
        else if (*p == '.' && !point)
            point = true;
        else
            break;
    }
    if (count == 0)
        return;
    out->digits_end = p;
    bool has_exponent = false;
    if (hex ? (*p == 'p' || *p == 'P') : (*p == 'e' || *p == 'E'))
    {
        ++p;
        bool negative_exponent = false;
        if (*p == '+' || *p == '-')
        {
            negative_exponent = *p == '-';
            ++p;
        }
        if (!is_digit(*p))
            return;
        int64_t exponent = 0;
        for (; is_digit(*p); ++p)
        {
            exponent = exponent * 10 + (*p - '0');
            if (exponent > EXPONENT_CLAMP)
                exponent = EXPONENT_CLAMP;
        }
        out->exponent = negative_exponent ? -exponent : exponent;
        has_exponent = true;
    }
    if (*p != '\0')
        return;
    out->kind = hex ? NUMBER_HEX : NUMBER_DECIMAL;
    out->integer_form = !point && !has_exponent;
}

/* The significant digits of a DECIMAL literal. */
typedef struct decimal_digits
{
    char digit[DIGIT_CAP];
    size_t count;
    bool more_nonzero; /* nonzero digits beyond DIGIT_CAP */
    bool zero;
    int64_t a; /* the first digit has weight 10^a */
} decimal_digits;

static void collect_decimal(const number_text *t, decimal_digits *d)
{
    int64_t index = 0;
    int64_t integer_digits = 0;
    int64_t first = -1;
    bool after_point = false;
    d->count = 0;
    d->more_nonzero = false;
    for (const char *p = t->digits; p < t->digits_end; ++p)
    {
        if (*p == '.')
        {
            after_point = true;
            continue;
        }
        if (!after_point)
            ++integer_digits;
        if (first < 0 && *p != '0')
            first = index;
        if (first >= 0)
        {
            if (d->count < DIGIT_CAP)
                d->digit[d->count++] = *p;
            else if (*p != '0')
                d->more_nonzero = true;
        }
        ++index;
    }
    d->zero = first < 0;
    d->a = d->zero ? 0 : integer_digits - 1 - first + t->exponent;
}

/* Rounds a HEX literal to f. */
static void round_hex(const float_format *f, const number_text *t, rounding *r)
{
    int64_t integer_digits = 0;
    int64_t index = 0;
    int64_t first = -1;
    int first_value = 0;
    bool after_point = false;
    for (const char *p = t->digits; p < t->digits_end; ++p)
    {
        if (*p == '.')
        {
            after_point = true;
            continue;
        }
        if (!after_point)
            ++integer_digits;
        if (first < 0 && *p != '0')
        {
            first = index;
            first_value = hex_value(*p);
        }
        ++index;
    }
    memset(r, 0, sizeof(*r));
    if (first < 0)
    {
        rounding_zero(r, false);
        return;
    }
    int top_bit = first_value >= 8 ? 3 : first_value >= 4 ? 2 : first_value >= 2 ? 1 : 0;
    int64_t msb = 4 * (integer_digits - 1 - first) + top_bit + t->exponent;
    if (msb > f->emax)
    {
        rounding_overflow(f, r);
        return;
    }
    if (msb <= f->qmin - 2)
    {
        rounding_zero(r, true);
        return;
    }
    big x;
    big_set_u64(&x, 0);
    bool sticky = false;
    index = 0;
    for (const char *p = t->digits; p < t->digits_end; ++p)
    {
        if (*p == '.')
            continue;
        int value = hex_value(*p);
        /* Weight of this digit's bit 0, plus s: its bit position in X. */
        int64_t position = 4 * (integer_digits - 1 - index) + t->exponent + f->scale;
        ++index;
        if (value == 0)
            continue;
        for (int b = 0; b < 4; ++b)
        {
            if (!((value >> b) & 1))
                continue;
            if (position + b >= 0)
                big_set_bit(&x, (uint64_t)(position + b));
            else
                sticky = true;
        }
    }
    round_scaled(f, &x, sticky, r);
}

/* ---- formatting helpers ------------------------------------------------------- */

/* An output buffer that counts the full length and truncates. */
typedef struct text_out
{
    char *buffer;
    size_t size;
    size_t length;
} text_out;

static void out_char(text_out *o, char c)
{
    if (o->length + 1u < o->size)
        o->buffer[o->length] = c;
    ++o->length;
}

static void out_text(text_out *o, const char *text)
{
    for (; *text; ++text)
        out_char(o, *text);
}

static void out_finish(text_out *o)
{
    if (o->size)
        o->buffer[o->length < o->size ? o->length : o->size - 1u] = '\0';
}

static void out_i64(text_out *o, int64_t value)
{
    char number[24];
    snprintf(number, sizeof(number), "%" PRId64, value);
    out_text(o, number);
}

/* Writes the decimal digit[0..n) * 10^(a - n + 1) (no leading zero): plain
 * when -7 < a < 21 (integral values without a point), scientific otherwise. */
static void out_decimal(text_out *o, bool negative, const char *digit, size_t n, int64_t a)
{
    if (negative)
        out_char(o, '-');
    if (a > -7 && a < 21)
    {
        if (a >= (int64_t)n - 1)
        {
            for (size_t i = 0; i < n; ++i)
                out_char(o, digit[i]);
            for (int64_t i = 0; i < a - (int64_t)n + 1; ++i)
                out_char(o, '0');
        }
        else if (a >= 0)
        {
            for (size_t i = 0; i < n; ++i)
            {
                out_char(o, digit[i]);
                if ((int64_t)i == a)
                    out_char(o, '.');
            }
        }
        else
        {
            out_text(o, "0.");
            for (int64_t i = 0; i < -a - 1; ++i)
                out_char(o, '0');
            for (size_t i = 0; i < n; ++i)
                out_char(o, digit[i]);
        }
        return;
    }
    out_char(o, digit[0]);
    if (n > 1u)
    {
        out_char(o, '.');
        for (size_t i = 1; i < n; ++i)
            out_char(o, digit[i]);
    }
    out_char(o, 'e');
    out_i64(o, a);
}

/* A finite nonzero float decoded as significand * 2^exponent. */
static void float_decode(const float_format *f, uint64_t magnitude, uint64_t *significand, int64_t *exponent)
{
    uint64_t fraction_mask = (UINT64_C(1) << (f->precision - 1)) - 1u;
    uint64_t field = magnitude >> (f->precision - 1);
    if (field == 0)
    {
        *significand = magnitude & fraction_mask;
        *exponent = f->qmin;
    }
    else
    {
        *significand = (magnitude & fraction_mask) | (UINT64_C(1) << (f->precision - 1));
        *exponent = (int64_t)field - 1 + f->qmin;
    }
}

/* Digits for the exact decimal expansion of a float: up to 767 for float64. */
#define EXACT_DIGITS 800u

/* The exact decimal digits of significand * 2^exponent (significand > 0),
 * without leading or trailing zeros; returns their count and sets *a to the
 * first digit's power of ten. */
static size_t exact_decimal(uint64_t significand, int64_t exponent, char *digit, int64_t *a)
{
    big b;
    big_set_u64(&b, significand);
    int64_t exponent10 = 0;
    if (exponent >= 0)
    {
        big_shift_left(&b, (uint64_t)exponent);
    }
    else
    {
        big_mul_pow5(&b, (uint64_t)(-exponent));
        exponent10 = exponent;
    }
    /* Nine digits at a time, least significant chunk first. */
    uint32_t chunk[EXACT_DIGITS / 9u + 2u];
    size_t chunks = 0;
    while (b.n && chunks < sizeof(chunk) / sizeof(chunk[0]))
        chunk[chunks++] = big_div_small(&b, 1000000000u);
    size_t n = 0;
    for (size_t i = chunks; i-- > 0;)
    {
        char text[16];
        if (i == chunks - 1u)
            snprintf(text, sizeof(text), "%" PRIu32, chunk[i]);
        else
            snprintf(text, sizeof(text), "%09" PRIu32, chunk[i]);
        for (const char *p = text; *p && n < EXACT_DIGITS; ++p)
            digit[n++] = *p;
    }
    size_t total = n;
    while (n > 1u && digit[n - 1u] == '0')
        --n;
    *a = (int64_t)total - 1 + exponent10;
    return n;
}

/* True when the decimal digit[0..n) * 10^(a - n + 1) rounds to `magnitude`. */
static bool decimal_rounds_to(const float_format *f, const char *digit, size_t n, int64_t a, uint64_t magnitude)
{
    rounding r;
    round_decimal(f, digit, n, false, a, &r);
    return !r.failed && !r.overflow && r.bits == magnitude;
}

/* Tries the two decimals of `length` significant digits that bracket the
 * value (exact[0..n) * 10^(a - n + 1)), nearest first; on success writes the
 * one that rounds back to `magnitude` to out (no trailing zeros), sets
 * *out_a and returns its digit count; returns 0 when neither does. */
static size_t try_length(const float_format *f, uint64_t magnitude, const char *exact, size_t n, int64_t a,
                         size_t length, char *out, int64_t *out_a)
{
    if (length >= n)
    {
        memcpy(out, exact, n);
        *out_a = a;
        return n;
    }
    bool up_nearer = exact[length] > '5' || (exact[length] == '5' && length + 1u < n);
    for (int pass = 0; pass < 2; ++pass)
    {
        bool up = pass == 0 ? up_nearer : !up_nearer;
        size_t count = length;
        int64_t candidate_a = a;
        memcpy(out, exact, length);
        if (up)
        {
            size_t i = length;
            while (i > 0 && out[i - 1u] == '9')
                out[--i] = '0';
            if (i == 0)
            {
                out[0] = '1';
                count = 1;
                candidate_a = a + 1;
            }
            else
            {
                ++out[i - 1u];
            }
        }
        if (decimal_rounds_to(f, out, count, candidate_a, magnitude))
        {
            while (count > 1u && out[count - 1u] == '0')
                --count;
            *out_a = candidate_a;
            return count;
        }
    }
    return 0;
}

/* The shortest decimal that rounds back to `magnitude` (finite, nonzero),
 * given its exact digits. Among the decimals of one length, only the two
 * that bracket the value can round to it (the decimals rounding to it form
 * an interval containing it), so try_length is exact for a length. Success
 * is monotone in the length (a decimal of L digits that works is also one of
 * L + 1 digits, and the bracket on its side lies between it and the value),
 * so the shortest length is found by bisection. Returns the digit count (no
 * trailing zeros) and sets *out_a. */
static size_t shortest_decimal(const float_format *f, uint64_t magnitude, const char *exact, size_t n, int64_t a,
                               char *out, int64_t *out_a)
{
    size_t low = 1;
    size_t high = n; /* the exact digits always work */
    while (low < high)
    {
        size_t middle = low + (high - low) / 2u;
        int64_t ignored;
        if (try_length(f, magnitude, exact, n, a, middle, out, &ignored))
            high = middle;
        else
            low = middle + 1u;
    }
    return try_length(f, magnitude, exact, n, a, low, out, out_a);
}

static void out_hex_float(text_out *o, const float_format *f, uint64_t bits)
{
    uint64_t sign_bit = UINT64_C(1) << (f->bytes * 8u - 1u);
    uint64_t magnitude = bits & (sign_bit - 1u);
    if (bits & sign_bit)
        out_char(o, '-');
    if (magnitude == 0)
    {
        out_text(o, "0x0p+0");
        return;
    }
    uint64_t significand;
    int64_t exponent;
    float_decode(f, magnitude, &significand, &exponent);
    uint64_t hidden = UINT64_C(1) << (f->precision - 1);
    while (significand < hidden)
    {
        significand <<= 1;
        --exponent;
    }
    unsigned fraction_bits = (unsigned)f->precision - 1u;
    unsigned hex_digits = (fraction_bits + 3u) / 4u;
    uint64_t fraction = (significand - hidden) << (hex_digits * 4u - fraction_bits);
    out_text(o, "0x1");
    while (hex_digits && (fraction & 0xfu) == 0)
    {
        fraction >>= 4;
        --hex_digits;
    }
    if (hex_digits)
    {
        out_char(o, '.');
        for (unsigned i = hex_digits; i-- > 0;)
            out_char(o, "0123456789abcdef"[(fraction >> (4u * i)) & 0xfu]);
    }
    out_char(o, 'p');
    int64_t e = exponent + f->precision - 1;
    if (e >= 0)
        out_char(o, '+');
    out_i64(o, e);
}

static void out_bits(text_out *o, uint64_t bits, unsigned bytes)
{
    char text[32];
    snprintf(text, sizeof(text), "bits:0x%0*" PRIx64, (int)(bytes * 2u), bits);
    out_text(o, text);
}

/* READABLE writes an inexact-shortest value's exact decimal up to this length. */
#define READABLE_DECIMAL_MAX 24u

static void out_float(text_out *o, const float_format *f, uint64_t bits, dmlconf_value_style style)
{
    uint64_t sign_bit = UINT64_C(1) << (f->bytes * 8u - 1u);
    uint64_t magnitude = bits & (sign_bit - 1u);
    bool negative = (bits & sign_bit) != 0;
    uint64_t inf_bits = float_inf_bits(f);
    if (style == DMLCONF_VALUE_STYLE_BITS)
    {
        out_bits(o, bits, f->bytes);
        return;
    }
    if (magnitude > inf_bits)
    {
        if (bits == f->canonical_nan && style != DMLCONF_VALUE_STYLE_EXACT)
            out_text(o, "nan");
        else
            out_bits(o, bits, f->bytes);
        return;
    }
    if (magnitude == inf_bits)
    {
        out_text(o, negative ? "-inf" : "inf");
        return;
    }
    if (style == DMLCONF_VALUE_STYLE_EXACT)
    {
        out_hex_float(o, f, bits);
        return;
    }
    if (magnitude == 0)
    {
        out_text(o, negative ? "-0.0" : "0");
        return;
    }
    uint64_t significand;
    int64_t exponent;
    float_decode(f, magnitude, &significand, &exponent);
    char exact[EXACT_DIGITS];
    int64_t a;
    size_t n = exact_decimal(significand, exponent, exact, &a);
    if (style == DMLCONF_VALUE_STYLE_DECIMAL)
    {
        out_decimal(o, negative, exact, n, a);
        return;
    }
    char shortest[EXACT_DIGITS];
    int64_t shortest_a;
    size_t count = shortest_decimal(f, magnitude, exact, n, a, shortest, &shortest_a);
    if (style == DMLCONF_VALUE_STYLE_READABLE && count != n)
    {
        /* The shortest decimal is not exact: the exact one if it is short
         * (65504 for float16, whose shortest is 65500), else the hex float. */
        char text[READABLE_DECIMAL_MAX + 1u];
        text_out exact_text = {text, sizeof(text), 0};
        out_decimal(&exact_text, negative, exact, n, a);
        out_finish(&exact_text);
        if (exact_text.length <= READABLE_DECIMAL_MAX)
            out_text(o, text);
        else
            out_hex_float(o, f, bits);
        return;
    }
    out_decimal(o, negative, shortest, count, shortest_a);
}

static void out_integer(text_out *o, const type_info *info, uint64_t raw, dmlconf_value_style style)
{
    if (style == DMLCONF_VALUE_STYLE_BITS)
    {
        out_bits(o, raw, info->bytes);
        return;
    }
    unsigned bits = info->bytes * 8u;
    uint64_t sign_bit = UINT64_C(1) << (bits - 1u);
    char text[32];
    if (info->is_signed && (raw & sign_bit))
    {
        uint64_t mask = bits == 64u ? UINT64_MAX : (UINT64_C(1) << bits) - 1u;
        uint64_t magnitude = ((~raw) + 1u) & mask;
        snprintf(text, sizeof(text), "-%" PRIu64, magnitude);
    }
    else
    {
        snprintf(text, sizeof(text), "%" PRIu64, raw);
    }
    out_text(o, text);
}

size_t dmlconf_value_format(dmlconf_data_type type, const void *element, dmlconf_value_style style, char *buffer,
                            size_t size)
{
    text_out o = {buffer, buffer ? size : 0u, 0u};
    type_info info;
    bool known_style = false;
    switch (style)
    {
    case DMLCONF_VALUE_STYLE_SHORTEST:
    case DMLCONF_VALUE_STYLE_EXACT:
    case DMLCONF_VALUE_STYLE_BITS:
    case DMLCONF_VALUE_STYLE_DECIMAL:
    case DMLCONF_VALUE_STYLE_READABLE:
        known_style = true;
        break;
    default:
        break;
    }
    if (known_style && element && type_lookup(type, &info))
    {
        uint64_t raw = load_le(element, info.bytes);
        if (info.float_format)
            out_float(&o, info.float_format, raw, style);
        else
            out_integer(&o, &info, raw, style);
    }
    out_finish(&o);
    return o.length;
}

/* ---- parsing ------------------------------------------------------------------- */

/* The neighbour `magnitude` (with sign) as a message fragment: its exact
 * decimal when that is short, with the hex float in parentheses. */
static void describe_value(const float_format *f, bool negative, uint64_t magnitude, char *text, size_t size)
{
    uint64_t bits = magnitude | (negative ? UINT64_C(1) << (f->bytes * 8u - 1u) : 0u);
    char decimal[EXACT_DIGITS + 16u];
    char hex[DMLCONF_VALUE_TEXT_SIZE];
    text_out d = {decimal, sizeof(decimal), 0};
    out_float(&d, f, bits, DMLCONF_VALUE_STYLE_DECIMAL);
    out_finish(&d);
    text_out h = {hex, sizeof(hex), 0};
    out_float(&h, f, bits, DMLCONF_VALUE_STYLE_EXACT);
    out_finish(&h);
    text_out o = {text, size, 0};
    if (magnitude == 0 || d.length <= 40u)
        out_text(&o, decimal);
    if (magnitude != 0 && d.length <= 40u)
        out_text(&o, " (");
    if (magnitude != 0)
        out_text(&o, hex);
    if (magnitude != 0 && d.length <= 40u)
        out_char(&o, ')');
    out_finish(&o);
}

/* Stores a rounded float or explains why not. `label` names the value. */
static dmlconf_value_status finish_float(const float_format *f, const char *label, bool negative, const rounding *r,
                                         bool allow_rounding, void *out, char *why, size_t why_size)
{
    if (r->failed)
    {
        dmlconf_set_why(why, why_size, "%s: number too long to convert", label);
        return DMLCONF_VALUE_SYNTAX;
    }
    if (r->overflow)
    {
        char largest[96];
        describe_value(f, false, float_inf_bits(f) - 1u, largest, sizeof(largest));
        dmlconf_set_why(why, why_size, "%s is out of range for %s (largest finite value %s)", label, f->name, largest);
        return DMLCONF_VALUE_OUT_OF_RANGE;
    }
    if (r->inexact && !allow_rounding)
    {
        char low[96];
        char high[96];
        uint64_t inf_bits = float_inf_bits(f);
        if (r->below + 1u >= inf_bits)
        {
            describe_value(f, negative, r->below, low, sizeof(low));
            dmlconf_set_why(why, why_size,
                            "%s is not exactly representable in %s; the nearest finite value is %s; write it", label,
                            f->name, low);
        }
        else
        {
            /* In increasing order. */
            describe_value(f, negative, negative ? r->below + 1u : r->below, low, sizeof(low));
            describe_value(f, negative, negative ? r->below : r->below + 1u, high, sizeof(high));
            dmlconf_set_why(why, why_size,
                            "%s is not exactly representable in %s; nearest values are %s and %s; write one of them",
                            label, f->name, low, high);
        }
        return DMLCONF_VALUE_INEXACT;
    }
    uint64_t sign_bit = negative ? UINT64_C(1) << (f->bytes * 8u - 1u) : 0u;
    store_le(out, r->bits | sign_bit, f->bytes);
    return DMLCONF_VALUE_OK;
}

static const char *float_syntax_help = "decimal such as -1.25 or 1e-3, hex float such as 0x1.8p-3, nan, inf, -inf "
                                       "or bits:0x";

static dmlconf_value_status parse_float(const type_info *info, const char *text, const number_text *t,
                                        bool allow_rounding, void *out, char *why, size_t why_size)
{
    const float_format *f = info->float_format;
    char quote[QUOTE_SIZE];
    shorten(text, quote);
    uint64_t sign_bit = UINT64_C(1) << (f->bytes * 8u - 1u);
    switch (t->kind)
    {
    case NUMBER_BITS:
        if (t->bits_digits > 2u * f->bytes)
        {
            dmlconf_set_why(why, why_size, "%s has too many hex digits for %s (at most %u)", quote, f->name,
                            2u * f->bytes);
            return DMLCONF_VALUE_BAD_BITS;
        }
        store_le(out, t->bits_value, f->bytes);
        return DMLCONF_VALUE_OK;
    case NUMBER_NAN:
        store_le(out, f->canonical_nan | (t->negative ? sign_bit : 0u), f->bytes);
        return DMLCONF_VALUE_OK;
    case NUMBER_INF:
        store_le(out, float_inf_bits(f) | (t->negative ? sign_bit : 0u), f->bytes);
        return DMLCONF_VALUE_OK;
    case NUMBER_DECIMAL:
    {
        decimal_digits d;
        collect_decimal(t, &d);
        rounding r;
        if (d.zero)
            rounding_zero(&r, false);
        else
            round_decimal(f, d.digit, d.count, d.more_nonzero, d.a, &r);
        return finish_float(f, quote, t->negative, &r, allow_rounding, out, why, why_size);
    }
    case NUMBER_HEX:
    {
        rounding r;
        round_hex(f, t, &r);
        return finish_float(f, quote, t->negative, &r, allow_rounding, out, why, why_size);
    }
    case NUMBER_SYNTAX:
    default:
        break;
    }
    dmlconf_set_why(why, why_size, "expected a %s value (%s...), got '%s'", f->name, float_syntax_help, quote);
    return DMLCONF_VALUE_SYNTAX;
}

/* The magnitude of an integer-form literal; false when above UINT64_MAX. */
static bool integer_magnitude(const number_text *t, uint64_t *out)
{
    bool hex = t->kind == NUMBER_HEX;
    uint64_t base = hex ? 16u : 10u;
    uint64_t value = 0;
    for (const char *p = t->digits; p < t->digits_end; ++p)
    {
        uint64_t digit = (uint64_t)hex_value(*p);
        if (value > (UINT64_MAX - digit) / base)
            return false;
        value = value * base + digit;
    }
    *out = value;
    return true;
}

/* Range text "from -128 to 127". */
static void range_text(char *text, size_t size, bool negative_min, uint64_t min_magnitude, uint64_t max_magnitude,
                       bool negative_max)
{
    snprintf(text, size, "from %s%" PRIu64 " to %s%" PRIu64, negative_min && min_magnitude ? "-" : "", min_magnitude,
             negative_max && max_magnitude ? "-" : "", max_magnitude);
}

/* Parses an integer literal to (negative, magnitude) checked against
 * [-min_negative or min_positive, max]. `what` follows "expected an integer
 * <range>" ("for uint32", or ""). */
typedef struct integer_range
{
    bool min_negative; /* the minimum is negative */
    uint64_t min_magnitude;
    bool max_negative; /* the maximum is negative */
    uint64_t max_magnitude;
    const char *suffix; /* " for uint32", or "" */
} integer_range;

static bool range_contains(const integer_range *range, bool negative, uint64_t magnitude)
{
    if (magnitude == 0)
        negative = false;
    if (negative)
    {
        if (!range->min_negative || magnitude > range->min_magnitude)
            return false;
        return !range->max_negative || magnitude >= range->max_magnitude;
    }
    if (range->max_negative || magnitude > range->max_magnitude)
        return false;
    return range->min_negative || magnitude >= range->min_magnitude;
}

/* The quoted text and "from MIN to MAX" for an integer error message. */
static void describe_integer(const char *text, const integer_range *range, char quote[QUOTE_SIZE], char bounds[64])
{
    shorten(text, quote);
    range_text(bounds, 64, range->min_negative, range->min_magnitude, range->max_magnitude, range->max_negative);
}

static dmlconf_value_status parse_integer_text(const char *text, const number_text *t, const integer_range *range,
                                               bool *negative, uint64_t *magnitude, char *why, size_t why_size)
{
    /* The messages name the text and the range; they are formatted on the
     * error paths only, since this runs for every inline integer. */
    char quote[QUOTE_SIZE], bounds[64];
    switch (t->kind)
    {
    case NUMBER_DECIMAL:
    case NUMBER_HEX:
        if (t->integer_form)
        {
            uint64_t value = 0;
            if (!integer_magnitude(t, &value) || !range_contains(range, t->negative, value))
            {
                describe_integer(text, range, quote, bounds);
                dmlconf_set_why(why, why_size, "%s is out of range%s: expected an integer %s", quote, range->suffix,
                                bounds);
                return DMLCONF_VALUE_OUT_OF_RANGE;
            }
            *negative = t->negative && value != 0;
            *magnitude = value;
            return DMLCONF_VALUE_OK;
        }
        describe_integer(text, range, quote, bounds);
        dmlconf_set_why(why, why_size, "expected an integer %s%s (decimal or 0x hex, no point or exponent), got %s",
                        bounds, range->suffix, quote);
        return DMLCONF_VALUE_NOT_INTEGER;
    case NUMBER_NAN:
    case NUMBER_INF:
        describe_integer(text, range, quote, bounds);
        dmlconf_set_why(why, why_size, "expected an integer %s%s, got %s", bounds, range->suffix, quote);
        return DMLCONF_VALUE_NOT_INTEGER;
    case NUMBER_BITS:
    case NUMBER_SYNTAX:
    default:
        break;
    }
    describe_integer(text, range, quote, bounds);
    dmlconf_set_why(why, why_size, "expected an integer %s%s (decimal or 0x hex), got '%s'", bounds, range->suffix,
                    quote);
    return DMLCONF_VALUE_SYNTAX;
}

static void type_range(const type_info *info, integer_range *range, char *suffix, size_t suffix_size)
{
    /* " for <name>", built without snprintf: this runs for every value. */
    size_t used = 0;
    for (const char *p = " for "; *p && used + 1 < suffix_size; ++p)
        suffix[used++] = *p;
    for (const char *p = info->name; *p && used + 1 < suffix_size; ++p)
        suffix[used++] = *p;
    suffix[used] = '\0';
    range->min_negative = info->is_signed;
    range->min_magnitude = info->max_negative;
    range->max_negative = false;
    range->max_magnitude = info->max_positive;
    range->suffix = suffix;
}

static uint64_t integer_encode(const type_info *info, bool negative, uint64_t magnitude)
{
    uint64_t value = negative ? (~magnitude) + 1u : magnitude;
    unsigned bits = info->bytes * 8u;
    return bits == 64u ? value : value & ((UINT64_C(1) << bits) - 1u);
}

static dmlconf_value_status parse_int(const type_info *info, const char *text, const number_text *t, void *out,
                                      char *why, size_t why_size)
{
    if (t->kind == NUMBER_BITS)
    {
        if (t->bits_digits > 2u * info->bytes)
        {
            char quote[QUOTE_SIZE];
            dmlconf_set_why(why, why_size, "%s has too many hex digits for %s (at most %u)", shorten(text, quote),
                            info->name, 2u * info->bytes);
            return DMLCONF_VALUE_BAD_BITS;
        }
        store_le(out, t->bits_value, info->bytes);
        return DMLCONF_VALUE_OK;
    }
    integer_range range;
    char suffix[32];
    type_range(info, &range, suffix, sizeof(suffix));
    bool negative = false;
    uint64_t magnitude = 0;
    dmlconf_value_status status = parse_integer_text(text, t, &range, &negative, &magnitude, why, why_size);
    if (status == DMLCONF_VALUE_OK)
        store_le(out, integer_encode(info, negative, magnitude), info->bytes);
    return status;
}

static void clear_why(char *why, size_t why_size)
{
    if (why && why_size)
        why[0] = '\0';
}

static dmlconf_value_status unsupported(dmlconf_data_type type, char *why, size_t why_size)
{
    const char *name = dmlconf_data_type_name(type);
    if (name)
        dmlconf_set_why(why, why_size, "values of type %s are not supported", name);
    else
        dmlconf_set_why(why, why_size, "values of data type %d are not supported", (int)type);
    return DMLCONF_VALUE_UNSUPPORTED_TYPE;
}

dmlconf_value_status dmlconf_value_parse(dmlconf_data_type type, const char *text, bool allow_rounding,
                                         void *out_element, char *why, size_t why_size)
{
    clear_why(why, why_size);
    type_info info;
    if (!type_lookup(type, &info))
        return unsupported(type, why, why_size);
    if (!text)
    {
        dmlconf_set_why(why, why_size, "expected a %s value, got nothing", info.name);
        return DMLCONF_VALUE_SYNTAX;
    }
    number_text t;
    scan_number(text, &t);
    if (info.float_format)
        return parse_float(&info, text, &t, allow_rounding, out_element, why, why_size);
    return parse_int(&info, text, &t, out_element, why, why_size);
}

dmlconf_value_status dmlconf_value_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out, char *why,
                                             size_t why_size)
{
    clear_why(why, why_size);
    integer_range range = {false, min, false, max, ""};
    number_text t;
    scan_number(text ? text : "", &t);
    bool negative = false;
    uint64_t magnitude = 0;
    dmlconf_value_status status =
        parse_integer_text(text ? text : "", &t, &range, &negative, &magnitude, why, why_size);
    if (status == DMLCONF_VALUE_OK)
        *out = magnitude;
    return status;
}

static uint64_t i64_magnitude(int64_t value)
{
    return value < 0 ? (uint64_t)(-(value + 1)) + 1u : (uint64_t)value;
}

dmlconf_value_status dmlconf_value_parse_i64(const char *text, int64_t min, int64_t max, int64_t *out, char *why,
                                             size_t why_size)
{
    clear_why(why, why_size);
    integer_range range = {min < 0, i64_magnitude(min), max < 0, i64_magnitude(max), ""};
    number_text t;
    scan_number(text ? text : "", &t);
    bool negative = false;
    uint64_t magnitude = 0;
    dmlconf_value_status status =
        parse_integer_text(text ? text : "", &t, &range, &negative, &magnitude, why, why_size);
    if (status == DMLCONF_VALUE_OK)
    {
        /* In range, so the magnitude fits: at most 2^63 when negative. */
        *out = negative ? -(int64_t)(magnitude - 1u) - 1 : (int64_t)magnitude;
    }
    return status;
}

/* ---- exact binary numbers -------------------------------------------------------- */

dmlconf_value_status dmlconf_value_from_dyadic(dmlconf_data_type type, bool negative, const uint32_t *magnitude,
                                               size_t limb_count, int64_t exponent, bool allow_rounding,
                                               void *out_element, char *why, size_t why_size)
{
    clear_why(why, why_size);
    type_info info;
    if (!type_lookup(type, &info))
        return unsupported(type, why, why_size);
    if (!magnitude)
        limb_count = 0;
    uint64_t length = limbs_bit_length(magnitude, limb_count);
    /* Clamp so that msb = length - 1 + exponent cannot overflow. */
    if (exponent > EXPONENT_CLAMP)
        exponent = EXPONENT_CLAMP;
    if (exponent < -EXPONENT_CLAMP)
        exponent = -EXPONENT_CLAMP;
    if (length > (uint64_t)EXPONENT_CLAMP)
        length = (uint64_t)EXPONENT_CLAMP;
    int64_t msb = (int64_t)length - 1 + exponent;

    if (info.float_format)
    {
        const float_format *f = info.float_format;
        rounding r;
        memset(&r, 0, sizeof(r));
        if (length == 0)
            rounding_zero(&r, false);
        else if (msb > f->emax)
            rounding_overflow(f, &r);
        else if (msb <= f->qmin - 2)
            rounding_zero(&r, true);
        else
        {
            big x;
            bool sticky = false;
            big_from_shifted(&x, magnitude, limb_count, exponent + f->scale, &sticky);
            round_scaled(f, &x, sticky, &r);
        }
        return finish_float(f, "the value", negative, &r, allow_rounding, out_element, why, why_size);
    }

    integer_range range;
    char suffix[32];
    type_range(&info, &range, suffix, sizeof(suffix));
    char bounds[64];
    range_text(bounds, sizeof(bounds), range.min_negative, range.min_magnitude, range.max_magnitude, false);
    uint64_t value = 0;
    if (length != 0)
    {
        if (msb >= 64)
        {
            dmlconf_set_why(why, why_size, "the value is out of range for %s: expected an integer %s", info.name,
                            bounds);
            return DMLCONF_VALUE_OUT_OF_RANGE;
        }
        if (exponent >= 0)
        {
            value = limbs_extract(magnitude, limb_count, 0) << exponent;
        }
        else
        {
            uint64_t drop = (uint64_t)(-exponent);
            value = msb < 0 ? 0u : limbs_extract(magnitude, limb_count, drop);
            bool half = limbs_bit(magnitude, limb_count, drop - 1u);
            bool lower = limbs_any_below(magnitude, limb_count, drop - 1u);
            if (half || lower)
            {
                if (!allow_rounding)
                {
                    dmlconf_set_why(why, why_size, "the value is not an integer (expected an integer %s for %s)",
                                    bounds, info.name);
                    return DMLCONF_VALUE_NOT_INTEGER;
                }
                if (half && (lower || (value & 1u)))
                {
                    if (value == UINT64_MAX)
                    {
                        dmlconf_set_why(why, why_size, "the value is out of range for %s: expected an integer %s",
                                        info.name, bounds);
                        return DMLCONF_VALUE_OUT_OF_RANGE;
                    }
                    ++value;
                }
            }
        }
    }
    if (!range_contains(&range, negative, value))
    {
        dmlconf_set_why(why, why_size, "the value is out of range for %s: expected an integer %s", info.name, bounds);
        return DMLCONF_VALUE_OUT_OF_RANGE;
    }
    store_le(out_element, integer_encode(&info, negative && value != 0, value), info.bytes);
    return DMLCONF_VALUE_OK;
}
