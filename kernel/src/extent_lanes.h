// A hull's extent along a direction in the ISA's lanes, compiled once per ISA (extent_lanes.c):
// the least n . v over its vertices, and the first vertex that attains it. The per-pair path
// reads them through its frame (sat.c: the incident face's deepest vertex, a gap along an axis)
// and the router for its test along the centres (pair.c).
#pragma once

#include "vec.h"

#include <stdint.h>

// Over `count` points given as rows x, y, z, each n . v as mf_dot(n, v): the least (a zero as +0),
// and the index of the first point with the least, the same bits in every build. Loads run up to
// 15 entries past the last (MF_BANK_PAD, the frames' rows), whose lanes take no part.
typedef float mf_lowest_along_fn(const float *x, const float *y, const float *z, uint32_t count, mf_vec3 n);
typedef uint32_t mf_deepest_along_fn(const float *x, const float *y, const float *z, uint32_t count, mf_vec3 n);

typedef struct mf_extent_kernel {
    mf_lowest_along_fn *lowest;
    mf_deepest_along_fn *deepest;
} mf_extent_kernel;

// W at a time where W >= 8; the narrower builds take four lanes (lanes4.h).
mf_lowest_along_fn mf_lowest_along_scalar, mf_lowest_along_sse, mf_lowest_along_avx2, mf_lowest_along_avx512,
    mf_lowest_along_avx512_intel, mf_lowest_along_neon;
mf_deepest_along_fn mf_deepest_along_scalar, mf_deepest_along_sse, mf_deepest_along_avx2, mf_deepest_along_avx512,
    mf_deepest_along_avx512_intel, mf_deepest_along_neon;
