// The face query of one pair with lanes across the hull's faces: W face planes loaded once, every
// vertex of the other hull broadcast against them, so the cost is F * V / W. Each lane takes the
// minimum in the order mf_query_faces does and the faces are then scanned in order with its
// early out, so the answer is the scalar one bit for bit.
#include "face_lanes.h"
#include "wide.h"

#define MF_GLUE(a, b) a##_##b
#define MF_NAMED(a, b) MF_GLUE(a, b)

enum { W = MF_WIDE_WIDTH };

mf_face_query MF_NAMED(mf_face_lanes, MF_WIDE_NAME)(const mf_hull_view *hull, const mf_vec3 *other_vertices,
                                                    uint32_t other_count, float margin)
{
    mf_face_query best = {-INFINITY, 0};
    MF_ALIGNED_LANES(normal_x);
    MF_ALIGNED_LANES(normal_y);
    MF_ALIGNED_LANES(normal_z);
    MF_ALIGNED_LANES(offsets);
    MF_ALIGNED_LANES(supports);
    for (uint32_t first = 0; first < hull->face_count; first += W) {
        mf_vec3w normal;
        mf_floatw offset;
        if (first + W <= hull->face_count) {
            normal = (mf_vec3w){mf_loaduw(hull->normal_x + first), mf_loaduw(hull->normal_y + first),
                                mf_loaduw(hull->normal_z + first)};
            offset = mf_loaduw(hull->offset + first);
        } else { // the last faces, padded: no load past the shape's planes
            for (uint32_t l = 0; l < W; ++l) {
                uint32_t f = first + l < hull->face_count ? first + l : first;
                normal_x[l] = hull->normal_x[f], normal_y[l] = hull->normal_y[f], normal_z[l] = hull->normal_z[f];
                offsets[l] = first + l < hull->face_count ? hull->offset[f] : INFINITY;
            }
            normal = mf_load3w(normal_x, normal_y, normal_z);
            offset = mf_loadw(offsets);
        }
        // A lane's separation only falls as vertices come: once every face of the block is below
        // the best so far, none can beat it or end the search, and the rest of the vertices can go.
        mf_floatw support = mf_splatw(INFINITY), best_so_far = mf_splatw(best.separation);
        for (uint32_t i = 0; i < other_count; ++i) {
            mf_vec3 v = other_vertices[i];
            mf_vec3w vertex = {mf_splatw(v.x), mf_splatw(v.y), mf_splatw(v.z)};
            support = mf_minw(support, mf_dotw(normal, vertex));
            if ((i & 3) == 3 && mf_allw(mf_ltw(mf_subw(support, offset), best_so_far))) break;
        }
        // Only a face above the best so far changes the answer or ends the search (the best is
        // never above the margin here): most blocks have none.
        if (!mf_anyw(mf_gtw(mf_subw(support, offset), best_so_far))) continue;
        mf_storew(supports, support);
        for (uint32_t l = 0; l < W && first + l < hull->face_count; ++l) { // as mf_query_faces, face by face
            uint32_t f = first + l;
            float separation = supports[l] - hull->offset[f];
            if (separation > best.separation) best = (mf_face_query){separation, f};
            if (separation > margin) return best;
        }
    }
    return best;
}
