// Known answers: hand-built scenes whose manifolds can be worked out on paper, and the output
// stream's rules (capacity, resumption, bounds, max_contacts). One behaviour per test.
#include "check.h"
#include "harness.h"
#include "pairs.h"
#include "pool.h"
#include "reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// The ground: a wide box whose top face is the plane y = 0.5.
static const mf_vec3 ground_half = {5.0f, 0.5f, 5.0f};
static const double ground_top = 0.5;

typedef struct world {
    mf_bank *bank;
    uint32_t ground, crate, cube, octagon;
} world;

static const mf_vec3 crate_half = {0.4f, 0.25f, 0.6f}; // distinct extents catch axis mix-ups

// An octagonal prism: two octagons of radius 0.5 at y = +-0.2.
static void octagon_points(mf_vec3 points[16])
{
    for (int i = 0; i < 16; ++i) {
        double angle = 2.0 * TEST_PI * (i % 8) / 8.0;
        points[i] = (mf_vec3){(float)(0.5 * cos(angle)), i < 8 ? 0.2f : -0.2f, (float)(0.5 * sin(angle))};
    }
}

static world world_make(void)
{
    world w = {0};
    CHECK_EQ(mf_bank_create(&w.bank), MF_OK);
    CHECK_EQ(mf_bank_add_box(w.bank, ground_half, &w.ground), MF_OK);
    CHECK_EQ(mf_bank_add_box(w.bank, crate_half, &w.crate), MF_OK);
    CHECK_EQ(mf_bank_add_box(w.bank, (mf_vec3){0.5f, 0.5f, 0.5f}, &w.cube), MF_OK);
    mf_vec3 points[16];
    octagon_points(points);
    CHECK_EQ(mf_bank_add_hull(w.bank, points, 16, &w.octagon), MF_OK);
    return w;
}

// The crate resting on the ground, turned by `yaw` about y, its bottom at ground_top + gap.
static mf_transform crate_pose(double x, double z, double yaw, double gap)
{
    return test_pose(x, ground_top + crate_half.y + gap, z, test_quat_axis_angle(0, 1, 0, yaw));
}

// Checks that the manifold is exactly the crate's four bottom corners at separation `gap`, the
// contact points midway between the crate's corners and the ground.
static void check_crate_corners(const test_output *out, mf_transform crate, double gap, double normal_sign)
{
    CHECK(out->touching);
    if (!out->touching) return;
    CHECK_EQ(out->manifold.count, 4);
    CHECK_NEAR(out->manifold.normal.x, 0.0, 1e-6);
    CHECK_NEAR(out->manifold.normal.y, normal_sign, 1e-6);
    CHECK_NEAR(out->manifold.normal.z, 0.0, 1e-6);
    ref_pose pose = ref_pose_make(crate);
    int found[MF_MAX_CONTACTS] = {0};
    for (int corner = 0; corner < 4; ++corner) {
        double local[3] = {corner & 1 ? crate_half.x : -crate_half.x, -crate_half.y,
                           corner & 2 ? crate_half.z : -crate_half.z};
        double world_corner[3];
        ref_pose_apply(&pose, local, world_corner);
        double distance;
        uint32_t k =
            test_nearest_contact(out, world_corner[0], world_corner[1] - 0.5 * gap, world_corner[2], &distance);
        CHECKF(distance < 1e-4, "corner %d (%.6f %.6f %.6f): nearest contact %.3g away", corner, world_corner[0],
               world_corner[1] - 0.5 * gap, world_corner[2], distance);
        CHECK_NEAR(out->contacts[k].separation, gap, 1e-5);
        CHECKF(!found[k], "contact %u matches two corners", k);
        found[k] = 1;
    }
}

static void crate_resting_on_ground_gets_its_four_corners(void)
{
    world w = world_make();
    mf_transform ground = test_pose(0, 0, 0, TEST_IDENTITY), crate = crate_pose(1.0, -0.5, 0.3, -0.01);
    test_output out;
    CHECK_EQ(test_collide_pair(w.bank, NULL, w.ground, ground, w.crate, crate, &out), MF_OK);
    check_crate_corners(&out, crate, -0.01, 1.0);
    CHECK_EQ(test_reference_check(w.bank, NULL, w.ground, ground, w.crate, crate, &out), 0);
    mf_bank_destroy(w.bank);
}

static void crate_under_ground_gets_normal_pointing_down(void)
{
    // The same contact seen from below: a is the crate hanging under the ground's bottom face.
    world w = world_make();
    mf_transform ground = test_pose(0, 0, 0, TEST_IDENTITY);
    mf_transform crate = test_pose(-2.0, -0.5 - crate_half.y + 0.02, 1.0, test_quat_axis_angle(0, 1, 0, -1.1));
    test_output out;
    CHECK_EQ(test_collide_pair(w.bank, NULL, w.crate, crate, w.ground, ground, &out), MF_OK);
    CHECK(out.touching);
    if (out.touching) {
        CHECK_EQ(out.manifold.count, 4);
        CHECK_NEAR(out.manifold.normal.y, 1.0, 1e-6);
        for (uint32_t k = 0; k < out.manifold.count; ++k) {
            CHECK_NEAR(out.contacts[k].separation, -0.02, 1e-5);
            CHECK_NEAR(out.contacts[k].point.y, -0.5 + 0.01, 1e-5);
        }
    }
    CHECK_EQ(test_reference_check(w.bank, NULL, w.crate, crate, w.ground, ground, &out), 0);
    mf_bank_destroy(w.bank);
}

static void crate_hovering_within_margin_gets_four_speculative_points(void)
{
    world w = world_make();
    mf_config config = mf_config_default();
    double gap = 0.5 * config.margin;
    mf_transform ground = test_pose(0, 0, 0, TEST_IDENTITY), crate = crate_pose(-1.5, 2.0, -0.7, gap);
    test_output out;
    CHECK_EQ(test_collide_pair(w.bank, &config, w.ground, ground, w.crate, crate, &out), MF_OK);
    check_crate_corners(&out, crate, gap, 1.0);
    for (uint32_t k = 0; out.touching && k < out.manifold.count; ++k) CHECK(out.contacts[k].separation > 0.0f);
    CHECK_EQ(test_reference_check(w.bank, &config, w.ground, ground, w.crate, crate, &out), 0);
    mf_bank_destroy(w.bank);
}

static void crate_beyond_margin_gets_no_manifold(void)
{
    world w = world_make();
    mf_config config = mf_config_default();
    mf_transform ground = test_pose(0, 0, 0, TEST_IDENTITY);
    test_output out;
    for (int i = 0; i < 3; ++i) {
        double gap = config.margin * (i == 0 ? 1.05 : i == 1 ? 2.0 : 100.0);
        mf_transform crate = crate_pose(0.5, 0.5, 0.2, gap);
        CHECK_EQ(test_collide_pair(w.bank, &config, w.ground, ground, w.crate, crate, &out), MF_OK);
        CHECKF(!out.touching, "gap %g, margin %g", gap, (double)config.margin);
    }
    mf_bank_destroy(w.bank);
}

static void margin_decides_presence(void)
{
    // The same hovering crate with margins on both sides of its gap.
    world w = world_make();
    mf_transform ground = test_pose(0, 0, 0, TEST_IDENTITY), crate = crate_pose(0, 0, 0.4, 0.05);
    for (int i = 0; i < 2; ++i) {
        mf_config config = mf_config_default();
        config.margin = i == 0 ? 0.049f : 0.051f;
        test_output out;
        CHECK_EQ(test_collide_pair(w.bank, &config, w.ground, ground, w.crate, crate, &out), MF_OK);
        CHECKF(out.touching == i, "margin %g, gap 0.05", (double)config.margin);
    }
    mf_bank_destroy(w.bank);
}

static void crate_overhanging_an_edge_gets_the_overlap_rectangle(void)
{
    // The crate sticks out over the ground's +x edge: the contact is the overlap of the crate's
    // bottom and the ground's top, x in [4.8, 5], z in [-0.6, 0.6].
    world w = world_make();
    mf_transform ground = test_pose(0, 0, 0, TEST_IDENTITY), crate = crate_pose(5.2, 0.0, 0.0, -0.005);
    test_output out;
    CHECK_EQ(test_collide_pair(w.bank, NULL, w.ground, ground, w.crate, crate, &out), MF_OK);
    CHECK(out.touching);
    if (out.touching) {
        CHECK_EQ(out.manifold.count, 4);
        CHECK_NEAR(out.manifold.normal.y, 1.0, 1e-6);
        double corners[4][2] = {{4.8, -0.6}, {4.8, 0.6}, {5.0, -0.6}, {5.0, 0.6}};
        for (int c = 0; c < 4; ++c) {
            double distance;
            uint32_t k = test_nearest_contact(&out, corners[c][0], ground_top - 0.0025, corners[c][1], &distance);
            CHECKF(distance < 1e-4, "corner (%g, %g): nearest contact %.3g away", corners[c][0], corners[c][1],
                   distance);
            CHECK_NEAR(out.contacts[k].separation, -0.005, 1e-5);
        }
    }
    CHECK_EQ(test_reference_check(w.bank, NULL, w.ground, ground, w.crate, crate, &out), 0);
    mf_bank_destroy(w.bank);
}

// Two unit cubes: a turned 45 degrees about z (a ridge along z on top), b turned 45 degrees about
// x (a ridge along x below), b's ridge 0.01 below a's: the edges cross at one point.
static void crossed_cubes(mf_transform *a, mf_transform *b)
{
    double ridge = 0.5 * sqrt(2.0);
    *a = test_pose(0, 0, 0, test_quat_axis_angle(0, 0, 1, 0.25 * TEST_PI));
    *b = test_pose(0, 2.0 * ridge - 0.01, 0, test_quat_axis_angle(1, 0, 0, 0.25 * TEST_PI));
}

// The direction and midpoint of edge `index` of a body, in world space.
static void world_edge(const mf_bank *bank, uint32_t shape, mf_transform t, uint32_t index, double direction[3],
                       double middle[3])
{
    mf_edge_info edge;
    mf_vec3 vertices[8];
    CHECK_EQ(mf_bank_shape_edge(bank, shape, index, &edge), MF_OK);
    CHECK_EQ(mf_bank_shape_vertices(bank, shape, vertices, 8), MF_OK);
    ref_pose pose = ref_pose_make(t);
    double p[3] = {vertices[edge.vertex0 & 7].x, vertices[edge.vertex0 & 7].y, vertices[edge.vertex0 & 7].z};
    double q[3] = {vertices[edge.vertex1 & 7].x, vertices[edge.vertex1 & 7].y, vertices[edge.vertex1 & 7].z};
    double wp[3], wq[3];
    ref_pose_apply(&pose, p, wp);
    ref_pose_apply(&pose, q, wq);
    double length =
        sqrt((wq[0] - wp[0]) * (wq[0] - wp[0]) + (wq[1] - wp[1]) * (wq[1] - wp[1]) + (wq[2] - wp[2]) * (wq[2] - wp[2]));
    for (int c = 0; c < 3; ++c) {
        direction[c] = (wq[c] - wp[c]) / length;
        middle[c] = 0.5 * (wp[c] + wq[c]);
    }
}

