// A run of an engine on a scene and its measures (sim_run.h).
#include "sim_run.h"

#include "scene_broadphase.h"
#include "scene_math.h"
#include "scene_store.h"
#include "sim_scene.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct sim_run {
    const sim_engine *engine;
    sim_world *world;
    const scene *s;
    const uint8_t *is_static;
    double step;
    mf_transform *poses;
    int horizontal[2];                 // the axes other than the scene's up, in order
    float start_low[2], start_high[2]; // along them, the moving bodies at the start, shapes included
    float ground_top;                  // along up: the lowest top of a static body

    // The penetration measure: its own broad phase and context, margin 0.
    scene_broadphase *broadphase;
    mf_context *context;
    mf_pair *pairs; // those with a moving body
    mf_manifold *manifolds;
    mf_contact *contacts;
    uint32_t pair_capacity, manifold_capacity, contact_capacity;

    uint32_t top;
    sim_sample *samples;
    uint32_t sample_count, sample_capacity;
};

// Grows an array to hold at least `needed` items: doubling, or to `needed` itself where doubling
// would pass UINT32_MAX. 0 when out of memory or when the bytes do not fit a size_t.
static int grow(void **items, uint32_t *capacity, uint32_t needed, size_t item_size)
{
    if (needed <= *capacity) return 1;
    uint32_t size = *capacity > 0 ? *capacity : 64;
    while (size < needed) size = size > UINT32_MAX / 2 ? needed : 2 * size;
    if (size > SIZE_MAX / item_size) return 0;
    void *grown = realloc(*items, (size_t)size * item_size);
    if (grown == NULL) return 0;
    *items = grown;
    *capacity = size;
    return 1;
}

static float shape_radius(const scene *s, uint32_t shape)
{
    mf_shape_info info;
    return mf_bank_shape_info(s->bank, shape, &info) == MF_OK ? info.radius : 0.0f;
}

static float coordinate(mf_vec3 p, int axis) { return axis == 0 ? p.x : axis == 1 ? p.y : p.z; }

static void find_start_box_and_top(sim_run *run)
{
    const scene *s = run->s;
    run->horizontal[0] = s->up == SCENE_AXIS_X ? 1 : 0;
    run->horizontal[1] = s->up == SCENE_AXIS_Z ? 1 : 2;
    run->start_low[0] = run->start_low[1] = INFINITY;
    run->start_high[0] = run->start_high[1] = -INFINITY;
    float top_height = -INFINITY;
    mf_vec3 up = {s->up == SCENE_AXIS_X, s->up == SCENE_AXIS_Y, s->up == SCENE_AXIS_Z};
    run->ground_top = INFINITY;
    for (uint32_t i = 0; i < s->body_count; ++i) {
        if (!run->is_static[i]) continue;
        mf_transform t = s->body_transform[i];
        float top = scene_along(t.p, s->up) + scene_store_support(s, s->body_shape[i], scene_unrotate(t.q, up));
        run->ground_top = fminf(run->ground_top, top);
    }
    for (uint32_t i = 0; i < s->body_count; ++i) {
        if (run->is_static[i]) continue;
        mf_vec3 p = s->body_transform[i].p;
        float r = shape_radius(s, s->body_shape[i]);
        for (int k = 0; k < 2; ++k) {
            float h = coordinate(p, run->horizontal[k]);
            run->start_low[k] = fminf(run->start_low[k], h - r);
            run->start_high[k] = fmaxf(run->start_high[k], h + r);
        }
        float height = scene_along(p, s->up);
        if (height >= top_height) top_height = height, run->top = i;
    }
}

