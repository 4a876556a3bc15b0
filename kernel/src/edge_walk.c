// The edge query by walking the Gauss map (Overturf, "Improvements to the Separating Axis Test",
// after Gregorius, GDC 2013). On the unit sphere each vertex of a owns a region, the directions
// it supports, bounded by the arcs of its edges; b's edge j is the arc from -normal of its face0
// to -normal of its face1 (b's normals turned round: a - b). The edges of a whose arcs it crosses
// are exactly those that build a Minkowski face with j. So instead of testing j against every edge
// of a, start in the region that holds one end of the arc and step across the one edge whose
// Minkowski test passes, until none does: the walk tests only the sides of the regions it passes
// through (a vertex's few edges) and measures only the crossings.
//
// Each step tests every edge around the vertex at once, in SIMD lanes over the fan rows (rows.h),
// with the Minkowski test of mf_query_edges on the same floats: every pair the walk measures is
// one the all-pairs search measures, with the same value, and ties go the same way.
// Float noise can still lead a walk astray where an arc passes (nearly) through a corner of a
// region; a walk that finds two ways out of a region, or stops where the far end of the arc is
// not, is dropped and that edge of b is tried against every kept edge of a instead (rare: on the
// bunny's hull, before the arc culls left it to all pairs, 9 of 611,000 walks).
#include "edge_walk.h"
#include "rows.h"

// A fan has about six edges: the AVX-512 build tests them 8 at a time (AVX-512VL on 256 bits), as
// a 16-lane register would sit half idle.
#if MF_WIDE_WIDTH > 8
#undef MF_WIDE_WIDTH
#define MF_WIDE_WIDTH 8
#endif
#include "minkowski_lanes.h"
#include "wide.h"

#include "support_map.h"

#include <stddef.h>

enum { W = MF_WIDE_WIDTH };

#define NO_VERTEX UINT32_MAX
#define NO_ENTRY UINT32_MAX

static inline float height(const mf_hull_view *a, uint32_t v, mf_vec3 direction)
{
    return mf_dot(direction, mf_view_vertex(a, v));
}

// Whether no neighbour of `v` reaches further along `direction`: on a convex hull, `v` then
// supports it (ties aside).
static int supports(const mf_hull_view *a, uint32_t v, mf_vec3 direction)
{
    float h = height(a, v, direction);
    const uint16_t *neighbours = a->fan_other + a->vertex_fan_first[v];
    for (uint32_t k = 0; k < a->vertex_fan_count[v]; ++k)
        if (height(a, neighbours[k], direction) > h) return 0;
    return 1;
}

// Climbs from `v` to a vertex that supports `direction`; every step strictly gains height.
static uint32_t climb(const mf_hull_view *a, uint32_t v, mf_vec3 direction)
{
    float h = height(a, v, direction);
    for (;;) {
        uint32_t next = v;
        const uint16_t *neighbours = a->fan_other + a->vertex_fan_first[v];
        for (uint32_t k = 0; k < a->vertex_fan_count[v]; ++k) {
            float neighbour = height(a, neighbours[k], direction);
            if (neighbour > h) {
                h = neighbour;
                next = neighbours[k];
            }
        }
        if (next == v) return v;
        v = next;
    }
}

// Crossings found by the walks, measured W at a time (mf_edge_pair_measure in lanes): a's and
// b's edge directions, the vector from a's edge to b's (first vertices), the orientation.
enum { BATCH = 64 };
typedef struct crossings {
    _Alignas(64) float a_direction[3][BATCH];
    _Alignas(64) float b_direction[3][BATCH];
    _Alignas(64) float between[3][BATCH];
    _Alignas(64) float sign[BATCH];
    uint32_t edge_a[BATCH], edge_b[BATCH];
    uint32_t count;
    mf_edge_query best;
} crossings;

static inline mf_vec3w batch3(float rows[3][BATCH], uint32_t k)
{
    return (mf_vec3w){mf_loadw(rows[0] + k), mf_loadw(rows[1] + k), mf_loadw(rows[2] + k)};
}

