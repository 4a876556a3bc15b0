// Binning: a chunk of pairs grouped into bundles of W lanes. Pairs of the same (shape a, shape b)
// fill uniform bundles whose hull rows are broadcast; the leftovers of one shape a fill a-uniform
// bundles (a's rows broadcast, b's per lane); the rest share mixed bundles whose lanes carry their
// own rows, padded to the bundle's largest counts.
#pragma once

#include "pair_result.h"
#include "wide_pass.h"

typedef enum mf_bundle_kind {
    MF_BUNDLE_MIXED,     // every lane its own rows
    MF_BUNDLE_UNIFORM,   // one shape pair: both hulls broadcast
    MF_BUNDLE_UNIFORM_A, // one shape a: a broadcast, b's rows per lane
} mf_bundle_kind;

typedef struct mf_bundle_plan {
    uint32_t first;      // into mf_bins.order
    uint32_t lanes;      // live lanes, 1..width
    uint32_t kind;       // mf_bundle_kind: which hulls' rows are broadcast
    uint32_t projection; // every lane pairs two parallelepipeds
} mf_bundle_plan;

typedef struct mf_bins {
    uint32_t order[MF_CHUNK_PAIRS]; // chunk-relative pair indices, bundle after bundle
    mf_bundle_plan bundles[MF_CHUNK_PAIRS];
    uint32_t bundle_count;
    uint32_t scalar[MF_CHUNK_PAIRS]; // per pair: box-hull pairs, then those with a hull beyond the bundles' limits
    uint32_t scalar_count;
    // grouping work space
    uint64_t slot_key[2 * MF_CHUNK_PAIRS];
    uint32_t slot_group[2 * MF_CHUNK_PAIRS];
    uint32_t group_count[MF_CHUNK_PAIRS], group_placed[MF_CHUNK_PAIRS], group_projection[MF_CHUNK_PAIRS];
    uint32_t group_uniform_at[MF_CHUNK_PAIRS], group_mixed_at[MF_CHUNK_PAIRS];
    uint32_t pair_group[MF_CHUNK_PAIRS];
    uint16_t group_cost[MF_CHUNK_PAIRS]; // the face queries' cost, a proxy of the lanes' padding
    uint32_t group_by_cost[MF_CHUNK_PAIRS], group_sort_scratch[MF_CHUNK_PAIRS];
    // the groups by shape a (classes): their table, each group's class, its a-uniform lanes' count
    // and place, each class's leftovers (then its a-uniform count) and place
    uint64_t class_key[2 * MF_CHUNK_PAIRS];
    uint32_t class_slot[2 * MF_CHUNK_PAIRS];
    uint32_t group_class[MF_CHUNK_PAIRS], group_a_count[MF_CHUNK_PAIRS], group_a_at[MF_CHUNK_PAIRS];
    uint32_t class_count[MF_CHUNK_PAIRS], class_at[MF_CHUNK_PAIRS];
} mf_bins;

// Bins pairs[subset[i]] for i < count (count <= MF_CHUNK_PAIRS; subset NULL: pairs[0, count))
// into bundles of `width` lanes. order[] holds indices into pairs.
void mf_bin_pairs(const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs, const uint32_t *subset,
                  uint32_t count, uint32_t width, mf_bins *bins);

// Work memory of one bundle's assembly.
typedef struct mf_bundle_tables {
    _Alignas(64) float a[MF_WIDE_MAX_ROWS * MF_WIDE_MAX_WIDTH];
    _Alignas(64) float b[MF_WIDE_MAX_ROWS * MF_WIDE_MAX_WIDTH];
    _Alignas(64) float pose[MF_POSE_ROWS * MF_WIDE_MAX_WIDTH];
} mf_bundle_tables;

// Assembles a bundle's hull rows and poses; lanes past plan->lanes repeat the first lane.
mf_bundle mf_bundle_assemble(const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs, const mf_bins *bins,
                             const mf_bundle_plan *plan, uint32_t width, mf_bundle_tables *tables);
