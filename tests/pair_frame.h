// Pairs set up as the kernel's queries see them (kernel/src/pair.h), for the tests of the queries
// themselves. Reads kernel/src headers: compiled into those tests, not into the reference library.
#pragma once

#include "edge_cull.h"
#include "pair.h"

// Bodies (shape[0], transform[0]) and (shape[1], transform[1]) of the bank as pair {0, 1}, set up
// for the queries in `scratch` (mf_frame_setup), which the frame points into; a's vertices in b's
// frame always, which the kernel leaves out for a box a against a hull.
mf_pair_frame test_pair_frame(const mf_bank *bank, const uint32_t shape[2], const mf_transform transform[2],
                              mf_pair_scratch *scratch);

// The same pair's frame exactly as `kernel` (dispatch.h; NULL: the scalar path's setup) sets it up
// for the queries: a box a's corners left out, and where the ISA moves vertices in lanes, a box-hull
// pair's hull moved with its bounds and a hull b's vertices kept as rows alone.
mf_pair_frame test_kernel_frame(const mf_bank *bank, const uint32_t shape[2], const mf_transform transform[2],
                                const struct mf_wide_kernel *kernel, mf_pair_scratch *scratch);

// The edge query over every pair of edges of the two hulls, unculled, as the all-pairs search tries
// them: the reference the culled and walked edge queries are held against. Rotates all of b's edges
// into the scratch's rows.
mf_edge_query test_every_edge_pair(const mf_pair_frame *frame, mf_pair_scratch *scratch);
