// Separating-axis queries of one pair in body a's frame: face queries of both hulls, the
// edge query with the Gauss-map test, and the biased choice of the contact axis.
#pragma once

#include "bank.h"
#include "extent_lanes.h"
#include "tolerances.h"
#include "rows.h"
#include "vec.h"

#include <stddef.h>

// Vertex rows (mf_pair_frame) have room for every vertex and a register past the last, which
// loads read and mask.
#define MF_VERTEX_ROWS_STRIDE (MF_MAX_HULL_VERTICES + 16)

// One pair seen from body a: b's geometry moved into a's frame where the queries need it.
typedef struct mf_pair_frame {
    const mf_hull_view *a, *b;
    mf_mat3 rotation;          // b -> a
    mf_vec3 translation;       // b's origin in a's frame
    const mf_vec3 *b_vertices; // b's vertices in a's frame; NULL where only the rows hold them
    const mf_vec3 *a_vertices; // a's vertices in b's frame; the same
    // The same as rows x, y, z, MF_VERTEX_ROWS_STRIDE apart, where the hull has a support map (large
    // hulls), the ISA moves vertices in lanes, or the frame is a bundle lane's; NULL otherwise.
    // Where the ISA moves them in lanes, a frame for the queries keeps them as rows alone
    // (mf_frame_setup), as a bundle lane's does b's (chunk.c): read one with mf_frame_b_vertex.
    const float *b_vertex_rows, *a_vertex_rows;
    // For a box-hull pair, the bounds of the hull's vertices in the box's frame (mf_frame_setup
    // keeps them as it moves the vertices; the box-hull queries read the box's faces off them).
    mf_vec3 hull_low, hull_high;
    // b's face normals and edge directions in a's frame, as rows x, y, z of MF_MAX_HULL_FACES and
    // MF_MAX_HULL_EDGES entries (mf_frame_b_normal, mf_frame_b_direction): rows rotate in lanes.
    const float *b_normal_rows, *b_direction_rows;
    // The edges the edge query tries (culled: mf_query_edges_of_pair), ascending; NULL: all of them.
    // The walk tries all of a's: it crosses a's whole Gauss map.
    const uint16_t *a_edges, *b_edges;
    uint32_t a_edge_count, b_edge_count;
    // Room for b's kept edges in a's frame, packed as rows (MF_PACKED_ROWS of MF_PACKED_STRIDE), for
    // the query in lanes.
    float *b_packed;
    // The extents along a direction in the ISA's lanes (mf_deepest_vertex, mf_lowest_of_b, ...).
    const mf_extent_kernel *extent;
} mf_pair_frame;

// Starts a frame of a and b, every field but the pose (the caller's next writes) one by one: a
// compound literal zeroed the rest with `rep stosq`, whose start-up costs Intel's cores tens of
// cycles (on an Emerald Rapids guest 1.4% of hull16's samples, a quarter of the chunk loop's).
static inline void mf_frame_start(mf_pair_frame *frame, const mf_hull_view *a, const mf_hull_view *b,
                                  const mf_vec3 *b_vertices, const mf_extent_kernel *extent)
{
    frame->a = a;
    frame->b = b;
    frame->b_vertices = b_vertices;
    frame->a_vertices = NULL;
    frame->b_vertex_rows = NULL;
    frame->a_vertex_rows = NULL;
    frame->hull_low = (mf_vec3){0.0f, 0.0f, 0.0f};
    frame->hull_high = (mf_vec3){0.0f, 0.0f, 0.0f};
    frame->b_normal_rows = NULL;
    frame->b_direction_rows = NULL;
    frame->a_edges = NULL;
    frame->b_edges = NULL;
    frame->a_edge_count = 0;
    frame->b_edge_count = 0;
    frame->b_packed = NULL;
    frame->extent = extent;
}

