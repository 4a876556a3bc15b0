// Vectorised separating-axis queries (Gregorius, GDC 2013) for MF_WIDE_WIDTH pairs at once. Every
// step mirrors sat.c operation for operation, so each lane finds exactly the scalar path's axis:
//   1. relative transform of b in a's frame, per lane
//   2. b's vertices into a's frame and a's into b's (b's edges are not moved here: the per-pair
//      edge query moves only the edges its cull keeps, mf_rotate_b_edges)
//   3. face queries of a and b: for each face, the least projection of the other hull
//   4. for parallelepipeds, the 9 edge-direction axes; other hulls run their edge query per lane
//      after this pass (edge_lanes.c or edge_walk.c), where the work diverges per pair.
// A bundle of scaled bodies (scale.h) multiplies each vertex row and plane offset by its lane's
// scale as it loads them, the floats of the per-pair path's scaled copies.
#include "edge_best.h"
#include "core.h"
#include "wide_pass.h"

enum { W = MF_WIDE_WIDTH };

static inline mf_floatw row(const mf_bundle_hull *hull, uint32_t r)
{
    return hull->broadcast ? mf_splatw(hull->rows[r]) : mf_loadw(hull->rows + (size_t)r * W);
}

static inline mf_vec3w row3(const mf_bundle_hull *hull, uint32_t r0, uint32_t r1, uint32_t r2)
{
    return (mf_vec3w){row(hull, r0), row(hull, r1), row(hull, r2)};
}

// Work rows x, y and z of entry i, `count` registers apart. The offsets are summed in size_t: a
// 32-bit sum may wrap, so the compiler has to rebuild each address from its index.
static inline mf_vec3w work3(const float *work, uint32_t count, uint32_t i)
{
    const float *at = work + (size_t)i * W;
    size_t apart = (size_t)count * W;
    return mf_load3w(at, at + apart, at + 2 * apart);
}

static inline void store3(float *work, uint32_t count, uint32_t i, mf_vec3w v)
{
    float *at = work + (size_t)i * W;
    size_t apart = (size_t)count * W;
    mf_storew(at, v.x);
    mf_storew(at + apart, v.y);
    mf_storew(at + 2 * apart, v.z);
}

// a's or b's rotation from its pose rows: the quaternion as given, normalised here.
static mf_mat3w rotation(const float *pose)
{
    mf_floatw q[4] = {mf_loadw(pose), mf_loadw(pose + W), mf_loadw(pose + 2 * W), mf_loadw(pose + 3 * W)};
    mf_quat_normalizew(q);
    return mf_mat3_from_quatw(q[0], q[1], q[2], q[3]);
}

// A lane's scale, where the bundle is scaled: a length row times it (scale.h).
typedef struct lane_scale {
    int scaled;
    mf_floatw scale;
} lane_scale;

static inline mf_floatw scaled(const lane_scale *s, mf_floatw length)
{
    return s->scaled ? mf_mulw(length, s->scale) : length;
}

static inline mf_vec3w scaled3(const lane_scale *s, mf_vec3w point)
{
    return s->scaled ? mf_scale3w(point, s->scale) : point;
}

static void face_query(const mf_bundle_hull *hull, const lane_scale *scale, const float *other, uint32_t other_count,
                       mf_floatw *best_separation, mf_floatw *best_face)
{
    mf_rows counts = hull->counts;
    mf_floatw best = mf_splatw(-INFINITY), best_index = mf_splatw(0.0f);
    for (uint32_t f = 0; f < counts.faces; ++f) {
        mf_vec3w normal = row3(hull, mf_row_face(counts, 0, f), mf_row_face(counts, 1, f), mf_row_face(counts, 2, f));
        // Two running minima, the even and the odd vertices: a minimum is the same in any order,
        // and one chain would wait on the latency of every min (four cycles on Intel's cores).
        // A pointer walks the vertex pairs: from indices, each of the six loads took a shift and an
        // add, scalar work beside the vector ports' on Intel (an in-process A/B there: hull16 +3%).
        mf_floatw even = mf_splatw(INFINITY), odd = even;
        const float *at = other, *pairs_end = other + (size_t)(other_count / 2) * 2 * W;
        for (; at != pairs_end; at += 2 * W) {
            even = mf_minw(even, mf_dotw(normal, work3(at, other_count, 0)));
            odd = mf_minw(odd, mf_dotw(normal, work3(at, other_count, 1)));
        }
        if (other_count % 2 != 0) even = mf_minw(even, mf_dotw(normal, work3(at, other_count, 0)));
        mf_floatw separation = mf_subw(mf_minw(even, odd), scaled(scale, row(hull, mf_row_face(counts, 3, f))));
        mf_maskw better = mf_gtw(separation, best);
        best = mf_selectw(better, separation, best);
        best_index = mf_selectw(better, mf_splatw((float)f), best_index);
    }
    *best_separation = best;
    *best_face = best_index;
}

