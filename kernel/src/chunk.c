// One chunk of pairs on one worker: cache answers, the box path, bundles of small hulls (the wide
// pass), and the per-pair path for larger hulls (bin.h).
#include "chunk.h"

#include "box_pass.h"
#include "cache.h"
#include "fault.h"
#include "pair.h"
#include "reuse_pass.h"

#include <assert.h>

// The clip pass's frame for one lane of a bundle, from what the wide pass computed: the same
// values the scalar setup would produce, without computing them again. With `for_edges`, also room
// for b's normals and edge directions in a's frame, which the edge query fills (mf_rotate_b_edges).
// Scaled bodies read their shapes' scaled copies (scale.h), as mf_frame_setup's do.
static mf_pair_frame frame_from_bundle(const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                                       const mf_wide_scratch *wide, uint32_t lane, uint32_t b_rows, int for_edges,
                                       mf_pair_scratch *scratch)
{
    const mf_hull_view *a = mf_body_hull(bank, bodies, pair.a, &scratch->scaled[0]);
    const mf_hull_view *b = mf_body_hull(bank, bodies, pair.b, &scratch->scaled[1]);
    mf_pair_frame frame = {.a = a, .b = b, .b_vertices = scratch->b_vertices};
    frame.rotation = wide->axes.rotation[lane];
    frame.translation = wide->axes.translation[lane];
    uint32_t width = wide->width;
    const float *x = wide->work + lane, *y = x + b_rows * width, *z = y + b_rows * width;
    for (uint32_t v = 0; v < b->vertex_count; ++v)
        scratch->b_vertices[v] = (mf_vec3){x[v * width], y[v * width], z[v * width]};
    if (for_edges) {
        frame.b_normal_rows = scratch->b_normal_rows;
        frame.b_direction_rows = scratch->b_direction_rows;
    }
    return frame;
}

// Runs the bundles of `bins` through the wide pass (face queries; edge-direction axes of
// parallelepipeds), runs the edge query of each lane that lives on (all pairs in lanes across a's
// edges, or the Gauss-map walk for larger hulls: mf_edge_query_walks), and clips the touching ones.
static void collide_bundles(const mf_context *context, mf_worker *worker, const mf_bank *bank, const mf_bodies *bodies,
                            const mf_pair *pairs, mf_pair_result *results)
{
    mf_wide_scratch *wide = worker->wide;
    const mf_config *config = &context->config;
    const mf_bins *bins = &wide->bins;
    for (uint32_t k = 0; k < bins->bundle_count; ++k) {
        const mf_bundle_plan *plan = &bins->bundles[k];
        mf_bundle bundle = mf_bundle_assemble(bank, bodies, pairs, bins, plan, wide->width, &wide->tables);
        context->kernel.axes(&bundle, config->margin, wide->work, &wide->axes);
        for (uint32_t l = 0; l < plan->lanes; ++l) {
            uint32_t p = bins->order[plan->first + l];
            mf_pair_result *result = &results[p];
            mf_pair pair = pairs[p];
            // The radii at the bodies' scales, as their scaled copies hold them (scale.h).
            float radius_a = bank->shapes[bodies->shape[pair.a]].radius * mf_body_scale(bodies, pair.a);
            float radius_b = bank->shapes[bodies->shape[pair.b]].radius * mf_body_scale(bodies, pair.b);
            mf_axis_candidates candidates = {wide->axes.face_a[l], wide->axes.face_b[l], wide->axes.edge[l],
                                             bundle.projection, radius_a + radius_b};
            result->count = 0;
            // The bundle's padding (sentinel rows) never wins a query.
            assert(candidates.face_a.face < bank->shapes[bodies->shape[pair.a]].face_count);
            assert(candidates.face_b.face < bank->shapes[bodies->shape[pair.b]].face_count);
            mf_pair_frame frame;
            int alive = candidates.face_a.separation < config->margin && candidates.face_b.separation < config->margin;
            int have_frame = alive && !candidates.projection;
            if (have_frame) { // as mf_query_pair: the edge query, measured where it decides
                frame = frame_from_bundle(bank, bodies, pair, wide, l, bundle.b.counts.vertices, 1, worker->scratch);
                mf_query_scratch query = mf_query_scratch_of(worker->scratch);
                mf_query_edges_of_pair(&frame, config->linear_slop, &context->kernel.edge, &query, &candidates);
            }
            if (!mf_is_touching(&candidates, config->margin)) {
                if (worker->caching) mf_cache_store(config, bank, result->cache, bodies, pair, &candidates, NULL, NULL);
                continue;
            }
            if (!have_frame)
                frame = frame_from_bundle(bank, bodies, pair, wide, l, bundle.b.counts.vertices, 0, worker->scratch);
            mf_axis used, kept;
            int has_kept = mf_cache_kept_axis(result->previous, bank, bodies, pair, &kept);
            mf_contacts_for_pair(config, &frame, &candidates, has_kept ? &kept : NULL, &wide->axes.rotation_a[l],
                                 bodies->transform[pair.a].p, result, &used);
            if (worker->caching) mf_cache_store(config, bank, result->cache, bodies, pair, &candidates, &used, result);
        }
    }
}

