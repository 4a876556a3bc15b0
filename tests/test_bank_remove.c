// mf_bank_remove_shape: a removed id is refused everywhere until an add reuses it (the lowest free
// id first), its storage is given back at once (the arrays close the gap, the next add of its size
// grows nothing), the other shapes keep their ids, geometry and answers byte for byte, and cache
// entries that named the removed shape are not taken for the shape that reuses its id. Reads the
// bank's arrays (kernel/src/bank.h) for the storage claims.
#include "bank.h"
#include "check.h"
#include "harness.h"
#include "pairs.h"
#include "pool.h"

#include <math.h>

// A shape's whole geometry as the public readers give it, in one block of memory to compare.
typedef struct geometry {
    mf_vec3 vertices[MF_MAX_HULL_VERTICES];
    mf_vec3 normals[MF_MAX_HULL_FACES];
    float offsets[MF_MAX_HULL_FACES];
    uint32_t first[MF_MAX_HULL_FACES], size[MF_MAX_HULL_FACES];
    uint32_t loops[2 * (MF_MAX_HULL_VERTICES + MF_MAX_HULL_FACES)];
    mf_edge_info edges[MF_MAX_HULL_VERTICES + MF_MAX_HULL_FACES];
    mf_shape_info info;
    mf_mass mass;
    uint32_t counts[4];
} geometry;

static mf_status read_geometry(const mf_bank *bank, uint32_t shape, geometry *g)
{
    memset(g, 0, sizeof(*g));
    mf_shape_geometry view = {.vertices = g->vertices,
                              .vertex_capacity = MF_MAX_HULL_VERTICES,
                              .face_normals = g->normals,
                              .face_offsets = g->offsets,
                              .face_first = g->first,
                              .face_size = g->size,
                              .face_capacity = MF_MAX_HULL_FACES,
                              .loop_vertices = g->loops,
                              .loop_capacity = 2 * (MF_MAX_HULL_VERTICES + MF_MAX_HULL_FACES),
                              .edges = g->edges,
                              .edge_capacity = MF_MAX_HULL_VERTICES + MF_MAX_HULL_FACES};
    mf_status status = mf_bank_shape_geometry(bank, shape, &view);
    if (status != MF_OK) return status;
    g->counts[0] = view.vertex_count, g->counts[1] = view.face_count, g->counts[2] = view.loop_count;
    g->counts[3] = view.edge_count;
    status = mf_bank_shape_info(bank, shape, &g->info);
    if (status != MF_OK) return status;
    return mf_bank_shape_mass(bank, shape, 1.0f, &g->mass);
}

// ---- refused ----

