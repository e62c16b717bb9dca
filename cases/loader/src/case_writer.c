/*
 * case_writer.c: the one writer of the case format (dmlconf/case_writer.h),
 * used by the corpus generator, bless, the run's reproducers and explore.
 * What it writes, the loader reads back as the same case: the round trip
 * over the whole corpus is tests/test_case_writer.c.
 */
#include <dmlconf/case_writer.h>

#include <dmlconf/buffer.h>
#include <dmlconf/datagen.h>
#include <dmlconf/text.h>
#include <dmlconf/values.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- scalars ------------------------------------------------------------------ */

static void append_type(dmlconf_buffer *text, dmlconf_data_type type)
{
    dmlconf_buffer_puts(text, dmlconf_data_type_lower_name(type));
}

/* Whether `s` can be written as a plain scalar in a flow collection and read
 * back as the same text: letters, digits and ._/+- only, not starting with
 * a character YAML gives a meaning. */
static bool plain_word(const char *s)
{
    if (!*s || *s == '-' || *s == '+' || *s == '.')
        return false;
    for (const char *p = s; *p; ++p)
    {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
              c == '/' || c == '+' || c == '-'))
            return false;
    }
    return true;
}

/* Writes `s` as a double-quoted YAML scalar: '"' and '\' escaped, line
 * breaks and tabs as \n, \r and \t, other characters a terminal acts on as
 * \xXX or \uXXXX, bytes that are not UTF-8 as \xXX. */
static void append_quoted(dmlconf_buffer *text, const char *s)
{
    dmlconf_buffer_append(text, "\"", 1);
    for (const char *p = s; *p;)
    {
        unsigned char c = (unsigned char)*p;
        uint32_t code = c;
        size_t length = 1;
        if (c >= 0x80)
        {
            length = dmlconf_utf8_decode(p, &code);
            if (!length)
            {
                dmlconf_buffer_printf(text, "\\x%02x", c);
                ++p;
                continue;
            }
        }
        if (c == '"' || c == '\\')
        {
            char escaped[2] = {'\\', (char)c};
            dmlconf_buffer_append(text, escaped, 2);
        }
        else if (c == '\n')
            dmlconf_buffer_puts(text, "\\n");
        else if (c == '\r')
            dmlconf_buffer_puts(text, "\\r");
        else if (c == '\t')
            dmlconf_buffer_puts(text, "\\t");
        else if (dmlconf_text_is_control(code, false) && code < 0x100)
            dmlconf_buffer_printf(text, "\\x%02" PRIx32, code);
        else if (dmlconf_text_is_control(code, false))
            dmlconf_buffer_printf(text, "\\u%04" PRIx32, code);
        else
            dmlconf_buffer_append(text, p, length);
        p += length;
    }
    dmlconf_buffer_append(text, "\"", 1);
}

static void append_word_or_quoted(dmlconf_buffer *text, const char *s)
{
    if (plain_word(s))
        dmlconf_buffer_puts(text, s);
    else
        append_quoted(text, s);
}

static void append_u32_list(dmlconf_buffer *text, const uint32_t *values, uint32_t count)
{
    dmlconf_buffer_append(text, "[", 1);
    for (uint32_t i = 0; i < count; ++i)
        dmlconf_buffer_printf(text, "%s%" PRIu32, i ? ", " : "", values[i]);
    dmlconf_buffer_append(text, "]", 1);
}

static dmlconf_value_style value_style(const dmlconf_case_write_options *options)
{
    return options && options->exact_floats ? DMLCONF_VALUE_STYLE_EXACT : DMLCONF_VALUE_STYLE_READABLE;
}

static unsigned list_width(const dmlconf_case_write_options *options)
{
    return options && options->width ? options->width : DMLCONF_CASE_WRITE_WIDTH;
}

/* ---- data ---------------------------------------------------------------------- */

/* "[v, v, ...]": `column` is the '['s, lines end by `width` (their ',' or
 * ']' included), continuation lines are `newline` and `indent` spaces. */
