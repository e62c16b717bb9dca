/*
 * case_check.c: the checks that turn a draft (every key read) into a case:
 * required keys, the tensor desc built and judged by the oracle's validation
 * rules, negative cases' expected reasons, the minimum feature level, the
 * tensor values (case_values.c) and the expected values a case gives
 * against the oracle (case_expected.c). A case with any error is reported
 * and dropped; the next case is loaded as usual.
 */
#include "loader_internal.h"
#include <dmlconf/compiler.h>

#include <dmlconf/reserve.h>

#include <stdlib.h>
#include <string.h>

int loader_draft_copy_defaults(loader_draft *draft, const loader_draft *defaults)
{
    size_t i;

    memset(draft, 0, sizeof(*draft));
    draft->direction = DMLCONF_AXIS_DIRECTION_INCREASING;
    if (!defaults)
    {
        return 0;
    }
    *draft = *defaults;
    memset(&draft->input, 0, sizeof(draft->input));
    memset(&draft->expected, 0, sizeof(draft->expected));
    draft->id = NULL;
    draft->tags = NULL;
    draft->tag_count = draft->tag_capacity = 0;
    draft->notes = NULL;
    for (i = 0; i < DMLCONF_CASE_FIELD_COUNT; ++i)
    {
        draft->from_defaults[i] = defaults->set[i];
    }
    for (i = 0; i < DMLCONF_TOLERANCE_FIELD_COUNT; ++i)
    {
        draft->tolerance.from_defaults[i] = defaults->tolerance.overrides.set[i];
    }
    if (defaults->notes && !(draft->notes = dmlconf_strdup(defaults->notes)))
    {
        return -1;
    }
    if (defaults->tag_count)
    {
        draft->tags = calloc(defaults->tag_count, sizeof(*draft->tags));
        if (!draft->tags)
        {
            return -1;
        }
        draft->tag_capacity = defaults->tag_count;
        for (i = 0; i < defaults->tag_count; ++i)
        {
            if (!(draft->tags[i] = dmlconf_strdup(defaults->tags[i])))
            {
                return -1;
            }
            ++draft->tag_count;
        }
    }
    return 0;
}

void loader_draft_free(loader_draft *draft)
{
    size_t i;

    free(draft->id);
    free(draft->notes);
    for (i = 0; i < draft->tag_count; ++i)
    {
        free(draft->tags[i]);
    }
    free(draft->tags);
    loader_data_free(&draft->input);
    loader_data_free(&draft->expected);
    memset(draft, 0, sizeof(*draft));
}

/* Reports an error about a field of the case; a value that came from the
 * file's defaults names the case it broke. */
static void case_error(loader *L, const loader_draft *d, dmlconf_case_field field, dmlconf_mark mark,
                       const char *format, ...) DMLCONF_PRINTF_LIKE(5, 6);

static void case_error(loader *L, const loader_draft *d, dmlconf_case_field field, dmlconf_mark mark,
                       const char *format, ...)
{
    va_list args;
    char *message;

    va_start(args, format);
    message = loader_vformat(format, args);
    va_end(args);
    if (!message)
    {
        loader_out_of_memory(L);
        return;
    }
    if (field < DMLCONF_CASE_FIELD_COUNT && d->from_defaults[field])
    {
        loader_error(L, mark, "%s (in case '%s', value from defaults)", message, d->id ? d->id : "?");
    }
    else
    {
        loader_error(L, mark, "%s", message);
    }
    free(message);
}

/* "[1, 2, 3]" into buffer. */
static const char *format_list(const uint64_t *values, uint32_t count, char *buffer, size_t size)
{
    size_t used = 0;
    uint32_t i;

    used += (size_t)snprintf(buffer, size, "[");
    for (i = 0; i < count && i < DMLCONF_MAX_DIMENSIONS && used < size; ++i)
    {
        used += (size_t)snprintf(buffer + used, size - used, "%s%" PRIu64, i ? ", " : "", values[i]);
    }
    if (used < size)
    {
        snprintf(buffer + used, size - used, "%s]", count > DMLCONF_MAX_DIMENSIONS ? ", ..." : "");
    }
    return buffer;
}

/* Checks a sizes list; fills the tensor's sizes. Returns false when the list
 * cannot make a desc (no representation, or an error in a valid case). */
