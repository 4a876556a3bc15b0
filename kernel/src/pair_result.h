// One pair's manifold as a stage gives it back, held by the worker until the chunk is written out
// in pair order (staging.h).
#pragma once

#include "manyfold.h"

// Pairs per chunk: the unit of binning (bin.h), of the results and answers a worker holds, and of
// ordered output (staging.h).
#define MF_CHUNK_PAIRS 1024u

typedef struct mf_pair_result {
    uint32_t count;
    mf_vec3 normal;
    mf_contact contacts[MF_MAX_CONTACTS];
    // How far apart the pair is where its contact understates it (a speculative contact along the
    // kept normal, not the closest points' direction), else INFINITY: the cache's distance bound.
    float distance;
} mf_pair_result;
