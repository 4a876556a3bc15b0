// The caller's job system (mf_config.enqueue_task, finish_task): manyfold's batches run as the
// caller's tasks, on threads the test scheduler owns, in random order, or inline, or all deferred
// to finish_task and run there one after another; the output is byte-identical to one thread's;
// bad configurations are refused.
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE // counting the process's threads in /proc/self/task
#endif
#include "check.h"
#include "harness.h"
#include "random.h"
#include "scene.h"

#include <pthread.h>
#include <stdatomic.h>

#if defined(__linux__)
#include <dirent.h>
#endif

// ---- test schedulers ----

typedef enum schedule {
    SCHEDULE_THREADS,  // ranges shuffled, taken by worker_count threads of the scheduler's own
    SCHEDULE_DEFERRED, // nothing in enqueue; finish runs the shuffled ranges one by one, any worker index
    SCHEDULE_INLINE,   // enqueue runs the whole task on worker 0 and returns NULL
} schedule;

typedef struct range {
    uint32_t begin, end;
} range;

typedef struct scheduler {
    schedule kind;
    uint32_t worker_count;
    uint64_t seed; // shuffles; advanced by every enqueue
    // What the scheduler saw, for the tests to check.
    uint32_t enqueued, finished, items;
    atomic_uint bad_worker;   // a range ran with worker >= worker_count
    atomic_uint busy_workers; // a bit per worker index running a range now
    atomic_uint overlapping;  // two ranges ran at once under one index
} scheduler;

// One enqueued task.
typedef struct job {
    scheduler *owner;
    mf_task_fn *task;
    void *task_context;
    range *ranges;
    uint32_t range_count;
    atomic_uint next_range;
    pthread_t threads[MF_MAX_WORKERS];
} job;

static void run_range(job *j, range r, uint32_t worker)
{
    scheduler *s = j->owner;
    if (worker >= s->worker_count) {
        atomic_fetch_add(&s->bad_worker, 1u);
        return;
    }
    uint32_t bit = worker < 32 ? 1u << worker : 0u;
    if (atomic_fetch_or(&s->busy_workers, bit) & bit) atomic_fetch_add(&s->overlapping, 1u);
    j->task(r.begin, r.end, worker, j->task_context);
    atomic_fetch_and(&s->busy_workers, ~bit);
}

typedef struct thread_start {
    job *j;
    uint32_t worker;
} thread_start;

static thread_start starts[MF_MAX_WORKERS];

static void *scheduler_thread(void *argument)
{
    thread_start *start = argument;
    job *j = start->j;
    for (;;) {
        uint32_t k = atomic_fetch_add(&j->next_range, 1u);
        if (k >= j->range_count) return NULL;
        run_range(j, j->ranges[k], start->worker);
    }
}

// Splits [0, item_count) into ranges of min_range items (the last one shorter) in random order.
static range *shuffled_ranges(scheduler *s, uint32_t item_count, uint32_t min_range, uint32_t *count)
{
    uint32_t size = min_range > 0 ? min_range : 1;
    *count = (item_count + size - 1) / size;
    range *ranges = calloc(*count, sizeof(range));
    for (uint32_t k = 0; k < *count; ++k)
        ranges[k] = (range){k * size, item_count - k * size < size ? item_count : (k + 1) * size};
    for (uint32_t k = *count; k > 1; --k) {
        uint32_t other = (uint32_t)(splitmix64(&s->seed) % k);
        range swap = ranges[k - 1];
        ranges[k - 1] = ranges[other];
        ranges[other] = swap;
    }
    return ranges;
}

