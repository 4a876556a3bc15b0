// mf_collide: input validation, the per-pair scalar path, and the compact output stream.
#include "context.h"
#include "pool.h"
#include "reduce.h"

#include <string.h>

void mf_stream_bound(uint32_t pair_count, uint32_t max_contacts, uint32_t *manifold_capacity,
                     uint32_t *contact_capacity)
{
    if (max_contacts > MF_MAX_CONTACTS) max_contacts = MF_MAX_CONTACTS;
    uint64_t contacts = (uint64_t)pair_count * max_contacts;
    if (manifold_capacity != NULL) *manifold_capacity = pair_count;
    if (contact_capacity != NULL) *contact_capacity = contacts > UINT32_MAX ? UINT32_MAX : (uint32_t)contacts;
}

static int is_finite_transform(const mf_transform *t)
{
    return mf_is_finite3(t->p) && isfinite(t->q.x) && isfinite(t->q.y) && isfinite(t->q.z) && isfinite(t->q.w);
}


static mf_status check_body(mf_context *context, const mf_bank *bank, const mf_bodies *bodies, uint32_t body,
                            uint32_t pair)
{
    if (body >= bodies->count)
        return mf_context_fail(context, MF_ERR_INVALID_ARGUMENT, "pair %u names body %u but there are %u bodies",
                               pair, body, bodies->count);
    if (bodies->shape[body] >= bank->shape_count)
        return mf_context_fail(context, MF_ERR_INVALID_ARGUMENT, "body %u has shape %u but the bank holds %u shapes",
                               body, bodies->shape[body], bank->shape_count);
    const mf_transform *t = &bodies->transform[body];
    if (!is_finite_transform(t))
        return mf_context_fail(context, MF_ERR_NONFINITE, "body %u has a non-finite transform", body);
    if (t->q.x == 0.0f && t->q.y == 0.0f && t->q.z == 0.0f && t->q.w == 0.0f)
        return mf_context_fail(context, MF_ERR_INVALID_ARGUMENT, "body %u has a zero quaternion", body);
    return MF_OK;
}

static mf_status check_input(mf_context *context, const mf_bank *bank, const mf_bodies *bodies,
                             const mf_pair *pairs, uint32_t pair_count, const mf_stream *stream)
{
    if (bank == NULL || bodies == NULL || stream == NULL || (pairs == NULL && pair_count > 0))
        return mf_context_fail(context, MF_ERR_INVALID_ARGUMENT, "bank, bodies, stream or pairs is NULL");
    if ((stream->manifolds == NULL && stream->manifold_capacity > 0) ||
        (stream->contacts == NULL && stream->contact_capacity > 0))
        return mf_context_fail(context, MF_ERR_INVALID_ARGUMENT, "a stream array is NULL but its capacity is not 0");
    if (bodies->count > 0 && (bodies->shape == NULL || bodies->transform == NULL))
        return mf_context_fail(context, MF_ERR_INVALID_ARGUMENT, "bodies.shape or bodies.transform is NULL");
    for (uint32_t i = 0; i < pair_count; ++i) {
        if (pairs[i].a == pairs[i].b)
            return mf_context_fail(context, MF_ERR_INVALID_ARGUMENT, "pair %u names body %u twice", i, pairs[i].a);
        mf_status status = check_body(context, bank, bodies, pairs[i].a, i);
        if (status == MF_OK) status = check_body(context, bank, bodies, pairs[i].b, i);
        if (status != MF_OK) return status;
    }
    return MF_OK;
}

static mf_mat3 rotation_of(mf_quat q) { return mf_mat3_from_quat(mf_quat_normalize(q)); }

