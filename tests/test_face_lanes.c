// The face query in lanes across faces (kernel/src/face_lanes.c), every ISA's build, against the
// scalar face query, bit for bit, with and without the early out at the margin, and the scalar one
// against trying every face: hulls beyond the wide limits (hundreds of faces, a partial last
// register) against random rocks, and large hulls against each other (the bunny's hull, clouds of
// 128 to 400 points), where faces are bounded by the support map first; the support maps.
#include "bank.h"
#include "check.h"
#include "dispatch.h"
#include "edge_cull.h"
#include "large_pool.h"
#include "support_map.h"
#include "pair.h"
#include "pair_frame.h"
#include "pair_scratch.h"
#include "pairs.h"
#include "random.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A lumpy ball of `count` points: hundreds of faces, beyond the wide limits.
static uint32_t add_big_hull(mf_bank *bank, uint32_t count, uint64_t seed)
{
    test_random random = test_random_seed(seed, 0);
    mf_vec3 *points = malloc(count * sizeof(mf_vec3));
    CHECK(points != NULL);
    if (points == NULL) return 0;
    test_shell_points(&random, count, 0.45, 0.5, points);
    uint32_t shape = 0;
    CHECK_EQ(mf_bank_add_hull(bank, points, count, &shape), MF_OK);
    free(points);
    return shape;
}

static int same(mf_face_query x, mf_face_query y) { return x.separation == y.separation && x.face == y.face; }

// The face query without the reach: every face measured, the first of equals kept.
static mf_face_query every_face(const mf_hull_view *hull, const mf_face_other *other)
{
    mf_face_query best = {-INFINITY, 0};
    for (uint32_t f = 0; f < hull->face_count; ++f) {
        mf_vec3 normal = mf_view_normal(hull, f);
        float support = INFINITY;
        for (uint32_t i = 0; i < other->count; ++i) support = fminf(support, mf_dot(normal, other->vertices[i]));
        float separation = support - hull->offset[f];
        if (separation > best.separation) best = (mf_face_query){separation, f};
    }
    return best;
}

// Faces of the hull within the reach of the highest (mf_face_reach): how many the query measures.
static uint32_t faces_in_reach(const mf_hull_view *hull, const mf_face_other *other)
{
    float highest = -INFINITY;
    uint32_t count = 0;
    for (uint32_t f = 0; f < hull->face_count; ++f) highest = fmaxf(highest, mf_face_height(hull, f, other->centroid));
    for (uint32_t f = 0; f < hull->face_count; ++f)
        count += mf_face_height(hull, f, other->centroid) >= highest - other->reach;
    return count;
}

// One pair's face queries, both ways: the scalar one against every face, and every ISA's against
// the scalar one bit for bit, without an early out and at the margin (separated pairs stop at the
// first face past it). Returns how many ISA comparisons ran.
static uint32_t check_face_queries(const mf_pair_frame *frame, const char *what)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    mf_face_other other_b = mf_face_other_of(frame, 0), other_a = mf_face_other_of(frame, 1);
    mf_face_query on_a = mf_query_faces(a, &other_b, INFINITY), on_b = mf_query_faces(b, &other_a, INFINITY);
    // Skipping faces out of reach changes nothing: the answer is every face's best.
    CHECKF(same(on_a, every_face(a, &other_b)) && same(on_b, every_face(b, &other_a)),
           "%s: the face query differs from trying every face", what);
    uint32_t compared = 0;
    for (int isa = MF_ISA_SSE; isa <= MF_ISA_NEON; ++isa) {
        if (!mf_isa_supported((mf_isa)isa)) continue;
        mf_face_search_fn *faces = mf_dispatch((mf_isa)isa)->faces;
        const float margins[2] = {INFINITY, 0.02f};
        for (int m = 0; m < 2; ++m) {
            mf_face_query scalar_a = mf_query_faces(a, &other_b, margins[m]);
            mf_face_query scalar_b = mf_query_faces(b, &other_a, margins[m]);
            mf_face_query wide_a = faces(a, &other_b, margins[m]), wide_b = faces(b, &other_a, margins[m]);
            CHECKF(same(wide_a, scalar_a) && same(wide_b, scalar_b),
                   "%s, margin %g: %s face query %.9g/%u, %.9g/%u; scalar %.9g/%u, %.9g/%u", what, (double)margins[m],
                   mf_isa_name((mf_isa)isa), (double)wide_a.separation, wide_a.face, (double)wide_b.separation,
                   wide_b.face, (double)scalar_a.separation, scalar_a.face, (double)scalar_b.separation, scalar_b.face);
            ++compared;
        }
    }
    return compared;
}

