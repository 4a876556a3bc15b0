// The hull bank through its public introspection: what the builders make of boxes and point clouds.
// One behaviour per test.
#include "check.h"
#include "pool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// A circle of `count` points of radius 1 at each of y = +-0.5.
static void cylinder_points(uint32_t count, mf_vec3 *points)
{
    for (uint32_t i = 0; i < 2 * count; ++i) {
        double angle = 2.0 * TEST_PI * (i % count) / count;
        points[i] = (mf_vec3){(float)cos(angle), i < count ? 0.5f : -0.5f, (float)sin(angle)};
    }
}

// A bank with every kind of shape the tests know: boxes, random clouds, a cylinder, a fine sphere.
static test_pool varied_bank(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(21, 16, 48, &pool), MF_OK);
    mf_vec3 points[1000];
    uint32_t shape;
    cylinder_points(24, points);
    CHECK_EQ(mf_bank_add_hull(pool.bank, points, 48, &shape), MF_OK);
    test_sphere_lattice(1000, 2.0, points);
    CHECK_EQ(mf_bank_add_hull(pool.bank, points, 1000, &shape), MF_OK);
    return pool;
}

typedef struct shape_data {
    mf_shape_info info;
    mf_vec3 *vertices;
} shape_data;

static shape_data shape_load(const mf_bank *bank, uint32_t shape)
{
    shape_data s = {0};
    CHECK_EQ(mf_bank_shape_info(bank, shape, &s.info), MF_OK);
    s.vertices = malloc((s.info.vertex_count + 1) * sizeof(mf_vec3));
    CHECK_EQ(mf_bank_shape_vertices(bank, shape, s.vertices, s.info.vertex_count), MF_OK);
    return s;
}

static void box_faces_have_exact_axis_normals(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t box;
    const mf_vec3 half = {0.3f, 0.7f, 1.9f};
    CHECK_EQ(mf_bank_add_box(bank, half, &box), MF_OK);
    shape_data s = shape_load(bank, box);
    CHECK_EQ(s.info.vertex_count, 8);
    CHECK_EQ(s.info.face_count, 6);
    CHECK_EQ(s.info.edge_count, 12);
    int seen[6] = {0};
    for (uint32_t f = 0; f < s.info.face_count && f < 6; ++f) {
        mf_vec3 n;
        float offset;
        uint32_t loop[8], count;
        CHECK_EQ(mf_bank_shape_face(bank, box, f, &n, &offset, loop, 8, &count), MF_OK);
        CHECK_EQ(count, 4);
        float c[3] = {n.x, n.y, n.z}, h[3] = {half.x, half.y, half.z};
        int axis = -1, exact = 1;
        for (int i = 0; i < 3; ++i) {
            if (c[i] == 1.0f || c[i] == -1.0f) axis = axis < 0 ? i : 99;
            else exact &= c[i] == 0.0f;
        }
        CHECKF(exact && axis >= 0 && axis < 3, "face %u normal (%.9g %.9g %.9g) is not an exact axis", f, n.x, n.y,
               n.z);
        if (!(exact && axis >= 0 && axis < 3)) continue;
        CHECKF(offset == h[axis], "face %u offset %.9g, half extent %.9g", f, offset, h[axis]);
        seen[2 * axis + (c[axis] > 0)] += 1;
    }
    for (int i = 0; i < 6; ++i) CHECKF(seen[i] == 1, "direction %d seen %d times", i, seen[i]);
    for (uint32_t v = 0; v < s.info.vertex_count; ++v)
        CHECK(fabsf(s.vertices[v].x) == half.x && fabsf(s.vertices[v].y) == half.y && fabsf(s.vertices[v].z) == half.z);
    free(s.vertices);
    mf_bank_destroy(bank);
}

