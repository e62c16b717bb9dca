/*
 * The cases that took longest on the device, for the reports that people
 * read: a vendor sees the operator's time per case without a benchmark of
 * its own (results.jsonl has every case's backend_seconds).
 */
#include "report_internal.h"

size_t report_device_slowest(const dmlconf_report_input *in, size_t *order, size_t max)
{
    size_t kept = 0;
    for (size_t i = 0; i < in->count && max > 0; ++i)
    {
        double seconds = in->results[i].backend_seconds;
        if (!(seconds >= 0.0))
            continue;
        if (kept == max && !(seconds > in->results[order[kept - 1]].backend_seconds))
            continue;
        /* Insertion into the kept cases, most time first (ties: results
         * order). */
        size_t at = kept < max ? kept++ : kept - 1;
        while (at > 0 && in->results[order[at - 1]].backend_seconds < seconds)
        {
            order[at] = order[at - 1];
            --at;
        }
        order[at] = i;
    }
    return kept;
}
