/*
 * Emitting shader model 5 tokenized programs (the SHEX chunk of a DXBC
 * container): opcode and operand token encoding and a growable program.
 *
 * A program is a list of little-endian 32-bit words: the version token, the
 * length in words, then declarations and instructions. Each instruction is
 * an opcode token (opcode, controls, length) followed by its operands,
 * destinations first. Operands are built by value with the dxbc_* operand
 * constructors and emitted with dxbc_emit.
 *
 * Errors (out of memory, an instruction longer than vkd3d 1.2 reads) are
 * sticky: the program records the first one and every later call does
 * nothing, so a generator checks once at the end (dxbc_program_finish).
 */
#ifndef DMLCONF_DXBC_EMIT_H
#define DMLCONF_DXBC_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Opcodes used by the kernels (D3D10_SB_OPCODE_TYPE / D3D11_SB_OPCODE_TYPE). */
enum dxbc_opcode
{
    DXBC_OP_ADD = 0x00,
    DXBC_OP_AND = 0x01,
    DXBC_OP_BREAK = 0x02,
    DXBC_OP_BREAKC = 0x03,
    DXBC_OP_ELSE = 0x12,
    DXBC_OP_ENDIF = 0x15,
    DXBC_OP_ENDLOOP = 0x16,
    DXBC_OP_IADD = 0x1e,
    DXBC_OP_IF = 0x1f,
    DXBC_OP_IEQ = 0x20,
    DXBC_OP_IGE = 0x21,
    DXBC_OP_ILT = 0x22,
    DXBC_OP_IMAD = 0x23,
    DXBC_OP_IMUL = 0x26,
    DXBC_OP_INE = 0x27,
    DXBC_OP_INEG = 0x28,
    DXBC_OP_ISHL = 0x29,
    DXBC_OP_LOOP = 0x30,
    DXBC_OP_MOV = 0x36,
    DXBC_OP_MOVC = 0x37,
    DXBC_OP_MUL = 0x38,
    DXBC_OP_NOT = 0x3b,
    DXBC_OP_OR = 0x3c,
    DXBC_OP_RET = 0x3e,
    DXBC_OP_UDIV = 0x4e,
    DXBC_OP_ULT = 0x4f,
    DXBC_OP_UGE = 0x50,
    DXBC_OP_UMAX = 0x53,
    DXBC_OP_UMIN = 0x54,
    DXBC_OP_USHR = 0x55,
    DXBC_OP_XOR = 0x57,
    DXBC_OP_DCL_CONSTANT_BUFFER = 0x59,
    DXBC_OP_DCL_INPUT = 0x5f,
    DXBC_OP_DCL_TEMPS = 0x68,
    DXBC_OP_F32TOF16 = 0x82,
    DXBC_OP_F16TOF32 = 0x83,
    DXBC_OP_DCL_THREAD_GROUP = 0x9b,
    DXBC_OP_DCL_UAV_RAW = 0x9d,
    DXBC_OP_DCL_TGSM_RAW = 0x9f,
    DXBC_OP_LD_RAW = 0xa5,
    DXBC_OP_STORE_RAW = 0xa6,
    DXBC_OP_ATOMIC_AND = 0xa9,
    DXBC_OP_ATOMIC_OR = 0xaa,
    DXBC_OP_ATOMIC_UMAX = 0xb0,
    DXBC_OP_IMM_ATOMIC_IADD = 0xb4,
    DXBC_OP_IMM_ATOMIC_OR = 0xb6,
    DXBC_OP_IMM_ATOMIC_EXCH = 0xb8,
    DXBC_OP_SYNC = 0xbe,
};

/* Opcode-token controls (bits 11-23 of the opcode token, given here already
 * shifted into place). */
enum
{
    DXBC_TEST_NONZERO = 1u << 18,       /* if, breakc: branch when non-zero */
    DXBC_SYNC_GROUP_BARRIER = 1u << 11, /* sync: every thread of the group waits */
    DXBC_SYNC_TGSM_FENCE = 1u << 12,    /* sync: groupshared memory fence */
    DXBC_SYNC_UAV_GROUP = 1u << 13,     /* sync: UAV fence within the group */
    DXBC_SYNC_UAV_GLOBAL = 1u << 14,    /* sync: UAV fence across the device */
    DXBC_CB_DYNAMIC_INDEX = 1u << 11,   /* dcl_constantBuffer: dynamically indexed */
};

/* Operand types (D3D10_SB_OPERAND_TYPE). */
enum dxbc_operand_type
{
    DXBC_OPERAND_TEMP = 0x00,
    DXBC_OPERAND_IMM32 = 0x04,
    DXBC_OPERAND_CONSTANT_BUFFER = 0x08,
    DXBC_OPERAND_NULL = 0x0d,
    DXBC_OPERAND_UAV = 0x1e,
    DXBC_OPERAND_TGSM = 0x1f,
    DXBC_OPERAND_THREAD_ID = 0x20,
    DXBC_OPERAND_THREAD_GROUP_ID = 0x21,
    DXBC_OPERAND_THREAD_ID_IN_GROUP = 0x22,
    DXBC_OPERAND_THREAD_ID_IN_GROUP_FLATTENED = 0x24,
};

