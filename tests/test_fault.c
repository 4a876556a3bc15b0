// Fault isolation (mf_config.on_fault = MF_FAULT_SKIP): a pair naming an invalid body is skipped
// and listed in mf_stream.faults, and every other pair's manifold (and cache entry) is byte for
// byte what the same call gives without the skipped pairs, on every ISA, one and two threads and a
// job system, cached and uncached, with full and short streams. MF_FAULT_STOP keeps failing the
// call. The scenes come from tools/scene with fixed seeds, printed on failure.
#include "check.h"
#include "harness.h"
#include "scene.h"

#include <math.h>

static const uint64_t seed = 11;

// ---- a job system that runs every range in finish_task, last range first ----

typedef struct deferred_job {
    mf_task_fn *task;
    void *task_context;
    uint32_t item_count;
} deferred_job;

static deferred_job the_job;

static void *enqueue_deferred(mf_task_fn *task, uint32_t item_count, uint32_t min_range, void *task_context,
                              void *user_context)
{
    (void)min_range, (void)user_context;
    the_job = (deferred_job){task, task_context, item_count};
    return &the_job;
}

static void finish_deferred(void *user_task, void *user_context)
{
    (void)user_context;
    deferred_job *job = user_task;
    for (uint32_t item = job->item_count; item-- > 0;) job->task(item, item + 1, item % 2, job->task_context);
}

// ---- a faulty world: the scene's bodies and pairs with some made invalid ----

typedef struct world {
    scene s;
    uint32_t *shapes;
    mf_transform *transforms;
    mf_pair *pairs; // the scene's, some replaced by invalid ones (same count: cache entries line up)
    uint32_t pair_count;
    uint8_t *bad;         // per pair: skipped under MF_FAULT_SKIP
    mf_status *why;       // per bad pair: its status
    uint32_t bad_count;   // pairs skipped
    mf_pair *good_pairs;  // the pairs that are not bad, in order
    uint32_t *good_index; // per pair: its index among the good ones
    uint32_t good_count;
} world;

static uint32_t body_of_pair(const world *w, uint32_t pair) { return w->s.pairs[pair].b; }

// Breaks bodies named by pairs spread over the scene (a NaN position, an infinite quaternion, a
// zero quaternion, a shape out of range) and replaces a few pairs with a body index out of range
// and a body paired with itself. Every pair naming a broken body is bad.
static void world_make(world *w, const char *name, uint32_t pair_count)
{
    memset(w, 0, sizeof(*w));
    CHECKF(scene_make(name, pair_count, seed, &w->s) == MF_OK, "scene %s seed %llu", name, (unsigned long long)seed);
    const scene *s = &w->s;
    w->pair_count = s->pair_count;
    w->shapes = malloc(s->body_count * sizeof(uint32_t));
    w->transforms = malloc(s->body_count * sizeof(mf_transform));
    w->pairs = malloc(s->pair_count * sizeof(mf_pair));
    w->bad = calloc(s->pair_count, 1);
    w->why = calloc(s->pair_count, sizeof(mf_status));
    w->good_pairs = malloc(s->pair_count * sizeof(mf_pair));
    w->good_index = malloc(s->pair_count * sizeof(uint32_t));
    memcpy(w->shapes, s->body_shape, s->body_count * sizeof(uint32_t));
    memcpy(w->transforms, s->body_transform, s->body_count * sizeof(mf_transform));
    memcpy(w->pairs, s->pairs, s->pair_count * sizeof(mf_pair));
    mf_status *body_status = calloc(s->body_count, sizeof(mf_status));
    // Bodies at 1/7, 2/7 ... of the pair list, so that several chunks hold one.
    uint32_t n = s->pair_count;
    uint32_t nan_body = body_of_pair(w, n / 7), inf_body = body_of_pair(w, 2 * n / 7);
    uint32_t zero_body = body_of_pair(w, 3 * n / 7), shape_body = body_of_pair(w, 5 * n / 7);
    w->transforms[nan_body].p.y = NAN;
    body_status[nan_body] = MF_ERR_NONFINITE;
    w->transforms[inf_body].q.z = INFINITY;
    body_status[inf_body] = MF_ERR_NONFINITE;
    w->transforms[zero_body].q = (mf_quat){0, 0, 0, 0};
    body_status[zero_body] = MF_ERR_INVALID_ARGUMENT;
    w->shapes[shape_body] = mf_bank_shape_count(s->bank) + 3;
    body_status[shape_body] = MF_ERR_INVALID_ARGUMENT;
    // Pairs replaced: a body out of range (either side), a body with itself; the first and last
    // pairs among them, so that chunks begin and end with a bad pair.
    w->pairs[0] = (mf_pair){s->body_count + 5, w->pairs[0].b};
    w->pairs[n - 1] = (mf_pair){w->pairs[n - 1].a, UINT32_MAX};
    w->pairs[4 * n / 7] = (mf_pair){w->pairs[4 * n / 7].a, w->pairs[4 * n / 7].a};
    for (uint32_t i = n / 2; i < n / 2 + 5 && i < n; ++i) w->pairs[i] = (mf_pair){i % 3, i % 3}; // a run of them
    for (uint32_t i = 0; i < n; ++i) {
        mf_pair p = w->pairs[i];
        mf_status status = MF_OK;
        if (p.a == p.b || p.a >= s->body_count || p.b >= s->body_count) status = MF_ERR_INVALID_ARGUMENT;
        else if (body_status[p.a] != MF_OK) status = body_status[p.a];
        else status = body_status[p.b];
        w->bad[i] = status != MF_OK;
        w->why[i] = status;
        w->bad_count += w->bad[i];
        w->good_index[i] = w->good_count;
        if (!w->bad[i]) w->good_pairs[w->good_count++] = p;
    }
    free(body_status);
    CHECKF(w->bad_count >= 10 && w->good_count > n / 2, "%s: %u bad pairs of %u", name, w->bad_count, n);
}

