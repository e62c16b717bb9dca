/*
 * Internal interface of the case loader: the source buffer, the event reader
 * over libyaml, the draft of a case while its keys are read, and the checks
 * that turn a draft into a dmlconf_case.
 */
#ifndef DMLCONF_LOADER_INTERNAL_H
#define DMLCONF_LOADER_INTERNAL_H

#include <dmlconf/case.h>
#include <dmlconf/compiler.h>
#include <dmlconf/text.h> /* dmlconf_strdup */

#include <inttypes.h>
#include <stdarg.h>
#include <yaml.h>

/* Deepest nesting of inline value lists (a tensor has at most 8 dimensions). */
#define LOADER_MAX_NEST DMLCONF_MAX_DIMENSIONS

typedef struct loader loader;

/* ---- strings and diagnostics (diagnostics.c) ------------------------------ */

/* malloc'ed formatted text; NULL when memory runs out. */
char *loader_vformat(const char *format, va_list args);
/* Appends a diagnostic taking ownership of message and snippet (freed on
 * failure). A NULL message counts as running out of memory. Returns 0 or -1. */
int loader_diagnostics_push(dmlconf_diagnostics *list, dmlconf_severity severity, const char *file, uint32_t line,
                            uint32_t column, char *message, char *snippet);

/* The first character of text that a terminal would act on rather than
 * show (a C0 control, DEL, a C1 control, an invisible bidirectional or
 * line-breaking format character), as a code point; 0 when there is none.
 * Tab and newline count as text when allow_tab_and_newline. Diagnostics
 * escape such characters; values kept and printed later (notes, .npy
 * paths, file paths) are refused with it. */
uint32_t loader_control_character(const char *text, bool allow_tab_and_newline);

/* Names a related place on the last diagnostic of the list (see
 * dmlconf_diagnostic). Returns 0 or -1. */
int loader_diagnostics_relate(dmlconf_diagnostics *list, const char *label, const char *file, uint32_t line,
                              uint32_t column);

/* ---- the file's text (source_text.c) -------------------------------------- */

typedef struct loader_source
{
    const char *path;
    char *text; /* NUL-terminated copy */
    size_t size;
    uint32_t *line_starts; /* byte offset of each line, filled by loader_source_scan */
    size_t line_count;
    size_t line_capacity;
    bool ascii; /* every character is one byte (so character index + bom = byte offset) */
    size_t bom; /* 3 when the text starts with a UTF-8 byte order mark */
} loader_source;

/* Copies `size` bytes of text. Returns 0, or -1 when memory runs out or the
 * text is 4 GiB or more. */
int loader_source_init(loader_source *source, const char *path, const void *text, size_t size);
/* Reads a file of at most max_bytes. Returns 0, or -1 with a message in why. */
int loader_source_read(loader_source *source, const char *path, uint64_t max_bytes, char *why, size_t why_size);
/* Checks that the text is UTF-8 made of characters YAML allows, and fills the
 * line table. Returns 0, or -1 with the 1-based position of the first bad
 * character and a message. */
int loader_source_scan(loader_source *source, uint32_t *bad_line, uint32_t *bad_column, char *why, size_t why_size);
void loader_source_free(loader_source *source);
/* A mark from libyaml's 0-based line and character column. */
dmlconf_mark loader_source_mark(const loader_source *source, size_t line, size_t column);
/* A mark from one of libyaml's marks. */
dmlconf_mark loader_source_mark_yaml(const loader_source *source, const yaml_mark_t *mark);
/* libyaml's error (a reader or syntax error) as one message and the mark it
 * points at: "YAML syntax error: did not find expected key while parsing a
 * block mapping (which started at line 3, column 1)". Returns false when
 * libyaml ran out of memory (nothing to point at). */
bool loader_yaml_problem(const loader_source *source, const yaml_parser_t *parser, dmlconf_mark *mark, char *message,
                         size_t size);
