// Per-body scale (mf_bodies.scales): a scale of 1 changes no byte; a scaled shape collides as an
// unscaled shape of scaled points; every ISA gives the same bytes for scaled bodies, cached or not;
// the cache matches the uncached call on scaled bodies and never reuses an entry across a change of
// scale; bad scales fail the call (MF_FAULT_STOP) or skip their pairs (MF_FAULT_SKIP). The
// brute-force checks of scaled pairs on every ISA are the property runs (tests/meson.build,
// property_scaled_*). Scenes come from tools/scene and random poses from fixed seeds, printed on
// failure.
#include "check.h"
#include "harness.h"
#include "random.h"
#include "reference.h"
#include "scene.h"

#include <float.h>
#include <math.h>

// A scale per body, log-uniform in [low, high], every fifth exactly 1.
static float *random_scales(uint32_t count, uint64_t seed, float low, float high)
{
    float *scales = malloc((count + 1) * sizeof(float));
    test_random random = test_random_seed(seed, 77);
    for (uint32_t i = 0; i < count; ++i)
        scales[i] = i % 5 == 0 ? 1.0f : (float)(low * pow((double)high / low, test_random_unit(&random)));
    return scales;
}

// Small moves of every body: step `step` of a slow drift and turn, the same for every call.
static void drift(const scene *s, int step, mf_transform *moved)
{
    for (uint32_t k = 0; k < s->body_count; ++k) {
        mf_transform t = s->body_transform[k];
        t.p.x += 1e-4f * (float)step * (float)((int)(k % 7) - 3);
        t.p.z += 2e-4f * (float)step * (float)((int)(k % 5) - 2);
        float h = 5e-4f * (float)step * (float)((int)(k % 3) - 1);
        mf_quat q = t.q, d = {sinf(h), 0.0f, 0.0f, cosf(h)};
        t.q = (mf_quat){d.w * q.x + d.x * q.w, d.w * q.y - d.x * q.z, d.w * q.z + d.x * q.y, d.w * q.w - d.x * q.x};
        moved[k] = t;
    }
}

static const char *const scenes[] = {"box_box", "box_resting", "hull16", "hull48", "nearmiss", "pile_step"};
#define SCENE_COUNT (sizeof(scenes) / sizeof(scenes[0]))

// ---- a scale of 1 is no scale ----

static void scales_of_one_give_the_bytes_of_no_scales(void)
{
    const uint64_t seed = 5;
    for (unsigned n = 0; n < SCENE_COUNT; ++n) {
        scene s;
        CHECK_EQ(scene_make(scenes[n], test_scaled(4000), seed, &s), MF_OK);
        float *ones = malloc((s.body_count + 1) * sizeof(float));
        for (uint32_t i = 0; i < s.body_count; ++i) ones[i] = 1.0f;
        mf_transform *moved = malloc(s.body_count * sizeof(mf_transform));
        mf_pair_cache *cache[2] = {calloc(s.pair_count, sizeof(mf_pair_cache)),
                                   calloc(s.pair_count, sizeof(mf_pair_cache))};
        mf_stream out[2] = {test_stream_make(s.pair_count, MF_MAX_CONTACTS),
                            test_stream_make(s.pair_count, MF_MAX_CONTACTS)};
        mf_context *context = test_context_with(MF_ISA_AUTO, MF_FAULT_STOP);
        for (int step = 0; step < 4; ++step) {
            drift(&s, step, moved);
            for (int k = 0; k < 2; ++k) {
                mf_bodies bodies = {
                    .shape = s.body_shape, .transform = moved, .count = s.body_count, .scales = k ? ones : NULL};
                if (step == 0) CHECK_EQ(mf_collide(context, s.bank, &bodies, s.pairs, s.pair_count, &out[k]), MF_OK);
                else
                    CHECK_EQ(mf_collide_cached(context, s.bank, &bodies, s.pairs, s.pair_count, cache[k], &out[k]),
                             MF_OK);
            }
            CHECKF(test_same_stream(&out[0], &out[1]), "%s step %d: scales of 1 change the output (seed %llu)",
                   scenes[n], step, (unsigned long long)seed);
            CHECKF(memcmp(cache[0], cache[1], s.pair_count * sizeof(mf_pair_cache)) == 0,
                   "%s step %d: scales of 1 change the cache entries (seed %llu)", scenes[n], step,
                   (unsigned long long)seed);
        }
        mf_context_destroy(context);
        for (int k = 0; k < 2; ++k) {
            test_stream_free(&out[k]);
            free(cache[k]);
        }
        free(moved);
        free(ones);
        scene_free(&s);
    }
}

