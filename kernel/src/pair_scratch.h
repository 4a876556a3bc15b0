// Per-pair working memory of the scalar path (the frame, the queries, the clip), sized for the
// largest hulls the bank accepts, one per worker.
#pragma once

#include "sat.h"
#include "scale.h"

typedef struct mf_pair_scratch {
    mf_vec3 b_vertices[MF_MAX_HULL_VERTICES];              // b's vertices in a's frame, where not rows alone
    mf_vec3 a_vertices[MF_MAX_HULL_VERTICES];              // a's vertices in b's frame, the same
    float b_normal_rows[3 * MF_MAX_HULL_FACES];            // b's face normals in a's frame, rows x, y, z
    float b_direction_rows[3 * MF_MAX_HULL_EDGES];         // b's edge directions in a's frame
    uint32_t b_face_vertex[MF_MAX_HULL_FACES];             // the edge walk's vertex of a for each face of b
    float a_edge_gap[MF_MAX_HULL_EDGES + MF_EDGE_GAP_PAD]; // the cull's point below each edge's nearer plane
    float b_edge_gap[MF_MAX_HULL_EDGES + MF_EDGE_GAP_PAD];
    // The cull stores kept edges while it loads gaps. Were the lists a multiple of 4 KB after the
    // gaps, the stores would look like the loads' addresses to the store buffer (4K aliasing) and
    // stall them: this pad puts a's list 1 KB off and b's 3 KB off.
    uint8_t alias_pad[1024];
    uint16_t a_edges[MF_MAX_HULL_EDGES + MF_KEPT_EDGES_PAD]; // the edges the edge query tries (the cull)
    uint16_t b_edges[MF_MAX_HULL_EDGES + MF_KEPT_EDGES_PAD];
    float b_packed[MF_PACKED_ROWS * MF_PACKED_STRIDE]; // b's kept edges for the query in lanes
    // b's vertices in a's frame and a's in b's as rows x, y, z (MF_VERTEX_ROWS_STRIDE apart), filled
    // for hulls with a support map and where the ISA moves vertices in lanes: the face queries read
    // them in lanes, and where the ISA moves them so, every reader (mf_pair_frame).
    // After the arrays above: they keep their offsets, and with them the pad's 4K-aliasing cure.
    float b_vertex_rows[3 * MF_VERTEX_ROWS_STRIDE];
    float a_vertex_rows[3 * MF_VERTEX_ROWS_STRIDE];
    float a_face_gap[MF_FACE_CULL_MAX_FACES + MF_EDGE_GAP_PAD]; // the cull's point below each face plane
    float b_face_gap[MF_FACE_CULL_MAX_FACES + MF_EDGE_GAP_PAD];
    mf_scaled_hull scaled[2]; // a's and b's shapes at their scales (scale.h), where not 1
} mf_pair_scratch;

static inline mf_query_scratch mf_query_scratch_of(mf_pair_scratch *s)
{
    return (mf_query_scratch){.face_vertex = s->b_face_vertex,
                              .a_edge_gap = s->a_edge_gap,
                              .b_edge_gap = s->b_edge_gap,
                              .a_face_gap = s->a_face_gap,
                              .b_face_gap = s->b_face_gap,
                              .a_edges = s->a_edges,
                              .b_edges = s->b_edges,
                              .b_normal_rows = s->b_normal_rows,
                              .b_direction_rows = s->b_direction_rows,
                              .b_packed = s->b_packed};
}
