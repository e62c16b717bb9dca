/*
 * case_fields.c: the value of each case key, read from its node into the
 * draft with a precise error (and the node skipped) when it is not what the
 * key expects. Tensor values (input, expected) are read by case_data.c.
 */
#include "loader_internal.h"

#include <dmlconf/reserve.h>
#include <dmlconf/values.h>

#include <stdlib.h>
#include <string.h>

static const char *const field_names[DMLCONF_CASE_FIELD_COUNT] = {
    [DMLCONF_CASE_FIELD_ID] = "id",
    [DMLCONF_CASE_FIELD_OP] = "op",
    [DMLCONF_CASE_FIELD_DTYPE] = "dtype",
    [DMLCONF_CASE_FIELD_SIZES] = "sizes",
    [DMLCONF_CASE_FIELD_AXIS] = "axis",
    [DMLCONF_CASE_FIELD_DIRECTION] = "direction",
    [DMLCONF_CASE_FIELD_EXCLUSIVE] = "exclusive",
    [DMLCONF_CASE_FIELD_INPUT_STRIDES] = "input_strides",
    [DMLCONF_CASE_FIELD_OUTPUT_STRIDES] = "output_strides",
    [DMLCONF_CASE_FIELD_IN_PLACE] = "in_place",
    [DMLCONF_CASE_FIELD_OUTPUT_DTYPE] = "output_dtype",
    [DMLCONF_CASE_FIELD_OUTPUT_SIZES] = "output_sizes",
    [DMLCONF_CASE_FIELD_INPUT] = "input",
    [DMLCONF_CASE_FIELD_EXPECTED] = "expected",
    [DMLCONF_CASE_FIELD_ROUND_INPUTS] = "round_inputs",
    [DMLCONF_CASE_FIELD_TOLERANCE] = "tolerance",
    [DMLCONF_CASE_FIELD_MIN_FEATURE_LEVEL] = "min_feature_level",
    [DMLCONF_CASE_FIELD_EXPECT_ERROR] = "expect_error",
    [DMLCONF_CASE_FIELD_TAGS] = "tags",
    [DMLCONF_CASE_FIELD_NOTES] = "notes",
};

const char *dmlconf_case_field_name(dmlconf_case_field field)
{
    if ((unsigned)field >= DMLCONF_CASE_FIELD_COUNT)
    {
        return NULL;
    }
    return field_names[field];
}

dmlconf_case_field loader_field_from_name(const char *name)
{
    size_t i;

    for (i = 0; i < DMLCONF_CASE_FIELD_COUNT; ++i)
    {
        if (!strcmp(name, field_names[i]))
        {
            return (dmlconf_case_field)i;
        }
    }
    return DMLCONF_CASE_FIELD_COUNT;
}

/* Edit distance (insertions, deletions, substitutions, adjacent swaps) between
 * two short strings; large for long ones. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t rows[3][33];
    size_t la = strlen(a), lb = strlen(b), i, j, best;
    size_t *previous2 = rows[0], *previous = rows[1], *current = rows[2], *swap;

    if (la > 32 || lb > 32)
    {
        return SIZE_MAX;
    }
    for (j = 0; j <= lb; ++j)
    {
        previous[j] = j;
    }
    for (i = 1; i <= la; ++i)
    {
        current[0] = i;
        for (j = 1; j <= lb; ++j)
        {
            best = previous[j - 1] + (a[i - 1] != b[j - 1]);
            if (previous[j] + 1 < best)
            {
                best = previous[j] + 1;
            }
            if (current[j - 1] + 1 < best)
            {
                best = current[j - 1] + 1;
            }
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && previous2[j - 2] + 1 < best)
            {
                best = previous2[j - 2] + 1;
            }
            current[j] = best;
        }
        swap = previous2;
        previous2 = previous;
        previous = current;
        current = swap;
    }
    return previous[lb];
}

const char *loader_suggest(const char *name, const char *const *known, size_t count)
{
    const char *best = NULL;
    size_t best_distance = SIZE_MAX, distance, limit, i;

    limit = strlen(name) / 3;
    if (limit < 1)
    {
        limit = 1;
    }
    if (limit > 3)
    {
        limit = 3;
    }
    for (i = 0; i < count; ++i)
    {
        if (!known[i])
        {
            continue;
        }
        distance = edit_distance(name, known[i]);
        if (distance > limit && strlen(name) >= 4 && !strncmp(known[i], name, strlen(name)))
        {
            distance = limit; /* a prefix of a known name */
        }
        if (distance <= limit && distance < best_distance)
        {
            best = known[i];
            best_distance = distance;
        }
    }
    return best;
}