static void *enqueue(mf_task_fn *task, uint32_t item_count, uint32_t min_range, void *task_context, void *user_context)
{
    scheduler *s = user_context;
    s->enqueued++;
    s->items += item_count;
    job *j = calloc(1, sizeof(job));
    *j = (job){.owner = s, .task = task, .task_context = task_context};
    if (s->kind == SCHEDULE_INLINE) {
        run_range(j, (range){0, item_count}, 0);
        free(j);
        return NULL;
    }
    j->ranges = shuffled_ranges(s, item_count, min_range, &j->range_count);
    atomic_init(&j->next_range, 0u);
    if (s->kind == SCHEDULE_THREADS) {
        // Worker indices in a shuffled order, so that index 0 is not always the first to start.
        uint32_t first = (uint32_t)(splitmix64(&s->seed) % s->worker_count);
        for (uint32_t t = 0; t < s->worker_count; ++t) {
            starts[t] = (thread_start){j, (first + t) % s->worker_count};
            CHECK_EQ(pthread_create(&j->threads[t], NULL, scheduler_thread, &starts[t]), 0);
        }
    }
    return j;
}

static void finish(void *user_task, void *user_context)
{
    scheduler *s = user_context;
    job *j = user_task;
    s->finished++;
    if (s->kind == SCHEDULE_THREADS) {
        for (uint32_t t = 0; t < s->worker_count; ++t) pthread_join(j->threads[t], NULL);
    } else {
        for (uint32_t k = 0; k < j->range_count; ++k)
            run_range(j, j->ranges[k], (uint32_t)(splitmix64(&s->seed) % s->worker_count));
    }
    free(j->ranges);
    free(j);
}

static scheduler scheduler_make(schedule kind, uint32_t worker_count, uint64_t seed)
{
#if MF_TEST_NO_THREADS
    // A build without threads (the aarch64 build under qemu, whose pthread_create hangs): the
    // threaded scheduler runs its shuffled ranges in finish, as the deferred one does.
    if (kind == SCHEDULE_THREADS) kind = SCHEDULE_DEFERRED;
#endif
    scheduler s = {.kind = kind, .worker_count = worker_count, .seed = seed};
    atomic_init(&s.bad_worker, 0u);
    atomic_init(&s.busy_workers, 0u);
    atomic_init(&s.overlapping, 0u);
    return s;
}

static mf_config config_with(scheduler *s)
{
    mf_config config = mf_config_default();
    config.enqueue_task = enqueue;
    config.finish_task = finish;
    config.task_context = s;
    config.worker_count = s->worker_count;
    return config;
}

static void check_scheduler(scheduler *s, const char *what)
{
    CHECKF(atomic_load(&s->bad_worker) == 0, "%s: a range ran as a worker index >= %u", what, s->worker_count);
    CHECKF(atomic_load(&s->overlapping) == 0, "%s: two ranges ran at once under one worker index", what);
    CHECKF(s->finished == (s->kind == SCHEDULE_INLINE ? 0 : s->enqueued), "%s: %u enqueued, %u finished", what,
           s->enqueued, s->finished);
}

// ---- runs ----

typedef struct run {
    mf_status status;
    mf_stream stream;
} run;

// A context from `config` (NULL: threads = 1) colliding the scene, cached where cache is not NULL;
// the stream holds at most manifold_capacity manifolds.
static run collide_with(const scene *sc, const mf_config *config, uint32_t manifold_capacity, mf_pair_cache *cache)
{
    mf_config one = mf_config_default();
    one.threads = 1;
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(config != NULL ? config : &one, &context), MF_OK);
    uint32_t manifolds, contacts;
    mf_stream_bound(sc->pair_count, one.max_contacts, &manifolds, &contacts);
    if (manifold_capacity < manifolds) manifolds = manifold_capacity;
    run r = {MF_OK,
             {calloc(manifolds + 1, sizeof(mf_manifold)), manifolds, 0, calloc(contacts + 1, sizeof(mf_contact)),
              contacts, 0, 0, NULL, 0, 0}};
    mf_bodies bodies = scene_bodies(sc);
    if (cache != NULL)
        r.status = mf_collide_cached(context, sc->bank, &bodies, sc->pairs, sc->pair_count, cache, &r.stream);
    else r.status = mf_collide(context, sc->bank, &bodies, sc->pairs, sc->pair_count, &r.stream);
    mf_context_destroy(context);
    return r;
}

