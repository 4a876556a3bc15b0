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
// so all builds agree bit for bit.
#include "box_pass.h"

#include "clip.h"
#include "lanes4.h"
#include "scale.h"
#include "wide.h"

#include <assert.h>
#include <stddef.h>

#define MF_GLUE(a, b) a##_##b
#define MF_NAMED(a, b) MF_GLUE(a, b)

enum { W = MF_WIDE_WIDTH, SLOTS = 16 };

// Slots of the clip: 0-3 incident corners, 4-7 reference corners, 8 + 2i and 9 + 2i where
// incident edge i (corner i to corner i + 1) enters and leaves the reference rectangle.
enum { SLOT_INCIDENT = 0, SLOT_REFERENCE = 4, SLOT_EDGES = 8 };
_Static_assert(SLOT_EDGES + 8 == SLOTS, "slots: 4 incident corners, 4 reference corners, 4 edges x 2");

// Corner i of a face in its (u, v) axes; corners run so that i and i + 1 share an edge, and side
// i of the reference rectangle runs from corner i to corner i + 1.
static const float corner_u[4] = {-1.0f, 1.0f, 1.0f, -1.0f};
static const float corner_v[4] = {-1.0f, -1.0f, 1.0f, 1.0f};
// The corner each slot starts from: its incident corner, reference corner, or edge's first corner.
static const float slot_corner[SLOTS] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 0, 1, 1, 2, 2, 3, 3};
// Each slot's number as a float, broadcast from memory: converting the loop's integer would merge
// into a register's stale upper lanes and wait on whatever last wrote it.
static const float slot_number[SLOTS] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

typedef struct vec3w {
    mf_floatw c[3];
} vec3w;

static inline mf_floatw dot3(const vec3w *a, const vec3w *b)
{
    return mf_addw(mf_addw(mf_mulw(a->c[0], b->c[0]), mf_mulw(a->c[1], b->c[1])), mf_mulw(a->c[2], b->c[2]));
}

// v[index] per lane, index 0, 1 or 2 held as a float.
static inline mf_floatw pick3(const mf_floatw v[3], mf_floatw index)
{
    return mf_selectw(mf_eqw(index, mf_splatw(0.0f)), v[0], mf_selectw(mf_eqw(index, mf_splatw(1.0f)), v[1], v[2]));
}

static inline mf_floatw next_axis(mf_floatw index)
{
    return mf_selectw(mf_eqw(index, mf_splatw(2.0f)), mf_splatw(0.0f), mf_addw(index, mf_splatw(1.0f)));
}

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
    OUT_CONTACTS = OUT_NORMAL + 3,    // per contact: point (3), separation, a's and b's feature codes
    OUT_CONTACT_FLOATS = 6,
    OUT_ROWS = OUT_CONTACTS + MF_MAX_CONTACTS * OUT_CONTACT_FLOATS,
    // The queries' rows, which the cache entry is made of: OUT_FACE_A to the edge normal.
    QUERY_ROWS = OUT_NORMAL - OUT_FACE_A
};

