/*
 * What `dmlconf run` is told: its help, its options and their checks, and
 * the operands that follow them.
 */
#define _POSIX_C_SOURCE 200809L

#include "run_options.h"

#include "cli.h"

#include <dmlconf/system_info.h>
#include <dmlconf/threads.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The help, in parts (a string literal has its limits): what to run. */
static const char run_usage_options[] =
    "usage: dmlconf run [OPTIONS] [PATH...] [-- COMMAND [ARGS...]]\n"
    "\n"
    "Runs conformance cases (YAML files, or folders searched for them; by default the\n"
    "whole corpus) on a backend, compares every output with the exact oracle and writes\n"
    "the reports.\n"
    "\n"
    "options:\n"
    "  -b, --backend NAME        backend to run on (default: d3d12, dmlconf's own kernels\n"
    "                            on the GPU here; nothing runs in its place when it cannot);\n"
    "                            `exec` runs an implementation's adapter program, the\n"
    "                            COMMAND after -- (no shell), over the process protocol\n"
    "                            (docs/process-protocol.md); plugin:PATH loads a native\n"
    "                            plugin (a shared library built against dmlconf/backend.h)\n"
    "  -a, --adapter WHICH       adapter index or name fragment (see `dmlconf adapters`)\n"
    "      --directml-dll PATH   the DirectML library the directml backend loads (a file,\n"
    "                            or a folder holding it); sets DMLCONF_DIRECTML_DLL\n"
    "      --directml-flags F    the directml backend's execution flags: none (default),\n"
    "                            half-precision, disable-meta-commands,\n"
    "                            descriptors-volatile, joined by +; sets DMLCONF_DIRECTML_FLAGS\n"
    "      --directml-graph G    none (default: the operator alone), alone (a graph of it),\n"
    "                            input-edge or output-edge (an identity beside it); sets\n"
    "                            DMLCONF_DIRECTML_GRAPH\n"
    "      --directml-binding B  default, offset-aligned or offset-minimum, owned-input,\n"
    "                            repeat, shared-initializer, joined by +; sets\n"
    "                            DMLCONF_DIRECTML_BINDING\n"
    "  -l, --feature-level L     target DirectML feature level, e.g. 4_0 (default: the\n"
    "                            backend's); cases above it are skipped\n"
    "  -f, --filter GLOB         run the ids matching GLOB; repeatable; '!GLOB' excludes;\n"
    "                            -f @FILE is --caselist FILE\n"
    "      --caselist FILE       run the cases FILE lists (ids or globs, one a line, '#'\n"
    "                            comments; - reads standard input); repeatable: the\n"
    "                            lists add up, and the filters narrow what they list; a\n"
    "                            line that names no case leaves the run incomplete\n"
    "      --rerun-failures DIR  run the cases that did not pass in the run whose reports\n"
    "                            are in DIR (every status but pass and skip); adds up\n"
    "                            with --caselist\n"
    "      --shard I/N           run shard I of N (0-based); also TEST_SHARD_INDEX and\n"
    "                            TEST_TOTAL_SHARDS from the environment\n";

/* How it runs, where the reports go. */
static const char run_usage_running[] =
    "  -j, --jobs N              worker processes (default: the number of CPUs, at most 2\n"
    "                            on a hardware adapter; 0 runs in this process, without\n"
    "                            crash isolation)\n"
    "      --baseline DIR        known failures, flakes and skips (failures.txt, flakes.txt,\n"
    "                            skips.txt); a listed failure that passes fails the run\n"
    "      --flakes FILE         more known flakes (globs, one a line, as flakes.txt), with or\n"
    "                            without --baseline\n"
    "      --strict-baseline     a baseline line that matches no case (stale) fails the run\n"
    "  -o, --report-dir DIR      where the reports go (default: dmlconf-results); checked\n"
    "                            and locked before any case runs; a folder that holds an\n"
    "                            earlier run's reports is refused\n"
    "      --overwrite           replace an earlier run's reports in the folder (once this\n"
    "                            run begins: a run that cannot start leaves them)\n"
    "      --resume              go on with the interrupted or crashed run in the report\n"
    "                            folder (same options): cases it finished do not run again\n"
    "      --memory-limit BYTES  most memory one case may take (suffixes k, M, G; default:\n"
    "                            3/4 of the machine's memory shared by the workers); a case\n"
    "                            that needs more is an error, not run\n"
    "      --seed N              mix N into every generated input (default 0: the\n"
    "                            corpus' own data)\n"
    "      --timeout SECONDS     a fixed limit per case, and per batch of small cases (0:\n"
    "                            none); by default the limit scales with the case's\n"
    "                            elements and the backend's speed in this run, at least\n"
    "                            120 s (dmlconf.1 gives the formula)\n"
    "      --no-rerun            do not rerun failures to tell flakes\n"
    "      --no-repro            do not shrink failures into minimal reproducers\n"
    "      --junit-max-bytes N   junit.xml within N bytes (k, M, G): the verdict, then\n"
    "                            as many cases as fit, failures first\n"
    "  -q, --quiet               only the verdict's lines on the console (and warnings)\n"
    "      --progress-interval SECONDS\n"
    "                            when the console is not a terminal, a status line every\n"
    "                            SECONDS (default 5; 0: none); a terminal gets one line,\n"
    "                            redrawn\n"
    "  -h, --help                this help\n";

