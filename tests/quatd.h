// Rotations in double for the tests' random poses: quaternions (x, y, z, w) built from an axis and
// an angle or as the shortest turn between two directions, composed, and rounded to mf_quat.
#pragma once

#include "manyfold.h"

#include <math.h>

typedef struct quatd {
    double x, y, z, w;
} quatd;

static inline quatd quat_multiply(quatd a, quatd b)
{
    return (quatd){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

static inline quatd quat_axis_angle(const double axis[3], double angle)
{
    double s = sin(0.5 * angle);
    return (quatd){axis[0] * s, axis[1] * s, axis[2] * s, cos(0.5 * angle)};
}

// The shortest rotation taking unit vector u to unit vector v.
static inline quatd quat_between(const double u[3], const double v[3])
{
    double d = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    if (d < -0.999999) { // opposite: half a turn about any perpendicular axis
        double axis[3] = {-u[1], u[0], 0.0};
        if (fabs(u[2]) > 0.9) axis[0] = 0.0, axis[1] = -u[2], axis[2] = u[1];
        double length = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        return (quatd){axis[0] / length, axis[1] / length, axis[2] / length, 0.0};
    }
    quatd q = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0], 1.0 + d};
    double length = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return (quatd){q.x / length, q.y / length, q.z / length, q.w / length};
}

static inline quatd quat_from(mf_quat q) { return (quatd){q.x, q.y, q.z, q.w}; }
static inline mf_quat quat_to(quatd q) { return (mf_quat){(float)q.x, (float)q.y, (float)q.z, (float)q.w}; }