/* Result of parse_uint. */
typedef enum uint_status
{
    UINT_OK,
    UINT_SYNTAX,
    UINT_NEGATIVE,
    UINT_TOO_LARGE,
} uint_status;

/* Parses a decimal or 0x-hex unsigned integer ('+' allowed). */
static uint_status parse_uint(const char *text, uint64_t *value)
{
    const char *p = text;
    uint64_t result = 0, digit, base = 10;
    bool any = false, too_large = false;

    if (*p == '+')
    {
        ++p;
    }
    else if (*p == '-')
    {
        return p[1] >= '0' && p[1] <= '9' ? UINT_NEGATIVE : UINT_SYNTAX;
    }
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    {
        base = 16;
        p += 2;
    }
    for (; *p; ++p)
    {
        if (*p >= '0' && *p <= '9')
        {
            digit = (uint64_t)(*p - '0');
        }
        else if (base == 16 && *p >= 'a' && *p <= 'f')
        {
            digit = (uint64_t)(*p - 'a' + 10);
        }
        else if (base == 16 && *p >= 'A' && *p <= 'F')
        {
            digit = (uint64_t)(*p - 'A' + 10);
        }
        else
        {
            return UINT_SYNTAX;
        }
        if (result > (UINT64_MAX - digit) / base)
        {
            too_large = true;
        }
        result = result * base + digit;
        any = true;
    }
    if (!any)
    {
        return UINT_SYNTAX;
    }
    *value = result;
    return too_large ? UINT_TOO_LARGE : UINT_OK;
}

/* Copies at most 40 characters of text for a message, with "..." when cut. */
static const char *excerpt(const char *text, char *buffer, size_t size)
{
    size_t length = strlen(text);

    if (length + 1 <= size && length <= 40)
    {
        return text;
    }
    snprintf(buffer, size, "%.40s...", text);
    return buffer;
}

/* Makes sure the current node is a scalar. Returns 1 when it is, 0 when it is
 * not (error reported, node skipped), -1 on stop. */
static int expect_scalar(loader *L, const char *expected)
{
    if (L->event.type == YAML_SCALAR_EVENT)
    {
        return 1;
    }
    return loader_wrong_node(L, expected) ? 0 : -1;
}

static const char *scalar_text(const loader *L)
{
    return (const char *)L->event.data.scalar.value;
}

/* Reads an unsigned integer no larger than max. Returns 1 with *value, 0 on a
 * reported error (node consumed), -1 on stop. */
static int read_uint(loader *L, const char *what, uint64_t max, uint64_t *value)
{
    char buffer[48], expected[96];
    const char *text;
    int status;

    snprintf(expected, sizeof(expected), "%s (a whole number)", what);
    status = expect_scalar(L, expected);
    if (status <= 0)
    {
        return status;
    }
    text = scalar_text(L);
    status = (int)parse_uint(text, value);
    if (status == UINT_OK && *value <= max)
    {
        loader_consume(L);
        return 1;
    }
    switch ((uint_status)status)
    {
    case UINT_OK:
    case UINT_TOO_LARGE:
        loader_error(L, loader_event_mark(L), "%s %s is too large (the largest is %" PRIu64 ")", what,
                     excerpt(text, buffer, sizeof(buffer)), max);
        break;
    case UINT_NEGATIVE:
        loader_error(L, loader_event_mark(L), "%s %s is negative (expected 0 to %" PRIu64 ")", what,
                     excerpt(text, buffer, sizeof(buffer)), max);
        break;
    case UINT_SYNTAX:
    default:
        loader_error(L, loader_event_mark(L), "expected %s (a whole number, decimal or 0x-hex), found '%s'", what,
                     excerpt(text, buffer, sizeof(buffer)));
        break;
    }
    loader_consume(L);
    return 0;
}

