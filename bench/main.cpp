// The benchmark program: registers every scene and implementation (bench/suite.c), runs the ones
// the command line selects, and exits non-zero if any failed (not merely skipped).
#include "failures.h"
#include "suite.h"

#include <benchmark/benchmark.h>

int main(int argc, char **argv)
{
    if (bench_suite_register() != 0) return 2;
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    bench_suite_release();
    return bench_failure_count() > 0 ? 1 : 0;
}
