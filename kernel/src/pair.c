// The per-pair path shared by every ISA: frame setup, contacts of a touching pair, and the whole
// path of one pair (the scalar ISA's, and larger hulls' on every ISA).
#include "pair.h"
#include "tolerances.h"

#include "box_hull.h"
#include "closest.h"
#include "core.h"
#include "dispatch.h"
#include "lanes4.h"
#include "reduce.h"

#include <string.h>

// Four vertices from rows x, y, z (four lanes each) interleaved into out[0, 4) as mf_vec3s.
static inline void store_interleaved(mf_vec3 *out, simde__m128 x, simde__m128 y, simde__m128 z)
{
    simde__m128 xy_low = simde_mm_unpacklo_ps(x, y), xy_high = simde_mm_unpackhi_ps(x, y); // x0 y0 x1 y1, x2 y2 x3 y3
    simde__m128 z0_x1 = simde_mm_shuffle_ps(z, x, SIMDE_MM_SHUFFLE(1, 1, 0, 0));           // z0 z0 x1 x1
    simde__m128 y1_z1 = simde_mm_shuffle_ps(y, z, SIMDE_MM_SHUFFLE(1, 1, 1, 1));           // y1 y1 z1 z1
    simde__m128 z2_y3 = simde_mm_shuffle_ps(z, xy_high, SIMDE_MM_SHUFFLE(3, 2, 3, 2));     // z2 z3 x3 y3
    float *at = (float *)(void *)out;
    simde_mm_storeu_ps(at, simde_mm_shuffle_ps(xy_low, z0_x1, SIMDE_MM_SHUFFLE(2, 0, 1, 0)));      // x0 y0 z0 x1
    simde_mm_storeu_ps(at + 4, simde_mm_shuffle_ps(y1_z1, xy_high, SIMDE_MM_SHUFFLE(1, 0, 2, 0))); // y1 z1 x2 y2
    simde_mm_storeu_ps(at + 8, simde_mm_shuffle_ps(z2_y3, z2_y3, SIMDE_MM_SHUFFLE(1, 3, 2, 0)));   // z2 x3 y3 z3
}

