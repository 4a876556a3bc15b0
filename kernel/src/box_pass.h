// Box against box, end to end in SIMD lanes: closed-form separating axes, fixed-slot clipping,
// reduction and contact assembly for W pairs at once. The source box_pass.c is compiled once per
// ISA and once with width 1 for the scalar path, so every ISA computes exactly the same.
#pragma once

#include "dispatch.h"
#include "pair_answer.h"
#include "pair_result.h"

// One chunk's box pairs. Lanes whose chosen axis yields no contact (an edge pair whose closest
// points lie beyond the edges, a face clip that keeps nothing) are listed in `fallback` for the
// general per-pair path, which tries the other axes.
typedef struct mf_box_job {
    const mf_config *config;
    const mf_bank *bank;
    const mf_bodies *bodies;
    const mf_pair *pairs;
    const uint32_t *list; // the box pairs, as indices into pairs, results and answers
    uint32_t count;
    mf_pair_result *results;
    mf_pair_answer *answers; // where the call keeps cache entries, each pair's answer; else NULL
    uint32_t *fallback;      // out
    uint32_t fallback_count;
} mf_box_job;

mf_box_pairs_fn mf_box_pairs_scalar, mf_box_pairs_sse, mf_box_pairs_avx2, mf_box_pairs_avx512, mf_box_pairs_neon;
