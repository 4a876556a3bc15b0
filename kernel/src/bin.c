// Binning pairs into bundles, and assembling a bundle's rows for the wide pass.
#include "bin.h"

#include "bank.h"
#include "box_hull.h"
#include "core.h"
#include "lanes4.h"
#include "scale.h"

#include <stddef.h>
#include <string.h>

// Hulls beyond the bundle limit take the per-pair path (lanes across faces and edges), which
// computes the same: bundles pad every lane to the largest hull and cannot stop a lane early.
static int in_bundles(const mf_bank *bank, uint32_t shape)
{
    const mf_shape *s = &bank->shapes[shape];
    return s->image_first != UINT32_MAX;
}

// Appends bundles of up to `width` lanes covering order[from, to).
static void cut_bundles(mf_bins *bins, uint32_t from, uint32_t to, uint32_t width, mf_bundle_kind kind,
                        uint32_t projection)
{
    for (uint32_t at = from; at < to; at += width) {
        uint32_t lanes = to - at < width ? to - at : width;
        MF_ASSERT(bins->bundle_count < MF_CHUNK_PAIRS);
        bins->bundles[bins->bundle_count++] = (mf_bundle_plan){at, lanes, kind, projection};
    }
}

// groups[0, count) into `sorted` by their 16-bit cost, ties in index order: a least-significant
// byte radix sort, two stable passes (a chunk has up to a thousand groups, where qsort cost more
// than the binning around it).
static void sort_by_cost(const uint16_t *cost, uint32_t count, uint32_t *by_low_byte, uint32_t *sorted)
{
    uint32_t low[257] = {0}, high[257] = {0};
    for (uint32_t g = 0; g < count; ++g) {
        ++low[(cost[g] & 0xff) + 1];
        ++high[(cost[g] >> 8) + 1];
    }
    for (uint32_t d = 0; d < 256; ++d) {
        low[d + 1] += low[d];
        high[d + 1] += high[d];
    }
    for (uint32_t g = 0; g < count; ++g) by_low_byte[low[cost[g] & 0xff]++] = g;
    for (uint32_t k = 0; k < count; ++k) sorted[high[cost[by_low_byte[k]] >> 8]++] = by_low_byte[k];
}

static uint32_t hash_key(uint64_t key)
{
    key ^= key >> 29;
    key *= 0xbf58476d1ce4e5b9ull;
    return (uint32_t)(key >> 32);
}

// The slot of `key` in an open-addressing table of 2 MF_CHUNK_PAIRS slots: its own, or the empty
// one where it would go.
static uint32_t find_slot(const uint64_t *slot_key, const uint32_t *slot_value, uint64_t key)
{
    const uint32_t slots = 2 * MF_CHUNK_PAIRS;
    uint32_t slot = hash_key(key) & (slots - 1);
    while (slot_value[slot] != UINT32_MAX && slot_key[slot] != key) slot = (slot + 1) & (slots - 1);
    return slot;
}

// Where the leftovers of the groups go, a-uniform or mixed. The groups are taken in order of cost,
// so that a class's a-uniform lanes, and the mixed bundles, pad to similar sizes: within its class
// a group's leftovers rank after those of cheaper groups, and the class's first whole bundles of
// them are a-uniform, placed from `a_uniform_at` on. The mixed ones follow, those of parallelepiped
// pairs (`projection_leftovers` of them) first: `mixed_start` and `mixed_end` bound each kind's
// region, index 1 the parallelepipeds'.
static void place_leftovers(mf_bins *bins, uint32_t groups, uint32_t classes, uint32_t width, uint32_t a_uniform_at,
                            uint32_t projection_leftovers, uint32_t mixed_start[2], uint32_t mixed_end[2])
{
    for (uint32_t c = 0; c < classes; ++c) bins->class_count[c] = 0;
    for (uint32_t rank = 0; rank < groups; ++rank) {
        uint32_t g = bins->group_by_cost[rank];
        bins->group_a_at[g] = bins->class_count[bins->group_class[g]]; // the group's rank in its class
        if (!bins->group_projection[g]) bins->class_count[bins->group_class[g]] += bins->group_count[g] % width;
    }
    for (uint32_t c = 0; c < classes; ++c) {
        bins->class_at[c] = a_uniform_at;
        bins->class_count[c] = bins->class_count[c] / width * width; // now the a-uniform count
        a_uniform_at += bins->class_count[c];
    }
    mixed_start[1] = mixed_end[1] = a_uniform_at;
    mixed_start[0] = mixed_end[0] = a_uniform_at + projection_leftovers;
    for (uint32_t rank = 0; rank < groups; ++rank) {
        uint32_t g = bins->group_by_cost[rank], c = bins->group_class[g];
        uint32_t projection = bins->group_projection[g], left = bins->group_count[g] % width;
        uint32_t group_rank = bins->group_a_at[g], class_uniform = bins->class_count[c];
        uint32_t a_uniform = projection || group_rank >= class_uniform ? 0 : class_uniform - group_rank;
        bins->group_a_count[g] = a_uniform < left ? a_uniform : left;
        bins->group_a_at[g] = bins->class_at[c] + group_rank;
        bins->group_mixed_at[g] = mixed_end[projection];
        mixed_end[projection] += left - bins->group_a_count[g];
    }
}

