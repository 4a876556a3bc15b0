// Per-body scale (mf_bodies.scales): the scales a shape takes, and its geometry as a scaled body
// sees it.
//
// How scale runs through the kernel: a body of scale s is its shape with every length times s
// (vertices, plane offsets, radii, centroid, box half extents, bounds); directions (face normals,
// edge directions) and topology, hence feature ids, stay. Each scaled length is the bank's float
// times s, one IEEE multiplication, wherever it is formed:
// - the per-pair path reads a scaled copy of the shape (mf_scaled_hull_of), made in the worker's
//   scratch for the pair, so every query, clip and cache re-test reads it as it reads a bank view;
// - the wide pass multiplies its rows by each lane's scale as it loads them (wide_pass.c), the box
//   pass its half extents (box_pass.c), the reuse pass its radius and half extents (reuse_pass.c),
//   the broad phase its bounds (broadphase.c) and the near-miss test its radii and extents (pair.c).
// So every path sees the same floats and every ISA gives the same bytes, and a scale of exactly 1
// changes nothing: x * 1 is x, and a scale of 1 takes the bank's own view, not a copy (mf_body_hull).
#pragma once

#include "support_map.h"

#include "bank.h"
#include "rows.h"

#include <stddef.h>

// Body `body`'s scale: 1 without scales.
static inline float mf_body_scale(const mf_bodies *bodies, uint32_t body)
{
    return bodies->scales != NULL ? bodies->scales[body] : 1.0f;
}

// Whether a body of the shape may have this scale (mf_shape.scale_low, scale_high); NaN may not.
static inline int mf_scale_fits(const mf_shape *shape, float scale)
{
    return scale >= shape->scale_low && scale <= shape->scale_high;
}

// The scales of a shape whose largest |coordinate| is `extent` and whose volume is `volume`: those
// that keep its coordinates within MF_MAX_LENGTH and its volume at least FLT_MIN, as the bank asks
// of every shape (1 always among them).
void mf_scale_limits(float extent, float volume, float *low, float *high);

// The shape's lengths times `scale` (radii, centroid, bounds, half extents, volume by its cube).
mf_shape mf_shape_scaled(const mf_shape *shape, float scale);

// Edge rows and records a scaled copy holds at most: those of the largest hull the bank takes
// (every hull keeps its edge rows, bank.c).
#define MF_SCALED_EDGE_FLOATS                                                                                          \
    (MF_EDGE_ROWS * ((MF_MAX_HULL_EDGES + MF_EDGE_LANES - 1) / MF_EDGE_LANES * MF_EDGE_LANES) +                        \
     MF_EDGE_RECORD * MF_MAX_HULL_EDGES)

// Room for one scaled shape: its view, whose vertices, offsets, edge rows (vertex0 scaled) and shape
// point in here, the rest (normals, directions, loops, edges, fans) into the bank. Each array has
// MF_BANK_PAD zeros past its shape's last entry, as the bank's arrays have room past theirs.
typedef struct mf_scaled_hull {
    mf_hull_view view;
    mf_shape shape;
    float vertex_x[MF_MAX_HULL_VERTICES + MF_BANK_PAD];
    float vertex_y[MF_MAX_HULL_VERTICES + MF_BANK_PAD];
    float vertex_z[MF_MAX_HULL_VERTICES + MF_BANK_PAD];
    float offset[MF_MAX_HULL_FACES + MF_BANK_PAD];
    float edge_rows[MF_SCALED_EDGE_FLOATS];
    float support_map[MF_SUPPORT_MAP_ENTRY * MF_SUPPORT_MAP_CELLS]; // a large hull's, its points scaled
} mf_scaled_hull;

// A scaled copy of the shape for a body of scale `scale` (not 1: mf_body_hull takes the bank's own
// view for exactly 1), written into `room` (valid while room is not written again).
const mf_hull_view *mf_scaled_hull_of(const mf_bank *bank, uint32_t shape, float scale, mf_scaled_hull *room);

// The view of a pair's body: its shape at its scale.
static inline const mf_hull_view *mf_body_hull(const mf_bank *bank, const mf_bodies *bodies, uint32_t body,
                                               mf_scaled_hull *room)
{
    float scale = mf_body_scale(bodies, body);
    if (scale == 1.0f) return mf_bank_hull(bank, bodies->shape[body]); // most bodies: no call
    return mf_scaled_hull_of(bank, bodies->shape[body], scale, room);
}