static void measure(crossings *c)
{
    // Lanes past the count measure zeros, which fail the parallel test.
    uint32_t padded = (c->count + W - 1) / W * W;
    for (uint32_t k = c->count; k < padded; ++k) {
        for (uint32_t r = 0; r < 3; ++r) c->a_direction[r][k] = c->b_direction[r][k] = c->between[r][k] = 0.0f;
        c->sign[k] = 1.0f;
    }
    MF_ALIGNED_LANES(separations);
    MF_ALIGNED_LANES(valid);
    MF_ALIGNED_LANES(normal_x);
    MF_ALIGNED_LANES(normal_y);
    MF_ALIGNED_LANES(normal_z);
    mf_floatw sine = mf_splatw(MF_PARALLEL_SINE), one = mf_splatw(1.0f), zero = mf_splatw(0.0f);
    for (uint32_t k = 0; k < c->count; k += W) {
        mf_vec3w axis = mf_cross3w(batch3(c->a_direction, k), batch3(c->b_direction, k));
        mf_floatw length = mf_sqrtw(mf_dotw(axis, axis));
        axis = mf_scale3w(axis, mf_divw(mf_loadw(c->sign + k), length));
        mf_storew(separations, mf_dotw(axis, batch3(c->between, k)));
        mf_storew(valid, mf_selectw(mf_gew(length, sine), one, zero));
        mf_storew(normal_x, axis.x);
        mf_storew(normal_y, axis.y);
        mf_storew(normal_z, axis.z);
        for (uint32_t l = 0; l < W && k + l < c->count; ++l)
            if (valid[l] != 0.0f && mf_edge_pair_beats(&c->best, separations[l], c->edge_a[k + l], c->edge_b[k + l]))
                c->best = (mf_edge_query){
                    separations[l], c->edge_a[k + l], c->edge_b[k + l], {normal_x[l], normal_y[l], normal_z[l]}};
    }
    c->count = 0;
}

static inline void put(float rows[3][BATCH], uint32_t k, mf_vec3 v)
{
    rows[0][k] = v.x;
    rows[1][k] = v.y;
    rows[2][k] = v.z;
}

// Queues the crossing of a's edge i and b's edge j, oriented by `a0` (mf_edge_pair_crosses).
static void add(crossings *c, const mf_pair_frame *frame, uint32_t i, uint32_t j, float a0)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    mf_vec3 between = mf_sub(mf_frame_b_vertex(frame, b->edge_vertex0[j]), mf_view_vertex(a, a->edge_vertex0[i]));
    uint32_t k = c->count++;
    put(c->a_direction, k, (mf_vec3){a->edge_x[i], a->edge_y[i], a->edge_z[i]});
    put(c->b_direction, k, mf_frame_b_direction(frame, j));
    put(c->between, k, between);
    c->sign[k] = a0 > 0.0f ? 1.0f : -1.0f;
    c->edge_a[k] = i;
    c->edge_b[k] = j;
    if (c->count == BATCH) measure(c);
}

static inline mf_vec3w fan_row3(const mf_hull_view *a, uint32_t first_row, uint32_t entry)
{
    const float *row = a->fan_rows + (size_t)first_row * a->fan_stride + entry;
    return (mf_vec3w){mf_loaduw(row), mf_loaduw(row + a->fan_stride), mf_loaduw(row + 2 * (size_t)a->fan_stride)};
}

// b's edge as the fan test reads it, each value in every lane.
typedef struct b_edge {
    mf_vec3w normal0, normal1, direction;
} b_edge;

// Bits of the fan entries [first, first + count), count <= 64, whose edges build a Minkowski face
// with b's edge: the test of mf_edge_pair_crosses, W entries at a time.
static uint64_t crossing_bits(const mf_hull_view *a, uint32_t first, uint32_t count, const b_edge *e)
{
    uint64_t bits = 0;
    for (uint32_t c = 0; c < count; c += W) {
        mf_floatw a0 = mf_dotw(e->direction, fan_row3(a, 0, first + c));
        mf_floatw a1 = mf_dotw(e->direction, fan_row3(a, 3, first + c));
        mf_vec3w a_direction = fan_row3(a, 6, first + c);
        mf_floatw b0 = mf_dotw(a_direction, e->normal0), b1 = mf_dotw(a_direction, e->normal1);
        mf_maskw face = mf_minkowski_facew(a0, a1, b0, b1);
        bits |= (uint64_t)mf_lane_bitsw(face) << c;
    }
    return count < 64 ? bits & ((UINT64_C(1) << count) - 1) : bits;
}

