/*
 * `dmlconf bless`: complete case files with the oracle's expected values
 * (SQLite sqllogictest's completion mode).
 */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>

static const char bless_usage[] = "usage: dmlconf bless [--all] PATH...\n"
                                  "\n"
                                  "Writes the oracle's results into the case files as inline `expected:` lists (or\n"
                                  ".npy files for .npy inputs, and for generated inputs of more than 1024 values):\n"
                                  "for the cases without expected values, or for every positive case with --all.\n"
                                  "Inputs, generators included, and everything else in the files stay byte for\n"
                                  "byte. Files with errors are left alone, a case whose expected values disagree\n"
                                  "with the oracle included: --all recomputes them.\n"
                                  "\n"
                                  "  --all        recompute expected values that are already there (without first\n"
                                  "               checking them against the oracle)\n"
                                  "  -h, --help   this help\n";

int command_bless(int argc, char **argv)
{
    static const struct option options[] = {
        {"all", no_argument, NULL, 'A'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    dmlconf_bless_options bless = {0};
    int option;
    optind = 1;
    while ((option = getopt_long(argc, argv, "h", options, NULL)) != -1)
    {
        switch (option)
        {
        case 'A':
            bless.all = true;
            break;
        case 'h':
            fputs(bless_usage, stdout);
            return EXIT_PASSED;
        default:
            fputs(bless_usage, stderr);
            return EXIT_USAGE;
        }
    }
    if (optind == argc)
    {
        fputs(bless_usage, stderr);
        return EXIT_USAGE;
    }
    /* --all replaces the expected values there are, so they are not
     * checked against the oracle first: old or wrong values are what it
     * recomputes. Without it they stay, and a wrong one is an error that
     * leaves its file alone. */
    dmlconf_load_options load = {.expected_check =
                                     bless.all ? DMLCONF_EXPECTED_CHECK_NONE : DMLCONF_EXPECTED_CHECK_BOUNDED};
    dmlconf_case_corpus corpus;
    size_t errors = runner_load_corpus_with(&corpus, argv + optind, (size_t)(argc - optind), &load);
    long blessed = 0;
    int failed = 0;
    for (size_t f = 0; f < corpus.file_count; ++f)
    {
        const dmlconf_case_file *file = &corpus.files[f];
        if (file->diagnostics.error_count)
            continue;
        dmlconf_diagnostics diags = {0};
        long n = dmlconf_case_file_bless(file, &bless, &diags);
        dmlconf_diagnostics_print(&diags, NULL, stderr);
        dmlconf_diagnostics_free(&diags);
        if (n < 0)
            failed = 1;
        else if (n > 0)
        {
            printf("%s: %ld case%s blessed\n", file->path, n, n == 1 ? "" : "s");
            blessed += n;
        }
    }
    printf("%ld case%s blessed\n", blessed, blessed == 1 ? "" : "s");
    dmlconf_case_corpus_free(&corpus);
    return errors ? EXIT_INVALID_INPUT : failed ? EXIT_FAILED : EXIT_PASSED;
}
