/*
 * `dmlconf validate`: load and check case files without running anything,
 * the expected values of cases of every size included.
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
                                     "file:line:column, the offending line and a caret. The expected values a case\n"
                                     "gives (inline or .npy) are checked against the oracle in cases of every size,\n"
                                     "bit for bit or by the case's own tolerance, each wrong value at its position\n"
                                     "(the other commands check them in cases of up to 2^20 elements). Exit status\n"
                                     "0 when every file is valid, 2 otherwise.\n";

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
    /* Expected values of every size: what a run checks as it loads only up
     * to DMLCONF_CASE_CHECK_EXPECTED_MAX_ELEMENTS elements. */
    dmlconf_load_options load = {.expected_check = DMLCONF_EXPECTED_CHECK_ALL};
    dmlconf_case_corpus corpus;
    size_t errors = runner_load_corpus_with(&corpus, argv + optind, (size_t)(argc - optind), &load);
    printf("%zu file%s, %zu valid case%s, %zu error%s\n", corpus.file_count, corpus.file_count == 1 ? "" : "s",
           corpus.case_count, corpus.case_count == 1 ? "" : "s", errors, errors == 1 ? "" : "s");
    dmlconf_case_corpus_free(&corpus);
    return errors ? EXIT_INVALID_INPUT : EXIT_PASSED;
}
