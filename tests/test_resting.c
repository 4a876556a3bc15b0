// Near-resting hull pairs, as a rigid-body engine's narrow phase sees them: random orientations,
// placed so that the double-precision brute force (tests/reference.c) finds a separation between
// -5 mm and 0 (overlapping) or 0 and +30 mm (separated). What a solver depends on:
//   - an overlapping pair is never reported apart: its deepest contact attains the best separation
//     within the slop (a face within the slop of the best axis whose clip misses the overlap must
//     not stand for it);
//   - a separated pair gets a manifold iff the hulls are nearer than the margin, by their exact
//     distance (vertex against face, edge against edge, in double): a speculative contact is never
//     lost because the clip of the best axis's faces found nothing.
#include "check.h"
#include "pool.h"
#include "random.h"
#include "reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

// Moves b along `direction` (from a's origin) until the brute force's separation is `target`;
// returns the separation reached.
static double place(ref_pair *pair, const ref_hull *a, mf_transform ta, const ref_hull *b, mf_transform *tb,
                    const double direction[3], double target)
{
    double low = 0.0, high = a->radius + b->radius + 0.1, separation = 0.0;
    for (int step = 0; step < 32; ++step) {
        double t = 0.5 * (low + high);
        tb->p = (mf_vec3){(float)(t * direction[0]), (float)(t * direction[1]), (float)(t * direction[2])};
        ref_pair_set(pair, a, ta, b, *tb);
        separation = ref_best_axis(pair).separation;
        if (separation < target) low = t;
        else high = t;
    }
    return separation;
}

// Two random hulls of the pool in random orientations, b moved along a random direction until the
// brute force's separation is a random target in [low, high); returns the separation reached.
static double random_near_pair(const test_pool *pool, ref_pair *pair, test_random *random, double low, double high,
                               uint32_t shapes[2], mf_transform transforms[2])
{
    shapes[0] = test_random_int(random, 0, pool->hull_count - 1);
    shapes[1] = test_random_int(random, 0, pool->hull_count - 1);
    transforms[0] = (mf_transform){{0, 0, 0}, test_random_rotation(random)};
    transforms[1] = (mf_transform){{0, 0, 0}, test_random_rotation(random)};
    double direction[3];
    test_random_direction(random, direction);
    double target = test_random_range(random, low, high);
    return place(pair, &pool->reference[shapes[0]], transforms[0], &pool->reference[shapes[1]], &transforms[1],
                 direction, target);
}

// Collides the one pair (0, 1) of these two bodies; returns whether it got a manifold.
static int collide_one(mf_context *context, const mf_bank *bank, uint32_t shapes[2], mf_transform transforms[2],
                       mf_manifold *manifold, mf_contact contacts[MF_MAX_CONTACTS])
{
    mf_bodies bodies = {.shape = shapes, .transform = transforms, .count = 2};
    mf_pair one = {0, 1};
    mf_stream stream = {manifold, 1, 0, contacts, MF_MAX_CONTACTS, 0, 0, NULL, 0, 0};
    CHECK_EQ(mf_collide(context, bank, &bodies, &one, 1, &stream), MF_OK);
    return stream.manifold_count == 1;
}

// What both tests set up: a pool of 48 rocks, a context with the default configuration, the brute
// force's pair and a random stream (seed + 1).
typedef struct resting_setup {
    test_pool pool;
    mf_config config;
    mf_context *context;
    ref_pair *pair;
    test_random random;
} resting_setup;

static void setup_open(resting_setup *s, uint64_t seed)
{
    CHECK_EQ(test_pool_make(seed, 0, 48, &s->pool), MF_OK);
    s->config = mf_config_default();
    CHECK_EQ(mf_context_create(&s->config, &s->context), MF_OK);
    s->pair = ref_pair_create();
    s->random = test_random_seed(seed + 1, 1);
}

static void setup_close(resting_setup *s)
{
    ref_pair_destroy(s->pair);
    mf_context_destroy(s->context);
    test_pool_free(&s->pool);
}

static void overlapping_pairs_are_never_reported_apart(void)
{
    resting_setup s;
    setup_open(&s, 71);
    uint32_t pairs = test_scaled(3000), overlapping = 0, failed = 0;
    double worst = -INFINITY;
    for (uint32_t i = 0; i < pairs; ++i) {
        uint32_t shapes[2];
        mf_transform transforms[2];
        double separation = random_near_pair(&s.pool, s.pair, &s.random, -0.005, 0.0, shapes, transforms);
        if (!(separation < -1e-4)) continue; // the overlapping ones, clear of float noise at zero
        ++overlapping;
        const ref_hull *a = &s.pool.reference[shapes[0]], *b = &s.pool.reference[shapes[1]];
        mf_manifold manifold;
        mf_contact contacts[MF_MAX_CONTACTS];
        int touching = collide_one(s.context, s.pool.bank, shapes, transforms, &manifold, contacts);
        double deepest = INFINITY;
        for (uint32_t k = 0; touching && k < manifold.count; ++k) deepest = fmin(deepest, contacts[k].separation);
        // The contacts attain the best separation within the slop, up to float noise of the pair's size.
        double excess = deepest - (separation + s.config.linear_slop + 1e-5 * (a->radius + b->radius));
        worst = fmax(worst, deepest - separation);
        if (excess > 0.0) {
            ++failed;
            if (failed <= 5)
                printf("pair %u (shapes %u, %u): separation %.6f, deepest contact %.6f\n", i, shapes[0], shapes[1],
                       separation, deepest);
        }
    }
    printf("%u overlapping pairs of %u, %u reported shallower than the best separation; worst deepest - best "
           "%.3g\n",
           overlapping, pairs, failed, worst);
    CHECK(overlapping > pairs / 2);
    CHECK_EQ(failed, 0u);
    setup_close(&s);
}

static void pairs_nearer_than_the_margin_get_a_manifold(void)
{
    resting_setup s;
    setup_open(&s, 73);
    uint32_t pairs = test_scaled(2000), near = 0, far = 0, judged = 0, failed = 0;
    for (uint32_t i = 0; i < pairs; ++i) {
        uint32_t shapes[2];
        mf_transform transforms[2];
        double separation = random_near_pair(&s.pool, s.pair, &s.random, 0.0, 0.030, shapes, transforms);
        if (!(separation > 1e-4)) continue;
        double distance = ref_distance(s.pair);
        // Near the margin either answer is float noise.
        if (fabs(distance - s.config.margin) < 1e-4) continue;
        ++judged;
        mf_manifold manifold;
        mf_contact contacts[MF_MAX_CONTACTS];
        int touching = collide_one(s.context, s.pool.bank, shapes, transforms, &manifold, contacts);
        int expected = distance < s.config.margin;
        near += expected;
        far += !expected;
        if (touching != expected) {
            ++failed;
            if (failed <= 5)
                printf("pair %u (shapes %u, %u): separation %.6f, distance %.6f, %s manifold\n", i, shapes[0],
                       shapes[1], separation, distance, touching ? "a" : "no");
        }
    }
    printf("%u separated pairs judged: %u nearer than the margin, %u farther; %u got the wrong presence\n", judged,
           near, far, failed);
    // Both kinds occur: the separating axes' separation (0 to 30 mm) is only a lower bound of the distance.
    CHECK(near > judged / 4 && far > judged / 20);
    CHECK_EQ(failed, 0u);
    setup_close(&s);
}

static const test_case tests[] = {
    TEST_CASE(overlapping_pairs_are_never_reported_apart),
    TEST_CASE(pairs_nearer_than_the_margin_get_a_manifold),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