// Moves b into a's frame for the scalar queries and the clip pass: b's vertices and normals, and
// a's vertices in b's frame.
static mf_pair_frame frame_setup(const mf_bank *bank, const mf_bodies *bodies, mf_pair pair, mf_pair_scratch *scratch,
                                 mf_hull_view *a, mf_hull_view *b, mf_mat3 *rotation_a)
{
    const mf_transform *ta = &bodies->transform[pair.a], *tb = &bodies->transform[pair.b];
    *a = mf_bank_view(bank, bodies->shape[pair.a]);
    *b = mf_bank_view(bank, bodies->shape[pair.b]);
    *rotation_a = rotation_of(ta->q);
    mf_mat3 rotation_b = rotation_of(tb->q);

    // Work in a's frame: precision depends on the bodies' distance, not on where they are.
    mf_pair_frame frame = {.a = a, .b = b, .b_vertices = scratch->b_vertices, .a_vertices = scratch->a_vertices,
                           .b_normals = scratch->b_normals};
    frame.rotation = mf_mat3_relative(rotation_a, &rotation_b);
    frame.translation = mf_mat3_mul_transposed(rotation_a, mf_sub(tb->p, ta->p));
    for (uint32_t v = 0; v < b->vertex_count; ++v)
        scratch->b_vertices[v] = mf_add(mf_mat3_mul(&frame.rotation, mf_view_vertex(b, v)), frame.translation);
    for (uint32_t f = 0; f < b->face_count; ++f)
        scratch->b_normals[f] = mf_mat3_mul(&frame.rotation, mf_view_normal(b, f));
    for (uint32_t v = 0; v < a->vertex_count; ++v)
        scratch->a_vertices[v] = mf_mat3_mul_transposed(&frame.rotation, mf_sub(mf_view_vertex(a, v), frame.translation));
    return frame;
}

// The clip pass's frame for one lane of a bundle, from what the wide pass computed: the same
// values the scalar setup would produce, without computing them again.
static mf_pair_frame frame_from_bundle(const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                                       const mf_wide_scratch *wide, uint32_t lane, uint32_t b_rows,
                                       mf_pair_scratch *scratch, mf_hull_view *a, mf_hull_view *b)
{
    *a = mf_bank_view(bank, bodies->shape[pair.a]);
    *b = mf_bank_view(bank, bodies->shape[pair.b]);
    mf_pair_frame frame = {.a = a, .b = b, .b_vertices = scratch->b_vertices};
    frame.rotation = wide->axes.rotation[lane];
    frame.translation = wide->axes.translation[lane];
    uint32_t width = wide->width;
    const float *x = wide->work + lane, *y = x + b_rows * width, *z = y + b_rows * width;
    for (uint32_t v = 0; v < b->vertex_count; ++v)
        scratch->b_vertices[v] = (mf_vec3){x[v * width], y[v * width], z[v * width]};
    return frame;
}

// Face contacts of a face axis: the clipped incident face reduced to max_contacts; 0 if the clip
// keeps nothing within the margin.
static uint32_t face_contacts(const mf_config *config, const mf_pair_frame *frame, const mf_axis *axis,
                              mf_vec3 *normal, mf_contact contacts[MF_MAX_CONTACTS])
{
    mf_face_clip clip;
    mf_clip_faces(frame, axis, config->margin, &clip);
    if (clip.count == 0) return 0;
    int reference_is_a = axis->kind == MF_AXIS_FACE_A;
    mf_vec3 reference_normal = clip.reference_normal;
    *normal = reference_is_a ? reference_normal : mf_neg(reference_normal);
    uint32_t chosen[MF_MAX_CONTACTS];
    uint32_t count = mf_reduce(clip.points, clip.count, reference_normal, config->max_contacts, chosen);
    for (uint32_t k = 0; k < count; ++k) {
        const mf_clip_point *p = &clip.points[chosen[k]];
        // The point sits on the incident surface; the midpoint is half the separation back.
        contacts[k] = (mf_contact){mf_mul_add(p->position, -0.5f * p->separation, reference_normal), p->separation,
                                   mf_clip_point_id(p, reference_is_a)};
    }
    return count;
}

