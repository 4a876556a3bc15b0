// A box-hull pair's queries in the pair's terms (mf_query_pair's closed-form branch): the box as the
// hull's frame sees it, the box's faces read off the hull's bounds in the box's frame, and the
// answers of the queries in lanes (box_hull.c, built per ISA) turned into a's and b's features.
#include "box_hull_pair.h"

// The box of a box-hull pair as the hull's frame sees it.
static mf_box_in_hull box_in_hull_frame(const mf_pair_frame *frame, int box_is_a)
{
    const mf_mat3 *r = &frame->rotation; // b's frame to a's
    mf_vec3 half = (box_is_a ? frame->a : frame->b)->shape->half_extents;
    mf_box_in_hull box = {.half = {half.x, half.y, half.z}};
    // The box's axes: a's seen from b are r's rows; b's seen from a are its columns.
    mf_mat3 axes = box_is_a ? *r : mf_mat3_transpose(r);
    for (int m = 0; m < 3; ++m) box.axis[m] = axes.row[m];
    // a's origin seen from b, or b's seen from a.
    box.centre = box_is_a ? mf_mat3_mul_transposed(r, mf_neg(frame->translation)) : frame->translation;
    return box;
}

// The edge query's answer in the pair's terms: the axis from a to b in a's frame, and the box edge
// along the found axis that supports the box facing the hull.
static mf_edge_query box_hull_edge_axis(const mf_pair_frame *frame, int box_is_a, const mf_box_in_hull *box,
                                        mf_box_edge_query found)
{
    if (!(found.separation > -INFINITY)) return (mf_edge_query){-INFINITY, 0, 0, {0, 0, 0}};
    const mf_hull_view *hull = box_is_a ? frame->b : frame->a;
    uint32_t j = found.hull_edge, k = found.box_axis;
    mf_vec3 u = box->axis[k], cross = mf_cross((mf_vec3){hull->edge_x[j], hull->edge_y[j], hull->edge_z[j]}, u);
    float side0 = mf_dot(mf_view_normal(hull, hull->edge_face0[j]), u);
    mf_vec3 normal = mf_scale(cross, (side0 > 0.0f ? 1.0f : -1.0f) / mf_length(cross)); // hull to box
    uint32_t corner = 0; // the sign of -normal . axis m in bit m
    for (uint32_t m = 0; m < 3; ++m) corner |= (uint32_t)(m != k && mf_dot(normal, box->axis[m]) < 0.0f) << m;
    uint32_t box_edge = mf_box_edge(corner, k);
    if (!box_is_a) return (mf_edge_query){found.separation, j, box_edge, normal};
    return (mf_edge_query){found.separation, box_edge, j, mf_neg(mf_mat3_mul(&frame->rotation, normal))};
}

// The box's faces -x, +x, -y, +y, -z, +z (box.c) against the hull, from the bounds of its
// vertices in the box's frame: a face's separation is the vertices' least coordinate along its
// normal less the half extent. The best, the first of equals.
static mf_face_query box_faces(mf_vec3 low, mf_vec3 high, const float half[3])
{
    const float least[6] = {-high.x, low.x, -high.y, low.y, -high.z, low.z};
    mf_face_query best = {-INFINITY, 0};
    for (uint32_t face = 0; face < 6; ++face) {
        float separation = least[face] - half[face / 2];
        if (separation > best.separation) best = (mf_face_query){separation, face};
    }
    return best;
}

int mf_query_box_hull(const mf_pair_frame *frame, float margin, const mf_box_hull_kernel *kernel, mf_axis_candidates *c)
{
    int box_is_a = frame->a->shape->box;
    const mf_hull_view *hull = box_is_a ? frame->b : frame->a;
    mf_box_in_hull box = box_in_hull_frame(frame, box_is_a);
    // The box's faces first, whichever body it is: read off the bounds, they cost a few compares
    // where the hull's cost a pass over its faces, and either one apart settles the pair.
    mf_face_query *box_side = box_is_a ? &c->face_a : &c->face_b, *hull_side = box_is_a ? &c->face_b : &c->face_a;
    *box_side = box_faces(frame->hull_low, frame->hull_high, box.half);
    if (box_side->separation >= margin) return 0;
    *hull_side = kernel->faces(hull, &box);
    if (hull_side->separation >= margin) return 0;
    c->edge = box_hull_edge_axis(frame, box_is_a, &box, kernel->edges(hull, &box));
    mf_measure_edge_axis(frame, c);
    return mf_is_touching(c, margin);
}
