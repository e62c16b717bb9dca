/*
 * dmlconf suite: the runs a suite file names (suite_file.h), one after the
 * other, each a `dmlconf run` of its own into a folder of its own under the
 * suite's report folder, and the combined reports (dmlconf/suite_report.h)
 * beside them. Each run's console goes to this console and to NAME.log.
 */
#include "cli.h"
#include "suite_file.h"

#include <dmlconf/clock.h>
#include <dmlconf/file_system.h>
#include <dmlconf/process.h>
#include <dmlconf/suite_report.h>
#include <dmlconf/text.h>

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char suite_usage[] =
    "usage: dmlconf suite [-o DIR] [--overwrite] [-q] [--check] SUITE.yaml\n"
    "\n"
    "Runs every run a suite file names, one after the other, each as `dmlconf run`\n"
    "into DIR/NAME (its own reports) with its console in DIR/NAME.log, and writes the\n"
    "suite's reports into DIR: suite.json, suite.md and junit.xml, one line per run\n"
    "with its verdict and scope. A suite file (see dmlconf.1, SUITE FILES):\n"
    "\n"
    "  defaults:                  # optional: what every run takes unless it says\n"
    "    backend: d3d12\n"
    "  runs:\n"
    "    - name: level-5_0        # its folder's name\n"
    "      feature_level: 5_0\n"
    "      baseline: baselines/gpu\n"
    "    - name: smoke\n"
    "      filters: [\"doc.*\"]\n"
    "\n"
    "options:\n"
    "  -o, --report-dir DIR   where the runs' folders and the suite's reports go\n"
    "                         (default: dmlconf-suite); a folder that holds an\n"
    "                         earlier suite is refused\n"
    "      --overwrite        replace an earlier suite's reports (and its runs')\n"
    "  -q, --quiet            each run prints only its verdict's lines\n"
    "      --check            read the suite file and print each run's command line;\n"
    "                         run nothing\n"
    "  -h, --help             this help\n"
    "\n"
    "exit status: the worst of the runs': 0 every run passed, 1 a run failed, 2 a\n"
    "run incomplete (or not run: the suite was interrupted), 3 a run could not start\n"
    "or the suite file or folder cannot be used (every error in the file is listed\n"
    "at its line and column, and nothing runs).\n";

typedef struct suite_options
{
    const char *report_dir;
    const char *path;
    bool overwrite, quiet, check;
} suite_options;

