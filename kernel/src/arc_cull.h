// The arc cull (edge_cull.h: mf_arc_cull), compiled once per ISA and once with width 1 for the
// scalar path (arc_cull.c); every build keeps the same edges.
#pragma once

#include "edge_cull.h"

mf_edge_arc_cull_fn mf_edge_arc_cull_scalar, mf_edge_arc_cull_sse, mf_edge_arc_cull_avx2, mf_edge_arc_cull_avx512,
    mf_edge_arc_cull_avx512_intel, mf_edge_arc_cull_neon;