// ---- a scaled shape is the shape of scaled points ----

// Random poses of two bodies of radii about 1, mostly within reach of each other.
static void random_poses(test_random *random, float reach, mf_transform pose[2])
{
    for (int h = 0; h < 2; ++h) pose[h].q = test_random_rotation(random);
    pose[0].p = (mf_vec3){(float)test_random_range(random, -3, 3), (float)test_random_range(random, -3, 3),
                          (float)test_random_range(random, -3, 3)};
    double direction[3];
    test_random_direction(random, direction);
    double distance = test_random_range(random, 0.2, reach);
    pose[1].p =
        (mf_vec3){pose[0].p.x + (float)(distance * direction[0]), pose[0].p.y + (float)(distance * direction[1]),
                  pose[0].p.z + (float)(distance * direction[2])};
}

// Collides one pair of scaled bodies (scales NULL: unscaled).
static test_output collide_one(mf_context *context, const mf_bank *bank, const uint32_t shape[2],
                               const mf_transform pose[2], const float *scales)
{
    mf_bodies bodies = {.shape = shape, .transform = pose, .count = 2, .scales = scales};
    mf_pair pair = {0, 1};
    mf_stream out = test_stream_make(1, MF_MAX_CONTACTS);
    CHECK_EQ(mf_collide(context, bank, &bodies, &pair, 1, &out), MF_OK);
    test_output result = {0};
    if (out.manifold_count == 1) {
        result.touching = 1;
        result.manifold = out.manifolds[0];
        memcpy(result.contacts, out.contacts, out.contact_count * sizeof(mf_contact));
    }
    test_stream_free(&out);
    return result;
}

// Boxes scaled by powers of two are boxes of the doubled or halved extents, float for float: every
// length the kernel forms scales exactly, so the bytes agree. Other scales agree within float
// noise, ids and all, away from ties (random poses).
static void scaled_box_is_a_box_of_scaled_extents(void)
{
    const float factors[] = {2.0f, 0.5f, 4.0f, 0.25f, 1.7f, 0.37f, 3.1f};
    const mf_vec3 half[2] = {{0.5f, 0.3f, 0.2f}, {0.25f, 0.4f, 0.35f}};
    test_random random = test_random_seed(41, 0);
    mf_context *context = test_context_with(MF_ISA_AUTO, MF_FAULT_STOP);
    uint32_t differing = 0, tried = 0;
    for (unsigned f = 0; f < sizeof(factors) / sizeof(factors[0]); ++f) {
        float sa = factors[f], sb = factors[(f + 3) % 7];
        int exact = f < 4 && (f + 3) % 7 < 4;
        mf_bank *bank;
        CHECK_EQ(mf_bank_create(&bank), MF_OK);
        uint32_t unit[2], scaled[2];
        for (int h = 0; h < 2; ++h) CHECK_EQ(mf_bank_add_box(bank, half[h], &unit[h]), MF_OK);
        CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){half[0].x * sa, half[0].y * sa, half[0].z * sa}, &scaled[0]), MF_OK);
        CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){half[1].x * sb, half[1].y * sb, half[1].z * sb}, &scaled[1]), MF_OK);
        const float scales[2] = {sa, sb};
        for (uint32_t k = 0; k < test_scaled(2000); ++k) {
            mf_transform pose[2];
            random_poses(&random, 0.6 * (sa + sb), pose);
            test_output x = collide_one(context, bank, unit, pose, scales),
                        y = collide_one(context, bank, scaled, pose, NULL);
            ++tried;
            int same = x.touching == y.touching;
            if (same && x.touching && exact)
                same = memcmp(&x.manifold, &y.manifold, sizeof(mf_manifold)) == 0 &&
                       memcmp(x.contacts, y.contacts, x.manifold.count * sizeof(mf_contact)) == 0;
            if (same && x.touching && !exact) {
                double size = 1.0 + fabs(pose[0].p.x) + fabs(pose[0].p.y) + fabs(pose[0].p.z);
                same = x.manifold.count == y.manifold.count &&
                       fabsf(x.manifold.normal.x - y.manifold.normal.x) < 1e-4f &&
                       fabsf(x.manifold.normal.y - y.manifold.normal.y) < 1e-4f &&
                       fabsf(x.manifold.normal.z - y.manifold.normal.z) < 1e-4f;
                for (uint32_t c = 0; same && c < x.manifold.count; ++c) {
                    mf_vec3 p = x.contacts[c].point, q = y.contacts[c].point;
                    same = x.contacts[c].id == y.contacts[c].id &&
                           fabs(p.x - q.x) + fabs(p.y - q.y) + fabs(p.z - q.z) < 1e-4 * size &&
                           fabs(x.contacts[c].separation - y.contacts[c].separation) < 1e-4 * size;
                }
            }
            if (!same && differing++ < 5)
                CHECKF(!exact, "scales %g, %g: the scaled boxes differ from boxes of scaled extents (pose %u)",
                       (double)sa, (double)sb, k);
        }
        mf_bank_destroy(bank);
    }
    // Away from the powers of two a tie can tip either way in float: a handful at most.
    CHECKF(differing * 200 <= tried, "%u of %u pairs differ beyond float noise", differing, tried);
    mf_context_destroy(context);
    printf("scaled boxes: %u pairs, %u differ beyond float noise (none where exact)\n", tried, differing);
}

