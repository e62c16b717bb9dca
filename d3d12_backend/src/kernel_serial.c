/*
 * The serial scan kernel: one thread per (line, chunk), walking the chunk's
 * elements in scan order. Neighbouring threads take neighbouring lines, so
 * lines that lie side by side in memory (a scan along an outer axis) are
 * read and written in coalesced rows.
 */
#include "kernel_asm.h"
#include "scan_params.h"

/* Elements per round of the unrolled loop. */
#define SERIAL_UNROLL 16u

/* Registers. */
enum
{
    R_ITEM = 0,   /* x work item, y block address, z/w scratch */
    R_HEAD = 1,   /* work items, lines, chunks, chunk length */
    R_AXIS = 2,   /* length, in first, in step, out first */
    R_MORE = 3,   /* out step, flags, init base, final base */
    R_LINE = 4,   /* x dimensions, y chunk k, z line l, w slot l*K+k */
    R_WALK = 5,   /* x remaining line index, y in offset, z out offset, w dimension */
    R_RANGE = 6,  /* x dimension address, y element index i, z end */
    R_DIM = 7,    /* size, in stride, out stride */
    R_ACC = 8,    /* accumulator */
    R_PREV = 9,   /* accumulator before the element */
    R_VALUE = 10, /* the element; then the value to store */
    R_T0 = 11,
    R_T1 = 12,
    R_FLAGS = 13, /* x store, y exclusive, z/w out offset and index in the unrolled loop */
    R_X = 14,     /* the unrolled loop's elements */
    R_COUNT = 14 + SERIAL_UNROLL,
};

/* Combines the element in register `value` (its index `index`) into the
 * accumulator and, when the pass stores, stores the running value before
 * (exclusive) or after it at output offset `offset`. `value` is clobbered. */
static void element_step(dxbc_program *p, const kernel_key *key, unsigned value, dxbc_operand index,
                         dxbc_operand offset)
{
    kernel_element element = key->element;
    emit_copy(p, element, R_PREV, R_ACC);
    if (key->fault == FAULT_DROP_ELEMENT)
    {
        op3(p, DXBC_OP_IEQ, D(R_ITEM, 2), index, I(1));
        emit_if(p, S(R_ITEM, 2), false);
    }
    emit_combine(p, key, R_ACC, value, R_T0, R_T1);
    if (key->fault == FAULT_DROP_ELEMENT)
        emit_endif(p);
    emit_if(p, S(R_FLAGS, 0), true);
    if (key->fault == FAULT_OFF_BY_ONE_EXCLUSIVE)
        emit_copy(p, element, value, R_ACC);
    else
        emit_select(p, element, value, S(R_FLAGS, 1), R_PREV, R_ACC);
    emit_store_element(p, element, SCAN_UAV_OUTPUT, offset, value, R_T0);
    emit_endif(p);
}