/* Reads true or false. Returns 1, 0 (reported) or -1 (stop). */
static int read_bool(loader *L, const char *key, bool *value)
{
    char buffer[48], expected[64];
    const char *text;
    int status;

    snprintf(expected, sizeof(expected), "%s: true or false", key);
    status = expect_scalar(L, expected);

    if (status <= 0)
    {
        return status;
    }
    text = scalar_text(L);
    if (!strcmp(text, "true"))
    {
        *value = true;
    }
    else if (!strcmp(text, "false"))
    {
        *value = false;
    }
    else
    {
        loader_error(L, loader_event_mark(L), "%s must be true or false, found '%s'", key,
                     excerpt(text, buffer, sizeof(buffer)));
        loader_consume(L);
        return 0;
    }
    loader_consume(L);
    return 1;
}

/* Reads one of `count` names. Returns 1 with *index, 0 or -1. */
static int read_choice(loader *L, const char *key, const char *const *names, size_t count, size_t *index)
{
    char buffer[48], list[160], expected[64];
    const char *text, *suggestion;
    size_t i, used = 0;
    int status;

    snprintf(expected, sizeof(expected), "%s (a name)", key);
    status = expect_scalar(L, expected);

    if (status <= 0)
    {
        return status;
    }
    text = scalar_text(L);
    for (i = 0; i < count; ++i)
    {
        if (!strcmp(text, names[i]))
        {
            *index = i;
            loader_consume(L);
            return 1;
        }
    }
    list[0] = '\0';
    for (i = 0; i < count && used < sizeof(list); ++i)
    {
        used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", i ? (i + 1 == count ? " or " : ", ") : "",
                                 names[i]);
    }
    suggestion = loader_suggest(text, names, count);
    if (suggestion)
    {
        loader_error(L, loader_event_mark(L), "unknown %s '%s'; did you mean '%s'?", key,
                     excerpt(text, buffer, sizeof(buffer)), suggestion);
    }
    else
    {
        loader_error(L, loader_event_mark(L), "unknown %s '%s' (expected %s)", key,
                     excerpt(text, buffer, sizeof(buffer)), list);
    }
    loader_consume(L);
    return 0;
}

/* Names of every DML data type the oracle knows, lower case. */
static const char *const dtype_names[] = {"float32", "float16", "uint32", "uint16", "uint8", "int32", "int16",
                                          "int8",    "float64", "uint64", "int64",  "uint4", "int4"};
static const dmlconf_data_type dtype_values[] = {
    DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_FLOAT16, DMLCONF_DATA_TYPE_UINT32, DMLCONF_DATA_TYPE_UINT16,
    DMLCONF_DATA_TYPE_UINT8,   DMLCONF_DATA_TYPE_INT32,   DMLCONF_DATA_TYPE_INT16,  DMLCONF_DATA_TYPE_INT8,
    DMLCONF_DATA_TYPE_FLOAT64, DMLCONF_DATA_TYPE_UINT64,  DMLCONF_DATA_TYPE_INT64,  DMLCONF_DATA_TYPE_UINT4,
    DMLCONF_DATA_TYPE_INT4};

static int read_dtype(loader *L, const char *key, dmlconf_data_type *type)
{
    size_t index;
    int status = read_choice(L, key, dtype_names, sizeof(dtype_names) / sizeof(dtype_names[0]), &index);

    if (status == 1)
    {
        *type = dtype_values[index];
    }
    return status;
}

/* Reads a flat list of unsigned integers (sizes or strides). */
static int read_uint_list(loader *L, const char *what, const char *one, loader_uint_list *list)
{
    uint64_t value;
    dmlconf_mark mark;
    int status, result = 1;

    memset(list, 0, sizeof(*list));
    if (L->event.type != YAML_SEQUENCE_START_EVENT)
    {
        char expected[64];
        snprintf(expected, sizeof(expected), "a list of %s", what);
        return loader_wrong_node(L, expected) ? 0 : -1;
    }
    loader_consume(L);
    for (;;)
    {
        if (!loader_peek(L))
        {
            return -1;
        }
        if (L->event.type == YAML_SEQUENCE_END_EVENT)
        {
            loader_consume(L);
            return result;
        }
        mark = loader_event_mark(L);
        value = 0;
        status = read_uint(L, one, UINT32_MAX, &value);
        if (status < 0)
        {
            return -1;
        }
        if (status == 0)
        {
            result = 0;
        }
        if (list->count < DMLCONF_MAX_DIMENSIONS)
        {
            list->values[list->count] = value;
            list->marks[list->count] = mark;
        }
        if (list->count < UINT32_MAX)
        {
            ++list->count;
        }
    }
}

