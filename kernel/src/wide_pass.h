// The wide pass: face and edge queries for a bundle of pairs, one pair per SIMD lane. The source
// wide_pass.c is compiled once per ISA; each build exports mf_wide_axes_<isa>.
#pragma once

#include "rows.h"
#include "sat.h"

#define MF_WIDE_MAX_WIDTH 16

// A hull's rows for the bundle: either one shape broadcast to every lane, or a table holding
// row r of lane l at [r * width + l], each lane padded to the bundle's counts.
typedef struct mf_bundle_hull {
    const float *rows;
    int broadcast;
    mf_rows counts;
} mf_bundle_hull;

// Pose components, each a row of `width` lanes: a's quaternion x y z w as the caller gave it (the
// wide pass normalises it as mf_quat_normalize) and position x y z, then b's; then a's scale and
// b's (scale.h).
enum { MF_POSE_ROWS = 16, MF_POSE_SCALE_A = 14, MF_POSE_SCALE_B = 15 };

typedef struct mf_bundle {
    mf_bundle_hull a, b;
    const float *pose; // [MF_POSE_ROWS][width]
    int projection;    // every lane pairs two parallelepipeds: project onto edge directions
    int scaled;        // some lane's body has a scale other than 1: the rows' lengths are scaled as loaded
} mf_bundle;

// Per lane: the queries' results and the transforms the clip pass reuses (b's vertices in a's
// frame stay in the work memory, rows [0, 3 * padded vertex count of b)).
typedef struct mf_bundle_axes {
    mf_face_query face_a[MF_WIDE_MAX_WIDTH];
    mf_face_query face_b[MF_WIDE_MAX_WIDTH];
    mf_edge_query edge[MF_WIDE_MAX_WIDTH];
    mf_mat3 rotation_a[MF_WIDE_MAX_WIDTH]; // a's rotation
    mf_mat3 rotation[MF_WIDE_MAX_WIDTH];   // b -> a
    mf_vec3 translation[MF_WIDE_MAX_WIDTH];
} mf_bundle_axes;

// Floats of work memory a bundle needs at most (both hulls' vertices, moved).
#define MF_WIDE_WORK_FLOATS (6 * MF_WIDE_MAX_VERTICES * MF_WIDE_MAX_WIDTH)

// The face queries of every lane, and for parallelepipeds the edge-direction axes (other hulls
// leave the edge results at -infinity: their edge query runs per lane after this pass).
typedef void mf_wide_axes_fn(const mf_bundle *bundle, float margin, float *work, mf_bundle_axes *axes);

mf_wide_axes_fn mf_wide_axes_sse, mf_wide_axes_avx2, mf_wide_axes_avx512, mf_wide_axes_avx512_intel, mf_wide_axes_neon;
