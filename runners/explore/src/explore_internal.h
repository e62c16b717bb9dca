/*
 * The explore room's internal interface (dmlconf/explore.h is its public
 * one): random differential testing against the oracle.
 *
 * A run draws random valid descs and inputs (and, at a controlled rate,
 * invalid descs the backend must refuse), runs them on a backend in
 * rounds, judges them exactly as `dmlconf run` does (runner_execute), and
 * for each distinct failure signature shrinks one failing case into a
 * standalone YAML reproducer. It steers towards the cells of the desc
 * space that no case has exercised yet.
 *
 * Reproducibility: case i of a run is a function of the run's seed, its
 * options (level, size budget, negative rate), what the backend declares
 * (capabilities, boundaries) and the cases 0 .. i-1 (the steering counts
 * cases as they are generated, never results), so the same seed and
 * options give the same sequence whatever the timing, the number of
 * workers or the rounds, and a stopped run resumes exactly where its last
 * finished round ended.
 *
 * Everything here is internal to the dmlconf command (runner.h).
 */
#ifndef DMLCONF_EXPLORE_INTERNAL_H
#define DMLCONF_EXPLORE_INTERNAL_H

#include <dmlconf/case_writer.h>
#include <dmlconf/runner.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- random numbers (explore_random.c) -------------------------------------- */

/* splitmix64: small, fast, and the same on every platform. */
typedef struct explore_random
{
    uint64_t state;
} explore_random;

/* A stream for (seed, stream): different streams of one seed are
 * unrelated. */
void explore_random_seed(explore_random *random, uint64_t seed, uint64_t stream);
/* The next 64 random bits. */
uint64_t explore_random_next(explore_random *random);
/* Uniform in [0, bound); 0 when bound is 0. */
uint64_t explore_random_below(explore_random *random, uint64_t bound);
/* Uniform in [low, high] (low <= high). */
uint64_t explore_random_range(explore_random *random, uint64_t low, uint64_t high);
/* True with probability percent / 100. */
bool explore_random_percent(explore_random *random, unsigned percent);

/* ---- the desc space and its cells (explore_space.c) -------------------------- */

/* The six data types the operators compute, in the cells' order. */
#define EXPLORE_TYPE_COUNT 6u
dmlconf_data_type explore_type_at(unsigned index);
/* The index of a type, or EXPLORE_TYPE_COUNT for one that is not
 * computable. */
unsigned explore_type_index(dmlconf_data_type type);

/* Where the scanned axis lies among the dimensions. */
typedef enum explore_axis_position
{
    EXPLORE_AXIS_ONLY,   /* rank 1 */
    EXPLORE_AXIS_FIRST,  /* the slowest dimension */
    EXPLORE_AXIS_MIDDLE, /* between others (rank 3 and above) */
    EXPLORE_AXIS_LAST,   /* the fastest dimension */
    EXPLORE_AXIS_POSITION_COUNT
} explore_axis_position;

/* The layout class of a desc, the most special feature first. */
typedef enum explore_layout_class
{
    EXPLORE_LAYOUT_PACKED,    /* both tensors packed row-major */
    EXPLORE_LAYOUT_PADDED,    /* strides larger than packed, row-major order */
    EXPLORE_LAYOUT_PERMUTED,  /* a tensor's dimensions stored in another order */
    EXPLORE_LAYOUT_BROADCAST, /* an input stride of 0 in a dimension of more than one element */
    EXPLORE_LAYOUT_IN_PLACE,  /* the output bound to the input's buffer */
    EXPLORE_LAYOUT_COUNT
} explore_layout_class;

/* The class of the scanned axis's length. */
typedef enum explore_size_class
{
    EXPLORE_SIZE_ONE,        /* 1 */
    EXPLORE_SIZE_SMALL,      /* 2 to 6 */
    EXPLORE_SIZE_POWER,      /* 2^k, k >= 3 */
    EXPLORE_SIZE_NEAR_POWER, /* 2^k - 1 or 2^k + 1, k >= 3 */
    EXPLORE_SIZE_BOUNDARY,   /* m * b - 1, m * b or m * b + 1 (m = 1 to 4) for a boundary b the backend declares */
    EXPLORE_SIZE_OTHER,      /* anything else */
    EXPLORE_SIZE_CLASS_COUNT
} explore_size_class;

