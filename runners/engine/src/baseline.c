/*
 * Baselines, as deqp-runner keeps them: known failures, flaky and skipped
 * id patterns, so that a conformance run can gate CI on "no new failure".
 * Every line is kept with its line number, so that a malformed line is a
 * located error and a line that matches no case (stale) can be named.
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include <dmlconf/runner.h>

#include "id_lines.h"

#include <dmlconf/file_system.h>
#include <dmlconf/glob.h>
#include <dmlconf/reserve.h>

#include <dmlconf/text.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void free_list(runner_baseline_list *list);

static int add_entry(runner_baseline_list *list, const char *text, uint32_t line)
{
    if (!dmlconf_reserve((void **)&list->entries, &list->capacity, list->count + 1, sizeof(*list->entries)))
        return -1;
    runner_baseline_entry *entry = &list->entries[list->count];
    memset(entry, 0, sizeof(*entry));
    entry->text = dmlconf_strdup(text);
    entry->line = line;
    entry->status = DMLCONF_STATUS_FAIL;
    if (!entry->text)
        return -1;
    list->count++;
    return 0;
}

static int add_line(void *context, const char *text, uint32_t line)
{
    return add_entry(context, text, line);
}

/* Reads the non-empty lines of the file list->path names into `list`; a
 * missing file has none when `may_be_missing`, else it is an error. */
static int read_list_file(runner_baseline_list *list, bool may_be_missing, char *why, size_t why_size)
{
    const char *path = list->path;
    dmlconf_path_kind kind;
    if (dmlconf_path_examine(path, &kind, NULL, why, why_size))
        return -1;
    if (kind == DMLCONF_PATH_MISSING)
    {
        if (may_be_missing)
            return 0;
        snprintf(why, why_size, "%s does not exist", path);
        return -1;
    }
    char reason[256];
    FILE *file = dmlconf_open_regular_file(path, NULL, reason, sizeof(reason));
    if (!file)
    {
        snprintf(why, why_size, "%s: %s", path, reason);
        return -1;
    }
    int result = runner_read_id_lines(file, path, add_line, list, why, why_size);
    fclose(file);
    return result;
}

/* Reads the non-empty lines of dir/name into `list` (a missing file has
 * none). */
static int read_entries(const char *dir, const char *name, runner_baseline_list *list, char *why, size_t why_size)
{
    list->path = dmlconf_path_join(dir, name);
    if (!list->path)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    return read_list_file(list, true, why, why_size);
}

