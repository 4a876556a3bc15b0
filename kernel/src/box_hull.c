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

// How the edge query takes its candidates: 0, a register per box axis; 1, a register per crossing
// of each lane's arc (the build for Intel's cores sets it: meson.build; MF_BOX_EDGES_THREE_AXES
// overrides it, for an A/B). The same winner either way.
#if !defined(MF_BOX_EDGES_BY_CROSSING) || defined(MF_BOX_EDGES_THREE_AXES)
#undef MF_BOX_EDGES_BY_CROSSING
#define MF_BOX_EDGES_BY_CROSSING 0
#endif

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

// Each lane's best edge candidate so far: its separation, hull edge and box axis.
typedef struct edge_best {
    mf_floatw separation, edge, axis;
} edge_best;

// A register of candidates, one per lane where `taken`: the separation rise / sqrt(squared), kept
// where it beats the lane's best (the first of equals stays) and its denominator is not too short
// (nearly parallel edges make no axis).
static inline void take_candidate(edge_best *best, mf_maskw taken, mf_floatw rise, mf_floatw squared, mf_floatw edge,
                                  mf_floatw axis)
{
    mf_floatw length = mf_sqrtw(squared);
    mf_floatw separation = mf_divw(rise, length);
    mf_maskw better =
        mf_andw(mf_andw(taken, mf_gew(length, mf_splatw(MF_PARALLEL_SINE))), mf_gtw(separation, best->separation));
    best->separation = mf_selectw(better, separation, best->separation);
    best->edge = mf_selectw(better, edge, best->edge);
    best->axis = mf_selectw(better, axis, best->axis);
}

// An edge register's candidate with box axis k: the separation's numerator (s u_k . ((c - p) x d)
// less the reach, below), its denominator squared, and whether the arc crosses the axis's circle
// (the denominator's size is tested once it is taken). t and size hold d . u_m and its size.
typedef struct axis_candidate {
    mf_floatw rise, squared;
    mf_maskw crosses;
} axis_candidate;

static inline axis_candidate candidate_along(const mf_box_in_hull *box, const mf_vec3w axis[3], int k, mf_vec3w normal0,
                                             mf_vec3w normal1, mf_vec3w moment, const mf_floatw t[3],
                                             const mf_floatw size[3])
{
    int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    mf_floatw side0 = mf_dotw(normal0, axis[k]), side1 = mf_dotw(normal1, axis[k]);
    mf_floatw turn = mf_dotw(moment, axis[k]);
    mf_floatw reach = mf_addw(mf_mulw(mf_splatw(box->half[k1]), size[k2]), mf_mulw(mf_splatw(box->half[k2]), size[k1]));
    // s is side0's sign: a crossing's side0 is not zero (side0 side1 < 0), so flipping turn by its
    // sign bit is the selection of turn or -turn, in fewer operations.
    return (axis_candidate){mf_subw(mf_flip_by_signw(turn, side0), reach),
                            mf_addw(mf_mulw(t[k1], t[k1]), mf_mulw(t[k2], t[k2])),
                            mf_ltw(mf_mulw(side0, side1), mf_splatw(0.0f))};
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
    mf_floatw zero = mf_splatw(0.0f);
    edge_best best = {mf_splatw(-INFINITY), zero, zero};
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
#if MF_BOX_EDGES_BY_CROSSING
        axis_candidate along[3];
        for (int k = 0; k < 3; ++k) along[k] = candidate_along(box, axis, k, normal0, normal1, moment, t, size);
        // Each lane's first crossing, then its second, each a register, take the square roots and
        // divisions of the three axes' registers: an arc shorter than pi crosses one or two of
        // the three circles as a rule, all three seldom (9 of 291,000 registers of 16 edges in
        // pile_step), and a third register runs only where some lane does. Each lane keeps its
        // candidates in the axes' order, so the winner is the same. Where the divider is what
        // the loop waits on (the Intel table: a zmm division or square root there ties up the
        // divider longer than on Zen 4, whose multipliers are as busy as its divider here), the
        // blends cost less than the third division and square root.
        mf_floatw one = mf_splatw(1.0f), two = mf_splatw(2.0f);
        mf_maskw in0 = along[0].crosses, in1 = along[1].crosses, in2 = along[2].crosses;
        mf_maskw second_is_1 = mf_andw(in0, in1);
        mf_maskw first = mf_orw(in0, mf_orw(in1, in2));
        mf_maskw second = mf_orw(second_is_1, mf_andw(in2, mf_orw(in0, in1)));
        take_candidate(&best, first, mf_selectw(in0, along[0].rise, mf_selectw(in1, along[1].rise, along[2].rise)),
                       mf_selectw(in0, along[0].squared, mf_selectw(in1, along[1].squared, along[2].squared)), edge,
                       mf_selectw(in0, zero, mf_selectw(in1, one, two)));
        take_candidate(&best, second, mf_selectw(second_is_1, along[1].rise, along[2].rise),
                       mf_selectw(second_is_1, along[1].squared, along[2].squared), edge,
                       mf_selectw(second_is_1, one, two));
        mf_maskw third = mf_andw(second_is_1, in2);
        if (mf_anyw(third)) take_candidate(&best, third, along[2].rise, along[2].squared, edge, two);
#else
        // A register per axis, each candidate taken as it is made. The same operations as
        // candidate_along's and take_candidate's, written out: through them this loop read 1% to
        // 2% slower on Zen 4 (crowd, pile_step), where the code the compiler wrote differed only in
        // its order.
        mf_floatw parallel = mf_splatw(MF_PARALLEL_SINE);
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
            mf_maskw better = mf_andw(crossing, mf_gtw(separation, best.separation));
            best.separation = mf_selectw(better, separation, best.separation);
            best.edge = mf_selectw(better, edge, best.edge);
            best.axis = mf_selectw(better, mf_splatw((float)k), best.axis);
        }
#endif
    }
    float most;
    uint32_t lane = winning_lane(best.separation, best.edge, &most);
    if (!(most > -INFINITY)) return (mf_box_edge_query){-INFINITY, 0, 0};
    MF_ALIGNED_LANES(edges);
    MF_ALIGNED_LANES(axes);
    mf_storew(edges, best.edge);
    mf_storew(axes, best.axis);
    return (mf_box_edge_query){most, (uint32_t)edges[lane], (uint32_t)axes[lane]};
}
