// Sort-and-sweep: world boxes from each shape's local box turned by |R| (a bound, not the tight
// box, but cheap), sorted along the axis where the bodies spread most; each body then meets only
// the bodies whose interval starts inside its own.
// One sweep axis alone is quadratic in a dense 3D heap (a slab across the pile holds a fraction
// of all bodies), so the bodies are first sorted into cells of a coarse grid across the two other
// axes, a few bodies wide, and swept cell by cell. A body lies in every cell it overlaps; a pair
// is reported only in the first cell both share, so each is found once.
#include "sweep_before.h"

#include "scene_math.h"

#include <stdbool.h>
#include <stdlib.h>

typedef struct bounds {
    float min[3], max[3];
} bounds;

// A body's box copied into each of its cells, so the sweep reads memory in order.
typedef struct sweep_entry {
    uint32_t cell, body;
    bounds box;
} sweep_entry;

struct sweep_before {
    uint32_t shape_count;
    mf_vec3 *shape_center, *shape_half; // local box of each shape's vertices
    bounds *boxes;
    sweep_entry *order;
    size_t order_capacity;
    float *extents;
    uint32_t *group_start; // counting sort of pairs by their first body
    uint32_t body_capacity;
    uint32_t *cell_start; // counting sort of sweep entries by cell
    size_t cell_capacity;
    mf_pair *pairs;
    size_t pair_capacity;
};

sweep_before *sweep_before_create(const mf_bank *bank)
{
    sweep_before *b = calloc(1, sizeof(sweep_before));
    if (b == NULL) return NULL;
    b->shape_count = mf_bank_shape_count(bank);
    b->shape_center = calloc(b->shape_count + 1, sizeof(mf_vec3));
    b->shape_half = calloc(b->shape_count + 1, sizeof(mf_vec3));
    mf_vec3 *vertices = malloc(MF_MAX_HULL_VERTICES * sizeof(mf_vec3));
    bool ok = b->shape_center != NULL && b->shape_half != NULL && vertices != NULL;
    for (uint32_t s = 0; ok && s < b->shape_count; ++s) {
        mf_shape_info info;
        ok = mf_bank_shape_info(bank, s, &info) == MF_OK &&
             mf_bank_shape_vertices(bank, s, vertices, MF_MAX_HULL_VERTICES) == MF_OK;
        mf_vec3 low = vertices[0], high = vertices[0];
        for (uint32_t v = 1; ok && v < info.vertex_count; ++v) {
            low = (mf_vec3){fminf(low.x, vertices[v].x), fminf(low.y, vertices[v].y), fminf(low.z, vertices[v].z)};
            high = (mf_vec3){fmaxf(high.x, vertices[v].x), fmaxf(high.y, vertices[v].y), fmaxf(high.z, vertices[v].z)};
        }
        b->shape_center[s] = scene_scale(scene_add(low, high), 0.5f);
        b->shape_half[s] = scene_scale(scene_sub(high, low), 0.5f);
    }
    free(vertices);
    if (!ok) {
        sweep_before_destroy(b);
        return NULL;
    }
    return b;
}

void sweep_before_destroy(sweep_before *b)
{
    if (b == NULL) return;
    free(b->shape_center);
    free(b->shape_half);
    free(b->boxes);
    free(b->order);
    free(b->extents);
    free(b->group_start);
    free(b->cell_start);
    free(b->pairs);
    free(b);
}

static float component(mf_vec3 v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }

static int compare_entries(const void *a, const void *b)
{
    const sweep_entry *x = a, *y = b;
    if (x->box.min[0] != y->box.min[0]) return x->box.min[0] < y->box.min[0] ? -1 : 1;
    return (x->body > y->body) - (x->body < y->body);
}

static int compare_pairs(const void *a, const void *b)
{
    const mf_pair *x = a, *y = b;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    return (x->b > y->b) - (x->b < y->b);
}

