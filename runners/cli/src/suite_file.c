/*
 * suite_file.c: a suite file read into the command line of each of its
 * runs (suite_file.h), over the case loader's YAML tree, every problem a
 * diagnostic at its place.
 */
#include "suite_file.h"

#include <dmlconf/file_system.h>
#include <dmlconf/integer_text.h>
#include <dmlconf/oracle.h>
#include <dmlconf/reserve.h>
#include <dmlconf/text.h>
#include <dmlconf/yaml_tree.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a key's value must be. */
typedef enum key_kind
{
    KEY_WORD,    /* a scalar, passed as it is */
    KEY_PATH,    /* a scalar, a path from the suite's folder */
    KEY_LEVEL,   /* a feature level */
    KEY_COUNT,   /* a whole number in [min, max] */
    KEY_BYTES,   /* a number of bytes, "4G": checked by run */
    KEY_FLAG,    /* true: the option */
    KEY_NOT,     /* false: the option */
    KEY_WORDS,   /* a list of scalars (or one), the option before each */
    KEY_PATHS,   /* the same, paths from the suite's folder */
    KEY_OPERANDS, /* paths, the run's operands */
    KEY_COMMAND   /* a list of words: "--" and the command */
} key_kind;

typedef struct run_key
{
    const char *name;
    const char *option; /* the option of `dmlconf run` it gives */
    key_kind kind;
    uint64_t min, max; /* KEY_COUNT */
} run_key;

/* In the order their options are given to `dmlconf run`. */
static const run_key run_keys[] = {
    {"backend", "--backend", KEY_WORD, 0, 0},
    {"adapter", "--adapter", KEY_WORD, 0, 0},
    {"feature_level", "--feature-level", KEY_LEVEL, 0, 0},
    {"filters", "--filter", KEY_WORDS, 0, 0},
    {"caselists", "--caselist", KEY_PATHS, 0, 0},
    {"rerun_failures", "--rerun-failures", KEY_PATH, 0, 0},
    {"baseline", "--baseline", KEY_PATH, 0, 0},
    {"strict_baseline", "--strict-baseline", KEY_FLAG, 0, 0},
    {"flakes", "--flakes", KEY_PATH, 0, 0},
    {"jobs", "--jobs", KEY_COUNT, 0, 1024},
    {"timeout", "--timeout", KEY_COUNT, 0, 86400},
    {"seed", "--seed", KEY_COUNT, 0, UINT64_MAX},
    {"memory_limit", "--memory-limit", KEY_BYTES, 0, 0},
    {"junit_max_bytes", "--junit-max-bytes", KEY_BYTES, 0, 0},
    {"rerun", "--no-rerun", KEY_NOT, 0, 0},
    {"repro", "--no-repro", KEY_NOT, 0, 0},
    {"directml_dll", "--directml-dll", KEY_PATH, 0, 0},
    {"directml_flags", "--directml-flags", KEY_WORD, 0, 0},
    {"directml_graph", "--directml-graph", KEY_WORD, 0, 0},
    {"directml_binding", "--directml-binding", KEY_WORD, 0, 0},
    {"paths", NULL, KEY_OPERANDS, 0, 0},
    {"command", NULL, KEY_COMMAND, 0, 0},
};
#define RUN_KEY_COUNT (sizeof(run_keys) / sizeof(run_keys[0]))

typedef struct reader
{
    dmlconf_yaml_file *yaml;
    dmlconf_diagnostics *diagnostics;
    char *folder; /* the suite file's */
    bool failed;
    bool out_of_memory;
} reader;

static void error_at(reader *r, const dmlconf_yaml_node *node, const char *format, ...) DMLCONF_PRINTF_LIKE(3, 4);
static void error_at(reader *r, const dmlconf_yaml_node *node, const char *format, ...)
{
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof(message), format, args);
    va_end(args);
    dmlconf_mark none = {0, 0, 0};
    if (dmlconf_yaml_file_error(r->yaml, r->diagnostics, node ? node->mark : none, NULL, none, "%s", message))
        r->out_of_memory = true;
    r->failed = true;
}

