// A C face for Google Benchmark: benchmark bodies are plain C functions that run their own timed
// loop through bench_keep_running and report through counters.
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_state bench_state;

// One run of a benchmark: set up, loop while bench_keep_running, report, clean up. Only the loop
// is timed; the body may be called several times (calibration, repetitions).
typedef void (*bench_function)(bench_state *state, void *context);

// Registers a benchmark under `name` (copied). items_per_second is pairs_per_iteration times the
// iterations over wall-clock time, so multi-threaded bodies are measured fairly.
void bench_register(const char *name, bench_function function, void *context, uint64_t pairs_per_iteration);

// As bench_register, with the body run on `copies` threads at once, each its own State and loop of
// the same iteration count. Google Benchmark divides all their pairs by the mean of the threads'
// timed spans, not the longest: where one copy runs slower, a little more than the copies
// sustained together.
void bench_register_copies(const char *name, bench_function function, void *context, uint64_t pairs_per_iteration,
                           uint32_t copies);

int bench_keep_running(bench_state *state);

// Stops the clock inside the loop around work that is not measured (resetting a cache), and
// starts it again. Costs a microsecond or so: for iterations of milliseconds only.
void bench_pause_timing(bench_state *state);
void bench_resume_timing(bench_state *state);

// A counter in the results (for example contacts per pair); where copies run, their average.
void bench_counter(bench_state *state, const char *name, double value);

// Ends the benchmark with a message, for what is expected on some machines (an ISA this CPU or
// build lacks). Call before the loop, or inside it and then leave it.
void bench_skip(bench_state *state, const char *message);

// Like bench_skip, but for what should never happen (a library error): the program then exits
// non-zero, so the smoke test notices.
void bench_fail(bench_state *state, const char *message);

// Adds a key and value to the "context" block of the JSON output.
void bench_context(const char *key, const char *value);

#ifdef __cplusplus
}
#endif
