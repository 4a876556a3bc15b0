// Moving a hull's vertices into the other body's frame in lanes, W at a time: a large hull's, and a
// box-hull pair's hull with its bounds in the box's frame. pair.c's own move takes four vertices a
// register, which on hull48 made the frame set-up a tenth of the pair's time; its rows here, the
// same floats (mf_mat3_mulw and mf_mat3_mul_transposedw keep mf_mat3_mul's
// and mf_mat3_mul_transposed's order of operations, as pair.c's four lanes do).
#include "move_lanes.h"
#include "bank.h"
#include "core.h"
#include "wide.h"

enum { W = MF_WIDE_WIDTH };

#if MF_WIDE_WIDTH >= 8
// Constant `rows` and `low` per caller below: the copies test nothing per register.
static MF_ALWAYS_INLINE void move_in_lanes(const mf_hull_view *hull, const mf_mat3 *m, mf_vec3 t, int back, float *rows,
                                           mf_vec3 *low, mf_vec3 *high)
{
    _Static_assert(MF_BANK_PAD >= W - 1 && MF_VERTEX_ROWS_STRIDE >= MF_MAX_HULL_VERTICES + W - 1,
                   "whole registers of vertices");
    MF_ASSERT(hull->vertex_count <= MF_MAX_HULL_VERTICES && (low == NULL) == (high == NULL));
    const mf_mat3w rotation = {{mf_splat3w(m->row[0]), mf_splat3w(m->row[1]), mf_splat3w(m->row[2])}};
    const mf_vec3w shift = mf_splat3w(t);
    const mf_floatw none_low = mf_splatw(INFINITY), none_high = mf_splatw(-INFINITY);
    mf_vec3w lows = {none_low, none_low, none_low}, highs = {none_high, none_high, none_high};
    uint32_t count = hull->vertex_count;
    for (uint32_t v = 0; v < count; v += W) {
        mf_vec3w point = mf_load3uw(hull->vertex_x + v, hull->vertex_y + v, hull->vertex_z + v);
        mf_vec3w moved = back ? mf_mat3_mul_transposedw(&rotation, mf_sub3w(point, shift))
                              : mf_add3w(mf_mat3_mulw(&rotation, point), shift);
        if (rows != NULL) {
            mf_storeuw(rows + v, moved.x);
            mf_storeuw(rows + MF_VERTEX_ROWS_STRIDE + v, moved.y);
            mf_storeuw(rows + 2 * MF_VERTEX_ROWS_STRIDE + v, moved.z);
        }
        if (low == NULL) continue;
        // Lanes past the last vertex hold the padding, moved: they take no part.
        mf_vec3w lowest = moved, highest = moved;
        if (v + W > count) {
            mf_maskw in = mf_ltw(mf_addw(mf_lane_indexw(), mf_splatw((float)v)), mf_splatw((float)count));
            lowest = (mf_vec3w){mf_selectw(in, moved.x, none_low), mf_selectw(in, moved.y, none_low),
                                mf_selectw(in, moved.z, none_low)};
            highest = (mf_vec3w){mf_selectw(in, moved.x, none_high), mf_selectw(in, moved.y, none_high),
                                 mf_selectw(in, moved.z, none_high)};
        }
        lows = (mf_vec3w){mf_minw(lows.x, lowest.x), mf_minw(lows.y, lowest.y), mf_minw(lows.z, lowest.z)};
        highs = (mf_vec3w){mf_maxw(highs.x, highest.x), mf_maxw(highs.y, highest.y), mf_maxw(highs.z, highest.z)};
    }
    if (low == NULL) return;
    *low = (mf_vec3){mf_min_acrossw(lows.x), mf_min_acrossw(lows.y), mf_min_acrossw(lows.z)};
    *high = (mf_vec3){mf_max_acrossw(highs.x), mf_max_acrossw(highs.y), mf_max_acrossw(highs.z)};
}

void MF_NAMED(mf_move_rows, MF_WIDE_NAME)(const mf_hull_view *hull, const mf_mat3 *m, mf_vec3 t, int back, float *rows,
                                          mf_vec3 *low, mf_vec3 *high)
{
    if (low == NULL) move_in_lanes(hull, m, t, back, rows, NULL, NULL);
    else if (rows == NULL) move_in_lanes(hull, m, t, back, NULL, low, high);
    else move_in_lanes(hull, m, t, back, rows, low, high);
}
#endif
