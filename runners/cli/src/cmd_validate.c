/*
 * `dmlconf validate`: load and check case files without running anything.
 */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>

/* What validates runs and reports whole: a result holds the longest id and
 * case file path the loader accepts. */
_Static_assert(sizeof(((dmlconf_case_result *)0)->id) > DMLCONF_CASE_MAX_ID_BYTES,
               "a result must hold the longest case id");
_Static_assert(sizeof(((dmlconf_case_result *)0)->file) > DMLCONF_CASE_MAX_PATH_BYTES,
               "a result must hold the longest case file path");

static const char validate_usage[] = "usage: dmlconf validate [PATH...]\n"
                                     "\n"
                                     "Loads the case files (default: the whole corpus) and reports every error with\n"
                                     "file:line:column, the offending line and a caret. Exit status 0 when every file\n"
                                     "is valid, 2 otherwise.\n";

int command_validate(int argc, char **argv)
{
    static const struct option options[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int option;
    optind = 1;
    while ((option = getopt_long(argc, argv, "h", options, NULL)) != -1)
    {
        if (option == 'h')
        {
            fputs(validate_usage, stdout);
            return EXIT_PASSED;
        }
        fputs(validate_usage, stderr);
        return EXIT_USAGE;
    }
    dmlconf_case_corpus corpus;
    size_t errors = runner_load_corpus(&corpus, argv + optind, (size_t)(argc - optind));
    printf("%zu file%s, %zu valid case%s, %zu error%s\n", corpus.file_count, corpus.file_count == 1 ? "" : "s",
           corpus.case_count, corpus.case_count == 1 ? "" : "s", errors, errors == 1 ? "" : "s");
    dmlconf_case_corpus_free(&corpus);
    return errors ? EXIT_INVALID_INPUT : EXIT_PASSED;
}
