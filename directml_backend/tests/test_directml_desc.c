/*
 * The directml backend's desc building and batch layout, checked against
 * the reference pages' rules: buffer tensors with the case's sizes, its
 * strides in elements (none when packed), TotalTensorSizeInBytes at least
 * DMLCalcBufferTensorSize's minimum, the operator's axis, direction and
 * exclusive flag; and regions that are aligned, disjoint and large enough,
 * with an in-place job's input and output on the same range. Then the
 * paths' plumbing: the options' words, the graphs' nodes and edges, the
 * owned flag and declared alignment on the tensors the graph binds, tensor
 * offsets at odd multiples of the alignment with canaries between and
 * around them, and a canary check that sees every changed byte.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "directml_desc.h"
#include "directml_layout.h"
#include "directml_path.h"

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

/* The default binding: 256-byte regions, no canaries. */
static const directml_layout_options plain = {DIRECTML_REGION_ALIGNMENT, false, false, false};

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
        ck_assert(directml_layout_job(&desc, 1000, round == 1 ? 0 : 300, &plain, start, &r));
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
    ck_assert(directml_layout_job(&desc, 0, 0, &plain, 512, &r));
    ck_assert_uint_eq(r.input_offset, r.output_offset);
    ck_assert_uint_eq(r.input_bytes, r.output_bytes);
    ck_assert_uint_eq(r.output_offset, 512);
    ck_assert_uint_eq(r.end, 512 + 512);

    /* Sizes that overflow are refused, not wrapped. */
    ck_assert(!directml_layout_job(&desc, UINT64_MAX - 10, 0, &plain, 0, &r));
}
END_TEST

/* ---- the paths ------------------------------------------------------------- */

static void set_path_environment(const char *flags, const char *graph, const char *binding, const char *fault)
{
    setenv("DMLCONF_DIRECTML_FLAGS", flags, 1);
    setenv("DMLCONF_DIRECTML_GRAPH", graph, 1);
    setenv("DMLCONF_DIRECTML_BINDING", binding, 1);
    setenv("DMLCONF_DIRECTML_FAULT", fault, 1);
}

START_TEST(test_path_words)
{
    char why[512], text[256];
    directml_path path;
    set_path_environment("", "", "", "");
    ck_assert_int_eq(directml_path_from_environment(&path, why, sizeof(why)), 0);
    ck_assert_uint_eq(path.execution_flags, 0);
    ck_assert_int_eq(path.graph, DIRECTML_GRAPH_NONE);
    ck_assert_uint_eq(path.binding, 0);
    ck_assert_str_eq(directml_path_describe(&path, text, sizeof(text)), "flags none, graph none, binding default");

    set_path_environment("half-precision+disable-meta-commands+descriptors-volatile", "input-edge",
                         "offset-minimum+owned-input+repeat+shared-initializer", "owned-unbound");
    ck_assert_int_eq(directml_path_from_environment(&path, why, sizeof(why)), 0);
    ck_assert_uint_eq(path.execution_flags, 0x7); /* DirectML.h's values: 0x1, 0x2, 0x4 */
    ck_assert_int_eq(path.graph, DIRECTML_GRAPH_INPUT_EDGE);
    ck_assert_uint_eq(path.binding, DIRECTML_BINDING_OFFSET_MINIMUM | DIRECTML_BINDING_OWNED_INPUT |
                                        DIRECTML_BINDING_REPEAT | DIRECTML_BINDING_SHARED_INITIALIZER);
    ck_assert_str_eq(directml_path_describe(&path, text, sizeof(text)),
                     "flags half-precision+disable-meta-commands+descriptors-volatile, graph input-edge, binding "
                     "offset-minimum+owned-input+repeat+shared-initializer, fault owned-unbound planted");
    ck_assert(directml_path_offsets(&path));
    ck_assert_uint_eq(directml_path_tensor_alignment(&path), 16);
    ck_assert_uint_eq(directml_path_declared_alignment(&path), 0);

    set_path_environment("none", "alone", "offset-aligned", "none");
    ck_assert_int_eq(directml_path_from_environment(&path, why, sizeof(why)), 0);
    ck_assert_uint_eq(directml_path_tensor_alignment(&path), 64);
    ck_assert_uint_eq(directml_path_declared_alignment(&path), 64);

    /* Unknown words, both offsets at once, and a fault whose plumbing the
     * path does not use are refused in one sentence. */
    static const struct
    {
        const char *flags, *graph, *binding, *fault, *words;
    } refused[] = {
        {"half", "", "", "",
         "DMLCONF_DIRECTML_FLAGS=half: 'half' is not one of none, half-precision, "
         "disable-meta-commands or descriptors-volatile (join several with '+')"},
        {"half-precision+", "", "", "", "'' is not one of"},
        {"", "fused", "", "", "DMLCONF_DIRECTML_GRAPH=fused: not one of none, alone, input-edge or output-edge"},
        {"", "", "offset", "", "DMLCONF_DIRECTML_BINDING=offset: 'offset' is not one of default, offset-aligned"},
        {"", "", "offset-aligned+offset-minimum", "", "choose one"},
        {"", "", "", "everything", "DMLCONF_DIRECTML_FAULT=everything: not one of none, ignore-offset"},
        {"", "", "", "stray-write", "which this path does not use"},
        {"", "alone", "", "inexact-edge", "a graph with an edge"},
        {"", "", "owned-input", "late-binding-skipped", "the flag descriptors-volatile"},
        {"", "", "offset-minimum", "repeat-changed-input", "the binding repeat"},
        {"", "", "repeat", "owned-unbound", "the binding owned-input"},
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); ++i)
    {
        set_path_environment(refused[i].flags, refused[i].graph, refused[i].binding, refused[i].fault);
        why[0] = '\0';
        ck_assert_int_eq(directml_path_from_environment(&path, why, sizeof(why)), -1);
        ck_assert_msg(strstr(why, refused[i].words) != NULL, "case %zu: '%s' lacks '%s'", i, why, refused[i].words);
    }
    set_path_environment("", "", "", "");
}
END_TEST