/* Returns -1 to go on, or the exit status. */
static int parse_options(int argc, char **argv, suite_options *o)
{
    static const struct option options[] = {
        {"report-dir", required_argument, NULL, 'o'},
        {"overwrite", no_argument, NULL, 'W'},
        {"quiet", no_argument, NULL, 'q'},
        {"check", no_argument, NULL, 'C'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof(*o));
    o->report_dir = "dmlconf-suite";
    optind = 1;
    int option;
    while ((option = getopt_long(argc, argv, "o:qh", options, NULL)) != -1)
    {
        switch (option)
        {
        case 'o':
            o->report_dir = optarg;
            break;
        case 'W':
            o->overwrite = true;
            break;
        case 'q':
            o->quiet = true;
            break;
        case 'C':
            o->check = true;
            break;
        case 'h':
            fputs(suite_usage, stdout);
            return EXIT_PASSED;
        default:
            fputs(suite_usage, stderr);
            return EXIT_USAGE;
        }
    }
    if (optind != argc - 1)
    {
        fprintf(stderr, "dmlconf suite: give one suite file\n");
        fputs(suite_usage, stderr);
        return EXIT_USAGE;
    }
    o->path = argv[optind];
    return -1;
}

/* Prints a run's command line, for --check: each word as a shell takes it. */
static void print_command(const char *name, const suite_run *run)
{
    printf("%s: dmlconf run -o DIR/%s", name, name);
    for (size_t a = 0; a < run->argument_count; ++a)
    {
        char word[4096];
        dmlconf_text text = {word, sizeof(word), 0};
        dmlconf_text_append_shell_word(&text, run->arguments[a], strlen(run->arguments[a]));
        printf(" %s%s", word, text.length >= sizeof(word) ? "..." : "");
    }
    putchar('\n');
}

/* The suite's report folder: created, locked, and refused when it holds an
 * earlier suite and --overwrite was not given. Returns 0, or -1 (said why). */
static int open_folder(const suite_options *o, dmlconf_file_lock *lock)
{
    char why[640];
    lock->handle = -1;
    if (dmlconf_make_folders(o->report_dir, why, sizeof(why)))
    {
        fprintf(stderr, "dmlconf suite: %s\n", why);
        return -1;
    }
    char *lock_path = dmlconf_path_join(o->report_dir, "suite.lock");
    char *earlier = dmlconf_path_join(o->report_dir, "suite.json");
    int rc = -1;
    long held_by = 0;
    dmlconf_path_kind kind = DMLCONF_PATH_MISSING;
    if (!lock_path || !earlier)
        fprintf(stderr, "dmlconf suite: out of memory\n");
    else if (dmlconf_file_lock_take(lock_path, lock, &held_by, why, sizeof(why)))
        fprintf(stderr, "dmlconf suite: %s is in use: %s\n", o->report_dir, why);
    else if (dmlconf_path_examine(earlier, &kind, NULL, why, sizeof(why)) == 0 && kind != DMLCONF_PATH_MISSING &&
             !o->overwrite)
        fprintf(stderr, "dmlconf suite: %s holds the reports of an earlier suite (--overwrite replaces them)\n",
                o->report_dir);
    else
        rc = 0;
    free(lock_path);
    free(earlier);
    return rc;
}

/* A run's child: its console copied to this console and its log, the last
 * line kept; a stop asked of the suite passed on to it. */
typedef struct run_console
{
    FILE *log;
    char last_line[256];
    size_t last_length;
    bool line_ended;
} run_console;

static void keep_last_line(run_console *console, const char *bytes, long count)
{
    for (long i = 0; i < count; ++i)
    {
        char c = bytes[i];
        if (c == '\n')
        {
            console->line_ended = true;
            continue;
        }
        if (console->line_ended)
        {
            console->last_length = 0;
            console->line_ended = false;
        }
        if (console->last_length + 1 < sizeof(console->last_line))
        {
            console->last_line[console->last_length++] = c;
            console->last_line[console->last_length] = '\0';
        }
    }
}

/* Runs one run to its end. Fills *report's exit status and verdict. */
static void run_one(const suite_options *o, const char *self, const suite_run *run, dmlconf_suite_run_report *report)
{
    char why[640];
    char *run_dir = dmlconf_path_join(o->report_dir, run->name);
    char log_name[SUITE_NAME_MAX + 8];
    snprintf(log_name, sizeof(log_name), "%s.log", run->name);
    char *log_path = dmlconf_path_join(o->report_dir, log_name);
    const char **argv = calloc(run->argument_count + 8, sizeof(*argv));
    run_console console = {0};
    double started = dmlconf_clock_seconds();
    if (!run_dir || !log_path || !argv)
    {
        report->exit_status = EXIT_SETUP;
        snprintf(report->status, sizeof(report->status), "setup-error");
        snprintf(report->note, sizeof(report->note), "out of memory");
        goto done;
    }
    size_t n = 0;
    argv[n++] = self;
    argv[n++] = "run";
    argv[n++] = "-o";
    argv[n++] = run_dir;
    if (o->overwrite)
        argv[n++] = "--overwrite";
    if (o->quiet)
        argv[n++] = "-q";
    for (size_t a = 0; a < run->argument_count; ++a)
        argv[n++] = run->arguments[a];
    argv[n] = NULL;
    console.log = fopen(log_path, "w");
    dmlconf_process_options options = {.argv = argv, .stderr_mode = DMLCONF_CHILD_STDERR_TO_OUTPUT};
    dmlconf_process *child = NULL;
    if (dmlconf_process_start(&options, &child, why, sizeof(why)))
    {
        report->exit_status = EXIT_SETUP;
        snprintf(report->status, sizeof(report->status), "setup-error");
        dmlconf_text note = {report->note, sizeof(report->note), 0};
        dmlconf_text_appendf(&note, "dmlconf run could not start: %s", why);
        goto done;
    }
    report->ran = true;
    fflush(stdout);
    const volatile sig_atomic_t *stop = runner_interrupt_flag();
    bool asked = false;
    char buffer[4096];
    for (;;)
    {
        if (*stop && !asked)
        {
            /* The run is in a process group of its own: Ctrl-C reaches
             * only this one, which passes it on. */
            dmlconf_process_request_stop(child, *stop == SIGINT ? DMLCONF_STOP_INTERRUPT : DMLCONF_STOP_TERMINATE);
            asked = true;
        }
        long got = dmlconf_process_read(child, buffer, sizeof(buffer), 0.25);
        if (got == DMLCONF_PROCESS_TIMED_OUT)
            continue;
        if (got <= 0)
            break;
        fwrite(buffer, 1, (size_t)got, stdout);
        fflush(stdout);
        if (console.log)
            fwrite(buffer, 1, (size_t)got, console.log);
        keep_last_line(&console, buffer, got);
    }
    dmlconf_exit ended;
    dmlconf_process_finish(child, 30.0, &ended);
    int stated = -1;
    bool read = dmlconf_suite_read_run_summary(run_dir, report, &stated, why, sizeof(why)) == 0;
    char how[160];
    dmlconf_exit_describe(&ended, how, sizeof(how));
    if (ended.kind != DMLCONF_EXIT_STATUS)
    {
        report->exit_status = EXIT_INCOMPLETE;
        snprintf(report->note, sizeof(report->note), "dmlconf run %s", how);
    }
    else
    {
        report->exit_status = (int)ended.code;
        if (read && stated != report->exit_status)
            snprintf(report->note, sizeof(report->note), "dmlconf run exited with status %d; its summary.json states %d",
                     report->exit_status, stated);
    }
    if (!read)
    {
        /* Nothing written is never a pass. */
        if (report->exit_status == EXIT_PASSED)
            report->exit_status = EXIT_INCOMPLETE;
        snprintf(report->status, sizeof(report->status), "no-summary");
        size_t used = strlen(report->note);
        dmlconf_text note = {report->note + used, sizeof(report->note) - used, 0};
        dmlconf_text_appendf(&note, "%s%s%s%s", used ? "; " : "", why, console.last_line[0] ? "; its last words: " : "",
                             console.last_line);
        dmlconf_text_make_printable(report->note, false);
    }
done:
    report->seconds = dmlconf_clock_seconds() - started;
    if (console.log)
        fclose(console.log);
    free(argv);
    free(run_dir);
    free(log_path);
}

/* Runs the suite's runs in order; a stop asked of the suite leaves the runs
 * after the one it stopped not run. */
static void run_all(const suite_options *o, const char *self, const suite_file *suite, dmlconf_suite_run_report *runs)
{
    const volatile sig_atomic_t *stop = runner_interrupt_flag();
    for (size_t i = 0; i < suite->run_count; ++i)
    {
        dmlconf_suite_run_report *report = &runs[i];
        snprintf(report->name, sizeof(report->name), "%s", suite->runs[i].name);
        if (*stop)
        {
            report->exit_status = EXIT_INCOMPLETE;
            snprintf(report->status, sizeof(report->status), "not-run");
            snprintf(report->note, sizeof(report->note), "the suite was interrupted by %s first",
                     runner_interrupt_name());
            continue;
        }
        if (!o->quiet)
            printf("suite: run %zu of %zu: %s\n", i + 1, suite->run_count, report->name);
        run_one(o, self, &suite->runs[i], report);
    }
}

int command_suite(int argc, char **argv)
{
    suite_options o;
    int status = parse_options(argc, argv, &o);
    if (status >= 0)
        return status;
    suite_file suite;
    dmlconf_diagnostics diagnostics = {0};
    if (suite_file_read(o.path, &suite, &diagnostics))
    {
        dmlconf_diagnostics_print(&diagnostics, NULL, stderr);
        fprintf(stderr, "dmlconf suite: %zu error%s in %s; nothing ran\n", diagnostics.error_count,
                diagnostics.error_count == 1 ? "" : "s", o.path);
        dmlconf_diagnostics_free(&diagnostics);
        return EXIT_SETUP;
    }
    dmlconf_diagnostics_free(&diagnostics);
    if (o.check)
    {
        for (size_t i = 0; i < suite.run_count; ++i)
            print_command(suite.runs[i].name, &suite.runs[i]);
        suite_file_free(&suite);
        return EXIT_PASSED;
    }
    char why[512];
    char *self = dmlconf_process_self_path(why, sizeof(why));
    dmlconf_file_lock lock;
    dmlconf_suite_run_report *runs = calloc(suite.run_count, sizeof(*runs));
    status = EXIT_SETUP;
    if (!self || !runs)
        fprintf(stderr, "dmlconf suite: %s\n", self ? "out of memory" : why);
    else if (open_folder(&o, &lock) == 0)
    {
        runner_interrupt_install();
        double started = dmlconf_clock_seconds();
        run_all(&o, self, &suite, runs);
        dmlconf_suite_report report = {o.path, runs, suite.run_count, runner_interrupt_name(),
                                       dmlconf_clock_seconds() - started};
        runner_interrupt_restore();
        dmlconf_suite_print(stdout, &report);
        if (dmlconf_suite_reports_write(o.report_dir, &report, why, sizeof(why)))
            fprintf(stderr, "dmlconf suite: the suite's reports: %s\n", why);
        else
            status = dmlconf_suite_exit_status(&report);
        dmlconf_file_lock_release(&lock);
    }
    free(runs);
    free(self);
    suite_file_free(&suite);
    return status;
}
