/*
 * Unit tests of the DXBC emitter: MD5's compression function, the DXBC
 * checksum against blobs that vkd3d's D3D12SerializeRootSignature produces
 * at test time, hand-checked token encodings, the container format, and
 * every kernel variant building into a well-formed container.
 */
#include "d3d12_com.h"
#include "dxbc_container.h"
#include "dxbc_emit.h"
#include "scan_kernels.h"
#include <dmlconf/dynlib.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- MD5 ------------------------------------------------------------------ */

/* Standard MD5 built on the emitter's compression function. */
static void md5(const void *data, size_t size, unsigned char digest[16])
{
    uint32_t state[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    const unsigned char *bytes = data;
    size_t full = size / 64 * 64;
    for (size_t i = 0; i < full; i += 64)
        dxbc_md5_compress(state, bytes + i);
    unsigned char tail[128] = {0};
    size_t rest = size - full;
    memcpy(tail, bytes + full, rest);
    tail[rest] = 0x80;
    size_t blocks = rest < 56 ? 1 : 2;
    uint64_t bits = (uint64_t)size * 8;
    for (unsigned i = 0; i < 8; ++i)
        tail[blocks * 64 - 8 + i] = (unsigned char)(bits >> (8 * i));
    for (size_t b = 0; b < blocks; ++b)
        dxbc_md5_compress(state, tail + 64 * b);
    for (unsigned i = 0; i < 16; ++i)
        digest[i] = (unsigned char)(state[i / 4] >> (8 * (i % 4)));
}

static void hex(const unsigned char *bytes, size_t size, char *out)
{
    for (size_t i = 0; i < size; ++i)
        snprintf(out + 2 * i, 3, "%02x", bytes[i]);
}

START_TEST(test_md5_vectors)
{
    static const struct
    {
        const char *text;
        const char *digest;
    } vectors[] = {
        {"", "d41d8cd98f00b204e9800998ecf8427e"},
        {"abc", "900150983cd24fb0d6963f7d28e17f72"},
        {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
        {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
         "57edf4a22be3c955ac49da2e2107b67a"},
    };
    for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); ++i)
    {
        unsigned char digest[16];
        char text[33];
        md5(vectors[i].text, strlen(vectors[i].text), digest);
        hex(digest, 16, text);
        ck_assert_msg(!strcmp(text, vectors[i].digest), "MD5(\"%s\") = %s, expected %s", vectors[i].text, text,
                      vectors[i].digest);
    }
}
END_TEST

/* ---- the DXBC checksum against vkd3d's root signatures -------------------- */

typedef HRESULT(WINAPI *serialize_fn)(const D3D12_ROOT_SIGNATURE_DESC *, D3D_ROOT_SIGNATURE_VERSION, ID3DBlob **,
                                      ID3DBlob **);

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

START_TEST(test_checksum_matches_vkd3d)
{
    char why[256];
    void *library = dmlconf_dynlib_open("libvkd3d-utils.so.1", why, sizeof(why));
    if (!library)
    {
        /* The one assertion that needs the runtime; CI installs it. */
        fprintf(stderr, "note: libvkd3d-utils.so.1 is missing, the checksum is not compared with vkd3d's: %s\n", why);
        return;
    }
    serialize_fn serialize = NULL;
    DMLCONF_DYNLIB_FUNCTION(serialize, library, "D3D12SerializeRootSignature");
    ck_assert_msg(serialize != NULL, "libvkd3d-utils.so.1 has no D3D12SerializeRootSignature");
    unsigned short_tails = 0, long_tails = 0;
    /* Root signatures of 0 to 12 parameters: blobs of many lengths, so both
     * of the checksum's final-block cases are met. */
    for (unsigned count = 0; count <= 12; ++count)
    {
        D3D12_ROOT_PARAMETER parameters[12];
        memset(parameters, 0, sizeof(parameters));
        for (unsigned i = 0; i < count; ++i)
        {
            parameters[i].ParameterType =
                i % 2 ? D3D12_ROOT_PARAMETER_TYPE_UAV : D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
            if (i % 2)
                parameters[i].Descriptor.ShaderRegister = i;
            else
            {
                parameters[i].Constants.ShaderRegister = i;
                parameters[i].Constants.Num32BitValues = i + 1;
            }
        }
        D3D12_ROOT_SIGNATURE_DESC desc = {count, parameters, 0, NULL, D3D12_ROOT_SIGNATURE_FLAG_NONE};
        ID3DBlob *blob = NULL, *errors = NULL;
        HRESULT hr = serialize(&desc, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &errors);
        ck_assert_msg(SUCCEEDED(hr), "D3D12SerializeRootSignature failed for %u parameters", count);
        const unsigned char *bytes = ID3D10Blob_GetBufferPointer(blob);
        size_t size = ID3D10Blob_GetBufferSize(blob);
        uint32_t checksum[4];
        dxbc_checksum(bytes + DXBC_CHECKSUM_START, size - DXBC_CHECKSUM_START, checksum);
        for (unsigned i = 0; i < 4; ++i)
            ck_assert_msg(checksum[i] == le32(bytes + 4 + 4 * i),
                          "checksum word %u of a %zu-byte root signature: 0x%08x, vkd3d wrote 0x%08x", i, size,
                          checksum[i], le32(bytes + 4 + 4 * i));
        ck_assert(dxbc_container_check(bytes, size));
        if ((size - DXBC_CHECKSUM_START) % 64 < 56)
            short_tails++;
        else
            long_tails++;
        ID3D10Blob_Release(blob);
        if (errors)
            ID3D10Blob_Release(errors);
    }
    ck_assert_msg(short_tails > 0 && long_tails > 0, "the blobs met only one final-block case (%u and %u)", short_tails,
                  long_tails);
    dmlconf_dynlib_close(library);
}
END_TEST

