/*
 * The report folder on disk: locking it against a second run and checking
 * that it can be written, over the platform layer (dmlconf/file_system.h).
 */
#include "report_internal.h"

#include <dmlconf/file_system.h>

#include <stdlib.h>
#include <string.h>

char *report_path(const char *dir, const char *name, const char *suffix)
{
    size_t length = strlen(dir) + 1 + strlen(name) + strlen(suffix) + 1;
    char *path = malloc(length);

    if (path)
        snprintf(path, length, "%s/%s%s", dir, name, suffix);
    return path;
}

char *dmlconf_results_path(const char *argument)
{
    size_t length = strlen(argument);
    bool file = length > 6 && !strcmp(argument + length - 6, ".jsonl");

    return file ? dmlconf_strdup(argument) : report_path(argument, DMLCONF_REPORT_RESULTS_JSONL, "");
}

int report_dir_lock_take(const char *dir, dmlconf_file_lock *lock, char *why, size_t why_size)
{
    char *path = report_path(dir, DMLCONF_REPORT_LOCK, "");
    char reason[512];
    long held_by = 0;

    lock->handle = -1;
    if (!path)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    int rc = dmlconf_file_lock_take(path, lock, &held_by, reason, sizeof(reason));
    if (rc == -1 && held_by > 0)
        dmlconf_set_why(why, why_size,
                       "%s is in use by another dmlconf (process %ld holds %s); give each run its own folder", dir,
                       held_by, path);
    else if (rc == -1)
        dmlconf_set_why(why, why_size, "%s is in use by another dmlconf (%s is locked); give each run its own folder",
                       dir, path);
    else if (rc != 0)
        dmlconf_set_why(why, why_size, "cannot write in %s (%s)", dir, reason);
    free(path);
    return rc == 0 ? 0 : -1;
}

int report_check_writable(const char *dir, const char *name, char *why, size_t why_size)
{
    if (dmlconf_check_folder_writable(dir, why, why_size))
        return -1;
    char *path = report_path(dir, name, "");
    if (!path)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    /* An existing file must be a file that can be written. */
    dmlconf_path_kind kind = DMLCONF_PATH_MISSING;
    int rc = dmlconf_path_examine(path, &kind, NULL, why, why_size);
    if (rc == 0 && kind != DMLCONF_PATH_MISSING)
    {
        FILE *file = kind == DMLCONF_PATH_REGULAR ? fopen(path, "ab") : NULL;
        if (!file)
        {
            dmlconf_set_why(why, why_size, "cannot write %s: %s", path,
                           kind == DMLCONF_PATH_DIRECTORY ? "it is a directory" : "it cannot be opened for writing");
            rc = -1;
        }
        else
            fclose(file);
    }
    free(path);
    return rc;
}
