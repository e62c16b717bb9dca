/*
 * Tests of the docgen library: the page parser on odd inputs (blocks cut
 * short, garbage numbers, mismatched brackets: an error with its line, never
 * a crash), the tensor layout and the explanatory comments render writes,
 * and render, check and update together on other data types and ranks
 * (float16, int64, uint64, rank 1, rank 5), on CRLF pages and on pages whose
 * numbers change width. Pages in other languages are tested in
 * test_languages.c, the explanatory comments of pages in test_comments.c;
 * this file's main runs every suite.
 */
#include "test_util.h"

#include <dmlconf/docgen.h>
#include <dmlconf/file_system.h>
#include <dmlconf/values.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F16     DMLCONF_DATA_TYPE_FLOAT16
#define F32     DMLCONF_DATA_TYPE_FLOAT32
#define I32     DMLCONF_DATA_TYPE_INT32
#define I64     DMLCONF_DATA_TYPE_INT64
#define U64     DMLCONF_DATA_TYPE_UINT64
#define SUM     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION
#define PRODUCT DMLCONF_OPERATOR_CUMULATIVE_PRODUCT
#define UP      DMLCONF_AXIS_DIRECTION_INCREASING
#define DOWN    DMLCONF_AXIS_DIRECTION_DECREASING

/* ---- helpers ---------------------------------------------------------------- */

static dmlconf_scan_desc make_desc(dmlconf_operator op, dmlconf_data_type type, uint32_t rank, const uint32_t *sizes,
                                   uint32_t axis, dmlconf_axis_direction direction, bool exclusive)
{
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = op;
    desc.input.data_type = type;
    desc.input.dimension_count = rank;
    memcpy(desc.input.sizes, sizes, rank * sizeof(sizes[0]));
    desc.output = desc.input;
    desc.axis = axis;
    desc.direction = direction;
    desc.exclusive = exclusive;
    return desc;
}

/* An input block and one example block, as render writes them. */
static char *render_page(const dmlconf_scan_desc *desc, const void *input, bool explain)
{
    dmlconf_buffer text = {0};
    docgen_render_options options = {.explain = explain, .markdown = true};
    dmlconf_buffer_puts(&text, "# A page\n\nSome prose.\n\n");
    docgen_render_input(&text, &desc->input, input, &options);
    dmlconf_buffer_puts(&text, "\nMore prose: Axis, InputTensor and OutputTensor in a sentence.\n\n");
    dmlconf_error err;
    ck_assert_msg(docgen_render_example(&text, desc, input, &options, &err) == 0, "%s", err.message);
    dmlconf_buffer_puts(&text, "\nThe end.\n");
    ck_assert(!text.failed);
    return text.data;
}

/* Render a page, check it is up to date, change one number, see check point
 * at its line and update give the page back. */
static void round_trip(const dmlconf_scan_desc *desc, const void *input, const char *after, const char *from,
                       const char *to)
{
    char *text = render_page(desc, input, true);
    docgen_page page;
    ck_assert_uint_eq(load(&page, text), 0);
    ck_assert_uint_eq(page.example_count, 1);
    ck_assert_uint_eq(check_page(&page, NULL), 0);
    docgen_page_free(&page);

    uint32_t line;
    char *changed = replace_at(text, after, from, to, &line);
    char *all = NULL;
    ck_assert_msg(load(&page, changed) == 0, "%s", all = messages(&page));
    free(all);
    docgen_verdict *verdicts;
    ck_assert_uint_eq(check_page(&page, &verdicts), 1);
    ck_assert_uint_eq(verdicts[0].line, line);
    docgen_verdict_free(&verdicts[0]);
    free(verdicts);
    docgen_page_free(&page);

    char *back = updated(changed);
    ck_assert_str_eq(back, text);
    free(back);
    free(changed);
    free(text);
}

/* ---- the parser on odd inputs -------------------------------------------------- */

#define INPUT         "InputTensor: (Sizes:{2,2}, DataType:INT32)\n[[1, 2],\n [3, 4]]\n\n"
#define PARAMETERS    "Axis: 1\nAxisDirection: DML_AXIS_DIRECTION_INCREASING\nHasExclusiveSum: FALSE\n\n"
#define OUTPUT_HEADER "OutputTensor: (Sizes:{2,2}, DataType:INT32)\n"
#define OUTPUT        OUTPUT_HEADER "[[1, 3],\n [3, 7]]\n"

typedef struct bad_page
{
    const char *text;
    uint32_t line; /* of the first error */
    uint32_t column;
    const char *message; /* part of the first error */
} bad_page;

