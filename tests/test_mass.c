// Mass properties (mf_bank_shape_mass): boxes against their closed forms, random hulls against a
// double-precision sum over tetrahedra, the principal frame against the tensor it diagonalises.
// One behaviour per test; random shapes come from fixed seeds, printed on failure.
#include "check.h"
#include "pool.h"
#include "quatd.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// Results are rounded once to float from double sums; the references are double too.
#define TOLERANCE 1e-5

// R v = q v q*, for a unit q (the matrix mf_transform uses).
static void rotation_matrix(quatd q, double r[3][3])
{
    r[0][0] = 1.0 - 2.0 * (q.y * q.y + q.z * q.z);
    r[0][1] = 2.0 * (q.x * q.y - q.w * q.z);
    r[0][2] = 2.0 * (q.x * q.z + q.w * q.y);
    r[1][0] = 2.0 * (q.x * q.y + q.w * q.z);
    r[1][1] = 1.0 - 2.0 * (q.x * q.x + q.z * q.z);
    r[1][2] = 2.0 * (q.y * q.z - q.w * q.x);
    r[2][0] = 2.0 * (q.x * q.z - q.w * q.y);
    r[2][1] = 2.0 * (q.y * q.z + q.w * q.x);
    r[2][2] = 1.0 - 2.0 * (q.x * q.x + q.y * q.y);
}

static double determinant(double m[3][3])
{
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

// R diag(d) R^T.
static void rotate_diagonal(double r[3][3], const double d[3], double out[3][3])
{
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            out[i][j] = r[i][0] * d[0] * r[j][0] + r[i][1] * d[1] * r[j][1] + r[i][2] * d[2] * r[j][2];
}

// The largest difference between a result's tensor and a reference, over the reference's largest
// entry.
static double tensor_error(const float inertia[9], double expected[3][3])
{
    double largest = 0.0, error = 0.0;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            largest = fmax(largest, fabs(expected[i][j]));
            error = fmax(error, fabs(inertia[3 * i + j] - expected[i][j]));
        }
    }
    return error / largest;
}

static mf_mass mass_of(const mf_bank *bank, uint32_t shape, float density)
{
    mf_mass mass = {0};
    CHECK_EQ(mf_bank_shape_mass(bank, shape, density, &mass), MF_OK);
    return mass;
}

// A box's inertia about its centre: m/3 (hy^2 + hz^2) and so on, in double.
static void box_inertia(mf_vec3 half, double mass, double out[3])
{
    double x = half.x, y = half.y, z = half.z;
    out[0] = mass / 3.0 * (y * y + z * z);
    out[1] = mass / 3.0 * (x * x + z * z);
    out[2] = mass / 3.0 * (x * x + y * y);
}

static void box_mass_and_inertia_match_the_closed_form(void)
{
    const uint64_t seed = 3101;
    test_random random = test_random_seed(seed, 0);
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    for (int trial = 0; trial < 50; ++trial) {
        mf_vec3 half = {(float)test_random_range(&random, 0.05, 3.0), (float)test_random_range(&random, 0.05, 3.0),
                        (float)test_random_range(&random, 0.05, 3.0)};
        float density = (float)test_random_range(&random, 0.5, 2000.0);
        uint32_t box;
        CHECK_EQ(mf_bank_add_box(bank, half, &box), MF_OK);
        mf_mass mass = mass_of(bank, box, density);
        double expected_mass = (double)density * 8.0 * half.x * half.y * half.z, moments[3];
        box_inertia(half, expected_mass, moments);
        double expected[3][3] = {{moments[0], 0, 0}, {0, moments[1], 0}, {0, 0, moments[2]}};
        CHECKF(fabs(mass.mass - expected_mass) <= TOLERANCE * expected_mass, "seed %llu, box %d: mass %.9g, %.9g",
               (unsigned long long)seed, trial, (double)mass.mass, expected_mass);
        double error = tensor_error(mass.inertia, expected);
        CHECKF(error <= TOLERANCE, "seed %llu, box %d (%g %g %g): inertia off by %.3g of its largest moment",
               (unsigned long long)seed, trial, half.x, half.y, half.z, error);
    }
    mf_bank_destroy(bank);
}

