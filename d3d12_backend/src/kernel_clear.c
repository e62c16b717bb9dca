/*
 * The clear kernel: zeroes scratch accumulators [final base, final base +
 * work items), one per thread (the look-back kernel's status words and
 * ticket counter must start at zero). Its element class says the
 * accumulator size: ELEMENT_I32 for 4 bytes, ELEMENT_I64 for 8.
 */
#include "kernel_asm.h"
#include "scan_params.h"

void generate_clear_kernel(dxbc_program *p, const kernel_key *key)
{
    bool wide = kernel_accumulator_bytes(key->element) == 8;
    dxbc_program_begin(p, DXBC_PROGRAM_COMPUTE, 5, 0);
    emit_scan_declarations(p, false);
    dxbc_dcl_temps(p, 2);
    dxbc_dcl_thread_group(p, SCAN_SERIAL_GROUP, 1, 1);
    /* r0.x = w = id.y * row + id.x; r1 = words 0 (work items) and the final base. */
    op4(p, DXBC_OP_IMAD, D(0, 0), dxbc_input(DXBC_OPERAND_THREAD_ID, 1), dxbc_cb(SCAN_CB_ROOT, 0, SCAN_ROOT_ROW_ITEMS),
        dxbc_input(DXBC_OPERAND_THREAD_ID, 0));
    op2(p, DXBC_OP_MOV, D(0, 1), dxbc_cb(SCAN_CB_ROOT, 0, SCAN_ROOT_PARAM_OFFSET));
    op3(p, DXBC_OP_LD_RAW, D(1, 0), S(0, 1), dxbc_uav_src(SCAN_UAV_PARAMS, DXBC_SWIZZLE_XXXX));
    op3(p, DXBC_OP_IADD, D(0, 2), S(0, 1), I(4 * SCAN_P_FINAL_BASE));
    op3(p, DXBC_OP_LD_RAW, D(1, 1), S(0, 2), dxbc_uav_src(SCAN_UAV_PARAMS, DXBC_SWIZZLE_XXXX));
    op3(p, DXBC_OP_UGE, D(0, 2), S(0, 0), S(1, 0));
    emit_if(p, S(0, 2), true);
    op0(p, DXBC_OP_RET, 0);
    emit_endif(p);
    op3(p, DXBC_OP_IADD, D(0, 2), S(1, 1), S(0, 0));
    op3(p, DXBC_OP_ISHL, D(0, 2), S(0, 2), I(wide ? 3 : 2));
    op3(p, DXBC_OP_STORE_RAW, dxbc_uav_dst(SCAN_UAV_SCRATCH, wide ? DXBC_MASK_XY : DXBC_MASK_X), S(0, 2),
        dxbc_imm4(0, 0, 0, 0));
    op0(p, DXBC_OP_RET, 0);
    dxbc_program_finish(p);
}