static bool check_sizes(loader *L, const loader_draft *d, dmlconf_case_field field, const loader_uint_list *sizes,
                        bool negative, dmlconf_tensor_desc *tensor)
{
    const char *name = dmlconf_case_field_name(field);
    char text[128];
    uint64_t count = 1;
    bool overflow = false, ok = true;
    uint32_t i;

    if (sizes->count > DMLCONF_MAX_DIMENSIONS)
    {
        case_error(L, d, field, d->marks[field], "%s has %" PRIu32 " entries: a tensor has at most %u dimensions", name,
                   sizes->count, DMLCONF_MAX_DIMENSIONS);
        return false;
    }
    tensor->dimension_count = sizes->count;
    for (i = 0; i < sizes->count; ++i)
    {
        tensor->sizes[i] = (uint32_t)sizes->values[i];
    }
    if (negative)
    {
        return true;
    }
    if (!sizes->count)
    {
        case_error(L, d, field, d->marks[field], "%s is empty: a tensor has 1 to %u dimensions", name,
                   DMLCONF_MAX_DIMENSIONS);
        return false;
    }
    for (i = 0; i < sizes->count; ++i)
    {
        if (!sizes->values[i])
        {
            case_error(L, d, field, sizes->marks[i], "%s[%" PRIu32 "] is 0: every size must be at least 1", name, i);
            ok = false;
        }
        else if (count > UINT64_MAX / sizes->values[i])
        {
            overflow = true;
        }
        else
        {
            count *= sizes->values[i];
        }
    }
    if (ok && (overflow || count > DMLCONF_MAX_ELEMENTS))
    {
        if (overflow)
        {
            case_error(L, d, field, d->marks[field],
                       "%s %s hold more than 2^64 elements (a tensor may hold at most 4294967295)", name,
                       format_list(sizes->values, sizes->count, text, sizeof(text)));
        }
        else
        {
            case_error(L, d, field, d->marks[field],
                       "%s %s hold %" PRIu64 " elements, more than the 4294967295 a tensor may hold", name,
                       format_list(sizes->values, sizes->count, text, sizeof(text)), count);
        }
        ok = false;
    }
    return ok;
}

/* Checks a strides list against its tensor's rank and fills the strides. */
static bool check_strides(loader *L, const loader_draft *d, dmlconf_case_field field, const loader_uint_list *strides,
                          dmlconf_tensor_desc *tensor)
{
    uint32_t i;

    if (!d->set[field])
    {
        tensor->has_strides = false;
        return true;
    }
    if (d->bad[field])
    {
        return false;
    }
    if (strides->count != tensor->dimension_count)
    {
        case_error(L, d, field, d->marks[field],
                   "%s has %" PRIu32 " entr%s but the tensor has %" PRIu32 " dimensions (one stride per size)",
                   dmlconf_case_field_name(field), strides->count, strides->count == 1 ? "y" : "ies",
                   tensor->dimension_count);
        return false;
    }
    tensor->has_strides = true;
    for (i = 0; i < strides->count; ++i)
    {
        tensor->strides[i] = (uint32_t)strides->values[i];
    }
    return true;
}

/* "[12, 4, 1]" of a tensor's effective strides. */
static const char *format_strides(const dmlconf_tensor_desc *tensor, char *buffer, size_t size)
{
    uint64_t strides[DMLCONF_MAX_DIMENSIONS];
    uint32_t i;

    for (i = 0; i < tensor->dimension_count; ++i)
    {
        strides[i] = dmlconf_tensor_stride(tensor, i);
    }
    return format_list(strides, tensor->dimension_count, buffer, size);
}

/* The highest feature level the oracle knows. */
static dmlconf_feature_level highest_level(void)
{
    size_t count = 0;
    const dmlconf_feature_level *levels = dmlconf_feature_levels(&count);

    return count ? levels[count - 1] : DMLCONF_FEATURE_LEVEL_NONE;
}

static const char *level_name(dmlconf_feature_level level)
{
    const char *name = dmlconf_feature_level_name(level);

    return name ? name : "?";
}