/* A scalar that is text (not null, no NUL inside), or NULL with an error. */
static const char *scalar_text(reader *r, const dmlconf_yaml_node *node, const char *key)
{
    if (node->kind != DMLCONF_YAML_SCALAR || dmlconf_yaml_node_is_null(node))
    {
        error_at(r, node, "'%s' takes a value, not %s", key, dmlconf_yaml_node_kind_name(node));
        return NULL;
    }
    if (strlen(node->text) != node->length || node->length == 0)
    {
        error_at(r, node, "'%s' takes a non-empty text without NUL characters", key);
        return NULL;
    }
    return node->text;
}

static const run_key *find_key(const char *name)
{
    for (size_t k = 0; k < RUN_KEY_COUNT; ++k)
    {
        if (!strcmp(run_keys[k].name, name))
            return &run_keys[k];
    }
    return NULL;
}

/* The words a run's command line is built from, in order. */
typedef struct word_list
{
    char **words;
    size_t count, capacity;
} word_list;

static void add_word(reader *r, word_list *list, const char *word)
{
    char *copy = dmlconf_strdup(word);
    if (!copy || !dmlconf_reserve((void **)&list->words, &list->capacity, list->count + 1, sizeof(*list->words)))
    {
        free(copy);
        r->out_of_memory = r->failed = true;
        return;
    }
    list->words[list->count++] = copy;
}

static void add_path(reader *r, word_list *list, const char *path)
{
    char *resolved = dmlconf_path_resolve(r->folder, path);
    if (!resolved)
    {
        r->out_of_memory = r->failed = true;
        return;
    }
    add_word(r, list, resolved);
    free(resolved);
}

static void free_words(word_list *list)
{
    for (size_t i = 0; i < list->count; ++i)
        free(list->words[i]);
    free(list->words);
    memset(list, 0, sizeof(*list));
}

/* A boolean: the plain scalars true and false only. Returns 0, 1, or -1
 * with an error. */
static int flag_value(reader *r, const dmlconf_yaml_node *node, const char *key)
{
    if (node->kind == DMLCONF_YAML_SCALAR && node->plain && !strcmp(node->text, "true"))
        return 1;
    if (node->kind == DMLCONF_YAML_SCALAR && node->plain && !strcmp(node->text, "false"))
        return 0;
    error_at(r, node, "'%s' takes true or false", key);
    return -1;
}

/* Adds the words of a list value's scalars (or of the one scalar given
 * instead of a list) to `out`: each after the key's option, a path taken
 * from the suite's folder, or a command's words as they are. */
static void each_item(reader *r, const dmlconf_yaml_node *value, const run_key *key, word_list *out, bool command)
{
    const dmlconf_yaml_node *const *items = &value;
    size_t count = 1;
    if (value->kind == DMLCONF_YAML_SEQUENCE)
    {
        items = (const dmlconf_yaml_node *const *)value->items;
        count = value->count;
        if (count == 0)
        {
            error_at(r, value, "'%s' takes one or more values, not an empty list", key->name);
            return;
        }
    }
    else if (command)
    {
        error_at(r, value, "'command' takes a list: the program and its arguments, e.g. [python3, adapter.py]");
        return;
    }
    for (size_t i = 0; i < count; ++i)
    {
        const char *text = scalar_text(r, items[i], key->name);
        if (!text)
            continue;
        if (command)
        {
            /* The program is a path from the suite's folder when it names
             * a folder; otherwise it is searched for in PATH. */
            if (i == 0 && (strchr(text, '/') || strchr(text, '\\')))
                add_path(r, out, text);
            else
                add_word(r, out, text);
            continue;
        }
        if (key->option)
            add_word(r, out, key->option);
        if (key->kind == KEY_WORDS)
            add_word(r, out, text);
        else
            add_path(r, out, text);
    }
}

/* Adds the words of one key's value to `options` (or `operands`,
 * `command`). */
