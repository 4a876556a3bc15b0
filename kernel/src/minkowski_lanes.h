// mf_minkowski_face (sat.h) in lanes, for the code built per ISA: the Gauss-map test of the edge
// pairs in the query in lanes (edge_lanes.c) and in the walk's fan tests (edge_walk.c).
#pragma once

#include "wide.h"

// The lanes where a0 a1 < 0, b0 b1 < 0 and a0 b0 > 0, in one compare: the greatest of the first
// two products and the third's negation below zero (a zero product fails as it fails its own
// compare), where three compares and two ANDs took five operations.
static inline mf_maskw mf_minkowski_facew(mf_floatw a0, mf_floatw a1, mf_floatw b0, mf_floatw b1)
{
    return mf_ltw(mf_maxw(mf_maxw(mf_mulw(a0, a1), mf_mulw(b0, b1)), mf_negw(mf_mulw(a0, b0))), mf_splatw(0.0f));
}
