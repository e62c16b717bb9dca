/*
 * The comparison of two runs (dmlconf/compare.h): their corpora checked
 * against each other, every case matched by id, each change classified,
 * device times held to the noise rule, the regressions grouped by cause
 * as summary.md groups failures, and the answer with its exit status.
 * Also writing the comparison's three files into a folder.
 */
#include "report_internal.h"

#include <dmlconf/compare.h>

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Ids named in one sentence of how corpora differ. */
#define IDS_NAMED 5

static const char *const change_names[DMLCONF_CHANGE_KIND_COUNT] = {
    [DMLCONF_CHANGE_REGRESSION] = "regressions",
    [DMLCONF_CHANGE_FIX] = "fixes",
    [DMLCONF_CHANGE_STATUS] = "status_changes",
    [DMLCONF_CHANGE_ADDED] = "added",
    [DMLCONF_CHANGE_REMOVED] = "removed",
    [DMLCONF_CHANGE_NOT_RUN_NEW] = "not_run_in_new",
    [DMLCONF_CHANGE_NOT_RUN_OLD] = "not_run_in_old",
    [DMLCONF_CHANGE_DEFINITION] = "changed_cases",
    [DMLCONF_CHANGE_SLOWER] = "slower",
    [DMLCONF_CHANGE_FASTER] = "faster",
};

const char *dmlconf_change_kind_name(dmlconf_change_kind kind)
{
    return (unsigned)kind < DMLCONF_CHANGE_KIND_COUNT ? change_names[kind] : NULL;
}

void dmlconf_compare_options_default(dmlconf_compare_options *options)
{
    options->allow_different_corpus = false;
    options->time_ratio = DMLCONF_COMPARE_TIME_RATIO;
    options->time_min_seconds = DMLCONF_COMPARE_TIME_MIN_SECONDS;
}

/* ---- lists of sentences and of changes --------------------------------------- */

/* Appends a formatted sentence to (*list, *count). Returns 0, or -1 when
 * memory runs out. */
static int add_sentence(char ***list, size_t *count, const char *format, ...) DMLCONF_PRINTF_LIKE(3, 4);
static int add_sentence(char ***list, size_t *count, const char *format, ...)
{
    char text[768];
    va_list args;
    char **bigger = realloc(*list, (*count + 1) * sizeof(**list));

    if (!bigger)
        return -1;
    *list = bigger;
    va_start(args, format);
    vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    if (!((*list)[*count] = dmlconf_strdup(text)))
        return -1;
    ++*count;
    return 0;
}

static void free_sentences(char **list, size_t count)
{
    for (size_t i = 0; i < count; ++i)
        free(list[i]);
    free(list);
}

static int add_change(dmlconf_change_list *list, const dmlconf_case_result *old_result,
                      const dmlconf_case_result *new_result, const char *what)
{
    if (list->count == list->capacity)
    {
        size_t capacity = list->capacity ? list->capacity * 2 : 16;
        dmlconf_case_change *bigger = realloc(list->items, capacity * sizeof(*bigger));
        if (!bigger)
            return -1;
        list->items = bigger;
        list->capacity = capacity;
    }
    dmlconf_case_change *change = &list->items[list->count++];
    change->old_result = old_result;
    change->new_result = new_result;
    snprintf(change->what, sizeof(change->what), "%s", what ? what : "");
    return 0;
}

/* ---- the runs ------------------------------------------------------------------ */

static void describe_run(dmlconf_compared_run *run, const char *path, const dmlconf_results_file *file)
{
    dmlconf_report_input in = {&file->info,
                               file->load_errors.items,
                               file->load_errors.count,
                               file->results.items,
                               file->results.count,
                               &file->end,
                               NULL,
                               NULL,
                               0,
                               0};
    char buf[160];
    const char *shortfall = dmlconf_results_file_shortfall(file, buf, sizeof(buf));

    run->path = path;
    run->file = file;
    dmlconf_report_input_matrix(&in, &run->matrix);
    dmlconf_matrix_verdict(&run->matrix, &run->verdict);
    run->complete =
        !shortfall && run->verdict.status != DMLCONF_RUN_INCOMPLETE && run->verdict.status != DMLCONF_RUN_INTERRUPTED;
    if (shortfall)
        snprintf(run->incomplete_reason, sizeof(run->incomplete_reason), "%s", shortfall);
    else if (!run->complete)
    {
        dmlconf_text reason = {run->incomplete_reason, sizeof(run->incomplete_reason), 0};
        dmlconf_text_appendf(&reason, "its verdict is %s: %s", run->verdict.text, run->verdict.detail);
    }
    for (size_t i = 0; i < file->results.count; ++i)
        run->device_timed += file->results.items[i].backend_seconds >= 0.0;
}

