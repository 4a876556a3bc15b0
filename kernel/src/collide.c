// mf_collide and mf_collide_cached: input validation, rounds of chunks on the worker threads, and
// the compact output stream in pair order.
#include "chunk.h"
#include "context.h"
#include "core.h"
#include "dispatch.h"
#include "fault.h"
#include "jobs.h"
#include "placement.h"
#include "staging.h"
#include "worker.h"

#include <stdatomic.h>

void mf_stream_bound(uint32_t pair_count, uint32_t max_contacts, uint32_t *manifold_capacity,
                     uint32_t *contact_capacity)
{
    if (max_contacts > MF_MAX_CONTACTS) max_contacts = MF_MAX_CONTACTS;
    uint64_t contacts = (uint64_t)pair_count * max_contacts;
    if (manifold_capacity != NULL) *manifold_capacity = pair_count;
    if (contact_capacity != NULL) *contact_capacity = contacts > UINT32_MAX ? UINT32_MAX : (uint32_t)contacts;
}

// The context's message for pairs[i], a pair mf_pair_is_valid refused: the call fails with it.
static mf_status explain_pair(mf_context *context, const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs,
                              uint32_t i)
{
    char text[sizeof(context->message)];
    mf_status status = mf_describe_fault(bank, bodies, pairs, i, text, sizeof(text));
    return mf_context_fail(context, status, "%s", text);
}

// Lowers *first to pair where that is lower (threads find pairs in any order).
static void lower_to(atomic_uint *first, uint32_t pair)
{
    uint32_t seen = atomic_load_explicit(first, memory_order_relaxed);
    while (pair < seen && !atomic_compare_exchange_weak(first, &seen, pair)) {
    }
}

// The pair check, split over the workers for large calls: each task scans a range and lowers
// first_bad to the first invalid pair it finds.
typedef struct pair_check {
    const mf_bank *bank;
    const mf_bodies *bodies;
    const mf_pair *pairs;
    uint32_t pair_count, per_task;
    atomic_uint first_bad;
} pair_check;

// Checks pairs [begin, end): the first invalid one lowers *first_bad (workers find them in any
// order). 1 if there is one.
static int find_invalid(const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs, uint32_t begin,
                        uint32_t end, atomic_uint *first_bad)
{
    uint32_t bad = mf_first_invalid_pair(bank, bodies, pairs, begin, end);
    if (bad == end) return 0;
    lower_to(first_bad, bad);
    return 1;
}

static void check_range(void *data, uint32_t task, uint32_t worker_index)
{
    (void)worker_index;
    pair_check *check = data;
    uint32_t begin = task * check->per_task;
    uint32_t end = check->pair_count - begin < check->per_task ? check->pair_count : begin + check->per_task;
    find_invalid(check->bank, check->bodies, check->pairs, begin, end, &check->first_bad);
}

static mf_status check_pointers(mf_context *context, const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs,
                                uint32_t pair_count, const mf_stream *stream)
{
    if (bank == NULL || bodies == NULL || stream == NULL || (pairs == NULL && pair_count > 0))
        return mf_context_fail(context, MF_ERR_INVALID_ARGUMENT, "bank, bodies, stream or pairs is NULL");
    if ((stream->manifolds == NULL && stream->manifold_capacity > 0) ||
        (stream->contacts == NULL && stream->contact_capacity > 0) ||
        (stream->faults == NULL && stream->fault_capacity > 0))
        return mf_context_fail(context, MF_ERR_INVALID_ARGUMENT, "a stream array is NULL but its capacity is not 0");
    if (bodies->count > 0 && (bodies->shape == NULL || bodies->transform == NULL))
        return mf_context_fail(context, MF_ERR_INVALID_ARGUMENT, "bodies.shape or bodies.transform is NULL");
    return MF_OK;
}

