// manyfold's benchmark body: one context per ISA and thread count, one stream allocated up front.
// It serves collide/<scene>/manyfold_*, the thread scaling family collide_threads/<scene>/<n>, its
// ceiling collide_copies/<scene>/<n> and the caller placement family collide_caller_cpu/<scene>/cpu<k>/<n>.
#include "collide.h"

#include "machine.h"
#include "stream.h"

#include <stdio.h>

void bench_collide_manyfold(bench_state *state, void *context)
{
    const manyfold_case *c = context;
    const scene *s = &c->scene->scene;
    char message[512];

    uint32_t hardware = bench_hardware_threads(), copies = c->copies > 1 ? c->copies : 1;
    if (c->threads * copies > hardware) {
        snprintf(message, sizeof(message), "%u threads: more than the %u hardware threads here", c->threads * copies,
                 hardware);
        bench_skip(state, message);
        return;
    }
    mf_config config = mf_config_default();
    config.isa = c->isa;
    config.threads = c->threads;
    mf_context *mf = NULL;
    mf_status status = mf_context_create(&config, &mf);
    if (status == MF_ERR_UNSUPPORTED_ISA) {
        snprintf(message, sizeof(message), "ISA %s: not in this build or not on this CPU", mf_isa_name(c->isa));
        bench_skip(state, message);
        return;
    }
    mf_stream stream = {0};
    uint32_t pair_count = c->pairs != 0 && c->pairs < s->pair_count ? c->pairs : s->pair_count;
    if (status == MF_OK) status = bench_stream_create(&stream, pair_count, config.max_contacts);
    if (status != MF_OK) {
        snprintf(message, sizeof(message), "setup failed: %s", mf_status_string(status));
        bench_fail(state, message);
        mf_context_destroy(mf);
        return;
    }

    if (c->threads > 0 && mf_context_threads(mf) != c->threads) {
        snprintf(message, sizeof(message), "asked for %u threads, the context runs %u", c->threads,
                 mf_context_threads(mf));
        bench_fail(state, message);
        bench_stream_destroy(&stream);
        mf_context_destroy(mf);
        return;
    }

    // Pinned after the context is made: a context counts the cores the process may run on.
    if (c->pin_caller && !bench_pin_caller(c->caller_cpu)) {
        snprintf(message, sizeof(message), "the calling thread cannot be pinned to CPU %d here", c->caller_cpu);
        bench_skip(state, message);
        bench_stream_destroy(&stream);
        mf_context_destroy(mf);
        return;
    }
    mf_bodies bodies = {.shape = s->body_shape, .transform = s->body_transform, .count = s->body_count};
    while (bench_keep_running(state)) {
        status = mf_collide(mf, s->bank, &bodies, s->pairs, pair_count, &stream);
        if (status != MF_OK) break;
    }
    if (c->pin_caller) bench_unpin_caller();

    if (status != MF_OK) {
        snprintf(message, sizeof(message), "mf_collide: %s %s", mf_status_string(status), mf_context_message(mf));
        bench_fail(state, message);
    } else {
        double pairs = pair_count > 0 ? pair_count : 1;
        bench_counter(state, "manifolds", stream.manifold_count / pairs);
        bench_counter(state, "contacts", stream.contact_count / pairs);
        bench_counter(state, "threads", mf_context_threads(mf) * copies); // of the whole run
    }
    bench_stream_destroy(&stream);
    mf_context_destroy(mf);
}
