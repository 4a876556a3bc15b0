// A small seeded generator for reproducible scenes: splitmix64 seeds xoshiro256**. The same seed
// gives the same numbers on every machine (rand() does not).
#pragma once

#include "manyfold.h"

#include <math.h>
#include <stdint.h>

#define TEST_PI 3.14159265358979323846

typedef struct test_random {
    uint64_t s[4];
} test_random;

static inline uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// A generator for one stream; `stream` separates independent streams of one seed (e.g. pair index).
static inline test_random test_random_seed(uint64_t seed, uint64_t stream)
{
    uint64_t state = seed ^ (stream * 0xd1b54a32d192ed03ull);
    test_random r;
    for (int i = 0; i < 4; ++i) r.s[i] = splitmix64(&state);
    return r;
}

static inline uint64_t test_random_next(test_random *r)
{
    uint64_t *s = r->s;
    uint64_t t = s[1] << 17, x = s[1] * 5;
    uint64_t result = ((x << 7) | (x >> 57)) * 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

// Uniform in [0, 1).
static inline double test_random_unit(test_random *r) { return (double)(test_random_next(r) >> 11) * 0x1.0p-53; }

static inline double test_random_range(test_random *r, double low, double high)
{
    return low + (high - low) * test_random_unit(r);
}

// Uniform in [low, high] for small ranges.
static inline uint32_t test_random_int(test_random *r, uint32_t low, uint32_t high)
{
    return low + (uint32_t)(test_random_unit(r) * (double)(high - low + 1));
}

// Uniform on the unit sphere.
static inline void test_random_direction(test_random *r, double out[3])
{
    double z = test_random_range(r, -1.0, 1.0), phi = test_random_range(r, 0.0, 2.0 * TEST_PI);
    double s = sqrt(1.0 - z * z);
    out[0] = s * cos(phi);
    out[1] = s * sin(phi);
    out[2] = z;
}

// Uniform over rotations (Shoemake's method).
static inline mf_quat test_random_rotation(test_random *r)
{
    double u1 = test_random_unit(r), u2 = test_random_unit(r), u3 = test_random_unit(r);
    double a = sqrt(1.0 - u1), b = sqrt(u1);
    return (mf_quat){(float)(a * sin(2.0 * TEST_PI * u2)), (float)(a * cos(2.0 * TEST_PI * u2)),
                     (float)(b * sin(2.0 * TEST_PI * u3)), (float)(b * cos(2.0 * TEST_PI * u3))};
}
