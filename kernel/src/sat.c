// Separating-axis test between convex polyhedra (Gregorius, "The Separating Axis Test between
// Convex Polyhedra", GDC 2013): face queries, Gauss-map edge query, biased axis choice.
#include "sat.h"
#include "tolerances.h"

#include "box_hull_pair.h"
#include "edge_cull.h"
#include "rows.h"

#include <stddef.h>

mf_face_other mf_face_other_of(const mf_pair_frame *frame, int on_b)
{
    const mf_shape *hull = on_b ? frame->b->shape : frame->a->shape, *shape = on_b ? frame->a->shape : frame->b->shape;
    mf_vec3 centroid = on_b ? mf_mat3_mul_transposed(&frame->rotation, mf_sub(shape->centroid, frame->translation))
                            : mf_add(mf_mat3_mul(&frame->rotation, shape->centroid), frame->translation);
    float hair = mf_face_hair(hull, shape, centroid);
    // Returned as one literal, stored field by field where the caller keeps it: built aside and
    // then changed, it was copied out in wider loads than its stores, which waited for them.
    return (mf_face_other){.vertices = on_b ? frame->a_vertices : frame->b_vertices,
                           .count = shape->vertex_count,
                           .centroid = centroid,
                           .reach = shape->outer_radius - shape->inner_radius + hair, // mf_face_reach
                           .inner = shape->inner_radius - hair,
                           .rows = on_b ? frame->a_vertex_rows : frame->b_vertex_rows,
                           .support_map = on_b ? frame->a->support_map : frame->b->support_map,
                           .frame = frame,
                           .on_b = on_b};
}

mf_face_map mf_face_map_of(const mf_face_other *other)
{
    const mf_pair_frame *frame = other->frame;
    const mf_shape *shape = other->on_b ? frame->a->shape : frame->b->shape;
    // a's points move into b's frame as R^T (x - t) = R^T x - R^T t, b's into a's as R x + t.
    mf_face_map map = {.to_map = other->on_b ? frame->rotation : mf_mat3_transpose(&frame->rotation),
                       .shift = other->on_b ? mf_neg(mf_mat3_mul_transposed(&frame->rotation, frame->translation))
                                            : frame->translation};
    // A few roundings of products the size of the moved point's distance from the origin, at most
    // the shift's length and the other's radius, each 2^-24 of it; this is ten times more.
    map.slack = MF_LENGTH_NOISE * (mf_length(map.shift) + shape->radius);
    return map;
}