typedef struct box_outputs {
    _Alignas(64) float row[OUT_ROWS][W];
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

// Four lanes at a time: each lane's quaternion, position and half extents loaded as vectors, and
// each 4x4 block transposed so that a row's four lanes store as one (as bin.c's copy_component).
// Half extents and radii are times the body's scale (scale.h), as the width-1 gather takes them.
// Lanes past `lanes` repeat the first pair.
static void gather(const mf_box_job *job, uint32_t first, uint32_t lanes, box_inputs *in)
{
    const mf_bank *bank = job->bank;
    const mf_bodies *bodies = job->bodies;
    for (uint32_t l0 = 0; l0 < W; l0 += 4) {
        simde__m128 q[2][4], p[2][4], h[2][4];
        for (uint32_t k = 0; k < 4; ++k) {
            uint32_t l = l0 + k;
            mf_pair pair = job->pairs[job->list[first + (l < lanes ? l : 0)]];
            const uint32_t body[2] = {pair.a, pair.b};
            float radius = 0.0f;
            for (int b = 0; b < 2; ++b) {
                const mf_transform *t = &bodies->transform[body[b]];
                const mf_shape *shape = &bank->shapes[bodies->shape[body[b]]];
                const char *extents = (const char *)shape + offsetof(mf_shape, half_extents);
                float scale = mf_body_scale(bodies, body[b]);
                mf_transform_load4(t, &p[b][k], &q[b][k]);
                h[b][k] = simde_mm_loadu_ps((const float *)(const void *)extents);
                if (scale != 1.0f) h[b][k] = simde_mm_mul_ps(h[b][k], simde_mm_set1_ps(scale));
                radius += shape->radius * scale;
            }
            in->scale[l] = radius;
        }
        for (int b = 0; b < 2; ++b) {
            SIMDE_MM_TRANSPOSE4_PS(q[b][0], q[b][1], q[b][2], q[b][3]);
            SIMDE_MM_TRANSPOSE4_PS(p[b][0], p[b][1], p[b][2], p[b][3]);
            SIMDE_MM_TRANSPOSE4_PS(h[b][0], h[b][1], h[b][2], h[b][3]);
            for (int i = 0; i < 4; ++i) simde_mm_store_ps(&in->q[b][i][l0], q[b][i]);
            for (int i = 0; i < 3; ++i) {
                simde_mm_store_ps(&in->p[b][i][l0], p[b][i]);
                simde_mm_store_ps(&in->h[b][i][l0], h[b][i]);
            }
        }
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

// The separating-axis queries of both boxes, b seen from a: R (b's axes are its columns), t.
typedef struct box_queries {
    mf_floatw face_a, axis_a, sign_a; // best face of a: separation, axis, side (+1 or -1)
    mf_floatw face_b, axis_b, sign_b; // of b, the side facing a
    mf_floatw edge, edge_a, edge_b;   // best edge-direction axis: separation, a's axis, b's axis
    vec3w edge_normal;                // a to b, in a's frame
    mf_floatw b_on_t[3];              // t . column j: a's centre seen along b's axes, negated
} box_queries;

static void query_faces(mf_floatw r[3][3], const vec3w *t, const mf_floatw ha[3], const mf_floatw hb[3], box_queries *q)
{
    mf_floatw ar[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) ar[i][j] = mf_absw(r[i][j]);
    mf_floatw one = mf_splatw(1.0f), minus_one = mf_splatw(-1.0f), zero = mf_splatw(0.0f);
    q->face_a = mf_splatw(-INFINITY), q->axis_a = zero, q->sign_a = one;
    for (int k = 0; k < 3; ++k) {
        mf_floatw extent_b =
            mf_addw(mf_addw(mf_mulw(ar[k][0], hb[0]), mf_mulw(ar[k][1], hb[1])), mf_mulw(ar[k][2], hb[2]));
        mf_floatw separation = mf_subw(mf_subw(mf_absw(t->c[k]), ha[k]), extent_b);
        mf_maskw better = mf_gtw(separation, q->face_a);
        q->face_a = mf_selectw(better, separation, q->face_a);
        q->axis_a = mf_selectw(better, mf_splatw((float)k), q->axis_a);
        q->sign_a = mf_selectw(better, mf_selectw(mf_gtw(t->c[k], zero), one, minus_one), q->sign_a);
    }
    q->face_b = mf_splatw(-INFINITY), q->axis_b = zero, q->sign_b = one;
    for (int j = 0; j < 3; ++j) {
        mf_floatw extent_a =
            mf_addw(mf_addw(mf_mulw(ar[0][j], ha[0]), mf_mulw(ar[1][j], ha[1])), mf_mulw(ar[2][j], ha[2]));
        mf_floatw along =
            mf_addw(mf_addw(mf_mulw(t->c[0], r[0][j]), mf_mulw(t->c[1], r[1][j])), mf_mulw(t->c[2], r[2][j]));
        q->b_on_t[j] = along;
        mf_floatw separation = mf_subw(mf_subw(mf_absw(along), hb[j]), extent_a);
        mf_maskw better = mf_gtw(separation, q->face_b);
        q->face_b = mf_selectw(better, separation, q->face_b);
        q->axis_b = mf_selectw(better, mf_splatw((float)j), q->axis_b);
        // b's face towards a: against its axis when a lies on the negative side.
        q->sign_b = mf_selectw(better, mf_selectw(mf_gtw(along, zero), minus_one, one), q->sign_b);
    }
}

// The 9 axes e_k x column_j, as mf_query_edge_directions measures them: the gap of the
// projections, oriented from a to b; nearly parallel pairs are skipped. Component k of such an
// axis is exactly 0, so the sums below leave out its products: adding a zero changes no sum of
// finite terms but the sign of a zero result, which the absolute values drop. (The projection of
// t keeps it: a product with an infinite t is NaN.)
static void query_edges(mf_floatw r[3][3], const vec3w *t, const mf_floatw ha[3], const mf_floatw hb[3], box_queries *q)
{
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f), sine = mf_splatw(MF_PARALLEL_SINE);
    q->edge = mf_splatw(-INFINITY), q->edge_a = zero, q->edge_b = zero;
    q->edge_normal = (vec3w){{zero, zero, zero}};
    vec3w columns[3];
    for (int j = 0; j < 3; ++j) columns[j] = (vec3w){{r[0][j], r[1][j], r[2][j]}};
    for (int k = 0; k < 3; ++k) {
        int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        for (int j = 0; j < 3; ++j) {
            // e_k x c has c[k2] in component k1, -c[k1] in component k2.
            mf_floatw u = mf_negw(columns[j].c[k2]), v = columns[j].c[k1];
            mf_floatw length = mf_sqrtw(mf_addw(mf_mulw(u, u), mf_mulw(v, v)));
            mf_maskw valid = mf_gew(length, sine);
            if (!mf_anyw(valid)) continue;
            mf_floatw inverse = mf_divw(one, mf_selectw(valid, length, one));
            u = mf_mulw(u, inverse), v = mf_mulw(v, inverse);
            vec3w axis;
            axis.c[k] = zero, axis.c[k1] = u, axis.c[k2] = v;
            mf_floatw extent_a = mf_addw(mf_mulw(ha[k1], mf_absw(u)), mf_mulw(ha[k2], mf_absw(v)));
            mf_floatw on_b[3];
            for (int m = 0; m < 3; ++m)
                on_b[m] = mf_absw(mf_addw(mf_mulw(u, columns[m].c[k1]), mf_mulw(v, columns[m].c[k2])));
            mf_floatw extent_b =
                mf_addw(mf_addw(mf_mulw(hb[0], on_b[0]), mf_mulw(hb[1], on_b[1])), mf_mulw(hb[2], on_b[2]));
            mf_floatw along = dot3(&axis, t);
            mf_floatw separation = mf_subw(mf_subw(mf_absw(along), extent_a), extent_b);
            mf_maskw flip = mf_ltw(along, zero);
            mf_maskw better = mf_andw(valid, mf_gtw(separation, q->edge));
            q->edge = mf_selectw(better, separation, q->edge);
            q->edge_a = mf_selectw(better, mf_splatw((float)k), q->edge_a);
            q->edge_b = mf_selectw(better, mf_splatw((float)j), q->edge_b);
            for (int i = 0; i < 3; ++i)
                q->edge_normal.c[i] =
                    mf_selectw(better, mf_selectw(flip, mf_negw(axis.c[i]), axis.c[i]), q->edge_normal.c[i]);
        }
    }
}

// The clip's candidates of one face axis, in the reference face's axes (u, v, outward normal).
typedef struct clip_slots {
    mf_floatw x[SLOTS], y[SLOTS], z[SLOTS], separation[SLOTS], side[SLOTS];
    mf_maskw keep[SLOTS];
    mf_floatw ref_axis, ref_sign, inc_axis, inc_sign;
    mf_floatw top; // the reference face's height along its normal
} clip_slots;

static void set_slot(clip_slots *s, int slot, const vec3w *p, mf_maskw exists, mf_floatw top, mf_floatw margin)
{
    s->x[slot] = p->c[0], s->y[slot] = p->c[1], s->z[slot] = p->c[2];
    s->separation[slot] = mf_subw(p->c[2], top);
    s->keep[slot] = mf_andw(exists, mf_ltw(s->separation[slot], margin));
}

// Where incident edge p -> p + delta crosses the slab |coordinate| <= half: entry and exit
// parameters and the sides they cross (`low_side` at -half, `high_side` at +half).
static void slab(mf_floatw p, mf_floatw delta, mf_floatw half, float low_side, float high_side, mf_floatw *enter,
                 mf_floatw *exit, mf_floatw *enter_side, mf_floatw *exit_side)
{
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f);
    mf_maskw moving = mf_andnotw(mf_eqw(delta, zero), mf_eqw(zero, zero));
    mf_floatw safe = mf_selectw(moving, delta, one);
    mf_floatw t_low = mf_divw(mf_subw(mf_negw(half), p), safe), t_high = mf_divw(mf_subw(half, p), safe);
    mf_maskw rising = mf_gtw(delta, zero);
    mf_maskw inside = mf_lew(mf_absw(p), half);
    mf_floatw infinity = mf_splatw(INFINITY), minus_infinity = mf_splatw(-INFINITY);
    *enter = mf_selectw(moving, mf_minw(t_low, t_high), mf_selectw(inside, minus_infinity, infinity));
    *exit = mf_selectw(moving, mf_maxw(t_low, t_high), mf_selectw(inside, infinity, minus_infinity));
    *enter_side = mf_selectw(rising, mf_splatw(low_side), mf_splatw(high_side));
    *exit_side = mf_selectw(rising, mf_splatw(high_side), mf_splatw(low_side));
}

// A face axis seen from the reference box: the incident box's rotation R and position t in its
// frame, both boxes' half extents, and the reference face's axis k and side (+1 or -1).
typedef struct reference_view {
    mf_floatw r[3][3], t[3], half_ref[3], half_inc[3];
    mf_floatw axis, sign;
} reference_view;

// Step 3's frame for every lane, with a's face as reference where `ref_a`, b's elsewhere.
static reference_view reference_view_of(mf_floatw r[3][3], const vec3w *t, const mf_floatw ha[3], const mf_floatw hb[3],
                                        const box_queries *q, mf_maskw ref_a)
{
    reference_view v;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) v.r[i][j] = mf_selectw(ref_a, r[i][j], r[j][i]);
        v.t[i] = mf_selectw(ref_a, t->c[i], mf_negw(q->b_on_t[i]));
        v.half_ref[i] = mf_selectw(ref_a, ha[i], hb[i]);
        v.half_inc[i] = mf_selectw(ref_a, hb[i], ha[i]);
    }
    v.axis = mf_selectw(ref_a, q->axis_a, q->axis_b), v.sign = mf_selectw(ref_a, q->sign_a, q->sign_b);
    return v;
}

