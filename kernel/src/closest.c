// Closest points of two separated hulls, for the speculative pairs whose clip finds nothing within
// the margin although the hulls may come closer than that beside the reference face. The closest
// pair of points of two convex polyhedra joins a vertex to a face or an edge to an edge (vertex
// against edge or vertex is an edge pair clamped at an end), so trying those pairs finds it. Only
// features near the gap can hold it: points of a more than the margin below b's lowest point
// along a separating axis, or of b that far above a's highest, are farther apart than the margin.
#include "closest.h"
#include "tolerances.h"

#include "clip.h"

typedef struct search {
    const mf_pair_frame *frame;
    float low_a, high_b; // a's points below low_a and b's above high_b cannot be the closest
    mf_closest best;
} search;

static mf_vec3 vertex_of(const mf_pair_frame *frame, int of_b, uint32_t v)
{
    return of_b ? mf_frame_b_vertex(frame, v) : mf_view_vertex(frame->a, v);
}

static void keep(search *s, mf_vec3 on_a, mf_vec3 on_b, uint16_t feature_a, uint16_t feature_b)
{
    float distance = mf_length(mf_sub(on_b, on_a));
    if (distance < s->best.distance) s->best = (mf_closest){distance, on_a, on_b, feature_a, feature_b};
}

// Each vertex of one hull near the gap against each face of the other that reaches it: the
// vertex's foot on the face's plane, where that lies inside the face.
static void vertices_on_faces(search *s, mf_vec3 axis, int vertices_of_b)
{
    const mf_pair_frame *frame = s->frame;
    const mf_hull_view *points = vertices_of_b ? frame->b : frame->a, *faces = vertices_of_b ? frame->a : frame->b;
    for (uint32_t f = 0; f < faces->face_count; ++f) {
        const uint16_t *loop = faces->loop_vertex + faces->face_loop_first[f];
        uint32_t n = faces->face_loop_count[f];
        int near = 0;
        for (uint32_t k = 0; k < n && !near; ++k) {
            float h = mf_dot(axis, vertex_of(frame, !vertices_of_b, loop[k]));
            near = vertices_of_b ? h >= s->low_a : h <= s->high_b;
        }
        if (!near) continue;
        mf_vec3 normal = mf_view_normal(faces, f);
        if (!vertices_of_b) normal = mf_mat3_mul(&frame->rotation, normal);
        mf_vec3 origin = vertex_of(frame, !vertices_of_b, loop[0]);
        for (uint32_t v = 0; v < points->vertex_count; ++v) {
            mf_vec3 p = vertex_of(frame, vertices_of_b, v);
            float h = mf_dot(axis, p);
            if (vertices_of_b ? h > s->high_b : h < s->low_a) continue;
            float height = mf_dot(normal, mf_sub(p, origin));
            if (!(height >= 0.0f) || height >= s->best.distance) continue;
            mf_vec3 foot = mf_mul_add(p, -height, normal);
            int inside = 1;
            for (uint32_t k = 0; k < n && inside; ++k) {
                mf_vec3 from = vertex_of(frame, !vertices_of_b, loop[k]);
                mf_vec3 to = vertex_of(frame, !vertices_of_b, loop[(k + 1) % n]);
                inside = mf_dot(mf_cross(mf_sub(to, from), mf_sub(foot, from)), normal) >= 0.0f;
            }
            if (!inside) continue;
            uint16_t vertex = MF_FEATURE(MF_FEATURE_VERTEX, v), face = MF_FEATURE(MF_FEATURE_FACE, f);
            if (vertices_of_b) keep(s, foot, p, face, vertex);
            else keep(s, p, foot, vertex, face);
        }
    }
}

// The feature a point at parameter t on an edge lies on: an end vertex or the edge.
static uint16_t edge_feature(const mf_hull_view *hull, uint32_t e, float t)
{
    if (t <= 0.0f) return MF_FEATURE(MF_FEATURE_VERTEX, hull->edge_vertex0[e]);
    if (t >= 1.0f) return MF_FEATURE(MF_FEATURE_VERTEX, hull->edge_vertex1[e]);
    return MF_FEATURE(MF_FEATURE_EDGE, e);
}

// Every edge pair near the gap: the closest points of the two segments (Ericson, Real-Time
// Collision Detection 5.1.9: the lines' closest points, clamped, then each end recomputed).
static void edges_on_edges(search *s, mf_vec3 axis)
{
    const mf_pair_frame *frame = s->frame;
    const mf_hull_view *a = frame->a, *b = frame->b;
    for (uint32_t i = 0; i < a->edge_count; ++i) {
        mf_vec3 p1 = mf_view_vertex(a, a->edge_vertex0[i]), q1 = mf_view_vertex(a, a->edge_vertex1[i]);
        if (mf_dot(axis, p1) < s->low_a && mf_dot(axis, q1) < s->low_a) continue;
        mf_vec3 d1 = mf_sub(q1, p1);
        for (uint32_t j = 0; j < b->edge_count; ++j) {
            mf_vec3 p2 = mf_frame_b_vertex(frame, b->edge_vertex0[j]),
                    q2 = mf_frame_b_vertex(frame, b->edge_vertex1[j]);
            if (mf_dot(axis, p2) > s->high_b && mf_dot(axis, q2) > s->high_b) continue;
            mf_vec3 d2 = mf_sub(q2, p2), r = mf_sub(p1, p2);
            float aa = mf_dot(d1, d1), ee = mf_dot(d2, d2), bb = mf_dot(d1, d2), cc = mf_dot(d1, r), ff = mf_dot(d2, r);
            float denominator = aa * ee - bb * bb;
            float t1 = denominator > MF_PARALLEL_SEGMENTS * aa * ee
                           ? mf_minf(mf_maxf((bb * ff - cc * ee) / denominator, 0.0f), 1.0f)
                           : 0.0f;
            float t2 = mf_segment_parameter(p2, d2, mf_mul_add(p1, t1, d1));
            t1 = mf_segment_parameter(p1, d1, mf_mul_add(p2, t2, d2));
            keep(s, mf_mul_add(p1, t1, d1), mf_mul_add(p2, t2, d2), edge_feature(a, i, t1), edge_feature(b, j, t2));
        }
    }
}

int mf_closest_points(const mf_pair_frame *frame, mf_vec3 axis, float margin, mf_closest *closest)
{
    float high_a = mf_highest_of_a(frame, axis), low_b = mf_lowest_of_b(frame, axis);
    search s = {frame, low_b - margin, high_a + margin, {margin, {0, 0, 0}, {0, 0, 0}, 0, 0}};
    vertices_on_faces(&s, axis, 0);
    vertices_on_faces(&s, axis, 1);
    edges_on_edges(&s, axis);
    *closest = s.best;
    return s.best.distance < margin;
}
