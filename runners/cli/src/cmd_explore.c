/*
 * `dmlconf explore`: the command line of an exploration (the explore room,
 * dmlconf/explore.h, runs it).
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <dmlconf/explore.h>
#include <dmlconf/file_system.h>
#include <dmlconf/integer_text.h>
#include <dmlconf/reserve.h>
#include <dmlconf/system_info.h>
#include <dmlconf/threads.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char explore_usage[] =
    "usage: dmlconf explore [OPTIONS] [-- COMMAND [ARGS...]]\n"
    "\n"
    "Draws random valid descs and inputs (and invalid descs the backend must refuse),\n"
    "runs them on a backend in rounds, judges them with the oracle as `dmlconf run` does,\n"
    "shrinks each distinct failure into a standalone case file, and steers towards the\n"
    "cells of the desc space not yet exercised.\n"
    "\n"
    "options:\n"
    "  -b, --backend NAME        backend to explore (default: d3d12, dmlconf's own kernels\n"
    "                            on the GPU here; nothing runs in its place when it cannot);\n"
    "                            plugin:PATH loads a native plugin, and exec runs the\n"
    "                            adapter COMMAND given after --\n"
    "  -a, --adapter WHICH       adapter index or name fragment\n"
    "      --directml-dll PATH   the DirectML library the directml backend loads\n"
    "      --directml-flags F, --directml-graph G, --directml-binding B\n"
    "                            the directml backend's path, as `dmlconf run` takes it\n"
    "  -l, --feature-level L     target feature level (default: the backend's)\n"
    "      --seconds N           stop after N seconds (default 60 when --cases is not given)\n"
    "      --cases N             stop after N cases\n"
    "      --seed S              the run's seed (default 1): the same seed and options give\n"
    "                            the same cases\n"
    "      --max-elements N      the most elements of one tensor (default 65536)\n"
    "      --negative-rate P     invalid descs per hundred cases where the backend refuses\n"
    "                            invalid descs itself (default 5)\n"
    "  -j, --jobs N              worker processes (default: the number of CPUs; 0 runs in\n"
    "                            this process, without crash isolation)\n"
    "  -o, --report-dir DIR      where the reports go (default: dmlconf-explore)\n"
    "      --resume              go on with the stopped run in the report folder (same\n"
    "                            options): its budget counts what it already ran\n"
    "      --overwrite           replace an earlier exploration in the report folder (a\n"
    "                            folder that holds one is refused otherwise)\n"
    "      --timeout SECONDS     a fixed limit per batch of cases (0: none); by default\n"
    "                            it scales with the batch's elements, at least 120 s\n"
    "      --shrink-seconds N    time to shrink one finding (default 30)\n"
    "      --no-shrink           write each finding's first case as it was drawn\n"
    "      --no-rerun            do not rerun failures to tell flakes\n"
    "      --corpus PATH         the corpus to compare findings with (repeatable; default:\n"
    "                            the default corpus); --no-corpus skips the comparison\n"
    "      --replay INDEX        write case INDEX of the sequence as a case file on standard\n"
    "                            output and run nothing\n"
    "  -q, --quiet               only the verdict's line on the console (and warnings)\n"
    "      --progress-interval SECONDS\n"
    "                            when the console is not a terminal, a status line every\n"
    "                            SECONDS (default 5; 0: none)\n"
    "  -h, --help                this help\n"
    "\n"
    "The reports' verdict covers random cases: it never claims conformance.\n"
    "\n"
    "exit status: 0 when every case judged passed, 1 when there is a finding, 2 when the\n"
    "run is incomplete (interrupted, nothing judged: every case declined), 3 on a setup\n"
    "error (a usage error, a backend that cannot be used, a report folder that cannot be\n"
    "used or holds an earlier exploration, a corpus path that does not exist).\n";

static int usage_error(const char *option, const char *expected, const char *value)
{
    fprintf(stderr, "dmlconf explore: %s takes %s, not '%s'\n", option, expected, value);
    return EXIT_USAGE;
}

/* Parses one option that takes a number. Returns -1 when understood, or the
 * exit status of a usage error. */
