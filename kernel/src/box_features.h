// The box pass's feature codes (its step 7's ids) and its edge contact (step 6): each contact's
// features as MF_FEATURE values computed in lanes, and the closest points of the edges that
// support an edge axis.
// Included by box_pass.c alone: the whole pass stays one translation unit per ISA, so that these
// per-lane helpers inline into it.
#pragma once

#include "box_clip.h"
#include "tolerances.h"
#include "box_queries.h"
#include "box_reduce.h"
#include "wide.h"

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
    f.reference_even = mf_next_axisw(s->ref_axis), f.reference_odd = mf_next_axisw(f.reference_even);
    f.incident_even = mf_next_axisw(s->inc_axis), f.incident_odd = mf_next_axisw(f.incident_even);
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
    mf_floatw length_a = mf_pick3w(ha, q->edge_a);
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
    mf_floatw length_b = mf_pick3w(hb, q->edge_b);
    for (int i = 0; i < 3; ++i) {
        mf_floatw centre =
            mf_addw(mf_addw(mf_addw(t->c[i], mf_mulw(reach[0], columns[0].c[i])), mf_mulw(reach[1], columns[1].c[i])),
                    mf_mulw(reach[2], columns[2].c[i]));
        mf_floatw half = mf_mulw(length_b, mf_pick3w(r[i], q->edge_b));
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
    out.ok = mf_gtw(denominator, mf_mulw(mf_mulw(mf_splatw(MF_PARALLEL_SEGMENTS), a), e));
    mf_floatw safe = mf_selectw(out.ok, denominator, one);
    mf_floatw s = mf_divw(mf_subw(mf_mulw(b, f), mf_mulw(c, e)), safe);
    mf_floatw u = mf_divw(mf_subw(mf_mulw(a, f), mf_mulw(b, c)), safe);
    mf_floatw low = mf_splatw(-MF_EDGE_END_SLACK), high = mf_splatw(1.0f + MF_EDGE_END_SLACK); // as mf_edge_contact
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
