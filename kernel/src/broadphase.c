// The broad phase: sort-and-sweep over world bounding boxes in the cells of a coarse grid, on the
// context's threads. Steps, each a batch of tasks but the short serial ones:
//  1. A sample of bodies chooses the axes: the grid cuts the two where the boxes' centres spread
//     most into strips twice the median box wide (wider if the grid would have more than a few
//     cells per body: a ground slab lies in a whole row), and the sweep runs along the third, so
//     each cell's run is short (20% faster on the command line's heap than sweeping the widest).
//  2. World boxes: each shape's local box (kept by the bank) turned by |R|, a bound rather than
//     the tight box but cheap, grown by the margin. Bodies are checked here.
//  3. Each box is counted into, then copied into, every cell it overlaps (counting sort by cell,
//     with atomic counters: the order inside a cell is sorted next anyway).
//  4. Each cell's run is sorted along the sweep axis and swept: a box meets the boxes that start
//     inside its interval. A pair is reported only in the first cell both boxes lie in, so once;
//     each entry carries its first strips, so that test is two integer compares. The sweep's
//     tests have no branches (1.4x faster than with them on the 200k heap).
//  5. The pairs, in per-worker buffers in whatever order the cells were swept, are sorted: spread
//     into buckets of 1024 first bodies, each bucket counting-sorted by first body, each first
//     body's run by second body. The output is thus the same for every thread count and schedule.
// The pairs are exactly those whose boxes overlap, so neither the grid nor the threads change
// them. (The tools' former sort-and-sweep, tools/scene/scene_broadphase.c before this file, made
// the same boxes and found the same pairs, one thread, with qsort.)
//
// This file runs the steps on the context's threads; broadphase_grid.c makes the boxes and the
// grid (steps 1 to 3), broadphase_sweep.c sweeps the cells and sorts the pairs (steps 4 and 5).
#include "broadphase.h"

#include "broadphase_call.h"
#include "context.h"
#include "fault.h"
#include "jobs.h"

#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

void mf_broadphase_destroy(mf_broadphase *b)
{
    if (b == NULL) return;
    free(b->boxes);
    free(b->ranges);
    free(b->body_tasks);
    free(b->cell_cursor);
    free(b->cell_start);
    free(b->entries);
    free(b->sweep_first_cell);
    for (uint32_t w = 0; b->buffers != NULL && w < b->worker_count; ++w) free(b->buffers[w].keys);
    free(b->buffers);
    free(b->bucket_counts);
    free(b->bucket_start);
    free(b->bucketed);
    free(b->sorted);
    free(b);
}

// Grows *array to hold count elements of the given size (contents not kept); false when out of memory.
static bool reserve(void **array, size_t *capacity, size_t count, size_t size)
{
    if (count <= *capacity && *array != NULL) return true;
    size_t grown = count + count / 4 + 16;
    free(*array);
    *array = malloc(grown * size);
    *capacity = *array != NULL ? grown : 0;
    return *array != NULL;
}

// Bodies are checked as mf_collide checks them (fault.h: mf_body_is_valid): shape, scale, transform.
static mf_status explain_body(mf_context *context, const mf_bank *bank, const mf_bodies *bodies, uint32_t body)
{
    char text[sizeof(context->message)];
    mf_status status = mf_describe_body(bank, bodies, body, text, sizeof(text));
    return mf_context_fail(context, status, "%s", text);
}

static void run_tasks(mf_context *context, uint32_t task_count, mf_pool_task_fn *task, void *data)
{
    if (task_count == 1) task(data, 0, 0);
    else mf_run_batch(context, task_count, task, data);
}

static mf_status out_of_memory(mf_context *context)
{
    return mf_context_fail(context, MF_ERR_OUT_OF_MEMORY, "the broad phase's working memory does not fit");
}