// Steps 3 and 4 for every lane.
static void clip_faces(const reference_view *view, mf_floatw margin, clip_slots *s)
{
    mf_floatw k = view->axis, sign = view->sign;
    mf_floatw k1 = next_axis(k), k2 = next_axis(k1);
    s->ref_axis = k, s->ref_sign = sign;
    const mf_floatw(*rr)[3] = view->r;
    const mf_floatw *tr = view->t, *href = view->half_ref, *hinc = view->half_inc;

    // Rows u, v, normal of the reference face: its frame's axes k1, k2 and sign * k.
    mf_floatw m[3][3], tt[3];
    for (int j = 0; j < 3; ++j) {
        mf_floatw column[3] = {rr[0][j], rr[1][j], rr[2][j]};
        m[0][j] = pick3(column, k1);
        m[1][j] = pick3(column, k2);
        m[2][j] = mf_mulw(sign, pick3(column, k));
    }
    tt[0] = pick3(tr, k1), tt[1] = pick3(tr, k2), tt[2] = mf_mulw(sign, pick3(tr, k));
    mf_floatw half_u = pick3(href, k1), half_v = pick3(href, k2), top = pick3(href, k);
    s->top = top;

    // The incident face: the incident box's axis most (anti-)parallel to the normal.
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f);
    mf_floatw j = zero, most = mf_absw(m[2][0]);
    for (int c = 1; c < 3; ++c) {
        mf_maskw better = mf_gtw(mf_absw(m[2][c]), most);
        most = mf_selectw(better, mf_absw(m[2][c]), most);
        j = mf_selectw(better, mf_splatw((float)c), j);
    }
    mf_floatw j1 = next_axis(j), j2 = next_axis(j1);
    vec3w d, a1, a2;
    for (int i = 0; i < 3; ++i) d.c[i] = pick3(m[i], j), a1.c[i] = pick3(m[i], j1), a2.c[i] = pick3(m[i], j2);
    mf_floatw inc_sign = mf_selectw(mf_gtw(d.c[2], zero), mf_splatw(-1.0f), one);
    s->inc_axis = j, s->inc_sign = inc_sign;
    mf_floatw reach = mf_mulw(inc_sign, pick3(hinc, j)), h1 = pick3(hinc, j1), h2 = pick3(hinc, j2);
    vec3w centre, e1, e2, corners[4];
    for (int i = 0; i < 3; ++i) {
        centre.c[i] = mf_addw(tt[i], mf_mulw(reach, d.c[i]));
        e1.c[i] = mf_mulw(h1, a1.c[i]);
        e2.c[i] = mf_mulw(h2, a2.c[i]);
    }
    for (int n = 0; n < 4; ++n) {
        for (int i = 0; i < 3; ++i) {
            mf_floatw along_u = corner_u[n] > 0 ? mf_addw(centre.c[i], e1.c[i]) : mf_subw(centre.c[i], e1.c[i]);
            corners[n].c[i] = corner_v[n] > 0 ? mf_addw(along_u, e2.c[i]) : mf_subw(along_u, e2.c[i]);
        }
    }

    // Incident corners inside the reference rectangle (its boundary counts as inside).
    for (int n = 0; n < 4; ++n) {
        mf_maskw inside = mf_andw(mf_lew(mf_absw(corners[n].c[0]), half_u), mf_lew(mf_absw(corners[n].c[1]), half_v));
        set_slot(s, SLOT_INCIDENT + n, &corners[n], inside, top, margin);
        s->side[SLOT_INCIDENT + n] = zero;
    }
    // Reference corners strictly inside the incident face, moved onto its plane along the normal
    // (strictly: a corner on the incident face's boundary is already an incident corner or edge).
    for (int n = 0; n < 4; ++n) {
        mf_floatw x = mf_mulw(mf_splatw(corner_u[n]), half_u), y = mf_mulw(mf_splatw(corner_v[n]), half_v);
        vec3w offset;
        offset.c[0] = mf_subw(x, centre.c[0]);
        offset.c[1] = mf_subw(y, centre.c[1]);
        offset.c[2] = mf_negw(mf_divw(mf_addw(mf_mulw(offset.c[0], d.c[0]), mf_mulw(offset.c[1], d.c[1])), d.c[2]));
        vec3w p = {{x, y, mf_addw(centre.c[2], offset.c[2])}};
        mf_maskw inside = mf_andw(mf_ltw(mf_absw(dot3(&offset, &a1)), h1), mf_ltw(mf_absw(dot3(&offset, &a2)), h2));
        set_slot(s, SLOT_REFERENCE + n, &p, inside, top, margin);
        s->side[SLOT_REFERENCE + n] = zero;
    }
    // Incident edges entering and leaving the rectangle strictly between their corners. Sides:
    // 0 at v = -half_v, 1 at u = +half_u, 2 at v = +half_v, 3 at u = -half_u.
    for (int n = 0; n < 4; ++n) {
        const vec3w *p = &corners[n], *next = &corners[(n + 1) % 4];
        vec3w delta;
        for (int i = 0; i < 3; ++i) delta.c[i] = mf_subw(next->c[i], p->c[i]);
        mf_floatw enter_u, exit_u, enter_side_u, exit_side_u, enter_v, exit_v, enter_side_v, exit_side_v;
        slab(p->c[0], delta.c[0], half_u, 3.0f, 1.0f, &enter_u, &exit_u, &enter_side_u, &exit_side_u);
        slab(p->c[1], delta.c[1], half_v, 0.0f, 2.0f, &enter_v, &exit_v, &enter_side_v, &exit_side_v);
        mf_maskw v_enters_later = mf_gtw(enter_v, enter_u), v_exits_sooner = mf_ltw(exit_v, exit_u);
        mf_floatw enter = mf_selectw(v_enters_later, enter_v, enter_u);
        mf_floatw exit = mf_selectw(v_exits_sooner, exit_v, exit_u);
        mf_maskw overlap = mf_lew(enter, exit);
        const mf_floatw at[2] = {enter, exit};
        const mf_floatw sides[2] = {mf_selectw(v_enters_later, enter_side_v, enter_side_u),
                                    mf_selectw(v_exits_sooner, exit_side_v, exit_side_u)};
        for (int e = 0; e < 2; ++e) {
            mf_maskw exists = mf_andw(overlap, mf_andw(mf_gtw(at[e], zero), mf_ltw(at[e], one)));
            vec3w crossing;
            for (int i = 0; i < 3; ++i) crossing.c[i] = mf_addw(p->c[i], mf_mulw(at[e], delta.c[i]));
            set_slot(s, SLOT_EDGES + 2 * n + e, &crossing, exists, top, margin);
            s->side[SLOT_EDGES + 2 * n + e] = sides[e];
        }
    }
}

