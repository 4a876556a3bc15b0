// The edge query of one pair in lanes: W kept edges of one hull loaded at once and every kept edge
// of the other broadcast and tested against them, the Gauss-map test for all, then the measure for
// those that cross in some lane. a's edges come from their records (rows.h), b's from rows packed
// here, moved into a's frame. Which hull goes in lanes is chosen per pair: the one that leaves
// fewer registers to try (a's 11 kept edges in 16 lanes against b's 15 cost 15 registers; b's 15 in
// lanes against a's 11, 11), counting the load of a register of a's as a few.
// Every pair performs the operations of mf_query_edges (sat.c) in the same order, and ties go to
// the lowest (i, j) as there, so the result is the scalar path's bit for bit.
#include "edge_lanes.h"
#include "core.h"
#include "edge_best.h"
#include "minkowski_lanes.h"
#include "record_lanes.h"

#include <string.h>

enum { W = MF_WIDE_WIDTH, B_RUN = 64 };
_Static_assert(MF_EDGE_LANES % MF_WIDE_WIDTH == 0, "edge rows pad to whole registers");
_Static_assert(MF_WIDE_MAX_EDGES < (1 << 24), "edge indices are carried exactly in floats");

// W of a's edges in lanes: their faces' normals, direction, first vertex and index.
typedef struct a_edges_w {
    mf_vec3w normal0, normal1, direction, vertex0;
    mf_floatw index;
} a_edges_w;

enum { S = MF_PACKED_STRIDE };

// Packed rows r, r + 1, r + 2 at entry k, in lanes.
static inline mf_vec3w packed3(const float *packed, uint32_t r, uint32_t k)
{
    const float *at = packed + (size_t)r * S + k;
    return mf_load3uw(at, at + S, at + 2 * S);
}

// Packed rows r, r + 1, r + 2 of entry k, broadcast.
static inline mf_vec3w splat_packed3(const float *packed, uint32_t r, uint32_t k)
{
    const float *at = packed + (size_t)r * S + k;
    return (mf_vec3w){mf_splatw(at[0]), mf_splatw(at[S]), mf_splatw(at[2 * S])};
}

// a's kept edges first .. first + W - 1 in lanes, from their records (rows.h). Lanes past the last
// get a zero record, whose zero normals build no Minkowski face.
static a_edges_w load_a_edges(const mf_pair_frame *frame, uint32_t first, uint32_t count)
{
    static const float zero_record[MF_EDGE_RECORD] = {0};
    const mf_hull_view *a = frame->a;
    // The kept list has zeros past its last entry (mf_edges_within): indices of lanes that never win.
    mf_floatw index = mf_u16_to_floatw(frame->a_edges + first);
    const float *record[W];
    for (uint32_t l = 0; l < W; ++l)
        record[l] =
            first + l < count ? a->edge_records + (size_t)MF_EDGE_RECORD * frame->a_edges[first + l] : zero_record;
    return (a_edges_w){mf_record_quantityw(record, MF_RECORD_NORMAL0), mf_record_quantityw(record, MF_RECORD_NORMAL1),
                       mf_record_quantityw(record, MF_RECORD_DIRECTION), mf_record_quantityw(record, MF_RECORD_VERTEX0),
                       index};
}

static inline void store_packed3(float *packed, uint32_t r, uint32_t k, mf_vec3w v)
{
    float *at = packed + (size_t)r * S + k;
    mf_storeuw(at, v.x);
    mf_storeuw(at + S, v.y);
    mf_storeuw(at + 2 * S, v.z);
}

