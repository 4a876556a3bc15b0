// Unit tests of single stages, away from the whole call: contact reduction (reduce.c), clipping
// (clip.c), in-order placement of finished chunks (placement.c), and the box pass held against
// the general per-pair path on the same box pairs (their feature ids must agree, or a solver's
// warm start would break when a pair moves from one path to the other).
#include "bank.h"
#include "check.h"
#include "clip.h"
#include "dispatch.h"
#include "pair.h"
#include "pair_scratch.h"
#include "pairs.h"
#include "placement.h"
#include "reduce.h"
#include "staging.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static mf_clip_point point_at(float x, float z, float separation)
{
    return (mf_clip_point){.position = {x, 0.0f, z}, .separation = separation};
}

static int chose(const uint32_t *chosen, uint32_t count, uint32_t index)
{
    for (uint32_t k = 0; k < count; ++k)
        if (chosen[k] == index) return 1;
    return 0;
}

static void reduce_keeps_every_point_when_they_fit_deepest_first(void)
{
    mf_clip_point points[3] = {point_at(0, 0, -0.01f), point_at(1, 0, -0.03f), point_at(0, 1, -0.02f)};
    uint32_t chosen[MF_MAX_CONTACTS];
    uint32_t n = mf_reduce(points, 3, (mf_vec3){0, 1, 0}, 4, chosen);
    CHECK_EQ(n, 3);
    CHECK_EQ(chosen[0], 1);
    CHECK(chose(chosen, n, 0) && chose(chosen, n, 2));
    CHECK_EQ(mf_reduce(points, 0, (mf_vec3){0, 1, 0}, 4, chosen), 0);
}

// A 5 x 5 grid, deepest at one corner: the four kept are that corner, the far corner, and the two
// others (the largest triangle, then the most area outside it).
static void reduce_of_a_grid_keeps_its_four_corners(void)
{
    mf_clip_point points[25];
    for (uint32_t i = 0; i < 25; ++i) points[i] = point_at((float)(i % 5), (float)(i / 5), -0.01f);
    points[0].separation = -0.05f;
    uint32_t chosen[MF_MAX_CONTACTS];
    uint32_t n = mf_reduce(points, 25, (mf_vec3){0, 1, 0}, 4, chosen);
    CHECK_EQ(n, 4);
    CHECK_EQ(chosen[0], 0);
    CHECK_EQ(chosen[1], 24);
    CHECK(chose(chosen, n, 4) && chose(chosen, n, 20));
}

// Coincident and collinear points add no area: reduction stops rather than keep duplicates.
static void reduce_stops_at_degenerate_points(void)
{
    mf_clip_point same[6];
    for (uint32_t i = 0; i < 6; ++i) same[i] = point_at(0.5f, 0.5f, -0.01f * (float)(i + 1));
    uint32_t chosen[MF_MAX_CONTACTS];
    uint32_t n = mf_reduce(same, 6, (mf_vec3){0, 1, 0}, 4, chosen);
    CHECK_EQ(n, 1);
    CHECK_EQ(chosen[0], 5);

    mf_clip_point line[6];
    for (uint32_t i = 0; i < 6; ++i) line[i] = point_at((float)i, 0.0f, -0.01f);
    n = mf_reduce(line, 6, (mf_vec3){0, 1, 0}, 4, chosen);
    CHECK_EQ(n, 2); // the deepest (the first of equals) and the farthest from it; no triangle has area
    CHECK_EQ(chosen[0], 0);
    CHECK_EQ(chosen[1], 5);
}

