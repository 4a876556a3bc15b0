// Row layout of a hull for the wide pass: every quantity the queries read, one row each, so a
// bundle's table holds row r of lane l at [r * width + l]. Shapes within the wide limits keep
// their rows in the bank; a bundle pads each lane to the bundle's largest counts.
#pragma once

#include <stdint.h>

// Hulls up to these sizes keep rows for the wide pass (bundles take those up to
// MF_BUNDLE_MAX_VERTICES, below). Every hull, whatever its size, keeps edge rows and records for
// the cull and the edge query in lanes (below), which tries at most MF_WIDE_MAX_EDGES of b's edges.
#define MF_WIDE_MAX_VERTICES 64
#define MF_WIDE_MAX_FACES 128
#define MF_WIDE_MAX_EDGES 192

typedef struct mf_rows {
    uint32_t vertices, faces;
} mf_rows;

// Parallelepipeds (boxes) also keep their three edge directions: 3 components x 3 directions,
// zero for other hulls.
#define MF_DIRECTION_ROWS 9

static inline uint32_t mf_rows_total(mf_rows r) { return 3 * r.vertices + 4 * r.faces + MF_DIRECTION_ROWS; }
// component 0..2: x, y, z
static inline uint32_t mf_row_vertex(mf_rows r, uint32_t component, uint32_t v) { return component * r.vertices + v; }
// component 0..2: normal x, y, z; 3: offset
static inline uint32_t mf_row_face(mf_rows r, uint32_t component, uint32_t f)
{
    return 3 * r.vertices + component * r.faces + f;
}

static inline uint32_t mf_row_direction(mf_rows r, uint32_t component, uint32_t direction)
{
    return 3 * r.vertices + 4 * r.faces + 3 * component + direction;
}

#define MF_WIDE_MAX_ROWS (3 * MF_WIDE_MAX_VERTICES + 4 * MF_WIDE_MAX_FACES + MF_DIRECTION_ROWS)

// Pairs of hulls up to this many vertices (boxes, 16-point rocks) are bundled; pairs with a larger
// hull go per pair. Measured with bundles up to 16, 24, 32 and 64 vertices (one run each, AVX-512):
// nearmiss 10.4, 11.0, 11.1 and 13.0 ms, pile_step 26.0, 25.9, 26.2 and 29.1 ms, hull16, hull48
// and crowd within their noise.
#define MF_BUNDLE_MAX_VERTICES 16u
// A convex polyhedron has at most 2 V - 4 faces (Euler).
#define MF_BUNDLE_MAX_FACES (2u * MF_BUNDLE_MAX_VERTICES - 4u)

// A bundled hull also keeps its bundle rows padded to those limits, the image a mixed bundle's
// lane copies without looking at its counts: vertices padded with vertex 0 (it changes no
// support), faces with zero normals and infinite offsets (they never separate), the direction
// rows with zeros. Four rows at a time stay within each component.
#define MF_IMAGE_DIRECTIONS 12u
#define MF_IMAGE_FLOATS (3u * MF_BUNDLE_MAX_VERTICES + 4u * MF_BUNDLE_MAX_FACES + MF_IMAGE_DIRECTIONS)
_Static_assert(MF_BUNDLE_MAX_VERTICES % 4 == 0 && MF_BUNDLE_MAX_FACES % 4 == 0, "images copy four rows at a time");

static inline uint32_t mf_image_vertex(uint32_t component) { return component * MF_BUNDLE_MAX_VERTICES; }
static inline uint32_t mf_image_face(uint32_t component)
{
    return 3 * MF_BUNDLE_MAX_VERTICES + component * MF_BUNDLE_MAX_FACES;
}
static inline uint32_t mf_image_directions(void) { return 3 * MF_BUNDLE_MAX_VERTICES + 4 * MF_BUNDLE_MAX_FACES; }

// After its bundle rows, a shape keeps its edges' rows for the cull's gaps (mf_edge_gaps in lanes):
// normal0, normal1 and vertex0, 3 components each, each component padded to a multiple of
// MF_EDGE_LANES with zeros.
#define MF_EDGE_ROWS 9
#define MF_EDGE_LANES 16

// Then per edge a record (MF_EDGE_RECORD floats) for the edge query in lanes, which runs per pair
// across one hull's kept edges: normal0, normal1, unit direction and vertex0, each x, y, z and a
// zero. Four records load as four vectors per quantity, transposed.
#define MF_EDGE_RECORD 16

static inline uint32_t mf_edge_rows_padded(uint32_t edges)
{
    return (edges + MF_EDGE_LANES - 1) / MF_EDGE_LANES * MF_EDGE_LANES;
}

// Every shape keeps its vertex fans (bank.h) as rows for the Gauss-map walk (edge_walk.c), which
// tests all the edges around a vertex at once: per fan entry its edge's normal0, normal1 and unit
// direction, 3 components each. Each row has MF_FAN_PAD entries more than the shape has fan
// entries, zeros, so that a full register loaded at the last fan stays within the rows.
#define MF_FAN_ROWS 9
#define MF_FAN_PAD 16

static inline uint32_t mf_fan_stride(uint32_t fan_entries) { return fan_entries + MF_FAN_PAD; }
