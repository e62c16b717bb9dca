/*
 * `dmlconf docgen`: the reference pages' example blocks, kept in step with
 * the oracle (dmlconf/docgen.h).
 *
 *   render CASES.yaml...  print the example blocks of doc cases
 *   check DOC...          recompute every example block of the pages
 *   update DOC...         rewrite the numbers that are wrong
 */
#include "cli.h"

#include <dmlconf/docgen.h>
#include <dmlconf/file_system.h>
#include <dmlconf/integer_text.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char docgen_usage[] = "usage: dmlconf docgen render [OPTIONS] CASES.yaml...\n"
                                   "       dmlconf docgen check DOC...\n"
                                   "       dmlconf docgen update DOC...\n"
                                   "\n"
                                   "The example blocks of the DirectML reference pages (an InputTensor, then per\n"
                                   "example the Axis, AxisDirection and HasExclusiveSum or HasExclusiveProduct\n"
                                   "lines and the OutputTensor), in any language, plain text or Markdown.\n"
                                   "\n"
                                   "  render   print the example blocks of doc cases in the pages' layout\n"
                                   "  check    recompute every example block of the pages with the oracle\n"
                                   "  update   rewrite the numbers and explanatory comments that are wrong, and\n"
                                   "           nothing else\n"
                                   "\n"
                                   "`dmlconf docgen COMMAND --help` describes each.\n";

static const char render_usage[] =
    "usage: dmlconf docgen render [--explain] [--markdown] [--max-elements N] CASES.yaml...\n"
    "\n"
    "Prints the example blocks of the cases (files or folders) in the reference\n"
    "pages' layout: an input block (InputTensor header and values) whenever the\n"
    "input changes, then for each case its parameter lines and the oracle's\n"
    "OutputTensor, blocks separated by a blank line. Columns are right-aligned to\n"
    "their widest value; values are written in their shortest exact form.\n"
    "Negative cases are skipped.\n"
    "\n"
    "  --explain          comment the first row (or column) the way the pages do:\n"
    "                     // i.e. [2, 2+1, 2+1+3, 2+1+3+5]\n"
    "  --markdown         put each block in a ``` fence\n"
    "  --max-elements N   skip cases of more than N elements (default 4096)\n"
    "  -h, --help         this help\n"
    "\n"
    "Exit status: 0, or 2 when a case file has errors.\n";

static const char check_usage[] = "usage: dmlconf docgen check DOC...\n"
                                  "\n"
                                  "Finds every example block of the pages, recomputes its output with the oracle\n"
                                  "from the block's own input (the InputTensor above it) and parameters, and\n"
                                  "reports each block whose numbers differ, or whose explanatory comments\n"
                                  "(// i.e. [2, 2+1, 2+1+3]) show other arithmetic: PAGE:LINE:COLUMN of the\n"
                                  "first difference, then the diff that `dmlconf docgen update` would apply.\n"
                                  "\n"
                                  "The keys may be in English, German, French, Spanish, Italian or Portuguese\n"
                                  "(Achse: 3), or any key with such a value next to a known one. A page writes\n"
                                  "decimal commas when one of its values does (0,5) among values separated by\n"
                                  "', ' or ';', or when its language does (its metadata, ms.contentlocale:\n"
                                  "de-DE, or its words), unless a value has a decimal point; on such a page a\n"
                                  "comma between two digits belongs to the number.\n"
                                  "\n"
                                  "  -h, --help   this help\n"
                                  "\n"
                                  "Exit status: 0 when every block is up to date, 1 when some are not, 2 when a\n"
                                  "page cannot be read, has no example block or a block cannot be parsed\n"
                                  "(errors say where and why).\n";

static const char update_usage[] = "usage: dmlconf docgen update DOC...\n"
                                   "\n"
                                   "Rewrites the numbers and explanatory comments of every stale example block\n"
                                   "with the oracle's (as check reports them), written with the page's decimal\n"
                                   "separator, keeping the prose, the other // comments (moved along when a\n"
                                   "column's width changes) and every other byte as it was. A page that is up to\n"
                                   "date is not touched; a page with a block that cannot be parsed is left alone.\n"
                                   "\n"
                                   "  -h, --help   this help\n"
                                   "\n"
                                   "Exit status: 0 when every page is up to date (now), 2 on errors.\n";

/* Parses the options of check and update (--help only) and requires at
 * least one page. Returns -1 to go on, else the exit status. */