/* A run's shard in words: "the whole run", "shard 1 of 3". */
static void shard_words(const dmlconf_run_info *info, char *buf, size_t size)
{
    if (info->shard_count <= 1)
        snprintf(buf, size, "the whole run");
    else
        snprintf(buf, size, "shard %u of %u", (unsigned)info->shard_index, (unsigned)info->shard_count);
}

/* The corpora's headers: digests, sizes, cases planned, shards. */
static int compare_headers(dmlconf_run_comparison *c)
{
    const dmlconf_run_info *a = &c->old_run.file->info;
    const dmlconf_run_info *b = &c->new_run.file->info;
    char **list = c->corpus_differences;
    size_t *count = &c->corpus_difference_count;
    int rc = 0;

    if (a->corpus_digest[0] && b->corpus_digest[0] && strcmp(a->corpus_digest, b->corpus_digest) != 0)
        rc |=
            add_sentence(&list, count, "the corpus digest is %s in OLD, %s in NEW", a->corpus_digest, b->corpus_digest);
    if (a->corpus_cases != b->corpus_cases)
        rc |= add_sentence(&list, count, "OLD selected %llu cases of its corpus, NEW %llu",
                           (unsigned long long)a->corpus_cases, (unsigned long long)b->corpus_cases);
    if (a->planned_cases != b->planned_cases)
        rc |= add_sentence(&list, count, "OLD planned %llu cases, NEW %llu", (unsigned long long)a->planned_cases,
                           (unsigned long long)b->planned_cases);
    if ((a->shard_count > 1 || b->shard_count > 1) &&
        (a->shard_count != b->shard_count || a->shard_index != b->shard_index))
    {
        char x[48], y[48];
        shard_words(a, x, sizeof(x));
        shard_words(b, y, sizeof(y));
        rc |= add_sentence(&list, count, "OLD is %s, NEW %s", x, y);
    }
    c->corpus_differences = list;
    return rc;
}

/* The value of variable `name` (length bytes) in an environment's
 * "NAME=VALUE" lines, and its length; NULL when it is not there. */
static const char *environment_value(const char *environment, const char *name, size_t length, size_t *value_length)
{
    for (const char *line = environment; *line;)
    {
        const char *end = strchr(line, '\n');
        size_t line_length = end ? (size_t)(end - line) : strlen(line);
        if (line_length > length && line[length] == '=' && !strncmp(line, name, length))
        {
            *value_length = line_length - length - 1;
            return line + length + 1;
        }
        line += line_length + (end ? 1 : 0);
    }
    return NULL;
}

/* The variables one environment has that the other has not, or with
 * another value: "DMLCONF_D3D12_FAULT=drop-element only in NEW". */
static void environment_differences(const dmlconf_run_info *a, const dmlconf_run_info *b, char *buf, size_t size)
{
    dmlconf_text text = {buf, size, 0};
    const dmlconf_run_info *sides[2] = {a, b};

    buf[0] = '\0';
    for (int s = 0; s < 2; ++s)
    {
        const char *mine = sides[s]->environment;
        const char *theirs = sides[1 - s]->environment;
        for (const char *line = mine; *line;)
        {
            const char *end = strchr(line, '\n');
            size_t line_length = end ? (size_t)(end - line) : strlen(line);
            const char *equals = memchr(line, '=', line_length);
            size_t name_length = equals ? (size_t)(equals - line) : line_length;
            size_t mine_length = equals ? line_length - name_length - 1 : 0;
            size_t their_length = 0;
            const char *their_value = environment_value(theirs, line, name_length, &their_length);
            if (!their_value)
                dmlconf_text_appendf(&text, "%s%.*s only in %s", text.length ? "; " : "", (int)line_length, line,
                                     s == 0 ? "OLD" : "NEW");
            else if (s == 0 && (their_length != mine_length || memcmp(their_value, equals + 1, mine_length)))
                dmlconf_text_appendf(&text, "%s%.*s='%.*s' in OLD, '%.*s' in NEW", text.length ? "; " : "",
                                     (int)name_length, line, (int)mine_length, equals + 1, (int)their_length,
                                     their_value);
            line += line_length + (end ? 1 : 0);
        }
    }
    if (!text.length)
        dmlconf_text_appendf(&text, "the variables that affect a run are recorded differently");
}

