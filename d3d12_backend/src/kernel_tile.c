/*
 * The group-cooperative scan kernels, tile and rake, and the pieces they
 * share with the look-back and short-line kernels (kernel_tile.h).
 *
 * The tile scan kernel: one thread group per (line, chunk), where a chunk is
 * one or more tiles of (group size) * E elements (the key's shape), walked
 * in order with the running value carried from tile to tile. For each
 * tile the group loads it into groupshared memory in memory order, in
 * coalesced 32-bit words (kernel_block_io.c), each thread combines E
 * consecutive positions of the scan, a Hillis-Steele scan over the thread
 * totals gives each thread its offset, each thread rescans its positions
 * from that offset, and the group writes the tile back the way it came. A
 * decreasing scan walks the same slots from the other end: position p of
 * a tile of T elements is slot T - 1 - p (T is a power of two, so that is
 * p xor (T - 1)). This is the kernel for long lines that are contiguous
 * along the axis.
 *
 * A pass that only reduces (no stores) skips the tile: each thread combines
 * its elements of every tile from memory and only the thread totals meet
 * in groupshared memory, once per chunk. Full tiles take a path without
 * bounds checks.
 *
 * A chained pass (SCAN_FLAG_CHAINED) does both in one dispatch: its work
 * items are tickets, and each group reduces its chunk, finds the chunk's
 * prefix by looking back over the chunks before it (kernel_lookback.c),
 * then scans the chunk from that prefix. The chunk, a few tiles, is read
 * twice, but the second read comes from the GPU's cache moments after the
 * first: the data crosses memory once, as in a single-pass scan, while
 * each chunk's look-back is paid once for several tiles.
 */
#include "kernel_tile.h"
#include "scan_params.h"

/* dst = the element at tile position R_POS.x, or the identity past the
 * line's end (`guarded`: the tile may be partial). The guarded load reads a
 * valid position instead and then selects the identity, so no load sits
 * under a branch and a thread's loads can all be in flight. */
static void load_position(dxbc_program *p, const kernel_key *key, bool guarded, unsigned dst)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    op3(p, DXBC_OP_IADD, D(R_POS, 1), S(R_POS, 0), S(R_RANGE, 1));
    if (guarded)
    {
        op3(p, DXBC_OP_ULT, D(R_MODE, 1), S(R_POS, 1), S(R_RANGE, 2));
        dxbc_operand ops[4] = {D(R_POS, 2), S(R_MODE, 1), S(R_POS, 0), I(0)};
        dxbc_emit(p, DXBC_OP_MOVC, 0, ops, 4);
        op4(p, DXBC_OP_IMAD, D(R_POS, 3), S(R_POS, 2), S(R_AXIS, 2), S(R_WALK, 1));
    }
    else
        op4(p, DXBC_OP_IMAD, D(R_POS, 3), S(R_POS, 0), S(R_AXIS, 2), S(R_WALK, 1));
    emit_load_element(p, key->element, SCAN_UAV_INPUT, S(R_POS, 3), dst, R_T0);
    if (guarded)
    {
        emit_identity(p, acc_element, key->operation, R_OTHER);
        emit_select(p, acc_element, dst, S(R_MODE, 1), dst, R_OTHER);
    }
    if (key->fault == FAULT_DROP_ELEMENT)
    {
        op3(p, DXBC_OP_IEQ, D(R_ITEM, 2), S(R_POS, 1), I(1));
        emit_if(p, S(R_ITEM, 2), true);
        emit_identity(p, acc_element, key->operation, dst);
        emit_endif(p);
    }
}

/* A thread's full tile: all positions inside the line. R_MODE.x = whether
 * i0 + tile <= i1. */
static void full_tile_flag(dxbc_program *p, unsigned tile)
{
    op3(p, DXBC_OP_IADD, D(R_MODE, 0), S(R_RANGE, 1), I(tile));
    op3(p, DXBC_OP_UGE, D(R_MODE, 0), S(R_RANGE, 2), S(R_MODE, 0));
}

/* R_BASE = the chunk's initial value: the identity, or its scratch slot
 * (SCAN_FLAG_INIT). */
static void load_chunk_base(dxbc_program *p, const kernel_key *key)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    emit_identity(p, acc_element, key->operation, R_BASE);
    emit_if(p, S(R_FLAGS, 2), true);
    op3(p, DXBC_OP_IADD, D(R_ITEM, 3), S(R_MORE, 2), S(R_LINE, 3));
    emit_load_element(p, acc_element, SCAN_UAV_SCRATCH, S(R_ITEM, 3), R_BASE, R_T0);
    emit_endif(p);
}

