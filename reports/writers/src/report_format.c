/*
 * Formatting shared by the writers: a bounded text buffer, element values
 * and bits, coordinates, words quoted for a POSIX shell, and the command
 * that reruns one case as the run ran it.
 */
#include "report_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- formatting ----------------------------------------------------------------- */

static size_t format_special(double value, dmlconf_text *text)
{
    if (isnan(value))
        dmlconf_text_appendf(text, "nan");
    else if (isinf(value))
        dmlconf_text_appendf(text, value > 0.0 ? "inf" : "-inf");
    else if (value == 0.0)
        dmlconf_text_appendf(text, signbit(value) ? "-0" : "0");
    else
        return 0;
    return 1;
}

/* Whole numbers in full; others as the shortest %g text that `same`
 * accepts as reading back to the same bits. */
static void format_shortest(double value, int max_digits, bool (*same)(const char *, uint64_t), uint64_t bits,
                            dmlconf_text *text)
{
    char candidate[40];

    if (format_special(value, text))
        return;
    /* Whole numbers exactly ("65504", not "6.55e+04", which reads back to
     * the same half but says 65500). */
    if (fabs(value) < 9007199254740992.0 && value == (double)(int64_t)value)
    {
        dmlconf_text_appendf(text, "%.0f", value);
        return;
    }
    for (int digits = 1; digits <= max_digits; ++digits)
    {
        snprintf(candidate, sizeof(candidate), "%.*g", digits, value);
        if (same(candidate, bits) || digits == max_digits)
            break;
    }
    dmlconf_text_appendf(text, "%s", candidate);
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
    dmlconf_text text = {buf, size, 0};
    unsigned width = dmlconf_data_type_bits(type);
    int digits = width ? (int)((width + 3) / 4) : 1;

    dmlconf_text_appendf(&text, "0x%0*llx", digits, (unsigned long long)(bits & width_mask(width)));
    return text.length;
}

size_t dmlconf_report_format_value(dmlconf_data_type type, uint64_t bits, char *buf, size_t size)
{
    dmlconf_text text = {buf, size, 0};
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
        dmlconf_text_appendf(&text, "%llu", (unsigned long long)(bits & width_mask(width)));
    }
    else if (type_is_signed_integer(type))
    {
        uint64_t value = bits & width_mask(width);
        if (width < 64 && (value >> (width - 1)) & 1)
            value |= ~width_mask(width); /* sign-extend */
        if (value >> 63)
            dmlconf_text_appendf(&text, "-%llu",
                                 (unsigned long long)(~value + 1)); /* through unsigned: INT64_MIN is fine */
        else
            dmlconf_text_appendf(&text, "%llu", (unsigned long long)value);
    }
    else
    {
        return dmlconf_report_format_bits(type, bits, buf, size);
    }
    return text.length;
}

size_t dmlconf_report_format_coordinates(const dmlconf_mismatch *mismatch, char *buf, size_t size)
{
    dmlconf_text text = {buf, size, 0};
    uint32_t dims = mismatch->dimension_count;

    if (dims > DMLCONF_MAX_DIMENSIONS)
        dims = DMLCONF_MAX_DIMENSIONS;
    dmlconf_text_appendf(&text, "[");
    for (uint32_t d = 0; d < dims; ++d)
        dmlconf_text_appendf(&text, "%s%u", d ? ", " : "", (unsigned)mismatch->coordinates[d]);
    dmlconf_text_appendf(&text, "]");
    return text.length;
}

/* ---- the reproduce command -------------------------------------------------------- */

static bool is_identifier(const char *name, size_t length)
{
    if (length == 0 || (name[0] >= '0' && name[0] <= '9'))
        return false;
    for (size_t i = 0; i < length; ++i)
    {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    }
    return true;
}

/* The environment's lines as shell words: NAME=VALUE assignments before the
 * command, or, when a name is not an identifier, all of them after "env". */
static void append_environment(dmlconf_text *text, const dmlconf_run_info *info)
{
    const char *environment = info->environment;
    size_t total = dmlconf_bounded_length(environment, sizeof(info->environment));
    bool plain = true;

    for (size_t at = 0; at < total;)
    {
        const char *line = environment + at;
        const char *end = memchr(line, '\n', total - at);
        size_t length = end ? (size_t)(end - line) : total - at;
        const char *equals = memchr(line, '=', length);
        if (!equals || !is_identifier(line, (size_t)(equals - line)))
            plain = false;
        at += length + 1;
    }
    if (!plain && total > 0)
        dmlconf_text_appendf(text, "env ");
    for (size_t at = 0; at < total;)
    {
        const char *line = environment + at;
        const char *end = memchr(line, '\n', total - at);
        size_t length = end ? (size_t)(end - line) : total - at;
        const char *equals = memchr(line, '=', length);
        if (length > 0)
        {
            if (plain && equals)
            {
                size_t name_length = (size_t)(equals - line);
                dmlconf_text_appendf(text, "%.*s=", (int)name_length, line);
                if (length - name_length - 1 > 0)
                    dmlconf_text_append_shell_word(text, equals + 1, length - name_length - 1);
                else
                    dmlconf_text_appendf(text, "''");
            }
            else
            {
                dmlconf_text_append_shell_word(text, line, length);
            }
            dmlconf_text_appendf(text, " ");
        }
        at += length + 1;
    }
}

