// The face query of one pair with lanes across the hull's faces. The heights of the other hull's
// centroid over every face plane come first, W at a time; only faces within the reach of the
// highest can be the best (mf_face_reach), a handful, and those are measured W at a time, every
// vertex of the other hull broadcast against them. Each lane takes the minimum as mf_query_faces
// does and the candidates are then scanned in order with its early out, so the answer is the
// scalar one bit for bit.
#include "face_lanes.h"
#include "wide.h"

#define MF_GLUE(a, b) a##_##b
#define MF_NAMED(a, b) MF_GLUE(a, b)

// Faces in reach are gathered up to this many (the stack's share); hulls with more in reach fill
// their registers anyway.
enum { W = MF_WIDE_WIDTH, GATHERED_MAX = 256 };

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
// margin here), and the rest of the vertices can go.
static mf_floatw support_of(mf_vec3w normal, mf_floatw offset, const mf_face_other *other, float best)
{
    mf_floatw support = mf_splatw(INFINITY), best_so_far = mf_splatw(best);
    uint32_t i = 0;
    for (; i + 4 <= other->count; i += 4) { // four vertices between looks at the lanes
        for (uint32_t k = 0; k < 4; ++k)
            support = mf_minw(support, mf_dotw(normal, mf_splat3w(other->vertices[i + k])));
        if (mf_allw(mf_ltw(mf_subw(support, offset), best_so_far))) return support;
    }
    for (; i < other->count; ++i) support = mf_minw(support, mf_dotw(normal, mf_splat3w(other->vertices[i])));
    return support;
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
    float most = mf_max_acrossw(separation);
    if (most > best->separation) {
        uint32_t lane = (uint32_t)__builtin_ctz(mf_lane_bitsw(mf_eqw(separation, mf_splatw(most))));
        *best = (mf_face_query){most, face != NULL ? (uint32_t)face[lane] : first + lane};
    }
    return past != 0;
}

mf_face_query MF_NAMED(mf_face_lanes, MF_WIDE_NAME)(const mf_hull_view *hull, const mf_face_other *other, float margin)
{
    float height[MF_MAX_HULL_FACES + W];
    uint32_t live_bits[MF_MAX_HULL_FACES / W + 1];
    mf_floatw lowest = mf_splatw(face_heights(hull, other->centroid, height) - other->reach);
    uint32_t blocks = (hull->face_count + W - 1) / W, live = 0, live_blocks = 0;
    for (uint32_t k = 0; k < blocks; ++k) {
        live_bits[k] = mf_lane_bitsw(mf_gew(mf_loaduw(height + k * W), lowest));
        live += (uint32_t)__builtin_popcount(live_bits[k]);
        live_blocks += live_bits[k] != 0;
    }

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
