// The little vector and quaternion algebra the scene recipes need (float, the library's types).
#pragma once

#include "manyfold.h"

#include <math.h>

static inline mf_vec3 scene_add(mf_vec3 a, mf_vec3 b) { return (mf_vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline mf_vec3 scene_sub(mf_vec3 a, mf_vec3 b) { return (mf_vec3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline mf_vec3 scene_scale(mf_vec3 a, float s) { return (mf_vec3){a.x * s, a.y * s, a.z * s}; }
static inline float scene_dot(mf_vec3 a, mf_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline mf_vec3 scene_cross(mf_vec3 a, mf_vec3 b)
{
    return (mf_vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
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