static inline mf_vec3 mf_frame_b_normal(const mf_pair_frame *frame, uint32_t face)
{
    const float *rows = frame->b_normal_rows;
    return (mf_vec3){rows[face], rows[MF_MAX_HULL_FACES + face], rows[2 * MF_MAX_HULL_FACES + face]};
}

static inline mf_vec3 mf_frame_b_direction(const mf_pair_frame *frame, uint32_t edge)
{
    const float *rows = frame->b_direction_rows;
    return (mf_vec3){rows[edge], rows[MF_MAX_HULL_EDGES + edge], rows[2 * MF_MAX_HULL_EDGES + edge]};
}

typedef enum mf_axis_kind { MF_AXIS_FACE_A, MF_AXIS_FACE_B, MF_AXIS_EDGES } mf_axis_kind;

typedef struct mf_axis {
    mf_axis_kind kind;
    float separation;
    uint32_t feature_a; // face of a, or edge of a
    uint32_t feature_b; // face of b, or edge of b
    mf_vec3 normal;     // in a's frame, from a to b (edge axes only; faces read it from the hull)
} mf_axis;

typedef struct mf_face_query {
    float separation;
    uint32_t face;
} mf_face_query;

typedef struct mf_edge_query {
    float separation;
    uint32_t edge_a, edge_b;
    mf_vec3 normal;
} mf_edge_query;

// The other hull of a face query, in the frame of the hull whose faces are tried: its vertices,
// its centroid, and how far below the highest face plane's height of the centroid a face may lie
// and still be the best (mf_face_reach).
typedef struct mf_face_other {
    const mf_vec3 *vertices; // NULL where the frame keeps the other's vertices as rows alone
    uint32_t count;
    mf_vec3 centroid;
    float reach;
    float inner; // the other's inner radius less the hair: a face separates by at most its height less this
    // The other hull's vertices as rows where the frame has them (its vertex rows), and its support
    // map where it is large (support_map.h), NULL otherwise; the pair's frame and which hull the
    // other is, for mf_face_map_of.
    const float *rows;
    const float *support_map;
    const struct mf_pair_frame *frame;
    int on_b;
} mf_face_other;

// A face's separation (the other hull's lowest point over its plane) is at most its plane's height
// of the other's centroid less the other's inner radius (a ball around the centroid lies inside),
// and at least that height less the outer radius (a ball around the centroid holds the hull).
// So no face whose height falls more than the radii's difference below the highest can be the
// best; a hair more covers float noise.
static inline float mf_face_hair(const mf_shape *hull, const mf_shape *other, mf_vec3 centroid)
{
    return MF_LENGTH_NOISE * (mf_length(centroid) + hull->radius + other->radius);
}

static inline float mf_face_reach(const mf_shape *hull, const mf_shape *other, mf_vec3 centroid)
{
    return other->outer_radius - other->inner_radius + mf_face_hair(hull, other, centroid);
}

// Face f's height of the other's centroid: the plane's signed distance to it.
static inline float mf_face_height(const mf_hull_view *hull, uint32_t f, mf_vec3 centroid)
{
    return hull->normal_x[f] * centroid.x + hull->normal_y[f] * centroid.y + hull->normal_z[f] * centroid.z -
           hull->offset[f];
}

// b against a's faces (on_b 0: b's vertices and centroid in a's frame) or a against b's.
mf_face_other mf_face_other_of(const mf_pair_frame *frame, int on_b);

// How a large other hull's map is read from the hull's frame: `to_map` takes a direction into the
// other's frame, where its map reads it; its points x move into the hull's frame as
// to_map^T x + shift. A height taken in the other's frame so, (to_map n) . x + n . shift, differs by
// at most `slack` from the height of the moved point.
typedef struct mf_face_map {
    mf_mat3 to_map;
    mf_vec3 shift;
    float slack;
} mf_face_map;

mf_face_map mf_face_map_of(const mf_face_other *other);