// Walks b's edge j from the region of a's vertex `v`. Returns the vertex whose region the walk
// ends in, or NO_VERTEX where it found two ways out of a region.
static uint32_t walk(const mf_pair_frame *frame, uint32_t j, uint32_t v, crossings *found)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    b_edge e = {mf_splat3w(mf_frame_b_normal(frame, b->edge_face0[j])),
                mf_splat3w(mf_frame_b_normal(frame, b->edge_face1[j])), mf_splat3w(mf_frame_b_direction(frame, j))};
    uint32_t entry = NO_ENTRY; // the fan entry of the edge the walk came in by
    // An arc shorter than half a great circle crosses each of a's edges at most once.
    for (uint32_t step = 0; step <= a->edge_count; ++step) {
        uint32_t first = a->vertex_fan_first[v], count = a->vertex_fan_count[v], exit = NO_ENTRY;
        for (uint32_t done = 0; done < count; done += 64) {
            uint64_t bits = crossing_bits(a, first + done, count - done < 64 ? count - done : 64, &e);
            if (entry - first - done < 64) bits &= ~(UINT64_C(1) << (entry - first - done));
            if (bits == 0) continue;
            if (exit != NO_ENTRY || (bits & (bits - 1)) != 0) return NO_VERTEX;
            exit = first + done + (uint32_t)__builtin_ctzll(bits);
        }
        if (exit == NO_ENTRY) return v;
        uint32_t i = a->fan_edge[exit];
        add(found, frame, i, j, mf_dot(mf_frame_b_direction(frame, j), mf_view_normal(a, a->edge_face0[i])));
        entry = a->fan_twin[exit];
        v = a->fan_other[exit];
    }
    return NO_VERTEX;
}

// Edge j of b against every kept edge of a (every edge without a kept list), as mf_query_edges
// does: the last resort of a walk gone astray. An edge the cull dropped makes no pair that ranks.
static void try_every_edge(const mf_pair_frame *frame, uint32_t j, crossings *found)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    mf_vec3 normal0 = mf_frame_b_normal(frame, b->edge_face0[j]), normal1 = mf_frame_b_normal(frame, b->edge_face1[j]);
    uint32_t a_count = frame->a_edges != NULL ? frame->a_edge_count : a->edge_count;
    for (uint32_t k = 0; k < a_count; ++k) {
        uint32_t i = frame->a_edges != NULL ? frame->a_edges[k] : k;
        float a0;
        if (mf_edge_pair_crosses(a, i, normal0, normal1, mf_frame_b_direction(frame, j), &a0))
            add(found, frame, i, j, a0);
    }
}

// Where a walk starts its climb to the region of `direction`: the vertex a's support map names for
// it where a has one, else `near`.
static uint32_t climb_start(const mf_hull_view *a, mf_vec3 direction, uint32_t near)
{
    if (a->support_map == NULL) return near;
    return (uint32_t)a->support_map[MF_SUPPORT_MAP_ENTRY * mf_support_map_cell(direction) + 3];
}

mf_edge_query MF_NAMED(mf_edge_walk, MF_WIDE_NAME)(const mf_pair_frame *frame, uint32_t *face_vertex)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    crossings found;
    found.count = 0;
    found.best = (mf_edge_query){-INFINITY, 0, 0, {0, 0, 0}};
    uint32_t b_count = frame->b_edges != NULL ? frame->b_edge_count : b->edge_count;
    // Only the faces of the edges walked are read: a large hull's culled pairs walk a few of many.
    for (uint32_t k = 0; k < b_count; ++k) {
        uint32_t j = frame->b_edges != NULL ? frame->b_edges[k] : k;
        face_vertex[b->edge_face0[j]] = face_vertex[b->edge_face1[j]] = NO_VERTEX;
    }
    // b's edges come sorted by their lower vertex, so the next arc starts near where the last one
    // ended: the climb to its first region is short, and each face's region is found once.
    uint32_t last = 0;
    for (uint32_t k = 0; k < b_count; ++k) {
        uint32_t j = frame->b_edges != NULL ? frame->b_edges[k] : k;
        // A walk finds the same crossings in either direction: start at the end already placed.
        uint32_t from = b->edge_face0[j], to = b->edge_face1[j];
        if (face_vertex[from] == NO_VERTEX && face_vertex[to] != NO_VERTEX) {
            from = to;
            to = b->edge_face0[j];
        }
        if (face_vertex[from] == NO_VERTEX)
            face_vertex[from] = climb(a, climb_start(a, mf_neg(mf_frame_b_normal(frame, from)), last),
                                      mf_neg(mf_frame_b_normal(frame, from)));
        uint32_t end = walk(frame, j, face_vertex[from], &found);
        // The walk must end in the region of the arc's far end; a region already placed needs no
        // check.
        mf_vec3 far = mf_neg(mf_frame_b_normal(frame, to));
        if (end == NO_VERTEX || (end != face_vertex[to] && !supports(a, end, far))) {
            try_every_edge(frame, j, &found);
            end = climb(a, face_vertex[from], far);
        }
        if (face_vertex[to] == NO_VERTEX) face_vertex[to] = end;
        last = end;
    }
    measure(&found);
    return found.best;
}