// Every reader, mass, collide (cached or not, STOP and SKIP) and the broad phase refuse a removed
// id, with messages that say it was removed; so does removing it again.
static void removed_id_is_refused_everywhere(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(51, 4, 4, &pool), MF_OK);
    const uint32_t gone = 2;
    CHECK_EQ(mf_bank_remove_shape(pool.bank, gone), MF_OK);
    CHECK_EQ(mf_bank_message(pool.bank)[0], '\0');
    mf_shape_info info;
    mf_vec3 vertices[8], normal;
    uint32_t loop[8], count;
    float offset;
    mf_edge_info edge;
    mf_shape_geometry sizes = {0};
    mf_mass mass;
    CHECK_EQ(mf_bank_shape_info(pool.bank, gone, &info), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_vertices(pool.bank, gone, vertices, 8), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_face(pool.bank, gone, 0, &normal, &offset, loop, 8, &count), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_edge(pool.bank, gone, 0, &edge), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_geometry(pool.bank, gone, &sizes), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_mass(pool.bank, gone, 1.0f, &mass), MF_ERR_INVALID_ARGUMENT);
    // The ids around it stay.
    CHECK_EQ(mf_bank_shape_count(pool.bank), 8);
    CHECK_EQ(mf_bank_shape_info(pool.bank, gone - 1, &info), MF_OK);
    CHECK_EQ(mf_bank_shape_info(pool.bank, gone + 1, &info), MF_OK);

    uint32_t shapes[4] = {0, gone, 5, 1};
    mf_transform poses[4];
    for (int i = 0; i < 4; ++i) poses[i] = (mf_transform){{0.3f * (float)i, 0, 0}, {0, 0, 0, 1}};
    mf_bodies bodies = {.shape = shapes, .transform = poses, .count = 4};
    const mf_pair pairs[3] = {{0, 2}, {1, 2}, {0, 3}};
    mf_pair_cache cache[3] = {{0}};
    mf_stream out = test_stream_make(3, MF_MAX_CONTACTS);
    for (int cached = 0; cached < 2; ++cached) {
        mf_context *stop = test_context_with(MF_ISA_AUTO, MF_FAULT_STOP),
                   *skip = test_context_with(MF_ISA_AUTO, MF_FAULT_SKIP);
        CHECK_EQ(cached ? mf_collide_cached(stop, pool.bank, &bodies, pairs, 3, cache, &out)
                        : mf_collide(stop, pool.bank, &bodies, pairs, 3, &out),
                 MF_ERR_INVALID_ARGUMENT);
        CHECKF(strstr(mf_context_message(stop), "body 1 has shape 2, which was removed") != NULL, "message \"%s\"",
               mf_context_message(stop));
        CHECK_EQ(cached ? mf_collide_cached(skip, pool.bank, &bodies, pairs, 3, cache, &out)
                        : mf_collide(skip, pool.bank, &bodies, pairs, 3, &out),
                 MF_OK);
        CHECK_EQ(out.fault_count, 1);
        CHECK_EQ(out.faults[0].pair, 1);
        CHECK_EQ(out.faults[0].status, MF_ERR_INVALID_ARGUMENT);
        mf_pair found[8];
        uint32_t found_count = 7;
        CHECK_EQ(mf_find_pairs(stop, pool.bank, &bodies, 0.1f, found, 8, &found_count), MF_ERR_INVALID_ARGUMENT);
        CHECK_EQ(found_count, 0);
        CHECKF(strstr(mf_context_message(stop), "which was removed") != NULL, "message \"%s\"",
               mf_context_message(stop));
        mf_context_destroy(stop);
        mf_context_destroy(skip);
    }
    CHECK_EQ(mf_bank_remove_shape(pool.bank, gone), MF_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(mf_bank_message(pool.bank), "removed already") != NULL, "message \"%s\"", mf_bank_message(pool.bank));
    test_stream_free(&out);
    test_pool_free(&pool);
}

// Ids out of range, removed ones and a NULL bank are refused, each with its message; the bank is
// unchanged.
static void removing_a_bad_id_is_refused(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    CHECK_EQ(mf_bank_remove_shape(NULL, 0), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_remove_shape(bank, 0), MF_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(mf_bank_message(bank), "shape 0 is not in the bank") != NULL, "message \"%s\"",
           mf_bank_message(bank));
    uint32_t a, b;
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1, 1, 1}, &a), MF_OK);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1, 2, 1}, &b), MF_OK);
    CHECK_EQ(mf_bank_remove_shape(bank, 2), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_remove_shape(bank, UINT32_MAX), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_remove_shape(bank, a), MF_OK);
    CHECK_EQ(mf_bank_remove_shape(bank, a), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_count(bank), 2);
    mf_shape_info info;
    CHECK_EQ(mf_bank_shape_info(bank, b, &info), MF_OK);
    CHECK_EQ(info.vertex_count, 8);
    // The last shape gone, the ids end: removing the highest trims the count.
    CHECK_EQ(mf_bank_remove_shape(bank, b), MF_OK);
    CHECK_EQ(mf_bank_shape_count(bank), 0);
    CHECK_EQ(bank->vertex_count, 0);
    CHECK_EQ(bank->row_count, 0);
    mf_bank_destroy(bank);
}

// ---- ids and storage ----

