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

// The lanes in memory, a row per quantity.
typedef struct mf_edge_best_rows {
    _Alignas(64) float separation[MF_WIDE_WIDTH], edge_a[MF_WIDE_WIDTH], edge_b[MF_WIDE_WIDTH];
    _Alignas(64) float normal_x[MF_WIDE_WIDTH], normal_y[MF_WIDE_WIDTH], normal_z[MF_WIDE_WIDTH];
} mf_edge_best_rows;

static inline void mf_edge_best_store(const mf_edge_bestw *best, mf_edge_best_rows *rows)
{
    mf_storew(rows->separation, best->separation);
    mf_storew(rows->edge_a, best->i);
    mf_storew(rows->edge_b, best->j);
    mf_storew(rows->normal_x, best->normal.x);
    mf_storew(rows->normal_y, best->normal.y);
    mf_storew(rows->normal_z, best->normal.z);
}

static inline mf_edge_query mf_edge_best_lane(const mf_edge_best_rows *rows, int l)
{
    return (mf_edge_query){rows->separation[l],
                           (uint32_t)rows->edge_a[l],
                           (uint32_t)rows->edge_b[l],
                           {rows->normal_x[l], rows->normal_y[l], rows->normal_z[l]}};
}

static inline void mf_edge_best_lanes(const mf_edge_bestw *best, mf_edge_query lanes[MF_WIDE_WIDTH])
{
    mf_edge_best_rows rows;
    mf_edge_best_store(best, &rows);
    for (int l = 0; l < MF_WIDE_WIDTH; ++l) lanes[l] = mf_edge_best_lane(&rows, l);
}

// The best of all lanes, as if each lane's answer in turn were offered to mf_edge_pair_beats from
// nothing found: the greatest separation, ties to the lowest (i, j). Found in lanes, then read
// from the one lane holding it (equal separations in several lanes are rare).
static inline mf_edge_query mf_edge_best_across(const mf_edge_bestw *best)
{
    mf_edge_best_rows rows;
    mf_edge_best_store(best, &rows);
    float most;
    uint32_t chosen = mf_best_lane(best->separation, rows.edge_a, rows.edge_b, &most); // never a NaN
    if (!(most > -INFINITY)) return (mf_edge_query){-INFINITY, 0, 0, {0, 0, 0}};
    return mf_edge_best_lane(&rows, (int)chosen);
}
