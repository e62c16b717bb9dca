/*
 * Moving a block of consecutive elements between a UAV and the groupshared
 * tile in memory order, one 32-bit word per thread and instruction, so that
 * every row of a group's loads and stores is coalesced whatever the element
 * size: a thread takes two float16 elements at once and half of a 64-bit
 * one. Scans in either direction use it: the decreasing direction only maps
 * its positions onto the slots in reverse (kernel_tile.c).
 *
 * float16 stores write whole words where both halves belong to the block's
 * valid range; a word shared with an element outside it (at most one at
 * each end) gets only its own half, with atomics, since another thread
 * group may be writing the other half.
 */
#include "kernel_tile.h"
#include "scan_params.h"

void tile_barrier(dxbc_program *p)
{
    op0(p, DXBC_OP_SYNC, DXBC_SYNC_GROUP_BARRIER | DXBC_SYNC_TGSM_FENCE);
}

tile_rows tile_rows_begin(dxbc_program *p, unsigned rows, unsigned group, bool looped)
{
    looped = looped && rows > 1;
    if (looped)
    {
        op2(p, DXBC_OP_MOV, D(R_ROW, 0), I(0));
        emit_loop(p);
    }
    return (tile_rows){0, rows, group, looped};
}

bool tile_rows_looped(const kernel_key *key)
{
    return !(key->element == ELEMENT_I64 && key->operation == OPERATION_PRODUCT);
}

bool tile_rows_next(dxbc_program *p, tile_rows *w)
{
    if (w->looped && w->r == 1)
    {
        op3(p, DXBC_OP_IADD, D(R_ROW, 0), S(R_ROW, 0), I(w->group));
        op3(p, DXBC_OP_UGE, D(R_ROW, 1), S(R_ROW, 0), I(w->rows * w->group));
        emit_break_if(p, S(R_ROW, 1));
        emit_endloop(p);
        return false;
    }
    if (w->r == w->rows)
        return false;
    op3(p, DXBC_OP_IADD, D(R_POS, 0), S(R_RANGE, 3), w->looped ? S(R_ROW, 0) : I(w->r * w->group));
    w->r++;
    return true;
}

static bool is_wide(kernel_element acc_element)
{
    return kernel_accumulator_bytes(acc_element) == 8;
}

void tile_slot_address(dxbc_program *p, kernel_element acc_element, dxbc_operand dst, dxbc_operand slot)
{
    /* 32-bit: 4 * (s + s / 32); 64-bit: 4 * (2s + s / 16). */
    dxbc_operand scratch = D(R_T1, 3), scratch_src = S(R_T1, 3);
    op3(p, DXBC_OP_USHR, scratch, slot, I(is_wide(acc_element) ? 4 : 5));
    if (is_wide(acc_element))
        op4(p, DXBC_OP_IMAD, scratch, slot, I(2), scratch_src);
    else
        op3(p, DXBC_OP_IADD, scratch, slot, scratch_src);
    op3(p, DXBC_OP_ISHL, dst, scratch_src, I(2));
}

unsigned tile_block_bytes(kernel_element acc_element, unsigned slots)
{
    unsigned words = is_wide(acc_element) ? 2 * slots + slots / 16 : slots + slots / 32;
    return 4 * (words + 2);
}

/* dst = whether slot `slot` lies in [R_IO.z, R_IO.w) (unsigned: a slot
 * below 0 wraps above every end). */
static void slot_in_range(dxbc_program *p, unsigned reg, unsigned component, dxbc_operand slot)
{
    op3(p, DXBC_OP_UGE, D(R_T1, 2), slot, S(R_IO, 2));
    op3(p, DXBC_OP_ULT, D(reg, component), slot, S(R_IO, 3));
    op3(p, DXBC_OP_AND, D(reg, component), S(reg, component), S(R_T1, 2));
}

/* ---- 32-bit elements ------------------------------------------------------- */