static void next_add_reuses_the_lowest_free_id(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t id;
    for (uint32_t k = 0; k < 6; ++k) {
        CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1, 1, 0.5f + (float)k}, &id), MF_OK);
        CHECK_EQ(id, k);
    }
    CHECK_EQ(mf_bank_remove_shape(bank, 3), MF_OK);
    CHECK_EQ(mf_bank_remove_shape(bank, 1), MF_OK);
    CHECK_EQ(mf_bank_shape_count(bank), 6);
    mf_vec3 points[12];
    test_sphere_lattice(12, 0.5, points);
    CHECK_EQ(mf_bank_add_hull(bank, points, 12, &id), MF_OK);
    CHECK_EQ(id, 1);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){2, 2, 2}, &id), MF_OK);
    CHECK_EQ(id, 3);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){2, 2, 2}, &id), MF_OK);
    CHECK_EQ(id, 6);
    // The reused ids name the new shapes.
    mf_shape_info info;
    CHECK_EQ(mf_bank_shape_info(bank, 1, &info), MF_OK);
    CHECK_EQ(info.input_points, 12);
    CHECK_EQ(mf_bank_shape_info(bank, 3, &info), MF_OK);
    CHECK_NEAR(info.volume, 64.0, 1e-4);
    // A failed add takes no id.
    CHECK_EQ(mf_bank_remove_shape(bank, 4), MF_OK);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0, 1, 1}, &id), MF_ERR_DEGENERATE_HULL);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1, 1, 1}, &id), MF_OK);
    CHECK_EQ(id, 4);
    mf_bank_destroy(bank);
}

// Whether every array of the bank holds zeros from its used count to its capacity and pad, as a
// bank that never held more has (bank.c: a register read past a shape's end reads no garbage).
static int tails_are_zero(const mf_bank *b)
{
    const struct {
        const void *array;
        size_t size;
        uint32_t used, capacity;
    } arrays[] = {{b->vertex_x, 4, b->vertex_count, b->vertex_capacity},
                  {b->vertex_fan_count, 2, b->vertex_count, b->vertex_capacity},
                  {b->offset, 4, b->face_count, b->face_capacity},
                  {b->face_loop_count, 2, b->face_count, b->face_capacity},
                  {b->loop_vertex, 2, b->loop_count, b->loop_capacity},
                  {b->fan_twin, 2, b->loop_count, b->loop_capacity},
                  {b->fan_face, 2, b->loop_count, b->loop_capacity},
                  {b->edge_x, 4, b->edge_count, b->edge_capacity},
                  {b->edge_face1, 2, b->edge_count, b->edge_capacity},
                  {b->rows, 4, b->row_count, b->row_capacity}};
    for (size_t k = 0; k < sizeof(arrays) / sizeof(arrays[0]); ++k) {
        const unsigned char *bytes = arrays[k].array;
        for (size_t i = arrays[k].used * arrays[k].size; i < (arrays[k].capacity + MF_BANK_PAD) * arrays[k].size; ++i)
            if (bytes[i] != 0) return 0;
    }
    return 1;
}

// A removal shrinks every array's used count by exactly the shape's share and zeroes what it freed;
// adding a shape of the same size again takes the same room, and no capacity grows, however many
// times over.
static void removal_gives_the_storage_back(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(52, 8, 24, &pool), MF_OK);
    mf_bank *b = pool.bank;
    const uint32_t capacity[6] = {b->shape_capacity, b->vertex_capacity, b->face_capacity,
                                  b->loop_capacity,  b->edge_capacity,   b->row_capacity};
    const uint32_t used[5] = {b->vertex_count, b->face_count, b->loop_count, b->edge_count, b->row_count};
    for (uint32_t round = 0; round < 40; ++round) {
        uint32_t shape = (round * 7 + 3) % mf_bank_shape_count(b);
        mf_shape removed = b->shapes[shape];
        mf_vec3 vertices[MF_MAX_HULL_VERTICES];
        CHECK_EQ(mf_bank_shape_vertices(b, shape, vertices, MF_MAX_HULL_VERTICES), MF_OK);
        CHECK_EQ(mf_bank_remove_shape(b, shape), MF_OK);
        CHECK_EQ(b->vertex_count, used[0] - removed.vertex_count);
        CHECK_EQ(b->face_count, used[1] - removed.face_count);
        CHECK_EQ(b->loop_count, used[2] - removed.loop_count);
        CHECK_EQ(b->edge_count, used[3] - removed.edge_count);
        CHECK_EQ(b->row_count, used[4] - removed.block_rows);
        CHECKF(tails_are_zero(b), "round %u: the freed storage is not zeroed", round);
        // The same shape again, from its own vertices: it takes the freed id and the freed room.
        uint32_t again;
        if (removed.box) CHECK_EQ(mf_bank_add_box(b, removed.half_extents, &again), MF_OK);
        else CHECK_EQ(mf_bank_add_hull(b, vertices, removed.vertex_count, &again), MF_OK);
        CHECK_EQ(again, shape);
        CHECK_EQ(b->vertex_count, used[0]);
        CHECK_EQ(b->row_count, used[4]);
    }
    const uint32_t after[6] = {b->shape_capacity, b->vertex_capacity, b->face_capacity,
                               b->loop_capacity,  b->edge_capacity,   b->row_capacity};
    CHECKF(memcmp(capacity, after, sizeof(after)) == 0, "the bank grew: %u vertices %u rows, was %u and %u", after[1],
           after[5], capacity[1], capacity[5]);
    test_pool_free(&pool);
}

