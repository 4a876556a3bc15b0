// Batches of tasks on the pool, the caller's job system, or the calling thread (jobs.h).
#include "jobs.h"

#include "core.h"

#include <stdatomic.h>

// A batch as the job system's items see it.
typedef struct ticket_batch {
    mf_pool_task_fn *task;
    void *data;
    uint32_t task_count;
    uint32_t worker_count;
    atomic_uint next_task;
} ticket_batch;

// The mf_task_fn handed to the job system: each item of [begin, end) claims the next task.
static void run_tickets(uint32_t begin, uint32_t end, uint32_t worker, void *task_context)
{
    ticket_batch *batch = task_context;
    MF_ASSERT(worker < batch->worker_count);
    for (uint32_t item = begin; item < end; ++item) {
        uint32_t task = atomic_fetch_add_explicit(&batch->next_task, 1u, memory_order_relaxed);
        if (task >= batch->task_count) return; // one ticket per task: only a job system's extra items
        batch->task(batch->data, task, worker);
    }
}

void mf_run_batch(const mf_context *context, uint32_t task_count, mf_pool_task_fn *task, void *data)
{
    if (task_count == 0) return;
    const mf_config *config = &context->config;
    if (context->pool != NULL) {
        mf_pool_run(context->pool, task_count, task, data);
    } else if (config->enqueue_task != NULL && context->threads > 1 && task_count > 1) {
        ticket_batch batch = {task, data, task_count, context->threads, 0};
        atomic_init(&batch.next_task, 0u);
        // One item per task (a chunk of pairs, tens of microseconds): ranges of one balance best.
        void *user_task = config->enqueue_task(run_tickets, task_count, 1, &batch, config->task_context);
        if (user_task != NULL) config->finish_task(user_task, config->task_context);
    } else {
        for (uint32_t t = 0; t < task_count; ++t) task(data, t, 0);
    }
}
