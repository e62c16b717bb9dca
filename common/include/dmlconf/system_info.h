/*
 * Facts about the machine and the console, the same on POSIX and Windows.
 */
#ifndef DMLCONF_SYSTEM_INFO_H
#define DMLCONF_SYSTEM_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes this machine's name into `name` (size bytes), or "unknown". */
void dmlconf_host_name(char *name, size_t size);

/* True when `stream` is a terminal (a console on Windows). */
bool dmlconf_stream_is_terminal(FILE *stream);

/* The width in columns of the terminal `stream` writes to, or 0 when it is
 * not a terminal or its width cannot be told. */
unsigned dmlconf_terminal_columns(FILE *stream);

/* The machine's physical memory in bytes, or 0 when it cannot be told. */
uint64_t dmlconf_physical_memory_bytes(void);

/* Sets an environment variable for this process and the processes it
 * starts. Returns 0, or -1 when the system refuses (out of memory). */
int dmlconf_set_environment(const char *name, const char *value);

/* Removes an environment variable from this process's environment (and so
 * from the processes it starts next); one that is not set is fine. Returns
 * 0, or -1 when the system refuses (a name holding '='). */
int dmlconf_unset_environment(const char *name);

/* Wine's version ("8.0") when this Windows program runs under Wine; NULL
 * on Windows itself and on every other system. */
const char *dmlconf_wine_version(void);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_SYSTEM_INFO_H */
