/*
 * dmlconf oracle: the exact reference implementation of DirectML's
 * DML_OPERATOR_CUMULATIVE_SUMMATION and DML_OPERATOR_CUMULATIVE_PRODUCT.
 *
 * - Float results are the exact prefix rounded once (round to nearest even,
 *   subnormals kept); special values follow the rules in the project's
 *   oracle notes (NaN if any NaN or +Inf and -Inf meet, ...).
 * - Integer results wrap modulo 2^w in their own type (two's complement).
 * - Validation mirrors DirectML's rules, per feature level.
 *
 * This is the library's only public header. Every function is reentrant and
 * keeps no global state; none of them allocates memory that the caller must
 * free unless its comment says so.
 */
#ifndef DMLCONF_ORACLE_H
#define DMLCONF_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(DMLCONF_BUILDING_ORACLE) && defined(__GNUC__)
#define DMLCONF_API __attribute__((visibility("default")))
#else
#define DMLCONF_API
#endif

#define DMLCONF_ORACLE_VERSION_MAJOR 0
#define DMLCONF_ORACLE_VERSION_MINOR 1
#define DMLCONF_ORACLE_VERSION_PATCH 0

/* The most dimensions a tensor of these operators may have. */
#define DMLCONF_MAX_DIMENSIONS 8u
/* A DirectML tensor holds at most 2^32 - 1 elements. */
#define DMLCONF_MAX_ELEMENTS UINT64_C(0xffffffff)
/* Size of the message buffers in dmlconf_validation and dmlconf_error. */
#define DMLCONF_MESSAGE_SIZE 256u

/* Operator kinds, with DML_OPERATOR_TYPE's values. */
typedef enum dmlconf_operator
{
    DMLCONF_OPERATOR_CUMULATIVE_SUMMATION = 105,
    DMLCONF_OPERATOR_CUMULATIVE_PRODUCT = 145,
} dmlconf_operator;

/* Tensor data types, with DML_TENSOR_DATA_TYPE's values. Only FLOAT32,
 * FLOAT16, UINT32, INT32, UINT64 and INT64 are computable; the others exist so
 * that validation can name them and reject them. */
typedef enum dmlconf_data_type
{
    DMLCONF_DATA_TYPE_UNKNOWN = 0,
    DMLCONF_DATA_TYPE_FLOAT32 = 1,
    DMLCONF_DATA_TYPE_FLOAT16 = 2,
    DMLCONF_DATA_TYPE_UINT32 = 3,
    DMLCONF_DATA_TYPE_UINT16 = 4,
    DMLCONF_DATA_TYPE_UINT8 = 5,
    DMLCONF_DATA_TYPE_INT32 = 6,
    DMLCONF_DATA_TYPE_INT16 = 7,
    DMLCONF_DATA_TYPE_INT8 = 8,
    DMLCONF_DATA_TYPE_FLOAT64 = 9,
    DMLCONF_DATA_TYPE_UINT64 = 10,
    DMLCONF_DATA_TYPE_INT64 = 11,
    DMLCONF_DATA_TYPE_UINT4 = 12,
    DMLCONF_DATA_TYPE_INT4 = 13,
} dmlconf_data_type;

/* DML_AXIS_DIRECTION's values. */
typedef enum dmlconf_axis_direction
{
    DMLCONF_AXIS_DIRECTION_INCREASING = 0,
    DMLCONF_AXIS_DIRECTION_DECREASING = 1,
} dmlconf_axis_direction;

/* DML_FEATURE_LEVEL's values. */
typedef enum dmlconf_feature_level
{
    DMLCONF_FEATURE_LEVEL_NONE = 0, /* "valid at no level" / "no level given" */
    DMLCONF_FEATURE_LEVEL_1_0 = 0x1000,
    DMLCONF_FEATURE_LEVEL_2_0 = 0x2000,
    DMLCONF_FEATURE_LEVEL_2_1 = 0x2100,
    DMLCONF_FEATURE_LEVEL_3_0 = 0x3000,
    DMLCONF_FEATURE_LEVEL_3_1 = 0x3100,
    DMLCONF_FEATURE_LEVEL_4_0 = 0x4000,
    DMLCONF_FEATURE_LEVEL_4_1 = 0x4100,
    DMLCONF_FEATURE_LEVEL_5_0 = 0x5000,
    DMLCONF_FEATURE_LEVEL_5_1 = 0x5100,
    DMLCONF_FEATURE_LEVEL_5_2 = 0x5200,
    DMLCONF_FEATURE_LEVEL_6_0 = 0x6000,
    DMLCONF_FEATURE_LEVEL_6_1 = 0x6100,
    DMLCONF_FEATURE_LEVEL_6_2 = 0x6200,
    DMLCONF_FEATURE_LEVEL_6_3 = 0x6300,
    DMLCONF_FEATURE_LEVEL_6_4 = 0x6400,
} dmlconf_feature_level;