/* Whether character i of an id is special in a --filter glob: the glob's
 * own characters, and a leading '!' or '-' (an exclusion). */
static bool glob_special(const char *id, size_t i)
{
    return (id[i] != '\0' && strchr("*?[\\", id[i]) != NULL) || (i == 0 && (id[i] == '!' || id[i] == '-'));
}

/* The id as a --filter glob that matches only itself, as one shell word. */
static void append_filter(dmlconf_text *text, const char *id, size_t length)
{
    bool plain = length > 0;

    for (size_t i = 0; i < length && plain; ++i)
        plain = dmlconf_text_shell_safe((unsigned char)id[i]) && !glob_special(id, i);
    if (plain)
    {
        dmlconf_text_appendf(text, "%.*s", (int)length, id);
        return;
    }
    dmlconf_text_appendf(text, "'");
    for (size_t i = 0; i < length; ++i)
    {
        if (glob_special(id, i))
            dmlconf_text_appendf(text, "\\");
        if (id[i] == '\'')
            dmlconf_text_appendf(text, "'\\''");
        else
            dmlconf_text_appendf(text, "%c", id[i]);
    }
    dmlconf_text_appendf(text, "'");
}

size_t dmlconf_report_format_repro(const dmlconf_run_info *info, const dmlconf_case_result *result, char *buf,
                                   size_t size)
{
    dmlconf_text text = {buf, size, 0};
    const char *level = dmlconf_feature_level_name(info->target_level);
    size_t length;

    if (size > 0)
        buf[0] = '\0';
    append_environment(&text, info);
    dmlconf_text_appendf(&text, "dmlconf run");
    length = dmlconf_bounded_length(info->backend_requested, sizeof(info->backend_requested));
    if (length > 0)
    {
        dmlconf_text_appendf(&text, " --backend ");
        dmlconf_text_append_shell_word(&text, info->backend_requested, length);
    }
    else if ((length = dmlconf_bounded_length(info->backend, sizeof(info->backend))) > 0)
    {
        dmlconf_text_appendf(&text, " --backend ");
        dmlconf_text_append_shell_word(&text, info->backend, length);
    }
    length = dmlconf_bounded_length(info->adapter_requested, sizeof(info->adapter_requested));
    if (length > 0)
    {
        dmlconf_text_appendf(&text, " --adapter ");
        dmlconf_text_append_shell_word(&text, info->adapter_requested, length);
    }
    if (level)
        dmlconf_text_appendf(&text, " --feature-level %s", level);
    if (info->seed)
        dmlconf_text_appendf(&text, " --seed %llu", (unsigned long long)info->seed);
    dmlconf_text_appendf(&text, " --filter ");
    append_filter(&text, result->id, dmlconf_bounded_length(result->id, sizeof(result->id)));
    length = dmlconf_bounded_length(result->file, sizeof(result->file));
    if (length > 0)
    {
        dmlconf_text_appendf(&text, " ");
        /* "--" is the adapter command's: a path that looks like an option
         * is made relative instead. */
        if (result->file[0] == '-')
            dmlconf_text_appendf(&text, "./");
        dmlconf_text_append_shell_word(&text, result->file, length);
    }
    length = dmlconf_bounded_length(info->backend_command, sizeof(info->backend_command));
    if (length > 0)
        dmlconf_text_appendf(&text, " -- %.*s", (int)length, info->backend_command);
    if (info->backend_command_incomplete)
        dmlconf_text_appendf(&text, "  # the adapter's command was too long to record: add -- COMMAND");
    if (info->environment_incomplete)
        dmlconf_text_appendf(&text, "  # not every environment variable of the run was recorded");
    return text.length;
}

char *report_repro_command(const dmlconf_run_info *info, const dmlconf_case_result *result)
{
    size_t length = dmlconf_report_format_repro(info, result, NULL, 0);
    char *command = malloc(length + 1);

    if (command)
        dmlconf_report_format_repro(info, result, command, length + 1);
    return command;
}