/* ---- token encodings ------------------------------------------------------ */

/* Emits one instruction into a fresh program and compares its words. */
static void check_encoding(const char *what, enum dxbc_opcode opcode, uint32_t controls, const dxbc_operand *operands,
                           size_t count, const uint32_t *expected, size_t expected_count)
{
    dxbc_program p = {0};
    ck_assert_int_eq(dxbc_program_begin(&p, DXBC_PROGRAM_COMPUTE, 5, 0), 0);
    dxbc_emit(&p, opcode, controls, operands, count);
    ck_assert_int_eq(dxbc_program_finish(&p), 0);
    ck_assert_msg(p.count == 2 + expected_count, "%s: %zu words, expected %zu", what, p.count - 2, expected_count);
    for (size_t i = 0; i < expected_count; ++i)
        ck_assert_msg(p.words[2 + i] == expected[i], "%s: word %zu is 0x%08x, expected 0x%08x", what, i, p.words[2 + i],
                      expected[i]);
    dxbc_program_release(&p);
}

START_TEST(test_program_header)
{
    dxbc_program p = {0};
    ck_assert_int_eq(dxbc_program_begin(&p, DXBC_PROGRAM_COMPUTE, 5, 0), 0);
    dxbc_emit(&p, DXBC_OP_RET, 0, NULL, 0);
    ck_assert_int_eq(dxbc_program_finish(&p), 0);
    ck_assert_uint_eq(p.count, 3);
    ck_assert_uint_eq(p.words[0], 0x00050050u); /* cs_5_0 */
    ck_assert_uint_eq(p.words[1], 3);           /* length in words */
    ck_assert_uint_eq(p.words[2], 0x0100003eu); /* ret */
    dxbc_program_release(&p);
}
END_TEST

