// The worker pool: pthreads woken per batch, dynamic task counter, hwloc pinning when available.
//
// Where the workers run. With hwloc, the pool takes the cores the process may run on (its binding
// when the context is created: taskset, an MPI launcher's --bind-to), one worker per core, and
// keeps them off the calling thread's core. The caller is never moved: it may be pinned by its
// owner (an engine's main thread, an MPI rank), and re-pinning it for each call would cost two
// system calls and a migration per call. Instead each batch carries the core the caller is on
// (sched_getcpu, a read of the vDSO or rseq, some nanoseconds), and the workers take the other
// cores; a worker moves (one sched_setaffinity of its own) only when the caller's core differs
// from the one it last moved around, so a caller that stays on its core pays nothing after its
// first call. Pinned workers on the caller's core were the fault: a 2-core machine's one worker
// sat on CPU 1 and, whenever the caller ran there too, two threads ran no faster than one.
// Each new pool starts its workers one core further on (a process-wide counter), so contexts with
// fewer threads than cores spread over the cores instead of all taking the first ones; contexts
// with threads = 0 each take every core but their caller's, and two of them busy at once share.
// Without hwloc the workers are not pinned and the system places them.
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE // sched_getcpu, sched_getaffinity and CPU_COUNT
#endif
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
    int pinned_around; // the caller's core this worker last moved around (MF_POOL_NEVER_PINNED at first)
} worker;

// No core index: the caller runs on none of the pool's cores, or the worker has not been pinned.
#define MF_POOL_NO_CORE (-1)
#define MF_POOL_NEVER_PINNED (-2)

