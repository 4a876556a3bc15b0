// The tools' broad phase (mf_find_pairs through scene_broadphase) against brute force: on the
// default pile and on random scenes (boxes and hulls, random rotations, a ground slab), every
// pair whose exact world boxes (grown by the margin) overlap is a candidate, every pair
// mf_collide finds touching among all n^2/2 pairs is a candidate, and candidates come sorted,
// unique and with a < b. The pile_step scene, whose recipe lists its pairs as it drops bodies,
// lists none the broad phase would not find.
#include "scene_broadphase.h"
#include "scene_math.h"
#include "scene_random.h"
#include "scene_store.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct box3 {
    mf_vec3 low, high;
} box3;

static box3 world_box(const mf_bank *bank, uint32_t shape, const mf_transform *t, float margin)
{
    static mf_vec3 vertices[MF_MAX_HULL_VERTICES];
    mf_shape_info info;
    mf_bank_shape_info(bank, shape, &info);
    mf_bank_shape_vertices(bank, shape, vertices, MF_MAX_HULL_VERTICES);
    scene_mat3 r = scene_mat3_from_quat(t->q);
    box3 b = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    for (uint32_t v = 0; v < info.vertex_count; ++v) {
        mf_vec3 p = scene_transform_point(t, &r, vertices[v]);
        b.low = (mf_vec3){fminf(b.low.x, p.x - margin), fminf(b.low.y, p.y - margin), fminf(b.low.z, p.z - margin)};
        b.high = (mf_vec3){fmaxf(b.high.x, p.x + margin), fmaxf(b.high.y, p.y + margin), fmaxf(b.high.z, p.z + margin)};
    }
    return b;
}

static bool boxes_overlap(const box3 *a, const box3 *b)
{
    return a->low.x <= b->high.x && b->low.x <= a->high.x && a->low.y <= b->high.y && b->low.y <= a->high.y &&
           a->low.z <= b->high.z && b->low.z <= a->high.z;
}

static bool is_candidate(const mf_pair *pairs, uint32_t count, uint32_t a, uint32_t b)
{
    uint32_t low = 0, high = count;
    while (low < high) {
        uint32_t middle = (low + high) / 2;
        const mf_pair *p = &pairs[middle];
        if (p->a < a || (p->a == a && p->b < b)) low = middle + 1;
        else high = middle;
    }
    return low < count && pairs[low].a == a && pairs[low].b == b;
}

// Returns the number of failures; `label` and `seed` say which scene failed.
static int check_scene(const char *label, uint64_t seed, const scene *s)
{
    const float margin = s->config.margin;
    mf_bodies bodies = scene_bodies(s);
    scene_broadphase *broad = scene_broadphase_create(s->bank);
    mf_context *broad_context = NULL;
    const mf_pair *pairs;
    uint32_t count;
    mf_status status = broad != NULL ? mf_context_create(&s->config, &broad_context) : MF_ERR_OUT_OF_MEMORY;
    if (status == MF_OK) status = scene_broadphase_find_pairs(broad, broad_context, &bodies, margin, &pairs, &count);
    if (status != MF_OK) {
        printf("FAIL %s (seed %llu): broad phase failed: %s\n", label, (unsigned long long)seed,
               mf_status_string(status));
        scene_broadphase_destroy(broad);
        mf_context_destroy(broad_context);
        return 1;
    }
    int failures = 0;
    for (uint32_t i = 0; i < count && failures < 5; ++i) {
        bool ordered = pairs[i].a < pairs[i].b && (i == 0 || pairs[i - 1].a < pairs[i].a ||
                                                   (pairs[i - 1].a == pairs[i].a && pairs[i - 1].b < pairs[i].b));
        if (!ordered) {
            printf("FAIL %s (seed %llu): candidate %u (%u, %u) is out of order or repeated\n", label,
                   (unsigned long long)seed, i, pairs[i].a, pairs[i].b);
            ++failures;
        }
    }

    uint32_t n = s->body_count, all_count = n > 1 ? n * (n - 1) / 2 : 0, k = 0;
    box3 *boxes = malloc((n + 1) * sizeof(box3));
    mf_pair *all = malloc((all_count + 1) * sizeof(mf_pair));
    for (uint32_t i = 0; i < n; ++i)
        boxes[i] = world_box(s->bank, s->body_shape[i], &s->body_transform[i], 0.5f * margin);
    for (uint32_t a = 0; a < n; ++a) {
        for (uint32_t b = a + 1; b < n; ++b) {
            all[k++] = (mf_pair){a, b};
            if (boxes_overlap(&boxes[a], &boxes[b]) && !is_candidate(pairs, count, a, b) && failures < 5) {
                printf("FAIL %s (seed %llu): bodies %u and %u have overlapping boxes but are no candidate pair\n",
                       label, (unsigned long long)seed, a, b);
                ++failures;
            }
        }
    }

    // Every touching pair of all n^2/2 must have come through the broad phase.
    mf_context *context;
    mf_config config = s->config;
    mf_context_create(&config, &context);
    mf_stream stream = {0};
    mf_stream_bound(all_count, config.max_contacts, &stream.manifold_capacity, &stream.contact_capacity);
    stream.manifolds = malloc((stream.manifold_capacity + 1) * sizeof(mf_manifold));
    stream.contacts = malloc((stream.contact_capacity + 1) * sizeof(mf_contact));
    status = mf_collide(context, s->bank, &bodies, all, all_count, &stream);
    if (status != MF_OK) {
        printf("FAIL %s (seed %llu): mf_collide over all pairs: %s\n", label, (unsigned long long)seed,
               mf_status_string(status));
        ++failures;
    }
    for (uint32_t m = 0; status == MF_OK && m < stream.manifold_count && failures < 5; ++m) {
        mf_pair p = all[stream.manifolds[m].pair];
        if (!is_candidate(pairs, count, p.a, p.b)) {
            printf("FAIL %s (seed %llu): bodies %u and %u touch but are no candidate pair\n", label,
                   (unsigned long long)seed, p.a, p.b);
            ++failures;
        }
    }
    printf("%s %s (seed %llu): %u bodies, %u candidates, %u touching\n", failures ? "FAIL" : "ok", label,
           (unsigned long long)seed, n, count, stream.manifold_count);
    free(stream.manifolds);
    free(stream.contacts);
    mf_context_destroy(context);
    free(boxes);
    free(all);
    scene_broadphase_destroy(broad);
    mf_context_destroy(broad_context);
    return failures;
}

