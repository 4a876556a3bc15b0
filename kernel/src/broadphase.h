// The broad phase (mf_find_pairs): every pair of bodies whose world boxes, grown by the margin,
// overlap. Its working memory lives in the context, grown to the largest call so far.
#pragma once

#include "manyfold.h"

typedef struct mf_broadphase mf_broadphase;

// Frees the broad phase's working memory (NULL is fine).
void mf_broadphase_destroy(mf_broadphase *broadphase);