// Face query of `hull` against `other`: the face whose plane the other hull lies highest over
// (its separation), the first of equals. Only faces within the reach of the highest height are
// measured, in order, and the first that separates by more than `margin` ends the search.
mf_face_query mf_query_faces(const mf_hull_view *hull, const mf_face_other *other, float margin);

// mf_query_faces or a build of it in lanes (face_lanes.h).
typedef mf_face_query mf_face_search_fn(const mf_hull_view *hull, const mf_face_other *other, float margin);

// Whether edge a (faces a0, a1) and edge b (faces b0, b1) build a face of the Minkowski difference
// a - b, read off each edge's direction against the other edge's face normals. Edge face0 runs
// vertex0 -> vertex1, so face0 lies left of the direction seen from outside. The axis
// cross(a_direction, b_direction), oriented from a to b, must lie in both edges' normal cones:
// b_direction . a0 > 0 > b_direction . a1 and a_direction . b0 > 0 > a_direction . b1 for the
// positive orientation, all signs reversed for the negative one. This is Gregorius' arc-crossing
// test with the arcs' plane normals (normal1 x normal0) replaced by the edge directions, which are
// parallel to them: those cross products lose their direction when the two faces of an edge are
// nearly parallel or nearly opposite (slivers, thin hulls, near-coplanar facets); the edge
// directions (see MF_EDGE_ARC_SINE) keep theirs.
typedef struct mf_minkowski_test {
    float a0, a1, b0, b1;
} mf_minkowski_test;

// The sign of `a0` then orients the axis: positive along cross(a_direction, b_direction).
static inline int mf_minkowski_face(mf_minkowski_test t)
{
    return t.a0 * t.a1 < 0.0f && t.b0 * t.b1 < 0.0f && t.a0 * t.b0 > 0.0f;
}

// The Minkowski test of a's edge i and an edge of b (normals and direction in a's frame), reading
// the second pair of dot products only when the first passes; `a0` orients the axis.
static inline int mf_edge_pair_crosses(const mf_hull_view *a, uint32_t i, mf_vec3 b_normal0, mf_vec3 b_normal1,
                                       mf_vec3 b_direction, float *a0)
{
    mf_minkowski_test t;
    t.a0 = mf_dot(b_direction, mf_view_normal(a, a->edge_face0[i]));
    t.a1 = mf_dot(b_direction, mf_view_normal(a, a->edge_face1[i]));
    if (!(t.a0 * t.a1 < 0.0f)) return 0;
    mf_vec3 a_direction = {a->edge_x[i], a->edge_y[i], a->edge_z[i]};
    t.b0 = mf_dot(a_direction, b_normal0);
    t.b1 = mf_dot(a_direction, b_normal1);
    *a0 = t.a0;
    return mf_minkowski_face(t);
}

// b's vertex v in a's frame, from the rows where the frame keeps no other copy.
static inline mf_vec3 mf_frame_b_vertex(const mf_pair_frame *frame, uint32_t v)
{
    if (frame->b_vertices != NULL) return frame->b_vertices[v];
    const float *x = frame->b_vertex_rows;
    return (mf_vec3){x[v], x[v + MF_VERTEX_ROWS_STRIDE], x[v + 2 * MF_VERTEX_ROWS_STRIDE]};
}

// The axis of a crossing edge pair (i, j), oriented from a to b by `a0`, and the distance of the
// edges' lines along it; 0 when the edges are nearly parallel.
static inline int mf_edge_pair_measure(const mf_pair_frame *frame, uint32_t i, uint32_t j, mf_vec3 b_direction,
                                       float a0, mf_vec3 *axis, float *separation)
{
    const mf_hull_view *a = frame->a;
    mf_vec3 cross = mf_cross((mf_vec3){a->edge_x[i], a->edge_y[i], a->edge_z[i]}, b_direction);
    float length = mf_length(cross);
    if (length < MF_PARALLEL_SINE) return 0;
    *axis = mf_scale(cross, (a0 > 0.0f ? 1.0f : -1.0f) / length);
    *separation = mf_dot(
        *axis, mf_sub(mf_frame_b_vertex(frame, frame->b->edge_vertex0[j]), mf_view_vertex(a, a->edge_vertex0[i])));
    return 1;
}

