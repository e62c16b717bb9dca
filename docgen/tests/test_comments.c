/*
 * Tests of the explanatory comments: which comments are explanations (and
 * which are prose, left alone), how their arithmetic is checked against the
 * oracle (rows, columns, bare expressions, "= N", products with negative
 * factors, terms in reverse order, decimal commas), what check reports and
 * how update rewrites them, keeping aligned brackets aligned.
 */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#define ROWS_INPUT                                                                                                     \
    "InputTensor: (Sizes:{2,4}, DataType:INT32)\n"                                                                     \
    "[[4, 1, 2, 6],\n"                                                                                                 \
    " [1, 3, 5, 2]]\n"                                                                                                 \
    "\n"
#define ROWS_BLOCK                                                                                                     \
    "Axis: 1\n"                                                                                                        \
    "AxisDirection: DML_AXIS_DIRECTION_INCREASING\n"                                                                   \
    "HasExclusiveSum: FALSE\n"                                                                                         \
    "\n"                                                                                                               \
    "OutputTensor: (Sizes:{2,4}, DataType:INT32)\n"
#define ROWS ROWS_INPUT ROWS_BLOCK

#define COLUMNS_INPUT                                                                                                  \
    "InputTensor: (Sizes:{3,2}, DataType:INT32)\n"                                                                     \
    "[[4, 1],\n"                                                                                                       \
    " [2, 3],\n"                                                                                                       \
    " [6, 5]]\n"                                                                                                       \
    "\n"
#define COLUMNS_BLOCK                                                                                                  \
    "Axis: 0\n"                                                                                                        \
    "AxisDirection: DML_AXIS_DIRECTION_INCREASING\n"                                                                   \
    "HasExclusiveSum: FALSE\n"                                                                                         \
    "\n"                                                                                                               \
    "OutputTensor: (Sizes:{3,2}, DataType:INT32)\n"

#define VECTOR(values, direction, flag)                                                                                \
    "InputTensor: (Sizes:{4}, DataType:INT32)\n[" values "]\n\nAxis: 0\nAxisDirection: DML_AXIS_DIRECTION_" direction  \
    "\n" flag "\n\nOutputTensor: (Sizes:{4}, DataType:INT32)\n"

typedef struct comment_case
{
    const char *text;
    size_t stale;          /* comment lines out of date */
    uint32_t line, column; /* the first one */
    const char *summary;   /* part of the verdict's summary */
    const char *fixed;     /* the page after update (NULL: as it is) */
} comment_case;

