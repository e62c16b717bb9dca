/*
 * Helpers shared by the oracle's Check tests: a seeded random generator,
 * bit-pattern conversions, desc builders and location-carrying assertions.
 */
#ifndef DMLCONF_ORACLE_TEST_SUPPORT_H
#define DMLCONF_ORACLE_TEST_SUPPORT_H

#include <check.h>
#include <dmlconf/oracle.h>
#include <stdint.h>

/* A small, portable, seeded generator (splitmix64): the same seed gives the
 * same stream everywhere, so a failing seed can be replayed. */
typedef struct test_rng
{
    uint64_t state;
} test_rng;

void test_rng_seed(test_rng *rng, uint64_t seed);
uint64_t test_rng_next(test_rng *rng);
/* Uniform in [0, bound), bound > 0. */
uint64_t test_rng_below(test_rng *rng, uint64_t bound);
/* Uniform double in [0, 1). */
double test_rng_unit(test_rng *rng);

uint32_t test_f32_bits(float value);
float test_f32_from_bits(uint32_t bits);
uint64_t test_f64_bits(double value);

/* A packed tensor desc of the given type and sizes. */
dmlconf_tensor_desc test_packed_desc(dmlconf_data_type type, uint32_t dimension_count, const uint32_t *sizes);
/* A scan desc with identical packed input and output descs. */
dmlconf_scan_desc test_scan_desc(dmlconf_operator op, dmlconf_data_type type, uint32_t dimension_count,
                                 const uint32_t *sizes, uint32_t axis, dmlconf_axis_direction direction,
                                 bool exclusive);

/* Asserts that two float32 values are bitwise equal, printing both in
 * decimal and hex bits with a caller-supplied context (case and index). */
#define test_assert_f32_bits_eq(actual, expected, ...)                                                                 \
    test_assert_f32_bits_eq_(__FILE__, __LINE__, actual, expected, __VA_ARGS__)
void test_assert_f32_bits_eq_(const char *file, int line, float actual, float expected, const char *context_format,
                              ...);
#define test_assert_f16_bits_eq(actual, expected, ...)                                                                 \
    test_assert_f16_bits_eq_(__FILE__, __LINE__, actual, expected, __VA_ARGS__)
void test_assert_f16_bits_eq_(const char *file, int line, uint16_t actual, uint16_t expected,
                              const char *context_format, ...);

/* Runs a suite with CK_NORMAL output and returns the process exit status. */
int test_run_suite(Suite *suite);

/* ---- typed element buffers (for tests over every computable type) ---- */

/* Bytes of one element of a computable type: 4, 2 or 8 (0 otherwise). */
size_t test_element_bytes(dmlconf_data_type type);
/* The bit pattern (zero-extended) that represents `value` in `type`:
 * integer types take an integral value in int64 range and wrap it modulo
 * 2^w; FLOAT32 and FLOAT16 round it to nearest even. */
uint64_t test_value_bits(dmlconf_data_type type, double value);
/* Reads / writes the bit pattern of element `index` of a buffer of `type`. */
uint64_t test_load_bits(dmlconf_data_type type, const void *buffer, uint64_t index);
void test_store_bits(dmlconf_data_type type, void *buffer, uint64_t index, uint64_t bits);
/* test_store_bits(type, buffer, index, test_value_bits(type, value)). */
void test_store_value(dmlconf_data_type type, void *buffer, uint64_t index, double value);
/* Writes a bit pattern of `type` as "decimal (0xhex)" into buffer; returns
 * buffer. */
const char *test_format_bits(dmlconf_data_type type, uint64_t bits, char *buffer, size_t size);

#endif /* DMLCONF_ORACLE_TEST_SUPPORT_H */
