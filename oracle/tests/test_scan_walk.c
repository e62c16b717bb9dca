/*
 * Tests of dmlconf_scan_walk: a line cut into pieces, any way, gives the
 * whole line's outputs bit for bit, for every type, operator and mode, with
 * and without a reader; the exact fallbacks read earlier pieces through the
 * reader (counted, so that the path is known to run) or keep their state
 * current without one; a reader that fails, and bad operators and types,
 * are errors.
 */
#include "line_kernels.h"
#include "test_support.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SUM  DMLCONF_OPERATOR_CUMULATIVE_SUMMATION
#define PROD DMLCONF_OPERATOR_CUMULATIVE_PRODUCT

static const dmlconf_data_type all_types[] = {
    DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_FLOAT16, DMLCONF_DATA_TYPE_INT32,
    DMLCONF_DATA_TYPE_UINT32,  DMLCONF_DATA_TYPE_INT64,   DMLCONF_DATA_TYPE_UINT64,
};

/* A line held in memory, read back through a reader that counts its calls
 * and can be told to fail. */
typedef struct counted_line
{
    const unsigned char *data;
    size_t element;
    size_t calls;
    uint64_t elements_read;
    bool fail;
} counted_line;

static int read_counted(void *context, uint64_t first, size_t count, void *out)
{
    counted_line *line = context;
    ++line->calls;
    line->elements_read += count;
    if (line->fail)
        return -1;
    memcpy(out, line->data + first * line->element, count * line->element);
    return 0;
}

/* Random elements: floats mostly near 1 (so that products stay finite for
 * a while), some of any magnitude, and with `specials` a few infinities,
 * NaNs and zeros; integers of every width. */
static void random_line(test_rng *rng, dmlconf_data_type type, size_t n, bool specials, void *out)
{
    for (size_t i = 0; i < n; ++i)
    {
        uint64_t bits;
        uint64_t r = test_rng_next(rng);
        switch (type)
        {
        case DMLCONF_DATA_TYPE_FLOAT32:
        {
            unsigned pick = (unsigned)(r % 100u);
            uint64_t exponent = pick < 10 ? 1u + (r >> 8) % 253u : 127u - 4u + (r >> 8) % 9u; /* mostly near 1 */
            if (specials && pick == 0)
                bits = (r >> 40) & 1u ? 0x7f800000u : 0x7fc00000u;
            else if (specials && pick == 1)
                bits = 0;
            else
                bits = ((r >> 63) << 31) | (exponent << 23) | ((r >> 16) & 0x7fffffu);
            break;
        }
        case DMLCONF_DATA_TYPE_FLOAT16:
        {
            unsigned pick = (unsigned)(r % 100u);
            uint32_t exponent = 15u - 2u + (uint32_t)((r >> 8) % 5u);
            if (specials && pick == 0)
                bits = 0x7c00u;
            else if (specials && pick == 1)
                bits = 0x8000u;
            else
                bits = ((r >> 63) << 15) | ((uint64_t)exponent << 10) | ((r >> 16) & 0x3ffu);
            break;
        }
        default:
            bits = r >> (test_rng_next(rng) % 64u);
            break;
        }
        test_store_bits(type, out, i, bits);
    }
}

/* Walks the line in pieces whose lengths come from `rng` (1 to max_piece)
 * and compares every output, the position and the carried last value with
 * dmlconf_scan_line's. */
