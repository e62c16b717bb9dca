/*
 * Planning one cumulative operator as a sequence of kernel dispatches
 * (passes), on the CPU, without a device.
 *
 * The tensor's non-axis dimensions are folded (size-1 dimensions dropped,
 * neighbours that are contiguous in both tensors merged) into at most seven
 * (size, input stride, output stride) triples that the kernels decode per
 * line. A long axis is split into chunks: a reduce pass writes each chunk's
 * total to scratch, the totals are scanned (exclusive, the same plan applied
 * recursively to the totals), and a scan pass rescans each chunk from its
 * offset. A tensor whose buffers are larger than one buffer view may reach
 * is cut into pieces: blocks of lines, and segments of the axis that carry
 * their running totals to the next segment through scratch.
 */
#ifndef DMLCONF_SCAN_PLAN_H
#define DMLCONF_SCAN_PLAN_H

#include "scan_kernels.h"
#include "scan_params.h"

#include <dmlconf/oracle.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How the plan adapts to the device (and the knobs the tests turn). */
typedef struct plan_limits
{
    uint32_t parallel_items;    /* work items that fill the device */
    uint32_t lane_items;        /* the same for the serial kernel's two-lane classes (line pairs; 0:
                                 * parallel_items) */
    uint32_t min_chunk;         /* the serial kernel's shortest chunk worth a thread */
    uint32_t max_chunk;         /* 0, or the longest serial chunk (forces chunking) */
    uint32_t tile_min_length;   /* lines at least this long and contiguous use `group_kind` */
    kernel_kind group_kind;     /* the cooperative kernel for those: KERNEL_TILE or KERNEL_RAKE */
    unsigned tile_shape;        /* their shape (scan_kernels.h) */
    unsigned totals_shape;      /* the tile kernel's shape for lines of chunk totals */
    uint32_t tile_groups;       /* tile kernel: work items that fill the device (0: a chunk is one tile) */
    uint32_t tile_min_tiles;    /* tile kernel: the fewest tiles a chunk walks, where the line has them */
    uint32_t tile_one_chunk;    /* tile kernel: lines at most this long are walked by one group, in one
                                 * chunk (0: no such rule) */
    bool lookback;              /* lines that need several tile-kernel chunks and move in blocks are
                                 * scanned in one pass instead, by looking back */
    uint32_t lookback_tiles;    /* that pass: 0, chained tile-kernel passes of a few tiles a chunk (by
                                 * element size); 1, the look-back kernel (a tile a chunk); N >= 2,
                                 * chained passes of N tiles a chunk */
    bool chained_always;        /* with the tile kernel forced: every line that moves in blocks takes a
                                 * chained pass, one chunk long or more (a test knob) */
    bool lookback_spans;        /* one-pass chunks publish spans, never inclusive prefixes past the
                                 * first chunk (a test knob: every look-back jumps) */
    bool short_lines;           /* short lines packed in memory use the short-line kernel */
    uint32_t single_pass_lines; /* the serial kernel does not cut lines into chunks when there are at
                                 * least this many (0: always by parallel_items) */
    bool forced;                /* every pass uses `forced_kind` (a test knob) */
    kernel_kind forced_kind;
    uint64_t max_span_bytes; /* the widest byte range one binding of one pass may touch */
    kernel_fault fault;      /* a deliberately broken variant (self-test only) */
} plan_limits;

/* The buffers a pass binds, each placed by the caller. */
typedef enum plan_region
{
    REGION_INPUT,
    REGION_OUTPUT,
    REGION_SCRATCH,
    REGION_COUNT
} plan_region;

/* One dispatch. The parameter block's offsets are relative to the start of
 * each binding's region; the caller rebases them onto the view it binds. */
typedef struct plan_pass
{
    kernel_key key;
    uint32_t params[SCAN_PARAM_WORDS];
    uint8_t region[3];         /* the region bound to u0, u1, u2 */
    bool used[3];              /* whether the pass touches u0, u1, u2 at all */
    uint64_t lo[3], hi[3];     /* byte range touched in each region (hi exclusive) */
    unsigned element_bytes[3]; /* element size of each binding's offsets */
    uint32_t status_count;     /* one-pass scans: accumulators in the status buffer (u4) from
                                * SCAN_P_STATUS_BASE, which the caller places; else 0 */
} plan_pass;

/* The passes of one job, in order (each may depend on the one before). */
typedef struct job_plan
{
    plan_pass *passes;
    size_t count;
    size_t capacity;
    uint64_t scratch_bytes; /* size of the scratch region */
} job_plan;

/* The kernel element class of a data type (FLOAT32, FLOAT16, [U]INT32,
 * [U]INT64); false for a type the kernels do not compute. */
bool plan_element_of(dmlconf_data_type type, kernel_element *element);

/* Plans `desc`, which must be valid (dmlconf_validate) with a computable
 * type, into `plan` (zero-initialised by the caller; plan_release frees it).
 * `input_bytes` and `output_bytes` are the sizes of the bound buffers.
 * Returns 0, or -1 with a sentence in `why` when memory runs out or a
 * single stride is wider than one view (the tensor cannot be cut so that
 * each pass stays within one view). */
int plan_job(const dmlconf_scan_desc *desc, const plan_limits *limits, job_plan *plan, char *why, size_t why_size);

/* Frees the passes. */
void plan_release(job_plan *plan);

/* A pass's name for traces: its kernel's (kernel_key_name), with
 * " chained" after a chained pass of the tile kernel. */
void plan_pass_name(const plan_pass *pass, char *out, size_t size);

/* The chunk length of the one-pass scans of lines of data (not of chunk
 * totals) of class `element` under `limits`, or 0 when none runs. */
uint64_t plan_one_pass_chunk(const plan_limits *limits, kernel_element element);

/* The most status accumulators one pass may take: a one-pass scan of more
 * chunks takes two passes instead. */
#define PLAN_MAX_STATUS (UINT32_C(1) << 22)

/* The most kernel variants plan_kernels_in_reach lists. */
#define PLAN_MAX_KERNELS 128u

/* The kernel variants that plans under `limits` can use, the costliest to
 * build first (the cooperative, look-back and short-line kernels, then the
 * serial kernel; float32 and sums first within each), for
 * building pipelines ahead of use. Every key plan_job puts in a pass is among them (a test
 * holds it to that). Writes at most `max` keys into `out` and returns how
 * many it wrote. */
size_t plan_kernels_in_reach(const plan_limits *limits, kernel_key *out, size_t max);

#endif /* DMLCONF_SCAN_PLAN_H */
