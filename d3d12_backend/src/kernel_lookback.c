/*
 * The single-pass scan with decoupled look-back: long lines contiguous along
 * the axis are read once and written once.
 *
 * Each thread group takes a ticket (kernel_prologue.c), which names its
 * work item: chunk k of line l, chunk-major, one tile (or less) long. The
 * group loads its tile, reduces it to its aggregate as the tile kernel does,
 * and publishes it; then it looks back over the chunks before it in its
 * line, combining their published aggregates until it meets a published
 * inclusive prefix, publishes its own inclusive prefix, rescans its tile
 * from its exclusive prefix and stores it. Chunk 0 of a line starts from
 * the identity or, with SCAN_FLAG_INIT, from scratch[init_base + l] (the
 * carry of an earlier segment), and publishes its inclusive prefix at
 * once; with SCAN_FLAG_FINAL the line's last chunk writes the line's total
 * to scratch[final_base + l].
 *
 * What a chunk publishes lives in the status buffer (u4) at accumulators
 * SCAN_P_STATUS_BASE + 2 * (l * K + k), in 32-bit words that each carry the
 * pass's epoch in bits 24-31, a status in bits 16-23 and 16 bits of the
 * value in bits 0-15 (scan_params.h): two words for a 32-bit value, four
 * for a 64-bit one. Statuses: 1, the chunk's aggregate; 2, its inclusive
 * prefix; 3 + s (1 <= s <= 252), the chunks k - s .. k combined (a span).
 * Every word is written with one atomic exchange and read with one atomic
 * or, so a reader sees each word either before or after a write; a value
 * counts as published only when all its words carry the pass's epoch and
 * the same status (a reader that catches a value between two writes reads
 * it again, and a word left by an earlier pass reads as nothing yet), and
 * no ordering between the words is needed. So the words need no clearing
 * before the dispatch.
 *
 * The look-back is thread 0's alone, without group barriers: it walks back
 * from chunk k - 1, one predecessor per atomic read, stepping over a whole
 * span at once, and after each step publishes its own span (all it has
 * combined, with its aggregate), so a chunk behind it jumps over its walk
 * instead of repeating it; an inclusive prefix ends the walk. (Reading 32
 * predecessors a round, one per thread, and combining them through
 * groupshared memory was 1.1-2.4x slower on an H200:
 * reports/gpu/nvidia-h200-lookback.md.) A group only ever waits for groups
 * that drew earlier tickets, which are running, so the wait ends; a bound
 * on the reads keeps a broken device from spinning for ever (the result is
 * then wrong, and the comparator says so).
 */
#include "kernel_tile.h"
#include "scan_params.h"

/* Reads after which the look-back gives up. */
#define LOOKBACK_ROUNDS (1u << 22)

/* Groupshared g2, in words: the ticket, then the exclusive prefix the
 * look-back found (two words). */
enum
{
    LB_TICKET = 0,
    LB_PREFIX = 4,
    LB_WORDS = TILE_SHARED_WORDS,
};

static bool wide_class(kernel_element acc_element)
{
    return kernel_accumulator_bytes(acc_element) == 8;
}

/* R_T0.x = the byte address of word `word` of chunk slot R_LOOK.z's
 * published value (R_LOOK.w holds the status base in words). R_LOOK.x
 * holds the pass's epoch << 24 wherever the words are written or read. */
static void status_word_address(dxbc_program *p, bool wide, unsigned word)
{
    op4(p, DXBC_OP_IMAD, D(R_T0, 0), S(R_LOOK, 2), I(wide ? 4 : 2), S(R_LOOK, 3));
    op3(p, DXBC_OP_IADD, D(R_T0, 0), S(R_T0, 0), I(word));
    op3(p, DXBC_OP_ISHL, D(R_T0, 0), S(R_T0, 0), I(2));
}

/* Publishes register `value` (x, and y when wide) for chunk slot R_LOOK.z
 * with the status whose value shifted left by 16, with the epoch in its top
 * bits, is `shifted_status` (a register component other than R_T0 and
 * R_T1.x/y). Uses R_T0 and R_T1.x/y. */
