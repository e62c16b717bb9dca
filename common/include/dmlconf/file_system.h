/*
 * Files and folders, the same on POSIX and on Windows: what a path names,
 * folder listings, opening only regular files, creating folders, and
 * replacing a file atomically.
 *
 * Every function that can fail returns -1 (or NULL) with a sentence in `why`
 * (why_size bytes; why may be NULL when why_size is 0) that names the path.
 */
#ifndef DMLCONF_FILE_SYSTEM_H
#define DMLCONF_FILE_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum dmlconf_path_kind
{
    DMLCONF_PATH_MISSING,   /* nothing there (or a dangling link) */
    DMLCONF_PATH_REGULAR,   /* a regular file */
    DMLCONF_PATH_DIRECTORY, /* a folder */
    DMLCONF_PATH_OTHER,     /* a FIFO, a device, a socket */
} dmlconf_path_kind;

/* What `path` names (links followed). Returns 0 with *kind set (MISSING is
 * not an error), or -1 with `why` when the path cannot be examined
 * (permission denied, a name too long). *bytes (may be NULL) receives a
 * regular file's size. */
int dmlconf_path_examine(const char *path, dmlconf_path_kind *kind, uint64_t *bytes, char *why, size_t why_size);

/* "a regular file", "a folder", "a FIFO or device", "missing". */
const char *dmlconf_path_kind_name(dmlconf_path_kind kind);

/* Opens `path` (links followed) for reading in binary mode only when it is
 * a regular file, without ever blocking: nothing that is not a regular
 * file is opened or read. Returns the stream (the caller fcloses it) with
 * *bytes (may be NULL) set to its size; or NULL with one sentence in
 * `why` that, unlike the other functions here, does not repeat the path:
 * "cannot open: No such file or directory", "is a directory, not a
 * regular file", "is a named pipe (FIFO), not a regular file", "is a
 * character device, not a regular file", ... */
FILE *dmlconf_open_regular_file(const char *path, uint64_t *bytes, char *why, size_t why_size);

/* Whether two paths name the same existing file or folder (the same
 * device and inode; on Windows the same volume and file index), however
 * they are spelled. False when either does not exist or cannot be
 * examined. */
bool dmlconf_paths_same(const char *a, const char *b);

/* The names in folder `path` (not "." or ".."), in no particular order, as
 * a NULL-terminated array that the caller frees with
 * dmlconf_free_folder_names. Returns NULL with `why` when the folder cannot
 * be read. */
char **dmlconf_list_folder(const char *path, char *why, size_t why_size);
void dmlconf_free_folder_names(char **names);

/* Joins a folder and a name with one '/' (kept as is when the folder
 * already ends with a separator). Returns a new string, or NULL when
 * memory runs out. */
char *dmlconf_path_join(const char *folder, const char *name);

/* Whether `path` is absolute: it starts with a separator, or (Windows) a
 * drive letter and a colon. */
bool dmlconf_path_is_absolute(const char *path);

/* `name` taken from `folder`: name itself when it is absolute, else
 * dmlconf_path_join(folder, name). Returns a new string, or NULL when
 * memory runs out. */
char *dmlconf_path_resolve(const char *folder, const char *name);

/* The folder `path` lies in ("." for a bare name; "/" for a file at the
 * root). Returns a new string, or NULL when memory runs out. */
char *dmlconf_path_folder(const char *path);

/* Creates folder `path` and any missing parents (an existing folder is
 * fine). Returns 0, or -1 with `why`. */
int dmlconf_make_folders(const char *path, char *why, size_t why_size);

/* Whether this process can create files in folder `path`: creates and
 * removes a probe file there. Returns 0, or -1 with `why`. */
int dmlconf_check_folder_writable(const char *path, char *why, size_t why_size);

/* A file being replaced whole or not at all: the new contents go to a
 * temporary file beside it, created exclusively (so nothing already at
 * that name is ever opened), renamed over it once complete. */
typedef struct dmlconf_replacement
{
    FILE *file;       /* write the new contents here */
    char *temp_path;  /* the temporary file beside the target */
    const char *path; /* the target (not owned) */
} dmlconf_replacement;

/* Starts replacing `path` (which need not exist): refuses a path that names
 * something other than a regular file ("is a named pipe (FIFO), not a
 * regular file; it is not replaced"), then creates the temporary file with
 * the permissions of the file it replaces, where there is one. Returns 0
 * with r->file open for writing, or -1 with `why` and nothing to clean up.
 * Unlike the other functions here, `why` does not repeat the path: the
 * caller names it. */
int dmlconf_replacement_begin(dmlconf_replacement *r, const char *path, char *why, size_t why_size);

/* Finishes a replacement: closes the temporary file (flushed to disk first
 * when `sync`) and, when `written` is true and every write reached the
 * file, renames it over the target; otherwise removes it and leaves the
 * target as it was. Returns 0, or -1 with `why` (without the path). r is
 * released either way. */
int dmlconf_replacement_finish(dmlconf_replacement *r, bool written, bool sync, char *why, size_t why_size);

/* Writes `size` bytes as the new content of `path` with a replacement.
 * Returns 0, or -1 with `why` ("<path>: <what went wrong>"). */
int dmlconf_write_file_atomically(const char *path, const void *data, size_t size, bool sync, char *why,
                                  size_t why_size);

/* Renames `from` to `to`, replacing `to` if it exists. Returns 0 or -1 with
 * `why`. */
int dmlconf_replace_file(const char *from, const char *to, char *why, size_t why_size);

/* Flushes a stream and asks the system to put it on disk. Returns 0 or -1. */
int dmlconf_sync_file(FILE *file);

/* An exclusive lock on a file, held by this process until released or
 * until the process ends, however it ends (a POSIX record lock; on Windows
 * a LockFileEx lock, released by the system when the handle closes). A
 * process this one forks does not hold it. */
typedef struct dmlconf_file_lock
{
    intptr_t handle; /* the open lock file; -1 when no lock is held */
} dmlconf_file_lock;

/* Creates `path` if needed and locks it without waiting. Returns 0; -1
 * with `why` saying which process holds it (when the system can tell:
 * *held_by gets its id, else 0); or -2 with `why` when the file cannot be
 * created or locked for another reason. */
int dmlconf_file_lock_take(const char *path, dmlconf_file_lock *lock, long *held_by, char *why, size_t why_size);

/* Releases a lock (the file stays); one not held is ignored. */
void dmlconf_file_lock_release(dmlconf_file_lock *lock);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_FILE_SYSTEM_H */
