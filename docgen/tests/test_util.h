/*
 * Helpers of docgen's unit tests (test_util.c). Every helper fails the
 * running test (ck_assert) when something it relies on goes wrong; strings
 * it returns are the caller's to free().
 */
#ifndef DMLCONF_DOCGEN_TEST_UTIL_H
#define DMLCONF_DOCGEN_TEST_UTIL_H

#include <dmlconf/docgen.h>

#include <check.h>

/* Loads `text` as the page "page.md". Returns the number of errors. */
size_t load(docgen_page *page, const char *text);

/* Every diagnostic of the page, as dmlconf_diagnostics_format writes them. */
char *messages(const docgen_page *page);

/* Packed elements of `type` from their texts (decimals rounded). */
void *values_of(dmlconf_data_type type, const char *const *texts, size_t count);

/* Checks every example of the page; returns how many are stale. verdicts
 * (may be NULL) receives them, to be freed by the caller. */
size_t check_page(const docgen_page *page, docgen_verdict **verdicts);

/* The page with every rewrite applied (update's text); the page must load
 * without errors. */
char *updated(const char *text);

/* A copy of text with the first `from` after `after` replaced by `to`;
 * *line (may be NULL) receives the line where `from` was. */
char *replace_at(const char *text, const char *after, const char *from, const char *to, uint32_t *line);

/* replace_at without the line. */
char *replace(const char *text, const char *after, const char *from, const char *to);

/* The suites of the other test files. */
Suite *languages_suite(void);
Suite *comments_suite(void);

#endif /* DMLCONF_DOCGEN_TEST_UTIL_H */