static void take_key(reader *r, const run_key *key, const dmlconf_yaml_node *value, word_list *options,
                     word_list *operands, word_list *command)
{
    const char *text;
    uint64_t number;
    dmlconf_feature_level level;
    switch (key->kind)
    {
    case KEY_WORDS:
    case KEY_PATHS:
        each_item(r, value, key, options, false);
        return;
    case KEY_OPERANDS:
        each_item(r, value, key, operands, false);
        return;
    case KEY_COMMAND:
        each_item(r, value, key, command, true);
        return;
    case KEY_FLAG:
    case KEY_NOT:
    {
        int flag = flag_value(r, value, key->name);
        if (flag == (key->kind == KEY_FLAG ? 1 : 0))
            add_word(r, options, key->option);
        return;
    }
    default:
        break;
    }
    if (!(text = scalar_text(r, value, key->name)))
        return;
    switch (key->kind)
    {
    case KEY_LEVEL:
        if (!dmlconf_feature_level_from_name(text, &level))
        {
            error_at(r, value, "'%s' is not a feature level (1_0 to 6_4)", text);
            return;
        }
        break;
    case KEY_COUNT:
        if (!dmlconf_parse_u64(text, key->min, key->max, &number))
        {
            error_at(r, value, "'%s' takes a whole number from %llu to %llu, not '%s'", key->name,
                     (unsigned long long)key->min, (unsigned long long)key->max, text);
            return;
        }
        break;
    default:
        break;
    }
    add_word(r, options, key->option);
    if (key->kind == KEY_PATH)
        add_path(r, options, text);
    else
        add_word(r, options, text);
}

/* A mapping of run keys (a run, or the defaults): which key each run_keys
 * entry is given by, checked for unknown keys. */
static void find_run_keys(reader *r, const dmlconf_yaml_node *mapping, const dmlconf_yaml_node *given[RUN_KEY_COUNT],
                          const dmlconf_yaml_node **name, bool is_defaults)
{
    for (size_t i = 0; i < mapping->count; ++i)
    {
        const char *key = mapping->keys[i]->text;
        if (!strcmp(key, "name") && !is_defaults)
        {
            *name = mapping->items[i];
            continue;
        }
        const run_key *known = find_key(key);
        if (!known)
        {
            /* The keys it could be, from the table itself. */
            char keys[512];
            dmlconf_text list = {keys, sizeof(keys), 0};
            for (size_t k = 0; k < RUN_KEY_COUNT; ++k)
                dmlconf_text_appendf(&list, "%s%s", k ? ", " : "", run_keys[k].name);
            error_at(r, mapping->keys[i], "unknown key '%s' in %s (%s %s)", key, is_defaults ? "the defaults" : "a run",
                     is_defaults ? "the defaults take" : "a run takes name and", keys);
            continue;
        }
        given[known - run_keys] = mapping->items[i];
    }
}

/* Whether a name can be a folder's: [A-Za-z0-9._-], not "." or "..". */
static bool good_name(const char *name, size_t length)
{
    if (length == 0 || length > SUITE_NAME_MAX || !strcmp(name, ".") || !strcmp(name, ".."))
        return false;
    for (size_t i = 0; i < length; ++i)
    {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
              c == '-'))
            return false;
    }
    return true;
}

/* Reads one run of the list into *run, the defaults filling the keys it
 * does not set. */
static void read_run(reader *r, const dmlconf_yaml_node *node, const dmlconf_yaml_node *const defaults[RUN_KEY_COUNT],
                     const suite_run *earlier, size_t earlier_count, suite_run *run)
{
    run->mark = node->mark;
    if (node->kind != DMLCONF_YAML_MAPPING)
    {
        error_at(r, node, "a run is a mapping of keys (name, backend, ...), not %s", dmlconf_yaml_node_kind_name(node));
        return;
    }
    const dmlconf_yaml_node *given[RUN_KEY_COUNT] = {0}, *name = NULL;
    find_run_keys(r, node, given, &name, false);
    if (!name)
        error_at(r, node, "a run needs a name (its report folder's)");
    else if (name->kind != DMLCONF_YAML_SCALAR || !good_name(name->text, name->length))
    {
        char what[96];
        if (name->kind == DMLCONF_YAML_SCALAR)
            snprintf(what, sizeof(what), "'%s'", name->text);
        else
            snprintf(what, sizeof(what), "%s", dmlconf_yaml_node_kind_name(name));
        dmlconf_text_make_printable(what, false);
        error_at(r, name, "a run's name is 1 to %d letters, digits, '.', '_' or '-' (a folder's name), not %s",
                 SUITE_NAME_MAX, what);
    }
    else
    {
        snprintf(run->name, sizeof(run->name), "%s", name->text);
        for (size_t e = 0; e < earlier_count; ++e)
        {
            if (!strcmp(earlier[e].name, run->name))
            {
                if (dmlconf_yaml_file_error(r->yaml, r->diagnostics, name->mark, "first named at", earlier[e].mark,
                                            "two runs are named '%s' (each run has a report folder of its own)",
                                            run->name))
                    r->out_of_memory = true;
                r->failed = true;
                break;
            }
        }
    }
    word_list options = {0}, operands = {0}, command = {0};
    for (size_t k = 0; k < RUN_KEY_COUNT; ++k)
    {
        const dmlconf_yaml_node *value = given[k] ? given[k] : defaults[k];
        if (value)
            take_key(r, &run_keys[k], value, &options, &operands, &command);
    }
    for (size_t i = 0; i < operands.count; ++i)
        add_word(r, &options, operands.words[i]);
    if (command.count)
    {
        add_word(r, &options, "--");
        for (size_t i = 0; i < command.count; ++i)
            add_word(r, &options, command.words[i]);
    }
    free_words(&operands);
    free_words(&command);
    run->arguments = options.words;
    run->argument_count = options.count;
}