static void load_words32(dxbc_program *p, const kernel_key *key, unsigned slots, unsigned uav, unsigned base, bool full,
                         bool looped)
{
    const unsigned group = kernel_tile_group(key->shape);
    for (tile_rows w = tile_rows_begin(p, slots / group, group, looped); tile_rows_next(p, &w);)
    {
        if (full)
            op3(p, DXBC_OP_IADD, D(R_POS, 3), S(R_POS, 0), S(R_IO, base));
        else
        {
            slot_in_range(p, R_MODE, 1, S(R_POS, 0));
            dxbc_operand ops[4] = {D(R_POS, 3), S(R_MODE, 1), S(R_POS, 0), S(R_IO, 2)};
            dxbc_emit(p, DXBC_OP_MOVC, 0, ops, 4);
            op3(p, DXBC_OP_IADD, D(R_POS, 3), S(R_POS, 3), S(R_IO, base));
        }
        op3(p, DXBC_OP_ISHL, D(R_POS, 3), S(R_POS, 3), I(2));
        op3(p, DXBC_OP_LD_RAW, D(R_VALUE, 0), S(R_POS, 3), dxbc_uav_src(uav, DXBC_SWIZZLE_XXXX));
        if (!full)
        {
            emit_identity(p, key->element, key->operation, R_OTHER);
            emit_select(p, key->element, R_VALUE, S(R_MODE, 1), R_VALUE, R_OTHER);
        }
        tile_slot_address(p, key->element, D(R_POS, 2), S(R_POS, 0));
        op3(p, DXBC_OP_STORE_RAW, dxbc_tgsm_dst(G_TILE, DXBC_MASK_X), S(R_POS, 2), S(R_VALUE, 0));
    }
}

static void store_words32(dxbc_program *p, const kernel_key *key, unsigned slots, unsigned uav, unsigned base,
                          bool full, bool looped)
{
    const unsigned group = kernel_tile_group(key->shape);
    for (tile_rows w = tile_rows_begin(p, slots / group, group, looped); tile_rows_next(p, &w);)
    {
        if (!full)
        {
            slot_in_range(p, R_MODE, 1, S(R_POS, 0));
            emit_if(p, S(R_MODE, 1), true);
        }
        tile_slot_address(p, key->element, D(R_POS, 2), S(R_POS, 0));
        op3(p, DXBC_OP_LD_RAW, D(R_VALUE, 0), S(R_POS, 2), dxbc_tgsm_src(G_TILE, DXBC_SWIZZLE_XXXX));
        op3(p, DXBC_OP_IADD, D(R_POS, 3), S(R_POS, 0), S(R_IO, base));
        op3(p, DXBC_OP_ISHL, D(R_POS, 3), S(R_POS, 3), I(2));
        op3(p, DXBC_OP_STORE_RAW, dxbc_uav_dst(uav, DXBC_MASK_X), S(R_POS, 3), S(R_VALUE, 0));
        if (!full)
            emit_endif(p);
    }
}

/* ---- 64-bit elements, as pairs of words -------------------------------------- */

/* R_POS.w = the byte address of word q (R_POS.x) of the element in slot
 * R_POS.w (on entry) of a block at R_IO[base]. */
static void wide_word_address(dxbc_program *p, unsigned base)
{
    op3(p, DXBC_OP_IADD, D(R_POS, 3), S(R_POS, 3), S(R_IO, base));
    op3(p, DXBC_OP_AND, D(R_T1, 2), S(R_POS, 0), I(1));
    op4(p, DXBC_OP_IMAD, D(R_POS, 3), S(R_POS, 3), I(2), S(R_T1, 2));
    op3(p, DXBC_OP_ISHL, D(R_POS, 3), S(R_POS, 3), I(2));
}

/* R_POS.z = the groupshared byte address of word q (R_POS.x): word 2s + h
 * of slot s sits at 2s + s / 16 + h. */
static void wide_shared_address(dxbc_program *p)
{
    op3(p, DXBC_OP_USHR, D(R_POS, 2), S(R_POS, 0), I(5));
    op3(p, DXBC_OP_IADD, D(R_POS, 2), S(R_POS, 2), S(R_POS, 0));
    op3(p, DXBC_OP_ISHL, D(R_POS, 2), S(R_POS, 2), I(2));
}