// Up to eight: every chosen point is distinct, and the count never exceeds max_contacts.
static void reduce_chooses_distinct_points_up_to_the_limit(void)
{
    mf_clip_point ring[16];
    for (uint32_t i = 0; i < 16; ++i) {
        float angle = 6.2831853f * (float)i / 16.0f;
        ring[i] = point_at(cosf(angle), sinf(angle), -0.01f - 0.001f * (float)(i % 3));
    }
    for (uint32_t max = 1; max <= MF_MAX_CONTACTS; ++max) {
        uint32_t chosen[MF_MAX_CONTACTS];
        uint32_t n = mf_reduce(ring, 16, (mf_vec3){0, 1, 0}, max, chosen);
        CHECK_EQ(n, max);
        for (uint32_t i = 0; i < n; ++i) {
            CHECK(chosen[i] < 16);
            for (uint32_t k = 0; k < i; ++k) CHECKF(chosen[i] != chosen[k], "max %u: point %u twice", max, chosen[i]);
        }
    }
}

// The frame of a small box resting on a large one, sunk by `depth`, turned about y by `angle`.
typedef struct box_on_box {
    mf_bank *bank;
    uint32_t shape[2];
    mf_transform transform[2];
    mf_bodies bodies;
    mf_pair_scratch *scratch;
    mf_pair_frame frame;
    uint32_t top_face; // a's face of normal +y
} box_on_box;

static int make_box_on_box(float depth, float angle, box_on_box *s)
{
    memset(s, 0, sizeof(*s));
    if (mf_bank_create(&s->bank) != MF_OK) return 0;
    CHECK_EQ(mf_bank_add_box(s->bank, (mf_vec3){2.0f, 0.5f, 2.0f}, &s->shape[0]), MF_OK);
    CHECK_EQ(mf_bank_add_box(s->bank, (mf_vec3){0.5f, 0.5f, 0.5f}, &s->shape[1]), MF_OK);
    s->transform[0] = (mf_transform){{0, 0, 0}, {0, 0, 0, 1}};
    s->transform[1] = (mf_transform){{0.25f, 1.0f - depth, -0.5f}, {0, sinf(0.5f * angle), 0, cosf(0.5f * angle)}};
    s->bodies = (mf_bodies){.shape = s->shape, .transform = s->transform, .count = 2};
    s->scratch = malloc(sizeof(mf_pair_scratch));
    if (s->scratch == NULL) return 0;
    mf_mat3 rotation_a;
    mf_frame_setup(s->bank, &s->bodies, (mf_pair){0, 1}, s->scratch, 0, NULL, &rotation_a, &s->frame);
    s->top_face = UINT32_MAX;
    for (uint32_t f = 0; f < s->frame.a->face_count; ++f)
        if (mf_view_normal(s->frame.a, f).y == 1.0f) s->top_face = f;
    CHECK(s->top_face != UINT32_MAX);
    return s->top_face != UINT32_MAX;
}

static void free_box_on_box(box_on_box *s)
{
    free(s->scratch);
    mf_bank_destroy(s->bank);
}

// The small box's whole bottom face lies on the large box's top: the clip keeps its four corners,
// each at the sunk depth, each a distinct pair of features (a's top face, one of b's corners).
static void clip_of_a_box_on_a_box_keeps_the_four_bottom_corners(void)
{
    for (int turned = 0; turned < 2; ++turned) {
        box_on_box s;
        if (!make_box_on_box(0.01f, turned ? 0.5f : 0.0f, &s)) {
            free_box_on_box(&s);
            continue;
        }
        mf_axis axis = {.kind = MF_AXIS_FACE_A, .separation = -0.01f, .feature_a = s.top_face};
        mf_face_clip clip;
        mf_clip_faces(&s.frame, &axis, 0.02f, &clip);
        CHECK_EQ(clip.count, 4);
        CHECK(clip.reference_normal.x == 0.0f && clip.reference_normal.y == 1.0f && clip.reference_normal.z == 0.0f);
        for (uint32_t i = 0; i < clip.count; ++i) {
            const mf_clip_point *p = &clip.points[i];
            CHECK_NEAR(p->separation, -0.01f, 1e-5f);
            CHECK_NEAR(p->position.y, 0.49f, 1e-5f);
            float dx = p->position.x - 0.25f, dz = p->position.z + 0.5f;
            CHECK_NEAR(sqrtf(dx * dx + dz * dz), sqrtf(0.5f), 1e-5f); // a corner of b's bottom face
            CHECK_EQ(MF_FEATURE_KIND(p->reference_feature), MF_FEATURE_FACE);
            CHECK_EQ(MF_FEATURE_INDEX(p->reference_feature), s.top_face);
            CHECK_EQ(MF_FEATURE_KIND(p->incident_feature), MF_FEATURE_VERTEX);
            for (uint32_t k = 0; k < i; ++k) CHECK(mf_clip_point_id(&clip.points[k], 1) != mf_clip_point_id(p, 1));
        }
        free_box_on_box(&s);
    }
}

