/*
 * What a run is beyond its results: the run info as labelled fields for the
 * reports, its recorded environment, the test of whether two results files
 * come from one run, and the list of errors in case files that kept cases
 * out of it.
 */
#include "report_internal.h"

#include <dmlconf/reserve.h>

#include <stdlib.h>
#include <string.h>

/* ---- the run info as fields ------------------------------------------------ */

static void copy_field(report_info_field *field, const char *key, const char *label, const char *value, size_t max)
{
    size_t length = dmlconf_bounded_length(value, max);

    if (length >= sizeof(field->value))
        length = sizeof(field->value) - 1;
    field->key = key;
    field->label = label;
    memcpy(field->value, value, length);
    field->value[length] = '\0';
}

void report_run_info_fields(const dmlconf_run_info *info, report_info_field fields[DMLCONF_INFO_FIELD_COUNT])
{
    const char *level = dmlconf_feature_level_name(info->target_level);
    char text[96];
    size_t n = 0;

    copy_field(&fields[n++], "dmlconf_version", "dmlconf version", info->dmlconf_version,
               sizeof(info->dmlconf_version));
    copy_field(&fields[n++], "backend", "Backend", info->backend, sizeof(info->backend));
    copy_field(&fields[n++], "adapter", "Adapter", info->adapter, sizeof(info->adapter));
    if (info->adapter_requested[0])
        copy_field(&fields[n++], "adapter_requested", "Adapter requested", info->adapter_requested,
                   sizeof(info->adapter_requested));
    else
        copy_field(&fields[n++], "adapter_requested", "Adapter requested", "(the backend's default)", 32);
    copy_field(&fields[n++], "driver", "Driver", info->driver, sizeof(info->driver));
    copy_field(&fields[n++], "runtime", "Runtime", info->runtime, sizeof(info->runtime));
    copy_field(&fields[n++], "software_adapter", "Software adapter", info->software_adapter ? "yes" : "no", 4);
    copy_field(&fields[n++], "target_level", "Target feature level", level ? level : "none", 8);
    snprintf(text, sizeof(text), "%llu", (unsigned long long)info->seed);
    copy_field(&fields[n++], "seed", "Seed", text, sizeof(text));
    snprintf(text, sizeof(text), "%u/%u", (unsigned)info->shard_index,
             (unsigned)(info->shard_count ? info->shard_count : 1));
    copy_field(&fields[n++], "shard", "Shard (index/count)", text, sizeof(text));
    snprintf(text, sizeof(text), "%llu cases over every shard, digest %s", (unsigned long long)info->corpus_cases,
             info->corpus_digest[0] ? info->corpus_digest : "unknown");
    copy_field(&fields[n++], "corpus", "Selected corpus", text, sizeof(text));
    snprintf(text, sizeof(text), "%llu", (unsigned long long)info->planned_cases);
    copy_field(&fields[n++], "planned_cases", "Cases planned", text, sizeof(text));
    {
        char scope[sizeof(info->scope_detail) + 64];
        size_t detail = dmlconf_bounded_length(info->scope_detail, sizeof(info->scope_detail));
        snprintf(scope, sizeof(scope), "%s%s%s%.*s%s", info->self_check ? "self-check of " : "",
                 info->scope[0] ? info->scope : "not recorded", detail ? " (" : "", (int)detail, info->scope_detail,
                 detail ? ")" : "");
        copy_field(&fields[n++], "scope", "Scope", scope, sizeof(scope));
    }
    if (info->baseline[0])
    {
        char baseline[sizeof(info->baseline) + 64];
        snprintf(baseline, sizeof(baseline), "%.*s%s",
                 (int)dmlconf_bounded_length(info->baseline, sizeof(info->baseline)), info->baseline,
                 info->strict_baseline ? " (strict)" : "");
        copy_field(&fields[n++], "baseline", "Baseline", baseline, sizeof(baseline));
    }
    else
        copy_field(&fields[n++], "baseline", "Baseline", "none", 8);
    copy_field(&fields[n++], "environment", "Environment", info->environment, sizeof(info->environment));
    if (info->environment_incomplete)
    {
        report_info_field *field = &fields[n - 1];
        size_t used = strlen(field->value);
        snprintf(field->value + used, sizeof(field->value) - used, "%s(not every variable could be recorded)",
                 used ? "\n" : "");
    }
    copy_field(&fields[n++], "command_line", "Command line", info->command_line, sizeof(info->command_line));
    copy_field(&fields[n++], "started_utc", "Started (UTC)", info->started_utc, sizeof(info->started_utc));
    copy_field(&fields[n++], "host", "Host", info->host, sizeof(info->host));
}