// The per-pair path for one pair of the chunk (pair.c, with the ISA's lanes), cache entry included.
static void collide_pair(const mf_context *context, mf_worker *worker, const mf_bank *bank, const mf_bodies *bodies,
                         mf_pair pair, mf_pair_result *result)
{
    mf_axis_candidates candidates;
    mf_axis used;
    mf_collide_pair(&context->config, &context->kernel, worker->scratch, bank, bodies, pair, result, &candidates,
                    &used);
    if (worker->caching)
        mf_cache_store(&context->config, bank, result->cache, bodies, pair, &candidates,
                       result->count > 0 ? &used : NULL, result);
}

// The wide pass over the pairs listed in `subset`: bin, query bundle by bundle, clip touching
// lanes. Pairs with a hull beyond the bundles' limits (MF_BUNDLE_MAX_VERTICES, rows.h) take the per-pair
// path, which computes the same.
static void collide_wide(const mf_context *context, mf_worker *worker, const mf_bank *bank, const mf_bodies *bodies,
                         const mf_pair *pairs, const uint32_t *subset, uint32_t count, mf_pair_result *results)
{
    mf_wide_scratch *wide = worker->wide;
    wide->width = context->kernel.width;
    mf_bins *bins = &wide->bins;
    mf_bin_pairs(bank, bodies, pairs, subset, count, wide->width, bins);
    for (uint32_t i = 0; i < bins->scalar_count; ++i) {
        uint32_t p = bins->scalar[i];
        collide_pair(context, worker, bank, bodies, pairs[p], &results[p]);
    }
    collide_bundles(context, worker, bank, bodies, pairs, results);
}

static int is_box_pair(const mf_bank *bank, const mf_bodies *bodies, mf_pair pair)
{
    return bank->shapes[bodies->shape[pair.a]].box && bank->shapes[bodies->shape[pair.b]].box;
}

// A body parked far away is apart from everything (manyfold.h), and no query may see the distance:
// its square, or the difference itself, can overflow float.
static int is_parked_apart(const mf_bodies *bodies, mf_pair pair)
{
    mf_vec3 d = mf_sub(bodies->transform[pair.b].p, bodies->transform[pair.a].p);
    return !(fabsf(d.x) < MF_PARKED_DISTANCE && fabsf(d.y) < MF_PARKED_DISTANCE && fabsf(d.z) < MF_PARKED_DISTANCE);
}

// Where a cached pair not reused goes: answered by its cache entry, or listed for the box path or
// the search.
static void route_cached_pair(const mf_context *context, mf_worker *worker, const mf_bank *bank,
                              const mf_bodies *bodies, const mf_pair *pairs, uint32_t i, const mf_pair_cache *cache,
                              mf_pair_result *results, uint32_t *box_count, uint32_t *miss_count)
{
    if (mf_cache_answer(&context->config, worker->scratch, bank, bodies, pairs[i], &cache[i], &results[i])) return;
    if (is_box_pair(bank, bodies, pairs[i])) worker->boxes[(*box_count)++] = i;
    else worker->misses[(*miss_count)++] = i;
}

static void collide_in_order(const mf_context *context, mf_worker *worker, const mf_bank *bank, const mf_bodies *bodies,
                             const mf_pair *pairs, uint32_t count, const mf_pair_cache *cache, mf_pair_result *results)
{
    worker->caching = cache != NULL;
    // Kept manifolds are reused where the bounds allow (in lanes); the cache answers what else it
    // can; box pairs take the box path, the rest the search.
    uint32_t *misses = worker->misses, miss_count = 0, box_count = 0, reusable_count = 0;
    // Without a cache, the tests inline in one loop (a call per pair cost more than the tests); a
    // near miss proven by the centres' axis needs no query. With one, near misses are the entries'.
    for (uint32_t i = 0; cache == NULL && i < count; ++i) {
        if (is_parked_apart(bodies, pairs[i])) results[i].count = 0;
        else if (is_box_pair(bank, bodies, pairs[i])) worker->boxes[box_count++] = i;
        else if (mf_apart_along_centres(bank, bodies, pairs[i], context->config.margin)) results[i].count = 0;
        else misses[miss_count++] = i;
    }
    for (uint32_t i = 0; cache != NULL && i < count; ++i) {
        if (is_parked_apart(bodies, pairs[i])) {
            results[i].count = 0;
            *results[i].cache = (mf_pair_cache){0}; // empty: the next call searches afresh
        } else if (mf_cache_keeps_manifold(&context->config, bank, bodies, pairs[i], &cache[i])) {
            worker->reusable[reusable_count++] = i;
        } else {
            route_cached_pair(context, worker, bank, bodies, pairs, i, cache, results, &box_count, &miss_count);
        }
    }
    if (reusable_count > 0) {
        // The missed pairs are listed in place of the reusable ones (never ahead of the reading).
        mf_reuse_job job = {&context->config, bank,    bodies,           pairs, cache, worker->reusable,
                            reusable_count,   results, worker->reusable, 0};
        context->kernel.reuse(&job);
        for (uint32_t k = 0; k < job.missed_count; ++k)
            route_cached_pair(context, worker, bank, bodies, pairs, worker->reusable[k], cache, results, &box_count,
                              &miss_count);
    }
    if (box_count > 0) {
        mf_box_job job = {&context->config, bank,    bodies,           pairs, worker->boxes, box_count,
                          worker->caching,  results, worker->fallback, 0};
        context->kernel.boxes(&job);
        for (uint32_t k = 0; k < job.fallback_count; ++k) {
            uint32_t p = job.fallback[k];
            collide_pair(context, worker, bank, bodies, pairs[p], &results[p]);
        }
    }
    if (worker->wide != NULL) {
        collide_wide(context, worker, bank, bodies, pairs, miss_count == count ? NULL : misses, miss_count, results);
        return;
    }
    for (uint32_t k = 0; k < miss_count; ++k)
        collide_pair(context, worker, bank, bodies, pairs[misses[k]], &results[misses[k]]);
}

