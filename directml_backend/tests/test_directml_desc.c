/*
 * The directml backend's desc building and batch layout, checked against
 * the reference pages' rules: buffer tensors with the case's sizes, its
 * strides in elements (none when packed), TotalTensorSizeInBytes at least
 * DMLCalcBufferTensorSize's minimum, the operator's axis, direction and
 * exclusive flag; and regions that are aligned, disjoint and large enough,
 * with an in-place job's input and output on the same range.
 */
#include "directml_desc.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static dmlconf_tensor_desc tensor(dmlconf_data_type type, uint32_t count, const uint32_t *sizes,
                                  const uint32_t *strides, uint64_t total)
{
    dmlconf_tensor_desc t;
    memset(&t, 0, sizeof(t));
    t.data_type = type;
    t.dimension_count = count;
    for (uint32_t d = 0; d < count; ++d)
    {
        t.sizes[d] = sizes[d];
        if (strides)
            t.strides[d] = strides[d];
    }
    t.has_strides = strides != NULL;
    t.total_size_bytes = total;
    return t;
}

/* DMLCalcBufferTensorSize, written out from the rule in the pages. */
static uint64_t minimum_bytes(const dmlconf_tensor_desc *t)
{
    uint64_t bits = dmlconf_data_type_bits(t->data_type);
    uint64_t span = 1, stride = 1;
    for (uint32_t d = t->dimension_count; d-- > 0;)
    {
        uint64_t s = t->has_strides ? t->strides[d] : stride;
        span += (uint64_t)(t->sizes[d] - 1) * s;
        stride *= t->sizes[d];
    }
    uint64_t bytes = (span * bits + 7) / 8;
    return (bytes + 3) / 4 * 4;
}

static const dmlconf_data_type all_types[] = {DMLCONF_DATA_TYPE_FLOAT32, DMLCONF_DATA_TYPE_FLOAT16,
                                              DMLCONF_DATA_TYPE_UINT32,  DMLCONF_DATA_TYPE_INT32,
                                              DMLCONF_DATA_TYPE_UINT64,  DMLCONF_DATA_TYPE_INT64};
/* DirectML.h's DML_TENSOR_DATA_TYPE values, in the same order. */
static const int dml_types[] = {1, 2, 3, 6, 10, 11};

START_TEST(test_every_dtype_and_operator)
{
    const uint32_t sizes[4] = {1, 2, 3, 5};
    for (size_t t = 0; t < sizeof(all_types) / sizeof(all_types[0]); ++t)
    {
        for (int op = 0; op < 2; ++op)
        {
            dmlconf_scan_desc desc;
            memset(&desc, 0, sizeof(desc));
            desc.op = op ? DMLCONF_OPERATOR_CUMULATIVE_PRODUCT : DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
            desc.input = tensor(all_types[t], 4, sizes, NULL, 0);
            desc.output = desc.input;
            desc.axis = 3;
            desc.direction = DMLCONF_AXIS_DIRECTION_DECREASING;
            desc.exclusive = op == 1;
            directml_desc d;
            directml_desc_build(&desc, &d);
            ck_assert_int_eq(d.op.Type, op ? 145 : 105);
            ck_assert_ptr_eq(d.op.Desc, &d.cumulative);
            ck_assert_ptr_eq(d.cumulative.InputTensor, &d.input);
            ck_assert_ptr_eq(d.cumulative.OutputTensor, &d.output);
            ck_assert_int_eq(d.input.Type, 1);
            ck_assert_ptr_eq(d.input.Desc, &d.input_buffer);
            ck_assert_ptr_eq(d.output.Desc, &d.output_buffer);
            ck_assert_int_eq(d.input_buffer.DataType, dml_types[t]);
            ck_assert_int_eq(d.output_buffer.DataType, dml_types[t]);
            ck_assert_uint_eq(d.input_buffer.DimensionCount, 4);
            for (int i = 0; i < 4; ++i)
                ck_assert_uint_eq(d.input_buffer.Sizes[i], sizes[i]);
            ck_assert_ptr_null(d.input_buffer.Strides); /* packed */
            ck_assert_uint_eq(d.input_buffer.TotalTensorSizeInBytes, minimum_bytes(&desc.input));
            ck_assert_uint_eq(d.cumulative.Axis, 3);
            ck_assert_int_eq(d.cumulative.AxisDirection, 1);
            ck_assert_int_eq(d.cumulative.HasExclusive, op == 1);
            ck_assert_int_eq(d.input_buffer.Flags, 0);
        }
    }
}
END_TEST

