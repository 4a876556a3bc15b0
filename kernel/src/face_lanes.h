// The face query of one pair with lanes across the hull's faces, compiled once per ISA
// (face_lanes.c): for hulls beyond the wide limits, whose face queries run per pair.
#pragma once

#include "sat.h"

// Each returns what mf_query_faces (sat.c) does, bit for bit.
mf_face_search_fn mf_face_lanes_sse, mf_face_lanes_avx2, mf_face_lanes_avx512, mf_face_lanes_avx512_intel,
    mf_face_lanes_neon;