mf_status mf_find_pairs(mf_context *context, const mf_bank *bank, const mf_bodies *bodies, float margin, mf_pair *pairs,
                        uint32_t pair_capacity, uint32_t *pair_count)
{
    if (context == NULL) return MF_ERR_INVALID_ARGUMENT;
    context->message[0] = '\0';
    if (pair_count != NULL) *pair_count = 0;
    if (bank == NULL || bodies == NULL || pair_count == NULL || (pairs == NULL && pair_capacity > 0) ||
        (bodies->count > 0 && (bodies->shape == NULL || bodies->transform == NULL)))
        return mf_context_fail(context, MF_ERR_INVALID_ARGUMENT, "a NULL bank, bodies, pair count or array");
    if (!isfinite(margin)) return mf_context_fail(context, MF_ERR_NONFINITE, "the margin is not finite");
    if (margin < 0.0f || margin > MF_MAX_LENGTH)
        return mf_context_fail(context, MF_ERR_INVALID_ARGUMENT, "the margin %g is below 0 or above MF_MAX_LENGTH",
                               (double)margin);
    uint32_t n = bodies->count;
    if (context->broadphase == NULL) {
        context->broadphase = calloc(1, sizeof(mf_broadphase));
        if (context->broadphase == NULL) return out_of_memory(context);
    }
    mf_broadphase *b = context->broadphase;
    if (b->buffers == NULL) {
        b->buffers = calloc(context->threads, sizeof(mf_pair_buffer));
        if (b->buffers == NULL) return out_of_memory(context);
        b->worker_count = context->threads;
    }
    uint32_t body_tasks = (n + MF_BROAD_BODIES_PER_TASK - 1) / MF_BROAD_BODIES_PER_TASK;
    if (n > b->body_capacity) {
        free(b->boxes);
        free(b->ranges);
        free(b->body_tasks);
        b->boxes = malloc((size_t)n * sizeof(mf_box_entry));
        b->ranges = malloc((size_t)n * sizeof(mf_cell_range));
        b->body_tasks = malloc((size_t)body_tasks * sizeof(mf_body_task));
        b->body_capacity = b->boxes != NULL && b->ranges != NULL && b->body_tasks != NULL ? n : 0;
        if (b->body_capacity == 0) return out_of_memory(context);
    }
    mf_broad_call call = {
        .scratch = b, .bank = bank, .bodies = bodies, .margin = margin, .pairs = pairs, .pair_capacity = pair_capacity};
    atomic_init(&call.out_of_memory, 0);
    float median_extent[2];
    mf_broad_choose_axes(&call, call.axis, median_extent);

    // Step 2: boxes; the first invalid body fails the call.
    run_tasks(context, body_tasks, mf_broad_boxes_task, &call);
    float low[2] = {INFINITY, INFINITY}, high[2] = {-INFINITY, -INFINITY};
    for (uint32_t t = 0; t < body_tasks; ++t) {
        const mf_body_task *s = &b->body_tasks[t];
        if (s->first_invalid != UINT32_MAX) return explain_body(context, bank, bodies, s->first_invalid);
        for (int k = 0; k < 2; ++k) {
            low[k] = fminf(low[k], s->low[k]);
            high[k] = fmaxf(high[k], s->high[k]);
        }
    }
    if (n < 2) return MF_OK;
    mf_broad_cut_grid(&call, low, high, median_extent);

    // Step 3: boxes into cells.
    size_t cells = (size_t)call.cut[0].count * call.cut[1].count;
    if (!reserve((void **)&b->cell_start, &b->cell_capacity, cells + 1, sizeof(uint32_t)))
        return out_of_memory(context);
    if (!reserve((void **)&b->cell_cursor, &b->cursor_capacity, cells, sizeof(atomic_uint)))
        return out_of_memory(context);
    for (size_t c = 0; c < cells; ++c) atomic_init(&b->cell_cursor[c], 0u);
    run_tasks(context, body_tasks, mf_broad_count_task, &call);
    size_t entries = 0;
    for (uint32_t t = 0; t < body_tasks; ++t) entries += b->body_tasks[t].entries;
    if (entries > UINT32_MAX)
        return mf_context_fail(context, MF_ERR_OUT_OF_MEMORY, "%zu grid entries: more than 32-bit indices hold",
                               entries);
    if (!reserve((void **)&b->entries, &b->entry_capacity, entries, sizeof(mf_box_entry)))
        return out_of_memory(context);
    // Cells into tasks of at least MF_BROAD_ENTRIES_PER_TASK entries, while the counts become starts.
    size_t sweep_tasks_most = entries / MF_BROAD_ENTRIES_PER_TASK + 2;
    if (!reserve((void **)&b->sweep_first_cell, &b->sweep_task_capacity, sweep_tasks_most, sizeof(uint32_t)))
        return out_of_memory(context);
    uint32_t sweep_tasks = 0, at = 0, task_entries = 0;
    b->sweep_first_cell[0] = 0;
    for (size_t c = 0; c < cells; ++c) {
        uint32_t count = atomic_load_explicit(&b->cell_cursor[c], memory_order_relaxed);
        b->cell_start[c] = at;
        atomic_store_explicit(&b->cell_cursor[c], at, memory_order_relaxed);
        at += count;
        task_entries += count;
        if (task_entries >= MF_BROAD_ENTRIES_PER_TASK) {
            b->sweep_first_cell[++sweep_tasks] = (uint32_t)c + 1;
            task_entries = 0;
        }
    }
    b->cell_start[cells] = at;
    if (b->sweep_first_cell[sweep_tasks] != cells) b->sweep_first_cell[++sweep_tasks] = (uint32_t)cells;
    run_tasks(context, body_tasks, mf_broad_place_task, &call);

    // Step 4: sweep each cell.
    for (uint32_t w = 0; w < b->worker_count; ++w) b->buffers[w].count = 0;
    run_tasks(context, sweep_tasks, mf_broad_sweep_task, &call);
    if (atomic_load(&call.out_of_memory)) return out_of_memory(context);
    size_t total = 0;
    for (uint32_t w = 0; w < b->worker_count; ++w) total += b->buffers[w].count;
    if (total > UINT32_MAX)
        return mf_context_fail(context, MF_ERR_CAPACITY, "%zu pairs: more than a 32-bit count holds", total);

    // Step 5: sort into the caller's array.
    call.bucket_count = (n >> MF_BROAD_BUCKET_SHIFT) + 1;
    if (!reserve((void **)&b->bucket_counts, &b->bucket_capacity, (size_t)b->worker_count * call.bucket_count,
                 sizeof(uint32_t)) ||
        !reserve((void **)&b->bucket_start, &b->bucket_start_capacity, (size_t)call.bucket_count + 1, sizeof(size_t)) ||
        !reserve((void **)&b->bucketed, &b->bucketed_capacity, total, sizeof(uint64_t)) ||
        !reserve((void **)&b->sorted, &b->sorted_capacity, total, sizeof(uint64_t)))
        return out_of_memory(context);
    run_tasks(context, b->worker_count, mf_broad_bucket_count_task, &call);
    size_t offset = 0;
    for (uint32_t k = 0; k < call.bucket_count; ++k) {
        b->bucket_start[k] = offset;
        for (uint32_t w = 0; w < b->worker_count; ++w) {
            uint32_t *count = &b->bucket_counts[(size_t)w * call.bucket_count + k];
            uint32_t here = *count;
            *count = (uint32_t)offset;
            offset += here;
        }
    }
    b->bucket_start[call.bucket_count] = offset;
    run_tasks(context, b->worker_count, mf_broad_bucket_place_task, &call);
    run_tasks(context, call.bucket_count, mf_broad_bucket_sort_task, &call);

    *pair_count = (uint32_t)total;
    if (total > pair_capacity)
        return mf_context_fail(context, MF_ERR_CAPACITY, "%zu pairs found, room for %u: the first %u are written",
                               total, pair_capacity, pair_capacity);
    return MF_OK;
}