// A hull's vertices moved between frames, four at a time: m v + t, or with `back` m^T (v - t), in
// the order of operations of mf_mat3_mul and mf_add (of mf_sub and mf_mat3_mul_transposed), then
// interleaved into `out` where it is not NULL, and where `rows` is not NULL also stored as rows x,
// y, z (MF_VERTEX_ROWS_STRIDE apart); where `low` is not NULL, their bounds in the new frame into it
// and `high` (the box-hull queries read a box's face separations off them; others would pay for
// them for nothing). Loads run up to three vertices past the shape's last, within the bank's
// arrays (MF_BANK_PAD); stores as far past the last entry of `out`, within its
// MF_MAX_HULL_VERTICES, and of the rows.
static inline void move_vertices(const mf_hull_view *hull, const mf_mat3 *m, mf_vec3 t, int back, mf_vec3 *out,
                                 float *rows, mf_vec3 *low, mf_vec3 *high)
{
    _Static_assert(MF_MAX_HULL_VERTICES % 4 == 0 && MF_BANK_PAD >= 3, "whole registers of vertices");
    simde__m128 r[3][3];
    mf_mat3_splat4(m, r);
    simde__m128 tx = simde_mm_set1_ps(t.x), ty = simde_mm_set1_ps(t.y), tz = simde_mm_set1_ps(t.z);
    const simde__m128 none_low = simde_mm_set1_ps(INFINITY), none_high = simde_mm_set1_ps(-INFINITY);
    const simde__m128 lane = simde_mm_set_ps(3.0f, 2.0f, 1.0f, 0.0f),
                      count = simde_mm_set1_ps((float)hull->vertex_count);
    simde__m128 lows[3] = {none_low, none_low, none_low}, highs[3] = {none_high, none_high, none_high};
    for (uint32_t v = 0; v < hull->vertex_count; v += 4) {
        simde__m128 x = simde_mm_loadu_ps(hull->vertex_x + v), y = simde_mm_loadu_ps(hull->vertex_y + v);
        simde__m128 z = simde_mm_loadu_ps(hull->vertex_z + v);
        simde__m128 moved[3];
        if (back) {
            x = simde_mm_sub_ps(x, tx), y = simde_mm_sub_ps(y, ty), z = simde_mm_sub_ps(z, tz);
            for (int c = 0; c < 3; ++c) // column c of m: m^T's row c
                moved[c] = simde_mm_add_ps(simde_mm_add_ps(simde_mm_mul_ps(r[0][c], x), simde_mm_mul_ps(r[1][c], y)),
                                           simde_mm_mul_ps(r[2][c], z));
        } else {
            const simde__m128 shift[3] = {tx, ty, tz}, point[3] = {x, y, z};
            mf_mat3_mul4(r, point, moved);
            for (int c = 0; c < 3; ++c) moved[c] = simde_mm_add_ps(moved[c], shift[c]);
        }
        if (out != NULL) store_interleaved(out + v, moved[0], moved[1], moved[2]);
        if (rows != NULL)
            for (int c = 0; c < 3; ++c) simde_mm_storeu_ps(rows + (size_t)c * MF_VERTEX_ROWS_STRIDE + v, moved[c]);
        if (low == NULL) continue;
        if (v + 4 > hull->vertex_count) { // lanes past the last vertex take no part
            simde__m128 in = simde_mm_cmplt_ps(simde_mm_add_ps(lane, simde_mm_set1_ps((float)v)), count);
            for (int c = 0; c < 3; ++c) {
                simde__m128 kept = simde_mm_and_ps(in, moved[c]);
                lows[c] = simde_mm_min_ps(lows[c], simde_mm_or_ps(kept, simde_mm_andnot_ps(in, none_low)));
                highs[c] = simde_mm_max_ps(highs[c], simde_mm_or_ps(kept, simde_mm_andnot_ps(in, none_high)));
            }
            continue;
        }
        for (int c = 0; c < 3; ++c) {
            lows[c] = simde_mm_min_ps(lows[c], moved[c]);
            highs[c] = simde_mm_max_ps(highs[c], moved[c]);
        }
    }
    if (low == NULL) return;
    *low = (mf_vec3){mf_least_lane4(lows[0]), mf_least_lane4(lows[1]), mf_least_lane4(lows[2])};
    *high = (mf_vec3){mf_greatest_lane4(highs[0]), mf_greatest_lane4(highs[1]), mf_greatest_lane4(highs[2])};
}

// Rows x, y, z (MF_VERTEX_ROWS_STRIDE apart) of `count` vertices interleaved into `out`, four at a
// time, as far past the last entry as move_vertices stores.
static void interleave_rows(const float *rows, uint32_t count, mf_vec3 *out)
{
    const float *x = rows, *y = x + MF_VERTEX_ROWS_STRIDE, *z = y + MF_VERTEX_ROWS_STRIDE;
    for (uint32_t v = 0; v < count; v += 4)
        store_interleaved(out + v, simde_mm_loadu_ps(x + v), simde_mm_loadu_ps(y + v), simde_mm_loadu_ps(z + v));
}

// A hull's vertices moved (as move_vertices, without bounds) into `out` and `rows`: where the ISA
// has no move in lanes, a large hull's rows, which its queries read; where it has one (moving four
// vertices at a time was most of the 9% of hull48's samples that the frame set-up took on
// AVX-512), the rows are only room on the way to `out` (mf_frame_setup keeps a queries' frame's
// rows alone instead).
static void move_through_rows(const mf_hull_view *hull, const mf_mat3 *m, mf_vec3 t, int back,
                              mf_move_rows_fn *move_rows, mf_vec3 *out, float *rows)
{
    if (move_rows == NULL) {
        move_vertices(hull, m, t, back, out, rows, NULL, NULL);
        return;
    }
    move_rows(hull, m, t, back, rows, NULL, NULL);
    interleave_rows(rows, hull->vertex_count, out);
}

