// Monotonic wall-clock seconds, for timings and the progress bar.
#pragma once

#include <time.h>

static inline double stopwatch_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}