/* A buffer tensor (DML_BUFFER_TENSOR_DESC). Element i of the logical tensor,
 * with coordinates c[0..n-1], lives at element offset sum(c[d] * strides[d]).
 * Without strides the tensor is packed row-major (last dimension fastest). */
typedef struct dmlconf_tensor_desc
{
    dmlconf_data_type data_type;
    uint32_t dimension_count;
    uint32_t sizes[DMLCONF_MAX_DIMENSIONS];
    bool has_strides;                         /* false: packed strides */
    uint32_t strides[DMLCONF_MAX_DIMENSIONS]; /* in elements; 0 broadcasts */
    uint64_t total_size_bytes;                /* 0: the minimum size */
} dmlconf_tensor_desc;

/* One cumulative operator: DML_CUMULATIVE_{SUMMATION,PRODUCT}_OPERATOR_DESC
 * plus the one binding fact that validation needs (in_place: the output is
 * bound to the input's buffer range). */
typedef struct dmlconf_scan_desc
{
    dmlconf_operator op;
    dmlconf_tensor_desc input;
    dmlconf_tensor_desc output;
    uint32_t axis;
    dmlconf_axis_direction direction;
    bool exclusive; /* HasExclusiveSum / HasExclusiveProduct */
    bool in_place;
} dmlconf_scan_desc;

/* Why a desc is invalid. The names (dmlconf_reason_name) are stable tokens
 * used by the case files' `expect_error` and by reports. */
typedef enum dmlconf_reason
{
    DMLCONF_REASON_NONE = 0, /* valid */
    DMLCONF_REASON_UNKNOWN_FEATURE_LEVEL,
    DMLCONF_REASON_UNKNOWN_OPERATOR,
    DMLCONF_REASON_OPERATOR_UNAVAILABLE, /* introduced at a higher level */
    DMLCONF_REASON_UNKNOWN_AXIS_DIRECTION,
    DMLCONF_REASON_DIMENSION_COUNT_INVALID, /* 0, or more than 8 */
    DMLCONF_REASON_DIMENSION_COUNT_MISMATCH,
    DMLCONF_REASON_DIMENSION_COUNT_UNSUPPORTED_AT_LEVEL,
    DMLCONF_REASON_DATA_TYPE_UNSUPPORTED, /* at every level (UINT16, ...) */
    DMLCONF_REASON_DATA_TYPE_MISMATCH,
    DMLCONF_REASON_DATA_TYPE_UNSUPPORTED_AT_LEVEL,
    DMLCONF_REASON_ZERO_SIZE,
    DMLCONF_REASON_SIZES_MISMATCH,
    DMLCONF_REASON_TOO_MANY_ELEMENTS,
    DMLCONF_REASON_AXIS_OUT_OF_RANGE,
    DMLCONF_REASON_BUFFER_SIZE_OVERFLOW,
    DMLCONF_REASON_TOTAL_SIZE_TOO_SMALL,
    DMLCONF_REASON_IN_PLACE_MISMATCH,
    DMLCONF_REASON_COUNT
} dmlconf_reason;

/* The outcome of a validation: a reason and a sentence that names the
 * tensor, dimension and values involved. */
typedef struct dmlconf_validation
{
    dmlconf_reason reason;
    char message[DMLCONF_MESSAGE_SIZE];
} dmlconf_validation;

/* An error from a computing function. */
typedef struct dmlconf_error
{
    char message[DMLCONF_MESSAGE_SIZE];
} dmlconf_error;

