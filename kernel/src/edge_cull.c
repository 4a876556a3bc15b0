// The edge cull: before the edge query of a pair, each hull's edges are cut down to those that could
// make an edge axis that ranks (mf_rank_axes), from their gaps below a point of each hull; against a
// large hull, also along their Gauss-map arcs (arc_cull.c). Then b's face normals and edge
// directions, at least the kept ones, are turned into a's frame for the query (mf_rotate_b_edges).
#include "edge_cull.h"
#include "core.h"
#include "tolerances.h"

#include <stddef.h>

// How far below the better face axis an edge axis may fall and still rank (mf_rank_axes: the face
// is then the best, and the allowance is measured from it), a hair more for the gaps' float noise.
static float cull_reach(const mf_axis_candidates *candidates, float linear_slop, float faces)
{
    return mf_allowance(linear_slop, candidates->scale, faces) - faces + MF_LENGTH_NOISE * candidates->scale;
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

float mf_face_gaps(const mf_hull_view *hull, mf_vec3 p, float *gap)
{
    MF_ASSERT(hull->face_count <= MF_FACE_CULL_MAX_FACES);
    float least = INFINITY;
    for (uint32_t f = 0; f < hull->face_count; ++f) {
        gap[f] = hull->offset[f] - mf_dot(mf_view_normal(hull, f), p);
        least = mf_minf(least, gap[f]);
    }
    for (uint32_t f = hull->face_count; f < hull->face_count + MF_EDGE_GAP_PAD; ++f) gap[f] = INFINITY;
    return least;
}

static inline float edge_gap_of_faces(const mf_hull_view *hull, const float *face_gap, uint32_t e)
{
    return mf_minf(face_gap[hull->edge_face0[e]], face_gap[hull->edge_face1[e]]);
}

uint32_t mf_edges_by_faces(const mf_hull_view *hull, const float *face_gap, float reach, uint16_t *kept)
{
    uint32_t kept_count = 0;
    for (uint32_t e = 0; e < hull->edge_count; ++e) { // without a branch, as mf_edges_within
        kept[kept_count] = (uint16_t)e;
        kept_count += edge_gap_of_faces(hull, face_gap, e) <= reach;
    }
    for (uint32_t k = kept_count; k < kept_count + MF_KEPT_EDGES_PAD; ++k) kept[k] = 0;
    return kept_count;
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

// Hulls of at most MF_FACE_CULL_MAX_FACES faces are culled from their faces' gaps, larger ones
// from their edges' own (their arc culls read the edges' gaps).
static inline int culls_by_faces(const mf_hull_view *hull) { return hull->face_count <= MF_FACE_CULL_MAX_FACES; }

// The gaps of p in the hull, its faces' or its edges', into the scratch; returns the least.
static float point_gaps(const mf_edge_kernel *kernel, const mf_query_scratch *scratch, int on_b,
                        const mf_hull_view *hull, mf_vec3 p)
{
    if (culls_by_faces(hull)) return kernel->face_gaps(hull, p, on_b ? scratch->b_face_gap : scratch->a_face_gap);
    return kernel->gaps(hull, p, on_b ? scratch->b_edge_gap : scratch->a_edge_gap);
}

// The hull's edges whose gap is within `reach`, from the gaps point_gaps left.
static uint32_t edges_within_reach(const mf_edge_kernel *kernel, const mf_query_scratch *scratch, int on_b,
                                   const mf_hull_view *hull, float reach)
{
    uint16_t *kept = on_b ? scratch->b_edges : scratch->a_edges;
    if (culls_by_faces(hull))
        return kernel->edges_by_faces(hull, on_b ? scratch->b_face_gap : scratch->a_face_gap, reach, kept);
    return kernel->within(on_b ? scratch->b_edge_gap : scratch->a_edge_gap, hull->edge_count, reach, kept);
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
    if (points != NULL) points->reach = reach + MF_LENGTH_NOISE * candidates->scale;
    culled->a_edges = scratch->a_edges;
    culled->a_edge_count = edges_within_reach(kernel, scratch, 0, frame->a, reach - least_b);
    culled->b_edges = scratch->b_edges;
    culled->b_edge_count = edges_within_reach(kernel, scratch, 1, frame->b, reach - least_a);
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
    float least_a = point_gaps(kernel, scratch, 0, a, p);
    if (!(least_a > 0.0f)) return 0;
    mf_vec3 p_in_b = mf_mat3_mul_transposed(&frame->rotation, mf_sub(p, frame->translation));
    if (points != NULL) *points = (cull_points){.a = p, .b = p_in_b}; // stored before the call: no spill
    float least_b = point_gaps(kernel, scratch, 1, b, p_in_b);
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
// nearest to it. Fills in the partner, its gaps (point_gaps) and their least; returns how far
// apart v and its partner are.
static float partner_on_face(const mf_edge_kernel *kernel, const mf_query_scratch *scratch, int on_b,
                             const mf_hull_view *hull, uint32_t face, mf_vec3 v, int below, float *least,
                             mf_vec3 *partner)
{
    *partner = v;
    if (below) {
        *least = point_gaps(kernel, scratch, on_b, hull, v);
        if (*least > 0.0f) return 0.0f;
    }
    *partner = nearest_on_face(hull, face, v);
    *least = point_gaps(kernel, scratch, on_b, hull, *partner);
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
        apart = partner_on_face(kernel, scratch, 0, a, face, mf_frame_b_vertex(frame, v),
                                candidates->face_a.separation < 0.0f, &least_a, &point_a);
        point_b = mf_view_vertex(b, v);
        least_b = point_gaps(kernel, scratch, 1, b, point_b);
    } else {
        uint32_t face = candidates->face_b.face;
        uint32_t v = mf_deepest_vertex(frame, 1, mf_mat3_mul(&frame->rotation, mf_view_normal(b, face)));
        mf_vec3 v_in_b = mf_mat3_mul_transposed(&frame->rotation, mf_sub(mf_view_vertex(a, v), frame->translation));
        apart = partner_on_face(kernel, scratch, 1, b, face, v_in_b, candidates->face_b.separation < 0.0f, &least_b,
                                &point_b);
        point_a = mf_view_vertex(a, v);
        least_a = point_gaps(kernel, scratch, 0, a, point_a);
    }
    if (points != NULL) *points = (cull_points){.a = point_a, .b = point_b};
    keep_edges_near_points(frame, candidates, linear_slop, points, apart, least_a, least_b, kernel, scratch, culled);
}

// The gaps of a hull culled by its faces' gaps at its kept edges, and at edge 0, which the list's
// zero padding names: the arc cull reads them.
static void kept_edge_gaps(const mf_hull_view *hull, const float *face_gap, const uint16_t *edges, uint32_t count,
                           float *gap)
{
    gap[0] = edge_gap_of_faces(hull, face_gap, 0);
    for (uint32_t k = 0; k < count; ++k) gap[edges[k]] = edge_gap_of_faces(hull, face_gap, edges[k]);
}

// Against a large hull (a support map) each kept edge of the other is bounded along its arc.
static void cull_arcs(const mf_pair_frame *frame, const cull_points *points, const mf_edge_kernel *kernel,
                      const mf_query_scratch *scratch, mf_pair_frame *culled)
{
    // Few kept pairs cost less to try than to cull (a function of the counts alone, so that every ISA
    // culls alike).
    if (culled->a_edge_count * culled->b_edge_count < MF_ARC_CULL_MIN_PAIRS) return;
    if (frame->a->support_map != NULL) {
        if (culls_by_faces(frame->b))
            kept_edge_gaps(frame->b, scratch->b_face_gap, scratch->b_edges, culled->b_edge_count, scratch->b_edge_gap);
        mf_arc_cull cull = {.records = frame->b->edge_records,
                            .gap = scratch->b_edge_gap,
                            .to_other = frame->rotation,
                            .other_map = frame->a->support_map,
                            .other_point = points->a,
                            .reach = points->reach};
        culled->b_edge_count = kernel->arc_cull(&cull, scratch->b_edges, culled->b_edge_count);
    }
    if (frame->b->support_map != NULL) {
        if (culls_by_faces(frame->a))
            kept_edge_gaps(frame->a, scratch->a_face_gap, scratch->a_edges, culled->a_edge_count, scratch->a_edge_gap);
        mf_arc_cull cull = {.records = frame->a->edge_records,
                            .gap = scratch->a_edge_gap,
                            .to_other = mf_mat3_transpose(&frame->rotation),
                            .other_map = frame->b->support_map,
                            .other_point = points->b,
                            .reach = points->reach};
        culled->a_edge_count = kernel->arc_cull(&cull, scratch->a_edges, culled->a_edge_count);
    }
}

// a's kept edges by b's supports (mf_support_cull), where b has few vertices for its kept edges.
static void cull_by_supports(mf_pair_frame *frame, const mf_axis_candidates *c, float linear_slop, float faces,
                             const mf_edge_kernel *kernel, const mf_query_scratch *scratch, mf_pair_frame *culled)
{
    // The least separation of an edge axis that ranks is minus the reach, which holds the gaps' noise;
    // the bound's rounding is a few units of the separations' size.
    float bar = -cull_reach(c, linear_slop, faces) - MF_LENGTH_NOISE * c->scale;
    // Above zero (hulls apart by more than the allowance) the bound would need the sinusoids' own
    // peaks too; those pairs keep their edges.
    const mf_hull_view *b = frame->b;
    if (!(bar < 0.0f) || b->vertex_count > MF_SUPPORT_CULL_VERTICES_PER_EDGE * culled->b_edge_count) return;
    mf_support_cull cull = {.records = frame->a->edge_records, .other_count = b->vertex_count, .bar = bar};
    if (frame->b_vertex_rows != NULL) {
        cull.other_x = frame->b_vertex_rows;
        cull.other_y = cull.other_x + MF_VERTEX_ROWS_STRIDE;
        cull.other_z = cull.other_y + MF_VERTEX_ROWS_STRIDE;
        cull.other_stride = 1;
    } else {
        cull.other_x = &frame->b_vertices[0].x;
        cull.other_y = &frame->b_vertices[0].y;
        cull.other_z = &frame->b_vertices[0].z;
        cull.other_stride = sizeof(mf_vec3) / sizeof(float);
    }
    culled->a_edge_count = kernel->support_cull(&cull, scratch->a_edges, culled->a_edge_count);
}

void mf_cull_edges(mf_pair_frame *frame, const mf_axis_candidates *c, float linear_slop, const mf_edge_kernel *kernel,
                   const mf_query_scratch *scratch)
{
    // The culls read the frame's hulls and pose and write its kept lists: the same frame, two roles.
    mf_pair_frame *culled = frame;
    // The arc culls' points, where either hull is large (a support map); the culls fill them.
    cull_points arcs;
    // cppcheck-suppress uninitvar ; only the address is taken here: the culls below fill arcs
    cull_points *points = frame->a->support_map != NULL || frame->b->support_map != NULL ? &arcs : NULL;
    // Deep overlaps are culled around a point on the centroids' line inside both hulls where there
    // is one; the rest around the better face axis' support vertex and its partner.
    float faces = mf_maxf(c->face_a.separation, c->face_b.separation);
    float deep = -0.1f * mf_minf(frame->a->shape->inner_radius, frame->b->shape->inner_radius);
    if (!(faces < deep && cull_around_centroids(frame, c, linear_slop, kernel, scratch, culled, points)))
        cull_around_support(frame, c, linear_slop, kernel, scratch, culled, points);
    if (points != NULL) cull_arcs(frame, points, kernel, scratch, culled);
    cull_by_supports(frame, c, linear_slop, faces, kernel, scratch, culled);
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
