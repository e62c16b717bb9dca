/*
 * dmlconf_compare_tensor: the output tensor judged in bounded memory.
 *
 * The tensor is seen as [outer, n, inner] around the scan axis: line (o, i)
 * holds the elements (o, a, i) for a = 0 .. n - 1, logical index (o n + a)
 * inner + i. Lines are walked in tiles: one line when inner is 1, else a
 * block of up to TILE_LINES neighbouring lines (o, i0 .. i0 + B - 1), whose
 * rows (o, a, i0 .. i0 + B - 1) are neighbours in memory, so reading a row
 * once feeds B lines. A tile goes along the axis in chunks of scan
 * positions: its input is gathered (or, for one contiguous line of a
 * buffer, read in place), the oracle's scan of each line continues from the
 * previous chunk (dmlconf_scan_walk, whose exact fallback reads earlier
 * input through the line's history reader), so does the side data
 * (dmlconf_side_walk), and every element of the chunk is judged.
 *
 * With threads, tiles go to workers of their own when there are enough of
 * them; a few long tiles each go through a pipeline of rounds, where the
 * oracle's chunk r, the side data of chunk r - 1 and the judging of chunk
 * r - 2 (split over the remaining threads) run at once; and a very long
 * line is cut into one segment a thread, each walked from the exact
 * summary of the line before it (segmented_tile). Every worker, judging
 * part and segment keeps its own summary; summaries merge exactly
 * (summary.c), so the result does not depend on the threads.
 */
#include "judging_internal.h"

#include <dmlconf/comparator.h>
#include <dmlconf/threads.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lines of a tile along an outer axis. */
#define TILE_LINES 64u
/* Elements of a chunk (all lines of the tile together) when a tile is
 * walked by one thread. */
#define CHUNK_ELEMENTS (1u << 16)
/* A tile goes through the pipeline when its lines are at least this long
 * (and there are too few tiles to share out). */
#define PIPELINE_MIN_LENGTH (UINT64_C(1) << 18)
/* Elements of a pipeline chunk per judging thread, and the bounds. */
#define PIPELINE_ELEMENTS_PER_JUDGE (1u << 18)
#define PIPELINE_MIN_ELEMENTS       (1u << 16)
#define PIPELINE_MAX_ELEMENTS       (1u << 22)
/* One-line tiles at least this long go in segments, one a thread (after
 * the pipeline has walked them to where their side data settles). */
#define SEGMENT_MIN_LENGTH (UINT64_C(1) << 22)
/* At most this many threads (roles) in one round of the pipeline. */
#define MAX_THREADS 64u

/* ---- sources ----------------------------------------------------------------- */

/* A tensor (input, expected values or output) as the walk reads it. */
typedef struct view
{
    const unsigned char *buffer; /* NULL: read */
    dmlconf_tensor_desc layout;  /* the buffer's layout */
    uint64_t axis_stride;        /* elements between (o, a, i) and (o, a + 1, i) */
    int (*read)(void *context, uint64_t first, uint64_t count, void *out, char *why, size_t why_size);
    void *context;
} view;

/* The offset (in elements) of index `index` over dims [from, to) of the
 * layout, row-major. */
static uint64_t offset_of_dims(const dmlconf_tensor_desc *layout, uint32_t from, uint32_t to, uint64_t index)
{
    uint64_t offset = 0;
    for (uint32_t d = to; d-- > from;)
    {
        uint64_t size = layout->sizes[d];
        offset += (index % size) * dmlconf_tensor_stride(layout, d);
        index /= size;
    }
    return offset;
}

static uint64_t load_bits(const unsigned char *p, size_t size)
{
    switch (size)
    {
    case 2:
    {
        uint16_t v;
        memcpy(&v, p, sizeof(v));
        return v;
    }
    case 4:
    {
        uint32_t v;
        memcpy(&v, p, sizeof(v));
        return v;
    }
    default:
    {
        uint64_t v;
        memcpy(&v, p, sizeof(v));
        return v;
    }
    }
}

static void copy_element(unsigned char *to, const unsigned char *from, size_t size)
{
    switch (size)
    {
    case 2:
        memcpy(to, from, 2);
        break;
    case 4:
        memcpy(to, from, 4);
        break;
    default:
        memcpy(to, from, 8);
        break;
    }
}

/* ---- the comparison ---------------------------------------------------------- */

typedef struct compare_context
{
    const dmlconf_scan_desc *desc;
    dmlconf_judge judge;
    bool has_canary;
    uint64_t canary_bits;
    size_t size;
    uint32_t axis;
    uint64_t n, outer, inner;
    bool reversed;
    bool want_side;  /* the rule needs the side data */
    bool use_oracle; /* no expected values given */
    bool fast_equal; /* equal bits pass with no error (integers, bit_exact) */
    dmlconf_rule equal_rule;
    view input;
    view expected;
    view output;
    uint64_t tiles_per_outer;
    uint64_t tile_count;
} compare_context;

/* One tile's lines and their walks. */
typedef struct tile tile;

/* What a line's history reader needs. */
typedef struct line_history
{
    const tile *tile;
    size_t line;
} line_history;

struct tile
{
    const compare_context *ctx;
    uint64_t o, i0;
    size_t lines;
    uint64_t in_outer, exp_outer, out_outer;
    uint64_t *in_inner, *exp_inner, *out_inner; /* per line */
    dmlconf_scan_walk *walks;
    dmlconf_side_walk *sides;
    line_history *histories;
    size_t walks_started;
};

/* A chunk of scan positions of a tile, and the buffers it fills. */
typedef struct chunk
{
    uint64_t first;
    size_t count;
    size_t capacity;             /* positions per line in the buffers */
    unsigned char *in;           /* lines x capacity input elements */
    unsigned char *exp;          /* lines x capacity expected values */
    dmlconf_side_data *side;     /* lines x capacity side data (walked on one thread) */
    const unsigned char *direct; /* the one line's input read in place (or NULL) */
    const unsigned char *direct_expected;
} chunk;

/* The scan position j of a line as its index a along the axis. */
static uint64_t axis_index(const compare_context *ctx, uint64_t j)
{
    return ctx->reversed ? ctx->n - 1u - j : j;
}

/* Reads element (o, a, i) of a view. */
static int read_element(const compare_context *ctx, const view *v, uint64_t o, uint64_t a, uint64_t i,
                        unsigned char *out, char *why, size_t why_size)
{
    if (v->buffer)
    {
        uint64_t offset = offset_of_dims(&v->layout, 0, ctx->axis, o) + a * v->axis_stride +
                          offset_of_dims(&v->layout, ctx->axis + 1u, v->layout.dimension_count, i);
        copy_element(out, v->buffer + offset * ctx->size, ctx->size);
        return 0;
    }
    return v->read(v->context, (o * ctx->n + a) * ctx->inner + i, 1, out, why, why_size);
}

/* The history of a line: its input elements at scan positions [first,
 * first + count), for the oracle's exact fallback (which, on random data,
 * ends up absorbing most of a long line once: this must be fast). */
