/*
 * Regular files only, opened without blocking (regular_file.h). The POSIX
 * way opens with O_NONBLOCK (so a named pipe without a writer does not
 * block the open) and looks at what was opened before reading; the Windows
 * way asks first and checks again once the file is open.
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include "regular_file.h"

#include "why.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#if defined(_WIN32)
#include <io.h>
#else
#include <fcntl.h>
#include <unistd.h>
#endif

/* What a file that is not a regular one is, for a message; NULL for a
 * regular file. */
static const char *not_regular(const struct stat *info)
{
    if (S_ISREG(info->st_mode))
        return NULL;
    if (S_ISDIR(info->st_mode))
        return "a directory";
#if defined(S_ISFIFO)
    if (S_ISFIFO(info->st_mode))
        return "a named pipe (FIFO)";
#endif
    if (S_ISCHR(info->st_mode))
        return "a character device";
#if defined(S_ISBLK)
    if (S_ISBLK(info->st_mode))
        return "a block device";
#endif
#if defined(S_ISSOCK)
    if (S_ISSOCK(info->st_mode))
        return "a socket";
#endif
    return "not a regular file";
}

static void explain_kind(const char *kind, char *why, size_t why_size)
{
    if (!strcmp(kind, "not a regular file"))
        cases_set_why(why, why_size, "is not a regular file");
    else
        cases_set_why(why, why_size, "is %s, not a regular file", kind);
}

#if defined(_WIN32)

FILE *cases_open_regular_file(const char *path, uint64_t *size, char *why, size_t why_size)
{
    struct stat info;
    const char *kind;
    if (stat(path, &info))
    {
        cases_set_why(why, why_size, "cannot open: %s", strerror(errno));
        return NULL;
    }
    if ((kind = not_regular(&info)))
    {
        explain_kind(kind, why, why_size);
        return NULL;
    }
    FILE *file = fopen(path, "rb");
    if (!file)
    {
        cases_set_why(why, why_size, "cannot open: %s", strerror(errno));
        return NULL;
    }
    /* The path may have changed between the two looks. */
    if (fstat(_fileno(file), &info) || (kind = not_regular(&info)))
    {
        if (kind)
            explain_kind(kind, why, why_size);
        else
            cases_set_why(why, why_size, "cannot open: %s", strerror(errno));
        fclose(file);
        return NULL;
    }
    if (size)
        *size = (uint64_t)info.st_size;
    return file;
}

#else

FILE *cases_open_regular_file(const char *path, uint64_t *size, char *why, size_t why_size)
{
    struct stat info;
    const char *kind;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
    {
        cases_set_why(why, why_size, "cannot open: %s", strerror(errno));
        return NULL;
    }
    if (fstat(fd, &info))
    {
        cases_set_why(why, why_size, "cannot open: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    if ((kind = not_regular(&info)))
    {
        explain_kind(kind, why, why_size);
        close(fd);
        return NULL;
    }
    /* Regular files never block; reads go back to the usual mode anyway. */
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    FILE *file = fdopen(fd, "rb");
    if (!file)
    {
        cases_set_why(why, why_size, "cannot open: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    if (size)
        *size = (uint64_t)info.st_size;
    return file;
}

#endif