// Last resort for a penetrating pair none of whose axes gave a contact (deep overlap of small
// faces): one contact at the incident hull's deepest vertex below the reference face, so the
// bodies are still pushed apart. It lies on the incident surface and the reference face's plane.
static uint32_t deepest_vertex_contact(const mf_pair_frame *frame, const mf_axis *axis, mf_vec3 *normal,
                                       mf_contact *contact)
{
    int reference_is_a = axis->kind == MF_AXIS_FACE_A;
    const mf_hull_view *incident = reference_is_a ? frame->b : frame->a;
    mf_vec3 local_normal = mf_view_normal(reference_is_a ? frame->a : frame->b,
                                          reference_is_a ? axis->feature_a : axis->feature_b);
    mf_vec3 reference_normal = reference_is_a ? local_normal : mf_mat3_mul(&frame->rotation, local_normal);
    uint32_t deepest = 0;
    float deepest_depth = INFINITY;
    for (uint32_t i = 0; i < incident->vertex_count; ++i) {
        mf_vec3 v = reference_is_a ? frame->b_vertices[i] : mf_view_vertex(frame->a, i);
        float d = mf_dot(reference_normal, v);
        if (d < deepest_depth) {
            deepest_depth = d;
            deepest = i;
        }
    }
    mf_vec3 v = reference_is_a ? frame->b_vertices[deepest] : mf_view_vertex(frame->a, deepest);
    uint32_t reference_face = reference_is_a ? axis->feature_a : axis->feature_b;
    uint16_t incident_feature = MF_FEATURE(MF_FEATURE_VERTEX, deepest);
    uint16_t reference_feature = MF_FEATURE(MF_FEATURE_FACE, reference_face);
    uint32_t id = reference_is_a ? (uint32_t)reference_feature << 16 | incident_feature
                                 : (uint32_t)incident_feature << 16 | reference_feature;
    *normal = reference_is_a ? reference_normal : mf_neg(reference_normal);
    *contact = (mf_contact){mf_mul_add(v, -0.5f * axis->separation, reference_normal), axis->separation, id};
    return 1;
}

// The contacts of a touching pair, in world space. The axes within the slop of the best are
// tried in order of preference until one yields contacts; a speculative pair for which none does
// has no contact within the margin and gets no manifold.
static void contacts_for_pair(const mf_config *config, const mf_pair_frame *frame,
                              const mf_axis_candidates *candidates, const mf_mat3 *rotation_a, mf_vec3 position_a,
                              mf_pair_result *result)
{
    mf_axis ranked[5];
    uint32_t ranked_count = mf_rank_axes(candidates, config->linear_slop, ranked);
    // Should none of those yield contacts in a penetrating pair, the faces beyond the slop follow: a
    // near-parallel edge pair can look better than the faces by float noise while its edges do not
    // meet. (A speculative pair without contacts simply has none.)
    if (mf_best_separation(candidates) < 0.0f) {
        const mf_face_query *a = &candidates->face_a, *b = &candidates->face_b;
        ranked[ranked_count++] = (mf_axis){MF_AXIS_FACE_A, a->separation, a->face, 0, {0, 0, 0}};
        ranked[ranked_count++] = (mf_axis){MF_AXIS_FACE_B, b->separation, 0, b->face, {0, 0, 0}};
    }
    mf_vec3 normal = {0, 0, 0};
    uint32_t count = 0;
    for (uint32_t r = 0; r < ranked_count && count == 0; ++r) {
        mf_axis *axis = &ranked[r];
        if (axis->kind != MF_AXIS_EDGES) {
            count = face_contacts(config, frame, axis, &normal, result->contacts);
        } else {
            if (candidates->projection) mf_resolve_direction_edges(frame, axis);
            count = (uint32_t)mf_edge_contact(frame, axis, &result->contacts[0]);
            normal = axis->normal;
        }
    }
    if (count == 0 && mf_best_separation(candidates) < 0.0f) {
        const mf_face_query *a = &candidates->face_a, *b = &candidates->face_b;
        mf_axis face = a->separation >= b->separation ? (mf_axis){MF_AXIS_FACE_A, a->separation, a->face, 0, {0, 0, 0}}
                                                      : (mf_axis){MF_AXIS_FACE_B, b->separation, 0, b->face, {0, 0, 0}};
        count = deepest_vertex_contact(frame, &face, &normal, &result->contacts[0]);
    }
    result->count = count;
    result->normal = mf_mat3_mul(rotation_a, normal);
    for (uint32_t k = 0; k < count; ++k)
        result->contacts[k].point = mf_add(mf_mat3_mul(rotation_a, result->contacts[k].point), position_a);
}

// The whole scalar path for one pair.
static void collide_scalar(const mf_context *context, mf_worker *worker, const mf_bank *bank, const mf_bodies *bodies,
                           mf_pair pair, mf_pair_result *result)
{
    mf_hull_view a, b;
    mf_mat3 rotation_a;
    mf_pair_frame frame = frame_setup(bank, bodies, pair, worker->scratch, &a, &b, &rotation_a);
    mf_axis_candidates candidates;
    result->count = 0;
    if (mf_query_pair(&frame, context->config.margin, &candidates))
        contacts_for_pair(&context->config, &frame, &candidates, &rotation_a, bodies->transform[pair.a].p, result);
}