static void face_lanes_match_the_scalar_face_query(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(47, 4, 32, &pool), MF_OK);
    uint32_t big[2] = {add_big_hull(pool.bank, 300, 71), add_big_hull(pool.bank, 90, 72)};
    CHECK(mf_bank_view(pool.bank, big[0]).face_count > MF_WIDE_MAX_FACES);
    mf_pair_scratch *scratch = malloc(sizeof(mf_pair_scratch));
    CHECK(scratch != NULL);
    uint32_t pairs = test_scaled(3000), compared = 0, skipped = 0;
    for (uint32_t index = 0; scratch != NULL && index < pairs; ++index) {
        uint32_t shape[2];
        mf_transform transform[2];
        test_make_pair(&pool, TEST_PAIRS_HULL, 7007, index, 0.02f, shape, transform);
        shape[index % 2] = big[index / 2 % 2];
        mf_pair_frame frame = test_pair_frame(pool.bank, shape, transform, scratch);
        char what[64];
        snprintf(what, sizeof(what), "pair %u", index);
        compared += check_face_queries(&frame, what);
        mf_face_other other_b = mf_face_other_of(&frame, 0), other_a = mf_face_other_of(&frame, 1);
        skipped += faces_in_reach(frame.a, &other_b) < frame.a->face_count &&
                   faces_in_reach(frame.b, &other_a) < frame.b->face_count;
    }
    printf("%u pairs, %u comparisons, %u skipped faces on both hulls\n", pairs, compared, skipped);
    CHECK(skipped > pairs / 2); // the reach is exercised
    free(scratch);
    test_pool_free(&pool);
}

// Large hulls (support maps) against each other, deep, shallow, touching and apart: every ISA's
// face query against the scalar one (which tries every face the reach leaves) bit for bit, with and
// without the early out, and the scalar one against every face. Many pairs have dozens to
// hundreds of faces in reach, the bounded search's case.
static void face_lanes_match_on_large_hulls(void)
{
    test_pool pool;
    CHECK_EQ(test_large_pool_make(49, 2, &pool), MF_OK);
    mf_pair_scratch *scratch = malloc(sizeof(mf_pair_scratch));
    CHECK(scratch != NULL);
    uint32_t pairs = test_scaled(4000), compared = 0, many = 0, apart = 0;
    for (uint32_t index = 0; scratch != NULL && index < pairs; ++index) {
        uint32_t shape[2];
        mf_transform transform[2];
        test_make_pair(&pool, TEST_PAIRS_HULL, 9009, index, 0.02f, shape, transform);
        mf_pair_frame frame = test_pair_frame(pool.bank, shape, transform, scratch);
        char what[96];
        snprintf(what, sizeof(what), "pair %u (shapes %u, %u)", index, shape[0], shape[1]);
        compared += check_face_queries(&frame, what);
        mf_face_other other_b = mf_face_other_of(&frame, 0), other_a = mf_face_other_of(&frame, 1);
        many += (faces_in_reach(frame.a, &other_b) >= 64) + (faces_in_reach(frame.b, &other_a) >= 64);
        apart += fmaxf(mf_query_faces(frame.a, &other_b, INFINITY).separation,
                       mf_query_faces(frame.b, &other_a, INFINITY).separation) > 0.02f;
    }
    printf("%u pairs (%u apart), %u comparisons, %u queries with 64 faces or more in reach\n", pairs, apart, compared,
           many);
    CHECK(many > pairs / 10 && apart > pairs / 20); // the bounded search and the margin's early out are exercised
    free(scratch);
    test_pool_free(&pool);
}