static void load_words64(dxbc_program *p, const kernel_key *key, unsigned slots, unsigned uav, unsigned base, bool full,
                         bool looped)
{
    const unsigned group = kernel_tile_group(key->shape);
    for (tile_rows w = tile_rows_begin(p, 2 * slots / group, group, looped); tile_rows_next(p, &w);)
    {
        op3(p, DXBC_OP_USHR, D(R_POS, 1), S(R_POS, 0), I(1));
        if (full)
            op2(p, DXBC_OP_MOV, D(R_POS, 3), S(R_POS, 1));
        else
        {
            slot_in_range(p, R_MODE, 1, S(R_POS, 1));
            dxbc_operand ops[4] = {D(R_POS, 3), S(R_MODE, 1), S(R_POS, 1), S(R_IO, 2)};
            dxbc_emit(p, DXBC_OP_MOVC, 0, ops, 4);
        }
        wide_word_address(p, base);
        op3(p, DXBC_OP_LD_RAW, D(R_VALUE, 0), S(R_POS, 3), dxbc_uav_src(uav, DXBC_SWIZZLE_XXXX));
        if (!full)
        {
            /* The identity's word: its low half for even words, 0 for odd. */
            emit_identity(p, key->element, key->operation, R_OTHER);
            op3(p, DXBC_OP_AND, D(R_T1, 2), S(R_POS, 0), I(1));
            dxbc_operand pick[4] = {D(R_OTHER, 0), S(R_T1, 2), S(R_OTHER, 1), S(R_OTHER, 0)};
            dxbc_emit(p, DXBC_OP_MOVC, 0, pick, 4);
            dxbc_operand keep[4] = {D(R_VALUE, 0), S(R_MODE, 1), S(R_VALUE, 0), S(R_OTHER, 0)};
            dxbc_emit(p, DXBC_OP_MOVC, 0, keep, 4);
        }
        wide_shared_address(p);
        op3(p, DXBC_OP_STORE_RAW, dxbc_tgsm_dst(G_TILE, DXBC_MASK_X), S(R_POS, 2), S(R_VALUE, 0));
    }
}

static void store_words64(dxbc_program *p, const kernel_key *key, unsigned slots, unsigned uav, unsigned base,
                          bool full, bool looped)
{
    const unsigned group = kernel_tile_group(key->shape);
    for (tile_rows w = tile_rows_begin(p, 2 * slots / group, group, looped); tile_rows_next(p, &w);)
    {
        op3(p, DXBC_OP_USHR, D(R_POS, 1), S(R_POS, 0), I(1));
        if (!full)
        {
            slot_in_range(p, R_MODE, 1, S(R_POS, 1));
            emit_if(p, S(R_MODE, 1), true);
        }
        wide_shared_address(p);
        op3(p, DXBC_OP_LD_RAW, D(R_VALUE, 0), S(R_POS, 2), dxbc_tgsm_src(G_TILE, DXBC_SWIZZLE_XXXX));
        op2(p, DXBC_OP_MOV, D(R_POS, 3), S(R_POS, 1));
        wide_word_address(p, base);
        op3(p, DXBC_OP_STORE_RAW, dxbc_uav_dst(uav, DXBC_MASK_X), S(R_POS, 3), S(R_VALUE, 0));
        if (!full)
            emit_endif(p);
    }
}

/* ---- float16 elements, two to a word ------------------------------------------ */

/* For word q (R_POS.x) of the block at R_IO[base]: R_POS.y = the slot of
 * its low half (2q minus the block's parity; below 0 wraps), R_MODE.y and
 * R_MODE.w = whether each half's slot is valid. R_T1.x holds the block's
 * first word, R_T1.y its parity negated. */
