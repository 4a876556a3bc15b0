// The edge query of one pair with lanes across a's edges: b's edge j is broadcast and tested
// against MF_WIDE_WIDTH of a's edges at once, straight from the shape's edge rows (rows.h), so a
// bundle of mixed hulls needs no gathering of edges. Every lane performs the operations of
// mf_query_edges (sat.c) in the same order, and ties go to the lowest (i, j) as there, so the
// result is the scalar path's bit for bit.
#include "edge_lanes.h"
#include "wide.h"

#define MF_GLUE(a, b) a##_##b
#define MF_NAMED(a, b) MF_GLUE(a, b)

enum { W = MF_WIDE_WIDTH };
_Static_assert(MF_EDGE_LANES % MF_WIDE_WIDTH == 0, "edge rows pad to whole registers");

typedef struct edge_lanes_best {
    mf_floatw separation, i, j;
    mf_vec3w normal;
} edge_lanes_best;

static inline mf_vec3w splat3(mf_vec3 v) { return (mf_vec3w){mf_splatw(v.x), mf_splatw(v.y), mf_splatw(v.z)}; }

static inline mf_vec3w edge_row3(const float *rows, uint32_t padded, uint32_t first_row, uint32_t i)
{
    return (mf_vec3w){mf_loaduw(rows + (size_t)first_row * padded + i),
                      mf_loaduw(rows + (size_t)(first_row + 1) * padded + i),
                      mf_loaduw(rows + (size_t)(first_row + 2) * padded + i)};
}

mf_edge_query MF_NAMED(mf_edge_lanes, MF_WIDE_NAME)(const mf_pair_frame *frame)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    // With a's edges culled, lane i holds the i-th kept edge: kept edges ascend, so ties still go
    // to the lowest edge.
    const float *rows = frame->a_edge_rows != NULL ? frame->a_edge_rows : a->edge_rows;
    uint32_t padded = mf_edge_rows_padded(frame->a_edge_rows != NULL ? frame->a_edge_count : a->edge_count);
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f), minus_one = mf_splatw(-1.0f);
    mf_floatw sine = mf_splatw(MF_PARALLEL_SINE);
    MF_ALIGNED_LANES(lane_offsets);
    for (int l = 0; l < W; ++l) lane_offsets[l] = (float)l;
    mf_floatw lane_index = mf_loadw(lane_offsets);
    edge_lanes_best best = {mf_splatw(-INFINITY), zero, zero, {zero, zero, zero}};
    uint32_t b_count = frame->b_edges != NULL ? frame->b_edge_count : b->edge_count;
    for (uint32_t k = 0; k < b_count; ++k) {
        uint32_t j = frame->b_edges != NULL ? frame->b_edges[k] : k;
        mf_vec3w b_normal0 = splat3(frame->b_normals[b->edge_face0[j]]);
        mf_vec3w b_normal1 = splat3(frame->b_normals[b->edge_face1[j]]);
        mf_vec3w b_direction = splat3(frame->b_directions[j]);
        mf_floatw index_j = mf_splatw((float)j);
        for (uint32_t i = 0; i < padded; i += W) {
            // As mf_edge_pair_crosses.
            mf_vec3w a_direction = edge_row3(rows, padded, 6, i);
            mf_floatw a0 = mf_dotw(b_direction, edge_row3(rows, padded, 0, i));
            mf_floatw a1 = mf_dotw(b_direction, edge_row3(rows, padded, 3, i));
            mf_floatw b0 = mf_dotw(a_direction, b_normal0), b1 = mf_dotw(a_direction, b_normal1);
            mf_maskw crossing = mf_andw(mf_andw(mf_ltw(mf_mulw(a0, a1), zero), mf_ltw(mf_mulw(b0, b1), zero)),
                                        mf_gtw(mf_mulw(a0, b0), zero));
            if (!mf_anyw(crossing)) continue;

            // As mf_edge_pair_measure.
            mf_vec3w axis = mf_cross3w(a_direction, b_direction);
            mf_floatw length = mf_sqrtw(mf_dotw(axis, axis));
            mf_maskw valid = mf_andw(crossing, mf_gew(length, sine));
            if (!mf_anyw(valid)) continue;
            axis = mf_scale3w(axis, mf_divw(mf_selectw(mf_gtw(a0, zero), one, minus_one), length));
            mf_vec3w b_point = splat3(frame->b_vertices[b->edge_vertex0[j]]);
            mf_floatw separation = mf_dotw(axis, mf_sub3w(b_point, edge_row3(rows, padded, 9, i)));

            // A lane meets its edges i in the order (j, i); the first of equals in (i, j) order wins.
            mf_floatw index_i = mf_addw(mf_splatw((float)i), lane_index);
            mf_maskw tie = mf_andw(mf_eqw(separation, best.separation), mf_ltw(index_i, best.i));
            mf_maskw better = mf_andw(valid, mf_orw(mf_gtw(separation, best.separation), tie));
            best.separation = mf_selectw(better, separation, best.separation);
            best.i = mf_selectw(better, index_i, best.i);
            best.j = mf_selectw(better, index_j, best.j);
            best.normal = mf_select3w(better, axis, best.normal);
        }
    }

    MF_ALIGNED_LANES(separations);
    MF_ALIGNED_LANES(edges_a);
    MF_ALIGNED_LANES(edges_b);
    MF_ALIGNED_LANES(normal_x);
    MF_ALIGNED_LANES(normal_y);
    MF_ALIGNED_LANES(normal_z);
    mf_storew(separations, best.separation);
    mf_storew(edges_a, best.i);
    mf_storew(edges_b, best.j);
    mf_storew(normal_x, best.normal.x);
    mf_storew(normal_y, best.normal.y);
    mf_storew(normal_z, best.normal.z);
    mf_edge_query result = {-INFINITY, 0, 0, {0, 0, 0}};
    for (int l = 0; l < W; ++l) {
        uint32_t i = (uint32_t)edges_a[l], j = (uint32_t)edges_b[l];
        if (separations[l] > result.separation ||
            (separations[l] == result.separation && (i < result.edge_a || (i == result.edge_a && j < result.edge_b))))
            result = (mf_edge_query){separations[l], i, j, {normal_x[l], normal_y[l], normal_z[l]}};
    }
    if (frame->a_edge_rows != NULL && result.separation > -INFINITY) result.edge_a = frame->a_edges[result.edge_a];
    return result;
}
