/*
 * dmlconf cases: the model of one conformance case and the loader of the YAML
 * case files (cases/README.md describes the format).
 *
 * Loading never stops at the first problem: every error of a file is collected
 * as a diagnostic (file:line:column, message, source line and caret), a bad
 * case is skipped and the next one loaded, and a bad file never stops other
 * files of a corpus from loading. Only a YAML syntax error (or a hostile file:
 * binary data, aliases, nesting too deep) ends the loading of its own file.
 *
 * Nothing here keeps global state; every function is reentrant. Objects filled
 * by a *_load function own all their memory and are released by the matching
 * *_free function.
 */
#ifndef DMLCONF_CASE_H
#define DMLCONF_CASE_H

#include <dmlconf/compiler.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <dmlconf/datagen.h>
#include <dmlconf/oracle.h>
#include <dmlconf/tolerance.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Default limits (dmlconf_load_options). */
#define DMLCONF_CASE_MAX_FILE_BYTES   (UINT64_C(256) << 20)
#define DMLCONF_CASE_MAX_DEPTH        32u
#define DMLCONF_CASE_MAX_SCALAR_BYTES (1u << 20)
#define DMLCONF_CASE_MAX_ERRORS       100u
/* Value errors reported per list before the rest are only counted. */
#define DMLCONF_CASE_MAX_LIST_ERRORS 8u
/* The longest case id and case file path, in bytes: what every result,
 * report and baseline line carries whole. A longer one is an error where it
 * is written (the id) or before the file is read (the path). */
#define DMLCONF_CASE_MAX_ID_BYTES   128u
#define DMLCONF_CASE_MAX_PATH_BYTES 255u

/* ---- source positions and diagnostics ------------------------------------ */

/* A position in a case file. line and column are 1-based (column counts
 * characters); line 0 means "no position" (a field that was not given).
 * offset is the byte offset of the position in the file. */
typedef struct dmlconf_mark
{
    uint32_t line;
    uint32_t column;
    uint64_t offset;
} dmlconf_mark;

typedef enum dmlconf_severity
{
    DMLCONF_SEVERITY_ERROR = 0,
    DMLCONF_SEVERITY_NOTE = 1,
} dmlconf_severity;

/* One message. `file` may be NULL (a message about no file); line 0 means the
 * message has no position. `snippet` is NULL or the offending source line and
 * a caret line under the column, each ending in '\n'. A message about two
 * places (a duplicate id) names the other one in related_*: it is printed
 * after the message as " (<related_label> path:line:column)". */
typedef struct dmlconf_diagnostic
{
    dmlconf_severity severity;
    char *file;
    uint32_t line;
    uint32_t column;
    char *message;
    char *snippet;
    char *related_label; /* NULL: no related place */
    char *related_file;
    uint32_t related_line;
    uint32_t related_column;
} dmlconf_diagnostic;

/* A growable list of diagnostics; error_count counts the errors among them. */
typedef struct dmlconf_diagnostics
{
    dmlconf_diagnostic *items;
    size_t count;
    size_t capacity;
    size_t error_count;
} dmlconf_diagnostics;

/* Appends a diagnostic without a source snippet. `file` may be NULL and line 0
 * (no position). Copies every string. Returns 0, or -1 when memory runs out
 * (the list is left as it was, except that error_count still counts an error
 * so that a failed load never looks clean). */
int dmlconf_diagnostics_add(dmlconf_diagnostics *list, dmlconf_severity severity, const char *file, uint32_t line,
                            uint32_t column, const char *format, ...)
    DMLCONF_PRINTF_LIKE(6, 7)
    ;

/* Writes every diagnostic in order, netplan style:
 *   path:line:column: error: message
 *   <source line>
 *   <caret line>
 * A file path that starts with base_dir followed by '/' is printed without
 * that prefix (base_dir may be NULL). Returns 0, or -1 on a write error. */
int dmlconf_diagnostics_print(const dmlconf_diagnostics *list, const char *base_dir, FILE *out);

/* The same text as dmlconf_diagnostics_print, in a NUL-terminated string that
 * the caller frees with free(). Returns NULL when memory runs out. */
char *dmlconf_diagnostics_format(const dmlconf_diagnostics *list, const char *base_dir);

/* Frees every diagnostic and resets the list to empty. */
void dmlconf_diagnostics_free(dmlconf_diagnostics *list);

/* ---- the case model -------------------------------------------------------- */

