// The box-hull queries (kernel/src/box_hull.c): the closed-form face and edge queries against the
// general ones that try every face against the box's corners and every pair of edges, and against
// the best SAT axis in double (tests/reference.c); every ISA's build against the scalar one, bit
// for bit, on the scalar path's frame and on the ISA's own (the hull moved in lanes with its
// bounds). Pairs of boxes and rocks from the pool, and of boxes and large hulls (the bunny's hull,
// clouds of 128 to 400 points), in both orders, at every distance the pair generator makes.
#include "bank.h"
#include "box_hull.h"
#include "check.h"
#include "dispatch.h"
#include "edge_cull.h"
#include "large_pool.h"
#include "pair.h"
#include "pair_frame.h"
#include "pair_scratch.h"
#include "pairs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same_faces(mf_face_query x, mf_face_query y) { return x.separation == y.separation && x.face == y.face; }

static int same_edges(mf_edge_query x, mf_edge_query y)
{
    return x.separation == y.separation && x.edge_a == y.edge_a && x.edge_b == y.edge_b &&
           memcmp(&x.normal, &y.normal, sizeof x.normal) == 0;
}

// The queries of the pair as the kernel runs them for `isa`, with no early out.
static mf_axis_candidates box_hull_candidates(const mf_pair_frame *frame, mf_isa isa, mf_pair_scratch *scratch)
{
    mf_wide_kernel kernel = *mf_dispatch(isa);
    mf_config config = mf_config_default();
    config.margin = INFINITY;
    mf_query_scratch query = mf_query_scratch_of(scratch);
    mf_axis_candidates c;
    mf_pair_frame own = *frame; // the query leaves its kept edge lists in the frame
    mf_query_pair(&own, &config, kernel.faces, &kernel.edge, &kernel.box_hull, &query, &c);
    return c;
}

// Box-hull pairs of the pool against every face and edge pair and the best SAT axis in double.
static void match_every_face_and_edge_pair(test_pool *pool, uint64_t seed, uint32_t pairs)
{
    mf_pair_scratch *scratch = malloc(sizeof(mf_pair_scratch));
    ref_pair *reference = ref_pair_create();
    CHECK(scratch != NULL && reference != NULL);
    uint32_t box_hull = 0, edge_best = 0, failures = 0;
    for (uint32_t index = 0; scratch != NULL && reference != NULL && index < pairs && failures < 10; ++index) {
        uint32_t shape[2];
        mf_transform transform[2];
        test_make_pair(pool, TEST_PAIRS_MIXED, seed, index, 0.02f, shape, transform);
        if (!mf_is_box_hull_pair(&pool->bank->shapes[shape[0]], &pool->bank->shapes[shape[1]])) continue;
        ++box_hull;
        mf_pair_frame frame = test_pair_frame(pool->bank, shape, transform, scratch);
        mf_axis_candidates c = box_hull_candidates(&frame, MF_ISA_SCALAR, scratch);
        mf_face_other other_b = mf_face_other_of(&frame, 0), other_a = mf_face_other_of(&frame, 1);
        mf_face_query face_a = mf_query_faces(frame.a, &other_b, INFINITY);
        mf_face_query face_b = mf_query_faces(frame.b, &other_a, INFINITY);
        float noise = 1e-5f * (c.scale + fabsf(face_a.separation) + fabsf(face_b.separation));
        int ok = fabsf(c.face_a.separation - face_a.separation) <= noise &&
                 fabsf(c.face_b.separation - face_b.separation) <= noise;
        // The best of the three is the best of every SAT candidate, in double.
        ref_pair_set(reference, &pool->reference[shape[0]], transform[0], &pool->reference[shape[1]], transform[1]);
        ref_axis sat = ref_best_axis_gauss_map(reference);
        ok &= fabs(mf_best_separation(&c) - sat.separation) <= noise;
        // An edge axis near the best separates the hulls by what it claims (projected, they are that
        // far apart), and by no less than the best edge pair the general search measures.
        mf_edge_query edge = test_every_edge_pair(&frame, scratch);
        float faces = fmaxf(face_a.separation, face_b.separation);
        if (fmaxf(c.edge.separation, edge.separation) > faces - 1e-3f * c.scale) {
            ++edge_best;
            float gap = mf_projected_gap(&frame, c.edge.normal);
            float general = fminf(edge.separation, mf_projected_gap(&frame, edge.normal));
            ok &= fabsf(gap - c.edge.separation) <= noise && c.edge.separation >= general - noise;
        }
        CHECKF(ok,
               "pair %u (shapes %u, %u): faces %.9g/%u and %.9g/%u, edges %.9g (%u, %u); every face and edge pair "
               "gives %.9g/%u, %.9g/%u and %.9g (%u, %u); best SAT axis in double %.9g",
               index, shape[0], shape[1], (double)c.face_a.separation, c.face_a.face, (double)c.face_b.separation,
               c.face_b.face, (double)c.edge.separation, c.edge.edge_a, c.edge.edge_b, (double)face_a.separation,
               face_a.face, (double)face_b.separation, face_b.face, (double)edge.separation, edge.edge_a, edge.edge_b,
               sat.separation);
        failures += !ok;
    }
    printf("%u pairs, %u box-hull, %u with an edge axis near the best\n", pairs, box_hull, edge_best);
    CHECK(box_hull > pairs / 2 && edge_best > box_hull / 10); // both orders and the edge axes are exercised
    ref_pair_destroy(reference);
    free(scratch);
}

