// The queries of a box against a hull, W of the hull's faces or edges at a time, in the hull's
// frame. A box's support along any direction n is closed-form: its centre's projection less
// sum_m half_m |n . axis_m|. So a hull face's separation needs no loop over the box's corners, and
// the edge query needs no search: a box edge's Gauss-map arc is a quarter of the great circle
// normal to its axis, and the four parallel edges' arcs make up that whole circle. A hull edge's
// arc (shorter than pi) builds a Minkowski face with one of them exactly where it crosses that
// circle, which one sign test per box axis tells (Gregorius, GDC 2013). That is 3 candidates per
// hull edge instead of a culled search over the edge pairs of two hulls.
// The width-1 build is the scalar path's; every build does the same operations in the same order
// and picks the same winner, so every ISA returns the same bits.
#include "box_hull.h"
#include "wide.h"

enum { W = MF_WIDE_WIDTH };

// cppcheck-suppress moduloofone ; the scalar build has width 1
_Static_assert(MF_EDGE_LANES % MF_WIDE_WIDTH == 0, "edge rows pad to whole registers");

// The box's support term along n: sum_m half_m |n . axis_m|, n's projections given.
static inline mf_floatw box_reach(const mf_box_in_hull *box, const mf_floatw along[3])
{
    mf_floatw reach = mf_mulw(mf_splatw(box->half[0]), mf_absw(along[0]));
    reach = mf_addw(reach, mf_mulw(mf_splatw(box->half[1]), mf_absw(along[1])));
    return mf_addw(reach, mf_mulw(mf_splatw(box->half[2]), mf_absw(along[2])));
}

// The lane holding the greatest of `value` and, among equals, the least `index` (no lane NaN).
static inline uint32_t winning_lane(mf_floatw value, mf_floatw index, float *most)
{
    MF_ALIGNED_LANES(indices);
    mf_storew(indices, index);
    return mf_best_lane(value, indices, NULL, most);
}

mf_face_query MF_NAMED(mf_box_hull_faces, MF_WIDE_NAME)(const mf_hull_view *hull, const mf_box_in_hull *box)
{
    // Each lane keeps its first best face (faces come in ascending order per lane). Registers load
    // past the hull's last face within the bank's padding (MF_BANK_PAD): those lanes take no part.
    mf_vec3w centre = mf_splat3w(box->centre);
    const mf_vec3w axis[3] = {mf_splat3w(box->axis[0]), mf_splat3w(box->axis[1]), mf_splat3w(box->axis[2])};
    mf_floatw best = mf_splatw(-INFINITY), best_face = mf_splatw(0.0f);
    for (uint32_t f = 0; f < hull->face_count; f += W) {
        mf_vec3w normal = mf_load3uw(hull->normal_x + f, hull->normal_y + f, hull->normal_z + f);
        const mf_floatw along[3] = {mf_dotw(normal, axis[0]), mf_dotw(normal, axis[1]), mf_dotw(normal, axis[2])};
        mf_floatw height = mf_subw(mf_dotw(normal, centre), mf_loaduw(hull->offset + f));
        mf_floatw separation = mf_subw(height, box_reach(box, along));
        mf_floatw face = mf_addw(mf_lane_indexw(), mf_splatw((float)f));
        mf_maskw better = mf_andw(mf_ltw(face, mf_splatw((float)hull->face_count)), mf_gtw(separation, best));
        best = mf_selectw(better, separation, best);
        best_face = mf_selectw(better, face, best_face);
    }
    float most;
    uint32_t lane = winning_lane(best, best_face, &most);
    if (!(most > -INFINITY)) return (mf_face_query){-INFINITY, 0};
    MF_ALIGNED_LANES(faces);
    mf_storew(faces, best_face);
    return (mf_face_query){most, (uint32_t)faces[lane]};
}

