// Separating-axis test between convex polyhedra (Gregorius, "The Separating Axis Test between
// Convex Polyhedra", GDC 2013): face queries, Gauss-map edge query, biased axis choice.
#include "sat.h"

#include "box_hull.h"
#include "lanes4.h"
#include "rows.h"

#include <stddef.h>

mf_face_other mf_face_other_of(const mf_pair_frame *frame, int on_b)
{
    const mf_shape *hull = on_b ? frame->b->shape : frame->a->shape, *shape = on_b ? frame->a->shape : frame->b->shape;
    mf_face_other other = {.count = shape->vertex_count, .frame = frame, .on_b = on_b};
    if (on_b) {
        other.vertices = frame->a_vertices;
        other.centroid = mf_mat3_mul_transposed(&frame->rotation, mf_sub(shape->centroid, frame->translation));
        other.rows = frame->a_vertex_rows;
        other.support_map = frame->a->support_map;
    } else {
        other.vertices = frame->b_vertices;
        other.centroid = mf_add(mf_mat3_mul(&frame->rotation, shape->centroid), frame->translation);
        other.rows = frame->b_vertex_rows;
        other.support_map = frame->b->support_map;
    }
    float hair = mf_face_hair(hull, shape, other.centroid);
    other.reach = shape->outer_radius - shape->inner_radius + hair; // mf_face_reach
    other.inner = shape->inner_radius - hair;
    return other;
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
    map.slack = 1e-5f * (mf_length(map.shift) + shape->radius);
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

uint32_t mf_deepest_vertex(const mf_pair_frame *frame, int incident_is_a, mf_vec3 normal)
{
    // a's own vertices and large b's moved ones are rows: four at a time.
    const mf_hull_view *hull = incident_is_a ? frame->a : frame->b;
    if (incident_is_a)
        return mf_deepest_along4(hull->vertex_x, hull->vertex_y, hull->vertex_z, hull->vertex_count, normal);
    if (frame->b_vertex_rows != NULL) {
        const float *x = frame->b_vertex_rows, *y = x + MF_VERTEX_ROWS_STRIDE, *z = y + MF_VERTEX_ROWS_STRIDE;
        return mf_deepest_along4(x, y, z, hull->vertex_count, normal);
    }
    uint32_t deepest = 0;
    float deepest_depth = INFINITY;
    for (uint32_t v = 0; v < hull->vertex_count; ++v) {
        float depth = mf_dot(normal, frame->b_vertices[v]);
        if (depth < deepest_depth) {
            deepest_depth = depth;
            deepest = v;
        }
    }
    return deepest;
}

float mf_projected_gap(const mf_pair_frame *frame, mf_vec3 normal)
{
    // a's highest along the normal is minus its lowest against it: negating a product or a sum is
    // exact. Rows four at a time, as mf_deepest_vertex.
    const mf_hull_view *a = frame->a;
    float a_max = -mf_lowest_along4(a->vertex_x, a->vertex_y, a->vertex_z, a->vertex_count, mf_neg(normal));
    float b_min = INFINITY;
    if (frame->b_vertex_rows != NULL) {
        const float *x = frame->b_vertex_rows, *y = x + MF_VERTEX_ROWS_STRIDE, *z = y + MF_VERTEX_ROWS_STRIDE;
        b_min = mf_lowest_along4(x, y, z, frame->b->vertex_count, normal);
    } else {
        for (uint32_t v = 0; v < frame->b->vertex_count; ++v)
            b_min = mf_minf(b_min, mf_dot(normal, frame->b_vertices[v]));
    }
    return b_min - a_max;
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
    float support = INFINITY;
    for (uint32_t v = 0; v < other->vertex_count; ++v)
        support = mf_minf(support, mf_dot(normal, of_a ? frame->b_vertices[v] : mf_view_vertex(frame->a, v)));
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

// How far below the better face axis an edge axis may fall and still rank (mf_rank_axes: the face
// is then the best, and the allowance is measured from it), a hair more for the gaps' float noise.
static float cull_reach(const mf_axis_candidates *candidates, float linear_slop, float faces)
{
    return mf_allowance(linear_slop, candidates->scale, faces) - faces + 1e-5f * candidates->scale;
}

float mf_edge_gaps(const mf_hull_view *hull, mf_vec3 p, float *gap)
{
    for (uint32_t e = 0; e < hull->edge_count; ++e) {
        mf_vec3 between = mf_sub(mf_view_vertex(hull, hull->edge_vertex0[e]), p);
        float gap0 = mf_dot(mf_view_normal(hull, hull->edge_face0[e]), between);
        float gap1 = mf_dot(mf_view_normal(hull, hull->edge_face1[e]), between);
        gap[e] = mf_minf(gap0, gap1);
    }
    for (uint32_t e = hull->edge_count; e < hull->edge_count + MF_EDGE_GAP_PAD; ++e) gap[e] = INFINITY;
    return mf_least(gap, hull->edge_count);
}

uint32_t mf_edges_within(const float *gap, uint32_t count, float reach, uint16_t *kept)
{
    uint32_t kept_count = 0;
    for (uint32_t e = 0; e < count; ++e) { // without a branch: a third or so are kept, unpredictably
        kept[kept_count] = (uint16_t)e;
        kept_count += gap[e] <= reach;
    }
    for (uint32_t k = kept_count; k < kept_count + MF_KEPT_EDGES_PAD; ++k) kept[k] = 0;
    return kept_count;
}

// The cull's points q_a of a (in a's frame) and q_b of b (in b's), and the reach of the arc culls
// (mf_arc_cull) around them.
typedef struct cull_points {
    mf_vec3 a, b;
    float reach;
} cull_points;

// Only the edges near a point q_a of a and a point q_b of b, `apart` from each other, given their
// edges' gaps (in the scratch) and the least of each. Take an edge
// pair's Minkowski face with axis n (a to b): edge i of a supports a along n, edge j of b supports
// b along -n, so its separation is n.(q_b - q_a) - n.(a_i - q_a) - n.(q_b - b_j). The first term
// is at most `apart`. Each other is at least the point's gap to the nearer of the edge's two face
// planes: n lies between their normals, and a positive sinusoid over an arc shorter than pi is
// least at an end. An edge pair that could rank thus has gaps summing to under the reach plus
// `apart`: each edge's under that less the other point's least gap (a hair more for float noise).
static inline void keep_edges_near_points(const mf_pair_frame *frame, const mf_axis_candidates *candidates,
                                          float linear_slop, cull_points *points, float apart, float least_a,
                                          float least_b, const mf_edge_kernel *kernel, const mf_query_scratch *scratch,
                                          mf_pair_frame *culled)
{
    float faces = mf_maxf(candidates->face_a.separation, candidates->face_b.separation);
    float reach = cull_reach(candidates, linear_slop, faces) + apart;
    // The arc culls bound the other hull's gaps anew, with a float noise of their own.
    if (points != NULL) points->reach = reach + 1e-5f * candidates->scale;
    culled->a_edges = scratch->a_edges;
    culled->a_edge_count = kernel->within(scratch->a_edge_gap, frame->a->edge_count, reach - least_b, scratch->a_edges);
    culled->b_edges = scratch->b_edges;
    culled->b_edge_count = kernel->within(scratch->b_edge_gap, frame->b->edge_count, reach - least_a, scratch->b_edges);
}

// Deep overlaps: around a guess at the middle of the overlap, on the line through the centroids,
// halfway between the far ends of each hull's rough extent (between its inner and outer radius)
// along it. They keep a tenth of the edge pairs or fewer. Returns 0 where the guess is not inside
// both hulls.
static int cull_around_centroids(const mf_pair_frame *frame, const mf_axis_candidates *candidates, float linear_slop,
                                 const mf_edge_kernel *kernel, const mf_query_scratch *scratch, mf_pair_frame *culled,
                                 cull_points *points)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    mf_vec3 centre_b = mf_add(mf_mat3_mul(&frame->rotation, b->centroid), frame->translation);
    mf_vec3 line = mf_sub(centre_b, a->centroid);
    float length = mf_length(line);
    mf_vec3 along = length > 0.0f ? mf_scale(line, 1.0f / length) : (mf_vec3){0.0f, 0.0f, 0.0f};
    float extent_a = 0.5f * (a->shape->inner_radius + a->shape->radius);
    float extent_b = 0.5f * (b->shape->inner_radius + b->shape->radius);
    mf_vec3 end_a = mf_add(a->centroid, mf_scale(along, extent_a)), end_b = mf_sub(centre_b, mf_scale(along, extent_b));
    mf_vec3 p = mf_scale(mf_add(end_a, end_b), 0.5f);
    float least_a = kernel->gaps(a, p, scratch->a_edge_gap);
    if (!(least_a > 0.0f)) return 0;
    mf_vec3 p_in_b = mf_mat3_mul_transposed(&frame->rotation, mf_sub(p, frame->translation));
    if (points != NULL) *points = (cull_points){.a = p, .b = p_in_b}; // stored before the call: no spill
    float least_b = kernel->gaps(b, p_in_b, scratch->b_edge_gap);
    if (!(least_b > 0.0f)) return 0;
    keep_edges_near_points(frame, candidates, linear_slop, points, 0.0f, least_a, least_b, kernel, scratch, culled);
    return 1;
}

// The point of a face nearest to p (the hull's frame): p's foot on the plane where that lies
// within the loop, else the nearest point of the loop's edges.
static mf_vec3 nearest_on_face(const mf_hull_view *hull, uint32_t face, mf_vec3 p)
{
    mf_vec3 n = mf_view_normal(hull, face);
    mf_vec3 foot = mf_mul_add(p, hull->offset[face] - mf_dot(n, p), n), nearest = foot;
    const uint16_t *loop = hull->loop_vertex + hull->face_loop_first[face];
    uint32_t count = hull->face_loop_count[face];
    float nearest_distance2 = INFINITY;
    int outside = 0;
    for (uint32_t k = 0; k < count; ++k) {
        mf_vec3 from = mf_view_vertex(hull, loop[k]), to = mf_view_vertex(hull, loop[k + 1 < count ? k + 1 : 0]);
        mf_vec3 edge = mf_sub(to, from), offset = mf_sub(foot, from);
        outside |= mf_dot(mf_cross(edge, n), offset) > 0.0f; // the loop runs counter-clockwise about n
        mf_vec3 on_edge = mf_mul_add(from, mf_segment_parameter(from, edge, foot), edge);
        mf_vec3 between = mf_sub(foot, on_edge);
        float distance2 = mf_dot(between, between);
        if (distance2 < nearest_distance2) {
            nearest_distance2 = distance2;
            nearest = on_edge;
        }
    }
    return outside ? nearest : foot;
}

// The partner in the face's hull of v, a vertex of the other hull (given in the face's frame): v
// itself where it lies inside (only where v is below the face: `below`), else the face's point
// nearest to it. Fills in the partner, its gaps and their least; returns how far apart v and its
// partner are.
static float partner_on_face(const mf_hull_view *hull, uint32_t face, mf_vec3 v, int below, mf_edge_gaps_fn *gaps,
                             float *gap, float *least, mf_vec3 *partner)
{
    *partner = v;
    if (below) {
        *least = gaps(hull, v, gap);
        if (*least > 0.0f) return 0.0f;
    }
    *partner = nearest_on_face(hull, face, v);
    *least = gaps(hull, *partner, gap);
    return mf_length(mf_sub(v, *partner));
}

// Shallow overlaps and separated pairs: around the vertex v that supports the better face axis
// from the other side (b's deepest below a's best face, or a's below b's) and its partner.
static void cull_around_support(const mf_pair_frame *frame, const mf_axis_candidates *candidates, float linear_slop,
                                const mf_edge_kernel *kernel, const mf_query_scratch *scratch, mf_pair_frame *culled,
                                cull_points *points)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    float least_a, least_b, apart;
    mf_vec3 point_a, point_b;
    if (candidates->face_a.separation >= candidates->face_b.separation) {
        uint32_t face = candidates->face_a.face, v = mf_deepest_vertex(frame, 0, mf_view_normal(a, face));
        apart = partner_on_face(a, face, frame->b_vertices[v], candidates->face_a.separation < 0.0f, kernel->gaps,
                                scratch->a_edge_gap, &least_a, &point_a);
        point_b = mf_view_vertex(b, v);
        least_b = kernel->gaps(b, point_b, scratch->b_edge_gap);
    } else {
        uint32_t face = candidates->face_b.face;
        uint32_t v = mf_deepest_vertex(frame, 1, mf_mat3_mul(&frame->rotation, mf_view_normal(b, face)));
        mf_vec3 v_in_b = mf_mat3_mul_transposed(&frame->rotation, mf_sub(mf_view_vertex(a, v), frame->translation));
        apart = partner_on_face(b, face, v_in_b, candidates->face_b.separation < 0.0f, kernel->gaps,
                                scratch->b_edge_gap, &least_b, &point_b);
        point_a = mf_view_vertex(a, v);
        least_a = kernel->gaps(a, point_a, scratch->a_edge_gap);
    }
    if (points != NULL) *points = (cull_points){.a = point_a, .b = point_b};
    keep_edges_near_points(frame, candidates, linear_slop, points, apart, least_a, least_b, kernel, scratch, culled);
}

