// The per-pair path shared by every ISA: moving b into a's frame, the scalar queries, and the
// contacts of a touching pair (clipping or the edge contact, in world space). A stage: it takes
// what the cache knows of a pair (the kept axis and normal) as arguments and never sees an entry.
#pragma once

#include "move_lanes.h"
#include "pair_result.h"
#include "pair_scratch.h"

struct mf_wide_kernel;

// b moved into a's frame: b's vertices always (as rows alone where the ISA moves them in lanes for
// the queries: mf_frame_b_vertex); with `for_queries` also a's vertices in b's frame,
// but for a box-hull pair (a_vertices NULL: the box-hull queries never read them; a hull a's
// bounds in the box's frame are all they take of its vertices there).
// b's normals and edge directions point into the scratch, filled by the edge query for the edges it
// keeps (mf_rotate_b_edges). For the queries, large hulls' vertices, which they read as rows too,
// and a box-hull pair's hull move W at a time with the kernel's move_rows (dispatch.h; four at a
// time where it has none, or `kernel` is NULL), to the same floats. The frame takes the kernel's
// extents in lanes (NULL: the scalar path's).
void mf_frame_setup(const mf_bank *bank, const mf_bodies *bodies, mf_pair pair, mf_pair_scratch *scratch,
                    int for_queries, const struct mf_wide_kernel *kernel, mf_mat3 *rotation_a, mf_pair_frame *frame);

// The contacts of one axis (world space) if their deepest separation is at most `attain`; else the
// result is empty. An edge axis of parallelepipeds gets its edges resolved in place.
void mf_contacts_of_axis(const mf_config *config, const mf_pair_frame *frame, mf_axis *axis, int projection,
                         float attain, const mf_mat3 *rotation_a, mf_vec3 position_a, mf_pair_result *result);

// The contacts of a touching pair from its query results (the levels in pair.c); `used` gets the
// axis they came from, unresolved.
// `kept`: NULL, or the axis of the pair's previous manifold (the cache's, mf_cache_kept_axis), which
// comes first while it stays within the slop of the best and its contacts attain (hysteresis:
// near-tied axes do not take turns from step to step); `kept_normal` that manifold's normal in a's
// frame, which a speculative pair's closest points keep while it holds (NULL with `kept`).
void mf_contacts_for_pair(const mf_config *config, const mf_pair_frame *frame, const mf_axis_candidates *candidates,
                          const mf_axis *kept, const mf_vec3 *kept_normal, const mf_mat3 *rotation_a,
                          mf_vec3 position_a, mf_pair_result *result, mf_axis *used);

// Whether the gap between the hulls along the line through their centroids is at least `margin`:
// the pair is then apart, whatever the separating axes say (its distance is at least that gap).
// A few dot products per vertex instead of the face queries, for the many near misses a broad
// phase emits; the extents in the ISA's lanes (`extent`, the kernel's).
// Pairs with fewer vertices between them than this skip the test (a box and a 16-point rock do).
int mf_apart_along_centres(const mf_extent_kernel *extent, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                           float margin);
#define MF_APART_MIN_VERTICES 32u

// The whole path of one pair; `candidates` and `used` tell what the search found. The kernel
// (dispatch.h) gives the ISA's builds of the face query and the edge query in lanes and of the
// Gauss-map walk (they all answer as the scalar ones). `kept`, `kept_normal`: as for
// mf_contacts_for_pair.
void mf_collide_pair(const mf_config *config, const struct mf_wide_kernel *kernel, mf_pair_scratch *scratch,
                     const mf_bank *bank, const mf_bodies *bodies, mf_pair pair, const mf_axis *kept,
                     const mf_vec3 *kept_normal, mf_pair_result *result, mf_axis_candidates *candidates, mf_axis *used);
