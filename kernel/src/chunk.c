// One chunk of pairs on one worker: the router. It asks the cache what it knows of each pair
// (cache.h), sends the pair down the first path that answers it (the kept manifold reused, the
// cache's re-test of the kept axis, the box path, bundles of small hulls for the wide pass, the
// per-pair path for larger hulls: bin.h), handing the stages the kept axis and normal, and once they
// are done has the cache write the chunk's new entries from their answers, in one pass.
#include "chunk.h"

#include "box_pass.h"
#include "cache.h"
#include "core.h"
#include "dispatch.h"
#include "fault.h"
#include "pair.h"
#include "reuse_pass.h"

// One chunk as its routes see it.
typedef struct chunk_call {
    const mf_context *context;
    const mf_config *config;
    mf_worker *worker;
    const mf_bank *bank;
    const mf_bodies *bodies;
    const mf_pair *pairs;       // lower body index first
    const mf_pair_cache *cache; // the pairs' entries as the call found them; NULL without a cache
    mf_pair_result *results;
    mf_pair_answer *answers; // the worker's, with a cache; else NULL
    int check;               // the pairs were not checked before the call: checked as routed
} chunk_call;

// b's moved vertices, as the wide pass leaves them in its work rows (component c of vertex v in
// lane l at (c * count + v) * width + l), into each lane's rows (wide->lane_rows): four vertices of
// four lanes at a time, transposed, for every lane at once (a lane's own copy, vertex by vertex,
// was 2% of hull16's instructions). The last four vertices may run up to three rows past the
// count, into the next rows of the work (a's vertices follow b's), which no reader of the lane's
// rows reaches.
static void lanes_to_rows(mf_wide_scratch *wide, uint32_t count)
{
    uint32_t width = wide->width;
    MF_ASSERT(count <= MF_BUNDLE_MAX_VERTICES && width % 4 == 0);
    for (uint32_t c = 0; c < 3; ++c) {
        for (uint32_t v = 0; v < count; v += 4) {
            const float *at = wide->work + ((size_t)c * count + v) * width;
            for (uint32_t l = 0; l < width; l += 4) {
                simde__m128 v0 = simde_mm_loadu_ps(at + l), v1 = simde_mm_loadu_ps(at + width + l);
                simde__m128 v2 = simde_mm_loadu_ps(at + 2 * width + l), v3 = simde_mm_loadu_ps(at + 3 * width + l);
                SIMDE_MM_TRANSPOSE4_PS(v0, v1, v2, v3); // now lane l + k's vertices v .. v + 3 in vk
                float *row = wide->lane_rows + ((size_t)l * 3 + c) * MF_BUNDLE_MAX_VERTICES + v;
                simde_mm_storeu_ps(row, v0);
                simde_mm_storeu_ps(row + 3 * MF_BUNDLE_MAX_VERTICES, v1);
                simde_mm_storeu_ps(row + 6 * MF_BUNDLE_MAX_VERTICES, v2);
                simde_mm_storeu_ps(row + 9 * MF_BUNDLE_MAX_VERTICES, v3);
            }
        }
    }
}