// Rows x, y, z of n vectors rotated by m into rows `stride` apart (as mf_mat3_mul). `restrict`
// lets the compiler vectorise.
static void rotate_rows(const float *restrict x, const float *restrict y, const float *restrict z, uint32_t n,
                        const mf_mat3 *m, float *restrict out_x, float *restrict out_y, float *restrict out_z)
{
    const mf_vec3 r0 = m->row[0], r1 = m->row[1], r2 = m->row[2];
    for (uint32_t v = 0; v < n; ++v) {
        out_x[v] = r0.x * x[v] + r0.y * y[v] + r0.z * z[v];
        out_y[v] = r1.x * x[v] + r1.y * y[v] + r1.z * z[v];
        out_z[v] = r2.x * x[v] + r2.y * y[v] + r2.z * z[v];
    }
}

static inline void put_row(float *rows, uint32_t stride, uint32_t i, mf_vec3 v)
{
    rows[i] = v.x;
    rows[stride + i] = v.y;
    rows[2 * stride + i] = v.z;
}

void mf_rotate_b_edges(const mf_pair_frame *frame, float *normal_rows, float *direction_rows)
{
    const mf_hull_view *b = frame->b;
    const mf_mat3 *r = &frame->rotation;
    // Rotating all rows in lanes costs less than rotating the kept edges (three vectors each) one by
    // one, unless few of many are kept: measured on 16- and 48-point rocks (69 and 190 rows, about
    // 15 edges kept), the lanes win at the first and lose at the second.
    if (frame->b_edges == NULL || b->face_count + b->edge_count <= 8 * frame->b_edge_count) {
        rotate_rows(b->normal_x, b->normal_y, b->normal_z, b->face_count, r, normal_rows,
                    normal_rows + MF_MAX_HULL_FACES, normal_rows + 2 * MF_MAX_HULL_FACES);
        rotate_rows(b->edge_x, b->edge_y, b->edge_z, b->edge_count, r, direction_rows,
                    direction_rows + MF_MAX_HULL_EDGES, direction_rows + 2 * MF_MAX_HULL_EDGES);
        return;
    }
    // Kept edges share faces, but rotating a face twice costs less than remembering which were.
    for (uint32_t k = 0; k < frame->b_edge_count; ++k) {
        uint32_t e = frame->b_edges[k], f0 = b->edge_face0[e], f1 = b->edge_face1[e];
        put_row(normal_rows, MF_MAX_HULL_FACES, f0, mf_mat3_mul(r, mf_view_normal(b, f0)));
        put_row(normal_rows, MF_MAX_HULL_FACES, f1, mf_mat3_mul(r, mf_view_normal(b, f1)));
        put_row(direction_rows, MF_MAX_HULL_EDGES, e,
                mf_mat3_mul(r, (mf_vec3){b->edge_x[e], b->edge_y[e], b->edge_z[e]}));
    }
}

