/*
 * The contract between the CPU planner and the scan kernels: what one
 * dispatch's parameter block holds and how the kernels bind resources.
 *
 * Bindings (root signature): b0 = root constants (SCAN_ROOT_*), u0 = input
 * window, u1 = output window, u2 = scratch window (chunk totals and
 * carries, in accumulator elements), u3 = the parameter blocks, u4 = the
 * backend's status buffer (the one-pass scans' chunk statuses and ticket
 * counters; see below). Every offset in a block is in elements of its
 * buffer's type and relative to the bound window.
 *
 * (A root constant buffer view for the block was tried: about 7% faster on
 * NVIDIA, but lavapipe compiles a new shader variant for every distinct
 * constant buffer content it sees in control flow, which made each small
 * dispatch cost a millisecond.)
 *
 * A dispatch scans L lines of one "segment" of n elements each, split into K
 * chunks of C elements (the last may be shorter). Work item w (a thread for
 * the serial kernel, a thread group for the tile and rake kernels) handles
 * line l = w % L and chunk k = w / L, or with SCAN_FLAG_CHUNK_MAJOR chunk
 * k = w % K and line l = w / K (neighbouring groups then stream through
 * neighbouring memory). Line l's first element in scan order lies at
 * in_first + sum(c_d * in_stride_d) where c_d are l's coordinates over the
 * folded non-axis dimensions (fastest first); element i of the line follows
 * at + i * in_step (steps are two's complement: a decreasing scan walks
 * backwards). The same for the output.
 *
 * The accumulator starts at the identity, or, with SCAN_FLAG_INIT, at
 * scratch[init_base + l * K + k]. With SCAN_FLAG_STORE each element's result
 * is stored (the running value before the element when SCAN_FLAG_EXCLUSIVE,
 * after it otherwise); with SCAN_FLAG_FINAL the chunk's final accumulator
 * goes to scratch[final_base + l * K + k].
 *
 * A one-pass scan (the look-back kernel, or SCAN_FLAG_CHAINED) keeps, from
 * u4 accumulator status_base on, two accumulators per chunk (slot l * K +
 * k) for the value it publishes, then one for the ticket counter. Each
 * 32-bit word there carries the pass's epoch (SCAN_P_EPOCH, 1 to
 * SCAN_EPOCH_MAX) in bits 24-31, a status in bits 16-23 and 16 bits of the
 * value in bits 0-15; the ticket counter holds the epoch in bits 24-31 and
 * the tickets drawn in bits 0-23. A word from another epoch reads as
 * nothing published and no ticket drawn, so the buffer needs no clearing
 * between passes: each batch's passes take a new epoch and areas of their
 * own, and the buffer is zeroed only when the epochs wrap (or it is new).
 * Epochs only grow between zeroings, which the ticket relies on.
 */
#ifndef DMLCONF_SCAN_PARAMS_H
#define DMLCONF_SCAN_PARAMS_H

/* Words of a parameter block, and its size in bytes (a multiple of 16 so
 * that blocks stay aligned for four-word loads). */
#define SCAN_PARAM_WORDS 48u
#define SCAN_PARAM_BYTES (SCAN_PARAM_WORDS * 4u)

/* Word indices in a parameter block. */
enum
{
    SCAN_P_WORK_ITEMS = 0, /* L * K */
    SCAN_P_LINES = 1,      /* L */
    SCAN_P_CHUNKS = 2,     /* K */
    SCAN_P_CHUNK = 3,      /* C */
    SCAN_P_LENGTH = 4,     /* n */
    SCAN_P_IN_FIRST = 5,
    SCAN_P_IN_STEP = 6,
    SCAN_P_OUT_FIRST = 7,
    SCAN_P_OUT_STEP = 8,
    SCAN_P_FLAGS = 9,
    SCAN_P_INIT_BASE = 10,
    SCAN_P_FINAL_BASE = 11,
    SCAN_P_DIMENSIONS = 12,  /* D, at most SCAN_MAX_LINE_DIMENSIONS */
    SCAN_P_STATUS_BASE = 13, /* one-pass scans: the chunks' published values in u4, then the ticket counter */
    SCAN_P_EPOCH = 14,       /* one-pass scans: the epoch their words carry */
    SCAN_P_DIMENSION0 = 16,  /* then per dimension: size, in stride, out stride, unused */
};

/* The folded non-axis dimensions a block can describe. */
#define SCAN_MAX_LINE_DIMENSIONS 7u

enum
{
    SCAN_FLAG_EXCLUSIVE = 1u << 0,
    SCAN_FLAG_INIT = 1u << 1,
    SCAN_FLAG_FINAL = 1u << 2,
    SCAN_FLAG_STORE = 1u << 3,
    SCAN_FLAG_CHUNK_MAJOR = 1u << 4,
    /* The lines step by +1 or -1 in both tensors alike: the cooperative
     * kernels move them in memory-order blocks of 32-bit words. */
    SCAN_FLAG_BLOCKS = 1u << 5,
    /* The tile kernel scans each chunk in one pass by looking back
     * (kernel_lookback.c): work items are tickets, and the chunks publish
     * at SCAN_P_STATUS_BASE as the look-back kernel's do. */
    SCAN_FLAG_CHAINED = 1u << 6,
};

/* Root constants (b0) of the scan kernels: the block's byte offset in u3,
 * how many work items a row of the dispatch grid holds (work item = id.y *
 * row + id.x), and a zero; other kernels on the same root signature (the
 * benchmark's copy kernel) use the four words as they like. */
enum
{
    SCAN_ROOT_PARAM_OFFSET = 0,
    SCAN_ROOT_ROW_ITEMS = 1,
    /* Always 0: a value the shader compiler cannot know (the f16-accumulate
     * fault rounds through it, so no compiler can fold the round trip). */
    SCAN_ROOT_ZERO = 2,
    SCAN_ROOT_CONSTANTS = 4,
};

/* The root signature's parameters in order: b0's constants, then one root
 * UAV per UAV register. */
enum
{
    SCAN_CB_ROOT = 0,
    SCAN_ROOT_PARAMETER_CONSTANTS = 0,
    SCAN_ROOT_PARAMETER_UAV0 = 1,
};

/* UAV registers. */
enum
{
    SCAN_UAV_INPUT = 0,
    SCAN_UAV_OUTPUT = 1,
    SCAN_UAV_SCRATCH = 2,
    SCAN_UAV_PARAMS = 3,
    SCAN_UAV_STATUS = 4,
    SCAN_UAV_COUNT = 5,
};

/* The largest epoch; words of epoch 0 are zero. */
#define SCAN_EPOCH_MAX 255u

/* Threads per group of the serial kernel. (The tile and rake kernels' group
 * sizes and elements per thread are their shapes, scan_kernels.h.) */
#define SCAN_SERIAL_GROUP 64u

#endif /* DMLCONF_SCAN_PARAMS_H */
