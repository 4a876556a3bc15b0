// The Gauss-map walk (kernel/src/edge_walk.c), every ISA's build, against the all-pairs edge query it replaces for
// larger hulls, on random hull pairs (resting, tilted, random orientations; thin, lumpy and round
// clouds of 8 to 64 points); and the vertex fans the walk steps through. The large hulls' edge
// query (the bunny's hull, clouds of 128 to 400 points): the arc cull (kernel/src/arc_cull.c) drops
// no edge of a pair within its reach and keeps the same edges on every ISA, and the whole query
// finds the all-pairs answer wherever that ranks.
#include "bank.h"
#include "check.h"
#include "dispatch.h"
#include "edge_cull.h"
#include "edge_walk.h"
#include "large_pool.h"
#include "pair.h"
#include "pair_frame.h"
#include "pairs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void vertex_fans_hold_each_edge_at_both_ends(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(41, 4, 40, &pool), MF_OK);
    for (uint32_t shape = 0; shape < mf_bank_shape_count(pool.bank); ++shape) {
        mf_hull_view h = mf_bank_view(pool.bank, shape);
        uint32_t listed = 0;
        for (uint32_t v = 0; v < h.vertex_count; ++v) {
            CHECKF(h.vertex_fan_count[v] >= 3, "shape %u vertex %u: %u edges", shape, v, h.vertex_fan_count[v]);
            for (uint32_t k = h.vertex_fan_first[v]; k < h.vertex_fan_first[v] + h.vertex_fan_count[v]; ++k) {
                uint32_t e = h.fan_edge[k], other = h.fan_other[k], twin = h.fan_twin[k];
                CHECK(e < h.edge_count);
                if (e >= h.edge_count) continue;
                int joins = (h.edge_vertex0[e] == v && h.edge_vertex1[e] == other) ||
                            (h.edge_vertex1[e] == v && h.edge_vertex0[e] == other);
                CHECKF(joins, "shape %u vertex %u: fan edge %u does not join it to %u", shape, v, e, other);
                // The twin is the same edge in the other vertex's fan.
                CHECK(twin >= h.vertex_fan_first[other] &&
                      twin < h.vertex_fan_first[other] + h.vertex_fan_count[other]);
                CHECK(h.fan_edge[twin] == e && h.fan_other[twin] == v && h.fan_twin[twin] == k);
                mf_vec3 n0 = mf_view_normal(&h, h.edge_face0[e]), n1 = mf_view_normal(&h, h.edge_face1[e]);
                float expected[9] = {n0.x, n0.y, n0.z, n1.x, n1.y, n1.z, h.edge_x[e], h.edge_y[e], h.edge_z[e]};
                for (uint32_t r = 0; r < MF_FAN_ROWS; ++r)
                    CHECKF(h.fan_rows[r * h.fan_stride + k] == expected[r], "shape %u entry %u row %u", shape, k, r);
                ++listed;
            }
        }
        CHECK_EQ(listed, 2 * h.edge_count);
    }
    test_pool_free(&pool);
}