// b's kept edges in a's frame, packed a row per component (MF_PACKED_STRIDE apart): normal0,
// normal1 and direction rotated, vertex0 moved, with the operations of mf_rotate_b_edges and of
// b's vertices' move (mf_frame_setup, or the wide pass), so the floats are the same. From the
// edge records (every hull has them), W at a time: the rows take whole registers, as
// MF_WIDE_MAX_EDGES is a whole number of them.
static void pack_b_edges(const mf_pair_frame *frame, float *packed)
{
    _Static_assert(MF_WIDE_MAX_EDGES % W == 0 && MF_PACKED_STRIDE >= MF_WIDE_MAX_EDGES,
                   "packed rows hold whole registers");
    const mf_hull_view *b = frame->b;
    const mf_mat3 *m = &frame->rotation;
    const mf_mat3w rotation = {{mf_splat3w(m->row[0]), mf_splat3w(m->row[1]), mf_splat3w(m->row[2])}};
    const mf_vec3w shift = mf_splat3w(frame->translation);
    for (uint32_t first = 0; first < frame->b_edge_count; first += W) {
        // Past the last kept edge the list has zeros (mf_edges_within, MF_KEPT_EDGES_PAD >= W): edge
        // 0, packed and masked off wherever read.
        const float *record[W];
        mf_kept_recordsw(b->edge_records, frame->b_edges + first, record);
        for (uint32_t q = MF_RECORD_NORMAL0; q <= MF_RECORD_DIRECTION; ++q)
            store_packed3(packed, 3 * q, first, mf_mat3_mulw(&rotation, mf_record_quantityw(record, q)));
        // vertex0: moved as a vertex
        store_packed3(packed, 9, first,
                      mf_add3w(mf_mat3_mulw(&rotation, mf_record_quantityw(record, MF_RECORD_VERTEX0)), shift));
    }
}

// As mf_edge_pair_crosses, for the pairs in lanes (one side's quantities may be broadcast).
static inline mf_maskw crosses(mf_vec3w a_normal0, mf_vec3w a_normal1, mf_vec3w a_direction, mf_vec3w b_normal0,
                               mf_vec3w b_normal1, mf_vec3w b_direction)
{
    mf_floatw a0 = mf_dotw(b_direction, a_normal0), a1 = mf_dotw(b_direction, a_normal1);
    mf_floatw b0 = mf_dotw(a_direction, b_normal0), b1 = mf_dotw(a_direction, b_normal1);
    return mf_minkowski_facew(a0, a1, b0, b1);
}

// One side of the pairs being measured: an edge's quantities the measure reads, and its index.
typedef struct measured_w {
    mf_vec3w normal0, direction, vertex0;
    mf_floatw index;
} measured_w;

// As mf_edge_pair_measure for the lanes that cross, each offered to its lane's best. `in_order`:
// every lane meets its pairs in ascending (i, j) order, so the first of equals is the one kept and
// only a greater separation replaces it; otherwise an equal one with a lower (i, j) does too. Ties
// between lanes are settled by mf_edge_best_across.
static inline void measure(const measured_w *a, const measured_w *b, mf_maskw crossing, int in_order,
                           mf_edge_bestw *best)
{
    mf_floatw zero = mf_splatw(0.0f);
    mf_floatw a0 = mf_dotw(b->direction, a->normal0);
    mf_vec3w axis = mf_cross3w(a->direction, b->direction);
    mf_floatw length = mf_sqrtw(mf_dotw(axis, axis));
    mf_maskw valid = mf_andw(crossing, mf_gew(length, mf_splatw(MF_PARALLEL_SINE)));
    axis = mf_scale3w(axis, mf_divw(mf_selectw(mf_gtw(a0, zero), mf_splatw(1.0f), mf_splatw(-1.0f)), length));
    mf_floatw separation = mf_dotw(axis, mf_sub3w(b->vertex0, a->vertex0));
    mf_maskw better = mf_gtw(separation, best->separation);
    if (!in_order) {
        mf_maskw lower =
            mf_orw(mf_ltw(a->index, best->i), mf_andw(mf_eqw(a->index, best->i), mf_ltw(b->index, best->j)));
        better = mf_orw(better, mf_andw(mf_eqw(separation, best->separation), lower));
    }
    better = mf_andw(valid, better);
    best->separation = mf_selectw(better, separation, best->separation);
    best->i = mf_selectw(better, a->index, best->i);
    best->j = mf_selectw(better, b->index, best->j);
    best->normal = mf_select3w(better, axis, best->normal);
}

// Two passes over each run of the broadcast side's edges: the Gauss-map test for all of them, then
// the measure (a square root and a division in every lane) only for those that cross in some lane.
// Most cross in none, and a branch per edge would be mispredicted.
// On AVX-512 the edges that cross in lanes apart then share a measure, each in its own lanes
// (hull16 crosses in 6.6 lanes over 5.3 of a's 15 edges): a blend per quantity saves a measure,
// whose square root and division take a 512-bit register. A/Bs on AMD: hull16 +0.5 to +1.8%; on
// AVX2, where they cost less than the blends and a mispredicted branch per group, hull48 -1.9%.
enum { MERGE_MEASURES = W == 16 };

