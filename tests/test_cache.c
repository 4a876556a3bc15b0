// The SAT cache (mf_collide_cached): over sequences of small motions it finds the same touching
// pairs as mf_collide, with normals within the slop of the brute-force best axis; pairs closing
// in are found when they touch; resting ids stay put; entries past a capacity error stay
// untouched; foreign entries change nothing.
#include "check.h"
#include "harness.h"
#include "random.h"
#include "reference.h"
#include "scene.h"

#include <math.h>

// The brute force's hull of every shape of the scene.
static ref_hull *load_hulls(const scene *s)
{
    ref_hull *hulls = calloc(s->shape_count, sizeof(ref_hull));
    for (uint32_t h = 0; h < s->shape_count; ++h) CHECK_EQ(ref_hull_load(s->bank, h, &hulls[h]), MF_OK);
    return hulls;
}

static void free_hulls(const scene *s, ref_hull *hulls)
{
    for (uint32_t h = 0; h < s->shape_count; ++h) ref_hull_free(&hulls[h]);
    free(hulls);
}

// How far manifold y's normal falls short of the brute force's best axis for its pair, posed as
// `moved`; the best axis into *best.
static double normal_deficit(ref_pair *pair, const ref_hull *hulls, const scene *s, const mf_transform *moved,
                             const mf_manifold *y, ref_axis *best)
{
    mf_pair p = s->pairs[y->pair];
    ref_pair_set(pair, &hulls[s->body_shape[p.a]], moved[p.a], &hulls[s->body_shape[p.b]], moved[p.b]);
    *best = ref_best_axis(pair);
    double n[3] = {y->normal.x, y->normal.y, y->normal.z};
    return best->separation - ref_separation_along(pair, n);
}

static void cached_results_match_uncached_on_small_motions(void)
{
    static const char *const scenes[] = {"box_resting", "hull16", "nearmiss", "box_box"};
    const uint64_t seed = 31;
    for (unsigned k = 0; k < 4; ++k) {
        scene s;
        CHECK_EQ(scene_make(scenes[k], 3000, seed, &s), MF_OK);
        mf_bodies rest = scene_bodies(&s);
        test_stepping run = test_cached_stepping(s.bank, &rest, s.pairs, s.pair_count, seed, k, 12, scenes[k]);
        CHECKF(run.violations == 0, "%s: %d failed claims over 12 cached steps (seed %llu)", scenes[k], run.violations,
               (unsigned long long)seed);
        printf("%s: 12 steps of %u pairs, worst normal deficit with the cache %.6f\n", scenes[k], s.pair_count,
               run.worst_deficit);
        scene_free(&s);
    }
}

// Sorts four ids (unused slots 0).
static void sort_ids(uint32_t ids[4])
{
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 3 - i; ++j)
            if (ids[j] > ids[j + 1]) {
                uint32_t t = ids[j];
                ids[j] = ids[j + 1];
                ids[j + 1] = t;
            }
}

