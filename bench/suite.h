// The benchmark suite: collide/<scene>/<impl> for every scene, manyfold ISA and peer.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

// Builds the scenes and registers their benchmarks; non-zero (after a message) on failure.
int bench_suite_register(void);

// Frees the scenes and whatever the peers still hold.
void bench_suite_release(void);

#ifdef __cplusplus
}
#endif