START_TEST(test_strides_and_total_sizes)
{
    /* Padded rows, a broadcast dimension (stride 0), and a total size
     * larger than the minimum. */
    const uint32_t sizes[3] = {2, 3, 4};
    const uint32_t padded[3] = {40, 8, 1};
    const uint32_t broadcast[3] = {4, 0, 1};
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    desc.input = tensor(DMLCONF_DATA_TYPE_FLOAT16, 3, sizes, broadcast, 0);
    desc.output = tensor(DMLCONF_DATA_TYPE_FLOAT16, 3, sizes, padded, 1024);
    desc.axis = 1;
    directml_desc d;
    directml_desc_build(&desc, &d);
    ck_assert_ptr_nonnull(d.input_buffer.Strides);
    ck_assert_ptr_nonnull(d.output_buffer.Strides);
    for (int i = 0; i < 3; ++i)
    {
        ck_assert_uint_eq(d.input_buffer.Strides[i], broadcast[i]);
        ck_assert_uint_eq(d.output_buffer.Strides[i], padded[i]);
    }
    /* Broadcast: (2-1)*4 + (3-1)*0 + (4-1)*1 + 1 = 8 halves = 16 bytes. */
    ck_assert_uint_eq(d.input_buffer.TotalTensorSizeInBytes, 16);
    ck_assert_uint_eq(minimum_bytes(&desc.input), 16);
    ck_assert_uint_eq(d.output_buffer.TotalTensorSizeInBytes, 1024);
    ck_assert_int_eq(d.cumulative.AxisDirection, 0);
    ck_assert_int_eq(d.cumulative.HasExclusive, 0);

    /* An odd number of halves rounds up to 4 bytes. */
    const uint32_t three[1] = {3};
    dmlconf_tensor_desc halves = tensor(DMLCONF_DATA_TYPE_FLOAT16, 1, three, NULL, 0);
    ck_assert_uint_eq(directml_tensor_total_bytes(&halves), 8);
    ck_assert_uint_eq(minimum_bytes(&halves), 8);
}
END_TEST

START_TEST(test_invalid_desc_goes_as_written)
{
    /* A negative case's desc is not corrected: DirectML judges it. */
    const uint32_t sizes[2] = {3, 4};
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    desc.input = tensor(DMLCONF_DATA_TYPE_UINT16, 2, sizes, NULL, 4);
    desc.output = tensor(DMLCONF_DATA_TYPE_UINT16, 2, sizes, NULL, 0);
    desc.axis = 7;
    directml_desc d;
    directml_desc_build(&desc, &d);
    ck_assert_int_eq(d.input_buffer.DataType, 4);
    ck_assert_uint_eq(d.input_buffer.TotalTensorSizeInBytes, 4); /* too small, as given */
    ck_assert_uint_eq(d.cumulative.Axis, 7);
}
END_TEST

static bool overlap(uint64_t a, uint64_t a_bytes, uint64_t b, uint64_t b_bytes)
{
    return a_bytes && b_bytes && a < b + b_bytes && b < a + a_bytes;
}