void mf_frame_setup(const mf_bank *bank, const mf_bodies *bodies, mf_pair pair, mf_pair_scratch *scratch,
                    int for_queries, const mf_wide_kernel *kernel, mf_mat3 *rotation_a, mf_pair_frame *frame)
{
    mf_move_rows_fn *move_rows = for_queries && kernel != NULL ? kernel->move_rows : NULL;
    const mf_transform *ta = &bodies->transform[pair.a], *tb = &bodies->transform[pair.b];
    // Scaled bodies read their shapes' scaled copies from the scratch (scale.h).
    const mf_hull_view *a = mf_body_hull(bank, bodies, pair.a, &scratch->scaled[0]);
    const mf_hull_view *b = mf_body_hull(bank, bodies, pair.b, &scratch->scaled[1]);
    *rotation_a = mf_mat3_from_quat(mf_quat_normalize(ta->q));
    mf_mat3 rotation_b = mf_mat3_from_quat(mf_quat_normalize(tb->q));

    // Work in a's frame: precision depends on the bodies' distance, not on where they are. Written
    // in place: a frame built aside and returned is copied in wider moves than it was stored in,
    // which stalls the store forwarding.
    mf_frame_start(frame, a, b, scratch->b_vertices, kernel != NULL ? &kernel->extent : &mf_kernel_scalar.extent);
    frame->a_vertices = scratch->a_vertices;
    frame->b_normal_rows = scratch->b_normal_rows;
    frame->b_direction_rows = scratch->b_direction_rows;
    frame->rotation = mf_mat3_relative(rotation_a, &rotation_b);
    frame->translation = mf_mat3_mul_transposed(rotation_a, mf_sub(tb->p, ta->p));
    // The box-hull queries read the hull's bounds in the box's frame, and only they: b's when a is
    // the box, a's when b is.
    int box_hull = for_queries && mf_is_box_hull_pair(a->shape, b->shape);
    int hull_is_b = box_hull && a->shape->box, hull_is_a = box_hull && b->shape->box;
    // The queries read the moved vertices as rows too (mf_face_lanes, mf_deepest_vertex): a large
    // hull's always, a small hull's where the ISA moves them in lanes, through the rows anyway. The
    // box-hull queries, which read bounds instead, do not.
    int rows = for_queries && !box_hull;
    // A box b's corners stay as rows too where the ISA moves them in lanes, as a hull b's do: its
    // readers take rows (the clip, the deepest vertex, mf_frame_b_vertex), and interleaving the
    // eight points cost more than moving them.
    int b_as_rows = (rows && b->support_map != NULL) || ((rows || hull_is_a) && move_rows != NULL);
    float *b_rows = b_as_rows ? scratch->b_vertex_rows : NULL;
    float *a_rows = rows && (a->support_map != NULL || move_rows != NULL) ? scratch->a_vertex_rows : NULL;
    frame->b_vertex_rows = b_rows;
    frame->a_vertex_rows = a_rows;
    // Each call's rows NULL or not as a constant: the copies inlined for small hulls test nothing per
    // vertex. Moves in lanes go through the rows: a frame for the queries keeps them, and them alone
    // (every reader takes rows where they are: mf_frame_b_vertex; interleaving hull48's vertices
    // was 4% of its instructions), others use them as room only. A box-hull pair's hull moves with its
    // bounds, in lanes where the ISA has them (on AVX-512, pile_step +2% over four at a time), and
    // a hull b's vertices stay as rows alone, for the contacts.
    if (hull_is_b && move_rows != NULL) {
        move_rows(b, &frame->rotation, frame->translation, 0, scratch->b_vertex_rows, &frame->hull_low,
                  &frame->hull_high);
        frame->b_vertex_rows = scratch->b_vertex_rows;
        frame->b_vertices = NULL;
    } else if (b_rows != NULL && move_rows != NULL) {
        move_rows(b, &frame->rotation, frame->translation, 0, b_rows, NULL, NULL);
        frame->b_vertices = NULL;
    } else if (b_rows != NULL || move_rows != NULL)
        move_through_rows(b, &frame->rotation, frame->translation, 0, move_rows, scratch->b_vertices,
                          scratch->b_vertex_rows);
    else
        move_vertices(b, &frame->rotation, frame->translation, 0, scratch->b_vertices, NULL,
                      hull_is_b ? &frame->hull_low : NULL, &frame->hull_high);
    if (!for_queries) return;
    // A box a's corners in the hull's frame: no query of a box-hull pair reads them.
    if (hull_is_b) {
        frame->a_vertices = NULL;
        return;
    }
    if (hull_is_a) { // a hull a's vertices in the box's frame: their bounds alone are read
        if (move_rows != NULL)
            move_rows(a, &frame->rotation, frame->translation, 1, NULL, &frame->hull_low, &frame->hull_high);
        else move_vertices(a, &frame->rotation, frame->translation, 1, NULL, NULL, &frame->hull_low, &frame->hull_high);
        frame->a_vertices = NULL;
    } else if (a_rows != NULL && move_rows != NULL) {
        move_rows(a, &frame->rotation, frame->translation, 1, a_rows, NULL, NULL);
        frame->a_vertices = NULL;
    } else if (a_rows != NULL || move_rows != NULL)
        move_through_rows(a, &frame->rotation, frame->translation, 1, move_rows, scratch->a_vertices,
                          scratch->a_vertex_rows);
    else move_vertices(a, &frame->rotation, frame->translation, 1, scratch->a_vertices, NULL, NULL, NULL);
    MF_ASSERT(b->edge_count <= MF_MAX_HULL_EDGES);
}