// The clip pass's frame for one lane of a bundle, from what the wide pass computed: the same
// values the scalar setup would produce, without computing them again; b's moved vertices as rows
// (mf_pair_frame), from the lane's (lanes_to_rows). With `for_edges`, also room for b's normals and
// edge directions in a's frame, which the edge query fills (mf_rotate_b_edges). Scaled bodies read
// their shapes' scaled copies (scale.h), as mf_frame_setup's do.
static void frame_from_bundle(const mf_bank *bank, const mf_bodies *bodies, mf_pair pair, const mf_wide_scratch *wide,
                              uint32_t lane, int for_edges, const mf_extent_kernel *extent, mf_pair_scratch *scratch,
                              mf_pair_frame *frame)
{
    // Written in place: a frame built aside and copied is read back in wider moves than it was
    // stored in, which stalls the store forwarding, once per lane.
    const mf_hull_view *a = mf_body_hull(bank, bodies, pair.a, &scratch->scaled[0]);
    const mf_hull_view *b = mf_body_hull(bank, bodies, pair.b, &scratch->scaled[1]);
    mf_frame_start(frame, a, b, NULL, extent);
    frame->rotation = wide->axes.rotation[lane];
    frame->translation = wide->axes.translation[lane];
    // Whole rows, whatever the count (the frame's have room): a fixed copy, no loop.
    _Static_assert(MF_BUNDLE_MAX_VERTICES % 4 == 0 && MF_VERTEX_ROWS_STRIDE >= MF_BUNDLE_MAX_VERTICES, "whole rows");
    MF_ASSERT(b->vertex_count <= MF_BUNDLE_MAX_VERTICES);
    const float *rows = wide->lane_rows + (size_t)lane * 3 * MF_BUNDLE_MAX_VERTICES;
    for (uint32_t c = 0; c < 3; ++c)
        for (uint32_t v = 0; v < MF_BUNDLE_MAX_VERTICES; v += 4)
            simde_mm_storeu_ps(scratch->b_vertex_rows + (size_t)c * MF_VERTEX_ROWS_STRIDE + v,
                               simde_mm_loadu_ps(rows + (size_t)c * MF_BUNDLE_MAX_VERTICES + v));
    frame->b_vertex_rows = scratch->b_vertex_rows;
    if (for_edges) {
        frame->b_normal_rows = scratch->b_normal_rows;
        frame->b_direction_rows = scratch->b_direction_rows;
    }
}

// What the cache keeps of a pair for the search (pair.h): the axis and normal of the entry's kept
// manifold, where it keeps one.
typedef struct kept_manifold {
    int kept;
    mf_axis axis;
    mf_vec3 normal;
} kept_manifold;

static kept_manifold kept_of(const chunk_call *call, uint32_t p)
{
    kept_manifold k = {.kept = 0};
    k.kept = call->cache != NULL &&
             mf_cache_kept_axis(&call->cache[p], call->bank, call->bodies, call->pairs[p], &k.axis, &k.normal);
    return k;
}

// The per-pair path for pair p of the chunk (pair.c, with the ISA's lanes).
static void collide_pair(const chunk_call *call, uint32_t p)
{
    mf_axis_candidates candidates;
    mf_axis used;
    mf_pair_result *result = &call->results[p];
    kept_manifold kept = kept_of(call, p);
    mf_collide_pair(call->config, call->context->kernel, call->worker->scratch, call->bank, call->bodies,
                    call->pairs[p], kept.kept ? &kept.axis : NULL, kept.kept ? &kept.normal : NULL, result, &candidates,
                    &used);
    if (call->answers != NULL) call->answers[p] = mf_searched_answer(&candidates, result->count > 0 ? &used : NULL);
}

