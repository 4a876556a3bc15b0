// Separating-axis test between convex polyhedra (Gregorius, "The Separating Axis Test between
// Convex Polyhedra", GDC 2013): face queries, Gauss-map edge query, biased axis choice.
#include "sat.h"

mf_face_query mf_query_faces(const mf_hull_view *hull, const mf_vec3 *other_vertices, uint32_t other_count,
                             float margin)
{
    mf_face_query best = {-INFINITY, 0};
    for (uint32_t f = 0; f < hull->face_count; ++f) {
        mf_vec3 normal = mf_view_normal(hull, f);
        float support = INFINITY;
        for (uint32_t i = 0; i < other_count; ++i) support = mf_minf(support, mf_dot(normal, other_vertices[i]));
        float separation = support - hull->offset[f];
        if (separation > best.separation) best = (mf_face_query){separation, f};
        if (separation > margin) break;
    }
    return best;
}

// Edge pair (i, j) as a Gauss-map candidate: the axis, oriented from a to b, and the distance of
// the edges' lines along it. 0 if the edges build no Minkowski face or are nearly parallel.
static inline int edge_pair_axis(const mf_pair_frame *frame, uint32_t i, uint32_t j, mf_vec3 b_normal0,
                                 mf_vec3 b_normal1, mf_vec3 b_direction, mf_vec3 *axis, float *separation)
{
    float a0;
    return mf_edge_pair_crosses(frame->a, i, b_normal0, b_normal1, b_direction, &a0) &&
           mf_edge_pair_measure(frame, i, j, b_direction, a0, axis, separation);
}

mf_edge_query mf_query_edges(const mf_pair_frame *frame)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    mf_edge_query best = {-INFINITY, 0, 0, {0, 0, 0}};
    for (uint32_t i = 0; i < a->edge_count; ++i) {
        for (uint32_t j = 0; j < b->edge_count; ++j) {
            mf_vec3 axis;
            float separation;
            if (edge_pair_axis(frame, i, j, frame->b_normals[b->edge_face0[j]], frame->b_normals[b->edge_face1[j]],
                               frame->b_directions[j], &axis, &separation) &&
                separation > best.separation)
                best = (mf_edge_query){separation, i, j, axis};
        }
    }
    return best;
}

// The edge query again, for a pair where the Gauss-map test was fooled: a pair about to become the
// best is measured by projecting both hulls. The wide pass's frames carry neither b's normals nor
// its edge directions in a's frame, so they are rotated here.
static mf_edge_query query_edges_measured(const mf_pair_frame *frame)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    const mf_mat3 *r = &frame->rotation;
    mf_edge_query best = {-INFINITY, 0, 0, {0, 0, 0}};
    for (uint32_t i = 0; i < a->edge_count; ++i) {
        for (uint32_t j = 0; j < b->edge_count; ++j) {
            mf_vec3 axis;
            float separation;
            if (!edge_pair_axis(frame, i, j, mf_mat3_mul(r, mf_view_normal(b, b->edge_face0[j])),
                                mf_mat3_mul(r, mf_view_normal(b, b->edge_face1[j])),
                                mf_mat3_mul(r, (mf_vec3){b->edge_x[j], b->edge_y[j], b->edge_z[j]}), &axis,
                                &separation) ||
                !(separation > best.separation))
                continue;
            separation = mf_minf(separation, mf_projected_gap(frame, axis));
            if (separation > best.separation) best = (mf_edge_query){separation, i, j, axis};
        }
    }
    return best;
}

mf_edge_query mf_query_edge_directions(const mf_pair_frame *frame)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    mf_edge_query best = {-INFINITY, 0, 0, {0, 0, 0}};
    for (uint32_t k = 0; k < 3; ++k) {
        mf_vec3 a_direction = a->shape->directions[k];
        for (uint32_t m = 0; m < 3; ++m) {
            mf_vec3 b_direction = mf_mat3_mul(&frame->rotation, b->shape->directions[m]);
            mf_vec3 axis = mf_cross(a_direction, b_direction);
            float length = mf_length(axis);
            if (length < MF_PARALLEL_SINE) continue;
            axis = mf_scale(axis, 1.0f / length);
            float a_max = -INFINITY, a_min = INFINITY, b_max = -INFINITY, b_min = INFINITY;
            for (uint32_t v = 0; v < a->vertex_count; ++v) {
                float d = mf_dot(axis, mf_view_vertex(a, v));
                a_max = mf_maxf(a_max, d);
                a_min = mf_minf(a_min, d);
            }
            for (uint32_t v = 0; v < b->vertex_count; ++v) {
                float d = mf_dot(axis, frame->b_vertices[v]);
                b_max = mf_maxf(b_max, d);
                b_min = mf_minf(b_min, d);
            }
            // The gap along the axis or against it, whichever is larger, oriented from a to b.
            float forward = b_min - a_max, backward = a_min - b_max;
            float separation = backward > forward ? backward : forward;
            if (backward > forward) axis = mf_neg(axis);
            if (separation > best.separation) best = (mf_edge_query){separation, k, m, axis};
        }
    }
    return best;
}

