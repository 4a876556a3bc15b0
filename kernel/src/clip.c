// Clipping (Catto, "Contact Manifolds", GDC 2007; the Newcastle physics tutorials): the incident
// face is clipped by the side planes of the reference face, and every point remembers the pair of
// features it came from so ids survive a switch of the reference face between a and b.
#include "clip.h"
#include "tolerances.h"

#include "core.h"

#include <string.h>

// A hull as the clipper sees it: a's own data, or b's with its vertices moved into a's frame.
typedef struct clip_hull {
    const mf_hull_view *hull;
    const mf_vec3 *points;  // the vertices in a's frame as points (b's where the frame has them), or NULL
    const float *x, *y, *z; // else as rows: a's own, or b's moved (mf_pair_frame)
} clip_hull;

static clip_hull clip_hull_a(const mf_pair_frame *frame)
{
    const mf_hull_view *a = frame->a;
    return (clip_hull){a, NULL, a->vertex_x, a->vertex_y, a->vertex_z};
}

static clip_hull clip_hull_b(const mf_pair_frame *frame)
{
    const float *x = frame->b_vertex_rows;
    if (frame->b_vertices != NULL) return (clip_hull){frame->b, frame->b_vertices, NULL, NULL, NULL};
    return (clip_hull){frame->b, NULL, x, x + MF_VERTEX_ROWS_STRIDE, x + 2 * MF_VERTEX_ROWS_STRIDE};
}

static inline mf_vec3 hull_vertex(const clip_hull *h, uint32_t i)
{
    return h->points != NULL ? h->points[i] : (mf_vec3){h->x[i], h->y[i], h->z[i]};
}

// The incident face: among the faces around the incident hull's `deepest` vertex along the
// reference normal, the one most anti-parallel to it (any face with `any_face`); ties go to the
// lowest index. The face most anti-parallel overall can lie beside the reference face while the
// deepest vertex sits under it; the deepest vertex's faces always reach it. `local_normal` is in
// the incident hull's frame.
static uint32_t find_incident_face(const mf_hull_view *hull, uint32_t deepest, mf_vec3 local_normal, int any_face)
{
    uint32_t best = 0;
    float best_dot = INFINITY;
    if (any_face) {
        for (uint32_t f = 0; f < hull->face_count; ++f) {
            float d = mf_dot(mf_view_normal(hull, f), local_normal);
            if (d < best_dot) best_dot = d, best = f;
        }
        return best;
    }
    // The faces around the vertex, each once (bank.h: fan_face).
    const uint16_t *faces = hull->fan_face + hull->vertex_fan_first[deepest];
    for (uint32_t k = 0; k < hull->vertex_fan_count[deepest]; ++k) {
        uint32_t face = faces[k];
        float d = mf_dot(mf_view_normal(hull, face), local_normal);
        // Without a branch: which face wins is unpredictable, and a vertex has about six. An equal
        // dot keeps the old value (a zero of the other sign compares the same).
        uint32_t better = (uint32_t)(d < best_dot) | ((uint32_t)(d == best_dot) & (uint32_t)(face < best));
        uint32_t take = 0u - better; // all ones where the face is better
        best = (face & take) | (best & ~take);
        best_dot = mf_minf(d, best_dot);
    }
    return best;
}

