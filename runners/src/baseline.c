/*
 * Baselines, as deqp-runner keeps them: known failures, flaky and skipped
 * id patterns, so that a conformance run can gate CI on "no new failure".
 */
#define _POSIX_C_SOURCE 200809L

#include "runner.h"

#include <dmlconf/glob.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *line)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    while (*line == ' ' || *line == '\t')
        ++line;
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
        line[--n] = '\0';
    return line;
}

/* Reads the non-empty lines of dir/name (a missing file has none). */
static int read_lines(const char *dir, const char *name, char ***lines, size_t *count, char *path, size_t path_size,
                      char *why, size_t why_size)
{
    snprintf(path, path_size, "%s/%s", dir, name);
    FILE *file = fopen(path, "r");
    if (!file)
    {
        if (errno == ENOENT)
            return 0;
        snprintf(why, why_size, "%s: %s", path, strerror(errno));
        return -1;
    }
    char buffer[1024];
    int result = 0;
    while (fgets(buffer, sizeof(buffer), file))
    {
        char *line = trim(buffer);
        if (!*line)
            continue;
        char **grown = realloc(*lines, (*count + 1) * sizeof(**lines));
        char *copy = strdup(line);
        if (!grown || !copy)
        {
            free(copy);
            if (grown)
                *lines = grown;
            snprintf(why, why_size, "out of memory reading %s", path);
            result = -1;
            break;
        }
        *lines = grown;
        grown[(*count)++] = copy;
    }
    if (result == 0 && ferror(file))
    {
        snprintf(why, why_size, "%s: read error", path);
        result = -1;
    }
    fclose(file);
    return result;
}

typedef struct known_failure_line
{
    char *id;
    dmlconf_status status;
} known_failure_line;

static int compare_lines(const void *a, const void *b)
{
    return strcmp(((const known_failure_line *)a)->id, ((const known_failure_line *)b)->id);
}

int runner_baseline_load(runner_baseline *baseline, const char *dir, char *why, size_t why_size)
{
    char path[1024];
    memset(baseline, 0, sizeof(*baseline));
    char **failures = NULL;
    size_t failure_lines = 0;
    if (read_lines(dir, "failures.txt", &failures, &failure_lines, path, sizeof(path), why, why_size) ||
        read_lines(dir, "flakes.txt", &baseline->flake_globs, &baseline->flake_count, path, sizeof(path), why,
                   why_size) ||
        read_lines(dir, "skips.txt", &baseline->skip_globs, &baseline->skip_count, path, sizeof(path), why, why_size))
        goto fail;

    /* "id,status": the status is what the case is known to do. Split each
     * line, then sort the ids (with their statuses) for binary search. */
    known_failure_line *parsed = calloc(failure_lines ? failure_lines : 1, sizeof(*parsed));
    baseline->failure_statuses = calloc(failure_lines ? failure_lines : 1, sizeof(*baseline->failure_statuses));
    if (!parsed || !baseline->failure_statuses)
    {
        free(parsed);
        snprintf(why, why_size, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < failure_lines; ++i)
    {
        char *comma = strchr(failures[i], ',');
        parsed[i].id = failures[i];
        parsed[i].status = DMLCONF_STATUS_FAIL;
        if (comma)
        {
            *comma = '\0';
            if (!dmlconf_status_from_name(comma + 1, &parsed[i].status))
            {
                snprintf(why, why_size, "%s/failures.txt: '%s' has an unknown status '%s'", dir, failures[i],
                         comma + 1);
                free(parsed);
                goto fail;
            }
        }
    }
    qsort(parsed, failure_lines, sizeof(*parsed), compare_lines);
    for (size_t i = 0; i < failure_lines; ++i)
    {
        failures[i] = parsed[i].id;
        baseline->failure_statuses[i] = parsed[i].status;
    }
    free(parsed);
    baseline->failure_ids = failures;
    baseline->failure_count = failure_lines;
    return 0;

fail:
    if (!baseline->failure_ids)
    {
        for (size_t i = 0; i < failure_lines; ++i)
            free(failures[i]);
        free(failures);
    }
    runner_baseline_free(baseline);
    return -1;
}

static bool matches_any(char *const *globs, size_t count, const char *id)
{
    for (size_t i = 0; i < count; ++i)
    {
        if (dmlconf_glob_match(globs[i], id))
            return true;
    }
    return false;
}

bool runner_baseline_skips(const runner_baseline *baseline, const char *id)
{
    return matches_any(baseline->skip_globs, baseline->skip_count, id);
}

static bool known_failure(const runner_baseline *baseline, const char *id)
{
    size_t lo = 0, hi = baseline->failure_count;
    while (lo < hi)
    {
        size_t mid = lo + (hi - lo) / 2;
        int order = strcmp(baseline->failure_ids[mid], id);
        if (order == 0)
            return true;
        if (order < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

void runner_baseline_apply(const runner_baseline *baseline, dmlconf_case_result *result)
{
    bool failed = result->status == DMLCONF_STATUS_FAIL || result->status == DMLCONF_STATUS_ERROR ||
                  result->status == DMLCONF_STATUS_CRASH || result->status == DMLCONF_STATUS_TIMEOUT;
    if (known_failure(baseline, result->id))
    {
        if (failed || result->status == DMLCONF_STATUS_FLAKE)
            result->status = DMLCONF_STATUS_EXPECTED_FAIL;
        else if (result->status == DMLCONF_STATUS_PASS)
        {
            result->status = DMLCONF_STATUS_UNEXPECTED_PASS;
            snprintf(result->message, sizeof(result->message),
                     "passed, but the baseline lists it as a known failure: remove it from failures.txt");
        }
        return;
    }
    if (failed && matches_any(baseline->flake_globs, baseline->flake_count, result->id))
        result->status = DMLCONF_STATUS_FLAKE;
}

void runner_baseline_free(runner_baseline *baseline)
{
    for (size_t i = 0; i < baseline->failure_count; ++i)
        free(baseline->failure_ids[i]);
    free(baseline->failure_ids);
    free(baseline->failure_statuses);
    for (size_t i = 0; i < baseline->flake_count; ++i)
        free(baseline->flake_globs[i]);
    free(baseline->flake_globs);
    for (size_t i = 0; i < baseline->skip_count; ++i)
        free(baseline->skip_globs[i]);
    free(baseline->skip_globs);
    memset(baseline, 0, sizeof(*baseline));
}
