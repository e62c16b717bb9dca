/*
 * Tests of dmlconf_diagnose: outputs broken on purpose in the ways real
 * kernels break (an element left out of every line, the other mode, the
 * other direction, the other operator, nothing computed, float16
 * accumulation, a stretch of garbage) must be named for what they are, in
 * every operator, type, direction and mode where the fault shows; garbage
 * with no pattern must be named none.
 */
#include <check.h>
#include <dmlconf/diagnosis.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUM  DMLCONF_OPERATOR_CUMULATIVE_SUMMATION
#define PROD DMLCONF_OPERATOR_CUMULATIVE_PRODUCT

/* A test case: [lines, n] along axis 1, packed. */
typedef struct scan
{
    dmlconf_scan_desc desc;
    size_t size; /* bytes an element */
    uint64_t count;
    uint64_t bytes; /* a buffer's size: the elements, rounded up to 4 bytes */
    unsigned char *input;
    unsigned char *output;   /* what the broken implementation wrote */
    unsigned char *expected; /* the right values, given as the case's own (as the corpus gives them), or NULL */
    bool read_input;         /* the input given through a reader, not a buffer */
} scan;

static uint64_t load(const unsigned char *buffer, size_t size, uint64_t index)
{
    uint64_t value = 0;
    memcpy(&value, buffer + index * size, size); /* little-endian hosts */
    return value;
}

static void store(unsigned char *buffer, size_t size, uint64_t index, uint64_t value)
{
    memcpy(buffer + index * size, &value, size);
}

/* Small values that keep products exact and sums away from zero: 1 to 3
 * (signed types: also -1 and -2). */
static uint64_t element(dmlconf_data_type type, uint64_t i)
{
    static const int values[] = {2, 3, 1, -1, 2, -2, 3, 1, 2, 3, -1, 1, 2};
    int v = values[i % (sizeof(values) / sizeof(values[0]))];
    switch (type)
    {
    case DMLCONF_DATA_TYPE_FLOAT32:
    {
        float f = (float)v * (i % 5 == 3 ? 1.25f : 1.0f);
        uint32_t bits;
        memcpy(&bits, &f, sizeof(bits));
        return bits;
    }
    case DMLCONF_DATA_TYPE_FLOAT16:
        return dmlconf_half_from_double((double)v * (i % 5 == 3 ? 1.25 : 1.0));
    case DMLCONF_DATA_TYPE_UINT32:
    case DMLCONF_DATA_TYPE_UINT64:
        return (uint64_t)(v < 0 ? -v : v);
    case DMLCONF_DATA_TYPE_INT32:
        return (uint32_t)v;
    default:
        return (uint64_t)(int64_t)v;
    }
}

static void scan_init(scan *s, dmlconf_operator op, dmlconf_data_type type, uint32_t lines, uint32_t n, bool exclusive,
                      bool decreasing)
{
    memset(s, 0, sizeof(*s));
    s->desc.op = op;
    s->desc.axis = 1;
    s->desc.exclusive = exclusive;
    s->desc.direction = decreasing ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING;
    s->desc.input.data_type = type;
    s->desc.input.dimension_count = 2;
    s->desc.input.sizes[0] = lines;
    s->desc.input.sizes[1] = n;
    s->desc.output = s->desc.input;
    s->size = dmlconf_data_type_bits(type) / 8u;
    s->count = (uint64_t)lines * n;
    ck_assert(dmlconf_tensor_min_size_bytes(&s->desc.input, &s->bytes));
    s->input = calloc(1, s->bytes);
    s->output = calloc(1, s->bytes);
    ck_assert(s->input && s->output);
    for (uint64_t i = 0; i < s->count; ++i)
        store(s->input, s->size, i, element(type, i * 7 + i / n));
}

static void scan_free(scan *s)
{
    free(s->input);
    free(s->output);
    free(s->expected);
}

/* The oracle's output of `desc` over `input` into s->output. */
static void compute(const scan *s, const dmlconf_scan_desc *desc, const unsigned char *input)
{
    dmlconf_error err;
    ck_assert_msg(dmlconf_compute(desc, input, s->bytes, s->output, s->bytes, NULL, &err) == 0, "%s", err.message);
}

