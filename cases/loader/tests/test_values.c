/*
 * Tests of dmlconf/values.h: every status, exact messages, exhaustive
 * float16 and sampled float32 round trips in every style, a cross-check of
 * decimal parsing against the C library's correctly rounded strtof/strtod,
 * 64-bit extremes, hex floats, bits, ties, long digit strings.
 */
#include <dmlconf/values.h>

#include <check.h>
#include <float.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An assertion for hot loops: Check's ck_assert_* records a location on
 * every call (a write to its pipe), far too slow for millions of checks. */
#define CHECK(condition, ...)                                                                                          \
    do                                                                                                                 \
    {                                                                                                                  \
        if (!(condition))                                                                                              \
            ck_abort_msg(__VA_ARGS__);                                                                                 \
    } while (0)

#define F16 DMLCONF_DATA_TYPE_FLOAT16
#define F32 DMLCONF_DATA_TYPE_FLOAT32
#define F64 DMLCONF_DATA_TYPE_FLOAT64
#define I32 DMLCONF_DATA_TYPE_INT32
#define U32 DMLCONF_DATA_TYPE_UINT32
#define I64 DMLCONF_DATA_TYPE_INT64
#define U64 DMLCONF_DATA_TYPE_UINT64
#define I8  DMLCONF_DATA_TYPE_INT8
#define U16 DMLCONF_DATA_TYPE_UINT16

static const dmlconf_value_style all_styles[] = {DMLCONF_VALUE_STYLE_SHORTEST, DMLCONF_VALUE_STYLE_EXACT,
                                                 DMLCONF_VALUE_STYLE_BITS, DMLCONF_VALUE_STYLE_DECIMAL,
                                                 DMLCONF_VALUE_STYLE_READABLE};
#define STYLE_COUNT (sizeof(all_styles) / sizeof(all_styles[0]))

/* A seeded splitmix64 stream for sampling. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t load_element(const unsigned char *e, size_t size)
{
    uint64_t v = 0;
    for (size_t i = 0; i < size; ++i)
        v |= (uint64_t)e[i] << (8u * i);
    return v;
}

static void store_element(unsigned char *e, uint64_t v, size_t size)
{
    for (size_t i = 0; i < size; ++i)
        e[i] = (unsigned char)(v >> (8u * i));
}

static uint32_t f32_bits(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof(bits));
    return bits;
}

static float f32_from_bits(uint32_t bits)
{
    float value;
    memcpy(&value, &bits, sizeof(value));
    return value;
}

/* ---- statuses and values, table-driven ------------------------------------------ */

typedef struct parse_case
{
    dmlconf_data_type type;
    const char *text;
    bool round;
    dmlconf_value_status status;
    uint64_t bits; /* expected encoding when status is OK */
} parse_case;

