// What one thread needs to collide a chunk: its scratch memory, the chunk's lists for the router
// (chunk.c), and its results and cache answers until the chunk is written out.
#pragma once

#include "bin.h"
#include "pair_answer.h"
#include "pair_result.h"
#include "pair_scratch.h"
#include "placement.h"

#include <stdatomic.h>

// The wide pass' working memory (NULL for the scalar path).
typedef struct mf_wide_scratch {
    uint32_t width;
    mf_bins bins;
    mf_bundle_tables tables;
    _Alignas(64) float work[MF_WIDE_WORK_FLOATS];
    // b's moved vertices as each lane's rows x, y, z (MF_BUNDLE_MAX_VERTICES apart), transposed from
    // the work rows for the lanes' frames (chunk.c).
    _Alignas(64) float lane_rows[MF_WIDE_MAX_WIDTH * 3 * MF_BUNDLE_MAX_VERTICES];
    mf_bundle_axes axes;
} mf_wide_scratch;

typedef struct mf_worker {
    mf_pair_scratch *scratch;
    mf_wide_scratch *wide;             // NULL for the scalar path
    mf_pair canonical[MF_CHUNK_PAIRS]; // the chunk's pairs, lower body index first
    uint32_t misses[MF_CHUNK_PAIRS];
    uint32_t reusable[MF_CHUNK_PAIRS]; // pairs whose cache entries keep a manifold
    uint32_t boxes[MF_CHUNK_PAIRS];    // box pairs, for the box pair path
    uint32_t fallback[MF_CHUNK_PAIRS]; // box pairs whose first axis gave no contact
    mf_pair_result *results;           // [MF_CHUNK_PAIRS]: the chunk being collided, before compaction
    mf_pair_answer *answers;           // [MF_CHUNK_PAIRS]: how each was answered, for its new cache entry
    mf_pair_cache *entries;            // [MF_CHUNK_PAIRS]: their new cache entries, unless written in place
    // In-order placement (placement.h): the worker's staging slots (context staging
    // [index * MF_STAGED_PER_WORKER, ...]), each flagged while a staged chunk waits in it.
    atomic_int staged_pending[MF_STAGED_PER_WORKER];
} mf_worker;