// Runs the bundles of `bins` through the wide pass (face queries; edge-direction axes of
// parallelepipeds), runs the edge query of each lane that lives on (all pairs in lanes across a's
// edges, or the Gauss-map walk for larger hulls: mf_edge_query_walks), and clips the touching ones.
static void collide_bundles(const chunk_call *call)
{
    const mf_bank *bank = call->bank;
    const mf_bodies *bodies = call->bodies;
    const mf_config *config = call->config;
    mf_worker *worker = call->worker;
    mf_wide_scratch *wide = worker->wide;
    const mf_bins *bins = &wide->bins;
    const mf_query_scratch query = mf_query_scratch_of(worker->scratch);
    for (uint32_t k = 0; k < bins->bundle_count; ++k) {
        const mf_bundle_plan *plan = &bins->bundles[k];
        mf_bundle bundle = mf_bundle_assemble(bank, bodies, call->pairs, bins, plan, wide->width, &wide->tables);
        call->context->kernel->axes(&bundle, config->margin, wide->work, &wide->axes);
        int lanes_have_rows = 0; // transposed once, for the first lane that needs a frame
        for (uint32_t l = 0; l < plan->lanes; ++l) {
            uint32_t p = bins->order[plan->first + l];
            mf_pair_result *result = &call->results[p];
            mf_pair pair = call->pairs[p];
            // The radii at the bodies' scales, as their scaled copies hold them (scale.h).
            float radius_a = bank->shapes[bodies->shape[pair.a]].radius * mf_body_scale(bodies, pair.a);
            float radius_b = bank->shapes[bodies->shape[pair.b]].radius * mf_body_scale(bodies, pair.b);
            mf_axis_candidates candidates = {wide->axes.face_a[l], wide->axes.face_b[l], wide->axes.edge[l],
                                             bundle.projection, radius_a + radius_b};
            result->count = 0;
            // The bundle's padding (sentinel rows) never wins a query.
            MF_ASSERT(candidates.face_a.face < bank->shapes[bodies->shape[pair.a]].face_count);
            MF_ASSERT(candidates.face_b.face < bank->shapes[bodies->shape[pair.b]].face_count);
            mf_pair_frame frame;
            int alive = candidates.face_a.separation < config->margin && candidates.face_b.separation < config->margin;
            int have_frame = alive && !candidates.projection;
            if (alive && !lanes_have_rows) {
                lanes_to_rows(wide, bundle.b.counts.vertices);
                lanes_have_rows = 1;
            }
            if (have_frame) { // as mf_query_pair: the edge query, measured where it decides
                frame_from_bundle(bank, bodies, pair, wide, l, 1, &call->context->kernel->extent, worker->scratch,
                                  &frame);
                mf_query_edges_of_pair(&frame, config->linear_slop, &call->context->kernel->edge, &query, &candidates);
            }
            if (!mf_is_touching(&candidates, config->margin)) {
                // The cache keeps the axis that proved the pair apart. The per-pair path (every
                // pair of the scalar path) stops at the first face past the margin, where the wide
                // pass measures every face: the entry takes the per-pair path's answer, so that it
                // is the same bytes on every ISA.
                if (call->answers != NULL) collide_pair(call, p);
                continue;
            }
            if (!have_frame)
                frame_from_bundle(bank, bodies, pair, wide, l, 0, &call->context->kernel->extent, worker->scratch,
                                  &frame);
            mf_axis used;
            kept_manifold kept = kept_of(call, p);
            mf_contacts_for_pair(config, &frame, &candidates, kept.kept ? &kept.axis : NULL,
                                 kept.kept ? &kept.normal : NULL, &wide->axes.rotation_a[l],
                                 bodies->transform[pair.a].p, result, &used);
            // As collide_pair: a pair the clip left without contacts keeps the axis that separates
            // most, not the one it tried last.
            if (call->answers != NULL)
                call->answers[p] = mf_searched_answer(&candidates, result->count > 0 ? &used : NULL);
        }
    }
}

// The wide pass over the pairs listed in `subset`: bin, query bundle by bundle, clip touching
// lanes. Pairs with a hull beyond the bundles' limits (MF_BUNDLE_MAX_VERTICES, rows.h) take the per-pair
// path, which computes the same.
static void collide_wide(const chunk_call *call, const uint32_t *subset, uint32_t count)
{
    mf_wide_scratch *wide = call->worker->wide;
    wide->width = call->context->kernel->width;
    mf_bins *bins = &wide->bins;
    mf_bin_pairs(call->bank, call->bodies, call->pairs, subset, count, wide->width, bins);
    for (uint32_t i = 0; i < bins->scalar_count; ++i) collide_pair(call, bins->scalar[i]);
    collide_bundles(call);
}

static int is_box_pair(const mf_bank *bank, const mf_bodies *bodies, mf_pair pair)
{
    return bank->shapes[bodies->shape[pair.a]].box && bank->shapes[bodies->shape[pair.b]].box;
}

// A body parked far away is apart from everything (manyfold.h), and no query may see the distance:
// its square, or the difference itself, can overflow float. From the transforms' heads as
// mf_transform_load4 loads them (p, then q.x, which the test leaves out).
static int heads_parked_apart(simde__m128 head_a, simde__m128 head_b)
{
    simde__m128 magnitude = simde_mm_andnot_ps(simde_mm_set1_ps(-0.0f), simde_mm_sub_ps(head_b, head_a));
    int near = simde_mm_movemask_ps(simde_mm_cmplt_ps(magnitude, simde_mm_set1_ps(MF_PARKED_DISTANCE))) & 7;
    return near != 7;
}

static int is_parked_apart(const mf_bodies *bodies, mf_pair pair)
{
    simde__m128 head_a, q_a, head_b, q_b;
    mf_transform_load4(&bodies->transform[pair.a], &head_a, &q_a);
    mf_transform_load4(&bodies->transform[pair.b], &head_b, &q_b);
    return heads_parked_apart(head_a, head_b);
}