/* Component masks and swizzles. */
enum
{
    DXBC_MASK_X = 1u,
    DXBC_MASK_Y = 2u,
    DXBC_MASK_Z = 4u,
    DXBC_MASK_W = 8u,
    DXBC_MASK_XY = 3u,
    DXBC_MASK_YZ = 6u,
    DXBC_MASK_XYZ = 7u,
    DXBC_MASK_XYZW = 15u,
};
#define DXBC_SWIZZLE(x, y, z, w) ((unsigned)(x) | (unsigned)(y) << 2 | (unsigned)(z) << 4 | (unsigned)(w) << 6)
#define DXBC_SWIZZLE_XYZW        DXBC_SWIZZLE(0, 1, 2, 3)
#define DXBC_SWIZZLE_XXXX        DXBC_SWIZZLE(0, 0, 0, 0)
#define DXBC_SWIZZLE_XYXY        DXBC_SWIZZLE(0, 1, 0, 1)

/* Program types in the version token. */
enum
{
    DXBC_PROGRAM_COMPUTE = 5,
};

/* The longest instruction vkd3d 1.2 reads (a 5-bit length field). */
#define DXBC_MAX_INSTRUCTION_WORDS 31u
/* The most words one operand takes: token, extended token, indices or four
 * immediate values. */
#define DXBC_MAX_OPERAND_WORDS 6u

/* One operand, encoded: its tokens and the words that follow them. */
typedef struct dxbc_operand
{
    uint32_t words[DXBC_MAX_OPERAND_WORDS];
    unsigned count;
} dxbc_operand;

/* A program being built. Zero-initialise, then dxbc_program_begin. */
typedef struct dxbc_program
{
    uint32_t *words;
    size_t count;
    size_t capacity;
    bool failed;
    char error[128];
} dxbc_program;

/* ---- operands (pure functions: they only encode) ------------------------ */

/* Temp register r<reg> as a destination with a write mask (DXBC_MASK_*). */
dxbc_operand dxbc_temp_dst(unsigned reg, unsigned mask);
/* Temp register r<reg> as a four-component source with a swizzle. */
dxbc_operand dxbc_temp_src(unsigned reg, unsigned swizzle);
/* One component (0 = x .. 3 = w) of temp register r<reg> as a source. */
dxbc_operand dxbc_temp(unsigned reg, unsigned component);
/* A 32-bit immediate scalar, l(value). */
dxbc_operand dxbc_imm(uint32_t value);
/* A four-component immediate, l(x, y, z, w). */
dxbc_operand dxbc_imm4(uint32_t x, uint32_t y, uint32_t z, uint32_t w);
/* One component of constant buffer cb<slot>[<vec4>] as a source. */
dxbc_operand dxbc_cb(unsigned slot, unsigned vec4, unsigned component);
/* UAV u<slot> as the resource source of ld_raw (swizzle picks the words). */
dxbc_operand dxbc_uav_src(unsigned slot, unsigned swizzle);
/* UAV u<slot> as the destination of store_raw or an atomic (mask: words). */
dxbc_operand dxbc_uav_dst(unsigned slot, unsigned mask);
/* Groupshared g<slot> as a source (ld_raw) or destination (store_raw). */
dxbc_operand dxbc_tgsm_src(unsigned slot, unsigned swizzle);
dxbc_operand dxbc_tgsm_dst(unsigned slot, unsigned mask);
/* One component of a compute input (vThreadID, vThreadGroupID, ...). */
dxbc_operand dxbc_input(enum dxbc_operand_type type, unsigned component);
/* vThreadIDInGroupFlattened (a one-component input). */
dxbc_operand dxbc_input_flat(void);
/* The null destination (discards a result, e.g. imul's high half). */
dxbc_operand dxbc_null_dst(void);
/* The same source operand negated (an extended operand token, modifier 1). */
dxbc_operand dxbc_neg(dxbc_operand operand);

/* ---- program ------------------------------------------------------------ */

/* Starts a program of `type` (DXBC_PROGRAM_COMPUTE) and version major.minor
 * into a zero-initialised `p`. Returns 0, or -1 when out of memory (also
 * recorded in p). */
int dxbc_program_begin(dxbc_program *p, unsigned type, unsigned major, unsigned minor);

/* Appends one instruction: the opcode token (with `controls`, already
 * shifted, and the computed length) followed by the operands in order. */
void dxbc_emit(dxbc_program *p, enum dxbc_opcode opcode, uint32_t controls, const dxbc_operand *operands,
               size_t operand_count);

/* Appends one instruction whose operands are followed by raw words
 * (declarations: dcl_temps' count, dcl_tgsm_raw's size, ...). */
void dxbc_emit_with_words(dxbc_program *p, enum dxbc_opcode opcode, uint32_t controls, const dxbc_operand *operands,
                          size_t operand_count, const uint32_t *extra, size_t extra_count);

/* Declaration helpers. */
void dxbc_dcl_temps(dxbc_program *p, unsigned count);
void dxbc_dcl_thread_group(dxbc_program *p, unsigned x, unsigned y, unsigned z);
void dxbc_dcl_uav_raw(dxbc_program *p, unsigned slot);
void dxbc_dcl_tgsm_raw(dxbc_program *p, unsigned slot, unsigned bytes);
void dxbc_dcl_constant_buffer(dxbc_program *p, unsigned slot, unsigned vec4_count);
/* dcl_input for a compute input (vThreadID.xyz, vThreadIDInGroupFlattened, ...). */
void dxbc_dcl_input(dxbc_program *p, enum dxbc_operand_type type);

/* Ends the program: writes its length into word 1. Returns 0 with the
 * program's words in p->words (p->count of them; still owned by p), or -1
 * when any step failed (p->error says why). */
int dxbc_program_finish(dxbc_program *p);

/* Frees the program's words. */
void dxbc_program_release(dxbc_program *p);

#endif /* DMLCONF_DXBC_EMIT_H */
