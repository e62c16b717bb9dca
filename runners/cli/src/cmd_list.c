/*
 * `dmlconf list`: the ids of the cases that match the filters, with their
 * minimum feature level.
 */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static const char list_usage[] = "usage: dmlconf list [-f GLOB]... [-l LEVEL] [PATH...]\n"
                                 "\n"
                                 "Lists the ids of the cases matching the filters, one per line, with the lowest\n"
                                 "feature level each needs (\"-\" for a negative case rejected at every level).\n"
                                 "\n"
                                 "  -f, --filter GLOB        keep ids matching GLOB; repeatable; '!GLOB' excludes\n"
                                 "  -l, --feature-level L    keep the cases runnable at level L\n"
                                 "  -h, --help               this help\n";

int command_list(int argc, char **argv)
{
    static const struct option options[] = {
        {"filter", required_argument, NULL, 'f'},
        {"feature-level", required_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    runner_filter filter = {0};
    dmlconf_feature_level level = DMLCONF_FEATURE_LEVEL_NONE;
    int option, exit_code = EXIT_USAGE;
    optind = 1;
    while ((option = getopt_long(argc, argv, "f:l:h", options, NULL)) != -1)
    {
        switch (option)
        {
        case 'f':
            if (runner_filter_add(&filter, optarg))
            {
                fprintf(stderr, "dmlconf list: out of memory\n");
                goto done;
            }
            break;
        case 'l':
            if (!dmlconf_feature_level_from_name(optarg, &level))
            {
                fprintf(stderr, "dmlconf list: '%s' is not a feature level\n", optarg);
                goto done;
            }
            break;
        case 'h':
            fputs(list_usage, stdout);
            exit_code = EXIT_PASSED;
            goto done;
        default:
            fputs(list_usage, stderr);
            goto done;
        }
    }
    dmlconf_case_corpus corpus;
    size_t errors = runner_load_corpus(&corpus, argv + optind, (size_t)(argc - optind));
    size_t count = 0;
    const dmlconf_case **cases = runner_corpus_cases(&corpus, &count);
    for (size_t i = 0; cases && i < count; ++i)
    {
        const dmlconf_case *c = cases[i];
        if (!runner_filter_matches(&filter, c->id))
            continue;
        if (level != DMLCONF_FEATURE_LEVEL_NONE && !c->expect_error.set && c->min_feature_level > level)
            continue;
        const char *name = dmlconf_feature_level_name(c->min_feature_level);
        printf("%s %s\n", c->id, name ? name : "-");
    }
    exit_code = !cases ? EXIT_SETUP : errors ? EXIT_INVALID_INPUT : EXIT_PASSED;
    free(cases);
    dmlconf_case_corpus_free(&corpus);
done:
    runner_filter_free(&filter);
    return exit_code;
}
