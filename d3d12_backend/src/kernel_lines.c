/*
 * The short-line kernel: many short lines that lie packed one after another
 * in memory (a line of n elements steps by +1 or -1, the next line starts n
 * elements further on, the same in both tensors).
 *
 * Each thread group takes P = SCAN_P_CHUNK consecutive lines: it loads
 * their P * n elements as one memory-order block in coalesced 32-bit words
 * (kernel_block_io.c), thread t scans lines t, t + G, ... (G threads) in
 * groupshared memory, and the group stores the block back the same way. Without it, a thread per
 * line reads memory n elements apart from its neighbours and every load is
 * scattered. Chunks do not exist here (the lines are short); with
 * SCAN_FLAG_INIT a line starts from scratch[init_base + l], and with
 * SCAN_FLAG_FINAL its total goes to scratch[final_base + l].
 */
#include "kernel_tile.h"
#include "scan_params.h"

/* Elements a thread scans per step of its line (a multiple of 4), and the
 * registers that hold their values and groupshared addresses. */
#define LINES_UNROLL 8u
#define R_ADDRESSES  (R_VALUES + LINES_UNROLL)

unsigned kernel_lines_block(kernel_element element)
{
    return kernel_accumulator_bytes(element) == 8 ? 2048u : 4096u;
}

