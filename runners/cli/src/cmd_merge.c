/*
 * `dmlconf merge`: combine the results.jsonl of a run's shards into one set
 * of reports. Each results file says what it is (shard index and count,
 * backend, adapter, target level, seed, corpus digest, cases planned) and
 * how it ended; merge checks that the shards are one run's, every shard once,
 * each finished with all its cases, before it writes a report that claims a
 * verdict. With --partial it writes what there is instead, as "incomplete".
 */
#include "cli.h"

#include <dmlconf/file_system.h>
#include <dmlconf/reports.h>
#include <dmlconf/system_info.h>

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char merge_usage[] =
    "usage: dmlconf merge [--partial] [--overwrite] [--junit-max-bytes N] [-q] -o DIR RESULTS...\n"
    "\n"
    "Reads the results.jsonl of each shard of one run (a file, or a report folder holding\n"
    "one) and writes one merged set of reports into DIR. It refuses, naming the file and\n"
    "the reason, shards of different runs (backend, adapter, driver, runtime, target\n"
    "level, seed, environment, selected corpus or shard count), a shard given twice, a\n"
    "missing shard, a case in two shards, and a shard that did not finish (interrupted,\n"
    "crashed, or with case files that did not load).\n"
    "\n"
    "  -o, --report-dir DIR   where the merged reports go (required; never one of the\n"
    "                         shards; a folder that holds an earlier run's reports is\n"
    "                         refused)\n"
    "      --overwrite        replace an earlier run's reports in DIR\n"
    "      --partial          merge what there is anyway (not shards of different runs):\n"
    "                         the reports then say \"incomplete\"\n"
    "      --junit-max-bytes N  keep junit.xml within N bytes (suffixes k, M, G), as run does\n"
    "  -q, --quiet            only the verdict's lines on the console\n"
    "  -h, --help             this help\n"
    "\n"
    "exit status, from the merged run's verdict as every report says it: 0 passed\n"
    "(conformant, passed, or no regressions), 1 failed (or regressions), 2 incomplete (a\n"
    "partial merge, nothing judged, cases not covered; shards that cannot be read or are\n"
    "refused, DIR among them), 3 setup error (a usage error, DIR unusable or in use).\n";

/* One shard as read, and its path. */
typedef struct shard
{
    char *path;
    dmlconf_results_file file;
    bool dropped; /* a partial merge leaves it out (given twice) */
} shard;

/* Appends a phrase to the partial merge's reason. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void
note(char *reason, size_t size, const char *format, ...)
{
    size_t used = strlen(reason);
    va_list args;

    if (used + 3 >= size)
        return;
    if (used)
    {
        memcpy(reason + used, "; ", 3);
        used += 2;
    }
    va_start(args, format);
    vsnprintf(reason + used, size - used, format, args);
    va_end(args);
}

typedef struct id_key
{
    const char *id;
    size_t shard;
    size_t index;
} id_key;

static int compare_ids(const void *a, const void *b)
{
    const id_key *x = a;
    const id_key *y = b;
    int order = strcmp(x->id, y->id);
    if (order)
        return order;
    if (x->shard != y->shard)
        return x->shard < y->shard ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index ? 1 : 0;
}

/* Checks the shards and gathers their results into `merged` (a case in two
 * shards kept once, from the first, when partial). Returns 0, or -1 after
 * printing why (refused, or out of memory). */