// Appends one pair's manifold; 0 if the stream has no room for all of it.
static int emit(mf_stream *stream, uint32_t pair, const mf_pair_result *result)
{
    if (result->count == 0) return 1;
    if (stream->manifold_count >= stream->manifold_capacity ||
        result->count > stream->contact_capacity - stream->contact_count)
        return 0;
    stream->manifolds[stream->manifold_count++] = (mf_manifold){pair, stream->contact_count, result->count,
                                                                result->normal};
    for (uint32_t k = 0; k < result->count; ++k) stream->contacts[stream->contact_count++] = result->contacts[k];
    return 1;
}

// Runs the bundles of `bins` through the wide pass and clips the touching lanes.
static void collide_bundles(const mf_context *context, mf_worker *worker, const mf_bank *bank,
                            const mf_bodies *bodies, const mf_pair *pairs, mf_pair_result *results)
{
    mf_wide_scratch *wide = worker->wide;
    const mf_config *config = &context->config;
    const mf_bins *bins = &wide->bins;
    for (uint32_t k = 0; k < bins->bundle_count; ++k) {
        const mf_bundle_plan *plan = &bins->bundles[k];
        mf_bundle bundle = mf_bundle_assemble(bank, bodies, pairs, bins, plan, wide->width, 1, &wide->tables);
        context->kernel.axes(&bundle, config->margin, 0, wide->work, &wide->axes);
        for (uint32_t l = 0; l < plan->lanes; ++l) {
            uint32_t p = bins->order[plan->first + l];
            mf_pair_result *result = &results[p];
            mf_axis_candidates candidates = {wide->axes.face_a[l], wide->axes.face_b[l], wide->axes.edge[l],
                                             bundle.projection};
            result->count = 0;
            if (!mf_is_touching(&candidates, config->margin)) continue;
            mf_hull_view a, b;
            mf_pair_frame frame = frame_from_bundle(bank, bodies, pairs[p], wide, l, bundle.b.counts.vertices,
                                                    worker->scratch, &a, &b);
            contacts_for_pair(config, &frame, &candidates, &wide->axes.rotation_a[l], bodies->transform[pairs[p].a].p,
                              result);
        }
    }
}

// Face queries only, for every bundle: returns how many pairs live on, listed in wide->alive; the
// others get an empty result.
static uint32_t cull_apart_pairs(const mf_context *context, mf_worker *worker, const mf_bank *bank,
                                 const mf_bodies *bodies, const mf_pair *pairs, mf_pair_result *results)
{
    mf_wide_scratch *wide = worker->wide;
    const mf_bins *bins = &wide->bins;
    float margin = context->config.margin;
    uint32_t alive = 0;
    for (uint32_t k = 0; k < bins->bundle_count; ++k) {
        const mf_bundle_plan *plan = &bins->bundles[k];
        mf_bundle bundle = mf_bundle_assemble(bank, bodies, pairs, bins, plan, wide->width, 0, &wide->tables);
        context->kernel.axes(&bundle, margin, 1, wide->work, &wide->axes);
        for (uint32_t l = 0; l < plan->lanes; ++l) {
            uint32_t p = bins->order[plan->first + l];
            if (wide->axes.face_a[l].separation < margin && wide->axes.face_b[l].separation < margin)
                wide->alive[alive++] = p;
            else
                results[p].count = 0;
        }
    }
    return alive;
}

// One chunk through the wide pass: bin, query bundle by bundle, clip touching lanes. Pairs with
// hulls beyond the wide limits take the scalar path, which computes the same.
static void collide_chunk_wide(const mf_context *context, mf_worker *worker, const mf_bank *bank,
                               const mf_bodies *bodies, const mf_pair *pairs, uint32_t count, mf_pair_result *results)
{
    mf_wide_scratch *wide = worker->wide;
    wide->width = context->kernel.width;
    mf_bins *bins = &wide->bins;
    mf_bin_pairs(bank, bodies, pairs, NULL, count, wide->width, bins);
    for (uint32_t i = 0; i < bins->scalar_count; ++i) {
        uint32_t p = bins->scalar[i];
        collide_scalar(context, worker, bank, bodies, pairs[p], &results[p]);
    }
    if (wide->touching_share < 0.75f) {
        uint32_t alive = cull_apart_pairs(context, worker, bank, bodies, pairs, results);
        mf_bin_pairs(bank, bodies, pairs, wide->alive, alive, wide->width, bins);
    }
    collide_bundles(context, worker, bank, bodies, pairs, results);
    uint32_t touching = 0;
    for (uint32_t i = 0; i < count; ++i) touching += results[i].count > 0;
    wide->touching_share = (float)touching / (float)count;
}

