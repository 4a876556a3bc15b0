// A small deterministic random generator (splitmix64): the same seed gives the same scene on
// every machine, and nothing here calls libm, whose last bits may differ between systems.
#pragma once

#include "manyfold.h"

#include <math.h>
#include <stdint.h>

typedef struct cli_random {
    uint64_t state;
} cli_random;

static inline uint64_t cli_random_next(cli_random *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Uniform in [low, high).
static inline float cli_random_range(cli_random *r, float low, float high)
{
    float unit = (float)(cli_random_next(r) >> 40) * (1.0f / 16777216.0f);
    return low + (high - low) * unit;
}

// A uniformly distributed rotation: a point of the 4-ball, by rejection, then normalised.
static inline mf_quat cli_random_rotation(cli_random *r)
{
    for (;;) {
        mf_quat q = {cli_random_range(r, -1, 1), cli_random_range(r, -1, 1), cli_random_range(r, -1, 1),
                     cli_random_range(r, -1, 1)};
        float length2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
        if (length2 > 1.0f || length2 < 1e-4f) continue;
        float scale = 1.0f / sqrtf(length2);
        return (mf_quat){q.x * scale, q.y * scale, q.z * scale, q.w * scale};
    }
}