/* Every key of a case, to index dmlconf_case.marks. */
typedef enum dmlconf_case_field
{
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
    DMLCONF_CASE_FIELD_INPUT,
    DMLCONF_CASE_FIELD_EXPECTED,
    DMLCONF_CASE_FIELD_ROUND_INPUTS,
    DMLCONF_CASE_FIELD_TOLERANCE,
    DMLCONF_CASE_FIELD_MIN_FEATURE_LEVEL,
    DMLCONF_CASE_FIELD_EXPECT_ERROR,
    DMLCONF_CASE_FIELD_TAGS,
    DMLCONF_CASE_FIELD_NOTES,
    DMLCONF_CASE_FIELD_COUNT
} dmlconf_case_field;

/* The key's name as written in case files ("input_strides"); NULL outside
 * the enum. */
const char *dmlconf_case_field_name(dmlconf_case_field field);

/* Where the values of an input or expected tensor come from. */
typedef enum dmlconf_case_data_kind
{
    DMLCONF_CASE_DATA_NONE = 0,  /* absent (expected: computed by the oracle) */
    DMLCONF_CASE_DATA_INLINE,    /* values written in the case file */
    DMLCONF_CASE_DATA_NPY,       /* a .npy file */
    DMLCONF_CASE_DATA_GENERATOR, /* a seeded generator */
} dmlconf_case_data_kind;

/* The values of one tensor, in logical (packed row-major) order. */
typedef struct dmlconf_case_data
{
    dmlconf_case_data_kind kind;
    dmlconf_mark key_mark; /* the key ("input:") */
    dmlconf_mark key_end;  /* just after the key's text */
    dmlconf_mark mark;     /* the value node (the list, or the mapping) */
    dmlconf_mark end;      /* just after the value's last token */
    /* INLINE: `count` packed elements of the case's dtype (element_count). */
    void *values;
    uint64_t count;
    /* NPY: the path as written, the path to open (relative to the YAML
     * file's folder, or absolute), and where the data starts in the file.
     * The header was checked at load time (dtype, shape, size). */
    char *npy_text;
    char *npy_path;
    uint64_t npy_data_offset;
    dmlconf_mark npy_mark;
    /* GENERATOR: the checked generator. */
    dmlconf_datagen_spec generator;
} dmlconf_case_data;

/* A case's tolerance: the fields it gives (itself or through the file's
 * defaults) as overrides of the comparator's defaults (dmlconf/tolerance.h).
 * The loader has checked them with dmlconf_tolerance_resolve for the case's
 * dtype, so they always resolve; a case's own fields of one form replace
 * the defaults' fields of another form. */
typedef struct dmlconf_case_tolerance
{
    dmlconf_tolerance_overrides overrides;
    dmlconf_mark marks[DMLCONF_TOLERANCE_FIELD_COUNT]; /* each field's value; line 0 when not given */
    bool from_defaults[DMLCONF_TOLERANCE_FIELD_COUNT]; /* the field came from the file's defaults */
} dmlconf_case_tolerance;

/* A negative case's expectation. */
typedef struct dmlconf_expect_error
{
    bool set;
    dmlconf_reason reason;
    dmlconf_feature_level feature_level; /* NONE: rejected at every level */
} dmlconf_expect_error;

/* One loaded, checked case. Every string and buffer is owned by the case (and
 * so by the dmlconf_case_file holding it). */
typedef struct dmlconf_case
{
    char *id;
    const char *file;                             /* the case file's path (owned by the dmlconf_case_file) */
    dmlconf_mark mark;                            /* the case's mapping */
    bool flow_style;                              /* the case is a flow mapping ({id: ..., ...}) */
    dmlconf_mark marks[DMLCONF_CASE_FIELD_COUNT]; /* each key's value node; line 0 when absent */
    bool from_defaults[DMLCONF_CASE_FIELD_COUNT]; /* the value came from the file's defaults */

    dmlconf_scan_desc desc;
    dmlconf_feature_level min_feature_level; /* explicit, or derived (NONE for a case rejected at every level) */
    bool min_feature_level_explicit;

    dmlconf_case_data input;
    dmlconf_case_data expected;
    bool round_inputs;
    dmlconf_case_tolerance tolerance;
    dmlconf_expect_error expect_error;

    char **tags;
    size_t tag_count;
    char *notes; /* NULL when absent */
} dmlconf_case;

/* The number of logical elements of the case's input (and output) tensor. */
uint64_t dmlconf_case_element_count(const dmlconf_case *c);

/* Size of one element of the case's dtype in bytes (4, 2 or 8); 0 for a dtype
 * that has no values (negative cases only). */
