// The float vector, quaternion and rotation algebra of the tools (scene recipes, broad phase,
// command line, pictures), on the library's types. The kernel keeps its own (kernel/src/vec.h) and
// the tests' reference rotates in double (tests/quatd.h).
#pragma once

#include "manyfold.h"

#include <math.h>

static inline mf_vec3 scene_add(mf_vec3 a, mf_vec3 b) { return (mf_vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline mf_vec3 scene_sub(mf_vec3 a, mf_vec3 b) { return (mf_vec3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline mf_vec3 scene_scale(mf_vec3 a, float s) { return (mf_vec3){a.x * s, a.y * s, a.z * s}; }
static inline float scene_dot(mf_vec3 a, mf_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline float scene_length(mf_vec3 a) { return sqrtf(scene_dot(a, a)); }
static inline mf_vec3 scene_cross(mf_vec3 a, mf_vec3 b)
{
    return (mf_vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

static inline mf_vec3 scene_normalize(mf_vec3 a)
{
    float length = scene_length(a);
    return length > 0.0f ? scene_scale(a, 1.0f / length) : a;
}

// q v q*, as v + 2w (u x v) + 2 u x (u x v) with u the vector part.
static inline mf_vec3 scene_rotate(mf_quat q, mf_vec3 v)
{
    mf_vec3 u = {q.x, q.y, q.z};
    mf_vec3 t = scene_scale(scene_cross(u, v), 2.0f);
    return scene_add(scene_add(v, scene_scale(t, q.w)), scene_cross(u, t));
}

static inline mf_vec3 scene_unrotate(mf_quat q, mf_vec3 v) { return scene_rotate((mf_quat){-q.x, -q.y, -q.z, q.w}, v); }

// a then b applied to a vector reads b(a(v)): the product b * a.
static inline mf_quat scene_quat_then(mf_quat a, mf_quat b)
{
    return (mf_quat){b.w * a.x + b.x * a.w + b.y * a.z - b.z * a.y, b.w * a.y - b.x * a.z + b.y * a.w + b.z * a.x,
                     b.w * a.z + b.x * a.y - b.y * a.x + b.z * a.w, b.w * a.w - b.x * a.x - b.y * a.y - b.z * a.z};
}

// A rotation as a matrix, for turning many points (or a box's axes) by one quaternion.
typedef struct scene_mat3 {
    mf_vec3 column[3];
} scene_mat3;

// The rotation of a quaternion, normalised first (the library does the same).
static inline scene_mat3 scene_mat3_from_quat(mf_quat q)
{
    float length2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    float s = length2 > 0.0f ? 2.0f / length2 : 0.0f;
    float xx = q.x * q.x * s, yy = q.y * q.y * s, zz = q.z * q.z * s;
    float xy = q.x * q.y * s, xz = q.x * q.z * s, yz = q.y * q.z * s;
    float wx = q.w * q.x * s, wy = q.w * q.y * s, wz = q.w * q.z * s;
    return (scene_mat3){
        {{1.0f - yy - zz, xy + wz, xz - wy}, {xy - wz, 1.0f - xx - zz, yz + wx}, {xz + wy, yz - wx, 1.0f - xx - yy}}};
}

static inline mf_vec3 scene_mat3_mul(const scene_mat3 *m, mf_vec3 v)
{
    return scene_add(scene_add(scene_scale(m->column[0], v.x), scene_scale(m->column[1], v.y)),
                     scene_scale(m->column[2], v.z));
}

// A body's local point in the world, given its rotation as a matrix.
static inline mf_vec3 scene_transform_point(const mf_transform *t, const scene_mat3 *rotation, mf_vec3 local)
{
    return scene_add(t->p, scene_mat3_mul(rotation, local));
}