static int parse_number_option(int option, const char *value, explore_run_options *o)
{
    uint64_t number;
    bool bad = !dmlconf_parse_u64(value, 0, UINT64_MAX, &number);
    switch (option)
    {
    case 'T':
        if (bad || number == 0 || number > 7 * 86400)
            return usage_error("--seconds", "1 to 604800", value);
        o->seconds = (double)number;
        break;
    case 'C':
        if (bad || number == 0)
            return usage_error("--cases", "a positive number", value);
        o->cases = number;
        break;
    case 's':
        if (bad)
            return usage_error("--seed", "an unsigned 64-bit integer", value);
        o->seed = number;
        break;
    case 'M':
        if (bad || number == 0 || number > UINT32_MAX)
            return usage_error("--max-elements", "1 to 4294967295", value);
        o->max_elements = number;
        break;
    case 'N':
        if (bad || number > 100)
            return usage_error("--negative-rate", "0 to 100", value);
        o->negative_percent = (unsigned)number;
        break;
    case 'j':
        if (bad || number > 1024)
            return usage_error("--jobs", "0 to 1024", value);
        o->jobs = (unsigned)number;
        break;
    case 'O':
        if (bad || number > 86400)
            return usage_error("--timeout", "0 to 86400 seconds", value);
        o->timeout = number;
        o->timeout_given = true;
        break;
    case 'K':
        if (bad || number == 0 || number > 3600)
            return usage_error("--shrink-seconds", "1 to 3600", value);
        o->shrink_seconds = (double)number;
        break;
    default:
        if (bad)
            return usage_error("--replay", "a case index", value);
        o->replay = true;
        o->replay_index = number;
        break;
    }
    return -1;
}

/* Adds a --corpus path. Returns 0, or -1 when memory runs out. */
static int add_corpus_path(explore_run_options *o, char *path)
{
    if (!dmlconf_reserve((void **)&o->corpus_paths, &o->corpus_capacity, o->corpus_count + 1, sizeof(*o->corpus_paths)))
        return -1;
    o->corpus_paths[o->corpus_count++] = path;
    return 0;
}

/* The long options of `dmlconf explore`; the letters past the short ones are
 * long-only. */