static const char run_usage_notes[] =
    "\n"
    "The verdict states its scope: only the whole reference corpus on an implementation\n"
    "under test can be conformant; a subset (filters, case lists, a shard), case files of\n"
    "your own and the self-check (--backend oracle) pass or fail without a conformance\n"
    "claim. With --baseline the run also answers \"no regressions\", and the exit status\n"
    "follows that answer.\n"
    "\n"
    "exit status: 0 passed (conformant at the target level; passed, for a scope that\n"
    "claims no conformance; with --baseline: no regressions), 1 failed (a case failed;\n"
    "with --baseline: regressions), 2 incomplete (interrupted, a case file did not load,\n"
    "a case list line that names no case, cases missing or not judged for lack of\n"
    "resources, nothing to run, or cases the backend does not support left uncovered), 3\n"
    "setup error (a usage error, a backend, adapter or plugin that cannot be used, a case\n"
    "list or report folder that cannot be read or used).\n";

static void print_run_usage(FILE *out)
{
    fputs(run_usage_options, out);
    fputs(run_usage_running, out);
    fputs(run_usage_notes, out);
}

static int parse_u64(const char *text, uint64_t *value)
{
    char *end;
    errno = 0;
    if (!*text || *text == '-')
        return -1;
    unsigned long long v = strtoull(text, &end, 0);
    if (errno || *end)
        return -1;
    *value = v;
    return 0;
}

/* Where the "--" that ends the options stands in argv (argc when there is
 * none), found by a first pass of getopt that keeps the arguments in order:
 * an option's own argument that happens to be "--" is not taken for it. */
static int find_separator(int argc, char **argv, const char *short_options, const struct option *options)
{
    char in_order[64];
    snprintf(in_order, sizeof(in_order), "-%s", short_options);
    int saved_opterr = opterr;
    opterr = 0;
    optind = 0;
    int before = 1;
    for (;;)
    {
        before = optind > 0 ? optind : 1;
        if (getopt_long(argc, argv, in_order, options, NULL) == -1)
            break;
    }
    int separator = optind == before + 1 && before < argc && !strcmp(argv[before], "--") ? before : argc;
    opterr = saved_opterr;
    optind = 0;
    return separator;
}

/* Splits the operands for `backend`. Returns 0, or -1 (message printed)
 * when the command is missing or misplaced, or memory runs out. */
int run_split_operands(char **argv, int argc, int separator, int first, const dmlconf_backend_ops *backend,
                       run_operands *out)
{
    memset(out, 0, sizeof(*out));
    out->paths = argv + first;
    out->path_count = (size_t)(separator - first);
    bool takes_command = backend && !strcmp(backend->name, "exec");
    size_t after = separator < argc ? (size_t)(argc - separator - 1) : 0;
    if (takes_command)
    {
        if (!after)
        {
            fprintf(stderr, "dmlconf run: --backend exec runs the adapter program given after --: dmlconf run "
                            "--backend exec [OPTIONS] [PATH...] -- COMMAND [ARGS...]\n");
            return -1;
        }
        out->command = (const char *const *)(argv + separator + 1);
        out->command_count = after;
        return 0;
    }
    if (!after)
        return 0;
    /* Case files after "--", as before any backend took a command. */
    out->combined = malloc((out->path_count + after) * sizeof(*out->combined));
    if (!out->combined)
    {
        fprintf(stderr, "dmlconf run: out of memory\n");
        return -1;
    }
    memcpy(out->combined, out->paths, out->path_count * sizeof(*out->combined));
    memcpy(out->combined + out->path_count, argv + separator + 1, after * sizeof(*out->combined));
    out->paths = out->combined;
    out->path_count += after;
    return 0;
}