static const bad_page bad_pages[] = {
    /* Blocks cut short. */
    {INPUT "Axis: 1\nAxisDirection: DML_AXIS_DIRECTION_INCREASING\n", 6, 45,
     "the example block that starts at line 5 is cut short by the end of the page"},
    {INPUT PARAMETERS "```\n" OUTPUT, 9, 1,
     "the example block that starts at line 5 is cut short: expected a parameter"},
    {INPUT PARAMETERS "Some prose.\n" OUTPUT, 9, 1, "found 'Some prose.'"},
    {INPUT PARAMETERS INPUT OUTPUT, 9, 1, "an InputTensor comes before its OutputTensor"},
    {INPUT PARAMETERS OUTPUT_HEADER "[[1, 3],\n", 10, 9, "cut short by the end of the page (1 ']' missing)"},
    {INPUT PARAMETERS OUTPUT_HEADER "[[1, 3],\n```\n", 11, 1, "cut short by a code fence (1 ']' missing)"},
    {INPUT PARAMETERS OUTPUT_HEADER "[[1, 3],\n [3, 7]\n\nExample 2.\n", 13, 1,
     "the tensor that starts at line 10 is cut short here (1 ']' missing)"},
    {INPUT PARAMETERS OUTPUT_HEADER "\n[[1, 3],\n [3, 7]]\n", 10, 1, "expected the tensor's values"},
    {"InputTensor: (Sizes:{2,2}, DataType:INT32)\n", 1, 43, "expected the tensor's values"},
    /* Garbage numbers. */
    {INPUT PARAMETERS OUTPUT_HEADER "[[1, 3x],\n [3, 7]]\n", 10, 6, "'3x' is not a number"},
    {"InputTensor: (Sizes:{2}, DataType:INT32)\n[1, two]\n", 2, 5, "'two' is not a number"},
    {"InputTensor: (Sizes:{2}, DataType:INT32)\n[1, 1.5]\n", 2, 5, "1.5"},
    {"InputTensor: (Sizes:{2}, DataType:UINT32)\n[1, -1]\n", 2, 5, "-1 is out of range for uint32"},
    {"InputTensor: (Sizes:{1}, DataType:FLOAT16)\n[70000]\n", 2, 2, "70000"},
    {"InputTensor: (Sizes:{2}, DataType:INT32)\n[1 2]\n", 2, 4, "expected ',' or ']' before '2'"},
    {"InputTensor: (Sizes:{2}, DataType:INT32)\n[1, 2,]\n", 2, 7, "expected a value after ','"},
    {"InputTensor: (Sizes:{2}, DataType:INT32)\n[1,, 2]\n", 2, 4, "unexpected ','"},
    /* Mismatched brackets and shapes. */
    {"InputTensor: (Sizes:{2,2}, DataType:INT32)\n[[1, 2],\n [3, 4]]]\n", 3, 9, "one ']' too many"},
    {"InputTensor: (Sizes:{2,2}, DataType:INT32)\n[[1, 2],\n [3]]\n", 3, 2,
     "this list has 1 item, but the first list at its depth (line 2) has 2"},
    {"InputTensor: (Sizes:{2,2}, DataType:INT32)\n[[1, 2],\n 3]\n", 3, 2, "a list holds both lists and numbers"},
    {"InputTensor: (Sizes:{2,2}, DataType:INT32)\n[1, [2]]\n", 2, 5, "a list holds both numbers and lists"},
    {"InputTensor: (Sizes:{2,2}, DataType:INT32)\n[[1, 2, 3],\n [4, 5, 6]]\n", 2, 2,
     "the values have the shape {2,3}, but the header at line 1 says {2,2}"},
    {"InputTensor: (Sizes:{2,2}, DataType:INT32)\n[1, 2, 3, 4]\n", 2, 1, "the values have the shape {4}"},
    {"InputTensor: (Sizes:{1}, DataType:INT32)\n[]\n", 2, 1, "an empty list"},
    {"InputTensor: (Sizes:{1}, DataType:INT32)\n[[[[[[[[[1]]]]]]]]]\n", 2, 9, "nested deeper than 8"},
    {"InputTensor: (Sizes:{2}, DataType:INT32)\n[1, 2] x\n", 2, 8, "unexpected 'x' after the tensor's closing ']'"},
    /* Headers. */
    {"InputTensor: (Sizes:{2,0}, DataType:INT32)\n[[1]]\n", 1, 24, "size 0 is out of range"},
    {"InputTensor: (Sizes:{}, DataType:INT32)\n[1]\n", 1, 22, "expected a size"},
    {"InputTensor: (Sizes:{1,1,1,1,1,1,1,1,1}, DataType:INT32)\n[1]\n", 1, 38, "more than 8 sizes"},
    {"InputTensor: (Sizes:{2}, DataType:FLOAT33)\n[1, 2]\n", 1, 35, "unknown data type 'FLOAT33'"},
    {"InputTensor: (Sizes:{2}, DataType:UINT16)\n[1, 2]\n", 1, 14, "DataType UINT16"},
    {"InputTensor: (Sizes {2}, DataType:INT32)\n[1, 2]\n", 1, 21, "expected 'Sizes:{'"},
    {"InputTensor: (Sizes:{2} DataType:INT32)\n[1, 2]\n", 1, 25, "expected ', DataType:'"},
    {"InputTensor: (Sizes:{2}, DataType:INT32\n[1, 2]\n", 1, 40, "expected ')'"},
    {"InputTensor: (Sizes:{2}, DataType:INT32) and more\n[1, 2]\n", 1, 42, "unexpected text after the tensor's"},
    /* Parameters. */
    {INPUT "Axis: one\nAxisDirection: DML_AXIS_DIRECTION_INCREASING\nHasExclusiveSum: FALSE\n\n" OUTPUT, 5, 7,
     "Axis must be a dimension index (0, 1, ...), not 'one'"},
    {INPUT "Axis: 1\nAxisDirection: UP\nHasExclusiveSum: FALSE\n\n" OUTPUT, 6, 16, "AxisDirection must be"},
    {INPUT "Axis: 1\nAxisDirection: DML_AXIS_DIRECTION_INCREASING\nHasExclusiveSum: MAYBE\n\n" OUTPUT, 7, 18,
     "HasExclusiveSum must be TRUE or FALSE, not 'MAYBE'"},
    {INPUT "Axis: 1\nAxis: 0\nAxisDirection: DML_AXIS_DIRECTION_INCREASING\nHasExclusiveSum: FALSE\n\n" OUTPUT, 6, 1,
     "Axis is given twice in this example block (first at line 5)"},
    {INPUT PARAMETERS "HasExclusiveProduct: FALSE\n" OUTPUT, 9, 1, "not both"},
    {INPUT "Axis: 1\nHasExclusiveSum: FALSE\n\n" OUTPUT, 5, 1, "this example block has no AxisDirection line"},
    {INPUT "Axis: 1\nAxisDirection: DML_AXIS_DIRECTION_INCREASING\n\n" OUTPUT, 5, 1,
     "has no HasExclusiveSum or HasExclusiveProduct line"},
    {INPUT "Axis: 2\nAxisDirection: DML_AXIS_DIRECTION_INCREASING\nHasExclusiveSum: FALSE\n\n" OUTPUT, 5, 7,
     "out of range for a 2-D tensor"},
    /* "Axis: 1 2" may be prose: the block starts at the next line, without its Axis. */
    {INPUT "Axis: 1 2\nAxisDirection: DML_AXIS_DIRECTION_INCREASING\nHasExclusiveSum: FALSE\n\n" OUTPUT, 6, 1,
     "this example block has no Axis line"},
    {INPUT "Axis: 1\nAxisDirection: DML_AXIS_DIRECTION_INCREASING extra\nHasExclusiveSum: FALSE\n\n" OUTPUT, 6, 45,
     "expected 'AxisDirection: ' and one value"},
    {PARAMETERS OUTPUT, 1, 1, "this example block has no InputTensor above it"},
    {INPUT OUTPUT, 5, 1, "an OutputTensor without the parameter lines"},
};

