/*
 * Per-element-class operations of the scan kernels: loading and storing
 * elements, and combining values in the accumulator type.
 *
 * vkd3d 1.2 has no uaddc and its umul writes nothing, so 64-bit integers are
 * added with a carry found by an unsigned compare, and multiplied with
 * 16-bit limbs for the low-by-low product (imul keeps the low 32 bits, which
 * are the same for signed and unsigned operands).
 */
#include "kernel_asm.h"
#include "scan_params.h"

void op0(dxbc_program *p, enum dxbc_opcode op, uint32_t controls)
{
    dxbc_emit(p, op, controls, NULL, 0);
}

void op1(dxbc_program *p, enum dxbc_opcode op, uint32_t controls, dxbc_operand a)
{
    dxbc_emit(p, op, controls, &a, 1);
}

void op2(dxbc_program *p, enum dxbc_opcode op, dxbc_operand d, dxbc_operand a)
{
    dxbc_operand ops[2] = {d, a};
    dxbc_emit(p, op, 0, ops, 2);
}

void op3(dxbc_program *p, enum dxbc_opcode op, dxbc_operand d, dxbc_operand a, dxbc_operand b)
{
    dxbc_operand ops[3] = {d, a, b};
    dxbc_emit(p, op, 0, ops, 3);
}

void op4(dxbc_program *p, enum dxbc_opcode op, dxbc_operand d, dxbc_operand e, dxbc_operand a, dxbc_operand b)
{
    dxbc_operand ops[4] = {d, e, a, b};
    dxbc_emit(p, op, 0, ops, 4);
}

void emit_if(dxbc_program *p, dxbc_operand condition, bool nonzero)
{
    op1(p, DXBC_OP_IF, nonzero ? DXBC_TEST_NONZERO : 0, condition);
}

void emit_else(dxbc_program *p)
{
    op0(p, DXBC_OP_ELSE, 0);
}

void emit_endif(dxbc_program *p)
{
    op0(p, DXBC_OP_ENDIF, 0);
}

void emit_break_if(dxbc_program *p, dxbc_operand condition)
{
    op1(p, DXBC_OP_BREAKC, DXBC_TEST_NONZERO, condition);
}

void emit_loop(dxbc_program *p)
{
    op0(p, DXBC_OP_LOOP, 0);
}

void emit_endloop(dxbc_program *p)
{
    op0(p, DXBC_OP_ENDLOOP, 0);
}

/* Whether a value takes two components (x, y): 64-bit integers and the
 * two-lane classes. */
static bool is_wide(kernel_element element)
{
    return element == ELEMENT_I64 || element == ELEMENT_F16X2 || element == ELEMENT_F32X2;
}

/* Whether an element takes 8 bytes of storage. */
static bool is_long(kernel_element element)
{
    return kernel_element_bytes(element) == 8;
}

/* tmp.x = byte address of a 32- or 64-bit element at `offset`. */
static void byte_address(dxbc_program *p, kernel_element element, dxbc_operand offset, unsigned tmp)
{
    op3(p, DXBC_OP_ISHL, D(tmp, 0), offset, I(is_long(element) ? 3 : 2));
}

/* For a float16 element at `offset`: tmp.x = bit shift of its half (0 or
 * 16), tmp.y = byte address of its word. */
static void half_address(dxbc_program *p, dxbc_operand offset, unsigned tmp)
{
    op3(p, DXBC_OP_AND, D(tmp, 0), offset, I(1));
    op3(p, DXBC_OP_ISHL, D(tmp, 0), S(tmp, 0), I(4));
    op3(p, DXBC_OP_USHR, D(tmp, 1), offset, I(1));
    op3(p, DXBC_OP_ISHL, D(tmp, 1), S(tmp, 1), I(2));
}

void emit_load_element(dxbc_program *p, kernel_element element, unsigned uav, dxbc_operand offset, unsigned dst,
                       unsigned tmp)
{
    if (element == ELEMENT_F16)
    {
        half_address(p, offset, tmp);
        op3(p, DXBC_OP_LD_RAW, D(tmp, 2), S(tmp, 1), dxbc_uav_src(uav, DXBC_SWIZZLE_XXXX));
        op3(p, DXBC_OP_USHR, D(tmp, 2), S(tmp, 2), S(tmp, 0));
        op2(p, DXBC_OP_F16TOF32, D(dst, 0), S(tmp, 2));
        return;
    }
    if (element == ELEMENT_F16X2)
    {
        /* One word: the even line's element in its low half. */
        byte_address(p, element, offset, tmp);
        op3(p, DXBC_OP_LD_RAW, D(tmp, 1), S(tmp, 0), dxbc_uav_src(uav, DXBC_SWIZZLE_XXXX));
        op3(p, DXBC_OP_USHR, D(tmp, 2), S(tmp, 1), I(16));
        op2(p, DXBC_OP_F16TOF32, dxbc_temp_dst(dst, DXBC_MASK_XY), dxbc_temp_src(tmp, DXBC_SWIZZLE(1, 2, 1, 2)));
        return;
    }
    byte_address(p, element, offset, tmp);
    if (is_wide(element))
        op3(p, DXBC_OP_LD_RAW, dxbc_temp_dst(dst, DXBC_MASK_XY), S(tmp, 0), dxbc_uav_src(uav, DXBC_SWIZZLE_XYXY));
    else
        op3(p, DXBC_OP_LD_RAW, D(dst, 0), S(tmp, 0), dxbc_uav_src(uav, DXBC_SWIZZLE_XXXX));
}

