// Batches of tasks on a context's workers: manyfold's own pool, or the caller's job system
// (mf_config.enqueue_task and finish_task), or the calling thread alone.
#pragma once

#include "context.h"
#include "pool.h"

// Whether the context has workers besides the calling thread (a pool, or a job system of more
// than one worker): only then is a call split into batches of tasks.
static inline int mf_has_workers(const mf_context *context) { return context->threads > 1; }

// Runs task(data, t, worker) for every t below task_count and returns when all have run; worker
// is below context->threads and no two tasks run at once under one index.
//
// Tasks are claimed in index order, on every path: a job system's items are tickets, each
// claiming the next task from a counter, not tasks themselves. So a task that waits for an
// earlier one (in-order placement, placement.h) waits only for a task that some running thread
// has claimed and is running, however the job system orders, splits or serialises its items; and
// a task that no thread has started is never waited on.
void mf_run_batch(const mf_context *context, uint32_t task_count, mf_pool_task_fn *task, void *data);
