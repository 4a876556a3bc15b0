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
