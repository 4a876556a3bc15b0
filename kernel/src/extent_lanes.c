// A hull's extent along a direction, W vertices at a time. The four-lane scans (lanes4.h) took a
// hull of 32 vertices in eight registers; AVX-512 takes it in two.
#include "extent_lanes.h"
#include "bank.h"
#include "sat.h"
#include "wide.h"

enum { W = MF_WIDE_WIDTH };

#if MF_WIDE_WIDTH >= 8
_Static_assert(MF_BANK_PAD >= W - 1 && MF_VERTEX_ROWS_STRIDE >= MF_MAX_HULL_VERTICES + W - 1,
               "a register past the last vertex stays within the bank's padding and the frames' rows");

// n . v for the W points from entry v on.
static inline mf_floatw dot_rows(mf_vec3w n, const float *x, const float *y, const float *z, uint32_t v)
{
    return mf_dotw(mf_load3uw(x + v, y + v, z + v), n);
}

float MF_NAMED(mf_lowest_along, MF_WIDE_NAME)(const float *x, const float *y, const float *z, uint32_t count, mf_vec3 n)
{
    const mf_vec3w along = mf_splat3w(n);
    const mf_floatw infinity = mf_splatw(INFINITY);
    mf_floatw least = infinity;
    uint32_t v = 0;
    for (; v + W <= count; v += W) least = mf_minw(least, dot_rows(along, x, y, z, v));
    if (v < count) {
        mf_maskw inside = mf_ltw(mf_lane_indexw(), mf_splatw((float)(count - v)));
        least = mf_minw(least, mf_selectw(inside, dot_rows(along, x, y, z, v), infinity));
    }
    return mf_min_acrossw(least) + 0.0f; // a zero as +0, as mf_lowest_along
}

uint32_t MF_NAMED(mf_deepest_along, MF_WIDE_NAME)(const float *x, const float *y, const float *z, uint32_t count,
                                                  mf_vec3 n)
{
    // Each lane keeps its first least; the least of those with the lowest index wins, as a scan in
    // order would.
    const mf_vec3w along = mf_splat3w(n);
    const mf_floatw end = mf_splatw((float)count);
    mf_floatw least = mf_splatw(INFINITY), index = mf_splatw(0.0f);
    for (uint32_t v = 0; v < count; v += W) {
        mf_floatw at = mf_addw(mf_lane_indexw(), mf_splatw((float)v)), d = dot_rows(along, x, y, z, v);
        mf_maskw lower = mf_andw(mf_ltw(d, least), mf_ltw(at, end)); // lanes past the last take no part
        least = mf_selectw(lower, d, least);
        index = mf_selectw(lower, at, index);
    }
    MF_ALIGNED_LANES(indices);
    mf_storew(indices, index);
    float lowest;
    return (uint32_t)indices[mf_best_lane(mf_negw(least), indices, NULL, &lowest)];
}
#else
#include "lanes4.h"

float MF_NAMED(mf_lowest_along, MF_WIDE_NAME)(const float *x, const float *y, const float *z, uint32_t count, mf_vec3 n)
{
    return mf_lowest_along4(x, y, z, count, n);
}

uint32_t MF_NAMED(mf_deepest_along, MF_WIDE_NAME)(const float *x, const float *y, const float *z, uint32_t count,
                                                  mf_vec3 n)
{
    return mf_deepest_along4(x, y, z, count, n);
}
#endif