// Against a large hull (a support map) each kept edge of the other is bounded along its arc.
static void cull_arcs(const mf_pair_frame *frame, const cull_points *points, const mf_edge_kernel *kernel,
                      const mf_query_scratch *scratch, mf_pair_frame *culled)
{
    // Few kept pairs cost less to try than to cull (a function of the counts alone, so that every ISA
    // culls alike).
    if (culled->a_edge_count * culled->b_edge_count < MF_ARC_CULL_MIN_PAIRS) return;
    if (frame->a->support_map != NULL) {
        mf_arc_cull cull = {.records = frame->b->edge_records,
                            .gap = scratch->b_edge_gap,
                            .to_other = frame->rotation,
                            .other_map = frame->a->support_map,
                            .other_point = points->a,
                            .reach = points->reach};
        culled->b_edge_count = kernel->arc_cull(&cull, scratch->b_edges, culled->b_edge_count);
    }
    if (frame->b->support_map != NULL) {
        mf_arc_cull cull = {.records = frame->a->edge_records,
                            .gap = scratch->a_edge_gap,
                            .to_other = mf_mat3_transpose(&frame->rotation),
                            .other_map = frame->b->support_map,
                            .other_point = points->b,
                            .reach = points->reach};
        culled->a_edge_count = kernel->arc_cull(&cull, scratch->a_edges, culled->a_edge_count);
    }
}

