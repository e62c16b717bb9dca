/*
 * The report set: results.jsonl streamed as cases finish, the final reports
 * written when the run ends, and what every writer shares (result lists,
 * selections sorted by id, the run info's fields, value formatting and the
 * reproduce command, failures.txt).
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "report_internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef _WIN32
#include <direct.h>
#include <io.h>
#else
#include <unistd.h>
#endif

/* ---- small shared helpers ----------------------------------------------------- */

void dmlconf_set_why(char *why, size_t why_size, const char *format, ...)
{
    va_list args;

    if (!why || why_size == 0)
        return;
    va_start(args, format);
    vsnprintf(why, why_size, format, args);
    va_end(args);
}

void dmlconf_set_error(dmlconf_error *err, const char *format, ...)
{
    if (!err)
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(err->message, sizeof(err->message), format, args);
    va_end(args);
}

const char *dmlconf_status_text(dmlconf_status status)
{
    const char *name = dmlconf_status_name(status);
    return name ? name : "unknown";
}

bool dmlconf_status_still_fails(dmlconf_status status)
{
    return status == DMLCONF_STATUS_FAIL || status == DMLCONF_STATUS_ERROR || status == DMLCONF_STATUS_CRASH ||
           status == DMLCONF_STATUS_TIMEOUT || status == DMLCONF_STATUS_EXPECTED_FAIL;
}

bool dmlconf_result_is_failing(const dmlconf_case_result *result)
{
    return (unsigned)result->status >= DMLCONF_STATUS_COUNT || dmlconf_status_is_failure(result->status);
}

bool dmlconf_result_is_noteworthy(const dmlconf_case_result *result)
{
    return result->status == DMLCONF_STATUS_SKIP || result->status == DMLCONF_STATUS_EXPECTED_FAIL ||
           result->status == DMLCONF_STATUS_FLAKE;
}

size_t dmlconf_bounded_length(const char *text, size_t size)
{
    size_t length = 0;

    while (length < size && text[length] != '\0')
        ++length;
    return length;
}

typedef struct sort_key
{
    const char *id;
    size_t index;
} sort_key;

static int compare_keys(const void *a, const void *b)
{
    const sort_key *x = a;
    const sort_key *y = b;
    int order = strncmp(x->id, y->id, sizeof(((dmlconf_case_result *)NULL)->id));

    if (order != 0)
        return order;
    return x->index < y->index ? -1 : x->index > y->index ? 1 : 0;
}

size_t *dmlconf_select_sorted(const dmlconf_case_result *results, size_t count, dmlconf_result_predicate select,
                              size_t *n)
{
    sort_key *keys;
    size_t *indices;
    size_t selected = 0;

    *n = 0;
    for (size_t i = 0; i < count; ++i)
    {
        if (select(&results[i]))
            ++selected;
    }
    if (selected == 0)
        return NULL;
    keys = malloc(selected * sizeof(*keys));
    indices = malloc(selected * sizeof(*indices));
    if (!keys || !indices)
    {
        free(keys);
        free(indices);
        *n = SIZE_MAX;
        return NULL;
    }
    selected = 0;
    for (size_t i = 0; i < count; ++i)
    {
        if (select(&results[i]))
        {
            keys[selected].id = results[i].id;
            keys[selected].index = i;
            ++selected;
        }
    }
    qsort(keys, selected, sizeof(*keys), compare_keys);
    for (size_t i = 0; i < selected; ++i)
        indices[i] = keys[i].index;
    free(keys);
    *n = selected;
    return indices;
}

static void copy_field(dmlconf_info_field *field, const char *key, const char *label, const char *value, size_t max)
{
    size_t length = dmlconf_bounded_length(value, max);

    if (length >= sizeof(field->value))
        length = sizeof(field->value) - 1;
    field->key = key;
    field->label = label;
    memcpy(field->value, value, length);
    field->value[length] = '\0';
}

