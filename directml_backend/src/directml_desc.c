/*
 * From a case's desc to DirectML's, and a batch's layout.
 */
#include "directml_desc.h"

#include <string.h>

uint64_t directml_tensor_total_bytes(const dmlconf_tensor_desc *tensor)
{
    if (tensor->total_size_bytes)
        return tensor->total_size_bytes;
    uint64_t minimum = 0;
    return dmlconf_tensor_min_size_bytes(tensor, &minimum) ? minimum : 0;
}

static void build_tensor(const dmlconf_tensor_desc *tensor, UINT *sizes, UINT *strides, DML_BUFFER_TENSOR_DESC *buffer,
                         DML_TENSOR_DESC *out)
{
    uint32_t count =
        tensor->dimension_count <= DMLCONF_MAX_DIMENSIONS ? tensor->dimension_count : DMLCONF_MAX_DIMENSIONS;
    for (uint32_t d = 0; d < count; ++d)
    {
        sizes[d] = tensor->sizes[d];
        strides[d] = tensor->strides[d];
    }
    memset(buffer, 0, sizeof(*buffer));
    buffer->DataType = (DML_TENSOR_DATA_TYPE)tensor->data_type;
    buffer->Flags = DML_TENSOR_FLAG_NONE;
    buffer->DimensionCount = tensor->dimension_count;
    buffer->Sizes = sizes;
    buffer->Strides = tensor->has_strides ? strides : NULL;
    buffer->TotalTensorSizeInBytes = directml_tensor_total_bytes(tensor);
    /* No promise about the binding offsets (they are 256-aligned, but a
     * promise would let DirectML pick kernels that other callers never
     * meet). */
    buffer->GuaranteedBaseOffsetAlignment = 0;
    out->Type = DML_TENSOR_TYPE_BUFFER;
    out->Desc = buffer;
}

void directml_desc_build(const dmlconf_scan_desc *desc, directml_desc *out)
{
    memset(out, 0, sizeof(*out));
    build_tensor(&desc->input, out->input_sizes, out->input_strides, &out->input_buffer, &out->input);
    build_tensor(&desc->output, out->output_sizes, out->output_strides, &out->output_buffer, &out->output);
    out->cumulative.InputTensor = &out->input;
    out->cumulative.OutputTensor = &out->output;
    out->cumulative.Axis = desc->axis;
    out->cumulative.AxisDirection = desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING
                                        ? DML_AXIS_DIRECTION_DECREASING
                                        : DML_AXIS_DIRECTION_INCREASING;
    out->cumulative.HasExclusive = desc->exclusive ? TRUE : FALSE;
    out->op.Type = desc->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT ? DML_OPERATOR_CUMULATIVE_PRODUCT
                                                                   : DML_OPERATOR_CUMULATIVE_SUMMATION;
    out->op.Desc = &out->cumulative;
}

/* The packed tensor of `tensor`'s type and sizes: an intermediate edge. */
static void build_packed(const dmlconf_tensor_desc *tensor, UINT *sizes, DML_BUFFER_TENSOR_DESC *buffer,
                         DML_TENSOR_DESC *out)
{
    dmlconf_tensor_desc packed = *tensor;
    packed.has_strides = false;
    packed.total_size_bytes = 0;
    UINT unused[DMLCONF_MAX_DIMENSIONS];
    build_tensor(&packed, sizes, unused, buffer, out);
}