static void crossed_edges_get_one_point(void)
{
    world w = world_make();
    mf_transform a, b;
    crossed_cubes(&a, &b);
    test_output out;
    CHECK_EQ(test_collide_pair(w.bank, NULL, w.cube, a, w.cube, b, &out), MF_OK);
    CHECK(out.touching);
    if (out.touching) {
        CHECK_EQ(out.manifold.count, 1);
        CHECK_NEAR(out.manifold.normal.x, 0.0, 1e-5);
        CHECK_NEAR(out.manifold.normal.y, 1.0, 1e-5);
        CHECK_NEAR(out.manifold.normal.z, 0.0, 1e-5);
        const mf_contact *c = &out.contacts[0];
        CHECK_NEAR(c->separation, -0.01, 1e-5);
        CHECK_NEAR(c->point.x, 0.0, 1e-5);
        CHECK_NEAR(c->point.y, 0.5 * sqrt(2.0) - 0.005, 1e-5);
        CHECK_NEAR(c->point.z, 0.0, 1e-5);
        // Both halves of the id name the crossing edges: a's ridge along z, b's along x.
        uint32_t feature_a = MF_ID_FEATURE_A(c->id), feature_b = MF_ID_FEATURE_B(c->id);
        CHECK_EQ(MF_FEATURE_KIND(feature_a), MF_FEATURE_EDGE);
        CHECK_EQ(MF_FEATURE_KIND(feature_b), MF_FEATURE_EDGE);
        if (MF_FEATURE_KIND(feature_a) == MF_FEATURE_EDGE && MF_FEATURE_INDEX(feature_a) < 12) {
            double direction[3], middle[3];
            world_edge(w.bank, w.cube, a, MF_FEATURE_INDEX(feature_a), direction, middle);
            CHECK_NEAR(fabs(direction[2]), 1.0, 1e-5);
            CHECK_NEAR(middle[1], 0.5 * sqrt(2.0), 1e-5);
        }
        if (MF_FEATURE_KIND(feature_b) == MF_FEATURE_EDGE && MF_FEATURE_INDEX(feature_b) < 12) {
            double direction[3], middle[3];
            world_edge(w.bank, w.cube, b, MF_FEATURE_INDEX(feature_b), direction, middle);
            CHECK_NEAR(fabs(direction[0]), 1.0, 1e-5);
            CHECK_NEAR(middle[1], 0.5 * sqrt(2.0) - 0.01, 1e-5);
        }
    }
    CHECK_EQ(test_reference_check(w.bank, NULL, w.cube, a, w.cube, b, &out), 0);
    mf_bank_destroy(w.bank);
}

static uint32_t swap_halves(uint32_t id) { return MF_ID_FEATURE_B(id) << 16 | MF_ID_FEATURE_A(id); }

// (a, b) and (b, a) give the same contacts with the normal negated and the id halves swapped.
static void check_mirrored(const mf_bank *bank, uint32_t shape_a, mf_transform a, uint32_t shape_b, mf_transform b,
                           const char *scene)
{
    test_output forward, backward;
    CHECK_EQ(test_collide_pair(bank, NULL, shape_a, a, shape_b, b, &forward), MF_OK);
    CHECK_EQ(test_collide_pair(bank, NULL, shape_b, b, shape_a, a, &backward), MF_OK);
    CHECKF(forward.touching && backward.touching, "%s", scene);
    if (!forward.touching || !backward.touching) return;
    CHECKF(forward.manifold.count == backward.manifold.count, "%s: %u vs %u contacts", scene, forward.manifold.count,
           backward.manifold.count);
    CHECK_NEAR(backward.manifold.normal.x, -forward.manifold.normal.x, 1e-6);
    CHECK_NEAR(backward.manifold.normal.y, -forward.manifold.normal.y, 1e-6);
    CHECK_NEAR(backward.manifold.normal.z, -forward.manifold.normal.z, 1e-6);
    for (uint32_t k = 0; k < forward.manifold.count; ++k) {
        const mf_contact *c = &forward.contacts[k];
        double distance;
        uint32_t j = test_nearest_contact(&backward, c->point.x, c->point.y, c->point.z, &distance);
        CHECKF(distance < 1e-5, "%s: contact %u (%.6f %.6f %.6f) has no mirror (nearest %.3g away)", scene, k,
               c->point.x, c->point.y, c->point.z, distance);
        CHECK_NEAR(backward.contacts[j].separation, c->separation, 1e-6);
        CHECKF(backward.contacts[j].id == swap_halves(c->id), "%s: contact %u id %08x, swapped pair gives %08x", scene,
               k, c->id, backward.contacts[j].id);
    }
}

static void swapping_bodies_mirrors_the_manifold(void)
{
    world w = world_make();
    mf_transform ground = test_pose(0, 0, 0, TEST_IDENTITY);
    check_mirrored(w.bank, w.ground, ground, w.crate, crate_pose(1.0, -0.5, 0.3, -0.01), "resting crate");
    check_mirrored(w.bank, w.ground, ground, w.crate, crate_pose(-1.0, 0.5, 1.3, 0.01), "hovering crate");
    check_mirrored(w.bank, w.ground, ground, w.crate, crate_pose(5.2, 0.0, 0.0, -0.005), "overhanging crate");
    mf_transform a, b;
    crossed_cubes(&a, &b);
    check_mirrored(w.bank, w.cube, a, w.cube, b, "crossed cubes");
    mf_bank_destroy(w.bank);
}

