/*
 * `dmlconf compare OLD NEW`: what changed between two runs of one corpus,
 * for a CI job that gates on "no new failures" (dmlconf/compare.h says
 * what counts as what). Each run is read with the reader merge and resume
 * use; results that cannot be read stop it with their file:line, corpora
 * that differ are refused unless asked for, and the exit status is the
 * comparison's answer.
 */
#include "cli.h"

#include <dmlconf/compare.h>
#include <dmlconf/file_system.h>
#include <dmlconf/reports.h>

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char compare_usage[] =
    "usage: dmlconf compare [OPTIONS] OLD NEW\n"
    "\n"
    "Compares two runs of one corpus, each a report folder or its results.jsonl: the\n"
    "cases that fail in NEW and did not in OLD (regressions), the fixes, other status\n"
    "changes, cases added, removed or changed, device times beyond the noise, and the\n"
    "verdict per feature level in each. Runs of different corpora are refused, saying\n"
    "how they differ; different scopes, backends, drivers or levels are said.\n"
    "\n"
    "  -o, --report-dir DIR        write comparison.md, comparison.html and\n"
    "                              comparison.json into DIR\n"
    "      --allow-different-corpus\n"
    "                              compare runs of different corpora anyway\n"
    "      --time-ratio R          device time: a case is slower or faster when the larger\n"
    "                              time is at least R times the smaller (default 1.5) ...\n"
    "      --time-min-us US        ... and they differ by at least US microseconds\n"
    "                              (default 20); only where both runs measured it\n"
    "  -q, --quiet                 no summary on the console\n"
    "  -h, --help                  this help\n"
    "\n"
    "exit status: 0 no regressions, 1 regressions, 2 incomplete (a run interrupted,\n"
    "unfinished or partial, results that cannot be read, corpora that differ), 3 setup\n"
    "error (a usage error, DIR cannot be written).\n";

/* Changes of one kind listed on the console. */
#define CONSOLE_ROWS 10

/* A number from text: the whole of it. */
static int parse_double(const char *text, double *value)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v))
        return -1;
    *value = v;
    return 0;
}

/* Reads one run. Returns 0, or -1 after saying why (file:line). */
static int read_run(const char *label, const char *argument, char **path, dmlconf_results_file *file)
{
    char why[768];
    dmlconf_path_kind kind = DMLCONF_PATH_MISSING;

    *path = dmlconf_results_path(argument);
    if (!*path)
    {
        fprintf(stderr, "dmlconf compare: out of memory\n");
        return -1;
    }
    if (dmlconf_path_examine(argument, &kind, NULL, why, sizeof(why)) != 0 || kind == DMLCONF_PATH_MISSING)
    {
        fprintf(stderr, "dmlconf compare: %s: %s: no such report folder or results file\n", label, argument);
        return -1;
    }
    if (kind == DMLCONF_PATH_DIRECTORY)
    {
        dmlconf_path_kind inside = DMLCONF_PATH_MISSING;
        if (dmlconf_path_examine(*path, &inside, NULL, why, sizeof(why)) != 0 || inside == DMLCONF_PATH_MISSING)
        {
            fprintf(stderr, "dmlconf compare: %s: %s is not a report folder: it holds no %s\n", label, argument,
                    DMLCONF_REPORT_RESULTS_JSONL);
            return -1;
        }
    }
    if (dmlconf_results_file_read(*path, file, why, sizeof(why)) != 0)
    {
        fprintf(stderr, "dmlconf compare: %s: %s\n", label, why);
        return -1;
    }
    if (file->dropped_lines)
        fprintf(stderr, "dmlconf compare: %s: %s: a truncated last line was dropped (a run that died)\n", label, *path);
    return 0;
}

static void print_status(const dmlconf_case_result *r)
{
    if (!r)
    {
        fputs("-", stdout);
        return;
    }
    fputs(dmlconf_status_name(r->status) ? dmlconf_status_name(r->status) : "unknown", stdout);
    if (r->failure != DMLCONF_FAILURE_NONE && dmlconf_failure_name(r->failure))
        printf(" (%s)", dmlconf_failure_name(r->failure));
}

