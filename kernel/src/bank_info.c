// What the public API reads back of a shape: its counts and measures, vertices, faces, edges.
#include "bank.h"

#include <stddef.h>

mf_status mf_bank_shape_info(const mf_bank *bank, mf_shape_id shape, mf_shape_info *info)
{
    if (bank == NULL || info == NULL || !mf_bank_has_shape(bank, shape)) return MF_ERR_INVALID_ARGUMENT;
    const mf_shape *s = &bank->shapes[shape];
    *info = (mf_shape_info){
        .vertex_count = s->vertex_count,
        .face_count = s->face_count,
        .edge_count = s->edge_count,
        .input_points = s->input_points,
        .welded_points = s->welded_points,
        .merged_facets = s->merged_facets,
        .volume = s->volume,
        .centroid = s->centroid,
        .radius = s->radius,
        .min_scale = s->scale_low,
        .max_scale = s->scale_high,
    };
    return MF_OK;
}

mf_status mf_bank_shape_vertices(const mf_bank *bank, mf_shape_id shape, mf_vec3 *vertices, uint32_t capacity)
{
    if (bank == NULL || !mf_bank_has_shape(bank, shape) || (vertices == NULL && capacity > 0))
        return MF_ERR_INVALID_ARGUMENT;
    mf_hull_view hull = *mf_bank_hull(bank, shape); // the view kept since the add
    for (uint32_t i = 0; i < hull.vertex_count && i < capacity; ++i) vertices[i] = mf_view_vertex(&hull, i);
    return capacity >= hull.vertex_count || vertices == NULL ? MF_OK : MF_ERR_CAPACITY;
}

mf_status mf_bank_shape_face(const mf_bank *bank, mf_shape_id shape, uint32_t face, mf_vec3 *normal, float *offset,
                             uint32_t *vertices, uint32_t capacity, uint32_t *count)
{
    if (bank == NULL || !mf_bank_has_shape(bank, shape) || face >= bank->shapes[shape].face_count ||
        (vertices == NULL && capacity > 0))
        return MF_ERR_INVALID_ARGUMENT;
    mf_hull_view hull = *mf_bank_hull(bank, shape); // the view kept since the add
    uint32_t n = hull.face_loop_count[face];
    const uint16_t *loop = hull.loop_vertex + hull.face_loop_first[face];
    if (normal != NULL) *normal = mf_view_normal(&hull, face);
    if (offset != NULL) *offset = hull.offset[face];
    if (count != NULL) *count = n;
    for (uint32_t k = 0; k < n && k < capacity; ++k) vertices[k] = loop[k];
    return capacity >= n || vertices == NULL ? MF_OK : MF_ERR_CAPACITY;
}

mf_status mf_bank_shape_edge(const mf_bank *bank, mf_shape_id shape, uint32_t edge, mf_edge_info *info)
{
    if (bank == NULL || info == NULL || !mf_bank_has_shape(bank, shape) || edge >= bank->shapes[shape].edge_count)
        return MF_ERR_INVALID_ARGUMENT;
    mf_hull_view hull = *mf_bank_hull(bank, shape); // the view kept since the add
    *info =
        (mf_edge_info){hull.edge_vertex0[edge], hull.edge_vertex1[edge], hull.edge_face0[edge], hull.edge_face1[edge]};
    return MF_OK;
}

mf_status mf_bank_shape_geometry(const mf_bank *bank, mf_shape_id shape, mf_shape_geometry *g)
{
    if (bank == NULL || g == NULL || !mf_bank_has_shape(bank, shape)) return MF_ERR_INVALID_ARGUMENT;
    mf_hull_view hull = *mf_bank_hull(bank, shape); // the view kept since the add
    g->vertex_count = hull.vertex_count;
    g->face_count = hull.face_count;
    g->loop_count = 2 * hull.edge_count;
    g->edge_count = hull.edge_count;
    for (uint32_t v = 0; g->vertices != NULL && v < hull.vertex_count && v < g->vertex_capacity; ++v)
        g->vertices[v] = mf_view_vertex(&hull, v);
    uint32_t at = 0;
    for (uint32_t f = 0; f < hull.face_count; ++f) {
        uint32_t n = hull.face_loop_count[f];
        const uint16_t *loop = hull.loop_vertex + hull.face_loop_first[f];
        for (uint32_t k = 0; g->loop_vertices != NULL && k < n && at + k < g->loop_capacity; ++k)
            g->loop_vertices[at + k] = loop[k];
        if (f < g->face_capacity) {
            if (g->face_normals != NULL) g->face_normals[f] = mf_view_normal(&hull, f);
            if (g->face_offsets != NULL) g->face_offsets[f] = hull.offset[f];
            if (g->face_first != NULL) g->face_first[f] = at;
            if (g->face_size != NULL) g->face_size[f] = n;
        }
        at += n;
    }
    for (uint32_t e = 0; g->edges != NULL && e < hull.edge_count && e < g->edge_capacity; ++e)
        g->edges[e] =
            (mf_edge_info){hull.edge_vertex0[e], hull.edge_vertex1[e], hull.edge_face0[e], hull.edge_face1[e]};
    int faces_asked =
        g->face_normals != NULL || g->face_offsets != NULL || g->face_first != NULL || g->face_size != NULL;
    int short_of_room = (g->vertices != NULL && g->vertex_capacity < g->vertex_count) ||
                        (faces_asked && g->face_capacity < g->face_count) ||
                        (g->loop_vertices != NULL && g->loop_capacity < g->loop_count) ||
                        (g->edges != NULL && g->edge_capacity < g->edge_count);
    return short_of_room ? MF_ERR_CAPACITY : MF_OK;
}