static void resting_box_keeps_its_ids_for_a_hundred_steps(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t ground, crate;
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){5, 5, 0.5f}, &ground), MF_OK);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0.5f, 0.4f, 0.3f}, &crate), MF_OK);
    uint32_t shapes[2] = {ground, crate};
    mf_transform rest[2] = {{{0, 0, 0}, {0, 0, 0, 1}}, {{0.2f, -0.1f, 0.798f}, {0, 0, 0, 1}}}, moved[2];
    mf_bodies bodies = {.shape = shapes, .transform = moved, .count = 2};
    mf_pair pair = {0, 1};
    mf_pair_cache cache = {0};
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(NULL, &context), MF_OK);
    test_random random = test_random_seed(5, 0);
    uint32_t first_ids[4] = {0};
    for (int step = 0; step < 100; ++step) {
        test_jitter(moved, rest, 2, &random, 4e-4, 1e-3);
        moved[0] = rest[0];
        mf_manifold manifold;
        mf_contact contacts[4];
        mf_stream stream = {&manifold, 1, 0, contacts, 4, 0, 0, NULL, 0, 0};
        CHECK_EQ(mf_collide_cached(context, bank, &bodies, &pair, 1, &cache, &stream), MF_OK);
        CHECK_EQ(stream.contact_count, 4);
        uint32_t ids[4] = {0};
        for (uint32_t k = 0; k < stream.contact_count && k < 4; ++k) ids[k] = contacts[k].id;
        sort_ids(ids);
        if (step == 0) memcpy(first_ids, ids, sizeof(ids));
        CHECKF(memcmp(ids, first_ids, sizeof(ids)) == 0, "step %d: ids %08x %08x %08x %08x, step 0 had %08x ...", step,
               ids[0], ids[1], ids[2], ids[3], first_ids[0]);
    }
    CHECK(cache.axis != 0);
    mf_context_destroy(context);
    mf_bank_destroy(bank);
}

// A tower of six equal boxes, each sitting exactly on the one below (every corner on the corner
// below: ties of every feature), jittered by up to 0.3 mm and 0.03 degrees about its rest pose
// every step: with the cache, every pair keeps the id set of its first step for 300 steps.
static void tower_of_equal_boxes_keeps_its_ids(void)
{
    enum { BOXES = 6, STEPS = 300 };
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t box;
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0.5f, 0.5f, 0.5f}, &box), MF_OK);
    uint32_t shapes[BOXES];
    mf_transform rest[BOXES], moved[BOXES];
    mf_pair pairs[BOXES - 1];
    for (int k = 0; k < BOXES; ++k) {
        shapes[k] = box;
        rest[k] = (mf_transform){{0, (float)k * 0.999f, 0}, {0, 0, 0, 1}}; // 1 mm overlap
        if (k > 0) pairs[k - 1] = (mf_pair){(uint32_t)k - 1, (uint32_t)k};
    }
    mf_bodies bodies = {.shape = shapes, .transform = moved, .count = BOXES};
    mf_pair_cache cache[BOXES - 1] = {{0}};
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(NULL, &context), MF_OK);
    test_random random = test_random_seed(11, 0);
    uint32_t first_ids[BOXES - 1][4] = {{0}};
    mf_manifold manifolds[BOXES - 1];
    mf_contact contacts[4 * (BOXES - 1)];
    for (int step = 0; step < STEPS; ++step) {
        test_jitter(moved, rest, BOXES, &random, 3e-4, 5e-4);
        mf_stream stream = {manifolds, BOXES - 1, 0, contacts, 4 * (BOXES - 1), 0, 0, NULL, 0, 0};
        CHECK_EQ(mf_collide_cached(context, bank, &bodies, pairs, BOXES - 1, cache, &stream), MF_OK);
        CHECK_EQ(stream.manifold_count, BOXES - 1);
        for (uint32_t m = 0; m < stream.manifold_count; ++m) {
            uint32_t ids[4] = {0};
            for (uint32_t k = 0; k < manifolds[m].count && k < 4; ++k) ids[k] = contacts[manifolds[m].first + k].id;
            sort_ids(ids);
            uint32_t p = manifolds[m].pair;
            if (step == 0) memcpy(first_ids[p], ids, sizeof(ids));
            CHECKF(memcmp(ids, first_ids[p], sizeof(ids)) == 0,
                   "step %d pair %u: ids %08x %08x %08x %08x, step 0 had %08x %08x %08x %08x", step, p, ids[0], ids[1],
                   ids[2], ids[3], first_ids[p][0], first_ids[p][1], first_ids[p][2], first_ids[p][3]);
        }
    }
    mf_context_destroy(context);
    mf_bank_destroy(bank);
}