void dmlconf_run_info_fields(const dmlconf_run_info *info, dmlconf_info_field fields[DMLCONF_INFO_FIELD_COUNT])
{
    const char *level = dmlconf_feature_level_name(info->target_level);
    char seed[24];
    size_t n = 0;

    snprintf(seed, sizeof(seed), "%llu", (unsigned long long)info->seed);
    copy_field(&fields[n++], "dmlconf_version", "dmlconf version", info->dmlconf_version,
               sizeof(info->dmlconf_version));
    copy_field(&fields[n++], "backend", "Backend", info->backend, sizeof(info->backend));
    copy_field(&fields[n++], "adapter", "Adapter", info->adapter, sizeof(info->adapter));
    copy_field(&fields[n++], "driver", "Driver", info->driver, sizeof(info->driver));
    copy_field(&fields[n++], "runtime", "Runtime", info->runtime, sizeof(info->runtime));
    copy_field(&fields[n++], "software_adapter", "Software adapter", info->software_adapter ? "yes" : "no", 4);
    copy_field(&fields[n++], "target_level", "Target feature level", level ? level : "none", 8);
    copy_field(&fields[n++], "seed", "Seed", seed, sizeof(seed));
    copy_field(&fields[n++], "command_line", "Command line", info->command_line, sizeof(info->command_line));
    copy_field(&fields[n++], "started_utc", "Started (UTC)", info->started_utc, sizeof(info->started_utc));
    copy_field(&fields[n++], "host", "Host", info->host, sizeof(info->host));
}

int dmlconf_report_view_init(dmlconf_report_view *view, const dmlconf_run_info *info,
                             const dmlconf_case_result *results, size_t count, const dmlconf_matrix *matrix, char *why,
                             size_t why_size)
{
    memset(view, 0, sizeof(*view));
    view->failing = dmlconf_select_sorted(results, count, dmlconf_result_is_failing, &view->failing_count);
    view->noteworthy = dmlconf_select_sorted(results, count, dmlconf_result_is_noteworthy, &view->noteworthy_count);
    if (view->failing_count == SIZE_MAX || view->noteworthy_count == SIZE_MAX)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    dmlconf_run_info_fields(info, view->fields);
    dmlconf_matrix_verdict(matrix, &view->verdict);
    return 0;
}

void dmlconf_report_view_free(dmlconf_report_view *view)
{
    free(view->failing);
    free(view->noteworthy);
    view->failing = view->noteworthy = NULL;
}

/* ---- result lists ----------------------------------------------------------------- */

int dmlconf_result_list_append(dmlconf_result_list *list, const dmlconf_case_result *result)
{
    if (list->count == list->capacity)
    {
        size_t capacity = list->capacity ? list->capacity * 2 : 64;
        dmlconf_case_result *items;
        if (capacity > SIZE_MAX / sizeof(*items))
            return -1;
        items = realloc(list->items, capacity * sizeof(*items));
        if (!items)
            return -1;
        list->items = items;
        list->capacity = capacity;
    }
    list->items[list->count++] = *result;
    return 0;
}

void dmlconf_result_list_free(dmlconf_result_list *list)
{
    if (!list)
        return;
    free(list->items);
    list->items = NULL;
    list->count = 0;
    list->capacity = 0;
}

/* ---- formatting ----------------------------------------------------------------- */

/* A bounded text buffer that keeps counting past its end, as snprintf does. */
typedef struct text_buffer
{
    char *buf;
    size_t size;
    size_t length;
} text_buffer;

static void appendf(text_buffer *text, const char *format, ...) DMLCONF_PRINTF_LIKE(2, 3);

static void appendf(text_buffer *text, const char *format, ...)
{
    va_list args;
    size_t at = text->length < text->size ? text->length : text->size;
    int n;

    va_start(args, format);
    n = vsnprintf(text->size > at ? text->buf + at : NULL, text->size > at ? text->size - at : 0, format, args);
    va_end(args);
    if (n > 0)
        text->length += (size_t)n;
}

static size_t format_special(double value, text_buffer *text)
{
    if (isnan(value))
        appendf(text, "nan");
    else if (isinf(value))
        appendf(text, value > 0.0 ? "inf" : "-inf");
    else if (value == 0.0)
        appendf(text, signbit(value) ? "-0" : "0");
    else
        return 0;
    return 1;
}