// The lanes `own` of `into` take `from`'s quantities (a broadcast edge joining a shared measure).
static inline void take_lanes(measured_w *into, mf_maskw own, const measured_w *from)
{
    into->normal0 = mf_select3w(own, from->normal0, into->normal0);
    into->direction = mf_select3w(own, from->direction, into->direction);
    into->vertex0 = mf_select3w(own, from->vertex0, into->vertex0);
    into->index = mf_selectw(own, from->index, into->index);
}

// b's packed edge k (normal0, direction, vertex0 and index), broadcast.
static inline measured_w splat_packed_edge(const mf_pair_frame *frame, const float *b_rows, uint32_t k)
{
    return (measured_w){splat_packed3(b_rows, 0, k), splat_packed3(b_rows, 6, k), splat_packed3(b_rows, 9, k),
                        mf_splatw((float)frame->b_edges[k])};
}

// a's kept edges in lanes, b's broadcast from the packed rows.
static mf_edge_bestw a_in_lanes(const mf_pair_frame *frame, const float *b_rows)
{
    // The best in a local, not behind a pointer that the row loads might alias: kept in registers.
    mf_edge_bestw best = mf_edge_best_nonew();
    uint32_t a_count = frame->a_edge_count, b_count = frame->b_edge_count;
    uint32_t crossing_at[B_RUN];
    mf_maskw crossing_lanes[B_RUN];
    for (uint32_t first = 0; first < a_count; first += W) {
        a_edges_w e = load_a_edges(frame, first, a_count);
        for (uint32_t run = 0; run < b_count; run += B_RUN) {
            uint32_t end = b_count - run < B_RUN ? b_count : run + B_RUN, found = 0;
            for (uint32_t k = run; k < end; ++k) {
                mf_maskw crossing = crosses(e.normal0, e.normal1, e.direction, splat_packed3(b_rows, 0, k),
                                            splat_packed3(b_rows, 3, k), splat_packed3(b_rows, 6, k));
                crossing_at[found] = k;
                crossing_lanes[found] = crossing;
                found += (uint32_t)mf_anyw(crossing);
            }
            measured_w a = {e.normal0, e.direction, e.vertex0, e.index};
            for (uint32_t n = 0; n < found;) {
                // b's edges whose crossing lanes are apart share one measure, each in its lanes: a lane
                // still meets its pairs in ascending order.
                measured_w b = splat_packed_edge(frame, b_rows, crossing_at[n]);
                mf_maskw merged = crossing_lanes[n];
                uint32_t merged_bits = mf_lane_bitsw(merged);
                for (++n; MERGE_MEASURES && n < found && (mf_lane_bitsw(crossing_lanes[n]) & merged_bits) == 0; ++n) {
                    measured_w next = splat_packed_edge(frame, b_rows, crossing_at[n]);
                    take_lanes(&b, crossing_lanes[n], &next);
                    merged = mf_orw(merged, crossing_lanes[n]);
                    merged_bits |= mf_lane_bitsw(crossing_lanes[n]);
                }
                // a's kept edges ascend across the blocks, b's within a run.
                measure(&a, &b, merged, 1, &best);
            }
        }
    }
    return best;
}

// Quantity q (0 normal0, 1 normal1, 2 direction, 3 vertex0) of an edge record, broadcast.
static inline mf_vec3w splat_record3(const float *record, uint32_t q)
{
    return (mf_vec3w){mf_splatw(record[4 * q]), mf_splatw(record[4 * q + 1]), mf_splatw(record[4 * q + 2])};
}

// a's kept edge k (normal0, direction, vertex0 and index) from its record, broadcast.
static inline measured_w splat_record_edge(const mf_pair_frame *frame, uint32_t k)
{
    const float *record = frame->a->edge_records + (size_t)MF_EDGE_RECORD * frame->a_edges[k];
    return (measured_w){splat_record3(record, 0), splat_record3(record, 2), splat_record3(record, 3),
                        mf_splatw((float)frame->a_edges[k])};
}