static bool overlap(const bounds *x, const bounds *y, int axis)
{
    return x->min[axis] <= y->max[axis] && y->min[axis] <= x->max[axis];
}

static bool push_pair(sweep_before *b, size_t *count, uint32_t first, uint32_t second)
{
    if (*count == b->pair_capacity) {
        size_t capacity = b->pair_capacity < 1024 ? 1024 : 2 * b->pair_capacity;
        mf_pair *grown = realloc(b->pairs, capacity * sizeof(mf_pair));
        if (grown == NULL) return false;
        b->pairs = grown;
        b->pair_capacity = capacity;
    }
    b->pairs[(*count)++] = first < second ? (mf_pair){first, second} : (mf_pair){second, first};
    return true;
}

static int compare_floats(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

// The axes by decreasing spread of the box centres: sweep along the first, cut strips along the second.
static void choose_axes(const bounds *boxes, uint32_t n, int axes[3])
{
    double mean[3] = {0, 0, 0}, mean2[3] = {0, 0, 0}, spread[3];
    for (uint32_t i = 0; i < n; ++i) {
        for (int a = 0; a < 3; ++a) {
            double c = 0.5 * ((double)boxes[i].min[a] + boxes[i].max[a]);
            mean[a] += c;
            mean2[a] += c * c;
        }
    }
    for (int a = 0; a < 3; ++a) {
        spread[a] = n > 0 ? mean2[a] / n - (mean[a] / n) * (mean[a] / n) : 0.0;
        axes[a] = a;
    }
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j)
            if (spread[axes[j]] > spread[axes[i]]) {
                int t = axes[i];
                axes[i] = axes[j];
                axes[j] = t;
            }
}

// Cuts along one axis of the grid.
typedef struct strips {
    float origin, width;
    uint32_t count;
} strips;

static uint32_t strip_of(const strips *s, float x)
{
    float at = (x - s->origin) / s->width;
    return at <= 0.0f ? 0 : at >= (float)(s->count - 1) ? s->count - 1 : (uint32_t)at;
}

static strips cut_axis(sweep_before *b, uint32_t n, int axis, float *low_out, float *high_out)
{
    float low = INFINITY, high = -INFINITY;
    for (uint32_t i = 0; i < n; ++i) {
        b->extents[i] = b->boxes[i].max[axis] - b->boxes[i].min[axis];
        low = fminf(low, b->boxes[i].min[axis]);
        high = fmaxf(high, b->boxes[i].max[axis]);
    }
    *low_out = low;
    *high_out = high;
    qsort(b->extents, n, sizeof(float), compare_floats);
    return (strips){low, 2.0f * b->extents[n / 2], 1};
}

static uint32_t strip_count(float low, float high, float width)
{
    if (!(width > 0.0f) || !(high > low)) return 1;
    double count = floor((double)(high - low) / width) + 1.0;
    return count < 65536.0 ? (uint32_t)count : 65536u;
}

// Cells twice the median body's extent wide, so most bodies lie in one to four of them, and
// wider where needed to keep the grid within a few cells per body (a ground slab lies in all).
static void cut_grid(sweep_before *b, uint32_t n, int axis0, int axis1, strips *s0, strips *s1)
{
    *s0 = *s1 = (strips){0.0f, 1.0f, 1};
    if (n == 0) return;
    float low0, high0, low1, high1;
    *s0 = cut_axis(b, n, axis0, &low0, &high0);
    *s1 = cut_axis(b, n, axis1, &low1, &high1);
    double limit = 4.0 * n + 64.0;
    for (int grow = 0; grow < 64; ++grow) {
        s0->count = strip_count(low0, high0, s0->width);
        s1->count = strip_count(low1, high1, s1->width);
        if ((double)s0->count * s1->count <= limit) break;
        s0->width *= 1.5f;
        s1->width *= 1.5f;
    }
    if (!(s0->width > 0.0f)) *s0 = (strips){low0, 1.0f, 1};
    if (!(s1->width > 0.0f)) *s1 = (strips){low1, 1.0f, 1};
}