static inline void keep_better(mf_edge_bestw *best, mf_maskw valid, mf_floatw separation, mf_floatw i, mf_floatw j,
                               mf_vec3w normal)
{
    mf_maskw better = mf_andw(valid, mf_gtw(separation, best->separation));
    best->separation = mf_selectw(better, separation, best->separation);
    best->i = mf_selectw(better, i, best->i);
    best->j = mf_selectw(better, j, best->j);
    best->normal = mf_select3w(better, normal, best->normal);
}

// As mf_query_edge_directions: the 9 edge-direction axes of two parallelepipeds.
static void direction_query(const mf_bundle_hull *a, const lane_scale *scale_a, const mf_bundle_hull *b,
                            const mf_mat3w *r, const float *b_vertices, mf_edge_bestw *best)
{
    mf_rows counts_a = a->counts, counts_b = b->counts;
    mf_floatw sine = mf_splatw(MF_PARALLEL_SINE), one = mf_splatw(1.0f);
    for (uint32_t k = 0; k < 3; ++k) {
        mf_vec3w a_direction = row3(a, mf_row_direction(counts_a, 0, k), mf_row_direction(counts_a, 1, k),
                                    mf_row_direction(counts_a, 2, k));
        for (uint32_t m = 0; m < 3; ++m) {
            mf_vec3w b_direction =
                mf_mat3_mulw(r, row3(b, mf_row_direction(counts_b, 0, m), mf_row_direction(counts_b, 1, m),
                                     mf_row_direction(counts_b, 2, m)));
            mf_vec3w axis = mf_cross3w(a_direction, b_direction);
            mf_floatw length = mf_sqrtw(mf_dotw(axis, axis));
            mf_maskw valid = mf_gew(length, sine);
            if (!mf_anyw(valid)) continue;
            axis = mf_scale3w(axis, mf_divw(one, length));
            mf_floatw a_max = mf_splatw(-INFINITY), a_min = mf_splatw(INFINITY);
            mf_floatw b_max = a_max, b_min = a_min;
            for (uint32_t v = 0; v < counts_a.vertices; ++v) {
                mf_floatw d =
                    mf_dotw(axis, scaled3(scale_a, row3(a, mf_row_vertex(counts_a, 0, v), mf_row_vertex(counts_a, 1, v),
                                                        mf_row_vertex(counts_a, 2, v))));
                a_max = mf_maxw(a_max, d);
                a_min = mf_minw(a_min, d);
            }
            for (uint32_t v = 0; v < counts_b.vertices; ++v) {
                mf_floatw d = mf_dotw(axis, work3(b_vertices, counts_b.vertices, v));
                b_max = mf_maxw(b_max, d);
                b_min = mf_minw(b_min, d);
            }
            mf_floatw forward = mf_subw(b_min, a_max), backward = mf_subw(a_min, b_max);
            mf_maskw flip = mf_gtw(backward, forward);
            mf_floatw separation = mf_selectw(flip, backward, forward);
            axis = mf_select3w(flip, mf_neg3w(axis), axis);
            keep_better(best, valid, separation, mf_splatw((float)k), mf_splatw((float)m), axis);
        }
    }
}