START_TEST(test_bad_pages)
{
    const bad_page *bad = &bad_pages[_i];
    docgen_page page;
    size_t errors = load(&page, bad->text);
    char *all = messages(&page);
    ck_assert_msg(errors >= 1, "no error for case %d", _i);
    const dmlconf_diagnostic *first = &page.diagnostics.items[0];
    ck_assert_msg(strstr(first->message, bad->message) != NULL, "case %d: '%s' lacks '%s'", _i, first->message,
                  bad->message);
    ck_assert_msg(first->line == bad->line && first->column == bad->column, "case %d: at %u:%u, expected %u:%u (%s)",
                  _i, first->line, first->column, bad->line, bad->column, all);
    ck_assert_str_eq(first->file, "page.md");
    /* What a bad block breaks is left out; nothing else is checked. */
    ck_assert_uint_eq(check_page(&page, NULL), 0);
    free(all);
    docgen_page_free(&page);
}
END_TEST

START_TEST(test_snippet_and_position)
{
    docgen_page page;
    load(&page, "Intro \xc3\xa9t\xc3\xa9\n" INPUT PARAMETERS OUTPUT_HEADER "[[1, 3],\n [3,  7x]]\n");
    char *all = messages(&page);
    ck_assert_str_eq(all, "page.md:12:7: error: '7x' is not a number\n"
                          " [3,  7x]]\n"
                          "      ^\n");
    free(all);
    docgen_page_free(&page);
}
END_TEST

