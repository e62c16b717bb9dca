/*
 * Time: a monotonic clock for measuring, the wall clock for reports.
 */
#ifndef DMLCONF_CLOCK_H
#define DMLCONF_CLOCK_H

#include <stddef.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Seconds on a monotonic clock with an arbitrary origin (at least
 * microsecond resolution). Never fails. */
double dmlconf_clock_seconds(void);

/* Writes `when` as ISO 8601 UTC ("2026-11-25T19:22:48Z") into `text`
 * (size bytes, at least 21). Writes "" when the time cannot be converted. */
void dmlconf_clock_format_utc(time_t when, char *text, size_t size);

/* Sleeps for about `seconds` (at least 0). */
void dmlconf_clock_sleep(double seconds);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_CLOCK_H */
