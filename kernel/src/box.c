// Boxes: a hull with exact axis-aligned planes, built without qhull.
#include "bank.h"

#include "vec.h"

#include <stddef.h>

mf_status mf_bank_add_box(mf_bank *bank, mf_vec3 half_extents, uint32_t *shape)
{
    if (bank == NULL || shape == NULL) return MF_ERR_INVALID_ARGUMENT;
    if (!mf_is_finite3(half_extents)) return MF_ERR_NONFINITE;
    if (!(half_extents.x > 0.0f && half_extents.y > 0.0f && half_extents.z > 0.0f)) return MF_ERR_DEGENERATE_HULL;

    // Vertex i has x, y, z signs from bits 0, 1, 2; loops run counter-clockwise from outside.
    mf_vec3 vertices[8];
    for (int i = 0; i < 8; ++i) {
        vertices[i] = (mf_vec3){(i & 1) ? half_extents.x : -half_extents.x, (i & 2) ? half_extents.y : -half_extents.y,
                                (i & 4) ? half_extents.z : -half_extents.z};
    }
    static const uint16_t loops[24] = {0, 4, 6, 2, /* -x */ 1, 3, 7, 5, /* +x */ 0, 1, 5, 4, /* -y */
                                       2, 6, 7, 3, /* +y */ 0, 2, 3, 1, /* -z */ 4, 5, 7, 6 /* +z */};
    static const uint16_t loop_counts[6] = {4, 4, 4, 4, 4, 4};
    mf_polyhedron box = {.vertices = vertices,
                         .vertex_count = 8,
                         .loops = loops,
                         .loop_counts = loop_counts,
                         .face_count = 6,
                         .input_points = 8};
    return mf_bank_add_polyhedron(bank, &box, shape);
}