static void publish_shifted(dxbc_program *p, bool wide, unsigned value, dxbc_operand shifted_status)
{
    for (unsigned word = 0; word < (wide ? 4u : 2u); ++word)
    {
        unsigned component = word / 2;
        if (word % 2)
            op3(p, DXBC_OP_USHR, D(R_T1, 0), S(value, component), I(16));
        else
            op3(p, DXBC_OP_AND, D(R_T1, 0), S(value, component), I(0xffffu));
        op3(p, DXBC_OP_OR, D(R_T1, 0), S(R_T1, 0), shifted_status);
        status_word_address(p, wide, word);
        dxbc_operand ops[4] = {D(R_T1, 1), dxbc_uav_dst(SCAN_UAV_STATUS, DXBC_MASK_X), S(R_T0, 0), S(R_T1, 0)};
        dxbc_emit(p, DXBC_OP_IMM_ATOMIC_EXCH, 0, ops, 4);
    }
}

/* Publishes register `value` with status `status` for chunk slot R_LOOK.z. */
static void publish(dxbc_program *p, bool wide, unsigned value, uint32_t status)
{
    op3(p, DXBC_OP_OR, D(R_T1, 2), S(R_LOOK, 0), I(status << 16));
    publish_shifted(p, wide, value, S(R_T1, 2));
}

/* Reads chunk slot R_LOOK.z's published value into `value` (x, y) and its
 * status into R_LOOK.y (0 unless every word carries the pass's epoch and the
 * same status). Uses R_T0 and R_T1. */
static void read_published(dxbc_program *p, bool wide, unsigned value)
{
    unsigned words = wide ? 4u : 2u;
    for (unsigned word = 0; word < words; ++word)
    {
        status_word_address(p, wide, word);
        dxbc_operand ops[4] = {D(R_T1, word), dxbc_uav_dst(SCAN_UAV_STATUS, DXBC_MASK_X), S(R_T0, 0), I(0)};
        dxbc_emit(p, DXBC_OP_IMM_ATOMIC_OR, 0, ops, 4);
    }
    op3(p, DXBC_OP_USHR, D(R_LOOK, 1), S(R_T1, 0), I(16));
    for (unsigned word = 1; word < words; ++word)
    {
        op3(p, DXBC_OP_USHR, D(R_T0, 1), S(R_T1, word), I(16));
        op3(p, DXBC_OP_IEQ, D(R_T0, 1), S(R_T0, 1), S(R_LOOK, 1));
        op3(p, DXBC_OP_AND, D(R_LOOK, 1), S(R_LOOK, 1), S(R_T0, 1));
    }
    /* Epoch and status: the status where the epoch is this pass's (the
     * xor leaves it below 0x100), else 0. */
    op3(p, DXBC_OP_USHR, D(R_T0, 1), S(R_LOOK, 0), I(16));
    op3(p, DXBC_OP_XOR, D(R_LOOK, 1), S(R_LOOK, 1), S(R_T0, 1));
    op3(p, DXBC_OP_ULT, D(R_T0, 1), S(R_LOOK, 1), I(0x100u));
    op3(p, DXBC_OP_AND, D(R_LOOK, 1), S(R_LOOK, 1), S(R_T0, 1));
    for (unsigned half = 0; half < words / 2; ++half)
    {
        op3(p, DXBC_OP_AND, D(value, half), S(R_T1, 2 * half), I(0xffffu));
        op3(p, DXBC_OP_ISHL, D(R_T0, 1), S(R_T1, 2 * half + 1), I(16));
        op3(p, DXBC_OP_OR, D(value, half), S(value, half), S(R_T0, 1));
    }
}

/* A value (x, and y when wide) to or from g2 words from `word` on. */
static void shared_value_store(dxbc_program *p, bool wide, dxbc_operand word, unsigned value)
{
    op3(p, DXBC_OP_ISHL, D(R_T0, 3), word, I(2));
    op3(p, DXBC_OP_STORE_RAW, dxbc_tgsm_dst(G_SHARED, wide ? DXBC_MASK_XY : DXBC_MASK_X), S(R_T0, 3),
        wide ? dxbc_temp_src(value, DXBC_SWIZZLE_XYXY) : S(value, 0));
}

