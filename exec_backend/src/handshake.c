/*
 * Reading the adapter's handshake line (docs/process-protocol.md, "The
 * handshake"). Strict: a key of the wrong kind, a name dmlconf does not
 * know or a string longer than its place is an error that names the key,
 * so that a typing mistake in an adapter never turns into cases quietly
 * skipped. Keys this version does not know are ignored (later versions of
 * the protocol may add some).
 */
#include "handshake.h"
#include "wire.h"

#include <dmlconf/text.h>
#include <dmlconf/why.h>

#include <jansson.h>

#include <stdio.h>
#include <string.h>

#define PROTOCOL_NAME "dmlconf-exec"

/* "the handshake's "KEY" WHAT" */
static int bad_value(char *why, size_t why_size, const char *key, const char *what)
{
    dmlconf_set_why(why, why_size, "the handshake's \"%s\" %s", key, what);
    return -1;
}

/* "the handshake has no "KEY"" and what it should be */
static int missing(char *why, size_t why_size, const char *key, const char *what)
{
    dmlconf_set_why(why, why_size, "the handshake has no \"%s\"%s", key, what);
    return -1;
}

/* A string value: required or not, at most size - 1 bytes, no control
 * characters. */
static int get_string(json_t *object, const char *key, bool required, char *out, size_t size, char *why,
                      size_t why_size)
{
    json_t *value = json_object_get(object, key);
    out[0] = '\0';
    if (!value || (json_is_null(value) && !required))
        return required ? missing(why, why_size, key, "") : 0;
    if (!json_is_string(value))
        return bad_value(why, why_size, key, "is not a string");
    const char *text = json_string_value(value);
    size_t length = json_string_length(value);
    if (length >= size)
    {
        dmlconf_set_why(why, why_size, "the handshake's \"%s\" has %zu bytes (at most %zu)", key, length, size - 1);
        return -1;
    }
    /* Nothing an adapter names itself with may act on a console or a
     * report: no control character (C0, DEL, C1), no invisible one that
     * reorders the text around it (U+202E), nothing that is not UTF-8. */
    if (strlen(text) != length)
        return bad_value(why, why_size, key, "holds a NUL character");
    uint32_t code = dmlconf_text_first_control(text, false);
    if (code)
    {
        char what[96];
        snprintf(what, sizeof(what), "holds %s U+%04X", code == 0xfffd ? "bytes that are not UTF-8, read as" : "the control character",
                 (unsigned)code);
        return bad_value(why, why_size, key, what);
    }
    memcpy(out, text, length + 1);
    return 0;
}

static int get_bool(json_t *object, const char *key, bool required, bool *out, char *why, size_t why_size)
{
    json_t *value = json_object_get(object, key);
    if (!value)
    {
        *out = false;
        return required ? missing(why, why_size, key, " (true or false)") : 0;
    }
    if (!json_is_boolean(value))
        return bad_value(why, why_size, key, "is not true or false");
    *out = json_is_true(value);
    return 0;
}

/* A list of names, each one of `names` (whose bits are `bits`), ORed into
 * *out. The list must not be empty. */
static int get_names(json_t *object, const char *key, const char *const *names, const uint32_t *bits, size_t count,
                     uint32_t *out, char *why, size_t why_size)
{
    json_t *value = json_object_get(object, key);
    if (!value)
        return missing(why, why_size, key, "");
    if (!json_is_array(value) || json_array_size(value) == 0)
        return bad_value(why, why_size, key, "is not a list of at least one name");
    size_t index;
    json_t *item;
    json_array_foreach(value, index, item)
    {
        const char *name = json_is_string(item) ? json_string_value(item) : NULL;
        size_t known = count;
        for (size_t i = 0; name && i < count; ++i)
        {
            if (!strcmp(name, names[i]))
                known = i;
        }
        if (known == count)
        {
            char list[160] = "";
            size_t used = 0;
            for (size_t i = 0; i < count && used < sizeof(list); ++i)
                used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "", names[i]);
            dmlconf_set_why(why, why_size, "the handshake's \"%s\" holds %s%.60s%s, which is not one of %s", key,
                            name ? "\"" : "", name ? name : "a value that is not a string", name ? "\"" : "", list);
            return -1;
        }
        *out |= bits[known];
    }
    return 0;
}

