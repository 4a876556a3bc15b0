// The best edge axis of each lane, for the code built per ISA: kept in registers while the lanes
// search, handed out lane by lane as mf_edge_query.
#pragma once

#include "sat.h"
#include "wide.h"

typedef struct mf_edge_bestw {
    mf_floatw separation, i, j; // edge indices carried in floats
    mf_vec3w normal;
} mf_edge_bestw;

// Nothing found yet: every lane at -infinity, edges 0 and 0.
static inline mf_edge_bestw mf_edge_best_nonew(void)
{
    mf_floatw zero = mf_splatw(0.0f);
    return (mf_edge_bestw){mf_splatw(-INFINITY), zero, zero, {zero, zero, zero}};
}

static inline void mf_edge_best_lanes(const mf_edge_bestw *best, mf_edge_query lanes[MF_WIDE_WIDTH])
{
    MF_ALIGNED_LANES(separation);
    MF_ALIGNED_LANES(edge_a);
    MF_ALIGNED_LANES(edge_b);
    MF_ALIGNED_LANES(normal_x);
    MF_ALIGNED_LANES(normal_y);
    MF_ALIGNED_LANES(normal_z);
    mf_storew(separation, best->separation);
    mf_storew(edge_a, best->i);
    mf_storew(edge_b, best->j);
    mf_storew(normal_x, best->normal.x);
    mf_storew(normal_y, best->normal.y);
    mf_storew(normal_z, best->normal.z);
    for (int l = 0; l < MF_WIDE_WIDTH; ++l)
        lanes[l] = (mf_edge_query){
            separation[l], (uint32_t)edge_a[l], (uint32_t)edge_b[l], {normal_x[l], normal_y[l], normal_z[l]}};
}

// The best of all lanes, as if each lane's answer in turn were offered to mf_edge_pair_beats from
// nothing found: the greatest separation, ties to the lowest (i, j).
static inline mf_edge_query mf_edge_best_across(const mf_edge_bestw *best)
{
    MF_ALIGNED_LANES(separation);
    MF_ALIGNED_LANES(edge_a);
    MF_ALIGNED_LANES(edge_b);
    MF_ALIGNED_LANES(normal_x);
    MF_ALIGNED_LANES(normal_y);
    MF_ALIGNED_LANES(normal_z);
    mf_storew(separation, best->separation);
    float most = -INFINITY;
    for (int l = 0; l < MF_WIDE_WIDTH; ++l)
        if (separation[l] > most) most = separation[l]; // never a NaN
    mf_edge_query result = {-INFINITY, 0, 0, {0, 0, 0}};
    if (!(most > -INFINITY)) return result;
    mf_storew(edge_a, best->i);
    mf_storew(edge_b, best->j);
    mf_storew(normal_x, best->normal.x);
    mf_storew(normal_y, best->normal.y);
    mf_storew(normal_z, best->normal.z);
    uint32_t tied = mf_lane_bitsw(mf_eqw(best->separation, mf_splatw(most)));
    int chosen = -1;
    for (int l = 0; l < MF_WIDE_WIDTH; ++l) {
        if (!(tied >> l & 1u)) continue;
        if (chosen < 0 || edge_a[l] < edge_a[chosen] || (edge_a[l] == edge_a[chosen] && edge_b[l] < edge_b[chosen]))
            chosen = l;
    }
    return (mf_edge_query){most,
                           (uint32_t)edge_a[chosen],
                           (uint32_t)edge_b[chosen],
                           {normal_x[chosen], normal_y[chosen], normal_z[chosen]}};
}