// Whether every contact of x lies within `tolerance` of a contact of y.
static int contacts_within(const test_output *x, const test_output *y, double tolerance)
{
    for (uint32_t c = 0; c < x->manifold.count; ++c) {
        double nearest = INFINITY;
        for (uint32_t d = 0; d < y->manifold.count; ++d) {
            mf_vec3 p = x->contacts[c].point, q = y->contacts[d].point;
            nearest = fmin(nearest, fabs(p.x - q.x) + fabs(p.y - q.y) + fabs(p.z - q.z));
        }
        if (!(nearest <= tolerance)) return 0;
    }
    return 1;
}

// Hulls, scaled, against hulls built from their vertices times the scale: the builder may number
// the features otherwise, so the geometry is compared (presence, normal, deepest separation,
// points), not the ids.
static void scaled_hull_is_a_hull_of_scaled_points(void)
{
    test_random random = test_random_seed(43, 0);
    mf_context *context = test_context_with(MF_ISA_AUTO, MF_FAULT_STOP);
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    mf_vec3 lattice[40], rock[24];
    for (uint32_t i = 0; i < 40; ++i) {
        double t = (i + 0.5) / 40.0, polar = acos(1.0 - 2.0 * t), around = 2.399963 * i;
        lattice[i] = (mf_vec3){(float)(0.6 * sin(polar) * cos(around)), (float)(0.6 * sin(polar) * sin(around)),
                               (float)(0.6 * cos(polar))};
    }
    for (uint32_t i = 0; i < 24; ++i)
        rock[i] = (mf_vec3){(float)test_random_range(&random, -0.7, 0.7), (float)test_random_range(&random, -0.4, 0.4),
                            (float)test_random_range(&random, -0.5, 0.5)};
    uint32_t unit[2];
    CHECK_EQ(mf_bank_add_hull(bank, lattice, 40, &unit[0]), MF_OK);
    CHECK_EQ(mf_bank_add_hull(bank, rock, 24, &unit[1]), MF_OK);
    const float factors[][2] = {{1.9f, 0.45f}, {0.3f, 2.6f}, {1.25f, 1.25f}};
    uint32_t differing = 0, tried = 0, touching = 0;
    for (unsigned f = 0; f < 3; ++f) {
        uint32_t scaled[2];
        for (int h = 0; h < 2; ++h) {
            mf_vec3 vertices[MF_MAX_HULL_VERTICES];
            mf_shape_info info;
            CHECK_EQ(mf_bank_shape_info(bank, unit[h], &info), MF_OK);
            CHECK_EQ(mf_bank_shape_vertices(bank, unit[h], vertices, MF_MAX_HULL_VERTICES), MF_OK);
            for (uint32_t v = 0; v < info.vertex_count; ++v)
                vertices[v] = (mf_vec3){vertices[v].x * factors[f][h], vertices[v].y * factors[f][h],
                                        vertices[v].z * factors[f][h]};
            CHECK_EQ(mf_bank_add_hull(bank, vertices, info.vertex_count, &scaled[h]), MF_OK);
        }
        for (uint32_t k = 0; k < test_scaled(1000); ++k) {
            mf_transform pose[2];
            random_poses(&random, 0.7 * (factors[f][0] + factors[f][1]), pose);
            test_output x = collide_one(context, bank, unit, pose, factors[f]);
            test_output y = collide_one(context, bank, scaled, pose, NULL);
            ++tried;
            touching += x.touching;
            double size = 1.0 + fabs(pose[0].p.x) + fabs(pose[0].p.y) + fabs(pose[0].p.z);
            int same = x.touching == y.touching;
            if (same && x.touching) {
                float deepest[2] = {INFINITY, INFINITY};
                for (uint32_t c = 0; c < x.manifold.count; ++c)
                    deepest[0] = fminf(deepest[0], x.contacts[c].separation);
                for (uint32_t c = 0; c < y.manifold.count; ++c)
                    deepest[1] = fminf(deepest[1], y.contacts[c].separation);
                same = fabsf(x.manifold.normal.x - y.manifold.normal.x) < 1e-3f &&
                       fabsf(x.manifold.normal.y - y.manifold.normal.y) < 1e-3f &&
                       fabsf(x.manifold.normal.z - y.manifold.normal.z) < 1e-3f &&
                       fabs(deepest[0] - deepest[1]) < 1e-4 * size && contacts_within(&x, &y, 1e-3 * size) &&
                       contacts_within(&y, &x, 1e-3 * size);
            }
            if (!same && differing++ < 5)
                fprintf(stderr, "scales %g, %g pose %u: the scaled hulls differ from hulls of scaled points\n",
                        (double)factors[f][0], (double)factors[f][1], k);
        }
    }
    // A face merged or split by the builder can tip a near tie: a handful at most.
    CHECKF(differing * 100 <= tried, "%u of %u pairs differ", differing, tried);
    CHECKF(touching * 4 >= tried, "only %u of %u pairs touch: the poses test little", touching, tried);
    printf("scaled hulls: %u pairs, %u touching, %u differ\n", tried, touching, differing);
    mf_context_destroy(context);
    mf_bank_destroy(bank);
}