static void shared_value_load(dxbc_program *p, bool wide, dxbc_operand word, unsigned value)
{
    op3(p, DXBC_OP_ISHL, D(R_T0, 3), word, I(2));
    op3(p, DXBC_OP_LD_RAW, wide ? dxbc_temp_dst(value, DXBC_MASK_XY) : D(value, 0), S(R_T0, 3),
        dxbc_tgsm_src(G_SHARED, wide ? DXBC_SWIZZLE_XYXY : DXBC_SWIZZLE_XXXX));
}

/* Thread 0 of chunk k, walking back with slot j in R_POS.x and R_PREV
 * holding chunks j + 1 .. k - 1 combined: publishes the span j + 1 .. k
 * (R_PREV with its aggregate R_ACC), status 3 + (k - j - 1), while that
 * fits in 8 bits. Uses R_POS.w, R_MODE.w, R_VALUE, R_LOOK.z, R_T0, R_T1. */
static void publish_span(dxbc_program *p, const kernel_key *key)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    op2(p, DXBC_OP_INEG, D(R_POS, 3), S(R_POS, 0));
    op3(p, DXBC_OP_IADD, D(R_POS, 3), S(R_POS, 1), S(R_POS, 3));
    op3(p, DXBC_OP_IADD, D(R_POS, 3), S(R_POS, 3), I(2));
    op3(p, DXBC_OP_ULT, D(R_MODE, 3), S(R_POS, 3), I(0x100u));
    emit_if(p, S(R_MODE, 3), true);
    {
        op3(p, DXBC_OP_ISHL, D(R_POS, 3), S(R_POS, 3), I(16));
        op3(p, DXBC_OP_OR, D(R_POS, 3), S(R_POS, 3), S(R_LOOK, 0));
        emit_copy(p, acc_element, R_VALUE, R_PREV);
        emit_combine(p, key, R_VALUE, R_ACC, R_T0, R_T1);
        op2(p, DXBC_OP_MOV, D(R_LOOK, 2), S(R_POS, 1));
        publish_shifted(p, wide_class(acc_element), R_VALUE, S(R_POS, 3));
    }
    emit_endif(p);
}

/* The look-back by thread 0 alone, without group barriers, jumping over
 * spans: leaves the exclusive prefix in R_BASE (every thread). Thread 0
 * walks back from chunk k - 1, combining what each predecessor published:
 * an aggregate (status 1) steps back one chunk, a span (status 3 + s: the
 * chunks j - s .. j combined) steps back s + 1, an inclusive prefix
 * (status 2) ends the walk; nothing yet (0) is read again. After each step
 * it publishes its own span (what it has combined so far with its own
 * aggregate, status 3 + s for s + 1 chunks, while that fits in 8 bits), so a
 * chunk behind it jumps over the whole walk instead of repeating it.
 * Registers: R_POS x the slot read, y this chunk's slot, z polls, w the
 * span's status; R_PREV what has been combined; R_ACC this chunk's
 * aggregate (loaded by the caller); R_VALUE the span published. */
