// Context lifetime, configuration checks, ISA choice.
#include "context.h"

#include "broadphase.h"
#include "dispatch.h"
#include "placement.h"
#include "pool.h"
#include "staging.h"
#include "worker.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

_Static_assert(MF_STAGED_PER_WORKER <= 2 * MF_CHUNKS_PER_THREAD, "a worker's staging slots are among the context's");

mf_config mf_config_default(void)
{
    return (mf_config){.margin = 0.02f,
                       .linear_slop = 0.005f,
                       .max_contacts = 4,
                       .isa = MF_ISA_AUTO,
                       .threads = 0,
                       .on_fault = MF_FAULT_STOP};
}

const char *mf_isa_name(mf_isa isa)
{
    static const char *const names[] = {"auto", "scalar", "sse", "avx2", "avx512", "neon"};
    return (unsigned)isa < sizeof(names) / sizeof(names[0]) ? names[isa] : "unknown";
}

mf_status mf_context_fail(mf_context *context, mf_status status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(context->message, sizeof(context->message), format, args);
    va_end(args);
    return status;
}

// Writes a config's detail (cut to capacity) and returns the status.
static mf_status refuse(char *detail, uint32_t capacity, mf_status status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static mf_status refuse(char *detail, uint32_t capacity, mf_status status, const char *format, ...)
{
    if (detail == NULL || capacity == 0) return status;
    va_list args;
    va_start(args, format);
    vsnprintf(detail, capacity, format, args);
    va_end(args);
    return status;
}

// A length of the config (margin, linear_slop): finite, >= 0, within MF_MAX_LENGTH.
static mf_status check_length(const char *name, float value, char *detail, uint32_t capacity)
{
    if (!isfinite(value))
        return refuse(detail, capacity, MF_ERR_NONFINITE, "%s is %g: it must be finite, >= 0 and <= MF_MAX_LENGTH (%g)",
                      name, (double)value, (double)MF_MAX_LENGTH);
    if (value < 0.0f || value > MF_MAX_LENGTH)
        return refuse(detail, capacity, MF_ERR_INVALID_ARGUMENT, "%s is %g: it must be >= 0 and <= MF_MAX_LENGTH (%g)",
                      name, (double)value, (double)MF_MAX_LENGTH);
    return MF_OK;
}

// A job system is both functions or neither; with one, 1..MF_MAX_WORKERS workers, and threads
// unset or the same count.
static mf_status check_job_system(const mf_config *c, char *detail, uint32_t capacity)
{
    if ((c->enqueue_task == NULL) != (c->finish_task == NULL))
        return refuse(detail, capacity, MF_ERR_INVALID_ARGUMENT, "%s is set but %s is NULL: give both or neither",
                      c->enqueue_task != NULL ? "enqueue_task" : "finish_task",
                      c->enqueue_task != NULL ? "finish_task" : "enqueue_task");
    if (c->enqueue_task == NULL) return MF_OK;
    if (c->worker_count < 1 || c->worker_count > MF_MAX_WORKERS)
        return refuse(detail, capacity, MF_ERR_INVALID_ARGUMENT,
                      "worker_count is %u: with a job system it must be 1..MF_MAX_WORKERS (%u)", c->worker_count,
                      (unsigned)MF_MAX_WORKERS);
    if (c->threads != 0 && c->threads != c->worker_count)
        return refuse(detail, capacity, MF_ERR_INVALID_ARGUMENT,
                      "threads is %u but worker_count is %u: with a job system threads must be 0 or worker_count",
                      c->threads, c->worker_count);
    return MF_OK;
}

mf_status mf_config_check(const mf_config *config, char *detail, uint32_t detail_capacity)
{
    if (detail != NULL && detail_capacity > 0) detail[0] = '\0';
    if (config == NULL) return refuse(detail, detail_capacity, MF_ERR_INVALID_ARGUMENT, "config is NULL");
    const mf_config *c = config;
    // Non-finite lengths first, as mf_context_create always refused them before the rest.
    if (!isfinite(c->margin)) return check_length("margin", c->margin, detail, detail_capacity);
    if (!isfinite(c->linear_slop)) return check_length("linear_slop", c->linear_slop, detail, detail_capacity);
    mf_status status = check_length("margin", c->margin, detail, detail_capacity);
    if (status == MF_OK) status = check_length("linear_slop", c->linear_slop, detail, detail_capacity);
    if (status != MF_OK) return status;
    if (c->max_contacts < 1 || c->max_contacts > MF_MAX_CONTACTS)
        return refuse(detail, detail_capacity, MF_ERR_INVALID_ARGUMENT,
                      "max_contacts is %u: it must be 1..MF_MAX_CONTACTS (%u)", c->max_contacts,
                      (unsigned)MF_MAX_CONTACTS);
    if ((unsigned)c->isa > MF_ISA_NEON)
        return refuse(detail, detail_capacity, MF_ERR_INVALID_ARGUMENT,
                      "isa is %d: it must be a value of mf_isa (MF_ISA_AUTO..MF_ISA_NEON)", (int)c->isa);
    status = check_job_system(c, detail, detail_capacity);
    if (status != MF_OK) return status;
    if ((unsigned)c->on_fault > MF_FAULT_SKIP)
        return refuse(detail, detail_capacity, MF_ERR_INVALID_ARGUMENT,
                      "on_fault is %d: it must be MF_FAULT_STOP or MF_FAULT_SKIP", (int)c->on_fault);
    if (!mf_isa_supported(c->isa))
        return refuse(detail, detail_capacity, MF_ERR_UNSUPPORTED_ISA,
                      "isa is %s: this CPU or build cannot run it (mf_isa_best() is %s)", mf_isa_name(c->isa),
                      mf_isa_name(mf_isa_best()));
    return MF_OK;
}

mf_status mf_context_create(const mf_config *config, mf_context **context)
{
    if (context == NULL) return MF_ERR_INVALID_ARGUMENT;
    *context = NULL;
    mf_config c = config != NULL ? *config : mf_config_default();
    mf_status checked = mf_config_check(&c, NULL, 0);
    if (checked != MF_OK) return checked;

    mf_context *created = calloc(1, sizeof(mf_context));
    if (created == NULL) return MF_ERR_OUT_OF_MEMORY;
    created->config = c;
    created->isa = c.isa == MF_ISA_AUTO ? mf_isa_best() : c.isa;
    created->kernel = mf_dispatch(created->isa);
    created->threads = 1;
    if (c.enqueue_task != NULL) {
        created->threads = c.worker_count; // the caller's job system: no pool
    } else if (c.threads != 1) {
        mf_status status = mf_pool_create(c.threads, &created->pool, &created->threads);
        if (status != MF_OK) {
            free(created);
            return status;
        }
        if (created->threads == 1) { // one core: no pool needed
            mf_pool_destroy(created->pool);
            created->pool = NULL;
        }
    }
    // Everything a call needs, allocated now: mf_collide itself never allocates.
    created->workers = calloc(created->threads, sizeof(mf_worker));
    created->staging = mf_staging_create(2 * created->threads * MF_CHUNKS_PER_THREAD, c.max_contacts);
    created->finished_count = (MF_STAGED_PER_WORKER + 1) * created->threads + 1;
    created->finished = calloc(created->finished_count, sizeof(mf_finished_chunk));
    int failed = created->workers == NULL || created->staging == NULL || created->finished == NULL;
    for (uint32_t i = 0; !failed && i < created->threads; ++i) {
        mf_worker *worker = &created->workers[i];
        worker->scratch = malloc(sizeof(mf_pair_scratch));
        worker->results = malloc(MF_CHUNK_PAIRS * sizeof(mf_pair_result));
        worker->answers = malloc(MF_CHUNK_PAIRS * sizeof(mf_pair_answer));
        worker->entries = malloc(MF_CHUNK_PAIRS * sizeof(mf_pair_cache));
        for (uint32_t k = 0; k < MF_STAGED_PER_WORKER; ++k) atomic_init(&worker->staged_pending[k], 0);
        failed =
            worker->scratch == NULL || worker->results == NULL || worker->answers == NULL || worker->entries == NULL;
        if (!failed && created->kernel->axes != NULL) {
            worker->wide = aligned_alloc(64, (sizeof(mf_wide_scratch) + 63) / 64 * 64);
            failed = worker->wide == NULL;
        }
    }
    if (failed) {
        mf_context_destroy(created);
        return MF_ERR_OUT_OF_MEMORY;
    }
    *context = created;
    return MF_OK;
}

void mf_context_destroy(mf_context *context)
{
    if (context == NULL) return;
    mf_pool_destroy(context->pool);
    for (uint32_t i = 0; context->workers != NULL && i < context->threads; ++i) {
        free(context->workers[i].scratch);
        free(context->workers[i].results);
        free(context->workers[i].answers);
        free(context->workers[i].entries);
        free(context->workers[i].wide);
    }
    free(context->workers);
    mf_staging_destroy(context->staging);
    free(context->finished);
    mf_broadphase_destroy(context->broadphase);
    free(context);
}

mf_isa mf_context_isa(const mf_context *context) { return context != NULL ? context->isa : MF_ISA_AUTO; }

uint32_t mf_context_threads(const mf_context *context) { return context != NULL ? context->threads : 0u; }

const char *mf_context_message(const mf_context *context) { return context != NULL ? context->message : "no context"; }