// Raised above the reference face by more than the margin, nothing is kept; within it, the four
// corners come back as speculative points with positive separations.
static void clip_keeps_points_below_the_reference_plus_margin_only(void)
{
    box_on_box s;
    if (make_box_on_box(-0.03f, 0.0f, &s)) {
        mf_axis axis = {.kind = MF_AXIS_FACE_A, .separation = 0.03f, .feature_a = s.top_face};
        mf_face_clip clip;
        mf_clip_faces(&s.frame, &axis, 0.02f, &clip);
        CHECK_EQ(clip.count, 0);
        mf_clip_faces(&s.frame, &axis, 0.05f, &clip);
        CHECK_EQ(clip.count, 4);
        for (uint32_t i = 0; i < clip.count; ++i) CHECK_NEAR(clip.points[i].separation, 0.03f, 1e-5f);
    }
    free_box_on_box(&s);
}

// The small box hangs over the large box's corner: its bottom face is cut by two of the large
// box's side planes, and the cut points carry an edge of each box.
static void clip_at_an_overhang_makes_edge_crossings(void)
{
    box_on_box s;
    if (make_box_on_box(0.01f, 0.0f, &s)) {
        s.transform[1].p = (mf_vec3){1.75f, 0.99f, 1.75f};
        mf_mat3 rotation_a;
        mf_frame_setup(s.bank, &s.bodies, (mf_pair){0, 1}, s.scratch, 0, NULL, &rotation_a, &s.frame);
        mf_axis axis = {.kind = MF_AXIS_FACE_A, .separation = -0.01f, .feature_a = s.top_face};
        mf_face_clip clip;
        mf_clip_faces(&s.frame, &axis, 0.02f, &clip);
        CHECK_EQ(clip.count, 4); // the overlap is the square [1.25, 2] x [1.25, 2]
        uint32_t crossings = 0;
        for (uint32_t i = 0; i < clip.count; ++i) {
            const mf_clip_point *p = &clip.points[i];
            CHECK(p->position.x >= 1.25f - 1e-5f && p->position.x <= 2.0f + 1e-5f);
            CHECK(p->position.z >= 1.25f - 1e-5f && p->position.z <= 2.0f + 1e-5f);
            crossings += MF_FEATURE_KIND(p->incident_feature) == MF_FEATURE_EDGE &&
                         MF_FEATURE_KIND(p->reference_feature) == MF_FEATURE_EDGE;
        }
        CHECK_EQ(crossings, 2);
    }
    free_box_on_box(&s);
}

// A chunk of `pairs` results: pair i touches when i % 3 != 2, with i % 4 + 1 contacts that
// encode (chunk, pair, contact) in their ids.
static void fill_chunk(uint32_t chunk, uint32_t pairs, mf_pair_result *results)
{
    for (uint32_t i = 0; i < pairs; ++i) {
        mf_pair_result *r = &results[i];
        memset(r, 0, sizeof(*r));
        r->count = i % 3 == 2 ? 0 : i % 4 + 1;
        r->normal = (mf_vec3){0, 1, 0};
        for (uint32_t k = 0; k < r->count; ++k)
            r->contacts[k] = (mf_contact){{(float)i, (float)k, 0}, -0.01f, chunk << 16 | i << 4 | k};
    }
}

