/*
 * From a case's desc to DirectML's: the buffer tensor descs (sizes,
 * strides, total sizes), the cumulative operator's desc, and the graph a
 * path runs it in. Pure C with no device, so it is tested on every
 * platform.
 */
#ifndef DMLCONF_DIRECTML_DESC_H
#define DMLCONF_DIRECTML_DESC_H

#include "directml_api.h"
#include "directml_path.h"

#include <dmlconf/oracle.h>

#include <stdbool.h>
#include <stdint.h>

/* DML_CUMULATIVE_{SUMMATION,PRODUCT}_OPERATOR_DESC with everything it
 * points to. The pointers inside point into the struct itself: do not copy
 * it after directml_desc_build (build it where it stays). */
typedef struct directml_desc
{
    UINT input_sizes[DMLCONF_MAX_DIMENSIONS];
    UINT input_strides[DMLCONF_MAX_DIMENSIONS];
    UINT output_sizes[DMLCONF_MAX_DIMENSIONS];
    UINT output_strides[DMLCONF_MAX_DIMENSIONS];
    DML_BUFFER_TENSOR_DESC input_buffer;
    DML_BUFFER_TENSOR_DESC output_buffer;
    DML_TENSOR_DESC input;
    DML_TENSOR_DESC output;
    DML_CUMULATIVE_OPERATOR_DESC cumulative;
    DML_OPERATOR_DESC op;
} directml_desc;

/* Fills `out` from `desc` exactly as the case gives it, valid or not (a
 * negative case's desc goes to DirectML as written, so that DirectML's own
 * validation judges it): data type, dimension count and sizes; strides
 * only when the case gives them (NULL otherwise: packed); the total size
 * the case gives, or else the minimum size DMLCalcBufferTensorSize
 * computes; the axis, the direction and the exclusive flag. */
void directml_desc_build(const dmlconf_scan_desc *desc, directml_desc *out);

/* TotalTensorSizeInBytes for a tensor: its own total size when it has one,
 * else its minimum size (0 when that cannot be computed). */
uint64_t directml_tensor_total_bytes(const dmlconf_tensor_desc *tensor);

/* What a job executes on its path: the cumulative operator (as the case
 * gives it, or with its input or output packed where a graph's
 * intermediate edge takes their place), the identity operator of a graph
 * with an edge, and the graph. The graph input's tensor carries the owned
 * flag (binding owned-input) and both bound tensors the declared
 * GuaranteedBaseOffsetAlignment (binding offset-aligned). The pointers
 * inside point into the struct itself: build it where it stays. */
typedef struct directml_exec_desc
{
    directml_desc node; /* the cumulative operator as it runs */
    bool graph;         /* compiled with CompileGraph */
    bool has_identity;  /* a graph of two nodes, joined by an intermediate edge */
    UINT edge_sizes[DMLCONF_MAX_DIMENSIONS];
    DML_BUFFER_TENSOR_DESC edge_buffer; /* the intermediate tensor, packed */
    DML_TENSOR_DESC edge;
    DML_BUFFER_TENSOR_DESC outer_buffer; /* the identity's bound tensor: the case's input or output */
    DML_TENSOR_DESC outer;
    UINT outer_sizes[DMLCONF_MAX_DIMENSIONS];
    UINT outer_strides[DMLCONF_MAX_DIMENSIONS];
    DML_SCALE_BIAS scale_bias;
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity;
    DML_OPERATOR_DESC identity_op;
    uint32_t cumulative_node, identity_node; /* node indices in the graph */

    /* Filled by directml_exec_desc_graph. */
    DML_OPERATOR_GRAPH_NODE_DESC operator_nodes[2];
    DML_GRAPH_NODE_DESC nodes[2];
    DML_INPUT_GRAPH_EDGE_DESC input_edge;
    DML_OUTPUT_GRAPH_EDGE_DESC output_edge;
    DML_INTERMEDIATE_GRAPH_EDGE_DESC intermediate_edge;
    DML_GRAPH_EDGE_DESC input_edges[1], output_edges[1], intermediate_edges[1];
    DML_GRAPH_DESC graph_desc;
} directml_exec_desc;

/* Builds what `desc` executes as on `path`: for graph none or alone, the
 * case's operator; for input-edge, identity(case input -> packed edge) then
 * the operator on the edge; for output-edge, the operator onto the packed
 * edge then identity(edge -> case output). The fault inexact-edge gives the
 * identity a scale of 1 and a bias of 1. */
void directml_exec_desc_build(const dmlconf_scan_desc *desc, const directml_path *path, directml_exec_desc *out);

/* Fills in the graph desc of a built exec desc (graph true) from its
 * created operators (`identity` NULL unless has_identity): nodes, the one
 * input edge, the one output edge and the intermediate edge between two
 * nodes. */
void directml_exec_desc_graph(directml_exec_desc *d, IDMLOperator *cumulative, IDMLOperator *identity);

#endif /* DMLCONF_DIRECTML_DESC_H */
