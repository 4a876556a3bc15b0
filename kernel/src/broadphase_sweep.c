// The broad phase's sweep and the pairs' order (steps 4 and 5 of broadphase.c): each cell's run
// sorted along the sweep axis and swept into the worker's buffer, then the workers' pairs bucketed
// by first body and each bucket sorted into the caller's array.
#include "broadphase_call.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

// The broad phase's one sort, for the cells' runs (by start along the sweep axis) and the pairs'
// keys (by value): quicksort with a median-of-three pivot and Hoare's partition, runs of 16 or fewer
// by insertion; not stable. `less` orders two elements of `size` bytes; `spare` has room for two.
// The smaller side of a partition is sorted first while the larger waits on a stack; the smaller is
// at most half, so fewer than 64 sides ever wait. Inline, so that each caller's copy knows its
// element size and comparison.
typedef bool sort_less_fn(const void *x, const void *y);

static inline void sort_ascending(void *elements, size_t count, size_t size, sort_less_fn *less, void *spare)
{
    struct {
        unsigned char *run;
        size_t count;
    } waiting[64];
    size_t waiting_count = 0;
    unsigned char *run = elements, *pivot = spare, *held = pivot + size;
    for (;;) {
        while (count > 16) {
            const unsigned char *x = run, *y = run + count / 2 * size, *z = run + (count - 1) * size;
            const unsigned char *median =
                less(x, y) ? (less(y, z) ? y : (less(x, z) ? z : x)) : (less(x, z) ? x : (less(y, z) ? z : y));
            memcpy(pivot, median, size);
            unsigned char *i = run, *j = run + (count - 1) * size;
            for (;;) {
                while (less(i, pivot)) i += size;
                while (less(pivot, j)) j -= size;
                if (i >= j) break;
                memcpy(held, i, size);
                memcpy(i, j, size);
                memcpy(j, held, size);
                i += size;
                j -= size;
            }
            size_t left = (size_t)(j - run) / size + 1;
            if (left < count - left) {
                waiting[waiting_count].run = run + left * size;
                waiting[waiting_count++].count = count - left;
                count = left;
            } else {
                waiting[waiting_count].run = run;
                waiting[waiting_count++].count = left;
                run += left * size;
                count -= left;
            }
        }
        for (size_t k = 1; k < count; ++k) {
            memcpy(held, run + k * size, size);
            size_t j = k;
            for (; j > 0 && less(held, run + (j - 1) * size); --j) memcpy(run + j * size, run + (j - 1) * size, size);
            memcpy(run + j * size, held, size);
        }
        if (waiting_count == 0) return;
        --waiting_count;
        run = waiting[waiting_count].run;
        count = waiting[waiting_count].count;
    }
}

static bool starts_before(const void *x, const void *y)
{
    return ((const mf_box_entry *)x)->min0 < ((const mf_box_entry *)y)->min0;
}

static bool key_below(const void *x, const void *y) { return *(const uint64_t *)x < *(const uint64_t *)y; }

// Room for at least more further keys in a worker's buffer; false when out of memory.
static bool grow_buffer(mf_pair_buffer *buffer, size_t more)
{
    size_t capacity = buffer->capacity < 4096 ? 4096 : 2 * buffer->capacity;
    if (capacity < buffer->count + more) capacity = buffer->count + more;
    uint64_t *grown = realloc(buffer->keys, capacity * sizeof(uint64_t));
    if (grown == NULL) return false;
    buffer->keys = grown;
    buffer->capacity = capacity;
    return true;
}

// Sweeps one cell's run, sorted along the sweep axis: each box against the boxes that start inside
// its interval. The tests are written without branches (a mispredicted branch per candidate cost
// more than the test): a candidate's index is always stored and the count advances only if its
// boxes overlap and this is the first cell both lie in.
static bool sweep_cell(const mf_box_entry *run, size_t length, uint32_t c0, uint32_t c1, mf_pair_buffer *buffer)
{
    enum { block = 64 };
    uint32_t hit[block];
    for (size_t i = 0; i < length; ++i) {
        const mf_box_entry x = run[i];
        uint32_t x_first0 = x.low0 == c0, x_first1 = x.low1 == c1;
        size_t j = i + 1;
        while (j < length && run[j].min0 <= x.max0) {
            // A block of candidates: at most block of them, all within the sweep interval.
            size_t end = j + block < length ? j + block : length, hits = 0;
            for (; j < end && run[j].min0 <= x.max0; ++j) {
                const mf_box_entry *y = &run[j];
                uint32_t overlap =
                    (x.min1 <= y->max1) & (y->min1 <= x.max1) & (x.min2 <= y->max2) & (y->min2 <= x.max2);
                uint32_t first = (x_first0 | (y->low0 == c0)) & (x_first1 | (y->low1 == c1));
                hit[hits] = y->body;
                hits += overlap & first;
            }
            if (buffer->count + hits > buffer->capacity && !grow_buffer(buffer, hits)) return false;
            uint64_t *keys = buffer->keys + buffer->count;
            for (size_t h = 0; h < hits; ++h) {
                uint32_t y = hit[h];
                keys[h] = x.body < y ? (uint64_t)x.body << 32 | y : (uint64_t)y << 32 | x.body;
            }
            buffer->count += hits;
        }
    }
    return true;
}

