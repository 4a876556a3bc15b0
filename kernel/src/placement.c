// In-order placement of finished chunks into the stream.
#include "placement.h"

#include "core.h"
#include "pool.h"

void mf_placement_begin(mf_placement *placement, mf_finished_chunk *finished, uint32_t finished_count, int alone)
{
    MF_ASSERT(finished != NULL && finished_count > 0);
    atomic_flag_clear(&placement->lock);
    placement->frontier = 0;
    placement->placing = 0;
    placement->manifold_count = placement->contact_count = 0;
    placement->finished = finished;
    placement->finished_count = finished_count;
    placement->alone = alone;
    for (uint32_t k = 0; k < finished_count; ++k) finished[k].ready = 0;
}

static void lock(mf_placement *placement)
{
    for (uint32_t spins = 0; atomic_flag_test_and_set_explicit(&placement->lock, memory_order_acquire);)
        mf_wait_a_moment(&spins);
}

static void unlock(mf_placement *placement) { atomic_flag_clear_explicit(&placement->lock, memory_order_release); }

// The placer's loop, entered under the lock: copies the staged chunks at the frontier one after
// another (without the lock, as no one else places) until the next one has not finished.
static void place_staged(mf_placement *placement, mf_stream *stream)
{
    for (;;) {
        mf_finished_chunk *slot = &placement->finished[placement->frontier % placement->finished_count];
        if (slot->ready != placement->frontier + 1) {
            placement->placing = 0;
            unlock(placement);
            return;
        }
        mf_finished_chunk chunk = *slot;
        slot->ready = 0;
        // The prefix sums: the chunk lands after every chunk before it, within the stream.
        MF_ASSERT(!chunk.staged->in_stream && chunk.staged->manifold_count <= chunk.staged->pair_count);
        MF_ASSERT(chunk.staged->manifold_count <= stream->manifold_capacity - placement->manifold_count);
        MF_ASSERT(chunk.staged->contact_count <= stream->contact_capacity - placement->contact_count);
        chunk.staged->manifold_at = placement->manifold_count;
        chunk.staged->contact_at = placement->contact_count;
        placement->manifold_count += chunk.staged->manifold_count;
        placement->contact_count += chunk.staged->contact_count;
        placement->frontier++;
        unlock(placement);
        mf_staging_copy(chunk.staged, stream, NULL);
        atomic_store_explicit(chunk.pending, 0, memory_order_release); // the slot is free again
        lock(placement);
    }
}

// Compacts the frontier chunk, whose worker has just become the placer, where it lands.
static void place_direct(mf_placement *placement, const mf_pair_result *results, uint32_t first_pair,
                         uint32_t pair_count, mf_stream *stream)
{
    // The stream holds every pair's largest manifold, and the chunks before this one, placed, made
    // one manifold at most per pair: the chunk's manifolds fit after theirs.
    MF_ASSERT(placement->manifold_count <= first_pair && first_pair + pair_count <= stream->manifold_capacity);
    mf_chunk_output out;
    mf_staging_compact_into(results, first_pair, pair_count, stream->manifolds + placement->manifold_count,
                            stream->contacts + placement->contact_count,
                            stream->contact_capacity - placement->contact_count, placement->contact_count, &out);
    placement->manifold_count += out.manifold_count;
    placement->contact_count += out.contact_count;
    MF_ASSERT(placement->contact_count <= stream->contact_capacity);
}

void mf_placement_finish(mf_placement *placement, uint32_t chunk, const mf_pair_result *results, uint32_t first_pair,
                         uint32_t pair_count, mf_chunk_output *staging, atomic_int *staged_pending, mf_stream *stream)
{
    if (placement->alone) {
        MF_ASSERT(chunk == placement->frontier); // one thread: chunks come in order
        place_direct(placement, results, first_pair, pair_count, stream);
        placement->frontier = chunk + 1;
        return;
    }
    lock(placement);
    if (!placement->placing && placement->frontier == chunk) {
        // The counts stay this worker's while it places: the others only stage.
        placement->placing = 1;
        unlock(placement);
        place_direct(placement, results, first_pair, pair_count, stream);
        lock(placement);
        placement->frontier++;
        place_staged(placement, stream);
        return;
    }
    unlock(placement);
    // Staged in a free slot of this worker's. The slots hold earlier chunks, which the placer
    // copies without waiting for anything, so a wait here ends.
    uint32_t k = 0;
    for (uint32_t spins = 0; atomic_load_explicit(&staged_pending[k], memory_order_acquire);) {
        k = (k + 1) % MF_STAGED_PER_WORKER;
        if (k == 0) mf_wait_a_moment(&spins);
    }
    atomic_store_explicit(&staged_pending[k], 1, memory_order_relaxed);
    mf_staging_compact(results, NULL, first_pair, pair_count, &staging[k]);
    lock(placement);
    // Not placed yet, and its slot free: fewer chunks than slots are claimed and not placed.
    MF_ASSERT(chunk >= placement->frontier && chunk - placement->frontier < placement->finished_count);
    MF_ASSERT(placement->finished[chunk % placement->finished_count].ready == 0);
    placement->finished[chunk % placement->finished_count] =
        (mf_finished_chunk){&staging[k], &staged_pending[k], chunk + 1};
    if (!placement->placing && placement->frontier == chunk) {
        placement->placing = 1;
        place_staged(placement, stream);
        return;
    }
    unlock(placement);
}