// Pairs sorted by (a, b) in linear time: count by a, place, then sort each run by b.
static bool sort_pairs(sweep_before *b, uint32_t n, size_t count)
{
    mf_pair *sorted = malloc((count > 0 ? count : 1) * sizeof(mf_pair));
    if (sorted == NULL) return false;
    for (uint32_t i = 0; i <= n; ++i) b->group_start[i] = 0;
    for (size_t p = 0; p < count; ++p) ++b->group_start[b->pairs[p].a + 1];
    for (uint32_t i = 0; i < n; ++i) b->group_start[i + 1] += b->group_start[i];
    for (size_t p = 0; p < count; ++p) sorted[b->group_start[b->pairs[p].a]++] = b->pairs[p];
    // group_start[i] now holds the end of group i, which is where group i + 1 starts.
    uint32_t begin = 0;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t end = b->group_start[i];
        if (end - begin > 16) {
            qsort(sorted + begin, end - begin, sizeof(mf_pair), compare_pairs);
        } else {
            for (uint32_t k = begin + 1; k < end; ++k) {
                mf_pair key = sorted[k];
                uint32_t j = k;
                for (; j > begin && sorted[j - 1].b > key.b; --j) sorted[j] = sorted[j - 1];
                sorted[j] = key;
            }
        }
        begin = end;
    }
    free(b->pairs);
    b->pairs = sorted;
    b->pair_capacity = count > 0 ? count : 1;
    return true;
}

