/*
 * dmlconf's own small YAML files other than case files (a suite file of
 * runs, read by runners/cli), read whole into a tree of nodes with the case
 * loader's standards: a size limit, UTF-8 text only, no anchors, aliases,
 * tags or directives, limited nesting and scalars, one document, no key
 * given twice in a mapping, and every problem a diagnostic at its
 * file:line:column with the source line and a caret under the column. Each
 * node keeps the mark where it starts, so that the reader of the tree
 * reports its own errors (a wrong type, an unknown key) at the exact token,
 * with dmlconf_yaml_file_error.
 *
 * A tree owns all its memory; nothing here keeps global state.
 */
#ifndef DMLCONF_YAML_TREE_H
#define DMLCONF_YAML_TREE_H

#include <dmlconf/case.h>
#include <dmlconf/compiler.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Default limits (dmlconf_yaml_limits). */
#define DMLCONF_YAML_MAX_FILE_BYTES   (UINT64_C(1) << 20)
#define DMLCONF_YAML_MAX_DEPTH        16u
#define DMLCONF_YAML_MAX_SCALAR_BYTES (64u << 10)
#define DMLCONF_YAML_MAX_NODES        100000u
#define DMLCONF_YAML_MAX_ERRORS       100u

/* What a file may hold; a field left 0 takes its default above. */
typedef struct dmlconf_yaml_limits
{
    uint64_t max_file_bytes;
    uint32_t max_depth; /* collections inside collections */
    uint32_t max_scalar_bytes;
    uint32_t max_nodes;
    uint32_t max_errors; /* errors reported before a note says the rest were not */
} dmlconf_yaml_limits;

typedef enum dmlconf_yaml_kind
{
    DMLCONF_YAML_SCALAR,
    DMLCONF_YAML_SEQUENCE,
    DMLCONF_YAML_MAPPING,
} dmlconf_yaml_kind;

typedef struct dmlconf_yaml_node dmlconf_yaml_node;

/* One node. A scalar's text is NUL-terminated and `length` bytes long (a
 * double-quoted "\0" puts a NUL inside it: compare length with strlen to
 * refuse one); `plain` says it was written without quotes or a block
 * indicator, so that `true` and "true" differ. A sequence has `count`
 * items; a mapping `count` pairs, keys[i] (always a scalar) and items[i],
 * in the order written. */
struct dmlconf_yaml_node
{
    dmlconf_yaml_kind kind;
    dmlconf_mark mark;
    const char *text;
    size_t length;
    bool plain;
    size_t count;
    dmlconf_yaml_node **items;
    dmlconf_yaml_node **keys;
};

typedef struct dmlconf_yaml_file dmlconf_yaml_file;

/* Reads `path` (a regular file of at most limits->max_file_bytes; limits
 * may be NULL for the defaults). Every problem is added to `diagnostics`
 * as an error at its place. Returns 0 with *out set (free it with
 * dmlconf_yaml_file_free) when the file is well-formed YAML within the
 * limits: its root is NULL for an empty document. Returns -1 with *out
 * NULL when it is not (one or more errors added), or when memory runs out
 * (said as an error too). */
int dmlconf_yaml_file_read(const char *path, const dmlconf_yaml_limits *limits, dmlconf_diagnostics *diagnostics,
                           dmlconf_yaml_file **out);

/* The same for `size` bytes of text in memory, named `path` in the
 * diagnostics (the text is copied). */
int dmlconf_yaml_file_read_buffer(const char *path, const void *text, size_t size, const dmlconf_yaml_limits *limits,
                                  dmlconf_diagnostics *diagnostics, dmlconf_yaml_file **out);

/* The document's root node, or NULL when the document is empty. */
const dmlconf_yaml_node *dmlconf_yaml_file_root(const dmlconf_yaml_file *file);

/* The path the file was read as. */
const char *dmlconf_yaml_file_path(const dmlconf_yaml_file *file);

/* Adds an error at `mark` of the file (line 0: the file as a whole) with
 * the source line and a caret under the column, and, when related_label is
 * not NULL, the related place "(<related_label> path:line:column)". After
 * the limit's number of errors one note says the rest were not reported,
 * and later errors are only counted. Returns 0, or -1 when memory ran out
 * (the diagnostics still count an error). */
int dmlconf_yaml_file_error(dmlconf_yaml_file *file, dmlconf_diagnostics *diagnostics, dmlconf_mark mark,
                            const char *related_label, dmlconf_mark related, const char *format, ...)
    DMLCONF_PRINTF_LIKE(6, 7);

/* Whether a node is YAML's null: an empty plain scalar, "~", "null", "Null"
 * or "NULL" (a mapping key written with no value reads so). NULL is not a
 * node, and is not null either. */
bool dmlconf_yaml_node_is_null(const dmlconf_yaml_node *node);

/* "a scalar", "an empty value", "a list", "a mapping": what a node is, for
 * "expected a list, found a mapping". */
const char *dmlconf_yaml_node_kind_name(const dmlconf_yaml_node *node);

/* Frees the tree. NULL is ignored. */
void dmlconf_yaml_file_free(dmlconf_yaml_file *file);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_YAML_TREE_H */
