/*
 * Case selection: include/exclude globs on ids, case lists, and shards.
 */
#define _POSIX_C_SOURCE 200809L

#include <dmlconf/runner.h>

#include <dmlconf/glob.h>
#include <dmlconf/integer_text.h>
#include <dmlconf/reserve.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int append(const char ***items, size_t *count, size_t *capacity, const char *value)
{
    if (!dmlconf_reserve((void **)items, capacity, *count + 1, sizeof(**items)))
        return -1;
    (*items)[(*count)++] = value;
    return 0;
}

int runner_filter_add(runner_filter *filter, const char *pattern)
{
    if (pattern[0] == '!' || pattern[0] == '-')
        return append(&filter->exclude, &filter->exclude_count, &filter->exclude_capacity, pattern + 1);
    return append(&filter->include, &filter->include_count, &filter->include_capacity, pattern);
}

bool runner_filter_matches(const runner_filter *filter, const char *id)
{
    if (filter->caselist && filter->caselist->given && !runner_caselist_matches(filter->caselist, id))
        return false;
    bool included = filter->include_count == 0;
    for (size_t i = 0; i < filter->include_count && !included; ++i)
        included = dmlconf_glob_match(filter->include[i], id);
    if (!included)
        return false;
    for (size_t i = 0; i < filter->exclude_count; ++i)
    {
        if (dmlconf_glob_match(filter->exclude[i], id))
            return false;
    }
    return true;
}

bool runner_filter_selects(const runner_filter *filter)
{
    return filter->include_count || filter->exclude_count || (filter->caselist && filter->caselist->given);
}

void runner_filter_free(runner_filter *filter)
{
    free(filter->include);
    free(filter->exclude);
    memset(filter, 0, sizeof(*filter));
}

int runner_parse_shard(const char *text, uint32_t *index, uint32_t *count)
{
    const char *slash = strchr(text, '/');
    char first[24];
    uint64_t i, n;
    if (!slash || (size_t)(slash - text) >= sizeof(first))
        return -1;
    memcpy(first, text, (size_t)(slash - text));
    first[slash - text] = '\0';
    if (!dmlconf_parse_u64(slash + 1, 1, UINT32_MAX, &n) || !dmlconf_parse_u64(first, 0, n - 1, &i))
        return -1;
    *index = (uint32_t)i;
    *count = (uint32_t)n;
    return 0;
}
