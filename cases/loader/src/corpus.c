/*
 * corpus.c: loading many case files (folders searched recursively for *.yaml,
 * sorted by path), each independently, and the duplicate-id check across
 * them.
 */
#include "loader_internal.h"

#include <dmlconf/file_system.h>
#include <dmlconf/reserve.h>
#include <dmlconf/threads.h>

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* A growable list of paths. */
typedef struct path_list
{
    char **items;
    size_t count;
    size_t capacity;
} path_list;

static int path_list_add(path_list *list, char *path)
{
    if (!path)
    {
        return -1;
    }
    if (!dmlconf_reserve((void **)&list->items, &list->capacity, list->count + 1, sizeof(*list->items)))
    {
        free(path);
        return -1;
    }
    list->items[list->count++] = path;
    return 0;
}

static void path_list_free(path_list *list)
{
    size_t i;

    for (i = 0; i < list->count; ++i)
    {
        free(list->items[i]);
    }
    free(list->items);
    memset(list, 0, sizeof(*list));
}

static bool has_yaml_suffix(const char *name)
{
    size_t length = strlen(name);

    return length > 5 && !strcmp(name + length - 5, ".yaml");
}

/* The system's explanation without the "<path>: " it starts with, since
 * the diagnostic names the path itself. */
static const char *without_path(const char *why, const char *path)
{
    size_t length = strlen(path);
    return !strncmp(why, path, length) && !strncmp(why + length, ": ", 2) ? why + length + 2 : why;
}

/* Adds every *.yaml under folder (recursively, hidden entries skipped).
 * Returns 0, or -1 when memory runs out. */
static int collect_folder(const char *folder, unsigned depth, path_list *list, dmlconf_diagnostics *diags)
{
    char why[512];
    int result = 0;

    if (depth > 64)
    {
        dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, folder, 0, 0, "folders nested too deep");
        return 0;
    }
    char **names = dmlconf_list_folder(folder, why, sizeof(why));
    if (!names)
    {
        dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, folder, 0, 0, "%s", without_path(why, folder));
        return 0;
    }
    for (char **name = names; !result && *name; ++name)
    {
        if ((*name)[0] == '.')
        {
            continue;
        }
        char *path = dmlconf_path_join(folder, *name);
        dmlconf_path_kind kind;
        if (!path)
        {
            result = -1;
            break;
        }
        if (dmlconf_path_examine(path, &kind, NULL, why, sizeof(why)))
        {
            dmlconf_diagnostics_add(diags, DMLCONF_SEVERITY_ERROR, path, 0, 0, "cannot read: %s",
                                    without_path(why, path));
            free(path);
        }
        else if (kind == DMLCONF_PATH_DIRECTORY)
        {
            result = collect_folder(path, depth + 1, list, diags);
            free(path);
        }
        else if (has_yaml_suffix(*name))
        {
            /* Named like a case file: loaded, so that a named pipe or a device
             * is reported (the loader refuses it without reading) rather than
             * skipped. */
            result = path_list_add(list, path);
        }
        else
        {
            free(path);
        }
    }
    dmlconf_free_folder_names(names);
    return result;
}

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files are independent, so several threads take the next file to load
 * until none is left; each file's result lands in its own slot, so the
 * corpus keeps the sorted order. */
typedef struct parallel_load
{
    dmlconf_case_file *files;
    const char *const *paths;
    size_t count;
    const dmlconf_load_options *options;
    atomic_size_t next;
} parallel_load;

static int load_next_files(void *argument)
{
    parallel_load *work = argument;
    for (;;)
    {
        size_t i = atomic_fetch_add(&work->next, 1);
        if (i >= work->count)
            return 0;
        dmlconf_case_file_load(&work->files[i], work->paths[i], work->options);
    }
}