/* One cell of the desc space. */
typedef struct explore_cell
{
    uint8_t type;          /* explore_type_at */
    uint8_t product;       /* 0: summation, 1: product */
    uint8_t rank;          /* 1 to 8 */
    uint8_t axis_position; /* explore_axis_position */
    uint8_t decreasing;
    uint8_t exclusive;
    uint8_t layout;     /* explore_layout_class */
    uint8_t size_class; /* explore_size_class */
} explore_cell;

#define EXPLORE_CELL_COUNT                                                                                             \
    ((size_t)EXPLORE_TYPE_COUNT * 2u * DMLCONF_MAX_DIMENSIONS * EXPLORE_AXIS_POSITION_COUNT * 2u * 2u *                \
     EXPLORE_LAYOUT_COUNT * EXPLORE_SIZE_CLASS_COUNT)

/* A dense index of a cell (0 .. EXPLORE_CELL_COUNT-1), and back. */
size_t explore_cell_index(const explore_cell *cell);
explore_cell explore_cell_at(size_t index);

/* Whether a cell can hold any desc at all (an axis position its rank has,
 * a permutation with two dimensions or more). */
bool explore_cell_exists(const explore_cell *cell);

/* A cell's name, a valid case id: "explore.float32.sum.r3.middle.dec.excl.broadcast.boundary". */
void explore_cell_name(const explore_cell *cell, char *out, size_t size);

/* Names of the classes, for tables. */
const char *explore_axis_position_name(explore_axis_position position);
const char *explore_layout_name(explore_layout_class layout);
const char *explore_size_class_name(explore_size_class size_class);

/* The boundaries that decide the size class: the backend's axis-length
 * boundaries. */
typedef struct explore_boundaries
{
    dmlconf_boundary *items;
    size_t count;
} explore_boundaries;

/* Whether `n` is within one of m * b (m = 1 to 4) for an axis-length
 * boundary b that applies to `type`. */
bool explore_near_boundary(const explore_boundaries *boundaries, dmlconf_data_type type, uint64_t n);

/* The class of an axis length. */
explore_size_class explore_size_class_of(const explore_boundaries *boundaries, dmlconf_data_type type, uint64_t n);

/* The layout class of a (valid) desc. */
explore_layout_class explore_layout_class_of(const dmlconf_scan_desc *desc);

/* The cell of a structurally valid desc of a computable type (negative
 * descs have none). Returns false when the desc has no cell. */
bool explore_cell_of(const dmlconf_scan_desc *desc, const explore_boundaries *boundaries, explore_cell *out);

/* The lowest feature level at which a cell's descs can be valid. */
dmlconf_feature_level explore_cell_min_level(const explore_cell *cell);

/* Whether a run at `level` on a backend with `capabilities` and
 * `boundaries` may generate descs in the cell. */
bool explore_cell_allowed(const explore_cell *cell, dmlconf_feature_level level,
                          const dmlconf_backend_capabilities *capabilities, const explore_boundaries *boundaries);

/* ---- coverage (explore_coverage.c) --------------------------------------------- */

/* What the cases of one cell came to. */
typedef struct explore_tally
{
    uint32_t generated;                      /* cases generated in it (the steering's count) */
    uint32_t statuses[DMLCONF_STATUS_COUNT]; /* cases judged, per status */
    double wall_seconds;                     /* their wall times, summed */
    double backend_seconds;                  /* their device times, summed (where known) */
} explore_tally;