static int same(const run *x, const run *y)
{
    return x->status == y->status && test_same_stream(&x->stream, &y->stream);
}

static void release(run *r) { test_stream_free(&r->stream); }

// Entries of pairs within the margin are the same bytes (an apart pair's entry holds whichever
// separating axis its bundle found: test_threads.c).
static uint32_t first_differing_entry(const mf_pair_cache *x, const mf_pair_cache *y, uint32_t count, float margin)
{
    uint32_t k = 0;
    while (k < count && ((x[k].separation >= margin && y[k].separation >= margin) ||
                         memcmp(&x[k], &y[k], sizeof(mf_pair_cache)) == 0))
        ++k;
    return k;
}

static const schedule schedules[] = {SCHEDULE_THREADS, SCHEDULE_DEFERRED, SCHEDULE_INLINE};
static const char *const schedule_names[] = {"threads", "deferred", "inline"};
// Mixed scenes: crowd (cubes, slabs and 16-point rocks), pile_step (boxes and rocks on a slab).
static const char *const mixed_scenes[] = {"crowd", "pile_step"};

// ---- tests ----

static void job_system_output_is_identical_to_one_thread(void)
{
    for (unsigned k = 0; k < 2; ++k) {
        scene sc;
        uint64_t seed = 41 + k;
        CHECK_EQ(scene_make(mixed_scenes[k], test_scaled(30000) + 2048, seed, &sc), MF_OK);
        run one = collide_with(&sc, NULL, UINT32_MAX, NULL);
        CHECK_EQ(one.status, MF_OK);
        for (unsigned m = 0; m < 3; ++m) {
            for (uint32_t workers = 2; workers <= 4; workers += 2) {
                scheduler s = scheduler_make(schedules[m], workers, seed * 100 + m * 10 + workers);
                mf_config config = config_with(&s);
                run many = collide_with(&sc, &config, UINT32_MAX, NULL);
                CHECKF(same(&one, &many), "%s, %s scheduler, %u workers: output differs from one thread (seed %llu)",
                       mixed_scenes[k], schedule_names[m], workers, (unsigned long long)seed);
                CHECKF(s.enqueued > 0, "%s, %s scheduler: never enqueued", mixed_scenes[k], schedule_names[m]);
                check_scheduler(&s, mixed_scenes[k]);
                release(&many);
            }
        }
        release(&one);
        scene_free(&sc);
    }
}

// A cold step then a warm one: the same output and cache entries as one thread, and the stream
// that stops halfway (the rounds of chunks) stops at the same pair.
static void job_system_cached_output_is_identical_to_one_thread(void)
{
    for (unsigned k = 0; k < 2; ++k) {
        scene sc;
        uint64_t seed = 43 + k;
        CHECK_EQ(scene_make(mixed_scenes[k], test_scaled(30000) + 2048, seed, &sc), MF_OK);
        float margin = mf_config_default().margin;
        mf_pair_cache *one_cache = calloc(sc.pair_count, sizeof(mf_pair_cache));
        mf_pair_cache *many_cache = calloc(sc.pair_count, sizeof(mf_pair_cache));
        uint32_t capacities[] = {UINT32_MAX, sc.pair_count / 3};
        for (unsigned m = 0; m < 3; ++m) {
            for (unsigned c = 0; c < 2; ++c) {
                memset(one_cache, 0, sc.pair_count * sizeof(mf_pair_cache));
                memset(many_cache, 0, sc.pair_count * sizeof(mf_pair_cache));
                scheduler s = scheduler_make(schedules[m], 3, seed * 100 + m * 10 + c);
                mf_config config = config_with(&s);
                for (int step = 0; step < 2; ++step) {
                    run one = collide_with(&sc, NULL, capacities[c], one_cache);
                    run many = collide_with(&sc, &config, capacities[c], many_cache);
                    CHECKF(same(&one, &many), "%s, %s scheduler, capacity %u, step %d: output differs (seed %llu)",
                           mixed_scenes[k], schedule_names[m], capacities[c], step, (unsigned long long)seed);
                    uint32_t differ = first_differing_entry(one_cache, many_cache, sc.pair_count, margin);
                    CHECKF(differ == sc.pair_count, "%s, %s scheduler, capacity %u, step %d: cache entry %u differs",
                           mixed_scenes[k], schedule_names[m], capacities[c], step, differ);
                    release(&one);
                    release(&many);
                }
                check_scheduler(&s, mixed_scenes[k]);
            }
        }
        free(one_cache);
        free(many_cache);
        scene_free(&sc);
    }
}

