// The temporal coherence benchmarks: mf_collide_cached over a scene that moves a little every
// iteration. Motion is precomputed (bench_scene_steps) and the cache allocated before the loop;
// the loop only picks the step's poses, (cold) zeroes the cache with the clock stopped, and collides.
#include "collide.h"

#include "machine.h"
#include "stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct difference {
    double presence; // fraction of pairs that have a manifold in one stream and not the other
    double normal;   // fraction of pairs in both whose normals differ by more than 8 degrees
} difference;

// Compares two outputs for the same pairs, both in increasing pair order.
static difference compare_streams(const mf_stream *cached, const mf_stream *plain, uint32_t pair_count)
{
    uint32_t i = 0, k = 0, presence = 0, normal = 0;
    while (i < cached->manifold_count || k < plain->manifold_count) {
        uint32_t a = i < cached->manifold_count ? cached->manifolds[i].pair : UINT32_MAX;
        uint32_t b = k < plain->manifold_count ? plain->manifolds[k].pair : UINT32_MAX;
        if (a != b) {
            ++presence;
            a < b ? ++i : ++k;
            continue;
        }
        mf_vec3 n = cached->manifolds[i++].normal, m = plain->manifolds[k++].normal;
        normal += n.x * m.x + n.y * m.y + n.z * m.z < 0.99f;
    }
    double pairs = pair_count > 0 ? pair_count : 1;
    return (difference){presence / pairs, normal / pairs};
}

// How calls answered their pairs: entries per route (MF_ROUTE_*), summed over calls.
static void count_routes(const mf_pair_cache *cache, uint32_t pair_count, uint64_t routes[5])
{
    for (uint32_t i = 0; i < pair_count; ++i) routes[cache[i].route < 5 ? cache[i].route : 0]++;
}

static void report_routes(bench_state *state, const uint64_t routes[5])
{
    double all = 0;
    for (int k = 0; k < 5; ++k) all += (double)routes[k];
    all = all > 0 ? all : 1;
    bench_counter(state, "route_searched", (double)routes[MF_ROUTE_SEARCHED] / all);
    bench_counter(state, "route_apart", (double)routes[MF_ROUTE_APART] / all);
    bench_counter(state, "route_clipped", (double)routes[MF_ROUTE_CLIPPED] / all);
    bench_counter(state, "route_reused", (double)routes[MF_ROUTE_REUSED] / all);
}

// Whether two manifolds name different sets of contact features.
static int ids_differ(const mf_stream *x, const mf_manifold *m, const mf_stream *y, const mf_manifold *n)
{
    if (m->count != n->count) return 1;
    for (uint32_t k = 0; k < m->count; ++k) {
        int found = 0;
        for (uint32_t j = 0; j < n->count && !found; ++j)
            found = x->contacts[m->first + k].id == y->contacts[n->first + j].id;
        if (!found) return 1;
    }
    return 0;
}

typedef struct persistence {
    uint64_t persisting, flips, id_changes;
} persistence;

// Among the pairs with a manifold in both of two consecutive steps: normals that turned by more
// than 5 degrees, and id sets that changed.
static void compare_steps(const mf_stream *before, const mf_stream *after, persistence *p)
{
    uint32_t i = 0, k = 0;
    const float cos5 = 0.9961947f;
    while (i < before->manifold_count && k < after->manifold_count) {
        const mf_manifold *m = &before->manifolds[i], *n = &after->manifolds[k];
        if (m->pair != n->pair) {
            m->pair < n->pair ? ++i : ++k;
            continue;
        }
        p->persisting++;
        p->flips += m->normal.x * n->normal.x + m->normal.y * n->normal.y + m->normal.z * n->normal.z < cos5;
        p->id_changes += ids_differ(before, m, after, n);
        ++i, ++k;
    }
}