// b's kept edges in lanes from the packed rows, a's broadcast from their records.
static mf_edge_bestw b_in_lanes(const mf_pair_frame *frame, const float *b_rows)
{
    mf_edge_bestw best = mf_edge_best_nonew();
    const float *records = frame->a->edge_records;
    uint32_t a_count = frame->a_edge_count, b_count = frame->b_edge_count;
    uint32_t crossing_at[B_RUN];
    mf_maskw crossing_lanes[B_RUN];
    for (uint32_t first = 0; first < b_count; first += W) {
        // Lanes past b's last kept edge hold whatever the rows hold there: masked off.
        mf_maskw lanes = mf_ltw(mf_lane_indexw(), mf_splatw((float)(b_count - first)));
        mf_vec3w normal0 = packed3(b_rows, 0, first), normal1 = packed3(b_rows, 3, first);
        mf_vec3w direction = packed3(b_rows, 6, first);
        measured_w b = {normal0, direction, packed3(b_rows, 9, first), mf_u16_to_floatw(frame->b_edges + first)};
        for (uint32_t run = 0; run < a_count; run += B_RUN) {
            uint32_t end = a_count - run < B_RUN ? a_count : run + B_RUN, found = 0;
            for (uint32_t k = run; k < end; ++k) {
                const float *record = records + (size_t)MF_EDGE_RECORD * frame->a_edges[k];
                mf_maskw crossing = mf_andw(lanes, crosses(splat_record3(record, 0), splat_record3(record, 1),
                                                           splat_record3(record, 2), normal0, normal1, direction));
                crossing_at[found] = k;
                crossing_lanes[found] = crossing;
                found += (uint32_t)mf_anyw(crossing);
            }
            for (uint32_t n = 0; n < found;) {
                // a's edges whose crossing lanes are apart share one measure, each in its lanes.
                measured_w a = splat_record_edge(frame, crossing_at[n]);
                mf_maskw merged = crossing_lanes[n];
                uint32_t merged_bits = mf_lane_bitsw(merged);
                for (++n; MERGE_MEASURES && n < found && (mf_lane_bitsw(crossing_lanes[n]) & merged_bits) == 0; ++n) {
                    measured_w next = splat_record_edge(frame, crossing_at[n]);
                    take_lanes(&a, crossing_lanes[n], &next);
                    merged = mf_orw(merged, crossing_lanes[n]);
                    merged_bits |= mf_lane_bitsw(crossing_lanes[n]);
                }
                // A lane meets a's edges in ascending order, but b's blocks come after each other.
                measure(&a, &b, merged, 0, &best);
            }
        }
    }
    return best;
}

void MF_NAMED(mf_edge_lanes, MF_WIDE_NAME)(const mf_pair_frame *frame, mf_edge_query *answer)
{
    MF_ASSERT(frame->a_edges != NULL && frame->b_edges != NULL && frame->b_edge_count <= MF_WIDE_MAX_EDGES);
    uint32_t a_count = frame->a_edge_count, b_count = frame->b_edge_count;
    pack_b_edges(frame, frame->b_packed);
    // a's edges in lanes cost a test per b edge for each register of a's, and the register's load
    // from the records and its transposes, about as much as A_LOAD_TESTS tests: W / 2, as the
    // transposes grow with the width faster than a test (A/Bs on AVX-512's hull16 and hull48: 8
    // against 0, 4 and 16); b's in lanes a test per a edge for each register of b's, whose rows are
    // packed either way.
    enum { A_LOAD_TESTS = W / 2 };
    uint32_t a_blocks = (a_count + W - 1) / W, b_blocks = (b_count + W - 1) / W;
    mf_edge_bestw best = b_blocks * a_count < a_blocks * (b_count + A_LOAD_TESTS) ? b_in_lanes(frame, frame->b_packed)
                                                                                  : a_in_lanes(frame, frame->b_packed);
    *answer = mf_edge_best_across(&best);
}

