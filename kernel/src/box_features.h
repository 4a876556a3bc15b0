// The box pass's feature codes (its step 7's ids) and its edge contact (step 6): each contact's
// features as MF_FEATURE values looked up in lanes, and the closest points of the edges that
// support an edge axis.
// Included by box_pass.c alone: the whole pass stays one translation unit per ISA, so that these
// per-lane helpers inline into it.
#pragma once

#include "bank.h"
#include "box_clip.h"
#include "box_queries.h"
#include "box_reduce.h"
#include "core.h"
#include "tolerances.h"
#include "wide.h"

// Feature codes: a contact's MF_FEATURE value as a float the lanes can compute (an integer below
// 2^16, exact). An edge is named by its axis and the bits of a vertex on it, as mf_box_edge.
static inline mf_floatw code_of(uint32_t kind, mf_floatw value)
{
    return mf_addw(mf_splatw((float)(kind << 14)), value);
}

// Feature codes come from tables, as they are functions of a few small integers: a face's corner
// bits and the edges from its corners depend on the face (axis k, sign s) and the corner c alone,
// 24 cases, looked up at 8 k + 4 s + c (s 1 for the face on the positive side); an edge on its
// axis k and the bits of a vertex on it, looked up at 8 k + bits. For a face contact, four lookups
// (a vertex's and an edge's code for each side, one of each kept) take the place of some fifty
// operations in lanes: the edge's number computed as mf_box_edge does, twice, and the corners
// picked (the A/B: docs/performance.md, "A fourth round without Intel").
enum { CODE_ENTRIES = 24 };

typedef struct code_tables {
    // code_of(MF_FEATURE_VERTEX, bits of corner c) and code_of(MF_FEATURE_EDGE, the edge from corner
    // c along axis k + 1 for even c, k + 2 for odd: as the sides of the faces run, box_clip.h)
    float face_vertex[32], face_edge[32];
    float edge[32]; // code_of(MF_FEATURE_EDGE, mf_box_edge(bits, k))
} code_tables;

static void code_tables_make(code_tables *t)
{
    *t = (code_tables){0};
    for (uint32_t k = 0; k < 3; ++k) {
        uint32_t k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        for (uint32_t bits = 0; bits < 8; ++bits)
            t->edge[8 * k + bits] = (float)((MF_FEATURE_EDGE << 14) + mf_box_edge(bits, k));
        for (uint32_t s = 0; s < 2; ++s) {
            for (uint32_t c = 0; c < 4; ++c) {
                // Corners run as corner_u and corner_v (box_clip.h) along axes k + 1 and k + 2.
                uint32_t bits = s << k | (corner_u[c] > 0.0f) << k1 | (corner_v[c] > 0.0f) << k2;
                uint32_t entry = 8 * k + 4 * s + c;
                MF_ASSERT(entry < CODE_ENTRIES);
                t->face_vertex[entry] = (float)((MF_FEATURE_VERTEX << 14) + bits);
                t->face_edge[entry] = (float)((MF_FEATURE_EDGE << 14) + mf_box_edge(bits, c % 2 == 0 ? k1 : k2));
            }
        }
    }
}

// Each lane's code at its entry of a table (a whole number below CODE_ENTRIES).
static inline mf_floatw code_at(const float *table, mf_floatw entry)
{
#if MF_WIDE_WIDTH == 1
    MF_ASSERT(entry >= 0.0f && entry < (float)CODE_ENTRIES && entry == (float)(uint32_t)entry);
#else
    MF_ASSERT(mf_allw(mf_andw(mf_gew(entry, mf_splatw(0.0f)), mf_ltw(entry, mf_splatw((float)CODE_ENTRIES)))));
#endif
    return mf_lookup32w(table, CODE_ENTRIES, entry);
}

// The code of the box edge along axis k through the vertex with these bits.
static inline mf_floatw edge_code(const code_tables *t, mf_floatw bits, mf_floatw axis)
{
    return code_at(t->edge, mf_addw(mf_mulw(mf_splatw(8.0f), axis), bits));
}

// What the features of a face axis's contacts are made of, the same for all its contacts: the
// two faces' codes and their entries in the tables.
typedef struct face_features {
    mf_floatw reference_face, incident_face;   // codes
    mf_floatw reference_entry, incident_entry; // 8 k + 4 s
} face_features;

static face_features features_of_faces(const clip_slots *s)
{
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f), two = mf_splatw(2.0f), four = mf_splatw(4.0f),
              eight = mf_splatw(8.0f);
    mf_floatw reference_up = mf_selectw(mf_gtw(s->ref_sign, zero), one, zero);
    mf_floatw incident_up = mf_selectw(mf_gtw(s->inc_sign, zero), one, zero);
    face_features f;
    f.reference_face = code_of(MF_FEATURE_FACE, mf_addw(mf_mulw(two, s->ref_axis), reference_up));
    f.incident_face = code_of(MF_FEATURE_FACE, mf_addw(mf_mulw(two, s->inc_axis), incident_up));
    f.reference_entry = mf_addw(mf_mulw(eight, s->ref_axis), mf_mulw(four, reference_up));
    f.incident_entry = mf_addw(mf_mulw(eight, s->inc_axis), mf_mulw(four, incident_up));
    return f;
}

// The features of a face contact from its slot, its incident corner and the side it crossed:
// incident corners pair the incident vertex with the reference face, reference corners the
// reference vertex with the incident face, crossings the incident edge from its corner with the
// reference side (side i of the rectangle runs from its corner i).
static void face_contact_codes(const code_tables *t, const face_features *f, const slot_choice *contact,
                               mf_floatw *reference, mf_floatw *incident)
{
    mf_maskw incident_corner = mf_ltw(contact->slot, mf_splatw((float)SLOT_REFERENCE));
    mf_maskw reference_corner = mf_andnotw(incident_corner, mf_ltw(contact->slot, mf_splatw((float)SLOT_EDGES)));
    // The corner the slot starts from. A lane no slot won keeps slot 0 from the zeroed choice, and
    // slot 0's corner is 0, as a zeroed corner was.
    MF_ASSERT(slot_corner[0] == 0.0f);
    mf_floatw corner = mf_lookup32w(slot_corner, SLOTS, contact->slot);
    mf_floatw incident_at = mf_addw(f->incident_entry, corner);
    mf_floatw reference_at = mf_addw(f->reference_entry, mf_selectw(reference_corner, corner, contact->side));
    *incident = mf_selectw(incident_corner, code_at(t->face_vertex, incident_at),
                           mf_selectw(reference_corner, f->incident_face, code_at(t->face_edge, incident_at)));
    *reference = mf_selectw(
        incident_corner, f->reference_face,
        mf_selectw(reference_corner, code_at(t->face_vertex, reference_at), code_at(t->face_edge, reference_at)));
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
