// Worker threads: the output is byte-identical whatever the thread count, capacity errors stop
// at the same exact pair, a context reports the threads it runs, and no worker is pinned to the
// calling thread's core.
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE // pthread_setaffinity_np, sched_getaffinity of another thread
#endif
#include "check.h"
#include "harness.h"
#include "scene.h"

#include <math.h>

#if defined(__linux__)
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

typedef struct run {
    mf_status status;
    mf_stream stream;
} run;

// cache: NULL, or one entry per pair for mf_collide_cached. contact_capacity limits the
// contacts the way manifold_capacity limits the manifolds.
static run collide_into(const scene *s, uint32_t threads, mf_isa isa, uint32_t manifold_capacity,
                        uint32_t contact_capacity, mf_pair_cache *cache)
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
    if (contact_capacity < contacts) contacts = contact_capacity;
    run r = {MF_OK,
             {calloc(manifolds + 1, sizeof(mf_manifold)), manifolds, 0, calloc(contacts + 1, sizeof(mf_contact)),
              contacts, 0, 0, NULL, 0, 0}};
    mf_bodies bodies = {.shape = s->body_shape, .transform = s->body_transform, .count = s->body_count};
    if (cache != NULL)
        r.status = mf_collide_cached(context, s->bank, &bodies, s->pairs, s->pair_count, cache, &r.stream);
    else r.status = mf_collide(context, s->bank, &bodies, s->pairs, s->pair_count, &r.stream);
    mf_context_destroy(context);
    return r;
}

static run collide(const scene *s, uint32_t threads, mf_isa isa, uint32_t manifold_capacity)
{
    return collide_into(s, threads, isa, manifold_capacity, UINT32_MAX, NULL);
}

static int same(const run *x, const run *y)
{
    return x->status == y->status && test_same_stream(&x->stream, &y->stream);
}

static void release(run *r) { test_stream_free(&r->stream); }

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

static void contact_capacity_stops_at_the_same_pair_with_threads(void)
{
    scene s;
    CHECK_EQ(scene_make("crowd", 30000, 13, &s), MF_OK);
    uint32_t capacities[] = {3, 999, 17777};
    for (unsigned k = 0; k < 3; ++k) {
        run one = collide_into(&s, 1, MF_ISA_AUTO, UINT32_MAX, capacities[k], NULL);
        run many = collide_into(&s, 3, MF_ISA_AUTO, UINT32_MAX, capacities[k], NULL);
        CHECK_EQ(one.status, MF_ERR_CAPACITY);
        CHECKF(same(&one, &many), "contact capacity %u: 3 threads stop elsewhere than one (seed 13)", capacities[k]);
        CHECK(one.stream.contact_count <= capacities[k]);
        CHECK(one.stream.pairs_done < s.pair_count);
        release(&one);
        release(&many);
    }
    scene_free(&s);
}

// The cache entries a call commits (those of pairs [0, pairs_done)) do not depend on the threads
// either, also when the stream fills up halfway. (An apart pair's entry holds whichever axis its
// bundle found separating by the margin, so only the entries of pairs within the margin are
// compared; any separating axis answers the next step the same.)
static int same_touching_entry(const mf_pair_cache *x, const mf_pair_cache *y, float margin)
{
    if (x->separation >= margin && y->separation >= margin) return 1;
    return memcmp(x, y, sizeof(mf_pair_cache)) == 0;
}

// The first of `count` entries where x and y differ (same_touching_entry), count if none does.
static uint32_t first_differing_entry(const mf_pair_cache *x, const mf_pair_cache *y, uint32_t count, float margin)
{
    uint32_t k = 0;
    while (k < count && same_touching_entry(&x[k], &y[k], margin)) ++k;
    return k;
}

static void cache_entries_are_identical_for_any_thread_count(void)
{
    scene s;
    CHECK_EQ(scene_make("crowd", 25000, 17, &s), MF_OK);
    float margin = mf_config_default().margin;
    mf_pair_cache *one_cache = calloc(s.pair_count, sizeof(mf_pair_cache));
    mf_pair_cache *many_cache = calloc(s.pair_count, sizeof(mf_pair_cache));
    uint32_t capacities[] = {UINT32_MAX, 9000};
    for (unsigned k = 0; k < 2; ++k) {
        for (int step = 0; step < 2; ++step) { // a cold step, then a warm one
            run one = collide_into(&s, 1, MF_ISA_AUTO, capacities[k], UINT32_MAX, one_cache);
            run many = collide_into(&s, 4, MF_ISA_AUTO, capacities[k], UINT32_MAX, many_cache);
            CHECK_EQ(one.status, capacities[k] == UINT32_MAX ? MF_OK : MF_ERR_CAPACITY);
            CHECKF(same(&one, &many), "capacity %u, step %d: 4 threads differ from one (seed 17)", capacities[k], step);
            uint32_t differ = first_differing_entry(one_cache, many_cache, s.pair_count, margin);
            CHECKF(differ == s.pair_count, "capacity %u, step %d: cache entry %u differs (pairs_done %u, seed 17)",
                   capacities[k], step, differ, one.stream.pairs_done);
            release(&one);
            release(&many);
        }
    }
    free(one_cache);
    free(many_cache);
    scene_free(&s);
}