/* Whole numbers in full; others as the shortest %g text that `same`
 * accepts as reading back to the same bits. */
static void format_shortest(double value, int max_digits, bool (*same)(const char *, uint64_t), uint64_t bits,
                            text_buffer *text)
{
    char candidate[40];

    if (format_special(value, text))
        return;
    /* Whole numbers exactly ("65504", not "6.55e+04", which reads back to
     * the same half but says 65500). */
    if (fabs(value) < 9007199254740992.0 && value == (double)(int64_t)value)
    {
        appendf(text, "%.0f", value);
        return;
    }
    for (int digits = 1; digits <= max_digits; ++digits)
    {
        snprintf(candidate, sizeof(candidate), "%.*g", digits, value);
        if (same(candidate, bits) || digits == max_digits)
            break;
    }
    appendf(text, "%s", candidate);
}

static bool same_float32(const char *text, uint64_t bits)
{
    float value = strtof(text, NULL);
    uint32_t back;
    memcpy(&back, &value, sizeof(back));
    return back == (uint32_t)bits;
}

static bool same_float16(const char *text, uint64_t bits)
{
    return dmlconf_half_from_double(strtod(text, NULL)) == (uint16_t)bits;
}

static bool same_float64(const char *text, uint64_t bits)
{
    double value = strtod(text, NULL);
    uint64_t back;
    memcpy(&back, &value, sizeof(back));
    return back == bits;
}

static bool type_is_signed_integer(dmlconf_data_type type)
{
    return type == DMLCONF_DATA_TYPE_INT8 || type == DMLCONF_DATA_TYPE_INT16 || type == DMLCONF_DATA_TYPE_INT32 ||
           type == DMLCONF_DATA_TYPE_INT64 || type == DMLCONF_DATA_TYPE_INT4;
}

static bool type_is_unsigned_integer(dmlconf_data_type type)
{
    return type == DMLCONF_DATA_TYPE_UINT8 || type == DMLCONF_DATA_TYPE_UINT16 || type == DMLCONF_DATA_TYPE_UINT32 ||
           type == DMLCONF_DATA_TYPE_UINT64 || type == DMLCONF_DATA_TYPE_UINT4;
}