// Walks every ISA's build over pairs of the pool (with `shape_override`, unless UINT32_MAX, as a or
// b in turn)
// and holds the scalar walk against the all-pairs search.
static void compare_walks(const test_pool *pool, uint32_t shape_override, uint32_t pairs, uint64_t seed)
{
    mf_pair_scratch *scratch = malloc(sizeof(mf_pair_scratch));
    CHECK(scratch != NULL);
    uint32_t walked = 0, found = 0, identical = 0, doubled = 0;
    ref_pair *reference = ref_pair_create();
    CHECK(reference != NULL);
    for (uint32_t index = 0; scratch != NULL && reference != NULL && index < pairs; ++index) {
        uint32_t shape[2];
        mf_transform transform[2];
        test_make_pair(pool, TEST_PAIRS_HULL, seed, index, 0.02f, shape, transform);
        if (shape_override != UINT32_MAX) shape[index % 2] = shape_override;
        mf_pair_frame frame = test_pair_frame(pool->bank, shape, transform, scratch);
        mf_hull_view a = *frame.a, b = *frame.b;
        if (mf_uses_projection(&a, &b)) continue;
        mf_rotate_b_edges(&frame, scratch->b_normal_rows, scratch->b_direction_rows);
        mf_edge_query all = mf_query_edges(&frame), walk = mf_edge_walk_scalar(&frame, scratch->b_face_vertex);
        ++walked;
        // Every ISA's build walks alike.
        for (int isa = MF_ISA_SSE; isa <= MF_ISA_NEON; ++isa) {
            if (!mf_isa_supported((mf_isa)isa)) continue;
            mf_edge_query wide = mf_dispatch((mf_isa)isa)->edge.walk(&frame, scratch->b_face_vertex);
            CHECKF(wide.separation == walk.separation && wide.edge_a == walk.edge_a && wide.edge_b == walk.edge_b &&
                       wide.normal.x == walk.normal.x && wide.normal.y == walk.normal.y &&
                       wide.normal.z == walk.normal.z,
                   "pair %u: %s walk differs from the scalar walk", index, mf_isa_name((mf_isa)isa));
        }
        found += all.separation > -INFINITY;
        if (walk.separation == all.separation && walk.edge_a == all.edge_a && walk.edge_b == all.edge_b) {
            ++identical;
            continue;
        }
        mf_face_other other_b = mf_face_other_of(&frame, 0), other_a = mf_face_other_of(&frame, 1);
        float faces =
            fmaxf(mf_query_faces(&a, &other_b, INFINITY).separation, mf_query_faces(&b, &other_a, INFINITY).separation);
        float best_all = fmaxf(faces, all.separation), best_walk = fmaxf(faces, walk.separation);
        float tolerance = 1e-5f * (a.shape->radius + b.shape->radius + fabsf(best_all));
        // The all-pairs search in floats can itself overstate a nearly parallel edge pair (the
        // production path measures such an axis again: mf_measure_edge_axis). Where the walk falls
        // short of it and the hulls' gap along its axis falls short of its claim too, the pair's
        // best axis in double decides (shapes of the pool only: they have references).
        double truth = best_all;
        uint32_t referenced = pool->box_count + pool->hull_count;
        if (best_walk < best_all - tolerance && mf_projected_gap(&frame, all.normal) < all.separation - tolerance &&
            shape[0] < referenced && shape[1] < referenced) {
            ref_pair_set(reference, &pool->reference[shape[0]], transform[0], &pool->reference[shape[1]], transform[1]);
            truth = ref_best_axis_gauss_map(reference).separation;
            ++doubled;
        }
        CHECKF(walk.separation <= all.separation && best_walk >= truth - tolerance,
               "pair %u (shapes %u, %u): walk %.9g edges (%u, %u), all pairs %.9g edges (%u, %u), faces %.9g, best "
               "axis in double %.9g",
               index, shape[0], shape[1], (double)walk.separation, walk.edge_a, walk.edge_b, (double)all.separation,
               all.edge_a, all.edge_b, (double)faces, truth);
    }
    printf("%u pairs, %u with Minkowski edge faces, %u walks identical to the all-pairs search, %u held against the "
           "best axis in double\n",
           walked, found, identical, doubled);
    // There is something to compare, and differences stay rare (resting faces: half the pairs).
    CHECK(walked > pairs / 2 && found > walked / 2 && identical > walked / 100 * 97 && doubled <= walked / 1000);
    ref_pair_destroy(reference);
    free(scratch);
}

// The walk measures only pairs the all-pairs search also measures, with the same floats, so it can
// never find more. Where the two differ, an arc of b ends exactly on a face normal of a (b's face
// resting on a's): which of the edges meeting there "cross" it is float noise for both searches,
// and those edge axes are that face normal, whose own query already measures the pair. So the
// pair's best axis (faces included) must come out the same: as the all-pairs search's, or where that
// overstates a nearly parallel edge pair by float noise, as the best axis in double.
static void walk_finds_the_all_pairs_answer(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(43, 0, 48, &pool), MF_OK);
    compare_walks(&pool, UINT32_MAX, test_scaled(20000), 5005);
    test_pool_free(&pool);
}