/* ---- the environment ------------------------------------------------------------ */

int dmlconf_run_info_add_environment(dmlconf_run_info *info, const char *name, const char *value)
{
    size_t used = dmlconf_bounded_length(info->environment, sizeof(info->environment));
    size_t name_length = strlen(name);
    size_t value_length = strlen(value);
    /* A separating newline, the entry, and the NUL. */
    size_t need = (used ? 1 : 0) + name_length + 1 + value_length + 1;

    if (used == sizeof(info->environment) || need > sizeof(info->environment) - used || strpbrk(name, "\n\r=") ||
        strpbrk(value, "\n\r") || name_length == 0)
    {
        info->environment_incomplete = true;
        return -1;
    }
    snprintf(info->environment + used, sizeof(info->environment) - used, "%s%s=%s", used ? "\n" : "", name, value);
    return 0;
}

/* Appends word i of the command line (a space before all but the first). */
static void append_command_word(dmlconf_text *text, const char *const *words, size_t i)
{
    if (i)
        dmlconf_text_appendf(text, " ");
    dmlconf_text_append_shell_word(text, words[i], strlen(words[i]));
}

int dmlconf_run_info_set_command_line(dmlconf_run_info *info, const char *const *words, size_t count)
{
    /* The longest marker: " ... (N more arguments not recorded)". */
    enum
    {
        MARKER_ROOM = 48
    };
    const size_t size = sizeof(info->command_line);
    dmlconf_text measure = {NULL, 0, 0};
    for (size_t i = 0; i < count; ++i)
        append_command_word(&measure, words, i);
    dmlconf_text text = {info->command_line, size, 0};
    info->command_line[0] = '\0';
    if (measure.length < size)
    {
        for (size_t i = 0; i < count; ++i)
            append_command_word(&text, words, i);
        return 0;
    }
    size_t kept = 0;
    for (; kept < count; ++kept)
    {
        dmlconf_text probe = {NULL, 0, text.length};
        append_command_word(&probe, words, kept);
        if (probe.length + MARKER_ROOM >= size)
            break;
        append_command_word(&text, words, kept);
    }
    dmlconf_text_appendf(&text, " ... (%zu more argument%s not recorded)", count - kept, count - kept == 1 ? "" : "s");
    return -1;
}

int dmlconf_run_info_set_backend_command(dmlconf_run_info *info, const char *const *words)
{
    dmlconf_text text = {info->backend_command, sizeof(info->backend_command), 0};
    bool one_line = true;

    for (size_t i = 0; words && words[i]; ++i)
    {
        one_line = one_line && !strpbrk(words[i], "\n\r");
        if (i)
            dmlconf_text_appendf(&text, " ");
        dmlconf_text_append_shell_word(&text, words[i], strlen(words[i]));
    }
    if (text.length < sizeof(info->backend_command) && one_line)
        return 0;
    info->backend_command[0] = '\0';
    info->backend_command_incomplete = true;
    return -1;
}

/* ---- one run or several ------------------------------------------------------------ */

static bool same_text(const char *a, const char *b, size_t size, const char *what, char *why, size_t why_size)
{
    size_t length_a = dmlconf_bounded_length(a, size);
    size_t length_b = dmlconf_bounded_length(b, size);

    if (length_a == length_b && memcmp(a, b, length_a) == 0)
        return true;
    dmlconf_set_why(why, why_size, "%s '%.*s' against '%.*s'", what, (int)length_a, a, (int)length_b, b);
    return false;
}

static const char *level_text(dmlconf_feature_level level)
{
    const char *name = dmlconf_feature_level_name(level);
    return name ? name : "none";
}