// Chunks that finish out of order are staged and placed in chunk order: the stream is the one the
// chunks would give collided one after another.
static void placement_puts_chunks_in_order_whatever_order_they_finish(void)
{
    enum { chunks = 5, pairs = 7, max_contacts = 4 };
    const uint32_t finish_order[chunks] = {1, 0, 3, 4, 2};
    mf_manifold manifolds[chunks * pairs];
    mf_contact contacts[chunks * pairs * max_contacts];
    mf_stream stream = {.manifolds = manifolds,
                        .manifold_capacity = chunks * pairs,
                        .contacts = contacts,
                        .contact_capacity = chunks * pairs * max_contacts};
    mf_chunk_output *staging = mf_staging_create(MF_STAGED_PER_WORKER * 2, max_contacts);
    CHECK(staging != NULL);
    if (staging == NULL) return;
    atomic_int pending[2][MF_STAGED_PER_WORKER];
    for (int w = 0; w < 2; ++w)
        for (int k = 0; k < MF_STAGED_PER_WORKER; ++k) atomic_init(&pending[w][k], 0);
    mf_finished_chunk finished[2 * (MF_STAGED_PER_WORKER + 1)];
    mf_placement placement;
    mf_placement_begin(&placement, finished, 2 * (MF_STAGED_PER_WORKER + 1), 0);
    mf_pair_result results[pairs];
    for (uint32_t step = 0; step < chunks; ++step) {
        uint32_t chunk = finish_order[step], worker = step % 2;
        fill_chunk(chunk, pairs, results);
        mf_placement_finish(&placement, chunk, results, chunk * pairs, pairs, staging + worker * MF_STAGED_PER_WORKER,
                            pending[worker], &stream);
    }
    CHECK_EQ(placement.frontier, chunks);
    // The expected stream, built directly.
    uint32_t m = 0, c = 0;
    for (uint32_t chunk = 0; chunk < chunks; ++chunk) {
        fill_chunk(chunk, pairs, results);
        for (uint32_t i = 0; i < pairs; ++i) {
            if (results[i].count == 0) continue;
            CHECK(m < placement.manifold_count);
            if (m >= placement.manifold_count) break;
            CHECK_EQ(manifolds[m].pair, chunk * pairs + i);
            CHECK_EQ(manifolds[m].first, c);
            CHECK_EQ(manifolds[m].count, results[i].count);
            for (uint32_t k = 0; k < results[i].count; ++k) CHECK_EQ(contacts[c + k].id, results[i].contacts[k].id);
            c += results[i].count;
            ++m;
        }
    }
    CHECK_EQ(placement.manifold_count, m);
    CHECK_EQ(placement.contact_count, c);
    for (int w = 0; w < 2; ++w)
        for (int k = 0; k < MF_STAGED_PER_WORKER; ++k) CHECK_EQ(atomic_load(&pending[w][k]), 0);
    mf_staging_destroy(staging);
}

static int same_id_sets(const mf_contact *a, uint32_t a_count, const mf_contact *b, uint32_t b_count)
{
    if (a_count != b_count) return 0;
    for (uint32_t i = 0; i < a_count; ++i) {
        int found = 0;
        for (uint32_t k = 0; k < b_count; ++k) found |= a[i].id == b[k].id;
        if (!found) return 0;
    }
    return 1;
}