// A cone on a 100-gon: its apex has 100 edges, more than one block of fan bits (64), and its base
// is one face of 100 corners.
static void walk_crosses_vertices_of_many_edges(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(44, 0, 16, &pool), MF_OK);
    mf_vec3 points[101];
    for (uint32_t k = 0; k < 100; ++k) {
        double angle = 6.283185307179586 * k / 100.0;
        points[k] = (mf_vec3){(float)(0.5 * cos(angle)), (float)(0.5 * sin(angle)), -0.2f};
    }
    points[100] = (mf_vec3){0.0f, 0.0f, 0.4f};
    uint32_t cone;
    CHECK_EQ(mf_bank_add_hull(pool.bank, points, 101, &cone), MF_OK);
    mf_hull_view view = mf_bank_view(pool.bank, cone);
    uint32_t widest = 0;
    for (uint32_t v = 0; v < view.vertex_count; ++v)
        widest = view.vertex_fan_count[v] > widest ? view.vertex_fan_count[v] : widest;
    CHECKF(widest > 64, "the widest fan has %u edges", widest);
    compare_walks(&pool, cone, test_scaled(4000), 6006);
    test_pool_free(&pool);
}

// The largest separation of a Minkowski face of edge j of b (on_b) or i of a with any edge of the
// other hull; -infinity where it builds none. b's rows must hold all of its normals and directions.
static float best_crossing(const mf_pair_frame *frame, uint32_t edge, int on_b)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    float best = -INFINITY;
    uint32_t others = on_b ? a->edge_count : b->edge_count;
    for (uint32_t k = 0; k < others; ++k) {
        uint32_t i = on_b ? k : edge, j = on_b ? edge : k;
        mf_vec3 direction = mf_frame_b_direction(frame, j), axis;
        float a0, separation;
        if (mf_edge_pair_crosses(a, i, mf_frame_b_normal(frame, b->edge_face0[j]),
                                 mf_frame_b_normal(frame, b->edge_face1[j]), direction, &a0) &&
            mf_edge_pair_measure(frame, i, j, direction, a0, &axis, &separation))
            best = fmaxf(best, separation);
    }
    return best;
}