/* A hash of the text (64 bits), to see whether a file changed. */
uint64_t loader_source_hash(const char *text, size_t size);
/* A mark from a byte offset. */
dmlconf_mark loader_source_mark_at_offset(const loader_source *source, size_t offset);
/* The source line of `mark` and a caret line under its column, each ending in
 * '\n' (long lines cut around the column); NULL without a position or memory. */
char *loader_source_snippet(const loader_source *source, dmlconf_mark mark);

/* ---- values of a tensor while a case is read (case_data.c) ---------------- */

/* One scalar of an inline list, kept as text until the case's dtype is known. */
typedef struct loader_item
{
    uint32_t text; /* offset in the arena of the NUL-terminated text */
    uint32_t line; /* 0-based, as libyaml gives them */
    uint32_t column;
} loader_item;

/* One generator parameter as written. */
typedef struct loader_param
{
    char *key;
    char *value;
    dmlconf_mark key_mark;
    dmlconf_mark value_mark;
} loader_param;

typedef struct loader_data
{
    dmlconf_case_data_kind kind;
    dmlconf_mark key_mark, key_end, mark, end;
    bool bad;                 /* an error was reported in the node */
    size_t errors;            /* errors in the node (reported or not) */
    size_t errors_summarized; /* errors beyond the shown ones already counted in a summary */
    /* INLINE: values parsed as they are read when the dtype was known
     * (direct), else kept as text in the arena until it is. */
    bool direct;
    bool is_input;
    dmlconf_data_type direct_type;
    unsigned char *values;
    size_t values_size, values_capacity;
    size_t inexact_count; /* direct values that needed rounding: how many, and the first few */
    struct
    {
        uint64_t index;
        uint32_t line, column;
        char *text;
    } inexact[DMLCONF_CASE_MAX_LIST_ERRORS];
    char *arena;
    size_t arena_size, arena_capacity;
    loader_item *items;
    size_t count, capacity;
    uint32_t depth;                    /* nesting depth: 1 for a flat list */
    uint64_t lengths[LOADER_MAX_NEST]; /* list length at each depth (from the first list there) */
    dmlconf_mark length_marks[LOADER_MAX_NEST];
    /* NPY */
    char *npy_text;
    dmlconf_mark npy_mark;
    /* GENERATOR */
    char *generator;
    dmlconf_mark generator_mark;
    loader_param *params;
    size_t param_count, param_capacity;
} loader_data;

void loader_data_free(loader_data *data);
/* Reports an error in a value node, at most DMLCONF_CASE_MAX_LIST_ERRORS per
 * node; marks the node bad. */
void loader_data_error(loader *L, loader_data *data, dmlconf_mark mark, const char *format, ...)
    DMLCONF_PRINTF_LIKE(4, 5);
/* Reports how many errors of the node were not shown, if any. */
void loader_data_error_summary(loader *L, loader_data *data, const char *what);

/* ---- a case while its keys are read ---------------------------------------- */

/* A list of unsigned integers (sizes, strides) with a mark per entry. */
typedef struct loader_uint_list
{
    uint32_t count; /* entries given (may exceed the 8 stored) */
    uint64_t values[DMLCONF_MAX_DIMENSIONS];
    dmlconf_mark marks[DMLCONF_MAX_DIMENSIONS];
} loader_uint_list;

typedef struct loader_draft
{
    bool set[DMLCONF_CASE_FIELD_COUNT];
    bool bad[DMLCONF_CASE_FIELD_COUNT]; /* given, but with an error already reported */
    bool from_defaults[DMLCONF_CASE_FIELD_COUNT];
    dmlconf_mark key_marks[DMLCONF_CASE_FIELD_COUNT];
    dmlconf_mark marks[DMLCONF_CASE_FIELD_COUNT];
    dmlconf_mark mark; /* the mapping */
    bool flow_style;
    char *id;
    dmlconf_operator op;
    dmlconf_data_type dtype;
    dmlconf_data_type output_dtype;
    loader_uint_list sizes, output_sizes, input_strides, output_strides;
    uint64_t axis;
    dmlconf_axis_direction direction;
    bool exclusive, in_place, round_inputs;
    loader_data input, expected;
    dmlconf_case_tolerance tolerance;
    dmlconf_feature_level min_feature_level;
    dmlconf_expect_error expect_error;
    char **tags;
    size_t tag_count, tag_capacity;
    char *notes;
} loader_draft;

