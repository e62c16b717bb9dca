/*
 * The oracle backend's computation in segments (dmlconf_oracle_compute_segmented):
 * the same bits as dmlconf_compute for every type, both operators,
 * inclusive and exclusive, one line and several, on 2 to 8 threads, with
 * lines cut at every place a thread count puts a boundary; and the jobs it
 * leaves to dmlconf_compute (decreasing, strided, in place, short) still
 * computed, with the same errors.
 */
#include <dmlconf/oracle_backend.h>

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SUM  DMLCONF_OPERATOR_CUMULATIVE_SUMMATION
#define PROD DMLCONF_OPERATOR_CUMULATIVE_PRODUCT

static uint64_t next_random(uint64_t *state)
{
    /* splitmix64 */
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static void store(void *buffer, size_t size, uint64_t index, uint64_t bits)
{
    unsigned char *p = (unsigned char *)buffer + index * size;
    if (size == 2)
    {
        uint16_t v = (uint16_t)bits;
        memcpy(p, &v, 2);
    }
    else if (size == 4)
    {
        uint32_t v = (uint32_t)bits;
        memcpy(p, &v, 4);
    }
    else
    {
        memcpy(p, &bits, 8);
    }
}

/* Data whose prefixes stay finite and not zero, so that every carry
 * matters: integers (odd for products), float sums of magnitude about 1 with
 * random signs, float products of +-1 with now and then a factor 1 +- 2^-7;
 * `midpoints`: a float32 sum that keeps landing on float32 midpoints while
 * its double-word state is inexact, so that the oracle's exact fallback
 * reads the line's history again and again. */
static uint64_t element_bits(uint64_t *state, dmlconf_operator op, dmlconf_data_type type, bool midpoints, uint64_t i)
{
    uint64_t r = next_random(state);
    bool half = type == DMLCONF_DATA_TYPE_FLOAT16;
    if (midpoints)
    {
        /* Every 1000 elements: 2^80, 2^-60, 1, -2^80, -2^-60, -1 (the sum
         * back to what it was, 2^-60 lost in the remainder); otherwise
         * +-2^-24 in turn, which puts a sum near 1 on a midpoint and back. */
        static const uint32_t opener[6] = {0x67800000u, 0x21800000u, 0x3f800000u,
                                           0xe7800000u, 0xa1800000u, 0xbf800000u};
        uint64_t k = i % 1000u;
        if (i < 6)
            return i == 2 ? 0x3f800000u : opener[i];
        if (k < 6)
            return opener[k];
        return k % 2 ? 0x33800000u : 0xb3800000u;
    }
    if (type == DMLCONF_DATA_TYPE_FLOAT32 || half)
    {
        if (op == SUM)
            return half ? (r & 0x83ffu) | ((13u + (r >> 20) % 5u) << 10)
                        : (r & 0x807fffffu) | ((124u + (uint32_t)((r >> 40) % 7u)) << 23);
        unsigned pick = (unsigned)((r >> 8) % 64u);
        return half ? (pick == 0   ? 0x3c08u
                       : pick == 1 ? 0x3bf0u
                                   : 0x3c00u) |
                          (r & 0x8000u)
                    : (pick == 0   ? 0x3f810000u
                       : pick == 1 ? 0x3f7e0000u
                                   : 0x3f800000u) |
                          (r & 0x80000000u);
    }
    uint64_t bits = r >> (r % 16u);
    return op == PROD ? bits | 1u : bits;
}

static const struct
{
    dmlconf_operator op;
    dmlconf_data_type type;
    bool exclusive, midpoints;
} variants[] = {
    {SUM, DMLCONF_DATA_TYPE_FLOAT32, false, false},  {SUM, DMLCONF_DATA_TYPE_FLOAT32, true, false},
    {SUM, DMLCONF_DATA_TYPE_FLOAT32, false, true},   {SUM, DMLCONF_DATA_TYPE_FLOAT32, true, true},
    {PROD, DMLCONF_DATA_TYPE_FLOAT32, false, false}, {PROD, DMLCONF_DATA_TYPE_FLOAT32, true, false},
    {SUM, DMLCONF_DATA_TYPE_FLOAT16, false, false},  {SUM, DMLCONF_DATA_TYPE_FLOAT16, true, false},
    {PROD, DMLCONF_DATA_TYPE_FLOAT16, false, false}, {PROD, DMLCONF_DATA_TYPE_FLOAT16, true, false},
    {SUM, DMLCONF_DATA_TYPE_INT32, false, false},    {PROD, DMLCONF_DATA_TYPE_UINT32, true, false},
    {SUM, DMLCONF_DATA_TYPE_UINT64, true, false},    {PROD, DMLCONF_DATA_TYPE_INT64, false, false},
};

START_TEST(test_segments_match_whole_lines)
{
    /* One line, and three side by side along the last axis (lines of a
     * [3, n] tensor, axis 1). */
    static const uint32_t shapes[][2] = {{1, 100003}, {3, 40009}};
    uint64_t state = 1000u + (uint64_t)_i;
    dmlconf_data_type type = variants[_i].type;
    size_t size = dmlconf_data_type_bits(type) / 8u;
    for (size_t shape = 0; shape < 2; ++shape)
    {
        dmlconf_scan_desc desc;
        memset(&desc, 0, sizeof(desc));
        desc.op = variants[_i].op;
        desc.exclusive = variants[_i].exclusive;
        desc.input.data_type = type;
        desc.input.dimension_count = 2;
        desc.input.sizes[0] = shapes[shape][0];
        desc.input.sizes[1] = shapes[shape][1];
        desc.axis = 1;
        desc.output = desc.input;
        uint64_t count = (uint64_t)shapes[shape][0] * shapes[shape][1];
        size_t bytes = (size_t)count * size + 8u;
        unsigned char *input = malloc(bytes), *whole = malloc(bytes), *got = malloc(bytes);
        ck_assert(input && whole && got);
        for (uint64_t i = 0; i < count; ++i)
            store(input, size, i, element_bits(&state, desc.op, type, variants[_i].midpoints, i % shapes[shape][1]));
        dmlconf_error err;
        ck_assert_msg(dmlconf_compute(&desc, input, bytes, whole, bytes, NULL, &err) == 0, "%s", err.message);
        for (unsigned threads = 1; threads <= 8; ++threads)
        {
            memset(got, 0xa5, bytes);
            ck_assert_msg(dmlconf_oracle_compute_segmented(&desc, input, bytes, got, bytes, threads, 1000, &err) == 0, "%s",
                          err.message);
            /* The first element that differs, if any (one check: Check
             * records every assertion). */
            uint64_t differs = 0;
            while (differs < count && memcmp(got + differs * size, whole + differs * size, size) == 0)
                ++differs;
            ck_assert_msg(differs == count, "variant %d (%s %s%s), %u lines, %u threads: element %llu differs", _i,
                          dmlconf_operator_name(desc.op), dmlconf_data_type_name(type),
                          desc.exclusive ? ", exclusive" : "", shapes[shape][0], threads, (unsigned long long)differs);
        }
        free(input);
        free(whole);
        free(got);
    }
}
END_TEST

/* Jobs that do not go in segments are dmlconf_compute's: decreasing,
 * strided, in place, too short; and a job dmlconf_compute refuses is
 * refused the same way. */
START_TEST(test_other_jobs_computed_whole)
{
    enum
    {
        N = 20011
    };
    uint64_t state = 7;
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = SUM;
    desc.input.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    desc.input.dimension_count = 1;
    desc.input.sizes[0] = N;
    desc.output = desc.input;
    size_t bytes = 2u * N * sizeof(float) + 8u;
    unsigned char *input = malloc(bytes), *whole = malloc(bytes), *got = malloc(bytes);
    ck_assert(input && whole && got);
    for (uint64_t i = 0; i < 2u * N; ++i)
        store(input, 4, i, element_bits(&state, SUM, DMLCONF_DATA_TYPE_FLOAT32, false, i));
    dmlconf_error err;
    for (int kind = 0; kind < 4; ++kind)
    {
        dmlconf_scan_desc job = desc;
        uint64_t min_length = 1000;
        if (kind == 0)
            job.direction = DMLCONF_AXIS_DIRECTION_DECREASING;
        else if (kind == 1)
        {
            job.input.has_strides = true;
            job.input.strides[0] = 2;
        }
        else if (kind == 2)
            min_length = N + 1u;
        else
            job.in_place = true;
        unsigned char *expected_in = kind == 3 ? whole : input, *got_in = kind == 3 ? got : input;
        if (kind == 3)
        {
            memcpy(whole, input, bytes);
            memcpy(got, input, bytes);
        }
        ck_assert_msg(dmlconf_compute(&job, expected_in, bytes, whole, bytes, NULL, &err) == 0, "%s", err.message);
        if (kind != 3)
            memset(got, 0xa5, bytes);
        ck_assert_msg(dmlconf_oracle_compute_segmented(&job, got_in, bytes, got, bytes, 4, min_length, &err) == 0, "%s",
                      err.message);
        ck_assert_msg(memcmp(got, whole, N * sizeof(float)) == 0, "kind %d differs", kind);
    }
    /* Buffers that overlap out of place: refused, as dmlconf_compute does. */
    ck_assert_int_eq(dmlconf_oracle_compute_segmented(&desc, input, bytes, input + 4, bytes - 4, 4, 1000, &err), -1);
    ck_assert_msg(strstr(err.message, "overlap") != NULL, "%s", err.message);
    /* An output too small: refused. */
    ck_assert_int_eq(dmlconf_oracle_compute_segmented(&desc, input, bytes, got, 100, 4, 1000, &err), -1);
    ck_assert_msg(strstr(err.message, "output buffer holds 100 bytes") != NULL, "%s", err.message);
    free(input);
    free(whole);
    free(got);
}
END_TEST

static Suite *oracle_segments_suite(void)
{
    Suite *suite = suite_create("oracle_segments");
    TCase *tc = tcase_create("segments");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_segments_match_whole_lines, 0, (int)(sizeof(variants) / sizeof(variants[0])));
    tcase_add_test(tc, test_other_jobs_computed_whole);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(oracle_segments_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
