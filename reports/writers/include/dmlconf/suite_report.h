/*
 * The reports of a suite: several runs of `dmlconf run` that one suite file
 * names (`dmlconf suite`). Each run writes its own reports into a folder of
 * its own; this writes the combined ones beside them, into the suite's
 * folder: suite.json, suite.md and junit.xml, one line (testcase) per run
 * with its verdict as the run's own summary.json states it.
 *
 * The suite's status is the worst of its runs' exit statuses (3 a run
 * could not start, 2 a run is incomplete or did not run, 1 a run failed, 0
 * every run passed), and the suite claims nothing a run does not: each
 * run's verdict keeps its scope.
 */
#ifndef DMLCONF_SUITE_REPORT_H
#define DMLCONF_SUITE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How one run of a suite ended, as the suite saw it. */
typedef struct dmlconf_suite_run_report
{
    char name[72];    /* the run's name: its folder under the suite's */
    bool ran;         /* its process started */
    bool has_summary; /* its summary.json was read */
    /* The exit status the suite counts: the run's own, 2 for a run ended
     * by a signal or never run (the suite was interrupted first), 3 for a
     * run whose process could not start. */
    int exit_status;
    char status[32];     /* summary.json's verdict.status ("conformant", "failed", "setup-error", ...), or
                          * "not-run", "no-summary" */
    char verdict[128];   /* its verdict.text */
    char scope[384];     /* its verdict.scope.text ("" for a run that never started) */
    char detail[1024];   /* its verdict.detail */
    char baseline[256];  /* its verdict.baseline.text ("" without a baseline) */
    char note[512];      /* what the suite adds: why there is no summary, how the process ended, an exit status
                          * that differs from the one summary.json states */
    double seconds;      /* the run's wall time */
} dmlconf_suite_run_report;

/* The suite as a whole. */
typedef struct dmlconf_suite_report
{
    const char *suite_path; /* the suite file */
    const dmlconf_suite_run_report *runs;
    size_t run_count;
    const char *interrupted_by; /* "SIGINT", "SIGTERM"; NULL when the suite was not interrupted */
    double seconds;
} dmlconf_suite_report;

/* Fills the verdict fields of *run (has_summary, status, verdict, scope,
 * detail, baseline) from the summary.json in the run's folder `run_dir`,
 * and sets *stated_exit to the exit status it states. Returns 0, or -1
 * with why ("no summary.json", one that is not a regular file, not JSON or
 * lacks its verdict) and *run's verdict fields left as they were. */
int dmlconf_suite_read_run_summary(const char *run_dir, dmlconf_suite_run_report *run, int *stated_exit, char *why,
                                   size_t why_size);

/* The suite's exit status: the worst of its runs' (above). 2 for a suite
 * without runs, and for one that was interrupted. */
int dmlconf_suite_exit_status(const dmlconf_suite_report *suite);

/* "passed", "failed", "incomplete", "setup error", "interrupted": the
 * suite's status in a word or two. */
const char *dmlconf_suite_status_text(const dmlconf_suite_report *suite);

/* Writes suite.json, suite.md and junit.xml into the folder `dir` (which
 * exists), each replaced whole or not at all. Returns 0, or -1 with why
 * (the file and what went wrong). */
int dmlconf_suite_reports_write(const char *dir, const dmlconf_suite_report *suite, char *why, size_t why_size);

/* Prints the suite's table on the console: one line per run (name, exit
 * status, verdict), then "suite: STATUS (N runs: ...)". */
void dmlconf_suite_print(FILE *out, const dmlconf_suite_report *suite);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_SUITE_REPORT_H */