// Where the p-th pair of group g goes in the order: the group's uniform bundles, then its a-uniform
// lanes, then its mixed ones.
static inline uint32_t placed_at(const mf_bins *bins, uint32_t g, uint32_t p, uint32_t width)
{
    uint32_t full = bins->group_count[g] / width * width;
    if (p < full) return bins->group_uniform_at[g] + p;
    uint32_t left = p - full, a_uniform = bins->group_a_count[g];
    return left < a_uniform ? bins->group_a_at[g] + left : bins->group_mixed_at[g] + left - a_uniform;
}

void mf_bin_pairs(const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs, const uint32_t *subset,
                  uint32_t count, uint32_t width, mf_bins *bins)
{
    const uint32_t empty = UINT32_MAX;
    memset(bins->slot_group, 0xff, sizeof(bins->slot_group));
    memset(bins->class_slot, 0xff, sizeof(bins->class_slot));
    uint32_t groups = 0, classes = 0;
    // The per-pair path's pairs, box-hull ones first: pairs with a large hull wait in `order` (room
    // until the bundles are placed, below) and follow the box-hull ones once all are binned. Each
    // kind then runs together, whose code and branches differ from the other's (interleaved as
    // they came, pile_step ran 1.4% slower).
    uint32_t box_hull_count = 0, large_count = 0;

    // Group the pairs by their shape pair, and the groups by shape a into classes (only hull pairs'
    // leftovers use them: not two parallelepipeds), with open-addressing tables.
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t pair = subset != NULL ? subset[i] : i;
        uint32_t shape_a = bodies->shape[pairs[pair].a], shape_b = bodies->shape[pairs[pair].b];
        int box_hull = mf_is_box_hull_pair(&bank->shapes[shape_a], &bank->shapes[shape_b]);
        if (box_hull || !in_bundles(bank, shape_a) || !in_bundles(bank, shape_b)) {
            if (box_hull) bins->scalar[box_hull_count++] = pair;
            else bins->order[large_count++] = pair;
            bins->pair_group[i] = empty;
            continue;
        }
        uint64_t key = (uint64_t)shape_a << 32 | shape_b;
        uint32_t slot = find_slot(bins->slot_key, bins->slot_group, key);
        if (bins->slot_group[slot] == empty) {
            const mf_shape *a = &bank->shapes[shape_a], *b = &bank->shapes[shape_b];
            bins->slot_key[slot] = key;
            bins->slot_group[slot] = groups;
            bins->group_count[groups] = 0;
            bins->group_placed[groups] = 0;
            bins->group_projection[groups] = a->parallelepiped && b->parallelepiped;
            uint32_t cost = a->face_count * b->vertex_count + b->face_count * a->vertex_count;
            bins->group_cost[groups] = (uint16_t)(cost < UINT16_MAX ? cost : UINT16_MAX);
            uint32_t class_slot = find_slot(bins->class_key, bins->class_slot, shape_a);
            if (bins->class_slot[class_slot] == empty) {
                bins->class_key[class_slot] = shape_a;
                bins->class_slot[class_slot] = classes++;
            }
            bins->group_class[groups] = bins->class_slot[class_slot];
            ++groups;
        }
        uint32_t g = bins->slot_group[slot];
        bins->pair_group[i] = g;
        ++bins->group_count[g];
    }
    MF_ASSERT(box_hull_count + large_count <= count && count <= MF_CHUNK_PAIRS);
    memcpy(bins->scalar + box_hull_count, bins->order, large_count * sizeof(uint32_t));
    bins->scalar_count = box_hull_count + large_count;

    // Full bundles of each group first (uniform, one bundle per W pairs). The leftovers of the hull
    // groups then fill bundles of one shape a (a-uniform: in a chunk of many shape pairs, as a pool
    // of rocks makes, few groups fill a bundle, but a shape meets many others). The rest go in
    // mixed bundles, those of parallelepiped pairs apart from the others because their edge query
    // differs.
    uint32_t uniform_total = 0, projection_leftovers = 0;
    for (uint32_t g = 0; g < groups; ++g) {
        bins->group_uniform_at[g] = uniform_total;
        uniform_total += bins->group_count[g] / width * width;
        if (bins->group_projection[g]) projection_leftovers += bins->group_count[g] % width;
    }
    sort_by_cost(bins->group_cost, groups, bins->group_sort_scratch, bins->group_by_cost);
    uint32_t mixed_start[2], mixed_end[2];
    place_leftovers(bins, groups, classes, width, uniform_total, projection_leftovers, mixed_start, mixed_end);

    for (uint32_t i = 0; i < count; ++i) {
        uint32_t g = bins->pair_group[i];
        if (g == empty) continue;
        bins->order[placed_at(bins, g, bins->group_placed[g]++, width)] = subset != NULL ? subset[i] : i;
    }

    bins->bundle_count = 0;
    for (uint32_t g = 0; g < groups; ++g) {
        uint32_t full = bins->group_count[g] / width * width, at = bins->group_uniform_at[g];
        cut_bundles(bins, at, at + full, width, MF_BUNDLE_UNIFORM, bins->group_projection[g]);
    }
    for (uint32_t c = 0; c < classes; ++c)
        cut_bundles(bins, bins->class_at[c], bins->class_at[c] + bins->class_count[c], width, MF_BUNDLE_UNIFORM_A, 0);
    cut_bundles(bins, mixed_start[1], mixed_end[1], width, MF_BUNDLE_MIXED, 1);
    cut_bundles(bins, mixed_start[0], mixed_end[0], width, MF_BUNDLE_MIXED, 0);
}