void emit_store_element(dxbc_program *p, kernel_element element, unsigned uav, dxbc_operand offset, unsigned src,
                        unsigned tmp)
{
    if (element == ELEMENT_F16)
    {
        half_address(p, offset, tmp);
        op2(p, DXBC_OP_F32TOF16, D(tmp, 2), S(src, 0));
        op3(p, DXBC_OP_ISHL, D(tmp, 2), S(tmp, 2), S(tmp, 0));
        op3(p, DXBC_OP_ISHL, D(tmp, 3), I(0xffffu), S(tmp, 0));
        op2(p, DXBC_OP_NOT, D(tmp, 3), S(tmp, 3));
        op3(p, DXBC_OP_ATOMIC_AND, dxbc_uav_dst(uav, DXBC_MASK_X), S(tmp, 1), S(tmp, 3));
        op3(p, DXBC_OP_ATOMIC_OR, dxbc_uav_dst(uav, DXBC_MASK_X), S(tmp, 1), S(tmp, 2));
        return;
    }
    if (element == ELEMENT_F16X2)
    {
        op2(p, DXBC_OP_F32TOF16, dxbc_temp_dst(tmp, DXBC_MASK_YZ), dxbc_temp_src(src, DXBC_SWIZZLE(0, 0, 1, 1)));
        op3(p, DXBC_OP_ISHL, D(tmp, 2), S(tmp, 2), I(16));
        op3(p, DXBC_OP_OR, D(tmp, 1), S(tmp, 1), S(tmp, 2));
        byte_address(p, element, offset, tmp);
        op3(p, DXBC_OP_STORE_RAW, dxbc_uav_dst(uav, DXBC_MASK_X), S(tmp, 0), S(tmp, 1));
        return;
    }
    byte_address(p, element, offset, tmp);
    if (is_wide(element))
        op3(p, DXBC_OP_STORE_RAW, dxbc_uav_dst(uav, DXBC_MASK_XY), S(tmp, 0), dxbc_temp_src(src, DXBC_SWIZZLE_XYXY));
    else
        op3(p, DXBC_OP_STORE_RAW, dxbc_uav_dst(uav, DXBC_MASK_X), S(tmp, 0), S(src, 0));
}

void emit_load_shared(dxbc_program *p, kernel_element element, unsigned slot, dxbc_operand index, unsigned dst,
                      unsigned tmp)
{
    op3(p, DXBC_OP_ISHL, D(tmp, 0), index, I(is_wide(element) ? 3 : 2));
    if (is_wide(element))
        op3(p, DXBC_OP_LD_RAW, dxbc_temp_dst(dst, DXBC_MASK_XY), S(tmp, 0), dxbc_tgsm_src(slot, DXBC_SWIZZLE_XYXY));
    else
        op3(p, DXBC_OP_LD_RAW, D(dst, 0), S(tmp, 0), dxbc_tgsm_src(slot, DXBC_SWIZZLE_XXXX));
}

void emit_store_shared(dxbc_program *p, kernel_element element, unsigned slot, dxbc_operand index, unsigned src,
                       unsigned tmp)
{
    op3(p, DXBC_OP_ISHL, D(tmp, 0), index, I(is_wide(element) ? 3 : 2));
    if (is_wide(element))
        op3(p, DXBC_OP_STORE_RAW, dxbc_tgsm_dst(slot, DXBC_MASK_XY), S(tmp, 0), dxbc_temp_src(src, DXBC_SWIZZLE_XYXY));
    else
        op3(p, DXBC_OP_STORE_RAW, dxbc_tgsm_dst(slot, DXBC_MASK_X), S(tmp, 0), S(src, 0));
}