static void box_info_reports_volume_centroid_and_radius(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t box;
    const mf_vec3 half = {0.3f, 0.7f, 1.9f};
    CHECK_EQ(mf_bank_add_box(bank, half, &box), MF_OK);
    mf_shape_info info;
    CHECK_EQ(mf_bank_shape_info(bank, box, &info), MF_OK);
    CHECK_NEAR(info.volume, 8.0 * 0.3 * 0.7 * 1.9, 1e-5);
    CHECK_NEAR(info.centroid.x, 0.0, 1e-6);
    CHECK_NEAR(info.centroid.y, 0.0, 1e-6);
    CHECK_NEAR(info.centroid.z, 0.0, 1e-6);
    CHECK_NEAR(info.radius, sqrt(0.09 + 0.49 + 3.61), 1e-6);
    CHECK_EQ(info.input_points, 8);
    CHECK_EQ(info.welded_points, 0);
    mf_bank_destroy(bank);
}

static void hulls_satisfy_euler(void)
{
    test_pool pool = varied_bank();
    for (uint32_t shape = 0; shape < mf_bank_shape_count(pool.bank); ++shape) {
        mf_shape_info info;
        CHECK_EQ(mf_bank_shape_info(pool.bank, shape, &info), MF_OK);
        CHECKF(info.vertex_count + info.face_count == info.edge_count + 2, "shape %u: V %u, F %u, E %u", shape,
               info.vertex_count, info.face_count, info.edge_count);
        // Every edge is on two faces: the loops hold each edge twice.
        uint32_t loop_total = 0;
        for (uint32_t f = 0; f < info.face_count; ++f) {
            uint32_t count = 0;
            CHECK_EQ(mf_bank_shape_face(pool.bank, shape, f, NULL, NULL, NULL, 0, &count), MF_OK);
            CHECKF(count >= 3 && count <= MF_MAX_FACE_VERTICES, "shape %u face %u has %u vertices", shape, f, count);
            loop_total += count;
        }
        CHECKF(loop_total == 2 * info.edge_count, "shape %u: loops hold %u edge uses, %u edges", shape, loop_total,
               info.edge_count);
    }
    test_pool_free(&pool);
}

// Newell's normal of a face loop in double.
static void newell(const mf_vec3 *vertices, const uint32_t *loop, uint32_t count, double normal[3])
{
    normal[0] = normal[1] = normal[2] = 0.0;
    for (uint32_t k = 0; k < count; ++k) {
        mf_vec3 p = vertices[loop[k]], q = vertices[loop[(k + 1) % count]];
        normal[0] += ((double)p.y - q.y) * ((double)p.z + q.z);
        normal[1] += ((double)p.z - q.z) * ((double)p.x + q.x);
        normal[2] += ((double)p.x - q.x) * ((double)p.y + q.y);
    }
    double length = sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
    for (int i = 0; i < 3; ++i) normal[i] /= length;
}

static void face_loops_are_counter_clockwise_from_outside(void)
{
    test_pool pool = varied_bank();
    for (uint32_t shape = 0; shape < mf_bank_shape_count(pool.bank); ++shape) {
        shape_data s = shape_load(pool.bank, shape);
        for (uint32_t f = 0; f < s.info.face_count; ++f) {
            mf_vec3 n;
            float offset;
            uint32_t loop[MF_MAX_FACE_VERTICES], count;
            CHECK_EQ(mf_bank_shape_face(pool.bank, shape, f, &n, &offset, loop, MF_MAX_FACE_VERTICES, &count), MF_OK);
            double newell_normal[3];
            newell(s.vertices, loop, count, newell_normal);
            double agreement = newell_normal[0] * n.x + newell_normal[1] * n.y + newell_normal[2] * n.z;
            CHECKF(agreement > 0.9999, "shape %u face %u: Newell normal and plane normal agree only %.6f", shape, f,
                   agreement);
        }
        free(s.vertices);
    }
    test_pool_free(&pool);
}