void generate_serial_kernel(dxbc_program *p, const kernel_key *key)
{
    kernel_element element = key->element;
    dxbc_program_begin(p, DXBC_PROGRAM_COMPUTE, 5, 0);
    emit_scan_declarations(p, false);
    dxbc_dcl_temps(p, R_COUNT);
    dxbc_dcl_thread_group(p, SCAN_SERIAL_GROUP, 1, 1);

    emit_scan_prologue(p, false);

    /* The accumulator's start. */
    emit_identity(p, element, key->operation, R_ACC);
    op3(p, DXBC_OP_AND, D(R_ITEM, 2), S(R_MORE, 1), I(SCAN_FLAG_INIT));
    emit_if(p, S(R_ITEM, 2), true);
    op3(p, DXBC_OP_IADD, D(R_ITEM, 3), S(R_MORE, 2), S(R_LINE, 3));
    if (key->fault == FAULT_CHUNK_CARRY)
    {
        /* The fault: from the third chunk on, the slot before (true is
         * all ones, so adding it subtracts one). */
        op3(p, DXBC_OP_IGE, D(R_ITEM, 2), S(R_LINE, 1), I(2));
        op3(p, DXBC_OP_IADD, D(R_ITEM, 3), S(R_ITEM, 3), S(R_ITEM, 2));
    }
    emit_load_element(p, kernel_accumulator_element(element), SCAN_UAV_SCRATCH, S(R_ITEM, 3), R_ACC, R_T0);
    emit_endif(p);

    /* SERIAL_UNROLL elements at a time while as many remain: their loads are issued
     * together, then combined and stored in order. */
    emit_loop(p);
    op3(p, DXBC_OP_IADD, D(R_ITEM, 2), S(R_RANGE, 1), I(SERIAL_UNROLL));
    op3(p, DXBC_OP_ULT, D(R_ITEM, 2), S(R_RANGE, 2), S(R_ITEM, 2));
    emit_break_if(p, S(R_ITEM, 2));
    op2(p, DXBC_OP_MOV, D(R_ITEM, 3), S(R_WALK, 1));
    for (unsigned u = 0; u < SERIAL_UNROLL; ++u)
    {
        emit_load_element(p, element, SCAN_UAV_INPUT, S(R_ITEM, 3), R_X + u, R_T0);
        op3(p, DXBC_OP_IADD, D(R_ITEM, 3), S(R_ITEM, 3), S(R_AXIS, 2));
    }
    op2(p, DXBC_OP_MOV, D(R_FLAGS, 2), S(R_WALK, 2));
    op2(p, DXBC_OP_MOV, D(R_FLAGS, 3), S(R_RANGE, 1));
    for (unsigned u = 0; u < SERIAL_UNROLL; ++u)
    {
        element_step(p, key, R_X + u, S(R_FLAGS, 3), S(R_FLAGS, 2));
        op3(p, DXBC_OP_IADD, D(R_FLAGS, 2), S(R_FLAGS, 2), S(R_MORE, 0));
        op3(p, DXBC_OP_IADD, D(R_FLAGS, 3), S(R_FLAGS, 3), I(1));
    }
    op2(p, DXBC_OP_MOV, D(R_WALK, 1), S(R_ITEM, 3));
    op2(p, DXBC_OP_MOV, D(R_WALK, 2), S(R_FLAGS, 2));
    op2(p, DXBC_OP_MOV, D(R_RANGE, 1), S(R_FLAGS, 3));
    emit_endloop(p);

    /* The rest, one at a time. */
    emit_loop(p);
    op3(p, DXBC_OP_UGE, D(R_ITEM, 2), S(R_RANGE, 1), S(R_RANGE, 2));
    emit_break_if(p, S(R_ITEM, 2));
    emit_load_element(p, element, SCAN_UAV_INPUT, S(R_WALK, 1), R_VALUE, R_T0);
    element_step(p, key, R_VALUE, S(R_RANGE, 1), S(R_WALK, 2));
    op3(p, DXBC_OP_IADD, D(R_WALK, 1), S(R_WALK, 1), S(R_AXIS, 2));
    op3(p, DXBC_OP_IADD, D(R_WALK, 2), S(R_WALK, 2), S(R_MORE, 0));
    op3(p, DXBC_OP_IADD, D(R_RANGE, 1), S(R_RANGE, 1), I(1));
    emit_endloop(p);

    op3(p, DXBC_OP_AND, D(R_ITEM, 2), S(R_MORE, 1), I(SCAN_FLAG_FINAL));
    emit_if(p, S(R_ITEM, 2), true);
    op3(p, DXBC_OP_IADD, D(R_ITEM, 3), S(R_MORE, 3), S(R_LINE, 3));
    emit_store_element(p, kernel_accumulator_element(element), SCAN_UAV_SCRATCH, S(R_ITEM, 3), R_ACC, R_T0);
    emit_endif(p);
    op0(p, DXBC_OP_RET, 0);
    dxbc_program_finish(p);
}
