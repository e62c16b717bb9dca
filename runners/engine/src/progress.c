/*
 * A run's progress, as one line for the console (runner.h).
 */
#include <dmlconf/runner.h>

#include <dmlconf/text.h>

#include <string.h>

void runner_progress_start(runner_progress *progress, size_t total, double now)
{
    memset(progress, 0, sizeof(*progress));
    progress->total = total;
    progress->started = now;
}

void runner_progress_count(runner_progress *progress, dmlconf_status status)
{
    if ((unsigned)status < DMLCONF_STATUS_COUNT)
        progress->counts[status]++;
    progress->done++;
}

/* "12s", "3m05s", "2h07m": a duration as a log reads it. */
static void append_duration(dmlconf_text *text, double seconds)
{
    if (seconds < 0.0)
        seconds = 0.0;
    unsigned long long whole = (unsigned long long)(seconds + 0.5);
    if (whole < 60)
        dmlconf_text_appendf(text, "%llus", whole);
    else if (whole < 3600)
        dmlconf_text_appendf(text, "%llum%02llus", whole / 60, whole % 60);
    else
        dmlconf_text_appendf(text, "%lluh%02llum", whole / 3600, whole / 60 % 60);
}

size_t runner_progress_format(const runner_progress *progress, double now, char *buf, size_t size)
{
    dmlconf_text text = {buf, size, 0};
    double elapsed = now - progress->started;
    if (size)
        buf[0] = '\0';
    dmlconf_text_appendf(&text, "[");
    append_duration(&text, elapsed);
    dmlconf_text_appendf(&text, "] %zu/%zu done, %llu pass", progress->done, progress->total,
                         (unsigned long long)progress->counts[DMLCONF_STATUS_PASS]);
    for (unsigned s = 0; s < DMLCONF_STATUS_COUNT; ++s)
    {
        if (s != DMLCONF_STATUS_PASS && progress->counts[s])
            dmlconf_text_appendf(&text, ", %llu %s", (unsigned long long)progress->counts[s],
                                 dmlconf_status_name((dmlconf_status)s));
    }
    size_t this_run = progress->done - progress->earlier;
    if (this_run > 0 && progress->done < progress->total && elapsed > 0.0)
    {
        dmlconf_text_appendf(&text, ", ETA ");
        append_duration(&text, elapsed / (double)this_run * (double)(progress->total - progress->done));
    }
    const runner_flight *flight = &progress->flight;
    if (flight->oldest)
    {
        dmlconf_text_appendf(&text, ", slowest in flight: %s", flight->oldest->id);
        if (flight->batch > 1)
            dmlconf_text_appendf(&text, " and %zu more of its batch", flight->batch - 1);
        if (flight->seconds < 60.0)
            dmlconf_text_appendf(&text, " (%.1fs)", flight->seconds);
        else
        {
            dmlconf_text_appendf(&text, " (");
            append_duration(&text, flight->seconds);
            dmlconf_text_appendf(&text, ")");
        }
    }
    return text.length;
}