static void check_pieces(dmlconf_operator op, dmlconf_data_type type, bool exclusive, size_t n, const void *in,
                         bool with_reader, size_t max_piece, test_rng *rng, const char *what)
{
    size_t size = test_element_bytes(type);
    unsigned char *whole = malloc(n * size + 1);
    unsigned char *pieces = malloc(n * size + 1);
    ck_assert_ptr_nonnull(whole);
    ck_assert_ptr_nonnull(pieces);
    dmlconf_error err;
    ck_assert_msg(dmlconf_scan_line(op, type, exclusive, n, in, whole, NULL, &err) == 0, "%s", err.message);
    counted_line line = {in, size, 0, 0, false};
    dmlconf_scan_walk walk;
    ck_assert_int_eq(dmlconf_scan_walk_init(&walk, op, type, exclusive, with_reader ? read_counted : NULL, &line, &err),
                     0);
    size_t done = 0;
    while (done < n)
    {
        size_t piece = 1u + (size_t)test_rng_below(rng, max_piece);
        if (piece > n - done)
            piece = n - done;
        ck_assert_msg(dmlconf_scan_walk_next(&walk, piece, (const unsigned char *)in + done * size,
                                             pieces + done * size, &err) == 0,
                      "%s: %s", what, err.message);
        done += piece;
        ck_assert_uint_eq(walk.position, done);
    }
    for (size_t i = 0; i < n; ++i)
    {
        uint64_t expected = test_load_bits(type, whole, i);
        uint64_t actual = test_load_bits(type, pieces, i);
        ck_assert_msg(actual == expected, "%s (%s %s %s, %s reader): element %zu is 0x%llx, the whole line's 0x%llx",
                      what, dmlconf_operator_name(op), dmlconf_data_type_name(type),
                      exclusive ? "exclusive" : "inclusive", with_reader ? "a" : "no", i, (unsigned long long)actual,
                      (unsigned long long)expected);
    }
    /* The carried value is the inclusive result of the whole line: the
     * next exclusive output. */
    ck_assert_msg(dmlconf_scan_line(op, type, false, n, in, whole, NULL, &err) == 0, "%s", err.message);
    ck_assert_msg(walk.last == test_load_bits(type, whole, n - 1u), "%s: last 0x%llx, the line's total 0x%llx", what,
                  (unsigned long long)walk.last, (unsigned long long)test_load_bits(type, whole, n - 1u));
    dmlconf_scan_walk_release(&walk);
    free(whole);
    free(pieces);
}

START_TEST(test_pieces_match_whole_line)
{
    test_rng rng;
    test_rng_seed(&rng, 0x5ca17a1cu + (uint64_t)_i);
    dmlconf_data_type type = all_types[_i % 6];
    for (int round = 0; round < 12; ++round)
    {
        size_t n = 1u + (size_t)test_rng_below(&rng, round < 6 ? 70u : 5000u);
        size_t size = test_element_bytes(type);
        void *in = malloc(n * size);
        ck_assert_ptr_nonnull(in);
        random_line(&rng, type, n, round % 3 == 0, in);
        for (int op = 0; op < 2; ++op)
            for (int exclusive = 0; exclusive < 2; ++exclusive)
                for (int reader = 0; reader < 2; ++reader)
                {
                    size_t max_piece = round % 2 ? 3u : 1u + (size_t)test_rng_below(&rng, n);
                    check_pieces(op ? PROD : SUM, type, exclusive != 0, n, in, reader != 0, max_piece, &rng,
                                 "random line");
                }
        free(in);
    }
}
END_TEST

/* The walk's last value is the inclusive result so far. */
START_TEST(test_last_is_inclusive_result)
{
    float in[5] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f};
    float out[5];
    dmlconf_scan_walk walk;
    ck_assert_int_eq(dmlconf_scan_walk_init(&walk, SUM, DMLCONF_DATA_TYPE_FLOAT32, true, NULL, NULL, NULL), 0);
    ck_assert_uint_eq(walk.last, 0u);
    ck_assert_int_eq(dmlconf_scan_walk_next(&walk, 2, in, out, NULL), 0);
    ck_assert(out[0] == 0.0f && out[1] == 1.0f);
    ck_assert_uint_eq(walk.last, test_f32_bits(3.0f));
    ck_assert_int_eq(dmlconf_scan_walk_next(&walk, 3, in + 2, out + 2, NULL), 0);
    ck_assert(out[2] == 3.0f && out[3] == 6.0f && out[4] == 10.0f);
    ck_assert_uint_eq(walk.last, test_f32_bits(15.0f));
    dmlconf_scan_walk_release(&walk);

    ck_assert_int_eq(dmlconf_scan_walk_init(&walk, PROD, DMLCONF_DATA_TYPE_FLOAT16, true, NULL, NULL, NULL), 0);
    ck_assert_uint_eq(walk.last, 0x3c00u); /* 1.0 */
    dmlconf_scan_walk_release(&walk);
    ck_assert_int_eq(dmlconf_scan_walk_init(&walk, PROD, DMLCONF_DATA_TYPE_UINT64, false, NULL, NULL, NULL), 0);
    ck_assert_uint_eq(walk.last, 1u);
    uint64_t big[2] = {UINT64_C(0x100000001), UINT64_C(0x100000001)}, big_out[2];
    ck_assert_int_eq(dmlconf_scan_walk_next(&walk, 1, big, big_out, NULL), 0);
    ck_assert_int_eq(dmlconf_scan_walk_next(&walk, 1, big + 1, big_out + 1, NULL), 0);
    ck_assert_uint_eq(big_out[1], UINT64_C(0x200000001)); /* wraps modulo 2^64 */
    ck_assert_uint_eq(walk.last, UINT64_C(0x200000001));
    dmlconf_scan_walk_release(&walk);
}
END_TEST