/* Checks a negative case's expect_error against the oracle. */
static void check_expect_error(loader *L, const loader_draft *d, const dmlconf_scan_desc *desc)
{
    const dmlconf_expect_error *expect = &d->expect_error;
    const char *reason = dmlconf_reason_name(expect->reason);
    const dmlconf_feature_level *levels;
    dmlconf_mark mark = d->marks[DMLCONF_CASE_FIELD_EXPECT_ERROR];
    dmlconf_validation v;
    dmlconf_feature_level level;
    size_t count = 0, i;

    if (expect->feature_level != DMLCONF_FEATURE_LEVEL_NONE)
    {
        level = expect->feature_level;
        if (dmlconf_validate(desc, level, &v))
        {
            case_error(L, d, DMLCONF_CASE_FIELD_EXPECT_ERROR, mark,
                       "expect_error says %s at feature level %s, but the oracle accepts this case there", reason,
                       level_name(level));
        }
        else if (v.reason != expect->reason)
        {
            case_error(L, d, DMLCONF_CASE_FIELD_EXPECT_ERROR, mark,
                       "expect_error says %s at feature level %s, but the oracle rejects this case with %s: %s", reason,
                       level_name(level), dmlconf_reason_name(v.reason), v.message);
        }
        return;
    }
    levels = dmlconf_feature_levels(&count);
    for (i = 0; i < count; ++i)
    {
        if (dmlconf_validate(desc, levels[i], NULL))
        {
            case_error(L, d, DMLCONF_CASE_FIELD_EXPECT_ERROR, mark,
                       "expect_error says %s, but the oracle accepts this case from feature level %s on (a plain "
                       "reason means rejected at every level; name the level instead: {reason: ..., feature_level: "
                       "...})",
                       reason, level_name(levels[i]));
            return;
        }
    }
    level = highest_level();
    if (!dmlconf_validate(desc, level, &v) && v.reason != expect->reason)
    {
        case_error(L, d, DMLCONF_CASE_FIELD_EXPECT_ERROR, mark,
                   "expect_error says %s, but the oracle rejects this case with %s: %s", reason,
                   dmlconf_reason_name(v.reason), v.message);
    }
}

/* Checks the minimum feature level against the rules. */
static void check_min_level(loader *L, const loader_draft *d, const dmlconf_scan_desc *desc,
                            dmlconf_feature_level *derived)
{
    dmlconf_validation v;

    *derived = dmlconf_min_feature_level(desc, NULL);
    if (!d->set[DMLCONF_CASE_FIELD_MIN_FEATURE_LEVEL] || d->bad[DMLCONF_CASE_FIELD_MIN_FEATURE_LEVEL] ||
        *derived == DMLCONF_FEATURE_LEVEL_NONE)
    {
        return;
    }
    if ((unsigned)d->min_feature_level < (unsigned)*derived)
    {
        dmlconf_validate(desc, d->min_feature_level, &v);
        case_error(L, d, DMLCONF_CASE_FIELD_MIN_FEATURE_LEVEL, d->marks[DMLCONF_CASE_FIELD_MIN_FEATURE_LEVEL],
                   "min_feature_level %s is lower than the rules allow: this case needs %s (at %s: %s)",
                   level_name(d->min_feature_level), level_name(*derived), level_name(d->min_feature_level), v.message);
    }
}

static uint64_t hash_id(const char *id)
{
    uint64_t hash = UINT64_C(0xcbf29ce484222325);

    for (; *id; ++id)
    {
        hash = (hash ^ (unsigned char)*id) * UINT64_C(0x100000001b3);
    }
    return hash;
}

size_t loader_find_id(const loader *L, const char *id)
{
    size_t mask = L->id_capacity - 1, slot;

    if (!L->id_capacity)
    {
        return SIZE_MAX;
    }
    for (slot = (size_t)hash_id(id) & mask; L->id_slots[slot]; slot = (slot + 1) & mask)
    {
        if (!strcmp(L->file->cases[L->id_slots[slot] - 1].id, id))
        {
            return L->id_slots[slot] - 1;
        }
    }
    return SIZE_MAX;
}

/* Adds case `index` to the id set. Returns 0 or -1. */
static int add_id(loader *L, size_t index)
{
    size_t capacity, mask, slot, i, *slots;

    if ((index + 1) * 2 > L->id_capacity)
    {
        capacity = L->id_capacity ? L->id_capacity * 2 : 64;
        slots = calloc(capacity, sizeof(*slots));
        if (!slots)
        {
            return -1;
        }
        mask = capacity - 1;
        for (i = 0; i < L->id_capacity; ++i)
        {
            if (L->id_slots[i])
            {
                for (slot = (size_t)hash_id(L->file->cases[L->id_slots[i] - 1].id) & mask; slots[slot];
                     slot = (slot + 1) & mask)
                {
                }
                slots[slot] = L->id_slots[i];
            }
        }
        free(L->id_slots);
        L->id_slots = slots;
        L->id_capacity = capacity;
    }
    mask = L->id_capacity - 1;
    for (slot = (size_t)hash_id(L->file->cases[index].id) & mask; L->id_slots[slot]; slot = (slot + 1) & mask)
    {
    }
    L->id_slots[slot] = index + 1;
    return 0;
}