// Face contacts of a face axis: the clipped incident face reduced to max_contacts; 0 if the clip
// keeps nothing within the margin.
static uint32_t face_contacts(const mf_config *config, const mf_pair_frame *frame, const mf_axis *axis, mf_vec3 *normal,
                              mf_contact contacts[MF_MAX_CONTACTS])
{
    mf_face_clip clip;
    mf_clip_faces(frame, axis, config->margin, &clip);
    if (clip.count == 0) return 0;
    int reference_is_a = axis->kind == MF_AXIS_FACE_A;
    mf_vec3 reference_normal = clip.reference_normal;
    *normal = reference_is_a ? reference_normal : mf_neg(reference_normal);
    uint32_t chosen[MF_MAX_CONTACTS];
    uint32_t count = mf_reduce(clip.points, clip.count, reference_normal, config->max_contacts, chosen);
    for (uint32_t k = 0; k < count; ++k) {
        const mf_clip_point *p = &clip.points[chosen[k]];
        // The point sits on the incident surface; the midpoint is half the separation back.
        contacts[k] = (mf_contact){mf_mul_add(p->position, -0.5f * p->separation, reference_normal), p->separation,
                                   mf_clip_point_id(p, reference_is_a)};
    }
    return count;
}

static float deepest_separation(const mf_contact *contacts, uint32_t count)
{
    float deepest = INFINITY;
    for (uint32_t k = 0; k < count; ++k) deepest = mf_minf(deepest, contacts[k].separation);
    return deepest;
}

// Level 3 below: every face of either hull within `allowance` of the best axis, in turn.
// A nearly flat surface (slivers, thin hulls) is many faces whose separations differ by little;
// the best of them can lie beside the overlap while a neighbour covers it.
static uint32_t nearby_face_contacts(const mf_config *config, const mf_pair_frame *frame, float best, float allowance,
                                     float attain, mf_vec3 *normal, mf_contact contacts[MF_MAX_CONTACTS], mf_axis *used)
{
    for (uint32_t h = 0; h < 2; ++h) {
        uint32_t face_count = h == 0 ? frame->a->face_count : frame->b->face_count;
        for (uint32_t f = 0; f < face_count; ++f) {
            mf_axis axis = {h == 0 ? MF_AXIS_FACE_A : MF_AXIS_FACE_B, 0.0f, h == 0 ? f : 0, h == 0 ? 0 : f, {0, 0, 0}};
            axis.separation = mf_face_separation(frame, &axis); // the queries keep only each hull's best
            if (axis.separation + allowance < best) continue;
            uint32_t count = face_contacts(config, frame, &axis, normal, contacts);
            if (count > 0 && deepest_separation(contacts, count) <= attain) {
                *used = axis;
                return count;
            }
        }
    }
    return 0;
}