/* float32 sums near rounding boundaries after cancellations: the exact
 * fallback runs and reads earlier pieces through the reader. */
START_TEST(test_sum_fallback_reads_earlier_pieces)
{
    enum
    {
        N = 4000
    };
    static float in[N];
    test_rng rng;
    test_rng_seed(&rng, 77);
    /* Blocks that leave the double-word sum inexact (1 and 2^-60 are both
     * in its remainder) and then land the exact sum on a float32 midpoint,
     * 1 + 2^-24 (scaled): the interval test cannot decide it. */
    static const int block_exponents[8] = {80, -60, 0, 80, -60, -24, 0, -24};
    static const float block_signs[8] = {1, 1, 1, -1, -1, 1, -1, -1};
    for (size_t i = 0; i < N; i += 8)
    {
        int scale = (int)test_rng_below(&rng, 11) - 5;
        for (size_t k = 0; k < 8 && i + k < N; ++k)
            in[i + k] = block_signs[k] * ldexpf(1.0f, block_exponents[k] + scale);
    }
    float whole[N], pieces[N];
    oracle_sum_f32(false, N, in, whole);
    counted_line line = {(const unsigned char *)in, sizeof(float), 0, 0, false};
    dmlconf_scan_walk walk;
    dmlconf_error err;
    ck_assert_int_eq(dmlconf_scan_walk_init(&walk, SUM, DMLCONF_DATA_TYPE_FLOAT32, false, read_counted, &line, &err),
                     0);
    for (size_t done = 0; done < N; done += 7)
    {
        size_t piece = N - done < 7 ? N - done : 7;
        ck_assert_int_eq(dmlconf_scan_walk_next(&walk, piece, in + done, pieces + done, &err), 0);
    }
    for (size_t i = 0; i < N; ++i)
        test_assert_f32_bits_eq(pieces[i], whole[i], "element %zu", i);
    ck_assert_msg(line.calls > 0, "the fallback never read an earlier piece");
    ck_assert_uint_le(line.elements_read, N); /* each element at most once */
    dmlconf_scan_walk_release(&walk);
}
END_TEST

/* Products with the fallback forced every few outputs, in pieces through
 * the internal kernel: the fallback reads earlier pieces, the results are
 * the whole line's. */
START_TEST(test_product_fallback_reads_earlier_pieces)
{
    enum
    {
        N = 600
    };
    static float in[N];
    static uint16_t halves[N];
    test_rng rng;
    test_rng_seed(&rng, 78);
    random_line(&rng, DMLCONF_DATA_TYPE_FLOAT32, N, false, in);
    random_line(&rng, DMLCONF_DATA_TYPE_FLOAT16, N, false, halves);
    float whole[N], pieces[N];
    uint16_t whole_h[N], pieces_h[N];
    dmlconf_error err;
    ck_assert_int_eq(oracle_product_f32(false, N, in, whole, &err), 0);
    ck_assert_int_eq(oracle_product_f16(false, N, halves, whole_h, &err), 0);
    for (int half = 0; half < 2; ++half)
    {
        counted_line line = {half ? (const unsigned char *)halves : (const unsigned char *)in, half ? 2u : 4u, 0, 0,
                             false};
        oracle_history history = {read_counted, &line};
        product_walk walk;
        oracle_product_init(&walk);
        walk.fallback_period = 13;
        for (size_t done = 0; done < N; done += 11)
        {
            size_t piece = N - done < 11 ? N - done : 11;
            int status =
                half ? oracle_product_f16_next(&walk, done, piece, halves + done, pieces_h + done, &history, &err)
                     : oracle_product_f32_next(&walk, done, piece, in + done, pieces + done, &history, &err);
            ck_assert_msg(status == 0, "%s", err.message);
        }
        oracle_product_release(&walk);
        for (size_t i = 0; i < N; ++i)
        {
            if (half)
                test_assert_f16_bits_eq(pieces_h[i], whole_h[i], "float16 element %zu", i);
            else
                test_assert_f32_bits_eq(pieces[i], whole[i], "float32 element %zu", i);
        }
        ck_assert_msg(line.calls > 0, "the forced fallback never read an earlier piece");
    }
}
END_TEST

