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
