// The rows a shape keeps for the lanes (bank_rows.h): their blocks, and the writers of its fans,
// its wide rows, edge rows and records, bundle image and support map.
#include "bank_rows.h"

#include "core.h"
#include "rows.h"
#include "support_map.h"
#include "vec.h"

#include <math.h>
#include <string.h>

mf_row_blocks mf_row_blocks_of(uint32_t vertex_count, uint32_t face_count, uint32_t edge_count, uint32_t loop_count)
{
    mf_row_blocks b = {0};
    b.wide = vertex_count <= MF_WIDE_MAX_VERTICES && face_count <= MF_WIDE_MAX_FACES && edge_count <= MF_WIDE_MAX_EDGES;
    b.bundled = b.wide && vertex_count <= MF_BUNDLE_MAX_VERTICES && face_count <= MF_BUNDLE_MAX_FACES;
    // Every shape keeps its edge rows and records (the cull and the edge query in lanes read them,
    // whatever the hull's size); only shapes within the wide limits keep the rows before them.
    b.wide_rows = b.wide ? mf_rows_total((mf_rows){vertex_count, face_count}) : 0;
    b.edge_rows = MF_EDGE_ROWS * mf_edge_rows_padded(edge_count) + MF_EDGE_RECORD * edge_count;
    b.fan_rows = MF_FAN_ROWS * mf_fan_stride(loop_count);
    b.image_rows = b.bundled ? MF_IMAGE_FLOATS : 0;
    b.map_rows = b.wide ? 0 : MF_SUPPORT_MAP_ENTRY * MF_SUPPORT_MAP_CELLS;
    b.total = b.wide_rows + b.edge_rows + b.fan_rows + b.image_rows + b.map_rows;
    return b;
}

void mf_place_row_blocks(mf_shape *s, const mf_row_blocks *b, uint32_t first)
{
    s->rows_first = b->wide ? first : UINT32_MAX;
    s->edge_rows_first = first + b->wide_rows;
    s->fan_rows_first = first + b->wide_rows + b->edge_rows;
    s->image_first = b->bundled ? first + b->wide_rows + b->edge_rows + b->fan_rows : UINT32_MAX;
    s->support_map_first = b->wide ? UINT32_MAX : first + b->wide_rows + b->edge_rows + b->fan_rows + b->image_rows;
    s->block_first = first;
    s->block_rows = b->total;
}

// Fills a shape's wide rows from its stored arrays, with the same float operations the scalar
// queries perform, so both paths see identical values.
static void write_rows(mf_bank *bank, uint32_t shape, mf_rows rows)
{
    const mf_shape *s = &bank->shapes[shape];
    float *out = bank->rows + s->rows_first;
    mf_hull_view hull = mf_bank_view(bank, shape);
    for (uint32_t v = 0; v < rows.vertices; ++v) {
        out[mf_row_vertex(rows, 0, v)] = hull.vertex_x[v];
        out[mf_row_vertex(rows, 1, v)] = hull.vertex_y[v];
        out[mf_row_vertex(rows, 2, v)] = hull.vertex_z[v];
    }
    for (uint32_t f = 0; f < rows.faces; ++f) {
        out[mf_row_face(rows, 0, f)] = hull.normal_x[f];
        out[mf_row_face(rows, 1, f)] = hull.normal_y[f];
        out[mf_row_face(rows, 2, f)] = hull.normal_z[f];
        out[mf_row_face(rows, 3, f)] = hull.offset[f];
    }
    for (uint32_t k = 0; k < 3; ++k) {
        out[mf_row_direction(rows, 0, k)] = s->directions[k].x;
        out[mf_row_direction(rows, 1, k)] = s->directions[k].y;
        out[mf_row_direction(rows, 2, k)] = s->directions[k].z;
    }
}

// Fills a shape's edge rows and records (rows.h), which every shape keeps, whatever its size.
static void write_edge_rows(mf_bank *bank, uint32_t shape)
{
    const mf_shape *s = &bank->shapes[shape];
    mf_hull_view hull = mf_bank_view(bank, shape);
    float *edge_rows = bank->rows + s->edge_rows_first;
    uint32_t padded = mf_edge_rows_padded(hull.edge_count);
    memset(edge_rows, 0, MF_EDGE_ROWS * padded * sizeof(float));
    for (uint32_t e = 0; e < hull.edge_count; ++e) {
        mf_vec3 values[4] = {mf_view_normal(&hull, hull.edge_face0[e]),
                             mf_view_normal(&hull, hull.edge_face1[e]),
                             {hull.edge_x[e], hull.edge_y[e], hull.edge_z[e]},
                             mf_view_vertex(&hull, hull.edge_vertex0[e])};
        float *record = edge_rows + MF_EDGE_ROWS * padded + MF_EDGE_RECORD * e;
        for (uint32_t k = 0; k < 4; ++k) {
            record[4 * k + 0] = values[k].x;
            record[4 * k + 1] = values[k].y;
            record[4 * k + 2] = values[k].z;
            record[4 * k + 3] = 0.0f;
        }
        const uint32_t in_rows[3] = {0, 1, 3}; // the rows keep no direction
        for (uint32_t r = 0; r < 3; ++r) {
            edge_rows[(3 * r + 0) * padded + e] = values[in_rows[r]].x;
            edge_rows[(3 * r + 1) * padded + e] = values[in_rows[r]].y;
            edge_rows[(3 * r + 2) * padded + e] = values[in_rows[r]].z;
        }
    }
}