/* What else differs: the scope first, then what the runs ran on and with. */
static int compare_settings(dmlconf_run_comparison *c)
{
    const dmlconf_run_info *a = &c->old_run.file->info;
    const dmlconf_run_info *b = &c->new_run.file->info;
    const dmlconf_run_verdict *x = &c->old_run.verdict;
    const dmlconf_run_verdict *y = &c->new_run.verdict;
    char **list = c->run_differences;
    size_t *count = &c->run_difference_count;
    int rc = 0;

    c->scope_differs = x->scope.kind != y->scope.kind || x->scope.self_check != y->scope.self_check ||
                       strcmp(x->scope.detail, y->scope.detail) != 0;
    if (c->scope_differs)
        rc |= add_sentence(&list, count, "the scope: OLD is %s; NEW is %s", x->scope_text, y->scope_text);
    if (x->scope.baseline != y->scope.baseline || strcmp(a->baseline, b->baseline) != 0)
        rc |= add_sentence(&list, count, "the baseline: %s%s%s in OLD, %s%s%s in NEW", a->baseline[0] ? "'" : "",
                           a->baseline[0] ? a->baseline : "none", a->baseline[0] ? "'" : "", b->baseline[0] ? "'" : "",
                           b->baseline[0] ? b->baseline : "none", b->baseline[0] ? "'" : "");
#define SETTING(field, name)                                                                                           \
    if (strcmp(a->field, b->field) != 0)                                                                               \
        rc |= add_sentence(&list, count, "the " name ": '%s' in OLD, '%s' in NEW", a->field, b->field);
    SETTING(backend, "backend")
    SETTING(adapter, "adapter")
    SETTING(driver, "driver")
    SETTING(runtime, "runtime")
    SETTING(dmlconf_version, "dmlconf version")
#undef SETTING
    if (a->target_level != b->target_level)
    {
        const char *p = dmlconf_feature_level_name(a->target_level);
        const char *q = dmlconf_feature_level_name(b->target_level);
        rc |=
            add_sentence(&list, count, "the target level: %s in OLD, %s in NEW (cases between them are skipped in one)",
                         p ? p : "none", q ? q : "none");
    }
    if (a->seed != b->seed)
        rc |= add_sentence(&list, count, "the seed: %llu in OLD, %llu in NEW (the generated inputs differ)",
                           (unsigned long long)a->seed, (unsigned long long)b->seed);
    if (strcmp(a->environment, b->environment) != 0)
    {
        char words[640];
        environment_differences(a, b, words, sizeof(words));
        rc |= add_sentence(&list, count, "the environment: %s", words);
    }
    c->run_differences = list;
    return rc;
}

/* What differs between two results of one id that are not the same case:
 * "" when nothing the results record does. */
