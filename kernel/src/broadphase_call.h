// What the broad phase's steps share (broadphase.c runs them): its working memory, kept in the
// context, and a call's arguments and choices, which every task reads. The steps' tasks are
// batches on the context's threads (mf_run_batch): task indices in, results in the working memory.
#pragma once

#include "broadphase.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

// Bodies per task of the body passes (boxes, counting, copying into cells).
#define MF_BROAD_BODIES_PER_TASK 4096u
// Sweep entries per task of the sweep, at least (a task takes whole cells).
#define MF_BROAD_ENTRIES_PER_TASK 8192u
// Bodies sampled to choose the axes and the grid: enough for a stable median.
#define MF_BROAD_SAMPLES 4096u
// Pairs are sorted in buckets of 2^10 first bodies: a bucket's counting sort counts on the stack.
#define MF_BROAD_BUCKET_SHIFT 10u
#define MF_BROAD_BUCKET_BODIES (1u << MF_BROAD_BUCKET_SHIFT)
// Strips per grid axis at most: cell ranges are 16 bits.
#define MF_BROAD_MAX_STRIPS 65536u

// A world box with its axes ordered (sweep, cut 0, cut 1), its body, and the first strip it covers
// along each cut axis: two boxes meet in the cells both cover, and the first of those is the
// later of their first strips along each axis.
typedef struct mf_box_entry {
    float min0, max0, min1, max1, min2, max2;
    uint32_t body;
    uint16_t low0, low1;
} mf_box_entry;
_Static_assert(sizeof(mf_box_entry) == 32, "two sweep entries a cache line");

// The strips a body's box covers along each cut axis.
typedef struct mf_cell_range {
    uint16_t low0, high0, low1, high1;
} mf_cell_range;

// Cuts along one axis of the grid.
typedef struct mf_strips {
    float origin, inverse_width;
    uint32_t count;
} mf_strips;

// What a task of the body passes reports: its first invalid body, its boxes' extent on the cut
// axes, the sweep entries its bodies make.
typedef struct mf_body_task {
    uint32_t first_invalid;
    float low[2], high[2];
    size_t entries;
} mf_body_task;

typedef struct mf_pair_buffer {
    uint64_t *keys; // (a << 32) | b, a < b: sorting keys sorts pairs by a, then b
    size_t count, capacity;
} mf_pair_buffer;

struct mf_broadphase {
    uint32_t body_capacity;
    mf_box_entry *boxes;   // [bodies]
    mf_cell_range *ranges; // [bodies]
    mf_body_task *body_tasks;
    size_t cursor_capacity, cell_capacity;
    atomic_uint *cell_cursor; // [cells]: counts, then where the next entry of the cell goes
    uint32_t *cell_start;     // [cells + 1]
    size_t entry_capacity;
    mf_box_entry *entries;
    size_t sweep_task_capacity;
    uint32_t *sweep_first_cell; // [sweep tasks + 1]
    uint32_t worker_count;
    mf_pair_buffer *buffers; // [threads]: what each worker's sweeps found
    size_t bucket_capacity, bucket_start_capacity;
    uint32_t *bucket_counts; // [threads * buckets]: then where each worker's pairs of each bucket go
    size_t *bucket_start;    // [buckets + 1]
    size_t bucketed_capacity, sorted_capacity;
    uint64_t *bucketed, *sorted;                // [pairs]
    float sample_extents[3 * MF_BROAD_SAMPLES]; // step 1's sample: box extents along each axis
};

// Everything a call's tasks read.
typedef struct mf_broad_call {
    mf_broadphase *scratch;
    const mf_bank *bank;
    const mf_bodies *bodies;
    float margin;
    int axis[3]; // world axes of (sweep, cut 0, cut 1): by increasing spread
    mf_strips cut[2];
    uint32_t bucket_count;
    mf_pair *pairs;
    uint32_t pair_capacity;
    atomic_int out_of_memory;
} mf_broad_call;

// Step 1 (broadphase_grid.c): the axes and the median box extents across the cut axes, from a
// sample of the bodies.
void mf_broad_choose_axes(const mf_broad_call *call, int axis[3], float median_extent[2]);

// Step 2, task t: the world boxes of bodies t * MF_BROAD_BODIES_PER_TASK on, and their summary in
// body_tasks[t].
void mf_broad_boxes_task(void *data, uint32_t task, uint32_t worker);

// The grid over the boxes' extent [low, high] on the cut axes, given the sample's median extents.
void mf_broad_cut_grid(mf_broad_call *call, const float low[2], const float high[2], const float median_extent[2]);

// Step 3: each body's cells counted (task t: the bodies of boxes task t), then, once the counts
// are starts, its box copied into them.
void mf_broad_count_task(void *data, uint32_t task, uint32_t worker);
void mf_broad_place_task(void *data, uint32_t task, uint32_t worker);

// Step 4 (broadphase_sweep.c), task t: the cells from sweep_first_cell[t] sorted and swept into
// the worker's buffer; out_of_memory set where a buffer would not grow.
void mf_broad_sweep_task(void *data, uint32_t task, uint32_t worker);

// Step 5: task w counts worker w's pairs by bucket, then moves them to their buckets (where
// bucket_counts says); task k sorts bucket k and writes what fits of it to the caller's pairs.
void mf_broad_bucket_count_task(void *data, uint32_t task, uint32_t worker);
void mf_broad_bucket_place_task(void *data, uint32_t task, uint32_t worker);
void mf_broad_bucket_sort_task(void *data, uint32_t task, uint32_t worker);
