/*
 * dmlconf: the conformance suite's command line. Each subcommand lives in
 * its own file (cmd_*.c); this one only dispatches.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#ifndef DMLCONF_VERSION
#define DMLCONF_VERSION "unknown"
#endif

typedef struct subcommand
{
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} subcommand;

static const subcommand subcommands[] = {
    {"run", command_run, "run cases on a backend, compare with the oracle, write reports"},
    {"list", command_list, "list case ids (matching filters) with their feature level"},
    {"show", command_show, "show a case: its parameters, input and the oracle's output"},
    {"validate", command_validate, "load and check case files without running them"},
    {"bless", command_bless, "fill in expected values from the oracle"},
    {"merge", command_merge, "merge the results of shards into one report"},
    {"compare", command_compare, "what changed between two runs: regressions, fixes, times, verdicts"},
    {"suite", command_suite, "several runs named in one suite file, with a combined summary"},
    {"adapters", command_adapters, "list the backends and their adapters"},
    {"docgen", command_docgen, "render, check or update the reference pages' example blocks"},
    {"explore", command_explore, "random cases against the oracle, failures shrunk into reproducers"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: dmlconf COMMAND [OPTIONS] [ARGS]\n\n"
                 "Conformance suite and golden oracle for DirectML's cumulative operators.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); ++i)
        fprintf(out, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
    fprintf(out, "\n`dmlconf COMMAND --help` describes each command; `man dmlconf` all of them.\n"
                 "exit status: 0 passed (or no regressions), 1 failed (or regressions), 2 incomplete\n"
                 "(or, for validate, list, show, bless and docgen, input with errors), 3 setup error\n"
                 "(a usage error, a backend or report folder that cannot be used).\n");
}

int main(int argc, char **argv)
{
    if (argc < 2)
    {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))
    {
        usage(stdout);
        return EXIT_PASSED;
    }
    if (!strcmp(argv[1], "--version"))
    {
        printf("dmlconf %s\n", DMLCONF_VERSION);
        return EXIT_PASSED;
    }
    if (!strcmp(argv[1], "__worker"))
        return command_worker(argc - 1, argv + 1);
    for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); ++i)
    {
        if (!strcmp(argv[1], subcommands[i].name))
            return subcommands[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "dmlconf: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