// Whether `separation` for edges (i, j) beats `best`: ties go to the lowest (i, j), the order of
// the all-pairs search, so every way of searching returns the same pair.
static inline int mf_edge_pair_beats(const mf_edge_query *best, float separation, uint32_t i, uint32_t j)
{
    return separation > best->separation ||
           (separation == best->separation && (i < best->edge_a || (i == best->edge_a && j < best->edge_b)));
}

// Edge query over the pairs of edges that build a face of the Minkowski difference, all pairs
// tried.
mf_edge_query mf_query_edges(const mf_pair_frame *frame);

// The same answer by walking each of b's edges across a's Gauss map (edge_walk.h): only the
// pairs that build Minkowski faces are measured, so its cost grows with those, not with
// E_a x E_b. `face_vertex` is scratch for one entry per face of b.
typedef mf_edge_query mf_edge_walk_fn(const mf_pair_frame *frame, uint32_t *face_vertex);

// Which edge query a pair takes, a function of the edges it tries (after the cull, which every ISA
// makes alike) so that every ISA searches alike. Trying all pairs in lanes across a's edges costs
// about E_b * E_a / W, the walk about E_b steps of a few fan tests: measured on AVX2 and AVX-512,
// all pairs are faster on 16-point rocks (42 edges, 1.2x) and 32-point rocks (about 80 edges,
// 1.1x), the walk from about 100 edges of a, and for a small a against a large b.
#define MF_EDGE_WALK_MIN_EDGES 100u
#define MF_EDGE_WALK_MIN_PAIRS 20000u

static inline int mf_edge_query_walks(const mf_pair_frame *frame)
{
    uint32_t a = frame->a_edges != NULL ? frame->a_edge_count : frame->a->edge_count;
    uint32_t b = frame->b_edges != NULL ? frame->b_edge_count : frame->b->edge_count;
    return a >= MF_EDGE_WALK_MIN_EDGES || a * b >= MF_EDGE_WALK_MIN_PAIRS;
}

// How far from the best separation an axis may be and still serve: the slop, and a float-noise
// allowance relative to the pair's size `scale` (its radii summed) and the separation.
static inline float mf_allowance(float linear_slop, float scale, float best)
{
    return linear_slop + MF_ALLOWANCE_NOISE * (scale + fabsf(best));
}

// How far an edge axis' measured separation may be off: its unit directions come from the face
// normals (MF_EDGE_ARC_SINE), not the vertices, and their float noise tilts the axis.
static inline float mf_edge_axis_noise(float scale, float separation)
{
    return MF_LENGTH_NOISE * (scale + fabsf(separation));
}

// Edge query of two parallelepipeds: the 9 axes of their edge directions, both hulls projected
// onto each. edge_a and edge_b hold direction indices until mf_resolve_direction_edges.
mf_edge_query mf_query_edge_directions(const mf_pair_frame *frame);

// Turns an edge axis from mf_query_edge_directions into the two supporting edges.
void mf_resolve_direction_edges(const mf_pair_frame *frame, mf_axis *axis);

// The three queries of a pair. For parallelepipeds (projection), the edge query's features are
// direction indices until mf_resolve_direction_edges.
typedef struct mf_axis_candidates {
    mf_face_query face_a, face_b;
    mf_edge_query edge;
    int projection;
    float scale; // the hulls' radii summed: the size float noise is relative to
} mf_axis_candidates;

static inline float mf_best_separation(const mf_axis_candidates *c)
{
    return mf_maxf(mf_maxf(c->face_a.separation, c->face_b.separation), c->edge.separation);
}