// Level 5 below, for a penetrating pair none of whose axes gave a contact (deep overlap of small
// faces): one contact at the incident hull's deepest vertex below the reference face, so the
// bodies are still pushed apart. It lies on the incident surface and the reference face's plane.
static uint32_t deepest_vertex_contact(const mf_pair_frame *frame, const mf_axis *axis, mf_vec3 *normal,
                                       mf_contact *contact)
{
    int reference_is_a = axis->kind == MF_AXIS_FACE_A;
    mf_vec3 local_normal =
        mf_view_normal(reference_is_a ? frame->a : frame->b, reference_is_a ? axis->feature_a : axis->feature_b);
    mf_vec3 reference_normal = reference_is_a ? local_normal : mf_mat3_mul(&frame->rotation, local_normal);
    uint32_t deepest = mf_deepest_vertex(frame, !reference_is_a, reference_normal);
    mf_vec3 v = reference_is_a ? mf_frame_b_vertex(frame, deepest) : mf_view_vertex(frame->a, deepest);
    uint32_t reference_face = reference_is_a ? axis->feature_a : axis->feature_b;
    uint16_t incident_feature = MF_FEATURE(MF_FEATURE_VERTEX, deepest);
    uint16_t reference_feature = MF_FEATURE(MF_FEATURE_FACE, reference_face);
    uint32_t id = reference_is_a ? (uint32_t)reference_feature << 16 | incident_feature
                                 : (uint32_t)incident_feature << 16 | reference_feature;
    *normal = reference_is_a ? reference_normal : mf_neg(reference_normal);
    *contact = (mf_contact){mf_mul_add(v, -0.5f * axis->separation, reference_normal), axis->separation, id};
    return 1;
}

// One contact at the closest points of a speculative pair, if nearer than the margin (level 6
// below, and the kept axis' stand-in). Its normal is the direction between them, or the previous
// manifold's (`kept`, in a's frame) where that still separates the hulls to within the slop of
// their distance and the two points to within a quarter of the slop: a corner beside an edge a
// millimetre away turns the direction between them by tens of degrees as it jitters, and a solver
// wants one normal. The contact's separation is then the points' along the kept normal (less than
// their distance: it errs towards contact), and *distance their distance, for the cache's bound.
// With `only_kept`, 0 unless the kept normal holds.
static uint32_t closest_contact(const mf_config *config, const mf_pair_frame *frame, const mf_axis *axis,
                                const mf_vec3 *kept, int only_kept, mf_vec3 *normal, mf_contact *contact,
                                float *distance)
{
    mf_vec3 direction = axis->normal;
    if (axis->kind == MF_AXIS_FACE_A) direction = mf_view_normal(frame->a, axis->feature_a);
    if (axis->kind == MF_AXIS_FACE_B)
        direction = mf_neg(mf_mat3_mul(&frame->rotation, mf_view_normal(frame->b, axis->feature_b)));
    mf_closest closest;
    if (!mf_closest_points(frame, direction, config->margin, &closest)) return 0;
    mf_vec3 gap = mf_sub(closest.point_b, closest.point_a);
    float along = kept != NULL ? mf_dot(gap, *kept) : -1.0f;
    int keeps = along >= 0.0f && along >= closest.distance - 0.25f * config->linear_slop &&
                mf_projected_gap(frame, *kept) >= closest.distance - config->linear_slop;
    if (only_kept && !keeps) return 0;
    float separation = closest.distance;
    if (keeps) {
        *normal = *kept;
        separation = along;
        *distance = closest.distance;
    } else {
        // Points nearly touching have no direction of their own: the axis stands in.
        *normal = closest.distance > MF_TOUCHING_DISTANCE * (frame->a->shape->radius + frame->b->shape->radius)
                      ? mf_scale(gap, 1.0f / closest.distance)
                      : direction;
    }
    *contact = (mf_contact){mf_scale(mf_add(closest.point_a, closest.point_b), 0.5f), separation,
                            (uint32_t)closest.feature_a << 16 | closest.feature_b};
    return 1;
}

// The contacts of one axis in a's frame, with their normal; how many (0 if it yields none). An
// edge contact may lie `reach` past the edges' ends (mf_edge_contact).
static uint32_t axis_contacts(const mf_config *config, const mf_pair_frame *frame, mf_axis *axis, int projection,
                              float reach, mf_vec3 *normal, mf_contact contacts[MF_MAX_CONTACTS])
{
    if (axis->kind != MF_AXIS_EDGES) return face_contacts(config, frame, axis, normal, contacts);
    if (projection) mf_resolve_direction_edges(frame, axis);
    *normal = axis->normal;
    return (uint32_t)mf_edge_contact(frame, axis, reach, &contacts[0]);
}

static void to_world(const mf_mat3 *rotation_a, mf_vec3 position_a, mf_vec3 normal, mf_pair_result *result)
{
    MF_ASSERT(result->count == 0 || mf_dot(normal, normal) > 0.5f);
    result->normal = mf_mat3_mul(rotation_a, normal);
    for (uint32_t k = 0; k < result->count; ++k)
        result->contacts[k].point = mf_add(mf_mat3_mul(rotation_a, result->contacts[k].point), position_a);
}