// Each cell of a large hull's support map names the vertex that supports the cell's centre
// direction (the first of equals) and holds its point; every direction falls in a cell whose centre
// lies near it; hulls within the wide limits have no map.
static void support_map_names_the_support_of_each_cell(void)
{
    test_pool pool;
    CHECK_EQ(test_large_pool_make(50, 1, &pool), MF_OK);
    CHECK(mf_bank_view(pool.bank, 0).support_map == NULL); // the box
    test_random random = test_random_seed(5151, 0);
    uint32_t checked = 0, maps = 0;
    for (uint32_t shape = pool.box_count; shape < pool.box_count + pool.hull_count; ++shape) {
        mf_hull_view hull = mf_bank_view(pool.bank, shape);
        CHECKF((hull.support_map != NULL) == (hull.vertex_count > MF_WIDE_MAX_VERTICES),
               "shape %u: %u vertices, support map %s", shape, hull.vertex_count, hull.support_map ? "kept" : "none");
        maps += hull.support_map != NULL;
        for (uint32_t cell = 0; hull.support_map != NULL && cell < MF_SUPPORT_MAP_CELLS; ++cell) {
            mf_vec3 centre = mf_support_map_centre(cell);
            uint32_t best = 0;
            for (uint32_t v = 1; v < hull.vertex_count; ++v)
                if (mf_dot(centre, mf_view_vertex(&hull, v)) > mf_dot(centre, mf_view_vertex(&hull, best))) best = v;
            const float *entry = hull.support_map + MF_SUPPORT_MAP_ENTRY * cell;
            mf_vec3 point = mf_view_vertex(&hull, best);
            CHECKF(entry[3] == (float)best && entry[0] == point.x && entry[1] == point.y && entry[2] == point.z,
                   "shape %u cell %u names vertex %g, the support is %u", shape, cell, (double)entry[3], best);
            CHECKF(mf_support_map_cell(centre) == cell, "shape %u: cell %u's centre falls in cell %u", shape, cell,
                   mf_support_map_cell(centre));
            ++checked;
        }
        for (int trial = 0; trial < 1000; ++trial) {
            double d[3];
            test_random_direction(&random, d);
            mf_vec3 direction = {(float)d[0], (float)d[1], (float)d[2]};
            mf_vec3 centre = mf_support_map_centre(mf_support_map_cell(direction));
            // A cell spans 90 / 16 degrees along each side of the unfolded square at most.
            CHECKF(mf_dot(direction, centre) > cosf(0.16f), "direction {%g, %g, %g} lies far from its cell's centre",
                   (double)direction.x, (double)direction.y, (double)direction.z);
        }
    }
    CHECK(maps >= pool.hull_count - 1 && checked == maps * MF_SUPPORT_MAP_CELLS);
    test_pool_free(&pool);
}

// A point for the cull's gaps: in a random direction from the hull's origin, out to 1.5 times its
// radius, so inside, on and outside it.
static mf_vec3 point_about(test_random *random, const mf_hull_view *hull)
{
    mf_vec3 p;
    test_shell_points(random, 1, 0.0, 1.5 * hull->shape->radius, &p);
    return p;
}

// The cull's edge gaps in lanes, every ISA's build, against mf_edge_gaps bit for bit: the least,
// every edge's gap, and the infinite padding after the last, on every shape of the pool (rows or
// not) from points inside, on and outside it.
static void edge_gaps_match_the_scalar_gaps(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(48, 4, 32, &pool), MF_OK);
    uint32_t big = add_big_hull(pool.bank, 300, 73), compared = 0;
    float *scalar = malloc(2 * (MF_MAX_HULL_EDGES + MF_EDGE_GAP_PAD) * sizeof(float));
    CHECK(scalar != NULL);
    float *wide = scalar + MF_MAX_HULL_EDGES + MF_EDGE_GAP_PAD;
    test_random random = test_random_seed(4242, 0);
    for (uint32_t shape = 0; scalar != NULL && shape <= big; ++shape) {
        mf_hull_view hull = mf_bank_view(pool.bank, shape);
        for (int trial = 0; trial < 20; ++trial) {
            mf_vec3 p = point_about(&random, &hull);
            float least = mf_edge_gaps(&hull, p, scalar);
            for (int isa = MF_ISA_SSE; isa <= MF_ISA_NEON; ++isa) {
                if (!mf_isa_supported((mf_isa)isa)) continue;
                float wide_least = mf_dispatch((mf_isa)isa)->edge.gaps(&hull, p, wide);
                int same_gaps = wide_least == least;
                for (uint32_t e = 0; e < hull.edge_count + MF_EDGE_GAP_PAD; ++e) same_gaps &= wide[e] == scalar[e];
                CHECKF(same_gaps, "shape %u: %s edge gaps differ from the scalar ones", shape,
                       mf_isa_name((mf_isa)isa));
                ++compared;
            }
        }
    }
    printf("%u comparisons\n", compared);
    CHECK(compared > 0);
    free(scalar);
    test_pool_free(&pool);
}