/* Gives the case its own expected values (the right ones), as the corpus'
 * cases have them: the diagnosis must judge its hypotheses against the
 * oracle's values of each, never against these. */
static void give_expected(scan *s)
{
    dmlconf_error err;
    s->expected = calloc(1, s->bytes);
    ck_assert_ptr_nonnull(s->expected);
    ck_assert_msg(dmlconf_compute(&s->desc, s->input, s->bytes, s->expected, s->bytes, NULL, &err) == 0, "%s",
                  err.message);
}

/* The input through a reader, as the runner gives an in-place case's. */
static int read_input(void *context, uint64_t first, uint64_t count, void *out, char *why, size_t why_size)
{
    const scan *s = context;
    (void)why;
    (void)why_size;
    memcpy(out, s->input + first * s->size, (size_t)count * s->size);
    return 0;
}

/* Judges s->output and diagnoses it; the case must have failed. Its input
 * comes through a reader when s->read_input is set. */
static dmlconf_pattern diagnose(const scan *s, uint64_t *position)
{
    dmlconf_compare_job job = {
        .desc = &s->desc,
        .input = {.buffer = s->input, .bytes = s->bytes},
        .expected = {.buffer = s->expected, .bytes = s->expected ? s->bytes : 0},
        .actual = s->output,
        .actual_bytes = s->bytes,
    };
    if (s->read_input)
        job.input = (dmlconf_tensor_source){.read = read_input, .context = (void *)s};
    dmlconf_comparison *c = malloc(sizeof(*c));
    dmlconf_error err;
    dmlconf_pattern pattern;

    ck_assert_ptr_nonnull(c);
    ck_assert_msg(dmlconf_compare_tensor(&job, c, &err) == 0, "%s", err.message);
    ck_assert_msg(c->mismatches > 0, "the broken output passed");
    ck_assert_uint_eq(c->axis_length, s->desc.input.sizes[1]);
    ck_assert_uint_eq(c->lines, s->desc.input.sizes[0]);
    dmlconf_diagnose(&job, c);
    pattern = c->pattern;
    *position = c->pattern_position;
    free(c);
    return pattern;
}

static const dmlconf_data_type types[] = {DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_FLOAT16,
                                          DMLCONF_DATA_TYPE_INT32,   DMLCONF_DATA_TYPE_UINT32,
                                          DMLCONF_DATA_TYPE_INT64,   DMLCONF_DATA_TYPE_UINT64};
#define TYPE_COUNT (sizeof(types) / sizeof(types[0]))

/* Loop index -> operator, type, mode, direction. */
static void pick(int i, dmlconf_operator *op, dmlconf_data_type *type, bool *exclusive, bool *decreasing)
{
    *op = i % 2 ? PROD : SUM;
    *exclusive = (i / 2) % 2;
    *decreasing = (i / 4) % 2;
    *type = types[(i / 8) % TYPE_COUNT];
}

#define LOOPS (int)(8 * TYPE_COUNT)

static void expect(dmlconf_pattern got, dmlconf_pattern want, int i, const char *what)
{
    ck_assert_msg(got == want, "%s (case %d): pattern '%s', expected '%s'", what, i, dmlconf_pattern_name(got),
                  dmlconf_pattern_name(want));
}

/* The second element in scan order left out of every line (the d3d12
 * backend's drop-element fault). */
START_TEST(test_element_left_out)
{
    dmlconf_operator op;
    dmlconf_data_type type;
    bool exclusive, decreasing;
    scan s;
    uint64_t position = 99;

    pick(_i, &op, &type, &exclusive, &decreasing);
    scan_init(&s, op, type, 3, 9, exclusive, decreasing);
    if (_i % 3 == 0)
        give_expected(&s);
    s.read_input = _i % 3 == 1;
    unsigned char *dropped = malloc(s.bytes);
    ck_assert_ptr_nonnull(dropped);
    memcpy(dropped, s.input, s.bytes);
    for (uint64_t line = 0; line < 3; ++line)
        store(dropped, s.size, line * 9 + (decreasing ? 7 : 1), op == PROD ? element(type, 2) : 0);
    compute(&s, &s.desc, dropped);
    expect(diagnose(&s, &position), DMLCONF_PATTERN_ELEMENT_LEFT_OUT, _i, "an element left out");
    ck_assert_uint_eq(position, 1);
    free(dropped);
    scan_free(&s);
}
END_TEST