/* After a broken block, the next blocks are still read and checked. */
START_TEST(test_errors_do_not_stop_the_page)
{
    docgen_page page;
    size_t errors = load(&page, INPUT "Axis: 7\nAxisDirection: DML_AXIS_DIRECTION_INCREASING\nHasExclusiveSum: "
                                      "FALSE\n\n" OUTPUT "\n" PARAMETERS OUTPUT_HEADER "[[1, 3],\n [3, 8]]\n"
                                      "\nInputTensor: (Sizes:{2}, DataType:INT32)\n[1, x]\n\n" PARAMETERS OUTPUT);
    ck_assert_uint_eq(errors, 2);
    ck_assert_uint_eq(page.diagnostics.items[0].line, 5);
    ck_assert_uint_eq(page.diagnostics.items[1].line, 22);
    ck_assert_uint_eq(page.example_count, 1); /* the last one's input is broken */
    docgen_verdict *verdicts;
    ck_assert_uint_eq(check_page(&page, &verdicts), 1);
    ck_assert_uint_eq(verdicts[0].line, 19);
    ck_assert_uint_eq(verdicts[0].column, 6);
    ck_assert_str_eq(verdicts[0].summary, "element [1,1] is 8 on the page, the oracle computes 7");
    docgen_verdict_free(&verdicts[0]);
    free(verdicts);
    docgen_page_free(&page);
}
END_TEST

START_TEST(test_garbage_pages)
{
    static const char *const pages[] = {
        "",
        "\n\n\n",
        "[[[[",
        "]]]] // nothing",
        "InputTensor:",
        "InputTensor: (",
        "InputTensor: (Sizes:{99999999999}, DataType:INT32)\n[1]",
        "InputTensor: (Sizes:{1}, DataType:INT32)\n[",
        "InputTensor: (Sizes:{1}, DataType:INT32)\n[1",
        "InputTensor: (Sizes:{1}, DataType:INT32)\n[1]\nAxis: 0\n",
        "OutputTensor: (Sizes:{1}, DataType:INT32)\n[1]",
        "Axis: 0",
        "Axis:",
        "HasExclusiveSum: TRUE\r\n\r\nOutputTensor: (Sizes:{1}, DataType:INT32)\r\n[1]\r\n",
    };
    for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); ++i)
    {
        docgen_page page;
        load(&page, pages[i]);
        char *all = messages(&page);
        ck_assert_uint_eq(check_page(&page, NULL), 0);
        free(all);
        docgen_page_free(&page);
    }
    /* NUL bytes and invalid UTF-8 are only bytes. */
    static const char binary[] = "InputTensor: (Sizes:{2}, DataType:INT32)\n[1, 2\0]\n\xff\xfe[1]\n";
    docgen_page page;
    ck_assert_uint_eq(docgen_page_load_buffer(&page, "page.md", binary, sizeof(binary) - 1), 1);
    docgen_page_free(&page);
}
END_TEST

START_TEST(test_unreadable_page)
{
    docgen_page page;
    ck_assert_uint_eq(docgen_page_load(&page, "/nonexistent/page.md"), 1);
    ck_assert_str_eq(page.diagnostics.items[0].message, "cannot open the page: cannot open: No such file or directory");
    ck_assert_uint_eq(page.diagnostics.items[0].line, 0);
    docgen_page_free(&page);
}
END_TEST

/* ---- the layout and the comments ----------------------------------------------- */

START_TEST(test_layout_ranks)
{
    static const char *const one[] = {"1", "-20", "300"};
    static const char *const five[] = {"1", "2",  "3",  "4",  "5",  "6",  "7",  "8",
                                       "9", "10", "11", "12", "13", "14", "15", "16"};
    void *values = values_of(I32, one, 3);
    dmlconf_buffer text = {0};
    docgen_format_tensor(&text, I32, 1, (const uint32_t[]){3}, values);
    ck_assert_str_eq(text.data, "[1, -20, 300]\n");
    free(values);
    dmlconf_buffer_free(&text);

    values = values_of(I32, five, 16);
    docgen_format_tensor(&text, I32, 5, (const uint32_t[]){2, 1, 2, 2, 2}, values);
    ck_assert_str_eq(text.data, "[[[[[ 1,  2],\n"
                                "    [ 3,  4]],\n"
                                "\n"
                                "   [[ 5,  6],\n"
                                "    [ 7,  8]]]],\n"
                                "\n"
                                " [[[[ 9, 10],\n"
                                "    [11, 12]],\n"
                                "\n"
                                "   [[13, 14],\n"
                                "    [15, 16]]]]]\n");
    dmlconf_buffer_free(&text);
    docgen_format_tensor_header(&text, "OutputTensor", I32, 5, (const uint32_t[]){2, 1, 2, 2, 2});
    ck_assert_str_eq(text.data, "OutputTensor: (Sizes:{2,1,2,2,2}, DataType:INT32)\n");
    dmlconf_buffer_free(&text);
    free(values);
}
END_TEST

