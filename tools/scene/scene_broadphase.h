// The broad phase of the tools: sort-and-sweep over world bounding boxes, giving every pair of
// bodies whose boxes, grown by the margin, overlap. The command line runs it on its scenes every
// step; the tests hold it against brute force on generated scenes.
#pragma once

#include "manyfold.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct scene_broadphase scene_broadphase;

// Reads the shapes' local bounds from the bank once; NULL when out of memory.
scene_broadphase *scene_broadphase_create(const mf_bank *bank);
void scene_broadphase_destroy(scene_broadphase *broadphase);

// Pairs (a < b), sorted by a then b, so the output does not depend on the sweep. *pairs stays
// valid until the next call. MF_ERR_INVALID_ARGUMENT for a body whose shape the bank lacks,
// MF_ERR_OUT_OF_MEMORY when the boxes, the grid or the pairs do not fit.
mf_status scene_broadphase_find_pairs(scene_broadphase *broadphase, const mf_bodies *bodies, float margin,
                                      const mf_pair **pairs, uint32_t *pair_count);

#ifdef __cplusplus
}
#endif