static inline mf_floatw cross2(mf_floatw ax, mf_floatw ay, mf_floatw bx, mf_floatw by)
{
    return mf_subw(mf_mulw(ax, by), mf_mulw(ay, bx));
}

// The slots some lane keeps, in order, and how many: the passes look at no other (a resting box
// keeps only its corners).
static int list_live_slots(const clip_slots *s, int live[SLOTS])
{
    int count = 0;
    for (int k = 0; k < SLOTS; ++k) {
        live[count] = k;
        count += mf_anyw(s->keep[k]);
    }
    return count;
}

static inline mf_floatw distance2(const clip_slots *s, int k, const vec3w *p)
{
    mf_floatw dx = mf_subw(s->x[k], p->c[0]), dy = mf_subw(s->y[k], p->c[1]), dz = mf_subw(s->z[k], p->c[2]);
    return mf_addw(mf_addw(mf_mulw(dx, dx), mf_mulw(dy, dy)), mf_mulw(dz, dz));
}

// A contact the reduction chose, per lane: its slot and point, and what its feature ids are made
// of (the corner the slot starts from, the side of the reference face an edge crossing crosses).
typedef struct slot_choice {
    mf_floatw slot, corner, side;
    vec3w point;
} slot_choice;

// One pass's arg-max: the best score so far and the contact of the slot that holds it. The slot
// comes along as the pass goes, so no second look over the slots is needed to fetch it.
typedef struct slot_pass {
    mf_floatw best;
    slot_choice choice;
} slot_pass;

// Where `better`, `score` becomes the pass's best and `from` its contact.
static inline void take_where(slot_pass *pass, mf_maskw better, mf_floatw score, const slot_choice *from)
{
    slot_choice *c = &pass->choice;
    pass->best = mf_selectw(better, score, pass->best);
    c->slot = mf_selectw(better, from->slot, c->slot);
    c->corner = mf_selectw(better, from->corner, c->corner);
    c->side = mf_selectw(better, from->side, c->side);
    for (int i = 0; i < 3; ++i) c->point.c[i] = mf_selectw(better, from->point.c[i], c->point.c[i]);
}

// The passes of step 5. Those after the first need not mask the slots already chosen: such a slot
// scores exactly 0 there (its distance to itself, a cross product of a vector with itself), or
// NaN, and a slot wins only above the degenerate amount. The outside area alone can be positive at
// a corner of the triangle (one of its cross products is the triangle's area, rounded another
// way), so that pass masks them by slot.
enum { PASS_DEEPEST, PASS_FARTHEST, PASS_WIDEST_TRIANGLE, PASS_OUTSIDE_TRIANGLE, PASS_FARTHEST_FROM_ALL };

// What a pass scores against: the contacts chosen before it, the triangle's corners (b and c
// swapped where it runs clockwise) and sides, and each slot's distance to the nearest chosen.
typedef struct pass_geometry {
    const slot_choice *chosen;
    const mf_floatw *nearest;
    mf_floatw ax, ay, bx, by, cx, cy;
    mf_floatw ab_x, ab_y, bc_x, bc_y, ca_x, ca_y;
} pass_geometry;

static pass_geometry geometry_of(int kind, const slot_choice *chosen, const mf_floatw *nearest)
{
    pass_geometry g = {.chosen = chosen, .nearest = nearest};
    if (kind != PASS_WIDEST_TRIANGLE && kind != PASS_OUTSIDE_TRIANGLE) return g;
    const vec3w *a = &chosen[0].point, *b = &chosen[1].point, *c = &chosen[2].point;
    g.ax = a->c[0], g.ay = a->c[1], g.bx = b->c[0], g.by = b->c[1];
    if (kind == PASS_OUTSIDE_TRIANGLE) {
        mf_maskw ccw = mf_gtw(cross2(mf_subw(b->c[0], a->c[0]), mf_subw(b->c[1], a->c[1]), mf_subw(c->c[0], a->c[0]),
                                     mf_subw(c->c[1], a->c[1])),
                              mf_splatw(0.0f));
        g.bx = mf_selectw(ccw, b->c[0], c->c[0]), g.by = mf_selectw(ccw, b->c[1], c->c[1]);
        g.cx = mf_selectw(ccw, c->c[0], b->c[0]), g.cy = mf_selectw(ccw, c->c[1], b->c[1]);
        g.bc_x = mf_subw(g.cx, g.bx), g.bc_y = mf_subw(g.cy, g.by);
        g.ca_x = mf_subw(g.ax, g.cx), g.ca_y = mf_subw(g.ay, g.cy);
    }
    g.ab_x = mf_subw(g.bx, g.ax), g.ab_y = mf_subw(g.by, g.ay);
    return g;
}

