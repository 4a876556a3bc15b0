// The face query of one pair with lanes across the hull's faces. The heights of the other hull's
// centroid over every face plane come first, W at a time; only faces within the reach of the
// highest can be the best (mf_face_reach), a handful, and those are measured W at a time, every
// vertex of the other hull broadcast against them. Each lane takes the minimum as mf_query_faces
// does and the candidates are then scanned in order with its early out, so the answer is the
// scalar one bit for bit.
// Against a large hull (a support map) many faces may be in reach (the bunny's hull keeps half of
// its 630): from BOUNDED_MIN_LIVE on, each is first bounded by one vertex of the other hull, the one
// its support map names, and only faces whose bound could beat the best so far are measured
// (faces_bounded).
#include "face_lanes.h"
#include "core.h"
#include "wide.h"

#include "support_map.h"

// Faces in reach are gathered up to this many (the stack's share); hulls with more in reach fill
// their registers anyway. Against a large hull, from BOUNDED_MIN_LIVE faces in reach on, they are
// bounded BATCH at a time (faces_bounded): measured on AVX-512, the rocks of hull128 and hull256
// (about 14 in reach) take 16% less time measuring them all in lanes, while the bunny's hull (340 in
// reach) measures one to three once bounded.
enum { W = MF_WIDE_WIDTH, GATHERED_MAX = 256, BATCH = 128, BOUNDED_MIN_LIVE = 64 };

// Every face's height of `centroid` into `height` (as mf_face_height), -infinity in the last
// register's lanes past the faces; returns the highest. Registers load past a shape's last face
// within the bank's padding (MF_BANK_PAD).
static float face_heights(const mf_hull_view *hull, mf_vec3 centroid, float *height)
{
    mf_vec3w c = mf_splat3w(centroid);
    mf_floatw highest = mf_splatw(-INFINITY);
    mf_floatw lane = mf_lane_indexw();
    for (uint32_t f = 0; f < hull->face_count; f += W) {
        mf_vec3w normal = {mf_loaduw(hull->normal_x + f), mf_loaduw(hull->normal_y + f), mf_loaduw(hull->normal_z + f)};
        mf_floatw h = mf_subw(mf_dotw(normal, c), mf_loaduw(hull->offset + f));
        h = mf_selectw(mf_ltw(lane, mf_splatw((float)(hull->face_count - f))), h, mf_splatw(-INFINITY));
        mf_storeuw(height + f, h);
        highest = mf_maxw(highest, h);
    }
    return mf_max_acrossw(highest);
}

// The faces' support of the other hull, W faces in lanes: each lane's least projection of its
// vertices. A lane's separation only falls as vertices come: once every face is below `best`, none
// can beat it (a later face never wins a tie) or end the search (the best is never above the
// margin here), and the rest of the vertices can go. It looks every eight vertices: each look is a
// compare, a mask move and a branch that goes either way, and looking every four cost hull48 1.5%
// and hull256 2.5% (A/B on AMD; sixteen measured the same as eight).
// The other's vertex i, broadcast: from its rows x, y, z (MF_VERTEX_ROWS_STRIDE apart) where the
// frame keeps them (`rows` not NULL), else from `vertices`.
static inline mf_vec3w splat_vertex(const float *rows, const mf_vec3 *vertices, uint32_t i)
{
    if (rows == NULL) return mf_splat3w(vertices[i]);
    return (mf_vec3w){mf_splatw(rows[i]), mf_splatw(rows[i + MF_VERTEX_ROWS_STRIDE]),
                      mf_splatw(rows[i + 2 * MF_VERTEX_ROWS_STRIDE])};
}