static int read_line_history(void *context, uint64_t first, size_t count, void *out)
{
    const line_history *h = context;
    const tile *t = h->tile;
    const compare_context *ctx = t->ctx;
    const view *v = &ctx->input;
    size_t size = ctx->size;
    unsigned char *bytes = out;
    char why[DMLCONF_MESSAGE_SIZE];
    if (v->buffer)
    {
        const unsigned char *base = v->buffer + (t->in_outer + t->in_inner[h->line]) * size;
        if (!ctx->reversed && v->axis_stride == 1)
        {
            memcpy(bytes, base + first * size, count * size);
            return 0;
        }
        for (size_t k = 0; k < count; ++k)
            copy_element(bytes + k * size, base + axis_index(ctx, first + k) * v->axis_stride * size, size);
        return 0;
    }
    if (ctx->inner == 1)
    {
        /* A contiguous range of logical indices, reversed for a decreasing
         * scan. */
        uint64_t low = ctx->reversed ? ctx->n - first - count : first;
        if (v->read(v->context, t->o * ctx->n + low, count, out, why, sizeof(why)))
            return -1;
        if (ctx->reversed)
        {
            unsigned char scratch[8];
            for (size_t lo = 0, hi = count - 1u; lo < hi; ++lo, --hi)
            {
                copy_element(scratch, bytes + lo * size, size);
                copy_element(bytes + lo * size, bytes + hi * size, size);
                copy_element(bytes + hi * size, scratch, size);
            }
        }
        return 0;
    }
    for (size_t k = 0; k < count; ++k)
    {
        if (read_element(ctx, v, t->o, axis_index(ctx, first + k), t->i0 + h->line, bytes + k * size, why, sizeof(why)))
            return -1;
    }
    return 0;
}

/* Gathers the chunk's elements of a view into `dst` (line k's at dst + k *
 * capacity elements), or points *direct into the buffer when the tile is
 * one line stored contiguously in scan order. */
static int gather(const compare_context *ctx, const view *v, const tile *t, uint64_t outer_offset,
                  const uint64_t *inner_offset, chunk *c, unsigned char *dst, const unsigned char **direct, char *why,
                  size_t why_size)
{
    size_t size = ctx->size;
    *direct = NULL;
    if (t->lines == 1 && ctx->inner == 1)
    {
        if (v->buffer)
        {
            const unsigned char *base = v->buffer + (outer_offset + inner_offset[0]) * size;
            if (!ctx->reversed && v->axis_stride == 1)
            {
                *direct = base + c->first * size;
                return 0;
            }
            for (size_t jj = 0; jj < c->count; ++jj)
                copy_element(dst + jj * size, base + axis_index(ctx, c->first + jj) * v->axis_stride * size, size);
            return 0;
        }
        /* A contiguous range of logical indices, reversed for a decreasing
         * scan. */
        uint64_t low = ctx->reversed ? ctx->n - c->first - c->count : c->first;
        if (v->read(v->context, t->o * ctx->n + low, c->count, dst, why, why_size))
            return -1;
        if (ctx->reversed)
        {
            unsigned char scratch[8];
            for (size_t lo = 0, hi = c->count - 1u; lo < hi; ++lo, --hi)
            {
                copy_element(scratch, dst + lo * size, size);
                copy_element(dst + lo * size, dst + hi * size, size);
                copy_element(dst + hi * size, scratch, size);
            }
        }
        return 0;
    }
    size_t line_bytes = c->capacity * size;
    unsigned char row[TILE_LINES * 8];
    for (size_t jj = 0; jj < c->count; ++jj)
    {
        uint64_t a = axis_index(ctx, c->first + jj);
        if (v->buffer)
        {
            const unsigned char *base = v->buffer + (outer_offset + a * v->axis_stride) * size;
            for (size_t k = 0; k < t->lines; ++k)
                copy_element(dst + k * line_bytes + jj * size, base + inner_offset[k] * size, size);
            continue;
        }
        if (v->read(v->context, (t->o * ctx->n + a) * ctx->inner + t->i0, t->lines, row, why, why_size))
            return -1;
        for (size_t k = 0; k < t->lines; ++k)
            copy_element(dst + k * line_bytes + jj * size, row + k * size, size);
    }
    return 0;
}

static const unsigned char *line_input(const compare_context *ctx, const chunk *c, size_t k)
{
    return c->direct ? c->direct : c->in + k * c->capacity * ctx->size;
}

static const unsigned char *line_expected(const compare_context *ctx, const chunk *c, size_t k)
{
    return c->direct_expected ? c->direct_expected : c->exp + k * c->capacity * ctx->size;
}

/* Reads the chunk's input and computes (or reads) its expected values. */
static int produce(const compare_context *ctx, tile *t, chunk *c, dmlconf_error *err)
{
    char why[DMLCONF_MESSAGE_SIZE] = "";
    if (gather(ctx, &ctx->input, t, t->in_outer, t->in_inner, c, c->in, &c->direct, why, sizeof(why)))
    {
        judging_set_error(err, "cannot read the input: %s", why);
        return -1;
    }
    c->direct_expected = NULL;
    if (!ctx->use_oracle)
    {
        if (gather(ctx, &ctx->expected, t, t->exp_outer, t->exp_inner, c, c->exp, &c->direct_expected, why,
                   sizeof(why)))
        {
            judging_set_error(err, "cannot read the expected values: %s", why);
            return -1;
        }
        return 0;
    }
    for (size_t k = 0; k < t->lines; ++k)
    {
        if (dmlconf_scan_walk_next(&t->walks[k], c->count, line_input(ctx, c, k), c->exp + k * c->capacity * ctx->size,
                                   err))
            return -1;
    }
    return 0;
}

/* The chunk's side data into `side` (lines x capacity entries; the input
 * must have been read). */
static void compute_side(const compare_context *ctx, tile *t, const chunk *c, dmlconf_side_data *side)
{
    for (size_t k = 0; k < t->lines; ++k)
    {
        dmlconf_side_walk *walk = &t->sides[k];
        dmlconf_side_walk_next(walk, c->count, line_input(ctx, c, k), side + k * c->capacity);
        /* Past the point where the magnitudes can change no judgement (a
         * float32 line past 2^24 terms), only the counts go on. */
        if (!walk->settled && judging_side_settled(&ctx->judge, &walk->current, walk->exclusive))
            walk->settled = true;
    }
}

/* One element judged in full: the canary, then the rule. */
static void judge_element(const compare_context *ctx, uint64_t index, uint64_t expected, uint64_t got,
                          const dmlconf_side_data *side, unsigned position, uint64_t scan_position,
                          dmlconf_comparison *out)
{
    dmlconf_judgement judgement;
    if (ctx->has_canary && got == ctx->canary_bits)
        judging_judge_canary(expected, got, out, &judgement);
    else
        dmlconf_judge_bits(&ctx->judge, expected, got, side, &judgement);
    judging_tally(out, index, expected, got, &judgement, position, scan_position);
}

