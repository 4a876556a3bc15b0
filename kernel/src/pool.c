// The worker pool: pthreads woken per batch, dynamic task counter, hwloc pinning when available.
#include "pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#if MF_HAVE_HWLOC
#include <hwloc.h>
#endif

typedef struct worker {
    mf_pool *pool;
    uint32_t index;
    pthread_t thread;
} worker;

struct mf_pool {
    uint32_t threads; // workers including the caller
    worker *workers;  // [1, threads): the spawned ones
    pthread_mutex_t mutex;
    pthread_cond_t wake, done;
    atomic_uint_fast64_t generation; // bumped per batch, under the mutex
    atomic_int stopping;
    atomic_uint busy; // spawned workers still in the batch
    // the batch
    mf_task_fn *task;
    void *data;
    uint32_t task_count;
    atomic_uint next_task;
#if MF_HAVE_HWLOC
    hwloc_topology_t topology;
    int topology_loaded;
    hwloc_cpuset_t *core_sets; // cores in the order workers take them
    uint32_t core_count;
#endif
};

static void run_tasks(mf_pool *pool, uint32_t worker_index)
{
    for (;;) {
        uint32_t task = atomic_fetch_add_explicit(&pool->next_task, 1u, memory_order_relaxed);
        if (task >= pool->task_count) return;
        pool->task(pool->data, task, worker_index);
    }
}

// Batches of one call follow each other within microseconds, and waking a sleeping thread takes
// tens: a worker spins this many pauses (some tens of microseconds) for the next batch before it
// sleeps, and the caller as long for the last worker to finish.
#define MF_POOL_SPINS 4096

// Whether a new batch (or the stop) came within the spin.
static int spin_for_batch(mf_pool *pool, uint64_t seen)
{
    for (uint32_t spin = 0; spin < MF_POOL_SPINS; ++spin) {
        if (atomic_load_explicit(&pool->generation, memory_order_acquire) != seen ||
            atomic_load_explicit(&pool->stopping, memory_order_acquire))
            return 1;
        mf_pause();
    }
    return 0;
}

static void *worker_main(void *argument)
{
    worker *self = argument;
    mf_pool *pool = self->pool;
#if MF_HAVE_HWLOC
    if (pool->core_count > 0)
        hwloc_set_cpubind(pool->topology, pool->core_sets[self->index % pool->core_count], HWLOC_CPUBIND_THREAD);
#endif
    uint64_t seen = 0;
    for (;;) {
        if (!spin_for_batch(pool, seen)) {
            pthread_mutex_lock(&pool->mutex);
            while (atomic_load(&pool->generation) == seen && !atomic_load(&pool->stopping))
                pthread_cond_wait(&pool->wake, &pool->mutex);
            pthread_mutex_unlock(&pool->mutex);
        }
        if (atomic_load_explicit(&pool->stopping, memory_order_acquire)) break;
        seen = atomic_load_explicit(&pool->generation, memory_order_acquire);
        run_tasks(pool, self->index);
        // The last one out wakes the caller; the caller checks busy under the mutex before it
        // sleeps, so this signal cannot come between its check and its wait.
        if (atomic_fetch_sub_explicit(&pool->busy, 1u, memory_order_acq_rel) == 1u) {
            pthread_mutex_lock(&pool->mutex);
            pthread_cond_signal(&pool->done);
            pthread_mutex_unlock(&pool->mutex);
        }
    }
    return NULL;
}

#if MF_HAVE_HWLOC
// Cores interleaved across packages (core 0 of each package, then core 1 of each, ...), so a few
// workers spread over sockets and NUMA nodes instead of filling the first one.
static uint32_t load_cores(mf_pool *pool)
{
    if (hwloc_topology_init(&pool->topology) != 0) return 0;
    if (hwloc_topology_load(pool->topology) != 0) {
        hwloc_topology_destroy(pool->topology);
        return 0;
    }
    pool->topology_loaded = 1;
    int cores = hwloc_get_nbobjs_by_type(pool->topology, HWLOC_OBJ_CORE);
    int packages = hwloc_get_nbobjs_by_type(pool->topology, HWLOC_OBJ_PACKAGE);
    if (cores <= 0) return 0;
    if (packages <= 0) packages = 1;
    pool->core_sets = calloc((size_t)cores, sizeof(hwloc_cpuset_t));
    if (pool->core_sets == NULL) return 0;
    uint32_t count = 0;
    for (int round = 0; count < (uint32_t)cores && round < cores; ++round) {
        for (int p = 0; p < packages; ++p) {
            hwloc_obj_t package = hwloc_get_obj_by_type(pool->topology, HWLOC_OBJ_PACKAGE, (unsigned)p);
            int seen = 0;
            for (int c = 0; c < cores; ++c) {
                hwloc_obj_t core = hwloc_get_obj_by_type(pool->topology, HWLOC_OBJ_CORE, (unsigned)c);
                if (package != NULL && !hwloc_obj_is_in_subtree(pool->topology, core, package)) continue;
                if (seen++ != round) continue;
                pool->core_sets[count++] = hwloc_bitmap_dup(core->cpuset);
            }
        }
    }
    return count;
}
#endif

