// The Gauss-map walk (kernel/src/edge_walk.c), every ISA's build, against the all-pairs edge query it replaces for
// larger hulls, on random hull pairs (resting, tilted, random orientations; thin, lumpy and round
// clouds of 8 to 64 points); and the vertex fans the walk steps through.
#include "bank.h"
#include "check.h"
#include "dispatch.h"
#include "edge_walk.h"
#include "pair.h"
#include "pairs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
    uint32_t walked = 0, found = 0, identical = 0;
    for (uint32_t index = 0; scratch != NULL && index < pairs; ++index) {
        uint32_t shape[2];
        mf_transform transform[2];
        test_make_pair(pool, TEST_PAIRS_HULL, seed, index, 0.02f, shape, transform);
        if (shape_override != UINT32_MAX) shape[index % 2] = shape_override;
        mf_bodies bodies = {.shape = shape, .transform = transform, .count = 2};
        mf_mat3 rotation_a;
        mf_pair_frame frame = mf_frame_setup(pool->bank, &bodies, (mf_pair){0, 1}, scratch, 1, &rotation_a);
        mf_hull_view a = *frame.a, b = *frame.b;
        if (mf_uses_projection(&a, &b)) continue;
        mf_rotate_b_edges(&frame, scratch->b_normal_rows, scratch->b_direction_rows);
        mf_edge_query all = mf_query_edges(&frame), walk = mf_edge_walk_scalar(&frame, scratch->b_face_vertex);
        ++walked;
        // Every ISA's build walks alike.
        for (int isa = MF_ISA_SSE; isa <= MF_ISA_NEON; ++isa) {
            if (!mf_isa_supported((mf_isa)isa)) continue;
            mf_edge_query wide = mf_dispatch((mf_isa)isa).edge.walk(&frame, scratch->b_face_vertex);
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
        CHECKF(walk.separation <= all.separation && best_walk >= best_all - tolerance,
               "pair %u (shapes %u, %u): walk %.9g edges (%u, %u), all pairs %.9g edges (%u, %u), faces %.9g", index,
               shape[0], shape[1], (double)walk.separation, walk.edge_a, walk.edge_b, (double)all.separation,
               all.edge_a, all.edge_b, (double)faces);
    }
    printf("%u pairs, %u with Minkowski edge faces, %u walks identical to the all-pairs search\n", walked, found,
           identical);
    // There is something to compare, and differences stay rare (resting faces: half the pairs).
    CHECK(walked > pairs / 2 && found > walked / 2 && identical > walked / 100 * 97);
    free(scratch);
}

// The walk measures only pairs the all-pairs search also measures, with the same floats, so it can
// never find more. Where the two differ, an arc of b ends exactly on a face normal of a (b's face
// resting on a's): which of the edges meeting there "cross" it is float noise for both searches,
// and those edge axes are that face normal, whose own query already measures the pair. So the
// pair's best axis (faces included) must come out the same.
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

static const test_case tests[] = {
    TEST_CASE(vertex_fans_hold_each_edge_at_both_ends),
    TEST_CASE(walk_finds_the_all_pairs_answer),
    TEST_CASE(walk_crosses_vertices_of_many_edges),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
