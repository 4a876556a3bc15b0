// Box against box for W pairs at once, from the bodies to the finished manifolds, in SIMD lanes:
//   1. gather the poses; unit quaternions, rotations, b's pose in a's frame (R, t)
//   2. separating axes in closed form: a's faces |t_k| - a_k - sum_j |R_kj| b_j, b's faces
//      likewise, and the 9 edge-direction axes (the classic box test), then the biased choice of
//      the ranking in sat.c (a's face, b's face, edges, each within the slop of the best)
//   3. a face axis: reference face and incident face (the other box's face most anti-parallel,
//      which holds its deepest vertex), both seen from the reference face (u, v, normal)
//   4. the clip in fixed slots (as MJX's _clip and Bepu's box pair tester do it): incident
//      corners inside the reference rectangle, reference corners inside the incident face (moved
//      onto its plane along the normal), and where each incident edge enters and leaves the
//      rectangle (Cyrus-Beck); the polygon Sutherland-Hodgman would produce has exactly these
//      vertices, each with its pair of features
//   5. reduction to max_contacts by masked arg-max passes: deepest, farthest, largest triangle,
//      largest area outside it, then farthest from all chosen (Catto; Box3D)
//   6. an edge axis: the closest points of the two supporting edges
//   7. contacts to world space in lanes, then per lane the feature ids and the result
// Steps 3 to 5 are most of the work and concern face lanes only: the face lanes of a bundle that
// also holds edge lanes or lanes apart wait in a queue until W of them fill a bundle of their own.
// Compiled per ISA and with width 1 for the scalar path; every operation is one IEEE operation,
// so all builds agree bit for bit. Step 2 is in box_queries.h, steps 3 and 4 in box_clip.h, step 5
// in box_reduce.h, step 6 and the feature ids in box_features.h: headers this file alone includes,
// so the pass stays one translation unit per ISA and its lane code inlines. This file gathers,
// queues face lanes, drives the bundles and writes the results.
#include "box_pass.h"
#include "core.h"
#include "tolerances.h"

#include "box_clip.h"
#include "box_features.h"
#include "box_queries.h"
#include "box_reduce.h"
#include "clip.h"
#include "lanes4.h"
#include "scale.h"
#include "wide.h"

#include <stddef.h>
#include <string.h>

enum { W = MF_WIDE_WIDTH };

// One bundle's inputs, lane by lane: raw quaternions, positions, half extents of a (0) and b (1).
typedef struct box_inputs {
    _Alignas(64) float q[2][4][W];
    _Alignas(64) float p[2][3][W];
    _Alignas(64) float h[2][3][W];
    _Alignas(64) float scale[W];
} box_inputs;

// What the lanes hand to the per-lane output: everything as floats, lane by lane.
enum {
    OUT_TOUCHING, // 1 when the pair is closer than the margin
    OUT_EDGE,     // 1 when the edge axis was chosen
    OUT_FALLBACK, // 1 when the chosen axis gave no contact
    OUT_REF_A,    // 1 when a's face is the reference
    OUT_COUNT,
    OUT_FACE_A,
    OUT_SEP_A,
    OUT_FACE_B,
    OUT_SEP_B, // the face queries (bank face indices)
    OUT_EDGE_A,
    OUT_EDGE_B,
    OUT_SEP_E,                        // edge query: axis of a, axis of b
    OUT_EDGE_NORMAL,                  // 3: edge axis in a's frame
    OUT_NORMAL = OUT_EDGE_NORMAL + 3, // 3: world normal, a to b
    OUT_ROWS = OUT_NORMAL + 3,
    // The queries' rows, which the cache entry is made of: OUT_FACE_A to the edge normal.
    QUERY_ROWS = OUT_NORMAL - OUT_FACE_A
};

// The contacts are kept apart from the rows: contact n's point and separation, the four rows
// transposed within each quarter of the lanes (store_contact), so that lane l's four floats lie
// together at contact[n][l % 4][4 (l / 4)], one 16-byte copy from an mf_contact.
typedef struct box_outputs {
    _Alignas(64) float row[OUT_ROWS][W];
    _Alignas(64) float contact[MF_MAX_CONTACTS][4][W];
    _Alignas(64) uint32_t id[MF_MAX_CONTACTS][W]; // contact n's id: a's feature code << 16 | b's
} box_outputs;