void mf_query_edges_of_pair(const mf_pair_frame *frame, float linear_slop, const mf_edge_kernel *kernel,
                            const mf_query_scratch *scratch, mf_axis_candidates *c)
{
    // Deep overlaps are culled around a point on the centroids' line inside both hulls where there
    // is one; the rest around the better face axis' support vertex and its partner.
    mf_pair_frame culled = *frame;
    // The arc culls' points, where either hull is large (a support map); the culls fill them.
    cull_points arcs;
    // cppcheck-suppress uninitvar ; only the address is taken here: the culls below fill arcs
    cull_points *points = frame->a->support_map != NULL || frame->b->support_map != NULL ? &arcs : NULL;
    float faces = mf_maxf(c->face_a.separation, c->face_b.separation);
    float deep = -0.1f * mf_minf(frame->a->shape->inner_radius, frame->b->shape->inner_radius);
    if (!(faces < deep && cull_around_centroids(frame, c, linear_slop, kernel, scratch, &culled, points)))
        cull_around_support(frame, c, linear_slop, kernel, scratch, &culled, points);
    if (points != NULL) cull_arcs(frame, points, kernel, scratch, &culled);
    int walks = mf_edge_query_walks(&culled);
    int lanes = !walks && kernel->lanes != NULL && culled.b_edge_count <= MF_WIDE_MAX_EDGES;
    // The query in lanes moves b's kept edges itself, from their records.
    if (!lanes) mf_rotate_b_edges(&culled, scratch->b_normal_rows, scratch->b_direction_rows);
    culled.b_packed = scratch->b_packed;
    if (lanes) c->edge = kernel->lanes(&culled);
    else c->edge = walks ? kernel->walk(&culled, scratch->face_vertex) : mf_query_edges(&culled);
    mf_measure_edge_axis(frame, c);
}

