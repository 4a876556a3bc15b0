// The benchmark bodies: collide every pair of a scene once per iteration, with manyfold or a peer.
#pragma once

#include "bench_scene.h"
#include "shim.h"

typedef struct manyfold_case {
    bench_scene *scene;
    mf_isa isa;
    uint32_t threads; // 0 = all cores
    uint32_t pairs;   // collide the scene's first `pairs` pairs; 0: all of them
    int pin_caller;   // pin the calling thread to caller_cpu for the run (after the context is made)
    int caller_cpu;
    uint32_t copies; // 0 or 1: one call at a time; n: the body runs on n threads at once (bench_register_copies)
} manyfold_case;

// Also the thread scaling family: a threads count above the machine's hardware threads is skipped,
// and so is a caller CPU the process may not run on; the copies family likewise.
void bench_collide_manyfold(bench_state *state, void *context);

// mf_collide_cached on one thread with the auto ISA, every iteration the next step of
// bench_scene_steps. Warm: the cache persists from iteration to iteration, as in a simulation.
// Cold: it is zeroed before every iteration, with the clock stopped.
typedef struct cached_case {
    bench_scene *scene;
    int warm;
} cached_case;

void bench_collide_cached(bench_state *state, void *context);

// The size sweep: a scene made at the case's size on first use (one at a time: the largest take a
// gigabyte), collided on one thread with the auto ISA; reports the peak resident memory.
typedef struct size_case {
    const char *scene_name;
    uint32_t pairs;
} size_case;

void bench_collide_size(bench_state *state, void *context);

// Frees the size sweep's scene.
void bench_size_release(void);

// The broad phase (bench/find_pairs.c): mf_find_pairs on `threads` threads, or the tools' former
// sort-and-sweep for threads 0, on the command line's default heap of `bodies` bodies.
typedef struct find_pairs_case {
    uint32_t bodies;
    uint32_t threads;
} find_pairs_case;

void bench_find_pairs(bench_state *state, void *context);

// Frees the broad phase's heap.
void bench_find_pairs_release(void);

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
