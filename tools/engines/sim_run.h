// Stepping a scene in an engine and measuring how it settles: what `manyfold simulate` reports and
// the engine tests assert. The measures are the engine's poses and velocities, read the same way
// for every back end and narrow phase:
// - penetration: after every step, manyfold collides every pair with a moving body (the tools'
//   sort-and-sweep broad phase, margin 0) and the deepest overlap is kept; a direct measure of
//   the poses, not what the narrow phase told the solver;
// - speeds: |linear velocity| of the moving bodies, their mean and their largest, per step;
// - drift: the horizontal distance of the top body (the moving body that starts highest) from
//   where it started;
// - sink: how far the top body's origin went down from where it started (negative: up);
// - escaped: moving bodies whose origin ends more than SIM_ESCAPE_DISTANCE below the ground's top
//   (the lowest top of a static body) or outside the horizontal box the moving bodies started in.
//   (An origin a little below the ground's top is no escape: a mesh's origin may lie at its foot.)
// Up, high and horizontal are along the scene's up axis (scene.up) and across it.
#pragma once

#include "sim_engine.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SIM_ESCAPE_DISTANCE 0.5f // metres

// One step's measures.
typedef struct sim_sample {
    double time;        // seconds simulated at the end of the step
    double penetration; // deepest overlap between two bodies, metres (0 when none)
    double mean_speed;  // m/s over the moving bodies
    double max_speed;
    double drift;        // metres
    double collide_ms;   // the step's narrow phase, pair gathering included
    uint32_t pair_count; // candidate pairs the narrow phase was given (0: the engine does not say)
    uint32_t contact_count;
    double sink; // metres
} sim_sample;

// The figures of a run, from its samples.
typedef struct sim_figures {
    double seconds;
    uint32_t steps;
    double max_penetration;         // over the whole run
    double max_penetration_settled; // over the last second (the whole run if shorter)
    double mean_speed;              // mean of the steps' mean speeds over the last second
    double max_speed;               // largest speed over the last second
    double max_drift;               // over the whole run
    double final_drift;
    double collide_ms; // mean per step
    double pairs;      // mean per step
    double contacts;   // mean per step
    uint32_t escaped;
    double max_sink; // over the whole run
    double final_sink;
} sim_figures;

typedef struct sim_run sim_run;

// Builds the engine's world for the scene (kept by pointer: it must outlive the run).
mf_status sim_run_create(const sim_engine *engine, const scene *s, const uint8_t *is_static,
                         const sim_settings *settings, sim_run **out);
void sim_run_destroy(sim_run *run);

// One engine step, then its measures.
mf_status sim_run_step(sim_run *run);

// Every step's measures so far, oldest first.
const sim_sample *sim_run_samples(const sim_run *run, uint32_t *count);

// The bodies' poses after the last step (the scene's at the start), indexed as the scene's.
const mf_transform *sim_run_poses(const sim_run *run);

sim_figures sim_run_figures(const sim_run *run);

// Index of the top body (sim_run.h's drift).
uint32_t sim_run_top_body(const sim_run *run);

// A settling scene (sim_scene_make's `name` and `seed`) run in `engine` for `seconds`, whole steps
// rounded up; its figures into *figures. The tests' one call per scene and narrow phase.
mf_status sim_run_scene(const sim_engine *engine, const char *name, uint64_t seed, const sim_settings *settings,
                        double seconds, sim_figures *figures);

#ifdef __cplusplus
}
#endif