#if MF_WIDE_WIDTH == 1
static void gather(const mf_box_job *job, uint32_t first, uint32_t lanes, box_inputs *in)
{
    (void)lanes;
    mf_pair pair = job->pairs[job->list[first]];
    const uint32_t body[2] = {pair.a, pair.b};
    float radius = 0.0f;
    for (int h = 0; h < 2; ++h) {
        const mf_transform *t = &job->bodies->transform[body[h]];
        const mf_shape *shape = &job->bank->shapes[job->bodies->shape[body[h]]];
        float scale = mf_body_scale(job->bodies, body[h]);
        in->q[h][0][0] = t->q.x, in->q[h][1][0] = t->q.y, in->q[h][2][0] = t->q.z, in->q[h][3][0] = t->q.w;
        in->p[h][0][0] = t->p.x, in->p[h][1][0] = t->p.y, in->p[h][2][0] = t->p.z;
        in->h[h][0][0] = shape->half_extents.x * scale;
        in->h[h][1][0] = shape->half_extents.y * scale;
        in->h[h][2][0] = shape->half_extents.z * scale;
        radius += shape->radius * scale;
    }
    in->scale[0] = radius;
}
#else
// A transform's position loads as a vector with q.x after it, its quaternion as one; a box's half
// extents with the four bytes after them in its shape.
_Static_assert(offsetof(mf_shape, half_extents) + 4 * sizeof(float) <= sizeof(mf_shape), "half extents and more");

// Each lane's quaternion, position and half extents loaded as vectors, then each quantity's W
// vectors transposed into rows in registers (mf_columns4w) and stored a row at a time. Half extents
// and radii are times the body's scale (scale.h), as the width-1 gather takes them. Lanes past
// `lanes` repeat the first pair.
static inline void gather_lanes(const mf_box_job *job, uint32_t first, uint32_t lanes, int scaled, box_inputs *in,
                                simde__m128 q[2][W], simde__m128 p[2][W], simde__m128 h[2][W])
{
    // The arrays in locals, read once: the stores below might alias the job's fields for the
    // compiler, which read them again for every lane.
    const mf_pair *pairs = job->pairs;
    const uint32_t *list = job->list + first, *body_shape = job->bodies->shape;
    const mf_transform *transforms = job->bodies->transform;
    const mf_shape *shapes = job->bank->shapes;
    const float *scales = job->bodies->scales;
    for (uint32_t l = 0; l < W; ++l) {
        mf_pair pair = pairs[list[l < lanes ? l : 0]];
        const uint32_t body[2] = {pair.a, pair.b};
        float radius = 0.0f;
        for (int b = 0; b < 2; ++b) {
            const mf_shape *shape = &shapes[body_shape[body[b]]];
            const char *extents = (const char *)shape + offsetof(mf_shape, half_extents);
            mf_transform_load4(&transforms[body[b]], &p[b][l], &q[b][l]);
            h[b][l] = simde_mm_loadu_ps((const float *)(const void *)extents);
            // Unscaled bodies (no scales: each instance of this function is built for one case)
            // take neither the multiplications nor the test.
            float scale = scaled ? scales[body[b]] : 1.0f;
            if (scaled && scale != 1.0f) h[b][l] = simde_mm_mul_ps(h[b][l], simde_mm_set1_ps(scale));
            radius += scaled ? shape->radius * scale : shape->radius;
        }
        in->scale[l] = radius;
    }
}

