// The edge cull (edge_cull.c): before the edge query of a pair (mf_query_edges_of_pair), the edges
// of each hull that could make an edge axis that ranks; and b's edges turned into a's frame for the
// query.
#pragma once

#include "sat.h"

// Each edge's gap to p (in the hull's frame) into `gap`, MF_EDGE_GAP_PAD entries past the last
// written too: the height of its nearer face plane over p, positive inside, measured as
// normal . (vertex0 - p) (the planes pass through the edge). Returns the least, the least over
// the faces.
float mf_edge_gaps(const mf_hull_view *hull, mf_vec3 p, float *gap);

// Each face's gap to p (in the hull's frame) into `gap`, and infinity in MF_EDGE_GAP_PAD entries
// past the last: the height of its plane over p, positive inside, offset - normal . p. An edge's
// gap is the less of its two faces' (in exact arithmetic; the floats differ a little, and a hull
// is always culled one way). Returns the least, the least over the edges too. For hulls of at most
// MF_FACE_CULL_MAX_FACES faces, which read a fifth of the memory this way.
float mf_face_gaps(const mf_hull_view *hull, mf_vec3 p, float *gap);

// The edges one of whose faces' gap is within `reach`, ascending, into `kept`, then
// MF_KEPT_EDGES_PAD zeros; returns how many. As mf_edges_within on the edges' gaps, each the less
// of its faces'.
uint32_t mf_edges_by_faces(const mf_hull_view *hull, const float *face_gap, float reach, uint16_t *kept);

// The edges whose gap is within `reach`, ascending (the searches break ties by index order), into
// `kept`, then MF_KEPT_EDGES_PAD zeros; returns how many.
uint32_t mf_edges_within(const float *gap, uint32_t count, float reach, uint16_t *kept);

// The arc cull (arc_cull.c) of one hull's kept edges, where the other hull has a support map
// (support_map.h). The cull keeps an edge pair only where its gaps could sum to at most its
// reach: the gaps of a point q_a of a and q_b of b below the two hulls' supporting planes along the
// pair's axis, each at least the edge's own gap (mf_edge_gaps), the height of its point below the
// nearer of its face planes. The arc cull bounds the other hull's gap too, along the edge's whole
// Gauss-map arc (its normal cone, from normal0 to normal1). Along a direction m of that arc the
// other hull supports -m, and its gap there is at least -m . (y - q) for any vertex y of it and its
// point q: a sinusoid along the arc, so at least the less of its ends' values where both are
// positive, and at least 0 (q lies in the hull). With y the vertex the other's map names for the
// arc's first end the bound is nearly the gap itself: on the bunny's hull a tenth of the kept edges
// are left.
typedef struct mf_arc_cull {
    const float *records;   // the culled hull's edge records (rows.h): its face normals in its frame
    const float *gap;       // its edges' gaps at its point
    mf_mat3 to_other;       // its frame into the other's
    const float *other_map; // the other's support map
    mf_vec3 other_point;    // the other's point, in the other's frame
    float reach;            // the cull's, a hair more for the float noise of the other's bound
} mf_arc_cull;

// The arc culls run where the cull keeps at least this many edge pairs: measured on AVX-512, culling
// a block of W edges costs about as much as trying 16 of the other's against W (hull128's rocks
// keep 15 edges each, and the culls would cost more than they save; the bunny's hull 180).
#define MF_ARC_CULL_MIN_PAIRS 1024u

// The support cull (support_cull.c) of a's kept edges against b's vertices (in a's frame). An
// edge pair's axis n lies on a's edge's Gauss-map arc, from normal0 to normal1, and the hulls are
// apart along it by at most s(n) = min over b's vertices y of n . (y - p), p the edge's first
// vertex: the query measures a pair from p, and no pair that ranks is measured above what the
// projection gives (mf_measure_edge_axis). Along the arc each y gives a sinusoid n(theta) . (y - p),
// and s is below the lower of two of them: those of the vertices y0 and y1 that are least along
// the arc's ends. Where the bar is negative, so is that envelope's greatest value unless it reaches
// the bar at an end or where the two cross (a sinusoid negative at both ends of an arc shorter than
// a half turn has no peak inside it), all from four products: each end's least and the other end's
// product with the vertex that gives it. An edge whose bound falls short of the bar cannot make an
// axis that ranks. The products cost a pass over b's vertices for each register of a's edges, two
// products a vertex, where the query tries each of a's edges against b's kept ones: a 16-point
// rock's deep overlaps keep 2.7 of the 16 edges that the gaps keep. (b's edges could be culled the
// same way against a's vertices, at the same cost, but then the query has few of a's left to try:
// it saves less than it costs.)
typedef struct mf_support_cull {
    const float *records;                     // a's edge records (rows.h)
    const float *other_x, *other_y, *other_z; // b's vertices in a's frame,
    size_t other_stride;                      // this many floats apart
    uint32_t other_count;
    float bar; // the least separation of an axis that ranks, less a hair for the bound's rounding
} mf_support_cull;

// The cosines between an arc's ends (its faces' normals) within which the support cull trusts its
// bound. Edges of arcs shorter (nearly flat) or longer (nearly a half turn: the rim of a thin hull)
// take their directions, and so the query its axes, from their vertices (MF_EDGE_ARC_SINE), not
// their normals, and need not lie on the arc the bound follows: they are kept.
#define MF_SUPPORT_CULL_LEAST_COSINE (-0.9f)
#define MF_SUPPORT_CULL_MOST_COSINE 0.99995f

// The support cull runs where b has at most this many vertices for each of its kept edges: it
// passes over b's vertices once for each register of a's edges, the query tries b's kept edges
// against each of a's (counts alone decide, so that every ISA culls alike).
#define MF_SUPPORT_CULL_VERTICES_PER_EDGE 2u

// The edges of a pair that could make an edge axis that ranks (mf_rank_axes): the frame gets each
// hull's kept edges (a_edges, b_edges, in the scratch) and their counts. Deep overlaps are culled
// around a point inside both hulls on the centroids' line where there is one; the rest around the
// vertex that supports the better face axis from the other side and its partner on that face;
// where either hull is large, its kept edges then by the arc cull too (MF_ARC_CULL_MIN_PAIRS).
// Every ISA keeps the same edges.
void mf_cull_edges(mf_pair_frame *frame, const mf_axis_candidates *candidates, float linear_slop,
                   const mf_edge_kernel *kernel, const mf_query_scratch *scratch);

// b's edge directions in a's frame, and its face normals, at least for the frame's b_edges (NULL:
// all) and their faces, into rows (what the frame's b_normal_rows, b_direction_rows point to).
void mf_rotate_b_edges(const mf_pair_frame *frame, float *normal_rows, float *direction_rows);