// Bodies scattered in a cube of side `spread`, on a ground slab: boxes of several sizes and hulls.
static bool random_scene(uint64_t seed, uint32_t body_count, float spread, scene *s)
{
    scene_random random = {seed};
    uint32_t id;
    if (scene_store_create(s, "random scene", body_count, 0) != MF_OK) return false;
    if (scene_store_add_box(s, (mf_vec3){spread, 0.5f, spread}, &id) != MF_OK) return false;
    for (int k = 0; k < 4; ++k) {
        mf_vec3 half;
        half.x = scene_random_range(&random, 0.05f, 1.0f);
        half.y = scene_random_range(&random, 0.05f, 1.0f);
        half.z = scene_random_range(&random, 0.05f, 1.0f);
        if (scene_store_add_box(s, half, &id) != MF_OK) return false;
        mf_vec3 points[16];
        for (int p = 0; p < 16; ++p) {
            points[p].x = scene_random_range(&random, -0.6f, 0.6f);
            points[p].y = scene_random_range(&random, -0.6f, 0.6f);
            points[p].z = scene_random_range(&random, -0.6f, 0.6f);
        }
        if (scene_store_add_hull(s, points, 16, &id) != MF_OK) return false;
    }
    if (body_count == 0) return true;
    s->body_transform[0] = (mf_transform){{0.0f, -0.5f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    for (uint32_t i = 1; i < body_count; ++i) {
        s->body_shape[i] = 1 + (uint32_t)(scene_random_next(&random) % (s->shape_count - 1));
        mf_vec3 p;
        p.x = scene_random_range(&random, -spread, spread);
        p.y = scene_random_range(&random, 0.0f, spread);
        p.z = scene_random_range(&random, -spread, spread);
        s->body_transform[i] = (mf_transform){p, scene_random_rotation(&random)};
    }
    return true;
}

// pile_step's pairs are those whose exact world boxes, grown by 5 mm a side, overlap: the broad
// phase grown as much (and a hair, for the rounding of both boxes) finds them all.
static int check_pile_step_pairs(uint64_t seed)
{
    scene s;
    if (scene_make("pile_step", 3000, seed, &s) != MF_OK) {
        printf("FAIL pile_step (seed %llu): the scene could not be built\n", (unsigned long long)seed);
        return 1;
    }
    scene_broadphase *broad = scene_broadphase_create(s.bank);
    mf_context *context = NULL;
    mf_bodies bodies = scene_bodies(&s);
    const mf_pair *pairs;
    uint32_t count = 0;
    int failures = broad == NULL || mf_context_create(NULL, &context) != MF_OK ||
                   scene_broadphase_find_pairs(broad, context, &bodies, 0.00501f, &pairs, &count) != MF_OK;
    for (uint32_t i = 0; failures == 0 && i < s.pair_count; ++i) {
        mf_pair p = s.pairs[i];
        if (is_candidate(pairs, count, p.a, p.b)) continue;
        printf("FAIL pile_step (seed %llu): its pair %u (%u, %u) is no candidate\n", (unsigned long long)seed, i, p.a,
               p.b);
        ++failures;
    }
    printf("%s pile_step (seed %llu): %u pairs among %u candidates\n", failures ? "FAIL" : "ok",
           (unsigned long long)seed, s.pair_count, count);
    scene_broadphase_destroy(broad);
    mf_context_destroy(context);
    scene_free(&s);
    return failures;
}

int main(void)
{
    int failures = 0;
    scene s;
    mf_status status = scene_make_heap(600, &s);
    if (status != MF_OK) {
        printf("FAIL: default pile: %s\n", mf_status_string(status));
        return 1;
    }
    failures += check_scene("default pile", 0, &s);
    scene_free(&s);

    static const struct {
        uint32_t bodies;
        float spread;
    } sizes[] = {{0, 1.0f}, {1, 1.0f}, {2, 1.0f}, {50, 2.0f}, {400, 4.0f}, {400, 12.0f}, {800, 6.0f}};
    for (uint64_t seed = 1; seed <= sizeof(sizes) / sizeof(sizes[0]); ++seed) {
        if (!random_scene(seed, sizes[seed - 1].bodies, sizes[seed - 1].spread, &s)) {
            printf("FAIL: random scene (seed %llu) could not be built\n", (unsigned long long)seed);
            return 1;
        }
        failures += check_scene("random scene", seed, &s);
        scene_free(&s);
    }
    failures += check_pile_step_pairs(7);
    return failures == 0 ? 0 : 1;
}