static uint64_t width_mask(unsigned width)
{
    return width == 0 || width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

size_t dmlconf_report_format_bits(dmlconf_data_type type, uint64_t bits, char *buf, size_t size)
{
    text_buffer text = {buf, size, 0};
    unsigned width = dmlconf_data_type_bits(type);
    int digits = width ? (int)((width + 3) / 4) : 1;

    appendf(&text, "0x%0*llx", digits, (unsigned long long)(bits & width_mask(width)));
    return text.length;
}

size_t dmlconf_report_format_value(dmlconf_data_type type, uint64_t bits, char *buf, size_t size)
{
    text_buffer text = {buf, size, 0};
    unsigned width = dmlconf_data_type_bits(type);

    if (size > 0)
        buf[0] = '\0';
    switch (type)
    {
    case DMLCONF_DATA_TYPE_FLOAT32:
    {
        uint32_t raw = (uint32_t)bits;
        float value;
        memcpy(&value, &raw, sizeof(value));
        format_shortest((double)value, 9, same_float32, bits, &text);
        return text.length;
    }
    case DMLCONF_DATA_TYPE_FLOAT16:
        format_shortest((double)dmlconf_half_to_float((uint16_t)bits), 5, same_float16, bits, &text);
        return text.length;
    case DMLCONF_DATA_TYPE_FLOAT64:
    {
        double value;
        memcpy(&value, &bits, sizeof(value));
        format_shortest(value, 17, same_float64, bits, &text);
        return text.length;
    }
    default:
        break;
    }
    if (type_is_unsigned_integer(type))
    {
        appendf(&text, "%llu", (unsigned long long)(bits & width_mask(width)));
    }
    else if (type_is_signed_integer(type))
    {
        uint64_t value = bits & width_mask(width);
        if (width < 64 && (value >> (width - 1)) & 1)
            value |= ~width_mask(width); /* sign-extend */
        if (value >> 63)
            appendf(&text, "-%llu", (unsigned long long)(~value + 1)); /* through unsigned: INT64_MIN is fine */
        else
            appendf(&text, "%llu", (unsigned long long)value);
    }
    else
    {
        return dmlconf_report_format_bits(type, bits, buf, size);
    }
    return text.length;
}

size_t dmlconf_report_format_coordinates(const dmlconf_mismatch *mismatch, char *buf, size_t size)
{
    text_buffer text = {buf, size, 0};
    uint32_t dims = mismatch->dimension_count;

    if (dims > DMLCONF_MAX_DIMENSIONS)
        dims = DMLCONF_MAX_DIMENSIONS;
    appendf(&text, "[");
    for (uint32_t d = 0; d < dims; ++d)
        appendf(&text, "%s%u", d ? ", " : "", (unsigned)mismatch->coordinates[d]);
    appendf(&text, "]");
    return text.length;
}

size_t dmlconf_report_format_repro(const char *id, char *buf, size_t size)
{
    text_buffer text = {buf, size, 0};

    appendf(&text, "dmlconf run --filter '");
    for (const char *c = id; *c; ++c)
    {
        if (*c == '\'')
            appendf(&text, "'\\''");
        else
            appendf(&text, "%c", *c);
    }
    appendf(&text, "'");
    return text.length;
}

/* ---- failures.txt --------------------------------------------------------------- */

static bool still_fails(const dmlconf_case_result *result)
{
    return dmlconf_status_still_fails(result->status);
}

int dmlconf_write_failures(FILE *out, const dmlconf_case_result *results, size_t count, char *why, size_t why_size)
{
    size_t n;
    size_t *order = dmlconf_select_sorted(results, count, still_fails, &n);

    if (n == SIZE_MAX)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; ++i)
    {
        const dmlconf_case_result *result = &results[order[i]];
        dmlconf_status status = result->status == DMLCONF_STATUS_EXPECTED_FAIL ? DMLCONF_STATUS_FAIL : result->status;
        size_t length = dmlconf_bounded_length(result->id, sizeof(result->id));

        /* Ids never hold control characters; should one, it must not split
         * the line. */
        for (size_t c = 0; c < length; ++c)
        {
            unsigned char ch = (unsigned char)result->id[c];
            fputc(ch < 0x20 || ch == 0x7f ? '?' : ch, out);
        }
        fprintf(out, ",%s\n", dmlconf_status_text(status));
    }
    free(order);
    if (ferror(out))
    {
        dmlconf_set_why(why, why_size, "write error");
        return -1;
    }
    return 0;
}

/* ---- files and directories -------------------------------------------------------- */

static char *join_path(const char *dir, const char *name, const char *suffix)
{
    size_t length = strlen(dir) + 1 + strlen(name) + strlen(suffix) + 1;
    char *path = malloc(length);

    if (path)
        snprintf(path, length, "%s/%s%s", dir, name, suffix);
    return path;
}

static int make_one_directory(const char *path)
{
#ifdef _WIN32
    return _mkdir(path);
#else
    return mkdir(path, 0777);
#endif
}

static bool is_separator(char c)
{
#ifdef _WIN32
    return c == '/' || c == '\\';
#else
    return c == '/';
#endif
}

static bool is_directory_mode(unsigned mode)
{
#ifdef _WIN32
    return (mode & _S_IFDIR) != 0;
#else
    return S_ISDIR(mode);
#endif
}

/* mkdir -p. */
static int make_directories(const char *dir, char *why, size_t why_size)
{
    size_t length = strlen(dir);
    char *path = malloc(length + 1);
    struct stat info;

    if (!path)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    memcpy(path, dir, length + 1);
    for (size_t i = 1; i <= length; ++i)
    {
        if (i == length || is_separator(path[i]))
        {
            char saved = path[i];
            path[i] = '\0';
            if (!is_separator(path[i - 1]) && make_one_directory(path) != 0 && errno != EEXIST)
            {
                dmlconf_set_why(why, why_size, "cannot create directory %s: %s", path, strerror(errno));
                free(path);
                return -1;
            }
            path[i] = saved;
        }
    }
    free(path);
    if (stat(dir, &info) != 0 || !is_directory_mode(info.st_mode))
    {
        dmlconf_set_why(why, why_size, "%s is not a directory", dir);
        return -1;
    }
    return 0;
}