/* Flags in dmlconf_side_data.specials: which special inputs the prefix holds. */
enum
{
    DMLCONF_SPECIAL_NAN = 1u << 0,
    DMLCONF_SPECIAL_POS_INF = 1u << 1,
    DMLCONF_SPECIAL_NEG_INF = 1u << 2,
    DMLCONF_SPECIAL_ZERO = 1u << 3, /* a +-0 term (matters for products) */
};

/* What the comparator needs to know about one output element's prefix (the
 * terms that the element's value combines; m = 0 for the first element of an
 * exclusive scan). Float types fill every field; integer types fill terms
 * only and leave the rest at their "empty prefix" values. */
typedef struct dmlconf_side_data
{
    uint32_t terms;            /* m, the number of terms */
    uint32_t specials;         /* DMLCONF_SPECIAL_* seen in the prefix */
    int32_t min_lsb_exponent;  /* q: smallest exponent of a last significant
                                * bit among nonzero finite terms; INT32_MAX
                                * when there is none */
    uint32_t significand_bits; /* products: sum over the terms of the bit
                                * width of each significand's odd part (an
                                * upper bound on the exact product's); 0 for
                                * sums */
    double abs_sum;            /* sums: A, the sum of |x| over finite terms,
                                * rounded up; 0 for products */
    double log2_max_partial;   /* products: the largest log2|product| over
                                * contiguous sub-ranges of the prefix (finite
                                * terms); -INFINITY when m = 0 */
    double log2_min_partial;   /* products: the smallest; +INFINITY when
                                * m = 0 */
} dmlconf_side_data;

/* ---- names and sizes ---------------------------------------------------- */

/* "FLOAT32", "UINT16", ...; NULL for a value outside the enum. */
DMLCONF_API const char *dmlconf_data_type_name(dmlconf_data_type type);
/* The name in lower case, as case files, case ids and messages write it:
 * "float32", "uint16", ...; "unknown" for UNKNOWN and for a value outside
 * the enum (never NULL). A static string: never freed. */
DMLCONF_API const char *dmlconf_data_type_lower_name(dmlconf_data_type type);
/* Parses a data type name, case-insensitively ("float32", "FLOAT32").
 * Returns false and leaves *type alone when the name is unknown. */
DMLCONF_API bool dmlconf_data_type_from_name(const char *name, dmlconf_data_type *type);
/* Size of one element in bits (32, 16, 8, 64, 4); 0 for UNKNOWN or a value
 * outside the enum. */
DMLCONF_API unsigned dmlconf_data_type_bits(dmlconf_data_type type);
/* True for the six types the oracle computes. */
DMLCONF_API bool dmlconf_data_type_is_computable(dmlconf_data_type type);
/* True for FLOAT32 and FLOAT16 (and FLOAT64, which is never computable). */
DMLCONF_API bool dmlconf_data_type_is_float(dmlconf_data_type type);

/* "cumulative_summation" or "cumulative_product"; NULL otherwise. */
DMLCONF_API const char *dmlconf_operator_name(dmlconf_operator op);
DMLCONF_API bool dmlconf_operator_from_name(const char *name, dmlconf_operator *op);

/* "2_1", "5_0", ...; NULL for a value that is not a DML feature level. */
DMLCONF_API const char *dmlconf_feature_level_name(dmlconf_feature_level level);
/* Parses "5_0", "5.0" or "DML_FEATURE_LEVEL_5_0". */
DMLCONF_API bool dmlconf_feature_level_from_name(const char *name, dmlconf_feature_level *level);
/* Every known feature level in ascending order; *count receives how many. */
DMLCONF_API const dmlconf_feature_level *dmlconf_feature_levels(size_t *count);

/* Stable token for a reason: "axis_out_of_range", ...; "none" for valid. */
DMLCONF_API const char *dmlconf_reason_name(dmlconf_reason reason);
DMLCONF_API bool dmlconf_reason_from_name(const char *name, dmlconf_reason *reason);

/* ---- layout --------------------------------------------------------------- */

/* Product of the sizes, or 0 when dimension_count is 0 or above 8 or a size
 * is 0. Never overflows (at most 8 factors below 2^32 each are multiplied
 * with saturation at UINT64_MAX). */
