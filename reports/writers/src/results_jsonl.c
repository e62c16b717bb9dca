/*
 * results.jsonl: a header line saying what the run is (its run info and the
 * errors in case files that kept cases out), one JSON object per case, and a
 * completion record saying how the run ended:
 *   {"format":"dmlconf-results","format_version":2,"run":{...},"load_errors":[...]}
 *   {"id":"...","status":"pass",...}
 *   {"record":"end","end":"finished","cases":4,"elapsed_seconds":0.5,"reason":""}
 * Encoding and decoding of results, and the reader that tolerates the
 * truncated last line of a crashed run.
 *
 * Encodings that plain JSON numbers cannot carry: non-finite doubles are the
 * strings "nan", "inf" and "-inf"; element bits are hex strings ("0x3c00");
 * counts above 2^63-1 and the seed are decimal strings.
 */
#include "report_internal.h"

#include <dmlconf/integer_text.h>
#include <dmlconf/reserve.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RESULTS_FORMAT         "dmlconf-results"
#define RESULTS_FORMAT_VERSION 2
/* The "record" of the completion record. */
#define END_RECORD "end"

/* ---- encoding ---------------------------------------------------------------- */

json_t *report_json_text(const char *text, size_t max)
{
    size_t length = dmlconf_bounded_length(text, max);
    char *clean = malloc(length * 3 + 1);
    size_t used = 0;
    size_t at = 0;
    json_t *value;

    if (!clean)
        return NULL;
    while (at < length)
    {
        uint32_t cp;
        size_t n = report_utf8_next(text + at, &cp);
        if (n == 0 || at + n > length)
        {
            /* A NUL inside the bound cannot happen; a sequence cut by the
             * bound is invalid. */
            cp = DMLCONF_REPLACEMENT_CHARACTER;
            n = 1;
        }
        used += report_utf8_encode(cp, clean + used);
        at += n;
    }
    clean[used] = '\0';
    value = json_stringn(clean, used);
    free(clean);
    return value;
}

void report_json_put(json_t *obj, const char *key, json_t *value, bool *ok)
{
    if (!value || json_object_set_new(obj, key, value) != 0)
        *ok = false;
}

json_t *report_json_double(double value)
{
    if (isnan(value))
        return json_string("nan");
    if (isinf(value))
        return json_string(value > 0.0 ? "inf" : "-inf");
    return json_real(value);
}

json_t *report_json_u64(uint64_t value)
{
    char digits[24];

    if (value <= (uint64_t)INT64_MAX)
        return json_integer((json_int_t)value);
    snprintf(digits, sizeof(digits), "%llu", (unsigned long long)value);
    return json_string(digits);
}

json_t *report_json_level(dmlconf_feature_level level)
{
    const char *name = dmlconf_feature_level_name(level);

    if (level == DMLCONF_FEATURE_LEVEL_NONE)
        return json_null();
    return name ? json_string(name) : json_integer((json_int_t)level);
}

static json_t *json_bits(dmlconf_data_type type, uint64_t bits)
{
    char text[24];
    dmlconf_report_format_bits(type, bits, text, sizeof(text));
    return json_string(text);
}

static json_t *json_element(dmlconf_data_type type, uint64_t bits)
{
    char text[48];
    dmlconf_report_format_value(type, bits, text, sizeof(text));
    return json_string(text);
}

static json_t *json_name_or_number(const char *name, long long value)
{
    return name ? json_string(name) : json_integer(value);
}

/* The environment's lines as an array of "NAME=VALUE" strings. */
static json_t *json_environment(const dmlconf_run_info *info)
{
    json_t *array = json_array();
    size_t total = dmlconf_bounded_length(info->environment, sizeof(info->environment));

    for (size_t at = 0; array && at < total;)
    {
        const char *line = info->environment + at;
        const char *end = memchr(line, '\n', total - at);
        size_t length = end ? (size_t)(end - line) : total - at;
        if (length > 0 && json_array_append_new(array, report_json_text(line, length)) != 0)
        {
            json_decref(array);
            return NULL;
        }
        at += length + 1;
    }
    return array;
}

