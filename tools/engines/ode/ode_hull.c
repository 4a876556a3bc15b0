// A bank shape as dConvex's arrays (mf_ode_hull_make): the bank's faces are already what dConvex
// wants, planes with outward normals and loops counter-clockwise from outside.
#include "mf_ode.h"

#include <stdlib.h>

mf_status mf_ode_hull_make(const mf_bank *bank, uint32_t shape, mf_ode_hull *hull)
{
    if (hull == NULL) return MF_ERR_INVALID_ARGUMENT;
    *hull = (mf_ode_hull){0};
    mf_shape_geometry sizes = {0};
    mf_status status = mf_bank_shape_geometry(bank, shape, &sizes);
    if (status != MF_OK) return status;
    uint32_t vertex_count = sizes.vertex_count, face_count = sizes.face_count, loop_count = sizes.loop_count;
    mf_shape_geometry g = {
        .vertices = malloc(vertex_count * sizeof(mf_vec3)),
        .vertex_capacity = vertex_count,
        .face_normals = malloc(face_count * sizeof(mf_vec3)),
        .face_offsets = malloc(face_count * sizeof(float)),
        .face_first = malloc(face_count * sizeof(uint32_t)),
        .face_size = malloc(face_count * sizeof(uint32_t)),
        .face_capacity = face_count,
        .loop_vertices = malloc(loop_count * sizeof(uint32_t)),
        .loop_capacity = loop_count,
    };
    hull->planes = malloc(4 * face_count * sizeof(dReal));
    hull->points = malloc(3 * vertex_count * sizeof(dReal));
    hull->polygons = malloc((face_count + loop_count) * sizeof(unsigned int));
    if (g.vertices == NULL || g.face_normals == NULL || g.face_offsets == NULL || g.face_first == NULL ||
        g.face_size == NULL || g.loop_vertices == NULL || hull->planes == NULL || hull->points == NULL ||
        hull->polygons == NULL)
        status = MF_ERR_OUT_OF_MEMORY;
    if (status == MF_OK) status = mf_bank_shape_geometry(bank, shape, &g);
    if (status == MF_OK) {
        for (uint32_t v = 0; v < vertex_count; ++v) {
            hull->points[3 * v] = g.vertices[v].x;
            hull->points[3 * v + 1] = g.vertices[v].y;
            hull->points[3 * v + 2] = g.vertices[v].z;
        }
        unsigned int *polygon = hull->polygons;
        for (uint32_t f = 0; f < face_count; ++f) {
            hull->planes[4 * f] = g.face_normals[f].x;
            hull->planes[4 * f + 1] = g.face_normals[f].y;
            hull->planes[4 * f + 2] = g.face_normals[f].z;
            hull->planes[4 * f + 3] = g.face_offsets[f];
            *polygon++ = g.face_size[f];
            for (uint32_t k = 0; k < g.face_size[f]; ++k) *polygon++ = g.loop_vertices[g.face_first[f] + k];
        }
        hull->plane_count = face_count;
        hull->point_count = vertex_count;
    }
    free(g.vertices);
    free(g.face_normals);
    free(g.face_offsets);
    free(g.face_first);
    free(g.face_size);
    free(g.loop_vertices);
    if (status != MF_OK) mf_ode_hull_free(hull);
    return status;
}

void mf_ode_hull_free(mf_ode_hull *hull)
{
    if (hull == NULL) return;
    free(hull->planes);
    free(hull->points);
    free(hull->polygons);
    *hull = (mf_ode_hull){0};
}