unsigned tile_scan_thread_totals(dxbc_program *p, const kernel_key *key)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    const unsigned group = kernel_tile_group(key->shape);
    unsigned source = 0, target = group;
    for (unsigned distance = 1; distance < group; distance *= 2)
    {
        op3(p, DXBC_OP_IADD, D(R_POS, 0), S(R_RANGE, 3), I(source));
        emit_load_shared(p, acc_element, G_TOTALS, S(R_POS, 0), R_ACC, R_T0);
        op3(p, DXBC_OP_UGE, D(R_ITEM, 2), S(R_RANGE, 3), I(distance));
        emit_if(p, S(R_ITEM, 2), true);
        op3(p, DXBC_OP_IADD, D(R_POS, 0), S(R_RANGE, 3), I(source - distance));
        emit_load_shared(p, acc_element, G_TOTALS, S(R_POS, 0), R_OTHER, R_T0);
        emit_combine(p, key, R_OTHER, R_ACC, R_T0, R_T1);
        emit_copy(p, acc_element, R_ACC, R_OTHER);
        emit_endif(p);
        op3(p, DXBC_OP_IADD, D(R_POS, 0), S(R_RANGE, 3), I(target));
        emit_store_shared(p, acc_element, G_TOTALS, S(R_POS, 0), R_ACC, R_T0);
        tile_barrier(p);
        unsigned swap = source;
        source = target;
        target = swap;
    }
    return source;
}

void tile_advance_base(dxbc_program *p, const kernel_key *key, unsigned source)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    const unsigned group = kernel_tile_group(key->shape);
    emit_copy(p, acc_element, R_ACC, R_BASE);
    emit_if(p, S(R_RANGE, 3), true);
    op3(p, DXBC_OP_IADD, D(R_POS, 0), S(R_RANGE, 3), I(source - 1));
    emit_load_shared(p, acc_element, G_TOTALS, S(R_POS, 0), R_OTHER, R_T0);
    emit_combine(p, key, R_ACC, R_OTHER, R_T0, R_T1);
    emit_endif(p);
    emit_load_shared(p, acc_element, G_TOTALS, I(source + group - 1), R_OTHER, R_T0);
    emit_combine(p, key, R_BASE, R_OTHER, R_T0, R_T1);
}

/* The last thread writes R_BASE, the chunk's final value, to scratch when
 * asked (SCAN_FLAG_FINAL). */
static void store_chunk_final(dxbc_program *p, const kernel_key *key)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    const unsigned group = kernel_tile_group(key->shape);
    op3(p, DXBC_OP_IEQ, D(R_ITEM, 2), S(R_RANGE, 3), I(group - 1));
    op3(p, DXBC_OP_AND, D(R_ITEM, 2), S(R_ITEM, 2), S(R_FLAGS, 3));
    emit_if(p, S(R_ITEM, 2), true);
    op3(p, DXBC_OP_IADD, D(R_ITEM, 3), S(R_MORE, 3), S(R_LINE, 3));
    emit_store_element(p, acc_element, SCAN_UAV_SCRATCH, S(R_ITEM, 3), R_BASE, R_T0);
    emit_endif(p);
}

void tile_rescan_value(dxbc_program *p, const kernel_key *key, unsigned value)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    emit_copy(p, acc_element, R_PREV, R_ACC);
    emit_combine(p, key, R_ACC, value, R_T0, R_T1);
    if (key->fault == FAULT_OFF_BY_ONE_EXCLUSIVE)
        emit_copy(p, acc_element, value, R_ACC);
    else
        emit_select(p, acc_element, value, S(R_FLAGS, 1), R_PREV, R_ACC);
}

void tile_drop_element_fault(dxbc_program *p, const kernel_key *key, dxbc_operand index, unsigned value)
{
    if (key->fault != FAULT_DROP_ELEMENT)
        return;
    op3(p, DXBC_OP_IEQ, D(R_ITEM, 2), index, I(1));
    emit_if(p, S(R_ITEM, 2), true);
    emit_identity(p, kernel_accumulator_element(key->element), key->operation, value);
    emit_endif(p);
}

/* R_MODE.z = the mask that maps a tile position onto its slot (p xor
 * mask): T - 1 for a decreasing scan moved in memory-order blocks, else 0;
 * R_LOOK.x = whether the lines move in blocks (SCAN_FLAG_BLOCKS). */
static void slot_mask(dxbc_program *p, unsigned tile)
{
    op3(p, DXBC_OP_AND, D(R_LOOK, 0), S(R_MORE, 1), I(SCAN_FLAG_BLOCKS));
    op3(p, DXBC_OP_INE, D(R_LOOK, 0), S(R_LOOK, 0), I(0));
    op3(p, DXBC_OP_IEQ, D(R_MODE, 2), S(R_AXIS, 2), I(0xffffffffu));
    op3(p, DXBC_OP_AND, D(R_MODE, 2), S(R_MODE, 2), S(R_LOOK, 0));
    op3(p, DXBC_OP_AND, D(R_MODE, 2), S(R_MODE, 2), I(tile - 1));
}

/* R_IO for the tile at R_RANGE.y (offsets R_WALK.y and .z): the offsets of
 * slot 0 in the input and the output, and the valid slots, given the
 * tile's first v = min(T, i1 - i0) positions. */