// A bundled shape's image (rows.h): its bundle rows padded to the bundle limits.
static void write_image(mf_bank *bank, uint32_t shape)
{
    const mf_shape *s = &bank->shapes[shape];
    float *out = bank->rows + s->image_first;
    mf_hull_view hull = mf_bank_view(bank, shape);
    for (uint32_t v = 0; v < MF_BUNDLE_MAX_VERTICES; ++v) {
        uint32_t from = v < hull.vertex_count ? v : 0;
        out[mf_image_vertex(0) + v] = hull.vertex_x[from];
        out[mf_image_vertex(1) + v] = hull.vertex_y[from];
        out[mf_image_vertex(2) + v] = hull.vertex_z[from];
    }
    for (uint32_t f = 0; f < MF_BUNDLE_MAX_FACES; ++f) {
        int own = f < hull.face_count;
        out[mf_image_face(0) + f] = own ? hull.normal_x[f] : 0.0f;
        out[mf_image_face(1) + f] = own ? hull.normal_y[f] : 0.0f;
        out[mf_image_face(2) + f] = own ? hull.normal_z[f] : 0.0f;
        out[mf_image_face(3) + f] = own ? hull.offset[f] : INFINITY;
    }
    float *directions = out + mf_image_directions();
    memset(directions, 0, MF_IMAGE_DIRECTIONS * sizeof(float));
    for (uint32_t k = 0; k < 3; ++k) {
        directions[3 * 0 + k] = s->directions[k].x;
        directions[3 * 1 + k] = s->directions[k].y;
        directions[3 * 2 + k] = s->directions[k].z;
    }
}

// Fills a large shape's support map (support_map.h): per cell the vertex that supports the cell's
// centre direction (the first of equals), its point and its index.
static void write_support_map(mf_bank *bank, uint32_t shape)
{
    const mf_shape *s = &bank->shapes[shape];
    mf_hull_view hull = mf_bank_view(bank, shape);
    float *map = bank->rows + s->support_map_first;
    for (uint32_t cell = 0; cell < MF_SUPPORT_MAP_CELLS; ++cell) {
        mf_vec3 direction = mf_support_map_centre(cell);
        uint32_t best = 0;
        float height = -INFINITY;
        for (uint32_t v = 0; v < hull.vertex_count; ++v) {
            float h = mf_dot(direction, mf_view_vertex(&hull, v));
            if (h > height) height = h, best = v;
        }
        float *entry = map + MF_SUPPORT_MAP_ENTRY * cell;
        entry[0] = hull.vertex_x[best], entry[1] = hull.vertex_y[best], entry[2] = hull.vertex_z[best];
        entry[3] = (float)best;
    }
}

// Lists each vertex's edges (in edge order) for the walks over the Gauss map (edge_walk.c).
static void write_fans(mf_bank *bank, uint32_t shape)
{
    const mf_shape *s = &bank->shapes[shape];
    uint32_t *first = bank->vertex_fan_first + s->vertex_first;
    uint16_t *count = bank->vertex_fan_count + s->vertex_first;
    mf_hull_view hull = mf_bank_view(bank, shape);
    memset(count, 0, s->vertex_count * sizeof(uint16_t));
    for (uint32_t e = 0; e < s->edge_count; ++e) {
        ++count[hull.edge_vertex0[e]];
        ++count[hull.edge_vertex1[e]];
    }
    uint32_t at = 0;
    for (uint32_t v = 0; v < s->vertex_count; ++v) {
        first[v] = at;
        at += count[v];
        count[v] = 0;
    }
    uint16_t *edge = bank->fan_edge + s->loop_first, *other = bank->fan_other + s->loop_first;
    uint16_t *twin = bank->fan_twin + s->loop_first, *face = bank->fan_face + s->loop_first;
    uint32_t stride = mf_fan_stride(s->loop_count);
    float *rows = bank->rows + s->fan_rows_first;
    memset(rows, 0, MF_FAN_ROWS * stride * sizeof(float));
    for (uint32_t e = 0; e < s->edge_count; ++e) {
        uint32_t v0 = hull.edge_vertex0[e], v1 = hull.edge_vertex1[e];
        uint32_t k0 = first[v0] + count[v0]++, k1 = first[v1] + count[v1]++;
        edge[k0] = edge[k1] = (uint16_t)e;
        other[k0] = (uint16_t)v1;
        other[k1] = (uint16_t)v0;
        twin[k0] = (uint16_t)k1;
        twin[k1] = (uint16_t)k0;
        face[k0] = hull.edge_face0[e]; // face0 runs vertex0 -> vertex1, face1 the other way
        face[k1] = hull.edge_face1[e];
        mf_vec3 values[3] = {mf_view_normal(&hull, hull.edge_face0[e]), mf_view_normal(&hull, hull.edge_face1[e]),
                             (mf_vec3){hull.edge_x[e], hull.edge_y[e], hull.edge_z[e]}};
        for (uint32_t r = 0; r < 3; ++r) {
            const float components[3] = {values[r].x, values[r].y, values[r].z};
            for (uint32_t c = 0; c < 3; ++c)
                rows[(3 * r + c) * stride + k0] = rows[(3 * r + c) * stride + k1] = components[c];
        }
    }
}

void mf_bank_write_rows(mf_bank *bank, uint32_t shape)
{
    const mf_shape *s = &bank->shapes[shape];
    MF_ASSERT(shape < bank->shape_count && s->serial != 0);
    MF_ASSERT(s->block_first + s->block_rows <= bank->row_count);
    MF_ASSERT(s->loop_count == 2 * s->edge_count && s->loop_count <= UINT16_MAX);
    write_fans(bank, shape);
    write_edge_rows(bank, shape);
    if (s->rows_first != UINT32_MAX) write_rows(bank, shape, (mf_rows){s->vertex_count, s->face_count});
    if (s->image_first != UINT32_MAX) write_image(bank, shape);
    if (s->support_map_first != UINT32_MAX) write_support_map(bank, shape);
}