static int get_data_types(json_t *object, uint32_t *out, char *why, size_t why_size)
{
    json_t *value = json_object_get(object, "data_types");
    if (!value)
        return missing(why, why_size, "data_types", "");
    if (!json_is_array(value) || json_array_size(value) == 0)
        return bad_value(why, why_size, "data_types", "is not a list of at least one name");
    size_t index;
    json_t *item;
    json_array_foreach(value, index, item)
    {
        dmlconf_data_type type;
        const char *name = json_is_string(item) ? json_string_value(item) : NULL;
        if (!name || !dmlconf_data_type_from_name(name, &type) || type == DMLCONF_DATA_TYPE_UNKNOWN)
        {
            dmlconf_set_why(
                why, why_size,
                "the handshake's \"data_types\" holds %s%.60s%s, which is not a DirectML data type (float32, "
                "float16, int32, uint32, int64, uint64, ...)",
                name ? "\"" : "", name ? name : "a value that is not a string", name ? "\"" : "");
            return -1;
        }
        *out |= DMLCONF_TYPE_BIT(type);
    }
    return 0;
}

static int get_ranks(json_t *object, uint32_t *min_rank, uint32_t *max_rank, char *why, size_t why_size)
{
    json_t *value = json_object_get(object, "ranks");
    if (!value)
        return missing(why, why_size, "ranks", " ([lowest, highest])");
    json_t *low = json_array_get(value, 0), *high = json_array_get(value, 1);
    if (!json_is_array(value) || json_array_size(value) != 2 || !json_is_integer(low) || !json_is_integer(high) ||
        json_integer_value(low) < 1 || json_integer_value(high) > (json_int_t)DMLCONF_MAX_DIMENSIONS ||
        json_integer_value(low) > json_integer_value(high))
        return bad_value(why, why_size, "ranks", "is not [lowest, highest] with 1 <= lowest <= highest <= 8");
    *min_rank = (uint32_t)json_integer_value(low);
    *max_rank = (uint32_t)json_integer_value(high);
    return 0;
}

static int get_feature_level(json_t *object, dmlconf_feature_level *out, char *why, size_t why_size)
{
    json_t *value = json_object_get(object, "feature_level");
    *out = DMLCONF_FEATURE_LEVEL_NONE;
    if (!value || json_is_null(value))
        return 0;
    if (!json_is_string(value) || !dmlconf_feature_level_from_name(json_string_value(value), out))
        return bad_value(why, why_size, "feature_level", "is not a feature level such as \"5_0\", nor null");
    return 0;
}

/* The protocol and its version, checked before anything else: another
 * version may have other keys. */
static int check_protocol(json_t *object, char *why, size_t why_size)
{
    json_t *protocol = json_object_get(object, "protocol");
    json_t *version = json_object_get(object, "version");
    if (!json_is_string(protocol) || strcmp(json_string_value(protocol), PROTOCOL_NAME) != 0)
        return bad_value(why, why_size, "protocol", "is not \"" PROTOCOL_NAME "\"");
    if (!json_is_integer(version))
        return bad_value(why, why_size, "version", "is not an integer");
    if (json_integer_value(version) != (json_int_t)EXEC_PROTOCOL_VERSION)
    {
        dmlconf_set_why(why, why_size,
                        "the adapter speaks version %lld of the process protocol; this dmlconf speaks version %u",
                        (long long)json_integer_value(version), EXEC_PROTOCOL_VERSION);
        return -1;
    }
    return 0;
}

static bool valid_implementation_name(const char *name)
{
    if (!name[0])
        return false;
    for (const char *c = name; *c; ++c)
    {
        bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.' ||
                  *c == '_' || *c == '+' || *c == '-';
        if (!ok)
            return false;
    }
    return true;
}

