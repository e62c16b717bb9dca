/*
 * Time, on POSIX and on Windows.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <dmlconf/clock.h>

#include <stdint.h>
#include <stdio.h>

#if defined(_WIN32)
#include <windows.h>

double dmlconf_clock_seconds(void)
{
    LARGE_INTEGER counter, frequency;
    QueryPerformanceCounter(&counter);
    QueryPerformanceFrequency(&frequency);
    return (double)counter.QuadPart / (double)frequency.QuadPart;
}

static int to_utc(time_t when, struct tm *out)
{
    return gmtime_s(out, &when) == 0 ? 0 : -1;
}

void dmlconf_clock_sleep(double seconds)
{
    Sleep(seconds > 0.0 ? (DWORD)(seconds * 1000.0 + 0.5) : 0);
}
#else
#include <errno.h>

double dmlconf_clock_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static int to_utc(time_t when, struct tm *out)
{
    return gmtime_r(&when, out) ? 0 : -1;
}

void dmlconf_clock_sleep(double seconds)
{
    if (seconds <= 0.0)
        return;
    struct timespec left;
    left.tv_sec = (time_t)seconds;
    left.tv_nsec = (long)((seconds - (double)left.tv_sec) * 1e9);
    while (nanosleep(&left, &left) && errno == EINTR)
        ;
}
#endif

void dmlconf_clock_format_utc(time_t when, char *text, size_t size)
{
    struct tm utc;
    if (!size)
        return;
    text[0] = '\0';
    if (to_utc(when, &utc) == 0 && strftime(text, size, "%Y-%m-%dT%H:%M:%SZ", &utc) == 0)
        text[0] = '\0';
}
