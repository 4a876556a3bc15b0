// The size sweep's benchmark body: one scene at a time, made at the case's size, collided on one
// thread; the peak resident memory of the collision (scene, stream, context) as counters.
#include "collide.h"

#include "machine.h"
#include "stream.h"

#include <stdio.h>

// The scene of the case that ran last, kept for its repetitions, and what the process held
// before it was made.
static scene built;
static uint32_t built_pairs;
static const char *built_name;
static double baseline_mb;

static mf_status build(const size_case *c)
{
    if (built.bank != NULL && built_pairs == c->pairs && built_name == c->scene_name) return MF_OK;
    bench_size_release();
    bench_release_free_memory(); // else the new scene reuses freed pages and the growth hides
    baseline_mb = bench_resident_mb();
    mf_status status = scene_make(c->scene_name, c->pairs, BENCH_SEED, &built);
    if (status == MF_OK) built_pairs = c->pairs, built_name = c->scene_name;
    return status;
}

void bench_size_release(void)
{
    scene_free(&built);
    built_pairs = 0;
    built_name = NULL;
}

void bench_collide_size(bench_state *state, void *context)
{
    const size_case *c = context;
    char message[512];

    mf_status status = build(c);
    bench_release_free_memory();
    int reset = bench_reset_peak_resident(); // the peak of what follows: collision, not scene making
    mf_config config = mf_config_default();
    config.threads = 1;
    mf_context *mf = NULL;
    mf_stream stream = {0};
    if (status == MF_OK) status = mf_context_create(&config, &mf);
    if (status == MF_OK) status = bench_stream_create(&stream, built.pair_count, config.max_contacts);
    if (status != MF_OK) {
        snprintf(message, sizeof(message), "setup failed (%s, %u pairs): %s", c->scene_name, c->pairs,
                 mf_status_string(status));
        bench_fail(state, message);
        mf_context_destroy(mf);
        return;
    }

    mf_bodies bodies = {.shape = built.body_shape, .transform = built.body_transform, .count = built.body_count};
    while (bench_keep_running(state)) {
        status = mf_collide(mf, built.bank, &bodies, built.pairs, built.pair_count, &stream);
        if (status != MF_OK) break;
    }

    if (status != MF_OK) {
        snprintf(message, sizeof(message), "mf_collide: %s %s", mf_status_string(status), mf_context_message(mf));
        bench_fail(state, message);
    } else {
        double pairs = built.pair_count > 0 ? built.pair_count : 1;
        double peak = bench_peak_resident_mb();
        bench_counter(state, "manifolds", stream.manifold_count / pairs);
        bench_counter(state, "contacts", stream.contact_count / pairs);
        bench_counter(state, "peak_rss_mb", peak);
        // What this size added to the process: its scene, stream and context, at their peak.
        bench_counter(state, "added_rss_mb", peak - baseline_mb);
        bench_counter(state, "added_bytes_per_pair", (peak - baseline_mb) * 1048576.0 / pairs);
        bench_counter(state, "peak_rss_reset", reset); // 0: the peak may be an earlier benchmark's
    }
    bench_stream_destroy(&stream);
    mf_context_destroy(mf);
}
