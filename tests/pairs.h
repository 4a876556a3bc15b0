// Random pairs for the property and ISA tests: a function of (seed, index) alone, so any pair can
// be rebuilt on its own. Half the pairs have random orientations; the other half put a face of b
// against a face of a (resting contacts, many clip points), some tilted by a hair to exercise the
// axis bias. The gap along the approach direction is mostly overlapping, some within the margin,
// some beyond it.
#pragma once

#include "pool.h"

typedef enum test_category { TEST_PAIRS_BOX, TEST_PAIRS_HULL, TEST_PAIRS_MIXED } test_category;

// Pair `index` of the scene (category, seed): its shapes from the pool and its transforms.
void test_make_pair(const test_pool *pool, test_category category, uint64_t seed, uint32_t index, float margin,
                    uint32_t shape[2], mf_transform transform[2]);

// As test_make_pair for bodies scaled by scale[0] and scale[1] (mf_bodies.scales): each drawn
// log-uniformly from [low, high] (or now and then exactly 1) from its own stream of (seed, index),
// and the pair posed for the scaled sizes.
void test_make_scaled_pair(const test_pool *pool, test_category kind, uint64_t seed, uint32_t index, float margin,
                           float low, float high, uint32_t shape[2], mf_transform transform[2], float scale[2]);
