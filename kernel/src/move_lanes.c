// Moving a large hull's vertices into the other hull's frame in lanes, W at a time. pair.c's own
// move takes four vertices a register, which on hull48 made the frame set-up a tenth of the pair's
// time; its rows here, the same floats (mf_mat3_mulw and mf_mat3_mul_transposedw keep mf_mat3_mul's
// and mf_mat3_mul_transposed's order of operations, as pair.c's four lanes do).
#include "move_lanes.h"
#include "bank.h"
#include "core.h"
#include "wide.h"

enum { W = MF_WIDE_WIDTH };

#if MF_WIDE_WIDTH >= 8
void MF_NAMED(mf_move_rows, MF_WIDE_NAME)(const mf_hull_view *hull, const mf_mat3 *m, mf_vec3 t, int back, float *rows)
{
    _Static_assert(MF_BANK_PAD >= W - 1 && MF_VERTEX_ROWS_STRIDE >= MF_MAX_HULL_VERTICES + W - 1,
                   "whole registers of vertices");
    MF_ASSERT(hull->vertex_count <= MF_MAX_HULL_VERTICES);
    const mf_mat3w rotation = {{mf_splat3w(m->row[0]), mf_splat3w(m->row[1]), mf_splat3w(m->row[2])}};
    const mf_vec3w shift = mf_splat3w(t);
    float *x = rows, *y = x + MF_VERTEX_ROWS_STRIDE, *z = y + MF_VERTEX_ROWS_STRIDE;
    for (uint32_t v = 0; v < hull->vertex_count; v += W) {
        mf_vec3w point = mf_load3uw(hull->vertex_x + v, hull->vertex_y + v, hull->vertex_z + v);
        mf_vec3w moved = back ? mf_mat3_mul_transposedw(&rotation, mf_sub3w(point, shift))
                              : mf_add3w(mf_mat3_mulw(&rotation, point), shift);
        mf_storeuw(x + v, moved.x);
        mf_storeuw(y + v, moved.y);
        mf_storeuw(z + v, moved.z);
    }
}
#endif