bool dmlconf_run_info_same_run(const dmlconf_run_info *a, const dmlconf_run_info *b, char *why, size_t why_size)
{
    uint32_t shards_a = a->shard_count ? a->shard_count : 1;
    uint32_t shards_b = b->shard_count ? b->shard_count : 1;

    if (!same_text(a->dmlconf_version, b->dmlconf_version, sizeof(a->dmlconf_version), "dmlconf version", why,
                   why_size) ||
        !same_text(a->backend, b->backend, sizeof(a->backend), "backend", why, why_size) ||
        !same_text(a->adapter, b->adapter, sizeof(a->adapter), "adapter", why, why_size) ||
        !same_text(a->driver, b->driver, sizeof(a->driver), "driver", why, why_size) ||
        !same_text(a->runtime, b->runtime, sizeof(a->runtime), "runtime", why, why_size) ||
        !same_text(a->environment, b->environment, sizeof(a->environment), "environment", why, why_size) ||
        !same_text(a->corpus_digest, b->corpus_digest, sizeof(a->corpus_digest), "corpus digest", why, why_size) ||
        !same_text(a->scope, b->scope, sizeof(a->scope), "scope", why, why_size) ||
        !same_text(a->scope_detail, b->scope_detail, sizeof(a->scope_detail), "scope", why, why_size) ||
        !same_text(a->baseline, b->baseline, sizeof(a->baseline), "baseline", why, why_size))
        return false;
    if (a->self_check != b->self_check || a->strict_baseline != b->strict_baseline)
    {
        dmlconf_set_why(why, why_size, "%s",
                       a->self_check != b->self_check ? "a self-check against a run of an implementation"
                                                      : "a strict baseline against one that is not");
        return false;
    }
    if (a->target_level != b->target_level)
    {
        dmlconf_set_why(why, why_size, "target level %s against %s", level_text(a->target_level),
                       level_text(b->target_level));
        return false;
    }
    if (a->seed != b->seed)
    {
        dmlconf_set_why(why, why_size, "seed %llu against %llu", (unsigned long long)a->seed,
                       (unsigned long long)b->seed);
        return false;
    }
    if (a->corpus_cases != b->corpus_cases)
    {
        dmlconf_set_why(why, why_size, "%llu selected cases against %llu", (unsigned long long)a->corpus_cases,
                       (unsigned long long)b->corpus_cases);
        return false;
    }
    if (shards_a != shards_b)
    {
        dmlconf_set_why(why, why_size, "%u shards against %u", (unsigned)shards_a, (unsigned)shards_b);
        return false;
    }
    if (a->software_adapter != b->software_adapter || a->environment_incomplete != b->environment_incomplete)
    {
        dmlconf_set_why(why, why_size, "%s",
                       a->software_adapter != b->software_adapter
                           ? "a software adapter against a hardware one"
                           : "an environment recorded in full against one that was not");
        return false;
    }
    return true;
}

/* ---- the verdict's scope -------------------------------------------------------- */

void dmlconf_run_info_scope(const dmlconf_run_info *info, dmlconf_verdict_scope *scope)
{
    uint32_t shards = info->shard_count ? info->shard_count : 1;
    dmlconf_text detail = {scope->detail, sizeof(scope->detail), 0};
    size_t recorded = dmlconf_bounded_length(info->scope_detail, sizeof(info->scope_detail));

    memset(scope, 0, sizeof(*scope));
    if (!dmlconf_scope_kind_from_name(info->scope, &scope->kind))
    {
        scope->kind = DMLCONF_SCOPE_FILES;
        if (!recorded)
            dmlconf_text_appendf(&detail, "a results file that records no scope");
    }
    if (shards > 1)
    {
        /* One shard of the corpus (or of a subset, or of files) is a part
         * of it; the merge of them all is shard 0 of 1 again. */
        if (scope->kind == DMLCONF_SCOPE_CORPUS)
            scope->kind = DMLCONF_SCOPE_SUBSET;
        dmlconf_text_appendf(&detail, "shard %u/%u", (unsigned)info->shard_index, (unsigned)shards);
        if (recorded)
            dmlconf_text_appendf(&detail, " of ");
    }
    if (recorded)
        dmlconf_text_appendf(&detail, "%.*s", (int)recorded, info->scope_detail);
    scope->self_check = info->self_check;
    scope->baseline = info->baseline[0] != '\0';
    scope->strict_baseline = info->strict_baseline;
    scope->stale_baseline_lines = info->baseline_stale_lines;
}

/* ---- load errors ---------------------------------------------------------------- */

int dmlconf_load_error_list_add(dmlconf_load_error_list *list, const char *file, uint32_t line, uint32_t column,
                                const char *message)
{
    dmlconf_load_error error = {NULL, line, column, NULL};

    if (!dmlconf_reserve((void **)&list->items, &list->capacity, list->count + 1, sizeof(*list->items)))
        return -1;
    error.message = dmlconf_strdup(message ? message : "");
    error.file = file ? dmlconf_strdup(file) : NULL;
    if (!error.message || (file && !error.file))
    {
        free(error.message);
        free(error.file);
        return -1;
    }
    list->items[list->count++] = error;
    return 0;
}

void dmlconf_load_error_list_free(dmlconf_load_error_list *list)
{
    if (!list)
        return;
    for (size_t i = 0; i < list->count; ++i)
    {
        free(list->items[i].file);
        free(list->items[i].message);
    }
    free(list->items);
    list->items = NULL;
    list->count = 0;
    list->capacity = 0;
}
