// ISA choice: which wide builds exist in this library and which the CPU can run.
#pragma once

#include "arc_cull.h"
#include "box_hull.h"
#include "chunk.h"
#include "extent_lanes.h"
#include "move_lanes.h"
#include "wide_pass.h"

// Box pairs run end to end in lanes (box_pass.h); the scalar path has a width-1 build of it.
struct mf_box_job;
typedef void mf_box_pairs_fn(struct mf_box_job *job);

// Kept manifolds carried to this step in lanes (reuse_pass.h).
struct mf_reuse_job;
typedef void mf_reuse_fn(struct mf_reuse_job *job);

typedef struct mf_wide_kernel {
    mf_wide_axes_fn *axes; // NULL for the scalar path
    mf_box_pairs_fn *boxes;
    mf_reuse_fn *reuse;
    mf_edge_kernel edge;      // lanes NULL for the scalar path
    mf_face_search_fn *faces; // per pair, for hulls beyond the wide limits
    mf_box_hull_kernel box_hull;
    mf_move_rows_fn *move_rows; // NULL: pair.c moves four vertices at a time
    mf_extent_kernel extent;    // a hull's extent along a direction, W vertices at a time
    mf_chunk_entries chunk;     // the router (chunk.h): the generic build's, or a tuning's own
    uint32_t width;
} mf_wide_kernel;

// Each ISA's table (kernel_table.c, compiled once per wide build); the scalar one is the width-1
// build's. mf_kernel_avx512_intel: AVX-512's hull stages, the router and the per-pair path tuned
// for Intel cores, its box-box stages the generic build's (kernel/meson.build).
extern const mf_wide_kernel mf_kernel_scalar, mf_kernel_sse, mf_kernel_avx2, mf_kernel_avx512, mf_kernel_avx512_intel,
    mf_kernel_neon;

// How an ISA's code was scheduled: for every core (generic), or for Intel's. A tuning changes the
// instruction choice and order, never an operation, so every tuning gives the same bytes.
typedef enum mf_tuning { MF_TUNING_GENERIC, MF_TUNING_INTEL, MF_TUNING_COUNT } mf_tuning;

// The table of an ISA the build has and the CPU runs, in the tuning this CPU takes, else the
// scalar one.
const mf_wide_kernel *mf_dispatch(mf_isa isa);

// The table of `isa` in `tuning` where this build has it and the CPU runs the ISA, else NULL: the
// tests run every tuning on any CPU.
const mf_wide_kernel *mf_dispatch_tuned(mf_isa isa, mf_tuning tuning);
