// The bank's internal view (kernel/src/bank.h, what the collision code reads) agrees with the
// public introspection, and its derived arrays (loop edges, edge directions) are consistent.
#include "bank.h"
#include "check.h"
#include "pool.h"

#include <math.h>

static void view_matches_public_introspection(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(31, 16, 48, &pool), MF_OK);
    for (uint32_t shape = 0; shape < mf_bank_shape_count(pool.bank); ++shape) {
        mf_hull_view view = mf_bank_view(pool.bank, shape);
        mf_shape_info info;
        CHECK_EQ(mf_bank_shape_info(pool.bank, shape, &info), MF_OK);
        CHECK_EQ(view.vertex_count, info.vertex_count);
        CHECK_EQ(view.face_count, info.face_count);
        CHECK_EQ(view.edge_count, info.edge_count);
        CHECK(view.centroid.x == info.centroid.x && view.centroid.y == info.centroid.y &&
              view.centroid.z == info.centroid.z);
        mf_vec3 vertices[64];
        CHECK(info.vertex_count <= 64);
        CHECK_EQ(mf_bank_shape_vertices(pool.bank, shape, vertices, 64), MF_OK);
        for (uint32_t v = 0; v < view.vertex_count && v < 64; ++v) {
            mf_vec3 p = mf_view_vertex(&view, v);
            CHECKF(p.x == vertices[v].x && p.y == vertices[v].y && p.z == vertices[v].z, "shape %u vertex %u", shape,
                   v);
        }
        for (uint32_t f = 0; f < view.face_count; ++f) {
            mf_vec3 n;
            float offset;
            uint32_t loop[MF_MAX_FACE_VERTICES], count;
            CHECK_EQ(mf_bank_shape_face(pool.bank, shape, f, &n, &offset, loop, MF_MAX_FACE_VERTICES, &count), MF_OK);
            mf_vec3 m = mf_view_normal(&view, f);
            CHECK(m.x == n.x && m.y == n.y && m.z == n.z && view.offset[f] == offset);
            CHECK_EQ(view.face_loop_count[f], count);
            const uint16_t *loop_vertex = view.loop_vertex + view.face_loop_first[f];
            const uint16_t *loop_edge = view.loop_edge + view.face_loop_first[f];
            for (uint32_t k = 0; k < count; ++k) {
                CHECK_EQ(loop_vertex[k], loop[k]);
                // loop_edge[k] joins loop vertex k to the next one, and names this face.
                uint32_t e = loop_edge[k], from = loop[k], to = loop[(k + 1) % count];
                CHECKF(e < view.edge_count, "shape %u face %u: loop edge %u out of range", shape, f, e);
                if (e >= view.edge_count) continue;
                int joins = (view.edge_vertex0[e] == from && view.edge_vertex1[e] == to && view.edge_face0[e] == f) ||
                            (view.edge_vertex0[e] == to && view.edge_vertex1[e] == from && view.edge_face1[e] == f);
                CHECKF(joins, "shape %u face %u: loop edge %u does not join %u -> %u on this face", shape, f, e, from,
                       to);
            }
        }
        for (uint32_t e = 0; e < view.edge_count; ++e) {
            mf_edge_info edge;
            CHECK_EQ(mf_bank_shape_edge(pool.bank, shape, e, &edge), MF_OK);
            CHECK(view.edge_vertex0[e] == edge.vertex0 && view.edge_vertex1[e] == edge.vertex1 &&
                  view.edge_face0[e] == edge.face0 && view.edge_face1[e] == edge.face1);
            mf_vec3 p = mf_view_vertex(&view, edge.vertex0), q = mf_view_vertex(&view, edge.vertex1);
            double d[3] = {(double)q.x - p.x, (double)q.y - p.y, (double)q.z - p.z};
            double length = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            double along = (view.edge_x[e] * d[0] + view.edge_y[e] * d[1] + view.edge_z[e] * d[2]) / length;
            CHECKF(fabs(along - 1.0) < 1e-6, "shape %u edge %u: direction is off by %.3g", shape, e, along - 1.0);
        }
    }
    test_pool_free(&pool);
}

static void views_of_different_shapes_do_not_overlap(void)
{
    // Shapes sit back to back in the shared arrays: one shape's ranges never reach into another's.
    test_pool pool;
    CHECK_EQ(test_pool_make(32, 4, 4, &pool), MF_OK);
    for (uint32_t s = 0; s + 1 < mf_bank_shape_count(pool.bank); ++s) {
        mf_hull_view a = mf_bank_view(pool.bank, s), b = mf_bank_view(pool.bank, s + 1);
        CHECK(a.vertex_x + a.vertex_count <= b.vertex_x);
        CHECK(a.normal_x + a.face_count <= b.normal_x);
        CHECK(a.edge_vertex0 + a.edge_count <= b.edge_vertex0);
        uint32_t loops_a = 0;
        for (uint32_t f = 0; f < a.face_count; ++f) loops_a += a.face_loop_count[f];
        CHECK(a.loop_vertex + loops_a <= b.loop_vertex);
    }
    test_pool_free(&pool);
}

