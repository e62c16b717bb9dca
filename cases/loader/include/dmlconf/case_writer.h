/*
 * dmlconf case writer: the one writer of the case format (cases/README.md),
 * beside its loader. It turns an in-memory dmlconf_case (loaded, generated
 * or shrunk) into YAML text that the loader reads back as the same case:
 * every field, every value bit for bit (floats in a form that parses back
 * without rounding: the shortest exact decimal or a C99 hex float, NaNs as
 * their bits).
 *
 * A case is written in one layout, the corpus's: "  - id: ..." and its keys
 * indented by four spaces, in the order id, op, dtype, sizes, axis,
 * direction, exclusive, input_strides, output_strides, in_place,
 * output_dtype, output_sizes, expect_error, min_feature_level,
 * round_inputs, tolerance, tags, notes, input, expected (the values last).
 * Value lists are flow lists wrapped before a width, continuation lines
 * indented two spaces past their key.
 *
 * The writer appends to a dmlconf_buffer (common's growable text), so a caller composes a file
 * (comments, defaults, cases) in memory and writes it where and how it
 * wants (the generator into the corpus, bless into the file it edits, a
 * reproducer beside a run's reports).
 *
 * Nothing here keeps global state; every function is reentrant.
 */
#ifndef DMLCONF_CASE_WRITER_H
#define DMLCONF_CASE_WRITER_H

#include <dmlconf/buffer.h>
#include <dmlconf/case.h>
#include <dmlconf/compiler.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- writing ------------------------------------------------------------------ */

/* Where value lists are wrapped by default (bless, reproducers). */
#define DMLCONF_CASE_WRITE_WIDTH 120u

/* How cases are written. Zeroed options (or NULL) are the defaults. */
typedef struct dmlconf_case_write_options
{
    /* Float values (inline lists, generator parameters) as C99 hex floats
     * and every NaN as bits:0x... (DMLCONF_VALUE_STYLE_EXACT: what a vendor
     * copies into a test of its own, as reproducers give them); false: the
     * shortest decimal when it is exact, else a hex float
     * (DMLCONF_VALUE_STYLE_READABLE: the corpus and bless). Integers are
     * decimal either way. */
    bool exact_floats;
    /* The longest line a value list makes, its ',' or ']' included (0:
     * DMLCONF_CASE_WRITE_WIDTH); a value longer than the room left still
     * goes on a line of its own. */
    unsigned width;
    /* Fields left out because the file's defaults give them (bit 1u <<
     * dmlconf_case_field): the caller writes the defaults
     * (dmlconf_case_write_defaults) and vouches that they hold the case's
     * values. id, sizes and axis are always written. */
    uint32_t omit;
} dmlconf_case_write_options;

/* Writes one case as an item of a file's `cases:` list, starting with
 * "  - id: " and ending with a line break. What is written:
 * - op, dtype, sizes, axis, direction and exclusive always (but op and
 *   dtype as options->omit says); input_strides and output_strides when
 *   the desc has strides (output_strides in the output's rank); in_place
 *   when true; output_dtype and output_sizes when they differ from the
 *   input's (negative cases only have such descs);
 * - expect_error when set: its reason alone when it is rejected at every
 *   level, else {reason: ..., feature_level: ...};
 * - min_feature_level when c->min_feature_level_explicit;
 * - round_inputs when true; tolerance (every field set in its overrides,
 *   in dmlconf_tolerance_field order) in a positive float32 or float16
 *   case only: elsewhere it has no effect, and the loader refuses one
 *   that a case gives itself;
 * - tags when there are any (a tag that is not a plain word is quoted);
 *   notes when not NULL, double-quoted and escaped (line breaks as \n);
 * - input and expected by their kind (dmlconf_case_write_data).
 * desc.*.total_size_bytes and the marks are not part of the format.
 * Returns 0, or -1 when the case cannot be written (a rank above 8, a
 * total_size_bytes other than 0, inline values of a dtype without values)
 * or memory runs out (text->failed); text may then hold part of the case. */
int dmlconf_case_write(dmlconf_buffer *text, const dmlconf_case *c, const dmlconf_case_write_options *options);

/* Writes a file's "defaults:" block: the fields in `fields` (bit 1u <<
 * dmlconf_case_field; op and dtype are the ones supported) with their values
 * in `defaults`, each as dmlconf_case_write writes it, indented by two
 * spaces. Returns 0, or -1 for a field it cannot write as a default (id,
 * input, expected, or one not supported) or when memory runs out. */
int dmlconf_case_write_defaults(dmlconf_buffer *text, const dmlconf_case *defaults, uint32_t fields,
                                const dmlconf_case_write_options *options);

/* Writes the value of an `input:` or `expected:` key, what follows "key: ":
 * an inline list of data->count values of `type` ("[v, v, ...]"), where
 * `column` is the 0-based column of its '[', wrapped at options->width with
 * continuation lines starting with `newline` and `indent` spaces;
 * {npy: PATH} with the path as written (quoted when it is not a plain
 * path); or {generate: NAME, KEY: VALUE, ..., seed: S} with the keys
 * given, in dmlconf_datagen_key order and the seed last. `newline` NULL is
 * "\n". Returns 0, or -1 for a kind without a value (NONE), inline values
 * of a type without scalar values, or when memory runs out. */
int dmlconf_case_write_data(dmlconf_buffer *text, dmlconf_data_type type, const dmlconf_case_data *data,
                            size_t column, size_t indent, const char *newline,
                            const dmlconf_case_write_options *options);

/* Writes one comment line: "# " and the formatted text, with every
 * character a terminal would act on (line breaks and tabs included) shown
 * as a space, so that the comment stays one line and the file loads (the
 * loader refuses control characters anywhere in a file), then '\n'. An
 * empty text writes "#". */
void dmlconf_case_write_comment(dmlconf_buffer *text, const char *format, ...) DMLCONF_PRINTF_LIKE(2, 3);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_CASE_WRITER_H */
