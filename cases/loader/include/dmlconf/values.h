/*
 * dmlconf values: exact parsing and formatting of one scalar of a tensor data
 * type, as written in case files (cases/README.md, "Values").
 *
 * An element is the value's encoding in little-endian byte order: 2 bytes for
 * FLOAT16, INT16 and UINT16, 4 for FLOAT32, INT32 and UINT32, 8 for FLOAT64,
 * INT64 and UINT64, 1 for INT8 and UINT8. UINT4, INT4 and UNKNOWN have no
 * scalar values here. Elements need no alignment.
 *
 * Parsing is exact: no value goes through a double. A decimal is converted
 * with arbitrary precision, so a decimal that is exactly a float is accepted
 * however many digits it has, a decimal that is not is rejected (or, when
 * asked, rounded once to nearest, ties to even), and integers keep all 64 bits.
 *
 * Nothing here allocates memory or keeps state; every function is reentrant.
 */
#ifndef DMLCONF_VALUES_H
#define DMLCONF_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dmlconf/oracle.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Buffer size that holds any formatted value in every style except
 * DMLCONF_VALUE_STYLE_DECIMAL (whose exact expansions are longer: up to 125
 * characters for float32 and 800 for float64), terminating NUL included. */
#define DMLCONF_VALUE_TEXT_SIZE 48u
/* Buffer size that holds any value in any style, DECIMAL of float64 included. */
#define DMLCONF_VALUE_TEXT_MAX 800u

/* The result of a parse. */
typedef enum dmlconf_value_status
{
    DMLCONF_VALUE_OK = 0,
    DMLCONF_VALUE_SYNTAX,           /* not a number of any kind ("abc", "", "1.2.3") */
    DMLCONF_VALUE_NOT_INTEGER,      /* a number that is not an integer literal, for an integer type ("1.5", "nan") */
    DMLCONF_VALUE_OUT_OF_RANGE,     /* -1 for uint32; 70000 for float16 (rounds to infinity) */
    DMLCONF_VALUE_INEXACT,          /* not exactly representable, and rounding not allowed */
    DMLCONF_VALUE_BAD_BITS,         /* bits:0x... with more hex digits than the type has */
    DMLCONF_VALUE_UNSUPPORTED_TYPE, /* UNKNOWN, UINT4, INT4, or a value outside the enum */
} dmlconf_value_status;

/* How dmlconf_value_format writes a value. Integers are written in decimal in
 * every style but BITS. Every style parses back to the same bits (SHORTEST
 * needs allow_rounding for values that are not exact decimals, the others
 * never do). */
typedef enum dmlconf_value_style
{
    /* The shortest decimal that rounds back to the same value: "2", "-3",
     * "0.1", "1e-7", "3.4028235e38"; integral values have no decimal point;
     * "-0.0" for negative zero; "nan" for the canonical quiet NaN (sign clear,
     * quiet bit only), "bits:0x..." for other NaNs; "inf", "-inf".
     * "0.1" is not exactly a float: parse it back with allow_rounding. */
    DMLCONF_VALUE_STYLE_SHORTEST = 0,
    /* C99 hex float: "0x1.8p-3", "-0x1p+0", "0x0p+0" (subnormals normalised:
     * "0x1p-149"); "inf", "-inf"; every NaN as "bits:0x...". */
    DMLCONF_VALUE_STYLE_EXACT,
    /* The raw encoding, all hex digits of the type: "bits:0x3c00". */
    DMLCONF_VALUE_STYLE_BITS,
    /* The exact decimal expansion, however long: "0.100000001490116119384765625";
     * specials and zeros as in SHORTEST. */
    DMLCONF_VALUE_STYLE_DECIMAL,
    /* SHORTEST when that decimal is exactly the value ("2", "0.125", "-0.0"),
     * else DECIMAL when that takes at most 24 characters (float16 65504,
     * whose shortest form is "65500"), else EXACT ("0x1.99999ap-4"): readable
     * where possible, and always parses back without rounding. */
    DMLCONF_VALUE_STYLE_READABLE,
} dmlconf_value_style;

/* Bytes of one element of `type` (see above); 0 for a type without scalar
 * values. */
size_t dmlconf_value_size(dmlconf_data_type type);

/* A stable lower-case token for a status ("ok", "syntax", "not_integer",
 * "out_of_range", "inexact", "bad_bits", "unsupported_type"); NULL outside
 * the enum. */