static const struct option explore_long_options[] = {
    {"backend", required_argument, NULL, 'b'},
    {"adapter", required_argument, NULL, 'a'},
    CLI_DIRECTML_LONG_OPTIONS,
    {"feature-level", required_argument, NULL, 'l'},
    {"seconds", required_argument, NULL, 'T'},
    {"cases", required_argument, NULL, 'C'},
    {"seed", required_argument, NULL, 's'},
    {"max-elements", required_argument, NULL, 'M'},
    {"negative-rate", required_argument, NULL, 'N'},
    {"jobs", required_argument, NULL, 'j'},
    {"report-dir", required_argument, NULL, 'o'},
    {"resume", no_argument, NULL, 'U'},
    {"overwrite", no_argument, NULL, 'W'},
    {"timeout", required_argument, NULL, 'O'},
    {"shrink-seconds", required_argument, NULL, 'K'},
    {"no-shrink", no_argument, NULL, 'P'},
    {"no-rerun", no_argument, NULL, 'R'},
    {"corpus", required_argument, NULL, 'c'},
    {"no-corpus", no_argument, NULL, 'X'},
    {"replay", required_argument, NULL, 'Y'},
    {"quiet", no_argument, NULL, 'q'},
    {"progress-interval", required_argument, NULL, 'I'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Takes one option (getopt_long's answer) into *o. Returns -1 to go on, or
 * the exit status to end with (help, a usage error). */
static int apply_explore_option(int option, char *argument, explore_run_options *o)
{
    switch (option)
    {
    case 'b':
        o->backend_name = argument;
        break;
    case 'a':
        o->adapter = argument;
        break;
    case CLI_OPTION_DIRECTML_DLL:
    case CLI_OPTION_DIRECTML_FLAGS:
    case CLI_OPTION_DIRECTML_GRAPH:
    case CLI_OPTION_DIRECTML_BINDING:
        if (cli_take_directml_option("explore", option, argument))
            return EXIT_SETUP;
        break;
    case 'l':
        if (!dmlconf_feature_level_from_name(argument, &o->level))
            return usage_error("--feature-level", "a feature level (1_0 to 6_4)", argument);
        break;
    case 'o':
        o->report_dir = argument;
        break;
    case 'U':
        o->resume = true;
        break;
    case 'W':
        o->overwrite = true;
        break;
    case 'P':
        o->shrink = false;
        break;
    case 'R':
        o->rerun = false;
        break;
    case 'c':
        if (add_corpus_path(o, argument))
            return EXIT_SETUP;
        break;
    case 'X':
        o->no_corpus = true;
        break;
    case 'q':
        o->quiet = true;
        break;
    case 'I':
    {
        char *end = NULL;
        o->progress_interval = strtod(argument, &end);
        if (end == argument || *end || !(o->progress_interval >= 0.0 && o->progress_interval <= 3600.0))
            return usage_error("--progress-interval", "0 to 3600 seconds", argument);
        break;
    }
    case 'h':
        fputs(explore_usage, stdout);
        return EXIT_PASSED;
    case 'T':
    case 'C':
    case 's':
    case 'M':
    case 'N':
    case 'j':
    case 'O':
    case 'K':
    case 'Y':
        return parse_number_option(option, argument, o);
    default:
        fputs(explore_usage, stderr);
        return EXIT_USAGE;
    }
    return -1;
}

/* Checks the options against each other and the operands left after them.
 * Returns -1 to go on, or EXIT_USAGE (said why). */
static int check_explore_options(int argc, char **argv, explore_run_options *o)
{
    if (optind < argc)
    {
        fprintf(stderr, "dmlconf explore: unexpected argument '%s' (it takes no case files)\n", argv[optind]);
        return EXIT_USAGE;
    }
    bool exec = o->backend_name && !strcmp(o->backend_name, "exec");
    if (exec && !o->command)
    {
        fprintf(stderr, "dmlconf explore: --backend exec runs the adapter program given after --: dmlconf explore "
                        "--backend exec [OPTIONS] -- COMMAND [ARGS...]\n");
        return EXIT_USAGE;
    }
    if (!exec && o->command)
    {
        fprintf(stderr, "dmlconf explore: unexpected argument '%s' after -- (only --backend exec takes a command)\n",
                o->command[0]);
        return EXIT_USAGE;
    }
    if (o->resume && o->overwrite)
    {
        fprintf(stderr, "dmlconf explore: --resume goes on with the exploration in the folder, --overwrite replaces "
                        "it: give one\n");
        return EXIT_USAGE;
    }
    /* A corpus to compare with that is not there would leave the findings
     * uncompared without a word. */
    for (size_t i = 0; i < o->corpus_count; ++i)
    {
        dmlconf_path_kind kind = DMLCONF_PATH_MISSING;
        char why[512] = "";
        if (dmlconf_path_examine(o->corpus_paths[i], &kind, NULL, why, sizeof(why)) || kind == DMLCONF_PATH_MISSING)
        {
            fprintf(stderr, "dmlconf explore: --corpus %s: %s\n", o->corpus_paths[i],
                    why[0] ? why : "there is no such file or folder");
            return EXIT_USAGE;
        }
    }
    if (o->no_corpus && o->corpus_count)
    {
        fprintf(stderr, "dmlconf explore: --corpus and --no-corpus contradict each other\n");
        return EXIT_USAGE;
    }
    if (!o->seconds && !o->cases)
        o->seconds = 60.0;
    return -1;
}

/* Parses the command line. Returns -1 to go on, or the exit status. */
static int parse_options(int argc, char **argv, explore_run_options *o)
{
    memset(o, 0, sizeof(*o));
    o->report_dir = "dmlconf-explore";
    o->seed = 1;
    o->max_elements = 65536;
    o->negative_percent = 5;
    o->jobs = dmlconf_cpu_count();
    o->timeout = 120;
    o->shrink_seconds = 30.0;
    o->progress_interval = 5.0;
    o->shrink = o->rerun = true;
    o->argc = argc;
    o->argv = argv;
    /* After "--": the command of a backend that runs one (exec). */
    int separator = 1;
    while (separator < argc && strcmp(argv[separator], "--"))
        ++separator;
    if (separator + 1 < argc)
        o->command = (const char *const *)(argv + separator + 1);
    argc = separator;
    optind = 1;
    int option;
    while ((option = getopt_long(argc, argv, "b:a:l:j:o:qh", explore_long_options, NULL)) != -1)
    {
        int status = apply_explore_option(option, optarg, o);
        if (status >= 0)
            return status;
    }
    return check_explore_options(argc, argv, o);
}

int command_explore(int argc, char **argv)
{
    explore_run_options o;
    int exit_code = parse_options(argc, argv, &o);
    if (exit_code < 0)
        exit_code = explore_run(&o);
    free(o.corpus_paths);
    return exit_code;
}