static int read_handshake(json_t *object, exec_handshake *out, char *why, size_t why_size)
{
    static const char *const operators[] = {"cumulative_summation", "cumulative_product"};
    static const uint32_t operator_bits[] = {DMLCONF_CAN_SUMMATION, DMLCONF_CAN_PRODUCT};
    static const char *const directions[] = {"increasing", "decreasing"};
    static const uint32_t direction_bits[] = {DMLCONF_CAN_INCREASING, DMLCONF_CAN_DECREASING};
    static const char *const modes[] = {"inclusive", "exclusive"};
    static const uint32_t mode_bits[] = {DMLCONF_CAN_INCLUSIVE, DMLCONF_CAN_EXCLUSIVE};
    if (check_protocol(object, why, why_size) ||
        get_string(object, "implementation", true, out->implementation, sizeof(out->implementation), why, why_size))
        return -1;
    if (!valid_implementation_name(out->implementation))
        return bad_value(why, why_size, "implementation", "is not 1 to 40 of the characters A-Z a-z 0-9 . _ + -");
    bool strides, broadcast, in_place, validates;
    dmlconf_backend_capabilities *can = &out->capabilities;
    if (get_string(object, "implementation_version", false, out->implementation_version,
                   sizeof(out->implementation_version), why, why_size) ||
        get_string(object, "device", false, out->device, sizeof(out->device), why, why_size) ||
        get_string(object, "driver", false, out->driver, sizeof(out->driver), why, why_size) ||
        get_string(object, "runtime", false, out->runtime, sizeof(out->runtime), why, why_size) ||
        get_bool(object, "software", false, &out->software, why, why_size) ||
        get_feature_level(object, &out->feature_level, why, why_size) ||
        get_names(object, "operators", operators, operator_bits, 2, &can->features, why, why_size) ||
        get_data_types(object, &can->data_types, why, why_size) ||
        get_names(object, "directions", directions, direction_bits, 2, &can->features, why, why_size) ||
        get_names(object, "modes", modes, mode_bits, 2, &can->features, why, why_size) ||
        get_ranks(object, &can->min_rank, &can->max_rank, why, why_size) ||
        get_bool(object, "strides", true, &strides, why, why_size) ||
        get_bool(object, "broadcast", true, &broadcast, why, why_size) ||
        get_bool(object, "in_place", true, &in_place, why, why_size) ||
        get_bool(object, "validates", true, &validates, why, why_size))
        return -1;
    can->features |= (strides ? DMLCONF_CAN_STRIDES : 0u) | (broadcast ? DMLCONF_CAN_BROADCAST : 0u) |
                     (in_place ? DMLCONF_CAN_IN_PLACE : 0u) | (validates ? DMLCONF_CAN_VALIDATE : 0u);
    return 0;
}

int exec_parse_handshake(const char *line, size_t length, exec_handshake *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof(*out));
    json_error_t error;
    json_t *object = json_loadb(line, length, JSON_REJECT_DUPLICATES, &error);
    if (!object)
    {
        dmlconf_set_why(why, why_size, "the handshake is not JSON: %s at column %d", error.text, error.column);
        return -1;
    }
    int result = -1;
    if (!json_is_object(object))
        dmlconf_set_why(why, why_size, "the handshake is not a JSON object");
    else
        result = read_handshake(object, out, why, why_size);
    json_decref(object);
    if (result)
        memset(out, 0, sizeof(*out));
    return result;
}

bool exec_handshakes_agree(const exec_handshake *a, const exec_handshake *b)
{
    return !strcmp(a->implementation, b->implementation) && a->feature_level == b->feature_level &&
           a->capabilities.features == b->capabilities.features &&
           a->capabilities.data_types == b->capabilities.data_types &&
           a->capabilities.min_rank == b->capabilities.min_rank && a->capabilities.max_rank == b->capabilities.max_rank;
}