void mf_resolve_direction_edges(const mf_pair_frame *frame, mf_axis *axis)
{
    const mf_shape *a = frame->a->shape, *b = frame->b->shape;
    uint32_t k = axis->feature_a, m = axis->feature_b;
    float a_best = -INFINITY, b_best = INFINITY;
    for (uint32_t i = 0; i < 4; ++i) {
        uint32_t e = a->direction_edges[k][i];
        float d = mf_dot(axis->normal, mf_view_vertex(frame->a, frame->a->edge_vertex0[e]));
        if (d > a_best) {
            a_best = d;
            axis->feature_a = e;
        }
    }
    for (uint32_t i = 0; i < 4; ++i) {
        uint32_t e = b->direction_edges[m][i];
        float d = mf_dot(axis->normal, frame->b_vertices[frame->b->edge_vertex0[e]]);
        if (d < b_best) {
            b_best = d;
            axis->feature_b = e;
        }
    }
}

float mf_rank_allowance(const mf_axis_candidates *c, float linear_slop)
{
    // Each axis is measured against the best one, so whichever is used is never worse than the
    // best by more than one linear_slop. The float-noise part keeps ties (an edge axis that is
    // also a face normal) even when the slop is zero.
    return mf_allowance(linear_slop, c->scale, mf_best_separation(c));
}

uint32_t mf_rank_axes(const mf_axis_candidates *c, float linear_slop, mf_axis ranked[3])
{
    float best = mf_best_separation(c), allowance = mf_rank_allowance(c, linear_slop);
    uint32_t count = 0;
    if (c->face_a.separation + allowance >= best)
        ranked[count++] = (mf_axis){MF_AXIS_FACE_A, c->face_a.separation, c->face_a.face, 0, {0, 0, 0}};
    if (c->face_b.separation + allowance >= best)
        ranked[count++] = (mf_axis){MF_AXIS_FACE_B, c->face_b.separation, 0, c->face_b.face, {0, 0, 0}};
    if (c->edge.separation + allowance >= best)
        ranked[count++] = (mf_axis){MF_AXIS_EDGES, c->edge.separation, c->edge.edge_a, c->edge.edge_b, c->edge.normal};
    return count;
}

float mf_projected_gap(const mf_pair_frame *frame, mf_vec3 normal)
{
    float a_max = -INFINITY, b_min = INFINITY;
    for (uint32_t v = 0; v < frame->a->vertex_count; ++v)
        a_max = mf_maxf(a_max, mf_dot(normal, mf_view_vertex(frame->a, v)));
    for (uint32_t v = 0; v < frame->b->vertex_count; ++v) b_min = mf_minf(b_min, mf_dot(normal, frame->b_vertices[v]));
    return b_min - a_max;
}

void mf_measure_edge_axis(const mf_pair_frame *frame, mf_axis_candidates *c)
{
    if (c->projection || !(c->edge.separation > mf_maxf(c->face_a.separation, c->face_b.separation))) return;
    float gap = mf_projected_gap(frame, c->edge.normal);
    // Float noise aside, the gap equals the distance between the edges' lines. Where it does not,
    // the Gauss-map test was fooled and the true best pair may be any other: search again,
    // measuring every contender (rare: nearly degenerate arcs of slivers and thin hulls).
    if (gap < c->edge.separation - 1e-5f * (c->scale + fabsf(c->edge.separation)))
        c->edge = query_edges_measured(frame);
    else if (gap < c->edge.separation) c->edge.separation = gap;
}

int mf_query_pair(const mf_pair_frame *frame, float margin, mf_edge_walk_fn *walk, uint32_t *face_vertex,
                  mf_axis_candidates *c)
{
    *c = (mf_axis_candidates){.face_a = {-INFINITY, 0}, .face_b = {-INFINITY, 0}, .edge = {-INFINITY, 0, 0, {0, 0, 0}}};
    c->scale = frame->a->shape->radius + frame->b->shape->radius;
    c->face_a = mf_query_faces(frame->a, frame->b_vertices, frame->b->vertex_count, margin);
    if (c->face_a.separation >= margin) return 0;
    c->face_b = mf_query_faces(frame->b, frame->a_vertices, frame->a->vertex_count, margin);
    if (c->face_b.separation >= margin) return 0;
    c->projection = mf_uses_projection(frame->a, frame->b);
    if (c->projection) c->edge = mf_query_edge_directions(frame);
    else if (mf_edge_query_walks(frame->a, frame->b)) c->edge = walk(frame, face_vertex);
    else c->edge = mf_query_edges(frame);
    mf_measure_edge_axis(frame, c);
    return mf_is_touching(c, margin);
}