// The manifold of (b, a) from that of (a, b): the normal turns round and each id's halves trade
// places; the points, midway between the surfaces, stay.
static void mirror(mf_pair_result *result)
{
    result->normal = mf_neg(result->normal);
    for (uint32_t k = 0; k < result->count; ++k) {
        uint32_t id = result->contacts[k].id;
        result->contacts[k].id = id << 16 | id >> 16;
    }
}

void mf_collide_chunk(const mf_context *context, mf_worker *worker, const mf_bank *bank, const mf_bodies *bodies,
                      const mf_pair *pairs, uint32_t count, const mf_pair_cache *cache, mf_pair_cache *in_place,
                      mf_pair_result *results)
{
    for (uint32_t i = 0; i < count; ++i) {
        results[i].cache = in_place != NULL ? &in_place[i] : &worker->entries[i];
        results[i].previous = cache != NULL ? &cache[i] : NULL;
    }
    // Every pair is collided in one order, the lower body index as a, and mirrored where it came
    // the other way round: the order a broad phase emits pairs in changes nothing but the mirror.
    uint32_t swapped = 0;
    for (uint32_t i = 0; i < count; ++i) swapped += pairs[i].a > pairs[i].b;
    if (swapped == 0) {
        collide_in_order(context, worker, bank, bodies, pairs, count, cache, results);
        return;
    }
    for (uint32_t i = 0; i < count; ++i)
        worker->canonical[i] = pairs[i].a > pairs[i].b ? (mf_pair){pairs[i].b, pairs[i].a} : pairs[i];
    collide_in_order(context, worker, bank, bodies, worker->canonical, count, cache, results);
    for (uint32_t i = 0; i < count; ++i)
        if (pairs[i].a > pairs[i].b) mirror(&results[i]);
}

// A pair's manifold does not depend on the pairs beside it in its chunk (the output is the same
// for every chunking: thread counts split calls differently), so the runs between invalid pairs
// are collided as chunks of their own. Only a chunk that holds an invalid pair pays for this.
uint32_t mf_collide_chunk_skipping(const mf_context *context, mf_worker *worker, const mf_bank *bank,
                                   const mf_bodies *bodies, const mf_pair *pairs, uint32_t count,
                                   const mf_pair_cache *cache, mf_pair_cache *in_place, mf_pair_result *results)
{
    uint32_t first_bad = mf_first_invalid_pair(bank, bodies, pairs, 0, count);
    if (first_bad == count) {
        mf_collide_chunk(context, worker, bank, bodies, pairs, count, cache, in_place, results);
        return count;
    }
    // Where the new entries go, by the chunk's pair index (mf_collide_chunk's choice, made here
    // for the whole chunk so that the runs do not share the worker's first entries).
    mf_pair_cache *entries = in_place != NULL ? in_place : cache != NULL ? worker->entries : NULL;
    uint32_t start = 0;
    for (uint32_t i = first_bad; i <= count; i = mf_first_invalid_pair(bank, bodies, pairs, i + 1, count)) {
        if (i > start)
            mf_collide_chunk(context, worker, bank, bodies, pairs + start, i - start,
                             cache != NULL ? cache + start : NULL, entries != NULL ? entries + start : NULL,
                             results + start);
        if (i == count) break;
        results[i].count = 0;
        results[i].previous = NULL;
        results[i].cache = entries != NULL ? &entries[i] : NULL;
        if (entries != NULL) entries[i] = (mf_pair_cache){0};
        start = i + 1;
    }
    return first_bad;
}