static void box_center_is_its_origin(void)
{
    const uint64_t seed = 3102;
    test_random random = test_random_seed(seed, 0);
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    for (int trial = 0; trial < 50; ++trial) {
        mf_vec3 half = {(float)test_random_range(&random, 0.05, 3.0), (float)test_random_range(&random, 0.05, 3.0),
                        (float)test_random_range(&random, 0.05, 3.0)};
        uint32_t box;
        CHECK_EQ(mf_bank_add_box(bank, half, &box), MF_OK);
        mf_mass mass = mass_of(bank, box, 1.0f);
        double size = fmax(half.x, fmax(half.y, half.z));
        CHECKF(fabs(mass.center.x) <= 1e-6 * size && fabs(mass.center.y) <= 1e-6 * size &&
                   fabs(mass.center.z) <= 1e-6 * size,
               "seed %llu, box %d: centre (%g %g %g)", (unsigned long long)seed, trial, mass.center.x, mass.center.y,
               mass.center.z);
    }
    mf_bank_destroy(bank);
}

// The corners of a box with half extents `half`, turned by `turn` and moved to `offset`.
static void moved_box_points(mf_vec3 half, quatd turn, const double offset[3], mf_vec3 points[8])
{
    double r[3][3];
    rotation_matrix(turn, r);
    for (int v = 0; v < 8; ++v) {
        double corner[3] = {v & 1 ? half.x : -half.x, v & 2 ? half.y : -half.y, v & 4 ? half.z : -half.z}, p[3];
        for (int i = 0; i < 3; ++i) p[i] = offset[i] + r[i][0] * corner[0] + r[i][1] * corner[1] + r[i][2] * corner[2];
        points[v] = (mf_vec3){(float)p[0], (float)p[1], (float)p[2]};
    }
}

static void offset_rotated_box_hull_has_the_rotated_tensor(void)
{
    const uint64_t seed = 3103;
    test_random random = test_random_seed(seed, 0);
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    const mf_vec3 half = {0.4f, 0.9f, 1.5f};
    for (int trial = 0; trial < 50; ++trial) {
        quatd turn = quat_from(test_random_rotation(&random));
        double length = sqrt(turn.x * turn.x + turn.y * turn.y + turn.z * turn.z + turn.w * turn.w);
        turn = (quatd){turn.x / length, turn.y / length, turn.z / length, turn.w / length};
        double offset[3] = {test_random_range(&random, -3, 3), test_random_range(&random, -3, 3),
                            test_random_range(&random, -3, 3)};
        mf_vec3 points[8];
        moved_box_points(half, turn, offset, points);
        uint32_t hull;
        CHECK_EQ(mf_bank_add_hull(bank, points, 8, &hull), MF_OK);
        float density = 3.0f;
        mf_mass mass = mass_of(bank, hull, density);

        double expected_mass = (double)density * 8.0 * half.x * half.y * half.z, moments[3], r[3][3], expected[3][3];
        box_inertia(half, expected_mass, moments);
        rotation_matrix(turn, r);
        rotate_diagonal(r, moments, expected);
        CHECKF(fabs(mass.mass - expected_mass) <= TOLERANCE * expected_mass, "seed %llu, trial %d: mass %.9g, %.9g",
               (unsigned long long)seed, trial, (double)mass.mass, expected_mass);
        CHECKF(fabs(mass.center.x - offset[0]) <= TOLERANCE && fabs(mass.center.y - offset[1]) <= TOLERANCE &&
                   fabs(mass.center.z - offset[2]) <= TOLERANCE,
               "seed %llu, trial %d: centre (%.7g %.7g %.7g), expected (%.7g %.7g %.7g)", (unsigned long long)seed,
               trial, mass.center.x, mass.center.y, mass.center.z, offset[0], offset[1], offset[2]);
        double error = tensor_error(mass.inertia, expected);
        CHECKF(error <= TOLERANCE, "seed %llu, trial %d: inertia off R I R^T by %.3g of its largest entry",
               (unsigned long long)seed, trial, error);
        // The moments are distinct, so each principal axis is the turned box axis of that moment:
        // x's moment is the largest, z's the smallest (principal ascends).
        double principal[3][3];
        const int axis_of[3] = {2, 1, 0};
        rotation_matrix(quat_from(mass.principal_rotation), principal);
        for (int k = 0; k < 3; ++k) {
            int a = axis_of[k];
            double along = principal[0][k] * r[0][a] + principal[1][k] * r[1][a] + principal[2][k] * r[2][a];
            CHECKF(fabs(fabs(along) - 1.0) <= TOLERANCE,
                   "seed %llu, trial %d: principal axis %d is %.7g along box axis %d", (unsigned long long)seed, trial,
                   k, along, a);
        }
    }
    mf_bank_destroy(bank);
}

