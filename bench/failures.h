// How many benchmarks failed (bench_fail) in this process: main's exit status.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

int bench_failure_count(void);

#ifdef __cplusplus
}
#endif
