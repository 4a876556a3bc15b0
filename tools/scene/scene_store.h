// A scene's storage: its arrays, the shapes it registers in its bank (remembering how to rebuild
// them), and the geometric facts about a shape that the recipes need to place bodies.
#pragma once

#include "scene.h"

// Allocates a scene with its bank, a copy of its name, the default config and room for the given
// bodies and pairs, which the recipe then fills completely; shapes are added one by one.
mf_status scene_store_create(scene *s, const char *name, uint32_t body_count, uint32_t pair_count);

// Replaces the scene's name with a copy of `name`, for a recipe that can describe its scene only
// once it is built.
mf_status scene_store_rename(scene *s, const char *name);

mf_status scene_store_add_box(scene *s, mf_vec3 half_extents, uint32_t *shape);

// The points are copied: scene_shape.points stays valid until scene_free.
mf_status scene_store_add_hull(scene *s, const mf_vec3 *points, uint32_t point_count, uint32_t *shape);

// The shape's farthest point along a direction of its own frame (a vertex; for a box, the corner).
mf_vec3 scene_store_support_point(const scene *s, uint32_t shape, mf_vec3 local_direction);

// Largest extent of the shape along a direction of its own frame: max over x of dot(x, direction).
float scene_store_support(const scene *s, uint32_t shape, mf_vec3 local_direction);

// Radius of the largest origin-centred ball inside the shape (0 when the origin is not inside).
float scene_store_inradius(const scene *s, uint32_t shape);
