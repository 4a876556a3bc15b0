// A physics engine stepping a scene with manyfold (or the engine's own colliders) as its narrow
// phase: what `manyfold simulate` and the engine tests drive. ODE's back end (tools/engines/ode/)
// and Bullet's (tools/engines/bullet/) implement it; the settling scenes are in sim_scene.h.
#pragma once

#include "scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sim_narrowphase {
    SIM_NARROWPHASE_MANYFOLD, // one mf_collide (or mf_collide_cached) call per step for all candidate pairs
    SIM_NARROWPHASE_ENGINE    // the engine's own colliders, for comparison
} sim_narrowphase;

typedef struct sim_settings {
    double step;     // seconds per step
    double gravity;  // m/s^2, along the scene's -up (scene.up)
    double density;  // kg/m^3 of every moving body
    double friction; // Coulomb coefficient of every contact
    // manyfold's contacts per pair (1 to 8); 0: the scene's config. Bullet's own colliders
    // ignore it (its persistent manifold keeps 4 points); see each back end for ODE's.
    uint32_t max_contacts;
    sim_narrowphase narrowphase;
    int uncached; // manyfold in ODE without mf_pair_cache entries: mf_collide every step (Bullet's
                  // back end ignores it)
} sim_settings;

// 1/60 s, 9.81 m/s^2, 1000 kg/m^3, friction 0.6, the scene's max_contacts, manyfold, cached.
sim_settings sim_settings_default(void);

// What one step did.
typedef struct sim_step_report {
    double collide_seconds; // wall time of the narrow phase, pair gathering included
    uint32_t pair_count;    // candidate pairs handed to the narrow phase
    uint32_t contact_count; // contact points handed to the solver
} sim_step_report;

typedef struct sim_world sim_world;

typedef struct sim_engine {
    const char *name; // "ode", "bullet"
    // Builds the engine's world from the scene's shapes and bodies. is_static[i] != 0 keeps body
    // i fixed (the ground, walls). Every moving body's mass and inertia are those of the solid
    // box bounding its shape in the shape's frame, at the given density, about the body's
    // origin: the same rule in every back end, so their figures compare. (Bullet takes a diagonal
    // inertia: its back end drops the products of inertia of a box off the origin, which ODE's
    // keeps; they are zero for the stacks' boxes and small for the rocks.)
    // Returns MF_OK, or a status with a message on stderr (shape the engine cannot build, no memory).
    mf_status (*create)(const scene *s, const uint8_t *is_static, const sim_settings *settings, sim_world **out);
    mf_status (*step)(sim_world *world, sim_step_report *report);
    // Body i's pose and velocities now (world frame; angular in rad/s).
    void (*body_state)(const sim_world *world, uint32_t body, mf_transform *pose, mf_vec3 *linear_velocity,
                       mf_vec3 *angular_velocity);
    void (*destroy)(sim_world *world);
} sim_engine;

extern const sim_engine sim_engine_ode;    // tools/engines/ode/
extern const sim_engine sim_engine_bullet; // tools/engines/bullet/

#ifdef __cplusplus
}
#endif
