// The scenes the suite runs, each with manyfold's scalar outcomes as the reference peers are
// compared against.
#pragma once

#include "outcome.h"
#include "scene.h"

#include <stddef.h>

#define BENCH_SEED 20240601u

typedef struct bench_scene {
    scene scene;
    int box_only;             // every pair is a box against a box
    bench_outcome *reference; // computed on first use
    mf_transform *steps;      // scene_step's poses, made on first use (see bench_scene_steps)
} bench_scene;

// Builds the named scene at MANYFOLD_BENCH_PAIRS pairs (unset or 0: the scene's default size).
mf_status bench_scene_build(bench_scene *s, const char *name);
void bench_scene_release(bench_scene *s);

// The bodies' poses at steps 0 .. SCENE_STEP_PERIOD - 1 of scene_step (seed BENCH_SEED), one
// body_count block per step: a benchmark cycles through them and the motion has no jump at the
// wrap. NULL when out of memory.
const mf_transform *bench_scene_steps(bench_scene *s);

// manyfold's scalar path, one thread, default configuration; NULL (and a message) on failure.
const bench_outcome *bench_scene_reference(bench_scene *s, char *message, size_t message_size);