static void box_hull_queries_match_every_face_and_edge_pair(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(81, 8, 48, &pool), MF_OK);
    match_every_face_and_edge_pair(&pool, 8081, test_scaled(20000));
    test_pool_free(&pool);
}

// Every hull takes the box-hull queries, however large: boxes against the bunny's hull and clouds
// of 128 to 400 points.
static void box_hull_queries_match_on_large_hulls(void)
{
    test_pool pool;
    CHECK_EQ(test_large_pool_make(83, 8, &pool), MF_OK);
    match_every_face_and_edge_pair(&pool, 8083, test_scaled(3000));
    test_pool_free(&pool);
}

// The same pose, the same bounds (but for the sign of a zero) and b's vertices bit for bit.
static int same_frames(const mf_pair_frame *x, const mf_pair_frame *y)
{
    int same = memcmp(&x->rotation, &y->rotation, sizeof x->rotation) == 0 &&
               memcmp(&x->translation, &y->translation, sizeof x->translation) == 0 && x->hull_low.x == y->hull_low.x &&
               x->hull_low.y == y->hull_low.y && x->hull_low.z == y->hull_low.z && x->hull_high.x == y->hull_high.x &&
               x->hull_high.y == y->hull_high.y && x->hull_high.z == y->hull_high.z;
    for (uint32_t v = 0; same && v < x->b->vertex_count; ++v) {
        mf_vec3 p = mf_frame_b_vertex(x, v), q = mf_frame_b_vertex(y, v);
        same = memcmp(&p, &q, sizeof p) == 0;
    }
    return same;
}

// Box-hull pairs of the pool: every ISA's queries as the scalar ones, bit for bit, on the scalar
// path's frame and on the ISA's own (test_kernel_frame), which must be the same frame.
static void agree_on_every_isa(test_pool *pool, uint64_t seed, uint32_t pairs)
{
    mf_pair_scratch *scratch = malloc(sizeof(mf_pair_scratch)), *own = malloc(sizeof(mf_pair_scratch));
    CHECK(scratch != NULL && own != NULL);
    uint32_t compared = 0;
    for (uint32_t index = 0; scratch != NULL && own != NULL && index < pairs; ++index) {
        uint32_t shape[2];
        mf_transform transform[2];
        test_make_pair(pool, TEST_PAIRS_MIXED, seed, index, 0.02f, shape, transform);
        if (!mf_is_box_hull_pair(&pool->bank->shapes[shape[0]], &pool->bank->shapes[shape[1]])) continue;
        mf_pair_frame frame = test_pair_frame(pool->bank, shape, transform, scratch);
        mf_axis_candidates scalar = box_hull_candidates(&frame, MF_ISA_SCALAR, scratch);
        for (int isa = MF_ISA_SSE; isa <= MF_ISA_NEON; ++isa) {
            if (!mf_isa_supported((mf_isa)isa)) continue;
            mf_axis_candidates wide = box_hull_candidates(&frame, (mf_isa)isa, scratch);
            CHECKF(same_faces(wide.face_a, scalar.face_a) && same_faces(wide.face_b, scalar.face_b) &&
                       same_edges(wide.edge, scalar.edge),
                   "pair %u: %s box-hull queries differ from the scalar ones", index, mf_isa_name((mf_isa)isa));
            // The ISA's own frame, and its queries on it.
            mf_pair_frame wide_frame = test_kernel_frame(pool->bank, shape, transform, mf_dispatch((mf_isa)isa), own);
            CHECKF(same_frames(&wide_frame, &frame), "pair %u: %s sets up another frame", index,
                   mf_isa_name((mf_isa)isa));
            wide = box_hull_candidates(&wide_frame, (mf_isa)isa, own);
            CHECKF(same_faces(wide.face_a, scalar.face_a) && same_faces(wide.face_b, scalar.face_b) &&
                       same_edges(wide.edge, scalar.edge),
                   "pair %u: %s box-hull queries on its own frame differ from the scalar ones", index,
                   mf_isa_name((mf_isa)isa));
            ++compared;
        }
    }
    printf("%u comparisons\n", compared);
    free(scratch);
    free(own);
}

static void box_hull_queries_agree_on_every_isa(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(82, 8, 48, &pool), MF_OK);
    agree_on_every_isa(&pool, 8082, test_scaled(20000));
    test_pool_free(&pool);
}

static void box_hull_queries_agree_on_every_isa_on_large_hulls(void)
{
    test_pool pool;
    CHECK_EQ(test_large_pool_make(84, 8, &pool), MF_OK);
    agree_on_every_isa(&pool, 8084, test_scaled(3000));
    test_pool_free(&pool);
}

static const test_case tests[] = {
    TEST_CASE(box_hull_queries_match_every_face_and_edge_pair),
    TEST_CASE(box_hull_queries_agree_on_every_isa),
    TEST_CASE(box_hull_queries_match_on_large_hulls),
    TEST_CASE(box_hull_queries_agree_on_every_isa_on_large_hulls),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
