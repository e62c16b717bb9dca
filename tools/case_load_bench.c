/*
 * case_load_bench: how fast the case loader reads the corpus and one large
 * inline list.
 *
 *   case_load_bench [FOLDER...]
 *
 * (default: the source tree's corpus, cases/doc, cases/conformance, cases/edge
 * and cases/negative; cases/ itself also holds the loader's deliberately bad
 * test files). Prints MB/s and cases/s for loading the folders (target: the
 * whole corpus under 1 s), as every command loads them (the expected values
 * of cases of up to 2^20 elements checked against the oracle) and without
 * that check (the baseline, measured in the same run); then for a generated
 * file holding one case with a 10^6-element inline float32 list, written to
 * a temporary folder and removed, against libyaml reading the same file's
 * events alone (the floor for any YAML loader); then for a case with 10^6
 * input values and their 10^6 expected values, with the check against the
 * oracle and without it.
 */
#define _POSIX_C_SOURCE 200809L

#include <dmlconf/case.h>
#include <dmlconf/values.h>

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

/* Seconds of CPU time the process has used, every thread's: what a load
 * costs on a machine shared with other work, where wall time varies. */
static double cpu_seconds(void)
{
    struct timespec t;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

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

/* Wall and CPU seconds of one kind of load: the fastest of its runs. */
typedef struct load_times
{
    double wall;
    double cpu;
} load_times;

static void keep_fastest(load_times *best, double wall, double cpu, bool first)
{
    if (first || wall < best->wall)
    {
        best->wall = wall;
    }
    if (first || cpu < best->cpu)
    {
        best->cpu = cpu;
    }
}

/* Loads the folders once with `options` into *best. Returns 0 when the
 * corpus loaded without errors (else prints them). */
static int load_corpus_once(const char *const *folders, size_t folder_count, const dmlconf_load_options *options,
                            load_times *best, bool first, size_t *cases, size_t *files, uint64_t *bytes)
{
    dmlconf_case_corpus corpus;
    double start = now_seconds(), start_cpu = cpu_seconds();
    size_t errors = dmlconf_case_corpus_load(&corpus, folders, folder_count, options);

    keep_fastest(best, now_seconds() - start, cpu_seconds() - start_cpu, first);
    *cases = corpus.case_count;
    *files = corpus.file_count;
    *bytes = corpus_bytes(&corpus);
    if (errors)
    {
        dmlconf_case_corpus_print(&corpus, NULL, stderr);
    }
    dmlconf_case_corpus_free(&corpus);
    return errors ? 1 : 0;
}

/* The corpus as every command loads it (the expected values of cases of up
 * to 2^20 elements checked against the oracle), and without that check
 * (the baseline), in turns, so that both see the machine alike. */
static int bench_corpus(const char *const *folders, size_t folder_count)
{
    dmlconf_load_options unchecked = {.expected_check = DMLCONF_EXPECTED_CHECK_NONE};
    load_times checked_times = {0, 0}, unchecked_times = {0, 0};
    size_t cases = 0, files = 0;
    uint64_t bytes = 0;
    int result = 0, run;

    for (run = 0; run < REPEATS && !result; ++run)
    {
        result |= load_corpus_once(folders, folder_count, NULL, &checked_times, run == 0, &cases, &files, &bytes);
        result |=
            load_corpus_once(folders, folder_count, &unchecked, &unchecked_times, run == 0, &cases, &files, &bytes);
    }
    printf("corpus (%s%s): %zu files, %zu cases, %.1f MB%s\n", folders[0], folder_count > 1 ? ", ..." : "", files,
           cases, (double)bytes / 1e6, result ? ", with errors" : "");
    printf("  load: %.3f s (CPU %.3f s), %.1f MB/s, %.0f cases/s (target: whole corpus under 1 s: %s)\n",
           checked_times.wall, checked_times.cpu, (double)bytes / 1e6 / checked_times.wall,
           (double)cases / checked_times.wall, checked_times.wall < 1.0 ? "met" : "NOT met");
    printf("  without the check of expected values (the baseline): %.3f s (CPU %.3f s); the check costs %.2fx the "
           "baseline's CPU time\n",
           unchecked_times.wall, unchecked_times.cpu, checked_times.cpu / unchecked_times.cpu);
    return result;
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

/* Writes a case of LIST_ELEMENTS float32 inputs (as write_list_file's) and
 * the oracle's exact results as its inline expected values. */
static int write_expected_file(const char *path, uint64_t *bytes)
{
    dmlconf_scan_desc desc;
    dmlconf_error err;
    float *input = malloc(LIST_ELEMENTS * sizeof(*input)), *output = malloc(LIST_ELEMENTS * sizeof(*output));
    char text[DMLCONF_VALUE_TEXT_SIZE];
    FILE *file = NULL;
    uint32_t i;
    int result = -1;

    if (!input || !output)
    {
        goto done;
    }
    for (i = 0; i < LIST_ELEMENTS; ++i)
    {
        input[i] = (float)((double)(int)((i * 2654435761u) % 32000u) / 16.0 - 1000.0);
    }
    memset(&desc, 0, sizeof(desc));
    desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    desc.direction = DMLCONF_AXIS_DIRECTION_INCREASING;
    desc.input.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    desc.input.dimension_count = 1;
    desc.input.sizes[0] = LIST_ELEMENTS;
    desc.output = desc.input;
    if (dmlconf_compute(&desc, input, LIST_ELEMENTS * sizeof(*input), output, LIST_ELEMENTS * sizeof(*output), NULL,
                        &err))
    {
        fprintf(stderr, "the oracle: %s\n", err.message);
        goto done;
    }
    if (!(file = fopen(path, "wb")))
    {
        goto done;
    }
    fprintf(file,
            "cases:\n  - id: bench.expected\n    op: cumulative_summation\n    dtype: float32\n"
            "    sizes: [%u]\n    axis: 0\n    input: [",
            LIST_ELEMENTS);
    for (i = 0; i < LIST_ELEMENTS; ++i)
    {
        dmlconf_value_format(DMLCONF_DATA_TYPE_FLOAT32, &input[i], DMLCONF_VALUE_STYLE_READABLE, text, sizeof(text));
        fprintf(file, "%s%s", i ? ", " : "", text);
    }
    fprintf(file, "]\n    expected: [");
    for (i = 0; i < LIST_ELEMENTS; ++i)
    {
        dmlconf_value_format(DMLCONF_DATA_TYPE_FLOAT32, &output[i], DMLCONF_VALUE_STYLE_READABLE, text, sizeof(text));
        fprintf(file, "%s%s", i ? ", " : "", text);
    }
    fprintf(file, "]\n");
    *bytes = (uint64_t)ftell(file);
    result = fclose(file) ? -1 : 0;

done:
    free(input);
    free(output);
    return result;
}

/* Loads `path` once with `options` into *best. Returns -1 when the file
 * has errors (printed). */
static int time_file_load(const char *path, const dmlconf_load_options *options, load_times *best, bool first)
{
    dmlconf_case_file file;
    double start = now_seconds(), start_cpu = cpu_seconds();
    size_t errors = dmlconf_case_file_load(&file, path, options);

    keep_fastest(best, now_seconds() - start, cpu_seconds() - start_cpu, first);
    if (errors)
    {
        dmlconf_diagnostics_print(&file.diagnostics, NULL, stderr);
    }
    dmlconf_case_file_free(&file);
    return errors ? -1 : 0;
}

/* A case with 10^6 inputs and 10^6 expected values (the oracle's), loaded
 * with their check against the oracle and without it. */
static int bench_expected(void)
{
    char folder[] = "/tmp/dmlconf_bench_XXXXXX", path[64];
    dmlconf_load_options unchecked = {.expected_check = DMLCONF_EXPECTED_CHECK_NONE};
    uint64_t bytes = 0;

    if (!mkdtemp(folder))
    {
        fprintf(stderr, "cannot create a temporary folder\n");
        return 1;
    }
    snprintf(path, sizeof(path), "%s/expected.yaml", folder);
    if (write_expected_file(path, &bytes))
    {
        fprintf(stderr, "cannot write %s\n", path);
        remove(path);
        rmdir(folder);
        return 1;
    }
    /* In turns, so that both see the machine alike. */
    load_times checked = {0, 0}, plain = {0, 0};
    int failed = 0;
    for (int run = 0; run < REPEATS && !failed; ++run)
    {
        failed = time_file_load(path, NULL, &checked, run == 0) || time_file_load(path, &unchecked, &plain, run == 0);
    }
    remove(path);
    rmdir(folder);
    if (failed)
    {
        return 1;
    }
    printf("inline input and expected: %u + %u float32 values, %.1f MB\n", LIST_ELEMENTS, LIST_ELEMENTS,
           (double)bytes / 1e6);
    printf("  load with the expected values checked against the oracle: %.3f s (CPU %.3f s); without: %.3f s (CPU "
           "%.3f s); the check costs %.3f s of CPU time, %.2fx\n",
           checked.wall, checked.cpu, plain.wall, plain.cpu, checked.cpu - plain.cpu, checked.cpu / plain.cpu);
    return 0;
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
    result |= bench_expected();
    return result;
}
