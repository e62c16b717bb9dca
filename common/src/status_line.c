/*
 * A line of progress on the console (status_line.h).
 */
#include <dmlconf/status_line.h>

#include <dmlconf/system_info.h>

#include <string.h>

void dmlconf_status_line_start(dmlconf_status_line *line, FILE *out, bool quiet, double interval, double now)
{
    memset(line, 0, sizeof(*line));
    line->out = out;
    line->interval = interval;
    line->last = now;
    if (quiet)
        line->mode = DMLCONF_STATUS_LINE_OFF;
    else if (dmlconf_stream_is_terminal(out))
        line->mode = DMLCONF_STATUS_LINE_TERMINAL;
    else
        line->mode = interval > 0.0 ? DMLCONF_STATUS_LINE_LOG : DMLCONF_STATUS_LINE_OFF;
}

bool dmlconf_status_line_due(const dmlconf_status_line *line, double now)
{
    switch (line->mode)
    {
    case DMLCONF_STATUS_LINE_TERMINAL:
        return now - line->last >= DMLCONF_STATUS_LINE_REDRAW;
    case DMLCONF_STATUS_LINE_LOG:
        return now - line->last >= line->interval;
    default:
        return false;
    }
}

void dmlconf_status_line_show(dmlconf_status_line *line, const char *text, double now)
{
    if (line->mode == DMLCONF_STATUS_LINE_OFF)
        return;
    line->last = now;
    if (line->mode == DMLCONF_STATUS_LINE_LOG)
    {
        fprintf(line->out, "%s\n", text);
        fflush(line->out);
        return;
    }
    /* A line that wraps could not be redrawn: it is cut one column short of
     * the width (the last column would wrap on some terminals). */
    unsigned columns = dmlconf_terminal_columns(line->out);
    size_t length = strlen(text);
    if (columns > 1 && length > columns - 1)
        length = columns - 1;
    /* Back to the line's start, the text, and the rest of the line erased. */
    fprintf(line->out, "\r%.*s\033[K", (int)length, text);
    fflush(line->out);
    line->drawn = true;
}

void dmlconf_status_line_end(dmlconf_status_line *line)
{
    if (line->mode == DMLCONF_STATUS_LINE_TERMINAL && line->drawn)
    {
        fputc('\n', line->out);
        fflush(line->out);
    }
    line->drawn = false;
}
