// The box pass's clip in fixed slots (its steps 3 and 4), for W face axes at once: the reference
// face's frame, the incident face, and the 16 candidates the polygon clip could produce, each
// kept or not per lane.
// Included by box_pass.c alone: the whole pass stays one translation unit per ISA, so that these
// per-lane helpers inline into it.
#pragma once

#include "box_queries.h"
#include "core.h"
#include "wide.h"

enum { SLOTS = 16 };

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

// One candidate of the clip in every lane: its point in the reference face's axes (u, v, outward
// normal), its separation, the side of the reference face it crosses (edge crossings), and where
// it is kept. A slot's rows lie together: the reduction reads them at one computed place.
typedef struct clip_slot {
    mf_floatw x, y, z, separation, side;
    mf_maskw keep;
} clip_slot;

// The clip's candidates of one face axis.
typedef struct clip_slots {
    clip_slot slot[SLOTS];
    mf_floatw ref_axis, ref_sign, inc_axis, inc_sign;
    mf_floatw top; // the reference face's height along its normal
} clip_slots;

static void set_slot(clip_slots *s, int slot, const vec3w *p, mf_maskw exists, mf_floatw top, mf_floatw margin)
{
    clip_slot *c = &s->slot[slot];
    c->x = p->c[0], c->y = p->c[1], c->z = p->c[2];
    c->separation = mf_subw(p->c[2], top);
    c->keep = mf_andw(exists, mf_ltw(c->separation, margin));
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

// Steps 3 and 4 for every lane. Kept out of line: its 16 slots are memory whatever the compiler
// does, and inlined into the pass, GCC 12 spilled the rest of the AVX2 pass more (A/B on Zen 3,
// AVX2: out of line, box_resting +17 to +20%, box_box +11 to +14%; AVX-512 had kept it out of line
// on its own).
MF_NOINLINE static void clip_faces(const reference_view *view, mf_floatw margin, clip_slots *s)
{
    mf_floatw k = view->axis, sign = view->sign;
    mf_floatw k1 = mf_next_axisw(k), k2 = mf_next_axisw(k1);
    s->ref_axis = k, s->ref_sign = sign;
    const mf_floatw(*rr)[3] = view->r;
    const mf_floatw *tr = view->t, *href = view->half_ref, *hinc = view->half_inc;

    // Rows u, v, normal of the reference face: its frame's axes k1, k2 and sign * k.
    mf_floatw m[3][3], tt[3];
    for (int j = 0; j < 3; ++j) {
        mf_floatw column[3] = {rr[0][j], rr[1][j], rr[2][j]};
        m[0][j] = mf_pick3w(column, k1);
        m[1][j] = mf_pick3w(column, k2);
        m[2][j] = mf_mulw(sign, mf_pick3w(column, k));
    }
    tt[0] = mf_pick3w(tr, k1), tt[1] = mf_pick3w(tr, k2), tt[2] = mf_mulw(sign, mf_pick3w(tr, k));
    mf_floatw half_u = mf_pick3w(href, k1), half_v = mf_pick3w(href, k2), top = mf_pick3w(href, k);
    s->top = top;

    // The incident face: the incident box's axis most (anti-)parallel to the normal.
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f);
    mf_floatw j = zero, most = mf_absw(m[2][0]);
    for (int c = 1; c < 3; ++c) {
        mf_maskw better = mf_gtw(mf_absw(m[2][c]), most);
        most = mf_selectw(better, mf_absw(m[2][c]), most);
        j = mf_selectw(better, mf_splatw((float)c), j);
    }
    mf_floatw j1 = mf_next_axisw(j), j2 = mf_next_axisw(j1);
    vec3w d, a1, a2;
    for (int i = 0; i < 3; ++i)
        d.c[i] = mf_pick3w(m[i], j), a1.c[i] = mf_pick3w(m[i], j1), a2.c[i] = mf_pick3w(m[i], j2);
    mf_floatw inc_sign = mf_selectw(mf_gtw(d.c[2], zero), mf_splatw(-1.0f), one);
    s->inc_axis = j, s->inc_sign = inc_sign;
    mf_floatw reach = mf_mulw(inc_sign, mf_pick3w(hinc, j)), h1 = mf_pick3w(hinc, j1), h2 = mf_pick3w(hinc, j2);
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
    mf_maskw corner_inside[4];
    for (int n = 0; n < 4; ++n) {
        corner_inside[n] = mf_andw(mf_lew(mf_absw(corners[n].c[0]), half_u), mf_lew(mf_absw(corners[n].c[1]), half_v));
        set_slot(s, SLOT_INCIDENT + n, &corners[n], corner_inside[n], top, margin);
        s->slot[SLOT_INCIDENT + n].side = zero;
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
        s->slot[SLOT_REFERENCE + n].side = zero;
    }
    // Incident edges entering and leaving the rectangle strictly between their corners. Sides:
    // 0 at v = -half_v, 1 at u = +half_u, 2 at v = +half_v, 3 at u = -half_u.
    // An edge whose corners both pass the test above crosses no side: each slab's entry parameter
    // is at most 0 (its numerators have opposite signs) and its exit at least 1 (rounding is
    // monotonic, so half - p rounds to at least the rounded next - p, the edge's delta). Where that
    // holds in every lane (a box resting on a larger one), its slots are left out unmeasured.
    mf_maskw none = mf_ltw(one, zero);
    for (int n = 0; n < 4; ++n) {
        if (mf_allw(mf_andw(corner_inside[n], corner_inside[(n + 1) % 4]))) {
            for (int e = 0; e < 2; ++e) s->slot[SLOT_EDGES + 2 * n + e].keep = none;
            continue;
        }
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
            s->slot[SLOT_EDGES + 2 * n + e].side = sides[e];
        }
    }
}