static int sync_to_disk(FILE *file)
{
#ifdef _WIN32
    return _commit(_fileno(file));
#else
    return fsync(fileno(file));
#endif
}

/* rename() that replaces an existing file everywhere. */
static int replace_file(const char *from, const char *to)
{
#ifdef _WIN32
    remove(to);
#endif
    return rename(from, to);
}

/* What the final reports are written from. */
typedef struct report_inputs
{
    const dmlconf_run_info *info;
    const dmlconf_case_result *results;
    size_t count;
    const dmlconf_matrix *matrix;
} report_inputs;

typedef enum report_kind
{
    REPORT_SUMMARY_JSON,
    REPORT_JUNIT_XML,
    REPORT_SUMMARY_MD,
    REPORT_HTML,
    REPORT_FAILURES_TXT,
    REPORT_KIND_COUNT
} report_kind;

static const char *const report_names[REPORT_KIND_COUNT] = {
    [REPORT_SUMMARY_JSON] = DMLCONF_REPORT_SUMMARY_JSON, [REPORT_JUNIT_XML] = DMLCONF_REPORT_JUNIT_XML,
    [REPORT_SUMMARY_MD] = DMLCONF_REPORT_SUMMARY_MD,     [REPORT_HTML] = DMLCONF_REPORT_HTML,
    [REPORT_FAILURES_TXT] = DMLCONF_REPORT_FAILURES_TXT,
};

static int run_writer(report_kind kind, FILE *out, const report_inputs *in, char *why, size_t why_size)
{
    switch (kind)
    {
    case REPORT_SUMMARY_JSON:
        return dmlconf_write_summary_json(out, in->info, in->results, in->count, in->matrix, why, why_size);
    case REPORT_JUNIT_XML:
        return dmlconf_write_junit(out, in->info, in->results, in->count, why, why_size);
    case REPORT_SUMMARY_MD:
        return dmlconf_write_markdown(out, in->info, in->results, in->count, in->matrix, why, why_size);
    case REPORT_HTML:
        return dmlconf_write_html(out, in->info, in->results, in->count, in->matrix, why, why_size);
    case REPORT_FAILURES_TXT:
        return dmlconf_write_failures(out, in->results, in->count, why, why_size);
    case REPORT_KIND_COUNT:
        break;
    }
    return -1;
}

/* Writes one report to NAME.tmp, then renames it to NAME. */
static int write_report_file(const char *dir, report_kind kind, const report_inputs *in, char *why, size_t why_size)
{
    char *path = join_path(dir, report_names[kind], "");
    char *temporary = join_path(dir, report_names[kind], ".tmp");
    char reason[256] = "";
    FILE *out = NULL;
    int rc = -1;

    if (!path || !temporary)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        goto fail;
    }
    out = fopen(temporary, "wb");
    if (!out)
    {
        dmlconf_set_why(why, why_size, "cannot create %s: %s", temporary, strerror(errno));
        goto fail;
    }
    if (run_writer(kind, out, in, reason, sizeof(reason)) != 0)
    {
        dmlconf_set_why(why, why_size, "%s: %s", temporary, reason);
        fclose(out);
        remove(temporary);
        goto fail;
    }
    if (fclose(out) != 0)
    {
        dmlconf_set_why(why, why_size, "cannot write %s: %s", temporary, strerror(errno));
        remove(temporary);
        goto fail;
    }
    if (replace_file(temporary, path) != 0)
    {
        dmlconf_set_why(why, why_size, "cannot rename %s to %s: %s", temporary, path, strerror(errno));
        remove(temporary);
        goto fail;
    }
    rc = 0;
