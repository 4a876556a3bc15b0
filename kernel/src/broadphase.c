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
#include "broadphase.h"

#include "bank.h"
#include "context.h"
#include "fault.h"
#include "jobs.h"
#include "scale.h"
#include "vec.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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
typedef struct box_entry {
    float min0, max0, min1, max1, min2, max2;
    uint32_t body;
    uint16_t low0, low1;
} box_entry;
_Static_assert(sizeof(box_entry) == 32, "two sweep entries a cache line");

// The strips a body's box covers along each cut axis.
typedef struct cell_range {
    uint16_t low0, high0, low1, high1;
} cell_range;

// Cuts along one axis of the grid.
typedef struct strips {
    float origin, inverse_width;
    uint32_t count;
} strips;

// What a task of the body passes reports: its first invalid body, its boxes' extent on the cut
// axes, the sweep entries its bodies make.
typedef struct body_task {
    uint32_t first_invalid;
    float low[2], high[2];
    size_t entries;
} body_task;

typedef struct pair_buffer {
    uint64_t *keys; // (a << 32) | b, a < b: sorting keys sorts pairs by a, then b
    size_t count, capacity;
} pair_buffer;

struct mf_broadphase {
    uint32_t body_capacity;
    box_entry *boxes;   // [bodies]
    cell_range *ranges; // [bodies]
    body_task *body_tasks;
    size_t cursor_capacity, cell_capacity;
    atomic_uint *cell_cursor; // [cells]: counts, then where the next entry of the cell goes
    uint32_t *cell_start;     // [cells + 1]
    size_t entry_capacity;
    box_entry *entries;
    size_t sweep_task_capacity;
    uint32_t *sweep_first_cell; // [sweep tasks + 1]
    uint32_t worker_count;
    pair_buffer *buffers; // [threads]: what each worker's sweeps found
    size_t bucket_capacity, bucket_start_capacity;
    uint32_t *bucket_counts; // [threads * buckets]: then where each worker's pairs of each bucket go
    size_t *bucket_start;    // [buckets + 1]
    size_t bucketed_capacity, sorted_capacity;
    uint64_t *bucketed, *sorted;                // [pairs]
    float sample_extents[3 * MF_BROAD_SAMPLES]; // step 1's sample: box extents along each axis
};

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

// ---- sorting helpers: a run of a cell by its start on the sweep axis, keys by value ----

static void sort_entries(box_entry *run, size_t count)
{
    while (count > 16) {
        // Median of three as the pivot, Hoare partition; recurse on the smaller side.
        size_t middle = count / 2;
        float x = run[0].min0, y = run[middle].min0, z = run[count - 1].min0;
        float pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        size_t i = 0, j = count - 1;
        for (;;) {
            while (run[i].min0 < pivot) ++i;
            while (run[j].min0 > pivot) --j;
            if (i >= j) break;
            box_entry t = run[i];
            run[i++] = run[j];
            run[j--] = t;
        }
        size_t left = j + 1;
        if (left < count - left) {
            sort_entries(run, left);
            run += left;
            count -= left;
        } else {
            sort_entries(run + left, count - left);
            count = left;
        }
    }
    for (size_t k = 1; k < count; ++k) {
        box_entry key = run[k];
        size_t j = k;
        for (; j > 0 && run[j - 1].min0 > key.min0; --j) run[j] = run[j - 1];
        run[j] = key;
    }
}

static void sort_keys(uint64_t *keys, size_t count)
{
    while (count > 16) {
        size_t middle = count / 2;
        uint64_t x = keys[0], y = keys[middle], z = keys[count - 1];
        uint64_t pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        size_t i = 0, j = count - 1;
        for (;;) {
            while (keys[i] < pivot) ++i;
            while (keys[j] > pivot) --j;
            if (i >= j) break;
            uint64_t t = keys[i];
            keys[i++] = keys[j];
            keys[j--] = t;
        }
        size_t left = j + 1;
        if (left < count - left) {
            sort_keys(keys, left);
            keys += left;
            count -= left;
        } else {
            sort_keys(keys + left, count - left);
            count = left;
        }
    }
    for (size_t k = 1; k < count; ++k) {
        uint64_t key = keys[k];
        size_t j = k;
        for (; j > 0 && keys[j - 1] > key; --j) keys[j] = keys[j - 1];
        keys[j] = key;
    }
}

