// The per-pair edge query with lanes across a's edges, compiled once per ISA (edge_lanes.c).
#pragma once

#include "bank.h"
#include "rows.h"
#include "sat.h"

// What mf_query_edges (sat.c) returns, for a culled pair (kept lists, at most MF_WIDE_MAX_EDGES of
// b's); the frame needs room for b's packed edges, which come from b's edge records.
mf_edge_search_fn mf_edge_lanes_sse, mf_edge_lanes_avx2, mf_edge_lanes_avx512, mf_edge_lanes_avx512_intel,
    mf_edge_lanes_neon;

// What mf_edge_gaps (edge_cull.c) returns, W edges at a time from the hull's edge rows.
mf_edge_gaps_fn mf_edge_gaps_sse, mf_edge_gaps_avx2, mf_edge_gaps_avx512, mf_edge_gaps_avx512_intel, mf_edge_gaps_neon;

// What mf_face_gaps (edge_cull.c) returns, W faces at a time from the hull's plane rows.
mf_face_gaps_fn mf_face_gaps_sse, mf_face_gaps_avx2, mf_face_gaps_avx512, mf_face_gaps_avx512_intel, mf_face_gaps_neon;

// What mf_edges_by_faces (edge_cull.c) returns, on AVX2 and AVX-512: W edges at a time, each
// looking its faces up in a bitset of the faces within reach (the narrower builds take the scalar
// one: their shifts by a count per lane are emulated).
mf_edges_by_faces_fn mf_edges_by_faces_avx2, mf_edges_by_faces_avx512, mf_edges_by_faces_avx512_intel;

// What mf_edges_within (edge_cull.c) returns, W gaps at a time; the list needs MF_KEPT_EDGES_PAD
// entries past the hull's edge count.
mf_edges_within_fn mf_edges_within_sse, mf_edges_within_avx2, mf_edges_within_avx512, mf_edges_within_avx512_intel,
    mf_edges_within_neon;
