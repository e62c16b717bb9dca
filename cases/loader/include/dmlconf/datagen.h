/*
 * dmlconf datagen: the seeded input generators of case files
 * (`input: {generate: uniform, min: -1, max: 1, seed: 7}`, cases/README.md).
 *
 * Element i of a generated tensor depends only on the spec and i: each element
 * draws its random words from its own counter-based stream (splitmix64 of the
 * seed and the index), so a tensor can be produced in chunks, in any order or
 * in parallel, and a seed gives the same bits on every platform. Only integer
 * arithmetic is used; float results are computed exactly and rounded once
 * (to nearest, ties to even) by dmlconf_value_from_dyadic.
 *
 * The random word stream of element i: w_0 = splitmix64(seed, i) =
 * mix(seed + (i + 1) * 0x9e3779b97f4a7c15) with splitmix64's finaliser `mix`
 * (so seed 0 gives splitmix64's reference sequence 0xe220a8397b1dcdaf,
 * 0x6e789e6aa1b965f4, ... for i = 0, 1, ...), and w_k = mix(w_0 + k *
 * 0x9e3779b97f4a7c15) for k >= 1. A uniform integer in [0, n) is Lemire's
 * multiply-shift, high 64 bits of w * n, with rejection (the next word) of
 * the rare biased draws.
 *
 * Generators and their keys (every generator also takes `generate`):
 *   uniform   seed min max     floats: min + (max - min) * w_0 / 2^64, exact,
 *                              rounded; integers: uniform in [min, max]
 *   integers  seed min max     uniform integers in [min, max]; in float types
 *                              min and max must be integers of magnitude at
 *                              most 2^p (2048 for float16, 2^24 for float32)
 *   dyadic    seed min max scale  k * 2^-scale, k uniform integer in [min, max]
 *                              (min and max as for integers); for integer
 *                              types scale must be <= 0
 *   normal    seed mean stddev mean + stddev * z, z = (sum of 12 uniform 32-bit
 *                              fractions) - 6 (Irwin-Hall, in [-6, 6)), exact,
 *                              rounded (integer types: to nearest integer)
 *   wide      seed emin emax   random sign (signed types), exponent e uniform in
 *                              [emin, emax], all lower bits random: for floats
 *                              a normal number in binade e (or a subnormal with
 *                              its leading bit at 2^e below the normal range),
 *                              for integers 2^e plus a random e-bit value
 *   constant  value            every element is value
 *   iota      start step       start + i * step (defaults 0 and 1): floats
 *                              exact then rounded once (infinite if it
 *                              overflows), integers wrap modulo 2^bits
 *   specials  seed             NaNs (canonical and with payloads), +-inf, +-0,
 *                              subnormals, min normal, max finite, +-1 and
 *                              random normals; integers: min, max, 0, 1, -1 or
 *                              2, min + 1, max - 1 and random values
 * min, max, mean, stddev, value, start and step are values of the spec's type
 * (dmlconf_value_parse, exact); seed is a uint64; scale, emin and emax are
 * integers from -100000 to 100000 (checked per type by dmlconf_datagen_check).
 *
 * Nothing here allocates or keeps state; every function is reentrant.
 */
#ifndef DMLCONF_DATAGEN_H
#define DMLCONF_DATAGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dmlconf/oracle.h>
#include <dmlconf/values.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum dmlconf_datagen_kind
{
    DMLCONF_DATAGEN_NONE = 0, /* `generate` not given yet */
    DMLCONF_DATAGEN_UNIFORM,
    DMLCONF_DATAGEN_INTEGERS,
    DMLCONF_DATAGEN_DYADIC,
    DMLCONF_DATAGEN_NORMAL,
    DMLCONF_DATAGEN_WIDE,
    DMLCONF_DATAGEN_CONSTANT,
    DMLCONF_DATAGEN_IOTA,
    DMLCONF_DATAGEN_SPECIALS,
} dmlconf_datagen_kind;

/* The keys, as bits of dmlconf_datagen_spec.keys. */
typedef enum dmlconf_datagen_key
{
    DMLCONF_DATAGEN_KEY_GENERATE = 1u << 0,
    DMLCONF_DATAGEN_KEY_SEED = 1u << 1,
    DMLCONF_DATAGEN_KEY_MIN = 1u << 2,
    DMLCONF_DATAGEN_KEY_MAX = 1u << 3,
    DMLCONF_DATAGEN_KEY_SCALE = 1u << 4,
    DMLCONF_DATAGEN_KEY_MEAN = 1u << 5,
    DMLCONF_DATAGEN_KEY_STDDEV = 1u << 6,
    DMLCONF_DATAGEN_KEY_EMIN = 1u << 7,
    DMLCONF_DATAGEN_KEY_EMAX = 1u << 8,
    DMLCONF_DATAGEN_KEY_VALUE = 1u << 9,
    DMLCONF_DATAGEN_KEY_START = 1u << 10,
    DMLCONF_DATAGEN_KEY_STEP = 1u << 11,
} dmlconf_datagen_key;

