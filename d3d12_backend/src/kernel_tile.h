/*
 * What the group-cooperative kernels (tile, rake, look-back, short lines)
 * share: their registers, the tile staged in groupshared memory, the
 * memory-order block I/O that moves it, and the scan of the thread totals.
 *
 * Groupshared g0 holds a block of elements as accumulators (float16 widened
 * to float32), skewed so that threads reading runs of consecutive slots do
 * not collide on memory banks: slot s of a 32-bit class is word
 * s + s / 32, of a 64-bit class words 2s + s / 16 and the next. g1 holds two
 * buffers of thread totals for the Hillis-Steele steps; g2 a few words the
 * group shares (the look-back's ticket, prefix and decisions).
 */
#ifndef DMLCONF_KERNEL_TILE_H
#define DMLCONF_KERNEL_TILE_H

#include "kernel_asm.h"

enum
{
    R_ITEM = 0,  /* x work item (group), y block address, z/w scratch */
    R_HEAD = 1,  /* work items, lines, chunks, chunk length */
    R_AXIS = 2,  /* length, in first, in step, out first */
    R_MORE = 3,  /* out step, flags, init base, final base */
    R_LINE = 4,  /* x dimensions, y chunk k, z line l, w slot l*K+k */
    R_WALK = 5,  /* x remaining line index, y in offset, z out offset, w dimension */
    R_RANGE = 6, /* x dimension address, y first index i0, z end i1, w lane */
    R_DIM = 7,   /* size, in stride, out stride */
    R_ACC = 8,
    R_PREV = 9,
    R_VALUE = 10,
    R_T0 = 11,
    R_T1 = 12,
    R_FLAGS = 13, /* x store, y exclusive, z init, w final */
    R_POS = 14,   /* x position or slot, y element index, z groupshared address, w element offset */
    R_BASE = 15,  /* the chunk's initial value */
    R_OTHER = 16,
    R_MODE = 17, /* x: the block is full; y: validity; z: decreasing (all ones) or 0; w scratch */
    R_IO = 18,   /* x input offset of slot 0, y output offset of slot 0, z first valid slot, w end of the valid slots */
    R_LOOK = 19, /* look-back: x window end, y status, z/w scratch */
    R_ROW = 20,  /* a looped walk over a thread's rows (tile_rows): x row offset, y scratch */
    R_COUNT = 21,
    R_VALUES = 21, /* one register per element of the thread's run */
};

enum
{
    G_TILE = 0,
    G_TOTALS = 1,
    G_SHARED = 2,
};

/* The words of g2: the ticket, then the look-back's prefix. */
#define TILE_SHARED_WORDS 8u

/* A group barrier with a groupshared fence. */
void tile_barrier(dxbc_program *p);

/* A thread's rows of a block or tile, row r at offset r * group from its
 * lane: emitted unrolled (the body once per row, its offset an immediate:
 * every row's loads can be in flight at once) or looped (the body once, in
 * a loop whose counter R_ROW.x steps by `group`), for paths that run at most
 * once per chunk or line, where the driver's compile time matters more:
 *
 *   for (tile_rows w = tile_rows_begin(p, rows, group, looped);
 *        tile_rows_next(p, &w);)
 *       ...body, with R_POS.x = R_RANGE.w + the row's offset...
 *
 * The body must not use R_ROW; tile_rows_next closes the loop when it
 * returns false. */
typedef struct tile_rows
{
    unsigned r, rows, group;
    bool looped;
} tile_rows;

tile_rows tile_rows_begin(dxbc_program *p, unsigned rows, unsigned group, bool looped);

/* Whether a kernel's partial-tile paths walk their rows in a loop: every
 * kernel but the 64-bit products. On an H100 the loops made the tile
 * kernels 34-38% smaller and the corpus's cold run 0.15 s shorter, left
 * the 32-bit and float16 1-D scans as fast or faster (float32 0.369 ->
 * 0.368 ms, float16 0.234 -> 0.231), and slowed the int64 products, whose
 * registers are the tightest, from 0.919 to 0.952 ms
 * (reports/gpu/nvidia-h100-2026-11-26-5/). */
