/*
 * Facts about the machine and the console.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <dmlconf/system_info.h>

#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <io.h>
#include <windows.h>

void dmlconf_host_name(char *name, size_t size)
{
    char buffer[MAX_COMPUTERNAME_LENGTH + 1];
    DWORD length = sizeof(buffer);
    if (!GetComputerNameA(buffer, &length))
        snprintf(buffer, sizeof(buffer), "unknown");
    snprintf(name, size, "%s", buffer);
}

bool dmlconf_stream_is_terminal(FILE *stream)
{
    return _isatty(_fileno(stream)) != 0;
}

unsigned dmlconf_terminal_columns(FILE *stream)
{
    HANDLE console = (HANDLE)_get_osfhandle(_fileno(stream));
    CONSOLE_SCREEN_BUFFER_INFO info;
    if (console == INVALID_HANDLE_VALUE || !GetConsoleScreenBufferInfo(console, &info))
        return 0;
    return (unsigned)(info.srWindow.Right - info.srWindow.Left + 1);
}

int dmlconf_set_environment(const char *name, const char *value)
{
    return _putenv_s(name, value) == 0 ? 0 : -1;
}

int dmlconf_unset_environment(const char *name)
{
    /* An empty value removes the variable. */
    return strchr(name, '=') || _putenv_s(name, "") != 0 ? -1 : 0;
}

const char *dmlconf_wine_version(void)
{
    typedef const char *(CDECL * get_version_fn)(void);
    HMODULE ntdll = GetModuleHandleA("ntdll.dll");
    FARPROC address = ntdll ? GetProcAddress(ntdll, "wine_get_version") : NULL;
    if (!address)
        return NULL;
    get_version_fn get_version;
    memcpy(&get_version, &address, sizeof(get_version));
    return get_version();
}

uint64_t dmlconf_physical_memory_bytes(void)
{
    MEMORYSTATUSEX status;
    status.dwLength = sizeof(status);
    return GlobalMemoryStatusEx(&status) ? (uint64_t)status.ullTotalPhys : 0;
}
#else
#include <sys/ioctl.h>
#include <unistd.h>

void dmlconf_host_name(char *name, size_t size)
{
    if (!size)
        return;
    if (gethostname(name, size))
        snprintf(name, size, "unknown");
    name[size - 1] = '\0';
}

bool dmlconf_stream_is_terminal(FILE *stream)
{
    return isatty(fileno(stream)) != 0;
}

unsigned dmlconf_terminal_columns(FILE *stream)
{
    struct winsize size;
    if (!isatty(fileno(stream)) || ioctl(fileno(stream), TIOCGWINSZ, &size) != 0)
        return 0;
    return size.ws_col;
}

int dmlconf_set_environment(const char *name, const char *value)
{
    return setenv(name, value, 1);
}

int dmlconf_unset_environment(const char *name)
{
    return unsetenv(name);
}

const char *dmlconf_wine_version(void)
{
    return NULL;
}

uint64_t dmlconf_physical_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}
#endif