// The reference: the solid cut into tetrahedra from the hull's centroid to every face triangle,
// read back through mf_bank_shape_geometry, each tetrahedron's second moments from the canonical
// tetrahedron's (covariance = det(A) A C A^T, A the edge vectors from the apex as columns and C =
// [[2,1,1],[1,2,1],[1,1,2]] / 120), all in double.
typedef struct reference_mass {
    double mass, center[3], inertia[3][3];
} reference_mass;

static reference_mass tetrahedra_reference(const mf_bank *bank, uint32_t shape, double density)
{
    mf_shape_info info;
    CHECK_EQ(mf_bank_shape_info(bank, shape, &info), MF_OK);
    mf_shape_geometry g = {0};
    g.vertices = malloc(info.vertex_count * sizeof(mf_vec3));
    g.vertex_capacity = info.vertex_count;
    g.face_first = malloc(info.face_count * sizeof(uint32_t));
    g.face_size = malloc(info.face_count * sizeof(uint32_t));
    g.face_capacity = info.face_count;
    g.loop_vertices = malloc(2 * info.edge_count * sizeof(uint32_t));
    g.loop_capacity = 2 * info.edge_count;
    CHECK_EQ(mf_bank_shape_geometry(bank, shape, &g), MF_OK);

    const double apex[3] = {info.centroid.x, info.centroid.y, info.centroid.z};
    double volume = 0.0, first[3] = {0, 0, 0}, second[3][3] = {{0}};
    for (uint32_t f = 0; f < g.face_count; ++f) {
        const uint32_t *loop = g.loop_vertices + g.face_first[f];
        for (uint32_t k = 1; k + 1 < g.face_size[f]; ++k) {
            const mf_vec3 *corner[3] = {&g.vertices[loop[0]], &g.vertices[loop[k]], &g.vertices[loop[k + 1]]};
            double a[3][3]; // columns: the corners from the apex
            for (int c = 0; c < 3; ++c) {
                a[0][c] = corner[c]->x - apex[0];
                a[1][c] = corner[c]->y - apex[1];
                a[2][c] = corner[c]->z - apex[2];
            }
            double det = determinant(a);
            volume += det / 6.0;
            for (int i = 0; i < 3; ++i) first[i] += det / 24.0 * (a[i][0] + a[i][1] + a[i][2]);
            for (int i = 0; i < 3; ++i) {
                for (int j = 0; j < 3; ++j) {
                    double sum = 0.0; // (A C A^T)_ij with C = (identity + ones) / 120
                    for (int p = 0; p < 3; ++p)
                        for (int q = 0; q < 3; ++q) sum += a[i][p] * (p == q ? 2.0 : 1.0) * a[j][q];
                    second[i][j] += det * sum / 120.0;
                }
            }
        }
    }
    reference_mass r = {.mass = density * volume};
    double offset[3];
    for (int i = 0; i < 3; ++i) {
        offset[i] = first[i] / volume;
        r.center[i] = apex[i] + offset[i];
    }
    double covariance[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) covariance[i][j] = second[i][j] - volume * offset[i] * offset[j];
    double trace = covariance[0][0] + covariance[1][1] + covariance[2][2];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r.inertia[i][j] = density * ((i == j ? trace : 0.0) - covariance[i][j]);
    free(g.vertices);
    free(g.face_first);
    free(g.face_size);
    free(g.loop_vertices);
    return r;
}

