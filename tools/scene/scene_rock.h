// Rocks for the scenes: random point clouds around the origin whose hulls are round enough that
// placements by inradius hold.
#pragma once

#include "scene.h"
#include "scene_random.h"

// Registers a rock of point_count (at most 256) points at 85-100% of the radius, redrawn until its
// hull holds a ball of a quarter of the radius around the origin.
mf_status scene_rock_add(scene *s, scene_random *random, uint32_t point_count, float radius, uint32_t *shape);
