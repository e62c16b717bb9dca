/*
 * The prologue every scan kernel starts with: find the work item, read the
 * dispatch's parameter block from u3, return when the work
 * item is past the end, and locate the item's line and chunk.
 *
 * The work item is the thread (serial kernel), the thread group (tile and
 * rake kernels), or a ticket the group draws from a counter in scratch
 * (look-back kernel): tickets follow the order in which groups start, so a
 * group that waits for its predecessors waits only for groups that are
 * already running.
 */
#include "kernel_asm.h"
#include "scan_params.h"

/* reg.mask = the block's words from `word` on (P_ITEM.y holds the block's
 * byte offset; P_ITEM.z is clobbered). */
static void param_words(dxbc_program *p, unsigned reg, unsigned word, unsigned mask)
{
    op3(p, DXBC_OP_IADD, D(P_ITEM, 2), S(P_ITEM, 1), I(4 * word));
    op3(p, DXBC_OP_LD_RAW, dxbc_temp_dst(reg, mask), S(P_ITEM, 2), dxbc_uav_src(SCAN_UAV_PARAMS, DXBC_SWIZZLE_XYZW));
}

/* P_ITEM.x = the group's ticket: thread 0 takes the next value of the
 * counter at u4 accumulator SCAN_P_STATUS_BASE + 2 * work items and hands
 * it to the group through groupshared g2[0]. The counter carries the
 * pass's epoch in its top 8 bits (scan_params.h): raising it to at least
 * epoch << 24 first zeroes a counter left by an earlier epoch, and leaves
 * this epoch's alone; the ticket is the low 24 bits. */
static void draw_ticket(dxbc_program *p, unsigned acc_bytes)
{
    param_words(p, P_DIM, SCAN_P_STATUS_BASE, DXBC_MASK_XY);
    op4(p, DXBC_OP_IMAD, D(P_DIM, 2), S(P_HEAD, 0), I(2), S(P_DIM, 0));
    op3(p, DXBC_OP_ISHL, D(P_DIM, 2), S(P_DIM, 2), I(acc_bytes == 8 ? 3 : 2));
    op3(p, DXBC_OP_ISHL, D(P_DIM, 1), S(P_DIM, 1), I(24));
    op3(p, DXBC_OP_IEQ, D(P_DIM, 3), S(P_RANGE, 3), I(0));
    emit_if(p, S(P_DIM, 3), true);
    {
        op3(p, DXBC_OP_ATOMIC_UMAX, dxbc_uav_dst(SCAN_UAV_STATUS, DXBC_MASK_X), S(P_DIM, 2), S(P_DIM, 1));
        dxbc_operand ops[4] = {D(P_ITEM, 0), dxbc_uav_dst(SCAN_UAV_STATUS, DXBC_MASK_X), S(P_DIM, 2), I(1)};
        dxbc_emit(p, DXBC_OP_IMM_ATOMIC_IADD, 0, ops, 4);
        op3(p, DXBC_OP_AND, D(P_ITEM, 0), S(P_ITEM, 0), I(0xffffffu));
    }
    op3(p, DXBC_OP_STORE_RAW, dxbc_tgsm_dst(2, DXBC_MASK_X), I(0), S(P_ITEM, 0));
    emit_endif(p);
    op0(p, DXBC_OP_SYNC, DXBC_SYNC_GROUP_BARRIER | DXBC_SYNC_TGSM_FENCE);
    op3(p, DXBC_OP_LD_RAW, D(P_ITEM, 0), I(0), dxbc_tgsm_src(2, DXBC_SWIZZLE_XXXX));
}

/* The prologue; `ticket_acc_bytes` is 0, or (look-back) the accumulator
 * size of the kernel that draws tickets: always, or with `chained` only
 * when the block's flags hold SCAN_FLAG_CHAINED. */