static void definition_change(const dmlconf_case_result *a, const dmlconf_case_result *b, char *buf, size_t size)
{
    dmlconf_text text = {buf, size, 0};

    buf[0] = '\0';
    if (a->op != b->op)
        dmlconf_text_appendf(&text, "%soperator %s, now %s", text.length ? "; " : "",
                             dmlconf_operator_name(a->op) ? dmlconf_operator_name(a->op) : "?",
                             dmlconf_operator_name(b->op) ? dmlconf_operator_name(b->op) : "?");
    if (a->data_type != b->data_type)
        dmlconf_text_appendf(&text, "%sdtype %s, now %s", text.length ? "; " : "",
                             dmlconf_data_type_name(a->data_type) ? dmlconf_data_type_name(a->data_type) : "?",
                             dmlconf_data_type_name(b->data_type) ? dmlconf_data_type_name(b->data_type) : "?");
    if (a->dimension_count != b->dimension_count)
        dmlconf_text_appendf(&text, "%s%u dimensions, now %u", text.length ? "; " : "", (unsigned)a->dimension_count,
                             (unsigned)b->dimension_count);
    if (a->exclusive != b->exclusive || a->decreasing != b->decreasing)
        dmlconf_text_appendf(&text, "%s%s, now %s", text.length ? "; " : "",
                             report_mode_text(a->exclusive, a->decreasing),
                             report_mode_text(b->exclusive, b->decreasing));
    if (a->negative != b->negative)
        dmlconf_text_appendf(&text, "%s%s, now %s", text.length ? "; " : "", a->negative ? "negative" : "positive",
                             b->negative ? "negative" : "positive");
    if (a->min_feature_level != b->min_feature_level)
        dmlconf_text_appendf(
            &text, "%sminimum level %s, now %s", text.length ? "; " : "",
            dmlconf_feature_level_name(a->min_feature_level) ? dmlconf_feature_level_name(a->min_feature_level)
                                                             : "none",
            dmlconf_feature_level_name(b->min_feature_level) ? dmlconf_feature_level_name(b->min_feature_level)
                                                             : "none");
    if (a->comparison.elements && b->comparison.elements && a->comparison.elements != b->comparison.elements)
        dmlconf_text_appendf(&text, "%s%llu output elements, now %llu", text.length ? "; " : "",
                             (unsigned long long)a->comparison.elements, (unsigned long long)b->comparison.elements);
}

/* ---- matching the cases -------------------------------------------------------- */

static int compare_ids(const void *p, const void *q)
{
    const dmlconf_case_result *a = *(const dmlconf_case_result *const *)p;
    const dmlconf_case_result *b = *(const dmlconf_case_result *const *)q;
    int order = strncmp(a->id, b->id, sizeof(a->id));
    return order ? order : a < b ? -1 : a > b ? 1 : 0;
}

/* The results of a file sorted by id, a repeated id kept once (its first
 * line): a malloc'ed array of *n pointers, or NULL (memory) with *n 0. */
static const dmlconf_case_result **sorted_by_id(const dmlconf_results_file *file, size_t *n)
{
    const dmlconf_case_result **sorted = malloc((file->results.count ? file->results.count : 1) * sizeof(*sorted));
    size_t kept = 0;

    *n = 0;
    if (!sorted)
        return NULL;
    for (size_t i = 0; i < file->results.count; ++i)
        sorted[i] = &file->results.items[i];
    qsort(sorted, file->results.count, sizeof(*sorted), compare_ids);
    for (size_t i = 0; i < file->results.count; ++i)
    {
        if (kept && !strncmp(sorted[kept - 1]->id, sorted[i]->id, sizeof(sorted[i]->id)))
            continue;
        sorted[kept++] = sorted[i];
    }
    *n = kept;
    return sorted;
}

static bool is_failing_class(dmlconf_status status)
{
    return dmlconf_status_classify(status) == DMLCONF_CLASS_FAILED;
}

/* The change of a case in both runs, if any. */
static int compare_case(dmlconf_run_comparison *c, const dmlconf_case_result *a, const dmlconf_case_result *b)
{
    const bool old_fails = is_failing_class(a->status);
    const bool new_fails = is_failing_class(b->status);
    const dmlconf_compare_options *o = &c->options;
    int rc = 0;

    if (new_fails && !old_fails)
        rc |= add_change(&c->changes[DMLCONF_CHANGE_REGRESSION], a, b, NULL);
    else if (old_fails && dmlconf_status_classify(b->status) == DMLCONF_CLASS_PASSED)
        rc |= add_change(&c->changes[DMLCONF_CHANGE_FIX], a, b, NULL);
    else if (a->status != b->status || (old_fails && new_fails && a->failure != b->failure))
        rc |= add_change(&c->changes[DMLCONF_CHANGE_STATUS], a, b, NULL);
    /* Device time, where both runs measured it. */
    if (a->backend_seconds >= 0.0 && b->backend_seconds >= 0.0 && isfinite(a->backend_seconds) &&
        isfinite(b->backend_seconds))
    {
        double low = fmin(a->backend_seconds, b->backend_seconds);
        double high = fmax(a->backend_seconds, b->backend_seconds);
        ++c->timed_in_both;
        c->old_timed_seconds += a->backend_seconds;
        c->new_timed_seconds += b->backend_seconds;
        /* "At least", for thresholds given in decimal: within a
         * billionth. */
        const double slack = 1.0 - 1e-9;
        if (high - low >= o->time_min_seconds * slack && high > 0.0 && high >= o->time_ratio * low * slack)
            rc |= add_change(
                &c->changes[b->backend_seconds > a->backend_seconds ? DMLCONF_CHANGE_SLOWER : DMLCONF_CHANGE_FASTER], a,
                b, NULL);
    }
    return rc;
}