// Whether the pair is closer than `margin` along every axis.
static inline int mf_is_touching(const mf_axis_candidates *c, float margin) { return mf_best_separation(c) < margin; }

// How far from the best an axis may be and still serve: the slop and a float-noise allowance.
float mf_rank_allowance(const mf_axis_candidates *candidates, float linear_slop);

// The axes within mf_rank_allowance of the best one, in order of preference for the contact: a's
// face, b's face, then the edge axis. The first is the axis; the others stand in when it yields
// no contact (an incident face missing the reference face, edges whose closest points are not
// on both edges). Returns how many.
uint32_t mf_rank_axes(const mf_axis_candidates *candidates, float linear_slop, mf_axis ranked[3]);

// The vertex of a (its own vertices) or of b (moved into a's frame) lowest along `normal`, given in
// a's frame: the incident hull's deepest vertex, or the support of a face axis from the other side.
uint32_t mf_deepest_vertex(const mf_pair_frame *frame, int incident_is_a, mf_vec3 normal);

// The gap between the hulls along `normal` (a to b): b's lowest point beyond a's highest. Any axis
// gives a lower bound of the distance this way.
float mf_projected_gap(const mf_pair_frame *frame, mf_vec3 normal);

// b's lowest point along `normal` (in a's frame): the least n . v of its moved vertices, from
// whichever copy the frame keeps.
float mf_lowest_of_b(const mf_pair_frame *frame, mf_vec3 normal);

// a's highest point along `normal` (in a's frame): the greatest n . v of its vertices.
float mf_highest_of_a(const mf_pair_frame *frame, mf_vec3 normal);

// A face axis' separation measured in the frame: the other hull's lowest point over the face's
// plane. The queries keep only each hull's best face; the clip measures others (pair.c).
float mf_face_separation(const mf_pair_frame *frame, const mf_axis *axis);

// An axis found at another pose (a cache entry's kept axis, decoded) measured in this frame: its
// separation, and for an edge axis its normal, oriented as the queries orient it (`projection`:
// the pair's parallelepipeds project, mf_uses_projection). 0 if it has become ill-defined (the
// edges turned parallel).
int mf_measure_axis(const mf_pair_frame *frame, int projection, mf_axis *axis);

// The axis that separates the pair most, as a cache entry keeps it for a pair without contacts:
// b's face where it is the best, else the edge axis where it is the best and a's face is not, else
// a's face.
mf_axis mf_separating_axis(const mf_axis_candidates *candidates);

// When the Gauss-map edge axis is the pair's best, measures it again by projecting both hulls:
// the Gauss-map formula measures between the edges' lines, and nearly degenerate arcs can pass
// edges that do not support the hulls along the axis.
void mf_measure_edge_axis(const mf_pair_frame *frame, mf_axis_candidates *candidates);

// Scratch of the queries, an entry per face, vertex or edge of the hull named.
typedef struct mf_query_scratch {
    uint32_t *face_vertex;                   // b's faces, for the walk
    float *a_edge_gap, *b_edge_gap;          // the cull's point below each edge's nearer face plane
    float *a_face_gap, *b_face_gap;          // or below each face plane (MF_FACE_CULL_MAX_FACES)
    uint16_t *a_edges, *b_edges;             // the edges kept for the edge query
    float *b_normal_rows, *b_direction_rows; // what the frame's point to (mf_rotate_b_edges)
    float *b_packed;                         // what the frame's points to
} mf_query_scratch;

// An all-pairs edge search in lanes (edge_lanes.h), as mf_query_edges. The answer goes out through
// `best`, stored field by field: returned whole, it was stored piecewise in a slot of the caller's
// and copied by wider loads, which wait for the stores (no store forwarding).
typedef void mf_edge_search_fn(const mf_pair_frame *frame, mf_edge_query *best);

