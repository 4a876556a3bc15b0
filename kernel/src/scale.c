// Per-body scale: the scales a shape takes, and scaled copies of its geometry (scale.h).
#include "scale.h"
#include "core.h"

#include "vec.h"

#include <float.h>
#include <math.h>
#include <string.h>

void mf_scale_limits(float extent, float volume, float *low, float *high)
{
    // The largest scale whose product with the extent stays within MF_MAX_LENGTH, as the kernel
    // forms it (in float).
    float most = extent > 0.0f ? MF_MAX_LENGTH / extent : FLT_MAX;
    while (most > 1.0f && !(most * extent <= MF_MAX_LENGTH)) most = nextafterf(most, 0.0f);
    // The least whose cube times the volume reaches FLT_MIN (in double: the cube underflows float).
    float least = (float)cbrt((double)FLT_MIN / (double)volume);
    while (least < 1.0f && (double)least * least * least * volume < (double)FLT_MIN)
        least = nextafterf(least, INFINITY);
    *low = fminf(least, 1.0f);
    *high = fmaxf(most, 1.0f);
}

mf_shape mf_shape_scaled(const mf_shape *shape, float scale)
{
    mf_shape s = *shape;
    s.centroid = mf_scale(shape->centroid, scale);
    s.volume = shape->volume * scale * scale * scale;
    s.radius = shape->radius * scale;
    s.inner_radius = shape->inner_radius * scale;
    s.outer_radius = shape->outer_radius * scale;
    s.centroid_slack = shape->centroid_slack * scale;
    s.bounds_center = mf_scale(shape->bounds_center, scale);
    s.bounds_half = mf_scale(shape->bounds_half, scale);
    s.half_extents = mf_scale(shape->half_extents, scale);
    return s;
}

// to[0, count) = from[0, count) times scale, then MF_BANK_PAD zeros.
static void scale_into(float *to, const float *from, uint32_t count, float scale)
{
    for (uint32_t i = 0; i < count; ++i) to[i] = from[i] * scale;
    memset(to + count, 0, MF_BANK_PAD * sizeof(float));
}

const mf_hull_view *mf_scaled_hull_of(const mf_bank *bank, uint32_t shape, float scale, mf_scaled_hull *room)
{
    MF_ASSERT(scale != 1.0f); // mf_body_hull hands out the bank's own view for 1
    const mf_hull_view *own = mf_bank_hull(bank, shape);
    room->shape = mf_shape_scaled(own->shape, scale);
    room->view = *own;
    room->view.shape = &room->shape;
    room->view.centroid = room->shape.centroid;
    scale_into(room->vertex_x, own->vertex_x, own->vertex_count, scale);
    scale_into(room->vertex_y, own->vertex_y, own->vertex_count, scale);
    scale_into(room->vertex_z, own->vertex_z, own->vertex_count, scale);
    scale_into(room->offset, own->offset, own->face_count, scale);
    room->view.vertex_x = room->vertex_x;
    room->view.vertex_y = room->vertex_y;
    room->view.vertex_z = room->vertex_z;
    room->view.offset = room->offset;
    if (own->edge_rows != NULL) {
        // Rows normal0, normal1, vertex0 (3 each, rows.h), then a record per edge: normal0,
        // normal1, direction, vertex0, 4 floats each. Only vertex0 is a length.
        uint32_t padded = mf_edge_rows_padded(own->edge_count);
        uint32_t rows = MF_EDGE_ROWS * padded, floats = rows + MF_EDGE_RECORD * own->edge_count;
        _Static_assert(MF_EDGE_ROWS == 9 && MF_EDGE_RECORD == 16, "the layout scaled below");
        memcpy(room->edge_rows, own->edge_rows, floats * sizeof(float));
        for (uint32_t i = 6 * padded; i < rows; ++i) room->edge_rows[i] *= scale;
        float *records = room->edge_rows + rows;
        for (uint32_t e = 0; e < own->edge_count; ++e)
            for (uint32_t c = 0; c < 3; ++c) records[MF_EDGE_RECORD * e + 12 + c] *= scale;
        room->view.edge_rows = room->edge_rows;
        room->view.edge_records = records;
    }
    if (own->support_map != NULL) {
        // Each cell names a vertex by its point (three lengths) and its index (not a length).
        for (uint32_t k = 0; k < MF_SUPPORT_MAP_ENTRY * MF_SUPPORT_MAP_CELLS; ++k)
            room->support_map[k] = k % MF_SUPPORT_MAP_ENTRY < 3 ? own->support_map[k] * scale : own->support_map[k];
        room->view.support_map = room->support_map;
    }
    return &room->view;
}
