/*
 * Tests of the YAML tree reader (dmlconf/yaml_tree.h): the tree of a good
 * file with its marks, and every refusal at its file:line:column, with the
 * source line and caret the diagnostics print.
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <dmlconf/yaml_tree.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads `text` as "t.yaml"; returns the tree or NULL, with the printed
 * diagnostics in *printed (freed by the caller). */
static dmlconf_yaml_file *read_text(const char *text, const dmlconf_yaml_limits *limits, char **printed)
{
    dmlconf_diagnostics diagnostics = {0};
    dmlconf_yaml_file *file = NULL;
    int rc = dmlconf_yaml_file_read_buffer("t.yaml", text, strlen(text), limits, &diagnostics, &file);
    ck_assert_int_eq(rc == 0, file != NULL);
    ck_assert_int_eq(rc == 0, diagnostics.error_count == 0);
    *printed = dmlconf_diagnostics_format(&diagnostics, NULL);
    ck_assert_ptr_nonnull(*printed);
    dmlconf_diagnostics_free(&diagnostics);
    return file;
}

/* The text must be refused with `expected` in its diagnostics. */
static void expect_refused(const char *text, const char *expected)
{
    char *printed = NULL;
    dmlconf_yaml_file *file = read_text(text, NULL, &printed);
    ck_assert_msg(file == NULL, "accepted: %s", text);
    ck_assert_msg(strstr(printed, expected), "expected \"%s\" in:\n%s", expected, printed);
    free(printed);
}

START_TEST(test_tree_and_marks)
{
    char *printed = NULL;
    dmlconf_yaml_file *file = read_text("runs:\n"
                                        "  - name: a\n"
                                        "    jobs: 2\n"
                                        "    filters: [\"doc.*\", '!x']\n"
                                        "    strict: true\n"
                                        "    quoted: \"true\"\n"
                                        "    empty:\n",
                                        NULL, &printed);
    ck_assert_msg(file != NULL, "%s", printed);
    free(printed);
    const dmlconf_yaml_node *root = dmlconf_yaml_file_root(file);
    ck_assert_int_eq(root->kind, DMLCONF_YAML_MAPPING);
    ck_assert_uint_eq(root->count, 1);
    ck_assert_str_eq(root->keys[0]->text, "runs");
    const dmlconf_yaml_node *runs = root->items[0];
    ck_assert_int_eq(runs->kind, DMLCONF_YAML_SEQUENCE);
    ck_assert_uint_eq(runs->count, 1);
    const dmlconf_yaml_node *run = runs->items[0];
    ck_assert_int_eq(run->kind, DMLCONF_YAML_MAPPING);
    ck_assert_uint_eq(run->mark.line, 2);
    ck_assert_uint_eq(run->mark.column, 5);
    ck_assert_uint_eq(run->count, 6);
    ck_assert_str_eq(run->keys[1]->text, "jobs");
    ck_assert_str_eq(run->items[1]->text, "2");
    ck_assert_uint_eq(run->items[1]->mark.line, 3);
    ck_assert_uint_eq(run->items[1]->mark.column, 11);
    const dmlconf_yaml_node *filters = run->items[2];
    ck_assert_int_eq(filters->kind, DMLCONF_YAML_SEQUENCE);
    ck_assert_uint_eq(filters->count, 2);
    ck_assert_str_eq(filters->items[1]->text, "!x");
    ck_assert_uint_eq(filters->items[1]->mark.column, 24);
    ck_assert(run->items[3]->plain);
    ck_assert(!run->items[4]->plain);
    ck_assert(dmlconf_yaml_node_is_null(run->items[5]));
    ck_assert(!dmlconf_yaml_node_is_null(run->items[4]));
    ck_assert_str_eq(dmlconf_yaml_node_kind_name(filters), "a list");
    ck_assert_str_eq(dmlconf_yaml_file_path(file), "t.yaml");
    dmlconf_yaml_file_free(file);

    /* An empty document has no root; it is not an error. */
    file = read_text("# nothing\n", NULL, &printed);
    ck_assert_ptr_nonnull(file);
    ck_assert_ptr_null(dmlconf_yaml_file_root(file));
    dmlconf_yaml_file_free(file);
    free(printed);
}
END_TEST

START_TEST(test_errors_of_the_reader_of_the_tree)
{
    /* A reader's own error points at the node, with the line and a caret;
     * a related place follows it. */
    char *printed = NULL;
    dmlconf_yaml_file *file = read_text("a: 1\nb: [x, y]\n", NULL, &printed);
    ck_assert_ptr_nonnull(file);
    free(printed);
    const dmlconf_yaml_node *root = dmlconf_yaml_file_root(file);
    dmlconf_diagnostics diagnostics = {0};
    ck_assert_int_eq(dmlconf_yaml_file_error(file, &diagnostics, root->items[1]->items[1]->mark, "see", root->mark,
                                             "'%s' is not wanted", root->items[1]->items[1]->text),
                     0);
    ck_assert_uint_eq(diagnostics.error_count, 1);
    printed = dmlconf_diagnostics_format(&diagnostics, NULL);
    ck_assert_str_eq(printed, "t.yaml:2:8: error: 'y' is not wanted (see t.yaml:1:1)\n"
                              "b: [x, y]\n"
                              "       ^\n");
    free(printed);
    dmlconf_diagnostics_free(&diagnostics);
    dmlconf_yaml_file_free(file);
}
END_TEST