START_TEST(test_instruction_encodings)
{
    {
        /* mov r0.x, l(5) */
        dxbc_operand ops[2] = {dxbc_temp_dst(0, DXBC_MASK_X), dxbc_imm(5)};
        const uint32_t words[] = {0x05000036, 0x00100012, 0, 0x00004001, 5};
        check_encoding("mov r0.x, l(5)", DXBC_OP_MOV, 0, ops, 2, words, 5);
    }
    {
        /* iadd r1.y, r2.z, l(1) */
        dxbc_operand ops[3] = {dxbc_temp_dst(1, DXBC_MASK_Y), dxbc_temp(2, 2), dxbc_imm(1)};
        const uint32_t words[] = {0x0700001e, 0x00100022, 1, 0x0010002a, 2, 0x00004001, 1};
        check_encoding("iadd r1.y, r2.z, l(1)", DXBC_OP_IADD, 0, ops, 3, words, 7);
    }
    {
        /* ld_raw r0.xyzw, r1.x, u3.xyzw */
        dxbc_operand ops[3] = {dxbc_temp_dst(0, DXBC_MASK_XYZW), dxbc_temp(1, 0), dxbc_uav_src(3, DXBC_SWIZZLE_XYZW)};
        const uint32_t words[] = {0x070000a5, 0x001000f2, 0, 0x0010000a, 1, 0x0011ee46, 3};
        check_encoding("ld_raw r0.xyzw, r1.x, u3.xyzw", DXBC_OP_LD_RAW, 0, ops, 3, words, 7);
    }
    {
        /* store_raw u1.xy, r0.x, r2.xyxx */
        dxbc_operand ops[3] = {dxbc_uav_dst(1, DXBC_MASK_XY), dxbc_temp(0, 0),
                               dxbc_temp_src(2, DXBC_SWIZZLE(0, 1, 0, 0))};
        const uint32_t words[] = {0x070000a6, 0x0011e032, 1, 0x0010000a, 0, 0x00100046, 2};
        check_encoding("store_raw u1.xy, r0.x, r2.xyxx", DXBC_OP_STORE_RAW, 0, ops, 3, words, 7);
    }
    {
        /* if_nz r0.x */
        dxbc_operand ops[1] = {dxbc_temp(0, 0)};
        const uint32_t words[] = {0x0304001f, 0x0010000a, 0};
        check_encoding("if_nz r0.x", DXBC_OP_IF, DXBC_TEST_NONZERO, ops, 1, words, 3);
    }
    {
        /* mov r0.x, -r1.x: an extended operand token carries the negation */
        dxbc_operand ops[2] = {dxbc_temp_dst(0, DXBC_MASK_X), dxbc_neg(dxbc_temp(1, 0))};
        const uint32_t words[] = {0x06000036, 0x00100012, 0, 0x8010000a, 0x00000041, 1};
        check_encoding("mov r0.x, -r1.x", DXBC_OP_MOV, 0, ops, 2, words, 6);
    }
    {
        /* imul null, r0.x, r1.x, r2.x */
        dxbc_operand ops[4] = {dxbc_null_dst(), dxbc_temp_dst(0, DXBC_MASK_X), dxbc_temp(1, 0), dxbc_temp(2, 0)};
        const uint32_t words[] = {0x08000026, 0x0000d000, 0x00100012, 0, 0x0010000a, 1, 0x0010000a, 2};
        check_encoding("imul null, r0.x, r1.x, r2.x", DXBC_OP_IMUL, 0, ops, 4, words, 8);
    }
    {
        /* sync_g_t */
        const uint32_t words[] = {0x010018be};
        check_encoding("sync_g_t", DXBC_OP_SYNC, DXBC_SYNC_GROUP_BARRIER | DXBC_SYNC_TGSM_FENCE, NULL, 0, words, 1);
    }
    {
        /* imad r0.x, vThreadID.y, cb0[0].y, vThreadID.x */
        dxbc_operand ops[4] = {dxbc_temp_dst(0, DXBC_MASK_X), dxbc_input(DXBC_OPERAND_THREAD_ID, 1), dxbc_cb(0, 0, 1),
                               dxbc_input(DXBC_OPERAND_THREAD_ID, 0)};
        const uint32_t words[] = {0x08000023, 0x00100012, 0, 0x0002001a, 0x0020801a, 0, 0, 0x0002000a};
        check_encoding("imad r0.x, vThreadID.y, cb0[0].y, vThreadID.x", DXBC_OP_IMAD, 0, ops, 4, words, 8);
    }
}
END_TEST

START_TEST(test_declaration_encodings)
{
    dxbc_program p = {0};
    ck_assert_int_eq(dxbc_program_begin(&p, DXBC_PROGRAM_COMPUTE, 5, 0), 0);
    dxbc_dcl_uav_raw(&p, 2);
    dxbc_dcl_thread_group(&p, 64, 1, 1);
    dxbc_dcl_temps(&p, 14);
    dxbc_dcl_tgsm_raw(&p, 1, 2048);
    dxbc_dcl_input(&p, DXBC_OPERAND_THREAD_ID);
    dxbc_dcl_input(&p, DXBC_OPERAND_THREAD_ID_IN_GROUP_FLATTENED);
    dxbc_dcl_constant_buffer(&p, 0, 1);
    ck_assert_int_eq(dxbc_program_finish(&p), 0);
    const uint32_t words[] = {
        0x0300009d, 0x0011e000, 2,       /* dcl_uav_raw u2 */
        0x0400009b, 64,         1, 1,    /* dcl_thread_group 64, 1, 1 */
        0x02000068, 14,                  /* dcl_temps 14 */
        0x0400009f, 0x0011f000, 1, 2048, /* dcl_tgsm_raw g1, 2048 */
        0x0200005f, 0x00020072,          /* dcl_input vThreadID.xyz */
        0x0200005f, 0x00024001,          /* dcl_input vThreadIDInGroupFlattened */
        0x04000059, 0x00208e46, 0, 1,    /* dcl_constantBuffer cb0[1] */
    };
    size_t count = sizeof(words) / sizeof(words[0]);
    ck_assert_uint_eq(p.count, 2 + count);
    for (size_t i = 0; i < count; ++i)
        ck_assert_msg(p.words[2 + i] == words[i], "word %zu is 0x%08x, expected 0x%08x", i, p.words[2 + i], words[i]);
    dxbc_program_release(&p);
}
END_TEST