// A pyramid's apex 1.5 mm beside a box's edge, outside both faces' regions, jittered by 0.4 mm:
// the direction between the closest points swings by tens of degrees from step to step. With the
// cache the manifold keeps its normal (turning under 5 degrees a step), within the slop of the
// brute force's best axis, with the contact's separation at most the true distance and at most a
// quarter of the slop below it. Without the cache the normal does swing (the case is real).
static void corner_beside_an_edge_keeps_its_normal(void)
{
    enum { STEPS = 200 };
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t shapes[2];
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0.5f, 0.5f, 0.5f}, &shapes[0]), MF_OK);
    const mf_vec3 pyramid[] = {
        {0, 0, 0}, {0.4f, 0.2f, 0.2f}, {0.4f, -0.2f, 0.2f}, {0.4f, 0.2f, -0.2f}, {0.4f, -0.2f, -0.2f}};
    CHECK_EQ(mf_bank_add_hull(bank, pyramid, 5, &shapes[1]), MF_OK);
    // The apex (b's origin) on the edge's outward diagonal; b's +x, its axis, turned onto it.
    const float s45 = 0.70710678f, turn = 0.38268343f; // sin(22.5 degrees)
    mf_transform rest[2] = {{{0, 0, 0}, {0, 0, 0, 1}},
                            {{0.5f + 0.0015f * s45, 0.5f + 0.0015f * s45, 0}, {0, 0, turn, 0.92387953f}}};
    mf_transform moved[2];
    mf_pair pair = {0, 1};
    mf_bodies bodies = {.shape = shapes, .transform = moved, .count = 2};
    mf_config config = mf_config_default();
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(&config, &context), MF_OK);
    ref_hull hulls[2];
    for (int k = 0; k < 2; ++k) CHECK_EQ(ref_hull_load(bank, shapes[k], &hulls[k]), MF_OK);
    ref_pair *reference = ref_pair_create();
    mf_pair_cache cache = {0};
    mf_manifold manifold[2];
    mf_contact contacts[8];
    mf_vec3 last_cached = {0, 0, 0}, last_plain = {0, 0, 0};
    const float cos5 = 0.9961947f;
    int plain_swings = 0;
    test_random random = test_random_seed(5, 0);
    for (int step = 0; step < STEPS; ++step) {
        moved[0] = rest[0];
        test_jitter(&moved[1], &rest[1], 1, &random, 4e-4, 1e-3);
        ref_pair_set(reference, &hulls[0], moved[0], &hulls[1], moved[1]);
        double distance = ref_distance(reference);
        mf_stream plain = {&manifold[0], 1, 0, &contacts[0], 4, 0, 0, NULL, 0, 0};
        mf_stream cached = {&manifold[1], 1, 0, &contacts[4], 4, 0, 0, NULL, 0, 0};
        CHECK_EQ(mf_collide(context, bank, &bodies, &pair, 1, &plain), MF_OK);
        CHECK_EQ(mf_collide_cached(context, bank, &bodies, &pair, 1, &cache, &cached), MF_OK);
        CHECKF(plain.manifold_count == 1 && cached.manifold_count == 1, "step %d: %u manifolds, %u cached", step,
               plain.manifold_count, cached.manifold_count);
        mf_vec3 n = manifold[1].normal, p = manifold[0].normal;
        if (step > 0) {
            float turned = n.x * last_cached.x + n.y * last_cached.y + n.z * last_cached.z;
            CHECKF(turned >= cos5, "step %d: the cached normal turned by %.2f degrees", step,
                   acos(turned > 1.0f ? 1.0 : turned) * 57.29578);
            plain_swings += p.x * last_plain.x + p.y * last_plain.y + p.z * last_plain.z < cos5;
        }
        last_cached = n, last_plain = p;
        ref_axis best;
        double along[3] = {n.x, n.y, n.z};
        best = ref_best_axis(reference);
        CHECKF(best.separation - ref_separation_along(reference, along) <= config.linear_slop + 1e-4,
               "step %d: the cached normal separates %.6f, the best axis %.6f", step,
               ref_separation_along(reference, along), best.separation);
        for (uint32_t k = 0; k < manifold[1].count; ++k) {
            double separation = contacts[4 + k].separation;
            CHECKF(separation <= distance + 1e-5 && separation >= distance - 0.25 * config.linear_slop - 1e-5,
                   "step %d: contact separation %.6f, distance %.6f", step, separation, distance);
        }
    }
    printf("corner beside an edge: %d of %d steps turn the uncached normal by over 5 degrees, 0 the cached one\n",
           plain_swings, STEPS - 1);
    CHECKF(plain_swings > 0, "the uncached normal never swung: the case no longer tests the kept normal");
    ref_pair_destroy(reference);
    for (int k = 0; k < 2; ++k) ref_hull_free(&hulls[k]);
    mf_context_destroy(context);
    mf_bank_destroy(bank);
}