static void tile_io(dxbc_program *p, unsigned tile)
{
    op2(p, DXBC_OP_INEG, D(R_T0, 0), S(R_RANGE, 1));
    op3(p, DXBC_OP_IADD, D(R_T0, 0), S(R_RANGE, 2), S(R_T0, 0));
    op3(p, DXBC_OP_UMIN, D(R_T0, 0), S(R_T0, 0), I(tile));
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
}

/* R_POS.z = the groupshared address of this thread's run position r
 * (position lane * items + r of the tile, through the slot mask); R_POS.y
 * = the position's index in the line. */
static void run_slot(dxbc_program *p, const kernel_key *key, unsigned items, unsigned r)
{
    op4(p, DXBC_OP_IMAD, D(R_POS, 0), S(R_RANGE, 3), I(items), I(r));
    op3(p, DXBC_OP_IADD, D(R_POS, 1), S(R_POS, 0), S(R_RANGE, 1));
    op3(p, DXBC_OP_XOR, D(R_POS, 0), S(R_POS, 0), S(R_MODE, 2));
    tile_slot_address(p, kernel_accumulator_element(key->element), D(R_POS, 2), S(R_POS, 0));
}

/* Loads the thread's run of `items` positions from the tile into
 * R_VALUES.. (with the drop-element fault applied). */
static void load_run(dxbc_program *p, const kernel_key *key, unsigned items)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    for (unsigned r = 0; r < items; ++r)
    {
        run_slot(p, key, items, r);
        emit_load_shared_at(p, acc_element, G_TILE, S(R_POS, 2), R_VALUES + r);
        tile_drop_element_fault(p, key, S(R_POS, 1), R_VALUES + r);
    }
}

/* Rescans the thread's run from R_ACC and puts it back into the tile. */
static void rescan_run(dxbc_program *p, const kernel_key *key, unsigned items)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    for (unsigned r = 0; r < items; ++r)
    {
        run_slot(p, key, items, r);
        tile_rescan_value(p, key, R_VALUES + r);
        emit_store_shared_at(p, acc_element, G_TILE, S(R_POS, 2), R_VALUES + r);
    }
}

/* Stores groupshared slot R_POS.x (a row's position: strided lines use no
 * slot mask) to the output at its position's offset (`guarded`: only
 * positions before the line's end). */
static void store_tile_element(dxbc_program *p, const kernel_key *key, bool guarded)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    if (guarded)
    {
        op3(p, DXBC_OP_IADD, D(R_POS, 1), S(R_POS, 0), S(R_RANGE, 1));
        op3(p, DXBC_OP_ULT, D(R_ITEM, 2), S(R_POS, 1), S(R_RANGE, 2));
        emit_if(p, S(R_ITEM, 2), true);
    }
    tile_slot_address(p, acc_element, D(R_POS, 2), S(R_POS, 0));
    emit_load_shared_at(p, acc_element, G_TILE, S(R_POS, 2), R_VALUE);
    op4(p, DXBC_OP_IMAD, D(R_POS, 3), S(R_POS, 0), S(R_MORE, 0), S(R_WALK, 2));
    emit_store_element(p, key->element, SCAN_UAV_OUTPUT, S(R_POS, 3), R_VALUE, R_T0);
    if (guarded)
        emit_endif(p);
}

/* The tile between memory and groupshared memory: lines that move in
 * memory-order blocks (SCAN_FLAG_BLOCKS: steps of +1 or -1 in both
 * tensors) in coalesced words, others element by element at their
 * positions' offsets; each with a full-tile path without checks (R_MODE.x:
 * the tile is full), its rows unrolled, and a path for a partial tile (at
 * most one a chunk) with the rows in a loop, which keeps the kernel, and
 * the driver's compile time, smaller. */
static void tile_transfer(dxbc_program *p, const kernel_key *key, unsigned tile, bool store)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    const unsigned group = kernel_tile_group(key->shape);
    emit_if(p, S(R_LOOK, 0), true);
    emit_if(p, S(R_MODE, 0), true);
    if (store)
        emit_block_store(p, key, tile, SCAN_UAV_OUTPUT, 1, true, false);
    else
        emit_block_load(p, key, tile, SCAN_UAV_INPUT, 0, true, false);
    emit_else(p);
    if (store)
        emit_block_store(p, key, tile, SCAN_UAV_OUTPUT, 1, false, tile_rows_looped(key));
    else
        emit_block_load(p, key, tile, SCAN_UAV_INPUT, 0, false, tile_rows_looped(key));
    emit_endif(p);
    emit_else(p);
    for (int guarded = 0; guarded < 2; ++guarded)
    {
        if (!guarded)
            emit_if(p, S(R_MODE, 0), true);
        else
            emit_else(p);
        for (tile_rows w = tile_rows_begin(p, tile / group, group, guarded && tile_rows_looped(key));
             tile_rows_next(p, &w);)
        {
            if (store)
                store_tile_element(p, key, guarded);
            else
            {
                load_position(p, key, guarded, R_VALUE);
                tile_slot_address(p, acc_element, D(R_POS, 2), S(R_POS, 0));
                emit_store_shared_at(p, acc_element, G_TILE, S(R_POS, 2), R_VALUE);
            }
        }
    }
    emit_endif(p);
    emit_endif(p);
}

