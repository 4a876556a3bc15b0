// Worker threads: the output is byte-identical whatever the thread count, capacity errors stop
// at the same exact pair, and a context reports the threads it runs.
#include "check.h"
#include "scene.h"

typedef struct run {
    mf_status status;
    mf_stream stream;
} run;

static run collide(const scene *s, uint32_t threads, mf_isa isa, uint32_t manifold_capacity)
{
    mf_config config = mf_config_default();
    config.threads = threads;
    config.isa = isa;
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(&config, &context), MF_OK);
    // A build without worker threads (meson -Dthreads=false) runs every context on one thread.
    if (threads != 0) CHECK_EQ(mf_context_threads(context), MF_TEST_THREADS_BUILT ? threads : 1);
    uint32_t manifolds, contacts;
    mf_stream_bound(s->pair_count, config.max_contacts, &manifolds, &contacts);
    if (manifold_capacity < manifolds) manifolds = manifold_capacity;
    run r = {MF_OK, {calloc(manifolds + 1, sizeof(mf_manifold)), manifolds, 0,
                     calloc(contacts + 1, sizeof(mf_contact)), contacts, 0, 0}};
    mf_bodies bodies = {s->body_shape, s->body_transform, s->body_count};
    r.status = mf_collide(context, s->bank, &bodies, s->pairs, s->pair_count, &r.stream);
    mf_context_destroy(context);
    return r;
}

static int same(const run *x, const run *y)
{
    return x->status == y->status && x->stream.pairs_done == y->stream.pairs_done &&
           x->stream.manifold_count == y->stream.manifold_count && x->stream.contact_count == y->stream.contact_count &&
           memcmp(x->stream.manifolds, y->stream.manifolds, x->stream.manifold_count * sizeof(mf_manifold)) == 0 &&
           memcmp(x->stream.contacts, y->stream.contacts, x->stream.contact_count * sizeof(mf_contact)) == 0;
}

static void release(run *r)
{
    free(r->stream.manifolds);
    free(r->stream.contacts);
}

static void output_is_identical_for_any_thread_count(void)
{
    static const char *const scenes[] = {"box_box", "hull16", "nearmiss"};
    for (unsigned k = 0; k < 3; ++k) {
        scene s;
        CHECK_EQ(scene_make(scenes[k], 20000, 7, &s), MF_OK);
        run one = collide(&s, 1, MF_ISA_AUTO, UINT32_MAX);
        CHECK_EQ(one.status, MF_OK);
        for (uint32_t threads = 2; threads <= 5; ++threads) {
            run many = collide(&s, threads, MF_ISA_AUTO, UINT32_MAX);
            CHECKF(same(&one, &many), "%s: %u threads differ from one (seed 7)", scenes[k], threads);
            release(&many);
        }
        run scalar = collide(&s, 3, MF_ISA_SCALAR, UINT32_MAX);
        CHECKF(same(&one, &scalar), "%s: scalar on 3 threads differs from auto on one (seed 7)", scenes[k]);
        release(&scalar);
        release(&one);
        scene_free(&s);
    }
}

static void capacity_stops_at_the_same_pair_with_threads(void)
{
    scene s;
    CHECK_EQ(scene_make("box_box", 20000, 11, &s), MF_OK);
    uint32_t capacities[] = {1, 700, 5000, 12345};
    for (unsigned k = 0; k < 4; ++k) {
        run one = collide(&s, 1, MF_ISA_AUTO, capacities[k]);
        run many = collide(&s, 4, MF_ISA_AUTO, capacities[k]);
        CHECK_EQ(one.status, MF_ERR_CAPACITY);
        CHECKF(same(&one, &many), "capacity %u: 4 threads stop elsewhere than one (seed 11)", capacities[k]);
        CHECK_EQ(one.stream.manifold_count, capacities[k]);
        release(&one);
        release(&many);
    }
    scene_free(&s);
}

static void zero_threads_means_every_core(void)
{
    mf_config config = mf_config_default();
    config.threads = 0;
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(&config, &context), MF_OK);
    CHECK(mf_context_threads(context) >= 1);
    mf_context_destroy(context);
    CHECK_EQ(mf_context_threads(NULL), 0);
}

static const test_case tests[] = {
    TEST_CASE(output_is_identical_for_any_thread_count),
    TEST_CASE(capacity_stops_at_the_same_pair_with_threads),
    TEST_CASE(zero_threads_means_every_core),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
