// Lowering one convex body straight down onto another: how far it can go before they touch.
// The pile recipe uses it to settle bodies with exactly the penetration it chooses.
#pragma once

#include "scene.h"
#include "scene_geometry.h"

// A posed shape in world coordinates, in double precision: vertices, planes (normal, offset) and
// the bounding box. Scratch for any shape up to the capacities it was created with.
typedef struct scene_drop_body {
    const scene_geometry *shape;
    double (*vertices)[3];
    double (*planes)[4];
    double low[3], high[3];
    uint32_t vertex_capacity, face_capacity;
} scene_drop_body;

mf_status scene_drop_body_create(scene_drop_body *body, uint32_t vertex_capacity, uint32_t face_capacity);
void scene_drop_body_free(scene_drop_body *body);

// Poses the shape; the shape's counts must fit the body's capacity.
void scene_drop_pose(scene_drop_body *body, const scene_geometry *shape, mf_transform transform);

// The vertical translation t after which `above` (moved by (0, t, 0)) first touches `below` when
// lowered from high up: the largest t at which they share a point. -INFINITY when the vertical
// shadows of the two miss each other.
double scene_drop_height(const scene_drop_body *below, const scene_drop_body *above);