/* The ids of the first few changes of a list, for a sentence. */
static void first_ids(const dmlconf_change_list *list, bool old_side, char *buf, size_t size)
{
    dmlconf_text text = {buf, size, 0};

    buf[0] = '\0';
    for (size_t i = 0; i < list->count && i < IDS_NAMED; ++i)
    {
        const dmlconf_case_result *r = old_side ? list->items[i].old_result : list->items[i].new_result;
        dmlconf_text_appendf(&text, "%s%.*s", i ? ", " : "", (int)sizeof(r->id), r->id);
        if (list->items[i].what[0])
            dmlconf_text_appendf(&text, " (%s)", list->items[i].what);
    }
    if (list->count > IDS_NAMED)
        dmlconf_text_appendf(&text, ", ...");
}

/* Every case matched by id. */
static int match_cases(dmlconf_run_comparison *c)
{
    size_t n_old = 0, n_new = 0;
    const dmlconf_case_result **a = sorted_by_id(c->old_run.file, &n_old);
    const dmlconf_case_result **b = sorted_by_id(c->new_run.file, &n_new);
    size_t i = 0, j = 0;
    int rc = -1;

    if (!a || !b)
        goto done;
    rc = 0;
    while (rc == 0 && (i < n_old || j < n_new))
    {
        int order = i == n_old ? 1 : j == n_new ? -1 : strncmp(a[i]->id, b[j]->id, sizeof(a[i]->id));
        if (order < 0)
        {
            rc = add_change(&c->changes[c->new_run.complete ? DMLCONF_CHANGE_REMOVED : DMLCONF_CHANGE_NOT_RUN_NEW],
                            a[i++], NULL, NULL);
            continue;
        }
        if (order > 0)
        {
            rc = add_change(&c->changes[c->old_run.complete ? DMLCONF_CHANGE_ADDED : DMLCONF_CHANGE_NOT_RUN_OLD], NULL,
                            b[j++], NULL);
            continue;
        }
        char what[160];
        ++c->in_both;
        definition_change(a[i], b[j], what, sizeof(what));
        if (what[0])
            rc = add_change(&c->changes[DMLCONF_CHANGE_DEFINITION], a[i], b[j], what);
        if (rc == 0)
            rc = compare_case(c, a[i], b[j]);
        ++i;
        ++j;
    }
done:
    free(a);
    free(b);
    return rc;
}

/* The case-level differences of the corpora, as sentences. */
static int describe_case_differences(dmlconf_run_comparison *c)
{
    static const struct
    {
        dmlconf_change_kind kind;
        bool old_side;
        const char *words;
    } kinds[] = {{DMLCONF_CHANGE_REMOVED, true, "only in OLD"},
                 {DMLCONF_CHANGE_ADDED, false, "only in NEW"},
                 {DMLCONF_CHANGE_DEFINITION, false, "in both but not the same case"}};
    char ids[640];
    int rc = 0;
    bool any = false;

    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); ++k)
    {
        const dmlconf_change_list *list = &c->changes[kinds[k].kind];
        if (!list->count)
            continue;
        any = true;
        first_ids(list, kinds[k].old_side, ids, sizeof(ids));
        rc |= add_sentence(&c->corpus_differences, &c->corpus_difference_count, "%zu case%s %s: %s", list->count,
                           list->count == 1 ? "" : "s", kinds[k].words, ids);
    }
    /* The digest covers the case files' contents, which the results do not
     * all record. */
    const dmlconf_run_info *a = &c->old_run.file->info;
    const dmlconf_run_info *b = &c->new_run.file->info;
    if (!any && a->corpus_digest[0] && b->corpus_digest[0] && strcmp(a->corpus_digest, b->corpus_digest) != 0)
        rc |= add_sentence(&c->corpus_differences, &c->corpus_difference_count,
                           "every case is in both with the same operator, type, rank, mode and size: the case files "
                           "differ in what the results do not record (input data, expected values, tolerances)");
    return rc;
}