fail:
    free(path);
    free(temporary);
    return rc;
}

/* Writes every final report; keeps going after a failure and reports the
 * first. */
static int write_final_reports(const char *dir, const report_inputs *in, char *why, size_t why_size)
{
    int rc = 0;

    for (int kind = 0; kind < REPORT_KIND_COUNT; ++kind)
    {
        char reason[512];
        if (write_report_file(dir, (report_kind)kind, in, reason, sizeof(reason)) != 0 && rc == 0)
        {
            dmlconf_set_why(why, why_size, "%s", reason);
            rc = -1;
        }
    }
    return rc;
}

/* Writes one line and a newline. */
static int write_line(FILE *out, const char *line)
{
    if (fputs(line, out) == EOF || fputc('\n', out) == EOF)
        return -1;
    return 0;
}

/* ---- the streaming set ----------------------------------------------------------- */

struct dmlconf_report_set
{
    char *dir;
    dmlconf_run_info info;
    FILE *results_file;
    bool fsync_enabled;
    bool finished;
    dmlconf_result_list results;
    dmlconf_matrix matrix;
    char error[640];
};

int dmlconf_reports_open(const char *dir, const dmlconf_run_info *info, dmlconf_report_set **out, char *why,
                         size_t why_size)
{
    dmlconf_report_set *set = NULL;
    char *path = NULL;
    char *header = NULL;

    *out = NULL;
    if (make_directories(dir, why, why_size) != 0)
        return -1;
    set = calloc(1, sizeof(*set));
    if (!set || !(set->dir = malloc(strlen(dir) + 1)))
    {
        dmlconf_set_why(why, why_size, "out of memory");
        goto fail;
    }
    memcpy(set->dir, dir, strlen(dir) + 1);
    set->info = *info;
    dmlconf_matrix_init(&set->matrix, info->target_level);

    /* Reports of an earlier run in the same place would pass for this one's
     * if this one dies before finishing. */
    for (int kind = 0; kind < REPORT_KIND_COUNT; ++kind)
    {
        char *stale = join_path(dir, report_names[kind], "");
        if (stale)
            remove(stale);
        free(stale);
    }

    path = join_path(dir, DMLCONF_REPORT_RESULTS_JSONL, "");
    header = dmlconf_results_header_line(info);
    if (!path || !header)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        goto fail;
    }
    set->results_file = fopen(path, "wb");
    if (!set->results_file)
    {
        dmlconf_set_why(why, why_size, "cannot create %s: %s", path, strerror(errno));
        goto fail;
    }
    if (write_line(set->results_file, header) != 0 || fflush(set->results_file) != 0)
    {
        dmlconf_set_why(why, why_size, "cannot write %s: %s", path, strerror(errno));
        goto fail;
    }
    free(path);
    free(header);
    *out = set;
    return 0;

fail:
    free(path);
    free(header);
    dmlconf_reports_close(set);
    return -1;
}

void dmlconf_reports_set_fsync(dmlconf_report_set *set, bool enabled)
{
    set->fsync_enabled = enabled;
}

int dmlconf_reports_add(dmlconf_report_set *set, const dmlconf_case_result *result)
{
    return dmlconf_reports_add_encoded(set, result, NULL);
}

int dmlconf_reports_add_encoded(dmlconf_report_set *set, const dmlconf_case_result *result, const char *encoded)
{
    char *line = NULL;

    if (!set->results_file)
    {
        dmlconf_set_why(set->error, sizeof(set->error), "results.jsonl is not open");
        return -1;
    }
    if (!encoded)
    {
        line = dmlconf_result_to_json(result);
        if (!line)
        {
            dmlconf_set_why(set->error, sizeof(set->error), "out of memory encoding case %s", result->id);
            return -1;
        }
        encoded = line;
    }
    if (write_line(set->results_file, encoded) != 0 || fflush(set->results_file) != 0 ||
        (set->fsync_enabled && sync_to_disk(set->results_file) != 0))
    {
        dmlconf_set_why(set->error, sizeof(set->error), "cannot write %s/%s: %s", set->dir,
                        DMLCONF_REPORT_RESULTS_JSONL, strerror(errno));
        free(line);
        return -1;
    }
    free(line);
    if (dmlconf_result_list_append(&set->results, result) != 0 || dmlconf_matrix_add(&set->matrix, result) != 0)
    {
        dmlconf_set_why(set->error, sizeof(set->error), "out of memory keeping case %s", result->id);
        return -1;
    }
    return 0;
}

