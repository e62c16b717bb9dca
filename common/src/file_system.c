/*
 * Files and folders on POSIX and on Windows.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <dmlconf/file_system.h>
#include <dmlconf/reserve.h>
#include <dmlconf/text.h>
#include <dmlconf/why.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#if defined(_WIN32)
#include <direct.h>
#include <io.h>
#include <process.h>
#include <windows.h>
#else
#include <dirent.h>
#include <unistd.h>
#endif

static bool is_separator(char c)
{
#if defined(_WIN32)
    return c == '/' || c == '\\';
#else
    return c == '/';
#endif
}

const char *dmlconf_path_kind_name(dmlconf_path_kind kind)
{
    switch (kind)
    {
    case DMLCONF_PATH_MISSING:
        return "missing";
    case DMLCONF_PATH_REGULAR:
        return "a regular file";
    case DMLCONF_PATH_DIRECTORY:
        return "a folder";
    case DMLCONF_PATH_OTHER:
        break;
    }
    return "a FIFO or device";
}

int dmlconf_path_examine(const char *path, dmlconf_path_kind *kind, uint64_t *bytes, char *why, size_t why_size)
{
    if (bytes)
        *bytes = 0;
#if defined(_WIN32)
    struct _stat64 info;
    if (_stat64(path, &info))
#else
    struct stat info;
    if (stat(path, &info))
#endif
    {
        if (errno == ENOENT || errno == ENOTDIR)
        {
            *kind = DMLCONF_PATH_MISSING;
            return 0;
        }
        dmlconf_set_why(why, why_size, "%s: %s", path, strerror(errno));
        return -1;
    }
#if defined(_WIN32)
    if ((info.st_mode & _S_IFMT) == _S_IFDIR)
        *kind = DMLCONF_PATH_DIRECTORY;
    else if ((info.st_mode & _S_IFMT) == _S_IFREG)
        *kind = DMLCONF_PATH_REGULAR;
    else
        *kind = DMLCONF_PATH_OTHER;
#else
    if (S_ISDIR(info.st_mode))
        *kind = DMLCONF_PATH_DIRECTORY;
    else if (S_ISREG(info.st_mode))
        *kind = DMLCONF_PATH_REGULAR;
    else
        *kind = DMLCONF_PATH_OTHER;
#endif
    if (bytes && *kind == DMLCONF_PATH_REGULAR)
        *bytes = (uint64_t)info.st_size;
    return 0;
}

#if defined(_WIN32)
bool dmlconf_paths_same(const char *a, const char *b)
{
    BY_HANDLE_FILE_INFORMATION info[2];
    const char *paths[2] = {a, b};
    for (int i = 0; i < 2; ++i)
    {
        /* FILE_FLAG_BACKUP_SEMANTICS opens folders too. */
        HANDLE handle = CreateFileA(paths[i], 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                                    OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
        if (handle == INVALID_HANDLE_VALUE)
            return false;
        BOOL got = GetFileInformationByHandle(handle, &info[i]);
        CloseHandle(handle);
        if (!got)
            return false;
    }
    return info[0].dwVolumeSerialNumber == info[1].dwVolumeSerialNumber &&
           info[0].nFileIndexHigh == info[1].nFileIndexHigh && info[0].nFileIndexLow == info[1].nFileIndexLow;
}
#else
bool dmlconf_paths_same(const char *a, const char *b)
{
    struct stat x, y;
    return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}
#endif

#if !defined(_WIN32)
/* What a file of `mode` is, when not a regular file. */
static const char *kind_of_mode(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a named pipe (FIFO)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "something other than a regular file";
}
#endif