// Many chunks (more than the staging slots of every worker together), the in-order placement on
// the job system's threads: still identical.
static void job_system_many_chunks_give_identical_output(void)
{
    scene sc;
    CHECK_EQ(scene_make("crowd", test_scaled(200000) + 2048, 47, &sc), MF_OK);
    run one = collide_with(&sc, NULL, UINT32_MAX, NULL);
    for (unsigned m = 0; m < 2; ++m) {
        scheduler s = scheduler_make(schedules[m], 3, 470 + m);
        mf_config config = config_with(&s);
        run many = collide_with(&sc, &config, UINT32_MAX, NULL);
        CHECKF(same(&one, &many), "%s scheduler: output differs from one thread (seed 47)", schedule_names[m]);
        check_scheduler(&s, "crowd");
        release(&many);
    }
    release(&one);
    scene_free(&sc);
}

// The pair check runs as the job system's tasks too: the first invalid pair is reported.
static void job_system_reports_the_first_invalid_pair(void)
{
    scene sc;
    CHECK_EQ(scene_make("crowd", 20000, 53, &sc), MF_OK);
    sc.body_transform[sc.pairs[9001].b].q = (mf_quat){0.0f, 0.0f, 0.0f, 0.0f};
    sc.pairs[15000].b = sc.body_count + 1;
    scheduler s = scheduler_make(SCHEDULE_THREADS, 4, 53);
    mf_config config = config_with(&s);
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(&config, &context), MF_OK);
    uint32_t manifolds, contacts;
    mf_stream_bound(sc.pair_count, config.max_contacts, &manifolds, &contacts);
    mf_bodies bodies = scene_bodies(&sc);
    char expected[128];
    snprintf(expected, sizeof(expected), "body %u has a zero quaternion", sc.pairs[9001].b);
    // A stream that holds every pair (checked chunk by chunk), and one that does not (checked first).
    uint32_t capacities[] = {manifolds, manifolds / 2};
    for (unsigned c = 0; c < 2; ++c) {
        mf_stream stream = {calloc(manifolds, sizeof(mf_manifold)),
                            capacities[c],
                            0,
                            calloc(contacts, sizeof(mf_contact)),
                            contacts,
                            0,
                            0,
                            NULL,
                            0,
                            0};
        CHECK_EQ(mf_collide(context, sc.bank, &bodies, sc.pairs, sc.pair_count, &stream), MF_ERR_INVALID_ARGUMENT);
        CHECKF(strcmp(mf_context_message(context), expected) == 0, "message \"%s\", expected \"%s\"",
               mf_context_message(context), expected);
        CHECK_EQ(stream.manifold_count, 0);
        free(stream.manifolds);
        free(stream.contacts);
    }
    check_scheduler(&s, "crowd");
    mf_context_destroy(context);
    scene_free(&sc);
}

