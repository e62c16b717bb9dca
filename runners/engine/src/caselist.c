/*
 * Case lists: the ids and globs of the cases a run is asked to run, read
 * from files (one a line, '#' comments, "-" for standard input) or taken
 * from an earlier run's results (the cases that did not pass). Every entry
 * keeps where it came from, so that one that names no case can be pointed
 * at.
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include <dmlconf/runner.h>

#include "id_lines.h"

#include <dmlconf/file_system.h>
#include <dmlconf/glob.h>
#include <dmlconf/text.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Keeps a copy of a source's name; returns it, or NULL when memory runs
 * out. */
static const char *add_source(runner_caselist *list, const char *name)
{
    char **grown = realloc(list->sources, (list->source_count + 1) * sizeof(*grown));
    if (!grown)
        return NULL;
    list->sources = grown;
    char *copy = dmlconf_strdup(name);
    if (copy)
        list->sources[list->source_count++] = copy;
    return copy;
}

static bool is_glob(const char *text)
{
    return strpbrk(text, "*?[\\") != NULL;
}

/* Appends an entry read from `source`. Returns 0, or -1 when memory runs
 * out. */
static int add_entry(runner_caselist *list, const char *source, const char *text, uint32_t line)
{
    if (list->count == list->capacity)
    {
        size_t capacity = list->capacity ? list->capacity * 2 : 64;
        runner_caselist_entry *grown = realloc(list->entries, capacity * sizeof(*grown));
        if (!grown)
            return -1;
        list->entries = grown;
        list->capacity = capacity;
    }
    runner_caselist_entry *entry = &list->entries[list->count];
    memset(entry, 0, sizeof(*entry));
    entry->text = dmlconf_strdup(text);
    if (!entry->text)
        return -1;
    entry->source = source;
    entry->line = line;
    entry->glob = is_glob(text);
    list->count++;
    return 0;
}

static int compare_exact(const void *a, const void *b)
{
    const runner_caselist_entry *x = *(runner_caselist_entry *const *)a;
    const runner_caselist_entry *y = *(runner_caselist_entry *const *)b;
    return strcmp(x->text, y->text);
}

/* Rebuilds the sorted index of the entries that are plain ids (after
 * entries were added: the array may have moved). Returns 0, or -1 when
 * memory runs out. */
static int index_ids(runner_caselist *list)
{
    runner_caselist_entry **exact = realloc(list->exact, (list->count ? list->count : 1) * sizeof(*exact));
    if (!exact)
        return -1;
    list->exact = exact;
    list->exact_count = 0;
    list->glob_count = 0;
    for (size_t i = 0; i < list->count; ++i)
    {
        if (list->entries[i].glob)
            list->glob_count++;
        else
            exact[list->exact_count++] = &list->entries[i];
    }
    qsort(exact, list->exact_count, sizeof(*exact), compare_exact);
    return 0;
}

typedef struct reading
{
    runner_caselist *list;
    const char *source;
} reading;

static int add_line(void *context, const char *text, uint32_t line)
{
    reading *r = context;
    return add_entry(r->list, r->source, text, line);
}

int runner_caselist_read(runner_caselist *list, const char *path, char *why, size_t why_size)
{
    list->given = true;
    const bool from_stdin = !strcmp(path, "-");
    if (from_stdin && list->stdin_read)
    {
        snprintf(why, why_size, "-: standard input is given as a case list twice");
        return -1;
    }
    const char *source = add_source(list, from_stdin ? "(standard input)" : path);
    if (!source)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    FILE *file = stdin;
    if (!from_stdin)
    {
        char reason[256];
        file = dmlconf_open_regular_file(path, NULL, reason, sizeof(reason));
        if (!file)
        {
            snprintf(why, why_size,
                     "%s: %s (a case list is a file of ids or globs, one a line; - reads standard "
                     "input)",
                     path, reason);
            return -1;
        }
    }
    list->stdin_read |= from_stdin;
    reading r = {list, source};
    int result = runner_read_id_lines(file, source, add_line, &r, why, why_size);
    if (!from_stdin)
        fclose(file);
    if (result == 0 && index_ids(list))
    {
        snprintf(why, why_size, "out of memory");
        result = -1;
    }
    return result;
}