DMLCONF_API uint64_t dmlconf_tensor_element_count(const dmlconf_tensor_desc *desc);

/* The stride of dimension d as used for addressing: desc->strides[d], or the
 * packed row-major stride when has_strides is false. */
DMLCONF_API uint64_t dmlconf_tensor_stride(const dmlconf_tensor_desc *desc, uint32_t d);

/* The minimum buffer size in bytes, as DirectMLX's DMLCalcBufferTensorSize
 * computes it: ((sum((size-1)*stride) + 1) * bits + 7) / 8 rounded up to a
 * multiple of 4. Returns false when the computation overflows 64 bits or the
 * desc has no elements or an unknown type. */
DMLCONF_API bool dmlconf_tensor_min_size_bytes(const dmlconf_tensor_desc *desc, uint64_t *bytes);

/* The number of independent lines along `axis`: element count / sizes[axis]. */
DMLCONF_API uint64_t dmlconf_line_count(const dmlconf_tensor_desc *desc, uint32_t axis);

/* Where line `line` lives (lines are numbered in row-major order of the
 * coordinates other than `axis`). The line's element j (j = 0 ..
 * sizes[axis]-1, in index order) is stored at element offset
 * *first + j * *step and has logical (packed row-major) index
 * *logical_first + j * *logical_step. Any output pointer may be NULL.
 * Precondition: desc is structurally valid, axis < dimension_count and
 * line < dmlconf_line_count(desc, axis). */
DMLCONF_API void dmlconf_line_layout(const dmlconf_tensor_desc *desc, uint32_t axis, uint64_t line, uint64_t *first,
                                     uint64_t *step, uint64_t *logical_first, uint64_t *logical_step);

/* True when two distinct logical elements share storage (a broadcast or
 * overlapping stride). Outputs must not self-overlap. */
DMLCONF_API bool dmlconf_tensor_self_overlaps(const dmlconf_tensor_desc *desc);

/* ---- validation ----------------------------------------------------------- */

/* Says whether DirectML accepts `desc` at feature level `level`. Returns
 * true when valid; otherwise false, with out->reason and out->message set to
 * the first rule broken (rules are checked in the order of dmlconf_reason).
 * `out` may be NULL. Never fails otherwise. */
DMLCONF_API bool dmlconf_validate(const dmlconf_scan_desc *desc, dmlconf_feature_level level, dmlconf_validation *out);

/* The lowest feature level at which `desc` is valid (2_1, 3_1, 4_0 or 5_0
 * for these operators). Returns DMLCONF_FEATURE_LEVEL_NONE when no level
 * accepts it, with *why_not (may be NULL) set to the reason at the highest
 * known level. */
DMLCONF_API dmlconf_feature_level dmlconf_min_feature_level(const dmlconf_scan_desc *desc, dmlconf_validation *why_not);

/* ---- computing ------------------------------------------------------------ */

/* Computes the operator over the whole tensor. `input` and `output` are
 * buffers of input_bytes and output_bytes laid out by the descs' strides,
 * starting at element offset 0. Output elements are written at their strided
 * positions; other output bytes are left as they were. When desc->in_place
 * is true, `output` must equal `input` and the two descs must be identical.
 * `side`, when not NULL, receives one entry per logical element in packed
 * row-major order (element_count entries).
 *
 * Returns 0 on success. Returns -1 with err->message set (err may be NULL)
 * when the desc is invalid at every feature level, the type is not
 * computable, a buffer is smaller than its tensor's minimum size, the
 * output self-overlaps, or the buffers overlap without in_place; or when
 * scratch memory (O(axis length)) cannot be allocated. Nothing is written
 * to output on a desc or buffer error. */
DMLCONF_API int dmlconf_compute(const dmlconf_scan_desc *desc, const void *input, size_t input_bytes, void *output,
                                size_t output_bytes, dmlconf_side_data *side, dmlconf_error *err);

/* The memory dmlconf_compute touches beside the caller's buffers for
 * `desc`: a copy of a line it cannot read where it lies (reversed,
 * strided, or in place) and one it cannot write where it lies (reversed or
 * strided), each of the axis's length, and with `with_side` one side-data
 * entry an element of a line not written in packed order; 0 when every
 * line is read and written where it lies. A caller that bounds a case's
 * memory adds it (buffers not aligned to their element take the copies
 * too). */
