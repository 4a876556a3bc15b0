// What the stages give back for one pair of a chunk: its manifold (mf_pair_result), and what the
// pair's new cache entry is made of (mf_pair_answer). The router (chunk.c) keeps both per pair of
// the chunk and hands the answers to the cache (cache.h) once the stages are done: the stages never
// see an entry.
#pragma once

#include "sat.h"

// Pairs per chunk: the unit of binning (bin.h), of the results and answers a worker holds, and of
// ordered output (staging.h).
#define MF_CHUNK_PAIRS 1024u

// One pair's manifold, held until the chunk is written out in pair order.
typedef struct mf_pair_result {
    uint32_t count;
    mf_vec3 normal;
    mf_contact contacts[MF_MAX_CONTACTS];
    // How far apart the pair is where its contact understates it (a speculative contact along the
    // kept normal, not the closest points' direction), else INFINITY: the cache's distance bound.
    float distance;
} mf_pair_result;

// How a pair was answered, which decides how its new entry is written (cache.c, mf_cache_write).
typedef enum mf_answer_kind {
    MF_ANSWER_EMPTY,       // no entry: the next call searches afresh (a body parked far away)
    MF_ANSWER_SEARCHED,    // the full search
    MF_ANSWER_STILL_APART, // apart by the entry's separation less the motion, from the poses alone
    MF_ANSWER_APART,       // apart along the kept axis, measured again
    MF_ANSWER_CLIPPED,     // the kept axis measured again and clipped
    MF_ANSWER_REUSED,      // the kept contacts carried to now (reuse_pass.h)
} mf_answer_kind;

// What a pair's new cache entry needs besides its result and the entry as the call found it.
typedef struct mf_pair_answer {
    mf_answer_kind kind;
    // SEARCHED: the axis the search took the contacts from (`used`: mf_contacts_for_pair's), or
    // for a pair it found apart the axis that separates most (mf_separating_axis). STILL_APART,
    // APART, CLIPPED: only its separation is read, the kept axis' now (STILL_APART: a lower bound).
    mf_axis axis;
    int used;
    float best;  // SEARCHED: the best separation; CLIPPED: the entry's distance bound carried to now
    float scale; // SEARCHED, CLIPPED: the hulls' radii summed (float noise is relative to it)
    // STILL_APART, APART, CLIPPED: b's pose in a's frame now.
    mf_quat relative_rotation;
    mf_vec3 relative_position;
} mf_pair_answer;

// The answer of a searched pair from its queries' results and the axis its contacts were taken
// from (NULL: the pair has none).
static inline mf_pair_answer mf_searched_answer(const mf_axis_candidates *candidates, const mf_axis *used)
{
    return (mf_pair_answer){.kind = MF_ANSWER_SEARCHED,
                            .axis = used != NULL ? *used : mf_separating_axis(candidates),
                            .used = used != NULL,
                            .best = mf_best_separation(candidates),
                            .scale = candidates->scale};
}