mf_box_edge_query MF_NAMED(mf_box_hull_edges, MF_WIDE_NAME)(const mf_hull_view *hull, const mf_box_in_hull *box)
{
    // Hull edge j (unit direction d, face normals n0 and n1, vertex p) against box axis u_k: the
    // arc from n0 to n1 crosses the circle normal to u_k where n0 . u_k and n1 . u_k differ in
    // sign, at n = s (d x u_k) / |d x u_k| with s the sign of n0 . u_k. There the hull's support
    // along n is p and the box's along -n its centre c less its reach, so the separation from the
    // hull to the box is (s u_k . ((c - p) x d) - reach) / |d x u_k|, where with t_m = d . u_m
    // the reach is half_k1 |t_k2| + half_k2 |t_k1| and |d x u_k|^2 = t_k1^2 + t_k2^2 (k1, k2 the
    // other two axes in cyclic order).
    const float *rows = hull->edge_rows;
    size_t stride = mf_edge_rows_padded(hull->edge_count);
    mf_vec3w centre = mf_splat3w(box->centre);
    const mf_vec3w axis[3] = {mf_splat3w(box->axis[0]), mf_splat3w(box->axis[1]), mf_splat3w(box->axis[2])};
    mf_floatw zero = mf_splatw(0.0f), parallel = mf_splatw(MF_PARALLEL_SINE);
    mf_floatw best = mf_splatw(-INFINITY), best_edge = zero, best_axis = zero;
    // The edge rows pad with zero normals to whole registers (rows.h, scale.c): the lanes past the
    // last edge never cross, so no lane needs testing against the edge count.
    for (uint32_t e = 0; e < hull->edge_count; e += W) {
        const float *at = rows + e;
        mf_vec3w normal0 = mf_load3uw(at, at + stride, at + 2 * stride);
        mf_vec3w normal1 = mf_load3uw(at + 3 * stride, at + 4 * stride, at + 5 * stride);
        mf_vec3w vertex = mf_load3uw(at + 6 * stride, at + 7 * stride, at + 8 * stride);
        mf_vec3w direction = mf_load3uw(hull->edge_x + e, hull->edge_y + e, hull->edge_z + e);
        mf_vec3w moment = mf_cross3w(mf_sub3w(centre, vertex), direction);
        mf_floatw t[3], size[3], edge = mf_addw(mf_lane_indexw(), mf_splatw((float)e));
        for (int m = 0; m < 3; ++m) {
            t[m] = mf_dotw(direction, axis[m]);
            size[m] = mf_absw(t[m]);
        }
        for (int k = 0; k < 3; ++k) {
            int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
            mf_floatw side0 = mf_dotw(normal0, axis[k]), side1 = mf_dotw(normal1, axis[k]);
            mf_floatw length = mf_sqrtw(mf_addw(mf_mulw(t[k1], t[k1]), mf_mulw(t[k2], t[k2])));
            mf_maskw crossing = mf_andw(mf_ltw(mf_mulw(side0, side1), zero), mf_gew(length, parallel));
            mf_floatw turn = mf_dotw(moment, axis[k]);
            mf_floatw reach =
                mf_addw(mf_mulw(mf_splatw(box->half[k1]), size[k2]), mf_mulw(mf_splatw(box->half[k2]), size[k1]));
            // s is side0's sign: a crossing's side0 is not zero (side0 side1 < 0), so flipping
            // turn by its sign bit is the selection of turn or -turn, in fewer operations.
            mf_floatw separation = mf_divw(mf_subw(mf_flip_by_signw(turn, side0), reach), length);
            mf_maskw better = mf_andw(crossing, mf_gtw(separation, best));
            best = mf_selectw(better, separation, best);
            best_edge = mf_selectw(better, edge, best_edge);
            best_axis = mf_selectw(better, mf_splatw((float)k), best_axis);
        }
    }
    float most;
    uint32_t lane = winning_lane(best, best_edge, &most);
    if (!(most > -INFINITY)) return (mf_box_edge_query){-INFINITY, 0, 0};
    MF_ALIGNED_LANES(edges);
    MF_ALIGNED_LANES(axes);
    mf_storew(edges, best_edge);
    mf_storew(axes, best_axis);
    return (mf_box_edge_query){most, (uint32_t)edges[lane], (uint32_t)axes[lane]};
}