static bool valid_id(const char *text)
{
    if (!*text)
    {
        return false;
    }
    for (; *text; ++text)
    {
        char c = *text;
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
              c == '-'))
        {
            return false;
        }
    }
    return true;
}

/* Reads a string scalar into *out (replacing it). */
static int read_string(loader *L, const char *what, char **out)
{
    char *copy;
    int status = expect_scalar(L, what);

    if (status <= 0)
    {
        return status;
    }
    copy = dmlconf_strdup(scalar_text(L));
    loader_consume(L);
    if (!copy)
    {
        loader_out_of_memory(L);
        return -1;
    }
    free(*out);
    *out = copy;
    return 1;
}

static int read_id(loader *L, loader_draft *draft)
{
    char buffer[48];
    int status = expect_scalar(L, "an id (letters, digits, '.', '_' and '-')");

    if (status <= 0)
    {
        return status;
    }
    if (!valid_id(scalar_text(L)))
    {
        loader_error(L, loader_event_mark(L), "id '%s' is not valid: use only letters, digits, '.', '_' and '-'",
                     excerpt(scalar_text(L), buffer, sizeof(buffer)));
        loader_consume(L);
        return 0;
    }
    if (strlen(scalar_text(L)) > DMLCONF_CASE_MAX_ID_BYTES)
    {
        loader_error(L, loader_event_mark(L),
                     "id '%s' is %zu characters long; an id has at most %u, so that every report and baseline "
                     "carries it whole",
                     excerpt(scalar_text(L), buffer, sizeof(buffer)), strlen(scalar_text(L)),
                     DMLCONF_CASE_MAX_ID_BYTES);
        loader_consume(L);
        return 0;
    }
    return read_string(L, "an id", &draft->id);
}

/* Adds a tag unless the draft has it already. */
static int add_tag(loader *L, loader_draft *draft, const char *tag)
{
    size_t i;

    for (i = 0; i < draft->tag_count; ++i)
    {
        if (!strcmp(draft->tags[i], tag))
        {
            return 1;
        }
    }
    if (!dmlconf_reserve((void **)&draft->tags, &draft->tag_capacity, draft->tag_count + 1, sizeof(*draft->tags)))
    {
        loader_out_of_memory(L);
        return -1;
    }
    if (!(draft->tags[draft->tag_count] = dmlconf_strdup(tag)))
    {
        loader_out_of_memory(L);
        return -1;
    }
    ++draft->tag_count;
    return 1;
}

static int read_tags(loader *L, loader_draft *draft)
{
    int result = 1, status;

    if (L->event.type != YAML_SEQUENCE_START_EVENT)
    {
        return loader_wrong_node(L, "a list of tags") ? 0 : -1;
    }
    loader_consume(L);
    for (;;)
    {
        if (!loader_peek(L))
        {
            return -1;
        }
        if (L->event.type == YAML_SEQUENCE_END_EVENT)
        {
            loader_consume(L);
            return result;
        }
        status = expect_scalar(L, "a tag");
        if (status < 0)
        {
            return -1;
        }
        if (status == 0)
        {
            result = 0;
            continue;
        }
        if (!valid_id(scalar_text(L)))
        {
            loader_error(L, loader_event_mark(L), "tag '%s' is not valid: use only letters, digits, '.', '_' and '-'",
                         scalar_text(L));
            result = 0;
        }
        else if (add_tag(L, draft, scalar_text(L)) < 0)
        {
            return -1;
        }
        loader_consume(L);
    }
}

/* Notes are printed later (show, reports): plain text, tabs and line breaks
 * allowed, no character a terminal would act on. */
