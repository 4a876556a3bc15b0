// Reading a shape's geometry out of the bank in one call.
#include "scene_geometry.h"

#include <stdlib.h>

mf_status scene_geometry_load(const mf_bank *bank, uint32_t shape, scene_geometry *out)
{
    *out = (scene_geometry){0};
    mf_shape_info info;
    mf_status status = mf_bank_shape_info(bank, shape, &info);
    if (status != MF_OK) return status;
    *out = (scene_geometry){.vertex_count = info.vertex_count,
                            .face_count = info.face_count,
                            .edge_count = info.edge_count,
                            .vertices = malloc(info.vertex_count * sizeof(mf_vec3)),
                            .normals = malloc(info.face_count * sizeof(mf_vec3)),
                            .offsets = malloc(info.face_count * sizeof(float)),
                            .face_first = malloc(info.face_count * sizeof(uint32_t)),
                            .face_size = malloc(info.face_count * sizeof(uint32_t)),
                            .loops = malloc(2 * info.edge_count * sizeof(uint32_t)), // each edge is in two loops
                            .edges = malloc(info.edge_count * sizeof(mf_edge_info)),
                            .radius = info.radius};
    if (!out->vertices || !out->normals || !out->offsets || !out->face_first || !out->face_size || !out->loops ||
        !out->edges)
        status = MF_ERR_OUT_OF_MEMORY;
    mf_shape_geometry geometry = {.vertices = out->vertices,
                                  .vertex_capacity = info.vertex_count,
                                  .face_normals = out->normals,
                                  .face_offsets = out->offsets,
                                  .face_first = out->face_first,
                                  .face_size = out->face_size,
                                  .face_capacity = info.face_count,
                                  .loop_vertices = out->loops,
                                  .loop_capacity = 2 * info.edge_count,
                                  .edges = out->edges,
                                  .edge_capacity = info.edge_count};
    if (status == MF_OK) status = mf_bank_shape_geometry(bank, shape, &geometry);
    if (status != MF_OK) scene_geometry_free(out);
    return status;
}

void scene_geometry_free(scene_geometry *geometry)
{
    free(geometry->vertices);
    free(geometry->normals);
    free(geometry->offsets);
    free(geometry->face_first);
    free(geometry->face_size);
    free(geometry->loops);
    free(geometry->edges);
    *geometry = (scene_geometry){0};
}
