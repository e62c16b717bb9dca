/*
 * Findings of `dmlconf explore`: failing results grouped by signature. A
 * signature names the cause as far as one result can tell it: the status,
 * what failed (values, unwritten elements, a write past the end, a refused
 * valid desc, an accepted invalid one, a backend error and its words), and
 * for wrong values the scan's mode and the earliest position along a scan
 * where a mismatch fell (the first, second or third element, or later),
 * counted in the scan's direction. Data type, operator, rank and layout
 * are not part of it: a finding counts the cases that hit it per value of
 * each, so that one bug seen in every type is one finding, and the counts
 * show where it lives.
 */
#include "explore_internal.h"

#include <dmlconf/reserve.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends ".word" made of `text`: lower-case letters and digits, other
 * characters as single '-', at most `limit` characters; digits become 'n'
 * unless keep_digits (messages carry sizes and addresses that differ from
 * case to case). */
static void append_slug(char *out, size_t size, const char *text, size_t limit, bool keep_digits)
{
    size_t used = strlen(out);
    if (used + 2 >= size)
        return;
    out[used++] = '.';
    size_t start = used, written = 0;
    bool dash = false;
    for (const char *p = text; *p && written < limit && used + 1 < size; ++p)
    {
        char c = *p;
        if (isdigit((unsigned char)c) && !keep_digits)
            c = 'n';
        if (isalnum((unsigned char)c))
        {
            if (dash && used > start)
            {
                out[used++] = '-';
                ++written;
                if (used + 1 >= size || written >= limit)
                    break;
            }
            out[used++] = (char)tolower((unsigned char)c);
            ++written;
            dash = false;
        }
        else
            dash = true;
    }
    if (used == start)
        out[used++] = 'x';
    out[used] = '\0';
}

static void append_word(char *out, size_t size, const char *word)
{
    size_t used = strlen(out);
    snprintf(out + used, size - used, "%s%s", used ? "." : "", word);
}

/* What failed, as the case's verdict recorded it. */
static const char *failure_kind(const dmlconf_case_result *result)
{
    const char *name = dmlconf_failure_name(result->failure);
    return name && name[0] ? name : NULL;
}

void explore_signature(const explore_spec *spec, const dmlconf_case_result *result, char *out, size_t size)
{
    out[0] = '\0';
    const char *status = dmlconf_status_name(result->status);
    append_word(out, size, status ? status : "unknown");
    switch (result->status)
    {
    case DMLCONF_STATUS_TIMEOUT:
        return;
    case DMLCONF_STATUS_CRASH:
    {
        /* "the worker running the case was killed by signal 11 (...)" */
        const char *how = strstr(result->message, "case ");
        append_slug(out, size, how ? how + 5 : result->message, 48, true);
        return;
    }
    case DMLCONF_STATUS_ERROR:
    {
        const char *colon = strchr(result->message, ':');
        if (colon && !strncmp(result->message, "backend error", 13))
        {
            append_word(out, size, "backend");
            append_slug(out, size, colon + 1, 48, false);
        }
        else
            append_slug(out, size, result->message, 48, false);
        return;
    }
    default:
        break;
    }
    const char *kind = failure_kind(result);
    append_word(out, size, kind ? kind : "other");
    if (spec->negative)
    {
        append_word(out, size, dmlconf_reason_name(spec->reason));
        return;
    }
    if (!kind || (strcmp(kind, "values") && strcmp(kind, "unwritten")))
        return;
    append_word(out, size, spec->desc.exclusive ? "exclusive" : "inclusive");
    const dmlconf_comparison *comparison = &result->comparison;
    if (!comparison->has_earliest)
        return;
    static const char *const positions[] = {"at-0", "at-1", "at-2"};
    uint64_t at = comparison->earliest_position;
    append_word(out, size, at < 3 ? positions[at] : "later");
}

/* Counts the case in the finding's tallies. */
static void count_case(explore_finding *finding, const explore_spec *spec)
{
    finding->count++;
    if (spec->negative)
        return;
    unsigned type = explore_type_index(spec->desc.input.data_type);
    if (type < EXPLORE_TYPE_COUNT)
        finding->by_type[type]++;
    finding->by_product[spec->desc.op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT]++;
    finding->by_layout[explore_layout_class_of(&spec->desc)]++;
    if (spec->desc.input.dimension_count <= DMLCONF_MAX_DIMENSIONS)
        finding->by_rank[spec->desc.input.dimension_count]++;
    finding->by_exclusive[spec->desc.exclusive]++;
    finding->by_decreasing[spec->desc.direction == DMLCONF_AXIS_DIRECTION_DECREASING]++;
}

/* Whether the finding is the one for `signature`: its own, or one merged
 * into it. */
static bool answers_to(const explore_finding *finding, const char *signature)
{
    if (!strcmp(finding->signature, signature))
        return true;
    size_t length = strlen(signature);
    for (const char *p = finding->also; (p = strstr(p, signature)) != NULL; p += length)
    {
        bool starts = p == finding->also || p[-1] == ' ';
        if (starts && (p[length] == ' ' || p[length] == '\0'))
            return true;
    }
    return false;
}

/* Makes `spec` and its result the finding's first case. Returns 0, or -1
 * when memory runs out (the finding is left as it was). */