// a * b for unit quaternions (b turned by a).
static mf_quat quat_times(mf_quat a, mf_quat b)
{
    return (mf_quat){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                     a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

// Pairs found apart are settled from the poses alone while the motion since cannot have closed
// the gap (cache.c, still_apart), and touching ones skip the search while the cached axis stays
// within the slop of a bound on the best: a lattice of boxes, slabs and rocks drawn in from 7%
// wider spacing while every body turns 0.4 degrees a step about an axis of its own, so pairs cross
// the margin from apart to touching on every step, must show the touching pairs mf_collide shows,
// with normals within the slop of the brute-force best.
static void approaching_pairs_are_found_when_they_touch(void)
{
    scene s;
    CHECK_EQ(scene_make("crowd", 3000, 17, &s), MF_OK);
    mf_config config = mf_config_default();
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(&config, &context), MF_OK);
    ref_hull *hulls = load_hulls(&s);
    ref_pair *pair = ref_pair_create();
    double worst_deficit = 0.0;
    mf_transform *moved = malloc(s.body_count * sizeof(mf_transform));
    mf_quat *turn = malloc(s.body_count * sizeof(mf_quat));
    test_random random = test_random_seed(17, 1);
    const double step_angle = 0.4 * 3.14159265358979 / 180.0;
    for (uint32_t i = 0; i < s.body_count; ++i) {
        double axis[3], length = 0.0;
        for (int k = 0; k < 3; ++k) axis[k] = test_random_unit(&random) * 2 - 1, length += axis[k] * axis[k];
        length = sqrt(length) + 1e-9;
        double h = 0.5 * step_angle;
        turn[i] = (mf_quat){(float)(sin(h) * axis[0] / length), (float)(sin(h) * axis[1] / length),
                            (float)(sin(h) * axis[2] / length), (float)cos(h)};
        moved[i] = s.body_transform[i];
    }
    mf_pair_cache *cache = calloc(s.pair_count, sizeof(mf_pair_cache));
    mf_stream plain = test_stream_make(s.pair_count, 4), cached = test_stream_make(s.pair_count, 4);
    const int steps = 35;
    uint32_t touching_first = 0, touching_last = 0;
    for (int step = 0; step < steps; ++step) {
        double spread = 1.0 + 0.07 * (double)(steps - 1 - step) / (double)(steps - 1);
        for (uint32_t i = 0; i < s.body_count; ++i) {
            moved[i].p = (mf_vec3){(float)(s.body_transform[i].p.x * spread), (float)(s.body_transform[i].p.y * spread),
                                   (float)(s.body_transform[i].p.z * spread)};
            moved[i].q = quat_times(turn[i], moved[i].q);
        }
        mf_bodies bodies = {.shape = s.body_shape, .transform = moved, .count = s.body_count};
        CHECK_EQ(mf_collide(context, s.bank, &bodies, s.pairs, s.pair_count, &plain), MF_OK);
        CHECK_EQ(mf_collide_cached(context, s.bank, &bodies, s.pairs, s.pair_count, cache, &cached), MF_OK);
        CHECKF(plain.manifold_count == cached.manifold_count, "step %d: %u manifolds cached, %u without", step,
               cached.manifold_count, plain.manifold_count);
        uint32_t count = plain.manifold_count < cached.manifold_count ? plain.manifold_count : cached.manifold_count;
        for (uint32_t m = 0; m < count; ++m) {
            const mf_manifold *y = &cached.manifolds[m];
            if (plain.manifolds[m].pair != y->pair) {
                CHECKF(0, "step %d: manifold %u is pair %u cached, %u without", step, m, y->pair,
                       plain.manifolds[m].pair);
                break;
            }
            // A skipped search keeps the cached axis only within the slop of the best (cache.c).
            ref_axis best;
            double deficit = normal_deficit(pair, hulls, &s, moved, y, &best);
            worst_deficit = deficit > worst_deficit ? deficit : worst_deficit;
            CHECKF(deficit <= config.linear_slop + 1e-4, "step %d pair %u: cached normal %.6f short of the best", step,
                   y->pair, deficit);
        }
        if (step == 0) touching_first = plain.manifold_count;
        touching_last = plain.manifold_count;
    }
    printf("%d steps of %u pairs: %u touching at the start, %u at the end; worst normal deficit %.6f\n", steps,
           s.pair_count, touching_first, touching_last, worst_deficit);
    ref_pair_destroy(pair);
    free_hulls(&s, hulls);
    CHECK(touching_last > touching_first + s.pair_count / 10); // the scene really closes in
    test_stream_free(&plain);
    test_stream_free(&cached);
    free(cache);
    free(turn);
    free(moved);
    mf_context_destroy(context);
    scene_free(&s);
}

static void entries_past_a_capacity_error_stay_untouched(void)
{
    scene s;
    CHECK_EQ(scene_make("box_box", 5000, 3, &s), MF_OK);
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(NULL, &context), MF_OK);
    mf_pair_cache *cache = calloc(s.pair_count, sizeof(mf_pair_cache));
    mf_bodies bodies = {.shape = s.body_shape, .transform = s.body_transform, .count = s.body_count};
    mf_stream small = test_stream_make(100, 4);
    small.manifold_capacity = 100;
    CHECK_EQ(mf_collide_cached(context, s.bank, &bodies, s.pairs, s.pair_count, cache, &small), MF_ERR_CAPACITY);
    uint32_t done = small.pairs_done;
    CHECK(done > 0 && done < s.pair_count);
    for (uint32_t i = 0; i < s.pair_count; ++i) {
        int filled = cache[i].axis != 0;
        CHECKF(filled == (i < done), "entry %u is %s but pairs_done is %u", i, filled ? "filled" : "empty", done);
        if (filled != (i < done)) break;
    }
    test_stream_free(&small);
    free(cache);
    mf_context_destroy(context);
    scene_free(&s);
}