static int read_notes(loader *L, loader_draft *draft)
{
    dmlconf_mark mark = loader_event_mark(L);
    uint32_t code;
    int status = read_string(L, "notes (text)", &draft->notes);

    if (status == 1 && (code = loader_control_character(draft->notes, true)))
    {
        loader_error(L, mark, "notes hold the control character U+%04" PRIX32 "; write notes as plain text", code);
        return 0;
    }
    return status;
}

static int read_feature_level(loader *L, dmlconf_feature_level *level)
{
    char buffer[48];
    int status = expect_scalar(L, "a feature level such as 5_0");

    if (status <= 0)
    {
        return status;
    }
    if (!dmlconf_feature_level_from_name(scalar_text(L), level) || *level == DMLCONF_FEATURE_LEVEL_NONE)
    {
        loader_error(L, loader_event_mark(L),
                     "unknown feature level '%s' (write it as 5_0, 5.0 or DML_FEATURE_LEVEL_5_0)",
                     excerpt(scalar_text(L), buffer, sizeof(buffer)));
        loader_consume(L);
        return 0;
    }
    loader_consume(L);
    return 1;
}

/* Names of every reason, for suggestions. */
static void reason_names(const char **names)
{
    size_t i;

    for (i = 0; i < DMLCONF_REASON_COUNT; ++i)
    {
        names[i] = dmlconf_reason_name((dmlconf_reason)i);
    }
}

static int read_reason(loader *L, dmlconf_reason *reason)
{
    const char *names[DMLCONF_REASON_COUNT];
    const char *suggestion;
    char buffer[48];
    int status = expect_scalar(L, "a reason name such as axis_out_of_range");

    if (status <= 0)
    {
        return status;
    }
    if (!dmlconf_reason_from_name(scalar_text(L), reason))
    {
        reason_names(names);
        suggestion = loader_suggest(scalar_text(L), names, DMLCONF_REASON_COUNT);
        if (suggestion)
        {
            loader_error(L, loader_event_mark(L), "unknown reason '%s'; did you mean '%s'?",
                         excerpt(scalar_text(L), buffer, sizeof(buffer)), suggestion);
        }
        else
        {
            loader_error(L, loader_event_mark(L),
                         "unknown reason '%s' (expected a reason name such as axis_out_of_range; cases/README.md "
                         "lists them)",
                         excerpt(scalar_text(L), buffer, sizeof(buffer)));
        }
        loader_consume(L);
        return 0;
    }
    if (*reason == DMLCONF_REASON_NONE)
    {
        loader_error(L, loader_event_mark(L), "expect_error cannot be 'none'; leave expect_error out of a valid case");
        loader_consume(L);
        return 0;
    }
    loader_consume(L);
    return 1;
}

/* Reads the keys of a small mapping: calls `one` for each with the key's name
 * and mark (the value is the current event). Reports non-scalar keys,
 * duplicates and unknown keys (with suggestions among `known`). */
typedef int (*mapping_key_reader)(loader *L, void *context, size_t key_index, dmlconf_mark key_mark);

static int read_small_mapping(loader *L, const char *what, const char *const *known, size_t count,
                              mapping_key_reader one, void *context)
{
    dmlconf_mark seen[16];
    bool was_seen[16] = {false};
    char name[64], buffer[48];
    const char *suggestion;
    dmlconf_mark key_mark;
    size_t i;
    int result = 1, status;

    if (count > sizeof(was_seen) / sizeof(was_seen[0]))
    {
        loader_error(L, loader_event_mark(L), "internal error: %s has too many keys to check", what);
        return loader_skip_node(L) ? 0 : -1;
    }
    if (L->event.type != YAML_MAPPING_START_EVENT)
    {
        return loader_wrong_node(L, what) ? 0 : -1;
    }
    loader_consume(L);
    for (;;)
    {
        if (!loader_peek(L))
        {
            return -1;
        }
        if (L->event.type == YAML_MAPPING_END_EVENT)
        {
            loader_consume(L);
            return result;
        }
        key_mark = loader_event_mark(L);
        if (L->event.type != YAML_SCALAR_EVENT)
        {
            loader_error(L, key_mark, "expected a key name, found %s", loader_event_kind(L));
            if (!loader_skip_node(L) || !loader_peek(L) || !loader_skip_node(L))
            {
                return -1;
            }
            result = 0;
            continue;
        }
        snprintf(name, sizeof(name), "%s", excerpt(scalar_text(L), buffer, sizeof(buffer)));
        for (i = 0; i < count && strcmp(known[i], scalar_text(L)); ++i)
        {
        }
        loader_consume(L);
        if (!loader_peek(L))
        {
            return -1;
        }
        if (i == count || was_seen[i])
        {
            if (i < count)
            {
                loader_error(L, key_mark, "duplicate key '%s' (first given at line %" PRIu32 ")", name, seen[i].line);
            }
            else if ((suggestion = loader_suggest(name, known, count)))
            {
                loader_error(L, key_mark, "unknown key '%s' in %s; did you mean '%s'?", name, what, suggestion);
            }
            else
            {
                loader_error(L, key_mark, "unknown key '%s' in %s", name, what);
            }
            if (!loader_skip_node(L))
            {
                return -1;
            }
            result = 0;
            continue;
        }
        was_seen[i] = true;
        seen[i] = key_mark;
        status = one(L, context, i, key_mark);
        if (status < 0)
        {
            return -1;
        }
        if (status == 0)
        {
            result = 0;
        }
    }
}

