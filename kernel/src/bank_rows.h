// The rows a shape keeps for the code that reads lanes, in the bank's float rows, one block after
// another: its wide rows (rows.h) where the hull is within the wide limits, its edge rows and
// records and its fan rows (every hull), its bundle image where it is bundled, its support map
// (support_map.h) where it is too large for the wide pass. Also the vertices' fans, which share the
// loops' range. All are written from the shape's stored arrays once it is counted in (bank.c).
#pragma once

#include "bank.h"

// The blocks of one shape's rows, in floats, in the order they sit.
typedef struct mf_row_blocks {
    int wide;    // within the wide limits: wide rows, no support map
    int bundled; // within the bundle limits too: an image
    uint32_t wide_rows, edge_rows, fan_rows, image_rows, map_rows;
    uint32_t total;
} mf_row_blocks;

// The blocks of a closed hull with these counts.
mf_row_blocks mf_row_blocks_of(uint32_t vertex_count, uint32_t face_count, uint32_t edge_count, uint32_t loop_count);

// Sets the shape's offsets of its blocks (bank.h: rows_first, edge_rows_first, ...) for blocks that
// begin at row `first`; UINT32_MAX for the blocks it has not.
void mf_place_row_blocks(mf_shape *shape, const mf_row_blocks *blocks, uint32_t first);

// Writes a shape's fans and every block of its rows, with the same float operations the scalar
// queries perform, so every path sees identical values. The shape is counted in and its
// parallelepiped directions are set (the rows keep them).
void mf_bank_write_rows(mf_bank *bank, uint32_t shape);
