/*
 * Finding and loading the corpus for every subcommand.
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include <dmlconf/runner.h>

#include <dmlconf/file_system.h>
#include <dmlconf/process.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DMLCONF_DEFAULT_CASES
#define DMLCONF_DEFAULT_CASES "cases"
#endif
#ifndef DMLCONF_INSTALLED_CASES
#define DMLCONF_INSTALLED_CASES DMLCONF_DEFAULT_CASES
#endif

static bool is_corpus_root(const char *root)
{
    char *doc = dmlconf_path_join(root, "doc");
    dmlconf_path_kind kind = DMLCONF_PATH_MISSING;
    bool found = doc && dmlconf_path_examine(doc, &kind, NULL, NULL, 0) == 0 && kind == DMLCONF_PATH_DIRECTORY;
    free(doc);
    return found;
}

/* The copy installed beside the program (<prefix>/bin/dmlconf and
 * <prefix>/share/dmlconf/cases, wherever the prefix was moved or unpacked:
 * an installed or packaged dmlconf runs the corpus it was installed with,
 * even where the source tree it was built from still lies); else the corpus
 * of the source tree this dmlconf was built from (a program in its build
 * folder has nothing installed beside it); else the installed copy where
 * the build put it. A new string, or NULL when memory runs out. */
static char *default_root(void)
{
    char *self = dmlconf_process_self_path(NULL, 0);
    if (self)
    {
        char *slash = strrchr(self, '/');
#if defined(_WIN32)
        char *backslash = strrchr(self, '\\');
        if (!slash || (backslash && backslash > slash))
            slash = backslash;
#endif
        char *beside = NULL;
        if (slash)
        {
            *slash = '\0';
            beside = dmlconf_path_join(self, "../share/dmlconf/cases");
        }
        free(self);
        if (beside && is_corpus_root(beside))
            return beside;
        free(beside);
    }
    if (is_corpus_root(DMLCONF_DEFAULT_CASES))
        return dmlconf_path_join(DMLCONF_DEFAULT_CASES, "");
    return dmlconf_path_join(DMLCONF_INSTALLED_CASES, "");
}

static const char *const default_folders[] = {"doc", "conformance", "edge", "negative", "explore"};
#define DEFAULT_FOLDER_COUNT (sizeof(default_folders) / sizeof(default_folders[0]))

/* Loads `paths`, or with none the default corpus: $DMLCONF_CASES when
 * `environment` allows and it is set, else the reference corpus; options
 * may be NULL (the loader's defaults). */
static size_t load_corpus(dmlconf_case_corpus *corpus, char *const *paths, size_t path_count, bool environment,
                          const dmlconf_load_options *options)
{
    char *folders[DEFAULT_FOLDER_COUNT] = {NULL};
    const char *defaults[DEFAULT_FOLDER_COUNT];
    const char *const *list = (const char *const *)paths;
    if (path_count == 0)
    {
        const char *from_environment = environment ? getenv("DMLCONF_CASES") : NULL;
        if (from_environment && *from_environment)
        {
            defaults[0] = from_environment;
            path_count = 1;
        }
        else
        {
            char *root = default_root();
            for (size_t i = 0; i < DEFAULT_FOLDER_COUNT; ++i)
            {
                folders[i] = root ? dmlconf_path_join(root, default_folders[i]) : NULL;
                defaults[i] = folders[i] ? folders[i] : default_folders[i];
            }
            free(root);
            path_count = DEFAULT_FOLDER_COUNT;
        }
        list = defaults;
    }
    size_t errors = dmlconf_case_corpus_load(corpus, list, path_count, options);
    for (size_t i = 0; i < DEFAULT_FOLDER_COUNT; ++i)
        free(folders[i]);
    return errors;
}

size_t runner_load_corpus_quietly(dmlconf_case_corpus *corpus, char *const *paths, size_t path_count)
{
    return load_corpus(corpus, paths, path_count, true, NULL);
}

void runner_reference_corpus_digest(char *out, size_t size)
{
    dmlconf_case_corpus corpus;
    runner_filter everything = {0};
    size_t errors = load_corpus(&corpus, NULL, 0, false, NULL);
    if (errors || corpus.file_count == 0)
        snprintf(out, size, "%s", "");
    else
        runner_corpus_digest(&corpus, &everything, out, size);
    dmlconf_case_corpus_free(&corpus);
}

size_t runner_load_corpus(dmlconf_case_corpus *corpus, char *const *paths, size_t path_count)
{
    return runner_load_corpus_with(corpus, paths, path_count, NULL);
}

