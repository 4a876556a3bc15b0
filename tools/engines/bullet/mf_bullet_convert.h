// Bullet's vectors and transforms in manyfold's terms (floats, whatever btScalar is).
#pragma once

#include "manyfold.h"

#include <LinearMath/btTransform.h>

static inline mf_vec3 mfBulletVec3(const btVector3 &v) { return {float(v.x()), float(v.y()), float(v.z())}; }

static inline btVector3 mfBulletVector(mf_vec3 v) { return btVector3(btScalar(v.x), btScalar(v.y), btScalar(v.z)); }

static inline mf_transform mfBulletTransform(const btTransform &t)
{
    btQuaternion q;
    t.getBasis().getRotation(q);
    return {mfBulletVec3(t.getOrigin()), {float(q.x()), float(q.y()), float(q.z()), float(q.w())}};
}