/* A generator. Fill it with dmlconf_datagen_init and dmlconf_datagen_set;
 * it is a plain value (no pointers): copy it freely. Parameter elements are
 * little-endian elements of `type` (dmlconf_value_size bytes used). */
typedef struct dmlconf_datagen_spec
{
    dmlconf_data_type type;
    dmlconf_datagen_kind kind;
    uint32_t keys; /* dmlconf_datagen_key bits of the keys given */
    uint64_t seed;
    int32_t scale;
    int32_t emin;
    int32_t emax;
    unsigned char min[8];
    unsigned char max[8];
    unsigned char mean[8];
    unsigned char stddev[8];
    unsigned char value[8];
    unsigned char start[8];
    unsigned char step[8];
} dmlconf_datagen_spec;

/* The generator's name as written after `generate:` ("uniform", ...);
 * NULL for NONE or a value outside the enum. */
const char *dmlconf_datagen_kind_name(dmlconf_datagen_kind kind);

/* Resets *spec to "no key given" for elements of `type`. Never fails. */
void dmlconf_datagen_init(dmlconf_datagen_spec *spec, dmlconf_data_type type);

/* Sets one key from its scalar text, in any order (`generate` may come after
 * the parameters). Returns 0, or -1 with one sentence in why (why_size bytes;
 * why may be NULL when why_size is 0) when: the key is unknown (the message
 * lists the generator's valid keys, or every key while `generate` is not
 * known yet), the key was already given, `generate` names no generator (the
 * message lists them), or the value does not parse (the message is
 * dmlconf_value_parse's, prefixed with the key: "min: 0.1 is not exactly
 * representable in float32; ..."). Parameters are parsed exactly, never
 * rounded. On failure *spec is unchanged. */
int dmlconf_datagen_set(dmlconf_datagen_spec *spec, const char *key, const char *value_text, char *why,
                        size_t why_size);

/* Checks a complete spec: `generate` given, its type one of the six
 * computable types, every key given valid for the generator, every required
 * key given (seed for the random generators, min and max, ...), and the
 * parameters usable: min <= max, finite bounds, integral bounds where
 * integers are drawn, results exact and in range (e.g. mean +- 6 stddev must
 * round to finite values of the type), exponents inside the type. Returns 0,
 * or -1 with the first problem in why. dmlconf_datagen_fill needs a spec
 * that passed. */
int dmlconf_datagen_check(const dmlconf_datagen_spec *spec, char *why, size_t why_size);

/* Writes elements first_index .. first_index + count - 1 of the generated
 * sequence to `out` (count * dmlconf_value_size(spec->type) bytes,
 * little-endian, no alignment needed). Filling [0, n) at once or in any
 * chunks gives the same bytes. Precondition: dmlconf_datagen_check(spec)
 * returned 0; for a spec that does not pass, `out` is zero-filled (when its
 * type has a size). Never fails. */
void dmlconf_datagen_fill(const dmlconf_datagen_spec *spec, uint64_t first_index, uint64_t count, void *out);

/* A key's name as case files write it ("seed", "min", ...); NULL for a
 * value that is not one dmlconf_datagen_key bit. */
const char *dmlconf_datagen_key_name(dmlconf_datagen_key key);

/* The value of one key as case files write it: the generator's name for
 * GENERATE, seed, scale, emin and emax as decimal integers, the other
 * parameters as elements of spec->type in `style` (dmlconf_value_format).
 * Whether the key was given is not checked. snprintf's contract: returns
 * the full length, writes at most size - 1 characters and a NUL (buffer may
 * be NULL when size is 0); "" for a value that is not a key. */
size_t dmlconf_datagen_format_key(const dmlconf_datagen_spec *spec, dmlconf_datagen_key key, dmlconf_value_style style,
                                  char *buffer, size_t size);

/* One line for reports, e.g. "uniform float32 min=-1 max=1 seed=7": the
 * generator, the type, then the keys given in the order of
 * dmlconf_datagen_key with seed last, values in the shortest style.
 * snprintf's contract: returns the full length, writes at most size - 1
 * characters and a NUL (buffer may be NULL when size is 0). */
size_t dmlconf_datagen_describe(const dmlconf_datagen_spec *spec, char *buffer, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_DATAGEN_H */
