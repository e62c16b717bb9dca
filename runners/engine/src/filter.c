/*
 * Case selection: include/exclude globs on ids, and shards.
 */
#define _POSIX_C_SOURCE 200809L

#include <dmlconf/runner.h>

#include <dmlconf/glob.h>
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

void runner_filter_free(runner_filter *filter)
{
    free(filter->include);
    free(filter->exclude);
    memset(filter, 0, sizeof(*filter));
}

static int parse_u32(const char *text, const char *end, uint32_t *value)
{
    if (text == end)
        return -1;
    uint64_t v = 0;
    for (const char *p = text; p < end; ++p)
    {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > UINT32_MAX)
            return -1;
    }
    *value = (uint32_t)v;
    return 0;
}

int runner_parse_shard(const char *text, uint32_t *index, uint32_t *count)
{
    const char *slash = strchr(text, '/');
    if (!slash || parse_u32(text, slash, index) || parse_u32(slash + 1, slash + strlen(slash), count) || *count == 0 ||
        *index >= *count)
        return -1;
    return 0;
}
