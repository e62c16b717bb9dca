/*
 * Printing for messages and reports: one element in decimal and hex, and
 * one judged element with the rule that judged it.
 */
#include <dmlconf/comparator.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A float in decimal with enough digits to round-trip its format. */
static void format_float(double value, int digits, const char *hex, char *buffer, size_t size)
{
    if (isnan(value))
        snprintf(buffer, size, "nan (%s)", hex);
    else if (isinf(value))
        snprintf(buffer, size, "%sinf (%s)", value < 0.0 ? "-" : "", hex);
    else
        snprintf(buffer, size, "%.*g (%s)", digits, value, hex);
}

char *dmlconf_format_element(dmlconf_data_type type, uint64_t bits, char *buffer, size_t size)
{
    if (!buffer || size == 0)
        return buffer;
    char hex[24];
    switch (type)
    {
    case DMLCONF_DATA_TYPE_FLOAT32:
    {
        uint32_t b = (uint32_t)bits;
        float value;
        memcpy(&value, &b, sizeof(value));
        snprintf(hex, sizeof(hex), "0x%08" PRIx32, b);
        format_float((double)value, 9, hex, buffer, size);
        break;
    }
    case DMLCONF_DATA_TYPE_FLOAT16:
    {
        uint16_t b = (uint16_t)bits;
        snprintf(hex, sizeof(hex), "0x%04x", (unsigned)b);
        format_float((double)dmlconf_half_to_float(b), 5, hex, buffer, size);
        break;
    }
    case DMLCONF_DATA_TYPE_INT32:
    {
        uint32_t b = (uint32_t)bits;
        /* Two's complement by hand: converting an out-of-range unsigned to a
         * signed type is implementation-defined. */
        if (b & UINT32_C(0x80000000))
            snprintf(buffer, size, "-%" PRIu32 " (0x%08" PRIx32 ")", (uint32_t)(~b + 1u), b);
        else
            snprintf(buffer, size, "%" PRIu32 " (0x%08" PRIx32 ")", b, b);
        break;
    }
    case DMLCONF_DATA_TYPE_UINT32:
        snprintf(buffer, size, "%" PRIu32 " (0x%08" PRIx32 ")", (uint32_t)bits, (uint32_t)bits);
        break;
    case DMLCONF_DATA_TYPE_INT64:
        if (bits & (UINT64_C(1) << 63))
            snprintf(buffer, size, "-%" PRIu64 " (0x%016" PRIx64 ")", ~bits + 1u, bits);
        else
            snprintf(buffer, size, "%" PRIu64 " (0x%016" PRIx64 ")", bits, bits);
        break;
    case DMLCONF_DATA_TYPE_UINT64:
        snprintf(buffer, size, "%" PRIu64 " (0x%016" PRIx64 ")", bits, bits);
        break;
    default:
        snprintf(buffer, size, "0x%" PRIx64, bits);
        break;
    }
    return buffer;
}

/* An element of a float type as a double (+-Inf and NaN as they are);
 * false for other types. */
static bool float_value(dmlconf_data_type type, uint64_t bits, double *value)
{
    if (type == DMLCONF_DATA_TYPE_FLOAT32)
    {
        uint32_t b = (uint32_t)bits;
        float f;
        memcpy(&f, &b, sizeof(f));
        *value = (double)f;
        return true;
    }
    if (type == DMLCONF_DATA_TYPE_FLOAT16)
    {
        *value = (double)dmlconf_half_to_float((uint16_t)bits);
        return true;
    }
    return false;
}

/* "3 ulp apart" or "equal" (integers: "3 apart"). */
static void describe_distance(const dmlconf_mismatch *m, bool integer, char *text, size_t size)
{
    if (m->error_ulps == 0.0)
        snprintf(text, size, "equal");
    else if (isinf(m->error_ulps))
        snprintf(text, size, "a NaN and a number");
    else
        snprintf(text, size, "%.17g%s apart", m->error_ulps, integer ? "" : " ulp");
}

/* How the error compares with a bound: "error 2.4e-07 (2 ulp) = 1.26x the
 * bound", or why there is no ratio (a NaN or an infinity where a finite
 * value is due, a bound of 0). */
static void describe_error(const dmlconf_mismatch *m, double actual, char *text, size_t size)
{
    if (isnan(actual))
        snprintf(text, size, "error: a NaN where a number is due");
    else if (isinf(m->tolerance_fraction) && isinf(actual))
        snprintf(text, size, "error: an infinity where a finite value is due");
    else if (isinf(m->tolerance_fraction))
        snprintf(text, size, "error %.17g ulp, and the bound is 0", m->error_ulps);
    else
        snprintf(text, size, "error %.3g (%.17g ulp) = %.3gx the bound", m->tolerance_fraction * m->tolerance,
                 m->error_ulps, m->tolerance_fraction);
}