static void load_files_in_parallel(dmlconf_case_file *files, const char *const *paths, size_t count,
                                   const dmlconf_load_options *options)
{
    parallel_load work = {files, paths, count, options, 0};
    size_t wanted = options && options->threads ? options->threads : dmlconf_cpu_count();
    if (wanted > count)
        wanted = count;
    if (wanted > 16)
        wanted = 16;
    dmlconf_thread threads[16];
    size_t started = 0;
    /* This thread loads too; a thread that cannot start just leaves more
     * files to the others. */
    while (started + 1 < wanted && dmlconf_thread_start(&threads[started], load_next_files, &work) == 0)
        ++started;
    load_next_files(&work);
    for (size_t t = 0; t < started; ++t)
        dmlconf_thread_join(&threads[t]);
}

size_t dmlconf_case_corpus_load(dmlconf_case_corpus *corpus, const char *const *paths, size_t path_count,
                                const dmlconf_load_options *options)
{
    path_list list = {0};
    dmlconf_path_kind kind;
    char why[512];
    size_t i, j;

    memset(corpus, 0, sizeof(*corpus));
    for (i = 0; i < path_count; ++i)
    {
        if (dmlconf_path_examine(paths[i], &kind, NULL, why, sizeof(why)))
        {
            dmlconf_diagnostics_add(&corpus->diagnostics, DMLCONF_SEVERITY_ERROR, paths[i], 0, 0, "cannot read: %s",
                                    without_path(why, paths[i]));
        }
        else if (kind == DMLCONF_PATH_MISSING)
        {
            dmlconf_diagnostics_add(&corpus->diagnostics, DMLCONF_SEVERITY_ERROR, paths[i], 0, 0,
                                    "cannot read: No such file or directory");
        }
        else if (kind == DMLCONF_PATH_DIRECTORY)
        {
            if (collect_folder(paths[i], 0, &list, &corpus->diagnostics))
            {
                goto out_of_memory;
            }
        }
        else if (path_list_add(&list, dmlconf_strdup(paths[i])))
        {
            goto out_of_memory;
        }
    }
    if (list.count > 1)
        qsort(list.items, list.count, sizeof(*list.items), compare_paths);
    /* The same file named twice loads once. */
    for (i = j = 0; i < list.count; ++i)
    {
        if (j && !strcmp(list.items[j - 1], list.items[i]))
        {
            free(list.items[i]);
            continue;
        }
        list.items[j++] = list.items[i];
    }
    list.count = j;
    if (list.count)
    {
        corpus->files = calloc(list.count, sizeof(*corpus->files));
        if (!corpus->files)
        {
            goto out_of_memory;
        }
        corpus->file_capacity = list.count;
    }
    load_files_in_parallel(corpus->files, (const char *const *)list.items, list.count, options);
    for (i = 0; i < list.count; ++i)
    {
        ++corpus->file_count;
        corpus->case_count += corpus->files[i].case_count;
        corpus->error_count += corpus->files[i].diagnostics.error_count;
    }
    dmlconf_case_check_duplicate_ids(corpus->files, corpus->file_count, &corpus->diagnostics);
    path_list_free(&list);
    corpus->error_count += corpus->diagnostics.error_count;
    return corpus->error_count;

out_of_memory:
    path_list_free(&list);
    dmlconf_diagnostics_add(&corpus->diagnostics, DMLCONF_SEVERITY_ERROR, NULL, 0, 0,
                            "out of memory while listing case files");
    corpus->error_count += corpus->diagnostics.error_count;
    return corpus->error_count;
}

/* One id in the duplicate check: where it is defined. */
typedef struct id_entry
{
    const char *id;
    size_t file;
    size_t index;
} id_entry;

