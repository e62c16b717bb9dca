/*
 * Helpers of docgen's unit tests: pages from strings, their diagnostics,
 * check and update in one call, and edits of a page's text.
 */
#include "test_util.h"

#include <dmlconf/values.h>

#include <check.h>
#include <stdlib.h>
#include <string.h>

size_t load(docgen_page *page, const char *text)
{
    return docgen_page_load_buffer(page, "page.md", text, strlen(text));
}

/* Every diagnostic of the page, as dmlconf_diagnostics_format writes them. */
char *messages(const docgen_page *page)
{
    char *text = dmlconf_diagnostics_format(&page->diagnostics, NULL);
    ck_assert_ptr_nonnull(text);
    return text;
}

/* Packed elements of `type` from their texts (decimals rounded). */
void *values_of(dmlconf_data_type type, const char *const *texts, size_t count)
{
    size_t size = dmlconf_value_size(type);
    unsigned char *values = calloc(count, size);
    ck_assert_ptr_nonnull(values);
    for (size_t i = 0; i < count; ++i)
    {
        char why[256];
        ck_assert_msg(dmlconf_value_parse(type, texts[i], true, values + i * size, why, sizeof(why)) ==
                          DMLCONF_VALUE_OK,
                      "%s", why);
    }
    return values;
}

/* Checks every example of the page; returns how many are stale. verdicts
 * (may be NULL) receives them, to be freed by the caller. */
size_t check_page(const docgen_page *page, docgen_verdict **verdicts)
{
    docgen_verdict *all = calloc(page->example_count + 1, sizeof(*all));
    ck_assert_ptr_nonnull(all);
    size_t stale = 0;
    for (size_t i = 0; i < page->example_count; ++i)
    {
        dmlconf_error err;
        ck_assert_msg(docgen_check_example(page, i, &all[i], &err) == 0, "%s", err.message);
        stale += all[i].stale;
    }
    if (verdicts)
        *verdicts = all;
    else
    {
        for (size_t i = 0; i < page->example_count; ++i)
            docgen_verdict_free(&all[i]);
        free(all);
    }
    return stale;
}

/* The page with every rewrite applied (update's text). */
char *updated(const char *text)
{
    docgen_page page;
    char *all = NULL;
    ck_assert_msg(load(&page, text) == 0, "%s", all = messages(&page));
    docgen_verdict *verdicts;
    check_page(&page, &verdicts);
    dmlconf_buffer out = {0};
    ck_assert_int_eq(docgen_page_apply(&page, verdicts, page.example_count, &out), 0);
    for (size_t i = 0; i < page.example_count; ++i)
        docgen_verdict_free(&verdicts[i]);
    free(verdicts);
    docgen_page_free(&page);
    free(all);
    return out.data;
}

/* A copy of text with the first `from` after `after` replaced by `to`;
 * *line (may be NULL) receives the line where `from` was. */
char *replace_at(const char *text, const char *after, const char *from, const char *to, uint32_t *line)
{
    const char *anchor = strstr(text, after);
    ck_assert_msg(anchor != NULL, "no '%s' in the page", after);
    const char *at = strstr(anchor, from);
    ck_assert_msg(at != NULL, "no '%s' after '%s'", from, after);
    dmlconf_buffer out = {0};
    dmlconf_buffer_append(&out, text, (size_t)(at - text));
    dmlconf_buffer_puts(&out, to);
    dmlconf_buffer_puts(&out, at + strlen(from));
    ck_assert(!out.failed);
    if (line)
    {
        *line = 1;
        for (const char *p = text; p < at; ++p)
            *line += *p == '\n';
    }
    return out.data;
}

char *replace(const char *text, const char *after, const char *from, const char *to)
{
    return replace_at(text, after, from, to, NULL);
}