// Rows [0, count) of one component into four lanes of a bundle table (`out`: the first of them in
// the component's first row), from the lanes' images at `at`: four rows at a time, each lane's
// four values loaded as one vector and the block transposed so that each row's four lanes store
// as one. The images are padded to the bundle limits, so no lane needs its own count; the rows a
// block writes past `count` belong to the next component, written after this one.
static void copy_component(float *out, uint32_t width, const float *const image[4], uint32_t at, uint32_t count)
{
    for (uint32_t r = 0; r < count; r += 4) {
        simde__m128 v0 = simde_mm_loadu_ps(image[0] + at + r), v1 = simde_mm_loadu_ps(image[1] + at + r);
        simde__m128 v2 = simde_mm_loadu_ps(image[2] + at + r), v3 = simde_mm_loadu_ps(image[3] + at + r);
        SIMDE_MM_TRANSPOSE4_PS(v0, v1, v2, v3);
        float *row = out + (size_t)r * width;
        simde_mm_storeu_ps(row, v0);
        simde_mm_storeu_ps(row + width, v1);
        simde_mm_storeu_ps(row + 2 * width, v2);
        simde_mm_storeu_ps(row + 3 * width, v3);
    }
}

// Lanes l0 .. l0 + 3 of a bundle table laid out for `counts`, each from its shape's image.
// Parallelepipeds' edge directions only where the bundle projects onto them.
static void fill_lanes(float *table, uint32_t width, uint32_t l0, mf_rows counts, const mf_bank *bank,
                       const uint32_t *shapes, int projection)
{
    const float *image[4];
    for (int k = 0; k < 4; ++k) image[k] = bank->rows + bank->shapes[shapes[l0 + (uint32_t)k]].image_first;
    float *lanes = table + l0;
    for (uint32_t c = 0; c < 3; ++c)
        copy_component(lanes + (size_t)mf_row_vertex(counts, c, 0) * width, width, image, mf_image_vertex(c),
                       counts.vertices);
    for (uint32_t c = 0; c < 4; ++c)
        copy_component(lanes + (size_t)mf_row_face(counts, c, 0) * width, width, image, mf_image_face(c), counts.faces);
    if (projection)
        copy_component(lanes + (size_t)mf_row_direction(counts, 0, 0) * width, width, image, mf_image_directions(),
                       MF_DIRECTION_ROWS);
}

