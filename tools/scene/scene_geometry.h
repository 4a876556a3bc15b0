// A shape's geometry read back from its bank once, into arrays of its own: what the pile recipe's
// drops and the command line's pictures walk over (vertices, face planes and loops, edges).
#pragma once

#include "manyfold.h"

typedef struct scene_geometry {
    uint32_t vertex_count, face_count, edge_count;
    mf_vec3 *vertices;
    mf_vec3 *normals;
    float *offsets;
    uint32_t *face_first, *face_size, *loops; // face f's vertex loop: loops[face_first[f]], face_size[f] long
    mf_edge_info *edges;
    float radius; // the farthest vertex's distance from the shape's origin
} scene_geometry;

mf_status scene_geometry_load(const mf_bank *bank, uint32_t shape, scene_geometry *out);
void scene_geometry_free(scene_geometry *geometry);