static void foreign_entries_change_nothing(void)
{
    scene s;
    CHECK_EQ(scene_make("hull16", 4000, 9, &s), MF_OK);
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(NULL, &context), MF_OK);
    mf_bodies bodies = {.shape = s.body_shape, .transform = s.body_transform, .count = s.body_count};
    // Entries of another pair list: every shape id out of this scene's range, with a kept
    // manifold that would be reused if the shapes matched.
    mf_pair_cache *cache = calloc(s.pair_count, sizeof(mf_pair_cache));
    for (uint32_t i = 0; i < s.pair_count; ++i)
        cache[i] = (mf_pair_cache){.shape_a = s.shape_count + 7,
                                   .shape_b = s.shape_count + 9,
                                   .axis = 1u | 3u << 2,
                                   .separation = -1.0f,
                                   .best = -1.0f,
                                   .relative_rotation = {0, 0, 0, 1},
                                   .normal = {0, 0, 1},
                                   .contact_count = MF_CACHE_CONTACTS};
    mf_stream plain = test_stream_make(s.pair_count, 4), cached = test_stream_make(s.pair_count, 4);
    CHECK_EQ(mf_collide(context, s.bank, &bodies, s.pairs, s.pair_count, &plain), MF_OK);
    CHECK_EQ(mf_collide_cached(context, s.bank, &bodies, s.pairs, s.pair_count, cache, &cached), MF_OK);
    CHECK_EQ(cached.manifold_count, plain.manifold_count);
    CHECK_EQ(cached.contact_count, plain.contact_count);
    CHECK(memcmp(cached.contacts, plain.contacts, plain.contact_count * sizeof(mf_contact)) == 0);
    CHECK_EQ(mf_collide_cached(context, s.bank, &bodies, s.pairs, s.pair_count, NULL, &cached),
             MF_ERR_INVALID_ARGUMENT);
    test_stream_free(&plain);
    test_stream_free(&cached);
    free(cache);
    mf_context_destroy(context);
    scene_free(&s);
}