size_t runner_load_corpus_with(dmlconf_case_corpus *corpus, char *const *paths, size_t path_count,
                               const dmlconf_load_options *options)
{
    size_t errors = load_corpus(corpus, paths, path_count, true, options);
    dmlconf_case_corpus_print(corpus, NULL, stderr);
    return errors;
}

/* A case and its position in load order, for finding ids defined twice. */
typedef struct positioned_case
{
    const dmlconf_case *c;
    size_t position;
} positioned_case;

/* Orders by id, then by load position. */
static int compare_positioned(const void *a, const void *b)
{
    const positioned_case *x = a, *y = b;
    int order = strcmp(x->c->id, y->c->id);
    return order ? order : (x->position < y->position ? -1 : x->position > y->position ? 1 : 0);
}

const dmlconf_case **runner_corpus_cases(const dmlconf_case_corpus *corpus, size_t *count)
{
    size_t total = 0;
    for (size_t f = 0; f < corpus->file_count; ++f)
        total += corpus->files[f].case_count;
    const dmlconf_case **cases = malloc((total ? total : 1) * sizeof(*cases));
    positioned_case *by_id = malloc((total ? total : 1) * sizeof(*by_id));
    if (!cases || !by_id)
    {
        free(cases);
        free(by_id);
        return NULL;
    }
    size_t n = 0;
    for (size_t f = 0; f < corpus->file_count; ++f)
    {
        for (size_t i = 0; i < corpus->files[f].case_count; ++i)
        {
            by_id[n] = (positioned_case){&corpus->files[f].cases[i], n};
            cases[n++] = &corpus->files[f].cases[i];
        }
    }
    /* An id defined twice (a stray copy of a file) is an error the loader
     * reports, and the verdict is incomplete for it; only its first
     * definition runs, so that no case runs, or is counted, twice. */
    qsort(by_id, n, sizeof(*by_id), compare_positioned);
    size_t dropped = 0;
    for (size_t i = 1; i < n; ++i)
    {
        if (!strcmp(by_id[i].c->id, by_id[i - 1].c->id))
        {
            cases[by_id[i].position] = NULL;
            ++dropped;
        }
    }
    if (dropped)
    {
        size_t out = 0;
        for (size_t j = 0; j < n; ++j)
        {
            if (cases[j])
                cases[out++] = cases[j];
        }
        n = out;
    }
    free(by_id);
    *count = n;
    return cases;
}

/* FNV-1a over bytes: enough to tell two corpora apart by accident, which is
 * all the digest is for (it is no defence against a forged corpus). */
static uint64_t fnv1a(uint64_t hash, const void *data, size_t size)
{
    const unsigned char *bytes = data;
    for (size_t i = 0; i < size; ++i)
        hash = (hash ^ bytes[i]) * UINT64_C(0x100000001b3);
    return hash;
}

void runner_corpus_digest(const dmlconf_case_corpus *corpus, const runner_filter *filter, char *out, size_t size)
{
    uint64_t hash = UINT64_C(0xcbf29ce484222325);
    for (size_t f = 0; f < corpus->file_count; ++f)
    {
        const dmlconf_case_file *file = &corpus->files[f];
        unsigned char content[8];
        for (unsigned b = 0; b < 8; ++b)
            content[b] = (unsigned char)(file->source_hash >> (8 * b));
        for (size_t i = 0; i < file->case_count; ++i)
        {
            const char *id = file->cases[i].id;
            if (!runner_filter_matches(filter, id))
                continue;
            hash = fnv1a(hash, id, strlen(id) + 1);
            hash = fnv1a(hash, content, sizeof(content));
        }
    }
    snprintf(out, size, "%016llx", (unsigned long long)hash);
}

int runner_corpus_load_errors(const dmlconf_case_corpus *corpus, dmlconf_load_error_list *errors)
{
    for (size_t f = 0; f <= corpus->file_count; ++f)
    {
        const dmlconf_diagnostics *list = f < corpus->file_count ? &corpus->files[f].diagnostics : &corpus->diagnostics;
        for (size_t i = 0; i < list->count; ++i)
        {
            const dmlconf_diagnostic *d = &list->items[i];
            if (d->severity != DMLCONF_SEVERITY_ERROR)
                continue;
            if (dmlconf_load_error_list_add(errors, d->file, d->line, d->column, d->message))
                return -1;
        }
    }
    /* An error the loader counted but could not keep (memory ran out). */
    if (errors->count < corpus->error_count &&
        dmlconf_load_error_list_add(errors, NULL, 0, 0, "more errors than could be recorded (out of memory)"))
        return -1;
    return 0;
}