/* Time changes, the largest ratio first. */
static double time_ratio_of(const dmlconf_case_change *change)
{
    double a = change->old_result->backend_seconds;
    double b = change->new_result->backend_seconds;
    double low = fmin(a, b), high = fmax(a, b);
    return low > 0.0 ? high / low : (double)INFINITY;
}

static int compare_time_changes(const void *p, const void *q)
{
    const dmlconf_case_change *x = p;
    const dmlconf_case_change *y = q;
    double a = time_ratio_of(x), b = time_ratio_of(y);
    if (a != b)
        return a > b ? -1 : 1;
    return strncmp(x->new_result->id, y->new_result->id, sizeof(x->new_result->id));
}

/* The regressions grouped by cause, as summary.md groups failures. */
static int group_regressions(dmlconf_run_comparison *c)
{
    const dmlconf_change_list *list = &c->changes[DMLCONF_CHANGE_REGRESSION];
    dmlconf_case_result *results;
    report_failure_groups groups;
    int rc = -1;

    if (!list->count)
        return 0;
    results = malloc(list->count * sizeof(*results));
    if (!results)
        return -1;
    for (size_t i = 0; i < list->count; ++i)
    {
        results[i] = *list->items[i].new_result;
        /* Grouped by what went wrong: an expected failure is a failure. */
        if (results[i].status == DMLCONF_STATUS_EXPECTED_FAIL)
            results[i].status = results[i].known_status;
        if (!dmlconf_status_is_failure(results[i].status))
            results[i].status = DMLCONF_STATUS_FAIL;
    }
    if (report_failure_groups_build(results, list->count, &groups) == 0)
    {
        c->regression_causes = malloc(groups.count * sizeof(*c->regression_causes));
        c->regression_cause_counts = malloc(groups.count * sizeof(*c->regression_cause_counts));
        if (c->regression_causes && c->regression_cause_counts)
        {
            for (size_t g = 0; g < groups.count; ++g)
            {
                snprintf(c->regression_causes[g], sizeof(c->regression_causes[g]), "%s", groups.items[g].title);
                c->regression_cause_counts[g] = groups.items[g].count;
            }
            c->regression_cause_count = groups.count;
            rc = 0;
        }
    }
    report_failure_groups_free(&groups);
    free(results);
    return rc;
}

/* The answer and its exit status. */
static void answer(dmlconf_run_comparison *c)
{
    const size_t regressions = c->changes[DMLCONF_CHANGE_REGRESSION].count;
    const size_t fixes = c->changes[DMLCONF_CHANGE_FIX].count;
    const size_t others = c->changes[DMLCONF_CHANGE_STATUS].count;

    if (c->corpus_differs && !c->options.allow_different_corpus)
    {
        c->answer_token = "refused";
        c->exit_status = DMLCONF_EXIT_INCOMPLETE;
        snprintf(c->answer, sizeof(c->answer),
                 "refused: OLD and NEW ran different corpora (--allow-different-corpus compares them anyway)");
        return;
    }
    if (!c->old_run.complete || !c->new_run.complete)
    {
        const dmlconf_compared_run *run = !c->new_run.complete ? &c->new_run : &c->old_run;
        dmlconf_text text = {c->answer, sizeof(c->answer), 0};
        c->answer_token = "incomplete";
        c->exit_status = DMLCONF_EXIT_INCOMPLETE;
        dmlconf_text_appendf(&text, "incomplete: %s %s%s (%zu regression%s among the cases both ran)",
                             run == &c->new_run ? "NEW:" : "OLD:", run->incomplete_reason,
                             !c->old_run.complete && !c->new_run.complete ? "; OLD is incomplete too" : "", regressions,
                             regressions == 1 ? "" : "s");
        return;
    }
    if (regressions)
    {
        c->answer_token = "regressions";
        c->exit_status = DMLCONF_EXIT_FAILED;
        snprintf(c->answer, sizeof(c->answer), "%zu regression%s (%zu fix%s, %zu other status change%s)", regressions,
                 regressions == 1 ? "" : "s", fixes, fixes == 1 ? "" : "es", others, others == 1 ? "" : "s");
        return;
    }
    c->answer_token = "no-regressions";
    c->exit_status = DMLCONF_EXIT_PASSED;
    snprintf(c->answer, sizeof(c->answer), "no regressions (%zu fix%s, %zu other status change%s)", fixes,
             fixes == 1 ? "" : "es", others, others == 1 ? "" : "s");
}