/* Reads the shard from --shard or the GoogleTest convention's variables. */
static int parse_shard(const char *shard, run_options *o)
{
    o->shard_index = 0;
    o->shard_count = 1;
    const char *env_index = getenv("TEST_SHARD_INDEX"), *env_total = getenv("TEST_TOTAL_SHARDS");
    if (shard)
    {
        if (runner_parse_shard(shard, &o->shard_index, &o->shard_count))
        {
            fprintf(stderr, "dmlconf run: --shard takes I/N with 0 <= I < N, not '%s'\n", shard);
            return -1;
        }
        return 0;
    }
    if (!env_index && !env_total)
        return 0;
    if (!env_index || !env_total)
    {
        /* Half a shard is no shard: running the whole corpus instead would
         * run it once per shard. */
        fprintf(stderr, "dmlconf run: %s is set but %s is not; set both (or neither)\n",
                env_index ? "TEST_SHARD_INDEX" : "TEST_TOTAL_SHARDS",
                env_index ? "TEST_TOTAL_SHARDS" : "TEST_SHARD_INDEX");
        return -1;
    }
    char text[64];
    snprintf(text, sizeof(text), "%s/%s", env_index, env_total);
    if (runner_parse_shard(text, &o->shard_index, &o->shard_count))
    {
        fprintf(stderr, "dmlconf run: TEST_SHARD_INDEX=%s and TEST_TOTAL_SHARDS=%s do not name a shard\n", env_index,
                env_total);
        return -1;
    }
    /* Tell the test launcher that sharding is understood. */
    const char *status_file = getenv("TEST_SHARD_STATUS_FILE");
    if (status_file && *status_file)
    {
        FILE *touch = fopen(status_file, "a");
        if (touch)
            fclose(touch);
    }
    return 0;
}

/* The long options of `dmlconf run`; the letters past the short ones are
 * long-only. */
