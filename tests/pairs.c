// Random pairs (see pairs.h).
#include "pairs.h"

#include "quatd.h"

#include <math.h>

// Extent of a hull of the given scale along a world direction, relative to the body's origin.
static void rotated_extent(const ref_hull *hull, double scale, mf_quat q, const double direction[3], double *low,
                           double *high)
{
    ref_pose pose = ref_pose_make((mf_transform){{0, 0, 0}, q});
    *low = INFINITY;
    *high = -INFINITY;
    for (uint32_t i = 0; i < hull->vertex_count; ++i) {
        double w[3];
        ref_pose_apply(&pose, hull->vertices + 3 * i, w);
        double d = (w[0] * direction[0] + w[1] * direction[1] + w[2] * direction[2]) * scale;
        *low = fmin(*low, d);
        *high = fmax(*high, d);
    }
}

// The true separation can only be larger than the gap drawn along the approach direction. The
// bodies have the scales given (1 leaves every number as it is).
static void make_pair(const test_pool *pool, test_category kind, uint64_t seed, uint32_t index, float margin,
                      const double scale[2], uint32_t shape[2], mf_transform transform[2])
{
    test_random random = test_random_seed(seed, index);
    uint32_t box = test_random_int(&random, 0, pool->box_count - 1);
    uint32_t hull = pool->box_count + test_random_int(&random, 0, pool->hull_count - 1);
    if (kind == TEST_PAIRS_BOX) {
        shape[0] = box;
        shape[1] = test_random_int(&random, 0, pool->box_count - 1);
    } else if (kind == TEST_PAIRS_HULL) {
        shape[0] = hull;
        shape[1] = pool->box_count + test_random_int(&random, 0, pool->hull_count - 1);
    } else {
        int box_first = test_random_unit(&random) < 0.5;
        shape[0] = box_first ? box : hull;
        shape[1] = box_first ? hull : box;
    }
    const ref_hull *a = &pool->reference[shape[0]], *b = &pool->reference[shape[1]];

    quatd qa = quat_from(test_random_rotation(&random)), qb;
    double direction[3];
    if (test_random_unit(&random) < 0.5) {
        qb = quat_from(test_random_rotation(&random));
        test_random_direction(&random, direction);
    } else {
        uint32_t face_a = test_random_int(&random, 0, a->face_count - 1);
        uint32_t face_b = test_random_int(&random, 0, b->face_count - 1);
        ref_pose pose_a = ref_pose_make((mf_transform){{0, 0, 0}, quat_to(qa)});
        const double *na = a->normals + 3 * face_a;
        for (int i = 0; i < 3; ++i)
            direction[i] =
                pose_a.rotation[i][0] * na[0] + pose_a.rotation[i][1] * na[1] + pose_a.rotation[i][2] * na[2];
        double target[3] = {-direction[0], -direction[1], -direction[2]};
        qb = quat_multiply(quat_axis_angle(target, test_random_range(&random, 0.0, 2.0 * TEST_PI)),
                           quat_between(b->normals + 3 * face_b, target));
        if (test_random_unit(&random) < 0.3) {
            double axis[3];
            test_random_direction(&random, axis);
            qb = quat_multiply(quat_axis_angle(axis, test_random_range(&random, -2e-3, 2e-3)), qb);
        }
    }
    transform[0].q = quat_to(qa);
    transform[1].q = quat_to(qb);
    // Quaternions are normalised on use: some come in at the wrong length.
    for (int h = 0; h < 2; ++h) {
        if (test_random_unit(&random) < 0.1) {
            float s = (float)test_random_range(&random, 0.5, 2.0);
            transform[h].q =
                (mf_quat){transform[h].q.x * s, transform[h].q.y * s, transform[h].q.z * s, transform[h].q.w * s};
        }
    }

    double small = fmin(a->radius * scale[0], b->radius * scale[1]), u = test_random_unit(&random), gap;
    // Deep overlaps as the rock scenes pose them, then shallow ones, near contacts and misses.
    if (u < 0.2) gap = -test_random_range(&random, 0.25 * small, 1.5 * small);
    else if (u < 0.55) gap = -test_random_range(&random, 0.0, 0.25 * small);
    else if (u < 0.75) gap = test_random_range(&random, -0.002, margin);
    else if (u < 0.9) gap = test_random_range(&random, margin, margin + 0.1);
    else gap = test_random_range(&random, -1e-4, 1e-4);

    double lateral[3], along;
    test_random_direction(&random, lateral);
    along = lateral[0] * direction[0] + lateral[1] * direction[1] + lateral[2] * direction[2];
    double lateral_size = test_random_range(&random, 0.0, 0.7 * small);
    for (int i = 0; i < 3; ++i) lateral[i] = (lateral[i] - along * direction[i]) * lateral_size;

    double low_a, high_a, low_b, high_b;
    rotated_extent(a, scale[0], transform[0].q, direction, &low_a, &high_a);
    rotated_extent(b, scale[1], transform[1].q, direction, &low_b, &high_b);
    double distance = gap + high_a - low_b;
    double pa[3] = {test_random_range(&random, -8, 8), test_random_range(&random, -8, 8),
                    test_random_range(&random, -8, 8)};
    transform[0].p = (mf_vec3){(float)pa[0], (float)pa[1], (float)pa[2]};
    transform[1].p = (mf_vec3){(float)(pa[0] + lateral[0] + distance * direction[0]),
                               (float)(pa[1] + lateral[1] + distance * direction[1]),
                               (float)(pa[2] + lateral[2] + distance * direction[2])};
}

void test_make_pair(const test_pool *pool, test_category kind, uint64_t seed, uint32_t index, float margin,
                    uint32_t shape[2], mf_transform transform[2])
{
    const double unscaled[2] = {1.0, 1.0};
    make_pair(pool, kind, seed, index, margin, unscaled, shape, transform);
}

void test_make_scaled_pair(const test_pool *pool, test_category kind, uint64_t seed, uint32_t index, float margin,
                           float low, float high, uint32_t shape[2], mf_transform transform[2], float scale[2])
{
    // Scales from a stream of their own: the pair is posed as test_make_pair poses it, for its sizes.
    test_random random = test_random_seed(seed ^ 0x5ca1ed5ca1edull, index);
    double scales[2];
    for (int h = 0; h < 2; ++h) {
        // Log-uniform in [low, high], and now and then exactly 1 (a scaled body beside an unscaled one).
        double u = test_random_unit(&random);
        scale[h] = u < 0.15 ? 1.0f : (float)(low * pow((double)high / low, test_random_unit(&random)));
        scales[h] = scale[h];
    }
    make_pair(pool, kind, seed, index, margin, scales, shape, transform);
}
