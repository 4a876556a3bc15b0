// The support cull (edge_cull.h: mf_support_cull): W of a's kept edges at a time, each bounded
// along its Gauss-map arc by the two vertices of b that are least along the arc's ends. Every lane
// performs the same operations as the width-1 build, so every ISA keeps the same edges.
#include "support_cull.h"

#include "core.h"
#include "record_lanes.h"
#include "rows.h"
#include "wide.h"

#include <stddef.h>
#include <string.h>

enum { W = MF_WIDE_WIDTH };
_Static_assert(MF_MAX_HULL_EDGES < (1 << 15), "edge indices fit mf_compress_u16w");

// The greatest value of the lower of two sinusoids along an arc, where that is below zero. The
// first runs from a0 at the arc's end 0 to b0 at end 1, the second from a1 to b1; the first is the
// lower at end 0 and the second at end 1 (a1 - a0 >= 0, b0 - b1 >= 0), so they cross once. The
// lower one is greatest at an end, where they cross, or at a peak of its own between, which is at
// least zero: a sinusoid below zero at both ends of an arc shorter than a half turn is below zero
// all along it, with no peak inside. With the ends' normals `cosine` apart, the crossing's value
// is (a1 b0 - a0 b1) / sqrt(rise^2 + fall^2 + 2 cosine rise fall); the numerator written as a sum
// of terms that only add, so that its rounding stays a few units of the values' size however close
// the curves run.
static inline mf_floatw envelope_peak(mf_floatw a0, mf_floatw a1, mf_floatw b0, mf_floatw b1, mf_floatw cosine)
{
    mf_floatw rise = mf_subw(a1, a0), fall = mf_subw(b0, b1);
    mf_floatw weighted = mf_addw(mf_addw(mf_mulw(a0, fall), mf_mulw(b1, rise)), mf_mulw(rise, fall));
    mf_floatw apart2 = mf_addw(mf_addw(mf_mulw(rise, rise), mf_mulw(fall, fall)),
                               mf_mulw(mf_addw(cosine, cosine), mf_mulw(rise, fall)));
    mf_floatw apart = mf_sqrtw(mf_maxw(apart2, mf_splatw(0.0f)));
    // Curves that never part (both differences zero) cross nowhere: their 0/0 is dropped.
    mf_floatw crossing = mf_selectw(mf_gtw(apart, mf_splatw(0.0f)), mf_divw(weighted, apart), mf_splatw(-INFINITY));
    return mf_maxw(mf_maxw(a0, b1), crossing);
}

// W of a's kept edges: their faces' normals (the arc's ends) and first vertex.
typedef struct block {
    mf_vec3w n0, n1, p;
} block;

// Entries first .. first + W - 1 of the kept list, from their records. (Inlined: a call returned
// the nine registers through memory.)
static MF_ALWAYS_INLINE block load_block(const mf_support_cull *cull, const uint16_t *edges, uint32_t first)
{
    // The list has zeros past its last edge: edge 0, masked off by the caller.
    const float *record[W];
    mf_kept_recordsw(cull->records, edges + first, record);
    return (block){mf_record_quantityw(record, MF_RECORD_NORMAL0), mf_record_quantityw(record, MF_RECORD_NORMAL1),
                   mf_record_quantityw(record, MF_RECORD_VERTEX0)};
}

// Each end's least product with b's vertices so far, and the other end's product with the first
// vertex that gives it.
typedef struct ends {
    mf_floatw least0, at_least0, least1, at_least1;
} ends;

static inline void take_vertex(ends *e, const block *b, mf_vec3w vertex)
{
    mf_floatw e0 = mf_dotw(b->n0, vertex), e1 = mf_dotw(b->n1, vertex);
    e->at_least0 = mf_selectw(mf_ltw(e0, e->least0), e1, e->at_least0);
    e->at_least1 = mf_selectw(mf_ltw(e1, e->least1), e0, e->at_least1);
    e->least0 = mf_minw(e0, e->least0);
    e->least1 = mf_minw(e1, e->least1);
}

static inline mf_vec3w other_vertex(const mf_support_cull *cull, uint32_t v)
{
    size_t at = (size_t)v * cull->other_stride;
    return (mf_vec3w){mf_splatw(cull->other_x[at]), mf_splatw(cull->other_y[at]), mf_splatw(cull->other_z[at])};
}

// The first `lanes` lanes of a block that keep their edge, given its ends' products.
static inline uint32_t kept_lanes(const mf_support_cull *cull, const block *b, const ends *e, uint32_t lanes)
{
    // The sinusoids of the two supports, measured from the edge: from its face planes at the ends.
    mf_floatw plane0 = mf_dotw(b->n0, b->p), plane1 = mf_dotw(b->n1, b->p);
    mf_floatw a0 = mf_subw(e->least0, plane0), a1 = mf_subw(e->at_least1, plane0);
    mf_floatw b1 = mf_subw(e->least1, plane1), b0 = mf_subw(e->at_least0, plane1);
    mf_floatw cosine = mf_dotw(b->n0, b->n1);
    // Culled only where the bound is surely below the bar (a NaN keeps its edge) and trusted.
    mf_maskw below = mf_ltw(envelope_peak(a0, a1, b0, b1, cosine), mf_splatw(cull->bar));
    mf_maskw trusted = mf_andw(mf_gtw(cosine, mf_splatw(MF_SUPPORT_CULL_LEAST_COSINE)),
                               mf_ltw(cosine, mf_splatw(MF_SUPPORT_CULL_MOST_COSINE)));
    mf_maskw culled = mf_andw(below, trusted);
    mf_maskw in = mf_ltw(mf_lane_indexw(), mf_splatw((float)lanes));
    return mf_lane_bitsw(mf_andnotw(culled, in));
}

uint32_t MF_NAMED(mf_edge_support_cull, MF_WIDE_NAME)(const mf_support_cull *cull, uint16_t *edges, uint32_t count)
{
    const mf_floatw none = mf_splatw(INFINITY);
    uint32_t kept = 0, first = 0;
    // Narrow registers take two blocks a pass over the vertices, each vertex loaded once for both.
    // Every lane meets the vertices in the same order in every build: the same values everywhere.
    for (; W < 16 && first + W < count; first += 2 * W) {
        block b[2] = {load_block(cull, edges, first), load_block(cull, edges, first + W)};
        ends e[2] = {{none, none, none, none}, {none, none, none, none}};
        for (uint32_t v = 0; v < cull->other_count; ++v) {
            mf_vec3w vertex = other_vertex(cull, v);
            take_vertex(&e[0], &b[0], vertex);
            take_vertex(&e[1], &b[1], vertex);
        }
        uint32_t bits0 = kept_lanes(cull, &b[0], &e[0], W);
        uint32_t bits1 = kept_lanes(cull, &b[1], &e[1], count - first - W);
        // In place: kept <= first, so the stores overwrite only entries already read.
        kept += mf_compress_u16w(edges + kept, bits0, edges + first);
        kept += mf_compress_u16w(edges + kept, bits1, edges + first + W);
    }
    for (; first < count; first += W) {
        block b = load_block(cull, edges, first);
        ends e = {none, none, none, none};
        for (uint32_t v = 0; v < cull->other_count; ++v) take_vertex(&e, &b, other_vertex(cull, v));
        kept += mf_compress_u16w(edges + kept, kept_lanes(cull, &b, &e, count - first), edges + first);
    }
    memset(edges + kept, 0, MF_KEPT_EDGES_PAD * sizeof(uint16_t));
    return kept;
}