// The cache's answer for pair i, other than by reuse, where it has one: apart from the poses alone,
// or its kept axis measured again (sat.c) and, unless that settles it apart, clipped (pair.c) where
// it still serves and its contacts attain its separation. 1 with the result and the answer made;
// 0 when the pair needs the search.
static int answer_from_entry(const chunk_call *call, uint32_t i)
{
    const mf_config *config = call->config;
    mf_pair pair = call->pairs[i];
    mf_pair_result *result = &call->results[i];
    mf_pair_answer *answer = &call->answers[i];
    mf_cache_hint hint = mf_cache_recall(config, call->bank, call->bodies, pair, &call->cache[i], answer);
    if (hint == MF_CACHE_NOTHING) return 0;
    result->count = 0;
    if (hint == MF_CACHE_APART) return 1;
    mf_mat3 rotation_a;
    mf_pair_frame frame;
    mf_frame_setup(call->bank, call->bodies, pair, call->worker->scratch, 0, call->context->kernel, &rotation_a,
                   &frame);
    int projection = mf_uses_projection(frame.a, frame.b);
    if (!mf_measure_axis(&frame, projection, &answer->axis)) return 0;
    if (answer->axis.separation >= config->margin) { // still apart along the kept axis, hence apart
        answer->kind = MF_ANSWER_APART;
        return 1;
    }
    if (!mf_cache_axis_serves(config, answer)) return 0;
    // The kept axis is within the slop of the best: its contacts must attain its own separation.
    answer->scale = frame.a->shape->radius + frame.b->shape->radius;
    float allowance = mf_allowance(config->linear_slop, answer->scale, answer->axis.separation);
    mf_axis axis = answer->axis; // an edge axis of parallelepipeds gets resolved in place
    mf_contacts_of_axis(config, &frame, &axis, projection, axis.separation + allowance, &rotation_a,
                        call->bodies->transform[pair.a].p, result);
    answer->kind = MF_ANSWER_CLIPPED;
    return result->count > 0;
}

// Where a checked call's pair goes, decided in one read of each body: mf_pair_is_valid's checks
// (ROUTE_INVALID where one fails), then the parked test and the box test on what they read. The
// three tests one after another read each body's shape and transform twice. Both bodies are
// checked together, their transforms in one test (mf_loaded_transforms_are_valid; a check of a
// body at a time took a third more instructions; which body fails, mf_describe_fault tells).
enum { ROUTE_INVALID, ROUTE_PARKED, ROUTE_BOXES, ROUTE_OTHER };

static inline int route_of_checked_pair(const mf_bank *bank, const mf_bodies *bodies, mf_pair pair)
{
    uint32_t body_count = bodies->count;
    if (pair.a == pair.b || pair.a >= body_count || pair.b >= body_count) return ROUTE_INVALID;
    uint32_t shape_a = bodies->shape[pair.a], shape_b = bodies->shape[pair.b];
    if (!mf_bank_has_shape(bank, shape_a) || !mf_bank_has_shape(bank, shape_b)) return ROUTE_INVALID;
    const mf_shape *a = &bank->shapes[shape_a], *b = &bank->shapes[shape_b];
    if (bodies->scales != NULL &&
        !(mf_scale_fits(a, bodies->scales[pair.a]) && mf_scale_fits(b, bodies->scales[pair.b])))
        return ROUTE_INVALID;
    simde__m128 head_a, q_a, head_b, q_b;
    mf_transform_load4(&bodies->transform[pair.a], &head_a, &q_a);
    mf_transform_load4(&bodies->transform[pair.b], &head_b, &q_b);
    if (!mf_loaded_transforms_are_valid(head_a, q_a, head_b, q_b)) return ROUTE_INVALID;
    if (heads_parked_apart(head_a, head_b)) return ROUTE_PARKED;
    return a->box && b->box ? ROUTE_BOXES : ROUTE_OTHER;
}

// Where a cached pair not reused goes: answered by its cache entry, or listed for the box path or
// the search.
static void route_cached_pair(const chunk_call *call, uint32_t i, uint32_t *box_count, uint32_t *miss_count)
{
    mf_worker *worker = call->worker;
    if (answer_from_entry(call, i)) return;
    if (is_box_pair(call->bank, call->bodies, call->pairs[i])) worker->boxes[(*box_count)++] = i;
    else worker->misses[(*miss_count)++] = i;
}