/* Exclusive scans that store the inclusive value, and the reverse. */
START_TEST(test_other_mode)
{
    dmlconf_operator op;
    dmlconf_data_type type;
    bool exclusive, decreasing;
    scan s;
    uint64_t position;

    pick(_i, &op, &type, &exclusive, &decreasing);
    scan_init(&s, op, type, 2, 7, exclusive, decreasing);
    if (_i % 3 == 0)
        give_expected(&s);
    s.read_input = _i % 3 == 1;
    dmlconf_scan_desc other = s.desc;
    other.exclusive = !exclusive;
    compute(&s, &other, s.input);
    expect(diagnose(&s, &position), DMLCONF_PATTERN_OTHER_MODE, _i, "the other mode");
    scan_free(&s);
}
END_TEST

START_TEST(test_reversed)
{
    dmlconf_operator op;
    dmlconf_data_type type;
    bool exclusive, decreasing;
    scan s;
    uint64_t position;

    pick(_i, &op, &type, &exclusive, &decreasing);
    scan_init(&s, op, type, 2, 6, exclusive, decreasing);
    if (_i % 3 == 0)
        give_expected(&s);
    s.read_input = _i % 3 == 1;
    dmlconf_scan_desc other = s.desc;
    other.direction = decreasing ? DMLCONF_AXIS_DIRECTION_INCREASING : DMLCONF_AXIS_DIRECTION_DECREASING;
    compute(&s, &other, s.input);
    expect(diagnose(&s, &position), DMLCONF_PATTERN_REVERSED, _i, "the other direction");
    scan_free(&s);
}
END_TEST

START_TEST(test_other_operator)
{
    dmlconf_operator op;
    dmlconf_data_type type;
    bool exclusive, decreasing;
    scan s;
    uint64_t position;

    pick(_i, &op, &type, &exclusive, &decreasing);
    scan_init(&s, op, type, 2, 6, exclusive, decreasing);
    if (_i % 3 == 0)
        give_expected(&s);
    s.read_input = _i % 3 == 1;
    dmlconf_scan_desc other = s.desc;
    other.op = op == SUM ? PROD : SUM;
    compute(&s, &other, s.input);
    expect(diagnose(&s, &position), DMLCONF_PATTERN_OTHER_OPERATOR, _i, "the other operator");
    scan_free(&s);
}
END_TEST

START_TEST(test_input_copied)
{
    dmlconf_operator op;
    dmlconf_data_type type;
    bool exclusive, decreasing;
    scan s;
    uint64_t position;

    pick(_i, &op, &type, &exclusive, &decreasing);
    scan_init(&s, op, type, 2, 6, exclusive, decreasing);
    if (_i % 3 == 0)
        give_expected(&s);
    s.read_input = _i % 3 == 1;
    memcpy(s.output, s.input, s.count * s.size);
    expect(diagnose(&s, &position), DMLCONF_PATTERN_INPUT_COPIED, _i, "the input copied");
    scan_free(&s);
}
END_TEST

/* Where the wrong elements are, when nothing else explains them: garbage
 * at the first position, at the last, from position 3 on, everywhere; and
 * scattered garbage, which has no pattern. */
