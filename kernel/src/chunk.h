// One chunk of pairs on one worker: the cache's quick answers first, then the wide pass (or the
// scalar path) for the rest, every result into the chunk's slot.
#pragma once

#include "context.h"

// cache: NULL, or the entries of these pairs (read only; new entries go into the results). Pairs
// are collided with the lower body index as a; (b, a) gets the exact mirror of (a, b).
void mf_collide_chunk(const mf_context *context, mf_worker *worker, const mf_bank *bank, const mf_bodies *bodies,
                      const mf_pair *pairs, uint32_t count, const mf_pair_cache *cache, mf_pair_result *results);