static void look_back(dxbc_program *p, const kernel_key *key)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    bool wide = wide_class(acc_element);
    op3(p, DXBC_OP_IEQ, D(R_MODE, 3), S(R_RANGE, 3), I(0));
    emit_if(p, S(R_MODE, 3), true);
    {
        emit_identity(p, acc_element, key->operation, R_PREV);
        op2(p, DXBC_OP_MOV, D(R_POS, 1), S(R_LINE, 3));
        op3(p, DXBC_OP_IADD, D(R_POS, 0), S(R_LINE, 3), I(0xffffffffu));
        op2(p, DXBC_OP_MOV, D(R_POS, 2), I(0));
        emit_loop(p);
        {
            op2(p, DXBC_OP_MOV, D(R_LOOK, 2), S(R_POS, 0));
            read_published(p, wide, R_OTHER);
            op3(p, DXBC_OP_IADD, D(R_POS, 2), S(R_POS, 2), I(1));
            op3(p, DXBC_OP_UGE, D(R_MODE, 3), S(R_POS, 2), I(LOOKBACK_ROUNDS));
            emit_break_if(p, S(R_MODE, 3));
            op3(p, DXBC_OP_INE, D(R_MODE, 3), S(R_LOOK, 1), I(0));
            emit_if(p, S(R_MODE, 3), true);
            {
                if (key->spans)
                {
                    /* Before an inclusive prefix at chunk j, the span
                     * j + 1 .. k (chunks past the first publish no
                     * inclusive prefix in this variant). */
                    op3(p, DXBC_OP_IEQ, D(R_MODE, 3), S(R_LOOK, 1), I(2));
                    emit_if(p, S(R_MODE, 3), true);
                    publish_span(p, key);
                    emit_endif(p);
                }
                emit_combine(p, key, R_PREV, R_OTHER, R_T0, R_T1);
                op3(p, DXBC_OP_IEQ, D(R_MODE, 3), S(R_LOOK, 1), I(2));
                emit_break_if(p, S(R_MODE, 3));
                /* Back 1 chunk past an aggregate, status - 2 past a span. */
                op3(p, DXBC_OP_IADD, D(R_MODE, 3), S(R_LOOK, 1), I(0xfffffffeu));
                op3(p, DXBC_OP_IEQ, D(R_POS, 3), S(R_LOOK, 1), I(1));
                op4(p, DXBC_OP_MOVC, D(R_MODE, 3), S(R_POS, 3), I(1), S(R_MODE, 3));
                op2(p, DXBC_OP_INEG, D(R_MODE, 3), S(R_MODE, 3));
                op3(p, DXBC_OP_IADD, D(R_POS, 0), S(R_POS, 0), S(R_MODE, 3));
                publish_span(p, key);
            }
            emit_endif(p);
        }
        emit_endloop(p);
        shared_value_store(p, wide, I(LB_PREFIX), R_PREV);
    }
    emit_endif(p);
    tile_barrier(p);
    shared_value_load(p, wide, I(LB_PREFIX), R_BASE);
}

void lookback_load_status_base(dxbc_program *p, bool wide)
{
    op3(p, DXBC_OP_IADD, D(R_T0, 0), S(R_ITEM, 1), I(4 * SCAN_P_STATUS_BASE));
    op3(p, DXBC_OP_LD_RAW, D(R_LOOK, 3), S(R_T0, 0), dxbc_uav_src(SCAN_UAV_PARAMS, DXBC_SWIZZLE_XXXX));
    if (wide)
        op3(p, DXBC_OP_ISHL, D(R_LOOK, 3), S(R_LOOK, 3), I(1));
    op3(p, DXBC_OP_IADD, D(R_T0, 0), S(R_ITEM, 1), I(4 * SCAN_P_EPOCH));
    op3(p, DXBC_OP_LD_RAW, D(R_LOOK, 0), S(R_T0, 0), dxbc_uav_src(SCAN_UAV_PARAMS, DXBC_SWIZZLE_XXXX));
    op3(p, DXBC_OP_ISHL, D(R_LOOK, 0), S(R_LOOK, 0), I(24));
}

/* The chunk's aggregate into `dst`: the last thread total of the scanned
 * totals (at `source` in G_TOTALS). */
static void tile_aggregate(dxbc_program *p, const kernel_key *key, unsigned source, unsigned dst)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    emit_load_shared(p, acc_element, G_TOTALS, I(source + kernel_tile_group(key->shape) - 1), dst, R_T0);
}