START_TEST(test_refusals)
{
    expect_refused("a: 1\n  b: 2\n", "t.yaml:2:4: error: YAML syntax error: mapping values are not allowed");
    expect_refused("a:\n\t- 1\n", "(a tab: YAML indents with spaces only)");
    expect_refused("a: &x 1\nb: *x\n", "t.yaml:1:4: error: anchors and aliases are not supported (anchor '&x')");
    expect_refused("a: !!str 1\n", "t.yaml:1:4: error: tags are not supported (tag 'tag:yaml.org,2002:str')");
    expect_refused("%YAML 1.1\n---\na: 1\n", "directives (%YAML, %TAG) are not supported");
    expect_refused("a: 1\n---\nb: 2\n", "t.yaml:2:1: error: the file holds more than one YAML document");
    expect_refused("? [a, b]\n: 1\n", "t.yaml:1:3: error: a mapping's key must be a scalar (text), not a list");
    expect_refused("a: 1\nb: 2\na: 3\n", "t.yaml:3:1: error: the key 'a' is given twice in this mapping (first "
                                         "given at t.yaml:1:1)");
    expect_refused("a: \"x\x01\"\n", "t.yaml:1:6: error: the file holds the control character U+0001");
    expect_refused("a: \xff\n", "t.yaml:1:4: error: the file is not UTF-8 text: invalid byte 0xff");
}
END_TEST

START_TEST(test_limits)
{
    /* Nesting, scalars, nodes and the file's size, each at its limit. */
    dmlconf_yaml_limits limits = {.max_depth = 3, .max_scalar_bytes = 8, .max_nodes = 10, .max_file_bytes = 64};
    char *printed = NULL;
    ck_assert_ptr_null(read_text("a: [[[1]]]\n", &limits, &printed));
    ck_assert_msg(strstr(printed, "t.yaml:1:6: error: nesting is deeper than the limit of 3 levels"), "%s", printed);
    free(printed);
    ck_assert_ptr_null(read_text("a: 123456789\n", &limits, &printed));
    ck_assert_msg(strstr(printed, "a scalar of 9 bytes is longer than the limit of 8 bytes"), "%s", printed);
    free(printed);
    ck_assert_ptr_null(read_text("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n", &limits, &printed));
    ck_assert_msg(strstr(printed, "t.yaml:1:29: error: the file has more than 10 nodes"), "%s", printed);
    free(printed);
    char big[80];
    memset(big, '#', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    ck_assert_ptr_null(read_text(big, &limits, &printed));
    ck_assert_msg(strstr(printed, "t.yaml: error: the file is 79 bytes, larger than the limit of 64 bytes"), "%s",
                  printed);
    free(printed);

    /* Deep nesting far past the default limit is refused, not recursed. */
    size_t depth = 100000;
    char *deep = malloc(depth * 2 + 1);
    ck_assert_ptr_nonnull(deep);
    memset(deep, '[', depth);
    memset(deep + depth, ']', depth);
    deep[depth * 2] = '\0';
    ck_assert_ptr_null(read_text(deep, NULL, &printed));
    ck_assert_msg(strstr(printed, "nesting is deeper than the limit of 16 levels"), "%s", printed);
    free(printed);
    free(deep);

    /* A mapping of many repeated keys: each repetition is an error, and
     * the count is limited to the first hundred shown. */
    size_t keys = 5000;
    char *many = malloc(keys * 8 + 1), *at = many;
    ck_assert_ptr_nonnull(many);
    for (size_t i = 0; i < keys; ++i)
        at += sprintf(at, "k%zu: 1\n", i % 2);
    dmlconf_diagnostics diagnostics = {0};
    dmlconf_yaml_file *file = NULL;
    ck_assert_int_eq(dmlconf_yaml_file_read_buffer("t.yaml", many, strlen(many), NULL, &diagnostics, &file), -1);
    ck_assert_uint_eq(diagnostics.error_count, keys - 2);
    ck_assert_uint_eq(diagnostics.count, DMLCONF_YAML_MAX_ERRORS + 1);
    ck_assert_int_eq(diagnostics.items[diagnostics.count - 1].severity, DMLCONF_SEVERITY_NOTE);
    dmlconf_diagnostics_free(&diagnostics);
    free(many);
}
END_TEST

START_TEST(test_files)
{
    /* A path that is not a regular file, and one that is missing. */
    dmlconf_diagnostics diagnostics = {0};
    dmlconf_yaml_file *file = NULL;
    ck_assert_int_eq(dmlconf_yaml_file_read(".", NULL, &diagnostics, &file), -1);
    ck_assert_int_eq(dmlconf_yaml_file_read("missing.yaml", NULL, &diagnostics, &file), -1);
    char *printed = dmlconf_diagnostics_format(&diagnostics, NULL);
    ck_assert_msg(strstr(printed, ".: error: is a directory, not a regular file"), "%s", printed);
    ck_assert_msg(strstr(printed, "missing.yaml: error: cannot open: No such file or directory"), "%s", printed);
    free(printed);
    dmlconf_diagnostics_free(&diagnostics);

    FILE *out = fopen("yaml_tree_test.yaml", "w");
    ck_assert_ptr_nonnull(out);
    fputs("runs: [a, b]\n", out);
    fclose(out);
    ck_assert_int_eq(dmlconf_yaml_file_read("yaml_tree_test.yaml", NULL, &diagnostics, &file), 0);
    ck_assert_str_eq(dmlconf_yaml_file_root(file)->items[0]->items[1]->text, "b");
    dmlconf_yaml_file_free(file);
    remove("yaml_tree_test.yaml");
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("yaml_tree");
    TCase *tree = tcase_create("tree");
    tcase_add_test(tree, test_tree_and_marks);
    tcase_add_test(tree, test_errors_of_the_reader_of_the_tree);
    tcase_add_test(tree, test_refusals);
    tcase_add_test(tree, test_limits);
    tcase_add_test(tree, test_files);
    suite_add_tcase(suite, tree);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