static int gather(shard *shards, size_t count, bool partial, dmlconf_result_list *merged, dmlconf_run_end *end)
{
    const dmlconf_run_info *first = &shards[0].file.info;
    uint32_t shard_count = first->shard_count ? first->shard_count : 1;
    size_t *owner = NULL;
    size_t *offset = NULL;
    id_key *keys = NULL;
    bool *left_out = NULL;
    size_t total = 0;
    bool refused = false;
    int rc = -1;

    memset(end, 0, sizeof(*end));
    end->kind = DMLCONF_END_FINISHED;
    end->elapsed_seconds = -1.0;
    /* One run, and a place for every shard. */
    owner = malloc(shard_count * sizeof(*owner));
    if (!owner)
        goto oom;
    for (uint32_t i = 0; i < shard_count; ++i)
        owner[i] = SIZE_MAX;
    for (size_t s = 0; s < count; ++s)
    {
        const dmlconf_run_info *info = &shards[s].file.info;
        char why[512];
        char buf[128];
        const char *shortfall;
        if (s > 0 && !dmlconf_run_info_same_run(first, info, why, sizeof(why)))
        {
            fprintf(stderr, "dmlconf merge: %s and %s are not shards of one run: %s\n", shards[0].path, shards[s].path,
                    why);
            goto done; /* never merged, not even partially */
        }
        if (owner[info->shard_index] != SIZE_MAX)
        {
            fprintf(stderr, "dmlconf merge: %s: shard %u of %u is given twice (also %s)%s\n", shards[s].path,
                    (unsigned)info->shard_index, (unsigned)shard_count, shards[owner[info->shard_index]].path,
                    partial ? "; left out" : "");
            refused = true;
            shards[s].dropped = true;
            note(end->reason, sizeof(end->reason), "shard %u given twice", (unsigned)info->shard_index);
            continue;
        }
        owner[info->shard_index] = s;
        shortfall = dmlconf_results_file_shortfall(&shards[s].file, buf, sizeof(buf));
        if (shortfall)
        {
            fprintf(stderr, "dmlconf merge: %s: shard %u of %u is not complete: %s\n", shards[s].path,
                    (unsigned)info->shard_index, (unsigned)shard_count, shortfall);
            refused = true;
            note(end->reason, sizeof(end->reason), "shard %u not complete", (unsigned)info->shard_index);
        }
        if (shards[s].file.dropped_lines)
            fprintf(stderr, "dmlconf merge: %s: dropped %zu truncated line%s (a crashed run)\n", shards[s].path,
                    shards[s].file.dropped_lines, shards[s].file.dropped_lines == 1 ? "" : "s");
        total += shards[s].file.results.count;
    }
    for (uint32_t i = 0; i < shard_count; ++i)
    {
        if (owner[i] != SIZE_MAX)
            continue;
        fprintf(stderr, "dmlconf merge: shard %u of %u is missing\n", (unsigned)i, (unsigned)shard_count);
        refused = true;
        note(end->reason, sizeof(end->reason), "shard %u missing", (unsigned)i);
    }

    /* Every case once. */
    offset = malloc(count * sizeof(*offset));
    keys = malloc((total ? total : 1) * sizeof(*keys));
    left_out = calloc(total ? total : 1, sizeof(*left_out));
    if (!offset || !keys || !left_out)
        goto oom;
    total = 0;
    for (size_t s = 0; s < count; ++s)
    {
        offset[s] = total;
        for (size_t i = 0; !shards[s].dropped && i < shards[s].file.results.count; ++i)
            keys[total++] = (id_key){shards[s].file.results.items[i].id, s, i};
    }
    qsort(keys, total, sizeof(*keys), compare_ids);
    for (size_t k = 1; k < total; ++k)
    {
        if (strcmp(keys[k - 1].id, keys[k].id) != 0)
            continue;
        fprintf(stderr, "dmlconf merge: case %s is in %s and %s%s\n", keys[k].id, shards[keys[k - 1].shard].path,
                shards[keys[k].shard].path, partial ? "; the second is left out" : "");
        refused = true;
        note(end->reason, sizeof(end->reason), "case %s in two shards", keys[k].id);
        left_out[offset[keys[k].shard] + keys[k].index] = true;
    }
    if (refused && !partial)
    {
        fprintf(stderr, "dmlconf merge: refused; --partial writes the reports anyway, as incomplete\n");
        goto done;
    }
    /* In the shards' order, each shard's cases in file order. */
    for (size_t s = 0; s < count; ++s)
    {
        for (size_t i = 0; !shards[s].dropped && i < shards[s].file.results.count; ++i)
        {
            if (!left_out[offset[s] + i] && dmlconf_result_list_append(merged, &shards[s].file.results.items[i]))
                goto oom;
        }
    }
    if (refused)
        end->kind = DMLCONF_END_PARTIAL;
    rc = 0;
    goto done;
oom:
    fprintf(stderr, "dmlconf merge: out of memory\n");
done:
    free(owner);
    free(offset);
    free(keys);
    free(left_out);
    return rc;
}

/* What `dmlconf merge` was told. */
typedef struct merge_options
{
    const char *dir;
    bool partial, overwrite, quiet;
    uint64_t junit_max_bytes;
    char **shard_arguments; /* the RESULTS operands */
    size_t shard_count;
} merge_options;

/* Parses the command line. Returns -1 to go on, or the exit status (help,
 * a usage error). */
