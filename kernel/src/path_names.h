// The per-pair path's entry points under a tuned build's names. kernel/meson.build compiles the
// router and the per-pair path (chunk.c, bin.c, pair.c, sat.c, edge_cull.c, clip.c, closest.c,
// reduce.c) a second time, tuned for Intel's cores, with this header forced in first
// (-include path_names.h) and MF_PATH_NAME set: every mention of these names in that build, in
// the headers as in the sources, becomes MF_PATH_NAME's (mf_clip_faces_intel), so its functions
// call one another and the generic build's stay as they are. The ISA table of that tuning lists
// the router's renamed entry points (kernel_table.c), so a context on it runs this copy throughout.
// A name missing here would be defined twice and the library would not link.
#pragma once

#ifndef MF_PATH_NAME
#error "path_names.h is for a tuned build of the per-pair path: MF_PATH_NAME names it"
#endif

#define MF_PATH_GLUE(a, b) a##_##b
#define MF_PATH_NAMED(a, b) MF_PATH_GLUE(a, b)

// chunk.c: the router
#define mf_collide_chunk MF_PATH_NAMED(mf_collide_chunk, MF_PATH_NAME)
#define mf_collide_chunk_checking MF_PATH_NAMED(mf_collide_chunk_checking, MF_PATH_NAME)
#define mf_collide_chunk_skipping MF_PATH_NAMED(mf_collide_chunk_skipping, MF_PATH_NAME)
// bin.c: bundles for the wide pass
#define mf_bin_pairs MF_PATH_NAMED(mf_bin_pairs, MF_PATH_NAME)
#define mf_bundle_assemble MF_PATH_NAMED(mf_bundle_assemble, MF_PATH_NAME)
// pair.c: frames and contacts
#define mf_frame_setup MF_PATH_NAMED(mf_frame_setup, MF_PATH_NAME)
#define mf_contacts_of_axis MF_PATH_NAMED(mf_contacts_of_axis, MF_PATH_NAME)
#define mf_contacts_for_pair MF_PATH_NAMED(mf_contacts_for_pair, MF_PATH_NAME)
#define mf_apart_along_centres MF_PATH_NAMED(mf_apart_along_centres, MF_PATH_NAME)
#define mf_collide_pair MF_PATH_NAMED(mf_collide_pair, MF_PATH_NAME)
// sat.c: the queries and the axis choice
#define mf_face_other_of MF_PATH_NAMED(mf_face_other_of, MF_PATH_NAME)
#define mf_face_map_of MF_PATH_NAMED(mf_face_map_of, MF_PATH_NAME)
#define mf_query_faces MF_PATH_NAMED(mf_query_faces, MF_PATH_NAME)
#define mf_query_edges MF_PATH_NAMED(mf_query_edges, MF_PATH_NAME)
#define mf_query_edge_directions MF_PATH_NAMED(mf_query_edge_directions, MF_PATH_NAME)
#define mf_resolve_direction_edges MF_PATH_NAMED(mf_resolve_direction_edges, MF_PATH_NAME)
#define mf_rank_allowance MF_PATH_NAMED(mf_rank_allowance, MF_PATH_NAME)
#define mf_rank_axes MF_PATH_NAMED(mf_rank_axes, MF_PATH_NAME)
#define mf_deepest_vertex MF_PATH_NAMED(mf_deepest_vertex, MF_PATH_NAME)
#define mf_lowest_of_b MF_PATH_NAMED(mf_lowest_of_b, MF_PATH_NAME)
#define mf_highest_of_a MF_PATH_NAMED(mf_highest_of_a, MF_PATH_NAME)
#define mf_projected_gap MF_PATH_NAMED(mf_projected_gap, MF_PATH_NAME)
#define mf_face_separation MF_PATH_NAMED(mf_face_separation, MF_PATH_NAME)
#define mf_measure_axis MF_PATH_NAMED(mf_measure_axis, MF_PATH_NAME)
#define mf_separating_axis MF_PATH_NAMED(mf_separating_axis, MF_PATH_NAME)
#define mf_measure_edge_axis MF_PATH_NAMED(mf_measure_edge_axis, MF_PATH_NAME)
#define mf_query_edges_of_pair MF_PATH_NAMED(mf_query_edges_of_pair, MF_PATH_NAME)
#define mf_query_pair MF_PATH_NAMED(mf_query_pair, MF_PATH_NAME)
// edge_cull.c: the edge culls
#define mf_edge_gaps MF_PATH_NAMED(mf_edge_gaps, MF_PATH_NAME)
#define mf_face_gaps MF_PATH_NAMED(mf_face_gaps, MF_PATH_NAME)
#define mf_edges_by_faces MF_PATH_NAMED(mf_edges_by_faces, MF_PATH_NAME)
#define mf_edges_within MF_PATH_NAMED(mf_edges_within, MF_PATH_NAME)
#define mf_cull_edges MF_PATH_NAMED(mf_cull_edges, MF_PATH_NAME)
#define mf_rotate_b_edges MF_PATH_NAMED(mf_rotate_b_edges, MF_PATH_NAME)
// clip.c, closest.c, reduce.c: contacts
#define mf_clip_faces MF_PATH_NAMED(mf_clip_faces, MF_PATH_NAME)
#define mf_edge_contact MF_PATH_NAMED(mf_edge_contact, MF_PATH_NAME)
#define mf_closest_points MF_PATH_NAMED(mf_closest_points, MF_PATH_NAME)
#define mf_reduce MF_PATH_NAMED(mf_reduce, MF_PATH_NAME)