// Slot k's score in the pass and whether it may win (a deepest slot wins by the lowest score).
static inline mf_floatw score_of(int kind, const pass_geometry *g, const clip_slots *s, int k, mf_maskw *open)
{
    *open = s->keep[k];
    switch (kind) {
    case PASS_DEEPEST:
        return s->separation[k];
    case PASS_FARTHEST:
        return distance2(s, k, &g->chosen[0].point);
    case PASS_WIDEST_TRIANGLE:
        return mf_absw(cross2(g->ab_x, g->ab_y, mf_subw(s->x[k], g->ax), mf_subw(s->y[k], g->ay)));
    case PASS_OUTSIDE_TRIANGLE: {
        // The area the slot adds outside triangle 0, 1, 2 taken counter-clockwise.
        mf_floatw slot = mf_splatw(slot_number[k]);
        mf_maskw taken = mf_orw(mf_orw(mf_eqw(g->chosen[0].slot, slot), mf_eqw(g->chosen[1].slot, slot)),
                                mf_eqw(g->chosen[2].slot, slot));
        *open = mf_andnotw(taken, *open);
        mf_floatw ab = cross2(g->ab_x, g->ab_y, mf_subw(s->x[k], g->ax), mf_subw(s->y[k], g->ay));
        mf_floatw bc = cross2(g->bc_x, g->bc_y, mf_subw(s->x[k], g->bx), mf_subw(s->y[k], g->by));
        mf_floatw ca = cross2(g->ca_x, g->ca_y, mf_subw(s->x[k], g->cx), mf_subw(s->y[k], g->cy));
        return mf_negw(mf_minw(mf_minw(ab, bc), ca));
    }
    default:
        return g->nearest[k];
    }
}

static inline void offer_slot(int kind, const pass_geometry *g, const clip_slots *s, int k, slot_pass *pass)
{
    mf_maskw open;
    mf_floatw score = score_of(kind, g, s, k, &open);
    // AVX-512 ANDs masks through the general registers and back: there closed lanes score what
    // never wins instead, so no AND follows the compare on the chain each slot waits on. Vector
    // masks AND in one instruction.
    if (W == 16) score = mf_selectw(open, score, mf_splatw(kind == PASS_DEEPEST ? INFINITY : -INFINITY));
    mf_maskw better = kind == PASS_DEEPEST ? mf_ltw(score, pass->best) : mf_gtw(score, pass->best);
    slot_choice slot = {
        mf_splatw(slot_number[k]), mf_splatw(slot_corner[k]), s->side[k], {{s->x[k], s->y[k], s->z[k]}}};
    take_where(pass, W == 16 ? better : mf_andw(open, better), score, &slot);
}

// Arg-max chains per pass: each slot's compare waits on the select before it, so with AVX-512's 32
// registers two chains run, over the first and the second half of the slots, each half as long.
// With 16 registers the second chain's values would spill, and its loads and stores cost more.
enum { CHAINS = W == 16 ? 2 : 1 };

// One pass's arg-max over the live slots, the first of equal scores winning: a second chain's best
// wins where it is strictly better.
static inline void run_pass(int kind, const pass_geometry *g, const clip_slots *s, const int *live, int live_count,
                            slot_pass *pass)
{
    if (CHAINS == 1) {
        for (int i = 0; i < live_count; ++i) offer_slot(kind, g, s, live[i], pass);
        return;
    }
    int half = (live_count + 1) / 2;
    slot_pass second = *pass;
    for (int i = 0; half + i < live_count; ++i) {
        offer_slot(kind, g, s, live[i], pass);
        offer_slot(kind, g, s, live[half + i], &second);
    }
    if (live_count & 1) offer_slot(kind, g, s, live[half - 1], pass);
    mf_maskw later = kind == PASS_DEEPEST ? mf_ltw(second.best, pass->best) : mf_gtw(second.best, pass->best);
    take_where(pass, later, second.best, &second.choice);
}

static void pass_of_kind(int kind, const clip_slots *s, const int *live, int live_count, const slot_choice *chosen,
                         const mf_floatw *nearest, slot_pass *pass)
{
    pass_geometry g = geometry_of(kind, chosen, nearest);
    // Each case hands run_pass its kind as a constant, so that the inlined slot loop is built once
    // per kind with score_of's switch resolved, not a switch per slot.
    switch (kind) {
    case PASS_DEEPEST:
        run_pass(PASS_DEEPEST, &g, s, live, live_count, pass);
        break;
    case PASS_FARTHEST:
        run_pass(PASS_FARTHEST, &g, s, live, live_count, pass);
        break;
    case PASS_WIDEST_TRIANGLE:
        run_pass(PASS_WIDEST_TRIANGLE, &g, s, live, live_count, pass);
        break;
    case PASS_OUTSIDE_TRIANGLE:
        run_pass(PASS_OUTSIDE_TRIANGLE, &g, s, live, live_count, pass);
        break;
    default:
        run_pass(PASS_FARTHEST_FROM_ALL, &g, s, live, live_count, pass);
        break;
    }
}

// Step 5: chosen[n] is contact n in the lanes that count more than n; the passes follow mf_reduce's
// rules (reduce.c) with the normal +z, and stop where no slot scores above a degenerate amount.
static mf_floatw reduce_slots(const clip_slots *s, uint32_t max_contacts, slot_choice chosen[MF_MAX_CONTACTS])
{
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f), tiny = mf_splatw(1e-12f);
    int live[SLOTS], live_count = list_live_slots(s, live);
    mf_floatw nearest[SLOTS];
    mf_maskw found = mf_ltw(one, zero);
    mf_floatw count = zero;
    for (uint32_t n = 0; n < max_contacts; ++n) {
        slot_pass pass = {n == 0 ? mf_splatw(INFINITY) : tiny, chosen[n]};
        int kind = n < PASS_FARTHEST_FROM_ALL ? (int)n : PASS_FARTHEST_FROM_ALL;
        pass_of_kind(kind, s, live, live_count, chosen, nearest, &pass);
        found = n == 0 ? mf_ltw(pass.best, mf_splatw(INFINITY)) : mf_andw(found, mf_gtw(pass.best, tiny));
        if (!mf_anyw(found)) break;
        chosen[n] = pass.choice;
        count = mf_selectw(found, mf_addw(count, one), count);
        if (max_contacts > 4 && n >= 3) {
            // Beyond four, each next point is the farthest from all chosen so far.
            for (int i = 0; i < live_count; ++i) {
                int k = live[i];
                mf_floatw distance = distance2(s, k, &chosen[n].point);
                for (uint32_t c = 0; n == 3 && c < 3; ++c)
                    distance = mf_minw(distance, distance2(s, k, &chosen[c].point));
                nearest[k] = n == 3 ? distance : mf_minw(nearest[k], distance);
            }
        }
    }
    return count;
}