struct mf_pool {
    uint32_t threads; // workers including the caller
    worker *workers;  // [1, threads): the spawned ones
    pthread_mutex_t mutex;
    pthread_cond_t wake, done;
    atomic_uint_fast64_t generation; // bumped per batch, under the mutex
    atomic_int stopping;
    atomic_uint busy; // spawned workers still in the batch
    // the batch
    mf_pool_task_fn *task;
    void *data;
    uint32_t task_count;
    atomic_uint next_task;
    int caller_core; // the core (index into core_sets) the caller was on, or MF_POOL_NO_CORE
#if MF_HAVE_HWLOC
    hwloc_topology_t topology;
    int topology_loaded;
    hwloc_cpuset_t *core_sets; // the cores the process may run on, in the order workers take them
    uint32_t core_count;
    int *core_of_cpu; // [cpu_count]: the core set holding each logical CPU, or MF_POOL_NO_CORE
    int cpu_count;
    uint32_t first_core; // where this pool's workers start (modulo the cores), after the previous pool's
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

#if MF_HAVE_HWLOC
// The core a spawned worker takes while the caller is on `caller_core`: the pool's cores from
// first_core on, the caller's skipped. (More workers than other cores wrap round and share.)
static uint32_t worker_core(const mf_pool *pool, uint32_t index, int caller_core)
{
    uint32_t nth = pool->first_core + index - 1;
    if (caller_core == MF_POOL_NO_CORE) return nth % pool->core_count;
    uint32_t core = nth % (pool->core_count - 1);
    return core >= (uint32_t)caller_core ? core + 1 : core;
}
#endif

// Moves the worker off the batch's caller core, if it has not moved around that core already.
static void pin_around_caller(mf_pool *pool, worker *self)
{
#if MF_HAVE_HWLOC
    int caller_core = pool->caller_core;
    if (pool->core_count < 2 || self->pinned_around == caller_core) return;
    uint32_t core = worker_core(pool, self->index, caller_core);
    if (self->pinned_around == MF_POOL_NEVER_PINNED || core != worker_core(pool, self->index, self->pinned_around))
        hwloc_set_cpubind(pool->topology, pool->core_sets[core], HWLOC_CPUBIND_THREAD);
    self->pinned_around = caller_core;
#else
    (void)pool;
    (void)self;
#endif
}

// The core the calling thread is on now, as an index into the pool's cores.
static int find_caller_core(const mf_pool *pool)
{
#if MF_HAVE_HWLOC && defined(__linux__)
    if (pool->core_count < 2) return MF_POOL_NO_CORE;
    int cpu = sched_getcpu();
    return cpu >= 0 && cpu < pool->cpu_count ? pool->core_of_cpu[cpu] : MF_POOL_NO_CORE;
#else
    (void)pool;
    return MF_POOL_NO_CORE;
#endif
}

static void *worker_main(void *argument)
{
    worker *self = argument;
    mf_pool *pool = self->pool;
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
        pin_around_caller(pool, self);
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
// Which of the pool's cores each logical CPU belongs to, for find_caller_core.
static int map_cpus(mf_pool *pool)
{
    int last = -1;
    for (uint32_t k = 0; k < pool->core_count; ++k) {
        int cpu = hwloc_bitmap_last(pool->core_sets[k]);
        if (cpu > last) last = cpu;
    }
    pool->cpu_count = last + 1;
    pool->core_of_cpu = malloc((size_t)(last + 1) * sizeof(int));
    if (pool->core_of_cpu == NULL) return 0;
    for (int cpu = 0; cpu <= last; ++cpu) pool->core_of_cpu[cpu] = MF_POOL_NO_CORE;
    for (uint32_t k = 0; k < pool->core_count; ++k) {
        const hwloc_cpuset_t set = pool->core_sets[k];
        for (int cpu = hwloc_bitmap_first(set); cpu >= 0; cpu = hwloc_bitmap_next(set, cpu))
            pool->core_of_cpu[cpu] = (int)k;
    }
    return 1;
}

// The cores the process may run on (each core's CPUs within the binding), interleaved across
// packages (core 0 of each package, then core 1 of each, ...), so a few workers spread over
// sockets and NUMA nodes instead of filling the first one.
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
    hwloc_cpuset_t binding = hwloc_bitmap_alloc();
    pool->core_sets = calloc((size_t)cores, sizeof(hwloc_cpuset_t));
    if (binding == NULL || pool->core_sets == NULL) {
        hwloc_bitmap_free(binding);
        return 0;
    }
    if (hwloc_get_cpubind(pool->topology, binding, HWLOC_CPUBIND_PROCESS) != 0 || hwloc_bitmap_iszero(binding))
        hwloc_bitmap_copy(binding, hwloc_topology_get_allowed_cpuset(pool->topology));
    uint32_t count = 0;
    for (int round = 0; round < cores; ++round) {
        for (int p = 0; p < packages; ++p) {
            hwloc_obj_t package = hwloc_get_obj_by_type(pool->topology, HWLOC_OBJ_PACKAGE, (unsigned)p);
            int seen = 0;
            for (int c = 0; c < cores; ++c) {
                hwloc_obj_t core = hwloc_get_obj_by_type(pool->topology, HWLOC_OBJ_CORE, (unsigned)c);
                if (package != NULL && !hwloc_obj_is_in_subtree(pool->topology, core, package)) continue;
                if (seen++ != round || !hwloc_bitmap_intersects(core->cpuset, binding)) continue;
                hwloc_cpuset_t set = hwloc_bitmap_alloc();
                if (set == NULL) continue;
                hwloc_bitmap_and(set, core->cpuset, binding);
                pool->core_sets[count++] = set;
            }
        }
    }
    hwloc_bitmap_free(binding);
    pool->core_count = count;
    if (count > 0 && !map_cpus(pool)) { // unpinned, then
        for (uint32_t k = 0; k < count; ++k) hwloc_bitmap_free(pool->core_sets[k]);
        count = 0;
    }
    return count;
}

// Pools created so far take this many cores; the next one starts after them (wrapping round).
static atomic_uint pool_cores_taken;
#endif

// One per core the process may run on; without hwloc, one per logical CPU it may run on.
static uint32_t physical_cores(mf_pool *pool)
{
#if MF_HAVE_HWLOC
    if (pool->core_count > 0) return pool->core_count;
#else
    (void)pool;
#endif
#if defined(__linux__) && defined(CPU_COUNT)
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0 && CPU_COUNT(&allowed) > 0)
        return (uint32_t)CPU_COUNT(&allowed);
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
#if MF_HAVE_HWLOC
    if (pool->core_count > 0) pool->first_core = atomic_fetch_add(&pool_cores_taken, pool->threads - 1);
#endif
    pool->caller_core = MF_POOL_NO_CORE;
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
        pool->workers[i] = (worker){pool, i, 0, MF_POOL_NEVER_PINNED};
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
    free(pool->core_of_cpu);
    if (pool->topology_loaded) hwloc_topology_destroy(pool->topology);
#endif
    free(pool->workers);
    free(pool);
}

void mf_pool_run(mf_pool *pool, uint32_t task_count, mf_pool_task_fn *task, void *data)
{
    pool->task = task;
    pool->data = data;
    pool->task_count = task_count;
    atomic_store_explicit(&pool->next_task, 0u, memory_order_relaxed);
    if (pool->threads > 1) {
        pool->caller_core = find_caller_core(pool);
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