static void world_free(world *w)
{
    free(w->shapes);
    free(w->transforms);
    free(w->pairs);
    free(w->bad);
    free(w->why);
    free(w->good_pairs);
    free(w->good_index);
    scene_free(&w->s);
}

static mf_bodies world_bodies(const world *w)
{
    return (mf_bodies){.shape = w->shapes, .transform = w->transforms, .count = w->s.body_count};
}

// How a call is made.
typedef struct setup {
    mf_isa isa;
    uint32_t threads; // 1 or 2; with job_system, its worker_count
    int job_system;   // the deferred job system above
    int cached;       // mf_collide_cached, from entries of a step before
    int short_stream; // room for the output but not for every pair's largest manifold (the rounds)
} setup;

static void describe(const setup *c, char *text, size_t size)
{
    snprintf(text, size, "%s, %u thread%s%s, %s, %s stream, seed %llu", mf_isa_name(c->isa), c->threads,
             c->threads == 1 ? "" : "s", c->job_system ? " (job system)" : "", c->cached ? "cached" : "uncached",
             c->short_stream ? "short" : "full", (unsigned long long)seed);
}

static mf_context *context_for(const setup *c, mf_fault_mode on_fault)
{
    mf_config config = mf_config_default();
    config.isa = c->isa;
    config.threads = c->threads;
    config.on_fault = on_fault;
    if (c->job_system) {
        config.enqueue_task = enqueue_deferred;
        config.finish_task = finish_deferred;
        config.worker_count = c->threads;
    }
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(&config, &context), MF_OK);
    return context;
}

typedef struct output {
    mf_status status;
    mf_stream stream;
    mf_pair_cache *cache; // NULL uncached
} output;

static output output_make(uint32_t pair_count, uint32_t manifold_capacity, uint32_t fault_capacity)
{
    uint32_t manifolds, contacts;
    mf_stream_bound(pair_count, mf_config_default().max_contacts, &manifolds, &contacts);
    if (manifold_capacity < manifolds) manifolds = manifold_capacity;
    output out = {MF_OK,
                  {calloc(manifolds + 1, sizeof(mf_manifold)), manifolds, 0, calloc(contacts + 1, sizeof(mf_contact)),
                   contacts, 0, 0, calloc(fault_capacity + 1, sizeof(mf_fault)), fault_capacity, 0},
                  NULL};
    return out;
}

static void output_free(output *out)
{
    free(out->stream.manifolds);
    free(out->stream.contacts);
    free(out->stream.faults);
    free(out->cache);
}

// The entries of a step before, with every pair valid: the scene's own bodies and pairs.
static mf_pair_cache *entries_before(const world *w)
{
    mf_pair_cache *cache = calloc(w->pair_count, sizeof(mf_pair_cache));
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(NULL, &context), MF_OK);
    output out = output_make(w->pair_count, UINT32_MAX, 0);
    mf_bodies bodies = scene_bodies(&w->s);
    CHECK_EQ(mf_collide_cached(context, w->s.bank, &bodies, w->s.pairs, w->pair_count, cache, &out.stream), MF_OK);
    output_free(&out);
    mf_context_destroy(context);
    return cache;
}