// Feature codes: a contact's MF_FEATURE value as a float the lanes can compute (an integer below
// 2^16, exact). An edge is named by its axis and the bits of a vertex on it, as mf_box_edge.
static inline mf_floatw code_of(uint32_t kind, mf_floatw value)
{
    return mf_addw(mf_splatw((float)(kind << 14)), value);
}

static inline mf_floatw edge_code(mf_floatw bits, mf_floatw axis)
{
    // The lower vertex's bits c0, c1, c2 (bit `axis` cleared); then mf_box_edge's sums, each term
    // a small integer, so every ISA computes them exactly.
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f), two = mf_splatw(2.0f), four = mf_splatw(4.0f);
    mf_floatw c2 = mf_selectw(mf_gew(bits, four), one, zero);
    mf_floatw rest = mf_subw(bits, mf_mulw(four, c2));
    mf_floatw c1 = mf_selectw(mf_gew(rest, two), one, zero);
    mf_floatw c0 = mf_subw(rest, mf_mulw(two, c1));
    c0 = mf_selectw(mf_eqw(axis, zero), zero, c0);
    c1 = mf_selectw(mf_eqw(axis, one), zero, c1);
    c2 = mf_selectw(mf_eqw(axis, two), zero, c2);
    mf_floatw before = mf_addw(mf_addw(mf_mulw(c0, mf_subw(mf_subw(mf_splatw(3.0f), c1), c2)),
                                       mf_mulw(c1, mf_subw(mf_splatw(5.0f), mf_mulw(two, c2)))),
                               mf_mulw(mf_splatw(8.0f), c2));
    mf_floatw below = mf_selectw(mf_eqw(axis, zero), zero,
                                 mf_selectw(mf_eqw(axis, one), mf_subw(one, c0), mf_subw(mf_subw(two, c0), c1)));
    return code_of(MF_FEATURE_EDGE, mf_addw(before, below));
}

// 2^axis: the bit of a vertex's sign along that axis.
static inline mf_floatw axis_bit(mf_floatw axis)
{
    return mf_selectw(mf_eqw(axis, mf_splatw(0.0f)), mf_splatw(1.0f),
                      mf_selectw(mf_eqw(axis, mf_splatw(1.0f)), mf_splatw(2.0f), mf_splatw(4.0f)));
}

// What the features of a face axis's contacts are made of, the same for all its contacts: the
// two faces, the vertex bits of each face's corners, and the axes of its sides.
typedef struct face_features {
    mf_floatw reference_face, incident_face;
    mf_floatw reference_bits[4], incident_bits[4]; // corner i, as corner_u and corner_v run
    mf_floatw reference_even, reference_odd;       // the axis of the reference face's sides 0, 2 and 1, 3
    mf_floatw incident_even, incident_odd;         // of the incident face's edges from corners 0, 2 and 1, 3
} face_features;

// The vertex bits of the corners of the face with outward normal sign * axis k, whose corners run
// as corner_u and corner_v along axes k + 1 and k + 2 (sums of distinct powers of two: exact).
static void corner_bits(mf_floatw k, mf_floatw sign, mf_floatw k1, mf_floatw k2, mf_floatw bits[4])
{
    mf_floatw zero = mf_splatw(0.0f);
    mf_floatw base = mf_selectw(mf_gtw(sign, zero), axis_bit(k), zero), u = axis_bit(k1), v = axis_bit(k2);
    bits[0] = base;
    bits[1] = mf_addw(base, u);
    bits[2] = mf_addw(bits[1], v);
    bits[3] = mf_addw(base, v);
}

static face_features features_of_faces(const clip_slots *s)
{
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f), two = mf_splatw(2.0f);
    face_features f;
    f.reference_face = mf_addw(mf_mulw(two, s->ref_axis), mf_selectw(mf_gtw(s->ref_sign, zero), one, zero));
    f.incident_face = mf_addw(mf_mulw(two, s->inc_axis), mf_selectw(mf_gtw(s->inc_sign, zero), one, zero));
    f.reference_even = next_axis(s->ref_axis), f.reference_odd = next_axis(f.reference_even);
    f.incident_even = next_axis(s->inc_axis), f.incident_odd = next_axis(f.incident_even);
    corner_bits(s->ref_axis, s->ref_sign, f.reference_even, f.reference_odd, f.reference_bits);
    corner_bits(s->inc_axis, s->inc_sign, f.incident_even, f.incident_odd, f.incident_bits);
    return f;
}

// bits[corner], corner 0 to 3 held as a float.
static inline mf_floatw pick_corner(const mf_floatw bits[4], mf_floatw corner)
{
    return mf_selectw(mf_eqw(corner, mf_splatw(0.0f)), bits[0],
                      mf_selectw(mf_eqw(corner, mf_splatw(1.0f)), bits[1],
                                 mf_selectw(mf_eqw(corner, mf_splatw(2.0f)), bits[2], bits[3])));
}

// The features of a face contact from its slot, its incident corner and the side it crossed:
// incident corners pair the incident vertex with the reference face, reference corners the
// reference vertex with the incident face, crossings the incident edge with the reference side.
static void face_contact_codes(const face_features *f, const slot_choice *contact, mf_floatw *reference,
                               mf_floatw *incident)
{
    mf_floatw zero = mf_splatw(0.0f), two = mf_splatw(2.0f), corner = contact->corner, side = contact->side;
    mf_maskw incident_corner = mf_ltw(contact->slot, mf_splatw((float)SLOT_REFERENCE));
    mf_maskw reference_corner = mf_andnotw(incident_corner, mf_ltw(contact->slot, mf_splatw((float)SLOT_EDGES)));
    mf_floatw incident_bits = pick_corner(f->incident_bits, corner);
    mf_floatw reference_bits = pick_corner(f->reference_bits, mf_selectw(reference_corner, corner, side));
    // Edge i of the incident face runs along its axis j + 1 for even i, j + 2 for odd; sides alike.
    mf_maskw incident_even = mf_orw(mf_eqw(corner, zero), mf_eqw(corner, two));
    mf_maskw side_even = mf_orw(mf_eqw(side, zero), mf_eqw(side, two));
    mf_floatw incident_edge = edge_code(incident_bits, mf_selectw(incident_even, f->incident_even, f->incident_odd));
    mf_floatw reference_edge = edge_code(reference_bits, mf_selectw(side_even, f->reference_even, f->reference_odd));
    *incident = mf_selectw(incident_corner, code_of(MF_FEATURE_VERTEX, incident_bits),
                           mf_selectw(reference_corner, code_of(MF_FEATURE_FACE, f->incident_face), incident_edge));
    *reference = mf_selectw(incident_corner, code_of(MF_FEATURE_FACE, f->reference_face),
                            mf_selectw(reference_corner, code_of(MF_FEATURE_VERTEX, reference_bits), reference_edge));
}