/* For the reduce pass: R_MODE.w = whether a float16 tile is read as whole
 * words (a full tile of a line that moves in blocks, its lowest position on
 * a word boundary); R_OTHER.x = the word of its lowest position. */
static void f16_reduce_words_flag(dxbc_program *p, unsigned tile)
{
    op3(p, DXBC_OP_AND, D(R_MODE, 3), S(R_MORE, 1), I(SCAN_FLAG_BLOCKS));
    op3(p, DXBC_OP_INE, D(R_MODE, 3), S(R_MODE, 3), I(0));
    op3(p, DXBC_OP_AND, D(R_MODE, 3), S(R_MODE, 3), S(R_MODE, 0));
    /* The lowest position: the tile's first, or its last when decreasing. */
    op3(p, DXBC_OP_IEQ, D(R_OTHER, 0), S(R_AXIS, 2), I(0xffffffffu));
    op3(p, DXBC_OP_AND, D(R_OTHER, 0), S(R_OTHER, 0), I(1u - tile));
    op3(p, DXBC_OP_IADD, D(R_OTHER, 0), S(R_OTHER, 0), S(R_WALK, 1));
    op3(p, DXBC_OP_AND, D(R_T0, 0), S(R_OTHER, 0), I(1));
    op3(p, DXBC_OP_IEQ, D(R_T0, 0), S(R_T0, 0), I(0));
    op3(p, DXBC_OP_AND, D(R_MODE, 3), S(R_MODE, 3), S(R_T0, 0));
    op3(p, DXBC_OP_USHR, D(R_OTHER, 0), S(R_OTHER, 0), I(1));
}

/* The reduce pass over a float16 tile read as whole words in coalesced
 * rows, both halves combined (any order will do): half the loads of one
 * element at a time. */
static void f16_reduce_words(dxbc_program *p, const kernel_key *key, unsigned items)
{
    const unsigned group = kernel_tile_group(key->shape);
    for (unsigned r = 0; r < items / 2; ++r)
    {
        op3(p, DXBC_OP_IADD, D(R_POS, 3), S(R_RANGE, 3), I(r * group));
        op3(p, DXBC_OP_IADD, D(R_POS, 3), S(R_POS, 3), S(R_OTHER, 0));
        op3(p, DXBC_OP_ISHL, D(R_POS, 3), S(R_POS, 3), I(2));
        op3(p, DXBC_OP_LD_RAW, D(R_VALUE, 0), S(R_POS, 3), dxbc_uav_src(SCAN_UAV_INPUT, DXBC_SWIZZLE_XXXX));
        op3(p, DXBC_OP_USHR, D(R_VALUE, 1), S(R_VALUE, 0), I(16));
        op2(p, DXBC_OP_F16TOF32, dxbc_temp_dst(R_VALUE, DXBC_MASK_XY), dxbc_temp_src(R_VALUE, DXBC_SWIZZLE_XYXY));
        emit_combine(p, key, R_ACC, R_VALUE, R_T0, R_T1);
        op2(p, DXBC_OP_MOV, D(R_VALUE, 0), S(R_VALUE, 1));
        emit_combine(p, key, R_ACC, R_VALUE, R_T0, R_T1);
    }
}

/* R_MODE.w = whether a float16 tile takes the word path: a full tile of a
 * scan that moves in blocks, whose lowest slot starts a word in both
 * tensors (the same for the whole group). */
static void f16_word_path_flag(dxbc_program *p)
{
    op3(p, DXBC_OP_OR, D(R_MODE, 3), S(R_IO, 0), S(R_IO, 1));
    op3(p, DXBC_OP_AND, D(R_MODE, 3), S(R_MODE, 3), I(1));
    op3(p, DXBC_OP_IEQ, D(R_MODE, 3), S(R_MODE, 3), I(0));
    op3(p, DXBC_OP_AND, D(R_MODE, 3), S(R_MODE, 3), S(R_MODE, 0));
    op3(p, DXBC_OP_AND, D(R_MODE, 3), S(R_MODE, 3), S(R_LOOK, 0));
}

/* R_POS.z = the groupshared byte address of packed word R_POS.z (on entry)
 * of the tile: word w at w + w / 8, so that a thread's 8 consecutive words
 * and a row of coalesced words both fall in different banks. */
static void packed_word_address(dxbc_program *p)
{
    op3(p, DXBC_OP_USHR, D(R_T1, 3), S(R_POS, 2), I(3));
    op3(p, DXBC_OP_IADD, D(R_POS, 2), S(R_POS, 2), S(R_T1, 3));
    op3(p, DXBC_OP_ISHL, D(R_POS, 2), S(R_POS, 2), I(2));
}

/* Moves the tile's group * items / 2 words between memory (from word
 * R_IO[base] / 2) and groupshared memory, packed, in coalesced rows. */