// The box of a box-hull pair as the hull's frame sees it.
static mf_box_in_hull box_in_hull_frame(const mf_pair_frame *frame, int box_is_a)
{
    const mf_mat3 *r = &frame->rotation; // b's frame to a's
    mf_vec3 half = (box_is_a ? frame->a : frame->b)->shape->half_extents;
    mf_box_in_hull box = {.half = {half.x, half.y, half.z}};
    // The box's axes: a's seen from b are r's rows; b's seen from a are its columns.
    mf_mat3 axes = box_is_a ? *r : mf_mat3_transpose(r);
    for (int m = 0; m < 3; ++m) box.axis[m] = axes.row[m];
    // a's origin seen from b, or b's seen from a.
    box.centre = box_is_a ? mf_mat3_mul_transposed(r, mf_neg(frame->translation)) : frame->translation;
    return box;
}

// The edge query's answer in the pair's terms: the axis from a to b in a's frame, and the box edge
// along the found axis that supports the box facing the hull.
static mf_edge_query box_hull_edge_axis(const mf_pair_frame *frame, int box_is_a, const mf_box_in_hull *box,
                                        mf_box_edge_query found)
{
    if (!(found.separation > -INFINITY)) return (mf_edge_query){-INFINITY, 0, 0, {0, 0, 0}};
    const mf_hull_view *hull = box_is_a ? frame->b : frame->a;
    uint32_t j = found.hull_edge, k = found.box_axis;
    mf_vec3 u = box->axis[k], cross = mf_cross((mf_vec3){hull->edge_x[j], hull->edge_y[j], hull->edge_z[j]}, u);
    float side0 = mf_dot(mf_view_normal(hull, hull->edge_face0[j]), u);
    mf_vec3 normal = mf_scale(cross, (side0 > 0.0f ? 1.0f : -1.0f) / mf_length(cross)); // hull to box
    uint32_t corner = 0; // the sign of -normal . axis m in bit m
    for (uint32_t m = 0; m < 3; ++m) corner |= (uint32_t)(m != k && mf_dot(normal, box->axis[m]) < 0.0f) << m;
    uint32_t box_edge = mf_box_edge(corner, k);
    if (!box_is_a) return (mf_edge_query){found.separation, j, box_edge, normal};
    return (mf_edge_query){found.separation, box_edge, j, mf_neg(mf_mat3_mul(&frame->rotation, normal))};
}