static void face_planes_support_the_hull(void)
{
    // Unit normals; every vertex on or below every plane; a face's own vertices on its plane, up to
    // the flatness that merging nearly coplanar facets allows.
    test_pool pool = varied_bank();
    for (uint32_t shape = 0; shape < mf_bank_shape_count(pool.bank); ++shape) {
        shape_data s = shape_load(pool.bank, shape);
        double tolerance = 1e-5 * s.info.radius, flatness = 1e-4 * s.info.radius;
        for (uint32_t f = 0; f < s.info.face_count; ++f) {
            mf_vec3 n;
            float offset;
            uint32_t loop[MF_MAX_FACE_VERTICES], count;
            CHECK_EQ(mf_bank_shape_face(pool.bank, shape, f, &n, &offset, loop, MF_MAX_FACE_VERTICES, &count), MF_OK);
            CHECK_NEAR(sqrt((double)n.x * n.x + (double)n.y * n.y + (double)n.z * n.z), 1.0, 1e-6);
            double highest = -INFINITY;
            for (uint32_t v = 0; v < s.info.vertex_count; ++v) {
                mf_vec3 p = s.vertices[v];
                highest = fmax(highest, (double)n.x * p.x + (double)n.y * p.y + (double)n.z * p.z - offset);
            }
            CHECKF(highest <= tolerance, "shape %u face %u: a vertex is %.3g above the plane", shape, f, highest);
            for (uint32_t k = 0; k < count; ++k) {
                mf_vec3 p = s.vertices[loop[k]];
                double d = (double)n.x * p.x + (double)n.y * p.y + (double)n.z * p.z - offset;
                CHECKF(fabs(d) <= flatness, "shape %u face %u: loop vertex %u is %.3g off the plane", shape, f, loop[k],
                       d);
            }
        }
        free(s.vertices);
    }
    test_pool_free(&pool);
}

static void edges_join_their_two_faces(void)
{
    // face0 runs vertex0 -> vertex1 and face1 runs vertex1 -> vertex0; no edge is listed twice.
    test_pool pool = varied_bank();
    for (uint32_t shape = 0; shape < mf_bank_shape_count(pool.bank); ++shape) {
        mf_shape_info info;
        CHECK_EQ(mf_bank_shape_info(pool.bank, shape, &info), MF_OK);
        uint32_t *keys = malloc(info.edge_count * sizeof(uint32_t) + 1);
        for (uint32_t e = 0; e < info.edge_count; ++e) {
            mf_edge_info edge;
            CHECK_EQ(mf_bank_shape_edge(pool.bank, shape, e, &edge), MF_OK);
            CHECK(edge.vertex0 < info.vertex_count && edge.vertex1 < info.vertex_count && edge.vertex0 != edge.vertex1);
            CHECK(edge.face0 < info.face_count && edge.face1 < info.face_count && edge.face0 != edge.face1);
            for (int side = 0; side < 2; ++side) {
                uint32_t face = side == 0 ? edge.face0 : edge.face1, loop[MF_MAX_FACE_VERTICES], count = 0;
                uint32_t from = side == 0 ? edge.vertex0 : edge.vertex1, to = side == 0 ? edge.vertex1 : edge.vertex0;
                if (face >= info.face_count) continue;
                CHECK_EQ(mf_bank_shape_face(pool.bank, shape, face, NULL, NULL, loop, MF_MAX_FACE_VERTICES, &count),
                         MF_OK);
                int runs = 0;
                for (uint32_t k = 0; k < count; ++k) runs |= loop[k] == from && loop[(k + 1) % count] == to;
                CHECKF(runs, "shape %u edge %u: face%d (%u) does not run %u -> %u", shape, e, side, face, from, to);
            }
            uint32_t low = edge.vertex0 < edge.vertex1 ? edge.vertex0 : edge.vertex1;
            uint32_t high = edge.vertex0 ^ edge.vertex1 ^ low;
            keys[e] = low << 16 | high;
            for (uint32_t j = 0; j < e; ++j)
                CHECKF(keys[j] != keys[e], "shape %u: edges %u and %u are the same", shape, j, e);
        }
        free(keys);
    }
    test_pool_free(&pool);
}