static void half_slots(dxbc_program *p, bool full, unsigned slots)
{
    op4(p, DXBC_OP_IMAD, D(R_POS, 1), S(R_POS, 0), I(2), S(R_T1, 1));
    op3(p, DXBC_OP_IADD, D(R_POS, 2), S(R_POS, 1), I(1));
    if (full)
    {
        op3(p, DXBC_OP_ULT, D(R_MODE, 1), S(R_POS, 1), I(slots));
        op3(p, DXBC_OP_ULT, D(R_MODE, 3), S(R_POS, 2), I(slots));
    }
    else
    {
        slot_in_range(p, R_MODE, 1, S(R_POS, 1));
        slot_in_range(p, R_MODE, 3, S(R_POS, 2));
    }
}

static void block_parity(dxbc_program *p, unsigned base)
{
    op3(p, DXBC_OP_USHR, D(R_T1, 0), S(R_IO, base), I(1));
    op3(p, DXBC_OP_AND, D(R_T1, 1), S(R_IO, base), I(1));
    op2(p, DXBC_OP_INEG, D(R_T1, 1), S(R_T1, 1));
}

static void load_halves(dxbc_program *p, const kernel_key *key, unsigned slots, unsigned uav, unsigned base, bool full,
                        bool looped)
{
    const unsigned group = kernel_tile_group(key->shape);
    block_parity(p, base);
    for (tile_rows w = tile_rows_begin(p, slots / (2 * group) + 1, group, looped); tile_rows_next(p, &w);)
    {
        half_slots(p, full, slots);
        /* The word, or (neither half valid) the word of the first valid
         * slot, so that no load leaves the bound range. */
        op3(p, DXBC_OP_OR, D(R_POS, 3), S(R_MODE, 1), S(R_MODE, 3));
        op3(p, DXBC_OP_IADD, D(R_T1, 2), S(R_T1, 0), S(R_POS, 0));
        op3(p, DXBC_OP_IADD, D(R_T1, 3), S(R_IO, 2), S(R_IO, base));
        op3(p, DXBC_OP_USHR, D(R_T1, 3), S(R_T1, 3), I(1));
        {
            dxbc_operand ops[4] = {D(R_POS, 3), S(R_POS, 3), S(R_T1, 2), S(R_T1, 3)};
            dxbc_emit(p, DXBC_OP_MOVC, 0, ops, 4);
        }
        op3(p, DXBC_OP_ISHL, D(R_POS, 3), S(R_POS, 3), I(2));
        op3(p, DXBC_OP_LD_RAW, D(R_VALUE, 0), S(R_POS, 3), dxbc_uav_src(uav, DXBC_SWIZZLE_XXXX));
        op3(p, DXBC_OP_USHR, D(R_VALUE, 1), S(R_VALUE, 0), I(16));
        op2(p, DXBC_OP_F16TOF32, dxbc_temp_dst(R_VALUE, DXBC_MASK_XY), dxbc_temp_src(R_VALUE, DXBC_SWIZZLE_XYXY));
        emit_identity(p, ELEMENT_F32, key->operation, R_OTHER);
        for (unsigned h = 0; h < 2; ++h)
        {
            /* Only halves whose slot is in the block (every slot is in
             * exactly one word); invalid ones hold the identity. */
            op3(p, DXBC_OP_IADD, D(R_POS, 3), S(R_POS, 1), I(h));
            op3(p, DXBC_OP_ULT, D(R_T1, 2), S(R_POS, 3), I(slots));
            emit_if(p, S(R_T1, 2), true);
            {
                dxbc_operand ops[4] = {D(R_VALUE, h), S(R_MODE, h ? 3 : 1), S(R_VALUE, h), S(R_OTHER, 0)};
                dxbc_emit(p, DXBC_OP_MOVC, 0, ops, 4);
            }
            tile_slot_address(p, ELEMENT_F32, D(R_POS, 2), S(R_POS, 3));
            op3(p, DXBC_OP_STORE_RAW, dxbc_tgsm_dst(G_TILE, DXBC_MASK_X), S(R_POS, 2), S(R_VALUE, h));
            emit_endif(p);
        }
    }
}