/* Where one line's elements of a chunk are. */
typedef struct line_range
{
    const unsigned char *expected; /* scan order, packed */
    const unsigned char *output;   /* the output buffer */
    uint64_t actual_offset;        /* of the first element, in elements */
    uint64_t out_step;             /* between scan positions (modulo 2^64) */
    uint64_t index;                /* logical index of the first element */
    uint64_t index_step;           /* modulo 2^64 */
    uint64_t j;                    /* scan position of the first element */
    size_t count;
} line_range;

/* Elements that judge_equal_range checks at once where the output is
 * contiguous along the line. */
#define EQUAL_RUN 64u

/* Whether a run of EQUAL_RUN elements of `type` is equal to its expected
 * values (scan order, packed) and holds no canary `c` (when `canary`): the
 * output's run starts at `g` and goes forward in memory, or (`back`) ends
 * there and is read backward. One definition for each element width, with
 * plain loops over a constant length that the compiler vectorises. */
#define DEFINE_RUN_IS_EQUAL(name, type)                                                                                \
    static bool name(const unsigned char *e, const unsigned char *g, bool back, bool canary, type c)                   \
    {                                                                                                                  \
        type want[EQUAL_RUN], got[EQUAL_RUN];                                                                          \
        memcpy(want, e, sizeof(want));                                                                                 \
        memcpy(got, back ? g - (EQUAL_RUN - 1u) * sizeof(type) : g, sizeof(got));                                      \
        type differ = 0, canaries = 0;                                                                                 \
        if (!back)                                                                                                     \
        {                                                                                                              \
            for (size_t k = 0; k < EQUAL_RUN; ++k)                                                                     \
            {                                                                                                          \
                differ |= (type)(got[k] ^ want[k]);                                                                    \
                canaries |= (type)(got[k] == c);                                                                       \
            }                                                                                                          \
        }                                                                                                              \
        else                                                                                                           \
        {                                                                                                              \
            for (size_t k = 0; k < EQUAL_RUN; ++k)                                                                     \
            {                                                                                                          \
                differ |= (type)(got[EQUAL_RUN - 1u - k] ^ want[k]);                                                   \
                canaries |= (type)(got[k] == c);                                                                       \
            }                                                                                                          \
        }                                                                                                              \
        return differ == 0 && !(canary && canaries);                                                                   \
    }

DEFINE_RUN_IS_EQUAL(run_is_equal_16, uint16_t)
DEFINE_RUN_IS_EQUAL(run_is_equal_32, uint32_t)
DEFINE_RUN_IS_EQUAL(run_is_equal_64, uint64_t)

static inline bool run_is_equal(const unsigned char *expected, const unsigned char *output, bool backward, size_t size,
                                bool canary, uint64_t canary_bits)
{
    switch (size)
    {
    case 2:
        return run_is_equal_16(expected, output, backward, canary, (uint16_t)canary_bits);
    case 4:
        return run_is_equal_32(expected, output, backward, canary, (uint32_t)canary_bits);
    default:
        return run_is_equal_64(expected, output, backward, canary, canary_bits);
    }
}

/* A line's range when equal bits pass with no error (integers,
 * bit_exact): equal elements are only counted (the summary does not depend
 * on the order), the rest judged one by one. Where the output is
 * contiguous along the line (either way), runs of EQUAL_RUN elements are
 * first checked all at once. `size` is a constant where this is inlined, so
 * the loads are plain loads. */
static inline void judge_equal_range(const compare_context *ctx, const line_range *r, size_t size,
                                     dmlconf_comparison *out)
{
    uint64_t offset = r->actual_offset, index = r->index;
    uint64_t equal_count = 0, equal_first = UINT64_MAX, equal_bits = 0;
    bool canary = ctx->has_canary;
    uint64_t canary_bits = ctx->canary_bits;
    bool forward = r->out_step == 1u, backward = r->out_step == UINT64_MAX;
    for (size_t jj = 0; jj < r->count;)
    {
        size_t run = r->count - jj < EQUAL_RUN ? r->count - jj : EQUAL_RUN;
        if (run == EQUAL_RUN && (forward || backward) &&
            run_is_equal(r->expected + jj * size, r->output + offset * size, backward, size, canary, canary_bits))
        {
            /* Indices move by a constant step along the run: its smallest
             * is at one end. */
            uint64_t last_index = index + (EQUAL_RUN - 1u) * r->index_step;
            uint64_t low = index < last_index ? index : last_index;
            if (low < equal_first)
            {
                equal_first = low;
                equal_bits = load_bits(r->expected + (jj + (low == index ? 0u : EQUAL_RUN - 1u)) * size, size);
            }
            equal_count += EQUAL_RUN;
            jj += EQUAL_RUN;
            offset += EQUAL_RUN * r->out_step;
            index += EQUAL_RUN * r->index_step;
            continue;
        }
        for (size_t end = jj + run; jj < end; ++jj)
        {
            uint64_t expected = load_bits(r->expected + jj * size, size);
            uint64_t got = load_bits(r->output + offset * size, size);
            if (got == expected && !(canary && got == canary_bits))
            {
                if (index < equal_first)
                {
                    equal_first = index;
                    equal_bits = got;
                }
                ++equal_count;
            }
            else
            {
                unsigned position = (unsigned)((r->j + jj) * DMLCONF_POSITION_BINS / ctx->n);
                judge_element(ctx, index, expected, got, NULL, position, r->j + jj, out);
            }
            offset += r->out_step;
            index += r->index_step;
        }
    }
    if (equal_count)
        judging_tally_equal(out, equal_count, equal_first, equal_bits, ctx->equal_rule);
}

/* A line's range under the other rules: every element judged, with its
 * side data. */
static void judge_full_range(const compare_context *ctx, const line_range *r, const dmlconf_side_data *side,
                             dmlconf_comparison *out)
{
    size_t size = ctx->size;
    uint64_t n = ctx->n;
    uint64_t offset = r->actual_offset, index = r->index, j = r->j;
    /* The position bin, and where it next changes. */
    unsigned position = (unsigned)(j * DMLCONF_POSITION_BINS / n);
    uint64_t next_bin = ((uint64_t)(position + 1u) * n + DMLCONF_POSITION_BINS - 1u) / DMLCONF_POSITION_BINS;
    for (size_t jj = 0; jj < r->count; ++jj, ++j)
    {
        while (j >= next_bin)
        {
            ++position;
            next_bin = ((uint64_t)(position + 1u) * n + DMLCONF_POSITION_BINS - 1u) / DMLCONF_POSITION_BINS;
        }
        uint64_t expected = load_bits(r->expected + jj * size, size);
        uint64_t got = load_bits(r->output + offset * size, size);
        judge_element(ctx, index, expected, got, side ? &side[jj] : NULL, position, j, out);
        offset += r->out_step;
        index += r->index_step;
    }
}

/* Judges scan positions [begin, end) of the chunk, every line of the tile,
 * into *out, with the chunk's side data `side` (when the rule needs it). */
