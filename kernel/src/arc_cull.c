// The arc cull (edge_cull.h: mf_arc_cull): W kept edges at a time, each bounded along its Gauss-map
// arc by the vertex of the other hull that the other's support map names. Every lane performs the
// same operations as the width-1 build, so every ISA keeps the same edges.
#include "arc_cull.h"

#include "record_lanes.h"
#include "rows.h"
#include "wide.h"

#include "support_map.h"

#include <stddef.h>

enum { W = MF_WIDE_WIDTH };
_Static_assert(MF_MAX_HULL_EDGES < (1 << 15), "edge indices fit mf_compress_u16w");

uint32_t MF_NAMED(mf_edge_arc_cull, MF_WIDE_NAME)(const mf_arc_cull *cull, uint16_t *edges, uint32_t count)
{
    const mf_mat3 *m = &cull->to_other;
    const mf_mat3w to_other = {{mf_splat3w(m->row[0]), mf_splat3w(m->row[1]), mf_splat3w(m->row[2])}};
    mf_vec3w point = mf_splat3w(cull->other_point);
    mf_floatw zero = mf_splatw(0.0f), reach = mf_splatw(cull->reach);
    uint32_t kept = 0;
    for (uint32_t first = 0; first < count; first += W) {
        // The list has zeros past its last edge: edge 0, masked off below.
        const float *record[W];
        mf_kept_recordsw(cull->records, edges + first, record);
        mf_vec3w n0 = mf_record_quantityw(record, MF_RECORD_NORMAL0),
                 n1 = mf_record_quantityw(record, MF_RECORD_NORMAL1);
        // The arc's ends turned round into the other's frame (the directions it supports there), and
        // the vertex its map names for the first.
        mf_vec3w end0 = mf_neg3w(mf_mat3_mulw(&to_other, n0));
        mf_vec3w end1 = mf_neg3w(mf_mat3_mulw(&to_other, n1));
        mf_vec3w y;
        mf_floatw vertex;
        mf_support_map_lookupw(cull->other_map, mf_support_map_cellw(end0), &y, &vertex);
        mf_vec3w from_point = mf_sub3w(y, point);
        mf_floatw other_gap = mf_maxw(zero, mf_minw(mf_dotw(end0, from_point), mf_dotw(end1, from_point)));
        mf_floatw gap = mf_gatherw(cull->gap, mf_u16_to_floatw(edges + first));
        mf_maskw in = mf_ltw(mf_lane_indexw(), mf_splatw((float)(count - first)));
        mf_maskw near = mf_andw(in, mf_lew(mf_addw(other_gap, gap), reach));
        // In place: kept <= first, so the store overwrites only entries already read.
        kept += mf_compress_u16w(edges + kept, mf_lane_bitsw(near), edges + first);
    }
    for (uint32_t k = kept; k < kept + MF_KEPT_EDGES_PAD; ++k) edges[k] = 0;
    return kept;
}