int dmlconf_compare_runs(const char *old_path, const dmlconf_results_file *old_file, const char *new_path,
                         const dmlconf_results_file *new_file, const dmlconf_compare_options *options,
                         dmlconf_run_comparison *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof(*out));
    if (options)
        out->options = *options;
    else
        dmlconf_compare_options_default(&out->options);
    describe_run(&out->old_run, old_path, old_file);
    describe_run(&out->new_run, new_path, new_file);
    if (compare_headers(out) != 0 || compare_settings(out) != 0 || match_cases(out) != 0 ||
        describe_case_differences(out) != 0 || group_regressions(out) != 0)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    out->corpus_differs = out->corpus_difference_count > 0;
    for (int k = DMLCONF_CHANGE_SLOWER; k <= DMLCONF_CHANGE_FASTER; ++k)
    {
        if (out->changes[k].count)
            qsort(out->changes[k].items, out->changes[k].count, sizeof(*out->changes[k].items), compare_time_changes);
    }
    answer(out);
    return 0;
}

void dmlconf_run_comparison_free(dmlconf_run_comparison *comparison)
{
    if (!comparison)
        return;
    dmlconf_matrix_free(&comparison->old_run.matrix);
    dmlconf_matrix_free(&comparison->new_run.matrix);
    free_sentences(comparison->corpus_differences, comparison->corpus_difference_count);
    free_sentences(comparison->run_differences, comparison->run_difference_count);
    for (int k = 0; k < DMLCONF_CHANGE_KIND_COUNT; ++k)
        free(comparison->changes[k].items);
    free(comparison->regression_causes);
    free(comparison->regression_cause_counts);
    memset(comparison, 0, sizeof(*comparison));
}

/* ---- the comparison's folder --------------------------------------------------- */

typedef int (*comparison_writer)(FILE *out, const dmlconf_run_comparison *comparison, char *why, size_t why_size);

/* Writes one file through a replacement (a temporary file renamed). */
static int write_one(const char *dir, const char *name, comparison_writer writer,
                     const dmlconf_run_comparison *comparison, char *why, size_t why_size)
{
    char *path = report_path(dir, name, "");
    dmlconf_replacement replacement;
    char reason[256] = "";
    int rc = -1;

    if (!path)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    if (dmlconf_replacement_begin(&replacement, path, reason, sizeof(reason)) != 0)
    {
        dmlconf_set_why(why, why_size, "cannot write %s: %s", path, reason);
        free(path);
        return -1;
    }
    bool written = writer(replacement.file, comparison, reason, sizeof(reason)) == 0;
    if (!written)
        dmlconf_set_why(why, why_size, "%s: %s", path, reason);
    if (dmlconf_replacement_finish(&replacement, written, false, reason, sizeof(reason)) != 0)
    {
        if (written)
            dmlconf_set_why(why, why_size, "cannot write %s: %s", path, reason);
        written = false;
    }
    rc = written ? 0 : -1;
    free(path);
    return rc;
}

int dmlconf_run_comparison_write_all(const char *dir, const dmlconf_run_comparison *comparison, char *why,
                                     size_t why_size)
{
    static const struct
    {
        const char *name;
        comparison_writer writer;
    } files[] = {{DMLCONF_COMPARISON_JSON, dmlconf_write_comparison_json},
                 {DMLCONF_COMPARISON_MD, dmlconf_write_comparison_markdown},
                 {DMLCONF_COMPARISON_HTML, dmlconf_write_comparison_html}};
    int rc = 0;

    if (dmlconf_make_folders(dir, why, why_size) != 0)
        return -1;
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); ++i)
    {
        char reason[512];
        if (write_one(dir, files[i].name, files[i].writer, comparison, reason, sizeof(reason)) != 0 && rc == 0)
        {
            dmlconf_set_why(why, why_size, "%s", reason);
            rc = -1;
        }
    }
    return rc;
}