// After removals in a scattered order (and adds that reuse ids), every other shape reads as it did,
// its kept view equals a fresh one and its ranges still sit back to back with nothing between.
static void other_shapes_keep_their_geometry(void)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(53, 12, 36, &pool), MF_OK);
    uint32_t n = mf_bank_shape_count(pool.bank);
    geometry *before = malloc(n * sizeof(geometry)), *now = malloc(sizeof(geometry));
    for (uint32_t s = 0; s < n; ++s) CHECK_EQ(read_geometry(pool.bank, s, &before[s]), MF_OK);
    uint8_t *removed = calloc(n, 1);
    test_random random = test_random_seed(53, 1);
    for (uint32_t k = 0; k < n / 2; ++k) {
        uint32_t s = test_random_int(&random, 0, n - 1);
        mf_status status = mf_bank_remove_shape(pool.bank, s);
        CHECK_EQ(status, removed[s] ? MF_ERR_INVALID_ARGUMENT : MF_OK);
        removed[s] = 1;
        if (k % 5 == 4) { // an add in between takes the lowest free id
            uint32_t id, lowest = 0;
            while (!removed[lowest]) ++lowest;
            CHECK_EQ(mf_bank_add_box(pool.bank, (mf_vec3){0.3f, 0.2f, 0.1f}, &id), MF_OK);
            CHECK_EQ(id, lowest);
            CHECK_EQ(read_geometry(pool.bank, id, &before[id]), MF_OK);
            removed[id] = 0;
        }
    }
    uint32_t live = 0, vertices = 0;
    for (uint32_t s = 0; s < n; ++s) {
        if (removed[s]) {
            CHECK(!mf_bank_has_shape(pool.bank, s));
            continue;
        }
        ++live;
        CHECK_EQ(read_geometry(pool.bank, s, now), MF_OK);
        CHECKF(memcmp(now, &before[s], sizeof(geometry)) == 0, "shape %u reads otherwise after the removals", s);
        mf_hull_view fresh = mf_bank_view(pool.bank, s);
        const mf_hull_view *kept = mf_bank_hull(pool.bank, s);
        CHECKF(kept->vertex_x == fresh.vertex_x && kept->normal_x == fresh.normal_x &&
                   kept->loop_vertex == fresh.loop_vertex && kept->edge_x == fresh.edge_x &&
                   kept->edge_rows == fresh.edge_rows && kept->edge_records == fresh.edge_records &&
                   kept->fan_rows == fresh.fan_rows && kept->shape == fresh.shape &&
                   kept->vertex_count == fresh.vertex_count,
               "shape %u: its kept view points elsewhere than a fresh one", s);
        vertices += fresh.vertex_count;
    }
    CHECK_EQ(pool.bank->vertex_count, vertices);
    CHECK(live > n / 3);
    free(removed);
    free(before);
    free(now);
    test_pool_free(&pool);
}

// ---- answers ----

