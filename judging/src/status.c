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
    [DMLCONF_STATUS_NO_RESOURCES] = "no-resources",
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
    case DMLCONF_STATUS_NO_RESOURCES:
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
    [DMLCONF_RUN_PASSED] = "passed",
    [DMLCONF_RUN_FAILED] = "failed",
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

/* Indexed by dmlconf_scope_kind. */
static const char *const scope_names[DMLCONF_SCOPE_KIND_COUNT] = {
    [DMLCONF_SCOPE_CORPUS] = "corpus",
    [DMLCONF_SCOPE_SUBSET] = "subset",
    [DMLCONF_SCOPE_FILES] = "files",
    [DMLCONF_SCOPE_EXPLORE] = "explore",
};

const char *dmlconf_scope_kind_name(dmlconf_scope_kind kind)
{
    if ((unsigned)kind >= (unsigned)DMLCONF_SCOPE_KIND_COUNT)
        return NULL;
    return scope_names[kind];
}

bool dmlconf_scope_kind_from_name(const char *name, dmlconf_scope_kind *kind)
{
    if (!name)
        return false;
    for (unsigned i = 0; i < (unsigned)DMLCONF_SCOPE_KIND_COUNT; ++i)
    {
        if (name_equal(name, scope_names[i]))
        {
            *kind = (dmlconf_scope_kind)i;
            return true;
        }
    }
    return false;
}

const char *dmlconf_baseline_answer_name(dmlconf_baseline_answer answer)
{
    switch (answer)
    {
    case DMLCONF_BASELINE_NONE:
        return "none";
    case DMLCONF_BASELINE_NO_REGRESSIONS:
        return "no-regressions";
    case DMLCONF_BASELINE_REGRESSIONS:
        return "regressions";
    case DMLCONF_BASELINE_UNANSWERED:
        return "unanswered";
    }
    return NULL;
}

/* Indexed by dmlconf_failure. */
static const char *const failure_names[DMLCONF_FAILURE_COUNT] = {
    [DMLCONF_FAILURE_NONE] = "",
    [DMLCONF_FAILURE_VALUES] = "values",
    [DMLCONF_FAILURE_UNWRITTEN] = "unwritten",
    [DMLCONF_FAILURE_PAST_END] = "past-end",
    [DMLCONF_FAILURE_REFUSED_VALID] = "refused-valid",
    [DMLCONF_FAILURE_ACCEPTED_INVALID] = "accepted-invalid",
    [DMLCONF_FAILURE_WRONG_REASON] = "wrong-reason",
    [DMLCONF_FAILURE_BACKEND_ERROR] = "backend-error",
    [DMLCONF_FAILURE_JUDGING] = "judging",
    [DMLCONF_FAILURE_CRASH] = "crash",
    [DMLCONF_FAILURE_TIMEOUT] = "timeout",
};

const char *dmlconf_failure_name(dmlconf_failure failure)
{
    if ((unsigned)failure >= (unsigned)DMLCONF_FAILURE_COUNT)
        return NULL;
    return failure_names[failure];
}

bool dmlconf_failure_from_name(const char *name, dmlconf_failure *failure)
{
    if (!name)
        return false;
    for (unsigned i = 0; i < (unsigned)DMLCONF_FAILURE_COUNT; ++i)
    {
        if (name_equal(name, failure_names[i]))
        {
            *failure = (dmlconf_failure)i;
            return true;
        }
    }
    return false;
}
