// Worker threads owned by a context: created once, pinned one per core with hwloc (never the core
// the calling thread is on: pool.c), and handed batches of tasks that they take dynamically. The
// calling thread works too, as worker 0.
#pragma once

#include "manyfold.h"

#include <sched.h>

typedef struct mf_pool mf_pool;

// Runs task(data, task_index, worker_index) for every task_index below task_count. (Not the public
// mf_task_fn, which a caller's job system runs: jobs.h turns one into the other.)
typedef void mf_pool_task_fn(void *data, uint32_t task, uint32_t worker);

// threads == 0: one per core the process may run on. The pool runs `*threads` workers, the caller
// included. A build without threads (meson -Dthreads=false) gives no pool and one thread.
mf_status mf_pool_create(uint32_t requested, mf_pool **pool, uint32_t *threads);
void mf_pool_destroy(mf_pool *pool);

// Blocks until every task has run. Tasks are taken in index order from a shared counter, so
// uneven tasks balance themselves.
void mf_pool_run(mf_pool *pool, uint32_t task_count, mf_pool_task_fn *task, void *data);

// A spin-wait hint to the core (and to its SMT sibling, which gets the cycles).
static inline void mf_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

// One step of a wait on another worker: pauses at first, then yields the core, in case that
// worker is not running (more threads than cores).
static inline void mf_wait_a_moment(uint32_t *spins)
{
    if (++*spins < 1024) mf_pause();
    else sched_yield();
}