#if defined(__linux__)
static uint32_t process_threads(void)
{
    uint32_t count = 0;
    DIR *tasks = opendir("/proc/self/task");
    if (tasks == NULL) return 0;
    for (struct dirent *entry; (entry = readdir(tasks)) != NULL;) count += entry->d_name[0] != '.';
    closedir(tasks);
    return count;
}
#endif

// With a job system the context starts no threads, reports worker_count, enqueues large calls
// only (a call of one chunk, or any call with one worker, stays on the calling thread).
static void job_system_replaces_the_pool(void)
{
    scene sc;
    CHECK_EQ(scene_make("crowd", 20000, 59, &sc), MF_OK);
#if defined(__linux__)
    uint32_t before = process_threads();
#endif
    for (uint32_t workers = 1; workers <= 3; workers += 2) {
        scheduler s = scheduler_make(SCHEDULE_INLINE, workers, 59);
        mf_config config = config_with(&s);
        config.threads = workers; // the same count as worker_count is allowed
        mf_context *context = NULL;
        CHECK_EQ(mf_context_create(&config, &context), MF_OK);
        CHECK_EQ(mf_context_threads(context), workers);
#if defined(__linux__)
        CHECK_EQ(process_threads(), before);
#endif
        uint32_t manifolds, contacts;
        mf_stream_bound(sc.pair_count, config.max_contacts, &manifolds, &contacts);
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
        mf_bodies bodies = scene_bodies(&sc);
        CHECK_EQ(mf_collide(context, sc.bank, &bodies, sc.pairs, 1000, &stream), MF_OK);
        CHECK_EQ(s.enqueued, 0);
        CHECK_EQ(mf_collide(context, sc.bank, &bodies, sc.pairs, sc.pair_count, &stream), MF_OK);
        CHECKF(workers == 1 ? s.enqueued == 0 : s.enqueued > 0, "%u workers: %u enqueued", workers, s.enqueued);
        check_scheduler(&s, "crowd");
        free(stream.manifolds);
        free(stream.contacts);
        mf_context_destroy(context);
    }
    scene_free(&sc);
}

static void bad_job_system_configs_are_refused(void)
{
    scheduler s = scheduler_make(SCHEDULE_INLINE, 2, 61);
    mf_config good = config_with(&s);
    mf_config bad[6];
    for (int k = 0; k < 6; ++k) bad[k] = good;
    bad[0].finish_task = NULL;  // enqueue without finish
    bad[1].enqueue_task = NULL; // finish without enqueue
    bad[2].worker_count = 0;
    bad[3].worker_count = MF_MAX_WORKERS + 1;
    bad[4].threads = 3; // neither 0 nor worker_count
    bad[5].worker_count = UINT32_MAX;
    for (int k = 0; k < 6; ++k) {
        mf_context *context = (mf_context *)&s; // overwritten with NULL on failure
        CHECKF(mf_context_create(&bad[k], &context) == MF_ERR_INVALID_ARGUMENT, "config %d accepted", k);
        CHECKF(context == NULL, "config %d: context not NULL", k);
    }
    mf_context *context = NULL;
    good.worker_count = MF_MAX_WORKERS;
    CHECK_EQ(mf_context_create(&good, &context), MF_OK);
    mf_context_destroy(context);
    // Without the functions, worker_count and task_context are not read.
    mf_config plain = mf_config_default();
    plain.threads = 1;
    plain.worker_count = 7;
    CHECK_EQ(mf_context_create(&plain, &context), MF_OK);
    CHECK_EQ(mf_context_threads(context), 1);
    mf_context_destroy(context);
}

static const test_case tests[] = {
    TEST_CASE(job_system_output_is_identical_to_one_thread),
    TEST_CASE(job_system_cached_output_is_identical_to_one_thread),
    TEST_CASE(job_system_many_chunks_give_identical_output),
    TEST_CASE(job_system_reports_the_first_invalid_pair),
    TEST_CASE(job_system_replaces_the_pool),
    TEST_CASE(bad_job_system_configs_are_refused),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }
