// Bullet as a peer, behind a C interface: its polyhedral SAT and clipping
// (btPolyhedralContactClipping on btConvexPolyhedron), or its box-box detector.
#pragma once

#include "outcome.h"
#include "scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct peer_bullet peer_bullet;

// Builds Bullet's shapes and transforms for every body of the scene. box_detector: use
// btBoxBoxDetector (every shape must be a box). Contacts up to `margin` apart are kept, as in
// manyfold. NULL when out of memory or when a box is asked of a hull.
peer_bullet *peer_bullet_create(const scene *s, int box_detector, float margin);

// Collides every pair of the scene; outcomes in manyfold's conventions.
void peer_bullet_collide(peer_bullet *peer, bench_outcome *outcomes);

void peer_bullet_destroy(peer_bullet *peer);

#ifdef __cplusplus
}
#endif
