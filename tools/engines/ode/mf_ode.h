// manyfold as the narrow phase of an ODE world (Open Dynamics Engine, double or single precision:
// dReal throughout). Register the world's box and convex geoms, then each step call mf_ode_collide
// instead of dSpaceCollide: it finds the candidate pairs, collides them all in one
// mf_collide_cached call (or mf_collide) and adds a contact joint per contact point to the group
// given, ready for dWorldStep or dWorldQuickStep.
//
// What the adapter does for you (docs/engines.md, "manyfold in ODE"):
// - Normal sign: ODE's contact normal points from g2 into g1, manyfold's from a to b; with g1 = a
//   and g2 = b the normal handed to ODE is manyfold's negated.
// - Speculative contacts (separation >= 0, within the margin) get depth 0 and dContactMotionN =
//   -separation / step: the bodies may close the gap in one step but not overshoot it. (A negative
//   depth would be clamped to zero by ODE, and the bodies would hover.)
// - Proxies: the pairs come from the adapter's own sweep-and-prune space of proxy boxes, each the
//   geom's shape's bounding box in its own frame grown by the margin, so pairs nearer than the
//   margin are found. The registered geoms need not be in any space.
// - Feature ids go nowhere: ODE's contact joints have no place for them.
// - Temporal coherence (config.cached, on by default): the adapter keeps an mf_pair_cache entry
//   per pair from step to step, keyed by the pair's two geoms (their registration indices, which
//   never change: geoms are only ever added), so a pair that persists gets its own entry back
//   whatever order the proxies report it in, and a new pair starts from an empty one.
//
// The geoms' poses are read as floats (manyfold's precision), so keep the world within a few
// kilometres of the origin for millimetre contacts. Not thread-safe: one adapter, one thread.
#pragma once

#include "manyfold.h"

#include <ode/ode.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mf_ode mf_ode;

typedef struct mf_ode_config {
    mf_config collide;          // margin, linear_slop, max_contacts, isa, threads and on_fault of mf_collide
    dSurfaceParameters surface; // of every contact joint; speculative ones add dContactMotionN
    dReal step;                 // the seconds the world steps by, for the speculative contacts
    int cached;                 // mf_collide_cached with an entry per pair; 0: mf_collide every step
} mf_ode_config;

// mf_config_default() but one thread (ODE steps on one) and MF_FAULT_SKIP (a geom with a NaN or
// infinite pose, which an exploding body gets, costs its own pairs, not every contact of the step:
// mf_ode_report.skipped_pair_count and mf_ode_message tell of it), surface dContactApprox1 with mu 0.6,
// step 1/60 s, cached: a stepping world is what mf_pair_cache is for (settled pairs cost a third
// to a fifth, normals and contacts stay put instead of flickering between ties). The price is
// the cached call's bounds (docs/contract.md): a resting pair may overlap by up to about
// linear_slop before its contacts show it (the rock pile rests 4-5 mm deep with the default 5 mm,
// 0.5-0.8 mm uncached; a 2 mm slop gives 1.5-2.5 mm at about the same cost). Off costs no memory for entries.
mf_ode_config mf_ode_config_default(void);

// An adapter for `world`, registering shapes in `bank` (the caller's, which must outlive the
// adapter). config NULL: mf_ode_config_default().
mf_status mf_ode_create(dWorldID world, mf_bank *bank, const mf_ode_config *config, mf_ode **out);

// Removes the proxies; the registered geoms are the caller's and stay.
void mf_ode_destroy(mf_ode *adapter);

// Registers a dBox geom (its lengths now; equal boxes share one shape in the bank). Its body, or
// none for a static one, is read from the geom at every step, and so is its pose.
mf_status mf_ode_add_box(mf_ode *adapter, dGeomID box);

// Registers a geom that stands for the bank's hull `shape`, in the hull's own frame: usually the
// dConvex that mf_ode_hull_make's arrays describe, or any geom whose pose is the hull's.
mf_status mf_ode_add_hull(mf_ode *adapter, dGeomID geom, uint32_t shape);

// What one mf_ode_collide call did.
typedef struct mf_ode_report {
    uint32_t pair_count;     // candidate pairs collided
    uint32_t manifold_count; // pairs that touch or lie within the margin
    uint32_t contact_count;  // contact joints created
    float deepest;           // most negative separation of any contact, metres (0 when none)
    // Pairs skipped under MF_FAULT_SKIP (the default): a geom's pose is NaN, infinite or has no
    // rotation. They get no contact joints; mf_ode_message names the first. With MF_FAULT_STOP
    // such a pose fails the step instead.
    uint32_t skipped_pair_count;
} mf_ode_report;

// One step's collision: candidate pairs from the proxies, one mf_collide, and a contact joint per
// contact into `group`. Left out, as dSpaceCollide and the usual near callback leave them: pairs
// with a geom disabled by dGeomDisable, pairs whose category and collide bits do not meet (neither
// one's category bits in the other's collide bits), pairs of two static geoms, of one body, of
// disabled bodies and of bodies joined by a non-contact joint. On an error nothing is added to the group and
// mf_ode_message says why; after a step that skipped pairs (report->skipped_pair_count) it names the
// first of them. report may be NULL.
mf_status mf_ode_collide(mf_ode *adapter, dJointGroupID group, mf_ode_report *report);

// The entry the last mf_ode_collide kept for the pair of registered geoms g1 and g2 (either order),
// or NULL where that call collided no such pair, failed, or ran uncached. Its route says how
// mf_collide_cached answered the pair (MF_ROUTE_REUSED: the kept contacts, carried); its normal is
// in the frame of whichever of the two was registered first. For tests and diagnostics: a binary
// search after a scan of the registered geoms.
const mf_pair_cache *mf_ode_pair_cache(const mf_ode *adapter, dGeomID g1, dGeomID g2);

// Details of the last failed call, or of the pairs the last mf_ode_collide skipped; "" if none.
const char *mf_ode_message(const mf_ode *adapter);

// A bank hull in dConvex's terms: planes (normal, offset) and points, and the polygons as a
// vertex count followed by the indices, counter-clockwise from outside. dConvex keeps pointers
// to these arrays: free them only after the geom is destroyed.
typedef struct mf_ode_hull {
    dReal *planes; // 4 per face
    unsigned int plane_count;
    dReal *points; // 3 per vertex
    unsigned int point_count;
    unsigned int *polygons;
} mf_ode_hull;

// Fills `hull` from the bank's shape (a hull or a box): then
// dCreateConvex(space, hull.planes, hull.plane_count, hull.points, hull.point_count, hull.polygons).
mf_status mf_ode_hull_make(const mf_bank *bank, uint32_t shape, mf_ode_hull *hull);
void mf_ode_hull_free(mf_ode_hull *hull);

#ifdef __cplusplus
}
#endif