START_TEST(test_explain)
{
    static const char *const line[] = {"2", "1", "3", "5"};
    static const char *const negative[] = {"2", "-1", "3", "-5"};
    void *values = values_of(F32, line, 4);
    void *minus = values_of(F32, negative, 4);
    static const struct
    {
        dmlconf_operator op;
        bool exclusive;
        dmlconf_axis_direction direction;
        bool negative;
        const char *text;
    } cases[] = {
        {SUM, false, UP, false, "2, 2+1, 2+1+3, 2+1+3+5"},
        {SUM, true, UP, false, "0, 2, 2+1, 2+1+3"},
        {SUM, false, DOWN, false, "2+1+3+5, 1+3+5, 3+5, 5"},
        {SUM, true, DOWN, false, "1+3+5, 3+5, 5, 0"},
        {PRODUCT, false, UP, false, "2, 2*1, 2*1*3, 2*1*3*5"},
        {PRODUCT, true, UP, false, "1, 2, 2*1, 2*1*3"},
        {PRODUCT, false, DOWN, false, "2*1*3*5, 1*3*5, 3*5, 5"},
        {SUM, false, UP, true, "2, 2-1, 2-1+3, 2-1+3-5"},
        {PRODUCT, false, DOWN, true, "2*(-1)*3*(-5), -1*3*(-5), 3*(-5), -5"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i)
    {
        dmlconf_buffer text = {0};
        for (size_t j = 0; j < 4; ++j)
        {
            if (j)
                dmlconf_buffer_puts(&text, ", ");
            docgen_explain_element(&text, cases[i].op, F32, cases[i].exclusive, cases[i].direction, 4,
                                   cases[i].negative ? minus : values, j);
        }
        ck_assert_str_eq(text.data, cases[i].text);
        dmlconf_buffer_free(&text);
    }
    free(minus);
    free(values);
}
END_TEST

START_TEST(test_explain_rows)
{
    static const char *const input[] = {"2", "1", "3", "5", "3", "8", "7", "3", "9", "6", "2", "4"};
    void *values = values_of(F32, input, 12);
    const uint32_t sizes[] = {1, 1, 3, 4};
    dmlconf_scan_desc along = make_desc(SUM, F32, 4, sizes, 3, UP, false);
    dmlconf_scan_desc down = make_desc(PRODUCT, F32, 4, sizes, 2, UP, false);
    dmlconf_scan_desc other = make_desc(SUM, F32, 4, sizes, 1, UP, false);
    static const char *const along_rows[] = {"i.e. [2, 2+1, 2+1+3, 2+1+3+5]", "     [...                   ]",
                                             "     [...                   ]"};
    static const char *const down_rows[] = {"i.e. [2,    ...]", "     [2*3,  ...]", "     [2*3*9 ...]"};
    for (uint64_t row = 0; row < 4; ++row)
    {
        dmlconf_buffer text = {0};
        ck_assert(docgen_explain_row(&text, &along, values, row) == (row < 3));
        ck_assert_str_eq(text.data ? text.data : "", row < 3 ? along_rows[row] : "");
        dmlconf_buffer_free(&text);
        ck_assert(docgen_explain_row(&text, &down, values, row) == (row < 3));
        ck_assert_str_eq(text.data ? text.data : "", row < 3 ? down_rows[row] : "");
        dmlconf_buffer_free(&text);
        ck_assert(!docgen_explain_row(&text, &other, values, row));
        dmlconf_buffer_free(&text);
    }
    free(values);
}
END_TEST

/* ---- other data types and ranks ------------------------------------------------ */

START_TEST(test_float16)
{
    static const char *const input[] = {"0.5", "0.25", "0.1", "65504", "-2", "1.5"};
    void *values = values_of(F16, input, 6);
    const uint32_t sizes[] = {2, 3};
    dmlconf_scan_desc desc = make_desc(SUM, F16, 2, sizes, 1, UP, false);
    char *text = render_page(&desc, values, false);
    /* 65504 is written 65500, the shortest decimal that rounds to it. */
    ck_assert_ptr_nonnull(strstr(text, "InputTensor: (Sizes:{2,3}, DataType:FLOAT16)\n"
                                       "[[  0.5, 0.25, 0.1],\n"
                                       " [65500,   -2, 1.5]]\n"));
    ck_assert_ptr_nonnull(strstr(text, "[[  0.5,  0.75,  0.85],\n"
                                       " [65500, 65500, 65500]]\n"));
    free(text);
    round_trip(&desc, values, "OutputTensor:", "0.85", "0.84");
    round_trip(&desc, values, "OutputTensor:", "65500", "inf");
    desc.op = PRODUCT;
    round_trip(&desc, values, "OutputTensor:", "0.5", "-0.0");
    free(values);
}
END_TEST

START_TEST(test_int64)
{
    static const char *const input[] = {"9223372036854775807", "1", "-9223372036854775808", "-1", "5", "7"};
    void *values = values_of(I64, input, 6);
    const uint32_t sizes[] = {6};
    dmlconf_scan_desc desc = make_desc(SUM, I64, 1, sizes, 0, UP, false);
    char *text = render_page(&desc, values, true);
    /* Rank 1: one row, commented. */
    ck_assert_ptr_nonnull(strstr(text, "[9223372036854775807, -9223372036854775808, 0, -1, 4, 11]   // i.e. "
                                       "[9223372036854775807, 9223372036854775807+1, "));
    free(text);
    round_trip(&desc, values, "OutputTensor:", "-1,", "1,");
    round_trip(&desc, values, "OutputTensor:", "11]", "12]");
    desc.exclusive = true;
    desc.direction = DOWN;
    round_trip(&desc, values, "OutputTensor:", ", 0]", ", 1]");
    free(values);
}
END_TEST

START_TEST(test_uint64_rank5)
{
    const char *input[32];
    char texts[32][24];
    for (int i = 0; i < 32; ++i)
    {
        snprintf(texts[i], sizeof(texts[i]), "%d", i % 5 == 0 ? 3 : i % 7);
        input[i] = texts[i];
    }
    input[31] = "18446744073709551615";
    void *values = values_of(U64, input, 32);
    const uint32_t sizes[] = {2, 2, 2, 2, 2};
    for (uint32_t axis = 0; axis < 5; ++axis)
    {
        dmlconf_scan_desc desc =
            make_desc(axis % 2 ? PRODUCT : SUM, U64, 5, sizes, axis, axis == 2 ? DOWN : UP, axis == 4);
        char *text = render_page(&desc, values, true);
        docgen_page page;
        ck_assert_uint_eq(load(&page, text), 0);
        ck_assert_uint_eq(page.example_count, 1);
        ck_assert_uint_eq(page.examples[0].output.literal_rank, 5);
        ck_assert_uint_eq(check_page(&page, NULL), 0);
        docgen_page_free(&page);
        free(text);
    }
    /* The last element of the output, in the last block of the rank-5 tensor. */
    dmlconf_scan_desc desc = make_desc(SUM, U64, 5, sizes, 4, UP, false);
    round_trip(&desc, values, "OutputTensor:", "]]]]]", "0]]]]]");
    round_trip(&desc, values, "OutputTensor:", "]]]],", "0]]]],");
    free(values);
}
END_TEST

/* ---- check and update -------------------------------------------------------- */

#define PAGE_INPUT                                                                                                     \
    "InputTensor: (Sizes:{1,1,3,4}, DataType:FLOAT32)\n"                                                               \
    "[[[[2, 1, 3, 5],\n"                                                                                               \
    "   [3, 8, 7, 3],\n"                                                                                               \
    "   [9, 6, 2, 4]]]]\n"

/* Summation Example 3, with the pages' own padding of its last column. */
#define PAGE_EXAMPLE3                                                                                                  \
    "Axis: 3\n"                                                                                                        \
    "AxisDirection: DML_AXIS_DIRECTION_DECREASING\n"                                                                   \
    "HasExclusiveSum: FALSE\n"                                                                                         \
    "\n"                                                                                                               \
    "OutputTensor: (Sizes:{1,1,3,4}, DataType:FLOAT32)\n"                                                              \
    "[[[[11,  9,  8,  5],    // i.e. [2+1+3+5, 1+3+5, 3+5, 5]\n"                                                       \
    "   [21, 18, 10,  3],    //      [...                   ]\n"                                                       \
    "   [21, 12,  6,  4]]]]  //      [...                   ]\n"

START_TEST(test_up_to_date_whatever_the_alignment)
{
    static const char *const pages[] = {
        PAGE_INPUT "\n" PAGE_EXAMPLE3,
        /* Unaligned, on one line, values written otherwise (2.0, 1.1e1). */
        PAGE_INPUT "\nAxis: 3\nAxisDirection: DML_AXIS_DIRECTION_DECREASING\nHasExclusiveSum: FALSE\n\n"
                   "OutputTensor: (Sizes:{1,1,3,4}, DataType:FLOAT32)\n"
                   "[[[[1.1e1,9,8.0,5],[21,18,10,3],[21,12,6,4]]]]\n",
        /* Tabs, indentation and CRLF. */
        "  InputTensor: (Sizes:{2}, DataType:INT32)\r\n  [\t1,\t2]\r\n\r\n  Axis: 0\r\n  AxisDirection: "
        "DML_AXIS_DIRECTION_INCREASING\r\n  HasExclusiveProduct: TRUE\r\n\r\n  OutputTensor: (Sizes:{2}, "
        "DataType:INT32)\r\n  [1,\t 1] // the end\r\n",
    };
    for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); ++i)
    {
        docgen_page page;
        ck_assert_uint_eq(load(&page, pages[i]), 0);
        ck_assert_uint_eq(page.example_count, 1);
        ck_assert_uint_eq(check_page(&page, NULL), 0);
        docgen_page_free(&page);
        char *same = updated(pages[i]);
        ck_assert_str_eq(same, pages[i]);
        free(same);
    }
}
END_TEST