// Random pairs of every kind (boxes, hulls, both; resting, tilted, crossing, near misses), each
// collided as (a, b) and as (b, a), on every ISA: the two manifolds are exact mirrors.
static void swapped_pairs_give_exactly_mirrored_manifolds(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(61, 16, 48, &pool), MF_OK);
    const uint32_t pairs = test_scaled(3000); // MF_TEST_SCALE for longer runs
    uint32_t *shapes = malloc(2 * pairs * sizeof(uint32_t));
    mf_transform *transforms = malloc(2 * pairs * sizeof(mf_transform));
    mf_pair *forward = malloc(pairs * sizeof(mf_pair)), *backward = malloc(pairs * sizeof(mf_pair));
    mf_manifold *manifolds = malloc(2 * pairs * sizeof(mf_manifold));
    mf_contact *contacts = malloc(2 * pairs * MF_MAX_CONTACTS * sizeof(mf_contact));
    CHECK(shapes && transforms && forward && backward && manifolds && contacts);
    for (uint32_t category = TEST_PAIRS_BOX;
         shapes && transforms && forward && backward && manifolds && contacts && category <= TEST_PAIRS_MIXED;
         ++category) {
        for (uint32_t i = 0; i < pairs; ++i) {
            test_make_pair(&pool, (test_category)category, 907, i, 0.02f, shapes + 2 * i, transforms + 2 * i);
            forward[i] = (mf_pair){2 * i, 2 * i + 1};
            backward[i] = (mf_pair){2 * i + 1, 2 * i};
        }
        mf_bodies bodies = {.shape = shapes, .transform = transforms, .count = 2 * pairs};
        uint32_t touching = 0;
        for (int isa = MF_ISA_SCALAR; isa <= MF_ISA_NEON; ++isa) {
            if (!mf_isa_supported((mf_isa)isa)) continue;
            mf_config config = mf_config_default();
            config.isa = (mf_isa)isa;
            mf_context *context;
            CHECK_EQ(mf_context_create(&config, &context), MF_OK);
            mf_stream ab = {manifolds, pairs, 0, contacts, pairs * MF_MAX_CONTACTS, 0, 0, NULL, 0, 0};
            mf_stream ba = {manifolds + pairs,
                            pairs,
                            0,
                            contacts + pairs * MF_MAX_CONTACTS,
                            pairs * MF_MAX_CONTACTS,
                            0,
                            0,
                            NULL,
                            0,
                            0};
            CHECK_EQ(mf_collide(context, pool.bank, &bodies, forward, pairs, &ab), MF_OK);
            CHECK_EQ(mf_collide(context, pool.bank, &bodies, backward, pairs, &ba), MF_OK);
            mf_context_destroy(context);
            CHECKF(ab.manifold_count == ba.manifold_count, "category %u %s: %u vs %u manifolds", category,
                   mf_isa_name((mf_isa)isa), ab.manifold_count, ba.manifold_count);
            touching = ab.manifold_count;
            for (uint32_t m = 0; m < ab.manifold_count && m < ba.manifold_count; ++m) {
                const mf_manifold *x = &ab.manifolds[m], *y = &ba.manifolds[m];
                int same = x->pair == y->pair && x->count == y->count && y->normal.x == -x->normal.x &&
                           y->normal.y == -x->normal.y && y->normal.z == -x->normal.z;
                for (uint32_t k = 0; same && k < x->count; ++k) {
                    const mf_contact *c = &ab.contacts[x->first + k], *d = &ba.contacts[y->first + k];
                    same = c->point.x == d->point.x && c->point.y == d->point.y && c->point.z == d->point.z &&
                           c->separation == d->separation && d->id == swap_halves(c->id);
                }
                CHECKF(same, "category %u %s: pair %u is not mirrored exactly", category, mf_isa_name((mf_isa)isa),
                       x->pair);
            }
        }
        CHECKF(touching > pairs / 4, "category %u: only %u of %u pairs touch", category, touching, pairs);
        printf("category %u: %u pairs each way on every ISA, %u touching\n", category, pairs, touching);
    }
    free(shapes);
    free(transforms);
    free(forward);
    free(backward);
    free(manifolds);
    free(contacts);
    test_pool_free(&pool);
}

static void resting_ids_name_the_ground_face_and_the_crate_corners(void)
{
    // The ground's top face touches the crate's bottom corners: a's half is that face, b's half the
    // corner vertex under each point.
    world w = world_make();
    mf_transform ground = test_pose(0, 0, 0, TEST_IDENTITY), crate = crate_pose(0.3, 0.2, 0.9, -0.01);
    test_output out;
    CHECK_EQ(test_collide_pair(w.bank, NULL, w.ground, ground, w.crate, crate, &out), MF_OK);
    CHECK(out.touching);
    mf_vec3 corners[8];
    CHECK_EQ(mf_bank_shape_vertices(w.bank, w.crate, corners, 8), MF_OK);
    ref_pose pose = ref_pose_make(crate);
    for (uint32_t k = 0; out.touching && k < out.manifold.count; ++k) {
        const mf_contact *c = &out.contacts[k];
        uint32_t feature_a = MF_ID_FEATURE_A(c->id), feature_b = MF_ID_FEATURE_B(c->id);
        CHECK_EQ(MF_FEATURE_KIND(feature_a), MF_FEATURE_FACE);
        mf_vec3 normal;
        if (MF_FEATURE_KIND(feature_a) == MF_FEATURE_FACE) {
            CHECK_EQ(mf_bank_shape_face(w.bank, w.ground, MF_FEATURE_INDEX(feature_a), &normal, NULL, NULL, 0, NULL),
                     MF_OK);
            CHECK_NEAR(normal.y, 1.0, 1e-6);
        }
        CHECK_EQ(MF_FEATURE_KIND(feature_b), MF_FEATURE_VERTEX);
        if (MF_FEATURE_KIND(feature_b) == MF_FEATURE_VERTEX && MF_FEATURE_INDEX(feature_b) < 8) {
            mf_vec3 v = corners[MF_FEATURE_INDEX(feature_b)];
            double local[3] = {v.x, v.y, v.z}, corner[3];
            ref_pose_apply(&pose, local, corner);
            CHECK_NEAR(corner[0], c->point.x, 1e-5);
            CHECK_NEAR(corner[1], c->point.y + 0.5 * c->separation, 1e-5);
            CHECK_NEAR(corner[2], c->point.z, 1e-5);
        }
    }
    mf_bank_destroy(w.bank);
}

static void non_unit_quaternions_are_normalised(void)
{
    world w = world_make();
    mf_transform ground = test_pose(0, 0, 0, TEST_IDENTITY), crate = crate_pose(1.0, -0.5, 0.3, -0.01);
    test_output unit, scaled;
    CHECK_EQ(test_collide_pair(w.bank, NULL, w.ground, ground, w.crate, crate, &unit), MF_OK);
    for (int i = 0; i < 2; ++i) {
        float s = i == 0 ? 3.0f : 0.01f;
        mf_transform g = ground, c = crate;
        g.q = (mf_quat){g.q.x * s, g.q.y * s, g.q.z * s, g.q.w * s};
        c.q = (mf_quat){c.q.x / s, c.q.y / s, c.q.z / s, c.q.w / s};
        CHECK_EQ(test_collide_pair(w.bank, NULL, w.ground, g, w.crate, c, &scaled), MF_OK);
        CHECK(scaled.touching);
        if (!scaled.touching || !unit.touching) continue;
        CHECK_EQ(scaled.manifold.count, unit.manifold.count);
        CHECK_NEAR(scaled.manifold.normal.y, unit.manifold.normal.y, 1e-6);
        for (uint32_t k = 0; k < unit.manifold.count; ++k) {
            double distance;
            mf_vec3 p = unit.contacts[k].point;
            uint32_t j = test_nearest_contact(&scaled, p.x, p.y, p.z, &distance);
            CHECKF(distance < 1e-5, "scale %g: contact %u moved by %.3g", (double)s, k, distance);
            CHECK_NEAR(scaled.contacts[j].separation, unit.contacts[k].separation, 1e-6);
        }
    }
    mf_bank_destroy(w.bank);
}