static void gather(const mf_box_job *job, uint32_t first, uint32_t lanes, box_inputs *in)
{
    simde__m128 q[2][W], p[2][W], h[2][W];
    if (job->bodies->scales != NULL) gather_lanes(job, first, lanes, 1, in, q, p, h);
    else gather_lanes(job, first, lanes, 0, in, q, p, h);
    for (int b = 0; b < 2; ++b) {
        mf_floatw rows[4];
        mf_columns4w(q[b], rows);
        for (int i = 0; i < 4; ++i) mf_storew(in->q[b][i], rows[i]);
        mf_columns4w(p[b], rows); // the fourth row is q.x, loaded with the position
        for (int i = 0; i < 3; ++i) mf_storew(in->p[b][i], rows[i]);
        mf_columns4w(h[b], rows);
        for (int i = 0; i < 3; ++i) mf_storew(in->h[b][i], rows[i]);
    }
}
#endif

// A box's rotation as a 3x3 array: m[i][j] is row i, column j.
static void rotation_of(const box_inputs *in, int h, mf_floatw m[3][3])
{
    mf_floatw q[4];
    for (int i = 0; i < 4; ++i) q[i] = mf_loadw(in->q[h][i]);
    mf_quat_normalizew(q);
    mf_mat3w r = mf_mat3_from_quatw(q[0], q[1], q[2], q[3]);
    for (int i = 0; i < 3; ++i) m[i][0] = r.row[i].x, m[i][1] = r.row[i].y, m[i][2] = r.row[i].z;
}

static mf_mat3w as_mat3w(mf_floatw m[3][3])
{
    mf_mat3w r;
    for (int i = 0; i < 3; ++i) r.row[i] = (mf_vec3w){m[i][0], m[i][1], m[i][2]};
    return r;
}

// m x + p, row by row.
static vec3w transform_point(const mf_floatw (*m)[3], const mf_floatw p[3], const mf_floatw x[3])
{
    vec3w out;
    for (int i = 0; i < 3; ++i)
        out.c[i] =
            mf_addw(mf_addw(mf_addw(mf_mulw(m[i][0], x[0]), mf_mulw(m[i][1], x[1])), mf_mulw(m[i][2], x[2])), p[i]);
    return out;
}

static void store_row(box_outputs *out, int row, mf_floatw value) { mf_storew(out->row[row], value); }

// Contact n of every lane, its point and separation, into the contact quads (box_outputs).
static void store_contact(box_outputs *out, uint32_t n, const mf_floatw point[3], mf_floatw separation)
{
    const mf_floatw rows[4] = {point[0], point[1], point[2], separation};
#if MF_WIDE_WIDTH > 1
    mf_floatw quads[4];
    mf_transpose_quartersw(rows, quads);
    for (int c = 0; c < 4; ++c) mf_storew(out->contact[n][c], quads[c]);
#else
    for (int c = 0; c < 4; ++c) out->contact[n][c][0] = rows[c];
#endif
}

static void store_mask(box_outputs *out, int row, mf_maskw mask)
{
    store_row(out, row, mf_selectw(mask, mf_splatw(1.0f), mf_splatw(0.0f)));
}

// What the face lanes' steps 3 to 5 and 7 need: in registers for a bundle of face lanes only, or
// queued lane by lane (as rows of floats) until a bundle's worth of them is at hand.
typedef struct face_lanes {
    reference_view view;
    mf_floatw use_a;                       // 1 where a's face is the reference, else 0
    mf_floatw rotation[3][3], position[3]; // the reference box's pose in the world
    mf_floatw best, allowance;             // the best axis's separation and the ranking's allowance
    mf_floatw query[QUERY_ROWS];           // the queries' rows, for the cache; last, as only it reads them
} face_lanes;

enum { FACE_ROWS = sizeof(face_lanes) / sizeof(mf_floatw) };
_Static_assert(sizeof(face_lanes) == FACE_ROWS * sizeof(mf_floatw), "face_lanes is a row of registers");

// Where an output row of the queries sits in face_lanes' query rows.
static inline int query_row(int out_row) { return out_row - OUT_FACE_A; }