static void print_summary(const dmlconf_run_comparison *c, const char *dir)
{
    static const dmlconf_change_kind listed[] = {DMLCONF_CHANGE_REGRESSION, DMLCONF_CHANGE_FIX, DMLCONF_CHANGE_STATUS};
    const dmlconf_matrix *a = &c->old_run.matrix;
    const dmlconf_matrix *b = &c->new_run.matrix;

    printf("OLD: %s: %s, %zu cases, %s\n", c->old_run.path, c->old_run.file->info.backend,
           c->old_run.file->results.count, c->old_run.verdict.text);
    printf("NEW: %s: %s, %zu cases, %s\n", c->new_run.path, c->new_run.file->info.backend,
           c->new_run.file->results.count, c->new_run.verdict.text);
    for (size_t i = 0; i < c->corpus_difference_count; ++i)
        printf("the corpora differ (compared anyway): %s\n", c->corpus_differences[i]);
    for (size_t i = 0; i < c->run_difference_count; ++i)
        printf("%s: %s\n", c->scope_differs && i == 0 ? "THE SCOPES DIFFER" : "differs", c->run_differences[i]);
    fputs("verdict per level (OLD -> NEW):", stdout);
    for (size_t i = 0; i < a->column_count && i < b->column_count; ++i)
        printf(" %s %s%s%s", a->columns[i].label, dmlconf_matrix_column_word(a, i),
               strcmp(dmlconf_matrix_column_word(a, i), dmlconf_matrix_column_word(b, i)) ? " -> " : "",
               strcmp(dmlconf_matrix_column_word(a, i), dmlconf_matrix_column_word(b, i))
                   ? dmlconf_matrix_column_word(b, i)
                   : "");
    printf("\nchanges: %zu regressions, %zu fixes, %zu other status changes, %zu added, %zu removed, %zu changed "
           "cases, %zu not run in NEW, %zu not run in OLD\n",
           c->changes[DMLCONF_CHANGE_REGRESSION].count, c->changes[DMLCONF_CHANGE_FIX].count,
           c->changes[DMLCONF_CHANGE_STATUS].count, c->changes[DMLCONF_CHANGE_ADDED].count,
           c->changes[DMLCONF_CHANGE_REMOVED].count, c->changes[DMLCONF_CHANGE_DEFINITION].count,
           c->changes[DMLCONF_CHANGE_NOT_RUN_NEW].count, c->changes[DMLCONF_CHANGE_NOT_RUN_OLD].count);
    printf("device time: %zu slower, %zu faster of %llu cases timed in both (ratio >= %g and >= %g us apart)\n",
           c->changes[DMLCONF_CHANGE_SLOWER].count, c->changes[DMLCONF_CHANGE_FASTER].count,
           (unsigned long long)c->timed_in_both, c->options.time_ratio, c->options.time_min_seconds * 1e6);
    for (size_t g = 0; g < c->regression_cause_count; ++g)
        printf("regressions by cause: %zu: %s\n", c->regression_cause_counts[g], c->regression_causes[g]);
    for (size_t k = 0; k < sizeof(listed) / sizeof(listed[0]); ++k)
    {
        const dmlconf_change_list *list = &c->changes[listed[k]];
        for (size_t i = 0; i < list->count && i < CONSOLE_ROWS; ++i)
        {
            const dmlconf_case_result *r = list->items[i].new_result;
            printf("  %s: %s: ", dmlconf_change_kind_name(listed[k]), r->id);
            print_status(list->items[i].old_result);
            fputs(" -> ", stdout);
            print_status(r);
            if (r->message[0] && listed[k] != DMLCONF_CHANGE_FIX)
                printf(": %.160s", r->message);
            fputc('\n', stdout);
        }
        if (list->count > CONSOLE_ROWS)
            printf("  ... and %zu more %s\n", list->count - CONSOLE_ROWS, dmlconf_change_kind_name(listed[k]));
    }
    printf("result: %s (exit status %d)\n", c->answer, c->exit_status);
    if (dir)
        printf("reports: %s/%s, %s, %s\n", dir, DMLCONF_COMPARISON_MD, DMLCONF_COMPARISON_HTML,
               DMLCONF_COMPARISON_JSON);
}