// Whether every id of manifold m of `now` is among the `count` ids in `kept`.
static int ids_among(const mf_stream *now, const mf_manifold *m, const uint32_t *kept, uint32_t count)
{
    for (uint32_t k = 0; k < m->count; ++k) {
        int found = 0;
        for (uint32_t j = 0; j < count && !found; ++j) found = now->contacts[m->first + k].id == kept[j];
        if (!found) return 0;
    }
    return 1;
}

// Resting boxes over 200 steps of scene_step's wobble, through the rebuilds every
// MF_CACHE_REUSE_STEPS steps (when every entry is clipped again at once): among pairs with a
// manifold on consecutive steps, no normal turns by more than 5 degrees and no id set changes. A
// tilted box's corners near the margin must not join the manifold on a rebuild.
static void resting_boxes_keep_ids_and_normals_through_rebuilds(void)
{
    enum { STEPS = 200 };
    scene s;
    CHECK_EQ(scene_make("box_resting", 2000, 7, &s), MF_OK);
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(NULL, &context), MF_OK);
    mf_transform *moved = malloc(s.body_count * sizeof(mf_transform));
    mf_pair_cache *cache = calloc(s.pair_count, sizeof(mf_pair_cache));
    mf_stream outputs[2] = {test_stream_make(s.pair_count, 4), test_stream_make(s.pair_count, 4)};
    uint64_t persisting = 0, rebuilt = 0;
    for (int step = 0; step < STEPS; ++step) {
        scene_step(&s, (uint32_t)step % SCENE_STEP_PERIOD, 7, moved);
        mf_bodies bodies = {.shape = s.body_shape, .transform = moved, .count = s.body_count};
        const mf_stream *before = &outputs[(step + 1) % 2];
        mf_stream *now = &outputs[step % 2];
        CHECK_EQ(mf_collide_cached(context, s.bank, &bodies, s.pairs, s.pair_count, cache, now), MF_OK);
        for (uint32_t p = 0; p < s.pair_count; ++p) rebuilt += cache[p].route != MF_ROUTE_REUSED;
        for (uint32_t i = 0, k = 0; step > 0 && i < before->manifold_count && k < now->manifold_count;) {
            const mf_manifold *m = &before->manifolds[i], *n = &now->manifolds[k];
            if (m->pair != n->pair) {
                m->pair < n->pair ? ++i : ++k;
                continue;
            }
            persisting++;
            float turned = m->normal.x * n->normal.x + m->normal.y * n->normal.y + m->normal.z * n->normal.z;
            uint32_t kept[MF_MAX_CONTACTS];
            for (uint32_t c = 0; c < m->count; ++c) kept[c] = before->contacts[m->first + c].id;
            CHECKF(turned >= 0.9961947f, "step %d pair %u: the normal turned by %.2f degrees", step, n->pair,
                   acos(turned > 1.0f ? 1.0 : turned) * 57.29578);
            CHECKF(m->count == n->count && ids_among(now, n, kept, m->count),
                   "step %d pair %u (route %u): the id set changed (%u contacts, %u before)", step, n->pair,
                   cache[n->pair].route, n->count, m->count);
            ++i, ++k;
        }
    }
    printf("resting boxes: %d steps of %u pairs, %llu persisting pair-steps, %llu entries clipped again\n", STEPS,
           s.pair_count, (unsigned long long)persisting, (unsigned long long)rebuilt);
    CHECKF(rebuilt >= 2ull * s.pair_count, "fewer than two rebuilds of every entry: the test proves nothing");
    test_stream_free(&outputs[0]);
    test_stream_free(&outputs[1]);
    free(cache);
    free(moved);
    mf_context_destroy(context);
    scene_free(&s);
}