// The views the bank keeps (mf_bank_hull) follow its arrays as they grow: after every shape added,
// each earlier shape's kept view equals a view built afresh, field for field.
static void kept_views_follow_the_arrays_as_they_grow(void)
{
    mf_bank *bank = NULL;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t mismatches = 0, checked = 0;
    for (uint32_t n = 0; bank != NULL && n < 150; ++n) {
        uint32_t shape;
        mf_vec3 half = {0.1f + 0.01f * (float)n, 0.2f, 0.3f};
        CHECK_EQ(mf_bank_add_box(bank, half, &shape), MF_OK);
        for (uint32_t s = 0; s <= shape; s += 1 + shape / 16) {
            mf_hull_view fresh = mf_bank_view(bank, s);
            const mf_hull_view *kept = mf_bank_hull(bank, s);
            mismatches += kept->vertex_x != fresh.vertex_x || kept->normal_x != fresh.normal_x ||
                          kept->loop_vertex != fresh.loop_vertex || kept->edge_x != fresh.edge_x ||
                          kept->edge_rows != fresh.edge_rows || kept->fan_rows != fresh.fan_rows ||
                          kept->shape != fresh.shape || kept->vertex_count != fresh.vertex_count;
            ++checked;
        }
    }
    CHECKF(mismatches == 0, "%u of %u kept views point elsewhere than fresh ones", mismatches, checked);
    CHECK(checked > 150);
    mf_bank_destroy(bank);
}

// Around every vertex, the fan's faces (fan_face: for each edge of the fan, the face whose loop
// leaves the vertex along it) list every face around the vertex once: what the clip's
// incident-face search relies on.
static void fan_faces_name_each_face_around_a_vertex_once(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(33, 4, 24, &pool), MF_OK);
    uint32_t checked = 0;
    for (uint32_t shape = 0; shape < mf_bank_shape_count(pool.bank); ++shape) {
        mf_hull_view view = mf_bank_view(pool.bank, shape);
        for (uint32_t v = 0; v < view.vertex_count; ++v) {
            const uint16_t *fan = view.fan_edge + view.vertex_fan_first[v];
            uint32_t count = view.vertex_fan_count[v], taken[64], around = 0;
            CHECK(count <= 64);
            for (uint32_t k = 0; k < count && k < 64; ++k) {
                uint32_t e = fan[k];
                taken[k] = view.fan_face[view.vertex_fan_first[v] + k];
                CHECK_EQ(taken[k], view.edge_vertex0[e] == v ? view.edge_face0[e] : view.edge_face1[e]);
                // The face's loop runs from v along the edge.
                const uint16_t *loop = view.loop_vertex + view.face_loop_first[taken[k]];
                uint32_t n = view.face_loop_count[taken[k]],
                         other = view.edge_vertex0[e] == v ? view.edge_vertex1[e] : view.edge_vertex0[e];
                int leaves = 0;
                for (uint32_t i = 0; i < n; ++i) leaves |= loop[i] == v && loop[(i + 1) % n] == other;
                CHECKF(leaves, "shape %u vertex %u edge %u: face %u does not leave the vertex along it", shape, v, e,
                       taken[k]);
                for (uint32_t i = 0; i < k; ++i)
                    CHECKF(taken[i] != taken[k], "shape %u vertex %u: face %u twice", shape, v, taken[k]);
            }
            // Every face whose loop holds v is taken.
            for (uint32_t f = 0; f < view.face_count; ++f) {
                const uint16_t *loop = view.loop_vertex + view.face_loop_first[f];
                int holds = 0;
                for (uint32_t i = 0; i < view.face_loop_count[f]; ++i) holds |= loop[i] == v;
                around += (uint32_t)holds;
            }
            CHECKF(around == count, "shape %u vertex %u: %u faces around it, %u fan edges", shape, v, around, count);
            ++checked;
        }
    }
    CHECK(checked > 100);
    test_pool_free(&pool);
}

static const test_case tests[] = {
    TEST_CASE(fan_faces_name_each_face_around_a_vertex_once),
    TEST_CASE(kept_views_follow_the_arrays_as_they_grow),
    TEST_CASE(view_matches_public_introspection),
    TEST_CASE(views_of_different_shapes_do_not_overlap),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