START_TEST(test_reader_failure_is_an_error)
{
    enum
    {
        N = 600
    };
    static float in[N], out[N];
    test_rng rng;
    test_rng_seed(&rng, 79);
    random_line(&rng, DMLCONF_DATA_TYPE_FLOAT32, N, false, in);
    counted_line line = {(const unsigned char *)in, 4, 0, 0, true};
    oracle_history history = {read_counted, &line};
    product_walk walk;
    oracle_product_init(&walk);
    walk.fallback_period = 5;
    dmlconf_error err;
    ck_assert_int_eq(oracle_product_f32_next(&walk, 0, 10, in, out, &history, &err), 0);
    ck_assert_int_eq(oracle_product_f32_next(&walk, 10, 10, in + 10, out + 10, &history, &err), -1);
    ck_assert_msg(strstr(err.message, "could not read elements") != NULL, "%s", err.message);
    oracle_product_release(&walk);

    /* No history at all: the kernel says what it needed. */
    oracle_history none = {NULL, NULL};
    ck_assert_int_eq(oracle_history_read(&none, 3, 2, out, &err), -1);
    ck_assert_msg(strstr(err.message, "no reader") != NULL, "%s", err.message);
}
END_TEST

/* The exact accumulator's array addition (the lagging sum's catch-up) is n
 * scalar additions: the same limbs and specials, over every kind of
 * float32 and across the normalisation. */
START_TEST(test_exact_sum_array)
{
    enum
    {
        N = 5000
    };
    static float x[N];
    test_rng rng;
    test_rng_seed(&rng, 80 + (uint64_t)_i);
    for (size_t i = 0; i < N; ++i)
    {
        uint32_t r = (uint32_t)test_rng_next(&rng);
        switch (test_rng_below(&rng, 10))
        {
        case 0:
            x[i] = test_f32_from_bits(r & 0x807fffffu); /* subnormal or zero */
            break;
        case 1:
            x[i] = test_f32_from_bits(_i % 2 ? (r | 0x7f800000u) : (r & 0x80000000u)); /* NaN or inf, or zero */
            break;
        default:
            x[i] = test_f32_from_bits(r);
            break;
        }
    }
    exact_acc scalar, array;
    exact_acc_init(&scalar);
    exact_acc_init(&array);
    /* Near the normalisation threshold, so that both normalise on the way. */
    scalar.adds = array.adds = (UINT32_C(1) << 30) - 1000u;
    for (size_t i = 0; i < N; ++i)
        exact_acc_add_f32(&scalar, x[i]);
    exact_acc_add_f32_array(&array, 1234, x);
    exact_acc_add_f32_array(&array, N - 1234, x + 1234);
    ck_assert_uint_eq(scalar.specials, array.specials);
    exact_acc_is_zero(&scalar); /* normalises */
    exact_acc_is_zero(&array);
    ck_assert(memcmp(scalar.limb, array.limb, sizeof(scalar.limb)) == 0);
    test_assert_f32_bits_eq(exact_acc_round_f32(&array), exact_acc_round_f32(&scalar), "the sums");
}
END_TEST

/* A float32 with a random sign and significand and the exponent field
 * `field`. */
static float random_with_field(test_rng *rng, uint32_t field)
{
    uint32_t r = (uint32_t)test_rng_next(rng);
    return test_f32_from_bits((r & 0x807fffffu) | (field << 23));
}