void emit_load_shared_at(dxbc_program *p, kernel_element element, unsigned slot, dxbc_operand address, unsigned dst)
{
    if (is_wide(element))
        op3(p, DXBC_OP_LD_RAW, dxbc_temp_dst(dst, DXBC_MASK_XY), address, dxbc_tgsm_src(slot, DXBC_SWIZZLE_XYXY));
    else
        op3(p, DXBC_OP_LD_RAW, D(dst, 0), address, dxbc_tgsm_src(slot, DXBC_SWIZZLE_XXXX));
}

void emit_store_shared_at(dxbc_program *p, kernel_element element, unsigned slot, dxbc_operand address, unsigned src)
{
    if (is_wide(element))
        op3(p, DXBC_OP_STORE_RAW, dxbc_tgsm_dst(slot, DXBC_MASK_XY), address, dxbc_temp_src(src, DXBC_SWIZZLE_XYXY));
    else
        op3(p, DXBC_OP_STORE_RAW, dxbc_tgsm_dst(slot, DXBC_MASK_X), address, S(src, 0));
}

void emit_identity(dxbc_program *p, kernel_element element, kernel_operation operation, unsigned dst)
{
    bool lanes = element == ELEMENT_F16X2 || element == ELEMENT_F32X2;
    uint32_t one = (element == ELEMENT_F32 || element == ELEMENT_F16 || lanes) ? 0x3f800000u : 1u;
    uint32_t low = operation == OPERATION_PRODUCT ? one : 0u;
    op2(p, DXBC_OP_MOV, D(dst, 0), I(low));
    if (is_wide(element))
        op2(p, DXBC_OP_MOV, D(dst, 1), I(lanes ? low : 0));
}

void emit_copy(dxbc_program *p, kernel_element element, unsigned dst, unsigned src)
{
    if (is_wide(element))
        op2(p, DXBC_OP_MOV, dxbc_temp_dst(dst, DXBC_MASK_XY), dxbc_temp_src(src, DXBC_SWIZZLE_XYXY));
    else
        op2(p, DXBC_OP_MOV, D(dst, 0), S(src, 0));
}

void emit_select(dxbc_program *p, kernel_element element, unsigned dst, dxbc_operand condition, unsigned a, unsigned b)
{
    if (is_wide(element))
    {
        dxbc_operand ops[4] = {dxbc_temp_dst(dst, DXBC_MASK_XY), condition, dxbc_temp_src(a, DXBC_SWIZZLE_XYXY),
                               dxbc_temp_src(b, DXBC_SWIZZLE_XYXY)};
        dxbc_emit(p, DXBC_OP_MOVC, 0, ops, 4);
    }
    else
    {
        dxbc_operand ops[4] = {D(dst, 0), condition, S(a, 0), S(b, 0)};
        dxbc_emit(p, DXBC_OP_MOVC, 0, ops, 4);
    }
}

/* acc += x for 64-bit integers. */
static void add64(dxbc_program *p, unsigned acc, unsigned x, unsigned t)
{
    op3(p, DXBC_OP_IADD, D(t, 0), S(acc, 0), S(x, 0));
    op3(p, DXBC_OP_ULT, D(t, 1), S(t, 0), S(acc, 0)); /* carry mask */
    op3(p, DXBC_OP_AND, D(t, 1), S(t, 1), I(1));
    op3(p, DXBC_OP_IADD, D(acc, 1), S(acc, 1), S(x, 1));
    op3(p, DXBC_OP_IADD, D(acc, 1), S(acc, 1), S(t, 1));
    op2(p, DXBC_OP_MOV, D(acc, 0), S(t, 0));
}

