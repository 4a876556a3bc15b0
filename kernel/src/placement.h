// In-order placement, for a call whose stream has room for every pair's largest manifold: all its
// chunks run in one batch, and one worker at a time, the placer, writes finished chunks into the
// stream in chunk order. The worker of the chunk at the frontier becomes the placer and compacts
// its results straight to where they land; a chunk that finishes earlier is compacted into one of
// its worker's staging slots (MF_STAGED_PER_WORKER), and the placer copies it once its turn comes.
// The waits here (the lock, a free staging slot) end because chunks are claimed in order
// (mf_run_batch, jobs.h): every chunk ahead of a waiting one is finished or held by a running
// thread, on manyfold's pool and on a caller's job system alike, whatever order it runs its items in.
#pragma once

#include "pair_result.h"
#include "staging.h"

#include <stdatomic.h>

// Staged chunks per worker waiting to be placed before the worker waits too. This is how far the
// other threads can run ahead of the frontier chunk's: on a shared host that chunk's thread may be
// descheduled for a millisecond, and with 2 slots the others then stood still after two chunks
// (box_resting's chunks take 50 microseconds). On a 16-core Xeon guest two threads reached 1.67x
// to 1.88x one thread with 2, 1.86x to 1.97x with 8 (docs/performance.md, "Intel, 16 cores"). 8
// is every staging slot the context already holds per thread (the rounds' two buffers of
// MF_CHUNKS_PER_THREAD): more room at no memory, and a worker takes its first free slot, so the
// others stay cold until a wait would have come.
#define MF_STAGED_PER_WORKER 8

// A staged chunk waiting for the frontier.
typedef struct mf_finished_chunk {
    mf_chunk_output *staged;
    atomic_int *pending; // its slot's flag, cleared once copied
    uint32_t ready;      // 1 + the chunk, 0 for none
} mf_finished_chunk;

typedef struct mf_placement {
    atomic_flag lock;                       // guards the fields below; held for a few loads and stores at a time
    uint32_t frontier;                      // the next chunk to place
    int placing;                            // a worker is placing chunks: the others leave theirs to it
    uint32_t manifold_count, contact_count; // the stream's counts after the placed chunks
    mf_finished_chunk *finished;            // [finished_count], by chunk % finished_count
    uint32_t finished_count;
    int alone; // one thread: chunks come in order, each compacted at once
} mf_placement;

// finished_count is more than the chunks that can be claimed and not placed at once:
// (MF_STAGED_PER_WORKER + 1) per thread.
void mf_placement_begin(mf_placement *placement, mf_finished_chunk *finished, uint32_t finished_count, int alone);

// A collided chunk (results[i] belongs to pair first_pair + i) of a worker with the given staging
// slots and their flags: into the stream now, or staged until the chunks before it are. Every
// pair will be done, so the chunks wrote their cache entries in place.
void mf_placement_finish(mf_placement *placement, uint32_t chunk, const mf_pair_result *results, uint32_t first_pair,
                         uint32_t pair_count, mf_chunk_output *staging, atomic_int *staged_pending, mf_stream *stream);