/* The array addition's blocks summed in one double: data of one scale,
 * blocks whose fields span exactly the most a block sum takes (21) and one
 * more, significands all at their largest with one sign (the sums closest
 * to 2^53 units), the largest finite fields, subnormals, zeros among large
 * values, a lone outlier or special in a block, and arrays of every length
 * around the block size, in pieces at odd offsets: the same limbs and
 * specials as the scalar additions. */
START_TEST(test_exact_sum_array_blocks)
{
    enum
    {
        N = 4099
    };
    static float x[N];
    test_rng rng;
    test_rng_seed(&rng, 0xb10cu + (uint64_t)_i);
    for (int round = 0; round < 40; ++round)
    {
        uint32_t top = 1u + (uint32_t)test_rng_below(&rng, 254u);
        uint32_t span = (uint32_t)test_rng_below(&rng, 3u) + 20u; /* 20, 21 or 22 */
        uint32_t bottom = top > span ? top - span : 0u;
        for (size_t i = 0; i < N; ++i)
        {
            switch (_i)
            {
            case 0: /* one scale, both signs */
                x[i] = random_with_field(&rng, top - (uint32_t)test_rng_below(&rng, top < 3u ? top : 3u));
                break;
            case 1: /* the span's two ends, and between */
            {
                uint32_t pick = (uint32_t)test_rng_below(&rng, 4u);
                x[i] = random_with_field(&rng, pick == 0 ? top : pick == 1 ? bottom : bottom + (top - bottom) / 2u);
                break;
            }
            case 2: /* the largest significand of one sign: sums near 2^53 units */
                x[i] = test_f32_from_bits((test_rng_below(&rng, 2u) ? top : bottom) << 23 | 0x7fffffu |
                                          (round % 2 ? 0x80000000u : 0u));
                break;
            case 3: /* subnormals and small normals, with zeros of both signs */
            {
                uint32_t r = (uint32_t)test_rng_next(&rng);
                uint32_t pick = (uint32_t)test_rng_below(&rng, 8u);
                x[i] = test_f32_from_bits(pick == 0   ? (r & 0x80000000u)
                                          : pick < 4u ? (r & 0x807fffffu)
                                                      : (r & 0x807fffffu) | ((1u + r % 22u) << 23));
                break;
            }
            default: /* one scale, with a rare outlier, zero or special */
            {
                uint32_t pick = (uint32_t)test_rng_below(&rng, 300u);
                uint32_t r = (uint32_t)test_rng_next(&rng);
                x[i] = pick == 0                     ? random_with_field(&rng, bottom > 0u ? bottom - 1u : 0u)
                       : pick == 1                   ? test_f32_from_bits(r & 0x80000000u)
                       : pick == 2 && round % 4 == 0 ? test_f32_from_bits(r | 0x7f800000u)
                                                     : random_with_field(&rng, top);
                break;
            }
            }
        }
        size_t n = round < 20 ? (size_t)round * 13u + 240u : N - (size_t)test_rng_below(&rng, 300u);
        size_t cut = (size_t)test_rng_below(&rng, n + 1u);
        exact_acc scalar, array;
        exact_acc_init(&scalar);
        exact_acc_init(&array);
        for (size_t i = 0; i < n; ++i)
            exact_acc_add_f32(&scalar, x[i]);
        exact_acc_add_f32_array(&array, cut, x);
        exact_acc_add_f32_array(&array, n - cut, x + cut);
        ck_assert_uint_eq(scalar.specials, array.specials);
        exact_acc_is_zero(&scalar); /* normalises */
        exact_acc_is_zero(&array);
        ck_assert_msg(memcmp(scalar.limb, array.limb, sizeof(scalar.limb)) == 0,
                      "kind %d round %d: %zu elements (cut at %zu), fields %u to %u: the limbs differ", _i, round, n,
                      cut, bottom, top);
    }
}
END_TEST

/* A line cut into segments: each summarised on its own, the summaries of
 * the segments before each combined, a walk resumed there (in pieces of
 * its own): the whole line's outputs and carried values, bit for bit. */