static int compare_floats(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

// ---- boxes ----

// The rotation of a quaternion as columns, normalised on the way (2 / |q|^2), with the operations
// of the tools' former broad phase, so its boxes are the same to the bit. A quaternion whose
// squared length leaves float's normal range is normalised first.
static void rotation_columns(mf_quat q, mf_vec3 column[3])
{
    float length2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (!(length2 >= FLT_MIN && length2 <= FLT_MAX)) {
        q = mf_quat_normalize(q);
        length2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    }
    float s = 2.0f / length2;
    float xx = q.x * q.x * s, yy = q.y * q.y * s, zz = q.z * q.z * s;
    float xy = q.x * q.y * s, xz = q.x * q.z * s, yz = q.y * q.z * s;
    float wx = q.w * q.x * s, wy = q.w * q.y * s, wz = q.w * q.z * s;
    column[0] = (mf_vec3){1.0f - yy - zz, xy + wz, xz - wy};
    column[1] = (mf_vec3){xy - wz, 1.0f - xx - zz, yz + wx};
    column[2] = (mf_vec3){xz + wy, yz - wx, 1.0f - xx - yy};
}

static float component(mf_vec3 v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }

// A body's world box along the world axes: low[a], high[a]. The shape's box times the body's scale.
static void world_box(const mf_shape *shape, float scale, const mf_transform *t, float margin, float low[3],
                      float high[3])
{
    mf_vec3 column[3];
    rotation_columns(t->q, column);
    mf_vec3 c = mf_scale(shape->bounds_center, scale), half = mf_scale(shape->bounds_half, scale);
    mf_vec3 turned = mf_add(mf_add(mf_scale(column[0], c.x), mf_scale(column[1], c.y)), mf_scale(column[2], c.z));
    mf_vec3 center = mf_add(t->p, turned);
    for (int a = 0; a < 3; ++a) {
        float extent = fabsf(component(column[0], a)) * half.x + fabsf(component(column[1], a)) * half.y +
                       fabsf(component(column[2], a)) * half.z + margin;
        float middle = component(center, a);
        low[a] = middle - extent;
        high[a] = middle + extent;
    }
}

// Bodies are checked as mf_collide checks them (fault.h: mf_body_is_valid): shape, scale, transform.
static mf_status explain_body(mf_context *context, const mf_bank *bank, const mf_bodies *bodies, uint32_t body)
{
    char text[sizeof(context->message)];
    mf_status status = mf_describe_body(bank, bodies, body, text, sizeof(text));
    return mf_context_fail(context, status, "%s", text);
}

// ---- the grid ----

static uint32_t strip_of(const strips *s, float x)
{
    float at = (x - s->origin) * s->inverse_width;
    if (!(at > 0.0f)) return 0;
    return at >= (float)(s->count - 1) ? s->count - 1 : (uint32_t)at;
}

static uint32_t strip_count(float low, float high, float width)
{
    if (!(width > 0.0f) || !(high > low)) return 1;
    double count = floor(((double)high - low) / width) + 1.0;
    return count < MF_BROAD_MAX_STRIPS ? (uint32_t)count : MF_BROAD_MAX_STRIPS;
}

// Everything a call's tasks read.
typedef struct broad_call {
    mf_broadphase *scratch;
    const mf_bank *bank;
    const mf_bodies *bodies;
    float margin;
    int axis[3]; // world axes of (sweep, cut 0, cut 1): by increasing spread
    strips cut[2];
    uint32_t bucket_count;
    mf_pair *pairs;
    uint32_t pair_capacity;
    atomic_int out_of_memory;
} broad_call;

static void body_box(const broad_call *call, uint32_t body, float low[3], float high[3])
{
    const mf_bodies *bodies = call->bodies;
    world_box(&call->bank->shapes[bodies->shape[body]], mf_body_scale(bodies, body), &bodies->transform[body],
              call->margin, low, high);
}

static void boxes_task(void *data, uint32_t task, uint32_t worker)
{
    (void)worker;
    broad_call *call = data;
    mf_broadphase *b = call->scratch;
    const mf_bodies *bodies = call->bodies;
    uint32_t begin = task * MF_BROAD_BODIES_PER_TASK, end = begin + MF_BROAD_BODIES_PER_TASK;
    if (end > bodies->count) end = bodies->count;
    body_task summary = {UINT32_MAX, {INFINITY, INFINITY}, {-INFINITY, -INFINITY}, 0};
    for (uint32_t i = begin; i < end; ++i) {
        if (!mf_body_is_valid(call->bank, bodies, i)) {
            if (summary.first_invalid == UINT32_MAX) summary.first_invalid = i;
            continue;
        }
        float low[3], high[3];
        body_box(call, i, low, high);
        const int *axis = call->axis;
        b->boxes[i] = (box_entry){.min0 = low[axis[0]],
                                  .max0 = high[axis[0]],
                                  .min1 = low[axis[1]],
                                  .max1 = high[axis[1]],
                                  .min2 = low[axis[2]],
                                  .max2 = high[axis[2]],
                                  .body = i};
        // Boxes reach past float only for bodies near FLT_MAX: they do not stretch the grid.
        for (int k = 0; k < 2; ++k) {
            if (isfinite(low[axis[k + 1]])) summary.low[k] = fminf(summary.low[k], low[axis[k + 1]]);
            if (isfinite(high[axis[k + 1]])) summary.high[k] = fmaxf(summary.high[k], high[axis[k + 1]]);
        }
    }
    b->body_tasks[task] = summary;
}

static void count_task(void *data, uint32_t task, uint32_t worker)
{
    (void)worker;
    broad_call *call = data;
    mf_broadphase *b = call->scratch;
    uint32_t begin = task * MF_BROAD_BODIES_PER_TASK, end = begin + MF_BROAD_BODIES_PER_TASK;
    if (end > call->bodies->count) end = call->bodies->count;
    uint32_t columns = call->cut[1].count;
    size_t entries = 0;
    for (uint32_t i = begin; i < end; ++i) {
        const box_entry *x = &b->boxes[i];
        cell_range r = {(uint16_t)strip_of(&call->cut[0], x->min1), (uint16_t)strip_of(&call->cut[0], x->max1),
                        (uint16_t)strip_of(&call->cut[1], x->min2), (uint16_t)strip_of(&call->cut[1], x->max2)};
        b->ranges[i] = r;
        b->boxes[i].low0 = r.low0;
        b->boxes[i].low1 = r.low1;
        for (uint32_t c0 = r.low0; c0 <= r.high0; ++c0)
            for (uint32_t c1 = r.low1; c1 <= r.high1; ++c1, ++entries)
                atomic_fetch_add_explicit(&b->cell_cursor[(size_t)c0 * columns + c1], 1u, memory_order_relaxed);
    }
    b->body_tasks[task].entries = entries;
}

static void place_task(void *data, uint32_t task, uint32_t worker)
{
    (void)worker;
    broad_call *call = data;
    mf_broadphase *b = call->scratch;
    uint32_t begin = task * MF_BROAD_BODIES_PER_TASK, end = begin + MF_BROAD_BODIES_PER_TASK;
    if (end > call->bodies->count) end = call->bodies->count;
    uint32_t columns = call->cut[1].count;
    for (uint32_t i = begin; i < end; ++i) {
        cell_range r = b->ranges[i];
        for (uint32_t c0 = r.low0; c0 <= r.high0; ++c0) {
            for (uint32_t c1 = r.low1; c1 <= r.high1; ++c1) {
                uint32_t at =
                    atomic_fetch_add_explicit(&b->cell_cursor[(size_t)c0 * columns + c1], 1u, memory_order_relaxed);
                b->entries[at] = b->boxes[i];
            }
        }
    }
}

// Room for at least more further keys in a worker's buffer; false when out of memory.
static bool grow_buffer(pair_buffer *buffer, size_t more)
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
static bool sweep_cell(const box_entry *run, size_t length, uint32_t c0, uint32_t c1, pair_buffer *buffer)
{
    enum { block = 64 };
    uint32_t hit[block];
    for (size_t i = 0; i < length; ++i) {
        const box_entry x = run[i];
        uint32_t x_first0 = x.low0 == c0, x_first1 = x.low1 == c1;
        size_t j = i + 1;
        while (j < length && run[j].min0 <= x.max0) {
            // A block of candidates: at most block of them, all within the sweep interval.
            size_t end = j + block < length ? j + block : length, hits = 0;
            for (; j < end && run[j].min0 <= x.max0; ++j) {
                const box_entry *y = &run[j];
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

static void sweep_task(void *data, uint32_t task, uint32_t worker)
{
    broad_call *call = data;
    mf_broadphase *b = call->scratch;
    pair_buffer *buffer = &b->buffers[worker];
    uint32_t columns = call->cut[1].count;
    for (uint32_t cell = b->sweep_first_cell[task]; cell < b->sweep_first_cell[task + 1]; ++cell) {
        box_entry *run = b->entries + b->cell_start[cell];
        size_t length = b->cell_start[cell + 1] - b->cell_start[cell];
        sort_entries(run, length);
        if (!sweep_cell(run, length, cell / columns, cell % columns, buffer)) {
            atomic_store(&call->out_of_memory, 1);
            return;
        }
    }
}

// Task w counts worker w's pairs by bucket.
static void bucket_count_task(void *data, uint32_t task, uint32_t worker)
{
    (void)worker;
    broad_call *call = data;
    mf_broadphase *b = call->scratch;
    uint32_t *counts = b->bucket_counts + (size_t)task * call->bucket_count;
    const pair_buffer *buffer = &b->buffers[task];
    for (uint32_t k = 0; k < call->bucket_count; ++k) counts[k] = 0;
    for (size_t p = 0; p < buffer->count; ++p) ++counts[buffer->keys[p] >> (32 + MF_BROAD_BUCKET_SHIFT)];
}

// Task w moves worker w's pairs to their buckets (bucket_counts now holds where each goes).
static void bucket_place_task(void *data, uint32_t task, uint32_t worker)
{
    (void)worker;
    broad_call *call = data;
    mf_broadphase *b = call->scratch;
    uint32_t *next = b->bucket_counts + (size_t)task * call->bucket_count;
    const pair_buffer *buffer = &b->buffers[task];
    for (size_t p = 0; p < buffer->count; ++p) {
        uint64_t key = buffer->keys[p];
        b->bucketed[next[key >> (32 + MF_BROAD_BUCKET_SHIFT)]++] = key;
    }
}

// Sorts one bucket (by first body with a counting sort, then each first body's run) and writes
// what fits of it to the caller's pairs.
static void bucket_sort_task(void *data, uint32_t task, uint32_t worker)
{
    (void)worker;
    broad_call *call = data;
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
    for (uint32_t k = 0, run = 0; k < MF_BROAD_BUCKET_BODIES; run = start[k++]) sort_keys(sorted + run, start[k] - run);
    size_t last = end < call->pair_capacity ? end : call->pair_capacity;
    for (size_t p = begin; p < last; ++p) {
        uint64_t key = sorted[p - begin];
        call->pairs[p] = (mf_pair){(uint32_t)(key >> 32), (uint32_t)key};
    }
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

// Step 1: the axes and the median box extents across the cut axes, from a sample of the bodies.
static void choose_axes(const broad_call *call, int axis[3], float median_extent[2])
{
    const mf_bodies *bodies = call->bodies;
    uint32_t n = bodies->count, step = n > MF_BROAD_SAMPLES ? n / MF_BROAD_SAMPLES : 1u, count = 0;
    float *extents = call->scratch->sample_extents;
    double mean[3] = {0, 0, 0}, mean2[3] = {0, 0, 0};
    for (uint32_t i = 0; i < n && count < MF_BROAD_SAMPLES; i += step) {
        if (!mf_body_is_valid(call->bank, bodies, i)) continue;
        float low[3], high[3];
        body_box(call, i, low, high);
        for (int a = 0; a < 3; ++a) {
            double c = 0.5 * ((double)low[a] + high[a]);
            mean[a] += c;
            mean2[a] += c * c;
            extents[a * MF_BROAD_SAMPLES + count] = high[a] - low[a];
        }
        ++count;
    }
    double spread[3];
    for (int a = 0; a < 3; ++a) {
        spread[a] = count > 0 ? mean2[a] / count - (mean[a] / count) * (mean[a] / count) : 0.0;
        axis[a] = a;
    }
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j)
            if (spread[axis[j]] < spread[axis[i]]) {
                int t = axis[i];
                axis[i] = axis[j];
                axis[j] = t;
            }
    for (int k = 0; k < 2; ++k) {
        float *e = extents + axis[k + 1] * MF_BROAD_SAMPLES;
        qsort(e, count, sizeof(float), compare_floats);
        median_extent[k] = count > 0 ? e[count / 2] : 0.0f;
    }
}

// Cells twice the median box wide, so most boxes lie in one to four of them, and wider where
// needed to keep the grid within a few cells per body.
static void cut_grid(broad_call *call, const float low[2], const float high[2], const float median_extent[2])
{
    uint32_t n = call->bodies->count;
    float width[2] = {2.0f * median_extent[0], 2.0f * median_extent[1]};
    uint32_t count[2] = {1, 1};
    double limit = 4.0 * n + 64.0;
    for (int grow = 0; grow < 128; ++grow) {
        count[0] = strip_count(low[0], high[0], width[0]);
        count[1] = strip_count(low[1], high[1], width[1]);
        if ((double)count[0] * count[1] <= limit) break;
        width[0] *= 1.5f;
        width[1] *= 1.5f;
    }
    if ((double)count[0] * count[1] > limit) count[0] = count[1] = 1;
    for (int k = 0; k < 2; ++k) {
        bool cut = count[k] > 1;
        call->cut[k] = (strips){cut ? low[k] : 0.0f, cut ? 1.0f / width[k] : 0.0f, count[k]};
    }
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
        b->buffers = calloc(context->threads, sizeof(pair_buffer));
        if (b->buffers == NULL) return out_of_memory(context);
        b->worker_count = context->threads;
    }
    uint32_t body_tasks = (n + MF_BROAD_BODIES_PER_TASK - 1) / MF_BROAD_BODIES_PER_TASK;
    if (n > b->body_capacity) {
        free(b->boxes);
        free(b->ranges);
        free(b->body_tasks);
        b->boxes = malloc((size_t)n * sizeof(box_entry));
        b->ranges = malloc((size_t)n * sizeof(cell_range));
        b->body_tasks = malloc((size_t)body_tasks * sizeof(body_task));
        b->body_capacity = b->boxes != NULL && b->ranges != NULL && b->body_tasks != NULL ? n : 0;
        if (b->body_capacity == 0) return out_of_memory(context);
    }
    broad_call call = {
        .scratch = b, .bank = bank, .bodies = bodies, .margin = margin, .pairs = pairs, .pair_capacity = pair_capacity};
    atomic_init(&call.out_of_memory, 0);
    float median_extent[2];
    choose_axes(&call, call.axis, median_extent);

    // Step 2: boxes; the first invalid body fails the call.
    run_tasks(context, body_tasks, boxes_task, &call);
    float low[2] = {INFINITY, INFINITY}, high[2] = {-INFINITY, -INFINITY};
    for (uint32_t t = 0; t < body_tasks; ++t) {
        const body_task *s = &b->body_tasks[t];
        if (s->first_invalid != UINT32_MAX) return explain_body(context, bank, bodies, s->first_invalid);
        for (int k = 0; k < 2; ++k) {
            low[k] = fminf(low[k], s->low[k]);
            high[k] = fmaxf(high[k], s->high[k]);
        }
    }
    if (n < 2) return MF_OK;
    cut_grid(&call, low, high, median_extent);

    // Step 3: boxes into cells.
    size_t cells = (size_t)call.cut[0].count * call.cut[1].count;
    if (!reserve((void **)&b->cell_start, &b->cell_capacity, cells + 1, sizeof(uint32_t)))
        return out_of_memory(context);
    if (!reserve((void **)&b->cell_cursor, &b->cursor_capacity, cells, sizeof(atomic_uint)))
        return out_of_memory(context);
    for (size_t c = 0; c < cells; ++c) atomic_init(&b->cell_cursor[c], 0u);
    run_tasks(context, body_tasks, count_task, &call);
    size_t entries = 0;
    for (uint32_t t = 0; t < body_tasks; ++t) entries += b->body_tasks[t].entries;
    if (entries > UINT32_MAX)
        return mf_context_fail(context, MF_ERR_OUT_OF_MEMORY, "%zu grid entries: more than 32-bit indices hold",
                               entries);
    if (!reserve((void **)&b->entries, &b->entry_capacity, entries, sizeof(box_entry))) return out_of_memory(context);
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
    run_tasks(context, body_tasks, place_task, &call);

    // Step 4: sweep each cell.
    for (uint32_t w = 0; w < b->worker_count; ++w) b->buffers[w].count = 0;
    run_tasks(context, sweep_tasks, sweep_task, &call);
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
    run_tasks(context, b->worker_count, bucket_count_task, &call);
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
    run_tasks(context, b->worker_count, bucket_place_task, &call);
    run_tasks(context, call.bucket_count, bucket_sort_task, &call);

    *pair_count = (uint32_t)total;
    if (total > pair_capacity)
        return mf_context_fail(context, MF_ERR_CAPACITY, "%zu pairs found, room for %u: the first %u are written",
                               total, pair_capacity, pair_capacity);
    return MF_OK;
}
