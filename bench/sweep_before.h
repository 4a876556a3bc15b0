// The tools' broad phase before mf_find_pairs (tools/scene/scene_broadphase.c until #33), kept
// as it was: one thread, qsort. The benchmarks measure mf_find_pairs against it
// (find_pairs/heap/<bodies>/sweep_before) and the tests check that both find the same pairs.
#pragma once

#include "manyfold.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sweep_before sweep_before;

// Reads the shapes' local bounds from the bank once; NULL when out of memory.
sweep_before *sweep_before_create(const mf_bank *bank);
void sweep_before_destroy(sweep_before *broadphase);

// Pairs (a < b), sorted by a then b, so the output does not depend on the sweep. *pairs stays
// valid until the next call. MF_ERR_INVALID_ARGUMENT for a body whose shape the bank lacks,
// MF_ERR_OUT_OF_MEMORY when the boxes, the grid or the pairs do not fit.
mf_status sweep_before_find_pairs(sweep_before *broadphase, const mf_bodies *bodies, float margin,
                                  const mf_pair **pairs, uint32_t *pair_count);

#ifdef __cplusplus
}
#endif