// ---- every ISA, cached or not ----

// Each ISA's stream and cache entries, step by step, over a few cached steps of each scene with
// scaled bodies: the bytes of the scalar path's.
static void scaled_bodies_give_the_same_bytes_on_every_isa(void)
{
    const uint64_t seed = 9;
    for (unsigned n = 0; n < SCENE_COUNT; ++n) {
        scene s;
        CHECK_EQ(scene_make(scenes[n], test_scaled(6000), seed, &s), MF_OK);
        float *scales = random_scales(s.body_count, seed + n, 0.6f, 1.6f);
        mf_transform *moved = malloc(s.body_count * sizeof(mf_transform));
        mf_context *context[TEST_ISA_COUNT] = {NULL};
        mf_stream out[TEST_ISA_COUNT];
        mf_pair_cache *cache[TEST_ISA_COUNT] = {NULL};
        for (unsigned i = 0; i < TEST_ISA_COUNT; ++i) {
            if (!mf_isa_supported(test_isas[i])) continue;
            context[i] = test_context_with(test_isas[i], MF_FAULT_STOP);
            out[i] = test_stream_make(s.pair_count, MF_MAX_CONTACTS);
            cache[i] = calloc(s.pair_count, sizeof(mf_pair_cache));
        }
        uint32_t manifolds = 0, compared = 0;
        for (int step = 0; step < 5; ++step) {
            drift(&s, step, moved);
            mf_bodies bodies = {.shape = s.body_shape, .transform = moved, .count = s.body_count, .scales = scales};
            for (unsigned i = 0; i < TEST_ISA_COUNT; ++i) {
                if (context[i] == NULL) continue;
                CHECK_EQ(step == 0
                             ? mf_collide(context[i], s.bank, &bodies, s.pairs, s.pair_count, &out[i])
                             : mf_collide_cached(context[i], s.bank, &bodies, s.pairs, s.pair_count, cache[i], &out[i]),
                         MF_OK);
                if (i == 0) continue;
                ++compared;
                CHECKF(test_same_stream(&out[0], &out[i]),
                       "%s step %d: %s's output differs from scalar's on scaled bodies (seed %llu)", scenes[n], step,
                       mf_isa_name(test_isas[i]), (unsigned long long)seed);
                // The entries of pairs that keep a manifold (those of pairs apart may name another
                // separating axis: a bundle's lanes run the box edge query when any of them needs it).
                uint32_t differing = 0;
                for (uint32_t p = 0; p < s.pair_count; ++p)
                    differing +=
                        cache[0][p].contact_count > 0 && memcmp(&cache[0][p], &cache[i][p], sizeof(mf_pair_cache)) != 0;
                CHECKF(
                    differing == 0,
                    "%s step %d: %s's cache entries of %u touching pairs differ from scalar's on scaled bodies (seed "
                    "%llu)",
                    scenes[n], step, mf_isa_name(test_isas[i]), differing, (unsigned long long)seed);
            }
            manifolds += out[0].manifold_count;
        }
        printf("%s: %u comparisons with scalar on %u scaled pairs over 5 steps (%u manifolds)\n", scenes[n], compared,
               s.pair_count, manifolds);
        CHECKF(manifolds > 0, "%s: nothing touches", scenes[n]);
        for (unsigned i = 0; i < TEST_ISA_COUNT; ++i) {
            if (context[i] == NULL) continue;
            mf_context_destroy(context[i]);
            test_stream_free(&out[i]);
            free(cache[i]);
        }
        free(moved);
        free(scales);
        scene_free(&s);
    }
}

