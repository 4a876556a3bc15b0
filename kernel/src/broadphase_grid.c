// The broad phase's boxes and grid (steps 1 to 3 of broadphase.c): the axes and the cell size from
// a sample of the bodies, each body's world box, the grid's cuts, and each box counted into, then
// copied into, every cell it overlaps.
#include "broadphase_call.h"

#include "bank.h"
#include "fault.h"
#include "scale.h"
#include "vec.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

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

static void body_box(const mf_broad_call *call, uint32_t body, float low[3], float high[3])
{
    const mf_bodies *bodies = call->bodies;
    world_box(&call->bank->shapes[bodies->shape[body]], mf_body_scale(bodies, body), &bodies->transform[body],
              call->margin, low, high);
}

static int compare_floats(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

// Step 1: the axes and the median box extents across the cut axes, from a sample of the bodies.
void mf_broad_choose_axes(const mf_broad_call *call, int axis[3], float median_extent[2])
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

void mf_broad_boxes_task(void *data, uint32_t task, uint32_t worker)
{
    (void)worker;
    mf_broad_call *call = data;
    mf_broadphase *b = call->scratch;
    const mf_bodies *bodies = call->bodies;
    uint32_t begin = task * MF_BROAD_BODIES_PER_TASK, end = begin + MF_BROAD_BODIES_PER_TASK;
    if (end > bodies->count) end = bodies->count;
    mf_body_task summary = {UINT32_MAX, {INFINITY, INFINITY}, {-INFINITY, -INFINITY}, 0};
    for (uint32_t i = begin; i < end; ++i) {
        if (!mf_body_is_valid(call->bank, bodies, i)) {
            if (summary.first_invalid == UINT32_MAX) summary.first_invalid = i;
            continue;
        }
        float low[3], high[3];
        body_box(call, i, low, high);
        const int *axis = call->axis;
        b->boxes[i] = (mf_box_entry){.min0 = low[axis[0]],
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

// ---- the grid ----

static uint32_t strip_of(const mf_strips *s, float x)
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

// Cells twice the median box wide, so most boxes lie in one to four of them, and wider where
// needed to keep the grid within a few cells per body.
void mf_broad_cut_grid(mf_broad_call *call, const float low[2], const float high[2], const float median_extent[2])
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
        call->cut[k] = (mf_strips){cut ? low[k] : 0.0f, cut ? 1.0f / width[k] : 0.0f, count[k]};
    }
}

void mf_broad_count_task(void *data, uint32_t task, uint32_t worker)
{
    (void)worker;
    mf_broad_call *call = data;
    mf_broadphase *b = call->scratch;
    uint32_t begin = task * MF_BROAD_BODIES_PER_TASK, end = begin + MF_BROAD_BODIES_PER_TASK;
    if (end > call->bodies->count) end = call->bodies->count;
    uint32_t columns = call->cut[1].count;
    size_t entries = 0;
    for (uint32_t i = begin; i < end; ++i) {
        const mf_box_entry *x = &b->boxes[i];
        mf_cell_range r = {(uint16_t)strip_of(&call->cut[0], x->min1), (uint16_t)strip_of(&call->cut[0], x->max1),
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

void mf_broad_place_task(void *data, uint32_t task, uint32_t worker)
{
    (void)worker;
    mf_broad_call *call = data;
    mf_broadphase *b = call->scratch;
    uint32_t begin = task * MF_BROAD_BODIES_PER_TASK, end = begin + MF_BROAD_BODIES_PER_TASK;
    if (end > call->bodies->count) end = call->bodies->count;
    uint32_t columns = call->cut[1].count;
    for (uint32_t i = begin; i < end; ++i) {
        mf_cell_range r = b->ranges[i];
        for (uint32_t c0 = r.low0; c0 <= r.high0; ++c0) {
            for (uint32_t c1 = r.low1; c1 <= r.high1; ++c1) {
                uint32_t at =
                    atomic_fetch_add_explicit(&b->cell_cursor[(size_t)c0 * columns + c1], 1u, memory_order_relaxed);
                b->entries[at] = b->boxes[i];
            }
        }
    }
}
