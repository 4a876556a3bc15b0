// manyfold as the narrow phase of an ODE world (Open Dynamics Engine, double or single precision:
// dReal throughout). Register the world's box and convex geoms, then each step call mf_ode_collide
// instead of dSpaceCollide: it finds the candidate pairs, collides them all in one mf_collide call
// and adds a contact joint per contact point to the group given, ready for dWorldStep or
// dWorldQuickStep.
//
// What the adapter does for you (README.md, "manyfold in ODE"):
// - Normal sign: ODE's contact normal points from g2 into g1, manyfold's from a to b; with g1 = a
//   and g2 = b the normal handed to ODE is manyfold's negated.
// - Speculative contacts (separation >= 0, within the margin) get depth 0 and dContactMotionN =
//   -separation / step: the bodies may close the gap in one step but not overshoot it. (A negative
//   depth would be clamped to zero by ODE, and the bodies would hover.)
// - Proxies: the pairs come from the adapter's own sweep-and-prune space of proxy boxes, each the
//   geom's shape's bounding box in its own frame grown by the margin, so pairs nearer than the
//   margin are found. The registered geoms need not be in any space.
// - Feature ids go nowhere: ODE's contact joints have no place for them.
// - No mf_pair_cache entries are kept: each step is a full mf_collide of the step's pairs.
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
    mf_config collide;          // margin, linear_slop, max_contacts, isa and threads of mf_collide
    dSurfaceParameters surface; // of every contact joint; speculative ones add dContactMotionN
    dReal step;                 // the seconds the world steps by, for the speculative contacts
} mf_ode_config;

// mf_config_default() but one thread (ODE steps on one), surface dContactApprox1 with mu 0.6,
// step 1/60 s.
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
} mf_ode_report;

// One step's collision: candidate pairs from the proxies, one mf_collide, and a contact joint per
// contact into `group`. Left out, as dSpaceCollide and the usual near callback leave them: pairs
// with a geom disabled by dGeomDisable, pairs whose category and collide bits do not meet (neither
// one's category bits in the other's collide bits), pairs of two static geoms, of one body, of
// disabled bodies and of bodies joined by a non-contact joint. On an error nothing is added to the group and
// mf_ode_message says why. report may be NULL.
mf_status mf_ode_collide(mf_ode *adapter, dJointGroupID group, mf_ode_report *report);

// Details of the last failed call; "" if none.
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
