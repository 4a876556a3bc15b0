// The broad phase of the tools: the library's mf_find_pairs with an array that grows to fit, so
// the command line, the engines and the tests ask for a step's pairs in one call.
#pragma once

#include "manyfold.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct scene_broadphase scene_broadphase;

// For bodies of this bank; NULL when out of memory.
scene_broadphase *scene_broadphase_create(const mf_bank *bank);
void scene_broadphase_destroy(scene_broadphase *broadphase);

// Pairs (a < b), sorted by a then b: mf_find_pairs on the context's threads. *pairs stays valid
// until the next call. mf_find_pairs' errors (MF_ERR_INVALID_ARGUMENT for a body whose shape the
// bank lacks; the context's message says which).
mf_status scene_broadphase_find_pairs(scene_broadphase *broadphase, mf_context *context, const mf_bodies *bodies,
                                      float margin, const mf_pair **pairs, uint32_t *pair_count);

#ifdef __cplusplus
}
#endif