// Feature where the polygon edge leaving `point` crosses reference side `side`. Along an incident
// edge it is that edge against the side's reference edge; along an earlier side it is the
// reference vertex between the two sides, met on the incident face.
static void crossing_features(const mf_clip_point *point, uint32_t side, uint32_t side_count,
                              const uint16_t *reference_loop, const uint16_t *reference_edges, uint32_t incident_face,
                              mf_clip_point *crossing)
{
    if (!point->carrier_is_side) {
        crossing->incident_feature = MF_FEATURE(MF_FEATURE_EDGE, point->carrier);
        crossing->reference_feature = MF_FEATURE(MF_FEATURE_EDGE, reference_edges[side]);
        return;
    }
    uint32_t previous = point->carrier;
    MF_ASSERT(previous < side_count && side < side_count);
    crossing->incident_feature = MF_FEATURE(MF_FEATURE_FACE, incident_face);
    // The side after each (no division: both are below side_count).
    uint32_t after_previous = previous + 1 < side_count ? previous + 1 : 0,
             after_side = side + 1 < side_count ? side + 1 : 0;
    if (side == after_previous) {
        crossing->reference_feature = MF_FEATURE(MF_FEATURE_VERTEX, reference_loop[side]);
    } else if (previous == after_side) {
        crossing->reference_feature = MF_FEATURE(MF_FEATURE_VERTEX, reference_loop[previous]);
    } else {
        crossing->reference_feature = MF_FEATURE(MF_FEATURE_EDGE, reference_edges[side]);
    }
}

// What the clip of one incident face needs: both hulls as seen from a's frame and the reference
// face's plane.
typedef struct clip_setup {
    clip_hull reference, incident;
    uint32_t reference_face;
    mf_vec3 normal; // reference normal in a's frame
    float offset;
    float margin;
} clip_setup;