static void cylinder_caps_are_single_faces(void)
{
    // 24 points on each of two circles: two 24-gon caps and 24 quads (pairs of coplanar triangles).
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    mf_vec3 points[48];
    cylinder_points(24, points);
    uint32_t shape;
    CHECK_EQ(mf_bank_add_hull(bank, points, 48, &shape), MF_OK);
    mf_shape_info info;
    CHECK_EQ(mf_bank_shape_info(bank, shape, &info), MF_OK);
    CHECK_EQ(info.vertex_count, 48);
    CHECK_EQ(info.face_count, 26);
    CHECK(info.merged_facets > 0);
    int caps = 0, quads = 0;
    for (uint32_t f = 0; f < info.face_count; ++f) {
        mf_vec3 n;
        float offset;
        uint32_t loop[MF_MAX_FACE_VERTICES], count;
        CHECK_EQ(mf_bank_shape_face(bank, shape, f, &n, &offset, loop, MF_MAX_FACE_VERTICES, &count), MF_OK);
        if (count == 24) {
            ++caps;
            CHECK_NEAR(fabs(n.y), 1.0, 1e-6);
            CHECK_NEAR(offset, 0.5, 1e-6);
        } else {
            quads += count == 4;
            CHECK_NEAR(n.y, 0.0, 1e-5);
        }
    }
    CHECK_EQ(caps, 2);
    CHECK_EQ(quads, 24);
    mf_bank_destroy(bank);
}

static void interior_points_are_dropped(void)
{
    // A cube's corners and 200 points inside it: the hull is the cube.
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    mf_vec3 points[208];
    for (int i = 0; i < 8; ++i) points[i] = (mf_vec3){i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f};
    test_random random = test_random_seed(22, 0);
    for (int i = 8; i < 208; ++i)
        points[i] =
            (mf_vec3){(float)test_random_range(&random, -0.99, 0.99), (float)test_random_range(&random, -0.99, 0.99),
                      (float)test_random_range(&random, -0.99, 0.99)};
    uint32_t shape;
    CHECK_EQ(mf_bank_add_hull(bank, points, 208, &shape), MF_OK);
    shape_data s = shape_load(bank, shape);
    CHECK_EQ(s.info.vertex_count, 8);
    CHECK_EQ(s.info.face_count, 6);
    CHECK_EQ(s.info.edge_count, 12);
    CHECK_EQ(s.info.input_points, 208);
    CHECK_NEAR(s.info.volume, 8.0, 1e-4);
    for (uint32_t v = 0; v < s.info.vertex_count && v < 8; ++v)
        CHECKF(fabsf(s.vertices[v].x) == 1.0f && fabsf(s.vertices[v].y) == 1.0f && fabsf(s.vertices[v].z) == 1.0f,
               "vertex %u (%g %g %g) is not a corner", v, s.vertices[v].x, s.vertices[v].y, s.vertices[v].z);
    free(s.vertices);
    mf_bank_destroy(bank);
}

static void near_duplicate_points_are_welded(void)
{
    // Each corner of a cube given twice, a millionth of the size apart: 8 vertices, 8 welded.
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    mf_vec3 points[16];
    for (int i = 0; i < 16; ++i) {
        float jitter = i >= 8 ? 1e-6f : 0.0f;
        points[i] = (mf_vec3){(i & 1 ? 1.0f : -1.0f) + jitter, (i & 2 ? 1.0f : -1.0f) - jitter, i & 4 ? 1.0f : -1.0f};
    }
    uint32_t shape;
    CHECK_EQ(mf_bank_add_hull(bank, points, 16, &shape), MF_OK);
    mf_shape_info info;
    CHECK_EQ(mf_bank_shape_info(bank, shape, &info), MF_OK);
    CHECK_EQ(info.vertex_count, 8);
    CHECK_EQ(info.face_count, 6);
    CHECK_EQ(info.welded_points, 8);
    CHECK_EQ(info.input_points, 16);
    mf_bank_destroy(bank);
}

