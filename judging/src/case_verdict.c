/*
 * The verdict of one case (dmlconf/case_verdict.h): an implementation's
 * answer, the comparator's judgement of its output and the canary around
 * it, as the case's status and message.
 */
#include <dmlconf/canary.h>
#include <dmlconf/case_verdict.h>
#include <dmlconf/diagnosis.h>

#include <stdio.h>
#include <string.h>

static const char *words(const dmlconf_answer *answer)
{
    return answer->message ? answer->message : "";
}

static const char *level_text(dmlconf_feature_level level)
{
    const char *name = dmlconf_feature_level_name(level);
    return name ? name : "no level";
}

void dmlconf_case_verdict_unsupported(dmlconf_case_result *r, const char *needs, const char *why)
{
    r->status = DMLCONF_STATUS_SKIP;
    r->failure = DMLCONF_FAILURE_NONE;
    r->unsupported = true;
    snprintf(r->needs, sizeof(r->needs), "%s", needs ? needs : "");
    snprintf(r->message, sizeof(r->message), "%s", why ? why : "");
}

/* The answers that are neither a result nor a refusal: declined (not
 * covered), failed (an error), out of resources (the verdict is
 * incomplete). Returns true when the answer was one of them. */
static bool judge_other_answer(const dmlconf_answer *answer, dmlconf_case_result *r)
{
    char why[sizeof(r->message)];
    switch (answer->kind)
    {
    case DMLCONF_ANSWER_DECLINED:
        snprintf(why, sizeof(why), "backend: %s", words(answer));
        dmlconf_case_verdict_unsupported(r, "declined when run", why);
        return true;
    case DMLCONF_ANSWER_FAILED:
        r->status = DMLCONF_STATUS_ERROR;
        r->failure = DMLCONF_FAILURE_BACKEND_ERROR;
        snprintf(r->message, sizeof(r->message), "backend error: %s", words(answer));
        return true;
    case DMLCONF_ANSWER_NO_RESOURCES:
        r->status = DMLCONF_STATUS_NO_RESOURCES;
        snprintf(r->message, sizeof(r->message), "not judged: the backend ran out of resources: %s", words(answer));
        return true;
    case DMLCONF_ANSWER_DONE:
    case DMLCONF_ANSWER_REJECTED:
        break;
    }
    return false;
}

void dmlconf_case_verdict_rejection(const dmlconf_answer *answer, dmlconf_reason expected, dmlconf_case_result *r)
{
    const char *expected_name = dmlconf_reason_name(expected);
    if (judge_other_answer(answer, r))
        return;
    if (answer->kind == DMLCONF_ANSWER_DONE)
    {
        r->status = DMLCONF_STATUS_FAIL;
        r->failure = DMLCONF_FAILURE_ACCEPTED_INVALID;
        snprintf(r->message, sizeof(r->message), "accepted a desc that must be rejected at %s (%s)",
                 level_text(answer->feature_level), expected_name);
        return;
    }
    if (answer->reason == DMLCONF_REASON_NONE || answer->reason == expected)
    {
        r->status = DMLCONF_STATUS_PASS;
        r->failure = DMLCONF_FAILURE_NONE;
        snprintf(r->message, sizeof(r->message), "rejected (%s)", expected_name);
        return;
    }
    r->status = DMLCONF_STATUS_FAIL;
    r->failure = DMLCONF_FAILURE_WRONG_REASON;
    snprintf(r->message, sizeof(r->message), "rejected for %s, expected %s", dmlconf_reason_name(answer->reason),
             expected_name);
}

/* Appends "; text" (or text, to an empty message). */
static void append_message(dmlconf_case_result *r, const char *text)
{
    size_t used = strlen(r->message);
    snprintf(r->message + used, sizeof(r->message) - used, "%s%s", used ? "; " : "", text);
}

void dmlconf_case_verdict_output(const dmlconf_answer *answer, const dmlconf_compare_job *compare,
                                 uint64_t canary_bits, dmlconf_case_result *r)
{
    const dmlconf_scan_desc *desc = compare->desc;
    if (judge_other_answer(answer, r))
        return;
    if (answer->kind == DMLCONF_ANSWER_REJECTED)
    {
        r->status = DMLCONF_STATUS_FAIL;
        r->failure = DMLCONF_FAILURE_REFUSED_VALID;
        snprintf(r->message, sizeof(r->message), "refused a desc valid at %s: %s (%s)",
                 level_text(answer->feature_level), words(answer), dmlconf_reason_name(answer->reason));
        return;
    }

    dmlconf_error err;
    if (dmlconf_compare_tensor(compare, &r->comparison, &err))
    {
        r->status = DMLCONF_STATUS_ERROR;
        r->failure = DMLCONF_FAILURE_JUDGING;
        snprintf(r->message, sizeof(r->message), "comparator: %s", err.message);
        return;
    }
    r->backend_seconds = answer->device_seconds;
    size_t element = dmlconf_data_type_bits(desc->output.data_type) / 8u;
    element = element ? element : 1u;
    size_t past_end = dmlconf_canary_changed(compare->actual, compare->actual_bytes,
                                             compare->actual_bytes + DMLCONF_CANARY_GUARD, element, canary_bits);
    if (past_end)
    {
        r->status = DMLCONF_STATUS_FAIL;
        r->failure = DMLCONF_FAILURE_PAST_END;
        snprintf(r->message, sizeof(r->message),
                 "wrote past the end of its output buffer: %zu of the %u bytes after the tensor's %zu changed",
                 past_end, DMLCONF_CANARY_GUARD, compare->actual_bytes);
        return;
    }
    if (r->comparison.mismatches == 0)
    {
        r->status = DMLCONF_STATUS_PASS;
        r->failure = DMLCONF_FAILURE_NONE;
        r->message[0] = '\0';
    }
    else
    {
        char first[DMLCONF_MISMATCH_TEXT_SIZE] = "";
        if (r->comparison.has_first)
            dmlconf_format_mismatch(desc->output.data_type, &r->comparison.first, first, sizeof(first));
        r->status = DMLCONF_STATUS_FAIL;
        r->failure = r->comparison.unwritten == r->comparison.mismatches ? DMLCONF_FAILURE_UNWRITTEN
                                                                         : DMLCONF_FAILURE_VALUES;
        /* What the wrong output looks like, for the reports' groups. */
        dmlconf_diagnose(compare, &r->comparison);
        snprintf(r->message, sizeof(r->message), "%llu of %llu elements outside tolerance%s; first %s",
                 (unsigned long long)r->comparison.mismatches, (unsigned long long)r->comparison.elements,
                 r->comparison.unwritten == r->comparison.mismatches ? " (never written)" : "", first);
    }
    /* Not a failure: DirectML may write anywhere in an output's range. */
    uint64_t padding =
        dmlconf_canary_padding_written(&desc->output, compare->actual, compare->actual_bytes, canary_bits);
    char note[160];
    if (padding == UINT64_MAX)
        snprintf(note, sizeof(note), "the padding between output elements was not checked (out of memory)");
    else if (padding)
        snprintf(note, sizeof(note),
                 "wrote %llu padding bytes between output elements (allowed: an output's whole range may be "
                 "written)",
                 (unsigned long long)padding);
    if (padding)
        append_message(r, note);
}
