/*
 * Shader model 5 token encoding: operand tokens and a growable program.
 */
#include "dxbc_emit.h"

#include <dmlconf/reserve.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Operand token fields. */
#define COMPONENTS_0       0u
#define COMPONENTS_1       1u
#define COMPONENTS_4       2u
#define SELECT_MASK        (0u << 2)
#define SELECT_SWIZZLE     (1u << 2)
#define SELECT_ONE         (2u << 2)
#define OPERAND_TYPE(t)    ((uint32_t)(t) << 12)
#define INDEX_DIMENSION(n) ((uint32_t)(n) << 20)
#define EXTENDED_OPERAND   (1u << 31)
#define MODIFIER_NEG       1u

static dxbc_operand operand1(uint32_t token)
{
    dxbc_operand o = {{token}, 1};
    return o;
}

static dxbc_operand operand2(uint32_t token, uint32_t word)
{
    dxbc_operand o = {{token, word}, 2};
    return o;
}

dxbc_operand dxbc_temp_dst(unsigned reg, unsigned mask)
{
    return operand2(
        COMPONENTS_4 | SELECT_MASK | (mask & 15u) << 4 | OPERAND_TYPE(DXBC_OPERAND_TEMP) | INDEX_DIMENSION(1), reg);
}

dxbc_operand dxbc_temp_src(unsigned reg, unsigned swizzle)
{
    return operand2(COMPONENTS_4 | SELECT_SWIZZLE | (swizzle & 255u) << 4 | OPERAND_TYPE(DXBC_OPERAND_TEMP) |
                        INDEX_DIMENSION(1),
                    reg);
}

dxbc_operand dxbc_temp(unsigned reg, unsigned component)
{
    return operand2(
        COMPONENTS_4 | SELECT_ONE | (component & 3u) << 4 | OPERAND_TYPE(DXBC_OPERAND_TEMP) | INDEX_DIMENSION(1), reg);
}

dxbc_operand dxbc_imm(uint32_t value)
{
    return operand2(COMPONENTS_1 | OPERAND_TYPE(DXBC_OPERAND_IMM32), value);
}

dxbc_operand dxbc_imm4(uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
    dxbc_operand o = {{COMPONENTS_4 | OPERAND_TYPE(DXBC_OPERAND_IMM32), x, y, z, w}, 5};
    return o;
}

dxbc_operand dxbc_cb(unsigned slot, unsigned vec4, unsigned component)
{
    dxbc_operand o = {{COMPONENTS_4 | SELECT_ONE | (component & 3u) << 4 | OPERAND_TYPE(DXBC_OPERAND_CONSTANT_BUFFER) |
                           INDEX_DIMENSION(2),
                       slot, vec4},
                      3};
    return o;
}

dxbc_operand dxbc_uav_src(unsigned slot, unsigned swizzle)
{
    return operand2(COMPONENTS_4 | SELECT_SWIZZLE | (swizzle & 255u) << 4 | OPERAND_TYPE(DXBC_OPERAND_UAV) |
                        INDEX_DIMENSION(1),
                    slot);
}

dxbc_operand dxbc_uav_dst(unsigned slot, unsigned mask)
{
    return operand2(
        COMPONENTS_4 | SELECT_MASK | (mask & 15u) << 4 | OPERAND_TYPE(DXBC_OPERAND_UAV) | INDEX_DIMENSION(1), slot);
}

dxbc_operand dxbc_tgsm_src(unsigned slot, unsigned swizzle)
{
    return operand2(COMPONENTS_4 | SELECT_SWIZZLE | (swizzle & 255u) << 4 | OPERAND_TYPE(DXBC_OPERAND_TGSM) |
                        INDEX_DIMENSION(1),
                    slot);
}

dxbc_operand dxbc_tgsm_dst(unsigned slot, unsigned mask)
{
    return operand2(
        COMPONENTS_4 | SELECT_MASK | (mask & 15u) << 4 | OPERAND_TYPE(DXBC_OPERAND_TGSM) | INDEX_DIMENSION(1), slot);
}

dxbc_operand dxbc_input(enum dxbc_operand_type type, unsigned component)
{
    return operand1(COMPONENTS_4 | SELECT_ONE | (component & 3u) << 4 | OPERAND_TYPE(type));
}

dxbc_operand dxbc_input_flat(void)
{
    return operand1(COMPONENTS_1 | OPERAND_TYPE(DXBC_OPERAND_THREAD_ID_IN_GROUP_FLATTENED));
}

dxbc_operand dxbc_null_dst(void)
{
    return operand1(COMPONENTS_0 | OPERAND_TYPE(DXBC_OPERAND_NULL));
}

dxbc_operand dxbc_neg(dxbc_operand operand)
{
    dxbc_operand o = operand;
    if (o.count >= DXBC_MAX_OPERAND_WORDS || (o.words[0] & EXTENDED_OPERAND))
        return o; /* cannot happen for the operands built here */
    o.words[0] |= EXTENDED_OPERAND;
    memmove(&o.words[2], &o.words[1], (o.count - 1) * sizeof(uint32_t));
    o.words[1] = 1u | MODIFIER_NEG << 6;
    o.count++;
    return o;
}