static const comment_case cases[] = {
    /* 0. The row form, right. */
    {ROWS "[[4, 5, 7, 13],   // i.e. [4, 4+1, 4+1+2, 4+1+2+6]\n"
          " [1, 4, 9, 11]]   //      [...                   ]\n",
     0, 0, 0, NULL, NULL},
    /* 1. A wrong item of the row form. */
    {ROWS "[[4, 5, 7, 13],   // i.e. [4, 4+1, 4+1+2, 4+1+2+5]\n"
          " [1, 4, 9, 11]]   //      [...                   ]\n",
     1, 10, 43, "the comment explains element [0,3] as 4+1+2+5, the oracle's terms are 4+1+2+6",
     ROWS "[[4, 5, 7, 13],   // i.e. [4, 4+1, 4+1+2, 4+1+2+6]\n"
          " [1, 4, 9, 11]]   //      [...                   ]\n"},
    /* 2. A longer item: the placeholders under it follow its bracket. */
    {ROWS "[[4, 5, 7, 13],   // i.e. [4, 4+1, 4+1+2, 4+1+2+16]\n"
          " [1, 4, 9, 11]]   //      [...                    ]\n",
     1, 10, 43, "as 4+1+2+16, the oracle's terms are 4+1+2+6",
     ROWS "[[4, 5, 7, 13],   // i.e. [4, 4+1, 4+1+2, 4+1+2+6]\n"
          " [1, 4, 9, 11]]   //      [...                   ]\n"},
    /* 3. The column form, right. */
    {COLUMNS_INPUT COLUMNS_BLOCK "[[ 4, 1],   // i.e. [4,    ...]\n"
                                 " [ 6, 4],   //      [4+2,  ...]\n"
                                 " [12, 9]]   //      [4+2+6 ...]\n",
     0, 0, 0, NULL, NULL},
    /* 4. Its last row wrong and wider: the other rows' "...]" follow. */
    {COLUMNS_INPUT COLUMNS_BLOCK "[[ 4, 1],   // i.e. [4,     ...]\n"
                                 " [ 6, 4],   //      [4+2,   ...]\n"
                                 " [12, 9]]   //      [4+2+16 ...]\n",
     1, 13, 22, "the comment explains element [2,0] as 4+2+16, the oracle's terms are 4+2+6",
     COLUMNS_INPUT COLUMNS_BLOCK "[[ 4, 1],   // i.e. [4,    ...]\n"
                                 " [ 6, 4],   //      [4+2,  ...]\n"
                                 " [12, 9]]   //      [4+2+6 ...]\n"},
    /* 5. A bare expression after "d.h.": the element with its terms. */
    {VECTOR("4, 1, 2, 6", "DECREASING", "HasExclusiveSum: FALSE") "[13, 9, 8, 6]   // d.h. 1+2+6\n", 0, 0, 0, NULL,
     NULL},
    /* 6. Wrong: the element with as many terms. */
    {VECTOR("4, 1, 2, 6", "DECREASING", "HasExclusiveSum: FALSE") "[13, 9, 8, 6]   // d.h. 1+2+7\n", 1, 9, 25,
     "the comment explains element [1] as 1+2+7, the oracle's terms are 1+2+6",
     VECTOR("4, 1, 2, 6", "DECREASING", "HasExclusiveSum: FALSE") "[13, 9, 8, 6]   // d.h. 1+2+6\n"},
    /* 7. "= N": the result is checked too, on either side. */
    {VECTOR("4, 1, 2, 6", "DECREASING", "HasExclusiveSum: FALSE") "[13, 9, 8, 6]   // d.h. 1+2+6 = 10\n", 1, 9, 33,
     "the comment gives element [1] as 10, the oracle computes 9",
     VECTOR("4, 1, 2, 6", "DECREASING", "HasExclusiveSum: FALSE") "[13, 9, 8, 6]   // d.h. 1+2+6 = 9\n"},
    {VECTOR("4, 1, 2, 6", "DECREASING", "HasExclusiveSum: FALSE") "[13, 9, 8, 6]   // 13 = 4+1+2+6\n", 0, 0, 0, NULL,
     NULL},
    /* 9. Arithmetic without "i.e." or "=" may be prose: left alone. */
    {VECTOR("4, 1, 2, 6", "DECREASING", "HasExclusiveSum: FALSE") "[13, 9, 8, 6]   // 1+2+7\n", 0, 0, 0, NULL, NULL},
    {VECTOR("4, 1, 2, 6", "DECREASING", "HasExclusiveSum: FALSE") "[13, 9, 8, 6]   // see pages 3-4\n", 0, 0, 0, NULL,
     NULL},
    {VECTOR("4, 1, 2, 6", "DECREASING",
            "HasExclusiveSum: FALSE") "[13, 9, 8, 6]   // the first value is the sum of all four\n",
     0, 0, 0, NULL, NULL},
    /* 12. Products: negative factors in parentheses, any order, × too. */
    {VECTOR("2, -1, 3, 1", "INCREASING", "HasExclusiveProduct: FALSE") "[2, -2, -6, -6]   // i.e. [2, 2*(-1), "
                                                                       "3*(-1)*2, 2\xc3\x97(-1)\xc3\x97"
                                                                       "3\xc3\x97"
                                                                       "1]\n",
     0, 0, 0, NULL, NULL},
    /* 13. The wrong operator. */
    {VECTOR("4, 1, 2, 6", "INCREASING", "HasExclusiveSum: FALSE") "[4, 5, 7, 13]   // i.e. [4, 4*1, ...]\n", 1, 9, 29,
     "the comment explains element [1] as 4*1, the oracle's terms are 4+1",
     VECTOR("4, 1, 2, 6", "INCREASING", "HasExclusiveSum: FALSE") "[4, 5, 7, 13]   // i.e. [4, 4+1, ...]\n"},
    /* 14. More items than the row has elements: the extra ones go. */
    {VECTOR("4, 1, 2, 6", "INCREASING", "HasExclusiveSum: FALSE") "[4, 5, 7, 13]   // i.e. [4, 4+1, 4+1+2, 4+1+2+6, "
                                                                  "4+1+2+6+0]\n",
     1, 9, 50, "as 4+1+2+6+0, the oracle's terms are nothing: the row has fewer elements",
     VECTOR("4, 1, 2, 6", "INCREASING", "HasExclusiveSum: FALSE") "[4, 5, 7, 13]   // i.e. [4, 4+1, 4+1+2, 4+1+2+6]\n"},
    /* 15. The values themselves, and the empty sum of an exclusive scan. */
    {VECTOR("4, 1, 2, 6", "INCREASING", "HasExclusiveSum: TRUE") "[0, 4, 5, 7]   // = [0, 4, 4+1, 7]\n", 0, 0, 0, NULL,
     NULL},
    /* 16. Decimal commas. */
    {"ms.contentlocale: fr-FR\nInputTensor: (Sizes:{2}, DataType:FLOAT32)\n[0,5, 1,5]\n\nAxis: 0\nAxisDirection: "
     "DML_AXIS_DIRECTION_INCREASING\nHasExclusiveSum: FALSE\n\nOutputTensor: (Sizes:{2}, DataType:FLOAT32)\n[0,5, 2]  "
     " // c.-\xc3\xa0-d. [0,5; 0,5+1,25]\n",
     1, 10, 29, "as 0,5+1,25, the oracle's terms are 0,5+1,5",
     "ms.contentlocale: fr-FR\nInputTensor: (Sizes:{2}, DataType:FLOAT32)\n[0,5, 1,5]\n\nAxis: 0\nAxisDirection: "
     "DML_AXIS_DIRECTION_INCREASING\nHasExclusiveSum: FALSE\n\nOutputTensor: (Sizes:{2}, DataType:FLOAT32)\n[0,5, 2]  "
     " // c.-\xc3\xa0-d. [0,5; 0,5+1,5]\n"},
    /* 17. Comments of an input are not explanations. */
    {"InputTensor: (Sizes:{2}, DataType:INT32)\n[1, 2]   // i.e. [7, 7+7]\n\nAxis: 0\nAxisDirection: "
     "DML_AXIS_DIRECTION_INCREASING\nHasExclusiveSum: FALSE\n\nOutputTensor: (Sizes:{2}, DataType:INT32)\n[1, 3]\n",
     0, 0, 0, NULL, NULL},
};