static int help_only(int argc, char **argv, const char *usage)
{
    static const struct option options[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int option;
    optind = 1;
    while ((option = getopt_long(argc, argv, "h", options, NULL)) != -1)
    {
        if (option == 'h')
        {
            fputs(usage, stdout);
            return EXIT_PASSED;
        }
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    if (optind == argc)
    {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    return -1;
}

/* ---- render ------------------------------------------------------------------------ */

/* True when the two cases show the same input block. */
static bool same_input(const dmlconf_case *a, const void *a_values, const dmlconf_case *b, const void *b_values)
{
    const dmlconf_tensor_desc *x = &a->desc.input, *y = &b->desc.input;
    if (x->data_type != y->data_type || x->dimension_count != y->dimension_count ||
        memcmp(x->sizes, y->sizes, x->dimension_count * sizeof(x->sizes[0])))
        return false;
    return !memcmp(a_values, b_values, (size_t)dmlconf_case_element_count(a) * dmlconf_case_element_size(a));
}

static int docgen_render(int argc, char **argv)
{
    static const struct option options[] = {{"explain", no_argument, NULL, 'e'},
                                            {"markdown", no_argument, NULL, 'm'},
                                            {"max-elements", required_argument, NULL, 'n'},
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    docgen_render_options render = {0};
    uint64_t max_elements = 4096;
    int option;
    optind = 1;
    while ((option = getopt_long(argc, argv, "h", options, NULL)) != -1)
    {
        switch (option)
        {
        case 'e':
            render.explain = true;
            break;
        case 'm':
            render.markdown = true;
            break;
        case 'n':
            if (!dmlconf_parse_u64(optarg, 0, UINT64_MAX, &max_elements))
            {
                fprintf(stderr, "dmlconf docgen render: --max-elements takes a count, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'h':
            fputs(render_usage, stdout);
            return EXIT_PASSED;
        default:
            fputs(render_usage, stderr);
            return EXIT_USAGE;
        }
    }
    if (optind == argc)
    {
        fputs(render_usage, stderr);
        return EXIT_USAGE;
    }

    dmlconf_case_corpus corpus;
    size_t errors = runner_load_corpus(&corpus, argv + optind, (size_t)(argc - optind));
    size_t count = 0;
    const dmlconf_case **cases = runner_corpus_cases(&corpus, &count);
    const dmlconf_case *previous = NULL;
    void *previous_input = NULL;
    bool first_block = true;
    dmlconf_buffer out = {0};
    for (size_t i = 0; cases && i < count; ++i)
    {
        const dmlconf_case *c = cases[i];
        if (c->expect_error.set)
            continue;
        if (dmlconf_case_element_count(c) > max_elements)
        {
            fprintf(stderr, "dmlconf docgen render: %s skipped: %llu elements (--max-elements %llu)\n", c->id,
                    (unsigned long long)dmlconf_case_element_count(c), (unsigned long long)max_elements);
            continue;
        }
        char why[256];
        void *input = runner_read_input(c, 0, why, sizeof(why));
        if (!input)
        {
            fprintf(stderr, "%s:%u: error: case %s: cannot read the input: %s\n", c->file, c->mark.line, c->id, why);
            ++errors;
            continue;
        }
        if (!previous || !same_input(previous, previous_input, c, input))
        {
            dmlconf_buffer_puts(&out, first_block ? "" : "\n");
            docgen_render_input(&out, &c->desc.input, input, &render);
            first_block = false;
        }
        dmlconf_error err;
        dmlconf_buffer block = {0};
        if (docgen_render_example(&block, &c->desc, input, &render, &err))
        {
            fprintf(stderr, "%s:%u: error: case %s: %s\n", c->file, c->mark.line, c->id, err.message);
            ++errors;
        }
        else
        {
            dmlconf_buffer_puts(&out, "\n");
            dmlconf_buffer_append(&out, block.data, block.length);
            out.failed |= block.failed;
        }
        dmlconf_buffer_free(&block);
        free(previous_input);
        previous = c;
        previous_input = input;
    }
    if (out.failed)
    {
        fprintf(stderr, "dmlconf docgen render: out of memory\n");
        ++errors;
    }
    else if (out.length)
        fwrite(out.data, 1, out.length, stdout);
    dmlconf_buffer_free(&out);
    free(previous_input);
    free(cases);
    dmlconf_case_corpus_free(&corpus);
    return errors ? EXIT_INVALID_INPUT : EXIT_PASSED;
}

/* ---- check and update ------------------------------------------------------------- */

/* "cumulative_summation, Axis 3, INCREASING, HasExclusiveSum FALSE" */
static void describe_example(char *buffer, size_t size, const docgen_example *e)
{
    bool product = e->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    snprintf(buffer, size, "%s, Axis %u, %s, %s %s", dmlconf_operator_name(e->op), e->axis,
             e->direction == DMLCONF_AXIS_DIRECTION_DECREASING ? "DECREASING" : "INCREASING",
             product ? "HasExclusiveProduct" : "HasExclusiveSum", e->exclusive ? "TRUE" : "FALSE");
}

/* Checks (update: and rewrites) one page. Returns its exit status. */
static int docgen_page_run(const char *path, bool update)
{
    docgen_page page;
    size_t errors = docgen_page_load(&page, path);
    dmlconf_diagnostics_print(&page.diagnostics, NULL, stderr);
    docgen_verdict *verdicts = calloc(page.example_count ? page.example_count : 1, sizeof(*verdicts));
    size_t stale = 0;
    if (!verdicts)
    {
        fprintf(stderr, "%s: error: out of memory\n", path);
        docgen_page_free(&page);
        return EXIT_INVALID_INPUT;
    }
    for (size_t i = 0; i < page.example_count; ++i)
    {
        const docgen_example *e = &page.examples[i];
        dmlconf_error err;
        if (docgen_check_example(&page, i, &verdicts[i], &err))
        {
            fprintf(stderr, "%s:%u: error: example block: %s\n", path, e->line, err.message);
            ++errors;
            continue;
        }
        if (!verdicts[i].stale)
            continue;
        ++stale;
        char what[160], comments[64] = "";
        describe_example(what, sizeof(what), e);
        const docgen_verdict *v = &verdicts[i];
        if (v->stale_comments)
            snprintf(comments, sizeof(comments), ", %zu explanatory comment%s", v->stale_comments,
                     v->stale_comments == 1 ? "" : "s");
        if (update)
        {
            printf("%s:%u:%u: %s example block at line %u (%s): %zu of %zu values%s\n", path, v->line, v->column,
                   errors ? "would update" : "updating", e->line, what, v->differing, v->value_count, comments);
            continue;
        }
        printf("%s:%u:%u: example block at line %u is out of date (%s): %s (%zu of %zu values differ%s)\n", path,
               v->line, v->column, e->line, what, v->summary, v->differing, v->value_count, comments);
        dmlconf_buffer diff = {0};
        docgen_format_diff(&diff, &page, v);
        if (diff.failed)
            ++errors;
        else
            fwrite(diff.data, 1, diff.length, stdout);
        dmlconf_buffer_free(&diff);
    }

    int status = errors ? EXIT_INVALID_INPUT : stale && !update ? EXIT_FAILED : EXIT_PASSED;
    if (update && stale && !errors)
    {
        dmlconf_buffer text = {0};
        char why[512];
        if (docgen_page_apply(&page, verdicts, page.example_count, &text))
        {
            fprintf(stderr, "%s: error: cannot apply the rewrites (out of memory)\n", path);
            status = EXIT_INVALID_INPUT;
        }
        else if (dmlconf_write_file_atomically(path, text.data, text.length, false, why, sizeof(why)))
        {
            fprintf(stderr, "%s: error: %s\n", path, why);
            status = EXIT_INVALID_INPUT;
        }
        else
            printf("%s: %zu of %zu example blocks updated\n", path, stale, page.example_count);
        dmlconf_buffer_free(&text);
    }
    else if (errors && !page.example_count)
        printf("%s: %zu error%s (above)%s\n", path, errors, errors == 1 ? "" : "s", update ? ", not updated" : "");
    else if (errors)
        printf("%s: %zu error%s (above)%s; %zu of the %zu example blocks read are out of date\n", path, errors,
               errors == 1 ? "" : "s", update ? ", not updated" : "", stale, page.example_count);
    else if (!stale)
        printf("%s: %zu example block%s up to date\n", path, page.example_count, page.example_count == 1 ? "" : "s");
    else
        printf("%s: %zu of %zu example blocks out of date\n", path, stale, page.example_count);
    for (size_t i = 0; i < page.example_count; ++i)
        docgen_verdict_free(&verdicts[i]);
    free(verdicts);
    docgen_page_free(&page);
    return status;
}

static int docgen_pages(int argc, char **argv, bool update)
{
    int status = help_only(argc, argv, update ? update_usage : check_usage);
    if (status >= 0)
        return status;
    status = EXIT_PASSED;
    for (int i = optind; i < argc; ++i)
    {
        int page_status = docgen_page_run(argv[i], update);
        status = page_status > status ? page_status : status;
    }
    return status;
}

int command_docgen(int argc, char **argv)
{
    if (argc < 2)
    {
        fputs(docgen_usage, stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help"))
    {
        fputs(docgen_usage, stdout);
        return EXIT_PASSED;
    }
    if (!strcmp(name, "render"))
        return docgen_render(argc - 1, argv + 1);
    if (!strcmp(name, "check"))
        return docgen_pages(argc - 1, argv + 1, false);
    if (!strcmp(name, "update"))
        return docgen_pages(argc - 1, argv + 1, true);
    fprintf(stderr, "dmlconf docgen: unknown command '%s'\n\n", name);
    fputs(docgen_usage, stderr);
    return EXIT_USAGE;
}