// ---- the cache ----

// test_cache.c's claim on scaled bodies: over small motions the cache finds the same touching pairs
// as mf_collide, its normals within the slop of the brute force's best axis on the scaled hulls.
static void cached_scaled_stepping_matches_uncached(void)
{
    static const char *const cached_scenes[] = {"box_resting", "hull16", "nearmiss", "box_box"};
    const uint64_t seed = 31;
    for (unsigned k = 0; k < 4; ++k) {
        scene s;
        CHECK_EQ(scene_make(cached_scenes[k], test_scaled(3000), seed, &s), MF_OK);
        float *scales = random_scales(s.body_count, seed + k, 0.8f, 1.25f);
        mf_bodies rest = scene_bodies(&s);
        rest.scales = scales;
        test_stepping run = test_cached_stepping(s.bank, &rest, s.pairs, s.pair_count, seed, k, 12, cached_scenes[k]);
        CHECKF(run.violations == 0, "%s: %d failed claims over 12 cached steps of scaled bodies (seed %llu)",
               cached_scenes[k], run.violations, (unsigned long long)seed);
        printf("%s: 12 steps of %u scaled pairs, %u reused, worst normal deficit with the cache %.6f\n",
               cached_scenes[k], s.pair_count, run.reused, run.worst_deficit);
        free(scales);
        scene_free(&s);
    }
}

// A crate resting on the ground, cached until its manifold is reused; then its scale changes by a
// hair: the entry is not reused, nor its axis, nor its contacts carried on: the pair is searched
// afresh and gets exactly what mf_collide gives it. Back at the scale the entry was written for, it
// is a new entry's all the same.
static void a_change_of_scale_is_never_answered_from_the_cache(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t shapes[2];
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){5, 5, 0.5f}, &shapes[0]), MF_OK);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0.5f, 0.4f, 0.3f}, &shapes[1]), MF_OK);
    mf_transform poses[2] = {{{0, 0, -0.5f}, {0, 0, 0, 1}}, {{0.2f, -0.1f, 0.3f * 1.5f - 0.001f}, {0, 0, 0, 1}}};
    float scales[2] = {1.0f, 1.5f};
    mf_pair pair = {0, 1};
    mf_pair_cache cache = {0};
    mf_context *context = test_context_with(MF_ISA_AUTO, MF_FAULT_STOP);
    mf_stream cached = test_stream_make(1, MF_MAX_CONTACTS), plain = test_stream_make(1, MF_MAX_CONTACTS);
    mf_bodies bodies = {.shape = shapes, .transform = poses, .count = 2, .scales = scales};
    for (int step = 0; step < 3; ++step)
        CHECK_EQ(mf_collide_cached(context, bank, &bodies, &pair, 1, &cache, &cached), MF_OK);
    CHECK_EQ(cache.route, MF_ROUTE_REUSED);
    CHECK_EQ(cached.manifold_count, 1);
    CHECK_EQ(cached.contact_count, 4);
    CHECK(cache.scale_a == 1.0f && cache.scale_b == 1.5f);
    // Every contact at depth 0.001 below the ground's top.
    for (uint32_t c = 0; c < cached.contact_count; ++c) CHECK_NEAR(cached.contacts[c].separation, -0.001, 2e-5);
    const float changes[] = {1.5f * 1.0001f, 1.5f * 0.999f, 1.5f};
    for (unsigned k = 0; k < 3; ++k) {
        scales[1] = changes[k];
        CHECK_EQ(mf_collide(context, bank, &bodies, &pair, 1, &plain), MF_OK);
        CHECK_EQ(mf_collide_cached(context, bank, &bodies, &pair, 1, &cache, &cached), MF_OK);
        CHECKF(cache.route == MF_ROUTE_SEARCHED, "scale %.9g: route %u, not a search", (double)changes[k], cache.route);
        CHECK(cache.scale_b == changes[k]);
        CHECKF(test_same_stream(&plain, &cached), "scale %.9g: the cached call's output differs from mf_collide's",
               (double)changes[k]);
        // The crate's corners sink (or rise) with its half height.
        float depth = poses[1].p.z - 0.3f * changes[k];
        for (uint32_t c = 0; c < cached.contact_count; ++c) CHECK_NEAR(cached.contacts[c].separation, depth, 2e-5);
    }
    test_stream_free(&cached);
    test_stream_free(&plain);
    mf_context_destroy(context);
    mf_bank_destroy(bank);
}