// Step 6 for every lane, as mf_edge_contact: the edges of a and b that support the edge axis, and
// the midpoint of their closest points; `ok` where those lie within both edges.
typedef struct edge_contact {
    vec3w point; // a's frame
    mf_floatw separation, corner_a, corner_b;
    mf_maskw ok;
} edge_contact;

static edge_contact contact_of_edges(mf_floatw r[3][3], const vec3w *t, const mf_floatw ha[3], const mf_floatw hb[3],
                                     const box_queries *q)
{
    const vec3w *n = &q->edge_normal;
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f);
    edge_contact out = {.corner_a = zero, .corner_b = zero};
    // a's edge along axis edge_a at the corner farthest along n; b's along edge_b, nearest.
    vec3w p1, q1, p2, q2, columns[3];
    mf_floatw length_a = pick3(ha, q->edge_a);
    for (int i = 0; i < 3; ++i) {
        mf_maskw along = mf_eqw(q->edge_a, mf_splatw((float)i)), up = mf_gtw(n->c[i], zero);
        mf_floatw corner = mf_selectw(up, ha[i], mf_negw(ha[i]));
        p1.c[i] = mf_selectw(along, mf_negw(length_a), corner);
        q1.c[i] = mf_selectw(along, length_a, corner);
        out.corner_a = mf_addw(out.corner_a, mf_selectw(up, mf_splatw((float)(1 << i)), zero));
        columns[i] = (vec3w){{r[0][i], r[1][i], r[2][i]}};
    }
    mf_floatw reach[3];
    for (int m = 0; m < 3; ++m) {
        mf_floatw toward = mf_selectw(mf_gtw(dot3(n, &columns[m]), zero), mf_negw(hb[m]), hb[m]);
        reach[m] = mf_selectw(mf_eqw(q->edge_b, mf_splatw((float)m)), zero, toward);
        out.corner_b = mf_addw(out.corner_b, mf_selectw(mf_gtw(reach[m], zero), mf_splatw((float)(1 << m)), zero));
    }
    mf_floatw length_b = pick3(hb, q->edge_b);
    for (int i = 0; i < 3; ++i) {
        mf_floatw centre =
            mf_addw(mf_addw(mf_addw(t->c[i], mf_mulw(reach[0], columns[0].c[i])), mf_mulw(reach[1], columns[1].c[i])),
                    mf_mulw(reach[2], columns[2].c[i]));
        mf_floatw half = mf_mulw(length_b, pick3(r[i], q->edge_b));
        p2.c[i] = mf_subw(centre, half);
        q2.c[i] = mf_addw(centre, half);
    }
    // Closest points of the two lines (clip.c closest_parameters).
    vec3w d1, d2, between;
    for (int i = 0; i < 3; ++i) {
        d1.c[i] = mf_subw(q1.c[i], p1.c[i]);
        d2.c[i] = mf_subw(q2.c[i], p2.c[i]);
        between.c[i] = mf_subw(p1.c[i], p2.c[i]);
    }
    mf_floatw a = dot3(&d1, &d1), e = dot3(&d2, &d2), f = dot3(&d2, &between);
    mf_floatw c = dot3(&d1, &between), b = dot3(&d1, &d2);
    mf_floatw denominator = mf_subw(mf_mulw(a, e), mf_mulw(b, b));
    out.ok = mf_gtw(denominator, mf_mulw(mf_mulw(mf_splatw(1e-12f), a), e));
    mf_floatw safe = mf_selectw(out.ok, denominator, one);
    mf_floatw s = mf_divw(mf_subw(mf_mulw(b, f), mf_mulw(c, e)), safe);
    mf_floatw u = mf_divw(mf_subw(mf_mulw(a, f), mf_mulw(b, c)), safe);
    mf_floatw low = mf_splatw(-1e-4f), high = mf_splatw(1.0f + 1e-4f); // as mf_edge_contact's slack
    out.ok =
        mf_andw(out.ok, mf_andw(mf_andw(mf_gew(s, low), mf_lew(s, high)), mf_andw(mf_gew(u, low), mf_lew(u, high))));
    s = mf_minw(mf_maxw(s, zero), one);
    u = mf_minw(mf_maxw(u, zero), one);
    vec3w gap;
    for (int i = 0; i < 3; ++i) {
        mf_floatw on_a = mf_addw(p1.c[i], mf_mulw(s, d1.c[i])), on_b = mf_addw(p2.c[i], mf_mulw(u, d2.c[i]));
        out.point.c[i] = mf_mulw(mf_addw(on_a, on_b), mf_splatw(0.5f));
        gap.c[i] = mf_subw(on_b, on_a);
    }
    out.separation = dot3(n, &gap);
    return out;
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
static void collide_faces(const mf_config *config, const face_lanes *f, box_outputs *out)
{
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f);
    mf_maskw use_a = mf_gtw(f->use_a, zero), all = mf_eqw(zero, zero);
    uint32_t max_contacts = config->max_contacts;
    clip_slots s;
    clip_faces(&f->view, mf_splatw(config->margin), &s);
    slot_choice chosen[MF_MAX_CONTACTS];
    for (uint32_t n = 0; n < max_contacts; ++n) chosen[n] = (slot_choice){zero, zero, zero, {{zero, zero, zero}}};
    mf_floatw count = reduce_slots(&s, max_contacts, chosen);
    face_features features = features_of_faces(&s);
    for (int i = 0; i < 3; ++i) {
        mf_floatw outward = mf_mulw(s.ref_sign, pick3(f->rotation[i], s.ref_axis));
        store_row(out, OUT_NORMAL + i, mf_selectw(use_a, outward, mf_negw(outward)));
    }
    mf_floatw k1 = next_axis(s.ref_axis), deepest = mf_splatw(INFINITY);
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
        int row = OUT_CONTACTS + (int)n * OUT_CONTACT_FLOATS;
        for (int i = 0; i < 3; ++i) store_row(out, row + i, world.c[i]);
        store_row(out, row + 3, separation);
        mf_floatw reference, incident;
        face_contact_codes(&features, &chosen[n], &reference, &incident);
        store_row(out, row + 4, mf_selectw(use_a, reference, incident));
        store_row(out, row + 5, mf_selectw(use_a, incident, reference));
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
static void collide_edges(mf_floatw r[3][3], const vec3w *t, const mf_floatw ha[3], const mf_floatw hb[3],
                          const box_queries *q, mf_floatw rotation_a[3][3], const mf_floatw pa[3], mf_maskw use_edge,
                          box_outputs *out)
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
        store_row(out, OUT_CONTACTS + i, world.c[i]);
    }
    store_row(out, OUT_CONTACTS + 3, edge.separation);
    store_row(out, OUT_CONTACTS + 4, edge_code(edge.corner_a, q->edge_a));
    store_row(out, OUT_CONTACTS + 5, edge_code(edge.corner_b, q->edge_b));
    store_row(out, OUT_COUNT, mf_selectw(use_edge, one, zero));
    store_mask(out, OUT_FALLBACK, mf_andnotw(edge.ok, use_edge));
}