static void judge_range(const compare_context *ctx, const tile *t, const chunk *c, const dmlconf_side_data *side,
                        size_t begin, size_t end, dmlconf_comparison *out)
{
    size_t size = ctx->size;
    for (size_t k = 0; k < t->lines; ++k)
    {
        line_range r;
        r.expected = line_expected(ctx, c, k) + begin * size;
        r.output = ctx->output.buffer;
        r.j = c->first + begin;
        uint64_t a = axis_index(ctx, r.j);
        r.index = (t->o * ctx->n + a) * ctx->inner + t->i0 + k;
        r.index_step = ctx->reversed ? 0u - ctx->inner : ctx->inner;
        /* Element offsets move by a signed step (modulo 2^64, never used
         * past the line's last element). */
        r.actual_offset = t->out_outer + a * ctx->output.axis_stride + t->out_inner[k];
        r.out_step = ctx->reversed ? 0u - ctx->output.axis_stride : ctx->output.axis_stride;
        r.count = end - begin;
        if (!ctx->fast_equal)
        {
            judge_full_range(ctx, &r, ctx->want_side ? side + k * c->capacity + begin : NULL, out);
            continue;
        }
        switch (size)
        {
        case 2:
            judge_equal_range(ctx, &r, 2, out);
            break;
        case 4:
            judge_equal_range(ctx, &r, 4, out);
            break;
        default:
            judge_equal_range(ctx, &r, 8, out);
            break;
        }
    }
}

/* ---- tiles ------------------------------------------------------------------- */

/* Per-thread memory for walking tiles. */
typedef struct tile_memory
{
    uint64_t *offsets; /* 3 x TILE_LINES */
    dmlconf_scan_walk *walks;
    dmlconf_side_walk *sides;
    line_history *histories;
} tile_memory;

static int tile_memory_init(tile_memory *m)
{
    m->offsets = malloc(3u * TILE_LINES * sizeof(*m->offsets));
    m->walks = malloc(TILE_LINES * sizeof(*m->walks));
    m->sides = malloc(TILE_LINES * sizeof(*m->sides));
    m->histories = malloc(TILE_LINES * sizeof(*m->histories));
    return m->offsets && m->walks && m->sides && m->histories ? 0 : -1;
}

static void tile_memory_free(tile_memory *m)
{
    free(m->offsets);
    free(m->walks);
    free(m->sides);
    free(m->histories);
}

/* Sets up tile `number` (its lines, offsets and walks). Returns 0, or -1
 * with err set; the tile must be ended with tile_end either way. */
static int tile_begin(const compare_context *ctx, uint64_t number, tile_memory *m, tile *t, dmlconf_error *err)
{
    memset(t, 0, sizeof(*t));
    t->ctx = ctx;
    t->o = number / ctx->tiles_per_outer;
    t->i0 = (number % ctx->tiles_per_outer) * TILE_LINES;
    t->lines = ctx->inner - t->i0 < TILE_LINES ? (size_t)(ctx->inner - t->i0) : TILE_LINES;
    t->in_inner = m->offsets;
    t->exp_inner = m->offsets + TILE_LINES;
    t->out_inner = m->offsets + 2u * TILE_LINES;
    t->walks = m->walks;
    t->sides = m->sides;
    t->histories = m->histories;
    uint32_t axis = ctx->axis;
    t->in_outer = ctx->input.buffer ? offset_of_dims(&ctx->input.layout, 0, axis, t->o) : 0;
    t->exp_outer = ctx->expected.buffer ? offset_of_dims(&ctx->expected.layout, 0, axis, t->o) : 0;
    t->out_outer = offset_of_dims(&ctx->output.layout, 0, axis, t->o);
    for (size_t k = 0; k < t->lines; ++k)
    {
        uint64_t i = t->i0 + k;
        t->in_inner[k] =
            ctx->input.buffer ? offset_of_dims(&ctx->input.layout, axis + 1u, ctx->input.layout.dimension_count, i) : 0;
        t->exp_inner[k] = ctx->expected.buffer ? offset_of_dims(&ctx->expected.layout, axis + 1u,
                                                                ctx->expected.layout.dimension_count, i)
                                               : 0;
        t->out_inner[k] = offset_of_dims(&ctx->output.layout, axis + 1u, ctx->output.layout.dimension_count, i);
        t->histories[k].tile = t;
        t->histories[k].line = k;
        if (ctx->want_side &&
            dmlconf_side_walk_init(&t->sides[k], ctx->desc->op, ctx->desc->input.data_type, ctx->desc->exclusive, err))
            return -1;
    }
    if (ctx->use_oracle)
    {
        for (; t->walks_started < t->lines; ++t->walks_started)
        {
            size_t k = t->walks_started;
            if (dmlconf_scan_walk_init(&t->walks[k], ctx->desc->op, ctx->desc->input.data_type, ctx->desc->exclusive,
                                       read_line_history, &t->histories[k], err))
                return -1;
        }
    }
    return 0;
}

static void tile_end(tile *t)
{
    for (size_t k = 0; k < t->walks_started; ++k)
        dmlconf_scan_walk_release(&t->walks[k]);
    t->walks_started = 0;
}

/* Chunk buffers for `elements` elements in all (lines x capacity). */
static int chunk_alloc(const compare_context *ctx, chunk *c, size_t elements, bool side)
{
    memset(c, 0, sizeof(*c));
    c->in = malloc(elements * ctx->size);
    c->exp = malloc(elements * ctx->size);
    c->side = side ? malloc(elements * sizeof(*c->side)) : NULL;
    return c->in && c->exp && (!side || c->side) ? 0 : -1;
}

static void chunk_free(chunk *c)
{
    free(c->in);
    free(c->exp);
    free(c->side);
    memset(c, 0, sizeof(*c));
}

/* Walks one tile on this thread, chunk after chunk. */
static int walk_tile(const compare_context *ctx, tile *t, chunk *c, size_t elements, dmlconf_comparison *out,
                     dmlconf_error *err)
{
    c->capacity = elements / t->lines;
    for (uint64_t first = 0; first < ctx->n; first += c->capacity)
    {
        c->first = first;
        c->count = ctx->n - first < c->capacity ? (size_t)(ctx->n - first) : c->capacity;
        if (produce(ctx, t, c, err))
            return -1;
        if (ctx->want_side)
            compute_side(ctx, t, c, c->side);
        judge_range(ctx, t, c, c->side, 0, c->count, out);
    }
    return 0;
}

/* A thread that walks every tile_step-th tile from first_tile. */
typedef struct tile_worker
{
    const compare_context *ctx;
    uint64_t first_tile, tile_step;
    dmlconf_comparison summary;
    dmlconf_error err;
    uint64_t failed_tile; /* the tile that failed (UINT64_MAX: none) */
    dmlconf_thread thread;
    bool started;
} tile_worker;