/* acc *= x modulo 2^64. */
static void mul64(dxbc_program *p, unsigned acc, unsigned x, unsigned t, unsigned u)
{
    dxbc_operand discard = dxbc_null_dst();
    /* Cross terms, low 32 bits each: they only reach the high half. */
    op4(p, DXBC_OP_IMUL, discard, D(t, 0), S(acc, 1), S(x, 0));
    op4(p, DXBC_OP_IMUL, discard, D(t, 1), S(acc, 0), S(x, 1));
    op3(p, DXBC_OP_IADD, D(t, 0), S(t, 0), S(t, 1));
    /* 16-bit limbs of the low halves: a = a1:a0, b = b1:b0. */
    op3(p, DXBC_OP_AND, D(t, 1), S(acc, 0), I(0xffffu));      /* a0 */
    op3(p, DXBC_OP_USHR, D(t, 2), S(acc, 0), I(16));          /* a1 */
    op3(p, DXBC_OP_AND, D(t, 3), S(x, 0), I(0xffffu));        /* b0 */
    op3(p, DXBC_OP_USHR, D(u, 0), S(x, 0), I(16));            /* b1 */
    op4(p, DXBC_OP_IMUL, discard, D(u, 1), S(t, 1), S(t, 3)); /* p00 */
    op4(p, DXBC_OP_IMUL, discard, D(u, 2), S(t, 1), S(u, 0)); /* p01 */
    op4(p, DXBC_OP_IMUL, discard, D(u, 3), S(t, 2), S(t, 3)); /* p10 */
    op4(p, DXBC_OP_IMUL, discard, D(t, 1), S(t, 2), S(u, 0)); /* p11 */
    /* mid = p01 + p10, with its carry worth 2^48 of the product. */
    op3(p, DXBC_OP_IADD, D(u, 2), S(u, 2), S(u, 3));
    op3(p, DXBC_OP_ULT, D(u, 3), S(u, 2), S(u, 3));
    op3(p, DXBC_OP_AND, D(u, 3), S(u, 3), I(0x10000u));
    op3(p, DXBC_OP_IADD, D(t, 1), S(t, 1), S(u, 3));
    op3(p, DXBC_OP_USHR, D(u, 3), S(u, 2), I(16));
    op3(p, DXBC_OP_IADD, D(t, 1), S(t, 1), S(u, 3));
    /* low = p00 + (mid << 16), its carry into the high half. */
    op3(p, DXBC_OP_ISHL, D(u, 2), S(u, 2), I(16));
    op3(p, DXBC_OP_IADD, D(u, 0), S(u, 1), S(u, 2));
    op3(p, DXBC_OP_ULT, D(u, 2), S(u, 0), S(u, 1));
    op3(p, DXBC_OP_AND, D(u, 2), S(u, 2), I(1));
    op3(p, DXBC_OP_IADD, D(t, 1), S(t, 1), S(u, 2));
    op3(p, DXBC_OP_IADD, D(acc, 1), S(t, 1), S(t, 0));
    op2(p, DXBC_OP_MOV, D(acc, 0), S(u, 0));
}

void emit_combine(dxbc_program *p, const kernel_key *key, unsigned acc, unsigned x, unsigned tmp, unsigned tmp2)
{
    bool sum = key->operation == OPERATION_SUM;
    switch (key->element)
    {
    case ELEMENT_F32:
    case ELEMENT_F16:
        op3(p, sum ? DXBC_OP_ADD : DXBC_OP_MUL, D(acc, 0), S(acc, 0), S(x, 0));
        if (key->element == ELEMENT_F16 && key->fault == FAULT_F16_ACCUMULATE)
        {
            /* The fault: round every partial sum to float16. The xor with a
             * root constant that is 0 at run time keeps a compiler from
             * folding f16tof32(f32tof16(x)) into x (lavapipe's does). */
            op2(p, DXBC_OP_F32TOF16, D(acc, 0), S(acc, 0));
            op3(p, DXBC_OP_XOR, D(acc, 0), S(acc, 0), dxbc_cb(SCAN_CB_ROOT, 0, SCAN_ROOT_ZERO));
            op2(p, DXBC_OP_F16TOF32, D(acc, 0), S(acc, 0));
        }
        return;
    case ELEMENT_I32:
        if (sum)
            op3(p, DXBC_OP_IADD, D(acc, 0), S(acc, 0), S(x, 0));
        else
            op4(p, DXBC_OP_IMUL, dxbc_null_dst(), D(acc, 0), S(acc, 0), S(x, 0));
        return;
    case ELEMENT_I64:
        if (sum)
            add64(p, acc, x, tmp);
        else
            mul64(p, acc, x, tmp, tmp2);
        return;
    case ELEMENT_F16X2:
    case ELEMENT_F32X2:
        op3(p, sum ? DXBC_OP_ADD : DXBC_OP_MUL, dxbc_temp_dst(acc, DXBC_MASK_XY), dxbc_temp_src(acc, DXBC_SWIZZLE_XYXY),
            dxbc_temp_src(x, DXBC_SWIZZLE_XYXY));
        if (key->element == ELEMENT_F16X2 && key->fault == FAULT_F16_ACCUMULATE)
        {
            op2(p, DXBC_OP_F32TOF16, dxbc_temp_dst(acc, DXBC_MASK_XY), dxbc_temp_src(acc, DXBC_SWIZZLE_XYXY));
            op3(p, DXBC_OP_XOR, dxbc_temp_dst(acc, DXBC_MASK_XY), dxbc_temp_src(acc, DXBC_SWIZZLE_XYXY),
                dxbc_cb(SCAN_CB_ROOT, 0, SCAN_ROOT_ZERO));
            op2(p, DXBC_OP_F16TOF32, dxbc_temp_dst(acc, DXBC_MASK_XY), dxbc_temp_src(acc, DXBC_SWIZZLE_XYXY));
        }
        return;
    case ELEMENT_COUNT:
        break;
    }
}
