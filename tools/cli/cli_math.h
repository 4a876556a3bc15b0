// The little vector math the command line needs (transforms for bounds, piles and pictures).
#pragma once

#include "manyfold.h"

#include <math.h>

typedef struct cli_mat3 {
    mf_vec3 column[3];
} cli_mat3;

static inline mf_vec3 cli_vec3(float x, float y, float z) { return (mf_vec3){x, y, z}; }
static inline mf_vec3 cli_add(mf_vec3 a, mf_vec3 b) { return (mf_vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline mf_vec3 cli_sub(mf_vec3 a, mf_vec3 b) { return (mf_vec3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline mf_vec3 cli_scale(mf_vec3 a, float s) { return (mf_vec3){a.x * s, a.y * s, a.z * s}; }
static inline float cli_dot(mf_vec3 a, mf_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline float cli_length(mf_vec3 a) { return sqrtf(cli_dot(a, a)); }

static inline mf_vec3 cli_cross(mf_vec3 a, mf_vec3 b)
{
    return (mf_vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

static inline mf_vec3 cli_normalize(mf_vec3 a)
{
    float length = cli_length(a);
    return length > 0.0f ? cli_scale(a, 1.0f / length) : a;
}

// The rotation of a quaternion, normalised first (the library does the same).
static inline cli_mat3 cli_mat3_from_quat(mf_quat q)
{
    float length2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    float s = length2 > 0.0f ? 2.0f / length2 : 0.0f;
    float xx = q.x * q.x * s, yy = q.y * q.y * s, zz = q.z * q.z * s;
    float xy = q.x * q.y * s, xz = q.x * q.z * s, yz = q.y * q.z * s;
    float wx = q.w * q.x * s, wy = q.w * q.y * s, wz = q.w * q.z * s;
    return (cli_mat3){
        {{1.0f - yy - zz, xy + wz, xz - wy}, {xy - wz, 1.0f - xx - zz, yz + wx}, {xz + wy, yz - wx, 1.0f - xx - yy}}};
}

static inline mf_vec3 cli_mat3_mul(const cli_mat3 *m, mf_vec3 v)
{
    return cli_add(cli_add(cli_scale(m->column[0], v.x), cli_scale(m->column[1], v.y)), cli_scale(m->column[2], v.z));
}

static inline mf_vec3 cli_transform_point(const mf_transform *t, const cli_mat3 *rotation, mf_vec3 local)
{
    return cli_add(t->p, cli_mat3_mul(rotation, local));
}