static void hull_vertices_come_from_the_input_and_enclose_it(void)
{
    test_random random = test_random_seed(23, 0);
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    for (int trial = 0; trial < 30; ++trial) {
        mf_vec3 points[64];
        uint32_t count = test_random_int(&random, 8, 64), shape;
        test_cloud(&random, (test_cloud_kind)(trial % TEST_CLOUD_KINDS), count, test_random_range(&random, 0.1, 3.0),
                   points);
        for (uint32_t i = 0; i < count; ++i) points[i].x += 10.0f; // off the origin: the builder must shift back
        CHECK_EQ(mf_bank_add_hull(bank, points, count, &shape), MF_OK);
        ref_hull hull;
        CHECK_EQ(ref_hull_load(bank, shape, &hull), MF_OK);
        for (uint32_t v = 0; v < hull.vertex_count; ++v) {
            double nearest = INFINITY;
            for (uint32_t i = 0; i < count; ++i) {
                double dx = hull.vertices[3 * v] - points[i].x, dy = hull.vertices[3 * v + 1] - points[i].y;
                double dz = hull.vertices[3 * v + 2] - points[i].z;
                nearest = fmin(nearest, sqrt(dx * dx + dy * dy + dz * dz));
            }
            CHECKF(nearest <= 1e-6 * hull.radius, "trial %d: vertex %u is %.3g from every input point", trial, v,
                   nearest);
        }
        ref_pose identity = ref_pose_make((mf_transform){{0, 0, 0}, {0, 0, 0, 1}});
        for (uint32_t i = 0; i < count; ++i) {
            double p[3] = {points[i].x, points[i].y, points[i].z};
            double d = ref_signed_distance(&hull, &identity, p);
            CHECKF(d <= 1e-5 * hull.radius, "trial %d: input point %u is %.3g outside the hull", trial, i, d);
        }
        ref_hull_free(&hull);
    }
    mf_bank_destroy(bank);
}

static void nearly_flat_hull_keeps_its_far_corner(void)
{
    // A triangle 5e-5 of its width thick (fuzz_hull's find, tests/fuzz/regressions/hull): qhull's
    // facet merge dropped the far corner (0, 1, 0.307) and left it 0.3 outside. The builder must
    // notice and build again.
    const mf_vec3 points[] = {
        {0x1.61d8p-128f, -0x1.3b3ap-68f, -0x1.3f3b3ap-68f},
        {-0x1.3b3b3ap-68f, 0x1.50513ap-47f, 0x1.519dbp-47f},
        {0x1.519a5p-47f, 0x1.70705p-15f, 0x1.70707p-15f},
        {0x1.70707p-15f, 0x1.70707p-15f, 0x1.70707p-15f},
        {0x1.70707p-15f, 0x1.70707p-15f, 0x1.70707p-47f},
        {0x1.50505p-47f, 0x1.50505p-47f, 0x1.50505p-47f},
        {0x1.50505p-47f, -0x1.53525p-44f, -0x1.535352p-44f},
        {-0x1.535352p-44f, -0x1.535352p-44f, -0x1.535352p-44f},
        {-0x1.535352p-44f, -0x1.535352p-44f, -0x1.535352p-44f},
        {-0x1.535352p-44f, 0x1.535352p-46f, -0x1.3b3b3ap-68f},
        {-0x1.3b3b3ap-68f, -0x1.3b3b3ap-68f, -0x1.3b3b3ap-68f},
        {-0x1.3b3b3ap-126f, 0, 0},
        {0, 0x1p+0f, 0x1.3a4p-2f},
        {0x1p-2f, 0x1p-2f, 0},
    };
    enum { COUNT = sizeof(points) / sizeof(points[0]) };
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t shape;
    CHECK_EQ(mf_bank_add_hull(bank, points, COUNT, &shape), MF_OK);
    ref_hull hull;
    CHECK_EQ(ref_hull_load(bank, shape, &hull), MF_OK);
    ref_pose identity = ref_pose_make((mf_transform){{0, 0, 0}, {0, 0, 0, 1}});
    for (uint32_t i = 0; i < COUNT; ++i) {
        double p[3] = {points[i].x, points[i].y, points[i].z};
        double d = ref_signed_distance(&hull, &identity, p);
        CHECKF(d <= 1e-4 * hull.radius, "input point %u is %.3g outside the hull", i, d);
    }
    ref_hull_free(&hull);
    mf_bank_destroy(bank);
}

