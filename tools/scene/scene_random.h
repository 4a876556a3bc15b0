// A portable random stream for scene layout: splitmix64 bits, and samplers that use only
// +, -, *, / and sqrt (all correctly rounded), so a seed gives the same scene on every machine.
// libm's sin/cos/cbrt differ between platforms in the last bit, hence the rejection samplers.
// Draw once per statement: the order in which an initializer list or a call's arguments are
// evaluated is unspecified, and gcc and clang do differ.
#pragma once

#include "manyfold.h"

#include <math.h>
#include <stdint.h>

typedef struct scene_random {
    uint64_t state;
} scene_random;

// splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", 2014).
static inline uint64_t scene_random_next(scene_random *random)
{
    uint64_t z = (random->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

// Uniform in [0, 1): 24 random bits, exact in a float.
static inline float scene_random_unit(scene_random *random)
{
    return (float)(scene_random_next(random) >> 40) * 0x1p-24f;
}

static inline float scene_random_range(scene_random *random, float low, float high)
{
    return low + (high - low) * scene_random_unit(random);
}

// Uniform in [0, n) without division.
static inline uint32_t scene_random_below(scene_random *random, uint32_t n)
{
    return (uint32_t)(((scene_random_next(random) >> 32) * n) >> 32);
}

// Uniform on the unit sphere: a point of the unit ball, pushed out.
static inline mf_vec3 scene_random_direction(scene_random *random)
{
    for (;;) {
        mf_vec3 v;
        v.x = scene_random_range(random, -1.0f, 1.0f);
        v.y = scene_random_range(random, -1.0f, 1.0f);
        v.z = scene_random_range(random, -1.0f, 1.0f);
        float length2 = v.x * v.x + v.y * v.y + v.z * v.z;
        if (length2 > 1e-4f && length2 <= 1.0f) {
            float inverse = 1.0f / sqrtf(length2);
            return (mf_vec3){v.x * inverse, v.y * inverse, v.z * inverse};
        }
    }
}

// Uniform over rotations: a point of the 4-ball, normalised (the Haar measure on unit quaternions).
static inline mf_quat scene_random_rotation(scene_random *random)
{
    for (;;) {
        mf_quat q;
        q.x = scene_random_range(random, -1.0f, 1.0f);
        q.y = scene_random_range(random, -1.0f, 1.0f);
        q.z = scene_random_range(random, -1.0f, 1.0f);
        q.w = scene_random_range(random, -1.0f, 1.0f);
        float length2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
        if (length2 > 1e-4f && length2 <= 1.0f) {
            float inverse = 1.0f / sqrtf(length2);
            return (mf_quat){q.x * inverse, q.y * inverse, q.z * inverse, q.w * inverse};
        }
    }
}

// A uniformly random turn about +y: (sin h, cos h) is uniform on the circle, so is the angle 2h.
static inline mf_quat scene_random_yaw(scene_random *random)
{
    for (;;) {
        float s = scene_random_range(random, -1.0f, 1.0f);
        float c = scene_random_range(random, -1.0f, 1.0f);
        float length2 = s * s + c * c;
        if (length2 > 1e-4f && length2 <= 1.0f) {
            float inverse = 1.0f / sqrtf(length2);
            return (mf_quat){0.0f, s * inverse, 0.0f, c * inverse};
        }
    }
}