static mf_status check_pairs(mf_context *context, const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs,
                             uint32_t pair_count)
{
    pair_check check = {bank, bodies, pairs, pair_count, pair_count, pair_count};
    if (mf_has_workers(context) && pair_count >= MF_THREADED_PAIRS) {
        uint32_t tasks = context->threads * MF_CHUNKS_PER_THREAD;
        check.per_task = (pair_count + tasks - 1) / tasks;
        tasks = (pair_count + check.per_task - 1) / check.per_task;
        mf_run_batch(context, tasks, check_range, &check);
    } else if (pair_count > 0) {
        check_range(&check, 0, 0);
    }
    uint32_t first_bad = atomic_load(&check.first_bad);
    return first_bad < pair_count ? explain_pair(context, bank, bodies, pairs, first_bad) : MF_OK;
}

// One round of a call as the tasks see it: the previous round's placed chunks to copy into the
// stream, then this round's chunks to collide and compact into staging.
typedef struct collide_round {
    const mf_context *context;
    const mf_bank *bank;
    const mf_bodies *bodies;
    const mf_pair *pairs;
    mf_pair_cache *cache; // NULL without a cache; read for this round's pairs, written for the copies'
    mf_stream *stream;
    const mf_chunk_output *copies;
    uint32_t copy_count;
    mf_chunk_output *chunks;
    uint32_t first, chunk_pairs, end;
    int threaded;         // the call is large enough to wake the workers
    atomic_uint *skipped; // MF_FAULT_SKIP: the first pair skipped; NULL under MF_FAULT_STOP
} collide_round;

static void collide_chunk(const collide_round *round, uint32_t chunk, uint32_t worker_index)
{
    const mf_context *context = round->context;
    mf_worker *worker = &context->workers[worker_index];
    uint32_t first = round->first + chunk * round->chunk_pairs;
    uint32_t count = round->end - first < round->chunk_pairs ? round->end - first : round->chunk_pairs;
    const mf_pair_cache *cache = round->cache != NULL ? round->cache + first : NULL;
    if (round->skipped == NULL) {
        context->kernel->chunk.collide(context, worker, round->bank, round->bodies, round->pairs + first, count, cache,
                                       NULL, worker->results);
    } else {
        uint32_t bad = context->kernel->chunk.skipping(context, worker, round->bank, round->bodies,
                                                       round->pairs + first, count, cache, NULL, worker->results);
        if (bad < count) lower_to(round->skipped, first + bad);
    }
    // On one thread the chunk is placed right after what the stream holds now: where there is room
    // for the worst, it goes there at once instead of through staging.
    const mf_stream *stream = round->stream;
    uint64_t worst_contacts = (uint64_t)count * context->config.max_contacts;
    if (!round->threaded && cache == NULL && count <= stream->manifold_capacity - stream->manifold_count &&
        worst_contacts <= stream->contact_capacity - stream->contact_count)
        mf_staging_compact_to_stream(worker->results, first, count, stream, &round->chunks[chunk]);
    else
        mf_staging_compact(worker->results, cache != NULL ? worker->entries : NULL, first, count,
                           &round->chunks[chunk]);
}

static void round_task(void *data, uint32_t task, uint32_t worker_index)
{
    const collide_round *round = data;
    if (task < round->copy_count) mf_staging_copy(&round->copies[task], round->stream, round->cache);
    else collide_chunk(round, task - round->copy_count, worker_index);
}

static void run_round(const mf_context *context, collide_round *round, uint32_t chunks)
{
    uint32_t tasks = round->copy_count + chunks;
    if (round->threaded && tasks > 1) {
        mf_run_batch(context, tasks, round_task, round);
    } else {
        for (uint32_t task = 0; task < tasks; ++task) round_task(round, task, 0);
    }
}