static void append_values(dmlconf_buffer *text, dmlconf_data_type type, const void *values, uint64_t count,
                          dmlconf_value_style style, size_t column, size_t indent, unsigned width, const char *newline)
{
    char value[DMLCONF_VALUE_TEXT_SIZE];
    size_t size = dmlconf_value_size(type);

    dmlconf_buffer_append(text, "[", 1);
    ++column;
    for (uint64_t i = 0; i < count && !text->failed; ++i)
    {
        size_t length =
            dmlconf_value_format(type, (const unsigned char *)values + i * size, style, value, sizeof(value));
        if (length >= sizeof(value))
            length = sizeof(value) - 1;
        if (i)
        {
            if (column + 2 + length + 1 > width && column > indent + 1)
            {
                dmlconf_buffer_append(text, ",", 1);
                dmlconf_buffer_puts(text, newline);
                dmlconf_buffer_repeat(text, ' ', indent);
                column = indent;
            }
            else
            {
                dmlconf_buffer_append(text, ", ", 2);
                column += 2;
            }
        }
        dmlconf_buffer_append(text, value, length);
        column += length;
    }
    dmlconf_buffer_append(text, "]", 1);
}

/* "{generate: NAME, KEY: VALUE, ..., seed: S}", the keys given in key order,
 * the seed last. */
static void append_generator(dmlconf_buffer *text, const dmlconf_datagen_spec *spec, dmlconf_value_style style)
{
    static const dmlconf_datagen_key order[] = {
        DMLCONF_DATAGEN_KEY_MIN,    DMLCONF_DATAGEN_KEY_MAX,  DMLCONF_DATAGEN_KEY_SCALE, DMLCONF_DATAGEN_KEY_MEAN,
        DMLCONF_DATAGEN_KEY_STDDEV, DMLCONF_DATAGEN_KEY_EMIN, DMLCONF_DATAGEN_KEY_EMAX,  DMLCONF_DATAGEN_KEY_VALUE,
        DMLCONF_DATAGEN_KEY_START,  DMLCONF_DATAGEN_KEY_STEP, DMLCONF_DATAGEN_KEY_SEED,
    };
    char value[DMLCONF_VALUE_TEXT_SIZE];
    const char *name = dmlconf_datagen_kind_name(spec->kind);
    dmlconf_buffer_printf(text, "{generate: %s", name ? name : "");
    for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); ++k)
    {
        if (!(spec->keys & (uint32_t)order[k]))
            continue;
        dmlconf_datagen_format_key(spec, order[k], style, value, sizeof(value));
        dmlconf_buffer_printf(text, ", %s: %s", dmlconf_datagen_key_name(order[k]), value);
    }
    dmlconf_buffer_append(text, "}", 1);
}

int dmlconf_case_write_data(dmlconf_buffer *text, dmlconf_data_type type, const dmlconf_case_data *data,
                            size_t column, size_t indent, const char *newline,
                            const dmlconf_case_write_options *options)
{
    switch (data->kind)
    {
    case DMLCONF_CASE_DATA_INLINE:
        if (!dmlconf_value_size(type))
            return -1;
        append_values(text, type, data->values, data->count, value_style(options), column, indent, list_width(options),
                      newline ? newline : "\n");
        break;
    case DMLCONF_CASE_DATA_NPY:
        dmlconf_buffer_puts(text, "{npy: ");
        append_word_or_quoted(text, data->npy_text ? data->npy_text : "");
        dmlconf_buffer_puts(text, "}");
        break;
    case DMLCONF_CASE_DATA_GENERATOR:
        append_generator(text, &data->generator, value_style(options));
        break;
    case DMLCONF_CASE_DATA_NONE:
    default:
        return -1;
    }
    return text->failed ? -1 : 0;
}

/* ---- fields ---------------------------------------------------------------------- */

static bool same_shape(const dmlconf_tensor_desc *a, const dmlconf_tensor_desc *b)
{
    if (a->dimension_count != b->dimension_count)
        return false;
    for (uint32_t d = 0; d < a->dimension_count && d < DMLCONF_MAX_DIMENSIONS; ++d)
    {
        if (a->sizes[d] != b->sizes[d])
            return false;
    }
    return true;
}

static bool writes(const dmlconf_case_write_options *options, dmlconf_case_field field)
{
    return !options || !(options->omit & (UINT32_C(1) << field));
}

static void append_key(dmlconf_buffer *text, size_t indent, dmlconf_case_field field)
{
    dmlconf_buffer_repeat(text, ' ', indent);
    dmlconf_buffer_printf(text, "%s: ", dmlconf_case_field_name(field));
}