static const struct option run_long_options[] = {
    {"backend", required_argument, NULL, 'b'},
    {"adapter", required_argument, NULL, 'a'},
    CLI_DIRECTML_LONG_OPTIONS,
    {"feature-level", required_argument, NULL, 'l'},
    {"filter", required_argument, NULL, 'f'},
    {"caselist", required_argument, NULL, 'C'},
    {"rerun-failures", required_argument, NULL, 'F'},
    {"shard", required_argument, NULL, 'S'},
    {"jobs", required_argument, NULL, 'j'},
    {"baseline", required_argument, NULL, 'B'},
    {"strict-baseline", no_argument, NULL, 'X'},
    {"flakes", required_argument, NULL, 'k'},
    {"report-dir", required_argument, NULL, 'o'},
    {"resume", no_argument, NULL, 'U'},
    {"overwrite", no_argument, NULL, 'W'},
    {"memory-limit", required_argument, NULL, 'M'},
    {"junit-max-bytes", required_argument, NULL, 'J'},
    {"seed", required_argument, NULL, 's'},
    {"timeout", required_argument, NULL, 'T'},
    {"no-rerun", no_argument, NULL, 'R'},
    {"no-repro", no_argument, NULL, 'P'},
    {"quiet", no_argument, NULL, 'q'},
    {"progress-interval", required_argument, NULL, 'I'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
static const char run_short_options[] = "b:a:l:f:j:o:qh";

/* An option's number, checked against its range: returns -1 to go on, or
 * EXIT_USAGE (said why). */
static int parse_number_option(int option, const char *argument, run_options *o)
{
    uint64_t value;
    switch (option)
    {
    case 'j':
        if (parse_u64(argument, &value) || value > 1024)
        {
            fprintf(stderr, "dmlconf run: --jobs takes 0 to 1024, not '%s'\n", argument);
            return EXIT_USAGE;
        }
        o->jobs = (unsigned)value;
        o->jobs_given = true;
        return -1;
    case 'M':
        if (cli_parse_bytes(argument, &o->memory_limit) || o->memory_limit == 0)
        {
            fprintf(stderr, "dmlconf run: --memory-limit takes a number of bytes (4G, 512M), not '%s'\n", argument);
            return EXIT_USAGE;
        }
        o->memory_given = true;
        return -1;
    case 'J':
        if (cli_parse_bytes(argument, &o->junit_max_bytes) || o->junit_max_bytes == 0)
        {
            fprintf(stderr, "dmlconf run: --junit-max-bytes takes a number of bytes (1M, 500k), not '%s'\n",
                    argument);
            return EXIT_USAGE;
        }
        return -1;
    case 's':
        if (parse_u64(argument, &o->seed))
        {
            fprintf(stderr, "dmlconf run: --seed takes an unsigned 64-bit integer, not '%s'\n", argument);
            return EXIT_USAGE;
        }
        return -1;
    case 'I':
    {
        /* Seconds, a fraction of one too (for tests). */
        char *end = NULL;
        double seconds = strtod(argument, &end);
        if (end == argument || *end || !(seconds >= 0.0 && seconds <= 3600.0))
        {
            fprintf(stderr, "dmlconf run: --progress-interval takes 0 to 3600 seconds, not '%s'\n", argument);
            return EXIT_USAGE;
        }
        o->progress_interval = seconds;
        return -1;
    }
    default: /* 'T' */
        if (parse_u64(argument, &o->timeout) || o->timeout > 86400)
        {
            fprintf(stderr, "dmlconf run: --timeout takes 0 to 86400 seconds, not '%s'\n", argument);
            return EXIT_USAGE;
        }
        o->timeout_given = true;
        return -1;
    }
}

/* Adds a case list's path to the options. Returns 0, or -1 when memory
 * runs out. */
static int add_caselist(run_options *o, const char *path)
{
    const char **grown = realloc(o->caselists, (o->caselist_count + 1) * sizeof(*grown));
    if (!grown)
        return -1;
    grown[o->caselist_count++] = path;
    o->caselists = grown;
    return 0;
}

/* Takes one option (getopt_long's answer) into *o. Returns -1 to go on, or
 * the exit status to end with (help, a usage error). */
static int apply_run_option(int option, const char *argument, run_options *o)
{
    switch (option)
    {
    case 'b':
        o->backend_name = argument;
        return -1;
    case 'a':
        o->adapter = argument;
        return -1;
    case CLI_OPTION_DIRECTML_DLL:
    case CLI_OPTION_DIRECTML_FLAGS:
    case CLI_OPTION_DIRECTML_GRAPH:
    case CLI_OPTION_DIRECTML_BINDING:
        return cli_take_directml_option("run", option, argument) ? EXIT_SETUP : -1;
    case 'l':
        if (!dmlconf_feature_level_from_name(argument, &o->level))
        {
            fprintf(stderr, "dmlconf run: '%s' is not a feature level (1_0 to 6_4)\n", argument);
            return EXIT_USAGE;
        }
        return -1;
    case 'f':
    case 'C':
        /* -f @FILE is --caselist FILE. */
        if (option == 'C' || argument[0] == '@' ? add_caselist(o, option == 'C' ? argument : argument + 1)
                                                : runner_filter_add(&o->filter, argument))
        {
            fprintf(stderr, "dmlconf run: out of memory\n");
            return EXIT_SETUP;
        }
        return -1;
    case 'F':
        o->rerun_dir = argument;
        return -1;
    case 'j':
    case 'M':
    case 'J':
    case 's':
    case 'T':
    case 'I':
        return parse_number_option(option, argument, o);
    case 'S':
        o->shard = argument;
        return -1;
    case 'B':
        o->baseline_dir = argument;
        return -1;
    case 'X':
        o->strict_baseline = true;
        return -1;
    case 'k':
        o->flakes_file = argument;
        return -1;
    case 'o':
        o->report_dir = argument;
        return -1;
    case 'U':
        o->resume = true;
        return -1;
    case 'W':
        o->overwrite = true;
        return -1;
    case 'R':
        o->rerun = false;
        return -1;
    case 'P':
        o->repro = false;
        return -1;
    case 'q':
        o->quiet = true;
        return -1;
    case 'h':
        print_run_usage(stdout);
        return EXIT_PASSED;
    default:
        print_run_usage(stderr);
        return EXIT_USAGE;
    }
}

/* Checks the options against each other and fills in the defaults that
 * depend on them. Returns -1 to go on, or EXIT_USAGE (said why). */
static int check_run_options(run_options *o)
{
    if (o->strict_baseline && !o->baseline_dir)
    {
        fprintf(stderr, "dmlconf run: --strict-baseline needs --baseline DIR\n");
        return EXIT_USAGE;
    }
    if (o->resume && o->overwrite)
    {
        fprintf(stderr, "dmlconf run: --resume goes on with the run in the folder, --overwrite replaces it: give "
                        "one\n");
        return EXIT_USAGE;
    }
    if (!o->memory_given)
    {
        /* Each worker may hold one large case: three quarters of the
         * machine's memory, shared by the workers. */
        uint64_t memory = dmlconf_physical_memory_bytes();
        o->memory_limit = memory ? memory / 4 * 3 / (o->jobs ? o->jobs : 1) : 0;
    }
    return parse_shard(o->shard, o) ? EXIT_USAGE : -1;
}

int run_parse_options(int argc, char **argv, run_options *o)
{
    memset(o, 0, sizeof(*o));
    o->report_dir = "dmlconf-results";
    o->jobs = dmlconf_cpu_count();
    o->timeout = 120;
    o->progress_interval = 5.0;
    o->rerun = o->repro = true;
    o->argc = argc;
    o->argv = argv;
    /* The options end at "--"; what follows is for the backend (or more
     * case files). */
    o->separator = find_separator(argc, argv, run_short_options, run_long_options);
    int option;
    while ((option = getopt_long(o->separator, argv, run_short_options, run_long_options, NULL)) != -1)
    {
        int status = apply_run_option(option, optarg, o);
        if (status >= 0)
            return status;
    }
    o->first_operand = optind;
    return check_run_options(o);
}