size_t dmlconf_case_element_size(const dmlconf_case *c);

/* The bytes of a case's buffers, as a run lays them out. */
typedef struct dmlconf_case_buffers
{
    uint64_t input;    /* the input buffer, laid out by its strides: its minimum size
                        * (dmlconf_tensor_min_size_bytes), or total_size_bytes if larger */
    uint64_t output;   /* the output buffer, the same way; 0 for in_place (the input's buffer) */
    uint64_t logical;  /* one packed copy of the tensor (elements x element size): the logical
                        * input, the oracle's values */
    uint64_t expected; /* the case's expected values (logical), or 0 when it has none */
} dmlconf_case_buffers;

/* Computes the bytes of the case's buffers from its descs alone (nothing is
 * allocated or read). A run needs at most input + output + logical +
 * expected bytes, plus scratch memory for one line of the scanned axis.
 * Returns false, with *out zeroed, for a case whose dtype and sizes
 * describe no tensor of values (a negative case's) or when a size overflows
 * 64 bits. */
bool dmlconf_case_buffer_bytes(const dmlconf_case *c, dmlconf_case_buffers *out);

/* The tolerance to judge the case's output with: the output type's
 * defaults and the case's tolerance fields (checked when the case loaded).
 * `exact_backend`: the results come from a backend that claims the
 * oracle's exact values (the oracle itself); they must then match bit for
 * bit, signed zeros included, unless the case gives both expected values
 * and a tolerance: expected values written by hand (a peer suite's golden
 * values) are judged with the case's own tolerance. */
void dmlconf_case_judging_tolerance(const dmlconf_case *c, bool exact_backend, dmlconf_tolerance *tol);

/* Copies logical elements [first, first + count) of `data` (the case's input
 * or expected) into `out` as packed little-endian elements of the case's
 * dtype (dmlconf/values.h). Reads inline values, a .npy file (opened for each call, so
 * huge tensors can be read in chunks) or runs the generator; every source
 * gives the same bytes however the range is cut into chunks.
 * Returns 0, or -1 with a message in why (why_size bytes, may be 0) when the
 * range is outside the tensor, the data is absent (NONE), or a .npy file
 * cannot be read. */
int dmlconf_case_data_read(const dmlconf_case *c, const dmlconf_case_data *data, uint64_t first, uint64_t count,
                           void *out, char *why, size_t why_size);

/* ---- case files and the corpus --------------------------------------------- */

/* Positive cases of up to this many elements have the expected values
 * they give checked against the oracle at every load; larger ones only
 * under DMLCONF_EXPECTED_CHECK_ALL (`dmlconf validate`). */
#define DMLCONF_CASE_CHECK_EXPECTED_MAX_ELEMENTS (UINT64_C(1) << 20)

/* Which cases' given expected values (inline or .npy) the loader checks
 * against the oracle. The oracle computes each case once more and the
 * comparator judges the given values as it would judge a self-check's
 * output (dmlconf_case_judging_tolerance with exact_backend: bit for bit,
 * signed zeros included, unless the case gives a tolerance, then by that
 * tolerance); a value that disagrees is an error at its own position. */
typedef enum dmlconf_expected_check
{
    DMLCONF_EXPECTED_CHECK_BOUNDED = 0, /* cases of up to DMLCONF_CASE_CHECK_EXPECTED_MAX_ELEMENTS elements */
    DMLCONF_EXPECTED_CHECK_ALL,         /* cases of every size */
    DMLCONF_EXPECTED_CHECK_NONE,        /* none (values about to be replaced, as by bless --all) */
} dmlconf_expected_check;

/* Limits of the loader; every zero field takes its DMLCONF_CASE_* default. */
typedef struct dmlconf_load_options
{
    uint64_t max_file_bytes;
    uint32_t max_depth;
    uint32_t max_scalar_bytes;
    uint32_t max_errors; /* a file stops loading after this many errors */
    uint32_t threads;    /* corpus loading: files loaded at once (0: one per CPU) */
    dmlconf_expected_check expected_check;
} dmlconf_load_options;

/* One loaded file: its valid cases in file order, and its diagnostics. */
typedef struct dmlconf_case_file
{
    char *path;
    dmlconf_case *cases;
    size_t case_count;
    size_t case_capacity;
    size_t cases_seen; /* cases in the file, valid or not */
    dmlconf_diagnostics diagnostics;
    bool stopped;          /* loading ended early (syntax error, hostile input, I/O) */
    uint64_t source_bytes; /* the file's size when loaded */
    uint64_t source_hash;  /* a hash of its bytes, so bless can see a change */
} dmlconf_case_file;