/* The record of which cells a run exercised, and how. */
typedef struct explore_coverage
{
    explore_tally *cells;   /* EXPLORE_CELL_COUNT tallies */
    bool *allowed;          /* per cell: the run may generate it */
    uint32_t *allowed_list; /* the allowed cells' indices */
    size_t allowed_count;
    uint64_t negative_generated[DMLCONF_REASON_COUNT]; /* invalid descs generated, per reason */
    uint64_t negative_statuses[DMLCONF_REASON_COUNT][DMLCONF_STATUS_COUNT];
} explore_coverage;

/* Allocates an empty record whose allowed cells are those
 * explore_cell_allowed accepts. Returns 0, or -1 when memory runs out. */
int explore_coverage_init(explore_coverage *coverage, dmlconf_feature_level level,
                          const dmlconf_backend_capabilities *capabilities, const explore_boundaries *boundaries);
void explore_coverage_free(explore_coverage *coverage);

/* Counts one judged result in its cell (or, for a negative case, its
 * reason's row). */
void explore_coverage_record(explore_coverage *coverage, size_t cell, bool negative, dmlconf_reason reason,
                             const dmlconf_case_result *result);

/* Prints the coverage on `out`: cells exercised over cells allowed, as a
 * whole and per data type, operator, rank and axis position, direction
 * and mode, layout and size class, and the negative descs per reason. */
void explore_coverage_print(FILE *out, const explore_coverage *coverage);

/* Writes one CSV line per allowed cell (name, its fields, cases per
 * status). Returns 0, or -1 on a write error. */
int explore_coverage_write_csv(FILE *out, const explore_coverage *coverage);

/* The cells of a corpus: counts[i] receives how many valid positive cases
 * of `cases` fall into cell i (counts: EXPLORE_CELL_COUNT zeroed entries). */
void explore_coverage_of_cases(const dmlconf_case *const *cases, size_t count, const explore_boundaries *boundaries,
                               uint32_t *counts);

/* ---- layouts and generated cases (explore_case.c) ------------------------------- */

/* One generated case. */
typedef struct explore_spec
{
    uint64_t index; /* its position in the run's sequence */
    dmlconf_scan_desc desc;
    runner_layout layout; /* positive cases: the run engine's recipe, kept by the shrinker where it matters */
    bool negative;
    dmlconf_reason reason;       /* negative: the oracle's reason at `level` */
    dmlconf_feature_level level; /* the run's target level */
    void *values;                /* positive: the logical input, packed; owned */
    uint64_t count;              /* its elements */
} explore_spec;

/* Frees the values and zeroes the spec. NULL is ignored. */
void explore_spec_free(explore_spec *spec);
/* Copies a spec (values included) into *copy. Returns 0, or -1 when memory
 * runs out (*copy zeroed). */
int explore_spec_copy(const explore_spec *spec, explore_spec *copy);

/* Fills *c as an in-memory case of the spec, with `id` (copied) as its id
 * and `file` (kept, not copied) as its file. The case's input points at
 * the spec's values, which must outlive it. Returns 0, or -1 when memory
 * runs out. Release it with explore_case_release. */
int explore_case_from_spec(const explore_spec *spec, const char *id, const char *file, dmlconf_case *c);
void explore_case_release(dmlconf_case *c);

/* Appends the spec as one case of a case file (starting "  - id: ID") with
 * the case writer: tagged explore, values exact (hex floats), so that the
 * loader reads back the same case; `notes` (may be NULL) becomes its notes.
 * Returns 0, or -1 when memory runs out (text->failed) or the spec is not
 * a case the format holds. */
int explore_write_case(dmlconf_buffer *text, const explore_spec *spec, const char *id, const char *notes);

/* ---- generating cases (explore_generate.c, explore_values.c) --------------------- */

typedef struct explore_options
{
    uint64_t seed;
    dmlconf_feature_level level; /* the target level (never NONE here) */
    uint64_t max_elements;       /* the most elements of one generated tensor */
    unsigned negative_percent;   /* invalid descs per hundred cases, where the backend validates */
} explore_options;