static void octagon_resting_keeps_as_many_corners_as_allowed(void)
{
    // Eight corners touch the ground: max_contacts k keeps min(k, 8) of them, all real corners.
    world w = world_make();
    mf_transform ground = test_pose(0, 0, 0, TEST_IDENTITY);
    mf_transform octagon = test_pose(0.7, ground_top + 0.2 - 0.01, -0.3, test_quat_axis_angle(0, 1, 0, 0.2));
    mf_vec3 corner_points[16];
    octagon_points(corner_points);
    ref_pose pose = ref_pose_make(octagon);
    for (uint32_t k = 1; k <= MF_MAX_CONTACTS; ++k) {
        mf_config config = mf_config_default();
        config.max_contacts = k;
        test_output out;
        CHECK_EQ(test_collide_pair(w.bank, &config, w.ground, ground, w.octagon, octagon, &out), MF_OK);
        CHECK(out.touching);
        if (!out.touching) continue;
        CHECKF(out.manifold.count == k, "max_contacts %u gave %u contacts of 8 corners", k, out.manifold.count);
        for (uint32_t c = 0; c < out.manifold.count; ++c) {
            double best = INFINITY;
            for (int i = 8; i < 16; ++i) {
                double local[3] = {corner_points[i].x, corner_points[i].y, corner_points[i].z}, p[3];
                ref_pose_apply(&pose, local, p);
                mf_vec3 q = out.contacts[c].point;
                p[1] -= 0.5 * out.contacts[c].separation;
                best = fmin(best, sqrt((p[0] - q.x) * (p[0] - q.x) + (p[1] - q.y) * (p[1] - q.y) +
                                       (p[2] - q.z) * (p[2] - q.z)));
            }
            CHECKF(best < 1e-4, "max_contacts %u: contact %u is %.3g from every bottom corner", k, c, best);
            CHECK_NEAR(out.contacts[c].separation, -0.01, 1e-5);
        }
        CHECK_EQ(test_reference_check(w.bank, &config, w.ground, ground, w.octagon, octagon, &out), 0);
    }
    mf_bank_destroy(w.bank);
}

// Two boxes from a random scene (box seed 1001, pair 163807) a hair apart: b's face separates them
// by +0.002, while a face of a, within linear_slop of it, sees them overlap by 0.0002. They get no
// manifold (the speculative exception) or contacts on both surfaces, never a point off either hull.
static void nearly_touching_boxes_get_no_point_off_either_hull(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t a, b;
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0.342992932f, 0.287949651f, 0.9563393f}, &a), MF_OK);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0.908283174f, 0.124000072f, 0.585102022f}, &b), MF_OK);
    mf_transform ta = {{-0.224176601f, 4.9430356f, 2.89894605f},
                       {0.458179861f, 0.386113763f, -0.373747587f, 0.708025515f}};
    mf_transform tb = {{-0.00934692845f, 3.00134563f, 2.90108395f},
                       {-0.16508992f, 0.306104183f, 0.551097155f, -0.758509994f}};
    test_output out;
    CHECK_EQ(test_collide_pair(bank, NULL, a, ta, b, tb, &out), MF_OK);
    CHECK_EQ(test_reference_check(bank, NULL, a, ta, b, tb, &out), 0);
    mf_bank_destroy(bank);
}

// Two boxes from a random scene (box seed 77, pair 77, linear_slop 0) a hair apart at crossing
// edges: the speculative edge contact must lie on both edges.
static void speculative_edge_contact_lies_on_both_surfaces(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t a, b;
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0.126547828f, 0.327702463f, 0.316575885f}, &a), MF_OK);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0.833858967f, 0.476751357f, 0.105632529f}, &b), MF_OK);
    mf_transform ta = {{5.32909107f, 3.02068949f, 2.63771653f},
                       {0.60050869f, -0.657230675f, -0.23731789f, -0.388738215f}};
    mf_transform tb = {{5.42446661f, 3.27743435f, 2.73894739f},
                       {-0.0306918062f, -0.947132587f, 0.318562895f, -0.0227057375f}};
    mf_config config = mf_config_default();
    config.linear_slop = 0.0f;
    test_output out;
    CHECK_EQ(test_collide_pair(bank, &config, a, ta, b, tb, &out), MF_OK);
    CHECK(out.touching);
    CHECK_EQ(test_reference_check(bank, &config, a, ta, b, tb, &out), 0);
    mf_bank_destroy(bank);
}

// ---- the stream ----

// A batch of random pairs from a small pool, about half of them touching.
typedef struct batch {
    test_pool pool;
    uint32_t *shapes;
    mf_transform *transforms;
    mf_pair *pairs;
    uint32_t pair_count;
} batch;

static batch batch_make(uint64_t seed, uint32_t pair_count)
{
    batch b = {.pair_count = pair_count};
    CHECK_EQ(test_pool_make(seed, 8, 8, &b.pool), MF_OK);
    b.shapes = malloc(2 * pair_count * sizeof(uint32_t));
    b.transforms = malloc(2 * pair_count * sizeof(mf_transform));
    b.pairs = malloc(pair_count * sizeof(mf_pair));
    test_random random = test_random_seed(seed, 1);
    for (uint32_t i = 0; i < 2 * pair_count; ++i) {
        b.shapes[i] = test_random_int(&random, 0, 15);
        double d[3];
        test_random_direction(&random, d);
        double r = i % 2 ? test_random_range(&random, 0.2, 1.6) : 0.0;
        mf_transform *anchor = &b.transforms[i & ~1u];
        b.transforms[i] = test_pose(i % 2 ? anchor->p.x + r * d[0] : test_random_range(&random, -3, 3),
                                    i % 2 ? anchor->p.y + r * d[1] : test_random_range(&random, -3, 3),
                                    i % 2 ? anchor->p.z + r * d[2] : test_random_range(&random, -3, 3),
                                    test_random_rotation(&random));
    }
    for (uint32_t i = 0; i < pair_count; ++i) b.pairs[i] = (mf_pair){2 * i, 2 * i + 1};
    return b;
}

static void batch_free(batch *b)
{
    free(b->shapes);
    free(b->transforms);
    free(b->pairs);
    test_pool_free(&b->pool);
}

typedef struct output {
    mf_manifold *manifolds;
    mf_contact *contacts;
    uint32_t manifold_count, contact_count;
} output;