/* Reads a non-negative number of a tolerance (atol, rtol): any float
 * literal, rounded to the nearest double. The range is the comparator's
 * check (case_tolerance.c). */
static int read_tolerance_number(loader *L, const char *key, double *value)
{
    char expected[64], buffer[48];
    int status;

    snprintf(expected, sizeof(expected), "%s (a number such as 1e-5)", key);
    status = expect_scalar(L, expected);
    if (status <= 0)
    {
        return status;
    }
    unsigned char element[8];
    if (dmlconf_value_parse(DMLCONF_DATA_TYPE_FLOAT64, scalar_text(L), true, element, NULL, 0) != DMLCONF_VALUE_OK)
    {
        loader_error(L, loader_event_mark(L), "tolerance %s must be a number such as 1e-5 or 0.001, found '%s'", key,
                     excerpt(scalar_text(L), buffer, sizeof(buffer)));
        loader_consume(L);
        return 0;
    }
    /* Elements are little-endian (dmlconf/values.h). */
    uint64_t bits = 0;
    for (size_t i = 8; i-- > 0;)
    {
        bits = bits << 8 | element[i];
    }
    memcpy(value, &bits, sizeof(*value));
    loader_consume(L);
    return 1;
}

/* ulp_count: a whole number, or axis_length_minus_1 (WebNN's count). */
static int read_ulp_count(loader *L, dmlconf_tolerance *values)
{
    static const char *const names[] = {"axis_length_minus_1"};
    char buffer[48];
    const char *text, *suggestion;
    uint64_t count = 0;
    int status = expect_scalar(L, "ulp_count (a whole number or axis_length_minus_1)");

    if (status <= 0)
    {
        return status;
    }
    text = scalar_text(L);
    if (!strcmp(text, names[0]))
    {
        values->ulp_count = 0.0;
        values->ulp_count_axis_length_minus_1 = true;
        loader_consume(L);
        return 1;
    }
    if (parse_uint(text, &count) == UINT_OK && count <= UINT32_MAX)
    {
        values->ulp_count = (double)count;
        values->ulp_count_axis_length_minus_1 = false;
        loader_consume(L);
        return 1;
    }
    suggestion = loader_suggest(text, names, 1);
    loader_error(L, loader_event_mark(L),
                 "tolerance ulp_count must be a whole number from 0 to 4294967295 or axis_length_minus_1, found "
                 "'%s'%s%s%s",
                 excerpt(text, buffer, sizeof(buffer)), suggestion ? "; did you mean '" : "",
                 suggestion ? suggestion : "", suggestion ? "'?" : "");
    loader_consume(L);
    return 0;
}