START_TEST(test_comments)
{
    const comment_case *c = &cases[_i];
    docgen_page page;
    char *all = NULL;
    ck_assert_msg(load(&page, c->text) == 0, "case %d: %s", _i, all = messages(&page));
    free(all);
    ck_assert_uint_eq(page.example_count, 1);
    docgen_verdict *verdicts;
    check_page(&page, &verdicts);
    const docgen_verdict *v = &verdicts[0];
    ck_assert_msg(v->stale_comments == c->stale, "case %d: %zu stale comments (%s)", _i, v->stale_comments, v->summary);
    ck_assert_uint_eq(v->differing, 0);
    ck_assert_int_eq(v->stale, c->stale != 0);
    if (c->stale)
    {
        ck_assert_msg(v->line == c->line && v->column == c->column, "case %d: at %u:%u (%s)", _i, v->line, v->column,
                      v->summary);
        ck_assert_msg(strstr(v->summary, c->summary) != NULL, "case %d: %s", _i, v->summary);
    }
    docgen_verdict_free(&verdicts[0]);
    free(verdicts);
    docgen_page_free(&page);

    char *after = updated(c->text);
    ck_assert_str_eq(after, c->fixed ? c->fixed : c->text);
    free(after);
    if (c->fixed)
    {
        /* What update writes, check finds up to date. */
        ck_assert_uint_eq(load(&page, c->fixed), 0);
        ck_assert_uint_eq(check_page(&page, NULL), 0);
        docgen_page_free(&page);
    }
}
END_TEST

/* An input change: the numbers and the explanations follow, the placeholders
 * stay aligned, and back again the page is as it was. */
START_TEST(test_comments_follow_the_input)
{
    const char *page = ROWS "[[4, 5, 7, 13],   // i.e. [4, 4+1, 4+1+2, 4+1+2+6]\n"
                            " [1, 4, 9, 11]]   //      [...                   ]\n";
    char *changed = replace(page, "[[4, 1", "2, 6]", "2, 16]");
    char *after = updated(changed);
    ck_assert_ptr_nonnull(strstr(after, "[[4, 5, 7, 23],   // i.e. [4, 4+1, 4+1+2, 4+1+2+16]\n"
                                        " [1, 4, 9, 11]]   //      [...                    ]\n"));
    char *back_input = replace(after, "[[4, 1", "2, 16]", "2, 6]");
    char *back = updated(back_input);
    ck_assert_str_eq(back, page);
    free(back);
    free(back_input);
    free(after);
    free(changed);
}
END_TEST

/* A new shape: the values are written anew, and each line's explanation is
 * checked against the row now on it. */
START_TEST(test_comments_of_a_new_shape)
{
    const char *page = "InputTensor: (Sizes:{1,3}, DataType:INT32)\n[[1, 2, 3]]\n\nAxis: 1\nAxisDirection: "
                       "DML_AXIS_DIRECTION_INCREASING\nHasExclusiveSum: FALSE\n\nOutputTensor: (Sizes:{1,2}, "
                       "DataType:INT32)\n[[4, 9]]   // i.e. [4, 4+5]\n";
    char *after = updated(page);
    ck_assert_ptr_nonnull(strstr(after, "OutputTensor: (Sizes:{1,3}, DataType:INT32)\n"
                                        "[[1, 3, 6]]   // i.e. [1, 1+2]\n"));
    free(after);
}
END_TEST

Suite *comments_suite(void)
{
    Suite *suite = suite_create("docgen comments");
    TCase *tc = tcase_create("explanations");
    tcase_add_loop_test(tc, test_comments, 0, (int)(sizeof(cases) / sizeof(cases[0])));
    tcase_add_test(tc, test_comments_follow_the_input);
    tcase_add_test(tc, test_comments_of_a_new_shape);
    suite_add_tcase(suite, tc);
    return suite;
}