/* ---- the loader of one file -------------------------------------------------- */

struct loader
{
    dmlconf_case_file *file;
    loader_source source;
    dmlconf_load_options options;
    const char *folder; /* the file's folder, for relative .npy paths ("" for none) */
    char *folder_storage;

    yaml_parser_t parser;
    bool parser_ready;
    yaml_event_t event;
    bool have_event;
    uint32_t depth;
    bool flow[DMLCONF_CASE_MAX_DEPTH + 2]; /* style of each open collection */
    yaml_mark_t last_end;                  /* end of the last scalar or flow collection */
    bool stop;                             /* a fatal problem: the file stops loading */
    bool out_of_memory;
    size_t errors_at_limit_check;
    size_t *id_slots; /* hash set of the file's case ids: index + 1 into file->cases, 0 = empty */
    size_t id_capacity;
};

/* Reports an error at `mark` (line 0: no position). When the file reaches the
 * error limit, reports that and sets stop. */
void loader_error(loader *L, dmlconf_mark mark, const char *format, ...) DMLCONF_PRINTF_LIKE(3, 4);
/* Like loader_error, naming a related place ("first defined at"). */
void loader_error_related(loader *L, dmlconf_mark mark, const char *related_label, dmlconf_mark related,
                          const char *format, ...) DMLCONF_PRINTF_LIKE(5, 6);
/* Reports that memory ran out and stops the file. */
void loader_out_of_memory(loader *L);

/* ---- events (yaml_events.c) -------------------------------------------------- */

/* Makes sure L->event holds the next event. Returns false when the file must
 * stop (a syntax error, alias, nesting too deep, ... already reported). */
bool loader_peek(loader *L);
/* Drops the current event (after loader_peek). */
void loader_consume(loader *L);
/* Skips the node starting at the current event. Returns false on stop. */
bool loader_skip_node(loader *L);
/* The start mark of the current event. */
dmlconf_mark loader_event_mark(loader *L);
/* The end mark of the current event. */
dmlconf_mark loader_event_end(loader *L);
/* The end of the last scalar or flow collection read (the end of a value). */
dmlconf_mark loader_last_end(loader *L);
/* "a mapping", "a list", "a scalar ..." for messages about the current event. */
const char *loader_event_kind(const loader *L);
/* Reports that the current node is not what `expected` describes and skips it.
 * Returns false on stop. */
bool loader_wrong_node(loader *L, const char *expected);

/* ---- fields (case_fields.c) ---------------------------------------------------- */

/* Reads the value of case key `field` (the current event) into the draft.
 * in_defaults: the draft holds the file's defaults. Returns false on stop. */
bool loader_read_field(loader *L, loader_draft *draft, dmlconf_case_field field);
/* The field whose key is `name`, or DMLCONF_CASE_FIELD_COUNT. */
dmlconf_case_field loader_field_from_name(const char *name);
/* The known key nearest to `name` (for "did you mean"), or NULL. */
const char *loader_suggest(const char *name, const char *const *known, size_t count);

/* ---- values (case_data.c) ------------------------------------------------------ */

/* Reads an input/expected value node (list, {npy: ...} or {generate: ...}).
 * known_type: the case's dtype when it is already certain (inline values are
 * then parsed as they are read), else DMLCONF_DATA_TYPE_UNKNOWN. Returns
 * false on stop. */
bool loader_read_data(loader *L, loader_data *data, bool is_input, dmlconf_data_type known_type);

/* Finishes a value node once the case's desc is known (case_values.c):
 * parses inline values, checks a .npy header or a generator, into *out
 * (which the caller frees with loader_case_data_free). Errors are reported. */