DMLCONF_API uint64_t dmlconf_compute_scratch_bytes(const dmlconf_scan_desc *desc, bool with_side);

/* Computes one line: `in` holds n contiguous elements of `type` in scan
 * order (already reversed for a decreasing scan), `out` receives n elements
 * in the same order, and `side` (may be NULL) n entries. `in` and `out` must
 * not overlap. This is the building block for callers that walk a tensor
 * themselves (the comparator computes side data line by line with it).
 * Returns 0, or -1 with err set when the type is not computable or scratch
 * memory cannot be allocated. */
DMLCONF_API int dmlconf_scan_line(dmlconf_operator op, dmlconf_data_type type, bool exclusive, size_t n, const void *in,
                                  void *out, dmlconf_side_data *side, dmlconf_error *err);

/* Side data computed piece by piece, so that a long line's side data never
 * has to exist whole (a comparator judges a 10^8-element line in chunks).
 * The state is plain data: copy it, keep it anywhere, no cleanup needed.
 *
 * A caller that no longer needs the fields that depend on the values'
 * magnitudes (abs_sum, log2_max_partial, log2_min_partial: a comparator
 * whose accumulation bound has become infinite and whose exactness test
 * can no longer pass) sets `settled`: those fields then stay as they are,
 * and the walk only counts terms and gathers specials, lsb exponents and
 * significand bits, several times faster. */
typedef struct dmlconf_side_walk
{
    dmlconf_operator op;
    dmlconf_data_type type;
    bool exclusive;
    dmlconf_side_data current; /* the prefix absorbed so far */
    bool have_finite;          /* products: a finite term was seen */
    double ending_max;         /* products: log2|product| of the best sub-ranges ending here */
    double ending_min;
    bool settled; /* set by the caller, see above (false after init) */
} dmlconf_side_walk;

/* Starts a walk over one line of `type` in scan order. Returns 0, or -1 with
 * err set (err may be NULL) for an operator or type the oracle does not
 * compute. */
DMLCONF_API int dmlconf_side_walk_init(dmlconf_side_walk *walk, dmlconf_operator op, dmlconf_data_type type,
                                       bool exclusive, dmlconf_error *err);
/* Absorbs the next n input elements of the line (`in`, contiguous, scan
 * order) and writes their n side-data entries to `side`, exactly as
 * dmlconf_scan_line would have for those positions of the whole line. */
DMLCONF_API void dmlconf_side_walk_next(dmlconf_side_walk *walk, size_t n, const void *in, dmlconf_side_data *side);

/* A scan computed piece by piece, so that a long line's outputs never have
 * to exist whole (a comparator judges a line of 2^32 - 1 elements in
 * chunks): the state the exact scan carries from one piece to the next.
 * Every piece's outputs are exactly what dmlconf_scan_line gives for those
 * positions of the whole line, however the line is cut.
 *
 * The exact fallbacks of the float kernels (a lagging exact sum or product,
 * used for the rare elements the fast arithmetic cannot round with
 * certainty) may need elements of earlier pieces again; the walk reads
 * them through `reader`, which gets the line's elements in scan order. With
 * no reader, the walk instead keeps its exact state current at the end of
 * every piece: about 1 ns an element more for float32 sums, and for float
 * products an exact product that grows with the line (unusable for long
 * lines of products). The fields are the walk's; `state` is private. */
typedef int (*dmlconf_line_reader)(void *context, uint64_t first, size_t count, void *out);

#define DMLCONF_SCAN_WALK_WORDS 32u

typedef struct dmlconf_scan_walk
{
    dmlconf_operator op;
    dmlconf_data_type type;
    bool exclusive;
    uint64_t position;          /* elements absorbed so far */
    uint64_t last;              /* the inclusive result of those elements as raw bits (the
                                 * identity at first): the next exclusive output */
    dmlconf_line_reader reader; /* reads elements [first, first + count) of the line in scan
                                 * order into out; returns 0, or -1 when it cannot */
    void *reader_context;
    union
    {
        uint64_t words[DMLCONF_SCAN_WALK_WORDS];
        double number;
        void *pointer;
    } state;
} dmlconf_scan_walk;

