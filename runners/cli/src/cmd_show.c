/*
 * `dmlconf show ID`: a case's parameters, its input and the oracle's output,
 * in the layout of the DirectML reference pages.
 */
#include "cli.h"

#include <dmlconf/integer_text.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char show_usage[] = "usage: dmlconf show [--max-elements N] ID [PATH...]\n"
                                 "\n"
                                 "Prints the case ID (a glob shows every match): where it is defined, its\n"
                                 "parameters, its input and the oracle's output, in the reference pages' layout.\n"
                                 "\n"
                                 "  --max-elements N   print tensors of at most N elements (default 4096)\n"
                                 "  -h, --help         this help\n";

static void show_case(const dmlconf_case *c, uint64_t max_elements)
{
    const dmlconf_scan_desc *desc = &c->desc;
    bool product = desc->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    const char *level = dmlconf_feature_level_name(c->min_feature_level);
    printf("# %s (%s:%u)\n", c->id, c->file, c->mark.line);
    printf("# %s, minimum feature level %s%s\n", dmlconf_operator_name(desc->op), level ? level : "none",
           c->min_feature_level_explicit ? " (explicit)" : "");
    if (c->notes)
        printf("# %s\n", c->notes);
    if (c->expect_error.set)
    {
        dmlconf_validation validation;
        dmlconf_min_feature_level(desc, &validation);
        printf("# negative case: must be rejected with %s", dmlconf_reason_name(c->expect_error.reason));
        if (c->expect_error.feature_level != DMLCONF_FEATURE_LEVEL_NONE)
            printf(" at feature level %s", dmlconf_feature_level_name(c->expect_error.feature_level));
        printf("\n");
        return;
    }
    uint64_t count = dmlconf_case_element_count(c);
    cli_print_tensor_header(stdout, "InputTensor", &desc->input);
    if (desc->input.has_strides || desc->output.has_strides || desc->in_place)
    {
        printf("# strides: input");
        for (uint32_t d = 0; d < desc->input.dimension_count; ++d)
            printf("%s%llu", d ? "," : " {", (unsigned long long)dmlconf_tensor_stride(&desc->input, d));
        printf("}, output");
        for (uint32_t d = 0; d < desc->output.dimension_count; ++d)
            printf("%s%llu", d ? "," : " {", (unsigned long long)dmlconf_tensor_stride(&desc->output, d));
        printf("}%s\n", desc->in_place ? ", in place" : "");
    }
    char why[256];
    void *input = count <= max_elements ? runner_read_input(c, 0, why, sizeof(why)) : NULL;
    if (count > max_elements)
        printf("(%llu elements; --max-elements %llu)\n", (unsigned long long)count, (unsigned long long)max_elements);
    else if (!input)
        printf("(cannot read the input: %s)\n", why);
    else
        cli_print_tensor(stdout, desc->input.data_type, desc->input.dimension_count, desc->input.sizes, input);

    printf("\nAxis: %u\nAxisDirection: DML_AXIS_DIRECTION_%s\n%s: %s\n\n", desc->axis,
           desc->direction == DMLCONF_AXIS_DIRECTION_DECREASING ? "DECREASING" : "INCREASING",
           product ? "HasExclusiveProduct" : "HasExclusiveSum", desc->exclusive ? "TRUE" : "FALSE");
    cli_print_tensor_header(stdout, "OutputTensor", &desc->output);
    if (input)
    {
        /* The oracle on a packed copy of the case. */
        dmlconf_scan_desc packed = *desc;
        packed.input.has_strides = packed.output.has_strides = false;
        packed.input.total_size_bytes = packed.output.total_size_bytes = 0;
        packed.in_place = false;
        size_t bytes = (size_t)(count * dmlconf_case_element_size(c));
        void *output = malloc(bytes ? bytes : 1);
        dmlconf_error err;
        if (!output)
            printf("(out of memory)\n");
        else if (dmlconf_compute(&packed, input, bytes, output, bytes, NULL, &err))
            printf("(the oracle failed: %s)\n", err.message);
        else
            cli_print_tensor(stdout, desc->output.data_type, desc->output.dimension_count, desc->output.sizes,
                                output);
        free(output);
    }
    free(input);
    printf("\n");
}

int command_show(int argc, char **argv)
{
    static const struct option options[] = {
        {"max-elements", required_argument, NULL, 'm'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    uint64_t max_elements = 4096;
    int option;
    optind = 1;
    while ((option = getopt_long(argc, argv, "h", options, NULL)) != -1)
    {
        switch (option)
        {
        case 'm':
            if (!dmlconf_parse_u64(optarg, 0, UINT64_MAX, &max_elements))
            {
                fprintf(stderr, "dmlconf show: --max-elements takes a count, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'h':
            fputs(show_usage, stdout);
            return EXIT_PASSED;
        default:
            fputs(show_usage, stderr);
            return EXIT_USAGE;
        }
    }
    if (optind >= argc)
    {
        fputs(show_usage, stderr);
        return EXIT_USAGE;
    }
    const char *id = argv[optind++];
    runner_filter filter = {0};
    if (runner_filter_add(&filter, id))
        return EXIT_FAILED;
    dmlconf_case_corpus corpus;
    size_t errors = runner_load_corpus(&corpus, argv + optind, (size_t)(argc - optind));
    size_t count = 0, shown = 0;
    const dmlconf_case **cases = runner_corpus_cases(&corpus, &count);
    for (size_t i = 0; cases && i < count; ++i)
    {
        if (runner_filter_matches(&filter, cases[i]->id))
        {
            show_case(cases[i], max_elements);
            ++shown;
        }
    }
    if (!shown)
        fprintf(stderr, "dmlconf show: no case matches '%s'\n", id);
    free(cases);
    dmlconf_case_corpus_free(&corpus);
    runner_filter_free(&filter);
    return !shown || errors ? EXIT_INVALID_INPUT : EXIT_PASSED;
}