/* A tolerance: every field its overrides set, in field order. */
static void append_tolerance(dmlconf_buffer *text, const dmlconf_tolerance_overrides *o)
{
    const dmlconf_tolerance *v = &o->values;
    char number[DMLCONF_VALUE_TEXT_SIZE];
    bool first = true;
    dmlconf_buffer_append(text, "{", 1);
    for (unsigned f = 0; f < DMLCONF_TOLERANCE_FIELD_COUNT; ++f)
    {
        if (!o->set[f])
            continue;
        dmlconf_buffer_printf(text, "%s%s: ", first ? "" : ", ",
                                  dmlconf_tolerance_field_name((dmlconf_tolerance_field)f));
        first = false;
        const double *real = NULL;
        switch ((dmlconf_tolerance_field)f)
        {
        case DMLCONF_TOLERANCE_FIELD_ULP:
            real = &v->ulp;
            break;
        case DMLCONF_TOLERANCE_FIELD_ACCUMULATION:
            append_type(text, v->accumulation);
            break;
        case DMLCONF_TOLERANCE_FIELD_FTZ:
            dmlconf_buffer_puts(text, v->ftz ? "true" : "false");
            break;
        case DMLCONF_TOLERANCE_FIELD_SIGNED_ZERO:
            dmlconf_buffer_puts(text, v->strict_signed_zero ? "strict" : "loose");
            break;
        case DMLCONF_TOLERANCE_FIELD_BIT_EXACT:
            dmlconf_buffer_puts(text, v->bit_exact ? "true" : "false");
            break;
        case DMLCONF_TOLERANCE_FIELD_ATOL:
            real = &v->atol;
            break;
        case DMLCONF_TOLERANCE_FIELD_RTOL:
            real = &v->rtol;
            break;
        case DMLCONF_TOLERANCE_FIELD_ULP_COUNT:
            if (v->ulp_count_axis_length_minus_1)
                dmlconf_buffer_puts(text, "axis_length_minus_1");
            else
                real = &v->ulp_count;
            break;
        case DMLCONF_TOLERANCE_FIELD_COUNT:
            break;
        }
        if (real && !signbit(*real) && *real <= 4294967295.0 && *real == (double)(uint64_t)*real)
            dmlconf_buffer_printf(text, "%" PRIu64, (uint64_t)*real);
        else if (real)
        {
            /* The loader reads these numbers rounded to the nearest double,
             * so the shortest decimal that rounds back is exact here. */
            unsigned char element[8];
            uint64_t bits;
            memcpy(&bits, real, sizeof(bits));
            for (size_t i = 0; i < 8; ++i)
                element[i] = (unsigned char)(bits >> (8 * i));
            dmlconf_value_format(DMLCONF_DATA_TYPE_FLOAT64, element, DMLCONF_VALUE_STYLE_SHORTEST, number,
                                 sizeof(number));
            dmlconf_buffer_puts(text, number);
        }
    }
    dmlconf_buffer_append(text, "}", 1);
}

static bool has_tolerance(const dmlconf_case *c)
{
    for (unsigned f = 0; f < DMLCONF_TOLERANCE_FIELD_COUNT; ++f)
    {
        if (c->tolerance.overrides.set[f])
            return true;
    }
    return false;
}

/* Writes field `field` of `c` as "KEY: VALUE\n" at `indent`, when the case
 * has it. Returns 0, or -1 when it cannot be written. */