START_TEST(test_layout)
{
    const uint32_t sizes[2] = {5, 7};
    const uint32_t strides[2] = {9, 1};
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    desc.input = tensor(DMLCONF_DATA_TYPE_INT64, 2, sizes, NULL, 0);
    desc.output = tensor(DMLCONF_DATA_TYPE_INT64, 2, sizes, strides, 0);
    uint64_t start = 0;
    for (int round = 0; round < 3; ++round)
    {
        directml_regions r;
        ck_assert(directml_layout_job(&desc, 1000, round == 1 ? 0 : 300, start, &r));
        uint64_t offsets[4] = {r.input_offset, r.output_offset, r.temporary_offset, r.persistent_offset};
        uint64_t bytes[4] = {r.input_bytes, r.output_bytes, r.temporary_bytes, r.persistent_bytes};
        for (int i = 0; i < 4; ++i)
        {
            if (!bytes[i])
                continue;
            ck_assert_uint_eq(offsets[i] % DIRECTML_REGION_ALIGNMENT, 0);
            ck_assert_uint_ge(offsets[i], start);
            ck_assert_uint_le(offsets[i] + bytes[i], r.end);
            for (int j = 0; j < i; ++j)
                ck_assert_msg(!overlap(offsets[i], bytes[i], offsets[j], bytes[j]), "regions %d and %d overlap", i, j);
        }
        ck_assert_uint_eq(r.input_bytes, 5 * 7 * 8);
        ck_assert_uint_eq(r.output_bytes, (4 * 9 + 6 + 1) * 8);
        ck_assert_uint_eq(r.temporary_bytes, 1000);
        ck_assert_uint_eq(r.persistent_bytes, round == 1 ? 0 : 300);
        start = r.end + 3; /* an unaligned start is rounded up */
    }

    /* In place: one region serves as input and output. */
    desc.output = desc.input;
    desc.in_place = true;
    directml_regions r;
    ck_assert(directml_layout_job(&desc, 0, 0, 512, &r));
    ck_assert_uint_eq(r.input_offset, r.output_offset);
    ck_assert_uint_eq(r.input_bytes, r.output_bytes);
    ck_assert_uint_eq(r.output_offset, 512);
    ck_assert_uint_eq(r.end, 512 + 512);

    /* Sizes that overflow are refused, not wrapped. */
    ck_assert(!directml_layout_job(&desc, UINT64_MAX - 10, 0, 0, &r));
}
END_TEST

/* Formats an IID the way DirectML.h writes it. */
static void iid_text(const IID *iid, char *text, size_t size)
{
    snprintf(text, size, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", (unsigned)iid->Data1, (unsigned)iid->Data2,
             (unsigned)iid->Data3, iid->Data4[0], iid->Data4[1], iid->Data4[2], iid->Data4[3], iid->Data4[4],
             iid->Data4[5], iid->Data4[6], iid->Data4[7]);
}

/* Every IID the backend uses, against DirectML.h's DML_DECLARE_INTERFACE
 * strings. */
START_TEST(test_interface_ids)
{
    static const struct
    {
        const IID *iid;
        const char *text;
    } expected[] = {
        {&dml_iid_device, "6dbd6437-96fd-423f-a98c-ae5e7c2a573f"},
        {&dml_iid_operator, "26caae7a-3081-4633-9581-226fbe57695d"},
        {&dml_iid_compiled_operator, "6b15e56a-bf5c-4902-92d8-da3a650afea4"},
        {&dml_iid_operator_initializer, "427c1113-435c-469c-8676-4d5dd072f813"},
        {&dml_iid_binding_table, "29c687dc-de74-4e3b-ab00-1168f2fc3cfc"},
        {&dml_iid_command_recorder, "e6857a76-2e3e-4fdd-bff4-5d2ba10fb453"},
    };
    for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); ++i)
    {
        char text[64];
        iid_text(expected[i].iid, text, sizeof(text));
        ck_assert_str_eq(text, expected[i].text);
    }
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("directml");
    TCase *desc = tcase_create("desc");
    tcase_add_test(desc, test_every_dtype_and_operator);
    tcase_add_test(desc, test_strides_and_total_sizes);
    tcase_add_test(desc, test_invalid_desc_goes_as_written);
    tcase_add_test(desc, test_layout);
    tcase_add_test(desc, test_interface_ids);
    suite_add_tcase(suite, desc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