int runner_baseline_load_flakes(runner_baseline *baseline, const char *path, char *why, size_t why_size)
{
    runner_baseline_list *list = &baseline->flakes_file;
    list->path = dmlconf_strdup(path);
    if (!list->path)
    {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    if (read_list_file(list, false, why, why_size))
    {
        /* Nothing of it is kept: the baseline is as it was. */
        free_list(list);
        return -1;
    }
    return 0;
}

/* The statuses a known failure can have. */
static bool is_failing_status(dmlconf_status status)
{
    return status == DMLCONF_STATUS_FAIL || status == DMLCONF_STATUS_ERROR || status == DMLCONF_STATUS_CRASH ||
           status == DMLCONF_STATUS_TIMEOUT;
}

static int compare_entries(const void *a, const void *b)
{
    return strcmp(((const runner_baseline_entry *)a)->text, ((const runner_baseline_entry *)b)->text);
}

/* Splits each failures.txt line, "id,status" (blanks allowed around both),
 * and sorts the entries by id for binary search. */
static int parse_failures(runner_baseline_list *list, char *why, size_t why_size)
{
    for (size_t i = 0; i < list->count; ++i)
    {
        runner_baseline_entry *entry = &list->entries[i];
        char *comma = strchr(entry->text, ',');
        if (!comma)
            continue; /* an id alone: a failure */
        *comma = '\0';
        char *status = runner_id_line_trim(comma + 1);
        runner_id_line_trim(entry->text);
        if (!*entry->text || !dmlconf_status_from_name(status, &entry->status) || !is_failing_status(entry->status))
        {
            snprintf(why, why_size,
                     "%s:%u: '%s' has an unknown status '%s' (fail, error, crash or timeout, after an id and a "
                     "comma)",
                     list->path, (unsigned)entry->line, entry->text, status);
            return -1;
        }
    }
    if (list->count > 1)
        qsort(list->entries, list->count, sizeof(list->entries[0]), compare_entries);
    for (size_t i = 1; i < list->count; ++i)
    {
        if (!strcmp(list->entries[i - 1].text, list->entries[i].text))
        {
            snprintf(why, why_size, "%s:%u: '%s' is listed twice (also on line %u)", list->path,
                     (unsigned)list->entries[i].line, list->entries[i].text, (unsigned)list->entries[i - 1].line);
            return -1;
        }
    }
    return 0;
}

int runner_baseline_load(runner_baseline *baseline, const char *dir, char *why, size_t why_size)
{
    memset(baseline, 0, sizeof(*baseline));
    dmlconf_path_kind kind;
    if (dmlconf_path_examine(dir, &kind, NULL, why, why_size))
        return -1;
    if (kind != DMLCONF_PATH_DIRECTORY)
    {
        snprintf(why, why_size, "%s %s: a baseline is a folder of failures.txt, flakes.txt and skips.txt", dir,
                 kind == DMLCONF_PATH_MISSING ? "does not exist" : "is not a folder");
        return -1;
    }
    if (read_entries(dir, "failures.txt", &baseline->failures, why, why_size) ||
        read_entries(dir, "flakes.txt", &baseline->flakes, why, why_size) ||
        read_entries(dir, "skips.txt", &baseline->skips, why, why_size) ||
        parse_failures(&baseline->failures, why, why_size))
    {
        runner_baseline_free(baseline);
        return -1;
    }
    return 0;
}

static runner_baseline_entry *matching_glob(runner_baseline_list *list, const char *id)
{
    for (size_t i = 0; i < list->count; ++i)
    {
        if (dmlconf_glob_match(list->entries[i].text, id))
            return &list->entries[i];
    }
    return NULL;
}

bool runner_baseline_skips(const runner_baseline *baseline, const char *id)
{
    return matching_glob((runner_baseline_list *)&baseline->skips, id) != NULL;
}

static runner_baseline_entry *known_failure(const runner_baseline *baseline, const char *id)
{
    size_t lo = 0, hi = baseline->failures.count;
    while (lo < hi)
    {
        size_t mid = lo + (hi - lo) / 2;
        int order = strcmp(baseline->failures.entries[mid].text, id);
        if (order == 0)
            return &baseline->failures.entries[mid];
        if (order < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Appends to a result's message, cutting nothing that is already there. */
static void append_message(dmlconf_case_result *result, const char *text)
{
    size_t used = strlen(result->message);
    snprintf(result->message + used, sizeof(result->message) - used, "%s%s", used ? "; " : "", text);
}

void runner_baseline_apply(const runner_baseline *baseline, dmlconf_case_result *result)
{
    bool failed = result->status == DMLCONF_STATUS_FAIL || result->status == DMLCONF_STATUS_ERROR ||
                  result->status == DMLCONF_STATUS_CRASH || result->status == DMLCONF_STATUS_TIMEOUT;
    const runner_baseline_entry *known = known_failure(baseline, result->id);
    char note[320];
    if (known)
    {
        const char *expected = dmlconf_status_name(known->status);
        if (failed && result->status == known->status)
        {
            /* Only the status the line records is the known failure. */
            result->known_status = result->status;
            result->status = DMLCONF_STATUS_EXPECTED_FAIL;
            snprintf(note, sizeof(note), "a known failure (%s:%u: %s)", baseline->failures.path, (unsigned)known->line,
                     expected);
            append_message(result, note);
        }
        else if (failed)
        {
            /* Another failure than the one it is known for: a regression. */
            snprintf(note, sizeof(note), "the baseline expects %s (%s:%u), not %s", expected, baseline->failures.path,
                     (unsigned)known->line, dmlconf_status_name(result->status));
            append_message(result, note);
        }
        else if (result->status == DMLCONF_STATUS_FLAKE)
        {
            snprintf(note, sizeof(note), "listed as a known failure (%s:%u: %s)", baseline->failures.path,
                     (unsigned)known->line, expected);
            append_message(result, note);
        }
        else if (result->status == DMLCONF_STATUS_PASS)
        {
            result->status = DMLCONF_STATUS_UNEXPECTED_PASS;
            snprintf(result->message, sizeof(result->message),
                     "passed, but the baseline lists it as a known failure (%s:%u): remove it from failures.txt",
                     baseline->failures.path, (unsigned)known->line);
        }
        return;
    }
    /* flakes.txt first, then a --flakes file. */
    const runner_baseline_list *flakes = &baseline->flakes;
    const runner_baseline_entry *flake = failed ? matching_glob((runner_baseline_list *)flakes, result->id) : NULL;
    if (failed && !flake)
    {
        flakes = &baseline->flakes_file;
        flake = matching_glob((runner_baseline_list *)flakes, result->id);
    }
    if (flake)
    {
        /* A known flake that failed every time it ran: a failure the
         * baseline accepts; it never passed. */
        snprintf(note, sizeof(note), "%s in %u of %u attempts; listed as a known flake (%s:%u)",
                 dmlconf_status_name(result->status), (unsigned)result->attempts, (unsigned)result->attempts,
                 flakes->path, (unsigned)flake->line);
        append_message(result, note);
        result->known_status = DMLCONF_STATUS_FLAKE;
        result->status = DMLCONF_STATUS_EXPECTED_FAIL;
    }
}

/* Whether any id of `cases` matches the glob. */
static bool glob_matches_a_case(const char *glob, const dmlconf_case *const *cases, size_t count)
{
    for (size_t i = 0; i < count; ++i)
    {
        if (dmlconf_glob_match(glob, cases[i]->id))
            return true;
    }
    return false;
}

static bool id_is_a_case(const char *id, const dmlconf_case *const *cases, size_t count)
{
    for (size_t i = 0; i < count; ++i)
    {
        if (!strcmp(id, cases[i]->id))
            return true;
    }
    return false;
}

/* Appends "path:line: text" to a list of lines (*capacity tracks its room). */
static int add_stale(char ***lines, size_t *count, size_t *capacity, const runner_baseline_list *list,
                     const runner_baseline_entry *e)
{
    size_t size = strlen(list->path) + strlen(e->text) + 64;
    char *line = malloc(size);
    if (!line || !dmlconf_reserve((void **)lines, capacity, *count + 1, sizeof(**lines)))
    {
        free(line);
        return -1;
    }
    snprintf(line, size, "%s:%u: %s", list->path, (unsigned)e->line, e->text);
    (*lines)[(*count)++] = line;
    return 0;
}

int runner_baseline_stale(const runner_baseline *baseline, const dmlconf_case *const *cases, size_t count,
                          char ***lines, size_t *stale)
{
    *lines = NULL;
    *stale = 0;
    size_t capacity = 0;
    const runner_baseline_list *lists[4] = {&baseline->failures, &baseline->flakes, &baseline->skips,
                                            &baseline->flakes_file};
    for (int l = 0; l < 4; ++l)
    {
        for (size_t i = 0; i < lists[l]->count; ++i)
        {
            const runner_baseline_entry *e = &lists[l]->entries[i];
            bool used = l == 0 ? id_is_a_case(e->text, cases, count) : glob_matches_a_case(e->text, cases, count);
            if (!used && add_stale(lines, stale, &capacity, lists[l], e))
                return -1;
        }
    }
    return 0;
}

static void free_list(runner_baseline_list *list)
{
    for (size_t i = 0; i < list->count; ++i)
        free(list->entries[i].text);
    free(list->entries);
    free(list->path);
    memset(list, 0, sizeof(*list));
}

void runner_baseline_free(runner_baseline *baseline)
{
    free_list(&baseline->failures);
    free_list(&baseline->flakes);
    free_list(&baseline->skips);
    free_list(&baseline->flakes_file);
}