#if defined(_WIN32)
FILE *dmlconf_open_regular_file(const char *path, uint64_t *bytes, char *why, size_t why_size)
{
    dmlconf_path_kind kind;
    char reason[512];
    if (dmlconf_path_examine(path, &kind, bytes, reason, sizeof(reason)))
    {
        dmlconf_set_why(why, why_size, "cannot open: %s", strerror(errno));
        return NULL;
    }
    if (kind == DMLCONF_PATH_MISSING)
    {
        dmlconf_set_why(why, why_size, "cannot open: %s", strerror(ENOENT));
        return NULL;
    }
    if (kind != DMLCONF_PATH_REGULAR)
    {
        dmlconf_set_why(why, why_size, "is %s, not a regular file",
                        kind == DMLCONF_PATH_DIRECTORY ? "a directory" : "a device");
        return NULL;
    }
    HANDLE handle = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                                OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    if (handle == INVALID_HANDLE_VALUE)
    {
        dmlconf_set_why(why, why_size, "cannot open: Windows error %lu", (unsigned long)GetLastError());
        return NULL;
    }
    if (GetFileType(handle) != FILE_TYPE_DISK)
    {
        CloseHandle(handle);
        dmlconf_set_why(why, why_size, "is a device, not a regular file");
        return NULL;
    }
    int fd = _open_osfhandle((intptr_t)handle, _O_RDONLY | _O_BINARY);
    if (fd < 0)
    {
        CloseHandle(handle);
        dmlconf_set_why(why, why_size, "cannot open: %s", strerror(errno));
        return NULL;
    }
    FILE *file = _fdopen(fd, "rb");
    if (!file)
    {
        dmlconf_set_why(why, why_size, "cannot open: %s", strerror(errno));
        _close(fd);
    }
    return file;
}
#else
FILE *dmlconf_open_regular_file(const char *path, uint64_t *bytes, char *why, size_t why_size)
{
    /* Looked at first, so that nothing that is not a regular file is ever
     * opened; O_NONBLOCK, so that one swapped in since (a FIFO with no
     * writer) does not block the open; the kind is checked again on what
     * was opened. */
    struct stat info;
    if (stat(path, &info))
    {
        dmlconf_set_why(why, why_size, "cannot open: %s", strerror(errno));
        return NULL;
    }
    if (!S_ISREG(info.st_mode))
    {
        dmlconf_set_why(why, why_size, "is %s, not a regular file", kind_of_mode(info.st_mode));
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
    {
        dmlconf_set_why(why, why_size, "cannot open: %s", strerror(errno));
        return NULL;
    }
    if (fstat(fd, &info))
    {
        dmlconf_set_why(why, why_size, "cannot open: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(info.st_mode))
    {
        dmlconf_set_why(why, why_size, "is %s, not a regular file", kind_of_mode(info.st_mode));
        close(fd);
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0)
    {
        dmlconf_set_why(why, why_size, "cannot open: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    FILE *file = fdopen(fd, "rb");
    if (!file)
    {
        dmlconf_set_why(why, why_size, "cannot open: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    if (bytes)
        *bytes = (uint64_t)info.st_size;
    return file;
}
#endif

void dmlconf_free_folder_names(char **names)
{
    if (!names)
        return;
    for (char **name = names; *name; ++name)
        free(*name);
    free(names);
}

/* A NULL-terminated growing array of names. */
typedef struct name_list
{
    char **items;
    size_t count;
    size_t capacity;
} name_list;

static int name_list_add(name_list *list, const char *name)
{
    if (!dmlconf_reserve((void **)&list->items, &list->capacity, list->count + 2, sizeof(*list->items)))
        return -1;
    char *copy = dmlconf_strdup(name);
    if (!copy)
        return -1;
    list->items[list->count++] = copy;
    list->items[list->count] = NULL;
    return 0;
}

char **dmlconf_list_folder(const char *path, char *why, size_t why_size)
{
    name_list list = {calloc(1, sizeof(char *)), 0, 1};
    if (!list.items)
        goto out_of_memory;
#if defined(_WIN32)
    char *pattern = dmlconf_path_join(path, "*");
    if (!pattern)
        goto out_of_memory;
    WIN32_FIND_DATAA entry;
    HANDLE find = FindFirstFileA(pattern, &entry);
    free(pattern);
    if (find == INVALID_HANDLE_VALUE)
    {
        DWORD error = GetLastError();
        if (error == ERROR_FILE_NOT_FOUND)
            return list.items; /* an empty folder */
        dmlconf_set_why(why, why_size, "%s: cannot open the folder (Windows error %lu)", path, (unsigned long)error);
        dmlconf_free_folder_names(list.items);
        return NULL;
    }
    do
    {
        if (!strcmp(entry.cFileName, ".") || !strcmp(entry.cFileName, ".."))
            continue;
        if (name_list_add(&list, entry.cFileName))
        {
            FindClose(find);
            goto out_of_memory;
        }
    } while (FindNextFileA(find, &entry));
    FindClose(find);
#else
    DIR *folder = opendir(path);
    if (!folder)
    {
        dmlconf_set_why(why, why_size, "%s: cannot open the folder: %s", path, strerror(errno));
        dmlconf_free_folder_names(list.items);
        return NULL;
    }
    struct dirent *entry;
    while ((entry = readdir(folder)))
    {
        if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
            continue;
        if (name_list_add(&list, entry->d_name))
        {
            closedir(folder);
            goto out_of_memory;
        }
    }
    closedir(folder);
#endif
    return list.items;

out_of_memory:
    dmlconf_free_folder_names(list.items);
    dmlconf_set_why(why, why_size, "%s: out of memory while listing the folder", path);
    return NULL;
}

char *dmlconf_path_join(const char *folder, const char *name)
{
    size_t a = strlen(folder), b = strlen(name);
    bool slash = a && !is_separator(folder[a - 1]);
    char *path = malloc(a + slash + b + 1);
    if (!path)
        return NULL;
    memcpy(path, folder, a);
    if (slash)
        path[a] = '/';
    memcpy(path + a + slash, name, b + 1);
    return path;
}

bool dmlconf_path_is_absolute(const char *path)
{
    if (is_separator(path[0]))
        return true;
#if defined(_WIN32)
    if (((path[0] >= 'A' && path[0] <= 'Z') || (path[0] >= 'a' && path[0] <= 'z')) && path[1] == ':')
        return true;
#endif
    return false;
}

char *dmlconf_path_resolve(const char *folder, const char *name)
{
    return dmlconf_path_is_absolute(name) ? dmlconf_strdup(name) : dmlconf_path_join(folder, name);
}

char *dmlconf_path_folder(const char *path)
{
    size_t end = strlen(path);
    while (end > 0 && !is_separator(path[end - 1]))
        --end;
    /* The separators before the name go too, but the root's. */
    while (end > 1 && is_separator(path[end - 1]))
        --end;
    if (end == 0)
        return dmlconf_strdup(".");
    char *folder = malloc(end + 1);
    if (!folder)
        return NULL;
    memcpy(folder, path, end);
    folder[end] = '\0';
    return folder;
}

static int make_one_folder(const char *path)
{
#if defined(_WIN32)
    return _mkdir(path);
#else
    return mkdir(path, 0777);
#endif
}

int dmlconf_make_folders(const char *path, char *why, size_t why_size)
{
    char *copy = dmlconf_strdup(path);
    if (!copy)
    {
        dmlconf_set_why(why, why_size, "%s: out of memory", path);
        return -1;
    }
    size_t length = strlen(copy);
    /* Create each prefix that ends before a separator, then the whole. */
    for (size_t i = 1; i <= length; ++i)
    {
        if (i < length && !is_separator(copy[i]))
            continue;
        char saved = copy[i];
        copy[i] = '\0';
        if (make_one_folder(copy) && errno != EEXIST)
        {
            dmlconf_path_kind kind = DMLCONF_PATH_MISSING;
            int error = errno;
            /* "C:" and "/" themselves cannot be made and need not be. */
            if (dmlconf_path_examine(copy, &kind, NULL, NULL, 0) || kind != DMLCONF_PATH_DIRECTORY)
            {
                dmlconf_set_why(why, why_size, "cannot create the folder %s: %s", copy, strerror(error));
                free(copy);
                return -1;
            }
        }
        copy[i] = saved;
    }
    dmlconf_path_kind kind;
    int result = dmlconf_path_examine(path, &kind, NULL, why, why_size);
    if (!result && kind != DMLCONF_PATH_DIRECTORY)
    {
        dmlconf_set_why(why, why_size, "%s: exists and is %s, not a folder", path, dmlconf_path_kind_name(kind));
        result = -1;
    }
    free(copy);
    return result;
}

static unsigned long process_id(void)
{
#if defined(_WIN32)
    return (unsigned long)GetCurrentProcessId();
#else
    return (unsigned long)getpid();
#endif
}

/* Creates a new file that did not exist, for writing, with `mode`
 * permissions (POSIX). Returns a descriptor or -1 (errno set). */
static int create_new_file(const char *path, unsigned mode)
{
#if defined(_WIN32)
    (void)mode;
    return _open(path, _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY, _S_IREAD | _S_IWRITE);
#else
    return open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, (mode_t)mode);
#endif
}

/* A temporary path beside `path` that does not exist yet, opened for
 * writing. Returns the descriptor with *temporary set (freed by the
 * caller), or -1 with `why`. */
static int create_temporary_beside(const char *path, unsigned mode, char **temporary, char *why, size_t why_size)
{
    size_t size = strlen(path) + 48;
    char *name = malloc(size);
    if (!name)
    {
        dmlconf_set_why(why, why_size, "%s: out of memory", path);
        return -1;
    }
    for (unsigned attempt = 0; attempt < 1000; ++attempt)
    {
        snprintf(name, size, "%s.tmp.%lu.%u", path, process_id(), attempt);
        int fd = create_new_file(name, mode);
        if (fd >= 0)
        {
            *temporary = name;
            return fd;
        }
        if (errno != EEXIST)
            break;
    }
    int error = errno;
    dmlconf_set_why(why, why_size, "cannot create a temporary file beside %s: %s", path, strerror(error));
    free(name);
    errno = error;
    return -1;
}

int dmlconf_check_folder_writable(const char *path, char *why, size_t why_size)
{
    char *probe_base = dmlconf_path_join(path, ".dmlconf-write-probe");
    if (!probe_base)
    {
        dmlconf_set_why(why, why_size, "%s: out of memory", path);
        return -1;
    }
    char *probe = NULL, reason[256];
    int fd = create_temporary_beside(probe_base, 0600, &probe, reason, sizeof(reason));
    free(probe_base);
    if (fd < 0)
    {
        dmlconf_set_why(why, why_size, "cannot write into the folder %s: %s", path, strerror(errno));
        return -1;
    }
#if defined(_WIN32)
    _close(fd);
#else
    close(fd);
#endif
    remove(probe);
    free(probe);
    return 0;
}

int dmlconf_replace_file(const char *from, const char *to, char *why, size_t why_size)
{
#if defined(_WIN32)
    if (!MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
    {
        dmlconf_set_why(why, why_size, "cannot rename %s to %s (Windows error %lu)", from, to,
                        (unsigned long)GetLastError());
        return -1;
    }
#else
    if (rename(from, to))
    {
        dmlconf_set_why(why, why_size, "cannot rename %s to %s: %s", from, to, strerror(errno));
        return -1;
    }
#endif
    return 0;
}

int dmlconf_sync_file(FILE *file)
{
    if (fflush(file))
        return -1;
#if defined(_WIN32)
    return _commit(_fileno(file));
#else
    return fsync(fileno(file));
#endif
}

/* What `path` is when it is something other than a regular file; NULL
 * when it is one or is missing. *mode gets a regular file's permissions. */
static const char *not_regular(const char *path, bool *exists, unsigned *mode)
{
#if defined(_WIN32)
    struct _stat64 info;
    *exists = _stat64(path, &info) == 0;
    if (!*exists)
        return NULL;
    *mode = 0666;
    if ((info.st_mode & _S_IFMT) == _S_IFREG)
        return NULL;
    if ((info.st_mode & _S_IFMT) == _S_IFDIR)
        return "a directory";
    return "something other than a regular file";
#else
    struct stat info;
    *exists = stat(path, &info) == 0;
    if (!*exists)
        return NULL;
    *mode = (unsigned)info.st_mode & 07777u;
    return S_ISREG(info.st_mode) ? NULL : kind_of_mode(info.st_mode);
#endif
}

int dmlconf_replacement_begin(dmlconf_replacement *r, const char *path, char *why, size_t why_size)
{
    bool exists = false;
    unsigned mode = 0666;
    memset(r, 0, sizeof(*r));
    r->path = path;
    const char *kind = not_regular(path, &exists, &mode);
    if (kind)
    {
        dmlconf_set_why(why, why_size, "is %s, not a regular file; it is not replaced", kind);
        return -1;
    }
    char reason[512];
    int fd = create_temporary_beside(path, exists ? mode : 0666, &r->temp_path, reason, sizeof(reason));
    if (fd < 0)
    {
        dmlconf_set_why(why, why_size, "cannot create a temporary file beside it: %s", strerror(errno));
        return -1;
    }
#if defined(_WIN32)
    r->file = _fdopen(fd, "wb");
#else
    /* The umask applied at creation: give the old file's mode exactly. */
    if (exists)
        (void)fchmod(fd, (mode_t)mode);
    r->file = fdopen(fd, "wb");
#endif
    if (!r->file)
    {
        dmlconf_set_why(why, why_size, "cannot write a temporary file beside it: %s", strerror(errno));
#if defined(_WIN32)
        _close(fd);
#else
        close(fd);
#endif
        remove(r->temp_path);
        free(r->temp_path);
        r->temp_path = NULL;
        return -1;
    }
    return 0;
}

int dmlconf_replacement_finish(dmlconf_replacement *r, bool written, bool sync, char *why, size_t why_size)
{
    int result = -1;
    int error = errno;
    if (!r->file)
        return -1;
    if (written && (sync ? dmlconf_sync_file(r->file) : fflush(r->file)) != 0)
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
    char reason[512];
    if (!written)
        dmlconf_set_why(why, why_size, "cannot write: %s", strerror(error));
    else if (dmlconf_replace_file(r->temp_path, r->path, reason, sizeof(reason)) == 0)
        result = 0;
    else
        dmlconf_set_why(why, why_size, "cannot replace the file: %s", reason);
    if (result)
        remove(r->temp_path);
    free(r->temp_path);
    r->temp_path = NULL;
    return result;
}

int dmlconf_write_file_atomically(const char *path, const void *data, size_t size, bool sync, char *why,
                                  size_t why_size)
{
    dmlconf_replacement replacement;
    char reason[512];
    if (dmlconf_replacement_begin(&replacement, path, reason, sizeof(reason)) ||
        dmlconf_replacement_finish(&replacement, !size || fwrite(data, 1, size, replacement.file) == size, sync,
                                   reason, sizeof(reason)))
    {
        dmlconf_set_why(why, why_size, "%s: %s", path, reason);
        return -1;
    }
    return 0;
}

#if defined(_WIN32)
int dmlconf_file_lock_take(const char *path, dmlconf_file_lock *lock, long *held_by, char *why, size_t why_size)
{
    lock->handle = -1;
    *held_by = 0;
    HANDLE file = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                              NULL, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    if (file == INVALID_HANDLE_VALUE)
    {
        dmlconf_set_why(why, why_size, "cannot create %s (Windows error %lu)", path, (unsigned long)GetLastError());
        return -2;
    }
    OVERLAPPED whole;
    memset(&whole, 0, sizeof(whole));
    if (!LockFileEx(file, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &whole))
    {
        DWORD error = GetLastError();
        CloseHandle(file);
        if (error == ERROR_LOCK_VIOLATION || error == ERROR_SHARING_VIOLATION)
        {
            dmlconf_set_why(why, why_size, "%s is locked by another process", path);
            return -1;
        }
        dmlconf_set_why(why, why_size, "cannot lock %s (Windows error %lu)", path, (unsigned long)error);
        return -2;
    }
    lock->handle = (intptr_t)file;
    return 0;
}

void dmlconf_file_lock_release(dmlconf_file_lock *lock)
{
    if (lock->handle == -1)
        return;
    CloseHandle((HANDLE)lock->handle);
    lock->handle = -1;
}
#else
int dmlconf_file_lock_take(const char *path, dmlconf_file_lock *lock, long *held_by, char *why, size_t why_size)
{
    lock->handle = -1;
    *held_by = 0;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
    {
        dmlconf_set_why(why, why_size, "cannot create %s: %s", path, strerror(errno));
        return -2;
    }
    struct flock whole;
    memset(&whole, 0, sizeof(whole));
    whole.l_type = F_WRLCK;
    whole.l_whence = SEEK_SET;
    if (fcntl(fd, F_SETLK, &whole) == 0)
    {
        lock->handle = fd;
        return 0;
    }
    int error = errno;
    if (error != EACCES && error != EAGAIN)
    {
        dmlconf_set_why(why, why_size, "cannot lock %s: %s", path, strerror(error));
        close(fd);
        return -2;
    }
    memset(&whole, 0, sizeof(whole));
    whole.l_type = F_WRLCK;
    whole.l_whence = SEEK_SET;
    if (fcntl(fd, F_GETLK, &whole) == 0 && whole.l_type != F_UNLCK)
        *held_by = (long)whole.l_pid;
    close(fd);
    if (*held_by > 0)
        dmlconf_set_why(why, why_size, "%s is locked by process %ld", path, *held_by);
    else
        dmlconf_set_why(why, why_size, "%s is locked by another process", path);
    return -1;
}

void dmlconf_file_lock_release(dmlconf_file_lock *lock)
{
    if (lock->handle == -1)
        return;
    /* Closing the file releases the lock. */
    close((int)lock->handle);
    lock->handle = -1;
}
#endif