void MF_NAMED(mf_wide_axes, MF_WIDE_NAME)(const mf_bundle *bundle, float margin, float *work, mf_bundle_axes *axes)
{
    const mf_bundle_hull *a = &bundle->a, *b = &bundle->b;
    mf_rows counts_a = a->counts, counts_b = b->counts;
    // The bins admit only hulls within the wide limits (rows.h); the work rows hold both vertex sets.
    MF_ASSERT(counts_a.vertices <= MF_WIDE_MAX_VERTICES && counts_b.vertices <= MF_WIDE_MAX_VERTICES);
    MF_ASSERT(counts_a.faces <= MF_WIDE_MAX_FACES && counts_b.faces <= MF_WIDE_MAX_FACES);

    mf_mat3w rotation_a = rotation(bundle->pose), rotation_b = rotation(bundle->pose + 7 * W);
    mf_mat3w r = mf_mat3_relativew(&rotation_a, &rotation_b);
    mf_vec3w position_a = mf_load3w(bundle->pose + 4 * W, bundle->pose + 5 * W, bundle->pose + 6 * W);
    mf_vec3w position_b = mf_load3w(bundle->pose + 11 * W, bundle->pose + 12 * W, bundle->pose + 13 * W);
    mf_vec3w t = mf_mat3_mul_transposedw(&rotation_a, mf_sub3w(position_b, position_a));
    mf_floatw one = mf_splatw(1.0f);
    const lane_scale scale_a = {bundle->scaled, bundle->scaled ? mf_loadw(bundle->pose + MF_POSE_SCALE_A * W) : one};
    const lane_scale scale_b = {bundle->scaled, bundle->scaled ? mf_loadw(bundle->pose + MF_POSE_SCALE_B * W) : one};

    float *b_vertices = work;
    float *a_vertices = b_vertices + 3 * counts_b.vertices * W;
    for (uint32_t v = 0; v < counts_b.vertices; ++v) {
        mf_vec3w p =
            row3(b, mf_row_vertex(counts_b, 0, v), mf_row_vertex(counts_b, 1, v), mf_row_vertex(counts_b, 2, v));
        store3(b_vertices, counts_b.vertices, v, mf_add3w(mf_mat3_mulw(&r, scaled3(&scale_b, p)), t));
    }
    for (uint32_t v = 0; v < counts_a.vertices; ++v) {
        mf_vec3w p =
            row3(a, mf_row_vertex(counts_a, 0, v), mf_row_vertex(counts_a, 1, v), mf_row_vertex(counts_a, 2, v));
        store3(a_vertices, counts_a.vertices, v, mf_mat3_mul_transposedw(&r, mf_sub3w(scaled3(&scale_a, p), t)));
    }

    mf_floatw face_a, face_a_index, face_b, face_b_index;
    mf_floatw margin_w = mf_splatw(margin);
    face_query(a, &scale_a, b_vertices, counts_b.vertices, &face_a, &face_a_index);
    face_b = mf_splatw(-INFINITY);
    face_b_index = mf_splatw(0.0f);
    if (mf_anyw(mf_ltw(face_a, margin_w)))
        face_query(b, &scale_b, a_vertices, counts_a.vertices, &face_b, &face_b_index);

    mf_edge_bestw edge = mf_edge_best_nonew();
    // Lanes already apart along a face axis need no edge query.
    mf_maskw alive = mf_andw(mf_ltw(face_a, margin_w), mf_ltw(face_b, margin_w));
    if (bundle->projection && mf_anyw(alive)) direction_query(a, &scale_a, b, &r, b_vertices, &edge);

    MF_ALIGNED_LANES(face_a_lanes);
    MF_ALIGNED_LANES(face_a_index_lanes);
    MF_ALIGNED_LANES(face_b_lanes);
    MF_ALIGNED_LANES(face_b_index_lanes);
    mf_storew(face_a_lanes, face_a);
    mf_storew(face_a_index_lanes, face_a_index);
    mf_storew(face_b_lanes, face_b);
    mf_storew(face_b_index_lanes, face_b_index);
    mf_edge_query edges[W];
    mf_edge_best_lanes(&edge, edges);
    _Alignas(64) float transforms[21][W];
    for (int i = 0; i < 3; ++i) {
        mf_storew(transforms[3 * i], rotation_a.row[i].x);
        mf_storew(transforms[3 * i + 1], rotation_a.row[i].y);
        mf_storew(transforms[3 * i + 2], rotation_a.row[i].z);
        mf_storew(transforms[9 + 3 * i], r.row[i].x);
        mf_storew(transforms[9 + 3 * i + 1], r.row[i].y);
        mf_storew(transforms[9 + 3 * i + 2], r.row[i].z);
    }
    mf_storew(transforms[18], t.x);
    mf_storew(transforms[19], t.y);
    mf_storew(transforms[20], t.z);
    for (int l = 0; l < W; ++l) {
        for (int i = 0; i < 3; ++i) {
            axes->rotation_a[l].row[i] =
                (mf_vec3){transforms[3 * i][l], transforms[3 * i + 1][l], transforms[3 * i + 2][l]};
            axes->rotation[l].row[i] =
                (mf_vec3){transforms[9 + 3 * i][l], transforms[9 + 3 * i + 1][l], transforms[9 + 3 * i + 2][l]};
        }
        axes->translation[l] = (mf_vec3){transforms[18][l], transforms[19][l], transforms[20][l]};
        axes->face_a[l] = (mf_face_query){face_a_lanes[l], (uint32_t)face_a_index_lanes[l]};
        axes->face_b[l] = (mf_face_query){face_b_lanes[l], (uint32_t)face_b_index_lanes[l]};
        axes->edge[l] = edges[l];
    }
}
