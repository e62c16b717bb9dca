/*
 * The dmlconf command's subcommands (main.c dispatches to them) and what
 * several of them print.
 */
#ifndef DMLCONF_CLI_H
#define DMLCONF_CLI_H

#include <dmlconf/runner.h>

#include <stdint.h>
#include <stdio.h>

/* ---- printing tensors (tensor_format.c) ------------------------------------ */

/* Prints packed logical elements in the DirectML documentation's layout:
 * nested brackets, one row of the last dimension per line, each column right
 * aligned to its widest value, values in their shortest exact form (integers
 * without a decimal point). */
void cli_print_tensor(FILE *out, dmlconf_data_type type, uint32_t dimension_count, const uint32_t *sizes,
                      const void *values);

/* "(Sizes:{1,1,3,4}, DataType:FLOAT32)" */
void cli_print_tensor_header(FILE *out, const char *name, const dmlconf_tensor_desc *desc);

/* ---- options several subcommands take (cli_options.c) ---------------------- */

/* A number of bytes: "4G", "512M", "64k", "100000", "1.5MB" (k, M, G, T are
 * powers of 1000; a B may follow). Returns 0 with *bytes set, or -1 (and
 * *bytes untouched) when the text is malformed, negative or above 1.8e19. */
int cli_parse_bytes(const char *text, uint64_t *bytes);

/* The options that choose the directml backend's library and path (run and
 * explore take them alike): long options only, their getopt values from
 * CLI_OPTION_DIRECTML_DLL on, past every character. */
enum
{
    CLI_OPTION_DIRECTML_DLL = 0x100,
    CLI_OPTION_DIRECTML_FLAGS,
    CLI_OPTION_DIRECTML_GRAPH,
    CLI_OPTION_DIRECTML_BINDING,
};

/* Their entries, for a getopt_long table. */
#define CLI_DIRECTML_LONG_OPTIONS                                                                                      \
    {"directml-dll", required_argument, NULL, CLI_OPTION_DIRECTML_DLL},                                                \
        {"directml-flags", required_argument, NULL, CLI_OPTION_DIRECTML_FLAGS},                                        \
        {"directml-graph", required_argument, NULL, CLI_OPTION_DIRECTML_GRAPH},                                        \
        {"directml-binding", required_argument, NULL, CLI_OPTION_DIRECTML_BINDING}

/* Takes one of them: sets the environment variable that the directml
 * backend reads (DMLCONF_DIRECTML_DLL, _FLAGS, _GRAPH, _BINDING), which the
 * workers inherit; the backend checks the words when it opens. Returns 1
 * when `option` is none of them (nothing done), 0 when taken, -1 when
 * memory runs out (said so on stderr, after "dmlconf COMMAND: "). */
int cli_take_directml_option(const char *command, int option, const char *argument);

/* ---- the subcommands: each takes its own argv (argv[0] the subcommand's
 * name) and returns the process's exit status ---------------------------- */

int command_run(int argc, char **argv);
int command_list(int argc, char **argv);
int command_show(int argc, char **argv);
int command_validate(int argc, char **argv);
int command_bless(int argc, char **argv);
int command_merge(int argc, char **argv);
int command_compare(int argc, char **argv);
int command_suite(int argc, char **argv);
int command_adapters(int argc, char **argv);
int command_docgen(int argc, char **argv);
int command_worker(int argc, char **argv);
int command_explore(int argc, char **argv);

#endif /* DMLCONF_CLI_H */