void mf_contacts_of_axis(const mf_config *config, const mf_pair_frame *frame, mf_axis *axis, int projection,
                         float attain, const mf_mat3 *rotation_a, mf_vec3 position_a, mf_pair_result *result)
{
    mf_vec3 normal = {0, 0, 0};
    result->count = axis_contacts(config, frame, axis, projection, 0.0f, &normal, result->contacts);
    result->distance = INFINITY;
    if (result->count > 0 && !(deepest_separation(result->contacts, result->count) <= attain)) result->count = 0;
    to_world(rotation_a, position_a, normal, result);
}

// The previous manifold's axis first, where it is still within the allowance of the best and its
// contacts attain: 1 with the result (and `used`) filled. A speculative pair whose kept axis clips
// to nothing (a corner just beside the reference face, in and out with the jitter) keeps the kept
// normal at its closest points where that holds (closest_contact), rather than take turns with
// another axis.
static int kept_axis_contacts(const mf_config *config, const mf_pair_frame *frame, const mf_axis_candidates *candidates,
                              const mf_axis *kept, const mf_vec3 *kept_normal, float attain, mf_vec3 *normal,
                              mf_pair_result *result, mf_axis *used)
{
    mf_axis axis = *kept;
    float best = mf_best_separation(candidates), allowance = attain - best;
    if (!mf_measure_axis(frame, candidates->projection, &axis) || !(axis.separation + allowance >= best)) return 0;
    mf_axis resolved = axis; // edge axes get resolved in place; the cache wants them unresolved
    // A penetrating pair's kept edge axis holds while its crossing stays within half the slop of
    // the edges. (A separated pair's edge contact bounds its distance for the cache: it stays
    // exact there.)
    float reach = best < 0.0f ? 0.5f * config->linear_slop : 0.0f;
    uint32_t n = axis_contacts(config, frame, &resolved, candidates->projection, reach, normal, result->contacts);
    float bar = axis.kind == MF_AXIS_EDGES ? attain + mf_edge_axis_noise(candidates->scale, best) : attain;
    if (n == 0 && best >= 0.0f) { // the closest points are the truth: nothing to attain
        n = closest_contact(config, frame, &axis, kept_normal, 1, normal, &result->contacts[0], &result->distance);
        bar = INFINITY;
    }
    if (n == 0 || !(deepest_separation(result->contacts, n) <= bar)) return 0;
    result->count = n;
    *used = axis;
    return 1;
}