json_t *report_json_run_info(const dmlconf_run_info *info)
{
    json_t *obj = json_object();
    json_t *shard = json_object();
    json_t *corpus = json_object();
    bool ok = obj && shard && corpus;
    char seed[24];

    if (!ok)
    {
        json_decref(obj);
        json_decref(shard);
        json_decref(corpus);
        return NULL;
    }
    snprintf(seed, sizeof(seed), "%llu", (unsigned long long)info->seed);
    report_json_put(shard, "index", json_integer(info->shard_index), &ok);
    report_json_put(shard, "count", json_integer(info->shard_count ? info->shard_count : 1), &ok);
    report_json_put(corpus, "digest", report_json_text(info->corpus_digest, sizeof(info->corpus_digest)), &ok);
    report_json_put(corpus, "cases", report_json_u64(info->corpus_cases), &ok);
    report_json_put(obj, "dmlconf_version", report_json_text(info->dmlconf_version, sizeof(info->dmlconf_version)),
                    &ok);
    report_json_put(obj, "backend", report_json_text(info->backend, sizeof(info->backend)), &ok);
    report_json_put(obj, "adapter", report_json_text(info->adapter, sizeof(info->adapter)), &ok);
    report_json_put(obj, "adapter_requested",
                    report_json_text(info->adapter_requested, sizeof(info->adapter_requested)), &ok);
    if (info->backend_requested[0])
        report_json_put(obj, "backend_requested",
                        report_json_text(info->backend_requested, sizeof(info->backend_requested)), &ok);
    if (info->backend_command[0])
        report_json_put(obj, "backend_command", report_json_text(info->backend_command, sizeof(info->backend_command)),
                        &ok);
    if (info->backend_command_incomplete)
        report_json_put(obj, "backend_command_incomplete", json_true(), &ok);
    report_json_put(obj, "driver", report_json_text(info->driver, sizeof(info->driver)), &ok);
    report_json_put(obj, "runtime", report_json_text(info->runtime, sizeof(info->runtime)), &ok);
    report_json_put(obj, "software_adapter", json_boolean(info->software_adapter), &ok);
    report_json_put(obj, "target_level", report_json_level(info->target_level), &ok);
    report_json_put(obj, "seed", json_string(seed), &ok);
    report_json_put(obj, "shard", shard, &ok);
    report_json_put(obj, "corpus", corpus, &ok);
    report_json_put(obj, "planned_cases", report_json_u64(info->planned_cases), &ok);
    report_json_put(obj, "scope", report_json_text(info->scope, sizeof(info->scope)), &ok);
    report_json_put(obj, "scope_detail", report_json_text(info->scope_detail, sizeof(info->scope_detail)), &ok);
    report_json_put(obj, "self_check", json_boolean(info->self_check), &ok);
    if (info->baseline[0])
    {
        report_json_put(obj, "baseline", report_json_text(info->baseline, sizeof(info->baseline)), &ok);
        report_json_put(obj, "strict_baseline", json_boolean(info->strict_baseline), &ok);
        report_json_put(obj, "baseline_stale_lines", report_json_u64(info->baseline_stale_lines), &ok);
    }
    report_json_put(obj, "environment", json_environment(info), &ok);
    report_json_put(obj, "environment_incomplete", json_boolean(info->environment_incomplete), &ok);
    report_json_put(obj, "command_line", report_json_text(info->command_line, sizeof(info->command_line)), &ok);
    report_json_put(obj, "started_utc", report_json_text(info->started_utc, sizeof(info->started_utc)), &ok);
    report_json_put(obj, "host", report_json_text(info->host, sizeof(info->host)), &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

json_t *report_json_load_errors(const dmlconf_load_error *errors, size_t count)
{
    json_t *array = json_array();

    for (size_t i = 0; array && i < count; ++i)
    {
        json_t *obj = json_object();
        bool ok = obj != NULL;
        if (ok)
        {
            report_json_put(obj, "file", errors[i].file ? report_json_text(errors[i].file, SIZE_MAX) : json_null(),
                            &ok);
            report_json_put(obj, "line", json_integer(errors[i].line), &ok);
            report_json_put(obj, "column", json_integer(errors[i].column), &ok);
            report_json_put(obj, "message", report_json_text(errors[i].message, SIZE_MAX), &ok);
        }
        if (!ok || json_array_append_new(array, obj) != 0)
        {
            if (!ok)
                json_decref(obj);
            json_decref(array);
            return NULL;
        }
    }
    return array;
}

json_t *report_json_run_end(const dmlconf_run_end *end)
{
    json_t *obj = json_object();
    const char *name = dmlconf_run_end_name(end->kind);
    bool ok = obj != NULL;

    if (!obj)
        return NULL;
    report_json_put(obj, "end", json_string(name ? name : "none"), &ok);
    report_json_put(obj, "cases", report_json_u64(end->cases), &ok);
    report_json_put(obj, "elapsed_seconds", end->elapsed_seconds >= 0.0 ? json_real(end->elapsed_seconds) : json_null(),
                    &ok);
    report_json_put(obj, "reason", report_json_text(end->reason, sizeof(end->reason)), &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

char *report_results_header_line(const dmlconf_run_info *info, const dmlconf_load_error *errors, size_t count)
{
    json_t *obj = json_object();
    bool ok = obj != NULL;
    char *line = NULL;

    if (!obj)
        return NULL;
    report_json_put(obj, "format", json_string(RESULTS_FORMAT), &ok);
    report_json_put(obj, "format_version", json_integer(RESULTS_FORMAT_VERSION), &ok);
    report_json_put(obj, "run", report_json_run_info(info), &ok);
    report_json_put(obj, "load_errors", report_json_load_errors(errors, count), &ok);
    if (ok)
        line = json_dumps(obj, JSON_COMPACT);
    json_decref(obj);
    return line;
}

char *report_results_end_line(const dmlconf_run_end *end)
{
    json_t *fields = report_json_run_end(end);
    json_t *obj = json_object();
    bool ok = obj && fields;
    char *line = NULL;

    if (!ok)
    {
        json_decref(fields);
        json_decref(obj);
        return NULL;
    }
    /* "record" first, so that a reader sees at once that this is no case. */
    report_json_put(obj, "record", json_string(END_RECORD), &ok);
    if (ok && json_object_update(obj, fields) != 0)
        ok = false;
    json_decref(fields);
    if (ok)
        line = json_dumps(obj, JSON_COMPACT);
    json_decref(obj);
    return line;
}

json_t *report_json_counts(const uint64_t *counts, size_t n)
{
    json_t *array = json_array();

    for (size_t i = 0; array && i < n; ++i)
    {
        if (json_array_append_new(array, report_json_u64(counts[i])) != 0)
        {
            json_decref(array);
            return NULL;
        }
    }
    return array;
}

json_t *report_json_doubles(const double *values, size_t n)
{
    json_t *array = json_array();

    for (size_t i = 0; array && i < n; ++i)
    {
        if (json_array_append_new(array, report_json_double(values[i])) != 0)
        {
            json_decref(array);
            return NULL;
        }
    }
    return array;
}

static json_t *json_mismatch(dmlconf_data_type type, const dmlconf_mismatch *mismatch)
{
    json_t *obj = json_object();
    json_t *coordinates = json_array();
    bool ok = obj && coordinates;
    uint32_t dims = mismatch->dimension_count;

    if (!ok)
    {
        json_decref(obj);
        json_decref(coordinates);
        return NULL;
    }
    if (dims > DMLCONF_MAX_DIMENSIONS)
        dims = DMLCONF_MAX_DIMENSIONS;
    for (uint32_t d = 0; d < dims; ++d)
    {
        if (json_array_append_new(coordinates, json_integer(mismatch->coordinates[d])) != 0)
            ok = false;
    }
    report_json_put(obj, "index", report_json_u64(mismatch->logical_index), &ok);
    report_json_put(obj, "coordinates", coordinates, &ok);
    report_json_put(obj, "expected_bits", json_bits(type, mismatch->expected_bits), &ok);
    report_json_put(obj, "actual_bits", json_bits(type, mismatch->actual_bits), &ok);
    report_json_put(obj, "expected", json_element(type, mismatch->expected_bits), &ok);
    report_json_put(obj, "actual", json_element(type, mismatch->actual_bits), &ok);
    report_json_put(obj, "error_ulps", report_json_double(mismatch->error_ulps), &ok);
    report_json_put(obj, "tolerance_fraction", report_json_double(mismatch->tolerance_fraction), &ok);
    report_json_put(obj, "tolerance", report_json_double(mismatch->tolerance), &ok);
    const char *rule = dmlconf_rule_name(mismatch->rule);
    report_json_put(obj, "rule", json_string(rule ? rule : "unknown"), &ok);
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static json_t *json_comparison(dmlconf_data_type type, const dmlconf_comparison *comparison)
{
    json_t *obj = json_object();
    json_t *samples = json_array();
    json_t *histogram = json_array();
    bool ok = obj && samples && histogram;
    uint32_t sample_count = comparison->sample_count;

    if (!ok)
    {
        json_decref(obj);
        json_decref(samples);
        json_decref(histogram);
        return NULL;
    }
    if (sample_count > DMLCONF_MISMATCH_SAMPLES)
        sample_count = DMLCONF_MISMATCH_SAMPLES;
    for (uint32_t i = 0; i < sample_count; ++i)
    {
        json_t *sample = json_mismatch(type, &comparison->samples[i]);
        if (!sample || json_array_append_new(samples, sample) != 0)
            ok = false;
    }
    for (size_t i = 0; i < DMLCONF_HISTOGRAM_BINS; ++i)
    {
        if (json_array_append_new(histogram, report_json_u64(comparison->histogram[i])) != 0)
            ok = false;
    }
    report_json_put(obj, "elements", report_json_u64(comparison->elements), &ok);
    report_json_put(obj, "mismatches", report_json_u64(comparison->mismatches), &ok);
    report_json_put(obj, "unjudged", report_json_u64(comparison->unjudged), &ok);
    if (comparison->unwritten)
        report_json_put(obj, "unwritten", report_json_u64(comparison->unwritten), &ok);
    if (comparison->canary_ambiguous)
        report_json_put(obj, "canary_ambiguous", report_json_u64(comparison->canary_ambiguous), &ok);
    report_json_put(obj, "max_error_ulps", report_json_double(comparison->max_error_ulps), &ok);
    report_json_put(obj, "max_tolerance_fraction", report_json_double(comparison->max_tolerance_fraction), &ok);
    report_json_put(obj, "first", comparison->has_first ? json_mismatch(type, &comparison->first) : json_null(), &ok);
    report_json_put(obj, "worst", comparison->has_worst ? json_mismatch(type, &comparison->worst) : json_null(), &ok);
    report_json_put(obj, "samples", samples, &ok);
    report_json_put(obj, "histogram", histogram, &ok);
    report_json_put(obj, "ulp_histogram", report_json_counts(comparison->ulp_histogram, DMLCONF_ULP_BINS), &ok);
    report_json_put(obj, "position_mismatches",
                    report_json_counts(comparison->position_mismatches, DMLCONF_POSITION_BINS), &ok);
    report_json_put(obj, "position_max_fraction",
                    report_json_doubles(comparison->position_max_fraction, DMLCONF_POSITION_BINS), &ok);
    report_json_put(obj, "position_max_ulps", report_json_doubles(comparison->position_max_ulps, DMLCONF_POSITION_BINS),
                    &ok);
    if (comparison->axis_length)
    {
        report_json_put(obj, "axis_length", report_json_u64(comparison->axis_length), &ok);
        report_json_put(obj, "lines", report_json_u64(comparison->lines), &ok);
    }
    if (comparison->has_earliest)
    {
        report_json_put(obj, "earliest_position", report_json_u64(comparison->earliest_position), &ok);
        report_json_put(obj, "earliest_line", report_json_u64(comparison->earliest_line), &ok);
        report_json_put(obj, "latest_position", report_json_u64(comparison->latest_position), &ok);
    }
    if (comparison->pattern != DMLCONF_PATTERN_NONE && dmlconf_pattern_name(comparison->pattern))
    {
        report_json_put(obj, "pattern", json_string(dmlconf_pattern_name(comparison->pattern)), &ok);
        report_json_put(obj, "pattern_position", report_json_u64(comparison->pattern_position), &ok);
    }
    if (!ok)
    {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

char *dmlconf_result_to_json(const dmlconf_case_result *result)
{
    json_t *obj = json_object();
    bool ok = obj != NULL;
    char *line = NULL;

    if (!obj)
        return NULL;
    report_json_put(obj, "id", report_json_text(result->id, sizeof(result->id)), &ok);
    report_json_put(obj, "file", report_json_text(result->file, sizeof(result->file)), &ok);
    report_json_put(obj, "line", json_integer(result->line), &ok);
    report_json_put(obj, "op", json_name_or_number(dmlconf_operator_name(result->op), (long long)result->op), &ok);
    report_json_put(obj, "dtype",
                    json_name_or_number(dmlconf_data_type_name(result->data_type), (long long)result->data_type), &ok);
    report_json_put(obj, "dimension_count", json_integer(result->dimension_count), &ok);
    report_json_put(obj, "min_feature_level", report_json_level(result->min_feature_level), &ok);
    report_json_put(obj, "negative", json_boolean(result->negative), &ok);
    report_json_put(obj, "exclusive", json_boolean(result->exclusive), &ok);
    report_json_put(obj, "direction", json_string(result->decreasing ? "decreasing" : "increasing"), &ok);
    if (result->unsupported)
    {
        report_json_put(obj, "unsupported", json_true(), &ok);
        report_json_put(obj, "needs", report_json_text(result->needs, sizeof(result->needs)), &ok);
    }
    report_json_put(obj, "status", json_name_or_number(dmlconf_status_name(result->status), (long long)result->status),
                    &ok);
    if (result->failure != DMLCONF_FAILURE_NONE && dmlconf_failure_name(result->failure))
        report_json_put(obj, "failure", json_string(dmlconf_failure_name(result->failure)), &ok);
    if (result->status == DMLCONF_STATUS_EXPECTED_FAIL && dmlconf_status_name(result->known_status))
        report_json_put(obj, "known_status", json_string(dmlconf_status_name(result->known_status)), &ok);
    report_json_put(obj, "message", report_json_text(result->message, sizeof(result->message)), &ok);
    report_json_put(obj, "attempts", json_integer(result->attempts), &ok);
    report_json_put(obj, "backend_seconds", report_json_double(result->backend_seconds), &ok);
    report_json_put(obj, "wall_seconds", report_json_double(result->wall_seconds), &ok);
    report_json_put(obj, "repro_path", report_json_text(result->repro_path, sizeof(result->repro_path)), &ok);
    report_json_put(obj, "comparison", json_comparison(result->data_type, &result->comparison), &ok);
    if (ok)
        line = json_dumps(obj, JSON_COMPACT);
    json_decref(obj);
    return line;
}

/* ---- decoding ---------------------------------------------------------------- */

/* Copies src into dst[size], cutting a long string at a character boundary. */
static void copy_text(char *dst, size_t size, const char *src)
{
    size_t length = strlen(src);

    if (length >= size)
    {
        length = size - 1;
        while (length > 0 && ((unsigned char)src[length] & 0xc0) == 0x80)
            --length;
    }
    memcpy(dst, src, length);
    dst[length] = '\0';
}

/* The field readers: an absent (or, where allowed, null) field leaves *out
 * alone and succeeds unless `required`. */

static int get_text(const json_t *obj, const char *where, const char *key, char *dst, size_t size, bool required,
                    char *why, size_t why_size)
{
    const json_t *value = json_object_get(obj, key);

    if (!value)
    {
        if (!required)
            return 0;
        dmlconf_set_why(why, why_size, "%s'%s' is missing", where, key);
        return -1;
    }
    if (!json_is_string(value))
    {
        dmlconf_set_why(why, why_size, "%s'%s' is not a string", where, key);
        return -1;
    }
    copy_text(dst, size, json_string_value(value));
    return 0;
}

static int get_u64(const json_t *obj, const char *where, const char *key, uint64_t *out, char *why, size_t why_size)
{
    const json_t *value = json_object_get(obj, key);

    if (!value)
        return 0;
    if (json_is_integer(value) && json_integer_value(value) >= 0)
    {
        *out = (uint64_t)json_integer_value(value);
        return 0;
    }
    if (json_is_string(value) && dmlconf_parse_u64(json_string_value(value), 0, UINT64_MAX, out))
        return 0;
    dmlconf_set_why(why, why_size, "%s'%s' is not an unsigned integer", where, key);
    return -1;
}

static int get_u32(const json_t *obj, const char *where, const char *key, uint32_t *out, char *why, size_t why_size)
{
    uint64_t value = *out;

    if (get_u64(obj, where, key, &value, why, why_size) != 0)
        return -1;
    if (value > UINT32_MAX)
    {
        dmlconf_set_why(why, why_size, "%s'%s' is above 2^32-1", where, key);
        return -1;
    }
    *out = (uint32_t)value;
    return 0;
}

static bool double_from_json(const json_t *value, double *out)
{
    if (json_is_real(value))
        *out = json_real_value(value);
    else if (json_is_integer(value))
        *out = (double)json_integer_value(value);
    else if (json_is_null(value))
        *out = (double)NAN;
    else if (json_is_string(value))
    {
        const char *text = json_string_value(value);
        if (!strcmp(text, "nan"))
            *out = (double)NAN;
        else if (!strcmp(text, "inf") || !strcmp(text, "+inf"))
            *out = (double)INFINITY;
        else if (!strcmp(text, "-inf"))
            *out = -(double)INFINITY;
        else
            return false;
    }
    else
        return false;
    return true;
}

static int get_double(const json_t *obj, const char *where, const char *key, double *out, char *why, size_t why_size)
{
    const json_t *value = json_object_get(obj, key);

    if (!value)
        return 0;
    if (double_from_json(value, out))
        return 0;
    dmlconf_set_why(why, why_size, "%s'%s' is not a number (or \"nan\", \"inf\", \"-inf\")", where, key);
    return -1;
}

static int get_bool(const json_t *obj, const char *where, const char *key, bool *out, char *why, size_t why_size)
{
    const json_t *value = json_object_get(obj, key);

    if (!value)
        return 0;
    if (!json_is_boolean(value))
    {
        dmlconf_set_why(why, why_size, "%s'%s' is not true or false", where, key);
        return -1;
    }
    *out = json_is_true(value);
    return 0;
}

static int get_level(const json_t *obj, const char *where, const char *key, dmlconf_feature_level *out, char *why,
                     size_t why_size)
{
    const json_t *value = json_object_get(obj, key);

    if (!value)
        return 0;
    if (json_is_null(value))
    {
        *out = DMLCONF_FEATURE_LEVEL_NONE;
        return 0;
    }
    if (json_is_integer(value) && json_integer_value(value) >= 0 && json_integer_value(value) <= INT32_MAX)
    {
        *out = (dmlconf_feature_level)json_integer_value(value);
        return 0;
    }
    if (json_is_string(value) && dmlconf_feature_level_from_name(json_string_value(value), out))
        return 0;
    dmlconf_set_why(why, why_size, "%s'%s' is not a feature level", where, key);
    return -1;
}

static int get_mismatch(const json_t *obj, const char *where, dmlconf_mismatch *out, char *why, size_t why_size)
{
    const json_t *coordinates = json_object_get(obj, "coordinates");
    uint64_t bits;

    memset(out, 0, sizeof(*out));
    if (!json_is_object(obj))
    {
        dmlconf_set_why(why, why_size, "%sis not an object", where);
        return -1;
    }
    if (get_u64(obj, where, "index", &out->logical_index, why, why_size) != 0)
        return -1;
    if (coordinates)
    {
        size_t count = json_array_size(coordinates);
        if (!json_is_array(coordinates) || count > DMLCONF_MAX_DIMENSIONS)
        {
            dmlconf_set_why(why, why_size, "%s'coordinates' is not an array of at most 8 indices", where);
            return -1;
        }
        for (size_t d = 0; d < count; ++d)
        {
            const json_t *c = json_array_get(coordinates, d);
            if (!json_is_integer(c) || json_integer_value(c) < 0 || json_integer_value(c) > UINT32_MAX)
            {
                dmlconf_set_why(why, why_size, "%s'coordinates'[%zu] is not an index", where, d);
                return -1;
            }
            out->coordinates[d] = (uint32_t)json_integer_value(c);
        }
        out->dimension_count = (uint32_t)count;
    }
    bits = 0;
    if (get_u64(obj, where, "expected_bits", &bits, why, why_size) != 0)
        return -1;
    out->expected_bits = bits;
    bits = 0;
    if (get_u64(obj, where, "actual_bits", &bits, why, why_size) != 0)
        return -1;
    out->actual_bits = bits;
    if (get_double(obj, where, "error_ulps", &out->error_ulps, why, why_size) != 0 ||
        get_double(obj, where, "tolerance_fraction", &out->tolerance_fraction, why, why_size) != 0 ||
        get_double(obj, where, "tolerance", &out->tolerance, why, why_size) != 0)
        return -1;
    /* Files written before the rule was recorded do not say. */
    const json_t *rule = json_object_get(obj, "rule");
    out->rule = DMLCONF_RULE_UNKNOWN;
    if (rule && (!json_is_string(rule) || !dmlconf_rule_from_name(json_string_value(rule), &out->rule)))
    {
        dmlconf_set_why(why, why_size, "%s'rule' is not the name of a comparator rule", where);
        return -1;
    }
    return 0;
}

/* Reads an optional mismatch field that may be null. */
static int get_optional_mismatch(const json_t *obj, const char *key, bool *has, dmlconf_mismatch *out, char *why,
                                 size_t why_size)
{
    const json_t *value = json_object_get(obj, key);
    char where[48];

    *has = false;
    if (!value || json_is_null(value))
        return 0;
    snprintf(where, sizeof(where), "comparison.%s: ", key);
    if (get_mismatch(value, where, out, why, why_size) != 0)
        return -1;
    *has = true;
    return 0;
}

/* An optional array of exactly n counts in comparison[key]. */
static int get_counts(const json_t *obj, const char *key, uint64_t *out, size_t n, char *why, size_t why_size)
{
    const json_t *array = json_object_get(obj, key);

    if (!array)
        return 0;
    if (!json_is_array(array) || json_array_size(array) != n)
    {
        dmlconf_set_why(why, why_size, "comparison: '%s' is not an array of %zu counts", key, n);
        return -1;
    }
    for (size_t i = 0; i < n; ++i)
    {
        const json_t *bin = json_array_get(array, i);
        uint64_t value = 0;
        if (json_is_integer(bin) && json_integer_value(bin) >= 0)
            value = (uint64_t)json_integer_value(bin);
        else if (!json_is_string(bin) || !dmlconf_parse_u64(json_string_value(bin), 0, UINT64_MAX, &value))
        {
            dmlconf_set_why(why, why_size, "comparison: '%s'[%zu] is not a count", key, i);
            return -1;
        }
        out[i] = value;
    }
    return 0;
}

/* An optional array of exactly n numbers in comparison[key]. */
static int get_doubles(const json_t *obj, const char *key, double *out, size_t n, char *why, size_t why_size)
{
    const json_t *array = json_object_get(obj, key);

    if (!array)
        return 0;
    if (!json_is_array(array) || json_array_size(array) != n)
    {
        dmlconf_set_why(why, why_size, "comparison: '%s' is not an array of %zu numbers", key, n);
        return -1;
    }
    for (size_t i = 0; i < n; ++i)
    {
        if (!double_from_json(json_array_get(array, i), &out[i]))
        {
            dmlconf_set_why(why, why_size, "comparison: '%s'[%zu] is not a number", key, i);
            return -1;
        }
    }
    return 0;
}

static int get_comparison(const json_t *obj, dmlconf_comparison *out, char *why, size_t why_size)
{
    const char *where = "comparison: ";
    const json_t *samples = json_object_get(obj, "samples");

    if (!json_is_object(obj))
    {
        dmlconf_set_why(why, why_size, "'comparison' is not an object");
        return -1;
    }
    if (get_u64(obj, where, "elements", &out->elements, why, why_size) != 0 ||
        get_u64(obj, where, "mismatches", &out->mismatches, why, why_size) != 0 ||
        get_u64(obj, where, "unjudged", &out->unjudged, why, why_size) != 0 ||
        get_u64(obj, where, "unwritten", &out->unwritten, why, why_size) != 0 ||
        get_u64(obj, where, "canary_ambiguous", &out->canary_ambiguous, why, why_size) != 0 ||
        get_double(obj, where, "max_error_ulps", &out->max_error_ulps, why, why_size) != 0 ||
        get_double(obj, where, "max_tolerance_fraction", &out->max_tolerance_fraction, why, why_size) != 0 ||
        get_optional_mismatch(obj, "first", &out->has_first, &out->first, why, why_size) != 0 ||
        get_optional_mismatch(obj, "worst", &out->has_worst, &out->worst, why, why_size) != 0)
        return -1;
    if (samples)
    {
        size_t count = json_array_size(samples);
        if (!json_is_array(samples))
        {
            dmlconf_set_why(why, why_size, "comparison: 'samples' is not an array");
            return -1;
        }
        if (count > DMLCONF_MISMATCH_SAMPLES)
            count = DMLCONF_MISMATCH_SAMPLES;
        for (size_t i = 0; i < count; ++i)
        {
            char sample_where[48];
            snprintf(sample_where, sizeof(sample_where), "comparison.samples[%zu]: ", i);
            if (get_mismatch(json_array_get(samples, i), sample_where, &out->samples[i], why, why_size) != 0)
                return -1;
        }
        out->sample_count = (uint32_t)count;
    }
    if (get_counts(obj, "histogram", out->histogram, DMLCONF_HISTOGRAM_BINS, why, why_size) != 0 ||
        get_counts(obj, "ulp_histogram", out->ulp_histogram, DMLCONF_ULP_BINS, why, why_size) != 0 ||
        get_counts(obj, "position_mismatches", out->position_mismatches, DMLCONF_POSITION_BINS, why, why_size) != 0 ||
        get_doubles(obj, "position_max_fraction", out->position_max_fraction, DMLCONF_POSITION_BINS, why, why_size) !=
            0 ||
        get_doubles(obj, "position_max_ulps", out->position_max_ulps, DMLCONF_POSITION_BINS, why, why_size) != 0 ||
        get_u64(obj, where, "axis_length", &out->axis_length, why, why_size) != 0 ||
        get_u64(obj, where, "lines", &out->lines, why, why_size) != 0 ||
        get_u64(obj, where, "pattern_position", &out->pattern_position, why, why_size) != 0)
        return -1;
    /* Files written before the positions and the pattern were recorded do
     * not have them. */
    if (json_object_get(obj, "earliest_position"))
    {
        out->has_earliest = true;
        if (get_u64(obj, where, "earliest_position", &out->earliest_position, why, why_size) != 0 ||
            get_u64(obj, where, "earliest_line", &out->earliest_line, why, why_size) != 0 ||
            get_u64(obj, where, "latest_position", &out->latest_position, why, why_size) != 0)
            return -1;
    }
    const json_t *pattern = json_object_get(obj, "pattern");
    if (pattern && (!json_is_string(pattern) || !dmlconf_pattern_from_name(json_string_value(pattern), &out->pattern)))
    {
        dmlconf_set_why(why, why_size, "comparison: 'pattern' is not the name of a pattern");
        return -1;
    }
    return 0;
}

/* Reads an enum given by name (through `parse`) or by number. */
static int get_enum(const json_t *obj, const char *key, bool required, int *out, bool (*parse)(const char *, int *),
                    char *why, size_t why_size)
{
    const json_t *value = json_object_get(obj, key);

    if (!value)
    {
        if (!required)
            return 0;
        dmlconf_set_why(why, why_size, "'%s' is missing", key);
        return -1;
    }
    if (json_is_integer(value) && json_integer_value(value) >= 0 && json_integer_value(value) <= INT32_MAX)
    {
        *out = (int)json_integer_value(value);
        return 0;
    }
    if (json_is_string(value) && parse(json_string_value(value), out))
        return 0;
    dmlconf_set_why(why, why_size, "'%s' has an unknown value", key);
    return -1;
}

static bool parse_op(const char *name, int *out)
{
    dmlconf_operator op;
    if (!dmlconf_operator_from_name(name, &op))
        return false;
    *out = (int)op;
    return true;
}

static bool parse_type(const char *name, int *out)
{
    dmlconf_data_type type;
    if (!dmlconf_data_type_from_name(name, &type))
        return false;
    *out = (int)type;
    return true;
}

static bool parse_status(const char *name, int *out)
{
    dmlconf_status status;
    if (!dmlconf_status_from_name(name, &status))
        return false;
    *out = (int)status;
    return true;
}

static bool parse_failure(const char *name, int *out)
{
    dmlconf_failure failure;
    if (!dmlconf_failure_from_name(name, &failure))
        return false;
    *out = (int)failure;
    return true;
}

static bool parse_direction(const char *name, int *out)
{
    if (!strcmp(name, "increasing"))
        *out = 0;
    else if (!strcmp(name, "decreasing"))
        *out = 1;
    else
        return false;
    return true;
}

/* Decodes a case line already parsed. */
static int result_from_object(const json_t *obj, dmlconf_case_result *out, char *why, size_t why_size)
{
    const json_t *comparison;
    int op = 0;
    int type = 0;
    int status = 0;
    int known_status = 0;
    int failure = 0;
    int direction = 0;

    memset(out, 0, sizeof(*out));
    out->backend_seconds = -1.0;
    out->wall_seconds = -1.0;
    if (!json_is_object(obj))
    {
        dmlconf_set_why(why, why_size, "not a JSON object");
        return -1;
    }
    if (get_text(obj, "", "id", out->id, sizeof(out->id), true, why, why_size) != 0 ||
        get_text(obj, "", "file", out->file, sizeof(out->file), false, why, why_size) != 0 ||
        get_u32(obj, "", "line", &out->line, why, why_size) != 0 ||
        get_enum(obj, "op", false, &op, parse_op, why, why_size) != 0 ||
        get_enum(obj, "dtype", false, &type, parse_type, why, why_size) != 0 ||
        get_u32(obj, "", "dimension_count", &out->dimension_count, why, why_size) != 0 ||
        get_level(obj, "", "min_feature_level", &out->min_feature_level, why, why_size) != 0 ||
        get_bool(obj, "", "negative", &out->negative, why, why_size) != 0 ||
        get_bool(obj, "", "exclusive", &out->exclusive, why, why_size) != 0 ||
        get_bool(obj, "", "unsupported", &out->unsupported, why, why_size) != 0 ||
        get_text(obj, "", "needs", out->needs, sizeof(out->needs), false, why, why_size) != 0 ||
        get_enum(obj, "direction", false, &direction, parse_direction, why, why_size) != 0 ||
        get_enum(obj, "status", true, &status, parse_status, why, why_size) != 0 ||
        get_enum(obj, "known_status", false, &known_status, parse_status, why, why_size) != 0 ||
        get_enum(obj, "failure", false, &failure, parse_failure, why, why_size) != 0 ||
        get_text(obj, "", "message", out->message, sizeof(out->message), false, why, why_size) != 0 ||
        get_u32(obj, "", "attempts", &out->attempts, why, why_size) != 0 ||
        get_double(obj, "", "backend_seconds", &out->backend_seconds, why, why_size) != 0 ||
        get_double(obj, "", "wall_seconds", &out->wall_seconds, why, why_size) != 0 ||
        get_text(obj, "", "repro_path", out->repro_path, sizeof(out->repro_path), false, why, why_size) != 0)
        return -1;
    if (direction > 1)
    {
        dmlconf_set_why(why, why_size, "'direction' has an unknown value");
        return -1;
    }
    out->op = (dmlconf_operator)op;
    out->data_type = (dmlconf_data_type)type;
    out->status = (dmlconf_status)status;
    out->known_status = (dmlconf_status)known_status;
    out->failure = (dmlconf_failure)failure;
    out->decreasing = direction == 1;
    comparison = json_object_get(obj, "comparison");
    if (comparison && get_comparison(comparison, &out->comparison, why, why_size) != 0)
        return -1;
    return 0;
}

int dmlconf_result_from_json(const char *text, size_t length, dmlconf_case_result *out, char *why, size_t why_size)
{
    json_error_t error;
    json_t *obj = json_loadb(text, length, 0, &error);
    int rc;

    if (!obj)
    {
        memset(out, 0, sizeof(*out));
        dmlconf_set_why(why, why_size, "not JSON: %s (column %d)", error.text, error.column);
        return -1;
    }
    rc = result_from_object(obj, out, why, why_size);
    json_decref(obj);
    return rc;
}

/* The environment array back into "NAME=VALUE" lines. */
static int get_environment(const json_t *obj, dmlconf_run_info *info, char *why, size_t why_size)
{
    const json_t *array = json_object_get(obj, "environment");
    size_t used = 0;

    if (!array)
        return 0;
    if (!json_is_array(array))
    {
        dmlconf_set_why(why, why_size, "run: 'environment' is not an array of strings");
        return -1;
    }
    for (size_t i = 0; i < json_array_size(array); ++i)
    {
        const json_t *entry = json_array_get(array, i);
        const char *text = json_string_value(entry);
        size_t length = text ? strlen(text) : 0;
        if (!json_is_string(entry) || strpbrk(text, "\n\r"))
        {
            dmlconf_set_why(why, why_size, "run: 'environment'[%zu] is not one line of text", i);
            return -1;
        }
        if ((used ? 1 : 0) + length + 1 > sizeof(info->environment) - used)
        {
            info->environment_incomplete = true;
            continue;
        }
        snprintf(info->environment + used, sizeof(info->environment) - used, "%s%s", used ? "\n" : "", text);
        used += (used ? 1 : 0) + length;
    }
    return 0;
}

static int read_run_info(const json_t *obj, dmlconf_run_info *info, char *why, size_t why_size)
{
    const char *where = "run: ";
    const json_t *shard;
    const json_t *corpus;
    uint64_t seed = 0;

    memset(info, 0, sizeof(*info));
    info->shard_count = 1;
    if (!json_is_object(obj))
    {
        dmlconf_set_why(why, why_size, "'run' is not an object");
        return -1;
    }
    shard = json_object_get(obj, "shard");
    corpus = json_object_get(obj, "corpus");
    if ((shard && !json_is_object(shard)) || (corpus && !json_is_object(corpus)))
    {
        dmlconf_set_why(why, why_size, "run: '%s' is not an object",
                       shard && !json_is_object(shard) ? "shard" : "corpus");
        return -1;
    }
    if (get_text(obj, where, "dmlconf_version", info->dmlconf_version, sizeof(info->dmlconf_version), false, why,
                 why_size) != 0 ||
        get_text(obj, where, "backend", info->backend, sizeof(info->backend), false, why, why_size) != 0 ||
        get_text(obj, where, "adapter", info->adapter, sizeof(info->adapter), false, why, why_size) != 0 ||
        get_text(obj, where, "adapter_requested", info->adapter_requested, sizeof(info->adapter_requested), false, why,
                 why_size) != 0 ||
        get_text(obj, where, "backend_requested", info->backend_requested, sizeof(info->backend_requested), false, why,
                 why_size) != 0 ||
        get_text(obj, where, "backend_command", info->backend_command, sizeof(info->backend_command), false, why,
                 why_size) != 0 ||
        get_bool(obj, where, "backend_command_incomplete", &info->backend_command_incomplete, why, why_size) != 0 ||
        get_text(obj, where, "driver", info->driver, sizeof(info->driver), false, why, why_size) != 0 ||
        get_text(obj, where, "runtime", info->runtime, sizeof(info->runtime), false, why, why_size) != 0 ||
        get_bool(obj, where, "software_adapter", &info->software_adapter, why, why_size) != 0 ||
        get_level(obj, where, "target_level", &info->target_level, why, why_size) != 0 ||
        get_u64(obj, where, "seed", &seed, why, why_size) != 0 ||
        (shard && (get_u32(shard, "run.shard: ", "index", &info->shard_index, why, why_size) != 0 ||
                   get_u32(shard, "run.shard: ", "count", &info->shard_count, why, why_size) != 0)) ||
        (corpus && (get_text(corpus, "run.corpus: ", "digest", info->corpus_digest, sizeof(info->corpus_digest), false,
                             why, why_size) != 0 ||
                    get_u64(corpus, "run.corpus: ", "cases", &info->corpus_cases, why, why_size) != 0)) ||
        get_u64(obj, where, "planned_cases", &info->planned_cases, why, why_size) != 0 ||
        get_text(obj, where, "scope", info->scope, sizeof(info->scope), false, why, why_size) != 0 ||
        get_text(obj, where, "scope_detail", info->scope_detail, sizeof(info->scope_detail), false, why, why_size) !=
            0 ||
        get_bool(obj, where, "self_check", &info->self_check, why, why_size) != 0 ||
        get_text(obj, where, "baseline", info->baseline, sizeof(info->baseline), false, why, why_size) != 0 ||
        get_bool(obj, where, "strict_baseline", &info->strict_baseline, why, why_size) != 0 ||
        get_u64(obj, where, "baseline_stale_lines", &info->baseline_stale_lines, why, why_size) != 0 ||
        get_environment(obj, info, why, why_size) != 0 ||
        get_bool(obj, where, "environment_incomplete", &info->environment_incomplete, why, why_size) != 0 ||
        get_text(obj, where, "command_line", info->command_line, sizeof(info->command_line), false, why, why_size) !=
            0 ||
        get_text(obj, where, "started_utc", info->started_utc, sizeof(info->started_utc), false, why, why_size) != 0 ||
        get_text(obj, where, "host", info->host, sizeof(info->host), false, why, why_size) != 0)
        return -1;
    if (info->shard_count == 0 || info->shard_index >= info->shard_count)
    {
        dmlconf_set_why(why, why_size, "run: shard %u of %u does not exist", (unsigned)info->shard_index,
                       (unsigned)info->shard_count);
        return -1;
    }
    info->seed = seed;
    return 0;
}

static int read_load_errors(const json_t *array, dmlconf_load_error_list *list, char *why, size_t why_size)
{
    if (!array)
        return 0;
    if (!json_is_array(array))
    {
        dmlconf_set_why(why, why_size, "'load_errors' is not an array");
        return -1;
    }
    for (size_t i = 0; i < json_array_size(array); ++i)
    {
        const json_t *entry = json_array_get(array, i);
        const json_t *file = json_object_get(entry, "file");
        const json_t *message = json_object_get(entry, "message");
        uint32_t line = 0;
        uint32_t column = 0;
        if (!json_is_object(entry) || (file && !json_is_null(file) && !json_is_string(file)) ||
            !json_is_string(message) || get_u32(entry, "load_errors: ", "line", &line, why, why_size) != 0 ||
            get_u32(entry, "load_errors: ", "column", &column, why, why_size) != 0)
        {
            dmlconf_set_why(why, why_size, "'load_errors'[%zu] is not {file, line, column, message}", i);
            return -1;
        }
        if (dmlconf_load_error_list_add(list, json_is_string(file) ? json_string_value(file) : NULL, line, column,
                                        json_string_value(message)) != 0)
        {
            dmlconf_set_why(why, why_size, "out of memory");
            return -1;
        }
    }
    return 0;
}

static int read_header(const json_t *obj, dmlconf_results_file *out, char *why, size_t why_size)
{
    const json_t *format = json_object_get(obj, "format");
    const json_t *version = json_object_get(obj, "format_version");

    if (!json_is_string(format) || strcmp(json_string_value(format), RESULTS_FORMAT) != 0)
    {
        dmlconf_set_why(why, why_size, "not a dmlconf results file (the header's 'format' is not \"%s\")",
                       RESULTS_FORMAT);
        return -1;
    }
    if (!json_is_integer(version) || json_integer_value(version) < 1 ||
        json_integer_value(version) > RESULTS_FORMAT_VERSION)
    {
        dmlconf_set_why(why, why_size, "format_version is not 1 to %d (written by a newer dmlconf?)",
                       RESULTS_FORMAT_VERSION);
        return -1;
    }
    if (read_run_info(json_object_get(obj, "run"), &out->info, why, why_size) != 0 ||
        read_load_errors(json_object_get(obj, "load_errors"), &out->load_errors, why, why_size) != 0)
        return -1;
    return 0;
}

/* Whether a parsed line is the completion record. */
static bool is_end_record(const json_t *obj)
{
    const json_t *record = json_object_get(obj, "record");
    return json_is_string(record) && !strcmp(json_string_value(record), END_RECORD);
}

static int read_end(const json_t *obj, dmlconf_run_end *end, char *why, size_t why_size)
{
    const json_t *kind = json_object_get(obj, "end");
    const json_t *elapsed = json_object_get(obj, "elapsed_seconds");
    dmlconf_run_end_kind value;

    memset(end, 0, sizeof(*end));
    end->elapsed_seconds = -1.0;
    if (!json_is_string(kind) || !dmlconf_run_end_from_name(json_string_value(kind), &value) ||
        value == DMLCONF_END_NONE)
    {
        dmlconf_set_why(why, why_size, "the completion record's 'end' is not finished, interrupted or partial");
        return -1;
    }
    end->kind = value;
    if (get_u64(obj, "completion record: ", "cases", &end->cases, why, why_size) != 0 ||
        get_text(obj, "completion record: ", "reason", end->reason, sizeof(end->reason), false, why, why_size) != 0)
        return -1;
    if (elapsed && !json_is_null(elapsed) && !double_from_json(elapsed, &end->elapsed_seconds))
    {
        dmlconf_set_why(why, why_size, "the completion record's 'elapsed_seconds' is not a number");
        return -1;
    }
    return 0;
}

/* Reads one line into a growing buffer, without its newline (and a CR
 * before it). Returns 1 with *newline telling whether it ended in one, 0 at
 * the end of the file, -1 on a read error or when memory runs out. */
static int read_line(FILE *file, char **buffer, size_t *capacity, size_t *length, bool *newline)
{
    size_t used = 0;

    *newline = false;
    for (;;)
    {
        size_t got;
        if (!dmlconf_reserve((void **)buffer, capacity, used + 2, 1))
            return -1;
        if (!fgets(*buffer + used, (int)(*capacity - used > INT32_MAX ? INT32_MAX : *capacity - used), file))
        {
            if (ferror(file))
                return -1;
            break;
        }
        got = strlen(*buffer + used);
        used += got;
        if (used > 0 && (*buffer)[used - 1] == '\n')
        {
            *newline = true;
            --used;
            break;
        }
    }
    if (used == 0 && !*newline)
        return 0;
    if (used > 0 && (*buffer)[used - 1] == '\r')
        --used;
    (*buffer)[used] = '\0';
    *length = used;
    return 1;
}

static bool blank(const char *text, size_t length)
{
    for (size_t i = 0; i < length; ++i)
    {
        if (text[i] != ' ' && text[i] != '\t')
            return false;
    }
    return true;
}

int dmlconf_results_file_read(const char *path, dmlconf_results_file *out, char *why, size_t why_size)
{
    /* Only a regular file: a named pipe would block for ever, a device never
     * end. */
    char unopened[256] = "";
    FILE *file = dmlconf_open_regular_file(path, NULL, unopened, sizeof(unopened));
    char *buffer = NULL;
    size_t capacity = 0;
    size_t length = 0;
    size_t line_number = 0;
    size_t end_line = 0;
    bool have_header = false;
    dmlconf_case_result *result = NULL;
    char reason[384] = "";
    int rc = -1;

    memset(out, 0, sizeof(*out));
    out->end.kind = DMLCONF_END_NONE;
    out->end.elapsed_seconds = -1.0;
    if (!file)
    {
        dmlconf_set_why(why, why_size, "%s: %s", path, unopened);
        return -1;
    }
    result = malloc(sizeof(*result));
    if (!result)
    {
        dmlconf_set_why(why, why_size, "%s: out of memory", path);
        goto fail;
    }
    for (;;)
    {
        bool newline;
        json_error_t error;
        json_t *obj;
        int got = read_line(file, &buffer, &capacity, &length, &newline);
        int status;

        if (got < 0)
        {
            dmlconf_set_why(why, why_size, "%s:%zu: cannot read (or out of memory)", path, line_number + 1);
            goto fail;
        }
        if (got == 0)
            break;
        ++line_number;
        if (blank(buffer, length))
            continue;
        obj = json_loadb(buffer, length, 0, &error);
        if (!obj && !newline && have_header)
        {
            /* The last line of a run that died while writing it. */
            ++out->dropped_lines;
            break;
        }
        if (!obj)
        {
            dmlconf_set_why(why, why_size, "%s:%zu: not JSON: %s (column %d)", path, line_number, error.text,
                           error.column);
            goto fail;
        }
        if (end_line)
            status = -2;
        else if (!have_header)
            status = read_header(obj, out, reason, sizeof(reason));
        else if (is_end_record(obj))
            status = read_end(obj, &out->end, reason, sizeof(reason));
        else
            status = result_from_object(obj, result, reason, sizeof(reason));
        json_decref(obj);
        if (status == -2)
        {
            dmlconf_set_why(why, why_size, "%s:%zu: a line after the completion record (line %zu)", path, line_number,
                           end_line);
            goto fail;
        }
        if (status != 0)
        {
            dmlconf_set_why(why, why_size, "%s:%zu: %s", path, line_number, reason);
            goto fail;
        }
        if (!have_header)
        {
            have_header = true;
            continue;
        }
        if (out->end.kind != DMLCONF_END_NONE)
        {
            end_line = line_number;
            if (out->end.cases != out->results.count)
            {
                dmlconf_set_why(why, why_size, "%s:%zu: the completion record counts %llu cases, the file has %zu", path,
                               line_number, (unsigned long long)out->end.cases, out->results.count);
                goto fail;
            }
            continue;
        }
        if (dmlconf_result_list_append(&out->results, result) != 0)
        {
            dmlconf_set_why(why, why_size, "%s:%zu: out of memory", path, line_number);
            goto fail;
        }
    }
    if (!have_header)
    {
        dmlconf_set_why(why, why_size, "%s: no header line (empty file?)", path);
        goto fail;
    }
    rc = 0;
fail:
    free(result);
    free(buffer);
    fclose(file);
    return rc;
}

void dmlconf_results_file_free(dmlconf_results_file *file)
{
    if (!file)
        return;
    dmlconf_result_list_free(&file->results);
    dmlconf_load_error_list_free(&file->load_errors);
    memset(file, 0, sizeof(*file));
}

const char *dmlconf_results_file_shortfall(const dmlconf_results_file *file, char *buf, size_t size)
{
    switch (file->end.kind)
    {
    case DMLCONF_END_NONE:
        return "it has no completion record (the run died, or is still running)";
    case DMLCONF_END_INTERRUPTED:
        snprintf(buf, size, "it was interrupted%s%s", file->end.reason[0] ? " by " : "", file->end.reason);
        return buf;
    case DMLCONF_END_PARTIAL:
        return "it is itself a partial merge";
    case DMLCONF_END_FINISHED:
    case DMLCONF_END_KIND_COUNT:
        break;
    }
    if (file->load_errors.count > 0)
    {
        snprintf(buf, size, "%zu error%s in its case files kept cases out", file->load_errors.count,
                 file->load_errors.count == 1 ? "" : "s");
        return buf;
    }
    if (file->results.count != file->info.planned_cases)
    {
        snprintf(buf, size, "it has %zu results for %llu cases planned", file->results.count,
                 (unsigned long long)file->info.planned_cases);
        return buf;
    }
    return NULL;
}