static void packed_transfer(dxbc_program *p, unsigned group, unsigned words, unsigned base, bool store)
{
    op3(p, DXBC_OP_USHR, D(R_POS, 0), S(R_IO, base), I(1));
    for (unsigned r = 0; r < words; ++r)
    {
        op3(p, DXBC_OP_IADD, D(R_POS, 2), S(R_RANGE, 3), I(r * group));
        op3(p, DXBC_OP_IADD, D(R_POS, 3), S(R_POS, 2), S(R_POS, 0));
        op3(p, DXBC_OP_ISHL, D(R_POS, 3), S(R_POS, 3), I(2));
        packed_word_address(p);
        if (store)
        {
            op3(p, DXBC_OP_LD_RAW, D(R_VALUE, 0), S(R_POS, 2), dxbc_tgsm_src(G_TILE, DXBC_SWIZZLE_XXXX));
            op3(p, DXBC_OP_STORE_RAW, dxbc_uav_dst(SCAN_UAV_OUTPUT, DXBC_MASK_X), S(R_POS, 3), S(R_VALUE, 0));
        }
        else
        {
            op3(p, DXBC_OP_LD_RAW, D(R_VALUE, 0), S(R_POS, 3), dxbc_uav_src(SCAN_UAV_INPUT, DXBC_SWIZZLE_XXXX));
            op3(p, DXBC_OP_STORE_RAW, dxbc_tgsm_dst(G_TILE, DXBC_MASK_X), S(R_POS, 2), S(R_VALUE, 0));
        }
    }
}

/* The float16 word path for one tile: the tile moves between memory and
 * groupshared memory as packed words (two elements each) in coalesced
 * rows, each thread unpacks its `items` consecutive elements from items / 2
 * words, scans them in registers from its offset after the scan of the
 * thread totals, and packs them back. A float16 element costs half the
 * groupshared traffic of the general path, which holds each as a float32. */
static void f16_word_tile(dxbc_program *p, const kernel_key *key, unsigned items)
{
    const unsigned group = kernel_tile_group(key->shape);
    const unsigned words = items / 2;
    /* The thread's k-th word in scan order is word A + k * B of the tile,
     * its first element in the half at `first` bits and its second at
     * `second`: increasing, A = lane * words, B = 1, the low half first; a
     * decreasing scan walks the tile's slots from the other end (slot T - 1
     * - p), so A = (group - lane) * words - 1, B = -1, the high half first.
     * R_LOOK.y = A, R_LOOK.z = B, R_LOOK.w = first, R_MODE.w = second. */
    op3(p, DXBC_OP_INE, D(R_LOOK, 3), S(R_MODE, 2), I(0));
    op4(p, DXBC_OP_IMUL, dxbc_null_dst(), D(R_LOOK, 1), S(R_RANGE, 3), I(words));
    op2(p, DXBC_OP_INEG, D(R_T0, 0), S(R_LOOK, 1));
    op3(p, DXBC_OP_IADD, D(R_T0, 0), S(R_T0, 0), I(group * words - 1));
    {
        dxbc_operand ops[4] = {D(R_LOOK, 1), S(R_LOOK, 3), S(R_T0, 0), S(R_LOOK, 1)};
        dxbc_emit(p, DXBC_OP_MOVC, 0, ops, 4);
    }
    op3(p, DXBC_OP_AND, D(R_LOOK, 3), S(R_LOOK, 3), I(16));
    op3(p, DXBC_OP_XOR, D(R_MODE, 3), S(R_LOOK, 3), I(16));
    op3(p, DXBC_OP_USHR, D(R_LOOK, 2), S(R_LOOK, 3), I(3));
    op2(p, DXBC_OP_INEG, D(R_LOOK, 2), S(R_LOOK, 2));
    op3(p, DXBC_OP_IADD, D(R_LOOK, 2), S(R_LOOK, 2), I(1));
    packed_transfer(p, group, words, 0, false);
    tile_barrier(p);
    for (unsigned k = 0; k < words; ++k)
    {
        op4(p, DXBC_OP_IMAD, D(R_POS, 2), S(R_LOOK, 2), I(k), S(R_LOOK, 1));
        packed_word_address(p);
        op3(p, DXBC_OP_LD_RAW, D(R_VALUE, 0), S(R_POS, 2), dxbc_tgsm_src(G_TILE, DXBC_SWIZZLE_XXXX));
        op3(p, DXBC_OP_USHR, D(R_T0, 0), S(R_VALUE, 0), S(R_LOOK, 3));
        op2(p, DXBC_OP_F16TOF32, D(R_VALUES + 2 * k, 0), S(R_T0, 0));
        op3(p, DXBC_OP_USHR, D(R_T0, 0), S(R_VALUE, 0), S(R_MODE, 3));
        op2(p, DXBC_OP_F16TOF32, D(R_VALUES + 2 * k + 1, 0), S(R_T0, 0));
    }
    if (key->fault == FAULT_DROP_ELEMENT)
    {
        /* Position lane * items + r of the tile is index i0 + that. */
        op4(p, DXBC_OP_IMAD, D(R_POS, 3), S(R_RANGE, 3), I(items), S(R_RANGE, 1));
        for (unsigned r = 0; r < items; ++r)
        {
            op3(p, DXBC_OP_IADD, D(R_POS, 2), S(R_POS, 3), I(r));
            tile_drop_element_fault(p, key, S(R_POS, 2), R_VALUES + r);
        }
    }
    emit_identity(p, ELEMENT_F32, key->operation, R_ACC);
    for (unsigned r = 0; r < items; ++r)
        emit_combine(p, key, R_ACC, R_VALUES + r, R_T0, R_T1);
    emit_store_shared(p, ELEMENT_F32, G_TOTALS, S(R_RANGE, 3), R_ACC, R_T0);
    tile_barrier(p);
    tile_advance_base(p, key, tile_scan_thread_totals(p, key));
    for (unsigned r = 0; r < items; ++r)
        tile_rescan_value(p, key, R_VALUES + r);
    /* Each thread rewrites only the words it read. */
    for (unsigned k = 0; k < words; ++k)
    {
        op2(p, DXBC_OP_F32TOF16, D(R_VALUE, 0), S(R_VALUES + 2 * k, 0));
        op3(p, DXBC_OP_ISHL, D(R_VALUE, 0), S(R_VALUE, 0), S(R_LOOK, 3));
        op2(p, DXBC_OP_F32TOF16, D(R_T0, 0), S(R_VALUES + 2 * k + 1, 0));
        op3(p, DXBC_OP_ISHL, D(R_T0, 0), S(R_T0, 0), S(R_MODE, 3));
        op3(p, DXBC_OP_OR, D(R_VALUE, 0), S(R_VALUE, 0), S(R_T0, 0));
        op4(p, DXBC_OP_IMAD, D(R_POS, 2), S(R_LOOK, 2), I(k), S(R_LOOK, 1));
        packed_word_address(p);
        op3(p, DXBC_OP_STORE_RAW, dxbc_tgsm_dst(G_TILE, DXBC_MASK_X), S(R_POS, 2), S(R_VALUE, 0));
    }
    tile_barrier(p);
    packed_transfer(p, group, words, 1, true);
    /* The next tile overwrites the tile and the thread totals only after
     * every thread is past this point. */
    tile_barrier(p);
}

