// A box-hull pair's queries in the pair's terms (box_hull_pair.c), on every path: the closed-form
// queries in the hull's frame (box_hull.h, built per ISA) turned into a's and b's features.
#pragma once

#include "box_hull.h"

// mf_query_pair for a box and a hull (mf_is_box_hull_pair): both hulls' face queries, then the edge
// query, measured (mf_measure_edge_axis); returns 0 if the pair is apart by the margin or more.
int mf_query_box_hull(const mf_pair_frame *frame, float margin, const mf_box_hull_kernel *kernel,
                      mf_axis_candidates *candidates);