START_TEST(test_update_keeps_padding_and_moves_comments)
{
    /* 5 -> 95 in the input: the first column widens by one, the last one
     * keeps its extra space; the comments move by the widest line's change,
     * the explanation follows the input and its placeholders stay aligned
     * with it. */
    char *page = replace(PAGE_INPUT "\n" PAGE_EXAMPLE3, "[[[[2", "3, 5]", "3, 95]");
    char *after = updated(page);
    ck_assert_ptr_nonnull(strstr(after, "[[[[101, 99, 98,  95],    // i.e. [2+1+3+95, 1+3+95, 3+95, 95]\n"
                                        "   [ 21, 18, 10,   3],    //      [...                       ]\n"
                                        "   [ 21, 12,  6,   4]]]]  //      [...                       ]\n"));
    /* And back: the page as it was. */
    char *back_input = replace(after, "[[[[2", "3, 95]", "3, 5]");
    char *back = updated(back_input);
    ck_assert_str_eq(back, PAGE_INPUT "\n" PAGE_EXAMPLE3);
    free(back);
    free(back_input);
    free(after);
    free(page);
}
END_TEST

START_TEST(test_update_crlf_and_tabs)
{
    const char *page = "InputTensor: (Sizes:{2}, DataType:INT32)\r\n[1, 2]\r\n\r\nAxis: 0\r\nAxisDirection: "
                       "DML_AXIS_DIRECTION_INCREASING\r\nHasExclusiveSum: FALSE\r\n\r\nOutputTensor: (Sizes:{2}, "
                       "DataType:INT32)\r\n[1,\t4]\t// tabbed\r\n";
    char *after = updated(page);
    ck_assert_str_eq(after, "InputTensor: (Sizes:{2}, DataType:INT32)\r\n[1, 2]\r\n\r\nAxis: 0\r\nAxisDirection: "
                            "DML_AXIS_DIRECTION_INCREASING\r\nHasExclusiveSum: FALSE\r\n\r\nOutputTensor: (Sizes:{2}, "
                            "DataType:INT32)\r\n[1,\t3]\t// tabbed\r\n");
    free(after);
}
END_TEST

