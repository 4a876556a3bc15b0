// Per-chunk staging of the compact output. A chunk compacts its results (manifolds and contacts in
// pair order) into a staging slot on the worker that collided it; once the sizes of all earlier
// chunks are known, a prefix sum places the slot in the caller's stream and any worker copies it
// there. Nothing is copied by one thread for all the others.
#pragma once

#include "pair_result.h"

typedef struct mf_chunk_output {
    uint32_t first_pair; // the chunk's pairs in the call: [first_pair, first_pair + pair_count)
    uint32_t pair_count;
    uint32_t manifold_count, contact_count;
    uint32_t manifold_at, contact_at; // where the prefix sum placed them in the stream
    mf_manifold *manifolds;           // [MF_CHUNK_PAIRS]; `first` counts from the chunk's first contact
    mf_contact *contacts;             // [contact_capacity]: MF_CHUNK_PAIRS * max_contacts
    uint32_t contact_capacity;
    mf_pair_cache *cache; // [MF_CHUNK_PAIRS]: every pair's new entry
    int in_stream;        // compacted straight to where it will be placed: nothing to copy
} mf_chunk_output;

// Staging for `slots` chunks in one allocation; NULL when out of memory.
mf_chunk_output *mf_staging_create(uint32_t slots, uint32_t max_contacts);
void mf_staging_destroy(mf_chunk_output *staging);

// Compacts a chunk's results (results[i] belongs to pair first_pair + i) into the given arrays,
// manifolds' `first` counting from contact_base. out gets the chunk's pairs and counts. Up to
// contact_room contacts may be written from contact_out on, past the last one compacted too.
void mf_staging_compact_into(const mf_pair_result *results, uint32_t first_pair, uint32_t pair_count,
                             mf_manifold *manifold_out, mf_contact *contact_out, uint32_t contact_room,
                             uint32_t contact_base, mf_chunk_output *out);

// Compacts a chunk's results (results[i] belongs to pair first_pair + i) into `out`, and its new
// cache entries (entries[i] likewise), where not NULL.
void mf_staging_compact(const mf_pair_result *results, const mf_pair_cache *entries, uint32_t first_pair,
                        uint32_t pair_count, mf_chunk_output *out);

// Compacts a chunk's results straight into the stream, after what it holds now, where
// mf_staging_place will put them (the chunk placed next, with no copy to follow). The caller makes
// sure the stream has room for every pair's largest manifold; there are no cache entries.
void mf_staging_compact_to_stream(const mf_pair_result *results, uint32_t first_pair, uint32_t pair_count,
                                  const mf_stream *stream, mf_chunk_output *out);

// Places the chunk after what the stream holds, if all of it fits: 1 and the stream's counts
// advanced, else 0 and nothing changed.
int mf_staging_place(mf_chunk_output *out, mf_stream *stream);

// Copies a placed chunk into the stream (and its cache entries into cache, when not NULL). Chunks
// placed apart may be copied by different threads at once.
void mf_staging_copy(const mf_chunk_output *out, mf_stream *stream, mf_pair_cache *cache);

// The part of an unplaced chunk that fits: its manifolds while stream room lasts, appended and
// copied, cache entries for the pairs before the first that did not fit. Returns that pair (the
// call's pairs_done) and how many contacts its manifold needs.
uint32_t mf_staging_copy_prefix(const mf_chunk_output *out, mf_stream *stream, mf_pair_cache *cache,
                                uint32_t *needed_contacts);
