// The Stanford bunny's convex hull as a scene shape, from tools/scenes/meshes/bunny.obj compiled in
// (no file is read at run time, so the scene is the same wherever the program runs).
#pragma once

#include "scene.h"

// Registers the hull of the bunny's vertices, centred on their mean and scaled so that the farthest
// lies at `radius`. The bank keeps the hull's vertices; scene_shape.points holds all of the mesh's.
mf_status scene_bunny_add(scene *s, float radius, uint32_t *shape);
