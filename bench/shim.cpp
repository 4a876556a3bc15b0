// The C shim over Google Benchmark (see shim.h).
#include "shim.h"

#include "failures.h"

#include <benchmark/benchmark.h>

#include <atomic>

struct bench_state {
    benchmark::State &state;
};

// Copies of a body (bench_register_copies) may fail at once.
static std::atomic<int> failures{0};

int bench_failure_count(void) { return failures.load(); }

static benchmark::internal::Benchmark *register_body(const char *name, bench_function function, void *context,
                                                     uint64_t pairs_per_iteration)
{
    return benchmark::RegisterBenchmark(name,
                                        [=](benchmark::State &state) {
                                            bench_state wrapped{state};
                                            function(&wrapped, context);
                                            state.SetItemsProcessed(state.iterations() *
                                                                    static_cast<int64_t>(pairs_per_iteration));
                                        })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
}

void bench_register(const char *name, bench_function function, void *context, uint64_t pairs_per_iteration)
{
    register_body(name, function, context, pairs_per_iteration);
}

void bench_register_copies(const char *name, bench_function function, void *context, uint64_t pairs_per_iteration,
                           uint32_t copies)
{
    register_body(name, function, context, pairs_per_iteration)->Threads(static_cast<int>(copies));
}

int bench_keep_running(bench_state *state) { return state->state.KeepRunning(); }

void bench_pause_timing(bench_state *state) { state->state.PauseTiming(); }

void bench_resume_timing(bench_state *state) { state->state.ResumeTiming(); }

// Averaged over a run's threads: each copy (bench_register_copies) reports its own call's values.
void bench_counter(bench_state *state, const char *name, double value)
{
    state->state.counters[name] = benchmark::Counter(value, benchmark::Counter::kAvgThreads);
}

void bench_skip(bench_state *state, const char *message) { state->state.SkipWithError(message); }

void bench_fail(bench_state *state, const char *message)
{
    ++failures;
    state->state.SkipWithError(message);
}

void bench_context(const char *key, const char *value) { benchmark::AddCustomContext(key, value); }
