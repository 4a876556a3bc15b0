// Small scalar vector and rotation helpers shared by the kernel and its tests.
#pragma once

#include "manyfold.h"

#include <math.h>

static inline mf_vec3 mf_v3(float x, float y, float z) { return (mf_vec3){x, y, z}; }
static inline mf_vec3 mf_add(mf_vec3 a, mf_vec3 b) { return (mf_vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline mf_vec3 mf_sub(mf_vec3 a, mf_vec3 b) { return (mf_vec3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline mf_vec3 mf_scale(mf_vec3 a, float s) { return (mf_vec3){a.x * s, a.y * s, a.z * s}; }
static inline mf_vec3 mf_neg(mf_vec3 a) { return (mf_vec3){-a.x, -a.y, -a.z}; }
static inline float mf_dot(mf_vec3 a, mf_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline mf_vec3 mf_cross(mf_vec3 a, mf_vec3 b)
{
    return (mf_vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static inline mf_vec3 mf_mul_add(mf_vec3 a, float s, mf_vec3 b) // a + s * b
{
    return (mf_vec3){a.x + s * b.x, a.y + s * b.y, a.z + s * b.z};
}
static inline float mf_length(mf_vec3 a) { return sqrtf(mf_dot(a, a)); }
static inline mf_vec3 mf_normalize(mf_vec3 a)
{
    float length = mf_length(a);
    return length > 0.0f ? mf_scale(a, 1.0f / length) : a;
}
// min and max as the SIMD instructions define them (no NaN special cases, no libm call).
static inline float mf_minf(float a, float b) { return a < b ? a : b; }
static inline float mf_maxf(float a, float b) { return a > b ? a : b; }
static inline int mf_is_finite3(mf_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

// The least of `count` values (infinity for none). Four running minima overlap their latencies: a
// single chain of minima would wait 3-4 cycles a value. Exact, as any order of minima is.
static inline float mf_least(const float *values, uint32_t count)
{
    float least[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
    uint32_t i = 0;
    for (; i + 4 <= count; i += 4)
        for (uint32_t k = 0; k < 4; ++k) least[k] = mf_minf(least[k], values[i + k]);
    for (; i < count; ++i) least[0] = mf_minf(least[0], values[i]);
    return mf_minf(mf_minf(least[0], least[1]), mf_minf(least[2], least[3]));
}

// The least n . v of `count` points: four running minima, as mf_least (Intel's cores wait four
// cycles on each minimum of one chain). A scan in order finds the same value. A least of zero
// comes back as +0 (x + 0 is x but for -0), whatever the order of the minima: the lane scans
// (mf_lowest_along4, extent_lanes.c) do the same, so every ISA returns the same bits.
static inline float mf_lowest_along(const mf_vec3 *points, uint32_t count, mf_vec3 n)
{
    float least[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
    uint32_t i = 0;
    for (; i + 4 <= count; i += 4)
        for (uint32_t k = 0; k < 4; ++k) least[k] = mf_minf(least[k], mf_dot(n, points[i + k]));
    for (; i < count; ++i) least[0] = mf_minf(least[0], mf_dot(n, points[i]));
    return mf_minf(mf_minf(least[0], least[1]), mf_minf(least[2], least[3])) + 0.0f;
}

// The first of `count` points with the least n . v (0 where none is below infinity), as a scan in
// order: four running minima, each keeping its first least, and of the least those the lowest
// index.
static inline uint32_t mf_deepest_along(const mf_vec3 *points, uint32_t count, mf_vec3 n)
{
    float least[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
    uint32_t index[4] = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
    uint32_t i = 0;
    for (; i + 4 <= count; i += 4)
        for (uint32_t k = 0; k < 4; ++k) {
            float depth = mf_dot(n, points[i + k]);
            index[k] = depth < least[k] ? i + k : index[k];
            least[k] = mf_minf(depth, least[k]);
        }
    for (; i < count; ++i) { // the last one to three, each in its own minimum
        float depth = mf_dot(n, points[i]);
        index[i % 4] = depth < least[i % 4] ? i : index[i % 4];
        least[i % 4] = mf_minf(depth, least[i % 4]);
    }
    float lowest = mf_minf(mf_minf(least[0], least[1]), mf_minf(least[2], least[3]));
    uint32_t deepest = UINT32_MAX;
    for (uint32_t k = 0; k < 4; ++k)
        if (least[k] == lowest && index[k] < deepest) deepest = index[k];
    return deepest == UINT32_MAX ? 0 : deepest;
}

// Parameter of the point of segment p + s d nearest to x, clamped to [0, 1]; 0 for a point.
static inline float mf_segment_parameter(mf_vec3 p, mf_vec3 d, mf_vec3 x)
{
    float length2 = mf_dot(d, d);
    if (!(length2 > 0.0f)) return 0.0f;
    return mf_minf(mf_maxf(mf_dot(mf_sub(x, p), d) / length2, 0.0f), 1.0f);
}

// Quaternions whose squared length lies between these are normalised from their squares directly
// (mf_quat_normalize, mf_quat_normalizew), and turned into rotations without normalising first
// where no exact rotation is needed (pair.c); beyond them the squares would leave float's range.
#define MF_QUAT_SQUARED_LOW 1e-20f
#define MF_QUAT_SQUARED_HIGH 1e20f

// q / |q|: one division and a square root where |q|^2 lies within the bounds above (every
// quaternion near unit length); beyond them, q divided by its largest component first, so that
// the squares neither overflow nor vanish. The per-pair path normalises two quaternions a pair:
// four divisions more each were a few percent of a box-hull pair (pile_step +1.9%, crowd +3.3%).
// mf_quat_normalizew takes the same branch lane by lane.
static inline mf_quat mf_quat_normalize(mf_quat q)
{
    float squared = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (squared > MF_QUAT_SQUARED_LOW && squared < MF_QUAT_SQUARED_HIGH) {
        float scale = 1.0f / sqrtf(squared);
        return (mf_quat){q.x * scale, q.y * scale, q.z * scale, q.w * scale};
    }
    float largest = mf_maxf(mf_maxf(fabsf(q.x), fabsf(q.y)), mf_maxf(fabsf(q.z), fabsf(q.w)));
    q = (mf_quat){q.x / largest, q.y / largest, q.z / largest, q.w / largest};
    float scale = 1.0f / sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return (mf_quat){q.x * scale, q.y * scale, q.z * scale, q.w * scale};
}

// Row-major rotation matrix; rows are what the columns of R^T would be.
typedef struct mf_mat3 {
    mf_vec3 row[3];
} mf_mat3;

static inline mf_mat3 mf_mat3_from_quat(mf_quat q)
{
    float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    mf_mat3 m;
    m.row[0] = (mf_vec3){1.0f - 2.0f * (yy + zz), 2.0f * (xy - wz), 2.0f * (xz + wy)};
    m.row[1] = (mf_vec3){2.0f * (xy + wz), 1.0f - 2.0f * (xx + zz), 2.0f * (yz - wx)};
    m.row[2] = (mf_vec3){2.0f * (xz - wy), 2.0f * (yz + wx), 1.0f - 2.0f * (xx + yy)};
    return m;
}

static inline mf_vec3 mf_mat3_mul(const mf_mat3 *m, mf_vec3 v)
{
    return (mf_vec3){mf_dot(m->row[0], v), mf_dot(m->row[1], v), mf_dot(m->row[2], v)};
}

static inline mf_vec3 mf_mat3_mul_transposed(const mf_mat3 *m, mf_vec3 v)
{
    return mf_add(mf_add(mf_scale(m->row[0], v.x), mf_scale(m->row[1], v.y)), mf_scale(m->row[2], v.z));
}

static inline mf_mat3 mf_mat3_transpose(const mf_mat3 *m)
{
    mf_mat3 t;
    t.row[0] = (mf_vec3){m->row[0].x, m->row[1].x, m->row[2].x};
    t.row[1] = (mf_vec3){m->row[0].y, m->row[1].y, m->row[2].y};
    t.row[2] = (mf_vec3){m->row[0].z, m->row[1].z, m->row[2].z};
    return t;
}

// R_a^T R_b: b's rotation seen from a's frame.
static inline mf_mat3 mf_mat3_relative(const mf_mat3 *a, const mf_mat3 *b)
{
    mf_mat3 a_transposed = mf_mat3_transpose(a), m;
    for (int i = 0; i < 3; ++i) m.row[i] = mf_mat3_mul_transposed(b, a_transposed.row[i]);
    return m;
}