static int read_tolerance_key(loader *L, void *context, size_t key_index, dmlconf_mark key_mark)
{
    static const char *const accumulations[] = {"float32", "float16"};
    static const char *const signed_zeros[] = {"loose", "strict"};
    dmlconf_case_tolerance *tolerance = context;
    dmlconf_tolerance *values = &tolerance->overrides.values;
    dmlconf_mark mark = loader_event_mark(L);
    uint64_t value;
    size_t index;
    bool flag;
    int status;

    (void)key_mark;
    switch ((dmlconf_tolerance_field)key_index)
    {
    case DMLCONF_TOLERANCE_FIELD_ULP:
        status = read_uint(L, "tolerance ulp", UINT32_MAX, &value);
        if (status == 1)
        {
            values->ulp = (double)value;
        }
        break;
    case DMLCONF_TOLERANCE_FIELD_ACCUMULATION:
        status = read_choice(L, "accumulation", accumulations, 2, &index);
        if (status == 1)
        {
            values->accumulation = index ? DMLCONF_DATA_TYPE_FLOAT16 : DMLCONF_DATA_TYPE_FLOAT32;
        }
        break;
    case DMLCONF_TOLERANCE_FIELD_FTZ:
        status = read_bool(L, "ftz", &values->ftz);
        break;
    case DMLCONF_TOLERANCE_FIELD_SIGNED_ZERO:
        status = read_choice(L, "signed_zero", signed_zeros, 2, &index);
        if (status == 1)
        {
            values->strict_signed_zero = index == 1;
        }
        break;
    case DMLCONF_TOLERANCE_FIELD_BIT_EXACT:
        status = read_bool(L, "bit_exact", &flag);
        if (status == 1)
        {
            values->bit_exact = flag;
        }
        break;
    case DMLCONF_TOLERANCE_FIELD_ATOL:
        status = read_tolerance_number(L, "atol", &values->atol);
        break;
    case DMLCONF_TOLERANCE_FIELD_RTOL:
        status = read_tolerance_number(L, "rtol", &values->rtol);
        break;
    case DMLCONF_TOLERANCE_FIELD_ULP_COUNT:
    default:
        status = read_ulp_count(L, values);
        break;
    }
    if (status == 1)
    {
        tolerance->overrides.set[key_index] = true;
        tolerance->marks[key_index] = mark;
        tolerance->from_defaults[key_index] = false;
    }
    return status;
}

static int read_tolerance(loader *L, loader_draft *draft)
{
    const char *keys[DMLCONF_TOLERANCE_FIELD_COUNT];
    size_t i;

    for (i = 0; i < DMLCONF_TOLERANCE_FIELD_COUNT; ++i)
    {
        keys[i] = dmlconf_tolerance_field_name((dmlconf_tolerance_field)i);
    }
    return read_small_mapping(L, "tolerance", keys, DMLCONF_TOLERANCE_FIELD_COUNT, read_tolerance_key,
                              &draft->tolerance);
}

static const char *const expect_error_keys[] = {"reason", "feature_level"};

static int read_expect_error_key(loader *L, void *context, size_t key_index, dmlconf_mark key_mark)
{
    dmlconf_expect_error *expect = context;

    (void)key_mark;
    if (key_index == 0)
    {
        return read_reason(L, &expect->reason);
    }
    return read_feature_level(L, &expect->feature_level);
}

static int read_expect_error(loader *L, loader_draft *draft)
{
    dmlconf_expect_error expect = {true, DMLCONF_REASON_NONE, DMLCONF_FEATURE_LEVEL_NONE};
    dmlconf_mark mark = loader_event_mark(L);
    int status;

    if (L->event.type == YAML_MAPPING_START_EVENT)
    {
        status = read_small_mapping(L, "expect_error (a mapping of reason and feature_level)", expect_error_keys, 2,
                                    read_expect_error_key, &expect);
        if (status == 1 && expect.reason == DMLCONF_REASON_NONE)
        {
            loader_error(L, mark, "expect_error needs a 'reason'");
            status = 0;
        }
    }
    else if (L->event.type == YAML_SCALAR_EVENT)
    {
        status = read_reason(L, &expect.reason);
    }
    else
    {
        return loader_wrong_node(L, "a reason name or {reason: ..., feature_level: ...}") ? 0 : -1;
    }
    if (status == 1)
    {
        draft->expect_error = expect;
    }
    return status;
}

/* The case's dtype when a `dtype` key of the case itself was read already
 * (defaults may still be overridden); else UNKNOWN. */