bool tile_rows_looped(const kernel_key *key);
bool tile_rows_next(dxbc_program *p, tile_rows *w);

/* dst = the groupshared byte address of slot `slot` (a register component)
 * for accumulators of class `acc_element` (the skewed layout above). */
void tile_slot_address(dxbc_program *p, kernel_element acc_element, dxbc_operand dst, dxbc_operand slot);

/* Bytes of groupshared memory a block of `slots` accumulators takes. */
unsigned tile_block_bytes(kernel_element acc_element, unsigned slots);

/* Loads a block of `slots` consecutive elements of UAV `uav` in memory
 * order into groupshared slots 0..slots-1: slot s is the element at offset
 * R_IO[base_component] + s. Only slots in [R_IO.z, R_IO.w) are read from
 * memory (a non-empty range); the others get the operation's identity.
 * `full`: the caller knows every slot is valid (no checks emitted). Threads
 * take 32-bit words in coalesced rows: two float16 elements, half a 64-bit
 * one; `looped`: the rows in a loop (tile_rows). Uses R_POS, R_MODE.y/w,
 * R_VALUE, R_OTHER, R_T0, R_T1 and R_ROW. */
void emit_block_load(dxbc_program *p, const kernel_key *key, unsigned slots, unsigned uav, unsigned base_component,
                     bool full, bool looped);

/* Stores groupshared slots [R_IO.z, R_IO.w) of a block of `slots` to UAV
 * `uav` at offsets R_IO[base_component] + s, narrowing float16, in coalesced
 * 32-bit words; a float16 word shared with an element outside the range
 * gets only its own half, atomically. Same registers as emit_block_load. */
void emit_block_store(dxbc_program *p, const kernel_key *key, unsigned slots, unsigned uav, unsigned base_component,
                      bool full, bool looped);

/* With every thread's total in G_TOTALS[lane] (and a barrier behind): the
 * inclusive Hillis-Steele scan of the totals, a barrier behind each step.
 * Returns the offset of the buffer in G_TOTALS that holds the result. */
unsigned tile_scan_thread_totals(dxbc_program *p, const kernel_key *key);

/* After tile_scan_thread_totals (its result at `source`): R_ACC = this
 * thread's starting value (R_BASE combined with the totals of the threads
 * before it), then R_BASE advanced past the whole tile. */
void tile_advance_base(dxbc_program *p, const kernel_key *key, unsigned source);

/* The look-back's part (kernel_lookback.c), shared with the tile kernel's
 * chained passes. R_LOOK.w = the status base in 32-bit words, for
 * accumulators of 8 bytes when `wide`. */
void lookback_load_status_base(dxbc_program *p, bool wide);

/* The chunk's exclusive prefix into R_BASE (every thread), with the
 * chunk's aggregate at `source` + group - 1 in G_TOTALS (the result of
 * tile_scan_thread_totals) and R_LOOK.w set: chunk 0 has it at once (the
 * identity, or scratch[init base + l] with SCAN_FLAG_INIT) and publishes
 * its inclusive prefix; the others publish their aggregate, look back
 * over their predecessors (thread 0 alone), and publish their inclusive
 * prefix (spans instead, past chunk 0, in the spans variant). Ends with a
 * barrier, but thread 0 reads G_TOTALS after it. */
void lookback_chunk_prefix(dxbc_program *p, const kernel_key *key, unsigned source);

/* The line's last chunk writes R_BASE, the line's total, to
 * scratch[final base + l] from its last thread (SCAN_FLAG_FINAL). */
void lookback_store_line_total(dxbc_program *p, const kernel_key *key);

/* value = exclusive ? running value before it : after it, advancing R_ACC. */
void tile_rescan_value(dxbc_program *p, const kernel_key *key, unsigned value);

/* The drop-element fault: `value` becomes the identity when the element's
 * index in its line (a register component) is 1. Nothing without it. */
void tile_drop_element_fault(dxbc_program *p, const kernel_key *key, dxbc_operand index, unsigned value);

#endif /* DMLCONF_KERNEL_TILE_H */