static int parse_merge_options(int argc, char **argv, merge_options *o)
{
    static const struct option options[] = {{"report-dir", required_argument, NULL, 'o'},
                                            {"partial", no_argument, NULL, 'p'},
                                            {"overwrite", no_argument, NULL, 'w'},
                                            {"junit-max-bytes", required_argument, NULL, 'J'},
                                            {"quiet", no_argument, NULL, 'q'},
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof(*o));
    int option;
    optind = 1;
    while ((option = getopt_long(argc, argv, "o:qh", options, NULL)) != -1)
    {
        switch (option)
        {
        case 'o':
            o->dir = optarg;
            break;
        case 'p':
            o->partial = true;
            break;
        case 'w':
            o->overwrite = true;
            break;
        case 'J':
            if (cli_parse_bytes(optarg, &o->junit_max_bytes) || o->junit_max_bytes == 0)
            {
                fprintf(stderr, "dmlconf merge: --junit-max-bytes takes a number of bytes (1M, 500k), not '%s'\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case 'q':
            o->quiet = true;
            break;
        case 'h':
            fputs(merge_usage, stdout);
            return EXIT_PASSED;
        default:
            fputs(merge_usage, stderr);
            return EXIT_USAGE;
        }
    }
    if (!o->dir || optind == argc)
    {
        fputs(merge_usage, stderr);
        return EXIT_USAGE;
    }
    o->shard_arguments = argv + optind;
    o->shard_count = (size_t)(argc - optind);
    return -1;
}

/* Reads every shard's results. Returns true when each could be read and
 * none lies where the merged reports go (each refusal said). */
static bool read_shards(const merge_options *o, shard *shards)
{
    bool readable = true;
    for (size_t s = 0; s < o->shard_count; ++s)
    {
        char why[640];
        shards[s].path = dmlconf_results_path(o->shard_arguments[s]);
        if (!shards[s].path)
        {
            fprintf(stderr, "dmlconf merge: out of memory\n");
            readable = false;
            continue;
        }
        if (dmlconf_results_file_read(shards[s].path, &shards[s].file, why, sizeof(why)))
        {
            fprintf(stderr, "dmlconf merge: %s\n", why);
            readable = false;
            continue;
        }
        /* The merged reports would overwrite the shard being read. */
        char *target = dmlconf_results_path(o->dir);
        bool same = target && (dmlconf_paths_same(target, shards[s].path) ||
                               dmlconf_paths_same(o->dir, o->shard_arguments[s]));
        free(target);
        if (same)
        {
            fprintf(stderr, "dmlconf merge: -o %s is where the shard %s lies; the merged reports go elsewhere\n",
                    o->dir, shards[s].path);
            readable = false;
        }
    }
    return readable;
}

/* Writes the merged run's reports and prints its verdict. Returns the exit
 * status: the merged run's verdict, or EXIT_SETUP for a folder that cannot
 * be written. */
static int write_merged(const merge_options *o, const shard *shards, const dmlconf_result_list *merged,
                        const dmlconf_run_end *end)
{
    /* The merged run is the whole run: shard 0 of 1, planning every case
     * the shards were cut from. */
    dmlconf_run_info info = shards[0].file.info;
    info.shard_index = 0;
    info.shard_count = 1;
    info.planned_cases = info.corpus_cases;
    dmlconf_report_input in = {&info,
                               shards[0].file.load_errors.items,
                               shards[0].file.load_errors.count,
                               merged->items,
                               merged->count,
                               end,
                               NULL,
                               NULL,
                               0,
                               o->junit_max_bytes};
    char why[640];
    if (dmlconf_reports_write_all(o->dir, o->overwrite ? DMLCONF_REPORTS_OVERWRITE : DMLCONF_REPORTS_NEW, &in, why,
                                  sizeof(why)))
    {
        /* A folder that cannot be written or is in use, as for run. */
        fprintf(stderr, "dmlconf merge: %s%s\n", why, o->overwrite ? "" : " (--overwrite replaces them)");
        return EXIT_SETUP;
    }
    /* The exit status is the merged run's verdict, as its reports say it:
     * anything short of every planned case is incomplete, and nothing
     * judged is no pass. */
    dmlconf_run_verdict verdict;
    dmlconf_report_input_verdict(&in, &verdict);
    if (!o->quiet)
        printf("merged %zu results from %zu shard%s into %s/%s\n", merged->count, o->shard_count,
               o->shard_count == 1 ? "" : "s", o->dir,
               end->kind == DMLCONF_END_PARTIAL ? " (partial: the reports say incomplete)" : "");
    dmlconf_verdict_print(stdout, &verdict, dmlconf_stream_is_terminal(stdout) && !getenv("NO_COLOR"));
    return verdict.exit_status;
}

int command_merge(int argc, char **argv)
{
    merge_options o;
    int exit_code = parse_merge_options(argc, argv, &o);
    if (exit_code >= 0)
        return exit_code;
    shard *shards = calloc(o.shard_count, sizeof(*shards));
    if (!shards)
    {
        fprintf(stderr, "dmlconf merge: out of memory\n");
        return EXIT_SETUP;
    }
    /* Shards that cannot be read, or that are refused, are invalid input. */
    exit_code = EXIT_INVALID_INPUT;
    dmlconf_result_list merged = {0};
    dmlconf_run_end end;
    if (read_shards(&o, shards) && gather(shards, o.shard_count, o.partial, &merged, &end) == 0)
        exit_code = write_merged(&o, shards, &merged, &end);
    dmlconf_result_list_free(&merged);
    for (size_t s = 0; s < o.shard_count; ++s)
    {
        free(shards[s].path);
        dmlconf_results_file_free(&shards[s].file);
    }
    free(shards);
    return exit_code;
}
