// One ISA's kernel table, mf_kernel_<isa>: compiled once per wide build (MF_WIDE_NAME,
// MF_WIDE_WIDTH), like the stages it lists, so that dispatch.c names one table per ISA instead of
// spelling out each stage's build. The width-1 build is the scalar path: it has no wide pass and
// no edge query in lanes, and its face query is sat.c's, its edge cull edge_cull.c's.
//
// A tuned build (kernel/meson.build: the same ISA's hull stages built for another core's
// pipelines) compiles no box-box stages: MF_WIDE_BOX_NAME names the build whose box pass and
// manifold reuse its table lists. MF_WIDE_PATH_NAME names the tuned build of the router and the
// per-pair path (path_names.h) whose entry points it lists; without it, the generic ones.
#include "dispatch.h"

#include "box_pass.h"
#include "edge_cull.h"
#include "edge_lanes.h"
#include "edge_walk.h"
#include "face_lanes.h"
#include "move_lanes.h"
#include "reuse_pass.h"
#include "support_cull.h"
#include "wide.h"

#ifdef MF_WIDE_PATH_NAME
#define MF_CHUNK_ENTRIES                                                                                               \
    {                                                                                                                  \
        MF_NAMED(mf_collide_chunk, MF_WIDE_PATH_NAME), MF_NAMED(mf_collide_chunk_checking, MF_WIDE_PATH_NAME),         \
            MF_NAMED(mf_collide_chunk_skipping, MF_WIDE_PATH_NAME)                                                     \
    }
#else
#define MF_CHUNK_ENTRIES                                                                                               \
    {                                                                                                                  \
        mf_collide_chunk, mf_collide_chunk_checking, mf_collide_chunk_skipping                                         \
    }
#endif

#if MF_WIDE_WIDTH == 1
const mf_wide_kernel mf_kernel_scalar = {
    .axes = NULL,
    .boxes = mf_box_pairs_scalar,
    .reuse = mf_reuse_scalar,
    .edge = {.walk = mf_edge_walk_scalar,
             .lanes = NULL,
             .gaps = mf_edge_gaps,
             .within = mf_edges_within,
             .face_gaps = mf_face_gaps,
             .edges_by_faces = mf_edges_by_faces,
             .arc_cull = mf_edge_arc_cull_scalar,
             .support_cull = mf_edge_support_cull_scalar},
    .faces = mf_query_faces,
    .box_hull = {.faces = mf_box_hull_faces_scalar, .edges = mf_box_hull_edges_scalar},
    .move_rows = NULL,
    .extent = {.lowest = mf_lowest_along_scalar, .deepest = mf_deepest_along_scalar},
    .chunk = MF_CHUNK_ENTRIES,
    .width = 1,
};
#else
#ifndef MF_WIDE_BOX_NAME
#define MF_WIDE_BOX_NAME MF_WIDE_NAME
#endif
const mf_wide_kernel MF_NAMED(mf_kernel, MF_WIDE_NAME) = {
    .axes = MF_NAMED(mf_wide_axes, MF_WIDE_NAME),
    .boxes = MF_NAMED(mf_box_pairs, MF_WIDE_BOX_NAME),
    .reuse = MF_NAMED(mf_reuse, MF_WIDE_BOX_NAME),
    .edge = {.walk = MF_NAMED(mf_edge_walk, MF_WIDE_NAME),
             .lanes = MF_NAMED(mf_edge_lanes, MF_WIDE_NAME),
             .gaps = MF_NAMED(mf_edge_gaps, MF_WIDE_NAME),
             .within = MF_NAMED(mf_edges_within, MF_WIDE_NAME),
             .face_gaps = MF_NAMED(mf_face_gaps, MF_WIDE_NAME),
#if MF_WIDE_WIDTH >= 8
             .edges_by_faces = MF_NAMED(mf_edges_by_faces, MF_WIDE_NAME),
#else
             .edges_by_faces = mf_edges_by_faces,
#endif
             .arc_cull = MF_NAMED(mf_edge_arc_cull, MF_WIDE_NAME),
             .support_cull = MF_NAMED(mf_edge_support_cull, MF_WIDE_NAME)},
    .faces = MF_NAMED(mf_face_lanes, MF_WIDE_NAME),
    .box_hull = {.faces = MF_NAMED(mf_box_hull_faces, MF_WIDE_NAME),
                 .edges = MF_NAMED(mf_box_hull_edges, MF_WIDE_NAME)},
#if MF_WIDE_WIDTH >= 8
    .move_rows = MF_NAMED(mf_move_rows, MF_WIDE_NAME),
#else
    .move_rows = NULL,
#endif
    .extent = {.lowest = MF_NAMED(mf_lowest_along, MF_WIDE_NAME), .deepest = MF_NAMED(mf_deepest_along, MF_WIDE_NAME)},
    .chunk = MF_CHUNK_ENTRIES,
    .width = MF_WIDE_WIDTH,
};
#endif