/* Moves R_RANGE.y (the tile's first index) and the offsets in R_WALK to
 * the next tile of the chunk; R_ITEM.z = whether the chunk is done. */
static void next_tile(dxbc_program *p, unsigned tile)
{
    op3(p, DXBC_OP_IADD, D(R_RANGE, 1), S(R_RANGE, 1), I(tile));
    op4(p, DXBC_OP_IMAD, D(R_WALK, 1), I(tile), S(R_AXIS, 2), S(R_WALK, 1));
    op4(p, DXBC_OP_IMAD, D(R_WALK, 2), I(tile), S(R_MORE, 0), S(R_WALK, 2));
}

/* Opens the loop over the chunk's tiles: leaves it once the tile's first
 * index reaches the chunk's end, and sets R_MODE.x for a full tile. */
static void begin_tile_loop(dxbc_program *p, unsigned tile)
{
    emit_loop(p);
    op3(p, DXBC_OP_UGE, D(R_ITEM, 2), S(R_RANGE, 1), S(R_RANGE, 2));
    emit_break_if(p, S(R_ITEM, 2));
    full_tile_flag(p, tile);
}

/* The reduce pass over the chunk [R_RANGE.y, R_RANGE.z) at offsets
 * R_WALK.y/z: each thread's total of its elements of every tile into
 * G_TOTALS[lane], a barrier behind. Moves R_RANGE.y and R_WALK.y/z to the
 * chunk's end. */
static void reduce_chunk(dxbc_program *p, const kernel_key *key)
{
    kernel_element element = key->element;
    kernel_element acc_element = kernel_accumulator_element(element);
    unsigned tile = kernel_tile_elements(element, key->shape);
    unsigned items = tile / kernel_tile_group(key->shape);

    /* Each thread combines its elements of every tile straight from memory
     * (any order will do), no tile in groupshared memory. A full tile (the
     * common case) needs no bounds checks. */
    emit_identity(p, acc_element, key->operation, R_ACC);
    begin_tile_loop(p, tile);
    bool reduce_words = element == ELEMENT_F16 && key->fault != FAULT_DROP_ELEMENT;
    if (reduce_words)
    {
        f16_reduce_words_flag(p, tile);
        emit_if(p, S(R_MODE, 3), true);
        f16_reduce_words(p, key, items);
        emit_else(p);
    }
    for (int guarded = 0; guarded < 2; ++guarded)
    {
        if (!guarded)
            emit_if(p, S(R_MODE, 0), true);
        else
            emit_else(p);
        /* The rows of a partial tile (at most one a chunk) in a loop. */
        for (tile_rows w = tile_rows_begin(p, items, kernel_tile_group(key->shape), guarded && tile_rows_looped(key));
             tile_rows_next(p, &w);)
        {
            load_position(p, key, guarded, R_VALUE);
            emit_combine(p, key, R_ACC, R_VALUE, R_T0, R_T1);
        }
    }
    emit_endif(p);
    if (reduce_words)
        emit_endif(p);
    next_tile(p, tile);
    emit_endloop(p);
    emit_store_shared(p, acc_element, G_TOTALS, S(R_RANGE, 3), R_ACC, R_T0);
    tile_barrier(p);
}