// Steps 3 to 5 and 7 for face lanes: clip, reduce, contacts to world space, and each lane's rows.
// A lane without contacts, or whose clip misses where the boxes overlap (its deepest contact does
// not attain the best separation), is marked for the general path, which tries the next axes
// (pair.c, mf_contacts_for_pair).
static void collide_faces(const mf_config *config, const code_tables *codes, const face_lanes *f, box_outputs *out)
{
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f);
    mf_maskw use_a = mf_gtw(f->use_a, zero), all = mf_eqw(zero, zero);
    uint32_t max_contacts = config->max_contacts;
    clip_slots s;
    clip_faces(&f->view, mf_splatw(config->margin), &s);
    slot_choice chosen[MF_MAX_CONTACTS];
    for (uint32_t n = 0; n < max_contacts; ++n) chosen[n] = (slot_choice){zero, zero, {{zero, zero, zero}}};
    mf_floatw count = reduce_slots(&s, max_contacts, chosen);
    face_features features = features_of_faces(&s);
    for (int i = 0; i < 3; ++i) {
        mf_floatw outward = mf_mulw(s.ref_sign, mf_pick3w(f->rotation[i], s.ref_axis));
        store_row(out, OUT_NORMAL + i, mf_selectw(use_a, outward, mf_negw(outward)));
    }
    mf_floatw k1 = mf_next_axisw(s.ref_axis), deepest = mf_splatw(INFINITY);
    for (uint32_t n = 0; n < max_contacts; ++n) {
        // The point sits on the incident face; the midpoint is half the separation back.
        mf_floatw separation = mf_subw(chosen[n].point.c[2], s.top);
        deepest = mf_selectw(mf_ltw(mf_splatw((float)n), count), mf_minw(deepest, separation), deepest);
        mf_floatw w = mf_mulw(s.ref_sign, mf_addw(chosen[n].point.c[2], mf_mulw(mf_splatw(-0.5f), separation)));
        mf_floatw local[3];
        for (int i = 0; i < 3; ++i) {
            mf_floatw index = mf_splatw((float)i);
            local[i] = mf_selectw(mf_eqw(s.ref_axis, index), w,
                                  mf_selectw(mf_eqw(k1, index), chosen[n].point.c[0], chosen[n].point.c[1]));
        }
        vec3w world = transform_point(f->rotation, f->position, local);
        store_contact(out, n, world.c, separation);
        mf_floatw reference, incident;
        face_contact_codes(codes, &features, &chosen[n], &reference, &incident);
        mf_store_code_pairw(out->id[n], mf_selectw(use_a, reference, incident), mf_selectw(use_a, incident, reference));
    }
    mf_maskw misses = mf_orw(mf_eqw(count, zero), mf_andnotw(mf_lew(deepest, mf_addw(f->best, f->allowance)), all));
    store_row(out, OUT_COUNT, count);
    store_mask(out, OUT_FALLBACK, misses);
    store_row(out, OUT_TOUCHING, one);
    store_row(out, OUT_EDGE, zero);
    store_row(out, OUT_REF_A, f->use_a);
}

// Step 6 where `use_edge`: one contact, the midpoint of the supporting edges' closest points, and
// each such lane's rows; a lane whose closest points lie beyond the edges is marked for the
// general path.
static void collide_edges(const code_tables *codes, mf_floatw r[3][3], const vec3w *t, const mf_floatw ha[3],
                          const mf_floatw hb[3], const box_queries *q, mf_floatw rotation_a[3][3],
                          const mf_floatw pa[3], mf_maskw use_edge, box_outputs *out)
{
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f);
    edge_contact edge = contact_of_edges(r, t, ha, hb, q);
    mf_floatw local[3] = {edge.point.c[0], edge.point.c[1], edge.point.c[2]};
    vec3w world = transform_point((const mf_floatw(*)[3])rotation_a, pa, local);
    for (int i = 0; i < 3; ++i) {
        mf_floatw turned = mf_addw(
            mf_addw(mf_mulw(rotation_a[i][0], q->edge_normal.c[0]), mf_mulw(rotation_a[i][1], q->edge_normal.c[1])),
            mf_mulw(rotation_a[i][2], q->edge_normal.c[2]));
        store_row(out, OUT_NORMAL + i, turned);
    }
    store_contact(out, 0, world.c, edge.separation);
    mf_store_code_pairw(out->id[0], edge_code(codes, edge.corner_a, q->edge_a),
                        edge_code(codes, edge.corner_b, q->edge_b));
    store_row(out, OUT_COUNT, mf_selectw(use_edge, one, zero));
    store_mask(out, OUT_FALLBACK, mf_andnotw(edge.ok, use_edge));
}