// The arc cull of both hulls' kept edges around a point p inside both (q_a = q_b = p): every ISA's
// build keeps the same edges as the scalar one, and every edge it drops builds no Minkowski face
// whose separation comes within the reach: each gap sum exceeds it, and the separation is minus the
// gaps along the axis. Large pairs of the pool, overlapping, at reaches from the least sum of gaps
// to half a radius beyond it.
static void arc_cull_drops_no_pair_within_reach(void)
{
    test_pool pool;
    CHECK_EQ(test_large_pool_make(51, 1, &pool), MF_OK);
    mf_pair_scratch *scratch = malloc(sizeof(mf_pair_scratch));
    uint16_t *kept = malloc(2 * (MF_MAX_HULL_EDGES + MF_KEPT_EDGES_PAD) * sizeof(uint16_t));
    CHECK(scratch != NULL && kept != NULL);
    uint16_t *wide = kept + MF_MAX_HULL_EDGES + MF_KEPT_EDGES_PAD;
    test_random random = test_random_seed(5252, 0);
    uint32_t pairs = test_scaled(600), culled = 0, edges_in = 0, edges_out = 0, compared = 0;
    for (uint32_t index = 0; scratch != NULL && kept != NULL && index < pairs; ++index) {
        uint32_t shape[2];
        mf_transform transform[2];
        test_make_pair(&pool, TEST_PAIRS_HULL, 5353, index, 0.02f, shape, transform);
        mf_pair_frame frame = test_pair_frame(pool.bank, shape, transform, scratch);
        const mf_hull_view *a = frame.a, *b = frame.b;
        // p halfway between the centroids, if inside both.
        mf_vec3 centre_b = mf_add(mf_mat3_mul(&frame.rotation, b->centroid), frame.translation);
        mf_vec3 p = mf_scale(mf_add(a->centroid, centre_b), 0.5f);
        mf_vec3 p_in_b = mf_mat3_mul_transposed(&frame.rotation, mf_sub(p, frame.translation));
        float least_a = mf_edge_gaps(a, p, scratch->a_edge_gap), least_b = mf_edge_gaps(b, p_in_b, scratch->b_edge_gap);
        if (!(least_a > 0.0f && least_b > 0.0f)) continue;
        float scale = a->shape->radius + b->shape->radius;
        // From the least sum of gaps (both hulls' least) to a quarter of the sizes beyond it.
        float reach = least_a + least_b + (float)test_random_range(&random, 0.0, 0.25 * scale);
        mf_pair_frame all = frame;
        all.a_edges = all.b_edges = NULL;
        mf_rotate_b_edges(&all, scratch->b_normal_rows, scratch->b_direction_rows);
        for (int on_b = 0; on_b < 2; ++on_b) {
            const mf_hull_view *culled_hull = on_b ? b : a, *other = on_b ? a : b;
            if (other->support_map == NULL) continue;
            float *gap = on_b ? scratch->b_edge_gap : scratch->a_edge_gap;
            uint32_t count = mf_edges_within(gap, culled_hull->edge_count, reach - (on_b ? least_a : least_b), kept);
            mf_arc_cull cull = {.records = culled_hull->edge_records,
                                .gap = gap,
                                .to_other = on_b ? frame.rotation : mf_mat3_transpose(&frame.rotation),
                                .other_map = other->support_map,
                                .other_point = on_b ? p : p_in_b,
                                .reach = reach + 1e-5f * scale};
            memcpy(wide, kept, (count + MF_KEPT_EDGES_PAD) * sizeof(uint16_t));
            uint32_t left = mf_dispatch(MF_ISA_SCALAR)->edge.arc_cull(&cull, kept, count);
            ++culled;
            edges_in += count;
            edges_out += left;
            for (int isa = MF_ISA_SSE; isa <= MF_ISA_NEON; ++isa) {
                if (!mf_isa_supported((mf_isa)isa)) continue;
                uint16_t list[MF_MAX_HULL_EDGES + MF_KEPT_EDGES_PAD];
                memcpy(list, wide, (count + MF_KEPT_EDGES_PAD) * sizeof(uint16_t));
                uint32_t wide_left = mf_dispatch((mf_isa)isa)->edge.arc_cull(&cull, list, count);
                int same_list = wide_left == left;
                for (uint32_t k = 0; same_list && k < left + MF_KEPT_EDGES_PAD; ++k) same_list = list[k] == kept[k];
                CHECKF(same_list, "pair %u: %s's arc cull keeps %u edges, the scalar one %u (or others)", index,
                       mf_isa_name((mf_isa)isa), wide_left, left);
                ++compared;
            }
            // The dropped edges: those of the list before the cull (`wide` still holds it) not kept.
            for (uint32_t k = 0, n = 0; k < count; ++k) {
                uint32_t edge = wide[k];
                if (n < left && kept[n] == edge) {
                    ++n;
                    continue;
                }
                float best = best_crossing(&all, edge, on_b);
                CHECKF(!(best >= -reach),
                       "pair %u: the arc cull dropped %s's edge %u, which separates by %.9g, within the reach %.9g",
                       index, on_b ? "b" : "a", edge, (double)best, (double)reach);
            }
        }
    }
    printf("%u culls, %u of %u kept edges left, %u comparisons\n", culled, edges_out, edges_in, compared);
    CHECK(culled > pairs / 4 && edges_out < edges_in);
    free(kept);
    free(scratch);
    test_pool_free(&pool);
}

// A lumpy ball of `count` points, radius about 1, as a small hull beside the large pool's.
static uint32_t add_ball(mf_bank *bank, uint32_t count, uint64_t seed)
{
    test_random random = test_random_seed(seed, 0);
    mf_vec3 points[64];
    CHECK(count <= 64);
    if (count > 64) count = 64;
    test_shell_points(&random, count, 0.8, 1.0, points);
    uint32_t shape = 0;
    CHECK_EQ(mf_bank_add_hull(bank, points, count, &shape), MF_OK);
    return shape;
}