static const parse_case parse_cases[] = {
    /* integers */
    {U32, "0", false, DMLCONF_VALUE_OK, 0},
    {U32, "-0", false, DMLCONF_VALUE_OK, 0},
    {U32, "+7", false, DMLCONF_VALUE_OK, 7},
    {U32, "007", false, DMLCONF_VALUE_OK, 7},
    {U32, "4294967295", false, DMLCONF_VALUE_OK, 0xffffffffu},
    {U32, "0xFFFFffff", false, DMLCONF_VALUE_OK, 0xffffffffu},
    {U32, "4294967296", false, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {U32, "-1", false, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {U32, "1.5", true, DMLCONF_VALUE_NOT_INTEGER, 0},
    {U32, "1.0", false, DMLCONF_VALUE_NOT_INTEGER, 0},
    {U32, "1e3", false, DMLCONF_VALUE_NOT_INTEGER, 0},
    {U32, "0x1p3", false, DMLCONF_VALUE_NOT_INTEGER, 0},
    {U32, "nan", false, DMLCONF_VALUE_NOT_INTEGER, 0},
    {U32, "inf", false, DMLCONF_VALUE_NOT_INTEGER, 0},
    {U32, "abc", false, DMLCONF_VALUE_SYNTAX, 0},
    {U32, "", false, DMLCONF_VALUE_SYNTAX, 0},
    {U32, "1_000", false, DMLCONF_VALUE_SYNTAX, 0},
    {U32, " 1", false, DMLCONF_VALUE_SYNTAX, 0},
    {U32, "0x", false, DMLCONF_VALUE_SYNTAX, 0},
    {U32, "--1", false, DMLCONF_VALUE_SYNTAX, 0},
    {U32, "bits:0xdeadbeef", false, DMLCONF_VALUE_OK, 0xdeadbeefu},
    {U32, "bits:0x1deadbeef", false, DMLCONF_VALUE_BAD_BITS, 0},
    {I32, "-2147483648", false, DMLCONF_VALUE_OK, 0x80000000u},
    {I32, "2147483647", false, DMLCONF_VALUE_OK, 0x7fffffffu},
    {I32, "-2147483649", false, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {I32, "2147483648", false, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {I32, "-0x80000000", false, DMLCONF_VALUE_OK, 0x80000000u},
    {I32, "-1", false, DMLCONF_VALUE_OK, 0xffffffffu},
    {I64, "-9223372036854775808", false, DMLCONF_VALUE_OK, UINT64_C(0x8000000000000000)},
    {I64, "9223372036854775807", false, DMLCONF_VALUE_OK, UINT64_C(0x7fffffffffffffff)},
    {I64, "-9223372036854775809", false, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {I64, "9223372036854775808", false, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {I64, "-0x8000000000000000", false, DMLCONF_VALUE_OK, UINT64_C(0x8000000000000000)},
    {I64, "99999999999999999999999999999999999", false, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {U64, "18446744073709551615", false, DMLCONF_VALUE_OK, UINT64_MAX},
    {U64, "0xffffffffffffffff", false, DMLCONF_VALUE_OK, UINT64_MAX},
    {U64, "18446744073709551616", false, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {U64, "0x10000000000000000", false, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {U64, "bits:0x8000000000000000", false, DMLCONF_VALUE_OK, UINT64_C(0x8000000000000000)},
    {U64, "bits:0x00000000000000001", false, DMLCONF_VALUE_BAD_BITS, 0},
    {I8, "-128", false, DMLCONF_VALUE_OK, 0x80u},
    {I8, "128", false, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {U16, "65535", false, DMLCONF_VALUE_OK, 0xffffu},
    /* float specials */
    {F32, "nan", false, DMLCONF_VALUE_OK, 0x7fc00000u},
    {F32, "NaN", false, DMLCONF_VALUE_OK, 0x7fc00000u},
    {F32, ".nan", false, DMLCONF_VALUE_OK, 0x7fc00000u},
    {F32, ".NAN", false, DMLCONF_VALUE_OK, 0x7fc00000u},
    {F32, "-nan", false, DMLCONF_VALUE_OK, 0xffc00000u},
    {F32, "inf", false, DMLCONF_VALUE_OK, 0x7f800000u},
    {F32, "+inf", false, DMLCONF_VALUE_OK, 0x7f800000u},
    {F32, "-inf", false, DMLCONF_VALUE_OK, 0xff800000u},
    {F32, ".inf", false, DMLCONF_VALUE_OK, 0x7f800000u},
    {F32, "-.Inf", false, DMLCONF_VALUE_OK, 0xff800000u},
    {F32, "Infinity", false, DMLCONF_VALUE_OK, 0x7f800000u},
    {F16, "nan", false, DMLCONF_VALUE_OK, 0x7e00u},
    {F16, "-inf", false, DMLCONF_VALUE_OK, 0xfc00u},
    {F32, "infinit", false, DMLCONF_VALUE_SYNTAX, 0},
    {F32, "nanx", false, DMLCONF_VALUE_SYNTAX, 0},
    /* zeros */
    {F32, "0", false, DMLCONF_VALUE_OK, 0},
    {F32, "-0", false, DMLCONF_VALUE_OK, 0x80000000u},
    {F32, "-0.0", false, DMLCONF_VALUE_OK, 0x80000000u},
    {F32, "0e99999999999999999999", false, DMLCONF_VALUE_OK, 0},
    {F32, "-0x0p+0", false, DMLCONF_VALUE_OK, 0x80000000u},
    {F16, "-0.0", false, DMLCONF_VALUE_OK, 0x8000u},
    /* decimals */
    {F32, "2", false, DMLCONF_VALUE_OK, 0x40000000u},
    {F32, "-1.25", false, DMLCONF_VALUE_OK, 0xbfa00000u},
    {F32, ".5", false, DMLCONF_VALUE_OK, 0x3f000000u},
    {F32, "5.", false, DMLCONF_VALUE_OK, 0x40a00000u},
    {F32, "1E+1", false, DMLCONF_VALUE_OK, 0x41200000u},
    {F32, "0.1", false, DMLCONF_VALUE_INEXACT, 0},
    {F32, "0.1", true, DMLCONF_VALUE_OK, 0x3dcccccdu},
    {F16, "0.1", false, DMLCONF_VALUE_INEXACT, 0},
    {F16, "0.1", true, DMLCONF_VALUE_OK, 0x2e66u},
    {F32, "1e-3", true, DMLCONF_VALUE_OK, 0x3a83126fu},
    {F32, "3.4028234663852886e38", true, DMLCONF_VALUE_OK, 0x7f7fffffu},
    {F32, "340282346638528859811704183484516925440", false, DMLCONF_VALUE_OK, 0x7f7fffffu},
    /* float32 overflow threshold: max + half an ulp = 2^128 - 2^103 ties to even (infinity) */
    {F32, "340282356779733661637539395458142568447", true, DMLCONF_VALUE_OK, 0x7f7fffffu},
    {F32, "340282356779733661637539395458142568448", true, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {F32, "1e39", true, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {F32, "-1e39", false, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {F32, "1e99999999999999999999999", true, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {F16, "65504", false, DMLCONF_VALUE_OK, 0x7bffu},
    {F16, "65519.99", true, DMLCONF_VALUE_OK, 0x7bffu},
    {F16, "65520", true, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {F16, "70000", true, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {F16, "-70000", false, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    /* subnormals and underflow */
    {F32,
     "1.40129846432481707092372958328991613128026194187651577175706828388979108268586060148663818836212158203125e-45",
     false, DMLCONF_VALUE_OK, 1u},
    {F32, "1.4e-45", true, DMLCONF_VALUE_OK, 1u},
    {F32, "1.4e-45", false, DMLCONF_VALUE_INEXACT, 0},
    /* exactly half the smallest subnormal: ties to even (zero) */
    {F32,
     "7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015625e-46",
     true, DMLCONF_VALUE_OK, 0u},
    {F32,
     "7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015626e-46",
     true, DMLCONF_VALUE_OK, 1u},
    {F32, "-1e-50", true, DMLCONF_VALUE_OK, 0x80000000u},
    {F32, "1e-50", false, DMLCONF_VALUE_INEXACT, 0},
    {F32, "1e-99999999999999999999", true, DMLCONF_VALUE_OK, 0u},
    {F16, "5.9604644775390625e-8", false, DMLCONF_VALUE_OK, 1u},
    {F16, "2.98023223876953125e-8", true, DMLCONF_VALUE_OK, 0u},
    {F16, "2.980232238769531251e-8", true, DMLCONF_VALUE_OK, 1u},
    {F16, "6.1035156250e-5", false, DMLCONF_VALUE_OK, 0x0400u},
    /* ties to even */
    {F16, "2049", true, DMLCONF_VALUE_OK, 0x6800u},
    {F16, "2051", true, DMLCONF_VALUE_OK, 0x6802u},
    {F16, "2049.0000000000000000000000000000001", true, DMLCONF_VALUE_OK, 0x6801u},
    {F16, "2048.9999999999999999999999999999999", true, DMLCONF_VALUE_OK, 0x6800u},
    {F32, "16777217", true, DMLCONF_VALUE_OK, 0x4b800000u},
    {F32, "16777219", true, DMLCONF_VALUE_OK, 0x4b800002u},
    {F32, "16777217", false, DMLCONF_VALUE_INEXACT, 0},
    {F32, "-16777217", true, DMLCONF_VALUE_OK, 0xcb800000u},
    {F32, "16777217.000000000000000000000000001", true, DMLCONF_VALUE_OK, 0x4b800001u},
    /* 40 significant digits, exactly 0x34006073 */
    {F32, "0.0000001195601697645543026737868785858154296875", false, DMLCONF_VALUE_OK, 0x34006073u},
    {F32, "0.0000001195601697645543026737868785858154296876", false, DMLCONF_VALUE_INEXACT, 0},
    {F32, "0.0000001195601697645543026737868785858154296876", true, DMLCONF_VALUE_OK, 0x34006073u},
    {F32, "1195601697645543026737868785858154296875e-46", false, DMLCONF_VALUE_OK, 0x34006073u},
    {F32, "0.00000011956016976455430267378687858581542968750000000000000", false, DMLCONF_VALUE_OK, 0x34006073u},
    /* hex floats */
    {F32, "0x1.8p-3", false, DMLCONF_VALUE_OK, 0x3e400000u},
    {F32, "0X1.8P-3", false, DMLCONF_VALUE_OK, 0x3e400000u},
    {F32, "-0x1p+0", false, DMLCONF_VALUE_OK, 0xbf800000u},
    {F32, "0x10", false, DMLCONF_VALUE_OK, 0x41800000u},
    {F32, "0x.8", false, DMLCONF_VALUE_OK, 0x3f000000u},
    {F32, "0x1.fffffep+127", false, DMLCONF_VALUE_OK, 0x7f7fffffu},
    {F32, "0x1.ffffffp+127", true, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {F32, "0x1p128", true, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {F32, "0x1p-149", false, DMLCONF_VALUE_OK, 1u},
    {F32, "0x1p-150", false, DMLCONF_VALUE_INEXACT, 0},
    {F32, "0x1p-150", true, DMLCONF_VALUE_OK, 0u},
    {F32, "0x1.8p-149", true, DMLCONF_VALUE_OK, 2u},
    {F32, "0x1.0000008p0", true, DMLCONF_VALUE_OK, 0x3f800000u}, /* a quarter ulp above 1 */
    {F32, "0x1.0000018p0", true, DMLCONF_VALUE_OK, 0x3f800001u}, /* three quarters */
    {F32, "0x1.000001p0", true, DMLCONF_VALUE_OK, 0x3f800000u},  /* a tie: to even (1) */
    {F32, "0x1.000003p0", true, DMLCONF_VALUE_OK, 0x3f800002u},  /* a tie: to even (1 + 2 ulp) */
    {F32, "0x1.00000100000000000000000000001p0", true, DMLCONF_VALUE_OK, 0x3f800001u},
    {F32, "0x1.000001p0", false, DMLCONF_VALUE_INEXACT, 0},
    {F16, "0x1.ffcp15", false, DMLCONF_VALUE_OK, 0x7bffu},
    {F16, "0x1p-24", false, DMLCONF_VALUE_OK, 1u},
    {F32, "0x1.p", false, DMLCONF_VALUE_SYNTAX, 0},
    {F32, "0x1.8e3", false, DMLCONF_VALUE_OK, 0x3fc71800u}, /* 'e' is a hex digit, not an exponent */
    /* bits */
    {F32, "bits:0x7fc00001", false, DMLCONF_VALUE_OK, 0x7fc00001u},
    {F32, "bits:0x1", false, DMLCONF_VALUE_OK, 1u},
    {F32, "bits:0X7F800000", false, DMLCONF_VALUE_OK, 0x7f800000u},
    {F32, "bits:0x000000001", false, DMLCONF_VALUE_BAD_BITS, 0},
    {F16, "bits:0x7c01", false, DMLCONF_VALUE_OK, 0x7c01u},
    {F16, "bits:0x12345", false, DMLCONF_VALUE_BAD_BITS, 0},
    {F16, "bits:0x", false, DMLCONF_VALUE_SYNTAX, 0},
    {F16, "bits:0xg", false, DMLCONF_VALUE_SYNTAX, 0},
    {F16, "bits:12", false, DMLCONF_VALUE_SYNTAX, 0},
    {F16, "BITS:0x12", false, DMLCONF_VALUE_SYNTAX, 0},
    /* syntax */
    {F32, "", false, DMLCONF_VALUE_SYNTAX, 0},
    {F32, "abc", false, DMLCONF_VALUE_SYNTAX, 0},
    {F32, "1.2.3", false, DMLCONF_VALUE_SYNTAX, 0},
    {F32, "1e", false, DMLCONF_VALUE_SYNTAX, 0},
    {F32, "1e+", false, DMLCONF_VALUE_SYNTAX, 0},
    {F32, ".", false, DMLCONF_VALUE_SYNTAX, 0},
    {F32, "-", false, DMLCONF_VALUE_SYNTAX, 0},
    {F32, "+-1", false, DMLCONF_VALUE_SYNTAX, 0},
    {F32, "1 ", false, DMLCONF_VALUE_SYNTAX, 0},
    {F32, "1,5", false, DMLCONF_VALUE_SYNTAX, 0},
    {F32, "0x1p", false, DMLCONF_VALUE_SYNTAX, 0},
    /* types without scalar values */
    {DMLCONF_DATA_TYPE_UINT4, "1", false, DMLCONF_VALUE_UNSUPPORTED_TYPE, 0},
    {DMLCONF_DATA_TYPE_UNKNOWN, "1", false, DMLCONF_VALUE_UNSUPPORTED_TYPE, 0},
    {(dmlconf_data_type)99, "1", false, DMLCONF_VALUE_UNSUPPORTED_TYPE, 0},
    /* float64 */
    {F64, "0.1", true, DMLCONF_VALUE_OK, UINT64_C(0x3fb999999999999a)},
    {F64, "4.9e-324", true, DMLCONF_VALUE_OK, 1u},
    {F64, "2.4703282292062327e-324", true, DMLCONF_VALUE_OK, 0u},
    {F64, "2.4703282292062328e-324", true, DMLCONF_VALUE_OK, 1u},
    {F64, "1.7976931348623157e308", true, DMLCONF_VALUE_OK, UINT64_C(0x7fefffffffffffff)},
    {F64, "1.7976931348623159e308", true, DMLCONF_VALUE_OUT_OF_RANGE, 0},
    {F64, "9007199254740993", true, DMLCONF_VALUE_OK, UINT64_C(0x4340000000000000)},
    {F64, "9007199254740993", false, DMLCONF_VALUE_INEXACT, 0},
};

START_TEST(test_parse_table)
{
    const parse_case *c = &parse_cases[_i];
    unsigned char element[8];
    memset(element, 0xa5, sizeof(element));
    char why[512];
    dmlconf_value_status status = dmlconf_value_parse(c->type, c->text, c->round, element, why, sizeof(why));
    ck_assert_msg(status == c->status, "case %d: parse(%d, \"%s\", %d) = %s (%s), expected %s", _i, (int)c->type,
                  c->text, c->round, dmlconf_value_status_name(status), why, dmlconf_value_status_name(c->status));
    size_t size = dmlconf_value_size(c->type);
    if (status == DMLCONF_VALUE_OK)
    {
        ck_assert_msg(why[0] == '\0', "case %d: why not cleared: %s", _i, why);
        uint64_t bits = load_element(element, size);
        ck_assert_msg(bits == c->bits, "case %d: \"%s\" gave 0x%" PRIx64 ", expected 0x%" PRIx64, _i, c->text, bits,
                      c->bits);
        for (size_t i = size; i < sizeof(element); ++i)
            ck_assert_msg(element[i] == 0xa5, "case %d: wrote past the element", _i);
    }
    else
    {
        ck_assert_msg(why[0] != '\0', "case %d: no message", _i);
        for (size_t i = 0; i < sizeof(element); ++i)
            ck_assert_msg(element[i] == 0xa5, "case %d: element written on failure", _i);
    }
}
END_TEST

/* ---- exact messages ----------------------------------------------------------------- */

typedef struct message_case
{
    dmlconf_data_type type;
    const char *text;
    bool round;
    const char *why;
} message_case;

static const message_case message_cases[] = {
    {U32, "-1", false, "-1 is out of range for uint32: expected an integer from 0 to 4294967295"},
    {U32, "1.5", false,
     "expected an integer from 0 to 4294967295 for uint32 (decimal or 0x hex, no point or exponent), got 1.5"},
    {I32, "x", false, "expected an integer from -2147483648 to 2147483647 for int32 (decimal or 0x hex), got 'x'"},
    {F16, "0.1", false,
     "0.1 is not exactly representable in float16; nearest values are 0.0999755859375 (0x1.998p-4) and "
     "0.10003662109375 (0x1.99cp-4); write one of them"},
    {F16, "-0.1", false,
     "-0.1 is not exactly representable in float16; nearest values are -0.10003662109375 (-0x1.99cp-4) and "
     "-0.0999755859375 (-0x1.998p-4); write one of them"},
    {F32, "0.1", false,
     "0.1 is not exactly representable in float32; nearest values are 0.0999999940395355224609375 (0x1.999998p-4) "
     "and 0.100000001490116119384765625 (0x1.99999ap-4); write one of them"},
    {F32, "1e-50", false,
     "1e-50 is not exactly representable in float32; nearest values are 0 and 0x1p-149; write one of them"},
    {F16, "65519", false,
     "65519 is not exactly representable in float16; the nearest finite value is 65504 (0x1.ffcp+15); write it"},
    {F16, "70000", true, "70000 is out of range for float16 (largest finite value 65504 (0x1.ffcp+15))"},
    {F32, "1e39", false, "1e39 is out of range for float32 (largest finite value 0x1.fffffep+127)"},
    {F16, "bits:0x12345", false, "bits:0x12345 has too many hex digits for float16 (at most 4)"},
    {F32, "abc", false,
     "expected a float32 value (decimal such as -1.25 or 1e-3, hex float such as 0x1.8p-3, nan, inf, -inf or "
     "bits:0x...), got 'abc'"},
    {F32, "1234567890123456789012345678901234567890123456789x", false,
     "expected a float32 value (decimal such as -1.25 or 1e-3, hex float such as 0x1.8p-3, nan, inf, -inf or "
     "bits:0x...), got '1234567890123456789012345678901234567...'"},
    {DMLCONF_DATA_TYPE_INT4, "1", false, "values of type INT4 are not supported"},
};

START_TEST(test_messages)
{
    const message_case *c = &message_cases[_i];
    unsigned char element[8];
    char why[512];
    dmlconf_value_parse(c->type, c->text, c->round, element, why, sizeof(why));
    ck_assert_str_eq(why, c->why);
}
END_TEST

START_TEST(test_message_buffers)
{
    unsigned char element[8];
    char small[8];
    memset(small, 'x', sizeof(small));
    ck_assert_int_eq(dmlconf_value_parse(U32, "-1", false, element, small, sizeof(small)), DMLCONF_VALUE_OUT_OF_RANGE);
    ck_assert_str_eq(small, "-1 i..."); /* cut visibly */
    /* No message buffer at all. */
    ck_assert_int_eq(dmlconf_value_parse(U32, "-1", false, element, NULL, 0), DMLCONF_VALUE_OUT_OF_RANGE);
    ck_assert_int_eq(dmlconf_value_parse(F32, NULL, false, element, NULL, 0), DMLCONF_VALUE_SYNTAX);
}
END_TEST

/* ---- formatting ------------------------------------------------------------------- */

typedef struct format_case
{
    dmlconf_data_type type;
    uint64_t bits;
    dmlconf_value_style style;
    const char *text;
} format_case;

#define S DMLCONF_VALUE_STYLE_SHORTEST
#define X DMLCONF_VALUE_STYLE_EXACT
#define B DMLCONF_VALUE_STYLE_BITS
#define D DMLCONF_VALUE_STYLE_DECIMAL
#define R DMLCONF_VALUE_STYLE_READABLE

static const format_case format_cases[] = {
    {F32, 0x40000000u, S, "2"},
    {F32, 0xc0400000u, S, "-3"},
    {F32, 0x00000000u, S, "0"},
    {F32, 0x80000000u, S, "-0.0"},
    {F32, 0x3dcccccdu, S, "0.1"},
    {F32, 0x3f000000u, S, "0.5"},
    {F32, 0x3e400000u, S, "0.1875"},
    {F32, 0x4b800000u, S, "16777216"},
    {F32, 0x7f7fffffu, S, "3.4028235e38"},
    {F32, 0x00000001u, S, "1e-45"},
    {F32, 0x00800000u, S, "1.1754944e-38"},
    {F32, 0x33d6bf95u, S, "1e-7"},
    {F32, 0x358637bdu, S, "0.000001"},
    {F32, 0x6258d727u, S, "1e21"},
    {F32, 0x60ad78ecu, S, "100000000000000000000"},
    {F32, 0x7fc00000u, S, "nan"},
    {F32, 0xffc00000u, S, "bits:0xffc00000"},
    {F32, 0x7fc00001u, S, "bits:0x7fc00001"},
    {F32, 0x7f800001u, S, "bits:0x7f800001"},
    {F32, 0x7f800000u, S, "inf"},
    {F32, 0xff800000u, S, "-inf"},
    {F32, 0x3e400000u, X, "0x1.8p-3"},
    {F32, 0xbf800000u, X, "-0x1p+0"},
    {F32, 0x00000000u, X, "0x0p+0"},
    {F32, 0x80000000u, X, "-0x0p+0"},
    {F32, 0x00000001u, X, "0x1p-149"},
    {F32, 0x00000003u, X, "0x1.8p-148"},
    {F32, 0x7f7fffffu, X, "0x1.fffffep+127"},
    {F32, 0x7fc00000u, X, "bits:0x7fc00000"},
    {F32, 0x7f800000u, X, "inf"},
    {F32, 0x3f800000u, B, "bits:0x3f800000"},
    {F32, 0x00000001u, B, "bits:0x00000001"},
    {F32, 0x3dcccccdu, D, "0.100000001490116119384765625"},
    {F32, 0x00000001u, D,
     "1.40129846432481707092372958328991613128026194187651577175706828388979108268586060148663818836212158203125e-45"},
    {F32, 0x7f7fffffu, D, "3.4028234663852885981170418348451692544e38"},
    {F32, 0x4b800000u, D, "16777216"},
    {F32, 0x3dcccccdu, R, "0x1.99999ap-4"},
    {F32, 0x3e400000u, R, "0.1875"},
    {F32, 0x80000000u, R, "-0.0"},
    {F16, 0x3c00u, S, "1"},
    {F16, 0x2e66u, S, "0.1"},
    {F16, 0x7bffu, S, "65500"},
    {F16, 0x7bffu, R, "65504"},
    {F16, 0x7bffu, D, "65504"},
    {F16, 0x7bffu, X, "0x1.ffcp+15"},
    {F16, 0x0001u, S, "6e-8"},
    {F16, 0x0001u, X, "0x1p-24"},
    {F16, 0x0001u, D, "5.9604644775390625e-8"},
    {F16, 0x0001u, R, "5.9604644775390625e-8"},
    {F16, 0x7e00u, S, "nan"},
    {F16, 0x7e01u, S, "bits:0x7e01"},
    {F16, 0x7d00u, S, "bits:0x7d00"},
    {F16, 0x3c00u, B, "bits:0x3c00"},
    {F16, 0x8000u, S, "-0.0"},
    {I32, 0x80000000u, S, "-2147483648"},
    {I32, 0xffffffffu, X, "-1"},
    {I32, 0xffffffffu, B, "bits:0xffffffff"},
    {U32, 0xffffffffu, S, "4294967295"},
    {I64, UINT64_C(0x8000000000000000), S, "-9223372036854775808"},
    {I64, UINT64_C(0x7fffffffffffffff), D, "9223372036854775807"},
    {U64, UINT64_MAX, S, "18446744073709551615"},
    {U64, 1u, B, "bits:0x0000000000000001"},
    {I8, 0x80u, S, "-128"},
    {F64, UINT64_C(0x3fb999999999999a), S, "0.1"},
    {F64, 1u, S, "5e-324"},
    {F64, UINT64_C(0x7fefffffffffffff), S, "1.7976931348623157e308"},
    {F64, UINT64_C(0x7ff8000000000000), S, "nan"},
    {F64, UINT64_C(0x3ff8000000000000), X, "0x1.8p+0"},
};

START_TEST(test_format_table)
{
    const format_case *c = &format_cases[_i];
    unsigned char element[8];
    store_element(element, c->bits, dmlconf_value_size(c->type));
    char text[DMLCONF_VALUE_TEXT_MAX];
    size_t length = dmlconf_value_format(c->type, element, c->style, text, sizeof(text));
    ck_assert_str_eq(text, c->text);
    ck_assert_uint_eq(length, strlen(c->text));
    /* It parses back, without rounding except for SHORTEST. */
    unsigned char back[8] = {0};
    char why[512];
    bool round = c->style == DMLCONF_VALUE_STYLE_SHORTEST;
    ck_assert_msg(dmlconf_value_parse(c->type, text, round, back, why, sizeof(why)) == DMLCONF_VALUE_OK, "%s: %s", text,
                  why);
    ck_assert_uint_eq(load_element(back, dmlconf_value_size(c->type)), c->bits);
}
END_TEST

START_TEST(test_format_snprintf_contract)
{
    unsigned char element[4];
    store_element(element, 0x3dcccccdu, 4);
    char text[8];
    memset(text, 'x', sizeof(text));
    /* "0.100000001490116119384765625" is 29 characters. */
    ck_assert_uint_eq(dmlconf_value_format(F32, element, DMLCONF_VALUE_STYLE_DECIMAL, text, sizeof(text)), 29u);
    ck_assert_str_eq(text, "0.10000");
    ck_assert_uint_eq(dmlconf_value_format(F32, element, DMLCONF_VALUE_STYLE_DECIMAL, NULL, 0), 29u);
    ck_assert_uint_eq(dmlconf_value_format(F32, element, DMLCONF_VALUE_STYLE_SHORTEST, text, 1), 3u);
    ck_assert_str_eq(text, "");
    /* Unsupported type or style: "". */
    ck_assert_uint_eq(
        dmlconf_value_format(DMLCONF_DATA_TYPE_UINT4, element, DMLCONF_VALUE_STYLE_SHORTEST, text, sizeof(text)), 0u);
    ck_assert_str_eq(text, "");
    ck_assert_uint_eq(dmlconf_value_format(F32, element, (dmlconf_value_style)42, text, sizeof(text)), 0u);
    ck_assert_str_eq(text, "");
}
END_TEST

/* ---- round trips --------------------------------------------------------------------- */

/* parse(format(bits, style)) == bits for every style (without rounding too,
 * except SHORTEST); returns the SHORTEST text's length. */
static size_t check_round_trip(dmlconf_data_type type, uint64_t bits, char *shortest, size_t shortest_size)
{
    size_t size = dmlconf_value_size(type);
    unsigned char element[8];
    store_element(element, bits, size);
    size_t shortest_length = 0;
    for (size_t s = 0; s < STYLE_COUNT; ++s)
    {
        char text[DMLCONF_VALUE_TEXT_MAX];
        size_t length = dmlconf_value_format(type, element, all_styles[s], text, sizeof(text));
        CHECK(length > 0 && length < sizeof(text), "bits 0x%" PRIx64 " style %zu: length %zu", bits, s, length);
        if (all_styles[s] != DMLCONF_VALUE_STYLE_DECIMAL)
            CHECK(length < DMLCONF_VALUE_TEXT_SIZE, "0x%" PRIx64 " style %zu too long: %s", bits, s, text);
        for (int round = 1; round >= 0; --round)
        {
            if (!round && all_styles[s] == DMLCONF_VALUE_STYLE_SHORTEST)
                continue;
            unsigned char back[8] = {0};
            char why[512];
            dmlconf_value_status status = dmlconf_value_parse(type, text, round != 0, back, why, sizeof(why));
            CHECK(status == DMLCONF_VALUE_OK, "0x%" PRIx64 " style %zu text %s round %d: %s", bits, s, text, round,
                  why);
            CHECK(load_element(back, size) == bits, "0x%" PRIx64 " style %zu text %s came back as 0x%" PRIx64, bits, s,
                  text, load_element(back, size));
        }
        if (all_styles[s] == DMLCONF_VALUE_STYLE_SHORTEST)
        {
            shortest_length = length;
            size_t copy = length < shortest_size ? length : shortest_size - 1u;
            memcpy(shortest, text, copy);
            shortest[copy] = '\0';
        }
    }
    return shortest_length;
}

/* Significant digits of a decimal text (0 for specials). */
static size_t significant_digits(const char *text)
{
    size_t count = 0;
    bool started = false;
    size_t trailing_zeros = 0;
    for (const char *p = text; *p && *p != 'e'; ++p)
    {
        if (*p < '0' || *p > '9')
        {
            if (*p != '.' && *p != '-')
                return 0;
            continue;
        }
        if (*p != '0')
            started = true;
        if (started)
        {
            ++count;
            trailing_zeros = *p == '0' ? trailing_zeros + 1u : 0u;
        }
    }
    return count - trailing_zeros;
}

START_TEST(test_float16_exhaustive)
{
    size_t shorter_than_nearest = 0;
    for (uint32_t bits = 0; bits <= 0xffffu; ++bits)
    {
        char shortest[DMLCONF_VALUE_TEXT_SIZE];
        check_round_trip(F16, bits, shortest, sizeof(shortest));
        uint16_t half = (uint16_t)bits;
        float value = dmlconf_half_to_float(half);
        if ((bits & 0x7c00u) == 0x7c00u || (bits & 0x7fffu) == 0)
            continue;
        /* Independent bound: the fewest digits P for which the nearest
         * P-digit decimal (printf) reads back (strtod, then the oracle's
         * double-to-half rounding; exact for these short decimals) to the
         * same half. The shortest decimal can only be shorter or equal. */
        size_t nearest = 0;
        for (int p = 1; p <= 17 && !nearest; ++p)
        {
            char text[64];
            snprintf(text, sizeof(text), "%.*e", p - 1, (double)value);
            if (dmlconf_half_from_double(strtod(text, NULL)) == half)
                nearest = (size_t)p;
        }
        size_t digits = significant_digits(shortest);
        CHECK(digits >= 1 && digits <= nearest, "0x%04" PRIx32 ": %s has %zu digits, printf needs %zu", bits, shortest,
              digits, nearest);
        if (digits < nearest)
            ++shorter_than_nearest;
    }
    /* Only values at the bottom of a binade, whose interval is lopsided, can
     * beat the nearest-decimal search: at most one per binade and sign. */
    ck_assert_uint_le(shorter_than_nearest, 2u * 31u);
}
END_TEST

static void float32_round_trip_and_shortness(uint32_t bits)
{
    char shortest[DMLCONF_VALUE_TEXT_SIZE];
    check_round_trip(F32, bits, shortest, sizeof(shortest));
    if ((bits & 0x7f800000u) == 0x7f800000u || (bits & 0x7fffffffu) == 0)
        return;
    float value = f32_from_bits(bits);
    size_t nearest = 0;
    for (int p = 1; p <= 9 && !nearest; ++p)
    {
        char text[64];
        snprintf(text, sizeof(text), "%.*e", p - 1, (double)value);
        if (f32_bits(strtof(text, NULL)) == bits)
            nearest = (size_t)p;
    }
    size_t digits = significant_digits(shortest);
    CHECK(digits >= 1 && digits <= nearest, "0x%08" PRIx32 ": %s has %zu digits, printf needs %zu", bits, shortest,
          digits, nearest);
}

START_TEST(test_float32_round_trip_edges)
{
    /* Every exponent field with edge significands, both signs. */
    static const uint32_t fractions[] = {0u, 1u, 2u, 3u, 0x400000u, 0x3fffffu, 0x7ffffeu, 0x7fffffu, 0x2aaaaau};
    for (uint32_t sign = 0; sign < 2u; ++sign)
        for (uint32_t exponent = 0; exponent < 256u; ++exponent)
            for (size_t f = 0; f < sizeof(fractions) / sizeof(fractions[0]); ++f)
                float32_round_trip_and_shortness((sign << 31) | (exponent << 23) | fractions[f]);
}
END_TEST

START_TEST(test_float32_round_trip_random)
{
    /* 2 million random patterns (in 8 loop iterations of 250000). */
    uint64_t state = UINT64_C(0x5eed0000) + (uint64_t)_i;
    for (int i = 0; i < 250000; ++i)
        float32_round_trip_and_shortness((uint32_t)next_random(&state));
}
END_TEST

START_TEST(test_integer_round_trip)
{
    static const dmlconf_data_type types[] = {I32, U32, I64, U64, I8, U16};
    uint64_t state = 99;
    for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); ++t)
    {
        size_t size = dmlconf_value_size(types[t]);
        uint64_t mask = size == 8u ? UINT64_MAX : (UINT64_C(1) << (8u * size)) - 1u;
        uint64_t edges[] = {0u, 1u, mask, mask >> 1, (mask >> 1) + 1u, mask - 1u};
        char text[8];
        for (size_t e = 0; e < sizeof(edges) / sizeof(edges[0]); ++e)
            check_round_trip(types[t], edges[e] & mask, text, sizeof(text));
        for (int i = 0; i < 20000; ++i)
            check_round_trip(types[t], next_random(&state) & mask, text, sizeof(text));
    }
}
END_TEST

/* ---- decimal parsing against strtof / strtod ---------------------------------------------- */

/* A decimal's value as (significant digits, power of ten of the first). */
static void normalize_decimal(const char *p, char *digits, size_t size, long *exponent10)
{
    size_t count = 0;
    long integer_digits = 0;
    long first = -1;
    long index = 0;
    bool point = false;
    if (*p == '-' || *p == '+')
        ++p;
    for (; *p && *p != 'e' && *p != 'E'; ++p)
    {
        if (*p == '.')
        {
            point = true;
            continue;
        }
        if (!point)
            ++integer_digits;
        if (first < 0 && *p != '0')
            first = index;
        if (first >= 0 && count + 1u < size)
            digits[count++] = *p;
        ++index;
    }
    while (count && digits[count - 1u] == '0')
        --count;
    digits[count] = '\0';
    *exponent10 = first < 0 ? 0 : integer_digits - 1 - first + (*p ? strtol(p + 1, NULL, 10) : 0);
}

/* True when two decimal texts have the same value (signs ignored). */
static bool same_decimal(const char *a, const char *b)
{
    char digits_a[256];
    char digits_b[256];
    long exponent_a;
    long exponent_b;
    normalize_decimal(a, digits_a, sizeof(digits_a), &exponent_a);
    normalize_decimal(b, digits_b, sizeof(digits_b), &exponent_b);
    return strcmp(digits_a, digits_b) == 0 && (digits_a[0] == '\0' || exponent_a == exponent_b);
}

/* A random decimal: 1 to max_digits digits, a point somewhere, an exponent. */
static void random_decimal(uint64_t *state, int max_digits, int exponent_span, char *text, size_t size)
{
    int digits = 1 + (int)(next_random(state) % (uint64_t)max_digits);
    int point = (int)(next_random(state) % (uint64_t)(digits + 1));
    int exponent = (int)(next_random(state) % (uint64_t)(2 * exponent_span + 1)) - exponent_span;
    size_t n = 0;
    if (next_random(state) & 1u)
        text[n++] = '-';
    for (int i = 0; i < digits && n + 16u < size; ++i)
    {
        if (i == point)
            text[n++] = '.';
        /* Long runs of 0 and 9 make values near ties and binade edges. */
        uint64_t r = next_random(state) % 16u;
        text[n++] = r < 5u ? '0' : r < 10u ? '9' : (char)('0' + (char)(r % 10u));
    }
    snprintf(text + n, size - n, "e%d", exponent);
}

START_TEST(test_decimal_vs_strtof)
{
    uint64_t state = 1234;
    for (int i = 0; i < 200000; ++i)
    {
        char text[128];
        random_decimal(&state, i % 2 ? 12 : 60, 50, text, sizeof(text));
        unsigned char element[4];
        char why[512];
        float expected = strtof(text, NULL);
        uint32_t expected_bits = f32_bits(expected);
        dmlconf_value_status status = dmlconf_value_parse(F32, text, true, element, why, sizeof(why));
        if ((expected_bits & 0x7fffffffu) == 0x7f800000u)
        {
            CHECK(status == DMLCONF_VALUE_OUT_OF_RANGE, "%s: %s", text, why);
            continue;
        }
        CHECK(status == DMLCONF_VALUE_OK, "%s: %s", text, why);
        CHECK(load_element(element, 4) == expected_bits, "%s: 0x%08" PRIx64 ", strtof 0x%08" PRIx32, text,
              load_element(element, 4), expected_bits);
        /* Exact iff the float's exact expansion (glibc prints every digit)
         * is the same number as the text. */
        char exact[256];
        snprintf(exact, sizeof(exact), "%.120e", (double)expected);
        dmlconf_value_status strict = dmlconf_value_parse(F32, text, false, element, why, sizeof(why));
        CHECK((strict == DMLCONF_VALUE_OK) == same_decimal(text, exact), "%s: strict %s, exact expansion %s", text,
              dmlconf_value_status_name(strict), exact);
        CHECK(strict == DMLCONF_VALUE_OK || strict == DMLCONF_VALUE_INEXACT, "%s: %s", text,
              dmlconf_value_status_name(strict));
    }
}
END_TEST

START_TEST(test_decimal_vs_strtod_float16)
{
    /* Short decimals: strtod then the oracle's double-to-half rounding is
     * the correctly rounded half (no double rounding: a decimal of at most
     * 12 digits is either a half midpoint exactly or far from one). */
    uint64_t state = 777;
    for (int i = 0; i < 200000; ++i)
    {
        char text[128];
        random_decimal(&state, 12, 9, text, sizeof(text));
        double value = strtod(text, NULL);
        uint16_t expected = dmlconf_half_from_double(value);
        unsigned char element[2];
        char why[512];
        dmlconf_value_status status = dmlconf_value_parse(F16, text, true, element, why, sizeof(why));
        if ((expected & 0x7fffu) == 0x7c00u)
        {
            CHECK(status == DMLCONF_VALUE_OUT_OF_RANGE, "%s: %s", text, why);
            continue;
        }
        CHECK(status == DMLCONF_VALUE_OK, "%s: %s", text, why);
        CHECK(load_element(element, 2) == expected, "%s: 0x%04" PRIx64 ", expected 0x%04x", text,
              load_element(element, 2), expected);
        char exact[128];
        snprintf(exact, sizeof(exact), "%.40e", (double)dmlconf_half_to_float(expected));
        dmlconf_value_status strict = dmlconf_value_parse(F16, text, false, element, NULL, 0);
        CHECK((strict == DMLCONF_VALUE_OK) == same_decimal(text, exact), "%s: strict %s, exact expansion %s", text,
              dmlconf_value_status_name(strict), exact);
    }
}
END_TEST

START_TEST(test_double_vs_strtod)
{
    uint64_t state = 4242;
    for (int i = 0; i < 100000; ++i)
    {
        char text[160];
        random_decimal(&state, i % 2 ? 17 : 80, 330, text, sizeof(text));
        double expected = strtod(text, NULL);
        uint64_t expected_bits;
        memcpy(&expected_bits, &expected, sizeof(expected_bits));
        unsigned char element[8];
        char why[512];
        dmlconf_value_status status = dmlconf_value_parse(F64, text, true, element, why, sizeof(why));
        if ((expected_bits & UINT64_C(0x7fffffffffffffff)) == UINT64_C(0x7ff0000000000000))
        {
            CHECK(status == DMLCONF_VALUE_OUT_OF_RANGE, "%s: %s", text, why);
            continue;
        }
        CHECK(status == DMLCONF_VALUE_OK, "%s: %s", text, why);
        CHECK(load_element(element, 8) == expected_bits, "%s: 0x%016" PRIx64 ", strtod 0x%016" PRIx64, text,
              load_element(element, 8), expected_bits);
    }
}
END_TEST

/* ---- long strings ---------------------------------------------------------------------- */

static char *repeated(const char *prefix, char fill, size_t count, const char *suffix)
{
    size_t a = strlen(prefix);
    size_t c = strlen(suffix);
    char *text = malloc(a + count + c + 1u);
    ck_assert_ptr_nonnull(text);
    memcpy(text, prefix, a);
    memset(text + a, fill, count);
    memcpy(text + a + count, suffix, c + 1u);
    return text;
}

START_TEST(test_long_strings)
{
    unsigned char element[8];
    char why[512];
    /* 0.1 followed by a million zeros and a 1: above 0.1, rounds like 0.1
     * (0x3dcccccd is above 0.1 already). */
    char *text = repeated("0.1", '0', 1000000, "1");
    ck_assert_int_eq(dmlconf_value_parse(F32, text, false, element, why, sizeof(why)), DMLCONF_VALUE_INEXACT);
    ck_assert_int_eq(dmlconf_value_parse(F32, text, true, element, why, sizeof(why)), DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 4), 0x3dcccccdu);
    ck_assert(strstr(why, "...") == NULL); /* cleared on success */
    free(text);
    /* 2.5 * 2^-149 exactly is a tie between 2 and 3 units: to 2 (even); a
     * digit a million places down breaks the tie upwards. */
    static const char tie[] = "3.50324616081204267730932395822479032820065485469128942939267070972447770671465150371"
                              "6595470905303955078125";
    text = repeated(tie, '0', 1000000, "e-45");
    ck_assert_int_eq(dmlconf_value_parse(F32, text, true, element, why, sizeof(why)), DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 4), 2u);
    free(text);
    text = repeated(tie, '0', 1000000, "1e-45");
    ck_assert_int_eq(dmlconf_value_parse(F32, text, true, element, why, sizeof(why)), DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 4), 3u);
    ck_assert_int_eq(dmlconf_value_parse(F32, text, false, element, why, sizeof(why)), DMLCONF_VALUE_INEXACT);
    free(text);
    /* A one followed by a million zeros: out of range, and far too large. */
    text = repeated("1", '0', 1000000, "");
    ck_assert_int_eq(dmlconf_value_parse(F32, text, true, element, why, sizeof(why)), DMLCONF_VALUE_OUT_OF_RANGE);
    ck_assert_int_eq(dmlconf_value_parse(U64, text, true, element, why, sizeof(why)), DMLCONF_VALUE_OUT_OF_RANGE);
    ck_assert(strstr(why, "1000000000000000000000000000000000000...") != NULL);
    free(text);
    /* A million leading zeros before an exact value. */
    text = repeated("0.", '0', 1000000, "1e1000001");
    ck_assert_int_eq(dmlconf_value_parse(F32, text, false, element, why, sizeof(why)), DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 4), 0x3f800000u);
    free(text);
    text = repeated("", '0', 1000000, "7");
    ck_assert_int_eq(dmlconf_value_parse(I32, text, false, element, why, sizeof(why)), DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 4), 7u);
    free(text);
    /* A long hex float: 1 + 2^-4000000 rounds to 1. */
    text = repeated("0x1.", '0', 1000000, "1p0");
    ck_assert_int_eq(dmlconf_value_parse(F16, text, false, element, why, sizeof(why)), DMLCONF_VALUE_INEXACT);
    ck_assert_int_eq(dmlconf_value_parse(F16, text, true, element, why, sizeof(why)), DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 2), 0x3c00u);
    free(text);
    /* Garbage at the end of a long string. */
    text = repeated("1", '5', 1000000, "z");
    ck_assert_int_eq(dmlconf_value_parse(F32, text, true, element, why, sizeof(why)), DMLCONF_VALUE_SYNTAX);
    free(text);
    /* Huge exponents are clamped without overflow. */
    ck_assert_int_eq(dmlconf_value_parse(F32, "1e-9999999999999999999999999999999999", true, element, NULL, 0),
                     DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 4), 0u);
    ck_assert_int_eq(dmlconf_value_parse(F32, "0x1p99999999999999999999999", true, element, NULL, 0),
                     DMLCONF_VALUE_OUT_OF_RANGE);
    ck_assert_int_eq(
        dmlconf_value_parse(F32, "0.00000000000000000000000000000000000000000000000000001e53", false, element, NULL, 0),
        DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 4), 0x3f800000u);
}
END_TEST

/* ---- plain integers and dyadics -------------------------------------------------------------- */

START_TEST(test_plain_integers)
{
    uint64_t u = 5;
    int64_t s = 5;
    char why[256];
    ck_assert_int_eq(dmlconf_value_parse_u64("18446744073709551615", 0, UINT64_MAX, &u, why, sizeof(why)),
                     DMLCONF_VALUE_OK);
    ck_assert_uint_eq(u, UINT64_MAX);
    ck_assert_int_eq(dmlconf_value_parse_u64("0x10", 0, UINT64_MAX, &u, why, sizeof(why)), DMLCONF_VALUE_OK);
    ck_assert_uint_eq(u, 16u);
    ck_assert_int_eq(dmlconf_value_parse_u64("9", 1, 8, &u, why, sizeof(why)), DMLCONF_VALUE_OUT_OF_RANGE);
    ck_assert_str_eq(why, "9 is out of range: expected an integer from 1 to 8");
    ck_assert_uint_eq(u, 16u);
    ck_assert_int_eq(dmlconf_value_parse_u64("-1", 0, 8, &u, why, sizeof(why)), DMLCONF_VALUE_OUT_OF_RANGE);
    ck_assert_int_eq(dmlconf_value_parse_u64("1.5", 0, 8, &u, why, sizeof(why)), DMLCONF_VALUE_NOT_INTEGER);
    ck_assert_str_eq(why, "expected an integer from 0 to 8 (decimal or 0x hex, no point or exponent), got 1.5");
    ck_assert_int_eq(dmlconf_value_parse_u64("bits:0x1", 0, 8, &u, why, sizeof(why)), DMLCONF_VALUE_SYNTAX);
    ck_assert_int_eq(dmlconf_value_parse_u64(NULL, 0, 8, &u, why, sizeof(why)), DMLCONF_VALUE_SYNTAX);
    ck_assert_int_eq(dmlconf_value_parse_i64("-9223372036854775808", INT64_MIN, INT64_MAX, &s, why, sizeof(why)),
                     DMLCONF_VALUE_OK);
    ck_assert(s == INT64_MIN);
    ck_assert_int_eq(dmlconf_value_parse_i64("9223372036854775807", INT64_MIN, INT64_MAX, &s, why, sizeof(why)),
                     DMLCONF_VALUE_OK);
    ck_assert(s == INT64_MAX);
    ck_assert_int_eq(dmlconf_value_parse_i64("-7", -10, -5, &s, why, sizeof(why)), DMLCONF_VALUE_OK);
    ck_assert(s == -7);
    ck_assert_int_eq(dmlconf_value_parse_i64("-4", -10, -5, &s, why, sizeof(why)), DMLCONF_VALUE_OUT_OF_RANGE);
    ck_assert_str_eq(why, "-4 is out of range: expected an integer from -10 to -5");
    ck_assert_int_eq(dmlconf_value_parse_i64("-11", -10, -5, &s, why, sizeof(why)), DMLCONF_VALUE_OUT_OF_RANGE);
    ck_assert_int_eq(dmlconf_value_parse_i64("3", -10, -5, &s, why, sizeof(why)), DMLCONF_VALUE_OUT_OF_RANGE);
    ck_assert_int_eq(dmlconf_value_parse_i64("-0", 0, 5, &s, why, sizeof(why)), DMLCONF_VALUE_OK);
    ck_assert(s == 0);
}
END_TEST

START_TEST(test_from_dyadic)
{
    unsigned char element[8];
    char why[256];
    uint32_t three = 3;
    /* 3 * 2^-1 = 1.5 */
    ck_assert_int_eq(dmlconf_value_from_dyadic(F32, false, &three, 1, -1, false, element, why, sizeof(why)),
                     DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 4), 0x3fc00000u);
    /* -3 * 2^-151: 1.5 units of 2^-150 ... = 0.75 * 2^-149: rounds to 2^-149 */
    ck_assert_int_eq(dmlconf_value_from_dyadic(F32, true, &three, 1, -151, true, element, why, sizeof(why)),
                     DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 4), 0x80000001u);
    ck_assert_int_eq(dmlconf_value_from_dyadic(F32, true, &three, 1, -151, false, element, why, sizeof(why)),
                     DMLCONF_VALUE_INEXACT);
    /* 2^24 + 1 in float32: tie to even */
    uint32_t limbs[3] = {0x01000001u, 0, 0};
    ck_assert_int_eq(dmlconf_value_from_dyadic(F32, false, limbs, 3, 0, true, element, why, sizeof(why)),
                     DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 4), 0x4b800000u);
    /* 2^128 is out of range; so is 2^(2^62) */
    uint32_t one = 1;
    ck_assert_int_eq(dmlconf_value_from_dyadic(F32, false, &one, 1, 128, true, element, why, sizeof(why)),
                     DMLCONF_VALUE_OUT_OF_RANGE);
    ck_assert_int_eq(dmlconf_value_from_dyadic(F32, false, &one, 1, INT64_MAX, true, element, why, sizeof(why)),
                     DMLCONF_VALUE_OUT_OF_RANGE);
    ck_assert_int_eq(dmlconf_value_from_dyadic(F32, false, &one, 1, INT64_MIN, true, element, why, sizeof(why)),
                     DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 4), 0u);
    /* Zero keeps its sign; no limbs at all is zero. */
    ck_assert_int_eq(dmlconf_value_from_dyadic(F16, true, NULL, 0, 0, false, element, why, sizeof(why)),
                     DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 2), 0x8000u);
    /* Integers: 5 * 2^-1 = 2.5 rounds to 2 (even), 7 * 2^-1 = 3.5 to 4. */
    uint32_t five = 5;
    uint32_t seven = 7;
    ck_assert_int_eq(dmlconf_value_from_dyadic(I32, true, &five, 1, -1, true, element, why, sizeof(why)),
                     DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 4), (uint32_t)-2);
    ck_assert_int_eq(dmlconf_value_from_dyadic(I32, false, &seven, 1, -1, true, element, why, sizeof(why)),
                     DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 4), 4u);
    ck_assert_int_eq(dmlconf_value_from_dyadic(I32, false, &seven, 1, -1, false, element, why, sizeof(why)),
                     DMLCONF_VALUE_NOT_INTEGER);
    ck_assert_int_eq(dmlconf_value_from_dyadic(U32, true, &seven, 1, 0, false, element, why, sizeof(why)),
                     DMLCONF_VALUE_OUT_OF_RANGE);
    ck_assert_str_eq(why, "the value is out of range for uint32: expected an integer from 0 to 4294967295");
    /* 2^63 fits uint64, not int64; -2^63 fits int64. */
    ck_assert_int_eq(dmlconf_value_from_dyadic(U64, false, &one, 1, 63, false, element, why, sizeof(why)),
                     DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 8), UINT64_C(0x8000000000000000));
    ck_assert_int_eq(dmlconf_value_from_dyadic(I64, false, &one, 1, 63, false, element, why, sizeof(why)),
                     DMLCONF_VALUE_OUT_OF_RANGE);
    ck_assert_int_eq(dmlconf_value_from_dyadic(I64, true, &one, 1, 63, false, element, why, sizeof(why)),
                     DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 8), UINT64_C(0x8000000000000000));
    ck_assert_int_eq(dmlconf_value_from_dyadic(U64, false, &one, 1, 64, false, element, why, sizeof(why)),
                     DMLCONF_VALUE_OUT_OF_RANGE);
    /* (2^65 - 1) / 2 = 2^64 - 0.5 ties to even: 2^64, out of range;
     * (2^65 - 3) / 2 = 2^64 - 1.5 ties to 2^64 - 2. */
    uint32_t limbs_high[3] = {0xffffffffu, 0xffffffffu, 1u};
    ck_assert_int_eq(dmlconf_value_from_dyadic(U64, false, limbs_high, 3, -1, true, element, why, sizeof(why)),
                     DMLCONF_VALUE_OUT_OF_RANGE);
    limbs_high[0] = 0xfffffffdu;
    ck_assert_int_eq(dmlconf_value_from_dyadic(U64, false, limbs_high, 3, -1, true, element, why, sizeof(why)),
                     DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 8), UINT64_MAX - 1u);
    /* Many limbs with the value in the high ones: 2^(32 * 99) * 2^-3168 = 1. */
    uint32_t many[100];
    memset(many, 0, sizeof(many));
    many[99] = 1;
    ck_assert_int_eq(dmlconf_value_from_dyadic(F32, false, many, 100, -3168, false, element, why, sizeof(why)),
                     DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 4), 0x3f800000u);
    many[0] = 1; /* plus 2^-3168: inexact */
    ck_assert_int_eq(dmlconf_value_from_dyadic(F32, false, many, 100, -3168, false, element, why, sizeof(why)),
                     DMLCONF_VALUE_INEXACT);
    ck_assert_int_eq(dmlconf_value_from_dyadic(I32, false, many, 100, -3168, false, element, why, sizeof(why)),
                     DMLCONF_VALUE_NOT_INTEGER);
    ck_assert_int_eq(dmlconf_value_from_dyadic(I32, false, many, 100, -3168, true, element, why, sizeof(why)),
                     DMLCONF_VALUE_OK);
    ck_assert_uint_eq(load_element(element, 4), 1u);
}
END_TEST