void lookback_chunk_prefix(dxbc_program *p, const kernel_key *key, unsigned source)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    bool wide = wide_class(acc_element);
    op2(p, DXBC_OP_MOV, D(R_LOOK, 2), S(R_LINE, 3));
    emit_identity(p, acc_element, key->operation, R_BASE);
    emit_if(p, S(R_LINE, 1), false);
    {
        emit_if(p, S(R_FLAGS, 2), true);
        op3(p, DXBC_OP_IADD, D(R_ITEM, 3), S(R_MORE, 2), S(R_LINE, 2));
        emit_load_element(p, acc_element, SCAN_UAV_SCRATCH, S(R_ITEM, 3), R_BASE, R_T0);
        emit_endif(p);
    }
    emit_else(p);
    {
        op3(p, DXBC_OP_IEQ, D(R_MODE, 3), S(R_RANGE, 3), I(0));
        emit_if(p, S(R_MODE, 3), true);
        tile_aggregate(p, key, source, R_ACC);
        publish(p, wide, R_ACC, 1);
        emit_endif(p);
        look_back(p, key);
        op2(p, DXBC_OP_MOV, D(R_LOOK, 2), S(R_LINE, 3));
    }
    emit_endif(p);
    op3(p, DXBC_OP_IEQ, D(R_MODE, 3), S(R_RANGE, 3), I(0));
    emit_if(p, S(R_MODE, 3), true);
    tile_aggregate(p, key, source, R_OTHER);
    emit_copy(p, acc_element, R_PREV, R_BASE);
    emit_combine(p, key, R_PREV, R_OTHER, R_T0, R_T1);
    if (key->spans)
        emit_if(p, S(R_LINE, 1), false); /* chunk 0 only */
    publish(p, wide, R_PREV, 2);
    if (key->spans)
        emit_endif(p);
    emit_endif(p);
}

void lookback_store_line_total(dxbc_program *p, const kernel_key *key)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    const unsigned group = kernel_tile_group(key->shape);
    op3(p, DXBC_OP_IADD, D(R_T1, 0), S(R_HEAD, 2), I(0xffffffffu));
    op3(p, DXBC_OP_IEQ, D(R_T1, 0), S(R_LINE, 1), S(R_T1, 0));
    op3(p, DXBC_OP_IEQ, D(R_T1, 1), S(R_RANGE, 3), I(group - 1));
    op3(p, DXBC_OP_AND, D(R_T1, 0), S(R_T1, 0), S(R_T1, 1));
    op3(p, DXBC_OP_AND, D(R_T1, 0), S(R_T1, 0), S(R_FLAGS, 3));
    emit_if(p, S(R_T1, 0), true);
    op3(p, DXBC_OP_IADD, D(R_ITEM, 3), S(R_MORE, 3), S(R_LINE, 2));
    emit_store_element(p, acc_element, SCAN_UAV_SCRATCH, S(R_ITEM, 3), R_BASE, R_T0);
    emit_endif(p);
}