// One call with a stream from mf_stream_bound.
static output collide_all(const batch *b, const mf_config *config)
{
    output o = {0};
    uint32_t manifold_capacity, contact_capacity;
    mf_stream_bound(b->pair_count, config->max_contacts, &manifold_capacity, &contact_capacity);
    mf_stream stream = {malloc(manifold_capacity * sizeof(mf_manifold)),
                        manifold_capacity,
                        0,
                        malloc(contact_capacity * sizeof(mf_contact)),
                        contact_capacity,
                        0,
                        0,
                        NULL,
                        0,
                        0};
    mf_context *context;
    CHECK_EQ(mf_context_create(config, &context), MF_OK);
    mf_bodies bodies = {.shape = b->shapes, .transform = b->transforms, .count = 2 * b->pair_count};
    CHECK_EQ(mf_collide(context, b->pool.bank, &bodies, b->pairs, b->pair_count, &stream), MF_OK);
    mf_context_destroy(context);
    o.manifolds = stream.manifolds;
    o.contacts = stream.contacts;
    o.manifold_count = stream.manifold_count;
    o.contact_count = stream.contact_count;
    return o;
}

// The same pairs through a small stream, resuming with pairs + pairs_done after each
// MF_ERR_CAPACITY; the pieces are joined with pair indices and contact offsets made global.
static output collide_in_pieces(const batch *b, const mf_config *config, uint32_t manifold_capacity,
                                uint32_t contact_capacity, uint32_t *calls)
{
    output o = {malloc(b->pair_count * sizeof(mf_manifold)),
                malloc(b->pair_count * MF_MAX_CONTACTS * sizeof(mf_contact)), 0, 0};
    mf_stream stream = {malloc(manifold_capacity * sizeof(mf_manifold) + 1),
                        manifold_capacity,
                        0,
                        malloc(contact_capacity * sizeof(mf_contact) + 1),
                        contact_capacity,
                        0,
                        0,
                        NULL,
                        0,
                        0};
    mf_context *context;
    CHECK_EQ(mf_context_create(config, &context), MF_OK);
    mf_bodies bodies = {.shape = b->shapes, .transform = b->transforms, .count = 2 * b->pair_count};
    uint32_t done = 0;
    *calls = 0;
    while (done < b->pair_count) {
        ++*calls;
        mf_status status = mf_collide(context, b->pool.bank, &bodies, b->pairs + done, b->pair_count - done, &stream);
        CHECKF(status == MF_OK || status == MF_ERR_CAPACITY, "status %d at pair %u", status, done);
        if (status != MF_OK && status != MF_ERR_CAPACITY) break;
        uint32_t piece = status == MF_OK ? b->pair_count - done : stream.pairs_done;
        CHECK(stream.manifold_count <= manifold_capacity && stream.contact_count <= contact_capacity);
        for (uint32_t m = 0; m < stream.manifold_count; ++m) {
            mf_manifold manifold = stream.manifolds[m];
            CHECKF(manifold.pair < piece, "manifold for pair %u beyond pairs_done %u", manifold.pair, piece);
            manifold.pair += done;
            for (uint32_t k = 0; k < manifold.count; ++k)
                o.contacts[o.contact_count + k] = stream.contacts[manifold.first + k];
            manifold.first = o.contact_count;
            o.contact_count += manifold.count;
            o.manifolds[o.manifold_count++] = manifold;
        }
        if (status == MF_ERR_CAPACITY && piece == 0) {
            CHECKF(0, "no progress at pair %u with capacities %u / %u", done, manifold_capacity, contact_capacity);
            break;
        }
        done += piece;
    }
    mf_context_destroy(context);
    free(stream.manifolds);
    free(stream.contacts);
    return o;
}

static void output_free(output *o)
{
    free(o->manifolds);
    free(o->contacts);
}

// Bit-for-bit: the pieces must be exactly what one call gives.
static void check_same_output(const output *whole, const output *pieces, const char *what)
{
    CHECKF(whole->manifold_count == pieces->manifold_count, "%s: %u manifolds in one call, %u in pieces", what,
           whole->manifold_count, pieces->manifold_count);
    CHECKF(whole->contact_count == pieces->contact_count, "%s: %u contacts in one call, %u in pieces", what,
           whole->contact_count, pieces->contact_count);
    uint32_t n = whole->manifold_count < pieces->manifold_count ? whole->manifold_count : pieces->manifold_count;
    for (uint32_t m = 0; m < n; ++m) {
        const mf_manifold *x = &whole->manifolds[m], *y = &pieces->manifolds[m];
        int same = x->pair == y->pair && x->first == y->first && x->count == y->count &&
                   memcmp(&x->normal, &y->normal, sizeof(mf_vec3)) == 0;
        for (uint32_t k = 0; same && k < x->count; ++k)
            same = memcmp(&whole->contacts[x->first + k], &pieces->contacts[y->first + k], sizeof(mf_contact)) == 0;
        CHECKF(same, "%s: manifold %u (pair %u) differs from pair %u in pieces", what, m, x->pair, y->pair);
        if (!same) break;
    }
}