// The edge query of large hulls as a pair runs it (mf_query_pair: faces, the cull, the arc culls,
// all pairs in lanes or the walk, the winner measured), every ISA's build bit for bit as the scalar
// one; and wherever the best of all edge pairs ranks (mf_rank_axes), the same pair, measured the
// same: the culls only drop pairs that cannot rank. Every third pair swaps one hull for a small
// ball (at most MF_FACE_CULL_MAX_FACES faces: culled from its faces' gaps, then along its arcs by
// the large hull's support map). Where the walk searches, its answer may differ in
// a pair the Gauss-map test decides by float noise (walk_finds_the_all_pairs_answer), and a pair
// measured again (mf_measure_edge_axis) may fall below another: never the pair's best axis.
static void edge_query_finds_the_ranking_pair_on_large_hulls(void)
{
    test_pool pool;
    CHECK_EQ(test_large_pool_make(52, 1, &pool), MF_OK);
    mf_pair_scratch *scratch = malloc(sizeof(mf_pair_scratch));
    CHECK(scratch != NULL);
    mf_config config = mf_config_default();
    config.margin = INFINITY; // every pair's edge query runs
    const uint32_t balls[2] = {add_ball(pool.bank, 16, 5455), add_ball(pool.bank, 40, 5456)};
    uint32_t pairs = test_scaled(1500), ranking = 0, identical = 0, compared = 0, with_balls = 0;
    for (uint32_t index = 0; scratch != NULL && index < pairs; ++index) {
        uint32_t shape[2];
        mf_transform transform[2];
        test_make_pair(&pool, TEST_PAIRS_HULL, 5454, index, 0.02f, shape, transform);
        if (index % 3 == 0) {
            shape[index / 3 % 2] = balls[index / 6 % 2];
            ++with_balls;
        }
        mf_pair_frame frame = test_pair_frame(pool.bank, shape, transform, scratch);
        mf_query_scratch query = mf_query_scratch_of(scratch);
        mf_wide_kernel scalar_kernel = *mf_dispatch(MF_ISA_SCALAR);
        mf_axis_candidates c;
        mf_query_pair(&frame, &config, scalar_kernel.faces, &scalar_kernel.edge, &scalar_kernel.box_hull, &query, &c);
        for (int isa = MF_ISA_SSE; isa <= MF_ISA_NEON; ++isa) {
            if (!mf_isa_supported((mf_isa)isa)) continue;
            mf_wide_kernel kernel = *mf_dispatch((mf_isa)isa);
            mf_axis_candidates w;
            mf_query_pair(&frame, &config, kernel.faces, &kernel.edge, &kernel.box_hull, &query, &w);
            CHECKF(w.face_a.separation == c.face_a.separation && w.face_a.face == c.face_a.face &&
                       w.face_b.separation == c.face_b.separation && w.face_b.face == c.face_b.face &&
                       w.edge.separation == c.edge.separation && w.edge.edge_a == c.edge.edge_a &&
                       w.edge.edge_b == c.edge.edge_b &&
                       memcmp(&w.edge.normal, &c.edge.normal, sizeof c.edge.normal) == 0,
                   "pair %u (shapes %u, %u): %s's queries differ from the scalar ones", index, shape[0], shape[1],
                   mf_isa_name((mf_isa)isa));
            ++compared;
        }
        mf_axis_candidates all = c;
        all.edge = test_every_edge_pair(&frame, scratch);
        mf_measure_edge_axis(&frame, &all);
        if (!(all.edge.separation + mf_rank_allowance(&all, config.linear_slop) >= mf_best_separation(&all))) continue;
        ++ranking;
        if (c.edge.separation == all.edge.separation && c.edge.edge_a == all.edge.edge_a &&
            c.edge.edge_b == all.edge.edge_b) {
            ++identical;
            continue;
        }
        float tolerance = 1e-5f * (c.scale + fabsf(mf_best_separation(&all)));
        CHECKF(fabsf(mf_best_separation(&c) - mf_best_separation(&all)) <= tolerance,
               "pair %u (shapes %u, %u): edges %.9g (%u, %u), all pairs %.9g (%u, %u), faces %.9g and %.9g", index,
               shape[0], shape[1], (double)c.edge.separation, c.edge.edge_a, c.edge.edge_b, (double)all.edge.separation,
               all.edge.edge_a, all.edge.edge_b, (double)c.face_a.separation, (double)c.face_b.separation);
    }
    printf("%u pairs (%u with a small ball), %u where an edge axis ranks, %u of those identical to all pairs, %u "
           "comparisons\n",
           pairs, with_balls, ranking, identical, compared);
    CHECK(ranking > pairs / 4 && identical > ranking / 100 * 97);
    free(scratch);
    test_pool_free(&pool);
}

static const test_case tests[] = {
    TEST_CASE(vertex_fans_hold_each_edge_at_both_ends),
    TEST_CASE(walk_finds_the_all_pairs_answer),
    TEST_CASE(walk_crosses_vertices_of_many_edges),
    TEST_CASE(arc_cull_drops_no_pair_within_reach),
    TEST_CASE(edge_query_finds_the_ranking_pair_on_large_hulls),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
