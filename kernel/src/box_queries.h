// The box pass's separating-axis queries (its step 2), in closed form for W pairs of boxes, b seen
// from a (R, t): each box's three face axes and the nine edge-direction axes, the classic box
// test, measured as sat.c measures a hull's.
// Included by box_pass.c alone: the whole pass stays one translation unit per ISA, so that these
// per-lane helpers inline into it.
#pragma once

#include "sat.h"
#include "wide.h"

// A vector of W lanes indexed by axis number (0, 1, 2): the pass runs over a box's axes in loops.
// (wide.h's mf_vec3w names its fields instead; built on it, the pass compiles to other code.)
typedef struct vec3w {
    mf_floatw c[3];
} vec3w;

static inline mf_floatw dot3(const vec3w *a, const vec3w *b)
{
    return mf_addw(mf_addw(mf_mulw(a->c[0], b->c[0]), mf_mulw(a->c[1], b->c[1])), mf_mulw(a->c[2], b->c[2]));
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
