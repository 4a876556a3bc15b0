// Scenes for the suite and their reference outcomes (see bench_scene.h).
#include "bench_scene.h"

#include "stream.h"

#include <stdio.h>
#include <stdlib.h>

static uint32_t requested_pairs(void)
{
    const char *text = getenv("MANYFOLD_BENCH_PAIRS");
    return text != NULL ? (uint32_t)strtoul(text, NULL, 10) : 0;
}

mf_status bench_scene_build(bench_scene *s, const char *name)
{
    *s = (bench_scene){0};
    mf_status status = scene_make(name, requested_pairs(), BENCH_SEED, &s->scene);
    if (status != MF_OK) return status;
    s->box_only = 1;
    for (uint32_t i = 0; i < s->scene.pair_count; ++i) {
        const mf_pair *pair = &s->scene.pairs[i];
        s->box_only &= s->scene.shapes[s->scene.body_shape[pair->a]].kind == SCENE_BOX &&
                       s->scene.shapes[s->scene.body_shape[pair->b]].kind == SCENE_BOX;
    }
    return MF_OK;
}

void bench_scene_release(bench_scene *s)
{
    scene_free(&s->scene);
    free(s->reference);
    free(s->steps);
    *s = (bench_scene){0};
}

const mf_transform *bench_scene_steps(bench_scene *s)
{
    if (s->steps != NULL) return s->steps;
    size_t bodies = s->scene.body_count;
    s->steps = malloc((SCENE_STEP_PERIOD * bodies + 1) * sizeof(mf_transform));
    for (uint32_t step = 0; s->steps != NULL && step < SCENE_STEP_PERIOD; ++step)
        scene_step(&s->scene, step, BENCH_SEED, s->steps + step * bodies);
    return s->steps;
}

const bench_outcome *bench_scene_reference(bench_scene *s, char *message, size_t message_size)
{
    if (s->reference != NULL) return s->reference;
    const scene *sc = &s->scene;
    mf_config config = mf_config_default();
    config.isa = MF_ISA_SCALAR;
    config.threads = 1;
    mf_context *context = NULL;
    mf_stream stream = {0};
    bench_outcome *outcomes = malloc(((size_t)sc->pair_count + 1) * sizeof(bench_outcome));
    mf_status status = outcomes != NULL ? mf_context_create(&config, &context) : MF_ERR_OUT_OF_MEMORY;
    if (status == MF_OK) status = bench_stream_create(&stream, sc->pair_count, config.max_contacts);
    if (status == MF_OK) {
        mf_bodies bodies = {.shape = sc->body_shape, .transform = sc->body_transform, .count = sc->body_count};
        status = mf_collide(context, sc->bank, &bodies, sc->pairs, sc->pair_count, &stream);
    }
    if (status == MF_OK) {
        bench_outcomes_from_stream(&stream, sc->pair_count, outcomes);
        s->reference = outcomes;
    } else {
        snprintf(message, message_size, "manyfold reference (scalar) failed: %s %s", mf_status_string(status),
                 context != NULL ? mf_context_message(context) : "");
        free(outcomes);
    }
    bench_stream_destroy(&stream);
    mf_context_destroy(context);
    return s->reference;
}
