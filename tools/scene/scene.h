// Scenes: a bank, bodies placed in the world, candidate pairs and the configuration they ask for,
// as the tests, the benchmarks and the command line hold them. The generators here are
// deterministic: the same name, size and seed always give the same scene on every machine.
#pragma once

#include "manyfold.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum scene_shape_kind { SCENE_BOX, SCENE_HULL } scene_shape_kind;

// What peers need to rebuild a shape in their own terms (boxes as boxes, hulls as point clouds).
typedef struct scene_shape {
    scene_shape_kind kind;
    mf_vec3 half_extents;  // SCENE_BOX
    const mf_vec3 *points; // SCENE_HULL: the input points given to mf_bank_add_hull
    uint32_t point_count;
} scene_shape;

// A world axis. A scene's up axis points away from its ground: gravity pulls along its negative.
typedef enum scene_axis { SCENE_AXIS_X, SCENE_AXIS_Y, SCENE_AXIS_Z } scene_axis;

// "x", "y" or "z".
static inline const char *scene_axis_name(scene_axis axis)
{
    return axis == SCENE_AXIS_X ? "x" : axis == SCENE_AXIS_Y ? "y" : "z";
}

// A point's coordinate along the axis.
static inline float scene_along(mf_vec3 p, scene_axis axis)
{
    return axis == SCENE_AXIS_X ? p.x : axis == SCENE_AXIS_Y ? p.y : p.z;
}

typedef struct scene {
    char *name; // owned: the recipe's name, a scene file's path or the heap's description
    mf_bank *bank;
    scene_shape *shapes; // indexed by shape id
    uint32_t shape_count;
    uint32_t *body_shape; // per body
    mf_transform *body_transform;
    uint32_t body_count;
    mf_pair *pairs; // empty for the heap and scene files: a broad phase finds theirs (scene_broadphase.h)
    uint32_t pair_count;
    mf_config config; // mf_config_default() but where a scene file asks for another margin, slop or count
    // Up: a scene file's "up" (+z unless it says), +y for the built-in heap and settling scenes,
    // which were built that way. The collision scenes of scene_make have no gravity; they keep +z.
    scene_axis up;
} scene;

static inline mf_bodies scene_bodies(const scene *s)
{
    mf_bodies bodies = {s->body_shape, s->body_transform, s->body_count, NULL}; // C and C++ alike
    return bodies;
}

// Names: "box_box", "box_resting", "hull16", "hull48", "nearmiss", "crowd", "pile_step", and the
// rest of the hull size family: "hull8", "hull32", "hull64", "hull128", "hull256" (rocks of that
// many points, like hull16 and hull48) and "hull_bunny" (the Stanford bunny's hull at rock size).
// pair_count 0 means the scene's default size (20000; crowd 1000000, hull256 10000, hull_bunny
// 4000). pile_step, a settled pile with its broad phase's pairs, keeps every pair of the last body
// it drops, so it may hold a few more pairs than asked for.
mf_status scene_make(const char *name, uint32_t pair_count, uint64_t seed, scene *out);
void scene_free(scene *s);

// The command line's default scene: a heap of boxes and rocks on a ground slab, body_count bodies
// in all (at least 1: body 0 is the ground), the same for a count on every machine. Its name
// describes it; it has no pairs.
mf_status scene_make_heap(uint32_t body_count, scene *out);

// NULL-terminated list of the names scene_make accepts.
const char *const *scene_names(void);

// The motion scene_step repeats: step k and step k + SCENE_STEP_PERIOD give the same poses.
#define SCENE_STEP_PERIOD 16

// Writes into moved[0, body_count) every body slightly moved off its rest pose (s->body_transform,
// left as is), as at `step` of a simulation where everything rests: a wobble of at most 0.4 mm per
// axis and 0.05 degrees (less for large bodies: their farthest point moves at most 0.4 mm) per
// axis about the rest pose, by at most a quarter of that from one step to the next. Deterministic
// in (scene, step, seed); the pair list stays what it is.
void scene_step(const scene *s, uint32_t step, uint64_t seed, mf_transform *moved);

// A 64-bit FNV-1a hash of the scene's shapes, bodies and pairs: equal fingerprints mean the same
// scene, bit for bit (to check that two machines or builds measured the same thing).
uint64_t scene_fingerprint(const scene *s);

#ifdef __cplusplus
}
#endif
