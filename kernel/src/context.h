// The context: configuration, the ISA in use, a message for the last failure, and all the scratch
// memory a call needs, allocated once.
#pragma once

#include "bin.h"
#include "dispatch.h"

#include <stdatomic.h>
#include <stddef.h>

// Per-pair working memory of the scalar path, sized for the largest hulls the bank accepts.
typedef struct mf_pair_scratch {
    mf_vec3 b_vertices[MF_MAX_HULL_VERTICES];              // b's vertices in a's frame
    mf_vec3 a_vertices[MF_MAX_HULL_VERTICES];              // a's vertices in b's frame
    float b_normal_rows[3 * MF_MAX_HULL_FACES];            // b's face normals in a's frame, rows x, y, z
    float b_direction_rows[3 * MF_MAX_HULL_EDGES];         // b's edge directions in a's frame
    uint32_t b_face_vertex[MF_MAX_HULL_FACES];             // the edge walk's vertex of a for each face of b
    float a_edge_gap[MF_MAX_HULL_EDGES + MF_EDGE_GAP_PAD]; // the cull's point below each edge's nearer plane
    float b_edge_gap[MF_MAX_HULL_EDGES + MF_EDGE_GAP_PAD];
    // The cull stores kept edges while it loads gaps. Were the lists a multiple of 4 KB after the
    // gaps, the stores would look like the loads' addresses to the store buffer (4K aliasing) and
    // stall them: this pad puts a's list 1 KB off and b's 3 KB off.
    uint8_t alias_pad[1024];
    uint16_t a_edges[MF_MAX_HULL_EDGES + MF_KEPT_EDGES_PAD]; // the edges the edge query tries (the cull)
    uint16_t b_edges[MF_MAX_HULL_EDGES + MF_KEPT_EDGES_PAD];
    float b_packed[MF_PACKED_ROWS * MF_PACKED_STRIDE]; // b's kept edges for the query in lanes
    // b's vertices in a's frame and a's in b's as rows x, y, z (MF_VERTEX_ROWS_STRIDE apart), filled
    // for hulls with a support map: the large hulls' face queries read them in lanes (mf_pair_frame).
    // Last: the arrays before keep their offsets, and with them the pad's 4K-aliasing cure.
    float b_vertex_rows[3 * MF_VERTEX_ROWS_STRIDE];
    float a_vertex_rows[3 * MF_VERTEX_ROWS_STRIDE];
} mf_pair_scratch;

static inline mf_query_scratch mf_query_scratch_of(mf_pair_scratch *s)
{
    return (mf_query_scratch){.face_vertex = s->b_face_vertex,
                              .a_edge_gap = s->a_edge_gap,
                              .b_edge_gap = s->b_edge_gap,
                              .a_edges = s->a_edges,
                              .b_edges = s->b_edges,
                              .b_normal_rows = s->b_normal_rows,
                              .b_direction_rows = s->b_direction_rows,
                              .b_packed = s->b_packed};
}

// One pair's manifold, held until the chunk is written out in pair order.
typedef struct mf_pair_result {
    uint32_t count;
    mf_vec3 normal;
    mf_contact contacts[MF_MAX_CONTACTS];
    // Where the pair's new cache entry goes: the caller's entry itself where the call writes
    // entries in place, else the worker's copy, committed when the result is written out.
    mf_pair_cache *cache;
    const mf_pair_cache *previous; // the pair's entry as the call found it; NULL without a cache
    // How far apart the pair is where its contact understates it (a speculative contact along the
    // kept normal, not the closest points' direction), else INFINITY: the cache's distance bound.
    // Set by whatever fills the result for mf_cache_store.
    float distance;
} mf_pair_result;

typedef struct mf_wide_scratch {
    uint32_t width;
    mf_bins bins;
    mf_bundle_tables tables;
    _Alignas(64) float work[MF_WIDE_WORK_FLOATS];
    mf_bundle_axes axes;
} mf_wide_scratch;

// Staged chunks per worker waiting to be placed (placement.h) before the worker waits too.
#define MF_STAGED_PER_WORKER 2

// What one thread needs to collide a chunk.
typedef struct mf_worker {
    mf_pair_scratch *scratch;
    mf_wide_scratch *wide;             // NULL for the scalar path
    int caching;                       // this chunk fills cache entries
    mf_pair canonical[MF_CHUNK_PAIRS]; // the chunk's pairs, lower body index first
    uint32_t misses[MF_CHUNK_PAIRS];
    uint32_t reusable[MF_CHUNK_PAIRS]; // pairs whose cache entries keep a manifold
    uint32_t boxes[MF_CHUNK_PAIRS];    // box pairs, for the box pair path
    uint32_t fallback[MF_CHUNK_PAIRS]; // box pairs whose first axis gave no contact
    mf_pair_result *results;           // [MF_CHUNK_PAIRS]: the chunk being collided, before compaction
    mf_pair_cache *entries;            // [MF_CHUNK_PAIRS]: their new cache entries, unless written in place
    // In-order placement (placement.h): the worker's staging slots (context staging
    // [index * MF_STAGED_PER_WORKER, ...]), each flagged while a staged chunk waits in it.
    atomic_int staged_pending[MF_STAGED_PER_WORKER];
} mf_worker;

// Chunks collided per round: a few per thread, so uneven chunks balance out.
#define MF_CHUNKS_PER_THREAD 4
_Static_assert(MF_STAGED_PER_WORKER <= 2 * MF_CHUNKS_PER_THREAD, "a worker's staging slots are among the context's");

// Calls with fewer pairs run on the calling thread: one chunk does not pay for waking workers.
#define MF_THREADED_PAIRS (MF_CHUNK_PAIRS + 1)

struct mf_chunk_output;

struct mf_context {
    mf_config config;
    mf_isa isa;
    mf_wide_kernel kernel;
    char message[256];
    uint32_t threads;                   // the pool's, or the job system's worker_count
    mf_worker *workers;                 // one per thread
    struct mf_chunk_output *staging;    // 2 rounds of threads * MF_CHUNKS_PER_THREAD chunks
    struct mf_finished_chunk *finished; // in-order placement: (MF_STAGED_PER_WORKER + 1) * threads + 1
    uint32_t finished_count;
    struct mf_pool *pool; // NULL with one thread or the caller's job system (config.enqueue_task)
    // mf_find_pairs' working memory, made on its first call.
    struct mf_broadphase *broadphase;
};

// Records a detailed message for mf_context_message and returns the status.
mf_status mf_context_fail(mf_context *context, mf_status status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