// Face lanes of mixed bundles wait here, in rows, until W of them fill a bundle: the clip and the
// reduction, most of a bundle's work, then run on face lanes only. (On boxes tumbling into each
// other a third of the lanes take an edge axis; lanes that are apart need neither.)
typedef struct face_queue {
    _Alignas(64) float row[FACE_ROWS][2 * W];
    // Each lane's place in the job's list, as a float (exact: a job lists at most a chunk's pairs),
    // so that it is compressed in with the rows, not lane by lane.
    _Alignas(64) float at[2 * W];
    uint32_t count;
} face_queue;

static void write_results(mf_box_job *job, const uint32_t *at, uint32_t lane_bits, const box_outputs *out);

// The bits of lanes 0 to lanes - 1.
static inline uint32_t first_lanes(uint32_t lanes)
{
    return lanes == W ? (uint32_t)((1ull << W) - 1) : (1u << lanes) - 1u;
}

// The rows a queued lane carries: the queries' rows only where the results write cache entries.
static uint32_t queued_rows(const mf_box_job *job) { return job->answers != NULL ? FACE_ROWS : FACE_ROWS - QUERY_ROWS; }

static void push_faces(const mf_box_job *job, face_queue *queue, const face_lanes *f, uint32_t lane_bits,
                       uint32_t first)
{
    // The count and the row count in locals: the float stores might alias them for the compiler,
    // which read both again for every row.
    const mf_floatw *rows = (const mf_floatw *)(const void *)f;
    uint32_t count = queue->count, row_count = queued_rows(job);
    for (uint32_t i = 0; i < row_count; ++i) mf_compress_storew(&queue->row[i][count], lane_bits, rows[i]);
    queue->count =
        count + mf_compress_storew(&queue->at[count], lane_bits, mf_addw(mf_lane_indexw(), mf_splatw((float)first)));
}

// The first `lanes` queued lanes into f (the lanes after them, at the end of the job, repeat the
// first), their places into `at`, and the rest of the queue to the front. Without cache entries to
// write, f's query rows stay unset, as collide_bundle leaves them: nothing reads them.
static void take_queued(const mf_box_job *job, face_queue *queue, uint32_t lanes, face_lanes *f, uint32_t at[W])
{
    mf_floatw *rows = (mf_floatw *)(void *)f;
    uint32_t row_count = queued_rows(job);
    for (uint32_t i = 0; i < row_count; ++i) rows[i] = mf_loadw(queue->row[i]);
    if (lanes < W) {
        mf_maskw padding = mf_gew(mf_lane_indexw(), mf_splatw((float)lanes));
        for (uint32_t i = 0; i < row_count; ++i) rows[i] = mf_selectw(padding, mf_splatw(queue->row[i][0]), rows[i]);
    }
    mf_store_intw((int32_t *)at, mf_loadw(queue->at)); // W places, those past `lanes` unread
    uint32_t left = queue->count - lanes;
    for (uint32_t i = 0; left > 0 && i < row_count; ++i) mf_storew(queue->row[i], mf_loadw(queue->row[i] + W));
    if (left > 0) mf_storew(queue->at, mf_loadw(queue->at + W));
    queue->count = left;
}