void mf_broad_sweep_task(void *data, uint32_t task, uint32_t worker)
{
    mf_broad_call *call = data;
    mf_broadphase *b = call->scratch;
    mf_pair_buffer *buffer = &b->buffers[worker];
    uint32_t columns = call->cut[1].count;
    mf_box_entry spare[2];
    for (uint32_t cell = b->sweep_first_cell[task]; cell < b->sweep_first_cell[task + 1]; ++cell) {
        mf_box_entry *run = b->entries + b->cell_start[cell];
        size_t length = b->cell_start[cell + 1] - b->cell_start[cell];
        sort_ascending(run, length, sizeof *run, starts_before, spare);
        if (!sweep_cell(run, length, cell / columns, cell % columns, buffer)) {
            atomic_store(&call->out_of_memory, 1);
            return;
        }
    }
}

// Task w counts worker w's pairs by bucket.
void mf_broad_bucket_count_task(void *data, uint32_t task, uint32_t worker)
{
    (void)worker;
    mf_broad_call *call = data;
    mf_broadphase *b = call->scratch;
    uint32_t *counts = b->bucket_counts + (size_t)task * call->bucket_count;
    const mf_pair_buffer *buffer = &b->buffers[task];
    for (uint32_t k = 0; k < call->bucket_count; ++k) counts[k] = 0;
    for (size_t p = 0; p < buffer->count; ++p) ++counts[buffer->keys[p] >> (32 + MF_BROAD_BUCKET_SHIFT)];
}

// Task w moves worker w's pairs to their buckets (bucket_counts now holds where each goes).
void mf_broad_bucket_place_task(void *data, uint32_t task, uint32_t worker)
{
    (void)worker;
    mf_broad_call *call = data;
    mf_broadphase *b = call->scratch;
    uint32_t *next = b->bucket_counts + (size_t)task * call->bucket_count;
    const mf_pair_buffer *buffer = &b->buffers[task];
    for (size_t p = 0; p < buffer->count; ++p) {
        uint64_t key = buffer->keys[p];
        b->bucketed[next[key >> (32 + MF_BROAD_BUCKET_SHIFT)]++] = key;
    }
}

// Sorts one bucket (by first body with a counting sort, then each first body's run) and writes
// what fits of it to the caller's pairs.
void mf_broad_bucket_sort_task(void *data, uint32_t task, uint32_t worker)
{
    (void)worker;
    mf_broad_call *call = data;
    mf_broadphase *b = call->scratch;
    size_t begin = b->bucket_start[task], end = b->bucket_start[task + 1];
    uint32_t start[MF_BROAD_BUCKET_BODIES + 1] = {0};
    for (size_t p = begin; p < end; ++p) ++start[(uint32_t)(b->bucketed[p] >> 32) % MF_BROAD_BUCKET_BODIES + 1];
    for (uint32_t k = 0; k < MF_BROAD_BUCKET_BODIES; ++k) start[k + 1] += start[k];
    uint64_t *sorted = b->sorted + begin;
    for (size_t p = begin; p < end; ++p) {
        uint64_t key = b->bucketed[p];
        sorted[start[(uint32_t)(key >> 32) % MF_BROAD_BUCKET_BODIES]++] = key;
    }
    // start[k] is now the end of body k's run, where run k + 1 starts.
    uint64_t spare[2];
    for (uint32_t k = 0, run = 0; k < MF_BROAD_BUCKET_BODIES; run = start[k++])
        sort_ascending(sorted + run, start[k] - run, sizeof *sorted, key_below, spare);
    size_t last = end < call->pair_capacity ? end : call->pair_capacity;
    for (size_t p = begin; p < last; ++p) {
        uint64_t key = sorted[p - begin];
        call->pairs[p] = (mf_pair){(uint32_t)(key >> 32), (uint32_t)key};
    }
}