/* Moves the draft into a new case at the end of the file's list. */
static void append_case(loader *L, loader_draft *d, const dmlconf_scan_desc *desc, dmlconf_feature_level level,
                        dmlconf_case_data *input, dmlconf_case_data *expected)
{
    dmlconf_case_file *file = L->file;
    dmlconf_case *c;
    size_t i;

    if (!dmlconf_reserve((void **)&file->cases, &file->case_capacity, file->case_count + 1, sizeof(*file->cases)))
    {
        loader_case_data_free(input);
        loader_case_data_free(expected);
        loader_out_of_memory(L);
        return;
    }
    c = &file->cases[file->case_count++];
    memset(c, 0, sizeof(*c));
    c->id = d->id;
    d->id = NULL;
    c->file = file->path;
    c->mark = d->mark;
    c->flow_style = d->flow_style;
    for (i = 0; i < DMLCONF_CASE_FIELD_COUNT; ++i)
    {
        c->marks[i] = d->set[i] ? d->marks[i] : (dmlconf_mark){0, 0, 0};
        c->from_defaults[i] = d->set[i] && d->from_defaults[i];
    }
    c->desc = *desc;
    c->min_feature_level = d->set[DMLCONF_CASE_FIELD_MIN_FEATURE_LEVEL] ? d->min_feature_level : level;
    c->min_feature_level_explicit = d->set[DMLCONF_CASE_FIELD_MIN_FEATURE_LEVEL];
    c->input = *input;
    c->expected = *expected;
    c->round_inputs = d->round_inputs;
    c->tolerance = d->tolerance;
    c->expect_error = d->expect_error;
    c->tags = d->tags;
    c->tag_count = d->tag_count;
    d->tags = NULL;
    d->tag_count = d->tag_capacity = 0;
    c->notes = d->notes;
    d->notes = NULL;
    if (add_id(L, file->case_count - 1))
    {
        loader_out_of_memory(L);
    }
}

/* The duplicate id and the required keys. Returns whether every required
 * key is there and fine. */
static bool check_identity(loader *L, const loader_draft *d)
{
    static const dmlconf_case_field required[] = {DMLCONF_CASE_FIELD_ID, DMLCONF_CASE_FIELD_OP,
                                                  DMLCONF_CASE_FIELD_DTYPE, DMLCONF_CASE_FIELD_SIZES,
                                                  DMLCONF_CASE_FIELD_AXIS};
    const char *missing[8];
    size_t missing_count = 0, i;
    bool ok = true;
    char text[128];
    if (d->id && !d->bad[DMLCONF_CASE_FIELD_ID] && (i = loader_find_id(L, d->id)) != SIZE_MAX)
    {
        loader_error_related(L, d->marks[DMLCONF_CASE_FIELD_ID], "first defined at",
                             L->file->cases[i].marks[DMLCONF_CASE_FIELD_ID], "duplicate id '%s'", d->id);
    }
    for (i = 0; i < sizeof(required) / sizeof(required[0]); ++i)
    {
        if (!d->set[required[i]])
            missing[missing_count++] = dmlconf_case_field_name(required[i]);
        if (!d->set[required[i]] || d->bad[required[i]])
            ok = false;
    }
    if (missing_count)
    {
        size_t used = (size_t)snprintf(text, sizeof(text), "'%s'", missing[0]);
        for (i = 1; i < missing_count && used < sizeof(text); ++i)
        {
            used += (size_t)snprintf(text + used, sizeof(text) - used, "%s'%s'",
                                     i + 1 == missing_count ? " and " : ", ", missing[i]);
        }
        if (d->id)
            loader_error(L, d->mark, "case '%s' is missing the required key%s %s", d->id, missing_count > 1 ? "s" : "",
                         text);
        else
            loader_error(L, d->mark, "a case is missing the required key%s %s", missing_count > 1 ? "s" : "", text);
    }
    return ok;
}

