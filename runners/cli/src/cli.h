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

/* ---- the subcommands: each takes its own argv (argv[0] the subcommand's
 * name) and returns the process's exit status ---------------------------- */

int command_run(int argc, char **argv);
int command_list(int argc, char **argv);
int command_show(int argc, char **argv);
int command_validate(int argc, char **argv);
int command_bless(int argc, char **argv);
int command_merge(int argc, char **argv);
int command_adapters(int argc, char **argv);
int command_docgen(int argc, char **argv);
int command_worker(int argc, char **argv);
int command_explore(int argc, char **argv);

#endif /* DMLCONF_CLI_H */