// A pair that is neither a box pair nor parked: apart along the centres' axis (no contacts), or
// one more for the search. Without a branch on the test: about half of the pairs it measures are
// apart, at random, and each mispredicted branch threw away the next pairs' work begun meanwhile.
// The search writes a missed pair's result whole, so its count is cleared either way.
static inline void route_by_centres(const mf_context *context, const mf_bank *bank, const mf_bodies *bodies,
                                    mf_pair pair, uint32_t i, mf_pair_result *result, uint32_t *misses,
                                    uint32_t *miss_count)
{
    int apart = mf_apart_along_centres(&context->kernel->extent, bank, bodies, pair, context->config.margin);
    result->count = 0;
    misses[*miss_count] = i;
    *miss_count += (uint32_t)!apart;
}

// Returns count, or under `check` the first invalid pair (fault.h), before anything is collided.
static uint32_t collide_in_order(const chunk_call *call, uint32_t count)
{
    const mf_context *context = call->context;
    const mf_bank *bank = call->bank;
    const mf_bodies *bodies = call->bodies;
    const mf_pair *pairs = call->pairs;
    const mf_pair_cache *cache = call->cache;
    mf_worker *worker = call->worker;
    mf_pair_result *results = call->results;
    // Kept manifolds are reused where the bounds allow (in lanes); the cache answers what else it
    // can; box pairs take the box path, the rest the search.
    uint32_t *misses = worker->misses, miss_count = 0, box_count = 0, reusable_count = 0;
    // Without a cache, the tests inline in one loop (a call per pair cost more than the tests); a
    // near miss proven by the centres' axis needs no query. With one, near misses are the entries'.
    // Unchecked pairs (only without a cache) are checked here, where the routing reads their bodies
    // anyway, not in a pass of their own before (A/B on AMD: box_resting +0.2 to +3.5%, box_box +1
    // to +2.5%; the checks themselves cost the box scenes about 6%).
    MF_ASSERT(!call->check || cache == NULL);
    for (uint32_t i = 0; call->check && i < count; ++i) {
        int route = route_of_checked_pair(bank, bodies, pairs[i]);
        // The same answers as the three tests one after another.
        MF_ASSERT((route == ROUTE_INVALID) == !mf_pair_is_valid(bank, bodies, pairs[i]));
        MF_ASSERT(route == ROUTE_INVALID || (route == ROUTE_PARKED) == is_parked_apart(bodies, pairs[i]));
        MF_ASSERT(route == ROUTE_INVALID || route == ROUTE_PARKED ||
                  (route == ROUTE_BOXES) == is_box_pair(bank, bodies, pairs[i]));
        if (route == ROUTE_INVALID) return i;
        if (route == ROUTE_PARKED) results[i].count = 0;
        else if (route == ROUTE_BOXES) worker->boxes[box_count++] = i;
        else route_by_centres(context, bank, bodies, pairs[i], i, &results[i], misses, &miss_count);
    }
    for (uint32_t i = 0; !call->check && cache == NULL && i < count; ++i) {
        if (is_parked_apart(bodies, pairs[i])) results[i].count = 0;
        else if (is_box_pair(bank, bodies, pairs[i])) worker->boxes[box_count++] = i;
        else route_by_centres(context, bank, bodies, pairs[i], i, &results[i], misses, &miss_count);
    }
    for (uint32_t i = 0; cache != NULL && i < count; ++i) {
        if (is_parked_apart(bodies, pairs[i])) {
            results[i].count = 0;
            call->answers[i].kind = MF_ANSWER_EMPTY; // the next call searches afresh
        } else if (mf_cache_keeps_manifold(&context->config, bank, bodies, pairs[i], &cache[i])) {
            worker->reusable[reusable_count++] = i;
            call->answers[i].kind = MF_ANSWER_REUSED; // unless the reuse pass misses it
        } else {
            route_cached_pair(call, i, &box_count, &miss_count);
        }
    }
    if (reusable_count > 0) {
        // The missed pairs are listed in place of the reusable ones (never ahead of the reading).
        mf_reuse_job job = {.config = &context->config,
                            .bank = bank,
                            .bodies = bodies,
                            .pairs = pairs,
                            .cache = cache,
                            .list = worker->reusable,
                            .count = reusable_count,
                            .results = results,
                            .missed = worker->reusable,
                            .missed_count = 0};
        context->kernel->reuse(&job);
        for (uint32_t k = 0; k < job.missed_count; ++k)
            route_cached_pair(call, worker->reusable[k], &box_count, &miss_count);
    }
    if (box_count > 0) {
        mf_box_job job = {.config = &context->config,
                          .bank = bank,
                          .bodies = bodies,
                          .pairs = pairs,
                          .list = worker->boxes,
                          .count = box_count,
                          .results = results,
                          .answers = call->answers,
                          .fallback = worker->fallback,
                          .fallback_count = 0};
        context->kernel->boxes(&job);
        for (uint32_t k = 0; k < job.fallback_count; ++k) collide_pair(call, job.fallback[k]);
    }
    // The binning clears its tables on every call: not for a chunk without misses (boxes alone).
    if (worker->wide == NULL) {
        for (uint32_t k = 0; k < miss_count; ++k) collide_pair(call, misses[k]);
    } else if (miss_count > 0) {
        collide_wide(call, miss_count == count ? NULL : misses, miss_count);
    }
    return count;
}