/* The scan of the same chunk from R_BASE, tile by tile, stored to the
 * output; leaves R_BASE advanced past the chunk. */
static void scan_chunk(dxbc_program *p, const kernel_key *key)
{
    kernel_element element = key->element;
    kernel_element acc_element = kernel_accumulator_element(element);
    unsigned tile = kernel_tile_elements(element, key->shape);
    unsigned items = tile / kernel_tile_group(key->shape);

    slot_mask(p, tile);
    begin_tile_loop(p, tile);
    /* 1: the tile into groupshared memory in memory order; slots past the
     * line's end hold the identity. */
    tile_io(p, tile);
    bool word_path = element == ELEMENT_F16 && items % 2 == 0;
    if (word_path)
    {
        f16_word_path_flag(p);
        emit_if(p, S(R_MODE, 3), true);
        f16_word_tile(p, key, items);
        emit_else(p);
    }
    tile_transfer(p, key, tile, false);
    tile_barrier(p);

    /* 2: each thread's total over its `items` consecutive positions, which
     * it keeps in registers for step 4. */
    emit_identity(p, acc_element, key->operation, R_ACC);
    load_run(p, key, items);
    for (unsigned r = 0; r < items; ++r)
        emit_combine(p, key, R_ACC, R_VALUES + r, R_T0, R_T1);
    emit_store_shared(p, acc_element, G_TOTALS, S(R_RANGE, 3), R_ACC, R_T0);
    tile_barrier(p);

    /* 3: the thread totals scanned; each thread's starting value, and the
     * running value past the tile for the next one. */
    tile_advance_base(p, key, tile_scan_thread_totals(p, key));

    /* 4: each thread rescans its positions from its starting value, in
     * place in groupshared memory. */
    rescan_run(p, key, items);
    tile_barrier(p);

    /* 5: the tile back to memory; the barrier behind keeps the next tile
     * out of groupshared memory until every thread is done with this one. */
    tile_transfer(p, key, tile, true);
    tile_barrier(p);
    if (word_path)
        emit_endif(p);
    next_tile(p, tile);
    emit_endloop(p);
}

void generate_tile_kernel(dxbc_program *p, const kernel_key *key)
{
    kernel_element element = key->element;
    kernel_element acc_element = kernel_accumulator_element(element);
    const unsigned group = kernel_tile_group(key->shape);
    unsigned tile = kernel_tile_elements(element, key->shape);
    unsigned items = tile / group;
    unsigned acc_bytes = kernel_accumulator_bytes(element);
    /* x, y, z: the chunk's start (R_RANGE.y, R_WALK.y, R_WALK.z) between a
     * chained pass's two walks; w: whether the pass is chained. */
    const unsigned r_chain = R_VALUES + items;

    dxbc_program_begin(p, DXBC_PROGRAM_COMPUTE, 5, 0);
    emit_scan_declarations(p, true);
    dxbc_dcl_tgsm_raw(p, G_TILE, tile_block_bytes(acc_element, tile));
    dxbc_dcl_tgsm_raw(p, G_TOTALS, 2 * group * acc_bytes);
    dxbc_dcl_tgsm_raw(p, G_SHARED, 4 * TILE_SHARED_WORDS);
    dxbc_dcl_temps(p, r_chain + 1);
    dxbc_dcl_thread_group(p, group, 1, 1);
    emit_scan_prologue_chained(p, acc_bytes);
    op3(p, DXBC_OP_AND, D(r_chain, 3), S(R_MORE, 1), I(SCAN_FLAG_CHAINED));
    emit_if(p, S(r_chain, 3), true);
    lookback_load_status_base(p, acc_bytes == 8);
    op2(p, DXBC_OP_MOV, D(r_chain, 0), S(R_RANGE, 1));
    op2(p, DXBC_OP_MOV, D(r_chain, 1), S(R_WALK, 1));
    op2(p, DXBC_OP_MOV, D(r_chain, 2), S(R_WALK, 2));
    emit_else(p);
    load_chunk_base(p, key);
    emit_endif(p);

    /* The chunk is walked one tile at a time (the loop's bounds are the
     * same for the whole group, so its barriers are reached by all). A
     * pass that only reduces scans the thread totals once, at the end. A
     * chained pass reduces the chunk too, finds its prefix from the chunks
     * before it (the look-back), and then walks the chunk again to scan
     * it: that second read comes from the GPU's cache, so the data is read
     * from memory once. The barrier behind the look-back keeps the scan
     * off the thread totals until thread 0 has published from them. */
    op3(p, DXBC_OP_IEQ, D(R_T0, 0), S(R_FLAGS, 0), I(0));
    op3(p, DXBC_OP_OR, D(R_T0, 0), S(R_T0, 0), S(r_chain, 3));
    emit_if(p, S(R_T0, 0), true);
    {
        reduce_chunk(p, key);
        unsigned source = tile_scan_thread_totals(p, key);
        emit_if(p, S(r_chain, 3), true);
        lookback_chunk_prefix(p, key, source);
        tile_barrier(p);
        op2(p, DXBC_OP_MOV, D(R_RANGE, 1), S(r_chain, 0));
        op2(p, DXBC_OP_MOV, D(R_WALK, 1), S(r_chain, 1));
        op2(p, DXBC_OP_MOV, D(R_WALK, 2), S(r_chain, 2));
        emit_else(p);
        tile_advance_base(p, key, source);
        emit_endif(p);
    }
    emit_endif(p);
    emit_if(p, S(R_FLAGS, 0), true);
    scan_chunk(p, key);
    emit_endif(p);
    emit_if(p, S(r_chain, 3), true);
    lookback_store_line_total(p, key);
    emit_else(p);
    store_chunk_final(p, key);
    emit_endif(p);
    op0(p, DXBC_OP_RET, 0);
    dxbc_program_finish(p);
}