// The cull's kept lists in lanes, every ISA's build, against mf_edges_within: the same edges in
// the same order, on gap arrays of every length up to a few registers past the widest, with gaps
// exactly at the reach, infinite and NaN, and an infinite reach (which must keep no padding); both
// lists end in zeros.
static void kept_edges_match_the_scalar_list(void)
{
    enum { MOST = 70 };
    float gap[MOST + MF_EDGE_GAP_PAD];
    uint16_t scalar[MOST + MF_KEPT_EDGES_PAD], wide[MOST + MF_KEPT_EDGES_PAD];
    test_random random = test_random_seed(977, 0);
    uint32_t compared = 0, kept = 0;
    for (uint32_t count = 0; count <= MOST; ++count) {
        for (int trial = 0; trial < 40; ++trial) {
            float reach = trial == 0 ? INFINITY : (float)test_random_range(&random, -0.2, 1.0);
            for (uint32_t e = 0; e < count; ++e) {
                uint32_t kind = test_random_int(&random, 0, 9);
                gap[e] = kind == 0 ? reach : kind == 1 ? INFINITY : kind == 2 ? NAN : (float)test_random_unit(&random);
            }
            for (uint32_t e = count; e < count + MF_EDGE_GAP_PAD; ++e) gap[e] = INFINITY;
            uint32_t scalar_count = mf_edges_within(gap, count, reach, scalar);
            kept += scalar_count;
            for (int isa = MF_ISA_SSE; isa <= MF_ISA_NEON; ++isa) {
                if (!mf_isa_supported((mf_isa)isa)) continue;
                memset(wide, 0xff, sizeof wide);
                uint32_t wide_count = mf_dispatch((mf_isa)isa)->edge.within(gap, count, reach, wide);
                int same = wide_count == scalar_count;
                // The same list, then zeros to the padding (the lanes read indices past the last).
                for (uint32_t k = 0; same && k < scalar_count + MF_KEPT_EDGES_PAD; ++k)
                    same = wide[k] == scalar[k] && (k < scalar_count || wide[k] == 0);
                CHECKF(same, "%u gaps, reach %g: %s keeps %u edges, the scalar list %u (or other edges)", count,
                       (double)reach, mf_isa_name((mf_isa)isa), wide_count, scalar_count);
                ++compared;
            }
        }
    }
    printf("%u comparisons, %u edges kept by the scalar lists\n", compared, kept);
    CHECK(compared > 0 && kept > 0);
}

