/*
 * The path a directml run takes, from the environment.
 */
#include "directml_path.h"

#include "directml_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct word
{
    const char *name;
    uint32_t value;
} word;

static const word flag_words[] = {
    {"half-precision", DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION},
    {"disable-meta-commands", DML_EXECUTION_FLAG_DISABLE_META_COMMANDS},
    {"descriptors-volatile", DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE},
};

static const word graph_words[] = {
    {"none", DIRECTML_GRAPH_NONE},
    {"alone", DIRECTML_GRAPH_ALONE},
    {"input-edge", DIRECTML_GRAPH_INPUT_EDGE},
    {"output-edge", DIRECTML_GRAPH_OUTPUT_EDGE},
};

static const word binding_words[] = {
    {"offset-aligned", DIRECTML_BINDING_OFFSET_ALIGNED},
    {"offset-minimum", DIRECTML_BINDING_OFFSET_MINIMUM},
    {"owned-input", DIRECTML_BINDING_OWNED_INPUT},
    {"repeat", DIRECTML_BINDING_REPEAT},
    {"shared-initializer", DIRECTML_BINDING_SHARED_INITIALIZER},
};

static const word fault_words[] = {
    {"none", DIRECTML_FAULT_NONE},
    {"ignore-offset", DIRECTML_FAULT_IGNORE_OFFSET},
    {"stray-write", DIRECTML_FAULT_STRAY_WRITE},
    {"owned-unbound", DIRECTML_FAULT_OWNED_UNBOUND},
    {"inexact-edge", DIRECTML_FAULT_INEXACT_EDGE},
    {"late-binding-skipped", DIRECTML_FAULT_LATE_BINDING_SKIPPED},
    {"repeat-changed-input", DIRECTML_FAULT_REPEAT_CHANGED_INPUT},
};

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* "a, b or c" from a word list, with `extra` first when given. */
static void list_words(const word *words, size_t count, const char *extra, char *text, size_t size)
{
    size_t used = 0;
    size_t total = count + (extra ? 1 : 0);
    text[0] = '\0';
    for (size_t i = 0; i < total && used < size; ++i)
    {
        const char *name = extra ? (i == 0 ? extra : words[i - 1].name) : words[i].name;
        const char *separator = i == 0 ? "" : (i + 1 == total ? " or " : ", ");
        int written = snprintf(text + used, size - used, "%s%s", separator, name);
        if (written < 0)
            break;
        used += (size_t)written;
    }
}

static bool find_word(const word *words, size_t count, const char *name, size_t length, uint32_t *value)
{
    for (size_t i = 0; i < count; ++i)
    {
        if (strlen(words[i].name) == length && !strncmp(words[i].name, name, length))
        {
            *value = words[i].value;
            return true;
        }
    }
    return false;
}

/* Parses "w1+w2+..." (or `empty_word` alone, or nothing) into a set. */
static int parse_set(const char *variable, const char *value, const word *words, size_t count, const char *empty_word,
                     uint32_t *out, char *why, size_t why_size)
{
    *out = 0;
    if (!value || !*value || !strcmp(value, empty_word))
        return 0;
    const char *at = value;
    for (;;)
    {
        const char *plus = strchr(at, '+');
        size_t length = plus ? (size_t)(plus - at) : strlen(at);
        uint32_t bit = 0;
        if (!find_word(words, count, at, length, &bit))
        {
            char known[256];
            list_words(words, count, empty_word, known, sizeof(known));
            snprintf(why, why_size, "%s=%s: '%.*s' is not one of %s (join several with '+')", variable, value,
                     (int)length, at, known);
            return -1;
        }
        *out |= bit;
        if (!plus)
            return 0;
        at = plus + 1;
    }
}

static int parse_one(const char *variable, const char *value, const word *words, size_t count, uint32_t *out, char *why,
                     size_t why_size)
{
    *out = 0;
    if (!value || !*value)
        return 0;
    if (find_word(words, count, value, strlen(value), out))
        return 0;
    char known[256];
    list_words(words, count, NULL, known, sizeof(known));
    snprintf(why, why_size, "%s=%s: not one of %s", variable, value, known);
    return -1;
}

int directml_path_parse_flags(const char *value, uint32_t *flags, char *why, size_t why_size)
{
    return parse_set("DMLCONF_DIRECTML_FLAGS", value, flag_words, COUNT(flag_words), "none", flags, why, why_size);
}

int directml_path_parse_graph(const char *value, directml_graph *graph, char *why, size_t why_size)
{
    uint32_t parsed = 0;
    int result = parse_one("DMLCONF_DIRECTML_GRAPH", value, graph_words, COUNT(graph_words), &parsed, why, why_size);
    *graph = (directml_graph)parsed;
    return result;
}

int directml_path_parse_binding(const char *value, uint32_t *binding, char *why, size_t why_size)
{
    if (parse_set("DMLCONF_DIRECTML_BINDING", value, binding_words, COUNT(binding_words), "default", binding, why,
                  why_size))
        return -1;
    const uint32_t both = DIRECTML_BINDING_OFFSET_ALIGNED | DIRECTML_BINDING_OFFSET_MINIMUM;
    if ((*binding & both) == both)
    {
        snprintf(why, why_size,
                 "DMLCONF_DIRECTML_BINDING=%s: offset-aligned and offset-minimum are two placements of the same "
                 "tensors; choose one",
                 value);
        return -1;
    }
    return 0;
}