// The cull's work on every edge (edge_cull.h: mf_edge_gaps, mf_edges_within, or their builds in
// lanes).
typedef float mf_edge_gaps_fn(const mf_hull_view *hull, mf_vec3 p, float *gap);
typedef uint32_t mf_edges_within_fn(const float *gap, uint32_t count, float reach, uint16_t *kept);
// The same for hulls of at most MF_FACE_CULL_MAX_FACES faces, from their faces' gaps
// (edge_cull.h: mf_face_gaps, mf_edges_by_faces).
typedef float mf_face_gaps_fn(const mf_hull_view *hull, mf_vec3 p, float *gap);
typedef uint32_t mf_edges_by_faces_fn(const mf_hull_view *hull, const float *face_gap, float reach, uint16_t *kept);
#define MF_FACE_CULL_MAX_FACES 128
#define MF_EDGE_GAP_PAD 16   // entries a gap list has past the edge count (mf_edge_gaps writes them)
#define MF_KEPT_EDGES_PAD 16 // entries a kept list has past the edge count (the lanes' builds store ahead)
// Rows of b's kept edges the query in lanes packs (normal0, normal1, direction, vertex0, x y z
// each), and their stride: the kept edges and a register past them.
#define MF_PACKED_ROWS 12
#define MF_PACKED_STRIDE (MF_WIDE_MAX_EDGES + 16)

// The arc cull and the support cull (edge_cull.h: mf_arc_cull, mf_support_cull) of the kept edges
// `edges` (`count`, ascending): those that pass, in place, ascending, then MF_KEPT_EDGES_PAD zeros;
// returns how many. The list has MF_KEPT_EDGES_PAD entries past `count` (mf_edges_within).
struct mf_arc_cull;
struct mf_support_cull;
typedef uint32_t mf_edge_arc_cull_fn(const struct mf_arc_cull *cull, uint16_t *edges, uint32_t count);
typedef uint32_t mf_edge_support_cull_fn(const struct mf_support_cull *cull, uint16_t *edges, uint32_t count);

// The edge query's builds for one ISA: the walk, all pairs in lanes (NULL: mf_query_edges), the
// cull's per-edge work, the arc cull and the support cull.
typedef struct mf_edge_kernel {
    mf_edge_walk_fn *walk;
    mf_edge_search_fn *lanes;
    mf_edge_gaps_fn *gaps;
    mf_edges_within_fn *within;
    mf_face_gaps_fn *face_gaps;
    mf_edges_by_faces_fn *edges_by_faces;
    mf_edge_arc_cull_fn *arc_cull;
    mf_edge_support_cull_fn *support_cull;
} mf_edge_kernel;

// The edge query of a pair that is not apart along a face and not two parallelepipeds, the same on
// the scalar and the wide path: the edges culled to those that could rank (edge_cull.h), then the
// walk or all pairs as mf_edge_query_walks says (in lanes where the kernel has them and b keeps at most
// MF_WIDE_MAX_EDGES), then the winner measured (mf_measure_edge_axis). The kept lists stay in the
// frame (a_edges, b_edges, their counts, b_packed): no stage after the query reads them. (A copy
// of the frame, loaded whole right after the caller's field-by-field stores, waited for them: no
// store forwarding.)
void mf_query_edges_of_pair(mf_pair_frame *frame, float linear_slop, const mf_edge_kernel *kernel,
                            const mf_query_scratch *scratch, mf_axis_candidates *candidates);

// Runs the three queries of the pair; returns 0 if it is apart by the margin or more. `faces` is
// mf_query_faces or a build of it in lanes. A box and a hull take the closed-form queries of
// `box_hull` (box_hull.h: mf_is_box_hull_pair). The edge query leaves its kept lists in the frame.
struct mf_box_hull_kernel;
int mf_query_pair(mf_pair_frame *frame, const mf_config *config, mf_face_search_fn *faces, const mf_edge_kernel *edges,
                  const struct mf_box_hull_kernel *box_hull, const mf_query_scratch *scratch,
                  mf_axis_candidates *candidates);
