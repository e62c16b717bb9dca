/*
 * The report folder on disk: creating it, locking it against a second run,
 * checking that it can be written, and replacing files in it. What differs
 * between systems lives in small functions here, each with its Windows
 * alternative.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "report_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef _WIN32
#include <direct.h>
#include <io.h>
#include <sys/locking.h>
#else
#include <unistd.h>
#endif

char *dmlconf_path_join(const char *dir, const char *name, const char *suffix)
{
    size_t length = strlen(dir) + 1 + strlen(name) + strlen(suffix) + 1;
    char *path = malloc(length);

    if (path)
        snprintf(path, length, "%s/%s%s", dir, name, suffix);
    return path;
}

static int make_one_directory(const char *path)
{
#ifdef _WIN32
    return _mkdir(path);
#else
    return mkdir(path, 0777);
#endif
}

static bool is_separator(char c)
{
#ifdef _WIN32
    return c == '/' || c == '\\';
#else
    return c == '/';
#endif
}

static bool is_directory_mode(unsigned mode)
{
#ifdef _WIN32
    return (mode & _S_IFDIR) != 0;
#else
    return S_ISDIR(mode);
#endif
}

int dmlconf_make_directories(const char *dir, char *why, size_t why_size)
{
    size_t length = strlen(dir);
    char *path = malloc(length + 1);
    struct stat info;

    if (!path)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    memcpy(path, dir, length + 1);
    for (size_t i = 1; i <= length; ++i)
    {
        if (i == length || is_separator(path[i]))
        {
            char saved = path[i];
            path[i] = '\0';
            if (!is_separator(path[i - 1]) && make_one_directory(path) != 0 && errno != EEXIST)
            {
                dmlconf_set_why(why, why_size, "cannot create directory %s: %s", path, strerror(errno));
                free(path);
                return -1;
            }
            path[i] = saved;
        }
    }
    free(path);
    if (stat(dir, &info) != 0 || !is_directory_mode(info.st_mode))
    {
        dmlconf_set_why(why, why_size, "%s is not a directory", dir);
        return -1;
    }
    return 0;
}

int dmlconf_sync_file(FILE *file)
{
#ifdef _WIN32
    return _commit(_fileno(file));
#else
    return fsync(fileno(file));
#endif
}

int dmlconf_replace_file(const char *from, const char *to)
{
#ifdef _WIN32
    remove(to);
#endif
    return rename(from, to);
}

/* ---- the lock ------------------------------------------------------------------ */

static int open_lock_file(const char *path)
{
#ifdef _WIN32
    return _open(path, _O_RDWR | _O_CREAT | _O_BINARY, _S_IREAD | _S_IWRITE);
#else
    return open(path, O_RDWR | O_CREAT, 0666);
#endif
}

static void close_lock_file(int fd)
{
#ifdef _WIN32
    _close(fd);
#else
    close(fd);
#endif
}

/* Locks the whole lock file without waiting. Returns 0; or -1 with
 * *held_by set (0 when the system cannot tell) when another process holds
 * it; or -2 with errno set on another error. A POSIX record lock belongs to
 * the process, so it goes when the process ends however it ends, and the
 * workers a run forks do not inherit it. */
static int lock_file(int fd, long *held_by)
{
#ifdef _WIN32
    *held_by = 0;
    if (_locking(fd, _LK_NBLCK, 1) == 0)
        return 0;
    return errno == EACCES || errno == EDEADLOCK ? -1 : -2;
#else
    struct flock lock;

    memset(&lock, 0, sizeof(lock));
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    *held_by = 0;
    if (fcntl(fd, F_SETLK, &lock) == 0)
        return 0;
    if (errno != EACCES && errno != EAGAIN)
        return -2;
    memset(&lock, 0, sizeof(lock));
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    if (fcntl(fd, F_GETLK, &lock) == 0 && lock.l_type != F_UNLCK)
        *held_by = (long)lock.l_pid;
    return -1;
#endif
}

int dmlconf_dir_lock_take(const char *dir, dmlconf_dir_lock *lock, char *why, size_t why_size)
{
    char *path = dmlconf_path_join(dir, DMLCONF_REPORT_LOCK, "");
    long held_by = 0;
    int rc;

    lock->fd = -1;
    if (!path)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        return -1;
    }
    lock->fd = open_lock_file(path);
    if (lock->fd < 0)
    {
        dmlconf_set_why(why, why_size, "cannot write in %s (creating %s: %s)", dir, path, strerror(errno));
        free(path);
        return -1;
    }
    rc = lock_file(lock->fd, &held_by);
    if (rc != 0)
    {
        if (rc == -1 && held_by > 0)
            dmlconf_set_why(why, why_size,
                            "%s is in use by another dmlconf (process %ld holds %s); give each run its own folder", dir,
                            held_by, path);
        else if (rc == -1)
            dmlconf_set_why(why, why_size,
                            "%s is in use by another dmlconf (%s is locked); give each run its own folder", dir, path);
        else
            dmlconf_set_why(why, why_size, "cannot lock %s: %s", path, strerror(errno));
        close_lock_file(lock->fd);
        lock->fd = -1;
        free(path);
        return -1;
    }
    free(path);
    return 0;
}

void dmlconf_dir_lock_release(dmlconf_dir_lock *lock)
{
    if (lock->fd < 0)
        return;
    /* Closing the file releases the lock. */
    close_lock_file(lock->fd);
    lock->fd = -1;
}

/* ---- writability -------------------------------------------------------------- */

static bool can_write_existing(const char *path)
{
#ifdef _WIN32
    return _access(path, 2) == 0;
#else
    return access(path, W_OK) == 0;
#endif
}

int dmlconf_check_writable(const char *dir, const char *name, char *why, size_t why_size)
{
    char *probe = dmlconf_path_join(dir, name, ".probe");
    char *path = dmlconf_path_join(dir, name, "");
    struct stat info;
    FILE *file;
    int rc = -1;

    if (!probe || !path)
    {
        dmlconf_set_why(why, why_size, "out of memory");
        goto done;
    }
    file = fopen(probe, "wb");
    if (!file)
    {
        dmlconf_set_why(why, why_size, "cannot write in %s (creating %s: %s)", dir, probe, strerror(errno));
        goto done;
    }
    {
        bool written = fputc('\n', file) != EOF;
        bool closed = fclose(file) == 0;
        remove(probe);
        if (!written || !closed)
        {
            dmlconf_set_why(why, why_size, "cannot write in %s (writing %s: %s)", dir, probe, strerror(errno));
            goto done;
        }
    }
    if (stat(path, &info) == 0 && (is_directory_mode(info.st_mode) || !can_write_existing(path)))
    {
        dmlconf_set_why(why, why_size, "cannot write %s: %s", path,
                        is_directory_mode(info.st_mode) ? "it is a directory" : strerror(errno));
        goto done;
    }
    rc = 0;
done:
    free(probe);
    free(path);
    return rc;
}
