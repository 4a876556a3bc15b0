// The broad phase's benchmark body: find_pairs/heap/<bodies>/<impl> on the command line's default
// heap (scene_make_heap), made on first use and kept for the repetitions (one size at a time).
// Impls: mf_find_pairs on 1 and 2 threads (threads1, threads2) and the tools' former
// sort-and-sweep (sweep_before, bench/sweep_before.c). Items are bodies; counter pairs_found.
#include "collide.h"

#include "sweep_before.h"

#include <stdio.h>
#include <stdlib.h>

static scene heap;
static uint32_t heap_bodies;

void bench_find_pairs_release(void)
{
    scene_free(&heap);
    heap_bodies = 0;
}

void bench_find_pairs(bench_state *state, void *context)
{
    const find_pairs_case *c = context;
    char message[512];
    mf_status status = MF_OK;
    if (heap.bank == NULL || heap_bodies != c->bodies) {
        bench_find_pairs_release();
        status = scene_make_heap(c->bodies, &heap);
        if (status == MF_OK) heap_bodies = c->bodies;
    }
    mf_config config = mf_config_default();
    config.threads = c->threads;
    mf_context *mf = NULL;
    sweep_before *before = NULL;
    mf_pair *pairs = NULL;
    uint32_t capacity = 0, count = 0;
    mf_bodies bodies = scene_bodies(&heap);
    if (status == MF_OK && c->threads > 0) {
        status = mf_context_create(&config, &mf);
        // The output array sized before the loop, as a simulation keeps it from step to step.
        if (status == MF_OK) status = mf_find_pairs(mf, heap.bank, &bodies, heap.config.margin, NULL, 0, &capacity);
        if (status == MF_ERR_CAPACITY || status == MF_OK) {
            pairs = malloc(((size_t)capacity + 1) * sizeof(mf_pair));
            status = pairs != NULL ? MF_OK : MF_ERR_OUT_OF_MEMORY;
        }
        if (status == MF_OK && mf_context_threads(mf) != c->threads) {
            bench_skip(state, "the context runs another thread count");
            mf_context_destroy(mf);
            free(pairs);
            return;
        }
    } else if (status == MF_OK) {
        before = sweep_before_create(heap.bank);
        if (before == NULL) status = MF_ERR_OUT_OF_MEMORY;
    }
    if (status != MF_OK) {
        snprintf(message, sizeof(message), "setup failed (heap of %u bodies): %s", c->bodies, mf_status_string(status));
        bench_fail(state, message);
        mf_context_destroy(mf);
        sweep_before_destroy(before);
        free(pairs);
        return;
    }
    while (bench_keep_running(state)) {
        if (mf != NULL) {
            status = mf_find_pairs(mf, heap.bank, &bodies, heap.config.margin, pairs, capacity, &count);
        } else {
            const mf_pair *found;
            status = sweep_before_find_pairs(before, &bodies, heap.config.margin, &found, &count);
        }
        if (status != MF_OK) break;
    }
    if (status != MF_OK) {
        snprintf(message, sizeof(message), "find pairs: %s %s", mf_status_string(status),
                 mf != NULL ? mf_context_message(mf) : "");
        bench_fail(state, message);
    } else {
        bench_counter(state, "pairs_found", count);
        bench_counter(state, "threads", c->threads);
    }
    mf_context_destroy(mf);
    sweep_before_destroy(before);
    free(pairs);
}