static int append_field(dmlconf_buffer *text, const dmlconf_case *c, dmlconf_case_field field, size_t indent,
                        const dmlconf_case_write_options *options)
{
    const dmlconf_scan_desc *desc = &c->desc;
    switch (field)
    {
    case DMLCONF_CASE_FIELD_ID:
        append_key(text, indent, field);
        append_word_or_quoted(text, c->id ? c->id : "");
        break;
    case DMLCONF_CASE_FIELD_OP:
        append_key(text, indent, field);
        dmlconf_buffer_puts(text, dmlconf_operator_name(desc->op));
        break;
    case DMLCONF_CASE_FIELD_DTYPE:
        append_key(text, indent, field);
        append_type(text, desc->input.data_type);
        break;
    case DMLCONF_CASE_FIELD_SIZES:
        append_key(text, indent, field);
        append_u32_list(text, desc->input.sizes, desc->input.dimension_count);
        break;
    case DMLCONF_CASE_FIELD_AXIS:
        append_key(text, indent, field);
        dmlconf_buffer_printf(text, "%" PRIu32, desc->axis);
        break;
    case DMLCONF_CASE_FIELD_DIRECTION:
        append_key(text, indent, field);
        dmlconf_buffer_puts(text, desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING ? "decreasing" : "increasing");
        break;
    case DMLCONF_CASE_FIELD_EXCLUSIVE:
        append_key(text, indent, field);
        dmlconf_buffer_puts(text, desc->exclusive ? "true" : "false");
        break;
    case DMLCONF_CASE_FIELD_INPUT_STRIDES:
        if (!desc->input.has_strides)
            return 0;
        append_key(text, indent, field);
        append_u32_list(text, desc->input.strides, desc->input.dimension_count);
        break;
    case DMLCONF_CASE_FIELD_OUTPUT_STRIDES:
        if (!desc->output.has_strides)
            return 0;
        append_key(text, indent, field);
        append_u32_list(text, desc->output.strides, desc->output.dimension_count);
        break;
    case DMLCONF_CASE_FIELD_IN_PLACE:
        if (!desc->in_place)
            return 0;
        append_key(text, indent, field);
        dmlconf_buffer_puts(text, "true");
        break;
    case DMLCONF_CASE_FIELD_OUTPUT_DTYPE:
        if (desc->output.data_type == desc->input.data_type)
            return 0;
        append_key(text, indent, field);
        append_type(text, desc->output.data_type);
        break;
    case DMLCONF_CASE_FIELD_OUTPUT_SIZES:
        if (same_shape(&desc->input, &desc->output))
            return 0;
        append_key(text, indent, field);
        append_u32_list(text, desc->output.sizes, desc->output.dimension_count);
        break;
    case DMLCONF_CASE_FIELD_EXPECT_ERROR:
        if (!c->expect_error.set)
            return 0;
        append_key(text, indent, field);
        if (c->expect_error.feature_level == DMLCONF_FEATURE_LEVEL_NONE)
            dmlconf_buffer_puts(text, dmlconf_reason_name(c->expect_error.reason));
        else
            dmlconf_buffer_printf(text, "{reason: %s, feature_level: %s}",
                                      dmlconf_reason_name(c->expect_error.reason),
                                      dmlconf_feature_level_name(c->expect_error.feature_level));
        break;
    case DMLCONF_CASE_FIELD_MIN_FEATURE_LEVEL:
        if (!c->min_feature_level_explicit)
            return 0;
        append_key(text, indent, field);
        dmlconf_buffer_puts(text, dmlconf_feature_level_name(c->min_feature_level));
        break;
    case DMLCONF_CASE_FIELD_ROUND_INPUTS:
        if (!c->round_inputs)
            return 0;
        append_key(text, indent, field);
        dmlconf_buffer_puts(text, "true");
        break;
    case DMLCONF_CASE_FIELD_TOLERANCE:
        if (c->expect_error.set || !has_tolerance(c) ||
            (desc->input.data_type != DMLCONF_DATA_TYPE_FLOAT32 && desc->input.data_type != DMLCONF_DATA_TYPE_FLOAT16))
            return 0;
        append_key(text, indent, field);
        append_tolerance(text, &c->tolerance.overrides);
        break;
    case DMLCONF_CASE_FIELD_TAGS:
        if (!c->tag_count)
            return 0;
        append_key(text, indent, field);
        dmlconf_buffer_append(text, "[", 1);
        for (size_t i = 0; i < c->tag_count; ++i)
        {
            if (i)
                dmlconf_buffer_append(text, ", ", 2);
            append_word_or_quoted(text, c->tags[i] ? c->tags[i] : "");
        }
        dmlconf_buffer_append(text, "]", 1);
        break;
    case DMLCONF_CASE_FIELD_NOTES:
        if (!c->notes)
            return 0;
        append_key(text, indent, field);
        append_quoted(text, c->notes);
        break;
    case DMLCONF_CASE_FIELD_INPUT:
    case DMLCONF_CASE_FIELD_EXPECTED:
    {
        const dmlconf_case_data *data = field == DMLCONF_CASE_FIELD_INPUT ? &c->input : &c->expected;
        if (data->kind == DMLCONF_CASE_DATA_NONE)
            return 0;
        append_key(text, indent, field);
        size_t column = indent + strlen(dmlconf_case_field_name(field)) + 2;
        if (dmlconf_case_write_data(text, desc->input.data_type, data, column, indent + 2, "\n", options))
            return -1;
        break;
    }
    case DMLCONF_CASE_FIELD_COUNT:
    default:
        return -1;
    }
    dmlconf_buffer_append(text, "\n", 1);
    return text->failed ? -1 : 0;
}

