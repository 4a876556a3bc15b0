// Four-lane helpers (SSE through SIMDe) shared by the per-pair code, the binning and the ISA
// builds: a transform loaded as two vectors, and a rotation applied to four points at once with
// the operations of mf_mat3_mul, so the floats are the scalar path's.
#pragma once

#include "vec.h"

#include <simde/x86/sse2.h>

#include <stddef.h>

_Static_assert(sizeof(mf_transform) == 28 && offsetof(mf_transform, q) == 12, "transform: p then q, packed");

// A transform's position as a vector with q.x after it, and its quaternion: two overlapping loads
// within the transform.
static inline void mf_transform_load4(const mf_transform *t, simde__m128 *position, simde__m128 *quaternion)
{
    const float *f = (const float *)(const void *)t;
    *position = simde_mm_loadu_ps(f);
    *quaternion = simde_mm_loadu_ps(f + 3);
}

// m's entries, each in four lanes.
static inline void mf_mat3_splat4(const mf_mat3 *m, simde__m128 out[3][3])
{
    for (int i = 0; i < 3; ++i) {
        const mf_vec3 row = m->row[i];
        out[i][0] = simde_mm_set1_ps(row.x), out[i][1] = simde_mm_set1_ps(row.y), out[i][2] = simde_mm_set1_ps(row.z);
    }
}

// Four points (x, y, z rows) rotated by m, each component as mf_mat3_mul: (r.x x + r.y y) + r.z z.
static inline void mf_mat3_mul4(simde__m128 m[3][3], const simde__m128 v[3], simde__m128 out[3])
{
    for (int i = 0; i < 3; ++i)
        out[i] = simde_mm_add_ps(simde_mm_add_ps(simde_mm_mul_ps(m[i][0], v[0]), simde_mm_mul_ps(m[i][1], v[1])),
                                 simde_mm_mul_ps(m[i][2], v[2]));
}

// n . v for four points given as rows x, y, z from entry v on, each as mf_dot(n, v).
static inline simde__m128 mf_dot_rows4(const simde__m128 n[3], const float *x, const float *y, const float *z,
                                       uint32_t v)
{
    return simde_mm_add_ps(simde_mm_add_ps(simde_mm_mul_ps(n[0], simde_mm_loadu_ps(x + v)),
                                           simde_mm_mul_ps(n[1], simde_mm_loadu_ps(y + v))),
                           simde_mm_mul_ps(n[2], simde_mm_loadu_ps(z + v)));
}

// The least and the greatest of four lanes.
static inline float mf_least_lane4(simde__m128 m)
{
    m = simde_mm_min_ps(m, simde_mm_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(1, 0, 3, 2)));
    return simde_mm_cvtss_f32(simde_mm_min_ps(m, simde_mm_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(2, 3, 0, 1))));
}

static inline float mf_greatest_lane4(simde__m128 m)
{
    m = simde_mm_max_ps(m, simde_mm_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(1, 0, 3, 2)));
    return simde_mm_cvtss_f32(simde_mm_max_ps(m, simde_mm_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(2, 3, 0, 1))));
}

// The least of n . v over `count` points given as rows x, y, z (each as mf_dot(n, v)), four at a
// time: loads run up to three entries past the last, whose lanes take no part.
static inline float mf_lowest_along4(const float *x, const float *y, const float *z, uint32_t count, mf_vec3 n)
{
    const simde__m128 along[3] = {simde_mm_set1_ps(n.x), simde_mm_set1_ps(n.y), simde_mm_set1_ps(n.z)};
    const simde__m128 infinity = simde_mm_set1_ps(INFINITY);
    simde__m128 least = infinity;
    uint32_t v = 0;
    for (; v + 4 <= count; v += 4) least = simde_mm_min_ps(least, mf_dot_rows4(along, x, y, z, v));
    if (v < count) {
        simde__m128 inside =
            simde_mm_cmplt_ps(simde_mm_setr_ps(0.0f, 1.0f, 2.0f, 3.0f), simde_mm_set1_ps((float)(count - v)));
        simde__m128 d = mf_dot_rows4(along, x, y, z, v);
        least =
            simde_mm_min_ps(least, simde_mm_or_ps(simde_mm_and_ps(inside, d), simde_mm_andnot_ps(inside, infinity)));
    }
    return mf_least_lane4(least) + 0.0f; // a zero as +0, as mf_lowest_along
}

// The first of `count` points given as rows x, y, z with the least n . v (as mf_lowest_along4), its
// index: each lane keeps its first least, and the least of those with the lowest index wins, as a
// scan in order would.
static inline uint32_t mf_deepest_along4(const float *x, const float *y, const float *z, uint32_t count, mf_vec3 n)
{
    const simde__m128 along[3] = {simde_mm_set1_ps(n.x), simde_mm_set1_ps(n.y), simde_mm_set1_ps(n.z)};
    const simde__m128 lane = simde_mm_setr_ps(0.0f, 1.0f, 2.0f, 3.0f), infinity = simde_mm_set1_ps(INFINITY);
    simde__m128 least = infinity, index = simde_mm_setzero_ps();
    for (uint32_t v = 0; v < count; v += 4) {
        simde__m128 at = simde_mm_add_ps(lane, simde_mm_set1_ps((float)v));
        simde__m128 d = mf_dot_rows4(along, x, y, z, v);
        // Lanes past the last point take no part.
        simde__m128 lower =
            simde_mm_and_ps(simde_mm_cmplt_ps(d, least), simde_mm_cmplt_ps(at, simde_mm_set1_ps((float)count)));
        least = simde_mm_or_ps(simde_mm_and_ps(lower, d), simde_mm_andnot_ps(lower, least));
        index = simde_mm_or_ps(simde_mm_and_ps(lower, at), simde_mm_andnot_ps(lower, index));
    }
    float lowest = mf_least_lane4(least), lanes[4], indices[4];
    simde_mm_storeu_ps(lanes, least);
    simde_mm_storeu_ps(indices, index);
    uint32_t deepest = UINT32_MAX;
    for (int l = 0; l < 4; ++l)
        if (lanes[l] == lowest && (uint32_t)indices[l] < deepest) deepest = (uint32_t)indices[l];
    return deepest;
}