static void run(mf_context *context, const world *w, const mf_pair *pairs, uint32_t pair_count, mf_pair_cache *cache,
                output *out)
{
    mf_bodies bodies = world_bodies(w);
    out->cache = cache;
    out->status = cache != NULL ? mf_collide_cached(context, w->s.bank, &bodies, pairs, pair_count, cache, &out->stream)
                                : mf_collide(context, w->s.bank, &bodies, pairs, pair_count, &out->stream);
}

// The reference: the good pairs alone, under MF_FAULT_STOP (which would refuse a bad one).
static output reference(const world *w, const setup *c, const mf_pair_cache *before)
{
    mf_context *context = context_for(c, MF_FAULT_STOP);
    output out = output_make(w->good_count, UINT32_MAX, 0);
    mf_pair_cache *cache = NULL;
    if (c->cached) {
        cache = malloc(w->good_count * sizeof(mf_pair_cache));
        for (uint32_t i = 0; i < w->pair_count; ++i)
            if (!w->bad[i]) cache[w->good_index[i]] = before[i];
    }
    run(context, w, w->good_pairs, w->good_count, cache, &out);
    CHECKF(out.status == MF_OK, "the good pairs alone: %s (%s)", mf_status_string(out.status),
           mf_context_message(context));
    mf_context_destroy(context);
    return out;
}

// The skipping call's manifolds are the reference's, pair indices mapped, each byte the same;
// manifolds [0, count) of the skipping call against the reference's first ones.
static int same_manifolds(const world *w, const output *skip, const output *ref, uint32_t count, const char *what)
{
    for (uint32_t m = 0; m < count; ++m) {
        const mf_manifold *x = &skip->stream.manifolds[m], *y = &ref->stream.manifolds[m];
        int same = x->pair < w->pair_count && !w->bad[x->pair] && w->good_index[x->pair] == y->pair &&
                   x->count == y->count && memcmp(&x->normal, &y->normal, sizeof(mf_vec3)) == 0 &&
                   memcmp(&skip->stream.contacts[x->first], &ref->stream.contacts[y->first],
                          x->count * sizeof(mf_contact)) == 0;
        if (!same) {
            CHECKF(0, "%s: manifold %u (pair %u) differs from the good pairs' call (pair %u)", what, m, x->pair,
                   y->pair);
            return 0;
        }
    }
    return 1;
}

static void check_faults(const world *w, const output *skip, uint32_t pairs_done, const char *what)
{
    uint32_t expected = 0;
    for (uint32_t i = 0; i < pairs_done; ++i) {
        if (!w->bad[i]) continue;
        if (expected < skip->stream.fault_capacity) {
            mf_fault f = skip->stream.faults[expected];
            CHECKF(f.pair == i && f.status == w->why[i], "%s: fault %u is pair %u (%d), expected pair %u (%d)", what,
                   expected, f.pair, f.status, i, w->why[i]);
        }
        ++expected;
    }
    CHECKF(skip->stream.fault_count == expected, "%s: fault_count %u, expected %u", what, skip->stream.fault_count,
           expected);
}

// One setup: the skipping call on every pair against the good pairs' call.
static void check_setup(const world *w, const setup *c, const mf_pair_cache *before)
{
    char what[160];
    describe(c, what, sizeof(what));
    output ref = reference(w, c, before);
    uint32_t capacity = c->short_stream ? ref.stream.manifold_count : UINT32_MAX;
    output skip = output_make(w->pair_count, capacity, w->pair_count);
    mf_pair_cache *cache = NULL;
    if (c->cached) {
        cache = malloc(w->pair_count * sizeof(mf_pair_cache));
        memcpy(cache, before, w->pair_count * sizeof(mf_pair_cache));
    }
    mf_context *context = context_for(c, MF_FAULT_SKIP);
    run(context, w, w->pairs, w->pair_count, cache, &skip);
    CHECKF(skip.status == MF_OK, "%s: %s (%s)", what, mf_status_string(skip.status), mf_context_message(context));
    CHECKF(skip.stream.manifold_count == ref.stream.manifold_count &&
               skip.stream.contact_count == ref.stream.contact_count,
           "%s: %u manifolds and %u contacts, the good pairs alone %u and %u", what, skip.stream.manifold_count,
           skip.stream.contact_count, ref.stream.manifold_count, ref.stream.contact_count);
    CHECK_EQ(skip.stream.pairs_done, w->pair_count);
    uint32_t count =
        skip.stream.manifold_count < ref.stream.manifold_count ? skip.stream.manifold_count : ref.stream.manifold_count;
    same_manifolds(w, &skip, &ref, count, what);
    check_faults(w, &skip, w->pair_count, what);
    CHECKF(strstr(mf_context_message(context), "skipped, the first: ") != NULL, "%s: message \"%s\"", what,
           mf_context_message(context));
    for (uint32_t i = 0; c->cached && i < w->pair_count; ++i) {
        static const mf_pair_cache empty = {0};
        const mf_pair_cache *expected = w->bad[i] ? &empty : &ref.cache[w->good_index[i]];
        if (memcmp(&cache[i], expected, sizeof(mf_pair_cache)) != 0) {
            CHECKF(0, "%s: pair %u's cache entry differs from %s", what, i,
                   w->bad[i] ? "an empty one" : "the good pairs' call's");
            break;
        }
    }
    mf_context_destroy(context);
    output_free(&skip);
    output_free(&ref);
}

