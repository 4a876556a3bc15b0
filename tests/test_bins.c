// Binning (kernel/src/bin.c): every pair of a chunk lands in exactly one bundle or on the per-pair
// path, each bundle's kind says truly which hulls its lanes share, and the leftovers of one shape a
// fill a-uniform bundles rather than mixed ones; assembly broadcasts exactly the shared hulls.
#include "bin.h"
#include "check.h"
#include "random.h"
#include "pool.h"

#include <stdlib.h>
#include <string.h>

// A bank of boxes (parallelepipeds: their pairs bundle apart), rock hulls within the wide limits,
// and last two rocks beyond them (their pairs go per pair).
typedef struct bin_bank {
    mf_bank *bank;
    mf_shape_id shapes[26];
    uint32_t box_count, large_first, count;
} bin_bank;

static void make_bin_bank(uint64_t seed, bin_bank *b)
{
    memset(b, 0, sizeof(*b));
    CHECK_EQ(mf_bank_create(&b->bank), MF_OK);
    test_random random = test_random_seed(seed, 1);
    b->box_count = 4;
    for (uint32_t i = 0; i < b->box_count; ++i) {
        mf_vec3 half = {(float)test_random_range(&random, 0.2, 1.0), (float)test_random_range(&random, 0.2, 1.0),
                        (float)test_random_range(&random, 0.2, 1.0)};
        CHECK_EQ(mf_bank_add_box(b->bank, half, &b->shapes[b->count++]), MF_OK);
    }
    b->large_first = 24;
    while (b->count < 26) {
        uint32_t points_count = b->count < b->large_first ? 16 : 48;
        mf_vec3 points[48];
        test_cloud(&random, TEST_CLOUD_ROCK, points_count, 0.5, points);
        CHECK_EQ(mf_bank_add_hull(b->bank, points, points_count, &b->shapes[b->count++]), MF_OK);
    }
}

// Bodies 2 i and 2 i + 1 of pair i, with the shapes given; identity transforms.
typedef struct bin_pairs {
    mf_shape_id shape[2 * MF_CHUNK_PAIRS];
    mf_transform transform[2 * MF_CHUNK_PAIRS];
    mf_pair pair[MF_CHUNK_PAIRS];
    uint32_t count;
} bin_pairs;

static void add_pair(bin_pairs *p, mf_shape_id a, mf_shape_id b)
{
    uint32_t i = p->count++;
    p->shape[2 * i] = a;
    p->shape[2 * i + 1] = b;
    p->transform[2 * i] = p->transform[2 * i + 1] = (mf_transform){{0, 0, 0}, {0, 0, 0, 1}};
    p->pair[i] = (mf_pair){2 * i, 2 * i + 1};
}

static mf_bodies bodies_of(const bin_pairs *p)
{
    return (mf_bodies){.shape = p->shape, .transform = p->transform, .count = 2 * p->count};
}

static int is_box(const bin_bank *b, mf_shape_id shape) { return shape < b->shapes[b->box_count]; }

static int is_large(const bin_bank *b, mf_shape_id shape) { return shape >= b->shapes[b->large_first]; }

// Whether pair i of `p` is a box with a hull.
static int is_box_hull(const bin_bank *b, const bin_pairs *p, uint32_t i)
{
    return is_box(b, p->shape[2 * i]) != is_box(b, p->shape[2 * i + 1]);
}

// Bundle counts by kind, after checking the bins of `p` at `width`.
typedef struct bin_tally {
    uint32_t uniform, uniform_a, mixed;
} bin_tally;