static dmlconf_data_type known_type(const loader_draft *draft)
{
    if (draft->set[DMLCONF_CASE_FIELD_DTYPE] && !draft->from_defaults[DMLCONF_CASE_FIELD_DTYPE] &&
        !draft->bad[DMLCONF_CASE_FIELD_DTYPE] && dmlconf_data_type_is_computable(draft->dtype))
    {
        return draft->dtype;
    }
    return DMLCONF_DATA_TYPE_UNKNOWN;
}

bool loader_read_field(loader *L, loader_draft *draft, dmlconf_case_field field)
{
    static const char *const ops[] = {"cumulative_summation", "cumulative_product"};
    static const char *const directions[] = {"increasing", "decreasing"};
    size_t index;
    int status;

    switch (field)
    {
    case DMLCONF_CASE_FIELD_ID:
        status = read_id(L, draft);
        break;
    case DMLCONF_CASE_FIELD_OP:
        status = read_choice(L, "op", ops, 2, &index);
        if (status == 1)
        {
            draft->op = index ? DMLCONF_OPERATOR_CUMULATIVE_PRODUCT : DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
        }
        break;
    case DMLCONF_CASE_FIELD_DTYPE:
        status = read_dtype(L, "dtype", &draft->dtype);
        break;
    case DMLCONF_CASE_FIELD_OUTPUT_DTYPE:
        status = read_dtype(L, "output_dtype", &draft->output_dtype);
        break;
    case DMLCONF_CASE_FIELD_SIZES:
        status = read_uint_list(L, "sizes", "size", &draft->sizes);
        break;
    case DMLCONF_CASE_FIELD_OUTPUT_SIZES:
        status = read_uint_list(L, "sizes", "size", &draft->output_sizes);
        break;
    case DMLCONF_CASE_FIELD_INPUT_STRIDES:
        status = read_uint_list(L, "strides", "stride", &draft->input_strides);
        break;
    case DMLCONF_CASE_FIELD_OUTPUT_STRIDES:
        status = read_uint_list(L, "strides", "stride", &draft->output_strides);
        break;
    case DMLCONF_CASE_FIELD_AXIS:
        status = read_uint(L, "axis", UINT32_MAX, &draft->axis);
        break;
    case DMLCONF_CASE_FIELD_DIRECTION:
        status = read_choice(L, "direction", directions, 2, &index);
        if (status == 1)
        {
            draft->direction = index ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING;
        }
        break;
    case DMLCONF_CASE_FIELD_EXCLUSIVE:
        status = read_bool(L, "exclusive", &draft->exclusive);
        break;
    case DMLCONF_CASE_FIELD_IN_PLACE:
        status = read_bool(L, "in_place", &draft->in_place);
        break;
    case DMLCONF_CASE_FIELD_ROUND_INPUTS:
        status = read_bool(L, "round_inputs", &draft->round_inputs);
        break;
    case DMLCONF_CASE_FIELD_INPUT:
        status = loader_read_data(L, &draft->input, true, known_type(draft)) ? 1 : -1;
        if (status == 1 && draft->input.bad)
        {
            status = 0;
        }
        break;
    case DMLCONF_CASE_FIELD_EXPECTED:
        status = loader_read_data(L, &draft->expected, false, known_type(draft)) ? 1 : -1;
        if (status == 1 && draft->expected.bad)
        {
            status = 0;
        }
        break;
    case DMLCONF_CASE_FIELD_TOLERANCE:
        status = read_tolerance(L, draft);
        break;
    case DMLCONF_CASE_FIELD_MIN_FEATURE_LEVEL:
        status = read_feature_level(L, &draft->min_feature_level);
        break;
    case DMLCONF_CASE_FIELD_EXPECT_ERROR:
        status = read_expect_error(L, draft);
        break;
    case DMLCONF_CASE_FIELD_TAGS:
        status = read_tags(L, draft);
        break;
    case DMLCONF_CASE_FIELD_NOTES:
        status = read_notes(L, draft);
        break;
    case DMLCONF_CASE_FIELD_COUNT:
    default:
        status = loader_skip_node(L) ? 0 : -1;
        break;
    }
    if (status == 0)
    {
        draft->bad[field] = true;
    }
    return status >= 0;
}
