// Precision: the same pair far from the origin, and shapes a thousand times smaller or a hundred
// times larger than the usual metre. Random pairs from fixed seeds; failures print the seed and pair.
#include "check.h"
#include "pairs.h"
#include "pool.h"
#include "robust.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

// ---- far from the origin ----

// Each pair once near the origin and once moved by `shift`. A float near 1e4 holds positions to
// 2^-10 m, so the moved positions are taken as given and the near ones recovered exactly from them
// (the difference is a float): both calls then see bodies the same distance apart, and what may
// differ is only how the kernel's arithmetic depends on where the pair is. The snapping is done in
// float arithmetic: gcc 12.2 at -O2 vectorises the same steps written with a double shift and
// drops the rounding of the stored float in between.
static void translating_a_pair_by_ten_kilometres_keeps_its_manifold(void)
{
    const uint64_t seed = 4001;
    const uint32_t pairs = 3000;
    const double shift[3] = {1e4, -1e4, 1e4}, tolerance = 1e-3;
    const float shift_float[3] = {1e4f, -1e4f, 1e4f};
    test_pool pool;
    CHECK_EQ(test_pool_make(seed, 16, 16, &pool), MF_OK);
    uint32_t *shapes = malloc(2 * pairs * sizeof(uint32_t));
    mf_transform *near = malloc(2 * pairs * sizeof(mf_transform)), *far = malloc(2 * pairs * sizeof(mf_transform));
    robust_result *near_results = malloc(pairs * sizeof(robust_result));
    robust_result *far_results = malloc(pairs * sizeof(robust_result));
    if (shapes == NULL || near == NULL || far == NULL || near_results == NULL || far_results == NULL) abort();
    mf_config config = mf_config_default();
    for (uint32_t i = 0; i < pairs; ++i) {
        test_make_pair(&pool, (test_category)(i % 3), seed, i, config.margin, shapes + 2 * i, near + 2 * i);
        for (int h = 0; h < 2; ++h) {
            mf_transform *n = &near[2 * i + h], *f = &far[2 * i + h];
            f->q = n->q;
            f->p = (mf_vec3){n->p.x + shift_float[0], n->p.y + shift_float[1], n->p.z + shift_float[2]};
            n->p = (mf_vec3){f->p.x - shift_float[0], f->p.y - shift_float[1], f->p.z - shift_float[2]};
        }
    }
    const mf_isa isas[2] = {MF_ISA_AUTO, MF_ISA_SCALAR};
    for (int k = 0; k < 2; ++k) {
        config.isa = isas[k];
        CHECK_EQ(robust_collide(pool.bank, &config, pairs, shapes, near, near_results), 0);
        CHECK_EQ(robust_collide(pool.bank, &config, pairs, shapes, far, far_results), 0);
        uint32_t failed = 0, touching = 0;
        for (uint32_t i = 0; i < pairs; ++i) {
            const robust_result *a = &near_results[i], *b = &far_results[i];
            double worst;
            int same = robust_same_manifold(a, b, shift, tolerance, &worst);
            touching += a->touching;
            if (!same) {
                if (failed < 3) {
                    fprintf(stderr,
                            "seed %llu pair %u (isa %s): near: %s %u contacts, far: %s %u contacts, %s, "
                            "largest difference %.3g m\n",
                            (unsigned long long)seed, i, mf_isa_name(isas[k]), a->touching ? "manifold" : "none",
                            a->manifold.count, b->touching ? "manifold" : "none", b->manifold.count,
                            worst <= tolerance ? "different ids or counts" : "values differ", worst);
                    for (int h = 0; h < 2; ++h) {
                        mf_transform t = near[2 * i + h];
                        fprintf(stderr, "  body %c: shape %u p {%.9g, %.9g, %.9g} q {%.9g, %.9g, %.9g, %.9g}\n",
                                "ab"[h], shapes[2 * i + h], (double)t.p.x, (double)t.p.y, (double)t.p.z, (double)t.q.x,
                                (double)t.q.y, (double)t.q.z, (double)t.q.w);
                    }
                }
                ++failed;
            }
        }
        CHECKF(failed == 0, "seed %llu, isa %s: %u of %u pairs differ when moved by 1e4 m", (unsigned long long)seed,
               mf_isa_name(isas[k]), failed, pairs);
        CHECKF(touching > pairs / 3, "only %u of %u pairs touch: the scene tests little", touching, pairs);
    }
    free(shapes);
    free(near);
    free(far);
    free(near_results);
    free(far_results);
    test_pool_free(&pool);
}

// ---- tiny and large shapes ----

// Boxes and hulls about `scale` across: a cube, a crate, a plank and hulls of every cloud kind.
static uint32_t add_family(robust_bank *bank, uint64_t seed, double scale, uint32_t *shapes)
{
    uint32_t count = 0;
    shapes[count++] = robust_add_box(bank, "cube", 0.5 * scale, 0.5 * scale, 0.5 * scale);
    shapes[count++] = robust_add_box(bank, "crate", 0.4 * scale, 0.25 * scale, 0.6 * scale);
    shapes[count++] = robust_add_box(bank, "plank", 1.0 * scale, 0.1 * scale, 0.5 * scale);
    test_random random = test_random_seed(seed, 77);
    static const char *const names[TEST_CLOUD_KINDS] = {"sphere hull", "box-cloud hull", "rock hull"};
    for (int kind = 0; kind < TEST_CLOUD_KINDS; ++kind) {
        mf_vec3 points[48];
        uint32_t n = 12 + 12 * (uint32_t)kind;
        test_cloud(&random, (test_cloud_kind)kind, n, 0.5 * scale, points);
        shapes[count++] = robust_add_hull(bank, names[kind], points, n);
    }
    const mf_vec3 tetrahedron[4] = {{0, 0, 0}, {(float)scale, 0, 0}, {0, (float)scale, 0}, {0, 0, (float)scale}};
    shapes[count++] = robust_add_hull(bank, "tetrahedron", tetrahedron, 4);
    return count;
}

// The family at `scale` against the brute force: once with margin and slop scaled alike (the
// same scene, magnified), once with the default configuration.
static void check_family_at_scale(const char *test, uint64_t seed, double scale)
{
    robust_bank bank;
    robust_bank_make(&bank);
    uint32_t shapes[16];
    uint32_t count = add_family(&bank, seed, scale, shapes);
    mf_config scaled = mf_config_default();
    scaled.margin = (float)(0.02 * scale);
    scaled.linear_slop = (float)(0.005 * scale);
    CHECK_EQ(robust_check_random_pairs(test, seed, &bank, &scaled, shapes, count, 4000, 8.0 * scale, 1), 0);
    mf_config defaults = mf_config_default();
    CHECK_EQ(robust_check_random_pairs(test, seed + 1, &bank, &defaults, shapes, count, 4000, 8.0 * scale, 1), 0);
    robust_bank_free(&bank);
}

static void millimetre_shapes_match_the_brute_force(void)
{
    check_family_at_scale("millimetre_shapes_match_the_brute_force", 4101, 1e-3);
}

static void hundred_metre_shapes_match_the_brute_force(void)
{
    check_family_at_scale("hundred_metre_shapes_match_the_brute_force", 4201, 100.0);
}

static const test_case tests[] = {
    TEST_CASE(translating_a_pair_by_ten_kilometres_keeps_its_manifold),
    TEST_CASE(millimetre_shapes_match_the_brute_force),
    TEST_CASE(hundred_metre_shapes_match_the_brute_force),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