// A threaded call whose stream holds every pair's largest manifold: all its chunks in one batch,
// each written out in order as soon as the chunks before it are (mf_placement), with no rounds to
// wait for and, mostly, no copies.
typedef struct in_order_call {
    const mf_context *context;
    const mf_bank *bank;
    const mf_bodies *bodies;
    const mf_pair *pairs;
    mf_pair_cache *cache;
    mf_stream *stream;
    mf_placement *placement;
    uint32_t pair_count;
    uint32_t head_chunks, head_pairs; // even chunks first, then chunks of tail_pairs
    uint32_t tail_pairs;
    int validate;          // each chunk checks its pairs first (no one checked them before the call)
    int skip;              // MF_FAULT_SKIP: each chunk skips its invalid pairs
    atomic_uint first_bad; // the first invalid pair found (or skipped), pair_count for none
} in_order_call;

// A chunk of a call that checks its pairs in the chunks: collided where every pair is valid, else
// its first invalid pair lowers first_bad. Skipped where one was found before the chunk (the call
// fails: no need to collide); one found after it does not spare the chunk its check. 1 where the
// chunk was collided.
static int collide_checked_chunk(in_order_call *call, mf_worker *worker, uint32_t first, uint32_t count,
                                 mf_pair_result *results)
{
    if (atomic_load_explicit(&call->first_bad, memory_order_relaxed) < first) return 0;
    uint32_t bad = call->context->kernel->chunk.checking(call->context, worker, call->bank, call->bodies,
                                                         call->pairs + first, count, results);
    if (bad == count) return 1;
    lower_to(&call->first_bad, first + bad);
    return 0;
}

static void in_order_task(void *data, uint32_t chunk, uint32_t worker_index)
{
    in_order_call *call = data;
    mf_worker *worker = &call->context->workers[worker_index];
    uint32_t first = chunk < call->head_chunks
                         ? chunk * call->head_pairs
                         : call->head_chunks * call->head_pairs + (chunk - call->head_chunks) * call->tail_pairs;
    uint32_t size = chunk < call->head_chunks ? call->head_pairs : call->tail_pairs;
    uint32_t count = call->pair_count - first < size ? call->pair_count - first : size;
    // Every pair was checked before the call began (or is skipped if invalid) and the stream holds
    // every manifold: nothing can fail, so the chunk writes its cache entries in place.
    mf_pair_cache *cache = call->cache != NULL ? call->cache + first : NULL;
    mf_pair_result *results = worker->results;
    if (call->skip) {
        uint32_t bad = call->context->kernel->chunk.skipping(call->context, worker, call->bank, call->bodies,
                                                             call->pairs + first, count, cache, cache, results);
        if (bad < count) lower_to(&call->first_bad, first + bad);
    } else if (call->validate) {
        MF_ASSERT(cache == NULL); // a call with a cache checks its pairs before the chunks
        // An invalid chunk is placed empty all the same, so that the chunks after it are written out.
        if (!collide_checked_chunk(call, worker, first, count, results))
            for (uint32_t i = 0; i < count; ++i) results[i].count = 0;
    } else {
        call->context->kernel->chunk.collide(call->context, worker, call->bank, call->bodies, call->pairs + first,
                                             count, cache, cache, results);
    }
    mf_placement_finish(call->placement, chunk, results, first, count,
                        call->context->staging + (size_t)worker_index * MF_STAGED_PER_WORKER, worker->staged_pending,
                        call->stream);
}

static int stream_holds_all(const mf_stream *stream, uint32_t pair_count, uint32_t max_contacts)
{
    return stream->manifold_capacity >= pair_count && stream->contact_capacity >= (uint64_t)pair_count * max_contacts;
}