static dmlconf_scan_desc strided_desc(bool in_place)
{
    static const uint32_t sizes[3] = {2, 3, 4};
    static const uint32_t strides[3] = {0, 5, 1}; /* broadcast along the first dimension, padded rows */
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    desc.input = tensor(DMLCONF_DATA_TYPE_FLOAT32, 3, sizes, in_place ? NULL : strides, 0);
    desc.output = tensor(DMLCONF_DATA_TYPE_FLOAT32, 3, sizes, NULL, 0);
    desc.axis = 2;
    desc.in_place = in_place;
    return desc;
}

/* The graphs' nodes and edges, and the tensors the graph binds. */
START_TEST(test_exec_desc_graphs)
{
    dmlconf_scan_desc desc = strided_desc(false);
    IDMLOperator *cumulative = (IDMLOperator *)(uintptr_t)0x1000, *identity = (IDMLOperator *)(uintptr_t)0x2000;
    directml_path path;
    memset(&path, 0, sizeof(path));

    /* The operator alone, not a graph: the case's desc as written. */
    directml_exec_desc *d = calloc(1, sizeof(*d));
    ck_assert_ptr_nonnull(d);
    directml_exec_desc_build(&desc, &path, d);
    ck_assert(!d->graph && !d->has_identity);
    ck_assert_ptr_eq(d->node.cumulative.InputTensor, &d->node.input);
    ck_assert_uint_eq(d->node.input_buffer.Flags, 0);
    ck_assert_uint_eq(d->node.input_buffer.GuaranteedBaseOffsetAlignment, 0);

    /* A graph of the one node: input edge into node 0, output edge out of
     * it, no intermediate edge; the owned flag and the declared alignment
     * on the operator's own tensors. */
    path.graph = DIRECTML_GRAPH_ALONE;
    path.binding = DIRECTML_BINDING_OWNED_INPUT | DIRECTML_BINDING_OFFSET_ALIGNED;
    directml_exec_desc_build(&desc, &path, d);
    directml_exec_desc_graph(d, cumulative, NULL);
    ck_assert(d->graph && !d->has_identity);
    ck_assert_uint_eq(d->graph_desc.NodeCount, 1);
    ck_assert_uint_eq(d->graph_desc.InputCount, 1);
    ck_assert_uint_eq(d->graph_desc.OutputCount, 1);
    ck_assert_uint_eq(d->graph_desc.IntermediateEdgeCount, 0);
    ck_assert_ptr_eq(((const DML_OPERATOR_GRAPH_NODE_DESC *)d->graph_desc.Nodes[0].Desc)->Operator, cumulative);
    ck_assert_int_eq(d->graph_desc.Nodes[0].Type, 1);
    ck_assert_int_eq(d->graph_desc.InputEdges[0].Type, 1);
    ck_assert_int_eq(d->graph_desc.OutputEdges[0].Type, 2);
    ck_assert_uint_eq(((const DML_OUTPUT_GRAPH_EDGE_DESC *)d->graph_desc.OutputEdges[0].Desc)->FromNodeIndex, 0);
    ck_assert_uint_eq(d->node.input_buffer.Flags, 1); /* DML_TENSOR_FLAG_OWNED_BY_DML */
    ck_assert_uint_eq(d->node.output_buffer.Flags, 0);
    ck_assert_uint_eq(d->node.input_buffer.GuaranteedBaseOffsetAlignment, 64);
    ck_assert_uint_eq(d->node.output_buffer.GuaranteedBaseOffsetAlignment, 64);

    /* input-edge: identity(case input -> packed edge) -> operator; the
     * graph binds the identity's input, which carries the owned flag. */
    path.graph = DIRECTML_GRAPH_INPUT_EDGE;
    path.binding = DIRECTML_BINDING_OWNED_INPUT;
    directml_exec_desc_build(&desc, &path, d);
    directml_exec_desc_graph(d, cumulative, identity);
    ck_assert(d->graph && d->has_identity);
    ck_assert_uint_eq(d->graph_desc.NodeCount, 2);
    ck_assert_uint_eq(d->graph_desc.IntermediateEdgeCount, 1);
    ck_assert_uint_eq(d->identity_node, 0);
    ck_assert_uint_eq(d->cumulative_node, 1);
    ck_assert_ptr_eq(((const DML_OPERATOR_GRAPH_NODE_DESC *)d->graph_desc.Nodes[0].Desc)->Operator, identity);
    ck_assert_ptr_eq(((const DML_OPERATOR_GRAPH_NODE_DESC *)d->graph_desc.Nodes[1].Desc)->Operator, cumulative);
    const DML_INTERMEDIATE_GRAPH_EDGE_DESC *edge = d->graph_desc.IntermediateEdges[0].Desc;
    ck_assert_int_eq(d->graph_desc.IntermediateEdges[0].Type, 3);
    ck_assert_uint_eq(edge->FromNodeIndex, 0);
    ck_assert_uint_eq(edge->ToNodeIndex, 1);
    ck_assert_uint_eq(((const DML_OUTPUT_GRAPH_EDGE_DESC *)d->graph_desc.OutputEdges[0].Desc)->FromNodeIndex, 1);
    ck_assert_ptr_eq(d->identity.InputTensor, &d->outer);
    ck_assert_ptr_eq(d->identity.OutputTensor, &d->edge);
    ck_assert_ptr_eq(d->node.cumulative.InputTensor, &d->edge);
    ck_assert_ptr_eq(d->node.cumulative.OutputTensor, &d->node.output);
    ck_assert_ptr_null(d->identity.ScaleBias);
    ck_assert_int_eq(d->identity_op.Type, 1); /* DML_OPERATOR_ELEMENT_WISE_IDENTITY */
    ck_assert_ptr_nonnull(d->outer_buffer.Strides);
    ck_assert_uint_eq(d->outer_buffer.Strides[1], 5);
    ck_assert_uint_eq(d->outer_buffer.Flags, 1);
    ck_assert_ptr_null(d->edge_buffer.Strides); /* the edge is packed */
    ck_assert_uint_eq(d->edge_buffer.Flags, 0);
    ck_assert_uint_eq(d->edge_buffer.TotalTensorSizeInBytes, 2 * 3 * 4 * 4);
    for (int i = 0; i < 3; ++i)
        ck_assert_uint_eq(d->edge_buffer.Sizes[i], desc.input.sizes[i]);

    /* output-edge: operator -> packed edge -> identity(edge -> case
     * output); the operator's own input is still the graph's. */
    path.graph = DIRECTML_GRAPH_OUTPUT_EDGE;
    path.fault = DIRECTML_FAULT_INEXACT_EDGE;
    directml_exec_desc_build(&desc, &path, d);
    directml_exec_desc_graph(d, cumulative, identity);
    ck_assert_uint_eq(d->cumulative_node, 0);
    ck_assert_uint_eq(d->identity_node, 1);
    ck_assert_ptr_eq(d->node.cumulative.InputTensor, &d->node.input);
    ck_assert_ptr_eq(d->node.cumulative.OutputTensor, &d->edge);
    ck_assert_ptr_eq(d->identity.InputTensor, &d->edge);
    ck_assert_ptr_eq(d->identity.OutputTensor, &d->outer);
    ck_assert_uint_eq(d->node.input_buffer.Flags, 1);
    ck_assert_ptr_nonnull(d->identity.ScaleBias); /* the planted fault: y = x + 1 */
    ck_assert(d->identity.ScaleBias->Scale == 1.0f && d->identity.ScaleBias->Bias == 1.0f);
    free(d);
}
END_TEST

