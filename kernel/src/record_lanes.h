// Edge records (rows.h: MF_EDGE_RECORD) in lanes, for the code built per ISA that reads W kept
// edges at a time: the query in lanes (edge_lanes.c), the arc cull and the support cull.
#pragma once

#include "rows.h"
#include "wide.h"

#include <stddef.h>

// A record's quantities, four floats each (x, y, z and a zero).
enum { MF_RECORD_NORMAL0, MF_RECORD_NORMAL1, MF_RECORD_DIRECTION, MF_RECORD_VERTEX0 };

// The records of a kept list's entries edges[0 .. W - 1] (the list's zero padding names edge 0).
static inline void mf_kept_recordsw(const float *records, const uint16_t *edges, const float *record[MF_WIDE_WIDTH])
{
    for (uint32_t l = 0; l < MF_WIDE_WIDTH; ++l) record[l] = records + (size_t)MF_EDGE_RECORD * edges[l];
}

// Quantity q of W records, lane l's from record[l], in lanes (the records' zeros dropped).
static inline mf_vec3w mf_record_quantityw(const float *const record[MF_WIDE_WIDTH], uint32_t q)
{
    const float *at[MF_WIDE_WIDTH];
    for (uint32_t l = 0; l < MF_WIDE_WIDTH; ++l) at[l] = record[l] + 4 * q;
    mf_floatw column[4];
    mf_load_columns4w(at, column);
    return (mf_vec3w){column[0], column[1], column[2]};
}