mf_face_query mf_query_faces(const mf_hull_view *hull, const mf_face_other *other, float margin)
{
    float highest = -INFINITY;
    for (uint32_t f = 0; f < hull->face_count; ++f)
        highest = mf_maxf(highest, mf_face_height(hull, f, other->centroid));
    float lowest = highest - other->reach;
    mf_face_query best = {-INFINITY, 0};
    for (uint32_t f = 0; f < hull->face_count; ++f) {
        if (!(mf_face_height(hull, f, other->centroid) >= lowest)) continue;
        mf_vec3 normal = mf_view_normal(hull, f);
        float support = INFINITY;
        for (uint32_t i = 0; i < other->count; ++i) support = mf_minf(support, mf_dot(normal, other->vertices[i]));
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
    uint32_t a_count = frame->a_edges != NULL ? frame->a_edge_count : a->edge_count;
    uint32_t b_count = frame->b_edges != NULL ? frame->b_edge_count : b->edge_count;
    for (uint32_t n = 0; n < a_count; ++n) {
        uint32_t i = frame->a_edges != NULL ? frame->a_edges[n] : n;
        for (uint32_t k = 0; k < b_count; ++k) {
            uint32_t j = frame->b_edges != NULL ? frame->b_edges[k] : k;
            mf_vec3 axis;
            float separation;
            if (edge_pair_axis(frame, i, j, mf_frame_b_normal(frame, b->edge_face0[j]),
                               mf_frame_b_normal(frame, b->edge_face1[j]), mf_frame_b_direction(frame, j), &axis,
                               &separation) &&
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
                float d = mf_dot(axis, mf_frame_b_vertex(frame, v));
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
        float d = mf_dot(axis->normal, mf_frame_b_vertex(frame, frame->b->edge_vertex0[e]));
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

uint32_t mf_deepest_vertex(const mf_pair_frame *frame, int incident_is_a, mf_vec3 normal)
{
    // a's own vertices are rows, and b's moved ones where the frame keeps them so: in lanes.
    const mf_hull_view *hull = incident_is_a ? frame->a : frame->b;
    if (incident_is_a)
        return frame->extent->deepest(hull->vertex_x, hull->vertex_y, hull->vertex_z, hull->vertex_count, normal);
    if (frame->b_vertex_rows != NULL) {
        const float *x = frame->b_vertex_rows, *y = x + MF_VERTEX_ROWS_STRIDE, *z = y + MF_VERTEX_ROWS_STRIDE;
        return frame->extent->deepest(x, y, z, hull->vertex_count, normal);
    }
    return mf_deepest_along(frame->b_vertices, hull->vertex_count, normal);
}

float mf_lowest_of_b(const mf_pair_frame *frame, mf_vec3 normal)
{
    // The least of the same products in any order: from rows in lanes where the frame keeps them,
    // as mf_deepest_vertex.
    if (frame->b_vertex_rows != NULL) {
        const float *x = frame->b_vertex_rows, *y = x + MF_VERTEX_ROWS_STRIDE, *z = y + MF_VERTEX_ROWS_STRIDE;
        return frame->extent->lowest(x, y, z, frame->b->vertex_count, normal);
    }
    return mf_lowest_along(frame->b_vertices, frame->b->vertex_count, normal);
}

float mf_highest_of_a(const mf_pair_frame *frame, mf_vec3 normal)
{
    // Minus its lowest against the normal: negating a product or a sum is exact. Rows in lanes, as
    // mf_deepest_vertex.
    const mf_hull_view *a = frame->a;
    return -frame->extent->lowest(a->vertex_x, a->vertex_y, a->vertex_z, a->vertex_count, mf_neg(normal));
}

float mf_projected_gap(const mf_pair_frame *frame, mf_vec3 normal)
{
    return mf_lowest_of_b(frame, normal) - mf_highest_of_a(frame, normal);
}

float mf_face_separation(const mf_pair_frame *frame, const mf_axis *axis)
{
    int of_a = axis->kind == MF_AXIS_FACE_A;
    const mf_hull_view *hull = of_a ? frame->a : frame->b, *other = of_a ? frame->b : frame->a;
    uint32_t face = of_a ? axis->feature_a : axis->feature_b;
    mf_vec3 normal = mf_view_normal(hull, face);
    float offset = hull->offset[face];
    if (!of_a) {
        normal = mf_mat3_mul(&frame->rotation, normal);
        offset += mf_dot(normal, frame->translation);
    }
    // The least of the same products in any order, in lanes from rows (as mf_projected_gap).
    float support =
        of_a ? mf_lowest_of_b(frame, normal)
             : frame->extent->lowest(other->vertex_x, other->vertex_y, other->vertex_z, other->vertex_count, normal);
    return support - offset;
}

int mf_measure_axis(const mf_pair_frame *frame, int projection, mf_axis *axis)
{
    if (axis->kind != MF_AXIS_EDGES) {
        axis->separation = mf_face_separation(frame, axis);
        return 1;
    }
    const mf_hull_view *a = frame->a, *b = frame->b;
    mf_vec3 a_direction, b_direction, a_point = {0, 0, 0};
    if (projection) {
        a_direction = a->shape->directions[axis->feature_a];
        b_direction = b->shape->directions[axis->feature_b];
    } else {
        uint32_t i = axis->feature_a, j = axis->feature_b;
        a_direction = (mf_vec3){a->edge_x[i], a->edge_y[i], a->edge_z[i]};
        b_direction = (mf_vec3){b->edge_x[j], b->edge_y[j], b->edge_z[j]};
        a_point = mf_view_vertex(a, a->edge_vertex0[i]);
    }
    mf_vec3 normal = mf_cross(a_direction, mf_mat3_mul(&frame->rotation, b_direction));
    float length = mf_length(normal);
    if (length < MF_PARALLEL_SINE) return 0;
    normal = mf_scale(normal, 1.0f / length);
    if (projection) {
        // As in the projection query: the orientation that separates more.
        if (mf_projected_gap(frame, mf_neg(normal)) > mf_projected_gap(frame, normal)) normal = mf_neg(normal);
    } else if (mf_dot(normal, mf_sub(a_point, a->centroid)) < 0.0f) {
        normal = mf_neg(normal);
    }
    axis->normal = normal;
    axis->separation = mf_projected_gap(frame, normal);
    return 1;
}

mf_axis mf_separating_axis(const mf_axis_candidates *c)
{
    float best = mf_best_separation(c);
    if (c->face_b.separation >= best)
        return (mf_axis){MF_AXIS_FACE_B, c->face_b.separation, 0, c->face_b.face, {0, 0, 0}};
    if (c->edge.separation >= best && c->face_a.separation < best)
        return (mf_axis){MF_AXIS_EDGES, c->edge.separation, c->edge.edge_a, c->edge.edge_b, c->edge.normal};
    return (mf_axis){MF_AXIS_FACE_A, c->face_a.separation, c->face_a.face, 0, {0, 0, 0}};
}

void mf_measure_edge_axis(const mf_pair_frame *frame, mf_axis_candidates *c)
{
    if (c->projection || !(c->edge.separation > mf_maxf(c->face_a.separation, c->face_b.separation))) return;
    float gap = mf_projected_gap(frame, c->edge.normal);
    // Float noise aside, the gap equals the distance between the edges' lines. Where it does not,
    // the Gauss-map test was fooled and the true best pair may be any other: search again,
    // measuring every contender (rare: nearly degenerate arcs of slivers and thin hulls).
    if (gap < c->edge.separation - mf_edge_axis_noise(c->scale, c->edge.separation))
        c->edge = query_edges_measured(frame);
    else if (gap < c->edge.separation) c->edge.separation = gap;
}

void mf_query_edges_of_pair(mf_pair_frame *frame, float linear_slop, const mf_edge_kernel *kernel,
                            const mf_query_scratch *scratch, mf_axis_candidates *c)
{
    // The query tries only the edges that could rank (edge_cull.c).
    mf_cull_edges(frame, c, linear_slop, kernel, scratch);
    int walks = mf_edge_query_walks(frame);
    int lanes = !walks && kernel->lanes != NULL && frame->b_edge_count <= MF_WIDE_MAX_EDGES;
    // The query in lanes moves b's kept edges itself, from their records.
    if (!lanes) mf_rotate_b_edges(frame, scratch->b_normal_rows, scratch->b_direction_rows);
    frame->b_packed = scratch->b_packed;
    if (lanes) kernel->lanes(frame, &c->edge);
    else c->edge = walks ? kernel->walk(frame, scratch->face_vertex) : mf_query_edges(frame);
    mf_measure_edge_axis(frame, c);
}

int mf_query_pair(mf_pair_frame *frame, const mf_config *config, mf_face_search_fn *faces, const mf_edge_kernel *edges,
                  const mf_box_hull_kernel *box_hull, const mf_query_scratch *scratch, mf_axis_candidates *c)
{
    float margin = config->margin;
    *c = (mf_axis_candidates){.face_a = {-INFINITY, 0}, .face_b = {-INFINITY, 0}, .edge = {-INFINITY, 0, 0, {0, 0, 0}}};
    c->scale = frame->a->shape->radius + frame->b->shape->radius;
    c->projection = mf_uses_projection(frame->a, frame->b);
    if (mf_is_box_hull_pair(frame->a->shape, frame->b->shape)) return mf_query_box_hull(frame, margin, box_hull, c);
    mf_face_other other = mf_face_other_of(frame, 0);
    c->face_a = faces(frame->a, &other, margin);
    if (c->face_a.separation >= margin) return 0;
    other = mf_face_other_of(frame, 1);
    c->face_b = faces(frame->b, &other, margin);
    if (c->face_b.separation >= margin) return 0;
    if (c->projection) c->edge = mf_query_edge_directions(frame);
    else mf_query_edges_of_pair(frame, config->linear_slop, edges, scratch, c);
    return mf_is_touching(c, margin);
}
