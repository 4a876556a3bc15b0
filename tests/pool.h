// Random shapes for the tests: point-cloud generators and a pool of boxes and hulls in one bank,
// each with its double-precision reference hull. Scenes reuse a small pool with many transforms.
#pragma once

#include "manyfold.h"
#include "random.h"
#include "reference.h"

typedef enum test_cloud_kind {
    TEST_CLOUD_SPHERE, // near a sphere: every point on the hull, many faces
    TEST_CLOUD_BOX,    // uniform in a box: interior points, a few near-coplanar facets
    TEST_CLOUD_ROCK,   // a flattened, lumpy sphere
    TEST_CLOUD_KINDS
} test_cloud_kind;

// `count` points of the given kind, centred near the origin, about `size` across in radius.
void test_cloud(test_random *random, test_cloud_kind kind, uint32_t count, double size, mf_vec3 *points);

// `count` points in random directions at random distances in [inner, outer] from the origin: a
// lumpy ball whose hull has most of them as vertices.
void test_shell_points(test_random *random, uint32_t count, double inner, double outer, mf_vec3 *points);

// `count` points evenly spread on a sphere (Fibonacci lattice).
void test_sphere_lattice(uint32_t count, double radius, mf_vec3 *points);

typedef struct test_pool {
    mf_bank *bank;
    uint32_t box_count;    // boxes are shapes [0, box_count)
    uint32_t hull_count;   // hulls follow them
    ref_hull *reference;   // per shape
    mf_vec3 *half_extents; // per box
} test_pool;

// Boxes with half extents in [0.1, 1], hulls of 8 to 64 points of every cloud kind.
mf_status test_pool_make(uint64_t seed, uint32_t box_count, uint32_t hull_count, test_pool *pool);
void test_pool_free(test_pool *pool);

// Prints a shape so that a failure can be rebuilt: a box's half extents or a hull's vertices.
void test_pool_print_shape(const test_pool *pool, uint32_t shape);