// Rocks, spheres and boxes of random points, 8 to 64 of them, some far from their local origin.
#define ROCK_SEED 3104
#define ROCK_COUNT 60

static mf_bank *random_hulls(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    test_random random = test_random_seed(ROCK_SEED, 0);
    for (uint32_t i = 0; i < ROCK_COUNT; ++i) {
        mf_vec3 points[64];
        uint32_t count = test_random_int(&random, 8, 64);
        test_cloud_kind kind = i % 2 == 0 ? TEST_CLOUD_ROCK : (test_cloud_kind)(i / 2 % TEST_CLOUD_KINDS);
        double size = test_random_range(&random, 0.1, 10.0), far = i % 3 == 0 ? 10.0 * size : 0.0;
        test_cloud(&random, kind, count, size, points);
        mf_vec3 shift = {(float)test_random_range(&random, -far, far), (float)test_random_range(&random, -far, far),
                         (float)test_random_range(&random, -far, far)};
        for (uint32_t k = 0; k < count; ++k)
            points[k] = (mf_vec3){points[k].x + shift.x, points[k].y + shift.y, points[k].z + shift.z};
        uint32_t shape;
        CHECK_EQ(mf_bank_add_hull(bank, points, count, &shape), MF_OK);
    }
    return bank;
}

static void random_hulls_match_a_double_tetrahedra_reference(void)
{
    mf_bank *bank = random_hulls();
    const float density = 7.25f;
    for (uint32_t shape = 0; shape < mf_bank_shape_count(bank); ++shape) {
        mf_mass mass = mass_of(bank, shape, density);
        reference_mass expected = tetrahedra_reference(bank, shape, density);
        mf_shape_info info;
        CHECK_EQ(mf_bank_shape_info(bank, shape, &info), MF_OK);
        CHECKF(fabs(mass.mass - expected.mass) <= TOLERANCE * expected.mass, "seed %d, hull %u: mass %.9g, %.9g",
               ROCK_SEED, shape, (double)mass.mass, expected.mass);
        double reach = info.radius;
        CHECKF(fabs(mass.center.x - expected.center[0]) <= TOLERANCE * reach &&
                   fabs(mass.center.y - expected.center[1]) <= TOLERANCE * reach &&
                   fabs(mass.center.z - expected.center[2]) <= TOLERANCE * reach,
               "seed %d, hull %u: centre (%.7g %.7g %.7g), expected (%.7g %.7g %.7g)", ROCK_SEED, shape, mass.center.x,
               mass.center.y, mass.center.z, expected.center[0], expected.center[1], expected.center[2]);
        double error = tensor_error(mass.inertia, expected.inertia);
        CHECKF(error <= TOLERANCE, "seed %d, hull %u: inertia off the reference by %.3g of its largest entry",
               ROCK_SEED, shape, error);
    }
    mf_bank_destroy(bank);
}

// Every shape the tests make: boxes, random hulls, a turned box.
static mf_bank *every_kind_of_shape(void)
{
    mf_bank *bank = random_hulls();
    test_random random = test_random_seed(ROCK_SEED, 1);
    uint32_t shape;
    for (int i = 0; i < 10; ++i) {
        mf_vec3 half = {(float)test_random_range(&random, 0.05, 3.0), (float)test_random_range(&random, 0.05, 3.0),
                        (float)test_random_range(&random, 0.05, 3.0)};
        CHECK_EQ(mf_bank_add_box(bank, half, &shape), MF_OK);
    }
    mf_vec3 points[8];
    const double offset[3] = {1, -2, 3};
    moved_box_points((mf_vec3){0.3f, 0.5f, 0.7f}, quat_from(test_random_rotation(&random)), offset, points);
    CHECK_EQ(mf_bank_add_hull(bank, points, 8, &shape), MF_OK);
    return bank;
}