static bool is_odd_multiple(uint64_t offset, uint64_t alignment)
{
    return offset % alignment == 0 && (offset / alignment) % 2 == 1;
}

/* The offset bindings: tensors at odd multiples of the alignment, canaries
 * of at least DIRECTML_CANARY_BYTES before, between and after them, and the
 * other regions after the canaries. */
START_TEST(test_offset_layout)
{
    static const uint32_t alignments[2] = {DIRECTML_DECLARED_ALIGNMENT, DIRECTML_MINIMUM_ALIGNMENT};
    for (int a = 0; a < 2; ++a)
    {
        for (int in_place = 0; in_place < 2; ++in_place)
        {
            dmlconf_scan_desc desc = strided_desc(in_place != 0);
            directml_layout_options options = {alignments[a], true, !in_place, true};
            uint64_t start = 0;
            for (int round = 0; round < 4; ++round)
            {
                directml_regions r;
                ck_assert(directml_layout_job(&desc, 512, round % 2 ? 0 : 100, &options, start, &r));
                ck_assert_uint_eq(r.start % DIRECTML_REGION_ALIGNMENT, 0);
                ck_assert_uint_ge(r.start, start);
                ck_assert(is_odd_multiple(r.input_offset, alignments[a]));
                ck_assert(is_odd_multiple(r.output_offset, alignments[a]));
                ck_assert_uint_ge(r.input_offset, r.start + DIRECTML_CANARY_BYTES);
                if (in_place)
                    ck_assert_uint_eq(r.input_offset, r.output_offset);
                else
                    ck_assert_uint_ge(r.output_offset, r.input_offset + r.input_bytes + DIRECTML_CANARY_BYTES);
                ck_assert_uint_ge(r.canary_end, r.output_offset + r.output_bytes + DIRECTML_CANARY_BYTES);
                ck_assert_uint_eq(r.input_bytes, in_place ? 96 : 4 * (0 + 2 * 5 + 3 + 1));
                ck_assert_uint_eq(r.output_bytes, 96);
                /* The rest comes after the canaries, each region apart. */
                uint64_t offsets[5] = {r.scrub_offset, r.decoy_input_offset, r.decoy_output_offset, r.temporary_offset,
                                       r.persistent_offset};
                uint64_t bytes[5] = {r.scrub_bytes, r.input_bytes, r.output_bytes, r.temporary_bytes,
                                     r.persistent_bytes};
                ck_assert_uint_eq(r.scrub_bytes, in_place ? 0 : r.input_bytes);
                for (int i = 0; i < 5; ++i)
                {
                    if (!bytes[i])
                        continue;
                    ck_assert_uint_ge(offsets[i], r.canary_end);
                    ck_assert_uint_eq(offsets[i] % DIRECTML_REGION_ALIGNMENT, 0);
                    ck_assert_uint_le(offsets[i] + bytes[i], r.end);
                    for (int j = 0; j < i; ++j)
                        ck_assert_msg(!overlap(offsets[i], bytes[i], offsets[j], bytes[j]), "regions %d, %d overlap", i,
                                      j);
                }
                start = r.end + 7;
            }
        }
    }
}
END_TEST