// Random pairs among the shapes that stay, collided before and after a third of the pool is
// removed (and after new shapes take the freed ids): the same bytes on every ISA, every one of
// them holding against the brute force.
static void remaining_shapes_collide_as_before(void)
{
    const uint64_t seed = 54;
    test_pool pool;
    CHECK_EQ(test_pool_make(seed, 16, 48, &pool), MF_OK);
    uint32_t n = mf_bank_shape_count(pool.bank);
    uint8_t *goes = calloc(n, 1);
    for (uint32_t s = 0; s < n; ++s) goes[s] = s % 3 == 1;
    enum { PAIRS = 3000 };
    uint32_t *shapes = malloc(2 * PAIRS * sizeof(uint32_t));
    mf_transform *poses = malloc(2 * PAIRS * sizeof(mf_transform));
    mf_pair *pairs = malloc(PAIRS * sizeof(mf_pair));
    uint32_t count = 0;
    for (uint32_t i = 0; count < PAIRS; ++i) {
        test_category kind = i % 3 == 0 ? TEST_PAIRS_BOX : i % 3 == 1 ? TEST_PAIRS_HULL : TEST_PAIRS_MIXED;
        test_make_pair(&pool, kind, seed, i, mf_config_default().margin, shapes + 2 * count, poses + 2 * count);
        if (goes[shapes[2 * count]] || goes[shapes[2 * count + 1]]) continue;
        pairs[count] = (mf_pair){2 * count, 2 * count + 1};
        ++count;
    }
    mf_bodies bodies = {.shape = shapes, .transform = poses, .count = 2 * count};
    mf_stream before[TEST_ISA_COUNT], after = test_stream_make(count, MF_MAX_CONTACTS);
    for (unsigned i = 0; i < TEST_ISA_COUNT; ++i) {
        if (!mf_isa_supported(test_isas[i])) continue;
        before[i] = test_stream_make(count, MF_MAX_CONTACTS);
        mf_context *context = test_context_with(test_isas[i], MF_FAULT_STOP);
        CHECK_EQ(mf_collide(context, pool.bank, &bodies, pairs, count, &before[i]), MF_OK);
        mf_context_destroy(context);
    }
    for (uint32_t s = 0; s < n; ++s)
        if (goes[s]) CHECK_EQ(mf_bank_remove_shape(pool.bank, s), MF_OK);
    for (int round = 0; round < 2; ++round) {
        for (unsigned i = 0; i < TEST_ISA_COUNT; ++i) {
            if (!mf_isa_supported(test_isas[i])) continue;
            mf_context *context = test_context_with(test_isas[i], MF_FAULT_STOP);
            CHECK_EQ(mf_collide(context, pool.bank, &bodies, pairs, count, &after), MF_OK);
            CHECKF(test_same_stream(&before[i], &after), "%s: the output changed after the removals (%s)",
                   mf_isa_name(test_isas[i]), round == 0 ? "removed" : "ids reused");
            mf_context_destroy(context);
        }
        // New shapes in the freed ids, a few hulls and boxes.
        for (uint32_t s = 0; round == 0 && s < n; ++s) {
            if (!goes[s]) continue;
            uint32_t id;
            mf_vec3 points[20];
            test_sphere_lattice(20, 0.4 + 0.01 * s, points);
            CHECK_EQ(s % 2 ? mf_bank_add_hull(pool.bank, points, 20, &id)
                           : mf_bank_add_box(pool.bank, (mf_vec3){0.2f, 0.3f, 0.4f}, &id),
                     MF_OK);
            CHECK_EQ(id, s);
        }
    }
    // And against the brute force.
    ref_pair *reference = ref_pair_create();
    ref_stats stats = {0};
    mf_config config = mf_config_default();
    uint32_t m = 0, failed = 0;
    for (uint32_t p = 0; p < count; ++p) {
        const mf_manifold *manifold = NULL;
        if (m < after.manifold_count && after.manifolds[m].pair == p) manifold = &after.manifolds[m++];
        ref_pair_set(reference, &pool.reference[shapes[2 * p]], poses[2 * p], &pool.reference[shapes[2 * p + 1]],
                     poses[2 * p + 1]);
        char why[512];
        int violations =
            ref_check_pair(reference, &config, manifold, manifold != NULL ? after.contacts + manifold->first : NULL,
                           &stats, why, sizeof(why));
        if (violations != 0 && failed++ < 5) CHECKF(0, "pair %u (seed %llu): %s", p, (unsigned long long)seed, why);
    }
    ref_stats_print("after removals", &stats);
    CHECK(stats.touching > count / 4);
    ref_pair_destroy(reference);
    for (unsigned i = 0; i < TEST_ISA_COUNT; ++i)
        if (mf_isa_supported(test_isas[i])) test_stream_free(&before[i]);
    test_stream_free(&after);
    free(goes);
    free(shapes);
    free(poses);
    free(pairs);
    test_pool_free(&pool);
}