// Returns the first invalid pair the chunks found (validate or skip), pair_count for none. Under
// MF_FAULT_STOP one means that the call failed and the stream's counts are unset.
static uint32_t collide_in_one_batch(mf_context *context, const mf_bank *bank, const mf_bodies *bodies,
                                     const mf_pair *pairs, uint32_t pair_count, mf_pair_cache *cache, mf_stream *stream,
                                     int threaded, int validate, int skip)
{
    // Even chunks of up to MF_CHUNK_PAIRS, then, with threads, a quarter of that for the last
    // MF_CHUNK_PAIRS pairs per thread: the threads run out of work within a small chunk of each other.
    uint32_t tail_pairs = MF_CHUNK_PAIRS / 4;
    uint32_t tail = !threaded                                        ? 0
                    : context->threads * MF_CHUNK_PAIRS < pair_count ? context->threads * MF_CHUNK_PAIRS
                                                                     : pair_count;
    uint32_t head = pair_count - tail;
    uint32_t head_chunks = (head + MF_CHUNK_PAIRS - 1) / MF_CHUNK_PAIRS;
    uint32_t head_pairs = head_chunks > 0 ? (head + head_chunks - 1) / head_chunks : 0;
    if (head_chunks > 0) head_chunks = (head + head_pairs - 1) / head_pairs;
    // The last head chunk may reach into the tail (it ends at pair_count at most).
    uint64_t in_head = (uint64_t)head_chunks * head_pairs;
    uint32_t rest = in_head < pair_count ? pair_count - (uint32_t)in_head : 0;
    uint32_t chunks = head_chunks + (rest + tail_pairs - 1) / tail_pairs;
    mf_placement placement;
    mf_placement_begin(&placement, context->finished, context->finished_count, !threaded);
    in_order_call call = {context,    bank,        bodies,     pairs,      cache,    stream, &placement,
                          pair_count, head_chunks, head_pairs, tail_pairs, validate, skip,   pair_count};
    if (threaded) mf_run_batch(context, chunks, in_order_task, &call);
    else
        for (uint32_t chunk = 0; chunk < chunks; ++chunk) in_order_task(&call, chunk, 0);
    uint32_t first_bad = atomic_load(&call.first_bad);
    if (first_bad < pair_count && !skip) return first_bad;
    stream->manifold_count = placement.manifold_count;
    stream->contact_count = placement.contact_count;
    stream->pairs_done = pair_count;
    return first_bad;
}

static void empty_stream(mf_stream *stream)
{
    stream->manifold_count = 0;
    stream->contact_count = 0;
    stream->pairs_done = 0;
    stream->fault_count = 0;
}

// Under MF_FAULT_SKIP, after the chunks: the skipped pairs of [0, pairs_done), listed from the first
// one a chunk found (a serial pass over the pairs after it, only in a call that skipped any), and
// the first one's description as the context's message where the call succeeded.
static void report_skipped(mf_context *context, const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs,
                           uint32_t first_skipped, mf_stream *stream, mf_status status)
{
    if (first_skipped >= stream->pairs_done) return;
    uint32_t count = mf_list_faults(bank, bodies, pairs, first_skipped, stream->pairs_done, stream);
    if (status != MF_OK) return; // the message says why the call stopped
    char text[sizeof(context->message)];
    mf_describe_fault(bank, bodies, pairs, first_skipped, text, sizeof(text));
    mf_context_fail(context, MF_OK, "%u pair%s skipped, the first: %s", count, count == 1 ? "" : "s", text);
}