// Clips one incident face against the reference face's side planes and keeps the points below
// the reference face plus margin, one per feature pair.
//
// Capacity: a convex polygon crosses a line at most twice, so each side adds at most one point
// and the polygon never holds more than the incident face's vertices plus the reference face's
// sides, 2 MF_MAX_FACE_VERTICES < MF_CLIP_CAPACITY (the precondition below). That holds in exact
// arithmetic. In floats, points that all lie on a side's line (within rounding) can fall on
// either side of it at random and cross it more often; only then could a polygon of two faces
// near MF_MAX_FACE_VERTICES outgrow the buffers. The guards on `kept` keep the first
// MF_CLIP_CAPACITY points (all on the incident face, inside the sides so far) rather than write
// past them. The hull builder merges nearly collinear vertices away, and two stacked 128-gon caps,
// which reach the exact bound, gain no extra point; no scene has met the guard.
static void clip_incident_face(const clip_setup *setup, uint32_t incident_face, mf_face_clip *clip)
{
    const clip_hull *reference = &setup->reference, *incident = &setup->incident;
    uint32_t reference_face = setup->reference_face;
    mf_vec3 normal = setup->normal;
    const mf_hull_view *inc = incident->hull;
    MF_ASSERT(incident_face < inc->face_count && reference_face < reference->hull->face_count);
    const uint16_t *incident_loop = inc->loop_vertex + inc->face_loop_first[incident_face];
    const uint16_t *incident_edges = inc->loop_edge + inc->face_loop_first[incident_face];
    uint32_t count = inc->face_loop_count[incident_face];
    MF_ASSERT(count >= 3 && count <= MF_MAX_FACE_VERTICES);
    MF_ASSERT(count + reference->hull->face_loop_count[reference_face] <= MF_CLIP_CAPACITY);
    mf_clip_point buffers[2][MF_CLIP_CAPACITY];
    mf_clip_point *polygon = buffers[0], *clipped = buffers[1];
    for (uint32_t k = 0; k < count; ++k) {
        polygon[k] = (mf_clip_point){
            .position = hull_vertex(incident, incident_loop[k]),
            .incident_feature = MF_FEATURE(MF_FEATURE_VERTEX, incident_loop[k]),
            .reference_feature = MF_FEATURE(MF_FEATURE_FACE, reference_face),
            .carrier = incident_edges[k],
        };
    }
    // Sutherland–Hodgman: keep the part of the polygon inside each side plane in turn.
    const mf_hull_view *ref = reference->hull;
    const uint16_t *reference_loop = ref->loop_vertex + ref->face_loop_first[reference_face];
    const uint16_t *reference_edges = ref->loop_edge + ref->face_loop_first[reference_face];
    uint32_t side_count = ref->face_loop_count[reference_face];
    MF_ASSERT(side_count >= 3 && side_count <= MF_MAX_FACE_VERTICES);
    for (uint32_t side = 0; side < side_count && count > 0; ++side) {
        mf_vec3 start = hull_vertex(reference, reference_loop[side]);
        mf_vec3 end = hull_vertex(reference, reference_loop[side + 1 < side_count ? side + 1 : 0]);
        mf_vec3 side_normal = mf_cross(mf_sub(end, start), normal); // outward for a CCW loop
        float side_offset = mf_dot(side_normal, start);
        // Each point's distance once; points on the plane count as inside.
        float distance[MF_CLIP_CAPACITY];
        uint32_t outside = 0;
        for (uint32_t k = 0; k < count; ++k) {
            distance[k] = mf_dot(side_normal, polygon[k].position) - side_offset;
            outside += distance[k] > 0.0f;
        }
        if (outside == 0) continue; // the whole polygon is inside this side
        uint32_t kept = 0;
        for (uint32_t k = 0; k < count; ++k) {
            uint32_t next = k + 1 < count ? k + 1 : 0;
            const mf_clip_point *p = &polygon[k], *q = &polygon[next];
            float distance_p = distance[k], distance_q = distance[next];
            if (distance_p <= 0.0f && kept < MF_CLIP_CAPACITY) clipped[kept++] = *p;
            if ((distance_p <= 0.0f) != (distance_q <= 0.0f) && kept < MF_CLIP_CAPACITY) {
                float t = distance_p / (distance_p - distance_q);
                // Written field by field in place: a point put together on the stack and copied
                // whole is read back wider than it was written, which stalls the copy.
                mf_clip_point *crossing = &clipped[kept++];
                crossing->position = mf_mul_add(p->position, t, mf_sub(q->position, p->position));
                crossing->separation = 0.0f;
                crossing_features(p, side, side_count, reference_loop, reference_edges, incident_face, crossing);
                // Leaving the plane, the polygon continues along the side; entering, along p's edge.
                int leaving = distance_p <= 0.0f;
                crossing->carrier = leaving ? (uint16_t)side : p->carrier;
                crossing->carrier_is_side = leaving ? 1 : p->carrier_is_side;
            }
        }
        mf_clip_point *swap = polygon;
        polygon = clipped;
        clipped = swap;
        count = kept;
    }

    // Keep points below the reference face plus margin, one per feature pair.
    uint32_t kept = 0;
    for (uint32_t k = 0; k < count; ++k) {
        mf_clip_point p = polygon[k];
        p.separation = mf_dot(normal, p.position) - setup->offset;
        if (!(p.separation < setup->margin)) continue;
        uint32_t twin = 0;
        while (twin < kept && (clip->points[twin].incident_feature != p.incident_feature ||
                               clip->points[twin].reference_feature != p.reference_feature))
            ++twin;
        if (twin == kept) clip->points[kept++] = p;
        else if (p.separation < clip->points[twin].separation) clip->points[twin] = p;
    }
    clip->count = kept;
}