// ---- bad scales ----

typedef struct bad_scale {
    float value;
    mf_status status;
} bad_scale;

static const bad_scale bad_scales[] = {{0.0f, MF_ERR_INVALID_ARGUMENT},    {-1.0f, MF_ERR_INVALID_ARGUMENT},
                                       {-0.0f, MF_ERR_INVALID_ARGUMENT},   {NAN, MF_ERR_NONFINITE},
                                       {INFINITY, MF_ERR_NONFINITE},       {-INFINITY, MF_ERR_NONFINITE},
                                       {1e30f, MF_ERR_INVALID_ARGUMENT},   {1e-30f, MF_ERR_INVALID_ARGUMENT},
                                       {FLT_MAX, MF_ERR_INVALID_ARGUMENT}, {FLT_TRUE_MIN, MF_ERR_INVALID_ARGUMENT}};
#define BAD_COUNT (sizeof(bad_scales) / sizeof(bad_scales[0]))

// Under MF_FAULT_STOP a bad scale fails mf_collide, mf_collide_cached and mf_find_pairs with its
// status, the stream empty and the message naming the body and the value; nothing crashes.
static void bad_scales_fail_the_call(void)
{
    scene s;
    CHECK_EQ(scene_make("hull16", 200, 3, &s), MF_OK);
    float *scales = random_scales(s.body_count, 3, 0.5f, 2.0f);
    mf_pair_cache *cache = calloc(s.pair_count, sizeof(mf_pair_cache));
    mf_stream out = test_stream_make(s.pair_count, MF_MAX_CONTACTS);
    mf_pair found[64];
    uint32_t found_count = 0;
    for (unsigned i = 0; i < TEST_ISA_COUNT; ++i) {
        if (!mf_isa_supported(test_isas[i])) continue;
        mf_context *context = test_context_with(test_isas[i], MF_FAULT_STOP);
        for (unsigned k = 0; k < BAD_COUNT; ++k) {
            uint32_t body = s.pairs[s.pair_count / 2].b;
            float kept = scales[body];
            scales[body] = bad_scales[k].value;
            mf_bodies bodies = {
                .shape = s.body_shape, .transform = s.body_transform, .count = s.body_count, .scales = scales};
            char expected[64];
            snprintf(expected, sizeof(expected), "body %u has scale %g", body, (double)bad_scales[k].value);
            for (int cached = 0; cached < 2; ++cached) {
                mf_status status = cached
                                       ? mf_collide_cached(context, s.bank, &bodies, s.pairs, s.pair_count, cache, &out)
                                       : mf_collide(context, s.bank, &bodies, s.pairs, s.pair_count, &out);
                CHECKF(status == bad_scales[k].status, "%s, scale %g, %s: status %s", mf_isa_name(test_isas[i]),
                       (double)bad_scales[k].value, cached ? "cached" : "uncached", mf_status_string(status));
                CHECK_EQ(out.manifold_count, 0);
                CHECK_EQ(out.pairs_done, 0);
                CHECKF(strstr(mf_context_message(context), expected) != NULL, "message \"%s\" does not say \"%s\"",
                       mf_context_message(context), expected);
            }
            mf_status status = mf_find_pairs(context, s.bank, &bodies, 0.01f, found, 64, &found_count);
            CHECKF(status == bad_scales[k].status, "find_pairs, scale %g: status %s", (double)bad_scales[k].value,
                   mf_status_string(status));
            CHECK_EQ(found_count, 0);
            CHECKF(strstr(mf_context_message(context), expected) != NULL,
                   "find_pairs message \"%s\" does not say \"%s\"", mf_context_message(context), expected);
            scales[body] = kept;
        }
        mf_context_destroy(context);
    }
    test_stream_free(&out);
    free(cache);
    free(scales);
    scene_free(&s);
}

