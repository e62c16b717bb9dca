/*
 * Writing a file whole or not at all: the new contents go to a temporary
 * file beside it, which is renamed over it once complete. Used for the case
 * files bless rewrites and the .npy files it writes.
 */
#ifndef DMLCONF_CASES_REPLACEMENT_H
#define DMLCONF_CASES_REPLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A replacement being written. */
typedef struct cases_replacement
{
    FILE *file;       /* write the new contents here */
    char *temp_path;  /* the temporary file beside the target */
    const char *path; /* the target (not owned) */
} cases_replacement;

/* Starts replacing `path` (which need not exist): refuses a path that names
 * something other than a regular file ("is a named pipe (FIFO), not a
 * regular file; it is not replaced"), then creates a new temporary file
 * beside it, with the permissions of the file it replaces where there is
 * one. Returns 0 with r->file open for writing, or -1 with a message in why
 * (why_size bytes) and nothing to clean up. */
int cases_replacement_begin(cases_replacement *r, const char *path, char *why, size_t why_size);

/* Finishes a replacement: closes the temporary file and, when `written` is
 * true and every write reached the file, renames it over the target;
 * otherwise removes it and leaves the target as it was. Returns 0, or -1
 * with a message in why. r is released either way. */
int cases_replacement_finish(cases_replacement *r, bool written, char *why, size_t why_size);

#endif /* DMLCONF_CASES_REPLACEMENT_H */