mf_status sweep_before_find_pairs(sweep_before *b, const mf_bodies *bodies, float margin, const mf_pair **pairs,
                                  uint32_t *pair_count)
{
    uint32_t n = bodies->count;
    *pairs = b->pairs;
    *pair_count = 0;
    if (n < 2) return MF_OK;
    if (n > b->body_capacity) {
        free(b->boxes);
        free(b->extents);
        free(b->group_start);
        b->boxes = malloc(n * sizeof(bounds));
        b->extents = malloc(n * sizeof(float));
        b->group_start = malloc(((size_t)n + 1) * sizeof(uint32_t));
        b->body_capacity = b->boxes != NULL && b->extents != NULL && b->group_start != NULL ? n : 0;
        if (b->body_capacity == 0) return MF_ERR_OUT_OF_MEMORY;
    }
    // The margin on both boxes: a pair whose gap is below the margin must reach the kernel.
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t shape = bodies->shape[i];
        if (shape >= b->shape_count) return MF_ERR_INVALID_ARGUMENT;
        const mf_transform *t = &bodies->transform[i];
        scene_mat3 r = scene_mat3_from_quat(t->q);
        mf_vec3 center = scene_transform_point(t, &r, b->shape_center[shape]), half = b->shape_half[shape];
        for (int a = 0; a < 3; ++a) {
            float extent = fabsf(component(r.column[0], a)) * half.x + fabsf(component(r.column[1], a)) * half.y +
                           fabsf(component(r.column[2], a)) * half.z + margin;
            float c = component(center, a);
            b->boxes[i].min[a] = c - extent;
            b->boxes[i].max[a] = c + extent;
        }
    }
    int axes[3];
    choose_axes(b->boxes, n, axes);
    // Reorder each box's axes as (sweep, cut0, cut1): the comparisons below then use fixed indices.
    for (uint32_t i = 0; i < n; ++i) {
        bounds original = b->boxes[i];
        for (int a = 0; a < 3; ++a) {
            b->boxes[i].min[a] = original.min[axes[a]];
            b->boxes[i].max[a] = original.max[axes[a]];
        }
    }
    const int cut0 = 1, cut1 = 2;
    strips s0, s1;
    cut_grid(b, n, cut0, cut1, &s0, &s1);

    // Entries grouped by cell with a counting sort, then each cell's run sorted along the sweep axis.
    size_t cells = (size_t)s0.count * s1.count;
    if (cells + 1 > b->cell_capacity) {
        free(b->cell_start);
        b->cell_start = malloc((cells + 1) * sizeof(uint32_t));
        b->cell_capacity = b->cell_start != NULL ? cells + 1 : 0;
        if (b->cell_start == NULL) return MF_ERR_OUT_OF_MEMORY;
    }
    for (size_t c = 0; c <= cells; ++c) b->cell_start[c] = 0;
    size_t entries = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const bounds *x = &b->boxes[i];
        uint32_t last0 = strip_of(&s0, x->max[cut0]), last1 = strip_of(&s1, x->max[cut1]);
        for (uint32_t c0 = strip_of(&s0, x->min[cut0]); c0 <= last0; ++c0)
            for (uint32_t c1 = strip_of(&s1, x->min[cut1]); c1 <= last1; ++c1, ++entries)
                ++b->cell_start[c0 * s1.count + c1 + 1];
    }
    if (entries > UINT32_MAX) return MF_ERR_OUT_OF_MEMORY; // indices are 32 bits
    if (entries > b->order_capacity) {
        free(b->order);
        b->order = malloc(entries * sizeof(sweep_entry));
        b->order_capacity = b->order != NULL ? entries : 0;
        if (b->order == NULL) return MF_ERR_OUT_OF_MEMORY;
    }
    for (size_t c = 0; c < cells; ++c) b->cell_start[c + 1] += b->cell_start[c];
    for (uint32_t i = 0; i < n; ++i) {
        const bounds *x = &b->boxes[i];
        uint32_t last0 = strip_of(&s0, x->max[cut0]), last1 = strip_of(&s1, x->max[cut1]);
        for (uint32_t c0 = strip_of(&s0, x->min[cut0]); c0 <= last0; ++c0) {
            for (uint32_t c1 = strip_of(&s1, x->min[cut1]); c1 <= last1; ++c1) {
                uint32_t cell = c0 * s1.count + c1;
                b->order[b->cell_start[cell]++] = (sweep_entry){cell, i, *x};
            }
        }
    }
    // cell_start[c] is now the end of cell c, which is where cell c + 1 starts.
    for (size_t c = 0, begin = 0; c < cells; begin = b->cell_start[c++]) {
        sweep_entry *run = b->order + begin;
        size_t length = b->cell_start[c] - begin;
        if (length > 16) {
            qsort(run, length, sizeof(sweep_entry), compare_entries);
            continue;
        }
        for (size_t k = 1; k < length; ++k) {
            sweep_entry key = run[k];
            size_t j = k;
            for (; j > 0 && compare_entries(&run[j - 1], &key) > 0; --j) run[j] = run[j - 1];
            run[j] = key;
        }
    }

    size_t count = 0;
    for (size_t i = 0; i < entries; ++i) {
        const sweep_entry *e = &b->order[i];
        const bounds *x = &e->box;
        for (size_t j = i + 1; j < entries && b->order[j].cell == e->cell && b->order[j].box.min[0] <= x->max[0]; ++j) {
            const bounds *y = &b->order[j].box;
            if (!overlap(x, y, cut0) || !overlap(x, y, cut1)) continue;
            // Report in the first cell both lie in: where the later of the two boxes starts.
            uint32_t first_cell = strip_of(&s0, fmaxf(x->min[cut0], y->min[cut0])) * s1.count +
                                  strip_of(&s1, fmaxf(x->min[cut1], y->min[cut1]));
            if (first_cell != e->cell) continue;
            if (count == UINT32_MAX || !push_pair(b, &count, e->body, b->order[j].body)) return MF_ERR_OUT_OF_MEMORY;
        }
    }
    if (!sort_pairs(b, n, count)) return MF_ERR_OUT_OF_MEMORY;
    *pairs = b->pairs;
    *pair_count = (uint32_t)count;
    return MF_OK;
}