/* The order fields are written in: the corpus's, values last. */
static const dmlconf_case_field field_order[] = {
    DMLCONF_CASE_FIELD_ID,
    DMLCONF_CASE_FIELD_OP,
    DMLCONF_CASE_FIELD_DTYPE,
    DMLCONF_CASE_FIELD_SIZES,
    DMLCONF_CASE_FIELD_AXIS,
    DMLCONF_CASE_FIELD_DIRECTION,
    DMLCONF_CASE_FIELD_EXCLUSIVE,
    DMLCONF_CASE_FIELD_INPUT_STRIDES,
    DMLCONF_CASE_FIELD_OUTPUT_STRIDES,
    DMLCONF_CASE_FIELD_IN_PLACE,
    DMLCONF_CASE_FIELD_OUTPUT_DTYPE,
    DMLCONF_CASE_FIELD_OUTPUT_SIZES,
    DMLCONF_CASE_FIELD_EXPECT_ERROR,
    DMLCONF_CASE_FIELD_MIN_FEATURE_LEVEL,
    DMLCONF_CASE_FIELD_ROUND_INPUTS,
    DMLCONF_CASE_FIELD_TOLERANCE,
    DMLCONF_CASE_FIELD_TAGS,
    DMLCONF_CASE_FIELD_NOTES,
    DMLCONF_CASE_FIELD_INPUT,
    DMLCONF_CASE_FIELD_EXPECTED,
};

int dmlconf_case_write(dmlconf_buffer *text, const dmlconf_case *c, const dmlconf_case_write_options *options)
{
    const dmlconf_tensor_desc *tensors[2] = {&c->desc.input, &c->desc.output};
    for (int t = 0; t < 2; ++t)
    {
        if (tensors[t]->dimension_count > DMLCONF_MAX_DIMENSIONS || tensors[t]->total_size_bytes)
            return -1;
    }
    dmlconf_buffer_append(text, "  -", 3);
    for (size_t i = 0; i < sizeof(field_order) / sizeof(field_order[0]); ++i)
    {
        dmlconf_case_field field = field_order[i];
        bool always =
            field == DMLCONF_CASE_FIELD_ID || field == DMLCONF_CASE_FIELD_SIZES || field == DMLCONF_CASE_FIELD_AXIS;
        if (!always && !writes(options, field))
            continue;
        /* The id goes on the list item's line. */
        if (append_field(text, c, field, field == DMLCONF_CASE_FIELD_ID ? 1 : 4, options))
            return -1;
    }
    return text->failed ? -1 : 0;
}

int dmlconf_case_write_defaults(dmlconf_buffer *text, const dmlconf_case *defaults, uint32_t fields,
                                const dmlconf_case_write_options *options)
{
    const uint32_t supported = (UINT32_C(1) << DMLCONF_CASE_FIELD_OP) | (UINT32_C(1) << DMLCONF_CASE_FIELD_DTYPE);
    if (fields & ~supported)
        return -1;
    dmlconf_buffer_puts(text, "defaults:\n");
    for (size_t i = 0; i < sizeof(field_order) / sizeof(field_order[0]); ++i)
    {
        if ((fields & (UINT32_C(1) << field_order[i])) && append_field(text, defaults, field_order[i], 2, options))
            return -1;
    }
    return text->failed ? -1 : 0;
}

void dmlconf_case_write_comment(dmlconf_buffer *text, const char *format, ...)
{
    dmlconf_buffer line = {0};
    va_list args;
    va_start(args, format);
    dmlconf_buffer_vprintf(&line, format, args);
    va_end(args);
    if (line.failed)
    {
        text->failed = true;
        dmlconf_buffer_free(&line);
        return;
    }
    dmlconf_buffer_append(text, line.length ? "# " : "#", line.length ? 2 : 1);
    for (const char *p = line.data ? line.data : ""; *p;)
    {
        uint32_t code = (unsigned char)*p;
        size_t length = 1;
        if (code >= 0x80)
        {
            length = dmlconf_utf8_decode(p, &code);
            if (!length)
            {
                /* A byte that is not UTF-8. */
                length = 1;
                code = 0;
            }
        }
        if (dmlconf_text_is_control(code, false))
            dmlconf_buffer_append(text, " ", 1);
        else
            dmlconf_buffer_append(text, p, length);
        p += length;
    }
    dmlconf_buffer_append(text, "\n", 1);
    dmlconf_buffer_free(&line);
}