int command_compare(int argc, char **argv)
{
    static const struct option options[] = {{"report-dir", required_argument, NULL, 'o'},
                                            {"allow-different-corpus", no_argument, NULL, 'A'},
                                            {"time-ratio", required_argument, NULL, 'R'},
                                            {"time-min-us", required_argument, NULL, 'U'},
                                            {"quiet", no_argument, NULL, 'q'},
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    dmlconf_compare_options settings;
    const char *dir = NULL;
    bool quiet = false;
    int option;

    dmlconf_compare_options_default(&settings);
    optind = 1;
    while ((option = getopt_long(argc, argv, "o:qh", options, NULL)) != -1)
    {
        double value;
        switch (option)
        {
        case 'o':
            dir = optarg;
            break;
        case 'A':
            settings.allow_different_corpus = true;
            break;
        case 'R':
            if (parse_double(optarg, &value) || !(value > 1.0))
            {
                fprintf(stderr, "dmlconf compare: --time-ratio takes a number above 1, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            settings.time_ratio = value;
            break;
        case 'U':
            if (parse_double(optarg, &value) || value < 0.0)
            {
                fprintf(stderr, "dmlconf compare: --time-min-us takes a number of microseconds >= 0, not '%s'\n",
                        optarg);
                return EXIT_USAGE;
            }
            settings.time_min_seconds = value * 1e-6;
            break;
        case 'q':
            quiet = true;
            break;
        case 'h':
            fputs(compare_usage, stdout);
            return EXIT_PASSED;
        default:
            fputs(compare_usage, stderr);
            return EXIT_USAGE;
        }
    }
    if (argc - optind != 2)
    {
        fprintf(stderr, "dmlconf compare: give two runs, OLD and NEW (%d given)\n\n", argc - optind);
        fputs(compare_usage, stderr);
        return EXIT_USAGE;
    }

    char *old_path = NULL, *new_path = NULL;
    dmlconf_results_file old_file, new_file;
    dmlconf_run_comparison *comparison = calloc(1, sizeof(*comparison));
    int exit_code = EXIT_INVALID_INPUT;
    memset(&old_file, 0, sizeof(old_file));
    memset(&new_file, 0, sizeof(new_file));
    if (!comparison)
    {
        fprintf(stderr, "dmlconf compare: out of memory\n");
        return EXIT_SETUP;
    }
    /* Both read, so that both say what is wrong with them. */
    bool readable = read_run("OLD", argv[optind], &old_path, &old_file) == 0;
    readable &= read_run("NEW", argv[optind + 1], &new_path, &new_file) == 0;
    if (readable)
    {
        char why[256];
        if (dmlconf_compare_runs(old_path, &old_file, new_path, &new_file, &settings, comparison, why, sizeof(why)) !=
            0)
        {
            fprintf(stderr, "dmlconf compare: %s\n", why);
            exit_code = EXIT_SETUP;
        }
        else if (comparison->corpus_differs && !settings.allow_different_corpus)
        {
            fprintf(stderr, "dmlconf compare: %s and %s ran different corpora:\n", old_path, new_path);
            for (size_t i = 0; i < comparison->corpus_difference_count; ++i)
                fprintf(stderr, "  %s\n", comparison->corpus_differences[i]);
            fprintf(stderr, "dmlconf compare: refused; --allow-different-corpus compares them anyway\n");
            exit_code = comparison->exit_status;
        }
        else
        {
            char reason[768];
            exit_code = comparison->exit_status;
            if (dir && dmlconf_run_comparison_write_all(dir, comparison, reason, sizeof(reason)) != 0)
            {
                fprintf(stderr, "dmlconf compare: %s\n", reason);
                exit_code = EXIT_SETUP;
            }
            else if (!quiet)
                print_summary(comparison, dir);
        }
    }
    dmlconf_run_comparison_free(comparison);
    free(comparison);
    dmlconf_results_file_free(&old_file);
    dmlconf_results_file_free(&new_file);
    free(old_path);
    free(new_path);
    return exit_code;
}
