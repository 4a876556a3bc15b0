// mf_collide and mf_collide_cached: input validation, rounds of chunks on the worker threads, and
// the compact output stream in pair order.
#include "chunk.h"
#include "pool.h"

#include <assert.h>
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
        return mf_context_fail(context, MF_ERR_INVALID_ARGUMENT, "pair %u names body %u but there are %u bodies", pair,
                               body, bodies->count);
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

static mf_status check_input(mf_context *context, const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs,
                             uint32_t pair_count, const mf_stream *stream)
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

// Appends one pair's manifold; 0 if the stream has no room for all of it.
static int emit(mf_stream *stream, uint32_t pair, const mf_pair_result *result)
{
    if (result->count == 0) return 1;
    // Pair order: each call's pairs are written once, in increasing order.
    assert(stream->manifold_count == 0 || stream->manifolds[stream->manifold_count - 1].pair < pair);
    assert(result->count <= MF_MAX_CONTACTS);
    if (stream->manifold_count >= stream->manifold_capacity ||
        result->count > stream->contact_capacity - stream->contact_count)
        return 0;
    stream->manifolds[stream->manifold_count++] =
        (mf_manifold){pair, stream->contact_count, result->count, result->normal};
    for (uint32_t k = 0; k < result->count; ++k) stream->contacts[stream->contact_count++] = result->contacts[k];
    return 1;
}

// One call's pairs as the chunk tasks see them: a round of chunks from `first` on.
typedef struct collide_round {
    const mf_context *context;
    const mf_bank *bank;
    const mf_bodies *bodies;
    const mf_pair *pairs;
    const mf_pair_cache *cache; // NULL without a cache
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
    const mf_pair_cache *cache = round->cache != NULL ? round->cache + first : NULL;
    mf_collide_chunk(context, worker, round->bank, round->bodies, round->pairs + first, count, cache, results);
}

// Both entry points: validation, rounds of chunks, output in pair order, cache entries committed
// for the pairs written out.
static mf_status collide(mf_context *context, const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs,
                         uint32_t pair_count, mf_pair_cache *cache, mf_stream *stream)
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
    collide_round round = {context, bank, bodies, pairs, cache, 0, MF_CHUNK_PAIRS, pair_count};
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
            if (cache != NULL) cache[i] = result->cache;
        }
        round.first = round.end;
    }
    stream->pairs_done = pair_count;
    return MF_OK;
}

mf_status mf_collide(mf_context *context, const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs,
                     uint32_t pair_count, mf_stream *stream)
{
    return collide(context, bank, bodies, pairs, pair_count, NULL, stream);
}

mf_status mf_collide_cached(mf_context *context, const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs,
                            uint32_t pair_count, mf_pair_cache *cache, mf_stream *stream)
{
    if (cache == NULL && pair_count > 0) {
        if (stream != NULL)
            *stream = (mf_stream){
                stream->manifolds, stream->manifold_capacity, 0, stream->contacts, stream->contact_capacity, 0, 0};
        if (context != NULL) return mf_context_fail(context, MF_ERR_INVALID_ARGUMENT, "cache is NULL");
        return MF_ERR_INVALID_ARGUMENT;
    }
    return collide(context, bank, bodies, pairs, pair_count, cache, stream);
}