/* Loads and checks one case file, the expected values its cases give
 * included (against the oracle, as options->expected_check says: by default
 * in cases of up to DMLCONF_CASE_CHECK_EXPECTED_MAX_ELEMENTS elements).
 * `file` is overwritten (not freed first) and must be released with
 * dmlconf_case_file_free whatever the result; options may be NULL. Returns
 * the number of errors (0: every case is valid). Running out of memory is
 * reported as an error too. */
size_t dmlconf_case_file_load(dmlconf_case_file *file, const char *path, const dmlconf_load_options *options);

/* Like dmlconf_case_file_load, for a file already in memory: `path` names it
 * in diagnostics and anchors relative .npy paths; `text` (size bytes, need not
 * be NUL-terminated) is only read during the call. */
size_t dmlconf_case_file_load_buffer(dmlconf_case_file *file, const char *path, const void *text, size_t size,
                                     const dmlconf_load_options *options);

/* Frees everything the file owns and zeroes it. NULL is allowed. */
void dmlconf_case_file_free(dmlconf_case_file *file);

/* Reports, into `out`, every id defined more than once across `files` (and
 * within one file): "duplicate id 'x' (first defined at a.yaml:3:5)" at the
 * later definition. Returns the number of duplicates found, or SIZE_MAX when
 * memory runs out (an error is added to `out`, if possible). */
size_t dmlconf_case_check_duplicate_ids(const dmlconf_case_file *files, size_t file_count, dmlconf_diagnostics *out);

/* Several files loaded independently. `diagnostics` holds the corpus-level
 * messages (unreadable folders, duplicate ids across files); each file holds
 * its own. */
typedef struct dmlconf_case_corpus
{
    dmlconf_case_file *files;
    size_t file_count;
    size_t file_capacity;
    dmlconf_diagnostics diagnostics;
    size_t case_count;  /* valid cases over all files */
    size_t error_count; /* errors over all files and the corpus */
} dmlconf_case_corpus;

/* Loads every path: a file is loaded as is; a folder is searched recursively
 * for *.yaml files (hidden entries skipped). All files are sorted by path and
 * loaded independently (several at once, on options->threads threads), kept
 * in that order, then checked for duplicate ids.
 * `corpus` is overwritten and must be released with dmlconf_case_corpus_free.
 * Returns corpus->error_count. */
size_t dmlconf_case_corpus_load(dmlconf_case_corpus *corpus, const char *const *paths, size_t path_count,
                                const dmlconf_load_options *options);

/* Prints every file's diagnostics (in load order), then the corpus's.
 * Returns 0, or -1 on a write error. */
int dmlconf_case_corpus_print(const dmlconf_case_corpus *corpus, const char *base_dir, FILE *out);

/* Frees the corpus and everything in it; NULL is allowed. */
void dmlconf_case_corpus_free(dmlconf_case_corpus *corpus);

/* ---- bless ------------------------------------------------------------------ */

/* A case with a generated input gets its expected values inline up to this
 * many values, and in an .npy file beside the case file beyond. */
#define DMLCONF_BLESS_MAX_INLINE_VALUES 1024u

typedef struct dmlconf_bless_options
{
    bool all; /* also recompute cases that already have an expected */
} dmlconf_bless_options;

/* Completes a loaded file with the oracle's results: every positive case
 * without `expected` (every positive case with options->all) gets an inline
 * `expected:` list after its `input` (or in place of its old expected),
 * formatted so that it parses back to the same bits; cases whose input is a
 * .npy file get a sibling "<id>.expected.npy" and `expected: {npy: ...}`,
 * and so do cases with a generated input of more than
 * DMLCONF_BLESS_MAX_INLINE_VALUES values (the file beside the case file).
 * Inputs are never rewritten: a generator stays a generator.
 * Negative cases are left alone and every other byte of the file stays as it
 * was, comments included. The file is written to a temporary file beside it
 * and renamed over it.
 * Refuses (returns -1, with an error in diags) a file that loaded with errors
 * or changed since it was loaded; also returns -1 when the oracle fails or on
 * an I/O error, leaving the file as it was. Otherwise returns the number of
 * cases blessed (0 leaves the file untouched). options may be NULL. */
long dmlconf_case_file_bless(const dmlconf_case_file *file, const dmlconf_bless_options *options,
                             dmlconf_diagnostics *diags);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_CASE_H */