char *dmlconf_format_rule(dmlconf_data_type type, const dmlconf_mismatch *m, char *text, size_t size)
{
    if (!text || size == 0)
        return text;
    char distance[64], error[128];
    double expected = 0.0, actual = 0.0;
    bool is_float = float_value(type, m->expected_bits, &expected);
    if (is_float)
        float_value(type, m->actual_bits, &actual);
    describe_distance(m, !is_float, distance, sizeof(distance));
    describe_error(m, actual, error, sizeof(error));
    switch (m->rule)
    {
    case DMLCONF_RULE_INTEGER:
        snprintf(text, size, "rule: integers are bit-exact; %s", distance);
        return text;
    case DMLCONF_RULE_BIT_EXACT:
        snprintf(text, size, "rule: bit-exact (a bit_exact tolerance, or a backend that claims exact results); %s",
                 distance);
        return text;
    case DMLCONF_RULE_EXACT:
        if (m->tolerance > 0.0)
            snprintf(text, size,
                     "rule: bit-exact by construction (every order gives the exact value), or after the conversion "
                     "its neighbour toward zero %.3g away; %s",
                     m->tolerance, distance);
        else
            snprintf(text, size, "rule: bit-exact by construction (every order gives the exact value); %s", distance);
        return text;
    case DMLCONF_RULE_NAN:
        snprintf(text, size, "rule: NaN expected, any NaN passes");
        return text;
    case DMLCONF_RULE_INF_INPUT:
        snprintf(text, size, "rule: an input is infinite, so exactly that infinity is expected");
        return text;
    case DMLCONF_RULE_SIGNED_ZERO:
        snprintf(text, size, "rule: signed zero (signed_zero: strict), so +0 and -0 differ");
        return text;
    case DMLCONF_RULE_ZERO_PRODUCT:
        snprintf(text, size, "rule: a product with a zero factor is exactly zero; %s", distance);
        return text;
    case DMLCONF_RULE_BOUND:
        snprintf(text, size, "rule: tolerance bound (U ulp + accumulation allowance) %.3g; %s", m->tolerance, error);
        return text;
    case DMLCONF_RULE_BOUND_FLOAT16:
        snprintf(text, size,
                 "rule: half-precision bound (float16 accumulation: U ulp + the allowance of float16 arithmetic) "
                 "%.3g; %s",
                 m->tolerance, error);
        return text;
    case DMLCONF_RULE_AMBIGUOUS:
        snprintf(text, size,
                 "rule: range-ambiguous (some order may overflow), only a finite value outside the bound "
                 "%.3g fails; %s",
                 m->tolerance, error);
        return text;
    case DMLCONF_RULE_ABSOLUTE_RELATIVE:
        if (isinf(expected))
            snprintf(text, size, "rule: atol + rtol |expected|, where an infinity must match exactly; %s", distance);
        else
            snprintf(text, size, "rule: atol + rtol |expected| = %.3g; %s", m->tolerance, error);
        return text;
    case DMLCONF_RULE_ULP_COUNT:
    {
        double ulp = dmlconf_ulp_of(type, expected);
        double allowed = ulp > 0.0 ? m->tolerance / ulp : 0.0;
        if (isinf(m->error_ulps))
            snprintf(text, size,
                     "rule: at most %.17g ulp apart, no accumulation allowance; error: a NaN where a "
                     "number is due",
                     allowed);
        else if (isinf(m->tolerance_fraction))
            snprintf(text, size, "rule: at most 0 ulp apart, no accumulation allowance; %s", distance);
        else
            snprintf(text, size,
                     "rule: at most %.17g ulp apart, no accumulation allowance; error %.17g ulp = %.3gx "
                     "the bound",
                     allowed, m->error_ulps, m->tolerance_fraction);
        return text;
    }
    case DMLCONF_RULE_INVALID:
        snprintf(text, size, "rule: none (the comparator could not be set up for this case)");
        return text;
    case DMLCONF_RULE_UNWRITTEN:
        snprintf(text, size, "rule: never written: the element still holds the canary the output was filled with");
        return text;
    case DMLCONF_RULE_UNKNOWN:
    case DMLCONF_RULE_COUNT:
        break;
    }
    if (isinf(m->tolerance_fraction))
        snprintf(text, size, "rule not recorded; %s", distance);
    else
        snprintf(text, size, "rule not recorded; %s, %.3gx the tolerance %.3g", distance, m->tolerance_fraction,
                 m->tolerance);
    return text;
}

char *dmlconf_format_mismatch(dmlconf_data_type type, const dmlconf_mismatch *mismatch, char *buffer, size_t size)
{
    if (!buffer || size == 0)
        return buffer;
    char where[DMLCONF_MAX_DIMENSIONS * 12 + 4];
    size_t used = 0;
    where[0] = '\0';
    uint32_t count = mismatch->dimension_count <= DMLCONF_MAX_DIMENSIONS ? mismatch->dimension_count : 0;
    for (uint32_t d = 0; d < count; ++d)
    {
        int written =
            snprintf(where + used, sizeof(where) - used, "%s%" PRIu32, d ? ", " : "", mismatch->coordinates[d]);
        if (written < 0 || (size_t)written >= sizeof(where) - used)
            break;
        used += (size_t)written;
    }
    char expected[DMLCONF_ELEMENT_TEXT_SIZE], actual[DMLCONF_ELEMENT_TEXT_SIZE], rule[DMLCONF_RULE_TEXT_SIZE];
    dmlconf_format_element(type, mismatch->expected_bits, expected, sizeof(expected));
    dmlconf_format_element(type, mismatch->actual_bits, actual, sizeof(actual));
    dmlconf_format_rule(type, mismatch, rule, sizeof(rule));
    snprintf(buffer, size, "element [%s] (index %" PRIu64 "): expected %s, actual %s; %s", where,
             mismatch->logical_index, expected, actual, rule);
    return buffer;
}