static void hull_volume_and_centroid_match_the_faces(void)
{
    // Divergence theorem over the face loops in double, against the bank's numbers.
    test_pool pool = varied_bank();
    for (uint32_t shape = 0; shape < mf_bank_shape_count(pool.bank); ++shape) {
        shape_data s = shape_load(pool.bank, shape);
        double volume = 0.0, centroid[3] = {0, 0, 0};
        for (uint32_t f = 0; f < s.info.face_count; ++f) {
            uint32_t loop[MF_MAX_FACE_VERTICES], count;
            CHECK_EQ(mf_bank_shape_face(pool.bank, shape, f, NULL, NULL, loop, MF_MAX_FACE_VERTICES, &count), MF_OK);
            mf_vec3 a = s.vertices[loop[0]];
            for (uint32_t k = 1; k + 1 < count; ++k) {
                mf_vec3 b = s.vertices[loop[k]], c = s.vertices[loop[k + 1]];
                double v = ((double)a.x * ((double)b.y * c.z - (double)b.z * c.y) -
                            (double)a.y * ((double)b.x * c.z - (double)b.z * c.x) +
                            (double)a.z * ((double)b.x * c.y - (double)b.y * c.x)) /
                           6.0;
                volume += v;
                centroid[0] += v * ((double)a.x + b.x + c.x) / 4.0;
                centroid[1] += v * ((double)a.y + b.y + c.y) / 4.0;
                centroid[2] += v * ((double)a.z + b.z + c.z) / 4.0;
            }
        }
        CHECKF(fabs(s.info.volume - volume) <= 1e-4 * volume, "shape %u: volume %.7g, faces give %.7g", shape,
               (double)s.info.volume, volume);
        double r = s.info.radius;
        CHECKF(fabs(s.info.centroid.x - centroid[0] / volume) <= 1e-4 * r &&
                   fabs(s.info.centroid.y - centroid[1] / volume) <= 1e-4 * r &&
                   fabs(s.info.centroid.z - centroid[2] / volume) <= 1e-4 * r,
               "shape %u: centroid (%g %g %g), faces give (%g %g %g)", shape, s.info.centroid.x, s.info.centroid.y,
               s.info.centroid.z, centroid[0] / volume, centroid[1] / volume, centroid[2] / volume);
        double radius = 0.0;
        for (uint32_t v = 0; v < s.info.vertex_count; ++v)
            radius = fmax(radius,
                          sqrt((double)s.vertices[v].x * s.vertices[v].x + (double)s.vertices[v].y * s.vertices[v].y +
                               (double)s.vertices[v].z * s.vertices[v].z));
        CHECK_NEAR(s.info.radius, radius, 1e-6 * radius);
        free(s.vertices);
    }
    test_pool_free(&pool);
}

static void introspection_copies_no_more_than_capacity(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t box;
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1, 2, 3}, &box), MF_OK);
    mf_vec3 vertices[8];
    memset(vertices, 0x7f, sizeof(vertices));
    mf_bank_shape_vertices(bank, box, vertices, 3);
    for (int i = 3; i < 8; ++i) {
        unsigned char *bytes = (unsigned char *)&vertices[i];
        int untouched = 1;
        for (size_t b = 0; b < sizeof(mf_vec3); ++b) untouched &= bytes[b] == 0x7f;
        CHECKF(untouched, "vertex slot %d beyond capacity 3 was written", i);
    }
    uint32_t loop[4] = {99, 99, 99, 99}, count = 0;
    mf_bank_shape_face(bank, box, 0, NULL, NULL, loop, 2, &count);
    CHECK_EQ(count, 4);
    CHECK(loop[2] == 99 && loop[3] == 99);
    count = 0;
    CHECK_EQ(mf_bank_shape_face(bank, box, 0, NULL, NULL, NULL, 0, &count), MF_OK);
    CHECK_EQ(count, 4);
    mf_bank_destroy(bank);
}