/* The keys a positive or a negative case must have or must not have. */
static void check_keys_of_kind(loader *L, const loader_draft *d, bool negative)
{
    const char *id = d->id ? d->id : "(no id)";
    if (!negative && !d->set[DMLCONF_CASE_FIELD_INPUT])
    {
        loader_error(L, d->mark,
                     "case '%s' is missing the required key 'input' (only a negative case, with "
                     "expect_error, may leave it out)",
                     id);
    }
    if (negative && d->set[DMLCONF_CASE_FIELD_EXPECTED])
    {
        loader_error(L, d->expected.key_mark,
                     "a negative case (with expect_error) cannot have expected values: DirectML rejects it before "
                     "anything runs");
    }
    if (negative)
        return;
    if (d->set[DMLCONF_CASE_FIELD_OUTPUT_DTYPE] && !d->from_defaults[DMLCONF_CASE_FIELD_OUTPUT_DTYPE])
    {
        loader_error(L, d->key_marks[DMLCONF_CASE_FIELD_OUTPUT_DTYPE],
                     "output_dtype is only for negative cases (with expect_error): a valid case's output has "
                     "the input's dtype");
    }
    if (d->set[DMLCONF_CASE_FIELD_OUTPUT_SIZES] && !d->from_defaults[DMLCONF_CASE_FIELD_OUTPUT_SIZES])
    {
        loader_error(L, d->key_marks[DMLCONF_CASE_FIELD_OUTPUT_SIZES],
                     "output_sizes is only for negative cases (with expect_error): a valid case's output has "
                     "the input's sizes");
    }
}

/* What the checks of one case found so far: whether its values can be read
 * (its sizes, strides and dtype are fine) and whether DirectML's rules can
 * be checked (everything the desc needs is fine). */
typedef struct case_checks
{
    bool negative;
    bool values_ok;
    bool rules_ok;
} case_checks;

/* Builds the desc as far as the keys that are fine allow, and checks its
 * layout: sizes, strides, a computable dtype, the axis, in place and
 * overlapping outputs. `required_ok` says whether the required keys are. */
static void check_layout(loader *L, loader_draft *d, bool required_ok, dmlconf_scan_desc *desc, case_checks *c)
{
    bool negative = c->negative;
    char text[128], text2[128], overlap[512];
    desc->op = d->op;
    desc->axis = (uint32_t)d->axis;
    desc->direction = d->direction;
    desc->exclusive = d->exclusive;
    desc->in_place = d->in_place;
    desc->input.data_type = d->dtype;
    desc->output.data_type = d->set[DMLCONF_CASE_FIELD_OUTPUT_DTYPE] && negative ? d->output_dtype : d->dtype;
    bool sizes_ok = d->set[DMLCONF_CASE_FIELD_SIZES] && !d->bad[DMLCONF_CASE_FIELD_SIZES] &&
                    check_sizes(L, d, DMLCONF_CASE_FIELD_SIZES, &d->sizes, negative, &desc->input);
    bool rules_ok = required_ok && sizes_ok;
    if (negative && d->set[DMLCONF_CASE_FIELD_OUTPUT_SIZES])
    {
        rules_ok = rules_ok && !d->bad[DMLCONF_CASE_FIELD_OUTPUT_SIZES] &&
                   check_sizes(L, d, DMLCONF_CASE_FIELD_OUTPUT_SIZES, &d->output_sizes, true, &desc->output);
    }
    else
    {
        desc->output.dimension_count = desc->input.dimension_count;
        memcpy(desc->output.sizes, desc->input.sizes, sizeof(desc->output.sizes));
    }
    bool values_ok = sizes_ok && d->set[DMLCONF_CASE_FIELD_DTYPE] && !d->bad[DMLCONF_CASE_FIELD_DTYPE];
    if (sizes_ok)
    {
        values_ok = check_strides(L, d, DMLCONF_CASE_FIELD_INPUT_STRIDES, &d->input_strides, &desc->input) && values_ok;
        rules_ok = check_strides(L, d, DMLCONF_CASE_FIELD_OUTPUT_STRIDES, &d->output_strides, &desc->output) &&
                   rules_ok && values_ok;
    }
    if (values_ok && !negative && !dmlconf_data_type_is_computable(d->dtype))
    {
        case_error(L, d, DMLCONF_CASE_FIELD_DTYPE, d->marks[DMLCONF_CASE_FIELD_DTYPE],
                   "dtype %s is not supported by these operators (float32, float16, int32, uint32, int64, uint64); "
                   "use it only in a negative case (with expect_error)",
                   dmlconf_data_type_lower_name(d->dtype));
        values_ok = rules_ok = false;
    }
    if (rules_ok && !negative && d->axis >= desc->input.dimension_count)
    {
        case_error(L, d, DMLCONF_CASE_FIELD_AXIS, d->marks[DMLCONF_CASE_FIELD_AXIS],
                   "axis %" PRIu64 " is out of range for a %" PRIu32 "-D tensor (expected 0 to %" PRIu32 ")", d->axis,
                   desc->input.dimension_count, desc->input.dimension_count - 1);
        rules_ok = false;
    }
    for (uint32_t i = 0; rules_ok && !negative && d->in_place && i < desc->input.dimension_count; ++i)
    {
        if (dmlconf_tensor_stride(&desc->input, i) != dmlconf_tensor_stride(&desc->output, i))
        {
            case_error(L, d, DMLCONF_CASE_FIELD_IN_PLACE, d->marks[DMLCONF_CASE_FIELD_IN_PLACE],
                       "in_place needs the output laid out like the input, but the input's strides are %s and "
                       "the output's %s",
                       format_strides(&desc->input, text, sizeof(text)),
                       format_strides(&desc->output, text2, sizeof(text2)));
            rules_ok = false;
        }
    }
    if (rules_ok && !negative && loader_output_overlaps(&desc->output, overlap, sizeof(overlap)))
    {
        /* Each element's value would depend on the order of the writes:
         * no backend can be judged on it. */
        case_error(L, d, DMLCONF_CASE_FIELD_OUTPUT_STRIDES, d->marks[DMLCONF_CASE_FIELD_OUTPUT_STRIDES], "%s", overlap);
        rules_ok = false;
    }
    c->values_ok = values_ok;
    c->rules_ok = rules_ok;
}

