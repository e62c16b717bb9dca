/*
 * Finding and loading the corpus for every subcommand.
 */
#define _POSIX_C_SOURCE 200809L

#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef DMLCONF_DEFAULT_CASES
#define DMLCONF_DEFAULT_CASES "cases"
#endif
#ifndef DMLCONF_INSTALLED_CASES
#define DMLCONF_INSTALLED_CASES DMLCONF_DEFAULT_CASES
#endif

/* The corpus of the source tree this dmlconf was built from, or, once
 * installed elsewhere, the installed copy. */
static const char *default_root(void)
{
    struct stat info;
    if (stat(DMLCONF_DEFAULT_CASES "/doc", &info) == 0 && S_ISDIR(info.st_mode))
        return DMLCONF_DEFAULT_CASES;
    return DMLCONF_INSTALLED_CASES;
}

static const char *const default_folders[] = {"doc", "conformance", "edge", "negative"};

size_t runner_load_corpus(dmlconf_case_corpus *corpus, char *const *paths, size_t path_count)
{
    char buffers[4][1024];
    const char *defaults[4];
    const char *const *list = (const char *const *)paths;
    if (path_count == 0)
    {
        const char *root = getenv("DMLCONF_CASES");
        if (root && *root)
        {
            defaults[0] = root;
            path_count = 1;
        }
        else
        {
            for (size_t i = 0; i < 4; ++i)
            {
                snprintf(buffers[i], sizeof(buffers[i]), "%s/%s", default_root(), default_folders[i]);
                defaults[i] = buffers[i];
            }
            path_count = 4;
        }
        list = defaults;
    }
    size_t errors = dmlconf_case_corpus_load(corpus, list, path_count, NULL);
    dmlconf_case_corpus_print(corpus, NULL, stderr);
    return errors;
}

const dmlconf_case **runner_corpus_cases(const dmlconf_case_corpus *corpus, size_t *count)
{
    size_t total = 0;
    for (size_t f = 0; f < corpus->file_count; ++f)
        total += corpus->files[f].case_count;
    const dmlconf_case **cases = malloc((total ? total : 1) * sizeof(*cases));
    if (!cases)
        return NULL;
    size_t n = 0;
    for (size_t f = 0; f < corpus->file_count; ++f)
    {
        for (size_t i = 0; i < corpus->files[f].case_count; ++i)
            cases[n++] = &corpus->files[f].cases[i];
    }
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