START_TEST(test_segments_resume)
{
    test_rng rng;
    test_rng_seed(&rng, 0x5e65u + (uint64_t)_i);
    dmlconf_data_type type = all_types[_i % 6];
    size_t size = test_element_bytes(type);
    for (int round = 0; round < 10; ++round)
    {
        size_t n = 1u + (size_t)test_rng_below(&rng, round < 5 ? 50u : 4000u);
        unsigned char *in = malloc(n * size), *whole = malloc(n * size), *got = malloc(n * size);
        ck_assert(in && whole && got);
        random_line(&rng, type, n, round % 3 == 0, in);
        if (round % 4 == 1)
            for (size_t i = 0; i < n && i < 7; ++i)
                test_store_bits(type, in, i, size == 2 ? 0x8000u : size == 4 ? 0x80000000u : 0); /* a -0 run */
        for (int op = 0; op < 2; ++op)
            for (int exclusive = 0; exclusive < 2; ++exclusive)
            {
                dmlconf_operator o = op ? PROD : SUM;
                dmlconf_error err;
                ck_assert_int_eq(dmlconf_scan_line(o, type, exclusive != 0, n, in, whole, NULL, &err), 0);
                /* Segment starts: 0 and a few random cut points. */
                size_t cuts[6] = {0};
                size_t cut_count = 1;
                for (int c = 0; c < 5; ++c)
                    cuts[cut_count++] = (size_t)test_rng_below(&rng, n + 1);
                for (size_t a = 1; a < cut_count; ++a) /* sort */
                    for (size_t b = a; b > 0 && cuts[b - 1] > cuts[b]; --b)
                    {
                        size_t t = cuts[b];
                        cuts[b] = cuts[b - 1];
                        cuts[b - 1] = t;
                    }
                dmlconf_scan_summary prefix;
                ck_assert_int_eq(dmlconf_scan_summary_init(&prefix, o, type, &err), 0);
                counted_line line = {in, size, 0, 0, false};
                for (size_t c = 0; c < cut_count; ++c)
                {
                    size_t begin = cuts[c], end = c + 1 < cut_count ? cuts[c + 1] : n;
                    dmlconf_scan_walk walk;
                    ck_assert_msg(dmlconf_scan_walk_resume(&walk, &prefix, exclusive != 0, read_counted, &line, &err) ==
                                      0,
                                  "%s", err.message);
                    ck_assert_uint_eq(walk.position, begin);
                    for (size_t done = begin; done < end;)
                    {
                        size_t piece = 1u + (size_t)test_rng_below(&rng, 300);
                        piece = piece < end - done ? piece : end - done;
                        ck_assert_int_eq(
                            dmlconf_scan_walk_next(&walk, piece, in + done * size, got + done * size, &err), 0);
                        done += piece;
                    }
                    dmlconf_scan_walk_release(&walk);
                    /* This segment's summary, on its own, then into the
                     * prefix. */
                    dmlconf_scan_summary segment;
                    ck_assert_int_eq(dmlconf_scan_summary_init(&segment, o, type, &err), 0);
                    dmlconf_scan_summary_add(&segment, end - begin, in + begin * size);
                    dmlconf_scan_summary_combine(&prefix, &segment);
                }
                ck_assert_uint_eq(prefix.count, n);
                for (size_t i = 0; i < n; ++i)
                    ck_assert_msg(test_load_bits(type, got, i) == test_load_bits(type, whole, i),
                                  "%s %s %s, n %zu: element %zu is 0x%llx, the whole line's 0x%llx",
                                  dmlconf_operator_name(o), dmlconf_data_type_name(type),
                                  exclusive ? "exclusive" : "inclusive", n, i,
                                  (unsigned long long)test_load_bits(type, got, i),
                                  (unsigned long long)test_load_bits(type, whole, i));
                /* A walk resumed after the whole line carries its total. */
                dmlconf_scan_walk after;
                ck_assert_int_eq(dmlconf_scan_walk_resume(&after, &prefix, true, read_counted, &line, &err), 0);
                ck_assert_int_eq(dmlconf_scan_line(o, type, false, n, in, whole, NULL, &err), 0);
                ck_assert_uint_eq(after.last, test_load_bits(type, whole, n - 1));
                dmlconf_scan_walk_release(&after);
            }
        free(in);
        free(whole);
        free(got);
    }
}
END_TEST

