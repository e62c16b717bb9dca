/*
 * Time limits that scale with the work: a batch of cases may run
 *     max(floor, RUNNER_TIMEOUT_FACTOR x its elements x the seconds an
 *         element took on this backend in this run)
 * before its worker is killed and its case called a timeout. The speed is
 * the run's own: the wall time of the batches that finished over their
 * elements, summed, so that the large cases, which dominate both sums once
 * one has run, set it. Until batches of RUNNER_MEASURED_ELEMENTS elements
 * have finished, RUNNER_INITIAL_SECONDS_PER_ELEMENT (a slow CPU
 * implementation's pace) stands in for it.
 *
 * Small batches measure mostly their fixed costs (opening a pipeline,
 * sending the batch), which makes their seconds an element high: a large
 * case that follows only small ones gets more time, never less. The factor
 * covers what a case's time holds beyond one run of it (a failure's rerun
 * and shrinking) and cases slower an element than the average (layouts that
 * stride through memory).
 */
#include <dmlconf/runner.h>

void runner_speed_add(runner_speed *speed, double seconds, uint64_t elements)
{
    if (seconds > 0.0 && elements > 0)
    {
        speed->seconds += seconds;
        speed->elements += elements;
    }
}

double runner_speed_seconds_per_element(const runner_speed *speed)
{
    if (speed->elements < RUNNER_MEASURED_ELEMENTS)
        return RUNNER_INITIAL_SECONDS_PER_ELEMENT;
    return speed->seconds / (double)speed->elements;
}

double runner_time_limit(double floor_seconds, uint64_t elements, double seconds_per_element)
{
    double scaled = RUNNER_TIMEOUT_FACTOR * (double)elements * seconds_per_element;
    return scaled > floor_seconds ? scaled : floor_seconds;
}
