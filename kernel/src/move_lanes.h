// A hull's vertices moved between a pair's frames in lanes, compiled once per ISA (move_lanes.c),
// for mf_frame_setup (pair.c): a large hull's, and a box-hull pair's hull with its bounds.
#pragma once

#include "sat.h"

// The hull's vertices moved as rows x, y, z into `rows` (MF_VERTEX_ROWS_STRIDE apart; NULL: not
// stored): m v + t, or with `back` m^T (v - t), each as pair.c's four-lane move computes it, bit for
// bit. Where `low` is not NULL, their bounds in the new frame into it and `high`, as pair.c's move
// finds them but for the sign of a zero bound (the box-hull queries read a box's faces off them,
// less a positive half extent, which does not see it). Loads run up to W - 1 vertices
// past the shape's last, within the bank's arrays (MF_BANK_PAD), and stores as far past the rows'
// last entry, within the stride.
typedef void mf_move_rows_fn(const mf_hull_view *hull, const mf_mat3 *m, mf_vec3 t, int back, float *rows, mf_vec3 *low,
                             mf_vec3 *high);

// The builds wider than four lanes; narrower ones move four at a time in pair.c.
mf_move_rows_fn mf_move_rows_avx2, mf_move_rows_avx512, mf_move_rows_avx512_intel;