// The gaps of edges e to e + W - 1 (as mf_edge_gaps) from the rows normal0, normal1 and vertex0
// (rows 0-2, 3-5, 6-8), `stride` floats long.
static inline mf_floatw gaps_at(const float *rows, size_t stride, size_t e, mf_vec3w point)
{
    const float *at = rows + e;
    mf_vec3w between = mf_sub3w(mf_load3uw(at + 6 * stride, at + 7 * stride, at + 8 * stride), point);
    mf_floatw gap0 = mf_dotw(mf_load3uw(at, at + stride, at + 2 * stride), between);
    mf_floatw gap1 = mf_dotw(mf_load3uw(at + 3 * stride, at + 4 * stride, at + 5 * stride), between);
    return mf_minw(gap0, gap1);
}

float MF_NAMED(mf_edge_gaps, MF_WIDE_NAME)(const mf_hull_view *hull, mf_vec3 p, float *gap)
{
    const float *rows = hull->edge_rows;
    size_t stride = mf_edge_rows_padded(hull->edge_count), whole = hull->edge_count / W * W;
    _Static_assert(MF_EDGE_LANES % W == 0 && MF_EDGE_GAP_PAD >= MF_EDGE_LANES, "gaps fill whole registers");
    mf_vec3w point = mf_splat3w(p);
    mf_floatw least = mf_splatw(INFINITY);
    for (size_t e = 0; e < whole; e += W) {
        mf_floatw g = gaps_at(rows, stride, e, point);
        mf_storeuw(gap + e, g);
        least = mf_minw(least, g);
    }
    // The rows' padding past the last edge: no gap.
    for (size_t e = whole; e < stride; e += W) {
        mf_maskw edge = mf_ltw(mf_lane_indexw(), mf_splatw((float)hull->edge_count - (float)e));
        mf_floatw g = mf_selectw(edge, gaps_at(rows, stride, e, point), mf_splatw(INFINITY));
        mf_storeuw(gap + e, g);
        least = mf_minw(least, g);
    }
    // No gap past the rows either, a register at a time: the rows end at most a register's worth of
    // lanes before the pad does.
    for (size_t e = stride; e < hull->edge_count + MF_EDGE_GAP_PAD; e += W) mf_storeuw(gap + e, mf_splatw(INFINITY));
    return mf_min_acrossw(least);
}

// The gaps of faces f to f + W - 1 (as mf_face_gaps).
static inline mf_floatw face_gaps_at(const mf_hull_view *hull, uint32_t f, mf_vec3w point)
{
    mf_vec3w normal = mf_load3uw(hull->normal_x + f, hull->normal_y + f, hull->normal_z + f);
    return mf_subw(mf_loaduw(hull->offset + f), mf_dotw(normal, point));
}

float MF_NAMED(mf_face_gaps, MF_WIDE_NAME)(const mf_hull_view *hull, mf_vec3 p, float *gap)
{
    // The plane rows run on into the bank's padding (MF_BANK_PAD): the last register's lanes past
    // the last face are set to no gap, as are the gap list's MF_EDGE_GAP_PAD entries past it.
    _Static_assert(MF_EDGE_GAP_PAD >= W && MF_BANK_PAD >= W && MF_FACE_CULL_MAX_FACES % W == 0,
                   "gaps fill whole registers");
    MF_ASSERT(hull->face_count <= MF_FACE_CULL_MAX_FACES);
    uint32_t count = hull->face_count;
    mf_vec3w point = mf_splat3w(p);
    mf_floatw least = mf_splatw(INFINITY), none = least;
    for (uint32_t f = 0; f < count; f += W) {
        mf_maskw face = mf_ltw(mf_lane_indexw(), mf_splatw((float)(count - f)));
        mf_floatw g = mf_selectw(face, face_gaps_at(hull, f, point), none);
        mf_storeuw(gap + f, g);
        least = mf_minw(least, g);
    }
    for (uint32_t f = (count + W - 1) / W * W; f < count + MF_EDGE_GAP_PAD; f += W) mf_storeuw(gap + f, none);
    return mf_min_acrossw(least);
}

