// The benchmark bodies: collide every pair of a scene once per iteration, with manyfold or a peer.
#pragma once

#include "bench_scene.h"
#include "shim.h"

typedef struct manyfold_case {
    bench_scene *scene;
    mf_isa isa;
    uint32_t threads; // 0 = all cores
} manyfold_case;

void bench_collide_manyfold(bench_state *state, void *context);

typedef enum peer_kind {
    PEER_BULLET_HULL,   // btPolyhedralContactClipping: SAT, then clipping, on every pair
    PEER_BULLET_BOXBOX, // btBoxBoxDetector (box-only scenes)
    PEER_ODE            // dCollide: box-box collider for box pairs, convex-convex for the rest
} peer_kind;

typedef struct peer_case {
    bench_scene *scene;
    peer_kind kind;
    void *peer;              // the peer's shapes and bodies, built on first run
    bench_outcome *outcomes; // written by every iteration, compared after the loop
    int explained;           // disagreements printed already (MANYFOLD_BENCH_EXPLAIN)
} peer_case;

void bench_collide_peer(bench_state *state, void *context);

// Frees what the case built (peers hold a copy of every body in their own terms).
void bench_peer_release(peer_case *peer);
