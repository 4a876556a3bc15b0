// ODE as a peer: dCollide with its box-box collider for box pairs and its convex-convex collider
// (dCreateConvex, built from manyfold's own faces) for every other pair.
#pragma once

#include "outcome.h"
#include "scene.h"

#include <stddef.h>

typedef struct peer_ode peer_ode;

// Builds ODE geoms for every body of the scene; NULL and a message on failure.
peer_ode *peer_ode_create(const scene *s, char *message, size_t message_size);

// Collides every pair of the scene (up to 8 contacts each); outcomes in manyfold's conventions.
void peer_ode_collide(peer_ode *peer, bench_outcome *outcomes);

void peer_ode_destroy(peer_ode *peer);