void bench_collide_cached(bench_state *state, void *context)
{
    const cached_case *c = context;
    const scene *s = &c->scene->scene;
    char message[512];

    mf_config config = mf_config_default();
    config.threads = 1; // the ratio of warm to cold shows the cache, not threads
    const mf_transform *steps = bench_scene_steps(c->scene);
    size_t cache_size = ((size_t)s->pair_count + 1) * sizeof(mf_pair_cache);
    mf_pair_cache *cache = calloc(1, cache_size); // empty entries
    mf_context *mf = NULL;
    mf_stream stream = {0}, plain = {0}, next = {0};
    mf_status status = steps != NULL && cache != NULL ? mf_context_create(&config, &mf) : MF_ERR_OUT_OF_MEMORY;
    if (status == MF_OK) status = bench_stream_create(&stream, s->pair_count, config.max_contacts);
    if (status == MF_OK) status = bench_stream_create(&plain, s->pair_count, config.max_contacts);
    if (status == MF_OK) status = bench_stream_create(&next, s->pair_count, config.max_contacts);
    if (status != MF_OK) {
        snprintf(message, sizeof(message), "setup failed: %s", mf_status_string(status));
        bench_fail(state, message);
        goto done;
    }
    bench_touch_pages(cache, cache_size);

    // Warm runs start from the cache the step before the first timed one leaves: every timed call
    // finds last step's entries, as in a simulation's steady state.
    mf_bodies bodies = {.shape = s->body_shape, .transform = steps, .count = s->body_count};
    uint32_t step = 0, last = SCENE_STEP_PERIOD - 1;
    if (c->warm) {
        bodies.transform = steps + (size_t)last * s->body_count;
        status = mf_collide_cached(mf, s->bank, &bodies, s->pairs, s->pair_count, cache, &stream);
    }
    while (status == MF_OK && bench_keep_running(state)) {
        if (!c->warm) {
            bench_pause_timing(state);
            memset(cache, 0, cache_size);
            bench_resume_timing(state);
        }
        bodies.transform = steps + (size_t)step * s->body_count;
        status = mf_collide_cached(mf, s->bank, &bodies, s->pairs, s->pair_count, cache, &stream);
        last = step;
        step = step + 1 < SCENE_STEP_PERIOD ? step + 1 : 0;
    }
    if (status != MF_OK) {
        snprintf(message, sizeof(message), "mf_collide_cached: %s %s", mf_status_string(status),
                 mf_context_message(mf));
        bench_fail(state, message);
        goto done;
    }

    // How the last output compares with mf_collide's on the same poses (not timed): the contract
    // promises the same touching pairs; normals may differ within the slop.
    bodies.transform = steps + (size_t)last * s->body_count;
    status = mf_collide(mf, s->bank, &bodies, s->pairs, s->pair_count, &plain);
    if (status != MF_OK) {
        snprintf(message, sizeof(message), "mf_collide: %s %s", mf_status_string(status), mf_context_message(mf));
        bench_fail(state, message);
        goto done;
    }
    double pairs = s->pair_count > 0 ? s->pair_count : 1;
    difference d = compare_streams(&stream, &plain, s->pair_count);
    bench_counter(state, "manifolds", stream.manifold_count / pairs);
    bench_counter(state, "contacts", stream.contact_count / pairs);
    bench_counter(state, "presence_differs", d.presence);
    bench_counter(state, "normal_differs", d.normal);

    // Over one more period of steps, from the last timed call's cache (warm) or from empty entries
    // every step (cold): the routes' shares, and normal flips and id-set changes between
    // consecutive steps.
    persistence p = {0, 0, 0};
    uint64_t routes[5] = {0};
    for (uint32_t k = 0; k < SCENE_STEP_PERIOD && status == MF_OK; ++k) {
        if (!c->warm) memset(cache, 0, cache_size);
        step = last + 1 < SCENE_STEP_PERIOD ? last + 1 : 0;
        bodies.transform = steps + (size_t)step * s->body_count;
        status = mf_collide_cached(mf, s->bank, &bodies, s->pairs, s->pair_count, cache, &next);
        if (status == MF_OK) compare_steps(&stream, &next, &p);
        count_routes(cache, s->pair_count, routes);
        mf_stream swap = stream;
        stream = next, next = swap;
        last = step;
    }
    report_routes(state, routes);
    double persisting = p.persisting > 0 ? (double)p.persisting : 1.0;
    bench_counter(state, "normal_flips", (double)p.flips / persisting);
    bench_counter(state, "id_changes", (double)p.id_changes / persisting);

done:
    bench_stream_destroy(&stream);
    bench_stream_destroy(&plain);
    bench_stream_destroy(&next);
    mf_context_destroy(mf);
    free(cache);
}