// One call's pairs as the chunk tasks see them: a round of chunks from `first` on.
typedef struct collide_round {
    const mf_context *context;
    const mf_bank *bank;
    const mf_bodies *bodies;
    const mf_pair *pairs;
    uint32_t first, chunk_pairs, end;
} collide_round;

// Task `chunk` of a round: its pairs' results go to the chunk's slot in context->results.
static void collide_chunk(void *data, uint32_t chunk, uint32_t worker_index)
{
    const collide_round *round = data;
    const mf_context *context = round->context;
    mf_worker *worker = &context->workers[worker_index];
    uint32_t first = round->first + chunk * round->chunk_pairs;
    uint32_t count = round->end - first < round->chunk_pairs ? round->end - first : round->chunk_pairs;
    mf_pair_result *results = context->results + (size_t)chunk * MF_CHUNK_PAIRS;
    const mf_pair *pairs = round->pairs + first;
    if (worker->wide != NULL) {
        collide_chunk_wide(context, worker, round->bank, round->bodies, pairs, count, results);
    } else {
        for (uint32_t i = 0; i < count; ++i)
            collide_scalar(context, worker, round->bank, round->bodies, pairs[i], &results[i]);
    }
}

mf_status mf_collide(mf_context *context, const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs,
                     uint32_t pair_count, mf_stream *stream)
{
    if (stream != NULL) {
        stream->manifold_count = 0;
        stream->contact_count = 0;
        stream->pairs_done = 0;
    }
    if (context == NULL) return MF_ERR_INVALID_ARGUMENT;
    context->message[0] = '\0';
    mf_status status = check_input(context, bank, bodies, pairs, pair_count, stream);
    if (status != MF_OK) return status;

    // Rounds of a few chunks per thread, collided in parallel, then written out in pair order: the
    // output is the same for any thread count, and a full stream stops at an exact pair.
    collide_round round = {context, bank, bodies, pairs, 0, MF_CHUNK_PAIRS, pair_count};
    uint32_t slots = context->threads * MF_CHUNKS_PER_THREAD;
    while (round.first < pair_count) {
        // A nearly full stream takes small chunks: no need to collide 1024 pairs for one manifold.
        uint32_t room = stream->manifold_capacity - stream->manifold_count;
        round.chunk_pairs = room < MF_CHUNK_PAIRS / 2 ? (room < 32 ? 64 : 2 * room) : MF_CHUNK_PAIRS;
        uint32_t remaining = pair_count - round.first;
        uint32_t chunks = (remaining + round.chunk_pairs - 1) / round.chunk_pairs;
        if (chunks > slots) chunks = slots;
        round.end = round.first + chunks * round.chunk_pairs < pair_count ? round.first + chunks * round.chunk_pairs
                                                                          : pair_count;
        if (context->pool != NULL && chunks > 1) {
            mf_pool_run(context->pool, chunks, collide_chunk, &round);
        } else {
            for (uint32_t chunk = 0; chunk < chunks; ++chunk) collide_chunk(&round, chunk, 0);
        }
        for (uint32_t i = round.first; i < round.end; ++i) {
            uint32_t offset = i - round.first;
            const mf_pair_result *result =
                &context->results[(size_t)(offset / round.chunk_pairs) * MF_CHUNK_PAIRS + offset % round.chunk_pairs];
            if (!emit(stream, i, result)) {
                stream->pairs_done = i;
                return mf_context_fail(context, MF_ERR_CAPACITY,
                                       "stream full at pair %u: it needs room for 1 more manifold and %u more contacts",
                                       i, result->count);
            }
        }
        round.first = round.end;
    }
    stream->pairs_done = pair_count;
    return MF_OK;
}