static uint32_t physical_cores(mf_pool *pool)
{
#if MF_HAVE_HWLOC
    if (pool->core_count > 0) return pool->core_count;
#else
    (void)pool;
#endif
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (uint32_t)online : 1u;
}

mf_status mf_pool_create(uint32_t requested, mf_pool **out, uint32_t *threads)
{
#if !MF_HAVE_THREADS
    // Built without worker threads (-Dthreads=false): every call runs on the calling thread.
    (void)requested;
    *out = NULL;
    *threads = 1;
    return MF_OK;
#endif
    mf_pool *pool = calloc(1, sizeof(mf_pool));
    if (pool == NULL) return MF_ERR_OUT_OF_MEMORY;
#if MF_HAVE_HWLOC
    pool->core_count = load_cores(pool);
#endif
    pool->threads = requested != 0 ? requested : physical_cores(pool);
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->done, NULL);
    atomic_init(&pool->next_task, 0u);
    atomic_init(&pool->generation, 0u);
    atomic_init(&pool->stopping, 0);
    atomic_init(&pool->busy, 0u);
    pool->workers = calloc(pool->threads, sizeof(worker));
    if (pool->workers == NULL) {
        mf_pool_destroy(pool);
        return MF_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 1; i < pool->threads; ++i) {
        pool->workers[i] = (worker){pool, i, 0};
        if (pthread_create(&pool->workers[i].thread, NULL, worker_main, &pool->workers[i]) != 0) {
            pool->threads = i; // the ones started so far are joined by destroy
            mf_pool_destroy(pool);
            return MF_ERR_OUT_OF_MEMORY;
        }
    }
    *out = pool;
    *threads = pool->threads;
    return MF_OK;
}

void mf_pool_destroy(mf_pool *pool)
{
    if (pool == NULL) return;
    pthread_mutex_lock(&pool->mutex);
    atomic_store_explicit(&pool->stopping, 1, memory_order_release);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
    for (uint32_t i = 1; i < pool->threads && pool->workers != NULL; ++i) pthread_join(pool->workers[i].thread, NULL);
    pthread_cond_destroy(&pool->wake);
    pthread_cond_destroy(&pool->done);
    pthread_mutex_destroy(&pool->mutex);
#if MF_HAVE_HWLOC
    if (pool->core_sets != NULL) {
        for (uint32_t i = 0; i < pool->core_count; ++i) hwloc_bitmap_free(pool->core_sets[i]);
        free(pool->core_sets);
    }
    if (pool->topology_loaded) hwloc_topology_destroy(pool->topology);
#endif
    free(pool->workers);
    free(pool);
}

void mf_pool_run(mf_pool *pool, uint32_t task_count, mf_task_fn *task, void *data)
{
    pool->task = task;
    pool->data = data;
    pool->task_count = task_count;
    atomic_store_explicit(&pool->next_task, 0u, memory_order_relaxed);
    if (pool->threads > 1) {
        pthread_mutex_lock(&pool->mutex);
        atomic_store_explicit(&pool->busy, pool->threads - 1, memory_order_relaxed);
        // Release: a spinning worker that sees the new generation sees the batch too.
        atomic_fetch_add_explicit(&pool->generation, 1u, memory_order_release);
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->mutex);
    }
    run_tasks(pool, 0);
    if (pool->threads > 1) {
        for (uint32_t spin = 0; spin < MF_POOL_SPINS; ++spin) {
            if (atomic_load_explicit(&pool->busy, memory_order_acquire) == 0) return;
            mf_pause();
        }
        pthread_mutex_lock(&pool->mutex);
        while (atomic_load_explicit(&pool->busy, memory_order_acquire) > 0)
            pthread_cond_wait(&pool->done, &pool->mutex);
        pthread_mutex_unlock(&pool->mutex);
    }
}