START_TEST(test_update_new_shape)
{
    /* The input grew a column: header and values are written anew, each line
     * keeping its comment; the diff shows the change. */
    const char *page = "InputTensor: (Sizes:{2,3}, DataType:INT32)\n[[1, 2, 3],\n [4, 5, 6]]\n\n"
                       "Axis: 1\nAxisDirection: DML_AXIS_DIRECTION_INCREASING\nHasExclusiveSum: FALSE\n\n"
                       "OutputTensor: (Sizes:{2,2}, DataType:INT32)\n"
                       "[[1, 3],   // first\n"
                       " [4, 9]]   // second\n"
                       "Prose.\n";
    char *after = updated(page);
    ck_assert_str_eq(after, "InputTensor: (Sizes:{2,3}, DataType:INT32)\n[[1, 2, 3],\n [4, 5, 6]]\n\n"
                            "Axis: 1\nAxisDirection: DML_AXIS_DIRECTION_INCREASING\nHasExclusiveSum: FALSE\n\n"
                            "OutputTensor: (Sizes:{2,3}, DataType:INT32)\n"
                            "[[1, 3,  6],   // first\n"
                            " [4, 9, 15]]   // second\n"
                            "Prose.\n");
    free(after);

    docgen_page parsed;
    ck_assert_uint_eq(load(&parsed, page), 0);
    docgen_verdict *verdicts;
    ck_assert_uint_eq(check_page(&parsed, &verdicts), 1);
    ck_assert_uint_eq(verdicts[0].line, 9);
    ck_assert_uint_eq(verdicts[0].column, 15);
    dmlconf_buffer diff = {0};
    docgen_format_diff(&diff, &parsed, &verdicts[0]);
    ck_assert_str_eq(diff.data, "--- page.md\n+++ page.md (oracle)\n"
                                "@@ -9,3 +9,3 @@\n"
                                "-OutputTensor: (Sizes:{2,2}, DataType:INT32)\n"
                                "-[[1, 3],   // first\n"
                                "- [4, 9]]   // second\n"
                                "+OutputTensor: (Sizes:{2,3}, DataType:INT32)\n"
                                "+[[1, 3,  6],   // first\n"
                                "+ [4, 9, 15]]   // second\n");
    dmlconf_buffer_free(&diff);
    docgen_verdict_free(&verdicts[0]);
    free(verdicts);
    docgen_page_free(&parsed);
}
END_TEST