// Both entry points: validation, then rounds of chunks collided in parallel into staging, placed
// in pair order by a prefix sum and copied into the stream by the next round's tasks. The output
// is the same for any thread count, and a full stream stops at an exact pair.
static mf_status collide(mf_context *context, const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs,
                         uint32_t pair_count, mf_pair_cache *cache, mf_stream *stream)
{
    if (stream != NULL) empty_stream(stream);
    if (context == NULL) return MF_ERR_INVALID_ARGUMENT;
    context->message[0] = '\0';
    mf_status status = check_pointers(context, bank, bodies, pairs, pair_count, stream);
    if (status != MF_OK) return status;

    // A call too small to pay for waking the workers runs on the calling thread.
    int threaded = mf_has_workers(context) && pair_count >= MF_THREADED_PAIRS;
    // Where every pair will be done, and no cache entry written before an invalid pair is known,
    // each chunk checks its own pairs while they are at hand.
    int in_order = stream_holds_all(stream, pair_count, context->config.max_contacts);
    // Under MF_FAULT_SKIP nothing fails for a pair: each chunk checks its own and skips the invalid.
    int skip = context->config.on_fault == MF_FAULT_SKIP;
    int validate_first = !skip && (!in_order || cache != NULL);
    if (validate_first) {
        status = check_pairs(context, bank, bodies, pairs, pair_count);
        if (status != MF_OK) return status;
    }
    if (in_order) {
        uint32_t bad = collide_in_one_batch(context, bank, bodies, pairs, pair_count, cache, stream, threaded,
                                            !validate_first, skip);
        if (skip) report_skipped(context, bank, bodies, pairs, bad, stream, MF_OK);
        if (bad >= pair_count || skip) return MF_OK;
        empty_stream(stream);
        return explain_pair(context, bank, bodies, pairs, bad);
    }
    atomic_uint skipped;
    atomic_init(&skipped, pair_count);
    uint32_t slots = threaded ? context->threads * MF_CHUNKS_PER_THREAD : 1;
    collide_round round = {context, bank, bodies, pairs,          cache, stream,   NULL,
                           0,       NULL, 0,      MF_CHUNK_PAIRS, 0,     threaded, skip ? &skipped : NULL};
    uint32_t buffer = 0;
    for (;;) {
        uint32_t chunks = 0;
        round.chunks = context->staging + (size_t)buffer * context->threads * MF_CHUNKS_PER_THREAD;
        if (round.first < pair_count) {
            // A nearly full stream takes small chunks: no need to collide 1024 pairs for one manifold.
            uint32_t room = stream->manifold_capacity - stream->manifold_count;
            uint32_t remaining = pair_count - round.first;
            // Equal chunks for the rounds still to come, so no worker is left with a short one.
            uint64_t rounds =
                ((uint64_t)remaining + (uint64_t)slots * MF_CHUNK_PAIRS - 1) / ((uint64_t)slots * MF_CHUNK_PAIRS);
            uint32_t even = (uint32_t)(((uint64_t)remaining + rounds * slots - 1) / (rounds * slots));
            round.chunk_pairs = room < MF_CHUNK_PAIRS / 2 ? (room < 32 ? 64 : 2 * room) : even;
            chunks = (remaining + round.chunk_pairs - 1) / round.chunk_pairs;
            if (chunks > slots) chunks = slots;
            uint64_t end = (uint64_t)round.first + (uint64_t)chunks * round.chunk_pairs;
            round.end = end < pair_count ? (uint32_t)end : pair_count;
        }
        if (chunks == 0 && round.copy_count == 0) break;
        run_round(context, &round, chunks);

        // The prefix sum: this round's chunks placed after what the stream holds, in pair order.
        for (uint32_t c = 0; c < chunks; ++c) {
            if (mf_staging_place(&round.chunks[c], stream)) continue;
            for (uint32_t k = 0; k < c; ++k) mf_staging_copy(&round.chunks[k], stream, cache);
            uint32_t needed;
            stream->pairs_done = mf_staging_copy_prefix(&round.chunks[c], stream, cache, &needed);
            status = mf_context_fail(context, MF_ERR_CAPACITY,
                                     "stream full at pair %u: it needs room for 1 more manifold and %u more contacts",
                                     stream->pairs_done, needed);
            report_skipped(context, bank, bodies, pairs, atomic_load(&skipped), stream, status);
            return status;
        }
        round.copies = round.chunks;
        round.copy_count = chunks;
        round.first = round.end;
        buffer ^= 1u;
    }
    stream->pairs_done = pair_count;
    report_skipped(context, bank, bodies, pairs, atomic_load(&skipped), stream, MF_OK);
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
        if (stream != NULL) empty_stream(stream);
        if (context != NULL) return mf_context_fail(context, MF_ERR_INVALID_ARGUMENT, "cache is NULL");
        return MF_ERR_INVALID_ARGUMENT;
    }
    return collide(context, bank, bodies, pairs, pair_count, cache, stream);
}