const char *dmlconf_value_status_name(dmlconf_value_status status);

/* Parses the text of one scalar into one element of `type`.
 *
 * Integer types accept an optional sign and decimal digits or 0x/0X and hex
 * digits ("-12", "0xff", "-0x10"), range-checked for the type, and
 * "bits:0x..." (the raw two's-complement encoding). Float types accept a
 * decimal ("2", "-1.25", ".5", "1e-3"), a C99 hex float ("0x1.8p-3", "0x10"),
 * nan, inf, infinity (any case, optionally signed, optionally with YAML's
 * leading dot: ".nan", "-.inf"; "nan" is the canonical quiet NaN, "-nan" the
 * same with the sign set) and "bits:0x..." (any encoding, NaN payloads
 * included). bits: takes 1 to 2*size hex digits. No whitespace is allowed
 * anywhere.
 *
 * A float literal that is not exactly representable is DMLCONF_VALUE_INEXACT
 * unless allow_rounding is true, in which case it is rounded once to nearest,
 * ties to even (subnormals kept). A literal whose rounded value is infinite is
 * DMLCONF_VALUE_OUT_OF_RANGE either way ("inf" itself is fine); one that
 * rounds to zero is inexact, not out of range.
 *
 * On DMLCONF_VALUE_OK, writes dmlconf_value_size(type) bytes to out_element;
 * on any other status leaves it untouched and writes to `why` (why_size
 * bytes, cut with "..." when longer; why may be NULL when why_size is 0)
 * one sentence that quotes the text (shortened when long) and says what was
 * expected, e.g.
 * "-1 is out of range for uint32: expected an integer from 0 to 4294967295".
 * On success why is set to "". text must be a NUL-terminated string (NULL is
 * a syntax error); any content, however long, is handled. */
dmlconf_value_status dmlconf_value_parse(dmlconf_data_type type, const char *text, bool allow_rounding,
                                         void *out_element, char *why, size_t why_size);

/* Parses a plain integer (optional sign, decimal or 0x hex digits) that must
 * lie in [min, max]: seeds, sizes, small parameters. "-0" is 0. Statuses:
 * OK (*out set), SYNTAX, NOT_INTEGER (a float literal such as "1.5" or
 * "1e3"), OUT_OF_RANGE; `why` as for dmlconf_value_parse. *out is untouched
 * on failure. */
dmlconf_value_status dmlconf_value_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out, char *why,
                                             size_t why_size);
dmlconf_value_status dmlconf_value_parse_i64(const char *text, int64_t min, int64_t max, int64_t *out, char *why,
                                             size_t why_size);

/* Rounds the exact binary number (-1)^negative * M * 2^exponent, where M is
 * the unsigned integer in magnitude[0..limb_count) (32-bit limbs, least
 * significant first; limb_count may be 0 for zero), to one element of `type`.
 * Float types round to nearest, ties to even (or require exactness when
 * allow_rounding is false: DMLCONF_VALUE_INEXACT); a result that would be
 * infinite is DMLCONF_VALUE_OUT_OF_RANGE. Integer types round to the nearest
 * integer, ties to even (or require an integer: DMLCONF_VALUE_NOT_INTEGER),
 * then range-check (DMLCONF_VALUE_OUT_OF_RANGE). Negative zero is kept for
 * floats. out_element and why as for dmlconf_value_parse. This is how
 * generators turn exact arithmetic into elements. */
dmlconf_value_status dmlconf_value_from_dyadic(dmlconf_data_type type, bool negative, const uint32_t *magnitude,
                                               size_t limb_count, int64_t exponent, bool allow_rounding,
                                               void *out_element, char *why, size_t why_size);

/* Writes one element of `type` as text in `style` (see dmlconf_value_style)
 * with snprintf's contract: at most size - 1 characters and a NUL go to
 * buffer (buffer may be NULL when size is 0), and the return value is the
 * length of the whole text, so a return value >= size means it was cut.
 * Returns 0 and writes "" for a type without scalar values or an unknown
 * style. dmlconf_value_parse(type, text, true, ...) gives back the same bits
 * for every value and style (and with allow_rounding false too, for every
 * style but SHORTEST). */
size_t dmlconf_value_format(dmlconf_data_type type, const void *element, dmlconf_value_style style, char *buffer,
                            size_t size);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_VALUES_H */