// Under MF_FAULT_SKIP the pairs of bodies with bad scales are skipped and listed with their
// statuses, and every other pair gets the bytes of a call without them, cached or not, on every ISA.
static void bad_scales_skip_their_pairs(void)
{
    scene s;
    CHECK_EQ(scene_make("pile_step", 3000, 4, &s), MF_OK);
    float *scales = random_scales(s.body_count, 4, 0.7f, 1.4f);
    // A bad scale on the b body of pairs spread over the scene, each value in turn.
    uint8_t *bad_body = calloc(s.body_count, 1);
    mf_status *body_status = calloc(s.body_count, sizeof(mf_status));
    for (unsigned k = 0; k < BAD_COUNT; ++k) {
        uint32_t body = s.pairs[(k * 2 + 1) * s.pair_count / (2 * BAD_COUNT)].b;
        if (bad_body[body]) continue;
        bad_body[body] = 1;
        body_status[body] = bad_scales[k].status;
        scales[body] = bad_scales[k].value;
    }
    mf_pair *good = malloc(s.pair_count * sizeof(mf_pair));
    uint32_t good_count = 0, bad_count = 0;
    for (uint32_t i = 0; i < s.pair_count; ++i) {
        if (bad_body[s.pairs[i].a] || bad_body[s.pairs[i].b]) ++bad_count;
        else good[good_count++] = s.pairs[i];
    }
    CHECK(bad_count >= 5);
    mf_bodies bodies = {.shape = s.body_shape, .transform = s.body_transform, .count = s.body_count, .scales = scales};
    mf_stream skipping = test_stream_make(s.pair_count, MF_MAX_CONTACTS),
              plain = test_stream_make(s.pair_count, MF_MAX_CONTACTS);
    mf_pair_cache *cache = calloc(s.pair_count, sizeof(mf_pair_cache)),
                  *good_cache = calloc(s.pair_count, sizeof(mf_pair_cache));
    for (unsigned i = 0; i < TEST_ISA_COUNT; ++i) {
        if (!mf_isa_supported(test_isas[i])) continue;
        mf_context *skip = test_context_with(test_isas[i], MF_FAULT_SKIP),
                   *stop = test_context_with(test_isas[i], MF_FAULT_STOP);
        memset(cache, 0, s.pair_count * sizeof(mf_pair_cache));
        memset(good_cache, 0, s.pair_count * sizeof(mf_pair_cache));
        for (int cached = 0; cached < 2; ++cached) {
            CHECK_EQ(cached ? mf_collide_cached(skip, s.bank, &bodies, s.pairs, s.pair_count, cache, &skipping)
                            : mf_collide(skip, s.bank, &bodies, s.pairs, s.pair_count, &skipping),
                     MF_OK);
            CHECK_EQ(cached ? mf_collide_cached(stop, s.bank, &bodies, good, good_count, good_cache, &plain)
                            : mf_collide(stop, s.bank, &bodies, good, good_count, &plain),
                     MF_OK);
            CHECK_EQ(skipping.fault_count, bad_count);
            CHECKF(strstr(mf_context_message(skip), "has scale") != NULL, "message \"%s\"", mf_context_message(skip));
            // The faults name the skipped pairs with their bodies' statuses; the rest matches.
            uint32_t f = 0, g = 0;
            for (uint32_t p = 0; p < s.pair_count; ++p) {
                mf_pair pair = s.pairs[p];
                if (!bad_body[pair.a] && !bad_body[pair.b]) {
                    // Entries that keep a manifold; those of pairs apart may name another separating
                    // axis, as their bundles' other lanes decide which queries run.
                    if (cached && good_cache[g].contact_count > 0)
                        CHECKF(memcmp(&cache[p], &good_cache[g], sizeof(mf_pair_cache)) == 0, "%s: entry %u differs",
                               mf_isa_name(test_isas[i]), p);
                    ++g;
                    continue;
                }
                if (f < skipping.fault_count) {
                    CHECK_EQ(skipping.faults[f].pair, p);
                    CHECK_EQ(skipping.faults[f].status, body_status[bad_body[pair.a] ? pair.a : pair.b]);
                    if (cached) CHECK_EQ(cache[p].axis, 0); // emptied
                }
                ++f;
            }
            // The manifolds, with pair indices counted from the full list.
            CHECK_EQ(skipping.manifold_count, plain.manifold_count);
            CHECK_EQ(skipping.contact_count, plain.contact_count);
            CHECK(memcmp(skipping.contacts, plain.contacts, plain.contact_count * sizeof(mf_contact)) == 0);
            for (uint32_t m = 0; m < plain.manifold_count && m < skipping.manifold_count; ++m) {
                mf_manifold x = plain.manifolds[m], y = skipping.manifolds[m];
                CHECKF(s.pairs[y.pair].a == good[x.pair].a && s.pairs[y.pair].b == good[x.pair].b &&
                           x.first == y.first && x.count == y.count &&
                           memcmp(&x.normal, &y.normal, sizeof(mf_vec3)) == 0,
                       "%s %s: manifold %u differs from the call without the skipped pairs", mf_isa_name(test_isas[i]),
                       cached ? "cached" : "uncached", m);
            }
        }
        mf_context_destroy(skip);
        mf_context_destroy(stop);
    }
    printf("pile_step: %u of %u pairs skipped for bad scales\n", bad_count, s.pair_count);
    test_stream_free(&skipping);
    test_stream_free(&plain);
    free(cache);
    free(good_cache);
    free(good);
    free(bad_body);
    free(body_status);
    free(scales);
    scene_free(&s);
}

