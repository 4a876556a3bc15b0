// The box pass's separating-axis queries (its step 2), in closed form for W pairs of boxes, b seen
// from a (R, t): each box's three face axes and the nine edge-direction axes, the classic box
// test. The face axes are measured as sat.c measures a hull's; the edge axes from R's entries alone
// (query_edges), where sat.c projects both boxes' corners.
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

// The 9 axes e_k x column_j in closed form (the classic box test's): the axis has -R[k2][j] in
// component k1 and R[k1][j] in component k2 (k1, k2 the axes after k), and as b's columns are
// orthonormal, column_j x column_j1 = column_j2, so the axis's dot with b's columns j1 and j2 is
// R[k][j2] and -R[k][j1], and with column j 0. Each separation is then six products of |R|'s
// entries and the half extents, over the axis's length; nearly parallel pairs are skipped. The
// loop keeps each lane's best (k, j) and orientation as one code, 3 k + j, plus 9 where the axis
// points from b to a; the best's length, separation and normal are made once, after it. (A root
// and a division for every axis kept the divider busy: A/B on Zen 3, AVX2, box_box +2 to +3%,
// box_resting +2.5 to +3%, in both orders. Projecting b's columns on
// each axis as mf_query_edge_directions does, and carrying each axis's normal through the loop,
// took 111 instructions an axis with the spills; A/B on Zen 3, AVX2: box_box +4.7%, box_resting
// +7%, in both orders.)
static void query_edges(mf_floatw r[3][3], const vec3w *t, const mf_floatw ha[3], const mf_floatw hb[3], box_queries *q)
{
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f), sine2 = mf_splatw(MF_PARALLEL_SINE * MF_PARALLEL_SINE);
    // Each axis is ranked by n |n| / L, with n its unnormalised separation and L its squared
    // length: the square of the separation n / sqrt(L) with its sign, so the same order, without a
    // root and a division an axis. The lanes keep the best's n and L (cross-multiplied: L > 0).
    mf_floatw best_key = mf_splatw(-INFINITY), best_length2 = one, best_n = zero, code = zero;
    for (int k = 0; k < 3; ++k) {
        int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        for (int j = 0; j < 3; ++j) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            mf_floatw length2 = mf_addw(mf_mulw(r[k2][j], r[k2][j]), mf_mulw(r[k1][j], r[k1][j]));
            mf_maskw valid = mf_gew(length2, sine2);
            if (!mf_anyw(valid)) continue;
            mf_floatw along = mf_subw(mf_mulw(r[k1][j], t->c[k2]), mf_mulw(r[k2][j], t->c[k1]));
            mf_floatw extent_a = mf_addw(mf_mulw(ha[k1], mf_absw(r[k2][j])), mf_mulw(ha[k2], mf_absw(r[k1][j])));
            mf_floatw extent_b = mf_addw(mf_mulw(hb[j1], mf_absw(r[k][j2])), mf_mulw(hb[j2], mf_absw(r[k][j1])));
            mf_floatw n = mf_subw(mf_subw(mf_absw(along), extent_a), extent_b);
            mf_floatw key = mf_mulw(n, mf_absw(n));
            mf_maskw better = mf_andw(valid, mf_gtw(mf_mulw(key, best_length2), mf_mulw(best_key, length2)));
            best_key = mf_selectw(better, key, best_key);
            best_length2 = mf_selectw(better, length2, best_length2);
            best_n = mf_selectw(better, n, best_n);
            mf_floatw axis_code =
                mf_selectw(mf_ltw(along, zero), mf_splatw((float)(3 * k + j + 9)), mf_splatw((float)(3 * k + j)));
            code = mf_selectw(better, axis_code, code);
        }
    }
    // Each lane's k and j, and the entries R[k1][j] and R[k2][j] its axis is made of.
    mf_maskw flip = mf_gew(code, mf_splatw(9.0f));
    code = mf_selectw(flip, mf_subw(code, mf_splatw(9.0f)), code);
    mf_floatw edge_a = zero, edge_b = zero, high = zero, low = zero;
    for (int k = 0; k < 3; ++k) {
        for (int j = 0; j < 3; ++j) {
            mf_maskw chosen = mf_eqw(code, mf_splatw((float)(3 * k + j)));
            edge_a = mf_selectw(chosen, mf_splatw((float)k), edge_a);
            edge_b = mf_selectw(chosen, mf_splatw((float)j), edge_b);
            high = mf_selectw(chosen, r[(k + 1) % 3][j], high);
            low = mf_selectw(chosen, r[(k + 2) % 3][j], low);
        }
    }
    q->edge_a = edge_a, q->edge_b = edge_b;
    // The unit axis, oriented from a to b; zero in a lane where no axis was valid.
    mf_maskw found = mf_gtw(best_key, mf_splatw(-INFINITY));
    mf_floatw inverse = mf_divw(one, mf_sqrtw(best_length2));
    q->edge = mf_selectw(found, mf_mulw(best_n, inverse), mf_splatw(-INFINITY));
    mf_floatw u = mf_mulw(mf_negw(low), inverse), v = mf_mulw(high, inverse);
    mf_floatw k1 = mf_next_axisw(edge_a);
    for (int i = 0; i < 3; ++i) {
        mf_floatw index = mf_splatw((float)i);
        mf_floatw component = mf_selectw(mf_eqw(edge_a, index), zero, mf_selectw(mf_eqw(k1, index), u, v));
        component = mf_selectw(flip, mf_negw(component), component);
        q->edge_normal.c[i] = mf_selectw(found, component, zero);
    }
}
