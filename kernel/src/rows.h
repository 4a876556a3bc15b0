// Row layout of a hull for the wide pass: every quantity the queries read, one row each, so a
// bundle's table holds row r of lane l at [r * width + l]. Shapes within the wide limits keep
// their rows in the bank; a bundle pads each lane to the bundle's largest counts.
#pragma once

#include <stdint.h>

// Hulls up to these sizes run in the wide pass; larger ones take the scalar path per pair, which
// computes the same result.
#define MF_WIDE_MAX_VERTICES 64
#define MF_WIDE_MAX_FACES 128
#define MF_WIDE_MAX_EDGES 192

// Per edge: normal0 (3), normal1 (3), unit direction (3), vertex0 (3).
#define MF_EDGE_ROWS 12

typedef struct mf_rows {
    uint32_t vertices, faces, edges;
} mf_rows;

// Parallelepipeds (boxes) also keep their three edge directions: 3 components x 3 directions,
// zero for other hulls.
#define MF_DIRECTION_ROWS 9

static inline uint32_t mf_rows_total(mf_rows r)
{
    return 3 * r.vertices + 4 * r.faces + MF_EDGE_ROWS * r.edges + MF_DIRECTION_ROWS;
}
// component 0..2: x, y, z
static inline uint32_t mf_row_vertex(mf_rows r, uint32_t component, uint32_t v) { return component * r.vertices + v; }
// component 0..2: normal x, y, z; 3: offset
static inline uint32_t mf_row_face(mf_rows r, uint32_t component, uint32_t f)
{
    return 3 * r.vertices + component * r.faces + f;
}
static inline uint32_t mf_row_edge(mf_rows r, uint32_t component, uint32_t e)
{
    return 3 * r.vertices + 4 * r.faces + component * r.edges + e;
}

static inline uint32_t mf_row_direction(mf_rows r, uint32_t component, uint32_t direction)
{
    return 3 * r.vertices + 4 * r.faces + MF_EDGE_ROWS * r.edges + 3 * component + direction;
}

#define MF_WIDE_MAX_ROWS                                                                                               \
    (3 * MF_WIDE_MAX_VERTICES + 4 * MF_WIDE_MAX_FACES + MF_EDGE_ROWS * MF_WIDE_MAX_EDGES + MF_DIRECTION_ROWS)