#if MF_WIDE_WIDTH >= 8
// The lanes of W edges (their faces' indices at face0 and face1) of which either face's bit is set
// in `table` (32 faces a lane: the bit of face f is bit f % 32 of lane f / 32).
static inline uint32_t faces_within(mf_intw table, const uint16_t *face0, const uint16_t *face1)
{
    const mf_intw five = mf_splat_intw(5), within_word = mf_splat_intw(31);
    mf_intw f0 = mf_load_u16_intw(face0), f1 = mf_load_u16_intw(face1);
    mf_intw bit0 =
        mf_shift_right_intw(mf_lookup_intw(table, mf_shift_right_intw(f0, five)), mf_and_intw(f0, within_word));
    mf_intw bit1 =
        mf_shift_right_intw(mf_lookup_intw(table, mf_shift_right_intw(f1, five)), mf_and_intw(f1, within_word));
    return mf_low_bit_lanesw(mf_or_intw(bit0, bit1));
}

uint32_t MF_NAMED(mf_edges_by_faces, MF_WIDE_NAME)(const mf_hull_view *hull, const float *face_gap, float reach,
                                                   uint16_t *kept)
{
    // The faces within reach as bits, 32 faces a word, the words in one register; an edge is kept
    // where either face's bit is set, W edges at a time: each lane's word looked up by its face's
    // index over 32, then shifted by the rest. (Shifting every word by every face cost a shift per
    // word: hull48's rocks have three.) The bits gather in two scalars, not an array a register
    // would load right after its piecewise stores (no store forwarding). The face rows are read past
    // the edges' count within the bank's padding, the lanes there masked off.
    _Static_assert(64 % W == 0 && MF_FACE_CULL_MAX_FACES == 128,
                   "a register of faces fills part of one of two 64-bit words");
    uint64_t low = 0, high = 0;
    mf_floatw limit = mf_splatw(reach);
    for (uint32_t f = 0; f < hull->face_count; f += W) {
        uint64_t bits = mf_lane_bitsw(mf_lew(mf_loaduw(face_gap + f), limit)); // infinite past the last
        if (f < 64) low |= bits << f;
        else high |= bits << (f - 64);
    }
    const mf_intw table = mf_quarters_intw(low, high);
    // The rows and counts in locals: the kept list's stores would otherwise have the hull's fields
    // read again after each. Whole registers first, then the last one's lanes past the edges off.
    const uint16_t *face0 = hull->edge_face0, *face1 = hull->edge_face1;
    uint32_t edge_count = hull->edge_count, whole = edge_count / W * W, kept_count = 0;
    for (uint32_t e = 0; e < whole; e += W)
        kept_count += mf_compress_lane_numbers(kept + kept_count, faces_within(table, face0 + e, face1 + e), e);
    if (whole < edge_count) {
        uint32_t bits = faces_within(table, face0 + whole, face1 + whole) & ((1u << (edge_count - whole)) - 1u);
        kept_count += mf_compress_lane_numbers(kept + kept_count, bits, whole);
    }
    memset(kept + kept_count, 0, MF_KEPT_EDGES_PAD * sizeof(uint16_t));
    return kept_count;
}
#endif

uint32_t MF_NAMED(mf_edges_within, MF_WIDE_NAME)(const float *gap, uint32_t count, float reach, uint16_t *kept)
{
    // As mf_edges_within, W gaps compared at once and the kept ones' indices stored in order: each
    // store runs up to W entries from the last kept edge on, within the list's padding
    // (MF_KEPT_EDGES_PAD). Gaps past the last edge are infinite (MF_EDGE_GAP_PAD).
    _Static_assert(W % 4 == 0 && MF_EDGE_GAP_PAD >= W && MF_KEPT_EDGES_PAD >= W, "gaps fill whole registers");
    _Static_assert(MF_MAX_HULL_EDGES + MF_KEPT_EDGES_PAD < (1 << 15), "kept indices fit mf_compress_lane_numbers");
    mf_floatw limit = mf_splatw(reach);
    uint32_t kept_count = 0;
    for (uint32_t e = 0; e < count; e += W) {
        uint32_t bits = mf_lane_bitsw(mf_lew(mf_loaduw(gap + e), limit));
        if (count - e < W) bits &= (1u << (count - e)) - 1u; // no edge past the last, whatever the reach
        kept_count += mf_compress_lane_numbers(kept + kept_count, bits, e);
    }
    memset(kept + kept_count, 0, MF_KEPT_EDGES_PAD * sizeof(uint16_t));
    return kept_count;
}