static void principal_frame_reproduces_the_inertia(void)
{
    mf_bank *bank = every_kind_of_shape();
    for (uint32_t shape = 0; shape < mf_bank_shape_count(bank); ++shape) {
        mf_mass mass = mass_of(bank, shape, 2.0f);
        double r[3][3], rebuilt[3][3], moments[3] = {mass.principal.x, mass.principal.y, mass.principal.z};
        rotation_matrix(quat_from(mass.principal_rotation), r);
        rotate_diagonal(r, moments, rebuilt);
        float rebuilt_float[9];
        for (int i = 0; i < 9; ++i) rebuilt_float[i] = (float)rebuilt[i / 3][i % 3];
        double inertia[3][3];
        for (int i = 0; i < 9; ++i) inertia[i / 3][i % 3] = mass.inertia[i];
        double error = tensor_error(rebuilt_float, inertia);
        CHECKF(error <= TOLERANCE, "seed %d, shape %u: R diag(principal) R^T off the inertia by %.3g", ROCK_SEED, shape,
               error);
    }
    mf_bank_destroy(bank);
}

static void principal_rotation_is_a_unit_proper_rotation(void)
{
    mf_bank *bank = every_kind_of_shape();
    for (uint32_t shape = 0; shape < mf_bank_shape_count(bank); ++shape) {
        mf_quat q = mass_of(bank, shape, 2.0f).principal_rotation;
        double length = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
        CHECKF(fabs(length - 1.0) <= 1e-6 && q.w >= 0.0f, "seed %d, shape %u: quaternion (%g %g %g %g)", ROCK_SEED,
               shape, q.x, q.y, q.z, q.w);
        double r[3][3], orthogonality = 0.0;
        rotation_matrix(quat_from(q), r);
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                double dot = r[0][i] * r[0][j] + r[1][i] * r[1][j] + r[2][i] * r[2][j];
                orthogonality = fmax(orthogonality, fabs(dot - (i == j)));
            }
        }
        CHECKF(orthogonality <= 1e-6 && fabs(determinant(r) - 1.0) <= 1e-6,
               "seed %d, shape %u: R^T R off the identity by %.3g, det %.9g", ROCK_SEED, shape, orthogonality,
               determinant(r));
    }
    mf_bank_destroy(bank);
}

static void principal_moments_ascend(void)
{
    mf_bank *bank = every_kind_of_shape();
    for (uint32_t shape = 0; shape < mf_bank_shape_count(bank); ++shape) {
        mf_vec3 p = mass_of(bank, shape, 2.0f).principal;
        CHECKF(p.x > 0.0f && p.x <= p.y && p.y <= p.z, "seed %d, shape %u: principal (%.9g %.9g %.9g)", ROCK_SEED,
               shape, p.x, p.y, p.z);
    }
    mf_bank_destroy(bank);
}