// Reused manifolds (mf_pair_cache.route MF_ROUTE_REUSED) against the bounds in docs/contract.md,
// over 600 steps of scene_step's wobble: the same pairs have manifolds as with mf_collide; the
// normal is within the slop of the double-precision brute-force best axis; the deepest contact
// lies between the best less the slop and the best plus twice the slop, and none lies past the
// margin by the slop (hysteresis keeps them up to that); a reused manifold's ids
// are among those of the clip it came from. A rotating eighth of the pairs is held against the
// brute force each step. Most touching pair-steps must be reused, or the test proves nothing.
static void reused_manifolds_stay_within_the_stated_bounds(void)
{
    static const char *const scenes[] = {"box_resting", "pile_step", "hull16", "crowd"};
    const uint64_t seed = 43;
    const int steps = 600;
    for (unsigned k = 0; k < 4; ++k) {
        scene s;
        CHECK_EQ(scene_make(scenes[k], 600, seed, &s), MF_OK);
        mf_config config = mf_config_default();
        mf_context *context = NULL;
        CHECK_EQ(mf_context_create(&config, &context), MF_OK);
        mf_transform *moved = malloc(s.body_count * sizeof(mf_transform));
        mf_pair_cache *cache = calloc(s.pair_count, sizeof(mf_pair_cache));
        uint32_t *kept_ids = calloc((size_t)s.pair_count * MF_CACHE_CONTACTS, sizeof(uint32_t));
        uint32_t *kept_count = calloc(s.pair_count, sizeof(uint32_t));
        mf_stream plain = test_stream_make(s.pair_count, 4), cached = test_stream_make(s.pair_count, 4);
        ref_hull *hulls = load_hulls(&s);
        ref_pair *pair = ref_pair_create();
        uint64_t touching = 0, reused = 0, checked = 0;
        double worst_deficit = 0.0, worst_low = 0.0, worst_high = 0.0;
        for (int step = 0; step < steps; ++step) {
            scene_step(&s, (uint32_t)step, seed, moved);
            mf_bodies bodies = {.shape = s.body_shape, .transform = moved, .count = s.body_count};
            CHECK_EQ(mf_collide(context, s.bank, &bodies, s.pairs, s.pair_count, &plain), MF_OK);
            CHECK_EQ(mf_collide_cached(context, s.bank, &bodies, s.pairs, s.pair_count, cache, &cached), MF_OK);
            CHECKF(plain.manifold_count == cached.manifold_count, "%s step %d: %u manifolds cached, %u without",
                   scenes[k], step, cached.manifold_count, plain.manifold_count);
            for (uint32_t m = 0; m < cached.manifold_count; ++m) {
                const mf_manifold *y = &cached.manifolds[m];
                uint32_t i = y->pair;
                CHECKF(m >= plain.manifold_count || plain.manifolds[m].pair == i,
                       "%s step %d: manifold %u is pair %u cached, %u without", scenes[k], step, m, i,
                       plain.manifolds[m].pair);
                ++touching;
                if (cache[i].route == MF_ROUTE_REUSED) {
                    ++reused;
                    CHECKF(ids_among(&cached, y, kept_ids + (size_t)i * MF_CACHE_CONTACTS, kept_count[i]),
                           "%s step %d pair %u: a reused id was not clipped", scenes[k], step, i);
                } else {
                    kept_count[i] = y->count <= MF_CACHE_CONTACTS ? y->count : 0;
                    for (uint32_t c = 0; c < kept_count[i]; ++c)
                        kept_ids[(size_t)i * MF_CACHE_CONTACTS + c] = cached.contacts[y->first + c].id;
                }
                if ((i + (uint32_t)step) % 8 != 0) continue;
                ++checked;
                mf_pair p = s.pairs[i];
                ref_axis best;
                double deficit = normal_deficit(pair, hulls, &s, moved, y, &best);
                double deepest = INFINITY, farthest = -INFINITY;
                for (uint32_t c = 0; c < y->count; ++c) {
                    deepest = fmin(deepest, cached.contacts[y->first + c].separation);
                    farthest = fmax(farthest, cached.contacts[y->first + c].separation);
                }
                CHECKF(farthest < config.margin + config.linear_slop,
                       "%s step %d pair %u: a contact %.6f past the margin", scenes[k], step, i, farthest);
                // Float noise of a pair's size (its radii) on top of the stated bounds.
                double noise = 1e-4 + 1e-5 * (hulls[s.body_shape[p.a]].radius + hulls[s.body_shape[p.b]].radius);
                worst_deficit = fmax(worst_deficit, deficit);
                worst_low = fmax(worst_low, best.separation - deepest);
                worst_high = fmax(worst_high, deepest - best.separation);
                CHECKF(deficit <= config.linear_slop + noise,
                       "%s step %d pair %u (route %u): normal %.6f short of the best", scenes[k], step, i,
                       cache[i].route, deficit);
                CHECKF(deepest >= best.separation - config.linear_slop - noise &&
                           deepest <= best.separation + 2.0 * config.linear_slop + noise,
                       "%s step %d pair %u (route %u): deepest contact %.6f, best %.6f", scenes[k], step, i,
                       cache[i].route, deepest, best.separation);
            }
        }
        printf("%s: %d steps of %u pairs, %.1f%% of %llu touching pair-steps reused, %llu held against the brute "
               "force: worst normal deficit %.6f, deepest contact at most %.6f below and %.6f above the best\n",
               scenes[k], steps, s.pair_count, 100.0 * (double)reused / (double)(touching > 0 ? touching : 1),
               (unsigned long long)touching, (unsigned long long)checked, worst_deficit, worst_low, worst_high);
        CHECKF(reused * 2 > touching, "%s: only %llu of %llu touching pair-steps reused", scenes[k],
               (unsigned long long)reused, (unsigned long long)touching);
        ref_pair_destroy(pair);
        free_hulls(&s, hulls);
        test_stream_free(&plain);
        test_stream_free(&cached);
        free(kept_ids);
        free(kept_count);
        free(cache);
        free(moved);
        mf_context_destroy(context);
        scene_free(&s);
    }
}

static const test_case tests[] = {
    TEST_CASE(cached_results_match_uncached_on_small_motions),
    TEST_CASE(resting_box_keeps_its_ids_for_a_hundred_steps),
    TEST_CASE(reused_manifolds_stay_within_the_stated_bounds),
    TEST_CASE(tower_of_equal_boxes_keeps_its_ids),
    TEST_CASE(corner_beside_an_edge_keeps_its_normal),
    TEST_CASE(resting_boxes_keep_ids_and_normals_through_rebuilds),
    TEST_CASE(approaching_pairs_are_found_when_they_touch),
    TEST_CASE(entries_past_a_capacity_error_stay_untouched),
    TEST_CASE(foreign_entries_change_nothing),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
