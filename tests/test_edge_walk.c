// The Gauss-map walk (kernel/src/edge_walk.c) against the all-pairs edge query it replaces for
// larger hulls, on random hull pairs (resting, tilted, random orientations; thin, lumpy and round
// clouds of 8 to 64 points); and the vertex fans the walk steps through.
#include "bank.h"
#include "check.h"
#include "context.h"
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
                const mf_fan_edge *f = &h.fan[k];
                uint32_t e = f->edge;
                CHECK(e < h.edge_count);
                if (e >= h.edge_count) continue;
                int joins = (h.edge_vertex0[e] == v && h.edge_vertex1[e] == f->other) ||
                            (h.edge_vertex1[e] == v && h.edge_vertex0[e] == f->other);
                CHECKF(joins, "shape %u vertex %u: fan edge %u does not join it to %u", shape, v, e, f->other);
                mf_vec3 n0 = mf_view_normal(&h, h.edge_face0[e]), n1 = mf_view_normal(&h, h.edge_face1[e]);
                CHECK(f->normal0.x == n0.x && f->normal0.y == n0.y && f->normal0.z == n0.z);
                CHECK(f->normal1.x == n1.x && f->normal1.y == n1.y && f->normal1.z == n1.z);
                CHECK(f->direction.x == h.edge_x[e] && f->direction.y == h.edge_y[e] && f->direction.z == h.edge_z[e]);
                ++listed;
            }
        }
        CHECK_EQ(listed, 2 * h.edge_count);
    }
    test_pool_free(&pool);
}

// Pairs to try: `count` times MF_TEST_SCALE (the sanitizer run checks fewer).
static uint32_t scaled(uint32_t count)
{
    const char *text = getenv("MF_TEST_SCALE");
    double scale = text != NULL && text[0] != '\0' ? atof(text) : 1.0;
    return scale * count < 1.0 ? 1 : (uint32_t)(scale * count);
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
    mf_pair_scratch *scratch = malloc(sizeof(mf_pair_scratch));
    CHECK(scratch != NULL);
    uint32_t pairs = scaled(20000), walked = 0, found = 0, identical = 0;
    for (uint32_t index = 0; scratch != NULL && index < pairs; ++index) {
        uint32_t shape[2];
        mf_transform transform[2];
        test_make_pair(&pool, TEST_PAIRS_HULL, 5005, index, 0.02f, shape, transform);
        mf_bodies bodies = {shape, transform, 2};
        mf_hull_view a, b;
        mf_mat3 rotation_a;
        mf_pair_frame frame = mf_frame_setup(pool.bank, &bodies, (mf_pair){0, 1}, scratch, 1, &a, &b, &rotation_a);
        if (mf_uses_projection(&a, &b)) continue;
        mf_edge_query all = mf_query_edges(&frame), walk = mf_query_edges_walk(&frame, scratch->b_face_vertex);
        ++walked;
        found += all.separation > -INFINITY;
        if (walk.separation == all.separation && walk.edge_a == all.edge_a && walk.edge_b == all.edge_b) {
            ++identical;
            continue;
        }
        float faces = fmaxf(mf_query_faces(&a, frame.b_vertices, b.vertex_count, INFINITY).separation,
                            mf_query_faces(&b, frame.a_vertices, a.vertex_count, INFINITY).separation);
        float best_all = fmaxf(faces, all.separation), best_walk = fmaxf(faces, walk.separation);
        float tolerance = 1e-5f * (a.shape->radius + b.shape->radius + fabsf(best_all));
        CHECKF(walk.separation <= all.separation && best_walk >= best_all - tolerance,
               "pair %u (shapes %u, %u): walk %.9g edges (%u, %u), all pairs %.9g edges (%u, %u), faces %.9g", index,
               shape[0], shape[1], (double)walk.separation, walk.edge_a, walk.edge_b, (double)all.separation,
               all.edge_a, all.edge_b, (double)faces);
    }
    printf("%u pairs, %u with Minkowski edge faces, %u walks identical to the all-pairs search\n", walked, found,
           identical);
    // There is something to compare, and differences stay rare (resting faces only).
    CHECK(walked > pairs / 2 && found > walked / 2 && identical > walked * 9 / 10);
    free(scratch);
    test_pool_free(&pool);
}

static const test_case tests[] = {
    TEST_CASE(vertex_fans_hold_each_edge_at_both_ends),
    TEST_CASE(walk_finds_the_all_pairs_answer),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