static int run_tile_worker(void *argument)
{
    tile_worker *w = argument;
    const compare_context *ctx = w->ctx;
    tile_memory memory;
    chunk c;
    w->failed_tile = UINT64_MAX;
    /* Chunks as large as the largest tile, up to CHUNK_ELEMENTS: a small
     * tensor's comparison takes (and touches) no more memory than it holds.
     * A tile of at most that many lines still fits one chunk whole. */
    uint64_t tile_elements = (ctx->inner < TILE_LINES ? ctx->inner : TILE_LINES) * ctx->n;
    size_t elements = tile_elements < CHUNK_ELEMENTS ? (size_t)tile_elements : CHUNK_ELEMENTS;
    bool ready = tile_memory_init(&memory) == 0 && chunk_alloc(ctx, &c, elements, ctx->want_side) == 0;
    if (!ready)
    {
        judging_set_error(&w->err, "out of memory for the comparator's chunks");
        w->failed_tile = w->first_tile;
    }
    for (uint64_t number = w->first_tile; ready && number < ctx->tile_count; number += w->tile_step)
    {
        tile t;
        int status = tile_begin(ctx, number, &memory, &t, &w->err);
        if (status == 0)
            status = walk_tile(ctx, &t, &c, elements, &w->summary, &w->err);
        tile_end(&t);
        if (status)
        {
            w->failed_tile = number;
            break;
        }
    }
    chunk_free(&c);
    tile_memory_free(&memory);
    return 0;
}

/* ---- the pipeline -------------------------------------------------------------- */

/* One round's work for one thread. */
typedef struct role
{
    struct pipeline *pipeline;
    int kind; /* 0: produce, 1: side data, 2: judge a part */
    size_t part;
    uint64_t chunk_number;
    int status;
    dmlconf_error err;
    dmlconf_thread thread;
} role;

typedef struct pipeline
{
    const compare_context *ctx;
    tile *tile;
    size_t judges;
    size_t capacity; /* positions per line of a chunk */
    uint64_t chunk_count;
    chunk sets[3];
    dmlconf_side_data *side_sets[2];
    dmlconf_comparison *summaries; /* one per judging part */
} pipeline;

static chunk *pipeline_chunk(pipeline *p, uint64_t number)
{
    chunk *c = &p->sets[number % 3u];
    return c;
}

static int run_role(void *argument)
{
    role *r = argument;
    pipeline *p = r->pipeline;
    const compare_context *ctx = p->ctx;
    chunk *c = pipeline_chunk(p, r->chunk_number);
    r->status = 0;
    switch (r->kind)
    {
    case 0:
        c->first = r->chunk_number * p->capacity;
        c->count = ctx->n - c->first < p->capacity ? (size_t)(ctx->n - c->first) : p->capacity;
        c->capacity = p->capacity;
        r->status = produce(ctx, p->tile, c, &r->err);
        break;
    case 1:
        compute_side(ctx, p->tile, c, p->side_sets[r->chunk_number % 2u]);
        break;
    default:
    {
        size_t begin = c->count * r->part / p->judges;
        size_t end = c->count * (r->part + 1u) / p->judges;
        judge_range(ctx, p->tile, c, p->side_sets[r->chunk_number % 2u], begin, end, &p->summaries[r->part]);
        break;
    }
    }
    return 0;
}

/* Walks one tile with `threads` threads (at least 3 roles: produce, side,
 * one judge). With `until_settled`, it stops producing once every line's
 * side walk has settled, judges what it produced and sets *stopped_at to
 * the first scan position it did not walk (the line's length when it went
 * to the end). */
static int pipeline_tile(const compare_context *ctx, tile *t, unsigned threads, bool until_settled,
                         uint64_t *stopped_at, dmlconf_comparison *out, dmlconf_error *err)
{
    pipeline p;
    memset(&p, 0, sizeof(p));
    p.ctx = ctx;
    p.tile = t;
    p.judges = threads > 3u ? threads - 2u : 1u;
    size_t elements = PIPELINE_ELEMENTS_PER_JUDGE * p.judges;
    elements = elements < PIPELINE_MIN_ELEMENTS ? PIPELINE_MIN_ELEMENTS : elements;
    elements = elements > PIPELINE_MAX_ELEMENTS ? PIPELINE_MAX_ELEMENTS : elements;
    p.capacity = elements / t->lines;
    p.chunk_count = (ctx->n + p.capacity - 1u) / p.capacity;
    role *roles = calloc(p.judges + 2u, sizeof(*roles));
    p.summaries = calloc(p.judges, sizeof(*p.summaries));
    int status = roles && p.summaries ? 0 : -1;
    for (int s = 0; s < 3 && status == 0; ++s)
        status = chunk_alloc(ctx, &p.sets[s], p.capacity * t->lines, false);
    for (int s = 0; s < 2 && status == 0 && ctx->want_side; ++s)
    {
        p.side_sets[s] = malloc(p.capacity * t->lines * sizeof(dmlconf_side_data));
        status = p.side_sets[s] ? 0 : -1;
    }
    if (status)
        judging_set_error(err, "out of memory for the comparator's pipeline of %zu elements a chunk",
                          p.capacity * t->lines);

    /* Round r: produce chunk r, side data of chunk r - 1, judge chunk
     * r - 2. */
    uint64_t produced = p.chunk_count; /* chunks to produce (fewer once settled) */
    for (uint64_t round = 0; status == 0 && round < produced + 2u; ++round)
    {
        size_t count = 0;
        if (round < produced)
            roles[count++] = (role){&p, 0, 0, round, 0, {{0}}, {NULL}};
        if (ctx->want_side && round >= 1 && round - 1u < produced)
            roles[count++] = (role){&p, 1, 0, round - 1u, 0, {{0}}, {NULL}};
        if (round >= 2)
            for (size_t part = 0; part < p.judges; ++part)
                roles[count++] = (role){&p, 2, part, round - 2u, 0, {{0}}, {NULL}};
        /* Roles 1.. on threads of their own, role 0 here. */
        size_t started = 1;
        for (; started < count; ++started)
            if (dmlconf_thread_start(&roles[started].thread, run_role, &roles[started]))
                break;
        if (count)
            run_role(&roles[0]);
        for (size_t k = 1; k < started; ++k)
            dmlconf_thread_join(&roles[k].thread);
        for (size_t k = started; k < count; ++k)
            run_role(&roles[k]); /* no thread to start: run it here */
        for (size_t k = 0; k < count && status == 0; ++k)
        {
            if (roles[k].status)
            {
                status = -1;
                if (err)
                    *err = roles[k].err;
            }
        }
        /* Chunks 0 .. round are produced; once the side walks have settled
         * (after chunk round - 1), no more. */
        if (until_settled && produced == p.chunk_count && round + 1u < produced)
        {
            bool settled = true;
            for (size_t k = 0; k < t->lines; ++k)
                settled = settled && t->sides[k].settled;
            if (settled)
                produced = round + 1u;
        }
    }
    if (stopped_at)
        *stopped_at = produced * p.capacity < ctx->n ? produced * p.capacity : ctx->n;
    for (size_t part = 0; status == 0 && part < p.judges; ++part)
        judging_merge(out, &p.summaries[part]);
    for (int s = 0; s < 3; ++s)
        chunk_free(&p.sets[s]);
    free(p.side_sets[0]);
    free(p.side_sets[1]);
    free(p.summaries);
    free(roles);
    return status;
}

/* ---- a long line in segments ------------------------------------------------- */

/* What summarising a segment costs against walking and judging it, about
 * (float32 sums judged bit for bit: 1 ns against 4 an element; with side
 * data the judging costs far more): the segments after the first are
 * shorter by that much, since their threads summarise first. Only the
 * balance depends on it, never a result. */