/* DirectML's rules for the desc: a negative case's expected error, a
 * positive case's validity at some level, and the minimum level, derived
 * into *derived. */
static void check_rules(loader *L, loader_draft *d, const dmlconf_scan_desc *desc, bool negative,
                        dmlconf_feature_level *derived)
{
    dmlconf_validation v;
    if (negative)
    {
        check_expect_error(L, d, desc);
        check_min_level(L, d, desc, derived);
    }
    else if (!dmlconf_validate(desc, highest_level(), &v))
    {
        loader_error(L, d->mark,
                     "case '%s' is not valid for DirectML at any feature level: %s (add expect_error: %s if that "
                     "is the point)",
                     d->id ? d->id : "(no id)", v.message, dmlconf_reason_name(v.reason));
    }
    else
    {
        check_min_level(L, d, desc, derived);
    }
}

void loader_finish_case(loader *L, loader_draft *d, size_t errors_before)
{
    dmlconf_case_data input, expected;
    dmlconf_scan_desc desc;
    dmlconf_feature_level derived = DMLCONF_FEATURE_LEVEL_NONE;
    memset(&input, 0, sizeof(input));
    memset(&expected, 0, sizeof(expected));
    memset(&desc, 0, sizeof(desc));

    bool required_ok = check_identity(L, d);
    case_checks c = {.negative = d->set[DMLCONF_CASE_FIELD_EXPECT_ERROR]};
    if (c.negative && d->bad[DMLCONF_CASE_FIELD_EXPECT_ERROR])
        required_ok = false;
    check_keys_of_kind(L, d, c.negative);
    loader_check_tolerance(L, d, c.negative);
    check_layout(L, d, required_ok, &desc, &c);
    if (c.rules_ok && L->file->diagnostics.error_count == errors_before)
        check_rules(L, d, &desc, c.negative, &derived);

    /* The values. */
    if (c.values_ok && d->set[DMLCONF_CASE_FIELD_INPUT] && !d->bad[DMLCONF_CASE_FIELD_INPUT])
        loader_finish_data(L, d, &desc, &d->input, true, &input);
    else if (d->set[DMLCONF_CASE_FIELD_INPUT])
        loader_report_inexact(L, d, &d->input);
    if (c.values_ok && d->set[DMLCONF_CASE_FIELD_EXPECTED] && !d->bad[DMLCONF_CASE_FIELD_EXPECTED] && !c.negative)
        loader_finish_data(L, d, &desc, &d->expected, false, &expected);
    /* The expected values against the oracle, once everything else holds. */
    if (!c.negative && expected.kind != DMLCONF_CASE_DATA_NONE && L->file->diagnostics.error_count == errors_before &&
        !L->stop)
        loader_check_expected(L, d, &d->expected, &desc, &input, &expected);

    if (L->file->diagnostics.error_count == errors_before && !L->stop)
    {
        append_case(L, d, &desc, derived, &input, &expected);
        return;
    }
    loader_case_data_free(&input);
    loader_case_data_free(&expected);
}