mf_status sim_run_create(const sim_engine *engine, const scene *s, const uint8_t *is_static,
                         const sim_settings *settings, sim_run **out)
{
    if (out == NULL) return MF_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (engine == NULL || s == NULL || is_static == NULL || settings == NULL) return MF_ERR_INVALID_ARGUMENT;
    sim_run *run = calloc(1, sizeof(sim_run));
    if (run == NULL) return MF_ERR_OUT_OF_MEMORY;
    run->engine = engine;
    run->s = s;
    run->is_static = is_static;
    run->step = settings->step;
    run->poses = malloc((s->body_count > 0 ? s->body_count : 1) * sizeof(mf_transform));
    run->broadphase = scene_broadphase_create(s->bank);
    mf_config config = mf_config_default();
    config.margin = 0.0f;
    config.threads = 1;
    mf_status status = run->poses != NULL && run->broadphase != NULL ? MF_OK : MF_ERR_OUT_OF_MEMORY;
    if (status == MF_OK) status = mf_context_create(&config, &run->context);
    if (status == MF_OK) status = engine->create(s, is_static, settings, &run->world);
    if (status != MF_OK) {
        sim_run_destroy(run);
        return status;
    }
    for (uint32_t i = 0; i < s->body_count; ++i) run->poses[i] = s->body_transform[i];
    find_start_box_and_top(run);
    *out = run;
    return MF_OK;
}

void sim_run_destroy(sim_run *run)
{
    if (run == NULL) return;
    if (run->world != NULL) run->engine->destroy(run->world);
    scene_broadphase_destroy(run->broadphase);
    mf_context_destroy(run->context);
    free(run->poses);
    free(run->pairs);
    free(run->manifolds);
    free(run->contacts);
    free(run->samples);
    free(run);
}

// The deepest overlap between the bodies as posed now, by manyfold with margin 0.
static mf_status measure_penetration(sim_run *run, double *penetration)
{
    mf_bodies bodies = {.shape = run->s->body_shape, .transform = run->poses, .count = run->s->body_count};
    const mf_pair *found;
    uint32_t found_count, count = 0;
    mf_status status = scene_broadphase_find_pairs(run->broadphase, run->context, &bodies, 0.0f, &found, &found_count);
    if (status != MF_OK) return status;
    if (!grow((void **)&run->pairs, &run->pair_capacity, found_count, sizeof(mf_pair))) return MF_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < found_count; ++i)
        if (!run->is_static[found[i].a] || !run->is_static[found[i].b]) run->pairs[count++] = found[i];
    uint32_t manifolds, contacts;
    mf_stream_bound(count, MF_MAX_CONTACTS, &manifolds, &contacts);
    if (!grow((void **)&run->manifolds, &run->manifold_capacity, manifolds, sizeof(mf_manifold)) ||
        !grow((void **)&run->contacts, &run->contact_capacity, contacts, sizeof(mf_contact)))
        return MF_ERR_OUT_OF_MEMORY;
    mf_stream stream = {
        run->manifolds, run->manifold_capacity, 0, run->contacts, run->contact_capacity, 0, 0, NULL, 0, 0};
    status = mf_collide(run->context, run->s->bank, &bodies, run->pairs, count, &stream);
    if (status != MF_OK) return status;
    float deepest = 0.0f;
    for (uint32_t c = 0; c < stream.contact_count; ++c) deepest = fminf(deepest, run->contacts[c].separation);
    *penetration = -(double)deepest;
    return MF_OK;
}

mf_status sim_run_step(sim_run *run)
{
    sim_step_report report;
    mf_status status = run->engine->step(run->world, &report);
    if (status != MF_OK) return status;
    if (!grow((void **)&run->samples, &run->sample_capacity, run->sample_count + 1, sizeof(sim_sample)))
        return MF_ERR_OUT_OF_MEMORY;
    sim_sample sample = {.time = run->step * (run->sample_count + 1),
                         .collide_ms = 1e3 * report.collide_seconds,
                         .pair_count = report.pair_count,
                         .contact_count = report.contact_count};
    double speed_sum = 0.0;
    uint32_t moving = 0;
    for (uint32_t i = 0; i < run->s->body_count; ++i) {
        mf_vec3 v;
        run->engine->body_state(run->world, i, &run->poses[i], &v, NULL);
        if (run->is_static[i]) continue;
        double speed = sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
        speed_sum += speed;
        sample.max_speed = fmax(sample.max_speed, speed);
        ++moving;
    }
    sample.mean_speed = moving > 0 ? speed_sum / moving : 0.0;
    mf_vec3 start = run->s->body_transform[run->top].p, now = run->poses[run->top].p;
    const int *h = run->horizontal;
    sample.drift = hypot((double)coordinate(now, h[0]) - coordinate(start, h[0]),
                         (double)coordinate(now, h[1]) - coordinate(start, h[1]));
    sample.sink = (double)scene_along(start, run->s->up) - scene_along(now, run->s->up);
    status = measure_penetration(run, &sample.penetration);
    if (status != MF_OK) return status;
    run->samples[run->sample_count++] = sample;
    return MF_OK;
}

