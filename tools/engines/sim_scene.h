// The settling scenes the engine back ends are judged on, the same bodies for every engine.
#pragma once

#include "scene.h"

#ifdef __cplusplus
extern "C" {
#endif

// Names:
//   "box"     one box resting on the ground
//   "tower"   10 equal boxes stacked on the ground
//   "pyramid" a 6-level pyramid of equal boxes on the ground
//   "rocks"   200 rocks (convex hulls of 8 to 48 points) dropped into a walled pen
// Up is +y (out->up): they were built, pinned and measured that way, as scene files say their own.
// Fills `out` (its bodies, no pairs: the engine's broad phase finds them) and *is_static, a
// malloc'd flag per body (1: fixed), freed by the caller. The same scene for a (name, seed) on
// every machine.
mf_status sim_scene_make(const char *name, uint64_t seed, scene *out, uint8_t **is_static);

// NULL-terminated list of the names sim_scene_make accepts.
const char *const *sim_scene_names(void);

#ifdef __cplusplus
}
#endif
