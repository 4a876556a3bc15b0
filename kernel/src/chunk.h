// One chunk of pairs on one worker, the router: the cache's answers first, then the box path, the
// wide pass (or the scalar path) for the rest, every result into the chunk's slot; then the
// chunk's new cache entries.
#pragma once

#include "context.h"
#include "worker.h"

// cache: NULL, or the entries of these pairs as the call found them. The new entries go into
// `in_place` (the same entries, when the call may write them at once), else into the worker's
// copies (worker->entries), once every pair of the chunk is collided. Pairs are collided with the
// lower body index as a; (b, a) gets the exact mirror of (a, b).
typedef void mf_collide_chunk_fn(const mf_context *context, mf_worker *worker, const mf_bank *bank,
                                 const mf_bodies *bodies, const mf_pair *pairs, uint32_t count,
                                 const mf_pair_cache *cache, mf_pair_cache *in_place, mf_pair_result *results);

// As mf_collide_chunk without a cache, for pairs nobody checked before the call: each is checked
// (fault.h) as the chunk routes it, and at the first invalid one the chunk stops before anything
// is collided and returns its index (the results are then not to be read). Returns count where
// every pair is valid.
typedef uint32_t mf_collide_chunk_checking_fn(const mf_context *context, mf_worker *worker, const mf_bank *bank,
                                              const mf_bodies *bodies, const mf_pair *pairs, uint32_t count,
                                              mf_pair_result *results);

// As mf_collide_chunk, for a call that skips invalid pairs (MF_FAULT_SKIP): checks the pairs first,
// and where one is invalid (fault.h) it gets no manifold and its new cache entry (where the call
// has a cache) is empty, while the runs of valid pairs between are collided as chunks of their
// own, so they get exactly what they would get without the invalid ones. Returns the first invalid
// pair, count for none.
typedef uint32_t mf_collide_chunk_skipping_fn(const mf_context *context, mf_worker *worker, const mf_bank *bank,
                                              const mf_bodies *bodies, const mf_pair *pairs, uint32_t count,
                                              const mf_pair_cache *cache, mf_pair_cache *in_place,
                                              mf_pair_result *results);

// The router's entry points as an ISA's table lists them (dispatch.h): calls go through the table,
// so that the table of a tuning runs its own build of the router and the per-pair path.
typedef struct mf_chunk_entries {
    mf_collide_chunk_fn *collide;
    mf_collide_chunk_checking_fn *checking;
    mf_collide_chunk_skipping_fn *skipping;
} mf_chunk_entries;

// The generic build's, and the build tuned for Intel's cores (path_names.h).
mf_collide_chunk_fn mf_collide_chunk, mf_collide_chunk_intel;
mf_collide_chunk_checking_fn mf_collide_chunk_checking, mf_collide_chunk_checking_intel;
mf_collide_chunk_skipping_fn mf_collide_chunk_skipping, mf_collide_chunk_skipping_intel;