static int compare_ids(const void *a, const void *b)
{
    const id_entry *x = a, *y = b;
    int order = strcmp(x->id, y->id);

    if (order)
    {
        return order;
    }
    if (x->file != y->file)
    {
        return x->file < y->file ? -1 : 1;
    }
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Sorts duplicate reports back into file and case order. */
static int compare_pairs(const void *a, const void *b)
{
    const id_entry *x = a, *y = b;

    if (x->file != y->file)
    {
        return x->file < y->file ? -1 : 1;
    }
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The source line of `mark` in the file at `path` (read again: loaded files
 * keep no text), or NULL. */
static char *read_snippet(const char *path, dmlconf_mark mark)
{
    loader_source source;
    uint32_t line, column;
    char why[128], *snippet = NULL;

    if (loader_source_read(&source, path, DMLCONF_CASE_MAX_FILE_BYTES, why, sizeof(why)))
    {
        return NULL;
    }
    if (!loader_source_scan(&source, &line, &column, why, sizeof(why)))
    {
        snippet = loader_source_snippet(&source, mark);
    }
    loader_source_free(&source);
    return snippet;
}

size_t dmlconf_case_check_duplicate_ids(const dmlconf_case_file *files, size_t file_count, dmlconf_diagnostics *out)
{
    id_entry *entries = NULL, *duplicates = NULL;
    size_t total = 0, count = 0, found = 0, i, j, first;
    const dmlconf_case *c, *original;
    char *snippet, *message;

    for (i = 0; i < file_count; ++i)
    {
        total += files[i].case_count;
    }
    if (!total)
    {
        return 0;
    }
    entries = malloc(total * sizeof(*entries));
    duplicates = malloc(total * 2 * sizeof(*duplicates));
    if (!entries || !duplicates)
    {
        free(entries);
        free(duplicates);
        dmlconf_diagnostics_add(out, DMLCONF_SEVERITY_ERROR, NULL, 0, 0, "out of memory checking ids");
        return SIZE_MAX;
    }
    for (i = 0; i < file_count; ++i)
    {
        for (j = 0; j < files[i].case_count; ++j)
        {
            entries[count].id = files[i].cases[j].id;
            entries[count].file = i;
            entries[count].index = j;
            ++count;
        }
    }
    qsort(entries, count, sizeof(*entries), compare_ids);
    /* duplicates holds pairs: the later definition, then the first one. */
    for (i = first = 0; i < count; ++i)
    {
        if (i && !strcmp(entries[i].id, entries[first].id))
        {
            duplicates[2 * found] = entries[i];
            duplicates[2 * found + 1] = entries[first];
            ++found;
        }
        else
        {
            first = i;
        }
    }
    /* Report in the order of the later definitions. */
    qsort(duplicates, found, 2 * sizeof(*duplicates), compare_pairs);
    for (i = 0; i < found; ++i)
    {
        c = &files[duplicates[2 * i].file].cases[duplicates[2 * i].index];
        original = &files[duplicates[2 * i + 1].file].cases[duplicates[2 * i + 1].index];
        snippet = read_snippet(c->file, c->marks[DMLCONF_CASE_FIELD_ID]);
        message = malloc(strlen(c->id) + 32);
        if (message)
        {
            snprintf(message, strlen(c->id) + 32, "duplicate id '%s'", c->id);
        }
        if (!loader_diagnostics_push(out, DMLCONF_SEVERITY_ERROR, c->file, c->marks[DMLCONF_CASE_FIELD_ID].line,
                                     c->marks[DMLCONF_CASE_FIELD_ID].column, message, snippet))
        {
            loader_diagnostics_relate(out, "first defined at", original->file,
                                      original->marks[DMLCONF_CASE_FIELD_ID].line,
                                      original->marks[DMLCONF_CASE_FIELD_ID].column);
        }
    }
    free(entries);
    free(duplicates);
    return found;
}

int dmlconf_case_corpus_print(const dmlconf_case_corpus *corpus, const char *base_dir, FILE *out)
{
    size_t i;

    for (i = 0; i < corpus->file_count; ++i)
    {
        if (dmlconf_diagnostics_print(&corpus->files[i].diagnostics, base_dir, out))
        {
            return -1;
        }
    }
    return dmlconf_diagnostics_print(&corpus->diagnostics, base_dir, out);
}

void dmlconf_case_corpus_free(dmlconf_case_corpus *corpus)
{
    size_t i;

    if (!corpus)
    {
        return;
    }
    for (i = 0; i < corpus->file_count; ++i)
    {
        dmlconf_case_file_free(&corpus->files[i]);
    }
    free(corpus->files);
    dmlconf_diagnostics_free(&corpus->diagnostics);
    memset(corpus, 0, sizeof(*corpus));
}