// Steps 1 and 2 for one bundle (lane l is at[l] = first + l in the job's list), and step 6 for its
// edge lanes; results for all but its face lanes. Returns 1 when every lane is a face lane, with f
// ready for steps 3 to 5; else the face lanes join the queue.
static int collide_bundle(mf_box_job *job, const code_tables *codes, uint32_t first, uint32_t lanes,
                          const uint32_t at[W], face_queue *queue, face_lanes *f, box_outputs *out)
{
    const mf_config *config = job->config;
    box_inputs in;
    gather(job, first, lanes, &in);
    mf_floatw rotation_a[3][3], rotation_b[3][3], r[3][3], pa[3], pb[3], ha[3], hb[3];
    rotation_of(&in, 0, rotation_a);
    rotation_of(&in, 1, rotation_b);
    mf_mat3w matrix_a = as_mat3w(rotation_a), matrix_b = as_mat3w(rotation_b);
    mf_mat3w relative = mf_mat3_relativew(&matrix_a, &matrix_b);
    for (int i = 0; i < 3; ++i) {
        r[i][0] = relative.row[i].x, r[i][1] = relative.row[i].y, r[i][2] = relative.row[i].z;
        pa[i] = mf_loadw(in.p[0][i]), pb[i] = mf_loadw(in.p[1][i]);
        ha[i] = mf_loadw(in.h[0][i]), hb[i] = mf_loadw(in.h[1][i]);
    }
    mf_vec3w moved = mf_mat3_mul_transposedw(
        &matrix_a, (mf_vec3w){mf_subw(pb[0], pa[0]), mf_subw(pb[1], pa[1]), mf_subw(pb[2], pa[2])});
    vec3w t = {{moved.x, moved.y, moved.z}};

    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f), margin = mf_splatw(config->margin);
    box_queries q;
    query_faces(r, &t, ha, hb, &q);
    q.edge = mf_splatw(-INFINITY), q.edge_a = zero, q.edge_b = zero, q.edge_normal = (vec3w){{zero, zero, zero}};
    if (mf_anyw(mf_andw(mf_ltw(q.face_a, margin), mf_ltw(q.face_b, margin)))) query_edges(r, &t, ha, hb, &q);

    // The ranking of sat.c: a's face, then b's, then the edges, each if within the allowance.
    mf_floatw best = mf_maxw(mf_maxw(q.face_a, q.face_b), q.edge);
    mf_floatw allowance = // as mf_allowance
        mf_addw(mf_splatw(config->linear_slop),
                mf_mulw(mf_splatw(MF_ALLOWANCE_NOISE), mf_addw(mf_loadw(in.scale), mf_absw(best))));
    mf_maskw all = mf_eqw(zero, zero);
    mf_maskw use_a = mf_gew(mf_addw(q.face_a, allowance), best);
    mf_maskw use_b = mf_andnotw(use_a, mf_gew(mf_addw(q.face_b, allowance), best));
    mf_maskw use_edge = mf_andnotw(mf_orw(use_a, use_b), all);
    mf_maskw touching = mf_ltw(best, margin);
    store_mask(out, OUT_TOUCHING, touching);
    store_mask(out, OUT_EDGE, use_edge);
    store_mask(out, OUT_REF_A, use_a);
    if (job->answers != NULL) { // only the cache's answers read the queries' rows
        mf_floatw two = mf_splatw(2.0f);
        f->query[query_row(OUT_FACE_A)] =
            mf_addw(mf_mulw(two, q.axis_a), mf_selectw(mf_gtw(q.sign_a, zero), one, zero));
        f->query[query_row(OUT_FACE_B)] =
            mf_addw(mf_mulw(two, q.axis_b), mf_selectw(mf_gtw(q.sign_b, zero), one, zero));
        f->query[query_row(OUT_SEP_A)] = q.face_a;
        f->query[query_row(OUT_SEP_B)] = q.face_b;
        f->query[query_row(OUT_SEP_E)] = q.edge;
        f->query[query_row(OUT_EDGE_A)] = q.edge_a;
        f->query[query_row(OUT_EDGE_B)] = q.edge_b;
        for (int i = 0; i < 3; ++i) f->query[query_row(OUT_EDGE_NORMAL) + i] = q.edge_normal.c[i];
        for (int i = 0; i < QUERY_ROWS; ++i) store_row(out, OUT_FACE_A + i, f->query[i]);
    }

    uint32_t in_bundle = first_lanes(lanes);
    mf_maskw faces = mf_andnotw(use_edge, touching);
    uint32_t face_bits = mf_lane_bitsw(faces) & in_bundle;
    f->view = reference_view_of(r, &t, ha, hb, &q, use_a);
    f->use_a = mf_selectw(use_a, one, zero);
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) f->rotation[i][j] = mf_selectw(use_a, rotation_a[i][j], rotation_b[i][j]);
        f->position[i] = mf_selectw(use_a, pa[i], pb[i]);
    }
    f->best = best, f->allowance = allowance;
    if (mf_allw(faces)) return 1;
    mf_maskw edges = mf_andw(use_edge, touching);
    if (mf_anyw(edges)) {
        collide_edges(codes, r, &t, ha, hb, &q, rotation_a, pa, edges, out);
    } else {
        store_row(out, OUT_COUNT, zero);
        store_row(out, OUT_FALLBACK, zero);
    }
    write_results(job, at, in_bundle & ~face_bits, out);
    if (face_bits != 0) push_faces(job, queue, f, face_bits, first);
    return 0;
}