typedef struct explore_generator
{
    explore_options options;
    dmlconf_backend_capabilities capabilities;
    explore_boundaries boundaries; /* every boundary the backend declares (owned) */
    explore_coverage *coverage;    /* steered by; not owned */
} explore_generator;

/* Generates case `index` into *out (its values owned by it), steering by
 * the coverage's generated counts, and counts it there (its cell, or its
 * reason for a negative case). Returns 0, or -1 when memory runs out. */
int explore_generate(explore_generator *generator, uint64_t index, explore_spec *out);

/* Fills a positive spec's logical values for its desc from `random`:
 * small integers, uniform values, wide exponents, special values,
 * cancellation, integer limits, products near one, chosen at random. Each
 * stored element's value depends only on its storage offset, so
 * broadcast elements agree. Returns 0, or -1 when memory runs out. */
int explore_fill_values(explore_spec *spec, explore_random *random);

/* The cell of a positive spec (its desc's). */
bool explore_spec_cell(const explore_generator *generator, const explore_spec *spec, size_t *cell);

/* A digest of everything the sequence depends on besides the cases before:
 * the options, the capabilities and the boundaries (resume checks it). */
uint64_t explore_generator_fingerprint(const explore_generator *generator);

/* ---- failures and findings (explore_finding.c) ----------------------------------- */

/* Distinct findings kept; further signatures count in the last one. */
#define EXPLORE_MAX_FINDINGS 200u

/* A failure's signature: its status, what failed, and for wrong values
 * the scan's mode and the earliest position along a scan where a mismatch
 * fell, as dot-separated words that make a valid case id tail:
 * "fail.values.inclusive.at-1". */
void explore_signature(const explore_spec *spec, const dmlconf_case_result *result, char *out, size_t size);

/* One distinct failure signature. */
typedef struct explore_finding
{
    char signature[128];
    dmlconf_status status;
    uint64_t count;           /* random cases that hit it */
    uint64_t first_cases;     /* cases of the sequence up to its first case (its index + 1) */
    double first_seconds;     /* seconds into the run when it was first seen */
    explore_spec first;       /* the first case that hit it */
    char first_message[1024]; /* its result's message */
    dmlconf_comparison first_comparison;
    uint64_t by_type[EXPLORE_TYPE_COUNT];
    uint64_t by_product[2];
    uint64_t by_layout[EXPLORE_LAYOUT_COUNT];
    uint64_t by_rank[DMLCONF_MAX_DIMENSIONS + 1];
    uint64_t by_exclusive[2];
    uint64_t by_decreasing[2];
    /* The reproducer, once written. */
    bool shrunk;                                 /* the reproducer is shrunk (else it is the first case as it was) */
    char repro[DMLCONF_CASE_MAX_PATH_BYTES + 1]; /* its path; "" before it is written */
    char repro_id[160];                          /* the case id in it */
    char summary[512];                           /* how it was shrunk, or why not */
    bool has_shrunk_cell;
    explore_cell shrunk_cell;
    char key[160];        /* explore_shrunk_key of the shrunk case; "" when not shrunk */
    char also[1024];      /* signatures of findings that shrank to the same key, merged into this one */
    int64_t corpus_cases; /* corpus cases in the reproducer's cell; -1: not known */
} explore_finding;

typedef struct explore_findings
{
    explore_finding *items;
    size_t count, capacity;
} explore_findings;

/* Counts a failing result: a new signature becomes a finding (the spec
 * copied as its first case), a known one counts once more (and takes the
 * spec as its first case when it comes earlier in the sequence).
 * `seconds` says how far into the run it is. Returns the finding's
 * position, or -1 when memory runs out. */
long explore_findings_add(explore_findings *findings, const explore_spec *spec, const dmlconf_case_result *result,
                          double seconds);

/* Moves a round's findings into `findings`: a known signature adds its
 * counts, a new one is appended (new ones in the order of their first
 * case in the sequence, so numbering does not depend on timing). Writes
 * the positions of the new findings into `added` (room for round->count)
 * and returns how many; -1 when memory runs out. `round` is left empty. */
