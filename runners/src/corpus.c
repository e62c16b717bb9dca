/*
 * Finding and loading the corpus for every subcommand.
 */
#define _POSIX_C_SOURCE 200809L

#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DMLCONF_DEFAULT_CASES
#define DMLCONF_DEFAULT_CASES "cases"
#endif

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
                snprintf(buffers[i], sizeof(buffers[i]), "%s/%s", DMLCONF_DEFAULT_CASES, default_folders[i]);
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
