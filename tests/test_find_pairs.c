// mf_find_pairs as its header states it: exactly the pairs whose world boxes (the shape's local box
// turned by |R|, grown by the margin) overlap, checked against all n^2/2 pairs on random scenes of
// boxes and hulls, margin 0 and above; each pair once with a < b, sorted; the same output for every
// thread count and for a job system that runs ranges in reverse; the same pairs as the tools'
// former sort-and-sweep (bench/sweep_before.c); the capacity contract; bad input refused.
#include "check.h"
#include "scene.h"
#include "scene_math.h"
#include "scene_random.h"
#include "scene_store.h"
#include "sweep_before.h"

#include <stdbool.h>

// The box of a shape's vertices in its frame, as center and half extents.
typedef struct local_box {
    mf_vec3 center, half;
} local_box;

static local_box shape_box(const mf_bank *bank, uint32_t shape)
{
    static mf_vec3 vertices[MF_MAX_HULL_VERTICES];
    mf_shape_info info;
    mf_bank_shape_info(bank, shape, &info);
    mf_bank_shape_vertices(bank, shape, vertices, MF_MAX_HULL_VERTICES);
    mf_vec3 low = vertices[0], high = vertices[0];
    for (uint32_t v = 1; v < info.vertex_count; ++v) {
        low = (mf_vec3){fminf(low.x, vertices[v].x), fminf(low.y, vertices[v].y), fminf(low.z, vertices[v].z)};
        high = (mf_vec3){fmaxf(high.x, vertices[v].x), fmaxf(high.y, vertices[v].y), fmaxf(high.z, vertices[v].z)};
    }
    return (local_box){scene_scale(scene_add(low, high), 0.5f), scene_scale(scene_sub(high, low), 0.5f)};
}

typedef struct world_box {
    float low[3], high[3];
} world_box;

static float axis_of(mf_vec3 v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }

// The header's definition, written out: the local box turned by |R|, grown by the margin.
static world_box box_of(local_box local, const mf_transform *t, float margin)
{
    scene_mat3 r = scene_mat3_from_quat(t->q);
    mf_vec3 center = scene_transform_point(t, &r, local.center);
    world_box b;
    for (int a = 0; a < 3; ++a) {
        float extent = fabsf(axis_of(r.column[0], a)) * local.half.x + fabsf(axis_of(r.column[1], a)) * local.half.y +
                       fabsf(axis_of(r.column[2], a)) * local.half.z + margin;
        b.low[a] = axis_of(center, a) - extent;
        b.high[a] = axis_of(center, a) + extent;
    }
    return b;
}

static bool overlap(const world_box *x, const world_box *y)
{
    for (int a = 0; a < 3; ++a)
        if (x->low[a] > y->high[a] || y->low[a] > x->high[a]) return false;
    return true;
}

// Every pair by brute force, in (a, b) order; *count gets how many. Bodies of scale s (scales
// NULL: 1) have their shape's local box times s.
static mf_pair *brute_force_scaled(const scene *s, const float *scales, float margin, uint32_t *count)
{
    uint32_t n = s->body_count;
    world_box *boxes = malloc((n + 1) * sizeof(world_box));
    size_t capacity = 1024, k = 0;
    mf_pair *pairs = malloc(capacity * sizeof(mf_pair));
    for (uint32_t i = 0; i < n; ++i) {
        local_box local = shape_box(s->bank, s->body_shape[i]);
        if (scales != NULL)
            local = (local_box){scene_scale(local.center, scales[i]), scene_scale(local.half, scales[i])};
        boxes[i] = box_of(local, &s->body_transform[i], margin);
    }
    for (uint32_t a = 0; a < n; ++a) {
        for (uint32_t b = a + 1; b < n; ++b) {
            if (!overlap(&boxes[a], &boxes[b])) continue;
            if (k == capacity) pairs = realloc(pairs, (capacity *= 2) * sizeof(mf_pair));
            pairs[k++] = (mf_pair){a, b};
        }
    }
    free(boxes);
    *count = (uint32_t)k;
    return pairs;
}

static mf_pair *brute_force(const scene *s, float margin, uint32_t *count)
{
    return brute_force_scaled(s, NULL, margin, count);
}