// The cull's face gaps in lanes, every ISA's build, against mf_face_gaps bit for bit: the least,
// every face's gap and the infinite padding after the last. Then the edges each ISA keeps from
// them, against mf_edges_by_faces and against what it stands for: the edges whose gap (the less of
// their faces') is within the reach (mf_edges_within). Every shape of the pool with at most
// MF_FACE_CULL_MAX_FACES faces, and balls of up to that many, from points inside, on and outside,
// at reaches from none of the edges to all.
static void face_gaps_and_their_edges_match_the_scalar_ones(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(48, 4, 32, &pool), MF_OK);
    // Balls of 2 V - 4 faces at most: two, three and four words of face bits.
    uint32_t balls[3] = {add_big_hull(pool.bank, 30, 81), add_big_hull(pool.bank, 48, 82),
                         add_big_hull(pool.bank, 66, 83)};
    float scalar[MF_FACE_CULL_MAX_FACES + MF_EDGE_GAP_PAD], wide[MF_FACE_CULL_MAX_FACES + MF_EDGE_GAP_PAD];
    float *edge_gap = malloc((MF_MAX_HULL_EDGES + MF_EDGE_GAP_PAD) * sizeof(float));
    uint16_t *lists = malloc(3 * (MF_MAX_HULL_EDGES + MF_KEPT_EDGES_PAD) * sizeof(uint16_t));
    CHECK(edge_gap != NULL && lists != NULL);
    uint16_t *kept = lists, *defined = kept + MF_MAX_HULL_EDGES + MF_KEPT_EDGES_PAD;
    uint16_t *wide_kept = defined + MF_MAX_HULL_EDGES + MF_KEPT_EDGES_PAD;
    test_random random = test_random_seed(4343, 0);
    uint32_t compared = 0, shapes = 0, kept_edges = 0, all_edges = 0;
    for (uint32_t shape = 0; edge_gap != NULL && lists != NULL && shape <= balls[2]; ++shape) {
        mf_hull_view hull = mf_bank_view(pool.bank, shape);
        if (hull.face_count > MF_FACE_CULL_MAX_FACES) continue;
        ++shapes;
        for (int trial = 0; trial < 20; ++trial) {
            mf_vec3 p = point_about(&random, &hull);
            float least = mf_face_gaps(&hull, p, scalar);
            float reach = trial == 0   ? -INFINITY
                          : trial == 1 ? INFINITY
                                       : least + (float)test_random_range(&random, 0.0, 1.0) * hull.shape->radius;
            uint32_t count = mf_edges_by_faces(&hull, scalar, reach, kept);
            for (uint32_t e = 0; e < hull.edge_count; ++e)
                edge_gap[e] = fminf(scalar[hull.edge_face0[e]], scalar[hull.edge_face1[e]]);
            for (uint32_t e = hull.edge_count; e < hull.edge_count + MF_EDGE_GAP_PAD; ++e) edge_gap[e] = INFINITY;
            uint32_t defined_count = mf_edges_within(edge_gap, hull.edge_count, reach, defined);
            int same_list = count == defined_count;
            for (uint32_t k = 0; same_list && k < count + MF_KEPT_EDGES_PAD; ++k) same_list = kept[k] == defined[k];
            CHECKF(same_list, "shape %u: mf_edges_by_faces keeps %u edges, their gaps %u (or others)", shape, count,
                   defined_count);
            CHECKF(trial != 1 || count == hull.edge_count, "shape %u: an infinite reach keeps %u of %u edges", shape,
                   count, hull.edge_count);
            kept_edges += count;
            all_edges += hull.edge_count;
            for (int isa = MF_ISA_SSE; isa <= MF_ISA_NEON; ++isa) {
                if (!mf_isa_supported((mf_isa)isa)) continue;
                const mf_edge_kernel *kernel = &mf_dispatch((mf_isa)isa)->edge;
                float wide_least = kernel->face_gaps(&hull, p, wide);
                int same_gaps = wide_least == least;
                for (uint32_t f = 0; f < hull.face_count + MF_EDGE_GAP_PAD; ++f) same_gaps &= wide[f] == scalar[f];
                CHECKF(same_gaps, "shape %u: %s face gaps differ from the scalar ones", shape,
                       mf_isa_name((mf_isa)isa));
                memset(wide_kept, 0xff, (MF_MAX_HULL_EDGES + MF_KEPT_EDGES_PAD) * sizeof(uint16_t));
                uint32_t wide_count = kernel->edges_by_faces(&hull, scalar, reach, wide_kept);
                same_list = wide_count == count;
                for (uint32_t k = 0; same_list && k < count + MF_KEPT_EDGES_PAD; ++k)
                    same_list = wide_kept[k] == kept[k];
                CHECKF(same_list, "shape %u: %s keeps %u edges, the scalar list %u (or others)", shape,
                       mf_isa_name((mf_isa)isa), wide_count, count);
                ++compared;
            }
        }
    }
    printf("%u shapes, %u comparisons, %u of %u edges kept\n", shapes, compared, kept_edges, all_edges);
    CHECK(shapes > 3 && kept_edges > 0 && kept_edges < all_edges);
    free(edge_gap);
    free(lists);
    test_pool_free(&pool);
}

static const test_case tests[] = {
    TEST_CASE(face_lanes_match_the_scalar_face_query),     TEST_CASE(face_lanes_match_on_large_hulls),
    TEST_CASE(support_map_names_the_support_of_each_cell), TEST_CASE(edge_gaps_match_the_scalar_gaps),
    TEST_CASE(kept_edges_match_the_scalar_list),           TEST_CASE(face_gaps_and_their_edges_match_the_scalar_ones),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