#define SUMMARY_COST      0.25
#define SUMMARY_COST_SIDE 0.0625

/* A summary of the line's elements [first, end) (for the oracle's scan),
 * and of the side data's counts over [counts_first, end) (when the rule
 * needs side data). */
typedef struct summary_job
{
    const compare_context *ctx;
    const tile *tile;
    uint64_t first, counts_first, end;
    dmlconf_scan_summary summary;
    dmlconf_side_walk counts; /* a settled walk: only the counts go on */
    int status;
    dmlconf_error err;
    dmlconf_thread thread;
    bool started;
} summary_job;

/* One thread's segment [first, end) of a one-line tile, walked and judged. */
typedef struct segment
{
    const compare_context *ctx;
    tile *tile;
    uint64_t first, end;
    bool continues;              /* the first: goes on with the tile's own walks */
    dmlconf_scan_summary prefix; /* the others: everything before the segment */
    dmlconf_side_walk side;      /* and the side walk at its start */
    dmlconf_comparison comparison;
    int status;
    dmlconf_error err;
    dmlconf_thread thread;
    bool started;
} segment;

static int run_summary_job(void *argument)
{
    summary_job *g = argument;
    const compare_context *ctx = g->ctx;
    chunk c;
    g->status = chunk_alloc(ctx, &c, CHUNK_ELEMENTS, ctx->want_side);
    if (g->status)
    {
        judging_set_error(&g->err, "out of memory for the comparator's chunks");
        chunk_free(&c);
        return 0;
    }
    c.capacity = CHUNK_ELEMENTS;
    char why[DMLCONF_MESSAGE_SIZE] = "";
    for (uint64_t first = g->first; first < g->end; first += c.capacity)
    {
        c.first = first;
        c.count = g->end - first < c.capacity ? (size_t)(g->end - first) : c.capacity;
        if (gather(ctx, &ctx->input, g->tile, g->tile->in_outer, g->tile->in_inner, &c, c.in, &c.direct, why,
                   sizeof(why)))
        {
            judging_set_error(&g->err, "cannot read the input: %s", why);
            g->status = -1;
            break;
        }
        const unsigned char *in = line_input(ctx, &c, 0);
        if (ctx->use_oracle)
            dmlconf_scan_summary_add(&g->summary, c.count, in);
        if (ctx->want_side && first + c.count > g->counts_first)
        {
            size_t skip = first < g->counts_first ? (size_t)(g->counts_first - first) : 0u;
            dmlconf_side_walk_next(&g->counts, c.count - skip, in + skip * ctx->size, c.side);
        }
    }
    chunk_free(&c);
    return 0;
}

static int run_segment(void *argument)
{
    segment *g = argument;
    const compare_context *ctx = g->ctx;
    /* The first segment goes on with the tile's walks; the others with a
     * copy of the tile whose walks are this thread's own, resumed from the
     * prefix. */
    tile own = *g->tile;
    dmlconf_scan_walk walk;
    tile *t = g->tile;
    chunk c;
    g->status = chunk_alloc(ctx, &c, CHUNK_ELEMENTS, ctx->want_side);
    if (g->status)
    {
        judging_set_error(&g->err, "out of memory for the comparator's chunks");
        chunk_free(&c);
        return 0;
    }
    if (!g->continues)
    {
        own.walks = &walk;
        own.sides = &g->side;
        own.walks_started = 0;
        t = &own;
        if (ctx->use_oracle)
        {
            g->status = dmlconf_scan_walk_resume(&walk, &g->prefix, ctx->desc->exclusive, read_line_history,
                                                 &g->tile->histories[0], &g->err);
            own.walks_started = 1;
        }
    }
    c.capacity = CHUNK_ELEMENTS;
    for (uint64_t first = g->first; g->status == 0 && first < g->end; first += c.capacity)
    {
        c.first = first;
        c.count = g->end - first < c.capacity ? (size_t)(g->end - first) : c.capacity;
        g->status = produce(ctx, t, &c, &g->err);
        if (g->status == 0)
        {
            if (ctx->want_side)
                dmlconf_side_walk_next(&t->sides[0], c.count, line_input(ctx, &c, 0), c.side);
            judge_range(ctx, t, &c, c.side, 0, c.count, &g->comparison);
        }
    }
    if (!g->continues)
        tile_end(&own);
    chunk_free(&c);
    return 0;
}

/* Runs the summary jobs on threads of their own, the first here, and
 * waits for them (a job whose thread does not start runs here too). */
static void run_summary_jobs(summary_job *jobs, size_t count)
{
    for (size_t k = 1; k < count; ++k)
        jobs[k].started = dmlconf_thread_start(&jobs[k].thread, run_summary_job, &jobs[k]) == 0;
    if (count)
        run_summary_job(&jobs[0]);
    for (size_t k = 1; k < count; ++k)
    {
        if (jobs[k].started)
            dmlconf_thread_join(&jobs[k].thread);
        else
            run_summary_job(&jobs[k]);
    }
}

/* The same for segments. */
static void run_segments(segment *segments, size_t count)
{
    for (size_t k = 1; k < count; ++k)
        segments[k].started = dmlconf_thread_start(&segments[k].thread, run_segment, &segments[k]) == 0;
    if (count)
        run_segment(&segments[0]);
    for (size_t k = 1; k < count; ++k)
    {
        if (segments[k].started)
            dmlconf_thread_join(&segments[k].thread);
        else
            run_segment(&segments[k]);
    }
}

/* Adds the counts of a settled side walk over a run of the line to
 * `current`, the side data before the run. */
static void add_counts(dmlconf_side_data *current, const dmlconf_side_data *run)
{
    current->terms += run->terms;
    current->specials |= run->specials;
    if (run->min_lsb_exponent < current->min_lsb_exponent)
        current->min_lsb_exponent = run->min_lsb_exponent;
    current->significand_bits += run->significand_bits;
}

/* A one-line tile on `threads` threads (at least 2) in segments: the
 * pipeline walks the line until its side data settles (from the start,
 * when the rule needs no side data); the rest is cut into one segment a
 * thread. The first segment's thread walks and judges it at once, going on
 * with the tile's walks; meanwhile the other threads summarise the line up
 * to the end of every segment but the last (the oracle's scan, the side
 * data's counts), each a part; then each of them walks and judges a later
 * segment from the summaries before it. The first segment is longer, by
 * what the others spend summarising: the same values as one walk over the
 * line, on every thread at once. */