// What the queries found in lane l, as the scalar path reports it, for the cache's answer. (Only
// the cache looks up the shapes: a result without it waits on no chain of loads.)
static mf_axis_candidates lane_candidates(const mf_box_job *job, mf_pair pair, const box_outputs *out, uint32_t l)
{
    const mf_shape *a = &job->bank->shapes[job->bodies->shape[pair.a]];
    const mf_shape *b = &job->bank->shapes[job->bodies->shape[pair.b]];
    float radius_a = a->radius * mf_body_scale(job->bodies, pair.a),
          radius_b = b->radius * mf_body_scale(job->bodies, pair.b);
    uint32_t edge_a = (uint32_t)out->row[OUT_EDGE_A][l], edge_b = (uint32_t)out->row[OUT_EDGE_B][l];
    return (mf_axis_candidates){
        {out->row[OUT_SEP_A][l], (uint32_t)out->row[OUT_FACE_A][l]},
        {out->row[OUT_SEP_B][l], (uint32_t)out->row[OUT_FACE_B][l]},
        {out->row[OUT_SEP_E][l],
         a->box_direction[edge_a],
         b->box_direction[edge_b],
         {out->row[OUT_EDGE_NORMAL][l], out->row[OUT_EDGE_NORMAL + 1][l], out->row[OUT_EDGE_NORMAL + 2][l]}},
        1,
        radius_a + radius_b};
}

// Contact n of lane l: its point and separation from the quads, its id as the lanes made it.
static inline void write_contact(const box_outputs *out, uint32_t l, uint32_t n, mf_contact *contact)
{
    _Static_assert(offsetof(mf_contact, separation) == 3 * sizeof(float), "point and separation lead a contact");
    memcpy(contact, &out->contact[n][l % 4][4 * (l / 4)], 4 * sizeof(float));
    contact->id = out->id[n][l];
}

