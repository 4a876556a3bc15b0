// Boxes: a hull with exact axis-aligned planes, built without qhull.
#include "bank.h"

#include "core.h"
#include "vec.h"

#include <math.h>
#include <stddef.h>

// What the box pair path needs beyond the polyhedron: half extents and the direction group of each
// axis (for cache entries that name edge directions). Its edges are numbered as mf_box_edge says.
static void mark_box(mf_bank *bank, uint32_t shape, mf_vec3 half_extents)
{
    mf_shape *s = &bank->shapes[shape];
    s->box = 1;
    s->half_extents = half_extents;
    for (uint32_t e = 0; e < s->edge_count; ++e) {
        uint32_t v0 = bank->edge_vertex0[s->edge_first + e], v1 = bank->edge_vertex1[s->edge_first + e];
        uint32_t axis = (v0 ^ v1) == 1 ? 0 : (v0 ^ v1) == 2 ? 1 : 2;
        MF_ASSERT(mf_box_edge(v0, axis) == e && mf_box_edge(v1, axis) == e);
    }
    // The box-hull queries take face 2 k for axis k's negative side and 2 k + 1 for its positive
    // one, its plane's offset the half extent (box_hull_pair.c, box_faces).
    const float *normal[3] = {bank->normal_x, bank->normal_y, bank->normal_z};
    const float half[3] = {half_extents.x, half_extents.y, half_extents.z};
    for (uint32_t f = 0; f < 6; ++f) {
        float along = f % 2 ? 1.0f : -1.0f;
        for (uint32_t k = 0; k < 3; ++k) MF_ASSERT(normal[k][s->face_first + f] == (k == f / 2 ? along : 0.0f));
        MF_ASSERT(bank->offset[s->face_first + f] == half[f / 2]);
    }
    for (uint32_t k = 0; k < 3; ++k) {
        for (uint8_t d = 0; d < 3; ++d) {
            float component = k == 0 ? s->directions[d].x : k == 1 ? s->directions[d].y : s->directions[d].z;
            if (fabsf(component) > 0.5f) s->box_direction[k] = d;
        }
    }
}

mf_status mf_bank_add_box(mf_bank *bank, mf_vec3 half_extents, mf_shape_id *shape)
{
    if (bank == NULL) return MF_ERR_INVALID_ARGUMENT;
    mf_bank_clear_message(bank);
    if (shape == NULL) return mf_bank_fail(bank, MF_ERR_INVALID_ARGUMENT, "shape is NULL");
    // NaN or infinity first, then zero or less, then too long: the statuses boxes always had.
    const float half[3] = {half_extents.x, half_extents.y, half_extents.z};
    for (int rule = 0; rule < 3; ++rule) {
        for (int k = 0; k < 3; ++k) {
            int broken = rule == 0 ? !isfinite(half[k]) : rule == 1 ? !(half[k] > 0.0f) : half[k] > MF_MAX_LENGTH;
            if (broken)
                return mf_bank_fail(bank,
                                    rule == 0   ? MF_ERR_NONFINITE
                                    : rule == 1 ? MF_ERR_DEGENERATE_HULL
                                                : MF_ERR_HULL_TOO_LARGE,
                                    "half_extents.%c is %g: every half extent must be > 0 and <= MF_MAX_LENGTH (%g)",
                                    "xyz"[k], (double)half[k], (double)MF_MAX_LENGTH);
        }
    }

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
    mf_status status = mf_bank_add_polyhedron(bank, &box, shape);
    if (status == MF_OK) mark_box(bank, *shape, half_extents);
    else mf_bank_fail(bank, status, "%s", mf_status_string(status)); // where no detail was given
    return status;
}
