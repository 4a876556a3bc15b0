// The edge query by walking the Gauss map (Overturf, "Improvements to the Separating Axis Test",
// after Gregorius, GDC 2013). On the unit sphere each vertex of a owns a region, the directions
// it supports, bounded by the arcs of its edges; b's edge j is the arc from -normal of its face0
// to -normal of its face1 (b's normals turned round: a - b). The edges of a whose arcs it crosses
// are exactly those that build a Minkowski face with j. So instead of testing j against every edge
// of a, start in the region that holds one end of the arc and step across the one edge whose
// Minkowski test passes, until none does: the walk tests only the sides of the regions it passes
// through (a vertex's few edges) and measures only the crossings.
//
// Each step runs the Minkowski test of mf_query_edges on the same floats, so every pair the walk
// measures is one the all-pairs search measures, with the same value, and ties go the same way.
// Float noise can still lead a walk astray where an arc passes (nearly) through a corner of a
// region; a walk that finds two ways out of a region, or stops where the far end of the arc is
// not, is dropped and that edge of b is tried against every edge of a instead.
#include "sat.h"

#include <stddef.h>

#define NO_VERTEX UINT32_MAX
#define NO_EDGE UINT32_MAX

static inline float height(const mf_hull_view *a, uint32_t v, mf_vec3 direction)
{
    return mf_dot(direction, mf_view_vertex(a, v));
}

// Whether no neighbour of `v` reaches further along `direction`: on a convex hull, `v` then
// supports it (ties aside).
static int supports(const mf_hull_view *a, uint32_t v, mf_vec3 direction)
{
    float h = height(a, v, direction);
    const mf_fan_edge *fan = a->fan + a->vertex_fan_first[v];
    for (uint32_t k = 0; k < a->vertex_fan_count[v]; ++k)
        if (height(a, fan[k].other, direction) > h) return 0;
    return 1;
}

// Climbs from `v` to a vertex that supports `direction`; every step strictly gains height.
static uint32_t climb(const mf_hull_view *a, uint32_t v, mf_vec3 direction)
{
    float h = height(a, v, direction);
    for (;;) {
        uint32_t next = v;
        const mf_fan_edge *fan = a->fan + a->vertex_fan_first[v];
        for (uint32_t k = 0; k < a->vertex_fan_count[v]; ++k) {
            float neighbour = height(a, fan[k].other, direction);
            if (neighbour > h) {
                h = neighbour;
                next = fan[k].other;
            }
        }
        if (next == v) return v;
        v = next;
    }
}

static void keep(const mf_pair_frame *frame, uint32_t i, uint32_t j, float a0, mf_edge_query *best)
{
    mf_vec3 axis;
    float separation;
    if (mf_edge_pair_measure(frame, i, j, frame->b_directions[j], a0, &axis, &separation) &&
        mf_edge_pair_beats(best, separation, i, j))
        *best = (mf_edge_query){separation, i, j, axis};
}

// The edges of a fan (at most 64) whose arcs straddle the great circle of b's edge, as bits: the
// first half of the Minkowski test (mf_edge_pair_crosses), without a branch per edge.
static uint64_t straddling(const mf_fan_edge *fan, uint32_t count, mf_vec3 direction)
{
    uint64_t bits = 0;
    for (uint32_t k = 0; k < count; ++k) {
        float a0 = mf_dot(direction, fan[k].normal0), a1 = mf_dot(direction, fan[k].normal1);
        bits |= (uint64_t)(a0 * a1 < 0.0f) << k;
    }
    return bits;
}

// Walks b's edge j from the region of a's vertex `v`. Returns the vertex whose region the walk
// ends in, or NO_VERTEX where it found two ways out of a region.
static uint32_t walk(const mf_pair_frame *frame, uint32_t j, uint32_t v, mf_edge_query *best)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    mf_vec3 normal0 = frame->b_normals[b->edge_face0[j]], normal1 = frame->b_normals[b->edge_face1[j]];
    mf_vec3 direction = frame->b_directions[j];
    uint32_t entry = NO_EDGE;
    // An arc shorter than half a great circle crosses each of a's edges at most once.
    for (uint32_t step = 0; step <= a->edge_count; ++step) {
        const mf_fan_edge *fan = a->fan + a->vertex_fan_first[v], *exit = NULL;
        float exit_a0 = 0.0f;
        for (uint32_t done = 0; done < a->vertex_fan_count[v]; done += 64, fan += 64) {
            uint32_t count = a->vertex_fan_count[v] - done < 64 ? a->vertex_fan_count[v] - done : 64;
            for (uint64_t bits = straddling(fan, count, direction); bits != 0; bits &= bits - 1) {
                const mf_fan_edge *e = &fan[__builtin_ctzll(bits)];
                float a0 = mf_dot(direction, e->normal0);
                mf_minkowski_test t = {a0, mf_dot(direction, e->normal1), mf_dot(e->direction, normal0),
                                       mf_dot(e->direction, normal1)};
                if (e->edge == entry || !mf_minkowski_face(t)) continue;
                if (exit != NULL) return NO_VERTEX;
                exit = e;
                exit_a0 = a0;
            }
        }
        if (exit == NULL) return v;
        keep(frame, exit->edge, j, exit_a0, best);
        entry = exit->edge;
        v = exit->other;
    }
    return NO_VERTEX;
}

// Edge j of b against every edge of a, as mf_query_edges does.
static void try_every_edge(const mf_pair_frame *frame, uint32_t j, mf_edge_query *best)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    mf_vec3 normal0 = frame->b_normals[b->edge_face0[j]], normal1 = frame->b_normals[b->edge_face1[j]];
    for (uint32_t i = 0; i < a->edge_count; ++i) {
        float a0;
        if (mf_edge_pair_crosses(a, i, normal0, normal1, frame->b_directions[j], &a0)) keep(frame, i, j, a0, best);
    }
}

mf_edge_query mf_query_edges_walk(const mf_pair_frame *frame, uint32_t *face_vertex)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    mf_edge_query best = {-INFINITY, 0, 0, {0, 0, 0}};
    for (uint32_t f = 0; f < b->face_count; ++f) face_vertex[f] = NO_VERTEX;
    // b's edges come sorted by their lower vertex, so the next arc starts near where the last one
    // ended: the climb to its first region is short, and each face's region is found once.
    uint32_t last = 0;
    for (uint32_t j = 0; j < b->edge_count; ++j) {
        // A walk finds the same crossings in either direction: start at the end already placed.
        uint32_t from = b->edge_face0[j], to = b->edge_face1[j];
        if (face_vertex[from] == NO_VERTEX && face_vertex[to] != NO_VERTEX) {
            from = to;
            to = b->edge_face0[j];
        }
        // Both ends in one region: a region is convex, so the arc stays inside and crosses nothing.
        if (face_vertex[from] != NO_VERTEX && face_vertex[from] == face_vertex[to]) continue;
        if (face_vertex[from] == NO_VERTEX) face_vertex[from] = climb(a, last, mf_neg(frame->b_normals[from]));
        uint32_t end = walk(frame, j, face_vertex[from], &best);
        // The walk must end in the region of the arc's far end; a region already placed needs no
        // check.
        mf_vec3 far = mf_neg(frame->b_normals[to]);
        if (end == NO_VERTEX || (end != face_vertex[to] && !supports(a, end, far))) {
            try_every_edge(frame, j, &best);
            end = climb(a, face_vertex[from], far);
        }
        if (face_vertex[to] == NO_VERTEX) face_vertex[to] = end;
        last = end;
    }
    return best;
}