static void shape_geometry_matches_the_item_readers(void)
{
    test_pool pool = varied_bank();
    for (uint32_t shape = 0; shape < mf_bank_shape_count(pool.bank); ++shape) {
        shape_data s = shape_load(pool.bank, shape);
        uint32_t faces = s.info.face_count, edges = s.info.edge_count;
        mf_shape_geometry g = {
            .vertices = malloc(s.info.vertex_count * sizeof(mf_vec3)),
            .vertex_capacity = s.info.vertex_count,
            .face_normals = malloc(faces * sizeof(mf_vec3)),
            .face_offsets = malloc(faces * sizeof(float)),
            .face_first = malloc(faces * sizeof(uint32_t)),
            .face_size = malloc(faces * sizeof(uint32_t)),
            .face_capacity = faces,
            .loop_vertices = malloc(2 * edges * sizeof(uint32_t)),
            .loop_capacity = 2 * edges,
            .edges = malloc(edges * sizeof(mf_edge_info)),
            .edge_capacity = edges,
        };
        CHECK_EQ(mf_bank_shape_geometry(pool.bank, shape, &g), MF_OK);
        CHECK(g.vertex_count == s.info.vertex_count && g.face_count == faces && g.edge_count == edges &&
              g.loop_count == 2 * edges);
        CHECK(memcmp(g.vertices, s.vertices, s.info.vertex_count * sizeof(mf_vec3)) == 0);
        uint32_t at = 0;
        for (uint32_t f = 0; f < faces; ++f) {
            mf_vec3 normal;
            float offset;
            uint32_t loop[MF_MAX_FACE_VERTICES], count = 0;
            CHECK_EQ(mf_bank_shape_face(pool.bank, shape, f, &normal, &offset, loop, MF_MAX_FACE_VERTICES, &count),
                     MF_OK);
            CHECK(memcmp(&g.face_normals[f], &normal, sizeof(normal)) == 0 && g.face_offsets[f] == offset);
            CHECKF(g.face_first[f] == at && g.face_size[f] == count,
                   "shape %u face %u: loop at %u of %u, expected %u of %u", shape, f, g.face_first[f], g.face_size[f],
                   at, count);
            CHECK(memcmp(g.loop_vertices + at, loop, count * sizeof(uint32_t)) == 0);
            at += count;
        }
        CHECK_EQ(at, g.loop_count);
        for (uint32_t e = 0; e < edges; ++e) {
            mf_edge_info edge;
            CHECK_EQ(mf_bank_shape_edge(pool.bank, shape, e, &edge), MF_OK);
            CHECK(memcmp(&g.edges[e], &edge, sizeof(edge)) == 0);
        }
        free(g.vertices);
        free(g.face_normals);
        free(g.face_offsets);
        free(g.face_first);
        free(g.face_size);
        free(g.loop_vertices);
        free(g.edges);
        free(s.vertices);
    }
    test_pool_free(&pool);
}