/* Reports the input values that were not exactly representable, unless the
 * case set round_inputs (they were parsed as the list was read, before the
 * case's round_inputs was known). Called when the input is finished, and for
 * an input already in error, so every bad value of a list is reported. */
void loader_report_inexact(loader *L, const loader_draft *d, loader_data *data);
void loader_finish_data(loader *L, const loader_draft *d, const dmlconf_scan_desc *desc, loader_data *data,
                        bool is_input, dmlconf_case_data *out);

/* ---- checks (case_check.c) ----------------------------------------------------- */

/* Copies the file's defaults into a fresh draft. Returns 0 or -1 (memory). */
int loader_draft_copy_defaults(loader_draft *draft, const loader_draft *defaults);
void loader_draft_free(loader_draft *draft);
/* Finds a case id in the loader's id set: its index in file->cases, or
 * SIZE_MAX. */
size_t loader_find_id(const loader *L, const char *id);
/* Checks a complete draft and, when the file's error count is still
 * errors_before (no error in the case), appends the case to the file (moving
 * the draft's memory into it). */
void loader_finish_case(loader *L, loader_draft *draft, size_t errors_before);

/* ---- expected values against the oracle (case_expected.c) -------------------- */

/* Checks a positive case's given expected values (`expected`, finished:
 * inline or .npy) against the oracle's result for its input, when the
 * loader's expected_check takes a case of its size. Every value that
 * disagrees under the case's judging tolerance is an error at its own
 * position (the first DMLCONF_CASE_MAX_LIST_ERRORS; the rest counted),
 * reported through `data` (the draft's expected node). */
void loader_check_expected(loader *L, const loader_draft *d, loader_data *data, const dmlconf_scan_desc *desc,
                           const dmlconf_case_data *input, const dmlconf_case_data *expected);

/* ---- positions of list items (list_marks.c) ---------------------------------- */

/* Finds where items of an inline list are written: `list` is the list
 * node's mark, `indices` (ascending; repeats allowed) count the list's
 * scalars in document order (for a nested list, its logical row-major
 * index). Reads the list's events once more, from the list's own text
 * where it can, else from the start of the file, so a list keeps no mark
 * per item while it loads. Fills marks[i] for indices[i]. Returns 0, or -1
 * when some item was not found (memory, or no such item), leaving the
 * marks not found with line 0. */
int loader_list_item_marks(const loader_source *source, dmlconf_mark list, const uint64_t *indices, size_t count,
                           dmlconf_mark *marks);

/* ---- layouts (case_layout.c) ------------------------------------------------- */

/* Tensors up to this many elements are listed element by element to find
 * two that share a place (as the oracle's dmlconf_tensor_self_overlaps). */
#define LOADER_MAX_LISTED_LAYOUT (UINT64_C(1) << 22)

/* A logical element and the place (element offset) its strides give it. */
typedef struct loader_storage_slot
{
    uint64_t offset;
    uint64_t index;
} loader_storage_slot;

/* Every logical element of the tensor with its place, sorted by place then
 * index (malloc'ed, element_count entries); NULL when memory runs out. */
loader_storage_slot *loader_storage_slots(const dmlconf_tensor_desc *tensor);

/* Whether the output's strides put two output elements in one place; when
 * they do, writes a message naming two such elements (or why none can be
 * named) into message. */
bool loader_output_overlaps(const dmlconf_tensor_desc *output, char *message, size_t size);

/* ---- the tolerance (case_tolerance.c) ----------------------------------------- */

/* Checks a positive case's tolerance for its dtype with the comparator's own
 * check and reports a problem at the field at fault (naming the case when the
 * field came from the defaults). Drops the defaults' fields of another form
 * than the case's own fields choose. A negative case's own tolerance is an
 * error. */
void loader_check_tolerance(loader *L, loader_draft *draft, bool negative);

/* ---- case memory (case.c) ----------------------------------------------------- */

void loader_case_free(dmlconf_case *c);
void loader_case_data_free(dmlconf_case_data *data);

#endif /* DMLCONF_LOADER_INTERNAL_H */