static inline mf_floatw support_from(mf_vec3w normal, mf_floatw offset, const float *rows, const mf_vec3 *vertices,
                                     uint32_t count, float best)
{
    // Two running minima (the even and the odd vertices): a minimum is the same in any order, and
    // one chain would wait on the latency of every min (four cycles on Intel's cores).
    mf_floatw even = mf_splatw(INFINITY), odd = even, best_so_far = mf_splatw(best);
    uint32_t i = 0;
    for (; i + 8 <= count; i += 8) { // eight vertices between looks at the lanes
        for (uint32_t k = 0; k < 8; k += 2) {
            even = mf_minw(even, mf_dotw(normal, splat_vertex(rows, vertices, i + k)));
            odd = mf_minw(odd, mf_dotw(normal, splat_vertex(rows, vertices, i + k + 1)));
        }
        if (mf_allw(mf_ltw(mf_subw(mf_minw(even, odd), offset), best_so_far))) return mf_minw(even, odd);
    }
    for (; i < count; ++i) even = mf_minw(even, mf_dotw(normal, splat_vertex(rows, vertices, i)));
    return mf_minw(even, odd);
}

// The rows where the frame keeps them (where the ISA moves vertices in lanes, the frame keeps no
// other copy), the vertices otherwise: a copy of the loop for each, so none tests per vertex.
static mf_floatw support_of(mf_vec3w normal, mf_floatw offset, const mf_face_other *other, float best)
{
    if (other->rows != NULL) return support_from(normal, offset, other->rows, NULL, other->count, best);
    return support_from(normal, offset, NULL, other->vertices, other->count, best);
}

// Offers a register of measured faces to `best` in lane order, as mf_query_faces does face by
// face: the first of equals wins, and the first face past the margin ends the search (returns 1),
// the faces after it unseen. Lane l holds face[l] (`face` NULL: first + l); lanes out of play
// separate by -infinity. Most registers beat nothing (the best is never above the margin here).
static int offer_faces(mf_floatw separation, const float *face, uint32_t first, float margin, mf_face_query *best)
{
    if (!mf_anyw(mf_gtw(separation, mf_splatw(best->separation)))) return 0;
    uint32_t past = mf_lane_bitsw(mf_gtw(separation, mf_splatw(margin)));
    if (past != 0) { // lanes after the first past the margin are never seen
        uint32_t seen = (past & (0u - past)) * 2u - 1u;
        separation = mf_selectw(mf_ltw(mf_lane_indexw(), mf_splatw((float)__builtin_popcount(seen))), separation,
                                mf_splatw(-INFINITY));
    }
    float most;
    uint32_t lane = mf_best_lane(separation, NULL, NULL, &most); // lanes hold ascending faces
    if (most > best->separation) {
        *best = (mf_face_query){most, face != NULL ? (uint32_t)face[lane] : first + lane};
    }
    return past != 0;
}

// The other hull's least projection on `normal`, every vertex read from its rows W at a time: the
// support mf_query_faces finds (the least of the same products, in any order, is the same).
static float least_projection(const mf_face_other *other, mf_vec3 normal)
{
    const float *x = other->rows, *y = x + MF_VERTEX_ROWS_STRIDE, *z = y + MF_VERTEX_ROWS_STRIDE;
    mf_vec3w n = mf_splat3w(normal);
    mf_floatw least = mf_splatw(INFINITY);
    uint32_t whole = other->count / W * W;
    for (uint32_t v = 0; v < whole; v += W) least = mf_minw(least, mf_dotw(n, mf_load3uw(x + v, y + v, z + v)));
    if (whole < other->count) { // the rows hold anything past the last vertex: masked off
        mf_maskw in = mf_ltw(mf_lane_indexw(), mf_splatw((float)(other->count - whole)));
        mf_floatw last = mf_dotw(n, mf_load3uw(x + whole, y + whole, z + whole));
        least = mf_minw(least, mf_selectw(in, last, mf_splatw(INFINITY)));
    }
    return mf_min_acrossw(least);
}