static void too_small_arrays_report_the_sizes_needed(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t box;
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1, 2, 3}, &box), MF_OK);
    // Sizes alone: every reader takes NULL arrays with capacity 0 and says what it would need.
    mf_shape_geometry sizes = {0};
    CHECK_EQ(mf_bank_shape_geometry(bank, box, &sizes), MF_OK);
    CHECK(sizes.vertex_count == 8 && sizes.face_count == 6 && sizes.loop_count == 24 && sizes.edge_count == 12);
    CHECK_EQ(mf_bank_shape_vertices(bank, box, NULL, 0), MF_OK);
    uint32_t count = 0;
    CHECK_EQ(mf_bank_shape_face(bank, box, 0, NULL, NULL, NULL, 0, &count), MF_OK);
    CHECK_EQ(count, 4);
    // Arrays one short: what fits is copied, nothing past it, and the sizes still come back.
    mf_vec3 vertices[8];
    uint32_t loop[24], first[6];
    memset(vertices, 0x7f, sizeof(vertices));
    memset(loop, 0x7f, sizeof(loop));
    memset(first, 0x7f, sizeof(first));
    mf_shape_geometry g = {.vertices = vertices,
                           .vertex_capacity = 7,
                           .face_first = first,
                           .face_capacity = 5,
                           .loop_vertices = loop,
                           .loop_capacity = 23};
    CHECK_EQ(mf_bank_shape_geometry(bank, box, &g), MF_ERR_CAPACITY);
    CHECK(g.vertex_count == 8 && g.face_count == 6 && g.loop_count == 24 && g.edge_count == 12);
    unsigned char untouched[sizeof(mf_vec3)];
    memset(untouched, 0x7f, sizeof(untouched));
    CHECK(memcmp(&vertices[7], untouched, sizeof(mf_vec3)) == 0 && memcmp(&loop[23], untouched, 4) == 0 &&
          memcmp(&first[5], untouched, 4) == 0);
    CHECK(memcmp(&vertices[6], untouched, sizeof(mf_vec3)) != 0 && first[4] == 16);
    CHECK_EQ(mf_bank_shape_vertices(bank, box, vertices, 7), MF_ERR_CAPACITY);
    mf_bank_destroy(bank);
}

static void shapes_get_distinct_ids_and_keep_them(void)
{
    // Ids stay valid as the bank grows: an early shape reads the same after many more are added.
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t first;
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0.25f, 0.5f, 0.75f}, &first), MF_OK);
    uint32_t ids[300];
    test_random random = test_random_seed(24, 0);
    for (int i = 0; i < 300; ++i) {
        mf_vec3 points[32];
        test_cloud(&random, TEST_CLOUD_SPHERE, 32, 1.0, points);
        CHECK_EQ(mf_bank_add_hull(bank, points, 32, &ids[i]), MF_OK);
        CHECK(ids[i] != first);
        for (int j = 0; j < i; ++j) CHECK(ids[j] != ids[i]);
    }
    CHECK_EQ(mf_bank_shape_count(bank), 301);
    mf_vec3 vertices[8];
    CHECK_EQ(mf_bank_shape_vertices(bank, first, vertices, 8), MF_OK);
    for (int v = 0; v < 8; ++v)
        CHECK(fabsf(vertices[v].x) == 0.25f && fabsf(vertices[v].y) == 0.5f && fabsf(vertices[v].z) == 0.75f);
    mf_bank_destroy(bank);
}

static const test_case tests[] = {
    TEST_CASE(box_faces_have_exact_axis_normals),
    TEST_CASE(box_info_reports_volume_centroid_and_radius),
    TEST_CASE(hulls_satisfy_euler),
    TEST_CASE(face_loops_are_counter_clockwise_from_outside),
    TEST_CASE(face_planes_support_the_hull),
    TEST_CASE(edges_join_their_two_faces),
    TEST_CASE(cylinder_caps_are_single_faces),
    TEST_CASE(interior_points_are_dropped),
    TEST_CASE(near_duplicate_points_are_welded),
    TEST_CASE(hull_vertices_come_from_the_input_and_enclose_it),
    TEST_CASE(nearly_flat_hull_keeps_its_far_corner),
    TEST_CASE(hull_volume_and_centroid_match_the_faces),
    TEST_CASE(introspection_copies_no_more_than_capacity),
    TEST_CASE(shape_geometry_matches_the_item_readers),
    TEST_CASE(too_small_arrays_report_the_sizes_needed),
    TEST_CASE(shapes_get_distinct_ids_and_keep_them),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
