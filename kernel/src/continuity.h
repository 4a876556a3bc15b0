// Contact continuity: a pair's new contacts held against the manifold its previous cache entry
// kept, so that contacts keep their ids and do not come and go with the float noise of small
// motions. Part of the cache layer (cache.c writes the entries): it reads entries and changes a
// result, and knows nothing of the stages that made them.
#pragma once

#include "pair_result.h"
#include "vec.h"

// Continuity with the previous entry's kept manifold, where the new clip has the kept normal
// (within 2.5 degrees), the kept contacts carried with the bodies to now:
// - Names: a new contact within a quarter of the slop of a kept one takes the kept one's id. Where
//   features tie (a corner on a corner or an edge), the clip names a point by whichever feature
//   the float noise favours; the point, not the name, is what persists.
// - Entry: a new contact that no kept one names comes in only a slop inside the margin (the deepest
//   always does), as kept ones leave only a slop past it: a corner at the margin does not come
//   and go as the bodies jitter, nor appear whenever a reused manifold is clipped again.
// - Persistence: kept contacts the clip left out stay, as reuse keeps them (reuse_pass.c), where
//   they sit less than the slop past the margin, no deeper than half the slop below the clip's
//   deepest (which attains the best axis), and their two points have slid along each other by
//   under the slop. A contact at the margin does not come and go with every jitter, nor one of two
//   nearly coincident points (a short edge, a corner on a corner) with whichever the clip and the
//   reduction happen to keep. They fill the room max_contacts leaves; a full result gives up new
//   contacts that carry no kept id for them (never its deepest): the reduction would otherwise
//   alternate between sets of about equal worth as the poses jitter.
// `previous`: the pair's entry as the call found it (NULL: none); `now`: the new entry as far as
// it is made (its bodies and pose: the kept contacts are carried to that pose); the result in
// world space, a's pose given by rotation_a and position_a. The previous entry may be the one the
// new entry will overwrite: it is read here, before that.
void mf_continue_manifold(const mf_config *config, const mf_pair_cache *previous, const mf_pair_cache *now,
                          const mf_mat3 *rotation_a, mf_vec3 position_a, mf_pair_result *result);