static void store_halves(dxbc_program *p, const kernel_key *key, unsigned slots, unsigned uav, unsigned base, bool full,
                         bool looped)
{
    const unsigned group = kernel_tile_group(key->shape);
    block_parity(p, base);
    for (tile_rows w = tile_rows_begin(p, slots / (2 * group) + 1, group, looped); tile_rows_next(p, &w);)
    {
        half_slots(p, full, slots);
        op3(p, DXBC_OP_AND, D(R_T1, 2), S(R_MODE, 1), S(R_MODE, 3));
        emit_if(p, S(R_T1, 2), true);
        {
            /* Both halves: one plain store of the word. */
            tile_slot_address(p, ELEMENT_F32, D(R_POS, 2), S(R_POS, 1));
            op3(p, DXBC_OP_LD_RAW, D(R_VALUE, 0), S(R_POS, 2), dxbc_tgsm_src(G_TILE, DXBC_SWIZZLE_XXXX));
            op3(p, DXBC_OP_IADD, D(R_POS, 3), S(R_POS, 1), I(1));
            tile_slot_address(p, ELEMENT_F32, D(R_POS, 2), S(R_POS, 3));
            op3(p, DXBC_OP_LD_RAW, D(R_VALUE, 1), S(R_POS, 2), dxbc_tgsm_src(G_TILE, DXBC_SWIZZLE_XXXX));
            op2(p, DXBC_OP_F32TOF16, dxbc_temp_dst(R_VALUE, DXBC_MASK_XY), dxbc_temp_src(R_VALUE, DXBC_SWIZZLE_XYXY));
            op3(p, DXBC_OP_ISHL, D(R_VALUE, 1), S(R_VALUE, 1), I(16));
            op3(p, DXBC_OP_OR, D(R_VALUE, 0), S(R_VALUE, 0), S(R_VALUE, 1));
            op3(p, DXBC_OP_IADD, D(R_POS, 3), S(R_T1, 0), S(R_POS, 0));
            op3(p, DXBC_OP_ISHL, D(R_POS, 3), S(R_POS, 3), I(2));
            op3(p, DXBC_OP_STORE_RAW, dxbc_uav_dst(uav, DXBC_MASK_X), S(R_POS, 3), S(R_VALUE, 0));
        }
        emit_else(p);
        for (unsigned h = 0; h < 2; ++h)
        {
            /* One half: its 16 bits alone (emit_store_element's atomics). */
            emit_if(p, S(R_MODE, h ? 3 : 1), true);
            op3(p, DXBC_OP_IADD, D(R_POS, 3), S(R_POS, 1), I(h));
            tile_slot_address(p, ELEMENT_F32, D(R_POS, 2), S(R_POS, 3));
            op3(p, DXBC_OP_LD_RAW, D(R_OTHER, 0), S(R_POS, 2), dxbc_tgsm_src(G_TILE, DXBC_SWIZZLE_XXXX));
            op3(p, DXBC_OP_IADD, D(R_POS, 3), S(R_POS, 3), S(R_IO, base));
            emit_store_element(p, ELEMENT_F16, uav, S(R_POS, 3), R_OTHER, R_T0);
            emit_endif(p);
        }
        emit_endif(p);
    }
}

/* ---- the entry points ------------------------------------------------------------ */

void emit_block_load(dxbc_program *p, const kernel_key *key, unsigned slots, unsigned uav, unsigned base_component,
                     bool full, bool looped)
{
    switch (key->element)
    {
    case ELEMENT_F16:
        load_halves(p, key, slots, uav, base_component, full, looped);
        return;
    case ELEMENT_I64:
        load_words64(p, key, slots, uav, base_component, full, looped);
        return;
    default:
        load_words32(p, key, slots, uav, base_component, full, looped);
        return;
    }
}

void emit_block_store(dxbc_program *p, const kernel_key *key, unsigned slots, unsigned uav, unsigned base_component,
                      bool full, bool looped)
{
    switch (key->element)
    {
    case ELEMENT_F16:
        store_halves(p, key, slots, uav, base_component, full, looped);
        return;
    case ELEMENT_I64:
        store_words64(p, key, slots, uav, base_component, full, looped);
        return;
    default:
        store_words32(p, key, slots, uav, base_component, full, looped);
        return;
    }
}