// Face lanes of mixed bundles wait here, in rows, until W of them fill a bundle: the clip and the
// reduction, most of a bundle's work, then run on face lanes only. (On boxes tumbling into each
// other a third of the lanes take an edge axis; lanes that are apart need neither.)
typedef struct face_queue {
    _Alignas(64) float row[FACE_ROWS][2 * W];
    uint32_t at[2 * W]; // each lane's place in the job's list
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
    const mf_floatw *rows = (const mf_floatw *)(const void *)f;
    for (uint32_t i = 0; i < queued_rows(job); ++i)
        mf_compress_storew(&queue->row[i][queue->count], lane_bits, rows[i]);
    for (uint32_t bits = lane_bits; bits != 0; bits &= bits - 1)
        queue->at[queue->count++] = first + (uint32_t)__builtin_ctz(bits);
}

// The first `lanes` queued lanes into f (the lanes after them, at the end of the job, repeat the
// first), their places into `at`, and the rest of the queue to the front.
static void take_queued(const mf_box_job *job, face_queue *queue, uint32_t lanes, face_lanes *f, uint32_t at[W])
{
    mf_floatw *rows = (mf_floatw *)(void *)f;
    uint32_t row_count = queued_rows(job);
    for (uint32_t i = 0; i < row_count; ++i) rows[i] = mf_loadw(queue->row[i]);
    if (lanes < W) {
        mf_maskw padding = mf_gew(mf_lane_indexw(), mf_splatw((float)lanes));
        for (uint32_t i = 0; i < row_count; ++i) rows[i] = mf_selectw(padding, mf_splatw(queue->row[i][0]), rows[i]);
    }
    for (uint32_t i = row_count; i < FACE_ROWS; ++i) rows[i] = mf_splatw(0.0f);
    for (uint32_t k = 0; k < lanes; ++k) at[k] = queue->at[k];
    queue->count -= lanes;
    for (uint32_t i = 0; queue->count > 0 && i < row_count; ++i) mf_storew(queue->row[i], mf_loadw(queue->row[i] + W));
    for (uint32_t k = 0; k < queue->count; ++k) queue->at[k] = queue->at[W + k];
}

// Steps 1 and 2 for one bundle (lane l is at[l] = first + l in the job's list), and step 6 for its
// edge lanes; results for all but its face lanes. Returns 1 when every lane is a face lane, with f
// ready for steps 3 to 5; else the face lanes join the queue.
static int collide_bundle(mf_box_job *job, uint32_t first, uint32_t lanes, const uint32_t at[W], face_queue *queue,
                          face_lanes *f, box_outputs *out)
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
        mf_addw(mf_splatw(config->linear_slop), mf_mulw(mf_splatw(4e-6f), mf_addw(mf_loadw(in.scale), mf_absw(best))));
    mf_maskw all = mf_eqw(zero, zero);
    mf_maskw use_a = mf_gew(mf_addw(q.face_a, allowance), best);
    mf_maskw use_b = mf_andnotw(use_a, mf_gew(mf_addw(q.face_b, allowance), best));
    mf_maskw use_edge = mf_andnotw(mf_orw(use_a, use_b), all);
    mf_maskw touching = mf_ltw(best, margin);
    store_mask(out, OUT_TOUCHING, touching);
    store_mask(out, OUT_EDGE, use_edge);
    store_mask(out, OUT_REF_A, use_a);
    mf_floatw two = mf_splatw(2.0f);
    f->query[query_row(OUT_FACE_A)] = mf_addw(mf_mulw(two, q.axis_a), mf_selectw(mf_gtw(q.sign_a, zero), one, zero));
    f->query[query_row(OUT_FACE_B)] = mf_addw(mf_mulw(two, q.axis_b), mf_selectw(mf_gtw(q.sign_b, zero), one, zero));
    f->query[query_row(OUT_SEP_A)] = q.face_a;
    f->query[query_row(OUT_SEP_B)] = q.face_b;
    f->query[query_row(OUT_SEP_E)] = q.edge;
    f->query[query_row(OUT_EDGE_A)] = q.edge_a;
    f->query[query_row(OUT_EDGE_B)] = q.edge_b;
    for (int i = 0; i < 3; ++i) f->query[query_row(OUT_EDGE_NORMAL) + i] = q.edge_normal.c[i];
    for (int i = 0; i < QUERY_ROWS; ++i) store_row(out, OUT_FACE_A + i, f->query[i]);

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
        collide_edges(r, &t, ha, hb, &q, rotation_a, pa, edges, out);
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

// Step 7, lane by lane: results, feature ids and the answers for the cache; fallback lanes are
// listed.
static void write_results(mf_box_job *job, const uint32_t *at, uint32_t lane_bits, const box_outputs *out)
{
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
                job->answers[p] = mf_searched_answer(&candidates, NULL);
            }
            continue;
        }
        int edge = LANE(OUT_EDGE) != 0.0f, reference_is_a = LANE(OUT_REF_A) != 0.0f;
        uint32_t count = (uint32_t)LANE(OUT_COUNT);
        assert(count >= 1 && count <= job->config->max_contacts);
        result->normal = (mf_vec3){LANE(OUT_NORMAL), LANE(OUT_NORMAL + 1), LANE(OUT_NORMAL + 2)};
        for (uint32_t n = 0; n < count; ++n) {
            const float *row = &out->row[OUT_CONTACTS + n * OUT_CONTACT_FLOATS][l];
            uint32_t id = (uint32_t)row[4 * W] << 16 | (uint32_t)row[5 * W];
            result->contacts[n] = (mf_contact){{row[0], row[W], row[2 * W]}, row[3 * W], id};
        }
        result->count = count;
        result->distance = INFINITY;
        if (job->answers != NULL) {
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
    box_outputs out;
    face_queue queue;
    queue.count = 0;
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
            queued = !collide_bundle(job, first, lanes, at, &queue, &f, &out);
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
        collide_faces(job->config, &f, &out);
        if (queued && job->answers != NULL)
            for (int i = 0; i < QUERY_ROWS; ++i) store_row(&out, OUT_FACE_A + i, f.query[i]);
        write_results(job, at, first_lanes(lanes), &out);
    }
}