static void tied_moments_keep_a_frame_that_reproduces_the_inertia(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t cube, rod, turned_cube, turned_rod;
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0.5f, 0.5f, 0.5f}, &cube), MF_OK);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0.2f, 1.5f, 0.2f}, &rod), MF_OK);
    const double origin[3] = {0, 0, 0}, axis[3] = {0.48, 0.6, 0.64};
    mf_vec3 points[8];
    moved_box_points((mf_vec3){0.5f, 0.5f, 0.5f}, quat_axis_angle(axis, 0.7), origin, points);
    CHECK_EQ(mf_bank_add_hull(bank, points, 8, &turned_cube), MF_OK);
    moved_box_points((mf_vec3){0.2f, 1.5f, 0.2f}, quat_axis_angle(axis, 0.7), origin, points);
    CHECK_EQ(mf_bank_add_hull(bank, points, 8, &turned_rod), MF_OK);

    // An axis-aligned cube's own axes are principal, and its tensor is diagonal: its frame is kept.
    mf_quat q = mass_of(bank, cube, 1.0f).principal_rotation;
    CHECKF(q.x == 0.0f && q.y == 0.0f && q.z == 0.0f && q.w == 1.0f, "cube: principal rotation (%g %g %g %g)", q.x, q.y,
           q.z, q.w);
    const uint32_t shapes[4] = {cube, rod, turned_cube, turned_rod};
    for (int s = 0; s < 4; ++s) {
        mf_mass mass = mass_of(bank, shapes[s], 1.0f);
        double r[3][3], rebuilt[3][3], moments[3] = {mass.principal.x, mass.principal.y, mass.principal.z};
        rotation_matrix(quat_from(mass.principal_rotation), r);
        rotate_diagonal(r, moments, rebuilt);
        float rebuilt_float[9];
        for (int i = 0; i < 9; ++i) rebuilt_float[i] = (float)rebuilt[i / 3][i % 3];
        double inertia[3][3];
        for (int i = 0; i < 9; ++i) inertia[i / 3][i % 3] = mass.inertia[i];
        double error = tensor_error(rebuilt_float, inertia);
        CHECKF(error <= TOLERANCE, "shape %d: R diag(principal) R^T off the inertia by %.3g", s, error);
        // The cubes' three moments tie, and the rods' two larger ones.
        double tie = s % 2 == 0 ? mass.principal.z - mass.principal.x : mass.principal.z - mass.principal.y;
        CHECKF(fabs(tie) <= TOLERANCE * mass.principal.z, "shape %d: principal (%.9g %.9g %.9g) do not tie", s,
               mass.principal.x, mass.principal.y, mass.principal.z);
    }
    mf_bank_destroy(bank);
}

static void mass_scales_linearly_with_density(void)
{
    mf_bank *bank = every_kind_of_shape();
    const float densities[3] = {2.5f, 1000.0f, 1e-3f};
    for (uint32_t shape = 0; shape < mf_bank_shape_count(bank); ++shape) {
        mf_mass unit = mass_of(bank, shape, 1.0f);
        for (int d = 0; d < 3; ++d) {
            mf_mass mass = mass_of(bank, shape, densities[d]);
            double k = densities[d];
            int linear = fabs(mass.mass - k * unit.mass) <= 1e-6 * k * unit.mass;
            const float *p = &mass.principal.x, *p1 = &unit.principal.x;
            for (int i = 0; i < 3; ++i) linear &= fabs(p[i] - k * p1[i]) <= 1e-6 * k * unit.principal.z;
            for (int i = 0; i < 9; ++i)
                linear &= fabs(mass.inertia[i] - k * unit.inertia[i]) <= 1e-6 * k * unit.principal.z;
            CHECKF(linear, "seed %d, shape %u: density %g does not scale mass %.9g, inertia or principal moments",
                   ROCK_SEED, shape, k, (double)unit.mass);
            // The centre and the principal frame are the solid's, whatever its density.
            CHECK(memcmp(&mass.center, &unit.center, sizeof(mf_vec3)) == 0);
            CHECK(memcmp(&mass.principal_rotation, &unit.principal_rotation, sizeof(mf_quat)) == 0);
        }
    }
    mf_bank_destroy(bank);
}