void generate_lookback_kernel(dxbc_program *p, const kernel_key *key)
{
    kernel_element element = key->element;
    kernel_element acc_element = kernel_accumulator_element(element);
    bool wide = wide_class(acc_element);
    const unsigned group = kernel_tile_group(key->shape);
    unsigned tile = kernel_tile_elements(element, key->shape);
    unsigned items = tile / group;
    unsigned acc_bytes = kernel_accumulator_bytes(element);

    dxbc_program_begin(p, DXBC_PROGRAM_COMPUTE, 5, 0);
    emit_scan_declarations(p, true);
    dxbc_dcl_tgsm_raw(p, G_TILE, tile_block_bytes(acc_element, tile));
    dxbc_dcl_tgsm_raw(p, G_TOTALS, 2 * group * acc_bytes);
    dxbc_dcl_tgsm_raw(p, G_SHARED, 4 * LB_WORDS);
    dxbc_dcl_temps(p, R_VALUES + items);
    dxbc_dcl_thread_group(p, group, 1, 1);
    emit_scan_prologue_ticket(p, acc_bytes);

    lookback_load_status_base(p, wide);

    /* The tile (or the chunk's part of it), in memory order. */
    op3(p, DXBC_OP_IEQ, D(R_MODE, 2), S(R_AXIS, 2), I(0xffffffffu));
    op3(p, DXBC_OP_AND, D(R_MODE, 2), S(R_MODE, 2), I(tile - 1));
    op3(p, DXBC_OP_IADD, D(R_MODE, 0), S(R_RANGE, 1), I(tile));
    op3(p, DXBC_OP_UGE, D(R_MODE, 0), S(R_RANGE, 2), S(R_MODE, 0));
    op2(p, DXBC_OP_INEG, D(R_T0, 0), S(R_RANGE, 1));
    op3(p, DXBC_OP_IADD, D(R_T0, 0), S(R_RANGE, 2), S(R_T0, 0));
    op2(p, DXBC_OP_MOV, D(R_IO, 0), S(R_WALK, 1));
    op2(p, DXBC_OP_MOV, D(R_IO, 1), S(R_WALK, 2));
    op2(p, DXBC_OP_MOV, D(R_IO, 2), I(0));
    op2(p, DXBC_OP_MOV, D(R_IO, 3), S(R_T0, 0));
    emit_if(p, S(R_MODE, 2), true);
    op3(p, DXBC_OP_IADD, D(R_IO, 0), S(R_WALK, 1), I(1u - tile));
    op3(p, DXBC_OP_IADD, D(R_IO, 1), S(R_WALK, 2), I(1u - tile));
    op2(p, DXBC_OP_INEG, D(R_T0, 0), S(R_T0, 0));
    op3(p, DXBC_OP_IADD, D(R_IO, 2), S(R_T0, 0), I(tile));
    op2(p, DXBC_OP_MOV, D(R_IO, 3), I(tile));
    emit_endif(p);
    emit_if(p, S(R_MODE, 0), true);
    emit_block_load(p, key, tile, SCAN_UAV_INPUT, 0, true, false);
    emit_else(p);
    emit_block_load(p, key, tile, SCAN_UAV_INPUT, 0, false, tile_rows_looped(key));
    emit_endif(p);
    tile_barrier(p);

    /* The thread totals, scanned: the chunk's aggregate. */
    emit_identity(p, acc_element, key->operation, R_ACC);
    for (unsigned r = 0; r < items; ++r)
    {
        op4(p, DXBC_OP_IMAD, D(R_POS, 0), S(R_RANGE, 3), I(items), I(r));
        op3(p, DXBC_OP_IADD, D(R_POS, 1), S(R_POS, 0), S(R_RANGE, 1));
        op3(p, DXBC_OP_XOR, D(R_POS, 0), S(R_POS, 0), S(R_MODE, 2));
        tile_slot_address(p, acc_element, D(R_POS, 2), S(R_POS, 0));
        emit_load_shared_at(p, acc_element, G_TILE, S(R_POS, 2), R_VALUES + r);
        tile_drop_element_fault(p, key, S(R_POS, 1), R_VALUES + r);
    }
    for (unsigned r = 0; r < items; ++r)
        emit_combine(p, key, R_ACC, R_VALUES + r, R_T0, R_T1);
    emit_store_shared(p, acc_element, G_TOTALS, S(R_RANGE, 3), R_ACC, R_T0);
    tile_barrier(p);
    unsigned source = tile_scan_thread_totals(p, key);

    lookback_chunk_prefix(p, key, source);

    /* The rescan from the prefix, and the tile back to memory. */
    tile_advance_base(p, key, source);
    for (unsigned r = 0; r < items; ++r)
    {
        op4(p, DXBC_OP_IMAD, D(R_POS, 0), S(R_RANGE, 3), I(items), I(r));
        op3(p, DXBC_OP_XOR, D(R_POS, 0), S(R_POS, 0), S(R_MODE, 2));
        tile_slot_address(p, acc_element, D(R_POS, 2), S(R_POS, 0));
        tile_rescan_value(p, key, R_VALUES + r);
        emit_store_shared_at(p, acc_element, G_TILE, S(R_POS, 2), R_VALUES + r);
    }
    tile_barrier(p);
    emit_if(p, S(R_MODE, 0), true);
    emit_block_store(p, key, tile, SCAN_UAV_OUTPUT, 1, true, false);
    emit_else(p);
    emit_block_store(p, key, tile, SCAN_UAV_OUTPUT, 1, false, tile_rows_looped(key));
    emit_endif(p);

    lookback_store_line_total(p, key);
    op0(p, DXBC_OP_RET, 0);
    dxbc_program_finish(p);
}