int dmlconf_reports_finish(dmlconf_report_set *set)
{
    report_inputs in = {&set->info, set->results.items, set->results.count, &set->matrix};
    int rc = 0;

    if (set->results_file)
    {
        if (set->fsync_enabled)
            sync_to_disk(set->results_file);
        if (fclose(set->results_file) != 0)
        {
            dmlconf_set_why(set->error, sizeof(set->error), "cannot close %s/%s: %s", set->dir,
                            DMLCONF_REPORT_RESULTS_JSONL, strerror(errno));
            rc = -1;
        }
        set->results_file = NULL;
    }
    if (write_final_reports(set->dir, &in, rc == 0 ? set->error : NULL, sizeof(set->error)) != 0)
        rc = -1;
    set->finished = true;
    return rc;
}

const char *dmlconf_reports_error(const dmlconf_report_set *set)
{
    return set->error;
}

const dmlconf_matrix *dmlconf_reports_matrix(const dmlconf_report_set *set)
{
    return &set->matrix;
}

const dmlconf_case_result *dmlconf_reports_results(const dmlconf_report_set *set, size_t *count)
{
    *count = set->results.count;
    return set->results.items;
}

void dmlconf_reports_close(dmlconf_report_set *set)
{
    if (!set)
        return;
    if (set->results_file)
        fclose(set->results_file);
    dmlconf_result_list_free(&set->results);
    dmlconf_matrix_free(&set->matrix);
    free(set->dir);
    free(set);
}

int dmlconf_reports_write_all(const char *dir, const dmlconf_run_info *info, const dmlconf_case_result *results,
                              size_t count, char *why, size_t why_size)
{
    dmlconf_matrix matrix;
    report_inputs in = {info, results, count, &matrix};
    char *path = NULL;
    char *temporary = NULL;
    char *line = NULL;
    FILE *out = NULL;
    int rc = -1;

    dmlconf_matrix_init(&matrix, info->target_level);
    if (make_directories(dir, why, why_size) != 0)
        goto fail;
    path = join_path(dir, DMLCONF_REPORT_RESULTS_JSONL, "");
    temporary = join_path(dir, DMLCONF_REPORT_RESULTS_JSONL, ".tmp");
    line = dmlconf_results_header_line(info);
    if (!path || !temporary || !line)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        goto fail;
    }
    out = fopen(temporary, "wb");
    if (!out)
    {
        dmlconf_set_why(why, why_size, "cannot create %s: %s", temporary, strerror(errno));
        goto fail;
    }
    if (write_line(out, line) != 0)
        goto write_error;
    for (size_t i = 0; i < count; ++i)
    {
        free(line);
        line = dmlconf_result_to_json(&results[i]);
        if (!line || dmlconf_matrix_add(&matrix, &results[i]) != 0)
        {
            dmlconf_set_why(why, why_size, "out of memory");
            goto fail;
        }
        if (write_line(out, line) != 0)
            goto write_error;
    }
    if (fclose(out) != 0)
    {
        out = NULL;
        goto write_error;
    }
    out = NULL;
    if (replace_file(temporary, path) != 0)
    {
        dmlconf_set_why(why, why_size, "cannot rename %s to %s: %s", temporary, path, strerror(errno));
        goto fail;
    }
    rc = write_final_reports(dir, &in, why, why_size);
    goto done;

write_error:
    dmlconf_set_why(why, why_size, "cannot write %s: %s", temporary, strerror(errno));
fail:
    if (out)
    {
        fclose(out);
        remove(temporary);
    }
done:
    free(line);
    free(path);
    free(temporary);
    dmlconf_matrix_free(&matrix);
    return rc;
}