// A call of many chunks (250 and more, against two staging slots per worker): chunks that finish
// before the ones ahead of them wait in staging slots that earlier chunks left, and the output
// is still identical, cache entries included.
static void many_chunks_give_identical_output(void)
{
    scene s;
    // 262,398 pairs: 257 chunks of 1022 on one thread would hold 256 pairs more than there are.
    CHECK_EQ(scene_make("crowd", 262398, 23, &s), MF_OK);
    float margin = mf_config_default().margin;
    mf_pair_cache *one_cache = calloc(s.pair_count, sizeof(mf_pair_cache));
    mf_pair_cache *many_cache = calloc(s.pair_count, sizeof(mf_pair_cache));
    run one = collide_into(&s, 1, MF_ISA_AUTO, UINT32_MAX, UINT32_MAX, one_cache);
    CHECK_EQ(one.status, MF_OK);
    // Without a cache, on one thread and on two.
    for (uint32_t threads = 1; threads <= 2; ++threads) {
        run plain = collide(&s, threads, MF_ISA_AUTO, UINT32_MAX);
        CHECKF(same(&one, &plain), "%u threads without a cache differ (seed 23)", threads);
        release(&plain);
    }
    for (uint32_t threads = 2; threads <= 3; ++threads) {
        memset(many_cache, 0, s.pair_count * sizeof(mf_pair_cache));
        run many = collide_into(&s, threads, MF_ISA_AUTO, UINT32_MAX, UINT32_MAX, many_cache);
        CHECKF(same(&one, &many), "%u threads differ from one (seed 23)", threads);
        uint32_t differ = first_differing_entry(one_cache, many_cache, s.pair_count, margin);
        CHECKF(differ == s.pair_count, "%u threads: cache entry %u differs (seed 23)", threads, differ);
        release(&many);
    }
    release(&one);
    free(one_cache);
    free(many_cache);
    scene_free(&s);
}

// The pair check is split over the workers in large calls; the message still names the first
// invalid pair, and the stream stays empty.
static void threads_report_the_first_invalid_pair(void)
{
    scene s;
    CHECK_EQ(scene_make("box_box", 20000, 19, &s), MF_OK);
    s.pairs[15000].b = s.body_count + 5;
    s.body_transform[s.pairs[7001].a].p.x = NAN;
    // Another right at the start of the next chunk: found at once, often before the chunk holding
    // 7001 is checked, which must not take that as a reason to skip its own check.
    s.pairs[7952].a = s.pairs[7952].b;
    mf_config config = mf_config_default();
    config.threads = 4;
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(&config, &context), MF_OK);
    uint32_t manifolds, contacts;
    mf_stream_bound(s.pair_count, config.max_contacts, &manifolds, &contacts);
    mf_stream stream = {calloc(manifolds, sizeof(mf_manifold)),
                        manifolds,
                        0,
                        calloc(contacts, sizeof(mf_contact)),
                        contacts,
                        0,
                        0,
                        NULL,
                        0,
                        0};
    mf_bodies bodies = {.shape = s.body_shape, .transform = s.body_transform, .count = s.body_count};
    char expected[128];
    snprintf(expected, sizeof(expected), "body %u has a non-finite transform", s.pairs[7001].a);
    for (int repeat = 0; repeat < 100; ++repeat) {
        CHECK_EQ(mf_collide(context, s.bank, &bodies, s.pairs, s.pair_count, &stream), MF_ERR_NONFINITE);
        CHECKF(strcmp(mf_context_message(context), expected) == 0, "call %d: message \"%s\", expected \"%s\"", repeat,
               mf_context_message(context), expected);
        CHECK_EQ(stream.manifold_count, 0);
        CHECK_EQ(stream.pairs_done, 0);
    }
    free(stream.manifolds);
    free(stream.contacts);
    mf_context_destroy(context);
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

#if defined(__linux__)
// The logical CPUs of a thread's affinity mask.
static int cpus_of(pid_t thread, cpu_set_t *cpus) { return sched_getaffinity(thread, sizeof(*cpus), cpus) == 0; }

// The single CPU a thread is pinned to, or -1 where its mask holds more (or it is gone).
static int pinned_cpu(pid_t thread)
{
    cpu_set_t cpus;
    if (!cpus_of(thread, &cpus) || CPU_COUNT(&cpus) != 1) return -1;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &cpus)) return cpu;
    return -1;
}

// The threads of this process but the calling one (the contexts' workers: each test runs in a
// process of its own), at most `capacity` of them.
static uint32_t other_threads(pid_t *threads, uint32_t capacity)
{
    pid_t self = (pid_t)syscall(SYS_gettid);
    uint32_t count = 0;
    DIR *tasks = opendir("/proc/self/task");
    if (tasks == NULL) return 0;
    for (struct dirent *entry; (entry = readdir(tasks)) != NULL;) {
        pid_t thread = (pid_t)atoi(entry->d_name);
        if (thread > 0 && thread != self && count < capacity) threads[count++] = thread;
    }
    closedir(tasks);
    return count;
}

