// Worker threads owned by a context: created once, pinned one per core with hwloc, and handed
// batches of tasks that they take dynamically. The calling thread works too, as worker 0.
#pragma once

#include "manyfold.h"

typedef struct mf_pool mf_pool;

// Runs task(data, task_index, worker_index) for every task_index below task_count.
typedef void mf_task_fn(void *data, uint32_t task, uint32_t worker);

// threads == 0: one per physical core. The pool runs `*threads` workers, the caller included. A
// build without threads (meson -Dthreads=false) gives no pool and one thread.
mf_status mf_pool_create(uint32_t requested, mf_pool **pool, uint32_t *threads);
void mf_pool_destroy(mf_pool *pool);

// Blocks until every task has run. Tasks are taken in index order from a shared counter, so
// uneven tasks balance themselves.
void mf_pool_run(mf_pool *pool, uint32_t task_count, mf_task_fn *task, void *data);