START_TEST(test_nan_matches_any_nan)
{
    const char *page = "InputTensor: (Sizes:{3}, DataType:FLOAT32)\n[1, bits:0x7fc00001, 2]\n\n"
                       "Axis: 0\nAxisDirection: DML_AXIS_DIRECTION_INCREASING\nHasExclusiveSum: FALSE\n\n"
                       "OutputTensor: (Sizes:{3}, DataType:FLOAT32)\n[1, nan, -nan]\n";
    docgen_page parsed;
    ck_assert_uint_eq(load(&parsed, page), 0);
    ck_assert_uint_eq(check_page(&parsed, NULL), 0);
    docgen_page_free(&parsed);
}
END_TEST

START_TEST(test_write_file)
{
    const char *path = "test_docgen_write.txt";
    char why[256];
    ck_assert_int_eq(dmlconf_write_file_atomically(path, "one\n", 4, false, why, sizeof(why)), 0);
    ck_assert_int_eq(dmlconf_write_file_atomically(path, "two\n", 4, false, why, sizeof(why)), 0);
    docgen_page page;
    /* A page of prose: read, and an error for its lack of example blocks. */
    ck_assert_uint_eq(docgen_page_load(&page, path), 1);
    ck_assert_ptr_nonnull(strstr(page.diagnostics.items[0].message, "no example block found"));
    ck_assert_uint_eq(page.size, 4);
    ck_assert_int_eq(memcmp(page.text, "two\n", 4), 0);
    docgen_page_free(&page);
    remove(path);
    ck_assert_int_eq(dmlconf_write_file_atomically("/nonexistent/dir/page.md", "x", 1, false, why, sizeof(why)), -1);
    ck_assert_msg(strstr(why, "/nonexistent/dir/page.md: cannot create a temporary file beside it") != NULL, "%s",
                  why);
}
END_TEST

static Suite *docgen_suite(void)
{
    Suite *suite = suite_create("docgen");
    TCase *tc = tcase_create("parser");
    tcase_add_loop_test(tc, test_bad_pages, 0, (int)(sizeof(bad_pages) / sizeof(bad_pages[0])));
    tcase_add_test(tc, test_snippet_and_position);
    tcase_add_test(tc, test_errors_do_not_stop_the_page);
    tcase_add_test(tc, test_garbage_pages);
    tcase_add_test(tc, test_unreadable_page);
    suite_add_tcase(suite, tc);

    tc = tcase_create("layout");
    tcase_add_test(tc, test_layout_ranks);
    tcase_add_test(tc, test_explain);
    tcase_add_test(tc, test_explain_rows);
    suite_add_tcase(suite, tc);

    tc = tcase_create("types_and_ranks");
    tcase_add_test(tc, test_float16);
    tcase_add_test(tc, test_int64);
    tcase_add_test(tc, test_uint64_rank5);
    suite_add_tcase(suite, tc);

    tc = tcase_create("update");
    tcase_add_test(tc, test_up_to_date_whatever_the_alignment);
    tcase_add_test(tc, test_update_keeps_padding_and_moves_comments);
    tcase_add_test(tc, test_update_crlf_and_tabs);
    tcase_add_test(tc, test_update_new_shape);
    tcase_add_test(tc, test_nan_matches_any_nan);
    tcase_add_test(tc, test_write_file);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(docgen_suite());
    srunner_add_suite(runner, languages_suite());
    srunner_add_suite(runner, comments_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