static int segmented_tile(const compare_context *ctx, tile *t, unsigned threads, dmlconf_comparison *out,
                          dmlconf_error *err)
{
    uint64_t start = 0;
    if (ctx->want_side)
    {
        if (pipeline_tile(ctx, t, threads, true, &start, out, err))
            return -1;
        if (start >= ctx->n)
            return 0;
    }
    size_t count = threads < MAX_THREADS ? threads : MAX_THREADS;
    segment *segments = calloc(count, sizeof(*segments));
    summary_job *jobs = calloc(count - 1u, sizeof(*jobs));
    if (!segments || !jobs)
    {
        free(segments);
        free(jobs);
        judging_set_error(err, "out of memory for the comparator's segments");
        return -1;
    }
    /* Segment lengths: the first L, the others L (1 - c) - c w each, where
     * c is the summary's relative cost and w the part already walked (which
     * the oracle's first summary reads too), so that every thread ends at
     * about the same time. */
    double cost = ctx->want_side ? SUMMARY_COST_SIDE : ctx->use_oracle ? SUMMARY_COST : 0.0;
    double walked = ctx->use_oracle ? (double)start : 0.0;
    double rest = (double)(ctx->n - start), others = (double)(count - 1u);
    double first_length = (rest + others * cost * walked) / (1.0 + others * (1.0 - cost));
    uint64_t second = start + (first_length < rest ? (uint64_t)first_length : ctx->n - start);
    int status = 0;
    for (size_t k = 0; k < count; ++k)
    {
        segment *g = &segments[k];
        g->ctx = ctx;
        g->tile = t;
        g->first = k == 0 ? start : second + (ctx->n - second) * (k - 1u) / (count - 1u);
        g->end = k == 0 ? second : second + (ctx->n - second) * k / (count - 1u);
        g->continues = k == 0;
    }
    /* Summary job k: up to the end of segment k, from the end of the one
     * before (the first from the line's start, its counts from `start`). */
    for (size_t k = 0; k + 1u < count && status == 0; ++k)
    {
        summary_job *j = &jobs[k];
        j->ctx = ctx;
        j->tile = t;
        j->first = k == 0 && ctx->use_oracle ? 0 : segments[k].first;
        j->counts_first = segments[k].first;
        j->end = segments[k].end;
        status = dmlconf_scan_summary_init(&j->summary, ctx->desc->op, ctx->desc->input.data_type, err);
        if (status == 0 && ctx->want_side)
        {
            status = dmlconf_side_walk_init(&j->counts, ctx->desc->op, ctx->desc->input.data_type, false, err);
            j->counts.settled = true;
        }
    }
    if (status)
    {
        free(segments);
        free(jobs);
        return -1;
    }
    /* The side walk where the first segment starts, before its thread moves
     * it on. With expected values and no side data, nothing is summarised. */
    dmlconf_side_walk side = ctx->want_side ? t->sides[0] : jobs[0].counts;
    segments[0].started = dmlconf_thread_start(&segments[0].thread, run_segment, &segments[0]) == 0;
    if (ctx->use_oracle || ctx->want_side)
        run_summary_jobs(jobs, count - 1u);
    for (size_t k = 0; k + 1u < count && status == 0; ++k)
    {
        if (jobs[k].status)
        {
            status = -1;
            if (err)
                *err = jobs[k].err;
        }
    }
    if (status == 0)
    {
        /* The prefixes, in order; the side walks go on from the settled one
         * at `start`, counts added. */
        dmlconf_scan_summary prefix = jobs[0].summary;
        for (size_t k = 1; k < count; ++k)
        {
            if (k > 1u)
                dmlconf_scan_summary_combine(&prefix, &jobs[k - 1u].summary);
            segments[k].prefix = prefix;
            if (ctx->want_side)
                add_counts(&side.current, &jobs[k - 1u].counts.current);
            segments[k].side = side;
        }
        run_segments(segments + 1, count - 1u);
    }
    if (segments[0].started)
        dmlconf_thread_join(&segments[0].thread);
    else
        run_segment(&segments[0]);
    /* The first error in segment order. */
    for (size_t k = 0; k < count && status == 0; ++k)
    {
        if (segments[k].status)
        {
            status = -1;
            if (err)
                *err = segments[k].err;
        }
    }
    for (size_t k = 0; status == 0 && k < count; ++k)
        judging_merge(out, &segments[k].comparison);
    free(segments);
    free(jobs);
    return status;
}

/* ---- set-up ------------------------------------------------------------------ */

/* Checks a source and makes its view over `layout` (the tensor's sizes). */
static int make_view(const char *what, const dmlconf_tensor_source *source, const dmlconf_tensor_desc *compared,
                     uint32_t axis, view *v, dmlconf_error *err)
{
    memset(v, 0, sizeof(*v));
    if (source->buffer)
    {
        const dmlconf_tensor_desc *layout = source->layout;
        v->layout = *compared;
        if (layout)
        {
            if (layout->dimension_count != compared->dimension_count ||
                memcmp(layout->sizes, compared->sizes, compared->dimension_count * sizeof(uint32_t)) != 0)
            {
                judging_set_error(err, "the %s's layout has other sizes than the compared tensor", what);
                return -1;
            }
            v->layout.has_strides = layout->has_strides;
            memcpy(v->layout.strides, layout->strides, sizeof(v->layout.strides));
            v->layout.total_size_bytes = layout->total_size_bytes;
        }
        else
        {
            v->layout.has_strides = false;
            v->layout.total_size_bytes = 0;
        }
        /* The bytes up to the end of the last element (not rounded up as
         * DirectML's buffer sizes are: a packed logical tensor in memory
         * holds just its elements); no overflow once the minimum size is
         * known. */
        uint64_t minimum = 0;
        if (!dmlconf_tensor_min_size_bytes(&v->layout, &minimum))
        {
            judging_set_error(err, "the %s's layout spans more than 2^64 bytes", what);
            return -1;
        }
        uint64_t last = 0;
        for (uint32_t d = 0; d < v->layout.dimension_count; ++d)
            last += (uint64_t)(v->layout.sizes[d] - 1u) * dmlconf_tensor_stride(&v->layout, d);
        uint64_t need = (last + 1u) * (dmlconf_data_type_bits(compared->data_type) / 8u);
        if (source->bytes < need)
        {
            judging_set_error(err, "the %s buffer holds %zu bytes; its layout needs %" PRIu64, what, source->bytes,
                              need);
            return -1;
        }
        v->buffer = source->buffer;
        v->axis_stride = dmlconf_tensor_stride(&v->layout, axis);
        return 0;
    }
    if (!source->read)
    {
        judging_set_error(err, "the %s has neither a buffer nor a reader", what);
        return -1;
    }
    v->layout = *compared;
    v->read = source->read;
    v->context = source->context;
    return 0;
}

/* Checks that a job can be compared: a valid desc of a computable type and an
 * output buffer large enough for its tensor. Returns 0, or -1 with `err`. */
static int check_job(const dmlconf_compare_job *job, dmlconf_error *err)
{
    const dmlconf_scan_desc *desc = job ? job->desc : NULL;
    if (!desc || !job->actual)
    {
        judging_set_error(err, "%s is NULL", !desc ? "the desc" : "the actual output");
        return -1;
    }
    dmlconf_validation validation;
    if (!dmlconf_validate(desc, DMLCONF_FEATURE_LEVEL_6_4, &validation))
    {
        judging_set_error(err, "invalid desc (%s): %s", dmlconf_reason_name(validation.reason), validation.message);
        return -1;
    }
    dmlconf_data_type type = desc->output.data_type;
    if (!dmlconf_data_type_is_computable(type) || desc->input.data_type != type)
    {
        const char *name = dmlconf_data_type_name(type);
        judging_set_error(err, "data type %s cannot be compared", name ? name : "(unknown)");
        return -1;
    }
    uint64_t need = 0;
    if (!dmlconf_tensor_min_size_bytes(&desc->output, &need) || job->actual_bytes < need)
    {
        judging_set_error(err, "the output buffer holds %zu bytes; its tensor needs %" PRIu64, job->actual_bytes, need);
        return -1;
    }
    return 0;
}