// The chunk's new cache entries, in one pass once the stages are done, each from the pair's answer
// and result and its entry as the call found it, which it may overwrite (in place: read first).
// Continuity may change a result, so this comes before the mirror.
static void write_entries(const chunk_call *call, uint32_t count, mf_pair_cache *entries)
{
    for (uint32_t i = 0; i < count; ++i)
        mf_cache_write(call->config, call->bank, call->bodies, call->pairs[i], &call->cache[i], &call->answers[i],
                       &call->results[i], &entries[i]);
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

// mf_collide_chunk, and under `check` mf_collide_chunk_checking.
static uint32_t collide_chunk(const mf_context *context, mf_worker *worker, const mf_bank *bank,
                              const mf_bodies *bodies, const mf_pair *pairs, uint32_t count, const mf_pair_cache *cache,
                              mf_pair_cache *in_place, mf_pair_result *results, int check)
{
    // Every pair is collided in one order, the lower body index as a, and mirrored where it came
    // the other way round: the order a broad phase emits pairs in changes nothing but the mirror.
    uint32_t swapped = 0;
    for (uint32_t i = 0; i < count; ++i) swapped += pairs[i].a > pairs[i].b;
    for (uint32_t i = 0; swapped > 0 && i < count; ++i)
        worker->canonical[i] = pairs[i].a > pairs[i].b ? (mf_pair){pairs[i].b, pairs[i].a} : pairs[i];
    chunk_call call = {.context = context,
                       .config = &context->config,
                       .worker = worker,
                       .bank = bank,
                       .bodies = bodies,
                       .pairs = swapped > 0 ? worker->canonical : pairs,
                       .cache = cache,
                       .results = results,
                       .answers = cache != NULL ? worker->answers : NULL,
                       .check = check};
    uint32_t invalid = collide_in_order(&call, count);
    if (invalid < count) return invalid;
    if (cache != NULL) write_entries(&call, count, in_place != NULL ? in_place : worker->entries);
    for (uint32_t i = 0; swapped > 0 && i < count; ++i)
        if (pairs[i].a > pairs[i].b) mirror(&results[i]);
    return count;
}

void mf_collide_chunk(const mf_context *context, mf_worker *worker, const mf_bank *bank, const mf_bodies *bodies,
                      const mf_pair *pairs, uint32_t count, const mf_pair_cache *cache, mf_pair_cache *in_place,
                      mf_pair_result *results)
{
    collide_chunk(context, worker, bank, bodies, pairs, count, cache, in_place, results, 0);
}

uint32_t mf_collide_chunk_checking(const mf_context *context, mf_worker *worker, const mf_bank *bank,
                                   const mf_bodies *bodies, const mf_pair *pairs, uint32_t count,
                                   mf_pair_result *results)
{
    return collide_chunk(context, worker, bank, bodies, pairs, count, NULL, NULL, results, 1);
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
        if (entries != NULL) entries[i] = (mf_pair_cache){0};
        start = i + 1;
    }
    return first_bad;
}
