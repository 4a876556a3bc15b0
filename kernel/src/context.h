// The context: configuration, the ISA in use, a message for the last failure, and all the memory
// a call needs, allocated once (the workers' in worker.h, the staging in staging.h).
#pragma once

#include "manyfold.h"

#include <stddef.h>

// Chunks collided per round: a few per thread, so uneven chunks balance out.
#define MF_CHUNKS_PER_THREAD 4

// Calls with fewer pairs run on the calling thread: one chunk (MF_CHUNK_PAIRS, bin.h) does not pay
// for waking workers.
#define MF_THREADED_PAIRS (MF_CHUNK_PAIRS + 1)

struct mf_worker;
struct mf_chunk_output;
struct mf_finished_chunk;
struct mf_pool;
struct mf_broadphase;
struct mf_wide_kernel;

struct mf_context {
    mf_config config;
    mf_isa isa;
    const struct mf_wide_kernel *kernel; // the ISA's table (dispatch.h)
    char message[256];
    uint32_t threads;                   // the pool's, or the job system's worker_count
    struct mf_worker *workers;          // one per thread
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