long explore_findings_merge(explore_findings *findings, explore_findings *round, size_t *added);
/* Merges finding `from` into finding `into` (into < from): its counts are
 * added, its signature (and those merged into it) recorded in into->also,
 * so that later cases with them count in `into`, and it is removed from
 * the list (the positions after it move down by one). */
void explore_findings_absorb(explore_findings *findings, size_t into, size_t from);

void explore_findings_free(explore_findings *findings);

/* ---- shrinking (explore_shrink.c) ---------------------------------------------- */

typedef struct explore_shrink_options
{
    runner_backend *backend; /* open */
    const runner_config *config;
    const explore_boundaries *boundaries;
    int max_tries;      /* backend runs one shrink may spend */
    double max_seconds; /* and seconds */
} explore_shrink_options;

/* What a shrink came to. */
typedef struct explore_shrunk
{
    explore_spec spec;          /* the smallest case that still fails the same way (owned) */
    dmlconf_case_result result; /* its result */
    int tries;
    bool reproduced; /* the case failed the same way when run again (else spec is the original) */
} explore_shrunk;

/* Shrinks a failing spec with the run engine's shrinker
 * (runner_shrink_case) while it still fails with the same signature's
 * status and kind of failure on the backend, judged by runner_execute: a
 * shorter axis, smaller other dimensions, a lower rank, a simpler layout
 * (kept where it makes the difference), an increasing or inclusive scan, a
 * simpler type, fewer non-trivial values. Returns 0 with *out filled (free
 * out->spec), or -1 when memory runs out. */
int explore_shrink(const explore_shrink_options *options, const explore_spec *spec, const char *signature,
                   explore_shrunk *out);

/* The shape a failure shrank to, as a key that findings of one cause
 * share: the status and what failed, then the data type, operator, rank,
 * axis length and position, layout class, direction and mode of the
 * shrunk case ("fail.values FLOAT16 sum r1 n2 axis0 packed increasing
 * inclusive"). */
void explore_shrunk_key(const explore_spec *spec, const dmlconf_case_result *result, char *out, size_t size);

/* Writes a finding's reproducer, `spec` (its first case, or the shrunk
 * one with its result), as a standalone case file at `path`: the case
 * with exact values, and comments that say what failed, how often, the
 * seed and index that produced it and the command that regenerates the
 * unshrunk case. Returns 0, or -1 with why set. */
typedef struct explore_repro_context
{
    const explore_finding *finding;
    const char *backend;               /* the backend's name */
    const char *regenerate;            /* the command that regenerates the first case */
    const dmlconf_case_result *result; /* the reproducer's own result (NULL: the first case's) */
    int tries;                         /* backend runs the shrink took (0: not shrunk) */
    const char *command;               /* what follows the file in `dmlconf run` (NULL, or " -- COMMAND") */
} explore_repro_context;
int explore_write_repro(const char *path, const explore_spec *spec, const char *id,
                        const explore_repro_context *context, char *why, size_t why_size);

/* ---- the state of a run, for --resume (explore_state.c) ------------------------- */

typedef struct explore_state
{
    uint64_t fingerprint;       /* explore_generator_fingerprint */
    char options_text[512];     /* the options that made it, for people and checks */
    uint64_t next_index;        /* cases generated (and judged) so far */
    double seconds;             /* time spent running them */
    explore_coverage *coverage; /* counts and tallies (not owned) */
    explore_findings *findings; /* not owned */
} explore_state;

/* Writes the state to `path` atomically (JSON). Returns 0, or -1 with why
 * set. */
int explore_state_save(const char *path, const explore_state *state, char *why, size_t why_size);

/* Reads a state written by explore_state_save into *state, whose coverage
 * (initialised for the same options) and findings (empty) it fills.
 * Returns 0, or -1 with why set (no file, not a state, another version). */
int explore_state_load(const char *path, explore_state *state, char *why, size_t why_size);

#endif /* DMLCONF_EXPLORE_INTERNAL_H */