// The largest scale a shape takes keeps its coordinates within MF_MAX_LENGTH; the least keeps its
// volume at least FLT_MIN: both collide (they are valid), one step beyond is refused.
static void scale_limits_are_the_banks_own(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t shapes[2];
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){2.0f, 1.0f, 0.5f}, &shapes[0]), MF_OK);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1.0f, 1.0f, 1.0f}, &shapes[1]), MF_OK);
    mf_context *context = test_context_with(MF_ISA_AUTO, MF_FAULT_STOP);
    mf_stream out = test_stream_make(1, MF_MAX_CONTACTS);
    mf_pair pair = {0, 1};
    // The shape's info states the range.
    mf_shape_info info;
    CHECK_EQ(mf_bank_shape_info(bank, shapes[0], &info), MF_OK);
    CHECK(info.max_scale == 5e6f);
    CHECK(info.min_scale > 1e-13f && info.min_scale < 1e-12f);
    CHECK((double)info.min_scale * info.min_scale * info.min_scale * 8.0 >= (double)FLT_MIN);
    // The largest: 2 * s within 1e7, so s = 5e6 fits and the next float above it does not.
    const float ok[] = {5e6f, 1e-12f};
    const float refused[] = {nextafterf(5e6f, INFINITY), 1e-13f};
    for (int k = 0; k < 2; ++k) {
        float scales[2] = {ok[k], 1.0f};
        mf_transform poses[2] = {{{0, 0, 0}, {0, 0, 0, 1}}, {{0, 0, 1e8f}, {0, 0, 0, 1}}};
        mf_bodies bodies = {.shape = shapes, .transform = poses, .count = 2, .scales = scales};
        CHECKF(mf_collide(context, bank, &bodies, &pair, 1, &out) == MF_OK, "scale %g: %s", (double)ok[k],
               mf_context_message(context));
        scales[0] = refused[k];
        CHECK_EQ(mf_collide(context, bank, &bodies, &pair, 1, &out), MF_ERR_INVALID_ARGUMENT);
        printf("scale %g: %s\n", (double)refused[k], mf_context_message(context));
        CHECK(strstr(mf_context_message(context), "takes scales in") != NULL);
    }
    test_stream_free(&out);
    mf_context_destroy(context);
    mf_bank_destroy(bank);
}

int main(int argc, char **argv)
{
    const test_case tests[] = {
        TEST_CASE(scales_of_one_give_the_bytes_of_no_scales),
        TEST_CASE(scaled_box_is_a_box_of_scaled_extents),
        TEST_CASE(scaled_hull_is_a_hull_of_scaled_points),
        TEST_CASE(scaled_bodies_give_the_same_bytes_on_every_isa),
        TEST_CASE(cached_scaled_stepping_matches_uncached),
        TEST_CASE(a_change_of_scale_is_never_answered_from_the_cache),
        TEST_CASE(bad_scales_fail_the_call),
        TEST_CASE(bad_scales_skip_their_pairs),
        TEST_CASE(scale_limits_are_the_banks_own),
    };
    return test_main(tests, sizeof(tests) / sizeof(tests[0]), argc, argv);
}
