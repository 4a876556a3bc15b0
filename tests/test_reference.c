// The brute-force reference itself: separations worked out by hand, its pruning against a plain
// loop over every axis, and the Gauss-map candidates against the full set where theory says they
// agree. The property tests are only as good as this file.
#include "check.h"
#include "harness.h"
#include "pairs.h"
#include "reference.h"

#include <math.h>
#include <stdlib.h>

typedef struct two_hulls {
    mf_bank *bank;
    ref_hull a, b;
    ref_pair *pair;
} two_hulls;

static two_hulls two_boxes(mf_vec3 half_a, mf_vec3 half_b)
{
    two_hulls t = {0};
    uint32_t a, b;
    CHECK_EQ(mf_bank_create(&t.bank), MF_OK);
    CHECK_EQ(mf_bank_add_box(t.bank, half_a, &a), MF_OK);
    CHECK_EQ(mf_bank_add_box(t.bank, half_b, &b), MF_OK);
    CHECK_EQ(ref_hull_load(t.bank, a, &t.a), MF_OK);
    CHECK_EQ(ref_hull_load(t.bank, b, &t.b), MF_OK);
    t.pair = ref_pair_create();
    return t;
}

static void two_hulls_free(two_hulls *t)
{
    ref_pair_destroy(t->pair);
    ref_hull_free(&t->a);
    ref_hull_free(&t->b);
    mf_bank_destroy(t->bank);
}

static void aligned_boxes_separate_by_their_gap(void)
{
    two_hulls t = two_boxes((mf_vec3){1.0f, 0.5f, 0.25f}, (mf_vec3){0.5f, 0.5f, 0.5f});
    const double gaps[] = {-0.3, -0.01, 0.0, 0.015, 0.4};
    for (int axis = 0; axis < 3; ++axis) {
        double half_a = axis == 0 ? 1.0 : axis == 1 ? 0.5 : 0.25;
        for (int g = 0; g < 5; ++g) {
            double d = half_a + 0.5 + gaps[g];
            mf_transform b = test_pose(axis == 0 ? -d : 0, axis == 1 ? d : 0, axis == 2 ? d : 0, TEST_IDENTITY);
            ref_pair_set(t.pair, &t.a, test_pose(0, 0, 0, TEST_IDENTITY), &t.b, b);
            ref_axis best = ref_best_axis(t.pair);
            CHECK_NEAR(best.separation, gaps[g], 1e-6);
            CHECK_NEAR(fabs(best.normal[axis]), 1.0, 1e-9);
            CHECK(best.kind != REF_AXIS_EDGES || gaps[g] > 0.0);
            double expected_normal = axis == 0 ? -1.0 : 1.0; // from a to b
            CHECK_NEAR(best.normal[axis], expected_normal, 1e-9);
            // Moved and turned together, nothing changes.
            mf_quat q = test_quat_axis_angle(1, 2, 3, 0.7);
            ref_pose turn = ref_pose_make(test_pose(5, -6, 7, q));
            double local[3] = {b.p.x, b.p.y, b.p.z}, world[3];
            ref_pose_apply(&turn, local, world);
            mf_transform b_turned = test_pose(world[0], world[1], world[2], q);
            ref_pair_set(t.pair, &t.a, test_pose(5, -6, 7, q), &t.b, b_turned);
            CHECK_NEAR(ref_best_axis(t.pair).separation, gaps[g], 1e-6);
        }
    }
    two_hulls_free(&t);
}

static void crossed_cubes_separate_along_the_edge_axis(void)
{
    two_hulls t = two_boxes((mf_vec3){0.5f, 0.5f, 0.5f}, (mf_vec3){0.5f, 0.5f, 0.5f});
    double ridge = 0.5 * sqrt(2.0);
    for (int i = 0; i < 3; ++i) {
        double gap = i == 0 ? -0.01 : i == 1 ? 0.0 : 0.01;
        ref_pair_set(t.pair, &t.a, test_pose(0, 0, 0, test_quat_axis_angle(0, 0, 1, 0.25 * TEST_PI)), &t.b,
                     test_pose(0, 2 * ridge + gap, 0, test_quat_axis_angle(1, 0, 0, 0.25 * TEST_PI)));
        ref_axis best = ref_best_axis(t.pair);
        CHECK_NEAR(best.separation, gap, 1e-6);
        CHECK_EQ(best.kind, REF_AXIS_EDGES);
        CHECK_NEAR(best.normal[1], 1.0, 1e-6);
    }
    two_hulls_free(&t);
}

static void signed_distance_of_a_box(void)
{
    two_hulls t = two_boxes((mf_vec3){1.0f, 2.0f, 3.0f}, (mf_vec3){1, 1, 1});
    ref_pose pose = ref_pose_make(test_pose(1, 1, 1, test_quat_axis_angle(0, 1, 0, 0.5 * TEST_PI)));
    // Turned a quarter about y: local x is world -z, local z is world x.
    double inside[3] = {3.5, 1.0, 1.0}, on_face[3] = {4.0, 1.0, 1.0}, outside[3] = {1.0, 3.5, 1.0};
    CHECK_NEAR(ref_signed_distance(&t.a, &pose, inside), -0.5, 1e-6);
    CHECK_NEAR(ref_signed_distance(&t.a, &pose, on_face), 0.0, 1e-6);
    CHECK_NEAR(ref_signed_distance(&t.a, &pose, outside), 0.5, 1e-6);
    two_hulls_free(&t);
}