// Face f's separation, as mf_query_faces measures it.
static mf_face_query measure_face(const mf_hull_view *hull, const mf_face_other *other, uint32_t f)
{
    return (mf_face_query){least_projection(other, mf_view_normal(hull, f)) - hull->offset[f], f};
}

// Whether a face whose separation is at most `bound` could still beat `best` (ties go to the
// lower face).
static inline int could_beat(float bound, uint32_t face, const mf_face_query *best)
{
    return bound > best->separation || (bound == best->separation && face < best->face);
}

// A batch of faces to bound (rows of normals, offsets and face indices, `count` of them and a
// register past), and the faces bounded so far: their bounds and indices, in face order.
typedef struct face_batch {
    float normal_x[BATCH + W], normal_y[BATCH + W], normal_z[BATCH + W], offset[BATCH + W], face[BATCH + W];
    uint32_t count;
    float *bound;    // [hull's faces + W]
    uint16_t *faces; // [hull's faces + W]
    uint32_t bounded;
    mf_face_query highest; // the highest bound, the first of equals
} face_batch;

// Bounds the batch's faces by the vertex of the other hull its support map names for each face's
// direction: a face's separation, its plane's height of the other's lowest vertex, is at most its
// height of any vertex, and the named vertex lies close to the lowest. The map holds the vertex in
// the other's frame: its height is taken there, n . (M x + s) = (M^T n) . x + n . s, a hair higher
// (mf_face_map's slack) for the float noise between that and the height of the vertex moved
// into this frame, which the measure takes.
static void bound_batch(const mf_face_other *other, const mf_face_map *map, face_batch *batch)
{
    const mf_mat3 *m = &map->to_map;
    const mf_mat3w to_map = {{mf_splat3w(m->row[0]), mf_splat3w(m->row[1]), mf_splat3w(m->row[2])}};
    mf_vec3w shift = mf_splat3w(map->shift);
    mf_floatw slack = mf_splatw(map->slack);
    float *bound = batch->bound + batch->bounded;
    for (uint32_t first = 0; first < batch->count; first += W) {
        mf_vec3w normal = mf_load3uw(batch->normal_x + first, batch->normal_y + first, batch->normal_z + first);
        // The other hull's lowest point along the normal supports it along -normal. Lanes past the
        // batch hold anything: whatever they bound, nobody reads it.
        mf_vec3w turned = mf_mat3_mulw(&to_map, normal);
        mf_vec3w point;
        mf_floatw vertex;
        mf_support_map_lookupw(other->support_map, mf_support_map_cellw(mf_neg3w(turned)), &point, &vertex);
        mf_floatw height = mf_addw(mf_dotw(turned, point), mf_dotw(normal, shift));
        mf_storeuw(bound + first, mf_addw(mf_subw(height, mf_loaduw(batch->offset + first)), slack));
    }
    for (uint32_t k = 0; k < batch->count; ++k) {
        uint32_t face = (uint32_t)batch->face[k];
        batch->faces[batch->bounded + k] = (uint16_t)face;
        if (bound[k] > batch->highest.separation) batch->highest = (mf_face_query){bound[k], face}; // faces ascend
    }
    batch->bounded += batch->count;
    batch->count = 0;
}

