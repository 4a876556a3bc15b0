// The edge query by walking the Gauss map (edge_walk.c), compiled once per ISA and once with
// width 1 for the scalar path; every build returns the same.
#pragma once

#include "sat.h"

mf_edge_walk_fn mf_edge_walk_scalar, mf_edge_walk_sse, mf_edge_walk_avx2, mf_edge_walk_avx512,
    mf_edge_walk_avx512_intel, mf_edge_walk_neon;