int directml_path_parse_fault(const char *value, directml_fault *fault, char *why, size_t why_size)
{
    uint32_t parsed = 0;
    int result = parse_one("DMLCONF_DIRECTML_FAULT", value, fault_words, COUNT(fault_words), &parsed, why, why_size);
    *fault = (directml_fault)parsed;
    return result;
}

bool directml_path_offsets(const directml_path *path)
{
    return (path->binding & (DIRECTML_BINDING_OFFSET_ALIGNED | DIRECTML_BINDING_OFFSET_MINIMUM)) != 0;
}

uint32_t directml_path_tensor_alignment(const directml_path *path)
{
    if (path->binding & DIRECTML_BINDING_OFFSET_ALIGNED)
        return DIRECTML_DECLARED_ALIGNMENT;
    if (path->binding & DIRECTML_BINDING_OFFSET_MINIMUM)
        return DIRECTML_MINIMUM_ALIGNMENT;
    return DML_TEMPORARY_BUFFER_ALIGNMENT;
}

uint32_t directml_path_declared_alignment(const directml_path *path)
{
    return (path->binding & DIRECTML_BINDING_OFFSET_ALIGNED) ? DIRECTML_DECLARED_ALIGNMENT : 0u;
}

/* What a fault needs of the path to mean anything: a fault planted where
 * its plumbing is not used would prove nothing. */
static const char *fault_needs(const directml_path *path)
{
    switch (path->fault)
    {
    case DIRECTML_FAULT_IGNORE_OFFSET:
    case DIRECTML_FAULT_STRAY_WRITE:
        return directml_path_offsets(path) ? NULL : "an offset binding (offset-aligned or offset-minimum)";
    case DIRECTML_FAULT_OWNED_UNBOUND:
        return (path->binding & DIRECTML_BINDING_OWNED_INPUT) ? NULL : "the binding owned-input";
    case DIRECTML_FAULT_INEXACT_EDGE:
        return path->graph == DIRECTML_GRAPH_INPUT_EDGE || path->graph == DIRECTML_GRAPH_OUTPUT_EDGE
                   ? NULL
                   : "a graph with an edge (input-edge or output-edge)";
    case DIRECTML_FAULT_LATE_BINDING_SKIPPED:
        return (path->execution_flags & DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE) ? NULL
                                                                                 : "the flag descriptors-volatile";
    case DIRECTML_FAULT_REPEAT_CHANGED_INPUT:
        return (path->binding & DIRECTML_BINDING_REPEAT) ? NULL : "the binding repeat";
    case DIRECTML_FAULT_NONE:
    case DIRECTML_FAULT_COUNT:
        break;
    }
    return NULL;
}

int directml_path_from_environment(directml_path *path, char *why, size_t why_size)
{
    memset(path, 0, sizeof(*path));
    if (directml_path_parse_flags(getenv("DMLCONF_DIRECTML_FLAGS"), &path->execution_flags, why, why_size) ||
        directml_path_parse_graph(getenv("DMLCONF_DIRECTML_GRAPH"), &path->graph, why, why_size) ||
        directml_path_parse_binding(getenv("DMLCONF_DIRECTML_BINDING"), &path->binding, why, why_size) ||
        directml_path_parse_fault(getenv("DMLCONF_DIRECTML_FAULT"), &path->fault, why, why_size))
        return -1;
    const char *needs = fault_needs(path);
    if (needs)
    {
        snprintf(why, why_size,
                 "DMLCONF_DIRECTML_FAULT=%s plants a fault in the plumbing of %s, which this path "
                 "does not use",
                 getenv("DMLCONF_DIRECTML_FAULT"), needs);
        return -1;
    }
    return 0;
}

/* Appends the words of the set bits of `set` joined by '+', or `empty`. */
static size_t describe_set(const word *words, size_t count, uint32_t set, const char *empty, char *text, size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < count; ++i)
    {
        if (!(set & words[i].value))
            continue;
        int written = snprintf(text + used, size - used, "%s%s", used ? "+" : "", words[i].name);
        if (written < 0 || (size_t)written >= size - used)
            return size - 1;
        used += (size_t)written;
    }
    if (!used)
        used = (size_t)snprintf(text, size, "%s", empty);
    return used;
}

char *directml_path_describe(const directml_path *path, char *text, size_t size)
{
    char flags[128], binding[128];
    describe_set(flag_words, COUNT(flag_words), path->execution_flags, "none", flags, sizeof(flags));
    describe_set(binding_words, COUNT(binding_words), path->binding, "default", binding, sizeof(binding));
    const char *graph = "none";
    for (size_t i = 0; i < COUNT(graph_words); ++i)
        if (graph_words[i].value == (uint32_t)path->graph)
            graph = graph_words[i].name;
    int written = snprintf(text, size, "flags %s, graph %s, binding %s", flags, graph, binding);
    if (path->fault != DIRECTML_FAULT_NONE && written > 0 && (size_t)written < size)
    {
        for (size_t i = 0; i < COUNT(fault_words); ++i)
            if (fault_words[i].value == (uint32_t)path->fault)
                snprintf(text + written, size - (size_t)written, ", fault %s planted", fault_words[i].name);
    }
    return text;
}