/* The canary check sees a change to any canary byte (before the input,
 * between the tensors, after the output) and to any input byte, says where
 * the first one is, and ignores the output's range. */
START_TEST(test_canary_check)
{
    dmlconf_scan_desc desc = strided_desc(false);
    directml_layout_options options = {DIRECTML_MINIMUM_ALIGNMENT, true, false, false};
    directml_regions r;
    ck_assert(directml_layout_job(&desc, 0, 0, &options, 256, &r));
    size_t size = (size_t)r.end;
    unsigned char *before = calloc(size, 1), *after = malloc(size);
    ck_assert(before && after);
    directml_fill_canaries(&r, before);
    for (uint64_t i = 0; i < r.input_bytes; ++i)
        before[r.input_offset + i] = (unsigned char)(i * 7u);
    for (uint64_t i = 0; i < r.output_bytes; ++i)
        before[r.output_offset + i] = 0xa5;
    /* Neighbouring canary bytes differ, so no constant write matches. */
    ck_assert_uint_ne(directml_canary_byte(r.start), directml_canary_byte(r.start + 1));

    directml_span_check found;
    memcpy(after, before, size);
    ck_assert(directml_check_span(&r, before, after, true, &found));
    ck_assert_uint_eq(found.canary_bytes_changed + found.input_bytes_changed, 0);

    /* Every byte of the span, changed alone. */
    for (uint64_t offset = r.start; offset < r.canary_end; ++offset)
    {
        memcpy(after, before, size);
        after[offset] ^= 0x10u;
        bool in_input = offset >= r.input_offset && offset < r.input_offset + r.input_bytes;
        bool in_output = offset >= r.output_offset && offset < r.output_offset + r.output_bytes;
        bool clean = directml_check_span(&r, before, after, true, &found);
        if (in_output)
        {
            ck_assert_msg(clean, "a write inside the output at %llu was reported", (unsigned long long)offset);
            continue;
        }
        ck_assert_msg(!clean, "a changed byte at %llu was not seen", (unsigned long long)offset);
        ck_assert_uint_eq(found.first_offset, offset);
        ck_assert_uint_eq(found.input_bytes_changed, in_input ? 1 : 0);
        ck_assert_uint_eq(found.canary_bytes_changed, in_input ? 0 : 1);
        const char *where = in_input                   ? "in the input"
                            : offset < r.input_offset  ? "before the input"
                            : offset < r.output_offset ? "between the input and the output"
                                                       : "after the output";
        ck_assert_str_eq(found.first_where, where);
        /* An input that is not checked (owned by DirectML, scrubbed) is
         * left alone; the canaries never are. */
        ck_assert(directml_check_span(&r, before, after, false, &found) == in_input);
    }

    /* A write past the output's end by one element, and a stray write of a
     * whole tensor at offset 0 of the shared buffer (an offset ignored). */
    memcpy(after, before, size);
    memset(after + r.output_offset + r.output_bytes, 0, 4);
    ck_assert(!directml_check_span(&r, before, after, true, &found));
    ck_assert_uint_eq(found.canary_bytes_changed, 4);
    ck_assert_str_eq(found.first_where, "after the output");
    free(before);
    free(after);

    /* The default binding has no canaries: nothing to check. */
    ck_assert(directml_layout_job(&desc, 0, 0, &plain, 0, &r));
    ck_assert_uint_eq(r.canary_end, r.start);
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
        {&dml_iid_device1, "a0884f9a-d2be-4355-aa5d-5901281ad1d2"},
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
    TCase *paths = tcase_create("paths");
    tcase_add_test(paths, test_path_words);
    tcase_add_test(paths, test_exec_desc_graphs);
    tcase_add_test(paths, test_offset_layout);
    tcase_add_test(paths, test_canary_check);
    suite_add_tcase(suite, paths);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
