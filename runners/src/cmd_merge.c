/*
 * `dmlconf merge`: combine the results.jsonl of several shards into one set
 * of reports.
 */
#include "runner.h"

#include <dmlconf/reports.h>

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char merge_usage[] = "usage: dmlconf merge -o DIR RESULTS...\n"
                                  "\n"
                                  "Reads the results.jsonl of each shard (a file, or a report folder holding one) and\n"
                                  "writes one merged set of reports into DIR. A shard whose last line was cut short\n"
                                  "by a crash is merged without that line, with a warning.\n"
                                  "\n"
                                  "  -o, --report-dir DIR   where the merged reports go (required)\n"
                                  "  -h, --help             this help\n";

int command_merge(int argc, char **argv)
{
    static const struct option options[] = {
        {"report-dir", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const char *dir = NULL;
    int option;
    optind = 1;
    while ((option = getopt_long(argc, argv, "o:h", options, NULL)) != -1)
    {
        switch (option)
        {
        case 'o':
            dir = optarg;
            break;
        case 'h':
            fputs(merge_usage, stdout);
            return EXIT_PASSED;
        default:
            fputs(merge_usage, stderr);
            return EXIT_USAGE;
        }
    }
    if (!dir || optind == argc)
    {
        fputs(merge_usage, stderr);
        return EXIT_USAGE;
    }
    dmlconf_result_list results = {0};
    dmlconf_run_info info, shard_info;
    memset(&info, 0, sizeof(info));
    int exit_code = EXIT_PASSED;
    for (int i = optind; i < argc; ++i)
    {
        char path[1024], why[512];
        size_t length = strlen(argv[i]);
        if (length > 6 && !strcmp(argv[i] + length - 6, ".jsonl"))
            snprintf(path, sizeof(path), "%s", argv[i]);
        else
            snprintf(path, sizeof(path), "%s/%s", argv[i], DMLCONF_REPORT_RESULTS_JSONL);
        size_t warnings = 0;
        if (dmlconf_results_read_jsonl(path, &shard_info, &results, &warnings, why, sizeof(why)))
        {
            fprintf(stderr, "dmlconf merge: %s\n", why);
            exit_code = EXIT_USAGE;
            continue;
        }
        if (warnings)
            fprintf(stderr, "dmlconf merge: %s: dropped %zu truncated line%s (a crashed run)\n", path, warnings,
                    warnings == 1 ? "" : "s");
        if (i == optind)
            info = shard_info;
    }
    if (exit_code == EXIT_PASSED)
    {
        char why[512];
        if (dmlconf_reports_write_all(dir, &info, results.items, results.count, why, sizeof(why)))
        {
            fprintf(stderr, "dmlconf merge: %s\n", why);
            exit_code = EXIT_FAILED;
        }
        else
        {
            bool failed = false;
            for (size_t i = 0; i < results.count; ++i)
                failed |= dmlconf_status_is_failure(results.items[i].status);
            printf("merged %zu results from %d shard%s into %s/\n", results.count, argc - optind,
                   argc - optind == 1 ? "" : "s", dir);
            exit_code = failed ? EXIT_FAILED : EXIT_PASSED;
        }
    }
    dmlconf_result_list_free(&results);
    return exit_code;
}