// The face query against a large hull (a support map, and its vertices as rows), `height` holding
// every face's height of the other's centroid, `highest` the highest. The first face of the highest
// height is measured first; its separation s is a lower bound of the best, so only faces whose
// height less the other's inner radius (an upper bound of their separation) reaches s can beat it,
// and only faces in reach (mf_face_reach): a sixth to a quarter of the bunny's hull. Those are
// bounded by their support map vertex (bound_batch), the highest bound is measured, then, in
// order, every face whose bound could beat the best so far: one to three of hundreds.
// This finds what mf_query_faces does. Without a face past the margin, that is the greatest
// separation, the first of equals: every face left unmeasured is bounded below the best. With one,
// the scalar search ends at the first such face, which is then its best: the faces in reach before
// the best whose bound passes the margin are measured in order for it.
static mf_face_query faces_bounded(const mf_hull_view *hull, const mf_face_other *other, float margin,
                                   float highest_height, float *height)
{
    // The first face of the highest height, a register at a time (it is there: the height is finite).
    uint32_t start = 0, highest_lanes;
    while ((highest_lanes = mf_lane_bitsw(mf_eqw(mf_loaduw(height + start), mf_splatw(highest_height)))) == 0)
        start += W;
    start += (uint32_t)__builtin_ctz(highest_lanes);
    float lowest = highest_height - other->reach;
    mf_face_query best = measure_face(hull, other, start);
    mf_face_map map = mf_face_map_of(other);
    mf_floatw threshold = mf_splatw(mf_maxf(lowest, best.separation + other->inner));
    uint16_t faces[MF_MAX_HULL_FACES + W];
    face_batch batch; // field by field: an initialiser would zero its rows, kilobytes
    batch.count = batch.bounded = 0;
    batch.bound = height;
    batch.faces = faces;
    batch.highest = (mf_face_query){-INFINITY, 0};
    // The bounds go into `height` from its start: never past the heights read so far.
    for (uint32_t first = 0; first < hull->face_count; first += W) {
        uint32_t bits = mf_lane_bitsw(mf_gew(mf_loaduw(height + first), threshold));
        if (bits == 0) continue;
        uint32_t at = batch.count;
        mf_compress_storew(batch.normal_x + at, bits, mf_loaduw(hull->normal_x + first));
        mf_compress_storew(batch.normal_y + at, bits, mf_loaduw(hull->normal_y + first));
        mf_compress_storew(batch.normal_z + at, bits, mf_loaduw(hull->normal_z + first));
        mf_compress_storew(batch.offset + at, bits, mf_loaduw(hull->offset + first));
        batch.count += mf_compress_storew(batch.face + at, bits, mf_addw(mf_lane_indexw(), mf_splatw((float)first)));
        if (batch.count > BATCH - W) bound_batch(other, &map, &batch);
    }
    if (batch.count > 0) bound_batch(other, &map, &batch);

    const float *bound = batch.bound;
    mf_face_query highest = batch.highest;
    if (highest.face != start && could_beat(highest.separation, highest.face, &best)) {
        mf_face_query measured = measure_face(hull, other, highest.face);
        if (could_beat(measured.separation, measured.face, &best)) best = measured;
    }
    for (uint32_t first = 0; first < batch.bounded; first += W) {
        mf_floatw b = mf_loaduw(bound + first), best_separation = mf_splatw(best.separation);
        // Ties: the face index decides, below.
        uint32_t bits = mf_lane_bitsw(mf_gew(b, best_separation));
        if (batch.bounded - first < W) bits &= (1u << (batch.bounded - first)) - 1u;
        for (; bits != 0; bits &= bits - 1u) {
            uint32_t k = first + (uint32_t)__builtin_ctz(bits), f = faces[k];
            if (f == start || f == highest.face || !could_beat(bound[k], f, &best)) continue; // measured already
            mf_face_query measured = measure_face(hull, other, f);
            if (could_beat(measured.separation, f, &best)) best = measured;
        }
    }
    if (!(best.separation > margin)) return best;
    // The faces not bounded separate by at most their height less the inner radius.
    for (uint32_t f = 0, k = 0; f < best.face; ++f) { // the first face past the margin
        while (k < batch.bounded && faces[k] < f) ++k;
        float h = mf_face_height(hull, f, other->centroid);
        float upper = k < batch.bounded && faces[k] == f ? bound[k] : h - other->inner;
        if (!(h >= lowest) || !(upper > margin)) continue;
        mf_face_query measured = measure_face(hull, other, f);
        if (measured.separation > margin) return measured;
    }
    return best;
}

