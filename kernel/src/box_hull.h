// The separating-axis queries of a box against a hull, in the hull's frame (box_hull.c, compiled
// once per ISA and with width 1 for the scalar path); box_hull_pair.c puts their answers in the
// pair's terms.
#pragma once

#include "sat.h"

// The box as the hull's frame sees it: its centre, its unit axes and its half extents along them.
typedef struct mf_box_in_hull {
    mf_vec3 centre;
    mf_vec3 axis[3];
    float half[3];
} mf_box_in_hull;

// The best edge pair of a box and a hull: the hull's edge and the box axis its partner runs along.
typedef struct mf_box_edge_query {
    float separation;
    uint32_t hull_edge, box_axis;
} mf_box_edge_query;

// The hull's face whose plane the box lies highest over, the first of equals (no early out).
typedef mf_face_query mf_box_hull_faces_fn(const mf_hull_view *hull, const mf_box_in_hull *box);

// The best edge pair over every pair that builds a face of the Minkowski difference; ties go to the
// lowest hull edge, then the lowest box axis. The hull needs its edge rows (rows.h).
typedef mf_box_edge_query mf_box_hull_edges_fn(const mf_hull_view *hull, const mf_box_in_hull *box);

typedef struct mf_box_hull_kernel {
    mf_box_hull_faces_fn *faces;
    mf_box_hull_edges_fn *edges;
} mf_box_hull_kernel;

mf_box_hull_faces_fn mf_box_hull_faces_scalar, mf_box_hull_faces_sse, mf_box_hull_faces_avx2, mf_box_hull_faces_avx512,
    mf_box_hull_faces_avx512_intel, mf_box_hull_faces_neon;
mf_box_hull_edges_fn mf_box_hull_edges_scalar, mf_box_hull_edges_sse, mf_box_hull_edges_avx2, mf_box_hull_edges_avx512,
    mf_box_hull_edges_avx512_intel, mf_box_hull_edges_neon;

// Whether a pair of these shapes takes the box-hull queries: one is a box (mf_bank_add_box), the
// other a hull that is not a parallelepiped (those project, mf_uses_projection). Every hull has
// the edge rows they read, whatever its size.
static inline int mf_is_box_hull_pair(const mf_shape *a, const mf_shape *b)
{
    return a->box != b->box && !(a->parallelepiped && b->parallelepiped);
}
