// The edge query of one pair with lanes across a's edges: W of a's edges are loaded once, straight
// from the shape's edge rows (rows.h), gathered where the cull kept only some, and every edge of b
// is broadcast and tested against them; so a bundle of mixed hulls needs no gathering of edges.
// Every lane performs the operations of mf_query_edges (sat.c) in the same order, and ties go to
// the lowest (i, j) as there, so the result is the scalar path's bit for bit.
#include "edge_lanes.h"
#include "edge_best.h"

#define MF_GLUE(a, b) a##_##b
#define MF_NAMED(a, b) MF_GLUE(a, b)

enum { W = MF_WIDE_WIDTH, B_RUN = 64 };
_Static_assert(MF_EDGE_LANES % MF_WIDE_WIDTH == 0, "edge rows pad to whole registers");
_Static_assert(MF_WIDE_MAX_EDGES < (1 << 24), "edge indices are carried exactly in floats");

// W of a's edges in lanes: their faces' normals, direction, first vertex and index.
typedef struct a_edges_w {
    mf_vec3w normal0, normal1, direction, vertex0;
    mf_floatw index;
} a_edges_w;

static inline mf_vec3w splat3(mf_vec3 v) { return (mf_vec3w){mf_splatw(v.x), mf_splatw(v.y), mf_splatw(v.z)}; }

// Rows r, r + 1, r + 2 at lanes `index` (NULL: the W lanes from `first`).
static inline mf_vec3w edge_row3(const float *rows, uint32_t padded, uint32_t r, uint32_t first, const int32_t *index)
{
    const float *x = rows + (size_t)r * padded, *y = x + padded, *z = y + padded;
    if (index == NULL) return (mf_vec3w){mf_loaduw(x + first), mf_loaduw(y + first), mf_loaduw(z + first)};
    return (mf_vec3w){mf_gatherw(x, index), mf_gatherw(y, index), mf_gatherw(z, index)};
}

// a's edges first .. first + W - 1 of those the frame tries. Lanes past the last get zero normals,
// which build no Minkowski face (as the rows' own padding).
static a_edges_w load_a_edges(const mf_pair_frame *frame, uint32_t first, uint32_t count)
{
    const mf_hull_view *a = frame->a;
    uint32_t padded = mf_edge_rows_padded(a->edge_count);
    _Alignas(64) int32_t gather[W];
    const int32_t *index = NULL;
    for (int l = 0; l < W; ++l) {
        uint32_t k = first + (uint32_t)l;
        gather[l] = (int32_t)(frame->a_edges == NULL ? k : k < count ? frame->a_edges[k] : frame->a_edges[0]);
    }
    if (frame->a_edges != NULL) index = gather;
    a_edges_w e = {edge_row3(a->edge_rows, padded, 0, first, index), edge_row3(a->edge_rows, padded, 3, first, index),
                   edge_row3(a->edge_rows, padded, 6, first, index), edge_row3(a->edge_rows, padded, 9, first, index),
                   mf_int_to_floatw(gather)};
    if (frame->a_edges != NULL && count - first < W) {
        MF_ALIGNED_LANES(lanes);
        for (int l = 0; l < W; ++l) lanes[l] = (float)l;
        mf_maskw past = mf_gew(mf_loadw(lanes), mf_splatw((float)(count - first)));
        mf_vec3w zero = {mf_splatw(0.0f), mf_splatw(0.0f), mf_splatw(0.0f)};
        e.normal0 = mf_select3w(past, zero, e.normal0);
        e.normal1 = mf_select3w(past, zero, e.normal1);
    }
    return e;
}

mf_edge_query MF_NAMED(mf_edge_lanes, MF_WIDE_NAME)(const mf_pair_frame *frame)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f), minus_one = mf_splatw(-1.0f);
    mf_floatw sine = mf_splatw(MF_PARALLEL_SINE);
    mf_edge_bestw best = mf_edge_best_nonew();
    uint32_t a_count = frame->a_edges != NULL ? frame->a_edge_count : a->edge_count;
    uint32_t b_count = frame->b_edges != NULL ? frame->b_edge_count : b->edge_count;
    // Two passes over each run of b's edges: the Gauss-map test for all of them, then the measure
    // (a square root and a division in every lane) only for those that cross in some lane. Most
    // cross in none, and a branch per edge would be mispredicted.
    uint32_t crossing_at[B_RUN];
    mf_maskw crossing_lanes[B_RUN];
    for (uint32_t first = 0; first < a_count; first += W) {
        a_edges_w e = load_a_edges(frame, first, a_count);
        for (uint32_t run = 0; run < b_count; run += B_RUN) {
            uint32_t end = b_count - run < B_RUN ? b_count : run + B_RUN, found = 0;
            for (uint32_t k = run; k < end; ++k) {
                uint32_t j = frame->b_edges != NULL ? frame->b_edges[k] : k;
                mf_vec3w b_direction = splat3(frame->b_directions[j]);
                // As mf_edge_pair_crosses.
                mf_floatw a0 = mf_dotw(b_direction, e.normal0), a1 = mf_dotw(b_direction, e.normal1);
                mf_floatw b0 = mf_dotw(e.direction, splat3(frame->b_normals[b->edge_face0[j]]));
                mf_floatw b1 = mf_dotw(e.direction, splat3(frame->b_normals[b->edge_face1[j]]));
                mf_maskw crossing = mf_andw(mf_andw(mf_ltw(mf_mulw(a0, a1), zero), mf_ltw(mf_mulw(b0, b1), zero)),
                                            mf_gtw(mf_mulw(a0, b0), zero));
                crossing_at[found] = k;
                crossing_lanes[found] = crossing;
                found += (uint32_t)mf_anyw(crossing);
            }
            for (uint32_t n = 0; n < found; ++n) {
                uint32_t k = crossing_at[n], j = frame->b_edges != NULL ? frame->b_edges[k] : k;
                mf_vec3w b_direction = splat3(frame->b_directions[j]);
                mf_floatw a0 = mf_dotw(b_direction, e.normal0);

                // As mf_edge_pair_measure.
                mf_vec3w axis = mf_cross3w(e.direction, b_direction);
                mf_floatw length = mf_sqrtw(mf_dotw(axis, axis));
                mf_maskw valid = mf_andw(crossing_lanes[n], mf_gew(length, sine));
                axis = mf_scale3w(axis, mf_divw(mf_selectw(mf_gtw(a0, zero), one, minus_one), length));
                mf_vec3w b_point = splat3(frame->b_vertices[b->edge_vertex0[j]]);
                mf_floatw separation = mf_dotw(axis, mf_sub3w(b_point, e.vertex0));

                // A lane meets its edges i in the order (i, j) or (j, i); the first of equals in (i, j)
                // order wins.
                mf_floatw index_j = mf_splatw((float)j);
                mf_maskw tie =
                    mf_andw(mf_eqw(separation, best.separation),
                            mf_orw(mf_ltw(e.index, best.i), mf_andw(mf_eqw(e.index, best.i), mf_ltw(index_j, best.j))));
                mf_maskw better = mf_andw(valid, mf_orw(mf_gtw(separation, best.separation), tie));
                best.separation = mf_selectw(better, separation, best.separation);
                best.i = mf_selectw(better, e.index, best.i);
                best.j = mf_selectw(better, index_j, best.j);
                best.normal = mf_select3w(better, axis, best.normal);
            }
        }
    }

    return mf_edge_best_across(&best);
}