static bin_tally check_bins(const bin_bank *b, const bin_pairs *p, uint32_t width)
{
    bin_tally tally = {0, 0, 0};
    mf_bins *bins = malloc(sizeof(mf_bins));
    CHECK(bins != NULL);
    if (bins == NULL) return tally;
    mf_bodies bodies = bodies_of(p);
    mf_bin_pairs(b->bank, &bodies, p->pair, NULL, p->count, width, bins);
    // Each pair once: in a bundle's lanes or on the per-pair path (a box with a hull, or a hull
    // beyond the bundles' limits), whose box-hull pairs come first, each kind in the chunk's order.
    uint32_t *seen = calloc(p->count, sizeof(uint32_t));
    CHECK(seen != NULL);
    if (seen == NULL) return free(bins), tally;
    for (uint32_t k = 0; k < bins->scalar_count; ++k) {
        uint32_t i = bins->scalar[k];
        CHECK(i < p->count);
        if (i >= p->count) continue;
        int box_hull = is_box_hull(b, p, i);
        CHECKF(box_hull || is_large(b, p->shape[2 * i]) || is_large(b, p->shape[2 * i + 1]),
               "pair %u on the per-pair path", i);
        if (k > 0) {
            uint32_t before = bins->scalar[k - 1];
            int box_hull_before = is_box_hull(b, p, before);
            CHECKF(box_hull_before >= box_hull && (box_hull_before != box_hull || before < i),
                   "per-pair list: pair %u after pair %u", i, before);
        }
        ++seen[i];
    }
    for (uint32_t n = 0; n < bins->bundle_count; ++n) {
        const mf_bundle_plan *plan = &bins->bundles[n];
        CHECKF(plan->lanes >= 1 && plan->lanes <= width, "bundle %u has %u lanes", n, plan->lanes);
        // Uniform and a-uniform bundles are whole: a part-filled one would run lanes for nothing.
        CHECKF(plan->kind == MF_BUNDLE_MIXED || plan->lanes == width, "bundle %u of kind %u has %u lanes", n,
               plan->kind, plan->lanes);
        uint32_t first = bins->order[plan->first];
        for (uint32_t l = 0; l < plan->lanes; ++l) {
            uint32_t i = bins->order[plan->first + l];
            CHECK(i < p->count);
            if (i >= p->count) continue;
            ++seen[i];
            mf_shape_id a = p->shape[2 * i], bb = p->shape[2 * i + 1];
            CHECKF(!is_large(b, a) && !is_large(b, bb), "bundle %u holds pair %u of a large hull", n, i);
            CHECKF(plan->projection == (uint32_t)(is_box(b, a) && is_box(b, bb)), "bundle %u, pair %u", n, i);
            CHECKF(plan->kind == MF_BUNDLE_MIXED || a == p->shape[2 * first], "bundle %u shares no shape a", n);
            CHECKF(plan->kind != MF_BUNDLE_UNIFORM || bb == p->shape[2 * first + 1], "bundle %u shares no shape b", n);
        }
        tally.uniform += plan->kind == MF_BUNDLE_UNIFORM;
        tally.uniform_a += plan->kind == MF_BUNDLE_UNIFORM_A;
        tally.mixed += plan->kind == MF_BUNDLE_MIXED;
        CHECKF(plan->kind != MF_BUNDLE_UNIFORM_A || !plan->projection, "bundle %u: a-uniform parallelepipeds", n);
    }
    for (uint32_t i = 0; i < p->count; ++i) CHECKF(seen[i] == 1, "pair %u placed %u times", i, seen[i]);
    free(seen);
    free(bins);
    return tally;
}

static void bins_place_every_pair_once(void)
{
    bin_bank b;
    make_bin_bank(3, &b);
    for (uint64_t seed = 0; seed < 12; ++seed) {
        test_random random = test_random_seed(seed, 2);
        static bin_pairs p;
        p.count = 0;
        // A chunk or part of one; a few shapes a favoured, and in the whole chunk 48 pairs of two
        // hulls, so that all three kinds of bundle occur at every width.
        uint32_t count = seed == 0 ? MF_CHUNK_PAIRS : test_random_int(&random, 1, MF_CHUNK_PAIRS);
        for (uint32_t i = 0; i < count; ++i) {
            if (seed == 0 && i % 16 == 0 && i < 16 * 48) {
                add_pair(&p, b.shapes[b.box_count], b.shapes[b.box_count + 1]);
                continue;
            }
            uint32_t a = test_random_unit(&random) < 0.5 ? test_random_int(&random, 0, 5)
                                                         : test_random_int(&random, 0, b.count - 1);
            add_pair(&p, b.shapes[a], b.shapes[test_random_int(&random, 0, b.count - 1)]);
        }
        for (uint32_t width = 4; width <= 16; width *= 2) {
            bin_tally tally = check_bins(&b, &p, width);
            if (seed == 0)
                CHECKF(tally.uniform > 0 && tally.uniform_a > 0 && tally.mixed > 0, "width %u: %u, %u and %u", width,
                       tally.uniform, tally.uniform_a, tally.mixed);
        }
    }
    mf_bank_destroy(b.bank);
}

