// A large hull's support map: the unit sphere of directions unfolded onto a square (the
// octahedral map: a direction over its L1 norm, the lower half folded over the diagonals) and cut
// into MF_SUPPORT_MAP_SIDE^2 cells, each naming the vertex that supports its centre direction: its
// x, y, z in the hull's frame and its index as a float, MF_SUPPORT_MAP_ENTRY floats a cell.
// For a direction in the cell that vertex supports it or lies close below the supporting plane
// (less than about the hull's radius times the square of the cell's half width), so it answers a
// support query to within a small bound in one lookup, where a search over the vertices costs
// their count. The queries of large hulls use it for bounds that let them skip work, never for an
// answer: any vertex of the hull gives a valid bound, a vertex near the support a tight one.
// The bank keeps a map for hulls with more than MF_WIDE_MAX_VERTICES vertices (bank.c).
#pragma once

#include "vec.h"

#include <stdint.h>

#define MF_SUPPORT_MAP_SIDE 32
#define MF_SUPPORT_MAP_CELLS (MF_SUPPORT_MAP_SIDE * MF_SUPPORT_MAP_SIDE)
#define MF_SUPPORT_MAP_ENTRY 4

// The cell of direction d (any length but zero), as the wide build computes it, operation for
// operation: every ISA looks up the same cell.
static inline uint32_t mf_support_map_cell(mf_vec3 d)
{
    const float half = 0.5f * MF_SUPPORT_MAP_SIDE, last = MF_SUPPORT_MAP_SIDE - 1;
    float length = fabsf(d.x) + fabsf(d.y) + fabsf(d.z);
    float u = d.x / length, v = d.y / length;
    if (d.z < 0.0f) { // the lower half folded over the diagonals
        float folded_u = 1.0f - fabsf(v), folded_v = 1.0f - fabsf(u);
        u = u >= 0.0f ? folded_u : -folded_u;
        v = v >= 0.0f ? folded_v : -folded_v;
    }
    float row = mf_minf(truncf((u + 1.0f) * half), last), column = mf_minf(truncf((v + 1.0f) * half), last);
    return (uint32_t)(row * MF_SUPPORT_MAP_SIDE + column);
}

// The unit direction at the centre of a cell (the bank's, to fill the map).
static inline mf_vec3 mf_support_map_centre(uint32_t cell)
{
    double u = ((double)(cell / MF_SUPPORT_MAP_SIDE) + 0.5) / MF_SUPPORT_MAP_SIDE * 2.0 - 1.0;
    double v = ((double)(cell % MF_SUPPORT_MAP_SIDE) + 0.5) / MF_SUPPORT_MAP_SIDE * 2.0 - 1.0;
    double z = 1.0 - fabs(u) - fabs(v);
    if (z < 0.0) { // unfold the lower half
        double unfolded_u = (1.0 - fabs(v)) * (u >= 0.0 ? 1.0 : -1.0);
        double unfolded_v = (1.0 - fabs(u)) * (v >= 0.0 ? 1.0 : -1.0);
        u = unfolded_u;
        v = unfolded_v;
    }
    double length = sqrt(u * u + v * v + z * z);
    return (mf_vec3){(float)(u / length), (float)(v / length), (float)(z / length)};
}

#ifdef MF_WIDE_WIDTH
#include "wide.h"

// mf_support_map_cell in lanes: each lane's cell index as a float.
static inline mf_floatw mf_support_map_cellw(mf_vec3w d)
{
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f);
    mf_floatw half = mf_splatw(0.5f * MF_SUPPORT_MAP_SIDE), last = mf_splatw(MF_SUPPORT_MAP_SIDE - 1);
    mf_floatw length = mf_addw(mf_addw(mf_absw(d.x), mf_absw(d.y)), mf_absw(d.z));
    mf_floatw u = mf_divw(d.x, length), v = mf_divw(d.y, length);
    mf_floatw folded_u = mf_subw(one, mf_absw(v)), folded_v = mf_subw(one, mf_absw(u));
    folded_u = mf_selectw(mf_gew(u, zero), folded_u, mf_negw(folded_u));
    folded_v = mf_selectw(mf_gew(v, zero), folded_v, mf_negw(folded_v));
    mf_maskw lower = mf_ltw(d.z, zero);
    u = mf_selectw(lower, folded_u, u);
    v = mf_selectw(lower, folded_v, v);
    mf_floatw row = mf_minw(mf_truncw(mf_mulw(mf_addw(u, one), half)), last);
    mf_floatw column = mf_minw(mf_truncw(mf_mulw(mf_addw(v, one), half)), last);
    return mf_addw(mf_mulw(row, mf_splatw(MF_SUPPORT_MAP_SIDE)), column);
}

// The vertex the map names for each lane's cell (mf_support_map_cellw): its point in the hull's
// frame and its index. The cells' entries are loaded and transposed together (mf_load_columns4w).
static inline void mf_support_map_lookupw(const float *map, mf_floatw cell, mf_vec3w *point, mf_floatw *vertex)
{
    int32_t cells[MF_WIDE_WIDTH];
    mf_store_intw(cells, cell); // converted in lanes, not one lane at a time
    const float *entry[MF_WIDE_WIDTH];
    for (int l = 0; l < MF_WIDE_WIDTH; ++l) entry[l] = map + MF_SUPPORT_MAP_ENTRY * (uint32_t)cells[l];
    mf_floatw column[4];
    mf_load_columns4w(entry, column);
    *point = (mf_vec3w){column[0], column[1], column[2]};
    *vertex = column[3];
}
#endif