// The contacts of a touching pair come from the first of these levels that gives any (after the
// previous manifold's axis, where the cache keeps one: kept_axis_contacts):
//   1. The axes within the slop of the best, in order of preference (a's face, b's face, the edge
//      axis), whose contacts attain the best separation within the allowance: a face whose clip
//      misses where the bodies overlap must not stand for the overlap (it would report them apart).
//      An edge contact lies between the edges' closest points, at its axis' true separation: it
//      attains within the edge axis' own noise (mf_edge_axis_noise), which can exceed the allowance.
//   2. Penetrating pairs: a's and b's best faces even beyond the slop, likewise attaining. A nearly
//      parallel edge pair can look better than the faces by float noise while its edges do not meet.
//   3. Penetrating pairs: every face within the allowance of the best, likewise. A nearly flat
//      surface is many faces of almost the same separation, and the best can lie beside the overlap.
//   4. The first axis of level 1 that gave contacts at all, attaining or not: better than none.
//   5. Penetrating pairs: one contact at the incident hull's deepest vertex (a deep overlap of small
//      faces that miss each other). It lies on the incident surface and the reference face's plane.
//   6. Speculative pairs: one contact at the hulls' closest points if they are nearer than the
//      margin. The true distance decides, not the clip: the faces of the best axis can miss each
//      other while the hulls come close beside them.
void mf_contacts_for_pair(const mf_config *config, const mf_pair_frame *frame, const mf_axis_candidates *candidates,
                          const mf_axis *kept, const mf_vec3 *kept_normal, const mf_mat3 *rotation_a,
                          mf_vec3 position_a, mf_pair_result *result, mf_axis *used)
{
    MF_ASSERT((kept == NULL) == (kept_normal == NULL));
    float best = mf_best_separation(candidates), allowance = mf_rank_allowance(candidates, config->linear_slop);
    float attain = best + allowance;
    int penetrating = best < 0.0f;
    result->distance = INFINITY;
    const mf_face_query *a = &candidates->face_a, *b = &candidates->face_b;
    mf_vec3 kept_axis_normal = {0, 0, 0};
    if (kept != NULL &&
        kept_axis_contacts(config, frame, candidates, kept, kept_normal, attain, &kept_axis_normal, result, used)) {
        to_world(rotation_a, position_a, kept_axis_normal, result);
        return;
    }
    mf_axis ranked[5];
    uint32_t first_level = mf_rank_axes(candidates, config->linear_slop, ranked), count = first_level;
    if (penetrating) {
        ranked[count++] = (mf_axis){MF_AXIS_FACE_A, a->separation, a->face, 0, {0, 0, 0}};
        ranked[count++] = (mf_axis){MF_AXIS_FACE_B, b->separation, 0, b->face, {0, 0, 0}};
    }
    mf_vec3 normal = {0, 0, 0};
    mf_contact contacts[MF_MAX_CONTACTS];
    uint32_t fallback = count, fallback_count = 0;
    mf_vec3 fallback_normal = {0, 0, 0};
    result->count = 0;
    for (uint32_t r = 0; r < count && result->count == 0; ++r) { // levels 1 and 2
        mf_axis axis = ranked[r]; // edge axes get resolved in place; the cache wants them unresolved
        uint32_t n = axis_contacts(config, frame, &axis, candidates->projection, 0.0f, &normal, contacts);
        float bar = axis.kind == MF_AXIS_EDGES ? attain + mf_edge_axis_noise(candidates->scale, best) : attain;
        if (n > 0 && deepest_separation(contacts, n) <= bar) {
            result->count = n;
            memcpy(result->contacts, contacts, n * sizeof(mf_contact));
            *used = ranked[r];
        } else if (n > 0 && r < first_level && fallback_count == 0) {
            fallback = r, fallback_count = n, fallback_normal = normal;
            memcpy(result->contacts, contacts, n * sizeof(mf_contact)); // kept until something attains
        }
    }
    if (result->count == 0 && penetrating) { // level 3
        result->count = nearby_face_contacts(config, frame, best, allowance, attain, &normal, contacts, used);
        if (result->count > 0) memcpy(result->contacts, contacts, result->count * sizeof(mf_contact));
    }
    if (result->count == 0 && fallback_count > 0) { // level 4
        result->count = fallback_count;
        normal = fallback_normal;
        *used = ranked[fallback];
    }
    if (result->count == 0) *used = ranked[0];
    if (result->count == 0 && penetrating) { // level 5
        mf_axis face = a->separation >= b->separation ? (mf_axis){MF_AXIS_FACE_A, a->separation, a->face, 0, {0, 0, 0}}
                                                      : (mf_axis){MF_AXIS_FACE_B, b->separation, 0, b->face, {0, 0, 0}};
        result->count = deepest_vertex_contact(frame, &face, &normal, &result->contacts[0]);
        *used = face;
    }
    if (result->count == 0 && !penetrating) // level 6
        result->count = closest_contact(config, frame, &ranked[0], kept_normal, 0, &normal, &result->contacts[0],
                                        &result->distance);
    to_world(rotation_a, position_a, normal, result);
}

// The hull's lowest point along `axis`, from the bank's rows (padded past the last: MF_BANK_PAD),
// times the body's scale (positive: the lowest vertex stays the lowest).
static float lowest_along(const mf_extent_kernel *extent, const mf_bank *bank, const mf_shape *shape, float scale,
                          mf_vec3 axis)
{
    uint32_t first = shape->vertex_first;
    return extent->lowest(bank->vertex_x + first, bank->vertex_y + first, bank->vertex_z + first, shape->vertex_count,
                          axis) *
           scale;
}