// The box's faces -x, +x, -y, +y, -z, +z (box.c) against the hull, from the bounds of its
// vertices in the box's frame: a face's separation is the vertices' least coordinate along its
// normal less the half extent. The best, the first of equals.
static mf_face_query box_faces(mf_vec3 low, mf_vec3 high, const float half[3])
{
    const float least[6] = {-high.x, low.x, -high.y, low.y, -high.z, low.z};
    mf_face_query best = {-INFINITY, 0};
    for (uint32_t face = 0; face < 6; ++face) {
        float separation = least[face] - half[face / 2];
        if (separation > best.separation) best = (mf_face_query){separation, face};
    }
    return best;
}

// mf_query_pair for a box and a hull, in closed form (box_hull.c).
static int query_box_hull(const mf_pair_frame *frame, float margin, const mf_box_hull_kernel *kernel,
                          mf_axis_candidates *c)
{
    int box_is_a = frame->a->shape->box;
    const mf_hull_view *hull = box_is_a ? frame->b : frame->a;
    mf_box_in_hull box = box_in_hull_frame(frame, box_is_a);
    if (box_is_a) {
        c->face_a = box_faces(frame->hull_low, frame->hull_high, box.half);
        if (c->face_a.separation >= margin) return 0;
        c->face_b = kernel->faces(hull, &box);
    } else {
        c->face_a = kernel->faces(hull, &box);
        if (c->face_a.separation >= margin) return 0;
        c->face_b = box_faces(frame->hull_low, frame->hull_high, box.half);
    }
    if (c->face_b.separation >= margin) return 0;
    c->edge = box_hull_edge_axis(frame, box_is_a, &box, kernel->edges(hull, &box));
    mf_measure_edge_axis(frame, c);
    return mf_is_touching(c, margin);
}

int mf_query_pair(const mf_pair_frame *frame, const mf_config *config, mf_face_search_fn *faces,
                  const mf_edge_kernel *edges, const mf_box_hull_kernel *box_hull, const mf_query_scratch *scratch,
                  mf_axis_candidates *c)
{
    float margin = config->margin;
    *c = (mf_axis_candidates){.face_a = {-INFINITY, 0}, .face_b = {-INFINITY, 0}, .edge = {-INFINITY, 0, 0, {0, 0, 0}}};
    c->scale = frame->a->shape->radius + frame->b->shape->radius;
    c->projection = mf_uses_projection(frame->a, frame->b);
    if (mf_is_box_hull_pair(frame->a->shape, frame->b->shape)) return query_box_hull(frame, margin, box_hull, c);
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