/* Whether a status is one --rerun-failures runs again: every one but pass
 * and skip. */
static bool did_not_pass(dmlconf_status status)
{
    return status != DMLCONF_STATUS_PASS && status != DMLCONF_STATUS_SKIP;
}

int runner_caselist_add_failures(runner_caselist *list, const char *report_dir, size_t *added, char *why,
                                 size_t why_size)
{
    list->given = true;
    *added = 0;
    char *path = dmlconf_path_join(report_dir, DMLCONF_REPORT_RESULTS_JSONL);
    const char *source = path ? add_source(list, path) : NULL;
    free(path);
    if (!source)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    dmlconf_results_file earlier;
    if (dmlconf_results_file_read(source, &earlier, why, why_size))
    {
        dmlconf_results_file_free(&earlier);
        return -1;
    }
    int result = 0;
    for (size_t i = 0; i < earlier.results.count && result == 0; ++i)
    {
        const dmlconf_case_result *r = &earlier.results.items[i];
        if (!did_not_pass(r->status))
            continue;
        /* An id is matched exactly, even one that looks like a glob. */
        result = add_entry(list, source, r->id, 0);
        if (result == 0)
        {
            list->entries[list->count - 1].glob = false;
            list->entries[list->count - 1].status = r->status;
            ++*added;
        }
    }
    dmlconf_results_file_free(&earlier);
    if (result == 0)
        result = index_ids(list);
    if (result)
        snprintf(why, why_size, "out of memory");
    return result;
}

/* The position in list->exact of an entry whose text is `id`, or SIZE_MAX. */
static size_t find_exact(const runner_caselist *list, const char *id)
{
    size_t lo = 0, hi = list->exact_count;
    while (lo < hi)
    {
        size_t mid = lo + (hi - lo) / 2;
        int order = strcmp(list->exact[mid]->text, id);
        if (order == 0)
        {
            /* The first of equal entries. */
            while (mid > 0 && !strcmp(list->exact[mid - 1]->text, id))
                --mid;
            return mid;
        }
        if (order < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return SIZE_MAX;
}

bool runner_caselist_matches(const runner_caselist *list, const char *id)
{
    if (find_exact(list, id) != SIZE_MAX)
        return true;
    for (size_t i = 0; i < list->count && list->glob_count; ++i)
    {
        if (list->entries[i].glob && dmlconf_glob_match(list->entries[i].text, id))
            return true;
    }
    return false;
}

size_t runner_caselist_mark(runner_caselist *list, const dmlconf_case *const *cases, size_t count)
{
    for (size_t c = 0; c < count; ++c)
    {
        const char *id = cases[c]->id;
        for (size_t at = find_exact(list, id); at < list->exact_count; ++at)
        {
            runner_caselist_entry *entry = list->exact[at];
            if (strcmp(entry->text, id))
                break;
            entry->matched = true;
        }
        for (size_t i = 0; i < list->count && list->glob_count; ++i)
        {
            runner_caselist_entry *entry = &list->entries[i];
            if (entry->glob && !entry->matched && dmlconf_glob_match(entry->text, id))
                entry->matched = true;
        }
    }
    size_t unmatched = 0;
    for (size_t i = 0; i < list->count; ++i)
        unmatched += !list->entries[i].matched;
    return unmatched;
}

void runner_caselist_free(runner_caselist *list)
{
    for (size_t i = 0; i < list->count; ++i)
        free(list->entries[i].text);
    for (size_t i = 0; i < list->source_count; ++i)
        free(list->sources[i]);
    free(list->entries);
    free(list->sources);
    free(list->exact);
    memset(list, 0, sizeof(*list));
}
