// Temporal coherence: a pair's last contact axis, re-tested before any search (Gregorius, GDC 2013,
// SAT caching), with a bound on how far the bodies moved since so that skipping the search stays
// within the linear slop; its last manifold, kept for reuse (reuse_pass.h) and for continuity of
// ids and of the axis when it is clipped again (continuity.h).
//
// The cache is a layer below the router (chunk.c): it knows entries (their axis' encoding, the
// bounds, the pose change, continuity, the kept contacts) and never calls a stage. The router asks
// it what an entry tells of a pair, runs the stages with what it tells (the kept axis and normal),
// and has it write every new entry of the chunk from the stages' answers (pair_answer.h) in one
// pass after them.
#pragma once

#include "pair_answer.h"
#include "pair_result.h"

// The axis and normal (in a's frame) of the entry's kept manifold, if the entry belongs to the
// pair's shapes (the same adds of the bank) at its scales and keeps one: the search prefers that
// axis while it holds (pair.h, hysteresis).
int mf_cache_kept_axis(const mf_pair_cache *entry, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                       mf_axis *axis, mf_vec3 *normal);

// Whether the entry keeps a manifold the reuse pass (reuse_pass.h) may carry to this step.
int mf_cache_keeps_manifold(const mf_config *config, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                            const mf_pair_cache *entry);

// What an entry tells of its pair, other than by reuse, from the poses alone.
typedef enum mf_cache_hint {
    MF_CACHE_NOTHING, // the pair needs the search
    MF_CACHE_APART,   // the pair is apart (answer: MF_ANSWER_STILL_APART)
    // The kept axis (answer->axis, decoded) is to be measured again (mf_measure_axis): apart where
    // it separates by the margin (MF_ANSWER_APART), else clipped (MF_ANSWER_CLIPPED) where it
    // serves (mf_cache_axis_serves) and its contacts attain its separation; else the search.
    MF_CACHE_RETEST,
} mf_cache_hint;

// What the entry tells (above), and the pair's answer as far as the entry makes it: its kind, the
// kept axis, the distance bound carried to now and the pose now.
mf_cache_hint mf_cache_recall(const mf_config *config, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                              const mf_pair_cache *entry, mf_pair_answer *answer);

// Whether the kept axis, measured again (answer->axis.separation), is still within the slop of the
// best axis: the best lies at most at the entry's distance bound carried to now (answer->best).
int mf_cache_axis_serves(const mf_config *config, const mf_pair_answer *answer);

// Writes the pair's new entry from its answer and result: `previous` is the entry as the call
// found it, `entry` where the new one goes, which may be `previous` itself (read first, then
// overwritten). A searched pair with contacts and a clipped one have them continued from the
// previous entry's (continuity.h), which may change the result, and then kept.
void mf_cache_write(const mf_config *config, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                    const mf_pair_cache *previous, const mf_pair_answer *answer, mf_pair_result *result,
                    mf_pair_cache *entry);
