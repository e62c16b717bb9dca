/*
 * The random numbers of `dmlconf explore`: splitmix64 streams, one per
 * (seed, stream), so that a case depends only on its own stream and the
 * same seed gives the same bits on every platform.
 */
#include "explore_internal.h"

/* splitmix64's finaliser. */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void explore_random_seed(explore_random *random, uint64_t seed, uint64_t stream)
{
    random->state = mix(seed ^ mix(stream + UINT64_C(0x632be59bd9b4e019)));
}

uint64_t explore_random_next(explore_random *random)
{
    random->state += UINT64_C(0x9e3779b97f4a7c15);
    return mix(random->state);
}

uint64_t explore_random_below(explore_random *random, uint64_t bound)
{
    if (bound == 0)
        return 0;
    /* Rejection of the few values that would bias the remainder. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t value;
    do
        value = explore_random_next(random);
    while (value >= limit);
    return value % bound;
}

uint64_t explore_random_range(explore_random *random, uint64_t low, uint64_t high)
{
    if (high <= low)
        return low;
    if (low == 0 && high == UINT64_MAX)
        return explore_random_next(random);
    return low + explore_random_below(random, high - low + 1);
}

bool explore_random_percent(explore_random *random, unsigned percent)
{
    return explore_random_below(random, 100) < percent;
}
