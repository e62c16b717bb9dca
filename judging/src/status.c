/*
 * Names of the result statuses, of the run verdicts and of the ways a run
 * ends: the stable tokens of results.jsonl, summary.json, the baselines and
 * the reports.
 */
#include <dmlconf/result.h>
#include <dmlconf/verdict.h>

#include <stddef.h>

/* Indexed by dmlconf_status. */
static const char *const status_names[DMLCONF_STATUS_COUNT] = {
    [DMLCONF_STATUS_PASS] = "pass",
    [DMLCONF_STATUS_FAIL] = "fail",
    [DMLCONF_STATUS_SKIP] = "skip",
    [DMLCONF_STATUS_ERROR] = "error",
    [DMLCONF_STATUS_CRASH] = "crash",
    [DMLCONF_STATUS_TIMEOUT] = "timeout",
    [DMLCONF_STATUS_EXPECTED_FAIL] = "expected-fail",
    [DMLCONF_STATUS_UNEXPECTED_PASS] = "unexpected-pass",
    [DMLCONF_STATUS_FLAKE] = "flake",
};

/* ASCII case-insensitive equality, independent of the locale. */
static bool name_equal(const char *a, const char *b)
{
    for (;; ++a, ++b)
    {
        unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        if (x >= 'A' && x <= 'Z')
            x = (unsigned char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = (unsigned char)(y - 'A' + 'a');
        if (x != y)
            return false;
        if (!x)
            return true;
    }
}

const char *dmlconf_status_name(dmlconf_status status)
{
    if ((unsigned)status >= (unsigned)DMLCONF_STATUS_COUNT)
        return NULL;
    return status_names[status];
}

bool dmlconf_status_from_name(const char *name, dmlconf_status *status)
{
    if (!name)
        return false;
    for (unsigned i = 0; i < (unsigned)DMLCONF_STATUS_COUNT; ++i)
    {
        if (name_equal(name, status_names[i]))
        {
            *status = (dmlconf_status)i;
            return true;
        }
    }
    return false;
}

bool dmlconf_status_is_failure(dmlconf_status status)
{
    switch (status)
    {
    case DMLCONF_STATUS_FAIL:
    case DMLCONF_STATUS_ERROR:
    case DMLCONF_STATUS_CRASH:
    case DMLCONF_STATUS_TIMEOUT:
    case DMLCONF_STATUS_UNEXPECTED_PASS:
        return true;
    case DMLCONF_STATUS_PASS:
    case DMLCONF_STATUS_SKIP:
    case DMLCONF_STATUS_EXPECTED_FAIL:
    case DMLCONF_STATUS_FLAKE:
    case DMLCONF_STATUS_COUNT:
        break;
    }
    return false;
}

/* Indexed by dmlconf_run_status; one per line. */
/* clang-format off */
static const char *const run_status_names[DMLCONF_RUN_STATUS_COUNT] = {
    [DMLCONF_RUN_CONFORMANT] = "conformant",
    [DMLCONF_RUN_NOT_CONFORMANT] = "not-conformant",
    [DMLCONF_RUN_INCOMPLETE] = "incomplete",
    [DMLCONF_RUN_INTERRUPTED] = "interrupted",
    [DMLCONF_RUN_PARTLY_COVERED] = "partly-covered",
};
/* clang-format on */

const char *dmlconf_run_status_name(dmlconf_run_status status)
{
    if ((unsigned)status >= (unsigned)DMLCONF_RUN_STATUS_COUNT)
        return NULL;
    return run_status_names[status];
}

/* Indexed by dmlconf_run_end_kind. */
static const char *const run_end_names[DMLCONF_END_KIND_COUNT] = {
    [DMLCONF_END_NONE] = "none",
    [DMLCONF_END_FINISHED] = "finished",
    [DMLCONF_END_INTERRUPTED] = "interrupted",
    [DMLCONF_END_PARTIAL] = "partial",
};

const char *dmlconf_run_end_name(dmlconf_run_end_kind kind)
{
    if ((unsigned)kind >= (unsigned)DMLCONF_END_KIND_COUNT)
        return NULL;
    return run_end_names[kind];
}

bool dmlconf_run_end_from_name(const char *name, dmlconf_run_end_kind *kind)
{
    if (!name)
        return false;
    for (unsigned i = 0; i < (unsigned)DMLCONF_END_KIND_COUNT; ++i)
    {
        if (name_equal(name, run_end_names[i]))
        {
            *kind = (dmlconf_run_end_kind)i;
            return true;
        }
    }
    return false;
}
