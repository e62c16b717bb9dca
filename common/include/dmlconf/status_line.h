/*
 * A line of progress on the console that fits where it runs: on a
 * terminal one line redrawn in place (cut to the terminal's width), in a
 * log (CI) a line of its own every few seconds, so that a long run is
 * never silent for longer than that and a log is not flooded. What the
 * line says is the caller's.
 */
#ifndef DMLCONF_STATUS_LINE_H
#define DMLCONF_STATUS_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum dmlconf_status_line_mode
{
    DMLCONF_STATUS_LINE_OFF,      /* quiet, or a log with no interval: nothing is shown */
    DMLCONF_STATUS_LINE_TERMINAL, /* redrawn in place, at most every DMLCONF_STATUS_LINE_REDRAW seconds */
    DMLCONF_STATUS_LINE_LOG,      /* a line every `interval` seconds */
} dmlconf_status_line_mode;

/* Seconds between two redraws on a terminal. */
#define DMLCONF_STATUS_LINE_REDRAW 0.1

typedef struct dmlconf_status_line
{
    FILE *out;
    dmlconf_status_line_mode mode;
    double interval; /* a log's seconds between lines */
    double last;     /* when the last line was shown (or the line was started) */
    bool drawn;      /* a terminal's line holds text that the next output must clear */
} dmlconf_status_line;

/* Starts a status line on `out` at time `now` (dmlconf_clock_seconds):
 * nothing when `quiet`; redrawn in place when `out` is a terminal; else a
 * line every `interval` seconds, the first `interval` seconds from now
 * (an interval of 0 or less shows nothing). */
void dmlconf_status_line_start(dmlconf_status_line *line, FILE *out, bool quiet, double interval, double now);

/* Whether a line is due at `now`: a terminal's redraw, or a log's next
 * line. Always false when off. */
bool dmlconf_status_line_due(const dmlconf_status_line *line, double now);

/* Shows `text` (one line, no newline) at `now`: on a terminal in place of
 * the one before, cut to the terminal's width; in a log as a line of its
 * own, whole. Flushes. Does nothing when off. */
void dmlconf_status_line_show(dmlconf_status_line *line, const char *text, double now);

/* Ends a terminal's line with a newline, so that what follows starts on a
 * line of its own and the last state stays on the screen (nothing to do
 * in a log, or when nothing was drawn). */
void dmlconf_status_line_end(dmlconf_status_line *line);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_STATUS_LINE_H */