static int set_first(explore_finding *finding, const explore_spec *spec, const dmlconf_case_result *result,
                     double seconds)
{
    explore_spec copy;
    if (explore_spec_copy(spec, &copy))
        return -1;
    explore_spec_free(&finding->first);
    finding->first = copy;
    finding->status = result->status;
    finding->first_cases = spec->index + 1;
    finding->first_seconds = seconds;
    snprintf(finding->first_message, sizeof(finding->first_message), "%s", result->message);
    finding->first_comparison = result->comparison;
    return 0;
}

long explore_findings_add(explore_findings *findings, const explore_spec *spec, const dmlconf_case_result *result,
                          double seconds)
{
    char signature[128];
    explore_signature(spec, result, signature, sizeof(signature));
    for (size_t i = 0; i < findings->count; ++i)
    {
        explore_finding *finding = &findings->items[i];
        if (answers_to(finding, signature))
        {
            /* The first case is the earliest in the sequence, whatever
             * order the workers finished in. */
            if (spec->index < finding->first.index && set_first(finding, spec, result, seconds))
                return -1;
            count_case(finding, spec);
            return (long)i;
        }
    }
    if (findings->count >= EXPLORE_MAX_FINDINGS)
    {
        /* Past the limit, the last finding counts the rest. */
        count_case(&findings->items[findings->count - 1], spec);
        return (long)findings->count - 1;
    }
    if (!dmlconf_reserve((void **)&findings->items, &findings->capacity, findings->count + 1, sizeof(*findings->items)))
        return -1;
    explore_finding *finding = &findings->items[findings->count];
    memset(finding, 0, sizeof(*finding));
    if (set_first(finding, spec, result, seconds))
        return -1;
    snprintf(finding->signature, sizeof(finding->signature), "%s", signature);
    finding->corpus_cases = -1;
    count_case(finding, spec);
    return (long)findings->count++;
}

/* Adds one finding's counts to another's. */
static void add_counts(explore_finding *to, const explore_finding *from)
{
    to->count += from->count;
    for (unsigned i = 0; i < EXPLORE_TYPE_COUNT; ++i)
        to->by_type[i] += from->by_type[i];
    for (unsigned i = 0; i < EXPLORE_LAYOUT_COUNT; ++i)
        to->by_layout[i] += from->by_layout[i];
    for (unsigned i = 0; i <= DMLCONF_MAX_DIMENSIONS; ++i)
        to->by_rank[i] += from->by_rank[i];
    for (unsigned i = 0; i < 2; ++i)
    {
        to->by_product[i] += from->by_product[i];
        to->by_exclusive[i] += from->by_exclusive[i];
        to->by_decreasing[i] += from->by_decreasing[i];
    }
}

static int compare_first_index(const void *a, const void *b)
{
    const explore_finding *x = a, *y = b;
    return x->first.index < y->first.index ? -1 : x->first.index > y->first.index;
}

long explore_findings_merge(explore_findings *findings, explore_findings *round, size_t *added)
{
    long count = 0;
    if (!round->count)
        return 0;
    qsort(round->items, round->count, sizeof(*round->items), compare_first_index);
    for (size_t r = 0; r < round->count; ++r)
    {
        explore_finding *from = &round->items[r];
        size_t i = 0;
        while (i < findings->count && !answers_to(&findings->items[i], from->signature))
            ++i;
        if (i < findings->count)
        {
            add_counts(&findings->items[i], from);
            explore_spec_free(&from->first);
            continue;
        }
        if (findings->count >= EXPLORE_MAX_FINDINGS)
        {
            add_counts(&findings->items[findings->count - 1], from);
            explore_spec_free(&from->first);
            continue;
        }
        if (!dmlconf_reserve((void **)&findings->items, &findings->capacity, findings->count + 1,
                             sizeof(*findings->items)))
        {
            for (size_t k = r; k < round->count; ++k)
                explore_spec_free(&round->items[k].first);
            round->count = 0;
            return -1;
        }
        findings->items[findings->count] = *from;
        memset(&from->first, 0, sizeof(from->first));
        added[count++] = findings->count++;
    }
    round->count = 0;
    return count;
}

void explore_findings_absorb(explore_findings *findings, size_t into, size_t from)
{
    if (into >= from || from >= findings->count)
        return;
    explore_finding *to = &findings->items[into], *gone = &findings->items[from];
    add_counts(to, gone);
    /* The signatures it answers to, where they fit (one that does not
     * comes back as a finding of its own, never lost). */
    const char *words[2] = {gone->signature, gone->also};
    for (int w = 0; w < 2; ++w)
    {
        size_t used = strlen(to->also), length = strlen(words[w]);
        if (!length || used + 1 + length >= sizeof(to->also))
            continue;
        if (used)
            to->also[used++] = ' ';
        memcpy(to->also + used, words[w], length + 1);
    }
    explore_spec_free(&gone->first);
    memmove(gone, gone + 1, (findings->count - from - 1) * sizeof(*gone));
    findings->count--;
}

void explore_findings_free(explore_findings *findings)
{
    for (size_t i = 0; i < findings->count; ++i)
        explore_spec_free(&findings->items[i].first);
    free(findings->items);
    memset(findings, 0, sizeof(*findings));
}