/* A product prefix the summary cannot round with certainty: the resumed
 * walk's carried value comes from the exact product, read through the
 * history. */
START_TEST(test_product_resume_fallback)
{
    enum
    {
        N = 300
    };
    static float in[N], whole[N];
    test_rng rng;
    test_rng_seed(&rng, 81);
    for (size_t i = 0; i < N; ++i)
        in[i] = 1.0f + (float)test_rng_below(&rng, 1u << 23) * 0x1p-23f / 64.0f; /* in [1, 1 + 2^-6): in range */
    ck_assert_int_eq(oracle_product_f32(false, N, in, whole, NULL), 0);
    product_summary summary;
    oracle_product_summary_init(&summary);
    oracle_product_f32_summary_add(&summary, 200, in);
    summary.value.error = 0.25; /* far too wide to round from */
    counted_line line = {(const unsigned char *)in, 4, 0, 0, false};
    oracle_history history = {read_counted, &line};
    product_walk walk;
    uint32_t last = 0;
    dmlconf_error err;
    ck_assert_int_eq(oracle_product_resume(&walk, &summary, false, 200, &history, &last, &err), 0);
    test_assert_f32_bits_eq(test_f32_from_bits(last), whole[199], "the prefix's product");
    ck_assert_uint_eq(line.elements_read, 200);
    oracle_product_release(&walk);
    /* Without a history it is an error that says so. */
    oracle_history none = {NULL, NULL};
    ck_assert_int_eq(oracle_product_resume(&walk, &summary, false, 200, &none, &last, &err), -1);
    ck_assert_msg(strstr(err.message, "no reader") != NULL, "%s", err.message);
    oracle_product_release(&walk);
}
END_TEST

START_TEST(test_init_errors)
{
    dmlconf_scan_walk walk;
    dmlconf_error err;
    ck_assert_int_eq(
        dmlconf_scan_walk_init(&walk, (dmlconf_operator)7, DMLCONF_DATA_TYPE_FLOAT32, false, NULL, NULL, &err), -1);
    ck_assert_msg(strstr(err.message, "not a cumulative operator") != NULL, "%s", err.message);
    ck_assert_int_eq(dmlconf_scan_walk_init(&walk, SUM, DMLCONF_DATA_TYPE_UINT16, false, NULL, NULL, &err), -1);
    ck_assert_msg(strstr(err.message, "not computable") != NULL, "%s", err.message);
    dmlconf_scan_walk_release(&walk); /* harmless after a failed start */
    dmlconf_scan_summary summary;
    ck_assert_int_eq(dmlconf_scan_summary_init(&summary, PROD, DMLCONF_DATA_TYPE_FLOAT64, &err), -1);
    ck_assert_msg(strstr(err.message, "not computable") != NULL, "%s", err.message);
    ck_assert_int_eq(dmlconf_scan_walk_init(&walk, SUM, DMLCONF_DATA_TYPE_INT32, false, NULL, NULL, NULL), 0);
    ck_assert_int_eq(dmlconf_scan_walk_next(&walk, 0, NULL, NULL, NULL), 0); /* nothing to do */
    dmlconf_scan_walk_release(&walk);
}
END_TEST

static Suite *scan_walk_suite(void)
{
    Suite *suite = suite_create("scan_walk");
    TCase *tc = tcase_create("pieces");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_pieces_match_whole_line, 0, 18);
    tcase_add_test(tc, test_last_is_inclusive_result);
    tcase_add_loop_test(tc, test_segments_resume, 0, 18);
    tcase_add_test(tc, test_product_resume_fallback);
    suite_add_tcase(suite, tc);
    tc = tcase_create("fallbacks");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_sum_fallback_reads_earlier_pieces);
    tcase_add_test(tc, test_product_fallback_reads_earlier_pieces);
    tcase_add_test(tc, test_reader_failure_is_an_error);
    tcase_add_loop_test(tc, test_exact_sum_array, 0, 4);
    tcase_add_loop_test(tc, test_exact_sum_array_blocks, 0, 5);
    tcase_add_test(tc, test_init_errors);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    return test_run_suite(scan_walk_suite());
}