void mf_clip_faces(const mf_pair_frame *frame, const mf_axis *axis, float margin, mf_face_clip *clip)
{
    MF_ASSERT(axis->kind == MF_AXIS_FACE_A || axis->kind == MF_AXIS_FACE_B);
    MF_ASSERT(axis->kind == MF_AXIS_FACE_A ? axis->feature_a < frame->a->face_count
                                           : axis->feature_b < frame->b->face_count);
    MF_ASSERT((frame->b_vertices != NULL || frame->b_vertex_rows != NULL) && margin >= 0.0f);
    int reference_is_a = axis->kind == MF_AXIS_FACE_A;
    clip_hull hull_a = clip_hull_a(frame), hull_b = clip_hull_b(frame);
    clip_setup setup = {.reference = reference_is_a ? hull_a : hull_b, .incident = reference_is_a ? hull_b : hull_a};
    setup.reference_face = reference_is_a ? axis->feature_a : axis->feature_b;
    setup.margin = margin;
    mf_vec3 local_normal = mf_view_normal(setup.reference.hull, setup.reference_face);
    setup.normal = reference_is_a ? local_normal : mf_mat3_mul(&frame->rotation, local_normal);
    setup.offset = setup.reference.hull->offset[setup.reference_face];
    if (!reference_is_a) setup.offset += mf_dot(setup.normal, frame->translation);
    clip->reference_normal = setup.normal;

    // b's faces are searched in b's frame. Should the face at the deepest vertex keep nothing
    // (ties between parallel features), the face most anti-parallel overall gets a try.
    mf_vec3 normal_in_incident = reference_is_a ? mf_mat3_mul_transposed(&frame->rotation, setup.normal) : setup.normal;
    uint32_t deepest = mf_deepest_vertex(frame, !reference_is_a, setup.normal);
    uint32_t incident_face = find_incident_face(setup.incident.hull, deepest, normal_in_incident, 0);
    clip_incident_face(&setup, incident_face, clip);
    if (clip->count > 0) return;
    uint32_t other_face = find_incident_face(setup.incident.hull, deepest, normal_in_incident, 1);
    if (other_face != incident_face) clip_incident_face(&setup, other_face, clip);
}

// Closest points of the lines through p1q1 and p2q2, as parameters along each segment; 0 when the
// lines are parallel.
static int closest_parameters(mf_vec3 p1, mf_vec3 q1, mf_vec3 p2, mf_vec3 q2, float *s, float *t)
{
    mf_vec3 d1 = mf_sub(q1, p1), d2 = mf_sub(q2, p2), r = mf_sub(p1, p2);
    float a = mf_dot(d1, d1), e = mf_dot(d2, d2), f = mf_dot(d2, r);
    float c = mf_dot(d1, r), b = mf_dot(d1, d2);
    float denominator = a * e - b * b;
    if (!(denominator > MF_PARALLEL_SEGMENTS * a * e)) return 0;
    *s = (b * f - c * e) / denominator;
    *t = (a * f - b * c) / denominator;
    return 1;
}

int mf_edge_contact(const mf_pair_frame *frame, const mf_axis *axis, float reach, mf_contact *contact)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    uint32_t i = axis->feature_a, j = axis->feature_b;
    mf_vec3 p1 = mf_view_vertex(a, a->edge_vertex0[i]), q1 = mf_view_vertex(a, a->edge_vertex1[i]);
    mf_vec3 p2 = mf_frame_b_vertex(frame, b->edge_vertex0[j]), q2 = mf_frame_b_vertex(frame, b->edge_vertex1[j]);
    float s, t;
    // Lines crossing at an end still meet the edges; `reach` in each edge's parameter.
    float slack_s = mf_maxf(MF_EDGE_END_SLACK, reach / mf_length(mf_sub(q1, p1)));
    float slack_t = mf_maxf(MF_EDGE_END_SLACK, reach / mf_length(mf_sub(q2, p2)));
    if (!closest_parameters(p1, q1, p2, q2, &s, &t) || s < -slack_s || s > 1.0f + slack_s || t < -slack_t ||
        t > 1.0f + slack_t)
        return 0;
    mf_vec3 on_a = mf_mul_add(p1, mf_minf(mf_maxf(s, 0.0f), 1.0f), mf_sub(q1, p1));
    mf_vec3 on_b = mf_mul_add(p2, mf_minf(mf_maxf(t, 0.0f), 1.0f), mf_sub(q2, p2));
    uint32_t id = (uint32_t)MF_FEATURE(MF_FEATURE_EDGE, i) << 16 | MF_FEATURE(MF_FEATURE_EDGE, j);
    *contact = (mf_contact){mf_scale(mf_add(on_a, on_b), 0.5f), mf_dot(axis->normal, mf_sub(on_b, on_a)), id};
    return 1;
}
