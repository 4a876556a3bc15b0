// Random point clouds and the shape pool (see pool.h).
#include "pool.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void test_cloud(test_random *random, test_cloud_kind kind, uint32_t count, double size, mf_vec3 *points)
{
    double scale[3] = {size, size, size};
    if (kind == TEST_CLOUD_BOX) {
        for (int c = 0; c < 3; ++c) scale[c] = size * test_random_range(random, 0.2, 1.0);
    } else if (kind == TEST_CLOUD_ROCK) {
        scale[1] = size * test_random_range(random, 0.2, 0.5);
        scale[2] = size * test_random_range(random, 0.6, 1.0);
    }
    for (uint32_t i = 0; i < count; ++i) {
        double p[3];
        if (kind == TEST_CLOUD_BOX) {
            for (int c = 0; c < 3; ++c) p[c] = test_random_range(random, -1.0, 1.0);
        } else {
            test_random_direction(random, p);
            double radial =
                kind == TEST_CLOUD_SPHERE ? test_random_range(random, 0.95, 1.05) : test_random_range(random, 0.7, 1.0);
            for (int c = 0; c < 3; ++c) p[c] *= radial;
        }
        points[i] = (mf_vec3){(float)(p[0] * scale[0]), (float)(p[1] * scale[1]), (float)(p[2] * scale[2])};
    }
}

void test_shell_points(test_random *random, uint32_t count, double inner, double outer, mf_vec3 *points)
{
    for (uint32_t i = 0; i < count; ++i) {
        double d[3];
        test_random_direction(random, d);
        double r = test_random_range(random, inner, outer);
        points[i] = (mf_vec3){(float)(r * d[0]), (float)(r * d[1]), (float)(r * d[2])};
    }
}

void test_sphere_lattice(uint32_t count, double radius, mf_vec3 *points)
{
    const double golden_angle = 3.14159265358979323846 * (3.0 - sqrt(5.0));
    for (uint32_t i = 0; i < count; ++i) {
        double z = 1.0 - (2.0 * i + 1.0) / count, r = sqrt(1.0 - z * z), phi = golden_angle * i;
        points[i] = (mf_vec3){(float)(radius * r * cos(phi)), (float)(radius * r * sin(phi)), (float)(radius * z)};
    }
}

mf_status test_pool_make(uint64_t seed, uint32_t box_count, uint32_t hull_count, test_pool *pool)
{
    *pool = (test_pool){0};
    mf_status status = mf_bank_create(&pool->bank);
    if (status != MF_OK) return status;
    uint32_t total = box_count + hull_count;
    pool->reference = calloc(total, sizeof(ref_hull));
    pool->half_extents = calloc(box_count > 0 ? box_count : 1, sizeof(mf_vec3));
    if (pool->reference == NULL || pool->half_extents == NULL) status = MF_ERR_OUT_OF_MEMORY;
    test_random random = test_random_seed(seed, 0x9001);
    for (uint32_t i = 0; i < box_count && status == MF_OK; ++i) {
        mf_vec3 h = {(float)test_random_range(&random, 0.1, 1.0), (float)test_random_range(&random, 0.1, 1.0),
                     (float)test_random_range(&random, 0.1, 1.0)};
        uint32_t shape;
        status = mf_bank_add_box(pool->bank, h, &shape);
        if (status == MF_OK && shape != i) status = MF_ERR_INVALID_ARGUMENT;
        pool->half_extents[i] = h;
        ++pool->box_count;
    }
    for (uint32_t i = 0; i < hull_count && status == MF_OK; ++i) {
        mf_vec3 points[64];
        uint32_t count = test_random_int(&random, 8, 64);
        test_cloud(&random, (test_cloud_kind)(i % TEST_CLOUD_KINDS), count, test_random_range(&random, 0.3, 1.0),
                   points);
        uint32_t shape;
        status = mf_bank_add_hull(pool->bank, points, count, &shape);
        if (status == MF_OK && shape != box_count + i) status = MF_ERR_INVALID_ARGUMENT;
        ++pool->hull_count;
    }
    for (uint32_t s = 0; s < total && status == MF_OK; ++s) status = ref_hull_load(pool->bank, s, &pool->reference[s]);
    if (status != MF_OK) test_pool_free(pool);
    return status;
}

void test_pool_free(test_pool *pool)
{
    uint32_t total = pool->box_count + pool->hull_count;
    for (uint32_t s = 0; pool->reference != NULL && s < total; ++s) ref_hull_free(&pool->reference[s]);
    free(pool->reference);
    free(pool->half_extents);
    mf_bank_destroy(pool->bank);
    *pool = (test_pool){0};
}

void test_pool_print_shape(const test_pool *pool, uint32_t shape)
{
    if (shape < pool->box_count) {
        mf_vec3 h = pool->half_extents[shape];
        fprintf(stderr, "  shape %u: box, half extents {%.9g, %.9g, %.9g}\n", shape, h.x, h.y, h.z);
        return;
    }
    const ref_hull *hull = &pool->reference[shape];
    fprintf(stderr, "  shape %u: hull of these %u points (its vertices): {", shape, hull->vertex_count);
    for (uint32_t i = 0; i < hull->vertex_count; ++i) {
        const double *v = hull->vertices + 3 * i;
        fprintf(stderr, "%s{%.9g, %.9g, %.9g}", i ? ", " : "", v[0], v[1], v[2]);
    }
    fprintf(stderr, "}\n");
}
