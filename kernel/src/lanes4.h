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