/* Sets up the context of a checked job: the judge with its tolerance (a count
 * of "the axis length minus 1" ulps becomes a number here, where the axis is
 * known), the tensor seen as [outer, n, inner] and the views of its buffers.
 * Returns 0, or -1 with `err`. */
static int context_init(compare_context *ctx, const dmlconf_compare_job *job, dmlconf_error *err)
{
    const dmlconf_scan_desc *desc = job->desc;
    dmlconf_data_type type = desc->output.data_type;
    const dmlconf_tolerance *tol = job->tol;
    dmlconf_tolerance resolved;
    if (tol && tol->form == DMLCONF_TOLERANCE_FORM_ULP_COUNT && tol->ulp_count_axis_length_minus_1)
    {
        resolved = *tol;
        resolved.ulp_count = (double)desc->input.sizes[desc->axis] - 1.0;
        resolved.ulp_count_axis_length_minus_1 = false;
        tol = &resolved;
    }
    if (dmlconf_judge_init(&ctx->judge, desc->op, type, tol, err))
        return -1;
    ctx->desc = desc;
    ctx->has_canary = tol && tol->has_canary;
    ctx->canary_bits = tol ? tol->canary_bits : 0;
    ctx->size = dmlconf_data_type_bits(type) / 8u;
    ctx->axis = desc->axis;
    ctx->n = desc->input.sizes[desc->axis];
    ctx->inner = 1;
    for (uint32_t d = desc->axis + 1u; d < desc->input.dimension_count; ++d)
        ctx->inner *= desc->input.sizes[d];
    ctx->outer = dmlconf_line_count(&desc->input, desc->axis) / ctx->inner;
    ctx->reversed = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING;
    ctx->want_side =
        ctx->judge.is_float && ctx->judge.tol.form == DMLCONF_TOLERANCE_FORM_BOUND && !ctx->judge.tol.bit_exact;
    ctx->fast_equal = !ctx->judge.is_float || ctx->judge.tol.bit_exact;
    ctx->equal_rule = ctx->judge.is_float ? DMLCONF_RULE_BIT_EXACT : DMLCONF_RULE_INTEGER;
    ctx->use_oracle = !job->expected.buffer && !job->expected.read;
    if (make_view("input", &job->input, &desc->input, desc->axis, &ctx->input, err))
        return -1;
    if (!ctx->use_oracle && make_view("expected values", &job->expected, &desc->input, desc->axis, &ctx->expected, err))
        return -1;
    dmlconf_tensor_source output = {job->actual, job->actual_bytes, &desc->output, NULL, NULL};
    if (make_view("output", &output, &desc->output, desc->axis, &ctx->output, err))
        return -1;
    ctx->tiles_per_outer = (ctx->inner + TILE_LINES - 1u) / TILE_LINES;
    ctx->tile_count = ctx->outer * ctx->tiles_per_outer;
    return 0;
}

/* A few long tiles: one at a time, each through the pipeline (or, a single
 * line, in segments) on `threads` threads. Returns 0, or -1 with `err`. */
static int compare_long_tiles(compare_context *ctx, unsigned threads, dmlconf_comparison *out, dmlconf_error *err)
{
    tile_memory memory;
    if (tile_memory_init(&memory))
    {
        tile_memory_free(&memory);
        judging_set_error(err, "out of memory for the comparator");
        return -1;
    }
    int status = 0;
    for (uint64_t number = 0; status == 0 && number < ctx->tile_count; ++number)
    {
        tile t;
        status = tile_begin(ctx, number, &memory, &t, err);
        if (status == 0)
            status = t.lines == 1 && ctx->n >= SEGMENT_MIN_LENGTH
                         ? segmented_tile(ctx, &t, threads, out, err)
                         : pipeline_tile(ctx, &t, threads, false, NULL, out, err);
        tile_end(&t);
    }
    tile_memory_free(&memory);
    return status;
}

/* Tiles shared out over `threads` threads, this one included, their
 * summaries merged into `out`. On failure, the error of the first tile that
 * failed, so that the message does not depend on the threads. Returns 0, or
 * -1 with `err`. */
static int compare_shared_tiles(compare_context *ctx, unsigned threads, dmlconf_comparison *out, dmlconf_error *err)
{
    unsigned workers = threads;
    if ((uint64_t)workers > ctx->tile_count)
        workers = (unsigned)ctx->tile_count;
    tile_worker *w = calloc(workers, sizeof(*w));
    if (!w)
    {
        judging_set_error(err, "out of memory for the comparator");
        return -1;
    }
    for (unsigned k = 0; k < workers; ++k)
    {
        w[k].ctx = ctx;
        w[k].first_tile = k;
        w[k].tile_step = workers;
    }
    for (unsigned k = 1; k < workers; ++k)
        w[k].started = dmlconf_thread_start(&w[k].thread, run_tile_worker, &w[k]) == 0;
    run_tile_worker(&w[0]);
    for (unsigned k = 1; k < workers; ++k)
    {
        if (w[k].started)
            dmlconf_thread_join(&w[k].thread);
        else
            run_tile_worker(&w[k]); /* no thread: its tiles run here */
    }
    uint64_t failed = UINT64_MAX;
    int status = 0;
    for (unsigned k = 0; k < workers; ++k)
    {
        if (w[k].failed_tile < failed)
        {
            failed = w[k].failed_tile;
            if (err)
                *err = w[k].err;
            status = -1;
        }
    }
    for (unsigned k = 0; status == 0 && k < workers; ++k)
        judging_merge(out, &w[k].summary);
    free(w);
    return status;
}

int dmlconf_compare_tensor(const dmlconf_compare_job *job, dmlconf_comparison *out, dmlconf_error *err)
{
    if (!out)
    {
        judging_set_error(err, "no comparison record given");
        return -1;
    }
    memset(out, 0, sizeof(*out));
    if (check_job(job, err))
        return -1;
    compare_context *ctx = calloc(1, sizeof(*ctx));
    if (!ctx)
    {
        judging_set_error(err, "out of memory for the comparator");
        return -1;
    }
    int status = context_init(ctx, job, err);
    if (status == 0)
    {
        unsigned threads = job->threads ? job->threads : 1u;
        threads = threads > MAX_THREADS ? MAX_THREADS : threads;
        if (threads > 1u && ctx->tile_count < 2u * threads && ctx->n >= PIPELINE_MIN_LENGTH)
            status = compare_long_tiles(ctx, threads, out, err);
        else
            status = compare_shared_tiles(ctx, threads, out, err);
    }
    if (status == 0)
        judging_finish(out, &job->desc->output, job->desc->axis);
    else
        memset(out, 0, sizeof(*out));
    free(ctx);
    return status;
}