// Step 7, lane by lane: results, feature ids and the answers for the cache; fallback lanes are
// listed.
static void write_results(mf_box_job *job, const uint32_t *at, uint32_t lane_bits, const box_outputs *out)
{
    // Only as many contacts as the lanes have (edge lanes one, face lanes up to max_contacts).
    uint32_t most = 0;
    for (uint32_t bits = lane_bits; MF_WIDE_WIDTH > 1 && bits != 0; bits &= bits - 1) {
        uint32_t count = (uint32_t)out->row[OUT_COUNT][__builtin_ctz(bits)];
        most = count > most ? count : most;
    }
    MF_ASSERT(most <= job->config->max_contacts);
    for (uint32_t bits = lane_bits; bits != 0; bits &= bits - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(bits);
#define LANE(index) (out->row[index][l])
        uint32_t p = job->list[at[l]];
        mf_pair_result *result = &job->results[p];
        result->count = 0;
        if (LANE(OUT_FALLBACK) != 0.0f && LANE(OUT_TOUCHING) != 0.0f) {
            job->fallback[job->fallback_count++] = p;
            continue;
        }
        if (LANE(OUT_TOUCHING) == 0.0f) {
            if (job->answers != NULL) {
                mf_axis_candidates candidates = lane_candidates(job, job->pairs[p], out, l);
                // A lane apart along a face had the edge query run for the bundle's other lanes; a
                // pass of one lane skips it, and so does the answer: the cache's entry is the same
                // bytes on every ISA.
                float margin = job->config->margin;
                if (!(candidates.face_a.separation < margin && candidates.face_b.separation < margin))
                    candidates.edge.separation = -INFINITY, candidates.edge.normal = (mf_vec3){0.0f, 0.0f, 0.0f};
                job->answers[p] = mf_searched_answer(&candidates, NULL);
            }
            continue;
        }
        uint32_t count = (uint32_t)LANE(OUT_COUNT);
        MF_ASSERT(count >= 1 && count <= job->config->max_contacts);
        result->normal = (mf_vec3){LANE(OUT_NORMAL), LANE(OUT_NORMAL + 1), LANE(OUT_NORMAL + 2)};
        // Every lane copies as many contacts as the bundle's most: a loop whose length is the same
        // for each lane, where one of each lane's own length (3 or 4 on resting boxes, at random)
        // mispredicts its exit. The copies past the count are never read.
        uint32_t copies = MF_WIDE_WIDTH > 1 ? most : count;
        for (uint32_t n = 0; n < copies; ++n) write_contact(out, l, n, &result->contacts[n]);
        result->count = count;
        result->distance = INFINITY;
        if (job->answers != NULL) {
            int edge = LANE(OUT_EDGE) != 0.0f, reference_is_a = LANE(OUT_REF_A) != 0.0f;
            mf_axis_candidates candidates = lane_candidates(job, job->pairs[p], out, l);
            mf_axis used =
                edge ? (mf_axis){MF_AXIS_EDGES, candidates.edge.separation, candidates.edge.edge_a,
                                 candidates.edge.edge_b, candidates.edge.normal}
                : reference_is_a
                    ? (mf_axis){MF_AXIS_FACE_A, candidates.face_a.separation, candidates.face_a.face, 0, {0, 0, 0}}
                    : (mf_axis){MF_AXIS_FACE_B, candidates.face_b.separation, 0, candidates.face_b.face, {0, 0, 0}};
            job->answers[p] = mf_searched_answer(&candidates, &used);
        }
#undef LANE
    }
}

void MF_NAMED(mf_box_pairs, MF_WIDE_NAME)(mf_box_job *job)
{
    MF_ASSERT(job->count == 0 || (job->list != NULL && job->results != NULL && job->fallback != NULL));
    MF_ASSERT(job->config->max_contacts >= 1 && job->config->max_contacts <= MF_MAX_CONTACTS);
    MF_ASSERT(job->count <= 1u << 24); // the queue's places are exact as floats
    box_outputs out;
    // Rows a lane leaves unwritten are copied past its count (write_results): zero, not indeterminate.
    memset(&out, 0, sizeof(out));
    face_queue queue;
    queue.count = 0;
    code_tables codes;
    code_tables_make(&codes);
    job->fallback_count = 0;
    // Face lanes go through collide_faces at this one place: a bundle whose lanes all are, else a
    // full queue, and at the end what is left in the queue.
    for (uint32_t first = 0;;) {
        face_lanes f;
        uint32_t at[W], lanes;
        int queued;
        if (first < job->count) {
            uint32_t left = job->count - first;
            lanes = left > W ? W : left;
            for (uint32_t l = 0; l < W; ++l) at[l] = first + l;
            queued = !collide_bundle(job, &codes, first, lanes, at, &queue, &f, &out);
            first += W;
            if (queued && queue.count < W) continue;
        } else if (queue.count > 0) {
            queued = 1;
        } else {
            break;
        }
        if (queued) {
            lanes = queue.count < W ? queue.count : W;
            take_queued(job, &queue, lanes, &f, at);
        }
        collide_faces(job->config, &codes, &f, &out);
        if (queued && job->answers != NULL)
            for (int i = 0; i < QUERY_ROWS; ++i) store_row(&out, OUT_FACE_A + i, f.query[i]);
        write_results(job, at, first_lanes(lanes), &out);
    }
}
