/*
 * Shared pieces of the kernel generators: short instruction helpers and the
 * per-element-class operations (load, store, combine, identity) that both
 * kernels are built from.
 *
 * Values live in temp registers: a value of any class occupies .x, and
 * 64-bit integers .y as well (x = low half, y = high half). Float16 values
 * are held widened to float32. Every helper that needs scratch space takes
 * a temp register it may overwrite entirely.
 */
#ifndef DMLCONF_KERNEL_ASM_H
#define DMLCONF_KERNEL_ASM_H

#include "dxbc_emit.h"
#include "scan_kernels.h"

#include <stdint.h>

/* Shorthands: destination / source component c of temp r, an immediate. */
static inline dxbc_operand D(unsigned r, unsigned c)
{
    return dxbc_temp_dst(r, 1u << c);
}

static inline dxbc_operand S(unsigned r, unsigned c)
{
    return dxbc_temp(r, c);
}

static inline dxbc_operand I(uint32_t v)
{
    return dxbc_imm(v);
}

/* One instruction with 0 to 4 operands, destinations first (op0/op1 take
 * opcode controls, op2-op4 none); errors are recorded in `p` (dxbc_emit). */
void op0(dxbc_program *p, enum dxbc_opcode op, uint32_t controls);
void op1(dxbc_program *p, enum dxbc_opcode op, uint32_t controls, dxbc_operand a);
void op2(dxbc_program *p, enum dxbc_opcode op, dxbc_operand d, dxbc_operand a);
void op3(dxbc_program *p, enum dxbc_opcode op, dxbc_operand d, dxbc_operand a, dxbc_operand b);
void op4(dxbc_program *p, enum dxbc_opcode op, dxbc_operand d, dxbc_operand e, dxbc_operand a, dxbc_operand b);

/* if_nz / if_z on one operand, else, endif; breakc_nz; loop / endloop. */
void emit_if(dxbc_program *p, dxbc_operand condition, bool nonzero);
void emit_else(dxbc_program *p);
void emit_endif(dxbc_program *p);
void emit_break_if(dxbc_program *p, dxbc_operand condition);
void emit_loop(dxbc_program *p);
void emit_endloop(dxbc_program *p);

/* Where a value lives when it is not in registers. */
typedef struct value_place
{
    bool groupshared; /* g<slot> with a byte address, else u<slot> with an element offset */
    unsigned slot;
} value_place;

/* dst = the element of class `element` at element offset `offset` (a
 * register component) of UAV `uav`, widened (float16 -> float32). */
void emit_load_element(dxbc_program *p, kernel_element element, unsigned uav, dxbc_operand offset, unsigned dst,
                       unsigned tmp);
/* Stores register `src` as an element of class `element` at element offset
 * `offset` of UAV `uav` (float16 narrowed, round to nearest even; its
 * 16-bit half is written with atomics so the neighbouring half survives). */
void emit_store_element(dxbc_program *p, kernel_element element, unsigned uav, dxbc_operand offset, unsigned src,
                        unsigned tmp);
/* Accumulator values in groupshared slot `slot` at accumulator index
 * `index` (a register component). */
void emit_load_shared(dxbc_program *p, kernel_element element, unsigned slot, dxbc_operand index, unsigned dst,
                      unsigned tmp);
void emit_store_shared(dxbc_program *p, kernel_element element, unsigned slot, dxbc_operand index, unsigned src,
                       unsigned tmp);

/* The same with a byte address (a register component) instead of an
 * index. */
void emit_load_shared_at(dxbc_program *p, kernel_element element, unsigned slot, dxbc_operand address, unsigned dst);
void emit_store_shared_at(dxbc_program *p, kernel_element element, unsigned slot, dxbc_operand address, unsigned src);

/* dst = the identity of the operation (0 or 1 in the accumulator type). */
void emit_identity(dxbc_program *p, kernel_element element, kernel_operation operation, unsigned dst);
/* dst = src (the components a value uses). */
void emit_copy(dxbc_program *p, kernel_element element, unsigned dst, unsigned src);
/* dst = condition ? a : b, per value (condition: a register component). */
void emit_select(dxbc_program *p, kernel_element element, unsigned dst, dxbc_operand condition, unsigned a, unsigned b);
/* acc = acc (+ or *) x in the accumulator type; uses tmp and tmp2. With the
 * float16-accumulation fault the result is rounded to float16. */
void emit_combine(dxbc_program *p, const kernel_key *key, unsigned acc, unsigned x, unsigned tmp, unsigned tmp2);

/* Registers every kernel's prologue fills (kernels keep these numbers):
 * P_ITEM x = work item w, z/w scratch; P_HEAD = work items, lines L, chunks
 * K, chunk length C; P_AXIS = n, in first, in step, out first; P_MORE = out
 * step, flags, init base, final base; P_DIM = scratch; P_LINE = x dimensions, y chunk k, z
 * line l, w slot l*K+k; P_WALK = x scratch, y input offset and z output
 * offset of the chunk's first element; P_RANGE = y i0, z i1, w the lane
 * (group kernels); P_FLAGS = store, exclusive, init, final (non-zero when
 * set). */
enum
{
    P_ITEM = 0,
    P_HEAD = 1,
    P_AXIS = 2,
    P_MORE = 3,
    P_LINE = 4,
    P_WALK = 5,
    P_RANGE = 6,
    P_DIM = 7,
    P_FLAGS = 13,
};

/* Declares b0, the UAVs and the inputs a scan kernel reads. */
void emit_scan_declarations(dxbc_program *p, bool per_group);
/* The prologue (see the register list above); `per_group`: the work item
 * is the thread group (tile and rake kernels), else the thread. */
void emit_scan_prologue(dxbc_program *p, bool per_group);
/* The prologue of a kernel whose work item is a ticket (one per thread
 * group, drawn in the order the groups start; see kernel_prologue.c). The
 * kernel declares groupshared g2 of at least one word. */
void emit_scan_prologue_ticket(dxbc_program *p, unsigned acc_bytes);

/* The same, drawing a ticket only when the block's flags hold
 * SCAN_FLAG_CHAINED (the tile kernel; see scan_params.h); the work item is
 * the thread group otherwise. */
void emit_scan_prologue_chained(dxbc_program *p, unsigned acc_bytes);

/* The kernels. Each begins, declares and finishes `p` itself. */
void generate_serial_kernel(dxbc_program *p, const kernel_key *key);
void generate_tile_kernel(dxbc_program *p, const kernel_key *key);
void generate_rake_kernel(dxbc_program *p, const kernel_key *key);
void generate_lookback_kernel(dxbc_program *p, const kernel_key *key);
void generate_lines_kernel(dxbc_program *p, const kernel_key *key);

#endif /* DMLCONF_KERNEL_ASM_H */