static void check_every_setup(const char *name, uint32_t pair_count)
{
    world w;
    world_make(&w, name, pair_count);
    mf_pair_cache *before = entries_before(&w);
    for (unsigned k = 0; k < TEST_ISA_COUNT; ++k) {
        if (!mf_isa_supported(test_isas[k])) continue;
        for (uint32_t threads = 1; threads <= 2; ++threads)
            for (int cached = 0; cached <= 1; ++cached)
                for (int short_stream = 0; short_stream <= 1; ++short_stream) {
                    setup c = {test_isas[k], threads, 0, cached, short_stream};
                    check_setup(&w, &c, before);
                }
    }
    for (int cached = 0; cached <= 1; ++cached)
        for (int short_stream = 0; short_stream <= 1; ++short_stream) {
            setup c = {MF_ISA_AUTO, 2, 1, cached, short_stream};
            check_setup(&w, &c, before);
        }
    free(before);
    world_free(&w);
}

// ---- tests ----

static void skipped_pairs_leave_box_manifolds_unchanged(void) { check_every_setup("box_resting", 5000); }

static void skipped_pairs_leave_mixed_manifolds_unchanged(void) { check_every_setup("pile_step", 5000); }

static void skipped_pairs_leave_hull_manifolds_unchanged(void) { check_every_setup("hull16", 3000); }

static void fault_count_is_exact_past_the_capacity(void)
{
    world w;
    world_make(&w, "box_resting", 3000);
    for (uint32_t fault_capacity = 0; fault_capacity <= 3; ++fault_capacity) {
        setup c = {MF_ISA_AUTO, 1, 0, 0, 0};
        mf_context *context = context_for(&c, MF_FAULT_SKIP);
        output out = output_make(w.pair_count, UINT32_MAX, fault_capacity);
        if (fault_capacity == 0) { // NULL with capacity 0 asks for the count alone
            free(out.stream.faults);
            out.stream.faults = NULL;
        } else {
            out.stream.faults[fault_capacity] = (mf_fault){12345, MF_ERR_CAPACITY};
        }
        run(context, &w, w.pairs, w.pair_count, NULL, &out);
        CHECK_EQ(out.status, MF_OK);
        check_faults(&w, &out, w.pair_count, "a short fault list");
        CHECK_EQ(out.stream.fault_count, w.bad_count);
        if (fault_capacity > 0) // nothing written past the capacity
            CHECK(out.stream.faults[fault_capacity].pair == 12345 &&
                  out.stream.faults[fault_capacity].status == MF_ERR_CAPACITY);
        output_free(&out);
        mf_context_destroy(context);
    }
    world_free(&w);
}

// A full stream stops at an exact pair: its manifolds are the good pairs' call's up to there, its
// faults those before it, and the call resumed from there lists the rest.
static void capacity_error_keeps_the_faults_before_pairs_done(void)
{
    world w;
    world_make(&w, "box_resting", 5000);
    for (uint32_t threads = 1; threads <= 2; ++threads) {
        setup c = {MF_ISA_AUTO, threads, 0, 0, 1};
        output ref = reference(&w, &c, NULL);
        mf_context *context = context_for(&c, MF_FAULT_SKIP);
        output out = output_make(w.pair_count, ref.stream.manifold_count / 2, w.pair_count);
        run(context, &w, w.pairs, w.pair_count, NULL, &out);
        CHECK_EQ(out.status, MF_ERR_CAPACITY);
        uint32_t done = out.stream.pairs_done;
        CHECK(done > 0 && done < w.pair_count);
        CHECK_EQ(out.stream.manifold_count, ref.stream.manifold_count / 2);
        same_manifolds(&w, &out, &ref, out.stream.manifold_count, "capacity");
        // The pair it stopped at is the next manifold's.
        const mf_manifold *next = &ref.stream.manifolds[out.stream.manifold_count];
        CHECK(!w.bad[done] && w.good_index[done] == next->pair);
        check_faults(&w, &out, done, "capacity");
        // Resumed: the rest of the faults, counted from the new start.
        output rest = output_make(w.pair_count - done, UINT32_MAX, w.pair_count);
        run(context, &w, w.pairs + done, w.pair_count - done, NULL, &rest);
        CHECK_EQ(rest.status, MF_OK);
        CHECK_EQ(out.stream.fault_count + rest.stream.fault_count, w.bad_count);
        for (uint32_t f = 0; f < rest.stream.fault_count; ++f) CHECK(w.bad[done + rest.stream.faults[f].pair]);
        output_free(&rest);
        output_free(&out);
        output_free(&ref);
        mf_context_destroy(context);
    }
    world_free(&w);
}