// Box pairs through the box pass (mf_collide) and through the general per-pair path
// (mf_collide_pair on the same box shapes): the same manifolds, ids included. Where the two best
// axes lie within float noise of each other (a face of b resting flat on a face of a: half the
// pairs here), either path may take either face as the reference, and reduction may keep other
// points of equal score: there the normals must agree, not the ids.
static void box_pass_and_general_path_give_the_same_ids(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(77, 40, 0, &pool), MF_OK);
    mf_config config = mf_config_default();
    config.isa = MF_ISA_SCALAR;
    config.threads = 1;
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(&config, &context), MF_OK);
    mf_wide_kernel kernel = *mf_dispatch(MF_ISA_SCALAR);
    mf_pair_scratch *scratch = malloc(sizeof(mf_pair_scratch));
    CHECK(scratch != NULL);
    uint32_t pairs = test_scaled(4000) < 400 ? 400 : test_scaled(4000), compared = 0, touching = 0, tied = 0;
    for (uint32_t index = 0; scratch != NULL && context != NULL && index < pairs; ++index) {
        uint32_t shape[2];
        mf_transform transform[2];
        test_make_pair(&pool, TEST_PAIRS_BOX, 5151, index, config.margin, shape, transform);
        mf_bodies bodies = {.shape = shape, .transform = transform, .count = 2};
        mf_pair pair = {0, 1};
        mf_manifold manifold;
        mf_contact contacts[MF_MAX_CONTACTS];
        mf_stream stream = {
            .manifolds = &manifold, .manifold_capacity = 1, .contacts = contacts, .contact_capacity = MF_MAX_CONTACTS};
        CHECK_EQ(mf_collide(context, pool.bank, &bodies, &pair, 1, &stream), MF_OK);

        mf_pair_result result;
        memset(&result, 0, sizeof(result));
        mf_axis_candidates candidates;
        mf_axis used;
        mf_collide_pair(&config, &kernel, scratch, pool.bank, &bodies, pair, NULL, NULL, &result, &candidates, &used);
        mf_axis ranked[3];
        uint32_t axes = mf_rank_axes(&candidates, config.linear_slop, ranked);
        float noise = 1e-4f * candidates.scale;
        if (fabsf(mf_best_separation(&candidates) - config.margin) < noise) continue; // presence is a coin toss
        ++compared;
        CHECKF(stream.manifold_count == (result.count > 0), "pair %u: box pass %u manifolds, general path %u contacts",
               index, stream.manifold_count, result.count);
        if (stream.manifold_count != 1 || result.count == 0) continue;
        ++touching;
        CHECKF(fabsf(mf_dot(manifold.normal, result.normal) - 1.0f) < 1e-5f,
               "pair %u: normals (%g %g %g) and (%g %g %g)", index, manifold.normal.x, manifold.normal.y,
               manifold.normal.z, result.normal.x, result.normal.y, result.normal.z);
        if (axes > 1 && fabsf(ranked[1].separation - ranked[0].separation) < noise) {
            ++tied;
            continue;
        }
        CHECKF(same_id_sets(contacts, manifold.count, result.contacts, result.count),
               "pair %u: the box pass and the general path name different features (first ids %x and %x)", index,
               contacts[0].id, result.contacts[0].id);
    }
    CHECKF(compared > pairs * 3 / 4 && touching - tied > compared / 8, "compared %u of %u pairs, %u touching, %u tied",
           compared, pairs, touching, tied);
    free(scratch);
    mf_context_destroy(context);
    test_pool_free(&pool);
}

static const test_case tests[] = {
    TEST_CASE(reduce_keeps_every_point_when_they_fit_deepest_first),
    TEST_CASE(reduce_of_a_grid_keeps_its_four_corners),
    TEST_CASE(reduce_stops_at_degenerate_points),
    TEST_CASE(reduce_chooses_distinct_points_up_to_the_limit),
    TEST_CASE(clip_of_a_box_on_a_box_keeps_the_four_bottom_corners),
    TEST_CASE(clip_keeps_points_below_the_reference_plus_margin_only),
    TEST_CASE(clip_at_an_overhang_makes_edge_crossings),
    TEST_CASE(placement_puts_chunks_in_order_whatever_order_they_finish),
    TEST_CASE(box_pass_and_general_path_give_the_same_ids),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