static void pin_caller(int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    CHECK_EQ(pthread_setaffinity_np(pthread_self(), sizeof(one), &one), 0);
}

// A threaded call (more than one chunk of pairs) on the context; the output is not looked at.
static void collide_once(mf_context *context, const scene *s)
{
    uint32_t manifolds, contacts;
    mf_stream_bound(s->pair_count, 4, &manifolds, &contacts);
    mf_stream stream = {calloc(manifolds, sizeof(mf_manifold)),
                        manifolds,
                        0,
                        calloc(contacts, sizeof(mf_contact)),
                        contacts,
                        0,
                        0,
                        NULL,
                        0,
                        0};
    mf_bodies bodies = scene_bodies(s);
    CHECK_EQ(mf_collide(context, s->bank, &bodies, s->pairs, s->pair_count, &stream), MF_OK);
    free(stream.manifolds);
    free(stream.contacts);
}
#endif

// With the caller pinned to each CPU in turn, no worker is pinned to that CPU alone after a call:
// the workers keep off the caller's core (two threads on a 2-core machine use both cores).
static void workers_keep_off_the_callers_core(void)
{
#if defined(__linux__)
    cpu_set_t allowed;
    CHECK(cpus_of(0, &allowed));
    if (CPU_COUNT(&allowed) < 2) {
        printf("skipped: the process may run on %d CPU\n", CPU_COUNT(&allowed));
        return;
    }
    scene s;
    CHECK_EQ(scene_make("box_box", 20000, 29, &s), MF_OK);
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(NULL, &context), MF_OK); // threads 0, created before the caller is pinned
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (!CPU_ISSET(cpu, &allowed)) continue;
        pin_caller(cpu);
        collide_once(context, &s);
        pid_t workers[256];
        uint32_t count = other_threads(workers, 256);
        for (uint32_t w = 0; w < count; ++w)
            CHECKF(pinned_cpu(workers[w]) != cpu, "caller pinned to CPU %d, and so is worker thread %d", cpu,
                   (int)workers[w]);
        CHECK_EQ(pthread_setaffinity_np(pthread_self(), sizeof(allowed), &allowed), 0);
    }
    mf_context_destroy(context);
    scene_free(&s);
#else
    printf("skipped: thread affinity is read on Linux only\n");
#endif
}

// Two contexts of two threads each, called from the same core, put their workers on different
// cores where there are other cores enough (three CPUs or more).
static void two_contexts_spread_their_workers(void)
{
#if defined(__linux__)
    cpu_set_t allowed;
    CHECK(cpus_of(0, &allowed));
    if (CPU_COUNT(&allowed) < 3) {
        printf("skipped: the process may run on %d CPUs\n", CPU_COUNT(&allowed));
        return;
    }
    scene s;
    CHECK_EQ(scene_make("box_box", 20000, 31, &s), MF_OK);
    mf_config config = mf_config_default();
    config.threads = 2;
    mf_context *first = NULL, *second = NULL;
    CHECK_EQ(mf_context_create(&config, &first), MF_OK);
    CHECK_EQ(mf_context_create(&config, &second), MF_OK);
    int caller = -1;
    for (int cpu = 0; caller < 0 && cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &allowed)) caller = cpu;
    pin_caller(caller);
    collide_once(first, &s);
    collide_once(second, &s);
    pid_t workers[8];
    uint32_t count = other_threads(workers, 8);
    CHECK_EQ(count, MF_TEST_THREADS_BUILT ? 2 : 0);
    if (count == 2) {
        int a = pinned_cpu(workers[0]), b = pinned_cpu(workers[1]);
        CHECKF(a < 0 || a != b, "both contexts' workers are pinned to CPU %d", a);
        CHECKF(a != caller && b != caller, "a worker is pinned to the caller's CPU %d", caller);
    }
    CHECK_EQ(pthread_setaffinity_np(pthread_self(), sizeof(allowed), &allowed), 0);
    mf_context_destroy(first);
    mf_context_destroy(second);
    scene_free(&s);
#else
    printf("skipped: thread affinity is read on Linux only\n");
#endif
}

static const test_case tests[] = {
    TEST_CASE(output_is_identical_for_any_thread_count),
    TEST_CASE(capacity_stops_at_the_same_pair_with_threads),
    TEST_CASE(contact_capacity_stops_at_the_same_pair_with_threads),
    TEST_CASE(cache_entries_are_identical_for_any_thread_count),
    TEST_CASE(many_chunks_give_identical_output),
    TEST_CASE(threads_report_the_first_invalid_pair),
    TEST_CASE(zero_threads_means_every_core),
    TEST_CASE(workers_keep_off_the_callers_core),
    TEST_CASE(two_contexts_spread_their_workers),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
