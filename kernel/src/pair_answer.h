// What a pair's new cache entry is made of, besides its result and the entry as the call found
// it: how the pair was answered, and what the answer found. The search's stages make their answers
// (mf_searched_answer) and the cache the others (cache.h); the router (chunk.c) keeps one per pair
// of the chunk and hands them to the cache once the stages are done, so that no stage sees an entry.
#pragma once

#include "sat.h"

// How a pair was answered, which decides how its new entry is written (mf_cache_write).
typedef enum mf_answer_kind {
    MF_ANSWER_EMPTY,       // no entry: the next call searches afresh (a body parked far away)
    MF_ANSWER_SEARCHED,    // the full search
    MF_ANSWER_STILL_APART, // apart by the entry's separation less the motion, from the poses alone
    MF_ANSWER_APART,       // apart along the kept axis, measured again
    MF_ANSWER_CLIPPED,     // the kept axis measured again and clipped
    MF_ANSWER_REUSED,      // the kept contacts carried to now (reuse_pass.h)
} mf_answer_kind;

typedef struct mf_pair_answer {
    mf_answer_kind kind;
    // SEARCHED: the axis the search took the contacts from (`used` set: mf_contacts_for_pair's
    // `used`), or for a pair without contacts the axis that separates most (mf_separating_axis).
    // STILL_APART, APART, CLIPPED: only its separation is read, the kept axis' now (STILL_APART: a
    // lower bound).
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
