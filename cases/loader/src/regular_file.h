/*
 * Opening a file the case library reads (a case file, a .npy file) only
 * when it is a regular file, without ever blocking: a named pipe, a device
 * or a directory given where a file belongs is refused with a message that
 * says what it is, before anything is read from it.
 */
#ifndef DMLCONF_CASES_REGULAR_FILE_H
#define DMLCONF_CASES_REGULAR_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Opens `path` (symbolic links followed) for reading in binary mode when it
 * names a regular file. Opening never waits for a writer or a device, and
 * nothing is read from anything that is not a regular file. Returns the
 * stream (the caller closes it with fclose) with *size (may be NULL) set to
 * the file's size in bytes; or NULL with one sentence in why (why_size
 * bytes, may be 0): "cannot open: No such file or directory", "is a
 * directory, not a regular file", "is a named pipe (FIFO), not a regular
 * file", "is a character device, not a regular file", ... */
FILE *cases_open_regular_file(const char *path, uint64_t *size, char *why, size_t why_size);

#endif /* DMLCONF_CASES_REGULAR_FILE_H */