static void center_and_mass_agree_with_the_shape_info(void)
{
    mf_bank *bank = every_kind_of_shape();
    for (uint32_t shape = 0; shape < mf_bank_shape_count(bank); ++shape) {
        mf_mass mass = mass_of(bank, shape, 4.0f);
        mf_shape_info info;
        CHECK_EQ(mf_bank_shape_info(bank, shape, &info), MF_OK);
        CHECKF(memcmp(&mass.center, &info.centroid, sizeof(mf_vec3)) == 0,
               "seed %d, shape %u: centre (%.9g %.9g %.9g), centroid (%.9g %.9g %.9g)", ROCK_SEED, shape, mass.center.x,
               mass.center.y, mass.center.z, info.centroid.x, info.centroid.y, info.centroid.z);
        CHECKF(fabs(mass.mass - 4.0 * info.volume) <= 1e-6 * 4.0 * info.volume,
               "seed %d, shape %u: mass %.9g, volume %.9g", ROCK_SEED, shape, (double)mass.mass, (double)info.volume);
    }
    mf_bank_destroy(bank);
}

// A result slot filled with a pattern, to see that a refused call leaves it alone.
static int untouched(const mf_mass *mass)
{
    const unsigned char *bytes = (const unsigned char *)mass;
    for (size_t i = 0; i < sizeof(*mass); ++i)
        if (bytes[i] != 0x5a) return 0;
    return 1;
}

static void bad_arguments_get_their_statuses(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t box;
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1, 1, 1}, &box), MF_OK);
    mf_mass mass;
    memset(&mass, 0x5a, sizeof(mass));
    CHECK_EQ(mf_bank_shape_mass(NULL, box, 1.0f, &mass), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_mass(bank, box, 1.0f, NULL), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_mass(bank, box + 1, 1.0f, &mass), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_mass(bank, UINT32_MAX, 1.0f, &mass), MF_ERR_INVALID_ARGUMENT);
    const float nonfinite[3] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; ++i) CHECK_EQ(mf_bank_shape_mass(bank, box, nonfinite[i], &mass), MF_ERR_NONFINITE);
    const float not_positive[4] = {0.0f, -0.0f, -1.0f, -FLT_MAX};
    for (int i = 0; i < 4; ++i)
        CHECK_EQ(mf_bank_shape_mass(bank, box, not_positive[i], &mass), MF_ERR_INVALID_ARGUMENT);
    CHECK(untouched(&mass));
    mf_bank_destroy(bank);
}

static void mass_beyond_float_is_refused(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t unit, large;
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1, 1, 1}, &unit), MF_OK);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1e6f, 1e6f, 1e6f}, &large), MF_OK);
    mf_mass mass;
    memset(&mass, 0x5a, sizeof(mass));
    CHECK_EQ(mf_bank_shape_mass(bank, unit, FLT_MAX, &mass), MF_ERR_NONFINITE);
    CHECK_EQ(mf_bank_shape_mass(bank, large, 1e30f, &mass), MF_ERR_NONFINITE);
    CHECK_EQ(mf_bank_shape_mass(bank, large, 1e10f, &mass), MF_ERR_NONFINITE); // mass 8e28, moments 5e40
    CHECK(untouched(&mass));
    CHECK_EQ(mf_bank_shape_mass(bank, unit, 1e37f, &mass), MF_OK); // mass 8e37, moments 5.3e37
    CHECK_EQ(mf_bank_shape_mass(bank, unit, FLT_MIN, &mass), MF_OK);
    mf_bank_destroy(bank);
}

static const test_case tests[] = {
    TEST_CASE(box_mass_and_inertia_match_the_closed_form),
    TEST_CASE(box_center_is_its_origin),
    TEST_CASE(offset_rotated_box_hull_has_the_rotated_tensor),
    TEST_CASE(random_hulls_match_a_double_tetrahedra_reference),
    TEST_CASE(principal_frame_reproduces_the_inertia),
    TEST_CASE(principal_rotation_is_a_unit_proper_rotation),
    TEST_CASE(principal_moments_ascend),
    TEST_CASE(tied_moments_keep_a_frame_that_reproduces_the_inertia),
    TEST_CASE(mass_scales_linearly_with_density),
    TEST_CASE(center_and_mass_agree_with_the_shape_info),
    TEST_CASE(bad_arguments_get_their_statuses),
    TEST_CASE(mass_beyond_float_is_refused),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