// q's rotation with 2 / |q|^2 in place of normalising q first (no square root and four
// multiplications fewer: this test proves a gap and needs no bit-exact rotation). Lengths far from
// 1 are normalised as usual, where |q|^2 would leave float's range.
static mf_mat3 rotation_of(mf_quat q)
{
    float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (!(n > MF_QUAT_SQUARED_LOW && n < MF_QUAT_SQUARED_HIGH)) return mf_mat3_from_quat(mf_quat_normalize(q));
    float s = 2.0f / n, xs = q.x * s, ys = q.y * s, zs = q.z * s;
    float xx = q.x * xs, yy = q.y * ys, zz = q.z * zs, xy = q.x * ys, xz = q.x * zs, yz = q.y * zs;
    float wx = q.w * xs, wy = q.w * ys, wz = q.w * zs;
    mf_mat3 m;
    m.row[0] = (mf_vec3){1.0f - (yy + zz), xy - wz, xz + wy};
    m.row[1] = (mf_vec3){xy + wz, 1.0f - (xx + zz), yz - wx};
    m.row[2] = (mf_vec3){xz - wy, yz + wx, 1.0f - (xx + yy)};
    return m;
}

int mf_apart_along_centres(const mf_extent_kernel *extent, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                           float margin)
{
    const mf_transform *ta = &bodies->transform[pair.a], *tb = &bodies->transform[pair.b];
    const mf_shape *a = &bank->shapes[bodies->shape[pair.a]], *b = &bank->shapes[bodies->shape[pair.b]];
    // Small hulls' queries cost about what this test does.
    if (a->vertex_count + b->vertex_count < MF_APART_MIN_VERTICES) return 0;
    // Each shape's lengths times its body's scale (scale.h), as its scaled copy holds them.
    float scale_a = mf_body_scale(bodies, pair.a), scale_b = mf_body_scale(bodies, pair.b);
    // Each hull holds a ball around its centroid, so the gap along the centroids' line is at most
    // their distance less the balls' radii: most touching pairs are let through here, cheaply.
    // Squared, and with each shape's part known beforehand: most pairs stop here.
    float needed = margin - a->centroid_slack * scale_a - b->centroid_slack * scale_b;
    mf_vec3 apart = mf_sub(tb->p, ta->p);
    if (needed > 0.0f && !(mf_dot(apart, apart) >= needed * needed)) return 0;
    mf_mat3 rotation_a = rotation_of(ta->q), rotation_b = rotation_of(tb->q);
    mf_vec3 centre_a = mf_add(mf_mat3_mul(&rotation_a, mf_scale(a->centroid, scale_a)), ta->p);
    mf_vec3 centre_b = mf_add(mf_mat3_mul(&rotation_b, mf_scale(b->centroid, scale_b)), tb->p);
    mf_vec3 between = mf_sub(centre_b, centre_a);
    float length = mf_length(between);
    if (!(length - a->inner_radius * scale_a - b->inner_radius * scale_b >= margin) || !(length > 0.0f)) return 0;
    mf_vec3 axis = mf_scale(between, 1.0f / length);
    // Each hull's extent along the axis, in its own frame: a's highest point, b's lowest.
    mf_vec3 axis_a = mf_mat3_mul_transposed(&rotation_a, axis), axis_b = mf_mat3_mul_transposed(&rotation_b, axis);
    float high_a = -lowest_along(extent, bank, a, scale_a, mf_neg(axis_a)),
          low_b = lowest_along(extent, bank, b, scale_b, axis_b);
    return low_b + mf_dot(axis, tb->p) - (high_a + mf_dot(axis, ta->p)) >= margin;
}

void mf_collide_pair(const mf_config *config, const mf_wide_kernel *kernel, mf_pair_scratch *scratch,
                     const mf_bank *bank, const mf_bodies *bodies, mf_pair pair, const mf_axis *kept,
                     const mf_vec3 *kept_normal, mf_pair_result *result, mf_axis_candidates *candidates, mf_axis *used)
{
    mf_mat3 rotation_a;
    mf_pair_frame frame;
    mf_frame_setup(bank, bodies, pair, scratch, 1, kernel, &rotation_a, &frame);
    result->count = 0;
    result->distance = INFINITY;
    *used = (mf_axis){MF_AXIS_FACE_A, 0, 0, 0, {0, 0, 0}};
    mf_query_scratch query = mf_query_scratch_of(scratch);
    if (mf_query_pair(&frame, config, kernel->faces, &kernel->edge, &kernel->box_hull, &query, candidates))
        mf_contacts_for_pair(config, &frame, candidates, kept, kept_normal, &rotation_a, bodies->transform[pair.a].p,
                             result, used);
}