static void stream_of_capacity_one_loses_nothing(void)
{
    batch b = batch_make(11, 120);
    struct {
        uint32_t max_contacts, manifold_capacity, contact_capacity;
        const char *what;
    } cases[] = {
        {4, 1, 4 * 120, "one manifold at a time"}, {4, 120, 4, "max_contacts contacts at a time"},
        {1, 120, 1, "one contact at a time"},      {1, 1, 1, "one manifold and one contact at a time"},
        {8, 2, 9, "two manifolds, nine contacts"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        mf_config config = mf_config_default();
        config.max_contacts = cases[i].max_contacts;
        output whole = collide_all(&b, &config);
        uint32_t calls;
        output pieces = collide_in_pieces(&b, &config, cases[i].manifold_capacity, cases[i].contact_capacity, &calls);
        CHECKF(whole.manifold_count > 20, "the batch should touch often: %u manifolds", whole.manifold_count);
        CHECKF(calls > 1, "%s: the small stream never filled", cases[i].what);
        check_same_output(&whole, &pieces, cases[i].what);
        output_free(&whole);
        output_free(&pieces);
    }
    batch_free(&b);
}

static void capacity_error_keeps_the_complete_prefix(void)
{
    // A stream with room for 3 manifolds: on MF_ERR_CAPACITY it holds exactly the output of pairs
    // [0, pairs_done), and pairs_done stops at the pair that did not fit.
    batch b = batch_make(12, 200);
    mf_config config = mf_config_default();
    output whole = collide_all(&b, &config);
    CHECK(whole.manifold_count > 3);
    mf_manifold manifolds[3];
    mf_contact contacts[3 * MF_MAX_CONTACTS];
    mf_stream stream = {manifolds, 3, 0, contacts, 3 * MF_MAX_CONTACTS, 0, 0, NULL, 0, 0};
    mf_context *context;
    CHECK_EQ(mf_context_create(&config, &context), MF_OK);
    mf_bodies bodies = {.shape = b.shapes, .transform = b.transforms, .count = 2 * b.pair_count};
    CHECK_EQ(mf_collide(context, b.pool.bank, &bodies, b.pairs, b.pair_count, &stream), MF_ERR_CAPACITY);
    CHECK_EQ(stream.manifold_count, 3);
    if (whole.manifold_count > 3) {
        CHECKF(stream.pairs_done > whole.manifolds[2].pair && stream.pairs_done <= whole.manifolds[3].pair,
               "pairs_done %u, the third manifold is pair %u and the fourth pair %u", stream.pairs_done,
               whole.manifolds[2].pair, whole.manifolds[3].pair);
        for (uint32_t m = 0; m < 3; ++m) {
            CHECK_EQ(stream.manifolds[m].pair, whole.manifolds[m].pair);
            CHECK_EQ(stream.manifolds[m].count, whole.manifolds[m].count);
        }
        CHECK_EQ(stream.contact_count, whole.manifolds[3].first);
    }
    CHECK(strlen(mf_context_message(context)) > 0);
    mf_context_destroy(context);
    output_free(&whole);
    batch_free(&b);
}

static void stream_bound_never_gives_capacity_error(void)
{
    // Worst case: every pair touches with as many points as allowed (crates and octagons resting).
    world w = world_make();
    enum { PAIRS = 64 };
    uint32_t shapes[2 * PAIRS];
    mf_transform transforms[2 * PAIRS];
    mf_pair pairs[PAIRS];
    for (uint32_t i = 0; i < PAIRS; ++i) {
        shapes[2 * i] = w.ground;
        transforms[2 * i] = test_pose(0, 0, 0, TEST_IDENTITY);
        shapes[2 * i + 1] = i % 2 ? w.octagon : w.crate;
        transforms[2 * i + 1] =
            i % 2 ? test_pose(0.1 * i - 3, ground_top + 0.2 - 0.01, 0, test_quat_axis_angle(0, 1, 0, 0.1 * i))
                  : crate_pose(0.1 * i - 3, 0.5, 0.1 * i, -0.01);
        pairs[i] = (mf_pair){2 * i, 2 * i + 1};
    }
    mf_bodies bodies = {.shape = shapes, .transform = transforms, .count = 2 * PAIRS};
    for (uint32_t k = 1; k <= MF_MAX_CONTACTS; ++k) {
        mf_config config = mf_config_default();
        config.max_contacts = k;
        uint32_t manifold_capacity = 0, contact_capacity = 0;
        mf_stream_bound(PAIRS, k, &manifold_capacity, &contact_capacity);
        CHECK(manifold_capacity >= PAIRS && contact_capacity >= PAIRS * k);
        mf_stream stream = {malloc(manifold_capacity * sizeof(mf_manifold)),
                            manifold_capacity,
                            0,
                            malloc(contact_capacity * sizeof(mf_contact)),
                            contact_capacity,
                            0,
                            0,
                            NULL,
                            0,
                            0};
        mf_context *context;
        CHECK_EQ(mf_context_create(&config, &context), MF_OK);
        CHECK_EQ(mf_collide(context, w.bank, &bodies, pairs, PAIRS, &stream), MF_OK);
        CHECK_EQ(stream.manifold_count, PAIRS);
        CHECK(stream.contact_count >= stream.manifold_count && stream.contact_count <= contact_capacity);
        mf_context_destroy(context);
        free(stream.manifolds);
        free(stream.contacts);
    }
    // Huge counts must not wrap around.
    uint32_t manifold_capacity = 0, contact_capacity = 0;
    mf_stream_bound(UINT32_MAX / 2, MF_MAX_CONTACTS, &manifold_capacity, &contact_capacity);
    CHECK(manifold_capacity >= UINT32_MAX / 2 && contact_capacity >= manifold_capacity);
    mf_stream_bound(0, 4, &manifold_capacity, &contact_capacity);
    CHECK(manifold_capacity == 0 || contact_capacity >= manifold_capacity);
    mf_bank_destroy(w.bank);
}

static void max_contacts_one_to_eight_is_respected(void)
{
    batch b = batch_make(13, 400);
    ref_pair *pair = ref_pair_create();
    for (uint32_t k = 1; k <= MF_MAX_CONTACTS; ++k) {
        mf_config config = mf_config_default();
        config.max_contacts = k;
        output o = collide_all(&b, &config);
        CHECK(o.manifold_count > 20);
        ref_stats stats = {0};
        for (uint32_t m = 0; m < o.manifold_count; ++m) {
            const mf_manifold *manifold = &o.manifolds[m];
            CHECKF(manifold->count >= 1 && manifold->count <= k, "max_contacts %u: pair %u has %u contacts", k,
                   manifold->pair, manifold->count);
            uint32_t i = manifold->pair;
            ref_pair_set(pair, &b.pool.reference[b.shapes[2 * i]], b.transforms[2 * i],
                         &b.pool.reference[b.shapes[2 * i + 1]], b.transforms[2 * i + 1]);
            char why[512];
            int violations =
                ref_check_pair(pair, &config, manifold, o.contacts + manifold->first, &stats, why, sizeof(why));
            CHECKF(violations == 0, "max_contacts %u, pair %u: %s", k, i, why);
        }
        output_free(&o);
    }
    ref_pair_destroy(pair);
    batch_free(&b);
}

static void collide_overwrites_the_stream(void)
{
    // The counts are set, not appended to: a second call with nothing touching leaves them 0.
    world w = world_make();
    uint32_t shapes[2] = {w.ground, w.crate};
    mf_transform transforms[2] = {test_pose(0, 0, 0, TEST_IDENTITY), crate_pose(0, 0, 0, -0.01)};
    mf_pair pair = {0, 1};
    mf_bodies bodies = {.shape = shapes, .transform = transforms, .count = 2};
    mf_manifold manifolds[4];
    mf_contact contacts[16];
    mf_stream stream = {manifolds, 4, 0, contacts, 16, 0, 0, NULL, 0, 0};
    mf_context *context;
    CHECK_EQ(mf_context_create(NULL, &context), MF_OK);
    CHECK_EQ(mf_collide(context, w.bank, &bodies, &pair, 1, &stream), MF_OK);
    CHECK_EQ(stream.manifold_count, 1);
    CHECK_EQ(mf_collide(context, w.bank, &bodies, &pair, 1, &stream), MF_OK);
    CHECK_EQ(stream.manifold_count, 1);
    CHECK_EQ(stream.contact_count, 4);
    CHECK_EQ(manifolds[0].first, 0);
    transforms[1] = crate_pose(0, 0, 0, 1.0);
    CHECK_EQ(mf_collide(context, w.bank, &bodies, &pair, 1, &stream), MF_OK);
    CHECK_EQ(stream.manifold_count, 0);
    CHECK_EQ(stream.contact_count, 0);
    mf_context_destroy(context);
    mf_bank_destroy(w.bank);
}

static void no_pairs_give_an_empty_stream(void)
{
    world w = world_make();
    mf_bodies bodies = {.shape = NULL, .transform = NULL, .count = 0};
    mf_stream stream = {NULL, 0, 7, NULL, 0, 7, 7, NULL, 0, 0};
    mf_context *context;
    CHECK_EQ(mf_context_create(NULL, &context), MF_OK);
    CHECK_EQ(mf_collide(context, w.bank, &bodies, NULL, 0, &stream), MF_OK);
    CHECK_EQ(stream.manifold_count, 0);
    CHECK_EQ(stream.contact_count, 0);
    mf_context_destroy(context);
    mf_bank_destroy(w.bank);
}

static void manifolds_follow_input_pair_order(void)
{
    // Touching and separated pairs interleaved, bodies shared between pairs and used in either
    // role: manifolds name their pair by input index, in increasing order.
    world w = world_make();
    uint32_t shapes[4] = {w.ground, w.crate, w.crate, w.cube};
    mf_transform transforms[4] = {test_pose(0, 0, 0, TEST_IDENTITY), crate_pose(0, 0, 0.1, -0.01),
                                  crate_pose(3, 3, 0.2, 2.0),
                                  test_pose(0, ground_top + 2.0 * crate_half.y - 0.01 + 0.5 - 0.01, 0, TEST_IDENTITY)};
    // body 3 (cube) sits on body 1 (crate); body 2 floats away from everything.
    mf_pair pairs[6] = {{0, 2}, {0, 1}, {2, 3}, {3, 1}, {1, 0}, {2, 1}};
    int expected[6] = {0, 1, 0, 1, 1, 0};
    mf_bodies bodies = {.shape = shapes, .transform = transforms, .count = 4};
    mf_manifold manifolds[6];
    mf_contact contacts[6 * MF_MAX_CONTACTS];
    mf_stream stream = {manifolds, 6, 0, contacts, 6 * MF_MAX_CONTACTS, 0, 0, NULL, 0, 0};
    mf_context *context;
    CHECK_EQ(mf_context_create(NULL, &context), MF_OK);
    CHECK_EQ(mf_collide(context, w.bank, &bodies, pairs, 6, &stream), MF_OK);
    uint32_t m = 0, first = 0;
    for (uint32_t i = 0; i < 6; ++i) {
        int touching = m < stream.manifold_count && manifolds[m].pair == i;
        CHECKF(touching == expected[i], "pair %u (%u, %u): touching %d", i, pairs[i].a, pairs[i].b, touching);
        if (!touching) continue;
        CHECK_EQ(manifolds[m].first, first);
        first += manifolds[m].count;
        double normal_y = pairs[i].a == 0 || pairs[i].b == 3 ? 1.0 : -1.0; // from a to b
        CHECK_NEAR(manifolds[m].normal.y, normal_y, 1e-5);
        ++m;
    }
    CHECK_EQ(m, stream.manifold_count);
    CHECK_EQ(first, stream.contact_count);
    mf_context_destroy(context);
    mf_bank_destroy(w.bank);
}

static void repeated_calls_give_identical_output(void)
{
    batch b = batch_make(14, 500);
    mf_config config = mf_config_default();
    output first = collide_all(&b, &config), second = collide_all(&b, &config);
    check_same_output(&first, &second, "second call");
    output_free(&first);
    output_free(&second);
    batch_free(&b);
}

static const test_case tests[] = {
    TEST_CASE(crate_resting_on_ground_gets_its_four_corners),
    TEST_CASE(crate_under_ground_gets_normal_pointing_down),
    TEST_CASE(crate_hovering_within_margin_gets_four_speculative_points),
    TEST_CASE(crate_beyond_margin_gets_no_manifold),
    TEST_CASE(margin_decides_presence),
    TEST_CASE(crate_overhanging_an_edge_gets_the_overlap_rectangle),
    TEST_CASE(crossed_edges_get_one_point),
    TEST_CASE(swapping_bodies_mirrors_the_manifold),
    TEST_CASE(swapped_pairs_give_exactly_mirrored_manifolds),
    TEST_CASE(resting_ids_name_the_ground_face_and_the_crate_corners),
    TEST_CASE(non_unit_quaternions_are_normalised),
    TEST_CASE(octagon_resting_keeps_as_many_corners_as_allowed),
    TEST_CASE(nearly_touching_boxes_get_no_point_off_either_hull),
    TEST_CASE(speculative_edge_contact_lies_on_both_surfaces),
    TEST_CASE(stream_of_capacity_one_loses_nothing),
    TEST_CASE(capacity_error_keeps_the_complete_prefix),
    TEST_CASE(stream_bound_never_gives_capacity_error),
    TEST_CASE(max_contacts_one_to_eight_is_respected),
    TEST_CASE(collide_overwrites_the_stream),
    TEST_CASE(no_pairs_give_an_empty_stream),
    TEST_CASE(manifolds_follow_input_pair_order),
    TEST_CASE(repeated_calls_give_identical_output),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