// MF_FAULT_STOP (the default): the call fails at the first bad pair, as it always did.
static void stop_fails_the_call_at_the_first_bad_pair(void)
{
    CHECK_EQ(mf_config_default().on_fault, MF_FAULT_STOP);
    CHECK_EQ(MF_FAULT_STOP, 0); // a zero-initialised config stops
    world w;
    world_make(&w, "box_resting", 3000);
    for (int cached = 0; cached <= 1; ++cached) {
        setup c = {MF_ISA_AUTO, 2, 0, cached, 0};
        mf_context *context = context_for(&c, MF_FAULT_STOP);
        output out = output_make(w.pair_count, UINT32_MAX, 8);
        out.stream.fault_count = 99;
        mf_pair_cache *cache = cached ? calloc(w.pair_count, sizeof(mf_pair_cache)) : NULL;
        run(context, &w, w.pairs, w.pair_count, cache, &out);
        CHECK_EQ(out.status, w.why[0]);
        CHECK(out.stream.manifold_count == 0 && out.stream.pairs_done == 0 && out.stream.fault_count == 0);
        CHECKF(strstr(mf_context_message(context), "pair 0 names body") != NULL, "message \"%s\"",
               mf_context_message(context));
        output_free(&out);
        mf_context_destroy(context);
    }
    world_free(&w);
}

// A call with nothing to skip lists no faults and leaves the message empty.
static void a_valid_call_lists_no_faults(void)
{
    scene s;
    CHECK_EQ(scene_make("box_box", 3000, seed, &s), MF_OK);
    setup c = {MF_ISA_AUTO, 2, 0, 0, 0};
    mf_context *context = context_for(&c, MF_FAULT_SKIP);
    output out = output_make(s.pair_count, UINT32_MAX, 4);
    out.stream.fault_count = 99;
    mf_bodies bodies = scene_bodies(&s);
    CHECK_EQ(mf_collide(context, s.bank, &bodies, s.pairs, s.pair_count, &out.stream), MF_OK);
    CHECK_EQ(out.stream.fault_count, 0);
    CHECK_EQ(strlen(mf_context_message(context)), 0);
    // A NULL fault list with a capacity is refused.
    free(out.stream.faults);
    out.stream.faults = NULL;
    CHECK_EQ(mf_collide(context, s.bank, &bodies, s.pairs, s.pair_count, &out.stream), MF_ERR_INVALID_ARGUMENT);
    output_free(&out);
    mf_context_destroy(context);
    scene_free(&s);
}

static void bad_fault_mode_is_refused(void)
{
    mf_config config = mf_config_default();
    config.on_fault = (mf_fault_mode)2;
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(&config, &context), MF_ERR_INVALID_ARGUMENT);
    CHECK(context == NULL);
    char detail[128];
    CHECK_EQ(mf_config_check(&config, detail, sizeof(detail)), MF_ERR_INVALID_ARGUMENT);
    CHECKF(strcmp(detail, "on_fault is 2: it must be MF_FAULT_STOP or MF_FAULT_SKIP") == 0, "detail \"%s\"", detail);
}

static const test_case tests[] = {
    TEST_CASE(skipped_pairs_leave_box_manifolds_unchanged),
    TEST_CASE(skipped_pairs_leave_mixed_manifolds_unchanged),
    TEST_CASE(skipped_pairs_leave_hull_manifolds_unchanged),
    TEST_CASE(fault_count_is_exact_past_the_capacity),
    TEST_CASE(capacity_error_keeps_the_faults_before_pairs_done),
    TEST_CASE(stop_fails_the_call_at_the_first_bad_pair),
    TEST_CASE(a_valid_call_lists_no_faults),
    TEST_CASE(bad_fault_mode_is_refused),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