// A crate cached at rest until its manifold is reused; then its shape is removed and a taller box
// takes the id. The entry names the same id but not the same shape: the pair is searched afresh
// and gets exactly mf_collide's answer, the new box's.
static void cache_entries_forget_a_removed_shape(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t shapes[2];
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){5, 5, 0.5f}, &shapes[0]), MF_OK);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0.5f, 0.4f, 0.3f}, &shapes[1]), MF_OK);
    mf_transform poses[2] = {{{0, 0, -0.5f}, {0, 0, 0, 1}}, {{0.2f, -0.1f, 0.299f}, {0, 0, 0, 1}}};
    mf_bodies bodies = {.shape = shapes, .transform = poses, .count = 2};
    mf_pair pair = {0, 1};
    mf_pair_cache cache = {0};
    mf_stream cached = test_stream_make(1, MF_MAX_CONTACTS), plain = test_stream_make(1, MF_MAX_CONTACTS);
    for (unsigned i = 0; i < TEST_ISA_COUNT; ++i) {
        if (!mf_isa_supported(test_isas[i])) continue;
        mf_context *context = test_context_with(test_isas[i], MF_FAULT_STOP);
        cache = (mf_pair_cache){0};
        for (int step = 0; step < 3; ++step)
            CHECK_EQ(mf_collide_cached(context, bank, &bodies, &pair, 1, &cache, &cached), MF_OK);
        CHECK_EQ(cache.route, MF_ROUTE_REUSED);
        CHECK_EQ(cache.serial_b, bank->shapes[shapes[1]].serial);
        uint32_t id;
        CHECK_EQ(mf_bank_remove_shape(bank, shapes[1]), MF_OK);
        CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0.5f, 0.4f, 0.35f}, &id), MF_OK);
        CHECK_EQ(id, shapes[1]);
        CHECK_EQ(mf_collide(context, bank, &bodies, &pair, 1, &plain), MF_OK);
        CHECK_EQ(mf_collide_cached(context, bank, &bodies, &pair, 1, &cache, &cached), MF_OK);
        CHECKF(cache.route == MF_ROUTE_SEARCHED, "%s: route %u, not a search", mf_isa_name(test_isas[i]), cache.route);
        CHECK(test_same_stream(&plain, &cached));
        // The taller box sinks 0.051 into the ground.
        for (uint32_t c = 0; c < cached.contact_count; ++c) CHECK_NEAR(cached.contacts[c].separation, -0.051, 1e-5);
        // Back to the crate for the next ISA.
        CHECK_EQ(mf_bank_remove_shape(bank, id), MF_OK);
        CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0.5f, 0.4f, 0.3f}, &id), MF_OK);
        mf_context_destroy(context);
    }
    test_stream_free(&cached);
    test_stream_free(&plain);
    mf_bank_destroy(bank);
}

static const test_case tests[] = {
    TEST_CASE(removed_id_is_refused_everywhere),     TEST_CASE(removing_a_bad_id_is_refused),
    TEST_CASE(next_add_reuses_the_lowest_free_id),   TEST_CASE(removal_gives_the_storage_back),
    TEST_CASE(other_shapes_keep_their_geometry),     TEST_CASE(remaining_shapes_collide_as_before),
    TEST_CASE(cache_entries_forget_a_removed_shape),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