/* Starts a walk over one line of `type` in scan order. `reader` (may be
 * NULL, see above) is called with reader_context, from the thread that
 * calls dmlconf_scan_walk_next, only for elements before the piece in hand.
 * Returns 0, or -1 with err set (err may be NULL) for an operator or a type
 * the oracle does not compute; the walk then needs no release. */
DMLCONF_API int dmlconf_scan_walk_init(dmlconf_scan_walk *walk, dmlconf_operator op, dmlconf_data_type type,
                                       bool exclusive, dmlconf_line_reader reader, void *reader_context,
                                       dmlconf_error *err);

/* Absorbs the next n elements of the line (`in`, contiguous, scan order) and
 * writes their n outputs to `out` (which must not overlap `in`). Returns 0,
 * or -1 with err set when the exact fallback cannot allocate its memory or
 * the reader fails; the walk is then unusable (release it). */
DMLCONF_API int dmlconf_scan_walk_next(dmlconf_scan_walk *walk, size_t n, const void *in, void *out,
                                       dmlconf_error *err);

/* Releases what the walk allocated (float products' exact fallback). Safe
 * on a walk that allocated nothing; the walk must be initialised again
 * before any other use. */
DMLCONF_API void dmlconf_scan_walk_release(dmlconf_scan_walk *walk);

/* What a run of a line's elements contributes to every later element, so
 * that a long line can be walked in segments on several threads: each
 * segment's elements are summarised (on its own thread), the summaries of
 * the segments before one are combined in order, and the segment's walk
 * resumes from that (dmlconf_scan_walk_resume), giving exactly the outputs
 * one walk over the whole line gives there. Summaries are plain data; a
 * summary takes a fraction of the walk over its elements (float32 sums: an
 * exact sum, about 1 ns an element, a third of the walk). */
typedef struct dmlconf_scan_summary
{
    dmlconf_operator op;
    dmlconf_data_type type;
    uint64_t count; /* elements summarised */
    union
    {
        uint64_t words[DMLCONF_SCAN_WALK_WORDS];
        double number;
        void *pointer;
    } state; /* private */
} dmlconf_scan_summary;

/* An empty summary (the start of a line). Returns 0, or -1 with err set
 * (err may be NULL) for an operator or a type the oracle does not
 * compute. */
DMLCONF_API int dmlconf_scan_summary_init(dmlconf_scan_summary *summary, dmlconf_operator op, dmlconf_data_type type,
                                          dmlconf_error *err);

/* Absorbs the next n elements (`in`, contiguous, scan order). */
DMLCONF_API void dmlconf_scan_summary_add(dmlconf_scan_summary *summary, size_t n, const void *in);

/* `into` becomes the summary of its elements followed by next's (same
 * operator and type). */
DMLCONF_API void dmlconf_scan_summary_combine(dmlconf_scan_summary *into, const dmlconf_scan_summary *next);

/* Starts a walk at element prefix->count of a line whose elements before
 * it `prefix` summarises: dmlconf_scan_walk_next then gives that
 * position's outputs on, the same bits as a walk from the start would.
 * `reader` as for dmlconf_scan_walk_init: the exact fallbacks may read any
 * element before the walk's piece, the prefix included (a float product's
 * first exclusive output may need the exact product of the prefix).
 * Returns 0, or -1 with err set (the walk is then to be released). */
DMLCONF_API int dmlconf_scan_walk_resume(dmlconf_scan_walk *walk, const dmlconf_scan_summary *prefix, bool exclusive,
                                         dmlconf_line_reader reader, void *reader_context, dmlconf_error *err);

/* ---- float16 ------------------------------------------------------------- */

/* Exact widening of an IEEE binary16 bit pattern to float (NaN payload
 * kept in the high bits). */
DMLCONF_API float dmlconf_half_to_float(uint16_t bits);
/* Rounds a double to binary16, round to nearest even, subnormals kept,
 * overflow to +-Inf, NaN to a quiet NaN with the sign kept. */
DMLCONF_API uint16_t dmlconf_half_from_double(double value);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_ORACLE_H */