// A chunk whose per-pair list fills it, box-hull pairs among the large hulls' at three spacings:
// every pair must still come out once and in order.
static void a_full_per_pair_list_keeps_every_pair(void)
{
    bin_bank b;
    make_bin_bank(9, &b);
    static bin_pairs p;
    for (uint32_t box_hull_every = 2; box_hull_every <= 64; box_hull_every *= 4) {
        p.count = 0;
        for (uint32_t i = 0; i < MF_CHUNK_PAIRS; ++i) {
            if (i % box_hull_every == 0) add_pair(&p, b.shapes[i % b.box_count], b.shapes[b.box_count + i % 8]);
            else
                add_pair(&p, b.shapes[b.large_first + i % 2],
                         b.shapes[b.box_count + i % (b.large_first - b.box_count)]);
        }
        check_bins(&b, &p, 8);
    }
    mf_bank_destroy(b.bank);
}

static void leftovers_of_one_shape_fill_a_uniform_bundles(void)
{
    bin_bank b;
    make_bin_bank(5, &b);
    static bin_pairs p;
    p.count = 0;
    // Hull 0 against 16 hulls once each, and 9 times against hull 1: one uniform bundle of 8, and
    // 17 leftovers of shape a hull 0, two a-uniform bundles and one pair mixed.
    mf_shape_id a = b.shapes[b.box_count];
    for (uint32_t k = 0; k < 16; ++k) add_pair(&p, a, b.shapes[b.box_count + 2 + k]);
    for (uint32_t k = 0; k < 9; ++k) add_pair(&p, a, b.shapes[b.box_count + 1]);
    bin_tally tally = check_bins(&b, &p, 8);
    CHECK_EQ(tally.uniform, 1);
    CHECK_EQ(tally.uniform_a, 2);
    CHECK_EQ(tally.mixed, 1);
    // Two boxes' pairs stay apart from the hulls' and are never a-uniform.
    p.count = 0;
    for (uint32_t k = 0; k < 12; ++k) add_pair(&p, b.shapes[0], b.shapes[1 + k % 3]);
    tally = check_bins(&b, &p, 8);
    CHECK_EQ(tally.uniform_a, 0);
    mf_bank_destroy(b.bank);
}

static void assembly_broadcasts_the_shared_hulls_only(void)
{
    bin_bank b;
    make_bin_bank(7, &b);
    static bin_pairs p;
    p.count = 0;
    mf_shape_id a = b.shapes[b.box_count];
    for (uint32_t k = 0; k < 8; ++k) add_pair(&p, a, b.shapes[b.box_count + 1]);      // uniform
    for (uint32_t k = 0; k < 8; ++k) add_pair(&p, a, b.shapes[b.box_count + 2 + k]);  // a-uniform
    for (uint32_t k = 0; k < 3; ++k) add_pair(&p, b.shapes[b.box_count + 10 + k], a); // mixed
    mf_bins *bins = malloc(sizeof(mf_bins));
    mf_bundle_tables *tables = malloc(sizeof(mf_bundle_tables));
    CHECK(bins != NULL && tables != NULL);
    if (bins != NULL && tables != NULL) {
        mf_bodies bodies = bodies_of(&p);
        mf_bin_pairs(b.bank, &bodies, p.pair, NULL, p.count, 8, bins);
        CHECK_EQ(bins->bundle_count, 3);
        for (uint32_t n = 0; n < bins->bundle_count; ++n) {
            const mf_bundle_plan *plan = &bins->bundles[n];
            mf_bundle bundle = mf_bundle_assemble(b.bank, &bodies, p.pair, bins, plan, 8, tables);
            CHECK_EQ(bundle.a.broadcast, plan->kind != MF_BUNDLE_MIXED);
            CHECK_EQ(bundle.b.broadcast, plan->kind == MF_BUNDLE_UNIFORM);
        }
    }
    free(tables);
    free(bins);
    mf_bank_destroy(b.bank);
}

static const test_case tests[] = {
    TEST_CASE(bins_place_every_pair_once),
    TEST_CASE(a_full_per_pair_list_keeps_every_pair),
    TEST_CASE(leftovers_of_one_shape_fill_a_uniform_bundles),
    TEST_CASE(assembly_broadcasts_the_shared_hulls_only),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
