// Temporal coherence: a pair's last contact axis, re-tested before any search (Gregorius, GDC 2013,
// SAT caching), with a bound on how far the bodies moved since so that skipping the search stays
// within the linear slop; its last manifold, kept for reuse (reuse_pass.h) and for continuity of
// ids and of the axis when it is clipped again.
#pragma once

#include "context.h"

// The entry after a full search: the axis that gave the contacts (`used`, with the pair's result,
// whose contacts bound its distance and are kept for reuse), or for a pair without a manifold
// (used NULL) the axis that separates most. Contacts of the previous entry (result->previous) that
// the new clip left out join the result while they stay close (continue_manifold, persistence).
void mf_cache_store(const mf_config *config, const mf_bank *bank, mf_pair_cache *entry, const mf_bodies *bodies,
                    mf_pair pair, const mf_axis_candidates *candidates, const mf_axis *used, mf_pair_result *result);

// The axis of the entry's kept manifold, if the entry belongs to the pair's shapes (the same adds
// of the bank) at its scales and keeps one.
int mf_cache_kept_axis(const mf_pair_cache *entry, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                       mf_axis *axis);

// A cached axis in the current pose: its normal (edges) and separation. 0 if it has become
// ill-defined (edges turned parallel).
int mf_cache_evaluate_axis(const mf_pair_frame *frame, int projection, mf_axis *axis);

// Whether the entry keeps a manifold the reuse pass (reuse_pass.h) may carry to this step.
int mf_cache_keeps_manifold(const mf_config *config, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                            const mf_pair_cache *entry);

// Answers the pair from its entry, other than by reuse, when that is safe: 1 with `result` (and its new entry) filled,
// 0 when the pair needs the full search.
int mf_cache_answer(const mf_config *config, mf_pair_scratch *scratch, const mf_bank *bank, const mf_bodies *bodies,
                    mf_pair pair, const mf_pair_cache *entry, mf_pair_result *result);