void generate_lines_kernel(dxbc_program *p, const kernel_key *key)
{
    kernel_element acc_element = kernel_accumulator_element(key->element);
    const unsigned group = kernel_tile_group(key->shape);
    const unsigned slots = kernel_lines_block(key->element);

    dxbc_program_begin(p, DXBC_PROGRAM_COMPUTE, 5, 0);
    emit_scan_declarations(p, true);
    dxbc_dcl_tgsm_raw(p, G_TILE, tile_block_bytes(acc_element, slots));
    dxbc_dcl_temps(p, R_ADDRESSES + LINES_UNROLL / 4);
    dxbc_dcl_thread_group(p, group, 1, 1);

    /* The work item (group) w, the block's words; past the end, return. */
    op4(p, DXBC_OP_IMAD, D(R_ITEM, 0), dxbc_input(DXBC_OPERAND_THREAD_GROUP_ID, 1),
        dxbc_cb(SCAN_CB_ROOT, 0, SCAN_ROOT_ROW_ITEMS), dxbc_input(DXBC_OPERAND_THREAD_GROUP_ID, 0));
    op2(p, DXBC_OP_MOV, D(R_RANGE, 3), dxbc_input_flat());
    op2(p, DXBC_OP_MOV, D(R_ITEM, 1), dxbc_cb(SCAN_CB_ROOT, 0, SCAN_ROOT_PARAM_OFFSET));
    for (unsigned row = 0; row < 3; ++row)
    {
        op3(p, DXBC_OP_IADD, D(R_ITEM, 2), S(R_ITEM, 1), I(16 * row));
        op3(p, DXBC_OP_LD_RAW, dxbc_temp_dst(R_HEAD + row, DXBC_MASK_XYZW), S(R_ITEM, 2),
            dxbc_uav_src(SCAN_UAV_PARAMS, DXBC_SWIZZLE_XYZW));
    }
    op3(p, DXBC_OP_UGE, D(R_ITEM, 2), S(R_ITEM, 0), S(R_HEAD, 0));
    emit_if(p, S(R_ITEM, 2), true);
    op0(p, DXBC_OP_RET, 0);
    emit_endif(p);
    op3(p, DXBC_OP_AND, D(R_FLAGS, 1), S(R_MORE, 1), I(SCAN_FLAG_EXCLUSIVE));
    op3(p, DXBC_OP_AND, D(R_FLAGS, 2), S(R_MORE, 1), I(SCAN_FLAG_INIT));
    op3(p, DXBC_OP_AND, D(R_FLAGS, 3), S(R_MORE, 1), I(SCAN_FLAG_FINAL));

    /* The group's lines: l0 = w * P and P' = min(P, L - l0) of them; the
     * block's slot 0 lies at line l0's lowest offset in each tensor. */
    op4(p, DXBC_OP_IMUL, dxbc_null_dst(), D(R_LINE, 0), S(R_ITEM, 0), S(R_HEAD, 3));
    op2(p, DXBC_OP_INEG, D(R_T0, 0), S(R_LINE, 0));
    op3(p, DXBC_OP_IADD, D(R_LINE, 1), S(R_HEAD, 1), S(R_T0, 0));
    op3(p, DXBC_OP_UMIN, D(R_LINE, 1), S(R_LINE, 1), S(R_HEAD, 3));
    op3(p, DXBC_OP_IEQ, D(R_MODE, 2), S(R_AXIS, 2), I(0xffffffffu));  /* decreasing */
    op3(p, DXBC_OP_IADD, D(R_LOOK, 1), S(R_AXIS, 0), I(0xffffffffu)); /* n - 1 when decreasing, else 0 */
    op3(p, DXBC_OP_AND, D(R_LOOK, 1), S(R_LOOK, 1), S(R_MODE, 2));
    op2(p, DXBC_OP_INEG, D(R_T0, 2), S(R_LOOK, 1));
    op4(p, DXBC_OP_IMAD, D(R_IO, 0), S(R_LINE, 0), S(R_AXIS, 0), S(R_AXIS, 1));
    op3(p, DXBC_OP_IADD, D(R_IO, 0), S(R_IO, 0), S(R_T0, 2));
    op4(p, DXBC_OP_IMAD, D(R_IO, 1), S(R_LINE, 0), S(R_AXIS, 0), S(R_AXIS, 3));
    op3(p, DXBC_OP_IADD, D(R_IO, 1), S(R_IO, 1), S(R_T0, 2));
    op2(p, DXBC_OP_MOV, D(R_IO, 2), I(0));
    op4(p, DXBC_OP_IMUL, dxbc_null_dst(), D(R_IO, 3), S(R_LINE, 1), S(R_AXIS, 0));
    emit_block_load(p, key, slots, SCAN_UAV_INPUT, 0, false, false);
    tile_barrier(p);

    /* Thread t scans lines l0 + t, l0 + t + G, ... below P' (G threads, P
     * up to a block's slots, so a thread may have several): line l0 + t's
     * element i (scan order) is slot t * n + i, or t * n + n - 1 - i when
     * decreasing. */
    op2(p, DXBC_OP_MOV, D(R_LINE, 3), S(R_RANGE, 3)); /* t */
    emit_loop(p);
    {
        op3(p, DXBC_OP_UGE, D(R_MODE, 3), S(R_LINE, 3), S(R_LINE, 1));
        emit_break_if(p, S(R_MODE, 3));
        op3(p, DXBC_OP_IADD, D(R_LINE, 2), S(R_LINE, 0), S(R_LINE, 3)); /* l */
        emit_identity(p, acc_element, key->operation, R_ACC);
        emit_if(p, S(R_FLAGS, 2), true);
        op3(p, DXBC_OP_IADD, D(R_ITEM, 3), S(R_MORE, 2), S(R_LINE, 2));
        emit_load_element(p, acc_element, SCAN_UAV_SCRATCH, S(R_ITEM, 3), R_ACC, R_T0);
        emit_endif(p);
        op4(p, DXBC_OP_IMAD, D(R_POS, 0), S(R_LINE, 3), S(R_AXIS, 0), S(R_LOOK, 1)); /* slot */
        op3(p, DXBC_OP_OR, D(R_POS, 3), S(R_MODE, 2), I(1));                         /* +1 or -1 */
        op2(p, DXBC_OP_MOV, D(R_POS, 1), I(0));                                      /* i */
        /* LINES_UNROLL elements at a time while that many are left: their
         * groupshared loads are in flight together, where one at a time
         * each waited for the last; then the rest one by one. */
        emit_loop(p);
        {
            op3(p, DXBC_OP_IADD, D(R_T1, 0), S(R_POS, 1), I(LINES_UNROLL));
            op3(p, DXBC_OP_ULT, D(R_T1, 0), S(R_AXIS, 0), S(R_T1, 0));
            emit_break_if(p, S(R_T1, 0));
            for (unsigned u = 0; u < LINES_UNROLL; ++u)
            {
                dxbc_operand address = D(R_ADDRESSES + u / 4, u % 4);
                op4(p, DXBC_OP_IMAD, address, S(R_POS, 3), I(u), S(R_POS, 0));
                tile_slot_address(p, acc_element, address, S(R_ADDRESSES + u / 4, u % 4));
                emit_load_shared_at(p, acc_element, G_TILE, S(R_ADDRESSES + u / 4, u % 4), R_VALUES + u);
            }
            for (unsigned u = 0; u < LINES_UNROLL; ++u)
            {
                if (key->fault == FAULT_DROP_ELEMENT)
                {
                    op3(p, DXBC_OP_IADD, D(R_T1, 1), S(R_POS, 1), I(u));
                    tile_drop_element_fault(p, key, S(R_T1, 1), R_VALUES + u);
                }
                tile_rescan_value(p, key, R_VALUES + u);
                emit_store_shared_at(p, acc_element, G_TILE, S(R_ADDRESSES + u / 4, u % 4), R_VALUES + u);
            }
            op4(p, DXBC_OP_IMAD, D(R_POS, 0), S(R_POS, 3), I(LINES_UNROLL), S(R_POS, 0));
            op3(p, DXBC_OP_IADD, D(R_POS, 1), S(R_POS, 1), I(LINES_UNROLL));
        }
        emit_endloop(p);
        emit_loop(p);
        {
            op3(p, DXBC_OP_UGE, D(R_T1, 0), S(R_POS, 1), S(R_AXIS, 0));
            emit_break_if(p, S(R_T1, 0));
            tile_slot_address(p, acc_element, D(R_POS, 2), S(R_POS, 0));
            emit_load_shared_at(p, acc_element, G_TILE, S(R_POS, 2), R_VALUE);
            tile_drop_element_fault(p, key, S(R_POS, 1), R_VALUE);
            tile_rescan_value(p, key, R_VALUE);
            tile_slot_address(p, acc_element, D(R_POS, 2), S(R_POS, 0));
            emit_store_shared_at(p, acc_element, G_TILE, S(R_POS, 2), R_VALUE);
            op3(p, DXBC_OP_IADD, D(R_POS, 0), S(R_POS, 0), S(R_POS, 3));
            op3(p, DXBC_OP_IADD, D(R_POS, 1), S(R_POS, 1), I(1));
        }
        emit_endloop(p);
        emit_if(p, S(R_FLAGS, 3), true);
        op3(p, DXBC_OP_IADD, D(R_ITEM, 3), S(R_MORE, 3), S(R_LINE, 2));
        emit_store_element(p, acc_element, SCAN_UAV_SCRATCH, S(R_ITEM, 3), R_ACC, R_T0);
        emit_endif(p);
        op3(p, DXBC_OP_IADD, D(R_LINE, 3), S(R_LINE, 3), I(group));
    }
    emit_endloop(p);
    tile_barrier(p);
    emit_block_store(p, key, slots, SCAN_UAV_OUTPUT, 1, false, false);
    op0(p, DXBC_OP_RET, 0);
    dxbc_program_finish(p);
}
