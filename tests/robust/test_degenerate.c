// Degenerate geometry: slivers and needles, nearly flat point sets, near-duplicate points, faces
// that are almost parallel, exactly parallel edges, coincident bodies, exact touching. The
// library must not crash or produce NaN, and its manifolds must pass the brute-force checker
// (tests/reference.h). Random scenes from fixed seeds; failures print the seed and pair.
#include "check.h"
#include "pool.h"
#include "robust.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A built hull's introspection is a closed convex polyhedron with unit normals; returns violations.
static int hull_is_sane(const mf_bank *bank, uint32_t shape, char *why, size_t why_size)
{
    mf_shape_info info;
    if (mf_bank_shape_info(bank, shape, &info) != MF_OK) return snprintf(why, why_size, "no info"), 1;
    if (info.vertex_count + info.face_count != info.edge_count + 2 || info.face_count < 4)
        return snprintf(why, why_size, "%u vertices, %u edges, %u faces", info.vertex_count, info.edge_count,
                        info.face_count),
               1;
    if (!(info.volume > 0.0f) || !isfinite(info.volume) || !isfinite(info.radius))
        return snprintf(why, why_size, "volume %g radius %g", (double)info.volume, (double)info.radius), 1;
    static mf_vec3 corners[MF_MAX_HULL_VERTICES];
    mf_bank_shape_vertices(bank, shape, corners, MF_MAX_HULL_VERTICES);
    for (uint32_t f = 0; f < info.face_count; ++f) {
        mf_vec3 n;
        float offset;
        uint32_t count;
        if (mf_bank_shape_face(bank, shape, f, &n, &offset, NULL, 0, &count) != MF_OK)
            return snprintf(why, why_size, "face %u", f), 1;
        double length = sqrt((double)n.x * n.x + (double)n.y * n.y + (double)n.z * n.z);
        if (!(fabs(length - 1.0) < 1e-5) || !isfinite(offset) || count < 3)
            return snprintf(why, why_size, "face %u: normal length %.9g, offset %g, %u vertices", f, length,
                            (double)offset, count),
                   1;
        // Convex in its plane: the loop turns counter-clockwise about the normal at every corner
        // (clipping against the face's side planes needs it).
        uint32_t loop[MF_MAX_FACE_VERTICES];
        mf_bank_shape_face(bank, shape, f, NULL, NULL, loop, MF_MAX_FACE_VERTICES, &count);
        for (uint32_t k = 0; k < count; ++k) {
            mf_vec3 p = corners[loop[k]], q = corners[loop[(k + 1) % count]], r = corners[loop[(k + 2) % count]];
            double u[3] = {(double)q.x - p.x, (double)q.y - p.y, (double)q.z - p.z};
            double v[3] = {(double)r.x - q.x, (double)r.y - q.y, (double)r.z - q.z};
            double turn = (u[1] * v[2] - u[2] * v[1]) * n.x + (u[2] * v[0] - u[0] * v[2]) * n.y +
                          (u[0] * v[1] - u[1] * v[0]) * n.z;
            double lengths =
                sqrt((u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
            if (turn < -1e-5 * lengths)
                return snprintf(why, why_size, "face %u turns inward at its corner %u (sine %.3g)", f,
                                loop[(k + 1) % count], turn / lengths),
                       1;
        }
    }
    return 0;
}

// ---- slivers and needles ----

static void sliver_and_needle_boxes_match_the_brute_force(void)
{
    robust_bank bank;
    robust_bank_make(&bank);
    uint32_t shapes[6];
    shapes[0] = robust_add_box(&bank, "sliver box 1000:1", 1.0, 1e-3, 1.0);
    shapes[1] = robust_add_box(&bank, "needle box 1000:1", 1e-3, 1e-3, 1.0);
    shapes[2] = robust_add_box(&bank, "ribbon box", 1.0, 1e-3, 0.05);
    shapes[3] = robust_add_box(&bank, "cube", 0.5, 0.5, 0.5);
    shapes[4] = robust_add_box(&bank, "ground", 2.0, 0.5, 2.0);
    shapes[5] = robust_add_box(&bank, "needle box 1000:1 along x", 1.0, 1e-3, 1e-3);
    mf_config config = mf_config_default();
    CHECK_EQ(robust_check_random_pairs("sliver_and_needle_boxes_match_the_brute_force", 5001, &bank, &config, shapes, 6,
                                       6000, 4.0, 1),
             0);
    robust_bank_free(&bank);
}

static void sliver_and_needle_hulls_match_the_brute_force(void)
{
    const uint64_t seed = 5002;
    robust_bank bank;
    robust_bank_make(&bank);
    uint32_t shapes[6];
    mf_vec3 points[64];
    // A hexagonal needle 2 mm thick and 1 m long.
    for (int i = 0; i < 12; ++i) {
        double angle = TEST_PI / 3.0 * (i % 6);
        points[i] = (mf_vec3){(float)(1e-3 * cos(angle)), (float)(1e-3 * sin(angle)), i < 6 ? -0.5f : 0.5f};
    }
    shapes[0] = robust_add_hull(&bank, "hexagonal needle 500:1", points, 12);
    // A slab 1 mm thick: random points on its two big faces.
    test_random random = test_random_seed(seed, 1);
    for (int i = 0; i < 40; ++i)
        points[i] = (mf_vec3){(float)test_random_range(&random, -0.5, 0.5), i % 2 ? 5e-4f : -5e-4f,
                              (float)test_random_range(&random, -0.5, 0.5)};
    shapes[1] = robust_add_hull(&bank, "sliver slab 1000:1", points, 40);
    // A coin: two 24-gons 1 mm apart.
    for (int i = 0; i < 48; ++i) {
        double angle = 2.0 * TEST_PI * (i % 24) / 24.0;
        points[i] = (mf_vec3){(float)(0.5 * cos(angle)), i < 24 ? 5e-4f : -5e-4f, (float)(0.5 * sin(angle))};
    }
    shapes[2] = robust_add_hull(&bank, "coin 1000:1", points, 48);
    // A random sliver of a rock: a cloud squashed 1000:1.
    test_cloud(&random, TEST_CLOUD_ROCK, 32, 0.5, points);
    for (int i = 0; i < 32; ++i) points[i].y *= 1e-3f;
    shapes[3] = robust_add_hull(&bank, "squashed rock", points, 32);
    shapes[4] = robust_add_box(&bank, "cube", 0.5, 0.5, 0.5);
    test_cloud(&random, TEST_CLOUD_SPHERE, 24, 0.5, points);
    shapes[5] = robust_add_hull(&bank, "sphere hull", points, 24);
    for (uint32_t i = 0; i < 6; ++i) {
        char why[256] = "";
        CHECKF(hull_is_sane(bank.bank, shapes[i], why, sizeof(why)) == 0, "%s: %s", bank.name[shapes[i]], why);
    }
    mf_config config = mf_config_default();
    CHECK_EQ(robust_check_random_pairs("sliver_and_needle_hulls_match_the_brute_force", seed, &bank, &config, shapes, 6,
                                       6000, 4.0, 1),
             0);
    robust_bank_free(&bank);
}

// ---- nearly flat and nearly duplicate point sets ----

// Random pairs of the shape against a cube, a plank and itself.
static uint32_t collide_with_partners(const char *test, uint64_t seed, robust_bank *bank, uint32_t shape)
{
    uint32_t choices[3] = {shape, robust_add_box(bank, "cube", 0.5, 0.5, 0.5),
                           robust_add_box(bank, "plank", 1.0, 0.1, 0.5)};
    mf_config config = mf_config_default();
    return robust_check_random_pairs(test, seed, bank, &config, choices, 3, 1500, 2.0, 1);
}

static void nearly_coplanar_points_give_a_thin_hull_or_a_degenerate_refusal(void)
{
    const char *test = "nearly_coplanar_points_give_a_thin_hull_or_a_degenerate_refusal";
    const double thicknesses[] = {0.0, 1e-9, 1e-7, 1e-6, 3e-6, 1e-5, 3e-5, 1e-4, 1e-3};
    for (uint32_t t = 0; t < sizeof(thicknesses) / sizeof(thicknesses[0]); ++t) {
        const uint64_t seed = 5100 + t;
        test_random random = test_random_seed(seed, 0);
        mf_vec3 points[40];
        for (int i = 0; i < 40; ++i)
            points[i] = (mf_vec3){(float)test_random_range(&random, -0.5, 0.5),
                                  (float)test_random_range(&random, -thicknesses[t], thicknesses[t]),
                                  (float)test_random_range(&random, -0.5, 0.5)};
        robust_bank bank;
        robust_bank_make(&bank);
        uint32_t shape = UINT32_MAX;
        mf_status status = mf_bank_add_hull(bank.bank, points, 40, &shape);
        CHECKF(status == MF_OK || status == MF_ERR_DEGENERATE_HULL, "seed %llu, thickness %g: %s",
               (unsigned long long)seed, thicknesses[t], mf_status_string(status));
        if (thicknesses[t] == 0.0)
            CHECKF(status == MF_ERR_DEGENERATE_HULL, "exactly flat points (seed %llu) gave %s",
                   (unsigned long long)seed, mf_status_string(status));
        if (status == MF_OK) {
            char why[256] = "";
            CHECKF(hull_is_sane(bank.bank, shape, why, sizeof(why)) == 0, "seed %llu, thickness %g: %s",
                   (unsigned long long)seed, thicknesses[t], why);
            bank.name[0] = "thin hull";
            CHECK_EQ(ref_hull_load(bank.bank, shape, &bank.reference[0]), MF_OK);
            bank.count = 1;
            uint32_t failed = collide_with_partners(test, seed, &bank, shape);
            CHECKF(failed == 0, "thickness %g (seed %llu): %u pairs failed", thicknesses[t], (unsigned long long)seed,
                   failed);
        }
        robust_bank_free(&bank);
    }
}

static void near_duplicate_points_weld_into_a_clean_hull(void)
{
    const char *test = "near_duplicate_points_weld_into_a_clean_hull";
    // Each corner of a cube 50 times, jittered below the weld distance (1e-5 of the radius,
    // 8.7e-6 here), at it, and well above it (many tiny, nearly parallel facets).
    const double jitters[] = {0.0, 1e-7, 1e-6, 1e-5, 1e-4};
    enum { COPIES = 50 };
    for (uint32_t j = 0; j < sizeof(jitters) / sizeof(jitters[0]); ++j) {
        const uint64_t seed = 5200 + j;
        test_random random = test_random_seed(seed, 0);
        mf_vec3 points[8 * COPIES];
        for (int i = 0; i < 8 * COPIES; ++i) {
            int corner = i % 8;
            points[i] = (mf_vec3){(float)((corner & 1 ? 0.5 : -0.5) + test_random_range(&random, -1, 1) * jitters[j]),
                                  (float)((corner & 2 ? 0.5 : -0.5) + test_random_range(&random, -1, 1) * jitters[j]),
                                  (float)((corner & 4 ? 0.5 : -0.5) + test_random_range(&random, -1, 1) * jitters[j])};
        }
        robust_bank bank;
        robust_bank_make(&bank);
        uint32_t shape = UINT32_MAX;
        mf_status status = mf_bank_add_hull(bank.bank, points, 8 * COPIES, &shape);
        CHECKF(status == MF_OK, "jitter %g (seed %llu): %s", jitters[j], (unsigned long long)seed,
               mf_status_string(status));
        if (status != MF_OK) {
            robust_bank_free(&bank);
            continue;
        }
        bank.name[0] = "jittered cube";
        CHECK_EQ(ref_hull_load(bank.bank, shape, &bank.reference[0]), MF_OK);
        bank.count = 1;
        char why[256] = "";
        CHECKF(hull_is_sane(bank.bank, shape, why, sizeof(why)) == 0, "seed %llu, jitter %g: %s",
               (unsigned long long)seed, jitters[j], why);
        mf_shape_info info;
        CHECK_EQ(mf_bank_shape_info(bank.bank, shape, &info), MF_OK);
        if (jitters[j] <= 1e-6) {
            CHECKF(info.vertex_count == 8 && info.face_count == 6 && info.welded_points == 8 * COPIES - 8,
                   "jitter %g (seed %llu): %u vertices, %u faces, %u welded; expected a cube", jitters[j],
                   (unsigned long long)seed, info.vertex_count, info.face_count, info.welded_points);
        }
        uint32_t failed = collide_with_partners(test, seed, &bank, shape);
        CHECKF(failed == 0, "jitter %g (seed %llu): %u pairs failed", jitters[j], (unsigned long long)seed, failed);
        robust_bank_free(&bank);
    }
}

// ---- nearly parallel faces ----

// A box whose top is a roof: two faces meeting at a ridge with a crease of `angle`.
static uint32_t add_roof(robust_bank *bank, const char *name, double angle)
{
    mf_vec3 points[10];
    int n = 0;
    for (int i = 0; i < 4; ++i) points[n++] = (mf_vec3){i & 1 ? 1.0f : -1.0f, -0.5f, i & 2 ? 1.0f : -1.0f};
    for (int i = 0; i < 4; ++i) points[n++] = (mf_vec3){i & 1 ? 1.0f : -1.0f, 0.5f, i & 2 ? 1.0f : -1.0f};
    float ridge = (float)(0.5 + tan(0.5 * angle));
    points[n++] = (mf_vec3){0.0f, ridge, -1.0f};
    points[n++] = (mf_vec3){0.0f, ridge, 1.0f};
    return robust_add_hull(bank, name, points, 10);
}

static void faces_with_nearly_parallel_normals_collide_cleanly(void)
{
    const uint64_t seed = 5301;
    robust_bank bank;
    robust_bank_make(&bank);
    uint32_t shapes[8], count = 0;
    shapes[count++] = add_roof(&bank, "roof creased 1e-6", 1e-6);
    shapes[count++] = add_roof(&bank, "roof creased 1e-4", 1e-4);
    shapes[count++] = add_roof(&bank, "roof creased 1e-3", 1e-3);
    shapes[count++] = add_roof(&bank, "roof creased 1e-2", 1e-2);
    // A fine sphere: neighbouring faces about 15 degrees apart.
    mf_vec3 points[160];
    test_sphere_lattice(160, 0.5, points);
    shapes[count++] = robust_add_hull(&bank, "sphere of 160 points", points, 160);
    shapes[count++] = robust_add_box(&bank, "crate", 0.4, 0.25, 0.6);
    shapes[count++] = robust_add_box(&bank, "cube", 0.5, 0.5, 0.5);
    mf_config config = mf_config_default();
    CHECK_EQ(robust_check_random_pairs("faces_with_nearly_parallel_normals_collide_cleanly", seed, &bank, &config,
                                       shapes, count, 3000, 3.0, 1),
             0);

    // The crate hovering 1 mm over each roof's ridge (at most 5 mm above the eaves), across it: it
    // touches on both faces or on the merged one.
    for (uint32_t r = 0; r < 4; ++r) {
        uint32_t pair_shapes[2] = {shapes[r], shapes[5]};
        mf_transform transforms[2] = {{{0, 0, 0}, {0, 0, 0, 1}}, {{0.1f, 0.5f + 0.25f + 0.001f, 0}, {0, 0, 0, 1}}};
        CHECK_EQ(robust_check_pairs("crate on roof", seed, &bank, &config, 1, pair_shapes, transforms, 1), 0);
    }
    robust_bank_free(&bank);
}

// ---- exactly parallel edges ----

static void boxes_with_parallel_edges_at_0_and_90_degrees_get_four_corners(void)
{
    robust_bank bank;
    robust_bank_make(&bank);
    const double hx = 0.4, hy = 0.25, hz = 0.6;
    uint32_t crate = robust_add_box(&bank, "crate", hx, hy, hz);
    const double gaps[3] = {-0.01, 0.0, 0.01};
    for (int turn = 0; turn < 2; ++turn) {
        mf_quat yaw = turn ? robust_quat_axis_angle(0, 1, 0, 0.5 * TEST_PI) : (mf_quat){0, 0, 0, 1};
        // The overlap of the two footprints: the whole face, or a square 0.8 across.
        double ox = hx, oz = turn ? hx : hz;
        for (int g = 0; g < 3; ++g) {
            uint32_t shapes[2] = {crate, crate};
            mf_transform transforms[2] = {{{0, 0, 0}, {0, 0, 0, 1}}, {{0, (float)(2 * hy + gaps[g]), 0}, yaw}};
            robust_result result;
            mf_config config = mf_config_default();
            CHECK_EQ(robust_collide(bank.bank, &config, 1, shapes, transforms, &result), 0);
            CHECKF(result.touching && result.manifold.count == 4, "turned %d degrees, gap %g: %u contacts", turn * 90,
                   gaps[g], result.touching ? result.manifold.count : 0);
            if (!result.touching) continue;
            CHECK_NEAR(result.manifold.normal.x, 0.0, 1e-6);
            CHECK_NEAR(result.manifold.normal.y, 1.0, 1e-6);
            CHECK_NEAR(result.manifold.normal.z, 0.0, 1e-6);
            int found[4] = {0};
            for (uint32_t k = 0; k < result.manifold.count && k < 4; ++k) {
                const mf_contact *c = &result.contacts[k];
                CHECK_NEAR(c->separation, gaps[g], 1e-5);
                CHECK_NEAR(c->point.y, hy + 0.5 * gaps[g], 1e-5);
                int corner = (c->point.x > 0) | (c->point.z > 0) << 1;
                CHECKF(fabs(fabs(c->point.x) - ox) < 1e-5 && fabs(fabs(c->point.z) - oz) < 1e-5 && !found[corner],
                       "turned %d degrees, gap %g: contact %u at (%g, %g) is not a new corner of the overlap "
                       "(+-%g, +-%g)",
                       turn * 90, gaps[g], k, (double)c->point.x, (double)c->point.z, ox, oz);
                found[corner] = 1;
            }
            CHECK_EQ(robust_check_pairs("parallel edges", 0, &bank, &config, 1, shapes, transforms, 1), 0);
        }
    }
    robust_bank_free(&bank);
}

// ---- coincident and touching bodies ----

static void identical_bodies_at_the_same_place_get_a_deep_finite_manifold(void)
{
    const uint64_t seed = 5401;
    robust_bank bank;
    robust_bank_make(&bank);
    uint32_t shapes[8], count = 0;
    shapes[count++] = robust_add_box(&bank, "cube", 0.5, 0.5, 0.5);
    shapes[count++] = robust_add_box(&bank, "crate", 0.4, 0.25, 0.6);
    shapes[count++] = robust_add_box(&bank, "sliver box", 1.0, 1e-3, 1.0);
    const mf_vec3 tetrahedron[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    shapes[count++] = robust_add_hull(&bank, "tetrahedron", tetrahedron, 4);
    test_random random = test_random_seed(seed, 0);
    mf_vec3 points[32];
    for (int kind = 0; kind < TEST_CLOUD_KINDS; ++kind) {
        test_cloud(&random, (test_cloud_kind)kind, 32, 0.5, points);
        shapes[count++] = robust_add_hull(&bank,
                                          kind == 0   ? "sphere hull"
                                          : kind == 1 ? "box-cloud hull"
                                                      : "rock hull",
                                          points, 32);
    }
    enum { POSES = 16 };
    uint32_t pair_shapes[2 * 8 * POSES];
    mf_transform transforms[2 * 8 * POSES];
    uint32_t pairs = 0;
    for (uint32_t s = 0; s < count; ++s) {
        for (int pose = 0; pose < POSES; ++pose) {
            mf_transform t = {{0, 0, 0}, {0, 0, 0, 1}};
            if (pose > 0) {
                t.q = test_random_rotation(&random);
                t.p = (mf_vec3){(float)test_random_range(&random, -5, 5), (float)test_random_range(&random, -5, 5),
                                (float)test_random_range(&random, -5, 5)};
            }
            pair_shapes[2 * pairs] = pair_shapes[2 * pairs + 1] = shapes[s];
            transforms[2 * pairs] = transforms[2 * pairs + 1] = t;
            ++pairs;
        }
    }
    mf_config config = mf_config_default();
    robust_result results[8 * POSES];
    CHECK_EQ(robust_collide(bank.bank, &config, pairs, pair_shapes, transforms, results), 0);
    // Contacts lie on or below the reference face (features shared by the two copies give 0), the
    // deepest by about the hull's smallest width.
    for (uint32_t i = 0; i < pairs; ++i) {
        const ref_hull *hull = &bank.reference[pair_shapes[2 * i]];
        CHECKF(results[i].touching, "seed %llu pair %u (%s on itself): no manifold", (unsigned long long)seed, i,
               bank.name[pair_shapes[2 * i]]);
        float deepest = INFINITY;
        for (uint32_t k = 0; results[i].touching && k < results[i].manifold.count; ++k) {
            float s = results[i].contacts[k].separation;
            deepest = fminf(deepest, s);
            CHECKF(s <= 1e-6f, "seed %llu pair %u (%s on itself): contact %u separation %g", (unsigned long long)seed,
                   i, bank.name[pair_shapes[2 * i]], k, (double)s);
        }
        CHECKF(!results[i].touching || (deepest < 0.0f && deepest >= -2.0 * hull->radius),
               "seed %llu pair %u (%s on itself): deepest contact at %g", (unsigned long long)seed, i,
               bank.name[pair_shapes[2 * i]], (double)deepest);
    }
    CHECK_EQ(robust_check_pairs("identical_bodies_at_the_same_place_get_a_deep_finite_manifold", seed, &bank, &config,
                                pairs, pair_shapes, transforms, 1),
             0);
    robust_bank_free(&bank);
}

static void exactly_touching_bodies_get_contacts_at_zero_separation(void)
{
    const uint64_t seed = 5501;
    robust_bank bank;
    robust_bank_make(&bank);
    uint32_t ground = robust_add_box(&bank, "ground", 5.0, 0.5, 5.0);
    uint32_t crate = robust_add_box(&bank, "crate", 0.4, 0.25, 0.6);

    // The crate's bottom exactly on the ground's top, y = 0.5: every float here is exact.
    uint32_t shapes[2] = {ground, crate};
    mf_transform transforms[2] = {{{0, 0, 0}, {0, 0, 0, 1}}, {{0.25f, 0.75f, -0.5f}, {0, 0, 0, 1}}};
    mf_config config = mf_config_default();
    robust_result result;
    CHECK_EQ(robust_collide(bank.bank, &config, 1, shapes, transforms, &result), 0);
    CHECKF(result.touching && result.manifold.count == 4, "resting exactly: %u contacts",
           result.touching ? result.manifold.count : 0);
    for (uint32_t k = 0; result.touching && k < result.manifold.count; ++k) {
        CHECK_EQ(result.contacts[k].separation, 0.0f);
        CHECK_EQ(result.contacts[k].point.y, 0.5f);
    }
    // With no margin, a separation of exactly 0 is not below it: no manifold.
    mf_config no_margin = config;
    no_margin.margin = 0.0f;
    CHECK_EQ(robust_collide(bank.bank, &no_margin, 1, shapes, transforms, &result), 0);
    CHECKF(!result.touching, "margin 0, separation 0: %u contacts", result.manifold.count);

    // Hulls and turned boxes lowered onto the ground until their lowest vertex touches it: a vertex,
    // an edge or a face on the plane, separation 0 to float precision.
    uint32_t choices[6], count = 0;
    choices[count++] = crate;
    choices[count++] = robust_add_box(&bank, "cube", 0.5, 0.5, 0.5);
    const mf_vec3 tetrahedron[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    choices[count++] = robust_add_hull(&bank, "tetrahedron", tetrahedron, 4);
    test_random random = test_random_seed(seed, 0);
    mf_vec3 points[32];
    for (int kind = 0; kind < TEST_CLOUD_KINDS; ++kind) {
        test_cloud(&random, (test_cloud_kind)kind, 32, 0.5, points);
        choices[count++] = robust_add_hull(&bank,
                                           kind == 0   ? "sphere hull"
                                           : kind == 1 ? "box-cloud hull"
                                                       : "rock hull",
                                           points, 32);
    }
    enum { PAIRS = 600 };
    uint32_t pair_shapes[2 * PAIRS];
    mf_transform pair_transforms[2 * PAIRS];
    for (uint32_t i = 0; i < PAIRS; ++i) {
        uint32_t shape = choices[i % count];
        mf_quat q = (mf_quat){0, 0, 0, 1};
        // Axis-aligned (face down), about one axis (edge down) or at random (vertex down).
        if (i % 3 == 1) q = robust_quat_axis_angle(0, 0, 1, test_random_range(&random, 0, 2 * TEST_PI));
        if (i % 3 == 2) q = test_random_rotation(&random);
        ref_pose pose = ref_pose_make((mf_transform){{0, 0, 0}, q});
        const ref_hull *hull = &bank.reference[shape];
        double low = INFINITY;
        for (uint32_t v = 0; v < hull->vertex_count; ++v) {
            double w[3];
            ref_pose_apply(&pose, hull->vertices + 3 * v, w);
            low = fmin(low, w[1]);
        }
        pair_shapes[2 * i] = ground;
        pair_shapes[2 * i + 1] = shape;
        pair_transforms[2 * i] = (mf_transform){{0, 0, 0}, {0, 0, 0, 1}};
        pair_transforms[2 * i + 1] = (mf_transform){
            {(float)test_random_range(&random, -3, 3), (float)(0.5 - low), (float)test_random_range(&random, -3, 3)},
            q};
    }
    robust_result results[PAIRS];
    CHECK_EQ(robust_collide(bank.bank, &config, PAIRS, pair_shapes, pair_transforms, results), 0);
    for (uint32_t i = 0; i < PAIRS; ++i) {
        CHECKF(results[i].touching, "seed %llu pair %u (%s touching the ground): no manifold", (unsigned long long)seed,
               i, bank.name[pair_shapes[2 * i + 1]]);
        float deepest = INFINITY;
        for (uint32_t k = 0; results[i].touching && k < results[i].manifold.count; ++k)
            deepest = fminf(deepest, results[i].contacts[k].separation);
        CHECKF(!results[i].touching || fabsf(deepest) <= 1e-6f,
               "seed %llu pair %u (%s touching the ground): deepest contact at %g", (unsigned long long)seed, i,
               bank.name[pair_shapes[2 * i + 1]], (double)deepest);
    }
    CHECK_EQ(robust_check_pairs("exactly_touching_bodies_get_contacts_at_zero_separation", seed, &bank, &config, PAIRS,
                                pair_shapes, pair_transforms, 1),
             0);
    robust_bank_free(&bank);
}

static const test_case tests[] = {
    TEST_CASE(sliver_and_needle_boxes_match_the_brute_force),
    TEST_CASE(sliver_and_needle_hulls_match_the_brute_force),
    TEST_CASE(nearly_coplanar_points_give_a_thin_hull_or_a_degenerate_refusal),
    TEST_CASE(near_duplicate_points_weld_into_a_clean_hull),
    TEST_CASE(faces_with_nearly_parallel_normals_collide_cleanly),
    TEST_CASE(boxes_with_parallel_edges_at_0_and_90_degrees_get_four_corners),
    TEST_CASE(identical_bodies_at_the_same_place_get_a_deep_finite_manifold),
    TEST_CASE(exactly_touching_bodies_get_contacts_at_zero_separation),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