static void quaternions_are_normalised(void)
{
    mf_quat q = test_quat_axis_angle(3, -1, 2, 1.1);
    ref_pose unit = ref_pose_make(test_pose(0, 0, 0, q));
    const float scales[3] = {8.0f, 0.125f, 3.0f};
    for (int s = 0; s < 3; ++s) {
        float k = scales[s];
        ref_pose scaled = ref_pose_make(test_pose(0, 0, 0, (mf_quat){q.x * k, q.y * k, q.z * k, q.w * k}));
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) CHECK_NEAR(unit.rotation[i][j], scaled.rotation[i][j], 1e-7);
    }
}

// Every face normal and edge pair with full projections, both orientations, nothing skipped but
// parallel edges: what ref_best_axis must equal.
static double plain_best(const ref_pair *pair)
{
    double best = -INFINITY;
    for (int h = 0; h < 2; ++h) {
        for (uint32_t f = 0; f < pair->hull[h]->face_count; ++f) {
            const double *n = pair->normal[h] + 3 * f;
            double minus[3] = {-n[0], -n[1], -n[2]};
            best = fmax(best, fmax(ref_separation_along(pair, n), ref_separation_along(pair, minus)));
        }
    }
    for (uint32_t i = 0; i < pair->hull[0]->edge_count; ++i) {
        for (uint32_t j = 0; j < pair->hull[1]->edge_count; ++j) {
            const double *p = pair->edge[0] + 3 * i, *q = pair->edge[1] + 3 * j;
            double u[3] = {p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]};
            double length = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
            if (length < REF_PARALLEL_SINE) continue;
            double n[3] = {u[0] / length, u[1] / length, u[2] / length}, minus[3] = {-n[0], -n[1], -n[2]};
            best = fmax(best, fmax(ref_separation_along(pair, n), ref_separation_along(pair, minus)));
        }
    }
    return best;
}

static void pruning_changes_no_answer(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(41, 16, 16, &pool), MF_OK);
    ref_pair *pair = ref_pair_create();
    int checked = 0;
    for (int category = 0; category < 3; ++category) {
        for (uint32_t i = 0; i < 300; ++i) {
            uint32_t shape[2];
            mf_transform transform[2];
            test_make_pair(&pool, (test_category)category, 41, i, 0.02f, shape, transform);
            ref_pair_set(pair, &pool.reference[shape[0]], transform[0], &pool.reference[shape[1]], transform[1]);
            ref_axis best = ref_best_axis(pair);
            double plain = plain_best(pair);
            CHECKF(fabs(best.separation - plain) <= 1e-12, "category %d pair %u: pruned %.17g, plain %.17g", category,
                   i, best.separation, plain);
            CHECK_NEAR(ref_separation_along(pair, best.normal), best.separation, 1e-12);
            ++checked;
        }
    }
    CHECK_EQ(checked, 900);
    ref_pair_destroy(pair);
    test_pool_free(&pool);
}

static void gauss_map_candidates_agree_when_hulls_overlap(void)
{
    // For overlapping hulls the deepest face of the Minkowski difference is the answer, and every
    // other direction separates less: both candidate sets give the same number. When separated,
    // the Gauss-map answer can only be smaller.
    test_pool pool;
    CHECK_EQ(test_pool_make(42, 16, 16, &pool), MF_OK);
    ref_pair *pair = ref_pair_create();
    int overlapping = 0, smaller = 0;
    for (int category = 0; category < 3; ++category) {
        for (uint32_t i = 0; i < 500; ++i) {
            uint32_t shape[2];
            mf_transform transform[2];
            test_make_pair(&pool, (test_category)category, 42, i, 0.02f, shape, transform);
            ref_pair_set(pair, &pool.reference[shape[0]], transform[0], &pool.reference[shape[1]], transform[1]);
            ref_axis all = ref_best_axis(pair), sat = ref_best_axis_gauss_map(pair);
            CHECKF(sat.separation <= all.separation + 1e-9, "category %d pair %u: Gauss-map %.9g > all %.9g", category,
                   i, sat.separation, all.separation);
            if (all.separation < -1e-6) {
                ++overlapping;
                CHECKF(fabs(sat.separation - all.separation) <= 1e-7, "category %d pair %u: Gauss-map %.9g, all %.9g",
                       category, i, sat.separation, all.separation);
            }
            smaller += sat.separation < all.separation - 1e-6;
        }
    }
    CHECKF(overlapping > 500, "only %d overlapping pairs", overlapping);
    printf("%d overlapping pairs agree; %d separated pairs have a smaller Gauss-map answer\n", overlapping, smaller);
    ref_pair_destroy(pair);
    test_pool_free(&pool);
}

static const test_case tests[] = {
    TEST_CASE(aligned_boxes_separate_by_their_gap),
    TEST_CASE(crossed_cubes_separate_along_the_edge_axis),
    TEST_CASE(signed_distance_of_a_box),
    TEST_CASE(quaternions_are_normalised),
    TEST_CASE(pruning_changes_no_answer),
    TEST_CASE(gauss_map_candidates_agree_when_hulls_overlap),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