void directml_exec_desc_build(const dmlconf_scan_desc *desc, const directml_path *path, directml_exec_desc *out)
{
    memset(out, 0, sizeof(*out));
    directml_desc_build(desc, &out->node);
    out->graph = path->graph != DIRECTML_GRAPH_NONE;
    out->has_identity = path->graph == DIRECTML_GRAPH_INPUT_EDGE || path->graph == DIRECTML_GRAPH_OUTPUT_EDGE;
    DML_BUFFER_TENSOR_DESC *bound_input = &out->node.input_buffer;
    DML_BUFFER_TENSOR_DESC *bound_output = &out->node.output_buffer;
    if (out->has_identity)
    {
        bool input_edge = path->graph == DIRECTML_GRAPH_INPUT_EDGE;
        const dmlconf_tensor_desc *outer = input_edge ? &desc->input : &desc->output;
        build_tensor(outer, out->outer_sizes, out->outer_strides, &out->outer_buffer, &out->outer);
        build_packed(outer, out->edge_sizes, &out->edge_buffer, &out->edge);
        /* The operator reads (input-edge) or writes (output-edge) the edge. */
        if (input_edge)
            out->node.cumulative.InputTensor = &out->edge;
        else
            out->node.cumulative.OutputTensor = &out->edge;
        out->identity.InputTensor = input_edge ? &out->outer : &out->edge;
        out->identity.OutputTensor = input_edge ? &out->edge : &out->outer;
        if (path->fault == DIRECTML_FAULT_INEXACT_EDGE)
        {
            out->scale_bias.Scale = 1.0f;
            out->scale_bias.Bias = 1.0f;
            out->identity.ScaleBias = &out->scale_bias;
        }
        out->identity_op.Type = DML_OPERATOR_ELEMENT_WISE_IDENTITY;
        out->identity_op.Desc = &out->identity;
        out->identity_node = input_edge ? 0u : 1u;
        out->cumulative_node = input_edge ? 1u : 0u;
        if (input_edge)
            bound_input = &out->outer_buffer;
        else
            bound_output = &out->outer_buffer;
    }
    if (path->binding & DIRECTML_BINDING_OWNED_INPUT)
        bound_input->Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    bound_input->GuaranteedBaseOffsetAlignment = directml_path_declared_alignment(path);
    bound_output->GuaranteedBaseOffsetAlignment = directml_path_declared_alignment(path);
}

void directml_exec_desc_graph(directml_exec_desc *d, IDMLOperator *cumulative, IDMLOperator *identity)
{
    uint32_t count = d->has_identity ? 2u : 1u;
    d->operator_nodes[d->cumulative_node].Operator = cumulative;
    d->operator_nodes[d->cumulative_node].Name = "cumulative";
    if (d->has_identity)
    {
        d->operator_nodes[d->identity_node].Operator = identity;
        d->operator_nodes[d->identity_node].Name = "identity";
    }
    for (uint32_t i = 0; i < count; ++i)
    {
        d->nodes[i].Type = DML_GRAPH_NODE_TYPE_OPERATOR;
        d->nodes[i].Desc = &d->operator_nodes[i];
    }
    /* The graph's input goes into node 0; its output comes out of the last
     * node; two nodes are joined by node 0's output to node 1's input. */
    d->input_edge.GraphInputIndex = 0;
    d->input_edge.ToNodeIndex = 0;
    d->input_edge.ToNodeInputIndex = 0;
    d->input_edge.Name = "input";
    d->output_edge.FromNodeIndex = count - 1;
    d->output_edge.FromNodeOutputIndex = 0;
    d->output_edge.GraphOutputIndex = 0;
    d->output_edge.Name = "output";
    d->intermediate_edge.FromNodeIndex = 0;
    d->intermediate_edge.FromNodeOutputIndex = 0;
    d->intermediate_edge.ToNodeIndex = 1;
    d->intermediate_edge.ToNodeInputIndex = 0;
    d->intermediate_edge.Name = "edge";
    d->input_edges[0].Type = DML_GRAPH_EDGE_TYPE_INPUT;
    d->input_edges[0].Desc = &d->input_edge;
    d->output_edges[0].Type = DML_GRAPH_EDGE_TYPE_OUTPUT;
    d->output_edges[0].Desc = &d->output_edge;
    d->intermediate_edges[0].Type = DML_GRAPH_EDGE_TYPE_INTERMEDIATE;
    d->intermediate_edges[0].Desc = &d->intermediate_edge;
    memset(&d->graph_desc, 0, sizeof(d->graph_desc));
    d->graph_desc.InputCount = 1;
    d->graph_desc.OutputCount = 1;
    d->graph_desc.NodeCount = count;
    d->graph_desc.Nodes = d->nodes;
    d->graph_desc.InputEdgeCount = 1;
    d->graph_desc.InputEdges = d->input_edges;
    d->graph_desc.OutputEdgeCount = 1;
    d->graph_desc.OutputEdges = d->output_edges;
    d->graph_desc.IntermediateEdgeCount = d->has_identity ? 1u : 0u;
    d->graph_desc.IntermediateEdges = d->has_identity ? d->intermediate_edges : NULL;
}