START_TEST(test_positions)
{
    dmlconf_operator op;
    dmlconf_data_type type;
    bool exclusive, decreasing;
    scan s;
    uint64_t position = 0;

    pick(_i, &op, &type, &exclusive, &decreasing);
    /* Far from any element of these scans (which stay below 10^5). */
    const uint64_t garbage = type == DMLCONF_DATA_TYPE_FLOAT32   ? UINT64_C(0x4b000000) /* 2^23 */
                             : type == DMLCONF_DATA_TYPE_FLOAT16 ? UINT64_C(0x7000)     /* 8192 */
                                                                 : UINT64_C(0x5a5a5a5a);
    scan_init(&s, op, type, 4, 8, exclusive, decreasing);
    if (_i % 3 == 0)
        give_expected(&s);
    s.read_input = _i % 3 == 1;
    for (int where = 0; where < 5; ++where)
    {
        compute(&s, &s.desc, s.input);
        for (uint64_t line = 0; line < 4; ++line)
        {
            for (uint64_t j = 0; j < 8; ++j)
            {
                bool wrong = where == 0   ? j == 0
                             : where == 1 ? j == 7
                             : where == 2 ? j >= 3
                             : where == 3 ? true
                                          : (line * 8 + j) % 5 == 2;
                uint64_t a = decreasing ? 7 - j : j;
                if (wrong)
                    store(s.output, s.size, line * 8 + a, garbage + line * 8 + a);
            }
        }
        static const dmlconf_pattern wanted[] = {DMLCONF_PATTERN_FIRST_ONLY, DMLCONF_PATTERN_LAST_ONLY,
                                                 DMLCONF_PATTERN_FROM_POSITION, DMLCONF_PATTERN_EVERY_ELEMENT,
                                                 DMLCONF_PATTERN_NONE};
        static const char *const names[] = {"the first position", "the last position", "from position 3",
                                            "every element", "scattered"};
        expect(diagnose(&s, &position), wanted[where], _i, names[where]);
        if (where == 2)
            ck_assert_uint_eq(position, 3);
    }
    scan_free(&s);
}
END_TEST

/* float16 data summed in float16, one rounding a step: outside the float32
 * accumulator's bound, inside float16's. */
START_TEST(test_float16_accumulation)
{
    scan s;
    uint64_t position;
    const uint32_t n = 600;

    scan_init(&s, SUM, DMLCONF_DATA_TYPE_FLOAT16, 2, n, _i % 2, _i / 2);
    for (uint64_t i = 0; i < s.count; ++i)
        store(s.input, s.size, i, dmlconf_half_from_double(0.1 + 0.013 * (double)(i % 17)));
    for (uint64_t line = 0; line < 2; ++line)
    {
        uint16_t acc = 0;
        for (uint64_t j = 0; j < n; ++j)
        {
            uint64_t a = _i / 2 ? n - 1 - j : j;
            uint64_t at = line * n + a;
            uint16_t x = (uint16_t)load(s.input, s.size, at);
            uint16_t next =
                dmlconf_half_from_double((double)dmlconf_half_to_float(acc) + (double)dmlconf_half_to_float(x));
            store(s.output, s.size, at, _i % 2 ? acc : next);
            acc = next;
        }
    }
    expect(diagnose(&s, &position), DMLCONF_PATTERN_FLOAT16_ACCUMULATION, _i, "float16 accumulation");
    scan_free(&s);
}
END_TEST

START_TEST(test_names)
{
    for (int p = 0; p < DMLCONF_PATTERN_COUNT; ++p)
    {
        dmlconf_pattern back = DMLCONF_PATTERN_COUNT;
        const char *name = dmlconf_pattern_name((dmlconf_pattern)p);
        ck_assert_ptr_nonnull(name);
        ck_assert(dmlconf_pattern_from_name(name, &back));
        ck_assert_int_eq(back, p);
    }
    ck_assert_ptr_null(dmlconf_pattern_name(DMLCONF_PATTERN_COUNT));
    ck_assert(!dmlconf_pattern_from_name("dropped", NULL));
}
END_TEST

static Suite *diagnosis_suite(void)
{
    Suite *suite = suite_create("diagnosis");
    TCase *tc = tcase_create("hypotheses");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_element_left_out, 0, LOOPS);
    tcase_add_loop_test(tc, test_other_mode, 0, LOOPS);
    tcase_add_loop_test(tc, test_reversed, 0, LOOPS);
    tcase_add_loop_test(tc, test_other_operator, 0, LOOPS);
    tcase_add_loop_test(tc, test_input_copied, 0, LOOPS);
    tcase_add_loop_test(tc, test_float16_accumulation, 0, 4);
    suite_add_tcase(suite, tc);
    tc = tcase_create("positions");
    tcase_add_loop_test(tc, test_positions, 0, LOOPS);
    tcase_add_test(tc, test_names);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(diagnosis_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
