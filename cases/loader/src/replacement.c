/*
 * Whole-or-nothing file writes (replacement.h). The temporary file is
 * created exclusively (C11's "wbx"; O_EXCL on Windows, whose older C
 * runtimes lack "x"), so an existing file, a named pipe or a link left at
 * that name is never opened; a few names are tried.
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include "replacement.h"

#include "why.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#if defined(_WIN32)
#include <fcntl.h>
#include <io.h>
#endif

/* Temporary names tried before giving up. */
#define REPLACEMENT_TRIES 64u

/* Creates `path` for writing, failing (errno EEXIST) when anything is
 * there already. */
static FILE *create_new_file(const char *path)
{
#if defined(_WIN32)
    int fd = _open(path, _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY, _S_IREAD | _S_IWRITE);
    if (fd < 0)
        return NULL;
    FILE *file = _fdopen(fd, "wb");
    if (!file)
        _close(fd);
    return file;
#else
    return fopen(path, "wbx");
#endif
}

/* What the target is when it is not a regular file; NULL when it is one or
 * does not exist. */
static const char *not_regular(const char *path, bool *exists, unsigned *mode)
{
    struct stat info;

    *exists = stat(path, &info) == 0;
    if (!*exists)
        return NULL;
    *mode = (unsigned)info.st_mode & 0777u;
    if (S_ISREG(info.st_mode))
        return NULL;
    if (S_ISDIR(info.st_mode))
        return "a directory";
#if defined(S_ISFIFO)
    if (S_ISFIFO(info.st_mode))
        return "a named pipe (FIFO)";
#endif
    if (S_ISCHR(info.st_mode))
        return "a character device";
    return "something other than a regular file";
}

int cases_replacement_begin(cases_replacement *r, const char *path, char *why, size_t why_size)
{
    bool exists = false;
    unsigned mode = 0;
    const char *kind = not_regular(path, &exists, &mode);
    size_t length = strlen(path);

    memset(r, 0, sizeof(*r));
    r->path = path;
    if (kind)
    {
        cases_set_why(why, why_size, "is %s, not a regular file; it is not replaced", kind);
        return -1;
    }
    r->temp_path = malloc(length + 32);
    if (!r->temp_path)
    {
        cases_set_why(why, why_size, "out of memory");
        return -1;
    }
    /* Names differ from run to run, so that an abandoned temporary file of
     * an earlier run is not in the way. */
    unsigned long start = (unsigned long)time(NULL) ^ (unsigned long)(uintptr_t)r;
    for (unsigned i = 0; i < REPLACEMENT_TRIES && !r->file; ++i)
    {
        snprintf(r->temp_path, length + 32, "%s.new-%08lx", path, (start + i * 0x9e3779b9ul) & 0xfffffffful);
        r->file = create_new_file(r->temp_path);
        if (!r->file && errno != EEXIST)
            break;
    }
    if (!r->file)
    {
        cases_set_why(why, why_size, "cannot create a temporary file beside it: %s", strerror(errno));
        free(r->temp_path);
        r->temp_path = NULL;
        return -1;
    }
    if (exists)
        chmod(r->temp_path, mode); /* best effort: the new file is readable either way */
    return 0;
}

int cases_replacement_finish(cases_replacement *r, bool written, char *why, size_t why_size)
{
    int result = -1;
    int error = errno;

    if (!r->file)
        return -1;
    if (written && fflush(r->file) != 0)
    {
        written = false;
        error = errno;
    }
    if (fclose(r->file) != 0 && written)
    {
        written = false;
        error = errno;
    }
    r->file = NULL;
    if (!written)
        cases_set_why(why, why_size, "cannot write: %s", strerror(error));
    else
    {
#if defined(_WIN32)
        /* Windows' rename does not replace an existing file. */
        remove(r->path);
#endif
        if (rename(r->temp_path, r->path) == 0)
            result = 0;
        else
            cases_set_why(why, why_size, "cannot replace the file: %s", strerror(errno));
    }
    if (result)
        remove(r->temp_path);
    free(r->temp_path);
    r->temp_path = NULL;
    return result;
}