/* The rake kernel: the same work item and tile as the tile kernel, but each
 * thread loads its `items` consecutive elements straight from memory into
 * registers (the cache joins the rows of neighbouring threads), combines
 * them, and after the scan of the thread totals rescans them in registers
 * and stores them straight back. Only the thread totals go through
 * groupshared memory. */
void generate_rake_kernel(dxbc_program *p, const kernel_key *key)
{
    kernel_element element = key->element;
    kernel_element acc_element = kernel_accumulator_element(element);
    const unsigned group = kernel_tile_group(key->shape);
    unsigned tile = kernel_tile_elements(element, key->shape);
    unsigned items = tile / group;
    unsigned acc_bytes = kernel_accumulator_bytes(element);

    dxbc_program_begin(p, DXBC_PROGRAM_COMPUTE, 5, 0);
    emit_scan_declarations(p, true);
    dxbc_dcl_tgsm_raw(p, G_TOTALS, 2 * group * acc_bytes);
    dxbc_dcl_temps(p, R_VALUES + items);
    dxbc_dcl_thread_group(p, group, 1, 1);
    emit_scan_prologue(p, true);
    full_tile_flag(p, tile);

    /* The thread's elements into registers, and their total. */
    for (int guarded = 0; guarded < 2; ++guarded)
    {
        if (!guarded)
            emit_if(p, S(R_MODE, 0), true);
        else
            emit_else(p);
        for (unsigned e = 0; e < items; ++e)
        {
            op4(p, DXBC_OP_IMAD, D(R_POS, 0), S(R_RANGE, 3), I(items), I(e));
            load_position(p, key, guarded, R_VALUES + e);
        }
    }
    emit_endif(p);
    emit_identity(p, acc_element, key->operation, R_ACC);
    for (unsigned e = 0; e < items; ++e)
        emit_combine(p, key, R_ACC, R_VALUES + e, R_T0, R_T1);
    emit_store_shared(p, acc_element, G_TOTALS, S(R_RANGE, 3), R_ACC, R_T0);
    tile_barrier(p);
    load_chunk_base(p, key);
    tile_advance_base(p, key, tile_scan_thread_totals(p, key));
    store_chunk_final(p, key);

    /* The rescan in registers, stored straight to memory. */
    emit_if(p, S(R_FLAGS, 0), true);
    for (unsigned e = 0; e < items; ++e)
        tile_rescan_value(p, key, R_VALUES + e);
    for (int guarded = 0; guarded < 2; ++guarded)
    {
        if (!guarded)
            emit_if(p, S(R_MODE, 0), true);
        else
            emit_else(p);
        for (unsigned e = 0; e < items; ++e)
        {
            op4(p, DXBC_OP_IMAD, D(R_POS, 0), S(R_RANGE, 3), I(items), I(e));
            if (guarded)
            {
                op3(p, DXBC_OP_IADD, D(R_POS, 1), S(R_POS, 0), S(R_RANGE, 1));
                op3(p, DXBC_OP_ULT, D(R_ITEM, 2), S(R_POS, 1), S(R_RANGE, 2));
                emit_if(p, S(R_ITEM, 2), true);
            }
            op4(p, DXBC_OP_IMAD, D(R_POS, 3), S(R_POS, 0), S(R_MORE, 0), S(R_WALK, 2));
            emit_store_element(p, element, SCAN_UAV_OUTPUT, S(R_POS, 3), R_VALUES + e, R_T0);
            if (guarded)
                emit_endif(p);
        }
    }
    emit_endif(p);
    emit_endif(p);
    op0(p, DXBC_OP_RET, 0);
    dxbc_program_finish(p);
}