static void prologue(dxbc_program *p, bool per_group, unsigned ticket_acc_bytes, bool chained)
{
    enum dxbc_operand_type id = per_group ? DXBC_OPERAND_THREAD_GROUP_ID : DXBC_OPERAND_THREAD_ID;
    /* w = id.y * row + id.x, and the block's first four words. */
    op4(p, DXBC_OP_IMAD, D(P_ITEM, 0), dxbc_input(id, 1), dxbc_cb(SCAN_CB_ROOT, 0, SCAN_ROOT_ROW_ITEMS),
        dxbc_input(id, 0));
    if (per_group)
        op2(p, DXBC_OP_MOV, D(P_RANGE, 3), dxbc_input_flat());
    op2(p, DXBC_OP_MOV, D(P_ITEM, 1), dxbc_cb(SCAN_CB_ROOT, 0, SCAN_ROOT_PARAM_OFFSET));
    param_words(p, P_HEAD, 0, DXBC_MASK_XYZW);
    if (ticket_acc_bytes && chained)
    {
        param_words(p, P_MORE, 8, DXBC_MASK_XYZW);
        op3(p, DXBC_OP_AND, D(P_MORE, 1), S(P_MORE, 1), I(SCAN_FLAG_CHAINED));
        emit_if(p, S(P_MORE, 1), true);
        draw_ticket(p, ticket_acc_bytes);
        emit_endif(p);
    }
    else if (ticket_acc_bytes)
        draw_ticket(p, ticket_acc_bytes);
    op3(p, DXBC_OP_UGE, D(P_ITEM, 2), S(P_ITEM, 0), S(P_HEAD, 0));
    emit_if(p, S(P_ITEM, 2), true);
    op0(p, DXBC_OP_RET, 0);
    emit_endif(p);
    param_words(p, P_AXIS, 4, DXBC_MASK_XYZW);
    param_words(p, P_MORE, 8, DXBC_MASK_XYZW);
    param_words(p, P_LINE, SCAN_P_DIMENSIONS, DXBC_MASK_X);

    /* k = w / L and l = w % L, or (chunk major) k = w % K and l = w / K;
     * slot = l * K + k. */
    op3(p, DXBC_OP_AND, D(P_ITEM, 3), S(P_MORE, 1), I(SCAN_FLAG_CHUNK_MAJOR));
    {
        dxbc_operand ops[4] = {D(P_ITEM, 2), S(P_ITEM, 3), S(P_HEAD, 2), S(P_HEAD, 1)};
        dxbc_emit(p, DXBC_OP_MOVC, 0, ops, 4);
    }
    op4(p, DXBC_OP_UDIV, D(P_LINE, 1), D(P_LINE, 2), S(P_ITEM, 0), S(P_ITEM, 2));
    emit_if(p, S(P_ITEM, 3), true);
    op2(p, DXBC_OP_MOV, D(P_ITEM, 2), S(P_LINE, 1));
    op2(p, DXBC_OP_MOV, D(P_LINE, 1), S(P_LINE, 2));
    op2(p, DXBC_OP_MOV, D(P_LINE, 2), S(P_ITEM, 2));
    emit_endif(p);
    op4(p, DXBC_OP_IMAD, D(P_LINE, 3), S(P_LINE, 2), S(P_HEAD, 2), S(P_LINE, 1));

    /* Line offsets from l's coordinates over the folded dimensions, one
     * unrolled step per possible dimension. */
    op2(p, DXBC_OP_MOV, D(P_WALK, 0), S(P_LINE, 2));
    op2(p, DXBC_OP_MOV, D(P_WALK, 1), S(P_AXIS, 1));
    op2(p, DXBC_OP_MOV, D(P_WALK, 2), S(P_AXIS, 3));
    for (unsigned d = 0; d < SCAN_MAX_LINE_DIMENSIONS; ++d)
    {
        op3(p, DXBC_OP_ULT, D(P_ITEM, 2), I(d), S(P_LINE, 0));
        emit_if(p, S(P_ITEM, 2), true);
        param_words(p, P_DIM, SCAN_P_DIMENSION0 + 4 * d, DXBC_MASK_XYZ);
        op4(p, DXBC_OP_UDIV, D(P_ITEM, 2), D(P_ITEM, 3), S(P_WALK, 0), S(P_DIM, 0));
        op2(p, DXBC_OP_MOV, D(P_WALK, 0), S(P_ITEM, 2));
        op4(p, DXBC_OP_IMAD, D(P_WALK, 1), S(P_ITEM, 3), S(P_DIM, 1), S(P_WALK, 1));
        op4(p, DXBC_OP_IMAD, D(P_WALK, 2), S(P_ITEM, 3), S(P_DIM, 2), S(P_WALK, 2));
        emit_endif(p);
    }

    /* The chunk: i from i0 = k*C to i1 = min(n, i0 + C); offsets at i0. */
    op4(p, DXBC_OP_IMUL, dxbc_null_dst(), D(P_RANGE, 1), S(P_LINE, 1), S(P_HEAD, 3));
    op3(p, DXBC_OP_IADD, D(P_RANGE, 2), S(P_RANGE, 1), S(P_HEAD, 3));
    op3(p, DXBC_OP_UMIN, D(P_RANGE, 2), S(P_RANGE, 2), S(P_AXIS, 0));
    op4(p, DXBC_OP_IMAD, D(P_WALK, 1), S(P_RANGE, 1), S(P_AXIS, 2), S(P_WALK, 1));
    op4(p, DXBC_OP_IMAD, D(P_WALK, 2), S(P_RANGE, 1), S(P_MORE, 0), S(P_WALK, 2));
    op3(p, DXBC_OP_AND, D(P_FLAGS, 0), S(P_MORE, 1), I(SCAN_FLAG_STORE));
    op3(p, DXBC_OP_AND, D(P_FLAGS, 1), S(P_MORE, 1), I(SCAN_FLAG_EXCLUSIVE));
    op3(p, DXBC_OP_AND, D(P_FLAGS, 2), S(P_MORE, 1), I(SCAN_FLAG_INIT));
    op3(p, DXBC_OP_AND, D(P_FLAGS, 3), S(P_MORE, 1), I(SCAN_FLAG_FINAL));
}

void emit_scan_prologue(dxbc_program *p, bool per_group)
{
    prologue(p, per_group, 0, false);
}

void emit_scan_prologue_ticket(dxbc_program *p, unsigned acc_bytes)
{
    prologue(p, true, acc_bytes, false);
}

void emit_scan_prologue_chained(dxbc_program *p, unsigned acc_bytes)
{
    prologue(p, true, acc_bytes, true);
}

void emit_scan_declarations(dxbc_program *p, bool per_group)
{
    dxbc_dcl_constant_buffer(p, SCAN_CB_ROOT, 1);
    for (unsigned u = 0; u < SCAN_UAV_COUNT; ++u)
        dxbc_dcl_uav_raw(p, u);
    if (per_group)
    {
        dxbc_dcl_input(p, DXBC_OPERAND_THREAD_GROUP_ID);
        dxbc_dcl_input(p, DXBC_OPERAND_THREAD_ID_IN_GROUP_FLATTENED);
    }
    else
        dxbc_dcl_input(p, DXBC_OPERAND_THREAD_ID);
}
