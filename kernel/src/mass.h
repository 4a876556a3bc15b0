// Mass properties of a closed polyhedron: its volume integrals in double (the bank's volume and
// centroid come from them), and mf_bank_shape_mass's inertia and principal axes built on them.
#pragma once

#include "manyfold.h"

// The volume integrals of a solid of density 1, in its own frame.
typedef struct mf_solid {
    double volume;
    double center[3];        // the centre of mass
    double covariance[3][3]; // the integral of (x - center)(x - center)^T over the solid
} mf_solid;

// The solid a closed polyhedron with outward (counter-clockwise from outside) face loops bounds:
// loops holds face f's loop_counts[f] vertex indices after the faces before it. The same vertices
// and loops give the same bits, so the bank's centroid, taken when the shape is added, and
// mf_bank_shape_mass's centre, taken again from the bank's arrays, agree exactly.
mf_solid mf_solid_of(const mf_vec3 *vertices, uint32_t vertex_count, const uint16_t *loops, const uint16_t *loop_counts,
                     uint32_t face_count);

// The centre rounded to float, as the bank's centroid and mf_mass.center both take it.
static inline mf_vec3 mf_solid_center(const mf_solid *solid)
{
    return (mf_vec3){(float)solid->center[0], (float)solid->center[1], (float)solid->center[2]};
}

// Off-diagonal entries of the inertia tensor at or below this fraction of its (Frobenius) norm are
// rounding noise of the integrals: the eigen-decomposition zeroes them without a rotation. Leaving
// them changes a moment by at most that fraction (far below float's 6e-8), and it keeps a cube or
// a box with two equal sides from turning by 45 degrees about an axis whose moments tie.
#define MF_INERTIA_NOISE 1e-13
// Sweeps of the cyclic Jacobi method at most: it converges quadratically and takes a 3x3 tensor
// below MF_INERTIA_NOISE in about four; the limit only bounds the loop.
#define MF_JACOBI_SWEEPS 32