const sim_sample *sim_run_samples(const sim_run *run, uint32_t *count)
{
    *count = run->sample_count;
    return run->samples;
}

const mf_transform *sim_run_poses(const sim_run *run) { return run->poses; }

uint32_t sim_run_top_body(const sim_run *run) { return run->top; }

static uint32_t count_escaped(const sim_run *run)
{
    uint32_t escaped = 0;
    for (uint32_t i = 0; i < run->s->body_count; ++i) {
        if (run->is_static[i]) continue;
        mf_vec3 p = run->poses[i].p;
        int out = scene_along(p, run->s->up) < run->ground_top - SIM_ESCAPE_DISTANCE;
        for (int k = 0; k < 2; ++k) {
            float h = coordinate(p, run->horizontal[k]);
            out |= h < run->start_low[k] - SIM_ESCAPE_DISTANCE || h > run->start_high[k] + SIM_ESCAPE_DISTANCE;
        }
        escaped += (uint32_t)out;
    }
    return escaped;
}

sim_figures sim_run_figures(const sim_run *run)
{
    sim_figures f = {.steps = run->sample_count, .escaped = count_escaped(run)};
    if (run->sample_count == 0) return f;
    f.max_sink = run->samples[0].sink; // a body that rises sinks by less than 0
    f.seconds = run->samples[run->sample_count - 1].time;
    uint32_t last_second = (uint32_t)ceil(1.0 / run->step - 1e-9);
    uint32_t settled_from = run->sample_count > last_second ? run->sample_count - last_second : 0;
    double collide_sum = 0.0, pair_sum = 0.0, contact_sum = 0.0, mean_speed_sum = 0.0;
    for (uint32_t i = 0; i < run->sample_count; ++i) {
        const sim_sample *s = &run->samples[i];
        f.max_penetration = fmax(f.max_penetration, s->penetration);
        f.max_drift = fmax(f.max_drift, s->drift);
        f.max_sink = fmax(f.max_sink, s->sink);
        collide_sum += s->collide_ms;
        pair_sum += s->pair_count;
        contact_sum += s->contact_count;
        if (i < settled_from) continue;
        f.max_penetration_settled = fmax(f.max_penetration_settled, s->penetration);
        f.max_speed = fmax(f.max_speed, s->max_speed);
        mean_speed_sum += s->mean_speed;
    }
    f.mean_speed = mean_speed_sum / (run->sample_count - settled_from);
    f.final_drift = run->samples[run->sample_count - 1].drift;
    f.final_sink = run->samples[run->sample_count - 1].sink;
    f.collide_ms = collide_sum / run->sample_count;
    f.pairs = pair_sum / run->sample_count;
    f.contacts = contact_sum / run->sample_count;
    return f;
}

mf_status sim_run_scene(const sim_engine *engine, const char *name, uint64_t seed, const sim_settings *settings,
                        double seconds, sim_figures *figures)
{
    scene s;
    uint8_t *is_static = NULL;
    mf_status status = sim_scene_make(name, seed, &s, &is_static);
    if (status != MF_OK) return status;
    sim_run *run = NULL;
    status = sim_run_create(engine, &s, is_static, settings, &run);
    uint32_t steps = (uint32_t)ceil(seconds / settings->step - 1e-9);
    for (uint32_t i = 0; status == MF_OK && i < steps; ++i) status = sim_run_step(run);
    if (status == MF_OK) *figures = sim_run_figures(run);
    sim_run_destroy(run);
    free(is_static);
    scene_free(&s);
    return status;
}