/* Reads the root mapping: defaults, then runs. */
static void read_root(reader *r, const dmlconf_yaml_node *root, suite_file *suite)
{
    if (!root)
    {
        error_at(r, NULL, "the suite file is empty: it needs 'runs', a list of runs");
        return;
    }
    if (root->kind != DMLCONF_YAML_MAPPING)
    {
        error_at(r, root, "a suite file is a mapping with 'runs' (and 'defaults'), not %s",
                 dmlconf_yaml_node_kind_name(root));
        return;
    }
    const dmlconf_yaml_node *runs = NULL, *defaults_node = NULL;
    for (size_t i = 0; i < root->count; ++i)
    {
        const char *key = root->keys[i]->text;
        if (!strcmp(key, "runs"))
            runs = root->items[i];
        else if (!strcmp(key, "defaults"))
            defaults_node = root->items[i];
        else
            error_at(r, root->keys[i], "unknown key '%s' (a suite file has 'runs' and 'defaults')", key);
    }
    const dmlconf_yaml_node *defaults[RUN_KEY_COUNT] = {0};
    if (defaults_node)
    {
        if (defaults_node->kind != DMLCONF_YAML_MAPPING)
            error_at(r, defaults_node, "'defaults' is a mapping of run keys, not %s",
                     dmlconf_yaml_node_kind_name(defaults_node));
        else
            find_run_keys(r, defaults_node, defaults, NULL, true);
    }
    if (!runs)
    {
        error_at(r, root, "the suite file has no 'runs' (a list of runs, each with a name)");
        return;
    }
    if (runs->kind != DMLCONF_YAML_SEQUENCE || runs->count == 0)
    {
        error_at(r, runs, "'runs' is a list of one or more runs, not %s",
                 runs->kind == DMLCONF_YAML_SEQUENCE ? "an empty list" : dmlconf_yaml_node_kind_name(runs));
        return;
    }
    suite->runs = calloc(runs->count, sizeof(*suite->runs));
    if (!suite->runs)
    {
        r->out_of_memory = r->failed = true;
        return;
    }
    for (size_t i = 0; i < runs->count; ++i)
    {
        read_run(r, runs->items[i], defaults, suite->runs, i, &suite->runs[i]);
        suite->run_count = i + 1;
    }
}

int suite_file_read(const char *path, suite_file *suite, dmlconf_diagnostics *diagnostics)
{
    memset(suite, 0, sizeof(*suite));
    reader r = {0};
    r.diagnostics = diagnostics;
    if (dmlconf_yaml_file_read(path, NULL, diagnostics, &r.yaml))
        return -1;
    r.folder = dmlconf_path_folder(path);
    suite->path = dmlconf_strdup(path);
    if (!r.folder || !suite->path)
        r.out_of_memory = r.failed = true;
    else
        read_root(&r, dmlconf_yaml_file_root(r.yaml), suite);
    if (r.out_of_memory)
        dmlconf_diagnostics_add(diagnostics, DMLCONF_SEVERITY_ERROR, path, 0, 0, "out of memory");
    dmlconf_yaml_file_free(r.yaml);
    free(r.folder);
    if (r.failed)
    {
        suite_file_free(suite);
        return -1;
    }
    return 0;
}

void suite_file_free(suite_file *suite)
{
    for (size_t i = 0; i < suite->run_count; ++i)
    {
        for (size_t a = 0; a < suite->runs[i].argument_count; ++a)
            free(suite->runs[i].arguments[a]);
        free(suite->runs[i].arguments);
    }
    free(suite->runs);
    free(suite->path);
    memset(suite, 0, sizeof(*suite));
}