// Bodies scattered in a cube of side `spread` above a ground slab: boxes of several sizes and
// 16-point hulls, random rotations (some quaternions left unnormalised: the call normalises them).
static bool random_scene(uint64_t seed, uint32_t body_count, float spread, scene *s)
{
    scene_random random = {seed};
    uint32_t id;
    if (scene_store_create(s, "random scene", body_count, 0) != MF_OK) return false;
    if (scene_store_add_box(s, (mf_vec3){spread, 0.5f, spread}, &id) != MF_OK) return false;
    for (int k = 0; k < 4; ++k) {
        mf_vec3 half = {scene_random_range(&random, 0.05f, 1.0f), scene_random_range(&random, 0.05f, 1.0f),
                        scene_random_range(&random, 0.05f, 1.0f)};
        if (scene_store_add_box(s, half, &id) != MF_OK) return false;
        mf_vec3 points[16];
        for (int p = 0; p < 16; ++p)
            points[p] = (mf_vec3){scene_random_range(&random, -0.6f, 0.6f), scene_random_range(&random, -0.6f, 0.6f),
                                  scene_random_range(&random, -0.6f, 0.6f)};
        if (scene_store_add_hull(s, points, 16, &id) != MF_OK) return false;
    }
    if (body_count == 0) return true;
    s->body_shape[0] = 0;
    s->body_transform[0] = (mf_transform){{0.0f, -0.5f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    for (uint32_t i = 1; i < body_count; ++i) {
        s->body_shape[i] = 1 + (uint32_t)(scene_random_next(&random) % (s->shape_count - 1));
        mf_vec3 p = {scene_random_range(&random, -spread, spread), scene_random_range(&random, 0.0f, spread),
                     scene_random_range(&random, -spread, spread)};
        mf_quat q = scene_random_rotation(&random);
        float scale = i % 7 == 0 ? 3.5f : 1.0f;
        s->body_transform[i] = (mf_transform){p, {q.x * scale, q.y * scale, q.z * scale, q.w * scale}};
    }
    return true;
}

// The call with room for every pair; NULL (and a failed check) on error.
static mf_pair *find(mf_context *context, const scene *s, float margin, uint32_t *count)
{
    mf_bodies bodies = scene_bodies(s);
    mf_status status = mf_find_pairs(context, s->bank, &bodies, margin, NULL, 0, count);
    CHECKF(status == MF_OK || status == MF_ERR_CAPACITY, "%s: %s", mf_status_string(status),
           mf_context_message(context));
    mf_pair *pairs = malloc((*count + 1) * sizeof(mf_pair));
    uint32_t again = 0;
    status = mf_find_pairs(context, s->bank, &bodies, margin, pairs, *count, &again);
    CHECKF(status == MF_OK, "%s: %s", mf_status_string(status), mf_context_message(context));
    CHECK_EQ(again, *count);
    return pairs;
}

static bool same_pairs(const mf_pair *x, uint32_t x_count, const mf_pair *y, uint32_t y_count, const char *what,
                       uint64_t seed)
{
    uint32_t i = 0;
    while (i < x_count && i < y_count && x[i].a == y[i].a && x[i].b == y[i].b) ++i;
    bool same = x_count == y_count && i == x_count;
    CHECKF(same, "%s (seed %llu): %u against %u pairs, first difference at %u: (%u, %u) against (%u, %u)", what,
           (unsigned long long)seed, x_count, y_count, i, i < x_count ? x[i].a : 0, i < x_count ? x[i].b : 0,
           i < y_count ? y[i].a : 0, i < y_count ? y[i].b : 0);
    return same;
}

static mf_context *context_of(uint32_t threads)
{
    mf_config config = mf_config_default();
    config.threads = threads;
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(&config, &context), MF_OK);
    return context;
}

static void pairs_are_the_overlapping_boxes(void)
{
    static const struct {
        uint32_t bodies;
        float spread, margin;
    } cases[] = {{0, 1.0f, 0.0f},    {1, 1.0f, 0.0f},     {2, 1.0f, 0.02f},    {300, 3.0f, 0.0f},
                 {2000, 8.0f, 0.0f}, {2000, 8.0f, 0.05f}, {3000, 20.0f, 0.3f}, {4000, 6.0f, 0.0f}};
    mf_context *context = context_of(1);
    for (uint64_t seed = 1; seed <= sizeof(cases) / sizeof(cases[0]); ++seed) {
        scene s;
        uint32_t bodies = cases[seed - 1].bodies < 3 ? cases[seed - 1].bodies : test_scaled(cases[seed - 1].bodies);
        if (!random_scene(seed, bodies, cases[seed - 1].spread, &s)) {
            CHECKF(0, "random scene (seed %llu) could not be built", (unsigned long long)seed);
            continue;
        }
        uint32_t expected_count, count;
        mf_pair *expected = brute_force(&s, cases[seed - 1].margin, &expected_count);
        mf_pair *pairs = find(context, &s, cases[seed - 1].margin, &count);
        same_pairs(pairs, count, expected, expected_count, "against brute force", seed);
        printf("seed %llu: %u bodies, margin %g: %u pairs\n", (unsigned long long)seed, s.body_count,
               (double)cases[seed - 1].margin, count);
        free(pairs);
        free(expected);
        scene_free(&s);
    }
    mf_context_destroy(context);
}

static void pairs_come_once_sorted_with_a_below_b(void)
{
    scene s;
    CHECK_EQ(scene_make_heap(test_scaled(5000), &s), MF_OK);
    mf_context *context = context_of(2);
    uint32_t count;
    mf_pair *pairs = find(context, &s, 0.02f, &count);
    CHECK(count > s.body_count);
    for (uint32_t i = 0; i < count; ++i) {
        CHECKF(pairs[i].a < pairs[i].b, "pair %u is (%u, %u)", i, pairs[i].a, pairs[i].b);
        if (i > 0)
            CHECKF(pairs[i - 1].a < pairs[i].a || (pairs[i - 1].a == pairs[i].a && pairs[i - 1].b < pairs[i].b),
                   "pairs %u and %u: (%u, %u) then (%u, %u)", i - 1, i, pairs[i - 1].a, pairs[i - 1].b, pairs[i].a,
                   pairs[i].b);
    }
    free(pairs);
    mf_context_destroy(context);
    scene_free(&s);
}

// A job system that runs every range of one item inline, last first, under rotating worker indices.
static void *run_reversed(mf_task_fn *task, uint32_t item_count, uint32_t min_range, void *task_context,
                          void *user_context)
{
    (void)min_range;
    uint32_t workers = *(const uint32_t *)user_context;
    for (uint32_t item = item_count; item-- > 0;) task(item, item + 1, item % workers, task_context);
    return NULL;
}

static void never_called(void *user_task, void *user_context)
{
    (void)user_task;
    (void)user_context;
    CHECK(0);
}

static void output_is_the_same_for_any_thread_count(void)
{
    scene s;
    CHECK_EQ(scene_make_heap(test_scaled(60000), &s), MF_OK);
    mf_context *one = context_of(1);
    uint32_t reference_count;
    mf_pair *reference = find(one, &s, 0.02f, &reference_count);
    static const uint32_t threads[] = {2, 3, 4, 0};
    for (size_t t = 0; t < sizeof(threads) / sizeof(threads[0]); ++t) {
        mf_context *context = context_of(threads[t]);
        for (int repeat = 0; repeat < 2; ++repeat) { // the second call reuses the context's memory
            uint32_t count;
            mf_pair *pairs = find(context, &s, 0.02f, &count);
            same_pairs(pairs, count, reference, reference_count, "threads against one", threads[t]);
            free(pairs);
        }
        mf_context_destroy(context);
    }
    uint32_t workers = 3;
    mf_config config = mf_config_default();
    config.enqueue_task = run_reversed;
    config.finish_task = never_called;
    config.task_context = &workers;
    config.worker_count = workers;
    mf_context *jobs = NULL;
    CHECK_EQ(mf_context_create(&config, &jobs), MF_OK);
    uint32_t count;
    mf_pair *pairs = find(jobs, &s, 0.02f, &count);
    same_pairs(pairs, count, reference, reference_count, "a job system against one thread", 0);
    free(pairs);
    mf_context_destroy(jobs);
    free(reference);
    mf_context_destroy(one);
    scene_free(&s);
}

static void pairs_match_the_former_sweep(void)
{
    mf_context *context = context_of(2);
    for (uint64_t seed = 0; seed < 3; ++seed) {
        scene s;
        bool made = seed == 0 ? scene_make_heap(test_scaled(20000), &s) == MF_OK
                              : random_scene(seed, test_scaled(3000), 10.0f, &s);
        CHECK(made);
        if (!made) continue;
        float margin = seed == 2 ? 0.0f : 0.02f;
        sweep_before *before = sweep_before_create(s.bank);
        mf_bodies bodies = scene_bodies(&s);
        const mf_pair *expected;
        uint32_t expected_count, count;
        CHECK_EQ(sweep_before_find_pairs(before, &bodies, margin, &expected, &expected_count), MF_OK);
        mf_pair *pairs = find(context, &s, margin, &count);
        same_pairs(pairs, count, expected, expected_count, "against the former sweep", seed);
        free(pairs);
        sweep_before_destroy(before);
        scene_free(&s);
    }
    mf_context_destroy(context);
}

static void a_short_capacity_gets_the_first_pairs_and_the_exact_count(void)
{
    scene s;
    CHECK_EQ(scene_make_heap(test_scaled(3000), &s), MF_OK);
    mf_context *context = context_of(2);
    uint32_t total;
    mf_pair *all = find(context, &s, 0.02f, &total);
    mf_bodies bodies = scene_bodies(&s);
    uint32_t capacity = total / 3, count = 0;
    mf_pair *pairs = malloc((capacity + 1) * sizeof(mf_pair));
    pairs[capacity] = (mf_pair){12345, 6789};
    CHECK_EQ(mf_find_pairs(context, s.bank, &bodies, 0.02f, pairs, capacity, &count), MF_ERR_CAPACITY);
    CHECK_EQ(count, total);
    CHECK(strlen(mf_context_message(context)) > 0);
    same_pairs(pairs, capacity, all, capacity, "the first pairs", 0);
    CHECK(pairs[capacity].a == 12345 && pairs[capacity].b == 6789);
    free(pairs);
    free(all);
    mf_context_destroy(context);
    scene_free(&s);
}

// Scaled bodies (mf_bodies.scales): their boxes are their shapes' boxes times the scale, so they
// find exactly the pairs of the scaled boxes, a scale of 1 the pairs of no scale.
static void scaled_bodies_find_the_pairs_of_their_scaled_boxes(void)
{
    mf_context *context = context_of(2);
    for (uint64_t seed = 21; seed <= 24; ++seed) {
        scene s;
        if (!random_scene(seed, test_scaled(2500), 8.0f, &s)) {
            CHECKF(0, "random scene (seed %llu) could not be built", (unsigned long long)seed);
            continue;
        }
        float *scales = malloc((s.body_count + 1) * sizeof(float));
        scene_random random = {seed};
        for (uint32_t i = 0; i < s.body_count; ++i)
            scales[i] = i % 4 == 0 ? 1.0f : scene_random_range(&random, 0.3f, 2.5f);
        if (seed == 24)
            for (uint32_t i = 0; i < s.body_count; ++i) scales[i] = 1.0f;
        float margin = seed % 2 ? 0.0f : 0.05f;
        uint32_t expected_count, count = 0;
        mf_pair *expected = brute_force_scaled(&s, scales, margin, &expected_count);
        mf_bodies bodies = scene_bodies(&s);
        bodies.scales = scales;
        CHECK_EQ(mf_find_pairs(context, s.bank, &bodies, margin, NULL, 0, &count),
                 expected_count ? MF_ERR_CAPACITY : MF_OK);
        mf_pair *pairs = malloc((count + 1) * sizeof(mf_pair));
        CHECK_EQ(mf_find_pairs(context, s.bank, &bodies, margin, pairs, count, &count), MF_OK);
        same_pairs(pairs, count, expected, expected_count, "scaled, against brute force", seed);
        if (seed == 24) { // all 1: the unscaled call's pairs
            uint32_t plain_count;
            mf_pair *plain = find(context, &s, margin, &plain_count);
            same_pairs(pairs, count, plain, plain_count, "scales of 1 against none", seed);
            free(plain);
        }
        printf("seed %llu: %u scaled bodies, margin %g: %u pairs\n", (unsigned long long)seed, s.body_count,
               (double)margin, count);
        free(pairs);
        free(expected);
        free(scales);
        scene_free(&s);
    }
    mf_context_destroy(context);
}

// Bad scales (mf_bodies.scales) and removed shapes are refused as mf_collide refuses them, the
// message naming the body.
static void bad_scales_and_removed_shapes_are_refused(void)
{
    scene s;
    CHECK_EQ(scene_make_heap(100, &s), MF_OK);
    mf_context *context = context_of(1);
    float *scales = malloc(s.body_count * sizeof(float));
    for (uint32_t i = 0; i < s.body_count; ++i) scales[i] = 1.0f;
    mf_bodies bodies = scene_bodies(&s);
    bodies.scales = scales;
    mf_pair pairs[4];
    uint32_t count = 99;
    const struct {
        float scale;
        mf_status status;
    } bad[] = {{0.0f, MF_ERR_INVALID_ARGUMENT}, {-2.0f, MF_ERR_INVALID_ARGUMENT}, {NAN, MF_ERR_NONFINITE},
               {INFINITY, MF_ERR_NONFINITE},    {1e30f, MF_ERR_INVALID_ARGUMENT}, {1e-30f, MF_ERR_INVALID_ARGUMENT}};
    for (unsigned k = 0; k < sizeof(bad) / sizeof(bad[0]); ++k) {
        scales[33] = bad[k].scale;
        count = 99;
        CHECK_EQ(mf_find_pairs(context, s.bank, &bodies, 0.0f, pairs, 4, &count), bad[k].status);
        CHECK_EQ(count, 0);
        CHECKF(strstr(mf_context_message(context), "body 33 has scale") != NULL, "%s", mf_context_message(context));
    }
    scales[33] = 1.0f;
    uint32_t shape = s.body_shape[50];
    CHECK_EQ(mf_bank_remove_shape(s.bank, shape), MF_OK);
    CHECK_EQ(mf_find_pairs(context, s.bank, &bodies, 0.0f, pairs, 4, &count), MF_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(mf_context_message(context), "which was removed") != NULL, "%s", mf_context_message(context));
    free(scales);
    mf_context_destroy(context);
    scene_free(&s);
}

static void bad_input_is_refused(void)
{
    scene s;
    CHECK_EQ(scene_make_heap(100, &s), MF_OK);
    mf_context *context = context_of(1);
    mf_bodies bodies = scene_bodies(&s);
    mf_pair pairs[4];
    uint32_t count = 99;
    CHECK_EQ(mf_find_pairs(NULL, s.bank, &bodies, 0.0f, pairs, 4, &count), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_find_pairs(context, NULL, &bodies, 0.0f, pairs, 4, &count), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(count, 0);
    CHECK_EQ(mf_find_pairs(context, s.bank, NULL, 0.0f, pairs, 4, &count), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_find_pairs(context, s.bank, &bodies, 0.0f, NULL, 4, &count), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_find_pairs(context, s.bank, &bodies, 0.0f, pairs, 4, NULL), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_find_pairs(context, s.bank, &bodies, -0.1f, pairs, 4, &count), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_find_pairs(context, s.bank, &bodies, NAN, pairs, 4, &count), MF_ERR_NONFINITE);
    CHECK_EQ(mf_find_pairs(context, s.bank, &bodies, 2e7f, pairs, 4, &count), MF_ERR_INVALID_ARGUMENT);

    s.body_shape[40] = s.shape_count;
    count = 99;
    CHECK_EQ(mf_find_pairs(context, s.bank, &bodies, 0.0f, pairs, 4, &count), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(count, 0);
    CHECKF(strstr(mf_context_message(context), "body 40") != NULL, "%s", mf_context_message(context));
    s.body_shape[40] = 0;
    s.body_transform[30].p.y = NAN;
    s.body_transform[60].q = (mf_quat){0, 0, 0, 0};
    CHECK_EQ(mf_find_pairs(context, s.bank, &bodies, 0.0f, pairs, 4, &count), MF_ERR_NONFINITE);
    CHECKF(strstr(mf_context_message(context), "body 30") != NULL, "%s", mf_context_message(context));
    s.body_transform[30].p.y = 0.0f;
    CHECK_EQ(mf_find_pairs(context, s.bank, &bodies, 0.0f, pairs, 4, &count), MF_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(mf_context_message(context), "body 60") != NULL, "%s", mf_context_message(context));
    mf_context_destroy(context);
    scene_free(&s);
}

int main(int argc, char **argv)
{
    static const test_case tests[] = {
        TEST_CASE(pairs_are_the_overlapping_boxes),
        TEST_CASE(pairs_come_once_sorted_with_a_below_b),
        TEST_CASE(output_is_the_same_for_any_thread_count),
        TEST_CASE(pairs_match_the_former_sweep),
        TEST_CASE(a_short_capacity_gets_the_first_pairs_and_the_exact_count),
        TEST_CASE(bad_input_is_refused),
        TEST_CASE(scaled_bodies_find_the_pairs_of_their_scaled_boxes),
        TEST_CASE(bad_scales_and_removed_shapes_are_refused),
    };
    return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv);
}