static Suite *values_suite(void)
{
    Suite *suite = suite_create("values");
    TCase *tc = tcase_create("parse");
    tcase_add_loop_test(tc, test_parse_table, 0, (int)(sizeof(parse_cases) / sizeof(parse_cases[0])));
    tcase_add_loop_test(tc, test_messages, 0, (int)(sizeof(message_cases) / sizeof(message_cases[0])));
    tcase_add_test(tc, test_message_buffers);
    tcase_add_test(tc, test_plain_integers);
    tcase_add_test(tc, test_from_dyadic);
    suite_add_tcase(suite, tc);

    tc = tcase_create("format");
    tcase_add_loop_test(tc, test_format_table, 0, (int)(sizeof(format_cases) / sizeof(format_cases[0])));
    tcase_add_test(tc, test_format_snprintf_contract);
    suite_add_tcase(suite, tc);

    tc = tcase_create("round_trip");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_float16_exhaustive);
    tcase_add_test(tc, test_float32_round_trip_edges);
    tcase_add_loop_test(tc, test_float32_round_trip_random, 0, 8);
    tcase_add_test(tc, test_integer_round_trip);
    suite_add_tcase(suite, tc);

    tc = tcase_create("cross_check");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_decimal_vs_strtof);
    tcase_add_test(tc, test_decimal_vs_strtod_float16);
    tcase_add_test(tc, test_double_vs_strtod);
    tcase_add_test(tc, test_long_strings);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(values_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