mf_face_query MF_NAMED(mf_face_lanes, MF_WIDE_NAME)(const mf_hull_view *hull, const mf_face_other *other, float margin)
{
    MF_ASSERT(hull->face_count >= 4 && hull->face_count <= MF_MAX_HULL_FACES && other->count >= 4);
    float height[MF_MAX_HULL_FACES + W];
    uint32_t live_bits[MF_MAX_HULL_FACES / W + 1];
    float highest_height = face_heights(hull, other->centroid, height);
    mf_floatw lowest = mf_splatw(highest_height - other->reach);
    uint32_t blocks = (hull->face_count + W - 1) / W, live = 0, live_blocks = 0;
    for (uint32_t k = 0; k < blocks; ++k) {
        live_bits[k] = mf_lane_bitsw(mf_gew(mf_loaduw(height + k * W), lowest));
        live += (uint32_t)__builtin_popcount(live_bits[k]);
        live_blocks += live_bits[k] != 0;
    }
    if (other->support_map != NULL && other->rows != NULL && isfinite(highest_height) && live >= BOUNDED_MIN_LIVE)
        return faces_bounded(hull, other, margin, highest_height, height);

    mf_face_query best = {-INFINITY, 0};
    if ((live + W - 1) / W < live_blocks && live <= GATHERED_MAX) {
        // Faces in reach spread over more registers than they fill: gathered into registers of
        // their own, in order (a compress per row and register), each saves a vertex loop.
        float normal_x[GATHERED_MAX + W], normal_y[GATHERED_MAX + W], normal_z[GATHERED_MAX + W];
        float offsets[GATHERED_MAX + W], face[GATHERED_MAX + W];
        uint32_t count = 0;
        for (uint32_t k = 0; k < blocks; ++k) {
            uint32_t bits = live_bits[k], first = k * W;
            if (bits == 0) continue; // most registers of a large hull
            mf_compress_storew(normal_x + count, bits, mf_loaduw(hull->normal_x + first));
            mf_compress_storew(normal_y + count, bits, mf_loaduw(hull->normal_y + first));
            mf_compress_storew(normal_z + count, bits, mf_loaduw(hull->normal_z + first));
            mf_compress_storew(offsets + count, bits, mf_loaduw(hull->offset + first));
            count += mf_compress_storew(face + count, bits, mf_addw(mf_lane_indexw(), mf_splatw((float)first)));
        }
        // No face past the last: a zero normal, and an infinite offset that puts it below anything.
        mf_storeuw(normal_x + count, mf_splatw(0.0f));
        mf_storeuw(normal_y + count, mf_splatw(0.0f));
        mf_storeuw(normal_z + count, mf_splatw(0.0f));
        mf_storeuw(offsets + count, mf_splatw(INFINITY));
        for (uint32_t first = 0; first < count; first += W) {
            mf_floatw offset = mf_loaduw(offsets + first);
            mf_vec3w normal = mf_load3uw(normal_x + first, normal_y + first, normal_z + first);
            mf_floatw support = support_of(normal, offset, other, best.separation);
            if (offer_faces(mf_subw(support, offset), face + first, 0, margin, &best)) return best;
        }
        return best;
    }
    for (uint32_t k = 0; k < blocks; ++k) {
        if (live_bits[k] == 0) continue;
        uint32_t first = k * W;
        mf_vec3w normal = {mf_loaduw(hull->normal_x + first), mf_loaduw(hull->normal_y + first),
                           mf_loaduw(hull->normal_z + first)};
        // Faces out of reach take no part: an infinite offset puts them below anything.
        mf_floatw offset =
            mf_selectw(mf_gew(mf_loaduw(height + first), lowest), mf_loaduw(hull->offset + first), mf_splatw(INFINITY));
        mf_floatw support = support_of(normal, offset, other, best.separation);
        if (offer_faces(mf_subw(support, offset), NULL, first, margin, &best)) return best;
    }
    return best;
}