START_TEST(test_overlong_instruction_fails)
{
    dxbc_program p = {0};
    ck_assert_int_eq(dxbc_program_begin(&p, DXBC_PROGRAM_COMPUTE, 5, 0), 0);
    dxbc_operand ops[7];
    for (unsigned i = 0; i < 7; ++i)
        ops[i] = dxbc_imm4(1, 2, 3, 4); /* 5 words each: 1 + 35 > 31 */
    dxbc_emit(&p, DXBC_OP_MOV, 0, ops, 7);
    ck_assert_int_eq(dxbc_program_finish(&p), -1);
    ck_assert(p.failed);
    ck_assert_ptr_nonnull(strstr(p.error, "31 words"));
    dxbc_program_release(&p);
}
END_TEST

/* ---- containers and kernels ----------------------------------------------- */

START_TEST(test_container_layout)
{
    dxbc_program p = {0};
    dxbc_program_begin(&p, DXBC_PROGRAM_COMPUTE, 5, 0);
    dxbc_dcl_thread_group(&p, 1, 1, 1);
    dxbc_emit(&p, DXBC_OP_RET, 0, NULL, 0);
    ck_assert_int_eq(dxbc_program_finish(&p), 0);
    void *blob;
    size_t size;
    ck_assert_int_eq(dxbc_container_build(p.words, p.count, &blob, &size), 0);
    const unsigned char *bytes = blob;
    ck_assert_int_eq(memcmp(bytes, "DXBC", 4), 0);
    ck_assert_uint_eq(le32(bytes + 20), 1);    /* version */
    ck_assert_uint_eq(le32(bytes + 24), size); /* total size */
    ck_assert_uint_eq(le32(bytes + 28), 1);    /* one chunk */
    uint32_t offset = le32(bytes + 32);
    ck_assert_int_eq(memcmp(bytes + offset, "SHEX", 4), 0);
    ck_assert_uint_eq(le32(bytes + offset + 4), p.count * 4);
    ck_assert_uint_eq(le32(bytes + offset + 8), 0x00050050u);
    ck_assert(dxbc_container_check(blob, size));
    ((unsigned char *)blob)[size - 1] ^= 1; /* any changed byte breaks the checksum */
    ck_assert(!dxbc_container_check(blob, size));
    free(blob);
    dxbc_program_release(&p);
}
END_TEST

START_TEST(test_every_kernel_builds)
{
    unsigned built = 0;
    for (size_t i = 0; i < KERNEL_VARIANT_COUNT; ++i)
    {
        kernel_key key = kernel_key_from_index(i);
        ck_assert_uint_eq(kernel_key_index(&key), i);
        if (!kernel_key_exists(&key))
            continue;
        void *blob;
        size_t size;
        char why[256], name[64];
        kernel_key_name(&key, name, sizeof(name));
        ck_assert_msg(!kernel_generate(&key, &blob, &size, why, sizeof(why)), "%s: %s", name, why);
        ck_assert_msg(dxbc_container_check(blob, size), "%s: malformed container", name);
        free(blob);
        built++;
    }
    /* Per kernel (and tile shape): 4 classes x 2 operations x 3 faults,
     * plus the float16 accumulation fault for 2 operations. The serial
     * kernel has one shape, tile, rake and look-back TILE_SHAPE_COUNT
     * each; the serial kernel also the two two-lane classes (2 operations
     * x 3 faults, and the float16 accumulation fault for the float16
     * pairs); the short-line kernel one shape. The serial kernel alone has
     * the chunk-carry fault, for its 6 classes x 2 operations; the
     * look-back and tile kernels alone the spans test variant, without
     * faults (4 classes x 2 operations per shape). */
    ck_assert_uint_eq(built, (4 * 2 * 3 + 2) * (2 + 3 * TILE_SHAPE_COUNT) + (2 * 2 * 3 + 2) + 6 * 2 +
                                 2 * 4 * 2 * TILE_SHAPE_COUNT);
}
END_TEST

static Suite *dxbc_suite(void)
{
    Suite *suite = suite_create("dxbc");
    TCase *checksum = tcase_create("checksum");
    tcase_add_test(checksum, test_md5_vectors);
    tcase_add_test(checksum, test_checksum_matches_vkd3d);
    suite_add_tcase(suite, checksum);
    TCase *tokens = tcase_create("tokens");
    tcase_add_test(tokens, test_program_header);
    tcase_add_test(tokens, test_instruction_encodings);
    tcase_add_test(tokens, test_declaration_encodings);
    tcase_add_test(tokens, test_overlong_instruction_fails);
    suite_add_tcase(suite, tokens);
    TCase *container = tcase_create("container");
    /* Generating every variant takes seconds under the sanitizers, more on a
     * loaded machine: past Check's default of 4. */
    tcase_set_timeout(container, 120);
    tcase_add_test(container, test_container_layout);
    tcase_add_test(container, test_every_kernel_builds);
    suite_add_tcase(suite, container);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(dxbc_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
