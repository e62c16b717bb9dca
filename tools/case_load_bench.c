/*
 * case_load_bench: how fast the case loader reads the corpus and one large
 * inline list.
 *
 *   case_load_bench [FOLDER...]
 *
 * (default: the source tree's corpus, cases/doc, cases/conformance, cases/edge
 * and cases/negative; cases/ itself also holds the loader's deliberately bad
 * test files). Prints MB/s and cases/s for loading the folders (target: the
 * whole corpus under 1 s), then for a
 * generated file holding one case with a 10^6-element inline float32 list,
 * written to a temporary folder and removed, against libyaml reading the
 * same file's events alone (the floor for any YAML loader).
 */
#define _POSIX_C_SOURCE 200809L

#include <dmlconf/case.h>

#include <yaml.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef DMLCONF_SOURCE_CASES
#define DMLCONF_SOURCE_CASES "cases"
#endif

#define LIST_ELEMENTS 1000000u
#define REPEATS       3

static double now_seconds(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Total size of the files a corpus loaded. */
static uint64_t corpus_bytes(const dmlconf_case_corpus *corpus)
{
    uint64_t total = 0;
    size_t i;

    for (i = 0; i < corpus->file_count; ++i)
    {
        total += corpus->files[i].source_bytes;
    }
    return total;
}

/* Loads the folders REPEATS times; reports the fastest run. Returns 0 when
 * the corpus loaded without errors. */
static int bench_corpus(const char *const *folders, size_t folder_count)
{
    dmlconf_case_corpus corpus;
    double best = 0, start, seconds;
    size_t errors = 0, cases = 0, files = 0;
    uint64_t bytes = 0;
    int run;

    for (run = 0; run < REPEATS; ++run)
    {
        start = now_seconds();
        errors = dmlconf_case_corpus_load(&corpus, folders, folder_count, NULL);
        seconds = now_seconds() - start;
        if (!run || seconds < best)
        {
            best = seconds;
        }
        cases = corpus.case_count;
        files = corpus.file_count;
        bytes = corpus_bytes(&corpus);
        if (errors && run + 1 == REPEATS)
        {
            dmlconf_case_corpus_print(&corpus, NULL, stderr);
        }
        dmlconf_case_corpus_free(&corpus);
    }
    printf("corpus (%s%s): %zu files, %zu cases, %.1f MB, %zu errors\n", folders[0], folder_count > 1 ? ", ..." : "",
           files, cases, (double)bytes / 1e6, errors);
    printf("  load: %.3f s, %.1f MB/s, %.0f cases/s (target: whole corpus under 1 s: %s)\n", best,
           (double)bytes / 1e6 / best, (double)cases / best, best < 1.0 ? "met" : "NOT met");
    return errors ? 1 : 0;
}

/* Writes the large-list file: values k/16 - 1000 (exact in float32). */
static int write_list_file(const char *path, uint64_t *bytes)
{
    FILE *file = fopen(path, "wb");
    uint32_t i;
    int k;

    if (!file)
    {
        return -1;
    }
    fprintf(file,
            "cases:\n  - id: bench.list\n    op: cumulative_summation\n    dtype: float32\n"
            "    sizes: [%u]\n    axis: 0\n    input: [",
            LIST_ELEMENTS);
    for (i = 0; i < LIST_ELEMENTS; ++i)
    {
        k = (int)((i * 2654435761u) % 32000u);
        fprintf(file, "%s%.4f", i ? ", " : "", (double)k / 16.0 - 1000.0);
    }
    fprintf(file, "]\n");
    *bytes = (uint64_t)ftell(file);
    return fclose(file) ? -1 : 0;
}

/* The baseline: libyaml alone reading the same file's events, the floor
 * under which no YAML loader can go. Returns seconds, or < 0 on an error. */
static double parse_events_only(const char *path)
{
    FILE *input = fopen(path, "rb");
    if (!input)
        return -1.0;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
    {
        fclose(input);
        return -1.0;
    }
    yaml_parser_set_input_file(&parser, input);
    double start = now_seconds();
    bool done = false, failed = false;
    while (!done && !failed)
    {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event))
        {
            failed = true;
            break;
        }
        done = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
    }
    double seconds = now_seconds() - start;
    yaml_parser_delete(&parser);
    fclose(input);
    return failed ? -1.0 : seconds;
}

static int bench_list(void)
{
    char folder[] = "/tmp/dmlconf_bench_XXXXXX", path[64];
    dmlconf_case_file file;
    double best = 0, start, seconds;
    uint64_t bytes = 0;
    size_t errors = 0;
    int run;

    if (!mkdtemp(folder))
    {
        fprintf(stderr, "cannot create a temporary folder\n");
        return 1;
    }
    snprintf(path, sizeof(path), "%s/list.yaml", folder);
    if (write_list_file(path, &bytes))
    {
        fprintf(stderr, "cannot write %s\n", path);
        rmdir(folder);
        return 1;
    }
    for (run = 0; run < REPEATS; ++run)
    {
        start = now_seconds();
        errors = dmlconf_case_file_load(&file, path, NULL);
        seconds = now_seconds() - start;
        if (!run || seconds < best)
        {
            best = seconds;
        }
        if (errors && run + 1 == REPEATS)
        {
            dmlconf_diagnostics_print(&file.diagnostics, NULL, stderr);
        }
        dmlconf_case_file_free(&file);
    }
    double events = -1.0;
    for (run = 0; run < REPEATS; ++run)
    {
        seconds = parse_events_only(path);
        if (seconds >= 0.0 && (events < 0.0 || seconds < events))
            events = seconds;
    }
    remove(path);
    rmdir(folder);
    printf("inline list: %u float32 values, %.1f MB, %zu errors\n", LIST_ELEMENTS, (double)bytes / 1e6, errors);
    printf("  load: %.3f s, %.1f MB/s, %.1f M values/s; libyaml's events alone: %.3f s, %.1f MB/s "
           "(the loader takes %.2fx that)\n",
           best, (double)bytes / 1e6 / best, LIST_ELEMENTS / best / 1e6, events, (double)bytes / 1e6 / events,
           best / events);
    return errors ? 1 : 0;
}

int main(int argc, char **argv)
{
    static const char *const corpus[] = {DMLCONF_SOURCE_CASES "/doc", DMLCONF_SOURCE_CASES "/conformance",
                                         DMLCONF_SOURCE_CASES "/edge", DMLCONF_SOURCE_CASES "/negative"};
    int result = 0;

    if (argc > 1)
    {
        result |= bench_corpus((const char *const *)argv + 1, (size_t)argc - 1);
    }
    else
    {
        result |= bench_corpus(corpus, sizeof(corpus) / sizeof(corpus[0]));
    }
    result |= bench_list();
    return result;
}