static void fail(dxbc_program *p, const char *what)
{
    if (!p->failed)
    {
        p->failed = true;
        snprintf(p->error, sizeof(p->error), "%s", what);
    }
}

static void append(dxbc_program *p, const uint32_t *words, size_t count)
{
    if (p->failed)
        return;
    if (!dmlconf_reserve((void **)&p->words, &p->capacity, p->count + count, sizeof(*p->words)))
    {
        fail(p, "out of memory for the shader program");
        return;
    }
    memcpy(p->words + p->count, words, count * sizeof(uint32_t));
    p->count += count;
}

int dxbc_program_begin(dxbc_program *p, unsigned type, unsigned major, unsigned minor)
{
    uint32_t header[2] = {(uint32_t)type << 16 | (major & 15u) << 4 | (minor & 15u), 0};
    append(p, header, 2);
    return p->failed ? -1 : 0;
}

void dxbc_emit_with_words(dxbc_program *p, enum dxbc_opcode opcode, uint32_t controls, const dxbc_operand *operands,
                          size_t operand_count, const uint32_t *extra, size_t extra_count)
{
    uint32_t words[DXBC_MAX_INSTRUCTION_WORDS];
    size_t length = 1;
    for (size_t i = 0; i < operand_count; ++i)
    {
        if (length + operands[i].count > DXBC_MAX_INSTRUCTION_WORDS)
        {
            fail(p, "an instruction is longer than 31 words");
            return;
        }
        memcpy(words + length, operands[i].words, operands[i].count * sizeof(uint32_t));
        length += operands[i].count;
    }
    if (length + extra_count > DXBC_MAX_INSTRUCTION_WORDS)
    {
        fail(p, "an instruction is longer than 31 words");
        return;
    }
    if (extra_count)
        memcpy(words + length, extra, extra_count * sizeof(uint32_t));
    length += extra_count;
    words[0] = ((uint32_t)opcode & 0x7ffu) | (controls & 0x00fff800u) | (uint32_t)length << 24;
    append(p, words, length);
}

void dxbc_emit(dxbc_program *p, enum dxbc_opcode opcode, uint32_t controls, const dxbc_operand *operands,
               size_t operand_count)
{
    dxbc_emit_with_words(p, opcode, controls, operands, operand_count, NULL, 0);
}

void dxbc_dcl_temps(dxbc_program *p, unsigned count)
{
    uint32_t extra = count;
    dxbc_emit_with_words(p, DXBC_OP_DCL_TEMPS, 0, NULL, 0, &extra, 1);
}

void dxbc_dcl_thread_group(dxbc_program *p, unsigned x, unsigned y, unsigned z)
{
    uint32_t extra[3] = {x, y, z};
    dxbc_emit_with_words(p, DXBC_OP_DCL_THREAD_GROUP, 0, NULL, 0, extra, 3);
}

void dxbc_dcl_uav_raw(dxbc_program *p, unsigned slot)
{
    dxbc_operand o = operand2(COMPONENTS_0 | OPERAND_TYPE(DXBC_OPERAND_UAV) | INDEX_DIMENSION(1), slot);
    dxbc_emit(p, DXBC_OP_DCL_UAV_RAW, 0, &o, 1);
}

void dxbc_dcl_tgsm_raw(dxbc_program *p, unsigned slot, unsigned bytes)
{
    dxbc_operand o = operand2(COMPONENTS_0 | OPERAND_TYPE(DXBC_OPERAND_TGSM) | INDEX_DIMENSION(1), slot);
    uint32_t extra = bytes;
    dxbc_emit_with_words(p, DXBC_OP_DCL_TGSM_RAW, 0, &o, 1, &extra, 1);
}

void dxbc_dcl_constant_buffer(dxbc_program *p, unsigned slot, unsigned vec4_count)
{
    dxbc_operand o = {{COMPONENTS_4 | SELECT_SWIZZLE | DXBC_SWIZZLE_XYZW << 4 |
                           OPERAND_TYPE(DXBC_OPERAND_CONSTANT_BUFFER) | INDEX_DIMENSION(2),
                       slot, vec4_count},
                      3};
    dxbc_emit(p, DXBC_OP_DCL_CONSTANT_BUFFER, 0, &o, 1);
}

void dxbc_dcl_input(dxbc_program *p, enum dxbc_operand_type type)
{
    dxbc_operand o;
    if (type == DXBC_OPERAND_THREAD_ID_IN_GROUP_FLATTENED)
        o = dxbc_input_flat();
    else
        o = operand1(COMPONENTS_4 | SELECT_MASK | DXBC_MASK_XYZ << 4 | OPERAND_TYPE(type));
    dxbc_emit(p, DXBC_OP_DCL_INPUT, 0, &o, 1);
}

int dxbc_program_finish(dxbc_program *p)
{
    if (p->failed)
        return -1;
    if (p->count < 2)
    {
        fail(p, "the program was not begun");
        return -1;
    }
    p->words[1] = (uint32_t)p->count;
    return 0;
}

void dxbc_program_release(dxbc_program *p)
{
    free(p->words);
    p->words = NULL;
    p->count = p->capacity = 0;
}
