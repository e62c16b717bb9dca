/*
 * The path a directml run takes to DirectML's operator, chosen by three
 * environment variables (set by `dmlconf run --directml-flags`,
 * `--directml-graph` and `--directml-binding`, recorded in every run's
 * identity and reproduce line), and the deliberate faults the backend's own
 * tests plant in its plumbing:
 *
 *   DMLCONF_DIRECTML_FLAGS    the execution flags CompileOperator or
 *                             CompileGraph gets: none, or half-precision,
 *                             disable-meta-commands, descriptors-volatile,
 *                             joined by '+';
 *   DMLCONF_DIRECTML_GRAPH    none (the operator compiled alone), alone (a
 *                             graph of the one operator), input-edge (an
 *                             identity feeds the operator's input through an
 *                             intermediate edge), output-edge (the operator's
 *                             output feeds an identity);
 *   DMLCONF_DIRECTML_BINDING  default (each tensor and resource in its own
 *                             256-byte-aligned region of a shared buffer),
 *                             or one of offset-aligned and offset-minimum
 *                             (tensors at odd multiples of a declared
 *                             GuaranteedBaseOffsetAlignment, or of the
 *                             minimum 16 bytes with none declared, canary
 *                             bytes between and around them) and any of
 *                             owned-input (the input flagged OWNED_BY_DML and
 *                             bound only at initialization), repeat (two
 *                             dispatches per command list, the list executed
 *                             twice, resources reused) and shared-initializer
 *                             (one initializer for a batch's operators),
 *                             joined by '+';
 *   DMLCONF_DIRECTML_FAULT    a fault planted in the plumbing, for the tests
 *                             that prove the checks see it (never in a real
 *                             run).
 *
 * Pure C with no device, tested on every platform.
 */
#ifndef DMLCONF_DIRECTML_PATH_H
#define DMLCONF_DIRECTML_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum directml_graph
{
    DIRECTML_GRAPH_NONE,
    DIRECTML_GRAPH_ALONE,
    DIRECTML_GRAPH_INPUT_EDGE,
    DIRECTML_GRAPH_OUTPUT_EDGE,
} directml_graph;

/* The binding's parts (a set). */
enum
{
    DIRECTML_BINDING_OFFSET_ALIGNED = 1u << 0,
    DIRECTML_BINDING_OFFSET_MINIMUM = 1u << 1,
    DIRECTML_BINDING_OWNED_INPUT = 1u << 2,
    DIRECTML_BINDING_REPEAT = 1u << 3,
    DIRECTML_BINDING_SHARED_INITIALIZER = 1u << 4,
};

/* The faults (DMLCONF_DIRECTML_FAULT), one at a time. */
typedef enum directml_fault
{
    DIRECTML_FAULT_NONE,
    DIRECTML_FAULT_IGNORE_OFFSET,        /* tensors bound at offset 0 of the shared buffer, not at theirs */
    DIRECTML_FAULT_STRAY_WRITE,          /* a byte written into the canary after each job's output */
    DIRECTML_FAULT_OWNED_UNBOUND,        /* an owned input not bound at initialization */
    DIRECTML_FAULT_INEXACT_EDGE,         /* the graph's identity adds 1 (scale 1, bias 1) */
    DIRECTML_FAULT_LATE_BINDING_SKIPPED, /* descriptors-volatile: the real bindings never made */
    DIRECTML_FAULT_REPEAT_CHANGED_INPUT, /* repeat: the input changed between the two executions */
    DIRECTML_FAULT_COUNT
} directml_fault;

/* The GuaranteedBaseOffsetAlignment offset-aligned declares, and the
 * alignment DirectML requires of every buffer tensor's offset. */
#define DIRECTML_DECLARED_ALIGNMENT 64u
#define DIRECTML_MINIMUM_ALIGNMENT  16u

typedef struct directml_path
{
    uint32_t execution_flags; /* DML_EXECUTION_FLAG_* */
    directml_graph graph;
    uint32_t binding; /* DIRECTML_BINDING_* */
    directml_fault fault;
} directml_path;

/* Reads the path from the environment (unset or empty variables: the
 * default path, flags none). Returns 0, or -1 with one sentence in `why`
 * naming the variable, the word it does not know and the words it takes. */
int directml_path_from_environment(directml_path *path, char *why, size_t why_size);

/* Parses one variable's value into the path (`name` is the variable's name,
 * for the message). Returns 0, or -1 with `why`. */
int directml_path_parse_flags(const char *value, uint32_t *flags, char *why, size_t why_size);
int directml_path_parse_graph(const char *value, directml_graph *graph, char *why, size_t why_size);
int directml_path_parse_binding(const char *value, uint32_t *binding, char *why, size_t why_size);
int directml_path_parse_fault(const char *value, directml_fault *fault, char *why, size_t why_size);

/* The path in words, as the options take them: "flags half-precision+
 * descriptors-volatile, graph input-edge, binding offset-minimum+repeat"
 * (the default parts included: "flags none, graph none, binding
 * default"), and the fault when one is planted. Returns `text`. */
char *directml_path_describe(const directml_path *path, char *text, size_t size);

/* Whether the binding places tensors at offsets of its own (offset-aligned
 * or offset-minimum), with canaries between and around them. */
bool directml_path_offsets(const directml_path *path);

/* The alignment of tensor offsets the binding uses (the declared one, the
 * minimum, or 256 for the default binding), and the
 * GuaranteedBaseOffsetAlignment the tensor descs declare (0: none). */
uint32_t directml_path_tensor_alignment(const directml_path *path);
uint32_t directml_path_declared_alignment(const directml_path *path);

#endif /* DMLCONF_DIRECTML_PATH_H */
