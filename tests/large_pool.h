// A pool of large hulls for the tests of the large-hull path: every hull beyond the wide limits
// (rows.h), so each keeps a support map (kernel/src/support_map.h).
#pragma once

#include "pool.h"

// `box_count` boxes as test_pool_make makes them, then the hulls: the Stanford bunny's (319
// vertices, centred and scaled to radius 1 as the bench's hull_bunny scene makes it), rocks and
// round clouds of 128 and 256 points, and a cloud of 400 stretched to a cigar.
mf_status test_large_pool_make(uint64_t seed, uint32_t box_count, test_pool *pool);
