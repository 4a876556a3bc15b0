// The command line's own broad phase (the library only takes pairs): sort-and-sweep over world
// bounding boxes, giving every pair of bodies whose boxes, grown by the margin, overlap.
#pragma once

#include "cli_error.h"
#include "manyfold.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct broadphase broadphase;

// Reads the shapes' local bounds from the bank once; NULL when out of memory.
broadphase *broadphase_create(const mf_bank *bank);
void broadphase_destroy(broadphase *broadphase);

// Pairs (a < b), sorted by a then b, so the output does not depend on the sweep. *pairs stays
// valid until the next call.
bool broadphase_find_pairs(broadphase *broadphase, const mf_bodies *bodies, float margin, const mf_pair **pairs,
                           uint32_t *pair_count, cli_error *error);
