// Manifold reuse in SIMD lanes (PhysX's persistent contact manifold): the kept contacts of W cache
// entries carried with their bodies at once. The source reuse_pass.c is compiled once per ISA and
// once with width 1 for the scalar path, so every ISA computes exactly the same.
#pragma once

#include "dispatch.h"
#include "pair_result.h"

// One chunk's pairs whose entries keep a manifold (mf_cache_keeps_manifold). Those the bounds let
// reuse get their result (their entries, a step older, are the router's to write: chunk.c); the
// rest are listed in `missed` for the cache's other answers and the search.
typedef struct mf_reuse_job {
    const mf_config *config;
    const mf_bank *bank;
    const mf_bodies *bodies;
    const mf_pair *pairs;
    const mf_pair_cache *cache; // indexed as pairs
    const uint32_t *list;       // the pairs, as indices into pairs, cache and results
    uint32_t count;
    mf_pair_result *results;
    uint32_t *missed; // out
    uint32_t missed_count;
} mf_reuse_job;

mf_reuse_fn mf_reuse_scalar, mf_reuse_sse, mf_reuse_avx2, mf_reuse_avx512, mf_reuse_neon;