static mf_rows shape_rows(const mf_bank *bank, uint32_t shape)
{
    const mf_shape *s = &bank->shapes[shape];
    return (mf_rows){s->vertex_count, s->face_count};
}

static mf_bundle_hull assemble_hull(const mf_bank *bank, const uint32_t *shapes, uint32_t width, int uniform,
                                    int projection, float *table)
{
    if (uniform) {
        const mf_shape *s = &bank->shapes[shapes[0]];
        return (mf_bundle_hull){bank->rows + s->rows_first, 1, shape_rows(bank, shapes[0])};
    }
    mf_rows counts = {0, 0};
    for (uint32_t l = 0; l < width; ++l) {
        mf_rows own = shape_rows(bank, shapes[l]);
        if (own.vertices > counts.vertices) counts.vertices = own.vertices;
        if (own.faces > counts.faces) counts.faces = own.faces;
    }
    MF_ASSERT(width % 4 == 0);
    for (uint32_t l = 0; l < width; l += 4) fill_lanes(table, width, l, counts, bank, shapes, projection);
    return (mf_bundle_hull){table, 0, counts};
}

mf_bundle mf_bundle_assemble(const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs, const mf_bins *bins,
                             const mf_bundle_plan *plan, uint32_t width, mf_bundle_tables *tables)
{
    uint32_t shapes_a[MF_WIDE_MAX_WIDTH], shapes_b[MF_WIDE_MAX_WIDTH];
    int scaled = 0;
    for (uint32_t l0 = 0; l0 < width; l0 += 4) {
        // Four lanes at a time, each body's quaternion and position loaded as vectors (a position
        // with q.x after it) and transposed into the rows, as the box path gathers.
        simde__m128 q[2][4], p[2][4];
        for (uint32_t k = 0; k < 4; ++k) {
            uint32_t l = l0 + k;
            const mf_pair *pair = &pairs[bins->order[plan->first + (l < plan->lanes ? l : 0)]];
            shapes_a[l] = bodies->shape[pair->a];
            shapes_b[l] = bodies->shape[pair->b];
            const uint32_t body[2] = {pair->a, pair->b};
            for (int h = 0; h < 2; ++h) {
                mf_transform_load4(&bodies->transform[body[h]], &p[h][k], &q[h][k]);
                float scale = mf_body_scale(bodies, body[h]);
                tables->pose[(size_t)(h == 0 ? MF_POSE_SCALE_A : MF_POSE_SCALE_B) * width + l] = scale;
                scaled |= scale != 1.0f;
            }
        }
        for (int h = 0; h < 2; ++h) {
            SIMDE_MM_TRANSPOSE4_PS(q[h][0], q[h][1], q[h][2], q[h][3]);
            SIMDE_MM_TRANSPOSE4_PS(p[h][0], p[h][1], p[h][2], p[h][3]);
            float *rows = tables->pose + (size_t)(7 * h) * width + l0;
            for (int i = 0; i < 4; ++i) simde_mm_storeu_ps(rows + (size_t)i * width, q[h][i]);
            for (int i = 0; i < 3; ++i) simde_mm_storeu_ps(rows + (size_t)(4 + i) * width, p[h][i]);
        }
    }
    int projection = (int)plan->projection;
    int uniform_a = plan->kind != MF_BUNDLE_MIXED, uniform_b = plan->kind == MF_BUNDLE_UNIFORM;
    return (mf_bundle){assemble_hull(bank, shapes_a, width, uniform_a, projection, tables->a),
                       assemble_hull(bank, shapes_b, width, uniform_b, projection, tables->b), tables->pose,
                       (int)plan->projection, scaled};
}
